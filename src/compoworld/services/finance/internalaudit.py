"""Assurely Audit: internal audit plans, audits by phase, control tests with samples, findings, remediation.

Modeled on AuditBoard (OpsAudit and SOXHUB: audit plans, audits with phases,
controls and tests with samples, issues with severity, action plans with owners
and due dates, preparer and reviewer sign-offs): an audit moves planning →
fieldwork → reporting → follow_up → closed; fieldwork starts only on an approved
plan with at least one control test; the sample size follows the control's
frequency (annual 1, quarterly 2, monthly 2, weekly 5, daily 25); a test is
concluded once its samples are all tested, effective only without exceptions;
an ineffective test needs a finding before its reviewer, who is not its tester,
signs it off; reporting needs every test signed off, follow-up a remediation
plan for each high or critical finding; remediation is due within 90 days for
high and critical findings (180 otherwise) and is validated by someone other
than its owner, which closes the finding; an audit closes when every finding
is closed.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "internalaudit",
    title="Assurely Audit",
    category="internal_audit",
    modeled_on="AuditBoard OpsAudit and SOXHUB (audit plans, audits and phases, controls, tests and samples, "
    "issues, action plans, sign-offs)",
    description="Internal audit: the yearly audit plan, audits moving from planning through fieldwork and "
    "reporting to follow-up, control tests with samples sized by control frequency, findings with severity, "
    "remediation plans with owners and due dates, and preparer and reviewer sign-offs.",
)

PlanId = Annotated[str, IdOf("internalaudit.audit_plan")]
AuditId = Annotated[str, IdOf("internalaudit.audit")]
TestId = Annotated[str, IdOf("internalaudit.control_test")]
SampleId = Annotated[str, IdOf("internalaudit.sample")]
FindingId = Annotated[str, IdOf("internalaudit.finding")]
RemediationId = Annotated[str, IdOf("internalaudit.remediation")]

ControlCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,4}-\d{2}$")]
"""A control's code in the risk and control matrix (P2P-03)."""
Phase = Literal["planning", "fieldwork", "reporting", "follow_up", "closed"]
Frequency = Literal["annual", "quarterly", "monthly", "weekly", "daily"]
Severity = Literal["low", "moderate", "high", "critical"]
FindingStatus = Literal["open", "remediating", "closed"]
SAMPLE_SIZE: dict[str, int] = {"annual": 1, "quarterly": 2, "monthly": 2, "weekly": 5, "daily": 25}
NEXT: dict[str, Phase] = {
    "planning": "fieldwork",
    "fieldwork": "reporting",
    "reporting": "follow_up",
    "follow_up": "closed",
}
SERIOUS: tuple[Severity, ...] = ("high", "critical")


class AuditPlan(Timestamped):
    """The internal audit plan of a year."""

    id: PlanId
    year: Annotated[int, Field(ge=2000, le=2100)]
    """The year it covers (unique)."""
    title: Title
    """Its title."""
    budget_hours: Annotated[int, Field(ge=0, le=100_000)]
    """Hours budgeted."""
    status: Literal["draft", "approved"] = "draft"
    """draft, or approved by the audit committee."""
    approved_by: Email | None = None
    """Who approved it."""


class Audit(Timestamped):
    """An audit of one process or area."""

    id: AuditId
    plan_id: PlanId
    """The plan it belongs to."""
    title: Title
    """Its title."""
    audit_type: Literal["sox", "operational", "it", "compliance"]
    """sox, operational, it or compliance."""
    area: Title
    """The auditable process or area (Procure to pay)."""
    lead_email: Email
    """The lead auditor."""
    phase: Phase = "planning"
    """planning, fieldwork, reporting, follow_up or closed."""
    due_date: Date
    """When the report is due."""
    report_issued_on: Date | None = None
    """When the report was issued."""


