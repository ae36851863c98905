"""BoxClub: subscribing, skips and swaps before the cutoff, pauses, cancellations, planning and shipping boxes."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BOX = ServiceTools("subscriptionbox")
WORLD = BOX.world
ok, refused, every = BOX.ok, BOX.refused, BOX.every
POP = WORLD.population
CONSUMERS = {p.email for p in POP.consumers}


def box(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_boxes", status=status)[0]


def queued(ep: Episode, box_status: str) -> dict[str, Any]:
    return every(ep, "list_shipments", box_id=box(ep, box_status)["id"], status="queued")[0]


def test_seeded_subscriptions_and_shipments_are_consistent(ep: Episode) -> None:
    subs = {s["id"]: s for s in every(ep, "list_subscriptions")}
    for who in every(ep, "list_subscribers"):
        assert who["email"] in CONSUMERS
    plans = {p["id"]: p for p in every(ep, "list_plans")}
    for ship in every(ep, "list_shipments"):
        sub = subs[ship["subscription_id"]]
        assert ship["email"] == sub["email"]
        if ship["status"] in ("shipped", "delivered"):
            assert ship["tracking_number"] and ship["amount"] == plans[sub["plan_id"]]["price"]
        elif sub["status"] == "paused":
            assert ship["status"] == "skipped"
        assert sub["status"] != "cancelled" or ship["status"] in ("shipped", "delivered")
    assert {b["status"] for b in every(ep, "list_boxes")} == {"planned", "locked", "shipped"}


def test_subscribing_queues_boxes_before_their_cutoff_once_per_plan(ep: Episode) -> None:
    planned = box(ep, "planned")
    taken = {s["subscriber_id"] for s in every(ep, "list_subscriptions", plan_id=planned["plan_id"])}
    who = next(s for s in every(ep, "list_subscribers") if s["id"] not in taken)
    sub = ok(ep, "subscribe", subscriber_id=who["id"], plan_id=planned["plan_id"])
    assert (sub["status"], sub["email"], sub["next_charge_date"]) == ("active", who["email"], planned["ship_date"])
    ships = every(ep, "list_shipments", subscription_id=sub["id"])
    assert [(s["box_id"], s["status"], s["skus"]) for s in ships] == [(planned["id"], "queued", planned["skus"])]
    refused(ep, "subscribe", "conflict", "plan_id", subscriber_id=who["id"], plan_id=planned["plan_id"])
    locked = box(ep, "locked")
    ok(ep, "archive_plan", plan_id=locked["plan_id"])
    refused(ep, "subscribe", "rule_violation", "plan_id", subscriber_id=who["id"], plan_id=locked["plan_id"])


def test_skips_are_taken_until_the_cutoff_only(ep: Episode) -> None:
    ship = queued(ep, "planned")
    assert ok(ep, "skip_shipment", shipment_id=ship["id"])["status"] == "skipped"
    refused(ep, "skip_shipment", "rule_violation", "shipment_id", shipment_id=ship["id"])
    assert ok(ep, "unskip_shipment", shipment_id=ship["id"])["status"] == "queued"
    late = queued(ep, "locked")
    refused(ep, "skip_shipment", "rule_violation", "shipment_id", shipment_id=late["id"])


def test_a_swap_needs_the_item_in_the_box_and_the_new_one_in_stock(ep: Episode) -> None:
    ship = queued(ep, "planned")
    spare = next(i for i in every(ep, "list_items") if i["sku"] not in ship["skus"])
    refused(
        ep,
        "swap_item",
        "rule_violation",
        "remove_sku",
        shipment_id=ship["id"],
        remove_sku=spare["sku"],
        add_sku=spare["sku"],
    )
    out = ship["skus"][0]
    refused(ep, "swap_item", "conflict", "add_sku", shipment_id=ship["id"], remove_sku=out, add_sku=ship["skus"][1])
    ok(ep, "update_item", item_id=spare["id"], stock=0)
    refused(ep, "swap_item", "rule_violation", "add_sku", shipment_id=ship["id"], remove_sku=out, add_sku=spare["sku"])
    ok(ep, "update_item", item_id=spare["id"], stock=5)
    done = ok(ep, "swap_item", shipment_id=ship["id"], remove_sku=out, add_sku=spare["sku"])
    assert done["skus"] == [spare["sku"], *ship["skus"][1:]]


def test_pausing_skips_covered_boxes_and_resuming_queues_them_again(ep: Episode) -> None:
    ship = queued(ep, "planned")
    sub_id = ship["subscription_id"]
    refused(ep, "pause_subscription", "rule_violation", "months", subscription_id=sub_id, months=4)
    paused = ok(ep, "pause_subscription", subscription_id=sub_id, months=2)
    assert paused["status"] == "paused" and paused["paused_until"] is not None
    assert ok(ep, "get_shipment", shipment_id=ship["id"])["status"] == "skipped"
    refused(ep, "unskip_shipment", "rule_violation", "shipment_id", shipment_id=ship["id"])
    assert ok(ep, "resume_subscription", subscription_id=sub_id)["status"] == "active"
    assert ok(ep, "get_shipment", shipment_id=ship["id"])["status"] == "queued"
    refused(ep, "resume_subscription", "rule_violation", "subscription_id", subscription_id=sub_id)


def test_cancelling_cancels_unshipped_boxes_and_frees_the_plan(ep: Episode) -> None:
    ship = queued(ep, "planned")
    sub = ok(ep, "get_subscription", subscription_id=ship["subscription_id"])
    done = ok(ep, "cancel_subscription", subscription_id=sub["id"], reason="moving")
    assert (done["status"], done["cancellation_reason"], done["next_charge_date"]) == ("cancelled", "moving", None)
    assert ok(ep, "get_shipment", shipment_id=ship["id"])["status"] == "cancelled"
    refused(ep, "cancel_subscription", "conflict", "subscription_id", subscription_id=sub["id"], reason="other")
    again = ok(ep, "subscribe", subscriber_id=sub["subscriber_id"], plan_id=sub["plan_id"])
    assert again["id"] != sub["id"]


def test_planning_a_box_checks_month_contents_and_dates(ep: Episode) -> None:
    planned = box(ep, "planned")
    plan = ok(ep, "get_plan", plan_id=planned["plan_id"])
    skus = [i["sku"] for i in every(ep, "list_items")]
    args = {"plan_id": plan["id"], "month": "2026-06", "ship_date": "2026-06-15"}
    refused(ep, "plan_box", "conflict", "month", **(args | {"month": planned["month"]}), skus=skus[:1])
    refused(ep, "plan_box", "rule_violation", "skus", **args, skus=skus[: plan["box_size"] + 1])
    refused(ep, "plan_box", "rule_violation", "skus", **args, skus=[skus[0], skus[0]])
    refused(ep, "plan_box", "rule_violation", "skus", **args, skus=["NOPE-0001"])
    refused(ep, "plan_box", "rule_violation", "ship_date", **(args | {"ship_date": "2026-07-01"}), skus=skus[:1])
    made = ok(ep, "plan_box", **args, skus=skus[:2])
    assert (made["status"], made["cutoff_date"]) == ("planned", f"2026-06-{15 - plan['cutoff_days']:02d}")
    active = {s["id"] for s in every(ep, "list_subscriptions", plan_id=plan["id"], status="active")}
    assert {s["subscription_id"] for s in every(ep, "list_shipments", box_id=made["id"])} == active


def test_shipping_a_locked_box_charges_tracks_and_takes_stock(ep: Episode) -> None:
    refused(ep, "ship_box", "rule_violation", "box_id", box_id=box(ep, "planned")["id"])
    locked = box(ep, "locked")
    ships = every(ep, "list_shipments", box_id=locked["id"], status="queued")
    need: dict[str, int] = {}
    for s in ships:
        for sku in s["skus"]:
            need[sku] = need.get(sku, 0) + 1
    stock = {i["sku"]: i for i in every(ep, "list_items")}
    scarce = next(iter(need))
    ok(ep, "update_item", item_id=stock[scarce]["id"], stock=need[scarce] - 1)
    refused(ep, "ship_box", "rule_violation", "box_id", box_id=locked["id"])
    ok(ep, "update_item", item_id=stock[scarce]["id"], stock=need[scarce])
    assert ok(ep, "ship_box", box_id=locked["id"])["status"] == "shipped"
    for s in ships:
        after = ok(ep, "get_shipment", shipment_id=s["id"])
        assert after["status"] == "shipped" and after["tracking_number"] and after["amount"] > 0
        sub = ok(ep, "get_subscription", subscription_id=s["subscription_id"])
        assert sub["boxes_shipped"] == 2
    assert ok(ep, "get_item", item_id=stock[scarce]["id"])["stock"] == 0
    assert ok(ep, "deliver_shipment", shipment_id=ships[0]["id"])["status"] == "delivered"


def test_new_box_contents_reach_shipments_but_keep_swaps(ep: Episode) -> None:
    planned = box(ep, "planned")
    ships = every(ep, "list_shipments", box_id=planned["id"], status="queued")
    spare = [i["sku"] for i in every(ep, "list_items") if i["sku"] not in planned["skus"]]
    swapped = ok(ep, "swap_item", shipment_id=ships[0]["id"], remove_sku=planned["skus"][0], add_sku=spare[0])
    ok(ep, "set_box_contents", box_id=planned["id"], skus=spare[1:3])
    assert ok(ep, "get_shipment", shipment_id=ships[1]["id"])["skus"] == spare[1:3]
    assert ok(ep, "get_shipment", shipment_id=ships[0]["id"])["skus"] == swapped["skus"]


def test_an_item_in_an_unshipped_box_cannot_be_deleted(ep: Episode) -> None:
    planned = box(ep, "planned")
    item = every(ep, "list_items", sku=planned["skus"][0])[0]
    refused(ep, "delete_item", "conflict", "item_id", item_id=item["id"])
    used = {sku for b in every(ep, "list_boxes") if b["status"] != "shipped" for sku in b["skus"]}
    free = next(i for i in every(ep, "list_items") if i["sku"] not in used)
    ok(ep, "delete_item", item_id=free["id"])
