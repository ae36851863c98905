"""Skytrack Flight Status: live and historical flight status, airport boards, airlines, alerts and watched flights.

Modeled on the FlightAware AeroAPI v4 (``/flights/{ident}``, ``/airports/{id}/flights/departures`` and
``arrivals``, ``/airports/{id}/delays``, ``/operators/{id}``, ``/history``, ``/alerts``) and AviationStack
(``flights`` by ``flight_iata`` and ``flight_date``, ``routes``, ``airlines``, ``airports``).

The flight data is an open world, answered deterministically: each world has one timetable (about
twenty airlines flying from their hubs to the world's cities and other major airports, numbered in
outbound/return pairs, daily or on fixed weekdays), drawn from the world seed alone, with each
airport at its city's real coordinates and time zone (the same as the ``maps`` and ``weather``
services). A flight's operation on one date (delay, gate, cancellation, diversion) is drawn from the
world seed, the flight and the date alone, so its status, the airport boards, the route search, the
delay history and the alert checks all tell the same story; what has happened depends only on the
time asked at. Dates are the origin's local departure dates; times are UTC with local times beside.

Alerts (AeroAPI alerts) and watched flights are the service's own records: an alert or a watch is
only made for a flight that exists and operates on the date, and each alert event is delivered once.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.engine.types import (
    City,
    CompanyName,
    Country,
    Date,
    DateTime,
    Email,
    IdOf,
    Latitude,
    Longitude,
    PersonName,
    Text,
    Timezone,
)
from compoworld.services.kit.examples import fixed_example
from compoworld.world.geo import CITIES, haversine_km

__all__ = ["service"]

service = Service(
    "flightstatus",
    title="Skytrack Flight Status",
    category="travel",
    modeled_on="FlightAware AeroAPI v4 (flights, airport departures/arrivals/delays, operators, history, alerts) "
    "and AviationStack (flights, routes, airlines, airports)",
    description="Flight tracking: the status of any flight on a date with delays, gates and actual times, "
    "airport departure and arrival boards, route search, airline timetables, on-time history, "
    "flight alerts delivered by e-mail and watched flights of travellers.",
)

AlertId = Annotated[str, IdOf("flightstatus.alert")]
WatchId = Annotated[str, IdOf("flightstatus.watched_flight")]
DeliveryId = Annotated[str, IdOf("flightstatus.alert_delivery")]
FlightNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{2} ?[0-9]{1,4}$", to_upper=True)]
Iata = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]
AirportQuery = Annotated[str, StringConstraints(min_length=2, max_length=80, strip_whitespace=True)]
FlightState = Literal["scheduled", "delayed", "boarding", "en_route", "landed", "cancelled", "diverted"]
AlertEvent = Literal["departure", "arrival", "delay", "cancellation", "diversion"]

HISTORY_DAYS = 90
AHEAD_DAYS = 30
PREDICT_DAYS = 1
"""Delays and gates are known up to this many days ahead; later flights are simply scheduled."""
BOARDING = dt.timedelta(minutes=40)
DELAYED = 15
"""Minutes late from which a flight counts as delayed."""


@dataclass(frozen=True, slots=True)
class Airport:
    """An airport of the open world."""

    iata: str
    icao: str
    name: str
    city: str
    country: str
    latitude: float
    longitude: float
    timezone: str


@dataclass(frozen=True, slots=True)
class Airline:
    """An airline with its hubs."""

    iata: str
    icao: str
    name: str
    country: str
    hubs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Route:
    """One timetabled flight."""

    number: str
    airline: str
    origin: str
    destination: str
    departs: int
    """Local departure time at the origin, in minutes after midnight."""
    block: int
    """Scheduled duration in minutes."""
    days: tuple[int, ...]
    """Weekdays it operates (0 = Monday)."""
    aircraft: str
    distance_km: int


_AIRPORTS: tuple[tuple[str, str, str, str], ...] = (
    ("BER", "EDDB", "Berlin Brandenburg Airport", "Berlin"),
    ("MUC", "EDDM", "Munich Airport", "Munich"),
    ("FRA", "EDDF", "Frankfurt Airport", "Frankfurt"),
    ("CDG", "LFPG", "Paris Charles de Gaulle Airport", "Paris"),
    ("LYS", "LFLL", "Lyon-Saint Exupery Airport", "Lyon"),
    ("MAD", "LEMD", "Adolfo Suarez Madrid-Barajas Airport", "Madrid"),
    ("BCN", "LEBL", "Barcelona-El Prat Airport", "Barcelona"),
    ("MXP", "LIMC", "Milan Malpensa Airport", "Milan"),
    ("FCO", "LIRF", "Rome Fiumicino Airport", "Rome"),
    ("AMS", "EHAM", "Amsterdam Airport Schiphol", "Amsterdam"),
    ("ARN", "ESSA", "Stockholm Arlanda Airport", "Stockholm"),
    ("CPH", "EKCH", "Copenhagen Airport", "Copenhagen"),
    ("ZRH", "LSZH", "Zurich Airport", "Zurich"),
    ("DUB", "EIDW", "Dublin Airport", "Dublin"),
    ("LHR", "EGLL", "London Heathrow Airport", "London"),
    ("MAN", "EGCC", "Manchester Airport", "Manchester"),
    ("IST", "LTFM", "Istanbul Airport", "Istanbul"),
    ("DXB", "OMDB", "Dubai International Airport", "Dubai"),
    ("JFK", "KJFK", "John F. Kennedy International Airport", "New York"),
    ("BOS", "KBOS", "Boston Logan International Airport", "Boston"),
    ("ORD", "KORD", "Chicago O'Hare International Airport", "Chicago"),
    ("ATL", "KATL", "Hartsfield-Jackson Atlanta International Airport", "Atlanta"),
    ("AUS", "KAUS", "Austin-Bergstrom International Airport", "Austin"),
    ("SFO", "KSFO", "San Francisco International Airport", "San Francisco"),
    ("LAX", "KLAX", "Los Angeles International Airport", "Los Angeles"),
    ("SEA", "KSEA", "Seattle-Tacoma International Airport", "Seattle"),
    ("YYZ", "CYYZ", "Toronto Pearson International Airport", "Toronto"),
    ("YVR", "CYVR", "Vancouver International Airport", "Vancouver"),
    ("GRU", "SBGR", "Sao Paulo/Guarulhos International Airport", "Sao Paulo"),
    ("HND", "RJTT", "Tokyo Haneda Airport", "Tokyo"),
    ("ICN", "RKSI", "Seoul Incheon International Airport", "Seoul"),
    ("HKG", "VHHH", "Hong Kong International Airport", "Hong Kong"),
    ("SIN", "WSSS", "Singapore Changi Airport", "Singapore"),
    ("SYD", "YSSY", "Sydney Kingsford Smith Airport", "Sydney"),
)
_CITY = {c.city: c for c in CITIES}
AIRPORTS: dict[str, Airport] = {
    code: Airport(
        code,
        icao,
        name,
        city,
        _CITY[city].country,
        _CITY[city].latitude,
        _CITY[city].longitude,
        _CITY[city].timezone,
    )
    for code, icao, name, city in _AIRPORTS
}
AIRLINES: dict[str, Airline] = {
    a.iata: a
    for a in (
        Airline("LH", "DLH", "Lufthansa", "DE", ("FRA", "MUC")),
        Airline("AF", "AFR", "Air France", "FR", ("CDG",)),
        Airline("BA", "BAW", "British Airways", "GB", ("LHR",)),
        Airline("KL", "KLM", "KLM Royal Dutch Airlines", "NL", ("AMS",)),
        Airline("IB", "IBE", "Iberia", "ES", ("MAD",)),
        Airline("AZ", "ITY", "ITA Airways", "IT", ("FCO",)),
        Airline("SK", "SAS", "Scandinavian Airlines", "SE", ("ARN", "CPH")),
        Airline("LX", "SWR", "Swiss International Air Lines", "CH", ("ZRH",)),
        Airline("EI", "EIN", "Aer Lingus", "IE", ("DUB",)),
        Airline("TK", "THY", "Turkish Airlines", "TR", ("IST",)),
        Airline("EK", "UAE", "Emirates", "AE", ("DXB",)),
        Airline("UA", "UAL", "United Airlines", "US", ("ORD", "SFO")),
        Airline("DL", "DAL", "Delta Air Lines", "US", ("ATL", "JFK")),
        Airline("AS", "ASA", "Alaska Airlines", "US", ("SEA",)),
        Airline("AC", "ACA", "Air Canada", "CA", ("YYZ", "YVR")),
        Airline("LA", "LAN", "LATAM Airlines", "BR", ("GRU",)),
        Airline("NH", "ANA", "All Nippon Airways", "JP", ("HND",)),
        Airline("KE", "KAL", "Korean Air", "KR", ("ICN",)),
        Airline("CX", "CPA", "Cathay Pacific", "HK", ("HKG",)),
        Airline("SQ", "SIA", "Singapore Airlines", "SG", ("SIN",)),
        Airline("QF", "QFA", "Qantas", "AU", ("SYD",)),
    )
}
EVERY_DAY = (0, 1, 2, 3, 4, 5, 6)


def _km(a: Airport, b: Airport) -> int:
    # The schedule was drawn with a 6371 km Earth; rounded, every airport pair is as it was.
    return round(haversine_km(a.latitude, a.longitude, b.latitude, b.longitude, radius_km=6371.0))


def _aircraft(km: int, rng: random.Random) -> str:
    if km < 1500:
        return rng.choice(("Airbus A320neo", "Airbus A321", "Boeing 737-800", "Embraer E190"))
    if km < 5000:
        return rng.choice(("Airbus A321LR", "Boeing 757-200", "Airbus A330-300"))
    return rng.choice(("Boeing 787-9", "Airbus A350-900", "Boeing 777-300ER", "Airbus A380-800"))


@lru_cache(maxsize=8)
def timetable(seed: int) -> dict[str, Route]:
    """The world's timetable: every flight by its number (``LH 400``), drawn from the world seed alone."""
    rng = random.Random(f"compoworld-flightstatus:{seed}:timetable")
    routes: dict[str, Route] = {}
    codes = sorted(AIRPORTS)
    for airline in AIRLINES.values():
        used: set[int] = set()
        for hub_code in airline.hubs:
            hub = AIRPORTS[hub_code]
            others = [c for c in codes if c not in airline.hubs]
            rng.shuffle(others)
            for dest_code in others[: 6 if len(airline.hubs) > 1 else 9]:
                dest = AIRPORTS[dest_code]
                km = _km(hub, dest)
                block = round((km / 820 + 0.55) * 60 / 5) * 5
                days = EVERY_DAY if rng.random() < 0.7 else tuple(sorted(rng.sample(range(7), rng.randint(3, 5))))
                aircraft = _aircraft(km, rng)
                for _ in range(1 if km > 5000 else rng.randint(1, 2)):
                    n = rng.randrange(50, 499) * 2
                    while n in used:
                        n = rng.randrange(50, 499) * 2
                    used.update((n, n + 1))
                    out_dep = rng.randrange(6 * 12, 22 * 12) * 5
                    back_dep = rng.randrange(6 * 12, 23 * 12) * 5
                    for num, a, b, dep in ((n, hub, dest, out_dep), (n + 1, dest, hub, back_dep)):
                        key = f"{airline.iata} {num}"
                        routes[key] = Route(key, airline.iata, a.iata, b.iata, dep, block, days, aircraft, km)
    return routes


