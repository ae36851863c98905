"""Trustmark Compliance: frameworks, controls and their automated tests, evidence, vendor risk and personnel.

Modeled on Vanta's API (v1: frameworks, controls, tests, documents, vendors
with security reviews, people with onboarding tasks). A framework (SOC 2,
ISO 27001, HIPAA) holds controls; a control is met when every enabled test on
it passes and, when it needs evidence, at least one evidence document is still
valid. Tests pass, fail or need attention; disabling one needs a reason and
hides it from the control until it is enabled again. Evidence documents carry
an https link and an expiry date after today and at most a year ahead. Vendors
are unique by domain; a security review rates their risk and approves or
rejects them, a high or critical vendor is approved only with a SOC 2 report,
and the next review is due in 6 months for them and 12 otherwise. People
onboard by accepting the policies, finishing security training, passing a
background check and installing the device agent; they are active once all
four are done, and an offboarded person completes nothing more.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, DateTime, Domain, Email, IdOf, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "compliance",
    title="Trustmark Compliance",
    category="compliance",
    modeled_on="Vanta API v1 (frameworks, controls, tests with deactivation, documents as evidence, vendors "
    "and vendor security reviews, people and onboarding tasks)",
    description="Continuous compliance for SOC 2, ISO 27001 and HIPAA: controls with owners, automated tests "
    "that pass or fail, evidence documents that expire, third-party vendors with risk reviews, and each "
    "employee's onboarding tasks (policies, training, background check, device agent).",
)

FrameworkId = Annotated[str, IdOf("compliance.framework")]
ControlId = Annotated[str, IdOf("compliance.control")]
TestId = Annotated[str, IdOf("compliance.test")]
DocumentId = Annotated[str, IdOf("compliance.evidence")]
VendorId = Annotated[str, IdOf("compliance.vendor")]
PersonId = Annotated[str, IdOf("compliance.person")]

ControlCode = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9.()\-]{0,19}$")]
"""A control's code in its framework, e.g. CC6.1 or A.8.2."""

TestStatus = Literal["passing", "failing", "needs_attention", "disabled"]
Risk = Literal["low", "medium", "high", "critical"]
VendorStatus = Literal["not_reviewed", "approved", "rejected"]
TaskName = Literal["accept_policies", "security_training", "background_check", "install_device_agent"]
PersonStatus = Literal["onboarding", "active", "offboarded"]

TASKS: tuple[TaskName, ...] = ("accept_policies", "security_training", "background_check", "install_device_agent")
MAX_EVIDENCE = dt.timedelta(days=366)
REVIEW_EVERY = {"low": 365, "medium": 365, "high": 182, "critical": 182}


class Framework(Created):
    """A compliance framework the company follows."""

    id: FrameworkId
    name: Title
    """SOC 2, ISO 27001, HIPAA …"""
    audit_date: Date | None = None
    """When the next audit starts."""


class Control(Record):
    """A control of a framework."""

    id: ControlId
    framework_id: FrameworkId
    """The framework."""
    code: ControlCode
    """Its code in the framework."""
    name: Title
    """What it requires."""
    owner_email: Email | None = None
    """The employee who owns it."""
    evidence_required: bool = False
    """Whether a valid evidence document is needed for it to be met."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Test(Record):
    """An automated test that monitors a control."""

    id: TestId
    control_id: ControlId
    """The control it monitors."""
    name: Title
    """What it checks."""
    status: TestStatus
    """passing, failing, needs_attention or disabled."""
    failing_entities: int = 0
    """How many resources fail it."""
    disabled_reason: Text | None = None
    """Why it was disabled."""
    last_run: DateTime
    """When it last ran."""


class Evidence(Created):
    """An evidence document uploaded for a control."""

    id: DocumentId
    control_id: ControlId
    """The control."""
    title: Title
    """What it is."""
    url: Url
    """Where the file is (https)."""
    uploaded_by: Email
    """Who uploaded it."""
    expires_on: Date
    """The last day it counts."""


class Vendor(Record):
    """A third-party vendor and its security review."""

    id: VendorId
    name: CompanyName
    """The vendor."""
    domain: Domain
    """Its web domain (unique)."""
    category: Literal["infrastructure", "saas", "payments", "professional_services", "hardware"]
    """What it provides."""
    owner_email: Email | None = None
    """The employee who owns the relationship."""
    risk_level: Risk | None = None
    """Its rated risk, after a review."""
    status: VendorStatus = "not_reviewed"
    """not_reviewed, approved or rejected."""
    soc2_report_url: Url | None = None
    """Its SOC 2 report."""
    last_review_date: Date | None = None
    """When it was last reviewed."""
    next_review_due: Date | None = None
    """When the next review is due."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class TaskDone(Value):
    """An onboarding task a person completed."""

    task: TaskName
    """Which task."""
    completed_on: Date
    """When."""


