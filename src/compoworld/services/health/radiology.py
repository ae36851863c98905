"""Lumen Imaging: radiology orders, protocols, exam scheduling, acquired studies, reads, reports and critical results.

Modeled on a radiology information system with PACS and reporting (Epic
Radiant / Sectra RIS-PACS with Nuance PowerScribe 360 and its Critical Results
module; objects follow HL7 FHIR ServiceRequest, ImagingStudy and
DiagnosticReport): an imaging order goes ordered → protocoled → scheduled →
completed, or cancelled; CT, MR and NM orders need a protocol before they are
scheduled, and contrast is refused for an eGFR under 30; an exam is booked in
a room of the order's modality that is free for its slot; acquiring the exam
creates a study with an accession number; a study is read by an active
radiologist credentialed for its modality; a report is preliminary until the
radiologist signs it final, and a report with a critical finding cannot be
signed before the result is communicated to a clinician (ACR practice
parameter); a final report changes only by addenda, which make it amended.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.world.care import clinicians

__all__ = ["service"]

service = Service(
    "radiology",
    title="Lumen Imaging",
    category="radiology",
    modeled_on="Epic Radiant / Sectra RIS-PACS with Nuance PowerScribe 360 (FHIR ServiceRequest, ImagingStudy, "
    "DiagnosticReport): imaging orders, protocolling, exam scheduling, studies, reads, reports, critical results, "
    "addenda",
    description="The imaging department: orders for CT, MR, X-ray, ultrasound, mammography and nuclear medicine "
    "exams, protocolled and scheduled into rooms, the studies acquired, radiologists reading them, preliminary and "
    "final reports, critical findings communicated to the ordering clinician, and addenda to signed reports.",
)

RadiologistId = Annotated[str, IdOf("radiology.radiologist")]
OrderId = Annotated[str, IdOf("radiology.order")]
StudyId = Annotated[str, IdOf("radiology.study")]
ReportId = Annotated[str, IdOf("radiology.report")]
AddendumId = Annotated[str, IdOf("radiology.addendum")]

Modality = Literal["CT", "MR", "XR", "US", "MG", "NM"]
Priority = Literal["routine", "urgent", "stat"]
OrderStatus = Literal["ordered", "protocoled", "scheduled", "completed", "cancelled"]
StudyStatus = Literal["unread", "assigned", "reported"]
ReportStatus = Literal["preliminary", "final", "amended"]
CommMethod = Literal["phone", "in_person", "secure_message"]
Room = Literal["CT-1", "CT-2", "MR-1", "XR-1", "US-1", "MG-1", "NM-1"]
Accession = Annotated[str, StringConstraints(pattern=r"^ACC-[0-9]{6}$")]
"""An accession number."""
Egfr = Annotated[int, Field(ge=0, le=200)]
"""Estimated glomerular filtration rate, mL/min/1.73m²."""
Count = Annotated[int, Field(ge=1, le=10000)]

NEEDS_PROTOCOL: tuple[Modality, ...] = ("CT", "MR", "NM")
CONTRAST: tuple[Modality, ...] = ("CT", "MR")
MIN_EGFR = 30
SLOT = dt.timedelta(minutes=30)
RANK = {"stat": 0, "urgent": 1, "routine": 2}


class Radiologist(Record):
    """A radiologist who reads studies."""

    id: RadiologistId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique."""
    modalities: tuple[Modality, ...]
    """Modalities the radiologist is credentialed to read."""
    active: bool = True
    """Whether the radiologist is reading."""