# -- one flight on one date ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Operation:
    """What happens to a flight on one date."""

    route: Route
    date: dt.date
    sched_dep: dt.datetime
    sched_arr: dt.datetime
    delay: int | None
    """Departure delay in minutes (None when not yet known)."""
    arrival_delay: int | None
    cancelled: bool
    diverted_to: str | None
    dep_gate: str | None
    dep_terminal: str
    arr_gate: str | None
    arr_terminal: str


def _zone(code: str) -> ZoneInfo:
    return ZoneInfo(AIRPORTS[code].timezone)


@lru_cache(maxsize=65536)
def _operate(seed: int, number: str, day: dt.date, today: dt.date) -> Operation:
    route = timetable(seed)[number]
    local = dt.datetime(day.year, day.month, day.day, tzinfo=_zone(route.origin)) + dt.timedelta(minutes=route.departs)
    sched_dep = local.astimezone(dt.UTC)
    sched_arr = sched_dep + dt.timedelta(minutes=route.block)
    rng = random.Random(f"compoworld-flightstatus:{seed}:{number}:{day.isoformat()}")
    roll = rng.random()
    delay = rng.randint(-5, 10) if roll < 0.66 else rng.randint(15, 75) if roll < 0.92 else rng.randint(76, 260)
    cancelled = rng.random() < 0.025
    diverted = None
    if not cancelled and rng.random() < 0.006:
        near = sorted(
            (c for c in AIRPORTS if c not in (route.origin, route.destination)),
            key=lambda c: _km(AIRPORTS[c], AIRPORTS[route.destination]),
        )
        diverted = near[0]
    arrival_delay = delay + rng.randint(-15, 10)
    terminals = "12345"
    dep_terminal = terminals[rng.randrange(3)]
    arr_terminal = terminals[rng.randrange(3)]
    dep_gate = f"{rng.choice('ABCDEFG')}{rng.randint(1, 60)}"
    arr_gate = f"{rng.choice('ABCDEFG')}{rng.randint(1, 60)}"
    known = day <= today + dt.timedelta(days=PREDICT_DAYS)
    return Operation(
        route=route,
        date=day,
        sched_dep=sched_dep,
        sched_arr=sched_arr,
        delay=None if cancelled or not known else max(delay, 0),
        arrival_delay=None if cancelled or not known else max(arrival_delay, -20),
        cancelled=cancelled and known,
        diverted_to=diverted if known else None,
        dep_gate=None if cancelled or not known else dep_gate,
        dep_terminal=dep_terminal,
        arr_gate=None if cancelled or not known else arr_gate,
        arr_terminal=arr_terminal,
    )


