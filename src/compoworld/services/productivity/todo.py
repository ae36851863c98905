"""Checkmark Tasks: the team's to-do lists: projects, sections, tasks with due dates, labels and comments.

Modeled on the Todoist REST API v2 (projects, sections, tasks, comments,
labels; POST /tasks/{id}/close and /reopen). Every user has an Inbox project
that cannot be renamed, deleted or given sub-projects; projects nest at most
three levels and a plan holds at most 300 active projects, 20 sections and 300
open tasks per project. Tasks carry a priority from 1 (normal) to 4 (urgent),
personal labels (created on first use), and a due date that may recur ("every
day", "every weekday", "every 2 weeks", "every! 3 days"). Closing a recurring
task does not complete it: its due date moves to the next occurrence (from the
old due date for "every", from the day of completion for "every!") and its
completed sub-tasks open again; closing any other task completes it with all
its sub-tasks, and reopening a task reopens its completed ancestors. Sub-tasks
nest four levels deep and live in their parent's project and section; tasks
are assigned only in shared projects, to one of the project's collaborators.
A comment belongs to exactly one task or one project.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Text
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "todo",
    title="Checkmark Tasks",
    category="task_management",
    modeled_on="Todoist REST API v2 (projects, sections, tasks with due dates, priorities, labels and recurring "
    "due dates, close and reopen, comments, personal labels)",
    description="Personal and team to-do lists: projects and their sections, tasks with priorities, labels and "
    "(recurring) due dates, sub-tasks, assignments in shared projects, comments, and completing or reopening tasks.",
)

ProjectId = Annotated[str, IdOf("todo.project")]
SectionId = Annotated[str, IdOf("todo.section")]
TaskId = Annotated[str, IdOf("todo.task")]
CommentId = Annotated[str, IdOf("todo.comment")]
LabelId = Annotated[str, IdOf("todo.label")]

Name = Annotated[str, StringConstraints(min_length=1, max_length=120, strip_whitespace=True, pattern=r"\S")]
"""A project's or section's name: 1-120 characters."""
Content = Annotated[str, StringConstraints(min_length=1, max_length=500, strip_whitespace=True, pattern=r"\S")]
"""A task's title: 1-500 characters."""
LabelName = Annotated[str, StringConstraints(pattern=r"^[^\s@,][^@,]{0,59}$")]
"""A label's name: up to 60 characters, no '@' or ',' and no leading space."""
Priority = Annotated[int, Field(ge=1, le=4)]
"""1 (normal) to 4 (urgent; shown as p1 in the apps)."""
Interval = Annotated[int, Field(ge=1, le=365)]
"""How many periods a recurrence skips: 2 for "every 2 weeks"."""
Color = Literal[
    "berry_red",
    "red",
    "orange",
    "yellow",
    "olive_green",
    "lime_green",
    "green",
    "mint_green",
    "teal",
    "sky_blue",
    "light_blue",
    "blue",
    "grape",
    "violet",
    "lavender",
    "magenta",
    "salmon",
    "charcoal",
    "grey",
    "taupe",
]
Recurrence = Literal["none", "daily", "weekdays", "weekly", "monthly", "yearly"]
ViewStyle = Literal["list", "board"]

MAX_PROJECTS = 300
MAX_SECTIONS = 20
MAX_OPEN_TASKS = 300
MAX_PROJECT_DEPTH = 3
"""Levels of projects: a root project, its sub-project and one more."""
MAX_TASK_DEPTH = 5
"""Levels of tasks: a task and four levels of sub-tasks."""
MAX_COMMENT = 15000
UNIT = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"}


class Project(Created):
    """A project: a list of tasks, possibly shared with collaborators."""

    id: ProjectId
    name: Name
    """The project's name."""
    color: Color = "charcoal"
    """Its color in the apps."""
    parent_id: ProjectId | None = None
    """The project it is a sub-project of."""
    order: int = 0
    """Position among its siblings."""
    is_favorite: bool = False
    """Whether it is in the favorites."""
    is_inbox_project: bool = False
    """Whether it is the user's Inbox (cannot be renamed, deleted or nested)."""
    view_style: ViewStyle = "list"
    """list or board."""
    owner_email: Email
    """Who owns it."""
    collaborators: tuple[Email, ...] = ()
    """Who it is shared with (besides the owner); tasks can be assigned only to them and the owner."""


class Section(Created):
    """A section that groups a project's tasks (a column in board view)."""

    id: SectionId
    project_id: ProjectId
    """The project."""
    name: Name
    """The section's name."""
    order: int = 0
    """Position in the project."""


