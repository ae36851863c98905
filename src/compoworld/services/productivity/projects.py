"""Loomwork: work management with projects, sections, tasks, subtasks, dependencies and followers.

Modeled on the Asana REST API 1.0 (Workspaces, Users, Projects with
``archived`` and ``current_status``, Sections, Tasks with ``parent``,
``resource_subtype`` default_task/milestone/approval, ``approval_status``,
``followers``, ``/addDependencies``, ``/addFollowers``, ``/addProject`` with a
section, Stories): a task cannot be completed while a task it depends on is
incomplete, nor reopened while a completed task depends on it; dependencies
never form a cycle; approval tasks are completed by their assignee's approval;
guests (people from a client company) may only work on and follow tasks of
that client's projects; an archived project is read-only; commenting makes the
author a follower and notifies the other followers.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Date,
    DateTime,
    Domain,
    Email,
    IdOf,
    Percent,
    PersonName,
    Quantity,
    Text,
    Title,
)
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "projects",
    title="Loomwork",
    category="project_tracking",
    modeled_on="Asana REST API 1.0 (Workspace, User, Project, Section, Task, subtasks, dependencies, followers, Story)",
    description="Work management for the company and its clients: projects split into sections, tasks and "
    "subtasks with assignees, due dates and followers, dependencies that block completion, approvals, "
    "milestones and comment threads.",
)

WorkspaceId = Annotated[str, IdOf("projects.workspace")]
UserId = Annotated[str, IdOf("projects.user")]
ProjectId = Annotated[str, IdOf("projects.project")]
SectionId = Annotated[str, IdOf("projects.section")]
TaskId = Annotated[str, IdOf("projects.task")]
DependencyId = Annotated[str, IdOf("projects.dependency")]
StoryId = Annotated[str, IdOf("projects.story")]

UserRole = Literal["admin", "member", "guest"]
Subtype = Literal["default_task", "milestone", "approval"]
ApprovalStatus = Literal["pending", "approved", "rejected", "changes_requested"]
ProjectStatus = Literal["on_track", "at_risk", "off_track", "on_hold", "complete"]
Color = Literal["none", "dark-blue", "dark-green", "dark-orange", "dark-pink", "dark-purple", "light-teal"]
SectionName = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]
MAX_DEPENDENCIES = 30


class Workspace(Record):
    """An organization's workspace: its members share one e-mail domain; others join as guests."""

    id: WorkspaceId
    name: CompanyName
    """The organization's name."""
    email_domain: Domain
    """E-mail domain of full members; users from other domains are guests."""


class User(Record):
    """A person in a workspace: a member of the organization or a guest from a client company."""

    id: UserId
    workspace_id: WorkspaceId
    """The workspace."""
    name: PersonName
    """Full name."""
    email: Email
    """E-mail address; unique."""
    role: UserRole = "member"
    """admin, member, or guest (someone from a client company)."""
    company: CompanyName | None = None
    """For a guest: the client company they work for."""


class Project(Created):
    """A project: tasks grouped in sections, with an owner, dates and a status."""

    id: ProjectId
    workspace_id: WorkspaceId
    """The workspace."""
    name: Title
    """Project name."""
    notes: Text = ""
    """Description."""
    owner_email: Email
    """E-mail of the member who owns the project."""
    client_company: CompanyName | None = None
    """The client the project is for; that client's guests may work on it."""
    color: Color = "none"
    """Colour in the sidebar."""
    start_on: Date | None = None
    """Start date."""
    due_on: Date | None = None
    """Due date; not before the start date."""
    current_status: ProjectStatus = "on_track"
    """on_track, at_risk, off_track, on_hold or complete."""
    archived: bool = False
    """Archived projects are read-only; only un-archiving them (archived=false) is allowed."""


class Section(Record):
    """A section of a project's task list (a column on the board view)."""

    id: SectionId
    project_id: ProjectId
    """The project."""
    name: SectionName
    """Section name; unique within the project."""


