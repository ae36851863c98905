"""Keystone Grants: grant programs with budgets and deadlines, applications, reviews and scores, awards paid in tranches.

Modeled on the Submittable API v4 (projects with deadlines, submissions and
their statuses, reviewers, review assignments and scores, award funds) and
the Fluxx Grantmaking API (programs with budgets, requests moving through
draft, submitted, under review, granted or declined, grant payments on a
schedule). An application is a draft until submitted, which must happen
while its program is open and by its deadline, asking for no more than the
program's largest award. Reviewers are assigned to applications under review;
nobody reviews an application of their own organisation or one they applied
for, and a reviewer scores an application once, from 1 to 10. An award needs
at least two completed reviews, cannot exceed what was requested nor the
program's remaining budget, and is paid in one to four tranches that are paid
in order, never before the previous one.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "grants",
    title="Keystone Grants",
    category="grant_management",
    modeled_on="Submittable API v4 (projects with deadlines, submissions, reviewers, review assignments and "
    "scores, award funds) and the Fluxx Grantmaking API (programs with budgets, grant requests and their "
    "workflow, grant payment schedules)",
    description="The foundation's grantmaking: programs with budgets and deadlines, applications from "
    "organisations, reviewer assignments with conflict-of-interest checks and scores, awards within the "
    "remaining budget, and grant payments in tranches.",
)

ProgramId = Annotated[str, IdOf("grants.program")]
ApplicationId = Annotated[str, IdOf("grants.application")]
ReviewerId = Annotated[str, IdOf("grants.reviewer")]
ReviewId = Annotated[str, IdOf("grants.review")]
TrancheId = Annotated[str, IdOf("grants.tranche")]

AppStatus = Literal["draft", "submitted", "under_review", "awarded", "declined"]
Summary = Annotated[str, StringConstraints(max_length=5000)]

MIN_REVIEWS = 2
"""Completed reviews an award needs."""
MAX_TRANCHES = 4
TRANCHE_GAP_DAYS = 90
"""Days between scheduled tranches."""


class Program(Timestamped):
    """A grant program (a fund with a budget, a deadline and a largest award)."""

    id: ProgramId
    name: Title
    """Program name."""
    officer_email: Email
    """The program officer (staff)."""
    budget_cents: Cents
    """The program's total budget, USD cents."""
    max_award_cents: Cents
    """The largest single award (and request)."""
    deadline: Date
    """Last day applications can be submitted."""
    status: Literal["open", "closed"] = "open"
    """open or closed (no more submissions)."""


class Application(Timestamped):
    """An organisation's application to a program."""

    id: ApplicationId
    program_id: ProgramId
    """The program."""
    organization_name: CompanyName
    """The applying organisation."""
    contact_name: PersonName
    """Who applies for it."""
    contact_email: Email
    """Their e-mail."""
    title: Title
    """Project title."""
    summary: Summary = ""
    """Project summary."""
    requested_cents: Cents
    """Amount requested, USD cents."""
    status: AppStatus = "draft"
    """draft, submitted, under_review, awarded or declined."""
    submitted_at: DateTime | None = None
    """When it was submitted."""
    awarded_cents: Cents = 0
    """Amount awarded."""


class Reviewer(Created):
    """Someone who scores applications: staff or an outside expert."""

    id: ReviewerId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique among reviewers."""
    organization_name: CompanyName
    """Their organisation (conflicts of interest are checked against it)."""


class Review(Timestamped):
    """A reviewer's assignment to an application and their score."""

    id: ReviewId
    application_id: ApplicationId
    """The application."""
    reviewer_id: ReviewerId
    """The reviewer."""
    reviewer_email: Email
    """The reviewer's e-mail."""
    status: Literal["assigned", "completed"] = "assigned"
    """assigned or completed."""
    score: int | None = None
    """1 (weak) to 10 (outstanding)."""
    comment: Text = ""
    """The reviewer's comment."""


class Tranche(Record):
    """One scheduled payment of an award."""

    id: TrancheId
    application_id: ApplicationId
    """The awarded application."""
    program_id: ProgramId
    """Its program."""
    payee_name: CompanyName
    """The grantee organisation."""
    number: int
    """1, 2, 3 … in payment order."""
    amount_cents: Cents
    """Amount, USD cents."""
    due_on: Date
    """When it is due."""
    status: Literal["scheduled", "paid"] = "scheduled"
    """scheduled or paid."""
    paid_on: Date | None = None
    """When it was paid."""


