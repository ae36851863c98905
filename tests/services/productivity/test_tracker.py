"""Behaviour of the tracker service (Jira-style projects, workflow, sprints, worklogs, links)."""

from __future__ import annotations

from typing import Any

import pytest

from compoworld import Episode
from tests.services.helpers import ServiceTools

TRACKER = ServiceTools("tracker")
WORLD = TRACKER.world
ok, refused, items, first = TRACKER.ok, TRACKER.refused, TRACKER.items, TRACKER.first
OPEN = ("to_do", "in_progress", "in_review")


def project(ep: Episode, key: str) -> dict[str, Any]:
    return first(ep, "projects", key=key)


def member(ep: Episode, key: str, role: str) -> str:
    return str(first(ep, "project_members", project_id=project(ep, key)["id"], role=role)["email"])


def outsider(ep: Episode, key: str) -> str:
    emails = {m["email"] for m in items(ep, "project_members", project_id=project(ep, key)["id"])}
    return next(p.email for p in WORLD.population.employees if p.email not in emails)


def new_issue(ep: Episode, key: str = "ENG", **extra: Any) -> dict[str, Any]:
    proj = project(ep, key)
    args = {
        "project_id": proj["id"],
        "issue_type": "task",
        "summary": "Write the release notes",
        "reporter_email": proj["lead_email"],
        **extra,
    }
    return dict(ok(ep, "create_issue", **args))


