"""ClearSight Eye Care: an optometry practice's patients, eye exams with refractions, prescriptions and eyewear.

Modeled on RevolutionEHR / Compulink Advantage (patients with a vision plan,
eye exams scheduled → completed, cancelled or no_show, with the manifest
refraction per eye (sphere, cylinder, axis, add) and intraocular pressure
recorded before the exam completes; spectacle and contact lens prescriptions
finalized from a completed exam, spectacle Rx valid two years and contact lens
Rx one year, one active Rx of each kind per patient (a new one supersedes the
old); eyewear orders sent to an optical lab (Essilor, Hoya, Zeiss, VSP Optics)
that go draft → sent_to_lab → received → dispensed, remade once when the lab
got it wrong; recalls for the annual exam and contact lens renewal): a contact
lens Rx needs a contact lens fitting exam, an order needs the patient's own
active unexpired Rx of the matching kind, and a cylinder needs an axis.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Phone, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import add_months, utc_at
from compoworld.world.care import clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "optometry",
    title="ClearSight Eye Care",
    category="optometry",
    modeled_on="RevolutionEHR / Compulink Advantage: patients, eye exams with manifest refraction and IOP, "
    "spectacle and contact lens prescriptions with expiry, optical lab orders (send/receive/dispense/remake), recalls",
    description="An eye care practice: patients and their vision plans, comprehensive and contact lens exams with "
    "refractions, spectacle and contact lens prescriptions that expire, eyewear orders sent to optical labs and "
    "dispensed, and recalls that bring patients back for their annual exam.",
)

PatientId = Annotated[str, IdOf("optometry.patient")]
DoctorId = Annotated[str, IdOf("optometry.doctor")]
ExamId = Annotated[str, IdOf("optometry.exam")]
RxId = Annotated[str, IdOf("optometry.prescription")]
OrderId = Annotated[str, IdOf("optometry.order")]
RecallId = Annotated[str, IdOf("optometry.recall")]

Sphere = Annotated[float, Field(ge=-20, le=20, multiple_of=0.25)]
"""Sphere power in diopters, in 0.25 steps."""
Cylinder = Annotated[float, Field(ge=-6, le=0, multiple_of=0.25)]
"""Cylinder power (minus form) in diopters."""
Axis = Annotated[int, Field(ge=1, le=180)]
"""Cylinder axis in degrees."""
Add = Annotated[float, Field(ge=0, le=3.5, multiple_of=0.25)]
"""Near addition in diopters."""
Iop = Annotated[int, Field(ge=5, le=60)]
"""Intraocular pressure in mmHg."""

VisionPlan = Literal["vsp", "eyemed", "davis", "spectera", "self_pay"]
ExamType = Literal["comprehensive", "contact_lens_fitting", "medical"]
ExamStatus = Literal["scheduled", "completed", "cancelled", "no_show"]
RxKind = Literal["spectacle", "contact_lens"]
RxStatus = Literal["active", "superseded", "expired", "voided"]
Lab = Literal["essilor", "hoya", "zeiss", "vsp_optics"]
OrderKind = Literal["glasses", "contacts"]
OrderStatus = Literal["draft", "sent_to_lab", "received", "dispensed", "remade", "cancelled"]
LensType = Literal["single_vision", "progressive", "bifocal", "daily_disposable", "monthly", "toric"]
RecallReason = Literal["annual_exam", "contact_lens_renewal", "glaucoma_follow_up"]
RecallStatus = Literal["pending", "contacted", "scheduled", "closed"]

VALID_MONTHS: dict[str, int] = {"spectacle": 24, "contact_lens": 12}
ORDER_KIND_RX: dict[str, str] = {"glasses": "spectacle", "contacts": "contact_lens"}
CONTACT_LENSES: tuple[str, ...] = ("daily_disposable", "monthly", "toric")


class Patient(Timestamped):
    """A patient of the practice."""

    id: PatientId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail (unique)."""
    phone: Phone
    """Phone."""
    birth_date: Date
    """Date of birth."""
    vision_plan: VisionPlan = "self_pay"
    """vsp, eyemed, davis, spectera or self_pay."""
    active: bool = True
    """Whether they are a current patient."""


