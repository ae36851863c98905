"""Firstday Journeys: employee onboarding journeys from templates, owner tasks, documents and equipment.

Modeled on Enboarder / Rippling onboarding (journey templates with steps
whose due dates are offsets from the start date, tasks owned by HR, IT, the
manager or the new hire, documents sent for e-signature, equipment requests
shipped before day one, day-one readiness): templates are drafted, then
published (only with at least one step) and archived; a journey starts only
from a published template, for a start date not in the past, once per new
hire; a journey moves preboarding → ready → active → completed, or is
cancelled before day one (open tasks are skipped, unsigned documents voided,
undelivered equipment cancelled). It is ready only when every required
document is signed, every task due before the start date is done and every
equipment request is delivered; day one begins on or after the start date;
it completes when no task is open. Moving the start date moves the open
tasks' due dates with it and sends a ready journey back to preboarding.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, JobTitle, PersonName, Text, Title, TrackingNumber
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.text import fold
from compoworld.world.org import department_of, org_chart

__all__ = ["service"]

service = Service(
    "onboarding",
    title="Firstday Journeys",
    category="employee_onboarding",
    modeled_on="Enboarder / Rippling onboarding API: journey templates with relative-date steps, journeys "
    "(pre-boarding, ready, active, completed), owner tasks, e-signature documents, equipment requests",
    description="Onboarding of the home company's new hires: journey templates by department, journeys that "
    "turn a template into dated tasks for HR, IT, the manager and the new hire, documents to sign before day "
    "one, laptops and badges to ship, and a day-one readiness check.",
)

TemplateId = Annotated[str, IdOf("onboarding.template")]
StepId = Annotated[str, IdOf("onboarding.step")]
JourneyId = Annotated[str, IdOf("onboarding.journey")]
TaskId = Annotated[str, IdOf("onboarding.task")]
DocumentId = Annotated[str, IdOf("onboarding.document")]
EquipmentId = Annotated[str, IdOf("onboarding.equipment_request")]

Offset = Annotated[int, Field(ge=-60, le=90)]
"""Days relative to the start date (negative: before day one)."""
Department = Annotated[str, StringConstraints(min_length=2, max_length=60)]
"""A department of the company."""

OwnerRole = Literal["hr", "it", "manager", "new_hire"]
TemplateStatus = Literal["draft", "published", "archived"]
JourneyStatus = Literal["preboarding", "ready", "active", "completed", "cancelled"]
TaskStatus = Literal["open", "done", "skipped"]
DocKind = Literal["offer_letter", "i9", "w4", "nda", "handbook_acknowledgement", "direct_deposit"]
DocStatus = Literal["sent", "viewed", "signed", "declined", "voided"]
Item = Literal["laptop", "monitor", "phone", "badge", "headset", "keyboard"]
EquipStatus = Literal["requested", "approved", "shipped", "delivered", "cancelled"]

LIVE_JOURNEY: tuple[JourneyStatus, ...] = ("preboarding", "ready", "active")
BEFORE_DAY_ONE: tuple[JourneyStatus, ...] = ("preboarding", "ready")


class Template(Timestamped):
    """A journey template: the steps every new hire of a department goes through."""

    id: TemplateId
    name: Title
    """The template's name."""
    department: Department | None = None
    """The department it is for; none: any."""
    status: TemplateStatus = "draft"
    """draft, published or archived."""
    required_documents: tuple[DocKind, ...] = ("offer_letter", "i9", "w4")
    """Documents a new hire must sign before day one."""
    owner_email: Email | None = None
    """The HR employee who maintains it."""


class Step(Timestamped):
    """One step of a template: a task for an owner, due some days from the start date."""

    id: StepId
    template_id: TemplateId
    """The template."""
    title: Title
    """What to do."""
    owner_role: OwnerRole
    """hr, it, manager or new_hire."""
    offset_days: Offset = 0
    """Due this many days from the start date (negative: before)."""


