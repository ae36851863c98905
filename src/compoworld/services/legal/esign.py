"""Inkwell Sign: envelopes of documents routed to recipients for signature.

Modeled on the DocuSign eSignature REST API v2.1 (Envelopes, EnvelopeDocuments,
EnvelopeRecipients, Templates, audit events): an envelope is drafted by an
employee, needs at least one signer and one document to be sent, recipients
sign in routing order, only the sender can correct recipients, remind or void,
voiding needs a reason and a completed envelope cannot be voided, and an
envelope past its expiry date cannot be signed.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, FileLink, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "esign",
    title="Inkwell Sign",
    category="legal_esignature",
    modeled_on="DocuSign eSignature REST API v2.1 (Envelopes, Documents, Recipients, Templates, Envelope audit events)",
    description="Electronic signature: employees send envelopes of documents to customers' contacts and to "
    "consumers, who sign them in routing order; templates, reminders, corrections, voiding and an audit trail.",
)

TemplateId = Annotated[str, IdOf("esign.template")]
EnvelopeId = Annotated[str, IdOf("esign.envelope")]
RecipientId = Annotated[str, IdOf("esign.recipient")]
EventId = Annotated[str, IdOf("esign.audit_event")]

EnvelopeStatus = Literal["created", "sent", "completed", "declined", "voided"]
RecipientStatus = Literal["created", "sent", "signed", "declined", "completed"]
Role = Literal["signer", "cc"]
Action = Literal["created", "sent", "signed", "declined", "completed", "voided", "corrected", "reminder_sent"]
RoutingOrder = Annotated[int, Field(ge=1, le=99)]
DEFAULT_EXPIRY_DAYS = 120
"""DocuSign's default: envelopes expire 120 days after they are sent."""


class Document(Value):
    """A document in an envelope or template."""

    document_id: int = Field(ge=1, description="Position of the document in the envelope, from 1.")
    name: Title = Field(description="Document name, e.g. 'Master Services Agreement.pdf'.")
    file_link: FileLink = Field(description="Link to the stored file.")
    pages: int = Field(default=1, ge=1, le=2000, description="Number of pages.")


class TemplateRole(Value):
    """A placeholder recipient of a template, filled in when an envelope is made from it."""

    role_name: str = Field(min_length=1, max_length=60, description="Role name such as 'Customer' or 'Signer 1'.")
    role: Role = Field(default="signer", description="signer or cc.")
    routing_order: RoutingOrder = Field(default=1, description="Signing order of the role, from 1.")


class RoleAssignment(Value):
    """Who fills a template role."""

    role_name: str = Field(min_length=1, max_length=60, description="The template role filled.")
    name: PersonName = Field(description="Recipient's full name.")
    email: Email = Field(description="Recipient's e-mail address.")


class Template(Created):
    """A reusable envelope: documents plus recipient roles."""

    id: TemplateId
    name: Title
    """Template name; unique."""
    description: Text = ""
    """What the template is for."""
    owner_email: Email
    """E-mail of the employee who owns the template."""
    email_subject: Title
    """Default subject of envelopes made from it."""
    documents: list[Document]
    """Its documents."""
    roles: list[TemplateRole]
    """Its recipient roles."""


