"""Frostline: trackers on shipments, readings and excursions, delivery and product disposition."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CC = ServiceTools("coldchain")
WORLD = CC.world
ok, refused, every = CC.ok, CC.refused, CC.every
POP = WORLD.population
ANALYST = POP.employees[0].email


def fresh(ep: Episode) -> dict[str, Any]:
    prof = every(ep, "list_profiles")[0]
    comp = POP.companies[-1]
    ship = ok(
        ep,
        "create_shipment",
        reference="CC-77001",
        product="Insulin pens",
        consignee=comp.name,
        destination=comp.place.city,
        profile_id=prof["id"],
    )
    tracker = every(ep, "list_trackers", status="available")[0]
    ok(ep, "attach_tracker", shipment_id=ship["id"], tracker_id=tracker["id"])
    return ok(ep, "dispatch_shipment", shipment_id=ship["id"])  # type: ignore[no-any-return]


def read(ep: Episode, ship: dict[str, Any], temp: float, when: str) -> dict[str, Any]:
    return ok(ep, "record_reading", shipment_id=ship["id"], temperature_c=temp, recorded_at=when)  # type: ignore[no-any-return]


def past(ship: dict[str, Any], minutes: int) -> str:
    return (dt.datetime.fromisoformat(ship["departed_at"]) + dt.timedelta(minutes=minutes)).isoformat()


def test_seeded_shipments_go_to_population_companies_and_trackers_match(ep: Episode) -> None:
    names = {c.name for c in POP.companies}
    for s in every(ep, "list_shipments"):
        assert s["consignee"] in names and s["shipper"] == POP.home.name
        if s["tracker_id"]:
            assert ok(ep, "get_tracker", tracker_id=s["tracker_id"])["status"] == "assigned"
    for s in every(ep, "list_shipments", status="delivered"):
        assert s["tracker_id"] is None
        total = sum(e["minutes"] for e in every(ep, "list_excursions", shipment_id=s["id"]))
        assert s["minutes_out_of_range"] == total


def test_a_shipment_leaves_only_with_a_tracker(ep: Episode) -> None:
    prof = every(ep, "list_profiles")[0]
    ship = ok(
        ep,
        "create_shipment",
        reference="CC-77002",
        product="Vaccines",
        consignee="Acme",
        destination="Berlin",
        profile_id=prof["id"],
    )
    refused(
        ep,
        "create_shipment",
        "conflict",
        "reference",
        reference="CC-77002",
        product="Vaccines",
        consignee="Acme",
        destination="Berlin",
        profile_id=prof["id"],
    )
    refused(ep, "dispatch_shipment", "rule_violation", "shipment_id", shipment_id=ship["id"])
    retired = every(ep, "list_trackers", status="retired")[0]
    refused(ep, "attach_tracker", "conflict", "tracker_id", shipment_id=ship["id"], tracker_id=retired["id"])
    tracker = every(ep, "list_trackers", status="available")[0]
    ok(ep, "attach_tracker", shipment_id=ship["id"], tracker_id=tracker["id"])
    assert ok(ep, "get_tracker", tracker_id=tracker["id"])["status"] == "assigned"
    assert ok(ep, "dispatch_shipment", shipment_id=ship["id"])["status"] == "in_transit"
    refused(ep, "cancel_shipment", "rule_violation", "shipment_id", shipment_id=ship["id"])


def test_cancelling_frees_the_tracker(ep: Episode) -> None:
    ship = next(s for s in every(ep, "list_shipments", status="created") if s["tracker_id"])
    ok(ep, "cancel_shipment", shipment_id=ship["id"])
    assert ok(ep, "get_tracker", tracker_id=ship["tracker_id"])["status"] == "available"
    assert ok(ep, "get_shipment", shipment_id=ship["id"])["tracker_id"] is None


def test_readings_out_of_range_open_and_close_an_excursion(ep: Episode) -> None:
    ship = fresh(ep)
    read(ep, ship, 5.0, past(ship, 0))
    high = read(ep, ship, 11.0, past(ship, 0))
    assert high["in_range"] is False
    exc = every(ep, "list_excursions", shipment_id=ship["id"])
    assert [(e["kind"], e["ended_at"]) for e in exc] == [("high", None)]
    read(ep, ship, 12.5, past(ship, 0))
    read(ep, ship, 6.0, past(ship, 0))
    e = every(ep, "list_excursions", shipment_id=ship["id"])[0]
    assert e["peak_c"] == 12.5 and e["ended_at"] is not None
    assert ok(ep, "get_shipment", shipment_id=ship["id"])["minutes_out_of_range"] == e["minutes"]


def test_readings_arrive_in_order_and_only_in_transit(ep: Episode) -> None:
    ship = fresh(ep)
    refused(
        ep,
        "record_reading",
        "rule_violation",
        "recorded_at",
        shipment_id=ship["id"],
        temperature_c=5.0,
        recorded_at=past(ship, -5),
    )
    refused(
        ep,
        "record_reading",
        "rule_violation",
        "recorded_at",
        shipment_id=ship["id"],
        temperature_c=5.0,
        recorded_at=past(ship, 600),
    )
    created = every(ep, "list_shipments", status="created")[0]
    refused(
        ep,
        "record_reading",
        "conflict",
        "shipment_id",
        shipment_id=created["id"],
        temperature_c=5.0,
        recorded_at=past(ship, 0),
    )


def test_delivery_frees_the_tracker_and_awaits_disposition(ep: Episode) -> None:
    ship = fresh(ep)
    done = ok(ep, "deliver_shipment", shipment_id=ship["id"])
    assert (done["status"], done["disposition"], done["tracker_id"]) == ("delivered", "pending", None)
    assert ok(ep, "get_tracker", tracker_id=ship["tracker_id"])["status"] == "available"
    refused(ep, "deliver_shipment", "conflict", "shipment_id", shipment_id=ship["id"])
    assert (
        ok(ep, "set_disposition", shipment_id=ship["id"], disposition="released", note="In range")["disposition"]
        == "released"
    )
    refused(ep, "set_disposition", "conflict", "shipment_id", shipment_id=ship["id"], disposition="rejected", note="x")


def test_release_needs_acknowledged_excursions(ep: Episode) -> None:
    ship = next(
        s
        for s in every(ep, "list_shipments", status="delivered")
        if every(ep, "list_excursions", shipment_id=s["id"], status="open")
    )
    refused(
        ep,
        "set_disposition",
        "rule_violation",
        "disposition",
        shipment_id=ship["id"],
        disposition="released",
        note="Looks fine",
    )
    assert not ok(ep, "shipment_summary", shipment_id=ship["id"])["releasable"]
    q = ok(ep, "set_disposition", shipment_id=ship["id"], disposition="quarantined", note="QA review")
    assert q["disposition"] == "quarantined"
    for e in every(ep, "list_excursions", shipment_id=ship["id"], status="open"):
        refused(
            ep,
            "acknowledge_excursion",
            "rule_violation",
            "acknowledged_by",
            excursion_id=e["id"],
            acknowledged_by="x@y.io",
        )
        ok(ep, "acknowledge_excursion", excursion_id=e["id"], acknowledged_by=ANALYST)
        refused(ep, "acknowledge_excursion", "conflict", "excursion_id", excursion_id=e["id"], acknowledged_by=ANALYST)
    summary = ok(ep, "shipment_summary", shipment_id=ship["id"])
    assert summary["releasable"] == (summary["minutes_out_of_range"] <= summary["allowed_minutes"])


def test_a_long_excursion_blocks_release_even_when_acknowledged(ep: Episode) -> None:
    ship = next(
        s
        for s in every(ep, "list_shipments", status="delivered")
        if every(ep, "list_excursions", shipment_id=s["id"], status="acknowledged")
    )
    prof = ok(ep, "get_profile", profile_id=ship["profile_id"])
    assert ship["minutes_out_of_range"] > prof["allowed_minutes"]
    refused(
        ep,
        "set_disposition",
        "rule_violation",
        "disposition",
        shipment_id=ship["id"],
        disposition="released",
        note="ok",
    )
    assert (
        ok(ep, "set_disposition", shipment_id=ship["id"], disposition="rejected", note="Too warm")["disposition"]
        == "rejected"
    )


def test_a_profile_range_runs_low_to_high(ep: Episode) -> None:
    refused(ep, "create_profile", "rule_violation", "min_c", name="Bad", min_c=8.0, max_c=2.0)
    made = ok(ep, "create_profile", name="Chilled 0-4", min_c=0.0, max_c=4.0, allowed_minutes=15)
    assert made["allowed_minutes"] == 15
