"""Greenway Parks & Rec: enrollment rules, waitlists and promotion, refunds, cancellation, facility rentals."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PR = ServiceTools("parksrec")
WORLD = PR.world
ok, refused, every, first = PR.ok, PR.refused, PR.every, PR.first
POP = WORLD.population
NOW = WORLD.epoch


def activity(ep: Episode, number: str) -> dict[str, Any]:
    return first(ep, "activities", activity_number=number)


def outsider(ep: Episode, number: str, field: str = "resident", value: Any = None) -> dict[str, Any]:
    act = activity(ep, number)
    taken = {e["customer_id"] for e in every(ep, "list_enrollments", activity_id=act["id"])}
    for c in every(ep, "list_customers"):
        if value is not None and ("" if c[field] is None else c[field]) != value:
            continue
        born = dt.date.fromisoformat(c["birth_date"])
        if c["id"] not in taken and (dt.date.fromisoformat(act["starts_on"]) - born).days // 366 >= act["min_age"]:
            return c
    raise AssertionError("no customer outside the activity")


def at(days: int, hour: int = 10) -> str:
    return (NOW + dt.timedelta(days=days)).replace(hour=hour, minute=0).isoformat()


def test_seeded_counts_match_enrollments_and_customers_are_the_worlds_people(ep: Episode) -> None:
    emails = {p.email for p in POP.people}
    assert all(c["email"] in emails for c in every(ep, "list_customers"))
    for a in every(ep, "list_activities"):
        rows = every(ep, "list_enrollments", activity_id=a["id"])
        assert a["enrolled"] == sum(e["status"] == "enrolled" for e in rows) <= a["capacity"]
        assert a["waitlisted"] == sum(e["status"] == "waitlisted" for e in rows)


def test_enrollment_checks_age_waiver_duplicates_and_status(ep: Episode) -> None:
    refused(
        ep,
        "enroll",
        "rule_violation",
        "email",
        activity_number="AQ-1204",
        email=every(ep, "list_customers")[0]["email"],
    )
    no_waiver = outsider(ep, "SP-3105", "waiver_signed_on", "")
    ok(ep, "update_activity", activity_id=activity(ep, "SP-3105")["id"], capacity=20)
    refused(ep, "enroll", "rule_violation", "email", activity_number="SP-3105", email=no_waiver["email"])
    assert ok(ep, "sign_waiver", email=no_waiver["email"])["waiver_signed_on"] == NOW.date().isoformat()
    made = ok(ep, "enroll", activity_number="SP-3105", email=no_waiver["email"])
    assert made["status"] == "enrolled"
    refused(ep, "enroll", "conflict", "email", activity_number="SP-3105", email=no_waiver["email"])
    refused(ep, "enroll", "rule_violation", "activity_number", activity_number="FT-4001", email=no_waiver["email"])


def test_residents_pay_the_resident_fee(ep: Episode) -> None:
    act = activity(ep, "SN-6020")
    resident = outsider(ep, "SN-6020", "resident", True)
    other = outsider(ep, "SN-6020", "resident", False)
    ok(ep, "update_activity", activity_id=act["id"], resident_fee_cents=1000, fee_cents=1500)
    assert ok(ep, "enroll", activity_number="SN-6020", email=resident["email"])["fee_cents"] == 1000
    assert ok(ep, "enroll", activity_number="SN-6020", email=other["email"])["fee_cents"] == 1500


def test_a_full_activity_waitlists_and_a_withdrawal_promotes_the_first_in_line(ep: Episode) -> None:
    act = activity(ep, "AR-5050")
    assert act["enrolled"] == act["capacity"]
    waiting = every(ep, "list_enrollments", activity_id=act["id"], status="waitlisted")
    newcomer = outsider(ep, "AR-5050")
    assert ok(ep, "enroll", activity_number="AR-5050", email=newcomer["email"])["status"] == "waitlisted"
    leaving = first(ep, "enrollments", activity_id=act["id"], status="enrolled")
    gone = ok(ep, "withdraw", enrollment_id=leaving["id"])
    assert (gone["status"], gone["refund_cents"]) == ("withdrawn", leaving["fee_cents"])
    promoted = ok(ep, "get_enrollment", enrollment_id=waiting[0]["id"])
    assert promoted["status"] == "enrolled" and promoted["fee_cents"] > 0
    after = ok(ep, "get_activity", activity_id=act["id"])
    assert (after["enrolled"], after["waitlisted"]) == (act["enrolled"], act["waitlisted"])
    refused(ep, "withdraw", "conflict", "enrollment_id", enrollment_id=leaving["id"])


def test_no_refund_after_the_start_and_capacity_cannot_drop_below_enrolled(ep: Episode) -> None:
    act = activity(ep, "FT-4001")
    e = first(ep, "enrollments", activity_id=act["id"], status="enrolled")
    assert ok(ep, "withdraw", enrollment_id=e["id"])["refund_cents"] == 0
    busy = activity(ep, "AR-5050")
    refused(ep, "update_activity", "rule_violation", "capacity", activity_id=busy["id"], capacity=busy["enrolled"] - 1)


def test_cancelling_an_activity_refunds_everyone(ep: Episode) -> None:
    act = activity(ep, "AR-5050")
    refused(
        ep,
        "cancel_activity",
        "conflict",
        "activity_id",
        activity_id=ok(ep, "cancel_activity", activity_id=act["id"])["id"],
    )
    for e in every(ep, "list_enrollments", activity_id=act["id"]):
        assert e["status"] == "withdrawn" and e["refund_cents"] == e["fee_cents"]


def test_create_activity_refuses_duplicates_and_bad_fees(ep: Episode) -> None:
    fac = first(ep, "facilities", kind="room")
    base = {
        "name": "Chess Club",
        "category": "arts",
        "facility_id": fac["id"],
        "starts_on": at(10)[:10],
        "weeks": 4,
        "capacity": 10,
        "resident_fee_cents": 2000,
        "fee_cents": 2500,
    }
    refused(ep, "create_activity", "conflict", "activity_number", activity_number="AR-5050", **base)
    refused(
        ep, "create_activity", "rule_violation", "fee_cents", activity_number="AR-9000", **(base | {"fee_cents": 1000})
    )
    made = ok(ep, "create_activity", activity_number="AR-9000", **base)
    assert (made["status"], made["ends_on"]) == ("open", (NOW.date() + dt.timedelta(days=31)).isoformat())


def test_rentals_refuse_overlaps_and_crowds_and_residents_get_a_discount(ep: Episode) -> None:
    booked = first(ep, "reservations", status="approved")
    fac = ok(ep, "get_facility", facility_id=booked["facility_id"])
    resident = first(ep, "customers", resident=True)
    args = {"facility_id": fac["id"], "email": resident["email"], "event_name": "Picnic", "attendees": 10}
    refused(ep, "reserve_facility", "conflict", "starts_at", starts_at=booked["starts_at"], hours=2, **args)
    refused(
        ep,
        "reserve_facility",
        "rule_violation",
        "attendees",
        starts_at=at(60),
        hours=2,
        **(args | {"attendees": fac["capacity"] + 1}),
    )
    refused(ep, "reserve_facility", "rule_violation", "hours", starts_at=at(60), hours=13, **args)
    quote = ok(ep, "quote_rental", facility_id=fac["id"], starts_at=at(60), hours=2, email=resident["email"])
    made = ok(ep, "reserve_facility", starts_at=at(60), hours=2, **args)
    assert made["fee_cents"] == quote["fee_cents"] == fac["hourly_rate_cents"] * 2 * 75 // 100
    assert ok(ep, "approve_reservation", reservation_id=made["id"])["status"] == "approved"
    assert not ok(ep, "quote_rental", facility_id=fac["id"], starts_at=at(60), hours=1)["available"]
