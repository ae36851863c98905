"""Lifeline Blood Center: donors and deferrals, donations, blood units by product and type, crossmatch and issue.

Modeled on Hemasoft eDonor/eTraceline and Haemonetics SafeTrace Tx (donors with
ABO/Rh and eligibility, temporary or permanent deferrals; donations by
procedure (whole blood, apheresis platelets, plasma) with the hemoglobin
screen and the minimum interval since the last donation; ISBT 128 donation
identification numbers (DIN) on components made from a donation (red cells
42 days, platelets 5 days, plasma a year) held in quarantine until infectious
disease testing releases them, or discarded and the donor deferred for good
when a test is reactive; recipients with their type; electronic crossmatch of
an available unit to a patient under ABO/Rh compatibility (red cells: O to
anyone, Rh-negative patients get Rh-negative units; plasma: the reverse);
issue of a crossmatched unit, transfusion, and transfusion reactions that
quarantine the donation's other components when hemolytic).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Phone, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import age_on

__all__ = ["service"]

service = Service(
    "bloodbank",
    title="Lifeline Blood Center",
    category="blood_bank",
    modeled_on="Hemasoft eDonor / Haemonetics SafeTrace Tx: donors and deferrals, donations with hemoglobin screen, "
    "ISBT 128 components (red cells, platelets, plasma) with expiry, testing release, crossmatch, issue, "
    "transfusion and reaction reporting",
    description="A blood center and hospital transfusion service: donors and their eligibility, donations and the "
    "components made from them, quarantine and release after testing, patients' blood types, crossmatches, "
    "units issued and transfused, and transfusion reactions.",
)

DonorId = Annotated[str, IdOf("bloodbank.donor")]
DonationId = Annotated[str, IdOf("bloodbank.donation")]
UnitId = Annotated[str, IdOf("bloodbank.unit")]
PatientId = Annotated[str, IdOf("bloodbank.patient")]
XmId = Annotated[str, IdOf("bloodbank.crossmatch")]
ReactionId = Annotated[str, IdOf("bloodbank.reaction")]

Din = Annotated[str, StringConstraints(pattern=r"^W[0-9]{4}[0-9]{2}[0-9]{6}[A-Z]$")]
"""ISBT 128 donation identification number with the component letter."""

Abo = Literal["O", "A", "B", "AB"]
Rh = Literal["pos", "neg"]
DonorStatus = Literal["eligible", "deferred_temporary", "deferred_permanent"]
Procedure = Literal["whole_blood", "apheresis_platelets", "plasma"]
DonationStatus = Literal["quarantined", "released", "discarded"]
Product = Literal["red_cells", "platelets", "plasma"]
UnitStatus = Literal["quarantined", "available", "crossmatched", "issued", "transfused", "discarded"]
ReactionType = Literal["febrile", "allergic", "acute_hemolytic", "taco", "trali"]
DeferralReason = Literal["low_hemoglobin", "travel", "medication", "recent_tattoo", "reactive_test", "other"]

INTERVAL_DAYS: dict[str, int] = {"whole_blood": 56, "apheresis_platelets": 7, "plasma": 28}
COMPONENTS: dict[str, tuple[tuple[Product, str, int], ...]] = {
    "whole_blood": (("red_cells", "A", 42), ("plasma", "C", 365)),
    "apheresis_platelets": (("platelets", "B", 5),),
    "plasma": (("plasma", "C", 365),),
}
RBC_OK: dict[str, frozenset[str]] = {
    "O": frozenset({"O"}),
    "A": frozenset({"O", "A"}),
    "B": frozenset({"O", "B"}),
    "AB": frozenset({"O", "A", "B", "AB"}),
}
PLASMA_OK: dict[str, frozenset[str]] = {
    "O": frozenset({"O", "A", "B", "AB"}),
    "A": frozenset({"A", "AB"}),
    "B": frozenset({"B", "AB"}),
    "AB": frozenset({"AB"}),
}
MIN_HGB = 12.5


class Donor(Timestamped):
    """A blood donor."""

    id: DonorId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail (unique)."""
    phone: Phone
    """Phone."""
    birth_date: Date
    """Date of birth."""
    abo: Abo
    """ABO group."""
    rh: Rh
    """Rh(D) type."""
    status: DonorStatus = "eligible"
    """eligible, deferred_temporary or deferred_permanent."""
    deferral_reason: DeferralReason | None = None
    """Why they are deferred."""
    deferred_until: Date | None = None
    """Last day of a temporary deferral."""
    last_donation_on: Date | None = None
    """When they last gave."""
    donations: int = 0
    """Lifetime donations."""


