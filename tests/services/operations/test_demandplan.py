"""Horizon Demand: overrides, consensus plans and their locks, replenishment suggestions, exceptions."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import add_months
from tests.services.helpers import ServiceTools

DP = ServiceTools("demandplan")
WORLD = DP.world
ok, refused, every = DP.ok, DP.refused, DP.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
A, B = POP.employees[0].email, POP.employees[1].email


def month(k: int) -> str:
    d = add_months(TODAY, k)
    return f"{d.year:04d}-{d.month:02d}"


def free_forecast(ep: Episode, period: str) -> dict[str, Any]:
    for fc in every(ep, "list_forecasts", period=period):
        if fc["override_qty"] is None:
            found: dict[str, Any] = fc
            return found
    raise AssertionError("no forecast without an override")


def test_items_come_from_the_product_catalog_with_staff_planners(ep: Episode) -> None:
    skus = {p.sku: p for p in POP.products}
    items = every(ep, "list_items")
    assert len(items) == 12
    for item in items:
        assert item["sku"] in skus and item["name"] == skus[item["sku"]].name
        assert item["planner_email"] in STAFF
        assert len(every(ep, "list_forecasts", item_id=item["id"])) == 8
    assert {p["status"] for p in every(ep, "list_consensus_plans")} == {"draft", "in_review", "approved", "published"}


def test_an_override_changes_the_final_forecast_and_is_reverted(ep: Episode) -> None:
    fc = free_forecast(ep, month(2))
    args = {"sku": fc["sku"], "period": fc["period"], "planner_email": A}
    refused(ep, "override_forecast", "rule_violation", "note", new_qty=fc["final_qty"] + 1, reason="other", **args)
    refused(ep, "override_forecast", "rule_violation", "new_qty", new_qty=fc["final_qty"], reason="promotion", **args)
    ovr = ok(ep, "override_forecast", new_qty=fc["final_qty"] + 2, reason="new_customer", **args)
    assert ovr["previous_qty"] == fc["final_qty"]
    assert ok(ep, "get_forecast", forecast_id=fc["id"])["final_qty"] == fc["final_qty"] + 2
    refused(ep, "override_forecast", "conflict", "period", new_qty=5, reason="promotion", **args)
    back = ok(ep, "revert_override", override_id=ovr["id"])
    assert (back["final_qty"], back["override_qty"]) == (fc["statistical_qty"], None)
    refused(ep, "revert_override", "conflict", "override_id", override_id=ovr["id"])


def test_past_and_locked_months_refuse_overrides(ep: Episode) -> None:
    past = free_forecast(ep, month(-1))
    args = {"sku": past["sku"], "new_qty": 999, "reason": "promotion", "planner_email": A}
    refused(ep, "override_forecast", "rule_violation", "period", period=past["period"], **args)
    refused(ep, "override_forecast", "rule_violation", "period", period=month(0), **args)
    refused(ep, "override_forecast", "rule_violation", "sku", period=month(2), **(args | {"sku": "NOPE-1"}))
    refused(
        ep,
        "override_forecast",
        "rule_violation",
        "planner_email",
        period=month(2),
        **(args | {"planner_email": "z@x.io"}),
    )


def test_a_big_override_raises_an_outlier_exception(ep: Episode) -> None:
    fc = free_forecast(ep, month(3))
    before = len(every(ep, "list_exceptions", kind="override_outlier", sku=fc["sku"]))
    ok(
        ep,
        "override_forecast",
        sku=fc["sku"],
        period=fc["period"],
        new_qty=fc["statistical_qty"] * 2,
        reason="promotion",
        planner_email=A,
    )
    after = every(ep, "list_exceptions", kind="override_outlier", sku=fc["sku"])
    assert len(after) == before + 1 and after[-1]["status"] == "open"
    small = free_forecast(ep, month(4))
    count = len(every(ep, "list_exceptions", kind="override_outlier", sku=small["sku"]))
    ok(
        ep,
        "override_forecast",
        sku=small["sku"],
        period=small["period"],
        new_qty=small["statistical_qty"] + 1,
        reason="seasonality",
        planner_email=A,
    )
    assert len(every(ep, "list_exceptions", kind="override_outlier", sku=small["sku"])) == count


def test_a_plan_is_approved_by_another_and_publishing_locks_its_month(ep: Episode) -> None:
    plan = every(ep, "list_consensus_plans", status="in_review")[0]
    refused(
        ep,
        "approve_plan",
        "rule_violation",
        "approver_email",
        consensus_plan_id=plan["id"],
        approver_email=plan["owner_email"],
    )
    refused(ep, "publish_plan", "rule_violation", "consensus_plan_id", consensus_plan_id=plan["id"])
    other = next(e for e in STAFF if e != plan["owner_email"])
    assert ok(ep, "approve_plan", consensus_plan_id=plan["id"], approver_email=other)["status"] == "approved"
    pub = ok(ep, "publish_plan", consensus_plan_id=plan["id"])
    fcs = every(ep, "list_forecasts", period=plan["period"])
    assert pub["total_units"] == sum(f["final_qty"] for f in fcs) and all(f["locked"] for f in fcs)
    refused(
        ep,
        "override_forecast",
        "rule_violation",
        "period",
        sku=fcs[0]["sku"],
        period=plan["period"],
        new_qty=1,
        reason="promotion",
        planner_email=A,
    )
    refused(
        ep, "update_consensus_plan", "rule_violation", "consensus_plan_id", consensus_plan_id=plan["id"], notes="late"
    )


def test_one_plan_per_month_and_never_for_the_past(ep: Episode) -> None:
    refused(ep, "start_plan_cycle", "conflict", "period", name="Again", period=month(1), owner_email=A)
    refused(ep, "start_plan_cycle", "rule_violation", "period", name="Old", period=month(-1), owner_email=A)
    made = ok(ep, "start_plan_cycle", name="Peak season", period=month(5), owner_email=A)
    assert made["status"] == "draft"
    assert ok(ep, "submit_consensus_plan", consensus_plan_id=made["id"])["status"] == "in_review"
    assert ok(ep, "reject_consensus_plan", consensus_plan_id=made["id"])["status"] == "draft"


def test_replenishment_orders_lead_time_shortfall_rounded_to_moq(ep: Episode) -> None:
    for item in every(ep, "list_items"):
        if every(ep, "list_suggestions", item_id=item["id"]):
            continue
        res = ep.call("demandplan__run_replenishment", {"sku": item["sku"]})
        if not res.ok:
            continue
        sug = res.result
        assert sug["quantity"] % item["min_order_qty"] == 0
        assert sug["amount_cents"] == sug["quantity"] * item["unit_cost_cents"]
        assert sug["supplier"] == item["supplier"] and sug["status"] == "suggested"
        refused(ep, "run_replenishment", "conflict", "sku", sku=item["sku"])
        return
    raise AssertionError("no item needed an order")


def test_a_covered_item_gets_no_suggestion_until_safety_stock_rises(ep: Episode) -> None:
    item = every(ep, "list_items", sku=POP.products[3].sku)[0]
    assert item["on_hand"] + item["on_order"] > 200
    msg = refused(ep, "run_replenishment", "rule_violation", "sku", sku=item["sku"])
    assert "covered" in msg
    ok(ep, "update_item", item_id=item["id"], safety_stock=1000)
    sug = ok(ep, "run_replenishment", sku=item["sku"])
    assert sug["quantity"] >= 1000 - item["on_hand"] - item["on_order"]


def test_suggestions_are_approved_at_moq_multiples_and_released_once(ep: Episode) -> None:
    sug = every(ep, "list_suggestions", status="suggested")[0]
    item = ok(ep, "get_item", item_id=sug["item_id"])
    if item["min_order_qty"] > 1:
        refused(
            ep,
            "approve_suggestion",
            "rule_violation",
            "quantity",
            suggestion_id=sug["id"],
            approver_email=A,
            quantity=item["min_order_qty"] + 1,
        )
    refused(ep, "release_suggestion", "rule_violation", "suggestion_id", suggestion_id=sug["id"], po_number="PO-1234")
    qty = item["min_order_qty"] * 3
    approved = ok(ep, "approve_suggestion", suggestion_id=sug["id"], approver_email=A, quantity=qty)
    assert approved["amount_cents"] == qty * item["unit_cost_cents"]
    used = every(ep, "list_suggestions", status="released")[0]["po_number"]
    refused(ep, "release_suggestion", "conflict", "po_number", suggestion_id=sug["id"], po_number=used)
    released = ok(ep, "release_suggestion", suggestion_id=sug["id"], po_number="PO-99001")
    assert released["status"] == "released"
    assert ok(ep, "get_item", item_id=item["id"])["on_order"] == item["on_order"] + qty


def test_projection_walks_stock_down_by_final_forecasts(ep: Episode) -> None:
    item = every(ep, "list_items")[0]
    proj = ok(ep, "project_stock", sku=item["sku"])
    assert [m["period"] for m in proj["months"]] == [month(k) for k in range(6)]
    stock = item["on_hand"] + item["on_order"]
    for m in proj["months"]:
        stock -= m["demand"]
        assert m["projected_stock"] == stock
    first_short = next((m["period"] for m in proj["months"] if m["projected_stock"] < 0), None)
    assert proj["stockout_period"] == first_short
