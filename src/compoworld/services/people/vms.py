"""Flexforce VMS: the contingent workforce of the home company, sourced through staffing suppliers.

Modeled on the SAP Fieldglass / Beeline vendor management APIs: suppliers
(active or inactive) with rate cards giving a min and max hourly bill rate
per job title; job postings by a hiring manager go draft → distributed (to
active suppliers with a rate card for the title) → filled or closed;
suppliers submit candidates to postings they received, at a bill rate inside
their rate card and under the posting's cap, once per candidate; a submission
goes submitted → shortlisted → accepted or rejected, and accepting it makes a
work order (pending → active → completed or terminated) with a budget, and
fills the posting when all its positions are. Weekly time sheets (one per
work order and week, at most 60 hours, only on an active work order) are
submitted, approved or rejected, and approved time never exceeds the work
order's budget. Statements of work (SOW) for fixed-fee projects go draft →
approved → closed, and their milestone invoices never exceed the fee.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, Email, IdOf, JobTitle, PersonName, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "vms",
    title="Flexforce VMS",
    category="vendor_management_system",
    modeled_on="SAP Fieldglass / Beeline VMS API: suppliers, rate cards, job postings distributed to suppliers, "
    "candidate submissions, work orders, weekly time sheets, statements of work",
    description="Contingent workforce management for the home company: staffing suppliers and their rate cards, "
    "job postings distributed to suppliers, the candidates they submit, work orders for the contractors "
    "engaged, weekly time sheets approved against budget, and fixed-fee statements of work.",
)

SupplierId = Annotated[str, IdOf("vms.supplier")]
RateCardId = Annotated[str, IdOf("vms.rate_card")]
PostingId = Annotated[str, IdOf("vms.posting")]
SubmissionId = Annotated[str, IdOf("vms.submission")]
WorkOrderId = Annotated[str, IdOf("vms.work_order")]
TimesheetId = Annotated[str, IdOf("vms.timesheet")]
SowId = Annotated[str, IdOf("vms.sow")]

Hours = Annotated[float, Field(ge=0, le=168)]
"""Hours worked in a week."""

SupplierStatus = Literal["active", "inactive"]
PostingStatus = Literal["draft", "distributed", "filled", "closed"]
SubmissionStatus = Literal["submitted", "shortlisted", "accepted", "rejected"]
WorkOrderStatus = Literal["pending", "active", "completed", "terminated"]
TimesheetStatus = Literal["submitted", "approved", "rejected"]
SowStatus = Literal["draft", "approved", "closed"]

MAX_WEEK_HOURS = 60


class Supplier(Timestamped):
    """A staffing supplier."""

    id: SupplierId
    name: CompanyName
    """The supplier company."""
    contact_email: Email
    """The supplier's account manager."""
    status: SupplierStatus = "active"
    """active or inactive."""
    markup_percent: Annotated[float, Field(ge=0, le=100)] = 25.0
    """Markup on the worker's pay rate."""


class RateCard(Timestamped):
    """A supplier's hourly bill-rate range for a job title."""

    id: RateCardId
    supplier_id: SupplierId
    """The supplier."""
    job_title: JobTitle
    """The job title."""
    min_rate_cents: Cents
    """Lowest hourly bill rate."""
    max_rate_cents: Cents
    """Highest hourly bill rate."""


class Posting(Timestamped):
    """A job posting for contingent workers."""

    id: PostingId
    job_title: JobTitle
    """The job title."""
    hiring_manager_email: Email
    """The employee who needs the workers."""
    positions: Annotated[int, Field(ge=1, le=50)] = 1
    """Workers wanted."""
    max_bill_rate_cents: Cents
    """Highest hourly bill rate accepted."""
    start_date: Date
    """When the work starts."""
    end_date: Date
    """When it ends."""
    status: PostingStatus = "draft"
    """draft, distributed, filled or closed."""
    supplier_ids: tuple[SupplierId, ...] = ()
    """Suppliers it was distributed to."""


class Submission(Timestamped):
    """A candidate a supplier submitted to a posting."""

    id: SubmissionId
    posting_id: PostingId
    """The posting."""
    supplier_id: SupplierId
    """The supplier."""
    candidate_name: PersonName
    """The candidate."""
    candidate_email: Email
    """Their e-mail."""
    bill_rate_cents: Cents
    """The hourly bill rate proposed."""
    status: SubmissionStatus = "submitted"
    """submitted, shortlisted, accepted or rejected."""


