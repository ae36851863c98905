"""Harborline Bank: business bank accounts, payees, payments with approvals, internal transfers and deposits.

Modeled on the Mercury Banking API v1 (Accounts, Transactions, Recipients,
send money with an idempotency key, approval requests, internal transfers,
check deposits): a payment cannot exceed the account's available balance;
savings accounts only move money internally; wires and checks need the
recipient's address; payments above the approval threshold, or initiated by
a non-admin, wait for an admin other than the initiator; bookkeepers cannot
move money; only payments not yet sent can be cancelled; frozen accounts move
nothing; repeating a payment with the same idempotency key returns the first.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    AccountNumber,
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    FileLink,
    IdOf,
    InvoiceNumber,
    PersonName,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created
from compoworld.world import finance as links

__all__ = ["service"]

service = Service(
    "banking",
    title="Harborline Bank",
    category="banking",
    modeled_on="Mercury Banking API v1 (Accounts, Transactions, Recipients, send money, approval requests, "
    "internal transfers, check deposits)",
    description="Online business banking: the company's checking and savings accounts with current and available "
    "balances, saved payees, ACH, wire and check payments with approval rules, internal transfers, mobile check "
    "deposits and statements.",
)

AccountId = Annotated[str, IdOf("banking.account")]
MemberId = Annotated[str, IdOf("banking.team_member")]
RecipientId = Annotated[str, IdOf("banking.recipient")]
TransactionId = Annotated[str, IdOf("banking.transaction")]
ApprovalId = Annotated[str, IdOf("banking.approval_request")]

RoutingNumber = Annotated[str, StringConstraints(pattern=r"^[0-9]{9}$")]
IdempotencyKey = Annotated[str, StringConstraints(min_length=1, max_length=64, strip_whitespace=True)]
Method = Literal["ach", "wire", "check"]
TxStatus = Literal["pending_approval", "pending", "sent", "cancelled", "failed", "rejected"]
TxKind = Literal["ach", "wire", "check", "internal_transfer", "card", "fee", "deposit", "check_deposit", "interest"]
Role = Literal["admin", "payments", "bookkeeper"]
APPROVAL_THRESHOLD = 10_000_00
"""Payments above this amount (cents) need an admin's approval."""
HOLDING: tuple[str, ...] = ("pending",)
DELIVERY_DAYS: dict[str, int] = {"ach": 2, "wire": 0, "check": 6}


class Account(Record):
    """A bank account of the company."""

    id: AccountId
    name: Title
    """Display name."""
    kind: Literal["checking", "savings", "treasury"]
    """checking moves money anywhere; savings and treasury only move money to the company's own accounts."""
    account_number: AccountNumber
    """Account number; unique."""
    routing_number: RoutingNumber
    """The bank's routing number."""
    currency: Currency
    """Currency."""
    current_balance: Cents
    """Balance of the posted (sent) transactions in cents."""
    available_balance: Cents
    """Current balance less money held for pending payments, in cents: what can be spent."""
    status: Literal["open", "frozen"] = "open"
    """Frozen accounts cannot move money."""


class TeamMember(Record):
    """A person with access to the company's bank accounts."""

    id: MemberId
    name: PersonName
    """Full name."""
    email: Email
    """Login e-mail; unique."""
    role: Role
    """admin (moves money, approves), payments (initiates payments that need approval) or bookkeeper (read-only)."""


class Recipient(Record):
    """A saved payee."""

    id: RecipientId
    kind: Literal["business", "individual"]
    """business or individual."""
    business_name: CompanyName | None = None
    """Name of a business payee."""
    person_name: PersonName | None = None
    """Name of an individual payee, or the contact at a business."""
    email: Email | None = None
    """Where payment notifications are sent."""
    account_number: AccountNumber
    """The payee's bank account number."""
    routing_number: RoutingNumber
    """The payee's bank routing number."""
    default_method: Method = "ach"
    """ach, wire or check."""
    address: PostalAddress | None = None
    """Postal address; needed for wires and checks."""
    status: Literal["active", "archived"] = "active"
    """Archived payees cannot be paid."""
    created_at: Annotated[DateTime, CREATED]
    """When the payee was saved."""


