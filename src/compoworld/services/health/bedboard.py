"""Harbor Patient Flow: units, beds, placement requests, transfers, discharges and bed cleaning.

Modeled on TeleTracking Capacity Management (the bed board of a hospital's
nursing units: beds that are clean and available, reserved, occupied, dirty,
being cleaned or blocked; patient placement requests from the ED or a
direct admission with the level of care, isolation need and priority, that
the bed placement center assigns to a bed and completes when the patient
arrives; transfers between beds; discharges that release the bed to
environmental services (EVS), whose cleaning jobs go pending → in progress →
completed, a terminal clean after isolation patients, before the bed is
available again; and the census per unit): a bed is assigned only if it is
clean and available on a unit of the requested level of care, an airborne
isolation patient only gets a negative-pressure bed, a telemetry patient only
a monitored bed, and stat requests raise the priority of the cleaning jobs.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "bedboard",
    title="Harbor Patient Flow",
    category="bed_management",
    modeled_on="TeleTracking Capacity Management: bed board statuses, patient placement requests (assign, complete, "
    "cancel), transfers, discharges, EVS cleaning jobs with terminal cleans, unit census",
    description="A hospital's bed board: nursing units and their beds, patients waiting for a bed from the emergency "
    "department or a direct admission, bed assignments by level of care and isolation, transfers, discharges, and "
    "the environmental services jobs that clean beds before the next patient.",
)

UnitId = Annotated[str, IdOf("bedboard.unit")]
BedId = Annotated[str, IdOf("bedboard.bed")]
PatientId = Annotated[str, IdOf("bedboard.patient")]
RequestId = Annotated[str, IdOf("bedboard.request")]
JobId = Annotated[str, IdOf("bedboard.evs_job")]

Level = Literal["med_surg", "telemetry", "icu", "pediatrics"]
Isolation = Literal["none", "contact", "droplet", "airborne"]
BedStatus = Literal["available", "reserved", "occupied", "dirty", "cleaning", "blocked"]
PatientStatus = Literal["waiting", "admitted", "discharged"]
Priority = Literal["routine", "urgent", "stat"]
RequestStatus = Literal["pending", "assigned", "completed", "cancelled"]
Origin = Literal["emergency", "direct_admit", "pacu", "transfer_in"]
JobStatus = Literal["pending", "in_progress", "completed"]


class Unit(Timestamped):
    """A nursing unit."""

    id: UnitId
    name: Title
    """Its name (e.g. 4 West Med/Surg)."""
    level: Level
    """The level of care it provides."""
    manager_email: Email
    """The nurse manager."""


class Bed(Timestamped):
    """A bed on a unit."""

    id: BedId
    unit_id: UnitId
    """The unit."""
    label: Annotated[str, StringConstraints(pattern=r"^[0-9][A-Z]{1,2}-[0-9]{3}[AB]?$")]
    """Room and bed (e.g. 4W-412A)."""
    negative_pressure: bool = False
    """Airborne-isolation room."""
    telemetry: bool = False
    """Cardiac monitoring."""
    status: BedStatus = "available"
    """available, reserved, occupied, dirty, cleaning or blocked."""
    patient_id: PatientId | None = None
    """The patient in (or reserved for) it."""
    blocked_reason: Annotated[str, StringConstraints(max_length=120)] | None = None
    """Why it is blocked."""


class Patient(Timestamped):
    """A patient needing or holding a bed."""

    id: PatientId
    name: PersonName
    """Full name."""
    mrn: Annotated[str, StringConstraints(pattern=r"^MRN[0-9]{6}$")]
    """Medical record number."""
    birth_date: Date
    """Date of birth."""
    isolation: Isolation = "none"
    """none, contact, droplet or airborne."""
    status: PatientStatus = "waiting"
    """waiting, admitted or discharged."""
    bed_id: BedId | None = None
    """The bed they are in."""
    attending: PersonName | None = None
    """The attending physician."""


class Request(Timestamped):
    """A patient placement request."""

    id: RequestId
    patient_id: PatientId
    """The patient."""
    level: Level
    """Level of care needed."""
    needs_telemetry: bool = False
    """Needs a monitored bed."""
    origin: Origin
    """emergency, direct_admit, pacu or transfer_in."""
    priority: Priority = "routine"
    """routine, urgent or stat."""
    status: RequestStatus = "pending"
    """pending, assigned, completed or cancelled."""
    bed_id: BedId | None = None
    """The bed assigned."""
    requested_at: DateTime
    """When it was requested."""


class EvsJob(Timestamped):
    """An environmental services cleaning job."""

    id: JobId
    bed_id: BedId
    """The bed."""
    terminal: bool = False
    """A terminal (isolation) clean."""
    priority: Priority = "routine"
    """routine, urgent or stat."""
    status: JobStatus = "pending"
    """pending, in_progress or completed."""
    started_at: DateTime | None = None
    """When cleaning began."""
    completed_at: DateTime | None = None
    """When it finished."""


class Census(Value):
    """A unit's beds by status."""

    unit_id: UnitId
    """The unit."""
    name: Title
    """Its name."""
    beds: int
    """Beds on the unit."""
    by_status: dict[BedStatus, int]
    """Beds per status."""
    occupancy_pct: float
    """Occupied beds as a share of unblocked beds."""


