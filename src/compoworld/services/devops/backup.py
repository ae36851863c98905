"""Vaultline Backup: backup and recovery of the company's servers, databases and mailboxes.

Modeled on the Veeam Backup & Replication REST API (``/api/v1``: backupInfrastructure/repositories,
inventory / protected computers, jobs with ``start``/``retry``/``enable``/``disable``, sessions with
result Success/Warning/Failed, restorePoints, restore sessions) with Druva-style resource ownership:
repositories with a capacity and an immutability period (hardened repositories, S3 Object Lock);
protected workloads (VMs, physical servers, SQL databases, Microsoft 365 mailboxes), each in at most
one backup job; jobs with a daily, weekly, monthly or manual schedule and a retention of N restore
points per workload; a run writes a full point first and increments after, fails for offline
workloads (Warning when some failed), can be retried for the failed ones only, and prunes points
beyond retention unless they are still immutable; restores to the original location need
four-eyes approval by another backup operator, restores to another host run at once.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.time import add_months, utc_at

__all__ = ["service"]

service = Service(
    "backup",
    title="Vaultline Backup",
    category="backup_recovery",
    modeled_on="Veeam Backup & Replication REST API v1: repositories, protected workloads, jobs "
    "(start/retry/enable/disable), sessions, restore points, restores with four-eyes authorization",
    description="Backup and recovery for IT: backup repositories with capacity and immutability, the "
    "protected servers, databases and mailboxes, scheduled backup jobs with retention, their run sessions "
    "and failures, the restore points they keep, and restores that need a second operator's approval.",
)

RepositoryId = Annotated[str, IdOf("backup.repository")]
WorkloadId = Annotated[str, IdOf("backup.workload")]
JobId = Annotated[str, IdOf("backup.job")]
SessionId = Annotated[str, IdOf("backup.session")]
PointId = Annotated[str, IdOf("backup.restore_point")]
RestoreId = Annotated[str, IdOf("backup.restore")]

Hostname = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$")]
"""A lower-case host name or FQDN."""
ObjectName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 _.@-]{0,127}$")]
"""A repository or workload name."""
ClockTime = Annotated[str, StringConstraints(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")]
"""A time of day, HH:MM UTC."""
Gigabytes = Annotated[int, Field(ge=0, le=10**7)]

RepoKind = Literal["windows_local", "linux_hardened", "s3_compatible", "azure_blob"]
RepoStatus = Literal["available", "maintenance"]
WorkloadKind = Literal["vmware_vm", "hyperv_vm", "windows_server", "linux_server", "sql_database", "m365_mailbox"]
WorkloadStatus = Literal["online", "offline"]
Schedule = Literal["daily", "weekly", "monthly", "manual"]
JobStatus = Literal["enabled", "disabled"]
Result = Literal["none", "success", "warning", "failed"]
RestoreKind = Literal["full", "file_level", "instant_recovery", "database_items", "mailbox_items"]
RestoreStatus = Literal["pending_approval", "completed", "rejected", "cancelled"]

ITEM_RESTORES: dict[str, tuple[str, ...]] = {
    "file_level": ("vmware_vm", "hyperv_vm", "windows_server", "linux_server"),
    "instant_recovery": ("vmware_vm", "hyperv_vm"),
    "database_items": ("sql_database",),
    "mailbox_items": ("m365_mailbox",),
}


class Repository(Created):
    """A backup repository: where restore points are stored."""

    id: RepositoryId
    name: ObjectName
    """Its name (unique)."""
    kind: RepoKind
    """windows_local, linux_hardened, s3_compatible or azure_blob."""
    capacity_gb: Gigabytes
    """Total capacity."""
    used_gb: Gigabytes = 0
    """Space taken by restore points."""
    immutable_days: Annotated[int, Field(ge=0, le=365)] = 0
    """Days a new restore point cannot be deleted (0: mutable)."""
    status: RepoStatus = "available"
    """available or maintenance (no job may write to it)."""


class Workload(Created):
    """A protected object: a VM, server, database or mailbox."""

    id: WorkloadId
    name: ObjectName
    """Its name (unique)."""
    kind: WorkloadKind
    """vmware_vm, hyperv_vm, windows_server, linux_server, sql_database or m365_mailbox."""
    hostname: Hostname | None = None
    """The host it runs on (none for mailboxes)."""
    owner_email: Email
    """The employee responsible for it (a mailbox: its user)."""
    size_gb: Annotated[int, Field(ge=1, le=10**6)]
    """Its data size."""
    status: WorkloadStatus = "online"
    """online or offline (a backup of it fails)."""
    last_backup_at: DateTime | None = None
    """When a restore point of it was last made."""


class Job(Timestamped):
    """A backup job: which workloads go to which repository, when, and how many points are kept."""

    id: JobId
    name: Title
    """The job's name (unique)."""
    workload_ids: tuple[WorkloadId, ...]
    """The workloads it protects."""
    repository_id: RepositoryId
    """Where it writes."""
    schedule: Schedule = "daily"
    """daily, weekly (Saturdays), monthly (the 1st) or manual."""
    run_at: ClockTime = "22:00"
    """Time of day it starts (UTC)."""
    retention_points: Annotated[int, Field(ge=1, le=999)] = 14
    """Restore points kept per workload."""
    status: JobStatus = "enabled"
    """enabled or disabled (it does not run)."""
    last_result: Result = "none"
    """Result of its last run: none, success, warning or failed."""
    last_run_at: DateTime | None = None
    """When it last ran."""
    next_run_at: DateTime | None = None
    """When it runs next (none when manual or disabled)."""
    owner_email: Email
    """The backup operator responsible."""


