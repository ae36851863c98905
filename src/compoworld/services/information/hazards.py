"""Hazardwatch: earthquakes (USGS) and US disaster declarations (FEMA), with watched sites that raise alerts.

Modeled on the USGS Earthquake Catalog API (FDSN event web service ``/fdsnws/event/1/query`` and ``/count``
with ``starttime``, ``endtime``, ``minmagnitude``, ``latitude``/``longitude``/``maxradiuskm``,
``orderby=time|magnitude``; GeoJSON event properties ``mag``, ``magType``, ``place``, ``time``, ``status``
automatic / reviewed, ``tsunami``, ``sig``, PAGER ``alert`` green / yellow / orange / red; the
``summary/{significant|4.5|2.5}_{hour|day|week|month}`` feeds) and FEMA's OpenFEMA
``DisasterDeclarationsSummaries`` v2 (``disasterNumber``, ``state``, ``declarationType`` DR / EM / FM,
``incidentType``, ``declarationTitle``, ``declarationDate``, ``incidentBeginDate``, ``incidentEndDate``,
``designatedArea``, ``iaProgramDeclared``, ``paProgramDeclared``, ``hmProgramDeclared``).

An open-world service: earthquakes are a deterministic draw per seismic region and day from the world seed
(Gutenberg-Richter magnitudes, depths of the region), and declarations a deterministic draw per year, so
every query, count and feed agrees. Stored state is the company's watched sites (as in USGS ENS or a
risk-monitoring tool): an employee's site watches a radius around a point for quakes of a minimum
magnitude and, for a US site, its state's (and county's) FEMA declarations; checking a site turns what
happened since the last check into alerts, each once; alerts are acknowledged then resolved, and a site
with open alerts cannot be deleted.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Latitude, Longitude, SemanticType, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.world.geo import haversine_km

__all__ = ["service"]

service = Service(
    "hazards",
    title="Hazardwatch",
    category="hazard_data",
    modeled_on="USGS Earthquake Catalog API (FDSN event query and count, GeoJSON summary feeds, PAGER alerts) "
    "and FEMA OpenFEMA DisasterDeclarationsSummaries v2, with USGS ENS-style watched sites",
    description="Natural hazards: search and count earthquakes by time, magnitude and distance from a point, "
    "read the USGS summary feeds, look up FEMA disaster declarations by state, type and date, and keep watched "
    "sites that turn nearby quakes and declarations into alerts.",
)

EventId = Annotated[
    str, SemanticType("hazards.earthquake", kind="ref"), StringConstraints(pattern=r"^[a-z]{2}[0-9]{8}$")
]
DisasterNumber = Annotated[int, SemanticType("hazards.declaration", kind="ref"), Field(ge=1, le=9999)]
UsState = Annotated[str, SemanticType("us_state", generic=True), StringConstraints(pattern=r"^[A-Z]{2}$")]
Magnitude = Annotated[float, Field(ge=0, le=10)]
RadiusKm = Annotated[float, Field(gt=0, le=2000)]
SiteId = Annotated[str, IdOf("hazards.site")]
AlertId = Annotated[str, IdOf("hazards.alert")]
Incident = Literal["Hurricane", "Severe Storm", "Flood", "Fire", "Earthquake", "Winter Storm", "Tornado"]
HISTORY_START = dt.date(2000, 1, 1)
MAX_DAYS = 366
FIRST_CHECK_DAYS = 7
"""A site's first check looks back a week, like the USGS past-week feed."""


@dataclass(frozen=True, slots=True)
class _Region:
    name: str
    net: str
    lat: float
    lon: float
    spread: float
    per_day: float
    max_mag: float
    depth: tuple[float, float]
    oceanic: bool
    town: tuple[str, float, float]