# -- rules ------------------------------------------------------------------------------------

units = service.resource(
    Unit,
    name="unit",
    plural="units",
    prefix="unit",
    create=False,
    filters=("level", "manager_email"),
    search=("name",),
    delete=False,
)
beds = service.resource(
    Bed,
    name="bed",
    plural="beds",
    prefix="bed",
    create=False,
    filters=("unit_id", "status", "negative_pressure", "telemetry", "label"),
    delete=False,
    transitions={
        "unblock": Transition("status", ("blocked",), "dirty", "unblock the bed (it is cleaned first)"),
    },
)
patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pt",
    create=False,
    filters=("mrn", "status", "isolation", "bed_id"),
    search=("name",),
    update=("isolation", "attending"),
    delete=False,
    unique=("mrn",),
)
requests = service.resource(
    Request,
    name="request",
    plural="requests",
    prefix="req",
    create=False,
    filters=("patient_id", "status", "priority", "level", "origin"),
    delete=False,
    title="placement request",
)
jobs = service.resource(
    EvsJob,
    name="evs_job",
    plural="evs_jobs",
    prefix="evs",
    create=False,
    filters=("bed_id", "status", "priority"),
    delete=False,
    title="cleaning job",
)


def _release(ctx: Ctx, bed: Bed, patient: Patient) -> None:
    """The bed goes dirty and a cleaning job opens (terminal after isolation)."""
    ctx.update(bed, status="dirty", patient_id=None)
    waiting = any(r.priority == "stat" for r in ctx.where(Request, status="pending"))
    ctx.create(EvsJob, bed_id=bed.id, terminal=patient.isolation != "none", priority="stat" if waiting else "routine")


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="block the bed",
    write=True,
    example=first_example(Bed, "bed_id", where={"status": "available"}, reason="Broken call light"),
)
def block_bed(ctx: Ctx, bed_id: BedId, reason: Annotated[str, StringConstraints(min_length=3, max_length=120)]) -> Bed:
    """Take an available bed out of service (maintenance, staffing), with a reason.

    Args:
        bed_id: An available bed.
        reason: Why.
    """
    bed = ctx.get(Bed, bed_id, field="bed_id")
    if bed.status != "available":
        raise RuleViolation(f"bed {bed.label} is {bed.status}", field="bed_id", hint="only available beds are blocked")
    return ctx.update(bed, status="blocked", blocked_reason=reason)


@service.tool(
    intent="register the patient for a bed",
    write=True,
    example=lambda ctx: {"name": "Nora Quinn", "birth_date": "1952-04-18", "isolation": "droplet"},
)
def register_patient(
    ctx: Ctx, name: PersonName, birth_date: Date, isolation: Isolation = "none", attending: PersonName | None = None
) -> Patient:
    """Register a patient who needs a bed; the hospital assigns the next medical record number.

    Args:
        name: Full name.
        birth_date: Date of birth (not in the future).
        isolation: none, contact, droplet or airborne.
        attending: The attending physician.
    """
    if birth_date > ctx.today():
        raise RuleViolation("the birth date is in the future", field="birth_date", hint="check the date")
    mrn = f"MRN{700000 + ctx.next_number(Patient, 'mrn'):06d}"
    return ctx.create(Patient, name=name, mrn=mrn, birth_date=birth_date, isolation=isolation, attending=attending)