class Task(Timestamped):
    """A task (or sub-task) with its due date, priority and labels."""

    id: TaskId
    project_id: ProjectId
    """The project it is in."""
    section_id: SectionId | None = None
    """The section it is in."""
    parent_id: TaskId | None = None
    """The task it is a sub-task of."""
    content: Content
    """The task's title."""
    description: Text = ""
    """Notes under the title."""
    priority: Priority = 1
    """1 (normal) to 4 (urgent)."""
    labels: tuple[LabelName, ...] = ()
    """Names of its personal labels."""
    due_date: Date | None = None
    """When it is due (the next occurrence, for a recurring task)."""
    due_recurrence: Recurrence = "none"
    """none, daily, weekdays, weekly, monthly or yearly."""
    due_interval: Interval = 1
    """Every how many periods it recurs."""
    due_from_completion: bool = False
    """Whether the next occurrence counts from completion ("every!") instead of from the due date."""
    due_string: str = ""
    """The due date as the apps write it ("every 2 weeks", "2026-03-02")."""
    duration_minutes: Annotated[int, Field(ge=1, le=1440)] | None = None
    """How long it takes."""
    assignee_email: Email | None = None
    """Who it is assigned to (shared projects only)."""
    creator_email: Email
    """Who added it."""
    is_completed: bool = False
    """Whether it is done."""
    completed_at: DateTime | None = None
    """When it was completed."""
    comment_count: int = 0
    """How many comments it has."""
    order: int = 0
    """Position among its siblings."""


class Comment(Record):
    """A comment on a task or on a project."""

    id: CommentId
    task_id: TaskId | None = None
    """The task it is on."""
    project_id: ProjectId | None = None
    """The project it is on (project comments only)."""
    content: Annotated[str, StringConstraints(min_length=1, max_length=MAX_COMMENT)]
    """The comment, in Markdown."""
    posted_by_email: Email
    """Who wrote it."""
    posted_at: Annotated[DateTime, CREATED]
    """When it was posted."""


class Label(Record):
    """A personal label tasks can carry."""

    id: LabelId
    name: LabelName
    """The label's name (unique)."""
    color: Color = "charcoal"
    """Its color."""
    is_favorite: bool = False
    """Whether it is in the favorites."""


class ClosedTask(Value):
    """What closing a task did."""

    task: Task
    """The task after closing."""
    recurred: bool
    """Whether it was recurring (so it stays open with its next due date)."""
    previous_due_date: Date | None
    """Its due date before closing."""
    completed_task_ids: tuple[TaskId, ...]
    """Tasks completed by the call (the task and its open sub-tasks)."""
    reopened_subtask_ids: tuple[TaskId, ...]
    """Sub-tasks opened again because their recurring parent moved on."""


class DeletedProject(Value):
    """What deleting a project removed."""

    project_ids: tuple[ProjectId, ...]
    """The project and its sub-projects."""
    sections: int
    """Sections removed."""
    tasks: int
    """Tasks removed."""
    comments: int
    """Comments removed."""


# -- rules ------------------------------------------------------------------------------------


def _advance(day: dt.date, recurrence: str, interval: int) -> dt.date:
    """The occurrence after ``day``."""
    if recurrence == "daily":
        return day + dt.timedelta(days=interval)
    if recurrence == "weekly":
        return day + dt.timedelta(weeks=interval)
    if recurrence == "monthly":
        return add_months(day, interval)
    if recurrence == "yearly":
        return add_months(day, 12 * interval)
    nxt = day + dt.timedelta(days=1)
    while nxt.weekday() >= 5:
        nxt += dt.timedelta(days=1)
    return nxt


def next_due(task: Task, today: dt.date) -> dt.date:
    """The due date a recurring task moves to when closed on ``today``."""
    assert task.due_date is not None
    if task.due_from_completion:
        return _advance(today, task.due_recurrence, task.due_interval)
    nxt = _advance(task.due_date, task.due_recurrence, task.due_interval)
    while nxt <= today:
        nxt = _advance(nxt, task.due_recurrence, task.due_interval)
    return nxt


def due_string(day: dt.date | None, recurrence: str, interval: int, from_completion: bool) -> str:
    """The due date as the apps write it."""
    if day is None:
        return ""
    if recurrence == "none":
        return day.isoformat()
    every = "every!" if from_completion else "every"
    if recurrence == "weekdays":
        return f"{every} weekday"
    unit = UNIT[recurrence]
    return f"{every} {unit}" if interval == 1 else f"{every} {interval} {unit}s"


def _check_due(recurrence: str, day: dt.date | None, interval: int, field: str = "due_recurrence") -> None:
    if recurrence != "none" and day is None:
        raise RuleViolation(
            "a recurring task needs a due date to count its occurrences from",
            field=field,
            hint="give due_date (the first occurrence) with the recurrence",
        )
    if recurrence == "weekdays" and interval != 1:
        raise RuleViolation(
            "'every weekday' takes no interval", field="due_interval", hint="use due_interval 1, or weekly"
        )


