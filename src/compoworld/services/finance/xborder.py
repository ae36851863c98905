"""Meridian Pay Global: cross-border payments from multi-currency balances, with quotes, recipients and batches.

Modeled on the Wise Platform / Wise Business API v1-v3 (balances, quotes with
rate and fees that expire, recipient accounts per currency, transfers with
funding and status simulation, batch groups): a quote fixes the mid-market rate
less nothing and charges a fixed fee plus 0.45%; it expires 30 minutes after it
is made and is used by one transfer only; a recipient's account type follows its
currency (EUR iban, GBP sort_code, USD aba, INR ifsc, MXN clabe, others swift);
a transfer needs a live quote in the recipient's currency and a unique
customer transaction id; it goes incoming_payment_waiting → processing →
funds_converted → outgoing_payment_sent, or cancelled (refunded if it was
funded) before the money leaves; funding takes the quote's source amount from
the balance of that currency, which must cover it; a balance closes only empty;
a batch group collects transfers of one source currency, is completed, then
funded in one go from the balance.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import AccountNumber, CompanyName, Currency, DateTime, Email, IdOf, PersonName, Title
from compoworld.services.finance._shared import percent_of
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.world import finance as links

__all__ = ["service"]

service = Service(
    "xborder",
    title="Meridian Pay Global",
    category="cross_border_payments",
    modeled_on="Wise Platform / Wise Business API (balances, quotes, recipient accounts, transfers with funding "
    "and status simulation, batch groups)",
    description="Cross-border business payments: multi-currency balances, quotes with the mid-market rate and "
    "fees that expire, recipient bank accounts per currency, transfers funded from a balance and tracked to "
    "delivery, and batch payments of many transfers funded at once.",
)

BalanceId = Annotated[str, IdOf("xborder.balance")]
QuoteId = Annotated[str, IdOf("xborder.quote")]
RecipientId = Annotated[str, IdOf("xborder.recipient")]
TransferId = Annotated[str, IdOf("xborder.transfer")]
BatchId = Annotated[str, IdOf("xborder.batch_group")]

Minor = Annotated[int, Field(ge=0, le=10**13)]
"""An amount in the currency's minor unit (cents; yen are whole)."""
BankCode = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{4,11}$")]
"""A sort code, routing number, IFSC, CLABE bank code or SWIFT/BIC."""
Reference = Annotated[str, StringConstraints(min_length=1, max_length=35)]
TxnId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9-]{8,64}$")]
"""The customer's own unique id for a transfer (idempotency)."""
AccountType = Literal["iban", "sort_code", "aba", "ifsc", "clabe", "swift"]
TransferStatus = Literal[
    "incoming_payment_waiting", "processing", "funds_converted", "outgoing_payment_sent", "cancelled"
]

PER_USD: dict[str, float] = {
    "USD": 1.0,
    "EUR": 0.9215,
    "GBP": 0.7893,
    "CAD": 1.3581,
    "AUD": 1.5217,
    "JPY": 149.62,
    "INR": 83.07,
    "MXN": 17.08,
    "SGD": 1.3402,
    "CHF": 0.8811,
}
"""Mid-market units of each supported currency per US dollar."""
TYPE_OF: dict[str, AccountType] = {"EUR": "iban", "GBP": "sort_code", "USD": "aba", "INR": "ifsc", "MXN": "clabe"}
FIXED_FEE: dict[str, int] = {"USD": 1_50, "EUR": 1_10, "GBP": 1_00}
"""Fixed fee per source currency in its minor unit (others: 2.00)."""
VARIABLE_FEE = 0.45
QUOTE_LIFE = dt.timedelta(minutes=30)
SENT: tuple[str, ...] = ("outgoing_payment_sent", "cancelled")


def _scale(currency: str) -> int:
    return 1 if currency == "JPY" else 100


