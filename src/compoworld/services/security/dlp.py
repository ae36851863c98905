"""Leakguard: data loss prevention over the company's SaaS apps (detectors, policies, violations, findings).

Modeled on the Nightfall AI API and console: detectors (Nightfall's built-in
detectors such as CREDIT_CARD_NUMBER, US_SOCIAL_SECURITY_NUMBER or API_KEY, and
custom regex detectors) with a minimum confidence (POSSIBLE, LIKELY,
VERY_LIKELY); policies that run detectors over apps (Slack, Google Drive,
GitHub, Jira, Confluence, Salesforce) with an automated action and an alert
e-mail, active or paused or archived; violations (status ACTIVE, RESOLVED or
IGNORED) raised when a scan finds sensitive data in a message or file, each with
findings per detector and a redacted fragment; remediation actions that depend
on what the app supports (redact, quarantine, delete, notify); finding
annotations (true or false positive) and an allow-list of values never to flag.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "dlp",
    title="Leakguard",
    category="data_loss_prevention",
    modeled_on="Nightfall AI DLP API: detectors, detection rules and policies over apps, scan, violations "
    "with findings, remediation actions (redact/quarantine/delete/notify), annotations, allow-lists",
    description="Data loss prevention for the company's SaaS apps: which sensitive-data detectors run, the "
    "policies that watch Slack, Drive, GitHub, Jira, Confluence and Salesforce, the violations found in "
    "messages and files with their findings, how each was remediated, and values allowed on purpose.",
)

DetectorId = Annotated[str, IdOf("dlp.detector")]
PolicyId = Annotated[str, IdOf("dlp.policy")]
ViolationId = Annotated[str, IdOf("dlp.violation")]
FindingId = Annotated[str, IdOf("dlp.finding")]
AllowId = Annotated[str, IdOf("dlp.allow_entry")]

DetectorName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9 _-]{2,59}$")]
"""A detector's display name."""
Pattern = Annotated[str, StringConstraints(min_length=2, max_length=200)]
"""A regular expression."""

App = Literal["slack", "google_drive", "github", "jira", "confluence", "salesforce"]
Likelihood = Literal["POSSIBLE", "LIKELY", "VERY_LIKELY"]
Builtin = Literal[
    "CREDIT_CARD_NUMBER", "US_SOCIAL_SECURITY_NUMBER", "API_KEY", "EMAIL_ADDRESS", "IBAN_CODE", "PHONE_NUMBER"
]
PolicyAction = Literal["notify", "redact", "quarantine", "delete"]
PolicyStatus = Literal["active", "paused", "archived"]
ViolationStatus = Literal["active", "resolved", "ignored"]
Taken = Literal["none", "notified", "redacted", "quarantined", "deleted"]
Annotation = Literal["none", "true_positive", "false_positive"]

RANK: dict[str, int] = {"POSSIBLE": 1, "LIKELY": 2, "VERY_LIKELY": 3}
BUILTIN_PATTERNS: dict[str, str] = {
    "CREDIT_CARD_NUMBER": r"\b(?:\d[ -]?){13,16}\b",
    "US_SOCIAL_SECURITY_NUMBER": r"\b\d{3}-\d{2}-\d{4}\b",
    "API_KEY": r"\b(?:sk_live_[A-Za-z0-9]{16,}|AKIA[A-Z0-9]{16}|ghp_[A-Za-z0-9]{20,})\b",
    "EMAIL_ADDRESS": r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b",
    "IBAN_CODE": r"\b[A-Z]{2}\d{2}[A-Z0-9]{11,30}\b",
    "PHONE_NUMBER": r"\+\d{8,15}\b",
}
SUPPORTS: dict[str, tuple[str, ...]] = {
    "slack": ("notify", "redact", "delete"),
    "google_drive": ("notify", "quarantine"),
    "github": ("notify",),
    "jira": ("notify", "redact"),
    "confluence": ("notify", "redact", "quarantine"),
    "salesforce": ("notify", "redact"),
}
PAST: dict[str, Taken] = {"notify": "notified", "redact": "redacted", "quarantine": "quarantined", "delete": "deleted"}


