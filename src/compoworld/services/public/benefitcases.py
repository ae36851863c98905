"""Harbor Benefits: public benefits case management: households, applications, verifications and eligibility.

Modeled on IBM Cúram (Merative Social Program Management) and Salesforce Public
Sector Solutions benefit management: households with their size and monthly
income, applications for SNAP, Medicaid, TANF or LIHEAP (submitted →
pending_verification → approved or denied, or withdrawn), verification
requests for income, identity, residency or household composition that are due
ten days after they are sent, eligibility determinations against the program's
income limit (a percentage of the federal poverty guideline for the household
size) that grant a monthly benefit for a certification period, notices sent to
the household for every decision, and recertification that opens a new
application in the last 45 days of a certification period. A determination
refuses to run while a verification is outstanding; one open application per
household and program.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, Email, FirstName, IdOf, LastName, Phone, PostalCode, Text
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "benefitcases",
    title="Harbor Benefits",
    category="public_benefits",
    modeled_on="IBM Cúram / Merative Social Program Management and Salesforce Public Sector Solutions: "
    "households, benefit applications, verification requests, eligibility determinations, notices, "
    "recertification",
    description="The county human services agency's benefit cases: households applying for SNAP, Medicaid, TANF "
    "and energy assistance, the verifications caseworkers request, eligibility decisions with monthly "
    "benefits and certification periods, the notices sent, and recertifications.",
)

HouseholdId = Annotated[str, IdOf("benefitcases.household")]
ApplicationId = Annotated[str, IdOf("benefitcases.application")]
VerificationId = Annotated[str, IdOf("benefitcases.verification")]
DeterminationId = Annotated[str, IdOf("benefitcases.determination")]
NoticeId = Annotated[str, IdOf("benefitcases.notice")]

AppNumber = Annotated[str, StringConstraints(pattern=r"^APP-\d{6}$")]
"""The application number, e.g. APP-004215."""
HouseholdSize = Annotated[int, Field(ge=1, le=15)]

Program = Literal["snap", "medicaid", "tanf", "liheap"]
AppStatus = Literal["submitted", "pending_verification", "approved", "denied", "withdrawn"]
Item = Literal["income", "identity", "residency", "household_composition"]
VerificationStatus = Literal["requested", "received", "waived"]
NoticeKind = Literal["verification_request", "approval", "denial", "recertification_due", "closure"]

LIMIT_PCT: dict[str, int] = {"snap": 130, "medicaid": 138, "tanf": 50, "liheap": 150}
"""Gross monthly income limit per program, as a percent of the poverty guideline."""
CERT_MONTHS: dict[str, int] = {"snap": 12, "medicaid": 12, "tanf": 6, "liheap": 12}
SNAP_MAX = (29200, 53600, 76800, 97500, 115800, 139000, 153600, 175600)
VERIFY_DAYS = 10
RECERT_WINDOW = dt.timedelta(days=45)
OPEN: tuple[AppStatus, ...] = ("submitted", "pending_verification")


class Household(Timestamped):
    """A household: the people who buy and prepare food together."""

    id: HouseholdId
    head_first_name: FirstName
    """Head of household's first name."""
    head_last_name: LastName
    """Head of household's last name."""
    email: Email
    """Where notices go (unique)."""
    phone: Phone | None = None
    """Phone."""
    street: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """Street address."""
    city: City
    """City."""
    postal_code: PostalCode
    """ZIP code."""
    size: HouseholdSize
    """People in the household."""
    monthly_income_cents: Cents
    """Gross monthly income."""


class Application(Timestamped):
    """An application for one program."""

    id: ApplicationId
    application_number: AppNumber
    """The application number."""
    household_id: HouseholdId
    """The household."""
    email: Email
    """The household's e-mail."""
    program: Program
    """snap, medicaid, tanf or liheap."""
    status: AppStatus = "submitted"
    """submitted, pending_verification, approved, denied or withdrawn."""
    recertification: bool = False
    """Whether it renews an earlier determination."""
    caseworker_email: Email | None = None
    """The assigned caseworker."""
    submitted_on: Date
    """When it was filed."""
    decided_on: Date | None = None
    """When it was approved or denied."""
    denial_reason: str | None = None
    """Why it was denied."""


