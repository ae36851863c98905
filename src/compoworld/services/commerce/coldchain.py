"""Frostline: cold chain monitoring of temperature-sensitive shipments, readings, excursions and dispositions.

Modeled on the Tive and Sensitech (TempTale / ColdStream) platform APIs:
trackers (devices) available → assigned → retired; temperature profiles with a
range in °C and an allowed cumulative time out of range; shipments from a
shipper to a consignee with a profile and a tracker, created → in_transit →
delivered (or cancelled before departure). Readings only arrive for shipments
in transit, in time order and never from the future; a reading out of range
opens an excursion (alarm, high or low) or extends the one running, and one
back in range ends it. Excursions are acknowledged by an employee. At delivery
the tracker is freed and the product awaits a disposition: released only when
no excursion is still unacknowledged and the time out of range is within the
profile's allowance, otherwise quarantined or rejected.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, CompanyName, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "coldchain",
    title="Frostline",
    category="cold_chain",
    modeled_on="Tive / Sensitech ColdStream APIs: trackers, temperature profiles, shipments, sensor readings, "
    "excursion alarms, product dispositions",
    description="Cold chain monitoring for the company's temperature-sensitive shipments: trackers, temperature "
    "ranges, readings in transit, excursion alarms and their acknowledgement, and the release, quarantine or "
    "rejection of the product on delivery.",
)

TrackerId = Annotated[str, IdOf("coldchain.tracker")]
ProfileId = Annotated[str, IdOf("coldchain.profile")]
ShipmentId = Annotated[str, IdOf("coldchain.shipment")]
ReadingId = Annotated[str, IdOf("coldchain.reading")]
ExcursionId = Annotated[str, IdOf("coldchain.excursion")]

Celsius = Annotated[float, Field(ge=-90, le=80)]
"""A temperature in °C."""
Serial = Annotated[str, StringConstraints(pattern=r"^TV-\d{6}$")]
"""A tracker's serial number."""

TrackerStatus = Literal["available", "assigned", "retired"]
ShipmentStatus = Literal["created", "in_transit", "delivered", "cancelled"]
Disposition = Literal["pending", "released", "quarantined", "rejected"]
ExcursionKind = Literal["high", "low"]
ExcursionStatus = Literal["open", "acknowledged"]


class Tracker(Timestamped):
    """A temperature tracker device."""

    id: TrackerId
    serial: Serial
    """Its serial number (unique)."""
    model_name: Title
    """The device model."""
    battery_pct: Annotated[int, Field(ge=0, le=100)] = 100
    """Battery level."""
    status: TrackerStatus = "available"
    """available, assigned (to a shipment) or retired."""


class Profile(Timestamped):
    """A temperature range a product must stay in."""

    id: ProfileId
    name: Title
    """Its name, e.g. 2-8 °C vaccines."""
    min_c: Celsius
    """The lowest allowed temperature."""
    max_c: Celsius
    """The highest allowed temperature."""
    allowed_minutes: Annotated[int, Field(ge=0, le=10080)] = 30
    """The cumulative time out of range the product tolerates."""


class Shipment(Timestamped):
    """A temperature-sensitive shipment with its tracker and range."""

    id: ShipmentId
    reference: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{3,24}$")]
    """The shipper's reference."""
    product: Title
    """What it carries."""
    shipper: CompanyName
    """The shipping company."""
    consignee: CompanyName
    """The receiving company."""
    consignee_email: Email | None = None
    """The consignee's contact."""
    origin: City
    """Where it leaves from."""
    destination: City
    """Where it goes."""
    profile_id: ProfileId
    """The temperature range."""
    tracker_id: TrackerId | None = None
    """The tracker riding with it."""
    status: ShipmentStatus = "created"
    """created, in_transit, delivered or cancelled."""
    departed_at: DateTime | None = None
    """When it left."""
    delivered_at: DateTime | None = None
    """When it arrived."""
    minutes_out_of_range: int = 0
    """Cumulative minutes outside the range."""
    disposition: Disposition = "pending"
    """pending, released, quarantined or rejected (decided on delivery)."""
    disposition_note: Text | None = None
    """Why."""


class Reading(Timestamped):
    """A temperature reading of a shipment's tracker."""

    id: ReadingId
    shipment_id: ShipmentId
    """The shipment."""
    recorded_at: DateTime
    """When it was measured."""
    temperature_c: Celsius
    """The temperature."""
    in_range: bool
    """Whether it was within the profile's range."""


