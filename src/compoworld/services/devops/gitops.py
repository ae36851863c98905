"""Fleetsync Delivery: GitOps continuous delivery: projects, applications, sync operations, history and windows.

Modeled on the Argo CD API (``/api/v1/projects`` AppProject with ``sourceRepos``,
``destinations`` and ``syncWindows``; ``/api/v1/applications`` with
``spec.source.targetRevision``, ``spec.syncPolicy.automated`` (prune,
selfHeal), ``status.sync.status`` Synced / OutOfSync / Unknown and
``status.health.status`` Healthy / Progressing / Degraded / Suspended /
Missing; ``POST .../sync``, ``.../rollback`` with a history id, ``DELETE
.../operation`` to terminate a running sync, ``status.history``; and the Git
webhook endpoint ``/api/webhook`` that refreshes applications on a push).

An application belongs to one project and may only deploy from the project's
source repositories to one of its allowed destinations (cluster server and
namespace); its name is unique. A sync moves the application to the target
revision (or a given one): its PreSync, Sync and PostSync hooks run, the
operation succeeds, the revision becomes the synced one, a history entry is
recorded and the application is Synced and Healthy. Only one operation runs at a
time; a running one can be terminated (it fails). Sync windows of the project
(allow or deny, on weekdays from an hour for some hours) gate syncs: inside an
active deny window, or outside every allow window when the project has some,
automated syncs are refused, and manual ones too unless the window allows
manual sync. A Git push to a repository moves the head revision of the
applications tracking that branch: they go OutOfSync, and those with automated
sync are synced at once when a window allows. A rollback redeploys a history
entry's revision and is refused while automated sync is on (as in Argo CD).
A project with applications cannot be deleted, nor a destination removed that
an application uses.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Url
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "gitops",
    title="Fleetsync Delivery",
    category="gitops_delivery",
    modeled_on="Argo CD API v1: AppProject (sourceRepos, destinations, syncWindows), Application (sync and "
    "health status, automated sync policy with prune and selfHeal), sync/rollback/terminate operation, "
    "history, Git webhook",
    description="GitOps continuous delivery for the company's Kubernetes clusters: projects that limit where "
    "applications may deploy from and to, applications tracking a Git revision with their sync and health "
    "status, sync operations with hooks, rollbacks to earlier deployments, automated sync policies and "
    "sync windows.",
)

ProjectId = Annotated[str, IdOf("gitops.project")]
ApplicationId = Annotated[str, IdOf("gitops.application")]
OperationId = Annotated[str, IdOf("gitops.operation")]
WindowId = Annotated[str, IdOf("gitops.sync_window")]
HistoryId = Annotated[str, IdOf("gitops.history_entry")]

AppName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9-]{0,51}[a-z0-9])?$")]
"""A DNS-label name."""
Namespace = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")]
"""A Kubernetes namespace."""
Revision = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")]
"""A Git commit SHA."""
Branch = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._/-]{1,100}$")]
"""A branch or tag a source tracks."""
RepoPath = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._/-]{1,200}$")]
"""A folder inside the repository."""

SyncStatus = Literal["Synced", "OutOfSync", "Unknown"]
HealthStatus = Literal["Healthy", "Progressing", "Degraded", "Suspended", "Missing"]
Phase = Literal["Running", "Succeeded", "Failed"]
WindowKind = Literal["allow", "deny"]
Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
HookPhase = Literal["PreSync", "Sync", "PostSync"]

WEEKDAYS: tuple[Weekday, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class Destination(Value):
    """A cluster and namespace a project's applications may deploy to."""

    server: Url
    """The cluster's API server URL."""
    namespace: Namespace
    """The namespace."""


class HookResult(Value):
    """A resource hook a sync ran."""

    name: AppName
    """The hook's name."""
    phase: HookPhase
    """PreSync, Sync or PostSync."""
    status: Phase
    """Running, Succeeded or Failed."""


