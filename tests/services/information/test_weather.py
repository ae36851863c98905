"""Skycast weather: one consistent weather per place and date, across current, forecast, history, alerts, air."""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import subprocess
import sys
from typing import Any

from compoworld import Episode
from compoworld.world.population import PLACES
from tests.services.helpers import ServiceTools, service_world

WEATHER = ServiceTools("weather")
WORLD = WEATHER.world
ok, refused = WEATHER.ok, WEATHER.refused
POP = WORLD.population
TODAY = WORLD.epoch.date()
HOME = POP.home.place


def place(city: str) -> Any:
    return next(p for p in PLACES if p.city == city)


# -- world consistency ----------------------------------------------------------------------


def test_every_world_city_is_answered_with_its_real_coordinates_country_and_time_zone(ep: Episode) -> None:
    for p in PLACES:
        loc = ok(ep, "current_weather", city=p.city)["location"]
        assert (loc["name"], loc["country"], loc["timezone"]) == (p.city, p.country, p.timezone)
        assert (loc["latitude"], loc["longitude"]) == (p.latitude, p.longitude)


def test_world_companies_have_their_citys_weather_by_name_and_at_nearby_street_coordinates(ep: Episode) -> None:
    for n, company in enumerate(POP.customers):
        city = company.place
        by_name = ok(ep, "current_weather", city=company.address.city)
        # A street address geocodes a few km from the city centre: still the city's weather.
        dlat, dlon = (0.03, -0.04) if n % 2 else (-0.025, 0.035)
        near = ok(ep, "current_weather", latitude=city.latitude + dlat, longitude=city.longitude + dlon)
        assert near["location"]["name"] == city.city and near["location"]["country"] == city.country
        assert near["location"]["latitude"] == round(city.latitude + dlat, 4)
        for key in ("temperature", "feels_like", "humidity", "wind_speed", "precipitation_mm", "pressure_hpa"):
            assert near[key] == by_name[key], (company.name, key)
        assert near["condition"]["id"] == by_name["condition"]["id"]
        # The sun rises a few seconds apart across town.
        rise = [dt.datetime.fromisoformat(x["sunrise"]) for x in (near, by_name)]
        assert abs((rise[0] - rise[1]).total_seconds()) < 60


def test_real_cities_beyond_the_world_are_where_the_map_puts_them(ep: Episode) -> None:
    for name, country, tz in (("Reykjavik", "IS", "Atlantic/Reykjavik"), ("Dublin", "IE", "Europe/Dublin")):
        loc = ok(ep, "current_weather", city=name)["location"]
        assert (loc["name"], loc["country"], loc["timezone"]) == (name, country, tz)
    delhi = ok(ep, "current_weather", city="Delhi")["location"]
    assert delhi["utc_offset_seconds"] == 5 * 3600 + 1800
    assert (
        ok(ep, "air_quality", city="Delhi")["current"]["pm2_5"] > ok(ep, "air_quality", city="Oslo")["current"]["pm2_5"]
    )


def test_city_names_match_without_case_or_accents_and_with_a_country_suffix(ep: Episode) -> None:
    plain = ok(ep, "current_weather", city="Sao Paulo")
    for spelling in ("são paulo", "SAO  PAULO", "Sao Paulo,BR", "São Paulo, br"):
        assert ok(ep, "current_weather", city=spelling) == plain
    assert ok(ep, "current_weather", city="Paris", country="FR")["location"]["timezone"] == "Europe/Paris"


def test_utc_offsets_follow_daylight_saving_of_each_hemisphere(ep: Episode) -> None:
    # 2 March: northern winter time, Sydney still on summer time.
    offsets = {c: ok(ep, "current_weather", city=c)["location"]["utc_offset_seconds"] for c in ("London", "Berlin")}
    assert offsets == {"London": 0, "Berlin": 3600}
    assert ok(ep, "current_weather", city="Sydney")["location"]["utc_offset_seconds"] == 11 * 3600
    assert ok(ep, "current_weather", city="New York")["location"]["utc_offset_seconds"] == -5 * 3600
    assert ok(ep, "current_weather", city="Tokyo")["location"]["utc_offset_seconds"] == 9 * 3600


