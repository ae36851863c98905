"""Crewdesk: a home-service business's clients, requests, quotes, jobs, visits and invoices.

Modeled on Jobber's GraphQL API (``Client``, ``Property``, ``Request``,
``Quote``, ``Job``, ``Visit``, ``Invoice``, ``Payment``; mutations such as
``quoteCreate``, ``quoteSend``, ``quoteApprove``, ``jobCreate`` from a quote,
``visitComplete``, ``invoiceCreate``): work flows request → quote → job →
visits → invoice. A request goes new → assessment_scheduled → converted (or
archived); a quote goes draft → awaiting_response (sent only with line items to
a client with an e-mail) → approved or changes_requested → converted (into one
job) or archived; a job is active until its visits are all done
(requires_invoicing) and closes when invoiced; a visit is scheduled → completed
or cancelled and a team member cannot be on two overlapping visits; an invoice
is draft → awaiting_payment → paid (payments never exceed the balance) or
bad_debt. Amounts are cents.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    InvoiceNumber,
    LastName,
    OrderNumber,
    Phone,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "fieldservice",
    title="Crewdesk",
    category="field_service",
    modeled_on="Jobber GraphQL API: clients, properties, requests, quotes (send/approve/convert), jobs, visits "
    "(schedule/complete), invoices and payments",
    description="Running a home-service business (cleaning, landscaping, HVAC, plumbing): clients and their "
    "properties, incoming work requests, quotes sent for approval, jobs with scheduled visits for the crew, "
    "and invoices with their payments.",
)

ClientId = Annotated[str, IdOf("fieldservice.client")]
PropertyId = Annotated[str, IdOf("fieldservice.property")]
RequestId = Annotated[str, IdOf("fieldservice.request")]
QuoteId = Annotated[str, IdOf("fieldservice.quote")]
JobId = Annotated[str, IdOf("fieldservice.job")]
VisitId = Annotated[str, IdOf("fieldservice.visit")]
InvoiceId = Annotated[str, IdOf("fieldservice.invoice")]
PaymentId = Annotated[str, IdOf("fieldservice.payment")]

RequestStatus = Literal["new", "assessment_scheduled", "converted", "archived"]
QuoteStatus = Literal["draft", "awaiting_response", "changes_requested", "approved", "converted", "archived"]
JobStatus = Literal["active", "requires_invoicing", "closed"]
VisitStatus = Literal["scheduled", "completed", "cancelled"]
InvoiceStatus = Literal["draft", "awaiting_payment", "paid", "bad_debt"]
PaymentMethod = Literal["card", "cash", "cheque", "bank_transfer"]

PAYMENT_TERMS_DAYS = 30
MAX_VISIT_HOURS = 12


class LineItem(Value):
    """A product or service line of a quote, job or invoice."""

    name: Title = Field(description="What is done or sold.")
    quantity: Annotated[int, Field(ge=1, le=10000)] = Field(default=1, description="How many.")
    unit_price: Cents = Field(description="Price per unit in cents.")


def _total(items: tuple[LineItem, ...]) -> int:
    return sum(i.quantity * i.unit_price for i in items)


class Client(Record):
    """A client: a household or a business the company works for."""

    id: ClientId
    first_name: FirstName
    """The client's first name."""
    last_name: LastName
    """The client's last name."""
    company_name: CompanyName | None = None
    """The business, for a commercial client."""
    email: Email | None = None
    """The client's e-mail (unique)."""
    phone: Phone | None = None
    """The client's phone."""
    billing_address: PostalAddress
    """Where invoices go."""
    is_lead: bool = True
    """A lead until their first job."""
    created_at: Annotated[DateTime, CREATED]
    """When the client was added."""


class Property(Record):
    """A service address of a client."""

    id: PropertyId
    client_id: ClientId
    """The client."""
    address: PostalAddress
    """The address."""


class Request(Record):
    """A work request from a client (online booking form or phone call)."""

    id: RequestId
    client_id: ClientId
    """The client."""
    property_id: PropertyId | None = None
    """Where the work is."""
    title: Title
    """What they ask for."""
    details: Text = ""
    """More about it."""
    status: RequestStatus = "new"
    """new → assessment_scheduled → converted (to a quote) or archived."""
    assessment_at: DateTime | None = None
    """When someone visits to assess the work."""
    created_at: Annotated[DateTime, CREATED]
    """When it came in."""


