"""Pagewise On-Call: schedules decide who is paged, the incident state machine, who may acknowledge."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ONCALL = ServiceTools("oncall")
WORLD = ONCALL.world
ok, refused, every = ONCALL.ok, ONCALL.refused, ONCALL.every
POP = WORLD.population
NOW = WORLD.epoch


def service_named(ep: Episode, name: str) -> dict[str, Any]:
    return next(s for s in every(ep, "list_services") if s["name"] == name)


def schedule_named(ep: Episode, name: str) -> dict[str, Any]:
    return next(s for s in every(ep, "list_schedules") if s["name"] == name)


def outsider(ep: Episode) -> str:
    """A new responder on no schedule and no policy."""
    emp = next(p for p in POP.employees if p.department == "Support")
    ok(ep, "create_user", email=emp.email, name=emp.name, job_title=emp.job_title, role="responder")
    return emp.email


# -- the world ------------------------------------------------------------------------------


def test_responders_are_the_engineering_and_operations_employees_and_incidents_cover_every_status() -> None:
    ep = Episode(WORLD)
    emails = {u["email"] for u in every(ep, "list_users")}
    assert emails == {p.email for p in POP.employees if p.department in ("Engineering", "Operations")}
    assert {i["status"] for i in every(ep, "list_incidents")} == {"triggered", "acknowledged", "resolved"}
    assert {s["status"] for s in every(ep, "list_services")} == {"active", "maintenance", "disabled"}


def test_the_current_on_call_follows_the_weekly_rotation_of_the_schedule(ep: Episode) -> None:
    sched = schedule_named(ep, "Platform primary")
    layer = sched["layers"][0]
    users = layer["user_emails"]
    start = dt.datetime.fromisoformat(layer["start"])
    turn = int((NOW - start).total_seconds() // (168 * 3600))
    now = ok(ep, "get_current_oncall", schedule_id=sched["id"])
    assert now["user_email"] == users[turn % len(users)]
    later = ok(ep, "get_current_oncall", schedule_id=sched["id"], at=(NOW + dt.timedelta(days=7)).isoformat())
    assert later["user_email"] == users[(turn + 1) % len(users)]
    assert not now["from_override"]


def test_an_override_replaces_the_rotation_while_it_lasts(ep: Episode) -> None:
    sched = schedule_named(ep, "Operations daily")
    override = every(ep, "list_overrides", schedule_id=sched["id"])[0]
    during = ok(ep, "get_current_oncall", schedule_id=sched["id"], at=override["start"])
    assert during == {**during, "user_email": override["user_email"], "from_override": True}


# -- triggering -------------------------------------------------------------------------------


def test_triggering_pages_the_level_one_on_call_and_records_the_details_as_a_note(ep: Episode) -> None:
    svc = service_named(ep, "Checkout API")
    snap = ep.snapshot()
    inc = ok(ep, "trigger_incident", service_id=svc["id"], title="Checkout down", details="5xx everywhere")
    primary = ok(ep, "get_current_oncall", schedule_id=schedule_named(ep, "Platform primary")["id"])
    assert inc["status"] == "triggered" and inc["assignee_email"] == primary["user_email"]
    assert ep.diff(snap).counts() == {
        "oncall.incidents": {"added": 1, "updated": 0, "removed": 0},
        "oncall.notes": {"added": 1, "updated": 0, "removed": 0},
    }


def test_a_disabled_or_maintenance_service_refuses_new_incidents(ep: Episode) -> None:
    for status in ("disabled", "maintenance"):
        svc = every(ep, "list_services", status=status)[0]
        refused(ep, "trigger_incident", "rule_violation", "service_id", service_id=svc["id"], title="Down")


def test_a_second_open_incident_with_the_same_dedup_key_is_a_conflict(ep: Episode) -> None:
    svc = service_named(ep, "Search")
    ok(ep, "trigger_incident", service_id=svc["id"], title="Slow", dedup_key="search-latency")
    refused(
        ep, "trigger_incident", "conflict", "dedup_key", service_id=svc["id"], title="Slow", dedup_key="search-latency"
    )


# -- acknowledging and resolving --------------------------------------------------------------


def test_someone_outside_the_escalation_policy_cannot_acknowledge(ep: Episode) -> None:
    email = outsider(ep)
    inc = every(ep, "list_incidents", status="triggered")[0]
    refused(
        ep, "acknowledge_incident", "rule_violation", "responder_email", incident_id=inc["id"], responder_email=email
    )


def test_a_policy_member_who_is_not_the_assignee_may_acknowledge_and_takes_the_incident(ep: Episode) -> None:
    svc = service_named(ep, "Checkout API")
    inc = next(i for i in every(ep, "list_incidents", status="triggered", service_id=svc["id"]))
    layer_users = schedule_named(ep, "Platform secondary")["layers"][0]["user_emails"]
    member = next(e for e in layer_users if e != inc["assignee_email"])
    snap = ep.snapshot()
    acked = ok(ep, "acknowledge_incident", incident_id=inc["id"], responder_email=member)
    assert acked["status"] == "acknowledged" and acked["acknowledged_by"] == member == acked["assignee_email"]
    assert ep.diff(snap).counts() == {"oncall.incidents": {"added": 0, "updated": 1, "removed": 0}}
    refused(ep, "acknowledge_incident", "rule_violation", "incident_id", incident_id=inc["id"], responder_email=member)


def test_resolving_an_unacknowledged_incident_needs_a_resolution_note(ep: Episode) -> None:
    inc = every(ep, "list_incidents", status="triggered")[0]
    who = inc["assignee_email"]
    refused(ep, "resolve_incident", "rule_violation", "resolution", incident_id=inc["id"], responder_email=who)
    snap = ep.snapshot()
    done = ok(ep, "resolve_incident", incident_id=inc["id"], responder_email=who, resolution="Restarted the pods")
    assert done["status"] == "resolved" and done["resolved_by"] == who
    diff = ep.diff(snap).to_dict()
    assert diff["oncall.notes"]["added"][0]["content"] == "Resolution: Restarted the pods"
    refused(ep, "resolve_incident", "rule_violation", "incident_id", incident_id=inc["id"], responder_email=who)


def test_an_acknowledged_incident_resolves_without_a_note(ep: Episode) -> None:
    inc = every(ep, "list_incidents", status="acknowledged")[0]
    done = ok(ep, "resolve_incident", incident_id=inc["id"], responder_email=inc["assignee_email"])
    assert done["status"] == "resolved"


def test_escalating_pages_the_next_level_and_levels_beyond_the_policy_are_refused(ep: Episode) -> None:
    svc = service_named(ep, "Checkout API")
    inc = ok(ep, "trigger_incident", service_id=svc["id"], title="Checkout down")
    refused(ep, "escalate_incident", "rule_violation", "escalation_level", incident_id=inc["id"], escalation_level=4)
    up = ok(ep, "escalate_incident", incident_id=inc["id"], escalation_level=2)
    secondary = ok(ep, "get_current_oncall", schedule_id=schedule_named(ep, "Platform secondary")["id"])
    assert up["escalation_level"] == 2 and up["assignee_email"] == secondary["user_email"]


# -- deleting ---------------------------------------------------------------------------------


def test_a_service_with_open_incidents_cannot_be_deleted_but_one_without_can(ep: Episode) -> None:
    busy = service_named(ep, "Checkout API")
    refused(ep, "delete_service", "rule_violation", None, service_id=busy["id"])
    idle = every(ep, "list_services", status="disabled")[0]
    assert not every(ep, "list_incidents", service_id=idle["id"])
    ok(ep, "delete_service", service_id=idle["id"])


def test_a_policy_in_use_and_a_schedule_in_a_policy_cannot_be_deleted(ep: Episode) -> None:
    policy = service_named(ep, "Checkout API")["escalation_policy_id"]
    refused(ep, "delete_escalation_policy", "rule_violation", None, escalation_policy_id=policy)
    sched = schedule_named(ep, "Platform primary")
    refused(ep, "delete_schedule", "rule_violation", None, schedule_id=sched["id"])


def test_a_policy_level_that_targets_nobody_is_refused(ep: Episode) -> None:
    refused(ep, "create_escalation_policy", "rule_violation", "rules.0", name="Empty", rules=[{"target_emails": []}])
