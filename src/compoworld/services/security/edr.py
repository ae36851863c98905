"""Sentinel Endpoint: endpoint detection and response for the company's laptops and servers.

Modeled on the CrowdStrike Falcon API: hosts (devices) running a sensor, each
in one prevention policy of its platform; detections raised on a host with a
severity, a MITRE ATT&CK tactic and technique, and a status that goes new →
in_progress → true_positive / false_positive / ignored / closed, and reopened
from any resolved status; resolving needs a comment and an assignee, and a
false positive may add an allow IOC for the file hash. Network containment of a
host is requested with a reason (host status containment_pending), approved
by another employee (contained) or rejected (normal), and lifted again
(normal). Prevention policies are per platform with unique names, a machine
learning level and quarantine; a platform's default policy cannot be disabled
or deleted, a policy with hosts cannot be deleted, and a host joins only an
enabled policy of its own platform. Custom IOCs (indicators) are unique by
type and value, their value must fit the type, prevent applies to hashes only,
and domain and IP indicators must expire within a year.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "edr",
    title="Sentinel Endpoint",
    category="endpoint_security",
    modeled_on="CrowdStrike Falcon API (devices/entities, detects, devices-actions contain and "
    "lift_containment, policy/entities/prevention, iocs/entities/indicators)",
    description="Endpoint detection and response for the company's laptops and servers: hosts with their "
    "sensors and prevention policies, detections with severity, ATT&CK technique and triage status, network "
    "containment of a host with approval, and custom indicators of compromise that allow, detect or block.",
)

HostId = Annotated[str, IdOf("edr.host")]
DetectionId = Annotated[str, IdOf("edr.detection")]
PolicyId = Annotated[str, IdOf("edr.policy")]
ContainmentId = Annotated[str, IdOf("edr.containment")]
IocId = Annotated[str, IdOf("edr.ioc")]

Hostname = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$")]
"""A lower-case host name or FQDN."""
Sha256 = Annotated[str, StringConstraints(pattern=r"^[a-f0-9]{64}$")]
"""A SHA-256 file hash in lower-case hex."""
Technique = Annotated[str, StringConstraints(pattern=r"^T\d{4}(\.\d{3})?$")]
"""A MITRE ATT&CK technique id such as T1059.001."""
Tag = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9/_.\-]{1,64}$")]
"""A sensor grouping tag such as FalconGroupingTags/prod."""
SeverityScore = Annotated[int, Field(ge=1, le=100)]
"""Falcon's severity score, 1-100."""

Platform = Literal["Windows", "Mac", "Linux"]
HostStatus = Literal["normal", "containment_pending", "contained"]
HostKind = Literal["workstation", "server"]
Severity = Literal["informational", "low", "medium", "high", "critical"]
DetectionStatus = Literal["new", "in_progress", "true_positive", "false_positive", "ignored", "closed", "reopened"]
Resolution = Literal["true_positive", "false_positive", "ignored", "closed"]
MlLevel = Literal["disabled", "cautious", "moderate", "aggressive", "extra_aggressive"]
IocType = Literal["sha256", "md5", "domain", "ipv4"]
IocAction = Literal["no_action", "allow", "detect", "prevent"]
RequestStatus = Literal["pending", "approved", "rejected", "lifted"]

OPEN: tuple[DetectionStatus, ...] = ("new", "in_progress", "reopened")
RESOLVED: tuple[DetectionStatus, ...] = ("true_positive", "false_positive", "ignored", "closed")
MAX_NETWORK_IOC = dt.timedelta(days=365)
IOC_PATTERNS: dict[str, re.Pattern[str]] = {
    "sha256": re.compile(r"^[a-f0-9]{64}$"),
    "md5": re.compile(r"^[a-f0-9]{32}$"),
    "domain": re.compile(r"^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}$"),
    "ipv4": re.compile(r"^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$"),
}


def severity_of(score: int) -> Severity:
    """Falcon's severity name for a 1-100 score."""
    if score >= 90:
        return "critical"
    if score >= 70:
        return "high"
    if score >= 40:
        return "medium"
    return "low" if score >= 20 else "informational"