class Envelope(Record):
    """An envelope: documents sent by an employee to recipients for signature."""

    id: EnvelopeId
    subject: Title
    """E-mail subject recipients see."""
    message: Text = ""
    """E-mail blurb recipients see."""
    sender_email: Email
    """E-mail of the sending employee; only the sender can correct, remind or void."""
    status: EnvelopeStatus = "created"
    """created (draft), sent, completed, declined or voided."""
    documents: list[Document] = Field(default_factory=list)
    """Documents to sign."""
    template_id: TemplateId | None = None
    """Template it was made from."""
    sent_at: DateTime | None = None
    """When it was sent."""
    expires_at: DateTime | None = None
    """After this time it cannot be signed (set when sent)."""
    completed_at: DateTime | None = None
    """When the last signer signed."""
    voided_reason: Text | None = None
    """Why it was voided."""
    created_at: Annotated[DateTime, CREATED]
    """When it was drafted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Recipient(Record):
    """A recipient of an envelope: a signer or a carbon copy, with a routing order."""

    id: RecipientId
    envelope_id: EnvelopeId
    """The envelope."""
    name: PersonName
    """Full name."""
    email: Email
    """E-mail address."""
    role: Role = "signer"
    """signer (must sign) or cc (gets a copy once completed)."""
    routing_order: RoutingOrder = 1
    """Signing order: lower orders sign first; equal orders sign in parallel."""
    status: RecipientStatus = "created"
    """created (not yet its turn), sent (its turn), signed, declined, or completed (cc copy delivered)."""
    signed_at: DateTime | None = None
    """When the recipient signed."""
    decline_reason: Text | None = None
    """Why the recipient declined."""


class AuditEvent(Record):
    """One entry of an envelope's audit trail (certificate of completion)."""

    id: EventId
    envelope_id: EnvelopeId
    """The envelope."""
    action: Action
    """What happened."""
    actor_email: Email
    """Who did it."""
    detail: Text = ""
    """Details."""
    at: Annotated[DateTime, CREATED]
    """When it happened."""


# -- guards ------------------------------------------------------------------------------


def _employee(ctx: Ctx, email: str, field: str) -> None:
    if all(p.email != email for p in ctx.population.employees):
        raise RuleViolation(
            f"{email} is not an employee of {ctx.population.home.name}",
            field=field,
            hint="envelopes and templates belong to employees; use a colleague's work e-mail",
        )


def _guard_envelope(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _employee(ctx, new.sender_email, "sender_email")
        ctx.create(AuditEvent, envelope_id=new.id, action="created", actor_email=new.sender_email)
    elif old.status != "created":
        raise RuleViolation(
            f"envelope {old.id} is {old.status}; only drafts can be edited",
            field="envelope_id",
            hint="to change a sent envelope's recipients use esign__correct_recipient",
        )


def _guard_envelope_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "created":
        raise RuleViolation(
            f"envelope {old.id} is {old.status}; only drafts can be deleted",
            field="envelope_id",
            hint="void an in-process envelope with esign__void_envelope instead",
        )
    for r in ctx.where(Recipient, envelope_id=old.id):
        ctx.delete(r)
    for e in ctx.where(AuditEvent, envelope_id=old.id):
        ctx.delete(e)


def _guard_recipient(ctx: Ctx, new: Any, old: Any) -> None:
    rec = new or old
    env = ctx.get(Envelope, rec.envelope_id, field="envelope_id")
    if env.status != "created":
        raise RuleViolation(
            f"envelope {env.id} is {env.status}; recipients are added or removed only on drafts",
            field="envelope_id",
            hint="use esign__correct_recipient to fix a recipient of a sent envelope",
        )
    if new is not None:
        for other in ctx.where(Recipient, envelope_id=env.id, email=new.email):
            if other.id != new.id:
                raise RuleViolation(
                    f"{new.email} is already a recipient of envelope {env.id}",
                    field="email",
                    hint="each person appears once per envelope",
                )


def _guard_template(ctx: Ctx, new: Any, old: Any) -> None:
    _employee(ctx, new.owner_email, "owner_email")
    if not new.documents:
        raise RuleViolation("a template needs a document", field="documents", hint="add at least one document")
    names = [r.role_name for r in new.roles]
    if not any(r.role == "signer" for r in new.roles):
        raise RuleViolation("a template needs a signer role", field="roles", hint="add a role with role=signer")
    if len(set(names)) != len(names):
        raise RuleViolation("role names must be unique", field="roles", hint="rename the duplicate role")


templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="tpl",
    create=False,
    filters=("owner_email",),
    search=("name", "description"),
    update=("name", "description", "email_subject", "documents", "roles"),
    unique=("name",),
    guard_create=_guard_template,
    guard_update=_guard_template,
)
envelopes = service.resource(
    Envelope,
    name="envelope",
    plural="envelopes",
    prefix="env",
    create=("subject", "message", "sender_email"),
    filters=("status", "sender_email", "template_id"),
    search=("subject",),
    update=("subject", "message"),
    guard_create=_guard_envelope,
    guard_update=_guard_envelope,
    guard_delete=_guard_envelope_delete,
)
recipients = service.resource(
    Recipient,
    name="recipient",
    plural="recipients",
    prefix="rcp",
    create=("envelope_id", "name", "email", "role", "routing_order"),
    filters=("envelope_id", "email", "status", "role"),
    search=("name", "email"),
    guard_create=_guard_recipient,
    guard_delete=_guard_recipient,
)
audit_events = service.resource(
    AuditEvent,
    name="audit_event",
    plural="audit_events",
    prefix="evt",
    create=False,
    filters=("envelope_id", "action", "actor_email"),
    delete=False,
)


