"""Voltline: an EV charging network's stations, connectors, drivers, sessions, reservations and faults.

Modeled on the ChargePoint Web Services API and the OCPP 1.6 messages a
charging station management system (CSMS) sends and receives: charge stations
(charge points) with numbered connectors whose OCPP status is available,
preparing, charging, suspended_ev, finishing, reserved, unavailable or faulted;
ChangeAvailability (operative / inoperative, refused while a connector
charges), RemoteStartTransaction (an active driver's RFID idTag on an available
connector, or on one the same driver reserved; one session per driver at a
time) and RemoteStopTransaction (energy from the meter, cost from the station's
tariff: energy price per kWh plus a session fee plus idle minutes), ReserveNow
and CancelReservation (expiry at most two hours ahead, one active reservation
per driver), and StatusNotification error codes raised as faults (the
connector goes faulted and an ongoing session stops with EmergencyStop) that
are acknowledged and resolved. Tariffs in use cannot be deleted. Amounts are cents.
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
from compoworld.engine.types import Cents, City, Currency, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "evcharging",
    title="Voltline",
    category="ev_charging",
    modeled_on="ChargePoint Web Services API and OCPP 1.6 (ChangeAvailability, RemoteStart/StopTransaction, "
    "ReserveNow, CancelReservation, StatusNotification): stations, connectors, drivers, tariffs, sessions, faults",
    description="Operating a network of EV charging stations: stations and their connectors with live OCPP "
    "status, pricing tariffs, registered drivers and their RFID cards, charging sessions started and stopped "
    "remotely, connector reservations, and hardware faults reported by the stations.",
)

StationId = Annotated[str, IdOf("evcharging.station")]
ConnectorId = Annotated[str, IdOf("evcharging.connector")]
TariffId = Annotated[str, IdOf("evcharging.tariff")]
DriverId = Annotated[str, IdOf("evcharging.driver")]
SessionId = Annotated[str, IdOf("evcharging.session")]
ReservationId = Annotated[str, IdOf("evcharging.reservation")]
FaultId = Annotated[str, IdOf("evcharging.fault")]

IdTag = Annotated[str, StringConstraints(pattern=r"^[0-9A-F]{8,20}$")]
"""An RFID card's idTag (hex)."""
Kw = Annotated[float, Field(gt=0, le=400)]
"""Power in kilowatts."""

ConnectorStatus = Literal[
    "available", "preparing", "charging", "suspended_ev", "finishing", "reserved", "unavailable", "faulted"
]
Standard = Literal["ccs2", "chademo", "type2", "nacs", "j1772"]
ErrorCode = Literal[
    "ConnectorLockFailure",
    "GroundFailure",
    "HighTemperature",
    "OverCurrentFailure",
    "PowerMeterFailure",
    "ReaderFailure",
    "EVCommunicationError",
]
StopReason = Literal["Remote", "Local", "EVDisconnected", "EmergencyStop"]
BUSY: tuple[str, ...] = ("preparing", "charging", "suspended_ev", "finishing")
MAX_RESERVE = dt.timedelta(hours=2)


class Station(Record):
    """A charging station (an OCPP charge point) at a site."""

    id: StationId
    name: Title = Field(description="Its display name.")
    site: Annotated[str, StringConstraints(min_length=1, max_length=120)] = Field(description="The site.")
    city: City = Field(description="Where it is.")
    vendor: Annotated[str, StringConstraints(min_length=1, max_length=60)] = Field(description="The hardware maker.")
    model_name: Annotated[str, StringConstraints(min_length=1, max_length=60)] = Field(description="The hardware.")
    serial: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{6,24}$")] = Field(description="Serial (unique).")
    operative: bool = Field(True, description="False while set inoperative with ChangeAvailability.")
    tariff_id: TariffId | None = Field(None, description="The tariff drivers pay here.")
    firmware: Annotated[str, StringConstraints(max_length=40)] = Field("", description="The firmware version.")
    last_heartbeat: DateTime | None = Field(None, description="When it last checked in.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was commissioned.")


