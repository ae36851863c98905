"""Keystone Tracker: projects, issues, a review workflow, sprints, comments, worklogs and issue links.

Modeled on the Jira Cloud REST API v3 and the Jira Software Agile API (Project,
Project Role actors, Issue with keys like ``ENG-12``, issue types epic > story/
task/bug > subtask, Transitions, Sprint, Comment, Worklog, Issue Link): issues
move through the workflow To Do → In Progress → In Review → Done by allowed
transitions only; Done needs an assignee, done subtasks and no unresolved
blockers; only project members can be assigned; a project has at most one
active sprint, and closed sprints take no more issues.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "tracker",
    title="Keystone Tracker",
    category="project_tracking",
    modeled_on="Jira Cloud REST API v3 and Jira Software Agile API 1.0 (Project, Project Role actors, "
    "Issue, IssueType, Transitions, Sprint, Comment, Worklog, IssueLink)",
    description="Project and issue tracking for the company's teams: projects with members, epics, "
    "stories, tasks, bugs and subtasks moving through a review workflow, sprints, comments, "
    "logged work and links between issues.",
)

ProjectId = Annotated[str, IdOf("tracker.project")]
IssueId = Annotated[str, IdOf("tracker.issue")]
SprintId = Annotated[str, IdOf("tracker.sprint")]

ProjectKey = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9]{1,9}$")]
IssueKey = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9]{1,9}-[1-9][0-9]{0,6}$")]
IssueKeyQuery = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9]{1,9}-[1-9][0-9]{0,6}$")]
Name = Annotated[str, StringConstraints(min_length=1, max_length=120, strip_whitespace=True)]
Label = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.\-]{1,60}$")]

IssueType = Literal["epic", "story", "task", "bug", "subtask"]
IssueStatus = Literal["to_do", "in_progress", "in_review", "done"]
Priority = Literal["highest", "high", "medium", "low", "lowest"]
Resolution = Literal["done", "wont_do", "duplicate", "cannot_reproduce"]
ProjectRole = Literal["administrator", "member", "viewer"]
SprintState = Literal["future", "active", "closed"]
LinkType = Literal["blocks", "relates", "duplicates", "clones"]

WORKFLOW: dict[str, tuple[tuple[str, str], ...]] = {
    "to_do": (("Start progress", "in_progress"), ("Close without review", "done")),
    "in_progress": (("Submit for review", "in_review"), ("Stop progress", "to_do"), ("Close without review", "done")),
    "in_review": (("Approve", "done"), ("Request changes", "in_progress")),
    "done": (("Reopen", "to_do"),),
}
"""Allowed transitions by current status: (transition name, target status)."""

MAX_SPRINT_MOVE = 50
ESTIMABLE: tuple[str, ...] = ("story", "task", "bug")


class Project(Created):
    """A team's project: the container of its issues, members and sprints."""

    id: ProjectId
    key: ProjectKey
    """Short upper-case key that prefixes issue keys (ENG gives ENG-1, ENG-2 …); unique."""
    name: Name
    """Project name; unique."""
    project_type: Literal["software", "business"] = "software"
    """software projects plan work in sprints; business projects track tasks without sprints."""
    lead_email: Email
    """E-mail of the project lead, an employee; the lead can always be assigned issues."""
    description: Text = ""
    """What the project is about."""
    archived: bool = False
    """Archived projects are read-only: no new issues, edits, comments or work logs."""
    last_issue_number: Quantity = 0
    """Number of the last issue created in the project; issue numbers are never reused."""


class ProjectMember(Record):
    """An employee's role in a project (administrator, member or viewer)."""

    id: Annotated[str, IdOf("tracker.project_member")]
    project_id: ProjectId
    """The project."""
    email: Email
    """E-mail of the employee."""
    role: ProjectRole = "member"
    """administrator and member can create, be assigned and log work; viewer can only read and comment."""
    created_at: Annotated[DateTime, CREATED]
    """When the employee joined the project."""


class Sprint(Created):
    """A time-boxed iteration of a software project; future, then active, then closed."""

    id: SprintId
    project_id: ProjectId
    """The project the sprint plans."""
    name: Name
    """Sprint name."""
    goal: Text = ""
    """What the sprint should achieve."""
    state: SprintState = "future"
    """future (planned), active (started; one per project) or closed (completed, history)."""
    start_date: Date | None = None
    """First day."""
    end_date: Date | None = None
    """Planned last day."""
    completed_at: DateTime | None = None
    """When the sprint was completed."""


class Issue(Timestamped):
    """A unit of work: an epic, story, task, bug or subtask."""

    id: IssueId
    key: IssueKey
    """Human key, project key and number (ENG-12); unique and never reused."""
    project_id: ProjectId
    """The project."""
    issue_type: IssueType
    """epic (groups stories), story, task, bug, or subtask (part of a story/task/bug)."""
    summary: Title
    """One-line summary."""
    description: Text = ""
    """Details."""
    status: IssueStatus = "to_do"
    """Workflow status: to_do, in_progress, in_review or done; changed only by transitions."""
    priority: Priority = "medium"
    """highest, high, medium, low or lowest."""
    reporter_email: Email
    """E-mail of the employee who reported it."""
    assignee_email: Email | None = None
    """E-mail of the employee working on it; required to reach done."""
    parent_id: IssueId | None = None
    """The epic of a story/task/bug, or the parent issue of a subtask."""
    sprint_id: SprintId | None = None
    """The sprint it is planned in; null means the backlog. Subtasks follow their parent."""
    story_points: Quantity | None = None
    """Estimate in story points (stories, tasks and bugs only)."""
    original_estimate_minutes: Quantity | None = None
    """Original time estimate in minutes."""
    labels: tuple[Label, ...] = ()
    """Labels (no spaces)."""
    due_date: Date | None = None
    """When it is due."""
    resolution: Resolution | None = None
    """How a done issue was resolved; null while unresolved."""
    resolved_at: DateTime | None = None
    """When it reached done."""


class IssueComment(Record):
    """A comment on an issue."""

    id: Annotated[str, IdOf("tracker.comment")]
    issue_id: IssueId
    """The issue."""
    author_email: Email
    """E-mail of the project member who wrote it."""
    body: Text
    """The comment."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it was last edited."""


class Worklog(Record):
    """Time an employee logged working on an issue."""

    id: Annotated[str, IdOf("tracker.worklog")]
    issue_id: IssueId
    """The issue."""
    author_email: Email
    """E-mail of the member who did the work."""
    started: DateTime
    """When the work started; not in the future."""
    time_spent_minutes: Quantity
    """Minutes worked, 1 to 1440."""
    comment: Text = ""
    """What was done."""
    created_at: Annotated[DateTime, CREATED]
    """When it was logged."""


class IssueLink(Created):
    """A directed link between two issues ("ENG-3 blocks ENG-7")."""

    id: Annotated[str, IdOf("tracker.issue_link")]
    link_type: LinkType
    """blocks, relates, duplicates or clones."""
    outward_issue_id: IssueId
    """The issue that blocks, duplicates or clones the other (for relates, either)."""
    inward_issue_id: IssueId
    """The issue that is blocked, duplicated or cloned."""


# -- rules --------------------------------------------------------------------------------


