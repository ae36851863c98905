"""Arcadia Backend: player data, currency, purchases and inventories, statistics, leaderboards, bans."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

GB = ServiceTools("gamebackend")
WORLD = GB.world
ok, refused, every = GB.ok, GB.refused, GB.every
EMAILS = {p.email for p in WORLD.population.people}


def player(ep: Episode, banned: bool = False) -> dict[str, Any]:
    return every(ep, "list_players", banned=banned)[0]


def item(ep: Episode, code: str) -> dict[str, Any]:
    return every(ep, "list_catalog_items", item_code=code)[0]


def gold(ep: Episode, player_id: str) -> int:
    return int(every(ep, "list_balances", player_id=player_id, currency="GC")[0]["amount"])


def test_seeded_players_are_world_consumers_with_balances_and_one_banned(ep: Episode) -> None:
    players = every(ep, "list_players")
    assert all(p["email"] in EMAILS for p in players)
    assert len(every(ep, "list_players", banned=True)) == 1
    banned = player(ep, banned=True)
    assert every(ep, "list_bans", player_id=banned["id"], active=True)
    for p in players:
        assert {b["currency"] for b in every(ep, "list_balances", player_id=p["id"])} == {"GC", "GM", "EN"}


def test_player_data_upserts_keys_in_batches_of_ten(ep: Episode) -> None:
    p = player(ep)
    saved = ok(ep, "set_player_data", player_id=p["id"], data={"tutorial_done": "true", "level": "7"})
    assert {d["key"] for d in saved} == {"tutorial_done", "level"}
    rows = every(ep, "list_player_data", player_id=p["id"], key="tutorial_done")
    assert len(rows) == 1 and rows[0]["value"] == "true"
    refused(ep, "set_player_data", "rule_violation", "data", player_id=p["id"], data={})
    many = {f"k{i}": "x" for i in range(11)}
    refused(ep, "set_player_data", "rule_violation", "data", player_id=p["id"], data=many)


def test_currency_never_goes_below_zero(ep: Episode) -> None:
    p = player(ep)
    have = gold(ep, p["id"])
    refused(ep, "subtract_currency", "rule_violation", "amount", player_id=p["id"], currency="GC", amount=have + 1)
    assert ok(ep, "subtract_currency", player_id=p["id"], currency="GC", amount=have)["amount"] == 0
    assert ok(ep, "add_currency", player_id=p["id"], currency="GC", amount=75)["amount"] == 75


def test_purchase_charges_the_catalog_price_from_the_balance(ep: Episode) -> None:
    p = player(ep)
    potion = item(ep, "potion_health")
    ok(ep, "add_currency", player_id=p["id"], currency="GC", amount=1000)
    before = gold(ep, p["id"])
    refused(ep, "purchase_item", "conflict", "price", player_id=p["id"], item_id=potion["id"], currency="GC", price=10)
    refused(
        ep,
        "purchase_item",
        "rule_violation",
        "currency",
        player_id=p["id"],
        item_id=potion["id"],
        currency="GM",
        price=50,
    )
    bought = ok(ep, "purchase_item", player_id=p["id"], item_id=potion["id"], currency="GC", price=50)
    assert (bought["remaining_uses"], bought["paid_amount"]) == (3, 50)
    assert gold(ep, p["id"]) == before - 50


def test_purchase_needs_funds_and_non_stackables_are_owned_once(ep: Episode) -> None:
    p = player(ep)
    bow = item(ep, "bow_elven")
    ok(ep, "subtract_currency", player_id=p["id"], currency="GC", amount=gold(ep, p["id"]))
    refused(
        ep,
        "purchase_item",
        "rule_violation",
        "player_id",
        player_id=p["id"],
        item_id=bow["id"],
        currency="GC",
        price=1200,
    )
    ok(ep, "add_currency", player_id=p["id"], currency="GC", amount=5000)
    ok(ep, "purchase_item", player_id=p["id"], item_id=bow["id"], currency="GC", price=1200)
    refused(ep, "purchase_item", "conflict", "item_id", player_id=p["id"], item_id=bow["id"], currency="GC", price=1200)
    refused(ep, "grant_item", "conflict", "item_id", player_id=p["id"], item_id=bow["id"])


def test_consuming_and_revoking_with_refund(ep: Episode) -> None:
    p = player(ep)
    potions = [
        i
        for i in every(ep, "list_inventory_items", player_id=p["id"], status="active")
        if i["item_code"] == "potion_health"
    ]
    inst = potions[0]
    refused(ep, "consume_item", "rule_violation", "count", instance_id=inst["id"], count=4)
    assert ok(ep, "consume_item", instance_id=inst["id"], count=3)["status"] == "consumed"
    refused(ep, "revoke_item", "rule_violation", "instance_id", instance_id=inst["id"])
    paid = next(
        i for i in every(ep, "list_inventory_items", player_id=p["id"], status="active") if i["paid_currency"] == "GC"
    )
    before = gold(ep, p["id"])
    assert ok(ep, "revoke_item", instance_id=paid["id"], refund=True)["status"] == "revoked"
    assert gold(ep, p["id"]) == before + paid["paid_amount"]


def test_statistics_aggregate_by_their_method_and_feed_the_leaderboard(ep: Episode) -> None:
    p = player(ep)
    stats = {s["name"]: s["value"] for s in every(ep, "list_statistics", player_id=p["id"])}
    assert ok(ep, "update_statistic", player_id=p["id"], name="wins", value=2)["value"] == stats["wins"] + 2
    assert ok(ep, "update_statistic", player_id=p["id"], name="high_score", value=1)["value"] == stats["high_score"]
    lap = ok(ep, "update_statistic", player_id=p["id"], name="best_lap_ms", value=1000)
    assert lap["value"] == 1000
    board = ok(ep, "get_leaderboard", name="best_lap_ms", max_results=3)
    assert board[0]["player_id"] == p["id"] and [e["position"] for e in board] == [0, 1, 2]
    scores = [e["value"] for e in ok(ep, "get_leaderboard", name="high_score", max_results=100)]
    assert scores == sorted(scores, reverse=True)


def test_a_ban_blocks_purchases_and_statistics_until_revoked(ep: Episode) -> None:
    p = player(ep)
    refused(ep, "ban_player", "rule_violation", "reason", player_id=p["id"], reason="  ")
    ban = ok(ep, "ban_player", player_id=p["id"], reason="Cheating", duration_hours=24)
    refused(ep, "ban_player", "conflict", "player_id", player_id=p["id"], reason="Again")
    refused(ep, "update_statistic", "rule_violation", "player_id", player_id=p["id"], name="xp", value=10)
    board = ok(ep, "get_leaderboard", name="xp", max_results=100)
    assert p["id"] not in {e["player_id"] for e in board}
    ok(ep, "revoke_ban", ban_id=ban["id"])
    refused(ep, "revoke_ban", "conflict", "ban_id", ban_id=ban["id"])
    assert ok(ep, "update_statistic", player_id=p["id"], name="xp", value=10)["value"] > 10


def test_display_names_and_item_codes_are_unique(ep: Episode) -> None:
    p = player(ep)
    refused(ep, "create_player", "conflict", "display_name", display_name=p["display_name"])
    refused(
        ep,
        "add_catalog_item",
        "conflict",
        "item_code",
        item_code="sword_iron",
        display_name="Copy",
        item_class="weapon",
    )
    refused(
        ep,
        "add_catalog_item",
        "rule_violation",
        "uses",
        item_code="potion_mana",
        display_name="Mana",
        item_class="consumable",
    )
    made = ok(
        ep,
        "add_catalog_item",
        item_code="potion_mana",
        display_name="Mana",
        item_class="consumable",
        uses=2,
        prices={"GM": 3},
        stackable=True,
    )
    assert made["for_sale"] is True