class Balance(Created):
    """A balance of the business account in one currency."""

    id: BalanceId
    currency: Currency
    """The currency (one balance each)."""
    amount: Minor
    """Available amount in the minor unit."""
    reserved: Minor = 0
    """Held for transfers funded but not yet converted."""
    status: Literal["active", "closed"] = "active"
    """active or closed."""


class Quote(Created):
    """A price for moving money between two currencies, valid for 30 minutes."""

    id: QuoteId
    source_currency: Currency
    """What is paid in."""
    target_currency: Currency
    """What the recipient gets."""
    source_amount: Minor
    """Paid in, fees included, in the source minor unit."""
    fee: Minor
    """Total fee, in the source minor unit."""
    rate: float
    """Target units per source unit (mid-market)."""
    target_amount: Minor
    """What the recipient gets, in the target minor unit."""
    expires_at: DateTime
    """When the quote can no longer be used."""
    status: Literal["pending", "used"] = "pending"
    """pending, or used by a transfer."""


class Recipient(Timestamped):
    """A recipient's bank account in one currency."""

    id: RecipientId
    currency: Currency
    """The account's currency."""
    business_name: CompanyName | None = None
    """The business account holder."""
    person_name: PersonName | None = None
    """The individual account holder."""
    email: Email | None = None
    """Where delivery notifications go."""
    account_type: AccountType
    """iban (EUR), sort_code (GBP), aba (USD), ifsc (INR), clabe (MXN) or swift (others)."""
    account_number: AccountNumber
    """The account number or IBAN."""
    bank_code: BankCode | None = None
    """Sort code, routing number, IFSC, CLABE bank code or BIC (all but iban)."""
    country: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
    """The bank's country."""
    active: bool = True
    """Deactivated recipients cannot be paid."""


class Transfer(Timestamped):
    """Money sent to a recipient under a quote."""

    id: TransferId
    quote_id: QuoteId
    """The quote it uses."""
    recipient_id: RecipientId
    """The recipient."""
    source_currency: Currency
    """The currency paid in."""
    source_amount: Minor
    """Paid in, in the source minor unit."""
    target_currency: Currency
    """The currency delivered."""
    target_amount: Minor
    """Delivered, in the target minor unit."""
    reference: Reference
    """What the recipient sees."""
    customer_transaction_id: TxnId
    """The customer's unique id for it."""
    status: TransferStatus = "incoming_payment_waiting"
    """incoming_payment_waiting, processing, funds_converted, outgoing_payment_sent or cancelled."""
    funded: bool = False
    """Whether it was paid from a balance."""
    batch_id: BatchId | None = None
    """The batch group it belongs to."""


class BatchGroup(Timestamped):
    """A batch of transfers from one source currency, funded at once."""

    id: BatchId
    name: Title
    """Its name."""
    source_currency: Currency
    """The currency every transfer is paid in."""
    status: Literal["new", "completed", "funded", "cancelled"] = "new"
    """new (taking transfers), completed (closed for additions), funded or cancelled."""
    transfer_ids: tuple[TransferId, ...] = ()
    """Its transfers."""
    total_source_amount: Minor = 0
    """Sum of the transfers' source amounts."""


# -- rules ------------------------------------------------------------------------------------


def _supported(code: str, field: str) -> None:
    if code not in PER_USD:
        raise RuleViolation(f"{code} is not supported", field=field, hint=f"use one of {', '.join(PER_USD)}")


def _price(
    source: str, target: str, source_amount: int | None, target_amount: int | None
) -> tuple[int, int, int, float]:
    """(source_amount, fee, target_amount, rate), amounts in minor units."""
    rate = round(PER_USD[target] / PER_USD[source], 6)
    fixed = FIXED_FEE.get(source, 2 * _scale(source))
    if source_amount is not None:
        fee = fixed + percent_of(source_amount, VARIABLE_FEE)
        target_amount = int(max(0, source_amount - fee) / _scale(source) * rate * _scale(target))
        return source_amount, fee, target_amount, rate
    assert target_amount is not None
    net = round(target_amount / _scale(target) / rate * _scale(source))
    gross = round((net + fixed) / (1 - VARIABLE_FEE / 100))
    return gross, gross - net, target_amount, rate


