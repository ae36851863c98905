"""Harbor Patient Flow: bed assignment by level, isolation and telemetry, arrivals, discharges, EVS cleaning."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BB = ServiceTools("bedboard")
WORLD = BB.world
ok, refused, every, first = BB.ok, BB.refused, BB.every, BB.first
POP = WORLD.population


def unit_of(ep: Episode, level: str) -> dict[str, Any]:
    return first(ep, "units", level=level)


def free_bed(ep: Episode, level: str, **flags: Any) -> dict[str, Any]:
    return first(ep, "beds", unit_id=unit_of(ep, level)["id"], status="available", **flags)


def test_occupied_beds_and_admitted_patients_agree(ep: Episode) -> None:
    staff = {e.email for e in POP.employees}
    assert {u["manager_email"] for u in every(ep, "list_units")} <= staff
    for bed in every(ep, "list_beds", status="occupied"):
        pt = ok(ep, "get_patient", patient_id=bed["patient_id"])
        assert (pt["status"], pt["bed_id"]) == ("admitted", bed["id"])
    names = {p.name for p in POP.consumers}
    assert all(p["name"] in names for p in every(ep, "list_patients"))


def test_a_bed_must_match_the_level_of_care(ep: Episode) -> None:
    req = next(r for r in every(ep, "list_requests", status="pending") if r["level"] == "med_surg")
    refused(ep, "assign_bed", "rule_violation", "bed_id", request_id=req["id"], bed_id=free_bed(ep, "pediatrics")["id"])
    dirty = first(ep, "beds", status="dirty")
    refused(ep, "assign_bed", "rule_violation", "bed_id", request_id=req["id"], bed_id=dirty["id"])


def test_airborne_isolation_needs_negative_pressure(ep: Episode) -> None:
    req = next(
        r
        for r in every(ep, "list_requests", status="pending")
        if r["level"] == "med_surg" and ok(ep, "get_patient", patient_id=r["patient_id"])["isolation"] == "airborne"
    )
    plain = free_bed(ep, "med_surg", negative_pressure=False)
    refused(ep, "assign_bed", "rule_violation", "bed_id", request_id=req["id"], bed_id=plain["id"])


def test_telemetry_requests_need_a_monitored_bed_and_arrival_admits(ep: Episode) -> None:
    req = first(ep, "requests", status="pending", level="telemetry")
    bed = free_bed(ep, "telemetry")
    done = ok(ep, "assign_bed", request_id=req["id"], bed_id=bed["id"])
    assert (done["status"], ok(ep, "get_bed", bed_id=bed["id"])["status"]) == ("assigned", "reserved")
    refused(ep, "assign_bed", "rule_violation", "request_id", request_id=req["id"], bed_id=bed["id"])
    pt = ok(ep, "complete_placement", request_id=req["id"])
    assert (pt["status"], pt["bed_id"]) == ("admitted", bed["id"])
    assert ok(ep, "get_bed", bed_id=bed["id"])["status"] == "occupied"


def test_cancelling_an_assigned_request_frees_the_bed(ep: Episode) -> None:
    req = first(ep, "requests", status="assigned")
    ok(ep, "cancel_request", request_id=req["id"])
    assert ok(ep, "get_bed", bed_id=req["bed_id"])["status"] == "available"
    refused(ep, "cancel_request", "rule_violation", "request_id", request_id=req["id"])


def test_one_open_request_per_patient(ep: Episode) -> None:
    req = first(ep, "requests", status="pending")
    refused(
        ep, "request_bed", "conflict", "patient_id", patient_id=req["patient_id"], level="med_surg", origin="emergency"
    )
    pt = ok(ep, "register_patient", name="Nora Quinn", birth_date="1952-04-18")
    assert pt["mrn"].startswith("MRN") and pt["status"] == "waiting"
    made = ok(ep, "request_bed", patient_id=pt["id"], level="telemetry", origin="direct_admit")
    assert made["needs_telemetry"] is True
    admitted = first(ep, "patients", status="admitted")
    refused(
        ep, "request_bed", "rule_violation", "patient_id", patient_id=admitted["id"], level="icu", origin="transfer_in"
    )


def test_discharge_sends_the_bed_to_cleaning_then_back_to_available(ep: Episode) -> None:
    pt = next(p for p in every(ep, "list_patients", status="admitted") if p["isolation"] == "contact")
    bed_id = pt["bed_id"]
    ok(ep, "discharge_patient", patient_id=pt["id"])
    assert ok(ep, "get_bed", bed_id=bed_id)["status"] == "dirty"
    job = first(ep, "evs_jobs", bed_id=bed_id, status="pending")
    assert job["terminal"] is True and job["priority"] == "stat"
    refused(ep, "complete_cleaning", "rule_violation", "evs_job_id", evs_job_id=job["id"])
    ok(ep, "start_cleaning", evs_job_id=job["id"])
    assert ok(ep, "get_bed", bed_id=bed_id)["status"] == "cleaning"
    ok(ep, "complete_cleaning", evs_job_id=job["id"])
    assert ok(ep, "get_bed", bed_id=bed_id)["status"] == "available"
    refused(ep, "discharge_patient", "rule_violation", "patient_id", patient_id=pt["id"])


def test_a_transfer_moves_the_patient_and_releases_the_old_bed(ep: Episode) -> None:
    pt = next(p for p in every(ep, "list_patients", status="admitted") if p["isolation"] == "none")
    old = ok(ep, "get_bed", bed_id=pt["bed_id"])
    target = first(ep, "beds", unit_id=old["unit_id"], status="available")
    moved = ok(ep, "transfer_patient", patient_id=pt["id"], bed_id=target["id"])
    assert moved["bed_id"] == target["id"]
    assert ok(ep, "get_bed", bed_id=old["id"])["status"] == "dirty"
    assert every(ep, "list_evs_jobs", bed_id=old["id"], status="pending")


def test_blocked_beds_leave_the_census_denominator(ep: Episode) -> None:
    unit = unit_of(ep, "med_surg")
    bed = free_bed(ep, "med_surg")
    refused(
        ep, "block_bed", "rule_violation", "bed_id", bed_id=first(ep, "beds", status="occupied")["id"], reason="Leak"
    )
    ok(ep, "block_bed", bed_id=bed["id"], reason="Broken call light")
    census = ok(ep, "unit_census", unit_id=unit["id"])
    beds = every(ep, "list_beds", unit_id=unit["id"])
    occupied = sum(b["status"] == "occupied" for b in beds)
    blocked = sum(b["status"] == "blocked" for b in beds)
    assert census["by_status"]["blocked"] == blocked
    assert census["occupancy_pct"] == round(100 * occupied / (len(beds) - blocked), 1)
    assert ok(ep, "unblock_bed", bed_id=bed["id"])["status"] == "dirty"