@service.tool(
    intent="request a bed for the patient",
    write=True,
    example=first_example(
        Patient,
        "patient_id",
        where={"status": "waiting"},
        match=lambda c, p: not any(r.status in ("pending", "assigned") for r in c.where(Request, patient_id=p.id)),
        level="med_surg",
        origin="emergency",
    ),
)
def request_bed(
    ctx: Ctx,
    patient_id: PatientId,
    level: Level,
    origin: Origin,
    priority: Priority = "routine",
    needs_telemetry: bool = False,
) -> Request:
    """Open a placement request for a waiting patient (one open request each).

    Args:
        patient_id: A waiting patient.
        level: med_surg, telemetry, icu or pediatrics.
        origin: emergency, direct_admit, pacu or transfer_in.
        priority: routine, urgent or stat.
        needs_telemetry: Needs a monitored bed.
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    if pt.status != "waiting":
        raise RuleViolation(f"{pt.name} is {pt.status}", field="patient_id", hint="transfer admitted patients")
    for r in ctx.where(Request, patient_id=pt.id):
        if r.status in ("pending", "assigned"):
            raise Conflict(f"request {r.id} is {r.status}", field="patient_id", hint="work the open request")
    return ctx.create(
        Request,
        patient_id=pt.id,
        level=level,
        origin=origin,
        priority=priority,
        needs_telemetry=needs_telemetry or level == "telemetry",
        requested_at=ctx.now(),
    )


def _fit(ctx: Ctx, bed: Bed, level: str, telemetry: bool, isolation: str) -> str | None:
    unit = ctx.get(Unit, bed.unit_id)
    if bed.status != "available":
        return f"bed {bed.label} is {bed.status}"
    if unit.level != level:
        return f"{unit.name} is a {unit.level} unit, the patient needs {level}"
    if isolation == "airborne" and not bed.negative_pressure:
        return f"bed {bed.label} is not a negative-pressure room"
    if telemetry and not bed.telemetry:
        return f"bed {bed.label} has no telemetry"
    return None


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Request, status="pending"):
        pt = ctx.get(Patient, r.patient_id)
        for bed in ctx.where(Bed, status="available"):
            if _fit(ctx, bed, r.level, r.needs_telemetry, pt.isolation) is None:
                return {"request_id": r.id, "bed_id": bed.id}
    return None


@service.tool(intent="assign a bed to the placement request", write=True, example=_example_assign)
def assign_bed(ctx: Ctx, request_id: RequestId, bed_id: BedId) -> Request:
    """Assign a pending request a clean, available bed of its level of care; the bed is reserved.

    The bed must meet the patient's isolation (negative pressure for airborne) and telemetry needs.

    Args:
        request_id: A pending request.
        bed_id: The bed.
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status != "pending":
        raise RuleViolation(f"request {r.id} is {r.status}", field="request_id", hint="only pending requests")
    bed = ctx.get(Bed, bed_id, field="bed_id")
    pt = ctx.get(Patient, r.patient_id)
    why = _fit(ctx, bed, r.level, r.needs_telemetry, pt.isolation)
    if why is not None:
        raise RuleViolation(why, field="bed_id", hint="pick another bed from bedboard__list_beds")
    ctx.update(bed, status="reserved", patient_id=pt.id)
    return ctx.update(r, status="assigned", bed_id=bed.id)


@service.tool(
    intent="complete the placement when the patient arrives",
    write=True,
    example=first_example(Request, "request_id", where={"status": "assigned"}),
)
def complete_placement(ctx: Ctx, request_id: RequestId) -> Patient:
    """The patient arrived in the reserved bed: the bed is occupied and the patient admitted.

    Args:
        request_id: An assigned request.
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status != "assigned" or r.bed_id is None:
        raise RuleViolation(f"request {r.id} is {r.status}", field="request_id", hint="assign a bed first")
    bed = ctx.get(Bed, r.bed_id)
    ctx.update(bed, status="occupied")
    ctx.update(r, status="completed")
    return ctx.update(ctx.get(Patient, r.patient_id), status="admitted", bed_id=bed.id)


@service.tool(
    intent="cancel the placement request",
    write=True,
    example=first_example(Request, "request_id", where={"status": "pending"}),
)
def cancel_request(ctx: Ctx, request_id: RequestId) -> Request:
    """Cancel a pending or assigned request; a reserved bed becomes available again.

    Args:
        request_id: A pending or assigned request.
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status not in ("pending", "assigned"):
        raise RuleViolation(f"request {r.id} is {r.status}", field="request_id", hint="it is already closed")
    if r.bed_id is not None:
        ctx.update(ctx.get(Bed, r.bed_id), status="available", patient_id=None)
    return ctx.update(r, status="cancelled")