class AirportRef(BaseModel):
    """An airport as a flight names it."""

    iata: Iata = Field(description="IATA code.")
    name: str = Field(description="Airport name.")
    city: City = Field(description="City it serves.")
    country: Country = Field(description="ISO country code.")
    timezone: Timezone = Field(description="IANA time zone.")


class FlightStatus(BaseModel):
    """A flight on one date and where it stands."""

    flight_number: FlightNumber = Field(description="IATA flight number, e.g. LH 400.")
    flight_date: Date = Field(description="Local departure date at the origin.")
    airline: CompanyName = Field(description="Operating airline.")
    airline_iata: str = Field(description="Airline IATA code.")
    origin: AirportRef = Field(description="Departure airport.")
    destination: AirportRef = Field(description="Scheduled arrival airport.")
    status: FlightState = Field(
        description="scheduled, delayed, boarding, en_route, landed, cancelled or diverted (as of now)."
    )
    scheduled_departure: DateTime = Field(description="Scheduled departure (UTC).")
    scheduled_arrival: DateTime = Field(description="Scheduled arrival (UTC).")
    estimated_departure: DateTime | None = Field(description="Expected departure (UTC); null when not known yet.")
    estimated_arrival: DateTime | None = Field(description="Expected arrival (UTC); null when not known yet.")
    actual_departure: DateTime | None = Field(description="Actual take-off (UTC), once departed.")
    actual_arrival: DateTime | None = Field(description="Actual landing (UTC), once landed.")
    local_scheduled_departure: str = Field(description="Scheduled departure in origin local time.")
    local_scheduled_arrival: str = Field(description="Scheduled arrival in destination local time.")
    departure_delay_minutes: int | None = Field(description="Departure delay in minutes; null when not known.")
    arrival_delay_minutes: int | None = Field(description="Arrival delay in minutes; null when not known.")
    departure_terminal: str = Field(description="Departure terminal.")
    departure_gate: str | None = Field(description="Departure gate, once assigned.")
    arrival_terminal: str = Field(description="Arrival terminal.")
    arrival_gate: str | None = Field(description="Arrival gate, once assigned.")
    diverted_to: Iata | None = Field(description="Airport it was diverted to.")
    aircraft: str = Field(description="Aircraft type.")
    distance_km: int = Field(description="Great-circle distance.")


