"""Hearthline Listings: one live listing per home, showings without overlap, offers, counters and closing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.places.listings import CURRENCY_OF
from tests.services.helpers import ServiceTools

LISTINGS = ServiceTools("listings")
WORLD = LISTINGS.world
ok, refused, every = LISTINGS.ok, LISTINGS.refused, LISTINGS.every
POP = WORLD.population
NOW = WORLD.epoch
BUYER = {"buyer_name": "Jordan Avery", "buyer_email": "jordan.avery@mailbox.net"}


def active(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_listings", status="active")[0]


def other_agent(ep: Episode, listing: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in every(ep, "list_agents", active=True) if a["id"] != listing["listing_agent_id"])


def offer_args(ep: Episode, listing: dict[str, Any], **over: Any) -> dict[str, Any]:
    args: dict[str, Any] = {
        "listing_id": listing["id"],
        **BUYER,
        "buyer_agent_id": other_agent(ep, listing)["id"],
        "amount": listing["list_price"] * 95 // 100,
        "earnest_money": listing["list_price"] // 50,
        "financing": "conventional",
        "contingencies": ["inspection", "financing"],
        "closing_date": (NOW.date() + dt.timedelta(days=30)).isoformat(),
    }
    args.update(over)
    return args


# -- the world ----------------------------------------------------------------------------------


def test_agents_are_contacts_of_world_brokerages_and_owners_are_consumers() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    companies = {c.name: c for c in POP.companies}
    for agent in every(ep, "list_agents"):
        person = people[agent["email"]]
        assert person.role == "contact" and agent["name"] == person.name
        company = POP.company_of(person)
        assert company is not None and companies[agent["brokerage"]] == company
        assert agent["office_address"] == company.address.model_dump()
    consumers = {p.email: p for p in POP.consumers}
    for prop in every(ep, "list_properties"):
        assert prop["owner_email"] in consumers
    sold = every(ep, "list_listings", status="sold")
    assert sold
    for listing in sold:
        prop = ok(ep, "get_property", property_id=listing["property_id"])
        assert (prop["owner_email"], prop["owner_name"]) == (listing["buyer_email"], listing["buyer_name"])
        # The seller was a consumer living at the address they sold.
        assert any(p.address.model_dump() == listing["address"] for p in POP.consumers)


def test_listings_are_priced_in_their_countrys_currency_with_a_public_page() -> None:
    ep = Episode(WORLD)
    listings = every(ep, "list_listings")
    assert {lst["status"] for lst in listings} == {"coming_soon", "active", "pending", "sold", "withdrawn", "expired"}
    for lst in listings:
        assert lst["currency"] == CURRENCY_OF[lst["address"]["country"]]
        assert lst["url"].endswith(lst["mls_number"])
    for lst in every(ep, "list_listings", status="pending"):
        [won] = every(ep, "list_offers", listing_id=lst["id"], status="accepted")
        assert won["currency"] == lst["currency"]


# -- listing ---------------------------------------------------------------------------------------


def test_a_home_has_one_live_listing(ep: Episode) -> None:
    lst = active(ep)
    agent = every(ep, "list_agents", active=True)[0]
    args = {
        "property_id": lst["property_id"],
        "listing_agent_id": agent["id"],
        "list_price": 100_000_00,
        "currency": lst["currency"],
        "expires_on": "2026-09-01",
    }
    refused(ep, "list_property", "conflict", "property_id", **args)
    ok(ep, "withdraw_listing", listing_id=lst["id"])
    relisted = ok(ep, "list_property", **args)
    assert relisted["status"] == "active" and relisted["mls_number"] != lst["mls_number"]
    assert relisted["url"] == f"https://www.hearthline.com/homes/{relisted['mls_number']}"


def test_a_listing_is_priced_in_the_local_currency_and_expires_after_it_starts(ep: Episode) -> None:
    lst = active(ep)
    ok(ep, "withdraw_listing", listing_id=lst["id"])
    agent = every(ep, "list_agents", active=True)[0]
    base = {"property_id": lst["property_id"], "listing_agent_id": agent["id"], "list_price": 300_000_00}
    wrong = "JPY" if lst["currency"] != "JPY" else "USD"
    refused(ep, "list_property", "rule_violation", "currency", **base, currency=wrong, expires_on="2026-09-01")
    refused(
        ep, "list_property", "rule_violation", "expires_on", **base, currency=lst["currency"], expires_on="2026-03-01"
    )
    soon = ok(ep, "list_property", **base, currency=lst["currency"], expires_on="2026-09-01", listed_on="2026-03-20")
    assert soon["status"] == "coming_soon"
    msg = refused(ep, "submit_offer", "rule_violation", "listing_id", **offer_args(ep, soon))
    assert "coming soon" in msg


def test_an_inactive_agent_cannot_list(ep: Episode) -> None:
    inactive = every(ep, "list_agents", active=False)[0]
    prop = next(
        p
        for p in every(ep, "list_properties")
        if all(
            lst["status"] not in ("active", "pending", "coming_soon")
            for lst in every(ep, "list_listings", property_id=p["id"])
        )
    )
    refused(
        ep,
        "list_property",
        "rule_violation",
        "listing_agent_id",
        property_id=prop["id"],
        listing_agent_id=inactive["id"],
        list_price=1_000_00,
        currency=CURRENCY_OF[prop["address"]["country"]],
        expires_on="2026-09-01",
    )


def test_price_changes_are_counted_and_closed_listings_keep_their_price(ep: Episode) -> None:
    lst = active(ep)
    changed = ok(ep, "change_price", listing_id=lst["id"], new_price=lst["list_price"] - 10_000_00)
    assert changed["price_changes"] == lst["price_changes"] + 1
    assert changed["original_price"] == lst["original_price"]
    refused(ep, "change_price", "rule_violation", "new_price", listing_id=lst["id"], new_price=changed["list_price"])
    sold = every(ep, "list_listings", status="sold")[0]
    refused(ep, "change_price", "rule_violation", "listing_id", listing_id=sold["id"], new_price=1_00)
    refused(ep, "update_listing", "rule_violation", "listing_id", listing_id=sold["id"], description="Updated")


# -- showings -----------------------------------------------------------------------------------------


def test_showings_of_one_home_and_one_agent_never_overlap(ep: Episode) -> None:
    lst = active(ep)
    agent = other_agent(ep, lst)
    start = dt.datetime(2026, 3, 20, 14, 0, tzinfo=dt.UTC)
    args = {"listing_id": lst["id"], "buyer_agent_id": agent["id"], **BUYER, "duration_minutes": 60}
    first = ok(ep, "schedule_showing", **args, start=start.isoformat())
    assert first["end"] == (start + dt.timedelta(hours=1)).isoformat().replace("+00:00", "Z")
    later = (start + dt.timedelta(minutes=30)).isoformat()
    third = next(
        a for a in every(ep, "list_agents", active=True) if a["id"] not in (agent["id"], lst["listing_agent_id"])
    )
    refused(ep, "schedule_showing", "conflict", "start", **{**args, "buyer_agent_id": third["id"]}, start=later)
    other = next(x for x in every(ep, "list_listings", status="active") if x["id"] != lst["id"])
    refused(ep, "schedule_showing", "conflict", "buyer_agent_id", **{**args, "listing_id": other["id"]}, start=later)
    refused(ep, "schedule_showing", "rule_violation", "start", **args, start="2026-03-01T10:00:00Z")
    ok(ep, "cancel_showing", showing_id=first["id"])
    ok(ep, "schedule_showing", **{**args, "buyer_agent_id": third["id"]}, start=later)


def test_seeded_scheduled_showings_do_not_overlap() -> None:
    shows = LISTINGS.seeded("showings", lambda r: r["status"] == "scheduled")
    assert shows
    for a in shows:
        for b in shows:
            same = a["listing_id"] == b["listing_id"] or a["buyer_agent_id"] == b["buyer_agent_id"]
            if a["id"] < b["id"] and same:
                assert not (a["start"] < b["end"] and b["start"] < a["end"])


# -- offers ------------------------------------------------------------------------------------------


def test_offer_rules(ep: Episode) -> None:
    lst = active(ep)
    prop = ok(ep, "get_property", property_id=lst["property_id"])
    too_much = offer_args(ep, lst, earnest_money=lst["list_price"] + 1)
    refused(ep, "submit_offer", "rule_violation", "earnest_money", **too_much)
    refused(ep, "submit_offer", "rule_violation", "closing_date", **offer_args(ep, lst, closing_date="2026-03-05"))
    refused(ep, "submit_offer", "rule_violation", "contingencies", **offer_args(ep, lst, financing="cash"))
    owner = offer_args(ep, lst, buyer_email=prop["owner_email"], buyer_name=prop["owner_name"])
    refused(ep, "submit_offer", "rule_violation", "buyer_email", **owner)
    offer = ok(ep, "submit_offer", **offer_args(ep, lst, response_hours=24))
    assert offer["status"] == "submitted" and offer["currency"] == lst["currency"]
    assert offer["expires_at"] == (NOW + dt.timedelta(hours=24)).isoformat().replace("+00:00", "Z")
    refused(ep, "submit_offer", "conflict", "buyer_email", **offer_args(ep, lst))


def test_accepting_an_offer_puts_the_listing_under_contract_and_rejects_the_rest(ep: Episode) -> None:
    lst = active(ep)
    mine = ok(ep, "submit_offer", **offer_args(ep, lst))
    rival = ok(ep, "submit_offer", **offer_args(ep, lst, buyer_name="Sam Rival", buyer_email="sam.rival@inbox.io"))
    accepted = ok(ep, "accept_offer", offer_id=mine["id"])
    assert accepted["status"] == "accepted" and accepted["decided_at"] is not None
    assert ok(ep, "get_offer", offer_id=rival["id"])["status"] == "rejected"
    assert ok(ep, "get_listing", listing_id=lst["id"])["status"] == "pending"
    refused(ep, "withdraw_listing", "rule_violation", "listing_id", listing_id=lst["id"])
    refused(ep, "submit_offer", "rule_violation", "listing_id", **offer_args(ep, lst, buyer_email="late@inbox.io"))


def test_a_counter_must_be_above_the_offer_and_accepting_it_agrees_on_that_price(ep: Episode) -> None:
    lst = active(ep)
    offer = ok(ep, "submit_offer", **offer_args(ep, lst))
    refused(
        ep, "counter_offer", "rule_violation", "counter_amount", offer_id=offer["id"], counter_amount=offer["amount"]
    )
    countered = ok(ep, "counter_offer", offer_id=offer["id"], counter_amount=lst["list_price"])
    assert (countered["status"], countered["counter_amount"]) == ("countered", lst["list_price"])
    refused(ep, "accept_offer", "rule_violation", "offer_id", offer_id=offer["id"])
    agreed = ok(ep, "respond_to_counter", offer_id=offer["id"], accept=True)
    assert (agreed["status"], agreed["amount"]) == ("accepted", lst["list_price"])


def test_declining_a_counter_withdraws_the_offer(ep: Episode) -> None:
    offer = every(ep, "list_offers", status="countered")[0]
    out = ok(ep, "respond_to_counter", offer_id=offer["id"], accept=False)
    assert out["status"] == "withdrawn"
    assert ok(ep, "get_listing", listing_id=offer["listing_id"])["status"] == "active"
    refused(ep, "respond_to_counter", "rule_violation", "offer_id", offer_id=offer["id"], accept=True)


def test_an_expired_offer_cannot_be_accepted(ep: Episode) -> None:
    lst = active(ep)
    offer = ok(ep, "submit_offer", **offer_args(ep, lst, response_hours=1))
    for _ in range(61):  # every write moves the clock one minute
        ok(ep, "update_listing", listing_id=lst["id"], description=f"Remarks {_}")
    msg = refused(ep, "accept_offer", "rule_violation", "offer_id", offer_id=offer["id"])
    assert "expired" in msg


def test_withdrawing_a_listing_cancels_showings_and_rejects_open_offers(ep: Episode) -> None:
    lst = next(
        x
        for x in every(ep, "list_listings", status="active")
        if every(ep, "list_offers", listing_id=x["id"], status="submitted")
    )
    ok(ep, "withdraw_listing", listing_id=lst["id"])
    assert not [o for o in every(ep, "list_offers", listing_id=lst["id"]) if o["status"] in ("submitted", "countered")]
    assert not every(ep, "list_showings", listing_id=lst["id"], status="scheduled")


# -- closing -----------------------------------------------------------------------------------------


def test_closing_a_sale_records_the_price_and_transfers_ownership(ep: Episode) -> None:
    lst = every(ep, "list_listings", status="pending")[0]
    [won] = every(ep, "list_offers", listing_id=lst["id"], status="accepted")
    sold = ok(ep, "close_sale", listing_id=lst["id"])
    assert (sold["status"], sold["sold_price"], sold["sold_on"]) == ("sold", won["amount"], NOW.date().isoformat())
    assert sold["buyer_email"] == won["buyer_email"]
    prop = ok(ep, "get_property", property_id=lst["property_id"])
    assert (prop["owner_name"], prop["owner_email"]) == (won["buyer_name"], won["buyer_email"])
    refused(ep, "close_sale", "rule_violation", "listing_id", listing_id=lst["id"])
    refused(ep, "close_sale", "rule_violation", "listing_id", listing_id=active(ep)["id"])


def test_market_summary_computes_medians_from_the_listings() -> None:
    ep = Episode(WORLD)
    city = active(ep)["city"]
    summary = ok(ep, "market_summary", city=city)
    mine = [x for x in every(ep, "list_listings") if x["city"] == city]
    prices = sorted(x["list_price"] for x in mine if x["status"] == "active")
    assert summary["active_listings"] == len(prices)
    mid = len(prices) // 2
    median = prices[mid] if len(prices) % 2 else (prices[mid - 1] + prices[mid]) // 2
    assert summary["median_list_price"] == median
    empty = ok(ep, "market_summary", city="Reykjavik")
    assert (empty["active_listings"], empty["median_list_price"], empty["currency"]) == (0, None, None)