# -- helpers -----------------------------------------------------------------------------


def _log(ctx: Ctx, env: Envelope, action: str, actor: str, detail: str = "") -> None:
    ctx.create(AuditEvent, envelope_id=env.id, action=action, actor_email=actor, detail=detail)


def _in_process(ctx: Ctx, envelope_id: str) -> Envelope:
    env = ctx.get(Envelope, envelope_id, field="envelope_id")
    if env.status != "sent":
        raise RuleViolation(
            f"envelope {env.id} is {env.status}, not in process",
            field="envelope_id",
            hint="only sent envelopes can be signed, declined, reminded or corrected",
        )
    return env


def _not_expired(ctx: Ctx, env: Envelope) -> None:
    if env.expires_at is not None and env.expires_at <= ctx.now():
        raise RuleViolation(
            f"envelope {env.id} expired on {env.expires_at.date().isoformat()}",
            field="envelope_id",
            hint="the sender must void it and send a new envelope",
        )


def _can_sign(ctx: Ctx, r: Recipient) -> bool:
    """Whether the recipient's envelope is out for signature with an expiry still ahead."""
    env = ctx.get(Envelope, r.envelope_id)
    return env.status == "sent" and env.expires_at is not None and env.expires_at > ctx.now()


def _only_sender(env: Envelope, acting_email: str) -> None:
    if acting_email != env.sender_email:
        raise RuleViolation(
            f"only the sender ({env.sender_email}) can do this",
            field="acting_email",
            hint=f"ask {env.sender_email} to do it",
        )


def _current_order(ctx: Ctx, env: Envelope) -> int | None:
    waiting = [r.routing_order for r in ctx.where(Recipient, envelope_id=env.id, role="signer") if r.status != "signed"]
    return min(waiting) if waiting else None


def _release(ctx: Ctx, env: Envelope, order: int) -> None:
    for r in ctx.where(Recipient, envelope_id=env.id, role="signer", routing_order=order):
        if r.status == "created":
            ctx.update(r, status="sent")


def _signer_on(ctx: Ctx, env: Envelope, email: str) -> Recipient:
    r = ctx.first(Recipient, envelope_id=env.id, email=email, role="signer")
    if r is None:
        raise NotFound(
            f"{email} is not a signer of envelope {env.id}",
            field="signer_email",
            hint=f"list the envelope's recipients with esign__list_recipients envelope_id={env.id}",
        )
    if r.status in ("signed", "declined"):
        raise RuleViolation(f"{email} already {r.status}", field="signer_email", hint="nothing left to do")
    if r.status != "sent":
        raise RuleViolation(
            f"it is not yet {email}'s turn: routing order {r.routing_order} waits for order {_current_order(ctx, env)}",
            field="signer_email",
            hint="recipients sign in routing order; the earlier signers must sign first",
        )
    return r


def _example_draft(ctx: Ctx) -> dict[str, Any] | None:
    env = ctx.first(Envelope, status="created")
    return {"envelope_id": env.id} if env else None


# -- domain tools ------------------------------------------------------------------------


def _example_create_template(ctx: Ctx) -> dict[str, Any]:
    return {
        "name": "Reseller Agreement",
        "owner_email": ctx.population.employees[0].email,
        "email_subject": "Please sign the reseller agreement",
        "documents": [
            {"name": "Reseller Agreement.pdf", "file_link": f"https://share.{ctx.population.home.domain}/s/ra"}
        ],
        "roles": [{"role_name": "Reseller", "role": "signer", "routing_order": 1}],
    }