class WorkOrder(Timestamped):
    """An engagement of a contractor through a supplier."""

    id: WorkOrderId
    posting_id: PostingId
    """The posting."""
    submission_id: SubmissionId
    """The accepted submission."""
    supplier_id: SupplierId
    """The supplier."""
    worker_name: PersonName
    """The contractor."""
    worker_email: Email
    """Their e-mail."""
    hiring_manager_email: Email
    """The employee who manages them."""
    bill_rate_cents: Cents
    """Hourly bill rate."""
    start_date: Date
    """First day."""
    end_date: Date
    """Last day."""
    budget_cents: Cents
    """Most that approved time may cost."""
    spent_cents: Cents = 0
    """Approved time so far."""
    status: WorkOrderStatus = "pending"
    """pending, active, completed or terminated."""


class Timesheet(Timestamped):
    """A week of a contractor's time."""

    id: TimesheetId
    work_order_id: WorkOrderId
    """The work order."""
    week_start: Date
    """The Monday of the week."""
    hours: Hours
    """Hours worked."""
    amount_cents: Cents
    """Hours × bill rate."""
    status: TimesheetStatus = "submitted"
    """submitted, approved or rejected."""


class Sow(Timestamped):
    """A fixed-fee statement of work with a supplier."""

    id: SowId
    supplier_id: SupplierId
    """The supplier."""
    title: Title
    """The project."""
    owner_email: Email
    """The employee who owns it."""
    fee_cents: Cents
    """The fixed fee."""
    invoiced_cents: Cents = 0
    """Milestones invoiced so far."""
    status: SowStatus = "draft"
    """draft, approved or closed."""


# -- rules ------------------------------------------------------------------------------------