class Project(Record):
    """An AppProject: which repositories applications may use and where they may deploy."""

    id: ProjectId
    name: AppName
    """The project's name (unique)."""
    description: Text = ""
    """What it groups."""
    source_repos: tuple[Url, ...]
    """Repositories its applications may deploy from."""
    destinations: tuple[Destination, ...]
    """Clusters and namespaces its applications may deploy to."""
    owner_email: Email
    """The employee who owns the project."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class SyncWindow(Record):
    """A time window of a project in which syncs are allowed or denied."""

    id: WindowId
    project_id: ProjectId
    """The project."""
    kind: WindowKind
    """allow or deny."""
    days: tuple[Weekday, ...]
    """The weekdays it starts on."""
    start_hour: Annotated[int, Field(ge=0, le=23)]
    """The hour (UTC) it starts."""
    duration_hours: Annotated[int, Field(ge=1, le=24)]
    """How long it lasts."""
    manual_sync: bool = False
    """Whether manual syncs are allowed while it blocks."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Application(Record):
    """An application: a Git source deployed to a destination, with its sync and health status."""

    id: ApplicationId
    name: AppName
    """The application's name (unique)."""
    project_id: ProjectId
    """Its project."""
    repo_url: Url
    """The Git repository."""
    path: RepoPath = "."
    """The manifests' folder in it."""
    target_revision: Branch = "main"
    """The branch or tag it tracks."""
    destination: Destination
    """Where it deploys."""
    head_revision: Revision
    """The commit the target revision points at in Git."""
    synced_revision: Revision | None = None
    """The commit last deployed (none: never synced)."""
    sync_status: SyncStatus = "OutOfSync"
    """Synced, OutOfSync or Unknown."""
    health_status: HealthStatus = "Missing"
    """Healthy, Progressing, Degraded, Suspended or Missing."""
    auto_sync: bool = False
    """Whether a change in Git is synced automatically."""
    prune: bool = False
    """Whether automated syncs delete resources no longer in Git."""
    self_heal: bool = False
    """Whether automated syncs revert changes made in the cluster."""
    owner_email: Email | None = None
    """The employee responsible for it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Operation(Record):
    """A sync operation on an application (manual, automated or a rollback)."""

    id: OperationId
    application_id: ApplicationId
    """The application."""
    revision: Revision
    """The commit it deploys."""
    initiated_by: Email | None = None
    """Who started it (none: the automated sync policy)."""
    automated: bool = False
    """Whether the sync policy started it."""
    rollback: bool = False
    """Whether it redeploys an earlier history entry."""
    prune: bool = False
    """Whether it deletes resources no longer in Git."""
    phase: Phase = "Running"
    """Running, Succeeded or Failed."""
    message: Text = ""
    """The outcome in words."""
    hooks: tuple[HookResult, ...] = ()
    """The hooks it ran."""
    started_at: DateTime
    """When it started."""
    finished_at: DateTime | None = None
    """When it ended."""


class HistoryEntry(Record):
    """A deployment in an application's history (one per successful sync)."""

    id: HistoryId
    application_id: ApplicationId
    """The application."""
    number: int
    """Its history id, counting from 1 per application."""
    revision: Revision
    """The commit deployed."""
    operation_id: OperationId | None = None
    """The sync that deployed it."""
    deployed_at: DateTime
    """When it was deployed."""


