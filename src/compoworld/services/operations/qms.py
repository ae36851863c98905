"""Keystone QMS: quality management of the company's production, documents and training.

Modeled on Qualio and ETQ Reliance (their REST APIs: documents with versions,
approvers and effective dates, training records, events such as
nonconformances, CAPAs, deviations and audits): a controlled document goes
draft → in_review → approved → effective, is reviewed by named approvers other
than its owner (every approver signs, any one may reject it back to draft with
a comment), becomes effective on a date and then trains its trainees on that
version; a revision opens the next version as a draft and the effective one is
superseded when the next takes effect. A nonconformance goes open →
investigation → dispositioned → closed; a major or critical one closes only
with a linked CAPA. A CAPA goes open → root_cause → implementation → verification
→ closed: it needs a root cause, at least one action, every action done, and
an effectiveness check by someone other than its owner. A planned deviation
from an effective document is approved by someone other than its requester;
an audit's major finding raises a nonconformance.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Date,
    DateTime,
    Email,
    IdOf,
    Quantity,
    SemanticType,
    Sku,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.operations._shared import Signature, require_staff

__all__ = ["service"]

service = Service(
    "qms",
    title="Keystone QMS",
    category="quality_management",
    modeled_on="Qualio / ETQ Reliance API (documents with versions, approvers and effective dates, training "
    "records, nonconformances, CAPAs, deviations, audits and findings)",
    description="Quality management: controlled documents (SOPs, work instructions, policies) with review, "
    "approval, effective dates and versions; training on them; nonconformances with their disposition; "
    "corrective and preventive actions; planned deviations; internal and supplier audits and their findings.",
)

DocumentId = Annotated[str, IdOf("qms.document")]
NcId = Annotated[str, IdOf("qms.nonconformance")]
CapaId = Annotated[str, IdOf("qms.capa")]
DeviationId = Annotated[str, IdOf("qms.deviation")]
AuditId = Annotated[str, IdOf("qms.audit")]
FindingId = Annotated[str, IdOf("qms.audit_finding")]
TrainingId = Annotated[str, IdOf("qms.training_record")]

DocNumber = Annotated[
    str, SemanticType("qms.doc_number", kind="ref"), StringConstraints(pattern=r"^[A-Z]{2,5}(-[0-9A-Z]{2,6}){1,3}$")
]
"""A controlled document's number, e.g. SOP-014."""
DocStatus = Literal["draft", "in_review", "approved", "effective", "superseded"]
DocType = Literal["sop", "work_instruction", "policy", "form", "specification"]
Severity = Literal["minor", "major", "critical"]
NcStatus = Literal["open", "investigation", "dispositioned", "closed"]
NcSource = Literal["incoming_inspection", "production", "customer_complaint", "audit", "supplier"]
Disposition = Literal["use_as_is", "rework", "scrap", "return_to_supplier"]
CapaStatus = Literal["open", "root_cause", "implementation", "verification", "closed"]
CAPA_STEPS: tuple[CapaStatus, ...] = ("open", "root_cause", "implementation", "verification", "closed")


