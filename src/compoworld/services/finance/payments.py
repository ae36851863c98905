"""Paystream: card and bank payments, refunds, disputes, balance and payouts.

Modeled on the Stripe API (2024-06-20: Customer, PaymentMethod, PaymentIntent
and Charge, Refund, Dispute, Balance, Payout, external bank accounts): a
charge is captured at once or authorized and captured later, at most once and
for at most the authorized amount; refunds never exceed what was captured;
captured money becomes available after a settlement delay, and payouts cannot
exceed the available balance.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import CatalogError, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
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
    IdOf,
    InvoiceNumber,
    OrderNumber,
    PersonName,
    Phone,
    PostalAddress,
    Text,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "payments",
    title="Paystream",
    category="payments",
    modeled_on="Stripe API 2024-06-20 (Customer, PaymentMethod, PaymentIntent/Charge, Refund, Dispute, Balance, "
    "Payout, external bank accounts)",
    description="Online payment processing: the customers who pay the company, their cards and bank accounts, "
    "charges and authorizations, refunds, card disputes, the account balance and payouts to the company's banks.",
)

CustomerId = Annotated[str, IdOf("payments.customer")]
PaymentMethodId = Annotated[str, IdOf("payments.payment_method")]
ChargeId = Annotated[str, IdOf("payments.charge")]
RefundId = Annotated[str, IdOf("payments.refund")]
DisputeId = Annotated[str, IdOf("payments.dispute")]
PayoutId = Annotated[str, IdOf("payments.payout")]
BankAccountId = Annotated[str, IdOf("payments.bank_account")]
Last4 = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]

MethodType = Literal["card", "sepa_debit", "us_bank_account"]
ChargeStatus = Literal["requires_capture", "succeeded", "failed", "canceled"]
DisputeStatus = Literal["warning_needs_response", "needs_response", "under_review", "won", "lost"]
DisputeReason = Literal[
    "fraudulent", "product_not_received", "duplicate", "subscription_canceled", "product_unacceptable", "general"
]
RefundReason = Literal["duplicate", "fraudulent", "requested_by_customer"]

MIN_CHARGE = 50
"""Smallest chargeable amount in minor units (Stripe's 0.50 minimum)."""
DISPUTE_FEE = 1500
"""Fee withdrawn with a disputed amount, in minor units."""
AUTHORIZATION_DAYS = 7
"""Days an uncaptured authorization stays capturable."""
SETTLEMENT_DAYS: dict[str, int] = {"card": 2, "sepa_debit": 4, "us_bank_account": 4}
"""Days from capture until the money is available for payouts."""
DECLINING_CARDS: dict[str, str] = {"0002": "card_declined", "9995": "insufficient_funds"}
"""Card numbers ending in these digits are declined, as with Stripe's test cards."""
RESPONSE_NEEDED: tuple[str, ...] = ("warning_needs_response", "needs_response")


class Customer(Created):
    """Someone who pays the company: a private customer or a business's billing contact."""

    id: CustomerId
    email: Email
    """E-mail address; unique among customers."""
    name: PersonName
    """Full name."""
    phone: Phone | None = None
    """Phone number."""
    address: PostalAddress | None = None
    """Billing address."""
    description: Text = ""
    """Internal description."""
    default_payment_method_id: PaymentMethodId | None = None
    """Payment method charged when a charge names none; must be attached to this customer."""


class PaymentMethod(Record):
    """A card or bank account a customer pays with."""

    id: PaymentMethodId
    customer_id: CustomerId | None = None
    """The customer it is attached to; null when detached."""
    type: MethodType
    """card, sepa_debit (EU bank account) or us_bank_account."""
    brand: Literal["visa", "mastercard", "amex", "discover"] | None = None
    """Card brand; only for cards."""
    last4: Last4
    """Last four digits of the card or account number."""
    exp_month: int | None = Field(default=None, ge=1, le=12)
    """Card expiry month (1-12); only for cards."""
    exp_year: int | None = Field(default=None, ge=2000, le=2100)
    """Card expiry year; only for cards."""
    billing_name: PersonName
    """Name of the holder."""
    billing_email: Email | None = None
    """E-mail of the holder."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Charge(Created):
    """A payment: an authorization that is captured at once or later (PaymentIntent and Charge in one)."""

    id: ChargeId
    customer_id: CustomerId
    """The paying customer."""
    payment_method_id: PaymentMethodId
    """The card or account charged."""
    amount: Cents
    """Amount authorized, in minor units."""
    amount_captured: Cents = 0
    """Amount captured, in minor units (at most the amount authorized)."""
    amount_refunded: Cents = 0
    """Sum of the refunds, in minor units."""
    currency: Currency
    """Currency of the amounts."""
    fee: Cents = 0
    """Processing fee withheld on capture, in minor units."""
    status: ChargeStatus
    """requires_capture (authorized, not yet captured), succeeded, failed or canceled."""
    capture_method: Literal["automatic", "manual"] = "automatic"
    """automatic: captured when created; manual: authorized first, captured later."""
    description: Text = ""
    """Description shown to the customer, e.g. what the charge pays for."""
    invoice_number: InvoiceNumber | None = None
    """Number of the invoice the charge pays, if any (metadata)."""
    order_number: OrderNumber | None = None
    """Number of the shop order the charge pays, if any (metadata)."""
    receipt_email: Email | None = None
    """Where the receipt is sent."""
    failure_code: Literal["card_declined", "expired_card", "insufficient_funds"] | None = None
    """Why a failed charge failed."""
    refunded: bool = False
    """True once the captured amount has been refunded in full."""
    disputed: bool = False
    """True once the cardholder disputed the charge."""
    captured_at: DateTime | None = None
    """When it was captured."""
    available_on: Date | None = None
    """Date the captured money becomes available for payouts."""


class Refund(Record):
    """Money returned to the customer from a captured charge."""

    id: RefundId
    charge_id: ChargeId
    """The charge refunded."""
    amount: Cents
    """Amount refunded, in minor units."""
    currency: Currency
    """Currency (the charge's)."""
    reason: RefundReason | None = None
    """Why it was refunded."""
    note: Text = ""
    """Internal note."""
    created_at: Annotated[DateTime, CREATED]
    """When the refund was made."""


class Dispute(Record):
    """A cardholder's challenge of a charge with their bank (a chargeback)."""

    id: DisputeId
    charge_id: ChargeId
    """The disputed charge."""
    amount: Cents
    """Disputed amount, in minor units."""
    currency: Currency
    """Currency (the charge's)."""
    reason: DisputeReason
    """Reason the cardholder gave."""
    status: DisputeStatus
    """warning_needs_response (inquiry), needs_response, under_review, won or lost."""
    evidence: Text = ""
    """Evidence for the bank: receipts, delivery proof, correspondence."""
    evidence_due_by: Date
    """Last day evidence can be submitted."""
    submitted_at: DateTime | None = None
    """When evidence was submitted."""
    created_at: Annotated[DateTime, CREATED]
    """When the dispute was opened."""


class BankAccount(Record):
    """A bank account of the company that payouts are sent to."""

    id: BankAccountId
    bank_name: str
    """Name of the bank."""
    account_number: AccountNumber
    """IBAN or account number; unique."""
    holder_name: CompanyName
    """Account holder (the company)."""
    country: Country
    """Country of the bank."""
    currency: Currency
    """Currency the account takes payouts in."""
    default_for_currency: bool = False
    """Whether payouts in its currency go here when no account is named."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Payout(Created):
    """A transfer of available balance to one of the company's bank accounts."""

    id: PayoutId
    bank_account_id: BankAccountId
    """The destination bank account."""
    amount: Cents
    """Amount paid out, in minor units."""
    currency: Currency
    """Currency (the bank account's)."""
    status: Literal["pending", "in_transit", "paid", "failed", "canceled"] = "pending"
    """pending (cancelable), in_transit, paid, failed or canceled; failed and canceled return the money."""
    arrival_date: Date
    """Date the money is expected in the bank."""
    description: Text = ""
    """Statement description."""


# -- rules shared by tools and guards -----------------------------------------------------


def _card_expired(pm: PaymentMethod, today: dt.date) -> bool:
    if pm.type != "card" or pm.exp_year is None or pm.exp_month is None:
        return False
    return (pm.exp_year, pm.exp_month) < (today.year, today.month)


def _fee(method: str, amount: int) -> int:
    if method == "card":
        return (amount * 29 + 500) // 1000 + 30
    return min((amount * 8 + 500) // 1000, 500)


def _guard_payment_method(ctx: Ctx, new: Any, old: Any) -> None:
    if new.type == "card":
        if new.brand is None or new.exp_month is None or new.exp_year is None:
            raise RuleViolation(
                "a card needs a brand, exp_month and exp_year",
                field="brand" if new.brand is None else "exp_month",
                hint="give the card's brand and expiry",
            )
        same_expiry = old is not None and (old.exp_month, old.exp_year) == (new.exp_month, new.exp_year)
        if _card_expired(new, ctx.today()) and not same_expiry:
            raise RuleViolation(
                f"the card expired in {new.exp_month:02d}/{new.exp_year}",
                field="exp_year",
                hint="ask the customer for a card that has not expired",
            )
    elif new.brand is not None or new.exp_month is not None or new.exp_year is not None:
        raise RuleViolation(
            f"a {new.type} payment method has no brand nor expiry",
            field="brand" if new.brand is not None else "exp_month",
            hint="leave brand, exp_month and exp_year empty for bank accounts",
        )


def _guard_customer_update(ctx: Ctx, new: Any, old: Any) -> None:
    pm_id = new.default_payment_method_id
    if pm_id is not None and pm_id != old.default_payment_method_id:
        pm = ctx.get(PaymentMethod, pm_id, field="default_payment_method_id")
        if pm.customer_id != new.id:
            raise RuleViolation(
                f"payment method {pm.id} is not attached to customer {new.id}",
                field="default_payment_method_id",
                hint="attach it with payments__attach_payment_method first",
            )


def _guard_customer_delete(ctx: Ctx, new: Any, old: Any) -> None:
    held = ctx.first(Charge, customer_id=old.id, status="requires_capture")
    if held is not None:
        raise RuleViolation(
            f"customer {old.id} has an uncaptured authorization ({held.id})",
            field="customer_id",
            hint="capture or cancel its authorizations first",
        )
    # Like Stripe, deleting a customer detaches its payment methods.
    for pm in ctx.where(PaymentMethod, customer_id=old.id):
        ctx.update(pm, customer_id=None)


def _guard_bank_account(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.default_for_currency and not new.default_for_currency:
        raise RuleViolation(
            f"bank account {old.id} is the default for {old.currency}",
            field="default_for_currency",
            hint="make another account the default for that currency instead",
        )
    if new.default_for_currency:
        for other in ctx.where(BankAccount, currency=new.currency, default_for_currency=True):
            if other.id != new.id:
                ctx.update(other, default_for_currency=False)


def _guard_bank_account_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.default_for_currency:
        raise RuleViolation(
            f"bank account {old.id} is the default for {old.currency} and cannot be deleted",
            field="bank_account_id",
            hint="make another account the default for that currency first",
        )
    for payout in ctx.where(Payout, bank_account_id=old.id):
        if payout.status in ("pending", "in_transit"):
            raise RuleViolation(
                f"payout {payout.id} to this account is still {payout.status}",
                field="bank_account_id",
                hint="wait until it has arrived or cancel it",
            )


customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cus",
    create=("email", "name", "phone", "address", "description"),
    filters=("email", "name"),
    search=("email", "name", "description"),
    update=("email", "name", "phone", "address", "description", "default_payment_method_id"),
    unique=("email",),
    guard_update=_guard_customer_update,
    guard_delete=_guard_customer_delete,
)
payment_methods = service.resource(
    PaymentMethod,
    name="payment_method",
    plural="payment_methods",
    prefix="pm",
    create=False,
    filters=("customer_id", "type", "brand", "last4"),
    search=("billing_name", "billing_email"),
    update=("exp_month", "exp_year", "billing_name", "billing_email"),
    delete=False,
    guard_update=_guard_payment_method,
    title="payment method",
)
charges = service.resource(
    Charge,
    name="charge",
    plural="charges",
    prefix="ch",
    create=False,
    filters=("customer_id", "status", "currency", "invoice_number", "order_number", "payment_method_id", "disputed"),
    search=("description", "receipt_email"),
    update=("description", "receipt_email", "invoice_number", "order_number"),
    delete=False,
)
refunds = service.resource(
    Refund,
    name="refund",
    plural="refunds",
    prefix="re",
    create=False,
    filters=("charge_id", "reason", "currency"),
    delete=False,
)
disputes = service.resource(
    Dispute,
    name="dispute",
    plural="disputes",
    prefix="dp",
    create=False,
    filters=("charge_id", "status", "reason"),
    search=("evidence",),
    delete=False,
)
bank_accounts = service.resource(
    BankAccount,
    name="bank_account",
    plural="bank_accounts",
    prefix="ba",
    create=False,
    filters=("currency", "country", "default_for_currency"),
    search=("bank_name", "account_number"),
    update=("bank_name", "default_for_currency"),
    unique=("account_number",),
    guard_update=_guard_bank_account,
    guard_delete=_guard_bank_account_delete,
    title="bank account",
)
payouts = service.resource(
    Payout,
    name="payout",
    plural="payouts",
    prefix="po",
    create=False,
    filters=("bank_account_id", "status", "currency", "arrival_date"),
    search=("description",),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("pending",),
            "canceled",
            "cancel the payout",
            "Cancel a pending payout; the money returns to the available balance. "
            "Payouts in transit or paid cannot be canceled.",
        )
    },
)


# -- payment methods ------------------------------------------------------------------------


def _example_create_payment_method(ctx: Ctx) -> dict[str, Any] | None:
    customer = next(ctx.scan(Customer), None)
    if customer is None:
        return None
    return {
        "type": "card",
        "customer_id": customer.id,
        "brand": "visa",
        "last4": "4242",
        "exp_month": 12,
        "exp_year": ctx.today().year + 2,
        "billing_name": customer.name,
        "billing_email": customer.email,
    }


@service.tool(intent="add a card or bank account for the customer", write=True, example=_example_create_payment_method)
def create_payment_method(
    ctx: Ctx,
    type: MethodType,
    last4: Last4,
    billing_name: PersonName,
    customer_id: CustomerId | None = None,
    brand: Literal["visa", "mastercard", "amex", "discover"] | None = None,
    exp_month: int | None = None,
    exp_year: int | None = None,
    billing_email: Email | None = None,
) -> PaymentMethod:
    """Add a payment method, attached to a customer or left detached.

    A card needs its brand and an expiry that has not passed; bank accounts
    have neither. A customer's first payment method becomes its default.

    Args:
        type: card, sepa_debit (EU bank account) or us_bank_account.
        last4: Last four digits of the card or account number.
        billing_name: Name of the holder.
        customer_id: Customer to attach it to; omit to leave it detached.
        brand: Card brand; cards only.
        exp_month: Card expiry month (1-12); cards only.
        exp_year: Card expiry year (4 digits); cards only.
        billing_email: E-mail of the holder.
    """
    customer = ctx.get(Customer, customer_id, field="customer_id") if customer_id else None
    if exp_month is not None and not 1 <= exp_month <= 12:
        raise RuleViolation(
            f"exp_month {exp_month} is not a month", field="exp_month", hint="give a month from 1 to 12"
        )
    if exp_year is not None and not 2000 <= exp_year <= 2100:
        raise RuleViolation(f"exp_year {exp_year} is not a 4-digit year", field="exp_year", hint="e.g. 2028")
    pm = ctx.create(
        PaymentMethod,
        customer_id=customer.id if customer else None,
        type=type,
        brand=brand,
        last4=last4,
        exp_month=exp_month,
        exp_year=exp_year,
        billing_name=billing_name,
        billing_email=billing_email,
    )
    _guard_payment_method(ctx, pm, None)
    if customer is not None and customer.default_payment_method_id is None:
        ctx.update(customer, default_payment_method_id=pm.id)
    return pm


def _example_attach(ctx: Ctx) -> dict[str, Any] | None:
    pm = ctx.first(PaymentMethod, customer_id=None)
    customer = ctx.first(Customer, default_payment_method_id=None) or next(ctx.scan(Customer), None)
    if pm is None or customer is None:
        return None
    return {"payment_method_id": pm.id, "customer_id": customer.id}


@service.tool(intent="attach the payment method to the customer", write=True, example=_example_attach)
def attach_payment_method(
    ctx: Ctx, payment_method_id: PaymentMethodId, customer_id: CustomerId, set_default: bool = False
) -> PaymentMethod:
    """Attach a detached payment method to a customer so it can be charged.

    A payment method attached to another customer cannot be attached; an
    expired card cannot be attached.

    Args:
        payment_method_id: The payment method.
        customer_id: The customer.
        set_default: Also make it the customer's default payment method.
    """
    pm = ctx.get(PaymentMethod, payment_method_id, field="payment_method_id")
    customer = ctx.get(Customer, customer_id, field="customer_id")
    if pm.customer_id == customer.id:
        raise RuleViolation(
            f"payment method {pm.id} is already attached to customer {customer.id}",
            field="payment_method_id",
            hint="nothing to do; set it as default with payments__update_customer if needed",
        )
    if pm.customer_id is not None:
        raise RuleViolation(
            f"payment method {pm.id} is attached to another customer ({pm.customer_id})",
            field="payment_method_id",
            hint="a payment method belongs to one customer; ask the customer to add their own",
        )
    if _card_expired(pm, ctx.today()):
        raise RuleViolation(
            f"card {pm.id} expired in {pm.exp_month:02d}/{pm.exp_year}",
            field="payment_method_id",
            hint="ask the customer for a card that has not expired",
        )
    pm = ctx.update(pm, customer_id=customer.id)
    if set_default or customer.default_payment_method_id is None:
        ctx.update(customer, default_payment_method_id=pm.id)
    return pm


@service.tool(
    intent="remove the payment method from the customer",
    write=True,
    example=first_example(PaymentMethod, "payment_method_id", match=lambda ctx, pm: pm.customer_id is not None),
)
def detach_payment_method(ctx: Ctx, payment_method_id: PaymentMethodId) -> PaymentMethod:
    """Detach a payment method from its customer; it can no longer be charged.

    If it was the customer's default, the customer is left without a default.

    Args:
        payment_method_id: The payment method.
    """
    pm = ctx.get(PaymentMethod, payment_method_id, field="payment_method_id")
    if pm.customer_id is None:
        raise RuleViolation(
            f"payment method {pm.id} is not attached to a customer",
            field="payment_method_id",
            hint="nothing to do; it is already detached",
        )
    customer = ctx.find(Customer, pm.customer_id)
    if customer is not None and customer.default_payment_method_id == pm.id:
        ctx.update(customer, default_payment_method_id=None)
    return ctx.update(pm, customer_id=None)


# -- charges --------------------------------------------------------------------------------


def _example_create_charge(ctx: Ctx) -> dict[str, Any] | None:
    today = ctx.today()
    for customer in ctx.scan(Customer):
        pm_id = customer.default_payment_method_id
        pm = ctx.find(PaymentMethod, pm_id) if pm_id else None
        if pm is None or pm.customer_id != customer.id or _card_expired(pm, today):
            continue
        if pm.last4 in DECLINING_CARDS:
            continue
        return {
            "customer_id": customer.id,
            "amount": 4999,
            "currency": "USD",
            "description": "Order payment",
        }
    return None


@service.tool(intent="charge the customer", write=True, example=_example_create_charge)
def create_charge(
    ctx: Ctx,
    customer_id: CustomerId,
    amount: Cents,
    currency: Currency,
    payment_method_id: PaymentMethodId | None = None,
    capture: bool = True,
    description: Text = "",
    invoice_number: InvoiceNumber | None = None,
    order_number: OrderNumber | None = None,
    receipt_email: Email | None = None,
) -> Charge:
    """Charge a customer's payment method, capturing at once or only authorizing.

    With capture false the amount is only authorized (status
    requires_capture) and must be captured within 7 days. The amount must be
    at least 50 minor units. A card that is expired or declined refuses the
    charge with its decline code and nothing is recorded.

    Args:
        customer_id: The customer to charge.
        amount: Amount in minor units (cents), at least 50.
        currency: Currency of the amount.
        payment_method_id: Payment method attached to the customer (default: the customer's default).
        capture: Capture immediately (true) or only authorize (false).
        description: What the charge is for, shown to the customer.
        invoice_number: Number of the invoice the charge pays, if any.
        order_number: Number of the shop order the charge pays, if any.
        receipt_email: Where to send the receipt (default: the customer's e-mail).
    """
    customer = ctx.get(Customer, customer_id, field="customer_id")
    if amount < MIN_CHARGE:
        raise RuleViolation(
            f"amount {amount} is below the minimum charge of {MIN_CHARGE}",
            field="amount",
            hint="amounts are in minor units: 12.50 is 1250",
        )
    pm_id = payment_method_id or customer.default_payment_method_id
    if pm_id is None:
        raise RuleViolation(
            f"customer {customer.id} has no default payment method",
            field="payment_method_id",
            hint="name one of the customer's payment methods (payments__list_payment_methods) or attach one",
        )
    pm = ctx.get(PaymentMethod, pm_id, field="payment_method_id")
    if pm.customer_id != customer.id:
        raise RuleViolation(
            f"payment method {pm.id} is not attached to customer {customer.id}",
            field="payment_method_id",
            hint="use one of the customer's own payment methods",
        )
    if _card_expired(pm, ctx.today()):
        raise RuleViolation(
            f"expired_card: the card ending {pm.last4} expired in {pm.exp_month:02d}/{pm.exp_year}",
            field="payment_method_id",
            hint="ask the customer to update the card's expiry or to use another payment method",
        )
    if pm.type == "card" and pm.last4 in DECLINING_CARDS:
        raise RuleViolation(
            f"{DECLINING_CARDS[pm.last4]}: the card ending {pm.last4} was declined by the issuer",
            field="payment_method_id",
            hint="ask the customer for another payment method",
        )
    fields: dict[str, Any] = {}
    if capture:
        fields = {
            "status": "succeeded",
            "amount_captured": amount,
            "fee": _fee(pm.type, amount),
            "captured_at": ctx.now(),
            "available_on": ctx.today() + dt.timedelta(days=SETTLEMENT_DAYS[pm.type]),
        }
    else:
        fields = {"status": "requires_capture"}
    return ctx.create(
        Charge,
        customer_id=customer.id,
        payment_method_id=pm.id,
        amount=amount,
        currency=currency,
        capture_method="automatic" if capture else "manual",
        description=description,
        invoice_number=invoice_number,
        order_number=order_number,
        receipt_email=receipt_email or customer.email,
        **fields,
    )


@service.tool(
    intent="capture the authorized payment",
    write=True,
    example=first_example(
        Charge,
        "charge_id",
        where={"status": "requires_capture"},
        match=lambda ctx, ch: ch.created_at >= ctx.now() - dt.timedelta(days=AUTHORIZATION_DAYS),
    ),
)
def capture_charge(ctx: Ctx, charge_id: ChargeId, amount_to_capture: Cents | None = None) -> Charge:
    """Capture an authorized charge, in full or in part; the rest of the hold is released.

    Only a charge in requires_capture can be captured, once, for at most the
    authorized amount, within 7 days of the authorization.

    Args:
        charge_id: The authorized charge.
        amount_to_capture: Amount to capture in minor units (default: the whole authorized amount).
    """
    ch = ctx.get(Charge, charge_id, field="charge_id")
    if ch.status == "succeeded":
        raise RuleViolation(
            f"charge {ch.id} has already been captured", field="charge_id", hint="a charge is captured only once"
        )
    if ch.status != "requires_capture":
        raise RuleViolation(
            f"charge {ch.id} is {ch.status} and cannot be captured",
            field="charge_id",
            hint="create a new charge",
        )
    if ch.created_at < ctx.now() - dt.timedelta(days=AUTHORIZATION_DAYS):
        raise RuleViolation(
            f"the authorization of charge {ch.id} expired {AUTHORIZATION_DAYS} days after it was made",
            field="charge_id",
            hint="cancel it and charge the customer again",
        )
    amount = ch.amount if amount_to_capture is None else amount_to_capture
    if amount > ch.amount:
        raise RuleViolation(
            f"cannot capture {amount}: only {ch.amount} {ch.currency} was authorized",
            field="amount_to_capture",
            hint=f"capture at most {ch.amount}; charge the difference separately",
        )
    if amount < MIN_CHARGE:
        raise RuleViolation(
            f"amount_to_capture {amount} is below the minimum of {MIN_CHARGE}",
            field="amount_to_capture",
            hint="cancel the authorization instead of capturing nothing",
        )
    pm = ctx.find(PaymentMethod, ch.payment_method_id)
    kind = pm.type if pm is not None else "card"
    return ctx.update(
        ch,
        status="succeeded",
        amount_captured=amount,
        fee=_fee(kind, amount),
        captured_at=ctx.now(),
        available_on=ctx.today() + dt.timedelta(days=SETTLEMENT_DAYS[kind]),
    )


@service.tool(
    intent="cancel the authorization",
    write=True,
    destructive=True,
    example=first_example(Charge, "charge_id", where={"status": "requires_capture"}, reason="requested_by_customer"),
)
def cancel_charge(
    ctx: Ctx,
    charge_id: ChargeId,
    reason: Literal["duplicate", "fraudulent", "requested_by_customer", "abandoned"] = "requested_by_customer",
) -> Charge:
    """Cancel an uncaptured authorization and release the hold on the customer's funds.

    Captured charges cannot be canceled: refund them instead.

    Args:
        charge_id: The authorized charge.
        reason: Why it is canceled.
    """
    ch = ctx.get(Charge, charge_id, field="charge_id")
    if ch.status == "succeeded":
        raise RuleViolation(
            f"charge {ch.id} has been captured and cannot be canceled",
            field="charge_id",
            hint="refund it with payments__create_refund",
        )
    if ch.status != "requires_capture":
        raise RuleViolation(
            f"charge {ch.id} is already {ch.status}", field="charge_id", hint="only authorizations can be canceled"
        )
    note = f"Canceled: {reason.replace('_', ' ')}"
    return ctx.update(ch, status="canceled", description=f"{ch.description} ({note})" if ch.description else note)


# -- refunds --------------------------------------------------------------------------------


def _example_refund(ctx: Ctx) -> dict[str, Any] | None:
    for ch in ctx.where(Charge, status="succeeded", disputed=False):
        left = ch.amount_captured - ch.amount_refunded
        if left >= 2:
            return {"charge_id": ch.id, "amount": left // 2, "reason": "requested_by_customer"}
    return None


@service.tool(intent="refund the charge", write=True, destructive=True, example=_example_refund)
def create_refund(
    ctx: Ctx,
    charge_id: ChargeId,
    amount: Cents | None = None,
    reason: RefundReason | None = None,
    note: Text = "",
) -> Refund:
    """Refund a captured charge, in full or in part.

    The refunds of a charge together cannot exceed its captured amount.
    Failed, canceled and uncaptured charges cannot be refunded, nor can a
    disputed charge (the dispute decides where the money goes).

    Args:
        charge_id: The charge to refund.
        amount: Amount in minor units (default: everything not yet refunded).
        reason: Why it is refunded.
        note: Internal note.
    """
    ch = ctx.get(Charge, charge_id, field="charge_id")
    if ch.status == "failed":
        raise RuleViolation(
            f"charge {ch.id} failed ({ch.failure_code}); no money was taken, so nothing can be refunded",
            field="charge_id",
            hint="refund only succeeded charges",
        )
    if ch.status == "requires_capture":
        raise RuleViolation(
            f"charge {ch.id} is only authorized, not captured",
            field="charge_id",
            hint="cancel the authorization with payments__cancel_charge instead",
        )
    if ch.status == "canceled":
        raise RuleViolation(
            f"charge {ch.id} was canceled; nothing was captured",
            field="charge_id",
            hint="refund only succeeded charges",
        )
    if ch.disputed:
        raise RuleViolation(
            f"charge {ch.id} is disputed and cannot be refunded",
            field="charge_id",
            hint="respond to the dispute, or accept it with payments__accept_dispute",
        )
    left = ch.amount_captured - ch.amount_refunded
    if left == 0:
        raise RuleViolation(
            f"charge {ch.id} has already been refunded in full",
            field="charge_id",
            hint="see its refunds with payments__list_refunds",
        )
    value = left if amount is None else amount
    if value == 0:
        raise RuleViolation(
            "a refund amount must be more than 0", field="amount", hint="omit amount to refund everything left"
        )
    if value > left:
        raise RuleViolation(
            f"refund of {value} exceeds the {left} {ch.currency} not yet refunded on charge {ch.id}",
            field="amount",
            hint=f"refund at most {left}",
        )
    refunded = ch.amount_refunded + value
    ctx.update(ch, amount_refunded=refunded, refunded=refunded == ch.amount_captured)
    return ctx.create(Refund, charge_id=ch.id, amount=value, currency=ch.currency, reason=reason, note=note)


# -- disputes -------------------------------------------------------------------------------


@service.tool(
    intent="respond to the dispute with evidence",
    write=True,
    example=first_example(
        Dispute,
        "dispute_id",
        where={"status": "needs_response"},
        match=lambda ctx, dp: dp.evidence_due_by >= ctx.today(),
        evidence="Signed delivery receipt and tracking history attached.",
    ),
)
def submit_dispute_evidence(ctx: Ctx, dispute_id: DisputeId, evidence: Text, submit: bool = True) -> Dispute:
    """Give evidence for a dispute and, by default, submit it to the bank for review.

    Only disputes awaiting a response take evidence, until their
    evidence_due_by date. Submitted evidence cannot be changed.

    Args:
        dispute_id: The dispute.
        evidence: The evidence: receipts, delivery proof, correspondence with the customer.
        submit: Submit now (status under_review) or only save it for later.
    """
    dp = ctx.get(Dispute, dispute_id, field="dispute_id")
    if dp.status not in RESPONSE_NEEDED:
        raise RuleViolation(
            f"dispute {dp.id} is {dp.status} and takes no more evidence",
            field="dispute_id",
            hint="only disputes in needs_response or warning_needs_response take evidence",
        )
    if ctx.today() > dp.evidence_due_by:
        raise RuleViolation(
            f"evidence for dispute {dp.id} was due by {dp.evidence_due_by}",
            field="dispute_id",
            hint="the deadline has passed; accept the dispute",
        )
    if not evidence.strip():
        raise RuleViolation("evidence must not be empty", field="evidence", hint="describe the proof you have")
    if not submit:
        return ctx.update(dp, evidence=evidence)
    return ctx.update(dp, evidence=evidence, status="under_review", submitted_at=ctx.now())


def _example_accept(ctx: Ctx) -> dict[str, Any] | None:
    dp = ctx.first(Dispute, status="needs_response") or ctx.first(Dispute, status="warning_needs_response")
    return {"dispute_id": dp.id} if dp else None


@service.tool(intent="accept the dispute", write=True, destructive=True, example=_example_accept)
def accept_dispute(ctx: Ctx, dispute_id: DisputeId) -> Dispute:
    """Accept a dispute without contesting it: it is lost and the money stays with the cardholder.

    Args:
        dispute_id: The dispute.
    """
    dp = ctx.get(Dispute, dispute_id, field="dispute_id")
    if dp.status not in RESPONSE_NEEDED:
        raise RuleViolation(
            f"dispute {dp.id} is {dp.status} and can no longer be accepted",
            field="dispute_id",
            hint="only disputes awaiting a response can be accepted",
        )
    return ctx.update(dp, status="lost")


# -- balance and payouts --------------------------------------------------------------------


def _example_bank_account(ctx: Ctx) -> dict[str, Any] | None:
    home = ctx.population.home
    for n in range(100):
        number = f"US{n:02d}0210000{n:08d}"
        if ctx.first(BankAccount, account_number=number) is None:
            return {
                "bank_name": "Lakeside Credit Union",
                "account_number": number,
                "currency": "USD",
                "country": "US",
                "holder_name": home.name,
            }
    return None


@service.tool(intent="add a bank account for payouts", write=True, example=_example_bank_account)
def create_bank_account(
    ctx: Ctx,
    bank_name: str,
    account_number: AccountNumber,
    currency: Currency,
    country: Country,
    holder_name: CompanyName | None = None,
    default_for_currency: bool = False,
) -> BankAccount:
    """Add a bank account of the company to receive payouts in its currency.

    The account number must be new. The first account in a currency becomes
    that currency's default; making another the default replaces the old one.

    Args:
        bank_name: Name of the bank.
        account_number: IBAN or account number.
        currency: Currency the account takes payouts in.
        country: Country of the bank.
        holder_name: Account holder (default: the company's name).
        default_for_currency: Make it the default for its currency.
    """
    if not bank_name.strip():
        raise RuleViolation("bank_name must not be blank", field="bank_name", hint="give the bank's name")
    first = ctx.first(BankAccount, currency=currency) is None
    account = ctx.create(
        BankAccount,
        bank_name=bank_name.strip(),
        account_number=account_number,
        holder_name=holder_name or ctx.population.home.name,
        country=country,
        currency=currency,
        default_for_currency=default_for_currency or first,
    )
    _guard_bank_account(ctx, account, None)
    return account


class BalanceAmount(BaseModel):
    """The account's balance in one currency."""

    currency: Currency = Field(description="The currency.")
    available: int = Field(description="Money that can be paid out now, in minor units (may be negative).")
    pending: int = Field(description="Captured money not yet settled, in minor units.")


def _tally(
    currency: str,
    today: dt.date,
    charges: list[Charge],
    refunds: list[Refund],
    disputes: list[Dispute],
    payouts: list[Payout],
) -> BalanceAmount:
    available = pending = 0
    for ch in charges:
        if ch.amount_captured == 0:
            continue
        net = ch.amount_captured - ch.fee
        if ch.available_on is not None and ch.available_on > today:
            pending += net
        else:
            available += net
    available -= sum(r.amount for r in refunds)
    for dp in disputes:
        if dp.status not in ("won", "warning_needs_response"):
            available -= dp.amount + DISPUTE_FEE
    for po in payouts:
        if po.status in ("pending", "in_transit", "paid"):
            available -= po.amount
    return BalanceAmount(currency=currency, available=available, pending=pending)


def _balance(ctx: Ctx, currency: str) -> BalanceAmount:
    return _tally(
        currency,
        ctx.today(),
        ctx.where(Charge, currency=currency),
        ctx.where(Refund, currency=currency),
        ctx.where(Dispute, currency=currency),
        ctx.where(Payout, currency=currency),
    )


@service.tool(intent="check the account balance")
def get_balance(ctx: Ctx, currency: Currency | None = None) -> list[BalanceAmount]:
    """The balance per currency: available for payouts, and pending settlement.

    Captured charges (less fees) settle after a few days; refunds, disputes
    and payouts are taken from the available balance.

    Args:
        currency: Only this currency (default: every currency with activity or a bank account).
    """
    if currency is not None:
        return [_balance(ctx, currency)]
    seen = {ch.currency for ch in ctx.scan(Charge)} | {ba.currency for ba in ctx.scan(BankAccount)}
    return [_balance(ctx, c) for c in sorted(seen)]


def _example_payout(ctx: Ctx) -> dict[str, Any] | None:
    for ba in ctx.where(BankAccount, default_for_currency=True):
        available = _balance(ctx, ba.currency).available
        if available >= 100:
            return {"amount": available // 2, "currency": ba.currency}
    return None


@service.tool(intent="pay out the balance to the bank", write=True, example=_example_payout)
def create_payout(
    ctx: Ctx,
    amount: Cents,
    currency: Currency,
    bank_account_id: BankAccountId | None = None,
    description: Text = "",
) -> Payout:
    """Send available balance to one of the company's bank accounts.

    The amount cannot exceed the available balance in that currency, and the
    bank account must take that currency. The money arrives in 2 days.

    Args:
        amount: Amount in minor units, more than 0 and at most the available balance.
        currency: Currency of the payout.
        bank_account_id: Destination account (default: the default account for the currency).
        description: Statement description.
    """
    if amount == 0:
        raise RuleViolation(
            "a payout amount must be more than 0",
            field="amount",
            hint="check payments__get_balance for what is available",
        )
    if bank_account_id is None:
        account = ctx.first(BankAccount, currency=currency, default_for_currency=True) or ctx.first(
            BankAccount, currency=currency
        )
        if account is None:
            raise RuleViolation(
                f"there is no bank account for {currency}",
                field="currency",
                hint="add one with payments__create_bank_account, or pay out a currency that has one",
            )
    else:
        account = ctx.get(BankAccount, bank_account_id, field="bank_account_id")
        if account.currency != currency:
            raise RuleViolation(
                f"bank account {account.id} takes {account.currency}, not {currency}",
                field="bank_account_id",
                hint=f"choose a {currency} bank account (payments__list_bank_accounts)",
            )
    available = _balance(ctx, currency).available
    if amount > available:
        raise RuleViolation(
            f"payout of {amount} exceeds the available balance of {max(available, 0)} {currency}",
            field="amount",
            hint="check payments__get_balance; pending money becomes available after settlement",
        )
    return ctx.create(
        Payout,
        bank_account_id=account.id,
        amount=amount,
        currency=currency,
        arrival_date=ctx.today() + dt.timedelta(days=2),
        description=description or "PAYSTREAM PAYOUT",
    )


# -- seed -----------------------------------------------------------------------------------

BANKS = ("First Harbor Bank", "Meridian Trust", "Northgate Savings", "Crescent Bank")
BRANDS: tuple[Literal["visa", "mastercard", "amex", "discover"], ...] = (
    "visa",
    "visa",
    "mastercard",
    "amex",
    "discover",
)
DISPUTE_PLAN: tuple[tuple[DisputeStatus, DisputeReason], ...] = (
    ("needs_response", "product_not_received"),
    ("warning_needs_response", "fraudulent"),
    ("under_review", "product_unacceptable"),
    ("won", "duplicate"),
    ("lost", "fraudulent"),
    ("needs_response", "general"),
)


def _seed_bank_accounts(s: SeedContext) -> list[str]:
    """A default bank account for the home currency, USD and EUR, and a spare USD one; returns the currencies."""
    rng = s.rng
    home = s.population.home
    currencies = list(dict.fromkeys((home.place.currency, "USD", "EUR")))
    for n, cur in enumerate(currencies):
        country = home.place.country if n == 0 else {"USD": "US", "EUR": "DE"}[cur]
        s.create(
            BankAccount,
            bank_name=BANKS[n % len(BANKS)],
            account_number=f"{country}{rng.randint(10, 99)}{rng.randint(10**13, 10**14 - 1)}",
            holder_name=home.name,
            country=country,
            currency=cur,
            default_for_currency=True,
            created_at=s.ago(days=700 - n),
        )
    s.create(
        BankAccount,
        bank_name=BANKS[-1],
        account_number=f"US{rng.randint(10, 99)}{rng.randint(10**13, 10**14 - 1)}",
        holder_name=home.name,
        country="US",
        currency="USD",
        default_for_currency=False,
        created_at=s.ago(days=900),
    )
    return currencies


def _seed_customer(s: SeedContext, n: int, person: Person, currencies: list[str], state: _ChargeState) -> None:
    """The n-th paying customer with a card (sometimes a bank account too) and their charges."""
    rng = s.rng
    employer = s.population.company_of(person)
    currency = person.place.currency if person.place.currency in currencies else currencies[0]
    has_methods = n % 19 != 7  # a few customers have no payment method on file
    # The customer names its default card, which is created right after it.
    first_pm = f"pm_{len(s.records(PaymentMethod)) + 1:06d}" if has_methods else None
    customer = s.create(
        Customer,
        email=person.email,
        name=person.name,
        phone=person.phone,
        address=employer.address if employer else person.address,
        description=f"Billing contact at {employer.name}" if employer else "",
        default_payment_method_id=first_pm,
        created_at=s.ago(days=rng.randint(90, 800)),
    )
    methods: list[PaymentMethod] = []
    if has_methods:
        last4 = "0002" if n % 29 == 11 else f"{rng.randint(0, 9999):04d}"
        if last4 in DECLINING_CARDS and n % 29 != 11:
            last4 = "4242"
        methods.append(
            s.create(
                PaymentMethod,
                customer_id=customer.id,
                type="card",
                brand=rng.choice(BRANDS),
                last4=last4,
                exp_month=rng.randint(1, 12),
                exp_year=s.now.year - 1 if n % 17 == 5 else s.now.year + rng.randint(1, 5),
                billing_name=person.name,
                billing_email=person.email,
                created_at=customer.created_at,
            )
        )
        if methods[0].id != first_pm:
            raise CatalogError(f"payments seeder: expected payment method id {first_pm}, got {methods[0].id}")
        if rng.random() < 0.2:
            methods.append(
                s.create(
                    PaymentMethod,
                    customer_id=customer.id,
                    type="us_bank_account" if currency == "USD" else "sepa_debit",
                    last4=f"{rng.randint(0, 9999):04d}",
                    billing_name=person.name,
                    billing_email=person.email,
                    created_at=customer.created_at + dt.timedelta(days=3),
                )
            )
    for _ in range(rng.randint(1, 3) if employer else rng.randint(0, 4)):
        if methods:
            _seed_charge(s, state, customer, rng.choice(methods), currency, business=employer is not None)


@service.seeder
def seed(s: SeedContext) -> None:
    """Customers for consumers and billing contacts, their cards, two months of charges, balance, payouts."""
    pop = s.population
    rng = s.rng
    currencies = _seed_bank_accounts(s)
    payers = list(pop.consumers)
    for company in pop.customers:
        contact = pop.first_contact(company)
        if contact is not None:
            payers.append(contact)
    state = _ChargeState(disputes_left=list(DISPUTE_PLAN))
    for n, person in enumerate(payers):
        _seed_customer(s, n, person, currencies, state)
    # Cards left behind by customers who detached them.
    for k, person in enumerate(pop.consumers[:3]):
        s.create(
            PaymentMethod,
            type="card",
            brand=BRANDS[k],
            last4=f"{rng.randint(1000, 8999):04d}",
            exp_month=rng.randint(1, 12),
            exp_year=s.now.year + 2,
            billing_name=person.name,
            billing_email=person.email,
            created_at=s.ago(days=40 + k),
        )
    _seed_payouts(s)


@dataclass
class _ChargeState:
    """What the charge seeder carries from one charge to the next."""

    disputes_left: list[tuple[DisputeStatus, DisputeReason]]


def _seed_charge(
    s: SeedContext, state: _ChargeState, customer: Customer, pm: PaymentMethod, currency: str, *, business: bool
) -> None:
    rng = s.rng
    now = s.now
    products = s.population.products
    if business:
        lines = rng.sample(products, k=min(len(products), rng.randint(2, 4)))
        amount = sum(p.price_cents * rng.randint(2, 12) for p in lines)
        description = f"Payment to {s.population.home.name}"
    else:
        product = rng.choice(products)
        qty = rng.randint(1, 3)
        amount = product.price_cents * qty
        description = f"{product.name} x{qty}"
    age = dt.timedelta(days=rng.randint(0, 60), hours=rng.randint(0, 8))
    created = now - age
    fields: dict[str, Any] = {"status": "succeeded"}
    roll = rng.random()
    if _card_expired(pm, created.date()):
        fields = {"status": "failed", "failure_code": "expired_card"}
    elif pm.type == "card" and pm.last4 in DECLINING_CARDS:
        fields = {"status": "failed", "failure_code": DECLINING_CARDS[pm.last4]}
    elif roll < 0.05:
        fields = {"status": "failed", "failure_code": "insufficient_funds"}
    elif age.days <= 4 and roll < 0.45:
        fields = {"status": "requires_capture", "capture_method": "manual"}
    elif roll < 0.1:
        fields = {"status": "canceled", "capture_method": "manual", "description": f"{description} (Canceled)"}
    elif roll < 0.2:
        fields = {"status": "succeeded", "capture_method": "manual"}
    if fields["status"] == "succeeded":
        captured = created + (dt.timedelta(hours=20) if fields.get("capture_method") == "manual" else dt.timedelta())
        fields.update(
            amount_captured=amount,
            fee=_fee(pm.type, amount),
            captured_at=min(captured, now),
            available_on=min(captured, now).date() + dt.timedelta(days=SETTLEMENT_DAYS[pm.type]),
        )
    refund = fields["status"] == "succeeded" and rng.random() < 0.15
    dispute = None
    disputable = fields["status"] == "succeeded" and not refund and pm.type == "card" and age.days >= 8
    if disputable and state.disputes_left and rng.random() < 0.25:
        dispute = state.disputes_left.pop(0)
        fields["disputed"] = True
    refund_amount = 0
    if refund:
        refund_amount = amount if rng.random() < 0.5 else amount // rng.randint(2, 4)
        fields.update(amount_refunded=refund_amount, refunded=refund_amount == amount)
    fields.setdefault("description", description)
    ch = s.create(
        Charge,
        customer_id=customer.id,
        payment_method_id=pm.id,
        amount=amount,
        currency=currency,
        receipt_email=customer.email,
        created_at=created,
        **fields,
    )
    if refund_amount:
        s.create(
            Refund,
            charge_id=ch.id,
            amount=refund_amount,
            currency=currency,
            reason=rng.choice(("requested_by_customer", "requested_by_customer", "duplicate")),
            created_at=created + dt.timedelta(days=rng.randint(1, 5)),
        )
    if dispute is not None:
        status, reason = dispute
        opened = s.ago(days=2) if status in RESPONSE_NEEDED else created + dt.timedelta(days=4)
        s.create(
            Dispute,
            charge_id=ch.id,
            amount=amount,
            currency=currency,
            reason=reason,
            status=status,
            evidence="" if status in RESPONSE_NEEDED else "Order confirmation, delivery tracking and invoice.",
            evidence_due_by=opened.date() + dt.timedelta(days=21),
            submitted_at=None if status in RESPONSE_NEEDED else opened + dt.timedelta(days=3),
            created_at=opened,
        )


def _seed_payouts(s: SeedContext) -> None:
    today = s.now.date()
    for account in s.records(BankAccount):
        if not account.default_for_currency:
            continue
        cur = account.currency
        balance = _tally(
            cur,
            today,
            [c for c in s.records(Charge) if c.currency == cur],
            [r for r in s.records(Refund) if r.currency == cur],
            [d for d in s.records(Dispute) if d.currency == cur],
            [],
        )
        if balance.available < 10_000:
            continue
        share = balance.available * 6 // 10 // 6
        plan: tuple[tuple[str, int], ...] = (
            ("paid", 28),
            ("paid", 21),
            ("failed", 17),
            ("paid", 14),
            ("paid", 7),
            ("canceled", 5),
            ("in_transit", 1),
            ("pending", 0),
        )
        for status, days in plan:
            created = s.ago(days=days, hours=2)
            s.create(
                Payout,
                bank_account_id=account.id,
                amount=share,
                currency=cur,
                status=status,
                arrival_date=created.date() + dt.timedelta(days=2),
                description="PAYSTREAM PAYOUT",
                created_at=created,
            )