class Verification(Timestamped):
    """A verification request: a document the household must provide."""

    id: VerificationId
    application_id: ApplicationId
    """The application."""
    item: Item
    """income, identity, residency or household_composition."""
    status: VerificationStatus = "requested"
    """requested, received or waived."""
    due_on: Date
    """Ten days after it was requested."""
    received_on: Date | None = None
    """When the document came in."""
    note: Text = ""
    """What was asked for or received."""


class Determination(Created):
    """An eligibility decision on an application."""

    id: DeterminationId
    application_id: ApplicationId
    """The application."""
    household_id: HouseholdId
    """The household."""
    program: Program
    """The program."""
    eligible: bool
    """Whether the household qualifies."""
    income_limit_cents: int
    """The program's gross monthly income limit for the household size."""
    monthly_benefit_cents: int = 0
    """The monthly benefit (SNAP and TANF; 0 for coverage programs)."""
    certification_start: Date
    """First day of the certification period."""
    certification_end: Date | None = None
    """Last day (eligible only)."""
    status: Literal["active", "closed", "denied"] = "active"
    """active (benefits issue), closed, or denied."""


class Notice(Created):
    """A notice sent to a household."""

    id: NoticeId
    household_id: HouseholdId
    """The household."""
    application_id: ApplicationId
    """The application."""
    email: Email
    """Where it went."""
    kind: NoticeKind
    """verification_request, approval, denial, recertification_due or closure."""
    body: Text
    """What it says."""


class Estimate(Value):
    """A screening estimate for a program."""

    program: Program
    """The program."""
    household_size: int
    """People in the household."""
    income_limit_cents: int
    """The gross monthly income limit."""
    likely_eligible: bool
    """Whether the income is under the limit."""
    estimated_benefit_cents: int
    """Estimated monthly benefit."""


# -- rules ------------------------------------------------------------------------------------


def _limit(program: str, size: int) -> int:
    """Monthly income limit in cents: a percent of the poverty guideline ($15,060 + $5,380 a person)."""
    annual = 1506000 + 538000 * (size - 1)
    return annual * LIMIT_PCT[program] // 100 // 12


