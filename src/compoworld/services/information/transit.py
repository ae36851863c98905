"""Transitline: public transit stops, routes, scheduled and real-time departures, service alerts, trip plans.

Modeled on the Transitland REST API v2 (``/operators``, ``/stops`` with
``lat``/``lon``/``radius``, ``/routes`` with ``route_type`` 1 subway, 3 bus,
0 tram, ``/stops/{onestop_id}/departures`` with ``scheduled`` and
``estimated`` times from GTFS-realtime TripUpdates) and the GTFS-realtime
Alerts feed (``cause`` CONSTRUCTION / MAINTENANCE / TECHNICAL_PROBLEM /
STRIKE, ``effect`` DETOUR / REDUCED_SERVICE / SIGNIFICANT_DELAYS / STOP_MOVED,
``active_period``, ``informed_entity``), with trip planning as transit apps do
it on top of GTFS (direct or with one transfer).

An open-world service: each city of the world has one operator whose network
is a deterministic draw from the world seed: three subway lines crossing at
the central station and three bus routes feeding them, a timetable from 05:00
to 24:00 local time with rush-hour headways, per-trip delays, and a few
service alerts around today. All times are in UTC, with the local clock time
alongside. Stored state is employees' saved commutes (as in the Transit app's
favourite trips): two stops of one city at a usual time on some weekdays; a
paused commute is not checked.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Place
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Latitude, Longitude, SemanticType, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold
from compoworld.world.geo import haversine_m

__all__ = ["service"]

service = Service(
    "transit",
    title="Transitline",
    category="public_transit",
    modeled_on="Transitland REST API v2 (operators, stops, routes, stop departures with GTFS-realtime estimates) "
    "and GTFS-realtime service alerts, with trip planning and saved commutes",
    description="Public transit: find operators, stops near a place or by name, routes and their stops, scheduled "
    "and real-time departures, service alerts, and plan trips between two stops; employees save commutes to check.",
)

StopId = Annotated[
    str, SemanticType("transit.stop", kind="ref"), StringConstraints(pattern=r"^s-[a-z]{2,12}-[a-z0-9-]{2,40}$")
]
RouteId = Annotated[
    str, SemanticType("transit.route", kind="ref"), StringConstraints(pattern=r"^r-[a-z]{2,12}-[a-z0-9]{1,6}$")
]
OperatorId = Annotated[str, SemanticType("transit.operator", kind="ref"), StringConstraints(pattern=r"^o-[a-z]{2,12}$")]
AlertId = Annotated[
    str, SemanticType("transit.alert", kind="ref"), StringConstraints(pattern=r"^alert-[a-z]{2,12}-[0-9]{1,3}$")
]
CommuteId = Annotated[str, IdOf("transit.commute")]
ClockTime = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
Search = Annotated[str, StringConstraints(min_length=2, max_length=80)]

RouteType = Literal["subway", "bus"]
Effect = Literal["DETOUR", "REDUCED_SERVICE", "SIGNIFICANT_DELAYS", "STOP_MOVED"]
Cause = Literal["CONSTRUCTION", "MAINTENANCE", "TECHNICAL_PROBLEM", "STRIKE"]
_DAYS: tuple[Weekday, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
SERVICE_START, SERVICE_END = 5 * 60, 24 * 60
MAX_COMMUTES = 5


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split(";"))


_STOP_NAMES = _words(
    "Old Town;University;City Hall;Riverside;Market Square;Museum Quarter;Harbour;Stadium;Exhibition Centre;Hospital;North Park;South Gate;Tech Park;Library;Opera;Airport;Business District;Botanical Garden;West End;East Station;Cathedral;Zoo;Trade Fair;Lakeside"
)
_COLORS = ("E3001B", "0065AE", "00963F", "F7A800", "8E4585", "6D6E71")


@dataclass(frozen=True, slots=True)
class _Stop:
    id: str
    name: str
    lat: float
    lon: float


@dataclass(frozen=True, slots=True)
class _Route:
    id: str
    short_name: str
    long_name: str
    type: str
    color: str
    stops: tuple[str, ...]
    run_min: int
    peak_headway: int
    base_headway: int


@dataclass(frozen=True, slots=True)
class _Net:
    place: Place
    slug: str
    operator_id: str
    operator_name: str
    stops: dict[str, _Stop]
    routes: dict[str, _Route]


def _slug(text: str) -> str:
    return "-".join(fold(text).split())


@lru_cache(maxsize=64)
def _network(seed: int, place: Place) -> _Net:
    r = random.Random(f"transit:{seed}:{place.city}")
    slug = fold(place.city).replace(" ", "")[:12]
    names = ["Central Station", *r.sample(_STOP_NAMES, 20)]
    stops: dict[str, _Stop] = {}
    for k, name in enumerate(names):
        angle, dist = r.uniform(0, 2 * math.pi), 0.0 if k == 0 else r.uniform(0.8, 7.0)
        lat = place.latitude + dist / 111.0 * math.sin(angle)
        lon = place.longitude + dist / (111.0 * math.cos(math.radians(place.latitude))) * math.cos(angle)
        sid = f"s-{slug}-{_slug(name)}"
        stops[sid] = _Stop(sid, name, round(lat, 6), round(lon, 6))
    ids = list(stops)
    hub, rest = ids[0], ids[1:]
    routes: dict[str, _Route] = {}
    for k in range(3):  # subway lines through the central station
        line = rest[k * 5 : k * 5 + 5]
        seq = (*line[:2], hub, *line[2:])
        rid = f"r-{slug}-m{k + 1}"
        routes[rid] = _Route(
            rid, f"M{k + 1}", f"{stops[seq[0]].name} - {stops[seq[-1]].name}", "subway", _COLORS[k], seq, 2, 4, 8
        )
    subway_stops = [s for rt in routes.values() for s in rt.stops if s != hub]
    for k in range(3):  # buses linking outer stops to a subway stop
        own = rest[15 + 2 * k : 17 + 2 * k] or rest[-2:]
        seq = (
            own[0],
            subway_stops[(4 * k + 1) % len(subway_stops)],
            *own[1:],
            subway_stops[(4 * k + 8) % len(subway_stops)],
        )
        rid = f"r-{slug}-{100 + 10 * k + r.randrange(10)}"
        routes[rid] = _Route(
            rid,
            rid.rsplit("-", 1)[1],
            f"{stops[seq[0]].name} - {stops[seq[-1]].name}",
            "bus",
            _COLORS[3 + k],
            tuple(dict.fromkeys(seq)),
            4,
            10,
            20,
        )
    return _Net(place, slug, f"o-{slug}", f"{place.city} Transit Authority", stops, routes)


def _networks(ctx: Ctx) -> dict[str, _Net]:
    seed = ctx.population.seed
    return {n.slug: n for n in (_network(seed, p) for p in ctx.population.places)}


def _net_of(ctx: Ctx, some_id: str, field: str) -> _Net:
    parts = some_id.split("-")
    net = _networks(ctx).get(parts[1]) if len(parts) > 1 else None
    if net is None:
        raise NotFound(f"{some_id} is no known operator's", field=field, hint="find ids with transit__search_stops")
    return net


def _stop(ctx: Ctx, stop_id: str, field: str = "stop_id") -> tuple[_Net, _Stop]:
    net = _net_of(ctx, stop_id, field)
    s = net.stops.get(stop_id)
    if s is None:
        raise NotFound(f"no stop {stop_id}", field=field, hint="find stops with transit__search_stops")
    return net, s


def _route(ctx: Ctx, route_id: str) -> tuple[_Net, _Route]:
    net = _net_of(ctx, route_id, "route_id")
    rt = net.routes.get(route_id)
    if rt is None:
        raise NotFound(f"no route {route_id}", field="route_id", hint="list routes with transit__list_routes")
    return net, rt


def _alerts(seed: int, net: _Net, today: dt.date) -> list[ServiceAlert]:
    r = random.Random(f"transit:{seed}:{net.slug}:alerts:{today.isocalendar()[1]}")
    out = []
    causes: tuple[tuple[Cause, Effect, str], ...] = (
        ("CONSTRUCTION", "DETOUR", "Track works: buses replace trains between two stops"),
        ("MAINTENANCE", "REDUCED_SERVICE", "Escalator and platform maintenance: fewer trains"),
        ("TECHNICAL_PROBLEM", "SIGNIFICANT_DELAYS", "Signal failure: expect delays"),
        ("CONSTRUCTION", "STOP_MOVED", "Road works: the stop moved 100 m down the street"),
    )
    for k, rid in enumerate(r.sample(sorted(net.routes), 3)):
        cause, effect, header = causes[(k + r.randrange(4)) % 4]
        rt = net.routes[rid]
        start = dt.datetime.combine(today - dt.timedelta(days=r.randint(0, 3)), dt.time(4), tzinfo=dt.UTC)
        end = start + dt.timedelta(days=r.randint(2, 10))
        stop = rt.stops[r.randrange(len(rt.stops))]
        out.append(
            ServiceAlert(
                id=f"alert-{net.slug}-{k + 1}",
                header_text=f"{rt.short_name}: {header}",
                description_text=f"{header} at {net.stops[stop].name}, {start:%d %b} to {end:%d %b}.",
                cause=cause,
                effect=effect,
                active_from=start,
                active_until=end,
                route_ids=[rid],
                stop_ids=[stop],
            )
        )
    return out


# -- schedules ---------------------------------------------------------------------------------------------


def _headway(rt: _Route, minute: int, weekday: int) -> int:
    peak = weekday < 5 and (7 * 60 <= minute < 9 * 60 or 16 * 60 <= minute < 19 * 60)
    return rt.peak_headway if peak else rt.base_headway


def _starts(rt: _Route, weekday: int) -> list[int]:
    out, m = [], SERVICE_START
    while m < SERVICE_END:
        out.append(m)
        m += _headway(rt, m, weekday)
    return out


def _delay(seed: int, trip: str) -> int:
    x = random.Random(f"transit:{seed}:{trip}").random()
    return 0 if x < 0.55 else 1 if x < 0.8 else 3 if x < 0.95 else 8


@dataclass(frozen=True, slots=True)
class _Call:
    trip_id: str
    route: _Route
    direction: int
    headsign: str
    at: dt.datetime
    delay: int


def _calls(seed: int, net: _Net, stop_id: str, start: dt.datetime, minutes: int) -> list[_Call]:
    """Vehicles calling at a stop from ``start`` for ``minutes``, by estimated time."""
    tz = ZoneInfo(net.place.timezone)
    local = start.astimezone(tz)
    out = []
    for day in (local.date() - dt.timedelta(days=1), local.date(), local.date() + dt.timedelta(days=1)):
        midnight = dt.datetime.combine(day, dt.time(0), tzinfo=tz)
        for rt in net.routes.values():
            for direction, seq in enumerate((rt.stops, rt.stops[::-1])):
                if stop_id not in seq or seq.index(stop_id) == len(seq) - 1:
                    continue
                offset = seq.index(stop_id) * rt.run_min
                for m in _starts(rt, day.weekday()):
                    trip = f"{rt.id[2:]}-{direction}-{day:%Y%m%d}-{m // 60:02d}{m % 60:02d}"
                    delay = _delay(seed, trip)
                    at = (midnight + dt.timedelta(minutes=m + offset)).astimezone(dt.UTC)
                    if start <= at + dt.timedelta(minutes=delay) < start + dt.timedelta(minutes=minutes):
                        out.append(_Call(trip, rt, direction, net.stops[seq[-1]].name, at, delay))
    return sorted(out, key=lambda c: (c.at + dt.timedelta(minutes=c.delay), c.trip_id))


# -- result models -----------------------------------------------------------------------------------------


class Operator(BaseModel):
    """A transit operator (agency)."""

    onestop_id: OperatorId = Field(description="Transitland operator id.")
    name: str = Field(description="Its name.")
    city: str = Field(description="City served.")
    country: str = Field(description="Country.")
    timezone: str = Field(description="Timezone of its timetables.")
    route_count: int = Field(description="Routes it runs.")
    stop_count: int = Field(description="Stops it serves.")


class Stop(BaseModel):
    """A stop or station."""

    onestop_id: StopId = Field(description="Transitland stop id.")
    stop_name: str = Field(description="Its name.")
    latitude: Latitude = Field(description="Latitude.")
    longitude: Longitude = Field(description="Longitude.")
    operator_id: OperatorId = Field(description="Operator serving it.")
    route_ids: list[RouteId] = Field(description="Routes calling at it.")
    distance_m: int | None = Field(description="Distance from the searched point, metres.")


class Route(BaseModel):
    """A route (line)."""

    onestop_id: RouteId = Field(description="Transitland route id.")
    route_short_name: str = Field(description="Line name (M1, 105).")
    route_long_name: str = Field(description="Terminus to terminus.")
    route_type: RouteType = Field(description="subway or bus.")
    route_color: str = Field(description="Hex colour.")
    operator_id: OperatorId = Field(description="Its operator.")
    stop_ids: list[StopId] = Field(description="Its stops in direction 0 order.")
    headway_peak_min: int = Field(description="Minutes between vehicles at weekday rush hour.")
    headway_offpeak_min: int = Field(description="Minutes between vehicles otherwise.")


class Departure(BaseModel):
    """A vehicle leaving a stop."""

    trip_id: str = Field(description="GTFS trip id.")
    route_id: RouteId = Field(description="Its route.")
    route_short_name: str = Field(description="Line name.")
    headsign: str = Field(description="Where it goes.")
    scheduled: DateTime = Field(description="Timetabled departure (UTC).")
    estimated: DateTime = Field(description="Real-time estimate (UTC).")
    delay_min: int = Field(description="Minutes late.")
    local_time: str = Field(description="Estimated local clock time (HH:MM).")


class ServiceAlert(BaseModel):
    """A GTFS-realtime service alert."""

    id: AlertId = Field(description="Alert id.")
    header_text: str = Field(description="Headline.")
    description_text: str = Field(description="Details.")
    cause: Cause = Field(description="Cause.")
    effect: Effect = Field(description="Effect on service.")
    active_from: DateTime = Field(description="Start of the active period.")
    active_until: DateTime = Field(description="End of the active period.")
    route_ids: list[RouteId] = Field(description="Routes affected.")
    stop_ids: list[StopId] = Field(description="Stops affected.")


class Leg(BaseModel):
    """One ride of an itinerary."""

    route_id: RouteId = Field(description="The route.")
    route_short_name: str = Field(description="Line name.")
    trip_id: str = Field(description="The trip.")
    from_stop_id: StopId = Field(description="Boarding stop.")
    to_stop_id: StopId = Field(description="Alighting stop.")
    depart: DateTime = Field(description="Estimated departure (UTC).")
    arrive: DateTime = Field(description="Estimated arrival (UTC).")
    stops: int = Field(description="Stops travelled.")


class Itinerary(BaseModel):
    """A way from one stop to another."""

    legs: list[Leg] = Field(description="Rides in order (one, or two with a transfer).")
    depart: DateTime = Field(description="Departure from the first stop (UTC).")
    arrive: DateTime = Field(description="Arrival at the last stop (UTC).")
    duration_min: int = Field(description="Minutes from the asked time to arrival.")
    transfers: int = Field(description="Changes of vehicle.")
    alert_ids: list[AlertId] = Field(description="Active alerts on the routes used.")


# -- converters --------------------------------------------------------------------------------------------


def _stop_out(net: _Net, s: _Stop, origin: tuple[float, float] | None = None) -> Stop:
    dist = None if origin is None else round(haversine_m(origin[0], origin[1], s.lat, s.lon))
    return Stop(
        onestop_id=s.id,
        stop_name=s.name,
        latitude=s.lat,
        longitude=s.lon,
        operator_id=net.operator_id,
        route_ids=[r.id for r in net.routes.values() if s.id in r.stops],
        distance_m=dist,
    )


def _route_out(net: _Net, rt: _Route) -> Route:
    return Route(
        onestop_id=rt.id,
        route_short_name=rt.short_name,
        route_long_name=rt.long_name,
        route_type=rt.type,
        route_color=rt.color,
        operator_id=net.operator_id,
        stop_ids=list(rt.stops),
        headway_peak_min=rt.peak_headway,
        headway_offpeak_min=rt.base_headway,
    )


def _departure(net: _Net, c: _Call) -> Departure:
    est = c.at + dt.timedelta(minutes=c.delay)
    return Departure(
        trip_id=c.trip_id,
        route_id=c.route.id,
        route_short_name=c.route.short_name,
        headsign=c.headsign,
        scheduled=c.at,
        estimated=est,
        delay_min=c.delay,
        local_time=est.astimezone(ZoneInfo(net.place.timezone)).strftime("%H:%M"),
    )


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="list transit operators", open_world=True)
def list_operators(
    ctx: Ctx, country: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")] | None = None
) -> list[Operator]:
    """List the transit operators (/operators), one per city, optionally in one country.

    Args:
        country: ISO 3166-1 alpha-2 country code.
    """
    return [
        Operator(
            onestop_id=n.operator_id,
            name=n.operator_name,
            city=n.place.city,
            country=n.place.country,
            timezone=n.place.timezone,
            route_count=len(n.routes),
            stop_count=len(n.stops),
        )
        for n in _networks(ctx).values()
        if country in (None, n.place.country)
    ]


@service.tool(intent="search transit stops", open_world=True, example=fixed_example(name="Central Station"))
def search_stops(
    ctx: Ctx,
    name: Search | None = None,
    lat: Latitude | None = None,
    lon: Longitude | None = None,
    radius_m: Annotated[int, Field(ge=50, le=10_000)] = 1000,
    operator_id: OperatorId | None = None,
) -> list[Stop]:
    """Search stops by name, or near a point within a radius (/stops?lat=&lon=&radius=), nearest first.

    Args:
        name: Words of the stop's name.
        lat: Latitude of the point (with lon).
        lon: Longitude of the point (with lat).
        radius_m: Search radius around the point, metres.
        operator_id: Only this operator's stops.
    """
    if (lat is None) != (lon is None):
        missing = "lon" if lon is None else "lat"
        raise RuleViolation("give both lat and lon", field=missing, hint="a point needs both coordinates")
    if name is None and lat is None:
        raise RuleViolation("give a name or a point", field="name", hint="search by name, or by lat and lon")
    words = fold(name or "").split()
    origin = None if lat is None or lon is None else (lat, lon)
    out = []
    for net in (n for n in _networks(ctx).values() if operator_id in (None, n.operator_id)):
        for s in net.stops.values():
            if all(w in fold(s.name).split() for w in words):
                found = _stop_out(net, s, origin)
                if found.distance_m is None or found.distance_m <= radius_m:
                    out.append(found)
    return sorted(out, key=lambda s: (s.distance_m or 0, s.onestop_id))[:50]


def _example_stop(ctx: Ctx) -> dict[str, Any]:
    net = _network(ctx.population.seed, ctx.population.home.place)
    return {"stop_id": next(iter(net.stops))}


@service.tool(intent="get the transit stop", open_world=True, example=_example_stop)
def get_stop(ctx: Ctx, stop_id: StopId) -> Stop:
    """Get a stop with its place and the routes calling at it.

    Args:
        stop_id: The stop's onestop id.
    """
    net, s = _stop(ctx, stop_id)
    return _stop_out(net, s)


def _example_operator(ctx: Ctx) -> dict[str, Any]:
    return {"operator_id": _network(ctx.population.seed, ctx.population.home.place).operator_id}


@service.tool(intent="list an operator's routes", open_world=True, example=_example_operator)
def list_routes(ctx: Ctx, operator_id: OperatorId, route_type: RouteType | None = None) -> list[Route]:
    """List an operator's routes (/routes?operator_onestop_id=), subway lines first.

    Args:
        operator_id: The operator.
        route_type: Only subway or only bus routes.
    """
    net = _net_of(ctx, operator_id, "operator_id")
    return [_route_out(net, rt) for rt in net.routes.values() if route_type in (None, rt.type)]


def _example_route(ctx: Ctx) -> dict[str, Any]:
    return {"route_id": next(iter(_network(ctx.population.seed, ctx.population.home.place).routes))}


@service.tool(intent="get the transit route", open_world=True, example=_example_route)
def get_route(ctx: Ctx, route_id: RouteId) -> Route:
    """Get a route with its stops in order and its headways.

    Args:
        route_id: The route's onestop id.
    """
    return _route_out(*_route(ctx, route_id))


@service.tool(intent="list the departures from a stop", open_world=True, example=_example_stop)
def get_departures(
    ctx: Ctx,
    stop_id: StopId,
    start_time: DateTime | None = None,
    window_min: Annotated[int, Field(ge=5, le=180)] = 60,
    route_id: RouteId | None = None,
) -> list[Departure]:
    """Departures from a stop with real-time estimates (/stops/{id}/departures), by estimated time.

    Args:
        stop_id: The stop.
        start_time: From when (default now).
        window_min: How many minutes ahead.
        route_id: Only this route.
    """
    net, s = _stop(ctx, stop_id)
    if route_id is not None and route_id not in net.routes:
        raise NotFound(f"route {route_id} does not call here", field="route_id", hint="see get_stop's route_ids")
    calls = _calls(ctx.population.seed, net, s.id, start_time or ctx.now(), window_min)
    return [_departure(net, c) for c in calls if route_id in (None, c.route.id)]


@service.tool(intent="list the active service alerts", open_world=True, example=_example_operator)
def list_service_alerts(
    ctx: Ctx, operator_id: OperatorId, route_id: RouteId | None = None, stop_id: StopId | None = None
) -> list[ServiceAlert]:
    """List an operator's service alerts active now (GTFS-realtime Alerts), optionally for one route or stop.

    Args:
        operator_id: The operator.
        route_id: Only alerts on this route.
        stop_id: Only alerts at this stop.
    """
    net = _net_of(ctx, operator_id, "operator_id")
    now = ctx.now()
    return [
        a
        for a in _alerts(ctx.population.seed, net, ctx.today())
        if a.active_from <= now < a.active_until and route_id in (None, *a.route_ids) and stop_id in (None, *a.stop_ids)
    ]


@service.tool(intent="get the transit operator", open_world=True, example=_example_operator)
def get_operator(ctx: Ctx, operator_id: OperatorId) -> Operator:
    """Get an operator: its city, timezone and how many routes and stops it runs.

    Args:
        operator_id: The operator's onestop id.
    """
    net = _net_of(ctx, operator_id, "operator_id")
    return next(o for o in list_operators(ctx) if o.onestop_id == net.operator_id)


def _example_alert(ctx: Ctx) -> dict[str, Any]:
    net = _network(ctx.population.seed, ctx.population.home.place)
    return {"alert_id": _alerts(ctx.population.seed, net, ctx.today())[0].id}


@service.tool(intent="get the service alert", open_world=True, example=_example_alert)
def get_service_alert(ctx: Ctx, alert_id: AlertId) -> ServiceAlert:
    """Get one service alert, active or not, with its period and the routes and stops it affects.

    Args:
        alert_id: The alert's id.
    """
    net = _net_of(ctx, alert_id, "alert_id")
    for a in _alerts(ctx.population.seed, net, ctx.today()):
        if a.id == alert_id:
            return a
    raise NotFound(f"no alert {alert_id}", field="alert_id", hint="list them with transit__list_service_alerts")


class TimetableEntry(BaseModel):
    """Scheduled departures of one route and direction from a stop on a service day."""

    route_id: RouteId = Field(description="The route.")
    direction_id: int = Field(description="0 or 1.")
    headsign: str = Field(description="Where it goes.")
    times: list[str] = Field(description="Scheduled local departure times (HH:MM), in order.")


@service.tool(intent="get a stop's timetable for a day", open_world=True, example=_example_stop)
def get_timetable(ctx: Ctx, stop_id: StopId, service_date: dt.date | None = None) -> list[TimetableEntry]:
    """Scheduled departures from a stop on a service day (GTFS stop_times), per route and direction.

    Args:
        stop_id: The stop.
        service_date: The local service day (default today): weekends have no rush-hour service.
    """
    net, s = _stop(ctx, stop_id)
    day = service_date or ctx.today()
    out = []
    for rt in net.routes.values():
        for direction, seq in enumerate((rt.stops, rt.stops[::-1])):
            if s.id in seq[:-1]:
                offset = seq.index(s.id) * rt.run_min
                times = [f"{(m + offset) // 60 % 24:02d}:{(m + offset) % 60:02d}" for m in _starts(rt, day.weekday())]
                out.append(
                    TimetableEntry(
                        route_id=rt.id, direction_id=direction, headsign=net.stops[seq[-1]].name, times=times
                    )
                )
    return out


@service.tool(intent="list a route's stops in order", open_world=True, example=_example_route)
def list_route_stops(ctx: Ctx, route_id: RouteId, direction_id: Literal[0, 1] = 0) -> list[Stop]:
    """List a route's stops in travel order for one direction (its GTFS stop pattern).

    Args:
        route_id: The route.
        direction_id: 0 (as listed in get_route) or 1 (the way back).
    """
    net, rt = _route(ctx, route_id)
    return [_stop_out(net, net.stops[x]) for x in (rt.stops if direction_id == 0 else rt.stops[::-1])]


def _itineraries(ctx: Ctx, net: _Net, origin: str, dest: str, when: dt.datetime) -> list[Itinerary]:
    seed = ctx.population.seed

    def ride(start: str, end: str, at: dt.datetime, routes: set[str] | None = None) -> Leg | None:
        for c in _calls(seed, net, start, at, 120):
            if routes is not None and c.route.id not in routes:
                continue
            seq = c.route.stops if c.direction == 0 else c.route.stops[::-1]
            i, j = seq.index(start), seq.index(end) if end in seq else -1
            if j > i:
                dep = c.at + dt.timedelta(minutes=c.delay)
                arr = dep + dt.timedelta(minutes=(j - i) * c.route.run_min)
                return Leg(
                    route_id=c.route.id,
                    route_short_name=c.route.short_name,
                    trip_id=c.trip_id,
                    from_stop_id=start,
                    to_stop_id=end,
                    depart=dep,
                    arrive=arr,
                    stops=j - i,
                )
        return None

    plans: list[list[Leg]] = []
    for rt in net.routes.values():
        if origin in rt.stops and dest in rt.stops and (leg := ride(origin, dest, when, {rt.id})) is not None:
            plans.append([leg])
    for a in net.routes.values():
        for b in net.routes.values():
            if a is b or origin not in a.stops or dest not in b.stops or dest in a.stops:
                continue
            for hub in set(a.stops) & set(b.stops) - {origin, dest}:
                first = ride(origin, hub, when, {a.id})
                second = ride(hub, dest, first.arrive + dt.timedelta(minutes=2), {b.id}) if first else None
                if first and second:
                    plans.append([first, second])
    active = _alerts(seed, net, ctx.today())
    out = []
    for legs in plans:
        used = {leg.route_id for leg in legs}
        out.append(
            Itinerary(
                legs=legs,
                depart=legs[0].depart,
                arrive=legs[-1].arrive,
                duration_min=int((legs[-1].arrive - when).total_seconds() // 60),
                transfers=len(legs) - 1,
                alert_ids=[a.id for a in active if a.active_from <= when < a.active_until and used & set(a.route_ids)],
            )
        )
    return sorted(out, key=lambda i: (i.arrive, i.transfers))[:3]


def _example_plan(ctx: Ctx) -> dict[str, Any]:
    net = _network(ctx.population.seed, ctx.population.home.place)
    routes = list(net.routes.values())
    return {"from_stop_id": routes[0].stops[0], "to_stop_id": routes[1].stops[-1]}


@service.tool(intent="plan a trip between two stops", open_world=True, example=_example_plan)
def plan_trip(ctx: Ctx, from_stop_id: StopId, to_stop_id: StopId, depart_at: DateTime | None = None) -> list[Itinerary]:
    """Plan a trip between two stops of one operator: up to three itineraries, direct or with one transfer.

    Args:
        from_stop_id: Where to start.
        to_stop_id: Where to go (same operator).
        depart_at: Leave at or after (default now).
    """
    net, a = _stop(ctx, from_stop_id, "from_stop_id")
    other, b = _stop(ctx, to_stop_id, "to_stop_id")
    if other is not net:
        raise RuleViolation(f"{b.name} is in {other.place.city}", field="to_stop_id", hint="plan within one city")
    if a.id == b.id:
        raise RuleViolation("origin and destination are the same stop", field="to_stop_id", hint="pick another stop")
    found = _itineraries(ctx, net, a.id, b.id, depart_at or ctx.now())
    if not found:
        raise NotFound("no trip within two hours", field="depart_at", hint="service runs 05:00-24:00 local time")
    return found


# -- saved commutes ----------------------------------------------------------------------------------------


class Commute(Timestamped):
    """An employee's saved commute."""

    id: CommuteId
    name: Title
    """Its name (Morning commute)."""
    owner_email: Email
    """The employee."""
    from_stop_id: StopId
    """Where it starts."""
    to_stop_id: StopId
    """Where it ends."""
    depart_time: ClockTime
    """Usual local departure time (HH:MM)."""
    weekdays: tuple[Weekday, ...] = ("mon", "tue", "wed", "thu", "fri")
    """Days it is made."""
    status: Literal["active", "paused"] = "active"
    """active, or paused (not checked)."""