class Donation(Timestamped):
    """A collection from a donor."""

    id: DonationId
    donor_id: DonorId
    """The donor."""
    din: Annotated[str, StringConstraints(pattern=r"^W[0-9]{12}$")]
    """The donation identification number."""
    procedure: Procedure
    """whole_blood, apheresis_platelets or plasma."""
    collected_on: Date
    """Collection day."""
    hemoglobin: Annotated[float, Field(ge=5, le=22)]
    """Pre-donation hemoglobin, g/dL."""
    status: DonationStatus = "quarantined"
    """quarantined (testing), released or discarded."""


class Unit(Timestamped):
    """A blood component."""

    id: UnitId
    donation_id: DonationId
    """The donation it came from."""
    din: Din
    """DIN with the component letter."""
    product: Product
    """red_cells, platelets or plasma."""
    abo: Abo
    """ABO group."""
    rh: Rh
    """Rh(D) type."""
    expires_on: Date
    """Expiry."""
    status: UnitStatus = "quarantined"
    """quarantined, available, crossmatched, issued, transfused or discarded."""
    patient_id: PatientId | None = None
    """The patient it is crossmatched or issued to."""


class Patient(Timestamped):
    """A hospital patient who may need blood."""

    id: PatientId
    name: PersonName
    """Full name."""
    mrn: Annotated[str, StringConstraints(pattern=r"^MRN[0-9]{6}$")]
    """Medical record number."""
    birth_date: Date
    """Date of birth."""
    abo: Abo | None = None
    """ABO group (none until typed)."""
    rh: Rh | None = None
    """Rh(D) type."""


class Crossmatch(Timestamped):
    """An electronic crossmatch of a unit to a patient."""

    id: XmId
    patient_id: PatientId
    """The patient."""
    unit_id: UnitId
    """The unit."""
    performed_at: DateTime
    """When."""
    status: Literal["active", "released"] = "active"
    """active (unit held for the patient) or released."""


class Reaction(Timestamped):
    """A transfusion reaction report."""

    id: ReactionId
    unit_id: UnitId
    """The unit transfused."""
    patient_id: PatientId
    """The patient."""
    reaction_type: ReactionType
    """febrile, allergic, acute_hemolytic, taco or trali."""
    description: Text
    """Signs and symptoms."""
    reported_by: Email
    """The nurse or physician reporting."""
    status: Literal["under_investigation", "closed"] = "under_investigation"
    """under_investigation or closed."""


# -- rules ------------------------------------------------------------------------------------

