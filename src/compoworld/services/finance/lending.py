"""Keystone Capital: small-business lending, from application and underwriting to offers, draws and repayment.

Modeled on small-business loan origination APIs such as Fundbox, Kabbage and
Lendio (businesses, applications with required documents, underwriting
decisions, offers with terms, acceptance, draws against a line of credit,
repayment schedules and late fees): an application goes draft → submitted →
approved or declined (or withdrawn); it is submitted only with every required
document uploaded (bank statements and a tax return; a term loan also the
business license); underwriting needs verified documents and declines a credit
score under 600 or less than a year in business; approval makes up to three
offers sized on annual revenue that expire after 14 days; accepting one
declines the others and opens a loan (one open loan per business); a draw
cannot exceed the line's available credit and creates its monthly installments;
an installment unpaid after its due date is late and carries a late fee of 5%
(at least 25.00), which must be paid with it; repayments restore the line.
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
from compoworld.engine.types import Cents, CompanyName, Date, Email, FileLink, IdOf, Percent, Text, Title
from compoworld.services.finance._shared import percent_of
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "lending",
    title="Keystone Capital",
    category="business_lending",
    modeled_on="Fundbox / Kabbage / Lendio small-business lending APIs (businesses, applications, documents, "
    "underwriting decisions, offers, acceptance, draws, repayment schedules, late fees)",
    description="Small-business lending: borrowers and their loan applications with documents, underwriting "
    "decisions, offers with amount, term and APR, accepted loans and lines of credit, draws against a line, "
    "monthly repayment schedules and late fees.",
)

BusinessId = Annotated[str, IdOf("lending.business")]
ApplicationId = Annotated[str, IdOf("lending.application")]
DocumentId = Annotated[str, IdOf("lending.document")]
OfferId = Annotated[str, IdOf("lending.offer")]
LoanId = Annotated[str, IdOf("lending.loan")]
DrawId = Annotated[str, IdOf("lending.draw")]
InstallmentId = Annotated[str, IdOf("lending.installment")]

Product = Literal["line_of_credit", "term_loan"]
AppStatus = Literal["draft", "submitted", "approved", "declined", "withdrawn"]
DocKind = Literal["bank_statements", "tax_return", "business_license"]
Term = Literal[6, 12, 24]
REQUIRED: dict[str, tuple[DocKind, ...]] = {
    "line_of_credit": ("bank_statements", "tax_return"),
    "term_loan": ("bank_statements", "tax_return", "business_license"),
}
MIN_SCORE = 600
OFFER_DAYS = 14
LATE_FEE_PCT = 5.0
LATE_FEE_MIN = 25_00


class Business(Timestamped):
    """A borrowing business."""

    id: BusinessId
    name: CompanyName
    """Legal name."""
    contact_email: Email
    """The owner or finance contact."""
    industry: Title
    """Industry."""
    annual_revenue: Cents
    """Annual revenue in cents."""
    years_in_business: Annotated[int, Field(ge=0, le=200)]
    """Whole years since founding."""
    credit_score: Annotated[int, Field(ge=300, le=850)]
    """The owner's FICO score."""


class Application(Timestamped):
    """A request for a loan or line of credit."""

    id: ApplicationId
    business_id: BusinessId
    """The applicant."""
    product: Product
    """line_of_credit or term_loan."""
    requested_amount: Annotated[int, Field(ge=1_000_00, le=500_000_00)]
    """Requested amount in cents (1,000.00 to 500,000.00)."""
    purpose: Text = ""
    """What the money is for."""
    status: AppStatus = "draft"
    """draft, submitted, approved, declined or withdrawn."""
    decision_reason: Text | None = None
    """Why it was declined, or the approval basis."""
    underwriter_email: Email | None = None
    """The underwriter who decided."""
    decided_on: Date | None = None
    """When it was decided."""


class Document(Created):
    """A document attached to an application."""

    id: DocumentId
    application_id: ApplicationId
    """The application."""
    kind: DocKind
    """bank_statements, tax_return or business_license."""
    file_url: FileLink
    """Where the file is."""
    status: Literal["uploaded", "verified", "rejected"] = "uploaded"
    """uploaded, verified or rejected."""