class ControlTest(Timestamped):
    """A test of one control in an audit."""

    id: TestId
    audit_id: AuditId
    """The audit."""
    control_code: ControlCode
    """The control's code."""
    control_description: Text
    """What the control does."""
    control_owner_email: Email
    """The employee who performs the control."""
    frequency: Frequency
    """How often the control runs: annual, quarterly, monthly, weekly or daily."""
    key_control: bool = True
    """Whether it is a key control."""
    sample_size: Annotated[int, Field(ge=1, le=60)] = 1
    """Samples required (from the frequency)."""
    tester_email: Email
    """The auditor testing it (the preparer)."""
    status: Literal["not_started", "in_progress", "concluded", "signed_off"] = "not_started"
    """not_started, in_progress, concluded or signed_off."""
    conclusion: Literal["effective", "ineffective"] | None = None
    """effective, or ineffective (an exception among the samples)."""
    reviewer_email: Email | None = None
    """The reviewer who signed it off."""
    signed_off_on: Date | None = None
    """When it was signed off."""


class Sample(Record):
    """One item sampled for a control test."""

    id: SampleId
    test_id: TestId
    """The test."""
    reference: Annotated[str, StringConstraints(min_length=1, max_length=60)]
    """The item tested (a purchase order, a change ticket, a journal entry)."""
    result: Literal["pending", "pass", "exception"] = "pending"
    """pending, pass or exception."""
    note: Text = ""
    """What was seen."""


class Finding(Timestamped):
    """An audit finding (issue)."""

    id: FindingId
    audit_id: AuditId
    """The audit."""
    test_id: TestId | None = None
    """The control test that found it."""
    title: Title
    """Its title."""
    description: Text
    """The condition, criteria and effect."""
    severity: Severity
    """low, moderate, high or critical."""
    status: FindingStatus = "open"
    """open, remediating (a plan is in place) or closed (its remediation validated)."""