class Task(Created):
    """A task, milestone or approval; a subtask has a parent task."""

    id: TaskId
    workspace_id: WorkspaceId
    """The workspace."""
    project_id: ProjectId
    """The project the task (or its parent) belongs to."""
    section_id: SectionId | None = None
    """The project section it is in; null for subtasks."""
    parent_id: TaskId | None = None
    """For a subtask: its parent task."""
    name: Title
    """Task name."""
    notes: Text = ""
    """Description."""
    resource_subtype: Subtype = "default_task"
    """default_task, milestone or approval."""
    assignee_email: Email | None = None
    """E-mail of the user it is assigned to."""
    start_on: Date | None = None
    """Start date."""
    due_on: Date | None = None
    """Due date; not before the start date."""
    followers: tuple[Email, ...] = ()
    """E-mails of the users notified about changes and comments."""
    approval_status: ApprovalStatus | None = None
    """For an approval: pending, approved, rejected or changes_requested."""
    num_subtasks: Quantity = 0
    """Number of subtasks."""
    completed: bool = False
    """Whether the task is done."""
    completed_at: DateTime | None = None
    """When it was completed."""
    modified_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Dependency(Record):
    """A task that must be completed before another: ``task_id`` depends on ``depends_on_id``."""

    id: DependencyId
    task_id: TaskId
    """The blocked task (the dependent)."""
    depends_on_id: TaskId
    """The task it waits for (the dependency)."""
    created_at: Annotated[DateTime, CREATED]
    """When the dependency was added."""


class Story(Record):
    """An entry of a task's activity feed: a comment or a system event."""

    id: StoryId
    task_id: TaskId
    """The task."""
    author_email: Email
    """Who wrote it or caused it."""
    type: Literal["comment", "system"] = "comment"
    """comment (written by a person) or system (recorded by the service)."""
    text: Text
    """The comment or the event."""
    created_at: Annotated[DateTime, CREATED]
    """When it happened."""


# -- rules ------------------------------------------------------------------------------------


def _user(ctx: Ctx, workspace_id: str, email: str, field: str) -> User:
    user = ctx.first(User, email=email)
    if user is None or user.workspace_id != workspace_id:
        raise NotFound(
            f"{email} is not a user of the workspace",
            field=field,
            hint="list the workspace's users with projects__list_users",
        )
    return user


def _may_work_on(ctx: Ctx, project: Project, email: str, field: str) -> None:
    user = _user(ctx, project.workspace_id, email, field)
    if user.role == "guest" and user.company != project.client_company:
        raise RuleViolation(
            f"guest {email} of {user.company} has no access to project {project.name!r}",
            field=field,
            hint="guests only work on the projects of their own company; pick a member of the organization",
        )


def _writable_project(ctx: Ctx, project_id: str, field: str) -> Project:
    project = ctx.get(Project, project_id, field=field)
    if project.archived:
        raise RuleViolation(
            f"project {project.name!r} is archived and read-only",
            field=field,
            hint="unarchive it first: projects__update_project with archived=false",
        )
    return project


def _writable_task(ctx: Ctx, task_id: str, field: str) -> tuple[Task, Project]:
    task = ctx.get(Task, task_id, field=field)
    return task, _writable_project(ctx, task.project_id, field)


def _check_dates(start: dt.date | None, due: dt.date | None) -> None:
    if start is not None and due is not None and start > due:
        raise RuleViolation("the start date is after the due date", field="start_on", hint="start on or before due_on")


def _open_dependencies(ctx: Ctx, task_id: str) -> list[Task]:
    deps = [ctx.get(Task, d.depends_on_id) for d in ctx.where(Dependency, task_id=task_id)]
    return [t for t in deps if not t.completed]


def _complete(ctx: Ctx, task: Task, actor: str) -> Task:
    blockers = _open_dependencies(ctx, task.id)
    if blockers:
        names = ", ".join(f"{t.name!r} ({t.id})" for t in blockers)
        raise RuleViolation(
            f"task {task.name!r} waits for {len(blockers)} incomplete dependency(ies): {names}",
            field="task_id",
            hint="complete those tasks first, or remove the dependency with projects__delete_dependency",
        )
    done = ctx.update(task, completed=True, completed_at=ctx.now())
    ctx.create(Story, task_id=task.id, author_email=actor, type="system", text="marked this task complete")
    return done