class Doctor(Timestamped):
    """An optometrist of the practice."""

    id: DoctorId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail."""
    npi: Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
    """National Provider Identifier."""


class Exam(Timestamped):
    """An eye exam, with the manifest refraction recorded during it."""

    id: ExamId
    patient_id: PatientId
    """The patient."""
    doctor_id: DoctorId
    """The optometrist."""
    exam_type: ExamType
    """comprehensive, contact_lens_fitting or medical."""
    scheduled_at: DateTime
    """When it is booked."""
    status: ExamStatus = "scheduled"
    """scheduled, completed, cancelled or no_show."""
    od_sphere: Sphere | None = None
    """Right eye sphere."""
    od_cylinder: Cylinder = 0.0
    """Right eye cylinder."""
    od_axis: Axis | None = None
    """Right eye axis."""
    os_sphere: Sphere | None = None
    """Left eye sphere."""
    os_cylinder: Cylinder = 0.0
    """Left eye cylinder."""
    os_axis: Axis | None = None
    """Left eye axis."""
    add_power: Add = 0.0
    """Near add (both eyes)."""
    iop_od: Iop | None = None
    """Right eye pressure."""
    iop_os: Iop | None = None
    """Left eye pressure."""
    notes: Text = ""
    """Clinical notes."""


class Prescription(Timestamped):
    """A finalized spectacle or contact lens prescription."""

    id: RxId
    patient_id: PatientId
    """The patient."""
    exam_id: ExamId
    """The exam it came from."""
    kind: RxKind
    """spectacle or contact_lens."""
    od_sphere: Sphere
    """Right eye sphere."""
    od_cylinder: Cylinder = 0.0
    """Right eye cylinder."""
    od_axis: Axis | None = None
    """Right eye axis."""
    os_sphere: Sphere
    """Left eye sphere."""
    os_cylinder: Cylinder = 0.0
    """Left eye cylinder."""
    os_axis: Axis | None = None
    """Left eye axis."""
    add_power: Add = 0.0
    """Near add."""
    lens_brand: Annotated[str, StringConstraints(max_length=60)] | None = None
    """Contact lens brand (contact lens Rx only)."""
    issued_on: Date
    """The day it was finalized."""
    expires_on: Date
    """The last day it can be filled."""
    status: RxStatus = "active"
    """active, superseded, expired or voided."""


class Order(Timestamped):
    """An eyewear order (glasses or a supply of contacts) sent to an optical lab."""

    id: OrderId
    patient_id: PatientId
    """The patient."""
    prescription_id: RxId
    """The prescription filled."""
    kind: OrderKind
    """glasses or contacts."""
    lab: Lab
    """essilor, hoya, zeiss or vsp_optics."""
    lens_type: LensType
    """single_vision, progressive, bifocal, daily_disposable, monthly or toric."""
    frame_name: Annotated[str, StringConstraints(max_length=80)] | None = None
    """The frame (glasses only)."""
    price_cents: Cents
    """What the patient pays."""
    status: OrderStatus = "draft"
    """draft, sent_to_lab, received, dispensed, remade or cancelled."""
    lab_job: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}-\d{6}$")] | None = None
    """The lab's job number once sent."""
    remake_of: OrderId | None = None
    """The order this one remakes."""
    dispensed_at: DateTime | None = None
    """When the patient picked it up."""


class Recall(Timestamped):
    """A reminder to bring a patient back."""

    id: RecallId
    patient_id: PatientId
    """The patient."""
    reason: RecallReason
    """annual_exam, contact_lens_renewal or glaucoma_follow_up."""
    due_date: Date
    """When they are due."""
    status: RecallStatus = "pending"
    """pending, contacted, scheduled or closed."""
    attempts: int = 0
    """How many times the practice reached out."""


# -- rules ------------------------------------------------------------------------------------


def _axes(cyl_od: float, axis_od: int | None, cyl_os: float, axis_os: int | None) -> None:
    for eye, cyl, axis in (("od", cyl_od, axis_od), ("os", cyl_os, axis_os)):
        if cyl != 0 and axis is None:
            raise RuleViolation(
                f"a {eye.upper()} cylinder of {cyl} needs an axis", field=f"{eye}_axis", hint="give the axis (1-180)"
            )


