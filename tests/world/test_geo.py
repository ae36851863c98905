"""The world's geography: cities, country tables and great-circle distances."""

from __future__ import annotations

import pytest

from compoworld.world.geo import (
    CALLING_CODES,
    CITIES,
    COUNTRY_CURRENCY,
    COUNTRY_NAMES,
    EARTH_RADIUS_KM,
    EARTH_RADIUS_M,
    country_name,
    haversine_km,
    haversine_m,
    nearest_city,
)
from compoworld.world.population import PLACES


def test_the_map_holds_the_population_cities_first_then_the_open_world() -> None:
    world = [c for c in CITIES if c.world]
    assert [(c.city, c.country, c.latitude, c.longitude) for c in world] == [
        (p.city, p.country, p.latitude, p.longitude) for p in PLACES
    ]
    assert CITIES[: len(PLACES)] == tuple(world)
    assert len(CITIES) > 2 * len(PLACES)
    assert len({(c.city, c.country) for c in CITIES}) == len(CITIES)


def test_every_city_country_is_in_every_country_table() -> None:
    countries = {c.country for c in CITIES}
    assert countries == set(COUNTRY_NAMES) == set(COUNTRY_CURRENCY) == set(CALLING_CODES)
    for city in CITIES:
        assert city.currency == COUNTRY_CURRENCY[city.country]
        assert city.phone_prefix.startswith(CALLING_CODES[city.country])


def test_country_names_with_and_without_the_article() -> None:
    assert country_name("DE") == "Germany"
    assert country_name("GB") == "United Kingdom"
    assert country_name("GB", article=True) == "the United Kingdom"
    assert country_name("DE", article=True) == "Germany"
    assert country_name("XX") == country_name("XX", article=True) == "XX"


def test_haversine_distances() -> None:
    berlin = next(c for c in CITIES if c.city == "Berlin")
    paris = next(c for c in CITIES if c.city == "Paris")
    km = haversine_km(berlin.latitude, berlin.longitude, paris.latitude, paris.longitude)
    assert km == pytest.approx(878, abs=2)
    assert haversine_m(berlin.latitude, berlin.longitude, paris.latitude, paris.longitude) == pytest.approx(km * 1000)
    assert haversine_km(0, 0, 0, 0) == 0.0
    assert haversine_km(0, 0, 0, 180) == pytest.approx(3.141592653589793 * EARTH_RADIUS_KM)
    assert EARTH_RADIUS_M == EARTH_RADIUS_KM * 1000
    rounded = haversine_km(0, 0, 0, 90, radius_km=6371.0)
    assert rounded == pytest.approx(3.141592653589793 / 2 * 6371)


def test_nearest_city_and_its_distance() -> None:
    city, metres = nearest_city(48.2, 11.6)
    assert (city.city, city.country) == ("Munich", "DE")
    assert metres == pytest.approx(haversine_m(48.2, 11.6, city.latitude, city.longitude))
    assert nearest_city(city.latitude, city.longitude) == (city, 0.0)
