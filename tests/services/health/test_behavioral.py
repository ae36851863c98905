"""Willow Behavioral Health: intakes first, late cancellations, notes that lock, superbills, portal requests."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from compoworld.world.care import clinicians
from tests.services.helpers import ServiceTools

BH = ServiceTools("behavioral")
WORLD = BH.world
ok, refused, every, first = BH.ok, BH.refused, BH.every, BH.first
POP = WORLD.population
NOW = WORLD.epoch


def at(hours: float) -> str:
    return (NOW + dt.timedelta(hours=hours)).isoformat()


def test_seeded_clients_are_consumers_with_their_primary_clinician(ep: Episode) -> None:
    docs = {p.email for p, _ in clinicians(POP)}
    assert {c["email"] for c in every(ep, "list_clinicians")} <= docs
    names = {p.email: p.name for p in POP.consumers}
    for c in every(ep, "list_clients"):
        assert names[c["email"]] == c["name"]
        for a in every(ep, "list_appointments", client_id=c["id"]):
            assert a["clinician_id"] == c["clinician_id"]
    assert ok(ep, "find_client", email=c["email"])["id"] == c["id"]
    refused(ep, "find_client", "rule_violation", "email", email="nobody@nowhere.org")


def test_a_new_client_starts_with_an_intake(ep: Episode) -> None:
    new = next(
        c for c in every(ep, "list_clients", status="active") if not every(ep, "list_appointments", client_id=c["id"])
    )
    args = {"client_id": new["id"], "clinician_id": new["clinician_id"], "starts_at": at(24 * 20)}
    refused(ep, "book_appointment", "rule_violation", "service_code", service_code="90834", **args)
    ok(ep, "book_appointment", service_code="90791", **args)
    later = ok(ep, "book_appointment", service_code="90834", **(args | {"starts_at": at(24 * 27)}))
    assert later["fee_cents"] == new["session_fee_cents"]
    refused(
        ep,
        "book_appointment",
        "conflict",
        "starts_at",
        service_code="90834",
        **(args | {"starts_at": at(24 * 27 + 0.5)}),
    )


def test_cancelling_inside_24_hours_charges_the_late_fee(ep: Episode) -> None:
    c = every(ep, "list_clients", status="active")[0]
    soon = ok(
        ep,
        "book_appointment",
        client_id=c["id"],
        clinician_id=c["clinician_id"],
        service_code="90834",
        starts_at=at(30 * 24 + 6),
    )
    assert ok(ep, "cancel_appointment", appointment_id=soon["id"])["status"] == "cancelled"
    near = ok(
        ep,
        "book_appointment",
        client_id=c["id"],
        clinician_id=c["clinician_id"],
        service_code="90834",
        starts_at=at(20),
    )
    late = ok(ep, "cancel_appointment", appointment_id=near["id"])
    assert (late["status"], late["fee_cents"]) == ("late_cancelled", 7500)
    assert ok(ep, "get_client", client_id=c["id"])["balance_cents"] == c["balance_cents"] + 7500
    refused(ep, "cancel_appointment", "rule_violation", "appointment_id", appointment_id=near["id"])


def test_a_session_is_attended_or_missed_only_once_it_began(ep: Episode) -> None:
    future = next(a for a in every(ep, "list_appointments", status="scheduled") if a["starts_at"] > NOW.isoformat())
    refused(ep, "mark_attended", "rule_violation", "appointment_id", appointment_id=future["id"])
    refused(ep, "mark_no_show", "rule_violation", "appointment_id", appointment_id=future["id"])
    begun = next(a for a in every(ep, "list_appointments", status="scheduled") if a["starts_at"] <= NOW.isoformat())
    assert ok(ep, "mark_attended", appointment_id=begun["id"])["status"] == "attended"


def test_a_note_documents_an_attended_session_and_locks_when_signed(ep: Episode) -> None:
    missed = first(ep, "appointments", status="no_show")
    refused(ep, "write_note", "rule_violation", "appointment_id", appointment_id=missed["id"], content="x")
    noted = first(ep, "notes")
    refused(ep, "write_note", "conflict", "appointment_id", appointment_id=noted["appointment_id"], content="x")
    draft = first(ep, "notes", status="draft")
    ok(ep, "update_note", note_id=draft["id"], content="B: calm. I: CBT. R: engaged. P: weekly.")
    signed = ok(ep, "sign_note", note_id=draft["id"])
    assert signed["status"] == "signed" and signed["signed_at"]
    refused(ep, "update_note", "rule_violation", "note_id", note_id=draft["id"], content="changed")
    refused(ep, "sign_note", "rule_violation", "note_id", note_id=draft["id"])


def test_a_superbill_lists_documented_sessions_once(ep: Episode) -> None:
    bill = first(ep, "superbills")
    c = bill["client_id"]
    refused(
        ep, "create_superbill", "conflict", "appointment_ids", client_id=c, appointment_ids=[bill["appointment_ids"][0]]
    )
    draft_note = first(ep, "notes", status="draft", client_id=c)
    refused(
        ep,
        "create_superbill",
        "rule_violation",
        "appointment_ids",
        client_id=c,
        appointment_ids=[draft_note["appointment_id"]],
    )
    ok(ep, "sign_note", note_id=draft_note["id"])
    made = ok(ep, "create_superbill", client_id=c, appointment_ids=[draft_note["appointment_id"]])
    appt = ok(ep, "get_appointment", appointment_id=draft_note["appointment_id"])
    assert (made["total_cents"], made["status"]) == (appt["fee_cents"], "draft")
    assert ok(ep, "issue_superbill", superbill_id=made["id"])["status"] == "issued"


def test_accepting_a_portal_request_books_the_appointment(ep: Episode) -> None:
    req = first(ep, "portal_requests", status="pending")
    done = ok(ep, "accept_request", request_id=req["id"])
    appt = ok(ep, "get_appointment", appointment_id=done["appointment_id"])
    assert (appt["starts_at"], appt["client_id"], appt["status"]) == (
        req["requested_at"],
        req["client_id"],
        "scheduled",
    )
    refused(ep, "decline_request", "rule_violation", "request_id", request_id=req["id"])


def test_one_treatment_plan_is_active_at_a_time(ep: Episode) -> None:
    c = every(ep, "list_clients", status="active")[0]
    refused(
        ep,
        "create_treatment_plan",
        "rule_violation",
        "review_on",
        client_id=c["id"],
        diagnosis="F41.1",
        goals="Sleep better",
        review_on=NOW.date().isoformat(),
    )
    refused(
        ep,
        "create_treatment_plan",
        "rule_violation",
        "goals",
        client_id=c["id"],
        diagnosis="F41.1",
        goals=" ",
        review_on=at(24 * 60)[:10],
    )
    plan = ok(
        ep,
        "create_treatment_plan",
        client_id=c["id"],
        diagnosis="F41.1",
        goals="Sleep better",
        review_on=at(24 * 60)[:10],
    )
    ok(ep, "activate_treatment_plan", treatment_plan_id=plan["id"])
    active = every(ep, "list_treatment_plans", client_id=c["id"], status="active")
    assert [p["id"] for p in active] == [plan["id"]]


def test_an_inactive_client_cannot_be_booked(ep: Episode) -> None:
    c = first(ep, "clients", status="inactive")
    refused(
        ep,
        "book_appointment",
        "rule_violation",
        "client_id",
        client_id=c["id"],
        clinician_id=c["clinician_id"],
        service_code="90834",
        starts_at=at(48),
    )
    ok(ep, "reactivate_client", client_id=c["id"])
    ok(
        ep,
        "book_appointment",
        client_id=c["id"],
        clinician_id=c["clinician_id"],
        service_code="90834",
        starts_at=at(24 * 40),
    )