class Quote(Record):
    """A quote for work at a property."""

    id: QuoteId
    number: Annotated[OrderNumber, Generated("sequence", "Q-{n:05d}")]
    """The quote number."""
    client_id: ClientId
    """The client."""
    property_id: PropertyId
    """Where the work is."""
    request_id: RequestId | None = None
    """The request it answers."""
    title: Title
    """The work."""
    line_items: tuple[LineItem, ...] = ()
    """What is quoted."""
    total: Cents = 0
    """Sum of the lines in cents."""
    status: QuoteStatus = "draft"
    """draft → awaiting_response → approved / changes_requested → converted or archived."""
    sent_at: DateTime | None = None
    """When it was sent."""
    created_at: Annotated[DateTime, CREATED]
    """When it was drafted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Job(Record):
    """A job: the work agreed, done over one or more visits."""

    id: JobId
    number: Annotated[OrderNumber, Generated("sequence", "J-{n:05d}")]
    """The job number."""
    client_id: ClientId
    """The client."""
    property_id: PropertyId
    """Where the work is."""
    quote_id: QuoteId | None = None
    """The quote it came from."""
    title: Title
    """The work."""
    line_items: tuple[LineItem, ...]
    """What is charged."""
    total: Cents
    """Sum of the lines in cents."""
    status: JobStatus = "active"
    """active → requires_invoicing (all visits done) → closed (invoiced)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Visit(Record):
    """A scheduled visit of the crew for a job."""

    id: VisitId
    job_id: JobId
    """The job."""
    start_at: DateTime
    """When it starts."""
    end_at: DateTime
    """When it ends."""
    assigned_emails: tuple[Email, ...]
    """The team members sent."""
    status: VisitStatus = "scheduled"
    """scheduled → completed or cancelled."""
    completed_at: DateTime | None = None
    """When it was marked done."""