def test_the_current_weather_is_the_first_forecast_hour_and_lies_within_todays_range(ep: Episode) -> None:
    for p in PLACES:
        now = ok(ep, "current_weather", city=p.city)
        hour = ok(ep, "hourly_forecast", city=p.city, hours=1)["hours"][0]
        for key in ("temperature", "feels_like", "humidity", "clouds", "wind_speed", "wind_deg", "condition"):
            assert now[key] == hour[key], (p.city, key)
        today = ok(ep, "daily_forecast", city=p.city, days=1)["days"][0]
        assert today["date"] == now["local_time"][:10]
        assert today["temp_min"] <= now["temperature"] <= today["temp_max"], p.city


def test_forecast_hours_are_consecutive_utc_hours_even_in_half_hour_time_zones(ep: Episode) -> None:
    hours = ok(ep, "hourly_forecast", city="Bangalore", hours=48)["hours"]
    start = WORLD.epoch
    assert [h["time"] for h in hours] == [
        (start + dt.timedelta(hours=k)).isoformat().replace("+00:00", "Z") for k in range(48)
    ]
    assert hours[0]["local_time"] == "2026-03-02T14:30"  # UTC+05:30
    assert ok(ep, "air_quality", city="Bangalore", hours=0)["current"]["time"] == hours[0]["time"]


def test_the_history_of_today_repeats_the_forecast_for_today_and_its_observed_hours(ep: Episode) -> None:
    for city in ("Berlin", "Tokyo", "Seattle"):
        today = ok(ep, "daily_forecast", city=city, days=1)["days"][0]
        history = ok(ep, "historical_weather", city=city, date=today["date"])
        assert history["day"] == today
        first_hour = ok(ep, "hourly_forecast", city=city, hours=1)["hours"][0]
        assert history["hours"][-1] == first_hour  # the hours observed so far end with the current one
        assert all(h["time"] <= first_hour["time"] for h in history["hours"])


def test_a_forecast_from_a_later_start_date_repeats_the_same_days(ep: Episode) -> None:
    full = ok(ep, "daily_forecast", city=HOME.city, days=16)["days"]
    later = ok(ep, "daily_forecast", city=HOME.city, start_date=full[9]["date"], days=7)["days"]
    assert later == full[9:]
    assert [d["date"] for d in full] == [(TODAY + dt.timedelta(days=k)).isoformat() for k in range(16)]


def test_hourly_temperatures_of_a_past_day_span_exactly_its_daily_minimum_and_maximum(ep: Episode) -> None:
    day = TODAY - dt.timedelta(days=40)
    history = ok(ep, "historical_weather", city="Chicago", date=day.isoformat())
    temps = [h["temperature"] for h in history["hours"]]
    assert len(temps) == 24
    assert (min(temps), max(temps)) == (history["day"]["temp_min"], history["day"]["temp_max"])
    assert history["hours"][0]["local_time"] == f"{day.isoformat()}T00:00"
    rain = sum(h["rain_mm"] + h["snow_mm"] for h in history["hours"])
    assert math.isclose(rain, history["day"]["rain_mm"] + history["day"]["snow_mm"], abs_tol=0.05)