class Transaction(Created):
    """Money in or out of an account."""

    id: TransactionId
    account_id: AccountId
    """The account."""
    direction: Literal["debit", "credit"]
    """debit (money out) or credit (money in)."""
    amount: Cents
    """Amount in cents."""
    kind: TxKind
    """How the money moved."""
    status: TxStatus
    """pending_approval, pending (held, not yet sent), sent (posted), cancelled, failed or rejected."""
    recipient_id: RecipientId | None = None
    """The payee of a payment."""
    counterparty_company: CompanyName | None = None
    """The business on the other side."""
    counterparty_person: PersonName | None = None
    """The person on the other side."""
    counterparty_account: AccountNumber | None = None
    """The other side's account number."""
    invoice_number: InvoiceNumber | None = None
    """Invoice the payment settles."""
    note: Text = ""
    """Internal note."""
    external_memo: Text = ""
    """Memo the counterparty sees."""
    requested_by: Email | None = None
    """Who initiated it."""
    idempotency_key: Annotated[str, StringConstraints(max_length=64)] | None = None
    """The initiator's key against duplicate payments."""
    related_transaction_id: TransactionId | None = None
    """The other leg of an internal transfer."""
    check_image: FileLink | None = None
    """Image of a deposited check."""
    estimated_delivery: Date | None = None
    """When the money should arrive."""
    posted_at: DateTime | None = None
    """When it posted."""