class Excursion(Timestamped):
    """An alarm: a stretch of time a shipment spent out of range."""

    id: ExcursionId
    shipment_id: ShipmentId
    """The shipment."""
    kind: ExcursionKind
    """high or low."""
    started_at: DateTime
    """The first reading out of range."""
    ended_at: DateTime | None = None
    """The first reading back in range (none: still running)."""
    peak_c: Celsius
    """The most extreme temperature."""
    minutes: int = 0
    """How long it lasted so far."""
    status: ExcursionStatus = "open"
    """open or acknowledged."""
    acknowledged_by: Email | None = None
    """The employee who acknowledged it."""


class Summary(Value):
    """A shipment's temperature record."""

    shipment_id: ShipmentId
    """The shipment."""
    readings: int
    """How many readings."""
    min_c: float | None
    """The lowest reading."""
    max_c: float | None
    """The highest reading."""
    excursions: int
    """How many excursions."""
    minutes_out_of_range: int
    """Cumulative minutes out of range."""
    allowed_minutes: int
    """The profile's allowance."""
    releasable: bool
    """Whether the product may be released now."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_profile(ctx: Ctx, new: Any, old: Any) -> None:
    if new.min_c >= new.max_c:
        raise RuleViolation("min_c must be below max_c", field="min_c", hint="give a range low to high")


def _guard_shipment(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "created" and new.profile_id != old.profile_id:
        raise RuleViolation("the range cannot change after departure", field="profile_id", hint="keep it")


def _guard_cancel(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "cancelled" and old.status != "cancelled" and new.tracker_id is not None:
        tracker = ctx.get(Tracker, new.tracker_id)
        ctx.update(tracker, status="available")
        ctx.update(new, tracker_id=None)


def _guard_any_shipment(ctx: Ctx, new: Any, old: Any) -> None:
    _guard_shipment(ctx, new, old)
    _guard_cancel(ctx, new, old)


trackers = service.resource(
    Tracker,
    name="tracker",
    plural="trackers",
    prefix="trk",
    create=False,
    filters=("status", "serial"),
    delete=False,
    transitions={
        "retire": Transition(
            "status", ("available",), "retired", "retire the tracker", description="Retire an unassigned tracker."
        )
    },
)
profiles = service.resource(
    Profile,
    name="profile",
    plural="profiles",
    prefix="prf",
    create=("name", "min_c", "max_c", "allowed_minutes"),
    filters=(),
    search=("name",),
    delete=False,
    guard_create=_guard_profile,
    title="temperature profile",
)
shipments = service.resource(
    Shipment,
    name="shipment",
    plural="shipments",
    prefix="shp",
    create=False,
    filters=("status", "disposition", "profile_id", "tracker_id", "consignee", "reference"),
    search=("product", "consignee"),
    update=("consignee_email", "destination", "profile_id"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("created",), "cancelled", "cancel the cold chain shipment", destructive=True)
    },
    guard_update=_guard_any_shipment,
)
readings = service.resource(
    Reading,
    name="reading",
    plural="readings",
    prefix="rdg",
    create=False,
    get=False,
    filters=("shipment_id", "in_range"),
    delete=False,
)
excursions = service.resource(
    Excursion,
    name="excursion",
    plural="excursions",
    prefix="exc",
    create=False,
    filters=("shipment_id", "kind", "status"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    prof = ctx.first(Profile)
    comp = ctx.population.companies[-1]
    return (
        None
        if prof is None
        else {
            "reference": "CC-99001",
            "product": "Insulin pens",
            "consignee": comp.name,
            "destination": comp.place.city,
            "profile_id": prof.id,
        }
    )


@service.tool(intent="create the cold chain shipment", write=True, example=_example_create)
def create_shipment(
    ctx: Ctx,
    reference: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{3,24}$")],
    product: Title,
    consignee: CompanyName,
    destination: City,
    profile_id: ProfileId,
    consignee_email: Email | None = None,
) -> Shipment:
    """Create a shipment from the company's home city under a temperature profile; references are unique.

    Args:
        reference: The shipper's reference.
        product: What it carries.
        consignee: The receiving company.
        destination: Where it goes.
        profile_id: The temperature range.
        consignee_email: The consignee's contact.
    """
    ctx.get(Profile, profile_id, field="profile_id")
    if ctx.first(Shipment, reference=reference) is not None:
        raise Conflict(f"shipment {reference} exists", field="reference", hint="use another reference")
    home = ctx.population.home
    return ctx.create(
        Shipment,
        reference=reference,
        product=product,
        shipper=home.name,
        consignee=consignee,
        consignee_email=consignee_email,
        origin=home.place.city,
        destination=destination,
        profile_id=profile_id,
    )


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    return {"serial": "TV-990001", "model_name": "Tive Solo 5G"}


@service.tool(intent="register the tracker", write=True, example=_example_register)
def register_tracker(ctx: Ctx, serial: Serial, model_name: Title) -> Tracker:
    """Add a tracker device to the pool; serial numbers are unique.

    Args:
        serial: Its serial number (TV- and six digits).
        model_name: The device model.
    """
    if ctx.first(Tracker, serial=serial) is not None:
        raise Conflict(f"tracker {serial} is registered", field="serial", hint="use another serial")
    return ctx.create(Tracker, serial=serial, model_name=model_name)


def _example_attach(ctx: Ctx) -> dict[str, Any] | None:
    s, t = ctx.first(Shipment, status="created", tracker_id=None), ctx.first(Tracker, status="available")
    return None if s is None or t is None else {"shipment_id": s.id, "tracker_id": t.id}


@service.tool(intent="attach the tracker to the shipment", write=True, example=_example_attach)
def attach_tracker(ctx: Ctx, shipment_id: ShipmentId, tracker_id: TrackerId) -> Shipment:
    """Put an available tracker on a shipment that has not left yet.

    Args:
        shipment_id: The created shipment (without a tracker).
        tracker_id: An available tracker with battery above 20%.
    """
    ship = ctx.get(Shipment, shipment_id, field="shipment_id")
    if ship.status != "created" or ship.tracker_id is not None:
        raise Conflict("the shipment has left or has a tracker", field="shipment_id", hint="pick another shipment")
    tracker = ctx.get(Tracker, tracker_id, field="tracker_id")
    if tracker.status != "available":
        raise Conflict(f"the tracker is {tracker.status}", field="tracker_id", hint="pick an available tracker")
    if tracker.battery_pct <= 20:
        raise RuleViolation("the tracker's battery is too low", field="tracker_id", hint="charge it or pick another")
    ctx.update(tracker, status="assigned")
    return ctx.update(ship, tracker_id=tracker.id)


@service.tool(
    intent="dispatch the shipment",
    write=True,
    example=first_example(Shipment, "shipment_id", where={"status": "created"}, match=lambda c, s: bool(s.tracker_id)),
)
def dispatch_shipment(ctx: Ctx, shipment_id: ShipmentId) -> Shipment:
    """Start a shipment's journey; it needs a tracker.

    Args:
        shipment_id: The created shipment.
    """
    ship = ctx.get(Shipment, shipment_id, field="shipment_id")
    if ship.status != "created":
        raise Conflict(f"the shipment is {ship.status}", field="shipment_id", hint="only created ones leave")
    if ship.tracker_id is None:
        raise RuleViolation("the shipment has no tracker", field="shipment_id", hint="attach one first")
    return ctx.update(ship, status="in_transit", departed_at=ctx.now())


def _example_reading(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Shipment, status="in_transit")
    return None if s is None else {"shipment_id": s.id, "temperature_c": 5.0, "recorded_at": ctx.now().isoformat()}


@service.tool(intent="record the temperature reading", write=True, example=_example_reading)
def record_reading(ctx: Ctx, shipment_id: ShipmentId, temperature_c: Celsius, recorded_at: DateTime) -> Reading:
    """Take in a tracker reading: out of range opens or extends an excursion, in range ends it.

    Args:
        shipment_id: The shipment in transit.
        temperature_c: The temperature.
        recorded_at: When it was measured: after its last reading and not in the future.
    """
    ship = ctx.get(Shipment, shipment_id, field="shipment_id")
    if ship.status != "in_transit":
        raise Conflict(f"the shipment is {ship.status}", field="shipment_id", hint="readings come in transit")
    last = max((r.recorded_at for r in ctx.where(Reading, shipment_id=ship.id)), default=ship.departed_at)
    if recorded_at > ctx.now() or (last is not None and recorded_at < last):
        raise RuleViolation(
            "recorded_at must be after the last reading and not in the future",
            field="recorded_at",
            hint=f"give a time between {last} and {ctx.now()}",
        )
    prof = ctx.get(Profile, ship.profile_id)
    in_range = prof.min_c <= temperature_c <= prof.max_c
    running = next((e for e in ctx.where(Excursion, shipment_id=ship.id) if e.ended_at is None), None)
    if running is not None:
        minutes = int((recorded_at - running.started_at).total_seconds() // 60)
        extreme = max if running.kind == "high" else min
        peak = running.peak_c if in_range else extreme(running.peak_c, temperature_c)
        added = minutes - running.minutes
        ctx.update(running, minutes=minutes, peak_c=peak, ended_at=recorded_at if in_range else None)
        ctx.update(ship, minutes_out_of_range=ship.minutes_out_of_range + added)
    elif not in_range:
        kind: ExcursionKind = "high" if temperature_c > prof.max_c else "low"
        ctx.create(Excursion, shipment_id=ship.id, kind=kind, started_at=recorded_at, peak_c=temperature_c)
    return ctx.create(
        Reading, shipment_id=ship.id, recorded_at=recorded_at, temperature_c=temperature_c, in_range=in_range
    )


def _example_ack(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Excursion, status="open")
    return None if e is None else {"excursion_id": e.id, "acknowledged_by": ctx.population.employees[0].email}


@service.tool(intent="acknowledge the temperature excursion", write=True, example=_example_ack)
def acknowledge_excursion(ctx: Ctx, excursion_id: ExcursionId, acknowledged_by: Email) -> Excursion:
    """Acknowledge an open excursion alarm.

    Args:
        excursion_id: The open excursion.
        acknowledged_by: The employee acknowledging it.
    """
    exc = ctx.get(Excursion, excursion_id, field="excursion_id")
    if exc.status != "open":
        raise Conflict("the excursion is already acknowledged", field="excursion_id", hint="nothing to do")
    _staff(ctx, acknowledged_by, "acknowledged_by")
    return ctx.update(exc, status="acknowledged", acknowledged_by=acknowledged_by)


@service.tool(
    intent="mark the shipment delivered",
    write=True,
    example=first_example(Shipment, "shipment_id", where={"status": "in_transit"}),
)
def deliver_shipment(ctx: Ctx, shipment_id: ShipmentId) -> Shipment:
    """Record a shipment's arrival: a running excursion ends, the tracker is freed, the product awaits disposition.

    Args:
        shipment_id: The shipment in transit.
    """
    ship = ctx.get(Shipment, shipment_id, field="shipment_id")
    if ship.status != "in_transit":
        raise Conflict(f"the shipment is {ship.status}", field="shipment_id", hint="only shipments in transit arrive")
    now = ctx.now()
    total = ship.minutes_out_of_range
    for e in ctx.where(Excursion, shipment_id=ship.id):
        if e.ended_at is None:
            minutes = int((now - e.started_at).total_seconds() // 60)
            total += minutes - e.minutes
            ctx.update(e, ended_at=now, minutes=minutes)
    if ship.tracker_id is not None:
        ctx.update(ctx.get(Tracker, ship.tracker_id), status="available")
    return ctx.update(ship, status="delivered", delivered_at=now, tracker_id=None, minutes_out_of_range=total)


def _releasable(ctx: Ctx, ship: Shipment) -> bool:
    prof = ctx.get(Profile, ship.profile_id)
    acked = all(e.status == "acknowledged" for e in ctx.where(Excursion, shipment_id=ship.id))
    return acked and ship.minutes_out_of_range <= prof.allowed_minutes


def _example_dispose(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Shipment, status="delivered", disposition="pending")
    return None if s is None else {"shipment_id": s.id, "disposition": "quarantined", "note": "Hold for QA review."}


@service.tool(intent="set the product disposition", write=True, example=_example_dispose)
def set_disposition(
    ctx: Ctx, shipment_id: ShipmentId, disposition: Literal["released", "quarantined", "rejected"], note: Text
) -> Shipment:
    """Decide what happens to a delivered product: released, quarantined or rejected.

    A quarantined product may later be released or rejected; release needs every excursion acknowledged and
    the time out of range within the profile's allowance.

    Args:
        shipment_id: The delivered shipment.
        disposition: released, quarantined or rejected.
        note: Why.
    """
    ship = ctx.get(Shipment, shipment_id, field="shipment_id")
    if ship.status != "delivered":
        raise Conflict(f"the shipment is {ship.status}", field="shipment_id", hint="decide after delivery")
    if ship.disposition not in ("pending", "quarantined") or ship.disposition == disposition:
        raise Conflict(f"the product is already {ship.disposition}", field="shipment_id", hint="it is decided")
    if disposition == "released" and not _releasable(ctx, ship):
        raise RuleViolation(
            "the product cannot be released: an excursion is unacknowledged or the time out of range exceeds "
            "the allowance",
            field="disposition",
            hint="acknowledge the excursions, or quarantine or reject the product",
        )
    if not note.strip():
        raise RuleViolation("a disposition needs a note", field="note", hint="say why")
    return ctx.update(ship, disposition=disposition, disposition_note=note.strip())


@service.tool(intent="summarize the shipment's temperatures", example=first_example(Shipment, "shipment_id"))
def shipment_summary(ctx: Ctx, shipment_id: ShipmentId) -> Summary:
    """A shipment's readings, extremes, excursions and whether it may be released.

    Args:
        shipment_id: The shipment.
    """
    ship = ctx.get(Shipment, shipment_id, field="shipment_id")
    temps = [r.temperature_c for r in ctx.where(Reading, shipment_id=ship.id)]
    return Summary(
        shipment_id=ship.id,
        readings=len(temps),
        min_c=min(temps, default=None),
        max_c=max(temps, default=None),
        excursions=len(ctx.where(Excursion, shipment_id=ship.id)),
        minutes_out_of_range=ship.minutes_out_of_range,
        allowed_minutes=ctx.get(Profile, ship.profile_id).allowed_minutes,
        releasable=ship.status == "delivered" and _releasable(ctx, ship),
    )


# -- seed -------------------------------------------------------------------------------------

_PROFILES = (
    ("2-8 °C vaccines", 2.0, 8.0, 60),
    ("Frozen -25/-15 °C", -25.0, -15.0, 30),
    ("CRT 15-25 °C", 15.0, 25.0, 240),
)
_PRODUCTS = ("Influenza vaccine", "Frozen plasma", "Insulin pens", "Ice cream", "Biologic samples", "Fresh salmon")


@service.seeder
def seed(s: SeedContext) -> None:
    """Trackers, three profiles, shipments to the population's companies in every state, readings and excursions."""
    pop = s.population
    home = pop.home
    trackers_made = [
        s.create(Tracker, serial=f"TV-{100200 + 17 * k}", model_name="Tive Solo 5G", battery_pct=95 - 9 * k)
        for k in range(10)
    ]
    s.update(trackers_made[-1], status="retired")
    profs = [s.create(Profile, name=n, min_c=lo, max_c=hi, allowed_minutes=m) for n, lo, hi, m in _PROFILES]
    customers = pop.customers or pop.companies
    states: tuple[ShipmentStatus, ...] = ("created", "created", "in_transit", "in_transit", "delivered", "delivered")
    for k, status in enumerate(states):
        comp = customers[k % len(customers)]
        contact = pop.first_contact(comp)
        prof = profs[k % len(profs)]
        tracker = trackers_made[k] if k != 0 and status != "delivered" else None
        ship = s.create(
            Shipment,
            reference=f"CC-{24100 + k}",
            product=_PRODUCTS[k],
            shipper=home.name,
            consignee=comp.name,
            consignee_email=contact.email if contact else None,
            origin=home.place.city,
            destination=comp.place.city,
            profile_id=prof.id,
            tracker_id=tracker.id if tracker else None,
            status=status,
            departed_at=s.ago(hours=30 - k) if status != "created" else None,
            delivered_at=s.ago(hours=2) if status == "delivered" else None,
        )
        if tracker is not None:
            s.update(tracker, status="assigned")
        if status == "created":
            continue
        start = s.ago(hours=30 - k)
        mid = (prof.min_c + prof.max_c) / 2
        for h in range(6):
            out = k in (3, 4, 5) and h in (2, 3)
            temp = prof.max_c + 2.5 if out else mid + (h % 3) - 1
            s.create(
                Reading,
                shipment_id=ship.id,
                recorded_at=start + dt.timedelta(hours=h),
                temperature_c=temp,
                in_range=not out,
            )
        if k in (3, 4, 5):
            s.create(
                Excursion,
                shipment_id=ship.id,
                kind="high",
                started_at=start + dt.timedelta(hours=2),
                ended_at=start + dt.timedelta(hours=4),
                peak_c=prof.max_c + 2.5,
                minutes=120,
                status="open" if k == 5 else "acknowledged",
                acknowledged_by=None if k == 5 else pop.employees[1].email,
            )
            s.update(ship, minutes_out_of_range=120)