def _benefit(program: str, size: int, income: int) -> int:
    if program == "snap":
        top = SNAP_MAX[size - 1] if size <= len(SNAP_MAX) else SNAP_MAX[-1] + 22000 * (size - len(SNAP_MAX))
        return max(2300 if size <= 2 else 0, top - income * 3 // 10)
    if program == "tanf":
        return max(0, 30000 + 9000 * (size - 1) - income // 2)
    return 0


def _notice(ctx: Ctx, app: Application, kind: NoticeKind, body: str) -> None:
    ctx.create(Notice, household_id=app.household_id, application_id=app.id, email=app.email, kind=kind, body=body)


def _guard_household(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.email != old.email:
        dup = ctx.first(Household, email=new.email)
        if dup is not None and dup.id != new.id:
            raise Conflict(f"household {dup.id} uses {new.email}", field="email", hint="apply for that household")


def _guard_application(ctx: Ctx, new: Any, old: Any) -> None:
    if new.caseworker_email is not None and new.caseworker_email != old.caseworker_email:
        require_employee(ctx, new.caseworker_email, field="caseworker_email", hint="assign an agency caseworker")
    if new.status == "withdrawn" and old.status != "withdrawn":
        for v in ctx.where(Verification, application_id=new.id, status="requested"):
            ctx.update(v, status="waived", note="application withdrawn")


def _open_app(ctx: Ctx, application_id: str) -> Application:
    app = ctx.get(Application, application_id, field="application_id")
    if app.status not in OPEN:
        raise RuleViolation(
            f"application {app.application_number} is {app.status}", field="application_id", hint="it is decided"
        )
    return app


households = service.resource(
    Household,
    name="household",
    plural="households",
    prefix="hh",
    create=(
        "head_first_name",
        "head_last_name",
        "email",
        "phone",
        "street",
        "city",
        "postal_code",
        "size",
        "monthly_income_cents",
    ),
    filters=("email", "head_last_name", "city", "size"),
    search=("head_first_name", "head_last_name", "street"),
    update=("email", "phone", "street", "city", "postal_code", "size", "monthly_income_cents"),
    delete=False,
    guard_create=_guard_household,
    guard_update=_guard_household,
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=False,
    filters=("application_number", "household_id", "email", "program", "status", "caseworker_email"),
    update=("caseworker_email",),
    delete=False,
    transitions={
        "withdraw": Transition("status", OPEN, "withdrawn", "withdraw the benefit application", destructive=True),
    },
    guard_update=_guard_application,
)
verifications = service.resource(
    Verification,
    name="verification",
    plural="verifications",
    prefix="vrf",
    create=False,
    filters=("application_id", "item", "status", "due_on"),
    delete=False,
)
determinations = service.resource(
    Determination,
    name="determination",
    plural="determinations",
    prefix="det",
    create=False,
    filters=("application_id", "household_id", "program", "eligible", "status"),
    delete=False,
)
notices = service.resource(
    Notice,
    name="notice",
    plural="notices",
    prefix="ntc",
    create=False,
    filters=("household_id", "application_id", "email", "kind"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    for h in ctx.scan(Household):
        for program in ("liheap", "tanf", "medicaid", "snap"):
            apps = ctx.where(Application, household_id=h.id, program=program)
            if not [a for a in apps if a.status in OPEN]:
                return {"email": h.email, "program": program}
    return None


@service.tool(intent="submit a benefit application for the household", write=True, example=_example_apply)
def submit_application(ctx: Ctx, email: Email, program: Program) -> Application:
    """File an application for a program; one open application per household and program.

    Args:
        email: The household's e-mail.
        program: snap, medicaid, tanf or liheap.
    """
    h = ctx.first(Household, email=email)
    if h is None:
        raise RuleViolation(f"no household uses {email}", field="email", hint="create the household first")
    for a in ctx.where(Application, household_id=h.id, program=program):
        if a.status in OPEN:
            raise Conflict(
                f"{a.application_number} for {program} is already {a.status}", field="program", hint="work that one"
            )
    return ctx.create(
        Application,
        application_number=f"APP-{5000 + ctx.next_number(Application, 'number'):06d}",
        household_id=h.id,
        email=h.email,
        program=program,
        submitted_on=ctx.today(),
    )


@service.tool(
    intent="request a verification document from the household",
    write=True,
    example=first_example(Application, "application_id", where={"status": "submitted"}, item="residency"),
)
def request_verification(ctx: Ctx, application_id: ApplicationId, item: Item, note: Text = "") -> Verification:
    """Ask the household for a document, due in ten days; the application waits for it.

    Args:
        application_id: The application.
        item: income, identity, residency or household_composition.
        note: What exactly is needed.
    """
    app = _open_app(ctx, application_id)
    for v in ctx.where(Verification, application_id=app.id, item=item):
        if v.status == "requested":
            raise Conflict(f"{item} is already requested ({v.id})", field="item", hint="wait for it or waive it")
    due = ctx.today() + dt.timedelta(days=VERIFY_DAYS)
    ctx.update(app, status="pending_verification")
    _notice(ctx, app, "verification_request", f"Please provide proof of {item.replace('_', ' ')} by {due}.")
    return ctx.create(Verification, application_id=app.id, item=item, due_on=due, note=note)


def _settle(ctx: Ctx, verification_id: str, status: VerificationStatus, note: str) -> Verification:
    v = ctx.get(Verification, verification_id, field="verification_id")
    if v.status != "requested":
        raise Conflict(f"verification {v.id} is {v.status}", field="verification_id", hint="nothing is outstanding")
    app = _open_app(ctx, v.application_id)
    done = ctx.update(v, status=status, received_on=ctx.today() if status == "received" else None, note=note)
    if not ctx.where(Verification, application_id=app.id, status="requested"):
        ctx.update(app, status="submitted")
    return done


@service.tool(
    intent="record the verification document as received",
    write=True,
    example=first_example(Verification, "verification_id", where={"status": "requested"}),
)
def receive_verification(ctx: Ctx, verification_id: VerificationId, note: Text = "") -> Verification:
    """Record that the household provided the document; late documents are still accepted before a decision.

    Args:
        verification_id: The request.
        note: What was received.
    """
    return _settle(ctx, verification_id, "received", note)


@service.tool(
    intent="waive the verification",
    write=True,
    example=first_example(Verification, "verification_id", where={"status": "requested"}, reason="Data match"),
)
def waive_verification(ctx: Ctx, verification_id: VerificationId, reason: Text) -> Verification:
    """Waive a requested document (verified through a data match instead).

    Args:
        verification_id: The request.
        reason: Why it is waived (required).
    """
    if not reason.strip():
        raise RuleViolation("a waiver needs a reason", field="reason", hint="say how it was verified")
    return _settle(ctx, verification_id, "waived", reason.strip())


@service.tool(
    intent="determine the household's eligibility",
    write=True,
    example=first_example(Application, "application_id", where={"status": "submitted"}),
)
def determine_eligibility(ctx: Ctx, application_id: ApplicationId) -> Determination:
    """Decide an application against the program's income limit; approval grants a benefit for a period.

    Args:
        application_id: The application; no verification may be outstanding.
    """
    app = _open_app(ctx, application_id)
    waiting = ctx.where(Verification, application_id=app.id, status="requested")
    if waiting:
        raise RuleViolation(
            f"{len(waiting)} verification(s) outstanding, first due {min(v.due_on for v in waiting)}",
            field="application_id",
            hint="receive or waive them first",
        )
    h = ctx.get(Household, app.household_id)
    limit = _limit(app.program, h.size)
    eligible = h.monthly_income_cents <= limit
    today = ctx.today()
    end = add_months(today, CERT_MONTHS[app.program]) - dt.timedelta(days=1) if eligible else None
    if eligible:
        for d in ctx.where(Determination, household_id=h.id, program=app.program, status="active"):
            ctx.update(d, status="closed")
        ctx.update(app, status="approved", decided_on=today)
        _notice(ctx, app, "approval", f"Your {app.program.upper()} benefits are approved through {end}.")
    else:
        reason = f"gross income {h.monthly_income_cents / 100:.2f} is above the limit {limit / 100:.2f}"
        ctx.update(app, status="denied", decided_on=today, denial_reason=reason)
        _notice(ctx, app, "denial", f"Your {app.program.upper()} application is denied: {reason}.")
    return ctx.create(
        Determination,
        application_id=app.id,
        household_id=h.id,
        program=app.program,
        eligible=eligible,
        income_limit_cents=limit,
        monthly_benefit_cents=_benefit(app.program, h.size, h.monthly_income_cents) if eligible else 0,
        certification_start=today,
        certification_end=end,
        status="active" if eligible else "denied",
    )


@service.tool(
    intent="start the household's recertification",
    write=True,
    example=first_example(
        Determination,
        "determination_id",
        where={"status": "active"},
        match=lambda ctx, d: d.certification_end is not None and d.certification_end - ctx.today() <= RECERT_WINDOW,
    ),
)
def start_recertification(ctx: Ctx, determination_id: DeterminationId) -> Application:
    """Open the renewal application of an active determination in the last 45 days of its period.

    Args:
        determination_id: The active determination.
    """
    d = ctx.get(Determination, determination_id, field="determination_id")
    if d.status != "active" or d.certification_end is None:
        raise RuleViolation(f"determination {d.id} is {d.status}", field="determination_id", hint="apply anew")
    opens = d.certification_end - RECERT_WINDOW
    if ctx.today() < opens:
        raise RuleViolation(
            f"recertification opens on {opens}", field="determination_id", hint="wait for the renewal window"
        )
    for a in ctx.where(Application, household_id=d.household_id, program=d.program):
        if a.status in OPEN:
            raise Conflict(f"{a.application_number} is already open", field="determination_id", hint="work that one")
    h = ctx.get(Household, d.household_id)
    app = ctx.create(
        Application,
        application_number=f"APP-{5000 + ctx.next_number(Application, 'number'):06d}",
        household_id=h.id,
        email=h.email,
        program=d.program,
        recertification=True,
        submitted_on=ctx.today(),
    )
    _notice(ctx, app, "recertification_due", f"Your {d.program.upper()} benefits end {d.certification_end}; renew now.")
    return app


@service.tool(
    intent="close the benefit case",
    write=True,
    example=first_example(Determination, "determination_id", where={"status": "active"}, reason="Moved out of county"),
)
def close_determination(ctx: Ctx, determination_id: DeterminationId, reason: Text) -> Determination:
    """Stop an active determination's benefits early (moved away, asked to close); a closure notice goes out.

    Args:
        determination_id: The active determination.
        reason: Why (required).
    """
    d = ctx.get(Determination, determination_id, field="determination_id")
    if d.status != "active":
        raise Conflict(f"determination {d.id} is {d.status}", field="determination_id", hint="nothing to close")
    if not reason.strip():
        raise RuleViolation("a closure needs a reason", field="reason", hint="say why benefits stop")
    _notice(ctx, ctx.get(Application, d.application_id), "closure", f"Your benefits close: {reason.strip()}.")
    return ctx.update(d, status="closed", certification_end=ctx.today())


@service.tool(
    intent="screen the household for the program",
    example=fixed_example(program="snap", household_size=3, monthly_income_cents=180000),
)
def screen_eligibility(
    ctx: Ctx, program: Program, household_size: HouseholdSize, monthly_income_cents: Cents
) -> Estimate:
    """A pre-screening estimate: the program's income limit for the size and the likely monthly benefit.

    Args:
        program: snap, medicaid, tanf or liheap.
        household_size: People in the household.
        monthly_income_cents: Gross monthly income.
    """
    limit = _limit(program, household_size)
    ok = monthly_income_cents <= limit
    return Estimate(
        program=program,
        household_size=household_size,
        income_limit_cents=limit,
        likely_eligible=ok,
        estimated_benefit_cents=_benefit(program, household_size, monthly_income_cents) if ok else 0,
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Households from the world's residents, applications in every state, determinations and notices."""
    pop = s.population
    today = s.now.date()
    workers = pop.staff("People", "Support", "Operations", fallback=4)
    homes = []
    for k, p in enumerate(pop.consumers[:24]):
        size = 1 + k % 5
        homes.append(
            s.create(
                Household,
                head_first_name=p.first_name,
                head_last_name=p.last_name,
                email=p.email,
                phone=p.phone,
                street=p.address.street,
                city=p.address.city,
                postal_code=p.address.postal_code,
                size=size,
                monthly_income_cents=_limit("snap", size) * (40 + 17 * k % 90) // 100,
                created_at=s.ago(days=400 - 9 * k),
                updated_at=s.ago(days=20),
            )
        )
    states: tuple[AppStatus, ...] = ("submitted", "pending_verification", "approved", "denied", "withdrawn", "approved")
    programs: tuple[Program, ...] = ("snap", "medicaid", "snap", "liheap", "tanf", "medicaid")
    for k, h in enumerate(homes):
        status, program = states[k % 6], programs[(k + k // 6) % 6]
        filed = today - dt.timedelta(days=350 if k == 2 else 5 + 27 * (k % 13))
        decided = filed + dt.timedelta(days=20) if status in ("approved", "denied") else None
        app = s.create(
            Application,
            application_number=f"APP-{1000 + 37 * k:06d}",
            household_id=h.id,
            email=h.email,
            program=program,
            status=status,
            caseworker_email=workers[k % len(workers)].email if k % 4 else None,
            submitted_on=filed,
            decided_on=decided,
            denial_reason="gross income above the limit" if status == "denied" else None,
            created_at=s.ago(days=(today - filed).days),
            updated_at=s.ago(days=2),
        )
        if status == "pending_verification":
            for j, item in enumerate(("income", "residency")[: 1 + k % 2]):
                s.create(
                    Verification,
                    application_id=app.id,
                    item=item,
                    due_on=today + dt.timedelta(days=4 - 6 * j),
                    note="Last 30 days of pay stubs" if item == "income" else "Lease or utility bill",
                    created_at=s.ago(days=6),
                    updated_at=s.ago(days=6),
                )
        if decided is not None:
            eligible = status == "approved"
            start = decided
            end = add_months(start, CERT_MONTHS[program]) - dt.timedelta(days=1) if eligible else None
            s.create(
                Determination,
                application_id=app.id,
                household_id=h.id,
                program=program,
                eligible=eligible,
                income_limit_cents=_limit(program, h.size),
                monthly_benefit_cents=_benefit(program, h.size, h.monthly_income_cents) if eligible else 0,
                certification_start=start,
                certification_end=end,
                status="active" if eligible else "denied",
                created_at=s.ago(days=(today - decided).days),
            )
            s.create(
                Notice,
                household_id=h.id,
                application_id=app.id,
                email=h.email,
                kind="approval" if eligible else "denial",
                body=f"Your {program.upper()} application is {'approved' if eligible else 'denied'}.",
                created_at=s.ago(days=(today - decided).days),
            )