class Document(Record):
    """A version of a controlled document."""

    id: DocumentId
    doc_number: DocNumber
    """The document's number, shared by its versions (e.g. SOP-014)."""
    title: Title
    """Its title."""
    doc_type: DocType = "sop"
    """sop, work_instruction, policy, form or specification."""
    version: Annotated[int, Field(ge=1, le=999)] = 1
    """The version number."""
    owner_email: Email
    """The employee who owns it."""
    approver_emails: tuple[Email, ...] = ()
    """Who must approve it (not the owner)."""
    trainee_emails: tuple[Email, ...] = ()
    """Who must be trained on it when it takes effect."""
    signatures: tuple[Signature, ...] = ()
    """Decisions of the current review."""
    content: Text = ""
    """The text."""
    status: DocStatus = "draft"
    """draft → in_review → approved → effective → superseded."""
    effective_on: Date | None = None
    """When it took effect."""
    review_due_on: Date | None = None
    """When its periodic review is due (two years after it takes effect)."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Nonconformance(Record):
    """A product or process that does not meet its requirement."""

    id: NcId
    number: Annotated[str, Generated("sequence", "NC-{n:04d}")]
    """Its number."""
    title: Title
    """What is wrong."""
    description: Text = ""
    """Details."""
    severity: Severity = "minor"
    """minor, major or critical."""
    source: NcSource = "production"
    """Where it was found."""
    sku: Sku | None = None
    """The product affected."""
    supplier_name: CompanyName | None = None
    """The supplier at fault, if any."""
    quantity_affected: Quantity = 0
    """Units affected."""
    owner_email: Email
    """The quality engineer handling it."""
    status: NcStatus = "open"
    """open → investigation → dispositioned → closed."""
    disposition: Disposition | None = None
    """use_as_is, rework, scrap or return_to_supplier."""
    capa_id: CapaId | None = None
    """The CAPA addressing it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was raised."""
    closed_at: DateTime | None = None
    """When it was closed."""


class CapaAction(Value):
    """A corrective or preventive action of a CAPA."""

    description: Title = Field(description="What is done.")
    assignee_email: Email = Field(description="Who does it.")
    due_on: Date = Field(description="When it is due.")
    done: bool = Field(default=False, description="Whether it is done.")


class Capa(Record):
    """A corrective and preventive action."""

    id: CapaId
    number: Annotated[str, Generated("sequence", "CAPA-{n:04d}")]
    """Its number."""
    title: Title
    """The problem addressed."""
    owner_email: Email
    """The employee who owns it."""
    due_on: Date
    """When it must be closed."""
    status: CapaStatus = "open"
    """open → root_cause → implementation → verification → closed."""
    root_cause: Text = ""
    """The root cause found."""
    actions: tuple[CapaAction, ...] = ()
    """Its actions."""
    verified_by: Email | None = None
    """Who checked its effectiveness (not the owner)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""


class Deviation(Record):
    """A planned, temporary departure from an effective document."""

    id: DeviationId
    document_id: DocumentId
    """The document deviated from."""
    title: Title
    """What is done differently."""
    justification: Text
    """Why it is acceptable."""
    requested_by: Email
    """Who asks for it."""
    approved_by: Email | None = None
    """Who approved it (not the requester)."""
    starts_on: Date
    """First day."""
    ends_on: Date
    """Last day."""
    status: Literal["requested", "approved"] = "requested"
    """requested → approved (it lapses after ends_on)."""


class Audit(Record):
    """An internal, supplier or external audit."""

    id: AuditId
    title: Title
    """What is audited."""
    audit_type: Literal["internal", "supplier", "external"] = "internal"
    """internal, supplier or external."""
    supplier_name: CompanyName | None = None
    """The supplier audited (supplier audits)."""
    lead_auditor_email: Email
    """The lead auditor."""
    scheduled_on: Date
    """When it takes place."""
    status: Literal["planned", "in_progress", "completed"] = "planned"
    """planned → in_progress → completed."""


class AuditFinding(Record):
    """An observation or nonconformity found in an audit."""

    id: FindingId
    audit_id: AuditId
    """The audit."""
    classification: Literal["observation", "minor", "major"]
    """observation, minor or major."""
    description: Text
    """What was found."""
    nonconformance_id: NcId | None = None
    """The nonconformance a major finding raised."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


class TrainingRecord(Record):
    """An employee's training on a document version."""

    id: TrainingId
    document_id: DocumentId
    """The document version."""
    employee_email: Email
    """The trainee."""
    status: Literal["assigned", "completed"] = "assigned"
    """assigned → completed."""
    due_on: Date
    """When it is due."""
    completed_at: DateTime | None = None
    """When it was completed."""


# -- rules ------------------------------------------------------------------------------------


def _guard_document(ctx: Ctx, new: Any, old: Any) -> None:
    fields = ("title", "content", "approver_emails")
    if old is not None and old.status != "draft" and any(getattr(old, f) != getattr(new, f) for f in fields):
        raise RuleViolation(
            f"{new.doc_number} v{new.version} is {old.status}; only drafts change",
            field="document_id",
            hint="open a new version with qms__revise_document",
        )
    require_staff(ctx, new.owner_email, "owner_email")
    require_staff(ctx, new.approver_emails, "approver_emails")
    require_staff(ctx, new.trainee_emails, "trainee_emails")
    if new.owner_email in new.approver_emails:
        raise RuleViolation("the owner cannot approve their own document", field="approver_emails", hint="name others")
    if old is None and ctx.first(Document, doc_number=new.doc_number) not in (None, new):
        raise Conflict(f"{new.doc_number} exists", field="doc_number", hint="revise it with qms__revise_document")