def _guard_patient(ctx: Ctx, new: Any, old: Any) -> None:
    if new.birth_date > ctx.today():
        raise RuleViolation("the birth date is in the future", field="birth_date", hint="check the date")


patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pt",
    create=("name", "email", "phone", "birth_date", "vision_plan"),
    filters=("email", "vision_plan", "active"),
    search=("name",),
    update=("email", "phone", "vision_plan", "active"),
    delete=False,
    unique=("email",),
    guard_create=_guard_patient,
)
doctors = service.resource(
    Doctor,
    name="doctor",
    plural="doctors",
    prefix="dr",
    create=False,
    filters=("email", "npi"),
    search=("name",),
    delete=False,
)
exams = service.resource(
    Exam,
    name="exam",
    plural="exams",
    prefix="ex",
    create=False,
    filters=("patient_id", "doctor_id", "status", "exam_type"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("scheduled",), "cancelled", "cancel the eye exam"),
        "no_show": Transition("status", ("scheduled",), "no_show", "mark the patient a no-show for the exam"),
    },
)
prescriptions = service.resource(
    Prescription,
    name="prescription",
    plural="prescriptions",
    prefix="rx",
    create=False,
    filters=("patient_id", "kind", "status", "exam_id"),
    delete=False,
    transitions={
        "void": Transition("status", ("active",), "voided", "void the prescription", destructive=True),
    },
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("patient_id", "status", "lab", "kind", "lab_job"),
    delete=False,
    title="eyewear order",
)
recalls = service.resource(
    Recall,
    name="recall",
    plural="recalls",
    prefix="rcl",
    create=("patient_id", "reason", "due_date"),
    filters=("patient_id", "status", "reason"),
    delete=False,
    transitions={"close": Transition("status", ("pending", "contacted", "scheduled"), "closed", "close the recall")},
)


# -- domain tools -----------------------------------------------------------------------------


def _example_exam(ctx: Ctx) -> dict[str, Any] | None:
    pt = ctx.first(Patient, active=True)
    dr = ctx.first(Doctor)
    if pt is None or dr is None:
        return None
    when = utc_at(ctx.today() + dt.timedelta(days=9), 15)
    return {"patient_id": pt.id, "doctor_id": dr.id, "exam_type": "comprehensive", "scheduled_at": when.isoformat()}