class Offer(Created):
    """Terms offered on an approved application."""

    id: OfferId
    application_id: ApplicationId
    """The application."""
    amount: Cents
    """Loan amount or credit limit in cents."""
    term_months: Term
    """Repayment term of a loan or of each draw, in months."""
    apr: Percent
    """Annual percentage rate."""
    expires_on: Date
    """The last day it can be accepted."""
    status: Literal["open", "accepted", "declined"] = "open"
    """open, accepted, or declined (another offer was accepted); an open offer past expires_on cannot be accepted."""


class Loan(Created):
    """An accepted loan or line of credit."""

    id: LoanId
    business_id: BusinessId
    """The borrower."""
    offer_id: OfferId
    """The accepted offer."""
    product: Product
    """line_of_credit or term_loan."""
    credit_limit: Cents
    """The line's limit, or the loan amount, in cents."""
    principal_outstanding: Cents = 0
    """Principal drawn and not repaid, in cents."""
    term_months: Term
    """Months to repay each draw."""
    apr: Percent
    """Annual percentage rate."""
    status: Literal["active", "paid_off", "frozen"] = "active"
    """active, paid_off (term loan repaid) or frozen (a line with late installments: no new draws)."""


class Draw(Created):
    """Money drawn against a loan."""

    id: DrawId
    loan_id: LoanId
    """The loan."""
    amount: Cents
    """Amount in cents."""
    funded_on: Date
    """When the money was sent."""


class Installment(Record):
    """One scheduled repayment of a draw."""

    id: InstallmentId
    loan_id: LoanId
    """The loan."""
    draw_id: DrawId
    """The draw it repays."""
    number: Annotated[int, Field(ge=1, le=24)]
    """Its number in the draw's schedule."""
    due_date: Date
    """When it is due."""
    principal: Cents
    """Principal part in cents."""
    interest: Cents
    """Interest part in cents."""
    late_fee: Cents = 0
    """Late fee charged, in cents."""
    status: Literal["scheduled", "late", "paid"] = "scheduled"
    """scheduled, late (past due, fee charged) or paid."""
    paid_on: Date | None = None
    """When it was paid."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an underwriter", field=field, hint="use an employee's e-mail")


def _guard_application(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        for other in ctx.where(Application, business_id=new.business_id):
            if other.id != new.id and other.status in ("draft", "submitted"):
                raise Conflict(
                    f"application {other.id} is still open", field="business_id", hint="finish or withdraw it first"
                )


def _guard_document(ctx: Ctx, new: Any, old: Any) -> None:
    app = ctx.get(Application, new.application_id)
    if app.status not in ("draft", "submitted"):
        raise RuleViolation(f"application is {app.status}", field="document_id", hint="it is decided already")


businesses = service.resource(
    Business,
    name="business",
    plural="businesses",
    prefix="biz",
    create=("name", "contact_email", "industry", "annual_revenue", "years_in_business", "credit_score"),
    filters=("name", "contact_email", "industry"),
    search=("name", "industry"),
    update=("contact_email", "annual_revenue", "credit_score"),
    delete=False,
    unique=("name",),
    title="borrower",
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=("business_id", "product", "requested_amount", "purpose"),
    filters=("business_id", "product", "status", "underwriter_email"),
    search=("purpose",),
    update=("requested_amount", "purpose"),
    delete=False,
    transitions={
        "withdraw": Transition("status", ("draft", "submitted"), "withdrawn", "withdraw the loan application"),
    },
    guard_create=_guard_application,
    title="loan application",
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=False,
    get=False,
    filters=("application_id", "kind", "status"),
    delete=False,
    transitions={
        "verify": Transition("status", ("uploaded",), "verified", "verify the document"),
        "reject": Transition("status", ("uploaded",), "rejected", "reject the document"),
    },
    guard_update=_guard_document,
    title="application document",
)
offers = service.resource(
    Offer,
    name="offer",
    plural="offers",
    prefix="ofr",
    create=False,
    filters=("application_id", "status"),
    delete=False,
    title="loan offer",
)
loans = service.resource(
    Loan,
    name="loan",
    plural="loans",
    prefix="loan",
    create=False,
    filters=("business_id", "product", "status"),
    delete=False,
    title="loan",
)
draws = service.resource(
    Draw,
    name="draw",
    plural="draws",
    prefix="drw",
    create=False,
    get=False,
    filters=("loan_id",),
    delete=False,
    title="draw",
)
installments = service.resource(
    Installment,
    name="installment",
    plural="installments",
    prefix="ins",
    create=False,
    get=False,
    filters=("loan_id", "draw_id", "status", "due_date"),
    delete=False,
    title="installment",
)


# -- applications -----------------------------------------------------------------------------


def _example_upload(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="draft"):
        have = {d.kind for d in ctx.where(Document, application_id=app.id)}
        for kind in REQUIRED[app.product]:
            if kind not in have:
                return {
                    "application_id": app.id,
                    "kind": kind,
                    "file_url": f"https://files.example.com/{app.id}/{kind}.pdf",
                }
    return None


@service.tool(intent="upload a document to the application", write=True, example=_example_upload)
def upload_document(ctx: Ctx, application_id: ApplicationId, kind: DocKind, file_url: FileLink) -> Document:
    """Attach a document to an open application; a rejected one may be replaced, others not duplicated.

    Args:
        application_id: The draft or submitted application.
        kind: bank_statements, tax_return or business_license.
        file_url: Where the file is.
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status not in ("draft", "submitted"):
        raise RuleViolation(f"application is {app.status}", field="application_id", hint="open a new application")
    for d in ctx.where(Document, application_id=app.id, kind=kind):
        if d.status != "rejected":
            raise Conflict(
                f"{kind} is already {d.status} as {d.id}", field="kind", hint="only a rejected one is replaced"
            )
    return ctx.create(Document, application_id=app.id, kind=kind, file_url=file_url)


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="draft"):
        have = {d.kind for d in ctx.where(Document, application_id=app.id) if d.status != "rejected"}
        if set(REQUIRED[app.product]) <= have:
            return {"application_id": app.id}
    return None


