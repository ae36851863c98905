"""Sentry Hive: the security team's incident response platform (alerts, cases, tasks, observables).

Modeled on TheHive 5 API (v1: alerts, cases, tasks, observables). Detection
tools and mailboxes raise alerts; an alert is unique by its type, source and
source reference. An analyst imports a New alert into a new case or merges it
into an open case: either way its observables go to the case and the alert
becomes Imported; an alert can also be Ignored, and then never imported.
A case has a severity (1 low to 4 critical), a Traffic Light Protocol level
(0 CLEAR, 1 GREEN, 2 AMBER, 3 AMBER+STRICT, 4 RED) and a Permissible Actions
Protocol level (0 CLEAR to 3 RED); it goes New → InProgress → Resolved, and
resolving needs a resolution status, an impact status and a summary, and no
mandatory task left open (other open tasks are cancelled). A resolved case can
be reopened but not edited. Observables are unique per case by data type and
value; their value must fit their type (an ip is an address, a hash is MD5,
SHA-1 or SHA-256 hex, a mail an e-mail address). Case and task assignees are
the home company's staff.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "secops",
    title="Sentry Hive",
    category="security_incidents",
    modeled_on="TheHive 5 API v1 (alerts with import/merge/ignore, cases with severity, TLP, PAP, status and "
    "resolution, tasks with mandatory flag, observables deduplicated per case)",
    description="Security incident response: alerts raised by detection tools and phishing reports, cases "
    "opened from them with severity and sharing levels, investigation tasks for the analysts, observables "
    "(IPs, domains, hashes, mail addresses) found in each case, and the case's resolution.",
)

AlertId = Annotated[str, IdOf("secops.alert")]
CaseId = Annotated[str, IdOf("secops.case")]
TaskId = Annotated[str, IdOf("secops.task")]
ObservableId = Annotated[str, IdOf("secops.observable")]

Severity = Annotated[int, Field(ge=1, le=4)]
"""1 low, 2 medium, 3 high, 4 critical."""
Tlp = Annotated[int, Field(ge=0, le=4)]
"""Traffic Light Protocol: 0 CLEAR, 1 GREEN, 2 AMBER, 3 AMBER+STRICT, 4 RED."""
Pap = Annotated[int, Field(ge=0, le=3)]
"""Permissible Actions Protocol: 0 CLEAR, 1 GREEN, 2 AMBER, 3 RED."""
Tag = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9:_.\-]{1,64}$")]
"""A tag such as phishing or mitre:T1566."""
SourceRef = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._:\-]{1,64}$")]
"""The alert's reference in its source system."""
ObservableData = Annotated[str, StringConstraints(min_length=1, max_length=2048, strip_whitespace=True)]
"""An observable's value: an address, domain, URL, hash, file name …"""

DataType = Literal["ip", "domain", "fqdn", "url", "mail", "hash", "filename", "user-agent", "other"]
AlertType = Literal["phishing-report", "edr-detection", "siem-correlation", "ids", "threat-intel", "dlp"]
AlertStatus = Literal["New", "Imported", "Ignored"]
CaseStatus = Literal["New", "InProgress", "Resolved"]
ResolutionStatus = Literal["TruePositive", "FalsePositive", "Indeterminate", "Duplicated", "Other"]
ImpactStatus = Literal["NoImpact", "WithImpact", "NotApplicable"]
TaskStatus = Literal["Waiting", "InProgress", "Completed", "Cancel"]

_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
_MAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$")
_URL = re.compile(r"^(https?|ftp)://\S+$")
_HEX = re.compile(r"^[0-9a-f]+$")
HASH_LENGTHS = {32: "MD5", 40: "SHA-1", 64: "SHA-256"}
OPEN_TASK: tuple[TaskStatus, ...] = ("Waiting", "InProgress")


class AlertObservable(Value):
    """An observable carried by an alert, copied to the case it is imported into."""

    data_type: DataType
    """ip, domain, fqdn, url, mail, hash, filename, user-agent or other."""
    data: ObservableData
    """The value."""
    ioc: bool = False
    """Whether the source flags it as an indicator of compromise."""