class Order(Timestamped):
    """An imaging order (ServiceRequest)."""

    id: OrderId
    patient_name: PersonName
    """The patient."""
    patient_email: Email
    """The patient's e-mail."""
    birth_date: Date
    """The patient's date of birth."""
    ordering_provider: PersonName
    """The clinician who ordered the exam."""
    modality: Modality
    """CT, MR, XR, US, MG or NM."""
    procedure: Title
    """The exam ordered, e.g. CT abdomen and pelvis."""
    priority: Priority = "routine"
    """routine, urgent or stat."""
    reason: Text
    """Clinical indication."""
    egfr: Egfr | None = None
    """Latest eGFR, needed for contrast."""
    protocol: Title | None = None
    """The protocol a radiologist chose."""
    contrast: bool = False
    """Whether the protocol uses IV contrast."""
    status: OrderStatus = "ordered"
    """ordered, protocoled, scheduled, completed or cancelled."""
    room: Room | None = None
    """The room the exam is booked in."""
    scheduled_at: DateTime | None = None
    """When the exam is booked."""


class Study(Record):
    """An acquired imaging study (ImagingStudy)."""

    id: StudyId
    order_id: OrderId
    """The order."""
    accession_number: Accession
    """Accession number; unique."""
    modality: Modality
    """The modality."""
    patient_name: PersonName
    """The patient."""
    priority: Priority
    """The order's priority."""
    series_count: Count
    """Number of series."""
    instance_count: Count
    """Number of images."""
    technologist: PersonName
    """The technologist who acquired it."""
    status: StudyStatus = "unread"
    """unread, assigned or reported."""
    radiologist_id: RadiologistId | None = None
    """The radiologist reading it."""
    acquired_at: DateTime
    """When it was acquired."""


class Report(Timestamped):
    """A radiology report (DiagnosticReport)."""

    id: ReportId
    study_id: StudyId
    """The study."""
    order_id: OrderId
    """The order."""
    radiologist_id: RadiologistId
    """The reading radiologist."""
    findings: Text
    """Findings."""
    impression: Text
    """Impression."""
    critical: bool = False
    """Whether it has a critical finding."""
    critical_communicated_to: PersonName | None = None
    """The clinician told of the critical finding."""
    communication_method: CommMethod | None = None
    """phone, in_person or secure_message."""
    critical_communicated_at: DateTime | None = None
    """When the critical finding was communicated."""
    status: ReportStatus = "preliminary"
    """preliminary, final or amended."""
    signed_at: DateTime | None = None
    """When it was signed final."""


class Addendum(Record):
    """An addendum to a signed report."""

    id: AddendumId
    report_id: ReportId
    """The report."""
    radiologist_id: RadiologistId
    """Who wrote it."""
    text: Text
    """The added text."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class WorklistItem(Value):
    """A study waiting to be read."""

    study_id: StudyId
    """The study."""
    accession_number: Accession
    """Its accession number."""
    modality: Modality
    """Its modality."""
    priority: Priority
    """Its priority."""
    acquired_at: DateTime
    """When it was acquired."""


# -- resources --------------------------------------------------------------------------------


def _guard_order(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status != "ordered" and (new.modality, new.procedure) != (old.modality, old.procedure):
        raise RuleViolation(
            "the exam can change only before protocolling", field="procedure", hint="cancel and reorder"
        )


radiologists = service.resource(
    Radiologist,
    name="radiologist",
    plural="radiologists",
    prefix="rad",
    create=False,
    filters=("active", "email"),
    search=("name",),
    update=("modalities", "active"),
    delete=False,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=(
        "patient_name",
        "patient_email",
        "birth_date",
        "ordering_provider",
        "modality",
        "procedure",
        "priority",
        "reason",
        "egfr",
    ),
    filters=("status", "modality", "priority", "patient_email", "ordering_provider", "room"),
    search=("patient_name", "procedure", "reason"),
    update=("priority", "reason", "egfr"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("ordered", "protocoled", "scheduled"), "cancelled", "cancel the order")
    },
    guard_update=_guard_order,
    title="imaging order",
)
studies = service.resource(
    Study,
    name="study",
    plural="studies",
    prefix="stu",
    create=False,
    filters=("status", "modality", "priority", "radiologist_id", "accession_number", "order_id"),
    search=("patient_name",),
    delete=False,
    title="imaging study",
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rpt",
    create=False,
    filters=("status", "critical", "radiologist_id", "study_id", "order_id"),
    search=("findings", "impression"),
    delete=False,
)
addenda = service.resource(
    Addendum,
    name="addendum",
    plural="addenda",
    prefix="add",
    create=False,
    get=False,
    filters=("report_id", "radiologist_id"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_protocol(ctx: Ctx) -> dict[str, Any] | None:
    for o in ctx.where(Order, status="ordered"):
        if o.modality in CONTRAST and (o.egfr or 0) >= MIN_EGFR:
            return {"order_id": o.id, "protocol": f"{o.procedure} with IV contrast", "contrast": True}
    return None


@service.tool(intent="protocol the imaging order", write=True, example=_example_protocol)
def protocol_order(ctx: Ctx, order_id: OrderId, protocol: Title, contrast: bool = False) -> Order:
    """Set the protocol of an ordered exam; contrast is for CT and MR and needs an eGFR of 30 or more.

    Args:
        order_id: The order.
        protocol: The protocol, e.g. "CT abdomen/pelvis, portal venous phase".
        contrast: Whether IV contrast is given.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "ordered":
        raise Conflict(
            f"order {order.id} is {order.status}", field="order_id", hint="only ordered exams are protocoled"
        )
    if contrast:
        if order.modality not in CONTRAST:
            raise RuleViolation(f"{order.modality} exams take no IV contrast", field="contrast", hint="set it false")
        if order.egfr is None:
            raise RuleViolation(
                "contrast needs a recent eGFR", field="contrast", hint="record the eGFR with radiology__update_order"
            )
        if order.egfr < MIN_EGFR:
            raise RuleViolation(
                f"eGFR {order.egfr} is under {MIN_EGFR}: contrast is contraindicated",
                field="contrast",
                hint="protocol without contrast",
            )
    return ctx.update(order, protocol=protocol, contrast=contrast, status="protocoled")


