"""Open Records Center: public records (FOIA) requests, their statutory clocks, fees and released documents.

Modeled on NextRequest (``/api/v2/requests`` with request number, requester,
departments and point of contact, due date, state Open/Closed and closure
reasons, ``/documents`` released with redaction and exemption reasons, fee
invoices, due date extensions) and GovQA's public records workflow (new,
in progress, on hold awaiting payment, closed; fee estimates and waivers).

A request runs on its statute's clock: federal FOIA gives 20 business days
from receipt and one extension of 10 business days for unusual circumstances;
a state Public Records Act (California PRA) gives 10 calendar days and one
extension of 14. A request is acknowledged only while received, and worked
only by a records officer of one of its departments. Fees follow the
requester's FOIA fee category: commercial requesters pay search, review and
every copied page; news media and educational requesters pay for pages beyond
the first 100 only; everyone else pays search beyond two hours and pages
beyond 100. An estimate under $25 is not charged; above it the request goes
on hold until the fee is paid or waived (a waiver needs a public-interest
justification). Documents are released only on a request in progress with
nothing owed; a withheld or redacted document cites at least one exemption,
and a document released in full cites none. Closing needs a reason matching
what was released: fulfilled means every document is out in full, partially
fulfilled that something was withheld or redacted, no records that there were
none.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "publicrecords",
    title="Open Records Center",
    category="public_records",
    modeled_on="NextRequest API v2 (requests with departments, point of contact, due dates, extensions, "
    "documents released with redactions and exemptions, fee invoices, closure reasons) and GovQA public "
    "records workflow (new, in progress, on hold for payment, closed; fee estimates and waivers)",
    description="The agency's public records desk: FOIA and state public records requests with their "
    "statutory due dates and extensions, routing to departments and records officers, fee estimates by "
    "requester category with payment or waiver, documents released in full, redacted or withheld under "
    "exemptions, and closure.",
)

DepartmentId = Annotated[str, IdOf("publicrecords.department")]
RequestId = Annotated[str, IdOf("publicrecords.request")]
DocumentId = Annotated[str, IdOf("publicrecords.document")]
FeeId = Annotated[str, IdOf("publicrecords.fee")]

RequestNumber = Annotated[str, StringConstraints(pattern=r"^[0-9]{2}-[0-9]{3,6}$")]
"""NextRequest's request number, e.g. 26-118."""
Statute = Literal["foia", "state_pra"]
RequestStatus = Literal["received", "in_progress", "on_hold", "closed"]
FeeCategory = Literal["commercial", "news_media", "educational", "other"]
Release = Literal["pending_review", "released", "redacted", "withheld"]
Exemption = Literal["b1", "b2", "b3", "b4", "b5", "b6", "b7c", "b7e", "b9"]
"""FOIA 5 U.S.C. 552(b) exemptions: b4 trade secrets, b5 deliberative process, b6 personal privacy …"""
CloseReason = Literal["fulfilled", "partially_fulfilled", "no_records", "withdrawn"]
FeeStatus = Literal["estimated", "paid", "waived", "not_charged"]
Pages = Annotated[int, Field(ge=0, le=100_000)]
Hours = Annotated[float, Field(ge=0, le=500)]

CLOCKS: dict[str, tuple[int, int, bool]] = {"foia": (20, 10, True), "state_pra": (10, 14, False)}
"""Per statute: days to respond, days of the one extension, whether the days are business days."""
SEARCH_CENTS_PER_HOUR = 2_500
REVIEW_CENTS_PER_HOUR = 3_500
PAGE_CENTS = 15
FREE_PAGES = 100
FREE_SEARCH_HOURS = 2.0
MIN_CHARGE = 2_500
OPEN: tuple[RequestStatus, ...] = ("received", "in_progress", "on_hold")


class Department(Created):
    """An agency department that holds records, and its records officers."""

    id: DepartmentId
    name: Title
    """Its name."""
    officer_emails: tuple[Email, ...]
    """Records officers who work its requests."""