@service.tool(intent="submit the loan application", write=True, example=_example_submit)
def submit_application(ctx: Ctx, application_id: ApplicationId) -> Application:
    """Submit a draft for underwriting; every document its product requires must be uploaded.

    Args:
        application_id: The draft application.
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status != "draft":
        raise RuleViolation(f"application is {app.status}", field="application_id", hint="only drafts are submitted")
    have = {d.kind for d in ctx.where(Document, application_id=app.id) if d.status != "rejected"}
    missing = [k for k in REQUIRED[app.product] if k not in have]
    if missing:
        raise RuleViolation(
            f"missing documents: {', '.join(missing)}",
            field="application_id",
            hint="upload them with lending__upload_document",
        )
    return ctx.update(app, status="submitted")


def _offers(ctx: Ctx, app: Application, biz: Business) -> list[Offer]:
    cap = min(app.requested_amount, biz.annual_revenue * (15 if biz.credit_score >= 700 else 10) // 100)
    base = 9.0 if biz.credit_score >= 740 else 14.0 if biz.credit_score >= 680 else 21.0
    terms: tuple[Term, ...] = (6, 12, 24) if app.product == "term_loan" else (6, 12)
    expires = ctx.today() + dt.timedelta(days=OFFER_DAYS)
    return [
        ctx.create(
            Offer, application_id=app.id, amount=cap // 100 * 100, term_months=t, apr=base + k * 2.5, expires_on=expires
        )
        for k, t in enumerate(terms)
    ]


def _example_underwrite(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="submitted"):
        docs = ctx.where(Document, application_id=app.id)
        need = set(REQUIRED[app.product])
        if need <= {d.kind for d in docs if d.status == "verified"}:
            return {"application_id": app.id, "underwriter_email": ctx.population.staff("Finance", fallback=1)[0].email}
    return None


@service.tool(intent="underwrite the loan application", write=True, example=_example_underwrite)
def underwrite_application(ctx: Ctx, application_id: ApplicationId, underwriter_email: Email) -> Application:
    """Decide a submitted application whose required documents are verified.

    A credit score under 600 or under a year in business declines it; otherwise it is approved with
    offers for up to 10% of annual revenue (15% with a score of 700 or more), expiring in 14 days.

    Args:
        application_id: The submitted application.
        underwriter_email: The employee deciding.
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status != "submitted":
        raise RuleViolation(f"application is {app.status}", field="application_id", hint="submit it first")
    _staff(ctx, underwriter_email, "underwriter_email")
    verified = {d.kind for d in ctx.where(Document, application_id=app.id) if d.status == "verified"}
    pending = [k for k in REQUIRED[app.product] if k not in verified]
    if pending:
        raise RuleViolation(
            f"not verified: {', '.join(pending)}",
            field="application_id",
            hint="verify the documents with lending__verify_document",
        )
    biz = ctx.get(Business, app.business_id)
    reasons = []
    if biz.credit_score < MIN_SCORE:
        reasons.append(f"credit score {biz.credit_score} is under {MIN_SCORE}")
    if biz.years_in_business < 1:
        reasons.append("less than one year in business")
    done = {"underwriter_email": underwriter_email, "decided_on": ctx.today()}
    if reasons:
        return ctx.update(app, status="declined", decision_reason="; ".join(reasons), **done)
    made = _offers(ctx, app, biz)
    return ctx.update(app, status="approved", decision_reason=f"{len(made)} offers up to {made[0].amount}", **done)