def _balance(ctx: Ctx, currency: str, field: str) -> Balance:
    bal = ctx.first(Balance, currency=currency, status="active")
    if bal is None:
        raise RuleViolation(f"no {currency} balance", field=field, hint="open one with xborder__open_balance")
    return bal


def _guard_recipient(ctx: Ctx, new: Any, old: Any) -> None:
    if new.active is False and old is not None and old.active:
        for t in ctx.where(Transfer, recipient_id=new.id):
            if t.status not in SENT:
                raise RuleViolation(
                    f"transfer {t.id} to them is {t.status}",
                    field="recipient_id",
                    hint="cancel it or let it complete first",
                )


balances = service.resource(
    Balance,
    name="balance",
    plural="balances",
    prefix="bal",
    create=False,
    filters=("currency", "status"),
    delete=False,
)
quotes = service.resource(
    Quote,
    name="quote",
    plural="quotes",
    prefix="qte",
    create=False,
    filters=("source_currency", "target_currency", "status"),
    delete=False,
)
recipients = service.resource(
    Recipient,
    name="recipient",
    plural="recipients",
    prefix="rcp",
    create=False,
    filters=("currency", "account_type", "country", "active", "email", "business_name"),
    search=("business_name", "person_name", "email"),
    update=("email", "active"),
    delete=False,
    guard_update=_guard_recipient,
    title="recipient account",
)
transfers = service.resource(
    Transfer,
    name="transfer",
    plural="transfers",
    prefix="tr",
    create=False,
    filters=("status", "recipient_id", "source_currency", "target_currency", "batch_id", "customer_transaction_id"),
    search=("reference",),
    delete=False,
)
batches = service.resource(
    BatchGroup,
    name="batch_group",
    plural="batch_groups",
    prefix="bg",
    create=("name", "source_currency"),
    filters=("status", "source_currency"),
    search=("name",),
    delete=False,
    title="batch group",
    guard_create=lambda ctx, new, old: _supported(new.source_currency, "source_currency"),
)


# -- balances ---------------------------------------------------------------------------------


@service.tool(intent="open a currency balance", write=True, example=lambda ctx: {"currency": "CHF"})
def open_balance(ctx: Ctx, currency: Currency) -> Balance:
    """Open a balance in a supported currency; one per currency.

    Args:
        currency: USD, EUR, GBP, CAD, AUD, JPY, INR, MXN, SGD or CHF.
    """
    _supported(currency, "currency")
    if ctx.first(Balance, currency=currency, status="active"):
        raise Conflict(f"a {currency} balance is open", field="currency", hint="use it")
    return ctx.create(Balance, currency=currency, amount=0)


@service.tool(
    intent="close the currency balance",
    write=True,
    example=first_example(Balance, "balance_id", where={"status": "active", "amount": 0}),
)
def close_balance(ctx: Ctx, balance_id: BalanceId) -> Balance:
    """Close an empty balance with nothing reserved.

    Args:
        balance_id: The balance.
    """
    bal = ctx.get(Balance, balance_id, field="balance_id")
    if bal.status != "active":
        raise Conflict("the balance is closed", field="balance_id", hint="nothing to do")
    if bal.amount or bal.reserved:
        raise RuleViolation(
            f"{bal.currency} balance is not empty", field="balance_id", hint="convert or send the money first"
        )
    return ctx.update(bal, status="closed")


@service.tool(
    intent="top up the balance by bank transfer",
    write=True,
    example=first_example(Balance, "balance_id", where={"status": "active"}, amount=50_000_00),
)
def top_up_balance(ctx: Ctx, balance_id: BalanceId, amount: Annotated[int, Field(gt=0, le=10**11)]) -> Balance:
    """Record money received into a balance from the company's bank account.

    Args:
        balance_id: The balance.
        amount: Amount in the minor unit.
    """
    bal = ctx.get(Balance, balance_id, field="balance_id")
    if bal.status != "active":
        raise RuleViolation("the balance is closed", field="balance_id", hint="open a balance in that currency")
    return ctx.update(bal, amount=bal.amount + amount)


