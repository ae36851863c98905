"""Checkpoint Audits: templates, answering and scoring inspections, actions from failures, schedules."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SA = ServiceTools("siteaudits")
WORLD = SA.world
ok, refused, every = SA.ok, SA.refused, SA.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
A = POP.employees[0].email
QUESTIONS = [
    {"label": "Exit clear", "kind": "yes_no", "weight": 3, "critical": True},
    {"label": "Floor tidy", "kind": "rating", "weight": 2},
    {"label": "Notes", "kind": "text"},
]


def published(ep: Episode) -> dict[str, Any]:
    tpl = ok(ep, "create_template", name="Dock check", owner_email=A, questions=QUESTIONS)
    result: dict[str, Any] = ok(ep, "publish_template", template_id=tpl["id"])
    return result


def started(ep: Episode) -> dict[str, Any]:
    site = every(ep, "list_sites", status="active")[0]
    made: dict[str, Any] = ok(
        ep, "start_inspection", template_id=published(ep)["id"], site_id=site["id"], inspector_email=A
    )
    return made


def test_seeded_sites_templates_and_inspections_are_consistent(ep: Episode) -> None:
    for site in every(ep, "list_sites"):
        assert site["manager_email"] in STAFF
    for insp in every(ep, "list_inspections", status="completed"):
        failed = [a for a in insp["answers"] if a["failed"]]
        assert insp["failed_items"] == len(failed)
        assert len(every(ep, "list_actions", inspection_id=insp["id"])) == len(failed)
        assert 0 <= insp["score_pct"] <= 100


def test_templates_need_unique_questions_and_freeze_when_published(ep: Episode) -> None:
    refused(
        ep,
        "create_template",
        "rule_violation",
        "questions",
        name="X",
        owner_email=A,
        questions=[{"label": "Same"}, {"label": "Same"}],
    )
    empty = ok(ep, "create_template", name="Empty", owner_email=A)
    refused(ep, "publish_template", "rule_violation", "template_id", template_id=empty["id"])
    ok(ep, "add_question", template_id=empty["id"], label="Guard fitted")
    refused(ep, "add_question", "conflict", "label", template_id=empty["id"], label="Guard fitted")
    ok(ep, "publish_template", template_id=empty["id"])
    refused(ep, "add_question", "rule_violation", "template_id", template_id=empty["id"], label="Later")


def test_only_published_templates_at_active_sites_start_inspections(ep: Episode) -> None:
    draft = every(ep, "list_templates", status="draft")[0]
    site = every(ep, "list_sites", status="active")[0]
    refused(
        ep,
        "start_inspection",
        "rule_violation",
        "template_id",
        template_id=draft["id"],
        site_id=site["id"],
        inspector_email=A,
    )
    tpl = published(ep)
    gone = every(ep, "list_sites", status="archived")[0]
    refused(
        ep,
        "start_inspection",
        "rule_violation",
        "site_id",
        template_id=tpl["id"],
        site_id=gone["id"],
        inspector_email=A,
    )
    refused(
        ep,
        "start_inspection",
        "rule_violation",
        "inspector_email",
        template_id=tpl["id"],
        site_id=site["id"],
        inspector_email="v@x.io",
    )


def test_answers_must_fit_the_question(ep: Episode) -> None:
    insp = started(ep)
    refused(
        ep,
        "answer_question",
        "rule_violation",
        "response",
        inspection_id=insp["id"],
        label="Exit clear",
        response="maybe",
    )
    refused(
        ep, "answer_question", "rule_violation", "response", inspection_id=insp["id"], label="Floor tidy", response="7"
    )
    refused(ep, "answer_question", "rule_violation", "label", inspection_id=insp["id"], label="Roof", response="yes")
    again = ok(ep, "answer_question", inspection_id=insp["id"], label="Exit clear", response="No")
    assert again["answers"][0]["response"] == "no" and again["answers"][0]["failed"]
    again = ok(ep, "answer_question", inspection_id=insp["id"], label="Exit clear", response="yes")
    assert [(a["response"], a["failed"]) for a in again["answers"]] == [("yes", False)]


def test_completion_needs_every_answer_and_scores_by_weight(ep: Episode) -> None:
    insp = started(ep)
    ok(ep, "answer_question", inspection_id=insp["id"], label="Exit clear", response="yes")
    refused(ep, "complete_inspection", "rule_violation", "inspection_id", inspection_id=insp["id"])
    ok(ep, "answer_question", inspection_id=insp["id"], label="Floor tidy", response="2")
    ok(ep, "answer_question", inspection_id=insp["id"], label="Notes", response="Pallets in aisle")
    done = ok(ep, "complete_inspection", inspection_id=insp["id"])
    assert (done["score_pct"], done["failed_items"], done["result"]) == (60.0, 1, "pass")
    acts = every(ep, "list_actions", inspection_id=insp["id"])
    assert [(a["question"], a["priority"], a["status"]) for a in acts] == [("Floor tidy", "medium", "to_do")]
    refused(ep, "complete_inspection", "conflict", "inspection_id", inspection_id=insp["id"])
    refused(
        ep,
        "answer_question",
        "rule_violation",
        "inspection_id",
        inspection_id=insp["id"],
        label="Notes",
        response="late",
    )


def test_a_failed_critical_question_fails_the_inspection(ep: Episode) -> None:
    insp = started(ep)
    for label, response in (("Exit clear", "no"), ("Floor tidy", "na"), ("Notes", "Blocked by pallets")):
        ok(ep, "answer_question", inspection_id=insp["id"], label=label, response=response)
    done = ok(ep, "complete_inspection", inspection_id=insp["id"])
    assert (done["score_pct"], done["result"]) == (0.0, "fail")
    act = every(ep, "list_actions", inspection_id=insp["id"])[0]
    site = ok(ep, "get_site", site_id=insp["site_id"])
    assert (act["priority"], act["assignee_email"]) == ("high", site["manager_email"])


def test_actions_close_with_a_resolution_once(ep: Episode) -> None:
    act = every(ep, "list_actions", status="to_do")[0]
    refused(ep, "complete_action", "rule_violation", "resolution", action_id=act["id"], resolution=" ")
    ok(ep, "start_action", action_id=act["id"])
    assert ok(ep, "complete_action", action_id=act["id"], resolution="Re-signed")["status"] == "complete"
    refused(ep, "cant_do_action", "conflict", "action_id", action_id=act["id"], resolution="x")
    refused(ep, "update_action", "rule_violation", "action_id", action_id=act["id"], priority="low")
    other = every(ep, "list_actions", status="to_do")[0]
    refused(ep, "update_action", "rule_violation", "assignee_email", action_id=other["id"], assignee_email="q@q.io")


def test_a_schedule_starts_its_inspection_and_moves_on(ep: Episode) -> None:
    weekly = every(ep, "list_schedules", frequency="weekly")[0]
    insp = ok(ep, "start_scheduled_inspection", schedule_id=weekly["id"])
    assert (insp["site_id"], insp["inspector_email"]) == (weekly["site_id"], weekly["assignee_email"])
    moved = ok(ep, "get_schedule", schedule_id=weekly["id"])["next_due"]
    assert moved > weekly["next_due"]
    paused = every(ep, "list_schedules", status="paused")[0]
    refused(ep, "start_scheduled_inspection", "rule_violation", "schedule_id", schedule_id=paused["id"])
    ok(ep, "resume_schedule", schedule_id=paused["id"])
    assert ok(ep, "start_scheduled_inspection", schedule_id=paused["id"])["status"] == "in_progress"


def test_the_scorecard_sums_a_sites_inspections(ep: Episode) -> None:
    for site in every(ep, "list_sites", status="active"):
        done = every(ep, "list_inspections", site_id=site["id"], status="completed")
        card = ok(ep, "site_scorecard", site_id=site["id"])
        assert card["completed"] == len(done)
        assert card["failed"] == sum(i["result"] == "fail" for i in done)
        opened = [a for a in every(ep, "list_actions", site_id=site["id"]) if a["status"] in ("to_do", "in_progress")]
        assert card["open_actions"] == len(opened)