_REGIONS: tuple[_Region, ...] = (
    _Region("California", "ci", 35.8, -119.2, 1.8, 1.2, 7.4, (2, 18), False, ("Ridgecrest, CA", 35.62, -117.67)),
    _Region("Alaska", "ak", 60.5, -150.5, 2.5, 3.0, 8.2, (10, 120), True, ("Anchorage, Alaska", 61.22, -149.9)),
    _Region("Japan", "us", 36.5, 140.8, 1.6, 2.0, 8.5, (10, 80), True, ("Iwaki, Japan", 37.05, 140.89)),
    _Region("Chile", "us", -30.0, -71.5, 3.0, 1.5, 8.5, (15, 110), True, ("Coquimbo, Chile", -29.95, -71.34)),
    _Region("Indonesia", "us", -3.5, 122.0, 4.0, 2.0, 8.2, (10, 200), True, ("Kendari, Indonesia", -3.97, 122.51)),
    _Region("Turkey", "us", 38.5, 37.0, 1.8, 0.6, 7.8, (5, 25), False, ("Malatya, Turkey", 38.35, 38.31)),
    _Region("Italy", "us", 42.5, 13.3, 1.2, 0.5, 6.8, (5, 20), False, ("L'Aquila, Italy", 42.35, 13.4)),
    _Region(
        "New Zealand", "us", -41.0, 174.5, 2.0, 0.8, 7.8, (5, 60), True, ("Wellington, New Zealand", -41.29, 174.78)
    ),
    _Region("Mexico", "us", 17.0, -99.5, 1.8, 1.5, 8.0, (10, 70), True, ("Acapulco, Mexico", 16.85, -99.82)),
    _Region("Iceland", "us", 64.0, -21.5, 0.8, 0.4, 6.5, (2, 12), False, ("Grindavik, Iceland", 63.84, -22.43)),
)
_STATES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "CA": (("Los Angeles", "San Francisco", "Kern", "Sonoma", "Butte"), ("Fire", "Fire", "Earthquake", "Flood")),
    "FL": (("Miami-Dade", "Lee", "Pinellas", "Monroe"), ("Hurricane", "Hurricane", "Flood", "Severe Storm")),
    "TX": (("Harris", "Galveston", "Travis", "Nueces"), ("Hurricane", "Severe Storm", "Flood", "Winter Storm")),
    "LA": (("Orleans", "Jefferson", "Calcasieu"), ("Hurricane", "Flood", "Severe Storm")),
    "NY": (("Kings", "Queens", "Suffolk"), ("Winter Storm", "Hurricane", "Flood")),
    "OK": (("Oklahoma", "Tulsa", "Cleveland"), ("Tornado", "Severe Storm", "Winter Storm")),
    "WA": (("King", "Pierce", "Snohomish"), ("Fire", "Flood", "Earthquake", "Winter Storm")),
    "CO": (("Boulder", "El Paso", "Larimer"), ("Fire", "Flood", "Winter Storm")),
    "NC": (("Dare", "New Hanover", "Buncombe"), ("Hurricane", "Flood", "Severe Storm")),
    "AK": (("Anchorage", "Matanuska-Susitna", "Kenai Peninsula"), ("Earthquake", "Flood", "Winter Storm")),
}
_DIRECTIONS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")


@dataclass(frozen=True, slots=True)
class _Quake:
    id: str
    time: dt.datetime
    lat: float
    lon: float
    depth: float
    mag: float
    region: int


@dataclass(frozen=True, slots=True)
class _Decl:
    number: int
    state: str
    kind: str
    incident: str
    title: str
    declared: dt.date
    begin: dt.date
    end: dt.date | None
    areas: tuple[str, ...]
    programs: tuple[bool, bool, bool]


@lru_cache(maxsize=8192)
def _day_quakes(seed: int, region: int, day: dt.date) -> tuple[_Quake, ...]:
    reg = _REGIONS[region]
    r = random.Random(f"hazards:{seed}:{region}:{day.toordinal()}")
    n, p, limit = 0, r.random(), math.exp(-reg.per_day)
    while p > limit:
        n, p = n + 1, p * r.random()
    out = []
    for k in range(n):
        secs = r.randrange(86_400)
        mag = min(reg.max_mag, 2.5 - math.log10(1 - r.random()))
        out.append(
            _Quake(
                f"{reg.net}{day.toordinal() % 100_000:05d}{region}{k:02d}",
                dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC) + dt.timedelta(seconds=secs),
                round(max(-89.0, min(89.0, r.gauss(reg.lat, reg.spread / 2))), 4),
                round(((r.gauss(reg.lon, reg.spread / 2) + 180) % 360) - 180, 4),
                round(r.uniform(*reg.depth), 1),
                round(mag, 1),
                region,
            )
        )
    return tuple(sorted(out, key=lambda q: q.time))