class WindowState(Value):
    """Whether a project's sync windows let syncs run now."""

    project_id: ProjectId
    """The project."""
    automated_allowed: bool
    """Whether automated syncs may run now."""
    manual_allowed: bool
    """Whether manual syncs may run now."""
    active_window_ids: tuple[WindowId, ...]
    """The windows active now."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of Argo CD", field=field, hint="use an employee's e-mail")


def _active(window: SyncWindow, now: dt.datetime) -> bool:
    for back in (0, 1):
        day = now.date() - dt.timedelta(days=back)
        if WEEKDAYS[day.weekday()] not in window.days:
            continue
        start = dt.datetime.combine(day, dt.time(window.start_hour), tzinfo=dt.UTC)
        if start <= now < start + dt.timedelta(hours=window.duration_hours):
            return True
    return False


def _window_state(ctx: Ctx, project_id: str) -> WindowState:
    windows = ctx.where(SyncWindow, project_id=project_id)
    now = ctx.now()
    active = [w for w in windows if _active(w, now)]
    deny = [w for w in active if w.kind == "deny"]
    allows = [w for w in windows if w.kind == "allow"]
    allowed_by_allow = not allows or any(w.kind == "allow" for w in active)
    automated = allowed_by_allow and not deny
    blocking = deny + ([] if allowed_by_allow else allows)
    manual = automated or all(w.manual_sync for w in blocking)
    return WindowState(
        project_id=project_id,
        automated_allowed=automated,
        manual_allowed=manual,
        active_window_ids=tuple(w.id for w in active),
    )


def _guard_window(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.days:
        raise RuleViolation("a sync window needs at least one weekday", field="days", hint="list weekdays, e.g. mon")
    if len(set(new.days)) != len(new.days):
        raise RuleViolation("a weekday is listed twice", field="days", hint="list each weekday once")


def _guard_app_update(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    if (new.prune or new.self_heal) and not new.auto_sync:
        raise RuleViolation(
            "prune and self-heal apply only to automated sync",
            field="auto_sync",
            hint="enable auto_sync too, or turn prune and self_heal off",
        )


def _guard_project_delete(ctx: Ctx, new: Any, old: Any) -> None:
    apps = ctx.where(Application, project_id=old.id)
    if apps:
        raise Conflict(
            f"project {old.name!r} still has {len(apps)} application(s)",
            field="project_id",
            hint="delete or move its applications first",
        )
    for w in ctx.where(SyncWindow, project_id=old.id):
        ctx.delete(w)


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="proj",
    create=False,
    filters=("name", "owner_email"),
    search=("name", "description"),
    update=("description",),
    guard_delete=_guard_project_delete,
)
windows = service.resource(
    SyncWindow,
    name="sync_window",
    plural="sync_windows",
    prefix="win",
    create=("project_id", "kind", "days", "start_hour", "duration_hours", "manual_sync"),
    filters=("project_id", "kind"),
    update=("manual_sync", "duration_hours"),
    guard_create=_guard_window,
    title="sync window",
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=False,
    filters=("project_id", "sync_status", "health_status", "repo_url", "auto_sync", "owner_email", "name"),
    search=("name", "repo_url"),
    update=("auto_sync", "prune", "self_heal", "owner_email"),
    guard_update=_guard_app_update,
)
operations = service.resource(
    Operation,
    name="operation",
    plural="operations",
    prefix="op",
    create=False,
    filters=("application_id", "phase", "automated", "initiated_by"),
    delete=False,
    title="sync operation",
)
history = service.resource(
    HistoryEntry,
    name="history_entry",
    plural="history_entries",
    prefix="hist",
    create=False,
    get=False,
    filters=("application_id", "revision"),
    delete=False,
    title="deployment history entry",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_project(ctx: Ctx) -> dict[str, Any] | None:
    org = org_handle(ctx.population)
    return {
        "name": "data-platform",
        "source_repos": [f"https://github.com/{org}/data-deploy"],
        "destinations": [{"server": "https://kubernetes.default.svc", "namespace": "data"}],
        "owner_email": ctx.population.employees[0].email,
        "description": "Data platform workloads.",
    }


@service.tool(intent="create the project", write=True, example=_example_project)
def create_project(
    ctx: Ctx,
    name: AppName,
    source_repos: Annotated[list[Url], Field(min_length=1, max_length=20)],
    destinations: Annotated[list[Destination], Field(min_length=1, max_length=20)],
    owner_email: Email,
    description: Text = "",
) -> Project:
    """Create a project limiting which repositories its applications use and where they deploy.

    Args:
        name: The project's name, a DNS label (unique).
        source_repos: Repositories its applications may deploy from.
        destinations: Clusters and namespaces its applications may deploy to.
        owner_email: The employee who owns it.
        description: What it groups.
    """
    if ctx.first(Project, name=name) is not None:
        raise Conflict(f"project {name!r} already exists", field="name", hint="pick another name")
    if len(set(source_repos)) != len(source_repos):
        raise RuleViolation("a repository is listed twice", field="source_repos", hint="list each once")
    if len(set(destinations)) != len(destinations):
        raise RuleViolation("a destination is listed twice", field="destinations", hint="list each once")
    _staff(ctx, owner_email, "owner_email")
    return ctx.create(
        Project,
        name=name,
        source_repos=tuple(source_repos),
        destinations=tuple(destinations),
        owner_email=owner_email,
        description=description,
    )


@service.tool(
    intent="allow the project to deploy to the namespace",
    write=True,
    example=first_example(Project, "project_id", server="https://kubernetes.default.svc", namespace="sandbox"),
)
def add_project_destination(ctx: Ctx, project_id: ProjectId, server: Url, namespace: Namespace) -> Project:
    """Allow a project's applications to deploy to one more cluster namespace.

    Args:
        project_id: The project.
        server: The cluster's API server URL.
        namespace: The namespace.
    """
    project = ctx.get(Project, project_id, field="project_id")
    dest = Destination(server=server, namespace=namespace)
    if dest in project.destinations:
        raise Conflict(f"{server} {namespace} is already a destination", field="namespace", hint="nothing to do")
    return ctx.update(project, destinations=(*project.destinations, dest))


def _example_remove_destination(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.scan(Project):
        used = {a.destination for a in ctx.where(Application, project_id=p.id)}
        for d in p.destinations:
            if d not in used:
                return {"project_id": p.id, "server": d.server, "namespace": d.namespace}
    return None


@service.tool(intent="remove the destination from the project", write=True, example=_example_remove_destination)
def remove_project_destination(ctx: Ctx, project_id: ProjectId, server: Url, namespace: Namespace) -> Project:
    """Stop allowing a destination; refused while an application of the project deploys there.

    Args:
        project_id: The project.
        server: The cluster's API server URL.
        namespace: The namespace.
    """
    project = ctx.get(Project, project_id, field="project_id")
    dest = Destination(server=server, namespace=namespace)
    if dest not in project.destinations:
        raise NotFound(
            f"{server} {namespace} is not a destination of {project.name}",
            field="namespace",
            hint="see the project's destinations with gitops__get_project",
        )
    users = [a.name for a in ctx.where(Application, project_id=project.id) if a.destination == dest]
    if users:
        raise Conflict(
            f"application(s) {', '.join(users)} deploy to {namespace}",
            field="namespace",
            hint="delete or move those applications first",
        )
    return ctx.update(project, destinations=tuple(d for d in project.destinations if d != dest))


def _sha(*parts: str) -> str:
    return hashlib.sha1(":".join(parts).encode()).hexdigest()


def _example_app(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Project, name="platform")
    if p is None:
        return None
    d = p.destinations[0]
    return {
        "name": "grafana-agent",
        "project_id": p.id,
        "repo_url": p.source_repos[0],
        "path": "apps/grafana-agent",
        "server": d.server,
        "namespace": d.namespace,
        "owner_email": p.owner_email,
    }


@service.tool(intent="create the application", write=True, example=_example_app)
def create_application(
    ctx: Ctx,
    name: AppName,
    project_id: ProjectId,
    repo_url: Url,
    server: Url,
    namespace: Namespace,
    path: RepoPath = ".",
    target_revision: Branch = "main",
    owner_email: Email | None = None,
    auto_sync: bool = False,
) -> Application:
    """Create an application from a repository of its project to one of the project's destinations.

    It starts OutOfSync and Missing until its first sync.

    Args:
        name: The application's name, a DNS label (unique).
        project_id: Its project.
        repo_url: The Git repository; one of the project's source repositories.
        server: The destination cluster's API server URL.
        namespace: The destination namespace; with server, one of the project's destinations.
        path: The manifests' folder in the repository.
        target_revision: The branch or tag to track.
        owner_email: The employee responsible for it.
        auto_sync: Whether changes in Git are synced automatically.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if ctx.first(Application, name=name) is not None:
        raise Conflict(f"application {name!r} already exists", field="name", hint="pick another name")
    if repo_url not in project.source_repos:
        raise RuleViolation(
            f"{repo_url} is not a source repository of project {project.name}",
            field="repo_url",
            hint="use one of " + ", ".join(project.source_repos),
        )
    dest = Destination(server=server, namespace=namespace)
    if dest not in project.destinations:
        raise RuleViolation(
            f"destination {server} {namespace} is not permitted in project {project.name}",
            field="namespace",
            hint="add it with gitops__add_project_destination first",
        )
    _staff(ctx, owner_email, "owner_email")
    return ctx.create(
        Application,
        name=name,
        project_id=project.id,
        repo_url=repo_url,
        path=path,
        target_revision=target_revision,
        destination=dest,
        head_revision=_sha(repo_url, target_revision, "head"),
        owner_email=owner_email,
        auto_sync=auto_sync,
    )