def _check_assignee(ctx: Ctx, project: Project, email: str | None) -> None:
    if email is None:
        return
    if not project.collaborators:
        raise RuleViolation(
            f"project {project.name} is not shared: its tasks cannot be assigned",
            field="assignee_email",
            hint="share the project first, or leave the task unassigned",
        )
    if email != project.owner_email and email not in project.collaborators:
        raise RuleViolation(
            f"{email} is not a collaborator of project {project.name}",
            field="assignee_email",
            hint=f"assign to one of: {', '.join((project.owner_email, *project.collaborators))}",
        )


def _ensure_labels(ctx: Ctx, names: tuple[str, ...]) -> None:
    """Personal labels are created on first use, as the API does."""
    if len(set(names)) != len(names):
        raise RuleViolation("a label is listed twice", field="labels", hint="list each label once")
    for name in names:
        if ctx.first(Label, name=name) is None:
            ctx.create(Label, name=name)


def _depth(ctx: Ctx, task: Task) -> int:
    """The task's level: 1 for a top-level task, 2 for its sub-task, and so on."""
    level = 1
    while task.parent_id is not None:
        task = ctx.get(Task, task.parent_id)
        level += 1
    return level


def _project_depth(ctx: Ctx, project: Project) -> int:
    level = 1
    while project.parent_id is not None:
        project = ctx.get(Project, project.parent_id)
        level += 1
    return level


def _children(ctx: Ctx, task: Task) -> list[Task]:
    return ctx.where(Task, parent_id=task.id)


def _descendants(ctx: Ctx, task: Task) -> list[Task]:
    out: list[Task] = []
    todo = _children(ctx, task)
    while todo:
        child = todo.pop(0)
        out.append(child)
        todo.extend(_children(ctx, child))
    return out


def _open_tasks(ctx: Ctx, project_id: str) -> int:
    return len(ctx.where(Task, project_id=project_id, is_completed=False))


def _section_in(ctx: Ctx, section_id: str | None, project: Project, field: str = "section_id") -> None:
    if section_id is None:
        return
    section = ctx.get(Section, section_id, field=field)
    if section.project_id != project.id:
        raise RuleViolation(
            f"section {section.name} belongs to another project ({section.project_id})",
            field=field,
            hint=f"pick a section of project {project.name}, or leave it out",
        )


# -- guards -----------------------------------------------------------------------------------


def _guard_project_create(ctx: Ctx, new: Any, old: Any) -> None:
    if len(list(ctx.scan(Project))) > MAX_PROJECTS:
        raise RuleViolation(
            f"the plan holds at most {MAX_PROJECTS} active projects",
            field="name",
            hint="delete or archive a project first",
        )
    if new.parent_id is not None:
        parent = ctx.get(Project, new.parent_id, field="parent_id")
        if parent.is_inbox_project:
            raise RuleViolation(
                "the Inbox cannot have sub-projects", field="parent_id", hint="nest it under another project"
            )
        if _project_depth(ctx, parent) >= MAX_PROJECT_DEPTH:
            raise RuleViolation(
                f"projects nest at most {MAX_PROJECT_DEPTH} levels deep",
                field="parent_id",
                hint="choose a parent higher up",
            )
    if new.owner_email in new.collaborators:
        raise RuleViolation(
            "the owner is not listed among the collaborators", field="collaborators", hint="list only the others"
        )
    siblings = ctx.where(Project, parent_id=new.parent_id)
    ctx.update(new, order=max((p.order for p in siblings if p.id != new.id), default=0) + 1)


def _guard_project_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.is_inbox_project and new.name != old.name:
        raise RuleViolation("the Inbox cannot be renamed", field="name", hint="rename another project")


def _guard_section_create(ctx: Ctx, new: Any, old: Any) -> None:
    project = ctx.get(Project, new.project_id, field="project_id")
    existing = [s for s in ctx.where(Section, project_id=project.id) if s.id != new.id]
    if len(existing) >= MAX_SECTIONS:
        raise RuleViolation(
            f"project {project.name} already has {MAX_SECTIONS} sections, the most a project holds",
            field="project_id",
            hint="put the tasks into an existing section, or remove one",
        )
    ctx.update(new, order=max((s.order for s in existing), default=0) + 1)


