"""Gateway Admissions: a college admissions CRM — prospects, applications with checklists, reader reviews, decisions.

Modeled on Technolutions Slate (person records and inquiry sources, application
rounds with deadlines, applications whose status moves Awaiting Submission →
Awaiting Materials → Awaiting Review → Review → Decided, checklist items
received or waived, reader bins and reviews with ratings, decision codes admit /
deny / waitlist, enrollment deposits and matriculation):

* an application is started only before its round's deadline, once per prospect
  and round, with its checklist (essay, transcript, recommendation, test scores,
  fee); submitting it receives the essay and the fee;
* a submitted application is complete when every checklist item is received or
  waived; only test scores (test-optional) and the fee (fee waiver) can be waived;
* a reader is assigned to a complete application at most once, up to two readers;
  a review rates 1-5 with a recommendation; a decision needs two completed
  reviews (a waitlisted applicant may later be admitted);
* an admitted applicant pays the round's deposit in full by the reply date, then
  enrolls; an admit may decline; an undecided application may be withdrawn.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    Country,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    PersonName,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "admissions",
    title="Gateway Admissions",
    category="admissions",
    modeled_on="Technolutions Slate (person records, rounds, applications with checklists, reader bins and "
    "reviews, decision codes, enrollment deposits)",
    description="The admissions office's CRM: prospective students and where they came from, application rounds "
    "and deadlines, applications and their material checklists, readers and their reviews, admit / deny / "
    "waitlist decisions, enrollment deposits and matriculation, and the round's funnel.",
)

RoundId = Annotated[str, IdOf("admissions.round")]
ProspectId = Annotated[str, IdOf("admissions.prospect")]
ApplicationId = Annotated[str, IdOf("admissions.application")]
ItemId = Annotated[str, IdOf("admissions.checklist_item")]
ReaderId = Annotated[str, IdOf("admissions.reader")]
ReviewId = Annotated[str, IdOf("admissions.review")]
DepositId = Annotated[str, IdOf("admissions.deposit")]

Source = Literal["inquiry_form", "college_fair", "campus_visit", "test_score_search", "referral"]
Program = Literal["Biology", "Business", "Computer Science", "Economics", "English", "Nursing", "Psychology"]
AppStatus = Literal[
    "started",
    "submitted",
    "complete",
    "in_review",
    "admitted",
    "denied",
    "waitlisted",
    "deposited",
    "enrolled",
    "declined",
    "withdrawn",
]
ItemKind = Literal["essay", "transcript", "recommendation", "test_scores", "fee"]
ItemStatus = Literal["awaiting", "received", "waived"]
Decision = Literal["admit", "deny", "waitlist"]
ReviewStatus = Literal["assigned", "completed"]
Rating = Annotated[int, Field(ge=1, le=5)]
WAIVABLE: frozenset[str] = frozenset({"test_scores", "fee"})
ITEMS: tuple[ItemKind, ...] = ("essay", "transcript", "recommendation", "test_scores", "fee")
UNDECIDED: tuple[AppStatus, ...] = ("started", "submitted", "complete", "in_review")
DECIDED = {"admit": "admitted", "deny": "denied", "waitlist": "waitlisted"}


class Round(Record):
    """An application round with its deadline."""

    id: RoundId
    name: Title
    """Early Decision, Early Action, Regular Decision."""
    entry_term: Annotated[str, StringConstraints(pattern=r"^(Fall|Spring) [0-9]{4}$")]
    """The term admits start."""
    deadline: Date
    """Last day to start and submit an application."""
    reply_by: Date
    """Last day for admits to pay the deposit."""
    fee_cents: Cents
    """The application fee."""
    deposit_cents: Cents
    """The enrollment deposit."""


class Prospect(Timestamped):
    """A person record: a prospective student."""

    id: ProspectId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """E-mail (unique)."""
    birth_date: Date
    """Date of birth."""
    city: City
    """Home city."""
    country: Country
    """Home country."""
    high_school: Title
    """The school they attend."""
    source: Source = "inquiry_form"
    """Where they first came from."""
    intended_program: Program | None = None
    """The major they are interested in."""


class Application(Timestamped):
    """An application to a round."""

    id: ApplicationId
    ref: Annotated[str, Generated("sequence", "APP-{n:06d}")]
    """Application reference."""
    prospect_id: ProspectId
    """The applicant."""
    round_id: RoundId
    """The round."""
    program: Program
    """The program applied to."""
    status: AppStatus = "started"
    """started, submitted, complete, in_review, admitted, denied, waitlisted, deposited, enrolled, declined, withdrawn."""
    submitted_at: DateTime | None = None
    """When it was submitted."""
    decision: Decision | None = None
    """The latest decision."""
    decided_at: DateTime | None = None
    """When it was decided."""
    merit_award_cents: Cents = 0
    """Yearly merit scholarship offered with an admit."""


class ChecklistItem(Record):
    """A required material of an application."""

    id: ItemId
    application_id: ApplicationId
    """The application."""
    kind: ItemKind
    """essay, transcript, recommendation, test_scores or fee."""
    status: ItemStatus = "awaiting"
    """awaiting, received or waived."""
    received_at: DateTime | None = None
    """When it arrived."""
    waiver_reason: Text | None = None
    """Why it was waived."""


class Reader(Record):
    """An admissions officer who reads files."""

    id: ReaderId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail."""
    title: Title
    """Their role in the office."""
    active: bool = True
    """Whether they read this cycle."""


