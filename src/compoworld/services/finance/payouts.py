"""Remit Payouts: marketplace payouts to verified recipients, one at a time or in batches, from platform balances.

Modeled on the PayPal Payouts API v1 (payout batches with a unique
sender_batch_id, payout items, UNCLAIMED and cancellation) and Stripe Connect
(connected accounts with identity verification, platform balances per
currency, top-ups): only verified recipients can be paid, a bank payout needs
the recipient's bank account, a payout is in the recipient's currency and
cannot exceed the available balance of that currency nor the per-item maximum,
a batch's sender id is used once and a recipient appears once per batch, only
pending or unclaimed payouts can be cancelled (the money goes back to the
balance), and a failed payout is retried only after its destination changed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    AccountNumber,
    Cents,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Email,
    FileLink,
    IdOf,
    InvoiceNumber,
    PersonName,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "payouts",
    title="Remit Payouts",
    category="payments",
    modeled_on="PayPal Payouts API v1 (payout batches, payout items, unclaimed and cancel) with Stripe Connect "
    "(connected accounts, identity verification, balances, top-ups)",
    description="Mass payouts for a marketplace: recipients (freelancers and partner companies) with identity "
    "verification, platform balances per currency and top-ups, single payouts and payout batches to bank accounts "
    "or wallets, cancellations, failures and retries.",
)

RecipientId = Annotated[str, IdOf("payouts.recipient")]
PayoutId = Annotated[str, IdOf("payouts.payout")]
BatchId = Annotated[str, IdOf("payouts.payout_batch")]
BalanceId = Annotated[str, IdOf("payouts.balance")]
TopUpId = Annotated[str, IdOf("payouts.top_up")]

KycStatus = Literal["unverified", "pending", "verified", "rejected"]
Method = Literal["bank_transfer", "wallet"]
PayoutStatus = Literal["pending", "paid", "failed", "unclaimed", "cancelled"]
SenderBatchId = Annotated[str, StringConstraints(min_length=1, max_length=127, strip_whitespace=True)]
MIN_PAYOUT = 1_00
MAX_PAYOUT = 20_000_00
"""Largest single payout item, in cents."""
MAX_BATCH = 100
ARRIVAL_DAYS: dict[str, int] = {"bank_transfer": 2, "wallet": 0}


class Recipient(Record):
    """A person or company the platform pays (a connected account)."""

    id: RecipientId
    kind: Literal["individual", "company"]
    """individual or company."""
    name: PersonName
    """The individual, or the company's representative."""
    email: Email
    """E-mail the payouts are notified to (and the wallet they go to); unique."""
    business_name: CompanyName | None = None
    """Legal name of a company recipient."""
    country: Country
    """Country of residence or incorporation."""
    currency: Currency
    """Currency the recipient is paid in."""
    payout_method: Method = "bank_transfer"
    """bank_transfer (to bank_account) or wallet (to the e-mail's wallet)."""
    bank_account: AccountNumber | None = None
    """Bank account for bank transfers."""
    kyc_status: KycStatus = "unverified"
    """Identity verification: unverified, pending (documents in review), verified or rejected."""
    kyc_document: FileLink | None = None
    """The document submitted for verification."""
    rejection_reason: Text | None = None
    """Why verification was rejected."""
    created_at: Annotated[DateTime, CREATED]
    """When the recipient was onboarded."""


class Balance(Record):
    """The platform's money in one currency."""

    id: BalanceId
    currency: Currency
    """Currency; one balance per currency."""
    available: Cents
    """Money that can be paid out now, in cents."""
    in_transit: Cents = 0
    """Money in pending payouts, in cents."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class PayoutBatch(Record):
    """A batch of payouts sent together."""

    id: BatchId
    sender_batch_id: SenderBatchId
    """The sender's own id for the batch; used once."""
    email_subject: Title
    """Subject of the e-mail recipients get."""
    currency: Currency
    """Currency of every item."""
    item_count: int
    """Number of payouts."""
    total: Cents
    """Sum of the payouts in cents."""
    status: Literal["processing", "success", "cancelled"] = "processing"
    """processing (items pending), success (every item settled) or cancelled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was sent."""