class DocumentInput(Value):
    """A document to put on a template."""

    name: Title = Field(description="Document name.")
    file_link: FileLink = Field(description="Link to the stored file.")
    pages: int = Field(default=1, ge=1, le=2000, description="Number of pages.")


@service.tool(intent="create an envelope template", write=True, example=_example_create_template)
def create_template(
    ctx: Ctx,
    name: Title,
    owner_email: Email,
    email_subject: Title,
    documents: list[DocumentInput],
    roles: list[TemplateRole],
    description: Text = "",
) -> Template:
    """Create a reusable template of documents and recipient roles.

    Args:
        name: Template name; unique.
        owner_email: E-mail of the owning employee.
        email_subject: Default subject of envelopes made from it.
        documents: Its documents, at least one.
        roles: Its recipient roles, with unique names and at least one signer.
        description: What the template is for.
    """
    docs = [
        Document(document_id=i + 1, name=d.name, file_link=d.file_link, pages=d.pages) for i, d in enumerate(documents)
    ]
    tpl = ctx.create(
        Template,
        name=name,
        description=description,
        owner_email=owner_email,
        email_subject=email_subject,
        documents=docs,
        roles=roles,
    )
    _guard_template(ctx, tpl, None)
    return tpl


def _example_add_document(ctx: Ctx) -> dict[str, Any] | None:
    env = ctx.first(Envelope, status="created")
    home = ctx.population.home.domain
    return (
        {"envelope_id": env.id, "name": "Annex A.pdf", "file_link": f"https://share.{home}/s/annexa", "pages": 2}
        if env
        else None
    )


@service.tool(intent="attach the document to the envelope", write=True, example=_example_add_document)
def add_document(ctx: Ctx, envelope_id: EnvelopeId, name: Title, file_link: FileLink, pages: int = 1) -> Envelope:
    """Add a document to a draft envelope.

    Args:
        envelope_id: The draft envelope.
        name: Document name; unique within the envelope.
        file_link: Link to the stored file.
        pages: Number of pages, at least 1.
    """
    env = ctx.get(Envelope, envelope_id, field="envelope_id")
    if env.status != "created":
        raise RuleViolation(
            f"envelope {env.id} is {env.status}; documents can be added only to drafts",
            field="envelope_id",
            hint="create a new envelope for more documents",
        )
    if any(d.name == name for d in env.documents):
        raise RuleViolation(f"the envelope already has a document {name!r}", field="name", hint="use another name")
    if pages < 1:
        raise RuleViolation("pages must be at least 1", field="pages", hint="pass the page count")
    doc = Document(document_id=len(env.documents) + 1, name=name, file_link=file_link, pages=pages)
    return ctx.update(env, documents=[*env.documents, doc])


@service.tool(
    intent="send the envelope for signature",
    write=True,
    example=first_example(
        Envelope,
        "envelope_id",
        where={"status": "created"},
        match=lambda ctx, env: (
            bool(env.documents) and ctx.first(Recipient, envelope_id=env.id, role="signer") is not None
        ),
    ),
)
def send_envelope(ctx: Ctx, envelope_id: EnvelopeId, expire_after_days: int = DEFAULT_EXPIRY_DAYS) -> Envelope:
    """Send a draft envelope: the signers of the first routing order get it; it expires after the given days.

    Args:
        envelope_id: The draft envelope; it needs at least one document and one signer.
        expire_after_days: Days until the envelope expires (1 to 365).
    """
    env = ctx.get(Envelope, envelope_id, field="envelope_id")
    if env.status != "created":
        raise RuleViolation(
            f"envelope {env.id} is already {env.status}", field="envelope_id", hint="only drafts can be sent"
        )
    if not 1 <= expire_after_days <= 365:
        raise RuleViolation(
            "expire_after_days must be between 1 and 365", field="expire_after_days", hint="DocuSign allows 1-365"
        )
    if not env.documents:
        raise RuleViolation(
            f"envelope {env.id} has no document", field="envelope_id", hint="add one with esign__add_document"
        )
    order = _current_order(ctx, env)
    if order is None:
        raise RuleViolation(
            f"envelope {env.id} has no signer",
            field="envelope_id",
            hint="add a recipient with role=signer with esign__create_recipient",
        )
    _release(ctx, env, order)
    now = ctx.now()
    env = ctx.update(env, status="sent", sent_at=now, expires_at=now + dt.timedelta(days=expire_after_days))
    _log(ctx, env, "sent", env.sender_email)
    return env