def _check_commute(ctx: Ctx, new: Commute, old: Commute | None) -> None:
    if new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{new.owner_email} is not an employee", field="owner_email", hint="commutes are staff's")
    net, _ = _stop(ctx, new.from_stop_id, "from_stop_id")
    other, _ = _stop(ctx, new.to_stop_id, "to_stop_id")
    if other is not net or new.from_stop_id == new.to_stop_id:
        raise RuleViolation("a commute joins two stops of one city", field="to_stop_id", hint="pick another stop")
    if not new.weekdays:
        raise RuleViolation("a commute needs at least one weekday", field="weekdays", hint="e.g. mon to fri")
    mine = [c for c in ctx.where(Commute, owner_email=new.owner_email) if c.id != new.id]
    if any(c.name == new.name for c in mine):
        raise Conflict(f"{new.owner_email} already has a commute named {new.name!r}", field="name", hint="rename it")
    if len(mine) >= MAX_COMMUTES:
        raise RuleViolation(f"{MAX_COMMUTES} commutes saved already", field="owner_email", hint="delete one first")


def _example_commute(ctx: Ctx) -> dict[str, Any]:
    plan = _example_plan(ctx)
    return {"name": "Client visits", "owner_email": ctx.population.employees[-1].email, **plan, "depart_time": "08:15"}


