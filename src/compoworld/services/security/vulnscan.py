"""Bastion Exposure: vulnerability scanning of the company's assets, findings and risk exceptions.

Modeled on Tenable Vulnerability Management (tenable.io) API: assets with an
asset criticality rating (ACR 1-10) and an owner; scans over a set of assets
that go empty → running ↔ paused → completed or aborted, launched only when not
already running or paused, and only with targets; findings per asset and plugin
(state open, reopened, fixed, or accepted under a risk exception), with
severity, CVSSv3 and VPR scores; and recast rules ("exceptions"): accepting
the risk of a plugin on one asset or on all of them needs a reason and an
expiry date at most a year ahead (critical findings 90 days), no two active
rules may target the same plugin and asset, and revoking a rule reopens what it
accepted. A recast changes the severity of matching findings to another level.
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
    "vulnscan",
    title="Bastion Exposure",
    category="vulnerability_management",
    modeled_on="Tenable Vulnerability Management (tenable.io) API: assets, scans (launch/pause/resume/stop), "
    "workbenches vulnerabilities and findings, recast/accept rules",
    description="Vulnerability management for the company's laptops and servers: the asset inventory with "
    "criticality and owners, network scans and their runs, the findings they produced by plugin, CVE and "
    "severity, and the risk exceptions that accept or recast findings until they expire.",
)

AssetId = Annotated[str, IdOf("vulnscan.asset")]
ScanId = Annotated[str, IdOf("vulnscan.scan")]
FindingId = Annotated[str, IdOf("vulnscan.finding")]
ExceptionId = Annotated[str, IdOf("vulnscan.exception")]

Hostname = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$")]
"""A lower-case host name or FQDN."""
Ipv4 = Annotated[
    str, StringConstraints(pattern=r"^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$")
]
"""An IPv4 address."""
Cve = Annotated[str, StringConstraints(pattern=r"^CVE-\d{4}-\d{4,7}$")]
"""A CVE identifier."""
PluginId = Annotated[int, Field(ge=10000, le=999999)]
"""The scanner plugin that detects the vulnerability."""
Criticality = Annotated[int, Field(ge=1, le=10)]
"""Asset criticality rating, 1 (lowest) to 10."""
Score = Annotated[float, Field(ge=0, le=10)]
"""A score from 0.0 to 10.0."""

Severity = Literal["info", "low", "medium", "high", "critical"]
FindingState = Literal["open", "reopened", "fixed", "accepted"]
ScanStatus = Literal["empty", "running", "paused", "completed", "aborted"]
ScanTemplate = Literal["basic", "advanced", "discovery", "webapp", "pci"]
AssetKind = Literal["laptop", "server", "network_device", "cloud_instance"]
RuleAction = Literal["accept", "recast"]
RuleStatus = Literal["active", "revoked", "expired"]

SEVERITIES: tuple[Severity, ...] = ("info", "low", "medium", "high", "critical")
MAX_ACCEPT = dt.timedelta(days=365)
MAX_ACCEPT_CRITICAL = dt.timedelta(days=90)
LIVE: tuple[FindingState, ...] = ("open", "reopened")


class Asset(Record):
    """An asset the scanner knows: a laptop, server, device or cloud instance."""

    id: AssetId
    hostname: Hostname
    """Its host name (unique)."""
    ipv4: Ipv4
    """Its IPv4 address (unique)."""
    kind: AssetKind
    """laptop, server, network_device or cloud_instance."""
    operating_system: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """The detected operating system."""
    owner_email: Email | None = None
    """The employee responsible for it."""
    criticality: Criticality = 5
    """Asset criticality rating (ACR), 1-10."""
    tags: tuple[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9:_.\-]{1,64}$")], ...] = ()
    """Tags such as env:prod or pci."""
    last_seen: DateTime | None = None
    """When a scan last saw it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Scan(Record):
    """A scan definition over some assets, and the state of its latest run."""

    id: ScanId
    name: Title
    """The scan's name."""
    template: ScanTemplate = "basic"
    """basic, advanced, discovery, webapp or pci."""
    target_ids: tuple[AssetId, ...]
    """The assets it scans."""
    owner_email: Email | None = None
    """The employee who owns the scan."""
    status: ScanStatus = "empty"
    """empty (never run), running, paused, completed or aborted."""
    runs: int = 0
    """How many times it was launched."""
    last_launched_at: DateTime | None = None
    """When it was last launched."""
    created_at: Annotated[DateTime, CREATED]
    """When it was defined."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Finding(Record):
    """A vulnerability a plugin found on an asset."""

    id: FindingId
    asset_id: AssetId
    """The asset."""
    hostname: Hostname
    """The asset's host name."""
    plugin_id: PluginId
    """The detecting plugin."""
    plugin_name: Title
    """What the plugin detects."""
    cve: Cve | None = None
    """The CVE, if any."""
    severity: Severity
    """info, low, medium, high or critical (after any recast)."""
    original_severity: Severity
    """The plugin's own severity."""
    cvss3_base_score: Score
    """CVSSv3 base score."""
    vpr_score: Score
    """Vulnerability Priority Rating."""
    port: Annotated[int, Field(ge=0, le=65535)] = 0
    """The port (0: host-level)."""
    state: FindingState = "open"
    """open, reopened, fixed or accepted (under a risk exception)."""
    exception_id: ExceptionId | None = None
    """The accept rule covering it."""
    first_found: DateTime
    """When a scan first found it."""
    last_found: DateTime
    """When a scan last found it."""
    last_fixed: DateTime | None = None
    """When it was last fixed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class RiskException(Record):
    """A recast rule: accept the risk of a plugin's findings, or change their severity."""

    id: ExceptionId
    action: RuleAction
    """accept (findings leave the open workload) or recast (their severity changes)."""
    plugin_id: PluginId
    """The plugin the rule targets."""
    asset_id: AssetId | None = None
    """The one asset it targets; none: every asset."""
    new_severity: Severity | None = None
    """The severity a recast gives."""
    reason: Text
    """Why (required)."""
    requested_by: Email
    """The employee who made the rule."""
    expires_on: Date | None = None
    """The last day it applies (accept rules must expire)."""
    status: RuleStatus = "active"
    """active, revoked or expired."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Exposure(Value):
    """An asset's open vulnerability workload."""

    asset_id: AssetId
    """The asset."""
    hostname: Hostname
    """Its host name."""
    criticality: Criticality
    """Its ACR."""
    open_by_severity: dict[Severity, int]
    """Open and reopened findings per severity."""
    accepted: int
    """Findings accepted under an exception."""
    highest_vpr: float
    """The highest VPR among open findings (0 when none)."""
    exposure_score: int
    """Criticality times highest open VPR, times 10, rounded (0-1000)."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the container", field=field, hint="use an employee's e-mail")


def _guard_asset(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_scan(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        if not new.target_ids:
            raise RuleViolation("a scan needs at least one target", field="target_ids", hint="list the asset ids")
        if len(set(new.target_ids)) != len(new.target_ids):
            raise RuleViolation("a target is listed twice", field="target_ids", hint="list each asset once")
        _staff(ctx, new.owner_email, "owner_email")


def _guard_finding(ctx: Ctx, new: Any, old: Any) -> None:
    if new.state == "fixed" and old.state != "fixed":
        ctx.update(new, last_fixed=ctx.now())


assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="asset",
    create=False,
    filters=("kind", "owner_email", "criticality", "hostname", "ipv4"),
    search=("hostname", "operating_system"),
    update=("owner_email", "criticality", "tags"),
    delete=False,
    guard_update=_guard_asset,
)
scans = service.resource(
    Scan,
    name="scan",
    plural="scans",
    prefix="scan",
    create=("name", "template", "target_ids", "owner_email"),
    get=False,
    filters=("status", "template", "owner_email"),
    search=("name",),
    delete=False,
    transitions={
        "pause": Transition("status", ("running",), "paused", "pause the scan"),
        "resume": Transition("status", ("paused",), "running", "resume the scan"),
        "stop": Transition(
            "status",
            ("running", "paused"),
            "aborted",
            "stop the scan",
            description="Stop a running or paused scan: the run ends as aborted and can be launched again.",
        ),
    },
    guard_create=_guard_scan,
)
findings = service.resource(
    Finding,
    name="finding",
    plural="findings",
    prefix="fnd",
    create=False,
    filters=("asset_id", "plugin_id", "severity", "state", "cve", "hostname", "exception_id"),
    search=("plugin_name",),
    delete=False,
    transitions={
        "fix": Transition(
            "state",
            ("open", "reopened"),
            "fixed",
            "mark the finding fixed",
            description="Mark an open or reopened finding fixed (remediated and verified by a rescan).",
        ),
    },
    guard_update=_guard_finding,
)
exceptions = service.resource(
    RiskException,
    name="exception",
    plural="exceptions",
    prefix="rule",
    create=False,
    get=False,
    filters=("action", "plugin_id", "asset_id", "status", "requested_by"),
    search=("reason",),
    delete=False,
    title="risk exception",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_import(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "hostname": f"kiosk-01.{ctx.population.home.domain}",
        "ipv4": "10.30.0.15",
        "kind": "network_device",
        "operating_system": "Cisco IOS 15.2",
        "criticality": 4,
    }


@service.tool(intent="import the asset", write=True, example=_example_import)
def import_asset(
    ctx: Ctx,
    hostname: Hostname,
    kind: AssetKind,
    operating_system: Annotated[str, StringConstraints(min_length=1, max_length=80)],
    ipv4: Ipv4,
    owner_email: Email | None = None,
    criticality: Criticality = 5,
) -> Asset:
    """Add an asset to the inventory; host names and addresses are unique.

    Args:
        hostname: Its host name or FQDN.
        kind: laptop, server, network_device or cloud_instance.
        operating_system: Its operating system.
        ipv4: Its IPv4 address.
        owner_email: The employee responsible for it.
        criticality: Asset criticality rating, 1-10.
    """
    for fname, value in (("hostname", hostname), ("ipv4", ipv4)):
        other = ctx.first(Asset, **{fname: value})
        if other is not None:
            raise Conflict(
                f"asset {other.id} already has {fname} {value}",
                field=fname,
                hint="update the existing asset with vulnscan__update_asset instead",
            )
    _staff(ctx, owner_email, "owner_email")
    return ctx.create(
        Asset,
        hostname=hostname,
        ipv4=ipv4,
        kind=kind,
        operating_system=operating_system,
        owner_email=owner_email,
        criticality=criticality,
    )


def _targets(ctx: Ctx, plugin_id: int, asset_id: str | None) -> list[Finding]:
    if asset_id is not None:
        ctx.get(Asset, asset_id, field="asset_id")
        found = ctx.where(Finding, plugin_id=plugin_id, asset_id=asset_id)
    else:
        found = ctx.where(Finding, plugin_id=plugin_id)
    if not found:
        raise RuleViolation(
            f"no finding of plugin {plugin_id}" + (f" on {asset_id}" if asset_id else ""),
            field="plugin_id",
            hint="list findings with vulnscan__list_findings to pick a plugin the scans found",
        )
    return found


def _no_overlap(ctx: Ctx, action: str, plugin_id: int, asset_id: str | None) -> None:
    for rule in ctx.where(RiskException, plugin_id=plugin_id, action=action, status="active"):
        if rule.asset_id is None or asset_id is None or rule.asset_id == asset_id:
            raise Conflict(
                f"active {action} rule {rule.id} already covers plugin {plugin_id}"
                + (f" on {rule.asset_id}" if rule.asset_id else " on every asset"),
                field="plugin_id",
                hint="revoke it with vulnscan__revoke_exception first",
            )


@service.tool(
    intent="launch the scan",
    write=True,
    example=first_example(Scan, "scan_id", where={"status": "completed"}),
)
def launch_scan(ctx: Ctx, scan_id: ScanId) -> Scan:
    """Launch a scan that is not running or paused; it runs over its targets.

    Args:
        scan_id: The scan.
    """
    scan = ctx.get(Scan, scan_id, field="scan_id")
    if scan.status in ("running", "paused"):
        raise Conflict(
            f"scan {scan.name!r} is already {scan.status}",
            field="scan_id",
            hint="wait for it to finish, or stop it with vulnscan__stop_scan",
        )
    return ctx.update(scan, status="running", runs=scan.runs + 1, last_launched_at=ctx.now())


def _example_accept(ctx: Ctx) -> dict[str, Any] | None:
    for f in ctx.where(Finding, state="open", severity="medium"):
        if not ctx.where(RiskException, plugin_id=f.plugin_id, status="active"):
            return {
                "plugin_id": f.plugin_id,
                "asset_id": f.asset_id,
                "reason": "Compensating control: host is isolated on the lab VLAN.",
                "expires_on": (ctx.today() + dt.timedelta(days=60)).isoformat(),
                "requested_by": ctx.population.employees[0].email,
            }
    return None


@service.tool(intent="accept the risk of the vulnerability", write=True, example=_example_accept)
def accept_risk(
    ctx: Ctx,
    plugin_id: PluginId,
    reason: Text,
    expires_on: Date,
    requested_by: Email,
    asset_id: AssetId | None = None,
) -> RiskException:
    """Accept the risk of a plugin's findings on one asset (or on all): they become accepted until expiry.

    Args:
        plugin_id: The plugin whose findings are accepted.
        reason: Why the risk is acceptable (required).
        expires_on: The last day the acceptance applies: after today, at most a year ahead (90 days for critical).
        requested_by: The employee accepting the risk.
        asset_id: Only this asset; omit for every asset.
    """
    found = _targets(ctx, plugin_id, asset_id)
    if not reason.strip():
        raise RuleViolation("accepting a risk needs a reason", field="reason", hint="say why the risk is acceptable")
    _staff(ctx, requested_by, "requested_by")
    today = ctx.today()
    critical = any(f.severity == "critical" for f in found)
    limit = MAX_ACCEPT_CRITICAL if critical else MAX_ACCEPT
    if expires_on <= today or expires_on > today + limit:
        raise RuleViolation(
            f"expires_on must be after {today} and at most {limit.days} days ahead"
            + (" for a critical vulnerability" if critical else ""),
            field="expires_on",
            hint=f"pick a date up to {today + limit}",
        )
    live = [f for f in found if f.state in LIVE]
    if not live:
        raise RuleViolation(
            f"no open finding of plugin {plugin_id} to accept",
            field="plugin_id",
            hint="fixed or already accepted findings need no acceptance",
        )
    _no_overlap(ctx, "accept", plugin_id, asset_id)
    rule = ctx.create(
        RiskException,
        action="accept",
        plugin_id=plugin_id,
        asset_id=asset_id,
        reason=reason.strip(),
        requested_by=requested_by,
        expires_on=expires_on,
    )
    for f in live:
        ctx.update(f, state="accepted", exception_id=rule.id)
    return rule


def _example_recast(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(Finding, state="open", severity="high")
    return (
        None
        if f is None
        else {
            "plugin_id": f.plugin_id,
            "asset_id": f.asset_id,
            "new_severity": "medium",
            "reason": "Only reachable from the management network.",
            "requested_by": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="recast the severity of the vulnerability", write=True, example=_example_recast)
def recast_severity(
    ctx: Ctx,
    plugin_id: PluginId,
    new_severity: Severity,
    reason: Text,
    requested_by: Email,
    asset_id: AssetId | None = None,
    expires_on: Date | None = None,
) -> RiskException:
    """Change the severity of a plugin's findings on one asset (or on all) to another level.

    Args:
        plugin_id: The plugin.
        new_severity: The severity the findings get; it must differ from the plugin's own.
        reason: Why (required).
        requested_by: The employee making the rule.
        asset_id: Only this asset; omit for every asset.
        expires_on: The last day it applies (after today); omit for no expiry.
    """
    found = _targets(ctx, plugin_id, asset_id)
    if new_severity == found[0].original_severity:
        raise RuleViolation(
            f"plugin {plugin_id} is already {new_severity}",
            field="new_severity",
            hint="pick a different severity",
        )
    if not reason.strip():
        raise RuleViolation("a recast needs a reason", field="reason", hint="say why the severity differs here")
    _staff(ctx, requested_by, "requested_by")
    if expires_on is not None and expires_on <= ctx.today():
        raise RuleViolation("expires_on must be after today", field="expires_on", hint="pick a future date")
    _no_overlap(ctx, "recast", plugin_id, asset_id)
    rule = ctx.create(
        RiskException,
        action="recast",
        plugin_id=plugin_id,
        asset_id=asset_id,
        new_severity=new_severity,
        reason=reason.strip(),
        requested_by=requested_by,
        expires_on=expires_on,
    )
    for f in found:
        ctx.update(f, severity=new_severity)
    return rule


@service.tool(
    intent="revoke the risk exception",
    write=True,
    example=first_example(RiskException, "exception_id", where={"status": "active"}),
)
def revoke_exception(ctx: Ctx, exception_id: ExceptionId) -> RiskException:
    """Revoke an active rule: accepted findings are reopened, recast ones get their own severity back.

    Args:
        exception_id: The rule.
    """
    rule = ctx.get(RiskException, exception_id, field="exception_id")
    if rule.status != "active":
        raise Conflict(f"rule {rule.id} is already {rule.status}", field="exception_id", hint="nothing to do")
    if rule.action == "accept":
        for f in ctx.where(Finding, exception_id=rule.id):
            if f.state == "accepted":
                ctx.update(f, state="reopened", exception_id=None)
    else:
        matching = ctx.where(Finding, plugin_id=rule.plugin_id)
        for f in matching:
            if rule.asset_id is None or f.asset_id == rule.asset_id:
                ctx.update(f, severity=f.original_severity)
    return ctx.update(rule, status="revoked")


@service.tool(intent="show the asset's exposure", example=first_example(Asset, "asset_id"))
def asset_exposure(ctx: Ctx, asset_id: AssetId) -> Exposure:
    """An asset's open findings per severity, its accepted ones and its exposure score.

    Args:
        asset_id: The asset.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    found = ctx.where(Finding, asset_id=asset.id)
    live = [f for f in found if f.state in LIVE]
    counts: dict[Severity, int] = {s: 0 for s in SEVERITIES}
    for f in live:
        counts[f.severity] += 1
    vpr = max((f.vpr_score for f in live), default=0.0)
    return Exposure(
        asset_id=asset.id,
        hostname=asset.hostname,
        criticality=asset.criticality,
        open_by_severity=counts,
        accepted=sum(f.state == "accepted" for f in found),
        highest_vpr=vpr,
        exposure_score=round(asset.criticality * vpr * 10),
    )