# -- quotes and recipients --------------------------------------------------------------------


@service.tool(
    intent="get a quote for a currency transfer",
    write=True,
    example=lambda ctx: {"source_currency": "USD", "target_currency": "EUR", "source_amount": 10_000_00},
)
def create_quote(
    ctx: Ctx,
    source_currency: Currency,
    target_currency: Currency,
    source_amount: Annotated[int, Field(gt=0, le=10**11)] | None = None,
    target_amount: Annotated[int, Field(gt=0, le=10**11)] | None = None,
) -> Quote:
    """Price a transfer: give the amount paid in or the amount to deliver (one of them); valid 30 minutes.

    The rate is mid-market; the fee is a fixed amount plus 0.45% of what is paid in.

    Args:
        source_currency: What is paid in.
        target_currency: What the recipient gets.
        source_amount: Paid in, fees included, in the minor unit.
        target_amount: To deliver, in the target minor unit.
    """
    _supported(source_currency, "source_currency")
    _supported(target_currency, "target_currency")
    if (source_amount is None) == (target_amount is None):
        raise RuleViolation(
            "give source_amount or target_amount, not both", field="source_amount", hint="fix one side of the transfer"
        )
    src, fee, tgt, rate = _price(source_currency, target_currency, source_amount, target_amount)
    if tgt <= 0:
        raise RuleViolation("the fee takes the whole amount", field="source_amount", hint="send more")
    return ctx.create(
        Quote,
        source_currency=source_currency,
        target_currency=target_currency,
        source_amount=src,
        fee=fee,
        rate=rate,
        target_amount=tgt,
        expires_at=ctx.now() + QUOTE_LIFE,
    )


def _example_recipient(ctx: Ctx) -> dict[str, Any] | None:
    sup = links.suppliers(ctx.population)
    name = sup[-1].company.name if sup else "Atelier Lumen SARL"
    return {
        "currency": "EUR",
        "business_name": name,
        "account_number": "FR7630006000011234567890189",
        "country": "FR",
        "email": "billing@atelier-lumen.example.com",
    }


@service.tool(intent="add a recipient bank account", write=True, example=_example_recipient)
def create_recipient(
    ctx: Ctx,
    currency: Currency,
    account_number: AccountNumber,
    country: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")],
    business_name: CompanyName | None = None,
    person_name: PersonName | None = None,
    email: Email | None = None,
    bank_code: BankCode | None = None,
) -> Recipient:
    """Save a recipient's account; its type follows the currency and all but an IBAN need a bank code.

    Args:
        currency: The account's currency.
        account_number: The account number, or the IBAN for EUR.
        country: The bank's country (ISO 3166 alpha-2).
        business_name: A business holder's name (or give person_name).
        person_name: An individual holder's name.
        email: Where delivery notifications go.
        bank_code: Sort code (GBP), routing number (USD), IFSC (INR), CLABE bank code (MXN) or BIC (others).
    """
    _supported(currency, "currency")
    if (business_name is None) == (person_name is None):
        raise RuleViolation("name the holder once", field="business_name", hint="give business_name or person_name")
    kind = TYPE_OF.get(currency, "swift")
    if kind == "iban" and not account_number[:2].isalpha():
        raise RuleViolation("a EUR account is an IBAN", field="account_number", hint="give the IBAN (FR76...)")
    if kind != "iban" and bank_code is None:
        raise RuleViolation(f"a {kind} account needs its bank code", field="bank_code", hint="give the bank code")
    for r in ctx.where(Recipient, account_number=account_number, currency=currency, active=True):
        raise Conflict(f"recipient {r.id} has this account", field="account_number", hint="pay that recipient")
    return ctx.create(
        Recipient,
        currency=currency,
        business_name=business_name,
        person_name=person_name,
        email=email,
        account_type=kind,
        account_number=account_number,
        bank_code=None if kind == "iban" else bank_code,
        country=country,
    )


