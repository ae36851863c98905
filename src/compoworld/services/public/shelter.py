"""Second Chance Shelter: an animal shelter's animals, intakes and outcomes, adopters, applications and medical care.

Modeled on the Shelterluv API v1 (``/animals`` with Internal-ID, Name, Type,
Breed, Sex, Status such as Available for Adoption, In Foster, Adoption
Pending, Awaiting Medical, Adopted, Transferred Out, Returned to Owner;
``/events`` of intake types Stray, Owner Surrender, Transfer In, Return and
outcome types Adoption, Transfer Out, Return to Owner; ``/people`` with their
animals; adoption applications; ``/animals/{id}/medical`` vaccines,
treatments and spay/neuter surgery).

A stray is held 3 days for its owner before it can be made available, and
any animal is made available only once it has a core vaccine (rabies or
distemper combination) on record. Only available animals take adoption
applications; a person flagged do-not-adopt cannot apply, and a person has
one open application per animal. Approving an application puts the animal
on adoption pending (one approved application per animal); the adoption
itself needs that approved applicant and a spayed or neutered animal, and
denies the other open applications. Strays go back to the owner who proves
ownership, transferred animals leave to a partner organisation, and an
adopted animal that comes back is a return intake held for re-evaluation.
Animals out of the shelter's care get no medical records.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, CompanyName, Date, Email, FirstName, IdOf, LastName, Phone, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "shelter",
    title="Second Chance Shelter",
    category="animal_welfare",
    modeled_on="Shelterluv API v1 (animals with status Available for Adoption/In Foster/Adoption Pending/"
    "Awaiting Medical/Adopted/Transferred Out/Returned to Owner, intake and outcome events, people, adoption "
    "applications, medical records: vaccines, treatments, spay/neuter)",
    description="The animal shelter's records: animals and their status through intake, stray hold, foster "
    "and adoption, the people who adopt, foster or reclaim them, adoption applications and their review, "
    "outcomes (adoption, transfer, return to owner) and medical records.",
)

PersonId = Annotated[str, IdOf("shelter.person")]
AnimalId = Annotated[str, IdOf("shelter.animal")]
IntakeId = Annotated[str, IdOf("shelter.intake")]
OutcomeId = Annotated[str, IdOf("shelter.outcome")]
ApplicationId = Annotated[str, IdOf("shelter.application")]
MedicalId = Annotated[str, IdOf("shelter.medical_record")]

Species = Literal["dog", "cat", "rabbit", "small_animal"]
AnimalStatus = Literal[
    "stray_hold",
    "awaiting_medical",
    "available",
    "in_foster",
    "adoption_pending",
    "adopted",
    "transferred",
    "returned_to_owner",
]
IntakeType = Literal["stray", "owner_surrender", "transfer_in", "return"]
OutcomeType = Literal["adoption", "transfer_out", "return_to_owner"]
AppStatus = Literal["submitted", "approved", "denied", "withdrawn"]
MedicalKind = Literal["vaccine", "exam", "spay_neuter", "treatment"]
Name = Annotated[str, StringConstraints(min_length=1, max_length=60, strip_whitespace=True)]
Microchip = Annotated[str, StringConstraints(pattern=r"^[0-9]{15}$")]
"""A 15-digit ISO microchip number."""

STRAY_HOLD = dt.timedelta(days=3)
CORE_VACCINES = frozenset({"Rabies", "DHPP", "FVRCP", "RHDV2"})
IN_CARE: tuple[AnimalStatus, ...] = ("stray_hold", "awaiting_medical", "available", "in_foster", "adoption_pending")
OPEN_APPS: tuple[AppStatus, ...] = ("submitted", "approved")


class Person(Timestamped):
    """A person the shelter knows: adopter, fosterer or owner."""

    id: PersonId
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email
    """E-mail; unique."""
    phone: Phone | None = None
    """Phone."""
    city: City | None = None
    """Where they live."""
    is_foster: bool = False
    """Whether they are an approved foster home."""
    do_not_adopt: bool = False
    """Flagged: may not adopt."""


class Animal(Timestamped):
    """An animal in (or once in) the shelter's care."""

    id: AnimalId
    name: Name
    """Its name."""
    species: Species
    """dog, cat, rabbit or small_animal."""
    breed: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """Primary breed."""
    sex: Literal["male", "female", "unknown"]
    """Sex."""
    birth_date: Date
    """Estimated date of birth."""
    microchip: Microchip | None = None
    """Its microchip."""
    status: AnimalStatus
    """stray_hold, awaiting_medical, available, in_foster, adoption_pending, adopted, transferred or returned_to_owner."""
    spayed_neutered: bool = False
    """Whether it is altered."""
    adoption_fee_cents: Cents = 0
    """Its adoption fee."""
    kennel: Annotated[str, StringConstraints(max_length=20)] = ""
    """Where it is housed."""
    intake_date: Date
    """Its latest intake."""
    foster_id: PersonId | None = None
    """The foster home it is with."""


