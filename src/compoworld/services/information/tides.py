"""Tidewatch Marine: tide stations, tide predictions, observed water levels, datums, flood levels and currents.

Modeled on the NOAA CO-OPS Data API (``datagetter`` with ``product`` =
``predictions`` (``interval`` ``hilo``, ``h`` or ``6``), ``water_level``,
``hourly_height``, ``datums``, ``currents_predictions`` with max flood, max ebb
and slack events; ``units`` ``english``/``metric``, ``datum`` MLLW, times in
GMT) and its Metadata API (``/mdapi/prod/webapi/stations.json`` with
``type=waterlevels`` or ``currentpredictions``, ``floodlevels`` with
``nos_minor``/``nos_moderate``/``nos_major``). Station ids are the real ones
(8518750 The Battery, 9414290 San Francisco …).

An open-world service drawn from the world seed: each water-level station's
tide is the sum of five harmonic constituents (M2, S2, N2, K1, O1) with the
station's real range and seeded phases, referred to MLLW (zero is the mean
lower low water of a month of predictions); observed water levels are the
prediction plus a slowly varying surge, and exist only up to now. A current
station's speed follows the tide of its reference station. Stored state is
the marine alerts: a staff member's high-water, low-water or strong-current
alert on a station (thresholds beyond the ordinary tide: above MHHW, below
MLLW, at most 10 knots); checking an alert scans the predictions of the next
hours and moves it to ``triggered`` when the threshold is crossed; a triggered
alert is acknowledged back to ``active``; a paused one is not checked.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Latitude, Longitude, SemanticType
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.world.geo import haversine_km

__all__ = ["service"]

service = Service(
    "tides",
    title="Tidewatch Marine",
    category="marine_data",
    modeled_on="NOAA CO-OPS Data API (predictions, water_level, hourly_height, datums, currents_predictions) "
    "and Metadata API (stations, floodlevels)",
    description="Marine data for US coasts: tide stations and current stations, tide predictions (high and low "
    "or hourly), observed water levels, tidal datums, flood levels, current predictions with slack and "
    "maximum flood and ebb, the stations nearest a place, and marine alerts on high water, low water or "
    "strong currents.",
)

StationId = Annotated[
    str, SemanticType("marine.station", kind="ref"), StringConstraints(pattern=r"^([0-9]{7}|[a-z]{2}[0-9]{4})$")
]
AlertId = Annotated[str, IdOf("tides.alert")]
Units = Literal["english", "metric"]
Interval = Literal["hilo", "h", "6"]
AlertKind = Literal["high_water", "low_water", "strong_current"]
MAX_ALERTS = 10
MAX_DAYS = {"6": 31, "h": 365, "hilo": 365}
FT = 0.3048
_SPEEDS = {"M2": 28.9841042, "S2": 30.0, "N2": 28.4397295, "K1": 15.0410686, "O1": 13.9430356}
_T0 = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)

# id, name, state, lat, lon, M2 amplitude (ft), K1 amplitude (ft), UTC offset of local standard time
_STATIONS: tuple[tuple[str, str, str, float, float, float, float, int], ...] = (
    ("8443970", "Boston", "MA", 42.3539, -71.0503, 4.55, 0.45, -5),
    ("8454000", "Providence", "RI", 41.8071, -71.4012, 2.25, 0.3, -5),
    ("8518750", "The Battery", "NY", 40.7006, -74.0142, 2.2, 0.32, -5),
    ("8638610", "Sewells Point", "VA", 36.9467, -76.3300, 1.2, 0.2, -5),
    ("8665530", "Charleston, Cooper River Entrance", "SC", 32.7808, -79.9236, 2.5, 0.35, -5),
    ("8723214", "Virginia Key", "FL", 25.7314, -80.1618, 1.05, 0.13, -5),
    ("8771450", "Galveston Pier 21", "TX", 29.3100, -94.7933, 0.35, 0.5, -6),
    ("9410170", "San Diego", "CA", 32.7142, -117.1736, 1.75, 1.1, -8),
    ("9414290", "San Francisco", "CA", 37.8063, -122.4659, 1.8, 1.2, -8),
    ("9447130", "Seattle", "WA", 47.6026, -122.3393, 3.5, 2.7, -8),
    ("9455920", "Anchorage", "AK", 61.2380, -149.8900, 12.4, 2.0, -9),
    ("1612340", "Honolulu", "HI", 21.3033, -157.8645, 0.55, 0.5, -10),
)
# id, name, reference water-level station, max speed (knots), flood direction (degrees true)
_CURRENTS: tuple[tuple[str, str, str, float, int], ...] = (
    ("sf1201", "Golden Gate Bridge", "9414290", 4.2, 70),
    ("ny1101", "The Narrows, Midchannel", "8518750", 2.3, 345),
    ("cb0102", "Cape Henry Light", "8638610", 1.6, 300),
    ("pg1515", "Tacoma Narrows", "9447130", 5.8, 180),
    ("bh0101", "Boston Harbor, Deer Island Light", "8443970", 1.9, 255),
)


@dataclass(frozen=True, slots=True)
class _Station:
    id: str
    name: str
    state: str
    lat: float
    lon: float
    kind: str
    amps: dict[str, float]
    offset: int
    ref: str | None = None
    vmax: float = 0.0
    flood_dir: int = 0


def _stations() -> dict[str, _Station]:
    out = {}
    for sid, name, state, lat, lon, m2, k1, off in _STATIONS:
        amps = {"M2": m2, "S2": 0.23 * m2, "N2": 0.2 * m2, "K1": k1, "O1": 0.7 * k1}
        out[sid] = _Station(sid, name, state, lat, lon, "waterlevels", amps, off)
    for cid, name, ref, vmax, direction in _CURRENTS:
        r = out[ref]
        out[cid] = _Station(
            cid, name, r.state, r.lat + 0.02, r.lon + 0.02, "currentpredictions", {}, r.offset, ref, vmax, direction
        )
    return out


_ALL = _stations()


@lru_cache(maxsize=256)
def _phases(seed: int, sid: str) -> dict[str, float]:
    r = random.Random(f"tides:{seed}:{sid}")
    return {c: r.uniform(0, 360) for c in _SPEEDS}


def _raw(seed: int, s: _Station, t: dt.datetime) -> float:
    hours = (t - _T0).total_seconds() / 3600
    ph = _phases(seed, s.id)
    return sum(a * math.cos(math.radians(_SPEEDS[c] * hours - ph[c])) for c, a in s.amps.items())


def _grid(start: dt.datetime, end: dt.datetime, minutes: int) -> list[dt.datetime]:
    n = int((end - start).total_seconds() // (60 * minutes)) + 1
    return [start + dt.timedelta(minutes=minutes * k) for k in range(n)]


def _extremes(values: list[tuple[dt.datetime, float]]) -> list[tuple[dt.datetime, float, str]]:
    out = []
    for (_, a), (t, b), (_, c) in zip(values, values[1:], values[2:], strict=False):
        if b > a and b >= c:
            out.append((t, b, "H"))
        elif b < a and b <= c:
            out.append((t, b, "L"))
    return out


@lru_cache(maxsize=256)
def _datums(seed: int, sid: str) -> dict[str, float]:
    """Tidal datums in feet above MLLW, from 30 days of predictions from the year 2000."""
    s = _ALL[sid]
    pts = [(t, _raw(seed, s, t)) for t in _grid(_T0, _T0 + dt.timedelta(days=30), 6)]
    days: dict[dt.date, list[tuple[float, str]]] = {}
    for t, v, kind in _extremes(pts):
        days.setdefault(t.date(), []).append((v, kind))
    highs = [max(v for v, k in e if k == "H") for e in days.values() if any(k == "H" for _, k in e)]
    lows = [min(v for v, k in e if k == "L") for e in days.values() if any(k == "L" for _, k in e)]
    all_h = [v for e in days.values() for v, k in e if k == "H"]
    all_l = [v for e in days.values() for v, k in e if k == "L"]
    mllw = sum(lows) / len(lows)
    d = {
        "MHHW": sum(highs) / len(highs),
        "MHW": sum(all_h) / len(all_h),
        "MSL": 0.0,
        "MLW": sum(all_l) / len(all_l),
        "MLLW": mllw,
    }
    return {k: round(v - mllw, 3) for k, v in d.items()}


def _height(seed: int, s: _Station, t: dt.datetime) -> float:
    """Predicted height in feet above MLLW."""
    return _raw(seed, s, t) - _raw_mllw(seed, s)


def _raw_mllw(seed: int, s: _Station) -> float:
    return -_datums(seed, s.id)["MSL"]


def _surge(seed: int, sid: str, t: dt.datetime) -> float:
    hours = (t - _T0).total_seconds() / 3600
    k, frac = divmod(hours / 6, 1)

    def knot(i: int) -> float:
        r = random.Random(f"tides-surge:{seed}:{sid}:{i}")
        return r.gauss(0, 0.35) + (r.uniform(1.0, 3.0) if r.random() < 0.02 else 0.0)

    return knot(int(k)) * (1 - frac) + knot(int(k) + 1) * frac


def _speed(seed: int, s: _Station, t: dt.datetime) -> float:
    """Current speed in knots: positive flood, negative ebb (leads the reference tide by a quarter period)."""
    ref = _ALL[s.ref or ""]
    lead = t + dt.timedelta(hours=3.1)
    scale = sum(ref.amps.values())
    return s.vmax * (_height(seed, ref, lead) - _datums(seed, ref.id)["MSL"]) / scale


def _unit(value: float, units: str) -> float:
    return round(value * FT, 3) if units == "metric" else round(value, 3)


def _knots(value: float, units: str) -> float:
    return round(value * 51.4444, 1) if units == "metric" else round(value, 2)


# -- result models ----------------------------------------------------------------------------------------


class Station(BaseModel):
    """A station (mdapi stations.json)."""

    id: StationId = Field(description="Station id (7 digits for water levels).")
    name: str = Field(description="Station name.")
    state: str = Field(description="US state.")
    lat: Latitude = Field(description="Latitude.")
    lng: Longitude = Field(description="Longitude.")
    type: Literal["waterlevels", "currentpredictions"] = Field(description="What it measures or predicts.")
    timezone_offset: int = Field(description="Hours from GMT of local standard time.")
    reference_id: StationId | None = Field(description="For a current station: its reference tide station.")


class NearStation(Station):
    """A station with its distance from a place."""

    distance_km: float = Field(description="Great-circle distance.")


class TideEvent(BaseModel):
    """A predicted or observed water level."""

    t: DateTime = Field(description="Time (GMT).")
    v: float = Field(description="Height above MLLW (feet, or metres for metric).")
    type: Literal["H", "L", ""] = Field(description="H high tide, L low tide, empty for a regular sample.")


class WaterLevel(BaseModel):
    """An observed water level with its prediction."""

    t: DateTime = Field(description="Time (GMT).")
    v: float = Field(description="Observed height above MLLW.")
    predicted: float = Field(description="Predicted height at that time.")
    residual: float = Field(description="Observed minus predicted (storm surge or set-down).")


class Datums(BaseModel):
    """Tidal datums of a station above MLLW (product=datums)."""

    station_id: StationId = Field(description="Station.")
    units: Units = Field(description="english (feet) or metric (metres).")
    MHHW: float = Field(description="Mean higher high water.")
    MHW: float = Field(description="Mean high water.")
    MSL: float = Field(description="Mean sea level.")
    MLW: float = Field(description="Mean low water.")
    MLLW: float = Field(description="Mean lower low water (0).")
    great_diurnal_range: float = Field(description="MHHW - MLLW.")


class FloodLevels(BaseModel):
    """NWS/NOS flood thresholds of a station above MLLW (mdapi floodlevels)."""

    station_id: StationId = Field(description="Station.")
    units: Units = Field(description="english or metric.")
    nos_minor: float = Field(description="Minor (nuisance) flooding threshold.")
    nos_moderate: float = Field(description="Moderate flooding threshold.")
    nos_major: float = Field(description="Major flooding threshold.")


class CurrentEvent(BaseModel):
    """A current prediction event (currents_predictions, interval=MAX_SLACK)."""

    t: DateTime = Field(description="Time (GMT).")
    type: Literal["flood", "ebb", "slack"] = Field(description="Maximum flood, maximum ebb, or slack water.")
    velocity: float = Field(description="Speed (knots, or cm/s for metric); 0 at slack.")
    direction: int = Field(description="Direction of flow (degrees true); flood or ebb direction.")


class AlertEvent(BaseModel):
    """A crossing found by an alert check."""

    t: DateTime = Field(description="When it is predicted (GMT).")
    value: float = Field(description="Predicted height (ft above MLLW) or current speed (knots).")


# -- helpers ----------------------------------------------------------------------------------------------


def _station(station_id: str, kind: str | None = None, field: str = "station_id") -> _Station:
    s = _ALL.get(station_id)
    if s is None:
        raise NotFound(f"no station {station_id}", field=field, hint="find one with tides__list_stations")
    if kind is not None and s.kind != kind:
        other = "a tide station (7 digits)" if kind == "waterlevels" else "a current station"
        raise RuleViolation(f"{station_id} is a {s.kind} station", field=field, hint=f"use {other}")
    return s


def _out(s: _Station) -> Station:
    return Station(
        id=s.id,
        name=s.name,
        state=s.state,
        lat=s.lat,
        lng=s.lon,
        type=s.kind,
        timezone_offset=s.offset,
        reference_id=s.ref,
    )


def _range(begin: dt.date, end: dt.date, limit: int) -> tuple[dt.datetime, dt.datetime]:
    if end < begin:
        raise RuleViolation("end_date is before begin_date", field="end_date", hint="swap the dates")
    if (end - begin).days + 1 > limit:
        raise RuleViolation(
            f"at most {limit} days for this interval", field="end_date", hint="ask for a shorter period"
        )
    start = dt.datetime(begin.year, begin.month, begin.day, tzinfo=dt.UTC)
    return start, start + dt.timedelta(days=(end - begin).days + 1) - dt.timedelta(minutes=6)


def _example_range(ctx: Ctx) -> dict[str, Any]:
    today = ctx.today()
    return {
        "station_id": "8518750",
        "begin_date": today.isoformat(),
        "end_date": (today + dt.timedelta(days=1)).isoformat(),
    }


def _example_past(ctx: Ctx) -> dict[str, Any]:
    today = ctx.today()
    return {
        "station_id": "9414290",
        "begin_date": (today - dt.timedelta(days=2)).isoformat(),
        "end_date": today.isoformat(),
    }


# -- open-world tools -------------------------------------------------------------------------------------


@service.tool(intent="list the stations", open_world=True)
def list_stations(
    ctx: Ctx, type: Literal["waterlevels", "currentpredictions"] | None = None, state: str | None = None
) -> list[Station]:
    """List the stations (mdapi stations.json), optionally of one type or state.

    Args:
        type: waterlevels (tide stations) or currentpredictions (current stations).
        state: Two-letter US state.
    """
    return [_out(s) for s in _ALL.values() if type in (None, s.kind) and state in (None, s.state)]


@service.tool(intent="get the station", open_world=True, example=fixed_example(station_id="8518750"))
def get_station(ctx: Ctx, station_id: StationId) -> Station:
    """Get a station: name, state, position, type, time zone and reference station.

    Args:
        station_id: The station id.
    """
    return _out(_station(station_id))


@service.tool(
    intent="find the stations nearest a place",
    open_world=True,
    example=fixed_example(lat=40.7, lon=-74.0),
)
def find_nearest_stations(
    ctx: Ctx,
    lat: Latitude,
    lon: Longitude,
    type: Literal["waterlevels", "currentpredictions"] = "waterlevels",
    limit: Annotated[int, Field(ge=1, le=10)] = 3,
) -> list[NearStation]:
    """Find the stations nearest a position, closest first.

    Args:
        lat: Latitude.
        lon: Longitude.
        type: waterlevels or currentpredictions.
        limit: How many.
    """
    found = [(haversine_km(lat, lon, s.lat, s.lon), s) for s in _ALL.values() if s.kind == type]
    found.sort(key=lambda x: (x[0], x[1].id))
    return [NearStation(**_out(s).model_dump(), distance_km=round(d, 1)) for d, s in found[:limit]]


@service.tool(intent="get the tide predictions", open_world=True, example=_example_range)
def get_predictions(
    ctx: Ctx,
    station_id: StationId,
    begin_date: Date,
    end_date: Date,
    interval: Interval = "hilo",
    units: Units = "english",
) -> list[TideEvent]:
    """Get tide predictions above MLLW (product=predictions): high and low tides, or hourly or 6-minute heights.

    Args:
        station_id: A tide station.
        begin_date: First day (GMT).
        end_date: Last day (at most 365 days; 31 for 6-minute).
        interval: hilo (high and low tides), h (hourly) or 6 (every 6 minutes).
        units: english (feet) or metric (metres).
    """
    s = _station(station_id, "waterlevels")
    start, end = _range(begin_date, end_date, MAX_DAYS[interval])
    seed = ctx.population.seed
    if interval == "hilo":
        pts = [
            (t, _height(seed, s, t)) for t in _grid(start - dt.timedelta(minutes=6), end + dt.timedelta(minutes=6), 6)
        ]
        return [TideEvent(t=t, v=_unit(v, units), type=k) for t, v, k in _extremes(pts)]
    step = 60 if interval == "h" else 6
    return [TideEvent(t=t, v=_unit(_height(seed, s, t), units), type="") for t in _grid(start, end, step)]


@service.tool(intent="get the observed water levels", open_world=True, example=_example_past)
def get_water_levels(
    ctx: Ctx, station_id: StationId, begin_date: Date, end_date: Date, hourly: bool = False, units: Units = "english"
) -> list[WaterLevel]:
    """Get observed water levels (water_level, 6-minute; hourly_height when hourly) up to now, with residuals.

    Args:
        station_id: A tide station.
        begin_date: First day (GMT; not in the future).
        end_date: Last day (at most 31 days, 365 hourly).
        hourly: Hourly heights instead of 6-minute levels.
        units: english (feet) or metric (metres).
    """
    s = _station(station_id, "waterlevels")
    if begin_date > ctx.today():
        raise RuleViolation("no observations in the future", field="begin_date", hint="use tides__get_predictions")
    start, end = _range(begin_date, end_date, MAX_DAYS["h" if hourly else "6"])
    seed, now = ctx.population.seed, ctx.now()
    out = []
    for t in _grid(start, min(end, now), 60 if hourly else 6):
        p = _height(seed, s, t)
        r = _surge(seed, s.id, t)
        out.append(WaterLevel(t=t, v=_unit(p + r, units), predicted=_unit(p, units), residual=_unit(r, units)))
    return out


@service.tool(intent="get the tidal datums", open_world=True, example=fixed_example(station_id="9414290"))
def get_datums(ctx: Ctx, station_id: StationId, units: Units = "english") -> Datums:
    """Get a station's tidal datums above MLLW: MHHW, MHW, MSL, MLW, MLLW and the great diurnal range.

    Args:
        station_id: A tide station.
        units: english (feet) or metric (metres).
    """
    _station(station_id, "waterlevels")
    d = {k: _unit(v, units) for k, v in _datums(ctx.population.seed, station_id).items()}
    return Datums(station_id=station_id, units=units, great_diurnal_range=d["MHHW"], **d)


def _flood(seed: int, sid: str) -> tuple[float, float, float]:
    mhhw = _datums(seed, sid)["MHHW"]
    rng = max(1.0, mhhw)
    return mhhw + 0.25 * rng + 0.5, mhhw + 0.45 * rng + 1.1, mhhw + 0.65 * rng + 1.8


@service.tool(intent="get the flood levels", open_world=True, example=fixed_example(station_id="8443970"))
def get_flood_levels(ctx: Ctx, station_id: StationId, units: Units = "english") -> FloodLevels:
    """Get a station's minor, moderate and major flood thresholds above MLLW (mdapi floodlevels).

    Args:
        station_id: A tide station.
        units: english (feet) or metric (metres).
    """
    _station(station_id, "waterlevels")
    minor, moderate, major = (_unit(x, units) for x in _flood(ctx.population.seed, station_id))
    return FloodLevels(station_id=station_id, units=units, nos_minor=minor, nos_moderate=moderate, nos_major=major)


def _current_events(
    seed: int, s: _Station, start: dt.datetime, end: dt.datetime
) -> list[tuple[dt.datetime, float, str]]:
    pts = [(t, _speed(seed, s, t)) for t in _grid(start - dt.timedelta(minutes=6), end + dt.timedelta(minutes=6), 6)]
    out = [(t, v, "flood" if k == "H" else "ebb") for t, v, k in _extremes(pts) if (v > 0) == (k == "H")]
    for (_, a), (t, b) in itertools.pairwise(pts):
        if (a < 0) != (b < 0) and start <= t <= end:
            out.append((t, 0.0, "slack"))
    return sorted(o for o in out if start <= o[0] <= end)


def _example_current(ctx: Ctx) -> dict[str, Any]:
    today = ctx.today()
    return {
        "station_id": "sf1201",
        "begin_date": today.isoformat(),
        "end_date": (today + dt.timedelta(days=1)).isoformat(),
    }


@service.tool(intent="get the current predictions", open_world=True, example=_example_current)
def get_current_predictions(
    ctx: Ctx, station_id: StationId, begin_date: Date, end_date: Date, units: Units = "english"
) -> list[CurrentEvent]:
    """Get a current station's predicted slack water and maximum flood and ebb (currents_predictions, MAX_SLACK).

    Args:
        station_id: A current station.
        begin_date: First day (GMT).
        end_date: Last day (at most 31 days).
        units: english (knots) or metric (cm/s).
    """
    s = _station(station_id, "currentpredictions")
    start, end = _range(begin_date, end_date, 31)
    return [
        CurrentEvent(
            t=t,
            type=k,
            velocity=_knots(abs(v), units),
            direction=s.flood_dir if k == "flood" else (s.flood_dir + 180) % 360,
        )
        for t, v, k in _current_events(ctx.population.seed, s, start, end)
    ]


class FloodDay(BaseModel):
    """A day whose observed water level reached a flood threshold."""

    date: Date = Field(description="Day (GMT).")
    max_level: float = Field(description="Highest observed level (ft above MLLW).")
    severity: Literal["minor", "moderate", "major"] = Field(description="Highest threshold reached.")


class TideWindow(BaseModel):
    """A period when the predicted level stays at or above a height."""

    start: DateTime = Field(description="When the level rises to the height.")
    end: DateTime = Field(description="When it falls below again.")
    hours: float = Field(description="Length of the window.")


@service.tool(intent="get the latest water level", open_world=True, example=fixed_example(station_id="8518750"))
def get_latest_water_level(ctx: Ctx, station_id: StationId, units: Units = "english") -> WaterLevel:
    """Get the latest observed 6-minute water level (water_level, date=latest) with its prediction.

    Args:
        station_id: A tide station.
        units: english (feet) or metric (metres).
    """
    s, seed = _station(station_id, "waterlevels"), ctx.population.seed
    now = ctx.now()
    t = now.replace(minute=now.minute - now.minute % 6, second=0, microsecond=0)
    p, r = _height(seed, s, t), _surge(seed, s.id, t)
    return WaterLevel(t=t, v=_unit(p + r, units), predicted=_unit(p, units), residual=_unit(r, units))


@service.tool(intent="list the days with high-tide flooding", open_world=True, example=_example_past)
def list_flood_days(ctx: Ctx, station_id: StationId, begin_date: Date, end_date: Date) -> list[FloodDay]:
    """List the past days whose observed hourly level reached the minor flood level or higher (high tide flooding).

    Args:
        station_id: A tide station.
        begin_date: First day (GMT).
        end_date: Last day (at most 365 days; not after today).
    """
    s, seed = _station(station_id, "waterlevels"), ctx.population.seed
    if end_date > ctx.today():
        raise RuleViolation("end_date is in the future", field="end_date", hint=f"end on or before {ctx.today()}")
    start, end = _range(begin_date, end_date, 365)
    minor, moderate, major = _flood(seed, s.id)
    days: dict[dt.date, float] = {}
    for t in _grid(start, min(end, ctx.now()), 60):
        v = _height(seed, s, t) + _surge(seed, s.id, t)
        days[t.date()] = max(days.get(t.date(), v), v)
    out = []
    for day, top in sorted(days.items()):
        if top >= minor:
            level = "major" if top >= major else "moderate" if top >= moderate else "minor"
            out.append(FloodDay(date=day, max_level=round(top, 3), severity=level))
    return out


def _example_window(ctx: Ctx) -> dict[str, Any]:
    return _example_range(ctx) | {"height": 3.0}


@service.tool(intent="find the windows of water above a height", open_world=True, example=_example_window)
def find_tide_windows(
    ctx: Ctx, station_id: StationId, begin_date: Date, end_date: Date, height: Annotated[float, Field(ge=-5, le=40)]
) -> list[TideWindow]:
    """Find when the predicted tide stays at or above a height (ft above MLLW), e.g. for a vessel's draft.

    Args:
        station_id: A tide station.
        begin_date: First day (GMT).
        end_date: Last day (at most 31 days).
        height: The height needed, feet above MLLW.
    """
    s, seed = _station(station_id, "waterlevels"), ctx.population.seed
    start, end = _range(begin_date, end_date, 31)
    out, opened = [], None
    grid = _grid(start, end, 6)
    for t in grid:
        above = _height(seed, s, t) >= height
        if above and opened is None:
            opened = t
        elif not above and opened is not None:
            out.append(TideWindow(start=opened, end=t, hours=round((t - opened).total_seconds() / 3600, 1)))
            opened = None
    if opened is not None:
        out.append(TideWindow(start=opened, end=grid[-1], hours=round((grid[-1] - opened).total_seconds() / 3600, 1)))
    return out


# -- alerts -----------------------------------------------------------------------------------------------


class Alert(Timestamped):
    """A marine alert on a station."""

    id: AlertId
    station_id: StationId
    """The station watched."""
    station_name: str
    """Its name."""
    kind: AlertKind
    """high_water or low_water (tide station, feet above MLLW), strong_current (current station, knots)."""
    threshold: Annotated[float, Field(ge=-10, le=60)]
    """The level (ft above MLLW) or speed (knots) that triggers it."""
    horizon_hours: Annotated[int, Field(ge=1, le=168)] = 48
    """How far ahead a check looks."""
    owner_email: Email
    """The staff member alerted."""
    status: Literal["active", "triggered", "paused"] = "active"
    """active, triggered (until acknowledged) or paused (not checked)."""
    triggered_at: DateTime | None = None
    """When the crossing is predicted, once triggered."""
    triggered_value: float | None = None
    """The predicted height or speed then."""
    trigger_count: int = 0
    """How often it triggered."""
    last_checked_at: DateTime | None = None
    """When it was last checked."""


def _check_threshold(ctx: Ctx, kind: str, s: _Station, threshold: float) -> None:
    want = "currentpredictions" if kind == "strong_current" else "waterlevels"
    _station(s.id, want)
    seed = ctx.population.seed
    if kind == "high_water" and threshold <= _datums(seed, s.id)["MHHW"]:
        mhhw = _datums(seed, s.id)["MHHW"]
        raise RuleViolation(
            f"{threshold} ft is not above MHHW ({mhhw} ft): it would trigger at every high tide",
            field="threshold",
            hint="set a threshold above MHHW, e.g. the minor flood level from tides__get_flood_levels",
        )
    if kind == "low_water" and threshold >= 0:
        raise RuleViolation(
            f"{threshold} ft is not below MLLW (0 ft)", field="threshold", hint="set a negative threshold"
        )
    if kind == "strong_current" and not 0 < threshold <= 10:
        raise RuleViolation(f"{threshold} knots is out of range", field="threshold", hint="use 0.1 to 10 knots")


def _guard(ctx: Ctx, new: Alert, old: Alert | None) -> None:
    _check_threshold(ctx, new.kind, _ALL[new.station_id], new.threshold)


alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="tal",
    create=False,
    filters=("station_id", "kind", "owner_email", "status"),
    search=("station_name",),
    update=("threshold", "horizon_hours"),
    guard_update=_guard,
    transitions={
        "pause": Transition("status", ("active", "triggered"), "paused", "pause the marine alert"),
        "resume": Transition("status", ("paused",), "active", "resume the marine alert"),
        "acknowledge": Transition("status", ("triggered",), "active", "acknowledge the triggered alert"),
    },
    title="marine alert",
)


def _example_alert(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.population.employees:
        if len(ctx.where(Alert, owner_email=p.email)) >= MAX_ALERTS:
            continue
        for sid in ("8518750", "9414290", "8443970", "9447130", "1612340"):
            if ctx.first(Alert, station_id=sid, kind="high_water", owner_email=p.email) is None:
                minor = round(_flood(ctx.population.seed, sid)[0], 2)
                return {"station_id": sid, "kind": "high_water", "threshold": minor, "owner_email": p.email}
    return None


@service.tool(intent="create a marine alert", write=True, example=_example_alert)
def create_alert(
    ctx: Ctx,
    station_id: StationId,
    kind: AlertKind,
    threshold: Annotated[float, Field(ge=-10, le=60)],
    owner_email: Email,
    horizon_hours: Annotated[int, Field(ge=1, le=168)] = 48,
) -> Alert:
    """Create an alert on a station: high water above, low water below (ft above MLLW) or current above (knots).

    Args:
        station_id: A tide station (high_water, low_water) or current station (strong_current).
        kind: high_water, low_water or strong_current.
        threshold: Above MHHW for high_water, below 0 for low_water, 0.1-10 knots for strong_current.
        owner_email: The employee alerted (at most ten alerts each).
        horizon_hours: How far ahead a check looks (1-168).
    """
    s = _station(station_id)
    _check_threshold(ctx, kind, s, threshold)
    if owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{owner_email} is not an employee", field="owner_email", hint="alerts go to staff")
    same = ctx.first(Alert, station_id=station_id, kind=kind, owner_email=owner_email)
    if same is not None:
        raise Conflict(f"{owner_email} already has alert {same.id} here", field="kind", hint="update its threshold")
    if len(ctx.where(Alert, owner_email=owner_email)) >= MAX_ALERTS:
        raise RuleViolation(f"{owner_email} has {MAX_ALERTS} alerts", field="owner_email", hint="delete one first")
    return ctx.create(
        Alert,
        station_id=station_id,
        station_name=s.name,
        kind=kind,
        threshold=threshold,
        owner_email=owner_email,
        horizon_hours=horizon_hours,
    )


def _crossings(ctx: Ctx, a: Alert) -> list[AlertEvent]:
    s, seed = _ALL[a.station_id], ctx.population.seed
    now = ctx.now()
    start = now.replace(minute=now.minute - now.minute % 6, second=0, microsecond=0)
    end = start + dt.timedelta(hours=a.horizon_hours)
    if a.kind == "strong_current":
        evs = [(t, abs(v)) for t, v, k in _current_events(seed, s, start, end) if k != "slack"]
        return [AlertEvent(t=t, value=round(v, 2)) for t, v in evs if v >= a.threshold]
    pts = [(t, _height(seed, s, t)) for t in _grid(start, end, 6)]
    want = "H" if a.kind == "high_water" else "L"
    hits = [(t, v) for t, v, k in _extremes(pts) if k == want]
    ok = [(t, v) for t, v in hits if (v >= a.threshold if want == "H" else v <= a.threshold)]
    return [AlertEvent(t=t, value=round(v, 3)) for t, v in ok]


@service.tool(
    intent="check the marine alert",
    write=True,
    example=first_example(Alert, "alert_id", where={"status": "active"}),
)
def check_alert(ctx: Ctx, alert_id: AlertId) -> list[AlertEvent]:
    """Scan the predictions of the alert's horizon; if the threshold is crossed, the alert becomes triggered.

    Args:
        alert_id: The alert (active).
    """
    a = ctx.get(Alert, alert_id, field="alert_id")
    if a.status != "active":
        hint = "acknowledge it first" if a.status == "triggered" else "resume it with tides__resume_alert"
        raise RuleViolation(f"alert {a.id} is {a.status}", field="alert_id", hint=hint)
    found = _crossings(ctx, a)
    if found:
        first = found[0]
        ctx.update(
            a,
            status="triggered",
            triggered_at=first.t,
            triggered_value=first.value,
            trigger_count=a.trigger_count + 1,
            last_checked_at=ctx.now(),
        )
    else:
        ctx.update(a, last_checked_at=ctx.now())
    return found


# -- seed -------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Operations' alerts on harbour stations: flood watches, a low-water watch and a strong-current watch."""
    pop = s.population
    staff = pop.staff("Operations", "Facilities", fallback=3)
    plans = (
        ("8518750", "high_water", 1, "active"),
        ("9414290", "high_water", 0, "active"),
        ("8443970", "low_water", -0.8, "active"),
        ("sf1201", "strong_current", 2.0, "active"),
        ("9447130", "high_water", 1, "paused"),
        ("8638610", "high_water", 0, "triggered"),
        ("pg1515", "strong_current", 4.0, "active"),
    )
    for k, (sid, kind, level, status) in enumerate(plans):
        st = _ALL[sid]
        if kind == "high_water":
            mhhw = _datums(pop.seed, sid)["MHHW"]
            threshold = round(_flood(pop.seed, sid)[0], 2) if level else round(mhhw + 0.1, 2)
        else:
            threshold = float(level)
        s.create(
            Alert,
            station_id=sid,
            station_name=st.name,
            kind=kind,
            threshold=threshold,
            horizon_hours=(48, 168, 72, 24)[k % 4],
            owner_email=staff[k % len(staff)].email,
            status=status,
            triggered_at=s.ago(days=3) if status == "triggered" else None,
            triggered_value=round(threshold + 0.2, 2) if status == "triggered" else None,
            trigger_count=2 if status == "triggered" else k % 2,
            last_checked_at=s.ago(days=3 + k),
            created_at=s.ago(days=120 + 9 * k),
            updated_at=s.ago(days=3 + k),
        )