def _quakes(seed: int, now: dt.datetime, start: dt.datetime, end: dt.datetime) -> list[_Quake]:
    day, out = start.date(), list[_Quake]()
    while day <= end.date():
        for i in range(len(_REGIONS)):
            out.extend(q for q in _day_quakes(seed, i, day) if start <= q.time <= min(end, now))
        day += dt.timedelta(days=1)
    return out


@lru_cache(maxsize=64)
def _year_decls(seed: int, year: int) -> tuple[_Decl, ...]:
    r = random.Random(f"hazards-fema:{seed}:{year}")
    out = []
    base = 4200 + 40 * (year - 2015)
    for k in range(24):
        state = r.choice(sorted(_STATES))
        counties, incidents = _STATES[state]
        incident = r.choice(incidents)
        kind = "FM" if incident == "Fire" and k % 3 else "EM" if k % 7 == 0 else "DR"
        number = {"DR": base + k, "EM": 3500 + 20 * (year - 2015) + k % 20, "FM": 5300 + 30 * (year - 2015) + k}[kind]
        begin = dt.date(year, 1, 1) + dt.timedelta(days=r.randrange(350))
        declared = begin + dt.timedelta(days=r.randint(1, 12))
        ends = begin + dt.timedelta(days=r.randint(2, 30))
        title = f"{incident.upper()}S" if incident != "Fire" else f"{r.choice(('CANYON', 'RIDGE', 'CREEK'))} FIRE"
        out.append(
            _Decl(
                number,
                state,
                kind,
                incident,
                title.replace("STORMS", "STORMS AND FLOODING") if incident == "Severe Storm" else title,
                declared,
                begin,
                ends,
                tuple(sorted(r.sample(counties, r.randint(1, len(counties))))),
                (kind == "DR" and r.random() < 0.7, kind != "FM", kind == "DR"),
            )
        )
    return tuple(out)


def _decls(seed: int, today: dt.date) -> list[_Decl]:
    """Declarations made up to ``today``; an incident still running then has no end date."""
    return [
        d if d.end is None or d.end <= today else replace(d, end=None)
        for year in range(2015, today.year + 1)
        for d in _year_decls(seed, year)
        if d.declared <= today
    ]


# -- result models -----------------------------------------------------------------------------------------


class Earthquake(BaseModel):
    """An earthquake (a GeoJSON feature's properties and coordinates)."""

    id: EventId = Field(description="USGS event id (network code and number).")
    time: DateTime = Field(description="Origin time (UTC).")
    latitude: Latitude = Field(description="Epicentre latitude.")
    longitude: Longitude = Field(description="Epicentre longitude.")
    depth_km: float = Field(description="Depth in km.")
    mag: float = Field(description="Magnitude.")
    mag_type: Literal["ml", "mb", "mww"] = Field(description="ml (local, small), mb (body wave) or mww (moment).")
    place: str = Field(description="Where, relative to the nearest town ('12 km NNE of Ridgecrest, CA').")
    region: str = Field(description="Seismic region.")
    status: Literal["automatic", "reviewed"] = Field(description="automatic within a day, then reviewed.")
    alert: Literal["green", "yellow", "orange", "red"] | None = Field(description="PAGER alert level (M4.5+).")
    tsunami: bool = Field(description="Whether a tsunami message was issued.")
    sig: int = Field(description="Significance, 0 to 1000.")
    url: str = Field(description="Event page.")
    distance_km: float | None = Field(description="Distance from the point searched around, if any.")