@service.tool(
    intent="transfer the patient to another bed",
    write=True,
    example=lambda ctx: next(
        (
            {"patient_id": p.id, "bed_id": b.id}
            for p in ctx.where(Patient, status="admitted", isolation="none")
            if p.bed_id
            for b in ctx.where(Bed, status="available", unit_id=ctx.get(Bed, p.bed_id).unit_id)
        ),
        None,
    ),
)
def transfer_patient(ctx: Ctx, patient_id: PatientId, bed_id: BedId) -> Patient:
    """Move an admitted patient to an available bed (meeting isolation needs); the old bed goes to cleaning.

    Args:
        patient_id: An admitted patient.
        bed_id: The new bed.
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    if pt.status != "admitted" or pt.bed_id is None:
        raise RuleViolation(f"{pt.name} is {pt.status}", field="patient_id", hint="place waiting patients instead")
    new = ctx.get(Bed, bed_id, field="bed_id")
    level = ctx.get(Unit, new.unit_id).level
    why = _fit(ctx, new, level, False, pt.isolation)
    if why is not None:
        raise RuleViolation(why, field="bed_id", hint="pick an available bed that meets the patient's needs")
    _release(ctx, ctx.get(Bed, pt.bed_id), pt)
    ctx.update(new, status="occupied", patient_id=pt.id)
    return ctx.update(pt, bed_id=new.id)


@service.tool(
    intent="discharge the patient",
    write=True,
    destructive=True,
    example=first_example(Patient, "patient_id", where={"status": "admitted"}),
)
def discharge_patient(ctx: Ctx, patient_id: PatientId) -> Patient:
    """Discharge an admitted patient: the bed goes dirty and a cleaning job opens (terminal after isolation).

    Args:
        patient_id: An admitted patient.
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    if pt.status != "admitted" or pt.bed_id is None:
        raise RuleViolation(f"{pt.name} is {pt.status}", field="patient_id", hint="only admitted patients leave")
    _release(ctx, ctx.get(Bed, pt.bed_id), pt)
    return ctx.update(pt, status="discharged", bed_id=None)


@service.tool(
    intent="start cleaning the bed",
    write=True,
    example=first_example(EvsJob, "evs_job_id", where={"status": "pending"}),
)
def start_cleaning(ctx: Ctx, evs_job_id: JobId) -> EvsJob:
    """An EVS tech starts a pending job; the bed is being cleaned.

    Args:
        evs_job_id: A pending job.
    """
    job = ctx.get(EvsJob, evs_job_id, field="evs_job_id")
    if job.status != "pending":
        raise RuleViolation(f"job {job.id} is {job.status}", field="evs_job_id", hint="only pending jobs start")
    ctx.update(ctx.get(Bed, job.bed_id), status="cleaning")
    return ctx.update(job, status="in_progress", started_at=ctx.now())


@service.tool(
    intent="finish cleaning the bed",
    write=True,
    example=first_example(EvsJob, "evs_job_id", where={"status": "in_progress"}),
)
def complete_cleaning(ctx: Ctx, evs_job_id: JobId) -> EvsJob:
    """Finish a job in progress; the bed is clean and available.

    Args:
        evs_job_id: A job in progress.
    """
    job = ctx.get(EvsJob, evs_job_id, field="evs_job_id")
    if job.status != "in_progress":
        raise RuleViolation(f"job {job.id} is {job.status}", field="evs_job_id", hint="start it first")
    ctx.update(ctx.get(Bed, job.bed_id), status="available")
    return ctx.update(job, status="completed", completed_at=ctx.now())