class Budget(Value):
    """Where a program's budget stands."""

    program_id: ProgramId
    """The program."""
    budget_cents: Cents
    """Total budget."""
    awarded_cents: Cents
    """Committed in awards."""
    remaining_cents: Cents
    """Still available to award."""
    paid_cents: Cents
    """Paid out in tranches."""
    applications_by_status: dict[str, int]
    """How many applications are in each status."""


# -- guards -----------------------------------------------------------------------------------


def _guard_program(ctx: Ctx, new: Any, old: Any) -> None:
    if new.max_award_cents > new.budget_cents or new.max_award_cents == 0:
        raise RuleViolation(
            "the largest award must be positive and within the budget",
            field="max_award_cents",
            hint="lower it to at most the budget",
        )
    if old is None and new.deadline < ctx.today():
        raise RuleViolation("the deadline has passed", field="deadline", hint="pick today or a later day")


def _guard_application(ctx: Ctx, new: Any, old: Any) -> None:
    program = ctx.get(Program, new.program_id, field="program_id")
    if program.status != "open":
        raise RuleViolation(f"{program.name} is closed", field="program_id", hint="apply to an open program")
    if new.requested_cents == 0:
        raise RuleViolation("the request must be positive", field="requested_cents", hint="ask for an amount")


def _guard_reviewer(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Reviewer, email=new.email):
        if other.id != new.id:
            raise Conflict(f"{new.email} is already a reviewer ({other.id})", field="email", hint="use that reviewer")


programs = service.resource(
    Program,
    name="program",
    plural="programs",
    prefix="prg",
    create=("name", "officer_email", "budget_cents", "max_award_cents", "deadline"),
    get=False,
    filters=("status", "officer_email"),
    search=("name",),
    delete=False,
    transitions={
        "close": Transition(
            "status", ("open",), "closed", "close the grant program", description="Stop taking submissions."
        )
    },
    guard_create=_guard_program,
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=("program_id", "organization_name", "contact_name", "contact_email", "title", "summary", "requested_cents"),
    filters=("program_id", "status", "contact_email", "organization_name"),
    search=("title", "organization_name", "summary"),
    delete=False,
    transitions={
        "review": Transition(
            "status",
            ("submitted",),
            "under_review",
            "start reviewing the application",
            description="Move a submitted application into review, where reviewers can be assigned.",
        ),
        "decline": Transition(
            "status",
            ("submitted", "under_review"),
            "declined",
            "decline the application",
            description="Decline the application.",
            destructive=True,
        ),
    },
    guard_create=_guard_application,
)
reviewers = service.resource(
    Reviewer,
    name="reviewer",
    plural="reviewers",
    prefix="rvw",
    get=False,
    filters=("email", "organization_name"),
    search=("name",),
    delete=False,
    guard_create=_guard_reviewer,
)
reviews = service.resource(
    Review,
    name="review",
    plural="reviews",
    prefix="rev",
    create=False,
    get=False,
    filters=("application_id", "reviewer_id", "status"),
    delete=False,
)
tranches = service.resource(
    Tranche,
    name="tranche",
    plural="tranches",
    prefix="pay",
    create=False,
    get=False,
    filters=("application_id", "program_id", "status"),
    delete=False,
)


# -- rules ------------------------------------------------------------------------------------


def remaining(ctx: Ctx, program: Program) -> int:
    """What the program can still award."""
    awarded = sum(a.awarded_cents for a in ctx.where(Application, program_id=program.id, status="awarded"))
    return program.budget_cents - awarded


def split(amount: int, parts: int) -> list[int]:
    """``amount`` in ``parts`` equal tranches, the remainder on the first."""
    base = amount // parts
    return [base + amount - base * parts] + [base] * (parts - 1)


def _conflicted(reviewer: Reviewer, app: Application) -> bool:
    return reviewer.email == app.contact_email or fold(reviewer.organization_name) == fold(app.organization_name)


def _completed(ctx: Ctx, app: Application) -> list[Review]:
    return ctx.where(Review, application_id=app.id, status="completed")


# -- examples ---------------------------------------------------------------------------------


