"""Privra: privacy management of data subject requests, data systems, consent records and processing activities.

Modeled on OneTrust Privacy Rights Automation and Transcend (DSR API: request
``type`` access / erasure / rectification / sale opt-out, ``status``
new → verifying identity → in progress → completed or rejected, statutory
due dates by regulation and one extension, per-system data silos with
``DataSiloRequest`` tasks), OneTrust Universal Consent (consent receipts per
purpose, granted or withdrawn) and the OneTrust data-mapping record of
processing activities (purpose, legal basis, systems, data categories,
retention).

A request is due 30 days after receipt under GDPR, 45 under CCPA and 15
under LGPD; it may be extended once (GDPR by 60 days, CCPA by 45, LGPD by
15) with a reason. Work starts only after the requester's identity is
verified, and opens one task per data system in scope for that request type;
the request completes only when every task is done or found nothing. A
completed sale opt-out withdraws the person's sale-of-data consent; a
completed erasure withdraws all their consents. One consent per person and
purpose is live at a time. A processing activity based on consent names a
consent purpose; its systems must exist and its retention is 1-120 months.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "privacy",
    title="Privra",
    category="privacy_management",
    modeled_on="OneTrust Privacy Rights Automation and Transcend DSR API (request types, statuses, identity "
    "verification, statutory deadlines and extensions, per-system tasks), OneTrust Universal Consent (receipts per "
    "purpose) and data mapping (record of processing activities)",
    description="The company's privacy program: data subject requests from customers to access, erase, correct or "
    "opt out of the sale of their data, with identity checks, statutory deadlines and a task per data system; the "
    "inventory of systems holding personal data; consent records per purpose; and the record of processing activities.",
)

SystemId = Annotated[str, IdOf("privacy.data_system")]
RequestId = Annotated[str, IdOf("privacy.request")]
TaskId = Annotated[str, IdOf("privacy.request_task")]
ConsentId = Annotated[str, IdOf("privacy.consent")]
ActivityId = Annotated[str, IdOf("privacy.processing_activity")]

RequestType = Literal["access", "erasure", "rectification", "sale_opt_out"]
Regulation = Literal["gdpr", "ccpa", "lgpd"]
RequestStatus = Literal["new", "verifying", "in_progress", "completed", "rejected"]
Purpose = Literal["marketing_email", "analytics", "personalization", "sale_of_data"]
LegalBasis = Literal["consent", "contract", "legal_obligation", "legitimate_interests"]
DataCategory = Literal["contact", "financial", "usage", "location", "health", "identifiers"]

DUE: dict[str, int] = {"gdpr": 30, "ccpa": 45, "lgpd": 15}
EXTENSION: dict[str, int] = {"gdpr": 60, "ccpa": 45, "lgpd": 15}


class DataSystem(Record):
    """A system that holds personal data."""

    id: SystemId
    name: Title
    """Its unique name."""
    owner_email: Email
    """The employee responsible for it."""
    data_categories: tuple[DataCategory, ...] = ("contact",)
    """Personal data it holds."""
    handles: tuple[RequestType, ...] = ("access", "erasure")
    """Request types it takes part in."""
    integration: Literal["automated", "manual"] = "manual"
    """automated (API connector) or manual (owner does it)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was inventoried."""


class Request(Record):
    """A data subject request."""

    id: RequestId
    request_type: RequestType
    """access, erasure, rectification or sale_opt_out."""
    regulation: Regulation
    """gdpr, ccpa or lgpd."""
    subject_email: Email
    """The requester's e-mail."""
    subject_name: PersonName
    """The requester's name."""
    details: Text = ""
    """What they asked."""
    status: RequestStatus = "new"
    """new, verifying, in_progress, completed or rejected."""
    identity_verified: bool = False
    """Whether their identity was verified."""
    verification_method: Literal["email_link", "id_document", "account_login"] | None = None
    """How it was verified."""
    received_on: Date
    """When it arrived."""
    due_on: Date
    """The statutory deadline."""
    extended: bool = False
    """Whether the deadline was extended."""
    extension_reason: Text = ""
    """Why."""
    assignee_email: Email | None = None
    """The privacy analyst handling it."""
    rejection_reason: Text = ""
    """Why it was rejected."""
    completed_at: DateTime | None = None
    """When it closed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was logged."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class RequestTask(Record):
    """The work a request needs in one data system."""

    id: TaskId
    request_id: RequestId
    """The request."""
    system_id: SystemId
    """The data system."""
    status: Literal["pending", "done", "not_found"] = "pending"
    """pending, done or not_found (no data about the person)."""
    completed_by: Email | None = None
    """Who closed it."""
    completed_at: DateTime | None = None
    """When."""


class Consent(Record):
    """A consent receipt for one purpose."""

    id: ConsentId
    subject_email: Email
    """Whose consent."""
    purpose: Purpose
    """marketing_email, analytics, personalization or sale_of_data."""
    status: Literal["granted", "withdrawn"] = "granted"
    """granted or withdrawn."""
    source: Literal["web_form", "cookie_banner", "checkout", "preference_center"] = "web_form"
    """Where it was collected."""
    collected_at: DateTime
    """When it was given."""
    withdrawn_at: DateTime | None = None
    """When it was withdrawn."""


class ProcessingActivity(Record):
    """An entry of the record of processing activities."""

    id: ActivityId
    name: Title
    """What the processing is."""
    purpose_description: Text
    """Why data is processed."""
    legal_basis: LegalBasis
    """consent, contract, legal_obligation or legitimate_interests."""
    consent_purpose: Purpose | None = None
    """The consent purpose relied on (consent basis)."""
    system_ids: tuple[SystemId, ...]
    """Systems involved."""
    retention_months: Annotated[int, Field(ge=1, le=120)]
    """How long data is kept."""
    owner_email: Email
    """The employee accountable."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Overdue(Value):
    """An open request at or past its deadline."""

    request_id: RequestId
    """The request."""
    subject_email: Email
    """Whose."""
    due_on: Date
    """Its deadline."""
    days_late: int
    """Days past it (0: due today)."""


