"""Prize Drop: campaign setup and status, eligibility and entry rules, fraud checks, draws, claims and re-draws."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

GW = ServiceTools("giveaways")
WORLD = GW.world
ok, refused, every = GW.ok, GW.refused, GW.every
POP = WORLD.population
NOW = WORLD.epoch
OWNER = POP.employees[0].email


def campaign(ep: Episode, name: str) -> dict[str, Any]:
    return next(c for c in every(ep, "list_campaigns") if c["name"] == name)


def method(ep: Episode, campaign_id: str, title: str) -> dict[str, Any]:
    return next(m for m in every(ep, "list_entry_methods", campaign_id=campaign_id) if m["title"] == title)


def running(ep: Episode) -> dict[str, Any]:
    return campaign(ep, "Launch week sweepstakes")


def fan(c: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "campaign_id": c["id"],
        "email": "fan@example.org",
        "name": "Sam Fan",
        "country": c["eligible_countries"][0],
        "age": 30,
        "ip_address": "198.51.100.9",
    } | more


def test_seeded_contestants_are_consumers_and_entries_add_up(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    for p in every(ep, "list_entrants"):
        assert p["email"] in consumers or p["email"].endswith("@mailinator.com")
        valid = sum(e["points"] for e in every(ep, "list_entries", entrant_id=p["id"], valid=True))
        assert p["total_entries"] == valid
    assert {c["status"] for c in every(ep, "list_campaigns")} == {"draft", "running", "paused", "ended"}


def test_a_campaign_starts_only_with_an_action_and_a_prize(ep: Episode) -> None:
    start = (NOW + dt.timedelta(days=1)).isoformat()
    end = (NOW + dt.timedelta(days=10)).isoformat()
    refused(
        ep,
        "create_campaign",
        "rule_violation",
        "owner_email",
        name="X",
        owner_email="a@b.io",
        starts_at=start,
        ends_at=end,
    )
    refused(
        ep, "create_campaign", "rule_violation", "ends_at", name="X", owner_email=OWNER, starts_at=end, ends_at=start
    )
    c = ok(ep, "create_campaign", name="Autumn giveaway", owner_email=OWNER, starts_at=start, ends_at=end)
    refused(ep, "start_campaign", "rule_violation", "campaign_id", campaign_id=c["id"])
    ok(ep, "add_entry_method", campaign_id=c["id"], kind="visit_url", title="Visit our shop")
    refused(ep, "start_campaign", "rule_violation", "campaign_id", campaign_id=c["id"])
    ok(ep, "add_prize", campaign_id=c["id"], name="Gift card", value_cents=5000)
    assert ok(ep, "start_campaign", campaign_id=c["id"])["status"] == "running"
    refused(ep, "add_prize", "conflict", "campaign_id", campaign_id=c["id"], name="More", value_cents=1)
    refused(
        ep,
        "add_entry_method",
        "rule_violation",
        "mandatory",
        campaign_id=campaign(ep, "Photo contest: your desk setup")["id"],
        kind="daily_bonus",
        title="Daily",
        mandatory=True,
    )


def test_entrants_must_be_eligible_and_do_mandatory_actions_first(ep: Episode) -> None:
    c = running(ep)
    join, follow = method(ep, c["id"], "Join our newsletter"), method(ep, c["id"], "Follow us on Instagram")
    refused(ep, "enter_giveaway", "rule_violation", "country", method_id=join["id"], **fan(c, country="ZZ"))
    refused(ep, "enter_giveaway", "rule_violation", "age", method_id=join["id"], **fan(c, age=15))
    refused(ep, "enter_giveaway", "rule_violation", "method_id", method_id=follow["id"], **fan(c))
    first = ok(ep, "enter_giveaway", method_id=join["id"], **fan(c))
    assert first["points"] == join["points"]
    ok(ep, "enter_giveaway", method_id=follow["id"], **fan(c))
    refused(ep, "enter_giveaway", "conflict", "method_id", method_id=follow["id"], **fan(c))
    who = every(ep, "list_entrants", campaign_id=c["id"], email="fan@example.org")[0]
    assert who["total_entries"] == join["points"] + follow["points"]


def test_daily_bonus_counts_once_a_day_and_entries_are_capped(ep: Episode) -> None:
    c = running(ep)
    join, daily = method(ep, c["id"], "Join our newsletter"), method(ep, c["id"], "Daily bonus")
    ok(ep, "update_campaign", campaign_id=c["id"], max_entries_per_person=4)
    ok(ep, "enter_giveaway", method_id=join["id"], **fan(c))
    ok(ep, "enter_giveaway", method_id=daily["id"], **fan(c))
    refused(ep, "enter_giveaway", "conflict", "method_id", method_id=daily["id"], **fan(c))
    follow = method(ep, c["id"], "Follow us on Instagram")
    refused(ep, "enter_giveaway", "rule_violation", "method_id", method_id=follow["id"], **fan(c))


def test_closed_campaigns_take_no_entries(ep: Episode) -> None:
    for name in ("Holiday gift guide giveaway", "Summer merch giveaway", "Photo contest: your desk setup"):
        c = campaign(ep, name)
        join = method(ep, c["id"], "Join our newsletter")
        refused(ep, "enter_giveaway", "conflict", "campaign_id", method_id=join["id"], **fan(c))


def test_fraud_check_flags_shared_ips_and_disqualification_voids_entries(ep: Episode) -> None:
    c = running(ep)
    join = method(ep, c["id"], "Join our newsletter")
    ok(ep, "enter_giveaway", method_id=join["id"], **fan(c, email="a1@example.org", ip_address="192.0.2.50"))
    ok(ep, "enter_giveaway", method_id=join["id"], **fan(c, email="a2@example.org", ip_address="192.0.2.50"))
    flagged = {p["email"]: p["fraud_reason"] for p in ok(ep, "run_fraud_check", campaign_id=c["id"])}
    assert flagged == {"a1@example.org": "shared IP address", "a2@example.org": "shared IP address"}
    a1 = every(ep, "list_entrants", campaign_id=c["id"], email="a1@example.org")[0]
    assert ok(ep, "clear_entrant", entrant_id=a1["id"])["fraud_status"] == "clean"
    a2 = every(ep, "list_entrants", campaign_id=c["id"], email="a2@example.org")[0]
    out = ok(ep, "disqualify_entrant", entrant_id=a2["id"], reason="Duplicate household")
    assert (out["fraud_status"], out["total_entries"]) == ("disqualified", 0)
    assert every(ep, "list_entries", entrant_id=a2["id"], valid=True) == []
    refused(ep, "enter_giveaway", "rule_violation", "email", method_id=join["id"], **fan(c, email="a2@example.org"))


def test_winners_are_drawn_once_from_clean_contestants_after_the_end(ep: Episode) -> None:
    refused(ep, "draw_winners", "conflict", "campaign_id", campaign_id=running(ep)["id"])
    c = campaign(ep, "Spring quiz giveaway")
    drawn = ok(ep, "draw_winners", campaign_id=c["id"])
    units = sum(p["quantity"] for p in every(ep, "list_prizes", campaign_id=c["id"]))
    clean = {p["id"] for p in every(ep, "list_entrants", campaign_id=c["id"], fraud_status="clean")}
    assert len(drawn) == min(units, len(clean))
    assert len({w["entrant_id"] for w in drawn}) == len(drawn) and {w["entrant_id"] for w in drawn} <= clean
    assert all(w["status"] == "drawn" for w in drawn)
    refused(ep, "draw_winners", "conflict", "campaign_id", campaign_id=c["id"])


def test_forfeits_are_redrawn_and_claims_ship(ep: Episode) -> None:
    c = campaign(ep, "Summer merch giveaway")
    lost = every(ep, "list_winners", campaign_id=c["id"], status="forfeited")[0]
    new = ok(ep, "redraw_winner", winner_id=lost["id"])
    before = {w["entrant_id"] for w in every(ep, "list_winners", campaign_id=c["id"]) if w["id"] != new["id"]}
    assert new["prize_id"] == lost["prize_id"] and new["entrant_id"] not in before
    refused(ep, "redraw_winner", "conflict", "winner_id", winner_id=lost["id"])
    refused(
        ep, "fulfill_prize", "rule_violation", "winner_id", winner_id=new["id"], tracking_number="1Z999AA10123456784"
    )
    assert ok(ep, "claim_winner", winner_id=new["id"])["status"] == "claimed"
    assert ok(ep, "fulfill_prize", winner_id=new["id"], tracking_number="1Z999AA10123456785")["status"] == "fulfilled"


def test_stats_count_valid_entries_per_action(ep: Episode) -> None:
    c = running(ep)
    stats = ok(ep, "campaign_stats", campaign_id=c["id"])
    valid = every(ep, "list_entries", campaign_id=c["id"], valid=True)
    assert stats["valid_entries"] == sum(e["points"] for e in valid) == sum(stats["by_method"].values())
    assert stats["suspect"] == len(every(ep, "list_entrants", campaign_id=c["id"], fraud_status="suspect"))
