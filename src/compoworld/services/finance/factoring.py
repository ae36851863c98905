"""Forward Funding: invoice factoring for business clients, run by the company as the factor.

Modeled on the FundThrough and Triumph (TriumphPay) factoring portals: clients
(sellers) with an advance rate, a fee per 30 days and recourse terms, going
onboarding → active → suspended; debtors (the clients' customers) with credit
limits and outstanding balances; schedules of accounts (invoice batches) going
draft → submitted → funded or rejected; per-invoice verifications with the
debtor; funding that advances a share of each verified invoice and holds the
rest in reserve, never past a debtor's credit limit; debtor payments that
close an invoice and release the reserve less the factoring fee as a rebate;
and chargebacks of recourse invoices that are disputed or long past due.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, InvoiceNumber, PersonName, Text
from compoworld.services.finance._shared import percent_of
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "factoring",
    title="Forward Funding",
    category="invoice_factoring",
    modeled_on="FundThrough / Triumph factoring portals: clients, debtors with credit limits, schedules of "
    "accounts, invoice verification, advances and reserves, rebates, chargebacks",
    description="Invoice factoring operations: the business clients who sell their invoices, the debtors who owe "
    "them with credit limits, schedules of invoices submitted for funding, verification calls with debtors, "
    "advances and reserves, debtor payments, rebates of the reserve and chargebacks on recourse invoices.",
)

ClientId = Annotated[str, IdOf("factoring.client")]
DebtorId = Annotated[str, IdOf("factoring.debtor")]
ScheduleId = Annotated[str, IdOf("factoring.schedule")]
InvoiceId = Annotated[str, IdOf("factoring.invoice")]
RebateId = Annotated[str, IdOf("factoring.rebate")]
ChargebackId = Annotated[str, IdOf("factoring.chargeback")]

ClientStatus = Literal["onboarding", "active", "suspended"]
ScheduleStatus = Literal["draft", "submitted", "funded", "rejected"]
InvoiceStatus = Literal["pending", "purchased", "paid", "charged_back", "rejected"]
Verification = Literal["unverified", "verified", "disputed"]
CHARGEBACK_DAYS = 30


class Client(Timestamped):
    """A business that sells its invoices to the factor."""

    id: ClientId
    company_name: CompanyName
    """The client's company."""
    contact_email: Email
    """The client's finance contact."""
    advance_rate: Annotated[float, Field(ge=50, le=100)] = 85.0
    """Share of an invoice advanced at funding, in percent."""
    fee_rate: Annotated[float, Field(ge=0, le=10)] = 2.5
    """Factoring fee per 30 days outstanding, in percent of face value."""
    recourse: bool = True
    """Whether unpaid invoices are charged back to the client."""
    account_manager_email: Email
    """The employee managing the client."""
    status: ClientStatus = "onboarding"
    """onboarding, active or suspended."""


class Debtor(Timestamped):
    """A client's customer, who owes the factored invoices."""

    id: DebtorId
    company_name: CompanyName
    """The debtor's company."""
    ap_email: Email
    """Its accounts payable contact."""
    credit_limit: Cents
    """The most the factor will hold against it, in cents."""
    outstanding: Cents = 0
    """Face value of purchased, unpaid invoices in cents."""
    status: Literal["active", "blocked"] = "active"
    """active, or blocked (no new invoices)."""


class Schedule(Timestamped):
    """A schedule of accounts: a batch of a client's invoices submitted for funding."""

    id: ScheduleId
    number: Annotated[str, Generated("sequence", "SOA-{n:05d}")]
    """Schedule number."""
    client_id: ClientId
    """The client."""
    status: ScheduleStatus = "draft"
    """draft, submitted, funded or rejected."""
    face_total: Cents = 0
    """Face value of its invoices in cents."""
    advance_total: Cents = 0
    """Advanced at funding in cents."""
    funded_at: DateTime | None = None
    """When it was funded."""
    rejection_reason: Text = ""
    """Why it was rejected."""