def _deploy(
    ctx: Ctx, app: Application, revision: str, by: str | None, *, prune: bool, automated: bool, rollback: bool
) -> Operation:
    now = ctx.now()
    hooks = (
        HookResult(name="db-migrate", phase="PreSync", status="Succeeded"),
        HookResult(name="smoke-test", phase="PostSync", status="Succeeded"),
    )
    op = ctx.create(
        Operation,
        application_id=app.id,
        revision=revision,
        initiated_by=by,
        automated=automated,
        rollback=rollback,
        prune=prune,
        phase="Succeeded",
        message=f"successfully synced (all tasks run) to {revision[:7]}",
        hooks=hooks,
        started_at=now,
        finished_at=now,
    )
    number = len(ctx.where(HistoryEntry, application_id=app.id)) + 1
    ctx.create(
        HistoryEntry, application_id=app.id, number=number, revision=revision, operation_id=op.id, deployed_at=now
    )
    ctx.update(
        app,
        synced_revision=revision,
        sync_status="Synced" if revision == app.head_revision else "OutOfSync",
        health_status="Healthy",
    )
    return op


def _no_running(ctx: Ctx, app: Application) -> None:
    running = ctx.first(Operation, application_id=app.id, phase="Running")
    if running is not None:
        raise Conflict(
            f"another operation ({running.id}) is already in progress on {app.name}",
            field="application_id",
            hint="wait for it, or terminate it with gitops__terminate_operation",
        )