class Journey(Timestamped):
    """A new hire's onboarding journey."""

    id: JourneyId
    template_id: TemplateId
    """The template it was made from."""
    new_hire_name: PersonName
    """The new hire's name."""
    personal_email: Email
    """The new hire's personal e-mail (before a work account exists)."""
    work_email: Email | None = None
    """The work e-mail IT created."""
    job_title: JobTitle
    """The job the new hire starts in."""
    department: Department
    """Their department."""
    manager_email: Email
    """The hiring manager (an employee)."""
    start_date: Date
    """Day one."""
    status: JourneyStatus = "preboarding"
    """preboarding, ready, active, completed or cancelled."""
    ready_at: DateTime | None = None
    """When it became ready for day one."""
    cancel_reason: Text | None = None
    """Why it was cancelled."""


class Task(Timestamped):
    """A dated task of a journey for one owner."""

    id: TaskId
    journey_id: JourneyId
    """The journey."""
    title: Title
    """What to do."""
    owner_role: OwnerRole
    """hr, it, manager or new_hire."""
    assignee_email: Email
    """Who does it."""
    due_date: Date
    """When it is due."""
    status: TaskStatus = "open"
    """open, done or skipped."""
    completed_at: DateTime | None = None
    """When it was done."""
    skip_reason: Text | None = None
    """Why it was skipped."""


class Document(Timestamped):
    """A document sent to the new hire for e-signature."""

    id: DocumentId
    journey_id: JourneyId
    """The journey."""
    kind: DocKind
    """offer_letter, i9, w4, nda, handbook_acknowledgement or direct_deposit."""
    signer_email: Email
    """Who signs it (the new hire's personal e-mail)."""
    status: DocStatus = "sent"
    """sent, viewed, signed, declined or voided."""
    signed_at: DateTime | None = None
    """When it was signed."""


class EquipmentRequest(Timestamped):
    """Equipment IT ships to the new hire before day one."""

    id: EquipmentId
    journey_id: JourneyId
    """The journey."""
    item: Item
    """laptop, monitor, phone, badge, headset or keyboard."""
    model_name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """The model requested."""
    ship_to_name: PersonName
    """Who receives it."""
    status: EquipStatus = "requested"
    """requested, approved, shipped, delivered or cancelled."""
    tracking_number: TrackingNumber | None = None
    """The carrier's tracking number once shipped."""