class Invoice(Timestamped):
    """An invoice of a client to a debtor, offered to or bought by the factor."""

    id: InvoiceId
    schedule_id: ScheduleId
    """Its schedule."""
    client_id: ClientId
    """The client who issued it."""
    debtor_id: DebtorId
    """The debtor who owes it."""
    debtor_name: CompanyName
    """The debtor's name."""
    invoice_number: InvoiceNumber
    """The client's invoice number (unique per client)."""
    face_amount: Cents
    """Face value in cents."""
    invoice_date: Date
    """Issue date."""
    due_date: Date
    """Due date."""
    verification: Verification = "unverified"
    """unverified, verified or disputed (by the debtor)."""
    verified_by: Email | None = None
    """The employee who verified it."""
    verification_contact: PersonName | None = None
    """Who confirmed it at the debtor."""
    status: InvoiceStatus = "pending"
    """pending, purchased, paid, charged_back or rejected."""
    advance_amount: Cents = 0
    """Advanced to the client in cents."""
    reserve_amount: Cents = 0
    """Held in reserve in cents."""
    collected: Cents = 0
    """Paid by the debtor so far in cents."""
    fee: Cents = 0
    """Factoring fee charged at close in cents."""
    purchased_on: Date | None = None
    """When the factor bought it."""


class Rebate(Created):
    """The reserve released to a client once an invoice is paid, less the fee."""

    id: RebateId
    client_id: ClientId
    """The client."""
    invoice_id: InvoiceId
    """The invoice."""
    amount: Cents
    """Amount in cents."""
    status: Literal["pending", "paid"] = "pending"
    """pending or paid."""


class Chargeback(Created):
    """An unpaid recourse invoice charged back to the client."""

    id: ChargebackId
    client_id: ClientId
    """The client."""
    invoice_id: InvoiceId
    """The invoice."""
    amount: Cents
    """What the client owes back (the advance not yet collected) in cents."""
    reason: Literal["past_due", "disputed"]
    """past_due or disputed."""
    status: Literal["open", "settled"] = "open"
    """open, or settled by the client."""


class Position(Value):
    """A client's position with the factor."""

    client_id: ClientId
    """The client."""
    purchased_face: int
    """Face value of purchased, open invoices in cents."""
    advanced_open: int
    """Advances on them in cents."""
    reserve_held: int
    """Reserves held on them in cents."""
    rebates_pending: int
    """Rebates not yet paid in cents."""
    chargebacks_open: int
    """Chargebacks not yet settled in cents."""


# -- rules ------------------------------------------------------------------------------------


def _guard_client(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.account_manager_email, field="account_manager_email", hint="clients are managed by staff")