def _guard_project(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.archived and new.archived:
        raise RuleViolation(
            f"project {old.name!r} is archived and read-only",
            field="project_id",
            hint="unarchive it first: projects__update_project with archived=false",
        )
    ctx.get(Workspace, new.workspace_id, field="workspace_id")
    owner = _user(ctx, new.workspace_id, new.owner_email, "owner_email")
    if owner.role == "guest":
        raise RuleViolation(
            "a guest cannot own a project", field="owner_email", hint="make a member of the organization the owner"
        )
    _check_dates(new.start_on, new.due_on)
    if old is None:
        ctx.create(Section, project_id=new.id, name="Untitled section")


def _guard_section(ctx: Ctx, new: Any, old: Any) -> None:
    _writable_project(ctx, new.project_id, "project_id")
    if any(s.id != new.id and s.name == new.name for s in ctx.where(Section, project_id=new.project_id)):
        raise Conflict(
            f"the project already has a section named {new.name!r}",
            field="name",
            hint="use the existing section (projects__list_sections)",
        )


def _guard_task_update(ctx: Ctx, new: Any, old: Any) -> None:
    _writable_project(ctx, new.project_id, "task_id")
    _check_dates(new.start_on, new.due_on)


def _guard_task_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _writable_project(ctx, old.project_id, "task_id")
    if ctx.first(Task, parent_id=old.id) is not None:
        raise RuleViolation(
            f"task {old.name!r} has subtasks",
            field="task_id",
            hint="delete its subtasks first (projects__list_tasks with parent_id)",
        )
    for dep in ctx.where(Dependency, task_id=old.id) + ctx.where(Dependency, depends_on_id=old.id):
        ctx.delete(dep)
    for story in ctx.where(Story, task_id=old.id):
        ctx.delete(story)
    if old.parent_id is not None:
        parent = ctx.get(Task, old.parent_id)
        ctx.update(parent, num_subtasks=max(0, parent.num_subtasks - 1))


def _guard_dependency_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _writable_task(ctx, old.task_id, "dependency_id")


workspaces = service.resource(
    Workspace,
    name="workspace",
    plural="workspaces",
    prefix="ws",
    create=False,
    get=False,
    filters=("email_domain",),
    search=("name",),
    delete=False,
)
users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    get=False,
    filters=("workspace_id", "email", "role", "company"),
    search=("name", "email"),
    delete=False,
    unique=("email",),
    title="workspace user",
)
projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="prj",
    create=("workspace_id", "name", "notes", "owner_email", "client_company", "color", "start_on", "due_on"),
    filters=("workspace_id", "owner_email", "client_company", "archived", "current_status"),
    search=("name", "notes"),
    update=("name", "notes", "owner_email", "color", "start_on", "due_on", "current_status", "archived"),
    delete=False,
    guard_create=_guard_project,
    guard_update=_guard_project,
)
sections = service.resource(
    Section,
    name="section",
    plural="sections",
    prefix="sec",
    create=("project_id", "name"),
    get=False,
    filters=("project_id", "name"),
    delete=False,
    guard_create=_guard_section,
    title="project section",
)
tasks = service.resource(
    Task,
    name="task",
    plural="tasks",
    prefix="tsk",
    create=False,
    filters=(
        "project_id",
        "section_id",
        "parent_id",
        "assignee_email",
        "completed",
        "resource_subtype",
        "approval_status",
        "due_on",
    ),
    search=("name", "notes"),
    update=("name", "notes", "start_on", "due_on"),
    guard_update=_guard_task_update,
    guard_delete=_guard_task_delete,
)
dependencies = service.resource(
    Dependency,
    name="dependency",
    plural="dependencies",
    prefix="dep",
    create=False,
    get=False,
    filters=("task_id", "depends_on_id"),
    guard_delete=_guard_dependency_delete,
    title="task dependency",
)
stories = service.resource(
    Story,
    name="story",
    plural="stories",
    prefix="sty",
    create=False,
    get=False,
    filters=("task_id", "author_email", "type"),
    search=("text",),
    delete=False,
    title="task story",
)


# -- examples ---------------------------------------------------------------------------------


def _live_tasks(ctx: Ctx, **where: Any) -> list[Task]:
    live = {p.id for p in ctx.where(Project, archived=False)}
    return [t for t in ctx.where(Task, **where) if t.project_id in live]


def _example_create_task(ctx: Ctx) -> dict[str, Any] | None:
    project = ctx.first(Project, archived=False)
    if project is None:
        return None
    section = ctx.first(Section, project_id=project.id)
    return {
        "project_id": project.id,
        "name": "Prepare the steering committee deck",
        "section_id": section.id if section else None,
        "assignee_email": project.owner_email,
        "due_on": (ctx.today() + dt.timedelta(days=7)).isoformat(),
    }


def _example_subtask(ctx: Ctx) -> dict[str, Any] | None:
    for t in _live_tasks(ctx, parent_id=None, completed=False):
        return {"parent_id": t.id, "name": "Collect the numbers"}
    return None


def _example_complete(ctx: Ctx) -> dict[str, Any] | None:
    for t in _live_tasks(ctx, completed=False):
        if t.resource_subtype != "approval" and not _open_dependencies(ctx, t.id):
            return {"task_id": t.id, "completed": True}
    return None


