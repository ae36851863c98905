"""Skytrack Flight Status: one timetable and one story per flight and date, boards, history, alerts, watches."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.places.flightstatus import AIRLINES, AIRPORTS, timetable
from compoworld.world.geo import CITIES
from tests.services.helpers import ServiceTools

FS = ServiceTools("flightstatus")
WORLD = FS.world
ok, refused, every = FS.ok, FS.refused, FS.every
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()
TABLE = timetable(POP.seed)


def ts(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def daily(origin: str | None = None) -> Any:
    return next(
        r
        for r in sorted(TABLE.values(), key=lambda r: r.number)
        if len(r.days) == 7 and (origin is None or r.origin == origin)
    )


def status(ep: Episode, number: str, day: dt.date) -> dict[str, Any]:
    return dict(ok(ep, "flight_status", flight_number=number, date=day.isoformat()))


# -- the timetable --------------------------------------------------------------------------------


def test_the_timetable_pairs_outbound_and_return_flights_from_the_hubs() -> None:
    assert len(TABLE) > 300
    for number, route in TABLE.items():
        code, n = number.split()
        hubs = AIRLINES[code].hubs
        if int(n) % 2 == 0:
            back = TABLE[f"{code} {int(n) + 1}"]
            assert (back.origin, back.destination) == (route.destination, route.origin) and route.origin in hubs
            assert back.days == route.days and back.block == route.block
    cities = {c.city: c for c in CITIES}
    for airport in AIRPORTS.values():
        ref = cities[airport.city]
        assert (airport.latitude, airport.longitude, airport.timezone) == (ref.latitude, ref.longitude, ref.timezone)
    assert {p.city for p in POP.places} <= {a.city for a in AIRPORTS.values()}


def test_a_flight_tells_one_story_in_time() -> None:
    ep = Episode(WORLD)
    route = daily()
    past = status(ep, route.number, TODAY - dt.timedelta(days=3))
    if past["status"] != "cancelled":
        assert past["status"] in ("landed", "diverted")
        assert ts(past["actual_departure"]) == ts(past["scheduled_departure"]) + dt.timedelta(
            minutes=past["departure_delay_minutes"]
        )
        assert past["actual_arrival"] == past["estimated_arrival"]
    later = status(ep, route.number, TODAY + dt.timedelta(days=10))
    assert (
        later["status"] == "scheduled" and later["departure_delay_minutes"] is None and later["departure_gate"] is None
    )
    assert later["airline"] == AIRLINES[route.airline].name
    assert later["origin"]["iata"] == route.origin and later["distance_km"] == route.distance_km
    dep = ts(later["scheduled_departure"])
    assert (ts(later["scheduled_arrival"]) - dep) == dt.timedelta(minutes=route.block)
    assert later["local_scheduled_departure"][11:] == f"{route.departs // 60:02d}:{route.departs % 60:02d}"


def test_unknown_flights_days_off_and_far_dates_are_refused(ep: Episode) -> None:
    refused(ep, "flight_status", "not_found", "flight_number", flight_number="LH 9", date=TODAY.isoformat())
    weekly = next(r for r in TABLE.values() if len(r.days) < 7)
    off = next(
        TODAY + dt.timedelta(days=k) for k in range(7) if (TODAY + dt.timedelta(days=k)).weekday() not in weekly.days
    )
    msg = refused(ep, "flight_status", "not_found", "date", flight_number=weekly.number, date=off.isoformat())
    assert "does not operate" in msg
    refused(ep, "flight_status", "rule_violation", "date", flight_number=daily().number, date="2025-01-01")
    compact = ok(ep, "flight_status", flight_number=daily().number.replace(" ", ""), date=TODAY.isoformat())
    assert compact["flight_number"] == daily().number


# -- boards and searches --------------------------------------------------------------------------


def test_boards_and_route_search_agree_with_the_flight_status() -> None:
    ep = Episode(WORLD)
    route = daily()
    day = TODAY + dt.timedelta(days=1)
    st = status(ep, route.number, day)
    local_day = st["local_scheduled_departure"][:10]
    board = ok(ep, "airport_departures", airport=route.origin, date=local_day)
    assert st in board["flights"]
    assert all(f["origin"]["iata"] == route.origin for f in board["flights"])
    starts = [f["scheduled_departure"] for f in board["flights"]]
    assert starts == sorted(starts)
    arrivals = ok(
        ep, "airport_arrivals", airport=AIRPORTS[route.destination].city, date=st["local_scheduled_arrival"][:10]
    )
    assert st in arrivals["flights"]
    found = ok(ep, "find_flights", origin=route.origin, destination=route.destination, date=day.isoformat())
    assert st in found and all(f["destination"]["iata"] == route.destination for f in found)


def test_airport_delays_summarise_the_departures_board(ep: Episode) -> None:
    board = ok(ep, "airport_departures", airport="LHR", limit=100)
    stats = ok(ep, "airport_delays", airport="London")
    assert stats["departures"] == len(board["flights"])
    assert stats["cancelled"] == sum(1 for f in board["flights"] if f["status"] == "cancelled")
    flown = [f["departure_delay_minutes"] for f in board["flights"] if f["status"] != "cancelled"]
    assert stats["delayed"] == sum(1 for d in flown if d >= 15)
    refused(
        ep, "airport_delays", "rule_violation", "date", airport="LHR", date=(TODAY + dt.timedelta(days=5)).isoformat()
    )
    refused(ep, "airport_departures", "not_found", "airport", airport="Atlantis")
    refused(
        ep, "find_flights", "rule_violation", "destination", origin="LHR", destination="London", date=TODAY.isoformat()
    )


def test_delay_history_repeats_the_past_statuses(ep: Episode) -> None:
    route = daily()
    history = ok(ep, "delay_history", flight_number=route.number, days=10)
    assert history["flights"] == 10 and history["days"][0]["date"] == (TODAY - dt.timedelta(days=1)).isoformat()
    for day in history["days"][:4]:
        st = status(ep, route.number, dt.date.fromisoformat(day["date"]))
        assert (st["status"], st["arrival_delay_minutes"]) == (day["status"], day["arrival_delay_minutes"])
    flown = [d["arrival_delay_minutes"] for d in history["days"] if d["status"] != "cancelled"]
    assert history["on_time_percent"] == round(100 * sum(1 for d in flown if d < 15) / len(flown), 1)


def test_airline_info_lists_the_timetable(ep: Episode) -> None:
    info = ok(ep, "airline_info", airline="Lufthansa")
    assert info["iata"] == "LH" and info["hubs"] == ["FRA", "MUC"]
    assert {f["flight_number"] for f in info["flights"]} == {n for n in TABLE if n.startswith("LH ")}
    assert ok(ep, "airline_info", airline="DLH")["name"] == "Lufthansa"
    refused(ep, "airline_info", "not_found", "airline", airline="Oceanic")


# -- alerts and watched flights -------------------------------------------------------------------


def test_watched_flights_are_staff_trips_with_their_schedules() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p for p in POP.employees}
    watched = every(ep, "list_watched_flights")
    assert watched
    for w in watched:
        assert staff[w["passenger_email"]].name == w["passenger_name"]
        st = status(ep, w["flight_number"], dt.date.fromisoformat(w["date"]))
        assert (st["scheduled_departure"], st["origin"]["city"]) == (w["scheduled_departure"], w["origin_city"])


def test_watching_a_flight_needs_an_operating_day(ep: Episode) -> None:
    route = daily()
    args = {"flight_number": route.number, "passenger_name": "Robin Vale", "passenger_email": "robin.vale@inbox.io"}
    watch = ok(ep, "watch_flight", **args, date=TODAY.isoformat())
    assert watch["scheduled_arrival"] == status(ep, route.number, TODAY)["scheduled_arrival"]
    refused(ep, "watch_flight", "conflict", "passenger_email", **args, date=TODAY.isoformat())
    refused(
        ep, "watch_flight", "not_found", "flight_number", **{**args, "flight_number": "ZZ 1"}, date=TODAY.isoformat()
    )


def test_alerts_are_for_real_future_operations_and_one_per_recipient(ep: Episode) -> None:
    route = daily()
    args = {"flight_number": route.number, "events": ["departure"], "target_email": "ops@inbox.io"}
    refused(ep, "create_alert", "rule_violation", "date", **args, date=(TODAY - dt.timedelta(days=1)).isoformat())
    weekly = next(r for r in TABLE.values() if len(r.days) < 7)
    off = next(
        TODAY + dt.timedelta(days=k) for k in range(7) if (TODAY + dt.timedelta(days=k)).weekday() not in weekly.days
    )
    refused(ep, "create_alert", "not_found", "date", **{**args, "flight_number": weekly.number}, date=off.isoformat())
    ok(ep, "create_alert", **args, date=TODAY.isoformat())
    refused(ep, "create_alert", "conflict", "target_email", **args, date=TODAY.isoformat())
    refused(ep, "create_alert", "rule_violation", "events", **{**args, "events": ["delay", "delay"]})


def test_check_alerts_sends_each_event_once(ep: Episode) -> None:
    landed = next(
        r
        for r in sorted(TABLE.values(), key=lambda r: r.number)
        if (TODAY - dt.timedelta(days=1)).weekday() in r.days
        and status(ep, r.number, TODAY - dt.timedelta(days=1))["status"] == "landed"
    )
    day = (TODAY - dt.timedelta(days=1)).isoformat()
    alert = ok(
        ep, "create_alert", flight_number=landed.number, events=["departure", "arrival"], target_email="ops@inbox.io"
    )
    sent = ok(ep, "check_alerts", flight_number=landed.number)
    mine = [d for d in sent if d["alert_id"] == alert["id"] and d["date"] == day]
    assert sorted(d["event"] for d in mine) == ["arrival", "departure"]
    assert all(d["sent_to"] == "ops@inbox.io" for d in mine)
    again = ok(ep, "check_alerts", flight_number=landed.number)
    assert not [d for d in again if d["alert_id"] == alert["id"] and d["date"] == day]
    ok(ep, "disable_alert", alert_id=alert["id"])
    assert [d for d in ok(ep, "check_alerts") if d["alert_id"] == alert["id"]] == []