def _room_ok(modality: str, room: str) -> bool:
    return room.startswith(modality + "-")


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    when = (ctx.now() + dt.timedelta(days=4)).replace(hour=15, minute=0, second=0, microsecond=0)
    o = ctx.first(Order, status="protocoled")
    return None if o is None else {"order_id": o.id, "room": f"{o.modality}-1", "scheduled_at": when.isoformat()}


@service.tool(intent="schedule the imaging exam", write=True, example=_example_schedule)
def schedule_exam(ctx: Ctx, order_id: OrderId, room: Room, scheduled_at: DateTime) -> Order:
    """Book an exam in a room of its modality that is free for the 30-minute slot; CT, MR and NM need a protocol.

    Args:
        order_id: The order.
        room: The scanner room (its prefix is the modality).
        scheduled_at: When the exam starts (in the future).
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status not in ("ordered", "protocoled"):
        raise Conflict(f"order {order.id} is {order.status}", field="order_id", hint="only open orders are scheduled")
    if order.status == "ordered" and order.modality in NEEDS_PROTOCOL:
        raise RuleViolation(
            f"a {order.modality} order needs a protocol first", field="order_id", hint="use radiology__protocol_order"
        )
    if not _room_ok(order.modality, room):
        raise RuleViolation(
            f"room {room} has no {order.modality} scanner", field="room", hint=f"use {order.modality}-1"
        )
    if scheduled_at <= ctx.now():
        raise RuleViolation("the exam must be in the future", field="scheduled_at", hint="pick a later time")
    for other in ctx.where(Order, room=room, status="scheduled"):
        if other.id != order.id and other.scheduled_at and abs(other.scheduled_at - scheduled_at) < SLOT:
            raise Conflict(f"{room} is booked for order {other.id}", field="scheduled_at", hint="pick another time")
    return ctx.update(order, room=room, scheduled_at=scheduled_at, status="scheduled")


def _next_accession(ctx: Ctx) -> str:
    taken = [int(s.accession_number[4:]) for s in ctx.where(Study)]
    return f"ACC-{max(taken, default=240000) + 1:06d}"


@service.tool(
    intent="acquire the imaging study",
    write=True,
    example=first_example(
        Order, "order_id", where={"status": "scheduled"}, series_count=4, instance_count=420, technologist="Jordan Pike"
    ),
)
def acquire_study(
    ctx: Ctx, order_id: OrderId, series_count: Count, instance_count: Count, technologist: PersonName
) -> Study:
    """Record that a scheduled exam was performed: the order completes and a study with an accession number is sent to PACS.

    Args:
        order_id: The order.
        series_count: Number of series acquired.
        instance_count: Number of images acquired (at least one per series).
        technologist: The technologist who performed it.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "scheduled":
        raise Conflict(f"order {order.id} is {order.status}", field="order_id", hint="schedule the exam first")
    if instance_count < series_count:
        raise RuleViolation("each series has at least one image", field="instance_count", hint="check the counts")
    ctx.update(order, status="completed")
    return ctx.create(
        Study,
        order_id=order.id,
        accession_number=_next_accession(ctx),
        modality=order.modality,
        patient_name=order.patient_name,
        priority=order.priority,
        series_count=series_count,
        instance_count=instance_count,
        technologist=technologist,
        acquired_at=ctx.now(),
    )


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Study, status="unread"):
        for r in ctx.where(Radiologist, active=True):
            if s.modality in r.modalities:
                return {"study_id": s.id, "radiologist_id": r.id}
    return None


