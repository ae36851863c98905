"""Sentinel Grid: SIEM detection rules, notable events, suppressions, investigations and watchlists.

Modeled on Splunk Enterprise Security (correlation searches with a
threshold over a time window and a throttle field, notable events with urgency,
owner, status new → in progress → pending → resolved → closed and a
disposition, notable event suppressions with an expiry, investigations that
collect notables) and Microsoft Sentinel (scheduled analytics rules with
severity and MITRE ATT&CK tactics and techniques, incident grouping of alerts
on the same entity, watchlists of users, IPs and hosts). Running a rule with an
event count at or above its threshold raises a notable for the entity, unless
an active suppression of that rule matches the entity; an open notable of the
same rule and entity absorbs the new hit instead (grouping); an entity on a
watchlist raises the urgency one level. Closing a notable needs a disposition,
a suppression expires within 90 days, a notable belongs to at most one
investigation, and an investigation closes only with a summary once all its
notables are closed.
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
from compoworld.engine.types import Date, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "siem",
    title="Sentinel Grid",
    category="siem",
    modeled_on="Splunk Enterprise Security (correlation searches, notable events, suppressions, investigations) "
    "and Microsoft Sentinel (scheduled analytics rules, incident grouping, watchlists)",
    description="Security information and event management: detection rules with thresholds, severities and "
    "MITRE ATT&CK mapping, the notable events they raise on users, IPs and hosts, triage with owners and "
    "dispositions, suppressions that silence known-benign activity until they expire, investigations that "
    "collect notables, and watchlists of VIP users, bad IPs and critical hosts.",
)

RuleId = Annotated[str, IdOf("siem.rule")]
NotableId = Annotated[str, IdOf("siem.notable")]
SuppressionId = Annotated[str, IdOf("siem.suppression")]
InvestigationId = Annotated[str, IdOf("siem.investigation")]
WatchlistId = Annotated[str, IdOf("siem.watchlist")]
ItemId = Annotated[str, IdOf("siem.watchlist_item")]

EntityValue = Annotated[str, StringConstraints(min_length=1, max_length=254)]
"""A user's e-mail, an IPv4 address or a host name, by the rule's entity kind."""
Technique = Annotated[str, StringConstraints(pattern=r"^T\d{4}(\.\d{3})?$")]
"""A MITRE ATT&CK technique id."""

Urgency = Literal["informational", "low", "medium", "high", "critical"]
EntityKind = Literal["user", "ip", "host"]
Tactic = Literal[
    "initial_access",
    "execution",
    "persistence",
    "privilege_escalation",
    "defense_evasion",
    "credential_access",
    "discovery",
    "lateral_movement",
    "collection",
    "exfiltration",
    "command_and_control",
    "impact",
]
NotableStatus = Literal["new", "in_progress", "pending", "resolved", "closed"]
Disposition = Literal["true_positive", "benign_positive", "false_positive", "undetermined"]
SuppressionStatus = Literal["active", "disabled"]
InvestigationStatus = Literal["open", "in_progress", "closed"]

URGENCIES: tuple[Urgency, ...] = ("informational", "low", "medium", "high", "critical")
OPEN: tuple[NotableStatus, ...] = ("new", "in_progress", "pending")
MAX_SUPPRESSION = dt.timedelta(days=90)
_IP = re.compile(r"^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$")
_HOST = re.compile(r"^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$")
_MAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")


class Rule(Record):
    """A scheduled detection rule (correlation search)."""

    id: RuleId
    name: Title
    """Its name (unique)."""
    query: Text
    """The search it runs (SPL or KQL)."""
    severity: Urgency = "medium"
    """The urgency of the notables it raises."""
    entity: EntityKind = "user"
    """What it groups by: user, ip or host."""
    threshold: Annotated[int, Field(ge=1, le=100_000)] = 1
    """Events per window needed to fire."""
    window_minutes: Annotated[int, Field(ge=5, le=10_080)] = 60
    """The time window it counts over."""
    tactics: tuple[Tactic, ...] = ()
    """MITRE ATT&CK tactics."""
    techniques: tuple[Technique, ...] = ()
    """MITRE ATT&CK techniques."""
    enabled: bool = True
    """Whether it runs."""
    owner_email: Email | None = None
    """The detection engineer who owns it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Notable(Record):
    """A notable event a rule raised for one entity."""

    id: NotableId
    rule_id: RuleId
    """The rule."""
    title: Title
    """What happened."""
    entity: EntityKind
    """user, ip or host."""
    entity_value: EntityValue
    """The user's e-mail, the IP or the host."""
    urgency: Urgency
    """informational, low, medium, high or critical."""
    event_count: int
    """Events counted, grouped hits included."""
    watchlists: tuple[str, ...] = ()
    """Names of the watchlists the entity is on."""
    status: NotableStatus = "new"
    """new, in_progress, pending, resolved or closed."""
    owner_email: Email | None = None
    """The analyst working it."""
    disposition: Disposition | None = None
    """How it ended, once closed."""
    comment: str = ""
    """The analyst's notes."""
    investigation_id: InvestigationId | None = None
    """The investigation it belongs to."""
    first_seen: DateTime
    """When it was first raised."""
    last_seen: DateTime
    """When it was last hit."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Suppression(Record):
    """A rule that silences a detection for one entity value until it expires."""

    id: SuppressionId
    name: Title
    """Its name."""
    rule_id: RuleId
    """The rule it silences."""
    entity_value: EntityValue
    """The entity it silences."""
    reason: Text
    """Why the activity is benign."""
    expires_on: Date
    """The last day it applies."""
    status: SuppressionStatus = "active"
    """active or disabled."""
    created_by: Email
    """The analyst who made it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Investigation(Record):
    """An investigation collecting related notables."""

    id: InvestigationId
    title: Title
    """Its title."""
    status: InvestigationStatus = "open"
    """open, in_progress or closed."""
    owner_email: Email
    """The lead analyst."""
    summary: str = ""
    """Findings; required to close."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Watchlist(Record):
    """A named list of users, IPs or hosts that raises urgency when they show up."""

    id: WatchlistId
    name: Title
    """Its name (unique)."""
    kind: EntityKind
    """user, ip or host."""
    description: str = ""
    """What it holds."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class WatchlistItem(Record):
    """One value on a watchlist."""

    id: ItemId
    watchlist_id: WatchlistId
    """The watchlist."""
    value: EntityValue
    """The user's e-mail, IP or host."""
    note: str = ""
    """Why it is listed."""


