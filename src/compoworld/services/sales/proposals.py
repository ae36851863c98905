"""Pitchbook Proposals: proposal templates, documents with pricing tables and recipients, approvals, e-signing.

Modeled on the PandaDoc API v1 (``/templates``, ``/documents``, ``/documents/{id}/send``, recipients,
``/contacts``, approval workflows, reminders): a document made from a template gets recipients in a
signing order and a pricing table, and moves draft → sent → viewed → completed (or declined, expired,
voided). A line discounted above 15 % or a total of $50,000 or more needs approval before sending:
waiting_approval → approved or rejected, by an employee other than the owner; editing an approved or
rejected document sends it back to draft. Signers sign in order and the last signature completes it;
a signer may decline. Reminders go only to pending signers, one a day each and three per document;
documents past their expiration date are swept to expired.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Percent,
    Quantity,
    Sku,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "proposals",
    title="Pitchbook Proposals",
    category="sales_proposals",
    modeled_on="PandaDoc API v1: templates, documents (create from template, send, status, recipients, "
    "pricing tables), contacts, approval workflow and reminders",
    description="Sales proposals: reusable templates, proposal documents with pricing tables and recipients in "
    "a signing order, internal approvals before sending, sending, views, e-signatures, declines, reminders and "
    "expiry.",
)

TemplateId = Annotated[str, IdOf("proposals.template")]
ContactId = Annotated[str, IdOf("proposals.contact")]
DocumentId = Annotated[str, IdOf("proposals.document")]
ApprovalId = Annotated[str, IdOf("proposals.approval")]
ReminderId = Annotated[str, IdOf("proposals.reminder")]

DocStatus = Literal[
    "draft", "waiting_approval", "approved", "rejected", "sent", "viewed", "completed", "declined", "expired", "voided"
]
RecipientRole = Literal["signer", "approver", "cc"]
RoleName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z ]{0,39}$")]
"""A template role such as Client or Sender."""

DISCOUNT_LIMIT = 15.0
"""A line discounted above this percent needs approval."""
TOTAL_LIMIT = 5_000_000
"""A document totalling this many cents or more needs approval."""
MAX_REMINDERS = 3
EDITABLE: tuple[DocStatus, ...] = ("draft", "approved", "rejected")
OPEN: tuple[DocStatus, ...] = ("sent", "viewed")


class Template(Record):
    """A reusable proposal template with the roles its recipients fill."""

    id: TemplateId
    name: Title
    """The template's name."""
    roles: tuple[RoleName, ...] = ("Client",)
    """The recipient roles the template defines (e.g. Client, Legal)."""
    default_expiry_days: Annotated[int, Field(ge=1, le=365)] = 30
    """Days a document made from it stays valid after sending."""
    owner_email: Email
    """The employee who maintains it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Contact(Record):
    """A person proposals are sent to."""

    id: ContactId
    email: Email
    """E-mail address (unique)."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    company: CompanyName | None = None
    """Their company."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Recipient(Value):
    """A recipient of a document."""

    email: Email
    """The recipient's e-mail."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    role: RoleName
    """The template role they fill."""
    kind: RecipientRole = "signer"
    """signer (must sign), approver or cc (copy only)."""
    signing_order: Annotated[int, Field(ge=1, le=20)] = 1
    """Order in which signers sign (1 first)."""
    viewed_at: DateTime | None = None
    """When they first opened the document."""
    completed_at: DateTime | None = None
    """When they signed."""


class PricingItem(Value):
    """A line of the document's pricing table."""

    name: Title
    """The product or service."""
    sku: Sku | None = None
    """Its SKU."""
    qty: Quantity
    """Units."""
    price: Cents
    """Unit price in cents."""
    discount: Percent = 0.0
    """Discount in percent."""
    subtotal: Cents
    """qty × price less the discount, in cents."""


