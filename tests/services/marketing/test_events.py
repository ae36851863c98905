"""Gatherly Events: capacity, publishing, sales windows, per-order limits, fees, refunds, cancellation, check-in."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EVENTS = ServiceTools("events")
WORLD = EVENTS.world
ok, refused, every, seeded = EVENTS.ok, EVENTS.refused, EVENTS.every, EVENTS.seeded
POP = WORLD.population
NOW = WORLD.epoch
BUYER = POP.consumers[57]


def event(policy: str | None = None, today: bool = False) -> dict[str, Any]:
    for ev in seeded("events"):
        if ev["status"] != "live":
            continue
        under_way = dt.datetime.fromisoformat(ev["start"]) <= NOW
        if under_way == today and policy in (None, ev["refund_policy"]):
            return ev
    raise AssertionError("no such event")


def on_sale(ep: Episode, ev: dict[str, Any]) -> dict[str, Any]:
    now = NOW.isoformat().replace("+00:00", "Z")
    return next(
        tc
        for tc in every(ep, "list_ticket_classes", event_id=ev["id"])
        if tc["sales_start"] <= now <= tc["sales_end"] and tc["quantity_total"] > tc["quantity_sold"]
    )


def buy(ep: Episode, ev: dict[str, Any], tc: dict[str, Any], quantity: int = 1) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "place_order",
            event_id=ev["id"],
            buyer_name=BUYER.name,
            buyer_email=BUYER.email,
            tickets=[{"ticket_class_id": tc["id"], "quantity": quantity}],
        )
    )


# -- the world ---------------------------------------------------------------------------------


def test_organizers_and_buyers_are_the_populations_people() -> None:
    people = {p.email: p for p in POP.people}
    companies = {c.name for c in POP.companies}
    for ev in seeded("events"):
        assert ev["organizer"] in companies
        organizer = people[ev["organizer_email"]]
        assert organizer.company_key is not None
    for o in seeded("orders"):
        assert people[o["buyer_email"]].name == o["buyer_name"]


def test_seeded_sales_add_up_and_fit_the_capacity() -> None:
    venues = {v["id"]: v for v in seeded("venues")}
    for ev in seeded("events"):
        assert ev["capacity"] <= venues[ev["venue_id"]]["capacity"]
        classes = [tc for tc in seeded("ticket_classes") if tc["event_id"] == ev["id"]]
        assert sum(tc["quantity_total"] for tc in classes) <= ev["capacity"]
        for tc in classes:
            live = [a for a in seeded("attendees") if a["ticket_class_id"] == tc["id"] and a["status"] == "attending"]
            assert tc["quantity_sold"] == len(live)
    for o in seeded("orders"):
        assert o["total"] == o["subtotal"] + o["fees"]


# -- selling -----------------------------------------------------------------------------------


def test_an_order_charges_the_fee_and_issues_one_ticket_per_seat(ep: Episode) -> None:
    ev = event("until_7_days")
    tc = on_sale(ep, ev)
    order = buy(ep, ev, tc, 2)
    fee = 0 if tc["price"] == 0 else round(tc["price"] * 3.5 / 100) + 99
    assert (order["subtotal"], order["fees"]) == (2 * tc["price"], 2 * fee)
    assert order["order_number"].startswith("GE-")
    tickets = every(ep, "list_attendees", order_id=order["id"])
    assert len(tickets) == 2 and {t["email"] for t in tickets} == {BUYER.email}
    assert len({t["barcode"] for t in tickets}) == 2


def test_sales_windows_and_per_order_limits(ep: Episode) -> None:
    ev = event("until_7_days")
    classes = every(ep, "list_ticket_classes", event_id=ev["id"])
    closed = next(tc for tc in classes if tc["sales_end"] < NOW.isoformat())
    args = dict(event_id=ev["id"], buyer_name=BUYER.name, buyer_email=BUYER.email)
    msg = refused(ep, "place_order", "rule_violation", "tickets.0.ticket_class_id",
                  tickets=[{"ticket_class_id": closed["id"], "quantity": 1}], **args)  # fmt: skip
    assert "have closed" in msg
    tc = on_sale(ep, ev)
    refused(ep, "place_order", "rule_violation", "tickets.0.quantity",
            tickets=[{"ticket_class_id": tc["id"], "quantity": tc["max_per_order"] + 1}], **args)  # fmt: skip
    other = event("no_refunds")
    foreign = every(ep, "list_ticket_classes", event_id=other["id"])[0]
    refused(ep, "place_order", "rule_violation", "tickets.0.ticket_class_id",
            tickets=[{"ticket_class_id": foreign["id"], "quantity": 1}], **args)  # fmt: skip


def test_a_class_never_sells_more_than_it_has(ep: Episode) -> None:
    ev = event("until_7_days")
    tc = on_sale(ep, ev)
    ok(ep, "update_ticket_class", ticket_class_id=tc["id"], quantity_total=tc["quantity_sold"] + 1)
    buy(ep, ev, tc, 1)
    msg = refused(ep, "place_order", "rule_violation", "tickets.0.quantity", event_id=ev["id"], buyer_name=BUYER.name,
                  buyer_email=BUYER.email, tickets=[{"ticket_class_id": tc["id"], "quantity": 1}])  # fmt: skip
    assert "only 0" in msg


def test_ticket_classes_fit_the_capacity_and_the_event(ep: Episode) -> None:
    ev = event("until_7_days")
    room = ev["capacity"] - sum(tc["quantity_total"] for tc in every(ep, "list_ticket_classes", event_id=ev["id"]))
    base = dict(event_id=ev["id"], name="Student", price=1_000, sales_start=NOW.isoformat(), sales_end=ev["start"])
    refused(ep, "create_ticket_class", "rule_violation", "quantity_total", quantity_total=room + 1, **base)
    late = {**base, "sales_end": (dt.datetime.fromisoformat(ev["end"]) + dt.timedelta(hours=1)).isoformat()}
    refused(ep, "create_ticket_class", "rule_violation", "sales_end", quantity_total=1, **late)
    assert ok(ep, "create_ticket_class", quantity_total=room, **base)["quantity_total"] == room
    sold = next(tc for tc in every(ep, "list_ticket_classes", event_id=ev["id"]) if tc["quantity_sold"])
    refused(ep, "update_ticket_class", "rule_violation", "price", ticket_class_id=sold["id"], price=sold["price"] + 100)


# -- publishing --------------------------------------------------------------------------------


def test_an_event_is_published_only_with_tickets_and_fits_its_venue(ep: Episode) -> None:
    venue = seeded("venues")[1]
    start = NOW + dt.timedelta(days=20)
    args = dict(name="Partner Day", organizer=POP.home.name, organizer_email=POP.employees[0].email,
                venue_id=venue["id"], start=start.isoformat(), end=(start + dt.timedelta(hours=4)).isoformat(),
                currency="EUR")  # fmt: skip
    refused(ep, "create_event", "rule_violation", "capacity", capacity=venue["capacity"] + 1, **args)
    refused(ep, "create_event", "rule_violation", "end", capacity=10, **{**args, "end": args["start"]})
    ev = ok(ep, "create_event", capacity=50, **args)
    assert ev["status"] == "draft"
    refused(ep, "publish_event", "rule_violation", "event_id", event_id=ev["id"])
    ok(ep, "create_ticket_class", event_id=ev["id"], name="General", price=2_500, quantity_total=50,
       sales_start=NOW.isoformat(), sales_end=args["start"])  # fmt: skip
    assert ok(ep, "publish_event", event_id=ev["id"])["status"] == "live"


# -- refunds and cancellation ------------------------------------------------------------------


def test_refunds_follow_the_policy_and_free_the_tickets(ep: Episode) -> None:
    ev = event("until_7_days")
    tc = on_sale(ep, ev)
    order = buy(ep, ev, tc, 2)
    out = ok(ep, "refund_order", order_id=order["id"])
    assert (out["status"], out["refunded_amount"]) == ("refunded", order["total"])
    after = next(x for x in every(ep, "list_ticket_classes", event_id=ev["id"]) if x["id"] == tc["id"])
    assert after["quantity_sold"] == tc["quantity_sold"]
    assert {a["status"] for a in every(ep, "list_attendees", order_id=order["id"])} == {"refunded"}
    refused(ep, "refund_order", "conflict", "order_id", order_id=order["id"])
    strict = event("no_refunds")
    placed = every(ep, "list_orders", event_id=strict["id"], status="placed")[0]
    refused(ep, "refund_order", "rule_violation", "order_id", order_id=placed["id"])
    venue = seeded("venues")[0]
    start = NOW + dt.timedelta(days=3)
    soon = ok(ep, "create_event", name="Pop-up Talk", organizer=POP.home.name, organizer_email=POP.employees[0].email,
              venue_id=venue["id"], start=start.isoformat(), end=(start + dt.timedelta(hours=2)).isoformat(),
              currency="EUR", capacity=20, refund_policy="until_7_days")  # fmt: skip
    tc = ok(ep, "create_ticket_class", event_id=soon["id"], name="Seat", price=1_500, quantity_total=20,
            sales_start=NOW.isoformat(), sales_end=start.isoformat())  # fmt: skip
    ok(ep, "publish_event", event_id=soon["id"])
    late = buy(ep, soon, tc)
    msg = refused(ep, "refund_order", "rule_violation", "order_id", order_id=late["id"])
    assert "refunds for Pop-up Talk closed" in msg


def test_cancelling_an_event_refunds_every_order(ep: Episode) -> None:
    ev = event("until_7_days")
    placed = every(ep, "list_orders", event_id=ev["id"], status="placed")
    assert placed
    assert ok(ep, "cancel_event", event_id=ev["id"])["status"] == "canceled"
    assert every(ep, "list_orders", event_id=ev["id"], status="placed") == []
    summary = ok(ep, "event_sales_summary", event_id=ev["id"])
    assert summary["tickets_sold"] == 0 and summary["refunded"] >= sum(o["total"] for o in placed)
    refused(ep, "place_order", "rule_violation", "event_id", event_id=ev["id"], buyer_name=BUYER.name,
            buyer_email=BUYER.email, tickets=[{"ticket_class_id": "tc_000001", "quantity": 1}])  # fmt: skip
    running = event(today=True)
    refused(ep, "cancel_event", "rule_violation", "event_id", event_id=running["id"])


# -- the door ----------------------------------------------------------------------------------


def test_check_in_is_once_per_ticket_while_doors_are_open(ep: Episode) -> None:
    today = event(today=True)
    waiting = every(ep, "list_attendees", event_id=today["id"], checked_in=False, status="attending")[0]
    scanned = ok(ep, "check_in_attendee", attendee_id=waiting["id"])
    assert scanned["checked_in"] and scanned["checked_in_at"] is not None
    refused(ep, "check_in_attendee", "conflict", "attendee_id", attendee_id=waiting["id"])
    refused(ep, "transfer_ticket", "rule_violation", "attendee_id", attendee_id=waiting["id"], name=BUYER.name,
            email=BUYER.email)  # fmt: skip
    refused(ep, "refund_order", "rule_violation", "order_id", order_id=waiting["order_id"])
    later = event("until_7_days")
    future = every(ep, "list_attendees", event_id=later["id"], status="attending")[0]
    refused(ep, "check_in_attendee", "rule_violation", "attendee_id", attendee_id=future["id"])


def test_a_ticket_can_be_passed_on_before_it_is_used(ep: Episode) -> None:
    ev = event("until_7_days")
    holder = every(ep, "list_attendees", event_id=ev["id"], status="attending")[0]
    friend = POP.consumers[56]
    moved = ok(ep, "transfer_ticket", attendee_id=holder["id"], name=friend.name, email=friend.email)
    assert (moved["name"], moved["email"], moved["barcode"]) == (friend.name, friend.email, holder["barcode"])
    refunded = every(ep, "list_attendees", status="refunded")[0]
    refused(ep, "check_in_attendee", "rule_violation", "attendee_id", attendee_id=refunded["id"])


def test_the_sales_summary_adds_up(ep: Episode) -> None:
    ev = event(today=True)
    summary = ok(ep, "event_sales_summary", event_id=ev["id"])
    placed = [o for o in seeded("orders") if o["event_id"] == ev["id"] and o["status"] == "placed"]
    assert summary["gross"] == sum(o["subtotal"] for o in placed)
    assert summary["fees"] == sum(o["fees"] for o in placed)
    assert summary["tickets_sold"] == sum(c["sold"] for c in summary["classes"])
    assert summary["checked_in"] == sum(1 for a in seeded("attendees") if a["event_id"] == ev["id"] and a["checked_in"])