def _submittable(ctx: Ctx, app: Application) -> bool:
    program = ctx.get(Program, app.program_id)
    return program.status == "open" and program.deadline >= ctx.today()


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="under_review"):
        taken = {r.reviewer_id for r in ctx.where(Review, application_id=app.id)}
        for reviewer in ctx.scan(Reviewer):
            if reviewer.id not in taken and not _conflicted(reviewer, app):
                return {"application_id": app.id, "reviewer_id": reviewer.id}
    return None


def _example_score(ctx: Ctx) -> dict[str, Any] | None:
    for review in ctx.where(Review, status="assigned"):
        if ctx.get(Application, review.application_id).status == "under_review":
            return {"review_id": review.id, "score": 8, "comment": "Clear plan and budget."}
    return None


def _example_award(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="under_review"):
        program = ctx.get(Program, app.program_id)
        if len(_completed(ctx, app)) >= MIN_REVIEWS and app.requested_cents <= remaining(ctx, program):
            return {"application_id": app.id, "amount_cents": app.requested_cents, "tranches": 2}
    return None


def _payable(ctx: Ctx, t: Tranche) -> bool:
    return t.number == 1 or all(
        p.status == "paid" for p in ctx.where(Tranche, application_id=t.application_id) if p.number < t.number
    )


# -- tools ------------------------------------------------------------------------------------


@service.tool(
    intent="submit the grant application",
    write=True,
    example=first_example(Application, "application_id", where={"status": "draft"}, match=_submittable),
)
def submit_application(ctx: Ctx, application_id: ApplicationId) -> Application:
    """Submit a draft: its program must be open and the deadline not passed; it may ask for at most the largest award.

    Args:
        application_id: The draft.
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status != "draft":
        raise Conflict(f"the application is already {app.status}", field="application_id", hint="nothing to submit")
    program = ctx.get(Program, app.program_id)
    if program.status != "open" or program.deadline < ctx.today():
        raise RuleViolation(
            f"{program.name} closed for submissions on {program.deadline}",
            field="application_id",
            hint="apply to a program that is still open",
        )
    if app.requested_cents > program.max_award_cents:
        raise RuleViolation(
            f"{program.name} awards at most {program.max_award_cents} cents; the application asks for "
            f"{app.requested_cents}",
            field="application_id",
            hint=f"start a new draft asking for at most {program.max_award_cents}",
        )
    return ctx.update(app, status="submitted", submitted_at=ctx.now())


@service.tool(intent="assign a reviewer to the application", write=True, example=_example_assign)
def assign_reviewer(ctx: Ctx, application_id: ApplicationId, reviewer_id: ReviewerId) -> Review:
    """Assign a reviewer to an application under review; nobody reviews their own organisation's application.

    Args:
        application_id: The application.
        reviewer_id: The reviewer.
    """
    app = ctx.get(Application, application_id, field="application_id")
    reviewer = ctx.get(Reviewer, reviewer_id, field="reviewer_id")
    if app.status != "under_review":
        raise RuleViolation(
            f"the application is {app.status}; reviewers are assigned to applications under review",
            field="application_id",
            hint="start its review with grants__review_application",
        )
    if _conflicted(reviewer, app):
        raise RuleViolation(
            f"conflict of interest: {reviewer.name} ({reviewer.organization_name}) cannot review "
            f"{app.organization_name}'s application",
            field="reviewer_id",
            hint="assign a reviewer from another organisation",
        )
    if ctx.first(Review, application_id=app.id, reviewer_id=reviewer.id) is not None:
        raise Conflict(f"{reviewer.name} is already assigned", field="reviewer_id", hint="assign someone else")
    return ctx.create(Review, application_id=app.id, reviewer_id=reviewer.id, reviewer_email=reviewer.email)


@service.tool(intent="score the application", write=True, example=_example_score)
def submit_score(
    ctx: Ctx, review_id: ReviewId, score: Annotated[int, Field(ge=1, le=10)], comment: Text = ""
) -> Review:
    """Record an assigned reviewer's score (1-10), once, while the application is under review.

    Args:
        review_id: The review assignment.
        score: 1 (weak) to 10 (outstanding).
        comment: The reviewer's comment.
    """
    review = ctx.get(Review, review_id, field="review_id")
    if review.status == "completed":
        raise Conflict(f"the review is already scored ({review.score})", field="review_id", hint="nothing to do")
    app = ctx.get(Application, review.application_id)
    if app.status != "under_review":
        raise RuleViolation(
            f"the application is {app.status}", field="review_id", hint="scores are given while under review"
        )
    return ctx.update(review, status="completed", score=score, comment=comment)


@service.tool(intent="award the grant", write=True, example=_example_award)
def award_application(
    ctx: Ctx,
    application_id: ApplicationId,
    amount_cents: Cents,
    tranches: Annotated[int, Field(ge=1, le=MAX_TRANCHES)] = 1,
) -> Application:
    """Award an application under review and schedule its payment in tranches 90 days apart, the first due today.

    It needs at least two completed reviews; the amount cannot exceed the request
    nor the program's remaining budget.

    Args:
        application_id: The application.
        amount_cents: The award, USD cents.
        tranches: How many payments (1-4).
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status != "under_review":
        raise RuleViolation(
            f"the application is {app.status}",
            field="application_id",
            hint="only applications under review are awarded",
        )
    done = _completed(ctx, app)
    if len(done) < MIN_REVIEWS:
        raise RuleViolation(
            f"the application has {len(done)} completed review(s); an award needs {MIN_REVIEWS}",
            field="application_id",
            hint="assign reviewers and collect their scores",
        )
    if amount_cents == 0 or amount_cents > app.requested_cents:
        raise RuleViolation(
            f"the award must be positive and at most the {app.requested_cents} cents requested",
            field="amount_cents",
            hint="lower the amount",
        )
    program = ctx.get(Program, app.program_id)
    left = remaining(ctx, program)
    if amount_cents > left:
        raise RuleViolation(
            f"{program.name} has {left} cents left to award", field="amount_cents", hint=f"award at most {left}"
        )
    if amount_cents < tranches:
        raise RuleViolation("too many tranches for the amount", field="tranches", hint="use fewer tranches")
    for n, part in enumerate(split(amount_cents, tranches), start=1):
        ctx.create(
            Tranche,
            application_id=app.id,
            program_id=program.id,
            payee_name=app.organization_name,
            number=n,
            amount_cents=part,
            due_on=ctx.today() + dt.timedelta(days=TRANCHE_GAP_DAYS * (n - 1)),
        )
    return ctx.update(app, status="awarded", awarded_cents=amount_cents)


