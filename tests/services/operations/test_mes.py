"""Forgeline MES: recipes, order states, operations gating completion, material consumption."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

MES = ServiceTools("mes")
WORLD = MES.world
ok, refused, every, first = MES.ok, MES.refused, MES.every, MES.first
POP = WORLD.population


def materials(ep: Episode) -> dict[str, dict[str, Any]]:
    return {m["id"]: m for m in every(ep, "list_materials")}


def new_order(ep: Episode, quantity: int = 1) -> dict[str, Any]:
    product = next(p for p in every(ep, "list_products") if p["recipe"])
    return dict(
        ok(
            ep,
            "create_manufacturing_order",
            product_id=product["id"],
            quantity=quantity,
            production_deadline="2026-12-31",
            assignee_email=POP.employees[0].email,
        )
    )


def stock_up(ep: Episode, order: dict[str, Any]) -> None:
    for need in ok(ep, "ingredient_availability", manufacturing_order_id=order["id"]):
        if need["status"] == "not_available":
            ok(ep, "adjust_material_stock", material_id=need["material_id"], change=need["required"], reason="received")


def test_seeded_products_are_the_populations_and_orders_cover_every_state(ep: Episode) -> None:
    skus = {p.sku for p in POP.products}
    assert all(p["sku"] in skus for p in every(ep, "list_products"))
    assert {o["status"] for o in every(ep, "list_manufacturing_orders")} == {"not_started", "in_progress", "done"}
    planners = {p.email for p in POP.employees}
    assert all(o["assignee_email"] in planners for o in every(ep, "list_manufacturing_orders"))


def test_order_needs_a_recipe_and_a_positive_quantity(ep: Episode) -> None:
    bare = next(p for p in every(ep, "list_products") if not p["recipe"])
    args = {"production_deadline": "2026-12-31", "assignee_email": POP.employees[0].email}
    refused(ep, "create_manufacturing_order", "rule_violation", "product_id", product_id=bare["id"], quantity=1, **args)
    with_recipe = next(p for p in every(ep, "list_products") if p["recipe"])
    refused(
        ep, "create_manufacturing_order", "rule_violation", "quantity", product_id=with_recipe["id"], quantity=0, **args
    )


def test_recipe_rows_are_unique_and_locked_while_in_production(ep: Episode) -> None:
    product = next(p for p in every(ep, "list_products") if p["recipe"])
    used = product["recipe"][0]["material_id"]
    refused(
        ep, "add_recipe_row", "rule_violation", "material_id", product_id=product["id"], material_id=used, quantity=1
    )
    spare = next(m for m in materials(ep) if m not in {r["material_id"] for r in product["recipe"]})
    grown = ok(ep, "add_recipe_row", product_id=product["id"], material_id=spare, quantity=2)
    assert grown["recipe"][-1] == {"material_id": spare, "quantity": 2}
    busy = first(ep, "manufacturing_orders", status="in_progress")
    refused(ep, "remove_recipe_row", "rule_violation", "product_id", product_id=busy["product_id"], material_id=used)


def test_completion_consumes_materials_adds_stock_and_costs_the_order(ep: Episode) -> None:
    order = new_order(ep, quantity=2)
    stock_up(ep, order)
    before = materials(ep)
    product = ok(ep, "get_product", product_id=order["product_id"])
    ok(ep, "start_manufacturing_order", manufacturing_order_id=order["id"])
    done = ok(ep, "complete_manufacturing_order", manufacturing_order_id=order["id"])
    assert done["status"] == "done" and done["done_at"]
    after = materials(ep)
    for row in product["recipe"]:
        used = before[row["material_id"]]["in_stock"] - after[row["material_id"]]["in_stock"]
        assert used == 2 * row["quantity"]
    assert done["total_cost"] == sum(
        2 * r["quantity"] * before[r["material_id"]]["cost_per_unit"] for r in product["recipe"]
    )
    assert ok(ep, "get_product", product_id=product["id"])["in_stock"] == product["in_stock"] + 2
    refused(
        ep,
        "complete_manufacturing_order",
        "rule_violation",
        "manufacturing_order_id",
        manufacturing_order_id=order["id"],
    )


def test_completion_refused_when_a_material_is_short(ep: Episode) -> None:
    order = new_order(ep, quantity=1)
    stock_up(ep, order)
    ok(ep, "start_manufacturing_order", manufacturing_order_id=order["id"])
    need = ok(ep, "ingredient_availability", manufacturing_order_id=order["id"])[0]
    ok(ep, "adjust_material_stock", material_id=need["material_id"], change=-need["in_stock"], reason="scrap")
    msg = refused(
        ep,
        "complete_manufacturing_order",
        "rule_violation",
        "manufacturing_order_id",
        manufacturing_order_id=order["id"],
    )
    assert "not enough" in msg


def test_open_operations_block_completion_until_completed(ep: Episode) -> None:
    order = new_order(ep)
    stock_up(ep, order)
    op = ok(ep, "add_operation", manufacturing_order_id=order["id"], name="Assembly", planned_minutes=30)
    refused(
        ep,
        "add_operation",
        "rule_violation",
        "name",
        manufacturing_order_id=order["id"],
        name="assembly",
        planned_minutes=5,
    )
    refused(ep, "complete_operation", "rule_violation", "operation_id", operation_id=op["id"])
    ok(ep, "start_manufacturing_order", manufacturing_order_id=order["id"])
    refused(
        ep,
        "complete_manufacturing_order",
        "rule_violation",
        "manufacturing_order_id",
        manufacturing_order_id=order["id"],
    )
    assert ok(ep, "complete_operation", operation_id=op["id"])["status"] == "completed"
    refused(ep, "complete_operation", "rule_violation", "operation_id", operation_id=op["id"])
    assert ok(ep, "complete_manufacturing_order", manufacturing_order_id=order["id"])["status"] == "done"
    refused(
        ep,
        "add_operation",
        "rule_violation",
        "manufacturing_order_id",
        manufacturing_order_id=order["id"],
        name="Late",
        planned_minutes=5,
    )


def test_started_order_cannot_start_again(ep: Episode) -> None:
    busy = first(ep, "manufacturing_orders", status="in_progress")
    refused(
        ep, "start_manufacturing_order", "rule_violation", "manufacturing_order_id", manufacturing_order_id=busy["id"]
    )


def test_stock_adjustment_cannot_go_negative_and_receipts_add(ep: Episode) -> None:
    mat = next(iter(materials(ep).values()))
    refused(
        ep,
        "adjust_material_stock",
        "rule_violation",
        "change",
        material_id=mat["id"],
        change=-(mat["in_stock"] + 1),
        reason="count",
    )
    refused(
        ep, "adjust_material_stock", "rule_violation", "change", material_id=mat["id"], change=-1, reason="received"
    )
    assert (
        ok(ep, "adjust_material_stock", material_id=mat["id"], change=5, reason="received")["in_stock"]
        == mat["in_stock"] + 5
    )