class Readiness(Value):
    """What still stands between a journey and day one."""

    journey_id: JourneyId
    """The journey."""
    ready: bool
    """Whether nothing blocks it."""
    unsigned_documents: list[DocKind]
    """Required documents not signed."""
    open_tasks_before_start: list[TaskId]
    """Open tasks due before the start date."""
    undelivered_equipment: list[EquipmentId]
    """Equipment requests not yet delivered."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's work e-mail")


def _guard_template(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    publishing = old is not None and new.status == "published" and old.status != "published"
    if publishing and not ctx.where(Step, template_id=new.id):
        raise RuleViolation(
            f"template {new.name!r} has no steps", field="template_id", hint="add steps with create_step first"
        )


def _guard_step(ctx: Ctx, new: Any, old: Any) -> None:
    rec = new if new is not None else old
    tpl = ctx.get(Template, rec.template_id, field="template_id")
    if tpl.status != "draft":
        raise RuleViolation(
            f"template {tpl.name!r} is {tpl.status}; only drafts change",
            field="template_id",
            hint="create a new draft template",
        )


def _guard_task(ctx: Ctx, new: Any, old: Any) -> None:
    journey = ctx.get(Journey, new.journey_id, field="journey_id")
    if journey.status not in LIVE_JOURNEY:
        raise RuleViolation(
            f"journey {journey.id} is {journey.status}", field="task_id", hint="only live journeys' tasks change"
        )
    if new.assignee_email != old.assignee_email and new.owner_role != "new_hire":
        _staff(ctx, new.assignee_email, "assignee_email")
    if new.status == "done" and old.status != "done":
        ctx.update(new, completed_at=ctx.now())


def _guard_equipment(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "delivered" and new.tracking_number is None:
        raise RuleViolation(
            "equipment is delivered only after it shipped", field="equipment_request_id", hint="ship it first"
        )


templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="jtpl",
    create=("name", "department", "required_documents", "owner_email"),
    filters=("status", "department", "owner_email"),
    search=("name",),
    delete=False,
    transitions={
        "publish": Transition("status", ("draft",), "published", "publish the onboarding template"),
        "archive": Transition("status", ("draft", "published"), "archived", "archive the onboarding template"),
    },
    guard_create=_guard_template,
    guard_update=_guard_template,
    title="journey template",
)
steps = service.resource(
    Step,
    name="step",
    plural="steps",
    prefix="step",
    create=("template_id", "title", "owner_role", "offset_days"),
    get=False,
    filters=("template_id", "owner_role"),
    search=("title",),
    delete=True,
    guard_create=_guard_step,
    guard_delete=_guard_step,
    title="template step",
)
journeys = service.resource(
    Journey,
    name="journey",
    plural="journeys",
    prefix="jrn",
    create=False,
    filters=("status", "department", "manager_email", "template_id", "personal_email", "work_email"),
    search=("new_hire_name", "job_title"),
    delete=False,
    title="onboarding journey",
)
tasks = service.resource(
    Task,
    name="task",
    plural="tasks",
    prefix="otask",
    create=False,
    filters=("journey_id", "owner_role", "assignee_email", "status", "due_date"),
    search=("title",),
    update=("assignee_email",),
    delete=False,
    transitions={"complete": Transition("status", ("open",), "done", "complete the onboarding task")},
    guard_update=_guard_task,
    title="onboarding task",
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="odoc",
    create=False,
    get=False,
    filters=("journey_id", "kind", "status", "signer_email"),
    delete=False,
    transitions={
        "sign": Transition("status", ("sent", "viewed"), "signed", "sign the onboarding document"),
        "decline": Transition("status", ("sent", "viewed"), "declined", "decline the onboarding document"),
        "void": Transition("status", ("sent", "viewed", "declined"), "voided", "void the onboarding document"),
    },
    title="onboarding document",
)
equipment = service.resource(
    EquipmentRequest,
    name="equipment_request",
    plural="equipment_requests",
    prefix="eqr",
    create=False,
    filters=("journey_id", "item", "status"),
    delete=False,
    transitions={
        "approve": Transition("status", ("requested",), "approved", "approve the equipment request"),
        "deliver": Transition("status", ("shipped",), "delivered", "mark the equipment delivered"),
        "cancel": Transition("status", ("requested", "approved"), "cancelled", "cancel the equipment request"),
    },
    guard_update=_guard_equipment,
)


# -- domain tools -----------------------------------------------------------------------------


def _assignee(ctx: Ctx, role: str, journey: Journey) -> str:
    if role == "manager":
        return journey.manager_email
    if role == "new_hire":
        return journey.work_email or journey.personal_email
    people = ctx.population.staff("People" if role == "hr" else "Engineering", fallback=2)
    return people[0].email


def _live(ctx: Ctx, journey_id: str, field: str = "journey_id") -> Journey:
    journey = ctx.get(Journey, journey_id, field=field)
    if journey.status not in BEFORE_DAY_ONE:
        raise RuleViolation(
            f"journey {journey.id} is {journey.status}", field=field, hint="only journeys before day one change here"
        )
    return journey


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    tpl = ctx.first(Template, status="published")
    if tpl is None:
        return None
    return {
        "template_id": tpl.id,
        "new_hire_name": "Noor Haddad",
        "personal_email": "noor.haddad@example.net",
        "job_title": "Account Executive",
        "department": tpl.department or "Sales",
        "manager_email": ctx.population.employees[0].email,
        "start_date": (ctx.today() + dt.timedelta(days=21)).isoformat(),
    }


@service.tool(intent="start the onboarding journey for the new hire", write=True, example=_example_start)
def start_journey(
    ctx: Ctx,
    template_id: TemplateId,
    new_hire_name: PersonName,
    personal_email: Email,
    job_title: JobTitle,
    department: Department,
    manager_email: Email,
    start_date: Date,
) -> Journey:
    """Start a new hire's journey from a published template: its steps become dated tasks, its documents are sent.

    Args:
        template_id: A published template.
        new_hire_name: The new hire's name.
        personal_email: Their personal e-mail.
        job_title: The job they start in.
        department: Their department.
        manager_email: The hiring manager (an employee).
        start_date: Day one (today or later).
    """
    tpl = ctx.get(Template, template_id, field="template_id")
    if tpl.status != "published":
        raise RuleViolation(
            f"template {tpl.name!r} is {tpl.status}", field="template_id", hint="use a published template"
        )
    if start_date < ctx.today():
        raise RuleViolation("the start date is in the past", field="start_date", hint=f"pick {ctx.today()} or later")
    _staff(ctx, manager_email, "manager_email")
    for other in ctx.where(Journey, personal_email=personal_email):
        if other.status in LIVE_JOURNEY:
            raise Conflict(
                f"{personal_email} already has journey {other.id} ({other.status})",
                field="personal_email",
                hint="reschedule or cancel the existing journey",
            )
    journey = ctx.create(
        Journey,
        template_id=tpl.id,
        new_hire_name=new_hire_name,
        personal_email=personal_email,
        job_title=job_title,
        department=department,
        manager_email=manager_email,
        start_date=start_date,
    )
    for step in ctx.where(Step, template_id=tpl.id):
        ctx.create(
            Task,
            journey_id=journey.id,
            title=step.title,
            owner_role=step.owner_role,
            assignee_email=_assignee(ctx, step.owner_role, journey),
            due_date=start_date + dt.timedelta(days=step.offset_days),
        )
    for kind in tpl.required_documents:
        ctx.create(Document, journey_id=journey.id, kind=kind, signer_email=personal_email)
    return journey


@service.tool(
    intent="set the new hire's work e-mail",
    write=True,
    example=first_example(Journey, "journey_id", where={"status": "preboarding"}, work_email="new.hire@example.com"),
)
def set_work_email(ctx: Ctx, journey_id: JourneyId, work_email: Email) -> Journey:
    """Record the work account IT created; the new hire's open tasks move to it.

    Args:
        journey_id: A journey before day one.
        work_email: The new work e-mail (not used by another journey).
    """
    journey = _live(ctx, journey_id)
    other = ctx.first(Journey, work_email=work_email)
    if other is not None and other.id != journey.id:
        raise Conflict(f"{work_email} belongs to journey {other.id}", field="work_email", hint="pick another address")
    for t in ctx.where(Task, journey_id=journey.id, owner_role="new_hire", status="open"):
        ctx.update(t, assignee_email=work_email)
    return ctx.update(journey, work_email=work_email)


@service.tool(
    intent="move the new hire's start date",
    write=True,
    example=first_example(
        Journey,
        "journey_id",
        where={"status": "preboarding"},
        match=lambda c, j: j.start_date > c.today(),
        shift_days=7,
    ),
)
def reschedule_start(ctx: Ctx, journey_id: JourneyId, shift_days: Annotated[int, Field(ge=-60, le=120)]) -> Journey:
    """Move day one by some days; open tasks move with it and a ready journey goes back to preboarding.

    Args:
        journey_id: A journey before day one.
        shift_days: Days to move the start date (negative: earlier); the new date may not be in the past.
    """
    journey = _live(ctx, journey_id)
    if shift_days == 0:
        raise RuleViolation("shift_days is 0", field="shift_days", hint="give the number of days to move")
    new_start = journey.start_date + dt.timedelta(days=shift_days)
    if new_start < ctx.today():
        raise RuleViolation(f"{new_start} is in the past", field="shift_days", hint=f"start on {ctx.today()} or later")
    for t in ctx.where(Task, journey_id=journey.id, status="open"):
        ctx.update(t, due_date=t.due_date + dt.timedelta(days=shift_days))
    return ctx.update(journey, start_date=new_start, status="preboarding", ready_at=None)


def _readiness(ctx: Ctx, journey: Journey) -> Readiness:
    tpl = ctx.get(Template, journey.template_id)
    signed = {d.kind for d in ctx.where(Document, journey_id=journey.id, status="signed")}
    unsigned = [k for k in tpl.required_documents if k not in signed]
    open_tasks = [
        t.id for t in ctx.where(Task, journey_id=journey.id, status="open") if t.due_date < journey.start_date
    ]
    undelivered = [
        e.id for e in ctx.where(EquipmentRequest, journey_id=journey.id) if e.status not in ("delivered", "cancelled")
    ]
    return Readiness(
        journey_id=journey.id,
        ready=not (unsigned or open_tasks or undelivered),
        unsigned_documents=unsigned,
        open_tasks_before_start=open_tasks,
        undelivered_equipment=undelivered,
    )


@service.tool(intent="check the journey's day-one readiness", example=first_example(Journey, "journey_id"))
def check_readiness(ctx: Ctx, journey_id: JourneyId) -> Readiness:
    """What still blocks day one: unsigned required documents, open pre-start tasks, undelivered equipment.

    Args:
        journey_id: The journey.
    """
    return _readiness(ctx, ctx.get(Journey, journey_id, field="journey_id"))


def _ready_ok(ctx: Ctx, j: Journey) -> bool:
    return _readiness(ctx, j).ready


@service.tool(
    intent="mark the journey ready for day one",
    write=True,
    example=first_example(Journey, "journey_id", where={"status": "preboarding"}, match=_ready_ok),
)
def mark_ready(ctx: Ctx, journey_id: JourneyId) -> Journey:
    """Mark a preboarding journey ready: every required document signed, pre-start tasks done, equipment delivered.

    Args:
        journey_id: A preboarding journey.
    """
    journey = ctx.get(Journey, journey_id, field="journey_id")
    if journey.status != "preboarding":
        raise RuleViolation(
            f"journey {journey.id} is {journey.status}", field="journey_id", hint="only preboarding journeys"
        )
    check = _readiness(ctx, journey)
    if not check.ready:
        raise RuleViolation(
            f"journey {journey.id} is not ready: {len(check.unsigned_documents)} unsigned document(s), "
            f"{len(check.open_tasks_before_start)} open task(s), {len(check.undelivered_equipment)} undelivered item(s)",
            field="journey_id",
            hint="see onboarding__check_readiness",
        )
    return ctx.update(journey, status="ready", ready_at=ctx.now())


@service.tool(
    intent="begin the new hire's first day",
    write=True,
    example=first_example(
        Journey, "journey_id", where={"status": "ready"}, match=lambda c, j: j.start_date <= c.today()
    ),
)
def begin_day_one(ctx: Ctx, journey_id: JourneyId) -> Journey:
    """The new hire starts: a ready journey becomes active on or after its start date.

    Args:
        journey_id: A ready journey.
    """
    journey = ctx.get(Journey, journey_id, field="journey_id")
    if journey.status != "ready":
        raise RuleViolation(f"journey {journey.id} is {journey.status}", field="journey_id", hint="mark it ready first")
    if journey.start_date > ctx.today():
        raise RuleViolation(
            f"day one is {journey.start_date}", field="journey_id", hint="begin on the start date, or reschedule it"
        )
    return ctx.update(journey, status="active")


@service.tool(
    intent="complete the onboarding journey",
    write=True,
    example=first_example(
        Journey,
        "journey_id",
        where={"status": "active"},
        match=lambda c, j: not c.where(Task, journey_id=j.id, status="open"),
    ),
)
def complete_journey(ctx: Ctx, journey_id: JourneyId) -> Journey:
    """Close an active journey once none of its tasks is open.

    Args:
        journey_id: An active journey.
    """
    journey = ctx.get(Journey, journey_id, field="journey_id")
    if journey.status != "active":
        raise RuleViolation(
            f"journey {journey.id} is {journey.status}", field="journey_id", hint="only active journeys"
        )
    left = ctx.where(Task, journey_id=journey.id, status="open")
    if left:
        raise RuleViolation(
            f"{len(left)} task(s) are still open", field="journey_id", hint="complete or skip them first"
        )
    return ctx.update(journey, status="completed")


@service.tool(
    intent="cancel the onboarding journey",
    write=True,
    destructive=True,
    example=first_example(Journey, "journey_id", where={"status": "preboarding"}, reason="Offer rescinded."),
)
def cancel_journey(ctx: Ctx, journey_id: JourneyId, reason: Text) -> Journey:
    """Cancel a journey before day one: open tasks are skipped, unsigned documents voided, equipment cancelled.

    Args:
        journey_id: A journey before day one.
        reason: Why (required).
    """
    journey = _live(ctx, journey_id)
    if not reason.strip():
        raise RuleViolation("cancelling needs a reason", field="reason", hint="say why the hire is not starting")
    for t in ctx.where(Task, journey_id=journey.id, status="open"):
        ctx.update(t, status="skipped", skip_reason="journey cancelled")
    for d in ctx.where(Document, journey_id=journey.id):
        if d.status in ("sent", "viewed", "declined"):
            ctx.update(d, status="voided")
    for e in ctx.where(EquipmentRequest, journey_id=journey.id):
        if e.status in ("requested", "approved"):
            ctx.update(e, status="cancelled")
    return ctx.update(journey, status="cancelled", cancel_reason=reason.strip())


@service.tool(
    intent="skip the onboarding task",
    write=True,
    example=first_example(
        Task,
        "task_id",
        where={"status": "open"},
        match=lambda c, t: c.get(Journey, t.journey_id).status in LIVE_JOURNEY,
        reason="Covered by the team buddy.",
    ),
)
def skip_task(ctx: Ctx, task_id: TaskId, reason: Text) -> Task:
    """Skip an open task of a live journey, with a reason.

    Args:
        task_id: An open task.
        reason: Why it is not needed (required).
    """
    task = ctx.get(Task, task_id, field="task_id")
    if task.status != "open":
        raise RuleViolation(f"task {task.id} is {task.status}", field="task_id", hint="only open tasks are skipped")
    if not reason.strip():
        raise RuleViolation("skipping needs a reason", field="reason", hint="say why the task is not needed")
    journey = ctx.get(Journey, task.journey_id)
    if journey.status not in LIVE_JOURNEY:
        raise RuleViolation(f"journey {journey.id} is {journey.status}", field="task_id", hint="only live journeys")
    return ctx.update(task, status="skipped", skip_reason=reason.strip())


def _example_send(ctx: Ctx) -> dict[str, Any] | None:
    for j in ctx.where(Journey, status="preboarding"):
        kinds = {d.kind for d in ctx.where(Document, journey_id=j.id) if d.status != "voided"}
        if "nda" not in kinds:
            return {"journey_id": j.id, "kind": "nda"}
    return None


@service.tool(intent="send the document to the new hire for signature", write=True, example=_example_send)
def send_document(ctx: Ctx, journey_id: JourneyId, kind: DocKind) -> Document:
    """Send one more document for e-signature; a kind is sent once unless the earlier one was voided.

    Args:
        journey_id: A journey before day one.
        kind: The document kind.
    """
    journey = _live(ctx, journey_id)
    for d in ctx.where(Document, journey_id=journey.id, kind=kind):
        if d.status != "voided":
            raise Conflict(
                f"a {kind} document ({d.id}) is already {d.status}", field="kind", hint="void it first to resend"
            )
    return ctx.create(Document, journey_id=journey.id, kind=kind, signer_email=journey.personal_email)


def _example_equip(ctx: Ctx) -> dict[str, Any] | None:
    j = ctx.first(Journey, status="preboarding")
    return None if j is None else {"journey_id": j.id, "item": "monitor", "model_name": "Dell U2723QE"}


@service.tool(intent="request equipment for the new hire", write=True, example=_example_equip)
def request_equipment(
    ctx: Ctx,
    journey_id: JourneyId,
    item: Item,
    model_name: Annotated[str, StringConstraints(min_length=1, max_length=80)],
) -> EquipmentRequest:
    """Request equipment for a journey before day one; one live request per item.

    Args:
        journey_id: A journey before day one.
        item: What to ship.
        model_name: The model.
    """
    journey = _live(ctx, journey_id)
    for e in ctx.where(EquipmentRequest, journey_id=journey.id, item=item):
        if e.status != "cancelled":
            raise Conflict(
                f"a {item} is already {e.status} ({e.id})", field="item", hint="cancel it first to replace it"
            )
    return ctx.create(
        EquipmentRequest, journey_id=journey.id, item=item, model_name=model_name, ship_to_name=journey.new_hire_name
    )


@service.tool(
    intent="ship the equipment",
    write=True,
    example=first_example(
        EquipmentRequest, "equipment_request_id", where={"status": "approved"}, tracking_number="1Z999AA10123456784"
    ),
)
def ship_equipment(ctx: Ctx, equipment_request_id: EquipmentId, tracking_number: TrackingNumber) -> EquipmentRequest:
    """Ship an approved request with the carrier's tracking number.

    Args:
        equipment_request_id: An approved request.
        tracking_number: The carrier's tracking number.
    """
    req = ctx.get(EquipmentRequest, equipment_request_id, field="equipment_request_id")
    if req.status != "approved":
        raise RuleViolation(
            f"request {req.id} is {req.status}", field="equipment_request_id", hint="approve it before shipping"
        )
    return ctx.update(req, status="shipped", tracking_number=tracking_number)


# -- seed -------------------------------------------------------------------------------------

STEPS: tuple[tuple[str, OwnerRole, int], ...] = (
    ("Send welcome e-mail and first-week agenda", "hr", -10),
    ("Create accounts and work e-mail", "it", -7),
    ("Prepare laptop and ship equipment", "it", -5),
    ("Assign an onboarding buddy", "manager", -3),
    ("Complete your profile and upload a photo", "new_hire", -2),
    ("Day-one welcome meeting", "manager", 0),
    ("Benefits enrollment", "new_hire", 14),
    ("30-day check-in", "manager", 30),
)
NEW_HIRE_TITLES = ("Software Engineer", "Account Executive", "Support Specialist", "Marketing Manager", "Analyst")


@service.seeder
def seed(s: SeedContext) -> None:
    """Templates in every status, journeys in every status for future hires (consumers) and recent employees."""
    pop = s.population
    hr = pop.staff("People", fallback=2)
    made: list[Template] = []
    for name, dept, tpl_status, docs, age, n_steps in TEMPLATES:
        tpl = s.create(
            Template,
            name=name,
            department=dept,
            status=tpl_status,
            required_documents=docs,
            owner_email=hr[age % len(hr)].email,
            created_at=s.ago(days=age),
            updated_at=s.ago(days=age // 2),
        )
        made.append(tpl)
        for title, role, offset in STEPS[:n_steps]:
            s.create(
                Step,
                template_id=tpl.id,
                title=title,
                owner_role=role,
                offset_days=offset,
                created_at=tpl.created_at,
                updated_at=tpl.created_at,
            )
    chart = org_chart(pop.employees)
    heads = list(chart.heads.values())
    today = s.now.date()
    for k, (status, days, all_done) in enumerate(PLANS):
        p, mgr = pop.consumers[k], heads[k % len(heads)]
        hire = _Hire(p.name, p.email, None, NEW_HIRE_TITLES[k % 5], department_of(mgr), mgr.email)
        _seed_journey(s, made[k % 2], hire, today + dt.timedelta(days=days), status, all_done, k)
    recent = sorted(pop.employees, key=lambda p: p.hire_date or today)[-4:]
    for k, p in enumerate(recent):
        mgr = chart.manager_of(p) or chart.top
        personal = fold(p.name).replace(" ", ".") + "@example.org"
        hire = _Hire(p.name, personal, p.email, p.job_title, department_of(p), mgr.email)
        now: JourneyStatus = "active" if k % 2 else "completed"
        _seed_journey(s, made[0], hire, today - dt.timedelta(days=5 + 20 * k), now, True, k + 10)


TEMPLATES: tuple[tuple[str, str | None, TemplateStatus, tuple[DocKind, ...], int, int], ...] = (
    ("Company-wide onboarding", None, "published", ("offer_letter", "i9", "w4"), 400, 8),
    ("Engineering onboarding", "Engineering", "published", ("offer_letter", "i9", "w4", "nda"), 380, 6),
    ("Interns summer program", None, "draft", ("offer_letter", "i9"), 20, 2),
    ("Legacy onboarding 2023", None, "archived", ("offer_letter",), 900, 3),
)
PLANS: tuple[tuple[JourneyStatus, int, bool], ...] = (
    ("preboarding", 21, False),
    ("preboarding", 9, False),
    ("preboarding", 4, False),
    ("ready", 2, True),
    ("ready", 0, True),
    ("cancelled", 12, False),
    ("preboarding", 1, True),
)


@dataclass(frozen=True)
class _Hire:
    name: str
    personal: str
    work: str | None
    title: str
    dept: str
    manager: str


def _seed_journey(
    s: SeedContext, tpl: Template, h: _Hire, start: dt.date, status: JourneyStatus, all_done: bool, k: int
) -> None:
    hr = s.population.staff("People", fallback=2)[0].email
    it = s.population.staff("Engineering", fallback=2)[0].email
    started = s.ago(days=30 + k)
    j = s.create(
        Journey,
        template_id=tpl.id,
        new_hire_name=h.name,
        personal_email=h.personal,
        work_email=h.work,
        job_title=h.title,
        department=h.dept,
        manager_email=h.manager,
        start_date=start,
        status=status,
        ready_at=s.ago(days=1) if status in ("ready", "active", "completed") else None,
        cancel_reason="Candidate accepted another offer." if status == "cancelled" else None,
        created_at=started,
        updated_at=started,
    )
    today = s.now.date()
    for step in s.records(Step):
        if step.template_id != tpl.id:
            continue
        due = start + dt.timedelta(days=step.offset_days)
        who = {"hr": hr, "it": it, "manager": h.manager, "new_hire": h.work or h.personal}[step.owner_role]
        st: TaskStatus = "open"
        if status == "cancelled":
            st = "skipped"
        elif status == "completed" or (all_done and due < start) or due < today - dt.timedelta(days=1):
            st = "done"
        s.create(
            Task,
            journey_id=j.id,
            title=step.title,
            owner_role=step.owner_role,
            assignee_email=who,
            due_date=due,
            status=st,
            completed_at=s.ago(days=1) if st == "done" else None,
            skip_reason="journey cancelled" if st == "skipped" else None,
            created_at=started,
            updated_at=started,
        )
    for n, kind in enumerate(tpl.required_documents):
        ds: DocStatus = "voided" if status == "cancelled" else "signed" if all_done or n < k % 3 else "sent"
        if ds == "sent" and n % 2:
            ds = "viewed"
        s.create(
            Document,
            journey_id=j.id,
            kind=kind,
            signer_email=h.personal,
            status=ds,
            signed_at=s.ago(days=3) if ds == "signed" else None,
            created_at=started,
            updated_at=started,
        )
    if status != "completed":
        es: EquipStatus = "delivered" if all_done else "cancelled" if status == "cancelled" else EQUIP[k % 3]
        s.create(
            EquipmentRequest,
            journey_id=j.id,
            item="laptop",
            model_name=LAPTOPS[k % 2],
            ship_to_name=h.name,
            status=es,
            tracking_number=f"1Z999AA1012345{6780 + k}" if es in ("shipped", "delivered") else None,
            created_at=started,
            updated_at=started,
        )


EQUIP: tuple[EquipStatus, ...] = ("requested", "approved", "shipped")
LAPTOPS = ("MacBook Pro 14", "Dell Latitude 7440")