donors = service.resource(
    Donor,
    name="donor",
    plural="donors",
    prefix="dnr",
    create=("name", "email", "phone", "birth_date", "abo", "rh"),
    filters=("email", "abo", "rh", "status"),
    search=("name",),
    update=("email", "phone"),
    delete=False,
    unique=("email",),
)
donations = service.resource(
    Donation,
    name="donation",
    plural="donations",
    prefix="don",
    create=False,
    filters=("donor_id", "status", "procedure", "din"),
    delete=False,
)
units = service.resource(
    Unit,
    name="unit",
    plural="units",
    prefix="unit",
    create=False,
    filters=("product", "abo", "rh", "status", "patient_id", "donation_id", "din"),
    delete=False,
    transitions={
        "discard": Transition(
            "status", ("quarantined", "available"), "discarded", "discard the blood unit", destructive=True
        ),
    },
    title="blood unit",
)
patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pt",
    create=False,
    filters=("mrn", "abo", "rh"),
    search=("name",),
    update=("abo", "rh"),
    delete=False,
)
crossmatches = service.resource(
    Crossmatch,
    name="crossmatch",
    plural="crossmatches",
    prefix="xm",
    create=False,
    filters=("patient_id", "unit_id", "status"),
    delete=False,
)
reactions = service.resource(
    Reaction,
    name="reaction",
    plural="reactions",
    prefix="rxn",
    create=False,
    filters=("patient_id", "unit_id", "reaction_type", "status"),
    delete=False,
    transitions={"close": Transition("status", ("under_investigation",), "closed", "close the reaction investigation")},
    title="transfusion reaction",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="defer the donor",
    write=True,
    example=first_example(Donor, "donor_id", where={"status": "eligible"}, reason="travel", days=30),
)
def defer_donor(
    ctx: Ctx, donor_id: DonorId, reason: DeferralReason, days: Annotated[int, Field(ge=1, le=365)] | None = None
) -> Donor:
    """Defer a donor: for a number of days (temporary) or, without days, permanently.

    Args:
        donor_id: The donor.
        reason: low_hemoglobin, travel, medication, recent_tattoo, reactive_test or other.
        days: Length of a temporary deferral; omit for a permanent one.
    """
    donor = ctx.get(Donor, donor_id, field="donor_id")
    if donor.status == "deferred_permanent":
        raise RuleViolation(f"{donor.name} is permanently deferred", field="donor_id", hint="nothing to change")
    if days is None:
        return ctx.update(donor, status="deferred_permanent", deferral_reason=reason, deferred_until=None)
    return ctx.update(
        donor,
        status="deferred_temporary",
        deferral_reason=reason,
        deferred_until=ctx.today() + dt.timedelta(days=days),
    )


@service.tool(
    intent="reinstate the donor",
    write=True,
    example=first_example(
        Donor,
        "donor_id",
        where={"status": "deferred_temporary"},
        match=lambda c, d: d.deferred_until is not None and d.deferred_until < c.today(),
    ),
)
def reinstate_donor(ctx: Ctx, donor_id: DonorId) -> Donor:
    """Make a temporarily deferred donor eligible again once the deferral has ended.

    Args:
        donor_id: A temporarily deferred donor.
    """
    donor = ctx.get(Donor, donor_id, field="donor_id")
    if donor.status != "deferred_temporary" or (donor.deferred_until and donor.deferred_until >= ctx.today()):
        raise RuleViolation(
            f"{donor.name} is {donor.status}" + (f" until {donor.deferred_until}" if donor.deferred_until else ""),
            field="donor_id",
            hint="only ended temporary deferrals are lifted",
        )
    return ctx.update(donor, status="eligible", deferral_reason=None, deferred_until=None)


def _example_collect(ctx: Ctx) -> dict[str, Any] | None:
    for d in ctx.where(Donor, status="eligible"):
        if d.last_donation_on is None or (ctx.today() - d.last_donation_on).days >= 56:
            return {"donor_id": d.id, "procedure": "whole_blood", "hemoglobin": 13.8}
    return None