def _example_sync(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, sync_status="OutOfSync"):
        idle = ctx.first(Operation, application_id=app.id, phase="Running") is None
        if idle and _window_state(ctx, app.project_id).manual_allowed:
            return {"application_id": app.id, "initiated_by": ctx.population.employees[0].email}
    return None


@service.tool(intent="sync the application", write=True, example=_example_sync)
def sync_application(
    ctx: Ctx, application_id: ApplicationId, initiated_by: Email, revision: Revision | None = None, prune: bool = False
) -> Operation:
    """Sync an application to its target revision's head (or a given commit); hooks run and it becomes Healthy.

    Refused while another operation runs or while the project's sync windows block manual syncs.

    Args:
        application_id: The application.
        initiated_by: The employee syncing.
        revision: A commit to deploy instead of the head of the target revision.
        prune: Delete resources no longer in Git.
    """
    app = ctx.get(Application, application_id, field="application_id")
    _staff(ctx, initiated_by, "initiated_by")
    _no_running(ctx, app)
    state = _window_state(ctx, app.project_id)
    if not state.manual_allowed:
        raise RuleViolation(
            f"sync of {app.name} is blocked by the sync windows of its project",
            field="application_id",
            hint="wait for the window to end, or allow manual sync on the window",
        )
    return _deploy(ctx, app, revision or app.head_revision, initiated_by, prune=prune, automated=False, rollback=False)


def _example_rollback(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, auto_sync=False):
        if ctx.first(Operation, application_id=app.id, phase="Running") is not None:
            continue
        if not _window_state(ctx, app.project_id).manual_allowed:
            continue
        for h in ctx.where(HistoryEntry, application_id=app.id):
            if h.revision != app.synced_revision:
                return {"application_id": app.id, "number": h.number, "initiated_by": app.owner_email}
    return None


@service.tool(intent="roll the application back", write=True, example=_example_rollback)
def rollback_application(ctx: Ctx, application_id: ApplicationId, number: int, initiated_by: Email) -> Operation:
    """Redeploy the revision of an earlier history entry; refused while automated sync is enabled.

    Args:
        application_id: The application.
        number: The history id to roll back to.
        initiated_by: The employee rolling back.
    """
    app = ctx.get(Application, application_id, field="application_id")
    _staff(ctx, initiated_by, "initiated_by")
    if app.auto_sync:
        raise RuleViolation(
            f"rollback cannot be initiated when auto-sync is enabled on {app.name}",
            field="application_id",
            hint="disable auto_sync with gitops__update_application first",
        )
    entry = next((h for h in ctx.where(HistoryEntry, application_id=app.id) if h.number == number), None)
    if entry is None:
        raise NotFound(
            f"{app.name} has no history id {number}",
            field="number",
            hint="list them with gitops__list_history_entries",
        )
    if entry.revision == app.synced_revision:
        raise Conflict(f"{app.name} already runs {entry.revision[:7]}", field="number", hint="pick an older entry")
    _no_running(ctx, app)
    if not _window_state(ctx, app.project_id).manual_allowed:
        raise RuleViolation(
            f"rollback of {app.name} is blocked by the sync windows of its project",
            field="application_id",
            hint="check gitops__sync_window_state and wait for the window to end",
        )
    return _deploy(ctx, app, entry.revision, initiated_by, prune=False, automated=False, rollback=True)


