"""Paddle Raise: bidder registration, bid increments, buy-now, closing and checkout."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CA = ServiceTools("charityauction")
WORLD = CA.world
ok, refused, every = CA.ok, CA.refused, CA.every
POP = WORLD.population
PEOPLE = {p.email for p in POP.people}


def event(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_events", status=status)[0]


def open_item(ep: Episode, buy_now: bool) -> dict[str, Any]:
    e = event(ep, "open")
    return next(
        i
        for i in every(ep, "list_items", event_id=e["id"], status="open")
        if (i["buy_now_price"] is not None) == buy_now
    )


def challenger(ep: Episode, item: dict[str, Any]) -> dict[str, Any]:
    return next(b for b in every(ep, "list_bidders", event_id=item["event_id"]) if b["id"] != item["high_bidder_id"])


def test_seeded_bidders_are_people_of_the_world_and_closed_items_are_settled(ep: Episode) -> None:
    assert {b["email"] for b in every(ep, "list_bidders")} <= PEOPLE
    closed = event(ep, "closed")
    items = every(ep, "list_items", event_id=closed["id"])
    assert {i["status"] for i in items} <= {"sold", "unsold"}
    for i in items:
        assert (i["status"] == "sold") == (i["high_bidder_id"] is not None)
    paid = sum(b["amount_paid"] for b in every(ep, "list_bidders", event_id=closed["id"]))
    assert closed["raised"] == paid > 0


def test_registration_numbers_are_sequential_and_emails_unique(ep: Episode) -> None:
    e = event(ep, "open")
    existing = every(ep, "list_bidders", event_id=e["id"])
    refused(
        ep,
        "register_bidder",
        "conflict",
        "email",
        event_id=e["id"],
        name=existing[0]["name"],
        email=existing[0]["email"],
    )
    p = POP.consumers[0]
    b = ok(ep, "register_bidder", event_id=e["id"], name=p.name, email=p.email)
    assert b["number"] == max(x["number"] for x in existing) + 1
    refused(
        ep, "register_bidder", "conflict", "event_id", event_id=event(ep, "closed")["id"], name=p.name, email=p.email
    )


def test_a_bid_must_beat_the_high_bid_by_the_increment(ep: Episode) -> None:
    it = next(i for i in every(ep, "list_items", event_id=event(ep, "open")["id"], status="open") if i["high_bid"])
    b = challenger(ep, it)
    refused(
        ep,
        "place_bid",
        "rule_violation",
        "amount",
        item_id=it["id"],
        bidder_id=b["id"],
        amount=it["high_bid"] + it["increment"] - 1,
    )
    ok(ep, "place_bid", item_id=it["id"], bidder_id=b["id"], amount=it["high_bid"] + it["increment"])
    after = ok(ep, "get_item", item_id=it["id"])
    assert (after["high_bidder_id"], after["high_bid"]) == (b["id"], it["high_bid"] + it["increment"])
    refused(
        ep, "place_bid", "conflict", "bidder_id", item_id=it["id"], bidder_id=b["id"], amount=after["high_bid"] + 10**6
    )


def test_the_first_bid_starts_at_the_starting_bid(ep: Episode) -> None:
    e = event(ep, "open")
    it = ok(
        ep,
        "create_item",
        event_id=e["id"],
        title="Art print",
        fair_market_value=30000,
        starting_bid=10000,
        increment=1000,
    )
    b = every(ep, "list_bidders", event_id=e["id"])[0]
    refused(ep, "place_bid", "rule_violation", "amount", item_id=it["id"], bidder_id=b["id"], amount=9999)
    ok(ep, "place_bid", item_id=it["id"], bidder_id=b["id"], amount=10000)


def test_buy_now_sells_at_once_and_bids_cannot_reach_it(ep: Episode) -> None:
    it = open_item(ep, buy_now=True)
    b = challenger(ep, it)
    refused(
        ep, "place_bid", "rule_violation", "amount", item_id=it["id"], bidder_id=b["id"], amount=it["buy_now_price"]
    )
    sold = ok(ep, "buy_now", item_id=it["id"], bidder_id=b["id"])
    assert (sold["status"], sold["high_bid"], sold["high_bidder_id"]) == ("sold", it["buy_now_price"], b["id"])
    refused(ep, "place_bid", "conflict", "item_id", item_id=it["id"], bidder_id=b["id"], amount=10**7)
    refused(ep, "buy_now", "rule_violation", "item_id", item_id=open_item(ep, buy_now=False)["id"], bidder_id=b["id"])


def test_bidders_bid_only_at_their_own_open_event(ep: Episode) -> None:
    it = open_item(ep, buy_now=False)
    stranger = every(ep, "list_bidders", event_id=event(ep, "closed")["id"])[0]
    refused(ep, "place_bid", "rule_violation", "bidder_id", item_id=it["id"], bidder_id=stranger["id"], amount=10**7)
    draft = event(ep, "draft")
    item = ok(
        ep, "create_item", event_id=draft["id"], title="Cooking class", fair_market_value=20000, starting_bid=5000
    )
    p = POP.consumers[1]
    b = ok(ep, "register_bidder", event_id=draft["id"], name=p.name, email=p.email)
    refused(ep, "place_bid", "conflict", "item_id", item_id=item["id"], bidder_id=b["id"], amount=5000)
    ok(ep, "open_bidding_event", event_id=draft["id"])
    ok(ep, "place_bid", item_id=item["id"], bidder_id=b["id"], amount=5000)


def test_buy_now_must_exceed_the_starting_bid(ep: Episode) -> None:
    e = event(ep, "open")
    refused(
        ep,
        "create_item",
        "rule_violation",
        "buy_now_price",
        event_id=e["id"],
        title="Spa day",
        fair_market_value=20000,
        starting_bid=10000,
        buy_now_price=10000,
    )
    refused(
        ep,
        "create_item",
        "conflict",
        "event_id",
        event_id=event(ep, "closed")["id"],
        title="Spa day",
        fair_market_value=20000,
        starting_bid=10000,
    )


def test_closing_awards_items_and_checkout_charges_once(ep: Episode) -> None:
    e = event(ep, "open")
    bidder = every(ep, "list_bidders", event_id=e["id"])[0]
    refused(ep, "checkout", "conflict", "bidder_id", bidder_id=bidder["id"])
    held = {i["id"]: i for i in every(ep, "list_items", event_id=e["id"], status="open")}
    closed = ok(ep, "close_auction", event_id=e["id"])
    assert closed["status"] == "closed"
    for iid, before in held.items():
        assert ok(ep, "get_item", item_id=iid)["status"] == ("sold" if before["high_bidder_id"] else "unsold")
    winner = next(
        b
        for b in every(ep, "list_bidders", event_id=e["id"])
        if every(ep, "list_items", high_bidder_id=b["id"], status="sold")
    )
    won = every(ep, "list_items", high_bidder_id=winner["id"], status="sold")
    receipt = ok(ep, "checkout", bidder_id=winner["id"])
    assert receipt["total"] == sum(i["high_bid"] for i in won)
    assert receipt["deductible"] == sum(max(0, i["high_bid"] - i["fair_market_value"]) for i in won)
    assert ok(ep, "get_event", event_id=e["id"])["raised"] == receipt["total"]
    refused(ep, "checkout", "conflict", "bidder_id", bidder_id=winner["id"])
    refused(ep, "close_auction", "conflict", "event_id", event_id=e["id"])
