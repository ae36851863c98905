"""Pawchart: a veterinary practice's owners and animals, appointments, consults, vaccinations, reminders, invoices.

Modeled on the ezyVet API v2 (``contact`` for owners, ``animal`` with species,
breed, sex, microchip and a deceased flag, ``appointment`` with type and
status, ``consult`` with SOAP notes that is finalized and then locked,
``vaccination`` with the next due date, ``reminder``, ``invoice`` with lines
and ``payment``). An appointment books an active animal with a clinician who
is free then; surgery and dental need a veterinarian (a nurse may vaccinate);
it goes scheduled → checked_in → completed, or cancelled or no_show. A
consult opens on a checked-in appointment, one per appointment, and
finalizing it completes the appointment; a finalized consult can no longer be
edited. Vaccines fit the species (DHPP for dogs, FVRCP for cats), need an
animal of at least eight weeks (rabies twelve) and set the next due date by the
vaccine's interval; a due reminder goes to the owner once per due date, only
within 30 days of it and never for a deceased animal. An invoice for a
finalized consult is draft → issued → paid (payments never exceed the balance)
or void (unpaid only). Amounts are cents.
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
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "vetclinic",
    title="Pawchart",
    category="veterinary",
    modeled_on="ezyVet API v2: contacts, animals, appointments, consults (SOAP), vaccinations, reminders, "
    "invoices and payments",
    description="Practice management for a veterinary clinic: pet owners and their animals with microchips, "
    "appointments with vets and nurses, consults with SOAP notes, vaccinations and their due reminders, and "
    "invoices paid by the owners.",
)

OwnerId = Annotated[str, IdOf("vetclinic.owner")]
AnimalId = Annotated[str, IdOf("vetclinic.animal")]
ClinicianId = Annotated[str, IdOf("vetclinic.clinician")]
AppointmentId = Annotated[str, IdOf("vetclinic.appointment")]
ConsultId = Annotated[str, IdOf("vetclinic.consult")]
VaccinationId = Annotated[str, IdOf("vetclinic.vaccination")]
ReminderId = Annotated[str, IdOf("vetclinic.reminder")]
InvoiceId = Annotated[str, IdOf("vetclinic.invoice")]

Microchip = Annotated[str, StringConstraints(pattern=r"^\d{15}$")]
"""An ISO 11784 microchip number (15 digits)."""
Species = Literal["dog", "cat", "rabbit", "bird", "horse"]
Vaccine = Literal["rabies", "dhpp", "fvrcp", "leptospirosis", "bordetella", "felv", "rhdv2"]
ApptType = Literal["consult", "vaccination", "surgery", "dental", "recheck"]
ApptStatus = Literal["scheduled", "checked_in", "completed", "cancelled", "no_show"]

VACCINES: dict[str, tuple[tuple[str, ...], int, int]] = {
    "rabies": (("dog", "cat"), 365 * 3, 12),
    "dhpp": (("dog",), 365, 8),
    "fvrcp": (("cat",), 365, 8),
    "leptospirosis": (("dog",), 365, 12),
    "bordetella": (("dog",), 180, 8),
    "felv": (("cat",), 365, 8),
    "rhdv2": (("rabbit",), 365, 10),
}
"""Species it is for, days until the next dose, and the youngest age in weeks."""
VET_ONLY: tuple[str, ...] = ("surgery", "dental")
REMIND_DAYS = 30


class Owner(Record):
    """A client who owns animals (an ezyVet contact)."""

    id: OwnerId
    name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their e-mail (unique).")
    phone: Phone | None = Field(None, description="Their phone.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When they registered.")


class Animal(Record):
    """A patient animal."""

    id: AnimalId
    owner_id: OwnerId = Field(description="Its owner.")
    name: Annotated[str, StringConstraints(min_length=1, max_length=60)] = Field(description="Its name.")
    species: Species = Field(description="dog, cat, rabbit, bird or horse.")
    breed: Annotated[str, StringConstraints(max_length=80)] = Field("", description="Its breed.")
    sex: Literal["male", "female"] = Field(description="male or female.")
    desexed: bool = Field(False, description="Whether it is neutered or spayed.")
    date_of_birth: Date = Field(description="When it was born.")
    weight_kg: Annotated[float, Field(gt=0, le=1200)] | None = Field(None, description="Last weight.")
    microchip: Microchip | None = Field(None, description="Its microchip (unique).")
    deceased: bool = Field(False, description="Whether it has died.")


class Clinician(Record):
    """A veterinarian or veterinary nurse."""

    id: ClinicianId
    name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their work e-mail.")
    role: Literal["veterinarian", "nurse"] = Field(description="veterinarian or nurse.")


class Appointment(Record):
    """A visit booked for an animal with a clinician."""

    id: AppointmentId
    animal_id: AnimalId = Field(description="The animal.")
    clinician_id: ClinicianId = Field(description="Who sees it.")
    type: ApptType = Field(description="consult, vaccination, surgery, dental or recheck.")
    start_at: DateTime = Field(description="When it starts.")
    duration_minutes: Annotated[int, Field(ge=10, le=480)] = Field(30, description="How long.")
    reason: Text = Field("", description="Why the owner comes.")
    status: ApptStatus = Field("scheduled", description="scheduled, checked_in, completed, cancelled or no_show.")


class Consult(Record):
    """The clinical record of a visit, in SOAP form."""

    id: ConsultId
    appointment_id: AppointmentId = Field(description="The visit.")
    animal_id: AnimalId = Field(description="The animal.")
    clinician_id: ClinicianId = Field(description="Who wrote it.")
    subjective: Text = Field("", description="History from the owner.")
    objective: Text = Field("", description="Examination findings.")
    assessment: Text = Field("", description="Diagnosis.")
    plan: Text = Field("", description="Treatment plan.")
    weight_kg: Annotated[float, Field(gt=0, le=1200)] | None = Field(None, description="Weight measured.")
    status: Literal["open", "finalized"] = Field("open", description="open, or finalized (locked).")
    finalized_at: DateTime | None = Field(None, description="When it was finalized.")


class Vaccination(Record):
    """A vaccine dose given."""

    id: VaccinationId
    animal_id: AnimalId = Field(description="The animal.")
    vaccine: Vaccine = Field(description="The vaccine.")
    given_on: Date = Field(description="When it was given.")
    batch: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{3,20}$")] = Field(description="The batch number.")
    clinician_id: ClinicianId = Field(description="Who gave it.")
    next_due: Date = Field(description="When the next dose is due.")


class Reminder(Record):
    """A due-vaccination reminder sent to the owner."""

    id: ReminderId
    vaccination_id: VaccinationId = Field(description="The dose coming due.")
    animal_id: AnimalId = Field(description="The animal.")
    owner_email: Email = Field(description="Where it went.")
    due_on: Date = Field(description="The due date it announces.")
    channel: Literal["email", "sms"] = Field("email", description="email or sms.")
    sent_at: DateTime = Field(description="When it was sent.")


class Line(Value):
    """An invoice line."""

    description: Title = Field(description="What was done or sold.")
    quantity: Annotated[int, Field(ge=1, le=1000)] = Field(1, description="How many.")
    unit_price: Cents = Field(description="Price each in cents.")


class Invoice(Record):
    """An invoice to an owner for a consult."""

    id: InvoiceId
    owner_id: OwnerId = Field(description="Who pays.")
    consult_id: ConsultId = Field(description="The consult billed.")
    lines: tuple[Line, ...] = Field(description="What is charged.")
    total: Cents = Field(description="Sum of the lines.")
    paid: Cents = Field(0, description="Paid so far.")
    status: Literal["draft", "issued", "paid", "void"] = Field("draft", description="draft → issued → paid, or void.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was made.")


class DueVaccine(Value):
    """A vaccine coming due."""

    vaccination_id: VaccinationId = Field(description="The last dose.")
    animal_id: AnimalId = Field(description="The animal.")
    animal_name: str = Field(description="Its name.")
    vaccine: Vaccine = Field(description="The vaccine.")
    next_due: Date = Field(description="When it is due.")
    owner_email: Email = Field(description="The owner.")
    reminded: bool = Field(description="Whether a reminder went out for this due date.")


# -- rules ------------------------------------------------------------------------------------


def _guard_owner(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Owner, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"owner {other.id} has e-mail {new.email}", field="email", hint="use that owner")


def _guard_animal(ctx: Ctx, new: Any, old: Any) -> None:
    if old.deceased and not new.deceased:
        raise RuleViolation(f"{old.name} is recorded as deceased", field="deceased", hint="this cannot be undone")
    if new.deceased and not old.deceased:
        for a in ctx.where(Appointment, animal_id=new.id, status="scheduled"):
            ctx.update(a, status="cancelled")


def _guard_consult(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "finalized":
        raise RuleViolation("the consult is finalized", field="consult_id", hint="finalized consults are locked")
    if new.status == "finalized":
        if not new.assessment.strip():
            raise RuleViolation("no assessment yet", field="consult_id", hint="write the assessment first")
        ctx.update(new, finalized_at=ctx.now())
        appt = ctx.get(Appointment, new.appointment_id)
        ctx.update(appt, status="completed")
        if new.weight_kg is not None:
            ctx.update(ctx.get(Animal, new.animal_id), weight_kg=new.weight_kg)


def _guard_invoice(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "void" and old.paid > 0:
        raise RuleViolation("payments are recorded", field="invoice_id", hint="refund them before voiding")


owners = service.resource(
    Owner,
    name="owner",
    plural="owners",
    prefix="own",
    create=("name", "email", "phone"),
    filters=("email",),
    search=("name", "email"),
    update=("name", "email", "phone"),
    delete=False,
    guard_create=_guard_owner,
    guard_update=_guard_owner,
)
animals = service.resource(
    Animal,
    name="animal",
    plural="animals",
    prefix="ani",
    create=False,
    filters=("owner_id", "species", "microchip", "deceased"),
    search=("name", "breed"),
    update=("name", "desexed", "deceased"),
    delete=False,
    guard_update=_guard_animal,
)
clinicians = service.resource(
    Clinician,
    name="clinician",
    plural="clinicians",
    prefix="clin",
    create=False,
    get=False,
    filters=("role",),
    delete=False,
)
appointments = service.resource(
    Appointment,
    name="appointment",
    plural="appointments",
    prefix="apt",
    create=False,
    filters=("animal_id", "clinician_id", "status", "type"),
    delete=False,
    transitions={
        "check_in": Transition("status", ("scheduled",), "checked_in", "check the animal in"),
        "cancel": Transition("status", ("scheduled",), "cancelled", "cancel the appointment"),
        "no_show": Transition("status", ("scheduled",), "no_show", "mark the appointment as a no-show"),
    },
)
consults = service.resource(
    Consult,
    name="consult",
    plural="consults",
    prefix="con",
    create=False,
    filters=("animal_id", "clinician_id", "status", "appointment_id"),
    update=("subjective", "objective", "assessment", "plan", "weight_kg"),
    delete=False,
    transitions={"finalize": Transition("status", ("open",), "finalized", "finalize the consult")},
    guard_update=_guard_consult,
)
vaccinations = service.resource(
    Vaccination,
    name="vaccination",
    plural="vaccinations",
    prefix="vac",
    create=False,
    get=False,
    filters=("animal_id", "vaccine", "next_due"),
    delete=False,
)
reminders = service.resource(
    Reminder,
    name="reminder",
    plural="reminders",
    prefix="rem",
    create=False,
    get=False,
    filters=("animal_id", "vaccination_id", "owner_email"),
    delete=False,
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("owner_id", "consult_id", "status"),
    delete=False,
    transitions={
        "issue": Transition("status", ("draft",), "issued", "issue the invoice"),
        "void": Transition("status", ("draft", "issued"), "void", "void the invoice", destructive=True),
    },
    guard_update=_guard_invoice,
)


# -- domain tools -----------------------------------------------------------------------------


def _alive(ctx: Ctx, animal_id: str) -> Animal:
    a = ctx.get(Animal, animal_id, field="animal_id")
    if a.deceased:
        raise RuleViolation(f"{a.name} is deceased", field="animal_id", hint="pick a living animal")
    return a


def _example_animal(ctx: Ctx) -> dict[str, Any] | None:
    o = ctx.first(Owner)
    return (
        None
        if o is None
        else {
            "owner_id": o.id,
            "name": "Biscuit",
            "species": "dog",
            "sex": "female",
            "date_of_birth": "2024-05-01",
            "microchip": "985141000123456",
        }
    )


@service.tool(intent="register the animal", write=True, example=_example_animal)
def register_animal(
    ctx: Ctx,
    owner_id: OwnerId,
    name: Annotated[str, StringConstraints(min_length=1, max_length=60)],
    species: Species,
    sex: Literal["male", "female"],
    date_of_birth: Date,
    breed: Annotated[str, StringConstraints(max_length=80)] = "",
    microchip: Microchip | None = None,
    desexed: bool = False,
) -> Animal:
    """Register an owner's animal; a microchip belongs to one animal only.

    Args:
        owner_id: The owner.
        name: Its name.
        species: dog, cat, rabbit, bird or horse.
        sex: male or female.
        date_of_birth: When it was born (not in the future).
        breed: Its breed.
        microchip: Its 15-digit microchip.
        desexed: Whether it is neutered or spayed.
    """
    ctx.get(Owner, owner_id, field="owner_id")
    if date_of_birth > ctx.today():
        raise RuleViolation("born in the future", field="date_of_birth", hint="check the date")
    if microchip is not None and (other := ctx.first(Animal, microchip=microchip)) is not None:
        raise Conflict(f"microchip {microchip} is {other.name}'s", field="microchip", hint="check the number")
    return ctx.create(
        Animal,
        owner_id=owner_id,
        name=name,
        species=species,
        sex=sex,
        date_of_birth=date_of_birth,
        breed=breed,
        microchip=microchip,
        desexed=desexed,
    )


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Animal, deceased=False)
    c = ctx.first(Clinician, role="veterinarian")
    start = utc_at(ctx.today() + dt.timedelta(days=50), 14)
    return (
        None
        if a is None or c is None
        else {"animal_id": a.id, "clinician_id": c.id, "type": "consult", "start_at": start.isoformat()}
    )


@service.tool(intent="book the appointment", write=True, example=_example_book)
def book_appointment(
    ctx: Ctx,
    animal_id: AnimalId,
    clinician_id: ClinicianId,
    type: ApptType,
    start_at: DateTime,
    duration_minutes: Annotated[int, Field(ge=10, le=480)] = 30,
    reason: Text = "",
) -> Appointment:
    """Book a living animal with a clinician who is free then; surgery and dental need a veterinarian.

    Args:
        animal_id: The animal.
        clinician_id: The veterinarian or nurse.
        type: consult, vaccination, surgery, dental or recheck.
        start_at: When it starts (ahead).
        duration_minutes: How long.
        reason: Why the owner comes.
    """
    _alive(ctx, animal_id)
    who = ctx.get(Clinician, clinician_id, field="clinician_id")
    if type in VET_ONLY and who.role != "veterinarian":
        raise RuleViolation(f"{type} needs a veterinarian", field="clinician_id", hint="pick a veterinarian")
    if start_at <= ctx.now():
        raise RuleViolation("the time has passed", field="start_at", hint="book a time ahead")
    end = start_at + dt.timedelta(minutes=duration_minutes)
    for x in ctx.where(Appointment, clinician_id=who.id):
        x_end = x.start_at + dt.timedelta(minutes=x.duration_minutes)
        if x.status in ("scheduled", "checked_in") and x.start_at < end and start_at < x_end:
            raise Conflict(f"{who.name} is booked at {x.start_at:%H:%M}", field="start_at", hint="pick another time")
    return ctx.create(
        Appointment,
        animal_id=animal_id,
        clinician_id=who.id,
        type=type,
        start_at=start_at,
        duration_minutes=duration_minutes,
        reason=reason,
    )


@service.tool(
    intent="open the consult",
    write=True,
    example=first_example(Appointment, "appointment_id", where={"status": "checked_in"}),
)
def start_consult(ctx: Ctx, appointment_id: AppointmentId, subjective: Text = "") -> Consult:
    """Open the consult of a checked-in appointment (one per appointment).

    Args:
        appointment_id: The appointment.
        subjective: History from the owner.
    """
    appt = ctx.get(Appointment, appointment_id, field="appointment_id")
    if appt.status != "checked_in":
        raise RuleViolation(f"the appointment is {appt.status}", field="appointment_id", hint="check the animal in")
    if ctx.first(Consult, appointment_id=appt.id) is not None:
        raise Conflict("the appointment has a consult", field="appointment_id", hint="update that consult")
    return ctx.create(
        Consult, appointment_id=appt.id, animal_id=appt.animal_id, clinician_id=appt.clinician_id, subjective=subjective
    )


def _example_vax(ctx: Ctx) -> dict[str, Any] | None:
    dog = next((a for a in ctx.where(Animal, species="dog", deceased=False)), None)
    c = ctx.first(Clinician, role="nurse")
    return (
        None
        if dog is None or c is None
        else {"animal_id": dog.id, "vaccine": "bordetella", "batch": "BD-2231", "clinician_id": c.id}
    )


@service.tool(intent="record the vaccination", write=True, example=_example_vax)
def record_vaccination(
    ctx: Ctx,
    animal_id: AnimalId,
    vaccine: Vaccine,
    batch: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{3,20}$")],
    clinician_id: ClinicianId,
) -> Vaccination:
    """Record a dose given today; the vaccine must fit the species and age, and sets the next due date.

    Args:
        animal_id: The animal.
        vaccine: The vaccine.
        batch: The batch number.
        clinician_id: Who gave it.
    """
    a = _alive(ctx, animal_id)
    ctx.get(Clinician, clinician_id, field="clinician_id")
    species, interval, weeks = VACCINES[vaccine]
    if a.species not in species:
        raise RuleViolation(f"{vaccine} is not for a {a.species}", field="vaccine", hint=f"it is for {species}")
    today = ctx.today()
    if today - a.date_of_birth < dt.timedelta(weeks=weeks):
        raise RuleViolation(f"{a.name} is under {weeks} weeks", field="animal_id", hint="wait until it is older")
    return ctx.create(
        Vaccination,
        animal_id=a.id,
        vaccine=vaccine,
        given_on=today,
        batch=batch,
        clinician_id=clinician_id,
        next_due=today + dt.timedelta(days=interval),
    )


def _latest(ctx: Ctx) -> list[Vaccination]:
    best: dict[tuple[str, str], Vaccination] = {}
    for v in ctx.scan(Vaccination):
        key = (v.animal_id, v.vaccine)
        if key not in best or v.given_on > best[key].given_on:
            best[key] = v
    return list(best.values())


@service.tool(intent="list vaccinations coming due", example=lambda ctx: {"within_days": 30})
def vaccines_due(ctx: Ctx, within_days: Annotated[int, Field(ge=0, le=365)] = 30) -> list[DueVaccine]:
    """Living animals' latest doses that are overdue or due within the days, soonest first.

    Args:
        within_days: How many days ahead.
    """
    horizon = ctx.today() + dt.timedelta(days=within_days)
    out: list[DueVaccine] = []
    for v in _latest(ctx):
        a = ctx.get(Animal, v.animal_id)
        if v.next_due <= horizon and not a.deceased:
            sent = any(r.due_on == v.next_due for r in ctx.where(Reminder, vaccination_id=v.id))
            email = ctx.get(Owner, a.owner_id).email
            out.append(
                DueVaccine(
                    vaccination_id=v.id,
                    animal_id=a.id,
                    animal_name=a.name,
                    vaccine=v.vaccine,
                    next_due=v.next_due,
                    owner_email=email,
                    reminded=sent,
                )
            )
    return sorted(out, key=lambda d: (d.next_due, d.vaccination_id))


def _example_remind(ctx: Ctx) -> dict[str, Any] | None:
    due = [d for d in vaccines_due(ctx, REMIND_DAYS) if not d.reminded]
    return None if not due else {"vaccination_id": due[0].vaccination_id}


@service.tool(intent="send the vaccination reminder", write=True, example=_example_remind)
def send_reminder(ctx: Ctx, vaccination_id: VaccinationId, channel: Literal["email", "sms"] = "email") -> Reminder:
    """Remind the owner that the latest dose of a vaccine is due within 30 days (or overdue); once per due date.

    Args:
        vaccination_id: The animal's latest dose of the vaccine.
        channel: email or sms.
    """
    v = ctx.get(Vaccination, vaccination_id, field="vaccination_id")
    a = _alive(ctx, v.animal_id)
    if any(x.given_on > v.given_on for x in ctx.where(Vaccination, animal_id=a.id, vaccine=v.vaccine)):
        raise RuleViolation("a later dose was given", field="vaccination_id", hint="nothing is due")
    if v.next_due > ctx.today() + dt.timedelta(days=REMIND_DAYS):
        raise RuleViolation(f"due on {v.next_due}", field="vaccination_id", hint=f"remind within {REMIND_DAYS} days")
    if any(r.due_on == v.next_due for r in ctx.where(Reminder, vaccination_id=v.id)):
        raise Conflict("the owner was reminded", field="vaccination_id", hint="one reminder per due date")
    owner = ctx.get(Owner, a.owner_id)
    return ctx.create(
        Reminder,
        vaccination_id=v.id,
        animal_id=a.id,
        owner_email=owner.email,
        due_on=v.next_due,
        channel=channel,
        sent_at=ctx.now(),
    )


def _example_invoice(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Consult, status="finalized"):
        if ctx.first(Invoice, consult_id=c.id) is None:
            return {"consult_id": c.id, "lines": [{"description": "Consultation", "unit_price": 6500}]}
    return None


@service.tool(intent="invoice the consult", write=True, example=_example_invoice)
def create_invoice(ctx: Ctx, consult_id: ConsultId, lines: list[Line]) -> Invoice:
    """Draft the owner's invoice for a finalized consult (one live invoice per consult).

    Args:
        consult_id: The consult.
        lines: What is charged (at least one line).
    """
    c = ctx.get(Consult, consult_id, field="consult_id")
    if c.status != "finalized":
        raise RuleViolation("the consult is open", field="consult_id", hint="finalize it first")
    if any(i.status != "void" for i in ctx.where(Invoice, consult_id=c.id)):
        raise Conflict("the consult is invoiced", field="consult_id", hint="void that invoice first")
    if not lines:
        raise RuleViolation("an invoice needs a line", field="lines", hint="add what was done")
    owner = ctx.get(Animal, c.animal_id).owner_id
    total = sum(x.quantity * x.unit_price for x in lines)
    return ctx.create(Invoice, owner_id=owner, consult_id=c.id, lines=tuple(lines), total=total)


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    i = ctx.first(Invoice, status="issued")
    return None if i is None else {"invoice_id": i.id, "amount": i.total - i.paid}


@service.tool(intent="record the owner's payment", write=True, example=_example_pay)
def record_payment(ctx: Ctx, invoice_id: InvoiceId, amount: Annotated[int, Field(ge=1, le=10**9)]) -> Invoice:
    """Record a payment on an issued invoice, at most its balance; the full balance makes it paid.

    Args:
        invoice_id: The invoice.
        amount: Cents paid.
    """
    i = ctx.get(Invoice, invoice_id, field="invoice_id")
    if i.status != "issued":
        raise RuleViolation(f"the invoice is {i.status}", field="invoice_id", hint="issue it first")
    if amount > i.total - i.paid:
        raise RuleViolation(f"the balance is {i.total - i.paid}", field="amount", hint="pay at most the balance")
    paid = i.paid + amount
    return ctx.update(i, paid=paid, status="paid" if paid == i.total else "issued")


# -- seed -------------------------------------------------------------------------------------

PETS: tuple[tuple[str, Species, str, str], ...] = (
    ("Luna", "dog", "Labrador Retriever", "female"),
    ("Milo", "cat", "Domestic Shorthair", "male"),
    ("Bella", "dog", "French Bulldog", "female"),
    ("Oliver", "cat", "Maine Coon", "male"),
    ("Thumper", "rabbit", "Holland Lop", "male"),
    ("Charlie", "dog", "Border Collie", "male"),
    ("Nala", "cat", "Siamese", "female"),
    ("Kiwi", "bird", "Budgerigar", "female"),
    ("Max", "dog", "German Shepherd", "male"),
    ("Cleo", "cat", "Ragdoll", "female"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Owners from consumers with their pets, vets and nurses from staff, visits, vaccines coming due, invoices."""
    pop = s.population
    today = s.now.date()
    team = [
        s.create(Clinician, name=p.name, email=p.email, role="nurse" if k % 3 == 2 else "veterinarian")
        for k, p in enumerate(pop.staff("Operations", "Support", fallback=5)[:5])
    ]
    pets: list[Animal] = []
    for k, p in enumerate(pop.consumers[:8]):
        o = s.create(Owner, name=p.name, email=p.email, phone=p.phone, created_at=s.ago(days=700 - 40 * k))
        for j in range(1 + k % 2):
            name, species, breed, sex = PETS[(k + 3 * j) % len(PETS)]
            pets.append(
                s.create(
                    Animal,
                    owner_id=o.id,
                    name=name,
                    species=species,
                    breed=breed,
                    sex=sex,
                    desexed=(k + j) % 3 > 0,
                    date_of_birth=today - dt.timedelta(days=200 + 300 * k + 90 * j),
                    weight_kg=(4.2, 28.0)[species == "dog"],
                    microchip=f"9851410{k:04d}{j:04d}",
                    deceased=(k, j) == (7, 0),
                )
            )
    vets = [c for c in team if c.role == "veterinarian"]
    nurse = next(c for c in team if c.role == "nurse")
    for k, a in enumerate(pets):
        for vaccine, (kinds, interval, _) in VACCINES.items():
            if a.species in kinds and vaccine in ("rabies", "dhpp", "fvrcp", "rhdv2"):
                given = today - dt.timedelta(days=interval - 20 + 9 * k)
                s.create(
                    Vaccination,
                    animal_id=a.id,
                    vaccine=vaccine,
                    given_on=given,
                    batch=f"{vaccine[:2].upper()}-{4100 + k}",
                    clinician_id=nurse.id,
                    next_due=given + dt.timedelta(days=interval),
                )
    _seed_visits(s, pets, vets)


