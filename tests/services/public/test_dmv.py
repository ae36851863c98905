"""State Motor Vehicles: licence and registration renewals, fees, holds, appointments, title transfers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DMV = ServiceTools("dmv")
WORLD = DMV.world
ok, refused, every = DMV.ok, DMV.refused, DMV.every
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()


def days(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def weekday_at(n: int, hour: int, minute: int = 0) -> str:
    day = TODAY + dt.timedelta(days=n)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=dt.UTC).isoformat()


def licence(ep: Episode, status: str, due: bool) -> dict[str, Any]:
    for lic in every(ep, "list_licences", status=status, licence_class="C"):
        soon = dt.date.fromisoformat(lic["expires_on"]) - TODAY <= dt.timedelta(days=182)
        holds = every(ep, "list_holds", driver_id=lic["driver_id"], status="active")
        if soon == due and not holds:
            return lic
    raise AssertionError(f"no {status} licence (due={due}) without holds")


def test_drivers_are_the_worlds_residents(ep: Episode) -> None:
    people = {p.email: p for p in POP.consumers}
    for d in every(ep, "list_drivers"):
        p = people[d["email"]]
        assert (d["first_name"], d["last_name"], d["city"]) == (p.first_name, p.last_name, p.address.city)
    for v in every(ep, "list_vehicles"):
        assert ok(ep, "get_driver", driver_id=v["owner_id"])["email"] in people


def test_a_licence_renews_online_within_its_window_for_five_years(ep: Episode) -> None:
    lic = licence(ep, "valid", due=True)
    refused(ep, "renew_licence", "rule_violation", "vision_test_passed", licence_id=lic["id"], vision_test_passed=False)
    done = ok(ep, "renew_licence", licence_id=lic["id"], vision_test_passed=True)
    assert done["renewals"] == lic["renewals"] + 1 and done["issued_on"] == TODAY.isoformat()
    assert int(done["expires_on"][:4]) == int(lic["expires_on"][:4]) + 5
    early = licence(ep, "valid", due=False)
    refused(ep, "renew_licence", "rule_violation", "licence_id", licence_id=early["id"], vision_test_passed=True)


def test_older_drivers_and_suspended_licences_cannot_renew_online(ep: Episode) -> None:
    for lic in every(ep, "list_licences", status="valid"):
        born = dt.date.fromisoformat(ok(ep, "get_driver", driver_id=lic["driver_id"])["birth_date"])
        if TODAY.year - born.year > 70:
            refused(ep, "renew_licence", "rule_violation", "licence_id", licence_id=lic["id"], vision_test_passed=True)
            break
    else:
        raise AssertionError("no driver over 70")
    sus = every(ep, "list_licences", status="suspended")[0]
    refused(ep, "renew_licence", "rule_violation", "licence_id", licence_id=sus["id"], vision_test_passed=True)


def test_reinstating_waits_for_the_drivers_holds_to_clear(ep: Episode) -> None:
    hold = every(ep, "list_holds", hold_type="court_order", status="active")[0]
    lic = every(ep, "list_licences", driver_id=hold["driver_id"], status="suspended")[0]
    refused(ep, "reinstate_licence", "rule_violation", "licence_id", licence_id=lic["id"])
    assert ok(ep, "clear_hold", hold_id=hold["id"])["status"] == "cleared"
    refused(ep, "clear_hold", "conflict", "hold_id", hold_id=hold["id"])
    assert ok(ep, "reinstate_licence", licence_id=lic["id"])["status"] in ("valid", "expired")


def test_registration_renewal_is_paid_to_the_cent_from_90_days_before_expiry(ep: Episode) -> None:
    due = next(
        v
        for v in every(ep, "list_vehicles", registration_status="current")
        if v["registration_expires_on"] <= days(90) and not every(ep, "list_holds", vehicle_id=v["id"])
    )
    q = ok(ep, "quote_registration_renewal", vehicle_id=due["id"])
    assert q["late_penalty_cents"] == 0 and q["total_cents"] == q["base_fee_cents"] + q["licence_fee_cents"]
    refused(
        ep,
        "renew_registration",
        "rule_violation",
        "payment_cents",
        vehicle_id=due["id"],
        payment_cents=q["total_cents"] - 1,
    )
    done = ok(ep, "renew_registration", vehicle_id=due["id"], payment_cents=q["total_cents"])
    assert done["registration_expires_on"] == q["new_expiry"] > due["registration_expires_on"]
    later = next(v for v in every(ep, "list_vehicles") if v["registration_expires_on"] > days(90))
    refused(ep, "renew_registration", "rule_violation", "vehicle_id", vehicle_id=later["id"], payment_cents=1)


def test_holds_block_renewal_until_paid_and_expired_ones_pay_a_penalty(ep: Episode) -> None:
    hold = next(
        h
        for h in every(ep, "list_holds", hold_type="unpaid_citations", status="active")
        if ok(ep, "get_vehicle", vehicle_id=h["vehicle_id"])["registration_status"] == "expired"
    )
    vid = hold["vehicle_id"]
    q = ok(ep, "quote_registration_renewal", vehicle_id=vid)
    assert q["late_penalty_cents"] == 3000
    refused(ep, "renew_registration", "rule_violation", "vehicle_id", vehicle_id=vid, payment_cents=q["total_cents"])
    refused(ep, "clear_hold", "rule_violation", "payment_cents", hold_id=hold["id"], payment_cents=1)
    ok(ep, "clear_hold", hold_id=hold["id"], payment_cents=hold["amount_cents"])
    assert ok(ep, "renew_registration", vehicle_id=vid, payment_cents=q["total_cents"])["registration_status"] == (
        "current"
    )


def test_an_insurance_lapse_suspends_the_registration_until_cleared(ep: Episode) -> None:
    v = every(ep, "list_vehicles", registration_status="current")[0]
    refused(ep, "place_hold", "rule_violation", "driver_id", hold_type="insurance_lapse", placed_by="Insurer")
    refused(
        ep, "place_hold", "rule_violation", "amount_cents", hold_type="unpaid_fees", placed_by="DMV", vehicle_id=v["id"]
    )
    hold = ok(ep, "place_hold", hold_type="insurance_lapse", placed_by="Acme Mutual", vehicle_id=v["id"])
    assert ok(ep, "get_vehicle", vehicle_id=v["id"])["registration_status"] == "suspended"
    refused(ep, "place_hold", "conflict", "hold_type", hold_type="insurance_lapse", placed_by="X", vehicle_id=v["id"])
    ok(ep, "clear_hold", hold_id=hold["id"])
    assert ok(ep, "get_vehicle", vehicle_id=v["id"])["registration_status"] == "current"


def test_appointments_are_weekday_office_hour_slots_one_per_service(ep: Episode) -> None:
    d = every(ep, "list_drivers")[-1]["id"]
    base = {"driver_id": d, "service_type": "real_id", "office": "Harbor"}
    refused(ep, "book_appointment", "rule_violation", "starts_at", starts_at=NOW.isoformat(), **base)
    refused(ep, "book_appointment", "rule_violation", "starts_at", starts_at=weekday_at(3, 18), **base)
    refused(ep, "book_appointment", "rule_violation", "starts_at", starts_at=weekday_at(3, 10, 15), **base)
    made = ok(ep, "book_appointment", starts_at=weekday_at(3, 10), **base)
    refused(ep, "book_appointment", "conflict", "service_type", starts_at=weekday_at(4, 10), **base)
    refused(ep, "complete_appointment", "rule_violation", "appointment_id", appointment_id=made["id"])
    assert ok(ep, "cancel_appointment", appointment_id=made["id"])["status"] == "cancelled"
    past = next(a for a in every(ep, "list_appointments", status="booked") if a["starts_at"] < NOW.isoformat())
    assert ok(ep, "complete_appointment", appointment_id=past["id"])["status"] == "completed"


def test_a_new_licence_class_needs_a_passed_driving_test(ep: Episode) -> None:
    test = every(ep, "list_appointments", service_type="driving_test", status="completed")[0]
    refused(ep, "issue_licence", "conflict", "licence_class", driver_id=test["driver_id"], licence_class="C")
    made = ok(ep, "issue_licence", driver_id=test["driver_id"], licence_class="M")
    held = every(ep, "list_licences", driver_id=test["driver_id"])
    assert made["status"] == "valid" and made["number"] == held[0]["number"]
    other = every(ep, "list_appointments", service_type="licence_renewal", status="completed")[0]
    refused(ep, "issue_licence", "rule_violation", "driver_id", driver_id=other["driver_id"], licence_class="B")


def test_a_reported_sale_completes_to_the_buyer_with_fees_late_after_ten_days(ep: Episode) -> None:
    pending = every(ep, "list_title_transfers", status="pending")
    recent = next(t for t in pending if t["sale_date"] >= days(-10))
    old = next(t for t in pending if t["sale_date"] < days(-10))
    v = ok(ep, "get_vehicle", vehicle_id=recent["vehicle_id"])
    args = {"sale_price_cents": 100, "odometer": 1, "sale_date": TODAY.isoformat()}
    refused(ep, "report_sale", "conflict", "vehicle_id", vehicle_id=v["id"], buyer_id=recent["buyer_id"], **args)
    done = ok(ep, "complete_title_transfer", title_transfer_id=recent["id"])
    assert done["fee_cents"] == 1500
    assert ok(ep, "get_vehicle", vehicle_id=v["id"])["owner_id"] == recent["buyer_id"]
    assert ok(ep, "complete_title_transfer", title_transfer_id=old["id"])["fee_cents"] == 3000
    refused(ep, "report_sale", "rule_violation", "buyer_id", vehicle_id=v["id"], buyer_id=recent["buyer_id"], **args)
    future = args | {"sale_date": days(2)}
    refused(ep, "report_sale", "rule_violation", "sale_date", vehicle_id=v["id"], buyer_id=old["seller_id"], **future)
