"""StateShot Immunization Registry: lots, VXU reports checked against the schedule, forecasts, reminder/recall."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.care import clinic_sites
from tests.services.helpers import ServiceTools

IIS = ServiceTools("immunize")
WORLD = IIS.world
ok, refused, every, first = IIS.ok, IIS.refused, IIS.every, IIS.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
SHOT = {"route": "im_left_deltoid", "vis_date": "2023-08-06", "administered_by": "Jordan Ellis, RN"}


def usable_lot(ep: Episode, cvx: str) -> dict[str, Any]:
    return next(
        lot
        for lot in every(ep, "list_lots", cvx=cvx, status="active")
        if lot["doses_on_hand"] and lot["expires_on"] >= TODAY.isoformat()
    )


def status_of(ep: Episode, patient_id: str, group: str) -> dict[str, Any]:
    return next(d for d in ok(ep, "forecast_patient", patient_id=patient_id) if d["group"] == group)


def test_facilities_are_the_clinic_sites_and_patients_the_worlds_people(ep: Episode) -> None:
    assert [f["name"] for f in every(ep, "list_facilities")] == [c.name for c in clinic_sites(POP)]
    people = {p.email: p for p in POP.consumers}
    for pt in every(ep, "list_patients"):
        person = people[pt["email"]]
        assert (pt["name"], pt["birth_date"]) == (person.name, person.birth_date.isoformat())
        assert ok(ep, "query_patient", name=pt["name"].upper(), birth_date=pt["birth_date"])["id"] == pt["id"]


def test_a_reported_dose_uses_the_lot_and_completes_the_series(ep: Episode) -> None:
    lot = usable_lot(ep, "158")
    pt = next(
        p
        for p in every(ep, "list_patients", status="active")
        if status_of(ep, p["id"], "influenza")["status"] in ("due", "overdue")
    )
    vax = ok(ep, "report_vaccination", patient_id=pt["id"], lot_id=lot["id"], **SHOT)
    assert (vax["group"], vax["administered_on"], vax["facility_id"]) == (
        "influenza",
        TODAY.isoformat(),
        lot["facility_id"],
    )
    assert ok(ep, "get_lot", lot_id=lot["id"])["doses_on_hand"] == lot["doses_on_hand"] - 1
    assert status_of(ep, pt["id"], "influenza")["status"] == "complete"
    refused(ep, "report_vaccination", "rule_violation", "patient_id", patient_id=pt["id"], lot_id=lot["id"], **SHOT)


def test_unusable_lots_are_refused(ep: Episode) -> None:
    pt = first(ep, "patients", status="active")
    for lot in every(ep, "list_lots"):
        if lot["status"] == "recalled" or lot["expires_on"] < TODAY.isoformat() or not lot["doses_on_hand"]:
            refused(ep, "report_vaccination", "rule_violation", "lot_id", patient_id=pt["id"], lot_id=lot["id"], **SHOT)
    moved = first(ep, "patients", status="moved")
    refused(
        ep,
        "report_vaccination",
        "rule_violation",
        "patient_id",
        patient_id=moved["id"],
        lot_id=usable_lot(ep, "158")["id"],
        **SHOT,
    )


def test_the_forecast_follows_intervals_and_ages(ep: Episode) -> None:
    for pt in every(ep, "list_patients"):
        hepb = [
            v for v in every(ep, "list_vaccinations", patient_id=pt["id"], group="hepb") if v["status"] == "completed"
        ]
        due = status_of(ep, pt["id"], "hepb")
        if len(hepb) == 2:
            last = max(dt.date.fromisoformat(v["administered_on"]) for v in hepb)
            assert (due["next_dose"], due["earliest_date"]) == (3, (last + dt.timedelta(days=28)).isoformat())
        birth = dt.date.fromisoformat(pt["birth_date"])
        if birth.replace(year=birth.year + 65) > TODAY:
            assert status_of(ep, pt["id"], "pneumococcal")["status"] == "not_yet_eligible"


def test_entered_in_error_returns_the_dose_to_the_lot(ep: Episode) -> None:
    lot = usable_lot(ep, "158")
    pt = next(
        p
        for p in every(ep, "list_patients", status="active")
        if status_of(ep, p["id"], "influenza")["status"] in ("due", "overdue")
    )
    vax = ok(ep, "report_vaccination", patient_id=pt["id"], lot_id=lot["id"], **SHOT)
    assert ok(ep, "mark_entered_in_error", vaccination_id=vax["id"])["status"] == "entered_in_error"
    assert ok(ep, "get_lot", lot_id=lot["id"])["doses_on_hand"] == lot["doses_on_hand"]
    assert status_of(ep, pt["id"], "influenza")["status"] in ("due", "overdue")
    refused(ep, "mark_entered_in_error", "rule_violation", "vaccination_id", vaccination_id=vax["id"])


def test_receiving_a_lot_checks_duplicates_expiry_and_vfc(ep: Episode) -> None:
    held = first(ep, "lots")
    base = {"cvx": "158", "mvx": "SNY", "doses_on_hand": 10}
    later = (TODAY + dt.timedelta(days=100)).isoformat()
    refused(
        ep,
        "receive_lot",
        "conflict",
        "lot_number",
        facility_id=held["facility_id"],
        lot_number=held["lot_number"],
        expires_on=later,
        **base,
    )
    refused(
        ep,
        "receive_lot",
        "rule_violation",
        "expires_on",
        facility_id=held["facility_id"],
        lot_number="NEW1",
        expires_on=TODAY.isoformat(),
        **base,
    )
    no_vfc = next(f for f in every(ep, "list_facilities") if f["vfc_pin"] is None)
    refused(
        ep,
        "receive_lot",
        "rule_violation",
        "funding",
        facility_id=no_vfc["id"],
        lot_number="NEW1",
        expires_on=later,
        funding="vfc",
        **base,
    )
    made = ok(ep, "receive_lot", facility_id=no_vfc["id"], lot_number="NEW1", expires_on=later, **base)
    assert (made["status"], made["funding"]) == ("active", "private")


def test_reminders_go_to_consenting_patients_once_per_series(ep: Episode) -> None:
    made = ok(ep, "generate_reminders", method="email")
    assert made
    for r in made:
        pt = ok(ep, "get_patient", patient_id=r["patient_id"])
        assert pt["reminder_recall"] and pt["status"] == "active"
        assert status_of(ep, pt["id"], r["group"])["status"] == "overdue"
    assert ok(ep, "generate_reminders", method="email") == []
    queued = {(r["patient_id"], r["group"]) for r in every(ep, "list_reminders", status="queued")}
    assert len(queued) == len(every(ep, "list_reminders", status="queued"))


def test_a_dose_cancels_the_queued_reminder_for_its_series(ep: Episode) -> None:
    lot = usable_lot(ep, "158")
    ok(ep, "generate_reminders", method="email")
    rem = first(ep, "reminders", status="queued", group="influenza")
    ok(ep, "report_vaccination", patient_id=rem["patient_id"], lot_id=lot["id"], **SHOT)
    assert ok(ep, "get_reminder", reminder_id=rem["id"])["status"] == "cancelled"
    refused(ep, "send_reminder", "rule_violation", "reminder_id", reminder_id=rem["id"])


def test_a_refusal_is_recorded_but_is_no_dose(ep: Episode) -> None:
    pt = first(ep, "patients", status="active")
    fac = first(ep, "facilities")
    before = status_of(ep, pt["id"], "covid19")
    refused(
        ep,
        "record_refusal",
        "rule_violation",
        "reason",
        patient_id=pt["id"],
        facility_id=fac["id"],
        cvx="309",
        reason=" ",
    )
    ref = ok(ep, "record_refusal", patient_id=pt["id"], facility_id=fac["id"], cvx="309", reason="Declined")
    assert (ref["status"], ref["group"]) == ("refused", "covid19")
    assert status_of(ep, pt["id"], "covid19") == before