class Person(Record):
    """An employee tracked for compliance."""

    id: PersonId
    email: Email
    """Their work e-mail."""
    name: PersonName
    """Their name."""
    start_date: Date | None = None
    """Their first day."""
    status: PersonStatus = "onboarding"
    """onboarding, active (every task done) or offboarded."""
    completed: tuple[TaskDone, ...] = ()
    """The onboarding tasks done."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class ControlState(Value):
    """Whether one control is met."""

    control_id: ControlId
    """The control."""
    code: ControlCode
    """Its code."""
    met: bool
    """Whether every enabled test passes and the evidence it needs is valid."""
    failing_tests: tuple[TestId, ...]
    """Enabled tests that do not pass."""
    missing_evidence: bool
    """Whether it needs evidence and has no valid document."""


class Readiness(Value):
    """How ready a framework is for its audit."""

    framework_id: FrameworkId
    """The framework."""
    controls: int
    """Its controls."""
    met: int
    """Controls met."""
    percent: float
    """Share met, 0-100."""
    not_met: tuple[ControlState, ...]
    """The controls not met and why."""


# -- rules ------------------------------------------------------------------------------------


def _employee(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a person in the organisation", field=field, hint="use an employee")


def _guard_control(ctx: Ctx, new: Any, old: Any) -> None:
    _employee(ctx, new.owner_email, "owner_email")


def _guard_vendor(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Vendor, domain=new.domain):
        if other.id != new.id:
            raise Conflict(f"vendor {other.name} already has {new.domain}", field="domain", hint="use that vendor")
    _employee(ctx, new.owner_email, "owner_email")


frameworks = service.resource(
    Framework,
    name="framework",
    plural="frameworks",
    prefix="fw",
    create=False,
    get=False,
    search=("name",),
    delete=False,
)
controls = service.resource(
    Control,
    name="control",
    plural="controls",
    prefix="ctl",
    create=False,
    filters=("framework_id", "code", "owner_email", "evidence_required"),
    search=("name",),
    update=("owner_email",),
    delete=False,
    guard_update=_guard_control,
)
tests = service.resource(
    Test,
    name="test",
    plural="tests",
    prefix="test",
    create=False,
    get=False,
    filters=("control_id", "status"),
    search=("name",),
    delete=False,
    title="compliance test",
)
documents = service.resource(
    Evidence,
    name="evidence",
    plural="evidence",
    prefix="doc",
    create=False,
    get=False,
    filters=("control_id", "uploaded_by"),
    search=("title",),
    delete=False,
    title="evidence document",
)
vendors = service.resource(
    Vendor,
    name="vendor",
    plural="vendors",
    prefix="vnd",
    create=("name", "domain", "category", "owner_email"),
    get=False,
    filters=("status", "risk_level", "category", "owner_email", "domain"),
    search=("name",),
    delete=False,
    guard_create=_guard_vendor,
)
people = service.resource(
    Person,
    name="person",
    plural="people",
    prefix="per",
    create=False,
    get=False,
    filters=("status", "email"),
    search=("name",),
    delete=False,
    transitions={
        "offboard": Transition(
            "status",
            ("onboarding", "active"),
            "offboarded",
            "offboard the person",
            description="Mark a person as offboarded (they left): they no longer count and complete no tasks.",
            destructive=True,
        )
    },
)


# -- tests and evidence -----------------------------------------------------------------------


@service.tool(
    intent="disable the test",
    write=True,
    example=first_example(Test, "test_id", where={"status": "failing"}, reason="Covered by the annual pen test."),
)
def disable_test(ctx: Ctx, test_id: TestId, reason: Text) -> Test:
    """Disable a test with a reason: it stops counting for its control until enabled again.

    Args:
        test_id: The test.
        reason: Why it does not apply (required).
    """
    test = ctx.get(Test, test_id, field="test_id")
    if test.status == "disabled":
        raise Conflict(f"test {test.name!r} is already disabled", field="test_id", hint="nothing to do")
    if not reason.strip():
        raise RuleViolation("disabling a test needs a reason", field="reason", hint="say why it does not apply")
    return ctx.update(test, status="disabled", disabled_reason=reason.strip())


@service.tool(
    intent="enable the test",
    write=True,
    example=first_example(Test, "test_id", where={"status": "disabled"}),
)
def enable_test(ctx: Ctx, test_id: TestId) -> Test:
    """Enable a disabled test; it runs again at once and reports needs_attention until its next result.

    Args:
        test_id: The test.
    """
    test = ctx.get(Test, test_id, field="test_id")
    if test.status != "disabled":
        raise Conflict(f"test {test.name!r} is not disabled", field="test_id", hint="nothing to do")
    return ctx.update(test, status="needs_attention", disabled_reason=None, last_run=ctx.now())


def _example_upload(ctx: Ctx) -> dict[str, Any] | None:
    ctl = ctx.first(Control, evidence_required=True)
    return (
        None
        if ctl is None
        else {
            "control_id": ctl.id,
            "title": "Access review Q1",
            "url": "https://files.example.com/access-review-q1.pdf",
            "uploaded_by": ctx.population.employees[0].email,
            "expires_on": (ctx.today() + dt.timedelta(days=180)).isoformat(),
        }
    )


@service.tool(intent="upload evidence for the control", write=True, example=_example_upload)
def upload_evidence(
    ctx: Ctx, control_id: ControlId, title: Title, url: Url, uploaded_by: Email, expires_on: Date
) -> Evidence:
    """Upload an evidence document for a control.

    Args:
        control_id: The control.
        title: What the document is.
        url: Where the file is; it must be https.
        uploaded_by: The employee uploading it.
        expires_on: The last day it counts: after today and at most a year ahead.
    """
    ctx.get(Control, control_id, field="control_id")
    if not url.startswith("https://"):
        raise RuleViolation("evidence must be linked over https", field="url", hint="use the https link")
    _employee(ctx, uploaded_by, "uploaded_by")
    today = ctx.today()
    if not today < expires_on <= today + MAX_EVIDENCE:
        raise RuleViolation(
            f"expires_on must be after {today} and at most a year ahead",
            field="expires_on",
            hint=f"pick a date up to {today + MAX_EVIDENCE}",
        )
    return ctx.create(
        Evidence, control_id=control_id, title=title, url=url, uploaded_by=uploaded_by, expires_on=expires_on
    )


def _state(ctx: Ctx, control: Control) -> ControlState:
    failing = tuple(t.id for t in ctx.where(Test, control_id=control.id) if t.status not in ("passing", "disabled"))
    valid = any(e.expires_on >= ctx.today() for e in ctx.where(Evidence, control_id=control.id))
    missing = control.evidence_required and not valid
    return ControlState(
        control_id=control.id,
        code=control.code,
        met=not failing and not missing,
        failing_tests=failing,
        missing_evidence=missing,
    )


@service.tool(intent="check the framework's audit readiness", example=first_example(Framework, "framework_id"))
def framework_readiness(ctx: Ctx, framework_id: FrameworkId) -> Readiness:
    """How many of a framework's controls are met, and why the others are not.

    Args:
        framework_id: The framework.
    """
    ctx.get(Framework, framework_id, field="framework_id")
    states = [_state(ctx, c) for c in ctx.where(Control, framework_id=framework_id)]
    met = sum(s.met for s in states)
    return Readiness(
        framework_id=framework_id,
        controls=len(states),
        met=met,
        percent=round(100 * met / len(states), 1) if states else 100.0,
        not_met=tuple(s for s in states if not s.met),
    )


# -- vendors and people -----------------------------------------------------------------------


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Vendor, status="not_reviewed")
    return (
        None
        if v is None
        else {
            "vendor_id": v.id,
            "risk_level": "medium",
            "decision": "approved",
            "reviewer_email": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="record the vendor's security review", write=True, example=_example_review)
def review_vendor(
    ctx: Ctx,
    vendor_id: VendorId,
    risk_level: Risk,
    decision: Literal["approved", "rejected"],
    reviewer_email: Email,
    soc2_report_url: Url | None = None,
) -> Vendor:
    """Record a vendor's security review: its risk, the decision and when the next review is due.

    Args:
        vendor_id: The vendor.
        risk_level: low, medium, high or critical.
        decision: approved or rejected.
        reviewer_email: The employee who reviewed it.
        soc2_report_url: Its SOC 2 report (needed to approve a high or critical vendor).
    """
    vendor = ctx.get(Vendor, vendor_id, field="vendor_id")
    _employee(ctx, reviewer_email, "reviewer_email")
    report = soc2_report_url or vendor.soc2_report_url
    if decision == "approved" and risk_level in ("high", "critical") and report is None:
        raise RuleViolation(
            f"a {risk_level}-risk vendor is approved only with a SOC 2 report",
            field="soc2_report_url",
            hint="ask the vendor for its SOC 2 Type II report, or reject it",
        )
    today = ctx.today()
    return ctx.update(
        vendor,
        risk_level=risk_level,
        status=decision,
        soc2_report_url=report,
        last_review_date=today,
        next_review_due=today + dt.timedelta(days=REVIEW_EVERY[risk_level]),
        owner_email=vendor.owner_email or reviewer_email,
    )


def _example_task(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Person, status="onboarding"):
        done = {t.task for t in p.completed}
        for task in TASKS:
            if task not in done:
                return {"person_id": p.id, "task": task}
    return None


@service.tool(intent="complete the person's onboarding task", write=True, example=_example_task)
def complete_onboarding_task(ctx: Ctx, person_id: PersonId, task: TaskName) -> Person:
    """Record that a person completed an onboarding task; with all four done they become active.

    Args:
        person_id: The person.
        task: accept_policies, security_training, background_check or install_device_agent.
    """
    person = ctx.get(Person, person_id, field="person_id")
    if person.status == "offboarded":
        raise RuleViolation(f"{person.name} was offboarded", field="person_id", hint="offboarded people have no tasks")
    if any(t.task == task for t in person.completed):
        raise Conflict(f"{person.name} already completed {task}", field="task", hint="nothing to do")
    completed = (*person.completed, TaskDone(task=task, completed_on=ctx.today()))
    status: PersonStatus = "active" if {t.task for t in completed} >= set(TASKS) else person.status
    return ctx.update(person, completed=completed, status=status)


# -- seed -------------------------------------------------------------------------------------

CONTROLS: tuple[tuple[str, str, str, bool, tuple[tuple[str, TestStatus], ...]], ...] = (
    (
        "SOC 2",
        "CC1.4",
        "Background checks are performed for new hires",
        True,
        (("Background checks completed", "passing"),),
    ),
    (
        "SOC 2",
        "CC2.2",
        "Security awareness training is completed annually",
        False,
        (("Employees completed training", "failing"),),
    ),
    (
        "SOC 2",
        "CC6.1",
        "Logical access uses MFA",
        False,
        (("MFA on identity provider", "passing"), ("MFA on cloud console", "passing")),
    ),
    ("SOC 2", "CC6.2", "Access is reviewed quarterly", True, (("Access review completed", "needs_attention"),)),
    ("SOC 2", "CC6.7", "Company devices are encrypted", False, (("Laptop disk encryption", "failing"),)),
    (
        "SOC 2",
        "CC7.1",
        "Vulnerabilities are scanned and remediated",
        False,
        (("Critical vulnerabilities fixed in SLA", "passing"),),
    ),
    ("SOC 2", "CC9.2", "Vendors are reviewed for risk", True, (("High-risk vendors reviewed", "passing"),)),
    ("ISO 27001", "A.5.15", "Access control policy is approved", True, (("Policy accepted by employees", "passing"),)),
    (
        "ISO 27001",
        "A.8.1",
        "User endpoint devices are managed",
        False,
        (("Devices enrolled in MDM", "passing"), ("Screen lock enabled", "disabled")),
    ),
    ("ISO 27001", "A.8.13", "Backups are taken and tested", True, (("Database backups enabled", "passing"),)),
    (
        "HIPAA",
        "164.308(a)(5)",
        "Workforce receives security training",
        False,
        (("Employees completed HIPAA training", "failing"),),
    ),
    ("HIPAA", "164.312(a)(2)", "ePHI is encrypted at rest", True, (("Storage encryption", "passing"),)),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Three frameworks with controls, tests in every state, evidence (some expired), vendors and people."""
    pop = s.population
    today = s.now.date()
    owners = pop.staff("Engineering", "IT", "Operations", fallback=4)
    fws = {
        name: s.create(Framework, name=name, audit_date=today + dt.timedelta(days=days), created_at=s.ago(days=400))
        for name, days in (("SOC 2", 75), ("ISO 27001", 160), ("HIPAA", 240))
    }
    for k, (fw, code, name, needs_doc, tests) in enumerate(CONTROLS):
        ctl = s.create(
            Control,
            framework_id=fws[fw].id,
            code=code,
            name=name,
            owner_email=owners[k % len(owners)].email if k % 5 != 4 else None,
            evidence_required=needs_doc,
            updated_at=s.ago(days=30),
        )
        for tname, tstatus in tests:
            s.create(
                Test,
                control_id=ctl.id,
                name=tname,
                status=tstatus,
                failing_entities=3 + k if tstatus == "failing" else 0,
                disabled_reason="Kiosks are shared devices without screen lock." if tstatus == "disabled" else None,
                last_run=s.ago(hours=3 + k),
            )
        if needs_doc:
            expired = k in (3, 9)
            s.create(
                Evidence,
                control_id=ctl.id,
                title=f"{name} — evidence",
                url=f"https://files.{pop.home.domain}/compliance/{code.lower().replace('(', '').replace(')', '')}.pdf",
                uploaded_by=owners[k % len(owners)].email,
                expires_on=today - dt.timedelta(days=10) if expired else today + dt.timedelta(days=120 + k),
                created_at=s.ago(days=250 if expired else 60),
            )
    cats = ("infrastructure", "saas", "payments", "professional_services", "hardware")
    for k, company in enumerate([c for c in pop.companies if not c.home][:10]):
        risk: Risk | None = (None, "low", "medium", "high", "critical")[k % 5]
        reviewed = risk is not None and k != 8
        status: VendorStatus = ("approved" if k % 7 else "rejected") if reviewed else "not_reviewed"
        last = today - dt.timedelta(days=30 + 40 * k) if reviewed else None
        s.create(
            Vendor,
            name=company.name,
            domain=company.domain,
            category=cats[k % len(cats)],
            owner_email=owners[k % len(owners)].email,
            risk_level=risk if reviewed else None,
            status=status,
            soc2_report_url=f"https://trust.{company.domain}/soc2.pdf" if risk in ("high", "critical") else None,
            last_review_date=last,
            next_review_due=last + dt.timedelta(days=REVIEW_EVERY[risk]) if last and risk else None,
            updated_at=s.ago(days=30),
        )
    for k, p in enumerate(pop.employees):
        done = TASKS if k % 5 else TASKS[: k % 4]
        if k % 9 == 4:
            done = TASKS[:3]
        hired = p.hire_date or today - dt.timedelta(days=100)
        s.create(
            Person,
            email=p.email,
            name=p.name,
            start_date=hired,
            status="offboarded" if k == 7 else ("active" if len(done) == 4 else "onboarding"),
            completed=tuple(
                TaskDone(task=t, completed_on=min(today, hired + dt.timedelta(days=3 + i))) for i, t in enumerate(done)
            ),
            updated_at=s.ago(days=20),
        )
