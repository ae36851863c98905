"""Carelink Video: consent before the visit, one live session per provider, recording consent, licensure, queues."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TH = ServiceTools("telehealth")
WORLD = TH.world
ok, refused, every = TH.ok, TH.refused, TH.every
POP = WORLD.population


def prov(ep: Episode, n: int) -> dict[str, Any]:
    return every(ep, "list_providers")[n]


def patient(ep: Episode, n: int) -> dict[str, Any]:
    return every(ep, "list_patients")[n]


def waiting(ep: Episode, provider: dict[str, Any]) -> list[dict[str, Any]]:
    return list(ok(ep, "get_waiting_room", provider_id=provider["id"])["patients"])


def test_a_session_needs_an_available_provider_and_ends_freeing_them(ep: Episode) -> None:
    p = prov(ep, 1)
    queue = waiting(ep, p)
    signed = next(w for w in queue if w["consent_signed"])
    ses = ok(ep, "start_session", waiting_entry_id=signed["entry_id"])
    assert (ses["status"], ses["room_url"], ses["recording"]) == ("in_progress", p["room_url"], False)
    assert prov(ep, 1)["status"] == "busy"
    other = next(w for w in waiting(ep, p))
    refused(ep, "start_session", "rule_violation", "waiting_entry_id", waiting_entry_id=other["entry_id"])
    refused(ep, "update_provider_status", "rule_violation", "provider_id", provider_id=p["id"], status="away")
    ended = ok(ep, "end_session", session_id=ses["id"])
    assert ended["status"] == "ended" and ended["duration_minutes"] >= 1
    assert prov(ep, 1)["status"] == "available"
    refused(ep, "end_session", "conflict", "session_id", session_id=ses["id"])


def test_the_current_consent_form_must_be_signed_first(ep: Episode) -> None:
    p = prov(ep, 1)
    unsigned = next(w for w in waiting(ep, p) if not w["consent_signed"])
    refused(ep, "start_session", "rule_violation", "waiting_entry_id", waiting_entry_id=unsigned["entry_id"])
    args = {"provider_id": p["id"], "patient_id": unsigned["patient_id"]}
    refused(ep, "sign_consent", "rule_violation", "recording_allowed", recording_allowed=True, **args)
    ok(ep, "sign_consent", **args)
    refused(ep, "sign_consent", "conflict", "patient_id", **args)
    assert ok(ep, "start_session", waiting_entry_id=unsigned["entry_id"])["patient_id"] == unsigned["patient_id"]


def test_a_new_form_version_must_be_signed_again(ep: Episode) -> None:
    p = prov(ep, 1)
    signed = next(w for w in waiting(ep, p) if w["consent_signed"])
    form = ok(
        ep,
        "publish_consent_form",
        provider_id=p["id"],
        title="Consent to telehealth services",
        body="Updated consent text.",
        asks_recording_consent=True,
    )
    assert form["version"] == 2 and form["current"]
    assert [f["version"] for f in every(ep, "list_consent_forms", provider_id=p["id"], current=True)] == [2]
    refused(ep, "start_session", "rule_violation", "waiting_entry_id", waiting_entry_id=signed["entry_id"])
    ok(ep, "sign_consent", provider_id=p["id"], patient_id=signed["patient_id"], recording_allowed=True)
    assert ok(ep, "start_session", waiting_entry_id=signed["entry_id"], record=True)["recording"] is True


def test_recording_needs_the_patients_recording_consent(ep: Episode) -> None:
    p = prov(ep, 2)  # current form asks for recording consent
    pats = {x["id"]: x for x in every(ep, "list_patients")}
    sigs = [s for s in TH.seeded("consent_signatures") if s["provider_id"] == p["id"] and s["form_id"].endswith("5")]
    yes = next(s for s in sigs if s["recording_allowed"])["patient_id"]
    no = next(s for s in sigs if not s["recording_allowed"])["patient_id"]
    e_no = ok(ep, "check_in", room_slug=p["room_slug"], patient_id=pats[no]["id"])
    refused(ep, "start_session", "rule_violation", "record", waiting_entry_id=e_no["id"], record=True)
    ok(ep, "leave_waiting_entry", waiting_entry_id=e_no["id"])
    refused(ep, "start_session", "conflict", "waiting_entry_id", waiting_entry_id=e_no["id"])
    e_yes = ok(ep, "check_in", room_slug=p["room_slug"], patient_id=pats[yes]["id"])
    assert ok(ep, "start_session", waiting_entry_id=e_yes["id"], record=True)["recording"] is True


def test_check_in_rules_closed_rooms_licensure_and_one_room_at_a_time(ep: Episode) -> None:
    offline = next(p for p in every(ep, "list_providers", status="offline"))
    free = next(
        x
        for x in every(ep, "list_patients")
        if x["country"] in offline["licensed_countries"]
        and x["country"] in prov(ep, 1)["licensed_countries"]
        and not any(w["patient_id"] == x["id"] for p in every(ep, "list_providers") for w in waiting(ep, p))
        and x["id"] != every(ep, "list_sessions", status="in_progress")[0]["patient_id"]
    )
    refused(ep, "check_in", "rule_violation", "room_slug", room_slug=offline["room_slug"], patient_id=free["id"])
    refused(ep, "check_in", "rule_violation", "room_slug", room_slug="nosuchroom", patient_id=free["id"])
    p = prov(ep, 1)
    abroad = next(x for x in every(ep, "list_patients") if x["country"] not in p["licensed_countries"])
    refused(ep, "check_in", "rule_violation", "patient_id", room_slug=p["room_slug"], patient_id=abroad["id"])
    entry = ok(ep, "check_in", room_slug=p["room_slug"], patient_id=free["id"], reason="Rash")
    assert entry["status"] == "waiting"
    refused(ep, "check_in", "conflict", "patient_id", room_slug=prov(ep, 2)["room_slug"], patient_id=free["id"])
    assert waiting(ep, p)[-1]["entry_id"] == entry["id"]


def test_a_room_holds_at_most_ten_waiting_patients(ep: Episode) -> None:
    p = prov(ep, 1)
    busy = {w["patient_id"] for q in every(ep, "list_providers") for w in waiting(ep, q)}
    busy.add(every(ep, "list_sessions", status="in_progress")[0]["patient_id"])
    candidates = [
        x for x in every(ep, "list_patients") if x["country"] in p["licensed_countries"] and x["id"] not in busy
    ]
    room = len(waiting(ep, p))
    for x in candidates[: 10 - room]:
        ok(ep, "check_in", room_slug=p["room_slug"], patient_id=x["id"])
    assert len(waiting(ep, p)) == 10
    extra = ok(
        ep,
        "create_patient",
        first_name="Ana",
        last_name="Lima",
        email="ana.lima@example.org",
        birth_date="1990-05-01",
        country=p["licensed_countries"][0],
    )
    refused(ep, "check_in", "rule_violation", "room_slug", room_slug=p["room_slug"], patient_id=extra["id"])


def test_provider_status_rules(ep: Episode) -> None:
    p = prov(ep, 1)
    refused(ep, "update_provider_status", "conflict", "status", provider_id=p["id"], status="available")
    refused(ep, "update_provider_status", "rule_violation", "status", provider_id=p["id"], status="offline")
    assert ok(ep, "update_provider_status", provider_id=p["id"], status="away")["status"] == "away"
    entry = waiting(ep, p)[0]
    refused(ep, "start_session", "rule_violation", "waiting_entry_id", waiting_entry_id=entry["entry_id"])


def test_a_visit_note_is_signed_once_after_the_visit(ep: Episode) -> None:
    live = every(ep, "list_sessions", status="in_progress")[0]
    refused(ep, "sign_session_note", "rule_violation", "session_id", session_id=live["id"], note="Seen.")
    ended = next(s for s in every(ep, "list_sessions", status="ended") if s["note"] is None)
    refused(ep, "sign_session_note", "rule_violation", "note", session_id=ended["id"], note="  ")
    signed = ok(ep, "sign_session_note", session_id=ended["id"], note="Advised rest; review in a week.")
    assert signed["note_signed_at"] is not None
    refused(ep, "sign_session_note", "conflict", "session_id", session_id=ended["id"], note="Again")


def test_seeded_providers_are_the_practices_clinicians() -> None:
    from compoworld.world.care import clinicians, provider_npi

    provs = TH.seeded("providers")
    assert [(p["email"], p["npi"]) for p in provs] == [
        (c.email, provider_npi(i)) for i, (c, _) in enumerate(clinicians(POP))
    ]
    assert all(p["room_url"].endswith(p["room_slug"]) for p in provs)
    consumers = {p.email for p in POP.consumers}
    assert all(x["email"] in consumers for x in TH.seeded("patients"))
    assert [p["status"] for p in provs].count("busy") == len(
        TH.seeded("sessions", lambda s: s["status"] == "in_progress")
    )