def _ref(code: str) -> AirportRef:
    a = AIRPORTS[code]
    return AirportRef(iata=a.iata, name=a.name, city=a.city, country=a.country, timezone=a.timezone)


def _status(op: Operation, now: dt.datetime) -> FlightStatus:
    r = op.route
    est_dep = None if op.delay is None else op.sched_dep + dt.timedelta(minutes=op.delay)
    est_arr = None if op.arrival_delay is None else op.sched_arr + dt.timedelta(minutes=op.arrival_delay)
    state: FlightState
    actual_dep = actual_arr = None
    if op.cancelled:
        state = "cancelled"
    elif est_dep is None or est_arr is None:
        state = "scheduled"
    elif now >= est_arr:
        state = "diverted" if op.diverted_to else "landed"
        actual_dep, actual_arr = est_dep, est_arr
    elif now >= est_dep:
        state = "en_route"
        actual_dep = est_dep
    elif now >= est_dep - BOARDING:
        state = "boarding"
    else:
        state = "delayed" if (op.delay or 0) >= DELAYED else "scheduled"
    return FlightStatus(
        flight_number=r.number,
        flight_date=op.date,
        airline=AIRLINES[r.airline].name,
        airline_iata=r.airline,
        origin=_ref(r.origin),
        destination=_ref(r.destination),
        status=state,
        scheduled_departure=op.sched_dep,
        scheduled_arrival=op.sched_arr,
        estimated_departure=est_dep,
        estimated_arrival=est_arr,
        actual_departure=actual_dep,
        actual_arrival=actual_arr,
        local_scheduled_departure=op.sched_dep.astimezone(_zone(r.origin)).strftime("%Y-%m-%dT%H:%M"),
        local_scheduled_arrival=op.sched_arr.astimezone(_zone(r.destination)).strftime("%Y-%m-%dT%H:%M"),
        departure_delay_minutes=op.delay,
        arrival_delay_minutes=op.arrival_delay,
        departure_terminal=op.dep_terminal,
        departure_gate=op.dep_gate,
        arrival_terminal=op.arr_terminal,
        arrival_gate=op.arr_gate,
        diverted_to=op.diverted_to,
        aircraft=r.aircraft,
        distance_km=r.distance_km,
    )


def _norm(number: str) -> str:
    m = re.match(r"^([A-Z0-9]{2}) ?0*([0-9]{1,4})$", number.strip().upper())
    return f"{m.group(1)} {m.group(2)}" if m else number


def _route(ctx: Ctx, number: str, field: str = "flight_number") -> Route:
    key = _norm(number)
    route = timetable(ctx.population.seed).get(key)
    if route is None:
        airline = AIRLINES.get(key[:2])
        raise NotFound(
            f"no flight {key} in the timetable",
            field=field,
            hint=f"look up {airline.name}'s flights with flightstatus__airline_info"
            if airline
            else "check the airline code (e.g. LH, BA, UA) with flightstatus__airline_info",
        )
    return route


def _check_date(ctx: Ctx, day: dt.date, field: str = "date") -> None:
    today = ctx.today()
    if day < today - dt.timedelta(days=HISTORY_DAYS) or day > today + dt.timedelta(days=AHEAD_DAYS):
        raise RuleViolation(
            f"flight data covers {today - dt.timedelta(days=HISTORY_DAYS)} to {today + dt.timedelta(days=AHEAD_DAYS)}",
            field=field,
            hint="ask for a date in that window",
        )


def _operation(ctx: Ctx, route: Route, day: dt.date, field: str = "date") -> Operation:
    _check_date(ctx, day, field)
    if day.weekday() not in route.days:
        names = ", ".join(("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")[d] for d in route.days)
        raise NotFound(
            f"{route.number} does not operate on {day:%A} {day}",
            field=field,
            hint=f"it operates on {names}",
        )
    return _operate(ctx.population.seed, route.number, day, ctx.today())


def _airport(query: str, field: str) -> Airport:
    q = query.strip()
    if q.upper() in AIRPORTS:
        return AIRPORTS[q.upper()]
    folded = q.casefold()
    for a in AIRPORTS.values():
        if a.city.casefold() == folded or a.icao == q.upper() or a.name.casefold() == folded:
            return a
    raise NotFound(
        f"no airport {query!r}",
        field=field,
        hint="give an IATA code (e.g. LHR) or a city such as London; airports: " + ", ".join(sorted(AIRPORTS)),
    )


# -- open-world tools -------------------------------------------------------------------------------------


def _some_flight(ctx: Ctx) -> tuple[Route, dt.date]:
    today = ctx.today()
    for route in timetable(ctx.population.seed).values():
        if today.weekday() in route.days:
            return route, today
    route = next(iter(timetable(ctx.population.seed).values()))
    day = today
    while day.weekday() not in route.days:
        day += dt.timedelta(days=1)
    return route, day


def _example_status(ctx: Ctx) -> dict[str, Any]:
    route, day = _some_flight(ctx)
    return {"flight_number": route.number, "date": day.isoformat()}