def _guard_owner(ctx: Ctx, new: Any, old: Any) -> None:
    require_staff(ctx, new.owner_email, "owner_email")


def _guard_audit(ctx: Ctx, new: Any, old: Any) -> None:
    require_staff(ctx, new.lead_auditor_email, "lead_auditor_email")
    if new.audit_type == "supplier" and not new.supplier_name:
        raise RuleViolation("a supplier audit names the supplier", field="supplier_name", hint="give its name")


documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=("doc_number", "title", "doc_type", "owner_email", "approver_emails", "trainee_emails", "content"),
    filters=("doc_number", "doc_type", "status", "owner_email"),
    search=("title", "doc_number"),
    update=("title", "content", "approver_emails", "trainee_emails"),
    delete=False,
    guard_create=_guard_document,
    guard_update=_guard_document,
)
nonconformances = service.resource(
    Nonconformance,
    name="nonconformance",
    plural="nonconformances",
    prefix="nc",
    create=("title", "description", "severity", "source", "sku", "supplier_name", "quantity_affected", "owner_email"),
    filters=("status", "severity", "source", "sku", "supplier_name", "owner_email", "capa_id"),
    search=("title", "number"),
    delete=False,
    transitions={"investigate": Transition("status", ("open",), "investigation", "start investigating")},
    guard_create=_guard_owner,
)
capas = service.resource(
    Capa,
    name="capa",
    plural="capas",
    prefix="capa",
    create=("title", "owner_email", "due_on"),
    filters=("status", "owner_email"),
    search=("title", "number"),
    delete=False,
    guard_create=_guard_owner,
    title="CAPA",
)
deviations = service.resource(
    Deviation,
    name="deviation",
    plural="deviations",
    prefix="dev",
    create=False,
    get=False,
    filters=("document_id", "status", "requested_by"),
    search=("title",),
    delete=False,
)
audits = service.resource(
    Audit,
    name="audit",
    plural="audits",
    prefix="aud",
    create=("title", "audit_type", "supplier_name", "lead_auditor_email", "scheduled_on"),
    get=False,
    filters=("status", "audit_type", "supplier_name", "lead_auditor_email"),
    search=("title",),
    delete=False,
    transitions={
        "start": Transition("status", ("planned",), "in_progress", "start the audit"),
        "complete": Transition("status", ("in_progress",), "completed", "complete the audit"),
    },
    guard_create=_guard_audit,
)
findings = service.resource(
    AuditFinding,
    name="audit_finding",
    plural="audit_findings",
    prefix="afd",
    create=False,
    get=False,
    filters=("audit_id", "classification"),
    delete=False,
    title="audit finding",
)
trainings = service.resource(
    TrainingRecord,
    name="training_record",
    plural="training_records",
    prefix="trn",
    create=False,
    get=False,
    filters=("document_id", "employee_email", "status"),
    delete=False,
    transitions={"complete": Transition("status", ("assigned",), "completed", "complete the training")},
    title="training record",
)


R = TypeVar("R", Document, Nonconformance, Capa, Deviation, Audit)


def _in(ctx: Ctx, model: type[R], rid: str, field: str, *statuses: str) -> R:
    rec = ctx.get(model, rid, field=field)
    if rec.status not in statuses:
        label = getattr(rec, "number", None) or getattr(rec, "doc_number", rec.id)
        raise RuleViolation(
            f"{label} is {rec.status}", field=field, hint=f"this needs one that is {' or '.join(statuses)}"
        )
    return rec


# -- documents --------------------------------------------------------------------------------


@service.tool(
    intent="send the document for review",
    write=True,
    example=first_example(
        Document, "document_id", where={"status": "draft"}, match=lambda c, d: bool(d.approver_emails)
    ),
)
def submit_document(ctx: Ctx, document_id: DocumentId) -> Document:
    """Send a draft for review by its approvers (draft → in_review); it needs at least one approver.

    Args:
        document_id: The draft.
    """
    doc = _in(ctx, Document, document_id, "document_id", "draft")
    if not doc.approver_emails:
        raise RuleViolation("the document has no approvers", field="document_id", hint="set approver_emails first")
    return ctx.update(doc, status="in_review", signatures=())