commutes = service.resource(
    Commute,
    name="commute",
    plural="commutes",
    prefix="cmt",
    create=False,
    filters=("owner_email", "status", "from_stop_id", "to_stop_id"),
    search=("name",),
    update=("name", "depart_time", "weekdays", "from_stop_id", "to_stop_id"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the commute"),
        "resume": Transition("status", ("paused",), "active", "resume the commute"),
    },
    guard_create=_check_commute,
    guard_update=_check_commute,
)


@service.tool(intent="save a commute", write=True, example=_example_commute)
def save_commute(
    ctx: Ctx,
    name: Title,
    owner_email: Email,
    from_stop_id: StopId,
    to_stop_id: StopId,
    depart_time: ClockTime,
    weekdays: Annotated[list[Weekday], Field(min_length=1, max_length=7)] | None = None,
) -> Commute:
    """Save an employee's commute between two stops of one city (at most five each, names unique per owner).

    Args:
        name: Its name (Morning commute).
        owner_email: The employee.
        from_stop_id: Where it starts.
        to_stop_id: Where it ends (same operator).
        depart_time: Usual local departure time (HH:MM).
        weekdays: Days it is made (default mon to fri).
    """
    days = tuple(d for d in _DAYS if d in (weekdays or _DAYS[:5]))
    made = ctx.create(
        Commute,
        name=name,
        owner_email=owner_email,
        from_stop_id=from_stop_id,
        to_stop_id=to_stop_id,
        depart_time=depart_time,
        weekdays=days,
    )
    _check_commute(ctx, made, None)
    return made