class Count(BaseModel):
    """How many earthquakes match."""

    count: int = Field(description="Matching events.")
    max_mag: float | None = Field(description="Largest magnitude among them.")


class Declaration(BaseModel):
    """A FEMA disaster declaration."""

    disaster_number: DisasterNumber = Field(description="FEMA disaster number.")
    state: UsState = Field(description="State (USPS code).")
    declaration_type: Literal["DR", "EM", "FM"] = Field(description="DR major disaster, EM emergency, FM fire.")
    incident_type: Incident = Field(description="Kind of incident.")
    declaration_title: str = Field(description="Title.")
    declaration_date: Date = Field(description="When it was declared.")
    incident_begin_date: Date = Field(description="Incident start.")
    incident_end_date: Date | None = Field(description="Incident end (None: ongoing).")
    designated_areas: list[str] = Field(description="Counties designated.")
    ia_program_declared: bool = Field(description="Individual Assistance.")
    pa_program_declared: bool = Field(description="Public Assistance.")
    hm_program_declared: bool = Field(description="Hazard Mitigation.")


def _place(q: _Quake) -> str:
    town, lat, lon = _REGIONS[q.region].town
    km = haversine_km(lat, lon, q.lat, q.lon)
    bearing = math.degrees(math.atan2(q.lon - lon, q.lat - lat)) % 360
    return f"{round(km)} km {_DIRECTIONS[round(bearing / 22.5) % 16]} of {town}"


def _quake(ctx: Ctx, q: _Quake, point: tuple[float, float] | None = None) -> Earthquake:
    level = next((lv for lv, m in (("red", 7.5), ("orange", 6.5), ("yellow", 5.5), ("green", 4.5)) if q.mag >= m), None)
    return Earthquake(
        id=q.id,
        time=q.time,
        latitude=q.lat,
        longitude=q.lon,
        depth_km=q.depth,
        mag=q.mag,
        mag_type="ml" if q.mag < 4 else "mb" if q.mag < 5.5 else "mww",
        place=_place(q),
        region=_REGIONS[q.region].name,
        status="automatic" if ctx.now() - q.time < dt.timedelta(days=1) else "reviewed",
        alert=level,
        tsunami=q.mag >= 6.5 and _REGIONS[q.region].oceanic,
        sig=min(1000, round(q.mag**2 * 14)),
        url=f"https://earthquake.usgs.gov/earthquakes/eventpage/{q.id}",
        distance_km=None if point is None else round(haversine_km(point[0], point[1], q.lat, q.lon), 1),
    )


def _declaration(d: _Decl) -> Declaration:
    return Declaration(
        disaster_number=d.number,
        state=d.state,
        declaration_type=d.kind,
        incident_type=d.incident,
        declaration_title=d.title,
        declaration_date=d.declared,
        incident_begin_date=d.begin,
        incident_end_date=d.end,
        designated_areas=list(d.areas),
        ia_program_declared=d.programs[0],
        pa_program_declared=d.programs[1],
        hm_program_declared=d.programs[2],
    )


def _window(ctx: Ctx, start: dt.datetime | None, end: dt.datetime | None) -> tuple[dt.datetime, dt.datetime]:
    end = end or ctx.now()
    start = start or end - dt.timedelta(days=30)
    if end < start:
        raise RuleViolation(f"endtime {end} is before starttime {start}", field="endtime", hint="swap them")
    if start.date() < HISTORY_START:
        raise RuleViolation(f"the catalog here starts on {HISTORY_START}", field="starttime", hint="start later")
    if (end - start).days >= MAX_DAYS:
        raise RuleViolation(
            f"at most {MAX_DAYS} days per query", field="endtime", hint="split the period into shorter queries"
        )
    return start, end