def _guard_task_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.is_completed:
        raise RuleViolation(
            f"task {old.id} is completed and cannot be edited",
            field="task_id",
            hint="reopen it with todo__reopen_task first",
        )
    _check_due(new.due_recurrence, new.due_date, new.due_interval)
    _check_assignee(ctx, ctx.get(Project, new.project_id), new.assignee_email)
    _ensure_labels(ctx, new.labels)
    ctx.update(new, due_string=due_string(new.due_date, new.due_recurrence, new.due_interval, new.due_from_completion))


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="prj",
    create=("name", "color", "parent_id", "is_favorite", "view_style", "owner_email", "collaborators"),
    get=False,
    filters=("parent_id", "is_favorite", "owner_email", "view_style"),
    search=("name",),
    update=("name", "color", "is_favorite", "view_style"),
    delete=False,
    guard_create=_guard_project_create,
    guard_update=_guard_project_update,
)
sections = service.resource(
    Section,
    name="section",
    plural="sections",
    prefix="sec",
    create=("project_id", "name"),
    get=False,
    filters=("project_id",),
    search=("name",),
    delete=False,
    guard_create=_guard_section_create,
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
        "is_completed",
        "priority",
        "assignee_email",
        "due_date",
        "due_recurrence",
    ),
    search=("content", "description"),
    update=(
        "content",
        "description",
        "priority",
        "labels",
        "due_date",
        "due_recurrence",
        "due_interval",
        "due_from_completion",
        "duration_minutes",
        "assignee_email",
    ),
    delete=False,
    guard_update=_guard_task_update,
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=False,
    get=False,
    filters=("task_id", "project_id", "posted_by_email"),
    search=("content",),
    delete=False,
)
labels = service.resource(
    Label,
    name="label",
    plural="labels",
    prefix="lbl",
    create=("name", "color", "is_favorite"),
    get=False,
    filters=("is_favorite",),
    search=("name",),
    unique=("name",),
    delete=False,
)


# -- examples ---------------------------------------------------------------------------------


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    for section in ctx.scan(Section):
        for task in ctx.where(Task, project_id=section.project_id, parent_id=None, is_completed=False):
            if task.section_id != section.id and task.assignee_email is None:
                return {"task_id": task.id, "section_id": section.id}
    return None


def _example_close(ctx: Ctx) -> dict[str, Any] | None:
    task = ctx.first(Task, is_completed=False, due_recurrence="none")
    return None if task is None else {"task_id": task.id}


def _example_comment(ctx: Ctx) -> dict[str, Any] | None:
    task = ctx.first(Task, is_completed=False)
    if task is None:
        return None
    project = ctx.get(Project, task.project_id)
    return {"task_id": task.id, "content": "Moved the call to Thursday.", "posted_by_email": project.owner_email}


def _example_project(ctx: Ctx) -> dict[str, Any] | None:
    for project in ctx.scan(Project):
        if not project.is_inbox_project and not ctx.where(Project, parent_id=project.id):
            return {"project_id": project.id}
    return None


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    inbox = ctx.first(Project, is_inbox_project=True)
    if inbox is None:
        return None
    return {
        "content": "Renew the office insurance",
        "creator_email": inbox.owner_email,
        "priority": 3,
        "labels": ["errands"],
        "due_date": (ctx.today() + dt.timedelta(days=3)).isoformat(),
    }


# -- tasks ------------------------------------------------------------------------------------


@service.tool(intent="add a task", write=True, example=_example_add)
def add_task(
    ctx: Ctx,
    content: Content,
    creator_email: Email,
    project_id: ProjectId | None = None,
    section_id: SectionId | None = None,
    parent_id: TaskId | None = None,
    description: Text = "",
    priority: Priority = 1,
    labels: list[LabelName] | None = None,
    due_date: Date | None = None,
    due_recurrence: Recurrence = "none",
    due_interval: Interval = 1,
    due_from_completion: bool = False,
    duration_minutes: Annotated[int, Field(ge=1, le=1440)] | None = None,
    assignee_email: Email | None = None,
) -> Task:
    """Add a task; without a project it goes to the Inbox, a sub-task goes to its parent's project and section.

    A section must belong to the project; a parent must be open and not already
    four levels deep; a project holds at most 300 open tasks. A recurring task
    needs its first due date. Tasks are assigned only in shared projects, to a
    collaborator or the owner. Unknown labels are created.

    Args:
        content: The task's title.
        creator_email: Who adds it.
        project_id: The project (default: the Inbox).
        section_id: A section of the project.
        parent_id: The task it is a sub-task of.
        description: Notes.
        priority: 1 (normal) to 4 (urgent).
        labels: Label names.
        due_date: When it is due (the first occurrence of a recurring task).
        due_recurrence: none, daily, weekdays, weekly, monthly or yearly.
        due_interval: Every how many periods ("every 2 weeks": 2).
        due_from_completion: Count the next occurrence from completion ("every!").
        duration_minutes: How long it takes.
        assignee_email: Who does it (shared projects only).
    """
    if parent_id is not None:
        parent = ctx.get(Task, parent_id, field="parent_id")
        if project_id is not None and project_id != parent.project_id:
            raise RuleViolation(
                "a sub-task lives in its parent's project",
                field="project_id",
                hint="leave project_id out, or move the parent first",
            )
        if parent.is_completed:
            raise RuleViolation(
                f"task {parent.id} is completed", field="parent_id", hint="reopen it with todo__reopen_task first"
            )
        if _depth(ctx, parent) >= MAX_TASK_DEPTH:
            raise RuleViolation(
                f"sub-tasks nest at most {MAX_TASK_DEPTH - 1} levels deep",
                field="parent_id",
                hint="add it under a task higher up",
            )
        project = ctx.get(Project, parent.project_id)
        if section_id is not None and section_id != parent.section_id:
            raise RuleViolation(
                "a sub-task lives in its parent's section", field="section_id", hint="leave section_id out"
            )
        section_id = parent.section_id
    elif project_id is not None:
        project = ctx.get(Project, project_id, field="project_id")
    else:
        inbox = ctx.first(Project, is_inbox_project=True)
        if inbox is None:
            raise RuleViolation("there is no Inbox", field="project_id", hint="name a project")
        project = inbox
    _section_in(ctx, section_id, project)
    if _open_tasks(ctx, project.id) >= MAX_OPEN_TASKS:
        raise RuleViolation(
            f"project {project.name} already has {MAX_OPEN_TASKS} open tasks",
            field="project_id",
            hint="complete some tasks or use another project",
        )
    _check_due(due_recurrence, due_date, due_interval)
    _check_assignee(ctx, project, assignee_email)
    names = tuple(labels or ())
    _ensure_labels(ctx, names)
    siblings = ctx.where(Task, project_id=project.id, parent_id=parent_id)
    return ctx.create(
        Task,
        project_id=project.id,
        section_id=section_id,
        parent_id=parent_id,
        content=content,
        description=description,
        priority=priority,
        labels=names,
        due_date=due_date,
        due_recurrence=due_recurrence,
        due_interval=due_interval,
        due_from_completion=due_from_completion,
        due_string=due_string(due_date, due_recurrence, due_interval, due_from_completion),
        duration_minutes=duration_minutes,
        assignee_email=assignee_email,
        creator_email=creator_email,
        order=max((t.order for t in siblings), default=0) + 1,
    )