@service.tool(intent="check the status of the flight", open_world=True, example=_example_status)
def flight_status(ctx: Ctx, flight_number: FlightNumber, date: Date) -> FlightStatus:
    """Get a flight's status on a date: schedule, delays, gates, actual times.

    Covers the last 90 days and the next 30; delays and gates are known up to tomorrow.

    Args:
        flight_number: IATA flight number, e.g. LH 400 or BA117.
        date: Local departure date at the origin.
    """
    route = _route(ctx, flight_number)
    return _status(_operation(ctx, route, date), ctx.now())


class Board(BaseModel):
    """An airport's departures or arrivals board for one local date."""

    airport: AirportRef = Field(description="The airport.")
    date: Date = Field(description="Local date of the board.")
    direction: Literal["departures", "arrivals"] = Field(description="departures or arrivals.")
    flights: list[FlightStatus] = Field(description="Flights by scheduled time.")


def _board(ctx: Ctx, airport: Airport, day: dt.date, arrivals: bool, limit: int) -> Board:
    _check_date(ctx, day)
    seed, today = ctx.population.seed, ctx.today()
    zone = ZoneInfo(airport.timezone)
    found: list[tuple[dt.datetime, FlightStatus]] = []
    for route in timetable(seed).values():
        if (route.destination if arrivals else route.origin) != airport.iata:
            continue
        # An arrival on this local date may have left the day before (origin local date).
        for dep_day in (day - dt.timedelta(days=1), day, day + dt.timedelta(days=1)) if arrivals else (day,):
            if dep_day.weekday() not in route.days:
                continue
            op = _operate(seed, route.number, dep_day, today)
            when = op.sched_arr if arrivals else op.sched_dep
            if when.astimezone(zone).date() == day:
                found.append((when, _status(op, ctx.now())))
    found.sort(key=lambda x: (x[0], x[1].flight_number))
    return Board(
        airport=_ref(airport.iata),
        date=day,
        direction="arrivals" if arrivals else "departures",
        flights=[f for _, f in found[:limit]],
    )


_example_airport = fixed_example(airport="LHR")


@service.tool(intent="see the departures board of the airport", open_world=True, example=_example_airport)
def airport_departures(
    ctx: Ctx, airport: AirportQuery, date: Date | None = None, limit: Annotated[int, Field(ge=1, le=100)] = 50
) -> Board:
    """List the flights leaving an airport on a local date, by scheduled departure.

    Args:
        airport: IATA code (LHR) or city (London).
        date: Local date at the airport; omit for today.
        limit: Most flights to list.
    """
    a = _airport(airport, "airport")
    return _board(ctx, a, date or ctx.now().astimezone(ZoneInfo(a.timezone)).date(), False, limit)


@service.tool(intent="see the arrivals board of the airport", open_world=True, example=_example_airport)
def airport_arrivals(
    ctx: Ctx, airport: AirportQuery, date: Date | None = None, limit: Annotated[int, Field(ge=1, le=100)] = 50
) -> Board:
    """List the flights arriving at an airport on a local date, by scheduled arrival.

    Args:
        airport: IATA code (JFK) or city (New York).
        date: Local date at the airport; omit for today.
        limit: Most flights to list.
    """
    a = _airport(airport, "airport")
    return _board(ctx, a, date or ctx.now().astimezone(ZoneInfo(a.timezone)).date(), True, limit)


def _example_route(ctx: Ctx) -> dict[str, Any]:
    route, day = _some_flight(ctx)
    return {"origin": route.origin, "destination": route.destination, "date": day.isoformat()}


@service.tool(intent="find flights between two airports", open_world=True, example=_example_route)
def find_flights(ctx: Ctx, origin: AirportQuery, destination: AirportQuery, date: Date) -> list[FlightStatus]:
    """Find the direct flights between two airports (or cities) departing on a local date.

    Args:
        origin: Departure airport code or city.
        destination: Arrival airport code or city.
        date: Local departure date at the origin.
    """
    a, b = _airport(origin, "origin"), _airport(destination, "destination")
    if a.iata == b.iata:
        raise RuleViolation("origin and destination are the same airport", field="destination", hint="pick another")
    _check_date(ctx, date)
    seed, today = ctx.population.seed, ctx.today()
    out = [
        _status(_operate(seed, r.number, date, today), ctx.now())
        for r in timetable(seed).values()
        if r.origin == a.iata and r.destination == b.iata and date.weekday() in r.days
    ]
    out.sort(key=lambda f: (f.scheduled_departure, f.flight_number))
    return out


class DelayStats(BaseModel):
    """Departure delays at an airport on one local date."""

    airport: AirportRef = Field(description="The airport.")
    date: Date = Field(description="Local date.")
    latitude: Latitude = Field(description="Airport latitude.")
    longitude: Longitude = Field(description="Airport longitude.")
    departures: int = Field(description="Departures scheduled that day.")
    cancelled: int = Field(description="Of which cancelled.")
    delayed: int = Field(description="Of which leaving 15 minutes late or more.")
    average_delay_minutes: float | None = Field(description="Mean departure delay of the flights not cancelled.")
    on_time_percent: float | None = Field(description="Share of non-cancelled departures less than 15 minutes late.")