class ApprovalRequest(Record):
    """A payment waiting for an admin's approval."""

    id: ApprovalId
    transaction_id: TransactionId
    """The payment."""
    account_id: AccountId
    """The account paid from."""
    amount: Cents
    """Amount in cents."""
    requested_by: Email
    """Who initiated the payment."""
    status: Literal["pending", "approved", "rejected", "cancelled"] = "pending"
    """pending, approved, rejected or cancelled."""
    decided_by: Email | None = None
    """The admin who decided."""
    reason: Text | None = None
    """Why it was rejected."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


# -- rules ------------------------------------------------------------------------------------


def _guard_recipient(ctx: Ctx, new: Any, old: Any) -> None:
    if new.kind == "business" and new.business_name is None:
        raise RuleViolation("a business payee needs a business name", field="business_name", hint="give its name")
    if new.kind == "individual" and new.person_name is None:
        raise RuleViolation("an individual payee needs a name", field="person_name", hint="give the person's name")
    if new.default_method in ("wire", "check") and new.address is None:
        raise RuleViolation(
            f"{new.default_method} payments need the payee's address",
            field="address",
            hint="add the address or default to ach",
        )
    if old is not None and old.status == "active" and new.status == "archived":
        waiting = [
            t for t in ctx.where(Transaction, recipient_id=new.id) if t.status in ("pending", "pending_approval")
        ]
        if waiting:
            raise RuleViolation(
                f"{len(waiting)} payment(s) to this payee are not sent yet",
                field="status",
                hint="cancel them with banking__cancel_transaction first",
            )


def _open_account(ctx: Ctx, account_id: str, field: str) -> Account:
    acct = ctx.get(Account, account_id, field=field)
    if acct.status != "open":
        raise RuleViolation(
            f"account {acct.name} is frozen", field=field, hint="unfreeze it with banking__unfreeze_account first"
        )
    return acct


def _member(ctx: Ctx, email: str, field: str) -> TeamMember:
    member = ctx.first(TeamMember, email=email)
    if member is None:
        raise NotFound(
            f"{email} has no access to the company's accounts",
            field=field,
            hint="list team members with banking__list_team_members",
        )
    return member


def _check_funds(acct: Account, amount: int, field: str) -> None:
    if amount > acct.available_balance:
        raise RuleViolation(
            f"{acct.name} has {acct.available_balance} available; {amount} cannot be sent",
            field=field,
            hint="send less, or move money in with banking__internal_transfer first",
        )


def _hold(ctx: Ctx, acct: Account, amount: int) -> Account:
    return ctx.update(acct, available_balance=acct.available_balance - amount)


def _release(ctx: Ctx, account_id: str, amount: int) -> None:
    acct = ctx.get(Account, account_id)
    ctx.update(acct, available_balance=acct.available_balance + amount)


accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acct",
    create=False,
    filters=("kind", "status", "account_number", "currency"),
    search=("name",),
    delete=False,
    transitions={
        "freeze": Transition("status", ("open",), "frozen", "freeze the bank account"),
        "unfreeze": Transition("status", ("frozen",), "open", "unfreeze the bank account"),
    },
    title="bank account",
)
members = service.resource(
    TeamMember,
    name="team_member",
    plural="team_members",
    prefix="tm",
    create=False,
    filters=("email", "role"),
    search=("name", "email"),
    delete=False,
    title="team member",
)
recipients = service.resource(
    Recipient,
    name="recipient",
    plural="recipients",
    prefix="rcp",
    create=False,
    filters=("kind", "status", "account_number", "email", "business_name", "default_method"),
    search=("business_name", "person_name", "email"),
    update=("business_name", "person_name", "email", "default_method", "address", "status"),
    delete=False,
    guard_update=_guard_recipient,
    title="payee",
)
transactions = service.resource(
    Transaction,
    name="transaction",
    plural="transactions",
    prefix="txn",
    create=False,
    filters=(
        "account_id",
        "status",
        "kind",
        "direction",
        "recipient_id",
        "invoice_number",
        "counterparty_company",
        "requested_by",
    ),
    search=("note", "external_memo", "counterparty_company", "counterparty_person"),
    update=("note",),
    delete=False,
    title="bank transaction",
)
approvals = service.resource(
    ApprovalRequest,
    name="approval_request",
    plural="approval_requests",
    prefix="apr",
    create=False,
    filters=("status", "account_id", "requested_by", "transaction_id"),
    delete=False,
    title="approval request",
)


# -- examples ---------------------------------------------------------------------------------


def _admins(ctx: Ctx) -> list[TeamMember]:
    return ctx.where(TeamMember, role="admin")


def _example_send(ctx: Ctx) -> dict[str, Any] | None:
    acct = next(a for a in ctx.where(Account, kind="checking", status="open"))
    payee = ctx.first(Recipient, status="active", default_method="ach")
    if payee is None:
        return None
    return {
        "account_id": acct.id,
        "recipient_id": payee.id,
        "amount": 1_250_00,
        "requested_by": _admins(ctx)[0].email,
        "idempotency_key": "pay-2026-03-02-001",
        "invoice_number": "INV-20111",
    }


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    for req in ctx.where(ApprovalRequest, status="pending"):
        acct = ctx.get(Account, req.account_id)
        if acct.status != "open" or req.amount > acct.available_balance:
            continue
        for admin in _admins(ctx):
            if admin.email != req.requested_by:
                return {"approval_request_id": req.id, "approver_email": admin.email, "reason": "Checked invoice"}
    return None


def _example_transfer(ctx: Ctx) -> dict[str, Any]:
    reserve = ctx.first(Account, kind="savings")
    operating = ctx.first(Account, kind="checking")
    assert reserve is not None and operating is not None
    return {"from_account_id": reserve.id, "to_account_id": operating.id, "amount": 5_000_00, "note": "Top up"}


def _example_statement(ctx: Ctx) -> dict[str, Any]:
    acct = ctx.first(Account, kind="checking")
    assert acct is not None
    return {"account_id": acct.id, "start": (ctx.today() - dt.timedelta(days=30)).isoformat()}


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="save a new payee",
    write=True,
    example=fixed_example(
        kind="business",
        business_name="Northwind Cleaning",
        email="billing@northwind-cleaning.example.com",
        account_number="NW-3301-7788",
        routing_number="021000021",
    ),
)
def create_recipient(
    ctx: Ctx,
    kind: Literal["business", "individual"],
    account_number: AccountNumber,
    routing_number: RoutingNumber,
    business_name: CompanyName | None = None,
    person_name: PersonName | None = None,
    email: Email | None = None,
    default_method: Method = "ach",
    address: PostalAddress | None = None,
) -> Recipient:
    """Save a payee: a business needs its name, an individual theirs; wires and checks need an address.

    A bank account can be saved as one active payee only.

    Args:
        kind: business or individual.
        account_number: The payee's bank account number.
        routing_number: The payee's bank routing number (9 digits).
        business_name: Name of a business payee.
        person_name: Name of an individual payee, or the contact at a business.
        email: Where payment notifications go.
        default_method: ach, wire or check.
        address: Postal address (needed for wires and checks).
    """
    for other in ctx.where(Recipient, account_number=account_number, status="active"):
        if other.routing_number == routing_number:
            raise Conflict(
                f"account {account_number} is already saved as payee {other.id}",
                field="account_number",
                hint="pay the existing payee",
            )
    rec = ctx.create(
        Recipient,
        kind=kind,
        business_name=business_name,
        person_name=person_name,
        email=email,
        account_number=account_number,
        routing_number=routing_number,
        default_method=default_method,
        address=address,
    )
    _guard_recipient(ctx, rec, None)
    return rec


@service.tool(intent="pay the payee from the bank account", write=True, example=_example_send)
def send_money(
    ctx: Ctx,
    account_id: AccountId,
    recipient_id: RecipientId,
    amount: Cents,
    requested_by: Email,
    idempotency_key: IdempotencyKey,
    method: Method | None = None,
    invoice_number: InvoiceNumber | None = None,
    note: Text = "",
    external_memo: Text = "",
) -> Transaction:
    """Send a payment to a saved payee by ACH, wire or check.

    The account must be an open checking account with enough available
    balance. Admins' payments up to the approval threshold are pending at
    once (the amount is held); larger payments, and any payment initiated by a
    member with the payments role, wait for another admin's approval.
    Bookkeepers cannot send money. Repeating a call with the same idempotency
    key returns the first payment instead of paying twice.

    Args:
        account_id: The account to pay from.
        recipient_id: The payee.
        amount: Amount in cents.
        requested_by: E-mail of the team member sending it.
        idempotency_key: A key unique to this payment, to make retries safe.
        method: ach, wire or check; default the payee's default method.
        invoice_number: Invoice the payment settles.
        note: Internal note.
        external_memo: Memo the payee sees.
    """
    earlier = ctx.first(Transaction, idempotency_key=idempotency_key)
    if earlier is not None:
        if (earlier.account_id, earlier.recipient_id, earlier.amount) != (account_id, recipient_id, amount):
            raise Conflict(
                f"idempotency key {idempotency_key!r} was used for another payment ({earlier.id})",
                field="idempotency_key",
                hint="use a new key for a new payment",
            )
        return earlier
    acct = _open_account(ctx, account_id, "account_id")
    if acct.kind != "checking":
        raise RuleViolation(
            f"{acct.name} is a {acct.kind} account and cannot pay outside the company",
            field="account_id",
            hint="move the money to a checking account with banking__internal_transfer and pay from there",
        )
    payee = ctx.get(Recipient, recipient_id, field="recipient_id")
    if payee.status != "active":
        raise RuleViolation("the payee is archived", field="recipient_id", hint="reactivate it or pick another payee")
    member = _member(ctx, requested_by, "requested_by")
    if member.role == "bookkeeper":
        raise RuleViolation(
            f"{member.email} is a bookkeeper and cannot send money",
            field="requested_by",
            hint="ask an admin or a member with the payments role",
        )
    if amount <= 0:
        raise RuleViolation("the amount must be positive", field="amount", hint="send at least one cent")
    how = method or payee.default_method
    if how in ("wire", "check") and payee.address is None:
        raise RuleViolation(
            f"{how} payments need the payee's address",
            field="method",
            hint="add the address with banking__update_recipient, or pay by ach",
        )
    _check_funds(acct, amount, "amount")
    needs_approval = amount > APPROVAL_THRESHOLD or member.role != "admin"
    tx = ctx.create(
        Transaction,
        account_id=acct.id,
        direction="debit",
        amount=amount,
        kind=how,
        status="pending_approval" if needs_approval else "pending",
        recipient_id=payee.id,
        counterparty_company=payee.business_name,
        counterparty_person=payee.person_name,
        counterparty_account=payee.account_number,
        invoice_number=invoice_number,
        note=note,
        external_memo=external_memo,
        requested_by=member.email,
        idempotency_key=idempotency_key,
        estimated_delivery=None if needs_approval else ctx.today() + dt.timedelta(days=DELIVERY_DAYS[how]),
    )
    if needs_approval:
        ctx.create(ApprovalRequest, transaction_id=tx.id, account_id=acct.id, amount=amount, requested_by=member.email)
    else:
        _hold(ctx, acct, amount)
    return tx


def _pending_request(ctx: Ctx, approval_request_id: str, approver_email: str) -> ApprovalRequest:
    req = ctx.get(ApprovalRequest, approval_request_id, field="approval_request_id")
    if req.status != "pending":
        raise RuleViolation(
            f"the request is already {req.status}",
            field="approval_request_id",
            hint="only pending requests are decided",
        )
    approver = _member(ctx, approver_email, "approver_email")
    if approver.role != "admin":
        raise RuleViolation(
            f"{approver.email} is not an admin", field="approver_email", hint="only admins approve payments"
        )
    if approver.email == req.requested_by:
        raise RuleViolation(
            "the initiator cannot approve their own payment",
            field="approver_email",
            hint="another admin must decide",
        )
    return req


@service.tool(intent="approve the pending payment", write=True, example=_example_decide)
def approve_payment(ctx: Ctx, approval_request_id: ApprovalId, approver_email: Email, reason: Text = "") -> Transaction:
    """Approve a payment waiting for approval: an admin other than the initiator; the money must still be there.

    Args:
        approval_request_id: The request.
        approver_email: E-mail of the approving admin.
        reason: Optional comment.
    """
    req = _pending_request(ctx, approval_request_id, approver_email)
    tx = ctx.get(Transaction, req.transaction_id)
    acct = _open_account(ctx, tx.account_id, "approval_request_id")
    _check_funds(acct, tx.amount, "approval_request_id")
    _hold(ctx, acct, tx.amount)
    ctx.update(req, status="approved", decided_by=approver_email, reason=reason or None)
    return ctx.update(
        tx, status="pending", estimated_delivery=ctx.today() + dt.timedelta(days=DELIVERY_DAYS.get(tx.kind, 2))
    )


@service.tool(intent="reject the pending payment", write=True, destructive=True, example=_example_decide)
def reject_payment(ctx: Ctx, approval_request_id: ApprovalId, approver_email: Email, reason: Text) -> Transaction:
    """Reject a payment waiting for approval; it will not be sent. Only an admin other than the initiator.

    Args:
        approval_request_id: The request.
        approver_email: E-mail of the deciding admin.
        reason: Why it is rejected.
    """
    req = _pending_request(ctx, approval_request_id, approver_email)
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="tell the initiator why")
    ctx.update(req, status="rejected", decided_by=approver_email, reason=reason.strip())
    return ctx.update(ctx.get(Transaction, req.transaction_id), status="rejected")


@service.tool(
    intent="cancel the payment before it is sent",
    write=True,
    destructive=True,
    example=first_example(Transaction, "transaction_id", where={"status": "pending"}),
)
def cancel_transaction(ctx: Ctx, transaction_id: TransactionId) -> Transaction:
    """Cancel a payment that is not sent yet (pending or waiting for approval); held money is released.

    Args:
        transaction_id: The payment.
    """
    tx = ctx.get(Transaction, transaction_id, field="transaction_id")
    if tx.status not in ("pending", "pending_approval") or tx.direction != "debit":
        raise RuleViolation(
            f"transaction {tx.id} is {tx.status}",
            field="transaction_id",
            hint="only payments not yet sent can be cancelled",
        )
    if tx.status == "pending":
        _release(ctx, tx.account_id, tx.amount)
    else:
        req = ctx.first(ApprovalRequest, transaction_id=tx.id, status="pending")
        if req is not None:
            ctx.update(req, status="cancelled")
    return ctx.update(tx, status="cancelled", estimated_delivery=None)


class Transfer(BaseModel):
    """Both legs of an internal transfer."""

    debit: Transaction = Field(description="Money out of the source account.")
    credit: Transaction = Field(description="Money into the destination account.")


@service.tool(intent="move money between the company's accounts", write=True, example=_example_transfer)
def internal_transfer(
    ctx: Ctx, from_account_id: AccountId, to_account_id: AccountId, amount: Cents, note: Text = ""
) -> Transfer:
    """Move money between two of the company's open accounts in the same currency; it posts at once.

    Args:
        from_account_id: The account to take it from.
        to_account_id: The account to put it in.
        amount: Amount in cents.
        note: Internal note.
    """
    src = _open_account(ctx, from_account_id, "from_account_id")
    dst = _open_account(ctx, to_account_id, "to_account_id")
    if src.id == dst.id:
        raise RuleViolation("the accounts must differ", field="to_account_id", hint="pick another account")
    if src.currency != dst.currency:
        raise RuleViolation(
            f"{src.name} is in {src.currency}, {dst.name} in {dst.currency}",
            field="to_account_id",
            hint="transfer between accounts of one currency",
        )
    if amount <= 0:
        raise RuleViolation("the amount must be positive", field="amount", hint="move at least one cent")
    _check_funds(src, amount, "amount")
    now = ctx.now()
    out = ctx.create(
        Transaction,
        account_id=src.id,
        direction="debit",
        amount=amount,
        kind="internal_transfer",
        status="sent",
        counterparty_account=dst.account_number,
        note=note,
        posted_at=now,
    )
    into = ctx.create(
        Transaction,
        account_id=dst.id,
        direction="credit",
        amount=amount,
        kind="internal_transfer",
        status="sent",
        counterparty_account=src.account_number,
        note=note,
        related_transaction_id=out.id,
        posted_at=now,
    )
    out = ctx.update(out, related_transaction_id=into.id)
    ctx.update(src, current_balance=src.current_balance - amount, available_balance=src.available_balance - amount)
    ctx.update(dst, current_balance=dst.current_balance + amount, available_balance=dst.available_balance + amount)
    return Transfer(debit=out, credit=into)


@service.tool(
    intent="deposit the customer's check",
    write=True,
    example=first_example(
        Account,
        "account_id",
        where={"kind": "checking"},
        amount=2_400_00,
        check_image="https://files.example.com/checks/chk-1042.jpg",
        payer_company="Birch Foods",
        invoice_number="INV-00042",
    ),
)
def deposit_check(
    ctx: Ctx,
    account_id: AccountId,
    amount: Cents,
    check_image: FileLink,
    payer_company: CompanyName | None = None,
    payer_person: PersonName | None = None,
    invoice_number: InvoiceNumber | None = None,
) -> Transaction:
    """Deposit a check by photo into an open account; it is pending until it clears (not yet available).

    Args:
        account_id: The account.
        amount: Amount of the check in cents (at most 50,000.00).
        check_image: Link to the photo of the check.
        payer_company: The business that wrote the check.
        payer_person: The person who wrote the check.
        invoice_number: Invoice the check pays.
    """
    acct = _open_account(ctx, account_id, "account_id")
    if amount <= 0 or amount > 50_000_00:
        raise RuleViolation(
            "mobile check deposits are between 0.01 and 50,000.00",
            field="amount",
            hint="deposit larger checks at a branch",
        )
    if payer_company is None and payer_person is None:
        raise RuleViolation("say who wrote the check", field="payer_company", hint="give the payer's name")
    if ctx.first(Transaction, check_image=check_image) is not None:
        raise Conflict("this check was already deposited", field="check_image", hint="each check is deposited once")
    return ctx.create(
        Transaction,
        account_id=acct.id,
        direction="credit",
        amount=amount,
        kind="check_deposit",
        status="pending",
        counterparty_company=payer_company,
        counterparty_person=payer_person,
        invoice_number=invoice_number,
        check_image=check_image,
        estimated_delivery=ctx.today() + dt.timedelta(days=2),
    )


class Statement(BaseModel):
    """An account's posted transactions over a period."""

    account_id: AccountId = Field(description="The account.")
    account_number: AccountNumber = Field(description="Its number.")
    start: Date = Field(description="First day.")
    end: Date = Field(description="Last day.")
    opening_balance: int = Field(description="Balance before the first day, in cents.")
    money_in: Cents = Field(description="Credits posted in the period, in cents.")
    money_out: Cents = Field(description="Debits posted in the period, in cents.")
    closing_balance: int = Field(description="Balance after the last day, in cents.")
    transactions: list[Transaction] = Field(description="Posted transactions of the period, oldest first.")


