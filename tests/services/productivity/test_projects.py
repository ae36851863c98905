"""Loomwork (Asana-style): dependencies block completion, approvals, guests, followers and progress."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PROJECTS = ServiceTools("projects")
WORLD = PROJECTS.world
ok, refused, every, items, first = PROJECTS.ok, PROJECTS.refused, PROJECTS.every, PROJECTS.items, PROJECTS.first
POP = WORLD.population


def project(ep: Episode, query: str) -> dict[str, Any]:
    return first(ep, "projects", query=query)


def task(ep: Episode, project_id: str, name: str) -> dict[str, Any]:
    return first(ep, "tasks", project_id=project_id, query=name)


def new_task(ep: Episode, project_id: str, name: str, **extra: Any) -> dict[str, Any]:
    return dict(ok(ep, "create_task", project_id=project_id, name=name, **extra))


# -- the seeded world -----------------------------------------------------------------------


def test_members_are_the_staff_and_guests_come_from_client_companies() -> None:
    ep = Episode(WORLD)
    ws = first(ep, "workspaces")
    assert (ws["name"], ws["email_domain"]) == (POP.home.name, POP.home.domain)
    users = every(ep, "list_users")
    assert {u["email"] for u in users if u["role"] != "guest"} == {p.email for p in POP.employees}
    people = {p.email: p for p in POP.people}
    for guest in (u for u in users if u["role"] == "guest"):
        company = POP.company_of(people[guest["email"]])
        assert company is not None and company.name == guest["company"]
    clients = {p["client_company"] for p in every(ep, "list_projects") if p["client_company"]}
    assert clients <= {u["company"] for u in users if u["role"] == "guest"}


def test_seeded_dependencies_are_consistent_with_completion() -> None:
    ep = Episode(WORLD)
    for dep in every(ep, "list_dependencies"):
        waiting = ok(ep, "get_task", task_id=dep["task_id"])
        if waiting["completed"]:
            assert ok(ep, "get_task", task_id=dep["depends_on_id"])["completed"]
    for t in every(ep, "list_tasks"):
        assert t["num_subtasks"] == len(items(ep, "tasks", parent_id=t["id"]))


# -- dependencies ---------------------------------------------------------------------------


def test_a_task_cannot_complete_before_its_dependency_and_nothing_changes(ep: Episode) -> None:
    web = project(ep, "Website Redesign")
    wireframes = task(ep, web["id"], "Wireframes")
    visual = task(ep, web["id"], "Visual design")
    msg = refused(ep, "set_task_completed", "rule_violation", "task_id", task_id=visual["id"])
    assert wireframes["id"] in msg
    ok(ep, "set_task_completed", task_id=wireframes["id"])
    done = ok(ep, "set_task_completed", task_id=visual["id"])
    assert done["completed"] and done["completed_at"] is not None
    refused(ep, "set_task_completed", "rule_violation", "task_id", task_id=wireframes["id"], completed=False)
    stories = items(ep, "stories", task_id=visual["id"], type="system")
    assert [s["text"] for s in stories] == ["marked this task complete"]


def test_dependencies_never_form_a_cycle_and_are_not_duplicated(ep: Episode) -> None:
    web = project(ep, "Website Redesign")
    a = new_task(ep, web["id"], "Pick fonts")
    b = new_task(ep, web["id"], "Order licences")
    c = new_task(ep, web["id"], "Install fonts")
    ok(ep, "add_dependency", task_id=b["id"], depends_on_id=a["id"])
    ok(ep, "add_dependency", task_id=c["id"], depends_on_id=b["id"])
    refused(ep, "add_dependency", "rule_violation", "depends_on_id", task_id=a["id"], depends_on_id=c["id"])
    refused(ep, "add_dependency", "conflict", "depends_on_id", task_id=b["id"], depends_on_id=a["id"])
    refused(ep, "add_dependency", "rule_violation", "depends_on_id", task_id=a["id"], depends_on_id=a["id"])


def test_removing_a_dependency_unblocks_the_task(ep: Episode) -> None:
    launch = project(ep, "Spring Product Launch")
    blocked = task(ep, launch["id"], "Fix the release blockers")
    other = new_task(ep, launch["id"], "Check the translations")
    dep = ok(ep, "add_dependency", task_id=blocked["id"], depends_on_id=other["id"])
    refused(ep, "set_task_completed", "rule_violation", "task_id", task_id=blocked["id"])
    ok(ep, "delete_dependency", dependency_id=dep["id"])
    assert ok(ep, "set_task_completed", task_id=blocked["id"])["completed"]


# -- approvals ------------------------------------------------------------------------------


def test_only_the_assignee_approves_and_approval_completes_the_task(ep: Episode) -> None:
    launch = project(ep, "Spring Product Launch")
    sign_off = task(ep, launch["id"], "Sign off the launch")
    notes = task(ep, launch["id"], "Write the release notes")
    refused(ep, "set_task_completed", "rule_violation", "task_id", task_id=sign_off["id"])
    refused(
        ep,
        "set_approval_status",
        "rule_violation",
        "approver_email",
        task_id=sign_off["id"],
        approver_email=launch["owner_email"],
        status="approved",
    )
    args = {"task_id": sign_off["id"], "approver_email": sign_off["assignee_email"], "status": "approved"}
    refused(ep, "set_approval_status", "rule_violation", "task_id", **args)  # its dependency is open
    ok(ep, "set_task_completed", task_id=notes["id"])
    decided = ok(ep, "set_approval_status", **args, comment="Ship it")
    assert (decided["approval_status"], decided["completed"]) == ("approved", True)
    refused(ep, "set_approval_status", "conflict", "task_id", **args)


def test_an_approval_needs_an_assignee(ep: Episode) -> None:
    web = project(ep, "Website Redesign")
    refused(
        ep,
        "create_task",
        "rule_violation",
        "assignee_email",
        project_id=web["id"],
        name="Approve the budget",
        resource_subtype="approval",
    )
    new = new_task(ep, web["id"], "Approve the budget", resource_subtype="approval", assignee_email=web["owner_email"])
    assert new["approval_status"] == "pending" and new["followers"] == [web["owner_email"]]


# -- guests, followers, comments ------------------------------------------------------------


def test_guests_work_only_on_their_own_companys_projects(ep: Episode) -> None:
    guest = first(ep, "users", role="guest")
    own = first(ep, "projects", client_company=guest["company"])
    web = project(ep, "Website Redesign")
    refused(
        ep,
        "create_task",
        "rule_violation",
        "assignee_email",
        project_id=web["id"],
        name="Review copy",
        assignee_email=guest["email"],
    )
    t = new_task(ep, own["id"], "Review the data mapping", assignee_email=guest["email"])
    assert t["assignee_email"] == guest["email"]
    refused(
        ep,
        "create_project",
        "rule_violation",
        "owner_email",
        workspace_id=own["workspace_id"],
        name="Guest project",
        owner_email=guest["email"],
    )


def test_commenting_makes_the_author_a_follower_and_notifies_the_others(ep: Episode) -> None:
    web = project(ep, "Website Redesign")
    t = task(ep, web["id"], "Build the templates")
    author = next(p.email for p in POP.employees if p.email not in t["followers"])
    posted = ok(ep, "add_comment", task_id=t["id"], author_email=author, text="Templates are half done.")
    assert posted["notified"] == t["followers"]
    assert ok(ep, "get_task", task_id=t["id"])["followers"] == [*t["followers"], author]
    refused(
        ep, "add_comment", "not_found", "author_email", task_id=t["id"], author_email="x@unknown.example", text="Hi"
    )


def test_reassigning_adds_the_new_assignee_as_follower(ep: Episode) -> None:
    web = project(ep, "Website Redesign")
    t = task(ep, web["id"], "Migrate the content")
    who = next(p.email for p in POP.employees if p.email not in t["followers"])
    updated = ok(ep, "assign_task", task_id=t["id"], assignee_email=who)
    assert updated["assignee_email"] == who and updated["followers"] == [*t["followers"], who]
    assert ok(ep, "get_task", task_id=t["id"]) == updated
    guest = first(ep, "users", role="guest")
    refused(ep, "assign_task", "rule_violation", "assignee_email", task_id=t["id"], assignee_email=guest["email"])
    refused(
        ep, "update_task", "rule_violation", "start_on", task_id=t["id"], start_on="2026-05-02", due_on="2026-05-01"
    )


# -- projects, sections, progress -----------------------------------------------------------


def test_an_archived_project_is_read_only(ep: Episode) -> None:
    old = first(ep, "projects", archived=True)
    t = first(ep, "tasks", project_id=old["id"])
    refused(ep, "create_task", "rule_violation", "project_id", project_id=old["id"], name="Late task")
    refused(ep, "add_comment", "rule_violation", "task_id", task_id=t["id"], author_email=old["owner_email"], text="Hi")
    refused(ep, "update_project", "rule_violation", "project_id", project_id=old["id"], name="Renamed")
    ok(ep, "update_project", project_id=old["id"], archived=False)
    assert new_task(ep, old["id"], "Late task")["project_id"] == old["id"]


def test_a_new_project_has_a_default_section_and_section_names_are_unique(ep: Episode) -> None:
    ws = first(ep, "workspaces")
    owner = POP.employees[4].email
    p = ok(ep, "create_project", workspace_id=ws["id"], name="Offsite", owner_email=owner, client_company="Acme")
    assert [s["name"] for s in items(ep, "sections", project_id=p["id"])] == ["Untitled section"]
    refused(ep, "create_section", "conflict", "name", project_id=p["id"], name="Untitled section")
    sec = ok(ep, "create_section", project_id=p["id"], name="Venue")
    t = new_task(ep, p["id"], "Book the venue")
    assert ok(ep, "move_task_to_section", task_id=t["id"], section_id=sec["id"])["section_id"] == sec["id"]
    web = project(ep, "Website Redesign")
    foreign = first(ep, "sections", project_id=web["id"])
    refused(ep, "move_task_to_section", "rule_violation", "section_id", task_id=t["id"], section_id=foreign["id"])


def test_progress_counts_top_level_tasks_per_section(ep: Episode) -> None:
    web = project(ep, "Website Redesign")
    prog = ok(ep, "project_progress", project_id=web["id"])
    top = [t for t in items(ep, "tasks", project_id=web["id"]) if t["parent_id"] is None]
    assert prog["total"] == len(top) == sum(s["total"] for s in prog["sections"])
    assert prog["completed"] == sum(1 for t in top if t["completed"])
    assert prog["percent_complete"] == round(100 * prog["completed"] / prog["total"], 1)
    assert task(ep, web["id"], "Visual design")["id"] in prog["blocked"]
    ok(ep, "set_task_completed", task_id=task(ep, web["id"], "Wireframes")["id"])
    assert ok(ep, "project_progress", project_id=web["id"])["completed"] == prog["completed"] + 1


def test_a_task_with_subtasks_cannot_be_deleted(ep: Episode) -> None:
    web = project(ep, "Website Redesign")
    parent = task(ep, web["id"], "Wireframes")
    refused(ep, "delete_task", "rule_violation", "task_id", task_id=parent["id"])
    sub = ok(ep, "add_subtask", parent_id=parent["id"], name="Mobile layout")
    assert ok(ep, "get_task", task_id=parent["id"])["num_subtasks"] == parent["num_subtasks"] + 1
    ok(ep, "delete_task", task_id=sub["id"])
    assert ok(ep, "get_task", task_id=parent["id"])["num_subtasks"] == parent["num_subtasks"]