class Invoice(Record):
    """An invoice for a job."""

    id: InvoiceId
    number: Annotated[InvoiceNumber, Generated("sequence", "INV-{n:05d}")]
    """The invoice number."""
    job_id: JobId
    """The job billed."""
    client_id: ClientId
    """The client billed."""
    line_items: tuple[LineItem, ...]
    """What is charged."""
    total: Cents
    """Total in cents."""
    balance: Cents
    """Still owed in cents."""
    due_date: Date
    """When payment is due."""
    status: InvoiceStatus = "draft"
    """draft → awaiting_payment → paid or bad_debt."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Payment(Record):
    """A payment the client made against an invoice."""

    id: PaymentId
    invoice_id: InvoiceId
    """The invoice."""
    client_id: ClientId
    """The client."""
    amount: Cents
    """Amount in cents."""
    method: PaymentMethod = "card"
    """card, cash, cheque or bank_transfer."""
    paid_at: Annotated[DateTime, CREATED]
    """When it was received."""


# -- rules ------------------------------------------------------------------------------------


def _guard_client(ctx: Ctx, new: Any, old: Any) -> None:
    if new.email is not None:
        other = ctx.first(Client, email=new.email)
        if other is not None and other.id != new.id:
            raise Conflict(f"client {other.id} has {new.email}", field="email", hint="use the existing client")


def _guard_property(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Client, new.client_id, field="client_id")
    for p in ctx.where(Property, client_id=new.client_id):
        if p.id != new.id and p.address == new.address:
            raise Conflict(f"the client already has property {p.id} there", field="address", hint="reuse it")


def _guard_request(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Client, new.client_id, field="client_id")
        _own_property(ctx, new.client_id, new.property_id)


def _own_property(ctx: Ctx, client_id: str, property_id: str | None) -> None:
    if property_id is not None and ctx.get(Property, property_id, field="property_id").client_id != client_id:
        raise RuleViolation("the property belongs to another client", field="property_id", hint="pick theirs")


def _guard_quote(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "awaiting_response" and old.status != "awaiting_response":
        if not new.line_items:
            raise RuleViolation("the quote has no line items", field="quote_id", hint="add lines before sending")
        if ctx.get(Client, new.client_id).email is None:
            raise RuleViolation("the client has no e-mail", field="quote_id", hint="add the client's e-mail first")
        ctx.update(new, sent_at=ctx.now())
    if new.line_items != old.line_items:
        if old.status not in ("draft", "changes_requested"):
            raise RuleViolation(f"the quote is {old.status}", field="line_items", hint="only drafts change")
        ctx.update(new, total=_total(new.line_items))


def _guard_visit(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "completed" and old.status != "completed":
        ctx.update(new, completed_at=ctx.now())
        job = ctx.get(Job, new.job_id)
        if all(v.status != "scheduled" for v in ctx.where(Visit, job_id=job.id)) and job.status == "active":
            ctx.update(job, status="requires_invoicing")


def _guard_invoice(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "bad_debt" and old.balance == 0:
        raise RuleViolation("the invoice is paid", field="invoice_id", hint="nothing is owed")


clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cli",
    create=("first_name", "last_name", "company_name", "email", "phone", "billing_address"),
    filters=("email", "is_lead", "company_name"),
    search=("first_name", "last_name", "company_name", "email"),
    update=("first_name", "last_name", "company_name", "email", "phone", "billing_address"),
    delete=False,
    guard_create=_guard_client,
    guard_update=_guard_client,
)
properties = service.resource(
    Property,
    name="property",
    plural="properties",
    prefix="prop",
    create=("client_id", "address"),
    get=False,
    filters=("client_id",),
    delete=False,
    guard_create=_guard_property,
)
requests = service.resource(
    Request,
    name="request",
    plural="requests",
    prefix="req",
    create=("client_id", "property_id", "title", "details"),
    filters=("client_id", "status", "property_id"),
    search=("title", "details"),
    delete=False,
    transitions={"archive": Transition("status", ("new", "assessment_scheduled"), "archived", "archive the request")},
    guard_create=_guard_request,
)
quotes = service.resource(
    Quote,
    name="quote",
    plural="quotes",
    prefix="quo",
    create=False,
    filters=("client_id", "status", "request_id", "property_id"),
    search=("title",),
    update=("title", "line_items"),
    delete=False,
    transitions={
        "send": Transition(
            "status",
            ("draft", "changes_requested"),
            "awaiting_response",
            "send the quote to the client",
            description="E-mail the quote to the client for approval; it needs line items and the client's e-mail.",
        ),
        "approve": Transition("status", ("awaiting_response",), "approved", "mark the quote approved"),
        "request_changes": Transition(
            "status", ("awaiting_response",), "changes_requested", "record that the client asked for changes"
        ),
        "archive": Transition(
            "status", ("draft", "awaiting_response", "changes_requested", "approved"), "archived", "archive the quote"
        ),
    },
    guard_update=_guard_quote,
)
jobs = service.resource(
    Job,
    name="job",
    plural="jobs",
    prefix="job",
    create=False,
    filters=("client_id", "status", "quote_id", "property_id"),
    search=("title",),
    delete=False,
)
visits = service.resource(
    Visit,
    name="visit",
    plural="visits",
    prefix="vis",
    create=False,
    filters=("job_id", "status"),
    delete=False,
    transitions={
        "complete": Transition(
            "status",
            ("scheduled",),
            "completed",
            "mark the visit complete",
            description="Mark a visit done; when a job has no scheduled visit left it requires invoicing.",
        ),
        "cancel": Transition("status", ("scheduled",), "cancelled", "cancel the visit"),
    },
    guard_update=_guard_visit,
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("client_id", "job_id", "status"),
    delete=False,
    transitions={
        "send": Transition("status", ("draft",), "awaiting_payment", "send the invoice to the client"),
        "mark_bad_debt": Transition(
            "status", ("awaiting_payment",), "bad_debt", "write the invoice off as bad debt", destructive=True
        ),
    },
    guard_update=_guard_invoice,
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    get=False,
    filters=("client_id", "invoice_id", "method"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="schedule an assessment for the request",
    write=True,
    example=first_example(Request, "request_id", where={"status": "new"}, assessment_at="2030-05-04T09:00:00Z"),
)
def schedule_assessment(ctx: Ctx, request_id: RequestId, assessment_at: DateTime) -> Request:
    """Book a visit to assess a new request before quoting it.

    Args:
        request_id: The request.
        assessment_at: When (in the future).
    """
    req = ctx.get(Request, request_id, field="request_id")
    if req.status not in ("new", "assessment_scheduled"):
        raise RuleViolation(f"the request is {req.status}", field="request_id", hint="only open requests")
    if assessment_at <= ctx.now():
        raise RuleViolation("the assessment must be in the future", field="assessment_at", hint="pick a later time")
    return ctx.update(req, status="assessment_scheduled", assessment_at=assessment_at)


def _example_quote(ctx: Ctx) -> dict[str, Any] | None:
    for req in ctx.select(Request, {"status": "new"}):
        if req.property_id is not None:
            return {
                "client_id": req.client_id,
                "property_id": req.property_id,
                "title": req.title,
                "request_id": req.id,
                "line_items": [{"name": "Labour (hours)", "quantity": 3, "unit_price": 6500}],
            }
    return None


@service.tool(intent="draft a quote", write=True, example=_example_quote)
def create_quote(
    ctx: Ctx,
    client_id: ClientId,
    property_id: PropertyId,
    title: Title,
    line_items: list[LineItem] | None = None,
    request_id: RequestId | None = None,
) -> Quote:
    """Draft a quote for a client's property, optionally answering a request (which becomes converted).

    Args:
        client_id: The client.
        property_id: One of the client's properties.
        title: The work.
        line_items: The lines (name, quantity, unit_price in cents).
        request_id: The open request it answers.
    """
    ctx.get(Client, client_id, field="client_id")
    _own_property(ctx, client_id, property_id)
    if request_id is not None:
        req = ctx.get(Request, request_id, field="request_id")
        if req.client_id != client_id:
            raise RuleViolation("the request is another client's", field="request_id", hint="pick the client's own")
        if req.status not in ("new", "assessment_scheduled"):
            raise Conflict(f"the request is already {req.status}", field="request_id", hint="quote it only once")
        ctx.update(req, status="converted")
    items = tuple(line_items or ())
    return ctx.create(
        Quote,
        client_id=client_id,
        property_id=property_id,
        request_id=request_id,
        title=title,
        line_items=items,
        total=_total(items),
    )


@service.tool(
    intent="convert the approved quote into a job",
    write=True,
    example=first_example(Quote, "quote_id", where={"status": "approved"}),
)
def convert_quote_to_job(ctx: Ctx, quote_id: QuoteId) -> Job:
    """Turn an approved quote into a job with the same lines; the client stops being a lead.

    Args:
        quote_id: The approved quote.
    """
    quote = ctx.get(Quote, quote_id, field="quote_id")
    if quote.status != "approved":
        raise RuleViolation(
            f"quote {quote.number} is {quote.status}", field="quote_id", hint="the client must approve it first"
        )
    ctx.update(quote, status="converted")
    client = ctx.get(Client, quote.client_id)
    ctx.update(client, is_lead=False)
    return ctx.create(
        Job,
        client_id=quote.client_id,
        property_id=quote.property_id,
        quote_id=quote.id,
        title=quote.title,
        line_items=quote.line_items,
        total=quote.total,
    )


def _staff(ctx: Ctx, emails: list[str]) -> None:
    staff = {p.email for p in ctx.population.employees}
    if not emails:
        raise RuleViolation("a visit needs someone assigned", field="assigned_emails", hint="assign a team member")
    for e in emails:
        if e not in staff:
            raise RuleViolation(f"{e} is not on the team", field="assigned_emails", hint="assign employees")


def _example_visit(ctx: Ctx) -> dict[str, Any] | None:
    job = ctx.first(Job, status="active")
    if job is None:
        return None
    start = dt.datetime.combine(ctx.today() + dt.timedelta(days=400), dt.time(8), tzinfo=dt.UTC)
    return {
        "job_id": job.id,
        "start_at": start.isoformat(),
        "end_at": (start + dt.timedelta(hours=3)).isoformat(),
        "assigned_emails": [ctx.population.employees[-1].email],
    }


@service.tool(intent="schedule a visit for the job", write=True, example=_example_visit)
def schedule_visit(
    ctx: Ctx, job_id: JobId, start_at: DateTime, end_at: DateTime, assigned_emails: list[Email]
) -> Visit:
    """Schedule a crew visit for an open job; nobody can be on two overlapping visits.

    Args:
        job_id: The job (active or requiring invoicing).
        start_at: When it starts.
        end_at: When it ends (after the start, at most 12 hours later).
        assigned_emails: The team members sent.
    """
    job = ctx.get(Job, job_id, field="job_id")
    if job.status == "closed":
        raise RuleViolation(f"job {job.number} is closed", field="job_id", hint="create a new job for more work")
    if not start_at < end_at <= start_at + dt.timedelta(hours=MAX_VISIT_HOURS):
        raise RuleViolation(
            "a visit ends after it starts, within 12 hours", field="end_at", hint="split long work into visits"
        )
    _staff(ctx, assigned_emails)
    for v in ctx.where(Visit, status="scheduled"):
        clash = set(v.assigned_emails) & set(assigned_emails)
        if clash and v.start_at < end_at and start_at < v.end_at:
            raise Conflict(
                f"{sorted(clash)[0]} is on visit {v.id} from {v.start_at:%Y-%m-%d %H:%M}",
                field="assigned_emails",
                hint="pick another time or another team member",
            )
    if job.status == "requires_invoicing":
        ctx.update(job, status="active")
    return ctx.create(Visit, job_id=job.id, start_at=start_at, end_at=end_at, assigned_emails=tuple(assigned_emails))


@service.tool(
    intent="invoice the job",
    write=True,
    example=first_example(Job, "job_id", where={"status": "requires_invoicing"}),
)
def create_invoice(ctx: Ctx, job_id: JobId) -> Invoice:
    """Draft the invoice of a job whose visits are done; the job closes.

    Args:
        job_id: The job (requiring invoicing).
    """
    job = ctx.get(Job, job_id, field="job_id")
    if job.status != "requires_invoicing":
        raise RuleViolation(
            f"job {job.number} is {job.status}",
            field="job_id",
            hint="complete its visits first" if job.status == "active" else "it is already invoiced",
        )
    ctx.update(job, status="closed")
    return ctx.create(
        Invoice,
        job_id=job.id,
        client_id=job.client_id,
        line_items=job.line_items,
        total=job.total,
        balance=job.total,
        due_date=ctx.today() + dt.timedelta(days=PAYMENT_TERMS_DAYS),
    )


@service.tool(
    intent="record a payment on the invoice",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "awaiting_payment"}, amount=1000),
)
def record_payment(ctx: Ctx, invoice_id: InvoiceId, amount: Cents, method: PaymentMethod = "card") -> Payment:
    """Record a client's payment on a sent invoice; it cannot exceed the balance, and a zero balance is paid.

    Args:
        invoice_id: The invoice.
        amount: Amount in cents (more than 0).
        method: card, cash, cheque or bank_transfer.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "awaiting_payment":
        raise RuleViolation(
            f"invoice {inv.number} is {inv.status}",
            field="invoice_id",
            hint="send it first" if inv.status == "draft" else "nothing is owed",
        )
    if not 0 < amount <= inv.balance:
        raise RuleViolation(
            f"the balance is {inv.balance}", field="amount", hint=f"pay between 1 and {inv.balance} cents"
        )
    left = inv.balance - amount
    ctx.update(inv, balance=left, status="paid" if left == 0 else "awaiting_payment")
    return ctx.create(Payment, invoice_id=inv.id, client_id=inv.client_id, amount=amount, method=method)


