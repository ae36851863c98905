"""Brightpath Tutors: a tutoring agency's clients, students, tutors, services, lessons, invoices and tutor pay.

Modeled on the TutorCruncher API (clients with status and prepaid balance,
recipients (students), contractors (tutors) with skills and approval status,
services (jobs) with client charge rate and contractor pay rate, appointments
(lessons) with attendance and chargeable cancellations, lesson reports,
invoices and payment orders):

* a service needs approved tutors who teach its subject, students of live or
  prospect clients, and a charge rate above the tutor's pay rate; it goes
  planned → in_progress (first lesson) → finished or gone_cold;
* a lesson is booked in the future on an open service for one of its tutors,
  15-240 minutes, without overlapping the tutor's other lessons; it is marked
  complete once started, with every listed student present or absent; it may be
  cancelled, and a cancellation within 24 hours of the start is chargeable;
* a tutor reports on each present student of a completed lesson once;
* an invoice bills a client's completed and chargeable-cancelled lessons not
  yet invoiced at the charge rate; paying it from the client's prepaid balance
  needs enough balance; voiding an unpaid invoice frees its lessons;
* a payment order pays a tutor for their completed, unpaid lessons at the pay rate.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, DateTime, Email, FirstName, IdOf, LastName, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "tutoring",
    title="Brightpath Tutors",
    category="tutoring",
    modeled_on="TutorCruncher API (clients, recipients, contractors, services, appointments with attendance, "
    "reports, invoices, payment orders, client balances)",
    description="A tutoring agency's back office: paying clients and their prepaid balances, the students they pay "
    "for, tutors and the subjects they teach, tutoring services with charge and pay rates, lessons with "
    "attendance and late cancellations, lesson reports, client invoices and tutor payment orders.",
)

ClientId = Annotated[str, IdOf("tutoring.client")]
StudentId = Annotated[str, IdOf("tutoring.student")]
TutorId = Annotated[str, IdOf("tutoring.tutor")]
JobId = Annotated[str, IdOf("tutoring.job")]
LessonId = Annotated[str, IdOf("tutoring.lesson")]
ReportId = Annotated[str, IdOf("tutoring.report")]
InvoiceId = Annotated[str, IdOf("tutoring.invoice")]
PayOrderId = Annotated[str, IdOf("tutoring.payment_order")]
Rate = Annotated[int, Field(ge=500, le=50000)]
"""An hourly rate in cents."""

Subject = Literal["Maths", "English", "Physics", "Chemistry", "Biology", "French", "SAT Prep", "Computer Science"]
ClientStatus = Literal["prospect", "live", "dormant"]
TutorStatus = Literal["pending", "approved", "dormant"]
JobStatus = Literal["planned", "in_progress", "finished", "gone_cold"]
LessonStatus = Literal["planned", "complete", "cancelled", "cancelled_chargeable"]
InvoiceStatus = Literal["unpaid", "paid", "void"]
PayStatus = Literal["pending", "paid"]
Level = Literal["primary", "middle_school", "gcse", "a_level", "university"]
BILLABLE: tuple[LessonStatus, ...] = ("complete", "cancelled_chargeable")
LATE_CANCEL = dt.timedelta(hours=24)


class Client(Timestamped):
    """A paying client (usually a parent)."""

    id: ClientId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """E-mail (unique)."""
    phone: Phone | None = None
    """Phone."""
    status: ClientStatus = "prospect"
    """prospect, live or dormant."""
    balance_cents: Cents = 0
    """Prepaid credit."""


class Student(Record):
    """A student (recipient) a client pays for."""

    id: StudentId
    client_id: ClientId
    """The paying client."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    level: Level
    """primary, middle_school, gcse, a_level or university."""