@service.tool(intent="collect a donation from the donor", write=True, example=_example_collect)
def collect_donation(
    ctx: Ctx, donor_id: DonorId, procedure: Procedure, hemoglobin: Annotated[float, Field(ge=5, le=22)]
) -> Donation:
    """Collect from an eligible donor aged 16+ past the procedure's interval; its components go to quarantine.

    A hemoglobin under 12.5 g/dL defers the donor for 56 days instead (and is refused).

    Args:
        donor_id: The donor.
        procedure: whole_blood (every 56 days), apheresis_platelets (7) or plasma (28).
        hemoglobin: The fingerstick hemoglobin, g/dL.
    """
    donor = ctx.get(Donor, donor_id, field="donor_id")
    today = ctx.today()
    if donor.status != "eligible":
        raise RuleViolation(f"{donor.name} is {donor.status}", field="donor_id", hint="deferred donors cannot give")
    if age_on(donor.birth_date, today) < 16:
        raise RuleViolation(f"{donor.name} is under 16", field="donor_id", hint="donors must be 16 or older")
    gap = INTERVAL_DAYS[procedure]
    if donor.last_donation_on and (today - donor.last_donation_on).days < gap:
        raise RuleViolation(
            f"{donor.name} last gave on {donor.last_donation_on}; {procedure} needs {gap} days between",
            field="procedure",
            hint=f"they can give from {donor.last_donation_on + dt.timedelta(days=gap)}",
        )
    if hemoglobin < MIN_HGB:
        raise RuleViolation(
            f"hemoglobin {hemoglobin} g/dL is under {MIN_HGB}",
            field="hemoglobin",
            hint="defer the donor with bloodbank__defer_donor (low_hemoglobin, 56 days)",
        )
    din = f"W0420{today:%y}{ctx.next_number(Donation, 'din'):06d}"
    donation = ctx.create(
        Donation, donor_id=donor.id, din=din, procedure=procedure, collected_on=today, hemoglobin=hemoglobin
    )
    for product, letter, days in COMPONENTS[procedure]:
        ctx.create(
            Unit,
            donation_id=donation.id,
            din=din + letter,
            product=product,
            abo=donor.abo,
            rh=donor.rh,
            expires_on=today + dt.timedelta(days=days),
        )
    ctx.update(donor, last_donation_on=today, donations=donor.donations + 1)
    return donation


@service.tool(
    intent="record the donation's test results",
    write=True,
    example=first_example(Donation, "donation_id", where={"status": "quarantined"}, reactive=False),
)
def record_test_results(ctx: Ctx, donation_id: DonationId, reactive: bool) -> Donation:
    """Record infectious disease testing: negative releases the components, reactive discards them.

    A reactive result also defers the donor permanently.

    Args:
        donation_id: A quarantined donation.
        reactive: Whether any screening test was reactive.
    """
    donation = ctx.get(Donation, donation_id, field="donation_id")
    if donation.status != "quarantined":
        raise RuleViolation(f"donation {donation.din} is {donation.status}", field="donation_id", hint="already done")
    for unit in ctx.where(Unit, donation_id=donation.id, status="quarantined"):
        ctx.update(unit, status="discarded" if reactive else "available")
    if reactive:
        donor = ctx.get(Donor, donation.donor_id)
        ctx.update(donor, status="deferred_permanent", deferral_reason="reactive_test", deferred_until=None)
    return ctx.update(donation, status="discarded" if reactive else "released")


def _fits(unit: Unit, pt: Patient) -> str | None:
    """Why the unit does not fit the patient, or None."""
    if pt.abo is None or pt.rh is None:
        return f"{pt.name} has not been typed"
    table = PLASMA_OK if unit.product == "plasma" else RBC_OK
    if unit.abo not in table[pt.abo]:
        return f"a group {unit.abo} {unit.product} unit is incompatible with group {pt.abo}"
    if unit.product != "plasma" and pt.rh == "neg" and unit.rh == "pos":
        return f"{pt.name} is Rh-negative and the unit is Rh-positive"
    return None


def _example_xm(ctx: Ctx) -> dict[str, Any] | None:
    for pt in ctx.where(Patient):
        for u in ctx.where(Unit, status="available", product="red_cells"):
            if _fits(u, pt) is None and u.expires_on >= ctx.today():
                return {"patient_id": pt.id, "unit_id": u.id}
    return None