def _example_dependency(ctx: Ctx) -> dict[str, Any] | None:
    for t in _live_tasks(ctx, completed=False, parent_id=None):
        for other in _live_tasks(ctx, project_id=t.project_id, parent_id=None):
            if other.id != t.id and not _reaches(ctx, other.id, t.id) and not _linked(ctx, t.id, other.id):
                return {"task_id": t.id, "depends_on_id": other.id}
    return None


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    for t in _live_tasks(ctx, parent_id=None):
        for sec in ctx.where(Section, project_id=t.project_id):
            if sec.id != t.section_id:
                return {"task_id": t.id, "section_id": sec.id}
    return None


def _example_followers(ctx: Ctx) -> dict[str, Any] | None:
    for t in _live_tasks(ctx):
        project = ctx.get(Project, t.project_id)
        if project.owner_email not in t.followers:
            return {"task_id": t.id, "emails": [project.owner_email]}
    return None


def _example_comment(ctx: Ctx) -> dict[str, Any] | None:
    for t in _live_tasks(ctx):
        if t.followers:
            return {"task_id": t.id, "author_email": t.followers[0], "text": "Status update: on track."}
    return None


def _example_approval(ctx: Ctx) -> dict[str, Any] | None:
    for t in _live_tasks(ctx, resource_subtype="approval", approval_status="pending"):
        if t.assignee_email:
            status = "changes_requested" if _open_dependencies(ctx, t.id) else "approved"
            return {"task_id": t.id, "approver_email": t.assignee_email, "status": status}
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="create a task in the project", write=True, example=_example_create_task)
def create_task(
    ctx: Ctx,
    project_id: ProjectId,
    name: Title,
    section_id: SectionId | None = None,
    notes: Text = "",
    resource_subtype: Subtype = "default_task",
    assignee_email: Email | None = None,
    start_on: Date | None = None,
    due_on: Date | None = None,
    followers: list[Email] | None = None,
) -> Task:
    """Create a task, milestone or approval in a section of a project (default: its first section).

    The assignee and followers must be users of the workspace; guests only on
    their own company's projects. The assignee follows the task; an approval
    starts pending and needs an assignee to approve it.

    Args:
        project_id: The project.
        name: Task name.
        section_id: The section; omit for the project's first section.
        notes: Description.
        resource_subtype: default_task, milestone or approval.
        assignee_email: E-mail of the user to assign.
        start_on: Start date.
        due_on: Due date.
        followers: E-mails of users to follow the task.
    """
    project = _writable_project(ctx, project_id, "project_id")
    if section_id is not None:
        section = ctx.get(Section, section_id, field="section_id")
        if section.project_id != project.id:
            raise RuleViolation(
                f"section {section.name!r} belongs to another project",
                field="section_id",
                hint="list this project's sections with projects__list_sections",
            )
    else:
        first = ctx.first(Section, project_id=project.id)
        section_id = first.id if first else None
    if resource_subtype == "approval" and assignee_email is None:
        raise RuleViolation(
            "an approval needs an assignee to approve it", field="assignee_email", hint="pass assignee_email"
        )
    if assignee_email is not None:
        _may_work_on(ctx, project, assignee_email, "assignee_email")
    follow = list(dict.fromkeys([*(followers or ()), *([assignee_email] if assignee_email else [])]))
    for email in follow:
        _may_work_on(ctx, project, email, "followers")
    _check_dates(start_on, due_on)
    return ctx.create(
        Task,
        workspace_id=project.workspace_id,
        project_id=project.id,
        section_id=section_id,
        name=name,
        notes=notes,
        resource_subtype=resource_subtype,
        assignee_email=assignee_email,
        start_on=start_on,
        due_on=due_on,
        followers=tuple(follow),
        approval_status="pending" if resource_subtype == "approval" else None,
    )


@service.tool(intent="add a subtask to the task", write=True, example=_example_subtask)
def add_subtask(
    ctx: Ctx,
    parent_id: TaskId,
    name: Title,
    assignee_email: Email | None = None,
    due_on: Date | None = None,
) -> Task:
    """Create a subtask under a task; it belongs to the parent's project but to no section.

    Args:
        parent_id: The parent task.
        name: Subtask name.
        assignee_email: E-mail of the user to assign.
        due_on: Due date.
    """
    parent, project = _writable_task(ctx, parent_id, "parent_id")
    if parent.completed:
        raise RuleViolation(
            f"task {parent.name!r} is completed", field="parent_id", hint="reopen it before adding subtasks"
        )
    if assignee_email is not None:
        _may_work_on(ctx, project, assignee_email, "assignee_email")
    sub = ctx.create(
        Task,
        workspace_id=parent.workspace_id,
        project_id=parent.project_id,
        parent_id=parent.id,
        name=name,
        assignee_email=assignee_email,
        due_on=due_on,
        followers=(assignee_email,) if assignee_email else (),
    )
    ctx.update(parent, num_subtasks=parent.num_subtasks + 1)
    return sub