@service.tool(intent="get the account statement", example=_example_statement)
def account_statement(ctx: Ctx, account_id: AccountId, start: Date, end: Date | None = None) -> Statement:
    """The posted transactions of an account between two dates, with opening and closing balances.

    Args:
        account_id: The account.
        start: First day.
        end: Last day; default today.
    """
    acct = ctx.get(Account, account_id, field="account_id")
    last = end or ctx.today()
    if last < start:
        raise RuleViolation("the period ends before it starts", field="end", hint="pass an end on or after the start")
    posted = [t for t in ctx.where(Transaction, account_id=acct.id, status="sent") if t.posted_at is not None]
    posted.sort(key=lambda t: (t.posted_at, t.id))

    def signed(t: Transaction) -> int:
        return t.amount if t.direction == "credit" else -t.amount

    after = sum(signed(t) for t in posted if t.posted_at is not None and t.posted_at.date() > last)
    period = [t for t in posted if t.posted_at is not None and start <= t.posted_at.date() <= last]
    closing = acct.current_balance - after
    money_in = sum(t.amount for t in period if t.direction == "credit")
    money_out = sum(t.amount for t in period if t.direction == "debit")
    return Statement(
        account_id=acct.id,
        account_number=acct.account_number,
        start=start,
        end=last,
        opening_balance=closing - money_in + money_out,
        money_in=money_in,
        money_out=money_out,
        closing_balance=closing,
        transactions=period,
    )


