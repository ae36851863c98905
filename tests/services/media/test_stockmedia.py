"""Picturebank: search, lightboxes, licensing rules against subscriptions, redownloads, renewals."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SM = ServiceTools("stockmedia")
WORLD = SM.world
ok, refused, every = SM.ok, SM.refused, SM.every
STAFF = {p.email for p in WORLD.population.employees}
ME = WORLD.population.employees[0].email


def sub(ep: Episode, **where: Any) -> dict[str, Any]:
    return every(ep, "list_subscriptions", **where)[0]


def free_image(ep: Episode, editorial: bool = False) -> dict[str, Any]:
    for a in every(ep, "list_assets", media_type="image", is_editorial=editorial):
        if not every(ep, "list_licenses", asset_id=a["id"]):
            return a
    raise AssertionError("no unlicensed image")


def test_seeded_subscriptions_and_lightboxes_belong_to_staff(ep: Episode) -> None:
    assert all(s["user_email"] in STAFF for s in every(ep, "list_subscriptions"))
    assert all(c["owner_email"] in STAFF for c in every(ep, "list_collections"))
    assert {s["status"] for s in every(ep, "list_subscriptions")} == {"active", "expired"}
    for s in every(ep, "list_subscriptions"):
        assert s["downloads_left"] <= s["allotment"]


def test_search_matches_keywords_and_filters(ep: Episode) -> None:
    found = ok(ep, "search_assets", keyword="office")
    assert found and all("office" in a["keywords"] or "office" in a["description"].lower() for a in found)
    videos = ok(ep, "search_assets", keyword="office", media_type="video")
    assert videos and {a["media_type"] for a in videos} == {"video"}
    assert all(not a["is_editorial"] for a in ok(ep, "search_assets", keyword="city", editorial=False))


def test_licensing_spends_one_download_and_gives_a_download_link(ep: Episode) -> None:
    s = sub(ep, status="active", media_type="image", tier="standard")
    asset = free_image(ep)
    lic = ok(
        ep,
        "license_asset",
        asset_id=asset["id"],
        subscription_id=s["id"],
        size="huge",
        licensee_email=ME,
        client="Homepage",
    )
    assert lic["download_url"].endswith(f"{asset['id']}-huge")
    assert ok(ep, "get_subscription", subscription_id=s["id"])["downloads_left"] == s["downloads_left"] - 1
    again = ok(ep, "redownload", license_id=lic["id"])
    assert again["downloads"] == 2
    assert ok(ep, "get_subscription", subscription_id=s["id"])["downloads_left"] == s["downloads_left"] - 1


def test_license_rules_on_media_type_size_editorial_and_tier(ep: Episode) -> None:
    s = sub(ep, status="active", media_type="image", tier="standard")
    video = sub(ep, media_type="video")
    asset = free_image(ep)
    base = {"asset_id": asset["id"], "licensee_email": ME}
    refused(ep, "license_asset", "rule_violation", "subscription_id", subscription_id=video["id"], size="hd", **base)
    refused(ep, "license_asset", "rule_violation", "size", subscription_id=s["id"], size="4k", **base)
    refused(
        ep,
        "license_asset",
        "rule_violation",
        "license_type",
        subscription_id=s["id"],
        size="small",
        license_type="enhanced",
        **base,
    )
    refused(
        ep,
        "license_asset",
        "rule_violation",
        "license_type",
        subscription_id=s["id"],
        size="small",
        license_type="editorial",
        **base,
    )
    refused(
        ep,
        "license_asset",
        "rule_violation",
        "licensee_email",
        subscription_id=s["id"],
        size="small",
        **(base | {"licensee_email": "x@agency.io"}),
    )
    news = free_image(ep, editorial=True)
    refused(
        ep,
        "license_asset",
        "rule_violation",
        "license_type",
        asset_id=news["id"],
        subscription_id=s["id"],
        size="small",
        licensee_email=ME,
    )
    ok(
        ep,
        "license_asset",
        asset_id=news["id"],
        subscription_id=s["id"],
        size="small",
        licensee_email=ME,
        license_type="editorial",
    )


def test_enhanced_subscription_requires_a_purchase_order(ep: Episode) -> None:
    s = sub(ep, tier="enhanced")
    asset = free_image(ep)
    args = {
        "asset_id": asset["id"],
        "subscription_id": s["id"],
        "size": "medium",
        "licensee_email": ME,
        "license_type": "enhanced",
    }
    refused(ep, "license_asset", "rule_violation", "purchase_order", **args)
    lic = ok(ep, "license_asset", purchase_order="PO-9001", **args)
    assert every(ep, "list_licenses", purchase_order="PO-9001")[0]["id"] == lic["id"]


def test_expired_or_cancelled_subscriptions_license_nothing_until_renewed(ep: Episode) -> None:
    old = sub(ep, status="expired")
    asset = free_image(ep)
    args = {"asset_id": asset["id"], "size": "small", "licensee_email": ME}
    refused(ep, "license_asset", "rule_violation", "subscription_id", subscription_id=old["id"], **args)
    renewed = ok(ep, "renew_subscription", subscription_id=old["id"])
    assert (renewed["status"], renewed["downloads_left"]) == ("active", old["allotment"])
    refused(ep, "renew_subscription", "rule_violation", "subscription_id", subscription_id=old["id"])
    ok(ep, "license_asset", subscription_id=old["id"], **args)
    ok(ep, "cancel_subscription", subscription_id=old["id"])
    refused(
        ep,
        "license_asset",
        "rule_violation",
        "subscription_id",
        subscription_id=old["id"],
        **(args | {"asset_id": free_image(ep)["id"]}),
    )


def test_an_empty_subscription_refuses_more_licenses(ep: Episode) -> None:
    video = sub(ep, media_type="video")
    clips = [a for a in every(ep, "list_assets", media_type="video", is_editorial=False)]
    for _ in range(video["downloads_left"]):
        ok(ep, "license_asset", asset_id=clips[0]["id"], subscription_id=video["id"], size="hd", licensee_email=ME)
    refused(
        ep,
        "license_asset",
        "rule_violation",
        "subscription_id",
        asset_id=clips[0]["id"],
        subscription_id=video["id"],
        size="hd",
        licensee_email=ME,
    )
    usage = ok(ep, "subscription_usage", subscription_id=video["id"])
    assert (usage["downloads_left"], usage["used"]) == (0, video["allotment"])
    assert sum(usage["by_licensee"].values()) == len(every(ep, "list_licenses", subscription_id=video["id"]))


def test_lightboxes_are_kept_by_staff_and_hold_an_asset_once(ep: Episode) -> None:
    refused(ep, "create_collection", "rule_violation", "owner_email", name="Mine", owner_email="x@agency.io")
    box = ok(ep, "create_collection", name="Mood board", owner_email=ME)
    asset = every(ep, "list_assets")[0]
    ok(ep, "add_to_collection", collection_id=box["id"], asset_id=asset["id"])
    refused(ep, "add_to_collection", "conflict", "asset_id", collection_id=box["id"], asset_id=asset["id"])
    ok(ep, "archive_collection", collection_id=box["id"])
    refused(
        ep,
        "add_to_collection",
        "rule_violation",
        "collection_id",
        collection_id=box["id"],
        asset_id=every(ep, "list_assets")[1]["id"],
    )
    ok(ep, "delete_collection", collection_id=box["id"])
    assert all(i["collection_id"] != box["id"] for i in every(ep, "list_collection_items"))