@service.tool(intent="mark the task complete", write=True, idempotent=True, example=_example_complete)
def set_task_completed(ctx: Ctx, task_id: TaskId, completed: bool = True) -> Task:
    """Mark a task complete, or incomplete again.

    A task cannot be completed while a task it depends on is incomplete, nor
    reopened while a completed task depends on it. Approvals are completed by
    approving them (projects__set_approval_status).

    Args:
        task_id: The task.
        completed: True to complete, false to reopen.
    """
    task, project = _writable_task(ctx, task_id, "task_id")
    if task.completed == completed:
        return task
    if task.resource_subtype == "approval":
        raise RuleViolation(
            f"task {task.name!r} is an approval",
            field="task_id",
            hint="approve or reject it with projects__set_approval_status",
        )
    if completed:
        return _complete(ctx, task, task.assignee_email or project.owner_email)
    done_dependents = [
        ctx.get(Task, d.task_id)
        for d in ctx.where(Dependency, depends_on_id=task.id)
        if ctx.get(Task, d.task_id).completed
    ]
    if done_dependents:
        raise RuleViolation(
            f"completed task(s) depend on {task.name!r}: " + ", ".join(t.id for t in done_dependents),
            field="task_id",
            hint="reopen the dependent tasks first",
        )
    ctx.create(
        Story,
        task_id=task.id,
        author_email=task.assignee_email or project.owner_email,
        type="system",
        text="marked this task incomplete",
    )
    return ctx.update(task, completed=False, completed_at=None)