def _example_sign(ctx: Ctx) -> dict[str, Any] | None:
    for doc in ctx.where(Document, status="in_review"):
        signed = {s.approver_email for s in doc.signatures}
        for e in doc.approver_emails:
            if e not in signed:
                return {"document_id": doc.id, "approver_email": e}
    return None


def _signer(doc: Document, approver_email: str) -> None:
    if approver_email not in doc.approver_emails:
        raise RuleViolation(
            f"{approver_email} is not an approver of {doc.doc_number}",
            field="approver_email",
            hint="one of its approver_emails signs",
        )
    if any(s.approver_email == approver_email for s in doc.signatures):
        raise Conflict(f"{approver_email} already signed", field="approver_email", hint="each approver signs once")


@service.tool(intent="approve the document", write=True, example=_example_sign)
def approve_document(ctx: Ctx, document_id: DocumentId, approver_email: Email, comment: Text = "") -> Document:
    """Sign a document in review as approved; once every approver signed it is approved.

    Args:
        document_id: The document in review.
        approver_email: One of its approvers.
        comment: An optional comment.
    """
    doc = _in(ctx, Document, document_id, "document_id", "in_review")
    _signer(doc, approver_email)
    sig = Signature(approver_email=approver_email, decision="approved", comment=comment, signed_at=ctx.now())
    sigs = (*doc.signatures, sig)
    done = {s.approver_email for s in sigs} >= set(doc.approver_emails)
    return ctx.update(doc, signatures=sigs, status="approved" if done else "in_review")


@service.tool(
    intent="reject the document",
    write=True,
    example=lambda ctx: (e := _example_sign(ctx)) and e | {"comment": "Section 4 contradicts WI-102."},
)
def reject_document(ctx: Ctx, document_id: DocumentId, approver_email: Email, comment: Text) -> Document:
    """Reject a document in review with a comment: it goes back to draft.

    Args:
        document_id: The document in review.
        approver_email: One of its approvers.
        comment: What must change (required).
    """
    doc = _in(ctx, Document, document_id, "document_id", "in_review")
    _signer(doc, approver_email)
    if not comment.strip():
        raise RuleViolation("a rejection needs a comment", field="comment", hint="say what must change")
    sig = Signature(approver_email=approver_email, decision="rejected", comment=comment.strip(), signed_at=ctx.now())
    return ctx.update(doc, signatures=(*doc.signatures, sig), status="draft")


def _example_effective(ctx: Ctx) -> dict[str, Any] | None:
    doc = ctx.first(Document, status="approved")
    return None if doc is None else {"document_id": doc.id, "effective_on": ctx.today().isoformat()}


@service.tool(intent="make the document effective", write=True, example=_example_effective)
def make_effective(ctx: Ctx, document_id: DocumentId, effective_on: Date) -> Document:
    """Put an approved version into effect on a date (today or later, within 90 days).

    The previous effective version is superseded, and each trainee is assigned
    training on this version due 30 days after it takes effect.

    Args:
        document_id: The approved version.
        effective_on: When it takes effect.
    """
    doc = _in(ctx, Document, document_id, "document_id", "approved")
    today = ctx.today()
    if not today <= effective_on <= today + dt.timedelta(days=90):
        raise RuleViolation(
            "effective_on must be from today to 90 days ahead", field="effective_on", hint=f"pick {today} or later"
        )
    for old in ctx.where(Document, doc_number=doc.doc_number, status="effective"):
        ctx.update(old, status="superseded")
    for email in doc.trainee_emails:
        ctx.create(
            TrainingRecord, document_id=doc.id, employee_email=email, due_on=effective_on + dt.timedelta(days=30)
        )
    return ctx.update(
        doc, status="effective", effective_on=effective_on, review_due_on=effective_on + dt.timedelta(days=730)
    )


@service.tool(
    intent="open a new version of the document",
    write=True,
    example=first_example(Document, "document_id", where={"status": "effective"}),
)
def revise_document(ctx: Ctx, document_id: DocumentId) -> Document:
    """Open the next version of an effective document as a draft (one draft or review at a time).

    Args:
        document_id: The effective version.
    """
    doc = _in(ctx, Document, document_id, "document_id", "effective")
    for other in ctx.where(Document, doc_number=doc.doc_number):
        if other.status in ("draft", "in_review", "approved"):
            raise Conflict(
                f"{doc.doc_number} v{other.version} is already {other.status}",
                field="document_id",
                hint="finish that version first",
            )
    return ctx.create(
        Document,
        doc_number=doc.doc_number,
        title=doc.title,
        doc_type=doc.doc_type,
        version=doc.version + 1,
        owner_email=doc.owner_email,
        approver_emails=doc.approver_emails,
        trainee_emails=doc.trainee_emails,
        content=doc.content,
    )