class Host(Record):
    """A device running the sensor."""

    id: HostId
    hostname: Hostname
    """Its host name (unique)."""
    platform: Platform
    """Windows, Mac or Linux."""
    kind: HostKind
    """workstation or server."""
    os_version: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """The operating system and version."""
    agent_version: Annotated[str, StringConstraints(pattern=r"^\d+\.\d+\.\d+$")]
    """The sensor version."""
    owner_email: Email | None = None
    """The employee who uses or owns it."""
    policy_id: PolicyId
    """Its prevention policy."""
    status: HostStatus = "normal"
    """normal, containment_pending or contained (network isolated)."""
    tags: tuple[Tag, ...] = ()
    """Sensor grouping tags."""
    last_seen: DateTime
    """When the sensor last checked in."""
    first_seen: Annotated[DateTime, CREATED]
    """When the sensor was installed."""


class Detection(Record):
    """A detection the sensor raised on a host."""

    id: DetectionId
    host_id: HostId
    """The host."""
    hostname: Hostname
    """The host's name."""
    severity_score: SeverityScore
    """1-100."""
    severity: Severity
    """informational, low, medium, high or critical."""
    tactic: Title
    """The ATT&CK tactic, e.g. Execution."""
    technique_id: Technique
    """The ATT&CK technique id."""
    technique: Title
    """The technique's name."""
    filename: Annotated[str, StringConstraints(min_length=1, max_length=255)]
    """The triggering file."""
    sha256: Sha256
    """The file's hash."""
    cmdline: Text = ""
    """The command line."""
    status: DetectionStatus = "new"
    """new, in_progress, true_positive, false_positive, ignored, closed or reopened."""
    assigned_to: Email | None = None
    """The analyst working it."""
    comment: Text = ""
    """The latest triage comment."""
    created_at: Annotated[DateTime, CREATED]
    """When it was raised."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Policy(Record):
    """A prevention policy: what the sensor blocks on the hosts in it."""

    id: PolicyId
    name: Title
    """The policy's name (unique per platform)."""
    platform: Platform
    """The platform it applies to."""
    description: Text = ""
    """What it is for."""
    ml_level: MlLevel = "moderate"
    """Machine-learning prevention level."""
    quarantine: bool = True
    """Whether blocked files are quarantined."""
    is_default: bool = False
    """The platform's default policy (cannot be disabled or deleted)."""
    enabled: bool = True
    """Whether it is enforced."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Containment(Record):
    """A request to isolate a host from the network, and its approval."""

    id: ContainmentId
    host_id: HostId
    """The host."""
    hostname: Hostname
    """The host's name."""
    reason: Text
    """Why it is isolated."""
    requested_by: Email
    """The employee asking."""
    status: RequestStatus = "pending"
    """pending, approved (contained), rejected or lifted."""
    decided_by: Email | None = None
    """Who approved or rejected it."""
    decided_at: DateTime | None = None
    """When."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


class Ioc(Record):
    """A custom indicator of compromise and what the sensor does on seeing it."""

    id: IocId
    type: IocType
    """sha256, md5, domain or ipv4."""
    value: Annotated[str, StringConstraints(min_length=1, max_length=253)]
    """The hash, domain or address."""
    action: IocAction
    """no_action, allow, detect or prevent."""
    severity: Severity | None = None
    """The severity of detections it raises (detect and prevent)."""
    description: Text = ""
    """What it is."""
    platforms: tuple[Platform, ...] = ("Windows", "Mac", "Linux")
    """The platforms it applies to."""
    expiration: DateTime | None = None
    """When it stops applying (required for domains and addresses)."""
    created_by: Email
    """The employee who added it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class HostRisk(Value):
    """A host's open detections and containment state."""

    host_id: HostId
    """The host."""
    hostname: Hostname
    """Its name."""
    status: HostStatus
    """Its containment state."""
    open_by_severity: dict[Severity, int]
    """Open detections (new, in progress, reopened) per severity."""
    max_open_score: int
    """The highest open severity score (0 when none)."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a Falcon console user", field=field, hint="use an employee's e-mail")


def _guard_host(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_policy(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.is_default and not new.enabled:
        raise RuleViolation(
            f"{old.name!r} is the {old.platform} default policy and stays enabled",
            field="policy_id",
            hint="change its settings instead, or move hosts to another policy",
        )
    if old is None or new.name != old.name:
        for other in ctx.where(Policy, platform=new.platform, name=new.name):
            if other.id != new.id:
                raise Conflict(
                    f"a {new.platform} policy named {new.name!r} exists ({other.id})",
                    field="name",
                    hint="pick another name",
                )


def _guard_policy_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.is_default:
        raise RuleViolation("a platform's default policy cannot be deleted", field="policy_id", hint="keep it")
    if old.enabled:
        raise RuleViolation(
            f"policy {old.name!r} is enabled", field="policy_id", hint="disable it with edr__disable_policy first"
        )
    if ctx.first(Host, policy_id=old.id) is not None:
        raise RuleViolation(
            f"policy {old.name!r} still has hosts",
            field="policy_id",
            hint="move them with edr__assign_policy first",
        )


hosts = service.resource(
    Host,
    name="host",
    plural="hosts",
    prefix="host",
    create=False,
    filters=("platform", "kind", "status", "owner_email", "policy_id", "hostname"),
    search=("hostname", "os_version"),
    update=("owner_email", "tags"),
    delete=False,
    guard_update=_guard_host,
)
detections = service.resource(
    Detection,
    name="detection",
    plural="detections",
    prefix="ldt",
    create=False,
    filters=("host_id", "severity", "status", "assigned_to", "technique_id", "sha256"),
    search=("filename", "technique", "cmdline"),
    delete=False,
    transitions={
        "start": Transition("status", ("new", "reopened"), "in_progress", "start working the detection"),
        "reopen": Transition("status", RESOLVED, "reopened", "reopen the detection"),
    },
)
policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=("name", "platform", "description", "ml_level", "quarantine"),
    filters=("platform", "enabled", "ml_level"),
    search=("name", "description"),
    update=("name", "description", "ml_level", "quarantine"),
    transitions={
        "enable": Transition("enabled", (False,), True, "enable the prevention policy"),
        "disable": Transition("enabled", (True,), False, "disable the prevention policy"),
    },
    guard_create=_guard_policy,
    guard_update=_guard_policy,
    guard_delete=_guard_policy_delete,
    title="prevention policy",
)
containments = service.resource(
    Containment,
    name="containment",
    plural="containments",
    prefix="cnt",
    create=False,
    filters=("host_id", "status", "requested_by"),
    search=("reason",),
    delete=False,
    title="containment request",
)
iocs = service.resource(
    Ioc,
    name="ioc",
    plural="iocs",
    prefix="ioc",
    create=False,
    filters=("type", "value", "action", "severity", "created_by"),
    search=("value", "description"),
    update=("description", "severity"),
    title="custom indicator",
)


# -- detections -------------------------------------------------------------------------------


@service.tool(
    intent="assign the detection",
    write=True,
    example=first_example(Detection, "detection_id", where={"status": "new"}, assigned_to=None),
)
def assign_detection(ctx: Ctx, detection_id: DetectionId, assigned_to: Email | None) -> Detection:
    """Assign a detection to an analyst, or unassign it (None); resolved detections are reopened first.

    Args:
        detection_id: The detection.
        assigned_to: The analyst's e-mail; None to unassign.
    """
    det = ctx.get(Detection, detection_id, field="detection_id")
    if det.status in RESOLVED:
        raise RuleViolation(
            f"detection {det.id} is {det.status}", field="detection_id", hint="reopen it with edr__reopen_detection"
        )
    if assigned_to is None:
        return ctx.update(det, assigned_to=None)
    _staff(ctx, assigned_to, "assigned_to")
    return ctx.update(det, assigned_to=assigned_to)


def _example_resolve(ctx: Ctx) -> dict[str, Any] | None:
    det = ctx.first(Detection, status="in_progress")
    if det is None or det.assigned_to is None:
        return None
    return {"detection_id": det.id, "status": "true_positive", "comment": "Confirmed malicious; host reimaged."}


@service.tool(intent="resolve the detection", write=True, example=_example_resolve)
def resolve_detection(
    ctx: Ctx,
    detection_id: DetectionId,
    status: Resolution,
    comment: Text,
    allowlist_hash: bool = False,
) -> Detection:
    """Resolve an open, assigned detection with a comment; a false positive may allow its file hash everywhere.

    Args:
        detection_id: The detection.
        status: true_positive, false_positive, ignored or closed.
        comment: The analyst's conclusion (required).
        allowlist_hash: For a false positive: add an allow IOC for the file's SHA-256.
    """
    det = ctx.get(Detection, detection_id, field="detection_id")
    if det.status not in OPEN:
        raise RuleViolation(f"detection {det.id} is already {det.status}", field="detection_id", hint="reopen it first")
    if det.assigned_to is None:
        raise RuleViolation(
            f"detection {det.id} is unassigned", field="detection_id", hint="assign it with edr__assign_detection"
        )
    if not comment.strip():
        raise RuleViolation("resolving needs a comment", field="comment", hint="say what the triage found")
    if allowlist_hash:
        if status != "false_positive":
            raise RuleViolation(
                "only a false positive allowlists its hash", field="allowlist_hash", hint="leave it false"
            )
        existing = ctx.first(Ioc, type="sha256", value=det.sha256)
        if existing is not None:
            raise Conflict(
                f"IOC {existing.id} already covers this hash ({existing.action})",
                field="allowlist_hash",
                hint="update or delete that IOC instead",
            )
        ctx.create(
            Ioc,
            type="sha256",
            value=det.sha256,
            action="allow",
            description=f"False positive {det.filename} ({det.id})",
            created_by=det.assigned_to,
        )
    return ctx.update(det, status=status, comment=comment.strip())


@service.tool(intent="show the host's risk", example=first_example(Host, "host_id"))
def host_risk(ctx: Ctx, host_id: HostId) -> HostRisk:
    """A host's open detections per severity, its highest open score and its containment state.

    Args:
        host_id: The host.
    """
    host = ctx.get(Host, host_id, field="host_id")
    live = [d for d in ctx.where(Detection, host_id=host.id) if d.status in OPEN]
    counts: dict[Severity, int] = {s: 0 for s in ("informational", "low", "medium", "high", "critical")}
    for d in live:
        counts[d.severity] += 1
    return HostRisk(
        host_id=host.id,
        hostname=host.hostname,
        status=host.status,
        open_by_severity=counts,
        max_open_score=max((d.severity_score for d in live), default=0),
    )


# -- containment ------------------------------------------------------------------------------


def _example_contain(ctx: Ctx) -> dict[str, Any] | None:
    host = ctx.first(Host, status="normal", kind="workstation")
    if host is None:
        return None
    return {
        "host_id": host.id,
        "reason": "Active ransomware detection; isolating pending forensics.",
        "requested_by": ctx.population.employees[0].email,
    }


@service.tool(intent="request containment of the host", write=True, example=_example_contain)
def request_containment(ctx: Ctx, host_id: HostId, reason: Text, requested_by: Email) -> Containment:
    """Ask to isolate a host from the network; it is contained once another employee approves.

    Args:
        host_id: The host.
        reason: Why (required).
        requested_by: The employee asking.
    """
    host = ctx.get(Host, host_id, field="host_id")
    if host.status != "normal":
        raise Conflict(
            f"host {host.hostname} is already {host.status}",
            field="host_id",
            hint="see edr__list_containments for its request",
        )
    if not reason.strip():
        raise RuleViolation("containment needs a reason", field="reason", hint="say why the host is isolated")
    _staff(ctx, requested_by, "requested_by")
    ctx.update(host, status="containment_pending")
    return ctx.create(
        Containment, host_id=host.id, hostname=host.hostname, reason=reason.strip(), requested_by=requested_by
    )


def _pending(ctx: Ctx, containment_id: str, approver: str) -> Containment:
    req = ctx.get(Containment, containment_id, field="containment_id")
    if req.status != "pending":
        raise Conflict(f"request {req.id} is already {req.status}", field="containment_id", hint="nothing to decide")
    _staff(ctx, approver, "approver_email")
    if approver == req.requested_by:
        raise RuleViolation(
            "the requester cannot decide their own containment request",
            field="approver_email",
            hint="ask another analyst to decide",
        )
    return req


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    req = ctx.first(Containment, status="pending")
    if req is None:
        return None
    other = next(p.email for p in ctx.population.employees if p.email != req.requested_by)
    return {"containment_id": req.id, "approver_email": other}


@service.tool(intent="approve the containment", write=True, example=_example_decide)
def approve_containment(ctx: Ctx, containment_id: ContainmentId, approver_email: Email) -> Containment:
    """Approve a pending containment request: the host is isolated (contained).

    Args:
        containment_id: The request.
        approver_email: The approving employee (not the requester).
    """
    req = _pending(ctx, containment_id, approver_email)
    ctx.update(ctx.get(Host, req.host_id), status="contained")
    return ctx.update(req, status="approved", decided_by=approver_email, decided_at=ctx.now())


@service.tool(intent="reject the containment", write=True, example=_example_decide)
def reject_containment(ctx: Ctx, containment_id: ContainmentId, approver_email: Email) -> Containment:
    """Reject a pending containment request: the host stays on the network (normal).

    Args:
        containment_id: The request.
        approver_email: The deciding employee (not the requester).
    """
    req = _pending(ctx, containment_id, approver_email)
    ctx.update(ctx.get(Host, req.host_id), status="normal")
    return ctx.update(req, status="rejected", decided_by=approver_email, decided_at=ctx.now())


@service.tool(
    intent="lift the containment of the host",
    write=True,
    example=first_example(Host, "host_id", where={"status": "contained"}),
)
def lift_containment(ctx: Ctx, host_id: HostId) -> Host:
    """Reconnect a contained host to the network; its approved request becomes lifted.

    Args:
        host_id: The host.
    """
    host = ctx.get(Host, host_id, field="host_id")
    if host.status != "contained":
        raise RuleViolation(f"host {host.hostname} is {host.status}", field="host_id", hint="only contained hosts")
    for req in ctx.where(Containment, host_id=host.id, status="approved"):
        ctx.update(req, status="lifted")
    return ctx.update(host, status="normal")


# -- policies and indicators ------------------------------------------------------------------


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for pol in ctx.where(Policy, enabled=True, is_default=False):
        for host in ctx.where(Host, platform=pol.platform):
            if host.policy_id != pol.id:
                return {"host_id": host.id, "policy_id": pol.id}
    return None


@service.tool(intent="move the host to the prevention policy", write=True, example=_example_assign)
def assign_policy(ctx: Ctx, host_id: HostId, policy_id: PolicyId) -> Host:
    """Put a host in an enabled prevention policy of its own platform.

    Args:
        host_id: The host.
        policy_id: The policy.
    """
    host = ctx.get(Host, host_id, field="host_id")
    pol = ctx.get(Policy, policy_id, field="policy_id")
    if pol.platform != host.platform:
        raise RuleViolation(
            f"policy {pol.name!r} is for {pol.platform}, host {host.hostname} runs {host.platform}",
            field="policy_id",
            hint=f"pick a {host.platform} policy",
        )
    if not pol.enabled:
        raise RuleViolation(f"policy {pol.name!r} is disabled", field="policy_id", hint="enable it first")
    if host.policy_id == pol.id:
        raise Conflict(f"host {host.hostname} is already in {pol.name!r}", field="policy_id", hint="nothing to do")
    return ctx.update(host, policy_id=pol.id)


def _example_ioc(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "type": "domain",
        "value": "update-check.badcdn.example",
        "action": "detect",
        "severity": "high",
        "expiration": (ctx.now() + dt.timedelta(days=90)).isoformat(),
        "created_by": ctx.population.employees[0].email,
        "description": "C2 domain from threat intel report.",
    }


@service.tool(intent="add the custom indicator", write=True, example=_example_ioc)
def create_ioc(
    ctx: Ctx,
    type: IocType,
    value: Annotated[str, StringConstraints(min_length=1, max_length=253)],
    action: IocAction,
    created_by: Email,
    severity: Severity | None = None,
    expiration: DateTime | None = None,
    description: Text = "",
    platforms: tuple[Platform, ...] = ("Windows", "Mac", "Linux"),
) -> Ioc:
    """Add a custom IOC; unique by type and value; prevent is for hashes; domains and IPs must expire.

    Args:
        type: sha256, md5, domain or ipv4.
        value: The hash (lower-case hex), domain or IPv4 address.
        action: no_action, allow, detect or prevent.
        created_by: The employee adding it.
        severity: Required for detect and prevent.
        expiration: When it stops applying; required for domain and ipv4, within a year.
        description: What it is.
        platforms: The platforms it applies to (at least one).
    """
    value = value.strip().lower()
    if not IOC_PATTERNS[type].match(value):
        raise RuleViolation(f"{value!r} is not a valid {type}", field="value", hint=f"give a {type} value")
    other = ctx.first(Ioc, type=type, value=value)
    if other is not None:
        raise Conflict(f"IOC {other.id} already has {type} {value}", field="value", hint="update that IOC")
    if action == "prevent" and type not in ("sha256", "md5"):
        raise RuleViolation("only file hashes can be prevented", field="action", hint="use detect for network IOCs")
    if action in ("detect", "prevent") and severity is None:
        raise RuleViolation(f"action {action} needs a severity", field="severity", hint="give a severity")
    now = ctx.now()
    if type in ("domain", "ipv4") and (expiration is None or not now < expiration <= now + MAX_NETWORK_IOC):
        raise RuleViolation(
            f"a {type} IOC must expire within a year",
            field="expiration",
            hint="give an expiration after now and at most 365 days ahead",
        )
    if not platforms:
        raise RuleViolation("an IOC needs a platform", field="platforms", hint="list Windows, Mac or Linux")
    _staff(ctx, created_by, "created_by")
    return ctx.create(
        Ioc,
        type=type,
        value=value,
        action=action,
        severity=severity,
        expiration=expiration,
        description=description,
        platforms=tuple(dict.fromkeys(platforms)),
        created_by=created_by,
    )


# -- seed -------------------------------------------------------------------------------------

TECHNIQUES: tuple[tuple[str, str, str, str, str, int], ...] = (
    ("Execution", "T1059.001", "PowerShell", "powershell.exe", "powershell -enc SQBFAFgA...", 85),
    ("Credential Access", "T1003.001", "LSASS Memory", "procdump64.exe", "procdump64 -ma lsass.exe out.dmp", 95),
    ("Defense Evasion", "T1218.011", "Rundll32", "rundll32.exe", "rundll32 payload.dll,Start", 72),
    ("Persistence", "T1547.001", "Registry Run Keys", "updater.exe", "reg add HKCU\\...\\Run /v upd", 55),
    ("Discovery", "T1087", "Account Discovery", "net.exe", 'net group "Domain Admins" /domain', 30),
    ("Command and Control", "T1071.001", "Web Protocols", "curl", "curl -s http://203.0.113.9/beacon", 65),
    ("Impact", "T1486", "Data Encrypted for Impact", "locker.exe", "locker.exe --all-drives", 98),
    ("Execution", "T1204.002", "Malicious File", "invoice_scan.pdf.exe", "", 45),
)
SERVERS: tuple[tuple[str, Platform, str], ...] = (
    ("dc-01", "Windows", "Windows Server 2022"),
    ("files-01", "Windows", "Windows Server 2019"),
    ("web-01", "Linux", "Ubuntu 22.04"),
    ("db-01", "Linux", "Red Hat Enterprise Linux 9"),
)


def _hex(s: SeedContext, n: int) -> str:
    return "".join(s.rng.choice("0123456789abcdef") for _ in range(n))


@service.seeder
def seed(s: SeedContext) -> None:
    """Default and custom policies per platform, laptops and servers, detections in every status, IOCs."""
    pop = s.population
    domain = pop.home.domain
    soc = pop.staff("Engineering", "IT", fallback=3)
    pol: dict[str, Policy] = {}
    for plat, ml in (("Windows", "moderate"), ("Mac", "moderate"), ("Linux", "cautious")):
        pol[plat] = s.create(
            Policy,
            name="platform_default",
            platform=plat,
            description=f"Default {plat} prevention.",
            ml_level=ml,
            is_default=True,
            created_at=s.ago(days=700),
            updated_at=s.ago(days=100),
        )
    pol["servers"] = s.create(
        Policy,
        name="Servers - Strict",
        platform="Windows",
        description="Domain controllers and file servers.",
        ml_level="aggressive",
        created_at=s.ago(days=500),
        updated_at=s.ago(days=30),
    )
    s.create(
        Policy,
        name="Developers - Relaxed",
        platform="Mac",
        description="Engineering Macs; compilers trip aggressive ML.",
        ml_level="cautious",
        quarantine=False,
        enabled=False,
        created_at=s.ago(days=200),
        updated_at=s.ago(days=60),
    )
    made: list[Host] = []
    for k, (name, plat, os_name) in enumerate(SERVERS):
        made.append(
            s.create(
                Host,
                hostname=f"{name}.{domain}",
                platform=plat,
                kind="server",
                os_version=os_name,
                agent_version="7.14.18408",
                owner_email=soc[k % len(soc)].email,
                policy_id=(pol["servers"] if plat == "Windows" else pol["Linux"]).id,
                tags=("FalconGroupingTags/prod",),
                last_seen=s.ago(minutes=5 + k),
                first_seen=s.ago(days=600 - 30 * k),
            )
        )
    for k, p in enumerate(pop.employees[:16]):
        handle = "".join(ch for ch in f"{p.first_name[0]}{p.last_name}".lower() if ch.isascii() and ch.isalnum())
        plat = "Mac" if k % 3 == 0 else "Windows"
        made.append(
            s.create(
                Host,
                hostname=f"lt-{handle or 'user'}-{k:02d}.{domain}",
                platform=plat,
                kind="workstation",
                os_version="macOS 14.5" if plat == "Mac" else "Windows 11 23H2",
                agent_version="7.15.18513" if k % 4 else "7.13.18308",
                owner_email=p.email,
                policy_id=pol[plat].id,
                tags=("FalconGroupingTags/endpoint",),
                last_seen=s.ago(hours=1 + k % 30),
                first_seen=s.ago(days=400 - 11 * k),
            )
        )
    statuses: tuple[DetectionStatus, ...] = ("new", "in_progress", "true_positive", "false_positive", "new")
    for k, host in enumerate(made[2:14]):
        tac, tid, tname, fname, cmd, score = TECHNIQUES[k % len(TECHNIQUES)]
        st = statuses[k % len(statuses)] if k < 10 else ("ignored" if k == 10 else "reopened")
        s.create(
            Detection,
            host_id=host.id,
            hostname=host.hostname,
            severity_score=score,
            severity=severity_of(score),
            tactic=tac,
            technique_id=tid,
            technique=tname,
            filename=fname,
            sha256=_hex(s, 64),
            cmdline=cmd,
            status=st,
            assigned_to=None if st == "new" else soc[k % len(soc)].email,
            comment="Triaged; see case notes." if st in RESOLVED else "",
            created_at=s.ago(hours=4 + 13 * k),
            updated_at=s.ago(hours=2 + 11 * k),
        )
    victim = made[6]
    s.update(victim, status="contained")
    s.create(
        Containment,
        host_id=victim.id,
        hostname=victim.hostname,
        reason="Credential dumping detected; isolate for forensics.",
        requested_by=soc[0].email,
        status="approved",
        decided_by=soc[1 % len(soc)].email,
        decided_at=s.ago(hours=20),
        created_at=s.ago(hours=21),
    )
    waiting = made[8]
    s.update(waiting, status="containment_pending")
    s.create(
        Containment,
        host_id=waiting.id,
        hostname=waiting.hostname,
        reason="Beaconing to a known C2 address.",
        requested_by=soc[0].email,
        created_at=s.ago(hours=1),
    )
    for typ, value, action, sev, days in (
        ("domain", "login-microsoft0nline.example", "detect", "high", 120),
        ("ipv4", "203.0.113.9", "detect", "critical", 60),
        ("sha256", _hex(s, 64), "prevent", "critical", None),
        ("sha256", _hex(s, 64), "allow", None, None),
        ("md5", _hex(s, 32), "no_action", None, None),
    ):
        s.create(
            Ioc,
            type=typ,
            value=value,
            action=action,
            severity=sev,
            description="Threat intel feed" if action != "allow" else "In-house build tool",
            expiration=s.now + dt.timedelta(days=days) if days else None,
            created_by=soc[0].email,
            created_at=s.ago(days=20),
            updated_at=s.ago(days=20),
        )
