"""Coinscope: prices agree across tools and currencies; alerts and portfolios keep their rules."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

CG = ServiceTools("cryptodata")
WORLD = CG.world
ok, refused, every = CG.ok, CG.refused, CG.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def test_prices_agree_across_simple_price_markets_chart_and_history(ep: Episode) -> None:
    simple = {
        (p["coin_id"], p["vs_currency"]): p
        for p in ok(ep, "simple_price", ids=["bitcoin", "solana"], vs_currencies=["usd", "eur"])
    }
    markets = {r["id"]: r for r in ok(ep, "coins_markets", per_page=100)}
    chart = ok(ep, "get_market_chart", coin_id="solana", days=30)["points"]
    assert len(chart) == 31
    assert simple[("solana", "usd")]["price"] == markets["solana"]["current_price"] == chart[-1]["price"]
    assert abs(simple[("bitcoin", "eur")]["price"] / simple[("bitcoin", "usd")]["price"] - 0.92) < 1e-4
    past = chart[10]
    hist = ok(ep, "get_coin_history", coin_id="solana", date=past["date"])
    assert hist["current_price"] == past["price"] and hist["total_volume"] == past["total_volume"]
    prev = chart[-2]["price"]
    assert abs(simple[("solana", "usd")]["change_24h_pct"] - 100 * (chart[-1]["price"] - prev) / prev) < 0.01


def test_rank_follows_market_cap_and_coin_details_hold(ep: Episode) -> None:
    rows = ok(ep, "coins_markets", per_page=100)
    assert [r["market_cap_rank"] for r in rows] == list(range(1, len(rows) + 1))
    caps = [r["market_cap"] for r in rows]
    assert caps == sorted(caps, reverse=True)
    btc = ok(ep, "get_coin", coin_id="bitcoin")
    assert btc["market_cap"] == round(btc["current_price"] * btc["circulating_supply"], 2)
    year = ok(ep, "get_market_chart", coin_id="bitcoin", days=365)["points"]
    assert btc["ath"] >= max(p["price"] for p in year) * 0.999
    by_volume = ok(ep, "coins_markets", order="volume_desc", per_page=5)
    assert [r["total_volume"] for r in by_volume] == sorted((r["total_volume"] for r in by_volume), reverse=True)


def test_unknown_coins_and_dates_before_genesis_are_refused(ep: Episode) -> None:
    refused(ep, "get_coin", "not_found", "coin_id", coin_id="btc")
    error = ep.call("cryptodata__get_coin", {"coin_id": "btc"}).error
    assert error is not None and "'bitcoin'" in error.hint
    refused(ep, "simple_price", "not_found", "ids.1", ids=["bitcoin", "notacoin"], vs_currencies=["usd"])
    refused(ep, "get_coin_history", "rule_violation", "date", coin_id="solana", date="2019-01-01")
    refused(ep, "get_coin_history", "rule_violation", "date", coin_id="bitcoin", date="2030-01-01")
    assert ok(ep, "search", query="btc")[0]["id"] == "bitcoin"
    refused(ep, "get_exchange", "not_found", "exchange_id", exchange_id="mtgox")


def test_exchanges_and_global_totals_are_consistent(ep: Episode) -> None:
    exchanges = ok(ep, "list_exchanges")
    vols = [e["trade_volume_24h_btc"] for e in exchanges]
    assert vols == sorted(vols, reverse=True)
    assert all(e["trust_score"] >= 9 for e in ok(ep, "list_exchanges", min_trust_score=9))
    assert ok(ep, "get_exchange", exchange_id="kraken")["name"] == "Kraken"
    glob = ok(ep, "global_market")
    rows = ok(ep, "coins_markets", per_page=100)
    assert glob["active_cryptocurrencies"] == len(rows)
    assert abs(glob["total_market_cap_usd"] - sum(r["market_cap"] for r in rows)) / glob["total_market_cap_usd"] < 1e-3
    assert len(ok(ep, "trending")) == 7


def test_seeded_alerts_and_portfolios_belong_to_staff(ep: Episode) -> None:
    alerts = every(ep, "list_price_alerts")
    assert {a["status"] for a in alerts} == {"active", "paused", "triggered"}
    assert {a["owner_email"] for a in alerts} <= STAFF
    fired = next(a for a in alerts if a["status"] == "triggered")
    assert fired["triggered_at"] and fired["triggered_price"] <= fired["target_price"]
    assert {p["owner_email"] for p in every(ep, "list_portfolios")} <= STAFF


def test_an_alert_target_must_lie_beyond_the_current_price(ep: Episode) -> None:
    owner = POP.employees[-1].email
    price = ok(ep, "simple_price", ids=["ethereum"], vs_currencies=["usd"])[0]["price"]
    refused(
        ep,
        "create_price_alert",
        "rule_violation",
        "target_price",
        owner_email=owner,
        coin_id="ethereum",
        direction="above",
        target_price=price * 0.9,
    )
    refused(
        ep,
        "create_price_alert",
        "rule_violation",
        "target_price",
        owner_email=owner,
        coin_id="ethereum",
        direction="below",
        target_price=price * 1.1,
    )
    alert = ok(
        ep,
        "create_price_alert",
        owner_email=owner,
        coin_id="ethereum",
        direction="above",
        target_price=round(price * 1.1, 2),
    )
    assert alert["status"] == "active"
    refused(
        ep,
        "create_price_alert",
        "conflict",
        "target_price",
        owner_email=owner,
        coin_id="ethereum",
        direction="above",
        target_price=round(price * 1.1, 2),
    )
    refused(
        ep,
        "create_price_alert",
        "rule_violation",
        "owner_email",
        owner_email=POP.contacts[0].email,
        coin_id="ethereum",
        direction="above",
        target_price=price * 2,
    )


def test_checking_fires_crossed_alerts_once_and_leaves_paused_ones(ep: Episode) -> None:
    owner = POP.employees[-1].email
    far = ok(ep, "create_price_alert", owner_email=owner, coin_id="bitcoin", direction="above", target_price=1e8)
    paused = CG.first(ep, "price_alerts", status="paused")
    result = ok(ep, "check_price_alerts")
    assert result["checked"] == len(every(ep, "list_price_alerts", status="active")) + len(result["triggered"])
    fired = result["triggered"]
    assert fired and {a["id"] for a in fired}.isdisjoint({far["id"], paused["id"]})
    for a in fired:
        price = ok(ep, "simple_price", ids=[a["coin_id"]], vs_currencies=[a["vs_currency"]])[0]["price"]
        assert a["status"] == "triggered" and a["triggered_price"] == price
        assert price >= a["target_price"] if a["direction"] == "above" else price <= a["target_price"]
    assert ok(ep, "check_price_alerts")["triggered"] == []
    refused(ep, "resume_price_alert", "rule_violation", "price_alert_id", price_alert_id=far["id"])
    ok(ep, "pause_price_alert", price_alert_id=far["id"])
    assert ok(ep, "resume_price_alert", price_alert_id=far["id"])["status"] == "active"


def test_at_most_ten_alerts_are_active_per_employee(ep: Episode) -> None:
    owner = POP.employees[-1].email
    price = ok(ep, "simple_price", ids=["cardano"], vs_currencies=["usd"])[0]["price"]
    for k in range(10):
        ok(
            ep,
            "create_price_alert",
            owner_email=owner,
            coin_id="cardano",
            direction="above",
            target_price=round(price * (1.1 + k / 10), 4),
        )
    refused(
        ep,
        "create_price_alert",
        "rule_violation",
        "owner_email",
        owner_email=owner,
        coin_id="cardano",
        direction="above",
        target_price=price * 5,
    )


def test_holdings_move_by_transactions_and_a_sell_cannot_exceed_them(ep: Episode) -> None:
    book = CG.first(ep, "portfolios", vs_currency="eur")
    h = ok(ep, "record_transaction", portfolio_id=book["id"], coin_id="solana", side="buy", quantity=10, price=100)
    h = ok(ep, "record_transaction", portfolio_id=book["id"], coin_id="solana", side="buy", quantity=10, price=200)
    assert (h["quantity"], h["cost_basis"], h["transactions"]) == (20, 3000, 2)
    refused(
        ep,
        "record_transaction",
        "rule_violation",
        "quantity",
        portfolio_id=book["id"],
        coin_id="solana",
        side="sell",
        quantity=25,
    )
    h = ok(ep, "record_transaction", portfolio_id=book["id"], coin_id="solana", side="sell", quantity=5)
    assert (h["quantity"], h["cost_basis"]) == (15, 2250)
    value = ok(ep, "get_portfolio_value", portfolio_id=book["id"])
    eur = ok(ep, "simple_price", ids=["solana"], vs_currencies=["eur"])[0]["price"]
    assert value["total_value"] == round(15 * eur, 2) and value["profit_loss"] == round(15 * eur - 2250, 2)
    refused(ep, "update_portfolio", "rule_violation", "vs_currency", portfolio_id=book["id"], vs_currency="usd")