@service.tool(intent="schedule an eye exam for the patient", write=True, example=_example_exam)
def schedule_exam(
    ctx: Ctx, patient_id: PatientId, doctor_id: DoctorId, exam_type: ExamType, scheduled_at: DateTime
) -> Exam:
    """Book an eye exam for an active patient with an optometrist free at that time; open recalls become scheduled.

    Args:
        patient_id: The patient.
        doctor_id: The optometrist.
        exam_type: comprehensive, contact_lens_fitting or medical.
        scheduled_at: When (in the future).
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    if not pt.active:
        raise RuleViolation(f"{pt.name} is inactive", field="patient_id", hint="reactivate the patient first")
    dr = ctx.get(Doctor, doctor_id, field="doctor_id")
    if scheduled_at <= ctx.now():
        raise RuleViolation("the exam time has passed", field="scheduled_at", hint="pick a future time")
    for other in ctx.where(Exam, doctor_id=dr.id, status="scheduled"):
        if abs((other.scheduled_at - scheduled_at).total_seconds()) < 30 * 60:
            raise Conflict(f"Dr. {dr.name} has exam {other.id} then", field="scheduled_at", hint="pick another time")
    exam = ctx.create(Exam, patient_id=pt.id, doctor_id=dr.id, exam_type=exam_type, scheduled_at=scheduled_at)
    for r in ctx.where(Recall, patient_id=pt.id):
        if r.status in ("pending", "contacted"):
            ctx.update(r, status="scheduled")
    return exam


def _example_refraction(ctx: Ctx) -> dict[str, Any] | None:
    ex = ctx.first(Exam, status="scheduled")
    if ex is None:
        return None
    return {"exam_id": ex.id, "od_sphere": -1.25, "os_sphere": -1.5, "os_cylinder": -0.5, "os_axis": 90}


@service.tool(intent="record the refraction of the exam", write=True, example=_example_refraction)
def record_refraction(
    ctx: Ctx,
    exam_id: ExamId,
    od_sphere: Sphere,
    os_sphere: Sphere,
    od_cylinder: Cylinder = 0.0,
    od_axis: Axis | None = None,
    os_cylinder: Cylinder = 0.0,
    os_axis: Axis | None = None,
    add_power: Add = 0.0,
    iop_od: Iop | None = None,
    iop_os: Iop | None = None,
) -> Exam:
    """Record the manifest refraction (and pressures) of a scheduled exam; a cylinder needs its axis.

    Args:
        exam_id: A scheduled exam.
        od_sphere: Right eye sphere.
        os_sphere: Left eye sphere.
        od_cylinder: Right eye cylinder (0 or negative).
        od_axis: Right eye axis (needed with a cylinder).
        os_cylinder: Left eye cylinder.
        os_axis: Left eye axis.
        add_power: Near add.
        iop_od: Right eye pressure, mmHg.
        iop_os: Left eye pressure, mmHg.
    """
    ex = ctx.get(Exam, exam_id, field="exam_id")
    if ex.status != "scheduled":
        raise RuleViolation(f"exam {ex.id} is {ex.status}", field="exam_id", hint="refract during a scheduled exam")
    _axes(od_cylinder, od_axis, os_cylinder, os_axis)
    return ctx.update(
        ex,
        od_sphere=od_sphere,
        od_cylinder=od_cylinder,
        od_axis=od_axis if od_cylinder else None,
        os_sphere=os_sphere,
        os_cylinder=os_cylinder,
        os_axis=os_axis if os_cylinder else None,
        add_power=add_power,
        iop_od=iop_od,
        iop_os=iop_os,
    )


@service.tool(
    intent="complete the eye exam",
    write=True,
    example=first_example(
        Exam,
        "exam_id",
        where={"status": "scheduled"},
        match=lambda c, e: e.od_sphere is not None,
        notes="Healthy fundus.",
    ),
)
def complete_exam(ctx: Ctx, exam_id: ExamId, notes: Text = "") -> Exam:
    """Complete a scheduled exam whose refraction is recorded; the patient's recalls close and a new annual one opens.

    Args:
        exam_id: A scheduled exam with its refraction.
        notes: Clinical notes.
    """
    ex = ctx.get(Exam, exam_id, field="exam_id")
    if ex.status != "scheduled":
        raise RuleViolation(f"exam {ex.id} is {ex.status}", field="exam_id", hint="complete a scheduled exam")
    if ex.od_sphere is None or ex.os_sphere is None:
        raise RuleViolation(
            "the refraction is not recorded", field="exam_id", hint="record it with optometry__record_refraction"
        )
    for r in ctx.where(Recall, patient_id=ex.patient_id):
        if r.status != "closed":
            ctx.update(r, status="closed")
    ctx.create(Recall, patient_id=ex.patient_id, reason="annual_exam", due_date=add_months(ctx.today(), 12))
    return ctx.update(ex, status="completed", notes=notes)


@service.tool(
    intent="issue a prescription from the exam",
    write=True,
    example=first_example(Exam, "exam_id", where={"status": "completed"}, kind="spectacle"),
)
def issue_prescription(
    ctx: Ctx,
    exam_id: ExamId,
    kind: RxKind,
    lens_brand: Annotated[str, StringConstraints(max_length=60)] | None = None,
) -> Prescription:
    """Finalize a spectacle or contact lens Rx from a completed exam's refraction; it supersedes the active one.

    Spectacle prescriptions are valid 24 months, contact lens ones 12 and need a contact lens fitting exam.

    Args:
        exam_id: A completed exam.
        kind: spectacle or contact_lens.
        lens_brand: The fitted contact lens brand (contact_lens only).
    """
    ex = ctx.get(Exam, exam_id, field="exam_id")
    if ex.status != "completed" or ex.od_sphere is None or ex.os_sphere is None:
        raise RuleViolation(f"exam {ex.id} is {ex.status}", field="exam_id", hint="finalize from a completed exam")
    if kind == "contact_lens" and ex.exam_type != "contact_lens_fitting":
        raise RuleViolation(
            f"exam {ex.id} is a {ex.exam_type} exam", field="kind", hint="a contact lens Rx needs a fitting exam"
        )
    if ctx.first(Prescription, exam_id=ex.id, kind=kind, status="active") is not None:
        raise Conflict(f"exam {ex.id} already has an active {kind} Rx", field="exam_id", hint="use that one")
    for old in ctx.where(Prescription, patient_id=ex.patient_id, kind=kind, status="active"):
        ctx.update(old, status="superseded")
    today = ctx.today()
    return ctx.create(
        Prescription,
        patient_id=ex.patient_id,
        exam_id=ex.id,
        kind=kind,
        od_sphere=ex.od_sphere,
        od_cylinder=ex.od_cylinder,
        od_axis=ex.od_axis,
        os_sphere=ex.os_sphere,
        os_cylinder=ex.os_cylinder,
        os_axis=ex.os_axis,
        add_power=ex.add_power,
        lens_brand=lens_brand if kind == "contact_lens" else None,
        issued_on=today,
        expires_on=add_months(today, VALID_MONTHS[kind]),
    )


def _fillable(ctx: Ctx, rx_id: str, kind: str) -> Prescription:
    rx = ctx.get(Prescription, rx_id, field="prescription_id")
    if rx.status != "active" or rx.expires_on < ctx.today():
        raise RuleViolation(
            f"prescription {rx.id} is {rx.status} and expires {rx.expires_on}",
            field="prescription_id",
            hint="the patient needs a new exam and prescription",
        )
    if ORDER_KIND_RX[kind] != rx.kind:
        raise RuleViolation(
            f"{kind} are made from a {ORDER_KIND_RX[kind]} Rx, not a {rx.kind} one",
            field="prescription_id",
            hint="pick the patient's matching prescription",
        )
    return rx


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    for rx in ctx.where(Prescription, status="active", kind="spectacle"):
        if rx.expires_on >= ctx.today():
            return {
                "prescription_id": rx.id,
                "kind": "glasses",
                "lab": "essilor",
                "lens_type": "single_vision",
                "frame_name": "Ray-Ban RB5154 Clubmaster",
                "price_cents": 28900,
            }
    return None


@service.tool(intent="order eyewear from the lab", write=True, example=_example_order)
def create_order(
    ctx: Ctx,
    prescription_id: RxId,
    kind: OrderKind,
    lab: Lab,
    lens_type: LensType,
    price_cents: Cents,
    frame_name: Annotated[str, StringConstraints(max_length=80)] | None = None,
) -> Order:
    """Start an eyewear order (draft) filling the patient's active, unexpired prescription of the matching kind.

    Args:
        prescription_id: The prescription to fill.
        kind: glasses or contacts.
        lab: essilor, hoya, zeiss or vsp_optics.
        lens_type: Spectacle lenses for glasses, daily_disposable/monthly/toric for contacts.
        price_cents: What the patient pays.
        frame_name: The frame (glasses need one).
    """
    rx = _fillable(ctx, prescription_id, kind)
    if (lens_type in CONTACT_LENSES) != (kind == "contacts"):
        raise RuleViolation(f"{lens_type} lenses do not fit {kind}", field="lens_type", hint="match lens type and kind")
    if kind == "glasses" and not frame_name:
        raise RuleViolation("glasses need a frame", field="frame_name", hint="name the frame the patient chose")
    return ctx.create(
        Order,
        patient_id=rx.patient_id,
        prescription_id=rx.id,
        kind=kind,
        lab=lab,
        lens_type=lens_type,
        frame_name=frame_name if kind == "glasses" else None,
        price_cents=price_cents,
    )


STEP_FROM: dict[str, tuple[OrderStatus, ...]] = {
    "send": ("draft",),
    "receive": ("sent_to_lab",),
    "dispense": ("received",),
    "cancel": ("draft", "sent_to_lab"),
    "remake": ("received", "dispensed"),
}


def _order_in(ctx: Ctx, order_id: str, step: str) -> Order:
    order = ctx.get(Order, order_id, field="order_id")
    allowed = STEP_FROM[step]
    if order.status in allowed:
        return order
    raise RuleViolation(
        f"cannot {step} order {order.id}: it is {order.status}",
        field="order_id",
        hint=f"an order can {step} only when {' or '.join(allowed)}",
    )


@service.tool(
    intent="send the order to the lab", write=True, example=first_example(Order, "order_id", where={"status": "draft"})
)
def send_to_lab(ctx: Ctx, order_id: OrderId) -> Order:
    """Transmit a draft order to its lab (the Rx must still be fillable); the lab assigns a job number.

    Args:
        order_id: A draft order.
    """
    order = _order_in(ctx, order_id, "send")
    _fillable(ctx, order.prescription_id, order.kind)
    job = f"{order.lab[:2].upper()}-{300000 + ctx.next_number(Order, 'lab_job'):06d}"
    return ctx.update(order, status="sent_to_lab", lab_job=job)


@service.tool(
    intent="receive the order from the lab",
    write=True,
    example=first_example(Order, "order_id", where={"status": "sent_to_lab"}),
)
def receive_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Check in an order the lab has delivered to the practice.

    Args:
        order_id: An order at the lab.
    """
    return ctx.update(_order_in(ctx, order_id, "receive"), status="received")


