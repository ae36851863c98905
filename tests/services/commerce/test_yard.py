"""Yardline: gate check-in and out, yard moves between spots and doors, drivers, detention."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

YD = ServiceTools("yard")
WORLD = YD.world
ok, refused, every = YD.ok, YD.refused, YD.every
POP = WORLD.population
DRIVER = POP.employees[1].email
OTHER = POP.employees[2].email
CARRIER = POP.companies[0].name


def checkin(ep: Episode, trailer: str) -> dict[str, Any]:
    return ok(ep, "check_in_trailer", trailer_number=trailer, carrier=CARRIER, load_status="loaded")  # type: ignore[no-any-return]


def free_door(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_locations", kind="door", status="available")[0]


def test_seeded_locations_match_the_trailers_in_the_yard(ep: Episode) -> None:
    inside = [v for v in every(ep, "list_visits") if v["status"] != "checked_out"]
    held = {v["location_id"] for v in inside} | {m["to_location_id"] for m in every(ep, "list_moves")}
    for loc in every(ep, "list_locations"):
        assert (loc["status"] == "occupied") == (loc["id"] in held)
    carriers = {c.name for c in POP.companies}
    assert all(v["carrier"] in carriers for v in every(ep, "list_visits"))
    status = ok(ep, "yard_status")
    assert status["trailers_in_yard"] == len(inside) and status["open_moves"] == 2


def test_check_in_takes_the_first_free_spot_once_per_trailer(ep: Episode) -> None:
    spot = sorted(every(ep, "list_locations", kind="parking", status="available"), key=lambda x: x["code"])[0]
    v = checkin(ep, "NEW0001")
    assert (v["location_id"], v["status"]) == (spot["id"], "in_yard")
    assert ok(ep, "get_location", location_id=spot["id"])["status"] == "occupied"
    refused(
        ep,
        "check_in_trailer",
        "conflict",
        "trailer_number",
        trailer_number="NEW0001",
        carrier=CARRIER,
        load_status="empty",
    )


def test_a_full_yard_refuses_trailers(ep: Episode) -> None:
    free = len(every(ep, "list_locations", kind="parking", status="available"))
    for k in range(free):
        checkin(ep, f"FULL{k:04d}")
    refused(
        ep,
        "check_in_trailer",
        "conflict",
        "trailer_number",
        trailer_number="FULL9999",
        carrier=CARRIER,
        load_status="empty",
    )


def test_a_move_reserves_the_target_and_completes_at_the_door(ep: Episode) -> None:
    v = checkin(ep, "MOVE0001")
    door = free_door(ep)
    m = ok(ep, "request_move", visit_id=v["id"], to_location_id=door["id"])
    assert ok(ep, "get_location", location_id=door["id"])["status"] == "occupied"
    refused(ep, "request_move", "conflict", "visit_id", visit_id=v["id"], to_location_id=free_door(ep)["id"])
    refused(ep, "complete_move", "conflict", "move_id", move_id=m["id"])
    ok(ep, "start_move", move_id=m["id"], driver_email=OTHER)
    ok(ep, "complete_move", move_id=m["id"])
    after = ok(ep, "get_visit", visit_id=v["id"])
    assert (after["location_id"], after["status"]) == (door["id"], "at_door")
    assert ok(ep, "get_location", location_id=v["location_id"])["status"] == "available"


def test_moves_target_free_locations_only(ep: Episode) -> None:
    v = checkin(ep, "MOVE0002")
    off = every(ep, "list_locations", status="out_of_service")[0]
    refused(ep, "request_move", "conflict", "to_location_id", visit_id=v["id"], to_location_id=off["id"])
    busy = every(ep, "list_locations", kind="door", status="occupied")[0]
    refused(ep, "request_move", "conflict", "to_location_id", visit_id=v["id"], to_location_id=busy["id"])


def test_a_driver_runs_one_move_at_a_time(ep: Episode) -> None:
    running = every(ep, "list_moves", status="in_progress")[0]
    requested = every(ep, "list_moves", status="requested")[0]
    refused(ep, "start_move", "conflict", "driver_email", move_id=requested["id"], driver_email=running["driver_email"])
    refused(ep, "start_move", "rule_violation", "driver_email", move_id=requested["id"], driver_email="x@y.io")
    refused(
        ep, "reassign_move", "conflict", "driver_email", move_id=running["id"], driver_email=running["driver_email"]
    )
    assert ok(ep, "reassign_move", move_id=running["id"], driver_email=OTHER)["driver_email"] == OTHER
    assert (
        ok(ep, "start_move", move_id=requested["id"], driver_email=running["driver_email"])["status"] == "in_progress"
    )


def test_cancelling_a_move_frees_its_target(ep: Episode) -> None:
    m = every(ep, "list_moves", status="requested")[0]
    ok(ep, "cancel_move", move_id=m["id"])
    assert ok(ep, "get_location", location_id=m["to_location_id"])["status"] == "available"
    refused(ep, "cancel_move", "rule_violation", "move_id", move_id=m["id"])


def test_check_out_needs_no_open_move_and_fixes_detention(ep: Episode) -> None:
    m = every(ep, "list_moves", status="requested")[0]
    refused(ep, "check_out_trailer", "conflict", "visit_id", visit_id=m["visit_id"])
    v = every(ep, "list_visits", status="at_door")[-1]
    report = ok(ep, "detention_report", visit_id=v["id"])
    assert report["detention_minutes"] == max(report["minutes_in_yard"] - v["free_minutes"], 0)
    out = ok(ep, "check_out_trailer", visit_id=v["id"])
    assert out["status"] == "checked_out" and out["location_id"] is None
    assert out["detention_minutes"] >= report["detention_minutes"]
    assert ok(ep, "get_location", location_id=v["location_id"])["status"] == "available"
    refused(ep, "check_out_trailer", "conflict", "visit_id", visit_id=v["id"])
    refused(ep, "extend_free_time", "conflict", "visit_id", visit_id=v["id"], extra_minutes=30)


def test_extending_free_time_clears_detention(ep: Episode) -> None:
    v = max(
        every(ep, "list_visits", status="in_yard"),
        key=lambda x: ok(ep, "detention_report", visit_id=x["id"])["detention_minutes"],
    )
    before = ok(ep, "detention_report", visit_id=v["id"])
    assert before["detention_minutes"] > 0
    ok(ep, "extend_free_time", visit_id=v["id"], extra_minutes=min(before["detention_minutes"] + 15, 1440))
    assert ok(ep, "detention_report", visit_id=v["id"])["detention_minutes"] == 0