@service.tool(intent="crossmatch the unit to the patient", write=True, example=_example_xm)
def crossmatch_unit(ctx: Ctx, patient_id: PatientId, unit_id: UnitId) -> Crossmatch:
    """Electronically crossmatch an available, unexpired unit to a typed patient under ABO/Rh rules; it is held.

    Args:
        patient_id: The patient (typed).
        unit_id: An available unit.
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    unit = ctx.get(Unit, unit_id, field="unit_id")
    if unit.status != "available" or unit.expires_on < ctx.today():
        raise RuleViolation(
            f"unit {unit.din} is {unit.status}, expires {unit.expires_on}", field="unit_id", hint="pick another unit"
        )
    why = _fits(unit, pt)
    if why is not None:
        raise RuleViolation(
            why, field="patient_id" if pt.abo is None else "unit_id", hint="type the patient or pick a compatible unit"
        )
    ctx.update(unit, status="crossmatched", patient_id=pt.id)
    return ctx.create(Crossmatch, patient_id=pt.id, unit_id=unit.id, performed_at=ctx.now())


@service.tool(
    intent="release the crossmatch",
    write=True,
    example=first_example(Crossmatch, "crossmatch_id", where={"status": "active"}),
)
def release_crossmatch(ctx: Ctx, crossmatch_id: XmId) -> Crossmatch:
    """Release a held unit back to inventory (the patient no longer needs it).

    Args:
        crossmatch_id: An active crossmatch whose unit is not issued.
    """
    xm = ctx.get(Crossmatch, crossmatch_id, field="crossmatch_id")
    unit = ctx.get(Unit, xm.unit_id)
    if xm.status != "active" or unit.status != "crossmatched":
        raise RuleViolation(f"crossmatch {xm.id} is {xm.status}", field="crossmatch_id", hint="nothing to release")
    ctx.update(unit, status="available", patient_id=None)
    return ctx.update(xm, status="released")


@service.tool(
    intent="issue the unit for transfusion",
    write=True,
    example=first_example(Unit, "unit_id", where={"status": "crossmatched"}),
)
def issue_unit(ctx: Ctx, unit_id: UnitId) -> Unit:
    """Issue a crossmatched, unexpired unit to its patient's floor.

    Args:
        unit_id: A crossmatched unit.
    """
    unit = ctx.get(Unit, unit_id, field="unit_id")
    if unit.status != "crossmatched":
        raise RuleViolation(f"unit {unit.din} is {unit.status}", field="unit_id", hint="crossmatch it first")
    if unit.expires_on < ctx.today():
        raise RuleViolation(f"unit {unit.din} expired {unit.expires_on}", field="unit_id", hint="discard it")
    return ctx.update(unit, status="issued")


@service.tool(
    intent="record the transfusion",
    write=True,
    example=first_example(Unit, "unit_id", where={"status": "issued"}),
)
def record_transfusion(ctx: Ctx, unit_id: UnitId) -> Unit:
    """Record that an issued unit was transfused.

    Args:
        unit_id: An issued unit.
    """
    unit = ctx.get(Unit, unit_id, field="unit_id")
    if unit.status != "issued":
        raise RuleViolation(f"unit {unit.din} is {unit.status}", field="unit_id", hint="issue it first")
    return ctx.update(unit, status="transfused")


@service.tool(
    intent="report a transfusion reaction",
    write=True,
    example=lambda ctx: (
        None
        if (u := ctx.first(Unit, status="transfused")) is None
        else {
            "unit_id": u.id,
            "reaction_type": "febrile",
            "description": "Temperature rose 1.2 C after 40 minutes; chills.",
            "reported_by": ctx.population.employees[0].email,
        }
    ),
)
def report_reaction(
    ctx: Ctx, unit_id: UnitId, reaction_type: ReactionType, description: Text, reported_by: Email
) -> Reaction:
    """Report a reaction to an issued or transfused unit.

    An acute hemolytic reaction quarantines the donation's other components still in inventory.

    Args:
        unit_id: The unit.
        reaction_type: febrile, allergic, acute_hemolytic, taco or trali.
        description: Signs and symptoms (required).
        reported_by: The reporting nurse or physician.
    """
    unit = ctx.get(Unit, unit_id, field="unit_id")
    if unit.status not in ("issued", "transfused") or unit.patient_id is None:
        raise RuleViolation(f"unit {unit.din} is {unit.status}", field="unit_id", hint="report on a transfused unit")
    if not description.strip():
        raise RuleViolation("describe the reaction", field="description", hint="list signs and symptoms")
    if ctx.first(Reaction, unit_id=unit.id, status="under_investigation") is not None:
        raise Conflict(f"unit {unit.din} has an open reaction", field="unit_id", hint="add to that investigation")
    if reaction_type == "acute_hemolytic":
        for sibling in ctx.where(Unit, donation_id=unit.donation_id):
            if sibling.status in ("available", "crossmatched"):
                ctx.update(sibling, status="quarantined", patient_id=None)
    return ctx.create(
        Reaction,
        unit_id=unit.id,
        patient_id=unit.patient_id,
        reaction_type=reaction_type,
        description=description.strip(),
        reported_by=reported_by,
    )


# -- seed -------------------------------------------------------------------------------------

TYPES: tuple[tuple[Abo, Rh], ...] = (
    ("O", "pos"),
    ("A", "pos"),
    ("O", "neg"),
    ("B", "pos"),
    ("A", "neg"),
    ("AB", "pos"),
    ("O", "pos"),
    ("A", "pos"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Consumer donors of every type (some deferred), donations with components in every state, typed patients."""
    pop = s.population
    today = s.now.date()
    people = list(pop.consumers)
    for k, p in enumerate(people[36:48]):
        abo, rh = TYPES[k % len(TYPES)]
        gave = today - dt.timedelta(days=3 + 4 * k)
        status: DonorStatus = "eligible" if k < 9 else ("deferred_temporary", "deferred_permanent", "eligible")[k - 9]
        donor = s.create(
            Donor,
            name=p.name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            abo=abo,
            rh=rh,
            status=status,
            deferral_reason={"deferred_temporary": "travel", "deferred_permanent": "reactive_test"}.get(status),
            deferred_until=today - dt.timedelta(days=1) if status == "deferred_temporary" else None,
            last_donation_on=gave if k < 9 else None,
            donations=1 + k % 4 if k < 9 else 0,
        )
        if k >= 9:
            continue
        procedure: Procedure = "apheresis_platelets" if k % 4 == 3 else "whole_blood"
        din = f"W0420{gave:%y}{1000 + k:06d}"
        released = k != 8
        donation = s.create(
            Donation,
            donor_id=donor.id,
            din=din,
            procedure=procedure,
            collected_on=gave,
            hemoglobin=13.2 + 0.3 * (k % 5),
            status="released" if released else "quarantined",
        )
        for product, letter, days in COMPONENTS[procedure]:
            s.create(
                Unit,
                donation_id=donation.id,
                din=din + letter,
                product=product,
                abo=abo,
                rh=rh,
                expires_on=gave + dt.timedelta(days=days),
                status="available" if released else "quarantined",
            )
    for k, p in enumerate(people[48:54]):
        abo, rh = TYPES[(k + 2) % len(TYPES)]
        s.create(
            Patient,
            name=p.name,
            mrn=f"MRN{480200 + 37 * k}",
            birth_date=p.birth_date,
            abo=None if k == 5 else abo,
            rh=None if k == 5 else rh,
        )
    pts = s.records(Patient)
    units_now = s.records(Unit)
    for pt, state in ((pts[0], "crossmatched"), (pts[1], "transfused"), (pts[2], "issued"), (pts[3], "transfused")):
        for i, u in enumerate(units_now):
            if (
                u.status == "available"
                and u.product == "red_cells"
                and pt.abo
                and u.abo in RBC_OK[pt.abo]
                and (pt.rh == "pos" or u.rh == "neg")
            ):
                units_now[i] = s.update(u, status=state, patient_id=pt.id)
                s.create(
                    Crossmatch,
                    patient_id=pt.id,
                    unit_id=u.id,
                    performed_at=s.ago(hours=6),
                    status="active" if state == "crossmatched" else "released",
                )
                break
    done = [u for u in units_now if u.status == "transfused"]
    s.create(
        Reaction,
        unit_id=done[0].id,
        patient_id=done[0].patient_id,
        reaction_type="allergic",
        description="Hives on the forearms 20 minutes in; resolved with diphenhydramine.",
        reported_by=pop.employees[3].email,
    )