class Document(Record):
    """A proposal document made from a template."""

    id: DocumentId
    name: Title
    """The document's name."""
    template_id: TemplateId
    """The template it was made from."""
    owner_email: Email
    """The sales rep (employee) who owns it."""
    company_name: CompanyName
    """The customer company it is for."""
    status: DocStatus = "draft"
    """draft, waiting_approval, approved, rejected, sent, viewed, completed, declined, expired or voided."""
    currency: Currency = "USD"
    """Currency of the pricing table."""
    recipients: tuple[Recipient, ...] = ()
    """Recipients in signing order."""
    items: tuple[PricingItem, ...] = ()
    """The pricing table."""
    grand_total: Cents = 0
    """Sum of the line subtotals in cents."""
    expiration_date: Date | None = None
    """The last day it can be signed (set when sent)."""
    sent_at: DateTime | None = None
    """When it was sent."""
    completed_at: DateTime | None = None
    """When the last signer signed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Approval(Record):
    """A request that an employee approve a document before it is sent."""

    id: ApprovalId
    document_id: DocumentId
    """The document."""
    approver_email: Email
    """The employee asked to approve."""
    requested_by: Email
    """The document's owner who asked."""
    status: Literal["pending", "approved", "rejected", "cancelled"] = "pending"
    """pending, approved, rejected or cancelled (the document was edited)."""
    comment: Text = ""
    """The approver's comment."""
    decided_at: DateTime | None = None
    """When it was decided."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


class Reminder(Record):
    """A reminder e-mail to a recipient who has not signed yet."""

    id: ReminderId
    document_id: DocumentId
    """The document."""
    recipient_email: Email
    """Who was reminded."""
    message: Text = ""
    """The note sent with it."""
    sent_at: Annotated[DateTime, CREATED]
    """When it was sent."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the workspace", field=field, hint="use an employee's e-mail")


def _doc(ctx: Ctx, document_id: str, allowed: tuple[DocStatus, ...], verb: str) -> Document:
    doc = ctx.get(Document, document_id, field="document_id")
    if doc.status not in allowed:
        raise RuleViolation(
            f"document {doc.id} is {doc.status}; only a document that is {' or '.join(allowed)} can be {verb}",
            field="document_id",
            hint="check its status with proposals__get_document",
        )
    return doc


def needs_approval(doc: Document) -> bool:
    """Whether a document's pricing needs an approval before it is sent."""
    return doc.grand_total >= TOTAL_LIMIT or any(i.discount > DISCOUNT_LIMIT for i in doc.items)


def _edited(ctx: Ctx, doc: Document, **changes: Any) -> Document:
    """Apply an edit; an approved or rejected document goes back to draft and its approval is cancelled."""
    if doc.status in ("approved", "rejected"):
        for a in ctx.where(Approval, document_id=doc.id, status="approved"):
            ctx.update(a, status="cancelled")
        changes["status"] = "draft"
    return ctx.update(doc, **changes)