class CommuteCheck(BaseModel):
    """The next trip of a saved commute."""

    commute_id: CommuteId = Field(description="The commute.")
    travel_date: dt.date = Field(description="Local date of the next trip.")
    itineraries: list[Itinerary] = Field(description="Best ways for that trip.")
    alerts: list[ServiceAlert] = Field(description="Active alerts on the routes used.")


@service.tool(
    intent="check the next trip of a saved commute",
    example=first_example(Commute, "commute_id", where={"status": "active"}),
)
def check_commute(ctx: Ctx, commute_id: CommuteId) -> CommuteCheck:
    """Plan a saved commute's next trip (its next weekday at its usual time, today if still ahead) with alerts.

    Args:
        commute_id: The commute (active).
    """
    c = ctx.get(Commute, commute_id, field="commute_id")
    if c.status != "active":
        raise RuleViolation(f"commute {c.id} is paused", field="commute_id", hint="resume it first")
    net, _ = _stop(ctx, c.from_stop_id, "commute_id")
    tz = ZoneInfo(net.place.timezone)
    hour, minute = map(int, c.depart_time.split(":"))
    local_now = ctx.now().astimezone(tz)
    for k in range(8):
        day = local_now.date() + dt.timedelta(days=k)
        when = dt.datetime.combine(day, dt.time(hour, minute), tzinfo=tz)
        if _DAYS[day.weekday()] in c.weekdays and when >= local_now:
            break
    plans = _itineraries(ctx, net, c.from_stop_id, c.to_stop_id, when.astimezone(dt.UTC))
    used = {a for p in plans for a in p.alert_ids}
    alerts = [a for a in _alerts(ctx.population.seed, net, ctx.today()) if a.id in used]
    return CommuteCheck(commute_id=c.id, travel_date=day, itineraries=plans, alerts=alerts)


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Employees' commutes in their own city: from a stop near home to the central station, some paused."""
    pop = s.population
    for k, p in enumerate(pop.employees[:10]):
        net = _network(pop.seed, p.place)
        stops = list(net.stops)
        start = stops[1 + (k * 7) % (len(stops) - 1)]
        s.create(
            Commute,
            name="Morning commute",
            owner_email=p.email,
            from_stop_id=start,
            to_stop_id=stops[0],
            depart_time=f"{7 + k % 3:02d}:{(k * 10) % 60:02d}",
            status="paused" if k % 4 == 3 else "active",
            weekdays=_DAYS[:5] if k % 3 else _DAYS[:4],
            created_at=s.ago(days=90 - k),
            updated_at=s.ago(days=30),
        )
        if k % 2 == 0:
            s.create(
                Commute,
                name="Evening commute",
                owner_email=p.email,
                from_stop_id=stops[0],
                to_stop_id=start,
                depart_time="17:30",
                created_at=s.ago(days=90 - k),
                updated_at=s.ago(days=30),
            )