class Intake(Created):
    """An intake event: how an animal came into care."""

    id: IntakeId
    animal_id: AnimalId
    """The animal."""
    intake_type: IntakeType
    """stray, owner_surrender, transfer_in or return."""
    intake_date: Date
    """When."""
    person_id: PersonId | None = None
    """Who surrendered or returned it."""
    source_org: CompanyName | None = None
    """The organisation it was transferred from."""
    found_location: Text = ""
    """Where a stray was found."""
    reason: Text = ""
    """Why it came in."""


class Outcome(Created):
    """An outcome event: how an animal left care."""

    id: OutcomeId
    animal_id: AnimalId
    """The animal."""
    outcome_type: OutcomeType
    """adoption, transfer_out or return_to_owner."""
    outcome_date: Date
    """When."""
    person_id: PersonId | None = None
    """The adopter or owner."""
    partner_org: CompanyName | None = None
    """The organisation it went to."""
    fee_cents: Cents = 0
    """The fee collected."""


class Application(Timestamped):
    """An adoption application for an animal."""

    id: ApplicationId
    animal_id: AnimalId
    """The animal."""
    person_id: PersonId
    """The applicant."""
    email: Email
    """The applicant's e-mail."""
    status: AppStatus = "submitted"
    """submitted, approved, denied or withdrawn."""
    home_type: Literal["house", "apartment", "condo", "farm"] = "house"
    """Where the animal would live."""
    has_other_pets: bool = False
    """Whether they have other pets."""
    decision_note: Text = ""
    """Why it was denied (required to deny)."""


class MedicalRecord(Created):
    """A vaccine, exam, spay/neuter surgery or treatment given to an animal."""

    id: MedicalId
    animal_id: AnimalId
    """The animal."""
    kind: MedicalKind
    """vaccine, exam, spay_neuter or treatment."""
    name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """What was given, e.g. Rabies, DHPP, FVRCP."""
    given_on: Date
    """When."""
    due_next: Date | None = None
    """When the next dose is due."""
    vet_email: Email
    """The veterinarian."""
    notes: Text = ""
    """Notes."""


class Census(Value):
    """The shelter's animals in care."""

    by_status: dict[str, int]
    """Animals in care per status."""
    average_days_in_care: float
    """Mean days since intake of animals in care."""
    open_applications: int
    """Applications submitted or approved."""


# -- rules ------------------------------------------------------------------------------------


def _guard_person(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Person, email=new.email):
        if other.id != new.id:
            raise Conflict(f"{new.email} is already person {other.id}", field="email", hint="use that person")


def _in_care(animal: Animal, field: str = "animal_id") -> None:
    if animal.status not in IN_CARE:
        raise RuleViolation(f"{animal.name} is {animal.status}", field=field, hint="the animal is out of care")


def _vaccinated(ctx: Ctx, animal: Animal) -> bool:
    return any(m.name in CORE_VACCINES for m in ctx.where(MedicalRecord, animal_id=animal.id, kind="vaccine"))