@service.tool(
    intent="sign the envelope",
    write=True,
    example=first_example(
        Recipient,
        where={"status": "sent", "role": "signer"},
        match=_can_sign,
        fields={"envelope_id": "envelope_id", "signer_email": "email"},
    ),
)
def sign_envelope(ctx: Ctx, envelope_id: EnvelopeId, signer_email: Email) -> Envelope:
    """Sign an envelope as one of its signers, in routing order; the last signature completes it.

    Args:
        envelope_id: The sent envelope; it must not have expired.
        signer_email: E-mail of the signer whose turn it is.
    """
    env = _in_process(ctx, envelope_id)
    _not_expired(ctx, env)
    r = _signer_on(ctx, env, signer_email)
    ctx.update(r, status="signed", signed_at=ctx.now())
    _log(ctx, env, "signed", signer_email, f"{r.name} signed (routing order {r.routing_order})")
    order = _current_order(ctx, env)
    if order is not None:
        _release(ctx, env, order)
        return env
    for cc in ctx.where(Recipient, envelope_id=env.id, role="cc"):
        ctx.update(cc, status="completed")
    env = ctx.update(env, status="completed", completed_at=ctx.now())
    _log(ctx, env, "completed", signer_email)
    return env


@service.tool(
    intent="decline to sign the envelope",
    write=True,
    example=first_example(
        Recipient,
        where={"status": "sent", "role": "signer"},
        match=_can_sign,
        fields={"envelope_id": "envelope_id", "signer_email": "email"},
        reason="Terms need review",
    ),
)
def decline_envelope(ctx: Ctx, envelope_id: EnvelopeId, signer_email: Email, reason: Text) -> Envelope:
    """Decline to sign as the signer whose turn it is; the envelope ends as declined.

    Args:
        envelope_id: The sent envelope.
        signer_email: E-mail of the declining signer.
        reason: Why they decline; required.
    """
    env = _in_process(ctx, envelope_id)
    _not_expired(ctx, env)
    r = _signer_on(ctx, env, signer_email)
    if not reason.strip():
        raise RuleViolation("declining needs a reason", field="reason", hint="say why the envelope is declined")
    ctx.update(r, status="declined", decline_reason=reason.strip())
    env = ctx.update(env, status="declined")
    _log(ctx, env, "declined", signer_email, reason.strip())
    return env


@service.tool(
    intent="void the envelope",
    write=True,
    destructive=True,
    example=first_example(
        Envelope, "envelope_id", where={"status": "sent"}, fields={"acting_email": "sender_email"}, reason="Wrong terms"
    ),
)
def void_envelope(ctx: Ctx, envelope_id: EnvelopeId, acting_email: Email, reason: Text) -> Envelope:
    """Void an in-process envelope so nobody can sign it any more; only its sender can, with a reason.

    Completed envelopes cannot be voided; drafts are deleted instead.

    Args:
        envelope_id: The sent envelope.
        acting_email: E-mail of the employee voiding it; must be the sender.
        reason: Why it is voided; shown to the recipients.
    """
    env = ctx.get(Envelope, envelope_id, field="envelope_id")
    if env.status == "completed":
        raise RuleViolation(
            f"envelope {env.id} is completed and cannot be voided",
            field="envelope_id",
            hint="a completed agreement stands; send a new envelope to amend or terminate it",
        )
    if env.status != "sent":
        raise RuleViolation(
            f"envelope {env.id} is {env.status}",
            field="envelope_id",
            hint="only sent envelopes are voided; delete a draft with esign__delete_envelope",
        )
    _only_sender(env, acting_email)
    if not reason.strip():
        raise RuleViolation("voiding needs a reason", field="reason", hint="say why the envelope is voided")
    env = ctx.update(env, status="voided", voided_reason=reason.strip())
    _log(ctx, env, "voided", acting_email, reason.strip())
    return env


