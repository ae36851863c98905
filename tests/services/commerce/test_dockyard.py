"""Berthline Docks: slot rules, overlaps, references, the appointment lifecycle, no-shows, availability."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DOCKS = ServiceTools("dockyard")
WORLD = DOCKS.world
ok, refused, every = DOCKS.ok, DOCKS.refused, DOCKS.every
POP = WORLD.population
NOW = WORLD.epoch
STAFF = {p.email for p in POP.employees}


def free_slot(ep: Episode, days: int = 3, index: int = 0) -> dict[str, Any]:
    wh = every(ep, "list_warehouses")[0]
    lt = next(x for x in every(ep, "list_load_types") if x["name"] == "Inbound palletized 53ft")
    day = (NOW + dt.timedelta(days=days)).date()
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    slots = ok(ep, "get_availability", warehouse_id=wh["id"], load_type_id=lt["id"], date=day.isoformat())
    return {"slot": slots[index], "load_type": lt, "warehouse": wh}


def book(ep: Episode, ref: str = "PO-777", **over: Any) -> dict[str, Any]:
    f = free_slot(ep)
    args = {
        "dock_id": f["slot"]["dock_id"],
        "load_type_id": f["load_type"]["id"],
        "carrier_id": every(ep, "list_carriers")[0]["id"],
        "ref_number": ref,
        "start": f["slot"]["start"],
    } | over
    made: dict[str, Any] = ok(ep, "book_appointment", **args)
    return made


def test_seeded_carriers_are_world_contacts_and_yards_are_run_by_staff(ep: Episode) -> None:
    contacts = {p.email for p in POP.contacts}
    for c in every(ep, "list_carriers"):
        assert c["email"] in contacts
        assert c["company_name"] in {co.name for co in POP.customers}
    for w in every(ep, "list_warehouses"):
        assert w["contact_email"] in STAFF
    statuses = {a["status"] for a in every(ep, "list_appointments")}
    assert statuses == {"requested", "scheduled", "arrived", "in_progress", "completed", "cancelled", "no_show"}


def test_a_booking_takes_the_load_types_duration_and_starts_requested(ep: Episode) -> None:
    a = book(ep)
    lt = ok(ep, "get_load_type", load_type_id=a["load_type_id"])
    start = dt.datetime.fromisoformat(a["start"].replace("Z", "+00:00"))
    end = dt.datetime.fromisoformat(a["end"].replace("Z", "+00:00"))
    assert end - start == dt.timedelta(minutes=lt["duration_minutes"])
    assert a["status"] == "requested" and a["confirmation_number"].startswith("APT-")


def test_slots_outside_hours_within_lead_time_or_for_other_loads_are_refused(ep: Episode) -> None:
    f = free_slot(ep)
    base = {
        "dock_id": f["slot"]["dock_id"],
        "load_type_id": f["load_type"]["id"],
        "carrier_id": every(ep, "list_carriers")[0]["id"],
        "ref_number": "PO-1",
    }
    start = dt.datetime.fromisoformat(f["slot"]["start"].replace("Z", "+00:00"))
    refused(
        ep, "book_appointment", "rule_violation", "start", start=(start + dt.timedelta(hours=20)).isoformat(), **base
    )
    refused(ep, "book_appointment", "rule_violation", "start", start=(NOW + dt.timedelta(hours=1)).isoformat(), **base)
    refused(
        ep, "book_appointment", "rule_violation", "start", start=(start + dt.timedelta(minutes=5)).isoformat(), **base
    )
    outbound = next(x for x in every(ep, "list_load_types", direction="outbound"))
    dock = ok(ep, "get_dock", dock_id=base["dock_id"])
    if outbound["id"] not in dock["load_type_ids"]:
        refused(
            ep,
            "book_appointment",
            "rule_violation",
            "load_type_id",
            start=f["slot"]["start"],
            **(base | {"load_type_id": outbound["id"]}),
        )
    inactive = every(ep, "list_docks", active=False)[0]
    refused(
        ep,
        "book_appointment",
        "rule_violation",
        "dock_id",
        start=f["slot"]["start"],
        **(base | {"dock_id": inactive["id"]}),
    )


def test_a_dock_is_booked_once_per_slot_until_cancelled(ep: Episode) -> None:
    a = book(ep, "PO-1")
    args = {k: a[k] for k in ("dock_id", "load_type_id", "carrier_id", "start")}
    refused(ep, "book_appointment", "conflict", "start", ref_number="PO-2", **args)
    refused(ep, "cancel_appointment", "rule_violation", "reason", appointment_id=a["id"], reason="  ")
    ok(ep, "cancel_appointment", appointment_id=a["id"], reason="Carrier has no driver")
    assert ok(ep, "book_appointment", ref_number="PO-2", **args)["status"] == "requested"


def test_a_reference_is_booked_once_per_warehouse(ep: Episode) -> None:
    a = book(ep, "PO-55")
    f = free_slot(ep, index=3)
    refused(
        ep,
        "book_appointment",
        "conflict",
        "ref_number",
        dock_id=f["slot"]["dock_id"],
        load_type_id=a["load_type_id"],
        carrier_id=a["carrier_id"],
        ref_number="PO-55",
        start=f["slot"]["start"],
    )


def test_the_lifecycle_runs_from_request_to_completion(ep: Episode) -> None:
    today = next(
        a
        for a in every(ep, "list_appointments", status="scheduled")
        if a["start"] > NOW.isoformat().replace("+00:00", "Z")
    )
    later = book(ep)
    ok(ep, "approve_appointment", appointment_id=later["id"])
    refused(ep, "check_in", "rule_violation", "appointment_id", appointment_id=later["id"])
    refused(ep, "start_appointment", "rule_violation", "appointment_id", appointment_id=today["id"])
    arrived = ok(ep, "check_in", appointment_id=today["id"], trailer_number="TRL-9")
    assert arrived["status"] == "arrived" and arrived["arrived_at"] is not None
    ok(ep, "start_appointment", appointment_id=today["id"])
    refused(ep, "cancel_appointment", "rule_violation", "appointment_id", appointment_id=today["id"], reason="x")
    done = ok(ep, "complete_appointment", appointment_id=today["id"])
    assert done["status"] == "completed" and done["completed_at"] is not None


def test_no_show_only_after_the_start_has_passed(ep: Episode) -> None:
    scheduled = every(ep, "list_appointments", status="scheduled")
    past = next(a for a in scheduled if a["start"] < NOW.isoformat().replace("+00:00", "Z"))
    future = next(a for a in scheduled if a["start"] > NOW.isoformat().replace("+00:00", "Z"))
    refused(ep, "mark_no_show", "rule_violation", "appointment_id", appointment_id=future["id"])
    assert ok(ep, "mark_no_show", appointment_id=past["id"])["status"] == "no_show"
    refused(ep, "mark_no_show", "rule_violation", "appointment_id", appointment_id=past["id"])


def test_availability_leaves_out_booked_slots(ep: Episode) -> None:
    f = free_slot(ep)
    day = dt.datetime.fromisoformat(f["slot"]["start"].replace("Z", "+00:00")).date()
    before = ok(
        ep,
        "get_availability",
        warehouse_id=f["warehouse"]["id"],
        load_type_id=f["load_type"]["id"],
        date=day.isoformat(),
    )
    a = book(ep)
    after = ok(
        ep,
        "get_availability",
        warehouse_id=f["warehouse"]["id"],
        load_type_id=f["load_type"]["id"],
        date=day.isoformat(),
    )
    assert len(after) == len(before) - 1
    assert (a["dock_id"], a["start"]) not in {(s["dock_id"], s["start"]) for s in after}


def test_a_dock_with_live_appointments_cannot_be_deactivated(ep: Episode) -> None:
    a = every(ep, "list_appointments", status="arrived")[0]
    refused(ep, "update_dock", "rule_violation", "active", dock_id=a["dock_id"], active=False)
    idle = next(
        d
        for d in every(ep, "list_docks", active=True)
        if not any(
            x["status"] in ("requested", "scheduled", "arrived", "in_progress")
            for x in every(ep, "list_appointments", dock_id=d["id"])
        )
    )
    assert ok(ep, "update_dock", dock_id=idle["id"], active=False)["active"] is False
    refused(ep, "update_dock", "rule_violation", "close_hour", dock_id=idle["id"], open_hour=10, close_hour=9)


def test_rescheduling_keeps_the_warehouse_and_the_slot_rules(ep: Episode) -> None:
    a = book(ep)
    later = free_slot(ep, days=4, index=2)
    moved = ok(
        ep,
        "reschedule_appointment",
        appointment_id=a["id"],
        start=later["slot"]["start"],
        dock_id=later["slot"]["dock_id"],
    )
    assert moved["start"] == later["slot"]["start"]
    other_wh = every(ep, "list_docks", warehouse_id=every(ep, "list_warehouses")[1]["id"])[0]
    refused(
        ep,
        "reschedule_appointment",
        "rule_violation",
        "dock_id",
        appointment_id=a["id"],
        start=later["slot"]["start"],
        dock_id=other_wh["id"],
    )
    refused(
        ep,
        "reschedule_appointment",
        "rule_violation",
        "start",
        appointment_id=a["id"],
        start=(NOW + dt.timedelta(hours=2)).isoformat(),
    )