# -- rules ------------------------------------------------------------------------------------


def _guard_system(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="systems are owned by staff")
    same = ctx.first(DataSystem, name=new.name)
    if same is not None and same.id != new.id:
        raise Conflict(f"system {new.name!r} exists", field="name", hint="update it instead")


def _guard_activity(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="activities are owned by staff")
    if (new.legal_basis == "consent") != (new.consent_purpose is not None):
        raise RuleViolation(
            "a consent purpose goes with the consent basis, and only with it",
            field="consent_purpose",
            hint="set both or neither",
        )
    if not new.system_ids or len(set(new.system_ids)) != len(new.system_ids):
        raise RuleViolation("list distinct systems", field="system_ids", hint="at least one system")
    for sid in new.system_ids:
        ctx.get(DataSystem, sid, field="system_ids")


systems = service.resource(
    DataSystem,
    name="data_system",
    plural="data_systems",
    prefix="sys",
    create=("name", "owner_email", "data_categories", "handles", "integration"),
    filters=("name", "owner_email", "integration"),
    search=("name",),
    update=("owner_email", "data_categories", "handles", "integration"),
    delete=False,
    guard_create=_guard_system,
    guard_update=_guard_system,
    title="data system",
)
requests = service.resource(
    Request,
    name="request",
    plural="requests",
    prefix="dsr",
    create=False,
    filters=("status", "request_type", "regulation", "subject_email", "assignee_email"),
    search=("subject_name", "details"),
    delete=False,
    title="data subject request",
)
tasks = service.resource(
    RequestTask,
    name="request_task",
    plural="request_tasks",
    prefix="tsk",
    create=False,
    filters=("request_id", "system_id", "status"),
    delete=False,
    title="request task",
)
consents = service.resource(
    Consent,
    name="consent",
    plural="consents",
    prefix="cons",
    create=False,
    filters=("subject_email", "purpose", "status", "source"),
    delete=False,
)
activities = service.resource(
    ProcessingActivity,
    name="processing_activity",
    plural="processing_activities",
    prefix="ropa",
    create=(
        "name",
        "purpose_description",
        "legal_basis",
        "consent_purpose",
        "system_ids",
        "retention_months",
        "owner_email",
    ),
    filters=("legal_basis", "owner_email"),
    search=("name", "purpose_description"),
    update=("purpose_description", "retention_months", "owner_email", "system_ids"),
    delete=False,
    guard_create=_guard_activity,
    guard_update=_guard_activity,
    title="processing activity",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.population.consumers[-1]
    return {"request_type": "access", "regulation": "gdpr", "subject_email": p.email, "subject_name": p.name}


@service.tool(intent="log the data subject request", write=True, example=_example_submit)
def submit_request(
    ctx: Ctx,
    request_type: RequestType,
    regulation: Regulation,
    subject_email: Email,
    subject_name: PersonName,
    details: Text = "",
    assignee_email: Email | None = None,
) -> Request:
    """Log a request received today; its deadline follows the regulation (GDPR 30, CCPA 45, LGPD 15 days).

    Args:
        request_type: access, erasure, rectification or sale_opt_out.
        regulation: gdpr, ccpa or lgpd.
        subject_email: The requester's e-mail.
        subject_name: The requester's name.
        details: What they asked.
        assignee_email: The privacy analyst to handle it.
    """
    if request_type == "sale_opt_out" and regulation != "ccpa":
        raise RuleViolation("sale opt-out is a CCPA right", field="request_type", hint="use erasure or access")
    if assignee_email is not None:
        require_employee(ctx, assignee_email, field="assignee_email", hint="requests are handled by staff")
    for r in ctx.where(Request, subject_email=subject_email, request_type=request_type):
        if r.status in ("new", "verifying", "in_progress"):
            raise Conflict(f"request {r.id} of this type is open", field="subject_email", hint="work on that request")
    today = ctx.today()
    return ctx.create(
        Request,
        request_type=request_type,
        regulation=regulation,
        subject_email=subject_email,
        subject_name=subject_name,
        details=details,
        received_on=today,
        due_on=today + dt.timedelta(days=DUE[regulation]),
        assignee_email=assignee_email,
        status="verifying",
    )


def _example_verify(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Request, status="verifying")
    return None if r is None else {"request_id": r.id, "method": "email_link"}


@service.tool(intent="verify the requester's identity", write=True, example=_example_verify)
def verify_identity(
    ctx: Ctx, request_id: RequestId, method: Literal["email_link", "id_document", "account_login"]
) -> Request:
    """Record that the requester's identity was verified; the request can then be worked on.

    Args:
        request_id: The request.
        method: email_link, id_document or account_login (erasure needs more than an e-mail link).
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status not in ("new", "verifying"):
        raise Conflict(f"the request is {r.status}", field="request_id", hint="only new requests are verified")
    if r.request_type == "erasure" and method == "email_link":
        raise RuleViolation("erasure needs a stronger check", field="method", hint="use id_document or account_login")
    return ctx.update(r, identity_verified=True, verification_method=method, status="verifying")


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    r = next((r for r in ctx.where(Request, status="verifying") if r.identity_verified), None)
    return None if r is None else {"request_id": r.id, "assignee_email": ctx.population.employees[0].email}


@service.tool(intent="start processing the data subject request", write=True, example=_example_start)
def start_processing(ctx: Ctx, request_id: RequestId, assignee_email: Email) -> list[RequestTask]:
    """Start a verified request: one task per data system in scope for its type.

    Args:
        request_id: The request.
        assignee_email: The privacy analyst handling it.
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status != "verifying":
        raise Conflict(f"the request is {r.status}", field="request_id", hint="only verified new requests start")
    if not r.identity_verified:
        raise RuleViolation("identity is not verified", field="request_id", hint="verify it first")
    require_employee(ctx, assignee_email, field="assignee_email", hint="requests are handled by staff")
    scope = [s for s in ctx.scan(DataSystem) if r.request_type in s.handles]
    if not scope:
        raise RuleViolation("no data system handles this request type", field="request_id", hint="update the systems")
    ctx.update(r, status="in_progress", assignee_email=assignee_email)
    return [ctx.create(RequestTask, request_id=r.id, system_id=s.id) for s in scope]


def _example_task(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(RequestTask, status="pending")
    if t is None:
        return None
    return {"task_id": t.id, "outcome": "done", "completed_by": ctx.get(DataSystem, t.system_id).owner_email}


@service.tool(intent="complete the request's task in a system", write=True, example=_example_task)
def complete_task(ctx: Ctx, task_id: TaskId, outcome: Literal["done", "not_found"], completed_by: Email) -> RequestTask:
    """Close a pending task: done, or not_found when the system holds nothing about the person.

    Args:
        task_id: The task.
        outcome: done or not_found.
        completed_by: The employee who did it.
    """
    t = ctx.get(RequestTask, task_id, field="task_id")
    if t.status != "pending":
        raise Conflict(f"the task is {t.status}", field="task_id", hint="only pending tasks close")
    require_employee(ctx, completed_by, field="completed_by", hint="tasks are done by staff")
    return ctx.update(t, status=outcome, completed_by=completed_by, completed_at=ctx.now())


def _example_complete(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Request, status="in_progress"):
        if all(t.status != "pending" for t in ctx.where(RequestTask, request_id=r.id)):
            return {"request_id": r.id}
    return None


@service.tool(intent="complete the data subject request", write=True, example=_example_complete)
def complete_request(ctx: Ctx, request_id: RequestId) -> Request:
    """Close a request whose tasks are all done; opt-outs and erasures withdraw the person's consents.

    Args:
        request_id: The request.
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status != "in_progress":
        raise Conflict(f"the request is {r.status}", field="request_id", hint="start it first")
    left = [t.id for t in ctx.where(RequestTask, request_id=r.id) if t.status == "pending"]
    if left:
        raise RuleViolation(f"tasks still pending: {left}", field="request_id", hint="complete every task first")
    for c in ctx.where(Consent, subject_email=r.subject_email, status="granted"):
        if r.request_type == "erasure" or (r.request_type == "sale_opt_out" and c.purpose == "sale_of_data"):
            ctx.update(c, status="withdrawn", withdrawn_at=ctx.now())
    return ctx.update(r, status="completed", completed_at=ctx.now())


@service.tool(
    intent="reject the data subject request",
    write=True,
    example=first_example(
        Request, "request_id", where={"status": "verifying"}, reason="Identity could not be verified."
    ),
)
def reject_request(ctx: Ctx, request_id: RequestId, reason: Text) -> Request:
    """Reject an open request with a reason (identity not verified, manifestly unfounded); its tasks close.

    Args:
        request_id: The request.
        reason: Why (required).
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status in ("completed", "rejected"):
        raise Conflict(f"the request is {r.status}", field="request_id", hint="nothing to reject")
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="the requester is told why")
    for t in ctx.where(RequestTask, request_id=r.id, status="pending"):
        ctx.delete(t)
    return ctx.update(r, status="rejected", rejection_reason=reason.strip(), completed_at=ctx.now())


@service.tool(
    intent="extend the request's deadline",
    write=True,
    example=first_example(Request, "request_id", where={"status": "in_progress", "extended": False}, reason="Complex"),
)
def extend_deadline(ctx: Ctx, request_id: RequestId, reason: Text) -> Request:
    """Extend an open request's deadline once (GDPR +60, CCPA +45, LGPD +15 days) with a reason.

    Args:
        request_id: The request.
        reason: Why (complexity, number of requests).
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status in ("completed", "rejected"):
        raise Conflict(f"the request is {r.status}", field="request_id", hint="only open requests extend")
    if r.extended:
        raise RuleViolation("the deadline was already extended", field="request_id", hint="it can be extended once")
    if not reason.strip():
        raise RuleViolation("an extension needs a reason", field="reason", hint="tell the requester why")
    return ctx.update(
        r, extended=True, extension_reason=reason.strip(), due_on=r.due_on + dt.timedelta(days=EXTENSION[r.regulation])
    )


@service.tool(intent="list the overdue data subject requests", example=fixed_example())
def overdue_requests(ctx: Ctx) -> list[Overdue]:
    """Open requests due today or earlier, most late first."""
    today = ctx.today()
    out = [
        Overdue(request_id=r.id, subject_email=r.subject_email, due_on=r.due_on, days_late=(today - r.due_on).days)
        for r in ctx.scan(Request)
        if r.status in ("new", "verifying", "in_progress") and r.due_on <= today
    ]
    return sorted(out, key=lambda o: (-o.days_late, o.request_id))


def _example_consent(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.population.consumers[-2]
    return {"subject_email": p.email, "purpose": "analytics", "source": "cookie_banner"}


@service.tool(intent="record the consent", write=True, example=_example_consent)
def record_consent(
    ctx: Ctx,
    subject_email: Email,
    purpose: Purpose,
    source: Literal["web_form", "cookie_banner", "checkout", "preference_center"] = "web_form",
) -> Consent:
    """Record a person's consent for a purpose; one live consent per person and purpose.

    Args:
        subject_email: The person's e-mail.
        purpose: marketing_email, analytics, personalization or sale_of_data.
        source: Where it was collected.
    """
    if ctx.first(Consent, subject_email=subject_email, purpose=purpose, status="granted") is not None:
        raise Conflict(f"{subject_email} already consented to {purpose}", field="purpose", hint="nothing to record")
    return ctx.create(Consent, subject_email=subject_email, purpose=purpose, source=source, collected_at=ctx.now())


@service.tool(
    intent="withdraw the consent",
    write=True,
    example=first_example(Consent, "consent_id", where={"status": "granted"}),
)
def withdraw_consent(ctx: Ctx, consent_id: ConsentId) -> Consent:
    """Withdraw a granted consent.

    Args:
        consent_id: The consent.
    """
    c = ctx.get(Consent, consent_id, field="consent_id")
    if c.status != "granted":
        raise Conflict("the consent is already withdrawn", field="consent_id", hint="nothing to do")
    return ctx.update(c, status="withdrawn", withdrawn_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

SYSTEMS: tuple[
    tuple[str, str, tuple[DataCategory, ...], tuple[RequestType, ...], Literal["automated", "manual"]], ...
] = (
    ("Salesforce CRM", "Sales", ("contact", "identifiers"), ("access", "erasure", "rectification"), "automated"),
    ("Stripe billing", "Finance", ("contact", "financial"), ("access", "erasure"), "automated"),
    ("Zendesk support", "Support", ("contact", "usage"), ("access", "erasure", "rectification"), "automated"),
    ("Marketing e-mail platform", "Marketing", ("contact", "usage"), ("access", "erasure", "sale_opt_out"), "manual"),
    (
        "Data warehouse",
        "Engineering",
        ("usage", "identifiers", "location"),
        ("access", "erasure", "sale_opt_out"),
        "manual",
    ),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Systems owned by department staff, consumers' requests in every state with tasks, consents and activities."""
    pop = s.population
    today = s.now.date()
    made = []
    for k, (name, dept, cats, handles, integ) in enumerate(SYSTEMS):
        owner = pop.staff(dept, fallback=1)[0]
        made.append(
            s.create(
                DataSystem,
                name=name,
                owner_email=owner.email,
                data_categories=cats,
                handles=handles,
                integration=integ,
                created_at=s.ago(days=500 - k),
            )
        )
    analyst = pop.staff("Operations", "People", fallback=1)[0].email
    specs: tuple[tuple[RequestType, Regulation, RequestStatus, int], ...] = (
        ("access", "gdpr", "verifying", 2),
        ("erasure", "gdpr", "in_progress", 20),
        ("sale_opt_out", "ccpa", "in_progress", 10),
        ("access", "ccpa", "completed", 50),
        ("erasure", "lgpd", "rejected", 30),
        ("rectification", "gdpr", "in_progress", 35),
        ("access", "lgpd", "new", 1),
    )
    for k, (rtype, reg, status, age) in enumerate(specs):
        p = pop.consumers[k]
        received = today - dt.timedelta(days=age)
        verified = status in ("in_progress", "completed") or (status == "verifying" and k == 0)
        r = s.create(
            Request,
            request_type=rtype,
            regulation=reg,
            subject_email=p.email,
            subject_name=p.name,
            details=f"Please handle my {rtype.replace('_', ' ')} request.",
            status=status,
            identity_verified=verified,
            verification_method=("account_login" if rtype == "erasure" else "email_link") if verified else None,
            received_on=received,
            due_on=received + dt.timedelta(days=DUE[reg]),
            assignee_email=analyst if status not in ("new", "verifying") else None,
            rejection_reason="Identity could not be verified." if status == "rejected" else "",
            completed_at=s.ago(days=5) if status in ("completed", "rejected") else None,
            created_at=s.ago(days=age),
            updated_at=s.ago(days=max(age - 3, 0)),
        )
        if status in ("in_progress", "completed"):
            for j, sysm in enumerate(x for x in made if rtype in x.handles):
                done = status == "completed" or j == 0 or rtype == "sale_opt_out"
                s.create(
                    RequestTask,
                    request_id=r.id,
                    system_id=sysm.id,
                    status="done" if done else "pending",
                    completed_by=sysm.owner_email if done else None,
                    completed_at=s.ago(days=2) if done else None,
                )
    purposes: tuple[Purpose, ...] = ("marketing_email", "analytics", "sale_of_data")
    for k, p in enumerate(pop.consumers[:10]):
        for j, purpose in enumerate(purposes):
            if (k + j) % 3 == 2:
                continue
            s.create(
                Consent,
                subject_email=p.email,
                purpose=purpose,
                source=("web_form", "cookie_banner", "checkout")[j],
                collected_at=s.ago(days=100 + k),
            )
    dpo = pop.staff("People", "Operations", fallback=1)[0].email
    s.create(
        ProcessingActivity,
        name="Customer billing",
        purpose_description="Invoice customers and collect payments.",
        legal_basis="contract",
        system_ids=(made[1].id, made[0].id),
        retention_months=84,
        owner_email=dpo,
        created_at=s.ago(days=300),
        updated_at=s.ago(days=60),
    )
    s.create(
        ProcessingActivity,
        name="Newsletter",
        purpose_description="Send product news to subscribers.",
        legal_basis="consent",
        consent_purpose="marketing_email",
        system_ids=(made[3].id,),
        retention_months=24,
        owner_email=dpo,
        created_at=s.ago(days=280),
        updated_at=s.ago(days=50),
    )
    s.create(
        ProcessingActivity,
        name="Product analytics",
        purpose_description="Measure feature usage to improve the product.",
        legal_basis="legitimate_interests",
        system_ids=(made[4].id,),
        retention_months=13,
        owner_email=dpo,
        created_at=s.ago(days=200),
        updated_at=s.ago(days=40),
    )