# -- seed -------------------------------------------------------------------------------------

PLUGINS: tuple[tuple[int, str, str | None, Severity, float, float, int], ...] = (
    (156032, "Apache Log4j < 2.15.0 Remote Code Execution", "CVE-2021-44228", "critical", 10.0, 9.8, 8080),
    (142960, "OpenSSL 1.1.1 < 1.1.1w Multiple Vulnerabilities", "CVE-2023-5678", "medium", 5.3, 3.6, 443),
    (51192, "SSL Certificate Cannot Be Trusted", None, "medium", 6.5, 4.4, 443),
    (57582, "SSL Self-Signed Certificate", None, "medium", 6.5, 3.0, 443),
    (183890, "Google Chrome < 118.0.5993.70 Multiple Vulnerabilities", "CVE-2023-5472", "high", 8.8, 6.7, 0),
    (187315, "Microsoft Windows Security Update (December 2023)", "CVE-2023-36011", "high", 7.8, 7.4, 0),
    (97833, "MS17-010: Security Update for Microsoft Windows SMB Server", "CVE-2017-0144", "critical", 8.1, 9.7, 445),
    (10114, "ICMP Timestamp Request Remote Date Disclosure", "CVE-1999-0524", "low", 2.1, 1.4, 0),
    (90317, "SSH Weak Algorithms Supported", None, "medium", 5.3, 2.2, 22),
    (42873, "SSL Medium Strength Cipher Suites Supported (SWEET32)", "CVE-2016-2183", "high", 7.5, 5.1, 443),
    (19506, "Nessus Scan Information", None, "info", 0.0, 0.0, 0),
)
SERVERS: tuple[tuple[str, str, int, tuple[str, ...]], ...] = (
    ("web-01", "Ubuntu 22.04", 9, ("env:prod", "pci")),
    ("web-02", "Ubuntu 22.04", 9, ("env:prod", "pci")),
    ("db-01", "Red Hat Enterprise Linux 8", 10, ("env:prod", "pci")),
    ("build-01", "Ubuntu 20.04", 6, ("env:ci",)),
    ("files-01", "Windows Server 2019", 7, ("env:prod",)),
    ("lab-01", "Windows Server 2016", 3, ("env:lab",)),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Servers and employee laptops with findings in every state, scans in every state, accept and recast rules."""
    pop = s.population
    domain = pop.home.domain
    it = pop.staff("Engineering", "IT", fallback=3)
    made: list[Asset] = []
    for k, (name, os_name, acr, tags) in enumerate(SERVERS):
        made.append(
            s.create(
                Asset,
                hostname=f"{name}.{domain}",
                ipv4=f"10.10.1.{11 + k}",
                kind="server",
                operating_system=os_name,
                owner_email=it[k % len(it)].email,
                criticality=acr,
                tags=tags,
                last_seen=s.ago(days=1 + k % 3),
                created_at=s.ago(days=400 - 20 * k),
            )
        )
    for k, p in enumerate(pop.employees[:14]):
        handle = f"{p.first_name}-{p.last_name}".lower().replace(" ", "-").replace("'", "")
        handle = "".join(ch for ch in handle if ch.isascii() and (ch.isalnum() or ch == "-")) or f"user{k}"
        made.append(
            s.create(
                Asset,
                hostname=f"lt-{handle}.{domain}",
                ipv4=f"10.20.{k // 200}.{20 + k}",
                kind="laptop",
                operating_system="Windows 11" if k % 3 else "macOS 14",
                owner_email=p.email,
                criticality=4 if k % 4 else 6,
                tags=("endpoint",),
                last_seen=s.ago(days=k % 9),
                created_at=s.ago(days=300 - 9 * k),
            )
        )
    for a in made:
        pool = PLUGINS[:4] + PLUGINS[6:7] + PLUGINS[8:] if a.kind == "server" else PLUGINS[4:6] + PLUGINS[7:8]
        for plugin in pool:
            if plugin[0] != 19506 and s.rng.random() < 0.35:
                continue
            pid, pname, cve, sev, cvss, vpr, port = plugin
            first = s.ago(days=s.rng.randint(20, 200))
            state: Any = "fixed" if s.rng.random() < 0.2 else "open"
            s.create(
                Finding,
                asset_id=a.id,
                hostname=a.hostname,
                plugin_id=pid,
                plugin_name=pname,
                cve=cve,
                severity=sev,
                original_severity=sev,
                cvss3_base_score=cvss,
                vpr_score=vpr,
                port=port,
                state=state,
                first_found=first,
                last_found=s.ago(days=2) if state == "open" else first + dt.timedelta(days=10),
                last_fixed=first + dt.timedelta(days=12) if state == "fixed" else None,
                updated_at=first,
            )
    _seed_rules(s, made, it[0].email)
    servers = [a.id for a in made if a.kind == "server"]
    laptops = [a.id for a in made if a.kind == "laptop"]
    for name, template, targets, status, runs in (
        ("Weekly internal network", "basic", servers, "completed", 30),
        ("Endpoint compliance", "advanced", laptops, "running", 12),
        ("PCI quarterly external", "pci", servers[:3], "paused", 4),
        ("Web application scan", "webapp", servers[:2], "aborted", 2),
        ("New office discovery", "discovery", laptops[:5], "empty", 0),
    ):
        s.create(
            Scan,
            name=name,
            template=template,
            target_ids=tuple(targets),
            owner_email=it[runs % len(it)].email,
            status=status,
            runs=runs,
            last_launched_at=s.ago(hours=5 + runs) if runs else None,
            created_at=s.ago(days=200),
            updated_at=s.ago(hours=5 + runs),
        )


def _seed_rules(s: SeedContext, made: list[Asset], by: str) -> None:
    """An active acceptance on the lab server, an expired one, and a fleet-wide recast."""
    found = s.records(Finding)
    lab = next(a for a in made if a.hostname.startswith("lab-01"))
    for f in found:
        if f.asset_id == lab.id and f.state == "open" and f.severity in ("medium", "low"):
            rule = s.create(
                RiskException,
                action="accept",
                plugin_id=f.plugin_id,
                asset_id=lab.id,
                reason="Lab server, isolated VLAN; decommission planned next quarter.",
                requested_by=by,
                expires_on=(s.now + dt.timedelta(days=45)).date(),
                created_at=s.ago(days=30),
            )
            s.update(f, state="accepted", exception_id=rule.id)
            break
    s.create(
        RiskException,
        action="accept",
        plugin_id=57582,
        asset_id=made[3].id,
        reason="Internal build server; certificate replacement scheduled.",
        requested_by=by,
        expires_on=(s.now - dt.timedelta(days=5)).date(),
        status="expired",
        created_at=s.ago(days=100),
    )
    s.create(
        RiskException,
        action="recast",
        plugin_id=10114,
        new_severity="info",
        reason="ICMP timestamp disclosure carries no risk on our internal network.",
        requested_by=by,
        created_at=s.ago(days=60),
    )
    for f in s.records(Finding):
        if f.plugin_id == 10114:
            s.update(f, severity="info")