@service.tool(intent="assign the study to a radiologist", write=True, example=_example_assign)
def assign_study(ctx: Ctx, study_id: StudyId, radiologist_id: RadiologistId) -> Study:
    """Put an unread study (or reassign an unreported one) on an active radiologist credentialed for its modality.

    Args:
        study_id: The study.
        radiologist_id: The radiologist.
    """
    study = ctx.get(Study, study_id, field="study_id")
    if study.status == "reported":
        raise Conflict(f"study {study.accession_number} is already reported", field="study_id", hint="nothing to read")
    rad = ctx.get(Radiologist, radiologist_id, field="radiologist_id")
    if not rad.active:
        raise RuleViolation(f"{rad.name} is not reading", field="radiologist_id", hint="pick an active radiologist")
    if study.modality not in rad.modalities:
        raise RuleViolation(
            f"{rad.name} does not read {study.modality}", field="radiologist_id", hint="pick a credentialed radiologist"
        )
    return ctx.update(study, status="assigned", radiologist_id=rad.id)


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Study, status="assigned")
    return (
        None
        if s is None
        else {
            "study_id": s.id,
            "findings": "No acute abnormality.",
            "impression": "Normal study.",
        }
    )


@service.tool(intent="dictate the radiology report", write=True, example=_example_report)
def dictate_report(ctx: Ctx, study_id: StudyId, findings: Text, impression: Text, critical: bool = False) -> Report:
    """Create the preliminary report of an assigned study, by its radiologist.

    Args:
        study_id: The study.
        findings: Findings.
        impression: Impression (required).
        critical: Whether there is a critical finding that must be communicated.
    """
    study = ctx.get(Study, study_id, field="study_id")
    if study.status != "assigned" or study.radiologist_id is None:
        raise Conflict(
            f"study {study.accession_number} is {study.status}",
            field="study_id",
            hint="assign it with radiology__assign_study first" if study.status == "unread" else "it has a report",
        )
    if not impression.strip():
        raise RuleViolation("a report needs an impression", field="impression", hint="summarize the findings")
    ctx.update(study, status="reported")
    return ctx.create(
        Report,
        study_id=study.id,
        order_id=study.order_id,
        radiologist_id=study.radiologist_id,
        findings=findings,
        impression=impression.strip(),
        critical=critical,
    )


@service.tool(
    intent="communicate the critical result",
    write=True,
    example=first_example(
        Report, "report_id", where={"critical": True, "status": "preliminary"}, communicated_to="Dana Reyes"
    ),
)
def communicate_critical_result(
    ctx: Ctx, report_id: ReportId, communicated_to: PersonName, method: CommMethod = "phone"
) -> Report:
    """Document that a critical finding was communicated to a clinician (closed-loop critical results).

    Args:
        report_id: The report.
        communicated_to: The clinician told.
        method: phone, in_person or secure_message.
    """
    rep = ctx.get(Report, report_id, field="report_id")
    if not rep.critical:
        raise RuleViolation("the report has no critical finding", field="report_id", hint="nothing to communicate")
    if rep.critical_communicated_at is not None:
        raise Conflict(
            f"already communicated to {rep.critical_communicated_to}", field="report_id", hint="nothing to do"
        )
    return ctx.update(
        rep, critical_communicated_to=communicated_to, communication_method=method, critical_communicated_at=ctx.now()
    )