def _guard_template(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    if len(set(new.roles)) != len(new.roles) or not new.roles:
        raise RuleViolation("a template needs distinct roles", field="roles", hint="list each role once")


def _guard_template_delete(ctx: Ctx, new: Any, old: Any) -> None:
    live = [d for d in ctx.where(Document, template_id=old.id) if d.status not in ("completed", "voided")]
    if live:
        raise Conflict(
            f"template {old.id} is used by {len(live)} open documents",
            field="template_id",
            hint="void or complete those documents first",
        )


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    if (old is None or new.email != old.email) and any(c.id != new.id for c in ctx.where(Contact, email=new.email)):
        raise Conflict(f"a contact with {new.email} exists", field="email", hint="update that contact instead")


def _guard_document(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status not in EDITABLE:
        raise RuleViolation(
            f"document {old.id} is {old.status} and can no longer be edited",
            field="document_id",
            hint="void it and create a new document",
        )
    if new.expiration_date is not None and new.expiration_date <= ctx.today():
        raise RuleViolation("expiration_date must be after today", field="expiration_date", hint="pick a later day")
    if old.status != "draft":
        _edited(ctx, new)


def _guard_document_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(
            f"only a draft can be deleted; document {old.id} is {old.status}",
            field="document_id",
            hint="void a sent document with proposals__void_document",
        )
    for a in ctx.where(Approval, document_id=old.id):
        ctx.delete(a)


templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="tpl",
    create=("name", "roles", "default_expiry_days", "owner_email"),
    filters=("owner_email",),
    search=("name",),
    update=("name", "roles", "default_expiry_days", "owner_email"),
    guard_create=_guard_template,
    guard_update=_guard_template,
    guard_delete=_guard_template_delete,
)
contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="con",
    create=("email", "first_name", "last_name", "company"),
    filters=("email", "company"),
    search=("first_name", "last_name", "company"),
    update=("email", "first_name", "last_name", "company"),
    guard_create=_guard_contact,
    guard_update=_guard_contact,
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=False,
    filters=("status", "owner_email", "template_id", "company_name", "currency"),
    search=("name", "company_name"),
    update=("name", "expiration_date"),
    guard_update=_guard_document,
    guard_delete=_guard_document_delete,
)
approvals = service.resource(
    Approval,
    name="approval",
    plural="approvals",
    prefix="apr",
    create=False,
    filters=("document_id", "approver_email", "status"),
    delete=False,
)
reminders = service.resource(
    Reminder,
    name="reminder",
    plural="reminders",
    prefix="rem",
    create=False,
    get=False,
    filters=("document_id", "recipient_email"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    tpl = ctx.first(Template)
    sales = ctx.population.staff("Sales", fallback=1)
    return (
        None
        if tpl is None
        else {
            "template_id": tpl.id,
            "name": "Annual platform renewal",
            "owner_email": sales[0].email,
            "company_name": ctx.population.customers[0].name,
        }
    )


@service.tool(intent="create the proposal from the template", write=True, example=_example_create)
def create_document(
    ctx: Ctx,
    template_id: TemplateId,
    name: Title,
    owner_email: Email,
    company_name: CompanyName,
    currency: Currency = "USD",
) -> Document:
    """Create a draft document from a template; add recipients and pricing items next.

    Args:
        template_id: The template.
        name: The document's name.
        owner_email: The sales rep (employee) who owns it.
        company_name: The customer company it is for.
        currency: Currency of the pricing table.
    """
    ctx.get(Template, template_id, field="template_id")
    _staff(ctx, owner_email, "owner_email")
    return ctx.create(
        Document,
        name=name,
        template_id=template_id,
        owner_email=owner_email,
        company_name=company_name,
        currency=currency,
    )


def _example_recipient(ctx: Ctx) -> dict[str, Any] | None:
    for doc in ctx.where(Document, status="draft"):
        tpl = ctx.get(Template, doc.template_id)
        taken = {r.email for r in doc.recipients}
        for c in ctx.scan(Contact):
            if c.email not in taken:
                return {"document_id": doc.id, "contact_id": c.id, "role": tpl.roles[0], "signing_order": 2}
    return None


@service.tool(intent="add the recipient to the proposal", write=True, example=_example_recipient)
def add_recipient(
    ctx: Ctx,
    document_id: DocumentId,
    contact_id: ContactId,
    role: RoleName,
    kind: RecipientRole = "signer",
    signing_order: Annotated[int, Field(ge=1, le=20)] = 1,
) -> Document:
    """Add a contact as a recipient of an editable document, in a template role and signing order.

    Args:
        document_id: The document (draft, approved or rejected; an approved one goes back to draft).
        contact_id: The contact.
        role: One of the template's roles.
        kind: signer, approver or cc.
        signing_order: When they sign (1 first).
    """
    doc = _doc(ctx, document_id, EDITABLE, "edited")
    contact = ctx.get(Contact, contact_id, field="contact_id")
    tpl = ctx.get(Template, doc.template_id)
    if role not in tpl.roles:
        raise RuleViolation(
            f"template {tpl.name!r} has no role {role!r}", field="role", hint=f"use one of {', '.join(tpl.roles)}"
        )
    if any(r.email == contact.email for r in doc.recipients):
        raise Conflict(f"{contact.email} is already a recipient", field="contact_id", hint="add another contact")
    new = Recipient(
        email=contact.email,
        first_name=contact.first_name,
        last_name=contact.last_name,
        role=role,
        kind=kind,
        signing_order=signing_order,
    )
    ordered = tuple(sorted((*doc.recipients, new), key=lambda r: r.signing_order))
    return _edited(ctx, doc, recipients=ordered)


def _example_item(ctx: Ctx) -> dict[str, Any] | None:
    doc = ctx.first(Document, status="draft")
    p = ctx.population.products[0]
    return (
        None if doc is None else {"document_id": doc.id, "name": p.name, "sku": p.sku, "qty": 2, "price": p.price_cents}
    )


@service.tool(intent="add the line to the proposal's pricing table", write=True, example=_example_item)
def add_pricing_item(
    ctx: Ctx,
    document_id: DocumentId,
    name: Title,
    qty: Annotated[int, Field(ge=1, le=100000)],
    price: Cents,
    sku: Sku | None = None,
    discount: Annotated[float, Field(ge=0, le=100)] = 0.0,
) -> Document:
    """Add a line to an editable document's pricing table; the total is recomputed.

    Args:
        document_id: The document.
        name: The product or service.
        qty: Units.
        price: Unit price in cents.
        sku: Its SKU.
        discount: Discount in percent (above 15 % the document needs approval).
    """
    doc = _doc(ctx, document_id, EDITABLE, "edited")
    if sku is not None and any(i.sku == sku for i in doc.items):
        raise Conflict(f"{sku} is already priced", field="sku", hint="remove the line first to change it")
    subtotal = round(qty * price * (100 - discount) / 100)
    item = PricingItem(name=name, sku=sku, qty=qty, price=price, discount=discount, subtotal=subtotal)
    items = (*doc.items, item)
    return _edited(ctx, doc, items=items, grand_total=sum(i.subtotal for i in items))


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    for doc in ctx.where(Document, status="draft"):
        if doc.items and doc.recipients:
            other = next(p for p in ctx.population.employees if p.email != doc.owner_email)
            return {"document_id": doc.id, "approver_email": other.email}
    return None


@service.tool(intent="ask for approval of the proposal", write=True, example=_example_request)
def request_approval(ctx: Ctx, document_id: DocumentId, approver_email: Email) -> Approval:
    """Submit a draft with recipients and pricing for approval by an employee other than its owner.

    Args:
        document_id: The draft.
        approver_email: The approving employee (a manager, not the owner).
    """
    doc = _doc(ctx, document_id, ("draft", "rejected"), "submitted for approval")
    if not doc.items or not doc.recipients:
        raise RuleViolation(
            "a document needs pricing items and recipients before approval",
            field="document_id",
            hint="add them with proposals__add_pricing_item and proposals__add_recipient",
        )
    _staff(ctx, approver_email, "approver_email")
    if approver_email == doc.owner_email:
        raise RuleViolation("nobody approves their own document", field="approver_email", hint="ask a sales manager")
    ctx.update(doc, status="waiting_approval")
    return ctx.create(Approval, document_id=doc.id, approver_email=approver_email, requested_by=doc.owner_email)


def _decide(
    ctx: Ctx, approval_id: str, approver_email: str, verdict: Literal["approved", "rejected"], comment: str
) -> Approval:
    a = ctx.get(Approval, approval_id, field="approval_id")
    if a.status != "pending":
        raise Conflict(f"approval {a.id} is already {a.status}", field="approval_id", hint="nothing to decide")
    if approver_email != a.approver_email:
        raise RuleViolation(
            f"only {a.approver_email} may decide this approval", field="approver_email", hint="ask the named approver"
        )
    doc = ctx.get(Document, a.document_id)
    ctx.update(doc, status=verdict)
    return ctx.update(a, status=verdict, comment=comment, decided_at=ctx.now())


@service.tool(
    intent="approve the proposal",
    write=True,
    example=first_example(
        Approval, "approval_id", where={"status": "pending"}, fields={"approver_email": "approver_email"}
    ),
)
def approve_document(ctx: Ctx, approval_id: ApprovalId, approver_email: Email, comment: Text = "") -> Approval:
    """Approve a pending approval: its document becomes approved and may be sent.

    Args:
        approval_id: The approval.
        approver_email: The approver deciding (must be the one asked).
        comment: A note.
    """
    return _decide(ctx, approval_id, approver_email, "approved", comment)


@service.tool(
    intent="reject the proposal",
    write=True,
    example=first_example(
        Approval,
        "approval_id",
        where={"status": "pending"},
        fields={"approver_email": "approver_email"},
        comment="Keep the discount under 15 %.",
    ),
)
def reject_document(ctx: Ctx, approval_id: ApprovalId, approver_email: Email, comment: Text = "") -> Approval:
    """Reject a pending approval: its document becomes rejected and must be edited and resubmitted.

    Args:
        approval_id: The approval.
        approver_email: The approver deciding (must be the one asked).
        comment: Why.
    """
    if not comment.strip():
        raise RuleViolation("a rejection needs a comment", field="comment", hint="say what to change")
    return _decide(ctx, approval_id, approver_email, "rejected", comment)


@service.tool(
    intent="send the proposal",
    write=True,
    example=first_example(Document, "document_id", where={"status": "approved"}),
)
def send_document(ctx: Ctx, document_id: DocumentId) -> Document:
    """Send a draft (or approved) document to its recipients; it expires after the template's validity.

    Args:
        document_id: The document.
    """
    doc = _doc(ctx, document_id, ("draft", "approved"), "sent")
    if not doc.items:
        raise RuleViolation("the pricing table is empty", field="document_id", hint="add pricing items first")
    if not any(r.kind == "signer" for r in doc.recipients):
        raise RuleViolation("the document has no signer", field="document_id", hint="add a signer recipient")
    if doc.status == "draft" and needs_approval(doc):
        raise RuleViolation(
            f"a discount above {DISCOUNT_LIMIT:g} % or a total of {TOTAL_LIMIT // 100:,} or more needs approval",
            field="document_id",
            hint="request approval with proposals__request_approval",
        )
    tpl = ctx.get(Template, doc.template_id)
    expiry = doc.expiration_date or ctx.today() + dt.timedelta(days=tpl.default_expiry_days)
    return ctx.update(doc, status="sent", sent_at=ctx.now(), expiration_date=expiry)


def _recipient(doc: Document, email: str) -> Recipient:
    for r in doc.recipients:
        if r.email == email:
            return r
    raise RuleViolation(
        f"{email} is not a recipient of {doc.id}", field="recipient_email", hint="use a recipient's e-mail"
    )


def _replace(doc: Document, new: Recipient) -> tuple[Recipient, ...]:
    return tuple(new if r.email == new.email else r for r in doc.recipients)


def _live(ctx: Ctx, document_id: str, verb: str) -> Document:
    doc = _doc(ctx, document_id, OPEN, verb)
    if doc.expiration_date is not None and doc.expiration_date < ctx.today():
        raise RuleViolation(
            f"document {doc.id} expired on {doc.expiration_date}", field="document_id", hint="create and send a new one"
        )
    return doc


_open_doc = first_example(Document, "document_id", where={"status": "sent"}, match=lambda c, d: bool(d.recipients))


def _example_view(ctx: Ctx) -> dict[str, Any] | None:
    out = _open_doc(ctx)
    if out is None:
        return None
    doc = ctx.get(Document, out["document_id"])
    return out | {"recipient_email": doc.recipients[0].email}


@service.tool(intent="record that the recipient opened the proposal", write=True, example=_example_view)
def record_view(ctx: Ctx, document_id: DocumentId, recipient_email: Email) -> Document:
    """Record a recipient opening a sent document (the document.viewed webhook).

    Args:
        document_id: The document.
        recipient_email: Who opened it.
    """
    doc = _live(ctx, document_id, "viewed")
    r = _recipient(doc, recipient_email)
    if r.viewed_at is None:
        doc = ctx.update(doc, recipients=_replace(doc, r.model_copy(update={"viewed_at": ctx.now()})))
    return ctx.update(doc, status="viewed") if doc.status == "sent" else doc


def _next_signer(doc: Document) -> Recipient | None:
    waiting = [r for r in doc.recipients if r.kind == "signer" and r.completed_at is None]
    return min(waiting, key=lambda r: r.signing_order) if waiting else None


def _example_sign(ctx: Ctx) -> dict[str, Any] | None:
    for status in OPEN:
        for doc in ctx.where(Document, status=status):
            nxt = _next_signer(doc)
            if nxt is not None and (doc.expiration_date is None or doc.expiration_date >= ctx.today()):
                return {"document_id": doc.id, "recipient_email": nxt.email}
    return None


@service.tool(intent="sign the proposal", write=True, example=_example_sign)
def sign_document(ctx: Ctx, document_id: DocumentId, recipient_email: Email) -> Document:
    """A signer signs a sent or viewed document in their turn; the last signature completes it.

    Args:
        document_id: The document.
        recipient_email: The signer.
    """
    doc = _live(ctx, document_id, "signed")
    r = _recipient(doc, recipient_email)
    if r.kind != "signer":
        raise RuleViolation(f"{r.email} is a {r.kind}, not a signer", field="recipient_email", hint="pick a signer")
    if r.completed_at is not None:
        raise Conflict(f"{r.email} already signed", field="recipient_email", hint="nothing to do")
    nxt = _next_signer(doc)
    if nxt is not None and r.signing_order > nxt.signing_order:
        raise RuleViolation(
            f"{nxt.email} (order {nxt.signing_order}) signs before {r.email}",
            field="recipient_email",
            hint="wait for the earlier signers",
        )
    now = ctx.now()
    done = r.model_copy(update={"completed_at": now, "viewed_at": r.viewed_at or now})
    doc = ctx.update(doc, recipients=_replace(doc, done), status="viewed")
    if _next_signer(doc) is None:
        doc = ctx.update(doc, status="completed", completed_at=now)
    return doc


@service.tool(intent="decline the proposal", write=True, destructive=True, example=_example_sign)
def decline_document(ctx: Ctx, document_id: DocumentId, recipient_email: Email) -> Document:
    """A signer declines a sent or viewed document: it ends as declined.

    Args:
        document_id: The document.
        recipient_email: The declining signer.
    """
    doc = _live(ctx, document_id, "declined")
    r = _recipient(doc, recipient_email)
    if r.kind != "signer" or r.completed_at is not None:
        raise RuleViolation(
            f"{r.email} cannot decline", field="recipient_email", hint="only a signer who has not signed"
        )
    return ctx.update(doc, status="declined")


@service.tool(
    intent="void the proposal",
    write=True,
    destructive=True,
    example=first_example(Document, "document_id", where={"status": "sent"}),
)
def void_document(ctx: Ctx, document_id: DocumentId) -> Document:
    """Void a document that was sent or is waiting for approval; nobody can sign it any more.

    Args:
        document_id: The document.
    """
    doc = _doc(ctx, document_id, ("waiting_approval", "approved", "rejected", "sent", "viewed"), "voided")
    for a in ctx.where(Approval, document_id=doc.id, status="pending"):
        ctx.update(a, status="cancelled")
    return ctx.update(doc, status="voided")


def _example_remind(ctx: Ctx) -> dict[str, Any] | None:
    for status in OPEN:
        for doc in ctx.where(Document, status=status):
            nxt = _next_signer(doc)
            if (
                nxt is not None
                and len(ctx.where(Reminder, document_id=doc.id)) < MAX_REMINDERS
                and not ctx.where(Reminder, document_id=doc.id, recipient_email=nxt.email)
            ):
                return {"document_id": doc.id, "recipient_email": nxt.email, "message": "A gentle reminder."}
    return None


@service.tool(intent="remind the recipient to sign the proposal", write=True, example=_example_remind)
def send_reminder(ctx: Ctx, document_id: DocumentId, recipient_email: Email, message: Text = "") -> Reminder:
    """Remind a signer who has not signed: at most one a day each and three per document.

    Args:
        document_id: The sent or viewed document.
        recipient_email: The signer.
        message: A note.
    """
    doc = _live(ctx, document_id, "reminded about")
    r = _recipient(doc, recipient_email)
    if r.kind != "signer" or r.completed_at is not None:
        raise RuleViolation(f"{r.email} has nothing to sign", field="recipient_email", hint="remind a pending signer")
    if len(ctx.where(Reminder, document_id=doc.id)) >= MAX_REMINDERS:
        raise RuleViolation(f"{MAX_REMINDERS} reminders were already sent", field="document_id", hint="call them")
    for prior in ctx.where(Reminder, document_id=doc.id, recipient_email=r.email):
        if prior.sent_at.date() == ctx.today():
            raise Conflict(f"{r.email} was reminded today", field="recipient_email", hint="try again tomorrow")
    return ctx.create(Reminder, document_id=doc.id, recipient_email=r.email, message=message)


@service.tool(intent="expire the overdue proposals", write=True, idempotent=True, example=lambda ctx: {})
def expire_documents(ctx: Ctx) -> list[Document]:
    """Move every sent or viewed document past its expiration date to expired; returns those moved."""
    out = []
    for status in OPEN:
        for doc in ctx.where(Document, status=status):
            if doc.expiration_date is not None and doc.expiration_date < ctx.today():
                out.append(ctx.update(doc, status="expired"))
    return out


# -- seed -------------------------------------------------------------------------------------

TEMPLATES: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("SaaS Subscription Proposal", ("Client", "Sender"), 30),
    ("Professional Services SOW", ("Client", "Legal"), 45),
    ("Renewal Order Form", ("Client",), 14),
    ("Pilot Agreement", ("Client", "Sender"), 21),
    ("Legacy Reseller Proposal", ("Client", "Partner"), 30),
)
PLAN: tuple[tuple[DocStatus, float], ...] = (
    ("draft", 0.0),
    ("sent", 5.0),
    ("viewed", 10.0),
    ("completed", 0.0),
    ("waiting_approval", 20.0),
    ("approved", 25.0),
    ("declined", 0.0),
    ("expired", 10.0),
    ("draft", 20.0),
    ("rejected", 30.0),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Templates, customers' contacts, and documents for customers in every status with approvals and reminders."""
    pop = s.population
    reps = pop.staff("Sales", fallback=3)
    managers = [p for p in reps if "Manager" in p.job_title] or pop.employees[-1:]
    tpls = [
        s.create(
            Template,
            name=n,
            roles=r,
            default_expiry_days=d,
            owner_email=reps[k % len(reps)].email,
            created_at=s.ago(days=300 - 30 * k),
        )
        for k, (n, r, d) in enumerate(TEMPLATES)
    ]
    by_email: dict[str, Contact] = {}
    for p in pop.contacts:
        company = pop.company_of(p)
        by_email[p.email] = s.create(
            Contact,
            email=p.email,
            first_name=p.first_name,
            last_name=p.last_name,
            company=None if company is None else company.name,
            created_at=s.ago(days=200),
        )
    for n, company in enumerate(pop.customers):
        people = [by_email[p.email] for p in pop.people_at(company) if p.email in by_email]
        if not people:
            continue
        status, discount = PLAN[n % len(PLAN)]
        tpl = tpls[n % 4]
        owner = reps[n % len(reps)]
        recips = tuple(
            Recipient(
                email=c.email, first_name=c.first_name, last_name=c.last_name, role=tpl.roles[0], signing_order=j + 1
            )
            for j, c in enumerate(people[:2])
        )
        items = []
        for j in range(1 + n % 3):
            prod = pop.products[(n * 3 + j) % len(pop.products)]
            qty = 5 + 10 * j
            items.append(
                PricingItem(
                    name=prod.name,
                    sku=prod.sku,
                    qty=qty,
                    price=prod.price_cents,
                    discount=discount,
                    subtotal=round(qty * prod.price_cents * (100 - discount) / 100),
                )
            )
        sent = status in ("sent", "viewed", "completed", "declined", "expired")
        sent_at = s.ago(days=3 + n % 20) if sent else None
        expiry = (s.now + dt.timedelta(days=max(3, tpl.default_expiry_days - 3 - n % 20))).date() if sent else None
        if status == "expired":  # every other one is overdue but not yet swept
            expiry, status = (s.now - dt.timedelta(days=2)).date(), "expired" if n % 20 == 7 else "sent"
        if status in ("viewed", "completed"):
            last = s.ago(days=1) if status == "completed" else None
            recips = tuple(r.model_copy(update={"viewed_at": sent_at, "completed_at": last}) for r in recips)
        doc = s.create(
            Document,
            name=f"{tpl.name} – {company.name}",
            template_id=tpl.id,
            owner_email=owner.email,
            company_name=company.name,
            status=status,
            currency=company.place.currency if company.place.currency in ("USD", "EUR", "GBP") else "USD",
            recipients=recips,
            items=tuple(items),
            grand_total=sum(i.subtotal for i in items),
            expiration_date=expiry,
            sent_at=sent_at,
            completed_at=s.ago(days=1) if status == "completed" else None,
            created_at=s.ago(days=10 + n % 20),
            updated_at=s.ago(days=1),
        )
        if status in ("waiting_approval", "approved", "rejected"):
            approver = next((m for m in managers if m.email != owner.email), pop.employees[0])
            s.create(
                Approval,
                document_id=doc.id,
                approver_email=approver.email,
                requested_by=owner.email,
                status="pending" if status == "waiting_approval" else status,
                comment="" if status != "rejected" else "Discount too deep; keep it under 20 %.",
                decided_at=None if status == "waiting_approval" else s.ago(days=2),
                created_at=s.ago(days=4),
            )
        if status == "viewed":
            s.create(
                Reminder,
                document_id=doc.id,
                recipient_email=recips[0].email,
                message="Following up on our proposal.",
                sent_at=s.ago(days=2),
            )