def _guard_debtor(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.credit_limit < old.outstanding:
        raise RuleViolation(
            f"{old.company_name} already owes {old.outstanding} cents",
            field="credit_limit",
            hint="a credit limit cannot go below what is outstanding",
        )


def _guard_schedule(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        client = ctx.get(Client, new.client_id, field="client_id")
        if client.status != "active":
            raise RuleViolation(
                f"client {client.company_name} is {client.status}",
                field="client_id",
                hint="only active clients submit schedules",
            )
    elif old.status != "draft":
        raise RuleViolation(f"schedule {old.number} is {old.status}", field="schedule_id", hint="only drafts change")


clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cli",
    create=("company_name", "contact_email", "advance_rate", "fee_rate", "recourse", "account_manager_email"),
    filters=("status", "company_name", "contact_email", "account_manager_email"),
    search=("company_name",),
    update=("contact_email", "advance_rate", "fee_rate", "account_manager_email"),
    delete=False,
    unique=("company_name",),
    transitions={
        "activate": Transition("status", ("onboarding", "suspended"), "active", "activate the client"),
        "suspend": Transition("status", ("active",), "suspended", "suspend the client"),
    },
    guard_create=_guard_client,
    guard_update=_guard_client,
)
debtors = service.resource(
    Debtor,
    name="debtor",
    plural="debtors",
    prefix="dbt",
    create=("company_name", "ap_email", "credit_limit"),
    filters=("status", "company_name", "ap_email"),
    search=("company_name",),
    update=("ap_email", "credit_limit"),
    delete=False,
    unique=("company_name",),
    transitions={
        "block": Transition("status", ("active",), "blocked", "block the debtor"),
        "unblock": Transition("status", ("blocked",), "active", "unblock the debtor"),
    },
    guard_update=_guard_debtor,
)
schedules = service.resource(
    Schedule,
    name="schedule",
    plural="schedules",
    prefix="soa",
    create=("client_id",),
    filters=("client_id", "status", "number"),
    guard_create=_guard_schedule,
    guard_delete=_guard_schedule,
    title="schedule of accounts",
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="finv",
    create=False,
    filters=("schedule_id", "client_id", "debtor_id", "status", "verification", "invoice_number", "debtor_name"),
    delete=False,
    title="factored invoice",
)
rebates = service.resource(
    Rebate,
    name="rebate",
    plural="rebates",
    prefix="rbt",
    create=False,
    get=False,
    filters=("client_id", "invoice_id", "status"),
    delete=False,
)
chargebacks = service.resource(
    Chargeback,
    name="chargeback",
    plural="chargebacks",
    prefix="chb",
    create=False,
    get=False,
    filters=("client_id", "invoice_id", "status", "reason"),
    delete=False,
    transitions={"settle": Transition("status", ("open",), "settled", "mark the chargeback settled")},
)


# -- domain tools -----------------------------------------------------------------------------


def _draft(ctx: Ctx, schedule_id: str) -> Schedule:
    sched = ctx.get(Schedule, schedule_id, field="schedule_id")
    if sched.status != "draft":
        raise RuleViolation(
            f"schedule {sched.number} is {sched.status}", field="schedule_id", hint="add invoices to a draft schedule"
        )
    return sched


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    sched, debtor = ctx.first(Schedule, status="draft"), ctx.first(Debtor, status="active")
    if sched is None or debtor is None:
        return None
    day = ctx.today() - dt.timedelta(days=5)
    return {
        "schedule_id": sched.id,
        "debtor_id": debtor.id,
        "invoice_number": f"INV-{ctx.rng.randint(70000, 79999)}",
        "face_amount": 420_000,
        "invoice_date": day.isoformat(),
        "due_date": (day + dt.timedelta(days=30)).isoformat(),
    }


@service.tool(intent="add an invoice to the schedule", write=True, example=_example_add)
def add_invoice(
    ctx: Ctx,
    schedule_id: ScheduleId,
    debtor_id: DebtorId,
    invoice_number: InvoiceNumber,
    face_amount: Cents,
    invoice_date: Date,
    due_date: Date,
) -> Invoice:
    """Add a client's invoice to a draft schedule; it must be recent, to an active debtor, and not offered before.

    Args:
        schedule_id: The draft schedule.
        debtor_id: The debtor who owes it.
        invoice_number: The client's invoice number.
        face_amount: Face value in cents.
        invoice_date: Issue date: within the last 90 days.
        due_date: Due date, after the issue date.
    """
    sched = _draft(ctx, schedule_id)
    debtor = ctx.get(Debtor, debtor_id, field="debtor_id")
    if debtor.status != "active":
        raise RuleViolation(f"debtor {debtor.company_name} is blocked", field="debtor_id", hint="pick an active debtor")
    if ctx.first(Invoice, client_id=sched.client_id, invoice_number=invoice_number):
        raise Conflict(f"invoice {invoice_number} was already offered", field="invoice_number", hint="each once")
    if face_amount <= 0:
        raise RuleViolation("the face amount must be positive", field="face_amount", hint="give the amount in cents")
    today = ctx.today()
    if invoice_date > today or invoice_date < today - dt.timedelta(days=90):
        raise RuleViolation(
            "only invoices issued in the last 90 days are factored", field="invoice_date", hint="offer a newer invoice"
        )
    if due_date <= invoice_date:
        raise RuleViolation("due_date must be after invoice_date", field="due_date", hint="give the real due date")
    made = ctx.create(
        Invoice,
        schedule_id=sched.id,
        client_id=sched.client_id,
        debtor_id=debtor.id,
        debtor_name=debtor.company_name,
        invoice_number=invoice_number,
        face_amount=face_amount,
        invoice_date=invoice_date,
        due_date=due_date,
    )
    ctx.update(sched, face_total=sched.face_total + face_amount)
    return made


def _example_verify(ctx: Ctx) -> dict[str, Any] | None:
    inv = ctx.first(Invoice, verification="unverified", status="pending")
    caller = ctx.population.employees[0].email
    return (
        None
        if inv is None
        else {"invoice_id": inv.id, "outcome": "verified", "contact_name": "Dana Whitfield", "verified_by": caller}
    )


@service.tool(intent="verify the invoice with the debtor", write=True, example=_example_verify)
def verify_invoice(
    ctx: Ctx,
    invoice_id: InvoiceId,
    outcome: Literal["verified", "disputed"],
    contact_name: PersonName,
    verified_by: Email,
) -> Invoice:
    """Record the debtor's answer to a verification call: the goods or services were received, or disputed.

    Args:
        invoice_id: The invoice.
        outcome: verified or disputed.
        contact_name: Who answered at the debtor.
        verified_by: The employee who called.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "pending":
        raise RuleViolation(
            f"invoice {inv.invoice_number} is {inv.status}", field="invoice_id", hint="verify before funding"
        )
    if inv.verification != "unverified":
        raise Conflict(f"invoice {inv.invoice_number} is already {inv.verification}", field="invoice_id", hint="done")
    require_employee(ctx, verified_by, field="verified_by", hint="verifications are made by staff")
    return ctx.update(inv, verification=outcome, verified_by=verified_by, verification_contact=contact_name)


@service.tool(
    intent="submit the schedule for funding",
    write=True,
    example=first_example(Schedule, "schedule_id", where={"status": "draft"}, match=lambda c, r: r.face_total > 0),
)
def submit_schedule(ctx: Ctx, schedule_id: ScheduleId) -> Schedule:
    """Submit a draft schedule with at least one invoice for funding.

    Args:
        schedule_id: The schedule.
    """
    sched = _draft(ctx, schedule_id)
    if not ctx.where(Invoice, schedule_id=sched.id):
        raise RuleViolation(f"schedule {sched.number} has no invoices", field="schedule_id", hint="add invoices first")
    return ctx.update(sched, status="submitted")


def _submitted(ctx: Ctx, schedule_id: str) -> Schedule:
    sched = ctx.get(Schedule, schedule_id, field="schedule_id")
    if sched.status != "submitted":
        raise RuleViolation(f"schedule {sched.number} is {sched.status}", field="schedule_id", hint="submit it first")
    return sched


def _fundable(ctx: Ctx, r: Schedule) -> bool:
    return all(i.verification == "verified" for i in ctx.where(Invoice, schedule_id=r.id))


@service.tool(
    intent="fund the schedule",
    write=True,
    example=first_example(Schedule, "schedule_id", where={"status": "submitted"}, match=_fundable),
)
def fund_schedule(ctx: Ctx, schedule_id: ScheduleId) -> Schedule:
    """Buy a submitted schedule's invoices: advance the client's rate, hold the rest in reserve.

    Every invoice must be verified, and no debtor may go over its credit limit.

    Args:
        schedule_id: The schedule.
    """
    sched = _submitted(ctx, schedule_id)
    client = ctx.get(Client, sched.client_id)
    if client.status != "active":
        raise RuleViolation(f"client {client.company_name} is {client.status}", field="schedule_id", hint="reactivate")
    found = ctx.where(Invoice, schedule_id=sched.id)
    for inv in found:
        if inv.verification != "verified":
            raise RuleViolation(
                f"invoice {inv.invoice_number} is {inv.verification}",
                field="schedule_id",
                hint="verify every invoice with factoring__verify_invoice, or reject the schedule",
            )
    adding: dict[str, int] = {}
    for inv in found:
        adding[inv.debtor_id] = adding.get(inv.debtor_id, 0) + inv.face_amount
    for debtor_id, amount in adding.items():
        debtor = ctx.get(Debtor, debtor_id)
        if debtor.outstanding + amount > debtor.credit_limit:
            raise RuleViolation(
                f"{debtor.company_name} would owe {debtor.outstanding + amount} cents, over its limit {debtor.credit_limit}",
                field="schedule_id",
                hint="raise the debtor's credit limit or reject the schedule",
            )
        ctx.update(debtor, outstanding=debtor.outstanding + amount)
    total = 0
    for inv in found:
        advance = percent_of(inv.face_amount, client.advance_rate)
        total += advance
        ctx.update(
            inv,
            status="purchased",
            advance_amount=advance,
            reserve_amount=inv.face_amount - advance,
            purchased_on=ctx.today(),
        )
    return ctx.update(sched, status="funded", advance_total=total, funded_at=ctx.now())


@service.tool(
    intent="reject the schedule",
    write=True,
    example=first_example(Schedule, "schedule_id", where={"status": "submitted"}, reason="Debtor disputes delivery."),
)
def reject_schedule(ctx: Ctx, schedule_id: ScheduleId, reason: Text) -> Schedule:
    """Reject a submitted schedule; its invoices are not bought.

    Args:
        schedule_id: The schedule.
        reason: Why (required).
    """
    sched = _submitted(ctx, schedule_id)
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="tell the client why")
    for inv in ctx.where(Invoice, schedule_id=sched.id):
        ctx.update(inv, status="rejected")
    return ctx.update(sched, status="rejected", rejection_reason=reason.strip())


def _close(ctx: Ctx, inv: Invoice, debtor: Debtor, status: InvoiceStatus) -> Invoice:
    ctx.update(debtor, outstanding=max(0, debtor.outstanding - inv.face_amount))
    return ctx.update(inv, status=status)


@service.tool(
    intent="record the debtor's payment of the invoice",
    write=True,
    example=lambda ctx: next(
        ({"invoice_id": i.id, "amount": i.face_amount - i.collected} for i in ctx.where(Invoice, status="purchased")),
        None,
    ),
)
def record_payment(ctx: Ctx, invoice_id: InvoiceId, amount: Cents) -> Invoice:
    """Apply a debtor's payment to a purchased invoice; paid in full, the reserve less the fee becomes a rebate.

    The fee is the client's rate for every started 30 days since purchase.

    Args:
        invoice_id: The invoice.
        amount: Amount received in cents, at most what is still owed.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "purchased":
        raise RuleViolation(f"invoice {inv.invoice_number} is {inv.status}", field="invoice_id", hint="only open ones")
    owed = inv.face_amount - inv.collected
    if amount <= 0 or amount > owed:
        raise RuleViolation(f"the payment must be between 1 and {owed} cents", field="amount", hint=f"at most {owed}")
    inv = ctx.update(inv, collected=inv.collected + amount)
    if inv.collected < inv.face_amount:
        return inv
    client = ctx.get(Client, inv.client_id)
    days = (ctx.today() - (inv.purchased_on or ctx.today())).days
    fee = min(inv.reserve_amount, percent_of(inv.face_amount, client.fee_rate) * max(1, -(-days // 30)))
    inv = ctx.update(inv, fee=fee)
    if inv.reserve_amount > fee:
        ctx.create(Rebate, client_id=inv.client_id, invoice_id=inv.id, amount=inv.reserve_amount - fee)
    return _close(ctx, inv, ctx.get(Debtor, inv.debtor_id), "paid")


@service.tool(
    intent="pay the rebate to the client",
    write=True,
    example=first_example(Rebate, "rebate_id", where={"status": "pending"}),
)
def pay_rebate(ctx: Ctx, rebate_id: RebateId) -> Rebate:
    """Pay a pending rebate out to the client.

    Args:
        rebate_id: The rebate.
    """
    rebate = ctx.get(Rebate, rebate_id, field="rebate_id")
    if rebate.status == "paid":
        raise Conflict(f"rebate {rebate.id} is already paid", field="rebate_id", hint="nothing to do")
    if ctx.first(Chargeback, client_id=rebate.client_id, status="open"):
        raise RuleViolation(
            "the client has an open chargeback",
            field="rebate_id",
            hint="settle its chargebacks first (rebates are netted against them)",
        )
    return ctx.update(rebate, status="paid")


def _chargeable(ctx: Ctx, inv: Invoice) -> Literal["past_due", "disputed"] | None:
    if inv.verification == "disputed":
        return "disputed"
    if ctx.today() > inv.due_date + dt.timedelta(days=CHARGEBACK_DAYS):
        return "past_due"
    return None


@service.tool(
    intent="charge the invoice back to the client",
    write=True,
    destructive=True,
    example=first_example(
        Invoice,
        "invoice_id",
        where={"status": "purchased"},
        match=lambda c, r: _chargeable(c, r) is not None and c.get(Client, r.client_id).recourse,
    ),
)
def charge_back(ctx: Ctx, invoice_id: InvoiceId) -> Chargeback:
    """Charge a recourse invoice back to the client when it is disputed or 30+ days past due.

    Args:
        invoice_id: The invoice.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "purchased":
        raise RuleViolation(f"invoice {inv.invoice_number} is {inv.status}", field="invoice_id", hint="only open ones")
    if not ctx.get(Client, inv.client_id).recourse:
        raise RuleViolation("the client sold without recourse", field="invoice_id", hint="the factor bears the loss")
    reason = _chargeable(ctx, inv)
    if reason is None:
        raise RuleViolation(
            f"invoice {inv.invoice_number} is neither disputed nor {CHARGEBACK_DAYS} days past due",
            field="invoice_id",
            hint=f"wait until {inv.due_date + dt.timedelta(days=CHARGEBACK_DAYS + 1)}",
        )
    made = ctx.create(
        Chargeback,
        client_id=inv.client_id,
        invoice_id=inv.id,
        amount=max(0, inv.advance_amount - inv.collected),
        reason=reason,
    )
    _close(ctx, inv, ctx.get(Debtor, inv.debtor_id), "charged_back")
    return made


@service.tool(intent="show the client's position", example=first_example(Client, "client_id"))
def client_position(ctx: Ctx, client_id: ClientId) -> Position:
    """A client's purchased open invoices, advances and reserves, pending rebates and open chargebacks.

    Args:
        client_id: The client.
    """
    client = ctx.get(Client, client_id, field="client_id")
    live = ctx.where(Invoice, client_id=client.id, status="purchased")
    return Position(
        client_id=client.id,
        purchased_face=sum(i.face_amount for i in live),
        advanced_open=sum(i.advance_amount for i in live),
        reserve_held=sum(i.reserve_amount for i in live),
        rebates_pending=sum(r.amount for r in ctx.where(Rebate, client_id=client.id, status="pending")),
        chargebacks_open=sum(c.amount for c in ctx.where(Chargeback, client_id=client.id, status="open")),
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Clients and debtors from the world's companies, funded, submitted and draft schedules, rebates, a chargeback."""
    pop = s.population
    managers = pop.staff("Finance", "Sales", fallback=3)
    companies = list(pop.customers)
    today = s.now.date()
    made_clients: list[Client] = []
    for k, company in enumerate(companies[:4]):
        contact = pop.first_contact(company)
        made_clients.append(
            s.create(
                Client,
                company_name=company.name,
                contact_email=contact.email if contact else f"finance@{company.domain}",
                advance_rate=(85.0, 90.0, 80.0, 85.0)[k],
                fee_rate=(2.5, 2.0, 3.0, 2.75)[k],
                recourse=k != 1,
                account_manager_email=managers[k % len(managers)].email,
                status="onboarding" if k == 3 else "active",
                created_at=s.ago(days=300 - 30 * k),
                updated_at=s.ago(days=30),
            )
        )
    made_debtors = []
    for k, company in enumerate(companies[4:10]):
        contact = pop.first_contact(company)
        made_debtors.append(
            s.create(
                Debtor,
                company_name=company.name,
                ap_email=contact.email if contact else f"ap@{company.domain}",
                credit_limit=(5_000_000, 8_000_000, 3_000_000, 6_000_000, 2_000_000, 4_000_000)[k],
                status="blocked" if k == 5 else "active",
                created_at=s.ago(days=300),
                updated_at=s.ago(days=30),
            )
        )
    n = 0
    for c_i, client in enumerate(made_clients[:3]):
        for status, age in (("funded", 75), ("funded", 20), ("submitted", 2), ("draft", 1)):
            if status == "draft" and c_i:
                continue
            sched = s.create(
                Schedule, client_id=client.id, status="draft", created_at=s.ago(days=age), updated_at=s.ago(days=age)
            )
            face = advance = 0
            for j in range(2):
                n += 1
                debtor = made_debtors[(c_i + j + n) % 5]
                amount = 300_000 + 137_500 * ((n * 7) % 5)
                issued = today - dt.timedelta(days=age + 3)
                inv = s.create(
                    Invoice,
                    schedule_id=sched.id,
                    client_id=client.id,
                    debtor_id=debtor.id,
                    debtor_name=debtor.company_name,
                    invoice_number=f"INV-{1000 + n * 7}",
                    face_amount=amount,
                    invoice_date=issued,
                    due_date=issued + dt.timedelta(days=30),
                    verification="verified" if status == "funded" or j == 0 or c_i == 2 else "unverified",
                    verified_by=managers[0].email if status == "funded" or j == 0 or c_i == 2 else None,
                    created_at=s.ago(days=age),
                    updated_at=s.ago(days=age),
                )
                face += amount
                if status != "funded":
                    continue
                adv = amount * int(client.advance_rate) // 100
                advance += adv
                paid = age > 60 and j == 0
                fee = amount * int(client.fee_rate * 100) // 10000 * 3 if paid else 0
                s.update(
                    inv,
                    status="paid" if paid else "purchased",
                    advance_amount=adv,
                    reserve_amount=amount - adv,
                    purchased_on=today - dt.timedelta(days=age),
                    collected=amount if paid else 0,
                    fee=fee,
                )
                if paid:
                    s.create(
                        Rebate,
                        client_id=client.id,
                        invoice_id=inv.id,
                        amount=amount - adv - fee,
                        status="paid" if c_i else "pending",
                        created_at=s.ago(days=age - 40),
                    )
                else:
                    made_debtors[made_debtors.index(debtor)] = s.update(debtor, outstanding=debtor.outstanding + amount)
            s.update(
                sched,
                status=status,
                face_total=face,
                advance_total=advance,
                funded_at=s.ago(days=age) if status == "funded" else None,
            )
    _seed_chargeback(s, made_clients[2], today)


def _seed_chargeback(s: SeedContext, client: Client, today: dt.date) -> None:
    """One of the client's long overdue invoices was charged back and is still open."""
    for inv in s.records(Invoice):
        if inv.client_id == client.id and inv.status == "purchased" and today > inv.due_date + dt.timedelta(days=30):
            s.create(
                Chargeback,
                client_id=client.id,
                invoice_id=inv.id,
                amount=inv.advance_amount,
                reason="past_due",
                created_at=s.ago(days=2),
            )
            s.update(inv, status="charged_back")
            debtor = next(d for d in s.records(Debtor) if d.id == inv.debtor_id)
            s.update(debtor, outstanding=debtor.outstanding - inv.face_amount)
            return
