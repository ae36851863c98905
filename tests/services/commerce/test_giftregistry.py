"""GiftList Registry: gifts up to what is needed, group gift funding, cancellations, thank-yous, completion discount."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

GR = ServiceTools("giftregistry")
WORLD = GR.world
ok, refused, every = GR.ok, GR.refused, GR.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
GUEST = POP.consumers[-2]
G = {"guest_name": GUEST.name, "guest_email": GUEST.email}


def public(ep: Episode) -> dict[str, Any]:
    return next(
        r for r in every(ep, "list_registries", status="active", visibility="public") if r["event_date"] > str(TODAY)
    )


def needed(ep: Episode, reg: dict[str, Any]) -> dict[str, Any]:
    return next(
        i
        for i in every(ep, "list_items", registry_id=reg["id"], group_gift=False)
        if i["quantity_purchased"] < i["quantity_requested"]
    )


def test_seeded_counts_match_the_purchases(ep: Episode) -> None:
    owners = {p.email for p in POP.consumers}
    for reg in every(ep, "list_registries"):
        assert reg["owner_email"] in owners
        for item in every(ep, "list_items", registry_id=reg["id"]):
            live = [p for p in every(ep, "list_purchases", item_id=item["id"]) if not p["cancelled"]]
            if item["group_gift"]:
                assert item["amount_funded"] == sum(p["amount"] for p in live)
            else:
                assert item["quantity_purchased"] == sum(p["quantity"] for p in live)


def test_a_guest_buys_at_most_what_is_still_needed(ep: Episode) -> None:
    item = needed(ep, public(ep))
    left = item["quantity_requested"] - item["quantity_purchased"]
    refused(ep, "purchase_gift", "rule_violation", "quantity", item_id=item["id"], quantity=left + 1, **G)
    p = ok(ep, "purchase_gift", item_id=item["id"], quantity=left, message="Enjoy!", **G)
    assert (p["kind"], p["amount"]) == ("gift", item["price"] * left)
    assert ok(ep, "get_item", item_id=item["id"])["quantity_purchased"] == item["quantity_requested"]
    refused(ep, "purchase_gift", "rule_violation", "quantity", item_id=item["id"], quantity=1, **G)


def test_private_or_closed_registries_take_no_gifts(ep: Episode) -> None:
    private = every(ep, "list_registries", visibility="private")[0]
    item = needed(ep, private)
    refused(ep, "purchase_gift", "rule_violation", "item_id", item_id=item["id"], **G)
    reg = public(ep)
    item = needed(ep, reg)
    ok(ep, "close_registry", registry_id=reg["id"])
    refused(ep, "purchase_gift", "rule_violation", "item_id", item_id=item["id"], **G)
    refused(ep, "create_item", "rule_violation", "registry_id", registry_id=reg["id"], name="Vase", price=3000)
    ok(ep, "reopen_registry", registry_id=reg["id"])
    assert ok(ep, "purchase_gift", item_id=item["id"], **G)["quantity"] == 1


def test_a_group_gift_is_funded_by_contributions_up_to_its_goal(ep: Episode) -> None:
    fund = every(ep, "list_items", registry_id=public(ep)["id"], group_gift=True)[0]
    refused(ep, "purchase_gift", "rule_violation", "item_id", item_id=fund["id"], **G)
    left = fund["price"] - fund["amount_funded"]
    refused(ep, "contribute", "rule_violation", "amount", item_id=fund["id"], amount=left + 1, **G)
    refused(ep, "contribute", "rule_violation", "amount", item_id=fund["id"], amount=499, **G)
    ok(ep, "contribute", item_id=fund["id"], amount=left, **G)
    after = ok(ep, "get_item", item_id=fund["id"])
    assert (after["amount_funded"], after["quantity_purchased"]) == (fund["price"], 1)
    refused(ep, "contribute", "conflict", "item_id", item_id=fund["id"], amount=500, **G)


def test_cancelling_a_purchase_makes_the_item_needed_again(ep: Episode) -> None:
    item = needed(ep, public(ep))
    p = ok(ep, "purchase_gift", item_id=item["id"], **G)
    assert ok(ep, "cancel_purchase", purchase_id=p["id"])["cancelled"] is True
    assert ok(ep, "get_item", item_id=item["id"])["quantity_purchased"] == item["quantity_purchased"]
    refused(ep, "cancel_purchase", "conflict", "purchase_id", purchase_id=p["id"])
    thanked = every(ep, "list_purchases", thank_you_sent=True)[0]
    refused(ep, "cancel_purchase", "rule_violation", "purchase_id", purchase_id=thanked["id"])


def test_thank_you_notes_are_tracked_once_per_gift(ep: Episode) -> None:
    reg = public(ep)
    before = ok(ep, "thank_you_list", registry_id=reg["id"])
    owed = every(ep, "list_purchases", registry_id=reg["id"], thank_you_sent=False, cancelled=False)[0]
    ok(ep, "mark_thank_you_sent", purchase_id=owed["id"])
    after = ok(ep, "thank_you_list", registry_id=reg["id"])
    assert (after["pending"], after["sent"]) == (before["pending"] - 1, before["sent"] + 1)
    refused(ep, "mark_thank_you_sent", "conflict", "purchase_id", purchase_id=owed["id"])


def test_items_with_purchases_keep_their_quantity_and_cannot_be_deleted(ep: Episode) -> None:
    bought = next(i for i in every(ep, "list_items", group_gift=False) if i["quantity_purchased"] > 0)
    refused(ep, "delete_item", "conflict", "item_id", item_id=bought["id"])
    if bought["quantity_purchased"] > 1:
        refused(ep, "update_item", "rule_violation", "quantity_requested", item_id=bought["id"], quantity_requested=1)
    more = ok(ep, "update_item", item_id=bought["id"], quantity_requested=bought["quantity_requested"] + 2)
    assert more["quantity_requested"] == bought["quantity_requested"] + 2


def test_the_completion_discount_is_used_once_after_the_event(ep: Episode) -> None:
    early = public(ep)
    refused(
        ep,
        "complete_registry",
        "rule_violation",
        "registry_id",
        registry_id=early["id"],
        item_ids=[needed(ep, early)["id"]],
    )
    past = next(r for r in every(ep, "list_registries", status="active") if r["event_date"] < str(TODAY))
    item = needed(ep, past)
    left = item["quantity_requested"] - item["quantity_purchased"]
    fund = every(ep, "list_items", registry_id=past["id"], group_gift=True)[0]
    refused(ep, "complete_registry", "rule_violation", "item_ids[0]", registry_id=past["id"], item_ids=[fund["id"]])
    made = ok(ep, "complete_registry", registry_id=past["id"], item_ids=[item["id"]])
    assert (made[0]["kind"], made[0]["amount"]) == ("completion", round(item["price"] * left * 0.8))
    assert ok(ep, "get_registry", registry_id=past["id"])["completion_used"] is True
    refused(ep, "complete_registry", "conflict", "registry_id", registry_id=past["id"], item_ids=[item["id"]])
    refused(ep, "mark_thank_you_sent", "rule_violation", "purchase_id", purchase_id=made[0]["id"])


def test_registries_have_unique_slugs_and_events_ahead(ep: Episode) -> None:
    taken = every(ep, "list_registries")[0]["slug"]
    base = {"title": "Our home", "owner_name": GUEST.name, "owner_email": GUEST.email, "event_type": "housewarming"}
    ahead = str(TODAY + dt.timedelta(days=30))
    refused(ep, "create_registry", "conflict", "slug", slug=taken, event_date=ahead, **base)
    refused(
        ep,
        "create_registry",
        "rule_violation",
        "event_date",
        slug="our-home",
        event_date=str(TODAY - dt.timedelta(days=1)),
        **base,
    )
    reg = ok(ep, "create_registry", slug="our-home", event_date=ahead, **base)
    item = ok(ep, "create_item", registry_id=reg["id"], name="Toaster", price=4500, quantity_requested=2)
    refused(
        ep,
        "create_item",
        "rule_violation",
        "quantity_requested",
        registry_id=reg["id"],
        name="Fund",
        price=9000,
        quantity_requested=2,
        group_gift=True,
    )
    progress = ok(ep, "registry_progress", registry_id=reg["id"])
    assert (progress["units_requested"], progress["units_purchased"], item["quantity_purchased"]) == (2, 0, 0)