class Review(Created):
    """A reader's evaluation of an application."""

    id: ReviewId
    application_id: ApplicationId
    """The application."""
    reader_id: ReaderId
    """The reader."""
    status: ReviewStatus = "assigned"
    """assigned or completed."""
    rating: Rating | None = None
    """Overall rating, 1 (weak) to 5 (exceptional)."""
    recommendation: Decision | None = None
    """admit, deny or waitlist."""
    comments: Text = ""
    """The reader's notes."""


class Deposit(Created):
    """An enrollment deposit."""

    id: DepositId
    application_id: ApplicationId
    """The admitted application."""
    amount_cents: Cents
    """Amount paid."""
    method: Literal["card", "ach", "check"] = "card"
    """card, ach or check."""


class Funnel(Value):
    """A round's applications by status."""

    round_id: RoundId
    """The round."""
    by_status: dict[str, int]
    """Applications per status."""
    admit_rate: float
    """Admitted (incl. deposited, enrolled, declined) over decided, 0-1."""
    yield_rate: float
    """Deposited or enrolled over admitted, 0-1."""


# -- rules ------------------------------------------------------------------------------------


def _guard_prospect(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Prospect, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"prospect {other.id} already uses {new.email}", field="email", hint="merge the records")


def _refresh(ctx: Ctx, app: Application) -> Application:
    items = ctx.where(ChecklistItem, application_id=app.id)
    if app.status == "submitted" and all(i.status != "awaiting" for i in items):
        return ctx.update(app, status="complete")
    return app