@service.tool(intent="move the task", write=True, example=_example_move)
def move_task(
    ctx: Ctx,
    task_id: TaskId,
    project_id: ProjectId | None = None,
    section_id: SectionId | None = None,
    parent_id: TaskId | None = None,
) -> Task:
    """Move a task, with its sub-tasks, to a project, a section or under another task (exactly one of them).

    A task cannot go under itself or one of its sub-tasks, nor deeper than four
    sub-task levels; an assignee who does not collaborate on the new project is
    unassigned.

    Args:
        task_id: The task.
        project_id: The project to move it to (top level, no section).
        section_id: The section to move it to (in that section's project).
        parent_id: The task to make it a sub-task of.
    """
    task = ctx.get(Task, task_id, field="task_id")
    given = [n for n, v in (("project_id", project_id), ("section_id", section_id), ("parent_id", parent_id)) if v]
    if len(given) != 1:
        raise RuleViolation(
            "name exactly one destination", field="project_id", hint="give project_id, section_id or parent_id"
        )
    if task.is_completed:
        raise RuleViolation(
            f"task {task.id} is completed", field="task_id", hint="reopen it with todo__reopen_task first"
        )
    moved = _descendants(ctx, task)
    if parent_id is not None:
        parent = ctx.get(Task, parent_id, field="parent_id")
        if parent.id == task.id or parent.id in {t.id for t in moved}:
            raise RuleViolation(
                "a task cannot go under itself or its own sub-task", field="parent_id", hint="choose another parent"
            )
        height = max((_depth(ctx, t) for t in moved), default=_depth(ctx, task)) - _depth(ctx, task) + 1
        if _depth(ctx, parent) + height > MAX_TASK_DEPTH:
            raise RuleViolation(
                f"sub-tasks nest at most {MAX_TASK_DEPTH - 1} levels deep",
                field="parent_id",
                hint="choose a parent higher up",
            )
        target, section, new_parent = ctx.get(Project, parent.project_id), parent.section_id, parent.id
    elif section_id is not None:
        sec = ctx.get(Section, section_id, field="section_id")
        target, section, new_parent = ctx.get(Project, sec.project_id), sec.id, None
    else:
        assert project_id is not None
        target, section, new_parent = ctx.get(Project, project_id, field="project_id"), None, None
    if target.id != task.project_id:
        arriving = 1 + sum(not t.is_completed for t in moved)
        if _open_tasks(ctx, target.id) + arriving > MAX_OPEN_TASKS:
            raise RuleViolation(
                f"project {target.name} would exceed {MAX_OPEN_TASKS} open tasks",
                field=given[0],
                hint="complete some of its tasks first",
            )
    members = {target.owner_email, *target.collaborators} if target.collaborators else set()
    for sub in moved:
        keep = sub.assignee_email if sub.assignee_email in members else None
        ctx.update(sub, project_id=target.id, section_id=section, assignee_email=keep)
    keep = task.assignee_email if task.assignee_email in members else None
    return ctx.update(task, project_id=target.id, section_id=section, parent_id=new_parent, assignee_email=keep)