class Request(Timestamped):
    """A public records request."""

    id: RequestId
    number: RequestNumber
    """The public request number."""
    statute: Statute = "foia"
    """foia (federal FOIA) or state_pra (a state public records act)."""
    description: Text
    """The records asked for."""
    requester_name: PersonName
    """Who asked."""
    requester_email: Email
    """Their e-mail."""
    requester_company: CompanyName | None = None
    """The organisation they ask for (a newspaper, a firm)."""
    fee_category: FeeCategory = "other"
    """commercial, news_media, educational or other (FOIA fee categories)."""
    department_ids: tuple[DepartmentId, ...]
    """The departments holding the records."""
    point_of_contact: Email | None = None
    """The records officer working it."""
    status: RequestStatus = "received"
    """received, in_progress, on_hold (awaiting payment) or closed."""
    received_on: Date
    """When the agency received it (the clock starts)."""
    due_on: Date
    """The statutory response date (moved by an extension)."""
    extended: bool = False
    """Whether the one extension was taken."""
    extension_reason: Text = ""
    """Why it was extended."""
    closed_on: Date | None = None
    """When it was closed."""
    close_reason: CloseReason | None = None
    """fulfilled, partially_fulfilled, no_records or withdrawn."""


class Document(Created):
    """A record gathered for a request, and how it is released."""

    id: DocumentId
    request_id: RequestId
    """The request."""
    title: Title
    """The document."""
    department_id: DepartmentId
    """Where it came from."""
    pages: Annotated[int, Field(ge=1, le=100_000)]
    """Its page count."""
    release: Release = "pending_review"
    """pending_review, released (in full), redacted or withheld."""
    exemptions: tuple[Exemption, ...] = ()
    """The exemptions cited for redactions or withholding."""
    released_on: Date | None = None
    """When it was released to the requester."""


class Fee(Created):
    """A fee estimate on a request."""

    id: FeeId
    request_id: RequestId
    """The request."""
    search_hours: Hours
    """Hours of search estimated."""
    review_hours: Hours = 0
    """Hours of review (charged to commercial requesters only)."""
    pages: Pages = 0
    """Pages to copy."""
    amount_cents: Cents
    """What is owed under the requester's fee category."""
    status: FeeStatus = "estimated"
    """estimated (owed), paid, waived or not_charged (under the minimum)."""
    waiver_reason: Text = ""
    """The public-interest justification of a waiver."""
    paid_on: Date | None = None
    """When it was paid."""


class Clock(Value):
    """Where a request stands against its statute."""

    request_id: RequestId
    """The request."""
    due_on: Date
    """The response date."""
    days_left: int
    """Calendar days until it (negative: overdue)."""
    overdue: bool
    """Open past its due date."""
    owed_cents: int
    """Fees estimated and not paid."""
    documents_pending: int
    """Documents not reviewed yet."""


# -- rules ------------------------------------------------------------------------------------


def add_days(start: dt.date, days: int, business: bool) -> dt.date:
    """``start`` plus ``days`` calendar days, or business days (Monday to Friday)."""
    if not business:
        return start + dt.timedelta(days=days)
    day = start
    while days > 0:
        day += dt.timedelta(days=1)
        if day.weekday() < 5:
            days -= 1
    return day


def fee_amount(category: str, search_hours: float, review_hours: float, pages: int) -> int:
    """What a FOIA fee category pays for the work, in cents (before the minimum charge)."""
    if category == "commercial":
        return round(search_hours * SEARCH_CENTS_PER_HOUR + review_hours * REVIEW_CENTS_PER_HOUR) + pages * PAGE_CENTS
    copies = max(0, pages - FREE_PAGES) * PAGE_CENTS
    if category in ("news_media", "educational"):
        return copies
    return round(max(0.0, search_hours - FREE_SEARCH_HOURS) * SEARCH_CENTS_PER_HOUR) + copies


def _owed(ctx: Ctx, request_id: str) -> int:
    return sum(f.amount_cents for f in ctx.where(Fee, request_id=request_id, status="estimated"))