# -- transfers --------------------------------------------------------------------------------


def _live_quote(ctx: Ctx, quote_id: str) -> Quote:
    q = ctx.get(Quote, quote_id, field="quote_id")
    if q.status != "pending":
        raise Conflict("the quote was used by another transfer", field="quote_id", hint="get a new quote")
    if q.expires_at <= ctx.now():
        raise RuleViolation(f"the quote expired at {q.expires_at}", field="quote_id", hint="get a new quote")
    return q


def _new_transfer(ctx: Ctx, quote_id: str, recipient_id: str, reference: str, txn: str, batch: str | None) -> Transfer:
    q = _live_quote(ctx, quote_id)
    rcp = ctx.get(Recipient, recipient_id, field="recipient_id")
    if not rcp.active:
        raise RuleViolation("the recipient is deactivated", field="recipient_id", hint="add the account again")
    if rcp.currency != q.target_currency:
        raise RuleViolation(
            f"the recipient takes {rcp.currency}, the quote delivers {q.target_currency}",
            field="recipient_id",
            hint=f"quote to {rcp.currency}",
        )
    if ctx.first(Transfer, customer_transaction_id=txn):
        raise Conflict(
            f"{txn} was used for another transfer",
            field="customer_transaction_id",
            hint="look it up with xborder__list_transfers; use a new id for a new transfer",
        )
    ctx.update(q, status="used")
    return ctx.create(
        Transfer,
        quote_id=q.id,
        recipient_id=rcp.id,
        source_currency=q.source_currency,
        source_amount=q.source_amount,
        target_currency=q.target_currency,
        target_amount=q.target_amount,
        reference=reference,
        customer_transaction_id=txn,
        batch_id=batch,
    )


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    for q in ctx.where(Quote, status="pending"):
        r = ctx.first(Recipient, currency=q.target_currency, active=True)
        if q.expires_at > ctx.now() and r is not None:
            return {
                "quote_id": q.id,
                "recipient_id": r.id,
                "reference": "INV 2026-031",
                "customer_transaction_id": "c2f1e0aa-7b1d-4a55-9f00-1b2c3d4e5f60",
            }
    return None


@service.tool(intent="create a transfer to the recipient", write=True, example=_example_transfer)
def create_transfer(
    ctx: Ctx, quote_id: QuoteId, recipient_id: RecipientId, reference: Reference, customer_transaction_id: TxnId
) -> Transfer:
    """Create a transfer under a live quote to a recipient in the quote's target currency; fund it next.

    Args:
        quote_id: A pending, unexpired quote.
        recipient_id: An active recipient in the target currency.
        reference: What the recipient sees (up to 35 characters).
        customer_transaction_id: Your unique id for this transfer (repeat-safe).
    """
    return _new_transfer(ctx, quote_id, recipient_id, reference, customer_transaction_id, None)


def _fund(ctx: Ctx, t: Transfer, field: str) -> Transfer:
    bal = _balance(ctx, t.source_currency, field)
    if t.source_amount > bal.amount:
        raise RuleViolation(
            f"the {bal.currency} balance holds {bal.amount}; {t.source_amount} is needed",
            field=field,
            hint="top up the balance first",
        )
    ctx.update(bal, amount=bal.amount - t.source_amount, reserved=bal.reserved + t.source_amount)
    return ctx.update(t, status="processing", funded=True)


