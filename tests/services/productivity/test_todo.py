"""Checkmark Tasks: the Inbox, nesting limits, assignments, recurring due dates, close and reopen, moves, comments."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TODO = ServiceTools("todo")
WORLD = TODO.world
ok, refused, every = TODO.ok, TODO.refused, TODO.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def project(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_projects") if p["name"] == name)


def task(ep: Episode, content: str) -> dict[str, Any]:
    return every(ep, "list_tasks", query=content)[0]


def owner(ep: Episode) -> str:
    return str(project(ep, "Inbox")["owner_email"])


def test_seeded_onboarding_follows_the_populations_customers_and_assignees_collaborate() -> None:
    ep = Episode(WORLD)
    inbox = [p for p in every(ep, "list_projects") if p["is_inbox_project"]]
    assert len(inbox) == 1 and inbox[0]["owner_email"] == POP.employees[0].email
    onboarding = project(ep, "Client onboarding")
    sections = every(ep, "list_sections", project_id=onboarding["id"])
    assert [s["name"] for s in sections] == [c.name for c in POP.customers[:5]]
    staff = {p.email for p in POP.employees}
    for t in every(ep, "list_tasks"):
        if t["assignee_email"]:
            home = next(p for p in every(ep, "list_projects") if p["id"] == t["project_id"])
            assert t["assignee_email"] in home["collaborators"] and t["assignee_email"] in staff
        assert (t["due_recurrence"] == "none") or t["due_date"] is not None
    assert task(ep, "Water the office plants")["due_string"] == "every! 3 days"


def test_a_new_task_goes_to_the_inbox_and_creates_its_labels(ep: Episode) -> None:
    me = owner(ep)
    added = ok(ep, "add_task", content="Order new badges", creator_email=me, labels=["office", "errands"], priority=4)
    assert added["project_id"] == project(ep, "Inbox")["id"] and added["priority"] == 4
    assert {lb["name"] for lb in every(ep, "list_labels")} >= {"office", "errands"}
    other = every(ep, "list_sections", project_id=project(ep, "Client onboarding")["id"])[0]
    refused(ep, "add_task", "rule_violation", "section_id", content="X", creator_email=me, section_id=other["id"])
    refused(ep, "add_task", "rule_violation", "due_recurrence", content="X", creator_email=me, due_recurrence="weekly")
    refused(
        ep,
        "add_task",
        "rule_violation",
        "due_interval",
        content="X",
        creator_email=me,
        due_date=TODAY.isoformat(),
        due_recurrence="weekdays",
        due_interval=2,
    )
    refused(ep, "add_task", "rule_violation", "labels", content="X", creator_email=me, labels=["calls", "calls"])


def test_tasks_are_assigned_only_in_shared_projects_to_collaborators(ep: Episode) -> None:
    me = owner(ep)
    ops = project(ep, "Team operations")
    mate = ops["collaborators"][0]
    assigned = ok(ep, "add_task", content="Plan Q3", creator_email=me, project_id=ops["id"], assignee_email=mate)
    assert assigned["assignee_email"] == mate
    outsider = next(p.email for p in POP.employees if p.email not in ops["collaborators"] and p.email != me)
    refused(
        ep,
        "add_task",
        "rule_violation",
        "assignee_email",
        content="X",
        creator_email=me,
        project_id=ops["id"],
        assignee_email=outsider,
    )
    refused(ep, "add_task", "rule_violation", "assignee_email", content="X", creator_email=me, assignee_email=mate)
    errand = task(ep, "Buy printer toner")
    refused(ep, "update_task", "rule_violation", "assignee_email", task_id=errand["id"], assignee_email=mate)


def test_sub_tasks_live_with_their_parent_and_nest_four_levels(ep: Episode) -> None:
    me = owner(ep)
    kickoff = every(ep, "list_tasks", section_id=every(ep, "list_sections")[0]["id"], is_completed=False)[0]
    sub = ok(ep, "add_task", content="Send the agenda", creator_email=me, parent_id=kickoff["id"])
    assert (sub["project_id"], sub["section_id"]) == (kickoff["project_id"], kickoff["section_id"])
    refused(
        ep,
        "add_task",
        "rule_violation",
        "project_id",
        content="X",
        creator_email=me,
        parent_id=kickoff["id"],
        project_id=project(ep, "Inbox")["id"],
    )
    deepest = task(ep, "Export the NPS scores")
    refused(ep, "add_task", "rule_violation", "parent_id", content="X", creator_email=me, parent_id=deepest["id"])
    ok(ep, "add_task", content="Pull the CSV", creator_email=me, parent_id=deepest["parent_id"])


def test_closing_a_recurring_task_moves_its_due_date_and_reopens_its_sub_tasks(ep: Episode) -> None:
    report = task(ep, "Send the weekly status report")
    assert report["due_date"] == (TODAY - dt.timedelta(days=2)).isoformat()
    done_sub = every(ep, "list_tasks", parent_id=report["id"], is_completed=True)[0]
    closed = ok(ep, "close_task", task_id=report["id"])
    assert closed["recurred"] and closed["task"]["due_date"] == (TODAY + dt.timedelta(days=5)).isoformat()
    assert not closed["task"]["is_completed"] and closed["reopened_subtask_ids"] == [done_sub["id"]]
    assert ok(ep, "get_task", task_id=done_sub["id"])["is_completed"] is False
    plants = ok(ep, "close_task", task_id=task(ep, "Water the office plants")["id"])["task"]
    assert plants["due_date"] == (TODAY + dt.timedelta(days=3)).isoformat(), "every! counts from completion"
    inbox_check = ok(ep, "close_task", task_id=task(ep, "Check the shared support inbox")["id"])["task"]
    assert dt.date.fromisoformat(inbox_check["due_date"]).weekday() < 5
    assert inbox_check["due_date"] > TODAY.isoformat()
    rent = ok(ep, "close_task", task_id=task(ep, "Pay the office rent")["id"])["task"]
    assert rent["due_date"] == "2026-04-07"


def test_closing_completes_the_sub_tasks_and_reopening_reopens_the_parents(ep: Episode) -> None:
    draft = task(ep, "Draft the launch announcement")
    chain = every(ep, "list_tasks", project_id=draft["project_id"], is_completed=False)
    closed = ok(ep, "close_task", task_id=draft["id"])
    assert not closed["recurred"] and len(closed["completed_task_ids"]) == 5
    assert all(t["is_completed"] for t in every(ep, "list_tasks", project_id=draft["project_id"]) if t["parent_id"])
    refused(ep, "close_task", "conflict", "task_id", task_id=draft["id"])
    refused(ep, "update_task", "rule_violation", "task_id", task_id=draft["id"], priority=1)
    deepest = task(ep, "Export the NPS scores")
    ok(ep, "reopen_task", task_id=deepest["id"])
    assert ok(ep, "get_task", task_id=draft["id"])["is_completed"] is False
    refused(ep, "reopen_task", "conflict", "task_id", task_id=draft["id"])
    assert len(chain) >= 5


def test_moving_a_task_takes_its_sub_tasks_and_drops_assignees_who_do_not_collaborate(ep: Episode) -> None:
    report = task(ep, "Send the weekly status report")
    assert report["assignee_email"]
    child = every(ep, "list_tasks", parent_id=report["id"])[0]
    refused(ep, "move_task", "rule_violation", "parent_id", task_id=report["id"], parent_id=child["id"])
    refused(ep, "move_task", "rule_violation", "project_id", task_id=report["id"])
    reading = project(ep, "Reading list")
    moved = ok(ep, "move_task", task_id=report["id"], project_id=reading["id"])
    assert (moved["project_id"], moved["assignee_email"]) == (reading["id"], None)
    assert all(t["project_id"] == reading["id"] for t in every(ep, "list_tasks", parent_id=report["id"]))
    deepest = task(ep, "Export the NPS scores")
    refused(ep, "move_task", "rule_violation", "parent_id", task_id=report["id"], parent_id=deepest["id"])


def test_the_inbox_cannot_be_renamed_nested_or_deleted_and_projects_nest_three_levels(ep: Episode) -> None:
    me = owner(ep)
    inbox = project(ep, "Inbox")
    refused(ep, "update_project", "rule_violation", "name", project_id=inbox["id"], name="Stuff")
    refused(ep, "delete_project", "rule_violation", "project_id", project_id=inbox["id"])
    refused(ep, "create_project", "rule_violation", "parent_id", name="Sub", owner_email=me, parent_id=inbox["id"])
    assets = project(ep, "Launch assets")
    refused(ep, "create_project", "rule_violation", "parent_id", name="Deep", owner_email=me, parent_id=assets["id"])
    refused(ep, "create_project", "rule_violation", "collaborators", name="Solo", owner_email=me, collaborators=[me])
    marketing = project(ep, "Marketing")
    launch_tasks = every(ep, "list_tasks", project_id=project(ep, "Spring launch")["id"])
    gone = ok(ep, "delete_project", project_id=marketing["id"])
    assert len(gone["project_ids"]) == 3 and gone["tasks"] == len(launch_tasks)
    assert not any(p["name"] in ("Marketing", "Spring launch") for p in every(ep, "list_projects"))


def test_a_project_holds_at_most_twenty_sections(ep: Episode) -> None:
    reading = project(ep, "Reading list")
    for k in range(20):
        ok(ep, "create_section", project_id=reading["id"], name=f"Shelf {k}")
    refused(ep, "create_section", "rule_violation", "project_id", project_id=reading["id"], name="One more")


def test_comments_belong_to_one_task_or_project_and_are_counted(ep: Episode) -> None:
    me = owner(ep)
    toner = task(ep, "Buy printer toner")
    ok(ep, "add_comment", content="Two cartridges, black.", posted_by_email=me, task_id=toner["id"])
    assert ok(ep, "get_task", task_id=toner["id"])["comment_count"] == toner["comment_count"] + 1
    inbox = project(ep, "Inbox")
    refused(ep, "add_comment", "rule_violation", "task_id", content="x", posted_by_email=me)
    refused(
        ep,
        "add_comment",
        "rule_violation",
        "task_id",
        content="x",
        posted_by_email=me,
        task_id=toner["id"],
        project_id=inbox["id"],
    )


def test_views_list_open_tasks_most_urgent_first(ep: Episode) -> None:
    overdue = ok(ep, "filter_tasks", view="overdue")
    assert overdue and all(t["due_date"] < TODAY.isoformat() and not t["is_completed"] for t in overdue)
    assert [t["priority"] for t in overdue] == sorted((t["priority"] for t in overdue), reverse=True)
    errands = ok(ep, "filter_tasks", view="today", label="errands")
    assert {t["content"] for t in errands} == {"Call the insurance broker", "Water the office plants"}
    assert [t["content"] for t in ok(ep, "filter_tasks", view="no_date", label="errands")] == [
        "Book the team offsite venue"
    ]
    updated = ok(
        ep,
        "update_task",
        task_id=task(ep, "Buy printer toner")["id"],
        due_recurrence="monthly",
        due_interval=2,
    )
    assert updated["due_string"] == "every 2 months"