def _example_correct(ctx: Ctx) -> dict[str, Any] | None:
    for env in ctx.where(Envelope, status="sent"):
        for r in ctx.where(Recipient, envelope_id=env.id):
            if r.status not in ("signed", "declined"):
                return {"recipient_id": r.id, "acting_email": env.sender_email, "name": f"{r.name} Jr"}
    return None


@service.tool(intent="correct the recipient's name or e-mail", write=True, example=_example_correct)
def correct_recipient(
    ctx: Ctx, recipient_id: RecipientId, acting_email: Email, name: PersonName | None = None, email: Email | None = None
) -> Recipient:
    """Correct the name or e-mail of a recipient of a sent envelope who has not acted yet; sender only.

    Args:
        recipient_id: The recipient to correct.
        acting_email: E-mail of the employee correcting; must be the envelope's sender.
        name: New full name; omit to keep.
        email: New e-mail address; omit to keep.
    """
    r = ctx.get(Recipient, recipient_id, field="recipient_id")
    env = _in_process(ctx, r.envelope_id)
    _only_sender(env, acting_email)
    if r.status in ("signed", "declined"):
        raise RuleViolation(
            f"{r.email} already {r.status}; a recipient who acted cannot be corrected",
            field="recipient_id",
            hint="void the envelope and send a new one",
        )
    changes = {k: v for k, v in (("name", name), ("email", email)) if v is not None}
    if not changes:
        raise RuleViolation("nothing to correct", hint="pass a new name or email")
    if email is not None and email != r.email and ctx.first(Recipient, envelope_id=env.id, email=email):
        raise RuleViolation(f"{email} is already a recipient", field="email", hint="each person appears once")
    new = ctx.update(r, **changes)
    _log(ctx, env, "corrected", acting_email, f"recipient {r.id}: {r.name} <{r.email}> → {new.name} <{new.email}>")
    return new


@service.tool(
    intent="remind the signers",
    write=True,
    example=first_example(
        Envelope,
        "envelope_id",
        where={"status": "sent"},
        match=lambda ctx, e: e.expires_at is not None and e.expires_at > ctx.now(),
        fields={"acting_email": "sender_email"},
    ),
)
def send_reminder(ctx: Ctx, envelope_id: EnvelopeId, acting_email: Email) -> list[Recipient]:
    """Re-send the envelope to the signers whose turn it is; sender only, not after expiry.

    Args:
        envelope_id: The sent envelope.
        acting_email: E-mail of the employee reminding; must be the sender.
    """
    env = _in_process(ctx, envelope_id)
    _only_sender(env, acting_email)
    _not_expired(ctx, env)
    due = ctx.where(Recipient, envelope_id=env.id, status="sent", role="signer")
    _log(ctx, env, "reminder_sent", acting_email, ", ".join(r.email for r in due))
    return due


def _example_from_template(ctx: Ctx) -> dict[str, Any] | None:
    tpl = ctx.first(Template)
    if tpl is None:
        return None
    people = ctx.population.contacts
    return {
        "template_id": tpl.id,
        "sender_email": tpl.owner_email,
        "recipients": [
            {"role_name": role.role_name, "name": people[i].name, "email": people[i].email}
            for i, role in enumerate(tpl.roles)
        ],
    }


