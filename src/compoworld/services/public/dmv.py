"""State Motor Vehicles: driver licences, vehicle registrations and renewals, holds, appointments, titles.

Modeled on a state DMV online services portal (California DMV / Texas DMV
"MyDMV" and their vehicle registration renewal, driver's licence renewal,
appointment, and title transfer / "notice of transfer and release of
liability" services): licences of class A, B, C or M are valid, expired,
suspended, revoked or surrendered and expire on the holder's birthday; online
renewal opens 6 months before expiry, is refused to holders 70 or older (in
person only), to suspended or revoked licences and while the driver has an
active hold; a registration renews from 90 days before its expiry, for a fee
quoted from the vehicle's class and value plus a late penalty once expired,
paid to the cent, and not while a hold (unpaid citations, insurance lapse,
smog check) is on the vehicle or its owner; appointments are on weekdays in
office hours at least a day ahead, one booked per service per driver; a title
transfer is reported by the owner, and completing it moves the vehicle to the
buyer, charges the transfer fee and a late penalty after 10 days.
"""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, DateTime, Email, FirstName, IdOf, LastName, PostalCode
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months, age_on, utc_at

__all__ = ["service"]

service = Service(
    "dmv",
    title="State Motor Vehicles",
    category="motor_vehicles",
    modeled_on="State DMV online services (California DMV / Texas DMV MyDMV): driver licence renewal, vehicle "
    "registration renewal with fees, field office appointments, title transfer and release of liability, holds",
    description="The state's motor vehicle agency: residents' driver licences by class with expiry, "
    "suspension and renewal; vehicle registrations with plates, renewal fees and late penalties; holds for "
    "unpaid citations, insurance lapses and smog checks that block renewals; field office appointments; and "
    "title transfers between owners.",
)

DriverId = Annotated[str, IdOf("dmv.driver")]
LicenceId = Annotated[str, IdOf("dmv.licence")]
VehicleId = Annotated[str, IdOf("dmv.vehicle")]
HoldId = Annotated[str, IdOf("dmv.hold")]
AppointmentId = Annotated[str, IdOf("dmv.appointment")]
TransferId = Annotated[str, IdOf("dmv.title_transfer")]

Vin = Annotated[str, StringConstraints(pattern=r"^[A-HJ-NPR-Z0-9]{17}$")]
"""A 17-character vehicle identification number (no I, O or Q)."""
Plate = Annotated[str, StringConstraints(pattern=r"^[0-9][A-Z]{3}[0-9]{3}$")]
"""A licence plate such as 8ABC123."""
LicenceNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z][0-9]{7}$")]
"""A driver licence number such as D1234567."""
LicenceClass = Literal["A", "B", "C", "M"]
LicenceStatus = Literal["valid", "expired", "suspended", "revoked", "surrendered"]
RegStatus = Literal["current", "expired", "suspended"]
VehicleClass = Literal["passenger", "motorcycle", "commercial", "trailer"]
HoldType = Literal["unpaid_citations", "insurance_lapse", "smog_check", "unpaid_fees", "court_order"]
HoldStatus = Literal["active", "cleared"]
ApptService = Literal["driving_test", "licence_renewal", "real_id", "vehicle_inspection", "title_transfer"]
ApptStatus = Literal["booked", "cancelled", "completed", "no_show"]
TransferStatus = Literal["pending", "completed", "cancelled"]

OFFICES = ("Downtown", "Northside", "Harbor", "Airport")
BASE_FEE = {"passenger": 6800, "motorcycle": 4400, "commercial": 21000, "trailer": 3100}
VLF_RATE = 0.0065
LATE_PENALTY = 3000
TRANSFER_FEE = 1500
TRANSFER_LATE = 1500
RENEW_WINDOW = dt.timedelta(days=90)
OFFICE_HOURS = (8, 17)


