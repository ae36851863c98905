"""Pumpline: purchase controls, declines and exceptions, fraud holds, disputes, statements."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FC = ServiceTools("fuelcards")
WORLD = FC.world
ok, refused, every = FC.ok, FC.refused, FC.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
ANALYST = POP.employees[0].email
CITY = POP.home.place.city


def vehicle_card(ep: Episode, tank: int) -> dict[str, Any]:
    return next(c for c in every(ep, "list_cards", status="active") if c["tank_liters"] == tank)


def buy(ep: Episode, card: dict[str, Any], **kw: Any) -> dict[str, Any]:
    args = {"card_id": card["id"], "merchant": "Shell", "merchant_city": CITY, "product": "diesel", "amount": 5000}
    return ok(ep, "authorize_purchase", **(args | kw))  # type: ignore[no-any-return]


def test_seeded_cards_belong_to_vehicles_or_employees(ep: Episode) -> None:
    cards = every(ep, "list_cards")
    for c in cards:
        assert (c["vehicle_plate"] is None) != (c["driver_email"] is None)
        assert c["driver_email"] is None or c["driver_email"] in STAFF
        assert c["per_purchase_limit"] <= c["daily_limit"]
    held = every(ep, "list_cards", status="held")
    assert [h["card_id"] for h in every(ep, "list_holds", status="active")] == [c["id"] for c in held]
    for t in every(ep, "list_transactions", status="declined"):
        assert every(ep, "list_exceptions", transaction_id=t["id"])[0]["kind"] == "declined_attempt"


def test_a_purchase_is_declined_against_the_controls_and_kept(ep: Episode) -> None:
    card = vehicle_card(ep, 80)
    t = buy(ep, card, product="merchandise", odometer_km=1)
    assert (t["status"], t["decline_reason"]) == ("declined", "product merchandise not allowed")
    t = buy(ep, card, amount=card["per_purchase_limit"] + 1, odometer_km=1)
    assert (t["status"], t["decline_reason"]) == ("declined", "over the per-purchase limit")
    assert len(every(ep, "list_exceptions", card_id=card["id"], kind="declined_attempt", status="open")) >= 2
    t = buy(ep, card, amount=card["per_purchase_limit"], liters=40.0, odometer_km=60000)
    assert t["status"] == "approved"
    assert every(ep, "list_exceptions", transaction_id=t["id"]) == []


def test_the_daily_limit_counts_todays_purchases(ep: Episode) -> None:
    card = vehicle_card(ep, 60)
    spend = ok(ep, "card_spend", card_id=card["id"])
    left = spend["remaining"]
    assert spend["spent"] + left == card["daily_limit"]
    while left >= card["per_purchase_limit"]:
        assert buy(ep, card, amount=card["per_purchase_limit"], odometer_km=5)["status"] == "approved"
        left -= card["per_purchase_limit"]
    if left:
        assert buy(ep, card, amount=left, odometer_km=5)["status"] == "approved"
    t = buy(ep, card, amount=100, odometer_km=5)
    assert (t["status"], t["decline_reason"]) == ("declined", "over the daily limit")
    assert ok(ep, "card_spend", card_id=card["id"])["remaining"] == 0


def test_overfill_and_missing_odometer_raise_exceptions(ep: Episode) -> None:
    card = vehicle_card(ep, 60)
    t = buy(ep, card, amount=1000, liters=75.0)
    kinds = {e["kind"] for e in every(ep, "list_exceptions", transaction_id=t["id"])}
    assert t["status"] == "approved" and kinds == {"tank_overfill", "missing_odometer"}


def test_confirmed_fraud_holds_the_card_until_released(ep: Episode) -> None:
    exc = next(
        e
        for e in every(ep, "list_exceptions", status="open")
        if ok(ep, "get_card", card_id=e["card_id"])["status"] == "active"
    )
    refused(ep, "confirm_fraud", "rule_violation", "reviewed_by", exception_id=exc["id"], reviewed_by="x@y.io")
    hold = ok(ep, "confirm_fraud", exception_id=exc["id"], reviewed_by=ANALYST)
    assert ok(ep, "get_exception", exception_id=exc["id"])["status"] == "fraud"
    card = ok(ep, "get_card", card_id=exc["card_id"])
    assert card["status"] == "held"
    refused(
        ep,
        "authorize_purchase",
        "conflict",
        "card_id",
        card_id=card["id"],
        merchant="BP",
        merchant_city=CITY,
        product="diesel",
        amount=100,
    )
    refused(ep, "dismiss_exception", "conflict", "exception_id", exception_id=exc["id"])
    ok(ep, "release_hold", hold_id=hold["id"])
    assert ok(ep, "get_card", card_id=card["id"])["status"] == "active"
    refused(ep, "release_hold", "conflict", "hold_id", hold_id=hold["id"])


def test_a_terminated_card_cannot_be_held_or_used(ep: Episode) -> None:
    card = vehicle_card(ep, 300)
    ok(ep, "terminate_card", card_id=card["id"])
    refused(ep, "place_hold", "conflict", "card_id", card_id=card["id"], reason="Lost", placed_by=ANALYST)
    refused(
        ep,
        "authorize_purchase",
        "conflict",
        "card_id",
        card_id=card["id"],
        merchant="BP",
        merchant_city=CITY,
        product="diesel",
        amount=100,
    )
    made = ok(ep, "issue_card", vehicle_plate=card["vehicle_plate"], tank_liters=300)
    assert made["status"] == "active" and made["last4"] != card["last4"]


def test_one_live_card_per_vehicle_and_driver(ep: Episode) -> None:
    plate = vehicle_card(ep, 80)["vehicle_plate"]
    refused(ep, "issue_card", "conflict", "vehicle_plate", vehicle_plate=plate)
    refused(ep, "issue_card", "rule_violation", "vehicle_plate")
    refused(ep, "issue_card", "rule_violation", "driver_email", driver_email="nobody@else.io")
    refused(
        ep,
        "issue_card",
        "rule_violation",
        "per_purchase_limit",
        vehicle_plate="NEW 1",
        per_purchase_limit=9,
        daily_limit=5,
    )
    driver = next(c for c in every(ep, "list_cards") if c["driver_email"])["driver_email"]
    refused(ep, "issue_card", "conflict", "driver_email", driver_email=driver)


def test_only_posted_transactions_are_disputed(ep: Episode) -> None:
    approved = every(ep, "list_transactions", status="approved")[0]
    refused(ep, "dispute_transaction", "conflict", "transaction_id", transaction_id=approved["id"], reason="Unknown")
    posted = ok(ep, "post_transaction", transaction_id=approved["id"])
    refused(ep, "dispute_transaction", "rule_violation", "reason", transaction_id=posted["id"], reason="  ")
    d = ok(ep, "dispute_transaction", transaction_id=posted["id"], reason="Not our vehicle")
    assert (d["status"], d["dispute_reason"]) == ("disputed", "Not our vehicle")


def test_a_statement_bills_unbilled_posted_transactions_and_is_paid_in_full(ep: Episode) -> None:
    start, end = (TODAY - dt.timedelta(days=30)).isoformat(), TODAY.isoformat()
    unbilled = [
        t
        for t in every(ep, "list_transactions", status="posted", statement_id=None)
        if start <= t["authorized_at"][:10] <= end
    ]
    stmt = ok(ep, "generate_statement", period_start=start, period_end=end)
    assert (stmt["transaction_count"], stmt["total"]) == (len(unbilled), sum(t["amount"] for t in unbilled))
    refused(ep, "generate_statement", "rule_violation", "period_start", period_start=start, period_end=end)
    refused(ep, "pay_statement", "conflict", "statement_id", statement_id=stmt["id"], amount=stmt["total"])
    ok(ep, "issue_statement", statement_id=stmt["id"])
    refused(ep, "pay_statement", "rule_violation", "amount", statement_id=stmt["id"], amount=stmt["total"] - 1)
    assert ok(ep, "pay_statement", statement_id=stmt["id"], amount=stmt["total"])["status"] == "paid"