@service.tool(intent="prepare an envelope from the template", write=True, example=_example_from_template)
def create_envelope_from_template(
    ctx: Ctx,
    template_id: TemplateId,
    sender_email: Email,
    recipients: list[RoleAssignment],
    subject: Title | None = None,
) -> Envelope:
    """Draft an envelope from a template: its documents, and one recipient per template role.

    Args:
        template_id: The template.
        sender_email: E-mail of the sending employee.
        recipients: Who fills each template role; every role exactly once.
        subject: Subject; omit to use the template's.
    """
    tpl = ctx.get(Template, template_id, field="template_id")
    _employee(ctx, sender_email, "sender_email")
    by_role = {r.role_name: r for r in tpl.roles}
    given: dict[str, RoleAssignment] = {}
    for i, a in enumerate(recipients):
        if a.role_name not in by_role:
            raise RuleViolation(
                f"template {tpl.name!r} has no role {a.role_name!r}",
                field=f"recipients.{i}.role_name",
                hint="roles: " + ", ".join(by_role),
            )
        if a.role_name in given:
            raise RuleViolation(f"role {a.role_name!r} given twice", field=f"recipients.{i}.role_name", hint="once")
        given[a.role_name] = a
    missing = [n for n in by_role if n not in given]
    if missing:
        raise RuleViolation(
            f"roles without a recipient: {', '.join(missing)}", field="recipients", hint="fill every template role"
        )
    if len({a.email for a in recipients}) != len(recipients):
        raise RuleViolation("a person can fill only one role", field="recipients", hint="use distinct e-mails")
    env = ctx.create(
        Envelope,
        subject=subject or tpl.email_subject,
        sender_email=sender_email,
        documents=list(tpl.documents),
        template_id=tpl.id,
    )
    _log(ctx, env, "created", sender_email, f"from template {tpl.name}")
    for name, a in given.items():
        role = by_role[name]
        ctx.create(
            Recipient, envelope_id=env.id, name=a.name, email=a.email, role=role.role, routing_order=role.routing_order
        )
    return env


class AwaitingSignature(BaseModel):
    """An envelope waiting for a person's signature."""

    envelope: Envelope = Field(description="The envelope.")
    recipient_id: RecipientId = Field(description="The person's recipient entry.")
    expired: bool = Field(description="Whether it expired (then it can no longer be signed).")


@service.tool(
    intent="find what the person still has to sign",
    example=first_example(Recipient, where={"status": "sent", "role": "signer"}, fields={"email": "email"}),
)
def envelopes_awaiting(ctx: Ctx, email: Email) -> list[AwaitingSignature]:
    """List sent envelopes where it is this person's turn to sign.

    Args:
        email: The signer's e-mail address.
    """
    out: list[AwaitingSignature] = []
    for r in ctx.where(Recipient, email=email, status="sent", role="signer"):
        env = ctx.get(Envelope, r.envelope_id)
        if env.status == "sent":
            exp = env.expires_at is not None and env.expires_at <= ctx.now()
            out.append(AwaitingSignature(envelope=env, recipient_id=r.id, expired=exp))
    return out


# -- seeding -----------------------------------------------------------------------------

TEMPLATES: tuple[tuple[str, str, tuple[tuple[str, Role, int], ...]], ...] = (
    ("Mutual NDA", "Mutual non-disclosure agreement", (("Counterparty", "signer", 1), ("Company", "signer", 2))),
    (
        "Master Services Agreement",
        "MSA for new business customers",
        (("Customer", "signer", 1), ("Company", "signer", 2), ("Legal copy", "cc", 3)),
    ),
    ("Order Form", "Order form for renewals and expansions", (("Customer", "signer", 1),)),
    ("Consumer Service Agreement", "Terms for private customers", (("Customer", "signer", 1),)),
)


def _seed_templates(s: SeedContext, senders: list[Person]) -> list[Template]:
    """The templates, each owned by one of the senders, with one shared document."""
    home = s.population.home
    tpls: list[Template] = []
    for n, (name, desc, roles) in enumerate(TEMPLATES):
        slug = name.lower().replace(" ", "-")
        tpls.append(
            s.create(
                Template,
                name=name,
                description=desc,
                owner_email=senders[n % len(senders)].email,
                email_subject=f"Please sign: {name}",
                documents=[
                    Document(
                        document_id=1, name=f"{name}.pdf", file_link=f"https://share.{home.domain}/s/{slug}", pages=4
                    )
                ],
                roles=[TemplateRole(role_name=r, role=k, routing_order=o) for r, k, o in roles],
            )
        )
    return tpls


