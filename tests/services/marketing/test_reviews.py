"""Starline Reviews: invitations and verification, one review a year, one reply per review, reporting, trust score."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.commerce import first_order_numbers
from tests.services.helpers import ServiceTools

REVIEWS = ServiceTools("reviews")
WORLD = REVIEWS.world
ok, refused, every = REVIEWS.ok, REVIEWS.refused, REVIEWS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = POP.employees[0].email


def unit(ep: Episode, claimed: bool = True) -> dict[str, Any]:
    return every(ep, "list_business_units", is_claimed=claimed)[0]


def review_args(inv: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "business_unit_id": inv["business_unit_id"],
        "consumer_email": inv["consumer_email"],
        "consumer_name": inv["consumer_name"],
        "stars": 4,
        "title": "Good service",
        "text": "Arrived on time.",
        "experienced_on": TODAY.isoformat(),
    } | extra


def open_invitation(ep: Episode) -> dict[str, Any]:
    now = WORLD.epoch.isoformat().replace("+00:00", "Z")
    return next(i for i in every(ep, "list_invitations", used=False) if i["expires_at"] > now)


def test_reviewers_are_the_populations_consumers_and_verified_reviews_came_from_invitations() -> None:
    ep = Episode(WORLD)
    orders = first_order_numbers(POP)
    people = {p.email: p.name for p in POP.consumers}
    for r in every(ep, "list_reviews"):
        assert people[r["consumer_email"]] == r["consumer_name"]
        assert r["is_verified"] == (r["invitation_id"] is not None)
        if r["is_verified"]:
            assert r["reference_id"] == orders[r["consumer_email"]]
    for inv in every(ep, "list_invitations", used=True):
        assert any(r["id"] == inv["review_id"] for r in every(ep, "list_reviews", consumer_email=inv["consumer_email"]))


def test_the_trust_score_averages_the_visible_reviews(ep: Episode) -> None:
    main = unit(ep)
    shown = [r for r in every(ep, "list_reviews", business_unit_id=main["id"]) if r["status"] != "removed"]
    summary = ok(ep, "get_business_summary", business_unit_id=main["id"])
    assert summary["number_of_reviews"] == len(shown)
    assert summary["trust_score"] == round(sum(r["stars"] for r in shown) / len(shown), 1)
    assert [d["count"] for d in summary["distribution"]] == [sum(r["stars"] == k for r in shown) for k in range(1, 6)]
    assert summary["unanswered"] == sum(r["reply"] is None for r in shown)


def test_an_invitation_gives_one_verified_review(ep: Episode) -> None:
    inv = open_invitation(ep)
    review = ok(ep, "submit_review", invitation_id=inv["id"], **review_args(inv))
    assert (review["is_verified"], review["reference_id"]) == (True, inv["reference_id"])
    refused(ep, "submit_review", "conflict", "invitation_id", invitation_id=inv["id"], **review_args(inv))
    other = open_invitation(ep)
    refused(
        ep,
        "submit_review",
        "rule_violation",
        "invitation_id",
        invitation_id=other["id"],
        **review_args(inv),
    )
    now = WORLD.epoch.isoformat().replace("+00:00", "Z")
    stale = next(i for i in every(ep, "list_invitations", used=False) if i["expires_at"] < now)
    refused(ep, "submit_review", "rule_violation", "invitation_id", invitation_id=stale["id"], **review_args(stale))


def test_without_an_invitation_a_consumer_reviews_once_a_year(ep: Episode) -> None:
    organic = every(ep, "list_reviews", is_verified=False, status="published")[0]
    args = {
        "business_unit_id": organic["business_unit_id"],
        "consumer_email": organic["consumer_email"],
        "consumer_name": organic["consumer_name"],
        "stars": 2,
        "title": "Again",
        "text": "Still waiting.",
        "experienced_on": TODAY.isoformat(),
    }
    refused(ep, "submit_review", "rule_violation", "consumer_email", **args)
    inv = ok(
        ep,
        "create_invitation_link",
        business_unit_id=organic["business_unit_id"],
        consumer_email=organic["consumer_email"],
        consumer_name=organic["consumer_name"],
        reference_id="#7001",
    )
    assert dt.datetime.fromisoformat(inv["expires_at"]) - WORLD.epoch == dt.timedelta(days=30)
    assert ok(ep, "submit_review", invitation_id=inv["id"], **args)["is_verified"]
    future = (TODAY + dt.timedelta(days=1)).isoformat()
    refused(ep, "submit_review", "rule_violation", "experienced_on", **(args | {"experienced_on": future}))
    old = (TODAY - dt.timedelta(days=400)).isoformat()
    refused(ep, "submit_review", "rule_violation", "experienced_on", **(args | {"experienced_on": old}))


def test_an_order_is_invited_once_and_only_claimed_profiles_invite(ep: Episode) -> None:
    used = every(ep, "list_invitations")[0]
    person = POP.consumers[-1]
    args = {"consumer_email": person.email, "consumer_name": person.name}
    refused(
        ep,
        "create_invitation_link",
        "conflict",
        "reference_id",
        business_unit_id=used["business_unit_id"],
        reference_id=used["reference_id"],
        **args,
    )
    refused(
        ep,
        "create_invitation_link",
        "rule_violation",
        "business_unit_id",
        business_unit_id=unit(ep, claimed=False)["id"],
        reference_id="#7002",
        **args,
    )
    link = ok(ep, "create_invitation_link", business_unit_id=used["business_unit_id"], reference_id="#7002", **args)
    assert link["url"].startswith("https://") and not link["used"]


def test_the_company_replies_once_and_can_edit_or_delete_its_reply(ep: Episode) -> None:
    answered = next(r for r in every(ep, "list_reviews", status="published") if r["reply"])
    refused(
        ep, "reply_to_review", "conflict", "review_id", review_id=answered["id"], text="Thanks!", author_email=STAFF
    )
    edited = ok(ep, "update_reply", review_id=answered["id"], text="Thanks, and welcome back!")
    assert edited["reply"]["text"] == "Thanks, and welcome back!"
    assert edited["reply"]["created_at"] == answered["reply"]["created_at"]
    assert ok(ep, "delete_reply", review_id=answered["id"])["reply"] is None
    refused(ep, "update_reply", "rule_violation", "review_id", review_id=answered["id"], text="Hi")
    again = ok(ep, "reply_to_review", review_id=answered["id"], text="Thank you!", author_email=STAFF)
    assert again["reply"]["author_email"] == STAFF
    removed = every(ep, "list_reviews", status="removed")[0]
    refused(
        ep, "reply_to_review", "rule_violation", "review_id", review_id=removed["id"], text="Hi", author_email=STAFF
    )


def test_reviews_of_unclaimed_profiles_take_no_company_reply(ep: Episode) -> None:
    rival = unit(ep, claimed=False)
    person = POP.consumers[-2]
    review = ok(
        ep,
        "submit_review",
        business_unit_id=rival["id"],
        consumer_email=person.email,
        consumer_name=person.name,
        stars=3,
        title="Okay",
        text="Average.",
        experienced_on=TODAY.isoformat(),
    )
    refused(ep, "reply_to_review", "rule_violation", "review_id", review_id=review["id"], text="Hi", author_email=STAFF)


def test_reported_reviews_stay_visible_until_moderation_removes_them(ep: Episode) -> None:
    main = unit(ep)
    verified = every(ep, "list_reviews", business_unit_id=main["id"], is_verified=True, status="published")[0]
    args = {"reported_by_email": STAFF}
    refused(
        ep,
        "flag_review",
        "rule_violation",
        "reason",
        review_id=verified["id"],
        reason="not_based_on_genuine_experience",
        **args,
    )
    before = ok(ep, "get_business_summary", business_unit_id=main["id"])
    flagged = ok(ep, "flag_review", review_id=verified["id"], reason="personal_information", **args)
    assert flagged["status"] == "under_moderation"
    assert (
        ok(ep, "get_business_summary", business_unit_id=main["id"])["number_of_reviews"] == before["number_of_reviews"]
    )
    refused(ep, "flag_review", "conflict", "review_id", review_id=verified["id"], reason="other", **args)
    ok(ep, "resolve_flag", review_id=verified["id"], decision="remove")
    after = ok(ep, "get_business_summary", business_unit_id=main["id"])
    assert after["number_of_reviews"] == before["number_of_reviews"] - 1
    refused(ep, "resolve_flag", "rule_violation", "review_id", review_id=verified["id"], decision="reinstate")
    spam = every(ep, "list_reviews", status="under_moderation")[0]
    back = ok(ep, "resolve_flag", review_id=spam["id"], decision="reinstate")
    assert (back["status"], back["flag_reason"]) == ("published", None)
