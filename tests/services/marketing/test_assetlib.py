"""Canvas DAM: metaproperties, the approval workflow, usage rights, download requests, collections, guidelines."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DAM = ServiceTools("assetlib")
WORLD = DAM.world
ok, refused, every = DAM.ok, DAM.refused, DAM.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
AGENCY = POP.contacts[5].email


def asset(ep: Episode, name: str) -> dict[str, Any]:
    return next(a for a in every(ep, "list_assets") if a["name"] == name)


def other_staff(email: str) -> str:
    return next(p.email for p in POP.employees if p.email != email)


def test_seeded_assets_are_staff_uploads_reviewed_by_someone_else(ep: Episode) -> None:
    items = every(ep, "list_assets")
    assert {a["status"] for a in items} == {"draft", "in_review", "approved", "rejected", "archived"}
    for a in items:
        assert a["uploaded_by"] in STAFF
        if a["reviewer_email"] is not None:
            assert a["reviewer_email"] != a["uploaded_by"] and a["reviewer_email"] in STAFF


def test_submission_needs_required_metaproperties_with_valid_options(ep: Episode) -> None:
    draft = asset(ep, "Event banner draft")
    refused(ep, "submit_for_review", "rule_violation", "asset_id", asset_id=draft["id"])
    refused(ep, "set_metaproperty", "rule_violation", "value", asset_id=draft["id"], key="brand", value="Other Co")
    refused(ep, "set_metaproperty", "rule_violation", "key", asset_id=draft["id"], key="nope", value="x")
    ok(ep, "set_metaproperty", asset_id=draft["id"], key="brand", value=POP.home.name)
    assert ok(ep, "submit_for_review", asset_id=draft["id"])["status"] == "in_review"
    refused(ep, "submit_for_review", "conflict", "asset_id", asset_id=draft["id"])


def test_reviewers_are_other_employees_and_rejections_need_a_comment(ep: Episode) -> None:
    a = every(ep, "list_assets", status="in_review")[0]
    refused(ep, "approve_asset", "rule_violation", "reviewer_email", asset_id=a["id"], reviewer_email=a["uploaded_by"])
    refused(ep, "approve_asset", "rule_violation", "reviewer_email", asset_id=a["id"], reviewer_email=AGENCY)
    who = other_staff(a["uploaded_by"])
    refused(ep, "reject_asset", "rule_violation", "comment", asset_id=a["id"], reviewer_email=who, comment=" ")
    rejected = ok(ep, "reject_asset", asset_id=a["id"], reviewer_email=who, comment="Crop tighter")
    assert (rejected["status"], rejected["review_comment"]) == ("rejected", "Crop tighter")
    assert ok(ep, "submit_for_review", asset_id=a["id"])["status"] == "in_review"
    done = ok(ep, "approve_asset", asset_id=a["id"], reviewer_email=who)
    assert (done["status"], done["reviewer_email"]) == ("approved", who)
    refused(ep, "approve_asset", "conflict", "asset_id", asset_id=a["id"], reviewer_email=who)


def test_usage_checks_follow_channels_territories_and_expiry(ep: Episode) -> None:
    stock = asset(ep, "Stock: city skyline")
    assert ok(ep, "check_usage", asset_id=stock["id"], channel="web", country="US")["allowed"]
    assert not ok(ep, "check_usage", asset_id=stock["id"], channel="web", country="DE")["allowed"]
    assert not ok(ep, "check_usage", asset_id=stock["id"], channel="print", country="US")["allowed"]
    assert not ok(ep, "check_usage", asset_id=asset(ep, "Brand film 2026")["id"], channel="web", country="US")[
        "allowed"
    ]
    right = every(ep, "list_usage_rights", asset_id=stock["id"], status="active")
    live = next(r for r in right if r["channels"] == ["web"])
    ok(ep, "revoke_usage_right", usage_right_id=live["id"])
    assert not ok(ep, "check_usage", asset_id=stock["id"], channel="web", country="US")["allowed"]


def test_rights_managed_licences_must_expire_after_they_start(ep: Episode) -> None:
    a = asset(ep, "Product hero shot")
    base = {
        "asset_id": a["id"],
        "licensor": "Getty Images",
        "channels": ["out_of_home"],
        "starts_on": TODAY.isoformat(),
    }
    refused(ep, "add_usage_right", "rule_violation", "expires_on", license_type="rights_managed", **base)
    refused(ep, "add_usage_right", "rule_violation", "expires_on", expires_on=TODAY.isoformat(), **base)
    later = (TODAY + dt.timedelta(days=90)).isoformat()
    ok(ep, "add_usage_right", license_type="rights_managed", expires_on=later, territories=["GB"], **base)
    assert ok(ep, "check_usage", asset_id=a["id"], channel="out_of_home", country="GB")["allowed"]
    refused(ep, "add_usage_right", "conflict", "asset_id", **(base | {"asset_id": asset(ep, "Old logo 2019")["id"]}))


def test_downloads_are_instant_for_staff_and_pending_for_agencies(ep: Episode) -> None:
    logo = asset(ep, "Primary logo")
    mine = ok(
        ep, "request_download", asset_id=logo["id"], requester_email=POP.employees[3].email, channel="web", country="FR"
    )
    assert mine["status"] == "approved"
    theirs = ok(ep, "request_download", asset_id=logo["id"], requester_email=AGENCY, channel="print", country="FR")
    assert (theirs["status"], theirs["decided_by"]) == ("pending", None)
    refused(ep, "decide_download", "rule_violation", "decided_by", download_request_id=theirs["id"], decided_by=AGENCY)
    done = ok(ep, "decide_download", download_request_id=theirs["id"], decided_by=POP.employees[0].email)
    assert done["status"] == "approved"
    refused(
        ep,
        "decide_download",
        "conflict",
        "download_request_id",
        download_request_id=theirs["id"],
        decided_by=POP.employees[0].email,
    )
    refused(
        ep,
        "request_download",
        "rule_violation",
        "channel",
        asset_id=logo["id"],
        requester_email=AGENCY,
        channel="broadcast",
        country="FR",
    )
    draft = asset(ep, "Event banner draft")
    refused(
        ep,
        "request_download",
        "rule_violation",
        "asset_id",
        asset_id=draft["id"],
        requester_email=AGENCY,
        channel="web",
        country="US",
    )


def test_collections_belong_to_staff_and_refuse_archived_assets(ep: Episode) -> None:
    refused(ep, "create_collection", "rule_violation", "owner_email", name="Agency picks", owner_email=AGENCY)
    owner = POP.employees[1].email
    c = ok(ep, "create_collection", name="Q3 launch", owner_email=owner)
    refused(
        ep,
        "add_to_collection",
        "rule_violation",
        "asset_id",
        collection_id=c["id"],
        asset_id=asset(ep, "Old logo 2019")["id"],
    )
    logo = asset(ep, "Primary logo")["id"]
    assert ok(ep, "add_to_collection", collection_id=c["id"], asset_id=logo)["asset_ids"] == [logo]
    refused(ep, "add_to_collection", "conflict", "asset_id", collection_id=c["id"], asset_id=logo)
    refused(ep, "share_collection", "rule_violation", "emails", collection_id=c["id"], emails=[owner])
    assert ok(ep, "share_collection", collection_id=c["id"], emails=[AGENCY, AGENCY])["shared_with"] == [AGENCY]


def test_editing_a_published_guideline_unpublishes_it_until_republished(ep: Episode) -> None:
    page = every(ep, "list_guidelines", published=True)[0]
    refused(ep, "publish_guideline", "conflict", "guideline_id", guideline_id=page["id"])
    edited = ok(ep, "update_guideline", guideline_id=page["id"], body="New clear-space rule.")
    assert edited["published"] is False
    again = ok(ep, "publish_guideline", guideline_id=page["id"])
    assert (again["published"], again["version"]) == (True, page["version"] + 1)
    fresh = every(ep, "list_guidelines", published=False)[0]
    assert (fresh["version"], ok(ep, "publish_guideline", guideline_id=fresh["id"])["version"]) == (0, 1)