def _guard_application(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "approved" and old.status == "submitted":
        animal = ctx.get(Animal, new.animal_id)
        if animal.status != "available":
            raise RuleViolation(
                f"{animal.name} is {animal.status}", field="application_id", hint="approve while it is available"
            )
        ctx.update(animal, status="adoption_pending")
    if old.status == "approved" and new.status == "withdrawn":
        animal = ctx.get(Animal, new.animal_id)
        if animal.status == "adoption_pending":
            ctx.update(animal, status="available")


people = service.resource(
    Person,
    name="person",
    plural="people",
    prefix="per",
    create=("first_name", "last_name", "email", "phone", "city", "is_foster"),
    filters=("email", "is_foster", "do_not_adopt", "city"),
    search=("first_name", "last_name"),
    update=("email", "phone", "city", "is_foster", "do_not_adopt"),
    delete=False,
    guard_create=_guard_person,
    guard_update=_guard_person,
)
animals = service.resource(
    Animal,
    name="animal",
    plural="animals",
    prefix="ani",
    create=False,
    filters=("species", "status", "sex", "microchip", "foster_id", "spayed_neutered"),
    search=("name", "breed"),
    update=("name", "breed", "kennel", "adoption_fee_cents", "microchip"),
    delete=False,
)
intakes = service.resource(
    Intake,
    name="intake",
    plural="intakes",
    prefix="in",
    create=False,
    get=False,
    filters=("animal_id", "intake_type", "person_id"),
    delete=False,
    title="intake event",
)
outcomes = service.resource(
    Outcome,
    name="outcome",
    plural="outcomes",
    prefix="out",
    create=False,
    get=False,
    filters=("animal_id", "outcome_type", "person_id"),
    delete=False,
    title="outcome event",
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=False,
    filters=("animal_id", "person_id", "email", "status"),
    update=("home_type", "has_other_pets"),
    delete=False,
    transitions={
        "approve": Transition(
            "status",
            ("submitted",),
            "approved",
            "approve the adoption application",
            description="Approve a submitted application: the animal goes on adoption pending for this applicant.",
        ),
        "withdraw": Transition(
            "status",
            ("submitted", "approved"),
            "withdrawn",
            "withdraw the adoption application",
            description="The applicant withdraws; an approved one frees the animal.",
        ),
    },
    guard_update=_guard_application,
    title="adoption application",
)
medical_records = service.resource(
    MedicalRecord,
    name="medical_record",
    plural="medical_records",
    prefix="med",
    create=False,
    get=False,
    filters=("animal_id", "kind", "name", "vet_email"),
    delete=False,
)


# -- intake and care --------------------------------------------------------------------------


@service.tool(
    intent="take in the animal",
    write=True,
    example=lambda ctx: {
        "name": "Biscuit",
        "species": "dog",
        "breed": "Beagle",
        "sex": "male",
        "birth_date": "2023-05-01",
        "intake_type": "stray",
        "found_location": "Riverside Park, north gate",
    },
)
def intake_animal(
    ctx: Ctx,
    name: Name,
    species: Species,
    breed: Annotated[str, StringConstraints(min_length=1, max_length=80)],
    sex: Literal["male", "female", "unknown"],
    birth_date: Date,
    intake_type: Literal["stray", "owner_surrender", "transfer_in"],
    person_id: PersonId | None = None,
    source_org: CompanyName | None = None,
    found_location: Text = "",
    microchip: Microchip | None = None,
    reason: Text = "",
) -> Animal:
    """Take a new animal in: a stray goes on a 3-day hold, others await medical evaluation.

    Args:
        name: Its name.
        species: dog, cat, rabbit or small_animal.
        breed: Primary breed.
        sex: male, female or unknown.
        birth_date: Estimated date of birth (not in the future).
        intake_type: stray (needs found_location), owner_surrender (needs person_id) or transfer_in (needs source_org).
        person_id: The owner surrendering it.
        source_org: The organisation transferring it.
        found_location: Where a stray was found.
        microchip: Its microchip, if scanned (unique).
        reason: Why it came in.
    """
    today = ctx.today()
    if birth_date > today:
        raise RuleViolation("birth_date is in the future", field="birth_date", hint="estimate a past date")
    need = {
        "stray": ("found_location", found_location.strip()),
        "owner_surrender": ("person_id", person_id),
        "transfer_in": ("source_org", source_org),
    }[intake_type]
    if not need[1]:
        raise RuleViolation(f"a {intake_type} intake needs {need[0]}", field=need[0], hint=f"give {need[0]}")
    if person_id is not None:
        ctx.get(Person, person_id, field="person_id")
    if microchip is not None:
        other = ctx.first(Animal, microchip=microchip)
        if other is not None:
            raise Conflict(
                f"microchip {microchip} belongs to {other.name} ({other.id}, {other.status})",
                field="microchip",
                hint="this may be a returning animal: look it up",
            )
    animal = ctx.create(
        Animal,
        name=name,
        species=species,
        breed=breed,
        sex=sex,
        birth_date=birth_date,
        microchip=microchip,
        status="stray_hold" if intake_type == "stray" else "awaiting_medical",
        intake_date=today,
    )
    ctx.create(
        Intake,
        animal_id=animal.id,
        intake_type=intake_type,
        intake_date=today,
        person_id=person_id,
        source_org=source_org,
        found_location=found_location.strip(),
        reason=reason,
    )
    return animal


def _example_medical(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Animal, status="awaiting_medical")
    return (
        None
        if a is None
        else {
            "animal_id": a.id,
            "kind": "vaccine",
            "name": "Rabies",
            "vet_email": VETS[0],
            "due_next": (ctx.today() + dt.timedelta(days=365)).isoformat(),
        }
    )


@service.tool(intent="record the medical care", write=True, example=_example_medical)
def add_medical_record(
    ctx: Ctx,
    animal_id: AnimalId,
    kind: MedicalKind,
    name: Annotated[str, StringConstraints(min_length=1, max_length=80)],
    vet_email: Email,
    due_next: Date | None = None,
    notes: Text = "",
) -> MedicalRecord:
    """Record care given today to an animal in care; a spay/neuter surgery marks it altered.

    Args:
        animal_id: The animal.
        kind: vaccine, exam, spay_neuter or treatment.
        name: What was given (Rabies, DHPP, FVRCP, RHDV2 are core vaccines).
        vet_email: The veterinarian.
        due_next: When the next dose is due (after today).
        notes: Notes.
    """
    animal = ctx.get(Animal, animal_id, field="animal_id")
    _in_care(animal)
    if kind == "spay_neuter" and animal.spayed_neutered:
        raise Conflict(f"{animal.name} is already altered", field="kind", hint="nothing to do")
    if due_next is not None and due_next <= ctx.today():
        raise RuleViolation("due_next must be after today", field="due_next", hint="pick a later date")
    rec = ctx.create(
        MedicalRecord,
        animal_id=animal.id,
        kind=kind,
        name=name,
        given_on=ctx.today(),
        due_next=due_next,
        vet_email=vet_email,
        notes=notes,
    )
    if kind == "spay_neuter":
        ctx.update(animal, spayed_neutered=True)
    return rec


def _example_available(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Animal, status="awaiting_medical"):
        if _vaccinated(ctx, a):
            return {"animal_id": a.id, "adoption_fee_cents": 15_000}
    return None


@service.tool(intent="make the animal available for adoption", write=True, example=_example_available)
def make_available(ctx: Ctx, animal_id: AnimalId, adoption_fee_cents: Cents | None = None) -> Animal:
    """Put an animal up for adoption once its stray hold is over and a core vaccine is on record.

    Args:
        animal_id: The animal (on stray hold or awaiting medical).
        adoption_fee_cents: Its adoption fee; omit to keep the current one.
    """
    animal = ctx.get(Animal, animal_id, field="animal_id")
    if animal.status not in ("stray_hold", "awaiting_medical"):
        raise RuleViolation(f"{animal.name} is {animal.status}", field="animal_id", hint="it is not on hold")
    release = animal.intake_date + STRAY_HOLD
    if animal.status == "stray_hold" and ctx.today() < release:
        raise RuleViolation(
            f"{animal.name}'s stray hold runs until {release}", field="animal_id", hint="the owner may still claim it"
        )
    if not _vaccinated(ctx, animal):
        raise RuleViolation(
            f"{animal.name} has no core vaccine on record",
            field="animal_id",
            hint="record a Rabies, DHPP, FVRCP or RHDV2 vaccine with shelter__add_medical_record",
        )
    fee = animal.adoption_fee_cents if adoption_fee_cents is None else adoption_fee_cents
    return ctx.update(animal, status="available", adoption_fee_cents=fee)


def _example_foster(ctx: Ctx) -> dict[str, Any] | None:
    a, p = ctx.first(Animal, status="available"), ctx.first(Person, is_foster=True)
    return None if a is None or p is None else {"animal_id": a.id, "person_id": p.id}


@service.tool(intent="send the animal to foster", write=True, example=_example_foster)
def send_to_foster(ctx: Ctx, animal_id: AnimalId, person_id: PersonId) -> Animal:
    """Place an available or medically held animal with an approved foster home.

    Args:
        animal_id: The animal.
        person_id: An approved foster (is_foster).
    """
    animal = ctx.get(Animal, animal_id, field="animal_id")
    p = ctx.get(Person, person_id, field="person_id")
    if animal.status not in ("available", "awaiting_medical"):
        raise RuleViolation(f"{animal.name} is {animal.status}", field="animal_id", hint="foster available animals")
    if not p.is_foster:
        raise RuleViolation(
            f"{p.email} is not an approved foster", field="person_id", hint="approve them as foster first"
        )
    return ctx.update(animal, status="in_foster", foster_id=p.id)


@service.tool(
    intent="bring the animal back from foster",
    write=True,
    example=first_example(Animal, "animal_id", where={"status": "in_foster"}),
)
def return_from_foster(ctx: Ctx, animal_id: AnimalId) -> Animal:
    """Bring a fostered animal back to the shelter, available again.

    Args:
        animal_id: The animal in foster.
    """
    animal = ctx.get(Animal, animal_id, field="animal_id")
    if animal.status != "in_foster":
        raise RuleViolation(f"{animal.name} is {animal.status}", field="animal_id", hint="it is not in foster")
    return ctx.update(animal, status="available", foster_id=None)


# -- adoption and outcomes --------------------------------------------------------------------


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Animal, status="available")
    for p in ctx.where(Person, do_not_adopt=False):
        if a is not None and not ctx.where(Application, animal_id=a.id, person_id=p.id):
            return {"animal_id": a.id, "person_id": p.id, "home_type": "apartment"}
    return None