def walk(ep: Episode, issue_id: str, *statuses: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for status in statuses:
        out = ok(ep, "transition_issue", issue_id=issue_id, to_status=status)
    return out


# -- the seeded world -----------------------------------------------------------------------


def test_users_are_employees_and_keys_follow_each_projects_counter(ep: Episode) -> None:
    employees = {p.email for p in WORLD.population.employees}
    for proj in items(ep, "projects"):
        assert proj["lead_email"] in employees
        keys = [i["key"] for i in items(ep, "issues", project_id=proj["id"])]
        assert sorted(int(k.split("-")[1]) for k in keys) == list(range(1, proj["last_issue_number"] + 1))
        assert all(k.startswith(proj["key"] + "-") for k in keys)
    assert {m["email"] for m in items(ep, "project_members")} <= employees


def test_every_project_has_at_most_one_active_sprint_and_closed_sprints_hold_only_done_work(ep: Episode) -> None:
    for proj in items(ep, "projects"):
        assert len(items(ep, "sprints", project_id=proj["id"], state="active")) <= 1
    for sprint in items(ep, "sprints", state="closed"):
        assert {i["status"] for i in items(ep, "issues", sprint_id=sprint["id"])} <= {"done"}


# -- creating issues ------------------------------------------------------------------------


def test_a_new_issue_takes_the_next_key_and_keys_are_never_reused(ep: Episode) -> None:
    eng = project(ep, "ENG")
    n = eng["last_issue_number"]
    issue = new_issue(ep)
    assert issue["key"] == f"ENG-{n + 1}" and issue["status"] == "to_do"
    diff = ep.diff()
    assert diff.counts()["tracker.issues"]["added"] == 1
    assert diff.tables["tracker.projects"].updated[0].changed == ["last_issue_number"]
    ok(ep, "delete_issue", issue_id=issue["id"])
    assert new_issue(ep)["key"] == f"ENG-{n + 2}"


def test_an_archived_project_takes_no_new_issues_or_comments(ep: Episode) -> None:
    legacy = project(ep, "LEG")
    assert legacy["archived"]
    refused(
        ep,
        "create_issue",
        "rule_violation",
        "project_id",
        project_id=legacy["id"],
        issue_type="task",
        summary="More",
        reporter_email=legacy["lead_email"],
    )
    old = first(ep, "issues", project_id=legacy["id"])
    refused(
        ep,
        "create_comment",
        "rule_violation",
        "issue_id",
        issue_id=old["id"],
        author_email=legacy["lead_email"],
        body="Hi",
    )
    ok(ep, "restore_project", project_id=legacy["id"])
    ok(ep, "create_comment", issue_id=old["id"], author_email=legacy["lead_email"], body="Hi")


def test_only_members_who_can_work_report_or_get_assigned_issues(ep: Episode) -> None:
    eng = project(ep, "ENG")
    base = {"project_id": eng["id"], "issue_type": "bug", "summary": "Oops", "reporter_email": eng["lead_email"]}
    refused(ep, "create_issue", "rule_violation", "reporter_email", **{**base, "reporter_email": outsider(ep, "ENG")})
    refused(
        ep,
        "create_issue",
        "rule_violation",
        "assignee_email",
        **{**base, "assignee_email": member(ep, "ENG", "viewer")},
    )
    issue = new_issue(ep, assignee_email=member(ep, "ENG", "member"))
    refused(
        ep, "assign_issue", "rule_violation", "assignee_email", issue_id=issue["id"], assignee_email=outsider(ep, "ENG")
    )


def test_issue_hierarchy_epic_story_subtask_is_enforced(ep: Episode) -> None:
    eng = project(ep, "ENG")
    epic = first(ep, "issues", project_id=eng["id"], issue_type="epic")
    story = first(ep, "issues", project_id=eng["id"], issue_type="story")
    refused(
        ep,
        "create_issue",
        "rule_violation",
        "parent_id",
        project_id=eng["id"],
        issue_type="subtask",
        summary="Part",
        reporter_email=eng["lead_email"],
    )
    refused(
        ep,
        "create_issue",
        "rule_violation",
        "parent_id",
        project_id=eng["id"],
        issue_type="story",
        summary="Child",
        reporter_email=eng["lead_email"],
        parent_id=story["id"],
    )
    refused(
        ep,
        "create_issue",
        "rule_violation",
        "parent_id",
        project_id=eng["id"],
        issue_type="subtask",
        summary="Part",
        reporter_email=eng["lead_email"],
        parent_id=epic["id"],
    )
    sub = new_issue(ep, issue_type="subtask", summary="Part", parent_id=story["id"])
    assert sub["sprint_id"] == story["sprint_id"]


def test_story_points_are_only_for_stories_tasks_and_bugs(ep: Episode) -> None:
    eng = project(ep, "ENG")
    epic = first(ep, "issues", project_id=eng["id"], issue_type="epic")
    refused(ep, "update_issue", "rule_violation", "story_points", issue_id=epic["id"], story_points=8)
    sub = first(ep, "issues", project_id=eng["id"], issue_type="subtask")
    refused(ep, "update_issue", "rule_violation", "story_points", issue_id=sub["id"], story_points=1)
    story = first(ep, "issues", project_id=eng["id"], issue_type="story")
    assert ok(ep, "update_issue", issue_id=story["id"], story_points=13)["story_points"] == 13


# -- the workflow ---------------------------------------------------------------------------


def test_only_workflow_transitions_are_allowed(ep: Episode) -> None:
    issue = new_issue(ep, assignee_email=member(ep, "ENG", "member"))
    message = refused(
        ep, "transition_issue", "rule_violation", "to_status", issue_id=issue["id"], to_status="in_review"
    )
    assert "to_do" in message


def test_an_issue_cannot_be_done_without_an_assignee(ep: Episode) -> None:
    issue = new_issue(ep)
    walk(ep, issue["id"], "in_progress", "in_review")
    refused(ep, "transition_issue", "rule_violation", "issue_id", issue_id=issue["id"], to_status="done")


def test_the_review_path_resolves_the_issue_and_reopening_clears_the_resolution(ep: Episode) -> None:
    issue = new_issue(ep, assignee_email=member(ep, "ENG", "member"))
    done = walk(ep, issue["id"], "in_progress", "in_review", "done")
    assert done["status"] == "done" and done["resolution"] == "done" and done["resolved_at"] is not None
    reopened = ok(ep, "transition_issue", issue_id=issue["id"], to_status="to_do")
    assert reopened["resolution"] is None and reopened["resolved_at"] is None


def test_closing_without_review_needs_a_resolution_other_than_done(ep: Episode) -> None:
    issue = new_issue(ep, assignee_email=member(ep, "ENG", "member"))
    refused(ep, "transition_issue", "rule_violation", "resolution", issue_id=issue["id"], to_status="done")
    closed = ok(ep, "transition_issue", issue_id=issue["id"], to_status="done", resolution="wont_do")
    assert closed["resolution"] == "wont_do"


def test_an_issue_blocked_by_an_unresolved_issue_cannot_be_done_until_the_blocker_is(ep: Episode) -> None:
    assignee = member(ep, "ENG", "member")
    blocker = new_issue(ep, assignee_email=assignee, summary="Blocker")
    blocked = new_issue(ep, assignee_email=assignee, summary="Blocked")
    ok(ep, "create_issue_link", link_type="blocks", outward_issue_id=blocker["id"], inward_issue_id=blocked["id"])
    walk(ep, blocked["id"], "in_progress", "in_review")
    message = refused(ep, "transition_issue", "rule_violation", "issue_id", issue_id=blocked["id"], to_status="done")
    assert blocker["key"] in message
    walk(ep, blocker["id"], "in_progress", "in_review", "done")
    assert ok(ep, "transition_issue", issue_id=blocked["id"], to_status="done")["status"] == "done"


def test_a_parent_with_unresolved_subtasks_cannot_be_done(ep: Episode) -> None:
    sub = next(s for s in items(ep, "issues", issue_type="subtask") if s["status"] != "done")
    parent = ok(ep, "get_issue", issue_id=sub["parent_id"])
    transitions = ok(ep, "get_issue_transitions", issue_id=parent["id"])
    to_done = [t for t in transitions if t["to_status"] == "done"]
    assert to_done and not to_done[0]["allowed_now"] and sub["key"] in to_done[0]["reason"]
    if parent["status"] == "in_progress":
        ok(ep, "transition_issue", issue_id=parent["id"], to_status="in_review")
    refused(ep, "transition_issue", "rule_violation", "issue_id", issue_id=parent["id"], to_status="done")


def test_a_done_issue_cannot_be_unassigned(ep: Episode) -> None:
    done = next(i for i in items(ep, "issues", status="done") if not project_archived(ep, i["project_id"]))
    refused(ep, "assign_issue", "rule_violation", "assignee_email", issue_id=done["id"], assignee_email=None)


def project_archived(ep: Episode, project_id: str) -> bool:
    return bool(ok(ep, "get_project", project_id=project_id)["archived"])


# -- sprints --------------------------------------------------------------------------------


def test_issues_cannot_be_added_to_a_closed_sprint(ep: Episode) -> None:
    eng = project(ep, "ENG")
    closed = first(ep, "sprints", project_id=eng["id"], state="closed")
    issue = new_issue(ep)
    refused(ep, "move_issues_to_sprint", "rule_violation", "sprint_id", sprint_id=closed["id"], issue_ids=[issue["id"]])
    refused(
        ep,
        "create_issue",
        "rule_violation",
        "sprint_id",
        project_id=eng["id"],
        issue_type="bug",
        summary="Late",
        reporter_email=eng["lead_email"],
        sprint_id=closed["id"],
    )


def test_subtasks_move_with_their_parent_and_not_alone(ep: Episode) -> None:
    sub = first(ep, "issues", issue_type="subtask")
    parent = ok(ep, "get_issue", issue_id=sub["parent_id"])
    future = first(ep, "sprints", project_id=parent["project_id"], state="future")
    refused(ep, "move_issues_to_sprint", "rule_violation", "issue_ids.0", sprint_id=future["id"], issue_ids=[sub["id"]])
    moved = ok(ep, "move_issues_to_sprint", sprint_id=future["id"], issue_ids=[parent["id"]])
    subtasks = items(ep, "issues", parent_id=parent["id"], issue_type="subtask")
    assert {i["id"] for i in moved} == {parent["id"], *(s["id"] for s in subtasks)}
    assert all(s["sprint_id"] == future["id"] for s in subtasks)


def test_a_sprint_only_takes_issues_of_its_own_project(ep: Episode) -> None:
    mob_sprint = first(ep, "sprints", project_id=project(ep, "MOB")["id"], state="future")
    issue = new_issue(ep)
    refused(
        ep,
        "move_issues_to_sprint",
        "rule_violation",
        "issue_ids.0",
        sprint_id=mob_sprint["id"],
        issue_ids=[issue["id"]],
    )


def test_a_project_can_have_only_one_active_sprint(ep: Episode) -> None:
    eng = project(ep, "ENG")
    assert items(ep, "sprints", project_id=eng["id"], state="active")
    future = first(ep, "sprints", project_id=eng["id"], state="future")
    refused(ep, "start_sprint", "rule_violation", "sprint_id", sprint_id=future["id"], end_date="2026-03-20")


def test_starting_a_sprint_in_a_project_between_sprints_makes_it_active(ep: Episode) -> None:
    sup = project(ep, "SUP")
    assert not items(ep, "sprints", project_id=sup["id"], state="active")
    future = first(ep, "sprints", project_id=sup["id"], state="future")
    refused(ep, "start_sprint", "rule_violation", "end_date", sprint_id=future["id"], end_date="2026-03-01")
    started = ok(ep, "start_sprint", sprint_id=future["id"], end_date="2026-03-16")
    assert started["state"] == "active" and started["start_date"] == "2026-03-02"
    [change] = ep.diff().tables["tracker.sprints"].updated
    assert change.changed == ["end_date", "start_date", "state"]


def test_completing_a_sprint_moves_unfinished_work_to_the_next_sprint(ep: Episode) -> None:
    eng = project(ep, "ENG")
    active = first(ep, "sprints", project_id=eng["id"], state="active")
    future = first(ep, "sprints", project_id=eng["id"], state="future")
    before = items(ep, "issues", sprint_id=active["id"])
    unfinished = {i["id"] for i in before if i["status"] != "done"}
    done = {i["id"] for i in before if i["status"] == "done" and i["issue_type"] != "subtask"}
    result = ok(ep, "complete_sprint", sprint_id=active["id"], move_open_issues_to=future["id"])
    assert result["sprint"]["state"] == "closed"
    assert set(result["moved_issue_ids"]) >= {
        i for i in unfinished if ok(ep, "get_issue", issue_id=i)["issue_type"] != "subtask"
    }
    assert set(result["completed_issue_ids"]) == done
    for iid in unfinished:
        assert ok(ep, "get_issue", issue_id=iid)["sprint_id"] == future["id"]
    refused(ep, "complete_sprint", "rule_violation", "sprint_id", sprint_id=active["id"])


def test_business_projects_have_no_sprints(ep: Episode) -> None:
    ops = project(ep, "OPS")
    refused(ep, "create_sprint", "rule_violation", "project_id", project_id=ops["id"], name="OPS Sprint 1")


def test_only_future_sprints_can_be_deleted_and_their_issues_return_to_the_backlog(ep: Episode) -> None:
    eng = project(ep, "ENG")
    refused(
        ep,
        "delete_sprint",
        "rule_violation",
        "sprint_id",
        sprint_id=first(ep, "sprints", project_id=eng["id"], state="active")["id"],
    )
    future = first(ep, "sprints", project_id=eng["id"], state="future")
    planned = {i["id"] for i in items(ep, "issues", sprint_id=future["id"])}
    result = ok(ep, "delete_sprint", sprint_id=future["id"])
    assert set(result["moved_to_backlog_ids"]) == planned
    assert all(ok(ep, "get_issue", issue_id=i)["sprint_id"] is None for i in planned)


def test_the_sprint_report_counts_points(ep: Episode) -> None:
    active = first(ep, "sprints", project_id=project(ep, "ENG")["id"], state="active")
    report = ok(ep, "sprint_report", sprint_id=active["id"])
    work = [i for i in items(ep, "issues", sprint_id=active["id"]) if i["issue_type"] != "subtask"]
    assert report["issue_count"] == len(work)
    assert report["committed_points"] == sum(i["story_points"] or 0 for i in work)
    assert report["days_left"] is not None


# -- comments, work logs and links -----------------------------------------------------------


def test_work_logs_need_positive_time_in_the_past_from_a_working_member(ep: Episode) -> None:
    issue = new_issue(ep, original_estimate_minutes=240)
    who = member(ep, "ENG", "member")
    base = {"issue_id": issue["id"], "author_email": who, "started": "2026-03-02T08:00:00Z"}
    refused(ep, "create_worklog", "rule_violation", "time_spent_minutes", **{**base, "time_spent_minutes": 0})
    refused(
        ep,
        "create_worklog",
        "rule_violation",
        "started",
        **{**base, "time_spent_minutes": 30, "started": "2026-03-09T08:00:00Z"},
    )
    refused(
        ep,
        "create_worklog",
        "rule_violation",
        "author_email",
        **{**base, "time_spent_minutes": 30, "author_email": member(ep, "ENG", "viewer")},
    )
    ok(ep, "create_worklog", **base, time_spent_minutes=90)
    tracking = ok(ep, "issue_time_tracking", issue_id=issue["id"])
    assert tracking == {
        "issue_id": issue["id"],
        "original_estimate_minutes": 240,
        "time_spent_minutes": 90,
        "remaining_minutes": 150,
        "worklog_count": 1,
    }


def test_viewers_may_comment_but_strangers_may_not(ep: Episode) -> None:
    issue = new_issue(ep)
    refused(
        ep,
        "create_comment",
        "rule_violation",
        "author_email",
        issue_id=issue["id"],
        author_email=outsider(ep, "ENG"),
        body="Hi",
    )
    ok(ep, "create_comment", issue_id=issue["id"], author_email=member(ep, "ENG", "viewer"), body="Watching this")


def test_links_cannot_loop_repeat_or_point_at_themselves(ep: Episode) -> None:
    a, b = new_issue(ep, summary="A"), new_issue(ep, summary="B")
    refused(
        ep,
        "create_issue_link",
        "rule_violation",
        "inward_issue_id",
        link_type="relates",
        outward_issue_id=a["id"],
        inward_issue_id=a["id"],
    )
    ok(ep, "create_issue_link", link_type="blocks", outward_issue_id=a["id"], inward_issue_id=b["id"])
    refused(
        ep,
        "create_issue_link",
        "rule_violation",
        "inward_issue_id",
        link_type="blocks",
        outward_issue_id=b["id"],
        inward_issue_id=a["id"],
    )
    refused(
        ep,
        "create_issue_link",
        "conflict",
        "inward_issue_id",
        link_type="blocks",
        outward_issue_id=a["id"],
        inward_issue_id=b["id"],
    )


def test_deleting_an_issue_with_subtasks_needs_the_flag_and_removes_its_trail(ep: Episode) -> None:
    sub = first(ep, "issues", issue_type="subtask")
    parent = ok(ep, "get_issue", issue_id=sub["parent_id"])
    if ok(ep, "get_project", project_id=parent["project_id"])["archived"]:
        pytest.skip("first subtask is in an archived project")
    refused(ep, "delete_issue", "rule_violation", "delete_subtasks", issue_id=parent["id"])
    subtasks = items(ep, "issues", parent_id=parent["id"], issue_type="subtask")
    victims = {parent["id"], *(s["id"] for s in subtasks)}
    trail = sum(len(items(ep, "worklogs", issue_id=v)) + len(items(ep, "comments", issue_id=v)) for v in victims)
    result = ok(ep, "delete_issue", issue_id=parent["id"], delete_subtasks=True)
    assert set(result["deleted_issue_ids"]) == victims
    counts = ep.diff().counts()
    assert counts["tracker.issues"]["removed"] == len(victims)
    removed = counts.get("tracker.worklogs", {}).get("removed", 0) + counts.get("tracker.comments", {}).get(
        "removed", 0
    )
    assert removed == trail


# -- projects and lookups --------------------------------------------------------------------


def test_creating_a_project_makes_its_lead_an_administrator_and_keys_are_unique(ep: Episode) -> None:
    lead = WORLD.population.employees[3].email
    proj = ok(ep, "create_project", key="DATA", name="Data Platform", lead_email=lead)
    assert first(ep, "project_members", project_id=proj["id"])["role"] == "administrator"
    refused(ep, "create_project", "conflict", "key", key="DATA", name="Other", lead_email=lead)
    refused(
        ep,
        "create_project",
        "rule_violation",
        "lead_email",
        key="EXT",
        name="External",
        lead_email="someone@example.org",
    )
    refused(ep, "create_project", "invalid_arguments", "key", key="data", name="Lower", lead_email=lead)


def test_a_member_with_open_work_cannot_be_removed_or_made_a_viewer(ep: Episode) -> None:
    eng = project(ep, "ENG")
    busy = next(
        i
        for i in items(ep, "issues", project_id=eng["id"])
        if i["status"] in OPEN and i["assignee_email"] and i["assignee_email"] != eng["lead_email"]
    )
    membership = first(ep, "project_members", project_id=eng["id"], email=busy["assignee_email"])
    refused(ep, "delete_project_member", "rule_violation", "project_member_id", project_member_id=membership["id"])
    refused(ep, "update_project_member", "rule_violation", "role", project_member_id=membership["id"], role="viewer")


def test_issues_are_found_by_key_in_any_case(ep: Episode) -> None:
    issue = first(ep, "issues", project_id=project(ep, "ENG")["id"])
    assert ok(ep, "get_issue_by_key", key=issue["key"].lower())["id"] == issue["id"]
    refused(ep, "get_issue_by_key", "not_found", "key", key="ENG-9999")
