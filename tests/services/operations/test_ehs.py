"""Guardrail EHS: incident lifecycle, investigations, corrective actions, OSHA log, observations."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EHS = ServiceTools("ehs")
WORLD = EHS.world
ok, refused, every = EHS.ok, EHS.refused, EHS.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
A, B, C = (p.email for p in POP.employees[:3])
NOW = WORLD.epoch
TODAY = NOW.date()


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def report(ep: Episode, **extra: Any) -> dict[str, Any]:
    args = {
        "title": "Cut finger on sheet metal",
        "type": "injury",
        "occurred_at": (NOW - dt.timedelta(hours=2)).isoformat(),
        "location": "Berlin",
        "reported_by": A,
        "involved_email": B,
        "severity": "medium",
    }
    made: dict[str, Any] = ok(ep, "report_incident", **(args | extra))
    return made


def test_seeded_incidents_come_from_staff_and_cover_every_stage(ep: Episode) -> None:
    incs = every(ep, "list_incidents")
    assert {i["status"] for i in incs} == {"reported", "investigating", "action_pending", "closed"}
    for i in incs:
        assert i["reported_by"] in STAFF
        assert (i["involved_email"] is not None) == (i["type"] in ("injury", "illness"))
    for c in every(ep, "list_osha_cases"):
        inc = ok(ep, "get_incident", incident_id=c["incident_id"])
        assert inc["recordable"] and c["employee_email"] == inc["involved_email"]


def test_reporting_refuses_future_times_and_injuries_without_a_person(ep: Episode) -> None:
    later = (NOW + dt.timedelta(hours=5)).isoformat()
    base = {"title": "X", "type": "injury", "location": "Berlin", "reported_by": A}
    refused(ep, "report_incident", "rule_violation", "occurred_at", occurred_at=later, involved_email=B, **base)
    past = (NOW - dt.timedelta(days=1)).isoformat()
    refused(ep, "report_incident", "rule_violation", "involved_email", occurred_at=past, **base)
    refused(
        ep,
        "report_incident",
        "rule_violation",
        "reported_by",
        occurred_at=past,
        involved_email=B,
        **(base | {"reported_by": "x@y.io"}),
    )
    refused(
        ep,
        "report_incident",
        "rule_violation",
        "recordable",
        occurred_at=past,
        recordable=True,
        **(base | {"type": "near_miss"}),
    )
    made = report(ep)
    assert made["status"] == "reported" and made["number"].startswith("INC-")


def test_an_investigation_is_led_by_someone_other_than_the_injured(ep: Episode) -> None:
    inc = report(ep)
    refused(ep, "start_investigation", "rule_violation", "lead_email", incident_id=inc["id"], lead_email=B)
    inv = ok(ep, "start_investigation", incident_id=inc["id"], lead_email=C)
    assert ok(ep, "get_incident", incident_id=inc["id"])["status"] == "investigating"
    refused(ep, "start_investigation", "conflict", "incident_id", incident_id=inc["id"], lead_email=A)
    refused(
        ep,
        "complete_investigation",
        "rule_violation",
        "root_cause",
        investigation_id=inv["id"],
        root_cause_category="training",
        root_cause="  ",
    )
    done = ok(
        ep,
        "complete_investigation",
        investigation_id=inv["id"],
        root_cause_category="training",
        root_cause="New starter not shown the guard.",
    )
    assert done["status"] == "completed"
    assert ok(ep, "get_incident", incident_id=inc["id"])["status"] == "action_pending"


def test_corrective_actions_are_due_within_180_days_and_owned_by_staff(ep: Episode) -> None:
    inc = report(ep)
    base = {"incident_id": inc["id"], "title": "Fit blade guard"}
    refused(ep, "assign_corrective_action", "rule_violation", "due_on", owner_email=C, due_on=day(181), **base)
    refused(ep, "assign_corrective_action", "rule_violation", "due_on", owner_email=C, due_on=day(-1), **base)
    refused(
        ep, "assign_corrective_action", "rule_violation", "owner_email", owner_email="q@z.io", due_on=day(9), **base
    )
    act = ok(ep, "assign_corrective_action", owner_email=C, due_on=day(180), **base)
    assert (act["status"], act["owner_email"]) == ("open", C)


def test_an_action_is_verified_by_someone_other_than_its_owner(ep: Episode) -> None:
    act = every(ep, "list_corrective_actions", status="in_progress")[0]
    refused(ep, "verify_corrective_action", "rule_violation", "action_id", action_id=act["id"], verifier_email=A)
    refused(ep, "complete_corrective_action", "rule_violation", "note", action_id=act["id"], note=" ")
    assert ok(ep, "complete_corrective_action", action_id=act["id"], note="Guard fitted")["status"] == "completed"
    refused(
        ep,
        "verify_corrective_action",
        "rule_violation",
        "verifier_email",
        action_id=act["id"],
        verifier_email=act["owner_email"],
    )
    other = next(e for e in STAFF if e != act["owner_email"])
    assert ok(ep, "verify_corrective_action", action_id=act["id"], verifier_email=other)["verified_by"] == other
    refused(ep, "update_corrective_action", "rule_violation", "action_id", corrective_action_id=act["id"], title="Y")


def test_an_incident_closes_only_after_investigation_actions_and_osha_case(ep: Episode) -> None:
    inc = report(ep, recordable=True)
    refused(ep, "close_incident", "rule_violation", "incident_id", incident_id=inc["id"])
    inv = ok(ep, "start_investigation", incident_id=inc["id"], lead_email=C)
    ok(ep, "complete_investigation", investigation_id=inv["id"], root_cause_category="equipment", root_cause="Dull")
    act = ok(ep, "assign_corrective_action", incident_id=inc["id"], title="Fix", owner_email=C, due_on=day(5))
    refused(ep, "close_incident", "rule_violation", "incident_id", incident_id=inc["id"])
    ok(ep, "complete_corrective_action", action_id=act["id"], note="Done")
    ok(ep, "verify_corrective_action", action_id=act["id"], verifier_email=A)
    msg = refused(ep, "close_incident", "rule_violation", "incident_id", incident_id=inc["id"])
    assert "OSHA" in msg
    ok(ep, "record_osha_case", incident_id=inc["id"], case_type="injury", classification="other_recordable")
    closed = ok(ep, "close_incident", incident_id=inc["id"])
    assert closed["status"] == "closed" and closed["closed_at"] is not None
    refused(
        ep,
        "assign_corrective_action",
        "rule_violation",
        "incident_id",
        incident_id=inc["id"],
        title="More",
        owner_email=C,
        due_on=day(5),
    )


def test_osha_cases_are_for_injuries_once_each_with_day_counts(ep: Episode) -> None:
    inc = report(ep)
    refused(
        ep,
        "record_osha_case",
        "rule_violation",
        "days_away",
        incident_id=inc["id"],
        case_type="injury",
        classification="days_away",
    )
    case = ok(
        ep,
        "record_osha_case",
        incident_id=inc["id"],
        case_type="injury",
        classification="days_away",
        days_away=4,
        privacy_case=True,
    )
    assert case["employee_name"] == "Privacy Case" and case["employee_email"] == B
    assert ok(ep, "get_incident", incident_id=inc["id"])["recordable"] is True
    refused(
        ep,
        "record_osha_case",
        "conflict",
        "incident_id",
        incident_id=inc["id"],
        case_type="injury",
        classification="other_recordable",
    )
    near = report(ep, type="near_miss", involved_email=None)
    refused(
        ep,
        "record_osha_case",
        "rule_violation",
        "incident_id",
        incident_id=near["id"],
        case_type="injury",
        classification="other_recordable",
    )


def test_the_300a_summary_totals_the_years_cases(ep: Episode) -> None:
    inc = report(ep)
    ok(
        ep,
        "record_osha_case",
        incident_id=inc["id"],
        case_type="respiratory",
        classification="job_transfer_restriction",
        days_restricted=6,
    )
    year = TODAY.year
    cases = [c for c in every(ep, "list_osha_cases") if c["date_of_injury"].startswith(str(year))]
    summary = ok(ep, "osha_300a_summary", year=year)
    assert summary["total_cases"] == len(cases)
    assert summary["total_days_away"] == sum(c["days_away"] for c in cases)
    assert summary["total_days_restricted"] == sum(c["days_restricted"] for c in cases) >= 6
    assert summary["by_case_type"]["respiratory"] >= 1


def test_only_open_at_risk_observations_raise_actions(ep: Episode) -> None:
    safe = every(ep, "list_observations", kind="safe")[0]
    args = {"title": "Fix", "owner_email": C, "due_on": day(10)}
    refused(ep, "raise_action_from_observation", "rule_violation", "observation_id", observation_id=safe["id"], **args)
    risky = every(ep, "list_observations", kind="at_risk", status="open")[0]
    act = ok(ep, "raise_action_from_observation", observation_id=risky["id"], **args)
    assert act["observation_id"] == risky["id"] and act["incident_id"] is None
    ok(ep, "close_observation", observation_id=risky["id"])
    refused(ep, "raise_action_from_observation", "rule_violation", "observation_id", observation_id=risky["id"], **args)
    refused(
        ep,
        "create_observation",
        "rule_violation",
        "observer_email",
        kind="safe",
        area="ppe",
        description="ok",
        location="Berlin",
        observer_email="n@o.io",
    )


def test_overdue_actions_lists_late_unfinished_work(ep: Episode) -> None:
    late = ok(ep, "overdue_actions")
    assert late and all(a["due_on"] < TODAY.isoformat() and a["status"] in ("open", "in_progress") for a in late)
    owner = late[0]["owner_email"]
    assert all(a["owner_email"] == owner for a in ok(ep, "overdue_actions", owner_email=owner))
    ok(ep, "complete_corrective_action", action_id=late[0]["id"], note="Done late")
    assert late[0]["id"] not in {a["id"] for a in ok(ep, "overdue_actions")}
