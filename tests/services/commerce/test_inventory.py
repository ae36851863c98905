"""Stockline Inventory: available = on hand - allocated, transfers, adjustments, allocations, reorder report."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools, service_world

INV = ServiceTools("inventory")
WORLD = INV.world
ok, refused, every, seeded = INV.ok, INV.refused, INV.every, INV.seeded
POP = WORLD.population
CLERK = POP.employees[0].email


def active_sites(ep: Episode) -> list[dict[str, Any]]:
    return every(ep, "list_locations", active=True)


def level(ep: Episode, sku: str, location_id: str) -> dict[str, Any]:
    return every(ep, "list_stock_levels", sku=sku, location_id=location_id)[0]


def stocked(ep: Episode, minimum: int = 5) -> dict[str, Any]:
    active = {i["sku"] for i in every(ep, "list_items", status="active")}
    sites = {s["id"] for s in active_sites(ep)}
    return next(
        lv
        for lv in every(ep, "list_stock_levels")
        if lv["available"] >= minimum and lv["sku"] in active and lv["location_id"] in sites
    )


def other_site(ep: Episode, location_id: str) -> dict[str, Any]:
    return next(s for s in active_sites(ep) if s["id"] != location_id)


def draft(ep: Episode, lv: dict[str, Any], quantity: int) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "create_transfer",
            from_location_id=lv["location_id"],
            to_location_id=other_site(ep, lv["location_id"])["id"],
            lines=[{"sku": lv["sku"], "quantity": quantity}],
            requested_by=CLERK,
        )
    )


# -- the world ---------------------------------------------------------------------------------


def test_items_are_the_populations_products_bought_from_its_companies() -> None:
    products = {p.sku: p for p in POP.products}
    companies = {c.name: c for c in POP.companies}
    for item in seeded("items"):
        p = products[item["sku"]]
        assert (item["name"], item["unit_cost"]) == (p.name, p.cost_cents)
        supplier = companies[item["supplier"]]
        assert item["supplier_email"] in {x.email for x in POP.people_at(supplier)}
    staff = {p.email for p in POP.employees}
    assert {loc["manager_email"] for loc in seeded("locations")} <= staff


def test_seeded_levels_are_consistent_with_allocations() -> None:
    for lv in seeded("stock_levels"):
        held = [
            a
            for a in seeded("allocations")
            if a["status"] == "allocated" and a["item_id"] == lv["item_id"] and a["location_id"] == lv["location_id"]
        ]
        assert lv["allocated"] == sum(a["quantity"] for a in held)
        assert lv["available"] == lv["on_hand"] - lv["allocated"]


def test_the_same_skus_as_the_warehouse_and_storefront() -> None:
    world = service_world("inventory", "shop")
    shop_skus = {v.sku for v in world.tables["shop.variants"].records.values()}
    assert {i.sku for i in world.tables["inventory.items"].records.values()} <= shop_skus


# -- transfers ---------------------------------------------------------------------------------


def test_a_transfer_moves_stock_when_dispatched_and_received(ep: Episode) -> None:
    lv = stocked(ep)
    t = draft(ep, lv, 3)
    assert t["status"] == "draft" and t["number"].startswith("TR-")
    assert level(ep, lv["sku"], lv["location_id"])["on_hand"] == lv["on_hand"]  # nothing moves yet
    ok(ep, "dispatch_transfer", transfer_id=t["id"], tracking_number="1Z999AA10123456784")
    assert level(ep, lv["sku"], lv["location_id"])["available"] == lv["available"] - 3
    dest = t["to_location_id"]
    avail = ok(ep, "item_availability", sku=lv["sku"])
    assert next(r for r in avail["locations"] if r["location_id"] == dest)["incoming"] >= 3
    before = sum(r["on_hand"] for r in avail["locations"] if r["location_id"] == dest)
    done = ok(ep, "receive_transfer", transfer_id=t["id"])
    assert done["status"] == "completed"
    assert level(ep, lv["sku"], dest)["on_hand"] == before + 3
    refused(ep, "void_transfer", "rule_violation", "transfer_id", transfer_id=t["id"])


def test_a_transfer_must_go_somewhere_else(ep: Episode) -> None:
    lv = stocked(ep)
    refused(
        ep,
        "create_transfer",
        "rule_violation",
        "to_location_id",
        from_location_id=lv["location_id"],
        to_location_id=lv["location_id"],
        lines=[{"sku": lv["sku"], "quantity": 1}],
        requested_by=CLERK,
    )


def test_dispatch_needs_the_units_available_at_the_source(ep: Episode) -> None:
    lv = stocked(ep)
    t = draft(ep, lv, lv["available"] + 1)
    msg = refused(ep, "dispatch_transfer", "rule_violation", "transfer_id", transfer_id=t["id"])
    assert f"only {lv['available']} unit(s)" in msg
    refused(ep, "receive_transfer", "rule_violation", "transfer_id", transfer_id=t["id"])


def test_voiding_an_in_transit_transfer_returns_the_units(ep: Episode) -> None:
    lv = stocked(ep)
    t = draft(ep, lv, 2)
    ok(ep, "dispatch_transfer", transfer_id=t["id"])
    assert ok(ep, "void_transfer", transfer_id=t["id"])["status"] == "void"
    after = level(ep, lv["sku"], lv["location_id"])
    assert (after["on_hand"], after["available"]) == (lv["on_hand"], lv["available"])


# -- allocations and adjustments ---------------------------------------------------------------


def test_allocating_holds_available_stock_and_fulfilling_ships_it(ep: Episode) -> None:
    lv = stocked(ep)
    refused(
        ep,
        "allocate_stock",
        "rule_violation",
        "quantity",
        order_number="SO-99001",
        location_id=lv["location_id"],
        sku=lv["sku"],
        quantity=lv["available"] + 1,
    )
    a = ok(ep, "allocate_stock", order_number="SO-99001", location_id=lv["location_id"], sku=lv["sku"], quantity=4)
    mid = level(ep, lv["sku"], lv["location_id"])
    assert (mid["on_hand"], mid["allocated"], mid["available"]) == (
        lv["on_hand"],
        lv["allocated"] + 4,
        lv["available"] - 4,
    )
    ok(ep, "fulfil_allocation", allocation_id=a["id"])
    end = level(ep, lv["sku"], lv["location_id"])
    assert (end["on_hand"], end["allocated"]) == (lv["on_hand"] - 4, lv["allocated"])
    refused(ep, "release_allocation", "rule_violation", "allocation_id", allocation_id=a["id"])


def test_releasing_gives_the_units_back(ep: Episode) -> None:
    a = every(ep, "list_allocations", status="allocated")[0]
    lv = level(ep, a["sku"], a["location_id"])
    ok(ep, "release_allocation", allocation_id=a["id"])
    assert level(ep, a["sku"], a["location_id"])["available"] == lv["available"] + a["quantity"]


def test_an_adjustment_cannot_go_below_what_is_allocated_and_values_the_change(ep: Episode) -> None:
    a = every(ep, "list_allocations", status="allocated")[0]
    lv = level(ep, a["sku"], a["location_id"])
    item = every(ep, "list_items", sku=a["sku"])[0]
    refused(
        ep,
        "adjust_stock",
        "rule_violation",
        "lines.0.quantity",
        location_id=a["location_id"],
        lines=[{"sku": a["sku"], "quantity": lv["allocated"] - 1}],
        reason="damaged",
        adjusted_by=CLERK,
    )
    adj = ok(
        ep,
        "adjust_stock",
        location_id=a["location_id"],
        lines=[{"sku": a["sku"], "quantity": lv["allocated"]}],
        reason="stocktake",
        adjusted_by=CLERK,
    )
    change = lv["allocated"] - lv["on_hand"]
    assert adj["lines"][0]["change"] == change
    assert adj["value_change"] == change * item["unit_cost"]
    assert level(ep, a["sku"], a["location_id"])["available"] == 0


def test_an_item_with_open_allocations_cannot_be_deprecated(ep: Episode) -> None:
    a = every(ep, "list_allocations", status="allocated")[0]
    refused(ep, "deprecate_item", "rule_violation", "item_id", item_id=a["item_id"])
    ok(ep, "release_allocation", allocation_id=a["id"])
    others = every(ep, "list_allocations", item_id=a["item_id"], status="allocated")
    for other in others:
        ok(ep, "release_allocation", allocation_id=other["id"])
    assert ok(ep, "deprecate_item", item_id=a["item_id"])["status"] == "deprecated"
    refused(
        ep,
        "allocate_stock",
        "rule_violation",
        "sku",
        order_number="SO-99002",
        location_id=a["location_id"],
        sku=a["sku"],
        quantity=1,
    )


# -- reorder report ----------------------------------------------------------------------------


def test_the_reorder_report_lists_levels_at_or_below_their_point(ep: Episode) -> None:
    report = ok(ep, "reorder_report")
    assert report
    for line in report:
        avail = ok(ep, "item_availability", sku=line["sku"])
        incoming = next(r["incoming"] for r in avail["locations"] if r["location_id"] == line["location_id"])
        assert line["available"] + incoming <= line["reorder_point"]
        item = every(ep, "list_items", sku=line["sku"])[0]
        assert (line["supplier"], line["supplier_email"]) == (item["supplier"], item["supplier_email"])
        assert line["estimated_cost"] == line["order_quantity"] * item["unit_cost"]
    listed = {(r["sku"], r["location_id"]) for r in report}
    lv = stocked(ep, minimum=10)
    assert (lv["sku"], lv["location_id"]) not in listed
    ok(ep, "update_stock_level", stock_level_id=lv["id"], reorder_point=lv["available"], reorder_quantity=50)
    again = ok(ep, "reorder_report", location_id=lv["location_id"])
    assert any(r["sku"] == lv["sku"] and r["order_quantity"] == 50 for r in again)
    refused(ep, "update_stock_level", "rule_violation", "reorder_quantity", stock_level_id=lv["id"], reorder_quantity=0)