def test_every_alert_is_backed_by_the_forecast_of_its_day(ep: Episode) -> None:
    seen = set()
    for p in PLACES:
        alerts = ok(ep, "weather_alerts", city=p.city, days=8)
        daily = {d["date"]: d for d in ok(ep, "daily_forecast", city=p.city, days=8)["days"]}
        offset = alerts["location"]["utc_offset_seconds"]
        for alert in alerts["alerts"]:
            # Today's offset, plus an hour for a daylight-saving switch within the week.
            start = dt.datetime.fromisoformat(alert["start"]) + dt.timedelta(seconds=offset + 3600)
            day = daily[start.date().isoformat()]
            seen.add(alert["event"])
            assert alert["end"] > alert["start"]
            if alert["event"] == "Heavy rain":
                assert day["rain_mm"] >= 20
            elif alert["event"] in ("Heat", "Extreme heat"):
                assert day["temp_max"] >= 31
            elif alert["event"] in ("Frost", "Severe frost"):
                assert day["temp_min"] <= -6
            elif alert["event"] in ("Snowfall", "Heavy snowfall"):
                assert day["snow_mm"] >= 5
            elif alert["event"] in ("Wind gusts", "Storm"):
                assert day["wind_gust"] >= 17
            elif alert["event"] == "Thunderstorms":
                assert day["condition"]["main"] == "Thunderstorm"
            if p.country == "DE":
                assert alert["sender_name"] == "Deutscher Wetterdienst"
    assert seen, "some world city has a warning in the next 8 days"


def test_alerts_leave_out_warnings_that_have_ended(ep: Episode) -> None:
    now = WORLD.epoch.isoformat().replace("+00:00", "Z")
    for p in PLACES:
        for alert in ok(ep, "weather_alerts", city=p.city, days=2)["alerts"]:
            assert alert["end"] > now


def test_air_quality_is_worse_in_milan_than_in_stockholm_and_its_index_follows_the_pollutants(ep: Episode) -> None:
    def mean_pm25(city: str) -> float:
        out = ok(ep, "air_quality", city=city, hours=96)
        readings = [out["current"], *out["forecast"]]
        assert len(readings) == 97
        return sum(r["pm2_5"] for r in readings) / len(readings)

    assert mean_pm25("Milan") > 2 * mean_pm25("Stockholm")
    out = ok(ep, "air_quality", city=HOME.city, hours=3)
    for r in [out["current"], *out["forecast"]]:
        pm_level = next((i + 1 for i, b in enumerate((10, 25, 50, 75)) if r["pm2_5"] < b), 5)
        assert r["aqi"] >= pm_level
        assert r["aqi_label"] == ("Good", "Fair", "Moderate", "Poor", "Very Poor")[r["aqi"] - 1]
    assert out["current"]["time"] == ok(ep, "hourly_forecast", city=HOME.city, hours=1)["hours"][0]["time"]


# -- places outside the world -----------------------------------------------------------------


def test_an_unknown_city_gets_a_stable_generated_location_in_its_country(ep: Episode) -> None:
    first = ok(ep, "current_weather", city="Heidelberg", country="DE")
    assert first == ok(ep, "current_weather", city="heidelberg,de")
    loc = first["location"]
    assert loc["country"] == "DE" and loc["timezone"] == "Europe/Berlin"
    german = [p for p in PLACES if p.country == "DE"]
    assert min(abs(loc["latitude"] - p.latitude) for p in german) <= 2.0
    # Its coordinates give the same weather.
    again = ok(ep, "current_weather", latitude=loc["latitude"], longitude=loc["longitude"], country="DE")
    assert again["temperature"] == first["temperature"]


def test_open_ocean_coordinates_have_no_name_but_a_time_zone(ep: Episode) -> None:
    loc = ok(ep, "current_weather", latitude=-45.0, longitude=-150.0)["location"]
    assert loc["name"] is None and loc["country"] is None
    assert loc["timezone"] and isinstance(loc["utc_offset_seconds"], int)


# -- value ranges -----------------------------------------------------------------------------


def test_temperatures_follow_latitude_and_the_season_of_each_hemisphere(ep: Episode) -> None:
    def mean_max(city: str, month: int) -> float:
        days = [dt.date(2025, month, d) for d in range(1, 29, 3)]
        return sum(ok(ep, "historical_weather", city=city, date=d.isoformat())["day"]["temp_max"] for d in days) / 10

    assert mean_max("Berlin", 7) > mean_max("Berlin", 1) + 12
    assert mean_max("Sydney", 1) > mean_max("Sydney", 7) + 6
    assert mean_max("Singapore", 1) > mean_max("Stockholm", 7) > mean_max("Stockholm", 1)
    assert 26 <= mean_max("Singapore", 7) <= 35
    assert -10 <= mean_max("Stockholm", 1) <= 8