@service.tool(
    intent="accept the loan offer",
    write=True,
    example=first_example(Offer, "offer_id", where={"status": "open"}, match=lambda c, o: o.expires_on >= c.today()),
)
def accept_offer(ctx: Ctx, offer_id: OfferId) -> Loan:
    """Accept an open, unexpired offer: the application's other offers are declined and the loan opens.

    A business holds one active loan at a time; a term loan is drawn in full at once.

    Args:
        offer_id: The offer.
    """
    offer = ctx.get(Offer, offer_id, field="offer_id")
    if offer.status != "open":
        raise RuleViolation(f"offer is {offer.status}", field="offer_id", hint="pick an open offer")
    if offer.expires_on < ctx.today():
        raise RuleViolation(f"offer expired on {offer.expires_on}", field="offer_id", hint="apply again")
    app = ctx.get(Application, offer.application_id)
    for other in ctx.where(Loan, business_id=app.business_id):
        if other.status != "paid_off":
            raise Conflict(f"loan {other.id} is still {other.status}", field="offer_id", hint="repay it first")
    for o in ctx.where(Offer, application_id=app.id):
        ctx.update(o, status="accepted" if o.id == offer.id else "declined")
    loan = ctx.create(
        Loan,
        business_id=app.business_id,
        offer_id=offer.id,
        product=app.product,
        credit_limit=offer.amount,
        term_months=offer.term_months,
        apr=offer.apr,
    )
    if app.product == "term_loan":
        _draw(ctx, loan, offer.amount)
    return ctx.get(Loan, loan.id)


# -- draws and repayments ---------------------------------------------------------------------


def _draw(ctx: Ctx, loan: Loan, amount: int) -> Draw:
    draw = ctx.create(Draw, loan_id=loan.id, amount=amount, funded_on=ctx.today())
    monthly_interest = percent_of(amount, loan.apr) // 12
    each = amount // loan.term_months
    for n in range(1, loan.term_months + 1):
        principal = each if n < loan.term_months else amount - each * (loan.term_months - 1)
        ctx.create(
            Installment,
            loan_id=loan.id,
            draw_id=draw.id,
            number=n,
            due_date=add_months(ctx.today(), n),
            principal=principal,
            interest=monthly_interest,
        )
    ctx.update(loan, principal_outstanding=loan.principal_outstanding + amount)
    return draw


def _example_draw(ctx: Ctx) -> dict[str, Any] | None:
    for loan in ctx.where(Loan, product="line_of_credit", status="active"):
        if loan.credit_limit - loan.principal_outstanding >= 1_000_00:
            return {"loan_id": loan.id, "amount": 1_000_00}
    return None