def _matching(
    ctx: Ctx,
    start: dt.datetime | None,
    end: dt.datetime | None,
    minmagnitude: float | None,
    latitude: float | None,
    longitude: float | None,
    maxradiuskm: float | None,
) -> list[Earthquake]:
    a, b = _window(ctx, start, end)
    given = [x is not None for x in (latitude, longitude, maxradiuskm)]
    if any(given) and not all(given):
        raise RuleViolation(
            "a circle search needs latitude, longitude and maxradiuskm together",
            field="maxradiuskm",
            hint="give all three, or none",
        )
    point = (latitude, longitude) if latitude is not None and longitude is not None else None
    out = [
        _quake(ctx, q, point)
        for q in _quakes(ctx.population.seed, ctx.now(), a, b)
        if minmagnitude is None or q.mag >= minmagnitude
    ]
    return [q for q in out if maxradiuskm is None or (q.distance_km is not None and q.distance_km <= maxradiuskm)]


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search earthquakes", open_world=True, example=fixed_example(minmagnitude=4.5))
def search_earthquakes(
    ctx: Ctx,
    starttime: DateTime | None = None,
    endtime: DateTime | None = None,
    minmagnitude: Magnitude | None = None,
    latitude: Latitude | None = None,
    longitude: Longitude | None = None,
    maxradiuskm: RadiusKm | None = None,
    orderby: Literal["time", "magnitude"] = "time",
    limit: Annotated[int, Field(ge=1, le=200)] = 50,
) -> list[Earthquake]:
    """Search earthquakes (FDSN event query) by time, minimum magnitude and a circle around a point.

    Args:
        starttime: Earliest origin time (default: 30 days before endtime).
        endtime: Latest origin time (default: now); at most 366 days after starttime.
        minmagnitude: Smallest magnitude (the catalog holds M2.5 and up).
        latitude: Centre of a circle search.
        longitude: Centre of a circle search.
        maxradiuskm: Radius of the circle, in km (needs latitude and longitude).
        orderby: time (newest first) or magnitude (largest first).
        limit: Most events.
    """
    found = _matching(ctx, starttime, endtime, minmagnitude, latitude, longitude, maxradiuskm)
    if orderby == "time":
        found.sort(key=lambda q: (q.time, q.id), reverse=True)
    else:
        found.sort(key=lambda q: (-q.mag, q.id))
    return found[:limit]


@service.tool(intent="count earthquakes", open_world=True, example=fixed_example(minmagnitude=5.0))
def count_earthquakes(
    ctx: Ctx,
    starttime: DateTime | None = None,
    endtime: DateTime | None = None,
    minmagnitude: Magnitude | None = None,
    latitude: Latitude | None = None,
    longitude: Longitude | None = None,
    maxradiuskm: RadiusKm | None = None,
) -> Count:
    """Count the earthquakes a search would return (/count), with the largest magnitude.

    Args:
        starttime: Earliest origin time (default: 30 days before endtime).
        endtime: Latest origin time (default: now).
        minmagnitude: Smallest magnitude.
        latitude: Centre of a circle search.
        longitude: Centre of a circle search.
        maxradiuskm: Radius of the circle, in km.
    """
    found = _matching(ctx, starttime, endtime, minmagnitude, latitude, longitude, maxradiuskm)
    return Count(count=len(found), max_mag=max((q.mag for q in found), default=None))


def _example_event(ctx: Ctx) -> dict[str, Any]:
    now = ctx.now()
    return {"event_id": _quakes(ctx.population.seed, now, now - dt.timedelta(days=3), now)[0].id}


@service.tool(intent="get the earthquake", open_world=True, example=_example_event)
def get_earthquake(ctx: Ctx, event_id: EventId) -> Earthquake:
    """Get one earthquake by its USGS event id.

    Args:
        event_id: The event id (e.g. ci40712345).
    """
    region, today = int(event_id[7]), ctx.now().date().toordinal()
    ordinal = today - (today - int(event_id[2:7])) % 100_000
    if region < len(_REGIONS) and ordinal >= HISTORY_START.toordinal():
        for q in _day_quakes(ctx.population.seed, region, dt.date.fromordinal(ordinal)):
            if q.id == event_id and q.time <= ctx.now():
                return _quake(ctx, q)
    raise NotFound(f"no earthquake {event_id}", field="event_id", hint="search with hazards__search_earthquakes")