# -- nonconformances and CAPAs ----------------------------------------------------------------


@service.tool(
    intent="record the disposition of the nonconformance",
    write=True,
    example=first_example(Nonconformance, "nonconformance_id", where={"status": "investigation"}, disposition="rework"),
)
def disposition_nonconformance(ctx: Ctx, nonconformance_id: NcId, disposition: Disposition) -> Nonconformance:
    """Decide what happens to the affected units (investigation → dispositioned).

    Returning to the supplier needs a supplier on the nonconformance.

    Args:
        nonconformance_id: The nonconformance under investigation.
        disposition: use_as_is, rework, scrap or return_to_supplier.
    """
    nc = _in(ctx, Nonconformance, nonconformance_id, "nonconformance_id", "investigation")
    if disposition == "return_to_supplier" and not nc.supplier_name:
        raise RuleViolation("no supplier to return to", field="disposition", hint="rework or scrap the units instead")
    return ctx.update(nc, status="dispositioned", disposition=disposition)


def _example_link(ctx: Ctx) -> dict[str, Any] | None:
    nc, capa = ctx.first(Nonconformance, capa_id=None), next((c for c in ctx.scan(Capa) if c.status != "closed"), None)
    return None if nc is None or capa is None else {"nonconformance_id": nc.id, "capa_id": capa.id}


@service.tool(intent="link the nonconformance to the CAPA", write=True, example=_example_link)
def link_capa(ctx: Ctx, nonconformance_id: NcId, capa_id: CapaId) -> Nonconformance:
    """Link a nonconformance to the open CAPA that addresses it.

    Args:
        nonconformance_id: The nonconformance.
        capa_id: A CAPA not yet closed.
    """
    nc = ctx.get(Nonconformance, nonconformance_id, field="nonconformance_id")
    _in(ctx, Capa, capa_id, "capa_id", *CAPA_STEPS[:-1])
    if nc.capa_id is not None:
        raise Conflict(f"{nc.number} is already linked to {nc.capa_id}", field="nonconformance_id", hint="keep it")
    return ctx.update(nc, capa_id=capa_id)


def _closable_nc(ctx: Ctx, nc: Nonconformance) -> bool:
    return nc.severity == "minor" or nc.capa_id is not None


@service.tool(
    intent="close the nonconformance",
    write=True,
    example=first_example(Nonconformance, "nonconformance_id", where={"status": "dispositioned"}, match=_closable_nc),
)
def close_nonconformance(ctx: Ctx, nonconformance_id: NcId) -> Nonconformance:
    """Close a dispositioned nonconformance; a major or critical one needs a linked CAPA.

    Args:
        nonconformance_id: The nonconformance.
    """
    nc = _in(ctx, Nonconformance, nonconformance_id, "nonconformance_id", "dispositioned")
    if not _closable_nc(ctx, nc):
        raise RuleViolation(
            f"{nc.number} is {nc.severity} and has no CAPA",
            field="nonconformance_id",
            hint="open a CAPA and link it with qms__link_capa",
        )
    return ctx.update(nc, status="closed", closed_at=ctx.now())


@service.tool(
    intent="record the CAPA's root cause",
    write=True,
    example=first_example(Capa, "capa_id", where={"status": "open"}, root_cause="Torque spec missing from WI-102."),
)
def record_root_cause(ctx: Ctx, capa_id: CapaId, root_cause: Text) -> Capa:
    """Record the root cause of an open CAPA (open → root_cause).

    Args:
        capa_id: The CAPA.
        root_cause: The cause found (required).
    """
    capa = _in(ctx, Capa, capa_id, "capa_id", "open", "root_cause")
    if not root_cause.strip():
        raise RuleViolation("the root cause is empty", field="root_cause", hint="describe the cause")
    return ctx.update(capa, root_cause=root_cause.strip(), status="root_cause")


def _example_action(ctx: Ctx) -> dict[str, Any] | None:
    capa = ctx.first(Capa, status="root_cause")
    return (
        None
        if capa is None
        else {
            "capa_id": capa.id,
            "description": "Add torque check to WI-102",
            "assignee_email": capa.owner_email,
            "due_on": (ctx.today() + dt.timedelta(days=14)).isoformat(),
        }
    )


