"""Skycast weather: current conditions, forecasts, history, alerts and air quality anywhere.

Modeled on the OpenWeatherMap One Call API 3.0 (``current``, ``hourly`` for 48
hours, ``daily`` for up to 16 days, ``day_summary``/``timemachine`` history back
to 1979-01-01, ``alerts``) and its Air Pollution API (the 1-5 air quality index
and eight pollutant concentrations in micrograms per cubic metre), with the
``units`` contract ``metric`` (Celsius, m/s), ``imperial`` (Fahrenheit, mph)
and ``standard`` (Kelvin, m/s).

An open-world service: it holds no records. A place is a city of the map
that the ``maps`` service geocodes (the twenty world cities and some sixty real
open-world ones), named (optionally ``"City,CC"``) or within 30 km of given
coordinates, answered with its real coordinates, IANA time zone and a climate
table of that city; any other name or coordinates get a plausible generated
location (near the country's cities when the country is known), the time zone
of the nearest city and a climate derived from latitude. The weather of one place on one local date is drawn from a
generator seeded by the world seed, the place and the date alone (never by
the call), so every tool tells the same story: the current temperature is the
hourly forecast's first hour, lies between the daily minimum and maximum, the
history of a past date matches what the forecast said, and alerts and air
quality follow the same rain, wind and heat. Temperatures follow latitude and
season (southern-hemisphere summers in January), with day-to-day anomalies
correlated over several days.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.types import (
    City,
    Country,
    Date,
    DateTime,
    Latitude,
    Longitude,
    Percent,
    SemanticType,
    Text,
    Timezone,
    Title,
)
from compoworld.services.kit.text import strip_accents
from compoworld.services.kit.time import utc_at
from compoworld.world.geo import CITIES, CityRef, nearest_city

__all__ = ["service"]

service = Service(
    "weather",
    title="Skycast Weather",
    category="weather",
    modeled_on="OpenWeatherMap One Call API 3.0 (current, hourly, daily, day_summary, alerts) and Air Pollution API",
    description="Weather for any city or coordinates: current conditions, hourly and daily forecasts, "
    "the weather of past dates, official weather warnings and air quality.",
)

Units = Literal["metric", "imperial", "standard"]
Severity = Literal["minor", "moderate", "severe", "extreme"]

HISTORY_START = dt.date(1979, 1, 1)
"""The first date with historical weather (as in the One Call API's time machine)."""
FORECAST_DAYS = 16
HOURLY_HOURS = 48
AIR_FORECAST_HOURS = 96
SNAP_KM = 30.0
"""Coordinates this close to a city of the map get that city's weather."""

# -- places and climate ------------------------------------------------------------------------

# Per city: mean temperature in January and July (deg C), share of wet days in January and July,
# mean relative humidity (%), and the typical PM2.5 concentration (ug/m3). The world's twenty
# cities first, then the open-world cities of the map; any other place gets a climate from latitude.
_CLIMATE: dict[str, tuple[float, float, float, float, float, float]] = {
    "Berlin": (0.5, 19.5, 0.45, 0.40, 78, 13),
    "Munich": (-0.5, 18.5, 0.45, 0.50, 77, 12),
    "Paris": (5.0, 20.5, 0.45, 0.30, 76, 14),
    "Lyon": (3.5, 22.0, 0.35, 0.28, 74, 15),
    "Madrid": (6.5, 26.0, 0.22, 0.07, 58, 11),
    "Milan": (2.5, 24.0, 0.25, 0.25, 72, 24),
    "Amsterdam": (3.5, 17.5, 0.55, 0.45, 82, 12),
    "Stockholm": (-1.5, 18.0, 0.45, 0.40, 78, 6),
    "London": (5.5, 19.0, 0.45, 0.35, 76, 11),
    "Manchester": (4.5, 16.5, 0.55, 0.45, 80, 10),
    "New York": (0.5, 25.5, 0.35, 0.35, 64, 9),
    "Chicago": (-4.5, 23.5, 0.35, 0.33, 68, 10),
    "Austin": (11.0, 29.5, 0.22, 0.15, 66, 8),
    "San Francisco": (10.5, 17.0, 0.35, 0.02, 73, 8),
    "Seattle": (5.5, 19.0, 0.60, 0.15, 76, 7),
    "Toronto": (-5.5, 22.0, 0.40, 0.33, 72, 8),
    "Tokyo": (5.5, 26.5, 0.18, 0.40, 64, 12),
    "Singapore": (26.5, 28.0, 0.50, 0.40, 84, 16),
    "Sydney": (23.0, 13.0, 0.38, 0.30, 68, 7),
    "Sao Paulo": (23.0, 16.5, 0.55, 0.15, 78, 18),
    "Hamburg": (1.5, 18.5, 0.50, 0.45, 80, 11),
    "Frankfurt": (1.5, 20.0, 0.42, 0.40, 75, 13),
    "Cologne": (2.5, 19.0, 0.45, 0.42, 77, 13),
    "Marseille": (7.5, 25.0, 0.18, 0.06, 65, 14),
    "Barcelona": (10.0, 25.0, 0.15, 0.12, 70, 14),
    "Rome": (8.0, 25.5, 0.25, 0.07, 70, 15),
    "Rotterdam": (4.0, 18.0, 0.55, 0.45, 82, 13),
    "Gothenburg": (0.0, 17.5, 0.50, 0.40, 80, 6),
    "Edinburgh": (4.0, 15.0, 0.55, 0.45, 81, 7),
    "Dublin": (5.5, 15.5, 0.55, 0.45, 82, 8),
    "Brussels": (3.5, 18.5, 0.55, 0.45, 80, 12),
    "Zurich": (0.5, 19.0, 0.40, 0.45, 76, 10),
    "Vienna": (0.5, 21.0, 0.35, 0.40, 72, 14),
    "Copenhagen": (1.5, 17.5, 0.50, 0.40, 80, 9),
    "Oslo": (-3.0, 17.0, 0.40, 0.40, 76, 7),
    "Helsinki": (-4.0, 18.0, 0.50, 0.38, 80, 6),
    "Warsaw": (-1.5, 19.5, 0.45, 0.42, 78, 20),
    "Prague": (0.0, 19.0, 0.40, 0.40, 75, 17),
    "Lisbon": (11.5, 23.5, 0.40, 0.03, 72, 9),
    "Athens": (10.0, 28.5, 0.25, 0.02, 62, 18),
    "Istanbul": (6.0, 24.5, 0.45, 0.10, 72, 20),
    "Moscow": (-6.5, 19.0, 0.50, 0.40, 78, 14),
    "Reykjavik": (0.0, 11.5, 0.60, 0.45, 78, 5),
    "Cairo": (14.0, 28.5, 0.03, 0.0, 55, 70),
    "Lagos": (27.0, 25.0, 0.05, 0.60, 83, 60),
    "Nairobi": (19.5, 16.0, 0.15, 0.20, 70, 25),
    "Johannesburg": (20.5, 11.0, 0.45, 0.02, 60, 30),
    "Cape Town": (21.5, 12.5, 0.05, 0.40, 72, 12),
    "Dubai": (19.5, 36.0, 0.03, 0.0, 60, 40),
    "Mumbai": (24.5, 28.0, 0.02, 0.85, 75, 45),
    "Bangalore": (22.0, 24.0, 0.02, 0.35, 65, 30),
    "Delhi": (14.0, 31.5, 0.06, 0.50, 60, 95),
    "Bangkok": (27.0, 29.5, 0.05, 0.55, 75, 25),
    "Hong Kong": (16.5, 29.0, 0.15, 0.60, 78, 20),
    "Shanghai": (4.5, 28.5, 0.30, 0.40, 76, 35),
    "Beijing": (-3.0, 27.0, 0.06, 0.45, 55, 45),
    "Seoul": (-2.5, 25.5, 0.15, 0.55, 65, 22),
    "Osaka": (6.0, 28.0, 0.18, 0.40, 65, 12),
    "Jakarta": (27.0, 27.5, 0.60, 0.20, 82, 40),
    "Manila": (26.0, 28.0, 0.10, 0.70, 78, 22),
    "Melbourne": (20.5, 10.0, 0.28, 0.45, 65, 8),
    "Brisbane": (25.5, 15.5, 0.42, 0.22, 68, 7),
    "Perth": (24.5, 13.0, 0.08, 0.55, 58, 8),
    "Auckland": (20.0, 11.0, 0.30, 0.55, 78, 6),
    "Honolulu": (23.0, 27.0, 0.30, 0.25, 70, 4),
    "Anchorage": (-8.0, 15.5, 0.30, 0.40, 72, 5),
    "Los Angeles": (14.0, 21.0, 0.18, 0.01, 65, 12),
    "Denver": (-1.0, 23.5, 0.15, 0.30, 50, 8),
    "Phoenix": (12.5, 35.0, 0.10, 0.12, 35, 10),
    "Boston": (-1.5, 23.0, 0.38, 0.35, 66, 8),
    "Washington": (2.0, 27.0, 0.33, 0.35, 64, 9),
    "Miami": (20.0, 29.0, 0.20, 0.55, 74, 8),
    "Atlanta": (7.0, 27.0, 0.35, 0.38, 68, 10),
    "Dallas": (8.5, 30.0, 0.22, 0.18, 62, 9),
    "Vancouver": (4.0, 18.0, 0.65, 0.20, 78, 6),
    "Montreal": (-9.5, 21.0, 0.45, 0.40, 72, 8),
    "Mexico City": (14.5, 17.5, 0.05, 0.80, 55, 22),
    "Bogota": (13.5, 13.5, 0.30, 0.50, 78, 18),
    "Lima": (23.0, 17.0, 0.02, 0.03, 80, 25),
    "Santiago": (21.0, 8.5, 0.01, 0.20, 70, 25),
    "Buenos Aires": (24.5, 11.0, 0.30, 0.22, 72, 15),
    "Rio de Janeiro": (27.0, 22.0, 0.40, 0.15, 78, 15),
}

_SENDERS: dict[str, str] = {
    "AT": "GeoSphere Austria",
    "AU": "Australian Government Bureau of Meteorology",
    "BR": "Instituto Nacional de Meteorologia",
    "CA": "Environment and Climate Change Canada",
    "CH": "MeteoSwiss",
    "CN": "China Meteorological Administration",
    "DE": "Deutscher Wetterdienst",
    "DK": "Danish Meteorological Institute",
    "ES": "AEMET",
    "FR": "Meteo-France",
    "GB": "Met Office",
    "IE": "Met Eireann",
    "IN": "India Meteorological Department",
    "IT": "Aeronautica Militare - Servizio Meteorologico",
    "JP": "Japan Meteorological Agency",
    "NL": "KNMI",
    "NO": "Norwegian Meteorological Institute",
    "SE": "SMHI",
    "SG": "Meteorological Service Singapore",
    "US": "NWS",
}


@dataclass(frozen=True, slots=True)
class _Spot:
    """A resolved location: what seeds its weather and the climate it follows."""

    key: str
    name: str | None
    country: str | None
    latitude: float
    longitude: float
    timezone: str
    jan: float
    jul: float
    wet_jan: float
    wet_jul: float
    humidity: float
    pm25: float
    climate_latitude: float
    """The latitude the climate is for (the city's centre or the grid cell's)."""


def _fold(text: str) -> str:
    """Lower case without accents or extra spaces ("sao paulo" for "São  Paulo"); other characters are kept."""
    return " ".join(strip_accents(text, ascii_only=False).lower().split())


def _latitude_climate(lat: float) -> tuple[float, float, float, float, float, float]:
    """A climate for a place without a table entry: warm and even near the equator, seasonal towards the poles."""
    a = abs(lat)
    annual = 27.0 - 0.42 * max(0.0, a - 12.0)
    amp = min(17.0, 0.25 * max(0.0, a - 10.0))
    jan, jul = (annual - amp, annual + amp) if lat >= 0 else (annual + amp, annual - amp)
    return round(jan, 2), round(jul, 2), 0.35, 0.3, 72.0, 9.0


def _city_spot(ref: CityRef, lat: float | None = None, lon: float | None = None) -> _Spot:
    """A city of the map (a world city or a real open-world one) at its centre or at given coordinates."""
    jan, jul, wet_jan, wet_jul, hum, pm = _CLIMATE.get(ref.city) or _latitude_climate(ref.latitude)
    return _Spot(
        key=f"city:{ref.city}:{ref.country}",
        name=ref.city,
        country=ref.country,
        latitude=ref.latitude if lat is None else round(lat, 4),
        longitude=ref.longitude if lon is None else round(lon, 4),
        timezone=ref.timezone,
        jan=jan,
        jul=jul,
        wet_jan=wet_jan,
        wet_jul=wet_jul,
        humidity=hum,
        pm25=pm,
        climate_latitude=ref.latitude,
    )


def _generic_spot(lat: float, lon: float, name: str | None, country: str | None) -> _Spot:
    """A place away from the map's cities: weather and a climate from latitude per 0.1-degree cell."""
    lat, lon = round(lat, 4), round(lon, 4)
    cell_lat, cell_lon = round(lat, 1), round(lon, 1)
    jan, jul, wet_jan, wet_jul, hum, pm = _latitude_climate(cell_lat)
    return _Spot(
        key=f"cell:{cell_lat:.1f}:{cell_lon:.1f}",
        name=name,
        country=country,
        latitude=lat,
        longitude=lon,
        timezone=nearest_city(lat, lon)[0].timezone,
        jan=jan,
        jul=jul,
        wet_jan=wet_jan,
        wet_jul=wet_jul,
        humidity=hum,
        pm25=pm,
        climate_latitude=cell_lat,
    )


def _resolve(ctx: Ctx, city: str | None, country: str | None, latitude: float | None, longitude: float | None) -> _Spot:
    """Find the place a call asks about, or refuse a call that names none."""
    if latitude is not None or longitude is not None:
        if latitude is None or longitude is None:
            missing = "latitude" if latitude is None else "longitude"
            raise RuleViolation(
                f"coordinates need both latitude and longitude; {missing} is missing",
                field=missing,
                hint="give both latitude and longitude in decimal degrees, or a city instead",
            )
        ref, metres = nearest_city(latitude, longitude)
        if metres <= SNAP_KM * 1000 and (country is None or country == ref.country):
            return _city_spot(ref, latitude, longitude)
        return _generic_spot(latitude, longitude, city.strip() if city else None, country)
    if city is None:
        raise RuleViolation(
            "no location given",
            field="city",
            hint="give a city (e.g. 'Berlin' or 'Berlin,DE') or both latitude and longitude",
        )
    name = city.strip()
    head, sep, tail = name.rpartition(",")
    if sep and len(tail.strip()) == 2 and tail.strip().isalpha() and head.strip():
        name, country = head.strip(), country or tail.strip().upper()
    if name.islower() or name.isupper():
        name = name.title()
    folded = _fold(name)
    for ref in CITIES:
        if _fold(ref.city) == folded and (country is None or country == ref.country):
            return _city_spot(ref)
    # Not on the map: a stable, plausible location for the name (near the country's cities when known).
    rng = random.Random(f"compoworld-weather:{ctx.population.seed}:geo:{folded}:{country or ''}")
    in_country = sorted((c for c in CITIES if c.country == country), key=lambda c: c.city)
    if in_country:
        base = rng.choice(in_country)
        lat = base.latitude + rng.uniform(-1.5, 1.5)
        lon = base.longitude + rng.uniform(-2.0, 2.0)
    else:
        lat = rng.uniform(-40.0, 62.0)
        lon = rng.uniform(-120.0, 145.0)
    return _generic_spot(lat, lon, name, country)


# -- clock ------------------------------------------------------------------------------------


def _at(day: dt.date, hour: int, offset: int = 0) -> dt.datetime:
    return utc_at(day, hour) - dt.timedelta(seconds=offset)


def _utc_offset(tz: str, when: dt.datetime) -> int:
    """Seconds east of UTC of an IANA time zone at an instant (daylight saving included)."""
    offset = when.astimezone(ZoneInfo(tz)).utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


def _local(spot: _Spot, when: dt.datetime) -> dt.datetime:
    """The wall-clock time at the place (naive)."""
    return (when + dt.timedelta(seconds=_utc_offset(spot.timezone, when))).replace(tzinfo=None)


def _hour_start(spot: _Spot, day: dt.date, hour: int) -> dt.datetime:
    """The UTC instant at which local ``hour`` of local ``day`` begins (the offset of the day's noon)."""
    offset = _utc_offset(spot.timezone, _at(day, 12))
    return _at(day, 0, offset) + dt.timedelta(hours=hour)


def _local_today(ctx: Ctx, spot: _Spot) -> dt.date:
    return _local(spot, ctx.now()).date()


@lru_cache(maxsize=16384)
def _sun(spot: _Spot, day: dt.date) -> tuple[dt.datetime | None, dt.datetime | None, float]:
    """Sunrise, sunset (None in polar day or night) and the sun's noon elevation in degrees."""
    doy = day.timetuple().tm_yday
    decl = 23.44 * math.sin(math.radians(360.0 / 365.0 * (284 + doy)))
    b = math.radians(360.0 / 364.0 * (doy - 81))
    eot = 9.87 * math.sin(2 * b) - 7.53 * math.cos(b) - 1.5 * math.sin(b)
    noon = 720.0 - 4.0 * spot.longitude - eot
    phi, delta = math.radians(spot.latitude), math.radians(decl)
    elevation = 90.0 - abs(spot.latitude - decl)
    cos_w = (math.sin(math.radians(-0.833)) - math.sin(phi) * math.sin(delta)) / (math.cos(phi) * math.cos(delta))
    if not -1.0 < cos_w < 1.0:
        return None, None, elevation
    half = 4.0 * math.degrees(math.acos(cos_w))
    midnight = _at(day, 0)
    rise = midnight + dt.timedelta(seconds=round((noon - half) * 60))
    sets = midnight + dt.timedelta(seconds=round((noon + half) * 60))
    return rise, sets, elevation


# -- the weather of one place on one local date ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Day:
    mean: float
    half_range: float
    clouds: int
    precip_mm: float
    snow: bool
    thunder: bool
    fog: bool
    wind: float
    gust: float
    wind_deg: int
    humidity: float
    pressure: int
    pop: float
    weights: tuple[float, ...]
    cloud_jitter: tuple[int, ...]
    wind_jitter: tuple[float, ...]
    air: tuple[float, ...]


def _seasonal(jan: float, jul: float, day: dt.date) -> float:
    """A yearly cosine through the January and July values (mid-January and mid-July extremes)."""
    doy = day.timetuple().tm_yday
    return (jan + jul) / 2 - (jul - jan) / 2 * math.cos(2 * math.pi * (doy - 15) / 365.25)


@lru_cache(maxsize=8192)
def _shock(seed: int, key: str, day: dt.date) -> float:
    return random.Random(f"compoworld-weather:{seed}:{key}:shock:{day.isoformat()}").gauss(0.0, 1.0)


_ANOMALY_WEIGHTS = (1.0, 0.8, 0.6, 0.4, 0.2)
_ANOMALY_NORM = math.sqrt(sum(w * w for w in _ANOMALY_WEIGHTS))


@lru_cache(maxsize=8192)
def _day(seed: int, spot: _Spot, day: dt.date) -> _Day:
    """The weather of ``spot`` on local date ``day``: a function of the world seed, place and date only."""
    rng = random.Random(f"compoworld-weather:{seed}:{spot.key}:day:{day.isoformat()}")
    sigma = 1.5 + 0.05 * abs(spot.climate_latitude)
    shocks = sum(w * _shock(seed, spot.key, day - dt.timedelta(days=k)) for k, w in enumerate(_ANOMALY_WEIGHTS))
    mean = _seasonal(spot.jan, spot.jul, day) + sigma * shocks / _ANOMALY_NORM
    wet = rng.random() < max(0.02, min(0.95, _seasonal(spot.wet_jan, spot.wet_jul, day)))
    tropical = abs(spot.climate_latitude) < 23.5
    if wet:
        clouds = rng.randint(70, 100)
        thunder = mean > 15 and rng.random() < (0.45 if tropical else 0.2)
        precip = min(120.0, 0.2 + rng.expovariate(1 / (12.0 if thunder or tropical else 5.0)))
    else:
        clouds = rng.choice((rng.randint(0, 10), rng.randint(0, 10), rng.randint(11, 25), rng.randint(26, 50)))
        clouds = rng.choice((clouds, clouds, rng.randint(51, 84), rng.randint(85, 100)))
        thunder, precip = False, 0.0
    snow = wet and mean <= 1.0
    humidity = spot.humidity + (rng.uniform(5, 14) if wet else -rng.uniform(0, 14))
    fog = not wet and humidity > 75 and clouds < 60 and rng.random() < 0.1
    storm = rng.random() < 0.03
    wind = max(0.3, rng.gauss(3.4 + (1.4 if wet else 0.0), 1.5)) + (rng.uniform(7, 13) if storm else 0.0)
    gust = wind * rng.uniform(1.3, 1.9) + (rng.uniform(4, 8) if thunder else 0.0)
    prevailing = 90.0 if tropical else 240.0
    wind_deg = round(prevailing + rng.gauss(0, 60)) % 360
    dry_air = spot.humidity < 65
    half_range = (5.5 if dry_air else 4.0) + (1.5 if clouds < 25 else 0.0) - (1.5 if wet else 0.0)
    half_range = max(1.5, half_range - (1.0 if clouds > 85 else 0.0) + rng.uniform(-0.5, 0.5))
    pressure = round(1013 + rng.gauss(0, 6) - (8 if wet else 0) - (10 if storm else 0))
    pop = rng.uniform(0.6, 1.0) if wet else rng.uniform(0.0, 0.25) * clouds / 100
    weights = [0.0] * 24
    if wet:
        length = rng.randint(1, 4) if thunder else rng.randint(2, 12)
        start = rng.randint(12, 18) if thunder else rng.randint(0, 23)
        hours = [(start + i) % 24 for i in range(length)]
        raw = [rng.uniform(0.2, 1.0) for _ in hours]
        for h, r in zip(hours, raw, strict=True):
            weights[h] = r / sum(raw)
    return _Day(
        mean=mean,
        half_range=half_range,
        clouds=clouds,
        precip_mm=round(precip, 2),
        snow=snow,
        thunder=thunder,
        fog=fog,
        wind=wind,
        gust=gust,
        wind_deg=wind_deg,
        humidity=max(15.0, min(100.0, humidity)),
        pressure=pressure,
        pop=pop,
        weights=tuple(weights),
        cloud_jitter=tuple(rng.randint(-12, 12) for _ in range(24)),
        wind_jitter=tuple(rng.uniform(0.75, 1.25) for _ in range(24)),
        air=tuple([rng.gauss(1.0, 0.2)] + [rng.uniform(0.85, 1.15) for _ in range(24)]),
    )


def _shape(hour: int) -> float:
    """The daily temperature cycle, -1 at 05:00 and +1 at 15:00 local time (rising 10 h, falling 14 h)."""
    if 5 <= hour <= 15:
        return -math.cos(math.pi * (hour - 5) / 10)
    return math.cos(math.pi * ((hour - 15) % 24) / 14)


def _temp(d: _Day, hour: int) -> float:
    return d.mean + d.half_range * _shape(hour) - (1.0 if d.weights[hour] > 0 else 0.0)


def _feels_like(t: float, wind: float, rh: float) -> float:
    """Wind chill below 10 C in wind, heat index above 27 C, else the air temperature."""
    if t <= 10 and wind > 1.34:
        v = float((wind * 3.6) ** 0.16)
        return 13.12 + 0.6215 * t - 11.37 * v + 0.3965 * t * v
    if t >= 27:
        f = t * 9 / 5 + 32
        hi = (
            -42.379
            + 2.04901523 * f
            + 10.14333127 * rh
            - 0.22475541 * f * rh
            - 0.00683783 * f * f
            - 0.05481717 * rh * rh
            + 0.00122874 * f * f * rh
            + 0.00085282 * f * rh * rh
            - 0.00000199 * f * f * rh * rh
        )
        return max(t, (hi - 32) * 5 / 9)
    return t


def _dew_point(t: float, rh: float) -> float:
    g = math.log(max(rh, 1.0) / 100) + 17.62 * t / (243.12 + t)
    return 243.12 * g / (17.62 - g)


# -- result models --------------------------------------------------------------------------------


# What the weather is like, in words: what someone asking about a place's weather is told.
Conditions = Annotated[str, SemanticType("weather.conditions")]


class Condition(BaseModel):
    """A weather condition in OpenWeatherMap's vocabulary."""

    id: int = Field(
        description="Condition code (2xx thunderstorm, 3xx drizzle, 5xx rain, 6xx snow, 7xx "
        "atmosphere, 800 clear, 80x clouds)."
    )
    main: str = Field(description="Condition group, e.g. Rain, Snow, Clouds, Clear.")
    description: Conditions = Field(description="Condition in words, e.g. 'light rain'.")
    icon: str = Field(description="Icon code; ends in d by day and n by night.")


class Location(BaseModel):
    """The place an answer is for."""

    name: City | None = Field(description="City name; None for coordinates away from any named place.")
    country: Country | None = Field(description="ISO 3166-1 alpha-2 country code, if known.")
    latitude: Latitude = Field(description="Latitude in decimal degrees.")
    longitude: Longitude = Field(description="Longitude in decimal degrees.")
    timezone: Timezone = Field(description="IANA time zone of the place.")
    utc_offset_seconds: int = Field(description="Current offset of local time from UTC in seconds.")


class CurrentWeather(BaseModel):
    """Current conditions at a place."""

    location: Location = Field(description="The place.")
    units: Units = Field(description="Unit system of the values.")
    temperature_unit: str = Field(description="Unit of temperatures: C, F or K.")
    wind_speed_unit: str = Field(description="Unit of wind speeds: m/s or mph.")
    observed_at: DateTime = Field(description="Time of the observation.")
    local_time: str = Field(description="Wall-clock time at the place (YYYY-MM-DDTHH:MM).")
    temperature: float = Field(description="Air temperature.")
    feels_like: float = Field(description="Apparent temperature (wind chill or heat index).")
    dew_point: float = Field(description="Dew point temperature.")
    humidity: Percent = Field(description="Relative humidity in percent.")
    pressure_hpa: int = Field(description="Sea-level air pressure in hPa.")
    clouds: Percent = Field(description="Cloud cover in percent.")
    visibility_m: int = Field(description="Visibility in metres (at most 10000).")
    uv_index: float = Field(description="UV index.")
    wind_speed: float = Field(description="Wind speed.")
    wind_gust: float = Field(description="Wind gust speed.")
    wind_deg: int = Field(description="Direction the wind blows from, in degrees (0 = north).")
    wind_direction: str = Field(description="Wind direction as a 16-point compass bearing, e.g. WSW.")
    precipitation_mm: float = Field(description="Rain or snow (water equivalent) in the current hour, in mm.")
    condition: Condition = Field(description="Current condition.")
    sunrise: DateTime | None = Field(description="Today's sunrise; None during polar day or night.")
    sunset: DateTime | None = Field(description="Today's sunset; None during polar day or night.")


class HourlyWeather(BaseModel):
    """The weather of one hour."""

    time: DateTime = Field(description="Start of the hour (UTC).")
    local_time: str = Field(description="Start of the hour as wall-clock time at the place (YYYY-MM-DDTHH:MM).")
    temperature: float = Field(description="Air temperature.")
    feels_like: float = Field(description="Apparent temperature.")
    dew_point: float = Field(description="Dew point temperature.")
    humidity: Percent = Field(description="Relative humidity in percent.")
    pressure_hpa: int = Field(description="Sea-level air pressure in hPa.")
    clouds: Percent = Field(description="Cloud cover in percent.")
    visibility_m: int = Field(description="Visibility in metres (at most 10000).")
    uv_index: float = Field(description="UV index.")
    wind_speed: float = Field(description="Wind speed.")
    wind_gust: float = Field(description="Wind gust speed.")
    wind_deg: int = Field(description="Direction the wind blows from, in degrees.")
    precipitation_probability: Percent = Field(description="Probability of precipitation in percent.")
    rain_mm: float = Field(description="Rain in the hour, in mm.")
    snow_mm: float = Field(description="Snow in the hour (water equivalent), in mm.")
    condition: Condition = Field(description="Condition in the hour.")


class DailyWeather(BaseModel):
    """The weather of one local day."""

    date: Date = Field(description="Local date at the place.")
    sunrise: DateTime | None = Field(description="Sunrise; None during polar day or night.")
    sunset: DateTime | None = Field(description="Sunset; None during polar day or night.")
    temp_min: float = Field(description="Lowest temperature of the day.")
    temp_max: float = Field(description="Highest temperature of the day.")
    temp_morning: float = Field(description="Temperature at 06:00 local time.")
    temp_day: float = Field(description="Temperature at 12:00 local time.")
    temp_evening: float = Field(description="Temperature at 18:00 local time.")
    temp_night: float = Field(description="Temperature at 00:00 local time.")
    feels_like_day: float = Field(description="Apparent temperature at 12:00 local time.")
    dew_point: float = Field(description="Dew point at 12:00 local time.")
    humidity: Percent = Field(description="Mean relative humidity in percent.")
    pressure_hpa: int = Field(description="Mean sea-level pressure in hPa.")
    wind_speed: float = Field(description="Mean wind speed.")
    wind_gust: float = Field(description="Strongest gust of the day.")
    wind_deg: int = Field(description="Prevailing wind direction in degrees.")
    clouds: Percent = Field(description="Mean cloud cover in percent.")
    precipitation_probability: Percent = Field(description="Probability of precipitation in percent.")
    rain_mm: float = Field(description="Total rain in mm.")
    snow_mm: float = Field(description="Total snow (water equivalent) in mm.")
    uv_index: float = Field(description="Maximum UV index.")
    condition: Condition = Field(description="The day's dominant condition.")
    summary: Text = Field(description="The day in one sentence.")


class DailyForecast(BaseModel):
    """A forecast day by day."""

    location: Location = Field(description="The place.")
    units: Units = Field(description="Unit system of the values.")
    temperature_unit: str = Field(description="Unit of temperatures: C, F or K.")
    wind_speed_unit: str = Field(description="Unit of wind speeds: m/s or mph.")
    generated_at: DateTime = Field(description="When the forecast was made.")
    days: list[DailyWeather] = Field(description="One entry per local day, in date order.")


class HourlyForecast(BaseModel):
    """A forecast hour by hour."""

    location: Location = Field(description="The place.")
    units: Units = Field(description="Unit system of the values.")
    temperature_unit: str = Field(description="Unit of temperatures: C, F or K.")
    wind_speed_unit: str = Field(description="Unit of wind speeds: m/s or mph.")
    generated_at: DateTime = Field(description="When the forecast was made.")
    hours: list[HourlyWeather] = Field(description="One entry per UTC hour from the current hour on.")


class HistoricalWeather(BaseModel):
    """The observed weather of a past day."""

    location: Location = Field(description="The place.")
    units: Units = Field(description="Unit system of the values.")
    temperature_unit: str = Field(description="Unit of temperatures: C, F or K.")
    wind_speed_unit: str = Field(description="Unit of wind speeds: m/s or mph.")
    day: DailyWeather = Field(description="Summary of the day.")
    hours: list[HourlyWeather] = Field(description="Hourly observations (for today, the hours so far).")


class WeatherAlert(BaseModel):
    """An official weather warning."""

    sender_name: str = Field(description="The weather service that issued it.")
    event: Title = Field(description="What is warned of, e.g. 'Heavy rain'.")
    severity: Severity = Field(description="Severity: minor, moderate, severe or extreme.")
    start: DateTime = Field(description="When the warning starts.")
    end: DateTime = Field(description="When the warning ends.")
    description: Text = Field(description="The warning's text.")
    tags: list[str] = Field(description="Kinds of hazard, e.g. Rain, Wind, Snow/Ice, Extreme temperature value.")


class WeatherAlerts(BaseModel):
    """Warnings in force or announced for a place."""

    location: Location = Field(description="The place.")
    generated_at: DateTime = Field(description="When the alerts were fetched.")
    days_checked: int = Field(description="How many local days ahead were checked.")
    alerts: list[WeatherAlert] = Field(description="Warnings that have not ended, by start time.")


class AirQualityReading(BaseModel):
    """Air quality in one hour."""

    time: DateTime = Field(description="Start of the UTC hour.")
    aqi: int = Field(ge=1, le=5, description="Air quality index: 1 good, 2 fair, 3 moderate, 4 poor, 5 very poor.")
    aqi_label: str = Field(description="The index in words.")
    dominant_pollutant: str = Field(description="The pollutant that sets the index.")
    co: float = Field(description="Carbon monoxide in ug/m3.")
    no: float = Field(description="Nitrogen monoxide in ug/m3.")
    no2: float = Field(description="Nitrogen dioxide in ug/m3.")
    o3: float = Field(description="Ozone in ug/m3.")
    so2: float = Field(description="Sulphur dioxide in ug/m3.")
    pm2_5: float = Field(description="Fine particulate matter (PM2.5) in ug/m3.")
    pm10: float = Field(description="Coarse particulate matter (PM10) in ug/m3.")
    nh3: float = Field(description="Ammonia in ug/m3.")


class AirQuality(BaseModel):
    """Current air quality and its hourly forecast."""

    location: Location = Field(description="The place.")
    current: AirQualityReading = Field(description="The current hour.")
    forecast: list[AirQualityReading] = Field(description="The following hours.")


# -- building answers ------------------------------------------------------------------------------

_COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")


@dataclass(frozen=True, slots=True)
class _Conv:
    units: str
    temp_unit: str
    wind_unit: str

    def t(self, celsius: float) -> float:
        if self.units == "imperial":
            return round(celsius * 9 / 5 + 32, 2)
        if self.units == "standard":
            return round(celsius + 273.15, 2)
        return round(celsius, 2)

    def w(self, ms: float) -> float:
        return round(ms * 2.23694 if self.units == "imperial" else ms, 2)


def _conv(units: str) -> _Conv:
    temp_unit = {"metric": "C", "imperial": "F", "standard": "K"}[units]
    return _Conv(units, temp_unit, "mph" if units == "imperial" else "m/s")


def _location(spot: _Spot, when: dt.datetime) -> Location:
    return Location(
        name=spot.name,
        country=spot.country,
        latitude=spot.latitude,
        longitude=spot.longitude,
        timezone=spot.timezone,
        utc_offset_seconds=_utc_offset(spot.timezone, when),
    )


def _condition(code: int, main: str, description: str, icon: str, daytime: bool) -> Condition:
    return Condition(id=code, main=main, description=description, icon=icon + ("d" if daytime else "n"))


def _cloud_condition(clouds: int, daytime: bool) -> Condition:
    if clouds <= 10:
        return _condition(800, "Clear", "clear sky", "01", daytime)
    if clouds <= 25:
        return _condition(801, "Clouds", "few clouds", "02", daytime)
    if clouds <= 50:
        return _condition(802, "Clouds", "scattered clouds", "03", daytime)
    if clouds <= 84:
        return _condition(803, "Clouds", "broken clouds", "04", daytime)
    return _condition(804, "Clouds", "overcast clouds", "04", daytime)


def _precip_condition(d: _Day, amount: float, heavy: float, daytime: bool) -> Condition:
    """Condition of ``amount`` mm of precipitation; ``heavy`` is the heavy threshold (per hour or day)."""
    if d.thunder:
        if amount >= heavy:
            return _condition(202, "Thunderstorm", "thunderstorm with heavy rain", "11", daytime)
        return _condition(201, "Thunderstorm", "thunderstorm with rain", "11", daytime)
    if d.snow:
        if amount >= heavy / 2:
            return _condition(602, "Snow", "heavy snow", "13", daytime)
        if amount >= heavy / 8:
            return _condition(601, "Snow", "snow", "13", daytime)
        return _condition(600, "Snow", "light snow", "13", daytime)
    if amount < heavy / 20:
        return _condition(300, "Drizzle", "light intensity drizzle", "09", daytime)
    if amount < heavy / 4:
        return _condition(500, "Rain", "light rain", "10", daytime)
    if amount < heavy:
        return _condition(501, "Rain", "moderate rain", "10", daytime)
    return _condition(502, "Rain", "heavy intensity rain", "09", daytime)


@dataclass(frozen=True, slots=True)
class _Hour:
    start: dt.datetime
    local: dt.datetime
    temp: float
    humidity: float
    clouds: int
    wind: float
    gust: float
    wind_deg: int
    precip: float
    pressure: int
    visibility: int
    uv: float
    pop: float
    condition: Condition


def _uv_clear(elevation: float) -> float:
    return float(12.5 * math.sin(math.radians(max(0.0, elevation))) ** 2.5)


@lru_cache(maxsize=16384)
def _hour(seed: int, spot: _Spot, day: dt.date, h: int) -> _Hour:
    d = _day(seed, spot, day)
    start = _hour_start(spot, day, h)
    rise, sets, elevation = _sun(spot, day)
    mid = start + dt.timedelta(minutes=30)
    if rise is not None and sets is not None:
        daytime = rise <= mid < sets
        sun = math.sin(math.pi * (mid - rise).total_seconds() / (sets - rise).total_seconds()) if daytime else 0.0
    else:
        daytime = elevation > 0
        sun = 0.6 if daytime else 0.0
    precip = d.precip_mm * d.weights[h]
    clouds = max(0, min(100, d.clouds + d.cloud_jitter[h]))
    if precip > 0:
        clouds = max(clouds, 85)
    temp = _temp(d, h)
    shape = _shape(h)
    humidity = max(10.0, min(100.0, d.humidity - 2.5 * d.half_range * shape + (8.0 if precip > 0 else 0.0)))
    fog_now = d.fog and 4 <= h <= 9
    if fog_now:
        visibility = 300 + (d.cloud_jitter[h] + 12) * 25
        condition = _condition(741, "Fog", "fog", "50", daytime)
    elif precip > 0:
        visibility = 2000 if d.snow else (4000 if precip >= 4 else 8000)
        condition = _precip_condition(d, precip, 4.0, daytime)
    else:
        visibility = 10000
        condition = _cloud_condition(clouds, daytime)
    uv = _uv_clear(elevation) * max(0.0, sun) ** 1.3 * (1 - 0.6 * clouds / 100)
    return _Hour(
        start=start,
        local=_local(spot, start),
        temp=temp,
        humidity=humidity,
        clouds=clouds,
        wind=d.wind * d.wind_jitter[h] * (1 + 0.2 * shape),
        gust=d.gust * d.wind_jitter[h],
        wind_deg=(d.wind_deg + d.cloud_jitter[h] * 2) % 360,
        precip=precip,
        pressure=d.pressure + d.cloud_jitter[h] // 6,
        visibility=visibility,
        uv=uv,
        pop=max(d.pop, 0.9) if precip > 0 else min(d.pop, 0.3),
        condition=condition,
    )


def _hour_at(seed: int, spot: _Spot, when: dt.datetime) -> _Hour:
    local = _local(spot, when)
    return _hour(seed, spot, local.date(), local.hour)


def _hourly_model(h: _Hour, snow: bool, cv: _Conv) -> HourlyWeather:
    return HourlyWeather(
        time=h.start,
        local_time=h.local.strftime("%Y-%m-%dT%H:%M"),
        temperature=cv.t(h.temp),
        feels_like=cv.t(_feels_like(h.temp, h.wind, h.humidity)),
        dew_point=cv.t(_dew_point(h.temp, h.humidity)),
        humidity=round(h.humidity),
        pressure_hpa=h.pressure,
        clouds=h.clouds,
        visibility_m=h.visibility,
        uv_index=round(h.uv, 2),
        wind_speed=cv.w(h.wind),
        wind_gust=cv.w(h.gust),
        wind_deg=h.wind_deg,
        precipitation_probability=round(100 * h.pop),
        rain_mm=0.0 if snow else round(h.precip, 2),
        snow_mm=round(h.precip, 2) if snow else 0.0,
        condition=h.condition,
    )


def _daily_model(seed: int, spot: _Spot, day: dt.date, cv: _Conv) -> DailyWeather:
    d = _day(seed, spot, day)
    hours = [_hour(seed, spot, day, h) for h in range(24)]
    temps = [h.temp for h in hours]
    rise, sets, elevation = _sun(spot, day)
    if d.precip_mm > 0:
        condition = _precip_condition(d, d.precip_mm, 20.0, True)
    elif d.fog:
        condition = _condition(741, "Fog", "fog", "50", True)
    else:
        condition = _cloud_condition(d.clouds, True)
    t_min, t_max = min(temps), max(temps)
    unit = cv.temp_unit
    parts = [
        f"{condition.description.capitalize()}, high {round(cv.t(t_max))} {unit} and low {round(cv.t(t_min))} {unit}"
    ]
    if d.precip_mm > 0:
        parts.append(f"{d.precip_mm:.1f} mm of {'snow' if d.snow else 'rain'}")
    if d.gust >= 14:
        parts.append(f"gusts up to {round(cv.w(d.gust))} {cv.wind_unit}")
    if d.fog:
        parts.append("fog in the morning")
    noon = hours[12]
    return DailyWeather(
        date=day,
        sunrise=rise,
        sunset=sets,
        temp_min=cv.t(t_min),
        temp_max=cv.t(t_max),
        temp_morning=cv.t(temps[6]),
        temp_day=cv.t(temps[12]),
        temp_evening=cv.t(temps[18]),
        temp_night=cv.t(temps[0]),
        feels_like_day=cv.t(_feels_like(noon.temp, noon.wind, noon.humidity)),
        dew_point=cv.t(_dew_point(noon.temp, noon.humidity)),
        humidity=round(sum(h.humidity for h in hours) / 24),
        pressure_hpa=d.pressure,
        wind_speed=cv.w(sum(h.wind for h in hours) / 24),
        wind_gust=cv.w(max(h.gust for h in hours)),
        wind_deg=d.wind_deg,
        clouds=round(sum(h.clouds for h in hours) / 24),
        precipitation_probability=round(100 * max(h.pop for h in hours)),
        rain_mm=0.0 if d.snow else d.precip_mm,
        snow_mm=d.precip_mm if d.snow else 0.0,
        uv_index=round(_uv_clear(elevation) * (1 - 0.6 * d.clouds / 100), 2),
        condition=condition,
        summary=", ".join(parts) + ".",
    )


def _home_city(ctx: Ctx) -> dict[str, Any]:
    return {"city": ctx.population.home.place.city}


# -- tools -----------------------------------------------------------------------------------------


@service.tool(intent="check the current weather", open_world=True, example=_home_city)
def current_weather(
    ctx: Ctx,
    city: City | None = None,
    country: Country | None = None,
    latitude: Latitude | None = None,
    longitude: Longitude | None = None,
    units: Units = "metric",
) -> CurrentWeather:
    """Get the current weather at a city or at coordinates.

    Give a city (``Berlin`` or ``Berlin,DE``) or both latitude and longitude.

    Args:
        city: City name, optionally followed by a comma and an ISO country code.
        country: ISO 3166-1 alpha-2 code narrowing the city down.
        latitude: Latitude in decimal degrees (with longitude, instead of a city).
        longitude: Longitude in decimal degrees (with latitude, instead of a city).
        units: metric (C, m/s), imperial (F, mph) or standard (K, m/s).
    """
    spot = _resolve(ctx, city, country, latitude, longitude)
    seed, now, cv = ctx.population.seed, ctx.now(), _conv(units)
    h = _hour_at(seed, spot, now)
    rise, sets, _ = _sun(spot, h.local.date())
    return CurrentWeather(
        location=_location(spot, now),
        units=units,
        temperature_unit=cv.temp_unit,
        wind_speed_unit=cv.wind_unit,
        observed_at=now,
        local_time=_local(spot, now).strftime("%Y-%m-%dT%H:%M"),
        temperature=cv.t(h.temp),
        feels_like=cv.t(_feels_like(h.temp, h.wind, h.humidity)),
        dew_point=cv.t(_dew_point(h.temp, h.humidity)),
        humidity=round(h.humidity),
        pressure_hpa=h.pressure,
        clouds=h.clouds,
        visibility_m=h.visibility,
        uv_index=round(h.uv, 2),
        wind_speed=cv.w(h.wind),
        wind_gust=cv.w(h.gust),
        wind_deg=h.wind_deg,
        wind_direction=_COMPASS[round(h.wind_deg / 22.5) % 16],
        precipitation_mm=round(h.precip, 2),
        condition=h.condition,
        sunrise=rise,
        sunset=sets,
    )


def _example_daily(ctx: Ctx) -> dict[str, Any]:
    return {"city": ctx.population.home.place.city, "days": 7}


@service.tool(intent="get the weather forecast for the coming days", open_world=True, example=_example_daily)
def daily_forecast(
    ctx: Ctx,
    city: City | None = None,
    country: Country | None = None,
    latitude: Latitude | None = None,
    longitude: Longitude | None = None,
    days: Annotated[int, Field(ge=1, le=FORECAST_DAYS)] = 8,
    start_date: Date | None = None,
    units: Units = "metric",
) -> DailyForecast:
    """Get a day-by-day forecast for up to 16 days from today (local dates at the place).

    Give a city or both latitude and longitude. Forecasts reach 15 days past
    today; for past dates use the historical weather instead.

    Args:
        city: City name, optionally followed by a comma and an ISO country code.
        country: ISO 3166-1 alpha-2 code narrowing the city down.
        latitude: Latitude in decimal degrees (with longitude, instead of a city).
        longitude: Longitude in decimal degrees (with latitude, instead of a city).
        days: Number of days, 1 to 16.
        start_date: First day of the forecast (default: today at the place).
        units: metric (C, m/s), imperial (F, mph) or standard (K, m/s).
    """
    spot = _resolve(ctx, city, country, latitude, longitude)
    today = _local_today(ctx, spot)
    last_day = today + dt.timedelta(days=FORECAST_DAYS - 1)
    first = start_date or today
    if first < today:
        raise RuleViolation(
            f"the forecast starts today ({today}); {first} is in the past",
            field="start_date",
            hint="use weather__historical_weather for past dates",
        )
    if first > last_day:
        raise RuleViolation(
            f"forecasts reach {last_day} at the latest; {first} is too far ahead",
            field="start_date",
            hint=f"ask for a start date between {today} and {last_day}",
        )
    if first + dt.timedelta(days=days - 1) > last_day:
        raise RuleViolation(
            f"{days} days from {first} go past the forecast horizon ({last_day})",
            field="days",
            hint=f"ask for at most {(last_day - first).days + 1} days from {first}",
        )
    cv = _conv(units)
    seed = ctx.population.seed
    return DailyForecast(
        location=_location(spot, ctx.now()),
        units=units,
        temperature_unit=cv.temp_unit,
        wind_speed_unit=cv.wind_unit,
        generated_at=ctx.now(),
        days=[_daily_model(seed, spot, first + dt.timedelta(days=k), cv) for k in range(days)],
    )


def _example_hourly(ctx: Ctx) -> dict[str, Any]:
    place = ctx.population.home.place
    return {"latitude": place.latitude, "longitude": place.longitude, "hours": 12}


@service.tool(intent="get the hour-by-hour forecast", open_world=True, example=_example_hourly)
def hourly_forecast(
    ctx: Ctx,
    city: City | None = None,
    country: Country | None = None,
    latitude: Latitude | None = None,
    longitude: Longitude | None = None,
    hours: Annotated[int, Field(ge=1, le=HOURLY_HOURS)] = 24,
    units: Units = "metric",
) -> HourlyForecast:
    """Get an hour-by-hour forecast for up to 48 hours, starting with the current hour.

    Args:
        city: City name, optionally followed by a comma and an ISO country code.
        country: ISO 3166-1 alpha-2 code narrowing the city down.
        latitude: Latitude in decimal degrees (with longitude, instead of a city).
        longitude: Longitude in decimal degrees (with latitude, instead of a city).
        hours: Number of hours, 1 to 48.
        units: metric (C, m/s), imperial (F, mph) or standard (K, m/s).
    """
    spot = _resolve(ctx, city, country, latitude, longitude)
    now, cv, seed = ctx.now(), _conv(units), ctx.population.seed
    first = now.replace(minute=0, second=0, microsecond=0)
    out = []
    for k in range(hours):
        when = first + dt.timedelta(hours=k)
        h = _hour_at(seed, spot, when)
        hourly = _hourly_model(h, _day(seed, spot, h.local.date()).snow, cv)
        # Forecast hours are UTC hours (no repeats when the clocks go back; half-hour zones show HH:30).
        local = _local(spot, when).strftime("%Y-%m-%dT%H:%M")
        out.append(hourly.model_copy(update={"time": when, "local_time": local}))
    return HourlyForecast(
        location=_location(spot, now),
        units=units,
        temperature_unit=cv.temp_unit,
        wind_speed_unit=cv.wind_unit,
        generated_at=now,
        hours=out,
    )


def _example_history(ctx: Ctx) -> dict[str, Any]:
    return {"city": ctx.population.home.place.city, "date": (ctx.today() - dt.timedelta(days=30)).isoformat()}


@service.tool(intent="look up what the weather was on a past date", open_world=True, example=_example_history)
def historical_weather(
    ctx: Ctx,
    date: Date,
    city: City | None = None,
    country: Country | None = None,
    latitude: Latitude | None = None,
    longitude: Longitude | None = None,
    units: Units = "metric",
) -> HistoricalWeather:
    """Get the observed weather of a past day (1979-01-01 up to today) with its hourly observations.

    Args:
        date: The local date at the place; today gives the hours observed so far.
        city: City name, optionally followed by a comma and an ISO country code.
        country: ISO 3166-1 alpha-2 code narrowing the city down.
        latitude: Latitude in decimal degrees (with longitude, instead of a city).
        longitude: Longitude in decimal degrees (with latitude, instead of a city).
        units: metric (C, m/s), imperial (F, mph) or standard (K, m/s).
    """
    spot = _resolve(ctx, city, country, latitude, longitude)
    now = ctx.now()
    today = _local_today(ctx, spot)
    if date > today:
        raise RuleViolation(
            f"{date} has not happened yet at {spot.name or 'this place'} (local date {today})",
            field="date",
            hint="use weather__daily_forecast for today and future dates",
        )
    if date < HISTORY_START:
        raise RuleViolation(
            f"historical weather starts on {HISTORY_START}; {date} is earlier",
            field="date",
            hint=f"ask for a date from {HISTORY_START} on",
        )
    seed, cv = ctx.population.seed, _conv(units)
    snow = _day(seed, spot, date).snow
    hours = [_hour(seed, spot, date, h) for h in range(24)]
    return HistoricalWeather(
        location=_location(spot, _hour_start(spot, date, 12)),
        units=units,
        temperature_unit=cv.temp_unit,
        wind_speed_unit=cv.wind_unit,
        day=_daily_model(seed, spot, date, cv),
        hours=[_hourly_model(h, snow, cv) for h in hours if h.start <= now],
    )


def _alerts_for_day(seed: int, spot: _Spot, day: dt.date) -> list[WeatherAlert]:
    d = _day(seed, spot, day)
    hours = [_hour(seed, spot, day, h) for h in range(24)]
    t_min, t_max = min(h.temp for h in hours), max(h.temp for h in hours)
    sender = _SENDERS.get(spot.country or "", "National Weather Service")
    if spot.country == "US" and spot.name:
        sender = f"NWS {spot.name}"
    wet_hours = [h for h in range(24) if d.weights[h] > 0]
    place = spot.name or f"{spot.latitude:.2f}, {spot.longitude:.2f}"
    found: list[tuple[str, Severity, int, int, str, list[str]]] = []
    if wet_hours:
        span = (min(wet_hours), max(wet_hours) + 1)
        if d.thunder:
            level: Severity = "moderate" if d.precip_mm >= 15 or d.gust >= 18 else "minor"
            found.append(
                (
                    "Thunderstorms",
                    level,
                    *span,
                    f"Thunderstorms are expected in {place} with {d.precip_mm:.0f} mm of rain and gusts "
                    f"up to {d.gust:.0f} m/s. Lightning, hail and local flooding are possible.",
                    ["Thunderstorm"],
                )
            )
        if d.snow and d.precip_mm >= 5:
            level = "severe" if d.precip_mm >= 15 else "moderate"
            found.append(
                (
                    "Heavy snowfall" if level == "severe" else "Snowfall",
                    level,
                    *span,
                    f"About {d.precip_mm:.0f} cm of fresh snow is expected in {place}. Roads and paths "
                    "may be slippery; allow extra travel time.",
                    ["Snow/Ice"],
                )
            )
        elif not d.snow and d.precip_mm >= 20:
            level = "severe" if d.precip_mm >= 40 else "moderate"
            found.append(
                (
                    "Heavy rain",
                    level,
                    *span,
                    f"{d.precip_mm:.0f} mm of rain is expected in {place}. Local flooding of roads and "
                    "basements is possible.",
                    ["Rain", "Flood"],
                )
            )
        if not d.snow and t_min < 0:
            found.append(
                (
                    "Black ice",
                    "moderate",
                    *span,
                    f"Rain falling on frozen ground in {place} (low of {round(t_min)} C) will cause black ice.",
                    ["Snow/Ice"],
                )
            )
    if d.gust >= 17:
        level = "severe" if d.gust >= 24 else "moderate"
        found.append(
            (
                "Storm" if level == "severe" else "Wind gusts",
                level,
                6,
                24,
                f"Gusts up to {d.gust:.0f} m/s ({d.gust * 3.6:.0f} km/h) are expected in {place}. "
                "Secure loose objects; falling branches are possible.",
                ["Wind"],
            )
        )
    heat = max(31.0, _seasonal(spot.jan, spot.jul, day) + 11.0)
    if t_max >= heat:
        level = "severe" if t_max >= heat + 5 else "moderate"
        found.append(
            (
                "Extreme heat" if level == "severe" else "Heat",
                level,
                11,
                20,
                f"Temperatures up to {round(t_max)} C are expected in {place}. Drink plenty, avoid exertion "
                "in the afternoon and check on vulnerable people.",
                ["Extreme temperature value"],
            )
        )
    if t_min <= -6:
        level = "severe" if t_min <= -18 else ("moderate" if t_min <= -10 else "minor")
        found.append(
            (
                "Severe frost" if level != "minor" else "Frost",
                level,
                0,
                10,
                f"Temperatures down to {round(t_min)} C are expected in {place} overnight.",
                ["Extreme temperature value"],
            )
        )
    if d.fog:
        found.append(
            (
                "Dense fog",
                "minor",
                4,
                10,
                f"Dense fog with visibility below 500 m is expected in {place} in the morning.",
                ["Fog"],
            )
        )
    return [
        WeatherAlert(
            sender_name=sender,
            event=event,
            severity=level,
            start=_hour_start(spot, day, start),
            end=_hour_start(spot, day, 0) + dt.timedelta(hours=end),
            description=text,
            tags=tags,
        )
        for event, level, start, end, text, tags in found
    ]


@service.tool(intent="check for severe weather warnings", open_world=True, example=_home_city)
def weather_alerts(
    ctx: Ctx,
    city: City | None = None,
    country: Country | None = None,
    latitude: Latitude | None = None,
    longitude: Longitude | None = None,
    days: Annotated[int, Field(ge=1, le=8)] = 3,
) -> WeatherAlerts:
    """List official weather warnings in force or announced for a place (heat, frost, storms, heavy rain, snow, fog).

    Warnings follow the same weather as the forecasts; expired ones are left out.

    Args:
        city: City name, optionally followed by a comma and an ISO country code.
        country: ISO 3166-1 alpha-2 code narrowing the city down.
        latitude: Latitude in decimal degrees (with longitude, instead of a city).
        longitude: Longitude in decimal degrees (with latitude, instead of a city).
        days: How many local days ahead to check, today included (1 to 8).
    """
    spot = _resolve(ctx, city, country, latitude, longitude)
    now, seed = ctx.now(), ctx.population.seed
    today = _local_today(ctx, spot)
    alerts = [
        alert
        for k in range(days)
        for alert in _alerts_for_day(seed, spot, today + dt.timedelta(days=k))
        if alert.end > now
    ]
    alerts.sort(key=lambda a: (a.start, a.event))
    return WeatherAlerts(location=_location(spot, now), generated_at=now, days_checked=days, alerts=alerts)


# Upper bounds of the 1-4 index levels per pollutant (OpenWeatherMap's scale); above the last: 5.
_AQI_LEVELS: tuple[tuple[str, tuple[float, float, float, float]], ...] = (
    ("so2", (20, 80, 250, 350)),
    ("no2", (40, 70, 150, 200)),
    ("pm10", (20, 50, 100, 200)),
    ("pm2_5", (10, 25, 50, 75)),
    ("o3", (60, 100, 140, 180)),
    ("co", (4400, 9400, 12400, 15400)),
)
_AQI_LABELS = ("Good", "Fair", "Moderate", "Poor", "Very Poor")


def _air(seed: int, spot: _Spot, when: dt.datetime) -> AirQualityReading:
    h = _hour_at(seed, spot, when)
    local_day, hour = h.local.date(), h.local.hour
    d = _day(seed, spot, local_day)
    daily, noise = d.air[0], d.air[1 + hour]
    traffic = 0.75 + 0.45 * math.exp(-(((hour - 8) / 2.0) ** 2)) + 0.4 * math.exp(-(((hour - 18) / 2.5) ** 2))
    dilution = max(0.4, min(1.6, 1 / (0.55 + 0.15 * h.wind)))
    washout = 0.6 if h.precip > 0.5 else 1.0
    pm25 = max(1.0, spot.pm25 * daily * traffic * dilution * washout * noise)
    no2 = max(2.0, spot.pm25 * 2.2 * traffic**1.5 * dilution * noise)
    season = 0.6 + 0.4 * max(
        0.0, _seasonal(0.0, 1.0, local_day) if spot.climate_latitude >= 0 else _seasonal(1.0, 0.0, local_day)
    )
    sunny = 1 - 0.5 * h.clouds / 100
    o3 = max(2.0, 35 + 70 * max(0.0, math.sin(math.pi * (hour - 7) / 14)) * season * sunny - 0.3 * no2)
    values = {
        "co": 180 + pm25 * 14 * noise,
        "no": no2 * 0.25 * traffic,
        "no2": no2,
        "o3": o3,
        "so2": 1.5 + spot.pm25 * 0.18 * noise,
        "pm2_5": pm25,
        "pm10": pm25 * (1.45 + 0.3 * (noise - 0.85) / 0.3),
        "nh3": 0.5 + 2.5 * noise * season,
    }
    levels = {}
    for name, bounds in _AQI_LEVELS:
        levels[name] = next((i + 1 for i, b in enumerate(bounds) if values[name] < b), 5)
    dominant = max(_AQI_LEVELS, key=lambda item: (levels[item[0]], values[item[0]] / item[1][0]))[0]
    aqi = levels[dominant]
    return AirQualityReading(
        time=when,
        aqi=aqi,
        aqi_label=_AQI_LABELS[aqi - 1],
        dominant_pollutant=dominant,
        co=round(values["co"], 2),
        no=round(values["no"], 2),
        no2=round(values["no2"], 2),
        o3=round(values["o3"], 2),
        so2=round(values["so2"], 2),
        pm2_5=round(values["pm2_5"], 2),
        pm10=round(values["pm10"], 2),
        nh3=round(values["nh3"], 2),
    )


@service.tool(intent="check the air quality", open_world=True, example=_home_city)
def air_quality(
    ctx: Ctx,
    city: City | None = None,
    country: Country | None = None,
    latitude: Latitude | None = None,
    longitude: Longitude | None = None,
    hours: Annotated[int, Field(ge=0, le=AIR_FORECAST_HOURS)] = 24,
) -> AirQuality:
    """Get the current air quality index and pollutant levels, with an hourly forecast of up to 96 hours.

    Args:
        city: City name, optionally followed by a comma and an ISO country code.
        country: ISO 3166-1 alpha-2 code narrowing the city down.
        latitude: Latitude in decimal degrees (with longitude, instead of a city).
        longitude: Longitude in decimal degrees (with latitude, instead of a city).
        hours: Hours of forecast after the current hour, 0 to 96.
    """
    spot = _resolve(ctx, city, country, latitude, longitude)
    now, seed = ctx.now(), ctx.population.seed
    first = now.replace(minute=0, second=0, microsecond=0)
    return AirQuality(
        location=_location(spot, now),
        current=_air(seed, spot, first),
        forecast=[_air(seed, spot, first + dt.timedelta(hours=k)) for k in range(1, hours + 1)],
    )