@service.tool(intent="draw funds from the credit line", write=True, example=_example_draw)
def draw_funds(ctx: Ctx, loan_id: LoanId, amount: Annotated[int, Field(ge=100_00, le=500_000_00)]) -> Draw:
    """Draw from an active line of credit, up to its available credit; the draw gets its own monthly schedule.

    Args:
        loan_id: The line of credit.
        amount: Amount in cents (at least 100.00).
    """
    loan = ctx.get(Loan, loan_id, field="loan_id")
    if loan.product != "line_of_credit":
        raise RuleViolation("a term loan is drawn once, at acceptance", field="loan_id", hint="use a line of credit")
    if loan.status != "active":
        raise RuleViolation(f"the line is {loan.status}", field="loan_id", hint="only active lines are drawn")
    late = [i for i in ctx.where(Installment, loan_id=loan.id, status="late")]
    if late:
        raise RuleViolation(f"{len(late)} installment(s) are late", field="loan_id", hint="pay them first")
    available = loan.credit_limit - loan.principal_outstanding
    if amount > available:
        raise RuleViolation(f"only {available} cents are available", field="amount", hint=f"draw at most {available}")
    return _draw(ctx, loan, amount)


@service.tool(
    intent="charge late fees on overdue installments",
    write=True,
    example=first_example(Loan, "loan_id", where={"status": "active"}),
)
def assess_late_fees(ctx: Ctx, loan_id: LoanId) -> list[Installment]:
    """Mark the loan's scheduled installments past their due date late, with a 5% fee (at least 25.00).

    A line of credit with late installments is frozen until they are paid.

    Args:
        loan_id: The loan.

    Returns:
        The installments made late now.
    """
    ctx.get(Loan, loan_id, field="loan_id")
    out = []
    for i in ctx.where(Installment, loan_id=loan_id, status="scheduled"):
        if i.due_date < ctx.today():
            fee = max(LATE_FEE_MIN, percent_of(i.principal + i.interest, LATE_FEE_PCT))
            out.append(ctx.update(i, status="late", late_fee=fee))
    loan = ctx.get(Loan, loan_id)
    if out and loan.product == "line_of_credit" and loan.status == "active":
        ctx.update(loan, status="frozen")
    return out


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for i in ctx.scan(Installment):
        if i.status != "paid":
            return {"installment_id": i.id, "amount": i.principal + i.interest + i.late_fee}
    return None


@service.tool(intent="pay the installment", write=True, example=_example_pay)
def pay_installment(ctx: Ctx, installment_id: InstallmentId, amount: Cents) -> Installment:
    """Pay an installment in full (principal, interest and any late fee); it restores the line's credit.

    Paying a frozen line's last late installment makes it active again.

    Args:
        installment_id: The scheduled or late installment.
        amount: The amount paid, in cents: exactly what is due.
    """
    inst = ctx.get(Installment, installment_id, field="installment_id")
    if inst.status == "paid":
        raise Conflict("installment is already paid", field="installment_id", hint="pick an unpaid one")
    due = inst.principal + inst.interest + inst.late_fee
    if amount != due:
        raise RuleViolation(f"{due} cents are due", field="amount", hint=f"pay exactly {due}")
    loan = ctx.get(Loan, inst.loan_id)
    paid = ctx.update(inst, status="paid", paid_on=ctx.today())
    left = loan.principal_outstanding - inst.principal
    status = loan.status
    if loan.product == "term_loan" and left == 0:
        status = "paid_off"
    elif status == "frozen" and not ctx.where(Installment, loan_id=loan.id, status="late"):
        status = "active"
    ctx.update(loan, principal_outstanding=left, status=status)
    return paid


# -- seed -------------------------------------------------------------------------------------

