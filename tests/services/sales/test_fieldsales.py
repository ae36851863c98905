"""Waypoint: accounts on the map, routes ordered nearest-first, on-site check-ins, route completion, follow-ups."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FS = ServiceTools("fieldsales")
WORLD = FS.world
ok, refused, every = FS.ok, FS.refused, FS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def route(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_routes", status=status)[0]


def test_accounts_are_world_companies_near_their_cities(ep: Episode) -> None:
    places = {c.name: c.place for c in POP.customers}
    staff = {p.email for p in POP.employees}
    for a in every(ep, "list_accounts"):
        place = places[a["name"]]
        assert a["city"] == place.city and a["rep_email"] in staff
        assert abs(a["latitude"] - place.latitude) < 0.05 and abs(a["longitude"] - place.longitude) < 0.05


def test_a_planned_route_orders_stops_nearest_first(ep: Episode) -> None:
    rep = POP.employees[0].email
    accts = every(ep, "list_accounts")[:5]
    made = ok(
        ep, "plan_route", rep_email=rep, route_date=day(3), name="Test loop", account_ids=[a["id"] for a in accts]
    )
    stops = sorted(every(ep, "list_stops", route_id=made["id"]), key=lambda s: s["position"])
    assert stops[0]["account_id"] == accts[0]["id"] and len(stops) == 5
    assert made["total_km"] >= 0 and made["status"] == "planned"
    refused(
        ep,
        "plan_route",
        "conflict",
        "route_date",
        rep_email=rep,
        route_date=day(3),
        name="Again",
        account_ids=[accts[0]["id"], accts[1]["id"]],
    )
    refused(
        ep,
        "plan_route",
        "rule_violation",
        "account_ids",
        rep_email=rep,
        route_date=day(4),
        name="Dup",
        account_ids=[accts[0]["id"], accts[0]["id"]],
    )
    refused(
        ep,
        "plan_route",
        "rule_violation",
        "route_date",
        rep_email=rep,
        route_date=day(-1),
        name="Past",
        account_ids=[accts[0]["id"], accts[1]["id"]],
    )


def test_a_route_starts_only_on_its_day(ep: Episode) -> None:
    accts = every(ep, "list_accounts")[:2]
    later = ok(
        ep,
        "plan_route",
        rep_email=POP.employees[1].email,
        route_date=day(5),
        name="Later",
        account_ids=[a["id"] for a in accts],
    )
    refused(ep, "start_route", "rule_violation", "route_id", route_id=later["id"])
    today = next(r for r in every(ep, "list_routes", status="planned") if r["route_date"] == day(0))
    assert ok(ep, "start_route", route_id=today["id"])["status"] == "in_progress"
    refused(ep, "start_route", "conflict", "route_id", route_id=today["id"])


def test_check_ins_happen_on_site_and_visit_the_route_stop(ep: Episode) -> None:
    r = next(
        x
        for x in every(ep, "list_routes", status="in_progress")
        if every(ep, "list_stops", route_id=x["id"], status="pending")
    )
    stop = every(ep, "list_stops", route_id=r["id"], status="pending")[0]
    acct = ok(ep, "get_account", account_id=stop["account_id"])
    args = {"account_id": acct["id"], "rep_email": r["rep_email"], "outcome": "demo_given"}
    refused(
        ep,
        "check_in",
        "rule_violation",
        "latitude",
        latitude=acct["latitude"] + 0.05,
        longitude=acct["longitude"],
        **args,
    )
    visit = ok(ep, "check_in", latitude=acct["latitude"], longitude=acct["longitude"], notes="Demo done", **args)
    assert visit["stop_id"] == stop["id"] and visit["distance_m"] == 0
    assert every(ep, "list_stops", route_id=r["id"], account_id=acct["id"])[0]["status"] == "visited"
    assert ok(ep, "get_account", account_id=acct["id"])["last_visit_at"] is not None


def test_a_route_completes_once_no_stop_is_pending(ep: Episode) -> None:
    r = next(
        x
        for x in every(ep, "list_routes", status="in_progress")
        if every(ep, "list_stops", route_id=x["id"], status="pending")
    )
    refused(ep, "complete_route", "rule_violation", "route_id", route_id=r["id"])
    for stop in every(ep, "list_stops", route_id=r["id"], status="pending"):
        ok(ep, "skip_stop", stop_id=stop["id"])
    assert ok(ep, "complete_route", route_id=r["id"])["status"] == "completed"
    refused(ep, "delete_route", "rule_violation", "route_id", route_id=r["id"])


def test_nearby_accounts_are_within_the_radius_nearest_first(ep: Episode) -> None:
    a = every(ep, "list_accounts")[0]
    near = ok(ep, "nearby_accounts", latitude=a["latitude"], longitude=a["longitude"], radius_km=30)
    assert near[0]["account_id"] == a["id"] and near[0]["km"] == 0
    assert [n["km"] for n in near] == sorted(n["km"] for n in near) and all(n["km"] <= 30 for n in near)
    customers = ok(
        ep, "nearby_accounts", latitude=a["latitude"], longitude=a["longitude"], radius_km=500, stage="customer"
    )
    assert {n["stage"] for n in customers} <= {"customer"}


def test_follow_ups_are_due_in_the_future_and_close_once(ep: Episode) -> None:
    a = every(ep, "list_accounts")[0]
    refused(
        ep,
        "create_follow_up",
        "rule_violation",
        "due_date",
        account_id=a["id"],
        rep_email=a["rep_email"],
        kind="call",
        due_date=day(0),
    )
    f = ok(ep, "create_follow_up", account_id=a["id"], rep_email=a["rep_email"], kind="visit", due_date=day(7))
    assert ok(ep, "complete_follow_up", follow_up_id=f["id"])["status"] == "done"
    refused(ep, "cancel_follow_up", "rule_violation", "follow_up_id", follow_up_id=f["id"])


def test_planned_routes_are_deleted_with_their_stops(ep: Episode) -> None:
    r = route(ep, "planned")
    assert every(ep, "list_stops", route_id=r["id"])
    ok(ep, "delete_route", route_id=r["id"])
    assert all(s["route_id"] != r["id"] for s in every(ep, "list_stops"))
    refused(ep, "get_route", "not_found", "route_id", route_id=r["id"])
