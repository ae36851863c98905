"""Tablewise Reservations: service hours, table capacity and clashes, no-show rules, seating and the waitlist."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from compoworld import Episode
from tests.services.helpers import ServiceTools

TABLES = ServiceTools("reservations")
WORLD = TABLES.world
ok, refused, every, seeded = TABLES.ok, TABLES.refused, TABLES.every, TABLES.seeded
POP = WORLD.population
NOW = WORLD.epoch
GUEST = POP.consumers[55]


def restaurant(all_day: bool = True) -> dict[str, Any]:
    """An all-day restaurant seating right now (or one with lunch and dinner services)."""
    from compoworld.services.places.reservations import Restaurant, _in_service

    for r in seeded("restaurants"):
        if (len(r["hours"]) == 7) == all_day and (not all_day or _in_service(Restaurant(**r), NOW)):
            return r
    raise AssertionError("no such restaurant")


def local(r: dict[str, Any], days: int, hh: int, mm: int = 0) -> str:
    tz = ZoneInfo(r["timezone"])
    d = NOW.astimezone(tz).date() + dt.timedelta(days=days)
    return dt.datetime.combine(d, dt.time(hh, mm), tzinfo=tz).astimezone(dt.UTC).isoformat()


def book(ep: Episode, r: dict[str, Any], start: str, party: int = 2, **extra: Any) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "book_reservation",
            restaurant_id=r["id"],
            guest_email=extra.pop("email", GUEST.email),
            guest_name=extra.pop("name", GUEST.name),
            party_size=party,
            start_at=start,
            **extra,
        )
    )


# -- the world ---------------------------------------------------------------------------------


def test_guests_are_the_populations_people_and_reservations_hold_fitting_tables() -> None:
    people = {p.email: p for p in POP.people}
    for g in seeded("guests"):
        assert people[g["email"]].name == g["name"] and people[g["email"]].phone == g["phone"]
    tables = {t["id"]: t for t in seeded("tables")}
    held = [r for r in seeded("reservations") if r["status"] in ("booked", "confirmed", "seated")]
    for res in held:
        t = tables[res["table_id"]]
        assert t["min_party"] <= res["party_size"] <= t["max_party"]
        for other in held:
            if other["id"] != res["id"] and other["table_id"] == res["table_id"]:
                assert other["end_at"] <= res["start_at"] or res["end_at"] <= other["start_at"]
    assert POP.home.place.city in {r["address"]["city"] for r in seeded("restaurants")}


# -- booking -----------------------------------------------------------------------------------


def test_booking_holds_the_smallest_free_table_that_fits_for_a_turn(ep: Episode) -> None:
    r = restaurant()
    res = book(ep, r, local(r, 1, 12), party=3, guest_phone=GUEST.phone)
    table = ok(ep, "get_table", table_id=res["table_id"])
    assert table["min_party"] <= 3 <= table["max_party"] and table["max_party"] == 4
    start = dt.datetime.fromisoformat(res["start_at"])
    assert dt.datetime.fromisoformat(res["end_at"]) - start == dt.timedelta(minutes=r["turn_minutes"])
    guest = every(ep, "list_guests", email=GUEST.email)[0]
    assert res["guest_id"] == guest["id"] and res["confirmation_number"].startswith("TW-")


def test_bookings_must_be_in_service_hours_on_the_quarter_hour(ep: Episode) -> None:
    r = restaurant(all_day=False)
    monday = next(
        d for d in range(1, 8) if (NOW + dt.timedelta(days=d)).astimezone(ZoneInfo(r["timezone"])).weekday() == 0
    )
    refused(ep, "book_reservation", "rule_violation", "start_at", restaurant_id=r["id"], guest_email=GUEST.email,
            guest_name=GUEST.name, party_size=2, start_at=local(r, monday, 19))  # fmt: skip
    refused(ep, "book_reservation", "rule_violation", "start_at", restaurant_id=r["id"], guest_email=GUEST.email,
            guest_name=GUEST.name, party_size=2, start_at=local(r, monday + 1, 22, 45))  # fmt: skip
    refused(ep, "book_reservation", "rule_violation", "start_at", restaurant_id=r["id"], guest_email=GUEST.email,
            guest_name=GUEST.name, party_size=2, start_at=local(r, monday + 1, 19, 10))  # fmt: skip
    assert book(ep, r, local(r, monday + 1, 22, 30))["status"] == "booked"


def test_large_parties_and_blocked_guests_cannot_book_online(ep: Episode) -> None:
    r = restaurant()
    start = local(r, 2, 13)
    refused(ep, "book_reservation", "rule_violation", "party_size", restaurant_id=r["id"], guest_email=GUEST.email,
            guest_name=GUEST.name, party_size=r["max_online_party"] + 1, start_at=start)  # fmt: skip
    blocked = next(g for g in seeded("guests") if g["no_shows"] >= r["no_show_limit"])
    msg = refused(ep, "book_reservation", "rule_violation", "guest_email", restaurant_id=r["id"],
                  guest_email=blocked["email"], guest_name=blocked["name"], party_size=2, start_at=start)  # fmt: skip
    assert "no-shows" in msg


def test_a_table_cannot_be_held_twice_and_a_full_house_is_refused(ep: Episode) -> None:
    r = restaurant()
    start = local(r, 4, 14)
    first = book(ep, r, start, party=7)
    refused(ep, "book_reservation", "conflict", "table_id", restaurant_id=r["id"], guest_email=POP.consumers[54].email,
            guest_name=POP.consumers[54].name, party_size=7, start_at=start, table_id=first["table_id"])  # fmt: skip
    msg = refused(ep, "book_reservation", "rule_violation", "start_at", restaurant_id=r["id"],
                  guest_email=POP.consumers[54].email, guest_name=POP.consumers[54].name, party_size=7,
                  start_at=local(r, 4, 14, 30))  # fmt: skip
    assert "no table for 7" in msg
    slots = ok(ep, "find_availability", restaurant_id=r["id"], date=start[:10], party_size=7)
    assert all(s["start_at"] != start.replace("+00:00", "Z") for s in slots)


def test_a_guest_cannot_hold_two_reservations_at_once(ep: Episode) -> None:
    r = restaurant()
    book(ep, r, local(r, 5, 13))
    refused(ep, "book_reservation", "conflict", "start_at", restaurant_id=r["id"], guest_email=GUEST.email,
            guest_name=GUEST.name, party_size=2, start_at=local(r, 5, 13, 30))  # fmt: skip
    assert len(every(ep, "list_reservations", guest_email=GUEST.email)) == 1


def test_modifying_keeps_the_table_when_it_still_fits(ep: Episode) -> None:
    r = restaurant()
    res = book(ep, r, local(r, 1, 16), party=3)
    moved = ok(ep, "modify_reservation", reservation_id=res["id"], start_at=local(r, 1, 17))
    assert moved["table_id"] == res["table_id"]
    bigger = ok(ep, "modify_reservation", reservation_id=res["id"], party_size=6)
    assert ok(ep, "get_table", table_id=bigger["table_id"])["max_party"] >= 6
    refused(ep, "modify_reservation", "rule_violation", "party_size", reservation_id=res["id"], party_size=40)


# -- the day of the reservation ----------------------------------------------------------------


def test_seating_is_allowed_from_an_hour_before_and_counts_a_visit(ep: Episode) -> None:
    due = next(
        x for x in every(ep, "list_reservations", status="booked")
        if dt.timedelta(0) < dt.datetime.fromisoformat(x["start_at"]) - NOW <= dt.timedelta(hours=1)
    )  # fmt: skip
    guest = ok(ep, "get_guest", guest_id=due["guest_id"])
    seated = ok(ep, "seat_reservation", reservation_id=due["id"])
    assert seated["status"] == "seated"
    assert ok(ep, "get_guest", guest_id=due["guest_id"])["visits"] == guest["visits"] + 1
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=due["id"])
    assert ok(ep, "complete_reservation", reservation_id=due["id"])["status"] == "completed"
    later = next(x for x in every(ep, "list_reservations", status="confirmed") if x["start_at"] > "2026-03-03")
    refused(ep, "seat_reservation", "rule_violation", "reservation_id", reservation_id=later["id"])


def test_no_shows_are_marked_only_after_the_grace_period(ep: Episode) -> None:
    late = next(
        x for x in every(ep, "list_reservations", status="confirmed")
        if dt.datetime.fromisoformat(x["start_at"]) + dt.timedelta(minutes=15) <= NOW
    )  # fmt: skip
    guest = ok(ep, "get_guest", guest_id=late["guest_id"])
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=late["id"])
    ok(ep, "mark_no_show", reservation_id=late["id"])
    assert ok(ep, "get_guest", guest_id=late["guest_id"])["no_shows"] == guest["no_shows"] + 1
    r = restaurant()
    fresh = book(ep, r, local(r, 1, 12, 15))
    refused(ep, "mark_no_show", "rule_violation", "reservation_id", reservation_id=fresh["id"])
    assert ok(ep, "cancel_reservation", reservation_id=fresh["id"])["status"] == "cancelled"


# -- tables and the waitlist -------------------------------------------------------------------


def test_a_table_with_reservations_cannot_be_deleted_or_shrunk_below_them(ep: Episode) -> None:
    res = next(x for x in every(ep, "list_reservations", status="booked") if x["party_size"] >= 3)
    refused(ep, "delete_table", "rule_violation", "table_id", table_id=res["table_id"])
    refused(ep, "update_table", "rule_violation", "table_id", table_id=res["table_id"], max_party=res["party_size"] - 1)
    r = ok(ep, "get_restaurant", restaurant_id=res["restaurant_id"])
    refused(ep, "create_table", "conflict", "label", restaurant_id=r["id"], label="T1", max_party=2)
    refused(ep, "create_table", "rule_violation", "min_party", restaurant_id=r["id"], label="T9", min_party=6,
            max_party=4)  # fmt: skip


def test_walk_ins_wait_then_sit_at_a_free_table(ep: Episode) -> None:
    r = restaurant()
    waiting = every(ep, "list_waitlist_entries", restaurant_id=r["id"], status="waiting")
    p = POP.consumers[53]
    entry = ok(ep, "add_to_waitlist", restaurant_id=r["id"], guest_name=p.name, phone=p.phone, party_size=2)
    assert entry["quoted_wait_minutes"] == max(10, 15 * len(waiting))
    refused(ep, "add_to_waitlist", "conflict", "phone", restaurant_id=r["id"], guest_name=p.name, phone=p.phone,
            party_size=2)  # fmt: skip
    big = next(t for t in every(ep, "list_tables", restaurant_id=r["id"]) if t["min_party"] > 2)
    refused(ep, "seat_from_waitlist", "rule_violation", "table_id", waitlist_entry_id=entry["id"], table_id=big["id"])
    free = ok(ep, "find_availability", restaurant_id=r["id"], date=NOW.date().isoformat(), party_size=2)
    assert free
    window = (NOW, NOW + dt.timedelta(minutes=r["turn_minutes"] + 10))
    held = [
        x
        for x in every(ep, "list_reservations", restaurant_id=r["id"])
        if x["status"] in ("booked", "confirmed", "seated")
        and dt.datetime.fromisoformat(x["start_at"]) < window[1]
        and window[0] < dt.datetime.fromisoformat(x["end_at"])
    ]
    two = next(
        t
        for t in every(ep, "list_tables", restaurant_id=r["id"])
        if t["max_party"] == 2 and all(x["table_id"] != t["id"] for x in held)
    )
    res = ok(ep, "seat_from_waitlist", waitlist_entry_id=entry["id"], table_id=two["id"])
    assert (res["status"], res["source"], res["guest_name"]) == ("seated", "walk_in", p.name)
    assert every(ep, "list_waitlist_entries", restaurant_id=r["id"], status="seated")[0]["reservation_id"] == res["id"]