rounds = service.resource(
    Round,
    name="round",
    plural="rounds",
    prefix="rnd",
    create=False,
    filters=("entry_term",),
    search=("name",),
    delete=False,
    title="application round",
)
prospects = service.resource(
    Prospect,
    name="prospect",
    plural="prospects",
    prefix="psn",
    create=False,
    filters=("email", "last_name", "source", "intended_program", "country"),
    search=("first_name", "last_name", "high_school"),
    update=("email", "intended_program", "high_school"),
    delete=False,
    guard_update=_guard_prospect,
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=False,
    filters=("prospect_id", "round_id", "program", "status", "decision", "ref"),
    delete=False,
    transitions={
        "withdraw": Transition(
            "status",
            UNDECIDED,
            "withdrawn",
            "withdraw the application",
            description="Withdraw an application that is not decided yet.",
            destructive=True,
        ),
        "enroll": Transition("status", ("deposited",), "enrolled", "enroll the admitted student"),
        "decline": Transition(
            "status",
            ("admitted", "waitlisted"),
            "declined",
            "decline the offer of admission",
            description="Record that an admitted or waitlisted applicant declined (they will not enroll).",
        ),
    },
)
checklist = service.resource(
    ChecklistItem,
    name="checklist_item",
    plural="checklist_items",
    prefix="chk",
    create=False,
    filters=("application_id", "kind", "status"),
    delete=False,
)
readers = service.resource(
    Reader,
    name="reader",
    plural="readers",
    prefix="rdr",
    create=False,
    get=False,
    filters=("active", "email"),
    search=("name",),
    delete=False,
)
reviews = service.resource(
    Review,
    name="review",
    plural="reviews",
    prefix="rev",
    create=False,
    filters=("application_id", "reader_id", "status", "recommendation"),
    delete=False,
)
deposits = service.resource(
    Deposit,
    name="deposit",
    plural="deposits",
    prefix="dep",
    create=False,
    get=False,
    filters=("application_id",),
    delete=False,
    title="enrollment deposit",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_prospect(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "first_name": "Amara",
        "last_name": "Nwosu",
        "email": f"amara.nwosu@students.{ctx.population.home.domain}",
        "birth_date": "2008-05-14",
        "city": "Austin",
        "country": "US",
        "high_school": "Westlake High School",
        "source": "college_fair",
    }


@service.tool(intent="add the prospective student", write=True, example=_example_prospect)
def add_prospect(
    ctx: Ctx,
    first_name: FirstName,
    last_name: LastName,
    email: Email,
    birth_date: Date,
    city: City,
    country: Country,
    high_school: Title,
    source: Source = "inquiry_form",
    intended_program: Program | None = None,
) -> Prospect:
    """Create a person record for a prospective student; e-mails are unique.

    Args:
        first_name: Given name.
        last_name: Family name.
        email: E-mail.
        birth_date: Date of birth.
        city: Home city.
        country: Home country (ISO 3166 alpha-2).
        high_school: The school they attend.
        source: inquiry_form, college_fair, campus_visit, test_score_search or referral.
        intended_program: The major they are interested in.
    """
    if ctx.first(Prospect, email=email) is not None:
        raise Conflict(f"{email} already has a person record", field="email", hint="find it by e-mail")
    if birth_date >= ctx.today():
        raise RuleViolation("birth_date must be in the past", field="birth_date", hint="give the date of birth")
    return ctx.create(
        Prospect,
        first_name=first_name,
        last_name=last_name,
        email=email,
        birth_date=birth_date,
        city=city,
        country=country,
        high_school=high_school,
        source=source,
        intended_program=intended_program,
    )


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    open_ = [r for r in ctx.scan(Round) if r.deadline >= ctx.today()]
    for p in ctx.scan(Prospect):
        for r in open_:
            if ctx.first(Application, prospect_id=p.id, round_id=r.id) is None:
                return {"prospect_id": p.id, "round_id": r.id, "program": "Economics"}
    return None


@service.tool(intent="start the application", write=True, example=_example_start)
def start_application(ctx: Ctx, prospect_id: ProspectId, round_id: RoundId, program: Program) -> Application:
    """Start an application to a round before its deadline, once per prospect and round; its checklist is created.

    Args:
        prospect_id: The prospect.
        round_id: The round (deadline not passed).
        program: The program applied to.
    """
    p = ctx.get(Prospect, prospect_id, field="prospect_id")
    rnd = ctx.get(Round, round_id, field="round_id")
    if rnd.deadline < ctx.today():
        raise RuleViolation(f"{rnd.name} closed on {rnd.deadline}", field="round_id", hint="pick an open round")
    for a in ctx.where(Application, prospect_id=p.id):
        if a.round_id == rnd.id or (a.status in UNDECIDED and _term(ctx, a) == rnd.entry_term):
            raise Conflict(
                f"{p.first_name} {p.last_name} already has application {a.ref} ({a.status})",
                field="round_id",
                hint="continue that application or withdraw it",
            )
    app = ctx.create(Application, prospect_id=p.id, round_id=rnd.id, program=program)
    for kind in ITEMS:
        ctx.create(ChecklistItem, application_id=app.id, kind=kind)
    return app


def _term(ctx: Ctx, app: Application) -> str:
    return ctx.get(Round, app.round_id).entry_term


@service.tool(
    intent="submit the application",
    write=True,
    example=first_example(
        Application,
        "application_id",
        where={"status": "started"},
        match=lambda c, a: c.get(Round, a.round_id).deadline >= c.today(),
    ),
)
def submit_application(ctx: Ctx, application_id: ApplicationId) -> Application:
    """Submit a started application by the round's deadline; the essay and fee are received with it.

    Args:
        application_id: The application (started).
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status != "started":
        raise Conflict(f"application {app.ref} is {app.status}", field="application_id", hint="already submitted")
    rnd = ctx.get(Round, app.round_id)
    if rnd.deadline < ctx.today():
        raise RuleViolation(f"{rnd.name} closed on {rnd.deadline}", field="application_id", hint="apply next round")
    for item in ctx.where(ChecklistItem, application_id=app.id):
        if item.kind in ("essay", "fee") and item.status == "awaiting":
            ctx.update(item, status="received", received_at=ctx.now())
    return _refresh(ctx, ctx.update(app, status="submitted", submitted_at=ctx.now()))


@service.tool(
    intent="mark the checklist item received",
    write=True,
    example=first_example(ChecklistItem, "checklist_item_id", where={"status": "awaiting", "kind": "transcript"}),
)
def receive_item(ctx: Ctx, checklist_item_id: ItemId) -> ChecklistItem:
    """Mark an awaited material received; a submitted application with nothing awaited becomes complete.

    Args:
        checklist_item_id: The checklist item (awaiting).
    """
    item = ctx.get(ChecklistItem, checklist_item_id, field="checklist_item_id")
    if item.status != "awaiting":
        raise Conflict(f"{item.kind} is already {item.status}", field="checklist_item_id", hint="nothing to do")
    item = ctx.update(item, status="received", received_at=ctx.now())
    _refresh(ctx, ctx.get(Application, item.application_id))
    return item


@service.tool(
    intent="waive the checklist item",
    write=True,
    example=first_example(
        ChecklistItem, "checklist_item_id", where={"status": "awaiting", "kind": "test_scores"}, reason="Test-optional"
    ),
)
def waive_item(ctx: Ctx, checklist_item_id: ItemId, reason: Text) -> ChecklistItem:
    """Waive test scores (test-optional) or the fee (fee waiver) with a reason.

    Args:
        checklist_item_id: The checklist item (awaiting test scores or fee).
        reason: Why it is waived.
    """
    item = ctx.get(ChecklistItem, checklist_item_id, field="checklist_item_id")
    if item.kind not in WAIVABLE:
        raise RuleViolation(f"{item.kind} cannot be waived", field="checklist_item_id", hint="it must be received")
    if item.status != "awaiting":
        raise Conflict(f"{item.kind} is already {item.status}", field="checklist_item_id", hint="nothing to do")
    if not reason.strip():
        raise RuleViolation("a waiver needs a reason", field="reason", hint="e.g. test-optional or fee waiver")
    item = ctx.update(item, status="waived", waiver_reason=reason.strip())
    _refresh(ctx, ctx.get(Application, item.application_id))
    return item


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="complete"):
        for r in ctx.where(Reader, active=True):
            return {"application_id": app.id, "reader_id": r.id}
    return None


@service.tool(intent="assign the reader", write=True, example=_example_assign)
def assign_reader(ctx: Ctx, application_id: ApplicationId, reader_id: ReaderId) -> Review:
    """Put a complete application in a reader's bin; each reader once, two readers at most.

    Args:
        application_id: The application (complete or in review).
        reader_id: The reader (active).
    """
    app = ctx.get(Application, application_id, field="application_id")
    reader = ctx.get(Reader, reader_id, field="reader_id")
    if app.status not in ("complete", "in_review"):
        raise RuleViolation(
            f"application {app.ref} is {app.status}", field="application_id", hint="only complete files are read"
        )
    if not reader.active:
        raise RuleViolation(f"{reader.name} is not reading", field="reader_id", hint="pick an active reader")
    existing = ctx.where(Review, application_id=app.id)
    if any(r.reader_id == reader.id for r in existing):
        raise Conflict(f"{reader.name} already reads {app.ref}", field="reader_id", hint="pick another reader")
    if len(existing) >= 2:
        raise RuleViolation("the file already has two readers", field="application_id", hint="decide it")
    review = ctx.create(Review, application_id=app.id, reader_id=reader.id)
    if app.status == "complete":
        ctx.update(app, status="in_review")
    return review


@service.tool(
    intent="submit the review",
    write=True,
    example=first_example(Review, "review_id", where={"status": "assigned"}, rating=4, recommendation="admit"),
)
def submit_review(
    ctx: Ctx, review_id: ReviewId, rating: Rating, recommendation: Decision, comments: Text = ""
) -> Review:
    """Complete an assigned review with a rating and a recommendation.

    Args:
        review_id: The review (assigned).
        rating: 1 (weak) to 5 (exceptional).
        recommendation: admit, deny or waitlist.
        comments: The reader's notes.
    """
    review = ctx.get(Review, review_id, field="review_id")
    if review.status != "assigned":
        raise Conflict(f"review {review.id} is already completed", field="review_id", hint="nothing to do")
    return ctx.update(review, status="completed", rating=rating, recommendation=recommendation, comments=comments)


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="in_review"):
        if len(ctx.where(Review, application_id=app.id, status="completed")) >= 2:
            return {"application_id": app.id, "decision": "admit", "merit_award_cents": 500000}
    return None


@service.tool(intent="release the admission decision", write=True, example=_example_decide)
def decide_application(
    ctx: Ctx, application_id: ApplicationId, decision: Decision, merit_award_cents: Cents = 0
) -> Application:
    """Decide a file with two completed reviews (admit, deny or waitlist); a waitlisted applicant may be admitted.

    Args:
        application_id: The application (in review, or waitlisted to admit).
        decision: admit, deny or waitlist.
        merit_award_cents: Yearly merit scholarship with an admit.
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status == "waitlisted" and decision == "admit":
        return ctx.update(app, status="admitted", decision="admit", decided_at=ctx.now())
    if app.status != "in_review":
        raise RuleViolation(f"application {app.ref} is {app.status}", field="application_id", hint="read it first")
    done = ctx.where(Review, application_id=app.id, status="completed")
    if len(done) < 2:
        raise RuleViolation(
            f"{len(done)} of 2 reviews completed", field="application_id", hint="assign and complete the reviews"
        )
    if merit_award_cents and decision != "admit":
        raise RuleViolation("only admits get merit awards", field="merit_award_cents", hint="leave it at 0")
    return ctx.update(
        app, status=DECIDED[decision], decision=decision, decided_at=ctx.now(), merit_award_cents=merit_award_cents
    )


@service.tool(
    intent="record the enrollment deposit",
    write=True,
    example=first_example(
        Application,
        "application_id",
        where={"status": "admitted"},
        match=lambda c, a: c.get(Round, a.round_id).reply_by >= c.today(),
        amount_cents=50000,
    ),
)
def record_deposit(
    ctx: Ctx, application_id: ApplicationId, amount_cents: Cents, method: Literal["card", "ach", "check"] = "card"
) -> Deposit:
    """Record an admit's enrollment deposit, paid in full by the round's reply date.

    Args:
        application_id: The application (admitted).
        amount_cents: The amount paid: the round's deposit.
        method: card, ach or check.
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status != "admitted":
        raise RuleViolation(f"application {app.ref} is {app.status}", field="application_id", hint="admits only")
    rnd = ctx.get(Round, app.round_id)
    if ctx.today() > rnd.reply_by:
        raise RuleViolation(
            f"the reply date {rnd.reply_by} has passed", field="application_id", hint="ask for an extension"
        )
    if amount_cents != rnd.deposit_cents:
        raise RuleViolation(
            f"the deposit is {rnd.deposit_cents} cents", field="amount_cents", hint="pay the round's deposit in full"
        )
    ctx.update(app, status="deposited")
    return ctx.create(Deposit, application_id=app.id, amount_cents=amount_cents, method=method)


@service.tool(intent="show the round's funnel", example=first_example(Round, "round_id"))
def round_funnel(ctx: Ctx, round_id: RoundId) -> Funnel:
    """A round's applications by status, its admit rate and its yield.

    Args:
        round_id: The round.
    """
    ctx.get(Round, round_id, field="round_id")
    apps = ctx.where(Application, round_id=round_id)
    counts: dict[str, int] = {}
    for a in apps:
        counts[a.status] = counts.get(a.status, 0) + 1
    admits = sum(counts.get(s, 0) for s in ("admitted", "deposited", "enrolled", "declined"))
    decided = admits + counts.get("denied", 0) + counts.get("waitlisted", 0)
    kept = counts.get("deposited", 0) + counts.get("enrolled", 0)
    return Funnel(
        round_id=round_id,
        by_status=counts,
        admit_rate=round(admits / decided, 3) if decided else 0.0,
        yield_rate=round(kept / admits, 3) if admits else 0.0,
    )


# -- seed -------------------------------------------------------------------------------------

PROGRAMS: tuple[Program, ...] = (
    "Biology",
    "Business",
    "Computer Science",
    "Economics",
    "English",
    "Nursing",
    "Psychology",
)
SCHOOLS = ("Lincoln High School", "Riverside Academy", "St. Mary's Prep", "Jefferson High School", "Oakwood School")
_PLAN: tuple[AppStatus, ...] = (
    "enrolled",
    "deposited",
    "admitted",
    "admitted",
    "denied",
    "waitlisted",
    "declined",
    "in_review",
    "in_review",
    "complete",
    "submitted",
    "started",
    "withdrawn",
    "in_review",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Three rounds, admissions staff as readers, consumers as prospects, applications at every stage."""
    pop = s.population
    today = s.now.date()
    year = today.year + (1 if today.month >= 6 else 0)
    ed = s.create(
        Round,
        name="Early Decision",
        entry_term=f"Fall {year}",
        deadline=today - dt.timedelta(days=60),
        reply_by=today + dt.timedelta(days=20),
        fee_cents=7500,
        deposit_cents=50000,
    )
    rd = s.create(
        Round,
        name="Regular Decision",
        entry_term=f"Fall {year}",
        deadline=today + dt.timedelta(days=25),
        reply_by=today + dt.timedelta(days=60),
        fee_cents=7500,
        deposit_cents=50000,
    )
    s.create(
        Round,
        name="Spring Transfer",
        entry_term=f"Spring {year + 1}",
        deadline=today + dt.timedelta(days=150),
        reply_by=today + dt.timedelta(days=200),
        fee_cents=5000,
        deposit_cents=30000,
    )
    staff = pop.staff("Admissions", "Marketing", "Sales", fallback=5)[:5]
    titles = (
        "Director of Admissions",
        "Senior Admissions Counselor",
        "Admissions Counselor",
        "Admissions Counselor",
        "Assistant Director",
    )
    rdrs = [
        s.create(Reader, name=p.name, email=p.email, title=titles[i % 5], active=i != 4) for i, p in enumerate(staff)
    ]
    people = list(pop.consumers)[:20]
    pros = [
        s.create(
            Prospect,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            birth_date=p.birth_date,
            city=p.place.city,
            country=p.place.country,
            high_school=SCHOOLS[i % 5],
            source=("inquiry_form", "college_fair", "campus_visit", "test_score_search", "referral")[i % 5],
            intended_program=PROGRAMS[i % 7],
            created_at=s.ago(days=300 - 10 * i),
        )
        for i, p in enumerate(people)
    ]
    for i, status in enumerate(_PLAN):
        rnd = ed if status in ("enrolled", "deposited", "admitted", "denied", "waitlisted", "declined") else rd
        _seed_app(s, pros[i], rnd, status, rdrs, i)


def _seed_app(s: SeedContext, p: Prospect, rnd: Round, status: AppStatus, rdrs: list[Reader], i: int) -> None:
    decided = status in ("enrolled", "deposited", "admitted", "denied", "waitlisted", "declined")
    decision: Decision | None = None
    if decided:
        decision = "deny" if status == "denied" else "waitlist" if status == "waitlisted" else "admit"
    made = s.ago(days=90 - i)
    app = s.create(
        Application,
        prospect_id=p.id,
        round_id=rnd.id,
        program=p.intended_program or "Business",
        status=status,
        submitted_at=None if status == "started" else made + dt.timedelta(days=2),
        decision=decision,
        decided_at=s.ago(days=10) if decided else None,
        merit_award_cents=800000 if i == 1 else 0,
        created_at=made,
        updated_at=made,
    )
    complete = status not in ("started", "submitted")
    for kind in ITEMS:
        got = complete or (status == "submitted" and kind != "recommendation") or (kind in ("essay",) and i % 2 == 0)
        waived = kind == "test_scores" and got and i % 3 == 0
        s.create(
            ChecklistItem,
            application_id=app.id,
            kind=kind,
            status="waived" if waived else "received" if got else "awaiting",
            received_at=None if waived or not got else made + dt.timedelta(days=3),
            waiver_reason="Test-optional applicant" if waived else None,
        )
    if status in ("in_review",) or decided:
        n = 1 if i == 13 else 2
        for k in range(n):
            done = decided or (k == 0) or i == 8
            rec: Decision = decision or ("admit", "waitlist")[k]
            s.create(
                Review,
                application_id=app.id,
                reader_id=rdrs[(i + k) % 4].id,
                status="completed" if done else "assigned",
                rating=(4 if rec == "admit" else 3 if rec == "waitlist" else 2) if done else None,
                recommendation=rec if done else None,
                comments="Strong academic record." if done else "",
            )
    if status in ("deposited", "enrolled"):
        s.create(Deposit, application_id=app.id, amount_cents=rnd.deposit_cents, created_at=s.ago(days=5))
