"""Skyframe Ops: pilots and currency, the 400 ft limit, LAANC authorizations, flights, maps and annotations."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DR = ServiceTools("drones")
WORLD = DR.world
ok, refused, every = DR.ok, DR.refused, DR.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def site(ep: Episode, airspace: str) -> dict[str, Any]:
    found: dict[str, Any] = every(ep, "list_sites", airspace=airspace)[0]
    return found


def current_pilot(ep: Episode) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in every(ep, "list_pilots") if p["current_until"] > day(30))
    return found


def test_pilots_are_staff_and_sites_sit_at_world_places(ep: Episode) -> None:
    for p in every(ep, "list_pilots"):
        assert p["email"] in STAFF
    cities = {pl.city for pl in POP.places}
    assert {s["city"] for s in every(ep, "list_sites")} <= cities
    for f in every(ep, "list_flights"):
        plan = ok(ep, "get_flight_plan", flight_plan_id=f["plan_id"])
        if ok(ep, "get_site", site_id=plan["site_id"])["airspace"] != "G":
            assert f["authorization_id"] is not None


def test_pilots_are_added_once_with_their_certificate(ep: Episode) -> None:
    known = every(ep, "list_pilots")[0]
    refused(ep, "add_pilot", "conflict", "email", email=known["email"], certificate="1234567", current_until=day(90))
    other = next(p.email for p in POP.employees if p.email not in {x["email"] for x in every(ep, "list_pilots")})
    refused(
        ep, "add_pilot", "conflict", "certificate", email=other, certificate=known["certificate"], current_until=day(90)
    )
    refused(ep, "add_pilot", "rule_violation", "email", email="x@y.io", certificate="1234567", current_until=day(9))
    assert ok(ep, "add_pilot", email=other, certificate="1234567", current_until=day(90))["email"] == other


def test_plans_fly_at_most_400_ft(ep: Episode) -> None:
    g = site(ep, "G")
    refused(
        ep,
        "create_flight_plan",
        "rule_violation",
        "altitude_ft",
        site_id=g["id"],
        name="High",
        altitude_ft=450,
        area_acres=10,
    )
    plan = ok(ep, "create_flight_plan", site_id=g["id"], name="Low", altitude_ft=400, area_acres=10)
    refused(ep, "update_flight_plan", "rule_violation", "altitude_ft", flight_plan_id=plan["id"], altitude_ft=401)


def test_laanc_approves_up_to_the_ceiling_and_denies_above(ep: Episode) -> None:
    d = site(ep, "D")
    pilot = current_pilot(ep)
    refused(
        ep,
        "request_authorization",
        "rule_violation",
        "site_id",
        site_id=site(ep, "G")["id"],
        pilot_id=pilot["id"],
        day=day(1),
        max_altitude_ft=200,
    )
    refused(
        ep,
        "request_authorization",
        "rule_violation",
        "day",
        site_id=d["id"],
        pilot_id=pilot["id"],
        day=day(-1),
        max_altitude_ft=100,
    )
    yes = ok(
        ep, "request_authorization", site_id=d["id"], pilot_id=pilot["id"], day=day(1), max_altitude_ft=d["ceiling_ft"]
    )
    no = ok(
        ep,
        "request_authorization",
        site_id=d["id"],
        pilot_id=pilot["id"],
        day=day(1),
        max_altitude_ft=d["ceiling_ft"] + 50,
    )
    assert (yes["status"], no["status"]) == ("approved", "denied") and yes["reference"] != no["reference"]


def test_a_lapsed_pilot_cannot_fly_or_get_authorized(ep: Episode) -> None:
    lapsed = next(p for p in every(ep, "list_pilots") if p["current_until"] < day(0))
    refused(
        ep,
        "request_authorization",
        "rule_violation",
        "pilot_id",
        site_id=site(ep, "D")["id"],
        pilot_id=lapsed["id"],
        day=day(0),
        max_altitude_ft=100,
    )
    plan = every(ep, "list_flight_plans", site_id=site(ep, "G")["id"])[0]
    refused(ep, "schedule_flight", "rule_violation", "pilot_id", plan_id=plan["id"], pilot_id=lapsed["id"], day=day(0))


def test_controlled_airspace_flights_need_a_matching_authorization(ep: Episode) -> None:
    d = site(ep, "D")
    plan = every(ep, "list_flight_plans", site_id=d["id"])[0]
    pilot = current_pilot(ep)
    refused(
        ep,
        "schedule_flight",
        "rule_violation",
        "authorization_id",
        plan_id=plan["id"],
        pilot_id=pilot["id"],
        day=day(2),
    )
    low = ok(ep, "request_authorization", site_id=d["id"], pilot_id=pilot["id"], day=day(2), max_altitude_ft=100)
    refused(
        ep,
        "schedule_flight",
        "rule_violation",
        "authorization_id",
        plan_id=plan["id"],
        pilot_id=pilot["id"],
        day=day(2),
        authorization_id=low["id"],
    )
    good = ok(
        ep,
        "request_authorization",
        site_id=d["id"],
        pilot_id=pilot["id"],
        day=day(2),
        max_altitude_ft=plan["altitude_ft"],
    )
    refused(
        ep,
        "schedule_flight",
        "rule_violation",
        "authorization_id",
        plan_id=plan["id"],
        pilot_id=pilot["id"],
        day=day(3),
        authorization_id=good["id"],
    )
    flight = ok(
        ep, "schedule_flight", plan_id=plan["id"], pilot_id=pilot["id"], day=day(2), authorization_id=good["id"]
    )
    assert flight["status"] == "scheduled"


def test_a_flight_launches_lands_with_images_and_only_then_maps(ep: Episode) -> None:
    plan = every(ep, "list_flight_plans", site_id=site(ep, "G")["id"])[0]
    flight = ok(ep, "schedule_flight", plan_id=plan["id"], pilot_id=current_pilot(ep)["id"], day=day(0))
    refused(ep, "complete_flight", "rule_violation", "flight_id", flight_id=flight["id"], images=10)
    refused(ep, "process_map", "rule_violation", "flight_id", flight_id=flight["id"], kind="orthomosaic")
    ok(ep, "launch_flight", flight_id=flight["id"])
    landed = ok(ep, "complete_flight", flight_id=flight["id"], images=640)
    assert (landed["status"], landed["images"]) == ("completed", 640)
    made = ok(ep, "process_map", flight_id=flight["id"], kind="orthomosaic")
    assert made["status"] == "processing" and made["gsd_cm"] > 0
    refused(ep, "process_map", "conflict", "kind", flight_id=flight["id"], kind="orthomosaic")


def test_plant_health_needs_a_multispectral_camera(ep: Episode) -> None:
    for f in every(ep, "list_flights", status="completed"):
        plan = ok(ep, "get_flight_plan", flight_plan_id=f["plan_id"])
        if plan["camera"] == "multispectral":
            assert ok(ep, "process_map", flight_id=f["id"], kind="plant_health")["kind"] == "plant_health"
        else:
            refused(ep, "process_map", "rule_violation", "kind", flight_id=f["id"], kind="plant_health")


def test_a_failed_map_can_be_processed_again(ep: Episode) -> None:
    m = every(ep, "list_maps", status="processing")[0]
    assert ok(ep, "finish_map", map_id=m["id"], succeeded=False)["status"] == "failed"
    refused(ep, "finish_map", "conflict", "map_id", map_id=m["id"], succeeded=True)
    again = ok(ep, "process_map", flight_id=m["flight_id"], kind=m["kind"])
    assert ok(ep, "finish_map", map_id=again["id"], succeeded=True)["status"] == "complete"


def test_annotations_go_on_complete_maps_with_measurements(ep: Episode) -> None:
    busy = every(ep, "list_maps", status="processing")[0]
    done = every(ep, "list_maps", status="complete")[0]
    author = every(ep, "list_pilots")[0]["email"]
    refused(
        ep,
        "create_annotation",
        "rule_violation",
        "map_id",
        map_id=busy["id"],
        kind="marker",
        label="Crack",
        author_email=author,
    )
    refused(
        ep,
        "create_annotation",
        "rule_violation",
        "value",
        map_id=done["id"],
        kind="area",
        label="Roof",
        author_email=author,
    )
    refused(
        ep,
        "create_annotation",
        "rule_violation",
        "author_email",
        map_id=done["id"],
        kind="marker",
        label="Crack",
        author_email="a@b.io",
    )
    note = ok(
        ep, "create_annotation", map_id=done["id"], kind="distance", label="Fence", value=120.5, author_email=author
    )
    assert note["value"] == 120.5