class Payout(Created):
    """One payout to one recipient."""

    id: PayoutId
    recipient_id: RecipientId
    """The recipient."""
    recipient_email: Email
    """The recipient's e-mail."""
    amount: Cents
    """Amount in cents."""
    currency: Currency
    """Currency."""
    method: Method
    """bank_transfer or wallet."""
    destination: AccountNumber | None = None
    """The bank account of a bank transfer."""
    status: PayoutStatus = "pending"
    """pending, paid, failed (returned by the bank), unclaimed (no wallet for the e-mail) or cancelled."""
    batch_id: BatchId | None = None
    """The batch it was sent in."""
    note: Text = ""
    """Note to the recipient."""
    invoice_number: InvoiceNumber | None = None
    """The recipient's invoice it pays."""
    failure_reason: Text | None = None
    """Why it failed."""
    retry_of: PayoutId | None = None
    """The failed payout this one retries."""
    arrival_date: Date | None = None
    """When the money arrives (or arrived)."""


class TopUp(Record):
    """Money added to a balance from the platform's bank account."""

    id: TopUpId
    currency: Currency
    """Currency."""
    amount: Cents
    """Amount in cents."""
    source_account: AccountNumber
    """The platform's bank account it came from."""
    description: Text = ""
    """Why."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


# -- rules ------------------------------------------------------------------------------------


def _guard_recipient(ctx: Ctx, new: Any, old: Any) -> None:
    if new.kind == "company" and new.business_name is None:
        raise RuleViolation(
            "a company recipient needs its legal name", field="business_name", hint="give the business name"
        )
    if new.payout_method == "bank_transfer" and new.bank_account is None:
        raise RuleViolation(
            "bank transfers need the recipient's bank account",
            field="bank_account",
            hint="add the bank account or pay to the wallet",
        )


def _balance(ctx: Ctx, currency: str, field: str) -> Balance:
    bal = ctx.first(Balance, currency=currency)
    if bal is None:
        raise RuleViolation(
            f"the platform holds no {currency} balance",
            field=field,
            hint=f"add {currency} funds with payouts__top_up_balance first",
        )
    return bal


def _payable(ctx: Ctx, recipient: Recipient, field: str) -> None:
    if recipient.kyc_status != "verified":
        raise RuleViolation(
            f"recipient {recipient.email} is not verified ({recipient.kyc_status})",
            field=field,
            hint="have the recipient verified with payouts__submit_verification and payouts__review_verification",
        )
    if recipient.payout_method == "bank_transfer" and recipient.bank_account is None:
        raise RuleViolation(
            f"recipient {recipient.email} has no bank account",
            field=field,
            hint="add one with payouts__update_recipient",
        )


def _check_amount(amount: int, field: str) -> None:
    if not MIN_PAYOUT <= amount <= MAX_PAYOUT:
        raise RuleViolation(
            f"a payout is between {MIN_PAYOUT} and {MAX_PAYOUT}",
            field=field,
            hint="split larger amounts into several payouts",
        )


def _pay(ctx: Ctx, r: Recipient, amount: int, **extra: Any) -> Payout:
    return ctx.create(
        Payout,
        recipient_id=r.id,
        recipient_email=r.email,
        amount=amount,
        currency=r.currency,
        method=r.payout_method,
        destination=r.bank_account if r.payout_method == "bank_transfer" else None,
        arrival_date=ctx.today() + dt.timedelta(days=ARRIVAL_DAYS[r.payout_method]),
        **extra,
    )


def _debit(ctx: Ctx, bal: Balance, amount: int, field: str) -> None:
    if amount > bal.available:
        raise RuleViolation(
            f"the {bal.currency} balance has {bal.available} available; {amount} is needed",
            field=field,
            hint="top the balance up with payouts__top_up_balance, or pay less",
        )
    ctx.update(bal, available=bal.available - amount, in_transit=bal.in_transit + amount)


recipients = service.resource(
    Recipient,
    name="recipient",
    plural="recipients",
    prefix="acct",
    create=("kind", "name", "email", "business_name", "country", "currency", "payout_method", "bank_account"),
    filters=("kyc_status", "kind", "country", "currency", "email", "payout_method", "bank_account"),
    search=("name", "email", "business_name"),
    update=("email", "payout_method", "bank_account"),
    delete=False,
    unique=("email",),
    guard_create=_guard_recipient,
    guard_update=_guard_recipient,
    title="payout recipient",
)
payouts = service.resource(
    Payout,
    name="payout",
    plural="payouts",
    prefix="po",
    create=False,
    filters=("recipient_id", "recipient_email", "status", "batch_id", "currency", "invoice_number"),
    search=("note",),
    delete=False,
)
batches = service.resource(
    PayoutBatch,
    name="payout_batch",
    plural="payout_batches",
    prefix="batch",
    create=False,
    filters=("status", "currency", "sender_batch_id"),
    search=("email_subject", "sender_batch_id"),
    delete=False,
    title="payout batch",
)
balances = service.resource(
    Balance,
    name="balance",
    plural="balances",
    prefix="bal",
    create=False,
    get=False,
    filters=("currency",),
    delete=False,
    title="platform balance",
)
top_ups = service.resource(
    TopUp,
    name="top_up",
    plural="top_ups",
    prefix="tu",
    create=False,
    get=False,
    filters=("currency",),
    delete=False,
    title="balance top-up",
)


# -- examples ---------------------------------------------------------------------------------


def _funded(ctx: Ctx, r: Recipient) -> bool:
    bal = ctx.first(Balance, currency=r.currency)
    return bal is not None and bal.available >= 500_00


def _retryable(ctx: Ctx, p: Payout) -> bool:
    """Whether a failed payout can go again: its recipient has another bank account now, and funds to pay from."""
    r = ctx.get(Recipient, p.recipient_id)
    return r.bank_account != p.destination and _funded(ctx, r)


def _example_batch(ctx: Ctx) -> dict[str, Any] | None:
    by_cur: dict[str, list[Recipient]] = {}
    for r in ctx.where(Recipient, kyc_status="verified"):
        if _funded(ctx, r):
            by_cur.setdefault(r.currency, []).append(r)
    for cur, rs in sorted(by_cur.items(), key=lambda kv: -len(kv[1])):
        return {
            "sender_batch_id": "2026-03-weekly",
            "email_subject": "Your weekly earnings",
            "currency": cur,
            "items": [{"recipient_email": r.email, "amount": 100_00 + k} for k, r in enumerate(rs[:3])],
        }
    return None


def _example_cancel(ctx: Ctx) -> dict[str, Any] | None:
    for status in ("pending", "unclaimed"):
        p = ctx.first(Payout, status=status)
        if p is not None:
            return {"payout_id": p.id}
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="submit the recipient's identity documents",
    write=True,
    example=first_example(
        Recipient,
        "recipient_id",
        where={"kyc_status": "unverified", "kind": "individual"},
        document_type="passport",
        document_url="https://files.example.com/kyc/p-1.pdf",
    ),
)
def submit_verification(
    ctx: Ctx,
    recipient_id: RecipientId,
    document_type: Literal["passport", "id_card", "company_registration"],
    document_url: FileLink,
) -> Recipient:
    """Submit a recipient's identity document for review; verification becomes pending.

    Individuals submit a passport or ID card, companies their registration.
    An already verified or pending recipient cannot resubmit.

    Args:
        recipient_id: The recipient.
        document_type: passport, id_card or company_registration.
        document_url: Link to the scanned document.
    """
    r = ctx.get(Recipient, recipient_id, field="recipient_id")
    if r.kyc_status in ("pending", "verified"):
        raise RuleViolation(
            f"recipient {r.email} is already {r.kyc_status}", field="recipient_id", hint="nothing to submit"
        )
    wanted = ("company_registration",) if r.kind == "company" else ("passport", "id_card")
    if document_type not in wanted:
        raise RuleViolation(
            f"a {r.kind} recipient is verified with {' or '.join(wanted)}",
            field="document_type",
            hint=f"submit a {wanted[0].replace('_', ' ')}",
        )
    return ctx.update(r, kyc_status="pending", kyc_document=document_url, rejection_reason=None)


@service.tool(
    intent="approve or reject the recipient's verification",
    write=True,
    example=first_example(Recipient, "recipient_id", where={"kyc_status": "pending"}, decision="verified"),
)
def review_verification(
    ctx: Ctx, recipient_id: RecipientId, decision: Literal["verified", "rejected"], reason: Text = ""
) -> Recipient:
    """Decide a pending verification; a rejection needs a reason the recipient is told.

    Args:
        recipient_id: The recipient with a pending verification.
        decision: verified or rejected.
        reason: Why it is rejected.
    """
    r = ctx.get(Recipient, recipient_id, field="recipient_id")
    if r.kyc_status != "pending":
        raise RuleViolation(
            f"recipient {r.email} has no verification in review ({r.kyc_status})",
            field="recipient_id",
            hint="the recipient submits documents with payouts__submit_verification first",
        )
    if decision == "rejected" and not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="tell the recipient what to fix")
    return ctx.update(r, kyc_status=decision, rejection_reason=reason.strip() if decision == "rejected" else None)


@service.tool(
    intent="pay the recipient",
    write=True,
    example=first_example(
        Recipient,
        "recipient_id",
        where={"kyc_status": "verified"},
        match=lambda ctx, r: _funded(ctx, r) and (r.payout_method == "wallet" or bool(r.bank_account)),
        amount=250_00,
        note="March commissions",
        invoice_number="INV-3001",
    ),
)
def create_payout(
    ctx: Ctx,
    recipient_id: RecipientId,
    amount: Cents,
    note: Text = "",
    invoice_number: InvoiceNumber | None = None,
) -> Payout:
    """Pay a verified recipient from the platform balance of the recipient's currency.

    The amount is between 1.00 and 20,000.00 and at most what is available;
    it leaves the balance at once and is in transit until it arrives. An
    invoice can be paid once.

    Args:
        recipient_id: The recipient.
        amount: Amount in cents, in the recipient's currency.
        note: Note to the recipient.
        invoice_number: The recipient's invoice the payout settles.
    """
    r = ctx.get(Recipient, recipient_id, field="recipient_id")
    _payable(ctx, r, "recipient_id")
    _check_amount(amount, "amount")
    if invoice_number is not None:
        for p in ctx.where(Payout, recipient_id=r.id, invoice_number=invoice_number):
            if p.status not in ("cancelled", "failed"):
                raise Conflict(
                    f"invoice {invoice_number} was already paid by payout {p.id}",
                    field="invoice_number",
                    hint="each invoice is paid once",
                )
    _debit(ctx, _balance(ctx, r.currency, "recipient_id"), amount, "amount")
    return _pay(ctx, r, amount, note=note, invoice_number=invoice_number)


class BatchItem(Value):
    """One payout of a batch."""

    recipient_email: Email = Field(description="The recipient's e-mail.")
    amount: Cents = Field(description="Amount in cents.")
    note: Text = Field(default="", description="Note to the recipient.")


class BatchResult(BaseModel):
    """A sent batch and its payouts."""

    batch: PayoutBatch = Field(description="The batch.")
    payouts: list[Payout] = Field(description="Its payouts.")


@service.tool(intent="send a batch of payouts", write=True, example=_example_batch)
def create_payout_batch(
    ctx: Ctx,
    sender_batch_id: SenderBatchId,
    email_subject: Title,
    currency: Currency,
    items: Annotated[list[BatchItem], Field(min_length=1, max_length=MAX_BATCH)],
) -> BatchResult:
    """Send up to 100 payouts in one batch, all in one currency; all are sent or none.

    The sender_batch_id is the caller's own id and can be used once. Every
    recipient must be verified, paid in the batch's currency, and appear
    once; every amount is within the payout limits, and the total cannot
    exceed the available balance.

    Args:
        sender_batch_id: Your own unique id for the batch.
        email_subject: Subject of the notification e-mail.
        currency: Currency of every payout.
        items: The payouts (recipient e-mail, amount, note).
    """
    if ctx.first(PayoutBatch, sender_batch_id=sender_batch_id) is not None:
        raise Conflict(
            f"a batch with sender_batch_id {sender_batch_id!r} was already sent",
            field="sender_batch_id",
            hint="use a new sender_batch_id; look the old one up with payouts__list_payout_batches",
        )
    bal = _balance(ctx, currency, "currency")
    seen: set[str] = set()
    found: list[Recipient] = []
    for k, item in enumerate(items):
        r = ctx.first(Recipient, email=item.recipient_email)
        if r is None:
            raise NotFound(
                f"no recipient with e-mail {item.recipient_email}",
                field=f"items.{k}.recipient_email",
                hint="onboard the recipient with payouts__create_recipient first",
            )
        if r.id in seen:
            raise RuleViolation(
                f"{r.email} is in the batch twice", field=f"items.{k}.recipient_email", hint="pay each recipient once"
            )
        seen.add(r.id)
        _payable(ctx, r, f"items.{k}.recipient_email")
        if r.currency != currency:
            raise RuleViolation(
                f"{r.email} is paid in {r.currency}, not {currency}",
                field=f"items.{k}.recipient_email",
                hint="send a separate batch per currency",
            )
        _check_amount(item.amount, f"items.{k}.amount")
        found.append(r)
    total = sum(i.amount for i in items)
    _debit(ctx, bal, total, "items")
    batch = ctx.create(
        PayoutBatch,
        sender_batch_id=sender_batch_id,
        email_subject=email_subject,
        currency=currency,
        item_count=len(items),
        total=total,
    )
    made = [_pay(ctx, r, item.amount, note=item.note, batch_id=batch.id) for r, item in zip(found, items, strict=True)]
    return BatchResult(batch=batch, payouts=made)


@service.tool(intent="cancel the payout", write=True, destructive=True, example=_example_cancel)
def cancel_payout(ctx: Ctx, payout_id: PayoutId) -> Payout:
    """Cancel a payout that is pending or unclaimed; the money returns to the available balance.

    Args:
        payout_id: The payout.
    """
    p = ctx.get(Payout, payout_id, field="payout_id")
    if p.status not in ("pending", "unclaimed"):
        raise RuleViolation(
            f"payout {p.id} is {p.status}", field="payout_id", hint="only pending or unclaimed payouts can be cancelled"
        )
    bal = ctx.first(Balance, currency=p.currency)
    assert bal is not None
    ctx.update(bal, available=bal.available + p.amount, in_transit=max(0, bal.in_transit - p.amount))
    cancelled = ctx.update(p, status="cancelled", arrival_date=None)
    if p.batch_id is not None:
        batch = ctx.get(PayoutBatch, p.batch_id)
        if all(x.status in ("cancelled",) for x in ctx.where(Payout, batch_id=batch.id)):
            ctx.update(batch, status="cancelled")
    return cancelled


@service.tool(
    intent="retry the failed payout",
    write=True,
    example=first_example(Payout, "payout_id", where={"status": "failed"}, match=_retryable),
)
def retry_payout(ctx: Ctx, payout_id: PayoutId) -> Payout:
    """Send a failed payout again to the recipient's current bank account, which must have changed since.

    Args:
        payout_id: The failed payout.
    """
    p = ctx.get(Payout, payout_id, field="payout_id")
    if p.status != "failed":
        raise RuleViolation(f"payout {p.id} is {p.status}", field="payout_id", hint="only failed payouts are retried")
    if ctx.first(Payout, retry_of=p.id) is not None:
        raise Conflict(f"payout {p.id} was already retried", field="payout_id", hint="check the retry's status")
    r = ctx.get(Recipient, p.recipient_id)
    _payable(ctx, r, "payout_id")
    if r.payout_method == p.method and r.bank_account == p.destination:
        raise RuleViolation(
            f"the payout failed on {p.destination} and the recipient still has that account",
            field="payout_id",
            hint="update the recipient's bank account (or pay to the wallet) first",
        )
    _debit(ctx, _balance(ctx, r.currency, "payout_id"), p.amount, "payout_id")
    return _pay(ctx, r, p.amount, note=p.note, invoice_number=p.invoice_number, retry_of=p.id)


@service.tool(
    intent="add funds to the payout balance",
    write=True,
    example=fixed_example(
        currency="USD", amount=10_000_00, source_account="PLAT-OPS-0001", description="Weekly funding"
    ),
)
def top_up_balance(
    ctx: Ctx, currency: Currency, amount: Cents, source_account: AccountNumber, description: Text = ""
) -> Balance:
    """Add money from the platform's bank account to the balance of a currency (opened if new).

    Args:
        currency: Currency.
        amount: Amount in cents (at least 100.00).
        source_account: The platform's bank account the money comes from.
        description: Why.
    """
    if amount < 100_00:
        raise RuleViolation("a top-up is at least 100.00", field="amount", hint="add at least 10000 cents")
    ctx.create(TopUp, currency=currency, amount=amount, source_account=source_account, description=description)
    bal = ctx.first(Balance, currency=currency)
    if bal is None:
        return ctx.create(Balance, currency=currency, available=amount)
    return ctx.update(bal, available=bal.available + amount)


@service.tool(intent="check the payout balance", example=first_example(Balance, fields={"currency": "currency"}))
def get_balance(ctx: Ctx, currency: Currency) -> Balance:
    """The platform's available and in-transit money in one currency.

    Args:
        currency: Currency.
    """
    return _balance(ctx, currency, "currency")


class Earnings(BaseModel):
    """What a recipient was paid."""

    recipient_id: RecipientId = Field(description="The recipient.")
    recipient_email: Email = Field(description="Their e-mail.")
    name: PersonName = Field(description="Their name.")
    currency: Currency = Field(description="Currency.")
    paid: Cents = Field(description="Paid out in cents.")
    in_transit: Cents = Field(description="Pending or unclaimed in cents.")
    failed: Cents = Field(description="Failed and not retried, in cents.")
    payouts: int = Field(description="Number of payouts.")


@service.tool(
    intent="see how much the recipient was paid",
    example=first_example(Payout, where={"status": "paid"}, fields={"recipient_email": "recipient_email"}),
)
def recipient_earnings(ctx: Ctx, recipient_email: Email) -> Earnings:
    """Total what a recipient was paid, what is on its way and what failed.

    Args:
        recipient_email: The recipient's e-mail.
    """
    r = ctx.first(Recipient, email=recipient_email)
    if r is None:
        raise NotFound(
            f"no recipient with e-mail {recipient_email}",
            field="recipient_email",
            hint="search recipients with payouts__list_recipients",
        )
    mine = ctx.where(Payout, recipient_id=r.id)
    retried = {p.retry_of for p in mine if p.retry_of}
    return Earnings(
        recipient_id=r.id,
        recipient_email=r.email,
        name=r.name,
        currency=r.currency,
        paid=sum(p.amount for p in mine if p.status == "paid"),
        in_transit=sum(p.amount for p in mine if p.status in ("pending", "unclaimed")),
        failed=sum(p.amount for p in mine if p.status == "failed" and p.id not in retried),
        payouts=len(mine),
    )


# -- seed -------------------------------------------------------------------------------------


def _seed_recipients(s: SeedContext) -> list[Recipient]:
    """Consumers as freelancers and customer companies as partners, in every KYC state."""
    pop = s.population
    recipients_: list[Recipient] = []
    statuses: tuple[KycStatus, ...] = (
        "verified",
        "verified",
        "verified",
        "pending",
        "unverified",
        "verified",
        "rejected",
    )
    for i, person in enumerate(pop.consumers[:30]):
        kyc = statuses[i % len(statuses)]
        wallet = i % 4 == 3
        recipients_.append(
            s.create(
                Recipient,
                kind="individual",
                name=person.name,
                email=person.email,
                country=person.place.country,
                currency=person.place.currency,
                payout_method="wallet" if wallet else "bank_transfer",
                bank_account=None if wallet else f"{person.place.country}{60 + i:02d}-{9000 + i * 17:05d}",
                kyc_status=kyc,
                kyc_document=None if kyc == "unverified" else f"https://files.example.com/kyc/{person.key}.pdf",
                rejection_reason="The document is expired" if kyc == "rejected" else None,
                created_at=s.ago(days=300 - i * 7),
            )
        )
    for i, company in enumerate(pop.customers[:8]):
        contact = pop.first_contact(company)
        if contact is None:
            continue
        kyc = ("verified", "verified", "pending", "unverified")[i % 4]
        recipients_.append(
            s.create(
                Recipient,
                kind="company",
                name=contact.name,
                email=contact.email,
                business_name=company.name,
                country=company.place.country,
                currency=company.place.currency,
                bank_account=f"ACCT-{company.key.upper()}-{5000 + i}",
                kyc_status=kyc,
                kyc_document=None if kyc == "unverified" else f"https://files.example.com/kyc/{company.key}.pdf",
                created_at=s.ago(days=200 - i * 9),
            )
        )
    return recipients_


@dataclass
class _Treasury:
    """The platform's balances while payouts are seeded.

    Attributes:
        s: The seed context.
        funded: The currencies the platform holds, sorted.
        main_cur: The funded currency most verified recipients are paid in.
        cushion: What each balance holds once every seeded payout is covered.
        available: What the seeded payouts took from each balance (the opening top-up covers it).
        transit: What is in transit per currency.
    """

    s: SeedContext
    funded: list[str]
    main_cur: str
    cushion: dict[str, int]
    available: dict[str, int]
    transit: dict[str, int]

    @classmethod
    def open(cls, s: SeedContext, recipients_: list[Recipient]) -> _Treasury:
        """Fund the home currency and the currencies verified recipients are paid in, but the rarest foreign one."""
        home_cur = s.population.home.place.currency
        counts: dict[str, int] = {}
        for r in recipients_:
            if r.kyc_status == "verified":
                counts[r.currency] = counts.get(r.currency, 0) + 1
        foreign = sorted((n, c) for c, n in counts.items() if c != home_cur)
        # The rarest foreign currency is not funded: paying it needs a top-up first.
        funded = sorted(({home_cur} | set(counts)) - ({foreign[0][1]} if len(foreign) > 1 else set()))
        return cls(
            s,
            funded,
            main_cur=max(funded, key=lambda c: (counts.get(c, 0), c)),
            cushion={c: (250_000_00 if c == home_cur else 15_000_00) for c in funded},
            available=dict.fromkeys(funded, 0),
            transit=dict.fromkeys(funded, 0),
        )

    def payout(self, r: Recipient, amount: int, status: PayoutStatus, days_ago: int, **extra: Any) -> Payout:
        """Pay ``r`` and take the amount from its currency's balance (unless it was cancelled or failed)."""
        if status in ("pending", "unclaimed"):
            self.transit[r.currency] += amount
        if status not in ("cancelled", "failed"):
            self.available[r.currency] -= amount
        destination = extra.pop("destination", r.bank_account if r.payout_method == "bank_transfer" else None)
        return self.s.create(
            Payout,
            recipient_id=r.id,
            recipient_email=r.email,
            amount=amount,
            currency=r.currency,
            method=r.payout_method,
            destination=destination,
            status=status,
            arrival_date=None if status == "cancelled" else self.s.now.date() - dt.timedelta(days=days_ago - 2),
            created_at=self.s.ago(days=days_ago),
            **extra,
        )

    def close(self) -> None:
        """The opening top-up of every funded currency, which covers the payouts, and the balances left."""
        for c in self.funded:
            self.s.create(
                TopUp,
                currency=c,
                amount=self.cushion[c] - self.available[c],
                source_account="PLAT-OPS-0001",
                description="Opening funding",
                created_at=self.s.ago(days=120),
            )
            self.s.create(
                Balance,
                currency=c,
                available=self.cushion[c],
                in_transit=self.transit[c],
                updated_at=self.s.ago(hours=2),
            )