def _reaches(ctx: Ctx, start: str, goal: str) -> bool:
    """Whether ``start`` depends (transitively) on ``goal``."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        cur = todo.pop()
        if cur == goal:
            return True
        if cur in seen:
            continue
        seen.add(cur)
        todo.extend(d.depends_on_id for d in ctx.where(Dependency, task_id=cur))
    return False


def _linked(ctx: Ctx, task_id: str, depends_on_id: str) -> bool:
    return ctx.first(Dependency, task_id=task_id, depends_on_id=depends_on_id) is not None


@service.tool(intent="make the task wait for another task", write=True, example=_example_dependency)
def add_dependency(ctx: Ctx, task_id: TaskId, depends_on_id: TaskId) -> Dependency:
    """Make a task depend on another: it cannot be completed until that one is.

    Both tasks must be in the same workspace; dependencies cannot form a cycle,
    a completed task cannot get a new incomplete dependency, and a task has at
    most 30 dependencies.

    Args:
        task_id: The task that waits (the dependent).
        depends_on_id: The task it waits for.
    """
    task, _ = _writable_task(ctx, task_id, "task_id")
    other = ctx.get(Task, depends_on_id, field="depends_on_id")
    if other.id == task.id:
        raise RuleViolation("a task cannot depend on itself", field="depends_on_id", hint="pick another task")
    if other.workspace_id != task.workspace_id:
        raise RuleViolation(
            "the tasks are in different workspaces", field="depends_on_id", hint="pick a task of the same workspace"
        )
    if _linked(ctx, task.id, other.id):
        raise Conflict(
            f"task {task.name!r} already depends on {other.name!r}",
            field="depends_on_id",
            hint="list dependencies with projects__list_dependencies",
        )
    if _reaches(ctx, other.id, task.id):
        raise RuleViolation(
            f"{other.name!r} already (indirectly) depends on {task.name!r}; this would make a cycle",
            field="depends_on_id",
            hint="remove the opposite dependency first",
        )
    if task.completed and not other.completed:
        raise RuleViolation(
            f"task {task.name!r} is completed and cannot wait for an incomplete task",
            field="task_id",
            hint="reopen the task first, or complete the other one",
        )
    if len(ctx.where(Dependency, task_id=task.id)) >= MAX_DEPENDENCIES:
        raise RuleViolation(
            f"a task has at most {MAX_DEPENDENCIES} dependencies", field="task_id", hint="remove one first"
        )
    return ctx.create(Dependency, task_id=task.id, depends_on_id=other.id)


@service.tool(intent="move the task to another section", write=True, idempotent=True, example=_example_move)
def move_task_to_section(ctx: Ctx, task_id: TaskId, section_id: SectionId) -> Task:
    """Move a top-level task to another section of its project.

    Args:
        task_id: The task.
        section_id: A section of the task's project.
    """
    task, _ = _writable_task(ctx, task_id, "task_id")
    if task.parent_id is not None:
        raise RuleViolation("subtasks are not in sections", field="task_id", hint="move the parent task instead")
    section = ctx.get(Section, section_id, field="section_id")
    if section.project_id != task.project_id:
        raise RuleViolation(
            f"section {section.name!r} is not a section of the task's project",
            field="section_id",
            hint="list the project's sections with projects__list_sections",
        )
    return ctx.update(task, section_id=section.id)


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for t in _live_tasks(ctx, completed=False):
        project = ctx.get(Project, t.project_id)
        if t.assignee_email != project.owner_email:
            return {"task_id": t.id, "assignee_email": project.owner_email}
    return None


@service.tool(intent="assign the task", write=True, idempotent=True, example=_example_assign)
def assign_task(ctx: Ctx, task_id: TaskId, assignee_email: Email | None) -> Task:
    """Assign a task to a user, who also starts following it; null unassigns it.

    The assignee must be a user of the workspace; a guest only on their own company's projects.
    An approval always needs an assignee.

    Args:
        task_id: The task.
        assignee_email: E-mail of the new assignee, or null to unassign.
    """
    task, project = _writable_task(ctx, task_id, "task_id")
    if assignee_email is None:
        if task.resource_subtype == "approval":
            raise RuleViolation(
                "an approval needs an assignee", field="assignee_email", hint="assign someone else instead"
            )
        return ctx.update(task, assignee_email=None)
    _may_work_on(ctx, project, assignee_email, "assignee_email")
    return ctx.update(
        task, assignee_email=assignee_email, followers=tuple(dict.fromkeys([*task.followers, assignee_email]))
    )


@service.tool(intent="add followers to the task", write=True, idempotent=True, example=_example_followers)
def add_followers(
    ctx: Ctx, task_id: TaskId, emails: Annotated[list[Email], Field(min_length=1, max_length=20)]
) -> Task:
    """Add users as followers of a task; they are notified of its comments.

    Args:
        task_id: The task.
        emails: E-mails of users of the workspace (guests only on their company's projects).
    """
    task, project = _writable_task(ctx, task_id, "task_id")
    for email in emails:
        _may_work_on(ctx, project, email, "emails")
    return ctx.update(task, followers=tuple(dict.fromkeys([*task.followers, *emails])))


class CommentPosted(BaseModel):
    """A comment and who was notified of it."""

    story: Story = Field(description="The comment.")
    notified: list[Email] = Field(description="E-mails of the followers notified (everyone but the author).")


@service.tool(intent="comment on the task", write=True, example=_example_comment)
def add_comment(ctx: Ctx, task_id: TaskId, author_email: Email, text: Text) -> CommentPosted:
    """Comment on a task; the author becomes a follower and the other followers are notified.

    Args:
        task_id: The task.
        author_email: E-mail of the user commenting (guests only on their company's projects).
        text: The comment.
    """
    task, project = _writable_task(ctx, task_id, "task_id")
    if not text.strip():
        raise RuleViolation("the comment is empty", field="text", hint="write something")
    _may_work_on(ctx, project, author_email, "author_email")
    story = ctx.create(Story, task_id=task.id, author_email=author_email, text=text.strip())
    if author_email not in task.followers:
        ctx.update(task, followers=(*task.followers, author_email))
    else:
        ctx.update(task, modified_at=ctx.now())
    return CommentPosted(story=story, notified=[e for e in task.followers if e != author_email])


@service.tool(intent="approve or reject the approval task", write=True, example=_example_approval)
def set_approval_status(
    ctx: Ctx,
    task_id: TaskId,
    approver_email: Email,
    status: Literal["approved", "rejected", "changes_requested"],
    comment: Text = "",
) -> Task:
    """Decide an approval task; only its assignee may. Approving completes it (its dependencies must be complete).

    Args:
        task_id: The approval task.
        approver_email: E-mail of the assignee deciding.
        status: approved, rejected or changes_requested.
        comment: Optional comment recorded on the task.
    """
    task, _ = _writable_task(ctx, task_id, "task_id")
    if task.resource_subtype != "approval":
        raise RuleViolation(
            f"task {task.name!r} is not an approval",
            field="task_id",
            hint="complete ordinary tasks with projects__set_task_completed",
        )
    if task.completed:
        raise Conflict(f"approval {task.name!r} is already decided", field="task_id", hint="nothing to do")
    if approver_email != task.assignee_email:
        raise RuleViolation(
            f"{approver_email} is not the assignee of the approval ({task.assignee_email})",
            field="approver_email",
            hint="only the assignee decides; reassign the task with projects__update_task",
        )
    if comment.strip():
        ctx.create(Story, task_id=task.id, author_email=approver_email, text=comment.strip())
    task = ctx.update(task, approval_status=status)
    if status == "approved":
        return _complete(ctx, task, approver_email)
    return task


class SectionProgress(BaseModel):
    """Task counts of one section."""

    section_id: SectionId = Field(description="The section.")
    name: str = Field(description="Section name.")
    total: int = Field(description="Top-level tasks in the section.")
    completed: int = Field(description="Of which completed.")


class ProjectProgress(BaseModel):
    """How far a project is."""

    project_id: ProjectId = Field(description="The project.")
    total: int = Field(description="Top-level tasks.")
    completed: int = Field(description="Completed top-level tasks.")
    percent_complete: Percent = Field(description="completed / total × 100 (0 for an empty project).")
    overdue: list[TaskId] = Field(description="Incomplete tasks (and subtasks) due before today.")
    blocked: list[TaskId] = Field(description="Incomplete tasks waiting for an incomplete dependency.")
    sections: list[SectionProgress] = Field(description="Counts per section.")
    next_milestone_due: Date | None = Field(description="Due date of the earliest incomplete milestone.")


@service.tool(intent="report the project's progress")
def project_progress(ctx: Ctx, project_id: ProjectId) -> ProjectProgress:
    """Count a project's tasks per section, and list its overdue and blocked tasks.

    Args:
        project_id: The project.
    """
    project = ctx.get(Project, project_id, field="project_id")
    everything = ctx.where(Task, project_id=project.id)
    top = [t for t in everything if t.parent_id is None]
    done = sum(1 for t in top if t.completed)
    today = ctx.today()
    milestones = sorted(
        t.due_on for t in top if t.resource_subtype == "milestone" and not t.completed and t.due_on is not None
    )
    return ProjectProgress(
        project_id=project.id,
        total=len(top),
        completed=done,
        percent_complete=round(100 * done / len(top), 1) if top else 0.0,
        overdue=[t.id for t in everything if not t.completed and t.due_on is not None and t.due_on < today],
        blocked=[t.id for t in everything if not t.completed and _open_dependencies(ctx, t.id)],
        sections=[
            SectionProgress(
                section_id=s.id,
                name=s.name,
                total=sum(1 for t in top if t.section_id == s.id),
                completed=sum(1 for t in top if t.section_id == s.id and t.completed),
            )
            for s in ctx.where(Section, project_id=project.id)
        ],
        next_milestone_due=milestones[0] if milestones else None,
    )


# -- seed -------------------------------------------------------------------------------------

PLANS: tuple[tuple[str, str, str | None, tuple[str, ...], tuple[tuple[str, str], ...], bool], ...] = (
    (
        "Website Redesign",
        "Marketing",
        None,
        ("Planning", "Design", "Build", "Launch"),
        (
            ("Audit the current site", "default_task"),
            ("Agree on the sitemap", "approval"),
            ("Wireframes", "default_task"),
            ("Visual design", "default_task"),
            ("Build the templates", "default_task"),
            ("Migrate the content", "default_task"),
            ("Go live", "milestone"),
        ),
        False,
    ),
    (
        "Spring Product Launch",
        "Engineering",
        None,
        ("Backlog", "In progress", "Ready"),
        (
            ("Feature freeze", "milestone"),
            ("Fix the release blockers", "default_task"),
            ("Write the release notes", "default_task"),
            ("Sign off the launch", "approval"),
            ("Launch day", "milestone"),
        ),
        False,
    ),
    (
        "Implementation: {client}",
        "Support",
        "client0",
        ("Kickoff", "Configuration", "Training"),
        (
            ("Kickoff meeting", "default_task"),
            ("Collect the client's user list", "default_task"),
            ("Configure the accounts", "default_task"),
            ("Client sign-off on configuration", "approval"),
            ("Train the client's admins", "default_task"),
        ),
        False,
    ),
    (
        "Implementation: {client}",
        "Support",
        "client1",
        ("Kickoff", "Configuration", "Training"),
        (
            ("Kickoff meeting", "default_task"),
            ("Import the client's data", "default_task"),
            ("Train the client's admins", "default_task"),
        ),
        False,
    ),
    (
        "2025 Year-End Close",
        "Finance",
        None,
        ("To do", "Done"),
        (("Reconcile the accounts", "default_task"), ("File the annual report", "default_task")),
        True,
    ),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """One workspace of the home company: staff as members, client contacts as guests, five projects."""
    pop = s.population
    rng = s.rng
    now = s.now
    today = now.date()
    ws = s.create(Workspace, name=pop.home.name, email_domain=pop.home.domain)
    staff = list(pop.employees)
    for k, p in enumerate(staff):
        s.create(User, workspace_id=ws.id, name=p.name, email=p.email, role="admin" if k < 2 else "member")
    clients = [c for c in pop.customers if pop.people_at(c)][:3]
    guests: dict[str, list[str]] = {}
    for c in clients:
        for p in pop.people_at(c)[:2]:
            s.create(User, workspace_id=ws.id, name=p.name, email=p.email, role="guest", company=c.name)
            guests.setdefault(c.name, []).append(p.email)
    for n, (name, dept, client_key, section_names, plan, archived) in enumerate(PLANS):
        client = clients[int(client_key[-1])] if client_key else None
        team = [p.email for p in pop.staff(dept, fallback=4)]
        owner = team[0]
        created = s.ago(days=90 - 10 * n)
        project = s.create(
            Project,
            workspace_id=ws.id,
            name=name.format(client=client.name if client else ""),
            notes=f"Owned by the {dept} team.",
            owner_email=owner,
            client_company=client.name if client else None,
            color=("dark-blue", "dark-green", "dark-orange", "dark-pink", "dark-purple")[n],
            start_on=created.date(),
            due_on=today + dt.timedelta(days=20 + 15 * n) if not archived else today - dt.timedelta(days=30),
            current_status=("on_track", "at_risk", "on_track", "on_hold", "complete")[n],
            archived=archived,
            created_at=created,
        )
        secs = [s.create(Section, project_id=project.id, name=sn) for sn in section_names]
        people = team + (guests.get(client.name, []) if client else [])
        made: list[Task] = []
        for k, (title, subtype) in enumerate(plan):
            done = archived or k < len(plan) // 3
            sec = secs[min(len(secs) - 1, k * len(secs) // len(plan))]
            assignee = people[k % len(people)] if subtype != "milestone" else owner
            if subtype == "approval" and client is not None:
                assignee = guests[client.name][0]
            due = today + dt.timedelta(days=-6 + 5 * k) if subtype != "default_task" or k % 2 == 0 else None
            t_created = created + dt.timedelta(days=k)
            task = s.create(
                Task,
                workspace_id=ws.id,
                project_id=project.id,
                section_id=sec.id,
                name=title,
                notes=f"{title} for {project.name}.",
                resource_subtype=subtype,
                assignee_email=assignee,
                due_on=due,
                followers=tuple(dict.fromkeys([assignee, owner])),
                approval_status=("approved" if done else "pending") if subtype == "approval" else None,
                completed=done,
                completed_at=t_created + dt.timedelta(days=2) if done else None,
                created_at=t_created,
                modified_at=t_created + dt.timedelta(days=2),
            )
            made.append(task)
            if k > 0 and not archived and (subtype != "default_task" or k % 2 == 1):
                s.create(Dependency, task_id=task.id, depends_on_id=made[k - 1].id, created_at=t_created)
            if k % 3 == 1:
                s.create(
                    Story,
                    task_id=task.id,
                    author_email=assignee,
                    text=rng.choice(("Started on this.", "Waiting for feedback.", "Draft is in the shared folder.")),
                    created_at=t_created + dt.timedelta(hours=5),
                )
        host = next((t for t in made if not t.completed and t.resource_subtype == "default_task"), None)
        if host is not None:
            for j, sub in enumerate(("Draft", "Review")):
                s.create(
                    Task,
                    workspace_id=ws.id,
                    project_id=project.id,
                    parent_id=host.id,
                    name=f"{sub}: {host.name}",
                    assignee_email=host.assignee_email,
                    due_on=today + dt.timedelta(days=j * 3 - 2),
                    followers=(host.assignee_email,) if host.assignee_email else (),
                    completed=j == 0,
                    completed_at=s.ago(days=1) if j == 0 else None,
                    created_at=host.created_at,
                    modified_at=host.created_at,
                )
            s.update(host, num_subtasks=2)
