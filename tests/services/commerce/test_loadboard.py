"""Haulmark Loads: carrier vetting, bids and tenders, rate confirmations, tracking order, POD and detention."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LB = ServiceTools("loadboard")
WORLD = LB.world
ok, refused, every = LB.ok, LB.refused, LB.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
OPS = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def new_load(ep: Episode, equipment: str = "dry_van", delivery: int = 5) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "post_load",
            consignee_name=POP.customers[0].name,
            origin_city="Chicago",
            origin_state="IL",
            destination_city="Dallas",
            destination_state="TX",
            miles=925,
            equipment=equipment,
            weight_lbs=30000,
            pickup_date=day(3),
            delivery_date=day(delivery),
            target_rate=250000,
            posted_by=OPS,
        )
    )


def carrier(ep: Episode, **where: Any) -> dict[str, Any]:
    return next(c for c in every(ep, "list_carriers") if all(c[k] == v for k, v in where.items()))


def good_carrier(ep: Episode) -> dict[str, Any]:
    return next(
        c
        for c in every(ep, "list_carriers", status="approved", authority="active")
        if "dry_van" in c["equipment"] and c["insurance_expires"] > day(60)
    )


def test_seeded_loads_are_shipped_by_home_to_customers_with_consistent_carriers(ep: Episode) -> None:
    customers = {c.name for c in POP.customers}
    for load in every(ep, "list_loads"):
        assert load["shipper_name"] == POP.home.name and load["consignee_name"] in customers
        assert (load["carrier_id"] is None) == (load["status"] in ("posted", "cancelled"))
        assert load["delivery_date"] >= load["pickup_date"]
    for c in every(ep, "list_carriers"):
        assert c["dispatcher_email"] in {p.email for p in POP.contacts}


def test_only_vetted_carriers_with_the_right_equipment_may_bid(ep: Episode) -> None:
    load = new_load(ep)
    for bad in (carrier(ep, authority="revoked"), carrier(ep, status="blocked")):
        refused(ep, "place_bid", "rule_violation", "carrier_id", load_id=load["id"], carrier_id=bad["id"], amount=1)
    lapsing = next(c for c in every(ep, "list_carriers") if c["insurance_expires"] < day(5))
    refused(ep, "place_bid", "rule_violation", "carrier_id", load_id=load["id"], carrier_id=lapsing["id"], amount=1)
    reefer = new_load(ep, equipment="step_deck")
    no_deck = next(c for c in every(ep, "list_carriers", status="approved") if "step_deck" not in c["equipment"])
    refused(ep, "place_bid", "rule_violation", "carrier_id", load_id=reefer["id"], carrier_id=no_deck["id"], amount=1)
    c = good_carrier(ep)
    ok(ep, "place_bid", load_id=load["id"], carrier_id=c["id"], amount=240000)
    refused(ep, "place_bid", "conflict", "carrier_id", load_id=load["id"], carrier_id=c["id"], amount=230000)


def test_accepting_a_bid_tenders_the_load_and_rejects_the_others(ep: Episode) -> None:
    load = new_load(ep)
    eligible = [
        c
        for c in every(ep, "list_carriers", status="approved", authority="active")
        if "dry_van" in c["equipment"] and c["insurance_expires"] > day(60)
    ]
    first = ok(ep, "place_bid", load_id=load["id"], carrier_id=eligible[0]["id"], amount=240000)
    second = ok(ep, "place_bid", load_id=load["id"], carrier_id=eligible[1]["id"], amount=235000)
    rc = ok(ep, "accept_bid", bid_id=second["id"])
    assert (rc["status"], rc["linehaul"], rc["carrier_id"]) == ("sent", 235000, eligible[1]["id"])
    got = ok(ep, "get_load", load_id=load["id"])
    assert (got["status"], got["carrier_id"], got["booked_rate"]) == ("tendered", eligible[1]["id"], 235000)
    assert {b["id"]: b["status"] for b in every(ep, "list_bids", load_id=load["id"])} == {
        first["id"]: "rejected",
        second["id"]: "accepted",
    }
    refused(ep, "accept_bid", "conflict", "bid_id", bid_id=first["id"])


def test_a_rejected_rate_confirmation_posts_the_load_again(ep: Episode) -> None:
    rc = every(ep, "list_rate_confirmations", status="sent")[0]
    load = ok(ep, "reject_rate_confirmation", rate_confirmation_id=rc["id"])
    assert (load["status"], load["carrier_id"], load["booked_rate"]) == ("posted", None, None)
    refused(
        ep,
        "sign_rate_confirmation",
        "conflict",
        "rate_confirmation_id",
        rate_confirmation_id=rc["id"],
        signed_by="Dana Ruiz",
    )


def test_tracking_follows_the_stop_order_and_moves_the_load(ep: Episode) -> None:
    rc = every(ep, "list_rate_confirmations", status="sent")[0]
    load = ok(ep, "sign_rate_confirmation", rate_confirmation_id=rc["id"], signed_by="Dana Ruiz")
    assert load["status"] == "booked"
    lid, where = load["id"], {"city": "Chicago", "state": "IL"}
    refused(ep, "add_tracking_event", "rule_violation", "kind", load_id=lid, kind="picked_up", **where)
    refused(ep, "add_tracking_event", "rule_violation", "kind", load_id=lid, kind="in_transit", **where)
    ok(ep, "add_tracking_event", load_id=lid, kind="at_pickup", **where)
    ok(ep, "add_tracking_event", load_id=lid, kind="picked_up", **where)
    assert ok(ep, "get_load", load_id=lid)["status"] == "in_transit"
    ok(ep, "add_tracking_event", load_id=lid, kind="in_transit", city="Tulsa", state="OK")
    refused(ep, "add_tracking_event", "rule_violation", "kind", load_id=lid, kind="delivered", **where)
    ok(ep, "add_tracking_event", load_id=lid, kind="at_delivery", city="Dallas", state="TX")
    ok(ep, "add_tracking_event", load_id=lid, kind="delivered", city="Dallas", state="TX")
    assert ok(ep, "get_load", load_id=lid)["status"] == "delivered"
    assert ok(ep, "submit_pod", load_id=lid, signed_by="Sam Ortega")["status"] == "completed"


def test_proof_of_delivery_needs_a_delivered_load(ep: Episode) -> None:
    moving = every(ep, "list_loads", status="in_transit")[0]
    refused(ep, "submit_pod", "rule_violation", "load_id", load_id=moving["id"], signed_by="Sam Ortega")
    refused(ep, "cancel_load", "rule_violation", "load_id", load_id=moving["id"])


def test_detention_is_paid_beyond_two_free_hours_once_per_stop(ep: Episode) -> None:
    load = next(
        x
        for x in every(ep, "list_loads", status="delivered")
        if not every(ep, "list_detentions", load_id=x["id"], stop="delivery")
    )
    refused(
        ep, "request_detention", "rule_violation", "hours_waited", load_id=load["id"], stop="delivery", hours_waited=2
    )
    det = ok(ep, "request_detention", load_id=load["id"], stop="delivery", hours_waited=4.5)
    assert (det["amount"], det["status"]) == (18750, "requested")
    refused(ep, "request_detention", "conflict", "stop", load_id=load["id"], stop="delivery", hours_waited=5)
    booked = every(ep, "list_loads", status="booked")[0]
    refused(ep, "request_detention", "rule_violation", "stop", load_id=booked["id"], stop="pickup", hours_waited=5)
    assert ok(ep, "approve_detention", detention_id=det["id"])["status"] == "approved"


def test_cancelling_a_posted_load_rejects_its_pending_bids(ep: Episode) -> None:
    load = new_load(ep)
    bid = ok(ep, "place_bid", load_id=load["id"], carrier_id=good_carrier(ep)["id"], amount=240000)
    assert ok(ep, "cancel_load", load_id=load["id"])["status"] == "cancelled"
    assert every(ep, "list_bids", load_id=load["id"])[0]["status"] == "rejected" and bid["status"] == "pending"
    refused(ep, "update_load", "rule_violation", "load_id", load_id=load["id"], target_rate=1)


def test_loads_need_a_sane_schedule_and_carriers_valid_paperwork(ep: Episode) -> None:
    refused(
        ep,
        "post_load",
        "rule_violation",
        "delivery_date",
        consignee_name="Acme",
        origin_city="A",
        origin_state="IL",
        destination_city="B",
        destination_state="TX",
        miles=10,
        equipment="reefer",
        weight_lbs=100,
        pickup_date=day(3),
        delivery_date=day(2),
        target_rate=100,
        posted_by=OPS,
    )
    known = every(ep, "list_carriers")[0]
    base = {
        "name": "Road Co",
        "dispatcher_name": "Ann Lee",
        "dispatcher_email": "ann@road.example",
        "equipment": ["dry_van"],
        "insurance_expires": day(100),
    }
    refused(
        ep, "onboard_carrier", "conflict", "mc_number", mc_number=known["mc_number"], auto_liability=100_000_000, **base
    )
    refused(
        ep,
        "onboard_carrier",
        "rule_violation",
        "auto_liability",
        mc_number="MC999999",
        auto_liability=50_000_000,
        **base,
    )
    refused(
        ep,
        "onboard_carrier",
        "rule_violation",
        "insurance_expires",
        mc_number="MC999999",
        auto_liability=100_000_000,
        **(base | {"insurance_expires": day(0)}),
    )
    assert ok(ep, "onboard_carrier", mc_number="MC999999", auto_liability=100_000_000, **base)["status"] == "approved"