@service.tool(
    intent="fund the transfer from the balance",
    write=True,
    example=first_example(Transfer, "transfer_id", where={"status": "incoming_payment_waiting", "batch_id": None}),
)
def fund_transfer(ctx: Ctx, transfer_id: TransferId) -> Transfer:
    """Pay a waiting transfer from the balance in its source currency; it starts processing.

    Args:
        transfer_id: The transfer waiting for funds (not part of a batch).
    """
    t = ctx.get(Transfer, transfer_id, field="transfer_id")
    if t.status != "incoming_payment_waiting":
        raise RuleViolation(f"transfer is {t.status}", field="transfer_id", hint="only waiting transfers are funded")
    if t.batch_id is not None:
        raise RuleViolation(
            "it belongs to a batch", field="transfer_id", hint="fund the batch with xborder__fund_batch"
        )
    return _fund(ctx, t, "transfer_id")


@service.tool(
    intent="cancel the transfer",
    write=True,
    destructive=True,
    example=first_example(Transfer, "transfer_id", where={"status": "processing"}),
)
def cancel_transfer(ctx: Ctx, transfer_id: TransferId) -> Transfer:
    """Cancel a transfer before its money is converted; a funded one is refunded to the balance.

    Args:
        transfer_id: The transfer (waiting or processing).
    """
    t = ctx.get(Transfer, transfer_id, field="transfer_id")
    if t.status not in ("incoming_payment_waiting", "processing"):
        raise RuleViolation(f"transfer is {t.status}", field="transfer_id", hint="converted money cannot be recalled")
    if t.funded:
        bal = _balance(ctx, t.source_currency, "transfer_id")
        ctx.update(bal, amount=bal.amount + t.source_amount, reserved=bal.reserved - t.source_amount)
    return ctx.update(t, status="cancelled")


@service.tool(
    intent="move the transfer to its next status (sandbox simulation)",
    write=True,
    example=first_example(Transfer, "transfer_id", where={"status": "processing"}),
)
def simulate_transfer(ctx: Ctx, transfer_id: TransferId) -> Transfer:
    """Advance a funded transfer one step, as Wise's sandbox simulation endpoints do.

    processing → funds_converted (the reserved money leaves the balance) → outgoing_payment_sent.

    Args:
        transfer_id: A processing or converted transfer.
    """
    t = ctx.get(Transfer, transfer_id, field="transfer_id")
    if t.status == "processing":
        bal = _balance(ctx, t.source_currency, "transfer_id")
        ctx.update(bal, reserved=bal.reserved - t.source_amount)
        return ctx.update(t, status="funds_converted")
    if t.status == "funds_converted":
        return ctx.update(t, status="outgoing_payment_sent")
    raise RuleViolation(f"transfer is {t.status}", field="transfer_id", hint="fund it first, or it is finished")


# -- batch groups -----------------------------------------------------------------------------


def _example_batch_add(ctx: Ctx) -> dict[str, Any] | None:
    for g in ctx.where(BatchGroup, status="new"):
        for q in ctx.where(Quote, status="pending", source_currency=g.source_currency):
            r = ctx.first(Recipient, currency=q.target_currency, active=True)
            if q.expires_at > ctx.now() and r is not None:
                return {
                    "batch_group_id": g.id,
                    "quote_id": q.id,
                    "recipient_id": r.id,
                    "reference": "March payout",
                    "customer_transaction_id": "batch-0317-0001",
                }
    return None


@service.tool(intent="add a transfer to the batch group", write=True, example=_example_batch_add)
def add_batch_transfer(
    ctx: Ctx,
    batch_group_id: BatchId,
    quote_id: QuoteId,
    recipient_id: RecipientId,
    reference: Reference,
    customer_transaction_id: TxnId,
) -> Transfer:
    """Create a transfer inside a new batch group; its quote must be in the group's source currency.

    Args:
        batch_group_id: The batch group (status new).
        quote_id: A live quote from the group's source currency.
        recipient_id: An active recipient in the quote's target currency.
        reference: What the recipient sees.
        customer_transaction_id: Your unique id for this transfer.
    """
    g = ctx.get(BatchGroup, batch_group_id, field="batch_group_id")
    if g.status != "new":
        raise RuleViolation(f"batch is {g.status}", field="batch_group_id", hint="start a new batch group")
    q = _live_quote(ctx, quote_id)
    if q.source_currency != g.source_currency:
        raise RuleViolation(
            f"the batch pays in {g.source_currency}", field="quote_id", hint=f"quote from {g.source_currency}"
        )
    t = _new_transfer(ctx, quote_id, recipient_id, reference, customer_transaction_id, g.id)
    ctx.update(g, transfer_ids=(*g.transfer_ids, t.id), total_source_amount=g.total_source_amount + t.source_amount)
    return t