class Session(Record):
    """One run of a job."""

    id: SessionId
    job_id: JobId
    """The job."""
    retry: bool = False
    """Whether it retried only the previous run's failures."""
    result: Result
    """success, warning (some workloads failed) or failed."""
    processed_ids: tuple[WorkloadId, ...]
    """Workloads backed up."""
    failed_ids: tuple[WorkloadId, ...] = ()
    """Workloads that failed."""
    message: Text = ""
    """Why workloads failed."""
    transferred_gb: Gigabytes = 0
    """Data written."""
    started_at: Annotated[DateTime, CREATED]
    """When it ran."""


class RestorePoint(Record):
    """A restorable state of one workload."""

    id: PointId
    workload_id: WorkloadId
    """The workload."""
    job_id: JobId
    """The job that made it."""
    repository_id: RepositoryId
    """Where it is stored."""
    point_type: Literal["full", "increment"]
    """full or increment."""
    size_gb: Gigabytes
    """Space it takes."""
    immutable_until: DateTime | None = None
    """It cannot be deleted before then."""
    corrupted: bool = False
    """A health check found it unreadable."""
    created_at: Annotated[DateTime, CREATED]
    """The moment it captures."""


class Restore(Timestamped):
    """A restore of a restore point, to its original place or another host."""

    id: RestoreId
    restore_point_id: PointId
    """The point restored."""
    workload_id: WorkloadId
    """Its workload."""
    kind: RestoreKind
    """full, file_level, instant_recovery, database_items or mailbox_items."""
    to_original: bool
    """Whether it overwrites the original (needs four-eyes approval)."""
    target_hostname: Hostname | None = None
    """The other host it restores to."""
    reason: Text
    """Why."""
    requested_by: Email
    """The operator who started it."""
    status: RestoreStatus
    """pending_approval, completed, rejected or cancelled."""
    decided_by: Email | None = None
    """The second operator who approved or rejected it."""
    completed_at: DateTime | None = None
    """When it finished."""


# -- rules ------------------------------------------------------------------------------------


def _operators(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.staff("IT", "Engineering", fallback=6)}


def _operator(ctx: Ctx, email: str, field: str) -> None:
    if email not in _operators(ctx):
        raise RuleViolation(
            f"{email} is not a backup operator", field=field, hint="use an IT or Engineering employee's e-mail"
        )


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _next_run(now: dt.datetime, schedule: str, run_at: str, status: str) -> dt.datetime | None:
    if schedule == "manual" or status != "enabled":
        return None
    h, m = map(int, run_at.split(":"))
    day = now.date()
    if schedule == "weekly":
        day += dt.timedelta(days=(5 - day.weekday()) % 7)
    elif schedule == "monthly":
        day = add_months(day.replace(day=1), 1)
    when = utc_at(day, h, m)
    step = {"daily": 1, "weekly": 7}.get(schedule)
    return when + dt.timedelta(days=step) if step and when <= now else when