# -- seed -------------------------------------------------------------------------------------


def _seed_team(s: SeedContext) -> tuple[list[TeamMember], TeamMember]:
    """The finance staff as the banking team; returns the admins and the member who initiates payments."""
    pop = s.population
    finance = pop.staff("Finance", fallback=4)
    roles: tuple[Role, ...] = ("admin", "admin", "payments", "bookkeeper")
    team = [
        s.create(TeamMember, name=p.name, email=p.email, role=roles[i] if i < len(roles) else "bookkeeper")
        for i, p in enumerate(finance)
    ]
    admins = [m for m in team if m.role == "admin"]
    return admins, next((m for m in team if m.role == "payments"), admins[0])


def _seed_recipients(s: SeedContext) -> list[Recipient]:
    """Supplier and contractor payees; returns the active ones."""
    pop = s.population
    payees: list[Recipient] = []
    for sup in links.suppliers(pop):
        payees.append(
            s.create(
                Recipient,
                kind="business",
                business_name=sup.company.name,
                person_name=sup.contact.name,
                email=sup.contact.email,
                account_number=sup.remit_account,
                routing_number=f"{int(sup.company.key[2:]) * 7919 % 10**9:09d}",
                default_method=("ach", "ach", "wire", "check")[sup.index % 4],
                address=sup.company.address,
                status="active" if sup.active else "archived",
                created_at=s.ago(days=200 - sup.index),
            )
        )
    for i, person in enumerate(pop.consumers[:6]):
        payees.append(
            s.create(
                Recipient,
                kind="individual",
                person_name=person.name,
                email=person.email,
                account_number=f"IND-{40_000 + i * 113}",
                routing_number=f"{(i + 3) * 104_729 % 10**9:09d}",
                address=person.address,
                created_at=s.ago(days=90 - i),
            )
        )
    return [p for p in payees if p.status == "active"]