def _open(req: Request, field: str = "request_id") -> None:
    if req.status == "closed":
        raise RuleViolation(f"request {req.number} is closed", field=field, hint="nothing more can happen on it")


def _guard_department(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.officer_emails:
        raise RuleViolation("a department needs a records officer", field="officer_emails", hint="list one")
    for other in ctx.where(Department, name=new.name):
        if other.id != new.id:
            raise Conflict(f"department {new.name!r} exists ({other.id})", field="name", hint="use that one")


def _guard_request(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "in_progress" and old.status == "received" and new.point_of_contact is None:
        raise RuleViolation(
            f"request {new.number} has no point of contact",
            field="request_id",
            hint="assign a records officer with publicrecords__assign_request first",
        )


departments = service.resource(
    Department,
    name="department",
    plural="departments",
    prefix="dept",
    create=("name", "officer_emails"),
    get=False,
    filters=("name",),
    search=("name",),
    update=("officer_emails",),
    delete=False,
    guard_create=_guard_department,
    guard_update=_guard_department,
)
requests = service.resource(
    Request,
    name="request",
    plural="requests",
    prefix="prr",
    create=False,
    filters=("number", "status", "statute", "requester_email", "point_of_contact", "fee_category", "close_reason"),
    search=("description", "requester_name", "requester_company"),
    update=("description",),
    delete=False,
    transitions={
        "acknowledge": Transition(
            "status",
            ("received",),
            "in_progress",
            "acknowledge the records request",
            description="Acknowledge a received request: its point of contact starts gathering records.",
        ),
    },
    guard_update=_guard_request,
    title="public records request",
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=False,
    filters=("request_id", "department_id", "release"),
    search=("title",),
    delete=False,
)
fees = service.resource(
    Fee,
    name="fee",
    plural="fees",
    prefix="fee",
    create=False,
    get=False,
    filters=("request_id", "status"),
    delete=False,
    title="fee estimate",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    dept = ctx.first(Department)
    p = ctx.population.contacts[-1]
    company = ctx.population.company_of(p)
    return (
        None
        if dept is None
        else {
            "description": "All contracts with towing vendors signed in 2025.",
            "requester_name": p.name,
            "requester_email": p.email,
            "requester_company": company.name if company else None,
            "department_ids": [dept.id],
            "statute": "state_pra",
            "fee_category": "commercial",
        }
    )


@service.tool(intent="submit the public records request", write=True, example=_example_submit)
def submit_request(
    ctx: Ctx,
    description: Text,
    requester_name: PersonName,
    requester_email: Email,
    department_ids: list[DepartmentId],
    statute: Statute = "foia",
    fee_category: FeeCategory = "other",
    requester_company: CompanyName | None = None,
) -> Request:
    """File a records request; its due date follows the statute from today.

    Args:
        description: The records asked for, as precisely as possible.
        requester_name: Who asks.
        requester_email: Their e-mail.
        department_ids: The departments that hold the records.
        statute: foia (20 business days) or state_pra (10 calendar days).
        fee_category: commercial, news_media, educational or other.
        requester_company: The organisation they ask for.
    """
    if len(description.strip()) < 10:
        raise RuleViolation(
            "describe the records asked for", field="description", hint="name the records, dates and people"
        )
    if not department_ids or len(set(department_ids)) != len(department_ids):
        raise RuleViolation("list each department once", field="department_ids", hint="give at least one")
    for d in department_ids:
        ctx.get(Department, d, field="department_ids")
    if fee_category in ("commercial", "news_media") and requester_company is None:
        raise RuleViolation(
            f"a {fee_category} requester names their organisation",
            field="requester_company",
            hint="give the company or outlet",
        )
    today = ctx.today()
    days, _, business = CLOCKS[statute]
    n = ctx.next_number(Request, "number")
    return ctx.create(
        Request,
        number=f"{today.year % 100:02d}-{200 + n:03d}",
        statute=statute,
        description=description.strip(),
        requester_name=requester_name,
        requester_email=requester_email,
        requester_company=requester_company,
        fee_category=fee_category,
        department_ids=tuple(department_ids),
        received_on=today,
        due_on=add_days(today, days, business),
    )


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for req in ctx.scan(Request):
        if req.status in OPEN:
            dept = ctx.get(Department, req.department_ids[0])
            return {"request_id": req.id, "officer_email": dept.officer_emails[-1]}
    return None


@service.tool(intent="assign the records request", write=True, example=_example_assign)
def assign_request(ctx: Ctx, request_id: RequestId, officer_email: Email) -> Request:
    """Make a records officer of one of the request's departments its point of contact.

    Args:
        request_id: The request.
        officer_email: A records officer of one of its departments.
    """
    req = ctx.get(Request, request_id, field="request_id")
    _open(req)
    allowed = {e for d in req.department_ids for e in ctx.get(Department, d).officer_emails}
    if officer_email not in allowed:
        raise RuleViolation(
            f"{officer_email} is not a records officer of the request's departments",
            field="officer_email",
            hint="pick an officer_email of one of its departments",
        )
    return ctx.update(req, point_of_contact=officer_email)


def _extendable(ctx: Ctx, req: Request) -> bool:
    return not req.extended


@service.tool(
    intent="extend the due date of the records request",
    write=True,
    example=first_example(
        Request,
        "request_id",
        where={"status": "in_progress"},
        match=_extendable,
        reason="Records must be collected from the off-site archive.",
    ),
)
def extend_due_date(ctx: Ctx, request_id: RequestId, reason: Text) -> Request:
    """Take the statute's one extension for unusual circumstances (FOIA +10 business days, PRA +14 days).

    Args:
        request_id: The request.
        reason: The unusual circumstances (required).
    """
    req = ctx.get(Request, request_id, field="request_id")
    _open(req)
    if req.extended:
        raise Conflict(f"request {req.number} was already extended", field="request_id", hint="only one extension")
    if not reason.strip():
        raise RuleViolation("an extension needs a reason", field="reason", hint="name the unusual circumstances")
    _, extra, business = CLOCKS[req.statute]
    return ctx.update(req, due_on=add_days(req.due_on, extra, business), extended=True, extension_reason=reason.strip())


@service.tool(
    intent="estimate the fee of the records request",
    write=True,
    example=first_example(Request, "request_id", where={"status": "in_progress"}, search_hours=4, pages=600),
)
def estimate_fee(
    ctx: Ctx, request_id: RequestId, search_hours: Hours, pages: Pages = 0, review_hours: Hours = 0
) -> Fee:
    """Estimate the fee under the requester's category; over $25 the request waits on hold for payment.

    Args:
        request_id: The request.
        search_hours: Hours of search.
        pages: Pages to copy.
        review_hours: Hours of review (charged to commercial requesters only).
    """
    req = ctx.get(Request, request_id, field="request_id")
    if req.status != "in_progress":
        raise RuleViolation(
            f"request {req.number} is {req.status}",
            field="request_id",
            hint="estimate fees on an acknowledged request with nothing owed",
        )
    amount = fee_amount(req.fee_category, search_hours, review_hours, pages)
    charged = amount >= MIN_CHARGE
    fee = ctx.create(
        Fee,
        request_id=req.id,
        search_hours=search_hours,
        review_hours=review_hours,
        pages=pages,
        amount_cents=amount,
        status="estimated" if charged else "not_charged",
    )
    if charged:
        ctx.update(req, status="on_hold")
    return fee


def _settle(ctx: Ctx, fee: Fee, **changes: Any) -> Fee:
    if fee.status != "estimated":
        raise Conflict(f"fee {fee.id} is {fee.status}", field="fee_id", hint="nothing is owed on it")
    done = ctx.update(fee, **changes)
    req = ctx.get(Request, fee.request_id)
    if req.status == "on_hold" and _owed(ctx, req.id) == 0:
        ctx.update(req, status="in_progress")
    return done


@service.tool(
    intent="record the payment of the fee",
    write=True,
    example=first_example(Fee, "fee_id", where={"status": "estimated"}, fields={"amount_cents": "amount_cents"}),
)
def pay_fee(ctx: Ctx, fee_id: FeeId, amount_cents: Cents) -> Fee:
    """Record the requester's payment of an estimated fee, in full; work resumes when nothing is owed.

    Args:
        fee_id: The fee.
        amount_cents: What was paid; must equal the estimate.
    """
    fee = ctx.get(Fee, fee_id, field="fee_id")
    if fee.status == "estimated" and amount_cents != fee.amount_cents:
        raise RuleViolation(
            f"the estimate is {fee.amount_cents} cents",
            field="amount_cents",
            hint="pay the estimate in full",
        )
    return _settle(ctx, fee, status="paid", paid_on=ctx.today())


@service.tool(
    intent="waive the fee",
    write=True,
    example=first_example(
        Fee, "fee_id", where={"status": "estimated"}, reason="Disclosure informs the public about city spending."
    ),
)
def waive_fee(ctx: Ctx, fee_id: FeeId, reason: Text) -> Fee:
    """Waive an estimated fee because disclosure is in the public interest.

    Args:
        fee_id: The fee.
        reason: The public-interest justification (required).
    """
    fee = ctx.get(Fee, fee_id, field="fee_id")
    if not reason.strip():
        raise RuleViolation(
            "a waiver needs a justification", field="reason", hint="say why it is in the public interest"
        )
    return _settle(ctx, fee, status="waived", waiver_reason=reason.strip())


def _example_document(ctx: Ctx) -> dict[str, Any] | None:
    req = ctx.first(Request, status="in_progress")
    return (
        None
        if req is None
        else {
            "request_id": req.id,
            "title": "Towing contract 2025-114",
            "department_id": req.department_ids[0],
            "pages": 12,
        }
    )


@service.tool(intent="add the document to the records request", write=True, example=_example_document)
def add_document(
    ctx: Ctx, request_id: RequestId, title: Title, department_id: DepartmentId, pages: Annotated[int, Field(ge=1)]
) -> Document:
    """Add a responsive document gathered from one of the request's departments, for review.

    Args:
        request_id: The request.
        title: The document.
        department_id: The department it came from (one of the request's).
        pages: Its page count (at least 1).
    """
    req = ctx.get(Request, request_id, field="request_id")
    _open(req)
    if department_id not in req.department_ids:
        raise RuleViolation(
            f"{department_id} is not on request {req.number}", field="department_id", hint="use one of its departments"
        )
    return ctx.create(Document, request_id=req.id, title=title, department_id=department_id, pages=pages)


def _releasable(ctx: Ctx, doc: Document) -> bool:
    req = ctx.get(Request, doc.request_id)
    return req.status == "in_progress" and _owed(ctx, req.id) == 0


@service.tool(
    intent="release the document",
    write=True,
    destructive=True,
    example=first_example(Document, "document_id", where={"release": "pending_review"}, match=_releasable),
)
def release_document(
    ctx: Ctx, document_id: DocumentId, release: Literal["released", "redacted", "withheld"], exemptions: list[Exemption]
) -> Document:
    """Decide a reviewed document: release it in full, redacted, or withhold it, citing exemptions.

    Args:
        document_id: The document.
        release: released (in full, no exemptions), redacted or withheld (at least one exemption).
        exemptions: The FOIA exemptions cited (b1-b9).
    """
    doc = ctx.get(Document, document_id, field="document_id")
    if doc.release != "pending_review":
        raise Conflict(f"document {doc.id} is already {doc.release}", field="document_id", hint="it was decided")
    req = ctx.get(Request, doc.request_id)
    if req.status != "in_progress":
        raise RuleViolation(
            f"request {req.number} is {req.status}",
            field="document_id",
            hint="documents are released while the request is in progress with nothing owed",
        )
    if release == "released" and exemptions:
        raise RuleViolation("a document released in full cites no exemption", field="exemptions", hint="pass []")
    if release != "released" and not exemptions:
        raise RuleViolation(
            f"a {release} document cites at least one exemption", field="exemptions", hint="e.g. b6 personal privacy"
        )
    return ctx.update(
        doc,
        release=release,
        exemptions=tuple(dict.fromkeys(exemptions)),
        released_on=ctx.today() if release != "withheld" else None,
    )


@service.tool(
    intent="close the records request",
    write=True,
    destructive=True,
    example=first_example(Request, "request_id", where={"status": "received"}, close_reason="withdrawn"),
)
def close_request(ctx: Ctx, request_id: RequestId, close_reason: CloseReason) -> Request:
    """Close a request with the reason its documents bear out; fees must be settled unless withdrawn.

    Args:
        request_id: The request.
        close_reason: fulfilled, partially_fulfilled, no_records or withdrawn (by the requester).
    """
    req = ctx.get(Request, request_id, field="request_id")
    _open(req)
    docs = ctx.where(Document, request_id=req.id)
    if close_reason != "withdrawn":
        if _owed(ctx, req.id):
            raise RuleViolation(
                f"request {req.number} has unpaid fees", field="request_id", hint="collect or waive them first"
            )
        if any(d.release == "pending_review" for d in docs):
            raise RuleViolation(
                f"request {req.number} has documents pending review",
                field="request_id",
                hint="release or withhold them first",
            )
        full = all(d.release == "released" for d in docs)
        expected = "no_records" if not docs else ("fulfilled" if full else "partially_fulfilled")
        if close_reason != expected:
            raise RuleViolation(
                f"its documents make request {req.number} {expected}",
                field="close_reason",
                hint=f"close it as {expected}",
            )
    for fee in ctx.where(Fee, request_id=req.id, status="estimated"):
        ctx.update(fee, status="waived", waiver_reason="Request withdrawn.")
    return ctx.update(req, status="closed", close_reason=close_reason, closed_on=ctx.today())


@service.tool(intent="check the records request's clock", example=first_example(Request, "request_id"))
def request_clock(ctx: Ctx, request_id: RequestId) -> Clock:
    """Where a request stands against its statutory due date, with what is owed and pending.

    Args:
        request_id: The request.
    """
    req = ctx.get(Request, request_id, field="request_id")
    today = ctx.today()
    return Clock(
        request_id=req.id,
        due_on=req.due_on,
        days_left=(req.due_on - today).days,
        overdue=req.status in OPEN and req.due_on < today,
        owed_cents=_owed(ctx, req.id),
        documents_pending=sum(d.release == "pending_review" for d in ctx.where(Document, request_id=req.id)),
    )


@service.tool(intent="list the overdue records requests", example=lambda ctx: {})
def overdue_requests(ctx: Ctx, point_of_contact: Email | None = None) -> list[Request]:
    """Open requests past their due date, most overdue first.

    Args:
        point_of_contact: Only this officer's.
    """
    today = ctx.today()
    late = [
        r
        for r in ctx.scan(Request)
        if r.status in OPEN
        and r.due_on < today
        and (point_of_contact is None or r.point_of_contact == point_of_contact)
    ]
    return sorted(late, key=lambda r: r.due_on)


# -- seed -------------------------------------------------------------------------------------

DEPARTMENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("City Clerk", ("Helen Marsh", "Jorge Villa")),
    ("Police Department", ("Carla Stein", "Ben Okafor")),
    ("Public Works", ("Lena Fischer",)),
    ("Procurement", ("Omar Siddiqui", "Ruth Klein")),
)
ASKS: tuple[tuple[str, tuple[int, ...], FeeCategory, Statute], ...] = (
    ("Emails between the mayor's office and the stadium developer, Jan-Mar.", (0,), "news_media", "state_pra"),
    ("Incident reports for the 400 block of Main Street in 2025.", (1,), "other", "foia"),
    ("Bids received for the 2025 street resurfacing contract.", (3, 2), "commercial", "foia"),
    ("Council meeting minutes and recordings from last September.", (0,), "other", "state_pra"),
    ("Use-of-force policy and training materials.", (1,), "educational", "foia"),
    ("Vendor payments over $10,000 in fiscal year 2025.", (3,), "commercial", "state_pra"),
    ("Pothole complaints and repair logs for District 4.", (2,), "other", "foia"),
    ("Body camera footage policy and retention schedule.", (1,), "news_media", "foia"),
)
STAGES: tuple[str, ...] = (
    "received",
    "in_progress",
    "on_hold",
    "fulfilled",
    "partial",
    "in_progress_overdue",
    "no_records",
    "received",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Departments and their officers; requests from residents, journalists and firms at every stage."""
    pop = s.population
    depts = [
        s.create(
            Department,
            name=name,
            officer_emails=tuple(f"{n.split()[0][0].lower()}{n.split()[1].lower()}@records.city.gov" for n in names),
            created_at=s.ago(days=1000),
        )
        for name, names in DEPARTMENTS
    ]
    firms = list(pop.customers)
    askers = list(pop.consumers[:4]) + [c for c in pop.contacts if pop.company_of(c) is not None][:6]
    today = s.now.date()
    for k, ((text, where, category, statute), stage) in enumerate(zip(ASKS, STAGES, strict=True)):
        who = askers[k % len(askers)]
        company = pop.company_of(who) or (firms[k % len(firms)] if category in ("commercial", "news_media") else None)
        received = today - dt.timedelta(days=3 + 6 * k + (40 if stage == "in_progress_overdue" else 0))
        days, extra, business = CLOCKS[statute]
        due = add_days(received, days, business)
        status: RequestStatus = (
            "received" if stage == "received" else ("on_hold" if stage == "on_hold" else "in_progress")
        )
        closed = stage in ("fulfilled", "partial", "no_records")
        officer = depts[where[0]].officer_emails[k % len(depts[where[0]].officer_emails)]
        req = s.create(
            Request,
            number=f"{received.year % 100:02d}-{101 + k:03d}",
            statute=statute,
            description=text,
            requester_name=who.name,
            requester_email=who.email,
            requester_company=company.name if company else None,
            fee_category=category,
            department_ids=tuple(depts[d].id for d in where),
            point_of_contact=None if status == "received" and k == 0 else officer,
            status="closed" if closed else status,
            received_on=received,
            due_on=add_days(due, extra, business) if k == 4 else due,
            extended=k == 4,
            extension_reason="Records held by two departments must be consulted." if k == 4 else "",
            closed_on=received + dt.timedelta(days=8) if closed else None,
            close_reason={"fulfilled": "fulfilled", "partial": "partially_fulfilled", "no_records": "no_records"}.get(
                stage
            ),
            created_at=s.now - dt.timedelta(days=(today - received).days),
        )
        if stage == "on_hold":
            s.create(
                Fee,
                request_id=req.id,
                search_hours=6,
                pages=900,
                amount_cents=fee_amount(category, 6, 0, 900),
                created_at=req.created_at,
            )
        if stage in ("fulfilled", "partial", "in_progress", "on_hold", "in_progress_overdue"):
            for n, (title, pages) in enumerate((("Responsive e-mails", 34), ("Attachments and memos", 12))):
                release: Release = "pending_review"
                exemptions: tuple[Exemption, ...] = ()
                if stage == "fulfilled":
                    release = "released"
                elif stage == "partial":
                    release, exemptions = ("redacted", ("b6",)) if n == 0 else ("withheld", ("b5",))
                s.create(
                    Document,
                    request_id=req.id,
                    title=title,
                    department_id=req.department_ids[0],
                    pages=pages,
                    release=release,
                    exemptions=exemptions,
                    released_on=req.closed_on if release in ("released", "redacted") else None,
                    created_at=req.created_at,
                )
        if stage == "fulfilled":
            s.create(
                Fee,
                request_id=req.id,
                search_hours=1,
                pages=46,
                amount_cents=fee_amount(category, 1, 0, 46),
                status="not_charged" if fee_amount(category, 1, 0, 46) < MIN_CHARGE else "paid",
                paid_on=None if fee_amount(category, 1, 0, 46) < MIN_CHARGE else req.closed_on,
                created_at=req.created_at,
            )