@service.tool(intent="check delays at the airport", open_world=True, example=_example_airport)
def airport_delays(ctx: Ctx, airport: AirportQuery, date: Date | None = None) -> DelayStats:
    """Summarise departure delays and cancellations at an airport on a local date (up to tomorrow).

    Args:
        airport: IATA code or city.
        date: Local date; omit for today.
    """
    a = _airport(airport, "airport")
    day = date or ctx.now().astimezone(ZoneInfo(a.timezone)).date()
    if day > ctx.today() + dt.timedelta(days=PREDICT_DAYS):
        raise RuleViolation(
            "delays are only known up to tomorrow", field="date", hint="ask for today, tomorrow or a past date"
        )
    board = _board(ctx, a, day, False, 10_000)
    flying = [f for f in board.flights if f.status != "cancelled"]
    delays = [f.departure_delay_minutes or 0 for f in flying]
    late = sum(1 for d in delays if d >= DELAYED)
    return DelayStats(
        airport=board.airport,
        date=day,
        latitude=a.latitude,
        longitude=a.longitude,
        departures=len(board.flights),
        cancelled=len(board.flights) - len(flying),
        delayed=late,
        average_delay_minutes=round(sum(delays) / len(delays), 1) if delays else None,
        on_time_percent=round(100 * (len(delays) - late) / len(delays), 1) if delays else None,
    )


