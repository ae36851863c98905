"""Stamp Rewards: a ledger that never goes negative, earning rules, VIP tiers, redemptions, FIFO expiry."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.world.commerce import first_order_numbers
from tests.services.helpers import ServiceTools

LOY = ServiceTools("loyalty")
WORLD = LOY.world
ok, refused, every = LOY.ok, LOY.refused, LOY.every
POP = WORLD.population


def rule(ep: Episode, kind: str) -> dict[str, Any]:
    return every(ep, "list_earning_rules", kind=kind, active=True)[0]


def tier(ep: Episode, name: str) -> dict[str, Any]:
    return next(t for t in every(ep, "list_tiers") if t["name"] == name)


def reward(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_rewards", query=name)[0]


def member(ep: Episode, tier_name: str = "Bronze", status: str = "active") -> dict[str, Any]:
    return every(ep, "list_members", tier_id=tier(ep, tier_name)["id"], status=status)[0]


def balance(ep: Episode, m: dict[str, Any]) -> int:
    return int(ok(ep, "get_member", member_id=m["id"])["points_balance"])


def test_seeded_members_are_consumers_and_their_ledgers_add_up(ep: Episode) -> None:
    people = {p.email: p for p in POP.consumers}
    orders = first_order_numbers(POP)
    tiers = sorted(every(ep, "list_tiers"), key=lambda t: t["threshold"])
    for m in every(ep, "list_members"):
        person = people[m["email"]]
        assert (m["first_name"], m["last_name"]) == (person.first_name, person.last_name)
        entries = every(ep, "list_ledger_entries", member_id=m["id"])
        assert m["points_balance"] == sum(e["delta"] for e in entries) == entries[-1]["balance_after"]
        assert all(e["balance_after"] >= 0 for e in entries)
        assert m["tier_id"] == [t for t in tiers if t["threshold"] <= m["points_earned"]][-1]["id"]
        if m["email"] in orders:
            assert orders[m["email"]] in {e["order_number"] for e in entries}


def test_joining_pays_the_signup_points_once_and_staff_cannot_join(ep: Episode) -> None:
    members = {m["email"] for m in every(ep, "list_members")}
    person = next(p for p in POP.consumers if p.email not in members)
    m = ok(ep, "create_member", email=person.email, first_name=person.first_name, last_name=person.last_name)
    signup = rule(ep, "signup")
    assert (m["points_balance"], m["tier_id"]) == (signup["points"], tier(ep, "Bronze")["id"])
    refused(ep, "award_points", "conflict", "rule_id", member_id=m["id"], rule_id=signup["id"])
    refused(ep, "create_member", "conflict", "email", email=person.email, first_name="A", last_name="B")
    staff = POP.employees[0]
    refused(
        ep,
        "create_member",
        "rule_violation",
        "email",
        email=staff.email,
        first_name=staff.first_name,
        last_name=staff.last_name,
    )


def test_purchases_earn_per_dollar_times_the_tier_once_per_order(ep: Episode) -> None:
    gold = member(ep, "Gold")
    buy = rule(ep, "purchase")
    entry = ok(ep, "award_points", member_id=gold["id"], rule_id=buy["id"], order_number="#55501", order_amount=12099)
    assert entry["delta"] == int(120 * buy["points_per_dollar"] * tier(ep, "Gold")["multiplier"])
    assert balance(ep, gold) == gold["points_balance"] + entry["delta"]
    refused(
        ep,
        "award_points",
        "conflict",
        "order_number",
        member_id=gold["id"],
        rule_id=buy["id"],
        order_number="#55501",
        order_amount=5000,
    )
    refused(
        ep,
        "award_points",
        "rule_violation",
        "order_amount",
        member_id=gold["id"],
        rule_id=buy["id"],
        order_number="#55502",
        order_amount=99,
    )
    refused(ep, "award_points", "rule_violation", "order_number", member_id=gold["id"], rule_id=buy["id"])


def test_earning_enough_moves_the_member_up_a_tier(ep: Episode) -> None:
    bronze = member(ep, "Bronze")
    silver = tier(ep, "Silver")
    need = silver["threshold"] - bronze["points_earned"]
    ok(ep, "adjust_points", member_id=bronze["id"], points=need, reason="Launch bonus")
    assert ok(ep, "get_member", member_id=bronze["id"])["tier_id"] == silver["id"]


def test_birthday_points_need_a_birthday_and_come_once_a_year(ep: Episode) -> None:
    bday = rule(ep, "birthday")
    given = {e["member_id"] for e in every(ep, "list_ledger_entries", kind="earn") if e["rule_id"] == bday["id"]}
    members = every(ep, "list_members", status="active")
    fresh = next(m for m in members if m["birthday"] and m["id"] not in given)
    ok(ep, "award_points", member_id=fresh["id"], rule_id=bday["id"])
    refused(ep, "award_points", "conflict", "rule_id", member_id=fresh["id"], rule_id=bday["id"])
    nobday = next(m for m in members if m["birthday"] is None)
    refused(ep, "award_points", "rule_violation", "member_id", member_id=nobday["id"], rule_id=bday["id"])


def test_the_balance_never_goes_negative(ep: Episode) -> None:
    m = member(ep, "Silver")
    refused(
        ep,
        "adjust_points",
        "rule_violation",
        "points",
        member_id=m["id"],
        points=-(m["points_balance"] + 1),
        reason="Correction",
    )
    out = ok(ep, "adjust_points", member_id=m["id"], points=-m["points_balance"], reason="Fraud reversal")
    assert out["balance_after"] == 0 and balance(ep, m) == 0
    cheap = reward(ep, "Free shipping")
    refused(ep, "redeem_reward", "rule_violation", "reward_id", member_id=m["id"], reward_id=cheap["id"])


def test_redemptions_issue_codes_spend_points_and_respect_tiers(ep: Episode) -> None:
    silver = next(
        m
        for m in every(ep, "list_members", tier_id=tier(ep, "Silver")["id"], status="active")
        if m["points_balance"] >= 1500
    )
    gold_only = reward(ep, "20% off for Gold")
    refused(ep, "redeem_reward", "rule_violation", "reward_id", member_id=silver["id"], reward_id=gold_only["id"])
    sold_out = every(ep, "list_rewards", active=False)[0]
    refused(ep, "redeem_reward", "rule_violation", "reward_id", member_id=silver["id"], reward_id=sold_out["id"])
    five = reward(ep, "$5 off")
    red = ok(ep, "redeem_reward", member_id=silver["id"], reward_id=five["id"])
    assert red["status"] == "issued" and red["discount_code"].startswith("STAMP-")
    assert balance(ep, silver) == silver["points_balance"] - five["points_cost"]
    assert ok(ep, "cancel_redemption", redemption_id=red["id"])["status"] == "cancelled"
    assert balance(ep, silver) == silver["points_balance"]
    refused(ep, "cancel_redemption", "rule_violation", "redemption_id", redemption_id=red["id"])
    used = every(ep, "list_redemptions", status="used")[0]
    refused(ep, "cancel_redemption", "rule_violation", "redemption_id", redemption_id=used["id"])


def test_excluded_members_neither_earn_nor_redeem_until_reinstated(ep: Episode) -> None:
    out = every(ep, "list_members", status="excluded")[0]
    buy = rule(ep, "purchase")
    refused(
        ep,
        "award_points",
        "rule_violation",
        "member_id",
        member_id=out["id"],
        rule_id=buy["id"],
        order_number="#66601",
        order_amount=5000,
    )
    refused(
        ep,
        "redeem_reward",
        "rule_violation",
        "member_id",
        member_id=out["id"],
        reward_id=reward(ep, "Free shipping")["id"],
    )
    ok(ep, "reinstate_member", member_id=out["id"])
    ok(ep, "award_points", member_id=out["id"], rule_id=buy["id"], order_number="#66601", order_amount=5000)


def test_points_expire_a_year_after_earning_oldest_first(ep: Episode) -> None:
    before = {m["id"]: m["points_balance"] for m in every(ep, "list_members")}
    run = ok(ep, "expire_points")
    assert run["points_expired"] > 0
    for e in run["entries"]:
        assert e["kind"] == "expire" and e["delta"] < 0
        assert e["balance_after"] == before[e["member_id"]] + e["delta"] >= 0
    assert ok(ep, "expire_points")["points_expired"] == 0