def test_forecast_values_stay_in_realistic_ranges(ep: Episode) -> None:
    codes = {200, 201, 202, 300, 500, 501, 502, 600, 601, 602, 741, 800, 801, 802, 803, 804}
    for p in PLACES:
        for d in ok(ep, "daily_forecast", city=p.city, days=16)["days"]:
            assert -40 <= d["temp_min"] <= d["temp_max"] <= 48
            assert 0 <= d["humidity"] <= 100 and 0 <= d["clouds"] <= 100
            assert 0 <= d["precipitation_probability"] <= 100
            assert 950 <= d["pressure_hpa"] <= 1060
            assert 0 <= d["wind_speed"] <= d["wind_gust"] < 60
            assert 0 <= d["wind_deg"] < 360 and 0 <= d["uv_index"] <= 13
            assert d["sunrise"] < d["sunset"]
            assert d["condition"]["id"] in codes
            assert (d["rain_mm"] > 0 or d["snow_mm"] > 0) == (d["condition"]["id"] < 700)
        for h in ok(ep, "hourly_forecast", city=p.city, hours=48)["hours"]:
            assert h["visibility_m"] <= 10000 and h["condition"]["icon"][-1] in "dn"
            assert h["dew_point"] <= h["temperature"] + 0.01


def test_units_convert_temperatures_and_wind(ep: Episode) -> None:
    metric = ok(ep, "current_weather", city="Chicago")
    imperial = ok(ep, "current_weather", city="Chicago", units="imperial")
    kelvin = ok(ep, "current_weather", city="Chicago", units="standard")
    assert (imperial["temperature_unit"], imperial["wind_speed_unit"]) == ("F", "mph")
    assert math.isclose(imperial["temperature"], metric["temperature"] * 9 / 5 + 32, abs_tol=0.02)
    assert math.isclose(kelvin["temperature"], metric["temperature"] + 273.15, abs_tol=0.01)
    assert math.isclose(imperial["wind_speed"], metric["wind_speed"] * 2.23694, abs_tol=0.02)
    assert kelvin["wind_speed"] == metric["wind_speed"]


def test_sunrise_and_sunset_are_those_of_the_place(ep: Episode) -> None:
    stockholm = ok(ep, "historical_weather", city="Stockholm", date="2025-06-21")["day"]
    singapore = ok(ep, "historical_weather", city="Singapore", date="2025-06-21")["day"]

    def daylight(d: dict[str, Any]) -> float:
        rise, sets = dt.datetime.fromisoformat(d["sunrise"]), dt.datetime.fromisoformat(d["sunset"])
        return (sets - rise).total_seconds() / 3600

    assert 18 <= daylight(stockholm) <= 19
    assert 11.9 <= daylight(singapore) <= 12.3
    assert stockholm["sunrise"].startswith("2025-06-21T01:")  # about 03:30 local, UTC+2


# -- determinism ------------------------------------------------------------------------------


def test_the_same_call_gives_the_same_answer_in_two_episodes() -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("current_weather", {"city": "Madrid"}),
        ("daily_forecast", {"city": "Toronto", "days": 16, "units": "imperial"}),
        ("hourly_forecast", {"latitude": 12.5, "longitude": 77.25, "hours": 48}),
        ("historical_weather", {"city": "Lyon", "date": "2001-02-03"}),
        ("weather_alerts", {"city": "Austin", "days": 8}),
        ("air_quality", {"city": "Tokyo", "hours": 96}),
    ]
    first, second = Episode(WORLD), Episode(WORLD)
    assert [ok(first, n, **a) for n, a in calls] == [ok(second, n, **a) for n, a in calls]