@service.tool(
    intent="dispense the eyewear to the patient",
    write=True,
    example=first_example(Order, "order_id", where={"status": "received"}),
)
def dispense_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Hand a received order to the patient.

    Args:
        order_id: A received order.
    """
    return ctx.update(_order_in(ctx, order_id, "dispense"), status="dispensed", dispensed_at=ctx.now())


@service.tool(
    intent="cancel the eyewear order",
    write=True,
    example=first_example(Order, "order_id", where={"status": "draft"}),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel an order the lab has not delivered yet.

    Args:
        order_id: A draft order or one at the lab.
    """
    return ctx.update(_order_in(ctx, order_id, "cancel"), status="cancelled")


@service.tool(
    intent="remake the eyewear order",
    write=True,
    example=first_example(Order, "order_id", where={"status": "received"}, reason="Wrong axis on the left lens."),
)
def remake_order(ctx: Ctx, order_id: OrderId, reason: Text) -> Order:
    """Send a received or dispensed order back for a remake (once): a new order goes to the same lab.

    Args:
        order_id: A received or dispensed order.
        reason: What was wrong (required).
    """
    order = _order_in(ctx, order_id, "remake")
    if not reason.strip():
        raise RuleViolation("a remake needs a reason", field="reason", hint="say what the lab got wrong")
    if order.remake_of is not None:
        raise RuleViolation(
            f"order {order.id} is already a remake", field="order_id", hint="escalate to the lab instead"
        )
    ctx.update(order, status="remade")
    return ctx.create(
        Order,
        patient_id=order.patient_id,
        prescription_id=order.prescription_id,
        kind=order.kind,
        lab=order.lab,
        lens_type=order.lens_type,
        frame_name=order.frame_name,
        price_cents=0,
        status="sent_to_lab",
        lab_job=f"{order.lab[:2].upper()}-{300000 + ctx.next_number(Order, 'lab_job'):06d}",
        remake_of=order.id,
    )