PLAN: tuple[tuple[str, Product, int, str], ...] = (
    ("loan", "line_of_credit", 80_000_00, "Inventory ahead of the spring season"),
    ("loan", "term_loan", 60_000_00, "New delivery van"),
    ("offers", "line_of_credit", 50_000_00, "Working capital"),
    ("verified", "term_loan", 120_000_00, "Second location fit-out"),
    ("uploaded", "line_of_credit", 40_000_00, "Payroll buffer"),
    ("missing", "term_loan", 25_000_00, "Equipment upgrade"),
    ("complete", "line_of_credit", 30_000_00, "Bridge to receivables"),
    ("declined", "line_of_credit", 35_000_00, "Marketing campaign"),
    ("withdrawn", "term_loan", 70_000_00, "Refinance existing debt"),
)
"""Seeded businesses: where their application stands, the product, the amount asked, the purpose."""
STAGE_STATUS: dict[str, AppStatus] = {
    "loan": "approved",
    "offers": "approved",
    "declined": "declined",
    "withdrawn": "withdrawn",
    "verified": "submitted",
    "uploaded": "submitted",
}
"""The application status of each seeded stage (others: draft)."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Customer companies as borrowers with applications at every stage, two loans with schedules and a draw."""
    pop = s.population
    under = pop.staff("Finance", fallback=2)[0].email
    companies = [c for c in pop.customers if pop.people_at(c)]
    today = s.now.date()
    for k, (stage, product, asked, purpose) in enumerate(PLAN[: len(companies)]):
        c = companies[k]
        score = 580 if stage == "declined" else 640 + (37 * k) % 180
        biz = s.create(
            Business,
            name=c.name,
            contact_email=pop.people_at(c)[0].email,
            industry=c.industry,
            annual_revenue=max(c.employees, 5) * 95_000_00,
            years_in_business=2 + (7 * k) % 20,
            credit_score=score,
            created_at=s.ago(days=200 - k),
            updated_at=s.ago(days=60),
        )
        status = STAGE_STATUS.get(stage, "draft")
        decided = status in ("approved", "declined")
        app = s.create(
            Application,
            business_id=biz.id,
            product=product,
            requested_amount=asked,
            purpose=purpose,
            status=status,
            underwriter_email=under if decided else None,
            decided_on=today - dt.timedelta(days=70 if stage == "loan" else 3) if decided else None,
            decision_reason=f"credit score {score} is under {MIN_SCORE}" if stage == "declined" else None,
            created_at=s.ago(days=90),
            updated_at=s.ago(days=3),
        )
        kinds = REQUIRED[product][:-1] if stage == "missing" else REQUIRED[product]
        for kind in kinds:
            doc = "verified" if stage in ("loan", "offers", "verified", "declined") else "uploaded"
            s.create(
                Document,
                application_id=app.id,
                kind=kind,
                status=doc,
                created_at=s.ago(days=80),
                file_url=f"https://files.keystone.example.com/{app.id}/{kind}.pdf",
            )
        if stage in ("loan", "offers"):
            _seed_offers(s, app, biz, stage == "loan")


def _seed_offers(s: SeedContext, app: Application, biz: Business, accepted: bool) -> None:
    """Offers on an approved application; an accepted one opens a loan drawn 70 days ago."""
    today = s.now.date()
    amount = min(app.requested_amount, biz.annual_revenue // 10) // 100 * 100
    made = [
        s.create(
            Offer,
            application_id=app.id,
            amount=amount,
            term_months=t,
            apr=14.0 + 2.5 * k,
            expires_on=today + dt.timedelta(days=OFFER_DAYS - (80 if accepted else 2)),
            status=("accepted" if k == 1 else "declined") if accepted else "open",
            created_at=s.ago(days=72),
        )
        for k, t in enumerate((6, 12))
    ]
    if not accepted:
        return
    offer = made[1]
    drawn = amount if app.product == "term_loan" else amount // 2
    loan = s.create(
        Loan,
        business_id=biz.id,
        offer_id=offer.id,
        product=app.product,
        credit_limit=amount,
        term_months=offer.term_months,
        apr=offer.apr,
        created_at=s.ago(days=70),
    )
    ago = 70 if app.product == "term_loan" else 20
    funded = today - dt.timedelta(days=ago)
    draw = s.create(Draw, loan_id=loan.id, amount=drawn, funded_on=funded, created_at=s.ago(days=ago))
    each = drawn // offer.term_months
    repaid = 0
    for n in range(1, offer.term_months + 1):
        principal = each if n < offer.term_months else drawn - each * (offer.term_months - 1)
        due = add_months(funded, n)
        paid = due < today - dt.timedelta(days=20)
        repaid += principal if paid else 0
        s.create(
            Installment,
            loan_id=loan.id,
            draw_id=draw.id,
            number=n,
            due_date=due,
            principal=principal,
            interest=percent_of(drawn, offer.apr) // 12,
            status="paid" if paid else "scheduled",
            paid_on=due if paid else None,
        )
    s.update(loan, principal_outstanding=drawn - repaid)