class Alert(Record):
    """An alert raised by a detection tool or a report, waiting for triage."""

    id: AlertId
    type: AlertType
    """phishing-report, edr-detection, siem-correlation, ids, threat-intel or dlp."""
    source: Annotated[str, StringConstraints(min_length=1, max_length=60, strip_whitespace=True)]
    """The system that raised it, e.g. Mail gateway, EDR, SIEM."""
    source_ref: SourceRef
    """Its id in the source; type, source and source_ref together are unique."""
    title: Title
    """A one-line title."""
    description: Text = ""
    """What the source reported."""
    severity: Severity = 2
    """1 low, 2 medium, 3 high, 4 critical."""
    tlp: Tlp = 2
    """Traffic Light Protocol level."""
    pap: Pap = 2
    """Permissible Actions Protocol level."""
    tags: tuple[Tag, ...] = ()
    """Tags."""
    reporter_email: Email | None = None
    """The employee who reported it (phishing reports)."""
    observables: tuple[AlertObservable, ...] = ()
    """Observables the alert carries."""
    status: AlertStatus = "New"
    """New (to triage), Imported (into a case) or Ignored."""
    case_id: CaseId | None = None
    """The case it was imported or merged into."""
    date: Annotated[DateTime, CREATED]
    """When it was raised."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Case(Record):
    """A security case under investigation."""

    id: CaseId
    number: Annotated[str, Generated("sequence", "{n}")]
    """The case number (#42 in the interface)."""
    title: Title
    """A one-line title."""
    description: Text = ""
    """What happened."""
    severity: Severity = 2
    """1 low, 2 medium, 3 high, 4 critical."""
    tlp: Tlp = 2
    """Traffic Light Protocol level."""
    pap: Pap = 2
    """Permissible Actions Protocol level."""
    tags: tuple[Tag, ...] = ()
    """Tags."""
    flag: bool = False
    """Whether an analyst flagged it for attention."""
    assignee: Email | None = None
    """The analyst who owns it (home company staff)."""
    status: CaseStatus = "New"
    """New, InProgress or Resolved."""
    resolution_status: ResolutionStatus | None = None
    """How it was resolved: TruePositive, FalsePositive, Indeterminate, Duplicated or Other."""
    impact_status: ImpactStatus | None = None
    """Whether the incident had an impact."""
    summary: Text | None = None
    """The closing summary."""
    end_date: DateTime | None = None
    """When it was resolved."""
    start_date: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Task(Record):
    """An investigation task of a case."""

    id: TaskId
    case_id: CaseId
    """The case."""
    title: Title
    """What to do."""
    group: Annotated[str, StringConstraints(min_length=1, max_length=40, strip_whitespace=True)] = "default"
    """The task group, e.g. identification, containment, eradication."""
    description: Text = ""
    """Details."""
    assignee: Email | None = None
    """The analyst doing it (home company staff)."""
    mandatory: bool = False
    """Whether it must be completed (or cancelled) before the case can be resolved."""
    status: TaskStatus = "Waiting"
    """Waiting, InProgress, Completed or Cancel."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Observable(Record):
    """An observable of a case: unique per case by data type and value."""

    id: ObservableId
    case_id: CaseId
    """The case."""
    data_type: DataType
    """ip, domain, fqdn, url, mail, hash, filename, user-agent or other."""
    data: ObservableData
    """The value."""
    message: Text = ""
    """Why it matters."""
    tlp: Tlp = 2
    """Traffic Light Protocol level."""
    ioc: bool = False
    """Whether it is an indicator of compromise."""
    sighted: bool = False
    """Whether it was seen in the company's own systems."""
    alert_id: AlertId | None = None
    """The alert it came from."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class ImportResult(Value):
    """What importing or merging an alert did."""

    alert: Alert
    """The alert, now Imported."""
    case: Case
    """The case it went into."""
    observables_added: int
    """Observables added to the case."""
    observables_merged: int
    """Observables the case already had (their IOC flag kept if either had it)."""


# -- rules ------------------------------------------------------------------------------------


def _staff_emails(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _check_staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in _staff_emails(ctx):
        raise RuleViolation(
            f"{email} is not a user of the organisation",
            field=field,
            hint="assign the case or task to an analyst of the home company",
        )


def _check_data(data_type: str, data: str, field: str) -> str:
    """The value normalised for its type, or a refusal when it does not fit."""
    problem = None
    value = data
    if data_type == "ip":
        try:
            value = str(ipaddress.ip_address(data))
        except ValueError:
            problem = "an ip observable must be an IPv4 or IPv6 address"
    elif data_type in ("domain", "fqdn"):
        value = data.lower().rstrip(".")
        if not _DOMAIN.match(value):
            problem = f"a {data_type} observable must be a domain name such as example.com"
    elif data_type == "url":
        if not _URL.match(data):
            problem = "a url observable must start with http://, https:// or ftp://"
    elif data_type == "mail":
        value = data.lower()
        if not _MAIL.match(value):
            problem = "a mail observable must be an e-mail address"
    elif data_type == "hash":
        value = data.lower()
        if not (_HEX.match(value) and len(value) in HASH_LENGTHS):
            problem = "a hash observable must be an MD5, SHA-1 or SHA-256 digest in hex (32, 40 or 64 characters)"
    if problem:
        raise RuleViolation(f"{problem}: {data!r}", field=field, hint="fix the value or choose the right data_type")
    return value


def _open_case(ctx: Ctx, case_id: str, field: str = "case_id") -> Case:
    case = ctx.get(Case, case_id, field=field)
    if case.status == "Resolved":
        raise RuleViolation(
            f"case #{case.number} is resolved",
            field=field,
            hint="reopen it with secops__reopen_case first",
        )
    return case


def _add(ctx: Ctx, case: Case, data_type: str, data: str, ioc: bool, **extra: Any) -> tuple[Observable, bool]:
    """Add an observable to the case, or merge it into the one it already has; True when added."""
    existing = ctx.first(Observable, case_id=case.id, data_type=data_type, data=data)
    if existing is not None:
        if ioc and not existing.ioc:
            existing = ctx.update(existing, ioc=True)
        return existing, False
    return ctx.create(Observable, case_id=case.id, data_type=data_type, data=data, ioc=ioc, **extra), True


def _guard_alert(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Alert, type=new.type, source=new.source, source_ref=new.source_ref):
        if other.id != new.id:
            raise Conflict(
                f"an alert {new.type} from {new.source} with reference {new.source_ref} already exists ({other.id})",
                field="source_ref",
                hint="use the existing alert; each source reference is raised once per type and source",
            )
    seen: set[tuple[str, str]] = set()
    clean = []
    for k, obs in enumerate(new.observables):
        value = _check_data(obs.data_type, obs.data, f"observables[{k}].data")
        if (obs.data_type, value) in seen:
            continue
        seen.add((obs.data_type, value))
        clean.append(AlertObservable(data_type=obs.data_type, data=value, ioc=obs.ioc))
    if len(clean) != len(new.observables) or any(a != b for a, b in zip(clean, new.observables, strict=False)):
        ctx.update(new, observables=tuple(clean))


def _guard_case_create(ctx: Ctx, new: Any, old: Any) -> None:
    _check_staff(ctx, new.assignee, "assignee")


def _guard_case_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "Resolved":
        raise RuleViolation(
            f"case #{old.number} is resolved and cannot be changed",
            field="case_id",
            hint="reopen it with secops__reopen_case first",
        )
    _check_staff(ctx, new.assignee, "assignee")
    if new.status == "InProgress" and old.status == "New" and new.assignee is None:
        raise RuleViolation(
            f"case #{old.number} has no assignee",
            field="case_id",
            hint="assign it to an analyst with secops__update_case before starting it",
        )


def _guard_task(ctx: Ctx, new: Any, old: Any) -> None:
    case = _open_case(ctx, (new or old).case_id)
    if new is not None:
        _check_staff(ctx, new.assignee, "assignee")
    if new is not None and old is not None and new.status == "Completed" and case.status == "New":
        raise RuleViolation(
            f"case #{case.number} has not started",
            field="task_id",
            hint="start the case with secops__start_case before completing its tasks",
        )


alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="alert",
    create=(
        "type",
        "source",
        "source_ref",
        "title",
        "description",
        "severity",
        "tlp",
        "pap",
        "tags",
        "reporter_email",
        "observables",
    ),
    get=False,
    filters=("status", "type", "source", "severity", "case_id", "reporter_email"),
    search=("title", "description"),
    delete=False,
    transitions={
        "ignore": Transition(
            "status",
            ("New",),
            "Ignored",
            "ignore the alert",
            description="Mark a New alert as Ignored (a false alarm, noise): it can no longer be imported.",
        )
    },
    guard_create=_guard_alert,
    title="security alert",
)
cases = service.resource(
    Case,
    name="case",
    plural="cases",
    prefix="case",
    create=("title", "description", "severity", "tlp", "pap", "tags", "assignee"),
    filters=("status", "severity", "assignee", "resolution_status", "flag", "number"),
    search=("title", "description", "summary"),
    update=("title", "description", "severity", "tlp", "pap", "tags", "assignee", "flag"),
    delete=False,
    transitions={
        "start": Transition(
            "status",
            ("New",),
            "InProgress",
            "start working on the case",
            description="Move a New case to InProgress; it needs an assignee.",
        )
    },
    guard_create=_guard_case_create,
    guard_update=_guard_case_update,
    title="security case",
)
tasks = service.resource(
    Task,
    name="task",
    plural="tasks",
    prefix="task",
    create=("case_id", "title", "group", "description", "assignee", "mandatory"),
    get=False,
    filters=("case_id", "status", "assignee", "mandatory", "group"),
    search=("title",),
    delete=False,
    transitions={
        "complete": Transition(
            "status",
            ("Waiting", "InProgress"),
            "Completed",
            "complete the task",
            description="Mark an open task of a started, unresolved case as Completed.",
        ),
        "cancel": Transition(
            "status",
            ("Waiting", "InProgress"),
            "Cancel",
            "cancel the task",
            description="Cancel an open task of an unresolved case (no longer needed).",
        ),
    },
    guard_create=_guard_task,
    guard_update=_guard_task,
    title="case task",
)
observables = service.resource(
    Observable,
    name="observable",
    plural="observables",
    prefix="obs",
    create=False,
    get=False,
    filters=("case_id", "data_type", "data", "ioc", "sighted", "alert_id"),
    search=("data", "message"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _new_alert(ctx: Ctx, alert_id: str) -> Alert:
    alert = ctx.get(Alert, alert_id, field="alert_id")
    if alert.status == "Imported":
        raise Conflict(
            f"alert {alert.id} was already imported into case {alert.case_id}",
            field="alert_id",
            hint="work on that case",
        )
    if alert.status == "Ignored":
        raise RuleViolation(
            f"alert {alert.id} is ignored",
            field="alert_id",
            hint="ignored alerts cannot be imported; open a case with secops__create_case if it matters after all",
        )
    return alert


def _import(ctx: Ctx, alert: Alert, case: Case) -> ImportResult:
    added = merged = 0
    for obs in alert.observables:
        _, new = _add(ctx, case, obs.data_type, obs.data, obs.ioc, tlp=alert.tlp, alert_id=alert.id)
        added, merged = added + new, merged + (not new)
    alert = ctx.update(alert, status="Imported", case_id=case.id)
    return ImportResult(alert=alert, case=ctx.get(Case, case.id), observables_added=added, observables_merged=merged)


@service.tool(
    intent="create a case from the alert",
    write=True,
    example=first_example(Alert, "alert_id", where={"status": "New"}),
)
def promote_alert(ctx: Ctx, alert_id: AlertId, assignee: Email | None = None) -> ImportResult:
    """Import a New alert into a new case that takes its title, description, severity, TLP, PAP and tags.

    Args:
        alert_id: The alert.
        assignee: The analyst who owns the new case (home company staff).
    """
    alert = _new_alert(ctx, alert_id)
    _check_staff(ctx, assignee, "assignee")
    case = ctx.create(
        Case,
        title=alert.title,
        description=alert.description,
        severity=alert.severity,
        tlp=alert.tlp,
        pap=alert.pap,
        tags=alert.tags,
        assignee=assignee,
    )
    return _import(ctx, alert, case)


def _example_merge(ctx: Ctx) -> dict[str, Any] | None:
    alert = ctx.first(Alert, status="New")
    case = ctx.first(Case, status="InProgress")
    return None if alert is None or case is None else {"alert_id": alert.id, "case_id": case.id}


@service.tool(intent="merge the alert into the case", write=True, example=_example_merge)
def merge_alert_into_case(ctx: Ctx, alert_id: AlertId, case_id: CaseId) -> ImportResult:
    """Merge a New alert into an unresolved case: its observables join the case's, duplicates merged.

    Args:
        alert_id: The alert.
        case_id: The case.
    """
    alert = _new_alert(ctx, alert_id)
    case = _open_case(ctx, case_id)
    if alert.severity > case.severity:
        case = ctx.update(case, severity=alert.severity)
    return _import(ctx, alert, case)


@service.tool(
    intent="add an observable to the case",
    write=True,
    example=first_example(
        Case, "case_id", where={"status": "InProgress"}, data_type="ip", data="203.0.113.77", ioc=True
    ),
)
def add_observable(
    ctx: Ctx,
    case_id: CaseId,
    data_type: DataType,
    data: ObservableData,
    ioc: bool = False,
    sighted: bool = False,
    tlp: Tlp = 2,
    message: Text = "",
) -> Observable:
    """Add an observable to an unresolved case; the case may hold each type and value once.

    Args:
        case_id: The case.
        data_type: ip, domain, fqdn, url, mail, hash, filename, user-agent or other.
        data: The value; it must fit the type (an IP address, a domain, an MD5/SHA-1/SHA-256 hex digest …).
        ioc: Whether it is an indicator of compromise.
        sighted: Whether it was seen in the company's own systems.
        tlp: Traffic Light Protocol level (0-4).
        message: Why it matters.
    """
    case = _open_case(ctx, case_id)
    value = _check_data(data_type, data, "data")
    existing = ctx.first(Observable, case_id=case.id, data_type=data_type, data=value)
    if existing is not None:
        raise Conflict(
            f"case #{case.number} already has the {data_type} observable {value} ({existing.id})",
            field="data",
            hint="an observable is unique per case by type and value; use the existing one",
        )
    return ctx.create(
        Observable,
        case_id=case.id,
        data_type=data_type,
        data=value,
        ioc=ioc,
        sighted=sighted,
        tlp=tlp,
        message=message,
    )


@service.tool(
    intent="resolve the case",
    write=True,
    example=first_example(
        Case,
        "case_id",
        where={"status": "InProgress"},
        match=lambda ctx, c: not any(t.mandatory and t.status in OPEN_TASK for t in ctx.where(Task, case_id=c.id)),
        resolution_status="FalsePositive",
        impact_status="NoImpact",
        summary="Benign: the sender is a known partner.",
    ),
)
def resolve_case(
    ctx: Ctx,
    case_id: CaseId,
    resolution_status: ResolutionStatus,
    impact_status: ImpactStatus,
    summary: Text,
) -> Case:
    """Resolve a case in progress; open non-mandatory tasks are cancelled.

    Args:
        case_id: The case.
        resolution_status: TruePositive, FalsePositive, Indeterminate, Duplicated or Other.
        impact_status: NoImpact, WithImpact or NotApplicable.
        summary: What was found and done (required).
    """
    case = ctx.get(Case, case_id, field="case_id")
    if case.status != "InProgress":
        raise RuleViolation(
            f"case #{case.number} is {case.status}; only a case in progress can be resolved",
            field="case_id",
            hint="start it with secops__start_case" if case.status == "New" else "it is already resolved",
        )
    if not summary.strip():
        raise RuleViolation("a resolved case needs a summary", field="summary", hint="say what was found and done")
    if resolution_status == "FalsePositive" and impact_status == "WithImpact":
        raise RuleViolation(
            "a false positive cannot have an impact",
            field="impact_status",
            hint="use NoImpact or NotApplicable, or resolve as TruePositive",
        )
    open_tasks = [t for t in ctx.where(Task, case_id=case.id) if t.status in OPEN_TASK]
    pending = [t.title for t in open_tasks if t.mandatory]
    if pending:
        raise RuleViolation(
            f"case #{case.number} has open mandatory tasks: {', '.join(pending)}",
            field="case_id",
            hint="complete or cancel them with secops__complete_task or secops__cancel_task",
        )
    for t in open_tasks:
        ctx.update(t, status="Cancel")
    return ctx.update(
        case,
        status="Resolved",
        resolution_status=resolution_status,
        impact_status=impact_status,
        summary=summary.strip(),
        end_date=ctx.now(),
    )


@service.tool(
    intent="reopen the case",
    write=True,
    example=first_example(Case, "case_id", where={"status": "Resolved"}),
)
def reopen_case(ctx: Ctx, case_id: CaseId) -> Case:
    """Reopen a resolved case: it is InProgress again and loses its resolution.

    Args:
        case_id: The case.
    """
    case = ctx.get(Case, case_id, field="case_id")
    if case.status != "Resolved":
        raise Conflict(f"case #{case.number} is not resolved ({case.status})", field="case_id", hint="nothing to do")
    return ctx.update(
        case, status="InProgress", resolution_status=None, impact_status=None, summary=None, end_date=None
    )


# -- seed -------------------------------------------------------------------------------------

PHISHING = (
    "Invoice overdue - action required",
    "Your mailbox is almost full",
    "Shared document: Q3 salary review",
    "DocuSign: please sign the contract",
    "Password expires today",
)
DETECTIONS: tuple[tuple[AlertType, str, str, int, DataType, DataType], ...] = (
    ("edr-detection", "EDR", "Suspicious PowerShell on laptop", 3, "hash", "filename"),
    ("siem-correlation", "SIEM", "Impossible travel sign-in", 2, "ip", "user-agent"),
    ("ids", "Network IDS", "Outbound connection to known C2 server", 4, "ip", "domain"),
    ("edr-detection", "EDR", "Ransomware behaviour blocked", 4, "hash", "filename"),
    ("siem-correlation", "SIEM", "Brute force against VPN gateway", 3, "ip", "other"),
)


def _ip(s: SeedContext) -> str:
    return f"198.51.100.{s.rng.randint(2, 250)}"


def _hash(s: SeedContext) -> str:
    return "".join(s.rng.choice("0123456789abcdef") for _ in range(64))


def _value(s: SeedContext, kind: str, k: int) -> str:
    if kind == "ip":
        return _ip(s)
    if kind == "hash":
        return _hash(s)
    if kind == "domain":
        return f"update-{k}.cdn-sync.net"
    if kind == "filename":
        return f"invoice_{k}.exe"
    if kind == "user-agent":
        return "python-requests/2.31"
    return f"vpn-user-{k}"


@service.seeder
def seed(s: SeedContext) -> None:
    """Phishing reports by employees and detections, cases in every state with tasks and observables."""
    pop = s.population
    analysts = pop.staff("Engineering", "IT", fallback=4)[:4]
    employees = list(pop.employees)
    outsiders = [c for c in pop.companies if not c.home]
    made: list[Alert] = []
    for k, subject in enumerate(PHISHING * 2):
        reporter = employees[(3 * k + 1) % len(employees)]
        company = outsiders[k % len(outsiders)]
        sender = f"billing@{company.domain.replace('.', '-')}-secure.com"
        made.append(
            s.create(
                Alert,
                type="phishing-report",
                source="Mail gateway",
                source_ref=f"MSG-{48200 + k}",
                title=f"Reported phishing: {subject}",
                description=f"{reporter.name} reported a message from {sender} impersonating {company.name}.",
                severity=2 if k % 3 else 3,
                tags=("phishing", "mitre:T1566"),
                reporter_email=reporter.email,
                observables=(
                    AlertObservable(data_type="mail", data=sender, ioc=True),
                    AlertObservable(data_type="url", data=f"https://{company.domain}.login-check.net/verify?id={k}"),
                ),
                date=s.ago(days=12 - k, hours=k),
                updated_at=s.ago(days=12 - k, hours=k),
            )
        )
    for k, (atype, source, title, severity, first, second) in enumerate(DETECTIONS * 2):
        made.append(
            s.create(
                Alert,
                type=atype,
                source=source,
                source_ref=f"{source[:3].upper()}-{7100 + k}",
                title=title,
                description=f"{source} raised: {title.lower()} (host WS-{1000 + 17 * k}).",
                severity=severity,
                tlp=3 if severity == 4 else 2,
                tags=("detection",),
                observables=(
                    AlertObservable(data_type=first, data=_value(s, first, k), ioc=True),
                    AlertObservable(data_type=second, data=_value(s, second, k)),
                ),
                date=s.ago(days=10 - k, hours=3),
                updated_at=s.ago(days=10 - k, hours=3),
            )
        )
    plan: tuple[tuple[int, CaseStatus, ResolutionStatus | None], ...] = (
        (0, "Resolved", "FalsePositive"),
        (1, "InProgress", None),
        (10, "InProgress", None),
        (12, "New", None),
        (13, "Resolved", "TruePositive"),
        (2, "InProgress", None),
    )
    for n, (idx, status, resolution) in enumerate(plan):
        alert = made[idx]
        opened = s.ago(days=9 - n)
        case = s.create(
            Case,
            title=alert.title,
            description=alert.description,
            severity=alert.severity,
            tlp=alert.tlp,
            tags=alert.tags,
            assignee=analysts[n % len(analysts)].email,
            status=status,
            resolution_status=resolution,
            impact_status=None
            if resolution is None
            else ("NoImpact" if resolution == "FalsePositive" else "WithImpact"),
            summary=None
            if resolution is None
            else (
                "Known partner newsletter; sender verified."
                if resolution == "FalsePositive"
                else "C2 beacon confirmed; host isolated and reimaged."
            ),
            end_date=s.ago(days=2) if resolution else None,
            start_date=opened,
            updated_at=opened,
        )
        for obs in alert.observables:
            s.create(
                Observable,
                case_id=case.id,
                data_type=obs.data_type,
                data=obs.data,
                ioc=obs.ioc,
                tlp=alert.tlp,
                alert_id=alert.id,
                created_at=opened,
            )
        s.update(alert, status="Imported", case_id=case.id)
        done = status == "Resolved"
        for t, (title, group, mandatory) in enumerate(
            (
                ("Identify affected users and hosts", "identification", True),
                ("Block indicators at the perimeter", "containment", True),
                ("Notify impacted people", "communication", False),
            )
        ):
            task_status: TaskStatus = "Completed" if done or (status == "InProgress" and t == 0) else "Waiting"
            if status == "InProgress" and t == 1 and n == 5:
                task_status = "Completed"
            s.create(
                Task,
                case_id=case.id,
                title=title,
                group=group,
                mandatory=mandatory,
                assignee=case.assignee,
                status=task_status,
                created_at=opened,
                updated_at=opened,
            )
    for k in (4, 9, 17):
        s.update(made[k], status="Ignored")
