"""Kinship Referrals: enrollment, fraud checks on referred purchases, reward caps, refunds and voids."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

REF = ServiceTools("referrals")
WORLD = REF.world
ok, refused, every = REF.ok, REF.refused, REF.every
POP = WORLD.population
CONSUMERS = {p.email: p for p in POP.consumers}


def live(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_campaigns", status="live")[0]


def advocate(ep: Episode, status: str = "active") -> dict[str, Any]:
    return every(ep, "list_advocates", status=status)[-1]


def track(ep: Episode, adv: dict[str, Any], order: str, email: str, **kw: Any) -> dict[str, Any]:
    args = {"referral_code": adv["referral_code"], "order_number": order, "customer_email": email}
    made: dict[str, Any] = ok(ep, "track_purchase", **(args | {"amount_cents": 9000} | kw))
    return made


def test_seeded_advocates_and_friends_are_the_worlds_customers(ep: Episode) -> None:
    for a in every(ep, "list_advocates"):
        assert CONSUMERS[a["email"]].name == a["name"]
        assert a["referral_code"].lower() in a["share_url"]
    for p in every(ep, "list_purchases"):
        assert p["customer_email"] in CONSUMERS
        rewards = every(ep, "list_rewards", purchase_id=p["id"])
        assert (len(rewards) == 2) == (p["status"] in ("approved", "refunded"))
    assert {r["status"] for r in every(ep, "list_rewards")} == {"issued", "redeemed", "voided"}


def test_a_clean_purchase_rewards_advocate_and_friend(ep: Episode) -> None:
    camp, adv = live(ep), advocate(ep)
    p = track(ep, adv, "WEB-1", "fresh.friend@example.org")
    assert (p["status"], p["fraud_flags"]) == ("approved", [])
    got = {r["recipient"]: r for r in every(ep, "list_rewards", purchase_id=p["id"])}
    assert got["advocate"]["amount_cents"] == camp["advocate_reward_cents"]
    assert got["advocate"]["recipient_email"] == adv["email"]
    assert got["friend"]["discount_percent"] == camp["friend_discount_percent"]
    assert got["friend"]["recipient_email"] == "fresh.friend@example.org"
    refused(
        ep,
        "track_purchase",
        "conflict",
        "order_number",
        referral_code=adv["referral_code"],
        order_number="WEB-1",
        customer_email="x@example.org",
        amount_cents=9000,
    )


def test_fraud_checks_flag_instead_of_rewarding(ep: Episode) -> None:
    adv = advocate(ep)
    known = every(ep, "list_purchases")[0]["customer_email"]
    checks: tuple[tuple[str, str, dict[str, Any], str], ...] = (
        ("WEB-2", adv["email"], {}, "self_referral"),
        ("WEB-3", "returning@example.org", {"new_customer": False}, "existing_customer"),
        ("WEB-4", known, {}, "already_referred"),
        ("WEB-5", "small@example.org", {"amount_cents": 100}, "below_minimum"),
    )
    for order, email, kw, flag in checks:
        p = track(ep, adv, order, email, **kw)
        assert p["status"] == "flagged" and flag in p["fraud_flags"]
        assert every(ep, "list_rewards", purchase_id=p["id"]) == []
    blocked = advocate(ep, "blocked")
    assert "blocked_advocate" in track(ep, blocked, "WEB-6", "b@example.org")["fraud_flags"]


def test_reviewing_a_flagged_purchase(ep: Episode) -> None:
    flagged = every(ep, "list_purchases", status="flagged")[0]
    done = ok(ep, "review_purchase", purchase_id=flagged["id"], approve=True)
    assert done["status"] == "approved" and len(every(ep, "list_rewards", purchase_id=flagged["id"])) == 2
    refused(ep, "review_purchase", "conflict", "purchase_id", purchase_id=flagged["id"], approve=False)
    adv = advocate(ep)
    own = track(ep, adv, "WEB-7", adv["email"])
    refused(ep, "review_purchase", "rule_violation", "approve", purchase_id=own["id"], approve=True)
    assert ok(ep, "review_purchase", purchase_id=own["id"], approve=False)["status"] == "rejected"


def test_advocate_rewards_are_capped_but_friends_still_get_coupons(ep: Episode) -> None:
    camp = live(ep)
    ok(ep, "update_campaign", campaign_id=camp["id"], max_rewards_per_advocate=1)
    adv = advocate(ep)
    first = track(ep, adv, "WEB-8", "one@example.org")
    second = track(ep, adv, "WEB-9", "two@example.org")
    assert [r["recipient"] for r in every(ep, "list_rewards", purchase_id=first["id"])] == ["advocate", "friend"]
    assert [r["recipient"] for r in every(ep, "list_rewards", purchase_id=second["id"])] == ["friend"]


def test_refunds_void_unredeemed_rewards(ep: Episode) -> None:
    p = track(ep, advocate(ep), "WEB-10", "refund.me@example.org")
    friend = next(r for r in every(ep, "list_rewards", purchase_id=p["id"]) if r["recipient"] == "friend")
    ok(ep, "redeem_reward", reward_id=friend["id"])
    assert ok(ep, "refund_purchase", purchase_id=p["id"])["status"] == "refunded"
    states = {r["recipient"]: r["status"] for r in every(ep, "list_rewards", purchase_id=p["id"])}
    assert states == {"advocate": "voided", "friend": "redeemed"}
    refused(ep, "refund_purchase", "conflict", "purchase_id", purchase_id=p["id"])


def test_voiding_needs_an_issued_reward_and_a_reason(ep: Episode) -> None:
    issued = every(ep, "list_rewards", status="issued")[0]
    refused(ep, "void_reward", "rule_violation", "reason", reward_id=issued["id"], reason="  ")
    voided = ok(ep, "void_reward", reward_id=issued["id"], reason="Duplicate")
    assert (voided["status"], voided["void_reason"]) == ("voided", "Duplicate")
    refused(ep, "void_reward", "conflict", "reward_id", reward_id=issued["id"], reason="Again")
    refused(ep, "redeem_reward", "rule_violation", "reward_id", reward_id=issued["id"])


def test_enrollment_needs_a_live_campaign_once_per_customer(ep: Episode) -> None:
    camp, adv = live(ep), advocate(ep)
    refused(ep, "enroll_advocate", "conflict", "email", campaign_id=camp["id"], email=adv["email"], name=adv["name"])
    paused = every(ep, "list_campaigns", status="paused")[0]
    person = POP.consumers[30]
    refused(
        ep, "enroll_advocate", "conflict", "campaign_id", campaign_id=paused["id"], email=person.email, name=person.name
    )
    new = ok(ep, "enroll_advocate", campaign_id=camp["id"], email=person.email, name=person.name)
    assert new["status"] == "active" and len(new["referral_code"]) == 8
    assert ok(ep, "record_click", advocate_id=new["id"])["link_clicks"] == 1


def test_paused_campaigns_take_no_purchases_and_blocked_advocates_wait_for_review(ep: Episode) -> None:
    camp, adv = live(ep), advocate(ep)
    ok(ep, "pause_campaign", campaign_id=camp["id"])
    refused(
        ep,
        "track_purchase",
        "conflict",
        "referral_code",
        referral_code=adv["referral_code"],
        order_number="WEB-11",
        customer_email="p@example.org",
        amount_cents=9000,
    )
    ok(ep, "launch_campaign", campaign_id=camp["id"])
    ok(ep, "block_advocate", advocate_id=adv["id"])
    track(ep, adv, "WEB-12", "held@example.org")
    refused(ep, "unblock_advocate", "rule_violation", "advocate_id", advocate_id=adv["id"])
    refused(ep, "record_click", "rule_violation", "advocate_id", advocate_id=adv["id"])
    ok(ep, "end_campaign", campaign_id=camp["id"])
    refused(ep, "update_campaign", "rule_violation", "campaign_id", campaign_id=camp["id"], name="Again")