class Connector(Record):
    """A numbered outlet of a station (an OCPP connector)."""

    id: ConnectorId
    station_id: StationId = Field(description="Its station.")
    number: Annotated[int, Field(ge=1, le=8)] = Field(description="connectorId on the station (1..n).")
    standard: Standard = Field(description="ccs2, chademo, type2, nacs or j1772.")
    max_kw: Kw = Field(description="Its maximum power.")
    status: ConnectorStatus = Field("available", description="Its OCPP status.")
    status_at: DateTime | None = Field(None, description="When the status last changed.")


class Tariff(Record):
    """What drivers pay for a session."""

    id: TariffId
    name: Title = Field(description="Its name (unique).")
    currency: Currency = Field(description="Its currency.")
    energy_price: Cents = Field(description="Price per kWh in cents.")
    session_fee: Cents = Field(0, description="Flat fee per session in cents.")
    idle_fee_per_minute: Cents = Field(0, description="Fee per idle minute after the grace period.")
    idle_grace_minutes: Annotated[int, Field(ge=0, le=240)] = Field(15, description="Free idle minutes.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was made.")


class Driver(Record):
    """A registered driver and their RFID card."""

    id: DriverId
    name: PersonName = Field(description="Their full name.")
    email: Email = Field(description="Their e-mail (unique).")
    id_tag: IdTag = Field(description="Their RFID card's idTag (unique).")
    fleet: Annotated[str, StringConstraints(max_length=160)] | None = Field(None, description="Their fleet account.")
    status: Literal["active", "blocked"] = Field("active", description="active or blocked (idTag refused).")
    created_at: Annotated[DateTime, CREATED] = Field(description="When they registered.")


class Session(Record):
    """A charging session (an OCPP transaction)."""

    id: SessionId
    transaction_id: Annotated[int, Field(ge=1)] = Field(description="The OCPP transactionId.")
    connector_id: ConnectorId = Field(description="The connector.")
    station_id: StationId = Field(description="Its station.")
    driver_id: DriverId = Field(description="The driver.")
    id_tag: IdTag = Field(description="The idTag that authorized it.")
    status: Literal["active", "completed"] = Field("active", description="active or completed.")
    started_at: DateTime = Field(description="StartTransaction time.")
    stopped_at: DateTime | None = Field(None, description="StopTransaction time.")
    meter_start_wh: Annotated[int, Field(ge=0)] = Field(description="Meter at start in Wh.")
    meter_stop_wh: Annotated[int, Field(ge=0)] | None = Field(None, description="Meter at stop in Wh.")
    energy_kwh: float = Field(0.0, description="Energy delivered.")
    idle_minutes: Annotated[int, Field(ge=0)] = Field(0, description="Minutes plugged in but not charging.")
    cost: Cents = Field(0, description="What the driver pays in cents.")
    currency: Currency | None = Field(None, description="The tariff's currency.")
    stop_reason: StopReason | None = Field(None, description="Remote, Local, EVDisconnected or EmergencyStop.")


class Reservation(Record):
    """A connector held for a driver (OCPP ReserveNow)."""

    id: ReservationId
    connector_id: ConnectorId = Field(description="The connector.")
    driver_id: DriverId = Field(description="The driver.")
    expires_at: DateTime = Field(description="When the hold lapses.")
    status: Literal["active", "used", "cancelled", "expired"] = Field("active", description="Its state.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was made.")


class Fault(Record):
    """A hardware error a station reported in a StatusNotification."""

    id: FaultId
    station_id: StationId = Field(description="The station.")
    connector_id: ConnectorId = Field(description="The faulted connector.")
    error_code: ErrorCode = Field(description="The OCPP ChargePointErrorCode.")
    info: Text = Field("", description="Vendor detail.")
    status: Literal["open", "acknowledged", "resolved"] = Field("open", description="open → acknowledged → resolved.")
    acknowledged_by: Email | None = Field(None, description="The technician who took it.")
    reported_at: DateTime = Field(description="When it was reported.")
    resolved_at: DateTime | None = Field(None, description="When it was fixed.")


class Usage(Value):
    """A station's charging totals."""

    station_id: StationId = Field(description="The station.")
    sessions: int = Field(description="Completed sessions.")
    energy_kwh: float = Field(description="Energy delivered by them.")
    revenue: int = Field(description="What drivers paid, in cents.")
    active_sessions: int = Field(description="Sessions charging now.")
    open_faults: int = Field(description="Faults not resolved.")


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not one of our technicians", field=field, hint="use an employee's e-mail")


