"""The world's geography: its cities and countries, and great-circle distances between points.

The map is the population's twenty cities (:data:`~compoworld.world.population.PLACES`)
at their real coordinates plus some sixty other real cities of the open world,
in :data:`CITIES`. The country tables cover every country of the map and are
keyed by ISO 3166-1 alpha-2 code. Services that place, name or measure things
read them here, so that a city's coordinates, a country's name and a distance
are the same in every service.

Distances use :data:`EARTH_RADIUS_KM` (IUGG mean); a service written with a round
6371 km passes ``radius_km=6371.0`` to :func:`haversine_km`. Hand-written formulas
may differ from these in the last bit, so compare rounded outputs when switching.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from compoworld.world.population import PLACES

__all__ = [
    "CALLING_CODES",
    "CITIES",
    "COUNTRY_CURRENCY",
    "COUNTRY_NAMES",
    "EARTH_RADIUS_KM",
    "EARTH_RADIUS_M",
    "CityRef",
    "country_name",
    "haversine_km",
    "haversine_m",
    "nearest_city",
]

EARTH_RADIUS_KM = 6371.0088
"""The mean radius of the Earth (IUGG), in kilometres."""
EARTH_RADIUS_M = 6_371_008.8
"""The same radius in metres (written out, not ``EARTH_RADIUS_KM * 1000``, so metre distances round as they did)."""


# -- countries ------------------------------------------------------------------------------------

COUNTRY_NAMES: dict[str, str] = {
    "AE": "United Arab Emirates",
    "AR": "Argentina",
    "AT": "Austria",
    "AU": "Australia",
    "BE": "Belgium",
    "BR": "Brazil",
    "CA": "Canada",
    "CH": "Switzerland",
    "CL": "Chile",
    "CN": "China",
    "CO": "Colombia",
    "CZ": "Czechia",
    "DE": "Germany",
    "DK": "Denmark",
    "EG": "Egypt",
    "ES": "Spain",
    "FI": "Finland",
    "FR": "France",
    "GB": "United Kingdom",
    "GR": "Greece",
    "HK": "Hong Kong",
    "ID": "Indonesia",
    "IE": "Ireland",
    "IN": "India",
    "IS": "Iceland",
    "IT": "Italy",
    "JP": "Japan",
    "KE": "Kenya",
    "KR": "South Korea",
    "MX": "Mexico",
    "NG": "Nigeria",
    "NL": "Netherlands",
    "NO": "Norway",
    "NZ": "New Zealand",
    "PE": "Peru",
    "PH": "Philippines",
    "PL": "Poland",
    "PT": "Portugal",
    "RU": "Russia",
    "SE": "Sweden",
    "SG": "Singapore",
    "TH": "Thailand",
    "TR": "Turkey",
    "US": "United States",
    "ZA": "South Africa",
}
"""English short name of every country on the map."""
COUNTRY_CURRENCY: dict[str, str] = {
    "AE": "AED",
    "AR": "ARS",
    "AT": "EUR",
    "AU": "AUD",
    "BE": "EUR",
    "BR": "BRL",
    "CA": "CAD",
    "CH": "CHF",
    "CL": "CLP",
    "CN": "CNY",
    "CO": "COP",
    "CZ": "CZK",
    "DE": "EUR",
    "DK": "DKK",
    "EG": "EGP",
    "ES": "EUR",
    "FI": "EUR",
    "FR": "EUR",
    "GB": "GBP",
    "GR": "EUR",
    "HK": "HKD",
    "ID": "IDR",
    "IE": "EUR",
    "IN": "INR",
    "IS": "ISK",
    "IT": "EUR",
    "JP": "JPY",
    "KE": "KES",
    "KR": "KRW",
    "MX": "MXN",
    "NG": "NGN",
    "NL": "EUR",
    "NO": "NOK",
    "NZ": "NZD",
    "PE": "PEN",
    "PH": "PHP",
    "PL": "PLN",
    "PT": "EUR",
    "RU": "RUB",
    "SE": "SEK",
    "SG": "SGD",
    "TH": "THB",
    "TR": "TRY",
    "US": "USD",
    "ZA": "ZAR",
}
"""The currency (ISO 4217) of every country on the map."""
CALLING_CODES: dict[str, str] = {
    "AE": "+971",
    "AR": "+54",
    "AT": "+43",
    "AU": "+61",
    "BE": "+32",
    "BR": "+55",
    "CA": "+1",
    "CH": "+41",
    "CL": "+56",
    "CN": "+86",
    "CO": "+57",
    "CZ": "+420",
    "DE": "+49",
    "DK": "+45",
    "EG": "+20",
    "ES": "+34",
    "FI": "+358",
    "FR": "+33",
    "GB": "+44",
    "GR": "+30",
    "HK": "+852",
    "ID": "+62",
    "IE": "+353",
    "IN": "+91",
    "IS": "+354",
    "IT": "+39",
    "JP": "+81",
    "KE": "+254",
    "KR": "+82",
    "MX": "+52",
    "NG": "+234",
    "NL": "+31",
    "NO": "+47",
    "NZ": "+64",
    "PE": "+51",
    "PH": "+63",
    "PL": "+48",
    "PT": "+351",
    "RU": "+7",
    "SE": "+46",
    "SG": "+65",
    "TH": "+66",
    "TR": "+90",
    "US": "+1",
    "ZA": "+27",
}
"""The international calling code of every country on the map."""

_WITH_ARTICLE = frozenset({"AE", "GB", "NL", "PH", "US"})


def country_name(code: str, *, article: bool = False) -> str:
    """The English name of a country, or the code itself for a country not on the map.

    Args:
        code: ISO 3166-1 alpha-2 code (``"GB"``).
        article: The form used inside a sentence: ``"the United Kingdom"``, ``"the Netherlands"``.

    Returns:
        The name (``"United Kingdom"``), or ``code`` when the map does not know it.
    """
    name = COUNTRY_NAMES.get(code)
    if name is None:
        return code
    return f"the {name}" if article and code in _WITH_ARTICLE else name


# -- cities ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CityRef:
    """A city on the map."""

    city: str
    country: str
    latitude: float
    longitude: float
    timezone: str
    postal_prefix: str
    phone_prefix: str
    currency: str
    world: bool
    """True for the population's cities (where the world's people and companies are)."""


# Real cities the population does not live in: the open world around it
# (city, country, latitude, longitude, time zone, postal prefix).
_OPEN_WORLD_CITIES: tuple[tuple[str, str, float, float, str, str], ...] = (
    ("Hamburg", "DE", 53.551, 9.993, "Europe/Berlin", "20"),
    ("Frankfurt", "DE", 50.11, 8.682, "Europe/Berlin", "60"),
    ("Cologne", "DE", 50.938, 6.96, "Europe/Berlin", "50"),
    ("Marseille", "FR", 43.296, 5.37, "Europe/Paris", "13"),
    ("Barcelona", "ES", 41.385, 2.173, "Europe/Madrid", "08"),
    ("Rome", "IT", 41.903, 12.496, "Europe/Rome", "00"),
    ("Rotterdam", "NL", 51.924, 4.478, "Europe/Amsterdam", "30"),
    ("Gothenburg", "SE", 57.709, 11.975, "Europe/Stockholm", "41"),
    ("Edinburgh", "GB", 55.953, -3.189, "Europe/London", "EH"),
    ("Dublin", "IE", 53.35, -6.26, "Europe/Dublin", "D0"),
    ("Brussels", "BE", 50.85, 4.352, "Europe/Brussels", "10"),
    ("Zurich", "CH", 47.377, 8.542, "Europe/Zurich", "80"),
    ("Vienna", "AT", 48.208, 16.374, "Europe/Vienna", "10"),
    ("Copenhagen", "DK", 55.676, 12.568, "Europe/Copenhagen", "1"),
    ("Oslo", "NO", 59.914, 10.752, "Europe/Oslo", "01"),
    ("Helsinki", "FI", 60.17, 24.938, "Europe/Helsinki", "00"),
    ("Warsaw", "PL", 52.23, 21.012, "Europe/Warsaw", "00"),
    ("Prague", "CZ", 50.076, 14.438, "Europe/Prague", "11"),
    ("Lisbon", "PT", 38.722, -9.139, "Europe/Lisbon", "11"),
    ("Athens", "GR", 37.984, 23.728, "Europe/Athens", "10"),
    ("Istanbul", "TR", 41.008, 28.978, "Europe/Istanbul", "34"),
    ("Moscow", "RU", 55.756, 37.617, "Europe/Moscow", "10"),
    ("Reykjavik", "IS", 64.147, -21.942, "Atlantic/Reykjavik", "10"),
    ("Cairo", "EG", 30.044, 31.236, "Africa/Cairo", "11"),
    ("Lagos", "NG", 6.524, 3.379, "Africa/Lagos", "10"),
    ("Nairobi", "KE", -1.292, 36.822, "Africa/Nairobi", "00"),
    ("Johannesburg", "ZA", -26.204, 28.047, "Africa/Johannesburg", "20"),
    ("Cape Town", "ZA", -33.925, 18.424, "Africa/Johannesburg", "80"),
    ("Dubai", "AE", 25.205, 55.271, "Asia/Dubai", "00"),
    ("Mumbai", "IN", 19.076, 72.878, "Asia/Kolkata", "40"),
    ("Bangalore", "IN", 12.972, 77.595, "Asia/Kolkata", "56"),
    ("Delhi", "IN", 28.614, 77.209, "Asia/Kolkata", "11"),
    ("Bangkok", "TH", 13.756, 100.502, "Asia/Bangkok", "10"),
    ("Hong Kong", "HK", 22.319, 114.169, "Asia/Hong_Kong", "99"),
    ("Shanghai", "CN", 31.23, 121.474, "Asia/Shanghai", "20"),
    ("Beijing", "CN", 39.904, 116.407, "Asia/Shanghai", "10"),
    ("Seoul", "KR", 37.567, 126.978, "Asia/Seoul", "04"),
    ("Osaka", "JP", 34.694, 135.502, "Asia/Tokyo", "53"),
    ("Jakarta", "ID", -6.209, 106.846, "Asia/Jakarta", "10"),
    ("Manila", "PH", 14.6, 120.984, "Asia/Manila", "10"),
    ("Melbourne", "AU", -37.814, 144.963, "Australia/Melbourne", "30"),
    ("Brisbane", "AU", -27.47, 153.026, "Australia/Brisbane", "40"),
    ("Perth", "AU", -31.951, 115.861, "Australia/Perth", "60"),
    ("Auckland", "NZ", -36.848, 174.763, "Pacific/Auckland", "10"),
    ("Honolulu", "US", 21.307, -157.858, "Pacific/Honolulu", "96"),
    ("Anchorage", "US", 61.218, -149.9, "America/Anchorage", "99"),
    ("Los Angeles", "US", 34.052, -118.244, "America/Los_Angeles", "90"),
    ("Denver", "US", 39.739, -104.99, "America/Denver", "80"),
    ("Phoenix", "US", 33.448, -112.074, "America/Phoenix", "85"),
    ("Boston", "US", 42.36, -71.059, "America/New_York", "02"),
    ("Washington", "US", 38.907, -77.037, "America/New_York", "20"),
    ("Miami", "US", 25.762, -80.192, "America/New_York", "33"),
    ("Atlanta", "US", 33.749, -84.388, "America/New_York", "30"),
    ("Dallas", "US", 32.777, -96.797, "America/Chicago", "75"),
    ("Vancouver", "CA", 49.283, -123.121, "America/Vancouver", "V6"),
    ("Montreal", "CA", 45.502, -73.567, "America/Toronto", "H2"),
    ("Mexico City", "MX", 19.433, -99.133, "America/Mexico_City", "06"),
    ("Bogota", "CO", 4.711, -74.072, "America/Bogota", "11"),
    ("Lima", "PE", -12.046, -77.043, "America/Lima", "15"),
    ("Santiago", "CL", -33.449, -70.669, "America/Santiago", "83"),
    ("Buenos Aires", "AR", -34.604, -58.382, "America/Argentina/Buenos_Aires", "C1"),
    ("Rio de Janeiro", "BR", -22.907, -43.173, "America/Sao_Paulo", "20"),
)

CITIES: tuple[CityRef, ...] = tuple(
    CityRef(p.city, p.country, p.latitude, p.longitude, p.timezone, p.postal_prefix, p.phone_prefix, p.currency, True)
    for p in PLACES
) + tuple(
    CityRef(c, cc, lat, lon, tz, pp, CALLING_CODES[cc], COUNTRY_CURRENCY[cc], False)
    for c, cc, lat, lon, tz, pp in _OPEN_WORLD_CITIES
)
"""Every city on the map: the population's cities first (in ``PLACES`` order), then the open world's."""


def nearest_city(lat: float, lon: float) -> tuple[CityRef, float]:
    """The map's city nearest to a point (ties broken by name) and its distance in metres."""
    best = min(CITIES, key=lambda c: (haversine_m(lat, lon, c.latitude, c.longitude), c.city))
    return best, haversine_m(lat, lon, best.latitude, best.longitude)


# -- distances ------------------------------------------------------------------------------------


def _half_angle(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Half the central angle between two points, in radians (the haversine formula)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return math.asin(min(1.0, math.sqrt(a)))


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float, *, radius_km: float = EARTH_RADIUS_KM) -> float:
    """Great-circle distance between two points, in kilometres.

    Args:
        lat1: Latitude of the first point, in degrees.
        lon1: Longitude of the first point, in degrees.
        lat2: Latitude of the second point, in degrees.
        lon2: Longitude of the second point, in degrees.
        radius_km: The Earth's radius; a service written with a round 6371 km passes ``6371.0``.

    Returns:
        The distance in kilometres.
    """
    return 2 * radius_km * _half_angle(lat1, lon1, lat2, lon2)


def haversine_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance between two points, in metres (radius :data:`EARTH_RADIUS_M`)."""
    return 2 * EARTH_RADIUS_M * _half_angle(lat1, lon1, lat2, lon2)