class TimetableEntry(BaseModel):
    """A timetabled flight of an airline."""

    flight_number: FlightNumber = Field(description="Flight number.")
    origin: Iata = Field(description="Departure airport.")
    destination: Iata = Field(description="Arrival airport.")
    local_departure: str = Field(description="Local departure time (HH:MM).")
    duration_minutes: int = Field(description="Scheduled duration.")
    days: list[Literal["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]] = Field(description="Days it operates.")
    aircraft: str = Field(description="Aircraft type.")


class AirlineInfo(BaseModel):
    """An airline and its timetable."""

    name: CompanyName = Field(description="Airline name.")
    iata: str = Field(description="IATA code.")
    icao: str = Field(description="ICAO code.")
    country: Country = Field(description="Home country.")
    hubs: list[Iata] = Field(description="Hub airports.")
    flights: list[TimetableEntry] = Field(description="Its flights by number.")


@service.tool(intent="look up the airline and its flights", open_world=True, example=fixed_example(airline="LH"))
def airline_info(ctx: Ctx, airline: Annotated[str, StringConstraints(min_length=2, max_length=60)]) -> AirlineInfo:
    """Get an airline (by IATA/ICAO code or name) with its hubs and timetable.

    Args:
        airline: IATA code (LH), ICAO code (DLH) or name (Lufthansa).
    """
    q = airline.strip()
    found = next(
        (a for a in AIRLINES.values() if q.upper() in (a.iata, a.icao) or a.name.casefold() == q.casefold()), None
    )
    if found is None:
        raise NotFound(
            f"no airline {airline!r}",
            field="airline",
            hint="airlines: " + ", ".join(f"{a.iata} {a.name}" for a in AIRLINES.values()),
        )
    names = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
    flights = [r for r in timetable(ctx.population.seed).values() if r.airline == found.iata]
    flights.sort(key=lambda r: int(r.number.split()[1]))
    return AirlineInfo(
        name=found.name,
        iata=found.iata,
        icao=found.icao,
        country=found.country,
        hubs=list(found.hubs),
        flights=[
            TimetableEntry(
                flight_number=r.number,
                origin=r.origin,
                destination=r.destination,
                local_departure=f"{r.departs // 60:02d}:{r.departs % 60:02d}",
                duration_minutes=r.block,
                days=[names[d] for d in r.days],
                aircraft=r.aircraft,
            )
            for r in flights
        ],
    )


class HistoryDay(BaseModel):
    """One past operation of a flight."""

    date: Date = Field(description="Local departure date.")
    status: FlightState = Field(description="How it ended.")
    departure_delay_minutes: int | None = Field(description="Departure delay.")
    arrival_delay_minutes: int | None = Field(description="Arrival delay.")


class History(BaseModel):
    """A flight's recent on-time record."""

    flight_number: FlightNumber = Field(description="The flight.")
    days: list[HistoryDay] = Field(description="Past operations, newest first.")
    flights: int = Field(description="Operations in the period.")
    cancelled: int = Field(description="Of which cancelled.")
    on_time_percent: float | None = Field(description="Share of flown operations arriving less than 15 minutes late.")
    average_arrival_delay_minutes: float | None = Field(description="Mean arrival delay of flown operations.")


def _example_history(ctx: Ctx) -> dict[str, Any]:
    return {"flight_number": _some_flight(ctx)[0].number, "days": 14}


@service.tool(intent="check the flight's on-time record", open_world=True, example=_example_history)
def delay_history(
    ctx: Ctx, flight_number: FlightNumber, days: Annotated[int, Field(ge=1, le=HISTORY_DAYS)] = 30
) -> History:
    """A flight's operations over the past days (yesterday back) with its on-time percentage.

    Args:
        flight_number: IATA flight number.
        days: How many days back to look (1 to 90).
    """
    route = _route(ctx, flight_number)
    seed, today = ctx.population.seed, ctx.today()
    out: list[HistoryDay] = []
    for k in range(1, days + 1):
        day = today - dt.timedelta(days=k)
        if day.weekday() not in route.days:
            continue
        st = _status(_operate(seed, route.number, day, today), ctx.now())
        out.append(
            HistoryDay(
                date=day,
                status=st.status,
                departure_delay_minutes=st.departure_delay_minutes,
                arrival_delay_minutes=st.arrival_delay_minutes,
            )
        )
    flown = [d.arrival_delay_minutes or 0 for d in out if d.status != "cancelled"]
    return History(
        flight_number=route.number,
        days=out,
        flights=len(out),
        cancelled=len(out) - len(flown),
        on_time_percent=round(100 * sum(1 for d in flown if d < DELAYED) / len(flown), 1) if flown else None,
        average_arrival_delay_minutes=round(sum(flown) / len(flown), 1) if flown else None,
    )


# -- alerts and watched flights (records) -------------------------------------------------------------------


class Alert(Record):
    """A flight alert: e-mail a recipient when chosen events happen to a flight."""

    id: AlertId
    flight_number: FlightNumber
    """The flight."""
    date: Date | None = None
    """Only this departure date; null for every operation."""
    events: list[AlertEvent] = Field(min_length=1, max_length=5)
    """departure, arrival, delay, cancellation, diversion."""
    target_email: Email
    """Who is e-mailed."""
    description: Text = ""
    """Why the alert exists."""
    enabled: bool = True
    """Disabled alerts are not checked."""
    created_at: Annotated[DateTime, CREATED]
    """When it was set up."""


class WatchedFlight(Record):
    """A traveller's flight kept on the watch list."""

    id: WatchId
    flight_number: FlightNumber
    """The flight."""
    date: Date
    """Local departure date."""
    passenger_name: PersonName
    """Who flies."""
    passenger_email: Email
    """Their e-mail."""
    airline: CompanyName
    """Operating airline."""
    origin: Iata
    """Departure airport."""
    destination: Iata
    """Arrival airport."""
    origin_city: City
    """Departure city."""
    destination_city: City
    """Arrival city."""
    scheduled_departure: DateTime
    """Scheduled departure (UTC)."""
    scheduled_arrival: DateTime
    """Scheduled arrival (UTC)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class AlertDelivery(Record):
    """An alert e-mail that was sent."""

    id: DeliveryId
    alert_id: AlertId
    """The alert."""
    flight_number: FlightNumber
    """The flight."""
    date: Date
    """The departure date it is about."""
    event: AlertEvent
    """What happened."""
    sent_to: Email
    """Recipient."""
    message: Text
    """The notice."""
    sent_at: Annotated[DateTime, CREATED]
    """When it was sent."""


def _guard_alert(ctx: Ctx, new: Any, old: Any) -> None:
    if len(set(new.events)) != len(new.events):
        raise RuleViolation("an event is listed twice", field="events", hint="list each event once")


alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="alr",
    create=False,
    filters=("flight_number", "target_email", "enabled", "date"),
    update=("events", "target_email", "description"),
    transitions={
        "enable": Transition("enabled", (False,), True, "turn the flight alert on"),
        "disable": Transition("enabled", (True,), False, "turn the flight alert off"),
    },
    guard_update=_guard_alert,
    title="flight alert",
)
watched = service.resource(
    WatchedFlight,
    name="watched_flight",
    plural="watched_flights",
    prefix="wf",
    create=False,
    get=False,
    filters=("passenger_email", "flight_number", "date", "origin", "destination"),
    search=("passenger_name", "flight_number"),
)
deliveries = service.resource(
    AlertDelivery,
    name="alert_delivery",
    plural="alert_deliveries",
    prefix="dlv",
    create=False,
    get=False,
    filters=("alert_id", "flight_number", "event", "sent_to"),
    delete=False,
)


def _example_alert(ctx: Ctx) -> dict[str, Any]:
    route, day = _some_flight(ctx)
    return {
        "flight_number": route.number,
        "date": day.isoformat(),
        "events": ["departure", "delay"],
        "target_email": f"travel@{ctx.population.home.domain}",
    }


@service.tool(intent="set up an alert for the flight", write=True, example=_example_alert)
def create_alert(
    ctx: Ctx,
    flight_number: FlightNumber,
    events: Annotated[list[AlertEvent], Field(min_length=1, max_length=5)],
    target_email: Email,
    date: Date | None = None,
    description: Text = "",
) -> Alert:
    """E-mail someone when a flight departs, arrives, is delayed, cancelled or diverted.

    The flight must exist; a dated alert must be for a day it operates, today or later. One
    recipient has at most one alert per flight and date.

    Args:
        flight_number: IATA flight number.
        events: Events to be told about.
        target_email: Who is e-mailed.
        date: Only this departure date; omit for every operation.
        description: Why the alert exists.
    """
    route = _route(ctx, flight_number)
    if date is not None:
        if date < ctx.today():
            raise RuleViolation("the flight date has passed", field="date", hint="pick today or a later date")
        _operation(ctx, route, date)
    for other in ctx.where(Alert, flight_number=route.number, target_email=target_email, date=date):
        raise Conflict(
            f"{target_email} already has alert {other.id} for {route.number}",
            field="target_email",
            hint="change that alert's events with flightstatus__update_alert",
        )
    alert = ctx.create(
        Alert, flight_number=route.number, date=date, events=events, target_email=target_email, description=description
    )
    _guard_alert(ctx, alert, None)
    return alert


def _example_watch(ctx: Ctx) -> dict[str, Any]:
    route, day = _some_flight(ctx)
    return {
        "flight_number": route.number,
        "date": day.isoformat(),
        "passenger_name": "Jordan Avery",
        "passenger_email": "jordan.avery@mailbox.net",
    }


@service.tool(intent="add the flight to the watch list", write=True, example=_example_watch)
def watch_flight(
    ctx: Ctx, flight_number: FlightNumber, date: Date, passenger_name: PersonName, passenger_email: Email
) -> WatchedFlight:
    """Put a traveller's flight on the watch list, with its schedule; it must operate on that date.

    Args:
        flight_number: IATA flight number.
        date: Local departure date.
        passenger_name: Who flies.
        passenger_email: Their e-mail.
    """
    route = _route(ctx, flight_number)
    op = _operation(ctx, route, date)
    if ctx.first(WatchedFlight, flight_number=route.number, date=date, passenger_email=passenger_email):
        raise Conflict(
            f"{passenger_email} already watches {route.number} on {date}",
            field="passenger_email",
            hint="list watched flights to see it",
        )
    return ctx.create(
        WatchedFlight,
        flight_number=route.number,
        date=date,
        passenger_name=passenger_name,
        passenger_email=passenger_email,
        airline=AIRLINES[route.airline].name,
        origin=route.origin,
        destination=route.destination,
        origin_city=AIRPORTS[route.origin].city,
        destination_city=AIRPORTS[route.destination].city,
        scheduled_departure=op.sched_dep,
        scheduled_arrival=op.sched_arr,
    )


def _events_of(st: FlightStatus) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    n = st.flight_number
    if st.status == "cancelled":
        out.append(("cancellation", f"{n} on {st.flight_date} is cancelled."))
        return out
    if (st.departure_delay_minutes or 0) >= DELAYED:
        out.append(("delay", f"{n} on {st.flight_date} departs {st.departure_delay_minutes} minutes late."))
    if st.actual_departure is not None:
        out.append(("departure", f"{n} departed {st.origin.iata} at {st.actual_departure:%H:%M} UTC."))
    if st.status == "diverted":
        out.append(("diversion", f"{n} was diverted to {st.diverted_to}."))
    elif st.actual_arrival is not None:
        out.append(("arrival", f"{n} landed at {st.destination.iata} at {st.actual_arrival:%H:%M} UTC."))
    return out


@service.tool(intent="send the flight alerts that are due", write=True)
def check_alerts(ctx: Ctx, flight_number: FlightNumber | None = None) -> list[AlertDelivery]:
    """Check enabled alerts against the flights' current status and e-mail each new event once.

    An undated alert is checked for yesterday's and today's operations.

    Args:
        flight_number: Only alerts of this flight; omit for all.
    """
    seed, today, now = ctx.population.seed, ctx.today(), ctx.now()
    sent: list[AlertDelivery] = []
    for alert in ctx.where(Alert, enabled=True):
        if flight_number is not None and alert.flight_number != _norm(flight_number):
            continue
        route = timetable(seed).get(alert.flight_number)
        if route is None:
            continue
        days = [alert.date] if alert.date else [today - dt.timedelta(days=1), today]
        for day in days:
            if day.weekday() not in route.days:
                continue
            st = _status(_operate(seed, route.number, day, today), now)
            for event, message in _events_of(st):
                if event not in alert.events:
                    continue
                if ctx.first(AlertDelivery, alert_id=alert.id, date=day, event=event) is not None:
                    continue
                sent.append(
                    ctx.create(
                        AlertDelivery,
                        alert_id=alert.id,
                        flight_number=route.number,
                        date=day,
                        event=event,
                        sent_to=alert.target_email,
                        message=message,
                    )
                )
    return sent


# -- seed -----------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff's flights from their home airports on the watch list, alerts on them, alerts already sent."""
    pop = s.population
    today = EPOCH.date()
    table = timetable(pop.seed)
    by_city: dict[str, list[Route]] = {}
    for route in table.values():
        by_city.setdefault(AIRPORTS[route.origin].city, []).append(route)
    travellers = [p for p in pop.employees if p.place.city in by_city][:10]
    for i, person in enumerate(travellers):
        options = sorted(by_city[person.place.city], key=lambda r: r.number)
        for day_offset in (i % 3 - 1, i % 3, i % 3 + 1):
            day = today + dt.timedelta(days=day_offset)
            route = options[(i * 5 + day_offset) % len(options)]
            if day.weekday() in route.days:
                break
        else:
            continue
        op = _operate(pop.seed, route.number, day, today)
        s.create(
            WatchedFlight,
            flight_number=route.number,
            date=day,
            passenger_name=person.name,
            passenger_email=person.email,
            airline=AIRLINES[route.airline].name,
            origin=route.origin,
            destination=route.destination,
            origin_city=AIRPORTS[route.origin].city,
            destination_city=AIRPORTS[route.destination].city,
            scheduled_departure=op.sched_dep,
            scheduled_arrival=op.sched_arr,
            created_at=s.now - dt.timedelta(days=3 + i),
        )
        if i % 3 == 2:
            continue
        events: list[AlertEvent] = ["departure", "arrival", "delay", "cancellation"] if i % 2 else ["delay"]
        alert = s.create(
            Alert,
            flight_number=route.number,
            date=day,
            events=events,
            target_email=person.email,
            description=f"{person.first_name}'s trip",
            enabled=i % 5 != 4,
            created_at=s.now - dt.timedelta(days=2 + i),
        )
        if alert.enabled and day < today:
            st = _status(op, s.now)
            for event, message in _events_of(st):
                if event in alert.events:
                    s.create(
                        AlertDelivery,
                        alert_id=alert.id,
                        flight_number=route.number,
                        date=day,
                        event=event,
                        sent_to=alert.target_email,
                        message=message,
                        sent_at=min(s.now, (st.actual_arrival or st.scheduled_arrival) + dt.timedelta(minutes=5)),
                    )