@service.tool(intent="add an action to the CAPA", write=True, example=_example_action)
def add_capa_action(ctx: Ctx, capa_id: CapaId, description: Title, assignee_email: Email, due_on: Date) -> Capa:
    """Add an action to a CAPA with a root cause; it moves to implementation.

    Args:
        capa_id: The CAPA, with its root cause recorded.
        description: What is done.
        assignee_email: Who does it (an employee).
        due_on: When, after today and not after the CAPA's due date.
    """
    capa = _in(ctx, Capa, capa_id, "capa_id", "root_cause", "implementation")
    require_staff(ctx, assignee_email, "assignee_email")
    if not ctx.today() < due_on <= capa.due_on:
        raise RuleViolation(
            f"due_on must be after today and by {capa.due_on}", field="due_on", hint="pick a date in that range"
        )
    act = CapaAction(description=description, assignee_email=assignee_email, due_on=due_on)
    return ctx.update(capa, actions=(*capa.actions, act), status="implementation")


def _example_done(ctx: Ctx) -> dict[str, Any] | None:
    for capa in ctx.where(Capa, status="implementation"):
        for k, a in enumerate(capa.actions):
            if not a.done:
                return {"capa_id": capa.id, "action_index": k}
    return None


@service.tool(intent="mark the CAPA action done", write=True, example=_example_done)
def complete_capa_action(ctx: Ctx, capa_id: CapaId, action_index: Annotated[int, Field(ge=0, le=99)]) -> Capa:
    """Mark an action done; when all are done the CAPA moves to verification.

    Args:
        capa_id: The CAPA in implementation.
        action_index: The action's position in its list (from 0).
    """
    capa = _in(ctx, Capa, capa_id, "capa_id", "implementation")
    if action_index >= len(capa.actions) or capa.actions[action_index].done:
        raise RuleViolation("no open action at that index", field="action_index", hint="read the CAPA's actions")
    acts = list(capa.actions)
    acts[action_index] = acts[action_index].model_copy(update={"done": True})
    status: CapaStatus = "verification" if all(a.done for a in acts) else "implementation"
    return ctx.update(capa, actions=tuple(acts), status=status)


def _example_verify(ctx: Ctx) -> dict[str, Any] | None:
    capa = ctx.first(Capa, status="verification")
    if capa is None:
        return None
    other = next(p.email for p in ctx.population.employees if p.email != capa.owner_email)
    return {"capa_id": capa.id, "verified_by": other, "effective": True}


@service.tool(intent="check the CAPA's effectiveness", write=True, example=_example_verify)
def verify_capa(ctx: Ctx, capa_id: CapaId, verified_by: Email, effective: bool) -> Capa:
    """Record the effectiveness check: effective closes the CAPA, not effective sends it back to root cause.

    Args:
        capa_id: The CAPA in verification.
        verified_by: The checker, an employee other than the owner.
        effective: Whether the actions removed the problem.
    """
    capa = _in(ctx, Capa, capa_id, "capa_id", "verification")
    require_staff(ctx, verified_by, "verified_by")
    if verified_by == capa.owner_email:
        raise RuleViolation("the owner cannot verify their own CAPA", field="verified_by", hint="ask someone else")
    if effective:
        return ctx.update(capa, status="closed", verified_by=verified_by)
    return ctx.update(capa, status="root_cause", verified_by=None)


# -- deviations and audits --------------------------------------------------------------------


def _example_deviation(ctx: Ctx) -> dict[str, Any] | None:
    doc = ctx.first(Document, status="effective")
    return (
        None
        if doc is None
        else {
            "document_id": doc.id,
            "title": "Use alternate torque wrench",
            "justification": "Calibrated spare, same range.",
            "requested_by": doc.owner_email,
            "starts_on": ctx.today().isoformat(),
            "ends_on": (ctx.today() + dt.timedelta(days=14)).isoformat(),
        }
    )


