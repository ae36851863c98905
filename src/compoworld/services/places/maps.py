"""Waypoint maps: geocoding, reverse geocoding, places, directions and time zones.

Modeled on the Google Maps Platform web services: the Geocoding API (forward
and reverse, ``location_type`` and ``partial_match``), the Places API (Nearby
Search, Text Search and Place Details, 20 results a page and at most 60 with
``next_page_token``), the Directions API (``mode`` driving, walking, bicycling
or transit; ``departure_time``; ``units``; legs of steps; ZERO_RESULTS across
the sea) and the Time Zone API (``rawOffset`` and ``dstOffset`` in seconds).

An open-world service: it holds no records. Its map is the world's: the
twenty population cities at their real coordinates, plus some sixty other
real cities of the open world. A street address lies at a small offset from
its city's centre that depends only on the world seed, the street and the
city, so every company's and person's address always geocodes to the same
point, and reverse geocoding near that point finds the address again. Around
every city there are the world's companies (as offices) and generated shops,
cafes, stations and other places, the same ones in every call. Routes follow
the great circle times a per-mode detour factor at per-mode speeds.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import math
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Population
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
    Currency,
    DateTime,
    Domain,
    Latitude,
    Longitude,
    Phone,
    PostalAddress,
    Quantity,
    Text,
    Timezone,
    Url,
)
from compoworld.services.kit.text import fold
from compoworld.world.geo import (
    CITIES,
    COUNTRY_CURRENCY,
    COUNTRY_NAMES,
    CityRef,
    country_name,
    haversine_m,
    nearest_city,
)
from compoworld.world.population import LAST_NAMES, STREETS

__all__ = ["service"]

service = Service(
    "maps",
    title="Waypoint Maps",
    category="maps",
    modeled_on="Google Maps Platform web services: Geocoding API, Places API (Nearby Search, Text Search, "
    "Place Details), Directions API and Time Zone API",
    description="Maps for the world: turn addresses into coordinates and back, find companies, shops and other "
    "places near a point or by name, plan routes by car, on foot, by bike or by public transport, and look up "
    "the time zone of any point.",
)

TravelMode = Literal["driving", "walking", "bicycling", "transit"]
PlaceType = Literal[
    "office",
    "restaurant",
    "cafe",
    "bar",
    "lodging",
    "bank",
    "pharmacy",
    "supermarket",
    "gas_station",
    "parking",
    "train_station",
    "gym",
    "hospital",
    "post_office",
    "museum",
]
LocationType = Literal["ROOFTOP", "RANGE_INTERPOLATED", "GEOMETRIC_CENTER", "APPROXIMATE"]
Units = Literal["metric", "imperial"]

STREET_SPREAD_DEG = 0.03
"""Largest offset of a street address from its city's centre, in degrees of latitude."""
MAX_RESULTS = 60
PAGE_SIZE = 20

# -- the map: its cities and countries are the world's (compoworld.world.geo); what only maps needs --

_COUNTRY_ALIASES = {
    "usa": "US",
    "u.s.": "US",
    "u.s.a.": "US",
    "united states of america": "US",
    "america": "US",
    "uk": "GB",
    "england": "GB",
    "scotland": "GB",
    "great britain": "GB",
    "deutschland": "DE",
    "holland": "NL",
    "the netherlands": "NL",
    "espana": "ES",
    "italia": "IT",
    "sverige": "SE",
    "brasil": "BR",
    "korea": "KR",
}
# The land mass each country is on: no ground route joins two different ones.
_AFRO_EURASIA = "AE AT BE CH CN CZ DE DK EG ES FI FR GB GR HK IN IT KE NG NL NO PL PT RU SE SG TH TR ZA"
_LANDMASS: dict[str, str] = {
    **dict.fromkeys(
        _AFRO_EURASIA.split(),
        "afro_eurasia",
    ),
    **dict.fromkeys(("US", "CA", "MX"), "north_america"),
    **dict.fromkeys(("BR", "AR", "CL", "CO", "PE"), "south_america"),
    "AU": "australia",
    "NZ": "new_zealand",
    "JP": "japan",
    "KR": "korea",
    "ID": "java",
    "PH": "luzon",
    "IE": "ireland",
    "IS": "iceland",
}
_COUNTRY_BOXES: dict[str, tuple[float, float, float, float]] = {
    # south, north, west, east: where a town of the country that the map does not know is placed.
    "AE": (23.0, 25.8, 51.6, 56.2),
    "AR": (-45.0, -24.0, -68.0, -58.0),
    "AT": (46.5, 48.9, 9.7, 16.9),
    "AU": (-37.5, -18.0, 115.0, 152.5),
    "BE": (49.6, 51.4, 2.6, 6.3),
    "BR": (-29.0, -4.0, -55.0, -36.0),
    "CA": (43.0, 53.0, -122.0, -64.0),
    "CH": (45.9, 47.7, 6.0, 10.4),
    "CL": (-41.0, -19.0, -72.5, -70.0),
    "CN": (23.0, 40.0, 103.0, 121.0),
    "CO": (1.0, 11.0, -77.0, -72.0),
    "CZ": (48.6, 51.0, 12.2, 18.8),
    "DE": (47.5, 54.8, 6.0, 14.8),
    "DK": (54.6, 57.7, 8.2, 12.6),
    "EG": (22.5, 31.3, 25.5, 34.0),
    "ES": (36.2, 43.5, -8.9, 3.2),
    "FI": (60.0, 68.5, 21.5, 30.0),
    "FR": (43.0, 50.9, -4.5, 7.6),
    "GB": (50.2, 57.5, -5.5, 1.7),
    "GR": (35.0, 41.5, 20.2, 26.5),
    "HK": (22.2, 22.5, 113.9, 114.3),
    "ID": (-8.5, -6.0, 105.5, 114.0),
    "IE": (51.5, 55.3, -10.3, -6.1),
    "IN": (9.0, 30.0, 70.0, 88.0),
    "IS": (63.5, 66.4, -22.5, -13.7),
    "IT": (38.0, 46.5, 7.0, 18.0),
    "JP": (31.5, 43.0, 130.0, 145.0),
    "KE": (-4.5, 4.5, 34.0, 41.5),
    "KR": (34.8, 38.3, 126.3, 129.4),
    "MX": (17.0, 30.0, -114.0, -88.0),
    "NG": (4.5, 13.5, 3.0, 14.0),
    "NL": (51.3, 53.4, 3.6, 7.1),
    "NO": (58.0, 70.0, 5.0, 30.0),
    "NZ": (-46.5, -35.0, 167.0, 178.5),
    "PE": (-18.0, -3.5, -81.0, -69.0),
    "PH": (6.0, 18.5, 118.0, 126.0),
    "PL": (49.1, 54.8, 14.2, 24.1),
    "PT": (37.0, 42.1, -9.5, -6.2),
    "RU": (45.0, 65.0, 30.0, 60.0),
    "SE": (55.4, 67.0, 11.2, 23.8),
    "SG": (1.25, 1.45, 103.65, 104.0),
    "TH": (6.0, 20.0, 98.0, 105.0),
    "TR": (36.0, 42.0, 26.0, 44.5),
    "US": (30.0, 47.5, -122.0, -72.0),
    "ZA": (-34.0, -23.0, 18.0, 32.0),
}

_ZONE_NAMES: dict[str, tuple[str, str]] = {
    **dict.fromkeys(
        (
            "Europe/Berlin",
            "Europe/Paris",
            "Europe/Madrid",
            "Europe/Rome",
            "Europe/Amsterdam",
            "Europe/Stockholm",
            "Europe/Brussels",
            "Europe/Zurich",
            "Europe/Vienna",
            "Europe/Copenhagen",
            "Europe/Oslo",
            "Europe/Warsaw",
            "Europe/Prague",
        ),
        ("Central European Standard Time", "Central European Summer Time"),
    ),
    "Europe/London": ("Greenwich Mean Time", "British Summer Time"),
    "Europe/Dublin": ("Greenwich Mean Time", "Irish Standard Time"),
    "Europe/Lisbon": ("Western European Standard Time", "Western European Summer Time"),
    "Europe/Helsinki": ("Eastern European Standard Time", "Eastern European Summer Time"),
    "Europe/Athens": ("Eastern European Standard Time", "Eastern European Summer Time"),
    "Africa/Cairo": ("Eastern European Standard Time", "Eastern European Summer Time"),
    "Europe/Istanbul": ("Turkey Time", "Turkey Time"),
    "Europe/Moscow": ("Moscow Standard Time", "Moscow Summer Time"),
    "Atlantic/Reykjavik": ("Greenwich Mean Time", "Greenwich Mean Time"),
    "Africa/Lagos": ("West Africa Standard Time", "West Africa Summer Time"),
    "Africa/Nairobi": ("East Africa Time", "East Africa Time"),
    "Africa/Johannesburg": ("South Africa Standard Time", "South Africa Standard Time"),
    "Asia/Dubai": ("Gulf Standard Time", "Gulf Standard Time"),
    "Asia/Kolkata": ("India Standard Time", "India Standard Time"),
    "Asia/Bangkok": ("Indochina Time", "Indochina Time"),
    "Asia/Hong_Kong": ("Hong Kong Standard Time", "Hong Kong Summer Time"),
    "Asia/Shanghai": ("China Standard Time", "China Daylight Time"),
    "Asia/Seoul": ("Korean Standard Time", "Korean Daylight Time"),
    "Asia/Tokyo": ("Japan Standard Time", "Japan Daylight Time"),
    "Asia/Jakarta": ("Western Indonesia Time", "Western Indonesia Time"),
    "Asia/Manila": ("Philippine Standard Time", "Philippine Summer Time"),
    "Asia/Singapore": ("Singapore Standard Time", "Singapore Standard Time"),
    "Australia/Sydney": ("Australian Eastern Standard Time", "Australian Eastern Daylight Time"),
    "Australia/Melbourne": ("Australian Eastern Standard Time", "Australian Eastern Daylight Time"),
    "Australia/Brisbane": ("Australian Eastern Standard Time", "Australian Eastern Daylight Time"),
    "Australia/Perth": ("Australian Western Standard Time", "Australian Western Daylight Time"),
    "Pacific/Auckland": ("New Zealand Standard Time", "New Zealand Daylight Time"),
    "Pacific/Honolulu": ("Hawaii-Aleutian Standard Time", "Hawaii-Aleutian Daylight Time"),
    "America/Anchorage": ("Alaska Standard Time", "Alaska Daylight Time"),
    "America/Los_Angeles": ("Pacific Standard Time", "Pacific Daylight Time"),
    "America/Vancouver": ("Pacific Standard Time", "Pacific Daylight Time"),
    "America/Denver": ("Mountain Standard Time", "Mountain Daylight Time"),
    "America/Phoenix": ("Mountain Standard Time", "Mountain Daylight Time"),
    "America/Chicago": ("Central Standard Time", "Central Daylight Time"),
    "America/Mexico_City": ("Central Standard Time", "Central Daylight Time"),
    "America/New_York": ("Eastern Standard Time", "Eastern Daylight Time"),
    "America/Toronto": ("Eastern Standard Time", "Eastern Daylight Time"),
    "America/Bogota": ("Colombia Standard Time", "Colombia Summer Time"),
    "America/Lima": ("Peru Standard Time", "Peru Summer Time"),
    "America/Santiago": ("Chile Standard Time", "Chile Summer Time"),
    "America/Argentina/Buenos_Aires": ("Argentina Standard Time", "Argentina Summer Time"),
    "America/Sao_Paulo": ("Brasilia Standard Time", "Brasilia Summer Time"),
}

