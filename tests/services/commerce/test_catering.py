"""Platter Catering: lead times, delivery hours, feeding the headcount, minimums, change cutoff, late fees."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CATERING = ServiceTools("catering")
WORLD = CATERING.world
ok, refused, every, first = CATERING.ok, CATERING.refused, CATERING.every, CATERING.first
POP = WORLD.population
NOW = WORLD.epoch


def when(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def caterers(ep: Episode) -> list[dict[str, Any]]:
    return every(ep, "list_caterers")


def items(ep: Episode, caterer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {i["name"]: i for i in every(ep, "list_menu_items", caterer_id=caterer["id"])}


def at(days: int, hour: int) -> str:
    return dt.datetime.combine(NOW.date() + dt.timedelta(days=days), dt.time(hour), tzinfo=dt.UTC).isoformat()


def order_args(ep: Episode, **kw: Any) -> dict[str, Any]:
    taco = caterers(ep)[0]
    menu = items(ep, taco)
    person = POP.employees[2]
    args = {
        "caterer_id": taco["id"],
        "event_name": "Sales kickoff lunch",
        "contact_name": person.name,
        "contact_email": person.email,
        "contact_phone": person.phone,
        "delivery_address": POP.home.address.model_dump(),
        "delivery_at": at(3, 12),
        "headcount": 24,
        "lines": [
            {"menu_item_id": menu["Build-Your-Own Taco Bar"]["id"], "quantity": 24},
            {"menu_item_id": menu["Chips & Guacamole Tray"]["id"], "quantity": 2},
        ],
    }
    return args | kw


def seeded(ep: Episode, status: str, ahead: dt.timedelta | None = None) -> dict[str, Any]:
    for o in every(ep, "list_orders", status=status):
        if ahead is None or when(o["delivery_at"]) - NOW < ahead:
            return o
    raise AssertionError(status)


def test_caterers_are_population_companies_and_orders_add_up(ep: Episode) -> None:
    names = {c.name for c in POP.customers}
    assert all(c["name"] in names for c in caterers(ep))
    staff = {p.email for p in POP.employees}
    for o in every(ep, "list_orders"):
        assert o["contact_email"] in staff and o["delivery_address"] == POP.home.address.model_dump()
        assert o["subtotal"] == sum(line["total"] for line in o["lines"])
        assert o["total"] == o["subtotal"] + o["delivery_fee"] + o["tax"] + o["tip"]


def test_orders_respect_the_lead_time_the_delivery_hours_and_an_active_caterer(ep: Episode) -> None:
    soon = (NOW + dt.timedelta(hours=10)).isoformat()
    refused(ep, "place_order", "rule_violation", "delivery_at", **order_args(ep, delivery_at=soon))
    refused(ep, "place_order", "rule_violation", "delivery_at", **order_args(ep, delivery_at=at(3, 22)))
    closed = next(c for c in caterers(ep) if not c["active"])
    refused(
        ep,
        "quote_order",
        "rule_violation",
        "caterer_id",
        caterer_id=closed["id"],
        delivery_at=at(3, 12),
        headcount=10,
        lines=order_args(ep)["lines"],
    )


def test_the_items_must_be_the_caterers_feed_everyone_and_reach_the_minimum(ep: Episode) -> None:
    args = order_args(ep)
    taco = items(ep, caterers(ep)[0])
    bar = taco["Build-Your-Own Taco Bar"]["id"]
    chips = taco["Chips & Guacamole Tray"]["id"]
    refused(ep, "place_order", "rule_violation", "lines", **(args | {"headcount": 60}))
    refused(ep, "place_order", "rule_violation", "headcount", **(args | {"headcount": 500}))
    refused(
        ep,
        "place_order",
        "rule_violation",
        "lines.0.quantity",
        **(args | {"headcount": 6, "lines": [{"menu_item_id": bar, "quantity": 6}]}),
    )
    refused(
        ep,
        "place_order",
        "rule_violation",
        "lines",
        **(args | {"headcount": 12, "lines": [{"menu_item_id": chips, "quantity": 1}]}),
    )
    other = next(iter(items(ep, caterers(ep)[1]).values()))["id"]
    refused(
        ep,
        "place_order",
        "rule_violation",
        "lines.1.menu_item_id",
        **(args | {"lines": [args["lines"][0], {"menu_item_id": other, "quantity": 1}]}),
    )
    fajita = taco["Veggie Fajita Package"]["id"]
    refused(
        ep,
        "place_order",
        "rule_violation",
        "lines.0.menu_item_id",
        **(args | {"lines": [{"menu_item_id": fajita, "quantity": 24}]}),
    )


def test_a_placed_order_is_priced_with_delivery_and_tax(ep: Episode) -> None:
    args = order_args(ep, tip=1500)
    caterer = caterers(ep)[0]
    quote = ok(
        ep,
        "quote_order",
        caterer_id=args["caterer_id"],
        delivery_at=args["delivery_at"],
        headcount=24,
        lines=args["lines"],
        tip=1500,
    )
    order = ok(ep, "place_order", **args)
    subtotal = 24 * 1650 + 2 * 4500
    tax = ((subtotal + caterer["delivery_fee"]) * caterer["tax_basis_points"] + 5000) // 10000
    assert (order["subtotal"], order["tax"], order["status"]) == (subtotal, tax, "submitted")
    assert order["total"] == quote["total"] == subtotal + caterer["delivery_fee"] + tax + 1500
    assert quote["servings"] == 24 + 2 * 12 and order["order_number"].startswith("EZ-")


def test_changes_are_taken_until_the_cutoff_and_send_the_order_back_for_confirmation(ep: Episode) -> None:
    order = seeded(ep, "confirmed", dt.timedelta(days=2))
    bar = order["lines"][0]["menu_item_id"]
    refused(ep, "change_order", "rule_violation", "lines", order_id=order["id"], headcount=order["headcount"] + 20)
    changed = ok(
        ep,
        "change_order",
        order_id=order["id"],
        headcount=35,
        lines=[
            {"menu_item_id": bar, "quantity": 35},
            {"menu_item_id": order["lines"][1]["menu_item_id"], "quantity": 1},
        ],
    )
    assert (changed["status"], changed["changes"], changed["headcount"]) == ("submitted", 1, 35)
    assert changed["subtotal"] == order["subtotal"] + 10 * order["lines"][0]["unit_price"]
    late = seeded(ep, "confirmed", dt.timedelta(hours=2))
    refused(ep, "change_order", "rule_violation", "order_id", order_id=late["id"], tip=100)
    delivered = seeded(ep, "delivered")
    refused(ep, "change_order", "rule_violation", "order_id", order_id=delivered["id"], tip=100)


def test_cancelling_is_free_early_costs_the_late_fee_after_and_never_after_delivery(ep: Episode) -> None:
    caterer = caterers(ep)[0]
    early = next(
        o
        for o in every(ep, "list_orders", caterer_id=caterer["id"], status="confirmed")
        if when(o["delivery_at"]) - NOW > dt.timedelta(days=3)
    )
    assert ok(ep, "cancel_order", order_id=early["id"])["cancellation_fee"] == 0
    late = seeded(ep, "confirmed", dt.timedelta(days=2))
    done = ok(ep, "cancel_order", order_id=late["id"])
    assert done["cancellation_fee"] == late["subtotal"] * caterer["late_cancel_percent"] // 100 > 0
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=late["id"])
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=seeded(ep, "delivered")["id"])


def test_the_caterer_confirms_or_rejects_and_delivers_no_more_than_an_hour_early(ep: Episode) -> None:
    submitted = seeded(ep, "submitted")
    assert ok(ep, "confirm_order", order_id=submitted["id"])["status"] == "confirmed"
    refused(ep, "deliver_order", "rule_violation", "order_id", order_id=submitted["id"])
    due = seeded(ep, "confirmed", dt.timedelta(hours=1))
    assert ok(ep, "deliver_order", order_id=due["id"])["status"] == "delivered"
    placed = ok(ep, "place_order", **order_args(ep))
    assert ok(ep, "reject_order", order_id=placed["id"])["status"] == "rejected"
    refused(ep, "confirm_order", "rule_violation", "order_id", order_id=placed["id"])


def test_a_changed_delivery_time_needs_the_lead_time_and_the_delivery_hours(ep: Episode) -> None:
    order = next(
        o for o in every(ep, "list_orders", status="confirmed") if when(o["delivery_at"]) - NOW > dt.timedelta(days=3)
    )
    soon = (NOW + dt.timedelta(hours=6)).isoformat()
    refused(ep, "change_order", "rule_violation", "delivery_at", order_id=order["id"], delivery_at=soon)
    refused(ep, "change_order", "rule_violation", "delivery_at", order_id=order["id"], delivery_at=at(4, 5))
    moved = ok(ep, "change_order", order_id=order["id"], delivery_at=at(4, 9))
    assert (moved["delivery_at"], moved["total"], moved["status"]) == (
        at(4, 9).replace("+00:00", "Z"),
        order["total"],
        "submitted",
    )
