"""Patchwise: patch management for the company's laptops and servers.

Modeled on the Automox Console API: server groups (``/servergroups``) with a
refresh interval and assigned policies, one of them the undeletable Default
group; devices (``/servers``) in one group, connected or disconnected, with
pending software patches and a needs-reboot flag; patch policies
(``/policies``, ``policy_type_name`` patch) that select patches (all, by
severity, or by name filter) and run on scheduled weekdays at a time, with a
reboot rule (automatic reboot, or notify and let the user defer up to a
number of times); runs of a policy (``/policies/{id}/action`` remediateAll)
with per-device results; and patch exceptions that exclude one package from
one device until they expire (critical patches at most 30 days, others 90).
A run installs the selected, non-excepted pending patches on every connected
device of the policy's groups; disconnected devices are skipped; a device that
installed a patch needing a reboot either reboots (automatic) or is flagged.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "patching",
    title="Patchwise",
    category="patch_management",
    modeled_on="Automox Console API: servergroups, servers (devices) and their packages, patch policies with "
    "schedules and reboot settings, policy runs and results, patch exceptions",
    description="Patch management for the company's laptops and servers: device groups, devices with pending "
    "operating-system and software patches, patch policies that run on a weekly schedule with reboot rules, "
    "policy runs with per-device results, and time-limited exceptions that hold a patch back on a device.",
)

GroupId = Annotated[str, IdOf("patching.group")]
DeviceId = Annotated[str, IdOf("patching.device")]
PatchId = Annotated[str, IdOf("patching.patch")]
PolicyId = Annotated[str, IdOf("patching.policy")]
RunId = Annotated[str, IdOf("patching.run")]
ResultId = Annotated[str, IdOf("patching.run_result")]
ExceptionId = Annotated[str, IdOf("patching.exception")]

Hostname = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$")]
"""A lower-case host name or FQDN."""
TimeOfDay = Annotated[str, StringConstraints(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")]
"""HH:MM in the device's local time."""
PackageName = Annotated[str, StringConstraints(min_length=1, max_length=160)]
"""A package's display name."""

OsFamily = Literal["Windows", "Mac", "Linux"]
Connection = Literal["connected", "disconnected"]
Severity = Literal["critical", "high", "medium", "low", "none"]
PatchStatus = Literal["pending", "installed", "failed", "excepted"]
PatchRule = Literal["all", "severity", "filter"]
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
RunStatus = Literal["success", "partial", "failed"]
ResultStatus = Literal["success", "failed", "skipped_offline", "nothing_to_do"]
ExceptionStatus = Literal["active", "revoked", "expired"]

SEVERITIES: tuple[Severity, ...] = ("none", "low", "medium", "high", "critical")
MAX_EXCEPTION = dt.timedelta(days=90)
MAX_EXCEPTION_CRITICAL = dt.timedelta(days=30)


