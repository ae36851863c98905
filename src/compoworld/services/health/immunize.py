"""StateShot Immunization Registry: patients, vaccinations by lot with VIS dates, vaccine lots, forecasts, recall.

Modeled on a state Immunization Information System (IIS) as providers reach
it over HL7 v2.5.1 (VXU^V04 to report a vaccination, QBP^Q11 Z34/Z44 to query
a patient's history and forecast, the CDC CVX and MVX code sets, the VIS
edition date given to the patient, refusals, entered-in-error deletes) and
on its inventory and reminder/recall modules: facilities that submit, vaccine
lots with their CVX, manufacturer, funding (VFC or private), expiry and doses
on hand; a vaccination uses a lot of its own vaccine at its own facility that
is not expired, recalled or empty on the day, is not given before birth or
before the minimum interval after the previous dose of its series, and names
the VIS edition date; marking one entered-in-error returns its dose to the
lot; the forecast applies the adult schedule (influenza and COVID-19 each
season, Tdap/Td every ten years, three-dose hepatitis B, two-dose Shingrix
from 50, pneumococcal from 65), and reminders go only to patients who allow
them for a series that is due or overdue.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, PersonName, Phone, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import age_on
from compoworld.world.care import clinic_sites

__all__ = ["service"]

service = Service(
    "immunize",
    title="StateShot Immunization Registry",
    category="immunization_registry",
    modeled_on="State IIS over HL7 v2.5.1 (VXU^V04 vaccination reports, QBP^Q11 Z34/Z44 history and forecast "
    "queries, CVX/MVX codes, VIS dates, refusals, entered-in-error), IIS inventory and reminder/recall modules",
    description="The state immunization registry: patients and whether they accept reminders, the facilities that "
    "report, their vaccine lots with expiry and doses on hand, vaccinations reported with lot and VIS date, the "
    "forecast of doses due, and reminder/recall notices for overdue series.",
)

PatientId = Annotated[str, IdOf("immunize.patient")]
FacilityId = Annotated[str, IdOf("immunize.facility")]
LotId = Annotated[str, IdOf("immunize.lot")]
VaxId = Annotated[str, IdOf("immunize.vaccination")]
ReminderId = Annotated[str, IdOf("immunize.reminder")]

LotNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{4,12}$")]
"""A manufacturer's lot number."""

Group = Literal["influenza", "covid19", "tdap_td", "hepb", "zoster", "pneumococcal"]
Cvx = Literal["158", "309", "115", "09", "43", "187", "216"]
Mvx = Literal["SKB", "PFR", "MOD", "SNY", "MSD", "SEQ"]
Funding = Literal["vfc", "private", "state"]
LotStatus = Literal["active", "recalled"]
VaxStatus = Literal["completed", "refused", "entered_in_error"]
Route = Literal["im_left_deltoid", "im_right_deltoid", "sc_left_arm", "intranasal"]
ForecastStatus = Literal["complete", "due", "overdue", "not_yet_eligible"]
ReminderStatus = Literal["queued", "sent", "cancelled"]
Method = Literal["mail", "sms", "email"]

CVX_GROUP: dict[str, Group] = {
    "158": "influenza",
    "309": "covid19",
    "115": "tdap_td",
    "09": "tdap_td",
    "43": "hepb",
    "187": "zoster",
    "216": "pneumococcal",
}
CVX_NAME: dict[str, str] = {
    "158": "Influenza, injectable, quadrivalent",
    "309": "COVID-19, mRNA, LNP-S, 2024-2025 formula",
    "115": "Tdap",
    "09": "Td (adult), adsorbed",
    "43": "Hepatitis B, adult dosage",
    "187": "Zoster recombinant (Shingrix)",
    "216": "Pneumococcal conjugate PCV20",
}
# group: (doses in the series, minimum age in years, days between doses, days until a repeat is due (0: never))
SCHEDULE: dict[Group, tuple[int, int, int, int]] = {
    "influenza": (1, 0, 0, 365),
    "covid19": (1, 0, 0, 365),
    "tdap_td": (1, 11, 0, 3650),
    "hepb": (3, 0, 28, 0),
    "zoster": (2, 50, 56, 0),
    "pneumococcal": (1, 65, 0, 0),
}
OVERDUE_AFTER = dt.timedelta(days=30)


class Patient(Timestamped):
    """A person in the registry."""

    id: PatientId
    name: PersonName
    """Full name."""
    birth_date: Date
    """Date of birth."""
    email: Email | None = None
    """E-mail for reminders."""
    phone: Phone | None = None
    """Phone for reminders."""
    reminder_recall: bool = True
    """Whether they accept reminder/recall notices (HL7 PD1-11 publicity code)."""
    status: Literal["active", "moved", "deceased"] = "active"
    """active, moved (out of the jurisdiction) or deceased."""