def _signable(ctx: Ctx, rep: Report) -> bool:
    return not rep.critical or rep.critical_communicated_at is not None


@service.tool(
    intent="sign the radiology report",
    write=True,
    example=first_example(Report, "report_id", where={"status": "preliminary"}, match=_signable),
)
def sign_report(ctx: Ctx, report_id: ReportId) -> Report:
    """Sign a preliminary report final; a critical finding must have been communicated first.

    Args:
        report_id: The report.
    """
    rep = ctx.get(Report, report_id, field="report_id")
    if rep.status != "preliminary":
        raise Conflict(f"report {rep.id} is already {rep.status}", field="report_id", hint="add an addendum instead")
    if not _signable(ctx, rep):
        raise RuleViolation(
            "a critical finding must be communicated before signing",
            field="report_id",
            hint="use radiology__communicate_critical_result",
        )
    return ctx.update(rep, status="final", signed_at=ctx.now())


def _example_addendum(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Report, status="final")
    return (
        None
        if r is None
        else {"report_id": r.id, "text": "Comparison with prior CT: stable.", "radiologist_id": r.radiologist_id}
    )


@service.tool(intent="add an addendum to the report", write=True, example=_example_addendum)
def add_addendum(ctx: Ctx, report_id: ReportId, text: Text, radiologist_id: RadiologistId) -> Addendum:
    """Add to a signed report; it becomes amended. A preliminary report is edited by its reader instead.

    Args:
        report_id: The report.
        text: What is added (required).
        radiologist_id: The radiologist adding it (active).
    """
    rep = ctx.get(Report, report_id, field="report_id")
    if rep.status == "preliminary":
        raise Conflict("the report is not signed yet", field="report_id", hint="sign it with radiology__sign_report")
    rad = ctx.get(Radiologist, radiologist_id, field="radiologist_id")
    if not rad.active:
        raise RuleViolation(f"{rad.name} is not reading", field="radiologist_id", hint="pick an active radiologist")
    if not text.strip():
        raise RuleViolation("an addendum needs text", field="text", hint="say what is added")
    ctx.update(rep, status="amended")
    return ctx.create(Addendum, report_id=rep.id, radiologist_id=rad.id, text=text.strip())


@service.tool(intent="show the reading worklist", example=first_example(Radiologist, "radiologist_id"))
def reading_worklist(ctx: Ctx, radiologist_id: RadiologistId) -> list[WorklistItem]:
    """The radiologist's assigned studies, then unread ones of their modalities, stat first, oldest first.

    Args:
        radiologist_id: The radiologist.
    """
    rad = ctx.get(Radiologist, radiologist_id, field="radiologist_id")
    mine = ctx.where(Study, radiologist_id=rad.id, status="assigned")
    pool = [s for s in ctx.where(Study, status="unread") if s.modality in rad.modalities]
    items = sorted(mine, key=lambda s: (RANK[s.priority], s.acquired_at)) + sorted(
        pool, key=lambda s: (RANK[s.priority], s.acquired_at)
    )
    return [
        WorklistItem(
            study_id=s.id,
            accession_number=s.accession_number,
            modality=s.modality,
            priority=s.priority,
            acquired_at=s.acquired_at,
        )
        for s in items
    ]


# -- seed -------------------------------------------------------------------------------------

