"""Pawsome: pet boarding and daycare with vaccination checks, kennels, reservations, check-ins and incidents.

Modeled on the Gingr pet care software API: owners and their animals (species,
breed, weight, temperament), immunization records with expiry dates that staff
verify, lodging (kennel runs, cat condos, suites) by size, boarding
reservations that go requested → confirmed → checked_in → checked_out (or
cancelled), daycare check-ins and check-outs by the day, and incident reports
(injury, illness, bite, fight, escape) with a severity, the reporting staff
member and when the owner was notified. A pet boards or joins daycare only
with every required vaccine verified and valid through the stay (dogs:
rabies, DHPP, Bordetella; cats: rabies, FVRCP); a kennel takes one species and
pets up to its weight limit, one stay at a time; daycare is for dogs, once a
day; a severe bite bars a dog from daycare. Amounts are cents.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee

__all__ = ["service"]

service = Service(
    "petcare",
    title="Pawsome",
    category="pet_care",
    modeled_on="Gingr API: owners, animals, immunizations, lodging/kennels, boarding reservations with "
    "check-in/check-out, daycare, incident reports",
    description="A pet resort's front desk: owners and their dogs and cats, vaccination records checked before "
    "every stay, kennels and suites by size, boarding reservations from request to check-out, daily daycare "
    "check-ins, and incident reports shared with the owner.",
)

OwnerId = Annotated[str, IdOf("petcare.owner")]
PetId = Annotated[str, IdOf("petcare.pet")]
VaccinationId = Annotated[str, IdOf("petcare.vaccination")]
KennelId = Annotated[str, IdOf("petcare.kennel")]
StayId = Annotated[str, IdOf("petcare.stay")]
VisitId = Annotated[str, IdOf("petcare.daycare_visit")]
IncidentId = Annotated[str, IdOf("petcare.incident")]

Species = Literal["dog", "cat"]
Vaccine = Literal["rabies", "dhpp", "bordetella", "fvrcp"]
REQUIRED: dict[str, tuple[str, ...]] = {"dog": ("rabies", "dhpp", "bordetella"), "cat": ("rabies", "fvrcp")}
SIZES: dict[str, float] = {"small": 25, "medium": 60, "large": 120, "suite": 200, "condo": 30}
DAYCARE_PRICE = 3800
StayStatus = Literal["requested", "confirmed", "checked_in", "checked_out", "cancelled"]
HOLDING: tuple[str, ...] = ("requested", "confirmed", "checked_in")


class Owner(Record):
    """A pet parent."""

    id: OwnerId
    name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their e-mail (unique).")
    phone: Phone | None = Field(None, description="Their phone.")
    emergency_contact: PersonName | None = Field(None, description="Who to call if they cannot be reached.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When they registered.")


class Pet(Record):
    """An animal."""

    id: PetId
    owner_id: OwnerId = Field(description="The owner.")
    name: Title = Field(description="The pet's name.")
    species: Species = Field(description="dog or cat.")
    breed: Title = Field(description="Breed.")
    weight_lbs: Annotated[float, Field(gt=0, le=250)] = Field(description="Weight.")
    birth_date: Date | None = Field(None, description="Birthday.")
    temperament: Text = Field("", description="Notes for staff.")
    daycare_banned: bool = Field(False, description="Barred from group play after a severe incident.")


class Vaccination(Record):
    """An immunization record."""

    id: VaccinationId
    pet_id: PetId = Field(description="The pet.")
    vaccine: Vaccine = Field(description="rabies, dhpp, bordetella or fvrcp.")
    expires_on: Date = Field(description="Valid through.")
    verified: bool = Field(False, description="Whether staff checked the vet record.")
    verified_by: Email | None = Field(None, description="Who verified it.")


class Kennel(Record):
    """A run, condo or suite."""

    id: KennelId
    name: Title = Field(description="e.g. Run 4.")
    size: Literal["small", "medium", "large", "suite", "condo"] = Field(description="Its size class.")
    species: Species = Field(description="Which animals it houses.")
    nightly_rate: Cents = Field(description="Price per night.")


class Stay(Record):
    """A boarding reservation."""

    id: StayId
    pet_id: PetId = Field(description="The pet.")
    owner_id: OwnerId = Field(description="The owner.")
    kennel_id: KennelId = Field(description="The kennel.")
    start_date: Date = Field(description="Drop-off day.")
    end_date: Date = Field(description="Pick-up day.")
    feeding_instructions: Text = Field("", description="Food and schedule.")
    total: Cents = Field(description="Lodging charges.")
    status: StayStatus = Field("requested", description="requested, confirmed, checked_in, checked_out or cancelled.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was requested.")


class DaycareVisit(Record):
    """A day of daycare."""

    id: VisitId
    pet_id: PetId = Field(description="The dog.")
    day: Date = Field(description="The day.")
    checked_in_at: DateTime = Field(description="Drop-off.")
    checked_out_at: DateTime | None = Field(None, description="Pick-up.")
    price: Cents = Field(DAYCARE_PRICE, description="Day rate.")


class Incident(Record):
    """Something that happened to or was done by a pet."""

    id: IncidentId
    pet_id: PetId = Field(description="The pet.")
    kind: Literal["injury", "illness", "bite", "fight", "escape"] = Field(description="What happened.")
    severity: Literal["minor", "moderate", "severe"] = Field(description="How serious.")
    description: Text = Field(description="What happened and what was done.")
    reported_by: Email = Field(description="The staff member reporting it.")
    owner_notified_at: DateTime | None = Field(None, description="When the owner was told.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was reported.")


# -- rules ------------------------------------------------------------------------------------


def _guard_owner(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Owner, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"owner {other.id} has e-mail {new.email}", field="email", hint="add the pet to that owner")


def _guard_vax(ctx: Ctx, new: Any, old: Any) -> None:
    pet = ctx.get(Pet, new.pet_id, field="pet_id")
    if new.vaccine not in REQUIRED[pet.species] and new.vaccine != "rabies":
        raise RuleViolation(f"{new.vaccine} is not a {pet.species} vaccine", field="vaccine", hint="check the record")


owners = service.resource(
    Owner,
    name="owner",
    plural="owners",
    prefix="own",
    create=("name", "email", "phone", "emergency_contact"),
    filters=("email",),
    search=("name", "email"),
    update=("name", "phone", "emergency_contact"),
    delete=False,
    guard_create=_guard_owner,
    guard_update=_guard_owner,
)
pets = service.resource(
    Pet,
    name="pet",
    plural="pets",
    prefix="pet",
    create=("owner_id", "name", "species", "breed", "weight_lbs", "birth_date", "temperament"),
    filters=("owner_id", "species", "daycare_banned", "name"),
    search=("name", "breed"),
    update=("weight_lbs", "temperament", "breed"),
    delete=False,
)
vaccinations = service.resource(
    Vaccination,
    name="vaccination",
    plural="vaccinations",
    prefix="vax",
    create=("pet_id", "vaccine", "expires_on"),
    get=False,
    filters=("pet_id", "vaccine", "verified"),
    delete=False,
    guard_create=_guard_vax,
)
kennels = service.resource(
    Kennel,
    name="kennel",
    plural="kennels",
    prefix="ken",
    create=False,
    get=False,
    filters=("size", "species"),
    search=("name",),
    update=("nightly_rate",),
    delete=False,
)
stays = service.resource(
    Stay,
    name="stay",
    plural="stays",
    prefix="stay",
    create=False,
    filters=("pet_id", "owner_id", "kennel_id", "status", "start_date"),
    delete=False,
    transitions={
        "confirm": Transition("status", ("requested",), "confirmed", "confirm the boarding reservation"),
        "cancel": Transition("status", ("requested", "confirmed"), "cancelled", "cancel the boarding reservation"),
    },
    title="boarding reservation",
)
visits = service.resource(
    DaycareVisit,
    name="daycare_visit",
    plural="daycare_visits",
    prefix="dc",
    create=False,
    get=False,
    filters=("pet_id", "day"),
    delete=False,
    title="daycare visit",
)
incidents = service.resource(
    Incident,
    name="incident",
    plural="incidents",
    prefix="inc",
    create=False,
    filters=("pet_id", "kind", "severity"),
    search=("description",),
    delete=False,
    title="incident report",
)


# -- domain tools -----------------------------------------------------------------------------


def _vaccinated(ctx: Ctx, pet: Pet, through: dt.date, field: str) -> None:
    have = ctx.where(Vaccination, pet_id=pet.id)
    for v in REQUIRED[pet.species]:
        ok = [x for x in have if x.vaccine == v and x.verified and x.expires_on >= through]
        if not ok:
            raise RuleViolation(
                f"{pet.name} has no verified {v} vaccine valid through {through}",
                field=field,
                hint="record and verify the vaccine with petcare__verify_vaccination",
            )


def _example_verify(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Vaccination, verified=False)
    return None if v is None else {"vaccination_id": v.id, "verified_by": ctx.population.employees[0].email}


@service.tool(intent="verify the vaccination record", write=True, example=_example_verify)
def verify_vaccination(ctx: Ctx, vaccination_id: VaccinationId, verified_by: Email) -> Vaccination:
    """Mark a vaccination record verified against the vet's certificate.

    Args:
        vaccination_id: The record (not yet verified).
        verified_by: The staff member who checked it.
    """
    v = ctx.get(Vaccination, vaccination_id, field="vaccination_id")
    if v.verified:
        raise Conflict("the record is already verified", field="vaccination_id", hint="nothing to do")
    require_employee(ctx, verified_by, field="verified_by", hint="staff verify vaccine records")
    return ctx.update(v, verified=True, verified_by=verified_by)


def _clear(ctx: Ctx, kennel_id: str, start: dt.date, end: dt.date, skip: str = "") -> Stay | None:
    for s in ctx.where(Stay, kennel_id=kennel_id):
        if s.id != skip and s.status in HOLDING and s.start_date < end and start < s.end_date:
            return s
    return None


def _example_board(ctx: Ctx) -> dict[str, Any] | None:
    start = ctx.today() + dt.timedelta(days=5)
    end = start + dt.timedelta(days=3)
    for pet in ctx.scan(Pet):
        try:
            _vaccinated(ctx, pet, end, "pet_id")
        except RuleViolation:
            continue
        for k in ctx.where(Kennel, species=pet.species):
            if pet.weight_lbs <= SIZES[k.size] and _clear(ctx, k.id, start, end) is None:
                return {
                    "pet_id": pet.id,
                    "kennel_id": k.id,
                    "start_date": start.isoformat(),
                    "end_date": end.isoformat(),
                }
    return None


@service.tool(intent="book the boarding stay", write=True, example=_example_board)
def book_boarding(
    ctx: Ctx, pet_id: PetId, kennel_id: KennelId, start_date: Date, end_date: Date, feeding_instructions: Text = ""
) -> Stay:
    """Request a boarding stay in a kennel for the pet's species and size, free for the nights.

    Args:
        pet_id: The pet (vaccinations verified and valid through the pick-up day).
        kennel_id: The kennel.
        start_date: Drop-off day (today or later).
        end_date: Pick-up day (after drop-off).
        feeding_instructions: Food and schedule.
    """
    pet = ctx.get(Pet, pet_id, field="pet_id")
    k = ctx.get(Kennel, kennel_id, field="kennel_id")
    if end_date <= start_date or start_date < ctx.today():
        raise RuleViolation(
            "the stay must start today or later and end after it starts", field="end_date", hint="check the dates"
        )
    if k.species != pet.species or pet.weight_lbs > SIZES[k.size]:
        raise RuleViolation(
            f"{k.name} is a {k.size} {k.species} kennel",
            field="kennel_id",
            hint=f"pick a {pet.species} kennel for {pet.weight_lbs} lb",
        )
    clash = _clear(ctx, k.id, start_date, end_date)
    if clash is not None:
        raise Conflict(
            f"{k.name} is taken {clash.start_date} to {clash.end_date}", field="kennel_id", hint="pick another kennel"
        )
    _vaccinated(ctx, pet, end_date, "pet_id")
    for s in ctx.where(Stay, pet_id=pet.id):
        if s.status in HOLDING and s.start_date < end_date and start_date < s.end_date:
            raise Conflict(f"{pet.name} already boards then ({s.id})", field="pet_id", hint="change that stay")
    return ctx.create(
        Stay,
        pet_id=pet.id,
        owner_id=pet.owner_id,
        kennel_id=k.id,
        start_date=start_date,
        end_date=end_date,
        feeding_instructions=feeding_instructions,
        total=(end_date - start_date).days * k.nightly_rate,
    )


def _stay(ctx: Ctx, stay_id: str, state: str) -> Stay:
    s = ctx.get(Stay, stay_id, field="stay_id")
    if s.status != state:
        raise RuleViolation(f"the stay is {s.status}", field="stay_id", hint=f"only {state} stays")
    return s


@service.tool(
    intent="check the pet in for boarding",
    write=True,
    example=first_example(Stay, "stay_id", where={"status": "confirmed"}, match=lambda c, s: s.start_date <= c.today()),
)
def check_in_stay(ctx: Ctx, stay_id: StayId) -> Stay:
    """Check in a confirmed stay on its drop-off day; vaccines are checked again.

    Args:
        stay_id: The stay.
    """
    s = _stay(ctx, stay_id, "confirmed")
    if s.start_date > ctx.today():
        raise RuleViolation(f"drop-off is {s.start_date}", field="stay_id", hint="check in on the drop-off day")
    _vaccinated(ctx, ctx.get(Pet, s.pet_id), s.end_date, "stay_id")
    return ctx.update(s, status="checked_in")


@service.tool(
    intent="check the pet out from boarding",
    write=True,
    example=first_example(Stay, "stay_id", where={"status": "checked_in"}),
)
def check_out_stay(ctx: Ctx, stay_id: StayId) -> Stay:
    """Send a boarding pet home; nights are billed up to today (at least one).

    Args:
        stay_id: The stay.
    """
    s = _stay(ctx, stay_id, "checked_in")
    nights = max((min(ctx.today(), s.end_date) - s.start_date).days, 1)
    rate = ctx.get(Kennel, s.kennel_id).nightly_rate
    return ctx.update(s, status="checked_out", total=nights * rate)


def _example_daycare(ctx: Ctx) -> dict[str, Any] | None:
    for pet in ctx.where(Pet, species="dog", daycare_banned=False):
        if ctx.first(DaycareVisit, pet_id=pet.id, day=ctx.today()) is None:
            try:
                _vaccinated(ctx, pet, ctx.today(), "pet_id")
            except RuleViolation:
                continue
            return {"pet_id": pet.id}
    return None


@service.tool(intent="check the dog in to daycare", write=True, example=_example_daycare)
def daycare_check_in(ctx: Ctx, pet_id: PetId) -> DaycareVisit:
    """Check a dog in to today's daycare: vaccinated, not barred, once a day.

    Args:
        pet_id: The dog.
    """
    pet = ctx.get(Pet, pet_id, field="pet_id")
    if pet.species != "dog":
        raise RuleViolation("daycare is for dogs", field="pet_id", hint="cats can board instead")
    if pet.daycare_banned:
        raise RuleViolation(f"{pet.name} is barred from group play", field="pet_id", hint="offer boarding instead")
    if ctx.first(DaycareVisit, pet_id=pet.id, day=ctx.today()) is not None:
        raise Conflict(f"{pet.name} is already in today", field="pet_id", hint="nothing to do")
    _vaccinated(ctx, pet, ctx.today(), "pet_id")
    return ctx.create(DaycareVisit, pet_id=pet.id, day=ctx.today(), checked_in_at=ctx.now())


@service.tool(
    intent="check the dog out of daycare",
    write=True,
    example=first_example(DaycareVisit, "daycare_visit_id", where={"checked_out_at": None}),
)
def daycare_check_out(ctx: Ctx, daycare_visit_id: VisitId) -> DaycareVisit:
    """Check a dog out of daycare.

    Args:
        daycare_visit_id: The visit (still checked in).
    """
    v = ctx.get(DaycareVisit, daycare_visit_id, field="daycare_visit_id")
    if v.checked_out_at is not None:
        raise Conflict("the dog already went home", field="daycare_visit_id", hint="nothing to do")
    return ctx.update(v, checked_out_at=ctx.now())


def _example_incident(ctx: Ctx) -> dict[str, Any] | None:
    pet = ctx.first(Pet, species="dog")
    return (
        None
        if pet is None
        else {
            "pet_id": pet.id,
            "kind": "injury",
            "severity": "minor",
            "description": "Small scrape on left paw; cleaned.",
            "reported_by": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="file the incident report", write=True, example=_example_incident)
def report_incident(
    ctx: Ctx,
    pet_id: PetId,
    kind: Literal["injury", "illness", "bite", "fight", "escape"],
    severity: Literal["minor", "moderate", "severe"],
    description: Text,
    reported_by: Email,
) -> Incident:
    """File an incident report on a pet; a severe bite bars the dog from daycare.

    Args:
        pet_id: The pet.
        kind: injury, illness, bite, fight or escape.
        severity: minor, moderate or severe.
        description: What happened and what was done (required).
        reported_by: The staff member reporting it.
    """
    pet = ctx.get(Pet, pet_id, field="pet_id")
    require_employee(ctx, reported_by, field="reported_by", hint="incidents are reported by staff")
    if not description.strip():
        raise RuleViolation("describe what happened", field="description", hint="say what happened and what was done")
    if kind == "bite" and severity == "severe":
        ctx.update(pet, daycare_banned=True)
    return ctx.create(
        Incident, pet_id=pet.id, kind=kind, severity=severity, description=description.strip(), reported_by=reported_by
    )


@service.tool(
    intent="notify the owner of the incident",
    write=True,
    example=first_example(Incident, "incident_id", where={"owner_notified_at": None}),
)
def notify_owner(ctx: Ctx, incident_id: IncidentId) -> Incident:
    """Record that the owner was told about an incident.

    Args:
        incident_id: The incident (owner not yet notified).
    """
    i = ctx.get(Incident, incident_id, field="incident_id")
    if i.owner_notified_at is not None:
        raise Conflict("the owner was already notified", field="incident_id", hint="nothing to do")
    return ctx.update(i, owner_notified_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

ANIMALS: tuple[tuple[str, Species, str, float], ...] = (
    ("Biscuit", "dog", "Golden Retriever", 68),
    ("Luna", "dog", "French Bulldog", 24),
    ("Milo", "cat", "Tabby", 11),
    ("Rocky", "dog", "German Shepherd", 82),
    ("Pepper", "dog", "Border Collie", 40),
    ("Cleo", "cat", "Siamese", 9),
    ("Duke", "dog", "Boxer", 65),
    ("Hazel", "dog", "Beagle", 22),
)
KENNELS: tuple[tuple[str, Any, Species, int], ...] = (
    ("Run 1", "small", "dog", 4500),
    ("Run 2", "small", "dog", 4500),
    ("Run 3", "medium", "dog", 5500),
    ("Run 4", "medium", "dog", 5500),
    ("Run 5", "large", "dog", 6500),
    ("Run 6", "large", "dog", 6500),
    ("Luxury Suite", "suite", "dog", 9500),
    ("Cat Condo A", "condo", "cat", 3500),
    ("Cat Condo B", "condo", "cat", 3500),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Owners from consumers with dogs and cats, vaccines (one expired, one unverified), kennels, stays, daycare."""
    pop = s.population
    today = s.now.date()
    staff = pop.staff("Operations", fallback=2)[0].email
    kennels_ = [s.create(Kennel, name=n, size=z, species=sp, nightly_rate=r) for n, z, sp, r in KENNELS]
    pets_: list[Pet] = []
    for k, (name, species, breed, lbs) in enumerate(ANIMALS):
        p = pop.consumers[k // 2 + 4]
        owner = (
            s.records(Owner)[-1]
            if k % 2
            else s.create(Owner, name=p.name, email=p.email, phone=p.phone, created_at=s.ago(days=400 - 30 * k))
        )
        pet = s.create(
            Pet,
            owner_id=owner.id,
            name=name,
            species=species,
            breed=breed,
            weight_lbs=lbs,
            birth_date=today - dt.timedelta(days=400 * (k + 1)),
            daycare_banned=k == 6,
        )
        pets_.append(pet)
        for vac in REQUIRED[species]:
            expired = k == 4 and vac == "bordetella"
            s.create(
                Vaccination,
                pet_id=pet.id,
                vaccine=vac,
                verified=k != 7 or vac != "rabies",
                verified_by=staff if k != 7 or vac != "rabies" else None,
                expires_on=today - dt.timedelta(days=10) if expired else today + dt.timedelta(days=200 + 30 * k),
            )
    plan: tuple[tuple[int, int, int, int, StayStatus], ...] = (
        (0, 4, -3, 2, "checked_in"),
        (2, 7, -1, 3, "checked_in"),
        (1, 0, 0, 4, "confirmed"),
        (3, 4, 6, 9, "confirmed"),
        (5, 8, 10, 12, "requested"),
        (0, 4, -10, -6, "checked_out"),
        (1, 1, 15, 18, "cancelled"),
    )
    for pk, kk, a, b, status in plan:
        pet, ken = pets_[pk], kennels_[kk]
        s.create(
            Stay,
            pet_id=pet.id,
            owner_id=pet.owner_id,
            kennel_id=ken.id,
            start_date=today + dt.timedelta(days=a),
            end_date=today + dt.timedelta(days=b),
            total=(b - a) * ken.nightly_rate,
            status=status,
            created_at=s.ago(days=20),
        )
    for pk in (3, 6):
        s.create(
            DaycareVisit,
            pet_id=pets_[pk].id,
            day=today - dt.timedelta(days=1),
            checked_in_at=s.ago(days=1, hours=2),
            checked_out_at=s.ago(days=1, hours=-6),
        )
    s.create(DaycareVisit, pet_id=pets_[3].id, day=today, checked_in_at=s.ago(hours=1))
    s.create(
        Incident,
        pet_id=pets_[6].id,
        kind="bite",
        severity="severe",
        reported_by=staff,
        description="Bit another dog during group play; separated, both checked by staff.",
        owner_notified_at=s.ago(days=14),
        created_at=s.ago(days=14),
    )
    s.create(
        Incident,
        pet_id=pets_[0].id,
        kind="illness",
        severity="minor",
        reported_by=staff,
        description="Skipped breakfast; ate dinner normally.",
        created_at=s.ago(hours=3),
    )