def _employee_emails(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _require_employee(ctx: Ctx, email: str, field: str) -> None:
    if email not in _employee_emails(ctx):
        raise RuleViolation(
            f"{email} is not an employee of {ctx.population.home.name}",
            field=field,
            hint="use the work e-mail of an employee (tracker users are the company's staff)",
        )


def _role_in(ctx: Ctx, project: Project, email: str) -> str | None:
    if email == project.lead_email:
        return "administrator"
    member = ctx.first(ProjectMember, project_id=project.id, email=email)
    return member.role if member else None


def _require_role(ctx: Ctx, project: Project, email: str, field: str, *, can_write: bool, what: str) -> None:
    role = _role_in(ctx, project, email)
    if role is None or (can_write and role == "viewer"):
        why = "is not a member of" if role is None else "is only a viewer of"
        raise RuleViolation(
            f"{email} {why} project {project.key} and cannot {what}",
            field=field,
            hint=f"pick a member of {project.key} (list project members) or add them with tracker__create_project_member",
        )


def _writable_project(ctx: Ctx, project_id: str, field: str = "issue_id") -> Project:
    project = ctx.get(Project, project_id, field=field)
    if project.archived:
        raise RuleViolation(
            f"project {project.key} is archived and read-only",
            field=field,
            hint="restore the project with tracker__restore_project first",
        )
    return project


def _check_parent(ctx: Ctx, issue_type: str, parent_id: str | None, project_id: str, self_id: str | None) -> None:
    if issue_type == "subtask" and parent_id is None:
        raise RuleViolation(
            "a subtask needs a parent issue", field="parent_id", hint="pass the story, task or bug it belongs to"
        )
    if parent_id is None:
        return
    if issue_type == "epic":
        raise RuleViolation("an epic cannot have a parent", field="parent_id", hint="leave parent_id empty for epics")
    if parent_id == self_id:
        raise RuleViolation(
            "an issue cannot be its own parent", field="parent_id", hint="pick another issue as the parent"
        )
    parent = ctx.get(Issue, parent_id, field="parent_id")
    if parent.project_id != project_id:
        raise RuleViolation(
            f"parent {parent.key} is in another project", field="parent_id", hint="pick a parent in the same project"
        )
    if issue_type == "subtask" and parent.issue_type not in ESTIMABLE:
        raise RuleViolation(
            f"{parent.key} is a {parent.issue_type}; subtasks belong to a story, task or bug",
            field="parent_id",
            hint="pick a story, task or bug as the parent",
        )
    if issue_type != "subtask" and parent.issue_type != "epic":
        raise RuleViolation(
            f"{parent.key} is a {parent.issue_type}; a {issue_type}'s parent must be an epic",
            field="parent_id",
            hint="pick an epic (list issues with issue_type='epic'), or create a subtask instead",
        )


def _check_points(issue_type: str, story_points: int | None) -> None:
    if story_points is not None and issue_type not in ESTIMABLE:
        raise RuleViolation(
            f"a {issue_type} has no story points",
            field="story_points",
            hint="estimate the parent story, task or bug instead",
        )


def _guard_project_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.archived and new.archived:
        raise RuleViolation(
            f"project {old.key} is archived and read-only",
            field="project_id",
            hint="restore the project with tracker__restore_project first",
        )
    _require_employee(ctx, new.lead_email, "lead_email")


def _guard_member(ctx: Ctx, new: Any, old: Any) -> None:
    _writable_project(ctx, new.project_id, "project_id" if old is None else "project_member_id")
    if old is None:
        _require_employee(ctx, new.email, "email")
        if len(ctx.where(ProjectMember, project_id=new.project_id, email=new.email)) > 1:
            raise Conflict(
                f"{new.email} is already a member of the project",
                field="email",
                hint="change their role with tracker__update_project_member",
            )
    elif new.role == "viewer" and old.role != "viewer":
        _check_no_open_work(ctx, old, "role")


def _check_no_open_work(ctx: Ctx, member: ProjectMember, field: str) -> None:
    project = ctx.get(Project, member.project_id)
    if member.email == project.lead_email:
        return
    busy = [
        i.key for i in ctx.where(Issue, assignee_email=member.email, project_id=member.project_id) if i.status != "done"
    ]
    if busy:
        raise RuleViolation(
            f"{member.email} still has {len(busy)} unresolved issue(s) assigned in {project.key} ({', '.join(busy[:5])})",
            field=field,
            hint="reassign them with tracker__assign_issue first",
        )


def _guard_member_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _writable_project(ctx, old.project_id, "project_member_id")
    _check_no_open_work(ctx, old, "project_member_id")


def _guard_sprint(ctx: Ctx, new: Any, old: Any) -> None:
    project = _writable_project(ctx, new.project_id, "project_id" if old is None else "sprint_id")
    if old is None and project.project_type != "software":
        raise RuleViolation(
            f"project {project.key} is a business project; only software projects have sprints",
            field="project_id",
            hint="plan business work with due dates instead",
        )
    if old is not None and old.state == "closed":
        raise RuleViolation(
            f"sprint {old.name} is closed and cannot be changed",
            field="sprint_id",
            hint="closed sprints are history; plan a new sprint instead",
        )
    if new.start_date and new.end_date and new.end_date <= new.start_date:
        raise RuleViolation(
            "the sprint must end after it starts", field="end_date", hint="pick an end date after the start date"
        )


def _guard_issue_update(ctx: Ctx, new: Any, old: Any) -> None:
    _writable_project(ctx, new.project_id)
    _check_points(new.issue_type, new.story_points)
    if new.parent_id != old.parent_id:
        _check_parent(ctx, new.issue_type, new.parent_id, new.project_id, new.id)


def _issue_of(ctx: Ctx, issue_id: str) -> Issue:
    return ctx.get(Issue, issue_id, field="issue_id")


def _guard_comment(ctx: Ctx, new: Any, old: Any) -> None:
    issue = _issue_of(ctx, new.issue_id)
    project = _writable_project(ctx, issue.project_id, "issue_id" if old is None else "comment_id")
    if not new.body.strip():
        raise RuleViolation("the comment must not be empty", field="body", hint="write something")
    if old is None:
        _require_role(ctx, project, new.author_email, "author_email", can_write=False, what="comment")


def _guard_comment_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _writable_project(ctx, _issue_of(ctx, old.issue_id).project_id, "comment_id")


def _guard_worklog(ctx: Ctx, new: Any, old: Any) -> None:
    issue = _issue_of(ctx, new.issue_id)
    project = _writable_project(ctx, issue.project_id, "issue_id" if old is None else "worklog_id")
    if not 1 <= new.time_spent_minutes <= 1440:
        raise RuleViolation(
            f"time spent must be 1 to 1440 minutes, not {new.time_spent_minutes}",
            field="time_spent_minutes",
            hint="log each day's work separately",
        )
    if new.started > ctx.now():
        raise RuleViolation(
            "work cannot be logged in the future", field="started", hint="use the time the work actually started"
        )
    if old is None:
        _require_role(ctx, project, new.author_email, "author_email", can_write=True, what="log work")


def _guard_worklog_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _writable_project(ctx, _issue_of(ctx, old.issue_id).project_id, "worklog_id")


def _blocks_path(ctx: Ctx, start: str, goal: str) -> bool:
    """Whether ``start`` already blocks ``goal`` through a chain of blocks links."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        cur = todo.pop()
        if cur == goal:
            return True
        if cur in seen:
            continue
        seen.add(cur)
        todo.extend(link.inward_issue_id for link in ctx.where(IssueLink, outward_issue_id=cur, link_type="blocks"))
    return False


def _guard_link(ctx: Ctx, new: Any, old: Any) -> None:
    if new.outward_issue_id == new.inward_issue_id:
        raise RuleViolation("an issue cannot be linked to itself", field="inward_issue_id", hint="pick another issue")
    for pname in ("outward_issue_id", "inward_issue_id"):
        _writable_project(ctx, _issue_of(ctx, getattr(new, pname)).project_id, pname)
    same = [
        link
        for link in ctx.where(IssueLink, outward_issue_id=new.outward_issue_id, inward_issue_id=new.inward_issue_id)
        if link.link_type == new.link_type and link.id != new.id
    ]
    if new.link_type in ("relates", "duplicates"):
        same += [
            link
            for link in ctx.where(IssueLink, outward_issue_id=new.inward_issue_id, inward_issue_id=new.outward_issue_id)
            if link.link_type == new.link_type
        ]
    if same:
        raise Conflict(
            f"these issues are already linked ({new.link_type}, {same[0].id})",
            field="inward_issue_id",
            hint="nothing to do; list issue links to check",
        )
    if new.link_type == "blocks" and _blocks_path(ctx, new.inward_issue_id, new.outward_issue_id):
        raise RuleViolation(
            "this link would make a blocking cycle",
            field="inward_issue_id",
            hint="the other issue already blocks this one (directly or through others); remove that link first",
        )


def _guard_link_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _writable_project(ctx, _issue_of(ctx, old.outward_issue_id).project_id, "issue_link_id")


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="prj",
    create=False,
    filters=("key", "project_type", "lead_email", "archived"),
    search=("key", "name", "description"),
    update=("name", "lead_email", "description"),
    delete=False,
    transitions={
        "archive": Transition("archived", (False,), True, "archive the project"),
        "restore": Transition("archived", (True,), False, "restore the archived project"),
    },
    unique=("key", "name"),
    guard_update=_guard_project_update,
)
members = service.resource(
    ProjectMember,
    name="project_member",
    plural="project_members",
    prefix="pm",
    create=("project_id", "email", "role"),
    filters=("project_id", "email", "role"),
    search=("email",),
    update=("role",),
    guard_create=_guard_member,
    guard_update=_guard_member,
    guard_delete=_guard_member_delete,
    title="project member",
)
sprints = service.resource(
    Sprint,
    name="sprint",
    plural="sprints",
    prefix="spr",
    create=("project_id", "name", "goal", "start_date", "end_date"),
    filters=("project_id", "state"),
    search=("name", "goal"),
    update=("name", "goal", "start_date", "end_date"),
    delete=False,
    guard_create=_guard_sprint,
    guard_update=_guard_sprint,
)
issues = service.resource(
    Issue,
    name="issue",
    plural="issues",
    prefix="iss",
    create=False,
    filters=(
        "project_id",
        "key",
        "issue_type",
        "status",
        "priority",
        "assignee_email",
        "reporter_email",
        "parent_id",
        "sprint_id",
        "resolution",
    ),
    search=("key", "summary", "description"),
    update=(
        "summary",
        "description",
        "priority",
        "parent_id",
        "story_points",
        "original_estimate_minutes",
        "labels",
        "due_date",
    ),
    delete=False,
    guard_update=_guard_issue_update,
)
issue_comments = service.resource(
    IssueComment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=("issue_id", "author_email", "body"),
    filters=("issue_id", "author_email"),
    search=("body",),
    update=("body",),
    guard_create=_guard_comment,
    guard_update=_guard_comment,
    guard_delete=_guard_comment_delete,
    title="issue comment",
)
worklogs = service.resource(
    Worklog,
    name="worklog",
    plural="worklogs",
    prefix="wl",
    create=("issue_id", "author_email", "started", "time_spent_minutes", "comment"),
    filters=("issue_id", "author_email"),
    search=("comment",),
    update=("started", "time_spent_minutes", "comment"),
    guard_create=_guard_worklog,
    guard_update=_guard_worklog,
    guard_delete=_guard_worklog_delete,
    title="work log",
)
links = service.resource(
    IssueLink,
    name="issue_link",
    plural="issue_links",
    prefix="lnk",
    filters=("link_type", "outward_issue_id", "inward_issue_id"),
    guard_create=_guard_link,
    guard_delete=_guard_link_delete,
    title="issue link",
)


# -- projects -----------------------------------------------------------------------------


def _example_create_project(ctx: Ctx) -> dict[str, Any]:
    lead = ctx.population.employees[0]
    return {
        "key": "DATA",
        "name": "Data Warehouse",
        "project_type": "software",
        "lead_email": lead.email,
        "description": "Reporting and analytics pipelines.",
    }


@service.tool(intent="create a project", write=True, example=_example_create_project)
def create_project(
    ctx: Ctx,
    key: ProjectKey,
    name: Name,
    lead_email: Email,
    project_type: Literal["software", "business"] = "software",
    description: Text = "",
) -> Project:
    """Create a project led by an employee, who becomes its first administrator.

    The key (2 to 10 upper-case letters and digits, starting with a letter)
    prefixes every issue key and must be unique, as must the name.

    Args:
        key: Project key, e.g. ENG.
        name: Project name.
        lead_email: Work e-mail of the project lead, an employee.
        project_type: software (plans in sprints) or business.
        description: What the project is about.
    """
    _require_employee(ctx, lead_email, "lead_email")
    project = ctx.create(
        Project, key=key, name=name, lead_email=lead_email, project_type=project_type, description=description
    )
    ctx.create(ProjectMember, project_id=project.id, email=lead_email, role="administrator")
    return project


# -- workflow -----------------------------------------------------------------------------


def _done_blockers(ctx: Ctx, issue: Issue, to_status: str, resolution: str | None) -> RuleViolation | None:
    """Why ``issue`` cannot move to ``to_status`` now, as the error to raise (None when it can)."""
    if to_status != "done":
        return None
    if issue.assignee_email is None:
        return RuleViolation(
            f"{issue.key} has no assignee; an issue needs an assignee to be done",
            field="issue_id",
            hint="assign it with tracker__assign_issue first",
        )
    if issue.status != "in_review" and resolution in (None, "done"):
        return RuleViolation(
            f"{issue.key} has not been reviewed; closing it from {issue.status} needs a resolution other than done",
            field="resolution",
            hint="move it through in_review first, or pass resolution wont_do, duplicate or cannot_reproduce",
        )
    open_subtasks = [s.key for s in ctx.where(Issue, parent_id=issue.id, issue_type="subtask") if s.status != "done"]
    if open_subtasks:
        return RuleViolation(
            f"{issue.key} has unresolved subtasks: {', '.join(open_subtasks)}",
            field="issue_id",
            hint="finish the subtasks first",
        )
    blockers = []
    for link in ctx.where(IssueLink, inward_issue_id=issue.id, link_type="blocks"):
        other = ctx.find(Issue, link.outward_issue_id)
        if other is not None and other.status != "done":
            blockers.append(other.key)
    if blockers:
        return RuleViolation(
            f"{issue.key} is blocked by unresolved issue(s): {', '.join(blockers)}",
            field="issue_id",
            hint="resolve the blocking issues first, or remove the blocks link",
        )
    return None


class AvailableTransition(BaseModel):
    """A workflow transition from an issue's current status."""

    name: str = Field(
        description="Transition name, e.g. 'Start progress'; 'Close without review' needs a resolution "
        "other than done (wont_do, duplicate, cannot_reproduce)."
    )
    to_status: IssueStatus = Field(description="The status the transition leads to.")
    allowed_now: bool = Field(description="Whether the issue meets the transition's conditions now.")
    reason: str | None = Field(description="Why it is not allowed now (for done: assignee, subtasks, blockers).")


@service.tool(intent="see which workflow transitions the issue can take")
def get_issue_transitions(ctx: Ctx, issue_id: IssueId) -> list[AvailableTransition]:
    """List the workflow transitions from the issue's current status and whether each is allowed now.

    Args:
        issue_id: The issue.
    """
    issue = _issue_of(ctx, issue_id)
    project = ctx.get(Project, issue.project_id)
    out = []
    for name, target in WORKFLOW[issue.status]:
        blocker = _done_blockers(ctx, issue, target, "done" if name == "Approve" else "wont_do")
        if project.archived:
            blocker = RuleViolation(f"project {project.key} is archived and read-only")
        out.append(
            AvailableTransition.model_validate(
                {
                    "name": name,
                    "to_status": target,
                    "allowed_now": blocker is None,
                    "reason": blocker.message if blocker else None,
                }
            )
        )
    return out


def _issue_with(ctx: Ctx, *statuses: str, assigned: bool | None = None, done_ok: bool = False) -> Issue:
    """The first issue in one of ``statuses`` of a live project (for example providers); LookupError when none."""
    for issue in ctx.scan(Issue):
        if issue.status not in statuses:
            continue
        if assigned is not None and (issue.assignee_email is not None) != assigned:
            continue
        project = ctx.get(Project, issue.project_id)
        if project.archived:
            continue
        if done_ok or _done_blockers(ctx, issue, "done", "done") is None:
            return issue
    raise LookupError(f"no issue in {statuses}")


def _example_transition(ctx: Ctx) -> dict[str, Any]:
    return {"issue_id": _issue_with(ctx, "in_review", assigned=True).id, "to_status": "done"}


@service.tool(intent="move the issue to another workflow status", write=True, example=_example_transition)
def transition_issue(
    ctx: Ctx, issue_id: IssueId, to_status: IssueStatus, resolution: Resolution | None = None
) -> Issue:
    """Move an issue along the workflow To Do → In Progress → In Review → Done.

    Allowed moves: to_do → in_progress; in_progress → in_review or back to
    to_do; in_review → done (approve) or back to in_progress; done → to_do
    (reopen). to_do and in_progress can also go straight to done only with a
    resolution other than done (wont_do, duplicate, cannot_reproduce). An issue
    can only be done with an assignee, with all subtasks done and with no
    unresolved issue blocking it. Reopening clears the resolution and takes
    the issue out of a closed sprint.

    Args:
        issue_id: The issue.
        to_status: The status to move to.
        resolution: How the issue was resolved, when moving to done (default done).
    """
    issue = _issue_of(ctx, issue_id)
    _writable_project(ctx, issue.project_id)
    targets = {target: name for name, target in WORKFLOW[issue.status]}
    if to_status not in targets:
        allowed = ", ".join(f"{t} ({n})" for t, n in targets.items())
        raise RuleViolation(
            f"{issue.key} cannot move from {issue.status} to {to_status}",
            field="to_status",
            hint=f"from {issue.status} the allowed moves are: {allowed}",
        )
    if to_status != "done" and resolution is not None:
        raise RuleViolation(
            "a resolution is only set when moving to done", field="resolution", hint="omit the resolution"
        )
    blocker = _done_blockers(ctx, issue, to_status, resolution)
    if blocker is not None:
        raise blocker
    if to_status == "done":
        return ctx.update(issue, status="done", resolution=resolution or "done", resolved_at=ctx.now())
    changes: dict[str, Any] = {"status": to_status, "resolution": None, "resolved_at": None}
    if issue.status == "done" and issue.sprint_id:
        sprint = ctx.find(Sprint, issue.sprint_id)
        if sprint is not None and sprint.state == "closed":
            changes["sprint_id"] = None
    return ctx.update(issue, **changes)


def _example_assign(ctx: Ctx) -> dict[str, Any]:
    issue = _issue_with(ctx, "to_do", assigned=False, done_ok=True)
    project = ctx.get(Project, issue.project_id)
    return {"issue_id": issue.id, "assignee_email": project.lead_email}


@service.tool(intent="assign the issue to someone", write=True, idempotent=True, example=_example_assign)
def assign_issue(ctx: Ctx, issue_id: IssueId, assignee_email: Email | None) -> Issue:
    """Assign an issue to a project member, or unassign it with null.

    Only the project lead and members with the administrator or member role
    can be assigned (viewers cannot). A done issue cannot be unassigned.

    Args:
        issue_id: The issue.
        assignee_email: Work e-mail of the new assignee; null to unassign.
    """
    issue = _issue_of(ctx, issue_id)
    project = _writable_project(ctx, issue.project_id)
    if assignee_email is None:
        if issue.status == "done":
            raise RuleViolation(
                f"{issue.key} is done and must keep an assignee",
                field="assignee_email",
                hint="reopen it first, or assign someone else",
            )
    else:
        _require_role(ctx, project, assignee_email, "assignee_email", can_write=True, what="be assigned issues")
    if issue.assignee_email == assignee_email:
        return issue
    return ctx.update(issue, assignee_email=assignee_email)


def _example_create(ctx: Ctx) -> dict[str, Any]:
    project = next(p for p in ctx.where(Project, archived=False, project_type="software"))
    epic = ctx.first(Issue, project_id=project.id, issue_type="epic")
    return {
        "project_id": project.id,
        "issue_type": "story",
        "summary": "Show delivery estimate on the product page",
        "reporter_email": project.lead_email,
        "assignee_email": project.lead_email,
        "priority": "high",
        "parent_id": epic.id if epic else None,
        "story_points": 5,
        "labels": ["checkout"],
    }


@service.tool(intent="create an issue in the project", write=True, example=_example_create)
def create_issue(
    ctx: Ctx,
    project_id: ProjectId,
    issue_type: IssueType,
    summary: Title,
    reporter_email: Email,
    description: Text = "",
    priority: Priority = "medium",
    assignee_email: Email | None = None,
    parent_id: IssueId | None = None,
    sprint_id: SprintId | None = None,
    story_points: Quantity | None = None,
    original_estimate_minutes: Quantity | None = None,
    labels: list[Label] | None = None,
    due_date: Date | None = None,
) -> Issue:
    """Create an issue with the project's next key (ENG-13 after ENG-12); it starts in to_do.

    The project must not be archived. Reporter and assignee must be project
    members who can work (lead, administrators, members). Subtasks need a
    parent story, task or bug and go into its sprint; stories, tasks and bugs
    may have an epic as parent; epics have no parent. Only stories, tasks and
    bugs carry story points. A sprint must be of the same project and not
    closed.

    Args:
        project_id: The project.
        issue_type: epic, story, task, bug or subtask.
        summary: One-line summary.
        reporter_email: Work e-mail of the reporter.
        description: Details.
        priority: highest, high, medium, low or lowest.
        assignee_email: Work e-mail of the assignee.
        parent_id: The epic (for a story/task/bug) or parent issue (for a subtask).
        sprint_id: Sprint to plan it in; omit for the backlog.
        story_points: Estimate in story points.
        original_estimate_minutes: Time estimate in minutes.
        labels: Labels (no spaces).
        due_date: Due date.
    """
    project = _writable_project(ctx, project_id, "project_id")
    _require_role(ctx, project, reporter_email, "reporter_email", can_write=True, what="create issues")
    if assignee_email is not None:
        _require_role(ctx, project, assignee_email, "assignee_email", can_write=True, what="be assigned issues")
    _check_parent(ctx, issue_type, parent_id, project.id, None)
    _check_points(issue_type, story_points)
    if sprint_id is not None:
        if issue_type == "subtask":
            raise RuleViolation(
                "a subtask is always in its parent's sprint", field="sprint_id", hint="omit sprint_id for subtasks"
            )
        _check_sprint_target(ctx, ctx.get(Sprint, sprint_id, field="sprint_id"), project, "sprint_id")
    if issue_type == "subtask" and parent_id is not None:
        sprint_id = ctx.get(Issue, parent_id).sprint_id
    number = project.last_issue_number + 1
    ctx.update(project, last_issue_number=number)
    return ctx.create(
        Issue,
        key=f"{project.key}-{number}",
        project_id=project.id,
        issue_type=issue_type,
        summary=summary,
        description=description,
        priority=priority,
        reporter_email=reporter_email,
        assignee_email=assignee_email,
        parent_id=parent_id,
        sprint_id=sprint_id,
        story_points=story_points,
        original_estimate_minutes=original_estimate_minutes,
        labels=tuple(dict.fromkeys(labels or ())),
        due_date=due_date,
    )


class IssueDeletion(BaseModel):
    """What deleting an issue removed."""

    deleted_issue_ids: list[IssueId] = Field(description="The issue and any subtasks deleted with it.")
    unparented_issue_ids: list[IssueId] = Field(description="Issues of a deleted epic that lost their parent.")


@service.tool(
    intent="delete the issue",
    write=True,
    destructive=True,
    example=first_example(
        Issue,
        "issue_id",
        where={"status": "to_do"},
        match=lambda ctx, issue: (
            ctx.first(Issue, parent_id=issue.id) is None and not ctx.get(Project, issue.project_id).archived
        ),
    ),
)
def delete_issue(ctx: Ctx, issue_id: IssueId, delete_subtasks: bool = False) -> IssueDeletion:
    """Delete an issue with its comments, work logs and links; its key is not reused.

    An issue with subtasks is only deleted with delete_subtasks=true (they go
    too). Deleting an epic leaves its stories in place without an epic. The
    project must not be archived.

    Args:
        issue_id: The issue.
        delete_subtasks: Also delete its subtasks; required when it has any.
    """
    issue = _issue_of(ctx, issue_id)
    _writable_project(ctx, issue.project_id)
    subtasks = ctx.where(Issue, parent_id=issue.id, issue_type="subtask")
    if subtasks and not delete_subtasks:
        raise RuleViolation(
            f"{issue.key} has {len(subtasks)} subtask(s)",
            field="delete_subtasks",
            hint="pass delete_subtasks=true to delete them too",
        )
    unparented = []
    for child in ctx.where(Issue, parent_id=issue.id):
        if child.issue_type != "subtask":
            ctx.update(child, parent_id=None)
            unparented.append(child.id)
    deleted = []
    for victim in [*subtasks, issue]:
        for c in ctx.where(IssueComment, issue_id=victim.id):
            ctx.delete(c)
        for w in ctx.where(Worklog, issue_id=victim.id):
            ctx.delete(w)
        for link in ctx.where(IssueLink, outward_issue_id=victim.id) + ctx.where(IssueLink, inward_issue_id=victim.id):
            if ctx.find(IssueLink, link.id) is not None:
                ctx.delete(link)
        ctx.delete(victim)
        deleted.append(victim.id)
    return IssueDeletion(deleted_issue_ids=deleted, unparented_issue_ids=unparented)


# -- sprints ------------------------------------------------------------------------------


def _check_sprint_target(ctx: Ctx, sprint: Sprint, project: Project, field: str) -> None:
    if sprint.project_id != project.id:
        raise RuleViolation(
            f"sprint {sprint.name} belongs to another project",
            field=field,
            hint=f"pick a sprint of project {project.key} (list sprints with its project_id)",
        )
    if sprint.state == "closed":
        raise RuleViolation(
            f"sprint {sprint.name} is closed; issues cannot be added to a closed sprint",
            field=field,
            hint="pick the active or a future sprint, or create a new sprint",
        )


def _move(ctx: Ctx, issue: Issue, sprint_id: str | None) -> list[Issue]:
    """Put ``issue`` and its subtasks in ``sprint_id``; issues already there are left untouched."""
    out = []
    for rec in [issue, *ctx.where(Issue, parent_id=issue.id, issue_type="subtask")]:
        out.append(rec if rec.sprint_id == sprint_id else ctx.update(rec, sprint_id=sprint_id))
    return out


IssueIds = Annotated[list[IssueId], Field(min_length=1, max_length=MAX_SPRINT_MOVE)]


def _example_move(ctx: Ctx) -> dict[str, Any]:
    sprint = next(s for s in ctx.where(Sprint, state="future") if not ctx.get(Project, s.project_id).archived)
    backlog = [i for i in ctx.where(Issue, project_id=sprint.project_id, sprint_id=None) if i.issue_type in ESTIMABLE]
    return {"sprint_id": sprint.id, "issue_ids": [i.id for i in backlog[:2]]}


@service.tool(intent="move the issues into the sprint", write=True, idempotent=True, example=_example_move)
def move_issues_to_sprint(ctx: Ctx, sprint_id: SprintId, issue_ids: IssueIds) -> list[Issue]:
    """Move issues (and their subtasks) into an active or future sprint of their project.

    Issues cannot be added to a closed sprint; subtasks move with their parent
    and cannot be moved alone; at most 50 issues at once.

    Args:
        sprint_id: The sprint.
        issue_ids: The issues to move.
    """
    sprint = ctx.get(Sprint, sprint_id, field="sprint_id")
    project = _writable_project(ctx, sprint.project_id, "sprint_id")
    _check_sprint_target(ctx, sprint, project, "sprint_id")
    picked = _pick_issues(ctx, issue_ids, project)
    moved: list[Issue] = []
    for issue in picked:
        moved.extend(_move(ctx, issue, sprint.id))
    return moved


def _pick_issues(ctx: Ctx, issue_ids: list[str], project: Project | None) -> list[Issue]:
    if len(set(issue_ids)) != len(issue_ids):
        raise RuleViolation("issues are listed twice", field="issue_ids", hint="list each issue once")
    picked = []
    for i, iid in enumerate(issue_ids):
        issue = ctx.get(Issue, iid, field=f"issue_ids.{i}")
        if project is not None and issue.project_id != project.id:
            raise RuleViolation(
                f"{issue.key} is not in project {project.key}",
                field=f"issue_ids.{i}",
                hint="a sprint only holds issues of its own project",
            )
        _writable_project(ctx, issue.project_id, f"issue_ids.{i}")
        if issue.issue_type == "subtask":
            parent = ctx.find(Issue, issue.parent_id or "")
            raise RuleViolation(
                f"{issue.key} is a subtask; subtasks move with their parent",
                field=f"issue_ids.{i}",
                hint=f"move the parent {parent.key if parent else ''} instead".replace("  ", " "),
            )
        picked.append(issue)
    return picked


def _example_backlog(ctx: Ctx) -> dict[str, Any] | None:
    for issue in ctx.scan(Issue):
        if issue.sprint_id and issue.issue_type != "subtask":
            sprint = ctx.get(Sprint, issue.sprint_id)
            if sprint.state != "closed" and not ctx.get(Project, issue.project_id).archived:
                return {"issue_ids": [issue.id]}
    return None


@service.tool(intent="move the issues back to the backlog", write=True, idempotent=True, example=_example_backlog)
def move_issues_to_backlog(ctx: Ctx, issue_ids: IssueIds) -> list[Issue]:
    """Take issues (and their subtasks) out of their sprint and put them in the backlog.

    Issues of a closed sprint stay in it (it is history), subtasks move with
    their parent, at most 50 issues at once.

    Args:
        issue_ids: The issues to move.
    """
    picked = _pick_issues(ctx, issue_ids, None)
    moved: list[Issue] = []
    for i, issue in enumerate(picked):
        sprint = ctx.find(Sprint, issue.sprint_id) if issue.sprint_id else None
        if sprint is not None and sprint.state == "closed":
            raise RuleViolation(
                f"{issue.key} belongs to closed sprint {sprint.name}",
                field=f"issue_ids.{i}",
                hint="closed sprints are history; reopen the issue to bring it back to the backlog",
            )
        moved.extend(_move(ctx, issue, None))
    return moved


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    for sprint in ctx.where(Sprint, state="future"):
        if ctx.first(Sprint, project_id=sprint.project_id, state="active") is None:
            return {"sprint_id": sprint.id, "end_date": (ctx.today() + dt.timedelta(days=14)).isoformat()}
    return None


@service.tool(intent="start the sprint", write=True, example=_example_start)
def start_sprint(ctx: Ctx, sprint_id: SprintId, end_date: Date, start_date: Date | None = None) -> Sprint:
    """Start a future sprint; a project can have only one active sprint at a time.

    Args:
        sprint_id: The sprint.
        end_date: Planned last day; after the start date.
        start_date: First day (default today).
    """
    sprint = ctx.get(Sprint, sprint_id, field="sprint_id")
    project = _writable_project(ctx, sprint.project_id, "sprint_id")
    if sprint.state != "future":
        raise RuleViolation(
            f"sprint {sprint.name} is {sprint.state}; only future sprints can be started",
            field="sprint_id",
            hint="plan a new sprint with tracker__create_sprint",
        )
    active = ctx.first(Sprint, project_id=project.id, state="active")
    if active is not None:
        raise RuleViolation(
            f"project {project.key} already has an active sprint ({active.name}, {active.id})",
            field="sprint_id",
            hint="complete it with tracker__complete_sprint first",
        )
    start = start_date or ctx.today()
    if end_date <= start:
        raise RuleViolation(
            "the sprint must end after it starts", field="end_date", hint="pick an end date after the start date"
        )
    return ctx.update(sprint, state="active", start_date=start, end_date=end_date)


class SprintCompletion(BaseModel):
    """The outcome of completing a sprint."""

    sprint: Sprint = Field(description="The closed sprint.")
    completed_issue_ids: list[IssueId] = Field(description="Done issues that stay in the sprint.")
    moved_issue_ids: list[IssueId] = Field(description="Unfinished issues (with subtasks) moved out of it.")
    moved_to_sprint_id: SprintId | None = Field(description="Where they went; null for the backlog.")
    completed_points: Quantity = Field(description="Story points of the done issues.")


def _example_complete(ctx: Ctx) -> dict[str, Any] | None:
    for sprint in ctx.where(Sprint, state="active"):
        if ctx.get(Project, sprint.project_id).archived:
            continue
        nxt = ctx.first(Sprint, project_id=sprint.project_id, state="future")
        return {"sprint_id": sprint.id, "move_open_issues_to": nxt.id if nxt else None}
    return None


@service.tool(intent="complete the sprint", write=True, example=_example_complete)
def complete_sprint(ctx: Ctx, sprint_id: SprintId, move_open_issues_to: SprintId | None = None) -> SprintCompletion:
    """Complete the active sprint: it closes, and its unfinished issues move to another sprint or the backlog.

    Args:
        sprint_id: The active sprint.
        move_open_issues_to: A future sprint of the same project for the unfinished issues; omit for the backlog.
    """
    sprint = ctx.get(Sprint, sprint_id, field="sprint_id")
    project = _writable_project(ctx, sprint.project_id, "sprint_id")
    if sprint.state != "active":
        raise RuleViolation(
            f"sprint {sprint.name} is {sprint.state}; only the active sprint can be completed",
            field="sprint_id",
            hint="list the project's sprints with state='active'",
        )
    if move_open_issues_to is not None:
        if move_open_issues_to == sprint.id:
            raise RuleViolation(
                "unfinished issues cannot move to the sprint being completed",
                field="move_open_issues_to",
                hint="pick a future sprint or omit it for the backlog",
            )
        target = ctx.get(Sprint, move_open_issues_to, field="move_open_issues_to")
        _check_sprint_target(ctx, target, project, "move_open_issues_to")
    done: list[str] = []
    moved: list[str] = []
    points = 0
    for issue in ctx.where(Issue, sprint_id=sprint.id):
        if issue.issue_type == "subtask":
            continue
        if issue.status == "done":
            done.append(issue.id)
            points += issue.story_points or 0
        else:
            moved.extend(m.id for m in _move(ctx, issue, move_open_issues_to))
    closed = ctx.update(sprint, state="closed", completed_at=ctx.now())
    return SprintCompletion(
        sprint=closed,
        completed_issue_ids=done,
        moved_issue_ids=moved,
        moved_to_sprint_id=move_open_issues_to,
        completed_points=points,
    )


class SprintDeletion(BaseModel):
    """The outcome of deleting a sprint."""

    id: SprintId = Field(description="The deleted sprint.")
    moved_to_backlog_ids: list[IssueId] = Field(description="Its issues, now in the backlog.")


@service.tool(
    intent="delete the planned sprint",
    write=True,
    destructive=True,
    example=first_example(
        Sprint,
        "sprint_id",
        where={"state": "future"},
        match=lambda ctx, sprint: not ctx.get(Project, sprint.project_id).archived,
    ),
)
def delete_sprint(ctx: Ctx, sprint_id: SprintId) -> SprintDeletion:
    """Delete a future sprint; its issues go back to the backlog.

    The active sprint must be completed instead, and closed sprints are kept
    as history.

    Args:
        sprint_id: The sprint.
    """
    sprint = ctx.get(Sprint, sprint_id, field="sprint_id")
    _writable_project(ctx, sprint.project_id, "sprint_id")
    if sprint.state != "future":
        hint = "complete it with tracker__complete_sprint" if sprint.state == "active" else "closed sprints are history"
        raise RuleViolation(
            f"sprint {sprint.name} is {sprint.state}; only future sprints can be deleted", field="sprint_id", hint=hint
        )
    moved = []
    for issue in ctx.where(Issue, sprint_id=sprint.id):
        moved.append(ctx.update(issue, sprint_id=None).id)
    ctx.delete(sprint)
    return SprintDeletion(id=sprint.id, moved_to_backlog_ids=moved)


class SprintReport(BaseModel):
    """Progress of one sprint."""

    sprint: Sprint = Field(description="The sprint.")
    issue_count: int = Field(description="Issues in the sprint (subtasks not counted).")
    done_count: int = Field(description="Of those, how many are done.")
    committed_points: Quantity = Field(description="Story points of all its issues.")
    completed_points: Quantity = Field(description="Story points of its done issues.")
    by_status: dict[str, int] = Field(description="Number of issues per workflow status.")
    days_left: int | None = Field(description="Days until the end date for an active sprint; null otherwise.")


@service.tool(intent="report on the sprint's progress")
def sprint_report(ctx: Ctx, sprint_id: SprintId) -> SprintReport:
    """Summarise a sprint: issues and story points committed and done, issues per status, days left.

    Args:
        sprint_id: The sprint.
    """
    sprint = ctx.get(Sprint, sprint_id, field="sprint_id")
    work = [i for i in ctx.where(Issue, sprint_id=sprint.id) if i.issue_type != "subtask"]
    by_status = {s: 0 for s in WORKFLOW}
    for i in work:
        by_status[i.status] += 1
    days_left = None
    if sprint.state == "active" and sprint.end_date is not None:
        days_left = max((sprint.end_date - ctx.today()).days, 0)
    return SprintReport(
        sprint=sprint,
        issue_count=len(work),
        done_count=by_status["done"],
        committed_points=sum(i.story_points or 0 for i in work),
        completed_points=sum(i.story_points or 0 for i in work if i.status == "done"),
        by_status=by_status,
        days_left=days_left,
    )


# -- lookups ------------------------------------------------------------------------------


def _example_key(ctx: Ctx) -> dict[str, Any]:
    return {"key": next(ctx.scan(Issue)).key}


@service.tool(intent="look up the issue by its key", example=_example_key)
def get_issue_by_key(ctx: Ctx, key: IssueKeyQuery) -> Issue:
    """Find an issue by its key, such as ENG-12 (case-insensitive).

    Args:
        key: The issue key (project key, a dash, the number).
    """
    key = key.upper()
    found = ctx.first(Issue, key=key)
    if found is None:
        raise NotFound(
            f"no issue with key {key}",
            field="key",
            hint="the issue may have been deleted; search issues with tracker__list_issues",
        )
    return found


class TimeTracking(BaseModel):
    """Time tracking of an issue."""

    issue_id: IssueId = Field(description="The issue.")
    original_estimate_minutes: Quantity | None = Field(description="The original estimate; null if none.")
    time_spent_minutes: Quantity = Field(description="Sum of its work logs.")
    remaining_minutes: Quantity | None = Field(
        description="Estimate minus time spent, at least 0; null if no estimate."
    )
    worklog_count: int = Field(description="Number of work logs.")


@service.tool(intent="see how much time was logged on the issue")
def issue_time_tracking(ctx: Ctx, issue_id: IssueId) -> TimeTracking:
    """Sum the work logged on an issue against its original estimate.

    Args:
        issue_id: The issue.
    """
    issue = _issue_of(ctx, issue_id)
    logs = ctx.where(Worklog, issue_id=issue.id)
    spent = sum(w.time_spent_minutes for w in logs)
    est = issue.original_estimate_minutes
    return TimeTracking(
        issue_id=issue.id,
        original_estimate_minutes=est,
        time_spent_minutes=spent,
        remaining_minutes=max(est - spent, 0) if est is not None else None,
        worklog_count=len(logs),
    )


# -- seed ---------------------------------------------------------------------------------

PROJECTS: tuple[tuple[str, str, str, str, str, bool], ...] = (
    ("ENG", "Storefront Platform", "software", "Engineering", "The web shop, checkout and order APIs.", False),
    ("MOB", "Mobile App", "software", "Engineering", "The iOS and Android shopping app.", False),
    ("SUP", "Support Tooling", "software", "Support", "Help desk integrations and support automation.", False),
    ("OPS", "Warehouse Operations", "business", "Operations", "Fulfilment, stock counts and carriers.", False),
    ("MKT", "Spring Campaign", "business", "Marketing", "The spring product launch campaign.", False),
    ("LEG", "Legacy Checkout Migration", "software", "Engineering", "Finished migration off the old checkout.", True),
)

EPICS = {
    "ENG": ("Checkout redesign", "Order history API"),
    "MOB": ("Offline mode", "Push notifications"),
    "SUP": ("Help desk order lookup", "Macro analytics"),
    "LEG": ("Migrate payments",),
}
WORK = {
    "ENG": (
        ("story", "Show delivery estimate at checkout"),
        ("bug", "Discount code rejected for bundles"),
        ("task", "Upgrade the payment SDK"),
        ("story", "Save cart across devices"),
        ("bug", "Order confirmation e-mail missing VAT"),
        ("story", "Add address autocomplete"),
        ("task", "Rotate API keys for the shipping carrier"),
        ("bug", "Checkout page slow on mobile"),
        ("story", "Paginate order history"),
        ("task", "Add load test for checkout"),
        ("story", "Support gift messages"),
        ("bug", "Wrong currency on invoices for CA customers"),
        ("story", "Reorder from order history"),
        ("task", "Remove legacy coupon tables"),
        ("bug", "Tracking link broken in order page"),
        ("story", "Guest checkout"),
        ("task", "Document order API v2"),
        ("story", "Show stock per warehouse"),
    ),
    "MOB": (
        ("story", "Browse catalogue offline"),
        ("bug", "App crashes when camera permission denied"),
        ("story", "Order shipped push notification"),
        ("task", "Update to the latest SDK"),
        ("bug", "Dark mode text unreadable in cart"),
        ("story", "Wishlist sync"),
        ("task", "Set up crash reporting"),
        ("story", "Biometric login"),
        ("bug", "Badge count not cleared"),
        ("story", "In-app returns"),
        ("task", "App store screenshots"),
        ("bug", "Search ignores accents"),
    ),
    "SUP": (
        ("story", "Show customer orders in ticket sidebar"),
        ("task", "Sync help desk users nightly"),
        ("bug", "Macro tags not applied to merged tickets"),
        ("story", "Satisfaction dashboard"),
        ("task", "Archive old suspended users"),
        ("story", "Refund button in ticket view"),
        ("bug", "Duplicate tickets from e-mail replies"),
        ("task", "Write runbook for outage macros"),
    ),
    "OPS": (
        ("task", "Quarterly stock count"),
        ("task", "Renegotiate carrier rates"),
        ("task", "Label printer replacement"),
        ("task", "Returns shelf reorganisation"),
        ("task", "Onboard new packaging supplier"),
        ("task", "Safety training for new staff"),
        ("task", "Review damaged-goods process"),
        ("task", "Holiday shift planning"),
        ("task", "Audit hazardous goods storage"),
        ("task", "Update packing slip template"),
    ),
    "MKT": (
        ("task", "Draft launch blog post"),
        ("task", "Design spring banner set"),
        ("task", "Newsletter to existing customers"),
        ("task", "Book influencer partnerships"),
        ("task", "Landing page copy"),
        ("task", "Paid social budget plan"),
        ("task", "Product photo shoot"),
        ("task", "Campaign performance report"),
    ),
    "LEG": (
        ("task", "Move card vault to new provider"),
        ("task", "Switch webhooks"),
        ("task", "Decommission old checkout"),
    ),
}
SUBTASKS = ("Write tests", "Code review fixes", "Update documentation")
COMMENTS = (
    "I can pick this up after the current sprint.",
    "Reproduced on staging.",
    "PR is up for review.",
    "Blocked until the API change ships.",
    "Looks good to me.",
    "Can we split this into smaller pieces?",
)
FIB = (1, 2, 3, 5, 8, 13)
SPRINT_PLANS: dict[str, tuple[SprintState, ...]] = {
    "ENG": ("closed", "closed", "active", "future"),
    "MOB": ("closed", "active", "future", "future"),
    "SUP": ("closed", "closed", "future"),  # between sprints: the next one is planned, not started
}


@service.seeder
def seed(s: SeedContext) -> None:
    """Projects per department with their employees as members, sprints, issues in every status, work."""
    for spec in PROJECTS:
        _seed_project(s, *spec)


def _seed_project(s: SeedContext, key: str, name: str, ptype: str, dept: str, desc: str, archived: bool) -> None:
    """One project of PROJECTS with its members, sprints, issues, links, comments and work logs."""
    rng = s.rng
    employees = list(s.population.employees)
    staff = s.population.staff(dept, fallback=5)
    lead = next((e for e in staff if "Manager" in e.job_title or "Lead" in e.job_title), staff[0])
    team = [e for e in staff if e is not lead]
    viewers = rng.sample([e for e in employees if e.department != dept], 2)
    epics = EPICS.get(key, ())
    software = ptype == "software"
    planned = software and not archived
    total = len(epics) + len(WORK[key]) + (len(SUBTASKS) if planned else 0)
    project = s.create(
        Project,
        key=key,
        name=name,
        project_type=ptype,
        lead_email=lead.email,
        description=desc,
        archived=archived,
        last_issue_number=total,
        created_at=s.ago(days=rng.randint(200, 500)),
    )
    for person in team:
        s.create(ProjectMember, project_id=project.id, email=person.email, role="member", created_at=s.ago(days=190))
    for person in viewers:
        s.create(ProjectMember, project_id=project.id, email=person.email, role="viewer", created_at=s.ago(days=100))
    if team:
        s.create(
            ProjectMember, project_id=project.id, email=lead.email, role="administrator", created_at=s.ago(days=199)
        )
    workers = [lead, *team]
    sprints = _seed_sprints(s, project) if planned else []
    issues = _IssueWriter(s, project, dept, workers)
    epic_recs = [issues.add("epic", title, "done" if archived else "in_progress") for title in epics]
    recs = _seed_work(s, issues, epic_recs, sprints, software=software, archived=archived)
    if planned:
        _seed_subtasks(issues, recs)
    assert issues.number == total, (key, issues.number, total)
    _seed_links(s, recs)
    _seed_activity(s, recs, workers, viewers, software=software)


def _seed_sprints(s: SeedContext, project: Project) -> list[Sprint]:
    """The sprints SPRINT_PLANS gives the project: two weeks each, the closed ones ending before today."""
    today = s.now.date()
    plan = SPRINT_PLANS.get(project.key, ("closed", "closed", "active", "future"))
    sprints: list[Sprint] = []
    for n, state in enumerate(plan, start=1):
        start = today + dt.timedelta(days=14 * (n - 1 - plan.count("closed")) - 3)
        sprints.append(
            s.create(
                Sprint,
                project_id=project.id,
                name=f"{project.key} Sprint {n}",
                goal=f"Sprint {n} of {project.name}",
                state=state,
                start_date=start if state != "future" else None,
                end_date=start + dt.timedelta(days=14) if state != "future" else None,
                completed_at=utc_at(start + dt.timedelta(days=14), 17) if state == "closed" else None,
                created_at=s.ago(days=60),
            )
        )
    return sprints


class _IssueWriter:
    """Creates a project's issues with consecutive keys, reported and worked on by its members."""

    def __init__(self, s: SeedContext, project: Project, dept: str, workers: list[Person]) -> None:
        self.s = s
        self.project = project
        self.dept = dept
        self.workers = workers
        self.number = 0

    def add(self, issue_type: IssueType, summary: str, status: str, **extra: Any) -> Issue:
        """The project's next issue, created in the last 90 days; a done one has an assignee and a resolution.

        Args:
            issue_type: The issue type.
            summary: One-line summary.
            status: Workflow status.
            **extra: More Issue fields; ``assignee`` and ``description`` replace the drawn defaults.
        """
        s, rng, workers = self.s, self.s.rng, self.workers
        self.number += 1
        created = s.ago(days=rng.uniform(5, 90))
        # The default is drawn even when an assignee is given, so that every issue takes the same draws.
        assignee = extra.pop("assignee", rng.choice(workers).email if status != "to_do" else None)
        if status == "done" and assignee is None:
            assignee = rng.choice(workers).email
        resolved = created + dt.timedelta(days=rng.uniform(1, 4)) if status == "done" else None
        return s.create(
            Issue,
            key=f"{self.project.key}-{self.number}",
            project_id=self.project.id,
            issue_type=issue_type,
            summary=summary,
            description=extra.pop("description", f"{summary}. Reported by the {self.dept} team."),
            status=status,
            priority=rng.choice(("high", "medium", "medium", "low", "highest", "lowest")),
            reporter_email=rng.choice(workers).email,
            assignee_email=assignee,
            resolution="done" if status == "done" else None,
            resolved_at=resolved,
            created_at=created,
            updated_at=resolved or created + dt.timedelta(hours=rng.randint(1, 48)),
            **extra,
        )


def _placement(k: int, sprints: list[Sprint], *, software: bool, archived: bool) -> tuple[str, str | None]:
    """The status and sprint (None for the backlog) of a project's ``k``-th work item."""
    if archived:
        return "done", None
    if not software:
        return ("to_do", "in_progress", "in_review", "done", "done")[k % 5], None
    bucket = k % 6  # 0-1 closed sprints, 2-3 the active sprint (or backlog), 4 a future sprint, 5 backlog
    closed = [sp for sp in sprints if sp.state == "closed"]
    active = next((sp.id for sp in sprints if sp.state == "active"), None)
    future = [sp for sp in sprints if sp.state == "future"]
    if bucket < 2:
        return "done", closed[(k // 6 + bucket) % len(closed)].id
    if bucket < 4:
        if active is None:
            return ("in_progress", "to_do")[bucket - 2], None
        return ("in_progress", "in_review", "to_do", "done")[(k // 6 + bucket) % 4], active
    if bucket == 4:
        return "to_do", future[0].id
    return "to_do", None


def _seed_work(
    s: SeedContext,
    issues: _IssueWriter,
    epics: list[Issue],
    sprints: list[Sprint],
    *,
    software: bool,
    archived: bool,
) -> list[Issue]:
    """The project's stories, tasks and bugs of WORK, most under an epic, spread over sprints and statuses."""
    rng = s.rng
    today = s.now.date()
    key = issues.project.key
    recs: list[Issue] = []
    for k, (itype, summary) in enumerate(WORK[key]):
        itype_t: IssueType = itype  # type: ignore[assignment]
        parent = epics[k % len(epics)].id if epics and k % 3 != 2 else None
        points = rng.choice(FIB) if software else None
        status, sprint = _placement(k, sprints, software=software, archived=archived)
        recs.append(
            issues.add(
                itype_t,
                summary,
                status,
                parent_id=parent,
                sprint_id=sprint,
                story_points=points,
                original_estimate_minutes=rng.choice((120, 240, 480, 960)) if software else None,
                labels=(key.lower(),) if k % 4 == 0 else (),
                due_date=today + dt.timedelta(days=rng.randint(-5, 30)) if not software else None,
            )
        )
    return recs


def _seed_subtasks(issues: _IssueWriter, recs: list[Issue]) -> None:
    """The SUBTASKS of the first work item in progress: one done, one in progress, one to do."""
    host = next(r for r in recs if r.status == "in_progress" and r.issue_type in ESTIMABLE)
    for j, title in enumerate(SUBTASKS):
        issues.add(
            "subtask",
            f"{title} for {host.key}",
            ("done", "in_progress", "to_do")[j],
            parent_id=host.id,
            sprint_id=host.sprint_id,
            assignee=host.assignee_email if j < 2 else None,
        )


def _seed_links(s: SeedContext, recs: list[Issue]) -> None:
    """An unfinished issue blocking another unfinished one, a related pair, and a done blocker if there is one."""
    open_ = [r for r in recs if r.status != "done"]
    if len(open_) < 4:
        return
    s.create(
        IssueLink,
        link_type="blocks",
        outward_issue_id=open_[0].id,
        inward_issue_id=open_[1].id,
        created_at=s.ago(days=10),
    )
    s.create(
        IssueLink,
        link_type="relates",
        outward_issue_id=open_[2].id,
        inward_issue_id=recs[0].id,
        created_at=s.ago(days=9),
    )
    if recs[0].status == "done":
        s.create(
            IssueLink,
            link_type="blocks",
            outward_issue_id=recs[0].id,
            inward_issue_id=open_[3].id,
            created_at=s.ago(days=8),
        )


def _seed_activity(
    s: SeedContext, recs: list[Issue], workers: list[Person], viewers: list[Person], *, software: bool
) -> None:
    """Comments on about half the work items, and work logged on the started ones of software projects."""
    rng = s.rng
    now = s.now
    for r in recs:
        if rng.random() < 0.45:
            s.create(
                IssueComment,
                issue_id=r.id,
                author_email=rng.choice(workers + viewers).email,
                body=rng.choice(COMMENTS),
                created_at=r.created_at + dt.timedelta(hours=3),
                updated_at=r.created_at + dt.timedelta(hours=3),
            )
        if r.status != "to_do" and r.assignee_email and software:
            for d in range(rng.randint(1, 3)):
                started = r.created_at + dt.timedelta(days=d + 1, hours=1)
                if started < now:
                    s.create(
                        Worklog,
                        issue_id=r.id,
                        author_email=r.assignee_email,
                        started=started,
                        time_spent_minutes=rng.choice((30, 60, 90, 120, 240)),
                        comment="Worked on it.",
                        created_at=min(started + dt.timedelta(hours=2), now),
                    )