def _seed_visits(s: SeedContext, pets: list[Animal], vets: list[Clinician]) -> None:
    today = s.now.date()
    alive = [a for a in pets if not a.deceased]
    plan: tuple[tuple[int, int, ApptType, ApptStatus], ...] = (
        (-20, 10, "consult", "completed"),
        (-9, 11, "dental", "completed"),
        (-5, 14, "recheck", "completed"),
        (-1, 10, "consult", "completed"),
        (-3, 15, "recheck", "no_show"),
        (0, -1, "consult", "checked_in"),
        (0, -2, "vaccination", "checked_in"),
        (0, 2, "vaccination", "scheduled"),
        (1, 10, "surgery", "scheduled"),
        (4, 16, "consult", "scheduled"),
        (6, 9, "recheck", "cancelled"),
    )
    billed: dict[int, Any] = {0: "paid", 1: "issued", 2: "draft"}
    lines = (Line(description="Consultation", unit_price=6500), Line(description="Dental cleaning", unit_price=24000))
    for k, (days, hour, kind, status) in enumerate(plan):
        a = alive[k % len(alive)]
        v = vets[k % len(vets)]
        start = s.now + dt.timedelta(hours=hour) if days == 0 else utc_at(today + dt.timedelta(days=days), hour)
        appt = s.create(
            Appointment,
            animal_id=a.id,
            clinician_id=v.id,
            type=kind,
            start_at=start,
            status=status,
            reason=("Limping on the left hind leg", "Annual check", "Itchy ears")[k % 3],
        )
        if status == "checked_in" and kind == "consult":
            s.create(
                Consult,
                appointment_id=appt.id,
                animal_id=a.id,
                clinician_id=v.id,
                subjective="Limping since Sunday.",
                assessment="Suspected cranial cruciate ligament strain",
            )
        if status != "completed":
            continue
        c = s.create(
            Consult,
            appointment_id=appt.id,
            animal_id=a.id,
            clinician_id=v.id,
            subjective="Owner reports reduced appetite.",
            objective="T 38.6 C, mild gingivitis.",
            assessment="Periodontal disease",
            plan="Dental cleaning, recheck in 2 weeks.",
            weight_kg=a.weight_kg,
            status="finalized",
            finalized_at=start + dt.timedelta(minutes=40),
        )
        if k in billed:
            total = sum(x.quantity * x.unit_price for x in lines[: 1 + k % 2])
            s.create(
                Invoice,
                owner_id=a.owner_id,
                consult_id=c.id,
                lines=lines[: 1 + k % 2],
                total=total,
                paid=total if billed[k] == "paid" else 0,
                status=billed[k],
                created_at=start,
            )