def _seed_batches(t: _Treasury, payable: list[Recipient]) -> None:
    """A weekly batch that went through and one still processing."""
    s = t.s
    for b, (sender, status) in enumerate((("2026-02-w3", "success"), ("2026-02-w4", "processing"))):
        cur = t.main_cur
        members = [r for r in payable if r.currency == cur][b : b + 4]
        if not members:
            continue
        amounts = [s.rng.randint(50, 900) * 100 for _ in members]
        batch = s.create(
            PayoutBatch,
            sender_batch_id=sender,
            email_subject="Your weekly earnings",
            currency=cur,
            item_count=len(members),
            total=sum(amounts),
            status=status,
            created_at=s.ago(days=9 - b * 5),
        )
        for r, amount in zip(members, amounts, strict=True):
            item_status: PayoutStatus = (
                "paid" if status == "success" else ("unclaimed" if r.payout_method == "wallet" else "pending")
            )
            t.payout(r, amount, item_status, 9 - b * 5, batch_id=batch.id, note="Weekly earnings")


def _seed_singles(t: _Treasury, payable: list[Recipient]) -> None:
    """Single payouts in flight, a cancelled one and failures (one whose account was since fixed)."""
    for k, r in enumerate(payable[3:7]):
        t.payout(r, t.s.rng.randint(100, 2_000) * 100, "pending", 1, note="Bonus", invoice_number=f"INV-{5000 + k}")
    t.payout(payable[0], 320_00, "cancelled", 12, note="Sent twice by mistake")
    banked = [r for r in payable if r.payout_method == "bank_transfer"]
    if len(banked) >= 2:
        t.payout(
            banked[0],
            780_00,
            "failed",
            15,
            destination=f"OLD-{banked[0].bank_account}",
            failure_reason="Account closed",
            note="January earnings",
        )
        t.payout(
            banked[1],
            410_00,
            "failed",
            8,
            failure_reason="Name does not match the account holder",
            note="Referral bonus",
        )


@service.seeder
def seed(s: SeedContext) -> None:
    """Freelancers and partner companies from the population, balances, payout history and batches."""
    recipients_ = _seed_recipients(s)
    t = _Treasury.open(s, recipients_)
    payable = [r for r in recipients_ if r.kyc_status == "verified" and r.currency in t.available]
    for k, r in enumerate(payable):
        for m in range(1 + k % 3):
            t.payout(
                r,
                s.rng.randint(40, 1_800) * 100,
                "paid",
                60 - m * 14 - k % 5,
                note="Monthly earnings",
                invoice_number=f"INV-{4000 + k * 10 + m}",
            )
    _seed_batches(t, payable)
    _seed_singles(t, payable)
    t.close()