class Detector(Timestamped):
    """A detector: one of Nightfall's built-in detectors, or a custom regular expression."""

    id: DetectorId
    name: DetectorName
    """Its display name (unique)."""
    builtin: Builtin | None = None
    """The built-in detector it uses; none for a custom regex."""
    regex: Pattern | None = None
    """The custom detector's regular expression."""
    min_likelihood: Likelihood = "LIKELY"
    """The least confidence at which it reports a finding."""
    description: Text = ""
    """What it finds."""
    enabled: bool = True
    """Whether policies may use it."""


class Policy(Timestamped):
    """A policy: detectors that run over some apps, what to do automatically, and whom to alert."""

    id: PolicyId
    name: Title
    """Its name."""
    apps: tuple[App, ...]
    """The apps it monitors."""
    detector_ids: tuple[DetectorId, ...]
    """The detectors it runs."""
    action: PolicyAction = "notify"
    """notify, redact, quarantine or delete: the automated action on a violation."""
    alert_email: Email
    """The employee alerted of its violations."""
    status: PolicyStatus = "active"
    """active, paused (no scanning) or archived."""


class Violation(Record):
    """Sensitive data found in one message or file by a policy."""

    id: ViolationId
    policy_id: PolicyId
    """The policy that raised it."""
    app: App
    """Where it was found."""
    location: Title
    """The channel, file or issue holding the data."""
    actor_email: Email
    """The person who posted or shared it."""
    status: ViolationStatus = "active"
    """active, resolved or ignored."""
    action_taken: Taken = "none"
    """none, notified, redacted, quarantined or deleted."""
    finding_count: int = 0
    """How many findings it has."""
    detected_at: DateTime
    """When it was found."""
    resolved_at: DateTime | None = None
    """When it was resolved or ignored."""
    resolved_by: Email | None = None
    """The employee who closed it."""


class Finding(Created):
    """One match of a detector in a violation."""

    id: FindingId
    violation_id: ViolationId
    """The violation."""
    detector_id: DetectorId
    """The detector that matched."""
    detector_name: DetectorName
    """Its name."""
    likelihood: Likelihood
    """The match's confidence."""
    fragment: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The matched text, redacted (last characters only)."""
    value_hash: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The matched text itself, as the allow-list compares it."""
    annotation: Annotation = "none"
    """none, true_positive or false_positive."""
    comment: Text = ""
    """The annotator's comment."""


class AllowEntry(Created):
    """A value the detectors must not report (a test card number, a public support address)."""

    id: AllowId
    value: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The exact value to allow."""
    detector_id: DetectorId
    """The detector it applies to."""
    reason: Text
    """Why it is allowed."""
    added_by: Email
    """The employee who added it."""


class ScanResult(Value):
    """What a scan of a text found."""

    findings: int
    """Findings made (after the allow-list)."""
    allowed: int
    """Matches skipped because their value is allow-listed."""
    violation_ids: tuple[str, ...]
    """The violations raised, one per matching policy."""


class PolicyTally(Value):
    """A policy's violations by status."""

    policy_id: PolicyId
    """The policy."""
    name: Title
    """Its name."""
    active: int
    """Violations still open."""
    resolved: int
    """Violations resolved."""
    ignored: int
    """Violations ignored."""


# -- rules ------------------------------------------------------------------------------------


