"""Waypoint maps: the world's addresses, companies and cities on one consistent map."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from typing import Any

from compoworld import Episode
from compoworld.engine.entities import Company
from compoworld.engine.state import canonical_json
from compoworld.services.places.maps import format_address
from compoworld.world.geo import CITIES, haversine_m
from compoworld.world.population import PLACES
from tests.services.helpers import ServiceTools, service_world

MAPS = ServiceTools("maps")
WORLD = MAPS.world
ok, refused = MAPS.ok, MAPS.refused
POP = WORLD.population


def first(ep: Episode, tool: str, **args: Any) -> dict[str, Any]:
    out = ok(ep, tool, **args)
    assert out["results"], out
    return dict(out["results"][0])


def company_in(country: str) -> Company:
    return next(c for c in POP.customers if c.place.country == country)


# -- world consistency: geocoding ---------------------------------------------------------------


def test_a_world_companys_address_geocodes_to_its_city_with_a_small_offset_from_the_street(ep: Episode) -> None:
    for company in POP.companies:
        res = first(ep, "geocode", address=format_address(company.address))
        assert res["address"] == company.address.model_dump()
        assert res["location_type"] == "ROOFTOP" and not res["partial_match"]
        assert (res["city"], res["country"]) == (company.place.city, company.place.country)
        off = haversine_m(res["latitude"], res["longitude"], company.place.latitude, company.place.longitude)
        assert 0 < off < 6000, (company.name, off)


def test_every_way_of_writing_a_world_address_finds_the_same_point(ep: Episode) -> None:
    person = POP.contacts[0]
    a = person.address
    forms = [
        {"address": format_address(a)},
        {"address": f"{a.street}, {a.postal_code} {a.city}"},
        {"address": f"{a.street.upper()}, {a.city.lower()}, {a.country}"},
        {"address": f"{a.street.replace('Street', 'St').replace('Road', 'Rd')}, {a.city}"},
        {"postal_address": a.model_dump()},
    ]
    found = [first(ep, "geocode", **f) for f in forms]
    assert {(r["latitude"], r["longitude"], r["place_id"]) for r in found} == {
        (found[0]["latitude"], found[0]["longitude"], found[0]["place_id"])
    }
    assert all(r["address"] == a.model_dump() for r in found)


def test_a_wrong_postal_code_still_finds_the_address_as_a_partial_match(ep: Episode) -> None:
    a = POP.customers[0].address
    res = first(ep, "geocode", address=f"{a.street}, 99999 {a.city}")
    assert res["address"] == a.model_dump() and res["partial_match"] is True


def test_a_city_alone_geocodes_to_its_real_centre(ep: Episode) -> None:
    for p in PLACES:
        res = first(ep, "geocode", address=p.city)
        assert (res["latitude"], res["longitude"]) == (p.latitude, p.longitude)
        assert res["types"] == ["locality", "political"] and res["location_type"] == "APPROXIMATE"
        assert res["address"] is None and res["country"] == p.country
    assert first(ep, "geocode", address="São Paulo")["city"] == "Sao Paulo"


def test_an_unknown_street_in_a_known_city_is_placed_near_the_city_with_a_local_postal_code(ep: Episode) -> None:
    res = first(ep, "geocode", address="17 Lindenweg, Munich")
    assert res["location_type"] == "RANGE_INTERPOLATED"
    assert res["address"]["postal_code"].startswith("80") and res["address"]["city"] == "Munich"
    assert haversine_m(res["latitude"], res["longitude"], 48.137, 11.575) < 6000
    # The same street is always in the same place.
    assert first(ep, "geocode", address="17 Lindenweg, 80999 Munich, Germany")["latitude"] == res["latitude"]


def test_open_world_cities_are_at_their_real_coordinates(ep: Episode) -> None:
    res = first(ep, "geocode", address="Hamburg, DE")
    assert (res["latitude"], res["longitude"]) == (53.551, 9.993)
    town = first(ep, "geocode", address="Kleinstadt, Germany")
    assert town["country"] == "DE" and 47 < town["latitude"] < 55 and 5 < town["longitude"] < 15


def test_a_city_state_address_is_read_with_the_city_as_its_country(ep: Episode) -> None:
    res = first(ep, "geocode", address="5 King Street, Singapore")
    assert res["city"] == "Singapore" and res["address"]["street"] == "5 King Street"


def test_reverse_geocoding_a_companys_point_finds_its_address_then_its_city_then_its_country(ep: Episode) -> None:
    for company in POP.customers[:10]:
        here = first(ep, "geocode", postal_address=company.address.model_dump())
        out = ok(ep, "reverse_geocode", latitude=here["latitude"], longitude=here["longitude"])["results"]
        street, city, country = out
        assert street["distance_m"] == 0
        assert street["address"]["street"] == company.address.street
        assert street["address"]["city"] == company.address.city
        assert city["city"] == company.place.city and city["types"] == ["locality", "political"]
        assert country["country"] == company.place.country and country["city"] is None


def test_reverse_geocoding_a_city_centre_names_the_city(ep: Episode) -> None:
    for p in PLACES:
        res = ok(ep, "reverse_geocode", latitude=p.latitude, longitude=p.longitude, result_type="locality")
        (only,) = res["results"]
        assert (only["city"], only["country"], only["distance_m"]) == (p.city, p.country, 0)


# -- world consistency: places ---------------------------------------------------------------------


def test_searching_a_world_company_by_name_or_domain_finds_its_office(ep: Episode) -> None:
    company = POP.customers[3]
    for query in (company.name, company.domain, f"{company.name} office"):
        place = first(ep, "search_places", query=query)
        assert place["name"] == company.name
        assert place["address"] == company.address.model_dump()
        assert place["domain"] == company.domain and place["website"] == f"https://www.{company.domain}"
        assert place["phone"] == company.phone
        assert "office" in place["types"]
    geo = first(ep, "geocode", postal_address=company.address.model_dump())
    assert (place["latitude"], place["longitude"]) == (geo["latitude"], geo["longitude"])


def test_place_details_of_a_company_agree_with_the_search_and_its_city(ep: Episode) -> None:
    company = POP.customers[5]
    place = first(ep, "search_places", query=company.name)
    details = ok(ep, "place_details", place_id=place["place_id"])
    for key in ("name", "address", "latitude", "longitude", "phone", "website", "domain", "rating"):
        assert details[key] == place[key], key
    assert details["timezone"] == company.place.timezone
    assert len(details["opening_hours"]) == 7 and details["opening_hours"][5] == "Saturday: Closed"
    assert details["reviews"] == sorted(details["reviews"], key=lambda r: r["time"], reverse=True)


def test_nearby_offices_around_a_company_include_it(ep: Episode) -> None:
    company = POP.customers[0]
    geo = first(ep, "geocode", postal_address=company.address.model_dump())
    out = ok(ep, "places_nearby", latitude=geo["latitude"], longitude=geo["longitude"], radius_m=200, type="office")
    assert company.name in [p["name"] for p in out["results"]]
    here = next(p for p in out["results"] if p["name"] == company.name)
    assert here["distance_m"] == 0
    colleagues = {c.name for c in POP.companies if c.place.city == company.place.city}
    wide = ok(ep, "places_nearby", latitude=geo["latitude"], longitude=geo["longitude"], radius_m=20000, type="office")
    assert {p["name"] for p in wide["results"]} == colleagues


def test_generated_places_are_the_same_in_text_search_nearby_search_and_details(ep: Episode) -> None:
    cafes = ok(ep, "search_places", query="coffee in Berlin")["results"]
    assert cafes and all("cafe" in p["types"] and p["address"]["city"] == "Berlin" for p in cafes)
    cafe = cafes[0]
    near = ok(ep, "places_nearby", latitude=cafe["latitude"], longitude=cafe["longitude"], radius_m=50, type="cafe")
    assert near["results"][0]["place_id"] == cafe["place_id"]
    details = ok(ep, "place_details", place_id=cafe["place_id"])
    assert (details["name"], details["address"]) == (cafe["name"], cafe["address"])
    # Geocoding the cafe's address lands on the cafe, and reverse geocoding the cafe finds its address.
    geo = first(ep, "geocode", postal_address=cafe["address"])
    assert (geo["latitude"], geo["longitude"], geo["location_type"]) == (cafe["latitude"], cafe["longitude"], "ROOFTOP")
    back = first(ep, "reverse_geocode", latitude=cafe["latitude"], longitude=cafe["longitude"])
    assert back["distance_m"] == 0 and back["address"]["street"] == cafe["address"]["street"]


def test_nearby_results_lie_within_the_radius_and_rank_by_distance_when_asked(ep: Episode) -> None:
    p = PLACES[8]
    out = ok(ep, "places_nearby", latitude=p.latitude, longitude=p.longitude, radius_m=3000, rank_by="distance")
    dists = [r["distance_m"] for r in out["results"]]
    assert dists and dists == sorted(dists) and max(dists) <= 3000
    for r in out["results"]:
        assert round(haversine_m(p.latitude, p.longitude, r["latitude"], r["longitude"])) == r["distance_m"]


def test_nearby_pages_follow_each_other_without_repeats_and_stop_at_sixty(ep: Episode) -> None:
    p = PLACES[0]
    seen: list[str] = []
    token = None
    pages = 0
    while True:
        args: dict[str, Any] = {"latitude": p.latitude, "longitude": p.longitude, "radius_m": 10000}
        if token:
            args["page_token"] = token
        out = ok(ep, "places_nearby", **args)
        seen += [r["place_id"] for r in out["results"]]
        pages += 1
        token = out["next_page_token"]
        if token is None:
            break
    assert len(seen) == len(set(seen)) and 40 < len(seen) <= 60
    assert pages == -(-len(seen) // 20)


def test_a_keyword_narrows_nearby_places(ep: Episode) -> None:
    p = PLACES[2]
    out = ok(ep, "places_nearby", latitude=p.latitude, longitude=p.longitude, radius_m=8000, keyword="museum")
    assert out["results"] and all("museum" in r["types"] or "museum" in r["name"].lower() for r in out["results"])


# -- routes ----------------------------------------------------------------------------------------------


def test_a_route_is_the_great_circle_times_the_modes_detour_and_its_steps_add_up(ep: Episode) -> None:
    company = POP.customers[0]
    a = first(ep, "geocode", postal_address=company.address.model_dump())
    b = first(ep, "geocode", address=company.place.city)
    straight = haversine_m(a["latitude"], a["longitude"], b["latitude"], b["longitude"])
    times = {}
    for mode, factor in (("driving", 1.3), ("walking", 1.2), ("bicycling", 1.25), ("transit", 1.35)):
        r = ok(ep, "route", origin_address=company.address.model_dump(), destination=company.place.city, mode=mode)
        assert r["distance_m"] == round(straight * factor)
        assert sum(s["distance_m"] for s in r["steps"]) == r["distance_m"]
        assert sum(s["duration_s"] for s in r["steps"]) == r["duration_s"]
        assert (r["origin"]["latitude"], r["destination"]["latitude"]) == (a["latitude"], b["latitude"])
        times[mode] = r["duration_s"]
    assert times["driving"] < times["bicycling"] < times["walking"]


def test_driving_counts_traffic_and_arrives_after_the_trip(ep: Episode) -> None:
    r = ok(ep, "route", origin="Munich", destination="Berlin")
    assert 480_000 < r["distance_m"] < 900_000
    assert 4 * 3600 < r["duration_s"] < 12 * 3600
    assert r["duration_in_traffic_s"] is not None
    depart = dt.datetime.fromisoformat(r["departure_time"])
    arrive = dt.datetime.fromisoformat(r["arrival_time"])
    assert (arrive - depart).total_seconds() == r["duration_in_traffic_s"]
    assert r["departure_time"] == "2026-03-02T09:00:00Z"  # the world's now
    assert r["distance_text"].endswith(" km")
    imperial = ok(ep, "route", origin="Munich", destination="Berlin", units="imperial")
    assert imperial["distance_text"].endswith(" mi") and imperial["distance_m"] == r["distance_m"]


def test_rush_hour_driving_is_slower_than_at_night(ep: Episode) -> None:
    # 08:00 and 23:00 in New York (UTC-4 after the March switch to daylight time).
    rush = ok(ep, "route", origin="New York", destination="Chicago", departure_time="2026-03-10T12:00:00Z")
    night = ok(ep, "route", origin="New York", destination="Chicago", departure_time="2026-03-11T03:00:00Z")
    assert rush["duration_s"] == night["duration_s"]
    assert rush["duration_in_traffic_s"] > night["duration_in_traffic_s"]


def test_transit_has_walks_at_both_ends_and_a_fare_in_the_local_currency(ep: Episode) -> None:
    london = next(c for c in CITIES if c.city == "London")
    r = ok(ep, "route", origin="London", destination="5 King Street, London", mode="transit")
    assert r["fare_currency"] == london.currency == "GBP"
    assert r["fare"] is not None and 100 < r["fare"] < 1000
    modes = [s["travel_mode"] for s in r["steps"]]
    assert modes[0] == modes[-1] == "WALKING" and "TRANSIT" in modes
    assert all(s["transit_line"] for s in r["steps"] if s["travel_mode"] == "TRANSIT")


def test_a_route_from_coordinates_or_a_place_id_starts_there(ep: Episode) -> None:
    company = POP.customers[2]
    office = first(ep, "search_places", query=company.name)
    by_id = ok(ep, "route", origin=office["place_id"], destination=company.place.city, mode="walking")
    by_point = ok(
        ep,
        "route",
        origin=f"{office['latitude']},{office['longitude']}",
        destination=company.place.city,
        mode="walking",
    )
    assert by_id["distance_m"] == by_point["distance_m"]
    assert by_id["origin"]["formatted_address"].startswith(company.name)


def test_the_same_route_is_the_same_on_every_call(ep: Episode) -> None:
    args = {"origin": POP.customers[0].name, "destination": POP.customers[0].place.city, "mode": "transit"}
    assert ok(ep, "route", **args) == ok(Episode(WORLD), "route", **args)


# -- time zones ------------------------------------------------------------------------------------


def test_every_world_city_is_in_its_own_time_zone(ep: Episode) -> None:
    for p in PLACES:
        tz = ok(ep, "timezone", latitude=p.latitude + 0.01, longitude=p.longitude - 0.01)
        assert (tz["time_zone_id"], tz["nearest_city"], tz["country"]) == (p.timezone, p.city, p.country)


def test_offsets_follow_daylight_saving_time(ep: Episode) -> None:
    winter = ok(ep, "timezone", latitude=52.52, longitude=13.405)
    assert (winter["raw_offset_s"], winter["dst_offset_s"], winter["utc_offset"]) == (3600, 0, "+01:00")
    assert winter["time_zone_name"] == "Central European Standard Time"
    assert winter["local_time"] == "2026-03-02T10:00:00+01:00"
    summer = ok(ep, "timezone", latitude=52.52, longitude=13.405, timestamp="2026-07-01T12:00:00Z")
    assert (summer["raw_offset_s"], summer["dst_offset_s"], summer["utc_offset"]) == (3600, 3600, "+02:00")
    assert summer["time_zone_name"] == "Central European Summer Time"
    sydney = ok(ep, "timezone", latitude=-33.869, longitude=151.209)  # southern summer in March
    assert (sydney["utc_offset"], sydney["abbreviation"]) == ("+11:00", "AEDT")
    ny = ok(ep, "timezone", latitude=40.713, longitude=-74.006)
    assert (ny["raw_offset_s"], ny["utc_offset"]) == (-18000, "-05:00")


def test_a_place_details_time_zone_matches_the_time_zone_tool(ep: Episode) -> None:
    company = company_in("US") if any(c.place.country == "US" for c in POP.customers) else POP.customers[0]
    place = first(ep, "search_places", query=company.name)
    details = ok(ep, "place_details", place_id=place["place_id"])
    tz = ok(ep, "timezone", latitude=place["latitude"], longitude=place["longitude"])
    assert details["timezone"] == tz["time_zone_id"]
    assert details["utc_offset_minutes"] * 60 == tz["raw_offset_s"] + tz["dst_offset_s"]


# -- value ranges ------------------------------------------------------------------------------------


def test_places_have_realistic_ratings_prices_and_coordinates(ep: Episode) -> None:
    for p in PLACES[:6]:
        out = ok(ep, "places_nearby", latitude=p.latitude, longitude=p.longitude, radius_m=5000)
        for r in out["results"]:
            assert r["rating"] is None or 1.0 <= r["rating"] <= 5.0
            assert r["price_level"] is None or 1 <= r["price_level"] <= 4
            assert abs(r["latitude"] - p.latitude) < 0.05 and abs(r["longitude"] - p.longitude) < 0.1
            assert r["address"]["city"] == p.city and r["address"]["country"] == p.country


# -- determinism ------------------------------------------------------------------------------------


_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("geocode", {"address": "17 Lindenweg, Munich"}),
    ("reverse_geocode", {"latitude": 48.86, "longitude": 2.35}),
    ("search_places", {"query": "hotel in Tokyo", "limit": 5}),
    ("places_nearby", {"latitude": 51.507, "longitude": -0.128, "radius_m": 2000, "limit": 5}),
    ("route", {"origin": "Paris", "destination": "Lyon", "mode": "transit"}),
    ("timezone", {"latitude": 35.676, "longitude": 139.65}),
]

_SCRIPT = f"""
from compoworld import Episode
from tests.services.helpers import service_world
from compoworld.engine.state import canonical_json
ep = Episode(service_world("maps"))
print(canonical_json([ep.call("maps__" + n, a).to_dict() for n, a in {_CALLS!r}]))
"""


def test_the_same_calls_give_the_same_answers_in_two_episodes() -> None:
    one, two = Episode(WORLD), Episode(WORLD, seed=7)
    for tool, args in _CALLS:
        assert ok(one, tool, **args) == ok(two, tool, **args)


def test_results_are_byte_identical_in_a_process_with_another_hash_seed() -> None:
    ep = Episode(WORLD)
    here = canonical_json([ep.call("maps__" + n, a).to_dict() for n, a in _CALLS])
    env = dict(os.environ, PYTHONHASHSEED="4242")
    proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, env=env, check=True)
    assert proc.stdout.strip() == here
    assert all(r["ok"] for r in json.loads(here))


def test_another_world_seed_puts_streets_elsewhere() -> None:
    other = Episode(service_world("maps", seed=8))
    a = first(Episode(WORLD), "geocode", address="17 Lindenweg, Munich")
    b = first(other, "geocode", address="17 Lindenweg, Munich")
    assert (a["latitude"], a["longitude"]) != (b["latitude"], b["longitude"])


# -- refusals ---------------------------------------------------------------------------------------


def test_geocoding_nothing_is_refused(ep: Episode) -> None:
    refused(ep, "geocode", "rule_violation", "address")
    refused(ep, "geocode", "rule_violation", "address", address="  ")


def test_geocoding_with_both_a_text_and_a_structured_address_is_refused(ep: Episode) -> None:
    a = POP.customers[0].address
    refused(ep, "geocode", "rule_violation", "address", address=a.city, postal_address=a.model_dump())


def test_an_address_without_a_known_city_or_country_is_not_found(ep: Episode) -> None:
    msg = refused(ep, "geocode", "not_found", "address", address="Nowhere-on-the-map")
    assert "Nowhere" in msg


def test_a_structured_address_in_a_country_off_the_map_is_not_found(ep: Episode) -> None:
    addr = {"street": "1 Main Street", "city": "Quito", "postal_code": "170150", "country": "EC"}
    refused(ep, "geocode", "not_found", "postal_address", postal_address=addr)


def test_reverse_geocoding_the_open_sea_is_not_found(ep: Episode) -> None:
    refused(ep, "reverse_geocode", "not_found", "latitude", latitude=-30.0, longitude=-30.0)


def test_out_of_range_coordinates_are_invalid_arguments(ep: Episode) -> None:
    refused(ep, "reverse_geocode", "invalid_arguments", "latitude", latitude=95.0, longitude=0.0)
    refused(ep, "timezone", "invalid_arguments", "longitude", latitude=10.0, longitude=200.0)


def test_a_time_zone_far_out_at_sea_is_not_found(ep: Episode) -> None:
    refused(ep, "timezone", "not_found", "latitude", latitude=-50.0, longitude=-130.0)


def test_an_unknown_place_id_is_not_found(ep: Episode) -> None:
    refused(ep, "place_details", "not_found", "place_id", place_id="not-a-place")
    refused(ep, "place_details", "not_found", "place_id", place_id="ChIJ!!!")
    refused(ep, "place_details", "not_found", "place_id", place_id="ChIJY3xjbzk5OTk")  # company co9999


def test_a_forged_page_token_is_refused(ep: Episode) -> None:
    refused(ep, "places_nearby", "rule_violation", "page_token", latitude=52.52, longitude=13.4, page_token="abc")


def test_an_empty_text_search_is_refused(ep: Episode) -> None:
    refused(ep, "search_places", "rule_violation", "query", query="?!")


def test_a_route_across_the_sea_is_refused(ep: Episode) -> None:
    msg = refused(ep, "route", "rule_violation", "destination", origin="Berlin", destination="New York")
    assert "sea" in msg
    refused(ep, "route", "rule_violation", "destination", origin="Sydney", destination="Auckland", mode="transit")
    # The same island is fine; so is the tunnel under the Channel.
    assert ok(ep, "route", origin="Tokyo", destination="Osaka, JP")["distance_m"] > 400_000
    assert ok(ep, "route", origin="London", destination="Paris")["distance_m"] > 340_000


def test_a_route_leaving_in_the_past_is_refused(ep: Episode) -> None:
    refused(
        ep,
        "route",
        "rule_violation",
        "departure_time",
        origin="Berlin",
        destination="Munich",
        departure_time="2026-03-01T09:00:00Z",
    )


def test_a_route_without_an_origin_is_refused(ep: Episode) -> None:
    refused(ep, "route", "rule_violation", "origin", destination="Berlin")


def test_a_route_with_an_unknown_end_names_that_end(ep: Episode) -> None:
    refused(ep, "route", "not_found", "destination", origin="Berlin", destination="Atlantis-under-the-sea")
