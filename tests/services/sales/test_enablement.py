"""Pitchcraft: publishing with owners and expiry, spots freezing, plays, pitches to buyers, views, requests."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EN = ServiceTools("enablement")
WORLD = EN.world
ok, refused, every = EN.ok, EN.refused, EN.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
REP = POP.employees[0].email
BUYER = POP.contacts[0]


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def item(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_items", status=status)[0]


def pitch_args(**over: Any) -> dict[str, Any]:
    company = POP.company_of(BUYER)
    assert company is not None
    return {
        "sent_by": REP,
        "recipient_email": BUYER.email,
        "recipient_name": BUYER.name,
        "company_name": company.name,
        "subject": "Deck from today",
    } | over


def test_seeded_content_is_owned_by_staff_and_pitched_to_world_contacts(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    contacts = {p.email for p in POP.contacts}
    assert {i["owner_email"] for i in every(ep, "list_items")} <= staff
    for p in every(ep, "list_pitches"):
        assert p["recipient_email"] in contacts and p["sent_by"] in staff
    for i in every(ep, "list_items", status="published"):
        assert i["expires_on"] >= TODAY.isoformat()


def test_only_the_owner_publishes_and_only_with_an_expiry_ahead(ep: Episode) -> None:
    draft = item(ep, "draft")
    other = next(p.email for p in POP.employees if p.email != draft["owner_email"])
    refused(ep, "publish_item", "rule_violation", "approved_by", item_id=draft["id"], approved_by=other)
    fresh = ok(
        ep,
        "create_item",
        spot_id=draft["spot_id"],
        title="New deck",
        kind="deck",
        file_link="https://files.example.com/new.pdf",
        owner_email=REP,
    )
    refused(ep, "publish_item", "rule_violation", "item_id", item_id=fresh["id"], approved_by=REP)
    ok(ep, "renew_item", item_id=fresh["id"], expires_on=day(90))
    assert ok(ep, "publish_item", item_id=fresh["id"], approved_by=REP)["status"] == "published"
    assert ok(ep, "publish_item", item_id=draft["id"], approved_by=draft["owner_email"])["status"] == "published"


def test_renewing_brings_expired_content_back_as_a_new_version(ep: Episode) -> None:
    old = item(ep, "expired")
    refused(ep, "renew_item", "rule_violation", "expires_on", item_id=old["id"], expires_on=day(800))
    new = ok(ep, "renew_item", item_id=old["id"], expires_on=day(120))
    assert (new["status"], new["version"], new["expires_on"]) == ("published", old["version"] + 1, day(120))


def test_an_archived_spot_freezes_its_content(ep: Episode) -> None:
    i = item(ep, "published")
    ok(ep, "archive_spot", spot_id=i["spot_id"])
    refused(
        ep,
        "create_item",
        "rule_violation",
        "spot_id",
        spot_id=i["spot_id"],
        title="X",
        kind="deck",
        file_link="https://files.example.com/x.pdf",
        owner_email=REP,
    )
    refused(ep, "update_item", "rule_violation", "item_id", item_id=i["id"], title="Renamed")
    ok(ep, "unarchive_spot", spot_id=i["spot_id"])
    assert ok(ep, "update_item", item_id=i["id"], title="Renamed")["title"] == "Renamed"


def test_pitches_send_live_content_to_buyers_only(ep: Episode) -> None:
    live, expired = item(ep, "published"), item(ep, "expired")
    refused(ep, "send_pitch", "rule_violation", "item_ids", **pitch_args(item_ids=[expired["id"]]))
    refused(
        ep,
        "send_pitch",
        "rule_violation",
        "recipient_email",
        **pitch_args(item_ids=[live["id"]], recipient_email=POP.employees[1].email),
    )
    refused(ep, "send_pitch", "rule_violation", "sent_by", **pitch_args(item_ids=[live["id"]], sent_by=BUYER.email))
    made = ok(ep, "send_pitch", **pitch_args(item_ids=[live["id"]]))
    assert made["views"] == 0 and made["item_ids"] == [live["id"]]


def test_buyer_views_count_on_the_pitch_and_the_item(ep: Episode) -> None:
    live = item(ep, "published")
    other = every(ep, "list_items", status="published")[1]
    made = ok(ep, "send_pitch", **pitch_args(item_ids=[live["id"]]))
    before = ok(ep, "item_engagement", item_id=live["id"])
    seen = ok(ep, "record_view", pitch_id=made["id"], item_id=live["id"], seconds=40)
    assert (seen["views"], seen["seconds_viewed"]) == (1, 40) and seen["last_viewed_at"]
    assert ok(ep, "item_engagement", item_id=live["id"])["views"] == before["views"] + 1
    refused(ep, "record_view", "rule_violation", "item_id", pitch_id=made["id"], item_id=other["id"], seconds=5)


def test_a_play_publishes_only_with_live_content(ep: Episode) -> None:
    stale = next(
        p
        for p in every(ep, "list_plays", status="draft")
        if any(ok(ep, "get_item", item_id=i)["status"] != "published" for i in p["item_ids"])
    )
    refused(ep, "publish_play", "rule_violation", "play_id", play_id=stale["id"])
    for i in stale["item_ids"]:
        if ok(ep, "get_item", item_id=i)["status"] == "expired":
            ok(ep, "renew_item", item_id=i, expires_on=day(60))
    assert ok(ep, "publish_play", play_id=stale["id"])["status"] == "published"
    refused(
        ep,
        "create_play",
        "rule_violation",
        "item_ids",
        name="Dup",
        audience="sdr",
        owner_email=REP,
        item_ids=[stale["item_ids"][0], stale["item_ids"][0]],
    )


def test_content_requests_are_started_then_fulfilled_with_the_right_kind(ep: Episode) -> None:
    req = every(ep, "list_content_requests", status="open")[0]
    wrong = next(i for i in every(ep, "list_items") if i["kind"] != req["kind"])
    right = next(i for i in every(ep, "list_items") if i["kind"] == req["kind"])
    refused(
        ep, "fulfil_request", "rule_violation", "content_request_id", content_request_id=req["id"], item_id=right["id"]
    )
    ok(ep, "start_content_request", content_request_id=req["id"])
    refused(ep, "fulfil_request", "rule_violation", "item_id", content_request_id=req["id"], item_id=wrong["id"])
    done = ok(ep, "fulfil_request", content_request_id=req["id"], item_id=right["id"])
    assert (done["status"], done["item_id"]) == ("fulfilled", right["id"])
    refused(
        ep,
        "create_content_request",
        "rule_violation",
        "due_date",
        title="Late",
        kind="deck",
        requested_by=REP,
        due_date=day(-1),
    )