class Group(Record):
    """A server group: devices managed together under the same policies."""

    id: GroupId
    name: Title
    """Its name (unique)."""
    is_default: bool = False
    """The Default group new devices join; it cannot be deleted."""
    refresh_interval: Annotated[int, Field(ge=240, le=1440)] = 1440
    """Minutes between device inventory scans."""
    notes: str = ""
    """Free notes."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Device(Record):
    """A managed endpoint running the agent."""

    id: DeviceId
    name: Hostname
    """Its host name (unique)."""
    group_id: GroupId
    """Its server group."""
    os_family: OsFamily
    """Windows, Mac or Linux."""
    os_version: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """The operating system version."""
    owner_email: Email | None = None
    """The employee who uses it."""
    connection: Connection = "connected"
    """connected or disconnected (agent not checking in)."""
    needs_reboot: bool = False
    """A reboot is pending to finish installing patches."""
    last_refresh: DateTime | None = None
    """When it last reported its inventory."""
    last_reboot: DateTime | None = None
    """When it last rebooted."""
    created_at: Annotated[DateTime, CREATED]
    """When it was enrolled."""


class Patch(Record):
    """A software package update available for one device."""

    id: PatchId
    device_id: DeviceId
    """The device."""
    name: PackageName
    """The package update (e.g. 2024-05 Cumulative Update for Windows 11)."""
    version: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """The version it installs."""
    severity: Severity
    """critical, high, medium, low or none."""
    cves: tuple[Annotated[str, StringConstraints(pattern=r"^CVE-\d{4}-\d{4,7}$")], ...] = ()
    """The CVEs it fixes."""
    requires_reboot: bool = False
    """Whether installing it needs a reboot."""
    status: PatchStatus = "pending"
    """pending, installed, failed or excepted."""
    installed_at: DateTime | None = None
    """When it was installed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Policy(Record):
    """A patch policy: which patches to install, when, on which groups, and how to reboot."""

    id: PolicyId
    name: Title
    """Its name (unique)."""
    patch_rule: PatchRule = "all"
    """all, severity (at or above min_severity) or filter (names containing filter_text)."""
    min_severity: Severity | None = None
    """The lowest severity a severity rule installs."""
    filter_text: str | None = None
    """The text a filter rule matches in package names."""
    schedule_days: tuple[Weekday, ...]
    """The weekdays it runs on."""
    schedule_time: TimeOfDay = "02:00"
    """When it runs, in the device's local time."""
    auto_reboot: bool = False
    """Reboot devices right after installing patches that need it."""
    max_deferrals: Annotated[int, Field(ge=0, le=10)] = 3
    """How often users may defer a reboot when not automatic."""
    group_ids: tuple[GroupId, ...] = ()
    """The server groups it applies to."""
    enabled: bool = True
    """Whether it runs."""
    owner_email: Email | None = None
    """The administrator who owns it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Run(Record):
    """One execution of a policy over its groups."""

    id: RunId
    policy_id: PolicyId
    """The policy."""
    status: RunStatus
    """success, partial (some devices offline or failed) or failed."""
    device_count: int
    """Devices in scope."""
    patches_installed: int
    """Patches installed in all."""
    triggered_by: Email | None = None
    """Who ran it now; none: the schedule."""
    started_at: DateTime
    """When it started."""


class RunResult(Record):
    """What one run did on one device."""

    id: ResultId
    run_id: RunId
    """The run."""
    device_id: DeviceId
    """The device."""
    status: ResultStatus
    """success, failed, skipped_offline or nothing_to_do."""
    patches_installed: int = 0
    """Patches it installed."""
    rebooted: bool = False
    """Whether it rebooted."""


class PatchException(Record):
    """An exclusion of one package from one device until it expires."""

    id: ExceptionId
    device_id: DeviceId
    """The device."""
    package: PackageName
    """The package held back."""
    reason: Text
    """Why."""
    requested_by: Email
    """The employee who asked."""
    expires_on: Date
    """The last day it applies."""
    status: ExceptionStatus = "active"
    """active, revoked or expired."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Compliance(Value):
    """A device's patch posture."""

    device_id: DeviceId
    """The device."""
    name: Hostname
    """Its host name."""
    pending_by_severity: dict[Severity, int]
    """Pending patches per severity."""
    excepted: int
    """Patches held back by an exception."""
    needs_reboot: bool
    """Whether a reboot is pending."""
    compliant: bool
    """No pending critical or high patch and no pending reboot."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the organization", field=field, hint="use an employee's e-mail")


def _guard_group(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        if old.is_default:
            raise Conflict("the Default group cannot be deleted", field="group_id", hint="delete another group")
        if ctx.where(Device, group_id=old.id):
            raise Conflict(
                f"group {old.name!r} still has devices", field="group_id", hint="move them with patching__move_device"
            )
        for p in ctx.scan(Policy):
            if old.id in p.group_ids:
                ctx.update(p, group_ids=tuple(g for g in p.group_ids if g != old.id))
        return
    for g in ctx.where(Group, name=new.name):
        if g.id != new.id:
            raise Conflict(f"a group named {new.name!r} exists", field="name", hint="pick another name")


def _guard_device(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        for p in ctx.where(Patch, device_id=old.id):
            ctx.delete(p)
        for e in ctx.where(PatchException, device_id=old.id):
            ctx.delete(e)
        return
    _staff(ctx, new.owner_email, "owner_email")


def _guard_policy(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        return
    for p in ctx.where(Policy, name=new.name):
        if p.id != new.id:
            raise Conflict(f"a policy named {new.name!r} exists", field="name", hint="pick another name")
    if not new.schedule_days or len(set(new.schedule_days)) != len(new.schedule_days):
        raise RuleViolation("list one or more distinct weekdays", field="schedule_days", hint="e.g. ['tuesday']")
    if new.patch_rule == "severity" and new.min_severity is None:
        raise RuleViolation("a severity rule needs min_severity", field="min_severity", hint="e.g. high")
    if new.patch_rule == "filter" and not (new.filter_text or "").strip():
        raise RuleViolation("a filter rule needs filter_text", field="filter_text", hint="e.g. Chrome")
    for gid in new.group_ids:
        ctx.get(Group, gid, field="group_ids")
    if len(set(new.group_ids)) != len(new.group_ids):
        raise RuleViolation("a group is listed twice", field="group_ids", hint="list each group once")
    _staff(ctx, new.owner_email, "owner_email")


groups = service.resource(
    Group,
    name="group",
    plural="groups",
    prefix="grp",
    create=("name", "refresh_interval", "notes"),
    filters=("is_default", "name"),
    search=("name", "notes"),
    update=("name", "refresh_interval", "notes"),
    guard_create=_guard_group,
    guard_update=_guard_group,
    guard_delete=_guard_group,
    title="server group",
)
devices = service.resource(
    Device,
    name="device",
    plural="devices",
    prefix="dev",
    create=False,
    filters=("group_id", "os_family", "owner_email", "connection", "needs_reboot", "name"),
    search=("name", "os_version"),
    update=("owner_email",),
    guard_update=_guard_device,
    guard_delete=_guard_device,
)
patches = service.resource(
    Patch,
    name="patch",
    plural="patches",
    prefix="pkg",
    create=False,
    filters=("device_id", "severity", "status", "requires_reboot", "name"),
    search=("name",),
    delete=False,
)
policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=(
        "name",
        "patch_rule",
        "min_severity",
        "filter_text",
        "schedule_days",
        "schedule_time",
        "auto_reboot",
        "max_deferrals",
        "group_ids",
        "owner_email",
    ),
    filters=("enabled", "patch_rule", "auto_reboot", "owner_email"),
    search=("name",),
    update=("name", "min_severity", "filter_text", "schedule_days", "schedule_time", "auto_reboot", "max_deferrals"),
    transitions={
        "enable": Transition("enabled", (False,), True, "enable the patch policy"),
        "disable": Transition(
            "enabled", (True,), False, "disable the patch policy", description="Stop a policy from running."
        ),
    },
    guard_create=_guard_policy,
    guard_update=_guard_policy,
    title="patch policy",
)
runs = service.resource(
    Run, name="run", plural="runs", prefix="run", create=False, filters=("policy_id", "status"), delete=False
)
results = service.resource(
    RunResult,
    name="run_result",
    plural="run_results",
    prefix="res",
    create=False,
    get=False,
    filters=("run_id", "device_id", "status"),
    delete=False,
)
exceptions = service.resource(
    PatchException,
    name="exception",
    plural="exceptions",
    prefix="exc",
    create=False,
    get=False,
    filters=("device_id", "status", "requested_by"),
    search=("package", "reason"),
    delete=False,
    title="patch exception",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    d, g = ctx.first(Device, connection="connected"), ctx.first(Group, is_default=True)
    return None if d is None or g is None or d.group_id == g.id else {"device_id": d.id, "group_id": g.id}


@service.tool(intent="move the device to the group", write=True, example=_example_move)
def move_device(ctx: Ctx, device_id: DeviceId, group_id: GroupId) -> Device:
    """Move a device into another server group (it gets that group's policies).

    Args:
        device_id: The device.
        group_id: The target group.
    """
    d = ctx.get(Device, device_id, field="device_id")
    g = ctx.get(Group, group_id, field="group_id")
    if d.group_id == g.id:
        raise Conflict(f"{d.name} is already in {g.name!r}", field="group_id", hint="pick another group")
    return ctx.update(d, group_id=g.id)


def _online(ctx: Ctx, device_id: str) -> Device:
    d = ctx.get(Device, device_id, field="device_id")
    if d.connection != "connected":
        raise Conflict(f"{d.name} is disconnected", field="device_id", hint="wait until its agent checks in again")
    return d


@service.tool(
    intent="scan the device's inventory",
    write=True,
    example=first_example(Device, "device_id", where={"connection": "connected"}),
)
def scan_device(ctx: Ctx, device_id: DeviceId) -> Device:
    """Ask a connected device to refresh its inventory now.

    Args:
        device_id: The device.
    """
    return ctx.update(_online(ctx, device_id), last_refresh=ctx.now())


@service.tool(
    intent="reboot the device",
    write=True,
    example=first_example(Device, "device_id", where={"connection": "connected", "needs_reboot": True}),
)
def reboot_device(ctx: Ctx, device_id: DeviceId) -> Device:
    """Reboot a connected device that needs it, finishing its patch installation.

    Args:
        device_id: The device.
    """
    d = _online(ctx, device_id)
    if not d.needs_reboot:
        raise RuleViolation(f"{d.name} needs no reboot", field="device_id", hint="only devices with needs_reboot")
    return ctx.update(d, needs_reboot=False, last_reboot=ctx.now())


def _selects(policy: Policy, patch: Patch) -> bool:
    if policy.patch_rule == "severity":
        return SEVERITIES.index(patch.severity) >= SEVERITIES.index(policy.min_severity or "critical")
    if policy.patch_rule == "filter":
        return (policy.filter_text or "").lower() in patch.name.lower()
    return True


@service.tool(
    intent="run the patch policy now",
    write=True,
    example=first_example(Policy, "policy_id", where={"enabled": True}, match=lambda c, p: bool(p.group_ids)),
)
def run_policy(ctx: Ctx, policy_id: PolicyId, triggered_by: Email | None = None) -> Run:
    """Run an enabled policy now on every device of its groups.

    Args:
        policy_id: The policy.
        triggered_by: The administrator running it.
    """
    pol = ctx.get(Policy, policy_id, field="policy_id")
    if not pol.enabled:
        raise Conflict(f"policy {pol.name!r} is disabled", field="policy_id", hint="enable it first")
    _staff(ctx, triggered_by, "triggered_by")
    scope = [d for gid in pol.group_ids for d in ctx.where(Device, group_id=gid)]
    if not scope:
        raise RuleViolation(
            f"policy {pol.name!r} reaches no device", field="policy_id", hint="assign it to a group with devices"
        )
    run = ctx.create(
        Run,
        policy_id=pol.id,
        status="success",
        device_count=len(scope),
        patches_installed=0,
        triggered_by=triggered_by,
        started_at=ctx.now(),
    )
    total, offline = 0, 0
    for d in scope:
        if d.connection != "connected":
            offline += 1
            ctx.create(RunResult, run_id=run.id, device_id=d.id, status="skipped_offline")
            continue
        todo = [p for p in ctx.where(Patch, device_id=d.id, status="pending") if _selects(pol, p)]
        for p in todo:
            ctx.update(p, status="installed", installed_at=ctx.now())
        reboot = any(p.requires_reboot for p in todo)
        if reboot and pol.auto_reboot:
            ctx.update(d, needs_reboot=False, last_reboot=ctx.now(), last_refresh=ctx.now())
        elif reboot:
            ctx.update(d, needs_reboot=True, last_refresh=ctx.now())
        status: ResultStatus = "success" if todo else "nothing_to_do"
        ctx.create(
            RunResult,
            run_id=run.id,
            device_id=d.id,
            status=status,
            patches_installed=len(todo),
            rebooted=reboot and pol.auto_reboot,
        )
        total += len(todo)
    outcome: RunStatus = "failed" if offline == len(scope) else "partial" if offline else "success"
    return ctx.update(run, status=outcome, patches_installed=total)


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.scan(Policy):
        for g in ctx.scan(Group):
            if g.id not in p.group_ids:
                return {"policy_id": p.id, "group_id": g.id}
    return None


@service.tool(intent="assign the policy to the group", write=True, example=_example_assign)
def assign_policy(ctx: Ctx, policy_id: PolicyId, group_id: GroupId) -> Policy:
    """Apply a policy to one more server group.

    Args:
        policy_id: The policy.
        group_id: The group.
    """
    pol = ctx.get(Policy, policy_id, field="policy_id")
    g = ctx.get(Group, group_id, field="group_id")
    if g.id in pol.group_ids:
        raise Conflict(f"{pol.name!r} already applies to {g.name!r}", field="group_id", hint="nothing to do")
    return ctx.update(pol, group_ids=(*pol.group_ids, g.id))


def _example_unassign(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.scan(Policy):
        if p.group_ids:
            return {"policy_id": p.id, "group_id": p.group_ids[-1]}
    return None


@service.tool(intent="remove the policy from the group", write=True, example=_example_unassign)
def unassign_policy(ctx: Ctx, policy_id: PolicyId, group_id: GroupId) -> Policy:
    """Stop a policy applying to a server group.

    Args:
        policy_id: The policy.
        group_id: The group.
    """
    pol = ctx.get(Policy, policy_id, field="policy_id")
    if group_id not in pol.group_ids:
        raise RuleViolation(
            f"{pol.name!r} does not apply to {group_id}", field="group_id", hint="see the policy's group_ids"
        )
    return ctx.update(pol, group_ids=tuple(g for g in pol.group_ids if g != group_id))


def _example_exception(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Patch, status="pending", severity="medium"):
        return {
            "device_id": p.device_id,
            "package": p.name,
            "reason": "Vendor application not yet certified on this version.",
            "expires_on": (ctx.today() + dt.timedelta(days=30)).isoformat(),
            "requested_by": ctx.population.employees[0].email,
        }
    return None


@service.tool(intent="hold back the patch on the device", write=True, example=_example_exception)
def create_exception(
    ctx: Ctx, device_id: DeviceId, package: PackageName, reason: Text, expires_on: Date, requested_by: Email
) -> PatchException:
    """Exclude a pending package from a device until a date (critical: at most 30 days, others 90).

    Args:
        device_id: The device.
        package: The pending package's name.
        reason: Why it must wait (required).
        expires_on: The last day it applies.
        requested_by: The employee asking.
    """
    d = ctx.get(Device, device_id, field="device_id")
    found = ctx.where(Patch, device_id=d.id, name=package, status="pending")
    if not found:
        raise RuleViolation(f"{d.name} has no pending {package!r}", field="package", hint="list its pending patches")
    if not reason.strip():
        raise RuleViolation("an exception needs a reason", field="reason", hint="say why the patch must wait")
    _staff(ctx, requested_by, "requested_by")
    if ctx.where(PatchException, device_id=d.id, package=package, status="active"):
        raise Conflict(f"{package!r} is already held back on {d.name}", field="package", hint="revoke it first")
    limit = MAX_EXCEPTION_CRITICAL if any(p.severity == "critical" for p in found) else MAX_EXCEPTION
    today = ctx.today()
    if expires_on <= today or expires_on > today + limit:
        raise RuleViolation(
            f"expires_on must be after {today} and at most {limit.days} days ahead",
            field="expires_on",
            hint=f"pick a date up to {today + limit}",
        )
    for p in found:
        ctx.update(p, status="excepted")
    return ctx.create(
        PatchException,
        device_id=d.id,
        package=package,
        reason=reason.strip(),
        expires_on=expires_on,
        requested_by=requested_by,
    )


@service.tool(
    intent="revoke the patch exception",
    write=True,
    example=first_example(PatchException, "exception_id", where={"status": "active"}),
)
def revoke_exception(ctx: Ctx, exception_id: ExceptionId) -> PatchException:
    """Revoke an active exception: its package is pending again on the device.

    Args:
        exception_id: The exception.
    """
    e = ctx.get(PatchException, exception_id, field="exception_id")
    if e.status != "active":
        raise Conflict(f"exception {e.id} is already {e.status}", field="exception_id", hint="nothing to do")
    for p in ctx.where(Patch, device_id=e.device_id, name=e.package, status="excepted"):
        ctx.update(p, status="pending")
    return ctx.update(e, status="revoked")


@service.tool(intent="show the device's patch compliance", example=first_example(Device, "device_id"))
def device_compliance(ctx: Ctx, device_id: DeviceId) -> Compliance:
    """A device's pending patches per severity, held-back ones, reboot state and whether it is compliant.

    Args:
        device_id: The device.
    """
    d = ctx.get(Device, device_id, field="device_id")
    found = ctx.where(Patch, device_id=d.id)
    counts: dict[Severity, int] = {s: 0 for s in SEVERITIES}
    for p in found:
        if p.status == "pending":
            counts[p.severity] += 1
    return Compliance(
        device_id=d.id,
        name=d.name,
        pending_by_severity=counts,
        excepted=sum(p.status == "excepted" for p in found),
        needs_reboot=d.needs_reboot,
        compliant=not (counts["critical"] or counts["high"] or d.needs_reboot),
    )


# -- seed -------------------------------------------------------------------------------------

PACKAGES: dict[str, tuple[tuple[str, str, Severity, tuple[str, ...], bool], ...]] = {
    "Windows": (
        (
            "2026-11 Cumulative Update for Windows 11 (KB5046617)",
            "10.0.26100.2314",
            "critical",
            ("CVE-2026-43451",),
            True,
        ),
        ("Google Chrome", "131.0.6778.86", "high", ("CVE-2026-11395",), False),
        ("Zoom Workplace", "6.2.10", "medium", (), False),
        ("Microsoft Edge", "131.0.2903.51", "low", (), False),
    ),
    "Mac": (
        ("macOS Sequoia 15.1.1", "15.1.1", "critical", ("CVE-2026-44308",), True),
        ("Google Chrome", "131.0.6778.86", "high", ("CVE-2026-11395",), False),
        ("Slack", "4.41.97", "medium", (), False),
    ),
    "Linux": (
        ("openssl", "3.0.13-0ubuntu3.4", "high", ("CVE-2026-5535",), False),
        ("linux-image-generic", "6.8.0-49.49", "critical", ("CVE-2026-50264",), True),
        ("curl", "8.5.0-2ubuntu10.5", "medium", ("CVE-2026-9681",), False),
    ),
}
SERVERS = (
    ("web-01", "Ubuntu 22.04"),
    ("web-02", "Ubuntu 22.04"),
    ("db-01", "Ubuntu 22.04"),
    ("build-01", "Ubuntu 20.04"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Groups, employee laptops and servers with pending and installed patches, policies, runs, exceptions."""
    pop = s.population
    domain = pop.home.domain
    it = pop.staff("Engineering", fallback=3)
    made = {
        name: s.create(Group, name=name, is_default=name == "Default", refresh_interval=ri, created_at=s.ago(days=400))
        for name, ri in (
            ("Default", 1440),
            ("Workstations", 720),
            ("Production servers", 240),
            ("Pilot ring", 720),
            ("Conference room PCs", 1440),
        )
    }
    devs: list[Device] = []
    for k, p in enumerate(pop.employees[:14]):
        handle = f"{p.first_name}-{p.last_name}".lower().replace(" ", "-").replace("'", "")
        handle = "".join(ch for ch in handle if ch.isascii() and (ch.isalnum() or ch == "-")) or f"user{k}"
        fam: OsFamily = "Windows" if k % 3 else "Mac"
        devs.append(
            s.create(
                Device,
                name=f"lt-{handle}.{domain}",
                group_id=made["Pilot ring" if k < 3 else "Workstations"].id,
                os_family=fam,
                os_version="Windows 11 23H2" if fam == "Windows" else "macOS 15.0",
                owner_email=p.email,
                connection="disconnected" if k % 7 == 5 else "connected",
                last_refresh=s.ago(days=k % 9, hours=k),
                created_at=s.ago(days=300 - 9 * k),
            )
        )
    for k, (name, os_name) in enumerate(SERVERS):
        devs.append(
            s.create(
                Device,
                name=f"{name}.{domain}",
                group_id=made["Production servers"].id,
                os_family="Linux",
                os_version=os_name,
                owner_email=it[k % len(it)].email,
                last_refresh=s.ago(hours=3 + k),
                created_at=s.ago(days=500),
            )
        )
    for d in devs:
        for name, version, sev, cves, reboot in PACKAGES[d.os_family]:
            installed = s.rng.random() < 0.3
            s.create(
                Patch,
                device_id=d.id,
                name=name,
                version=version,
                severity=sev,
                cves=cves,
                requires_reboot=reboot,
                status="installed" if installed else "pending",
                installed_at=s.ago(days=4) if installed else None,
                updated_at=s.ago(days=4),
            )
    admin = it[0].email
    pols = (
        ("Critical and high, weekly", "severity", "high", None, ("tuesday",), "02:00", False, ("Workstations",)),
        ("Pilot ring: everything", "all", None, None, ("monday", "thursday"), "12:30", False, ("Pilot ring",)),
        ("Servers: maintenance window", "all", None, None, ("sunday",), "03:00", True, ("Production servers",)),
        ("Browsers daily", "filter", None, "Chrome", ("monday", "wednesday", "friday"), "11:00", False, ()),
    )
    for name, rule, floor, text, days, at, auto, gnames in pols:
        s.create(
            Policy,
            name=name,
            patch_rule=rule,
            min_severity=floor,
            filter_text=text,
            schedule_days=days,
            schedule_time=at,
            auto_reboot=auto,
            group_ids=tuple(made[g].id for g in gnames),
            owner_email=admin,
            enabled=bool(gnames),
            created_at=s.ago(days=200),
            updated_at=s.ago(days=20),
        )
    first = s.records(Policy)[2]
    servers = [d for d in devs if d.os_family == "Linux"]
    run = s.create(
        Run,
        policy_id=first.id,
        status="success",
        device_count=len(servers),
        patches_installed=0,
        started_at=s.ago(days=4, hours=1),
    )
    total = 0
    for d in servers:
        done = [p for p in s.records(Patch) if p.device_id == d.id and p.status == "installed"]
        total += len(done)
        s.create(
            RunResult,
            run_id=run.id,
            device_id=d.id,
            status="success" if done else "nothing_to_do",
            patches_installed=len(done),
            rebooted=any(p.requires_reboot for p in done),
        )
    s.update(run, patches_installed=total)
    for d in devs[:14]:
        if any(p.requires_reboot and p.status == "installed" for p in s.records(Patch) if p.device_id == d.id):
            s.update(d, needs_reboot=True)
    _seed_exceptions(s, devs, admin)


def _seed_exceptions(s: SeedContext, devs: list[Device], by: str) -> None:
    """An active exception on a laptop's Zoom update and an expired one on a server's curl update."""
    for d, pkg, status, days in ((devs[1], "Zoom Workplace", "active", 20), (devs[-1], "curl", "expired", -3)):
        for p in s.records(Patch):
            if p.device_id == d.id and p.name == pkg and p.status == "pending":
                s.create(
                    PatchException,
                    device_id=d.id,
                    package=pkg,
                    reason="Waiting for the vendor's certification.",
                    requested_by=by,
                    expires_on=(s.now + dt.timedelta(days=days)).date(),
                    status=status,
                    created_at=s.ago(days=25),
                )
                if status == "active":
                    s.update(p, status="excepted")