EXAMS: tuple[tuple[Modality, str, str, Priority, int | None], ...] = (
    ("CT", "CT abdomen and pelvis", "Right lower quadrant pain, rule out appendicitis", "stat", 92),
    ("MR", "MRI brain", "New onset seizures", "urgent", 75),
    ("XR", "XR chest 2 views", "Persistent cough", "routine", None),
    ("US", "US right upper quadrant", "Elevated liver enzymes", "routine", None),
    ("MG", "Screening mammogram bilateral", "Annual screening", "routine", None),
    ("CT", "CT chest pulmonary angiogram", "Shortness of breath, rule out PE", "stat", 24),
    ("NM", "NM bone scan whole body", "Staging", "routine", None),
    ("MR", "MRI lumbar spine", "Low back pain with radiculopathy", "routine", 88),
    ("XR", "XR left wrist 3 views", "Fall on outstretched hand", "urgent", None),
    ("CT", "CT head without contrast", "Head injury", "stat", None),
)
PLAN: tuple[OrderStatus, ...] = (
    "completed",
    "completed",
    "completed",
    "completed",
    "completed",
    "ordered",
    "ordered",
    "protocoled",
    "scheduled",
    "cancelled",
)
READERS: tuple[tuple[Modality, ...], ...] = (
    ("CT", "MR", "XR"),
    ("MR", "NM"),
    ("XR", "US", "MG"),
    ("CT", "XR", "US"),
    ("MG", "US"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Radiologists by modality; the clinic's patients' orders in every status; studies, reports and a critical read."""
    pop = s.population
    docs = clinicians(pop)
    keys = {p.key for p, _ in docs}
    patients = [p for p in list(pop.consumers)[:36] if p.key not in keys]
    readers = [
        s.create(Radiologist, name=p.name, email=p.email, modalities=mods, active=k != 4)
        for k, (p, mods) in enumerate(zip(list(pop.consumers)[-20:-15], READERS, strict=True))
    ]
    for k, ((mod, proc, why, prio, egfr), status) in enumerate(zip(EXAMS, PLAN, strict=True)):
        p = patients[k]
        made = s.ago(days=12 - k)
        when = s.ago(days=10 - k) if status == "completed" else s.now + dt.timedelta(days=2, hours=k)
        order = s.create(
            Order,
            patient_name=p.name,
            patient_email=p.email,
            birth_date=p.birth_date,
            ordering_provider=docs[k % len(docs)][0].name,
            modality=mod,
            procedure=proc,
            priority=prio,
            reason=why,
            egfr=egfr,
            protocol=f"{proc} routine protocol" if status not in ("ordered", "cancelled") else None,
            contrast=mod in CONTRAST and egfr is not None and egfr >= MIN_EGFR and status != "ordered",
            status=status,
            room=f"{mod}-1" if status in ("scheduled", "completed") else None,
            scheduled_at=when.replace(minute=0, second=0, microsecond=0)
            if status in ("scheduled", "completed")
            else None,
            created_at=made,
            updated_at=made,
        )
        if status != "completed":
            continue
        reader = next(r for r in readers if r.active and mod in r.modalities)
        read = k < 3
        study = s.create(
            Study,
            order_id=order.id,
            accession_number=f"ACC-{240001 + k:06d}",
            modality=mod,
            patient_name=p.name,
            priority=prio,
            series_count=1 + k % 4,
            instance_count=(1 + k % 4) * (120 if mod in ("CT", "MR") else 2),
            technologist=pop.consumers[-21 - k % 2].name,
            status="reported" if read else "assigned" if k == 3 else "unread",
            radiologist_id=reader.id if read or k == 3 else None,
            acquired_at=when,
        )
        if read:
            critical = k == 0
            s.create(
                Report,
                study_id=study.id,
                order_id=order.id,
                radiologist_id=reader.id,
                findings="Dilated, fluid-filled appendix with periappendiceal stranding."
                if critical
                else "Unremarkable.",
                impression="Acute appendicitis." if critical else "No acute abnormality.",
                critical=critical,
                status="final" if k == 2 else "preliminary",
                signed_at=when + dt.timedelta(hours=3) if k == 2 else None,
                created_at=when + dt.timedelta(hours=1),
                updated_at=when + dt.timedelta(hours=2),
            )
