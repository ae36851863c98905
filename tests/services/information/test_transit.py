"""Transitline: one operator per city, timetables and real-time estimates that agree, trip plans, commutes."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from compoworld import Episode
from tests.services.helpers import ServiceTools

TR = ServiceTools("transit")
WORLD = TR.world
ok, refused, every = TR.ok, TR.refused, TR.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
NOW = WORLD.epoch


def home_operator(ep: Episode) -> dict[str, Any]:
    ops: list[dict[str, Any]] = ok(ep, "list_operators", country=POP.home.place.country)
    [op] = [o for o in ops if o["city"] == POP.home.place.city]
    return op


def t(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_every_world_city_has_one_operator_whose_subway_lines_meet_at_the_central_station(ep: Episode) -> None:
    ops = ok(ep, "list_operators")
    assert sorted(o["city"] for o in ops) == sorted(p.city for p in POP.places)
    op = home_operator(ep)
    subway = ok(ep, "list_routes", operator_id=op["onestop_id"], route_type="subway")
    hubs = set.intersection(*(set(r["stop_ids"]) for r in subway))
    assert len(subway) == 3 and len(hubs) == 1
    assert ok(ep, "get_stop", stop_id=hubs.pop())["stop_name"] == "Central Station"
    refused(ep, "list_routes", "not_found", "operator_id", operator_id="o-atlantis")


def test_stops_near_a_point_are_within_the_radius_nearest_first(ep: Episode) -> None:
    place = POP.home.place
    near = ok(ep, "search_stops", lat=place.latitude, lon=place.longitude, radius_m=3000)
    assert near and near[0]["stop_name"] == "Central Station" and near[0]["distance_m"] == 0
    assert all(s["distance_m"] <= 3000 for s in near)
    assert [s["distance_m"] for s in near] == sorted(s["distance_m"] for s in near)
    refused(ep, "search_stops", "rule_violation", "lon", lat=place.latitude)
    refused(ep, "search_stops", "rule_violation", "name")


def test_departures_follow_the_timetable_and_match_their_trips(ep: Episode) -> None:
    op = home_operator(ep)
    route = ok(ep, "list_routes", operator_id=op["onestop_id"])[0]
    stop = route["stop_ids"][1]
    deps = ok(ep, "get_departures", stop_id=stop, window_min=60)
    assert deps and all(d["route_id"] in ok(ep, "get_stop", stop_id=stop)["route_ids"] for d in deps)
    assert [d["estimated"] for d in deps] == sorted(d["estimated"] for d in deps)
    table = {(e["route_id"], e["headsign"]): e["times"] for e in ok(ep, "get_timetable", stop_id=stop)}
    for d in deps[:6]:
        assert t(d["estimated"]) - t(d["scheduled"]) == dt.timedelta(minutes=d["delay_min"])
        local = t(d["scheduled"]).astimezone(ZoneInfo(POP.home.place.timezone)).strftime("%H:%M")
        assert local in table[(d["route_id"], d["headsign"])]
    stops = ok(ep, "list_route_stops", route_id=route["onestop_id"], direction_id=1)
    assert [x["onestop_id"] for x in stops] == route["stop_ids"][::-1]
    refused(ep, "get_timetable", "not_found", "stop_id", stop_id="s-atlantis-main")


def test_no_service_at_night(ep: Episode) -> None:
    op = home_operator(ep)
    stop = ok(ep, "list_routes", operator_id=op["onestop_id"])[0]["stop_ids"][0]
    tz = dt.timezone(dt.timedelta(0))
    local = ok(ep, "get_departures", stop_id=stop, start_time=NOW.isoformat(), window_min=5)
    assert all(d["local_time"] >= "05:00" for d in local)
    night = dt.datetime.combine(NOW.date(), dt.time(1, 0), tzinfo=ZoneInfo(POP.home.place.timezone)).astimezone(tz)
    assert ok(ep, "get_departures", stop_id=stop, start_time=night.isoformat(), window_min=120) == []


def test_a_trip_plan_rides_forward_and_transfers_at_a_shared_stop(ep: Episode) -> None:
    op = home_operator(ep)
    m1, m2 = ok(ep, "list_routes", operator_id=op["onestop_id"], route_type="subway")[:2]
    plans = ok(ep, "plan_trip", from_stop_id=m1["stop_ids"][0], to_stop_id=m2["stop_ids"][-1])
    best = plans[0]
    assert best["transfers"] == 1 == len(best["legs"]) - 1
    first, second = best["legs"]
    assert first["to_stop_id"] == second["from_stop_id"] and first["arrive"] < second["depart"]
    assert first["from_stop_id"] == m1["stop_ids"][0] and second["to_stop_id"] == m2["stop_ids"][-1]
    assert best["depart"] >= NOW.isoformat().replace("+00:00", "Z")
    direct = ok(ep, "plan_trip", from_stop_id=m1["stop_ids"][0], to_stop_id=m1["stop_ids"][3])
    assert direct[0]["transfers"] == 0 and direct[0]["legs"][0]["stops"] == 3


def test_a_trip_plan_stays_within_one_operator(ep: Episode) -> None:
    op = home_operator(ep)
    mine = ok(ep, "list_routes", operator_id=op["onestop_id"])[0]["stop_ids"][0]
    other_city = next(o for o in ok(ep, "list_operators") if o["onestop_id"] != op["onestop_id"])
    theirs = ok(ep, "list_routes", operator_id=other_city["onestop_id"])[0]["stop_ids"][0]
    refused(ep, "plan_trip", "rule_violation", "to_stop_id", from_stop_id=mine, to_stop_id=theirs)
    refused(ep, "plan_trip", "rule_violation", "to_stop_id", from_stop_id=mine, to_stop_id=mine)


def test_active_alerts_name_routes_of_the_operator(ep: Episode) -> None:
    op = home_operator(ep)
    routes = {r["onestop_id"] for r in ok(ep, "list_routes", operator_id=op["onestop_id"])}
    for a in ok(ep, "list_service_alerts", operator_id=op["onestop_id"]):
        assert set(a["route_ids"]) <= routes and a["active_from"] <= NOW.isoformat().replace("+00:00", "Z")
        assert ok(ep, "get_service_alert", alert_id=a["id"]) == a
        assert a in ok(ep, "list_service_alerts", operator_id=op["onestop_id"], route_id=a["route_ids"][0])


def test_seeded_commutes_are_employees_trips_in_their_own_city(ep: Episode) -> None:
    found = every(ep, "list_commutes")
    assert {c["status"] for c in found} == {"active", "paused"}
    people = {p.email: p for p in POP.employees}
    for c in found:
        stop = ok(ep, "get_stop", stop_id=c["from_stop_id"])
        city = next(o["city"] for o in ok(ep, "list_operators") if o["onestop_id"] == stop["operator_id"])
        assert city == people[c["owner_email"]].place.city


def test_saving_a_commute_checks_owner_stops_and_names_and_paused_ones_are_not_checked(ep: Episode) -> None:
    c = TR.first(ep, "commutes", status="active")
    check = ok(ep, "check_commute", commute_id=c["id"])
    assert check["itineraries"] and check["itineraries"][0]["legs"][0]["from_stop_id"] == c["from_stop_id"]
    args = {"owner_email": c["owner_email"], "from_stop_id": c["from_stop_id"], "to_stop_id": c["to_stop_id"]}
    refused(ep, "save_commute", "conflict", "name", name=c["name"], depart_time="09:00", **args)
    outsider = POP.contacts[0].email
    refused(
        ep,
        "save_commute",
        "rule_violation",
        "owner_email",
        name="X",
        depart_time="09:00",
        **(args | {"owner_email": outsider}),
    )
    refused(
        ep,
        "save_commute",
        "rule_violation",
        "to_stop_id",
        name="Loop",
        depart_time="09:00",
        **(args | {"to_stop_id": c["from_stop_id"]}),
    )
    new = ok(ep, "save_commute", name="Gym", depart_time="18:45", weekdays=["fri", "mon"], **args)
    assert new["weekdays"] == ["mon", "fri"]
    ok(ep, "pause_commute", commute_id=new["id"])
    refused(ep, "check_commute", "rule_violation", "commute_id", commute_id=new["id"])
