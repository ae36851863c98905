"""Teampulse Engagement: drafts and launches, confidential responses, thresholds in team results, action plans."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ENG = ServiceTools("engagement")
WORLD = ENG.world
ok, refused, every = ENG.ok, ENG.refused, ENG.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
HR = POP.employees[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def survey(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_surveys", status=status)[0]


def answers(ep: Episode, survey_id: str, score: int = 4) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for q in every(ep, "list_questions", survey_id=survey_id):
        out.append({"question_id": q["id"], "score": score} if q["kind"] == "rating" else {"question_id": q["id"]})
    return out


def test_seeded_surveys_are_consistent_with_their_responses(ep: Episode) -> None:
    assert {s["status"] for s in every(ep, "list_surveys")} == {"draft", "launched", "closed"}
    for s in every(ep, "list_surveys"):
        assert s["owner_email"] in STAFF
        if s["status"] != "draft":
            res = ok(ep, "survey_results", survey_id=s["id"])
            assert res["responses"] == s["responses"] == sum(t["responses"] for t in res["teams"])
            assert s["invited"] == len(POP.employees)
    for p in every(ep, "list_action_plans"):
        assert p["owner_email"] in STAFF


def test_team_results_are_hidden_under_the_reporting_threshold(ep: Episode) -> None:
    s = survey(ep, "launched")
    res = ok(ep, "survey_results", survey_id=s["id"])
    for t in res["teams"]:
        assert t["hidden"] == (t["responses"] < s["reporting_threshold"])
        assert (t["factors"] == []) == t["hidden"]
    assert any(t["hidden"] for t in res["teams"])
    closed = ok(ep, "survey_results", survey_id=survey(ep, "closed")["id"])
    shown = [t for t in closed["teams"] if not t["hidden"]]
    assert shown and all(0 <= f["favorable_percent"] <= 100 for t in shown for f in t["factors"])
    refused(ep, "survey_results", "rule_violation", "survey_id", survey_id=survey(ep, "draft")["id"])


def test_a_response_counts_and_moves_a_team_over_the_threshold(ep: Episode) -> None:
    s = survey(ep, "launched")
    before = ok(ep, "survey_results", survey_id=s["id"])
    team = next(t for t in before["teams"] if t["hidden"])
    taken: set[str] = set()  # who answered is confidential: try the team's members
    added = 0
    for p in POP.employees:
        if p.department != team["department"] or added + team["responses"] >= s["reporting_threshold"]:
            continue
        call = ep.call(
            ENG.tool("submit_response"),
            {"survey_id": s["id"], "respondent_email": p.email, "answers": answers(ep, s["id"], 5)},
        )
        if call.ok:
            added += 1
            taken.add(p.email)
            assert call.result["department"] == team["department"]
        else:
            assert call.error is not None and call.error.type == "conflict"
    after = ok(ep, "survey_results", survey_id=s["id"])
    mine = next(t for t in after["teams"] if t["department"] == team["department"])
    assert mine["responses"] == s["reporting_threshold"] and not mine["hidden"] and mine["factors"]
    assert ok(ep, "get_survey", survey_id=s["id"])["responses"] == s["responses"] + added
    email = next(iter(taken))
    refused(
        ep,
        "submit_response",
        "conflict",
        "respondent_email",
        survey_id=s["id"],
        respondent_email=email,
        answers=answers(ep, s["id"]),
    )


def test_responses_must_answer_every_rating_of_this_survey(ep: Episode) -> None:
    s = survey(ep, "launched")
    closed = survey(ep, "closed")
    full = answers(ep, s["id"])
    rating = next(a for a in full if "score" in a)
    who = {"survey_id": s["id"], "respondent_email": "nobody@example.org"}
    refused(ep, "submit_response", "rule_violation", "respondent_email", answers=full, **who)
    emails = [p.email for p in POP.employees]
    for email in emails:
        base = {"survey_id": s["id"], "respondent_email": email}
        bad = [a for a in full if a is not rating]
        res = ep.call(ENG.tool("submit_response"), base | {"answers": bad})
        if res.error is not None and res.error.type == "conflict":
            continue
        refused(ep, "submit_response", "rule_violation", "answers", answers=bad, **base)
        refused(ep, "submit_response", "rule_violation", "answers", answers=[*full, rating], **base)
        wrong = [dict(rating, score=None, comment="x"), *bad]
        refused(ep, "submit_response", "rule_violation", "answers", answers=wrong, **base)
        foreign = answers(ep, closed["id"])
        refused(ep, "submit_response", "rule_violation", "answers", answers=foreign, **base)
        assert ok(ep, "submit_response", answers=full, **base)["survey_id"] == s["id"]
        return
    raise AssertionError("everyone has answered")


def test_only_drafts_take_question_changes(ep: Episode) -> None:
    live = survey(ep, "launched")
    q = every(ep, "list_questions", survey_id=live["id"])[0]
    refused(ep, "create_question", "rule_violation", "survey_id", survey_id=live["id"], text="New?", factor="growth")
    refused(ep, "update_question", "rule_violation", "question_id", question_id=q["id"], text="Changed")
    refused(ep, "delete_question", "rule_violation", "question_id", question_id=q["id"])
    refused(ep, "update_survey", "rule_violation", "survey_id", survey_id=live["id"], name="Renamed")
    refused(ep, "delete_survey", "rule_violation", "survey_id", survey_id=live["id"])
    draft = survey(ep, "draft")
    made = ok(ep, "create_question", survey_id=draft["id"], text="My manager supports me.", factor="leadership")
    assert ok(ep, "update_question", question_id=made["id"], position=9)["position"] == 9


def test_launching_needs_a_rating_question_a_close_date_and_enough_invitees(ep: Episode) -> None:
    fresh = ok(ep, "create_survey", name="Sales pulse", kind="pulse", owner_email=HR, departments=["Sales"])
    refused(ep, "launch_survey", "rule_violation", "survey_id", survey_id=fresh["id"], closes_on=day(10))
    ok(ep, "create_question", survey_id=fresh["id"], text="I feel valued.", factor="engagement")
    refused(ep, "launch_survey", "rule_violation", "closes_on", survey_id=fresh["id"], closes_on=day(0))
    refused(ep, "launch_survey", "rule_violation", "closes_on", survey_id=fresh["id"], closes_on=day(61))
    sales = sum(p.department == "Sales" for p in POP.employees)
    ok(ep, "update_survey", survey_id=fresh["id"], reporting_threshold=min(20, sales + 1))
    refused(ep, "launch_survey", "rule_violation", "survey_id", survey_id=fresh["id"], closes_on=day(10))
    ok(ep, "update_survey", survey_id=fresh["id"], reporting_threshold=3)
    launched = ok(ep, "launch_survey", survey_id=fresh["id"], closes_on=day(10))
    assert (launched["status"], launched["invited"]) == ("launched", sales)
    refused(ep, "launch_survey", "conflict", "survey_id", survey_id=fresh["id"], closes_on=day(10))
    outsider = next(p.email for p in POP.employees if p.department != "Sales")
    refused(
        ep,
        "submit_response",
        "rule_violation",
        "respondent_email",
        survey_id=fresh["id"],
        respondent_email=outsider,
        answers=answers(ep, fresh["id"]),
    )


def test_surveys_reject_unknown_departments_and_non_employee_owners(ep: Episode) -> None:
    refused(
        ep,
        "create_survey",
        "rule_violation",
        "departments",
        name="X",
        kind="pulse",
        owner_email=HR,
        departments=["Nowhere"],
    )
    refused(ep, "create_survey", "rule_violation", "owner_email", name="X", kind="pulse", owner_email="a@b.io")
    made = ok(ep, "create_survey", name="X", kind="exit", owner_email=HR)
    ok(ep, "create_question", survey_id=made["id"], text="Why are you leaving?", factor="engagement", kind="comment")
    ok(ep, "delete_survey", survey_id=made["id"])
    assert all(q["survey_id"] != made["id"] for q in every(ep, "list_questions"))


def test_closing_stops_responses(ep: Episode) -> None:
    s = survey(ep, "launched")
    assert ok(ep, "close_survey", survey_id=s["id"])["status"] == "closed"
    refused(
        ep,
        "submit_response",
        "conflict",
        "survey_id",
        survey_id=s["id"],
        respondent_email=HR,
        answers=answers(ep, s["id"]),
    )
    refused(ep, "close_survey", "rule_violation", "survey_id", survey_id=s["id"])


def test_action_plans_follow_reportable_results_of_a_closed_survey(ep: Episode) -> None:
    closed = survey(ep, "closed")
    res = ok(ep, "survey_results", survey_id=closed["id"])
    shown = next(t["department"] for t in res["teams"] if not t["hidden"])
    base = {"survey_id": closed["id"], "title": "Team retro", "owner_email": HR, "due_date": day(30)}
    refused(
        ep,
        "create_action_plan",
        "rule_violation",
        "survey_id",
        **(base | {"survey_id": survey(ep, "launched")["id"]}),
        department=shown,
        factor="growth",
    )
    refused(ep, "create_action_plan", "rule_violation", "department", department="Nowhere", factor="growth", **base)
    refused(
        ep,
        "create_action_plan",
        "rule_violation",
        "due_date",
        department=shown,
        factor="growth",
        **(base | {"due_date": day(0)}),
    )
    live = every(ep, "list_action_plans", status="in_progress")[0]
    refused(
        ep, "create_action_plan", "conflict", "factor", department=live["department"], factor=live["factor"], **base
    )
    used = {(p["department"], p["factor"]) for p in every(ep, "list_action_plans", survey_id=closed["id"])}
    factor = next(f for f in ("engagement", "leadership", "growth", "wellbeing") if (shown, f) not in used)
    plan = ok(ep, "create_action_plan", department=shown, factor=factor, **base)
    assert ok(ep, "start_action_plan", action_plan_id=plan["id"])["status"] == "in_progress"
    assert ok(ep, "complete_action_plan", action_plan_id=plan["id"])["status"] == "completed"
    refused(ep, "update_action_plan", "rule_violation", "action_plan_id", action_plan_id=plan["id"], notes="More")
    refused(ep, "start_action_plan", "rule_violation", "action_plan_id", action_plan_id=plan["id"])