class Facility(Timestamped):
    """A clinic or pharmacy that reports to the registry."""

    id: FacilityId
    name: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """Its name."""
    org_code: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}[0-9]{5}$")]
    """The registry's organization code (MSH-4)."""
    vfc_pin: Annotated[str, StringConstraints(pattern=r"^[0-9]{6}$")] | None = None
    """Vaccines for Children PIN, if enrolled."""
    contact_email: Email
    """The immunization coordinator's e-mail."""


class Lot(Timestamped):
    """A lot of vaccine a facility holds."""

    id: LotId
    facility_id: FacilityId
    """The facility."""
    lot_number: LotNumber
    """Manufacturer lot number."""
    cvx: Cvx
    """The vaccine (CVX)."""
    mvx: Mvx
    """The manufacturer (MVX)."""
    funding: Funding = "private"
    """vfc, private or state."""
    expires_on: Date
    """Expiration date."""
    doses_on_hand: Annotated[int, Field(ge=0)]
    """Doses in stock."""
    status: LotStatus = "active"
    """active or recalled."""


class Vaccination(Timestamped):
    """A reported immunization (VXU), refusal, or a record entered in error."""

    id: VaxId
    patient_id: PatientId
    """The patient."""
    cvx: Cvx
    """The vaccine (CVX)."""
    group: Group
    """Its vaccine group."""
    administered_on: Date
    """When."""
    facility_id: FacilityId
    """Who gave it."""
    lot_id: LotId | None = None
    """The lot (none for historical records and refusals)."""
    route: Route | None = None
    """Route and site."""
    vis_date: Date | None = None
    """Edition date of the Vaccine Information Statement given."""
    administered_by: PersonName | None = None
    """The vaccinator."""
    historical: bool = False
    """Reported from another record rather than given here."""
    status: VaxStatus = "completed"
    """completed, refused or entered_in_error."""
    note: Text = ""
    """Refusal reason or comment."""


class Reminder(Timestamped):
    """A reminder or recall notice."""

    id: ReminderId
    patient_id: PatientId
    """The patient."""
    group: Group
    """The vaccine group due."""
    due_on: Date
    """When the dose is due."""
    method: Method
    """mail, sms or email."""
    status: ReminderStatus = "queued"
    """queued, sent or cancelled."""


class DoseDue(Value):
    """The forecast for one vaccine group."""

    group: Group
    """The vaccine group."""
    status: ForecastStatus
    """complete, due, overdue or not_yet_eligible."""
    doses_valid: int
    """Valid doses on record."""
    next_dose: int | None
    """The dose number due next."""
    earliest_date: Date | None
    """The earliest valid date for it."""
    due_date: Date | None
    """When it is recommended."""


# -- rules ------------------------------------------------------------------------------------


def _given(ctx: Ctx, patient_id: str, group: str) -> list[Vaccination]:
    shots = [v for v in ctx.where(Vaccination, patient_id=patient_id, group=group) if v.status == "completed"]
    return sorted(shots, key=lambda v: v.administered_on)


def _forecast(ctx: Ctx, pt: Patient, group: Group) -> DoseDue:
    doses, min_age, gap, repeat = SCHEDULE[group]
    today = ctx.today()
    eligible = pt.birth_date.replace(year=pt.birth_date.year + min_age) if min_age else pt.birth_date
    shots = _given(ctx, pt.id, group)
    last = shots[-1].administered_on if shots else None
    count = len(shots)
    g = group
    if count >= doses and (not repeat or (last is not None and last + dt.timedelta(days=repeat) > today)):
        return DoseDue(group=g, status="complete", doses_valid=count, next_dose=None, earliest_date=None, due_date=None)
    if count >= doses and last is not None:
        due = last + dt.timedelta(days=repeat)
        earliest, number = due, count + 1
    else:
        earliest = max(eligible, last + dt.timedelta(days=gap)) if last else eligible
        due, number = earliest, count + 1
    if earliest > today:
        status: ForecastStatus = "not_yet_eligible"
    else:
        status = "overdue" if today - due > OVERDUE_AFTER else "due"
    return DoseDue(group=g, status=status, doses_valid=count, next_dose=number, earliest_date=earliest, due_date=due)


patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="iis",
    create=("name", "birth_date", "email", "phone", "reminder_recall"),
    filters=("email", "status", "reminder_recall", "birth_date"),
    search=("name",),
    update=("email", "phone", "reminder_recall", "status"),
    delete=False,
)
facilities = service.resource(
    Facility,
    name="facility",
    plural="facilities",
    prefix="fac",
    create=False,
    filters=("org_code", "contact_email"),
    search=("name",),
    delete=False,
)
lots = service.resource(
    Lot,
    name="lot",
    plural="lots",
    prefix="lot",
    create=False,
    filters=("facility_id", "cvx", "status", "lot_number", "funding"),
    update=("doses_on_hand",),
    delete=False,
    transitions={"recall": Transition("status", ("active",), "recalled", "recall the vaccine lot", destructive=True)},
    title="vaccine lot",
)
vaccinations = service.resource(
    Vaccination,
    name="vaccination",
    plural="vaccinations",
    prefix="vx",
    create=False,
    filters=("patient_id", "group", "cvx", "status", "facility_id", "lot_id"),
    delete=False,
)
reminders = service.resource(
    Reminder,
    name="reminder",
    plural="reminders",
    prefix="rem",
    create=False,
    filters=("patient_id", "group", "status", "method"),
    delete=False,
    transitions={
        "send": Transition("status", ("queued",), "sent", "send the reminder"),
        "cancel": Transition("status", ("queued",), "cancelled", "cancel the reminder"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _example_lot(ctx: Ctx) -> dict[str, Any] | None:
    fac = ctx.first(Facility)
    if fac is None:
        return None
    return {
        "facility_id": fac.id,
        "lot_number": "FLU9K2Z",
        "cvx": "158",
        "mvx": "SNY",
        "expires_on": (ctx.today() + dt.timedelta(days=200)).isoformat(),
        "doses_on_hand": 50,
    }


@service.tool(intent="receive a vaccine lot into inventory", write=True, example=_example_lot)
def receive_lot(
    ctx: Ctx,
    facility_id: FacilityId,
    lot_number: LotNumber,
    cvx: Cvx,
    mvx: Mvx,
    expires_on: Date,
    doses_on_hand: Annotated[int, Field(ge=1, le=10000)],
    funding: Funding = "private",
) -> Lot:
    """Add a lot a facility received; a facility holds each lot number once, and expired lots are refused.

    Args:
        facility_id: The facility.
        lot_number: The manufacturer's lot number.
        cvx: The vaccine (CVX).
        mvx: The manufacturer (MVX).
        expires_on: Expiration date (after today).
        doses_on_hand: Doses received.
        funding: vfc (the facility must be VFC-enrolled), private or state.
    """
    fac = ctx.get(Facility, facility_id, field="facility_id")
    if ctx.first(Lot, facility_id=fac.id, lot_number=lot_number) is not None:
        raise Conflict(f"{fac.name} already holds lot {lot_number}", field="lot_number", hint="update its doses")
    if expires_on <= ctx.today():
        raise RuleViolation(f"lot {lot_number} expired on {expires_on}", field="expires_on", hint="do not stock it")
    if funding == "vfc" and fac.vfc_pin is None:
        raise RuleViolation(f"{fac.name} is not VFC-enrolled", field="funding", hint="record it as private stock")
    return ctx.create(
        Lot,
        facility_id=fac.id,
        lot_number=lot_number,
        cvx=cvx,
        mvx=mvx,
        expires_on=expires_on,
        doses_on_hand=doses_on_hand,
        funding=funding,
    )


def _example_vxu(ctx: Ctx) -> dict[str, Any] | None:
    for lot in ctx.where(Lot, status="active", cvx="158"):
        if lot.doses_on_hand and lot.expires_on >= ctx.today():
            for pt in ctx.where(Patient, status="active"):
                if _forecast(ctx, pt, "influenza").status in ("due", "overdue"):
                    return {
                        "patient_id": pt.id,
                        "lot_id": lot.id,
                        "route": "im_left_deltoid",
                        "vis_date": "2023-08-06",
                        "administered_by": "Jordan Ellis, RN",
                    }
    return None


@service.tool(intent="report the vaccination to the registry", write=True, example=_example_vxu)
def report_vaccination(
    ctx: Ctx,
    patient_id: PatientId,
    lot_id: LotId,
    route: Route,
    vis_date: Date,
    administered_by: PersonName,
) -> Vaccination:
    """Report a dose given today from a lot (VXU): the lot must be usable and the dose valid for the schedule.

    The lot loses one dose. The dose must respect the series' minimum age and interval since the previous one.

    Args:
        patient_id: An active patient.
        lot_id: The lot used (active, unexpired, with doses).
        route: Route and site.
        vis_date: Edition date of the VIS given (not in the future).
        administered_by: The vaccinator.
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    if pt.status != "active":
        raise RuleViolation(f"{pt.name} is {pt.status}", field="patient_id", hint="report only for active patients")
    lot = ctx.get(Lot, lot_id, field="lot_id")
    today = ctx.today()
    if lot.status != "active" or lot.expires_on < today or lot.doses_on_hand < 1:
        raise RuleViolation(
            f"lot {lot.lot_number} is {lot.status}, expires {lot.expires_on}, {lot.doses_on_hand} dose(s) left",
            field="lot_id",
            hint="use another lot of the vaccine",
        )
    if vis_date > today:
        raise RuleViolation("the VIS edition date is in the future", field="vis_date", hint="use the edition date")
    group = CVX_GROUP[lot.cvx]
    due = _forecast(ctx, pt, group)
    if due.earliest_date is None or due.earliest_date > today:
        raise RuleViolation(
            f"{pt.name}'s {group} series is {due.status}"
            + (f" until {due.earliest_date}" if due.earliest_date else ""),
            field="patient_id",
            hint="check the forecast with immunize__forecast_patient",
        )
    ctx.update(lot, doses_on_hand=lot.doses_on_hand - 1)
    for r in ctx.where(Reminder, patient_id=pt.id, group=group, status="queued"):
        ctx.update(r, status="cancelled")
    return ctx.create(
        Vaccination,
        patient_id=pt.id,
        cvx=lot.cvx,
        group=group,
        administered_on=today,
        facility_id=lot.facility_id,
        lot_id=lot.id,
        route=route,
        vis_date=vis_date,
        administered_by=administered_by,
    )


@service.tool(
    intent="record the patient's refusal of the vaccine",
    write=True,
    example=lambda ctx: (
        None
        if (p := ctx.first(Patient, status="active")) is None or (f := ctx.first(Facility)) is None
        else {"patient_id": p.id, "facility_id": f.id, "cvx": "309", "reason": "Parental decision"}
    ),
)
def record_refusal(ctx: Ctx, patient_id: PatientId, facility_id: FacilityId, cvx: Cvx, reason: Text) -> Vaccination:
    """Record that the patient declined a vaccine today (a refusal, not a dose).

    Args:
        patient_id: The patient.
        facility_id: Where it was offered.
        cvx: The vaccine declined.
        reason: Why (required).
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    ctx.get(Facility, facility_id, field="facility_id")
    if not reason.strip():
        raise RuleViolation("a refusal records a reason", field="reason", hint="say why")
    return ctx.create(
        Vaccination,
        patient_id=pt.id,
        cvx=cvx,
        group=CVX_GROUP[cvx],
        administered_on=ctx.today(),
        facility_id=facility_id,
        status="refused",
        note=reason.strip(),
    )


@service.tool(
    intent="mark the vaccination entered in error",
    write=True,
    destructive=True,
    example=first_example(
        Vaccination, "vaccination_id", where={"status": "completed"}, match=lambda c, v: v.lot_id is not None
    ),
)
def mark_entered_in_error(ctx: Ctx, vaccination_id: VaxId) -> Vaccination:
    """Delete a reported dose as entered in error (RXA-21 D); a dose from a lot goes back to it.

    Args:
        vaccination_id: A completed vaccination.
    """
    vax = ctx.get(Vaccination, vaccination_id, field="vaccination_id")
    if vax.status != "completed":
        raise RuleViolation(f"vaccination {vax.id} is {vax.status}", field="vaccination_id", hint="nothing to undo")
    if vax.lot_id is not None:
        lot = ctx.get(Lot, vax.lot_id)
        ctx.update(lot, doses_on_hand=lot.doses_on_hand + 1)
    return ctx.update(vax, status="entered_in_error")


@service.tool(intent="forecast the patient's vaccines due", example=first_example(Patient, "patient_id"))
def forecast_patient(ctx: Ctx, patient_id: PatientId) -> list[DoseDue]:
    """The patient's forecast (QBP Z44): per vaccine group, complete, due, overdue or not yet eligible.

    Args:
        patient_id: The patient.
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    return [_forecast(ctx, pt, g) for g in SCHEDULE]


@service.tool(
    intent="query the registry for a patient by name and birth date",
    example=first_example(Patient, None, fields={"name": "name", "birth_date": "birth_date"}),
)
def query_patient(ctx: Ctx, name: PersonName, birth_date: Date) -> Patient:
    """Find a patient by exact name and birth date (QBP Z34 match); several matches are refused as ambiguous.

    Args:
        name: Full name.
        birth_date: Date of birth.
    """
    found = [p for p in ctx.where(Patient, birth_date=birth_date) if p.name.lower() == name.strip().lower()]
    if not found:
        raise RuleViolation(f"no patient {name} born {birth_date}", field="name", hint="check the spelling")
    if len(found) > 1:
        raise Conflict(f"{len(found)} patients match", field="name", hint="look them up by e-mail")
    return found[0]


@service.tool(
    intent="generate reminder notices for overdue vaccines", write=True, example=lambda ctx: {"method": "email"}
)
def generate_reminders(ctx: Ctx, method: Method, overdue_only: bool = True) -> list[Reminder]:
    """Queue a notice for each active patient who accepts reminders and has a series due (or overdue).

    A patient already holding a queued notice for the series gets no second one; e-mail and sms need the contact.

    Args:
        method: mail, sms or email.
        overdue_only: Only overdue series (recall); False also reminds of doses just due.
    """
    made: list[Reminder] = []
    for pt in ctx.where(Patient, status="active", reminder_recall=True):
        if (method == "email" and not pt.email) or (method == "sms" and not pt.phone):
            continue
        for g in SCHEDULE:
            due = _forecast(ctx, pt, g)
            wanted = ("overdue",) if overdue_only else ("due", "overdue")
            if (
                due.status in wanted
                and due.due_date
                and not ctx.first(Reminder, patient_id=pt.id, group=g, status="queued")
            ):
                made.append(ctx.create(Reminder, patient_id=pt.id, group=g, due_on=due.due_date, method=method))
    return made


# -- seed -------------------------------------------------------------------------------------

LOTS: tuple[tuple[str, str, str, int, int], ...] = (
    ("158", "SNY", "UT8034KA", 160, 40),
    ("309", "PFR", "LL7429", 90, 25),
    ("115", "SKB", "9H3JX", 400, 12),
    ("43", "SKB", "AHBVC812", 30, 8),
    ("187", "SKB", "5G7P2", 300, 0),
    ("216", "PFR", "HX9921", -10, 6),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The clinic sites as reporting facilities with lots, consumer patients with histories, queued reminders."""
    pop = s.population
    today = s.now.date()
    facs = []
    for i, company in enumerate(clinic_sites(pop)):
        contact = pop.first_contact(company)
        facs.append(
            s.create(
                Facility,
                name=company.name,
                org_code=f"{company.place.country}{20410 + 17 * i:05d}",
                vfc_pin=f"{310000 + 41 * i}" if i == 0 else None,
                contact_email=contact.email if contact else f"immunizations@{company.domain}",
                created_at=s.ago(days=1500),
            )
        )
    for k, (cvx, mvx, number, days, doses) in enumerate(LOTS):
        s.create(
            Lot,
            facility_id=facs[k % len(facs)].id,
            lot_number=number,
            cvx=cvx,
            mvx=mvx,
            expires_on=today + dt.timedelta(days=days),
            doses_on_hand=doses,
            funding="vfc" if k == 0 and facs[0].vfc_pin else "private",
            status="recalled" if k == 3 else "active",
        )
    for k, p in enumerate(pop.consumers[:14]):
        pt = s.create(
            Patient,
            name=p.name,
            birth_date=p.birth_date,
            email=p.email,
            phone=p.phone,
            reminder_recall=k % 5 != 4,
            status="moved" if k == 13 else "active",
            created_at=s.ago(days=3000),
        )
        history: list[tuple[str, int]] = [("115", 400 + 300 * k), ("158", 30 + 40 * k)]
        if k % 3 == 0:
            history += [("43", 200), ("43", 160)]
        if age_on(p.birth_date, today) >= 50 and k % 2:
            history.append(("187", 120))
        for cvx, days in history:
            s.create(
                Vaccination,
                patient_id=pt.id,
                cvx=cvx,
                group=CVX_GROUP[cvx],
                administered_on=today - dt.timedelta(days=days),
                facility_id=facs[k % len(facs)].id,
                route="im_left_deltoid",
                vis_date=dt.date(2021, 8, 6),
                administered_by="Jordan Ellis, RN",
                historical=days > 365,
            )
        if k == 6:
            s.create(
                Vaccination,
                patient_id=pt.id,
                cvx="309",
                group="covid19",
                administered_on=today - dt.timedelta(days=20),
                facility_id=facs[0].id,
                status="refused",
                note="Prefers to wait.",
            )
        if k < 4 and pt.reminder_recall:
            s.create(Reminder, patient_id=pt.id, group="covid19", due_on=today - dt.timedelta(days=60), method="email")
