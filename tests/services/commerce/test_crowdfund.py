"""Backerloop: launching, pledges and tier limits, all-or-nothing endings, surveys and shipping."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CF = ServiceTools("crowdfund")
WORLD = CF.world
ok, refused, every = CF.ok, CF.refused, CF.every
POP = WORLD.population
TODAY = WORLD.epoch.date().isoformat()


def live(ep: Episode) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in every(ep, "list_campaigns", status="live") if c["deadline"] >= TODAY)
    return found


def new_backer(ep: Episode, campaign_id: str) -> Any:
    taken = {p["backer_email"] for p in every(ep, "list_pledges", campaign_id=campaign_id)}
    return next(p for p in POP.consumers if p.email not in taken)


def tier(ep: Episode, campaign_id: str, title: str) -> dict[str, Any]:
    found: dict[str, Any] = next(r for r in every(ep, "list_rewards", campaign_id=campaign_id) if r["title"] == title)
    return found


def test_seeded_totals_match_their_pledges(ep: Episode) -> None:
    emails = {p.email for p in POP.consumers}
    for camp in every(ep, "list_campaigns"):
        mine = every(ep, "list_pledges", campaign_id=camp["id"])
        assert camp["pledged_cents"] == sum(p["amount_cents"] for p in mine)
        assert all(p["backer_email"] in emails for p in mine)
        for r in every(ep, "list_rewards", campaign_id=camp["id"]):
            assert r["claimed"] == sum(p["reward_id"] == r["id"] for p in mine)


def test_a_campaign_launches_only_with_a_reward_tier(ep: Episode) -> None:
    me = POP.employees[0].email
    camp = ok(ep, "create_campaign", title="Folding kayak", creator_email=me, goal_cents=500000)
    refused(ep, "launch_campaign", "rule_violation", "campaign_id", campaign_id=camp["id"], days=30)
    ok(
        ep,
        "create_reward",
        campaign_id=camp["id"],
        title="One kayak",
        minimum_cents=59900,
        estimated_delivery="2027-06-01",
    )
    launched = ok(ep, "launch_campaign", campaign_id=camp["id"], days=60)
    assert launched["status"] == "live" and launched["deadline"] > TODAY
    refused(ep, "update_campaign", "rule_violation", "goal_cents", campaign_id=camp["id"], goal_cents=1)
    refused(ep, "create_campaign", "rule_violation", "creator_email", title="X", creator_email="a@b.io", goal_cents=100)


def test_a_pledge_meets_the_tier_minimum_once_per_backer(ep: Episode) -> None:
    camp = live(ep)
    std = tier(ep, camp["id"], "Standard")
    who = new_backer(ep, camp["id"])
    base = {"campaign_id": camp["id"], "backer_name": who.name, "backer_email": who.email}
    refused(
        ep,
        "pledge",
        "rule_violation",
        "amount_cents",
        amount_cents=std["minimum_cents"] - 1,
        reward_id=std["id"],
        **base,
    )
    made = ok(ep, "pledge", amount_cents=std["minimum_cents"], reward_id=std["id"], **base)
    assert made["status"] == "active"
    after = ok(ep, "get_campaign", campaign_id=camp["id"])
    assert (after["pledged_cents"], after["backers"]) == (
        camp["pledged_cents"] + std["minimum_cents"],
        camp["backers"] + 1,
    )
    refused(ep, "pledge", "conflict", "backer_email", amount_cents=5000, **base)


def test_a_limited_tier_runs_out(ep: Episode) -> None:
    camp = live(ep)
    early = tier(ep, camp["id"], "Early bird")
    for _ in range(early["limit"] - early["claimed"]):
        who = new_backer(ep, camp["id"])
        ok(
            ep,
            "pledge",
            campaign_id=camp["id"],
            backer_name=who.name,
            backer_email=who.email,
            amount_cents=early["minimum_cents"],
            reward_id=early["id"],
        )
    who = new_backer(ep, camp["id"])
    refused(
        ep,
        "pledge",
        "rule_violation",
        "reward_id",
        campaign_id=camp["id"],
        backer_name=who.name,
        backer_email=who.email,
        amount_cents=early["minimum_cents"],
        reward_id=early["id"],
    )
    refused(ep, "update_reward", "rule_violation", "limit", reward_id=early["id"], limit=1)


def test_changing_and_canceling_pledges_moves_totals_and_tiers(ep: Episode) -> None:
    camp = live(ep)
    plg = every(ep, "list_pledges", campaign_id=camp["id"], status="active")[0]
    std = tier(ep, camp["id"], "Standard")
    moved = ok(ep, "adjust_pledge", pledge_id=plg["id"], amount_cents=20000, reward_id=std["id"])
    assert moved["reward_id"] == std["id"]
    assert (
        ok(ep, "get_campaign", campaign_id=camp["id"])["pledged_cents"]
        == camp["pledged_cents"] - plg["amount_cents"] + 20000
    )
    ok(ep, "cancel_pledge", pledge_id=plg["id"])
    assert ok(ep, "get_reward", reward_id=std["id"])["claimed"] == std["claimed"] + (plg["reward_id"] != std["id"]) - 1
    refused(ep, "cancel_pledge", "rule_violation", "pledge_id", pledge_id=plg["id"])


def test_a_campaign_ends_only_after_its_deadline_all_or_nothing(ep: Episode) -> None:
    refused(ep, "end_campaign", "rule_violation", "campaign_id", campaign_id=live(ep)["id"])
    over = next(c for c in every(ep, "list_campaigns", status="live") if c["deadline"] < TODAY)
    ended = ok(ep, "end_campaign", campaign_id=over["id"])
    expected = "successful" if over["pledged_cents"] >= over["goal_cents"] else "failed"
    assert ended["status"] == expected
    want = "collected" if expected == "successful" else "dropped"
    assert {p["status"] for p in every(ep, "list_pledges", campaign_id=over["id"])} == {want}


def test_pledges_change_only_while_live(ep: Episode) -> None:
    done = every(ep, "list_campaigns", status="successful")[0]
    plg = every(ep, "list_pledges", campaign_id=done["id"])[0]
    refused(ep, "adjust_pledge", "rule_violation", "pledge_id", pledge_id=plg["id"], amount_cents=9999)
    who = new_backer(ep, done["id"])
    refused(
        ep,
        "pledge",
        "rule_violation",
        "campaign_id",
        campaign_id=done["id"],
        backer_name=who.name,
        backer_email=who.email,
        amount_cents=5000,
    )


def test_surveys_go_to_collected_reward_pledges_after_success(ep: Episode) -> None:
    failed = every(ep, "list_campaigns", status="failed")[0]
    refused(ep, "send_surveys", "rule_violation", "campaign_id", campaign_id=failed["id"])
    done = every(ep, "list_campaigns", status="successful")[0]
    sent = ok(ep, "send_surveys", campaign_id=done["id"])
    assert sent and all(p["reward_id"] is not None and p["survey"] == "sent" for p in sent)
    assert ok(ep, "send_surveys", campaign_id=done["id"]) == []


def test_rewards_ship_only_to_answered_surveys_once(ep: Episode) -> None:
    sent = every(ep, "list_pledges", survey="sent")[0]
    refused(
        ep, "ship_reward", "rule_violation", "pledge_id", pledge_id=sent["id"], tracking_number="1Z999AA10000000001"
    )
    ok(ep, "answer_survey", pledge_id=sent["id"], ship_city="Porto", ship_country="PT")
    shipped = ok(ep, "ship_reward", pledge_id=sent["id"], tracking_number="1Z999AA10000000001")
    assert shipped["tracking_number"] == "1Z999AA10000000001"
    refused(ep, "ship_reward", "conflict", "pledge_id", pledge_id=sent["id"], tracking_number="1Z999AA10000000002")
    refused(
        ep, "answer_survey", "rule_violation", "pledge_id", pledge_id=sent["id"], ship_city="Faro", ship_country="PT"
    )