def _employee(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _active_supplier(ctx: Ctx, supplier_id: str) -> Supplier:
    sup = ctx.get(Supplier, supplier_id, field="supplier_id")
    if sup.status != "active":
        raise RuleViolation(f"supplier {sup.name} is inactive", field="supplier_id", hint="activate it first")
    return sup


def _guard_rate_card(ctx: Ctx, new: Any, old: Any) -> None:
    _active_supplier(ctx, new.supplier_id)
    if new.min_rate_cents > new.max_rate_cents:
        raise RuleViolation("min rate is above max rate", field="min_rate_cents", hint="swap them")
    same = [r for r in ctx.where(RateCard, supplier_id=new.supplier_id, job_title=new.job_title) if r.id != new.id]
    if same:
        raise Conflict(f"rate card {same[0].id} already covers {new.job_title}", field="job_title", hint="update it")


def _guard_sow(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _active_supplier(ctx, new.supplier_id)
        _employee(ctx, new.owner_email, "owner_email")
    elif new.status == "closed" and old.status == "draft":
        raise RuleViolation("a draft SOW is deleted, not closed", field="sow_id", hint="approve it first")


suppliers = service.resource(
    Supplier,
    name="supplier",
    plural="suppliers",
    prefix="sup",
    create=False,
    filters=("status",),
    search=("name",),
    update=("markup_percent", "contact_email"),
    delete=False,
    transitions={
        "deactivate": Transition("status", ("active",), "inactive", "deactivate the supplier"),
        "activate": Transition("status", ("inactive",), "active", "reactivate the supplier"),
    },
)
rate_cards = service.resource(
    RateCard,
    name="rate_card",
    plural="rate_cards",
    prefix="rc",
    create=("supplier_id", "job_title", "min_rate_cents", "max_rate_cents"),
    get=False,
    filters=("supplier_id", "job_title"),
    delete=False,
    guard_create=_guard_rate_card,
    title="rate card",
)
postings = service.resource(
    Posting,
    name="posting",
    plural="postings",
    prefix="jp",
    create=False,
    filters=("status", "job_title", "hiring_manager_email"),
    search=("job_title",),
    delete=False,
    transitions={"close": Transition("status", ("draft", "distributed"), "closed", "close the posting")},
    title="job posting",
)
submissions = service.resource(
    Submission,
    name="submission",
    plural="submissions",
    prefix="sub",
    create=False,
    filters=("posting_id", "supplier_id", "status", "candidate_email"),
    search=("candidate_name",),
    delete=False,
    transitions={
        "shortlist": Transition("status", ("submitted",), "shortlisted", "shortlist the candidate"),
        "reject": Transition("status", ("submitted", "shortlisted"), "rejected", "reject the candidate"),
    },
    title="candidate submission",
)
work_orders = service.resource(
    WorkOrder,
    name="work_order",
    plural="work_orders",
    prefix="wo",
    create=False,
    filters=("status", "supplier_id", "hiring_manager_email", "worker_email", "posting_id"),
    search=("worker_name",),
    delete=False,
    transitions={
        "activate": Transition("status", ("pending",), "active", "activate the work order"),
        "complete": Transition("status", ("active",), "completed", "complete the work order"),
        "terminate": Transition("status", ("pending", "active"), "terminated", "terminate the work order"),
    },
    title="work order",
)
timesheets = service.resource(
    Timesheet,
    name="timesheet",
    plural="timesheets",
    prefix="ts",
    create=False,
    filters=("work_order_id", "status", "week_start"),
    delete=False,
    transitions={"reject": Transition("status", ("submitted",), "rejected", "reject the time sheet")},
    title="time sheet",
)
sows = service.resource(
    Sow,
    name="sow",
    plural="sows",
    prefix="sow",
    create=("supplier_id", "title", "owner_email", "fee_cents"),
    filters=("supplier_id", "status", "owner_email"),
    search=("title",),
    transitions={
        "approve": Transition("status", ("draft",), "approved", "approve the statement of work"),
        "close": Transition("status", ("approved",), "closed", "close the statement of work"),
    },
    guard_create=_guard_sow,
    guard_update=_guard_sow,
    title="statement of work",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_posting(ctx: Ctx) -> dict[str, Any] | None:
    card = ctx.first(RateCard)
    if card is None:
        return None
    return {
        "job_title": card.job_title,
        "hiring_manager_email": ctx.population.employees[1].email,
        "max_bill_rate_cents": card.max_rate_cents,
        "start_date": (ctx.today() + dt.timedelta(days=14)).isoformat(),
        "end_date": (ctx.today() + dt.timedelta(days=120)).isoformat(),
    }


@service.tool(intent="create a job posting", write=True, example=_example_posting)
def create_posting(
    ctx: Ctx,
    job_title: JobTitle,
    hiring_manager_email: Email,
    max_bill_rate_cents: Cents,
    start_date: Date,
    end_date: Date,
    positions: Annotated[int, Field(ge=1, le=50)] = 1,
) -> Posting:
    """Draft a job posting for contingent workers.

    Args:
        job_title: The job title.
        hiring_manager_email: The employee who needs the workers.
        max_bill_rate_cents: Highest hourly bill rate accepted.
        start_date: When the work starts (not in the past).
        end_date: When it ends (after the start).
        positions: Workers wanted.
    """
    _employee(ctx, hiring_manager_email, "hiring_manager_email")
    if start_date < ctx.today():
        raise RuleViolation("start_date is in the past", field="start_date", hint="pick today or later")
    if end_date <= start_date:
        raise RuleViolation("end_date must be after start_date", field="end_date", hint="pick a later end")
    return ctx.create(
        Posting,
        job_title=job_title,
        hiring_manager_email=hiring_manager_email,
        positions=positions,
        max_bill_rate_cents=max_bill_rate_cents,
        start_date=start_date,
        end_date=end_date,
    )


def _example_distribute(ctx: Ctx) -> dict[str, Any] | None:
    for post in ctx.where(Posting, status="draft"):
        cards = [c for c in ctx.where(RateCard, job_title=post.job_title)]
        if cards:
            return {"posting_id": post.id, "supplier_ids": [cards[0].supplier_id]}
    return None


@service.tool(intent="distribute the posting to suppliers", write=True, example=_example_distribute)
def distribute_posting(ctx: Ctx, posting_id: PostingId, supplier_ids: list[SupplierId]) -> Posting:
    """Send a draft or distributed posting to more suppliers: active ones with a rate card for the title.

    Args:
        posting_id: The posting.
        supplier_ids: The suppliers (each once).
    """
    post = ctx.get(Posting, posting_id, field="posting_id")
    if post.status not in ("draft", "distributed"):
        raise RuleViolation(f"posting is {post.status}", field="posting_id", hint="distribute an open posting")
    if not supplier_ids or len(set(supplier_ids)) != len(supplier_ids):
        raise RuleViolation("list each supplier once", field="supplier_ids", hint="name at least one supplier")
    for sid in supplier_ids:
        sup = _active_supplier(ctx, sid)
        if ctx.first(RateCard, supplier_id=sid, job_title=post.job_title) is None:
            raise RuleViolation(
                f"{sup.name} has no rate card for {post.job_title}",
                field="supplier_ids",
                hint="add one with vms__create_rate_card",
            )
    merged = tuple(dict.fromkeys((*post.supplier_ids, *supplier_ids)))
    return ctx.update(post, status="distributed", supplier_ids=merged)


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for post in ctx.where(Posting, status="distributed"):
        sid = post.supplier_ids[0]
        card = ctx.first(RateCard, supplier_id=sid, job_title=post.job_title)
        if card is not None:
            rate = min(card.max_rate_cents, post.max_bill_rate_cents)
            return {
                "posting_id": post.id,
                "supplier_id": sid,
                "candidate_name": "Jordan Ellis",
                "candidate_email": "jordan.ellis@talentmail.io",
                "bill_rate_cents": rate,
            }
    return None


@service.tool(intent="submit a candidate to the posting", write=True, example=_example_submit)
def submit_candidate(
    ctx: Ctx,
    posting_id: PostingId,
    supplier_id: SupplierId,
    candidate_name: PersonName,
    candidate_email: Email,
    bill_rate_cents: Cents,
) -> Submission:
    """A supplier submits a candidate to a posting it received, within its rate card and the posting's cap.

    Args:
        posting_id: The distributed posting.
        supplier_id: The submitting supplier.
        candidate_name: The candidate.
        candidate_email: Their e-mail (once per posting).
        bill_rate_cents: The proposed hourly bill rate.
    """
    post = ctx.get(Posting, posting_id, field="posting_id")
    if post.status != "distributed":
        raise RuleViolation(f"posting is {post.status}", field="posting_id", hint="submit to a distributed posting")
    if supplier_id not in post.supplier_ids:
        raise RuleViolation("the posting was not sent to this supplier", field="supplier_id", hint="distribute it")
    _active_supplier(ctx, supplier_id)
    card = ctx.first(RateCard, supplier_id=supplier_id, job_title=post.job_title)
    high = min(post.max_bill_rate_cents, card.max_rate_cents if card else 0)
    low = card.min_rate_cents if card else 0
    if not low <= bill_rate_cents <= high:
        raise RuleViolation(
            f"the bill rate must be between {low} and {high} cents",
            field="bill_rate_cents",
            hint="use the rate card and the posting's cap",
        )
    if ctx.first(Submission, posting_id=post.id, candidate_email=candidate_email) is not None:
        raise Conflict("the candidate is already submitted", field="candidate_email", hint="submit another")
    return ctx.create(
        Submission,
        posting_id=post.id,
        supplier_id=supplier_id,
        candidate_name=candidate_name,
        candidate_email=candidate_email,
        bill_rate_cents=bill_rate_cents,
    )


@service.tool(
    intent="accept the candidate and create a work order",
    write=True,
    example=first_example(Submission, "submission_id", where={"status": "shortlisted"}, weekly_hours=40),
)
def accept_submission(
    ctx: Ctx, submission_id: SubmissionId, weekly_hours: Annotated[int, Field(ge=1, le=MAX_WEEK_HOURS)] = 40
) -> WorkOrder:
    """Accept a shortlisted candidate: a pending work order budgeted at rate × weekly hours over the posting's weeks.

    The posting is filled when all its positions are.

    Args:
        submission_id: The shortlisted submission.
        weekly_hours: Hours a week the budget allows.
    """
    sub = ctx.get(Submission, submission_id, field="submission_id")
    if sub.status != "shortlisted":
        raise RuleViolation(f"submission is {sub.status}", field="submission_id", hint="shortlist it first")
    post = ctx.get(Posting, sub.posting_id)
    if post.status != "distributed":
        raise RuleViolation(f"posting is {post.status}", field="submission_id", hint="the posting must be open")
    weeks = max(1, -(-(post.end_date - post.start_date).days // 7))
    ctx.update(sub, status="accepted")
    order = ctx.create(
        WorkOrder,
        posting_id=post.id,
        submission_id=sub.id,
        supplier_id=sub.supplier_id,
        worker_name=sub.candidate_name,
        worker_email=sub.candidate_email,
        hiring_manager_email=post.hiring_manager_email,
        bill_rate_cents=sub.bill_rate_cents,
        start_date=post.start_date,
        end_date=post.end_date,
        budget_cents=sub.bill_rate_cents * weekly_hours * weeks,
    )
    if len(ctx.where(WorkOrder, posting_id=post.id)) >= post.positions:
        ctx.update(post, status="filled")
    return order


def _example_timesheet(ctx: Ctx) -> dict[str, Any] | None:
    for wo in ctx.where(WorkOrder, status="active"):
        monday = ctx.today() - dt.timedelta(days=ctx.today().weekday())
        if ctx.first(Timesheet, work_order_id=wo.id, week_start=monday) is None:
            return {"work_order_id": wo.id, "week_start": monday.isoformat(), "hours": 32}
    return None


@service.tool(intent="submit a time sheet", write=True, example=_example_timesheet)
def submit_timesheet(ctx: Ctx, work_order_id: WorkOrderId, week_start: Date, hours: Hours) -> Timesheet:
    """Submit a week of time on an active work order: once per week, at most 60 hours.

    Args:
        work_order_id: The work order.
        week_start: The Monday of the week (not a future week).
        hours: Hours worked.
    """
    wo = ctx.get(WorkOrder, work_order_id, field="work_order_id")
    if wo.status != "active":
        raise RuleViolation(f"work order is {wo.status}", field="work_order_id", hint="activate it first")
    if week_start.weekday() != 0 or week_start > ctx.today():
        raise RuleViolation("week_start must be a past or current Monday", field="week_start", hint="use a Monday")
    if hours <= 0 or hours > MAX_WEEK_HOURS:
        raise RuleViolation(f"hours must be between 0 and {MAX_WEEK_HOURS}", field="hours", hint="check the hours")
    if ctx.first(Timesheet, work_order_id=wo.id, week_start=week_start) is not None:
        raise Conflict("a time sheet for that week exists", field="week_start", hint="pick another week")
    return ctx.create(
        Timesheet,
        work_order_id=wo.id,
        week_start=week_start,
        hours=hours,
        amount_cents=round(hours * wo.bill_rate_cents),
    )


@service.tool(
    intent="approve the time sheet",
    write=True,
    example=first_example(Timesheet, "timesheet_id", where={"status": "submitted"}),
)
def approve_timesheet(ctx: Ctx, timesheet_id: TimesheetId) -> Timesheet:
    """Approve a submitted time sheet; approved time never exceeds the work order's budget.

    Args:
        timesheet_id: The time sheet.
    """
    ts = ctx.get(Timesheet, timesheet_id, field="timesheet_id")
    if ts.status != "submitted":
        raise RuleViolation(f"time sheet is {ts.status}", field="timesheet_id", hint="approve a submitted one")
    wo = ctx.get(WorkOrder, ts.work_order_id)
    if wo.spent_cents + ts.amount_cents > wo.budget_cents:
        raise RuleViolation(
            f"only {wo.budget_cents - wo.spent_cents} cents of budget are left",
            field="timesheet_id",
            hint="raise the work order's budget or reject the time sheet",
        )
    ctx.update(wo, spent_cents=wo.spent_cents + ts.amount_cents)
    return ctx.update(ts, status="approved")


@service.tool(
    intent="invoice a SOW milestone",
    write=True,
    example=first_example(Sow, "sow_id", where={"status": "approved"}, amount_cents=100_000),
)
def invoice_milestone(ctx: Ctx, sow_id: SowId, amount_cents: Cents) -> Sow:
    """Invoice a milestone of an approved statement of work; invoices never exceed its fee.

    Args:
        sow_id: The statement of work.
        amount_cents: The milestone amount (more than zero).
    """
    sow = ctx.get(Sow, sow_id, field="sow_id")
    if sow.status != "approved":
        raise RuleViolation(f"SOW is {sow.status}", field="sow_id", hint="approve it first")
    if amount_cents <= 0 or sow.invoiced_cents + amount_cents > sow.fee_cents:
        raise RuleViolation(
            f"{sow.fee_cents - sow.invoiced_cents} cents of the fee are left",
            field="amount_cents",
            hint="invoice at most what is left",
        )
    return ctx.update(sow, invoiced_cents=sow.invoiced_cents + amount_cents)


# -- seed -------------------------------------------------------------------------------------

TITLES: tuple[tuple[str, int, int], ...] = (
    ("Software Contractor", 8_500, 14_000),
    ("Data Analyst", 6_000, 9_500),
    ("Project Coordinator", 4_500, 7_000),
    ("QA Tester", 4_000, 6_500),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Suppliers from the world's companies, rate cards, postings in every state, submissions, work orders."""
    pop = s.population
    managers = pop.staff("Engineering", "Operations", fallback=4)
    sups: list[Supplier] = []
    for k, company in enumerate(pop.customers[:4]):
        contact = pop.first_contact(company)
        sups.append(
            s.create(
                Supplier,
                name=company.name,
                contact_email=contact.email if contact else f"vms@{company.domain}",
                status="inactive" if k == 3 else "active",
                markup_percent=20.0 + 3 * k,
            )
        )
    for k, sup in enumerate(sups):
        for j, (title, low, high) in enumerate(TITLES):
            if (j + k) % 4 != 3:
                s.create(
                    RateCard,
                    supplier_id=sup.id,
                    job_title=title,
                    min_rate_cents=low + 200 * k,
                    max_rate_cents=high + 200 * k,
                )
    today = s.now.date()
    workers = pop.consumers
    plan: tuple[tuple[int, PostingStatus], ...] = ((0, "filled"), (1, "distributed"), (2, "draft"), (3, "closed"))
    for k, (t, pstatus) in enumerate(plan):
        title, low, high = TITLES[t]
        start = today - dt.timedelta(days=60) if pstatus == "filled" else today + dt.timedelta(days=20)
        post = s.create(
            Posting,
            job_title=title,
            hiring_manager_email=managers[k % len(managers)].email,
            positions=1 + k % 2,
            max_bill_rate_cents=high,
            start_date=start,
            end_date=start + dt.timedelta(days=180),
            status=pstatus,
            supplier_ids=(sups[0].id, sups[1].id) if pstatus != "draft" else (),
        )
        if pstatus == "draft":
            continue
        for j, sup in enumerate(sups[:2]):
            w = workers[(3 * k + j) % len(workers)]
            pair: tuple[SubmissionStatus, SubmissionStatus] = (
                ("accepted", "rejected") if pstatus == "filled" else ("shortlisted", "submitted")
            )
            sub = s.create(
                Submission,
                posting_id=post.id,
                supplier_id=sup.id,
                candidate_name=w.name,
                candidate_email=w.email,
                bill_rate_cents=low + 1_000,
                status=pair[j],
            )
            if sub.status != "accepted":
                continue
            wo = s.create(
                WorkOrder,
                posting_id=post.id,
                submission_id=sub.id,
                supplier_id=sup.id,
                worker_name=w.name,
                worker_email=w.email,
                hiring_manager_email=post.hiring_manager_email,
                bill_rate_cents=low + 1_000,
                start_date=start,
                end_date=post.end_date,
                budget_cents=(low + 1_000) * 40 * 26,
                status="active",
            )
            monday = today - dt.timedelta(days=today.weekday())
            spent = 0
            for week in range(1, 5):
                hours = 40.0 - week
                status: TimesheetStatus = "approved" if week > 1 else "submitted"
                s.create(
                    Timesheet,
                    work_order_id=wo.id,
                    week_start=monday - dt.timedelta(days=7 * week),
                    hours=hours,
                    amount_cents=round(hours * wo.bill_rate_cents),
                    status=status,
                )
                spent += round(hours * wo.bill_rate_cents) if status == "approved" else 0
            s.update(wo, spent_cents=spent)
    s.create(
        WorkOrder,
        posting_id=post.id,
        submission_id=sub.id,
        supplier_id=sups[1].id,
        worker_name="Sam Rivera",
        worker_email="sam.rivera@contractors.io",
        hiring_manager_email=managers[0].email,
        bill_rate_cents=7_000,
        start_date=today + dt.timedelta(days=7),
        end_date=today + dt.timedelta(days=97),
        budget_cents=2_800_000,
    )
    for k, (title, fee, st) in enumerate(
        (
            ("Data warehouse migration", 12_000_000, "approved"),
            ("Brand refresh", 4_500_000, "draft"),
            ("ERP upgrade", 8_000_000, "closed"),
        )
    ):
        s.create(
            Sow,
            supplier_id=sups[k % 3].id,
            title=title,
            owner_email=managers[k % len(managers)].email,
            fee_cents=fee,
            invoiced_cents=fee // 3 if st != "draft" else 0,
            status=st,
        )