@service.tool(intent="request a planned deviation", write=True, example=_example_deviation)
def request_deviation(
    ctx: Ctx,
    document_id: DocumentId,
    title: Title,
    justification: Text,
    requested_by: Email,
    starts_on: Date,
    ends_on: Date,
) -> Deviation:
    """Request a temporary departure from an effective document (at most 90 days, not in the past).

    Args:
        document_id: The effective document.
        title: What is done differently.
        justification: Why it is acceptable (required).
        requested_by: The requester (an employee).
        starts_on: First day (today or later).
        ends_on: Last day, at most 90 days after the first.
    """
    _in(ctx, Document, document_id, "document_id", "effective")
    require_staff(ctx, requested_by, "requested_by")
    if not justification.strip():
        raise RuleViolation("a deviation needs a justification", field="justification", hint="say why it is safe")
    if starts_on < ctx.today() or not starts_on <= ends_on <= starts_on + dt.timedelta(days=90):
        raise RuleViolation(
            "a deviation runs from today or later for at most 90 days", field="ends_on", hint="shorten it"
        )
    return ctx.create(
        Deviation,
        document_id=document_id,
        title=title,
        justification=justification.strip(),
        requested_by=requested_by,
        starts_on=starts_on,
        ends_on=ends_on,
    )


def _example_approve_dev(ctx: Ctx) -> dict[str, Any] | None:
    dev = ctx.first(Deviation, status="requested")
    if dev is None:
        return None
    return {
        "deviation_id": dev.id,
        "approved_by": next(p.email for p in ctx.population.employees if p.email != dev.requested_by),
    }


@service.tool(intent="approve the deviation", write=True, example=_example_approve_dev)
def approve_deviation(ctx: Ctx, deviation_id: DeviationId, approved_by: Email) -> Deviation:
    """Approve a requested deviation; the approver is an employee other than the requester.

    Args:
        deviation_id: The deviation.
        approved_by: The approver.
    """
    dev = _in(ctx, Deviation, deviation_id, "deviation_id", "requested")
    require_staff(ctx, approved_by, "approved_by")
    if approved_by == dev.requested_by:
        raise RuleViolation("the requester cannot approve", field="approved_by", hint="ask quality to approve")
    return ctx.update(dev, status="approved", approved_by=approved_by)


def _example_finding(ctx: Ctx) -> dict[str, Any] | None:
    audit = ctx.first(Audit, status="in_progress")
    return None if audit is None else {"audit_id": audit.id, "classification": "major", "description": "No CoC on lot"}


@service.tool(intent="record an audit finding", write=True, example=_example_finding)
def add_audit_finding(
    ctx: Ctx, audit_id: AuditId, classification: Literal["observation", "minor", "major"], description: Text
) -> AuditFinding:
    """Record a finding of an audit in progress; a major finding raises a nonconformance.

    Args:
        audit_id: The audit in progress.
        classification: observation, minor or major.
        description: What was found (required).
    """
    audit = _in(ctx, Audit, audit_id, "audit_id", "in_progress")
    if not description.strip():
        raise RuleViolation("a finding needs a description", field="description", hint="say what was found")
    nc_id = None
    if classification == "major":
        nc_id = ctx.create(
            Nonconformance,
            title=f"Audit finding: {audit.title}"[:200],
            description=description.strip(),
            severity="major",
            source="audit",
            supplier_name=audit.supplier_name,
            owner_email=audit.lead_auditor_email,
        ).id
    return ctx.create(
        AuditFinding,
        audit_id=audit.id,
        classification=classification,
        description=description.strip(),
        nonconformance_id=nc_id,
    )


# -- seed -------------------------------------------------------------------------------------