@service.tool(
    intent="pay the grant tranche",
    write=True,
    example=first_example(Tranche, "tranche_id", where={"status": "scheduled"}, match=_payable),
)
def pay_tranche(ctx: Ctx, tranche_id: TrancheId) -> Tranche:
    """Pay a scheduled tranche; tranches are paid in order.

    Args:
        tranche_id: The tranche.
    """
    tranche = ctx.get(Tranche, tranche_id, field="tranche_id")
    if tranche.status == "paid":
        raise Conflict(f"tranche {tranche.number} was paid on {tranche.paid_on}", field="tranche_id", hint="done")
    if not _payable(ctx, tranche):
        raise RuleViolation(
            f"tranche {tranche.number} follows unpaid earlier tranches",
            field="tranche_id",
            hint="pay the earlier tranches first",
        )
    return ctx.update(tranche, status="paid", paid_on=ctx.today())


@service.tool(intent="see the program's budget", example=first_example(Program, "program_id"))
def program_budget(ctx: Ctx, program_id: ProgramId) -> Budget:
    """A program's budget: awarded, remaining, paid, and applications by status.

    Args:
        program_id: The program.
    """
    program = ctx.get(Program, program_id, field="program_id")
    apps = ctx.where(Application, program_id=program.id)
    counts: dict[str, int] = {}
    for a in apps:
        counts[a.status] = counts.get(a.status, 0) + 1
    left = remaining(ctx, program)
    return Budget(
        program_id=program.id,
        budget_cents=program.budget_cents,
        awarded_cents=program.budget_cents - left,
        remaining_cents=left,
        paid_cents=sum(t.amount_cents for t in ctx.where(Tranche, program_id=program.id, status="paid")),
        applications_by_status=dict(sorted(counts.items())),
    )


# -- seed -------------------------------------------------------------------------------------