class Tutor(Timestamped):
    """A tutor (contractor)."""

    id: TutorId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail."""
    subjects: tuple[Subject, ...]
    """What they teach."""
    status: TutorStatus = "pending"
    """pending, approved or dormant."""
    default_pay_cents: Rate = 2500
    """Their usual hourly pay."""


class Job(Timestamped):
    """A tutoring service (TutorCruncher service/job)."""

    id: JobId
    name: Title
    """The service's name."""
    subject: Subject
    """The subject taught."""
    tutor_ids: tuple[TutorId, ...]
    """Its tutors."""
    student_ids: tuple[StudentId, ...]
    """Its students."""
    charge_rate_cents: Rate
    """What the client is charged per hour."""
    pay_rate_cents: Rate
    """What the tutor is paid per hour."""
    status: JobStatus = "planned"
    """planned, in_progress, finished or gone_cold."""


class Lesson(Timestamped):
    """A lesson (appointment) of a service."""

    id: LessonId
    job_id: JobId
    """The service."""
    tutor_id: TutorId
    """Who teaches it."""
    start: DateTime
    """When it starts."""
    minutes: Annotated[int, Field(ge=15, le=240)]
    """Length."""
    topic: Title
    """What it covers."""
    student_ids: tuple[StudentId, ...]
    """Who is booked."""
    absent_ids: tuple[StudentId, ...] = ()
    """Who did not attend."""
    status: LessonStatus = "planned"
    """planned, complete, cancelled or cancelled_chargeable."""
    invoice_id: InvoiceId | None = None
    """The invoice that billed it."""
    payment_order_id: PayOrderId | None = None
    """The payment order that paid the tutor."""


class Report(Created):
    """A tutor's report on a student after a lesson."""

    id: ReportId
    lesson_id: LessonId
    """The lesson."""
    student_id: StudentId
    """The student."""
    tutor_id: TutorId
    """The author."""
    progress: Annotated[int, Field(ge=1, le=5)]
    """Progress rating, 1-5."""
    content: Text
    """The report."""


class Invoice(Created):
    """A client invoice for lessons."""

    id: InvoiceId
    client_id: ClientId
    """The client."""
    lesson_ids: tuple[LessonId, ...]
    """The lessons billed."""
    amount_cents: Cents
    """The total."""
    status: InvoiceStatus = "unpaid"
    """unpaid, paid or void."""
    paid_at: DateTime | None = None
    """When it was paid."""


class PaymentOrder(Created):
    """A payment to a tutor for lessons."""

    id: PayOrderId
    tutor_id: TutorId
    """The tutor."""
    lesson_ids: tuple[LessonId, ...]
    """The lessons paid for."""
    amount_cents: Cents
    """The total."""
    status: PayStatus = "pending"
    """pending or paid."""


# -- rules ------------------------------------------------------------------------------------


def _guard_client(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Client, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"client {other.id} already uses {new.email}", field="email", hint="use another e-mail")


def _guard_job(ctx: Ctx, new: Any, old: Any) -> None:
    if new.charge_rate_cents <= new.pay_rate_cents:
        raise RuleViolation(
            "the charge rate must exceed the pay rate", field="charge_rate_cents", hint="raise the charge rate"
        )


def _cost(rate: int, minutes: int) -> int:
    return rate * minutes // 60


clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cli",
    create=False,
    filters=("email", "status", "last_name"),
    search=("first_name", "last_name", "email"),
    update=("email", "phone", "status"),
    delete=False,
    guard_update=_guard_client,
)
students = service.resource(
    Student,
    name="student",
    plural="students",
    prefix="stu",
    create=("client_id", "first_name", "last_name", "level"),
    get=False,
    filters=("client_id", "level", "last_name"),
    search=("first_name", "last_name"),
    delete=False,
)
tutors = service.resource(
    Tutor,
    name="tutor",
    plural="tutors",
    prefix="tut",
    create=False,
    filters=("status", "email"),
    search=("name",),
    update=("status", "subjects", "default_pay_cents"),
    delete=False,
)
jobs = service.resource(
    Job,
    name="job",
    plural="jobs",
    prefix="job",
    create=False,
    filters=("subject", "status"),
    search=("name",),
    update=("charge_rate_cents", "pay_rate_cents"),
    delete=False,
    transitions={
        "finish": Transition("status", ("in_progress",), "finished", "finish the tutoring service"),
        "mark_cold": Transition(
            "status",
            ("planned", "in_progress"),
            "gone_cold",
            "mark the tutoring service gone cold",
            description="Mark a service gone cold: the client stopped booking.",
        ),
    },
    guard_update=_guard_job,
    title="tutoring service",
)
lessons = service.resource(
    Lesson,
    name="lesson",
    plural="lessons",
    prefix="les",
    create=False,
    filters=("job_id", "tutor_id", "status", "invoice_id", "payment_order_id"),
    search=("topic",),
    update=("topic",),
    delete=False,
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rep",
    create=False,
    get=False,
    filters=("lesson_id", "student_id", "tutor_id"),
    delete=False,
    title="lesson report",
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("client_id", "status"),
    delete=False,
)
payment_orders = service.resource(
    PaymentOrder,
    name="payment_order",
    plural="payment_orders",
    prefix="po",
    create=False,
    filters=("tutor_id", "status"),
    delete=False,
    transitions={"pay": Transition("status", ("pending",), "paid", "pay the tutor's payment order")},
)


# -- domain tools -----------------------------------------------------------------------------


def _example_client(ctx: Ctx) -> dict[str, Any] | None:
    return {"first_name": "Priya", "last_name": "Raman", "email": f"priya.raman@home.{ctx.population.home.domain}"}


@service.tool(intent="add the tutoring client", write=True, example=_example_client)
def add_client(
    ctx: Ctx, first_name: FirstName, last_name: LastName, email: Email, phone: Phone | None = None
) -> Client:
    """Add a prospect client; e-mails are unique.

    Args:
        first_name: Given name.
        last_name: Family name.
        email: E-mail.
        phone: Phone.
    """
    if ctx.first(Client, email=email) is not None:
        raise Conflict(f"{email} is already a client", field="email", hint="find the client by e-mail")
    return ctx.create(Client, first_name=first_name, last_name=last_name, email=email, phone=phone)


@service.tool(
    intent="top up the client's balance",
    write=True,
    example=first_example(Client, "client_id", where={"status": "live"}, amount_cents=20000),
)
def top_up_balance(ctx: Ctx, client_id: ClientId, amount_cents: Annotated[int, Field(ge=100, le=10**7)]) -> Client:
    """Add prepaid credit to a client's balance (a prospect becomes live).

    Args:
        client_id: The client.
        amount_cents: The amount paid in, at least 100.
    """
    c = ctx.get(Client, client_id, field="client_id")
    return ctx.update(c, balance_cents=c.balance_cents + amount_cents, status="live")