class Remediation(Timestamped):
    """An action plan that remediates a finding."""

    id: RemediationId
    finding_id: FindingId
    """The finding."""
    owner_email: Email
    """The employee who owns the action."""
    action: Text
    """What will be done."""
    due_date: Date
    """When it is due."""
    status: Literal["in_progress", "implemented", "validated"] = "in_progress"
    """in_progress, implemented or validated."""
    implemented_on: Date | None = None
    """When the owner reported it done."""
    validated_by: Email | None = None
    """The auditor who validated it."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_plan(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None and any(p.id != new.id for p in ctx.where(AuditPlan, year=new.year)):
        raise Conflict(f"there is a plan for {new.year}", field="year", hint="update that plan instead")


def _guard_audit(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.lead_email, "lead_email")
    if old is None:
        ctx.get(AuditPlan, new.plan_id, field="plan_id")


def _guard_test(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.control_owner_email, "control_owner_email")
    _staff(ctx, new.tester_email, "tester_email")
    audit = ctx.get(Audit, new.audit_id, field="audit_id")
    if old is None:
        if audit.phase not in ("planning", "fieldwork"):
            raise RuleViolation(f"audit is in {audit.phase}", field="audit_id", hint="add tests before reporting")
        if any(t.id != new.id for t in ctx.where(ControlTest, audit_id=audit.id, control_code=new.control_code)):
            raise Conflict(f"{new.control_code} is tested already", field="control_code", hint="update that test")
    elif old.status != "not_started" and new.frequency != old.frequency:
        raise RuleViolation("testing has started", field="frequency", hint="the sample size is fixed once started")
    if new.sample_size != SAMPLE_SIZE[new.frequency]:
        ctx.update(new, sample_size=SAMPLE_SIZE[new.frequency])


def _guard_finding(ctx: Ctx, new: Any, old: Any) -> None:
    audit = ctx.get(Audit, new.audit_id, field="audit_id")
    if old is None and audit.phase in ("follow_up", "closed"):
        raise RuleViolation(f"audit is in {audit.phase}", field="audit_id", hint="raise it in a new audit")
    if new.test_id is not None and ctx.get(ControlTest, new.test_id, field="test_id").audit_id != new.audit_id:
        raise RuleViolation("the test belongs to another audit", field="test_id", hint="pick a test of this audit")


def _guard_remediation(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    finding = ctx.get(Finding, new.finding_id, field="finding_id")
    if old is None and finding.status != "open":
        raise RuleViolation(f"finding is {finding.status}", field="finding_id", hint="only open findings are planned")
    days = 90 if finding.severity in SERIOUS else 180
    moved = old is None or new.due_date != old.due_date
    if moved and not ctx.today() < new.due_date <= ctx.today() + dt.timedelta(days=days):
        raise RuleViolation(
            f"due within {days} days for a {finding.severity} finding",
            field="due_date",
            hint=f"pick a date up to {ctx.today() + dt.timedelta(days=days)}",
        )
    if old is None:
        ctx.update(finding, status="remediating")


plans = service.resource(
    AuditPlan,
    name="audit_plan",
    plural="audit_plans",
    prefix="plan",
    create=("year", "title", "budget_hours"),
    filters=("year", "status"),
    search=("title",),
    update=("title", "budget_hours"),
    delete=False,
    guard_create=_guard_plan,
    title="audit plan",
)
audits = service.resource(
    Audit,
    name="audit",
    plural="audits",
    prefix="aud",
    create=False,
    filters=("plan_id", "phase", "audit_type", "lead_email"),
    search=("title", "area"),
    update=("title", "lead_email", "due_date"),
    delete=False,
    guard_update=_guard_audit,
)
tests = service.resource(
    ControlTest,
    name="control_test",
    plural="control_tests",
    prefix="tst",
    create=False,
    filters=("audit_id", "control_code", "status", "conclusion", "tester_email", "control_owner_email"),
    search=("control_description",),
    update=("control_description", "frequency", "key_control", "tester_email"),
    delete=False,
    guard_update=_guard_test,
    title="control test",
)
samples = service.resource(
    Sample,
    name="sample",
    plural="samples",
    prefix="smp",
    create=False,
    get=False,
    filters=("test_id", "result"),
    search=("reference", "note"),
    delete=False,
)
findings = service.resource(
    Finding,
    name="finding",
    plural="findings",
    prefix="iss",
    create=("audit_id", "test_id", "title", "description", "severity"),
    filters=("audit_id", "test_id", "severity", "status"),
    search=("title", "description"),
    update=("title", "description", "severity"),
    delete=False,
    guard_create=_guard_finding,
    title="audit finding",
)
remediations = service.resource(
    Remediation,
    name="remediation",
    plural="remediations",
    prefix="rem",
    create=False,
    filters=("finding_id", "owner_email", "status"),
    search=("action",),
    update=("owner_email", "action", "due_date"),
    delete=False,
    guard_update=_guard_remediation,
    title="remediation plan",
)


# -- plans and audits -------------------------------------------------------------------------


def _auditors(ctx: Ctx) -> list[str]:
    return [p.email for p in ctx.population.staff("Finance", fallback=4)]


def _example_approve_plan(ctx: Ctx) -> dict[str, Any] | None:
    for plan in ctx.where(AuditPlan, status="draft"):
        if ctx.where(Audit, plan_id=plan.id):
            return {"audit_plan_id": plan.id, "approved_by": ctx.population.employees[0].email}
    return None


@service.tool(intent="approve the audit plan", write=True, example=_example_approve_plan)
def approve_audit_plan(ctx: Ctx, audit_plan_id: PlanId, approved_by: Email) -> AuditPlan:
    """Approve a draft plan that holds at least one audit (the audit committee's approval).

    Args:
        audit_plan_id: The draft plan.
        approved_by: The employee approving for the committee.
    """
    plan = ctx.get(AuditPlan, audit_plan_id, field="audit_plan_id")
    if plan.status != "draft":
        raise Conflict("the plan is approved already", field="audit_plan_id", hint="nothing to do")
    _staff(ctx, approved_by, "approved_by")
    if not ctx.where(Audit, plan_id=plan.id):
        raise RuleViolation("the plan has no audits", field="audit_plan_id", hint="add audits with create_audit")
    return ctx.update(plan, status="approved", approved_by=approved_by)


def _example_audit(ctx: Ctx) -> dict[str, Any] | None:
    plan = ctx.first(AuditPlan, year=ctx.today().year)
    if plan is None:
        return None
    return {
        "plan_id": plan.id,
        "title": "Treasury payments review",
        "audit_type": "operational",
        "area": "Treasury",
        "lead_email": _auditors(ctx)[0],
        "due_date": (ctx.today() + dt.timedelta(days=60)).isoformat(),
    }


@service.tool(intent="create an audit in the plan", write=True, example=_example_audit)
def create_audit(
    ctx: Ctx,
    plan_id: PlanId,
    title: Title,
    audit_type: Literal["sox", "operational", "it", "compliance"],
    area: Title,
    lead_email: Email,
    due_date: Date,
) -> Audit:
    """Add an audit to a plan, in planning; its report is due after today.

    Args:
        plan_id: The audit plan.
        title: The audit's title.
        audit_type: sox, operational, it or compliance.
        area: The process or area audited.
        lead_email: The lead auditor (an employee).
        due_date: When the report is due.
    """
    ctx.get(AuditPlan, plan_id, field="plan_id")
    _staff(ctx, lead_email, "lead_email")
    if due_date <= ctx.today():
        raise RuleViolation("the due date has passed", field="due_date", hint="pick a later date")
    return ctx.create(
        Audit, plan_id=plan_id, title=title, audit_type=audit_type, area=area, lead_email=lead_email, due_date=due_date
    )


def _can_advance(ctx: Ctx, audit: Audit) -> str | None:
    """Why the audit cannot move on (None: it can)."""
    found = ctx.where(Finding, audit_id=audit.id)
    if audit.phase == "planning":
        if ctx.get(AuditPlan, audit.plan_id).status != "approved":
            return "its audit plan is not approved"
        if not ctx.where(ControlTest, audit_id=audit.id):
            return "it has no control tests"
    elif audit.phase == "fieldwork":
        open_tests = [t.control_code for t in ctx.where(ControlTest, audit_id=audit.id) if t.status != "signed_off"]
        if open_tests:
            return f"tests not signed off: {', '.join(open_tests)}"
    elif audit.phase == "reporting":
        bare = [f.id for f in found if f.severity in SERIOUS and f.status == "open"]
        if bare:
            return f"high or critical findings without remediation: {', '.join(bare)}"
    elif audit.phase == "follow_up":
        live = [f.id for f in found if f.status in ("open", "remediating")]
        if live:
            return f"findings still open: {', '.join(live)}"
    else:
        return "it is closed"
    return None


def _example_advance(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.scan(Audit):
        if _can_advance(ctx, a) is None:
            return {"audit_id": a.id}
    return None


@service.tool(intent="move the audit to its next phase", write=True, example=_example_advance)
def advance_audit(ctx: Ctx, audit_id: AuditId) -> Audit:
    """Move an audit to its next phase: planning → fieldwork → reporting → follow_up → closed.

    Fieldwork needs an approved plan and a control test; reporting every test signed off; follow-up (which
    issues the report) a remediation plan for every high or critical finding; closing every finding closed.

    Args:
        audit_id: The audit.
    """
    audit = ctx.get(Audit, audit_id, field="audit_id")
    why = _can_advance(ctx, audit)
    if why is not None:
        raise RuleViolation(
            f"{audit.title} cannot leave {audit.phase}: {why}", field="audit_id", hint="finish that work first"
        )
    nxt = NEXT[audit.phase]
    issued = ctx.today() if nxt == "follow_up" else audit.report_issued_on
    return ctx.update(audit, phase=nxt, report_issued_on=issued)


# -- control tests ----------------------------------------------------------------------------


def _example_test(ctx: Ctx) -> dict[str, Any] | None:
    audit = ctx.first(Audit, phase="planning")
    if audit is None:
        return None
    return {
        "audit_id": audit.id,
        "control_code": "TRS-09",
        "control_description": "Wires over 25k need two approvers",
        "control_owner_email": ctx.population.employees[-1].email,
        "frequency": "weekly",
        "tester_email": _auditors(ctx)[0],
    }


@service.tool(intent="add a control test to the audit", write=True, example=_example_test)
def add_control_test(
    ctx: Ctx,
    audit_id: AuditId,
    control_code: ControlCode,
    control_description: Text,
    control_owner_email: Email,
    frequency: Frequency,
    tester_email: Email,
    key_control: bool = True,
) -> ControlTest:
    """Add a control to test in planning or fieldwork; its sample size follows the frequency.

    Args:
        audit_id: The audit (in planning or fieldwork).
        control_code: The control's code (P2P-03), once per audit.
        control_description: What the control does.
        control_owner_email: The employee who performs it.
        frequency: annual, quarterly, monthly, weekly or daily.
        tester_email: The auditor who tests it.
        key_control: Whether it is a key control.
    """
    ctx.get(Audit, audit_id, field="audit_id")
    test = ctx.create(
        ControlTest,
        audit_id=audit_id,
        control_code=control_code,
        control_description=control_description,
        control_owner_email=control_owner_email,
        frequency=frequency,
        key_control=key_control,
        tester_email=tester_email,
        sample_size=SAMPLE_SIZE[frequency],
    )
    _guard_test(ctx, test, None)
    return test


def _fieldwork_test(ctx: Ctx, test_id: str, field: str = "test_id") -> ControlTest:
    test = ctx.get(ControlTest, test_id, field=field)
    audit = ctx.get(Audit, test.audit_id)
    if audit.phase != "fieldwork":
        raise RuleViolation(f"audit is in {audit.phase}", field=field, hint="samples are tested during fieldwork")
    if test.status in ("concluded", "signed_off"):
        raise RuleViolation(f"test is {test.status}", field=field, hint="the test is finished")
    return test


def _example_sample(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.scan(ControlTest):
        if t.status in ("not_started", "in_progress") and ctx.get(Audit, t.audit_id).phase == "fieldwork":
            return {"test_id": t.id, "reference": "PO-20931"}
    return None


@service.tool(intent="add a sample to the control test", write=True, example=_example_sample)
def add_sample(
    ctx: Ctx, test_id: TestId, reference: Annotated[str, StringConstraints(min_length=1, max_length=60)]
) -> Sample:
    """Select an item to test; the test is then in progress. An item is sampled once per test.

    Args:
        test_id: The control test (its audit in fieldwork).
        reference: The item (a PO number, a ticket, a journal entry).
    """
    test = _fieldwork_test(ctx, test_id)
    if ctx.first(Sample, test_id=test.id, reference=reference):
        raise Conflict(f"{reference} is sampled already", field="reference", hint="pick another item")
    if test.status == "not_started":
        ctx.update(test, status="in_progress")
    return ctx.create(Sample, test_id=test.id, reference=reference)


def _example_result(ctx: Ctx) -> dict[str, Any] | None:
    for smp in ctx.where(Sample, result="pending"):
        t = ctx.get(ControlTest, smp.test_id)
        if t.status == "in_progress" and ctx.get(Audit, t.audit_id).phase == "fieldwork":
            return {"sample_id": smp.id, "result": "pass", "note": "Approved by two approvers before release."}
    return None


@service.tool(intent="record the sample's test result", write=True, example=_example_result)
def record_sample_result(
    ctx: Ctx, sample_id: SampleId, result: Literal["pass", "exception"], note: Text = ""
) -> Sample:
    """Record whether a sampled item passed; an exception needs a note saying what was wrong.

    Args:
        sample_id: The sample.
        result: pass or exception.
        note: What was seen (required for an exception).
    """
    smp = ctx.get(Sample, sample_id, field="sample_id")
    _fieldwork_test(ctx, smp.test_id, "sample_id")
    if result == "exception" and not note.strip():
        raise RuleViolation("an exception needs a note", field="note", hint="describe what was wrong")
    return ctx.update(smp, result=result, note=note.strip())


def _example_conclude(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.where(ControlTest, status="in_progress"):
        done = [x for x in ctx.where(Sample, test_id=t.id) if x.result != "pending"]
        if len(done) >= t.sample_size and len(done) == len(ctx.where(Sample, test_id=t.id)):
            return {"test_id": t.id}
    return None


@service.tool(intent="conclude the control test", write=True, example=_example_conclude)
def conclude_test(ctx: Ctx, test_id: TestId) -> ControlTest:
    """Conclude a test whose samples (at least the sample size) are all tested: effective without exceptions.

    Args:
        test_id: The control test in progress.
    """
    test = _fieldwork_test(ctx, test_id)
    picked = ctx.where(Sample, test_id=test.id)
    if len(picked) < test.sample_size:
        raise RuleViolation(
            f"{len(picked)} of {test.sample_size} samples selected",
            field="test_id",
            hint="add samples with internalaudit__add_sample",
        )
    if any(x.result == "pending" for x in picked):
        raise RuleViolation("some samples are not tested", field="test_id", hint="record their results first")
    bad = any(x.result == "exception" for x in picked)
    return ctx.update(test, status="concluded", conclusion="ineffective" if bad else "effective")


def _example_signoff(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.where(ControlTest, status="concluded"):
        if t.conclusion == "effective" or ctx.where(Finding, test_id=t.id):
            reviewer = next(
                e for e in _auditors(ctx) + [p.email for p in ctx.population.employees] if e != t.tester_email
            )
            return {"test_id": t.id, "reviewer_email": reviewer}
    return None


@service.tool(intent="sign off the control test as reviewer", write=True, example=_example_signoff)
def sign_off_test(ctx: Ctx, test_id: TestId, reviewer_email: Email) -> ControlTest:
    """Review and sign off a concluded test; not by its tester, and an ineffective one needs a finding.

    Args:
        test_id: The concluded test.
        reviewer_email: The reviewing auditor (not the tester).
    """
    test = ctx.get(ControlTest, test_id, field="test_id")
    if test.status != "concluded":
        raise RuleViolation(f"test is {test.status}", field="test_id", hint="conclude it first")
    _staff(ctx, reviewer_email, "reviewer_email")
    if reviewer_email == test.tester_email:
        raise RuleViolation(
            "the tester cannot review their own test", field="reviewer_email", hint="ask another auditor"
        )
    if test.conclusion == "ineffective" and not ctx.where(Finding, test_id=test.id):
        raise RuleViolation(
            "an ineffective control needs a finding",
            field="test_id",
            hint="raise one with internalaudit__create_finding",
        )
    return ctx.update(test, status="signed_off", reviewer_email=reviewer_email, signed_off_on=ctx.today())


# -- findings and remediation -----------------------------------------------------------------


def _example_remediation(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(Finding, status="open")
    if f is None:
        return None
    due = ctx.today() + dt.timedelta(days=60)
    owner = ctx.population.employees[-1].email
    return {
        "finding_id": f.id,
        "owner_email": owner,
        "action": "Add a second approver in the workflow.",
        "due_date": due.isoformat(),
    }


@service.tool(intent="create a remediation plan for the finding", write=True, example=_example_remediation)
def create_remediation(
    ctx: Ctx, finding_id: FindingId, owner_email: Email, action: Text, due_date: Date
) -> Remediation:
    """Plan the remediation of an open finding; it is due within 90 days for high and critical ones (180 else).

    Args:
        finding_id: The open finding.
        owner_email: The employee who owns the action.
        action: What will be done.
        due_date: When it is due (after today).
    """
    ctx.get(Finding, finding_id, field="finding_id")
    if not action.strip():
        raise RuleViolation("say what will be done", field="action", hint="describe the action")
    made = ctx.create(
        Remediation, finding_id=finding_id, owner_email=owner_email, action=action.strip(), due_date=due_date
    )
    _guard_remediation(ctx, made, None)
    return made


@service.tool(
    intent="mark the remediation implemented",
    write=True,
    example=first_example(Remediation, "remediation_id", where={"status": "in_progress"}),
)
def implement_remediation(ctx: Ctx, remediation_id: RemediationId) -> Remediation:
    """The owner reports the action done; audit validates it next.

    Args:
        remediation_id: The remediation in progress.
    """
    rem = ctx.get(Remediation, remediation_id, field="remediation_id")
    if rem.status != "in_progress":
        raise RuleViolation(f"remediation is {rem.status}", field="remediation_id", hint="it is done already")
    return ctx.update(rem, status="implemented", implemented_on=ctx.today())


def _example_validate(ctx: Ctx) -> dict[str, Any] | None:
    rem = ctx.first(Remediation, status="implemented")
    if rem is None:
        return None
    return {"remediation_id": rem.id, "validated_by": next(e for e in _auditors(ctx) if e != rem.owner_email)}


@service.tool(intent="validate the remediation", write=True, example=_example_validate)
def validate_remediation(ctx: Ctx, remediation_id: RemediationId, validated_by: Email) -> Remediation:
    """Validate an implemented remediation (not by its owner); its finding closes.

    Args:
        remediation_id: The implemented remediation.
        validated_by: The auditor validating it.
    """
    rem = ctx.get(Remediation, remediation_id, field="remediation_id")
    if rem.status != "implemented":
        raise RuleViolation(
            f"remediation is {rem.status}", field="remediation_id", hint="the owner implements it first"
        )
    _staff(ctx, validated_by, "validated_by")
    if validated_by == rem.owner_email:
        raise RuleViolation("the owner cannot validate their own action", field="validated_by", hint="ask an auditor")
    ctx.update(ctx.get(Finding, rem.finding_id), status="closed")
    return ctx.update(rem, status="validated", validated_by=validated_by)


# -- seed -------------------------------------------------------------------------------------

AUDITS: tuple[tuple[str, str, str, Phase, int], ...] = (
    ("Procure to pay SOX testing", "sox", "Procure to pay", "closed", -40),
    ("Revenue recognition SOX testing", "sox", "Order to cash", "follow_up", 20),
    ("Access management review", "it", "Identity and access", "fieldwork", 45),
    ("Payroll operations audit", "operational", "Payroll", "planning", 90),
)
CONTROLS: tuple[tuple[str, str, Frequency], ...] = (
    ("CTL-01", "Purchase orders over 10k are approved by a budget owner", "weekly"),
    ("CTL-02", "Three-way match before invoice payment", "monthly"),
    ("CTL-03", "Quarterly review of user access by system owners", "quarterly"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """This year's approved plan with an audit in each phase, next year's draft, tests, samples, findings."""
    pop = s.population
    auditors = [p.email for p in pop.staff("Finance", fallback=4)] + [pop.employees[0].email]
    owners = [p.email for p in pop.employees if p.email not in auditors] or auditors
    today = s.now.date()
    nxt = s.create(
        AuditPlan,
        year=today.year + 1,
        title=f"{today.year + 1} Internal Audit Plan",
        budget_hours=5200,
        created_at=s.ago(days=3),
        updated_at=s.ago(days=3),
    )
    s.create(
        Audit,
        plan_id=nxt.id,
        title="Cross-border payments audit",
        audit_type="operational",
        area="Treasury",
        lead_email=auditors[0],
        due_date=today + dt.timedelta(days=300),
        created_at=s.ago(days=3),
        updated_at=s.ago(days=3),
    )
    plan = s.create(
        AuditPlan,
        year=today.year,
        title=f"{today.year} Internal Audit Plan",
        budget_hours=4800,
        status="approved",
        approved_by=pop.employees[0].email,
        created_at=s.ago(days=120),
        updated_at=s.ago(days=90),
    )
    for k, (title, kind, area, phase, due) in enumerate(AUDITS):
        issued = today - dt.timedelta(days=30 + 20 * k) if phase in ("follow_up", "closed") else None
        audit = s.create(
            Audit,
            plan_id=plan.id,
            title=title,
            audit_type=kind,
            area=area,
            lead_email=auditors[k % len(auditors)],
            phase=phase,
            due_date=today + dt.timedelta(days=due),
            report_issued_on=issued,
            created_at=s.ago(days=100 - 10 * k),
            updated_at=s.ago(days=5),
        )
        _seed_tests(s, audit, auditors, owners, k)


FIELDWORK: tuple[tuple[str, str | None, str], ...] = (
    ("concluded", "effective", "pass"),
    ("in_progress", None, "pass"),
    ("in_progress", None, "pending"),
)
"""The fieldwork audit's tests: status, conclusion, and the result of its samples after the first (a pass)."""


def _seed_tests(s: SeedContext, audit: Audit, auditors: list[str], owners: list[str], k: int) -> None:
    """Tests of an audit: signed off after fieldwork, at every step in fieldwork, one not started in planning."""
    today = s.now.date()
    for n, (code, desc, freq) in enumerate(CONTROLS[:1] if audit.phase == "planning" else CONTROLS):
        tester, reviewer = auditors[n % len(auditors)], auditors[(n + 1) % len(auditors)]
        size = SAMPLE_SIZE[freq]
        bad = n == 1 and audit.phase in ("follow_up", "closed")
        status, conclusion, rest = FIELDWORK[n] if audit.phase == "fieldwork" else ("signed_off", "effective", "pass")
        if audit.phase == "planning":
            status, conclusion = "not_started", None
        signed = status == "signed_off"
        test = s.create(
            ControlTest,
            audit_id=audit.id,
            control_code=code,
            control_description=desc,
            control_owner_email=owners[(n + k) % len(owners)],
            frequency=freq,
            sample_size=size,
            tester_email=tester,
            status=status,
            conclusion="ineffective" if bad else conclusion,
            reviewer_email=reviewer if signed else None,
            signed_off_on=today - dt.timedelta(days=40) if signed else None,
            created_at=s.ago(days=80),
            updated_at=s.ago(days=10),
        )
        for m in range(0 if status == "not_started" else size):
            result = "exception" if bad and m == 0 else "pass" if m == 0 else rest
            note = "Approved after the payment was released." if result == "exception" else ""
            s.create(
                Sample, test_id=test.id, reference=f"{code[:3]}-{10_400 + 17 * m + 100 * k}", result=result, note=note
            )
        if bad:
            _seed_findings(s, audit, test, owners[k % len(owners)], auditors[-1])


def _seed_findings(s: SeedContext, audit: Audit, test: ControlTest, owner: str, validator: str) -> None:
    """The finding of an ineffective test, remediated as far as the audit's phase goes; in follow-up two more."""
    today = s.now.date()
    closed = audit.phase == "closed"
    when = {"created_at": s.ago(days=40), "updated_at": s.ago(days=5)}
    rows: list[tuple[str, str, Severity, str | None, int]] = [
        (
            f"{test.control_code} not operating effectively",
            "An invoice was paid without a matching goods receipt.",
            "high",
            "Block payment until the receipt is posted.",
            -10 if closed else 30,
        ),
        (
            "Vendor master change log kept 30 days only",
            "Change logs are purged before the quarterly review.",
            "low",
            None,
            0,
        ),
        (
            "Segregation of duties in vendor master changes",
            "Two buyers can create vendors and approve invoices.",
            "moderate",
            "Split vendor creation from approval roles.",
            75,
        ),
    ]
    for k, (title, text, severity, action, due) in enumerate(rows[:1] if closed else rows):
        status: FindingStatus = "closed" if closed else "remediating" if action else "open"
        f = s.create(
            Finding,
            audit_id=audit.id,
            test_id=test.id if k == 0 else None,
            title=title,
            description=text,
            severity=severity,
            status=status,
            **when,
        )
        if action is None:
            continue
        rem: Any = "validated" if closed else "implemented" if k == 0 else "in_progress"
        s.create(
            Remediation,
            finding_id=f.id,
            owner_email=owner,
            action=action,
            due_date=today + dt.timedelta(days=due),
            status=rem,
            implemented_on=today - dt.timedelta(days=20 if closed else 2) if k == 0 else None,
            validated_by=validator if closed else None,
            **when,
        )
