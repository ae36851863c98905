"""Carewell Practice: slot booking rules, no double booking, late cancellations, check-in, encounters."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from compoworld import Episode
from tests.services.helpers import ServiceTools

CLINIC = ServiceTools("clinic")
WORLD = CLINIC.world
ok, refused, every = CLINIC.ok, CLINIC.refused, CLINIC.every
POP = WORLD.population
NOW = WORLD.epoch


def ts(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def fresh_patient(ep: Episode, insured: bool = True) -> dict[str, Any]:
    args: dict[str, Any] = {
        "first_name": "Robin",
        "last_name": "Vale",
        "email": "robin.vale@inbox.io",
        "phone": "+14155550123",
        "birth_date": "1990-04-01",
        "sex": "female",
        "address": {"street": "1 Elm Street", "city": "Berlin", "postal_code": "10115", "country": "DE"},
    }
    if insured:
        args.update(insurance_payer="Bluecrest Health Plan", member_id="MBR-999001")
    return dict(ok(ep, "create_patient", **args))


def open_slot(
    ep: Episode, visit_type: str, accepting: bool | None = True, after: dt.datetime | None = None
) -> dict[str, Any]:
    for slot in every(ep, "list_slots", status="open", visit_type=visit_type):
        prov = ok(ep, "get_provider", provider_id=slot["provider_id"])
        if ts(slot["start"]) > (after or NOW) and (accepting is None or prov["accepting_new_patients"] == accepting):
            return slot
    raise AssertionError(f"no open {visit_type} slot")


# -- the world ------------------------------------------------------------------------------------


def test_patients_are_the_worlds_people_with_their_birth_dates() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for pat in every(ep, "list_patients"):
        person = people[pat["email"]]
        assert (pat["first_name"], pat["last_name"]) == (person.first_name, person.last_name)
        assert pat["birth_date"] == person.birth_date.isoformat()
        assert pat["address"] == person.address.model_dump()
    for prov in every(ep, "list_providers"):
        assert prov["email"] in people and people[prov["email"]].name == prov["name"]


def test_seeded_slots_and_appointments_agree() -> None:
    ep = Episode(WORLD)
    appts = every(ep, "list_appointments")
    by_slot: dict[str, list[dict[str, Any]]] = {}
    for a in appts:
        by_slot.setdefault(a["slot_id"], []).append(a)
    for slot in every(ep, "list_slots"):
        assert (slot["status"] == "booked") == (slot["id"] in by_slot)
    held = [a for a in appts if a["status"] in ("booked", "checked_in")]
    for a in held:
        for b in held:
            if a["id"] < b["id"] and a["patient_id"] == b["patient_id"]:
                assert not (a["start"] < b["end"] and b["start"] < a["end"])
    for enc in every(ep, "list_encounters", status="signed"):
        assert ok(ep, "get_appointment", appointment_id=enc["appointment_id"])["status"] == "completed"
    assert {a["status"] for a in appts} == {"booked", "checked_in", "completed", "cancelled", "no_show"}


# -- booking --------------------------------------------------------------------------------------


def test_booking_a_new_patient_slot_and_the_copay(ep: Episode) -> None:
    insured, self_pay = fresh_patient(ep), None
    slot = open_slot(ep, "new_patient")
    appt = ok(ep, "book_appointment", slot_id=slot["id"], patient_id=insured["id"], reason="Sore throat")
    assert (appt["status"], appt["start"], appt["provider_id"]) == ("booked", slot["start"], slot["provider_id"])
    assert appt["copay"] == 25 * 100 and appt["meeting_link"] is None
    assert ok(ep, "get_slot", slot_id=slot["id"])["status"] == "booked"
    self_pay = ok(
        ep,
        "create_patient",
        first_name="Ari",
        last_name="Stone",
        email="ari.stone@inbox.io",
        phone="+14155550124",
        birth_date="1985-01-01",
        sex="male",
        address={"street": "2 Elm Street", "city": "Berlin", "postal_code": "10115", "country": "DE"},
    )
    refused(ep, "book_appointment", "conflict", "slot_id", slot_id=slot["id"], patient_id=self_pay["id"])
    other = open_slot(ep, "new_patient", after=ts(slot["end"]))
    second = ok(ep, "book_appointment", slot_id=other["id"], patient_id=self_pay["id"])
    assert second["copay"] == 180 * 100


def test_a_patient_is_never_double_booked(ep: Episode) -> None:
    pat = fresh_patient(ep)
    one, two = [p for p in every(ep, "list_providers") if p["accepting_new_patients"]][:2]
    args = {"date": "2026-03-25", "start_time": "15:00", "visit_type": "new_patient"}
    [first] = ok(ep, "create_slots", provider_id=one["id"], **args)
    [second] = ok(ep, "create_slots", provider_id=two["id"], **args, duration_minutes=60)
    ok(ep, "book_appointment", slot_id=first["id"], patient_id=pat["id"])
    msg = refused(ep, "book_appointment", "conflict", "slot_id", slot_id=second["id"], patient_id=pat["id"])
    assert "already has appointment" in msg


def test_visit_types_follow_the_patients_history_with_the_provider(ep: Episode) -> None:
    pat = fresh_patient(ep)
    follow = open_slot(ep, "follow_up")
    refused(ep, "book_appointment", "rule_violation", "slot_id", slot_id=follow["id"], patient_id=pat["id"])
    done = next(a for a in every(ep, "list_appointments", status="completed"))
    established = next(
        s
        for s in every(ep, "list_slots", status="open", visit_type="new_patient", provider_id=done["provider_id"])
        if ts(s["start"]) > NOW
    )
    msg = refused(
        ep, "book_appointment", "rule_violation", "slot_id", slot_id=established["id"], patient_id=done["patient_id"]
    )
    assert "established" in msg


def test_a_provider_not_accepting_new_patients_takes_none(ep: Episode) -> None:
    pat = fresh_patient(ep)
    slot = open_slot(ep, "new_patient")
    ok(ep, "update_provider", provider_id=slot["provider_id"], accepting_new_patients=False)
    msg = refused(ep, "book_appointment", "rule_violation", "slot_id", slot_id=slot["id"], patient_id=pat["id"])
    assert "not accepting" in msg


def test_telehealth_visits_get_a_video_link(ep: Episode) -> None:
    done = every(ep, "list_appointments", status="completed")[0]
    slot = next(
        s
        for s in every(ep, "list_slots", status="open", visit_type="telehealth")
        if ts(s["start"]) > NOW
        and not any(
            a["start"] < s["end"] and s["start"] < a["end"]
            for a in every(ep, "list_appointments", patient_id=done["patient_id"])
            if a["status"] in ("booked", "checked_in")
        )
    )
    appt = ok(ep, "book_appointment", slot_id=slot["id"], patient_id=done["patient_id"])
    assert appt["meeting_link"] == f"https://visit.carewell.health/room/{appt['id']}"


# -- changes --------------------------------------------------------------------------------------


def test_rescheduling_keeps_the_visit_type_and_reopens_the_old_slot(ep: Episode) -> None:
    pat = fresh_patient(ep)
    first = open_slot(ep, "new_patient")
    appt = ok(ep, "book_appointment", slot_id=first["id"], patient_id=pat["id"])
    wrong = open_slot(ep, "annual_physical")
    refused(ep, "reschedule_appointment", "rule_violation", "slot_id", appointment_id=appt["id"], slot_id=wrong["id"])
    later = open_slot(ep, "new_patient", after=ts(first["end"]))
    moved = ok(ep, "reschedule_appointment", appointment_id=appt["id"], slot_id=later["id"])
    assert (moved["slot_id"], moved["start"]) == (later["id"], later["start"])
    assert ok(ep, "get_slot", slot_id=first["id"])["status"] == "open"
    assert ok(ep, "get_slot", slot_id=later["id"])["status"] == "booked"


def test_a_late_cancellation_carries_a_fee(ep: Episode) -> None:
    booked = [a for a in every(ep, "list_appointments", status="booked") if ts(a["start"]) > NOW]
    soon = next(a for a in booked if ts(a["start"]) - NOW < dt.timedelta(hours=24))
    later = next(a for a in booked if ts(a["start"]) - NOW > dt.timedelta(hours=24))
    refused(ep, "cancel_appointment", "rule_violation", "reason", appointment_id=soon["id"], reason="  ")
    late = ok(ep, "cancel_appointment", appointment_id=soon["id"], reason="Sick child")
    assert late["status"] == "cancelled" and late["late_cancel_fee"] == 40 * 100
    early = ok(ep, "cancel_appointment", appointment_id=later["id"], reason="Travelling")
    assert early["late_cancel_fee"] is None
    assert ok(ep, "get_slot", slot_id=later["slot_id"])["status"] == "open"
    refused(ep, "cancel_appointment", "rule_violation", "appointment_id", appointment_id=later["id"], reason="again")


def test_check_in_only_on_the_day_and_no_show_only_afterwards(ep: Episode) -> None:
    booked = [a for a in every(ep, "list_appointments", status="booked") if ts(a["start"]) > NOW]
    today = next(a for a in booked if ts(a["start"]).date() == NOW.date())
    future = next(a for a in booked if ts(a["start"]).date() > NOW.date())
    refused(ep, "check_in_appointment", "rule_violation", "appointment_id", appointment_id=future["id"])
    refused(ep, "mark_no_show", "rule_violation", "appointment_id", appointment_id=future["id"])
    arrived = ok(ep, "check_in_appointment", appointment_id=today["id"])
    assert arrived["status"] == "checked_in" and arrived["checked_in_at"] is not None
    missed = next(a for a in every(ep, "list_appointments", status="booked") if ts(a["end"]) < NOW)
    assert ok(ep, "mark_no_show", appointment_id=missed["id"])["status"] == "no_show"


def test_an_encounter_needs_a_diagnosis_to_be_signed_and_is_final(ep: Episode) -> None:
    appt = next(
        a
        for a in every(ep, "list_appointments", status="checked_in")
        if not every(ep, "list_encounters", appointment_id=a["id"])
    )
    refused(
        ep,
        "document_encounter",
        "invalid_arguments",
        "diagnosis_codes.0",
        appointment_id=appt["id"],
        diagnosis_codes=["flu"],
    )
    enc = ok(ep, "document_encounter", appointment_id=appt["id"], diagnosis_codes=[], notes="Vitals")
    refused(ep, "sign_encounter", "rule_violation", "encounter_id", encounter_id=enc["id"])
    again = ok(ep, "document_encounter", appointment_id=appt["id"], diagnosis_codes=["J06.9", "J06.9", "R51.9"])
    assert again["id"] == enc["id"] and again["diagnosis_codes"] == ["J06.9", "R51.9"]
    signed = ok(ep, "sign_encounter", encounter_id=enc["id"])
    assert signed["status"] == "signed"
    assert ok(ep, "get_appointment", appointment_id=appt["id"])["status"] == "completed"
    refused(ep, "sign_encounter", "rule_violation", "encounter_id", encounter_id=enc["id"])
    refused(
        ep, "document_encounter", "rule_violation", "appointment_id", appointment_id=appt["id"], diagnosis_codes=["I10"]
    )


# -- slots ----------------------------------------------------------------------------------------


def test_slots_open_on_weekdays_in_clinic_hours_without_overlap(ep: Episode) -> None:
    prov = every(ep, "list_providers")[0]
    tz = ZoneInfo(ok(ep, "get_department", department_id=prov["department_id"])["timezone"])
    args = {"provider_id": prov["id"], "visit_type": "follow_up", "duration_minutes": 20}
    refused(ep, "create_slots", "rule_violation", "date", **args, date="2026-03-21", start_time="09:00")
    refused(ep, "create_slots", "rule_violation", "start_time", **args, date="2026-03-24", start_time="18:30", count=3)
    refused(ep, "create_slots", "rule_violation", "start_time", **args, date="2026-03-24", start_time="06:30")
    made = ok(ep, "create_slots", **args, date="2026-03-24", start_time="14:00", count=3)
    assert [ts(s["start"]).astimezone(tz).strftime("%H:%M") for s in made] == ["14:00", "14:20", "14:40"]
    refused(ep, "create_slots", "conflict", "start_time", **args, date="2026-03-24", start_time="14:50")
    found = ok(ep, "find_open_slots", provider_id=prov["id"], start_date="2026-03-24", days=1)
    assert [f["slot_id"] for f in found] == [s["id"] for s in made]
    assert found[0]["local_start"] == "2026-03-24T14:00"


def test_find_open_slots_lists_future_open_slots_in_order() -> None:
    ep = Episode(WORLD)
    found = ok(ep, "find_open_slots", visit_type="follow_up", limit=50)
    assert found and all(f["visit_type"] == "follow_up" for f in found)
    starts = [f["start"] for f in found]
    assert starts == sorted(starts) and all(ts(s) > NOW for s in starts)
    spec = found[0]["specialty"]
    assert all(f["specialty"] == spec for f in ok(ep, "find_open_slots", specialty=spec))