def _guard_detector(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.enabled and not new.enabled:
        for p in ctx.scan(Policy):
            if p.status == "active" and new.id in p.detector_ids:
                raise RuleViolation(
                    f"detector {new.name!r} is used by active policy {p.name!r}",
                    field="detector_id",
                    hint="remove it from the policy or pause the policy first",
                )


def _delete_detector(ctx: Ctx, new: Any, old: Any) -> None:
    for p in ctx.scan(Policy):
        if old.id in p.detector_ids and p.status != "archived":
            raise Conflict(
                f"detector {old.name!r} is used by policy {p.name!r}",
                field="detector_id",
                hint="remove it from the policy (dlp__update_policy) first",
            )
    for entry in ctx.where(AllowEntry, detector_id=old.id):
        ctx.delete(entry)


def _guard_policy(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "archived":
        raise RuleViolation(f"policy {old.name!r} is archived", field="policy_id", hint="create a new policy")
    if not new.apps or len(set(new.apps)) != len(new.apps):
        raise RuleViolation("list each monitored app once, at least one", field="apps", hint="e.g. ['slack']")
    if not new.detector_ids or len(set(new.detector_ids)) != len(new.detector_ids):
        raise RuleViolation("list each detector once, at least one", field="detector_ids", hint="see list_detectors")
    for did in new.detector_ids:
        det = ctx.get(Detector, did, field="detector_ids")
        if not det.enabled:
            raise RuleViolation(f"detector {det.name!r} is disabled", field="detector_ids", hint="enable it first")
    for app in new.apps:
        if new.action not in SUPPORTS[app]:
            raise RuleViolation(
                f"{app} does not support the {new.action} action",
                field="action",
                hint=f"{app} supports: {', '.join(SUPPORTS[app])}",
            )
    require_employee(ctx, new.alert_email, field="alert_email", hint="alerts go to a member of staff")


detectors = service.resource(
    Detector,
    name="detector",
    plural="detectors",
    prefix="det",
    create=False,
    filters=("builtin", "enabled", "min_likelihood", "name"),
    search=("name", "description"),
    update=("min_likelihood", "description", "enabled"),
    unique=("name",),
    guard_update=_guard_detector,
    guard_delete=_delete_detector,
)
policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=("name", "apps", "detector_ids", "action", "alert_email"),
    filters=("status", "action", "alert_email"),
    search=("name",),
    update=("name", "apps", "detector_ids", "action", "alert_email"),
    delete=False,
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the policy"),
        "activate": Transition("status", ("paused",), "active", "activate the policy"),
        "archive": Transition("status", ("active", "paused"), "archived", "archive the policy", destructive=True),
    },
    guard_create=_guard_policy,
    guard_update=_guard_policy,
)
violations = service.resource(
    Violation,
    name="violation",
    plural="violations",
    prefix="vio",
    create=False,
    filters=("policy_id", "app", "status", "actor_email", "action_taken"),
    search=("location",),
    delete=False,
)
findings = service.resource(
    Finding,
    name="finding",
    plural="findings",
    prefix="fnd",
    create=False,
    filters=("violation_id", "detector_id", "likelihood", "annotation"),
    delete=False,
)
allow_entries = service.resource(
    AllowEntry,
    name="allow_entry",
    plural="allow_entries",
    prefix="alw",
    create=False,
    get=False,
    filters=("detector_id", "added_by"),
    search=("value", "reason"),
    title="allow-list entry",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="create the detector",
    write=True,
    example=fixed_example(name="Project codename", regex=r"PRJ-\d{4}", min_likelihood="LIKELY"),
)
def create_detector(
    ctx: Ctx,
    name: DetectorName,
    builtin: Builtin | None = None,
    regex: Pattern | None = None,
    min_likelihood: Likelihood = "LIKELY",
    description: Text = "",
) -> Detector:
    """Create a detector from a built-in one or a custom regular expression (exactly one of the two).

    Args:
        name: Its display name (unique).
        builtin: A built-in detector such as CREDIT_CARD_NUMBER.
        regex: A custom regular expression.
        min_likelihood: The least confidence to report: POSSIBLE, LIKELY or VERY_LIKELY.
        description: What it finds.
    """
    if (builtin is None) == (regex is None):
        raise RuleViolation("give either builtin or regex, not both", field="regex", hint="pick one kind")
    if regex is not None:
        try:
            re.compile(regex)
        except re.error as exc:
            raise RuleViolation(f"invalid regular expression: {exc}", field="regex", hint="fix the pattern") from exc
    if ctx.first(Detector, name=name) is not None:
        raise Conflict(f"a detector is already named {name!r}", field="name", hint="pick another name")
    return ctx.create(
        Detector, name=name, builtin=builtin, regex=regex, min_likelihood=min_likelihood, description=description
    )


def _live(ctx: Ctx, violation_id: str) -> Violation:
    v = ctx.get(Violation, violation_id, field="violation_id")
    if v.status != "active":
        raise Conflict(f"violation {v.id} is already {v.status}", field="violation_id", hint="nothing to do")
    return v