@dataclass
class _Books:
    """The home accounts while they are seeded, with the balances their transactions add up to.

    Attributes:
        s: The seed context.
        accounts: The home accounts by key.
        balance: Posted balance per key: the opening amount plus every sent transaction.
        held: Pending debits per key, which the available balance leaves out.
    """

    s: SeedContext
    accounts: dict[str, Account]
    balance: dict[str, int]
    held: dict[str, int]

    def tx(self, key: str, direction: str, amount: int, kind: str, days_ago: float, **extra: Any) -> Transaction:
        """Record a transaction on account ``key`` and move its balances as the service would."""
        when = self.s.ago(days=days_ago)
        status = extra.pop("status", "sent")
        if status == "sent":
            self.balance[key] += amount if direction == "credit" else -amount
        elif status == "pending" and direction == "debit":
            self.held[key] += amount
        return self.s.create(
            Transaction,
            account_id=self.accounts[key].id,
            direction=direction,
            amount=amount,
            kind=kind,
            status=status,
            posted_at=when if status == "sent" else None,
            created_at=when,
            **extra,
        )

    def pay(self, payee: Recipient, amount: int, days_ago: float, status: str, by: TeamMember, n: int) -> Transaction:
        """Pay ``payee`` from the operating account by its default method; ``n`` numbers the payment."""
        return self.tx(
            "operating",
            "debit",
            amount,
            payee.default_method,
            days_ago,
            status=status,
            recipient_id=payee.id,
            counterparty_company=payee.business_name,
            counterparty_person=payee.person_name,
            counterparty_account=payee.account_number,
            invoice_number=f"INV-{20_000 + n * 37}" if payee.kind == "business" else None,
            requested_by=by.email,
            idempotency_key=f"seed-{n:04d}",
            external_memo="Thank you",
            estimated_delivery=self.s.ago(days=days_ago).date() + dt.timedelta(days=2),
        )

    def close(self) -> None:
        """Write the balances the seeded transactions add up to onto the accounts."""
        for key, a in self.accounts.items():
            self.s.update(a, current_balance=self.balance[key], available_balance=self.balance[key] - self.held[key])