@service.tool(
    intent="terminate the sync operation",
    write=True,
    example=first_example(Operation, "operation_id", where={"phase": "Running"}),
)
def terminate_operation(ctx: Ctx, operation_id: OperationId) -> Operation:
    """Terminate a running sync operation: it fails and the application stays OutOfSync.

    Args:
        operation_id: The running operation.
    """
    op = ctx.get(Operation, operation_id, field="operation_id")
    if op.phase != "Running":
        raise Conflict(f"operation {op.id} already {op.phase.lower()}", field="operation_id", hint="nothing to do")
    app = ctx.get(Application, op.application_id)
    ctx.update(app, sync_status="OutOfSync")
    hooks = tuple(h.model_copy(update={"status": "Failed"}) if h.status == "Running" else h for h in op.hooks)
    return ctx.update(op, phase="Failed", message="operation terminated", finished_at=ctx.now(), hooks=hooks)


class PushResult(Value):
    """What a Git push did to the applications tracking it."""

    refreshed: tuple[ApplicationId, ...]
    """Applications whose head revision moved (now OutOfSync unless synced at once)."""
    auto_synced: tuple[OperationId, ...]
    """Automated syncs started by the push."""
    blocked: tuple[ApplicationId, ...]
    """Applications with automated sync that a sync window held back."""


def _example_push(ctx: Ctx) -> dict[str, Any] | None:
    app = ctx.first(Application, auto_sync=True)
    return None if app is None else {"repo_url": app.repo_url, "branch": app.target_revision, "revision": "ab" * 20}


@service.tool(intent="notify Argo CD of the Git push", write=True, example=_example_push)
def receive_git_push(ctx: Ctx, repo_url: Url, branch: Branch, revision: Revision) -> PushResult:
    """The Git webhook: a push of a commit to a branch refreshes every application tracking it.

    Their head revision moves and they go OutOfSync; those with automated sync are synced at once
    when their project's windows allow it.

    Args:
        repo_url: The repository pushed to.
        branch: The branch pushed.
        revision: The new head commit.
    """
    apps = [a for a in ctx.where(Application, repo_url=repo_url) if a.target_revision == branch]
    if not apps:
        raise NotFound(
            f"no application tracks {branch} of {repo_url}",
            field="repo_url",
            hint="check the repository URL and branch with gitops__list_applications",
        )
    refreshed, synced, blocked = [], [], []
    for app in apps:
        if app.head_revision == revision:
            continue
        app = ctx.update(app, head_revision=revision, sync_status="OutOfSync")
        refreshed.append(app.id)
        if not app.auto_sync:
            continue
        running = ctx.first(Operation, application_id=app.id, phase="Running")
        if running is None and _window_state(ctx, app.project_id).automated_allowed:
            synced.append(_deploy(ctx, app, revision, None, prune=app.prune, automated=True, rollback=False).id)
        else:
            blocked.append(app.id)
    return PushResult(refreshed=tuple(refreshed), auto_synced=tuple(synced), blocked=tuple(blocked))


@service.tool(intent="check the project's sync windows", example=first_example(Project, "project_id"))
def sync_window_state(ctx: Ctx, project_id: ProjectId) -> WindowState:
    """Whether the project's sync windows let automated and manual syncs run now.

    Args:
        project_id: The project.
    """
    ctx.get(Project, project_id, field="project_id")
    return _window_state(ctx, project_id)


# -- seed -------------------------------------------------------------------------------------

