"""Roomlink: a hotel group's channel manager distributing rooms, rates and availability to the booking sites.

Modeled on the SiteMinder Channel Manager / SiteConnect (pmsXchange) API:
properties with their room types; channel connections per property
(booking_com, expedia, airbnb, agoda, hotelbeds, google) that go pending →
active ↔ paused → disconnected; room types mapped to a channel's room codes
(a connection is activated only once it has a mapping); rate and availability
pushes (``OTA_HotelRateAmountNotif`` / ``OTA_HotelAvailNotif``) that are
delivered to every active mapped channel, or fail with a sync error on a
paused one and are retried later; restrictions (stop-sell, closed to arrival,
minimum stay); and reservations received per channel (``OTA_HotelResNotif``)
that go new → acknowledged, or cancelled. A booking is only accepted from an
active connection whose room type is mapped, for nights not stop-sold, not
arriving on a closed-to-arrival day, meeting the minimum stay and leaving a
room free every night; channel references are unique per channel.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Currency, Date, Email, IdOf, PersonName, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "channelmanager",
    title="Roomlink",
    category="channel_manager",
    modeled_on="SiteMinder Channel Manager / SiteConnect (pmsXchange) API: properties, room types, channel "
    "connections and room mappings, rate and availability pushes, restrictions, channel reservations",
    description="The hotel group's channel manager: which booking sites each property sells on, how its room "
    "types map to their rooms, the rates, availability and restrictions pushed to them, the sync errors, "
    "and the reservations received from each channel.",
)

PropertyId = Annotated[str, IdOf("channelmanager.property")]
RoomTypeId = Annotated[str, IdOf("channelmanager.room_type")]
ConnectionId = Annotated[str, IdOf("channelmanager.connection")]
MappingId = Annotated[str, IdOf("channelmanager.mapping")]
RestrictionId = Annotated[str, IdOf("channelmanager.restriction")]
PushId = Annotated[str, IdOf("channelmanager.push")]
SyncErrorId = Annotated[str, IdOf("channelmanager.sync_error")]
BookingId = Annotated[str, IdOf("channelmanager.booking")]

Code = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{2,12}$")]
"""An upper-case code such as DBL or KSTE."""
Units = Annotated[int, Field(ge=0, le=500)]
"""A number of rooms."""

Channel = Literal["booking_com", "expedia", "airbnb", "agoda", "hotelbeds", "google"]
ConnectionStatus = Literal["pending", "active", "paused", "disconnected"]
RestrictionKind = Literal["stop_sell", "closed_to_arrival", "min_stay"]
PushKind = Literal["rates", "availability"]
PushStatus = Literal["delivered", "failed"]
ErrorStatus = Literal["open", "resolved"]
BookingStatus = Literal["new", "acknowledged", "cancelled"]

MAX_RANGE = 365
MAX_NIGHTS = 30


class Property(Timestamped):
    """A hotel of the group, connected to the channel manager."""

    id: PropertyId
    code: Code
    """The property's code (unique)."""
    name: Title
    """Its name."""
    city: City
    """Its city."""
    currency: Currency
    """The currency its rates are in."""
    revenue_manager_email: Email | None = None
    """The employee managing its distribution."""


class RoomType(Timestamped):
    """A room type of a property, with how many rooms of it there are."""

    id: RoomTypeId
    property_id: PropertyId
    """The property."""
    code: Code
    """Its code (unique within the property)."""
    name: Title
    """Its name."""
    max_occupancy: Annotated[int, Field(ge=1, le=12)]
    """How many guests it sleeps."""
    inventory: Units
    """How many rooms of this type the property has."""
    base_rate: Cents
    """The default nightly rate, in cents."""