def _example_job(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(Tutor, status="approved")
    st = ctx.first(Student)
    if t is None or st is None:
        return None
    return {
        "name": f"{t.subjects[0]} support",
        "subject": t.subjects[0],
        "tutor_ids": [t.id],
        "student_ids": [st.id],
        "charge_rate_cents": 6000,
        "pay_rate_cents": 3000,
    }


@service.tool(intent="set up the tutoring service", write=True, example=_example_job)
def create_job(
    ctx: Ctx,
    name: Title,
    subject: Subject,
    tutor_ids: list[TutorId],
    student_ids: list[StudentId],
    charge_rate_cents: Rate,
    pay_rate_cents: Rate,
) -> Job:
    """Set up a service: approved tutors who teach the subject, students of active clients, a positive margin.

    Args:
        name: The service's name.
        subject: The subject taught.
        tutor_ids: Its tutors (approved, teaching the subject).
        student_ids: Its students.
        charge_rate_cents: Client charge per hour.
        pay_rate_cents: Tutor pay per hour, below the charge rate.
    """
    if (
        not tutor_ids
        or not student_ids
        or len(set(tutor_ids)) < len(tutor_ids)
        or len(set(student_ids)) < len(student_ids)
    ):
        raise RuleViolation("list at least one tutor and one student, each once", field="tutor_ids", hint="fix lists")
    for tid in tutor_ids:
        t = ctx.get(Tutor, tid, field="tutor_ids")
        if t.status != "approved" or subject not in t.subjects:
            raise RuleViolation(
                f"{t.name} is {t.status} and teaches {', '.join(t.subjects)}",
                field="tutor_ids",
                hint=f"pick approved tutors who teach {subject}",
            )
    for sid in student_ids:
        c = ctx.get(Client, ctx.get(Student, sid, field="student_ids").client_id)
        if c.status == "dormant":
            raise RuleViolation(f"client {c.id} is dormant", field="student_ids", hint="reactivate the client first")
    if charge_rate_cents <= pay_rate_cents:
        raise RuleViolation("the charge rate must exceed the pay rate", field="charge_rate_cents", hint="raise it")
    return ctx.create(
        Job,
        name=name,
        subject=subject,
        tutor_ids=tuple(tutor_ids),
        student_ids=tuple(student_ids),
        charge_rate_cents=charge_rate_cents,
        pay_rate_cents=pay_rate_cents,
    )


def _example_lesson(ctx: Ctx) -> dict[str, Any] | None:
    job = ctx.first(Job, status="in_progress")
    if job is None:
        return None
    start = utc_at(ctx.today() + dt.timedelta(days=40), 17)
    return {
        "job_id": job.id,
        "tutor_id": job.tutor_ids[0],
        "start": start.isoformat(),
        "minutes": 60,
        "topic": "Review",
    }


@service.tool(intent="book the lesson", write=True, example=_example_lesson)
def book_lesson(
    ctx: Ctx,
    job_id: JobId,
    tutor_id: TutorId,
    start: DateTime,
    minutes: Annotated[int, Field(ge=15, le=240)],
    topic: Title,
    student_ids: list[StudentId] | None = None,
) -> Lesson:
    """Book a future lesson on an open service for one of its tutors, without overlapping the tutor's lessons.

    Args:
        job_id: The service (planned or in progress).
        tutor_id: One of its tutors.
        start: When it starts.
        minutes: Length, 15-240.
        topic: What it covers.
        student_ids: Who attends (default: all of the service's students).
    """
    job = ctx.get(Job, job_id, field="job_id")
    if job.status not in ("planned", "in_progress"):
        raise RuleViolation(f"service {job.name!r} is {job.status}", field="job_id", hint="pick an open service")
    if tutor_id not in job.tutor_ids:
        raise RuleViolation("the tutor is not on the service", field="tutor_id", hint="pick one of its tutors")
    if start <= ctx.now():
        raise RuleViolation("a lesson is booked in the future", field="start", hint="pick a later time")
    who = tuple(student_ids) if student_ids else job.student_ids
    if not set(who) <= set(job.student_ids):
        raise RuleViolation("a student is not on the service", field="student_ids", hint="use the service's students")
    end = start + dt.timedelta(minutes=minutes)
    for other in ctx.where(Lesson, tutor_id=tutor_id, status="planned"):
        if other.start < end and start < other.start + dt.timedelta(minutes=other.minutes):
            raise Conflict(
                f"the tutor teaches lesson {other.id} at {other.start:%Y-%m-%d %H:%M}",
                field="start",
                hint="pick another time",
            )
    if job.status == "planned":
        ctx.update(job, status="in_progress")
    return ctx.create(
        Lesson, job_id=job.id, tutor_id=tutor_id, start=start, minutes=minutes, topic=topic, student_ids=who
    )


@service.tool(
    intent="mark the lesson complete",
    write=True,
    example=first_example(Lesson, "lesson_id", where={"status": "planned"}, match=lambda c, x: x.start <= c.now()),
)
def complete_lesson(ctx: Ctx, lesson_id: LessonId, absent_ids: list[StudentId] | None = None) -> Lesson:
    """Mark a started lesson complete with its attendance: the listed students were absent, the others present.

    Args:
        lesson_id: The lesson (planned, started).
        absent_ids: Booked students who did not attend.
    """
    lesson = ctx.get(Lesson, lesson_id, field="lesson_id")
    if lesson.status != "planned":
        raise Conflict(f"lesson {lesson.id} is {lesson.status}", field="lesson_id", hint="only planned lessons")
    if lesson.start > ctx.now():
        raise RuleViolation("the lesson has not started", field="lesson_id", hint="mark it after it starts")
    absent = tuple(absent_ids or ())
    if not set(absent) <= set(lesson.student_ids):
        raise RuleViolation("an absent student was not booked", field="absent_ids", hint="list booked students")
    return ctx.update(lesson, status="complete", absent_ids=absent)


@service.tool(
    intent="cancel the lesson",
    write=True,
    example=first_example(Lesson, "lesson_id", where={"status": "planned"}, match=lambda c, x: x.start > c.now()),
)
def cancel_lesson(ctx: Ctx, lesson_id: LessonId, chargeable: bool = False) -> Lesson:
    """Cancel a planned lesson; a cancellation within 24 hours of the start may be charged.

    Args:
        lesson_id: The lesson (planned).
        chargeable: Charge the client (late cancellation only).
    """
    lesson = ctx.get(Lesson, lesson_id, field="lesson_id")
    if lesson.status != "planned":
        raise Conflict(f"lesson {lesson.id} is {lesson.status}", field="lesson_id", hint="only planned lessons")
    if chargeable and lesson.start - ctx.now() > LATE_CANCEL:
        raise RuleViolation(
            "only cancellations within 24 hours of the start are chargeable",
            field="chargeable",
            hint="cancel without charge",
        )
    return ctx.update(lesson, status="cancelled_chargeable" if chargeable else "cancelled")


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    for lesson in ctx.where(Lesson, status="complete"):
        done = {r.student_id for r in ctx.where(Report, lesson_id=lesson.id)}
        for sid in lesson.student_ids:
            if sid not in lesson.absent_ids and sid not in done:
                return {"lesson_id": lesson.id, "student_id": sid, "progress": 4, "content": "Good progress."}
    return None


@service.tool(intent="write the lesson report", write=True, example=_example_report)
def submit_report(
    ctx: Ctx, lesson_id: LessonId, student_id: StudentId, progress: Annotated[int, Field(ge=1, le=5)], content: Text
) -> Report:
    """Report on a student who attended a completed lesson; once per student and lesson.

    Args:
        lesson_id: The lesson (complete).
        student_id: A student present at it.
        progress: Progress rating, 1-5.
        content: The report.
    """
    lesson = ctx.get(Lesson, lesson_id, field="lesson_id")
    if lesson.status != "complete":
        raise RuleViolation(f"lesson {lesson.id} is {lesson.status}", field="lesson_id", hint="complete it first")
    if student_id not in lesson.student_ids or student_id in lesson.absent_ids:
        raise RuleViolation("the student did not attend", field="student_id", hint="report on present students")
    if ctx.first(Report, lesson_id=lesson.id, student_id=student_id) is not None:
        raise Conflict("the student already has a report for this lesson", field="student_id", hint="one per lesson")
    if not content.strip():
        raise RuleViolation("the report is empty", field="content", hint="describe the lesson")
    return ctx.create(
        Report, lesson_id=lesson.id, student_id=student_id, tutor_id=lesson.tutor_id, progress=progress, content=content
    )


def _billable(ctx: Ctx, client_id: str) -> list[tuple[Lesson, Job]]:
    mine = {s.id for s in ctx.where(Student, client_id=client_id)}
    out = []
    for status in BILLABLE:
        for lesson in ctx.where(Lesson, status=status, invoice_id=None):
            if set(lesson.student_ids) & mine:
                out.append((lesson, ctx.get(Job, lesson.job_id)))
    return out


def _example_invoice(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.scan(Client):
        if _billable(ctx, c.id):
            return {"client_id": c.id}
    return None


@service.tool(intent="raise the client invoice", write=True, example=_example_invoice)
def raise_invoice(ctx: Ctx, client_id: ClientId) -> Invoice:
    """Invoice a client for their completed and chargeable-cancelled lessons not yet invoiced.

    Args:
        client_id: The client.
    """
    ctx.get(Client, client_id, field="client_id")
    items = _billable(ctx, client_id)
    if not items:
        raise RuleViolation("nothing to invoice", field="client_id", hint="complete lessons first")
    inv = ctx.create(
        Invoice,
        client_id=client_id,
        lesson_ids=tuple(x.id for x, _ in items),
        amount_cents=sum(_cost(j.charge_rate_cents, x.minutes) for x, j in items),
    )
    for x, _ in items:
        ctx.update(x, invoice_id=inv.id)
    return inv


@service.tool(
    intent="pay the invoice from the balance",
    write=True,
    example=first_example(
        Invoice,
        "invoice_id",
        where={"status": "unpaid"},
        match=lambda c, i: c.get(Client, i.client_id).balance_cents >= i.amount_cents,
    ),
)
def pay_invoice_from_balance(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Pay an unpaid invoice from the client's prepaid balance, which must cover it.

    Args:
        invoice_id: The invoice (unpaid).
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "unpaid":
        raise Conflict(f"invoice {inv.id} is {inv.status}", field="invoice_id", hint="only unpaid invoices")
    c = ctx.get(Client, inv.client_id)
    if c.balance_cents < inv.amount_cents:
        raise RuleViolation(
            f"the balance {c.balance_cents} does not cover {inv.amount_cents}",
            field="invoice_id",
            hint="top up the client's balance first",
        )
    ctx.update(c, balance_cents=c.balance_cents - inv.amount_cents)
    return ctx.update(inv, status="paid", paid_at=ctx.now())


@service.tool(
    intent="void the invoice",
    write=True,
    destructive=True,
    example=first_example(Invoice, "invoice_id", where={"status": "unpaid"}),
)
def void_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Void an unpaid invoice; its lessons can be invoiced again.

    Args:
        invoice_id: The invoice (unpaid).
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "unpaid":
        raise RuleViolation(f"invoice {inv.id} is {inv.status}", field="invoice_id", hint="only unpaid invoices")
    for x in ctx.where(Lesson, invoice_id=inv.id):
        ctx.update(x, invoice_id=None)
    return ctx.update(inv, status="void")


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    x = ctx.first(Lesson, status="complete", payment_order_id=None)
    return None if x is None else {"tutor_id": x.tutor_id}


@service.tool(intent="create the tutor payment order", write=True, example=_example_pay)
def create_payment_order(ctx: Ctx, tutor_id: TutorId) -> PaymentOrder:
    """Pay a tutor for their completed lessons not yet paid, at each service's pay rate.

    Args:
        tutor_id: The tutor.
    """
    ctx.get(Tutor, tutor_id, field="tutor_id")
    due = ctx.where(Lesson, tutor_id=tutor_id, status="complete", payment_order_id=None)
    if not due:
        raise RuleViolation("the tutor has no unpaid completed lesson", field="tutor_id", hint="nothing to pay")
    po = ctx.create(
        PaymentOrder,
        tutor_id=tutor_id,
        lesson_ids=tuple(x.id for x in due),
        amount_cents=sum(_cost(ctx.get(Job, x.job_id).pay_rate_cents, x.minutes) for x in due),
    )
    for x in due:
        ctx.update(x, payment_order_id=po.id)
    return po


# -- seed -------------------------------------------------------------------------------------

KIDS = ("Maya", "Leo", "Aisha", "Noah", "Sofia", "Ethan", "Zara", "Lucas", "Hana", "Oscar", "Ivy", "Mateo")
TUTOR_SUBJECTS: tuple[tuple[Subject, ...], ...] = (
    ("Maths", "Physics"),
    ("English", "French"),
    ("Chemistry", "Biology"),
    ("Maths", "SAT Prep"),
    ("Computer Science", "Maths"),
    ("English", "SAT Prep"),
    ("Biology",),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff as tutors, consumer parents as clients with children as students, services, lessons, bills and pay."""
    pop = s.population
    today = s.now.date()
    tutors_ = [
        s.create(
            Tutor,
            name=p.name,
            email=p.email,
            subjects=TUTOR_SUBJECTS[i],
            status="pending" if i == 6 else "approved",
            default_pay_cents=2500 + 250 * i,
            created_at=s.ago(days=400 - 30 * i),
        )
        for i, p in enumerate(pop.employees[-7:])
    ]
    parents = [p for p in pop.consumers if 35 <= (today - p.birth_date).days // 365 <= 60][:10]
    kids: list[tuple[Client, Student]] = []
    for i, p in enumerate(parents):
        c = s.create(
            Client,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            status="dormant" if i == 9 else "live" if i < 8 else "prospect",
            balance_cents=(0, 30000, 80000)[i % 3],
            created_at=s.ago(days=200 - 10 * i),
        )
        level: Level = ("gcse", "a_level", "middle_school", "primary")[i % 4]
        kids.append((c, s.create(Student, client_id=c.id, first_name=KIDS[i], last_name=p.last_name, level=level)))
    for i in range(8):
        t = tutors_[i % 6]
        subject = t.subjects[0]
        _, st = kids[i]
        status: JobStatus = "finished" if i == 7 else "planned" if i == 6 else "in_progress"
        job = s.create(
            Job,
            name=f"{subject} for {st.first_name}",
            subject=subject,
            tutor_ids=(t.id,),
            student_ids=(st.id,),
            charge_rate_cents=5500 + 500 * (i % 3),
            pay_rate_cents=t.default_pay_cents,
            status=status,
        )
        if status != "planned":
            _seed_lessons(s, job, t, st, i)


def _seed_lessons(s: SeedContext, job: Job, t: Tutor, st: Student, i: int) -> None:
    today = s.now.date()
    made: list[Lesson] = []
    for k in range(4):
        past = k < 3 or job.status == "finished"
        start = utc_at(today - dt.timedelta(days=7 * (3 - k) + 1), 16 + i % 4) if past else utc_at(today, 8 + i % 8)
        status: LessonStatus = "complete" if past else "planned"
        if past and k == 1 and i % 3 == 2:
            status = "cancelled_chargeable"
        made.append(
            s.create(
                Lesson,
                job_id=job.id,
                tutor_id=t.id,
                start=start,
                minutes=60,
                topic=f"{job.subject} session {k + 1}",
                student_ids=(st.id,),
                absent_ids=(st.id,) if status == "complete" and k == 2 and i == 4 else (),
                status=status,
            )
        )
        if status == "complete" and k == 0:
            s.create(Report, lesson_id=made[-1].id, student_id=st.id, tutor_id=t.id, progress=3, content="Steady work.")
    if i % 2 == 0:
        billed = [x for x in made[:2] if x.status in BILLABLE]
        inv = s.create(
            Invoice,
            client_id=st.client_id,
            lesson_ids=tuple(x.id for x in billed),
            amount_cents=sum(_cost(job.charge_rate_cents, x.minutes) for x in billed),
            status="paid" if i % 4 == 0 else "unpaid",
            paid_at=s.ago(days=3) if i % 4 == 0 else None,
        )
        for x in billed:
            made[made.index(x)] = s.update(x, invoice_id=inv.id)
    if i < 3:
        paid = [x for x in made[:1] if x.status == "complete"]
        po = s.create(
            PaymentOrder,
            tutor_id=t.id,
            lesson_ids=tuple(x.id for x in paid),
            amount_cents=sum(_cost(job.pay_rate_cents, x.minutes) for x in paid),
            status="paid" if i == 0 else "pending",
        )
        for x in paid:
            s.update(x, payment_order_id=po.id)