@service.tool(
    intent="log an outreach for the recall",
    write=True,
    example=first_example(Recall, "recall_id", where={"status": "pending"}),
)
def contact_recall(ctx: Ctx, recall_id: RecallId) -> Recall:
    """Log a reminder sent to the patient for an open recall (at most three attempts).

    Args:
        recall_id: A pending or contacted recall.
    """
    r = ctx.get(Recall, recall_id, field="recall_id")
    if r.status not in ("pending", "contacted"):
        raise RuleViolation(f"recall {r.id} is {r.status}", field="recall_id", hint="only open recalls are worked")
    if r.attempts >= 3:
        raise RuleViolation("three attempts were made", field="recall_id", hint="close the recall")
    return ctx.update(r, status="contacted", attempts=r.attempts + 1)


@service.tool(intent="find the patient's prescriptions by e-mail")
def prescriptions_for(ctx: Ctx, email: Email) -> list[Prescription]:
    """The prescriptions of the patient with this e-mail, newest first (expired ones marked expired).

    Args:
        email: The patient's e-mail.
    """
    pt = ctx.first(Patient, email=email)
    if pt is None:
        raise RuleViolation(f"no patient with e-mail {email}", field="email", hint="search patients by name")
    today = ctx.today()
    found = sorted(ctx.where(Prescription, patient_id=pt.id), key=lambda r: r.issued_on, reverse=True)
    return [
        r.model_copy(update={"status": "expired"}) if r.status == "active" and r.expires_on < today else r
        for r in found
    ]