@service.tool(intent="show the unit's census", example=first_example(Unit, "unit_id"))
def unit_census(ctx: Ctx, unit_id: UnitId) -> Census:
    """The unit's beds per status and its occupancy.

    Args:
        unit_id: The unit.
    """
    unit = ctx.get(Unit, unit_id, field="unit_id")
    found = ctx.where(Bed, unit_id=unit.id)
    counts: dict[BedStatus, int] = {s: 0 for s in ("available", "reserved", "occupied", "dirty", "cleaning", "blocked")}
    for b in found:
        counts[b.status] += 1
    open_beds = len(found) - counts["blocked"]
    return Census(
        unit_id=unit.id,
        name=unit.name,
        beds=len(found),
        by_status=counts,
        occupancy_pct=round(100 * counts["occupied"] / open_beds, 1) if open_beds else 0.0,
    )


# -- seed -------------------------------------------------------------------------------------

UNITS: tuple[tuple[str, str, Level], ...] = (
    ("4 West Med/Surg", "4W", "med_surg"),
    ("5 East Telemetry", "5E", "telemetry"),
    ("3 North ICU", "3N", "icu"),
    ("2 South Pediatrics", "2S", "pediatrics"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Four units of beds in every status, consumer patients placed, waiting with requests, EVS jobs."""
    pop = s.population
    managers = pop.staff("Operations", "Support", fallback=4)
    people = list(pop.consumers)
    k = 0
    spare: list[Bed] = []
    for u, (name, code, level) in enumerate(UNITS):
        unit = s.create(Unit, name=name, level=level, manager_email=managers[u % len(managers)].email)
        for n in range(6):
            status: BedStatus = ("occupied", "occupied", "available", "dirty", "available", "occupied")[n]
            if u == 0 and n == 5:
                status = "blocked"
            if u == 1 and n == 2:
                status = "cleaning"
            bed = s.create(
                Bed,
                unit_id=unit.id,
                label=f"{code[0]}{code[1:]}-{100 * int(code[0]) + 10 + n:03d}",
                negative_pressure=n == 2 or level == "icu",
                telemetry=level in ("telemetry", "icu"),
                status=status,
                blocked_reason="Bathroom leak" if status == "blocked" else None,
            )
            if status == "available" and level == "med_surg":
                spare.append(bed)
            if status == "occupied":
                p = people[k % len(people)]
                k += 1
                pt = s.create(
                    Patient,
                    name=p.name,
                    mrn=f"MRN{520100 + 17 * k}",
                    birth_date=p.birth_date,
                    isolation="contact" if k % 5 == 0 else "none",
                    status="admitted",
                    attending=None,
                )
                bed = s.update(bed, patient_id=pt.id)
                s.update(pt, bed_id=bed.id)
            if status in ("dirty", "cleaning"):
                s.create(
                    EvsJob,
                    bed_id=bed.id,
                    terminal=n % 2 == 1,
                    status="in_progress" if status == "cleaning" else "pending",
                    started_at=s.ago(minutes=20) if status == "cleaning" else None,
                )
    needs: tuple[tuple[Level, Isolation, Priority], ...] = (
        ("med_surg", "none", "urgent"),
        ("telemetry", "none", "routine"),
        ("icu", "airborne", "stat"),
        ("med_surg", "airborne", "routine"),
        ("med_surg", "none", "routine"),
        ("med_surg", "none", "routine"),
    )
    for j, (need, iso, prio) in enumerate(needs):
        p = people[(k + j) % len(people)]
        pt = s.create(Patient, name=p.name, mrn=f"MRN{610300 + 23 * j}", birth_date=p.birth_date, isolation=iso)
        if j < 4:
            s.create(
                Request,
                patient_id=pt.id,
                level=need,
                origin="emergency" if j % 2 == 0 else "direct_admit",
                priority=prio,
                needs_telemetry=need == "telemetry",
                requested_at=s.ago(hours=1 + j),
            )
        elif j == 4:
            held = s.update(spare[0], status="reserved", patient_id=pt.id)
            s.create(
                Request,
                patient_id=pt.id,
                level=need,
                origin="pacu",
                status="assigned",
                bed_id=held.id,
                requested_at=s.ago(hours=2),
            )