class Connection(Timestamped):
    """A property's connection to a booking channel."""

    id: ConnectionId
    property_id: PropertyId
    """The property."""
    channel: Channel
    """booking_com, expedia, airbnb, agoda, hotelbeds or google."""
    hotel_id_on_channel: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9-]{3,20}$")]
    """The property's id at the channel."""
    commission_pct: Annotated[float, Field(ge=0, le=40)] = 15.0
    """The channel's commission, percent."""
    status: ConnectionStatus = "pending"
    """pending (being set up), active, paused or disconnected."""


class Mapping(Timestamped):
    """A room type mapped to a channel's room code on a connection."""

    id: MappingId
    connection_id: ConnectionId
    """The connection."""
    room_type_id: RoomTypeId
    """The room type."""
    channel_room_code: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{2,20}$")]
    """The room's code at the channel."""
    rate_markup_pct: Annotated[float, Field(ge=-50, le=100)] = 0.0
    """How much the channel's rate differs from pushed rates, percent."""


class Restriction(Timestamped):
    """A stop-sell, closed-to-arrival or minimum-stay rule on a room type for some nights."""

    id: RestrictionId
    room_type_id: RoomTypeId
    """The room type."""
    kind: RestrictionKind
    """stop_sell, closed_to_arrival or min_stay."""
    start_date: Date
    """The first night it covers."""
    end_date: Date
    """The last night it covers."""
    min_nights: Annotated[int, Field(ge=1, le=MAX_NIGHTS)] | None = None
    """The minimum stay (min_stay only)."""


class Push(Timestamped):
    """A rate or availability update sent to one channel connection."""

    id: PushId
    connection_id: ConnectionId
    """The connection it went to."""
    room_type_id: RoomTypeId
    """The room type."""
    kind: PushKind
    """rates or availability."""
    start_date: Date
    """The first night."""
    end_date: Date
    """The last night."""
    value: int
    """The nightly rate in cents (rates) or the rooms open (availability)."""
    status: PushStatus
    """delivered, or failed (see its sync errors)."""
    attempts: int = 1
    """How many times it was sent."""


class SyncError(Timestamped):
    """A channel's refusal of a push."""

    id: SyncErrorId
    push_id: PushId
    """The failed push."""
    connection_id: ConnectionId
    """The connection."""
    code: Literal["CONNECTION_PAUSED", "RATE_BELOW_MINIMUM", "INVALID_ROOM"]
    """The channel's error code."""
    message: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The channel's message."""
    status: ErrorStatus = "open"
    """open or resolved."""


class Booking(Timestamped):
    """A reservation received from a channel."""

    id: BookingId
    connection_id: ConnectionId
    """The connection it came through."""
    channel: Channel
    """The channel."""
    channel_ref: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{4,24}$")]
    """The channel's reservation number (unique per channel)."""
    property_id: PropertyId
    """The property."""
    room_type_id: RoomTypeId
    """The room type."""
    guest_name: PersonName
    """The guest's name."""
    guest_email: Email
    """The guest's e-mail."""
    arrival: Date
    """The arrival day."""
    departure: Date
    """The departure day."""
    guests: Annotated[int, Field(ge=1, le=12)]
    """How many guests."""
    total: Cents
    """The stay's total, in cents."""
    commission: Cents
    """The channel's commission on it, in cents."""
    status: BookingStatus = "new"
    """new (not yet acknowledged by the hotel), acknowledged or cancelled."""