# -- seed -------------------------------------------------------------------------------------

SERVICES: tuple[tuple[str, tuple[tuple[str, int, int], ...]], ...] = (
    ("Spring lawn renovation", (("Aeration (per 100 m²)", 4, 3500), ("Overseeding", 1, 12000))),
    ("Boiler annual service", (("Boiler service", 1, 9500), ("Flue gas analysis", 1, 2500))),
    ("Gutter cleaning", (("Gutter clean (per metre)", 30, 300),)),
    ("Deep clean, 3-bed house", (("Cleaner hours", 8, 2800), ("Oven clean", 1, 6000))),
    ("Replace kitchen tap", (("Plumber call-out", 1, 7500), ("Mixer tap", 1, 8900))),
    ("Hedge trimming", (("Hedge trim (per metre)", 25, 400), ("Green waste removal", 1, 3500))),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Consumers and some business contacts as clients; requests, quotes, jobs, visits and invoices at every stage."""
    pop = s.population
    crew = pop.staff("Operations", "Customer Success", "Support", fallback=5)
    people = list(pop.consumers[:12]) + list(pop.contacts[:3])
    today = s.now.date()
    for k, p in enumerate(people):
        company = pop.company_of(p)
        client = s.create(
            Client,
            first_name=p.first_name,
            last_name=p.last_name,
            company_name=company.name if company else None,
            email=p.email if k != 5 else None,
            phone=p.phone,
            billing_address=company.address if company else p.address,
            is_lead=k % 5 in (3, 4),
            created_at=s.ago(days=300 - 15 * k),
        )
        prop = s.create(Property, client_id=client.id, address=company.address if company else p.address)
        title, lines = SERVICES[k % len(SERVICES)]
        items = tuple(LineItem(name=n, quantity=q, unit_price=u) for n, q, u in lines)
        stage = k % 5
        if stage == 3:  # a lead with an open request
            s.create(
                Request,
                client_id=client.id,
                property_id=prop.id,
                title=title,
                details="Asked through the online booking form.",
                status="new" if k % 2 else "assessment_scheduled",
                assessment_at=None if k % 2 else s.now + dt.timedelta(days=3, hours=2),
                created_at=s.ago(days=2),
            )
            continue
        if stage == 4:  # a lead with a quote out
            s.create(
                Quote,
                client_id=client.id,
                property_id=prop.id,
                title=title,
                line_items=items,
                total=_total(items),
                status=("approved", "awaiting_response", "changes_requested")[k // 5 % 3],
                sent_at=s.ago(days=4),
                created_at=s.ago(days=6),
                updated_at=s.ago(days=3),
            )
            continue
        quote = s.create(
            Quote,
            client_id=client.id,
            property_id=prop.id,
            title=title,
            line_items=items,
            total=_total(items),
            status="converted",
            sent_at=s.ago(days=40 - k),
            created_at=s.ago(days=42 - k),
            updated_at=s.ago(days=35 - k),
        )
        status: JobStatus = ("active", "requires_invoicing", "closed")[stage]
        job = s.create(
            Job,
            client_id=client.id,
            property_id=prop.id,
            quote_id=quote.id,
            title=title,
            line_items=items,
            total=_total(items),
            status=status,
            created_at=s.ago(days=35 - k),
        )
        day = today + dt.timedelta(days=2 + k) if status == "active" else today - dt.timedelta(days=10 + k)
        start = dt.datetime.combine(day, dt.time(8 + k % 6), tzinfo=dt.UTC)
        s.create(
            Visit,
            job_id=job.id,
            start_at=start,
            end_at=start + dt.timedelta(hours=3),
            assigned_emails=(crew[k % len(crew)].email,),
            status="scheduled" if status == "active" else "completed",
            completed_at=None if status == "active" else start + dt.timedelta(hours=3),
        )
        if status == "closed":
            paid = k % 3 == 0
            inv = s.create(
                Invoice,
                job_id=job.id,
                client_id=client.id,
                line_items=items,
                total=_total(items),
                balance=0 if paid else _total(items),
                due_date=day + dt.timedelta(days=PAYMENT_TERMS_DAYS),
                status="paid" if paid else "awaiting_payment" if k % 3 == 1 else "draft",
                created_at=start + dt.timedelta(hours=5),
            )
            if paid:
                s.create(Payment, invoice_id=inv.id, client_id=client.id, amount=inv.total, paid_at=s.ago(days=3))