@service.tool(
    intent="complete the batch group",
    write=True,
    example=first_example(
        BatchGroup, "batch_group_id", where={"status": "new"}, match=lambda c, g: bool(g.transfer_ids)
    ),
)
def complete_batch(ctx: Ctx, batch_group_id: BatchId) -> BatchGroup:
    """Close a batch group with at least one transfer for additions; fund it next.

    Args:
        batch_group_id: The new batch group.
    """
    g = ctx.get(BatchGroup, batch_group_id, field="batch_group_id")
    if g.status != "new":
        raise RuleViolation(f"batch is {g.status}", field="batch_group_id", hint="only new batches are completed")
    if not g.transfer_ids:
        raise RuleViolation("the batch is empty", field="batch_group_id", hint="add transfers first")
    return ctx.update(g, status="completed")


@service.tool(
    intent="fund the batch group from the balance",
    write=True,
    example=first_example(BatchGroup, "batch_group_id", where={"status": "completed"}),
)
def fund_batch(ctx: Ctx, batch_group_id: BatchId) -> BatchGroup:
    """Fund every waiting transfer of a completed batch from the source balance, all or none.

    Args:
        batch_group_id: The completed batch group.
    """
    g = ctx.get(BatchGroup, batch_group_id, field="batch_group_id")
    if g.status != "completed":
        raise RuleViolation(f"batch is {g.status}", field="batch_group_id", hint="complete it first")
    waiting = [t for t in (ctx.get(Transfer, i) for i in g.transfer_ids) if t.status == "incoming_payment_waiting"]
    need = sum(t.source_amount for t in waiting)
    bal = _balance(ctx, g.source_currency, "batch_group_id")
    if need > bal.amount:
        raise RuleViolation(
            f"the batch needs {need}; the balance holds {bal.amount}",
            field="batch_group_id",
            hint="top up the balance first",
        )
    for t in waiting:
        _fund(ctx, t, "batch_group_id")
    return ctx.update(g, status="funded")


# -- seed -------------------------------------------------------------------------------------