@service.tool(intent="apply to adopt the animal", write=True, example=_example_apply)
def submit_application(
    ctx: Ctx,
    animal_id: AnimalId,
    person_id: PersonId,
    home_type: Literal["house", "apartment", "condo", "farm"] = "house",
    has_other_pets: bool = False,
) -> Application:
    """Apply to adopt an available animal; one open application per person and animal.

    Args:
        animal_id: The animal.
        person_id: The applicant.
        home_type: house, apartment, condo or farm.
        has_other_pets: Whether they have other pets.
    """
    animal = ctx.get(Animal, animal_id, field="animal_id")
    p = ctx.get(Person, person_id, field="person_id")
    if animal.status != "available":
        raise RuleViolation(
            f"{animal.name} is {animal.status}", field="animal_id", hint="apply for an available animal"
        )
    if p.do_not_adopt:
        raise RuleViolation(f"{p.email} is flagged do-not-adopt", field="person_id", hint="they cannot adopt")
    for other in ctx.where(Application, animal_id=animal.id, person_id=p.id):
        if other.status in OPEN_APPS:
            raise Conflict(f"{p.email} already applied ({other.id})", field="person_id", hint="nothing to do")
    return ctx.create(
        Application,
        animal_id=animal.id,
        person_id=p.id,
        email=p.email,
        home_type=home_type,
        has_other_pets=has_other_pets,
    )