def _seed_recipients(s: SeedContext, n: int, env: Envelope, tpl: Template, status: str, person: Person) -> None:
    """The n-th envelope's recipients, one per template role, where its status says its routing has got to."""
    pop = s.population
    sent_at = env.sent_at
    countersigner = pop.employees[(n + 1) % len(pop.employees)]
    for role in tpl.roles:
        who_name, who_email = (
            (countersigner.name, countersigner.email)
            if role.role_name in ("Company", "Legal copy")
            else (person.name, person.email)
        )
        first = role.routing_order == 1
        r_status: RecipientStatus = "created"
        signed_at = None
        decline = None
        if status == "completed":
            r_status = "completed" if role.role == "cc" else "signed"
            signed_at = sent_at
        elif status in ("sent", "expired", "voided"):
            r_status = "sent" if first else "created"
            # Every other in-process envelope already has its first signature.
            if status == "sent" and n % 2 and first and len(tpl.roles) > 1:
                r_status, signed_at = "signed", sent_at
            if status == "sent" and n % 2 and role.routing_order == 2:
                r_status = "sent"
        elif status == "declined" and first:
            r_status, decline = "declined", "Pricing not approved"
        s.create(
            Recipient,
            envelope_id=env.id,
            name=who_name,
            email=who_email,
            role=role.role,
            routing_order=role.routing_order,
            status=r_status,
            signed_at=signed_at,
            decline_reason=decline,
        )
        if signed_at is not None and role.role == "signer":
            s.create(AuditEvent, envelope_id=env.id, action="signed", actor_email=who_email, at=signed_at)


def _seed_envelopes(s: SeedContext, senders: list[Person], tpls: list[Template]) -> None:
    """Envelopes to customer contacts and consumers in every status, with their recipients and audit trails."""
    pop = s.population
    statuses: tuple[str, ...] = ("created", "sent", "sent", "completed", "declined", "voided", "expired")
    customers = [(c, p) for c in pop.customers if (p := pop.first_contact(c)) is not None]
    for n in range(42):
        status = statuses[n % len(statuses)]
        sender = senders[n % len(senders)]
        consumer = n % 3 == 2
        tpl = tpls[3] if consumer else tpls[n % 3]
        if consumer:
            person = pop.consumers[n % len(pop.consumers)]
            what = f"{tpl.name} - {person.name}"
        else:
            company, person = customers[n % len(customers)]
            what = f"{tpl.name} - {company.name}"
        sent_at = s.ago(days=3 + n % 20) if status != "created" else None
        expires = None
        if sent_at is not None:
            expires = s.ago(days=1) if status == "expired" else sent_at + dt.timedelta(days=120)
        env = s.create(
            Envelope,
            subject=what,
            message=f"Hello {person.first_name}, please review and sign.",
            sender_email=sender.email,
            status="sent" if status == "expired" else status,
            documents=list(tpl.documents) if n % 14 or status != "created" else [],
            template_id=tpl.id,
            sent_at=sent_at,
            expires_at=expires,
            completed_at=sent_at + dt.timedelta(days=2) if status == "completed" and sent_at else None,
            voided_reason="Superseded by a revised version" if status == "voided" else None,
            created_at=sent_at or s.now,
            updated_at=sent_at or s.now,
        )
        s.create(AuditEvent, envelope_id=env.id, action="created", actor_email=sender.email, at=sent_at or s.now)
        if sent_at is not None:
            s.create(AuditEvent, envelope_id=env.id, action="sent", actor_email=sender.email, at=sent_at)
        _seed_recipients(s, n, env, tpl, status, person)
        if status in ("completed", "declined", "voided"):
            actor = sender.email if status == "voided" else person.email
            s.create(AuditEvent, envelope_id=env.id, action=status, actor_email=actor, at=s.now)


@service.seeder
def seed(s: SeedContext) -> None:
    """Templates owned by employees; envelopes to contacts and consumers in every status, with audit trails."""
    pop = s.population
    senders = pop.staff("Sales", "People", "Finance")
    _seed_envelopes(s, senders, _seed_templates(s, senders))
