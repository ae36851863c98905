"""Kudoboard Recognition: allowances, bonus rules, approvals, add-ons, deletion window, rewards and redemptions."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

REC = ServiceTools("recognition")
WORLD = REC.world
ok, refused, every = REC.ok, REC.refused, REC.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def member(ep: Episode, email: str) -> Any:
    return every(ep, "list_members", email=email)[0]


def two_givers(ep: Episode) -> tuple[Any, Any]:
    rich = [m for m in every(ep, "list_members", active=True, role="member") if m["giving_balance"] >= 60]
    return rich[0], rich[1]


def tag(ep: Episode) -> str:
    return str(every(ep, "list_hashtags", active=True)[0]["tag"])


def admin(ep: Episode) -> Any:
    return every(ep, "list_members", role="admin", active=True)[0]


def test_seeded_members_are_employees_and_balances_follow_the_bonuses(ep: Episode) -> None:
    ms = every(ep, "list_members")
    assert all(m["email"] in STAFF for m in ms) and admin(ep)
    for m in ms:
        assert 0 <= m["giving_balance"] <= m["monthly_allowance"]
    for b in every(ep, "list_bonuses"):
        assert b["giver_email"] not in b["receiver_emails"] and b["hashtags"]
        assert 1 <= len(b["receiver_emails"]) <= 5


def test_a_bonus_moves_points_from_allowance_to_receivers(ep: Episode) -> None:
    giver, receiver = two_givers(ep)
    bonus = ok(
        ep,
        "give_bonus",
        giver_email=giver["email"],
        receiver_emails=[receiver["email"]],
        amount=25,
        reason="for the launch",
        hashtags=[tag(ep)],
    )
    assert bonus["status"] == "approved"
    assert member(ep, giver["email"])["giving_balance"] == giver["giving_balance"] - 25
    assert member(ep, receiver["email"])["earning_balance"] == receiver["earning_balance"] + 25


def test_bonus_rules_refuse_self_gifts_overspending_and_unknown_hashtags(ep: Episode) -> None:
    giver, receiver = two_givers(ep)
    base = {"giver_email": giver["email"], "reason": "thanks", "hashtags": [tag(ep)]}
    refused(ep, "give_bonus", "rule_violation", "receiver_emails", receiver_emails=[giver["email"]], amount=5, **base)
    refused(ep, "give_bonus", "rule_violation", "receiver_emails", receiver_emails=["x@else.io"], amount=5, **base)
    retired = every(ep, "list_hashtags", active=False)[0]["tag"]
    refused(
        ep,
        "give_bonus",
        "rule_violation",
        "hashtags",
        receiver_emails=[receiver["email"]],
        amount=5,
        **(base | {"hashtags": [retired]}),
    )
    refused(
        ep,
        "give_bonus",
        "rule_violation",
        "hashtags",
        receiver_emails=[receiver["email"]],
        amount=5,
        **(base | {"hashtags": []}),
    )
    others = [m["email"] for m in every(ep, "list_members", active=True) if m["email"] != giver["email"]][:3]
    need = 50 * len(others)
    assert need > giver["giving_balance"]
    refused(ep, "give_bonus", "rule_violation", "amount", receiver_emails=others, amount=50, **base)
    refused(ep, "give_bonus", "invalid_arguments", "amount", receiver_emails=others[:1], amount=101, **base)


def test_large_bonuses_wait_for_an_admin_and_rejection_refunds_the_giver(ep: Episode) -> None:
    giver, receiver = two_givers(ep)
    big = ok(
        ep,
        "give_bonus",
        giver_email=giver["email"],
        receiver_emails=[receiver["email"]],
        amount=60,
        reason="for saving the renewal",
        hashtags=[tag(ep)],
    )
    assert big["status"] == "pending_approval"
    assert member(ep, receiver["email"])["earning_balance"] == receiver["earning_balance"]
    assert member(ep, giver["email"])["giving_balance"] == giver["giving_balance"] - 60
    refused(
        ep,
        "review_bonus",
        "rule_violation",
        "admin_email",
        bonus_id=big["id"],
        approve=True,
        admin_email=receiver["email"],
    )
    done = ok(ep, "review_bonus", bonus_id=big["id"], approve=False, admin_email=admin(ep)["email"])
    assert done["status"] == "rejected"
    assert member(ep, giver["email"])["giving_balance"] == giver["giving_balance"]
    refused(
        ep,
        "review_bonus",
        "rule_violation",
        "bonus_id",
        bonus_id=big["id"],
        approve=True,
        admin_email=admin(ep)["email"],
    )


def test_approval_credits_every_receiver(ep: Episode) -> None:
    pending = every(ep, "list_bonuses", status="pending_approval")[0]
    before = {r: member(ep, r)["earning_balance"] for r in pending["receiver_emails"]}
    ok(ep, "review_bonus", bonus_id=pending["id"], approve=True, admin_email=admin(ep)["email"])
    for r, points in before.items():
        assert member(ep, r)["earning_balance"] == points + pending["amount"]


def test_add_ons_reuse_the_receivers_and_exclude_the_original_people(ep: Episode) -> None:
    giver, receiver = two_givers(ep)
    third = next(
        m
        for m in every(ep, "list_members", active=True)
        if m["email"] not in (giver["email"], receiver["email"]) and m["giving_balance"] >= 10
    )
    parent = ok(
        ep,
        "give_bonus",
        giver_email=giver["email"],
        receiver_emails=[receiver["email"]],
        amount=10,
        reason="for the fix",
        hashtags=[tag(ep)],
    )
    refused(
        ep,
        "add_on_bonus",
        "rule_violation",
        "giver_email",
        parent_bonus_id=parent["id"],
        giver_email=receiver["email"],
        amount=5,
    )
    add = ok(ep, "add_on_bonus", parent_bonus_id=parent["id"], giver_email=third["email"], amount=5)
    assert (add["receiver_emails"], add["parent_bonus_id"], add["reason"]) == (
        [receiver["email"]],
        parent["id"],
        "+5 for the fix",
    )
    assert member(ep, receiver["email"])["earning_balance"] == receiver["earning_balance"] + 15
    refused(ep, "delete_bonus", "rule_violation", "bonus_id", bonus_id=parent["id"], giver_email=giver["email"])


def test_a_giver_deletes_a_bonus_only_within_a_day(ep: Episode) -> None:
    giver, receiver = two_givers(ep)
    b = ok(
        ep,
        "give_bonus",
        giver_email=giver["email"],
        receiver_emails=[receiver["email"]],
        amount=20,
        reason="oops, wrong person",
        hashtags=[tag(ep)],
    )
    refused(ep, "delete_bonus", "rule_violation", "giver_email", bonus_id=b["id"], giver_email=receiver["email"])
    assert ok(ep, "delete_bonus", bonus_id=b["id"], giver_email=giver["email"])["status"] == "rejected"
    assert member(ep, giver["email"])["giving_balance"] == giver["giving_balance"]
    assert member(ep, receiver["email"])["earning_balance"] == receiver["earning_balance"]
    old = every(ep, "list_bonuses", status="approved")[0]
    refused(ep, "delete_bonus", "rule_violation", "bonus_id", bonus_id=old["id"], giver_email=old["giver_email"])


def test_redeeming_spends_points_and_custom_rewards_wait_for_an_admin(ep: Episode) -> None:
    stocked = [r for r in every(ep, "list_rewards", kind="custom", active=True) if r["stock"]]
    custom = min(stocked, key=lambda r: r["points_cost"])
    rich = max(every(ep, "list_members", active=True), key=lambda m: m["earning_balance"])
    assert rich["earning_balance"] >= custom["points_cost"]
    red = ok(ep, "redeem_reward", member_email=rich["email"], reward_id=custom["id"])
    assert red["status"] == "pending"
    assert member(ep, rich["email"])["earning_balance"] == rich["earning_balance"] - custom["points_cost"]
    assert ok(ep, "get_reward", reward_id=custom["id"])["stock"] == custom["stock"] - 1
    refused(
        ep,
        "fulfil_redemption",
        "rule_violation",
        "admin_email",
        redemption_id=red["id"],
        admin_email=rich["email"] if rich["role"] != "admin" else "x@y.io",
    )
    assert ok(ep, "cancel_redemption", redemption_id=red["id"])["status"] == "canceled"
    assert member(ep, rich["email"])["earning_balance"] == rich["earning_balance"]
    refused(
        ep,
        "fulfil_redemption",
        "rule_violation",
        "redemption_id",
        redemption_id=red["id"],
        admin_email=admin(ep)["email"],
    )


def test_redeeming_refuses_sold_out_rewards_and_short_balances(ep: Episode) -> None:
    sold_out = next(r for r in every(ep, "list_rewards") if r["stock"] == 0)
    poor = min(every(ep, "list_members", active=True), key=lambda m: m["earning_balance"])
    rich = max(every(ep, "list_members", active=True), key=lambda m: m["earning_balance"])
    refused(ep, "redeem_reward", "rule_violation", "reward_id", member_email=rich["email"], reward_id=sold_out["id"])
    costly = max(every(ep, "list_rewards", active=True), key=lambda r: r["points_cost"])
    assert poor["earning_balance"] < costly["points_cost"]
    refused(ep, "redeem_reward", "rule_violation", "reward_id", member_email=poor["email"], reward_id=costly["id"])
    gift = every(ep, "list_rewards", kind="gift_card")[0]
    assert rich["earning_balance"] >= gift["points_cost"]
    assert ok(ep, "redeem_reward", member_email=rich["email"], reward_id=gift["id"])["status"] == "fulfilled"


def test_resetting_allowances_starts_a_month_without_rollover(ep: Episode) -> None:
    giver, receiver = two_givers(ep)
    ok(
        ep,
        "give_bonus",
        giver_email=giver["email"],
        receiver_emails=[receiver["email"]],
        amount=10,
        reason="x",
        hashtags=[tag(ep)],
    )
    ok(ep, "reset_allowances")
    for m in every(ep, "list_members", active=True):
        assert m["giving_balance"] == m["monthly_allowance"]
    board = ok(ep, "leaderboard", days=30, limit=5)
    assert [e["points_received"] for e in board] == sorted((e["points_received"] for e in board), reverse=True)
    assert receiver["email"] in {e["email"] for e in ok(ep, "leaderboard", days=1, limit=50)}
