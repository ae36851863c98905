"""Roadway Car Rental: locations, vehicle classes and the fleet, reservations, rental agreements and damage.

Modeled on the OpenTravel Alliance vehicle messages as car-rental APIs such as
Hertz's expose them (OTA_VehAvailRate, OTA_VehRes, OTA_VehCancel,
OTA_VehCheckOut / OTA_VehCheckIn, damage reporting): vehicle classes by ACRISS
code with a daily rate, a minimum driver age and a mileage allowance. A
reservation picks up in the future, returns after its pickup, needs a driver
old enough for the class on the pickup day (drivers under 25 pay a young-driver
fee), and pays a one-way fee by distance when returned to another city; one-way
rentals never cross a border. Check-out needs a confirmed reservation within
its pickup window and an available, fully fuelled car at the pickup location of
the reserved class or better (a free upgrade). Check-in bills the days used
(29 minutes' grace), missing fuel by the eighth, kilometres beyond the
allowance, and an unplanned drop-off at another location; a car returns to
service where it was dropped. Damage is reported against the car's last
agreement and charged to it unless the renter took the damage waiver; major
damage takes the car out of service until repaired.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Date,
    DateTime,
    Email,
    IdOf,
    Latitude,
    Longitude,
    PersonName,
    Phone,
    PostalAddress,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.time import age_on
from compoworld.world.geo import haversine_km

__all__ = ["service"]

service = Service(
    "carrental",
    title="Roadway Car Rental",
    category="car_rental",
    modeled_on="OpenTravel Alliance 2019B vehicle messages as in the Hertz rental APIs (OTA_VehAvailRate, "
    "OTA_VehRes, OTA_VehCancel, OTA_VehCheckOut, OTA_VehCheckIn, damage reports)",
    description="Car rental: rental locations, vehicle classes by ACRISS code with rates, age minimums and "
    "mileage allowances, the fleet, reservations with one-way and young-driver fees, rental agreements from "
    "check-out to check-in with fuel, mileage and late charges, and damage reports.",
)

LocationId = Annotated[str, IdOf("carrental.location")]
ClassId = Annotated[str, IdOf("carrental.vehicle_class")]
VehicleId = Annotated[str, IdOf("carrental.vehicle")]
ReservationId = Annotated[str, IdOf("carrental.reservation")]
AgreementId = Annotated[str, IdOf("carrental.agreement")]
DamageId = Annotated[str, IdOf("carrental.damage_report")]
Acriss = Annotated[str, StringConstraints(pattern=r"^[A-Z]{4}$")]
"""An ACRISS car code: category, type, transmission, fuel/air (``CDAR``)."""
Eighths = Annotated[int, Field(ge=0, le=8)]
"""Fuel level in eighths of a tank (8: full)."""
Km = Annotated[int, Field(ge=0, le=2_000_000)]

ReservationStatus = Literal["confirmed", "picked_up", "completed", "cancelled"]
VehicleStatus = Literal["available", "rented", "maintenance"]
Severity = Literal["minor", "major"]
Area = Literal["front", "rear", "left_side", "right_side", "roof", "windshield", "interior", "wheels"]

YOUNG_DRIVER_AGE = 25
YOUNG_DRIVER_FEE = 2700
"""Per day, for drivers under 25, in cents."""
LDW_DAILY = 2999
"""Loss damage waiver per day, in cents."""
ONE_WAY_BASE = 5000
ONE_WAY_PER_KM = 15
UNPLANNED_DROP_FEE = 7500
"""Added when a car is dropped at a location other than the one reserved, in cents."""
FUEL_PER_EIGHTH = 1200
EXTRA_KM = 30
"""Per kilometre beyond the allowance, in cents."""
GRACE = dt.timedelta(minutes=29)
EARLY_PICKUP = dt.timedelta(hours=2)
LATE_PICKUP = dt.timedelta(hours=24)


def billed_days(start: dt.datetime, end: dt.datetime) -> int:
    """Rental days between two times: started 24-hour periods after 29 minutes' grace, at least one."""
    span = end - start - GRACE
    return max(1, -(-int(span.total_seconds()) // 86400))


class Location(Record):
    """A rental counter."""

    id: LocationId
    code: Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}[0-9]{2}$")]
    """The location code (``LAXT1``-style: city letters and a number)."""
    name: Title
    """Display name."""
    address: PostalAddress
    """Where it is."""
    latitude: Latitude
    """Latitude."""
    longitude: Longitude
    """Longitude."""
    airport: bool = False
    """Whether it is an airport counter."""
    one_way_returns: bool = True
    """Whether cars rented elsewhere may be dropped here."""


class VehicleClass(Record):
    """A class of cars sold at one rate, by ACRISS code."""

    id: ClassId
    code: Acriss
    """ACRISS code."""
    name: Title
    """Class name with a sample model ('Compact — Toyota Corolla or similar')."""
    rank: int = Field(ge=1)
    """Order of classes from smallest; a higher rank is an upgrade."""
    seats: int = Field(ge=2, le=15)
    """Seats."""
    daily_rate: Cents
    """Price per rental day, in cents."""
    min_driver_age: int = Field(ge=18, le=30)
    """Youngest driver allowed, in years on the pickup day."""
    km_per_day: int | None = None
    """Kilometres included per day; None: unlimited."""


class Vehicle(Record):
    """A car of the fleet."""

    id: VehicleId
    class_id: ClassId
    """Its class."""
    location_id: LocationId
    """Where it stands (or was rented from)."""
    plate: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{2,8}$")]
    """Licence plate."""
    make: str
    """Manufacturer."""
    car_model: str
    """Model."""
    odometer_km: Km
    """Odometer reading."""
    fuel_eighths: Eighths = 8
    """Fuel level in eighths."""
    status: VehicleStatus = "available"
    """available, rented or maintenance."""


class Reservation(Created):
    """A booked rental."""

    id: ReservationId
    confirmation: Annotated[str, Generated("sequence", "RW{n:07d}")]
    """Confirmation number."""
    pickup_location_id: LocationId
    """Where the car is picked up."""
    return_location_id: LocationId
    """Where it is to be returned."""
    class_id: ClassId
    """The class booked."""
    pickup_at: DateTime
    """Pickup time."""
    return_at: DateTime
    """Planned return time."""
    driver_name: PersonName
    """The main driver."""
    driver_email: Email
    """The driver's e-mail address."""
    driver_phone: Phone | None = None
    """The driver's phone number."""
    driver_birth_date: Date
    """The driver's date of birth."""
    damage_waiver: bool = False
    """Whether the loss damage waiver was taken."""
    days: int = Field(ge=1)
    """Rental days quoted."""
    one_way_fee: Cents = 0
    """Drop charge for a return elsewhere, in cents."""
    estimated_total: Cents
    """Quoted total, in cents."""
    status: ReservationStatus = "confirmed"
    """confirmed → picked_up → completed, or cancelled."""


class Agreement(Record):
    """A rental agreement from check-out to check-in, with its charges."""

    id: AgreementId
    reservation_id: ReservationId
    """The reservation."""
    vehicle_id: VehicleId
    """The car handed over."""
    driver_email: Email
    """The renter's e-mail address."""
    out_at: DateTime
    """When the car left."""
    out_km: Km
    """Odometer at check-out."""
    out_fuel: Eighths
    """Fuel at check-out."""
    in_at: DateTime | None = None
    """When it came back."""
    in_km: Km | None = None
    """Odometer at check-in."""
    in_fuel: Eighths | None = None
    """Fuel at check-in."""
    return_location_id: LocationId | None = None
    """Where it was dropped."""
    days: int = 0
    """Days billed."""
    time_charge: Cents = 0
    """Days × the class's daily rate, in cents."""
    fees: Cents = 0
    """Young-driver fee and damage waiver, in cents."""
    one_way_fee: Cents = 0
    """Drop charges, in cents."""
    fuel_charge: Cents = 0
    """Refuelling, in cents."""
    mileage_charge: Cents = 0
    """Kilometres beyond the allowance, in cents."""
    damage_charge: Cents = 0
    """Damage charged to the renter, in cents."""
    total: Cents = 0
    """Everything billed, in cents."""
    status: Literal["open", "closed"] = "open"
    """open until checked in."""


class DamageReport(Created):
    """Damage found on a car."""

    id: DamageId
    vehicle_id: VehicleId
    """The car."""
    agreement_id: AgreementId
    """The rental it is charged against."""
    area: Area
    """Where on the car."""
    severity: Severity
    """minor or major (takes the car out of service)."""
    description: str = ""
    """What was found."""
    estimate: Cents
    """Repair estimate, in cents."""
    charged: Cents = 0
    """What was charged to the renter, in cents (nothing under the damage waiver)."""
    status: Literal["reported", "repaired"] = "reported"
    """reported → repaired."""


# -- guards -----------------------------------------------------------------------------------


def _guard_repair(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != "repaired":
        return
    car = ctx.get(Vehicle, old.vehicle_id)
    others = [d for d in ctx.where(DamageReport, vehicle_id=car.id, status="reported") if d.id != old.id]
    if car.status == "maintenance" and not any(d.severity == "major" for d in others):
        ctx.update(car, status="available")


locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    get=False,
    filters=("code", "airport"),
    search=("name",),
    delete=False,
    unique=("code",),
)
classes = service.resource(
    VehicleClass,
    name="vehicle_class",
    plural="vehicle_classes",
    prefix="vc",
    create=False,
    get=False,
    filters=("code", "seats"),
    search=("name",),
    delete=False,
    unique=("code",),
    title="vehicle class",
)
vehicles = service.resource(
    Vehicle,
    name="vehicle",
    plural="vehicles",
    prefix="car",
    create=False,
    get=False,
    filters=("class_id", "location_id", "status", "plate"),
    search=("make", "car_model"),
    delete=False,
    unique=("plate",),
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="rsv",
    create=False,
    filters=("status", "pickup_location_id", "class_id", "driver_email", "confirmation"),
    search=("driver_name",),
    delete=False,
)
agreements = service.resource(
    Agreement,
    name="agreement",
    plural="agreements",
    prefix="ra",
    create=False,
    filters=("status", "vehicle_id", "reservation_id", "driver_email"),
    delete=False,
    title="rental agreement",
)
damage = service.resource(
    DamageReport,
    name="damage_report",
    plural="damage_reports",
    prefix="dmg",
    create=False,
    get=False,
    filters=("vehicle_id", "agreement_id", "severity", "status"),
    delete=False,
    transitions={
        "repair": Transition(
            "status",
            ("reported",),
            "repaired",
            "record the damage as repaired",
            description="Record a repair; the car returns to service once no major damage is left open.",
        )
    },
    guard_update=_guard_repair,
    title="damage report",
)


# -- pricing ----------------------------------------------------------------------------------


def one_way_fee(ctx: Ctx, pickup: Location, drop: Location, field: str) -> int:
    """The drop charge from ``pickup`` to ``drop``: none in the same city, by distance otherwise."""
    if pickup.address.country != drop.address.country:
        raise RuleViolation(
            f"one-way rentals cannot cross from {pickup.address.country} to {drop.address.country}",
            field=field,
            hint="return the car in the country it was rented in",
        )
    if pickup.address.city == drop.address.city:
        return 0
    km = haversine_km(pickup.latitude, pickup.longitude, drop.latitude, drop.longitude)
    return ONE_WAY_BASE + int(km) * ONE_WAY_PER_KM


class Offer(BaseModel):
    """A priced rental offer for one class."""

    class_id: ClassId = Field(description="The class.")
    days: int = Field(description="Rental days.")
    time_charge: Cents = Field(description="Days × daily rate, in cents.")
    fees: Cents = Field(description="Young-driver fee and damage waiver, in cents.")
    one_way_fee: Cents = Field(description="Drop charge, in cents.")
    estimated_total: Cents = Field(description="The total, in cents.")


def _offer(
    ctx: Ctx,
    vclass: VehicleClass,
    pickup: Location,
    drop: Location,
    pickup_at: dt.datetime,
    return_at: dt.datetime,
    birth: dt.date,
    waiver: bool,
) -> Offer:
    if return_at <= pickup_at:
        raise RuleViolation("return_at must be after pickup_at", field="return_at", hint="give a later return")
    if pickup_at < ctx.now():
        raise RuleViolation("pickup cannot be in the past", field="pickup_at", hint="choose a future pickup time")
    if pickup != drop and not drop.one_way_returns:
        raise RuleViolation(
            f"{drop.name} takes no one-way returns", field="return_location_id", hint="return to another location"
        )
    age = age_on(birth, pickup_at.date())
    if age < vclass.min_driver_age:
        raise RuleViolation(
            f"{vclass.name} needs a driver of {vclass.min_driver_age}; the driver will be {age}",
            field="driver_birth_date",
            hint="choose a class with a lower minimum age",
        )
    days = billed_days(pickup_at, return_at)
    fees = days * ((YOUNG_DRIVER_FEE if age < YOUNG_DRIVER_AGE else 0) + (LDW_DAILY if waiver else 0))
    drop_fee = one_way_fee(ctx, pickup, drop, "return_location_id")
    base = days * vclass.daily_rate
    return Offer(
        class_id=vclass.id,
        days=days,
        time_charge=base,
        fees=fees,
        one_way_fee=drop_fee,
        estimated_total=base + fees + drop_fee,
    )


def _quote_args(ctx: Ctx) -> dict[str, Any] | None:
    loc = ctx.first(Location, airport=True)
    vclass = ctx.first(VehicleClass, code="CCAR")
    if loc is None or vclass is None:
        return None
    start = ctx.now() + dt.timedelta(days=4)
    return {
        "pickup_location_id": loc.id,
        "return_location_id": loc.id,
        "class_id": vclass.id,
        "pickup_at": start.isoformat(),
        "return_at": (start + dt.timedelta(days=3)).isoformat(),
        "driver_birth_date": "1990-05-17",
    }


def _reserve_args(ctx: Ctx) -> dict[str, Any] | None:
    args = _quote_args(ctx)
    person = ctx.population.consumers[0]
    return None if args is None else args | {"driver_name": person.name, "driver_email": person.email}


@service.tool(intent="quote a rental car", example=_quote_args)
def quote_rental(
    ctx: Ctx,
    pickup_location_id: LocationId,
    return_location_id: LocationId,
    class_id: ClassId,
    pickup_at: DateTime,
    return_at: DateTime,
    driver_birth_date: Date,
    damage_waiver: bool = False,
) -> Offer:
    """Price a rental of a class between two locations for a driver.

    Args:
        pickup_location_id: Where the car is picked up.
        return_location_id: Where it is returned.
        class_id: The vehicle class.
        pickup_at: Pickup time.
        return_at: Return time.
        driver_birth_date: The driver's date of birth (age minimums, young-driver fee).
        damage_waiver: Whether to add the loss damage waiver.
    """
    vclass = ctx.get(VehicleClass, class_id, field="class_id")
    pickup = ctx.get(Location, pickup_location_id, field="pickup_location_id")
    drop = ctx.get(Location, return_location_id, field="return_location_id")
    return _offer(ctx, vclass, pickup, drop, pickup_at, return_at, driver_birth_date, damage_waiver)


@service.tool(intent="book a rental car", write=True, example=_reserve_args)
def create_reservation(
    ctx: Ctx,
    pickup_location_id: LocationId,
    return_location_id: LocationId,
    class_id: ClassId,
    pickup_at: DateTime,
    return_at: DateTime,
    driver_name: PersonName,
    driver_email: Email,
    driver_birth_date: Date,
    driver_phone: Phone | None = None,
    damage_waiver: bool = False,
) -> Reservation:
    """Reserve a car of a class, priced as quote_rental prices it.

    Args:
        pickup_location_id: Where the car is picked up.
        return_location_id: Where it is returned.
        class_id: The vehicle class.
        pickup_at: Pickup time (in the future).
        return_at: Return time (after pickup).
        driver_name: The main driver.
        driver_email: The driver's e-mail address.
        driver_birth_date: The driver's date of birth.
        driver_phone: The driver's phone number.
        damage_waiver: Whether to add the loss damage waiver.
    """
    offer = quote_rental(
        ctx, pickup_location_id, return_location_id, class_id, pickup_at, return_at, driver_birth_date, damage_waiver
    )
    return ctx.create(
        Reservation,
        pickup_location_id=pickup_location_id,
        return_location_id=return_location_id,
        class_id=class_id,
        pickup_at=pickup_at,
        return_at=return_at,
        driver_name=driver_name,
        driver_email=driver_email,
        driver_phone=driver_phone,
        driver_birth_date=driver_birth_date,
        damage_waiver=damage_waiver,
        days=offer.days,
        one_way_fee=offer.one_way_fee,
        estimated_total=offer.estimated_total,
    )


@service.tool(
    intent="cancel the car rental reservation",
    write=True,
    destructive=True,
    example=first_example(Reservation, "reservation_id", where={"status": "confirmed"}),
)
def cancel_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Cancel a confirmed reservation that was not picked up.

    Args:
        reservation_id: The reservation.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    if res.status != "confirmed":
        raise RuleViolation(
            f"reservation {res.confirmation} is {res.status}",
            field="reservation_id",
            hint="only confirmed reservations can be cancelled; a picked-up car is checked in instead",
        )
    return ctx.update(res, status="cancelled")


# -- check-out and check-in -------------------------------------------------------------------


def _pickup_ready(ctx: Ctx, res: Reservation) -> bool:
    now = ctx.now()
    return res.pickup_at - EARLY_PICKUP <= now <= res.pickup_at + LATE_PICKUP


def _check_out_example(ctx: Ctx) -> dict[str, Any] | None:
    for res in ctx.where(Reservation, status="confirmed"):
        if not _pickup_ready(ctx, res):
            continue
        wanted = ctx.get(VehicleClass, res.class_id)
        for car in ctx.where(Vehicle, location_id=res.pickup_location_id, status="available"):
            if car.fuel_eighths == 8 and ctx.get(VehicleClass, car.class_id).rank >= wanted.rank:
                return {"reservation_id": res.id, "vehicle_id": car.id}
    return None


@service.tool(intent="hand over the rental car", write=True, example=_check_out_example)
def check_out_vehicle(ctx: Ctx, reservation_id: ReservationId, vehicle_id: VehicleId) -> Agreement:
    """Open a rental agreement: hand a car to the driver of a confirmed reservation.

    Pickup opens two hours before the reserved time and closes 24 hours after.
    The car must be available and fully fuelled at the pickup location, of the
    reserved class or a higher one (a free upgrade).

    Args:
        reservation_id: The reservation.
        vehicle_id: The car handed over.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    car = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    if res.status != "confirmed":
        raise RuleViolation(
            f"reservation {res.confirmation} is {res.status}", field="reservation_id", hint="book a new reservation"
        )
    if not _pickup_ready(ctx, res):
        raise RuleViolation(
            f"reservation {res.confirmation} is for pickup at {res.pickup_at}",
            field="reservation_id",
            hint="pickup opens two hours before and closes 24 hours after the reserved time",
        )
    if car.location_id != res.pickup_location_id or car.status != "available":
        where = "at another location" if car.location_id != res.pickup_location_id else car.status
        raise RuleViolation(
            f"car {car.plate} is {where}",
            field="vehicle_id",
            hint="list available vehicles at the pickup location",
        )
    if ctx.get(VehicleClass, car.class_id).rank < ctx.get(VehicleClass, res.class_id).rank:
        raise RuleViolation(
            f"car {car.plate} is of a lower class than reserved",
            field="vehicle_id",
            hint="hand over a car of the reserved class or an upgrade",
        )
    if car.fuel_eighths < 8:
        raise RuleViolation(
            f"car {car.plate} has {car.fuel_eighths}/8 of a tank", field="vehicle_id", hint="refuel it first"
        )
    ctx.update(res, status="picked_up")
    ctx.update(car, status="rented")
    return ctx.create(
        Agreement,
        reservation_id=res.id,
        vehicle_id=car.id,
        driver_email=res.driver_email,
        out_at=ctx.now(),
        out_km=car.odometer_km,
        out_fuel=car.fuel_eighths,
    )


def _check_in_example(ctx: Ctx) -> dict[str, Any] | None:
    for ag in ctx.where(Agreement, status="open"):
        res = ctx.get(Reservation, ag.reservation_id)
        return {
            "agreement_id": ag.id,
            "return_location_id": res.return_location_id,
            "odometer_km": ag.out_km + 240,
            "fuel_eighths": 6,
        }
    return None


@service.tool(intent="take the rental car back and bill it", write=True, example=_check_in_example)
def check_in_vehicle(
    ctx: Ctx, agreement_id: AgreementId, return_location_id: LocationId, odometer_km: Km, fuel_eighths: Eighths
) -> Agreement:
    """Close a rental agreement: bill days used, fuel, extra kilometres, drop charges and damage.

    Args:
        agreement_id: The open agreement.
        return_location_id: Where the car was dropped.
        odometer_km: Odometer reading now.
        fuel_eighths: Fuel level now, in eighths.
    """
    ag = ctx.get(Agreement, agreement_id, field="agreement_id")
    if ag.status != "open":
        raise Conflict(f"agreement {ag.id} is already closed", field="agreement_id", hint="nothing to do")
    if odometer_km < ag.out_km:
        raise RuleViolation(
            f"the odometer read {ag.out_km} km at check-out", field="odometer_km", hint="read the odometer again"
        )
    res = ctx.get(Reservation, ag.reservation_id)
    vclass = ctx.get(VehicleClass, res.class_id)
    pickup = ctx.get(Location, res.pickup_location_id)
    drop = ctx.get(Location, return_location_id, field="return_location_id")
    drop_fee = one_way_fee(ctx, pickup, drop, "return_location_id")
    if return_location_id != res.return_location_id:
        drop_fee += UNPLANNED_DROP_FEE
    now = ctx.now()
    days = billed_days(ag.out_at, now)
    young = age_on(res.driver_birth_date, ag.out_at.date()) < YOUNG_DRIVER_AGE
    fees = days * ((YOUNG_DRIVER_FEE if young else 0) + (LDW_DAILY if res.damage_waiver else 0))
    driven = odometer_km - ag.out_km
    extra_km = 0 if vclass.km_per_day is None else max(0, driven - vclass.km_per_day * days)
    charges = {
        "days": days,
        "time_charge": days * vclass.daily_rate,
        "fees": fees,
        "one_way_fee": drop_fee,
        "fuel_charge": max(0, ag.out_fuel - fuel_eighths) * FUEL_PER_EIGHTH,
        "mileage_charge": extra_km * EXTRA_KM,
    }
    total = sum(v for k, v in charges.items() if k != "days") + ag.damage_charge
    car = ctx.get(Vehicle, ag.vehicle_id)
    major = any(d.severity == "major" for d in ctx.where(DamageReport, vehicle_id=car.id, status="reported"))
    ctx.update(
        car,
        location_id=drop.id,
        odometer_km=odometer_km,
        fuel_eighths=fuel_eighths,
        status="maintenance" if major else "available",
    )
    ctx.update(res, status="completed")
    return ctx.update(
        ag,
        status="closed",
        in_at=now,
        in_km=odometer_km,
        in_fuel=fuel_eighths,
        return_location_id=drop.id,
        total=total,
        **charges,
    )


@service.tool(
    intent="report damage on the rental car",
    write=True,
    example=first_example(
        Vehicle, "vehicle_id", where={"status": "rented"}, area="rear", severity="minor", estimate=45000
    ),
)
def report_damage(
    ctx: Ctx, vehicle_id: VehicleId, area: Area, severity: Severity, estimate: Cents, description: str = ""
) -> DamageReport:
    """Report damage on a car, charged to its last rental agreement unless the renter took the damage waiver.

    Major damage takes an available car out of service until repaired.

    Args:
        vehicle_id: The car.
        area: Where on the car.
        severity: minor or major.
        estimate: Repair estimate, in cents.
        description: What was found.
    """
    car = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    rentals = ctx.where(Agreement, vehicle_id=car.id)
    if not rentals:
        raise RuleViolation(
            f"car {car.plate} was never rented", field="vehicle_id", hint="log fleet damage in maintenance instead"
        )
    if estimate == 0:
        raise RuleViolation("a damage report needs a repair estimate", field="estimate", hint="get an estimate")
    last = max(rentals, key=lambda a: a.out_at)
    waived = ctx.get(Reservation, last.reservation_id).damage_waiver
    charged = 0 if waived else estimate
    if charged:
        # An open agreement bills its damage at check-in; a closed one's total grows now.
        billed = last.total + charged if last.status == "closed" else last.total
        ctx.update(last, damage_charge=last.damage_charge + charged, total=billed)
    if severity == "major" and car.status == "available":
        ctx.update(car, status="maintenance")
    return ctx.create(
        DamageReport,
        vehicle_id=car.id,
        agreement_id=last.id,
        area=area,
        severity=severity,
        description=description,
        estimate=estimate,
        charged=charged,
    )


# -- seed -------------------------------------------------------------------------------------

_CLASSES = (
    ("ECAR", "Economy — Kia Rio or similar", 4, 3900, 21, None, ("Kia", "Rio")),
    ("CCAR", "Compact — Toyota Corolla or similar", 5, 4500, 21, None, ("Toyota", "Corolla")),
    ("IDAR", "Intermediate — Hyundai Elantra or similar", 5, 5200, 21, None, ("Hyundai", "Elantra")),
    ("SFAR", "Standard SUV — Ford Escape or similar", 5, 6900, 21, None, ("Ford", "Escape")),
    ("FVAR", "Minivan — Chrysler Pacifica or similar", 7, 9900, 21, None, ("Chrysler", "Pacifica")),
    ("PDAR", "Premium — BMW 5 Series or similar", 5, 8900, 25, 300, ("BMW", "530i")),
    ("LDAR", "Luxury — Mercedes E-Class or similar", 5, 12900, 25, 250, ("Mercedes-Benz", "E 350")),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Locations in the population's cities, seven classes, a fleet, reservations, rentals and damage."""
    pop = s.population
    now = s.now
    cities: dict[str, Any] = {}
    for company in pop.companies:
        cities.setdefault(company.address.city, company)
    locations = []
    for k, company in enumerate(list(cities.values())[:4]):
        letters = "".join(ch for ch in company.address.city.upper() if ch.isalpha())[:3].ljust(3, "X")
        for n, airport in enumerate((True, False) if k < 2 else (True,)):
            locations.append(
                s.create(
                    Location,
                    code=f"{letters}{n + 1:02d}",
                    name=f"{company.address.city} {'Airport' if airport else 'Downtown'}",
                    address=company.address,
                    latitude=company.place.latitude,
                    longitude=company.place.longitude,
                    airport=airport,
                    one_way_returns=k != 3,
                )
            )
    classes = [
        s.create(
            VehicleClass,
            code=code,
            name=name,
            rank=r + 1,
            seats=seats,
            daily_rate=rate,
            min_driver_age=age,
            km_per_day=km,
        )
        for r, (code, name, seats, rate, age, km, _) in enumerate(_CLASSES)
    ]
    fleet: list[Vehicle] = []
    for n, loc in enumerate(locations):
        for c, vclass in enumerate(classes):
            make, model = _CLASSES[c][6]
            fleet.append(
                s.create(
                    Vehicle,
                    class_id=vclass.id,
                    location_id=loc.id,
                    plate=f"RW{n}{c}{s.rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{s.rng.randint(100, 999)}",
                    make=make,
                    car_model=model,
                    odometer_km=s.rng.randint(4000, 60000),
                    # The first location's minivan came back with a quarter tank short.
                    fuel_eighths=6 if (n, c) == (0, 4) else 8,
                )
            )
    _seed_rentals(s, locations, classes, fleet, now)


def _seed_rentals(
    s: SeedContext, locations: list[Location], classes: list[VehicleClass], fleet: list[Vehicle], now: dt.datetime
) -> None:
    drivers = [*s.population.consumers[:6], *s.population.employees[:2]]
    plans = (
        # pickup offset (hours), days, class index, status, waiver
        (1, 3, 1, "confirmed", False),
        (48, 2, 3, "confirmed", True),
        (-72, 2, 2, "picked_up", False),
        (-48, 4, 5, "picked_up", True),
        (-240, 3, 0, "completed", False),
        (200, 5, 4, "cancelled", False),
    )
    for k, (hours, days, c, status, waiver) in enumerate(plans):
        person = drivers[k % len(drivers)]
        pickup_at = (now + dt.timedelta(hours=hours)).replace(second=0, microsecond=0)
        loc = locations[1 if status == "completed" else 0]
        car = None
        if status in ("picked_up", "completed"):
            car = next(v for v in fleet if v.location_id == loc.id and v.class_id == classes[c].id)
        vclass = classes[c]
        fee = YOUNG_DRIVER_FEE if age_on(person.birth_date, pickup_at.date()) < YOUNG_DRIVER_AGE else 0
        total = days * (vclass.daily_rate + fee + (LDW_DAILY if waiver else 0))
        res = s.create(
            Reservation,
            pickup_location_id=loc.id,
            return_location_id=loc.id,
            class_id=vclass.id,
            pickup_at=pickup_at,
            return_at=pickup_at + dt.timedelta(days=days),
            driver_name=person.name,
            driver_email=person.email,
            driver_phone=person.phone,
            driver_birth_date=person.birth_date,
            damage_waiver=waiver,
            days=days,
            estimated_total=total,
            status=status,
        )
        if car is None:
            continue
        out = {
            "reservation_id": res.id,
            "vehicle_id": car.id,
            "driver_email": person.email,
            "out_at": pickup_at,
            "out_km": car.odometer_km,
            "out_fuel": 8,
        }
        if status == "picked_up":
            s.create(Agreement, **out)
            fleet[fleet.index(car)] = s.update(car, status="rented")
        else:
            driven = 410
            # Found at the return walk-around: a dented bumper, charged to the renter (no waiver), car in the shop.
            closed = s.create(
                Agreement,
                **out,
                in_at=pickup_at + dt.timedelta(days=days),
                in_km=car.odometer_km + driven,
                in_fuel=8,
                return_location_id=loc.id,
                days=days,
                time_charge=days * vclass.daily_rate,
                fees=total - days * vclass.daily_rate,
                damage_charge=0 if waiver else 85000,
                total=total + (0 if waiver else 85000),
                status="closed",
            )
            s.create(
                DamageReport,
                vehicle_id=car.id,
                agreement_id=closed.id,
                area="rear",
                severity="major",
                description="Rear bumper dented, parking sensor broken",
                estimate=85000,
                charged=0 if waiver else 85000,
            )
            fleet[fleet.index(car)] = s.update(car, odometer_km=car.odometer_km + driven, status="maintenance")