class RuleRun(Value):
    """What running a rule did."""

    rule_id: RuleId
    """The rule."""
    fired: bool
    """Whether the count reached the threshold."""
    suppressed_by: SuppressionId | None = None
    """The suppression that silenced it."""
    notable_id: NotableId | None = None
    """The notable raised or grouped into."""
    grouped: bool = False
    """Whether the hit joined an open notable."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a SIEM user", field=field, hint="use an employee's e-mail")


def _check_value(kind: str, value: str, field: str) -> str:
    value = value.strip().lower()
    pattern = {"user": _MAIL, "ip": _IP, "host": _HOST}[kind]
    if not pattern.match(value):
        raise RuleViolation(f"{value!r} is not a valid {kind}", field=field, hint=f"give a {kind} value")
    return value


def _guard_rule(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        if any(n.status in OPEN for n in ctx.where(Notable, rule_id=old.id)):
            raise Conflict(f"rule {old.name!r} has open notables", field="rule_id", hint="disable it instead")
        return
    for r in ctx.where(Rule, name=new.name):
        if r.id != new.id:
            raise Conflict(f"a rule named {new.name!r} exists", field="name", hint="pick another name")
    if not new.query.strip():
        raise RuleViolation("a rule needs a search query", field="query", hint="write the SPL or KQL search")
    _staff(ctx, new.owner_email, "owner_email")


def _guard_watchlist(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        for item in ctx.where(WatchlistItem, watchlist_id=old.id):
            ctx.delete(item)
        return
    for w in ctx.where(Watchlist, name=new.name):
        if w.id != new.id:
            raise Conflict(f"a watchlist named {new.name!r} exists", field="name", hint="pick another name")


rules = service.resource(
    Rule,
    name="rule",
    plural="rules",
    prefix="rule",
    create=(
        "name",
        "query",
        "severity",
        "entity",
        "threshold",
        "window_minutes",
        "tactics",
        "techniques",
        "owner_email",
    ),
    filters=("enabled", "severity", "entity", "owner_email"),
    search=("name", "query"),
    update=("query", "severity", "threshold", "window_minutes", "tactics", "techniques", "owner_email"),
    transitions={
        "enable": Transition("enabled", (False,), True, "enable the detection rule"),
        "disable": Transition("enabled", (True,), False, "disable the detection rule"),
    },
    guard_create=_guard_rule,
    guard_update=_guard_rule,
    guard_delete=_guard_rule,
    title="detection rule",
)
notables = service.resource(
    Notable,
    name="notable",
    plural="notables",
    prefix="ne",
    create=False,
    filters=("rule_id", "status", "urgency", "owner_email", "entity", "entity_value", "investigation_id"),
    search=("title", "comment"),
    update=("urgency", "comment"),
    delete=False,
    title="notable event",
)
suppressions = service.resource(
    Suppression,
    name="suppression",
    plural="suppressions",
    prefix="sup",
    create=False,
    get=False,
    filters=("rule_id", "status", "entity_value", "created_by"),
    search=("name", "reason"),
    delete=False,
    transitions={"disable": Transition("status", ("active",), "disabled", "disable the suppression")},
)
investigations = service.resource(
    Investigation,
    name="investigation",
    plural="investigations",
    prefix="inv",
    create=("title", "owner_email"),
    filters=("status", "owner_email"),
    search=("title", "summary"),
    update=("title", "summary"),
    delete=False,
    guard_create=lambda ctx, new, old: _staff(ctx, new.owner_email, "owner_email"),
)
watchlists = service.resource(
    Watchlist,
    name="watchlist",
    plural="watchlists",
    prefix="wl",
    create=("name", "kind", "description"),
    get=False,
    filters=("kind",),
    search=("name", "description"),
    update=("name", "description"),
    guard_create=_guard_watchlist,
    guard_update=_guard_watchlist,
    guard_delete=_guard_watchlist,
)
watchlist_items = service.resource(
    WatchlistItem,
    name="watchlist_item",
    plural="watchlist_items",
    prefix="wli",
    create=False,
    get=False,
    filters=("watchlist_id", "value"),
    search=("value", "note"),
)


# -- detection --------------------------------------------------------------------------------


def _lists_of(ctx: Ctx, kind: str, value: str) -> tuple[str, ...]:
    names = []
    for item in ctx.where(WatchlistItem, value=value):
        w = ctx.get(Watchlist, item.watchlist_id)
        if w.kind == kind:
            names.append(w.name)
    return tuple(sorted(names))


def _example_run(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Rule, enabled=True, entity="host")
    return None if r is None else {"rule_id": r.id, "entity_value": "kiosk-07.lab", "event_count": r.threshold}


@service.tool(intent="run the detection rule", write=True, example=_example_run)
def run_rule(ctx: Ctx, rule_id: RuleId, entity_value: EntityValue, event_count: Annotated[int, Field(ge=0)]) -> RuleRun:
    """Run an enabled rule over the events counted for one entity: it fires at its threshold.

    Args:
        rule_id: The rule.
        entity_value: The user's e-mail, IP or host the events concern (by the rule's entity).
        event_count: How many matching events the window holds.
    """
    r = ctx.get(Rule, rule_id, field="rule_id")
    if not r.enabled:
        raise Conflict(f"rule {r.name!r} is disabled", field="rule_id", hint="enable it with siem__enable_rule")
    value = _check_value(r.entity, entity_value, "entity_value")
    if event_count < r.threshold:
        return RuleRun(rule_id=r.id, fired=False)
    today = ctx.today()
    for s in ctx.where(Suppression, rule_id=r.id, entity_value=value, status="active"):
        if s.expires_on >= today:
            return RuleRun(rule_id=r.id, fired=True, suppressed_by=s.id)
    for n in ctx.where(Notable, rule_id=r.id, entity_value=value):
        if n.status in OPEN:
            n = ctx.update(n, event_count=n.event_count + event_count, last_seen=ctx.now())
            return RuleRun(rule_id=r.id, fired=True, notable_id=n.id, grouped=True)
    lists = _lists_of(ctx, r.entity, value)
    urgency = URGENCIES[min(URGENCIES.index(r.severity) + (1 if lists else 0), len(URGENCIES) - 1)]
    n = ctx.create(
        Notable,
        rule_id=r.id,
        title=f"{r.name} - {value}",
        entity=r.entity,
        entity_value=value,
        urgency=urgency,
        event_count=event_count,
        watchlists=lists,
        first_seen=ctx.now(),
        last_seen=ctx.now(),
    )
    return RuleRun(rule_id=r.id, fired=True, notable_id=n.id)


# -- triage -----------------------------------------------------------------------------------


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    n = ctx.first(Notable, status="new")
    return None if n is None else {"notable_id": n.id, "owner_email": ctx.population.employees[0].email}


@service.tool(intent="assign the notable event", write=True, example=_example_assign)
def assign_notable(ctx: Ctx, notable_id: NotableId, owner_email: Email) -> Notable:
    """Give an open notable to an analyst; a new one moves to in progress.

    Args:
        notable_id: The notable.
        owner_email: The analyst.
    """
    n = ctx.get(Notable, notable_id, field="notable_id")
    if n.status not in OPEN:
        raise Conflict(f"notable {n.id} is {n.status}", field="notable_id", hint="reopen it first")
    _staff(ctx, owner_email, "owner_email")
    return ctx.update(n, owner_email=owner_email, status="in_progress" if n.status == "new" else n.status)


@service.tool(
    intent="close the notable event",
    write=True,
    example=first_example(Notable, "notable_id", where={"status": "in_progress"}, disposition="benign_positive"),
)
def close_notable(ctx: Ctx, notable_id: NotableId, disposition: Disposition, comment: str = "") -> Notable:
    """Close an open or resolved notable with a disposition; a false positive needs a comment.

    Args:
        notable_id: The notable.
        disposition: true_positive, benign_positive, false_positive or undetermined.
        comment: The analyst's notes.
    """
    n = ctx.get(Notable, notable_id, field="notable_id")
    if n.status == "closed":
        raise Conflict(f"notable {n.id} is already closed", field="notable_id", hint="nothing to do")
    if n.owner_email is None:
        raise RuleViolation("an unowned notable cannot be closed", field="notable_id", hint="assign it first")
    if disposition == "false_positive" and not comment.strip():
        raise RuleViolation("say why it is a false positive", field="comment", hint="tune the rule or suppress")
    notes = f"{n.comment}\n{comment.strip()}".strip() if comment.strip() else n.comment
    return ctx.update(n, status="closed", disposition=disposition, comment=notes)


@service.tool(
    intent="reopen the notable event",
    write=True,
    example=first_example(Notable, "notable_id", where={"status": "closed"}),
)
def reopen_notable(ctx: Ctx, notable_id: NotableId) -> Notable:
    """Reopen a closed notable (its disposition is cleared); its investigation must still be open.

    Args:
        notable_id: The closed notable.
    """
    n = ctx.get(Notable, notable_id, field="notable_id")
    if n.status != "closed":
        raise Conflict(f"notable {n.id} is {n.status}", field="notable_id", hint="only closed notables reopen")
    if n.investigation_id is not None and ctx.get(Investigation, n.investigation_id).status == "closed":
        raise RuleViolation("its investigation is closed", field="notable_id", hint="open a new investigation")
    return ctx.update(n, status="in_progress", disposition=None)


def _example_suppress(ctx: Ctx) -> dict[str, Any] | None:
    n = ctx.first(Notable, entity="ip")
    return (
        None
        if n is None
        else {
            "name": "Scanner traffic",
            "rule_id": n.rule_id,
            "entity_value": n.entity_value,
            "reason": "Authorised vulnerability scanner.",
            "expires_on": (ctx.today() + dt.timedelta(days=30)).isoformat(),
            "created_by": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="suppress the detection for the entity", write=True, example=_example_suppress)
def create_suppression(
    ctx: Ctx, name: Title, rule_id: RuleId, entity_value: EntityValue, reason: Text, expires_on: Date, created_by: Email
) -> Suppression:
    """Silence a rule for one entity value until a date at most 90 days ahead.

    Args:
        name: Its name.
        rule_id: The rule.
        entity_value: The user's e-mail, IP or host to silence.
        reason: Why the activity is benign (required).
        expires_on: The last day it applies.
        created_by: The analyst.
    """
    r = ctx.get(Rule, rule_id, field="rule_id")
    value = _check_value(r.entity, entity_value, "entity_value")
    if not reason.strip():
        raise RuleViolation("a suppression needs a reason", field="reason", hint="say why it is benign")
    _staff(ctx, created_by, "created_by")
    today = ctx.today()
    if expires_on <= today or expires_on > today + MAX_SUPPRESSION:
        raise RuleViolation(
            f"expires_on must be after {today} and at most 90 days ahead",
            field="expires_on",
            hint=f"pick a date up to {today + MAX_SUPPRESSION}",
        )
    if any(s.expires_on >= today for s in ctx.where(Suppression, rule_id=r.id, entity_value=value, status="active")):
        raise Conflict(f"{value} is already suppressed for {r.name!r}", field="entity_value", hint="disable it first")
    return ctx.create(
        Suppression,
        name=name,
        rule_id=r.id,
        entity_value=value,
        reason=reason.strip(),
        expires_on=expires_on,
        created_by=created_by,
    )


# -- investigations ---------------------------------------------------------------------------


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    inv, n = ctx.first(Investigation, status="in_progress"), ctx.first(Notable, status="new")
    return None if inv is None or n is None else {"investigation_id": inv.id, "notable_id": n.id}


@service.tool(intent="add the notable to the investigation", write=True, example=_example_add)
def add_to_investigation(ctx: Ctx, investigation_id: InvestigationId, notable_id: NotableId) -> Investigation:
    """Attach a notable to an open investigation; a notable belongs to one investigation only.

    Args:
        investigation_id: The investigation.
        notable_id: The notable.
    """
    inv = ctx.get(Investigation, investigation_id, field="investigation_id")
    if inv.status == "closed":
        raise Conflict(f"investigation {inv.id} is closed", field="investigation_id", hint="open a new one")
    n = ctx.get(Notable, notable_id, field="notable_id")
    if n.investigation_id is not None:
        raise Conflict(
            f"notable {n.id} is already in {n.investigation_id}", field="notable_id", hint="pick another notable"
        )
    ctx.update(n, investigation_id=inv.id)
    return ctx.update(inv, status="in_progress")


def _example_close(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.scan(Investigation):
        if inv.status != "closed" and all(n.status == "closed" for n in ctx.where(Notable, investigation_id=inv.id)):
            return {"investigation_id": inv.id, "summary": "Benign admin activity; no compromise."}
    return None


@service.tool(intent="close the investigation", write=True, example=_example_close)
def close_investigation(ctx: Ctx, investigation_id: InvestigationId, summary: Text) -> Investigation:
    """Close an investigation with a summary once all its notables are closed.

    Args:
        investigation_id: The investigation.
        summary: What was found.
    """
    inv = ctx.get(Investigation, investigation_id, field="investigation_id")
    if inv.status == "closed":
        raise Conflict(f"investigation {inv.id} is already closed", field="investigation_id", hint="nothing to do")
    if not summary.strip():
        raise RuleViolation("closing needs a summary", field="summary", hint="write what was found")
    still = [n.id for n in ctx.where(Notable, investigation_id=inv.id) if n.status != "closed"]
    if still:
        raise RuleViolation(
            f"notables {', '.join(still)} are not closed", field="investigation_id", hint="close them first"
        )
    return ctx.update(inv, status="closed", summary=summary.strip())


def _example_item(ctx: Ctx) -> dict[str, Any] | None:
    w = ctx.first(Watchlist, kind="ip")
    return None if w is None else {"watchlist_id": w.id, "value": "203.0.113.77", "note": "Threat intel feed"}


@service.tool(intent="add the value to the watchlist", write=True, example=_example_item)
def add_watchlist_item(ctx: Ctx, watchlist_id: WatchlistId, value: EntityValue, note: str = "") -> WatchlistItem:
    """Add a user's e-mail, IP or host to a watchlist of that kind; each value once.

    Args:
        watchlist_id: The watchlist.
        value: The value, matching the watchlist's kind.
        note: Why it is listed.
    """
    w = ctx.get(Watchlist, watchlist_id, field="watchlist_id")
    value = _check_value(w.kind, value, "value")
    if ctx.where(WatchlistItem, watchlist_id=w.id, value=value):
        raise Conflict(f"{value} is already on {w.name!r}", field="value", hint="nothing to do")
    return ctx.create(WatchlistItem, watchlist_id=w.id, value=value, note=note)


# -- seed -------------------------------------------------------------------------------------

RULES: tuple[tuple[str, str, Urgency, EntityKind, int, int, tuple[Tactic, ...], tuple[str, ...], bool], ...] = (
    (
        "Brute force: repeated failed sign-ins",
        "index=auth action=failure | stats count by user",
        "high",
        "user",
        10,
        15,
        ("credential_access",),
        ("T1110",),
        True,
    ),
    (
        "Impossible travel",
        "SigninLogs | where RiskDetail == 'impossibleTravel'",
        "medium",
        "user",
        1,
        60,
        ("initial_access",),
        ("T1078",),
        True,
    ),
    (
        "Outbound traffic to threat-intel IP",
        "index=firewall dest_ip IN (ti_bad_ips) | stats count by src_ip",
        "high",
        "ip",
        1,
        60,
        ("command_and_control",),
        ("T1071",),
        True,
    ),
    (
        "Rare DNS volume from host",
        "index=dns | stats dc(query) by host | where dc > 200",
        "medium",
        "host",
        200,
        60,
        ("exfiltration",),
        ("T1048.003",),
        True,
    ),
    (
        "Added to privileged group",
        "AuditLogs | where OperationName == 'Add member to role'",
        "high",
        "user",
        1,
        5,
        ("privilege_escalation", "persistence"),
        ("T1098",),
        True,
    ),
    (
        "Mass file deletion on server",
        "index=wineventlog EventCode=4660 | stats count by host",
        "critical",
        "host",
        500,
        10,
        ("impact",),
        ("T1485",),
        False,
    ),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Rules, watchlists of VIPs, bad IPs and crown jewels, notables in every state, suppressions, investigations."""
    pop = s.population
    domain = pop.home.domain
    emps = pop.employees
    soc = pop.staff("Engineering", fallback=3)
    made = [
        s.create(
            Rule,
            name=n,
            query=q,
            severity=sev,
            entity=ent,
            threshold=th,
            window_minutes=win,
            tactics=tac,
            techniques=tech,
            enabled=on,
            owner_email=soc[k % len(soc)].email,
            created_at=s.ago(days=300 - 20 * k),
            updated_at=s.ago(days=30),
        )
        for k, (n, q, sev, ent, th, win, tac, tech, on) in enumerate(RULES)
    ]
    vips = s.create(Watchlist, name="VIP users", kind="user", description="Executives and finance approvers")
    for p in emps[-3:]:
        s.create(WatchlistItem, watchlist_id=vips.id, value=p.email, note=p.job_title)
    bad = s.create(Watchlist, name="Known bad IPs", kind="ip", description="Threat-intel indicators")
    for ip in ("185.220.101.4", "45.155.205.233"):
        s.create(WatchlistItem, watchlist_id=bad.id, value=ip, note="Tor exit / botnet C2")
    jewels = s.create(Watchlist, name="Crown-jewel hosts", kind="host", description="Servers holding customer data")
    s.create(WatchlistItem, watchlist_id=jewels.id, value=f"db-01.{domain}", note="Customer database")
    seeds: tuple[tuple[int, str, int, NotableStatus, Disposition | None], ...] = (
        (0, emps[4].email, 14, "new", None),
        (0, emps[-1].email, 22, "in_progress", None),
        (1, emps[9].email, 1, "closed", "benign_positive"),
        (2, "10.10.1.50", 3, "in_progress", None),
        (3, f"db-01.{domain}", 340, "pending", None),
        (4, emps[2].email, 1, "closed", "true_positive"),
        (1, emps[12].email, 1, "new", None),
    )
    for k, (ri, value, count, status, disp) in enumerate(seeds):
        r = made[ri]
        lists = tuple(w for w, items in ((vips.name, emps[-3:]),) if any(p.email == value for p in items))
        lists += (jewels.name,) if value.startswith("db-01.") else ()
        urgency = URGENCIES[min(URGENCIES.index(r.severity) + (1 if lists else 0), 4)]
        s.create(
            Notable,
            rule_id=r.id,
            title=f"{r.name} - {value}",
            entity=r.entity,
            entity_value=value,
            urgency=urgency,
            event_count=count,
            watchlists=lists,
            status=status,
            disposition=disp,
            owner_email=None if status == "new" else soc[k % len(soc)].email,
            first_seen=s.ago(days=6 - k % 5, hours=k),
            last_seen=s.ago(days=5 - k % 5),
            updated_at=s.ago(days=1),
        )
    s.create(
        Suppression,
        name="Vulnerability scanner",
        rule_id=made[0].id,
        entity_value=f"svc-scanner@{domain}",
        reason="Service account of the scanner retries credentials by design.",
        expires_on=(s.now + dt.timedelta(days=40)).date(),
        created_by=soc[0].email,
        created_at=s.ago(days=20),
    )
    _seed_investigations(s, soc[0].email)


def _seed_investigations(s: SeedContext, lead: str) -> None:
    """A closed investigation, one in progress on the scanner IP and DNS host, and one ready to close."""
    found = s.records(Notable)
    done = s.create(
        Investigation,
        title="Unexpected admin role grant",
        status="closed",
        owner_email=lead,
        summary="Change was an unapproved self-grant; access removed and user coached.",
        created_at=s.ago(days=4),
        updated_at=s.ago(days=2),
    )
    s.update(found[5], investigation_id=done.id)
    live = s.create(
        Investigation,
        title="Possible data staging on db-01",
        status="in_progress",
        owner_email=lead,
        created_at=s.ago(days=2),
        updated_at=s.ago(days=1),
    )
    for n in (found[3], found[4]):
        s.update(n, investigation_id=live.id)
    travel = s.create(
        Investigation,
        title="Sign-in from two continents",
        owner_email=lead,
        created_at=s.ago(days=3),
        updated_at=s.ago(days=1),
    )
    s.update(found[2], investigation_id=travel.id)
