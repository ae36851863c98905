"""Frontdesk PMS: availability, room assignment, check-in rules and charges, balanced bills, cancellations, housekeeping."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PMS = ServiceTools("hotelpms")
WORLD = PMS.world
ok, refused, every = PMS.ok, PMS.refused, PMS.every
POP = WORLD.population


def room(ep: Episode, number: str) -> dict[str, Any]:
    return every(ep, "list_rooms", number=number)[0]


def res_in(ep: Episode, number: str, state: str) -> dict[str, Any]:
    return every(ep, "list_reservations", room_id=room(ep, number)["id"], state=state)[0]


def category(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_room_categories", query=name)[0]


def test_check_in_charges_the_nights_and_the_city_tax(ep: Episode) -> None:
    res = res_in(ep, "102", "Confirmed")
    started = ok(ep, "check_in", reservation_id=res["id"])
    assert started["state"] == "Started" and started["checked_in_at"] is not None
    bill = ok(ep, "get_bill", reservation_id=res["id"])
    kinds = [c["type"] for c in bill["charges"]]
    assert kinds == ["Accommodation", "Accommodation", "CityTax"]
    assert bill["balance"] == 2 * 12000 + 300 * res["adult_count"] * 2 and not bill["balanced"]
    refused(ep, "check_in", "conflict", "reservation_id", reservation_id=res["id"])


def test_check_in_needs_the_day_an_assigned_and_clean_room(ep: Episode) -> None:
    dirty = res_in(ep, "202", "Confirmed")
    refused(ep, "check_in", "rule_violation", "reservation_id", reservation_id=dirty["id"])
    ok(ep, "update_room_state", room_id=room(ep, "202")["id"], state="Clean")
    assert ok(ep, "check_in", reservation_id=dirty["id"])["state"] == "Started"
    tomorrow = res_in(ep, "103", "Confirmed")
    refused(ep, "check_in", "rule_violation", "reservation_id", reservation_id=tomorrow["id"])
    unassigned = next(
        r for r in every(ep, "list_reservations", state="Confirmed", start_date="2026-03-02") if not r["room_id"]
    )
    refused(ep, "check_in", "rule_violation", "reservation_id", reservation_id=unassigned["id"])


def test_room_assignment_rules(ep: Episode) -> None:
    res = next(
        r for r in every(ep, "list_reservations", state="Confirmed", start_date="2026-03-02") if not r["room_id"]
    )
    args = {"reservation_id": res["id"]}
    refused(ep, "assign_room", "rule_violation", "room_id", room_id=room(ep, "201")["id"], **args)
    refused(ep, "assign_room", "rule_violation", "room_id", room_id=room(ep, "106")["id"], **args)
    refused(ep, "assign_room", "conflict", "room_id", room_id=room(ep, "101")["id"], **args)
    assert ok(ep, "assign_room", room_id=room(ep, "105")["id"], **args)["room_id"] == room(ep, "105")["id"]
    started = res_in(ep, "101", "Started")
    refused(
        ep,
        "assign_room",
        "rule_violation",
        "reservation_id",
        reservation_id=started["id"],
        room_id=room(ep, "105")["id"],
    )


def test_bookings_respect_dates_capacity_and_availability(ep: Episode) -> None:
    guest = every(ep, "list_customers")[0]["id"]
    std = category(ep, "Standard")["id"]
    base = {"customer_id": guest, "category_id": std, "adult_count": 2}
    refused(
        ep, "create_reservation", "rule_violation", "start_date", start_date="2026-03-01", end_date="2026-03-03", **base
    )
    refused(
        ep, "create_reservation", "rule_violation", "end_date", start_date="2026-03-02", end_date="2026-04-02", **base
    )
    refused(
        ep, "create_reservation", "rule_violation", "end_date", start_date="2026-03-02", end_date="2026-03-02", **base
    )
    refused(
        ep,
        "create_reservation",
        "rule_violation",
        "adult_count",
        **{**base, "adult_count": 3},
        start_date="2026-03-02",
        end_date="2026-03-03",
    )
    # Five standard rooms are in service (one is out); three are held tonight.
    for _ in range(2):
        made = ok(ep, "create_reservation", start_date="2026-03-02", end_date="2026-03-03", **base)
        assert (made["state"], made["nightly_rate"]) == ("Confirmed", 12000)
    refused(ep, "create_reservation", "conflict", "category_id", start_date="2026-03-02", end_date="2026-03-04", **base)
    ok(ep, "create_reservation", start_date="2026-03-04", end_date="2026-03-06", **base)


def test_checkout_needs_a_balanced_bill_and_leaves_the_room_dirty(ep: Episode) -> None:
    res = res_in(ep, "101", "Started")
    bill = ok(ep, "get_bill", reservation_id=res["id"])
    assert 0 < bill["balance"] < bill["total_charged"]
    refused(ep, "check_out", "rule_violation", "reservation_id", reservation_id=res["id"])
    refused(
        ep,
        "add_payment",
        "rule_violation",
        "amount",
        reservation_id=res["id"],
        amount=bill["balance"] + 1,
        method="Cash",
    )
    ok(ep, "add_payment", reservation_id=res["id"], amount=bill["balance"], method="CreditCard")
    refused(ep, "add_payment", "rule_violation", "reservation_id", reservation_id=res["id"], amount=1, method="Cash")
    out = ok(ep, "check_out", reservation_id=res["id"])
    assert out["state"] == "Processed" and room(ep, "101")["state"] == "Dirty"
    refused(ep, "check_out", "conflict", "reservation_id", reservation_id=res["id"])


def test_extras_go_only_to_guests_in_house(ep: Episode) -> None:
    paid_up = res_in(ep, "201", "Started")
    assert ok(ep, "get_bill", reservation_id=paid_up["id"])["balanced"]
    ok(ep, "post_charge", reservation_id=paid_up["id"], type="Breakfast", amount=2400)
    refused(ep, "check_out", "rule_violation", "reservation_id", reservation_id=paid_up["id"])
    arriving = res_in(ep, "102", "Confirmed")
    refused(
        ep, "post_charge", "rule_violation", "reservation_id", reservation_id=arriving["id"], type="Spa", amount=5000
    )


def test_late_cancellation_charges_the_first_night(ep: Episode) -> None:
    tomorrow = res_in(ep, "103", "Confirmed")
    canceled = ok(ep, "cancel_reservation", reservation_id=tomorrow["id"], reason="Illness")
    assert (canceled["state"], canceled["room_id"]) == ("Canceled", None)
    fee = ok(ep, "get_bill", reservation_id=tomorrow["id"])
    assert [c["type"] for c in fee["charges"]] == ["CancellationFee"] and fee["balance"] == 12000
    later = next(r for r in every(ep, "list_reservations", state="Confirmed") if r["start_date"] == "2026-03-12")
    ok(ep, "cancel_reservation", reservation_id=later["id"], reason="Plans changed")
    assert ok(ep, "get_bill", reservation_id=later["id"])["charges"] == []
    started = res_in(ep, "101", "Started")
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=started["id"], reason="No")


def test_housekeeping_state_machine(ep: Episode) -> None:
    dirty = room(ep, "104")
    refused(ep, "update_room_state", "rule_violation", "state", room_id=dirty["id"], state="Inspected")
    ok(ep, "update_room_state", room_id=dirty["id"], state="Clean")
    assert ok(ep, "update_room_state", room_id=dirty["id"], state="Inspected")["state"] == "Inspected"
    occupied = room(ep, "101")
    refused(
        ep,
        "update_room_state",
        "rule_violation",
        "room_id",
        room_id=occupied["id"],
        state="OutOfService",
        reason="Paint",
    )
    refused(ep, "update_room_state", "rule_violation", "reason", room_id=dirty["id"], state="OutOfService")
    out = room(ep, "106")
    refused(ep, "update_room_state", "rule_violation", "state", room_id=out["id"], state="Clean")
    back = ok(ep, "update_room_state", room_id=out["id"], state="Dirty")
    assert (back["state"], back["out_of_service_reason"]) == ("Dirty", None)


def test_seeded_guests_and_the_house_tonight() -> None:
    consumers = {p.email for p in POP.consumers}
    assert all(c["email"] in consumers for c in PMS.seeded("customers"))
    states = [r["state"] for r in PMS.seeded("reservations")]
    assert states.count("Started") == 3 and "Processed" in states and "Canceled" in states
    assert {r["state"] for r in PMS.seeded("rooms")} == {"Dirty", "Clean", "Inspected", "OutOfService"}