@service.tool(
    intent="remediate the violation",
    write=True,
    example=first_example(Violation, "violation_id", where={"status": "active", "app": "slack"}, action="redact"),
)
def remediate_violation(
    ctx: Ctx, violation_id: ViolationId, action: PolicyAction, by: Email | None = None
) -> Violation:
    """Take a remediation action on an active violation; the app must support it.

    Redact, quarantine and delete resolve the violation; notify only tells the actor.

    Args:
        violation_id: The violation.
        action: notify, redact, quarantine or delete.
        by: The employee taking the action.
    """
    v = _live(ctx, violation_id)
    if action not in SUPPORTS[v.app]:
        raise RuleViolation(
            f"{v.app} does not support {action}", field="action", hint=f"use one of {', '.join(SUPPORTS[v.app])}"
        )
    if by is not None:
        require_employee(ctx, by, field="by", hint="remediation is done by staff")
    if action == "notify":
        return ctx.update(v, action_taken="notified")
    return ctx.update(v, action_taken=PAST[action], status="resolved", resolved_at=ctx.now(), resolved_by=by)


@service.tool(
    intent="resolve the violation",
    write=True,
    example=first_example(Violation, "violation_id", where={"status": "active"}, fields={"by": "actor_email"}),
)
def resolve_violation(ctx: Ctx, violation_id: ViolationId, by: Email) -> Violation:
    """Mark an active violation resolved (handled outside Leakguard).

    Args:
        violation_id: The violation.
        by: The employee resolving it.
    """
    v = _live(ctx, violation_id)
    require_employee(ctx, by, field="by", hint="violations are resolved by staff")
    return ctx.update(v, status="resolved", resolved_at=ctx.now(), resolved_by=by)


@service.tool(
    intent="ignore the violation",
    write=True,
    example=first_example(Violation, "violation_id", where={"status": "active"}, fields={"by": "actor_email"}),
)
def ignore_violation(ctx: Ctx, violation_id: ViolationId, by: Email) -> Violation:
    """Ignore an active violation; every finding of it not yet annotated becomes a false positive.

    Args:
        violation_id: The violation.
        by: The employee ignoring it.
    """
    v = _live(ctx, violation_id)
    require_employee(ctx, by, field="by", hint="violations are ignored by staff")
    for f in ctx.where(Finding, violation_id=v.id):
        if f.annotation == "none":
            ctx.update(f, annotation="false_positive")
    return ctx.update(v, status="ignored", resolved_at=ctx.now(), resolved_by=by)


@service.tool(
    intent="annotate the finding",
    write=True,
    example=first_example(Finding, "finding_id", where={"annotation": "none"}, annotation="true_positive"),
)
def annotate_finding(ctx: Ctx, finding_id: FindingId, annotation: Annotation, comment: Text = "") -> Finding:
    """Annotate a finding as a true or false positive.

    When every finding of an active violation is a false positive, the violation is ignored.

    Args:
        finding_id: The finding.
        annotation: true_positive or false_positive.
        comment: Why.
    """
    f = ctx.get(Finding, finding_id, field="finding_id")
    if annotation == "none":
        raise RuleViolation("annotate as true_positive or false_positive", field="annotation", hint="pick one")
    f = ctx.update(f, annotation=annotation, comment=comment)
    v = ctx.get(Violation, f.violation_id)
    if v.status == "active" and all(x.annotation == "false_positive" for x in ctx.where(Finding, violation_id=v.id)):
        ctx.update(v, status="ignored", resolved_at=ctx.now())
    return f


@service.tool(
    intent="allow the value",
    write=True,
    example=first_example(
        Detector,
        "detector_id",
        where={"builtin": "CREDIT_CARD_NUMBER"},
        value="4111 1111 1111 1111",
        reason="Stripe test card used in QA docs.",
    ),
)
def allow_value(
    ctx: Ctx, detector_id: DetectorId, value: str, reason: Text, added_by: Email | None = None
) -> AllowEntry:
    """Add a value to a detector's allow-list: scans no longer report it.

    Args:
        detector_id: The detector.
        value: The exact value to allow.
        reason: Why it is safe (required).
        added_by: The employee adding it (default: the first security employee).
    """
    det = ctx.get(Detector, detector_id, field="detector_id")
    if not reason.strip():
        raise RuleViolation("an allow-list entry needs a reason", field="reason", hint="say why the value is safe")
    if not value.strip() or len(value) > 200:
        raise RuleViolation("give the value (1-200 characters)", field="value", hint="the exact text to allow")
    email = added_by or ctx.population.employees[0].email
    require_employee(ctx, email, field="added_by", hint="allow-lists are kept by staff")
    if ctx.first(AllowEntry, detector_id=det.id, value=value) is not None:
        raise Conflict(f"{value!r} is already allowed for {det.name!r}", field="value", hint="nothing to do")
    return ctx.create(AllowEntry, value=value, detector_id=det.id, reason=reason.strip(), added_by=email)