DOCS: tuple[tuple[str, str, DocType], ...] = (
    ("SOP-001", "Document control", "sop"),
    ("SOP-002", "Nonconforming product", "sop"),
    ("SOP-003", "Corrective and preventive action", "sop"),
    ("WI-102", "Final assembly torque procedure", "work_instruction"),
    ("WI-105", "Incoming inspection of purchased parts", "work_instruction"),
    ("POL-001", "Quality policy", "policy"),
    ("SPEC-210", "Packaging specification", "specification"),
)
AUDITS: tuple[
    tuple[str, Literal["internal", "supplier", "external"], Literal["planned", "in_progress", "completed"]], ...
] = (
    ("Annual internal audit: production", "internal", "completed"),
    ("Supplier audit", "supplier", "in_progress"),
    ("ISO 9001 surveillance audit", "external", "planned"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Documents in every state with training, nonconformances on the catalogue's products, CAPAs, audits."""
    pop = s.population
    quality = pop.staff("Operations", "Engineering", fallback=6)
    people = list(pop.employees)
    today = s.now.date()
    docs: list[Document] = []
    for k, (num, title, kind) in enumerate(DOCS):
        owner = quality[k % len(quality)]
        approvers = tuple(p.email for p in people if p.email != owner.email)[k % 3 : k % 3 + 2]
        trainees = tuple(p.email for p in people[k : k + 4])
        status: DocStatus = ("effective", "effective", "effective", "effective", "in_review", "draft", "approved")[k]
        eff = today - dt.timedelta(days=200 - 20 * k) if status == "effective" else None
        docs.append(
            s.create(
                Document,
                doc_number=num,
                title=title,
                doc_type=kind,
                owner_email=owner.email,
                approver_emails=approvers,
                trainee_emails=trainees,
                content=f"{title}: purpose, scope, responsibilities, procedure, records.",
                status=status,
                effective_on=eff,
                review_due_on=eff + dt.timedelta(days=730) if eff else None,
                signatures=tuple(
                    Signature(approver_email=a, decision="approved", signed_at=s.ago(days=3))
                    for a in approvers[: 1 if status == "in_review" else (2 if status != "draft" else 0)]
                ),
                updated_at=s.ago(days=3),
            )
        )
        if eff is not None:
            for n, t in enumerate(trainees):
                s.create(
                    TrainingRecord,
                    document_id=docs[-1].id,
                    employee_email=t,
                    due_on=eff + dt.timedelta(days=30),
                    status="completed" if n % 3 else "assigned",
                    completed_at=s.ago(days=100) if n % 3 else None,
                )
    fix = CapaAction(description="Update the work instruction", assignee_email=quality[0].email, due_on=today)
    capas_made = [
        s.create(
            Capa,
            title=title,
            owner_email=quality[k % len(quality)].email,
            due_on=today + dt.timedelta(days=30 + 15 * k),
            status=status,
            root_cause="" if status == "open" else "Work instruction lacked an inspection step.",
            actions=()
            if status in ("open", "root_cause")
            else (fix.model_copy(update={"done": status != "implementation"}),),
            created_at=s.ago(days=40 - 5 * k),
        )
        for k, (title, status) in enumerate(
            (
                ("Loose fasteners on final assembly", "implementation"),
                ("Supplier lots without certificate of conformity", "open"),
                ("Label misprints", "verification"),
                ("Scratched housings", "root_cause"),
            )
        )
    ]
    suppliers = pop.customers
    for k, prod in enumerate(pop.products[:8]):
        sev: Severity = ("minor", "major", "critical", "minor")[k % 4]
        st: NcStatus = ("open", "investigation", "dispositioned", "closed")[k % 4]
        s.create(
            Nonconformance,
            title=f"{prod.name}: {('dimension out of tolerance', 'missing parts', 'cosmetic damage', 'wrong label')[k % 4]}",
            severity=sev,
            source=("incoming_inspection", "production", "customer_complaint", "supplier")[k % 4],
            sku=prod.sku,
            supplier_name=suppliers[k % len(suppliers)].name if k % 2 == 0 and suppliers else None,
            quantity_affected=s.rng.randint(2, 60),
            owner_email=quality[k % len(quality)].email,
            status=st,
            disposition=("rework", "scrap")[k % 2] if st in ("dispositioned", "closed") else None,
            capa_id=capas_made[k % 4].id if sev != "minor" and k != 6 else None,
            created_at=s.ago(days=30 - k),
            closed_at=s.ago(days=2) if st == "closed" else None,
        )
    for k, (title, akind, astatus) in enumerate(AUDITS):
        audit = s.create(
            Audit,
            title=title,
            audit_type=akind,
            supplier_name=suppliers[0].name if akind == "supplier" and suppliers else None,
            lead_auditor_email=quality[(k + 1) % len(quality)].email,
            scheduled_on=today + dt.timedelta(days=-60 + 40 * k),
            status=astatus,
        )
        if astatus == "completed":
            s.create(
                AuditFinding, audit_id=audit.id, classification="observation", description="Training matrix outdated."
            )
    s.create(
        Deviation,
        document_id=docs[3].id,
        title="Use spare torque wrench",
        justification="Primary tool out for calibration; spare calibrated last month.",
        requested_by=quality[0].email,
        starts_on=today,
        ends_on=today + dt.timedelta(days=10),
    )