@service.tool(
    intent="deny the adoption application",
    write=True,
    example=first_example(Application, "application_id", where={"status": "submitted"}, decision_note="No fence."),
)
def deny_application(ctx: Ctx, application_id: ApplicationId, decision_note: Text) -> Application:
    """Deny a submitted or approved application, saying why; an approved one frees the animal.

    Args:
        application_id: The application.
        decision_note: Why it is denied (required; the applicant is told).
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status not in OPEN_APPS:
        raise RuleViolation(f"application {app.id} is {app.status}", field="application_id", hint="it is closed")
    if not decision_note.strip():
        raise RuleViolation("a denial needs a note", field="decision_note", hint="say why")
    if app.status == "approved":
        animal = ctx.get(Animal, app.animal_id)
        if animal.status == "adoption_pending":
            ctx.update(animal, status="available")
    return ctx.update(app, status="denied", decision_note=decision_note.strip())


def _example_adopt(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="approved"):
        a = ctx.get(Animal, app.animal_id)
        if a.spayed_neutered and a.status == "adoption_pending":
            return {"animal_id": a.id, "person_id": app.person_id, "fee_cents": a.adoption_fee_cents}
    return None


@service.tool(intent="complete the adoption", write=True, destructive=True, example=_example_adopt)
def adopt_animal(ctx: Ctx, animal_id: AnimalId, person_id: PersonId, fee_cents: Cents) -> Outcome:
    """Complete the adoption by the approved applicant of an altered animal; other applications are denied.

    Args:
        animal_id: The animal on adoption pending.
        person_id: The approved applicant.
        fee_cents: The fee collected (the animal's adoption fee).
    """
    animal = ctx.get(Animal, animal_id, field="animal_id")
    ctx.get(Person, person_id, field="person_id")
    app = ctx.first(Application, animal_id=animal.id, person_id=person_id, status="approved")
    if animal.status != "adoption_pending" or app is None:
        raise RuleViolation(
            f"{person_id} has no approved application for {animal.name}",
            field="person_id",
            hint="approve their application with shelter__approve_application first",
        )
    if not animal.spayed_neutered:
        raise RuleViolation(
            f"{animal.name} is not spayed or neutered",
            field="animal_id",
            hint="record the spay_neuter surgery first",
        )
    if fee_cents != animal.adoption_fee_cents:
        raise RuleViolation(
            f"the adoption fee is {animal.adoption_fee_cents} cents", field="fee_cents", hint="collect the listed fee"
        )
    for other in ctx.where(Application, animal_id=animal.id, status="submitted"):
        ctx.update(other, status="denied", decision_note=f"{animal.name} was adopted.")
    ctx.update(animal, status="adopted", kennel="", foster_id=None)
    return ctx.create(
        Outcome,
        animal_id=animal.id,
        outcome_type="adoption",
        outcome_date=ctx.today(),
        person_id=person_id,
        fee_cents=fee_cents,
    )


def _leave(ctx: Ctx, animal: Animal, status: AnimalStatus) -> None:
    for app in ctx.where(Application, animal_id=animal.id):
        if app.status in OPEN_APPS:
            ctx.update(app, status="withdrawn")
    ctx.update(animal, status=status, kennel="", foster_id=None)


@service.tool(
    intent="transfer the animal to a partner organisation",
    write=True,
    destructive=True,
    example=first_example(Animal, "animal_id", where={"status": "available"}, partner_org="Valley Humane Society"),
)
def transfer_animal(ctx: Ctx, animal_id: AnimalId, partner_org: CompanyName) -> Outcome:
    """Transfer an animal in care to a partner organisation; its open applications are withdrawn.

    Args:
        animal_id: The animal.
        partner_org: The receiving organisation.
    """
    animal = ctx.get(Animal, animal_id, field="animal_id")
    _in_care(animal)
    _leave(ctx, animal, "transferred")
    return ctx.create(
        Outcome, animal_id=animal.id, outcome_type="transfer_out", outcome_date=ctx.today(), partner_org=partner_org
    )


def _example_rto(ctx: Ctx) -> dict[str, Any] | None:
    a, p = ctx.first(Animal, status="stray_hold"), ctx.first(Person, do_not_adopt=False)
    return None if a is None or p is None else {"animal_id": a.id, "person_id": p.id}


@service.tool(intent="return the stray to its owner", write=True, destructive=True, example=_example_rto)
def return_to_owner(ctx: Ctx, animal_id: AnimalId, person_id: PersonId) -> Outcome:
    """Reclaim a stray in care by the owner who proved ownership.

    Args:
        animal_id: The animal (its latest intake is a stray intake).
        person_id: The owner.
    """
    animal = ctx.get(Animal, animal_id, field="animal_id")
    ctx.get(Person, person_id, field="person_id")
    _in_care(animal)
    latest = max(ctx.where(Intake, animal_id=animal.id), key=lambda i: i.id)
    if latest.intake_type != "stray":
        raise RuleViolation(
            f"{animal.name} came in as {latest.intake_type}", field="animal_id", hint="only strays go back to an owner"
        )
    _leave(ctx, animal, "returned_to_owner")
    return ctx.create(
        Outcome, animal_id=animal.id, outcome_type="return_to_owner", outcome_date=ctx.today(), person_id=person_id
    )


@service.tool(
    intent="take back the adopted animal",
    write=True,
    example=first_example(Animal, "animal_id", where={"status": "adopted"}, reason="Landlord does not allow pets."),
)
def return_adoption(ctx: Ctx, animal_id: AnimalId, reason: Text) -> Animal:
    """Take back an adopted animal from its adopter: a return intake, held for re-evaluation.

    Args:
        animal_id: The adopted animal.
        reason: Why it came back (required).
    """
    animal = ctx.get(Animal, animal_id, field="animal_id")
    if animal.status != "adopted":
        raise RuleViolation(f"{animal.name} is {animal.status}", field="animal_id", hint="only adopted animals return")
    if not reason.strip():
        raise RuleViolation("a return needs a reason", field="reason", hint="say why")
    adoption = max(ctx.where(Outcome, animal_id=animal.id, outcome_type="adoption"), key=lambda o: o.id)
    ctx.create(
        Intake,
        animal_id=animal.id,
        intake_type="return",
        intake_date=ctx.today(),
        person_id=adoption.person_id,
        reason=reason.strip(),
    )
    return ctx.update(animal, status="awaiting_medical", intake_date=ctx.today())


@service.tool(intent="show the shelter census", example=lambda ctx: {})
def shelter_census(ctx: Ctx) -> Census:
    """Animals in care per status, their mean days in care, and open applications."""
    today = ctx.today()
    care = [a for a in ctx.scan(Animal) if a.status in IN_CARE]
    counts = {s: sum(a.status == s for a in care) for s in IN_CARE}
    days = [(today - a.intake_date).days for a in care]
    return Census(
        by_status=counts,
        average_days_in_care=round(sum(days) / len(days), 1) if days else 0.0,
        open_applications=sum(a.status in OPEN_APPS for a in ctx.scan(Application)),
    )


# -- seed -------------------------------------------------------------------------------------

VETS: tuple[str, ...] = ("dr.alvarez@secondchance.org", "dr.chen@secondchance.org")
ANIMALS: tuple[tuple[str, Species, str, str, int, AnimalStatus, IntakeType], ...] = (
    # name, species, breed, sex, age in months, status, intake type
    ("Luna", "dog", "Labrador Retriever Mix", "female", 30, "available", "owner_surrender"),
    ("Milo", "cat", "Domestic Shorthair", "male", 14, "available", "stray"),
    ("Bella", "dog", "Pit Bull Terrier", "female", 48, "adoption_pending", "stray"),
    ("Oliver", "cat", "Maine Coon Mix", "male", 6, "in_foster", "transfer_in"),
    ("Rocky", "dog", "German Shepherd", "male", 60, "stray_hold", "stray"),
    ("Cleo", "cat", "Siamese", "female", 24, "awaiting_medical", "owner_surrender"),
    ("Thumper", "rabbit", "Holland Lop", "male", 10, "available", "owner_surrender"),
    ("Daisy", "dog", "Beagle", "female", 84, "adopted", "stray"),
    ("Shadow", "cat", "Domestic Longhair", "male", 36, "transferred", "stray"),
    ("Max", "dog", "Boxer", "male", 40, "returned_to_owner", "stray"),
    ("Nala", "cat", "Tabby", "female", 9, "awaiting_medical", "stray"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """People from the population, animals in every status with their intakes, outcomes, care and applications."""
    pop = s.population
    today = s.now.date()
    folks = [
        s.create(
            Person,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            city=p.address.city,
            is_foster=k % 4 == 1,
            do_not_adopt=k == 9,
            created_at=s.ago(days=500 - 9 * k),
            updated_at=s.ago(days=30),
        )
        for k, p in enumerate(pop.consumers[:10])
    ]
    for k, (name, species, breed, sex, months, status, itype) in enumerate(ANIMALS):
        came = today - dt.timedelta(days=1 if status == "stray_hold" else 8 + 5 * k)
        altered = status in ("available", "adoption_pending", "adopted", "transferred") or k % 3 == 0
        animal = s.create(
            Animal,
            name=name,
            species=species,
            breed=breed,
            sex=sex,
            birth_date=today - dt.timedelta(days=30 * months),
            microchip=f"9851120{k + 10:02d}{k * 7919 % 1000000:06d}",
            status=status,
            spayed_neutered=altered,
            adoption_fee_cents={"dog": 15_000, "cat": 9_500}.get(species, 4_000),
            kennel=f"{species[0].upper()}-{k + 1:02d}" if status in IN_CARE and status != "in_foster" else "",
            intake_date=came,
            foster_id=folks[1].id if status == "in_foster" else None,
            created_at=s.now - dt.timedelta(days=(today - came).days),
            updated_at=s.ago(days=1),
        )
        s.create(
            Intake,
            animal_id=animal.id,
            intake_type=itype,
            intake_date=came,
            person_id=folks[k % 10].id if itype == "owner_surrender" else None,
            source_org=pop.customers[k % len(pop.customers)].name if itype == "transfer_in" else None,
            found_location="Found near the bus depot on 5th Avenue." if itype == "stray" else "",
            reason="Moving, cannot keep pets." if itype == "owner_surrender" else "",
            created_at=animal.created_at,
        )
        if status not in ("stray_hold",) and not (status == "awaiting_medical" and k % 2 == 0):
            s.create(
                MedicalRecord,
                animal_id=animal.id,
                kind="vaccine",
                name={"dog": "DHPP", "cat": "FVRCP"}.get(species, "RHDV2"),
                given_on=came,
                due_next=came + dt.timedelta(days=21),
                vet_email=VETS[k % 2],
                created_at=animal.created_at,
            )
        if altered:
            s.create(
                MedicalRecord,
                animal_id=animal.id,
                kind="spay_neuter",
                name="Spay/neuter surgery",
                given_on=came + dt.timedelta(days=2),
                vet_email=VETS[(k + 1) % 2],
                created_at=animal.created_at,
            )
        left = came + dt.timedelta(days=4)
        ends: dict[str, dict[str, Any]] = {
            "adopted": {"outcome_type": "adoption", "person_id": folks[2].id, "fee_cents": animal.adoption_fee_cents},
            "transferred": {"outcome_type": "transfer_out", "partner_org": pop.customers[0].name},
            "returned_to_owner": {"outcome_type": "return_to_owner", "person_id": folks[5].id},
        }
        outcome = ends.get(status)
        if outcome is not None:
            s.create(
                Outcome, animal_id=animal.id, outcome_date=left, created_at=s.ago(days=(today - left).days), **outcome
            )
        if status == "adoption_pending":
            s.create(
                Application,
                animal_id=animal.id,
                person_id=folks[3].id,
                email=folks[3].email,
                status="approved",
                created_at=s.ago(days=3),
                updated_at=s.ago(days=1),
            )
            s.create(
                Application,
                animal_id=animal.id,
                person_id=folks[4].id,
                email=folks[4].email,
                home_type="apartment",
                created_at=s.ago(days=2),
                updated_at=s.ago(days=2),
            )
        if status == "available" and k == 0:
            s.create(
                Application,
                animal_id=animal.id,
                person_id=folks[6].id,
                email=folks[6].email,
                has_other_pets=True,
                created_at=s.ago(days=1),
                updated_at=s.ago(days=1),
            )