@service.tool(intent="complete the task", write=True, example=_example_close)
def close_task(ctx: Ctx, task_id: TaskId) -> ClosedTask:
    """Close a task: a recurring one moves to its next due date; any other is completed with its sub-tasks.

    "every" counts the next occurrence from the old due date (skipping those
    already past), "every!" from today; the recurring task's completed sub-tasks
    open again.

    Args:
        task_id: The task.
    """
    task = ctx.get(Task, task_id, field="task_id")
    if task.is_completed:
        raise Conflict(f"task {task.id} is already completed", field="task_id", hint="reopen it to work on it again")
    subs = _descendants(ctx, task)
    if task.due_recurrence != "none" and task.due_date is not None:
        nxt = next_due(task, ctx.today())
        reopened = tuple(s.id for s in subs if s.is_completed)
        for s in subs:
            if s.is_completed:
                ctx.update(s, is_completed=False, completed_at=None)
        moved = ctx.update(
            task,
            due_date=nxt,
            due_string=due_string(nxt, task.due_recurrence, task.due_interval, task.due_from_completion),
        )
        return ClosedTask(
            task=moved,
            recurred=True,
            previous_due_date=task.due_date,
            completed_task_ids=(),
            reopened_subtask_ids=reopened,
        )
    now = ctx.now()
    done = [task.id]
    for s in subs:
        if not s.is_completed:
            ctx.update(s, is_completed=True, completed_at=now)
            done.append(s.id)
    closed = ctx.update(task, is_completed=True, completed_at=now)
    return ClosedTask(
        task=closed,
        recurred=False,
        previous_due_date=task.due_date,
        completed_task_ids=tuple(done),
        reopened_subtask_ids=(),
    )


@service.tool(
    intent="reopen the task",
    write=True,
    example=first_example(Task, "task_id", where={"is_completed": True}),
)
def reopen_task(ctx: Ctx, task_id: TaskId) -> Task:
    """Reopen a completed task; its completed parent tasks open again too (a sub-task cannot be open under a done task).

    Args:
        task_id: The task.
    """
    task = ctx.get(Task, task_id, field="task_id")
    if not task.is_completed:
        raise Conflict(f"task {task.id} is not completed", field="task_id", hint="nothing to reopen")
    if _open_tasks(ctx, task.project_id) >= MAX_OPEN_TASKS:
        raise RuleViolation(
            f"its project already has {MAX_OPEN_TASKS} open tasks",
            field="task_id",
            hint="complete other tasks of the project first",
        )
    up = task
    while up.parent_id is not None:
        up = ctx.get(Task, up.parent_id)
        if up.is_completed:
            ctx.update(up, is_completed=False, completed_at=None)
    return ctx.update(task, is_completed=False, completed_at=None)


@service.tool(
    intent="list the tasks due in a view",
    example=fixed_example(view="overdue"),
)
def filter_tasks(
    ctx: Ctx,
    view: Literal["today", "overdue", "next_7_days", "no_date"],
    label: LabelName | None = None,
    assignee_email: Email | None = None,
    min_priority: Priority = 1,
) -> list[Task]:
    """Open tasks of a view, as the apps' filters show them, most urgent first, then by due date.

    today: due today or earlier; overdue: due before today; next_7_days: due
    within the coming week (today included); no_date: without a due date.

    Args:
        view: today, overdue, next_7_days or no_date.
        label: Only tasks with this label.
        assignee_email: Only tasks assigned to this person.
        min_priority: Only tasks of at least this priority.
    """
    today = ctx.today()

    def shown(t: Task) -> bool:
        d = t.due_date
        if view == "no_date":
            return d is None
        if d is None:
            return False
        if view == "today":
            return d <= today
        if view == "overdue":
            return d < today
        return today <= d <= today + dt.timedelta(days=6)

    found = [
        t
        for t in ctx.where(Task, is_completed=False)
        if shown(t)
        and (label is None or label in t.labels)
        and (assignee_email is None or t.assignee_email == assignee_email)
        and t.priority >= min_priority
    ]
    return sorted(found, key=lambda t: (-t.priority, t.due_date or dt.date.max, t.id))


# -- comments and projects --------------------------------------------------------------------


