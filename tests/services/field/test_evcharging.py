"""Voltline: remote start and stop, pricing by tariff, reservations, availability, faults and driver cards."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EV = ServiceTools("evcharging")
WORLD = EV.world
ok, refused, every, first = EV.ok, EV.refused, EV.every, EV.first
POP = WORLD.population
NOW = WORLD.epoch


def free_driver(ep: Episode) -> dict[str, Any]:
    busy = {s["driver_id"] for s in every(ep, "list_sessions", status="active")}
    busy |= {r["driver_id"] for r in every(ep, "list_reservations", status="active")}
    return next(d for d in every(ep, "list_drivers", status="active") if d["id"] not in busy)


def later(minutes: int) -> str:
    return (NOW + dt.timedelta(minutes=minutes)).isoformat()


def test_seeded_drivers_are_people_of_the_world_and_sessions_are_priced_by_tariff(ep: Episode) -> None:
    people = {p.email: p for p in POP.people}
    for d in every(ep, "list_drivers"):
        assert people[d["email"]].name == d["name"]
    for s in every(ep, "list_sessions", status="completed"):
        t = ok(ep, "get_tariff", tariff_id=ok(ep, "get_station", station_id=s["station_id"])["tariff_id"])
        idle = max(s["idle_minutes"] - t["idle_grace_minutes"], 0) * t["idle_fee_per_minute"]
        assert s["cost"] == round(s["energy_kwh"] * t["energy_price"]) + t["session_fee"] + idle
        assert s["meter_stop_wh"] - s["meter_start_wh"] == round(s["energy_kwh"] * 1000)
    for s in every(ep, "list_sessions", status="active"):
        assert ok(ep, "get_connector", connector_id=s["connector_id"])["status"] == "charging"


def test_remote_start_needs_an_available_connector_and_an_active_driver_without_a_session(ep: Episode) -> None:
    d = free_driver(ep)
    charging = first(ep, "connectors", status="charging")
    refused(
        ep, "remote_start_session", "rule_violation", "connector_id", connector_id=charging["id"], driver_id=d["id"]
    )
    blocked = first(ep, "drivers", status="blocked")
    free = first(ep, "connectors", status="available")
    refused(ep, "remote_start_session", "rule_violation", "driver_id", connector_id=free["id"], driver_id=blocked["id"])
    started = ok(ep, "remote_start_session", connector_id=free["id"], driver_id=d["id"])
    assert (started["status"], started["id_tag"]) == ("active", d["id_tag"])
    assert ok(ep, "get_connector", connector_id=free["id"])["status"] == "charging"
    other = first(ep, "connectors", status="available")
    refused(ep, "remote_start_session", "conflict", "driver_id", connector_id=other["id"], driver_id=d["id"])


def test_remote_stop_meters_the_energy_bills_idle_time_and_frees_the_connector(ep: Episode) -> None:
    s = first(ep, "sessions", status="active")
    station = ok(ep, "get_station", station_id=s["station_id"])
    t = ok(ep, "get_tariff", tariff_id=station["tariff_id"])
    done = ok(ep, "remote_stop_session", session_id=s["id"], idle_minutes=t["idle_grace_minutes"] + 10)
    assert (done["status"], done["stop_reason"], done["currency"]) == ("completed", "Remote", t["currency"])
    assert done["energy_kwh"] > 0 and done["meter_stop_wh"] > done["meter_start_wh"]
    idle = 10 * t["idle_fee_per_minute"]
    assert done["cost"] == round(done["energy_kwh"] * t["energy_price"]) + t["session_fee"] + idle
    assert ok(ep, "get_connector", connector_id=s["connector_id"])["status"] == "available"
    refused(ep, "remote_stop_session", "rule_violation", "session_id", session_id=s["id"])


def test_a_reservation_holds_the_connector_for_its_driver_only(ep: Episode) -> None:
    d = free_driver(ep)
    c = first(ep, "connectors", status="available")
    refused(
        ep,
        "reserve_now",
        "rule_violation",
        "expires_at",
        connector_id=c["id"],
        driver_id=d["id"],
        expires_at=later(121),
    )
    r = ok(ep, "reserve_now", connector_id=c["id"], driver_id=d["id"], expires_at=later(60))
    assert ok(ep, "get_connector", connector_id=c["id"])["status"] == "reserved"
    other = next(x for x in every(ep, "list_drivers", status="active") if x["id"] != d["id"])
    refused(ep, "remote_start_session", "rule_violation", "connector_id", connector_id=c["id"], driver_id=other["id"])
    two = first(ep, "connectors", status="available")
    refused(ep, "reserve_now", "conflict", "driver_id", connector_id=two["id"], driver_id=d["id"], expires_at=later(30))
    ok(ep, "remote_start_session", connector_id=c["id"], driver_id=d["id"])
    assert every(ep, "list_reservations", driver_id=d["id"], status="used")[0]["id"] == r["id"]


def test_cancelling_a_reservation_frees_the_connector(ep: Episode) -> None:
    r = first(ep, "reservations", status="active")
    ok(ep, "cancel_reservation", reservation_id=r["id"])
    assert ok(ep, "get_connector", connector_id=r["connector_id"])["status"] == "available"
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=r["id"])


def test_a_station_goes_inoperative_only_when_nothing_charges(ep: Episode) -> None:
    s = first(ep, "sessions", status="active")
    refused(ep, "change_availability", "rule_violation", "station_id", station_id=s["station_id"], operative=False)
    ok(ep, "remote_stop_session", session_id=s["id"])
    st = ok(ep, "change_availability", station_id=s["station_id"], operative=False)
    assert st["operative"] is False
    statuses = {c["status"] for c in every(ep, "list_connectors", station_id=st["id"])}
    assert statuses <= {"unavailable", "faulted"}
    refused(ep, "change_availability", "conflict", "operative", station_id=st["id"], operative=False)
    ok(ep, "change_availability", station_id=st["id"], operative=True)
    assert "unavailable" not in {c["status"] for c in every(ep, "list_connectors", station_id=st["id"])}


def test_a_fault_stops_the_session_and_the_connector_returns_once_resolved(ep: Episode) -> None:
    s = first(ep, "sessions", status="active")
    fault = ok(ep, "report_fault", connector_id=s["connector_id"], error_code="OverCurrentFailure")
    assert ok(ep, "get_session", session_id=s["id"])["stop_reason"] == "EmergencyStop"
    assert ok(ep, "get_connector", connector_id=s["connector_id"])["status"] == "faulted"
    refused(ep, "report_fault", "conflict", "connector_id", connector_id=s["connector_id"], error_code="GroundFailure")
    refused(ep, "resolve_fault", "rule_violation", "fault_id", fault_id=fault["id"])
    refused(ep, "acknowledge_fault", "rule_violation", "technician", fault_id=fault["id"], technician="bob@x.io")
    ok(ep, "acknowledge_fault", fault_id=fault["id"], technician=POP.employees[0].email)
    assert ok(ep, "resolve_fault", fault_id=fault["id"])["status"] == "resolved"
    assert ok(ep, "get_connector", connector_id=s["connector_id"])["status"] == "available"


def test_blocking_a_driver_cancels_their_reservation(ep: Episode) -> None:
    r = first(ep, "reservations", status="active")
    ok(ep, "block_driver", driver_id=r["driver_id"])
    assert every(ep, "list_reservations", driver_id=r["driver_id"], status="cancelled")
    assert ok(ep, "get_connector", connector_id=r["connector_id"])["status"] == "available"
    refused(ep, "block_driver", "rule_violation", "driver_id", driver_id=r["driver_id"])


def test_drivers_and_tariffs_are_unique_and_tariffs_in_use_stay(ep: Episode) -> None:
    d = every(ep, "list_drivers")[0]
    refused(ep, "register_driver", "conflict", "email", name="A B", email=d["email"], id_tag="0011223344")
    refused(ep, "register_driver", "conflict", "id_tag", name="A B", email="ab@mail.io", id_tag=d["id_tag"])
    assert ok(ep, "register_driver", name="A B", email="ab@mail.io", id_tag="0011223344")["status"] == "active"
    used = ok(ep, "get_station", station_id=every(ep, "list_stations")[0]["id"])["tariff_id"]
    refused(ep, "delete_tariff", "conflict", "tariff_id", tariff_id=used)
    usage = ok(ep, "station_usage", station_id=every(ep, "list_stations")[0]["id"])
    done = every(ep, "list_sessions", station_id=usage["station_id"], status="completed")
    assert usage["revenue"] == sum(s["cost"] for s in done)