@service.tool(intent="read an earthquake summary feed", open_world=True)
def get_summary_feed(
    ctx: Ctx,
    level: Literal["significant", "4.5", "2.5"] = "4.5",
    period: Literal["hour", "day", "week", "month"] = "day",
) -> list[Earthquake]:
    """Read a USGS summary feed (summary/{level}_{period}.geojson), newest first.

    Args:
        level: significant (sig 600 and up), 4.5 (M4.5+) or 2.5 (M2.5+).
        period: hour, day, week or month (30 days) back from now.
    """
    span = {"hour": dt.timedelta(hours=1), "day": dt.timedelta(days=1), "week": dt.timedelta(days=7)}
    now = ctx.now()
    start = now - span.get(period, dt.timedelta(days=30))
    found = [_quake(ctx, q) for q in _quakes(ctx.population.seed, now, start, now)]
    keep = [q for q in found if (q.sig >= 600 if level == "significant" else q.mag >= float(level))]
    return sorted(keep, key=lambda q: (q.time, q.id), reverse=True)


@service.tool(intent="list FEMA disaster declarations", open_world=True, example=fixed_example(state="CA"))
def list_declarations(
    ctx: Ctx,
    state: UsState | None = None,
    incident_type: Incident | None = None,
    declaration_type: Literal["DR", "EM", "FM"] | None = None,
    declared_from: Date | None = None,
    declared_to: Date | None = None,
    county: Annotated[str, StringConstraints(min_length=2, max_length=60)] | None = None,
) -> list[Declaration]:
    """List FEMA disaster declarations (DisasterDeclarationsSummaries) from 2015 on, newest first.

    Args:
        state: Only this state (USPS code).
        incident_type: Only this kind of incident.
        declaration_type: DR, EM or FM.
        declared_from: Earliest declaration date.
        declared_to: Latest declaration date.
        county: Only declarations designating this county (needs state).
    """
    if state is not None and state not in _STATES:
        raise NotFound(f"no declarations for {state}", field="state", hint=f"states covered: {', '.join(_STATES)}")
    if county is not None and (state is None or county not in _STATES[state][0]):
        raise NotFound(
            f"no county {county!r} in {state}", field="county", hint="give the state and one of its counties"
        )
    if declared_from and declared_to and declared_to < declared_from:
        raise RuleViolation("declared_to is before declared_from", field="declared_to", hint="swap them")
    found = [
        d
        for d in _decls(ctx.population.seed, ctx.today())
        if (state is None or d.state == state)
        and (incident_type is None or d.incident == incident_type)
        and (declaration_type is None or d.kind == declaration_type)
        and (declared_from is None or d.declared >= declared_from)
        and (declared_to is None or d.declared <= declared_to)
        and (county is None or county in d.areas)
    ]
    return [_declaration(d) for d in sorted(found, key=lambda d: (d.declared, d.number), reverse=True)]


def _find_decl(ctx: Ctx, number: int, field: str = "disaster_number") -> _Decl:
    for d in _decls(ctx.population.seed, ctx.today()):
        if d.number == number:
            return d
    raise NotFound(f"no declaration {number}", field=field, hint="list them with hazards__list_declarations")


def _example_decl(ctx: Ctx) -> dict[str, Any]:
    return {"disaster_number": _decls(ctx.population.seed, ctx.today())[-1].number}


@service.tool(intent="get the disaster declaration", open_world=True, example=_example_decl)
def get_declaration(ctx: Ctx, disaster_number: DisasterNumber) -> Declaration:
    """Get one FEMA disaster declaration with its counties and assistance programs.

    Args:
        disaster_number: The FEMA disaster number.
    """
    return _declaration(_find_decl(ctx, disaster_number))


# -- watched sites -----------------------------------------------------------------------------------------