class Availability(Value):
    """A room type's position on one night."""

    room_type_id: RoomTypeId
    """The room type."""
    night: Date
    """The night."""
    inventory: int
    """Rooms of the type."""
    booked: int
    """Rooms held by live bookings."""
    available: int
    """Rooms left."""
    stop_sell: bool
    """Whether sales are stopped."""
    closed_to_arrival: bool
    """Whether arrivals are closed."""
    min_nights: int
    """The minimum stay arriving that night (1 when none)."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_property(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.revenue_manager_email, "revenue_manager_email")


def _guard_room_type(ctx: Ctx, new: Any, old: Any) -> None:
    if new.inventory < old.inventory:
        busiest = max((_booked(ctx, new.id, n) for n in _future_nights(ctx, new.id)), default=0)
        if new.inventory < busiest:
            raise RuleViolation(
                f"{busiest} rooms are booked on one night; inventory cannot drop below that",
                field="inventory",
                hint=f"keep at least {busiest} rooms",
            )


def _guard_restriction(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(RoomType, new.room_type_id, field="room_type_id")
    _range(ctx, new.start_date, new.end_date)
    if (new.kind == "min_stay") != (new.min_nights is not None):
        raise RuleViolation(
            "min_nights is set for a min_stay restriction and only for one",
            field="min_nights",
            hint="give min_nights with kind min_stay, omit it otherwise",
        )


def _range(ctx: Ctx, start: dt.date, end: dt.date) -> None:
    if start < ctx.today():
        raise RuleViolation("start_date is in the past", field="start_date", hint=f"start on {ctx.today()} or later")
    if end < start or (end - start).days >= MAX_RANGE:
        raise RuleViolation(
            f"end_date must be from start_date to {MAX_RANGE} nights later",
            field="end_date",
            hint="shorten the range",
        )


def _nights(start: dt.date, end: dt.date) -> list[dt.date]:
    return [start + dt.timedelta(days=k) for k in range((end - start).days)]


def _booked(ctx: Ctx, room_type_id: str, night: dt.date) -> int:
    return sum(
        b.arrival <= night < b.departure
        for b in ctx.where(Booking, room_type_id=room_type_id)
        if b.status != "cancelled"
    )


def _future_nights(ctx: Ctx, room_type_id: str) -> set[dt.date]:
    out: set[dt.date] = set()
    for b in ctx.where(Booking, room_type_id=room_type_id):
        if b.status != "cancelled":
            out.update(n for n in _nights(b.arrival, b.departure) if n >= ctx.today())
    return out


def _covering(ctx: Ctx, room_type_id: str, night: dt.date, kind: str) -> list[Restriction]:
    return [
        r for r in ctx.where(Restriction, room_type_id=room_type_id, kind=kind) if r.start_date <= night <= r.end_date
    ]


properties = service.resource(
    Property,
    name="property",
    plural="properties",
    prefix="prop",
    create=False,
    filters=("city", "code", "revenue_manager_email"),
    search=("name",),
    update=("name", "revenue_manager_email"),
    delete=False,
    guard_update=_guard_property,
)
room_types = service.resource(
    RoomType,
    name="room_type",
    plural="room_types",
    prefix="rt",
    create=False,
    filters=("property_id", "code"),
    search=("name",),
    update=("name", "max_occupancy", "inventory", "base_rate"),
    delete=False,
    guard_update=_guard_room_type,
    title="room type",
)
connections = service.resource(
    Connection,
    name="connection",
    plural="connections",
    prefix="conn",
    create=False,
    filters=("property_id", "channel", "status"),
    update=("commission_pct",),
    delete=False,
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the channel connection"),
        "resume": Transition("status", ("paused",), "active", "resume the channel connection"),
        "disconnect": Transition(
            "status",
            ("pending", "active", "paused"),
            "disconnected",
            "disconnect the channel",
            description="Disconnect the property from the channel for good: nothing is pushed or received again.",
            destructive=True,
        ),
    },
    title="channel connection",
)
mappings = service.resource(
    Mapping,
    name="mapping",
    plural="mappings",
    prefix="map",
    create=False,
    get=False,
    filters=("connection_id", "room_type_id"),
    update=("rate_markup_pct",),
    delete=True,
    title="room mapping",
)
restrictions = service.resource(
    Restriction,
    name="restriction",
    plural="restrictions",
    prefix="rst",
    create=("room_type_id", "kind", "start_date", "end_date", "min_nights"),
    get=False,
    filters=("room_type_id", "kind"),
    delete=True,
    guard_create=_guard_restriction,
)
pushes = service.resource(
    Push,
    name="push",
    plural="pushes",
    prefix="push",
    create=False,
    filters=("connection_id", "room_type_id", "kind", "status"),
    delete=False,
    title="rate or availability push",
)
sync_errors = service.resource(
    SyncError,
    name="sync_error",
    plural="sync_errors",
    prefix="err",
    create=False,
    get=False,
    filters=("connection_id", "push_id", "code", "status"),
    delete=False,
    title="sync error",
)
bookings = service.resource(
    Booking,
    name="booking",
    plural="bookings",
    prefix="bk",
    create=False,
    filters=("connection_id", "channel", "property_id", "room_type_id", "status", "guest_email", "channel_ref"),
    search=("guest_name",),
    delete=False,
    transitions={
        "acknowledge": Transition("status", ("new",), "acknowledged", "acknowledge the channel booking"),
        "cancel": Transition(
            "status",
            ("new", "acknowledged"),
            "cancelled",
            "cancel the channel booking",
            description="Cancel a booking received from a channel; its rooms are free again.",
            destructive=True,
        ),
    },
    title="channel booking",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_connect(ctx: Ctx) -> dict[str, Any] | None:
    prop = ctx.first(Property)
    if prop is None:
        return None
    for channel in ("hotelbeds", "google"):
        if not [c for c in ctx.where(Connection, property_id=prop.id, channel=channel) if c.status != "disconnected"]:
            return {"property_id": prop.id, "channel": channel, "hotel_id_on_channel": "HB-55120"}
    return None


@service.tool(intent="connect the property to the channel", write=True, example=_example_connect)
def connect_channel(
    ctx: Ctx,
    property_id: PropertyId,
    channel: Channel,
    hotel_id_on_channel: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9-]{3,20}$")],
    commission_pct: Annotated[float, Field(ge=0, le=40)] = 15.0,
) -> Connection:
    """Start a pending connection of a property to a channel; one live connection per channel.

    Args:
        property_id: The property.
        channel: booking_com, expedia, airbnb, agoda, hotelbeds or google.
        hotel_id_on_channel: The property's id at the channel.
        commission_pct: The channel's commission, percent.
    """
    prop = ctx.get(Property, property_id, field="property_id")
    for c in ctx.where(Connection, property_id=prop.id, channel=channel):
        if c.status != "disconnected":
            raise Conflict(
                f"the property is already connected to {channel} ({c.id})",
                field="channel",
                hint="resume or update the existing connection",
            )
    return ctx.create(
        Connection,
        property_id=prop.id,
        channel=channel,
        hotel_id_on_channel=hotel_id_on_channel,
        commission_pct=commission_pct,
    )


def _example_map(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Connection, status="pending"):
        for rt in ctx.where(RoomType, property_id=c.property_id):
            if ctx.first(Mapping, connection_id=c.id, room_type_id=rt.id) is None:
                return {"connection_id": c.id, "room_type_id": rt.id, "channel_room_code": f"{rt.code}-X1"}
    return None


@service.tool(intent="map the room type to the channel", write=True, example=_example_map)
def map_room_type(
    ctx: Ctx,
    connection_id: ConnectionId,
    room_type_id: RoomTypeId,
    channel_room_code: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{2,20}$")],
    rate_markup_pct: Annotated[float, Field(ge=-50, le=100)] = 0.0,
) -> Mapping:
    """Map a property's room type to a room code at the channel of a connection.

    Args:
        connection_id: The connection (not disconnected).
        room_type_id: A room type of the connection's property.
        channel_room_code: The room's code at the channel (unique on the connection).
        rate_markup_pct: How much the channel's rate differs from pushed rates, percent.
    """
    conn = ctx.get(Connection, connection_id, field="connection_id")
    if conn.status == "disconnected":
        raise Conflict("the connection is disconnected", field="connection_id", hint="connect the channel again")
    rt = ctx.get(RoomType, room_type_id, field="room_type_id")
    if rt.property_id != conn.property_id:
        raise RuleViolation(
            "the room type belongs to another property", field="room_type_id", hint="map a room type of this property"
        )
    if ctx.first(Mapping, connection_id=conn.id, room_type_id=rt.id) is not None:
        raise Conflict("the room type is already mapped on this connection", field="room_type_id", hint="update it")
    if ctx.first(Mapping, connection_id=conn.id, channel_room_code=channel_room_code) is not None:
        raise Conflict(
            f"channel room {channel_room_code} is already mapped", field="channel_room_code", hint="use another code"
        )
    return ctx.create(
        Mapping,
        connection_id=conn.id,
        room_type_id=rt.id,
        channel_room_code=channel_room_code,
        rate_markup_pct=rate_markup_pct,
    )


@service.tool(
    intent="activate the channel connection",
    write=True,
    example=first_example(Connection, "connection_id", where={"status": "pending"}),
)
def activate_connection(ctx: Ctx, connection_id: ConnectionId) -> Connection:
    """Go live on a pending connection; it needs at least one mapped room type.

    Args:
        connection_id: The pending connection.
    """
    conn = ctx.get(Connection, connection_id, field="connection_id")
    if conn.status != "pending":
        raise Conflict(f"the connection is {conn.status}", field="connection_id", hint="only pending ones activate")
    if ctx.first(Mapping, connection_id=conn.id) is None:
        raise RuleViolation(
            "no room type is mapped on the connection",
            field="connection_id",
            hint="map a room type with channelmanager__map_room_type first",
        )
    return ctx.update(conn, status="active")


def _send(ctx: Ctx, rt: RoomType, kind: PushKind, start: dt.date, end: dt.date, value: int) -> list[Push]:
    _range(ctx, start, end)
    out: list[Push] = []
    for m in ctx.where(Mapping, room_type_id=rt.id):
        conn = ctx.get(Connection, m.connection_id)
        if conn.status not in ("active", "paused"):
            continue
        status: PushStatus = "delivered" if conn.status == "active" else "failed"
        push = ctx.create(
            Push,
            connection_id=conn.id,
            room_type_id=rt.id,
            kind=kind,
            start_date=start,
            end_date=end,
            value=value,
            status=status,
        )
        if status == "failed":
            ctx.create(
                SyncError,
                push_id=push.id,
                connection_id=conn.id,
                code="CONNECTION_PAUSED",
                message=f"{conn.channel} connection is paused; update not applied",
            )
        out.append(push)
    if not out:
        raise RuleViolation(
            "the room type is not mapped on any live connection",
            field="room_type_id",
            hint="map it with channelmanager__map_room_type and activate the connection",
        )
    return out


def _example_push(ctx: Ctx) -> dict[str, Any] | None:
    m, start = ctx.first(Mapping), (ctx.today() + dt.timedelta(days=7)).isoformat()
    return None if m is None else {"room_type_id": m.room_type_id, "start_date": start, "end_date": start}


@service.tool(intent="push the room rates to the channels", write=True, example=_example_push)
def push_rates(
    ctx: Ctx, room_type_id: RoomTypeId, start_date: Date, end_date: Date, rate: Cents | None = None
) -> list[Push]:
    """Send a nightly rate for some nights of a room type to every active or paused channel it is mapped on.

    Paused channels do not take it: their push fails with a sync error, to retry once resumed.

    Args:
        room_type_id: The room type.
        start_date: The first night (today or later).
        end_date: The last night (within a year of the first).
        rate: The nightly rate in cents; omit for the room type's base rate.
    """
    rt = ctx.get(RoomType, room_type_id, field="room_type_id")
    value = rt.base_rate if rate is None else rate
    if value <= 0:
        raise RuleViolation("a rate must be above zero", field="rate", hint="close sales with a stop_sell instead")
    return _send(ctx, rt, "rates", start_date, end_date, value)


@service.tool(intent="push the room availability to the channels", write=True, example=_example_push)
def push_availability(
    ctx: Ctx, room_type_id: RoomTypeId, start_date: Date, end_date: Date, rooms: Units | None = None
) -> list[Push]:
    """Send how many rooms of a type are open to sell for some nights to every channel it is mapped on.

    Args:
        room_type_id: The room type.
        start_date: The first night (today or later).
        end_date: The last night (within a year of the first).
        rooms: Rooms open to sell, at most the room type's inventory; omit for all it has.
    """
    rt = ctx.get(RoomType, room_type_id, field="room_type_id")
    value = rt.inventory if rooms is None else rooms
    if value > rt.inventory:
        raise RuleViolation(
            f"the room type has only {rt.inventory} rooms", field="rooms", hint=f"open at most {rt.inventory}"
        )
    return _send(ctx, rt, "availability", start_date, end_date, value)


@service.tool(
    intent="retry the failed push",
    write=True,
    example=first_example(
        Push,
        "push_id",
        where={"status": "failed"},
        match=lambda ctx, p: ctx.get(Connection, p.connection_id).status == "active",
    ),
)
def retry_push(ctx: Ctx, push_id: PushId) -> Push:
    """Send a failed push again; its connection must be active now, and its sync errors are resolved.

    Args:
        push_id: The failed push.
    """
    push = ctx.get(Push, push_id, field="push_id")
    if push.status != "failed":
        raise Conflict("the push was delivered", field="push_id", hint="only failed pushes are retried")
    conn = ctx.get(Connection, push.connection_id)
    if conn.status != "active":
        raise Conflict(
            f"the {conn.channel} connection is {conn.status}",
            field="push_id",
            hint="resume the connection with channelmanager__resume_connection first",
        )
    for e in ctx.where(SyncError, push_id=push.id, status="open"):
        ctx.update(e, status="resolved")
    return ctx.update(push, status="delivered", attempts=push.attempts + 1)


def _example_receive(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.population.consumers[-1]
    start = ctx.today() + dt.timedelta(days=200)
    for m in ctx.scan(Mapping):
        conn = ctx.get(Connection, m.connection_id)
        if conn.status == "active":
            return {
                "connection_id": conn.id,
                "room_type_id": m.room_type_id,
                "channel_ref": "EX-90001",
                "guest_name": f"{p.first_name} {p.last_name}",
                "guest_email": p.email,
                "arrival": start.isoformat(),
                "departure": (start + dt.timedelta(days=2)).isoformat(),
                "guests": 1,
            }
    return None


@service.tool(intent="receive the channel booking", write=True, example=_example_receive)
def receive_booking(
    ctx: Ctx,
    connection_id: ConnectionId,
    room_type_id: RoomTypeId,
    channel_ref: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{4,24}$")],
    guest_name: PersonName,
    guest_email: Email,
    arrival: Date,
    departure: Date,
    guests: Annotated[int, Field(ge=1, le=12)] = 1,
) -> Booking:
    """Take in a reservation a channel sent: priced at the room type's rate plus the mapping's markup.

    Args:
        connection_id: The active connection it came through.
        room_type_id: The mapped room type booked.
        channel_ref: The channel's reservation number (unique per channel).
        guest_name: The guest's name.
        guest_email: The guest's e-mail.
        arrival: The arrival day (today or later).
        departure: The departure day (1 to 30 nights after arrival).
        guests: How many guests (at most the room type's occupancy).
    """
    conn = ctx.get(Connection, connection_id, field="connection_id")
    if conn.status != "active":
        raise Conflict(f"the connection is {conn.status}", field="connection_id", hint="bookings need an active one")
    rt = ctx.get(RoomType, room_type_id, field="room_type_id")
    m = ctx.first(Mapping, connection_id=conn.id, room_type_id=rt.id)
    if m is None:
        raise RuleViolation("the room type is not mapped on the channel", field="room_type_id", hint="map it first")
    if ctx.first(Booking, channel=conn.channel, channel_ref=channel_ref) is not None:
        raise Conflict(f"{conn.channel} booking {channel_ref} was already received", field="channel_ref", hint="skip")
    if arrival < ctx.today():
        raise RuleViolation("arrival is in the past", field="arrival", hint=f"arrive on {ctx.today()} or later")
    if not 1 <= (departure - arrival).days <= MAX_NIGHTS:
        raise RuleViolation(f"a stay is 1 to {MAX_NIGHTS} nights", field="departure", hint="fix the departure day")
    if guests > rt.max_occupancy:
        raise RuleViolation(f"the room sleeps {rt.max_occupancy}", field="guests", hint="book another room type")
    if _covering(ctx, rt.id, arrival, "closed_to_arrival"):
        raise RuleViolation(f"arrivals are closed on {arrival}", field="arrival", hint="arrive on another day")
    need = max((r.min_nights or 1 for r in _covering(ctx, rt.id, arrival, "min_stay")), default=1)
    if (departure - arrival).days < need:
        raise RuleViolation(f"the minimum stay is {need} nights", field="departure", hint=f"stay {need} nights")
    for night in _nights(arrival, departure):
        if _covering(ctx, rt.id, night, "stop_sell"):
            raise RuleViolation(f"sales are stopped on {night}", field="arrival", hint="pick other nights")
        if _booked(ctx, rt.id, night) >= rt.inventory:
            raise Conflict(f"no {rt.name} room is free on {night}", field="arrival", hint="pick other nights")
    nightly = round(rt.base_rate * (1 + m.rate_markup_pct / 100))
    total = nightly * (departure - arrival).days
    return ctx.create(
        Booking,
        connection_id=conn.id,
        channel=conn.channel,
        channel_ref=channel_ref,
        property_id=rt.property_id,
        room_type_id=rt.id,
        guest_name=guest_name,
        guest_email=guest_email,
        arrival=arrival,
        departure=departure,
        guests=guests,
        total=total,
        commission=round(total * conn.commission_pct / 100),
    )


def _example_night(ctx: Ctx) -> dict[str, Any] | None:
    rt = ctx.first(RoomType)
    return None if rt is None else {"room_type_id": rt.id, "night": ctx.today().isoformat()}


@service.tool(intent="show the room type's availability", example=_example_night)
def night_availability(ctx: Ctx, room_type_id: RoomTypeId, night: Date) -> Availability:
    """A room type's rooms, bookings and restrictions on one night.

    Args:
        room_type_id: The room type.
        night: The night.
    """
    rt = ctx.get(RoomType, room_type_id, field="room_type_id")
    booked = _booked(ctx, rt.id, night)
    return Availability(
        room_type_id=rt.id,
        night=night,
        inventory=rt.inventory,
        booked=booked,
        available=max(rt.inventory - booked, 0),
        stop_sell=bool(_covering(ctx, rt.id, night, "stop_sell")),
        closed_to_arrival=bool(_covering(ctx, rt.id, night, "closed_to_arrival")),
        min_nights=max((r.min_nights or 1 for r in _covering(ctx, rt.id, night, "min_stay")), default=1),
    )


# -- seed -------------------------------------------------------------------------------------

_TYPES: tuple[tuple[str, str, int, int, int], ...] = (
    ("STD", "Standard Double", 2, 6, 12900),
    ("TWN", "Superior Twin", 2, 4, 14900),
    ("STE", "Junior Suite", 3, 2, 26900),
)
_CHANNELS: tuple[tuple[Channel, float, ConnectionStatus], ...] = (
    ("booking_com", 15.0, "active"),
    ("expedia", 18.0, "active"),
    ("airbnb", 14.0, "paused"),
    ("agoda", 17.0, "pending"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Three properties in the population's cities, mapped channels in every state, pushes, errors and bookings."""
    pop = s.population
    home = pop.home
    managers = pop.staff("Sales", "Operations", fallback=3)
    cities = [home.place, *[p for p in pop.places if p.city != home.place.city]][:3]
    guests = pop.consumers
    today = s.now.date()
    g = 0
    for k, place in enumerate(cities):
        prop = s.create(
            Property,
            code="H" + "".join(ch for ch in place.city.upper() if "A" <= ch <= "Z")[:4] + str(k + 1),
            name=f"{home.name} {place.city}",
            city=place.city,
            currency=place.currency,
            revenue_manager_email=managers[k % len(managers)].email,
            created_at=s.ago(days=400 - 30 * k),
        )
        types = [
            s.create(
                RoomType,
                property_id=prop.id,
                code=code,
                name=name,
                max_occupancy=occ,
                inventory=inv + k,
                base_rate=rate + 1000 * k,
            )
            for code, name, occ, inv, rate in _TYPES
        ]
        for c, (channel, pct, status) in enumerate(_CHANNELS):
            conn = s.create(
                Connection,
                property_id=prop.id,
                channel=channel,
                hotel_id_on_channel=f"{channel[:3].upper()}-{4100 + 37 * k + c}",
                commission_pct=pct,
                status=status,
            )
            for t, rt in enumerate(types):
                if status == "pending" and t > 0:
                    break
                s.create(
                    Mapping,
                    connection_id=conn.id,
                    room_type_id=rt.id,
                    channel_room_code=f"{rt.code}-{c}{t}",
                    rate_markup_pct=5.0 if channel == "expedia" else 0.0,
                )
                if status == "pending":
                    break
                low = channel == "booking_com" and t == 2
                st: PushStatus = "failed" if (status == "paused" and t == 0) or low else "delivered"
                push = s.create(
                    Push,
                    connection_id=conn.id,
                    room_type_id=rt.id,
                    kind="rates",
                    start_date=today,
                    end_date=today + dt.timedelta(days=90),
                    value=rt.base_rate // 10 if low else rt.base_rate,
                    status=st,
                )
                if st == "failed":
                    s.create(
                        SyncError,
                        push_id=push.id,
                        connection_id=conn.id,
                        code="RATE_BELOW_MINIMUM" if low else "CONNECTION_PAUSED",
                        message="rate is below the channel's minimum" if low else f"{channel} connection is paused",
                    )
            if status != "active":
                continue
            for b in range(3):
                rt = types[(b + c) % len(types)]
                p = guests[g % len(guests)]
                g += 1
                arrival = today + dt.timedelta(days=3 + 5 * b + c)
                nights = 1 + (b + k) % 3
                total = round(rt.base_rate * (1.05 if channel == "expedia" else 1.0)) * nights
                s.create(
                    Booking,
                    connection_id=conn.id,
                    channel=channel,
                    channel_ref=f"{channel[:2].upper()}-{70000 + 101 * g}",
                    property_id=prop.id,
                    room_type_id=rt.id,
                    guest_name=f"{p.first_name} {p.last_name}",
                    guest_email=p.email,
                    arrival=arrival,
                    departure=arrival + dt.timedelta(days=nights),
                    guests=1 + b % 2,
                    total=total,
                    commission=round(total * pct / 100),
                    status=("new", "acknowledged", "cancelled")[b],
                )
        for t, kind, start, last, least in (
            (2, "stop_sell", 40, 42, None),
            (0, "min_stay", 60, 63, 3),
            (1, "closed_to_arrival", 50, 50, None),
        ):
            s.create(
                Restriction,
                room_type_id=types[t].id,
                kind=kind,
                start_date=today + dt.timedelta(days=start),
                end_date=today + dt.timedelta(days=last),
                min_nights=least,
            )
