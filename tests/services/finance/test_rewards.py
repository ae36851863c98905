"""Kudoscard Rewards: funding, denominations, approvals by another employee, fraud review, cancel and resend."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

RW = ServiceTools("rewards")
WORLD = RW.world
ok, refused, every = RW.ok, RW.refused, RW.every
POP = WORLD.population
STAFF = [p.email for p in POP.employees]
ME = STAFF[0]


def campaign(ep: Episode, name: str) -> dict[str, Any]:
    return next(c for c in every(ep, "list_campaigns") if c["name"] == name)


def balance_source(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_funding_sources", method="balance")[0]


def person(n: int, email: str | None = None, country: str = "US") -> dict[str, str]:
    p = POP.consumers[n]
    return {"name": p.name, "email": email or p.email, "country": country}


def order(ep: Episode, camp: str, value: int, people: list[dict[str, str]], **kw: Any) -> dict[str, Any]:
    src = kw.pop("funding_source_id", balance_source(ep)["id"])
    made: dict[str, Any] = ok(
        ep,
        "create_order",
        campaign_id=campaign(ep, camp)["id"],
        funding_source_id=src,
        value=value,
        recipients=people,
        requested_by=ME,
        **kw,
    )
    return made


def test_seeded_orders_add_up_and_flagged_rewards_are_under_review(ep: Episode) -> None:
    assert {c["owner_email"] for c in every(ep, "list_campaigns")} <= set(STAFF)
    for o in every(ep, "list_orders"):
        assert len(every(ep, "list_rewards", order_id=o["id"])) == o["reward_count"]
        assert o["total"] % o["reward_count"] == 0 and o["total"] // o["reward_count"] >= o["value"]
    for r in every(ep, "list_rewards", status="FLAGGED"):
        assert [v["status"] for v in every(ep, "list_fraud_reviews", reward_id=r["id"])] == ["flagged"]
    consumers = {p.email for p in POP.consumers}
    research = campaign(ep, "Customer research incentive")["id"]
    for o in every(ep, "list_orders", campaign_id=research):
        assert {r["recipient_email"] for r in every(ep, "list_rewards", order_id=o["id"])} <= consumers


def test_an_order_is_paid_from_the_balance_with_fees_and_delivered(ep: Episode) -> None:
    before = balance_source(ep)["balance"]
    made = order(ep, "Customer research incentive", 4000, [person(20), person(21)], delivery_method="LINK")
    assert (made["status"], made["total"]) == ("EXECUTED", 2 * round(4000 * 1.02))
    assert balance_source(ep)["balance"] == before - made["total"]
    for r in every(ep, "list_rewards", order_id=made["id"]):
        assert r["status"] == "DELIVERED" and r["link"] and r["deliveries"] == 1


def test_orders_need_approval_by_someone_else(ep: Episode) -> None:
    made = order(ep, "Spot bonus", 5000, [{"name": POP.employees[4].name, "email": STAFF[4]}])
    assert made["status"] == "PENDING_APPROVAL"
    assert every(ep, "list_rewards", order_id=made["id"])[0]["status"] == "PENDING_APPROVAL"
    refused(ep, "approve_order", "rule_violation", "approver_email", order_id=made["id"], approver_email=ME)
    refused(ep, "approve_order", "rule_violation", "approver_email", order_id=made["id"], approver_email="x@y.io")
    done = ok(ep, "approve_order", order_id=made["id"], approver_email=STAFF[2])
    assert (done["status"], done["approver_email"]) == ("EXECUTED", STAFF[2])
    assert every(ep, "list_rewards", order_id=made["id"])[0]["status"] == "DELIVERED"
    refused(ep, "reject_order", "conflict", "order_id", order_id=made["id"], approver_email=STAFF[2])


def test_large_orders_wait_and_a_rejection_refunds_them(ep: Episode) -> None:
    before = balance_source(ep)["balance"]
    made = order(ep, "Referral thank-you", 25000, [person(30), person(31)])
    assert (made["status"], made["total"]) == ("PENDING_APPROVAL", 50000)
    assert balance_source(ep)["balance"] == before - 50000
    assert ok(ep, "reject_order", order_id=made["id"], approver_email=STAFF[3])["status"] == "REJECTED"
    assert balance_source(ep)["balance"] == before
    assert {r["status"] for r in every(ep, "list_rewards", order_id=made["id"])} == {"CANCELED"}


def test_funding_sources_must_cover_the_order(ep: Episode) -> None:
    src = balance_source(ep)
    cards = every(ep, "list_funding_sources", method="credit_card")
    live = next(c for c in cards if c["status"] == "active")
    dead = next(c for c in cards if c["status"] == "disabled")
    camp = campaign(ep, "Referral thank-you")["id"]
    args = {"campaign_id": camp, "recipients": [person(40)] * 3, "requested_by": ME}
    refused(
        ep, "create_order", "rule_violation", "funding_source_id", funding_source_id=live["id"], value=90000, **args
    )
    refused(ep, "create_order", "rule_violation", "funding_source_id", funding_source_id=dead["id"], value=1000, **args)
    huge = {"recipients": [person(40 + k) for k in range(14)]}
    refused(
        ep,
        "create_order",
        "rule_violation",
        "funding_source_id",
        funding_source_id=src["id"],
        value=100000,
        **(args | huge),
    )
    topped = ok(ep, "create_topup", funding_source_id=src["id"], amount=200000)
    assert topped["balance"] == src["balance"] + 200000
    refused(ep, "create_topup", "rule_violation", "funding_source_id", funding_source_id=live["id"], amount=200000)


def test_values_countries_and_references_are_checked(ep: Episode) -> None:
    refused(
        ep,
        "create_order",
        "rule_violation",
        "value",
        campaign_id=campaign(ep, "Spot bonus")["id"],
        funding_source_id=balance_source(ep)["id"],
        value=300,
        recipients=[person(1)],
        requested_by=ME,
    )
    camp = campaign(ep, "Referral thank-you")["id"]
    args = {"campaign_id": camp, "funding_source_id": balance_source(ep)["id"], "value": 1000, "requested_by": ME}
    refused(ep, "create_order", "rule_violation", "recipients", recipients=[person(2, country="DE")], **args)
    ok(ep, "create_order", recipients=[person(2)], external_id="ref-1", **args)
    refused(ep, "create_order", "conflict", "external_id", recipients=[person(3)], external_id="ref-1", **args)


def test_disposable_emails_are_held_for_review_and_blocking_refunds(ep: Episode) -> None:
    before = balance_source(ep)["balance"]
    made = order(ep, "Referral thank-you", 2000, [person(50, "promo@mailinator.com"), person(51)])
    rewards = {r["recipient_email"]: r for r in every(ep, "list_rewards", order_id=made["id"])}
    held = rewards["promo@mailinator.com"]
    assert held["status"] == "FLAGGED" and rewards[POP.consumers[51].email]["status"] == "DELIVERED"
    review = every(ep, "list_fraud_reviews", reward_id=held["id"])[0]
    assert review["reasons"] == ["disposable_email"]
    blocked = ok(ep, "block_fraud_review", fraud_review_id=review["id"], reviewed_by=STAFF[1])
    assert (blocked["status"], blocked["reviewed_by"]) == ("blocked", STAFF[1])
    assert ok(ep, "get_reward", reward_id=held["id"])["status"] == "CANCELED"
    assert balance_source(ep)["balance"] == before - 2000
    refused(ep, "release_fraud_review", "conflict", "fraud_review_id", fraud_review_id=review["id"], reviewed_by=ME)


def test_a_third_reward_within_30_days_is_reviewed_and_can_be_released(ep: Episode) -> None:
    review = every(ep, "list_fraud_reviews", status="flagged")[0]
    repeat = ok(ep, "get_reward", reward_id=review["reward_id"])
    p = next(c for c in POP.consumers if c.email == repeat["recipient_email"])
    made = order(ep, "Referral thank-you", 1000, [{"name": p.name, "email": p.email, "country": "US"}])
    new = every(ep, "list_rewards", order_id=made["id"])[0]
    assert new["status"] == "FLAGGED"
    assert every(ep, "list_fraud_reviews", reward_id=new["id"])[0]["reasons"] == ["reward_velocity"]
    released = ok(ep, "release_fraud_review", fraud_review_id=review["id"], reviewed_by=STAFF[1])
    assert released["status"] == "released"
    assert ok(ep, "get_reward", reward_id=repeat["id"])["status"] == "DELIVERED"


def test_redeemed_rewards_cannot_be_canceled_or_resent(ep: Episode) -> None:
    redeemed = every(ep, "list_rewards", status="REDEEMED")[0]
    refused(ep, "cancel_reward", "rule_violation", "reward_id", reward_id=redeemed["id"])
    refused(ep, "resend_reward", "rule_violation", "reward_id", reward_id=redeemed["id"])
    failed = every(ep, "list_rewards", status="FAILED")[0]
    again = ok(ep, "resend_reward", reward_id=failed["id"], recipient_email="fixed@example.org")
    assert (again["status"], again["recipient_email"], again["deliveries"]) == ("DELIVERED", "fixed@example.org", 2)
    before = balance_source(ep)["balance"]
    o = ok(ep, "get_order", order_id=again["order_id"])
    assert ok(ep, "cancel_reward", reward_id=again["id"])["status"] == "CANCELED"
    assert balance_source(ep)["balance"] == before + o["total"] // o["reward_count"]


def test_campaigns_offer_available_products_and_keep_pending_orders(ep: Episode) -> None:
    gone = every(ep, "list_products", available=False)[0]
    refused(
        ep, "create_campaign", "rule_violation", "product_ids", name="Cash", product_ids=[gone["id"]], owner_email=ME
    )
    refused(
        ep,
        "create_campaign",
        "rule_violation",
        "owner_email",
        name="Cash",
        product_ids=[every(ep, "list_products")[0]["id"]],
        owner_email="x@y.io",
    )
    pending = every(ep, "list_orders", status="PENDING_APPROVAL")[0]
    refused(ep, "delete_campaign", "conflict", "campaign_id", campaign_id=pending["campaign_id"])
