"""Pulsecheck Performance: key-result progress, review cycle rules, peers, feedback and one-on-ones."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PERF = ServiceTools("perfreviews")
WORLD = PERF.world
ok, refused, every = PERF.ok, PERF.refused, PERF.every
POP = WORLD.population


def cycle(ep: Episode, prefix: str) -> dict[str, Any]:
    return next(c for c in every(ep, "list_review_cycles") if c["name"].startswith(prefix))


def person(ep: Episode, person_id: str) -> dict[str, Any]:
    return dict(ok(ep, "get_person", person_id=person_id))


def kr_progress(kr: dict[str, Any]) -> float:
    span = kr["target_value"] - kr["start_value"]
    return max(0.0, min(100.0, 100 * (kr["current_value"] - kr["start_value"]) / span))


def open_goal(ep: Episode) -> dict[str, Any]:
    return next(g for g in every(ep, "list_goals", status="on_track") if g["progress"] < 100)


# -- the world ------------------------------------------------------------------------------


def test_people_are_the_staff_and_goals_align_upwards() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p.name for p in POP.employees}
    people = every(ep, "list_people")
    assert {p["email"]: p["name"] for p in people} == staff
    assert sum(1 for p in people if p["manager_email"] is None) == 1
    for g in every(ep, "list_goals"):
        krs = every(ep, "list_key_results", goal_id=g["id"])
        assert g["progress"] == round(sum(kr_progress(k) for k in krs) / len(krs), 1)
        if not g["company_goal"]:
            assert g["parent_goal_id"] is not None


# -- goals ----------------------------------------------------------------------------------


def test_check_ins_move_the_goal_and_completion_needs_every_target(ep: Episode) -> None:
    goal = open_goal(ep)
    refused(ep, "update_goal", "rule_violation", "status", goal_id=goal["id"], status="completed")
    krs = every(ep, "list_key_results", goal_id=goal["id"])
    for kr in krs:
        updated = ok(ep, "check_in_key_result", key_result_id=kr["id"], value=kr["target_value"], note="Done")
    assert updated["progress"] == 100
    assert ok(ep, "update_goal", goal_id=goal["id"], status="completed")["status"] == "completed"
    refused(ep, "check_in_key_result", "rule_violation", "key_result_id", key_result_id=krs[0]["id"], value=0.0)
    refused(ep, "update_goal", "rule_violation", "goal_id", goal_id=goal["id"], title="Renamed")


def test_half_way_check_in_gives_the_average(ep: Episode) -> None:
    goal = next(
        g for g in every(ep, "list_goals", company_goal=True) if len(every(ep, "list_key_results", goal_id=g["id"])) > 1
    )
    first, second = every(ep, "list_key_results", goal_id=goal["id"])[:2]
    mid = first["start_value"] + (first["target_value"] - first["start_value"]) / 2
    out = ok(ep, "check_in_key_result", key_result_id=first["id"], value=mid)
    assert out["progress"] == round((50.0 + kr_progress(second)) / 2, 1)


def test_alignment_cannot_loop_and_targets_must_move(ep: Episode) -> None:
    child = next(
        g for g in every(ep, "list_goals") if g["parent_goal_id"] and g["status"] not in ("completed", "abandoned")
    )
    parent = ok(ep, "get_goal", goal_id=child["parent_goal_id"])
    refused(ep, "update_goal", "rule_violation", "parent_goal_id", goal_id=parent["id"], parent_goal_id=child["id"])
    refused(
        ep,
        "create_key_result",
        "rule_violation",
        "target_value",
        goal_id=child["id"],
        title="Flat",
        start_value=5.0,
        target_value=5.0,
    )


# -- review cycles --------------------------------------------------------------------------


def test_launching_creates_self_and_manager_reviews_for_the_departments(ep: Episode) -> None:
    draft = cycle(ep, "Mid-year")
    refused(
        ep,
        "launch_cycle",
        "rule_violation",
        "self_review_due",
        review_cycle_id=draft["id"],
        self_review_due="2026-02-01",
        manager_review_due="2026-03-20",
    )
    refused(
        ep,
        "launch_cycle",
        "rule_violation",
        "manager_review_due",
        review_cycle_id=draft["id"],
        self_review_due="2026-03-20",
        manager_review_due="2026-03-10",
    )
    out = ok(
        ep, "launch_cycle", review_cycle_id=draft["id"], self_review_due="2026-03-13", manager_review_due="2026-03-27"
    )
    assert out["status"] == "active"
    members = [p for p in every(ep, "list_people", active=True) if p["department"] in draft["departments"]]
    selfs = every(ep, "list_reviews", cycle_id=draft["id"], kind="self")
    assert {r["reviewee_id"] for r in selfs} == {p["id"] for p in members}
    managers = every(ep, "list_reviews", cycle_id=draft["id"], kind="manager")
    by_email = {p["email"]: p["id"] for p in every(ep, "list_people")}
    for r in managers:
        assert by_email[person(ep, r["reviewee_id"])["manager_email"]] == r["reviewer_id"]
    refused(
        ep,
        "launch_cycle",
        "rule_violation",
        "review_cycle_id",
        review_cycle_id=draft["id"],
        self_review_due="2026-03-13",
        manager_review_due="2026-03-27",
    )


def test_a_manager_review_waits_for_the_self_review(ep: Episode) -> None:
    active = cycle(ep, "Q1")
    pending_self = every(ep, "list_reviews", cycle_id=active["id"], kind="self", status="pending")
    reviewee = next(
        r["reviewee_id"]
        for r in pending_self
        if every(ep, "list_reviews", cycle_id=active["id"], kind="manager", reviewee_id=r["reviewee_id"])
    )
    mgr = every(ep, "list_reviews", cycle_id=active["id"], kind="manager", reviewee_id=reviewee)[0]
    args = dict(rating=4, strengths="Strong delivery")
    refused(ep, "submit_review", "rule_violation", "review_id", review_id=mgr["id"], **args)
    own = next(r for r in pending_self if r["reviewee_id"] == reviewee)
    refused(ep, "submit_review", "rule_violation", "strengths", review_id=own["id"], rating=3, strengths=" ")
    ok(ep, "submit_review", review_id=own["id"], rating=3, strengths="Learned the codebase")
    done = ok(ep, "submit_review", review_id=mgr["id"], **args)
    assert (done["status"], done["rating"]) == ("submitted", 4)
    refused(ep, "submit_review", "rule_violation", "review_id", review_id=mgr["id"], **args)
    closed = cycle(ep, "H2")
    old = every(ep, "list_reviews", cycle_id=closed["id"])[0]
    refused(ep, "submit_review", "rule_violation", "review_id", review_id=old["id"], **args)


def test_peer_reviewers_are_limited(ep: Episode) -> None:
    active = cycle(ep, "Q1")
    own = every(ep, "list_reviews", cycle_id=active["id"], kind="self")
    reviewee = next(
        person(ep, r["reviewee_id"])
        for r in own
        if not every(ep, "list_reviews", cycle_id=active["id"], kind="peer", reviewee_id=r["reviewee_id"])
        and person(ep, r["reviewee_id"])["manager_email"]
    )
    args = dict(review_cycle_id=active["id"], reviewee_id=reviewee["id"])
    refused(ep, "request_peer_review", "rule_violation", "reviewer_email", reviewer_email=reviewee["email"], **args)
    refused(
        ep, "request_peer_review", "rule_violation", "reviewer_email", reviewer_email=reviewee["manager_email"], **args
    )
    peers = [
        p
        for p in every(ep, "list_people", active=True)
        if p["id"] != reviewee["id"] and p["email"] != reviewee["manager_email"]
    ]
    first = ok(ep, "request_peer_review", reviewer_email=peers[0]["email"], **args)
    refused(ep, "request_peer_review", "conflict", "reviewer_email", reviewer_email=peers[0]["email"], **args)
    for p in peers[1:3]:
        ok(ep, "request_peer_review", reviewer_email=p["email"], **args)
    refused(ep, "request_peer_review", "rule_violation", "reviewee_id", reviewer_email=peers[3]["email"], **args)
    refused(ep, "decline_peer_review", "rule_violation", "reason", review_id=first["id"], reason="")
    assert ok(ep, "decline_peer_review", review_id=first["id"], reason="Different team")["status"] == "declined"
    self_review = next(r for r in own if r["reviewee_id"] == reviewee["id"])
    refused(ep, "decline_peer_review", "rule_violation", "review_id", review_id=self_review["id"], reason="No time")


def test_a_cycle_closes_when_every_manager_review_is_in(ep: Episode) -> None:
    active = cycle(ep, "Q1")
    msg = refused(ep, "close_cycle", "rule_violation", "review_cycle_id", review_cycle_id=active["id"])
    waiting = [
        r for r in every(ep, "list_reviews", cycle_id=active["id"], kind="manager") if r["status"] != "submitted"
    ]
    assert str(len(waiting)) in msg
    ready = cycle(ep, "Support probation")
    assert ok(ep, "close_cycle", review_cycle_id=ready["id"])["status"] == "closed"
    refused(ep, "close_cycle", "rule_violation", "review_cycle_id", review_cycle_id=ready["id"])


def test_the_review_summary_adds_up(ep: Episode) -> None:
    closed = cycle(ep, "H2")
    peer = every(ep, "list_reviews", cycle_id=closed["id"], kind="peer", status="submitted")[0]
    who = person(ep, peer["reviewee_id"])
    summary = ok(ep, "review_summary", review_cycle_id=closed["id"], email=who["email"])
    mine = every(ep, "list_reviews", cycle_id=closed["id"], reviewee_id=who["id"])
    peers = [r["rating"] for r in mine if r["kind"] == "peer" and r["status"] == "submitted"]
    assert summary["peer_average"] == round(sum(peers) / len(peers), 2) and summary["peer_reviews"] == len(peers)
    assert summary["self_rating"] == next(r["rating"] for r in mine if r["kind"] == "self")
    refused(ep, "review_summary", "not_found", "email", review_cycle_id=closed["id"], email="nobody@example.org")


# -- feedback and one-on-ones ---------------------------------------------------------------


def test_feedback_goes_to_colleagues_and_praise_is_public(ep: Episode) -> None:
    a, b = every(ep, "list_people", active=True)[:2]
    refused(ep, "create_feedback", "rule_violation", "to_id", from_id=a["id"], to_id=a["id"], body="Nice")
    refused(
        ep,
        "create_feedback",
        "rule_violation",
        "visibility",
        from_id=a["id"],
        to_id=b["id"],
        body="Great work",
        praise=True,
        visibility="private",
    )
    given = ok(
        ep, "create_feedback", from_id=a["id"], to_id=b["id"], body="Great work", praise=True, visibility="public"
    )
    assert given["praise"]


def test_one_on_ones_are_with_direct_reports_once_a_day(ep: Episode) -> None:
    report = next(p for p in every(ep, "list_people", active=True) if p["manager_email"])
    stranger = next(
        p
        for p in every(ep, "list_people", active=True)
        if p["manager_email"] not in (report["manager_email"], None) and p["email"] != report["manager_email"]
    )
    when = "2026-03-10T15:00:00Z"
    refused(
        ep,
        "schedule_one_on_one",
        "rule_violation",
        "report_email",
        manager_email=report["manager_email"],
        report_email=stranger["email"],
        scheduled_for=when,
    )
    refused(
        ep,
        "schedule_one_on_one",
        "rule_violation",
        "scheduled_for",
        manager_email=report["manager_email"],
        report_email=report["email"],
        scheduled_for="2026-03-01T15:00:00Z",
    )
    meeting = ok(
        ep,
        "schedule_one_on_one",
        manager_email=report["manager_email"],
        report_email=report["email"],
        scheduled_for=when,
        talking_points=["Promotion path"],
    )
    refused(
        ep,
        "schedule_one_on_one",
        "conflict",
        "scheduled_for",
        manager_email=report["manager_email"],
        report_email=report["email"],
        scheduled_for="2026-03-10T09:00:00Z",
    )
    refused(ep, "complete_one_on_one", "rule_violation", "notes", one_on_one_id=meeting["id"], notes="")
    assert ok(ep, "complete_one_on_one", one_on_one_id=meeting["id"], notes="Agreed on a plan")["status"] == "completed"
    refused(ep, "complete_one_on_one", "rule_violation", "one_on_one_id", one_on_one_id=meeting["id"], notes="Again")