# -- seed -------------------------------------------------------------------------------------

FRAMES = ("Ray-Ban RB5154 Clubmaster", "Warby Parker Durand", "Oakley Pitchman R", "Tom Ford FT5401", "Silhouette 5500")


@service.seeder
def seed(s: SeedContext) -> None:
    """Clinicians as optometrists, consumer patients with exams, prescriptions in every status, orders and recalls."""
    pop = s.population
    docs = [
        s.create(Doctor, name=p.name, email=p.email, npi=provider_npi(i), created_at=s.ago(days=900))
        for i, (p, _) in enumerate(clinicians(pop)[:3])
    ]
    keys = {p.key for p, _ in clinicians(pop)}
    people = [p for p in pop.consumers if p.key not in keys][:12]
    today = s.now.date()
    for k, p in enumerate(people):
        pt = s.create(
            Patient,
            name=p.name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            vision_plan=("vsp", "eyemed", "davis", "spectera", "self_pay")[k % 5],
            active=k != 11,
            created_at=s.ago(days=800 - 30 * k),
        )
        dr = docs[k % len(docs)]
        contacts = k % 3 == 1
        sph = -0.25 * (2 + (k * 5) % 17)
        cyl = -0.25 * (k % 4)
        past = s.ago(days=60 + 70 * k)
        ex = s.create(
            Exam,
            patient_id=pt.id,
            doctor_id=dr.id,
            exam_type="contact_lens_fitting" if contacts else "comprehensive",
            scheduled_at=past,
            status="completed",
            od_sphere=sph,
            od_cylinder=cyl,
            od_axis=90 + 5 * k if cyl else None,
            os_sphere=sph - 0.25,
            os_cylinder=0.0,
            add_power=1.5 if pt.birth_date.year < today.year - 45 else 0.0,
            iop_od=14 + k % 5,
            iop_os=15 + k % 4,
            notes="Healthy posterior segment.",
            created_at=past,
        )
        issued = past.date()
        rx_kind: RxKind = "contact_lens" if contacts else "spectacle"
        expires = add_months(issued, VALID_MONTHS[rx_kind])
        rx = s.create(
            Prescription,
            patient_id=pt.id,
            exam_id=ex.id,
            kind=rx_kind,
            od_sphere=ex.od_sphere,
            od_cylinder=cyl,
            od_axis=ex.od_axis,
            os_sphere=ex.os_sphere,
            add_power=ex.add_power,
            lens_brand="Acuvue Oasys 1-Day" if contacts else None,
            issued_on=issued,
            expires_on=expires,
            status="active" if expires >= today else "expired",
            created_at=past,
        )
        if rx.status == "active" and k < 8:
            status: OrderStatus = ("draft", "sent_to_lab", "received", "dispensed")[k % 4]
            s.create(
                Order,
                patient_id=pt.id,
                prescription_id=rx.id,
                kind="contacts" if contacts else "glasses",
                lab=("essilor", "hoya", "zeiss", "vsp_optics")[k % 4],
                lens_type="daily_disposable" if contacts else ("progressive" if ex.add_power else "single_vision"),
                frame_name=None if contacts else FRAMES[k % len(FRAMES)],
                price_cents=12900 + 4000 * (k % 5),
                status=status,
                lab_job=None if status == "draft" else f"{('ES', 'HO', 'ZE', 'VS')[k % 4]}-{210400 + 17 * k:06d}",
                dispensed_at=past + dt.timedelta(days=10) if status == "dispensed" else None,
                created_at=past,
            )
        due = add_months(issued, 12)
        s.create(
            Recall,
            patient_id=pt.id,
            reason="contact_lens_renewal" if contacts else "annual_exam",
            due_date=due,
            status="pending" if due >= today - dt.timedelta(days=90) else "contacted",
            attempts=0 if due >= today - dt.timedelta(days=90) else 1,
        )
        if k in (2, 5):
            s.create(
                Exam,
                patient_id=pt.id,
                doctor_id=dr.id,
                exam_type="comprehensive",
                scheduled_at=s.ago(minutes=20) if k == 2 else utc_at(today + dt.timedelta(days=2 + k), 14),
                od_sphere=sph - 0.25 if k == 2 else None,
                os_sphere=sph - 0.5 if k == 2 else None,
            )