def _matches(det: Detector, text: str) -> list[tuple[str, Likelihood]]:
    pattern = det.regex if det.regex is not None else BUILTIN_PATTERNS[det.builtin or "API_KEY"]
    out: list[tuple[str, Likelihood]] = []
    for m in re.finditer(pattern, text):
        found = m.group(0).strip()
        digits = sum(c.isdigit() for c in found)
        level: Likelihood = "VERY_LIKELY" if det.builtin in ("API_KEY", "US_SOCIAL_SECURITY_NUMBER") else "LIKELY"
        if det.builtin == "CREDIT_CARD_NUMBER" and digits < 15:
            level = "POSSIBLE"
        if RANK[level] >= RANK[det.min_likelihood]:
            out.append((found, level))
    return out


@service.tool(
    intent="scan the content for sensitive data",
    write=True,
    example=fixed_example(
        text="Card for the refund: 4242 4242 4242 4242, exp 09/28",
        app="slack",
        location="#finance-ops",
    ),
)
def scan_content(ctx: Ctx, text: Text, app: App, location: Title, actor_email: Email | None = None) -> ScanResult:
    """Scan a message or file's text with every active policy that monitors the app.

    Each policy with findings (after the allow-list) raises a violation and takes its automated action.

    Args:
        text: The content to scan.
        app: The app it was posted in.
        location: The channel, file or issue.
        actor_email: Who posted it (default: the first employee).
    """
    actor = actor_email or ctx.population.employees[0].email
    made: list[str] = []
    total = skipped = 0
    for pol in ctx.where(Policy, status="active"):
        if app not in pol.apps:
            continue
        hits: list[tuple[Detector, str, Likelihood]] = []
        for did in pol.detector_ids:
            det = ctx.get(Detector, did)
            for found, level in _matches(det, text):
                if ctx.first(AllowEntry, detector_id=det.id, value=found) is not None:
                    skipped += 1
                else:
                    hits.append((det, found, level))
        if not hits:
            continue
        taken: Taken = PAST[pol.action] if pol.action in SUPPORTS[app] else "none"
        status: ViolationStatus = "resolved" if taken in ("redacted", "quarantined", "deleted") else "active"
        v = ctx.create(
            Violation,
            policy_id=pol.id,
            app=app,
            location=location,
            actor_email=actor,
            status=status,
            action_taken=taken,
            finding_count=len(hits),
            detected_at=ctx.now(),
            resolved_at=ctx.now() if status == "resolved" else None,
        )
        for det, found, level in hits:
            ctx.create(
                Finding,
                violation_id=v.id,
                detector_id=det.id,
                detector_name=det.name,
                likelihood=level,
                fragment="*" * max(0, len(found) - 4) + found[-4:],
                value_hash=found,
            )
        total += len(hits)
        made.append(v.id)
    return ScanResult(findings=total, allowed=skipped, violation_ids=tuple(made))


@service.tool(intent="summarize the violations by policy")
def violation_summary(ctx: Ctx) -> list[PolicyTally]:
    """Each policy's violations by status (active, resolved, ignored)."""
    out: list[PolicyTally] = []
    for pol in ctx.scan(Policy):
        counts = {"active": 0, "resolved": 0, "ignored": 0}
        for v in ctx.where(Violation, policy_id=pol.id):
            counts[v.status] += 1
        out.append(PolicyTally(policy_id=pol.id, name=pol.name, **counts))
    return out


# -- seed -------------------------------------------------------------------------------------

