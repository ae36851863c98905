"""Harborline: slips fit boats, stays do not overlap, check-in and check-out billing, contracts, fuel dock."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

MARINA = ServiceTools("marina")
WORLD = MARINA.world
ok, refused, every, first = MARINA.ok, MARINA.refused, MARINA.every, MARINA.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def boat(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "boats", name=name)


def slip(ep: Episode, name: str) -> dict[str, Any]:
    home = every(ep, "list_marinas")[0]
    return first(ep, "slips", marina_id=home["id"], name=name)


def test_seeded_boats_belong_to_consumers_and_stays_fit_their_slips(ep: Episode) -> None:
    consumers = {p.email: p.name for p in POP.consumers}
    for b in every(ep, "list_boats"):
        assert consumers[b["owner_email"]] == b["owner_name"]
    for r in every(ep, "list_reservations"):
        b = ok(ep, "get_boat", boat_id=r["boat_id"])
        s = ok(ep, "get_slip", slip_id=r["slip_id"])
        assert b["loa_ft"] <= s["length_ft"] and b["draft_ft"] <= s["depth_ft"]
    statuses = {r["status"] for r in every(ep, "list_reservations")}
    assert statuses == {"requested", "confirmed", "checked_in", "checked_out", "declined", "cancelled"}


def test_a_boat_must_fit_the_slip(ep: Episode) -> None:
    big = boat(ep, "Serenity")
    small = slip(ep, "A-1")
    refused(
        ep,
        "request_reservation",
        "rule_violation",
        "slip_id",
        boat_id=big["id"],
        slip_id=small["id"],
        arrival=day(40),
        departure=day(42),
    )
    made = ok(
        ep, "request_reservation", boat_id=big["id"], slip_id=slip(ep, "T-3")["id"], arrival=day(40), departure=day(42)
    )
    assert made["status"] == "requested"


def test_stays_in_one_slip_do_not_overlap_and_dates_are_checked(ep: Episode) -> None:
    b = boat(ep, "Pelican")
    s = slip(ep, "C-4")
    base = {"boat_id": b["id"], "slip_id": s["id"]}
    refused(ep, "request_reservation", "rule_violation", "departure", arrival=day(30), departure=day(30), **base)
    refused(ep, "request_reservation", "rule_violation", "arrival", arrival=day(-3), departure=day(2), **base)
    ok(ep, "request_reservation", arrival=day(30), departure=day(33), **base)
    refused(ep, "request_reservation", "conflict", "slip_id", arrival=day(32), departure=day(35), **base)
    assert ok(ep, "request_reservation", arrival=day(33), departure=day(35), **base)["arrival"] == day(33)


def test_out_of_service_slips_take_no_stays_and_a_berthed_slip_cannot_close(ep: Episode) -> None:
    closed = first(ep, "slips", status="out_of_service")
    refused(
        ep,
        "request_reservation",
        "rule_violation",
        "slip_id",
        boat_id=boat(ep, "Pelican")["id"],
        slip_id=closed["id"],
        arrival=day(50),
        departure=day(51),
    )
    berthed = first(ep, "reservations", status="checked_in")
    refused(ep, "close_slip", "rule_violation", "slip_id", slip_id=berthed["slip_id"])
    assert ok(ep, "reopen_slip", slip_id=closed["id"])["status"] == "available"


def test_check_in_needs_a_confirmed_reservation_on_its_arrival_day(ep: Episode) -> None:
    today = first(ep, "reservations", status="confirmed", arrival=day(0))
    later = first(ep, "reservations", status="confirmed", arrival=day(5))
    requested = first(ep, "reservations", status="requested")
    refused(ep, "check_in", "rule_violation", "reservation_id", reservation_id=later["id"])
    refused(ep, "check_in", "rule_violation", "reservation_id", reservation_id=requested["id"])
    assert ok(ep, "check_in", reservation_id=today["id"])["status"] == "checked_in"


def test_check_out_bills_nights_by_the_foot(ep: Episode) -> None:
    r = first(ep, "reservations", status="checked_in")
    marina = ok(ep, "get_marina", marina_id=r["marina_id"])
    loa = ok(ep, "get_boat", boat_id=r["boat_id"])["loa_ft"]
    out = ok(ep, "check_out", reservation_id=r["id"])
    nights = (TODAY - dt.date.fromisoformat(r["arrival"])).days
    assert out["nights_charged"] == nights
    assert out["amount_charged"] == round(nights * marina["nightly_rate_per_ft"] * loa)
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=r["id"])


def test_find_open_slips_lists_only_free_slips_that_fit(ep: Episode) -> None:
    home = every(ep, "list_marinas")[0]
    found = ok(
        ep, "find_open_slips", marina_id=home["id"], loa_ft=40, beam_ft=14, draft_ft=7, arrival=day(0), departure=day(2)
    )
    assert found and all(s["length_ft"] >= 40 and s["depth_ft"] >= 7 for s in found)
    held = {r["slip_id"] for r in every(ep, "list_reservations", status="checked_in")}
    assert not held & {s["slip_id"] for s in found}
    assert found[0]["estimated_total"] == round(2 * home["nightly_rate_per_ft"] * 40)


def test_a_seasonal_contract_holds_the_slip_until_voided(ep: Episode) -> None:
    b = boat(ep, "Knot Working")
    s = slip(ep, "C-3")
    start = dt.date(TODAY.year + 3, 5, 1)
    args = {"boat_id": b["id"], "slip_id": s["id"], "season_start": start.isoformat()}
    refused(
        ep,
        "send_contract",
        "rule_violation",
        "season_end",
        season_end=(start + dt.timedelta(days=10)).isoformat(),
        **args,
    )
    c = ok(ep, "send_contract", season_end=(start + dt.timedelta(days=180)).isoformat(), **args)
    home = ok(ep, "get_marina", marina_id=c["marina_id"])
    assert c["amount"] == round(home["seasonal_rate_per_ft"] * b["loa_ft"]) and c["status"] == "sent"
    refused(
        ep,
        "request_reservation",
        "conflict",
        "slip_id",
        boat_id=boat(ep, "Pelican")["id"],
        slip_id=s["id"],
        arrival=(start + dt.timedelta(days=20)).isoformat(),
        departure=(start + dt.timedelta(days=22)).isoformat(),
    )
    signed = ok(ep, "sign_contract", contract_id=c["id"])
    assert signed["status"] == "signed" and signed["signed_at"]
    refused(ep, "void_contract", "rule_violation", "contract_id", contract_id=c["id"])


def test_fuel_sales_are_priced_per_gallon_and_rung_up_by_staff(ep: Episode) -> None:
    home = every(ep, "list_marinas")[0]
    b = boat(ep, "Windward")
    args = {"marina_id": home["id"], "boat_id": b["id"], "fuel": "diesel", "gallons": 40.0}
    refused(ep, "record_fuel_sale", "rule_violation", "attendant_email", attendant_email="skipper@sea.io", **args)
    sale = ok(ep, "record_fuel_sale", attendant_email=STAFF, **args)
    assert sale["total"] == 40 * sale["price_per_gallon"]
    assert any(x["id"] == sale["id"] for x in every(ep, "list_fuel_sales", boat_id=b["id"]))


def test_an_owner_cannot_register_two_boats_with_one_name(ep: Episode) -> None:
    b = boat(ep, "Osprey")
    new = {"make_and_type": "Catalina 30", "loa_ft": 30, "beam_ft": 11, "draft_ft": 5, "owner_name": b["owner_name"]}
    refused(ep, "create_boat", "conflict", "name", name="osprey", owner_email=b["owner_email"], **new)
    made = ok(ep, "create_boat", name="Osprey II", owner_email=b["owner_email"], **new)
    assert made["owner_email"] == b["owner_email"]