class Site(Timestamped):
    """A place the company watches for hazards."""

    id: SiteId
    name: Title
    """Its name (unique per owner)."""
    owner_email: Email
    """The employee who watches it."""
    latitude: Latitude
    """Latitude."""
    longitude: Longitude
    """Longitude."""
    radius_km: RadiusKm = 200.0
    """Quakes within this distance count."""
    min_magnitude: Magnitude = 4.0
    """Smallest magnitude that raises an alert."""
    state: UsState | None = None
    """US state for FEMA declarations (None outside the US)."""
    county: str | None = None
    """Only declarations designating this county (needs state)."""
    status: Literal["active", "paused"] = "active"
    """active, or paused (not checked)."""
    last_checked_at: DateTime | None = None
    """Up to when events have been turned into alerts."""


class Alert(Created):
    """A hazard alert raised for a site."""

    id: AlertId
    site_id: SiteId
    """The site."""
    owner_email: Email
    """Who watches the site."""
    source: Literal["usgs", "fema"]
    """usgs (earthquake) or fema (declaration)."""
    ref: str
    """Earthquake event id or FEMA disaster number."""
    title: Text
    """What happened."""
    severity: Literal["info", "warning", "critical"]
    """info, warning or critical."""
    distance_km: float | None = None
    """Distance from the site (earthquakes)."""
    status: Literal["open", "acknowledged", "resolved"] = "open"
    """open, acknowledged or resolved."""
    note: Text = ""
    """What was done."""


def _guard_site(ctx: Ctx, new: Site, old: Site | None) -> None:
    if new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{new.owner_email} is not an employee", field="owner_email", hint="sites belong to staff")
    if new.state is not None and new.state not in _STATES:
        raise RuleViolation(f"FEMA data here covers {', '.join(_STATES)}", field="state", hint="leave state empty")
    if new.county is not None and (new.state is None or new.county not in _STATES[new.state][0]):
        raise RuleViolation(f"county {new.county!r} is not in {new.state}", field="county", hint="check the state")
    for other in ctx.where(Site, owner_email=new.owner_email, name=new.name):
        if other.id != new.id:
            raise Conflict(f"{new.owner_email} already watches {new.name!r}: {other.id}", field="name", hint="rename")


def _guard_site_delete(ctx: Ctx, new: None, old: Site) -> None:
    if ctx.where(Alert, site_id=old.id, status="open"):
        raise RuleViolation(f"site {old.id} has open alerts", field="site_id", hint="resolve or acknowledge them first")
    for a in ctx.where(Alert, site_id=old.id):
        ctx.delete(a)


sites = service.resource(
    Site,
    name="site",
    plural="sites",
    prefix="site",
    create=("name", "owner_email", "latitude", "longitude", "radius_km", "min_magnitude", "state", "county"),
    filters=("owner_email", "status", "state"),
    search=("name",),
    update=("name", "radius_km", "min_magnitude", "state", "county"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "stop checking the site"),
        "resume": Transition("status", ("paused",), "active", "check the site again"),
    },
    guard_create=_guard_site,
    guard_update=_guard_site,
    guard_delete=_guard_site_delete,
    title="watched site",
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="hza",
    create=False,
    filters=("site_id", "owner_email", "source", "severity", "status"),
    search=("title", "note"),
    update=("note",),
    transitions={
        "acknowledge": Transition("status", ("open",), "acknowledged", "acknowledge the alert"),
        "resolve": Transition("status", ("open", "acknowledged"), "resolved", "resolve the alert"),
    },
    title="hazard alert",
)


def _found(seed: int, site: Site, since: dt.datetime, until: dt.datetime) -> list[dict[str, Any]]:
    """Alert fields for what happened around ``site`` in (since, until]."""
    out: list[dict[str, Any]] = []
    for q in _quakes(seed, until, since, until):
        km = haversine_km(site.latitude, site.longitude, q.lat, q.lon)
        if q.time > since and km <= site.radius_km and q.mag >= site.min_magnitude:
            level = "critical" if q.mag >= 6 or (q.mag >= 5 and km < 50) else "warning" if q.mag >= 4.5 else "info"
            title = f"M {q.mag} - {_place(q)} ({round(km)} km from {site.name})"
            out.append({"source": "usgs", "ref": q.id, "title": title, "severity": level, "distance_km": round(km, 1)})
    if site.state is not None:
        for d in _decls(seed, until.date()):
            at = dt.datetime(d.declared.year, d.declared.month, d.declared.day, tzinfo=dt.UTC)
            if d.state == site.state and since < at <= until and (site.county is None or site.county in d.areas):
                title = f"FEMA-{d.number}-{d.kind} {d.state}: {d.title} ({', '.join(d.areas)})"
                level = "critical" if d.kind == "EM" else "warning"
                out.append({"source": "fema", "ref": str(d.number), "title": title, "severity": level})
    return out