def test_another_world_seed_has_other_weather_in_the_same_places(ep: Episode) -> None:
    other = Episode(service_world("weather", seed=11))
    mine = ok(ep, "daily_forecast", city="Berlin", days=16)["days"]
    theirs = WEATHER.ok(other, "daily_forecast", city="Berlin", days=16)["days"]
    assert [d["temp_max"] for d in mine] != [d["temp_max"] for d in theirs]
    assert mine[0]["sunrise"] == theirs[0]["sunrise"]  # astronomy is the same in every world


_SCRIPT = """
import json
from compoworld import Catalog, Episode, World
ep = Episode(World.build(Catalog.load(["weather"]), seed=3))
calls = [
    ("weather__daily_forecast", {"city": "Sydney", "days": 16}),
    ("weather__hourly_forecast", {"city": "Reykjavik", "hours": 48}),
    ("weather__historical_weather", {"latitude": 40.0, "longitude": -3.0, "date": "1999-07-14"}),
    ("weather__weather_alerts", {"city": "Chicago", "days": 8}),
    ("weather__air_quality", {"city": "Sao Paulo", "hours": 24}),
]
print(json.dumps([ep.call(n, a).to_dict() for n, a in calls], sort_keys=True))
"""


def test_answers_are_byte_identical_in_processes_with_other_hash_seeds() -> None:
    outputs = []
    for hashseed in ("1", "987654"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, env=env, check=True)
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert all(r["ok"] for r in json.loads(outputs[0]))


# -- refusals ---------------------------------------------------------------------------------


def test_a_call_without_a_location_is_refused(ep: Episode) -> None:
    refused(ep, "current_weather", "rule_violation", "city")
    refused(ep, "air_quality", "rule_violation", "city", hours=3)


def test_half_a_coordinate_pair_is_refused(ep: Episode) -> None:
    refused(ep, "hourly_forecast", "rule_violation", "longitude", latitude=52.5)
    refused(ep, "weather_alerts", "rule_violation", "latitude", longitude=13.4)


def test_history_refuses_future_dates_and_dates_before_1979(ep: Episode) -> None:
    msg = refused(ep, "historical_weather", "rule_violation", "date", city="Berlin", date="2026-03-05")
    assert "not happened yet" in msg
    refused(ep, "historical_weather", "rule_violation", "date", city="Berlin", date="1978-12-31")
    assert ok(ep, "historical_weather", city="Berlin", date="1979-01-01")["day"]["date"] == "1979-01-01"


def test_forecasts_refuse_past_start_dates_and_days_beyond_the_horizon(ep: Episode) -> None:
    refused(ep, "daily_forecast", "rule_violation", "start_date", city="Berlin", start_date="2026-03-01")
    refused(ep, "daily_forecast", "rule_violation", "start_date", city="Berlin", start_date="2026-03-18")
    msg = refused(ep, "daily_forecast", "rule_violation", "days", city="Berlin", start_date="2026-03-10", days=10)
    assert "2026-03-17" in msg
    assert len(ok(ep, "daily_forecast", city="Berlin", start_date="2026-03-10", days=8)["days"]) == 8


def test_out_of_range_counts_units_and_coordinates_are_invalid_arguments(ep: Episode) -> None:
    refused(ep, "daily_forecast", "invalid_arguments", "days", city="Berlin", days=17)
    refused(ep, "hourly_forecast", "invalid_arguments", "hours", city="Berlin", hours=49)
    refused(ep, "air_quality", "invalid_arguments", "hours", city="Berlin", hours=97)
    refused(ep, "current_weather", "invalid_arguments", "units", city="Berlin", units="kelvin")
    refused(ep, "current_weather", "invalid_arguments", "latitude", latitude=91, longitude=0)
    refused(ep, "current_weather", "invalid_arguments", "country", city="Berlin", country="Germany")