DETECTORS: tuple[tuple[str, Builtin | None, str | None, Likelihood], ...] = (
    ("Credit card number", "CREDIT_CARD_NUMBER", None, "LIKELY"),
    ("US SSN", "US_SOCIAL_SECURITY_NUMBER", None, "LIKELY"),
    ("API keys and tokens", "API_KEY", None, "LIKELY"),
    ("IBAN", "IBAN_CODE", None, "LIKELY"),
    ("Phone number", "PHONE_NUMBER", None, "VERY_LIKELY"),
    ("Customer account number", None, r"ACCT-\d{8}", "POSSIBLE"),
    ("Email address", "EMAIL_ADDRESS", None, "LIKELY"),
)
SAMPLES: tuple[tuple[int, App, str, str, str], ...] = (
    (0, "slack", "#support-escalations", "Credit card number", "4539 1488 0343 6467"),
    (0, "slack", "#finance-ops", "IBAN", "DE89370400440532013000"),
    (0, "jira", "SUP-1482 Refund request", "Credit card number", "5555 5555 5555 4444"),
    (1, "github", "infra/terraform/prod.tfvars", "API keys and tokens", "AKIAIOSFODNN7EXAMPLE"),
    (1, "github", "services/billing/.env", "API keys and tokens", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    (2, "google_drive", "Payroll 2026 - US.xlsx", "US SSN", "078-05-1120"),
    (2, "google_drive", "Onboarding forms (scans)", "US SSN", "219-09-9999"),
    (0, "slack", "#sales", "Customer account number", "ACCT-20417733"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Detectors, three policies (one paused), violations by employees in every status, and an allow-list."""
    pop = s.population
    sec = pop.staff("Security", "IT", "Engineering", fallback=3)
    dets = {
        name: s.create(
            Detector,
            name=name,
            builtin=b,
            regex=rx,
            min_likelihood=lk,
            description=f"Finds {name.lower()}s." if b else "Internal customer account references.",
            created_at=s.ago(days=300),
            updated_at=s.ago(days=300),
        )
        for name, b, rx, lk in DETECTORS
    }
    d = {k: v.id for k, v in dets.items()}
    pols = [
        s.create(
            Policy,
            name="Payment data in chat and tickets",
            apps=("slack", "jira"),
            detector_ids=(d["Credit card number"], d["IBAN"], d["Customer account number"]),
            action="notify",
            alert_email=sec[0].email,
            created_at=s.ago(days=280),
            updated_at=s.ago(days=40),
        ),
        s.create(
            Policy,
            name="Secrets in source code",
            apps=("github",),
            detector_ids=(d["API keys and tokens"],),
            action="notify",
            alert_email=sec[1 % len(sec)].email,
            created_at=s.ago(days=250),
            updated_at=s.ago(days=250),
        ),
        s.create(
            Policy,
            name="Employee PII in Drive",
            apps=("google_drive",),
            detector_ids=(d["US SSN"], d["Phone number"]),
            action="quarantine",
            alert_email=sec[2 % len(sec)].email,
            created_at=s.ago(days=200),
            updated_at=s.ago(days=10),
        ),
    ]
    staff = pop.employees
    for k, (pi, app, loc, dname, value) in enumerate(SAMPLES):
        status: ViolationStatus = ("active", "resolved", "ignored")[k % 3] if k < 6 else "active"
        by = sec[k % len(sec)].email if status != "active" else None
        v = s.create(
            Violation,
            policy_id=pols[pi].id,
            app=app,
            location=loc,
            actor_email=staff[(3 + 2 * k) % len(staff)].email,
            status=status,
            action_taken="redacted" if status == "resolved" and app in ("slack", "jira") else "none",
            finding_count=1,
            detected_at=s.ago(days=30 - 3 * k),
            resolved_at=s.ago(days=28 - 3 * k) if by else None,
            resolved_by=by,
        )
        s.create(
            Finding,
            violation_id=v.id,
            detector_id=d[dname],
            detector_name=dname,
            likelihood="POSSIBLE" if dname == "Customer account number" else "VERY_LIKELY",
            fragment="*" * (len(value) - 4) + value[-4:],
            value_hash=value,
            annotation="false_positive" if status == "ignored" else "none",
            created_at=s.ago(days=30 - 3 * k),
        )
    s.create(
        AllowEntry,
        value="4111 1111 1111 1111",
        detector_id=d["Credit card number"],
        reason="Visa test card used in QA runbooks.",
        added_by=sec[0].email,
        created_at=s.ago(days=120),
    )
    s.update(pols[2], status="paused")