def _seed_accounts(s: SeedContext) -> _Books:
    """The home accounts, empty until their transactions are seeded."""
    books = _Books(s, {}, {}, {})
    for home in links.HOME_ACCOUNTS:
        books.accounts[home.key] = s.create(
            Account,
            name=home.name,
            kind=home.kind,
            account_number=links.home_account_number(s.population, home.key),
            routing_number=links.routing_number(s.population),
            currency=s.population.home.place.currency,
            current_balance=0,
            available_balance=0,
        )
        books.balance[home.key] = home.opening
        books.held[home.key] = 0
    return books


def _seed_history(books: _Books, active: list[Recipient], admins: list[TeamMember]) -> None:
    """The last 40 days: customer deposits, supplier payments, card spend, payroll runs, a fee and interest."""
    pop = books.s.population
    rng = books.s.rng
    tx = books.tx
    for day in range(40, 0, -1):
        if day % 3 == 0:
            company = pop.customers[day % len(pop.customers)]
            tx(
                "operating",
                "credit",
                rng.randint(1_500, 18_000) * 100,
                "deposit",
                day,
                counterparty_company=company.name,
                invoice_number=f"INV-{1000 + day}",
                external_memo=f"Payment from {company.name}",
            )
        if day % 4 == 1:
            payee = active[day % len(active)]
            books.pay(payee, rng.randint(300, 9_500) * 100, day, "sent", admins[day % len(admins)], day)
        if day % 7 == 0:
            tx("operating", "debit", rng.randint(40, 900) * 100, "card", day, counterparty_company="Cloudware Inc")
        if day in (30, 15):
            amount = 88_000_00
            out = tx(
                "operating",
                "debit",
                amount,
                "internal_transfer",
                day,
                note="Payroll funding",
                counterparty_account=books.accounts["payroll"].account_number,
            )
            into = tx(
                "payroll",
                "credit",
                amount,
                "internal_transfer",
                day,
                note="Payroll funding",
                counterparty_account=books.accounts["operating"].account_number,
                related_transaction_id=out.id,
            )
            books.s.update(out, related_transaction_id=into.id)
            for k, person in enumerate(pop.employees[:3]):
                tx(
                    "payroll",
                    "debit",
                    28_000_00 + k * 500_00,
                    "ach",
                    day - 0.5,
                    counterparty_person=person.name,
                    note="Salary",
                )
    tx("operating", "debit", 25_00, "fee", 28, note="Monthly account fee")
    tx("reserve", "credit", 310_40, "interest", 1, note="Interest")