def _check_job(ctx: Ctx, job: Any, field: str = "workload_ids") -> None:
    if not job.workload_ids:
        raise RuleViolation("a job needs at least one workload", field=field, hint="list the workload ids")
    if len(set(job.workload_ids)) != len(job.workload_ids):
        raise RuleViolation("a workload is listed twice", field=field, hint="list each workload once")
    for wid in job.workload_ids:
        ctx.get(Workload, wid, field=field)
        for other in ctx.scan(Job):
            if other.id != job.id and wid in other.workload_ids:
                raise Conflict(
                    f"workload {wid} is already protected by job {other.name!r}",
                    field=field,
                    hint="remove it from that job first (backup__update_job)",
                )


def _guard_job(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.workload_ids != old.workload_ids:
        _check_job(ctx, new)
    nxt = _next_run(ctx.now(), new.schedule, new.run_at, new.status)
    if nxt != new.next_run_at:
        ctx.update(new, next_run_at=nxt)


def _guard_job_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for p in ctx.where(RestorePoint, job_id=old.id):
        if p.immutable_until is not None and p.immutable_until > ctx.now():
            raise Conflict(
                f"job {old.name!r} has immutable restore points until {p.immutable_until:%Y-%m-%d}",
                field="job_id",
                hint="disable the job instead (backup__disable_job)",
            )


def _guard_repo_delete(ctx: Ctx, new: Any, old: Any) -> None:
    used = ctx.first(Job, repository_id=old.id) or ctx.first(RestorePoint, repository_id=old.id)
    if used is not None:
        raise Conflict(
            f"repository {old.name!r} is still used by {used.id}",
            field="repository_id",
            hint="move its jobs and let their points expire first",
        )


def _guard_workload_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for job in ctx.scan(Job):
        if old.id in job.workload_ids:
            raise Conflict(
                f"workload {old.name!r} is protected by job {job.name!r}",
                field="workload_id",
                hint="remove it from the job first (backup__update_job)",
            )


def _guard_point_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.immutable_until is not None and old.immutable_until > ctx.now():
        raise RuleViolation(
            f"restore point {old.id} is immutable until {old.immutable_until:%Y-%m-%d}",
            field="restore_point_id",
            hint="immutable points cannot be deleted before that date",
        )
    if ctx.first(Restore, restore_point_id=old.id, status="pending_approval") is not None:
        raise Conflict(
            f"restore point {old.id} has a pending restore",
            field="restore_point_id",
            hint="decide or cancel the restore first",
        )
    repo = ctx.get(Repository, old.repository_id)
    ctx.update(repo, used_gb=max(0, repo.used_gb - old.size_gb))


repositories = service.resource(
    Repository,
    name="repository",
    plural="repositories",
    prefix="repo",
    create=False,
    filters=("kind", "status", "name"),
    search=("name",),
    update=("capacity_gb", "immutable_days", "status"),
    guard_delete=_guard_repo_delete,
    title="backup repository",
)
workloads = service.resource(
    Workload,
    name="workload",
    plural="workloads",
    prefix="wl",
    create=False,
    filters=("kind", "status", "owner_email", "hostname", "name"),
    search=("name", "hostname"),
    update=("owner_email", "size_gb", "status"),
    guard_delete=_guard_workload_delete,
    title="protected workload",
)
jobs = service.resource(
    Job,
    name="job",
    plural="jobs",
    prefix="job",
    create=False,
    filters=("repository_id", "schedule", "status", "last_result", "owner_email"),
    search=("name",),
    update=("workload_ids", "schedule", "run_at", "retention_points"),
    transitions={
        "enable": Transition("status", ("disabled",), "enabled", "enable the backup job"),
        "disable": Transition("status", ("enabled",), "disabled", "disable the backup job"),
    },
    guard_update=_guard_job,
    guard_delete=_guard_job_delete,
    title="backup job",
)
sessions = service.resource(
    Session,
    name="session",
    plural="sessions",
    prefix="ses",
    create=False,
    filters=("job_id", "result", "retry"),
    delete=False,
    title="job session",
)
points = service.resource(
    RestorePoint,
    name="restore_point",
    plural="restore_points",
    prefix="rp",
    create=False,
    filters=("workload_id", "job_id", "repository_id", "point_type", "corrupted"),
    guard_delete=_guard_point_delete,
    title="restore point",
)
restores = service.resource(
    Restore,
    name="restore",
    plural="restores",
    prefix="rst",
    create=False,
    filters=("workload_id", "restore_point_id", "status", "requested_by", "kind"),
    search=("reason",),
    delete=False,
    transitions={"cancel": Transition("status", ("pending_approval",), "cancelled", "cancel the restore")},
)


# -- inventory and jobs -----------------------------------------------------------------------


def _unique_name(ctx: Ctx, model: type[Repository] | type[Workload] | type[Job], name: str) -> None:
    for r in ctx.scan(model):
        if r.name.lower() == name.lower():
            raise Conflict(f"{r.id} is already named {r.name!r}", field="name", hint="pick another name")


@service.tool(
    intent="add the backup repository",
    write=True,
    example=lambda ctx: {"name": "DR-Site-S3", "kind": "s3_compatible", "capacity_gb": 80000, "immutable_days": 30},
)
def add_repository(
    ctx: Ctx, name: ObjectName, kind: RepoKind, capacity_gb: Gigabytes, immutable_days: int = 0
) -> Repository:
    """Register a backup repository; names are unique.

    Args:
        name: Its name.
        kind: windows_local, linux_hardened, s3_compatible or azure_blob.
        capacity_gb: Its capacity in GB.
        immutable_days: Days new points stay immutable (hardened Linux and object storage only; 0-365).
    """
    _unique_name(ctx, Repository, name)
    if immutable_days and kind == "windows_local":
        raise RuleViolation(
            "a Windows repository cannot make points immutable",
            field="immutable_days",
            hint="use a linux_hardened or object-storage repository, or 0",
        )
    if not 0 <= immutable_days <= 365:
        raise RuleViolation("immutable_days must be 0-365", field="immutable_days", hint="pick 0-365 days")
    return ctx.create(Repository, name=name, kind=kind, capacity_gb=capacity_gb, immutable_days=immutable_days)


def _example_workload(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "hr-app-01",
        "kind": "linux_server",
        "hostname": "hr-app-01.corp.internal",
        "owner_email": ctx.population.employees[0].email,
        "size_gb": 120,
    }


@service.tool(intent="add the workload to the inventory", write=True, example=_example_workload)
def add_workload(
    ctx: Ctx,
    name: ObjectName,
    kind: WorkloadKind,
    owner_email: Email,
    size_gb: Annotated[int, Field(ge=1, le=10**6)],
    hostname: Hostname | None = None,
) -> Workload:
    """Add a server, VM, database or mailbox to the protected inventory; names are unique.

    Args:
        name: Its name (a mailbox: the user's e-mail).
        kind: vmware_vm, hyperv_vm, windows_server, linux_server, sql_database or m365_mailbox.
        owner_email: The employee responsible for it.
        size_gb: Its data size in GB.
        hostname: The host it runs on (required except for mailboxes).
    """
    _unique_name(ctx, Workload, name)
    _staff(ctx, owner_email, "owner_email")
    if hostname is None and kind != "m365_mailbox":
        raise RuleViolation(f"a {kind} needs its hostname", field="hostname", hint="give the host's name")
    return ctx.create(Workload, name=name, kind=kind, owner_email=owner_email, size_gb=size_gb, hostname=hostname)


def _example_job(ctx: Ctx) -> dict[str, Any] | None:
    taken = {w for j in ctx.scan(Job) for w in j.workload_ids}
    free = [w.id for w in ctx.scan(Workload) if w.id not in taken]
    repo = ctx.first(Repository, status="available")
    if not free or repo is None:
        return None
    owner = sorted(_operators(ctx))[0]
    return {"name": "New servers nightly", "workload_ids": free[:1], "repository_id": repo.id, "owner_email": owner}


@service.tool(intent="create the backup job", write=True, example=_example_job)
def create_job(
    ctx: Ctx,
    name: Title,
    workload_ids: list[WorkloadId],
    repository_id: RepositoryId,
    owner_email: Email,
    schedule: Schedule = "daily",
    run_at: ClockTime = "22:00",
    retention_points: Annotated[int, Field(ge=1, le=999)] = 14,
) -> Job:
    """Create a backup job; each workload may be protected by one job only.

    Args:
        name: Its name (unique).
        workload_ids: The workloads it protects.
        repository_id: Where it writes.
        owner_email: The backup operator responsible.
        schedule: daily, weekly (Saturdays), monthly (the 1st) or manual.
        run_at: Time of day it starts, HH:MM UTC.
        retention_points: Restore points kept per workload.
    """
    _unique_name(ctx, Job, name)
    ctx.get(Repository, repository_id, field="repository_id")
    _operator(ctx, owner_email, "owner_email")
    job = ctx.create(
        Job,
        name=name,
        workload_ids=tuple(workload_ids),
        repository_id=repository_id,
        owner_email=owner_email,
        schedule=schedule,
        run_at=run_at,
        retention_points=retention_points,
        next_run_at=_next_run(ctx.now(), schedule, run_at, "enabled"),
    )
    _check_job(ctx, job)
    return job


def _run(ctx: Ctx, job: Job, targets: list[str], retry: bool) -> Session:
    repo = ctx.get(Repository, job.repository_id)
    if repo.status != "available":
        raise RuleViolation(
            f"repository {repo.name!r} is in maintenance", field="job_id", hint="bring it back to available first"
        )
    now, done, failed, written = ctx.now(), [], [], 0
    for wid in targets:
        w = ctx.get(Workload, wid)
        if w.status != "online":
            failed.append(wid)
            continue
        chain = sorted(ctx.where(RestorePoint, job_id=job.id, workload_id=wid), key=lambda p: p.created_at)
        size = w.size_gb if not chain else max(1, w.size_gb // 10)
        if repo.used_gb + written + size > repo.capacity_gb:
            raise RuleViolation(
                f"repository {repo.name!r} has {repo.capacity_gb - repo.used_gb - written} GB free, {w.name} needs {size}",
                field="job_id",
                hint="raise its capacity_gb or delete old restore points",
            )
        lock = now + dt.timedelta(days=repo.immutable_days) if repo.immutable_days else None
        kind = "increment" if chain else "full"
        ctx.create(
            RestorePoint,
            workload_id=wid,
            job_id=job.id,
            repository_id=repo.id,
            point_type=kind,
            size_gb=size,
            immutable_until=lock,
        )
        written += size
        for old in chain[: max(0, len(chain) + 1 - job.retention_points)]:
            if old.immutable_until is None or old.immutable_until <= now:
                written -= old.size_gb
                ctx.delete(old)
        ctx.update(w, last_backup_at=now)
        done.append(wid)
    result: Result = "success" if not failed else ("warning" if done else "failed")
    ctx.update(repo, used_gb=max(0, repo.used_gb + written))
    ctx.update(job, last_result=result, last_run_at=now)
    return ctx.create(
        Session,
        job_id=job.id,
        retry=retry,
        result=result,
        processed_ids=tuple(done),
        failed_ids=tuple(failed),
        message="; ".join(f"{w}: host is offline" for w in failed),
        transferred_gb=max(0, written),
    )


@service.tool(
    intent="start the backup job",
    write=True,
    example=first_example(Job, "job_id", where={"status": "enabled", "last_result": "success"}),
)
def start_job(ctx: Ctx, job_id: JobId) -> Session:
    """Run an enabled job now over all its workloads; offline workloads fail and the run ends as warning or failed.

    Args:
        job_id: The job.
    """
    job = ctx.get(Job, job_id, field="job_id")
    if job.status != "enabled":
        raise RuleViolation(f"job {job.name!r} is disabled", field="job_id", hint="enable it with backup__enable_job")
    return _run(ctx, job, list(job.workload_ids), retry=False)


@service.tool(
    intent="retry the failed backup job",
    write=True,
    example=first_example(Job, "job_id", where={"last_result": "warning"}),
)
def retry_job(ctx: Ctx, job_id: JobId) -> Session:
    """Rerun only the workloads that failed in the job's last run.

    Args:
        job_id: The job; its last run must have ended as warning or failed.
    """
    job = ctx.get(Job, job_id, field="job_id")
    if job.last_result not in ("warning", "failed"):
        raise RuleViolation(
            f"job {job.name!r} last ended {job.last_result}; nothing to retry",
            field="job_id",
            hint="start it with backup__start_job instead",
        )
    last = max(ctx.where(Session, job_id=job.id), key=lambda s: (s.started_at, s.id))
    return _run(ctx, job, [w for w in last.failed_ids if w in job.workload_ids], retry=True)


# -- restores ---------------------------------------------------------------------------------


def _example_restore(ctx: Ctx) -> dict[str, Any] | None:
    p = next(
        (p for p in ctx.where(RestorePoint, corrupted=False) if not ctx.where(Restore, workload_id=p.workload_id)),
        None,
    )
    if p is None:
        return None
    return {
        "restore_point_id": p.id,
        "kind": "full",
        "to_original": True,
        "reason": "Roll back a failed upgrade",
        "requested_by": sorted(_operators(ctx))[0],
    }


@service.tool(intent="restore from the restore point", write=True, example=_example_restore)
def start_restore(
    ctx: Ctx,
    restore_point_id: PointId,
    kind: RestoreKind,
    to_original: bool,
    reason: Text,
    requested_by: Email,
    target_hostname: Hostname | None = None,
) -> Restore:
    """Restore a point: to another host it completes at once; over the original it waits for a second operator.

    Args:
        restore_point_id: The restore point.
        kind: full, file_level, instant_recovery (VMs), database_items (SQL) or mailbox_items (mailboxes).
        to_original: Overwrite the original workload (needs four-eyes approval).
        reason: Why (required).
        requested_by: The backup operator starting it.
        target_hostname: The other host to restore to (required when not to_original).
    """
    point = ctx.get(RestorePoint, restore_point_id, field="restore_point_id")
    w = ctx.get(Workload, point.workload_id)
    if point.corrupted:
        raise RuleViolation(
            f"restore point {point.id} failed its health check",
            field="restore_point_id",
            hint="pick an earlier point of the workload (backup__list_restore_points)",
        )
    if kind in ITEM_RESTORES and w.kind not in ITEM_RESTORES[kind]:
        raise RuleViolation(
            f"{kind} restore does not apply to a {w.kind}",
            field="kind",
            hint=f"use full or a restore for {w.kind}",
        )
    if not reason.strip():
        raise RuleViolation("a restore needs a reason", field="reason", hint="say why it is restored")
    _operator(ctx, requested_by, "requested_by")
    if to_original == (target_hostname is not None):
        raise RuleViolation(
            "give target_hostname exactly when not restoring to the original",
            field="target_hostname",
            hint="omit it for to_original, give it otherwise",
        )
    if to_original and ctx.first(Restore, workload_id=w.id, status="pending_approval") is not None:
        raise Conflict(
            f"{w.name} already has a restore awaiting approval", field="restore_point_id", hint="decide that one first"
        )
    return ctx.create(
        Restore,
        restore_point_id=point.id,
        workload_id=w.id,
        kind=kind,
        to_original=to_original,
        target_hostname=target_hostname,
        reason=reason.strip(),
        requested_by=requested_by,
        status="pending_approval" if to_original else "completed",
        completed_at=None if to_original else ctx.now(),
    )


def _pending(ctx: Ctx, restore_id: str, approver_email: str) -> Restore:
    r = ctx.get(Restore, restore_id, field="restore_id")
    if r.status != "pending_approval":
        raise Conflict(f"restore {r.id} is {r.status}", field="restore_id", hint="only pending restores are decided")
    _operator(ctx, approver_email, "approver_email")
    if approver_email == r.requested_by:
        raise RuleViolation(
            "four-eyes authorization needs a second operator", field="approver_email", hint="ask another operator"
        )
    return r


def _example_decide(extra: dict[str, Any]) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        r = ctx.first(Restore, status="pending_approval")
        if r is None:
            return None
        other = next(e for e in sorted(_operators(ctx)) if e != r.requested_by)
        return {"restore_id": r.id, "approver_email": other} | extra

    return example


@service.tool(intent="approve the restore", write=True, example=_example_decide({}))
def approve_restore(ctx: Ctx, restore_id: RestoreId, approver_email: Email) -> Restore:
    """Approve a restore over the original workload; it runs at once and brings the workload back online.

    Args:
        restore_id: The restore.
        approver_email: A backup operator other than the requester.
    """
    r = _pending(ctx, restore_id, approver_email)
    w = ctx.get(Workload, r.workload_id)
    if r.kind in ("full", "instant_recovery") and w.status != "online":
        ctx.update(w, status="online")
    return ctx.update(r, status="completed", decided_by=approver_email, completed_at=ctx.now())


@service.tool(intent="reject the restore", write=True, example=_example_decide({}))
def reject_restore(ctx: Ctx, restore_id: RestoreId, approver_email: Email) -> Restore:
    """Reject a restore over the original workload.

    Args:
        restore_id: The restore.
        approver_email: A backup operator other than the requester.
    """
    r = _pending(ctx, restore_id, approver_email)
    return ctx.update(r, status="rejected", decided_by=approver_email)


# -- seed -------------------------------------------------------------------------------------

REPOS: tuple[tuple[str, RepoKind, int, int, RepoStatus], ...] = (
    ("Primary-Hardened", "linux_hardened", 20000, 7, "available"),
    ("Offsite-S3", "s3_compatible", 60000, 30, "available"),
    ("Legacy-NAS", "windows_local", 4000, 0, "maintenance"),
    ("Spare-Blob", "azure_blob", 10000, 0, "available"),
)
SERVERS: tuple[tuple[str, WorkloadKind, int], ...] = (
    ("web-01", "vmware_vm", 80),
    ("web-02", "vmware_vm", 80),
    ("db-01", "linux_server", 400),
    ("erp-prod", "sql_database", 650),
    ("files-01", "windows_server", 1200),
    ("dc-01", "hyperv_vm", 60),
    ("build-01", "linux_server", 300),
    ("build-02", "linux_server", 300),
    ("lab-01", "windows_server", 200),
    ("print-01", "windows_server", 40),
)
JOBS: tuple[tuple[str, str, int, Schedule, str, int, JobStatus], ...] = (
    ("Production servers nightly", "web-01 web-02 db-01 dc-01", 0, "daily", "22:00", 7, "enabled"),
    ("ERP database", "erp-prod", 0, "daily", "01:00", 14, "enabled"),
    ("File server weekly", "files-01", 1, "weekly", "20:00", 4, "enabled"),
    ("Build servers", "build-01 build-02", 0, "daily", "03:00", 3, "enabled"),
    ("Mailboxes", "@mail", 1, "daily", "23:00", 30, "enabled"),
    ("Legacy archive", "lab-01", 2, "monthly", "02:00", 12, "disabled"),
)
STEP: dict[str, int] = {"daily": 1, "weekly": 7, "monthly": 30}


@service.seeder
def seed(s: SeedContext) -> None:
    """Repositories, servers and mailboxes, jobs in every state with sessions and restore points, and restores."""
    pop = s.population
    ops = pop.staff("IT", "Engineering", fallback=6)
    repos = [
        s.create(Repository, name=n, kind=k, capacity_gb=c, immutable_days=d, status=st, created_at=s.ago(days=700))
        for n, k, c, d, st in REPOS
    ]
    by_name: dict[str, Workload] = {}
    for k, (name, kind, size) in enumerate(SERVERS):
        by_name[name] = s.create(
            Workload,
            name=name,
            kind=kind,
            hostname=f"{name}.{pop.home.domain}",
            owner_email=ops[k % len(ops)].email,
            size_gb=size,
            status="offline" if name == "build-02" else "online",
            created_at=s.ago(days=600 - 20 * k),
        )
    mailboxes = [
        s.create(
            Workload,
            name=p.email,
            kind="m365_mailbox",
            owner_email=p.email,
            size_gb=5 + 3 * k,
            created_at=s.ago(days=365),
        )
        for k, p in enumerate(pop.employees[:6])
    ]
    for n, (name, names, r, sched, at, keep, status) in enumerate(JOBS):
        members = [m.id for m in mailboxes] if names == "@mail" else [by_name[x].id for x in names.split()]
        job = s.create(
            Job,
            name=name,
            workload_ids=tuple(members),
            repository_id=repos[r].id,
            schedule=sched,
            run_at=at,
            retention_points=keep,
            status=status,
            owner_email=ops[n % len(ops)].email,
            created_at=s.ago(days=400),
            updated_at=s.ago(days=30),
        )
        repos[r] = _seed_runs(s, job, repos[r], STEP[sched])
    _seed_restores(s, ops)


def _seed_runs(s: SeedContext, job: Job, repo: Repository, step: int) -> Repository:
    """Three runs, ``step`` days apart, with their restore points; offline workloads failed the last one."""
    loads = {w.id: w for w in s.records(Workload)}
    h, m = map(int, job.run_at.split(":"))
    for run in range(3):
        back = step * (3 - run)
        at = utc_at((s.now - dt.timedelta(days=back)).date(), h, m)
        ok_ids, bad, sent = [], [], 0
        for wid in job.workload_ids:
            w = loads[wid]
            if w.status == "offline" and run == 2:
                bad.append(wid)
                continue
            ok_ids.append(wid)
            size = w.size_gb if run == 0 else max(1, w.size_gb // 10)
            lock = at + dt.timedelta(days=repo.immutable_days) if repo.immutable_days else None
            s.create(
                RestorePoint,
                workload_id=wid,
                job_id=job.id,
                repository_id=repo.id,
                point_type="full" if run == 0 else "increment",
                size_gb=size,
                immutable_until=lock,
                corrupted=(w.name == "db-01" and run == 1),
                created_at=at,
            )
            loads[wid] = s.update(w, last_backup_at=at)
            sent += size
        repo = s.update(repo, used_gb=repo.used_gb + sent)
        result: Result = "success" if not bad else ("warning" if ok_ids else "failed")
        s.create(
            Session,
            job_id=job.id,
            result=result,
            processed_ids=tuple(ok_ids),
            failed_ids=tuple(bad),
            message="; ".join(f"{w}: host is offline" for w in bad),
            transferred_gb=sent,
            started_at=at,
        )
    nxt = _next_run(s.now, job.schedule, job.run_at, job.status)
    s.update(job, last_result=result, last_run_at=at, next_run_at=nxt)
    return repo


def _seed_restores(s: SeedContext, ops: list[Any]) -> None:
    """A completed restore to another host, one awaiting approval, one rejected."""
    found = [p for p in s.records(RestorePoint) if not p.corrupted]
    a, b = ops[0].email, ops[1 % len(ops)].email
    for k, (status, original, reason) in enumerate(
        (
            ("completed", False, "Recover a deleted folder for Finance"),
            ("pending_approval", True, "Roll back the failed kernel update"),
            ("rejected", True, "Restore yesterday's state before the audit"),
        )
    ):
        p = found[3 * k]
        s.create(
            Restore,
            restore_point_id=p.id,
            workload_id=p.workload_id,
            kind="file_level" if k == 0 else "full",
            to_original=original,
            target_hostname=None if original else f"restore-01.{s.population.home.domain}",
            reason=reason,
            requested_by=a,
            status=status,
            decided_by=b if status == "rejected" else None,
            completed_at=s.ago(days=1) if status == "completed" else None,
            created_at=s.ago(days=1 + k),
            updated_at=s.ago(days=1),
        )