@service.tool(
    intent="check a watched site for new hazards",
    write=True,
    example=first_example(Site, "site_id", where={"status": "active"}),
)
def check_site(ctx: Ctx, site_id: SiteId) -> list[Alert]:
    """Turn the quakes and declarations around a site since its last check into alerts; returns the new ones.

    The first check of a site looks back a week.

    Args:
        site_id: The site (active).
    """
    site = ctx.get(Site, site_id, field="site_id")
    if site.status == "paused":
        raise RuleViolation(f"site {site.id} is paused", field="site_id", hint="resume it first")
    now = ctx.now()
    since = site.last_checked_at or site.created_at - dt.timedelta(days=FIRST_CHECK_DAYS)
    since = max(since, now - dt.timedelta(days=MAX_DAYS - 1))
    made = [
        ctx.create(Alert, site_id=site.id, owner_email=site.owner_email, **f)
        for f in _found(ctx.population.seed, site, since, now)
    ]
    ctx.update(site, last_checked_at=now)
    return made


@service.tool(intent="list recent earthquakes near a watched site", example=first_example(Site, "site_id"))
def site_earthquakes(ctx: Ctx, site_id: SiteId, days: Annotated[int, Field(ge=1, le=365)] = 30) -> list[Earthquake]:
    """List the earthquakes within a site's radius over the last days, at any magnitude, newest first.

    Args:
        site_id: The site.
        days: How many days back.
    """
    site = ctx.get(Site, site_id, field="site_id")
    now = ctx.now()
    found = _matching(ctx, now - dt.timedelta(days=days), now, None, site.latitude, site.longitude, site.radius_km)
    return sorted(found, key=lambda q: (q.time, q.id), reverse=True)


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Watched offices: the head office, a Bay Area office, a Tokyo data centre (alerts seeded), a paused site."""
    pop = s.population
    owners = pop.staff("Operations", "Engineering", fallback=3)
    home = pop.home.place
    plans: list[tuple[str, float, float, float, float, str | None, str | None, str]] = [
        (f"{pop.home.name} head office", home.latitude, home.longitude, 300.0, 3.5, None, None, "active"),
        ("Bay Area office", 37.7749, -122.4194, 400.0, 3.0, "CA", None, "active"),
        ("Tokyo data centre", 35.6762, 139.6503, 350.0, 4.0, None, None, "active"),
    ]
    if pop.customers:
        c = pop.customers[0].place
        plans.append((f"{pop.customers[0].name} site", c.latitude, c.longitude, 150.0, 5.0, None, None, "paused"))

    checked = EPOCH - dt.timedelta(days=2)
    for k, (name, lat, lon, radius, mag, state, county, status) in enumerate(plans):
        site = s.create(
            Site,
            name=name,
            owner_email=owners[k % len(owners)].email,
            latitude=lat,
            longitude=lon,
            radius_km=radius,
            min_magnitude=mag,
            state=state,
            county=county,
            status=status,
            last_checked_at=checked if k in (1, 2) else None,
            created_at=s.ago(days=60),
            updated_at=checked if k in (1, 2) else s.ago(days=60),
        )
        if k not in (1, 2):
            continue
        for j, f in enumerate(_found(pop.seed, site, checked - dt.timedelta(days=40), checked)):
            state_ = "resolved" if j % 3 == 0 else "acknowledged" if j % 3 == 1 else "open"
            s.create(Alert, site_id=site.id, owner_email=site.owner_email, status=state_, created_at=checked, **f)