# -- small geometry -------------------------------------------------------------------------------


def _bearing(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    x = math.sin(dl) * math.cos(p2)
    y = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return (math.degrees(math.atan2(x, y)) + 360) % 360


def _compass(bearing: float) -> str:
    names = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")
    return names[round(bearing / 45) % 8]


_STREET_ABBREVIATIONS = {
    "st": "street",
    "str": "street",
    "ave": "avenue",
    "av": "avenue",
    "rd": "road",
    "ln": "lane",
    "sq": "square",
    "blvd": "boulevard",
}


def _fold_street(street: str) -> str:
    return " ".join(_STREET_ABBREVIATIONS.get(w, w) for w in fold(street).split())


_CITY_INDEX: dict[str, list[CityRef]] = {}
for _ref in CITIES:
    _CITY_INDEX.setdefault(fold(_ref.city), []).append(_ref)


def _keyed(seed: int, *parts: object) -> random.Random:
    """A generator that depends only on the world seed and ``parts``: the same in every process and call."""
    return random.Random("\x1f".join(("maps", str(seed), *(str(p) for p in parts))))


def street_point(seed: int, street: str, city: str, country: str, centre: tuple[float, float]) -> tuple[float, float]:
    """Where a street address lies: a small offset from its city's centre, fixed by street and city."""
    rng = _keyed(seed, "street", _fold_street(street), fold(city), country)
    lat = centre[0] + rng.uniform(-STREET_SPREAD_DEG, STREET_SPREAD_DEG)
    lon = centre[1] + rng.uniform(-STREET_SPREAD_DEG, STREET_SPREAD_DEG) / max(math.cos(math.radians(centre[0])), 0.2)
    return round(lat, 6), round(max(-180.0, min(180.0, lon)), 6)


def _unknown_town(seed: int, city: str, country: str) -> tuple[float, float]:
    south, north, west, east = _COUNTRY_BOXES[country]
    rng = _keyed(seed, "town", fold(city), country)
    return round(rng.uniform(south, north), 6), round(rng.uniform(west, east), 6)


def format_address(addr: PostalAddress) -> str:
    """One-line address in the map's style."""
    return f"{addr.street}, {addr.postal_code} {addr.city}, {country_name(addr.country)}"


# -- place ids ------------------------------------------------------------------------------------


def _pid(kind: str, *fields: str) -> str:
    raw = "|".join((kind, *fields)).encode()
    return "ChIJ" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_pid(place_id: str, field: str) -> list[str]:
    bad = NotFound(
        f"no place with id {place_id!r}",
        field=field,
        hint="use a place_id returned by maps__geocode, maps__search_places or maps__places_nearby",
    )
    if not place_id.startswith("ChIJ") or len(place_id) > 600:
        raise bad
    body = place_id[4:]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise bad from None
    parts = raw.split("|")
    if parts[0] not in ("a", "c", "p", "l", "n") or len(parts) < 2:
        raise bad
    return parts


# -- world places ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MapPlace:
    """An establishment on the map: a world company's office or a generated place."""

    place_id: str
    name: str
    types: tuple[str, ...]
    address: PostalAddress
    latitude: float
    longitude: float
    city: CityRef
    rating: float | None
    ratings: int
    price_level: int | None
    hours: tuple[tuple[int, int], ...] | None
    """Opening (minutes from local midnight, length in minutes) for Monday..Sunday; length 0 closed; None: always open."""
    phone: str | None
    website: str | None
    domain: str | None
    company_key: str | None = None

    @property
    def prominence(self) -> float:
        """How prominent the place is (rating weighted by how many rated it)."""
        return (self.rating or 3.5) * math.log1p(self.ratings)


def _city_of(place_city: str, country: str) -> CityRef:
    for ref in _CITY_INDEX.get(fold(place_city), []):
        if ref.country == country:
            return ref
    raise KeyError(place_city)


_HOURS: dict[str, tuple[tuple[int, int], ...] | None] = {
    "office": ((540, 540),) * 5 + ((0, 0),) * 2,
    "restaurant": ((690, 690),) * 6 + ((720, 600),),
    "cafe": ((420, 720),) * 5 + ((480, 660),) * 2,
    "bar": ((1020, 540),) * 7,
    "lodging": None,
    "bank": ((540, 480),) * 5 + ((0, 0),) * 2,
    "pharmacy": ((480, 720),) * 6 + ((0, 0),),
    "supermarket": ((420, 900),) * 6 + ((0, 0),),
    "gas_station": None,
    "parking": None,
    "train_station": None,
    "gym": ((360, 1020),) * 5 + ((480, 720),) * 2,
    "hospital": None,
    "post_office": ((540, 540),) * 5 + ((540, 240),) + ((0, 0),),
    "museum": ((0, 0),) + ((600, 480),) * 6,
}
_GENERATED_COUNT = {
    "restaurant": (10, 16),
    "cafe": (7, 12),
    "bar": (4, 8),
    "lodging": (4, 8),
    "bank": (2, 4),
    "pharmacy": (2, 5),
    "supermarket": (2, 5),
    "gas_station": (2, 4),
    "parking": (2, 4),
    "train_station": (1, 3),
    "gym": (2, 4),
    "hospital": (1, 2),
    "post_office": (1, 3),
    "museum": (1, 4),
}
_NAME_WORDS = (
    "Amber",
    "Aurora",
    "Blue Door",
    "Copper",
    "Corner",
    "Golden",
    "Green Leaf",
    "Harbour",
    "Lantern",
    "Linden",
    "Maple",
    "Olive",
    "Old Town",
    "Riverside",
    "Saffron",
    "Silver",
    "Sunrise",
    "Union",
    "Velvet",
    "Westend",
)
_NAME_TEMPLATES = {
    "restaurant": ("{w} Kitchen", "Trattoria {n}", "{n}'s Bistro", "{w} Grill", "The {w} Table", "{c} Noodle House"),
    "cafe": ("{w} Coffee", "Cafe {w}", "{w} Roasters", "{n}'s Espresso Bar", "{w} Bakery & Cafe"),
    "bar": ("The {w} Tap", "{w} Lounge", "{n}'s Pub", "{w} Wine Bar"),
    "lodging": ("Hotel {w}", "{c} {w} Inn", "{w} Suites {c}", "The {n} Hotel"),
    "bank": ("{c} Savings Bank", "First {w} Bank", "{w} Credit Union"),
    "pharmacy": ("{w} Pharmacy", "{c} Central Pharmacy", "{n} Apothecary"),
    "supermarket": ("{w} Market", "FreshWay {c}", "{w} Grocers"),
    "gas_station": ("{w} Fuel", "{c} Service Station", "QuickFill {w}"),
    "parking": ("{w} Parking Garage", "{c} Park & Ride", "{w} Car Park"),
    "train_station": ("{c} Central Station", "{c} {w} Station", "{c} North Station"),
    "gym": ("{w} Fitness", "{c} Athletic Club", "{n}'s Gym"),
    "hospital": ("{c} General Hospital", "{w} Medical Centre", "St. {n} Hospital"),
    "post_office": ("{c} Post Office {k}", "{w} Post Office"),
    "museum": ("{c} Museum of Art", "{c} History Museum", "{w} Science Museum", "{c} Design Museum"),
}


@lru_cache(maxsize=4096)
def _generated(seed: int, city: CityRef, kind: str) -> tuple[MapPlace, ...]:
    rng = _keyed(seed, "places", city.city, city.country, kind)
    lo, hi = _GENERATED_COUNT[kind]
    out: list[MapPlace] = []
    used: set[str] = set()
    for k in range(rng.randint(lo, hi)):
        template = rng.choice(_NAME_TEMPLATES[kind])
        name = template.format(w=rng.choice(_NAME_WORDS), n=rng.choice(LAST_NAMES), c=city.city, k=k + 1)
        if name in used:
            name = f"{name} {city.city}" if city.city not in name else f"{name} {k + 1}"
        used.add(name)
        street = f"{rng.randint(1, 240)} {rng.choice(STREETS)}"
        postal = f"{city.postal_prefix}{rng.randint(100, 999)}"
        addr = PostalAddress(street=street, city=city.city, postal_code=postal, country=city.country)
        lat, lon = street_point(seed, street, city.city, city.country, (city.latitude, city.longitude))
        digits = max(6, 12 - len(city.phone_prefix) + 1)
        phone = city.phone_prefix + "".join(str(rng.randint(0, 9)) for _ in range(digits))
        priced = kind in ("restaurant", "cafe", "bar", "lodging")
        out.append(
            MapPlace(
                place_id=_pid("p", city.city, city.country, kind, str(k)),
                name=name,
                types=(kind, "point_of_interest", "establishment"),
                address=addr,
                latitude=lat,
                longitude=lon,
                city=city,
                rating=round(rng.uniform(3.1, 4.9), 1),
                ratings=int(math.exp(rng.uniform(math.log(8), math.log(6000)))),
                price_level=rng.randint(1, 4) if priced else None,
                hours=_HOURS[kind],
                phone=phone,
                website=None,
                domain=None,
            )
        )
    return tuple(out)


def _company_place(seed: int, company: Company) -> MapPlace:
    city = _city_of(company.place.city, company.place.country)
    lat, lon = street_point(
        seed, company.address.street, company.address.city, company.address.country, (city.latitude, city.longitude)
    )
    rng = _keyed(seed, "company", company.key)
    return MapPlace(
        place_id=_pid("c", company.key),
        name=company.name,
        types=("office", "point_of_interest", "establishment"),
        address=company.address,
        latitude=lat,
        longitude=lon,
        city=city,
        rating=round(rng.uniform(3.6, 4.8), 1),
        ratings=max(3, int(company.employees * rng.uniform(0.05, 0.3))),
        price_level=None,
        hours=_HOURS["office"],
        phone=company.phone,
        website=f"https://www.{company.domain}",
        domain=company.domain,
        company_key=company.key,
    )


@dataclass(frozen=True, slots=True)
class _WorldIndex:
    companies: dict[str, MapPlace]
    by_city: dict[tuple[str, str], list[MapPlace]]
    addresses: dict[tuple[str, str, str], list[PostalAddress]]
    """World street addresses by (folded street, folded city, country); rarely two postal codes share a street."""
    address_points: dict[tuple[str, str], list[tuple[float, float, PostalAddress]]]


_INDEXES: dict[int, tuple[Population, _WorldIndex]] = {}


def _index(pop: Population) -> _WorldIndex:
    cached = _INDEXES.get(id(pop))
    if cached is not None and cached[0] is pop:
        return cached[1]
    companies: dict[str, MapPlace] = {}
    by_city: dict[tuple[str, str], list[MapPlace]] = {}
    for company in pop.companies:
        place = _company_place(pop.seed, company)
        companies[company.key] = place
        by_city.setdefault((place.city.city, place.city.country), []).append(place)
    addresses: dict[tuple[str, str, str], list[PostalAddress]] = {}
    points: dict[tuple[str, str], list[tuple[float, float, PostalAddress]]] = {}
    for addr in [c.address for c in pop.companies] + [p.address for p in pop.people]:
        key = (_fold_street(addr.street), fold(addr.city), addr.country)
        same = addresses.setdefault(key, [])
        if addr in same:
            continue
        same.append(addr)
        city = _city_of(addr.city, addr.country)
        lat, lon = street_point(pop.seed, addr.street, addr.city, addr.country, (city.latitude, city.longitude))
        points.setdefault((city.city, city.country), []).append((lat, lon, addr))
    index = _WorldIndex(companies, by_city, addresses, points)
    if len(_INDEXES) > 32:
        _INDEXES.clear()
    _INDEXES[id(pop)] = (pop, index)  # holding pop keeps its id from being reused
    return index


def _places_in(ctx: Ctx, city: CityRef, kinds: tuple[str, ...]) -> list[MapPlace]:
    out: list[MapPlace] = []
    if "office" in kinds:
        out.extend(_index(ctx.population).by_city.get((city.city, city.country), []))
    for kind in kinds:
        if kind != "office":
            out.extend(_generated(ctx.population.seed, city, kind))
    return out


ALL_TYPES: tuple[str, ...] = (
    "office",
    "restaurant",
    "cafe",
    "bar",
    "lodging",
    "bank",
    "pharmacy",
    "supermarket",
    "gas_station",
    "parking",
    "train_station",
    "gym",
    "hospital",
    "post_office",
    "museum",
)

# -- geocoding ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Located:
    """A resolved location."""

    latitude: float
    longitude: float
    formatted: str
    place_id: str
    city: CityRef | None
    country: str
    address: PostalAddress | None
    location_type: str
    types: tuple[str, ...]
    partial: bool
    town: str


_US_STATE_CODES = (
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK "
    "OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC"
)
_POSTAL_TOKEN = re.compile(r"^(\d{4,6}(-\d{4})?|[A-Z]{1,2}\d[A-Z0-9]{1,5})$")
_US_STATES = frozenset(_US_STATE_CODES.split())


def _country_code(text: str) -> str | None:
    t = text.strip()
    if len(t) == 2 and t.upper() in COUNTRY_NAMES:
        return t.upper()
    folded = fold(t)
    for code, name in COUNTRY_NAMES.items():
        if fold(name) == folded:
            return code
    return _COUNTRY_ALIASES.get(t.lower()) or _COUNTRY_ALIASES.get(folded)


def _strip_postal(part: str) -> tuple[str, str | None]:
    """Split a comma part into its words without postal codes or US state codes, and the postal code found."""
    words: list[str] = []
    postal: str | None = None
    tokens = part.split()
    i = 0
    while i < len(tokens):
        tok = tokens[i].strip(".").upper()
        nxt = tokens[i + 1].upper() if i + 1 < len(tokens) else ""
        if re.fullmatch(r"[A-Z]{1,2}\d[A-Z\d]?", tok) and re.fullmatch(r"\d[A-Z]{2}", nxt):
            postal = f"{tok} {nxt}"
            i += 2
            continue
        if _POSTAL_TOKEN.match(tok):
            postal = tok
        elif not (tok in _US_STATES and len(tokens[i]) == 2 and words):
            words.append(tokens[i])
        i += 1
    return " ".join(words), postal


def _find_city(name: str, country: str | None) -> CityRef | None:
    refs = _CITY_INDEX.get(fold(name), [])
    for ref in refs:
        if country is None or ref.country == country:
            return ref
    return None


def _locality(ref: CityRef) -> Located:
    return Located(
        latitude=ref.latitude,
        longitude=ref.longitude,
        formatted=f"{ref.city}, {country_name(ref.country)}",
        place_id=_pid("l", ref.city, ref.country),
        city=ref,
        country=ref.country,
        address=None,
        location_type="APPROXIMATE",
        types=("locality", "political"),
        partial=False,
        town=ref.city,
    )


def _known_address(
    ctx: Ctx, street: str, town: str, country: str, postal: str | None, ref: CityRef | None
) -> PostalAddress | None:
    """The world's own record of an address: a company's or person's, or a generated place's."""
    key = (_fold_street(street), fold(town), country)
    found = _index(ctx.population).addresses.get(key)
    if found:
        wanted = (postal or "").replace(" ", "")
        return next((a for a in found if a.postal_code.replace(" ", "") == wanted), found[0])
    if ref is None:
        return None
    for kind in sorted(_GENERATED_COUNT):
        for place in _generated(ctx.population.seed, ref, kind):
            a = place.address
            if (_fold_street(a.street), fold(a.city), a.country) == key:
                return a
    return None


def _street_located(ctx: Ctx, street: str, town: str, country: str, postal: str | None, ref: CityRef | None) -> Located:
    seed = ctx.population.seed
    world = _known_address(ctx, street, town, country, postal, ref)
    if world is not None:
        addr = world
        exact = postal is None or postal.replace(" ", "") == world.postal_code.replace(" ", "")
        location_type, partial = "ROOFTOP", not exact
    else:
        rng = _keyed(seed, "postal", _fold_street(street), fold(town), country)
        prefix = ref.postal_prefix if ref is not None else country
        code = (
            postal
            if postal and re.fullmatch(r"[A-Z0-9][A-Z0-9 -]{1,9}", postal)
            else f"{prefix}{rng.randint(100, 999)}"
        )
        addr = PostalAddress(
            street=street.strip(), city=ref.city if ref else town.strip(), postal_code=code, country=country
        )
        location_type, partial = "RANGE_INTERPOLATED", False
    centre = (ref.latitude, ref.longitude) if ref is not None else _unknown_town(seed, town, country)
    lat, lon = street_point(seed, addr.street, addr.city, addr.country, centre)
    return Located(
        latitude=lat,
        longitude=lon,
        formatted=format_address(addr),
        place_id=_pid("a", addr.street, addr.city, addr.postal_code, addr.country),
        city=ref,
        country=country,
        address=addr,
        location_type=location_type,
        types=("street_address",),
        partial=partial,
        town=addr.city,
    )


def _geocode_text(ctx: Ctx, text: str, region: str | None, field: str) -> Located:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise RuleViolation(
            "the address is empty", field=field, hint="give a street and city, e.g. '12 Main Street, Berlin'"
        )
    country: str | None = None
    country_part: str | None = None
    if len(parts) > 1 and (code := _country_code(parts[-1])) is not None:
        country, country_part = code, parts[-1]
        parts = parts[:-1]
    elif len(parts) == 1 and _country_code(parts[0]) is not None and _find_city(parts[0], None) is None:
        return _nation(_country_code(parts[0]) or "")
    # The first of several parts is the street: its house number is not a postal code.
    cleaned = [(parts[0], None) if i == 0 and len(parts) > 1 else _strip_postal(p) for i, p in enumerate(parts)]
    postal = next((pc for _, pc in reversed(cleaned) if pc), None)
    city_at, ref = -1, None
    for i in range(len(cleaned) - 1, -1, -1):
        ref = _find_city(cleaned[i][0], country or region) or (None if country else _find_city(cleaned[i][0], None))
        if ref is not None:
            city_at = i
            break
    if ref is None and country_part is not None and (ref := _find_city(country_part, country)) is not None:
        city_at = len(cleaned)  # a city state: "5 King Street, Singapore"
    if ref is not None:
        country, town = ref.country, ref.city
    else:
        country = country or region
        if country is None or country not in _COUNTRY_BOXES:
            raise NotFound(
                f"no result for {text!r}",
                field=field,
                hint="give a street and a known city (e.g. '12 Main Street, Berlin') or end the address with the "
                "country code; to find a business by name use maps__search_places",
            )
        city_at = len(cleaned) - 1
        town = cleaned[city_at][0] or parts[city_at]
    street = next((words for words, _ in cleaned[:city_at] if re.search(r"[A-Za-z]", words)), None)
    if street is not None:
        return _street_located(ctx, street, town, country, postal, ref)
    if ref is not None:
        return _locality(ref)
    lat, lon = _unknown_town(ctx.population.seed, town, country)
    return Located(
        latitude=lat,
        longitude=lon,
        formatted=f"{town}, {country_name(country)}",
        place_id=_pid("l", town, country),
        city=None,
        country=country,
        address=None,
        location_type="APPROXIMATE",
        types=("locality", "political"),
        partial=False,
        town=town,
    )


def _nation(code: str) -> Located:
    south, north, west, east = _COUNTRY_BOXES.get(code, (0.0, 0.0, 0.0, 0.0))
    name = country_name(code)
    return Located(
        latitude=round((south + north) / 2, 6),
        longitude=round((west + east) / 2, 6),
        formatted=name,
        place_id=_pid("n", code),
        city=None,
        country=code,
        address=None,
        location_type="APPROXIMATE",
        types=("country", "political"),
        partial=False,
        town=name,
    )


def _geocode_address(ctx: Ctx, addr: PostalAddress, field: str) -> Located:
    ref = _find_city(addr.city, addr.country)
    if ref is None and addr.country not in _COUNTRY_BOXES:
        raise NotFound(
            f"no result for {format_address(addr)!r}",
            field=field,
            hint=f"the map does not cover {addr.country}; check the country code",
        )
    return _street_located(ctx, addr.street, addr.city, addr.country, addr.postal_code, ref)


_LATLNG = re.compile(r"^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$")


def _point(lat: float, lon: float) -> Located:
    ref, _ = nearest_city(lat, lon)
    return Located(
        latitude=round(lat, 6),
        longitude=round(lon, 6),
        formatted=f"{lat:.6f},{lon:.6f}",
        place_id=_pid("l", ref.city, ref.country),
        city=ref,
        country=ref.country,
        address=None,
        location_type="GEOMETRIC_CENTER",
        types=("point",),
        partial=False,
        town=ref.city,
    )


def _from_place(place: MapPlace) -> Located:
    return Located(
        latitude=place.latitude,
        longitude=place.longitude,
        formatted=f"{place.name}, {format_address(place.address)}",
        place_id=place.place_id,
        city=place.city,
        country=place.city.country,
        address=place.address,
        location_type="ROOFTOP",
        types=place.types,
        partial=False,
        town=place.city.city,
    )


def _place_by_id(ctx: Ctx, place_id: str, field: str) -> MapPlace | Located:
    parts = _decode_pid(place_id, field)
    missing = NotFound(f"no place with id {place_id!r}", field=field, hint="use a place_id this service returned")
    kind, rest = parts[0], parts[1:]
    if kind == "c":
        found = _index(ctx.population).companies.get(rest[0])
        if found is None:
            raise missing
        return found
    if kind == "p" and len(rest) == 4 and rest[2] in _GENERATED_COUNT and rest[3].isdigit():
        ref = _find_city(rest[0], rest[1])
        generated = _generated(ctx.population.seed, ref, rest[2]) if ref is not None else ()
        k = int(rest[3])
        if k >= len(generated):
            raise missing
        return generated[k]
    if kind == "l" and len(rest) == 2:
        ref = _find_city(rest[0], rest[1])
        if ref is not None:
            return _locality(ref)
        if rest[1] in _COUNTRY_BOXES:
            return _geocode_text(ctx, f"{rest[0]}, {rest[1]}", None, field)
        raise missing
    if kind == "n" and len(rest) == 1 and rest[0] in _COUNTRY_BOXES:
        return _nation(rest[0])
    if kind == "a" and len(rest) == 4 and rest[3] in COUNTRY_NAMES:
        try:
            addr = PostalAddress(street=rest[0], city=rest[1], postal_code=rest[2], country=rest[3])
        except ValueError:
            raise missing from None
        return _geocode_address(ctx, addr, field)
    raise missing


def _company_by_name(ctx: Ctx, text: str) -> MapPlace | None:
    folded = fold(text)
    if not folded:
        return None
    for company in ctx.population.companies:
        if fold(company.name) == folded or company.domain == text.strip().lower():
            return _index(ctx.population).companies[company.key]
    return None


def _resolve(ctx: Ctx, text: str | None, addr: PostalAddress | None, field: str) -> Located:
    """Resolve a route end: coordinates, a place id, a company name, or an address."""
    if addr is not None:
        if text:
            raise RuleViolation(
                f"give either {field} or {field}_address, not both",
                field=field,
                hint=f"drop {field} or {field}_address",
            )
        return _geocode_address(ctx, addr, f"{field}_address")
    if text is None or not text.strip():
        raise RuleViolation(
            f"the {field} is missing",
            field=field,
            hint=f"give {field} as an address, a place name, a place_id or 'lat,lng', or give {field}_address",
        )
    m = _LATLNG.match(text)
    if m:
        lat, lon = float(m.group(1)), float(m.group(2))
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise RuleViolation(
                f"{text!r} is not a valid coordinate pair", field=field, hint="latitude -90..90, longitude -180..180"
            )
        return _point(lat, lon)
    if text.strip().startswith("ChIJ"):
        found = _place_by_id(ctx, text.strip(), field)
        return _from_place(found) if isinstance(found, MapPlace) else found
    company = _company_by_name(ctx, text)
    if company is not None:
        return _from_place(company)
    return _geocode_text(ctx, text, None, field)


# -- results --------------------------------------------------------------------------------------


class GeocodeResult(BaseModel):
    """A place an address or point resolves to."""

    place_id: str = Field(description="Stable id of the place (pass it to maps__place_details or maps__route).")
    formatted_address: str = Field(description="The address in one line.")
    address: PostalAddress | None = Field(description="Street address; null for a city-level result.")
    city: City | None = Field(description="City; null for a country.")
    country: Country = Field(description="ISO 3166-1 alpha-2 country code.")
    country_name: str = Field(description="Country name.")
    latitude: Latitude = Field(description="Latitude, decimal degrees.")
    longitude: Longitude = Field(description="Longitude, decimal degrees.")
    location_type: LocationType = Field(
        description="Precision: ROOFTOP (a known address), RANGE_INTERPOLATED (a street number placed on its "
        "street), GEOMETRIC_CENTER (a point), APPROXIMATE (a whole city)."
    )
    types: list[str] = Field(description="What the result is (street_address, locality, point_of_interest ...).")
    partial_match: bool = Field(description="True when only part of the request matched (e.g. a wrong postal code).")
    distance_m: int | None = Field(description="Distance from the requested point in metres (reverse geocoding).")


class GeocodeResponse(BaseModel):
    """Geocoding results, best first."""

    query: str = Field(description="What was looked up.")
    status: Literal["OK"] = Field(description="Status of the request.")
    results: list[GeocodeResult] = Field(description="Results, best first.")


class PlaceSummary(BaseModel):
    """An establishment on the map."""

    place_id: str = Field(description="Stable id of the place.")
    name: CompanyName = Field(description="Name of the business.")
    types: list[str] = Field(description="Place types, most specific first.")
    address: PostalAddress = Field(description="Street address.")
    formatted_address: str = Field(description="The address in one line.")
    latitude: Latitude = Field(description="Latitude, decimal degrees.")
    longitude: Longitude = Field(description="Longitude, decimal degrees.")
    distance_m: int | None = Field(description="Distance from the search centre in metres, if there was one.")
    rating: float | None = Field(description="Average user rating, 1.0 to 5.0.")
    user_ratings_total: Quantity = Field(description="Number of user ratings.")
    price_level: int | None = Field(description="Price level 1 (cheap) to 4 (very expensive), where it applies.")
    open_now: bool = Field(description="Whether it is open at the world's current time (local time of the place).")
    business_status: Literal["OPERATIONAL"] = Field(description="Whether the business operates.")
    phone: Phone | None = Field(description="Phone number.")
    website: Url | None = Field(description="Website.")
    domain: Domain | None = Field(description="The company's web domain, for the world's companies.")


class PlacesResponse(BaseModel):
    """One page of places."""

    status: Literal["OK", "ZERO_RESULTS"] = Field(description="OK, or ZERO_RESULTS when nothing matched.")
    results: list[PlaceSummary] = Field(description="Places on this page.")
    next_page_token: str | None = Field(description="Pass as page_token for the next page; null on the last page.")


class Review(BaseModel):
    """A user review of a place."""

    author_name: str = Field(description="Reviewer's display name.")
    rating: int = Field(description="Stars, 1 to 5.")
    text: Text = Field(description="The review.")
    time: DateTime = Field(description="When it was written.")


class PlaceDetails(BaseModel):
    """Everything the map knows about one place."""

    place_id: str = Field(description="Stable id of the place.")
    name: str = Field(description="Name of the place (a business, an address or a city).")
    types: list[str] = Field(description="Place types, most specific first.")
    formatted_address: str = Field(description="The address in one line.")
    address: PostalAddress | None = Field(description="Street address; null for a city or a country.")
    city: City | None = Field(description="City; null for a country.")
    country: Country = Field(description="ISO 3166-1 alpha-2 country code.")
    latitude: Latitude = Field(description="Latitude, decimal degrees.")
    longitude: Longitude = Field(description="Longitude, decimal degrees.")
    timezone: Timezone = Field(description="IANA time zone of the place.")
    utc_offset_minutes: int = Field(description="Offset of local time from UTC now, in minutes.")
    phone: Phone | None = Field(description="Phone number of a business.")
    website: Url | None = Field(description="Website of a business.")
    domain: Domain | None = Field(description="Web domain, for the world's companies.")
    url: Url = Field(description="Link to the place on the map.")
    rating: float | None = Field(description="Average user rating of a business, 1.0 to 5.0.")
    user_ratings_total: Quantity = Field(description="Number of user ratings.")
    price_level: int | None = Field(description="Price level 1 to 4, where it applies.")
    open_now: bool | None = Field(description="Whether a business is open now; null for addresses and cities.")
    opening_hours: list[str] = Field(description="Opening hours per weekday, Monday first; empty if not a business.")
    reviews: list[Review] = Field(description="Recent reviews of a business, newest first.")


class Step(BaseModel):
    """One manoeuvre of a route."""

    instruction: Text = Field(description="What to do.")
    travel_mode: Literal["DRIVING", "WALKING", "BICYCLING", "TRANSIT"] = Field(
        description="How this step is travelled."
    )
    distance_m: int = Field(description="Length in metres.")
    duration_s: int = Field(description="Time in seconds.")
    start_latitude: Latitude = Field(description="Latitude where the step starts.")
    start_longitude: Longitude = Field(description="Longitude where the step starts.")
    end_latitude: Latitude = Field(description="Latitude where the step ends.")
    end_longitude: Longitude = Field(description="Longitude where the step ends.")
    transit_line: str | None = Field(description="Line taken, for a transit step.")
    num_stops: int | None = Field(description="Stops travelled, for a transit step.")


class RouteEnd(BaseModel):
    """Where a route starts or ends."""

    place_id: str = Field(description="Stable id of the place.")
    formatted_address: str = Field(description="The place in one line.")
    city: City = Field(description="City (the nearest known city for a bare point).")
    country: Country = Field(description="ISO 3166-1 alpha-2 country code.")
    latitude: Latitude = Field(description="Latitude, decimal degrees.")
    longitude: Longitude = Field(description="Longitude, decimal degrees.")


class Route(BaseModel):
    """Directions from an origin to a destination."""

    origin: RouteEnd = Field(description="Resolved start.")
    destination: RouteEnd = Field(description="Resolved end.")
    mode: TravelMode = Field(description="Travel mode.")
    summary: str = Field(description="Main roads or lines used.")
    distance_m: int = Field(description="Total distance in metres.")
    distance_text: str = Field(description="Distance for people, in the requested units.")
    duration_s: int = Field(description="Travel time without traffic, in seconds.")
    duration_in_traffic_s: int | None = Field(description="Driving time in the traffic expected at departure.")
    duration_text: str = Field(description="Expected travel time for people.")
    departure_time: DateTime = Field(description="When the trip starts.")
    arrival_time: DateTime = Field(description="When it ends, in expected traffic.")
    fare: Cents | None = Field(description="Transit fare in minor units of fare_currency.")
    fare_currency: Currency | None = Field(description="Currency of the fare.")
    steps: list[Step] = Field(description="Manoeuvres in order; their distances and durations add up to the totals.")
    warnings: list[str] = Field(description="Things to know about the route.")


class TimezoneInfo(BaseModel):
    """The time zone of a point at a moment."""

    time_zone_id: Timezone = Field(description="IANA time zone name.")
    time_zone_name: str = Field(description="Long name of the zone's time at that moment.")
    abbreviation: str = Field(description="Abbreviation of the zone's time at that moment.")
    raw_offset_s: int = Field(description="Standard offset from UTC in seconds.")
    dst_offset_s: int = Field(description="Daylight saving offset in seconds (0 when not in effect).")
    utc_offset: str = Field(description="Total offset as +HH:MM.")
    timestamp: DateTime = Field(description="The moment asked about, UTC.")
    local_time: str = Field(description="Local time at that moment, ISO 8601 with offset.")
    nearest_city: City = Field(description="Nearest known city.")
    country: Country = Field(description="Country of the nearest city.")


# -- helpers for results ---------------------------------------------------------------------------


def _geo_result(loc: Located, distance: float | None = None) -> GeocodeResult:
    return GeocodeResult(
        place_id=loc.place_id,
        formatted_address=loc.formatted,
        address=loc.address,
        city=None if "country" in loc.types else loc.town,
        country=loc.country,
        country_name=country_name(loc.country),
        latitude=loc.latitude,
        longitude=loc.longitude,
        location_type=loc.location_type,
        types=list(loc.types),
        partial_match=loc.partial,
        distance_m=None if distance is None else round(distance),
    )


def _local(now: dt.datetime, tz: str) -> dt.datetime:
    return now.astimezone(ZoneInfo(tz))


def _is_open(place: MapPlace, now: dt.datetime) -> bool:
    if place.hours is None:
        return True
    local = _local(now, place.city.timezone)
    minute = local.hour * 60 + local.minute
    start, length = place.hours[local.weekday()]
    if length and start <= minute < start + length:
        return True
    # Hours past midnight belong to the day before.
    start, length = place.hours[(local.weekday() - 1) % 7]
    return bool(length) and minute + 1440 < start + length


def _summary(place: MapPlace, now: dt.datetime, centre: tuple[float, float] | None) -> PlaceSummary:
    distance = None if centre is None else round(haversine_m(centre[0], centre[1], place.latitude, place.longitude))
    return PlaceSummary(
        place_id=place.place_id,
        name=place.name,
        types=list(place.types),
        address=place.address,
        formatted_address=format_address(place.address),
        latitude=place.latitude,
        longitude=place.longitude,
        distance_m=distance,
        rating=place.rating,
        user_ratings_total=place.ratings,
        price_level=place.price_level,
        open_now=_is_open(place, now),
        business_status="OPERATIONAL",
        phone=place.phone,
        website=place.website,
        domain=place.domain,
    )


def _page(
    ctx: Ctx, places: list[MapPlace], centre: tuple[float, float] | None, limit: int, token: str | None
) -> PlacesResponse:
    offset = 0
    if token is not None:
        m = re.fullmatch(r"pt([0-9]{1,3})", token.strip())
        if m is None or int(m.group(1)) >= MAX_RESULTS:
            raise RuleViolation(
                f"invalid page_token {token!r}",
                field="page_token",
                hint="pass the next_page_token of the previous page unchanged, with the same search",
            )
        offset = int(m.group(1))
    places = places[:MAX_RESULTS]
    page = places[offset : offset + limit]
    end = offset + limit
    now = ctx.now()
    return PlacesResponse(
        status="OK" if page else "ZERO_RESULTS",
        results=[_summary(p, now, centre) for p in page],
        next_page_token=f"pt{end}" if end < len(places) else None,
    )


def _fmt_minutes(m: int) -> str:
    m %= 1440
    h, mm = divmod(m, 60)
    suffix = "AM" if h < 12 else "PM"
    return f"{(h % 12) or 12}:{mm:02d} {suffix}"


def _opening_hours(place: MapPlace) -> list[str]:
    days = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    if place.hours is None:
        return [f"{d}: Open 24 hours" for d in days]
    return [
        f"{d}: {_fmt_minutes(s)} - {_fmt_minutes(s + n)}" if n else f"{d}: Closed"
        for d, (s, n) in zip(days, place.hours, strict=True)
    ]


_REVIEW_TEXTS = {
    5: ("Excellent, would come back any time.", "Friendly staff and great service.", "Best in the area."),
    4: (
        "Very good overall, a bit busy at peak times.",
        "Solid choice, quick and reliable.",
        "Nice place, fair prices.",
    ),
    3: ("Okay, nothing special.", "Decent, but the wait was long.", "Mixed experience this time."),
    2: ("Disappointing visit; slow service.", "Not as good as it used to be."),
    1: ("Would not recommend.", "Closed when it should have been open."),
}


def _reviews(ctx: Ctx, place: MapPlace) -> list[Review]:
    rng = _keyed(ctx.population.seed, "reviews", place.place_id)
    epoch = ctx.episode.world.epoch
    out = []
    for _ in range(min(5, place.ratings)):
        base = place.rating or 4.0
        stars = max(1, min(5, round(rng.gauss(base, 0.9))))
        author = (
            f"{rng.choice(('Alex', 'Sam', 'Robin', 'Kim', 'Jo', 'Chris', 'Noor', 'Ari'))} {rng.choice(LAST_NAMES)[0]}."
        )
        when = epoch - dt.timedelta(days=rng.randint(1, 700), minutes=rng.randint(0, 1439))
        out.append(Review(author_name=author, rating=stars, text=rng.choice(_REVIEW_TEXTS[stars]), time=when))
    out.sort(key=lambda r: r.time, reverse=True)
    return out


# -- examples for the conformance suite ------------------------------------------------------------


def _example_geocode(ctx: Ctx) -> dict[str, object]:
    return {"address": format_address(ctx.population.customers[0].address)}


def _example_point(ctx: Ctx) -> dict[str, object]:
    place = ctx.population.customers[0].place
    return {"latitude": place.latitude, "longitude": place.longitude}


def _example_search(ctx: Ctx) -> dict[str, object]:
    return {"query": f"coffee in {ctx.population.customers[0].place.city}"}


def _example_details(ctx: Ctx) -> dict[str, object]:
    return {"place_id": _index(ctx.population).companies[ctx.population.customers[0].key].place_id}


def _example_route(ctx: Ctx) -> dict[str, object]:
    company = ctx.population.customers[0]
    return {"origin": company.name, "destination": company.place.city}


# -- tools ------------------------------------------------------------------------------------------


@service.tool(intent="find the coordinates of the address", open_world=True, example=_example_geocode)
def geocode(
    ctx: Ctx,
    address: str | None = None,
    postal_address: PostalAddress | None = None,
    region: Country | None = None,
) -> GeocodeResponse:
    """Turn an address into coordinates, a formatted address and a place id (Geocoding API).

    A free-text address is read as comma-separated parts: street, postal code
    and city, optional country (code or name), e.g. "12 Main Street, 10115
    Berlin, DE". A city alone gives the city centre (APPROXIMATE). The world's
    companies' and people's addresses are found exactly (ROOFTOP); other
    streets of a known city are placed on their street (RANGE_INTERPOLATED).
    Give either ``address`` or ``postal_address``.

    Args:
        address: The address as one line of text.
        postal_address: The address as a structured postal address.
        region: Country code to prefer when a city name is ambiguous.
    """
    if address is not None and postal_address is not None:
        raise RuleViolation(
            "give either address or postal_address, not both", field="address", hint="drop one of the two"
        )
    if postal_address is not None:
        loc = _geocode_address(ctx, postal_address, "postal_address")
        query = format_address(postal_address)
    else:
        if address is None or not address.strip():
            raise RuleViolation(
                "an address is required",
                field="address",
                hint="give address as text (e.g. '12 Main Street, Berlin') or a postal_address",
            )
        loc = _geocode_text(ctx, address, region, "address")
        query = address
    return GeocodeResponse(query=query, status="OK", results=[_geo_result(loc)])


@service.tool(intent="find the address at these coordinates", open_world=True, example=_example_point)
def reverse_geocode(
    ctx: Ctx,
    latitude: Latitude,
    longitude: Longitude,
    result_type: Literal["street_address", "locality", "country"] | None = None,
) -> GeocodeResponse:
    """Turn coordinates into the nearest known addresses, the city and the country (reverse Geocoding API).

    Results go from most to least precise: the nearest street address within
    2 km (the world's companies, people and places), then the city, then the
    country. Points more than 150 km from any city on the map give no result.

    Args:
        latitude: Latitude in decimal degrees.
        longitude: Longitude in decimal degrees.
        result_type: Only results of this kind; omit for all.
    """
    ref, dist = nearest_city(latitude, longitude)
    if dist > 150_000:
        raise NotFound(
            f"no address near {latitude:.4f},{longitude:.4f} (the nearest city, {ref.city}, is {dist / 1000:.0f} km away)",
            field="latitude",
            hint="reverse geocoding needs a point in or near a city; check the coordinates (latitude first)",
        )
    results: list[GeocodeResult] = []
    if result_type in (None, "street_address"):
        seed = ctx.population.seed
        candidates = list(_index(ctx.population).address_points.get((ref.city, ref.country), []))
        for kind in sorted(_GENERATED_COUNT):
            candidates.extend((p.latitude, p.longitude, p.address) for p in _generated(seed, ref, kind))
        scored = sorted(
            ((haversine_m(latitude, longitude, la, lo), la, lo, a) for la, lo, a in candidates),
            key=lambda item: (item[0], item[3].street),
        )
        if scored and scored[0][0] <= 2000:
            d, _, _, addr = scored[0]
            results.append(_geo_result(_street_located(ctx, addr.street, addr.city, addr.country, None, ref), d))
    if result_type in (None, "locality"):
        results.append(_geo_result(_locality(ref), dist))
    if result_type in (None, "country"):
        results.append(_geo_result(_nation(ref.country)))
    if not results:
        raise NotFound(
            f"no street address within 2 km of {latitude:.4f},{longitude:.4f}",
            field="result_type",
            hint="omit result_type to get the city and country",
        )
    return GeocodeResponse(query=f"{latitude:.6f},{longitude:.6f}", status="OK", results=results)


_TYPE_WORDS: dict[str, str] = {
    "restaurant": "restaurant",
    "restaurants": "restaurant",
    "food": "restaurant",
    "dinner": "restaurant",
    "lunch": "restaurant",
    "cafe": "cafe",
    "cafes": "cafe",
    "coffee": "cafe",
    "bakery": "cafe",
    "bar": "bar",
    "bars": "bar",
    "pub": "bar",
    "pubs": "bar",
    "hotel": "lodging",
    "hotels": "lodging",
    "lodging": "lodging",
    "hostel": "lodging",
    "bank": "bank",
    "banks": "bank",
    "atm": "bank",
    "pharmacy": "pharmacy",
    "pharmacies": "pharmacy",
    "chemist": "pharmacy",
    "drugstore": "pharmacy",
    "supermarket": "supermarket",
    "supermarkets": "supermarket",
    "grocery": "supermarket",
    "groceries": "supermarket",
    "gas": "gas_station",
    "petrol": "gas_station",
    "fuel": "gas_station",
    "parking": "parking",
    "garage": "parking",
    "train": "train_station",
    "station": "train_station",
    "railway": "train_station",
    "gym": "gym",
    "fitness": "gym",
    "hospital": "hospital",
    "clinic": "hospital",
    "post": "post_office",
    "museum": "museum",
    "museums": "museum",
    "office": "office",
    "offices": "office",
    "company": "office",
    "companies": "office",
}


@service.tool(intent="search the map for a place or business", open_world=True, example=_example_search)
def search_places(
    ctx: Ctx,
    query: str,
    latitude: Latitude | None = None,
    longitude: Longitude | None = None,
    radius_m: Annotated[int, Field(ge=1, le=50_000)] = 50_000,
    limit: Annotated[int, Field(ge=1, le=20)] = 20,
    page_token: str | None = None,
) -> PlacesResponse:
    """Find places by a text query such as a company name or "coffee in Berlin" (Places Text Search).

    A world company's name or web domain finds its office. Otherwise the
    query's kind of place (restaurant, coffee, hotel, pharmacy, station ...)
    is searched in the city the query names, else around the given point, else
    around the home company's city. Results are ranked by prominence, 20 a
    page and 60 at most.

    Args:
        query: What to look for, e.g. a business name or "pharmacy in Paris".
        latitude: Latitude of the point to search around, if the query names no city.
        longitude: Longitude of the point to search around.
        radius_m: Radius around the point, in metres (1-50000).
        limit: Results per page (1-20).
        page_token: The next_page_token of the previous page, to get the next one.
    """
    folded = fold(query)
    if not folded:
        raise RuleViolation("the query is empty", field="query", hint="say what to look for, e.g. 'coffee in Berlin'")
    if (latitude is None) != (longitude is None):
        raise RuleViolation(
            "latitude and longitude go together",
            field="longitude" if longitude is None else "latitude",
            hint="give both coordinates or neither",
        )
    pop = ctx.population
    index = _index(pop)
    # 1. a world company by name or domain
    matches = [
        index.companies[c.key]
        for c in pop.companies
        if (fold(c.name) and (fold(c.name) in folded or (len(folded) >= 4 and folded in fold(c.name))))
        or c.domain == query.strip().lower()
    ]
    centre: tuple[float, float] | None = None
    if latitude is not None and longitude is not None:
        centre = (latitude, longitude)
    if matches:
        matches.sort(key=lambda p: (-len(p.name), p.name))
        return _page(ctx, matches, centre, limit, page_token)
    # 2. a kind of place in a city
    words = folded.split()
    kinds = sorted({_TYPE_WORDS[w] for w in words if w in _TYPE_WORDS})
    city: CityRef | None = None
    city_words: set[str] = set()
    for n in (3, 2, 1):
        for i in range(len(words) - n + 1):
            refs = _CITY_INDEX.get(" ".join(words[i : i + n]))
            if refs and city is None:
                city, city_words = refs[0], set(words[i : i + n])
    if city is None and centre is not None:
        ref, dist = nearest_city(*centre)
        city = ref if dist <= radius_m + 30_000 else None
    elif city is None:
        city = _city_of(pop.home.place.city, pop.home.place.country)
    if city is None:
        return _page(ctx, [], centre, limit, page_token)
    pool = _places_in(ctx, city, tuple(kinds) if kinds else ALL_TYPES)
    if not kinds:
        # No kind of place named: match the other words against the places' names.
        name_words = [w for w in words if w not in city_words and w not in ("in", "near", "at", "the", "of")]
        pool = [p for p in pool if name_words and all(w in fold(p.name) for w in name_words)]
    if centre is not None and not city_words:
        pool = [p for p in pool if haversine_m(centre[0], centre[1], p.latitude, p.longitude) <= radius_m]
    pool.sort(key=lambda p: (-p.prominence, p.name))
    return _page(ctx, pool, centre, limit, page_token)


@service.tool(intent="find places near this location", open_world=True, example=_example_point)
def places_nearby(
    ctx: Ctx,
    latitude: Latitude,
    longitude: Longitude,
    radius_m: Annotated[int, Field(ge=1, le=50_000)] = 1500,
    type: PlaceType | None = None,
    keyword: str | None = None,
    rank_by: Literal["prominence", "distance"] = "prominence",
    limit: Annotated[int, Field(ge=1, le=20)] = 20,
    page_token: str | None = None,
) -> PlacesResponse:
    """List places within a radius of a point (Places Nearby Search).

    Finds the world's companies (type ``office``) and the shops, cafes,
    stations and other places around every city on the map. Ranked by
    prominence (rating and number of ratings) or by distance; 20 a page and
    60 at most.

    Args:
        latitude: Latitude of the centre, decimal degrees.
        longitude: Longitude of the centre, decimal degrees.
        radius_m: Search radius in metres (1-50000).
        type: Only places of this type; omit for every type.
        keyword: Only places whose name or type contains this text.
        rank_by: ``prominence`` (default) or ``distance`` (nearest first).
        limit: Results per page (1-20).
        page_token: The next_page_token of the previous page, to get the next one.
    """
    kinds: tuple[str, ...] = (type,) if type else ALL_TYPES
    pool: list[tuple[float, MapPlace]] = []
    for city in CITIES:
        if haversine_m(latitude, longitude, city.latitude, city.longitude) > radius_m + 40_000:
            continue
        for place in _places_in(ctx, city, kinds):
            d = haversine_m(latitude, longitude, place.latitude, place.longitude)
            if d <= radius_m:
                pool.append((d, place))
    if keyword is not None and keyword.strip():
        k = fold(keyword)
        pool = [(d, p) for d, p in pool if k in fold(p.name) or any(k in t.replace("_", " ") for t in p.types)]
    if rank_by == "distance":
        pool.sort(key=lambda item: (item[0], item[1].name))
    else:
        pool.sort(key=lambda item: (-item[1].prominence, item[1].name))
    return _page(ctx, [p for _, p in pool], (latitude, longitude), limit, page_token)


@service.tool(intent="get the details of the place", open_world=True, example=_example_details)
def place_details(ctx: Ctx, place_id: str) -> PlaceDetails:
    """Get what the map knows about a place: address, coordinates, contact, hours, rating, reviews (Place Details).

    Works for every place_id this service returns: businesses (the world's
    companies and other places), street addresses and cities.

    Args:
        place_id: The place's id, from maps__geocode, maps__search_places or maps__places_nearby.
    """
    found = _place_by_id(ctx, place_id.strip(), "place_id")
    now = ctx.now()
    if isinstance(found, MapPlace):
        tz = found.city.timezone
        offset = _local(now, tz).utcoffset() or dt.timedelta()
        return PlaceDetails(
            place_id=found.place_id,
            name=found.name,
            types=list(found.types),
            formatted_address=format_address(found.address),
            address=found.address,
            city=found.city.city,
            country=found.city.country,
            latitude=found.latitude,
            longitude=found.longitude,
            timezone=tz,
            utc_offset_minutes=int(offset.total_seconds() // 60),
            phone=found.phone,
            website=found.website,
            domain=found.domain,
            url=f"https://maps.waypoint.example/place/{found.place_id}",
            rating=found.rating,
            user_ratings_total=found.ratings,
            price_level=found.price_level,
            open_now=_is_open(found, now),
            opening_hours=_opening_hours(found),
            reviews=_reviews(ctx, found),
        )
    ref = found.city or nearest_city(found.latitude, found.longitude)[0]
    offset = _local(now, ref.timezone).utcoffset() or dt.timedelta()
    return PlaceDetails(
        place_id=found.place_id,
        name=found.address.street if found.address else found.town,
        types=list(found.types),
        formatted_address=found.formatted,
        address=found.address,
        city=None if "country" in found.types else found.town,
        country=found.country,
        latitude=found.latitude,
        longitude=found.longitude,
        timezone=ref.timezone,
        utc_offset_minutes=int(offset.total_seconds() // 60),
        phone=None,
        website=None,
        domain=None,
        url=f"https://maps.waypoint.example/place/{found.place_id}",
        rating=None,
        user_ratings_total=0,
        price_level=None,
        open_now=None,
        opening_hours=[],
        reviews=[],
    )


# -- directions -------------------------------------------------------------------------------------

_DETOUR = {"driving": 1.3, "walking": 1.2, "bicycling": 1.25, "transit": 1.35}
_HIGHWAY = {"US": "I-{n}", "CA": "Hwy {n}", "GB": "M{n}", "DE": "A{n}", "FR": "A{n}", "IT": "A{n}", "ES": "AP-{n}"}
_FARE_MAJOR = {
    "EUR": 3.0,
    "GBP": 2.8,
    "USD": 2.9,
    "SEK": 39.0,
    "JPY": 210.0,
    "SGD": 2.1,
    "AUD": 4.5,
    "BRL": 4.4,
    "CAD": 3.35,
    "CHF": 4.4,
}
_ZERO_DECIMAL = frozenset({"JPY", "KRW", "CLP", "ISK", "IDR", "COP"})


def _landmass(loc: Located) -> str:
    country = loc.country
    if loc.city is not None and loc.city.timezone == "Pacific/Honolulu":
        return "hawaii"
    return _LANDMASS.get(country, country)


def _distance_text(m: int, units: Units) -> str:
    if units == "imperial":
        miles = m / 1609.344
        return f"{round(m * 3.28084)} ft" if miles < 0.1 else f"{miles:.1f} mi" if miles < 100 else f"{miles:,.0f} mi"
    return f"{m} m" if m < 1000 else f"{m / 1000:.1f} km" if m < 100_000 else f"{m / 1000:,.0f} km"


def _duration_text(s: int) -> str:
    mins = max(1, round(s / 60)) if s else 0
    days, rest = divmod(mins, 1440)
    hours, mins = divmod(rest, 60)
    parts = []
    if days:
        parts.append(f"{days} day{'s' * (days != 1)}")
    if hours:
        parts.append(f"{hours} hour{'s' * (hours != 1)}")
    if mins or not parts:
        parts.append(f"{mins} min{'s' * (mins != 1)}")
    return " ".join(parts[:2])


def _route_end(loc: Located) -> RouteEnd:
    return RouteEnd(
        place_id=loc.place_id,
        formatted_address=loc.formatted,
        city=loc.town,
        country=loc.country,
        latitude=loc.latitude,
        longitude=loc.longitude,
    )


def _split(total: int, weights: list[float]) -> list[int]:
    s = sum(weights)
    parts = [int(total * w / s) for w in weights]
    parts[-1] += total - sum(parts)
    return parts


def _steps(
    rng: random.Random, a: Located, b: Located, mode: str, distance: int, durations: list[int], lengths: list[int]
) -> tuple[list[Step], str]:
    n = len(lengths)
    heading = _compass(_bearing(a.latitude, a.longitude, b.latitude, b.longitude))
    travel = "TRANSIT" if mode == "transit" else mode.upper()
    hw_pattern = _HIGHWAY.get(a.country, "Route {n}")
    highways = [hw_pattern.format(n=k) for k in rng.sample(range(1, 100), 3)]
    highway = highways[0]
    streets = [rng.choice(STREETS) for _ in range(n)]
    # The first and last streets are those of the ends' addresses, without the house number.
    if a.address is not None:
        streets[0] = re.sub(r"^\d+\w*\s+", "", a.address.street)
    if b.address is not None and n > 1:
        streets[-1] = re.sub(r"^\d+\w*\s+", "", b.address.street)
    dest = b.formatted
    instructions: list[str] = []
    travel_modes: list[str] = []
    lines: list[str | None] = []
    stops: list[int | None] = []
    summary = highway if mode == "driving" and distance > 15_000 else streets[min(1, n - 1)]
    used_hw = 0
    for i in range(n):
        line, stop = None, None
        step_mode = travel
        if mode == "transit":
            if i in (0, n - 1):
                step_mode = "WALKING"
                text = f"Walk to {streets[i]} stop" if i == 0 else f"Walk to {dest}"
            else:
                long_haul = lengths[i] > 40_000
                line = f"{'RE' if long_haul else rng.choice(('U', 'S', 'Bus ', 'Tram '))}{rng.randint(1, 99)}"
                stop = max(1, lengths[i] // (9000 if long_haul else 700))
                text = f"Take {line.strip()} toward {b.town} ({stop} stops)"
                summary = line.strip()
        elif i == 0:
            text = f"Head {heading} on {streets[0]}"
        elif i == n - 1:
            text = f"Turn {rng.choice(('left', 'right'))} onto {streets[i]}; the destination, {dest}, is on the {rng.choice(('left', 'right'))}"
        elif mode == "driving" and lengths[i] > 10_000:
            hw = highways[min(len(highways) - 1, used_hw)]
            text = (
                f"Merge onto {hw}"
                if used_hw == 0
                else rng.choice((f"Continue onto {hw} toward {b.town}", f"Keep left at the fork to continue on {hw}"))
            )
            used_hw += 1
        else:
            text = rng.choice(
                (
                    f"Turn left onto {streets[i]}",
                    f"Turn right onto {streets[i]}",
                    f"Continue onto {streets[i]}",
                    f"At the roundabout, take the {rng.choice(('1st', '2nd', '3rd'))} exit onto {streets[i]}",
                )
            )
        instructions.append(text)
        travel_modes.append(step_mode)
        lines.append(line)
        stops.append(stop)
    if used_hw >= 2:
        summary = f"{highways[0]} and {highways[1]}"
    steps: list[Step] = []
    done = 0
    for i in range(n):
        f0 = done / distance if distance else 0.0
        done += lengths[i]
        f1 = done / distance if distance else 1.0
        steps.append(
            Step(
                instruction=instructions[i],
                travel_mode=travel_modes[i],
                distance_m=lengths[i],
                duration_s=durations[i],
                start_latitude=round(a.latitude + (b.latitude - a.latitude) * f0, 6),
                start_longitude=round(a.longitude + (b.longitude - a.longitude) * f0, 6),
                end_latitude=round(a.latitude + (b.latitude - a.latitude) * f1, 6),
                end_longitude=round(a.longitude + (b.longitude - a.longitude) * f1, 6),
                transit_line=lines[i],
                num_stops=stops[i],
            )
        )
    return steps, summary


def _traffic_factor(rng: random.Random, local: dt.datetime) -> float:
    h = local.hour + local.minute / 60
    weekday = local.weekday() < 5
    if weekday and (7 <= h < 9.5 or 16 <= h < 19):
        return 1.35 + 0.15 * rng.random()
    if h >= 22 or h < 6:
        return 0.92
    return 1.05 + 0.1 * rng.random()


@service.tool(intent="get directions between two places", open_world=True, example=_example_route)
def route(
    ctx: Ctx,
    origin: str | None = None,
    destination: str | None = None,
    origin_address: PostalAddress | None = None,
    destination_address: PostalAddress | None = None,
    mode: TravelMode = "driving",
    departure_time: DateTime | None = None,
    units: Units = "metric",
) -> Route:
    """Plan a route between two places by car, on foot, by bike or by public transport (Directions API).

    Each end is text (an address, a city, a company's name, a place_id or
    "lat,lng") or a structured postal address. The distance is the great
    circle times a detour factor for the mode; driving time counts the
    traffic expected at the departure time (rush hours are slower); transit
    has walks at both ends, a wait and a fare. There is no route between
    places that the sea separates.

    Args:
        origin: Where to start, as text; or use origin_address.
        destination: Where to go, as text; or use destination_address.
        origin_address: Where to start, as a postal address.
        destination_address: Where to go, as a postal address.
        mode: driving, walking, bicycling or transit.
        departure_time: When to leave (default: now); it cannot be in the past.
        units: metric or imperial, for the distance text.
    """
    a = _resolve(ctx, origin, origin_address, "origin")
    b = _resolve(ctx, destination, destination_address, "destination")
    now = ctx.now()
    depart = departure_time or now
    if depart < now - dt.timedelta(minutes=1):
        raise RuleViolation(
            f"departure_time {depart.isoformat()} is in the past (now is {now.isoformat()})",
            field="departure_time",
            hint="omit departure_time to leave now, or give a time in the future",
        )
    if _landmass(a) != _landmass(b):
        raise RuleViolation(
            f"no {mode} route from {a.town} to {b.town}: they are separated by the sea",
            field="destination",
            hint="plan a flight or a ferry separately; routes only join places on the same land mass",
        )
    straight = haversine_m(a.latitude, a.longitude, b.latitude, b.longitude)
    rng = _keyed(
        ctx.population.seed, "route", a.place_id, a.latitude, a.longitude, b.place_id, b.latitude, b.longitude, mode
    )
    distance = round(straight * _DETOUR[mode])
    warnings: list[str] = []
    fare: int | None = None
    fare_currency: str | None = None
    traffic: int | None = None
    if distance == 0:
        lengths, durations = [0], [0]
    elif mode == "transit":
        walk_a, walk_b = min(distance // 4, rng.randint(250, 900)), min(distance // 4, rng.randint(250, 900))
        ride = distance - walk_a - walk_b
        long_haul = ride > 40_000
        rides = 1 if ride < 6000 or long_haul else 2
        ride_parts = _split(ride, [rng.uniform(0.4, 1.0) for _ in range(rides)])
        lengths = [walk_a, *ride_parts, walk_b]
        speed = 30.0 if long_haul else 7.0  # metres per second: trains between cities, metro and buses within
        wait = rng.randint(120, 600)
        durations = [round(walk_a / 1.35) + wait]
        durations += [round(p / speed) + (rng.randint(180, 420) if k else 0) for k, p in enumerate(ride_parts)]
        durations.append(round(walk_b / 1.35))
        currency = a.city.currency if a.city else COUNTRY_CURRENCY.get(a.country, "USD")
        major = _FARE_MAJOR.get(currency, 2.5)
        if long_haul:
            major += ride / 1000 * 0.14 * (major / 3.0)
        fare = round(major * (1 if currency in _ZERO_DECIMAL else 100))
        fare_currency = currency
        if a.country != b.country:
            warnings.append("This route crosses a border; carry a valid passport or ID card.")
    else:
        n = 2 if distance < 500 else rng.randint(3, 5) if distance < 5000 else rng.randint(5, 8)
        n = n if distance < 100_000 else rng.randint(7, 11)
        if n == 2:
            lengths = _split(distance, [rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0)])
        else:
            # Short streets at both ends; on a long trip the middle is on highways.
            first = min(rng.randint(80, 900), distance // 8)
            last = min(rng.randint(50, 600), distance // 8)
            middle = _split(distance - first - last, [rng.uniform(0.3, 1.0) for _ in range(n - 2)])
            lengths = [first, *middle, last]
        if mode == "driving":
            speeds = [(26.0 if lengths[i] > 10_000 else 9.0) for i in range(n)]  # highway vs city, m/s
        elif mode == "walking":
            speeds = [1.35] * n
        else:
            speeds = [4.3] * n
        durations = [round(length / speed) for length, speed in zip(lengths, speeds, strict=True)]
        if mode == "walking":
            warnings.append("Walking directions may be missing sidewalks or pedestrian paths.")
        if mode == "bicycling":
            warnings.append("Bicycling directions may be missing bike lanes.")
        if mode == "driving":
            local = _local(depart, a.city.timezone if a.city else "UTC")
            traffic = round(sum(durations) * _traffic_factor(rng, local))
    steps, summary = _steps(rng, a, b, mode, distance, durations, lengths)
    total = sum(durations)
    travel = traffic if traffic is not None else total
    return Route(
        origin=_route_end(a),
        destination=_route_end(b),
        mode=mode,
        summary=summary if distance else "",
        distance_m=distance,
        distance_text=_distance_text(distance, units),
        duration_s=total,
        duration_in_traffic_s=traffic,
        duration_text=_duration_text(travel),
        departure_time=depart,
        arrival_time=depart + dt.timedelta(seconds=travel),
        fare=fare,
        fare_currency=fare_currency,
        steps=steps if distance else [],
        warnings=warnings if distance else ["The origin and the destination are the same place."],
    )


# -- time zones -------------------------------------------------------------------------------------


@service.tool(intent="find the time zone of this location", open_world=True, example=_example_point)
def timezone(ctx: Ctx, latitude: Latitude, longitude: Longitude, timestamp: DateTime | None = None) -> TimezoneInfo:
    """Get the IANA time zone of a point and its offsets from UTC at a moment (Time Zone API).

    The zone is that of the nearest city on the map; the offsets follow the
    zone's daylight saving rules at ``timestamp``.

    Args:
        latitude: Latitude in decimal degrees.
        longitude: Longitude in decimal degrees.
        timestamp: The moment to give the offsets for (default: now).
    """
    ref, dist = nearest_city(latitude, longitude)
    if dist > 2_000_000:
        raise NotFound(
            f"no time zone known near {latitude:.4f},{longitude:.4f} (open sea or polar region)",
            field="latitude",
            hint="give coordinates on land, latitude first",
        )
    when = timestamp or ctx.now()
    local = when.astimezone(ZoneInfo(ref.timezone))
    total = local.utcoffset() or dt.timedelta()
    dst = local.dst() or dt.timedelta()
    standard, daylight = _ZONE_NAMES.get(ref.timezone, (ref.timezone, ref.timezone))
    seconds = int(total.total_seconds())
    sign = "+" if seconds >= 0 else "-"
    hh, mm = divmod(abs(seconds) // 60, 60)
    return TimezoneInfo(
        time_zone_id=ref.timezone,
        time_zone_name=daylight if dst else standard,
        abbreviation=local.tzname() or "",
        raw_offset_s=int((total - dst).total_seconds()),
        dst_offset_s=int(dst.total_seconds()),
        utc_offset=f"{sign}{hh:02d}:{mm:02d}",
        timestamp=when,
        local_time=local.isoformat(timespec="seconds"),
        nearest_city=ref.city,
        country=ref.country,
    )
