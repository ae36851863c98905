"""Gitlane: the company's self-managed code platform with groups, projects, merge requests, pipelines and issues.

Modeled on the GitLab REST API v4: ``/groups`` (nested subgroups, members with
access levels 10 Guest … 50 Owner, inherited by subgroups and projects),
``/projects`` (``only_allow_merge_if_pipeline_succeeds``,
``merge_requests_author_approval``, ``reset_approvals_on_push``, approval rules
with ``approvals_required`` and eligible users), ``/repository/branches``,
``/protected_branches`` (wildcard names, ``push_access_level``,
``merge_access_level``), ``/pipelines`` (per commit, ``pending → running →
success | failed``, ``canceled``, retry), ``/merge_requests`` (``iid`` per
project, ``Draft:`` titles, ``/approve``, ``/merge`` with ``sha`` and
``should_remove_source_branch``) and ``/issues`` with ``/milestones`` (project
and group milestones).

A merge request merges only when it is open, not a draft, its source branch
head is the ``sha`` the caller saw, every approval rule has its approvals, the
latest pipeline of its head succeeded when the project demands it, and the
merger may merge into the protected target branch. Authors approve their own
merge requests only where the project allows it; a push to the source branch
resets approvals where the project says so. Protected branches refuse pushes
below their access level. Merging into the default branch closes the issues the
description says it closes (``Closes #12``). Issues take only active milestones
of their project or of one of its ancestor groups. Archived projects are read-only.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Text, Title, Url
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "gitlane",
    title="Gitlane",
    category="code_hosting",
    modeled_on="GitLab REST API v4 (Groups and members, Projects, Branches, Protected branches, Pipelines, "
    "Merge requests with approvals and merge, Issues, Milestones)",
    description="The engineering team's code platform: groups and subgroups of projects, members with access "
    "levels, branches and protected branches, CI pipelines per commit, merge requests with approval rules, "
    "and issues planned in milestones.",
)

UserId = Annotated[str, IdOf("gitlane.user")]
GroupId = Annotated[str, IdOf("gitlane.group")]
ProjectId = Annotated[str, IdOf("gitlane.project")]
ProtectedBranchId = Annotated[str, IdOf("gitlane.protected_branch")]
BranchId = Annotated[str, IdOf("gitlane.branch")]
PipelineId = Annotated[str, IdOf("gitlane.pipeline")]
MergeRequestId = Annotated[str, IdOf("gitlane.merge_request")]
MilestoneId = Annotated[str, IdOf("gitlane.milestone")]
IssueId = Annotated[str, IdOf("gitlane.issue")]

Username = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]{0,58}$")]
"""A user's handle."""
Path = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]{0,99}$")]
"""A group's or project's path (URL slug)."""
RefName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")]
"""A branch name (letters, digits, '.', '_', '-', '/')."""
RefPattern = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9*][A-Za-z0-9._/*-]{0,199}$")]
"""A branch name or a wildcard pattern such as ``release/*``."""
Sha = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")]
"""A commit SHA (40 hex digits)."""

AccessLevel = Literal[10, 20, 30, 40, 50]
"""10 Guest, 20 Reporter, 30 Developer, 40 Maintainer, 50 Owner."""
PushLevel = Literal[0, 30, 40]
"""Who may push or merge: 0 no one, 30 Developers and Maintainers, 40 Maintainers."""
Visibility = Literal["private", "internal", "public"]
PipelineStatus = Literal["pending", "running", "success", "failed", "canceled"]
MrState = Literal["opened", "closed", "merged"]
IssueState = Literal["opened", "closed"]

LEVEL_NAMES = {0: "No one", 10: "Guest", 20: "Reporter", 30: "Developer", 40: "Maintainer", 50: "Owner"}
DEVELOPER: Final = 30
MAINTAINER: Final = 40
PIPELINE_MOVES: dict[str, tuple[str, ...]] = {
    "pending": ("running", "canceled"),
    "running": ("success", "failed", "canceled"),
    "failed": ("pending",),
    "canceled": ("pending",),
    "success": (),
}
"""Which status a pipeline may move to from each status (failed and canceled go back to pending on retry)."""
_CLOSES = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d+)", re.IGNORECASE)


class Member(Value):
    """A user's membership of a group, inherited by its subgroups and projects."""

    user_id: UserId
    """The member."""
    access_level: AccessLevel
    """10 Guest, 20 Reporter, 30 Developer, 40 Maintainer, 50 Owner."""


class ApprovalRule(Value):
    """A project's merge request approval rule."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """The rule's name (e.g. "Backend maintainers")."""
    approvals_required: Annotated[int, Field(ge=0, le=20)]
    """How many approvals from eligible users a merge request needs."""
    eligible_user_ids: tuple[UserId, ...] = ()
    """Who may give them; empty means any member with Developer access or more."""


class User(Created):
    """A person with an account on the platform."""

    id: UserId
    username: Username
    """The handle, unique."""
    name: PersonName
    """Full name."""
    email: Email
    """Primary e-mail address."""
    state: Literal["active", "blocked"] = "active"
    """active or blocked (a blocked user can do nothing)."""


class Group(Created):
    """A group or subgroup holding projects, with its direct members."""

    id: GroupId
    name: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    """Display name."""
    path: Path
    """URL slug."""
    full_path: Annotated[str, StringConstraints(min_length=1, max_length=255)]
    """Path including the parent groups (``acme/platform``)."""
    parent_id: GroupId | None = None
    """The parent group of a subgroup."""
    visibility: Visibility = "private"
    """private, internal or public."""
    members: tuple[Member, ...] = ()
    """Direct members; subgroups and projects inherit them."""


class Project(Created):
    """A repository with its merge and approval settings."""

    id: ProjectId
    group_id: GroupId
    """The group (namespace) it lives in."""
    name: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    """Display name."""
    path_with_namespace: Annotated[str, StringConstraints(min_length=1, max_length=255)]
    """Full path (``acme/platform/api-server``)."""
    web_url: Url
    """Where it is on the web."""
    default_branch: RefName = "main"
    """The branch merge requests target by default; merges into it close issues."""
    visibility: Visibility = "private"
    """private, internal or public."""
    archived: bool = False
    """An archived project is read-only."""
    only_allow_merge_if_pipeline_succeeds: bool = True
    """Whether merge requests merge only when the latest pipeline of their head succeeded."""
    merge_requests_author_approval: bool = False
    """Whether authors may approve their own merge requests."""
    reset_approvals_on_push: bool = True
    """Whether a push to the source branch removes the approvals given so far."""
    approval_rules: tuple[ApprovalRule, ...] = ()
    """Approval rules every merge request of the project must satisfy."""


class ProtectedBranch(Created):
    """A protection rule on a branch name or wildcard pattern of a project."""

    id: ProtectedBranchId
    project_id: ProjectId
    """The project."""
    name: RefPattern
    """The branch name or a pattern such as ``release/*``."""
    push_access_level: PushLevel = MAINTAINER
    """Who may push: 0 no one, 30 Developers+, 40 Maintainers."""
    merge_access_level: PushLevel = MAINTAINER
    """Who may merge into it: 0 no one, 30 Developers+, 40 Maintainers."""
    allow_force_push: bool = False
    """Whether force pushes are allowed."""


class Branch(Created):
    """A branch of a project and its head commit."""

    id: BranchId
    project_id: ProjectId
    """The project."""
    name: RefName
    """The branch name, unique in the project."""
    commit_sha: Sha
    """Its head commit."""
    commit_title: Title
    """The head commit's title."""


class Pipeline(Record):
    """A CI pipeline run for one commit of a branch."""

    id: PipelineId
    project_id: ProjectId
    """The project."""
    iid: int
    """Number within the project."""
    sha: Sha
    """The commit it runs for."""
    ref: RefName
    """The branch."""
    status: PipelineStatus = "pending"
    """pending, running, success, failed or canceled."""
    source: Literal["push", "merge_request_event", "web"] = "push"
    """What started it."""
    user_id: UserId
    """Who started it."""
    web_url: Url
    """Where it is on the web."""
    started_at: DateTime | None = None
    """When it began running."""
    finished_at: DateTime | None = None
    """When it succeeded, failed or was canceled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When its status last changed."""


class MergeRequest(Record):
    """A merge request from a source branch into a target branch of the same project."""

    id: MergeRequestId
    project_id: ProjectId
    """The project."""
    iid: int
    """Number within the project (``!12``)."""
    title: Title
    """Title; a ``Draft:`` prefix marks a draft."""
    description: Text = ""
    """Description; ``Closes #12`` closes that issue when merged into the default branch."""
    source_branch: RefName
    """The branch with the changes."""
    target_branch: RefName
    """The branch they merge into."""
    author_id: UserId
    """Who opened it."""
    assignee_id: UserId | None = None
    """Who is responsible for it."""
    state: MrState = "opened"
    """opened, closed or merged."""
    draft: bool = False
    """Whether it is a draft (cannot be merged)."""
    sha: Sha
    """The head commit of the source branch."""
    approved_by: tuple[UserId, ...] = ()
    """Users who approved the current head."""
    merged_by_id: UserId | None = None
    """Who merged it."""
    merged_at: DateTime | None = None
    """When it was merged."""
    merge_commit_sha: Sha | None = None
    """The merge commit on the target branch."""
    closed_at: DateTime | None = None
    """When it was closed without merging."""
    web_url: Url
    """Where it is on the web."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Milestone(Created):
    """A milestone of a project or of a group (shared by the group's projects)."""

    id: MilestoneId
    project_id: ProjectId | None = None
    """The project of a project milestone."""
    group_id: GroupId | None = None
    """The group of a group milestone."""
    title: Title
    """Title, e.g. "Q3 release"."""
    state: Literal["active", "closed"] = "active"
    """active or closed (closed milestones take no new issues)."""
    start_date: Date | None = None
    """First day."""
    due_date: Date | None = None
    """Last day."""


class Issue(Record):
    """An issue of a project."""

    id: IssueId
    project_id: ProjectId
    """The project."""
    iid: int
    """Number within the project (``#12``)."""
    title: Title
    """Title."""
    description: Text = ""
    """Description."""
    state: IssueState = "opened"
    """opened or closed."""
    author_id: UserId
    """Who opened it."""
    assignee_id: UserId | None = None
    """Who works on it."""
    milestone_id: MilestoneId | None = None
    """The milestone it is planned in."""
    labels: tuple[Annotated[str, StringConstraints(min_length=1, max_length=50)], ...] = ()
    """Labels."""
    due_date: Date | None = None
    """When it is due."""
    closed_at: DateTime | None = None
    """When it was closed."""
    closed_by_merge_request_id: MergeRequestId | None = None
    """The merge request whose merge closed it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class PushResult(BaseModel):
    """What a push did: the branch's new head, the pipeline it started, the approvals it reset."""

    branch: Branch = Field(description="The branch with its new head.")
    pipeline: Pipeline = Field(description="The pipeline started for the new commit.")
    approvals_reset_on: list[MergeRequestId] = Field(
        description="Open merge requests of the branch whose approvals the push removed."
    )


# -- rules -------------------------------------------------------------------------------------


def _live_project(ctx: Ctx, project_id: str, field: str = "project_id") -> Project:
    project = ctx.get(Project, project_id, field=field)
    if project.archived:
        raise RuleViolation(
            f"project {project.path_with_namespace} is archived and read-only",
            field=field,
            hint="unarchive the project first, or work in another project",
        )
    return project


def _active_user(ctx: Ctx, user_id: str, field: str) -> User:
    user = ctx.get(User, user_id, field=field)
    if user.state != "active":
        raise RuleViolation(
            f"user {user.username} is blocked", field=field, hint="act as an active user (list users with state=active)"
        )
    return user


def access_level(ctx: Ctx, user_id: str, project: Project) -> int:
    """The user's access to the project: the highest level over its group and that group's ancestors."""
    level = 0
    group: Group | None = ctx.get(Group, project.group_id)
    while group is not None:
        for m in group.members:
            if m.user_id == user_id:
                level = max(level, m.access_level)
        group = ctx.find(Group, group.parent_id) if group.parent_id else None
    return level


def _need_level(ctx: Ctx, user: User, project: Project, level: int, field: str, action: str) -> None:
    have = access_level(ctx, user.id, project)
    if have < level:
        raise RuleViolation(
            f"{user.username} has {LEVEL_NAMES.get(have, 'no')} access to {project.path_with_namespace}; "
            f"{action} needs {LEVEL_NAMES[level]} or more",
            field=field,
            hint="act as a member with enough access, or have a maintainer do it",
        )


def _matches(pattern: str, branch: str) -> bool:
    return re.fullmatch(".*".join(re.escape(part) for part in pattern.split("*")), branch) is not None


def protections_of(ctx: Ctx, project_id: str, branch: str) -> list[ProtectedBranch]:
    """The protection rules whose name or wildcard matches ``branch``.

    As on the real platform, when several match the most permissive one decides who may push or merge.
    """
    return [p for p in ctx.where(ProtectedBranch, project_id=project_id) if _matches(p.name, branch)]


def _allowed(have: int, needed: int) -> bool:
    return needed != 0 and have >= needed


def _branch(ctx: Ctx, project_id: str, name: str, field: str) -> Branch:
    branch = ctx.first(Branch, project_id=project_id, name=name)
    if branch is None:
        raise NotFound(
            f"branch {name!r} does not exist in the project", field=field, hint="list branches of the project"
        )
    return branch


def _sha(ctx: Ctx) -> str:
    return f"{ctx.rng.getrandbits(160):040x}"


def _next_iid(ctx: Ctx, model: type[Pipeline] | type[MergeRequest] | type[Issue], project_id: str) -> int:
    return max((r.iid for r in ctx.where(model, project_id=project_id)), default=0) + 1


def _new_pipeline(ctx: Ctx, project: Project, sha: str, ref: str, user_id: str, source: str) -> Pipeline:
    iid = _next_iid(ctx, Pipeline, project.id)
    return ctx.create(
        Pipeline,
        project_id=project.id,
        iid=iid,
        sha=sha,
        ref=ref,
        source=source,
        user_id=user_id,
        web_url=f"{project.web_url}/-/pipelines/{iid}",
    )


def latest_pipeline(ctx: Ctx, project_id: str, sha: str) -> Pipeline | None:
    """The newest pipeline of a commit."""
    runs = [p for p in ctx.where(Pipeline, project_id=project_id) if p.sha == sha]
    return max(runs, key=lambda p: p.iid) if runs else None


def approvals_missing(ctx: Ctx, project: Project, mr: MergeRequest) -> list[str]:
    """The approval rules the merge request does not yet satisfy, as "rule: n of m" texts."""
    missing = []
    for rule in project.approval_rules:
        if rule.eligible_user_ids:
            got = sum(1 for u in mr.approved_by if u in rule.eligible_user_ids)
        else:
            got = sum(1 for u in mr.approved_by if access_level(ctx, u, project) >= DEVELOPER)
        if got < rule.approvals_required:
            missing.append(f"{rule.name}: {got} of {rule.approvals_required}")
    return missing


def _guard_mr(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.state == "closed" and old.state != "closed":
        _live_project(ctx, new.project_id, field="merge_request_id")
        ctx.update(new, closed_at=ctx.now())


def _guard_issue(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.state == "closed" and old.state != "closed":
        _live_project(ctx, new.project_id, field="issue_id")
        ctx.update(new, closed_at=ctx.now())


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    get=False,
    filters=("username", "state", "email"),
    search=("name", "username"),
    delete=False,
)
groups = service.resource(
    Group, name="group", plural="groups", prefix="grp", create=False, get=False, filters=None, delete=False
)
projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="prj",
    create=False,
    get=False,
    filters=("group_id", "archived", "path_with_namespace", "visibility"),
    search=("name", "path_with_namespace"),
    delete=False,
)
protected_branches = service.resource(
    ProtectedBranch,
    name="protected_branch",
    plural="protected_branches",
    prefix="pbr",
    create=False,
    get=False,
    filters=("project_id", "name"),
    delete=False,
    title="protected branch",
)
branches = service.resource(
    Branch,
    name="branch",
    plural="branches",
    prefix="br",
    create=False,
    get=False,
    filters=("project_id", "name"),
    search=("name", "commit_title"),
    delete=False,
)
pipelines = service.resource(
    Pipeline,
    name="pipeline",
    plural="pipelines",
    prefix="pl",
    create=False,
    get=False,
    filters=("project_id", "ref", "sha", "status", "source"),
    delete=False,
)
merge_requests = service.resource(
    MergeRequest,
    name="merge_request",
    plural="merge_requests",
    prefix="mr",
    create=False,
    get=False,
    filters=("project_id", "state", "author_id", "assignee_id", "source_branch", "target_branch", "draft", "iid"),
    search=("title", "description"),
    delete=False,
    transitions={
        "close": Transition(
            "state",
            ("opened",),
            "closed",
            "close the merge request without merging",
            description="Close an open merge request without merging it (state_event=close).",
        )
    },
    guard_update=_guard_mr,
    title="merge request",
)
milestones = service.resource(
    Milestone,
    name="milestone",
    plural="milestones",
    prefix="ms",
    create=False,
    get=False,
    filters=("project_id", "group_id", "state"),
    search=("title",),
    delete=False,
)
issues = service.resource(
    Issue,
    name="issue",
    plural="issues",
    prefix="iss",
    create=False,
    get=False,
    filters=("project_id", "state", "author_id", "assignee_id", "milestone_id", "iid"),
    search=("title", "description"),
    delete=False,
    transitions={
        "close": Transition(
            "state",
            ("opened",),
            "closed",
            "close the issue",
            description="Close an open issue (state_event=close).",
        )
    },
    guard_update=_guard_issue,
)


# -- examples ----------------------------------------------------------------------------------


def _maintainer_of(ctx: Ctx, project: Project) -> User | None:
    for user in ctx.where(User, state="active"):
        if access_level(ctx, user.id, project) >= MAINTAINER:
            return user
    return None


def _developer_of(ctx: Ctx, project: Project) -> User | None:
    for user in ctx.where(User, state="active"):
        if access_level(ctx, user.id, project) == DEVELOPER:
            return user
    return None


def _ex_protect(ctx: Ctx) -> dict[str, Any] | None:
    project = ctx.first(Project, archived=False)
    return None if project is None else {"project_id": project.id, "name": "hotfix/*", "push_access_level": 40}


def _ex_create_branch(ctx: Ctx) -> dict[str, Any] | None:
    project = ctx.first(Project, archived=False)
    return None if project is None else {"project_id": project.id, "branch": "feature/new-login", "ref": "main"}


def _ex_push(ctx: Ctx) -> dict[str, Any] | None:
    for mr in ctx.where(MergeRequest, state="opened"):
        project = ctx.get(Project, mr.project_id)
        branch = ctx.first(Branch, project_id=project.id, name=mr.source_branch)
        user = ctx.find(User, mr.author_id)
        if not project.archived and branch is not None and user is not None and user.state == "active":
            return {"branch_id": branch.id, "user_id": user.id, "title": "Address review comments"}
    return None


def _ex_pipeline(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Pipeline, status="running")
    return None if p is None else {"pipeline_id": p.id, "status": "success"}


def _ex_create_mr(ctx: Ctx) -> dict[str, Any] | None:
    for branch in ctx.scan(Branch):
        project = ctx.get(Project, branch.project_id)
        if project.archived or branch.name == project.default_branch:
            continue
        if ctx.first(MergeRequest, project_id=project.id, source_branch=branch.name, state="opened"):
            continue
        user = _developer_of(ctx, project)
        if user is not None:
            return {
                "project_id": project.id,
                "source_branch": branch.name,
                "target_branch": project.default_branch,
                "title": "Tidy up configuration",
                "author_id": user.id,
            }
    return None


def _ex_approve(ctx: Ctx) -> dict[str, Any] | None:
    for mr in ctx.where(MergeRequest, state="opened"):
        project = ctx.get(Project, mr.project_id)
        if project.archived:
            continue
        for user in ctx.where(User, state="active"):
            fresh = user.id not in mr.approved_by and user.id != mr.author_id
            if fresh and access_level(ctx, user.id, project) >= DEVELOPER:
                return {"merge_request_id": mr.id, "user_id": user.id}
    return None


def _ex_merge(ctx: Ctx) -> dict[str, Any] | None:
    for mr in ctx.where(MergeRequest, state="opened", draft=False):
        project = ctx.get(Project, mr.project_id)
        if project.archived or approvals_missing(ctx, project, mr):
            continue
        run = latest_pipeline(ctx, project.id, mr.sha)
        if project.only_allow_merge_if_pipeline_succeeds and (run is None or run.status != "success"):
            continue
        user = _maintainer_of(ctx, project)
        if user is not None:
            return {"merge_request_id": mr.id, "user_id": user.id, "sha": mr.sha}
    return None


def _ex_issue(ctx: Ctx) -> dict[str, Any] | None:
    for ms in ctx.where(Milestone, state="active"):
        if ms.project_id is None:
            continue
        project = ctx.get(Project, ms.project_id)
        user = _developer_of(ctx, project)
        if not project.archived and user is not None:
            return {
                "project_id": project.id,
                "title": "Export fails for large reports",
                "author_id": user.id,
                "milestone_id": ms.id,
            }
    return None


# -- tools -------------------------------------------------------------------------------------


@service.tool(intent="protect the branch", write=True, example=_ex_protect)
def protect_branch(
    ctx: Ctx,
    project_id: ProjectId,
    name: RefPattern,
    push_access_level: PushLevel = MAINTAINER,
    merge_access_level: PushLevel = MAINTAINER,
    allow_force_push: bool = False,
) -> ProtectedBranch:
    """Protect a branch, or every branch matching a wildcard such as ``release/*``.

    Args:
        project_id: The project.
        name: The branch name or wildcard pattern.
        push_access_level: Who may push: 0 no one, 30 Developers and Maintainers, 40 Maintainers.
        merge_access_level: Who may merge into it: 0 no one, 30 Developers and Maintainers, 40 Maintainers.
        allow_force_push: Whether those allowed to push may force push.
    """
    project = _live_project(ctx, project_id)
    existing = ctx.first(ProtectedBranch, project_id=project.id, name=name)
    if existing is not None:
        raise Conflict(
            f"protected branch {name!r} already exists in {project.path_with_namespace} ({existing.id})",
            field="name",
            hint="use the existing protection or protect another name",
        )
    if allow_force_push and push_access_level == 0:
        raise RuleViolation(
            "force push needs someone allowed to push",
            field="allow_force_push",
            hint="set push_access_level to 30 or 40, or leave force push off",
        )
    return ctx.create(
        ProtectedBranch,
        project_id=project.id,
        name=name,
        push_access_level=push_access_level,
        merge_access_level=merge_access_level,
        allow_force_push=allow_force_push,
    )


@service.tool(intent="create a branch", write=True, example=_ex_create_branch)
def create_branch(ctx: Ctx, project_id: ProjectId, branch: RefName, ref: RefName) -> Branch:
    """Create a branch from the head of an existing branch.

    Args:
        project_id: The project.
        branch: The new branch's name.
        ref: The existing branch it starts from.
    """
    project = _live_project(ctx, project_id)
    if ctx.first(Branch, project_id=project.id, name=branch) is not None:
        raise Conflict(
            f"branch {branch!r} already exists in {project.path_with_namespace}",
            field="branch",
            hint="choose another name or use the existing branch",
        )
    source = _branch(ctx, project.id, ref, "ref")
    return ctx.create(
        Branch, project_id=project.id, name=branch, commit_sha=source.commit_sha, commit_title=source.commit_title
    )


@service.tool(intent="push a commit to the branch", write=True, example=_ex_push)
def push_commit(ctx: Ctx, branch_id: BranchId, user_id: UserId, title: Title) -> PushResult:
    """Push a new commit to a branch; a pipeline starts for it.

    A protected branch takes pushes only from users with its push access level.
    Open merge requests from the branch move to the new head and, where the
    project resets approvals on push, lose their approvals.

    Args:
        branch_id: The branch.
        user_id: Who pushes (the commit's author).
        title: The commit message's first line.
    """
    branch = ctx.get(Branch, branch_id, field="branch_id")
    project = _live_project(ctx, branch.project_id, field="branch_id")
    user = _active_user(ctx, user_id, "user_id")
    _need_level(ctx, user, project, DEVELOPER, "user_id", "pushing")
    rules = protections_of(ctx, project.id, branch.name)
    have = access_level(ctx, user.id, project)
    if rules and not any(_allowed(have, r.push_access_level) for r in rules):
        raise RuleViolation(
            f"you are not allowed to push into {branch.name}: protected, pushes allowed for "
            f"{', '.join(f'{LEVEL_NAMES[r.push_access_level]} ({r.name})' for r in rules)}",
            field="branch_id",
            hint="push to a feature branch and open a merge request",
        )
    sha = _sha(ctx)
    branch = ctx.update(branch, commit_sha=sha, commit_title=title)
    run = _new_pipeline(ctx, project, sha, branch.name, user.id, "push")
    reset: list[str] = []
    for mr in ctx.where(MergeRequest, project_id=project.id, source_branch=branch.name, state="opened"):
        changes: dict[str, Any] = {"sha": sha}
        if project.reset_approvals_on_push and mr.approved_by:
            changes["approved_by"] = ()
            reset.append(mr.id)
        ctx.update(mr, **changes)
    return PushResult(branch=branch, pipeline=run, approvals_reset_on=reset)


@service.tool(intent="report the pipeline's status", write=True, example=_ex_pipeline)
def update_pipeline_status(ctx: Ctx, pipeline_id: PipelineId, status: PipelineStatus) -> Pipeline:
    """Move a pipeline on as its runner reports: pending → running → success or failed; cancel; retry.

    Allowed moves: pending → running or canceled; running → success, failed or canceled;
    failed or canceled → pending (a retry).

    Args:
        pipeline_id: The pipeline.
        status: Its new status.
    """
    run = ctx.get(Pipeline, pipeline_id, field="pipeline_id")
    _live_project(ctx, run.project_id, field="pipeline_id")
    allowed = PIPELINE_MOVES[run.status]
    if status not in allowed:
        raise RuleViolation(
            f"pipeline #{run.iid} is {run.status} and cannot become {status}",
            field="status",
            hint=f"from {run.status} it may become {', '.join(allowed) or 'nothing (it succeeded)'}",
        )
    now = ctx.now()
    if status == "running":
        return ctx.update(run, status=status, started_at=now, finished_at=None)
    if status == "pending":
        return ctx.update(run, status=status, started_at=None, finished_at=None)
    return ctx.update(run, status=status, finished_at=now)


@service.tool(intent="open a merge request", write=True, example=_ex_create_mr)
def create_merge_request(
    ctx: Ctx,
    project_id: ProjectId,
    source_branch: RefName,
    target_branch: RefName,
    title: Title,
    author_id: UserId,
    description: Text = "",
    assignee_id: UserId | None = None,
) -> MergeRequest:
    """Open a merge request; a title starting with ``Draft:`` makes it a draft.

    Args:
        project_id: The project.
        source_branch: The branch with the changes.
        target_branch: The branch to merge into (usually the default branch).
        title: Title.
        author_id: Who opens it (Developer access or more).
        description: Description; ``Closes #12`` closes issue 12 when merged into the default branch.
        assignee_id: Who is responsible for it (a project member).
    """
    project = _live_project(ctx, project_id)
    author = _active_user(ctx, author_id, "author_id")
    _need_level(ctx, author, project, DEVELOPER, "author_id", "opening a merge request")
    if source_branch == target_branch:
        raise RuleViolation(
            "source and target branch are the same", field="target_branch", hint="target the default branch"
        )
    source = _branch(ctx, project.id, source_branch, "source_branch")
    _branch(ctx, project.id, target_branch, "target_branch")
    for other in ctx.where(MergeRequest, project_id=project.id, source_branch=source_branch, state="opened"):
        if other.target_branch == target_branch:
            raise Conflict(
                f"another open merge request already exists for this source branch: !{other.iid}",
                field="source_branch",
                hint=f"update merge request {other.id} instead",
            )
    if assignee_id is not None:
        assignee = _active_user(ctx, assignee_id, "assignee_id")
        _need_level(ctx, assignee, project, DEVELOPER, "assignee_id", "being assigned a merge request")
    iid = _next_iid(ctx, MergeRequest, project.id)
    return ctx.create(
        MergeRequest,
        project_id=project.id,
        iid=iid,
        title=title,
        description=description,
        source_branch=source_branch,
        target_branch=target_branch,
        author_id=author.id,
        assignee_id=assignee_id,
        draft=re.match(r"^\s*(\[draft\]|\(draft\)|draft:)", title, re.IGNORECASE) is not None,
        sha=source.commit_sha,
        web_url=f"{project.web_url}/-/merge_requests/{iid}",
    )


def _open_mr(ctx: Ctx, merge_request_id: str) -> tuple[MergeRequest, Project]:
    mr = ctx.get(MergeRequest, merge_request_id, field="merge_request_id")
    project = _live_project(ctx, mr.project_id, field="merge_request_id")
    if mr.state != "opened":
        raise RuleViolation(
            f"merge request !{mr.iid} is {mr.state}",
            field="merge_request_id",
            hint="only open merge requests can be approved or merged",
        )
    return mr, project


def _check_sha(mr: MergeRequest, sha: str | None) -> None:
    if sha is not None and sha != mr.sha:
        raise Conflict(
            f"SHA does not match HEAD of source branch: {mr.sha}",
            field="sha",
            hint="read the merge request again and review the new head before acting",
        )


@service.tool(intent="approve the merge request", write=True, example=_ex_approve)
def approve_merge_request(
    ctx: Ctx, merge_request_id: MergeRequestId, user_id: UserId, sha: Sha | None = None
) -> MergeRequest:
    """Approve a merge request's current head.

    Args:
        merge_request_id: The merge request.
        user_id: Who approves (Developer access or more; the author only where the project allows it).
        sha: The head commit the approver reviewed; refused if the branch moved since.
    """
    mr, project = _open_mr(ctx, merge_request_id)
    user = _active_user(ctx, user_id, "user_id")
    _need_level(ctx, user, project, DEVELOPER, "user_id", "approving")
    _check_sha(mr, sha)
    if user.id == mr.author_id and not project.merge_requests_author_approval:
        raise RuleViolation(
            f"{user.username} wrote merge request !{mr.iid} and {project.path_with_namespace} does not let authors "
            "approve their own merge requests",
            field="user_id",
            hint="ask another eligible member to approve",
        )
    if user.id in mr.approved_by:
        raise Conflict(
            f"{user.username} already approved merge request !{mr.iid}",
            field="user_id",
            hint="ask another eligible member to approve",
        )
    return ctx.update(mr, approved_by=(*mr.approved_by, user.id))


@service.tool(intent="merge the merge request", write=True, example=_ex_merge)
def merge_merge_request(
    ctx: Ctx,
    merge_request_id: MergeRequestId,
    user_id: UserId,
    sha: Sha | None = None,
    should_remove_source_branch: bool = False,
) -> MergeRequest:
    """Merge an approved merge request whose pipeline passed.

    Refused while it is a draft, an approval rule lacks approvals, the latest
    pipeline of its head has not succeeded (where the project demands it), or the
    user may not merge into the protected target branch. A pipeline starts on the
    target branch; merging into the default branch closes the issues the
    description closes.

    Args:
        merge_request_id: The merge request.
        user_id: Who merges.
        sha: The head commit the merger saw; refused if the branch moved since.
        should_remove_source_branch: Delete the source branch after merging.
    """
    mr, project = _open_mr(ctx, merge_request_id)
    user = _active_user(ctx, user_id, "user_id")
    _need_level(ctx, user, project, DEVELOPER, "user_id", "merging")
    _check_sha(mr, sha)
    if mr.draft:
        raise RuleViolation(
            f"merge request !{mr.iid} is a draft",
            field="merge_request_id",
            hint="have the author mark it ready (remove the Draft: prefix) first",
        )
    missing = approvals_missing(ctx, project, mr)
    if missing:
        raise RuleViolation(
            f"merge request !{mr.iid} is not approved: {'; '.join(missing)}",
            field="merge_request_id",
            hint="get the missing approvals with gitlane__approve_merge_request",
        )
    run = latest_pipeline(ctx, project.id, mr.sha)
    if project.only_allow_merge_if_pipeline_succeeds and (run is None or run.status != "success"):
        state = "has no pipeline" if run is None else f"pipeline #{run.iid} is {run.status}"
        raise RuleViolation(
            f"merge request !{mr.iid} cannot merge: the head commit {state} and the project only merges when "
            "the pipeline succeeds",
            field="merge_request_id",
            hint="wait for the pipeline to succeed, or fix and retry it",
        )
    target = _branch(ctx, project.id, mr.target_branch, "merge_request_id")
    rules = protections_of(ctx, project.id, target.name)
    have = access_level(ctx, user.id, project)
    if rules and not any(_allowed(have, r.merge_access_level) for r in rules):
        raise RuleViolation(
            f"{user.username} may not merge into the protected branch {target.name} "
            f"(merging allowed for {', '.join(LEVEL_NAMES[r.merge_access_level] for r in rules)})",
            field="user_id",
            hint="ask a maintainer of the project to merge",
        )
    merge_sha = _sha(ctx)
    ctx.update(target, commit_sha=merge_sha, commit_title=f"Merge branch '{mr.source_branch}' into '{target.name}'")
    _new_pipeline(ctx, project, merge_sha, target.name, user.id, "push")
    if should_remove_source_branch:
        source = ctx.first(Branch, project_id=project.id, name=mr.source_branch)
        if source is not None and not protections_of(ctx, project.id, source.name):
            ctx.delete(source)
    if target.name == project.default_branch:
        now = ctx.now()
        for number in sorted({int(n) for n in _CLOSES.findall(mr.description)}):
            for issue in ctx.where(Issue, project_id=project.id, iid=number, state="opened"):
                ctx.update(issue, state="closed", closed_at=now, closed_by_merge_request_id=mr.id)
    return ctx.update(mr, state="merged", merged_by_id=user.id, merged_at=ctx.now(), merge_commit_sha=merge_sha)


@service.tool(intent="open an issue", write=True, example=_ex_issue)
def create_issue(
    ctx: Ctx,
    project_id: ProjectId,
    title: Title,
    author_id: UserId,
    description: Text = "",
    assignee_id: UserId | None = None,
    milestone_id: MilestoneId | None = None,
    due_date: Date | None = None,
    labels: list[Annotated[str, StringConstraints(min_length=1, max_length=50)]] | None = None,
) -> Issue:
    """Open an issue, optionally assigned and planned in a milestone.

    Args:
        project_id: The project.
        title: Title.
        author_id: Who opens it (Guest access or more).
        description: Description.
        assignee_id: Who works on it (Reporter access or more).
        milestone_id: An active milestone of the project or of one of its groups.
        due_date: When it is due; not after the milestone's due date.
        labels: Labels.
    """
    project = _live_project(ctx, project_id)
    author = _active_user(ctx, author_id, "author_id")
    _need_level(ctx, author, project, 10, "author_id", "opening an issue")
    if assignee_id is not None:
        assignee = _active_user(ctx, assignee_id, "assignee_id")
        _need_level(ctx, assignee, project, 20, "assignee_id", "being assigned an issue")
    if milestone_id is not None:
        ms = ctx.get(Milestone, milestone_id, field="milestone_id")
        ancestry = []
        group: Group | None = ctx.get(Group, project.group_id)
        while group is not None:
            ancestry.append(group.id)
            group = ctx.find(Group, group.parent_id) if group.parent_id else None
        if ms.project_id != project.id and ms.group_id not in ancestry:
            raise RuleViolation(
                f"milestone {ms.title!r} belongs to neither {project.path_with_namespace} nor its groups",
                field="milestone_id",
                hint="list milestones of the project or of its group",
            )
        if ms.state != "active":
            raise RuleViolation(
                f"milestone {ms.title!r} is closed", field="milestone_id", hint="pick an active milestone"
            )
        if due_date is not None and ms.due_date is not None and due_date > ms.due_date:
            raise RuleViolation(
                f"due date {due_date} is after the milestone's due date {ms.due_date}",
                field="due_date",
                hint="pick a due date within the milestone, or another milestone",
            )
    return ctx.create(
        Issue,
        project_id=project.id,
        iid=_next_iid(ctx, Issue, project.id),
        title=title,
        description=description,
        author_id=author.id,
        assignee_id=assignee_id,
        milestone_id=milestone_id,
        due_date=due_date,
        labels=tuple(dict.fromkeys(labels or ())),
    )


# -- seeding -----------------------------------------------------------------------------------

_PROJECTS = (
    # (subgroup, path, name, pipeline gate, author approval, reset on push, approvals, rule name, archived)
    ("platform", "api-server", "API Server", True, False, True, 2, "Backend maintainers", False),
    ("platform", "billing-service", "Billing Service", True, False, True, 1, "Code owners", False),
    ("web", "web-app", "Web App", True, True, False, 1, "Any developer", False),
    ("web", "docs-site", "Docs Site", False, False, True, 0, "", False),
    ("web", "legacy-portal", "Legacy Portal", True, False, True, 1, "Any developer", True),
)
_TOPICS = (
    ("feature/rate-limits", "Add per-token rate limits"),
    ("fix/null-invoice-total", "Fix null invoice totals"),
    ("feature/dark-mode", "Add dark mode"),
    ("chore/upgrade-deps", "Upgrade dependencies"),
    ("fix/login-redirect", "Fix login redirect loop"),
    ("feature/csv-export", "Export reports as CSV"),
    ("fix/timezone-offsets", "Fix timezone offsets in schedules"),
    ("feature/webhooks", "Add outgoing webhooks"),
)
_ISSUES = (
    "Timeouts on the orders endpoint",
    "Invoice PDF shows the wrong currency",
    "Password reset e-mail never arrives",
    "Dashboard loads slowly for large accounts",
    "Typo on the pricing page",
    "Search ignores accents",
)
_SCENARIOS = ("ready", "unapproved", "failed", "running", "draft", "merged", "closed", "ready")


class _Seeder:
    def __init__(self, s: SeedContext) -> None:
        self.s = s
        self.rng = s.rng
        pop = s.population
        self.handle = org_handle(pop)
        self.domain = pop.home.domain
        engineers = pop.staff("Engineering", fallback=8)[:10]
        self.users = [
            s.create(
                User,
                username=f"{p.first_name}.{p.last_name}".lower().replace(" ", "").replace("'", ""),
                name=p.name,
                email=p.email,
                state="blocked" if k == len(engineers) - 1 and k >= 4 else "active",
                created_at=s.ago(days=400 - 20 * k),
            )
            for k, p in enumerate(engineers)
        ]
        self.pipelines: dict[str, int] = {}

    def sha(self) -> str:
        return f"{self.rng.getrandbits(160):040x}"

    def groups(self) -> dict[str, Group]:
        u = self.users
        top_members = [Member(user_id=u[0].id, access_level=50)]
        top_members += [Member(user_id=x.id, access_level=30) for k, x in enumerate(u) if k >= 3 and k != 5]
        top = self.s.create(
            Group,
            name=self.s.population.home.name,
            path=self.handle,
            full_path=self.handle,
            visibility="private",
            members=tuple(top_members),
            created_at=self.s.ago(days=420),
        )
        out = {"": top}
        for k, sub in enumerate(("platform", "web")):
            maint = u[1 + k] if len(u) > 1 + k else u[0]
            members = [Member(user_id=maint.id, access_level=40)]
            if len(u) > 3 + k:
                members.append(Member(user_id=u[3 + k].id, access_level=40))
            if sub == "web" and len(u) > 5:
                members.append(Member(user_id=u[5].id, access_level=20))
            out[sub] = self.s.create(
                Group,
                name=sub.capitalize(),
                path=sub,
                full_path=f"{self.handle}/{sub}",
                parent_id=top.id,
                visibility="internal" if sub == "web" else "private",
                members=tuple(members),
                created_at=self.s.ago(days=400 - 10 * k),
            )
        return out

    def pipeline(self, project: Project, sha: str, ref: str, status: str, days: float, user: User) -> Pipeline:
        iid = self.pipelines.get(project.id, 0) + 1
        self.pipelines[project.id] = iid
        when = self.s.ago(days=days)
        ran = status != "pending"
        return self.s.create(
            Pipeline,
            project_id=project.id,
            iid=iid,
            sha=sha,
            ref=ref,
            status=status,
            source="push",
            user_id=user.id,
            web_url=f"{project.web_url}/-/pipelines/{iid}",
            started_at=when + dt.timedelta(minutes=1) if ran else None,
            finished_at=when + dt.timedelta(minutes=9) if status in ("success", "failed", "canceled") else None,
            created_at=when,
            updated_at=when + dt.timedelta(minutes=9 if ran else 0),
        )

    def project(self, k: int, spec: tuple[Any, ...], group: Group, members: list[User]) -> None:
        _, path, name, gate, author_ok, reset, needed, rule_name, archived = spec
        eligible = tuple(m.id for m in members[:3]) if rule_name in ("Backend maintainers", "Code owners") else ()
        rules = (ApprovalRule(name=rule_name, approvals_required=needed, eligible_user_ids=eligible),) if needed else ()
        full = f"{group.full_path}/{path}"
        project = self.s.create(
            Project,
            group_id=group.id,
            name=name,
            path_with_namespace=full,
            web_url=f"https://git.{self.domain}/{full}",
            visibility=group.visibility,
            archived=archived,
            only_allow_merge_if_pipeline_succeeds=gate,
            merge_requests_author_approval=author_ok,
            reset_approvals_on_push=reset,
            approval_rules=rules,
            created_at=self.s.ago(days=380 - 30 * k),
        )
        self.s.create(ProtectedBranch, project_id=project.id, name="main", created_at=self.s.ago(days=370 - 30 * k))
        if path == "api-server":
            self.s.create(
                ProtectedBranch,
                project_id=project.id,
                name="release/*",
                push_access_level=0,
                merge_access_level=40,
                created_at=self.s.ago(days=200),
            )
        main_sha = self.sha()
        self.s.create(
            Branch,
            project_id=project.id,
            name="main",
            commit_sha=main_sha,
            commit_title="Merge branch 'chore/ci-cache' into 'main'",
            created_at=self.s.ago(days=370 - 30 * k),
        )
        self.pipeline(project, main_sha, "main", "success", 2 + k, members[0])
        if path == "api-server":
            self.s.create(
                Branch,
                project_id=project.id,
                name="release/2.4",
                commit_sha=main_sha,
                commit_title="Merge branch 'chore/ci-cache' into 'main'",
                created_at=self.s.ago(days=20),
            )
        issues = self.issues(k, project, group, members)
        topics = self.rng.sample(_TOPICS, k=5 if not archived else 2)
        for n, (branch, title) in enumerate(topics):
            scenario = ("merged", "closed")[n % 2] if archived else _SCENARIOS[(k + n) % len(_SCENARIOS)]
            self.merge_request(project, n + 1, branch, title, scenario, members, issues)

    def issues(self, k: int, project: Project, group: Group, members: list[User]) -> list[Issue]:
        sprint = self.s.create(
            Milestone,
            project_id=project.id,
            title=f"{project.name} v{k + 2}.0",
            start_date=self.s.now.date() - dt.timedelta(days=14),
            due_date=self.s.now.date() + dt.timedelta(days=30 + 7 * k),
            created_at=self.s.ago(days=14),
        )
        old = self.s.create(
            Milestone,
            project_id=project.id,
            title=f"{project.name} v{k + 1}.0",
            state="closed",
            start_date=self.s.now.date() - dt.timedelta(days=90),
            due_date=self.s.now.date() - dt.timedelta(days=20),
            created_at=self.s.ago(days=90),
        )
        out = []
        for n, title in enumerate(self.rng.sample(_ISSUES, k=4)):
            closed = n == 3
            out.append(
                self.s.create(
                    Issue,
                    project_id=project.id,
                    iid=n + 1,
                    title=title,
                    description=f"Reported by {self.s.population.customers[n % 4].name}.",
                    state="closed" if closed else "opened",
                    author_id=members[n % len(members)].id,
                    assignee_id=members[(n + 1) % len(members)].id if n != 2 else None,
                    milestone_id=old.id if closed else sprint.id,
                    labels=("bug",) if n % 2 == 0 else ("enhancement",),
                    closed_at=self.s.ago(days=25) if closed else None,
                    created_at=self.s.ago(days=40 - n),
                    updated_at=self.s.ago(days=25 if closed else 3),
                )
            )
        return out

    def merge_request(
        self,
        project: Project,
        iid: int,
        branch: str,
        title: str,
        scenario: str,
        members: list[User],
        issues: list[Issue],
    ) -> None:
        author = members[(iid + 2) % len(members)]
        head = self.sha()
        days = 1 + iid
        if scenario not in ("merged",):
            self.s.create(
                Branch,
                project_id=project.id,
                name=branch,
                commit_sha=head,
                commit_title=title,
                created_at=self.s.ago(days=days + 1),
            )
        status = {"failed": "failed", "running": "running"}.get(scenario, "success")
        self.pipeline(project, head, branch, status, days, author)
        rules = project.approval_rules
        approvers: tuple[str, ...] = ()
        if rules and scenario != "unapproved":
            pool = rules[0].eligible_user_ids or tuple(m.id for m in members)
            approvers = tuple(u for u in pool if u != author.id)[: rules[0].approvals_required]
        elif rules and rules[0].approvals_required > 1:
            pool = rules[0].eligible_user_ids or tuple(m.id for m in members)
            approvers = tuple(u for u in pool if u != author.id)[:1]
        state = {"merged": "merged", "closed": "closed"}.get(scenario, "opened")
        opened = next((i for i in issues if i.state == "opened"), None)
        ended = self.s.ago(days=days - 0.5)
        self.s.create(
            MergeRequest,
            project_id=project.id,
            iid=iid,
            title=("Draft: " if scenario == "draft" else "") + title,
            description=f"Closes #{opened.iid}" if opened is not None and scenario == "ready" else "",
            source_branch=branch,
            target_branch="main",
            author_id=author.id,
            assignee_id=author.id,
            state=state,
            draft=scenario == "draft",
            sha=head,
            approved_by=approvers,
            merged_by_id=members[0].id if state == "merged" else None,
            merged_at=ended if state == "merged" else None,
            merge_commit_sha=self.sha() if state == "merged" else None,
            closed_at=ended if state == "closed" else None,
            web_url=f"{project.web_url}/-/merge_requests/{iid}",
            created_at=self.s.ago(days=days),
            updated_at=ended if state != "opened" else self.s.ago(days=days - 0.2),
        )


@service.seeder
def seed(s: SeedContext) -> None:
    """A company group with two subgroups, five projects (one archived), merge requests in every state, issues.

    Merge requests are ready, unapproved, with a failing or running pipeline, drafts, merged or closed;
    protected branches guard main and release branches; issues are planned in project and group milestones.
    """
    seeder = _Seeder(s)
    if len(seeder.users) < 3:
        return
    groups = seeder.groups()
    top = groups[""]
    s.create(
        Milestone,
        group_id=top.id,
        title="Company roadmap: next quarter",
        start_date=s.now.date(),
        due_date=s.now.date() + dt.timedelta(days=90),
        created_at=s.ago(days=5),
    )
    for k, spec in enumerate(_PROJECTS):
        group = groups[spec[0]]

        def level(user: User, group: Group = group) -> int:
            return max((m.access_level for g in (group, top) for m in g.members if m.user_id == user.id), default=0)

        active = [u for u in seeder.users if u.state == "active" and level(u) >= DEVELOPER]
        members = sorted(active, key=lambda u: -min(level(u), MAINTAINER))
        seeder.project(k, spec, group, members)