@service.tool(intent="comment on the task or project", write=True, example=_example_comment)
def add_comment(
    ctx: Ctx,
    content: Annotated[str, StringConstraints(min_length=1, max_length=MAX_COMMENT)],
    posted_by_email: Email,
    task_id: TaskId | None = None,
    project_id: ProjectId | None = None,
) -> Comment:
    """Comment on a task or on a project (exactly one of them).

    Args:
        content: The comment, in Markdown (at most 15000 characters).
        posted_by_email: Who writes it.
        task_id: The task.
        project_id: The project.
    """
    if (task_id is None) == (project_id is None):
        raise RuleViolation(
            "a comment belongs to exactly one task or one project",
            field="task_id",
            hint="give task_id or project_id, not both",
        )
    if not content.strip():
        raise RuleViolation("the comment is empty", field="content", hint="write something")
    if task_id is not None:
        task = ctx.get(Task, task_id, field="task_id")
        ctx.update(task, comment_count=task.comment_count + 1)
    else:
        assert project_id is not None
        ctx.get(Project, project_id, field="project_id")
    return ctx.create(Comment, task_id=task_id, project_id=project_id, content=content, posted_by_email=posted_by_email)


@service.tool(intent="delete the project", write=True, destructive=True, example=_example_project)
def delete_project(ctx: Ctx, project_id: ProjectId) -> DeletedProject:
    """Delete a project with its sub-projects, sections, tasks and comments; the Inbox cannot be deleted.

    Args:
        project_id: The project.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if project.is_inbox_project:
        raise RuleViolation("the Inbox cannot be deleted", field="project_id", hint="delete its tasks instead")
    doomed = [project]
    k = 0
    while k < len(doomed):
        doomed.extend(ctx.where(Project, parent_id=doomed[k].id))
        k += 1
    n_sections = n_tasks = n_comments = 0
    for p in doomed:
        for c in ctx.where(Comment, project_id=p.id):
            ctx.delete(c)
            n_comments += 1
        for t in ctx.where(Task, project_id=p.id):
            for c in ctx.where(Comment, task_id=t.id):
                ctx.delete(c)
                n_comments += 1
            ctx.delete(t)
            n_tasks += 1
        for s in ctx.where(Section, project_id=p.id):
            ctx.delete(s)
            n_sections += 1
    for p in reversed(doomed):
        ctx.delete(p)
    return DeletedProject(
        project_ids=tuple(p.id for p in doomed), sections=n_sections, tasks=n_tasks, comments=n_comments
    )


# -- seed -------------------------------------------------------------------------------------

# (content, recurrence, interval, from completion, due in days, priority, labels)
ROUTINES: tuple[tuple[str, Recurrence, int, bool, int, int, tuple[str, ...]], ...] = (
    ("Send the weekly status report", "weekly", 1, False, -2, 3, ("reports",)),
    ("Check the shared support inbox", "weekdays", 1, False, 0, 2, ()),
    ("Pay the office rent", "monthly", 1, False, 5, 4, ("finance",)),
    ("Water the office plants", "daily", 3, True, -1, 1, ("errands",)),
    ("Review the expense reports", "weekly", 2, False, 3, 2, ("finance",)),
    ("Renew the domain names", "yearly", 1, False, 40, 3, ("finance",)),
)
CLIENT_STEPS = (
    ("Kickoff call with {contact}", 4, ("calls",)),
    ("Send the welcome pack to {company}", 2, ("waiting",)),
    ("Set up {company}'s account", 3, ()),
    ("Agree the first invoice date with {contact}", 1, ("finance", "calls")),
)
LAUNCH = (
    ("Draft the launch announcement", 3, ("deep_work",)),
    ("Brief the support team", 2, ()),
    ("Update the pricing page", 4, ("urgent",)),
    ("Record the demo video", 1, ()),
    ("Book the launch webinar", 2, ("calls",)),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """An Inbox, shared team projects, client onboarding per customer, routines, sub-tasks, labels, comments."""
    pop = s.population
    staff = list(pop.employees)
    me = staff[0]
    for name, color in (
        ("calls", "blue"),
        ("errands", "green"),
        ("finance", "teal"),
        ("reports", "grape"),
        ("waiting", "grey"),
        ("deep_work", "violet"),
        ("urgent", "red"),
    ):
        s.create(Label, name=name, color=color, is_favorite=name in ("urgent", "calls"))
    team = tuple(p.email for p in staff[1:5])
    sales = [p for p in pop.staff("Sales", fallback=4) if p.email != me.email] or staff[1:3]
    inbox = _project(s, "Inbox", me.email, (), order=0, inbox=True)
    ops = _project(s, "Team operations", me.email, team, order=1, color="blue", favorite=True)
    onboarding = _project(
        s, "Client onboarding", me.email, tuple(p.email for p in sales[:3]), order=2, color="orange", view="board"
    )
    marketing = _project(s, "Marketing", me.email, team[:2], order=3, color="magenta")
    launch = _project(s, "Spring launch", me.email, team[:2], order=1, color="salmon", parent=marketing.id)
    _project(s, "Launch assets", me.email, (), order=1, color="lavender", parent=launch.id)
    _project(s, "Reading list", me.email, (), order=4, color="taupe")
    today = s.now.date()
    for k, (content, rec, interval, bang, days, prio, tags) in enumerate(ROUTINES):
        project = inbox if k % 2 else ops
        task = _task(
            s,
            project,
            content,
            me.email,
            k,
            priority=prio,
            labels=tags,
            due=today + dt.timedelta(days=days),
            recurrence=rec,
            interval=interval,
            bang=bang,
            assignee=team[k % len(team)] if project is ops and team else None,
        )
        if k == 0:
            for j, step in enumerate(("Collect the numbers", "Write the summary")):
                _task(s, project, step, me.email, j, parent=task, done=j == 0)
    errands: tuple[tuple[str, int | None], ...] = (
        ("Call the insurance broker", -3),
        ("Buy printer toner", 1),
        ("Book the team offsite venue", None),
    )
    for k, (text, offset) in enumerate(errands):
        due = None if offset is None else today + dt.timedelta(days=offset)
        _task(s, inbox, text, me.email, 10 + k, due=due, priority=3 if k == 0 else 1, labels=("errands",))
    for c, company in enumerate(pop.customers[:5]):
        section = s.create(Section, project_id=onboarding.id, name=company.name, order=c + 1)
        contact = pop.first_contact(company)
        who = contact.name if contact else company.name
        owner = sales[c % len(sales)].email if sales else None
        for k, (pattern, prio, tags) in enumerate(CLIENT_STEPS):
            _task(
                s,
                onboarding,
                pattern.format(contact=who, company=company.name),
                me.email,
                k,
                section=section,
                priority=prio,
                labels=tags,
                due=today + dt.timedelta(days=7 * c + 2 * k - 6),
                assignee=owner if owner in onboarding.collaborators else None,
                done=k < c % 3,
                description=f"Client: {company.name} ({company.domain})"
                + (f", contact {contact.email}" if contact else ""),
            )
    for k, (content, prio, tags) in enumerate(LAUNCH):
        parent = _task(
            s, launch, content, me.email, k, priority=prio, labels=tags, due=today + dt.timedelta(days=3 + k)
        )
        if k == 0:
            child = _task(s, launch, "Collect quotes from customers", me.email, 0, parent=parent)
            grand = _task(s, launch, "Ask the account managers", me.email, 0, parent=child)
            great = _task(s, launch, "List the happiest accounts", me.email, 0, parent=grand)
            _task(s, launch, "Export the NPS scores", me.email, 0, parent=great)
    for k, task in enumerate(s.records(Task)[:12:3]):
        author = team[k % len(team)] if team else me.email
        s.create(
            Comment,
            task_id=task.id,
            content=("Started on this.", "Waiting for the numbers from finance.", "Done my part.", "Any update?")[k],
            posted_by_email=author,
            posted_at=s.now - dt.timedelta(hours=5 * (k + 1)),
        )
        s.update(task, comment_count=task.comment_count + 1)
    s.create(
        Comment,
        project_id=onboarding.id,
        content="Every new client gets a kickoff call within a week of signing.",
        posted_by_email=me.email,
        posted_at=s.now - dt.timedelta(days=20),
    )


def _project(
    s: SeedContext,
    name: str,
    owner: str,
    collaborators: tuple[str, ...],
    *,
    order: int,
    inbox: bool = False,
    color: str = "charcoal",
    favorite: bool = False,
    view: str = "list",
    parent: str | None = None,
) -> Project:
    return s.create(
        Project,
        name=name,
        owner_email=owner,
        collaborators=tuple(c for c in collaborators if c != owner),
        order=order,
        is_inbox_project=inbox,
        color=color,
        is_favorite=favorite,
        view_style=view,
        parent_id=parent,
        created_at=s.now - dt.timedelta(days=90 - 10 * order),
    )


def _task(
    s: SeedContext,
    project: Project,
    content: str,
    creator: str,
    order: int,
    *,
    section: Section | None = None,
    parent: Task | None = None,
    priority: int = 1,
    labels: tuple[str, ...] = (),
    due: dt.date | None = None,
    recurrence: str = "none",
    interval: int = 1,
    bang: bool = False,
    assignee: str | None = None,
    done: bool = False,
    description: str = "",
) -> Task:
    created = s.now - dt.timedelta(days=30 - order)
    return s.create(
        Task,
        project_id=project.id,
        section_id=parent.section_id if parent else (section.id if section else None),
        parent_id=parent.id if parent else None,
        content=content,
        description=description,
        priority=priority,
        labels=labels,
        due_date=due,
        due_recurrence=recurrence,
        due_interval=interval,
        due_from_completion=bang,
        due_string=due_string(due, recurrence, interval, bang),
        assignee_email=assignee,
        creator_email=creator,
        is_completed=done,
        completed_at=s.now - dt.timedelta(days=1) if done else None,
        order=order + 1,
        created_at=created,
        updated_at=created,
    )