BALANCES: dict[str, int] = {"USD": 184_250_00, "EUR": 62_480_00, "GBP": 21_900_00, "CAD": 0}
PAYEES: tuple[tuple[str, str, str | None], ...] = (
    ("EUR", "DE", None),
    ("GBP", "GB", "200415"),
    ("INR", "IN", "HDFC0001234"),
    ("MXN", "MX", "BNMXMXMM"),
    ("CAD", "CA", "ROYCCAT2"),
    ("EUR", "FR", None),
)
"""Seeded recipients: currency, bank country, bank code (None: IBAN)."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Balances, supplier and contractor recipients abroad, quotes live and expired, transfers and batches."""
    pop = s.population
    for code, amount in BALANCES.items():
        s.create(Balance, currency=code, amount=amount, created_at=s.ago(days=300))
    sup = links.suppliers(pop)
    made: list[Recipient] = []
    for k, (cur, country, bank) in enumerate(PAYEES):
        person = pop.consumers[k] if k % 3 == 2 else None
        company = sup[k % len(sup)] if person is None else None
        number = f"{country}{44 + k}{50_000_000 + 7_391 * k:012d}" if bank is None else f"{7_700_100 + 913 * k}"
        made.append(
            s.create(
                Recipient,
                currency=cur,
                business_name=company.company.name if company else None,
                person_name=person.name if person else None,
                email=(company.contact.email if company else person.email if person else None),
                account_type=TYPE_OF.get(cur, "swift"),
                account_number=number,
                bank_code=bank,
                country=country,
                created_at=s.ago(days=200 - 9 * k),
                updated_at=s.ago(days=30),
            )
        )
    plan: tuple[tuple[int, str, TransferStatus], ...] = (
        (0, "USD", "outgoing_payment_sent"),
        (1, "USD", "funds_converted"),
        (2, "USD", "processing"),
        (3, "USD", "incoming_payment_waiting"),
        (4, "USD", "cancelled"),
        (5, "GBP", "outgoing_payment_sent"),
    )
    for k, (r, src, status) in enumerate(plan):
        rcp = made[r]
        amt, fee, tgt, rate = _price(src, rcp.currency, (1_800 + 650 * k) * 100, None)
        when = s.ago(days=12 - 2 * k)
        q = s.create(
            Quote,
            source_currency=src,
            target_currency=rcp.currency,
            source_amount=amt,
            fee=fee,
            rate=rate,
            target_amount=tgt,
            expires_at=when + QUOTE_LIFE,
            status="used",
            created_at=when,
        )
        funded = status not in ("incoming_payment_waiting", "cancelled")
        s.create(
            Transfer,
            quote_id=q.id,
            recipient_id=rcp.id,
            source_currency=src,
            source_amount=amt,
            target_currency=rcp.currency,
            target_amount=tgt,
            reference=f"INV-{24_300 + k}",
            customer_transaction_id=f"erp-pay-{9_100 + k}",
            status=status,
            funded=funded,
            created_at=when,
            updated_at=when,
        )
        if status == "processing":
            bal = next(b for b in s.records(Balance) if b.currency == src)
            s.update(bal, amount=bal.amount - amt, reserved=bal.reserved + amt)
    for target, amount, age in (("EUR", 12_500_00, 5), ("INR", 3_000_00, 5), ("GBP", 4_200_00, 90)):
        _, fee, tgt, rate = _price("USD", target, amount, None)
        when = s.now - dt.timedelta(minutes=age)
        s.create(
            Quote,
            source_currency="USD",
            target_currency=target,
            source_amount=amount,
            fee=fee,
            rate=rate,
            target_amount=tgt,
            expires_at=when + QUOTE_LIFE,
            created_at=when,
        )
    for name, state, picks in (("March contractor payouts", "new", (2,)), ("Q1 supplier run", "completed", (0, 3))):
        g = s.create(
            BatchGroup,
            name=name,
            source_currency="USD",
            status=state,
            created_at=s.ago(days=1),
            updated_at=s.ago(days=1),
        )
        for r in picks:
            _seed_batch_transfer(s, g, made[r])


def _seed_batch_transfer(s: SeedContext, g: BatchGroup, rcp: Recipient) -> None:
    """A waiting transfer in a batch group, under a used quote."""
    g = next(x for x in s.records(BatchGroup) if x.id == g.id)
    amt, fee, tgt, rate = _price(g.source_currency, rcp.currency, 2_400_00 + 100_00 * len(g.transfer_ids), None)
    q = s.create(
        Quote,
        source_currency=g.source_currency,
        target_currency=rcp.currency,
        source_amount=amt,
        fee=fee,
        rate=rate,
        target_amount=tgt,
        expires_at=s.now,
        status="used",
        created_at=s.ago(hours=20),
    )
    t = s.create(
        Transfer,
        quote_id=q.id,
        recipient_id=rcp.id,
        source_currency=g.source_currency,
        source_amount=amt,
        target_currency=rcp.currency,
        target_amount=tgt,
        reference=f"{g.name[:20]} {len(g.transfer_ids) + 1}",
        customer_transaction_id=f"batch-{g.id[3:]}-{len(g.transfer_ids) + 1:04d}",
        batch_id=g.id,
        created_at=s.ago(hours=20),
        updated_at=s.ago(hours=20),
    )
    s.update(g, transfer_ids=(*g.transfer_ids, t.id), total_source_amount=g.total_source_amount + amt)