def _guard_driver(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "blocked" and old.status != "blocked":
        for r in ctx.where(Reservation, driver_id=new.id, status="active"):
            _release(ctx, r, "cancelled")


def _guard_tariff(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None and ctx.first(Station, tariff_id=old.id) is not None:
        raise Conflict(
            f"tariff {old.name!r} is in use", field="tariff_id", hint="move its stations to another tariff first"
        )


stations = service.resource(
    Station,
    name="station",
    plural="stations",
    prefix="cs",
    create=False,
    filters=("city", "site", "operative", "tariff_id", "vendor", "serial"),
    search=("name", "site"),
    update=("name", "tariff_id"),
    delete=False,
)
connectors = service.resource(
    Connector,
    name="connector",
    plural="connectors",
    prefix="conn",
    create=False,
    filters=("station_id", "status", "standard"),
    delete=False,
)
tariffs = service.resource(
    Tariff,
    name="tariff",
    plural="tariffs",
    prefix="trf",
    create=("name", "currency", "energy_price", "session_fee", "idle_fee_per_minute", "idle_grace_minutes"),
    filters=("currency",),
    search=("name",),
    update=("energy_price", "session_fee", "idle_fee_per_minute", "idle_grace_minutes"),
    unique=("name",),
    guard_delete=_guard_tariff,
)
drivers = service.resource(
    Driver,
    name="driver",
    plural="drivers",
    prefix="drv",
    create=False,
    filters=("status", "email", "id_tag", "fleet"),
    search=("name", "email"),
    update=("name", "fleet"),
    delete=False,
    transitions={
        "block": Transition(
            "status",
            ("active",),
            "blocked",
            "block the driver's card",
            "Block a driver: their idTag is refused and their active reservations are cancelled.",
        ),
        "unblock": Transition("status", ("blocked",), "active", "unblock the driver's card"),
    },
    guard_update=_guard_driver,
)
sessions = service.resource(
    Session,
    name="session",
    plural="sessions",
    prefix="ses",
    create=False,
    filters=("station_id", "connector_id", "driver_id", "status", "stop_reason"),
    delete=False,
    title="charging session",
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="rsv",
    create=False,
    get=False,
    filters=("connector_id", "driver_id", "status"),
    delete=False,
)
faults = service.resource(
    Fault,
    name="fault",
    plural="faults",
    prefix="flt",
    create=False,
    filters=("station_id", "connector_id", "error_code", "status"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _release(ctx: Ctx, r: Reservation, status: str) -> None:
    ctx.update(r, status=status)
    conn = ctx.get(Connector, r.connector_id)
    if conn.status == "reserved":
        ctx.update(conn, status="available", status_at=ctx.now())


def _expire(ctx: Ctx) -> None:
    for r in ctx.where(Reservation, status="active"):
        if r.expires_at <= ctx.now():
            _release(ctx, r, "expired")


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    taken = {d.email for d in ctx.scan(Driver)}
    p = next((p for p in ctx.population.consumers if p.email not in taken), None)
    return None if p is None else {"name": p.name, "email": p.email, "id_tag": "04A1B2C3D4E5F6"}


@service.tool(intent="register the driver", write=True, example=_example_register)
def register_driver(
    ctx: Ctx,
    name: PersonName,
    email: Email,
    id_tag: IdTag,
    fleet: Annotated[str, StringConstraints(max_length=160)] | None = None,
) -> Driver:
    """Register a driver and their RFID card; e-mails and idTags are unique.

    Args:
        name: Their full name.
        email: Their e-mail.
        id_tag: Their card's idTag (hex).
        fleet: Their fleet account, if any.
    """
    for fname, value in (("email", email), ("id_tag", id_tag)):
        other = ctx.first(Driver, **{fname: value})
        if other is not None:
            raise Conflict(f"driver {other.id} already has {fname} {value}", field=fname, hint="update that driver")
    return ctx.create(Driver, name=name, email=email, id_tag=id_tag, fleet=fleet)


@service.tool(
    intent="change the station's availability",
    write=True,
    example=first_example(Station, "station_id", where={"operative": True}, operative=False),
)
def change_availability(ctx: Ctx, station_id: StationId, operative: bool) -> Station:
    """OCPP ChangeAvailability for a whole station: inoperative takes idle connectors out of service.

    Args:
        station_id: The station.
        operative: True to bring it back into service, False to take it out.
    """
    st = ctx.get(Station, station_id, field="station_id")
    if st.operative == operative:
        raise Conflict(
            f"{st.name} is already {'operative' if operative else 'inoperative'}",
            field="operative",
            hint="nothing to change",
        )
    conns = ctx.where(Connector, station_id=st.id)
    if not operative:
        busy = [c.number for c in conns if c.status in BUSY]
        if busy:
            raise RuleViolation(f"connectors {busy} are charging", field="station_id", hint="stop their sessions first")
        for r in ctx.scan(Reservation):
            if r.status == "active" and r.connector_id in {c.id for c in conns}:
                ctx.update(r, status="cancelled")
    for c in conns:
        if operative and c.status == "unavailable":
            ctx.update(c, status="available", status_at=ctx.now())
        elif not operative and c.status != "faulted":
            ctx.update(c, status="unavailable", status_at=ctx.now())
    return ctx.update(st, operative=operative)


def _active_driver(ctx: Ctx, driver_id: str) -> Driver:
    d = ctx.get(Driver, driver_id, field="driver_id")
    if d.status != "active":
        raise RuleViolation(f"{d.name}'s card is blocked", field="driver_id", hint="unblock the driver first")
    return d


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    busy = {s.driver_id for s in ctx.where(Session, status="active")}
    busy |= {r.driver_id for r in ctx.where(Reservation, status="active")}
    d = next((d for d in ctx.where(Driver, status="active") if d.id not in busy), None)
    c = next((c for c in ctx.where(Connector, status="available")), None)
    return None if d is None or c is None else {"connector_id": c.id, "driver_id": d.id}


@service.tool(intent="start a charging session remotely", write=True, example=_example_start)
def remote_start_session(ctx: Ctx, connector_id: ConnectorId, driver_id: DriverId) -> Session:
    """OCPP RemoteStartTransaction: start charging a driver on an available connector (or one they reserved).

    Args:
        connector_id: The connector.
        driver_id: The driver (active, with no session already charging).
    """
    _expire(ctx)
    conn = ctx.get(Connector, connector_id, field="connector_id")
    d = _active_driver(ctx, driver_id)
    held = ctx.first(Reservation, connector_id=conn.id, status="active")
    if conn.status == "reserved" and held is not None and held.driver_id == d.id:
        ctx.update(held, status="used")
    elif conn.status != "available":
        raise RuleViolation(
            f"connector {conn.number} is {conn.status}",
            field="connector_id",
            hint="pick an available connector with evcharging__list_connectors",
        )
    if ctx.first(Session, driver_id=d.id, status="active") is not None:
        raise Conflict(f"{d.name} is already charging", field="driver_id", hint="stop that session first")
    mine = ctx.first(Reservation, driver_id=d.id, status="active")
    if mine is not None:
        _release(ctx, mine, "cancelled")
    last = max((s.meter_stop_wh or s.meter_start_wh for s in ctx.where(Session, connector_id=conn.id)), default=0)
    ctx.update(conn, status="charging", status_at=ctx.now())
    number = max((s.transaction_id for s in ctx.scan(Session)), default=0) + 1
    return ctx.create(
        Session,
        transaction_id=number,
        connector_id=conn.id,
        station_id=conn.station_id,
        driver_id=d.id,
        id_tag=d.id_tag,
        started_at=ctx.now(),
        meter_start_wh=last,
    )


def _finish(ctx: Ctx, s: Session, reason: StopReason, idle: int) -> Session:
    conn = ctx.get(Connector, s.connector_id)
    now = ctx.now()
    hours = max((now - s.started_at).total_seconds() / 3600 - idle / 60, 0)
    wh = int(min(conn.max_kw * 0.8 * hours, 90.0) * 1000)
    station = ctx.get(Station, s.station_id)
    tariff = ctx.find(Tariff, station.tariff_id) if station.tariff_id else None
    cost = 0
    if tariff is not None:
        idle_fee = max(idle - tariff.idle_grace_minutes, 0) * tariff.idle_fee_per_minute
        cost = round(wh / 1000 * tariff.energy_price) + tariff.session_fee + idle_fee
    if conn.status != "faulted":
        ctx.update(conn, status="available" if station.operative else "unavailable", status_at=now)
    return ctx.update(
        s,
        status="completed",
        stopped_at=now,
        meter_stop_wh=s.meter_start_wh + wh,
        energy_kwh=round(wh / 1000, 3),
        idle_minutes=idle,
        cost=cost,
        currency=tariff.currency if tariff else None,
        stop_reason=reason,
    )


@service.tool(
    intent="stop the charging session remotely",
    write=True,
    example=first_example(Session, "session_id", where={"status": "active"}),
)
def remote_stop_session(
    ctx: Ctx, session_id: SessionId, idle_minutes: Annotated[int, Field(ge=0, le=1440)] = 0
) -> Session:
    """OCPP RemoteStopTransaction: end an active session; energy comes from the meter, cost from the tariff.

    Args:
        session_id: The session.
        idle_minutes: Minutes the car stayed plugged in after charging (billed past the tariff's grace period).
    """
    s = ctx.get(Session, session_id, field="session_id")
    if s.status != "active":
        raise RuleViolation(f"session {s.transaction_id} is {s.status}", field="session_id", hint="it already ended")
    return _finish(ctx, s, "Remote", idle_minutes)


def _example_reserve(ctx: Ctx) -> dict[str, Any] | None:
    ex = _example_start(ctx)
    if ex is None:
        return None
    return ex | {"expires_at": (ctx.now() + dt.timedelta(minutes=45)).isoformat()}


@service.tool(intent="reserve the connector", write=True, example=_example_reserve)
def reserve_now(ctx: Ctx, connector_id: ConnectorId, driver_id: DriverId, expires_at: DateTime) -> Reservation:
    """OCPP ReserveNow: hold an available connector for a driver until expiry (at most two hours ahead).

    Args:
        connector_id: The connector.
        driver_id: The driver (active, one active reservation at a time).
        expires_at: When the hold lapses.
    """
    _expire(ctx)
    conn = ctx.get(Connector, connector_id, field="connector_id")
    d = _active_driver(ctx, driver_id)
    if conn.status != "available":
        raise RuleViolation(
            f"connector {conn.number} is {conn.status}",
            field="connector_id",
            hint="only an available connector can be reserved",
        )
    now = ctx.now()
    if expires_at <= now or expires_at > now + MAX_RESERVE:
        raise RuleViolation(
            "expiry must be in the next two hours",
            field="expires_at",
            hint=f"pick a time before {(now + MAX_RESERVE).isoformat()}",
        )
    if ctx.first(Reservation, driver_id=d.id, status="active") is not None:
        raise Conflict(f"{d.name} already holds a reservation", field="driver_id", hint="cancel it first")
    ctx.update(conn, status="reserved", status_at=now)
    return ctx.create(Reservation, connector_id=conn.id, driver_id=d.id, expires_at=expires_at)


@service.tool(
    intent="cancel the reservation",
    write=True,
    example=first_example(Reservation, "reservation_id", where={"status": "active"}),
)
def cancel_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """OCPP CancelReservation: release an active hold; the connector becomes available.

    Args:
        reservation_id: The reservation.
    """
    r = ctx.get(Reservation, reservation_id, field="reservation_id")
    if r.status != "active":
        raise RuleViolation(f"reservation is {r.status}", field="reservation_id", hint="only active holds cancel")
    _release(ctx, r, "cancelled")
    return ctx.get(Reservation, r.id)


@service.tool(
    intent="record the station's fault",
    write=True,
    example=first_example(Connector, "connector_id", where={"status": "available"}, error_code="GroundFailure"),
)
def report_fault(ctx: Ctx, connector_id: ConnectorId, error_code: ErrorCode, info: Text = "") -> Fault:
    """Record a StatusNotification error: the connector goes faulted and a session on it stops (EmergencyStop).

    Args:
        connector_id: The connector.
        error_code: The OCPP ChargePointErrorCode.
        info: Vendor detail.
    """
    conn = ctx.get(Connector, connector_id, field="connector_id")
    if ctx.first(Fault, connector_id=conn.id, status="open") is not None or conn.status == "faulted":
        raise Conflict(
            f"connector {conn.number} is already faulted", field="connector_id", hint="acknowledge the open fault"
        )
    ctx.update(conn, status="faulted", status_at=ctx.now())
    live = ctx.first(Session, connector_id=conn.id, status="active")
    if live is not None:
        _finish(ctx, live, "EmergencyStop", 0)
    held = ctx.first(Reservation, connector_id=conn.id, status="active")
    if held is not None:
        ctx.update(held, status="cancelled")
    return ctx.create(
        Fault, station_id=conn.station_id, connector_id=conn.id, error_code=error_code, info=info, reported_at=ctx.now()
    )


def _example_ack(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(Fault, status="open")
    return None if f is None else {"fault_id": f.id, "technician": ctx.population.employees[0].email}


@service.tool(intent="acknowledge the fault", write=True, example=_example_ack)
def acknowledge_fault(ctx: Ctx, fault_id: FaultId, technician: Email) -> Fault:
    """A technician takes an open fault.

    Args:
        fault_id: The fault.
        technician: The employee who takes it.
    """
    f = ctx.get(Fault, fault_id, field="fault_id")
    if f.status != "open":
        raise RuleViolation(f"fault is {f.status}", field="fault_id", hint="only open faults are acknowledged")
    _staff(ctx, technician, "technician")
    return ctx.update(f, status="acknowledged", acknowledged_by=technician)


@service.tool(
    intent="resolve the fault",
    write=True,
    example=first_example(Fault, "fault_id", where={"status": "acknowledged"}),
)
def resolve_fault(ctx: Ctx, fault_id: FaultId) -> Fault:
    """Close an acknowledged fault: the connector returns to service (unavailable if the station is inoperative).

    Args:
        fault_id: The fault.
    """
    f = ctx.get(Fault, fault_id, field="fault_id")
    if f.status != "acknowledged":
        raise RuleViolation(f"fault is {f.status}", field="fault_id", hint="a technician acknowledges it first")
    conn = ctx.get(Connector, f.connector_id)
    operative = ctx.get(Station, f.station_id).operative
    ctx.update(conn, status="available" if operative else "unavailable", status_at=ctx.now())
    return ctx.update(f, status="resolved", resolved_at=ctx.now())


@service.tool(intent="show the station's usage", example=first_example(Station, "station_id"))
def station_usage(ctx: Ctx, station_id: StationId) -> Usage:
    """A station's completed sessions, energy and revenue, sessions charging now and open faults.

    Args:
        station_id: The station.
    """
    st = ctx.get(Station, station_id, field="station_id")
    done = ctx.where(Session, station_id=st.id, status="completed")
    return Usage(
        station_id=st.id,
        sessions=len(done),
        energy_kwh=round(sum(s.energy_kwh for s in done), 3),
        revenue=sum(s.cost for s in done),
        active_sessions=len(ctx.where(Session, station_id=st.id, status="active")),
        open_faults=sum(f.status != "resolved" for f in ctx.where(Fault, station_id=st.id)),
    )


# -- seed -------------------------------------------------------------------------------------

HARDWARE: tuple[tuple[str, str, Standard, float, int], ...] = (
    ("ChargePoint", "CPF50", "type2", 11.0, 2),
    ("ABB", "Terra 184", "ccs2", 180.0, 2),
    ("Wallbox", "Commander 2", "type2", 22.0, 1),
    ("Tritium", "RTM75", "chademo", 75.0, 2),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Stations at the company's and customers' sites, drivers from staff and consumers, sessions and faults."""
    pop = s.population
    home = pop.home
    cur = home.place.currency
    std = s.create(
        Tariff,
        name="Standard AC",
        currency=cur,
        energy_price=35,
        session_fee=50,
        idle_fee_per_minute=10,
        created_at=s.ago(days=400),
    )
    fast = s.create(
        Tariff,
        name="DC Fast",
        currency=cur,
        energy_price=59,
        session_fee=100,
        idle_fee_per_minute=40,
        idle_grace_minutes=5,
        created_at=s.ago(days=400),
    )
    s.create(Tariff, name="Workplace free", currency=cur, energy_price=0, created_at=s.ago(days=300))
    sites = [(home.name + " HQ", home.place.city)] + [(c.name, c.place.city) for c in pop.customers[:4]]
    conns: list[Connector] = []
    for k, (site, city) in enumerate(sites):
        vendor, model_name, standard, kw, n = HARDWARE[k % len(HARDWARE)]
        st = s.create(
            Station,
            name=f"{site[:40]} #{k + 1}",
            site=site,
            city=city,
            vendor=vendor,
            model_name=model_name,
            serial=f"{vendor[:3].upper()}-{240100 + k}",
            operative=k != 4,
            tariff_id=(fast if kw >= 50 else std).id,
            firmware=f"{4 + k % 2}.{k}.1",
            last_heartbeat=s.ago(minutes=3 + k),
            created_at=s.ago(days=380 - 40 * k),
        )
        for j in range(n):
            status: Any = "unavailable" if k == 4 else "available"
            conns.append(
                s.create(
                    Connector,
                    station_id=st.id,
                    number=j + 1,
                    standard=standard,
                    max_kw=kw,
                    status=status,
                    status_at=s.ago(hours=2),
                )
            )
    people = list(pop.employees[:6]) + list(pop.consumers[:8])
    drivers = [
        s.create(
            Driver,
            name=p.name,
            email=p.email,
            id_tag=f"04{0xA1B2C3 + 7919 * k:06X}{k:04X}",
            fleet=home.name if p.role == "employee" else None,
            status="blocked" if k == 13 else "active",
            created_at=s.ago(days=300 - 10 * k),
        )
        for k, p in enumerate(people)
    ]
    _seed_sessions(s, conns, drivers)


def _seed_sessions(s: SeedContext, conns: list[Connector], drivers: list[Driver]) -> None:
    live = [c for c in conns if c.status == "available"]
    tariffs = {t.id: t for t in s.records(Tariff)}
    stations = {st.id: st for st in s.records(Station)}
    meter: dict[str, int] = {}
    for n in range(24):
        c = live[n % len(live)]
        d = drivers[n % 12]
        t = tariffs[stations[c.station_id].tariff_id or ""]
        start = s.ago(days=30 - n, hours=n % 7)
        wh = int(min(c.max_kw * 0.8, 45) * 1000 * (0.5 + (n % 4) / 4))
        idle = (n * 7) % 40
        cost = (
            round(wh / 1000 * t.energy_price)
            + t.session_fee
            + max(idle - t.idle_grace_minutes, 0) * t.idle_fee_per_minute
        )
        m0 = meter.get(c.id, 1_000_000)
        meter[c.id] = m0 + wh
        s.create(
            Session,
            transaction_id=n + 1,
            connector_id=c.id,
            station_id=c.station_id,
            driver_id=d.id,
            id_tag=d.id_tag,
            status="completed",
            started_at=start,
            stopped_at=start + dt.timedelta(hours=1),
            meter_start_wh=m0,
            meter_stop_wh=m0 + wh,
            energy_kwh=wh / 1000,
            idle_minutes=idle,
            cost=cost,
            currency=t.currency,
            stop_reason=("Local", "EVDisconnected", "Remote")[n % 3],
        )
    for n, (c, d) in enumerate(((live[0], drivers[1]), (live[3], drivers[7]))):
        s.create(
            Session,
            transaction_id=25 + n,
            connector_id=c.id,
            station_id=c.station_id,
            driver_id=d.id,
            id_tag=d.id_tag,
            started_at=s.ago(hours=1 + n),
            meter_start_wh=meter.get(c.id, 1_000_000),
        )
        s.update(c, status="charging")
    s.create(
        Reservation,
        connector_id=live[1].id,
        driver_id=drivers[2].id,
        expires_at=s.ago(minutes=-40),
        created_at=s.ago(minutes=20),
    )
    s.update(live[1], status="reserved")
    s.create(
        Reservation,
        connector_id=live[2].id,
        driver_id=drivers[4].id,
        expires_at=s.ago(days=2),
        status="expired",
        created_at=s.ago(days=2, hours=1),
    )
    for k, (c, code, status) in enumerate(
        (
            (live[-1], "GroundFailure", "open"),
            (live[-2], "ReaderFailure", "acknowledged"),
            (live[4], "HighTemperature", "resolved"),
        )
    ):
        s.create(
            Fault,
            station_id=c.station_id,
            connector_id=c.id,
            error_code=code,
            status=status,
            info="Vendor code 0x" + format(0x3A0 + k, "X"),
            reported_at=s.ago(days=k * 3, hours=2),
            acknowledged_by=s.population.employees[0].email if status != "open" else None,
            resolved_at=s.ago(days=k * 3) if status == "resolved" else None,
        )
        if status != "resolved":
            s.update(c, status="faulted")