def _seed_in_flight(books: _Books, active: list[Recipient], admins: list[TeamMember], payer: TeamMember) -> None:
    """Payments in flight: held, waiting for approval, a rejected, a cancelled and a failed one, a check deposit."""
    s = books.s
    rng = s.rng
    n = 100
    for k, payee in enumerate(active[:4]):
        n += 1
        books.pay(payee, rng.randint(800, 6_000) * 100, 0.5 + k, "pending", admins[k % len(admins)], n)
    for k, payee in enumerate(active[4:8]):
        n += 1
        big = k % 2 == 0
        by = admins[k % len(admins)] if big else payer
        amount = rng.randint(12_000, 40_000) * 100 if big else rng.randint(500, 4_000) * 100
        t = books.pay(payee, amount, 0.2 + k, "pending_approval", by, n)
        s.create(
            ApprovalRequest,
            transaction_id=t.id,
            account_id=t.account_id,
            amount=amount,
            requested_by=by.email,
            created_at=s.ago(days=0.2 + k),
        )
    n += 1
    t = books.pay(active[8 % len(active)], 54_000_00, 6, "rejected", payer, n)
    s.create(
        ApprovalRequest,
        transaction_id=t.id,
        account_id=t.account_id,
        amount=t.amount,
        requested_by=payer.email,
        status="rejected",
        decided_by=admins[0].email,
        reason="Duplicate of last week's payment",
        created_at=s.ago(days=6),
    )
    n += 1
    books.pay(active[9 % len(active)], 2_100_00, 9, "cancelled", admins[0], n)
    n += 1
    books.pay(active[10 % len(active)], 3_300_00, 12, "failed", admins[1 % len(admins)], n)
    books.tx(
        "operating",
        "credit",
        4_750_00,
        "check_deposit",
        0.3,
        status="pending",
        counterparty_company=s.population.customers[0].name,
        check_image="https://files.example.com/checks/seed-1.jpg",
    )


@service.seeder
def seed(s: SeedContext) -> None:
    """The home company's accounts, its finance team, supplier and contractor payees and 40 days of activity."""
    admins, payer = _seed_team(s)
    active = _seed_recipients(s)
    books = _seed_accounts(s)
    _seed_history(books, active, admins)
    _seed_in_flight(books, active, admins, payer)
    books.close()
    # A dormant account, frozen after suspicious activity.
    s.create(
        Account,
        name="Legacy Checking",
        kind="checking",
        account_number=links.home_account_number(s.population, "legacy"),
        routing_number=links.routing_number(s.population),
        currency=s.population.home.place.currency,
        current_balance=1_204_17,
        available_balance=1_204_17,
        status="frozen",
    )