PROGRAMS: tuple[tuple[str, int, int, int, str], ...] = (
    ("Community Innovation Fund", 50_000_000, 7_500_000, 21, "open"),
    ("STEM Education Grants", 30_000_000, 10_000_000, -10, "open"),
    ("Arts Micro-grants 2025", 5_000_000, 500_000, -120, "closed"),
)
"""Name, budget, largest award, deadline (days from today) and status."""
PROJECTS = (
    "Neighbourhood repair café",
    "Coding club for girls",
    "Solar panels for the youth centre",
    "Mobile library van",
    "Community garden irrigation",
    "Robotics kits for middle schools",
    "Teacher training in data science",
    "Public mural programme",
    "Local history podcast",
    "Food waste app pilot",
    "Adult literacy evenings",
    "Open-source science lab",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Programs, organisations of the population applying, staff and outside reviewers, scores, awards, tranches."""
    pop = s.population
    today = s.now.date()
    officers = pop.staff("Finance", "People", fallback=3)
    made: list[Program] = []
    for n, (name, budget, largest, days, status) in enumerate(PROGRAMS):
        made.append(
            s.create(
                Program,
                name=name,
                officer_email=officers[n % len(officers)].email,
                budget_cents=budget,
                max_award_cents=largest,
                deadline=today + dt.timedelta(days=days),
                status=status,
                created_at=s.now - dt.timedelta(days=200 - 20 * n),
                updated_at=s.now - dt.timedelta(days=30),
            )
        )
    orgs = [c for c in pop.customers if pop.first_contact(c) is not None][:16]
    revs: list[Reviewer] = []
    # The last one applied for an organisation under review: a conflict of interest for that application.
    for k, p in enumerate(
        [*pop.employees[:3], *(pop.first_contact(c) for c in orgs[12:16]), pop.first_contact(orgs[6])]
    ):
        if p is None:
            continue
        company = pop.company_of(p)
        revs.append(
            s.create(
                Reviewer,
                name=p.name,
                email=p.email,
                organization_name=company.name if company else pop.home.name,
                created_at=s.now - dt.timedelta(days=300 - k),
            )
        )
    for k, org in enumerate(orgs[:12]):
        _seed_application(s, k, org.name, pop.first_contact(org), made, revs)


def _seed_application(
    s: SeedContext, k: int, org: str, person: Any, progs: list[Program], revs: list[Reviewer]
) -> None:
    program = progs[0] if k < 5 else progs[1] if k < 10 else progs[2]
    status: AppStatus = (
        "draft",
        "submitted",
        "under_review",
        "draft",
        "submitted",
        "under_review",
        "under_review",
        "awarded",
        "draft",
        "awarded",
        "awarded",
        "declined",
    )[k]
    requested = min(program.max_award_cents, 250_000 * (k + 2))
    awarded = requested if status == "awarded" else 0
    submitted = None if status == "draft" else s.now - dt.timedelta(days=40 - k)
    app = s.create(
        Application,
        program_id=program.id,
        organization_name=org,
        contact_name=person.name,
        contact_email=person.email,
        title=PROJECTS[k],
        summary=f"{PROJECTS[k]} run by {org}.",
        requested_cents=requested,
        status=status,
        submitted_at=submitted,
        awarded_cents=awarded,
        created_at=s.now - dt.timedelta(days=50 - k),
        updated_at=s.now - dt.timedelta(days=5),
    )
    if status in ("draft", "submitted"):
        return
    free = [r for r in revs if not _conflicted(r, app)]
    scored = 2 if status != "under_review" or k == 6 else k % 2
    for j, r in enumerate(free[k % 3 : k % 3 + 3]):
        done = j < scored
        s.create(
            Review,
            application_id=app.id,
            reviewer_id=r.id,
            reviewer_email=r.email,
            status="completed" if done else "assigned",
            score=(4 + (k + 3 * j) % 7) if done else None,
            comment="Strong community reach." if done else "",
            created_at=s.now - dt.timedelta(days=20),
            updated_at=s.now - dt.timedelta(days=10 - j),
        )
    if status == "awarded":
        start = (s.now - dt.timedelta(days=100 if k == 10 else 20)).date()
        for n, part in enumerate(split(awarded, 3), start=1):
            due = start + dt.timedelta(days=TRANCHE_GAP_DAYS * (n - 1))
            paid = due <= s.now.date() and not (k == 9 and n == 1)
            s.create(
                Tranche,
                application_id=app.id,
                program_id=program.id,
                payee_name=org,
                number=n,
                amount_cents=part,
                due_on=due,
                status="paid" if paid else "scheduled",
                paid_on=due if paid else None,
            )