IN_CLUSTER = "https://kubernetes.default.svc"
STAGING = "https://k8s-staging.internal:6443"
PROJECTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("platform", "Cluster add-ons and shared infrastructure.", ("monitoring", "ingress", "cert-manager")),
    ("payments", "Payment services (PCI scope).", ("payments", "payments-staging")),
    ("storefront", "Customer-facing web and API.", ("web", "api", "web-staging")),
    ("sandbox", "Experiments; no applications yet.", ("playground",)),
)
APPS: tuple[tuple[str, str, int, bool, str, str], ...] = (
    ("prometheus-stack", "platform", 0, True, "Synced", "Healthy"),
    ("ingress-nginx", "platform", 1, True, "Synced", "Healthy"),
    ("cert-manager", "platform", 2, False, "OutOfSync", "Healthy"),
    ("payments-api", "payments", 0, False, "Synced", "Healthy"),
    ("payments-worker", "payments", 0, True, "OutOfSync", "Degraded"),
    ("payments-api-staging", "payments", 1, True, "Synced", "Progressing"),
    ("web-frontend", "storefront", 0, False, "Synced", "Healthy"),
    ("catalog-api", "storefront", 1, True, "Synced", "Healthy"),
    ("checkout-api", "storefront", 1, False, "OutOfSync", "Progressing"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Three projects with destinations and windows, nine applications with histories and operations."""
    org = org_handle(s.population)
    eng = s.population.staff("Engineering", "IT", fallback=4)
    made: dict[str, Project] = {}
    for k, (name, text, namespaces) in enumerate(PROJECTS):
        dests = tuple(
            Destination(server=STAGING if ns.endswith("-staging") else IN_CLUSTER, namespace=ns) for ns in namespaces
        )
        made[name] = s.create(
            Project,
            name=name,
            description=text,
            source_repos=(f"https://github.com/{org}/{name}-deploy",),
            destinations=(*dests, Destination(server=IN_CLUSTER, namespace=f"{name}-sandbox")),
            owner_email=eng[k % len(eng)].email,
            created_at=s.ago(days=500 - 50 * k),
        )
    now = s.now
    # payments: a deny window covering now that lets manual syncs through; storefront: an allow window now.
    s.create(
        SyncWindow,
        project_id=made["payments"].id,
        kind="deny",
        days=WEEKDAYS,
        start_hour=(now.hour - 1) % 24,
        duration_hours=3,
        manual_sync=True,
        created_at=s.ago(days=90),
    )
    s.create(
        SyncWindow,
        project_id=made["storefront"].id,
        kind="allow",
        days=WEEKDAYS[:5] if now.weekday() < 5 else WEEKDAYS,
        start_hour=(now.hour - 2) % 24,
        duration_hours=10,
        created_at=s.ago(days=60),
    )
    s.create(
        SyncWindow,
        project_id=made["platform"].id,
        kind="deny",
        days=("sat", "sun"),
        start_hour=0,
        duration_hours=24,
        manual_sync=False,
        created_at=s.ago(days=200),
    )
    for k, (name, proj, dest_i, auto, sync, health) in enumerate(APPS):
        project = made[proj]
        repo = project.source_repos[0]
        revs = [_sha(repo, name, str(n)) for n in range(4)]
        head = revs[-1] if sync == "Synced" else _sha(repo, name, "new")
        app = s.create(
            Application,
            name=name,
            project_id=project.id,
            repo_url=repo,
            path=f"apps/{name}",
            target_revision="main",
            destination=project.destinations[dest_i],
            head_revision=head,
            synced_revision=revs[-1],
            sync_status=sync,
            health_status=health,
            auto_sync=auto,
            prune=auto and k % 2 == 0,
            self_heal=auto,
            owner_email=eng[(k + 1) % len(eng)].email,
            created_at=s.ago(days=300 - 10 * k),
            updated_at=s.ago(hours=3 + k),
        )
        for n, rev in enumerate(revs):
            when = s.ago(days=40 - 10 * n, hours=k)
            op = s.create(
                Operation,
                application_id=app.id,
                revision=rev,
                initiated_by=None if auto else app.owner_email,
                automated=auto,
                prune=app.prune,
                phase="Succeeded",
                message=f"successfully synced (all tasks run) to {rev[:7]}",
                hooks=(HookResult(name="smoke-test", phase="PostSync", status="Succeeded"),),
                started_at=when,
                finished_at=when + dt.timedelta(minutes=2),
            )
            s.create(
                HistoryEntry, application_id=app.id, number=n + 1, revision=rev, operation_id=op.id, deployed_at=when
            )
        if health == "Degraded":
            s.create(
                Operation,
                application_id=app.id,
                revision=head,
                automated=True,
                prune=app.prune,
                phase="Failed",
                message="one or more synchronization tasks completed unsuccessfully: PreSync hook db-migrate failed",
                hooks=(HookResult(name="db-migrate", phase="PreSync", status="Failed"),),
                started_at=s.ago(hours=2),
                finished_at=s.ago(hours=2) + dt.timedelta(minutes=4),
            )
        if name == "checkout-api":
            s.create(
                Operation,
                application_id=app.id,
                revision=head,
                initiated_by=app.owner_email,
                phase="Running",
                message="waiting for PreSync hook db-migrate",
                hooks=(HookResult(name="db-migrate", phase="PreSync", status="Running"),),
                started_at=s.ago(minutes=6),
            )