class Driver(Record):
    """A resident known to the agency."""

    id: DriverId
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email
    """E-mail for notices (unique)."""
    birth_date: Date
    """Date of birth."""
    city: City
    """City of residence."""
    postal_code: PostalCode
    """Postal code."""
    real_id: bool = False
    """Holds a REAL ID-compliant card."""
    created_at: Annotated[DateTime, CREATED]
    """When the record was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Licence(Record):
    """A driver licence of one class."""

    id: LicenceId
    driver_id: DriverId
    """The holder."""
    number: LicenceNumber
    """The licence number."""
    licence_class: LicenceClass
    """A (combination), B (heavy), C (car) or M (motorcycle)."""
    status: LicenceStatus = "valid"
    """valid, expired, suspended, revoked or surrendered."""
    issued_on: Date
    """When it was issued or last renewed."""
    expires_on: Date
    """When it expires (the holder's birthday)."""
    restrictions: tuple[Literal["corrective_lenses", "daylight_only", "automatic_only"], ...] = ()
    """Restrictions printed on it."""
    renewals: int = 0
    """How many times it was renewed."""


class Vehicle(Record):
    """A registered vehicle and its current registration."""

    id: VehicleId
    vin: Vin
    """Its VIN (unique)."""
    plate: Plate
    """Its plate (unique)."""
    make: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """The maker."""
    model_name: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """The model."""
    year: Annotated[int, Field(ge=1950, le=2030)]
    """Model year."""
    vehicle_class: VehicleClass = "passenger"
    """passenger, motorcycle, commercial or trailer."""
    value_cents: Cents
    """The market value the vehicle licence fee is based on."""
    owner_id: DriverId
    """The registered owner."""
    registration_status: RegStatus = "current"
    """current, expired or suspended."""
    registration_expires_on: Date
    """The last day of the registration."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Hold(Record):
    """A stop that blocks renewals until cleared."""

    id: HoldId
    hold_type: HoldType
    """unpaid_citations, insurance_lapse, smog_check, unpaid_fees or court_order."""
    driver_id: DriverId | None = None
    """The driver it is on."""
    vehicle_id: VehicleId | None = None
    """The vehicle it is on."""
    amount_cents: Cents = 0
    """What must be paid to clear it (0: cleared by proof)."""
    status: HoldStatus = "active"
    """active or cleared."""
    placed_by: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """The court, agency or insurer that placed it."""
    placed_at: Annotated[DateTime, CREATED]
    """When it was placed."""


class Appointment(Record):
    """A field office appointment."""

    id: AppointmentId
    driver_id: DriverId
    """Who it is for."""
    service_type: ApptService
    """driving_test, licence_renewal, real_id, vehicle_inspection or title_transfer."""
    office: Literal["Downtown", "Northside", "Harbor", "Airport"]
    """The field office."""
    starts_at: DateTime
    """When it starts (on the hour or half hour)."""
    status: ApptStatus = "booked"
    """booked, cancelled, completed or no_show."""
    created_at: Annotated[DateTime, CREATED]
    """When it was booked."""


class TitleTransfer(Record):
    """A sale of a vehicle reported to the agency."""

    id: TransferId
    vehicle_id: VehicleId
    """The vehicle sold."""
    seller_id: DriverId
    """The owner selling it."""
    buyer_id: DriverId
    """The buyer."""
    sale_date: Date
    """The day of sale."""
    sale_price_cents: Cents
    """The price paid."""
    odometer: Annotated[int, Field(ge=0, le=2_000_000)]
    """The odometer reading at sale."""
    status: TransferStatus = "pending"
    """pending, completed or cancelled."""
    fee_cents: Cents = 0
    """Transfer fee and any late penalty charged on completion."""
    created_at: Annotated[DateTime, CREATED]
    """When it was reported."""


class RenewalQuote(Value):
    """What renewing a registration costs now."""

    vehicle_id: VehicleId
    """The vehicle."""
    base_fee_cents: int
    """Registration fee for the vehicle class."""
    licence_fee_cents: int
    """Vehicle licence fee on its value."""
    late_penalty_cents: int
    """Penalty when the registration already expired."""
    total_cents: int
    """What renewal costs."""
    new_expiry: dt.date
    """The registration's expiry after renewal."""


# -- rules ------------------------------------------------------------------------------------


def _on(birth: dt.date, year: int) -> dt.date:
    """The holder's birthday in ``year`` (Feb 29 falls on Feb 28 in other years)."""
    return dt.date(year, birth.month, min(birth.day, calendar.monthrange(year, birth.month)[1]))


def _active_holds(ctx: Ctx, *, driver_id: str | None = None, vehicle_id: str | None = None) -> list[Hold]:
    out = [] if driver_id is None else ctx.where(Hold, driver_id=driver_id, status="active")
    return out + ([] if vehicle_id is None else ctx.where(Hold, vehicle_id=vehicle_id, status="active"))


def _no_holds(ctx: Ctx, field: str, **where: str | None) -> None:
    holds = _active_holds(ctx, **where)
    if holds:
        h = holds[0]
        raise RuleViolation(
            f"hold {h.id} ({h.hold_type}, placed by {h.placed_by}) blocks this",
            field=field,
            hint="clear the hold with dmv__clear_hold first",
        )


def _quote(ctx: Ctx, v: Vehicle) -> RenewalQuote:
    vlf = 0 if v.vehicle_class == "trailer" else round(v.value_cents * VLF_RATE)
    late = LATE_PENALTY if v.registration_expires_on < ctx.today() else 0
    start = max(v.registration_expires_on, ctx.today())
    return RenewalQuote(
        vehicle_id=v.id,
        base_fee_cents=BASE_FEE[v.vehicle_class],
        licence_fee_cents=vlf,
        late_penalty_cents=late,
        total_cents=BASE_FEE[v.vehicle_class] + vlf + late,
        new_expiry=add_months(start, 12),
    )


def _guard_driver(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Driver, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"driver {other.id} has {new.email}", field="email", hint="each driver has their own e-mail")
    if new.birth_date > ctx.today() - dt.timedelta(days=365 * 15):
        raise RuleViolation("a driver is at least 15 years old", field="birth_date", hint="check the date of birth")


def _guard_licence(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "suspended" and new.status == "valid":
        _no_holds(ctx, "licence_id", driver_id=new.driver_id)
        if new.expires_on < ctx.today():
            ctx.update(new, status="expired")


def _guard_appt(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status in ("completed", "no_show") and new.starts_at > ctx.now():
        raise RuleViolation("it has not started yet", field="appointment_id", hint="cancel it instead, or wait")


drivers = service.resource(
    Driver,
    name="driver",
    plural="drivers",
    prefix="drv",
    create=("first_name", "last_name", "email", "birth_date", "city", "postal_code"),
    filters=("email", "last_name", "city", "real_id"),
    search=("first_name", "last_name"),
    update=("email", "city", "postal_code"),
    delete=False,
    guard_create=_guard_driver,
    guard_update=_guard_driver,
)
licences = service.resource(
    Licence,
    name="licence",
    plural="licences",
    prefix="dl",
    create=False,
    filters=("driver_id", "licence_class", "status", "number"),
    delete=False,
    transitions={
        "suspend": Transition("status", ("valid",), "suspended", "suspend the licence"),
        "reinstate": Transition("status", ("suspended",), "valid", "reinstate the suspended licence"),
        "surrender": Transition(
            "status", ("valid", "expired", "suspended"), "surrendered", "surrender the licence", destructive=True
        ),
    },
    guard_update=_guard_licence,
)
vehicles = service.resource(
    Vehicle,
    name="vehicle",
    plural="vehicles",
    prefix="veh",
    create=False,
    filters=("owner_id", "plate", "vin", "registration_status", "vehicle_class", "make"),
    search=("make", "model_name"),
    delete=False,
)
holds = service.resource(
    Hold,
    name="hold",
    plural="holds",
    prefix="hold",
    create=False,
    get=False,
    filters=("driver_id", "vehicle_id", "hold_type", "status"),
    delete=False,
)
appointments = service.resource(
    Appointment,
    name="appointment",
    plural="appointments",
    prefix="appt",
    create=False,
    filters=("driver_id", "service_type", "office", "status"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("booked",), "cancelled", "cancel the appointment"),
        "complete": Transition("status", ("booked",), "completed", "mark the appointment completed"),
        "no_show": Transition("status", ("booked",), "no_show", "mark the appointment as a no-show"),
    },
    guard_update=_guard_appt,
)
transfers = service.resource(
    TitleTransfer,
    name="title_transfer",
    plural="title_transfers",
    prefix="ttr",
    create=False,
    filters=("vehicle_id", "seller_id", "buyer_id", "status"),
    delete=False,
    transitions={"cancel": Transition("status", ("pending",), "cancelled", "cancel the title transfer")},
)


# -- domain tools -----------------------------------------------------------------------------


def _example_renew_licence(ctx: Ctx) -> dict[str, Any] | None:
    for lic in ctx.where(Licence, status="valid"):
        d = ctx.get(Driver, lic.driver_id)
        soon = lic.expires_on - ctx.today() <= dt.timedelta(days=182)
        if soon and age_on(d.birth_date, ctx.today()) < 70 and not _active_holds(ctx, driver_id=d.id):
            return {"licence_id": lic.id, "vision_test_passed": True}
    return None


@service.tool(intent="renew the driver licence online", write=True, example=_example_renew_licence)
def renew_licence(ctx: Ctx, licence_id: LicenceId, vision_test_passed: bool) -> Licence:
    """Renew a valid or expired licence online: within 6 months before expiry up to a year after; 5 more years.

    Args:
        licence_id: The licence.
        vision_test_passed: The vision self-certification or test result.
    """
    lic = ctx.get(Licence, licence_id, field="licence_id")
    if lic.status not in ("valid", "expired"):
        raise RuleViolation(f"a {lic.status} licence cannot renew", field="licence_id", hint="reinstate it first")
    d = ctx.get(Driver, lic.driver_id)
    today = ctx.today()
    if age_on(d.birth_date, today) >= 70:
        raise RuleViolation("drivers 70 or older renew in person", field="licence_id", hint="book an appointment")
    if lic.expires_on - today > dt.timedelta(days=182) or today - lic.expires_on > dt.timedelta(days=365):
        raise RuleViolation(
            f"online renewal is open from 6 months before to a year after expiry ({lic.expires_on})",
            field="licence_id",
            hint="renew later, or book an appointment if it expired over a year ago",
        )
    if not vision_test_passed:
        raise RuleViolation("a vision test is required", field="vision_test_passed", hint="book an appointment")
    _no_holds(ctx, "licence_id", driver_id=d.id)
    expires = _on(d.birth_date, max(lic.expires_on, today).year + 5)
    return ctx.update(lic, status="valid", issued_on=today, expires_on=expires, renewals=lic.renewals + 1)


def _example_issue(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Appointment, service_type="driving_test", status="completed"):
        have = {lic.licence_class for lic in ctx.where(Licence, driver_id=a.driver_id)}
        cls = next((c for c in ("C", "M", "B") if c not in have), None)
        if cls is not None:
            return {"driver_id": a.driver_id, "licence_class": cls}
    return None


@service.tool(intent="issue a driver licence", write=True, example=_example_issue)
def issue_licence(
    ctx: Ctx, driver_id: DriverId, licence_class: LicenceClass, corrective_lenses: bool = False
) -> Licence:
    """Issue a licence of a class the driver does not hold, after a completed driving test; A and B need a C.

    Args:
        driver_id: The driver.
        licence_class: A, B, C or M.
        corrective_lenses: Restrict it to driving with corrective lenses.
    """
    d = ctx.get(Driver, driver_id, field="driver_id")
    held = ctx.where(Licence, driver_id=d.id)
    if any(lic.licence_class == licence_class and lic.status != "surrendered" for lic in held):
        raise Conflict(f"class {licence_class} is already held", field="licence_class", hint="renew it instead")
    if any(lic.status in ("suspended", "revoked") for lic in held):
        raise RuleViolation("the driver's privilege is suspended", field="driver_id", hint="reinstate it first")
    if licence_class in ("A", "B") and not any(x.licence_class == "C" and x.status == "valid" for x in held):
        raise RuleViolation("a commercial class needs a valid class C first", field="licence_class", hint="get a C")
    if ctx.first(Appointment, driver_id=d.id, service_type="driving_test", status="completed") is None:
        raise RuleViolation("no completed driving test", field="driver_id", hint="book a driving_test appointment")
    _no_holds(ctx, "driver_id", driver_id=d.id)
    today = ctx.today()
    number = held[0].number if held else f"D{ctx.next_number(Licence, 'number') + 4100000:07d}"
    return ctx.create(
        Licence,
        driver_id=d.id,
        number=number,
        licence_class=licence_class,
        issued_on=today,
        expires_on=_on(d.birth_date, today.year + 5),
        restrictions=("corrective_lenses",) if corrective_lenses else (),
    )


def _example_vehicle(ctx: Ctx) -> dict[str, Any] | None:
    d = ctx.first(Driver)
    return (
        None
        if d is None
        else {
            "vin": "1HGCM82633A004352",
            "owner_id": d.id,
            "make": "Honda",
            "model_name": "Accord",
            "year": 2023,
            "value_cents": 2400000,
        }
    )


@service.tool(intent="register the vehicle", write=True, example=_example_vehicle)
def register_vehicle(
    ctx: Ctx,
    vin: Vin,
    owner_id: DriverId,
    make: Annotated[str, StringConstraints(min_length=1, max_length=40)],
    model_name: Annotated[str, StringConstraints(min_length=1, max_length=40)],
    year: Annotated[int, Field(ge=1950, le=2030)],
    value_cents: Cents,
    vehicle_class: VehicleClass = "passenger",
) -> Vehicle:
    """Register a vehicle new to the state: it gets a plate and a year of registration; VINs are unique.

    Args:
        vin: The 17-character VIN.
        owner_id: The owner.
        make: The maker.
        model_name: The model.
        year: Model year (at most next year).
        value_cents: Its market value.
        vehicle_class: passenger, motorcycle, commercial or trailer.
    """
    ctx.get(Driver, owner_id, field="owner_id")
    if ctx.first(Vehicle, vin=vin) is not None:
        raise Conflict(f"VIN {vin} is already registered", field="vin", hint="transfer its title instead")
    if year > ctx.today().year + 1:
        raise RuleViolation("the model year is too far ahead", field="year", hint="give the model year on the title")
    _no_holds(ctx, "owner_id", driver_id=owner_id)
    n = ctx.next_number(Vehicle, "plate") + 500
    letters = "".join(chr(65 + (n // 26**i) % 26) for i in (2, 1, 0))
    return ctx.create(
        Vehicle,
        vin=vin,
        plate=f"9{letters}{n % 1000:03d}",
        make=make,
        model_name=model_name,
        year=year,
        vehicle_class=vehicle_class,
        value_cents=value_cents,
        owner_id=owner_id,
        registration_expires_on=add_months(ctx.today(), 12),
    )


@service.tool(intent="quote the registration renewal", example=first_example(Vehicle, "vehicle_id"))
def quote_registration_renewal(ctx: Ctx, vehicle_id: VehicleId) -> RenewalQuote:
    """What renewing a vehicle's registration costs today: class fee, licence fee on value, late penalty.

    Args:
        vehicle_id: The vehicle.
    """
    return _quote(ctx, ctx.get(Vehicle, vehicle_id, field="vehicle_id"))


def _renewable(ctx: Ctx, v: Vehicle) -> bool:
    due = v.registration_expires_on - ctx.today() <= RENEW_WINDOW and v.registration_status != "suspended"
    return due and not _active_holds(ctx, driver_id=v.owner_id, vehicle_id=v.id)


def _example_renew(ctx: Ctx) -> dict[str, Any] | None:
    v = next((v for v in ctx.scan(Vehicle) if _renewable(ctx, v)), None)
    return None if v is None else {"vehicle_id": v.id, "payment_cents": _quote(ctx, v).total_cents}


@service.tool(intent="renew the vehicle registration", write=True, example=_example_renew)
def renew_registration(ctx: Ctx, vehicle_id: VehicleId, payment_cents: Cents) -> Vehicle:
    """Renew a registration from 90 days before expiry (or after), paying the quoted total to the cent.

    Args:
        vehicle_id: The vehicle.
        payment_cents: The payment; must equal dmv__quote_registration_renewal's total.
    """
    v = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    if v.registration_status == "suspended":
        raise RuleViolation("the registration is suspended", field="vehicle_id", hint="clear its holds first")
    if v.registration_expires_on - ctx.today() > RENEW_WINDOW:
        raise RuleViolation(
            f"renewal opens 90 days before {v.registration_expires_on}", field="vehicle_id", hint="wait"
        )
    _no_holds(ctx, "vehicle_id", driver_id=v.owner_id, vehicle_id=v.id)
    q = _quote(ctx, v)
    if payment_cents != q.total_cents:
        raise RuleViolation(
            f"the renewal costs {q.total_cents} cents, not {payment_cents}",
            field="payment_cents",
            hint="pay the total from dmv__quote_registration_renewal",
        )
    return ctx.update(v, registration_status="current", registration_expires_on=q.new_expiry)


@service.tool(
    intent="clear the hold",
    write=True,
    example=first_example(Hold, "hold_id", where={"status": "active"}, fields={"payment_cents": "amount_cents"}),
)
def clear_hold(ctx: Ctx, hold_id: HoldId, payment_cents: Cents = 0) -> Hold:
    """Clear an active hold by paying its amount (or with proof when it has none); a suspended registration returns.

    Args:
        hold_id: The hold.
        payment_cents: The payment; must equal the hold's amount.
    """
    h = ctx.get(Hold, hold_id, field="hold_id")
    if h.status != "active":
        raise Conflict("the hold is already cleared", field="hold_id", hint="nothing to do")
    if payment_cents != h.amount_cents:
        raise RuleViolation(f"the hold needs {h.amount_cents} cents", field="payment_cents", hint="pay its amount")
    h = ctx.update(h, status="cleared")
    if h.vehicle_id is not None and not _active_holds(ctx, vehicle_id=h.vehicle_id):
        v = ctx.get(Vehicle, h.vehicle_id)
        if v.registration_status == "suspended":
            status = "current" if v.registration_expires_on >= ctx.today() else "expired"
            ctx.update(v, registration_status=status)
    return h


def _example_place(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Vehicle, registration_status="current")
    return None if v is None else {"vehicle_id": v.id, "hold_type": "insurance_lapse", "placed_by": "Acme Insurance"}


@service.tool(intent="place a hold", write=True, example=_example_place)
def place_hold(
    ctx: Ctx,
    hold_type: HoldType,
    placed_by: Annotated[str, StringConstraints(min_length=1, max_length=80)],
    driver_id: DriverId | None = None,
    vehicle_id: VehicleId | None = None,
    amount_cents: Cents = 0,
) -> Hold:
    """Place a hold on a driver or a vehicle; an insurance lapse suspends the vehicle's registration.

    Args:
        hold_type: unpaid_citations, insurance_lapse, smog_check, unpaid_fees or court_order.
        placed_by: The court, agency or insurer placing it.
        driver_id: The driver (or give vehicle_id).
        vehicle_id: The vehicle (or give driver_id).
        amount_cents: What must be paid to clear it; citations and fees need an amount.
    """
    if (driver_id is None) == (vehicle_id is None):
        raise RuleViolation("give a driver or a vehicle", field="driver_id", hint="name exactly one of the two")
    if hold_type in ("unpaid_citations", "unpaid_fees") and amount_cents == 0:
        raise RuleViolation("this hold needs an amount", field="amount_cents", hint="give the amount owed")
    if driver_id is not None:
        ctx.get(Driver, driver_id, field="driver_id")
    v = None if vehicle_id is None else ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    for h in _active_holds(ctx, driver_id=driver_id, vehicle_id=vehicle_id):
        if h.hold_type == hold_type:
            raise Conflict(f"hold {h.id} of this type is active", field="hold_type", hint="clear it or leave it")
    made = ctx.create(
        Hold,
        hold_type=hold_type,
        placed_by=placed_by,
        driver_id=driver_id,
        vehicle_id=vehicle_id,
        amount_cents=amount_cents,
    )
    if v is not None and hold_type == "insurance_lapse":
        ctx.update(v, registration_status="suspended")
    return made


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    d = ctx.first(Driver)
    day = ctx.today() + dt.timedelta(days=3)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return (
        None
        if d is None
        else {
            "driver_id": d.id,
            "service_type": "vehicle_inspection",
            "office": "Harbor",
            "starts_at": utc_at(day, 10, 30).isoformat(),
        }
    )


@service.tool(intent="book a field office appointment", write=True, example=_example_book)
def book_appointment(
    ctx: Ctx,
    driver_id: DriverId,
    service_type: ApptService,
    office: Literal["Downtown", "Northside", "Harbor", "Airport"],
    starts_at: DateTime,
) -> Appointment:
    """Book a weekday slot on the hour or half hour in office hours, a day ahead or more; one per service.

    Args:
        driver_id: Who it is for.
        service_type: driving_test, licence_renewal, real_id, vehicle_inspection or title_transfer.
        office: Downtown, Northside, Harbor or Airport.
        starts_at: When it starts (UTC).
    """
    ctx.get(Driver, driver_id, field="driver_id")
    if starts_at.date() <= ctx.today() or starts_at.weekday() >= 5:
        raise RuleViolation("book a weekday at least one day ahead", field="starts_at", hint="pick a later weekday")
    if not (OFFICE_HOURS[0] <= starts_at.hour < OFFICE_HOURS[1]) or starts_at.minute not in (0, 30):
        raise RuleViolation("slots start at :00 or :30, 08:00-16:30", field="starts_at", hint="pick such a slot")
    if ctx.first(Appointment, driver_id=driver_id, service_type=service_type, status="booked") is not None:
        raise Conflict(
            f"the driver already has a {service_type} appointment",
            field="service_type",
            hint="cancel it first, or keep it",
        )
    if len(ctx.where(Appointment, office=office, starts_at=starts_at, status="booked")) >= 3:
        raise Conflict("the slot is full", field="starts_at", hint="pick another time or office")
    return ctx.create(Appointment, driver_id=driver_id, service_type=service_type, office=office, starts_at=starts_at)


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    for v in ctx.scan(Vehicle):
        if ctx.first(TitleTransfer, vehicle_id=v.id, status="pending") is None:
            buyer = next(d for d in ctx.scan(Driver) if d.id != v.owner_id)
            return {
                "vehicle_id": v.id,
                "buyer_id": buyer.id,
                "sale_date": ctx.today().isoformat(),
                "sale_price_cents": 950000,
                "odometer": 64000,
            }
    return None


@service.tool(intent="report the sale of the vehicle", write=True, example=_example_transfer)
def report_sale(
    ctx: Ctx,
    vehicle_id: VehicleId,
    buyer_id: DriverId,
    sale_date: Date,
    sale_price_cents: Cents,
    odometer: Annotated[int, Field(ge=0, le=2_000_000)],
) -> TitleTransfer:
    """The owner reports a sale (release of liability): a pending title transfer to the buyer.

    Args:
        vehicle_id: The vehicle sold.
        buyer_id: The buyer.
        sale_date: The day of sale (not in the future).
        sale_price_cents: The price.
        odometer: The odometer reading.
    """
    v = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    ctx.get(Driver, buyer_id, field="buyer_id")
    if buyer_id == v.owner_id:
        raise RuleViolation("the buyer already owns the vehicle", field="buyer_id", hint="name the new owner")
    if sale_date > ctx.today():
        raise RuleViolation("the sale date is in the future", field="sale_date", hint="report it once sold")
    if ctx.first(TitleTransfer, vehicle_id=v.id, status="pending") is not None:
        raise Conflict("a transfer of this vehicle is pending", field="vehicle_id", hint="complete or cancel it")
    return ctx.create(
        TitleTransfer,
        vehicle_id=v.id,
        seller_id=v.owner_id,
        buyer_id=buyer_id,
        sale_date=sale_date,
        sale_price_cents=sale_price_cents,
        odometer=odometer,
    )


@service.tool(
    intent="complete the title transfer",
    write=True,
    example=first_example(TitleTransfer, "title_transfer_id", where={"status": "pending"}),
)
def complete_title_transfer(ctx: Ctx, title_transfer_id: TransferId) -> TitleTransfer:
    """Complete a pending transfer: the buyer becomes the owner; transfer fee plus a penalty after 10 days.

    Args:
        title_transfer_id: The transfer.
    """
    t = ctx.get(TitleTransfer, title_transfer_id, field="title_transfer_id")
    if t.status != "pending":
        raise RuleViolation(f"the transfer is {t.status}", field="title_transfer_id", hint="only pending ones complete")
    v = ctx.get(Vehicle, t.vehicle_id)
    _no_holds(ctx, "title_transfer_id", vehicle_id=v.id)
    late = TRANSFER_LATE if ctx.today() - t.sale_date > dt.timedelta(days=10) else 0
    ctx.update(v, owner_id=t.buyer_id)
    return ctx.update(t, status="completed", fee_cents=TRANSFER_FEE + late)


# -- seed -------------------------------------------------------------------------------------

CARS = (
    ("Toyota", "Camry", "passenger", 2600000),
    ("Honda", "Civic", "passenger", 2100000),
    ("Ford", "F-150", "commercial", 4200000),
    ("Tesla", "Model 3", "passenger", 3900000),
    ("Harley-Davidson", "Sportster", "motorcycle", 1100000),
    ("Subaru", "Outback", "passenger", 2900000),
)
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


@service.seeder
def seed(s: SeedContext) -> None:
    """Residents with licences in every state, vehicles due and overdue, holds, appointments and transfers."""
    today = s.now.date()
    people = list(s.population.consumers[:14])
    drivers = []
    for k, p in enumerate(people):
        birth = p.birth_date if age_on(p.birth_date, today) >= 18 else _on(p.birth_date, today.year - 30)
        birth = _on(birth, today.year - 74) if k == 10 else birth
        d = s.create(
            Driver,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            birth_date=birth,
            city=p.address.city,
            postal_code=p.address.postal_code,
            real_id=k % 3 == 0,
            created_at=s.ago(days=2000 - k),
            updated_at=s.ago(days=100),
        )
        drivers.append(d)
        status: Any = ("valid", "valid", "expired", "suspended", "valid")[k % 5]
        expiry = _on(birth, today.year + 1)
        if status == "expired":
            expiry = _on(birth, today.year - 1)
        elif k % 5 == 1:
            expiry = (today + dt.timedelta(days=40)).replace(day=min(birth.day, 28))
        s.create(
            Licence,
            driver_id=d.id,
            number=f"D{4000000 + 731 * k:07d}",
            licence_class="C",
            status=status,
            issued_on=add_months(expiry, -60),
            expires_on=expiry,
            restrictions=("corrective_lenses",) if k % 4 == 0 else (),
        )
        if k % 6 == 2:
            s.create(
                Licence,
                driver_id=d.id,
                number=f"D{4000000 + 731 * k:07d}",
                licence_class="M",
                status=status,
                issued_on=add_months(expiry, -60),
                expires_on=expiry,
            )
    for k, d in enumerate(drivers[:12]):
        make, model, cls, value = CARS[k % len(CARS)]
        vin = "".join(VIN_CHARS[(k * 7 + i * 5) % len(VIN_CHARS)] for i in range(17))
        reg: Any = "expired" if k % 4 == 3 else "current"
        exp = today - dt.timedelta(days=20 + k) if reg == "expired" else today + dt.timedelta(days=30 + 45 * k)
        v = s.create(
            Vehicle,
            vin=vin,
            plate=f"8{'ABCDEFGH'[k % 8]}{'KLMN'[k % 4]}{'RSTU'[k % 4]}{100 + 37 * k}",
            make=make,
            model_name=model,
            year=2014 + k % 10,
            vehicle_class=cls,
            value_cents=value - 90000 * (k % 5),
            owner_id=d.id,
            registration_status=reg,
            registration_expires_on=exp,
            updated_at=s.ago(days=200),
        )
        if k % 5 == 2:
            s.create(
                Hold,
                hold_type="unpaid_citations",
                vehicle_id=v.id,
                amount_cents=12500 + 500 * k,
                placed_by="Municipal Parking Authority",
                placed_at=s.ago(days=30),
            )
        if k == 6:
            s.create(
                Hold,
                hold_type="smog_check",
                vehicle_id=v.id,
                status="cleared",
                placed_by="Smog Check Program",
                placed_at=s.ago(days=300),
            )
    for k in (3, 8):
        s.create(
            Hold,
            hold_type="court_order",
            driver_id=drivers[k].id,
            placed_by="County Superior Court",
            placed_at=s.ago(days=60),
        )
    for k, d in enumerate(drivers[:8]):
        service_type: Any = ("driving_test", "licence_renewal", "real_id", "vehicle_inspection")[k % 4]
        appt: Any = "completed" if k < 3 else ("booked" if k < 6 else "cancelled")
        past = appt == "completed" or k == 5
        day = today + dt.timedelta(days=(-10 + k) if past else (3 + k))
        while day.weekday() >= 5:
            day += dt.timedelta(days=1)
        if past and day >= today:
            day = today - dt.timedelta(days=3 + k)
        s.create(
            Appointment,
            driver_id=d.id,
            service_type=service_type,
            office=OFFICES[k % 4],
            starts_at=utc_at(day, 9 + k % 7, 30 if k % 2 else 0),
            status=appt,
            created_at=s.ago(days=20),
        )
    vehicles = s.records(Vehicle)
    s.create(
        TitleTransfer,
        vehicle_id=vehicles[1].id,
        seller_id=vehicles[1].owner_id,
        buyer_id=drivers[13].id,
        sale_date=today - dt.timedelta(days=4),
        sale_price_cents=1450000,
        odometer=82310,
        created_at=s.ago(days=3),
    )
    s.create(
        TitleTransfer,
        vehicle_id=vehicles[5].id,
        seller_id=vehicles[5].owner_id,
        buyer_id=drivers[12].id,
        sale_date=today - dt.timedelta(days=25),
        sale_price_cents=1800000,
        odometer=40210,
        created_at=s.ago(days=24),
    )
