"""Quantra Brokerage: buying power, fills by session, sell limits, PDT protection, transfers, clock and calendar."""

from __future__ import annotations

from collections import Counter
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BROKER = ServiceTools("brokerage")
WORLD = BROKER.world
ok, refused, every = BROKER.ok, BROKER.refused, BROKER.every
CONSUMERS = {p.email for p in WORLD.population.consumers}


def account(ep: Episode, daytrades: int | None = None, **where: Any) -> dict[str, Any]:
    found = every(ep, "list_accounts", **where)
    return next(a for a in found if daytrades is None or a["daytrade_count"] == daytrades)


def plain(ep: Episode) -> dict[str, Any]:
    """An active cash account that is not a pattern day trader."""
    return account(ep, status="ACTIVE", pattern_day_trader=False)


def price(ep: Episode, symbol: str) -> int:
    return int(every(ep, "list_assets", symbol=symbol)[0]["last_price"])


def test_seeded_accounts_are_consumers_and_positions_match_their_fills(ep: Episode) -> None:
    accts = every(ep, "list_accounts")
    assert {a["email"] for a in accts} <= CONSUMERS
    assert {a["status"] for a in accts} == {"ACTIVE", "ACTION_REQUIRED", "DISABLED", "ACCOUNT_CLOSED"}
    for a in accts:
        bought: Counter[str] = Counter()
        for o in every(ep, "list_orders", account_id=a["id"], side="buy"):
            bought[o["symbol"]] += o["filled_qty"]
        held = {p["symbol"]: p["qty"] for p in every(ep, "list_positions", account_id=a["id"])}
        assert held == {s: q for s, q in bought.items() if q}


def test_a_marketable_extended_hours_limit_buy_fills_and_moves_cash_into_a_position(ep: Episode) -> None:
    assert ok(ep, "get_clock")["session"] == "pre"
    a = plain(ep)
    last = price(ep, "TSLA")
    order = ok(
        ep,
        "submit_order",
        account_id=a["id"],
        symbol="TSLA",
        side="buy",
        qty=3,
        type="limit",
        limit_price=last + 50,
        extended_hours=True,
    )
    assert (order["status"], order["filled_qty"], order["filled_avg_price"]) == ("filled", 3, last)
    assert ok(ep, "get_account", account_id=a["id"])["cash"] == a["cash"] - 3 * last
    pos = every(ep, "list_positions", account_id=a["id"], symbol="TSLA")[0]
    assert (pos["qty"], pos["avg_entry_price"]) == (3, last)


def test_thin_pre_market_books_fill_partially_and_cancel_keeps_the_fill(ep: Episode) -> None:
    a = account(ep, status="ACTIVE", multiplier=4)
    asset = every(ep, "list_assets", symbol="AAPL")[0]
    want = asset["premarket_depth"] + 10
    order = ok(
        ep,
        "submit_order",
        account_id=a["id"],
        symbol="AAPL",
        side="buy",
        qty=want,
        type="limit",
        limit_price=asset["last_price"],
        extended_hours=True,
    )
    assert (order["status"], order["filled_qty"]) == ("partially_filled", asset["premarket_depth"])
    done = ok(ep, "cancel_order", order_id=order["id"])
    assert (done["status"], done["filled_qty"]) == ("canceled", asset["premarket_depth"])
    refused(ep, "cancel_order", "conflict", "order_id", order_id=order["id"])


def test_regular_hours_orders_wait_as_new_before_the_open_and_ioc_fok_cancel(ep: Episode) -> None:
    a = plain(ep)
    market = ok(ep, "submit_order", account_id=a["id"], symbol="KO", side="buy", qty=1)
    assert (market["status"], market["filled_qty"]) == ("new", 0)
    ioc = ok(ep, "submit_order", account_id=a["id"], symbol="KO", side="buy", qty=1, time_in_force="ioc")
    assert ioc["status"] == "canceled" and ioc["filled_qty"] == 0
    fok = ok(
        ep,
        "submit_order",
        account_id=a["id"],
        symbol="KO",
        side="buy",
        qty=2,
        type="limit",
        limit_price=price(ep, "KO"),
        extended_hours=False,
        time_in_force="fok",
    )
    assert (fok["status"], fok["filled_qty"]) == ("canceled", 0)


def test_buys_are_limited_by_buying_power_net_of_open_orders(ep: Episode) -> None:
    a = plain(ep)
    bal = ok(ep, "get_account_balances", account_id=a["id"])
    assert bal["buying_power"] == (a["cash"] - bal["reserved_for_orders"]) * a["multiplier"]
    spy = price(ep, "SPY")
    too_many = bal["buying_power"] // spy + 1
    refused(ep, "submit_order", "rule_violation", "qty", account_id=a["id"], symbol="SPY", side="buy", qty=too_many)
    ok(ep, "submit_order", account_id=a["id"], symbol="SPY", side="buy", qty=too_many - 1)
    after = ok(ep, "get_account_balances", account_id=a["id"])
    assert after["reserved_for_orders"] == bal["reserved_for_orders"] + (too_many - 1) * spy


def test_sells_are_limited_to_free_shares(ep: Episode) -> None:
    a = plain(ep)
    pos = every(ep, "list_positions", account_id=a["id"])[0]
    args = {"account_id": a["id"], "symbol": pos["symbol"], "side": "sell"}
    refused(ep, "submit_order", "rule_violation", "qty", qty=pos["qty"] + 1, **args)
    ok(ep, "submit_order", qty=pos["qty"] - 1, **args)
    refused(ep, "submit_order", "rule_violation", "qty", qty=2, **args)
    closing = ok(ep, "close_position", position_id=pos["id"])
    assert (closing["side"], closing["qty"], closing["type"]) == ("sell", 1, "market")
    refused(ep, "close_position", "rule_violation", "position_id", position_id=pos["id"])


def test_order_types_require_their_prices_and_extended_hours_day_limits(ep: Episode) -> None:
    base = {"account_id": plain(ep)["id"], "symbol": "KO", "side": "buy", "qty": 1}
    refused(ep, "submit_order", "rule_violation", "limit_price", type="limit", **base)
    refused(ep, "submit_order", "rule_violation", "stop_price", type="stop_limit", limit_price=7000, **base)
    refused(ep, "submit_order", "rule_violation", "limit_price", type="market", limit_price=7000, **base)
    refused(ep, "submit_order", "rule_violation", "extended_hours", type="market", extended_hours=True, **base)
    refused(
        ep,
        "submit_order",
        "rule_violation",
        "extended_hours",
        type="limit",
        limit_price=7200,
        extended_hours=True,
        time_in_force="gtc",
        **base,
    )
    refused(ep, "submit_order", "rule_violation", "symbol", **(base | {"symbol": "GME"}))
    ok(ep, "submit_order", client_order_id="mine-1", type="stop", stop_price=9000, **base)
    refused(ep, "submit_order", "conflict", "client_order_id", client_order_id="mine-1", **base)


def test_pattern_day_trader_under_25k_cannot_make_a_fourth_day_trade(ep: Episode) -> None:
    pdt = account(ep, pattern_day_trader=True, daytrades=3)
    assert ok(ep, "get_account_balances", account_id=pdt["id"])["daytrades_left"] == 0
    today = every(ep, "list_positions", account_id=pdt["id"])[0]
    refused(
        ep, "submit_order", "rule_violation", "symbol", account_id=pdt["id"], symbol=today["symbol"], side="sell", qty=1
    )
    other = account(ep, pattern_day_trader=True, daytrades=1)
    pos = every(ep, "list_positions", account_id=other["id"])[0]
    sold = ok(
        ep,
        "submit_order",
        account_id=other["id"],
        symbol=pos["symbol"],
        side="sell",
        qty=1,
        type="limit",
        limit_price=price(ep, pos["symbol"]) - 10,
        extended_hours=True,
    )
    assert sold["status"] == "filled"


def test_only_active_unsuspended_accounts_trade(ep: Episode) -> None:
    for status in ("ACTION_REQUIRED", "DISABLED", "ACCOUNT_CLOSED"):
        a = account(ep, status=status)
        refused(ep, "submit_order", "rule_violation", "account_id", account_id=a["id"], symbol="KO", side="buy", qty=1)
    a = plain(ep)
    ok(ep, "update_account", account_id=a["id"], suspend_trade=True)
    refused(ep, "submit_order", "rule_violation", "account_id", account_id=a["id"], symbol="KO", side="buy", qty=1)
    refused(ep, "update_account", "rule_violation", "multiplier", account_id=a["id"], multiplier=4)


def test_withdrawals_hold_cash_and_deposits_arrive_on_settlement(ep: Episode) -> None:
    a = plain(ep)
    free = a["cash"] - ok(ep, "get_account_balances", account_id=a["id"])["reserved_for_orders"]
    refused(
        ep, "create_transfer", "rule_violation", "amount", account_id=a["id"], direction="OUTGOING", amount=free + 1
    )
    ok(ep, "create_transfer", account_id=a["id"], direction="OUTGOING", amount=10_000)
    assert ok(ep, "get_account", account_id=a["id"])["cash"] == a["cash"] - 10_000
    dep = ok(ep, "create_transfer", account_id=a["id"], direction="INCOMING", amount=50_000)
    assert ok(ep, "get_account", account_id=a["id"])["cash"] == a["cash"] - 10_000
    assert ok(ep, "complete_transfer", transfer_id=dep["id"])["status"] == "COMPLETE"
    assert ok(ep, "get_account", account_id=a["id"])["cash"] == a["cash"] + 40_000
    refused(ep, "complete_transfer", "conflict", "transfer_id", transfer_id=dep["id"])


def test_calendar_skips_weekends_and_nyse_holidays(ep: Episode) -> None:
    days = [d["date"] for d in ok(ep, "get_calendar", start="2026-03-30", end="2026-04-10")]
    assert "2026-04-03" not in days and "2026-04-04" not in days and len(days) == 9
    refused(ep, "get_calendar", "rule_violation", "end", start="2026-04-10", end="2026-03-30")
    clock = ok(ep, "get_clock")
    assert (clock["is_open"], clock["next_open"]) == (False, "2026-03-02T14:30:00Z")


def test_watchlists_take_known_symbols_once_and_unique_names(ep: Episode) -> None:
    a = plain(ep)
    taken = every(ep, "list_watchlists", account_id=a["id"])[0]["name"]
    refused(ep, "create_watchlist", "rule_violation", "symbols", account_id=a["id"], name="X", symbols=["ZZZZ"])
    refused(ep, "create_watchlist", "rule_violation", "symbols", account_id=a["id"], name="X", symbols=["KO", "KO"])
    refused(ep, "create_watchlist", "conflict", "name", account_id=a["id"], name=taken, symbols=["KO"])
    made = ok(ep, "create_watchlist", account_id=a["id"], name="Energy", symbols=["XOM"])
    assert ok(ep, "update_watchlist", watchlist_id=made["id"], symbols=["XOM", "SPY"])["symbols"] == ["XOM", "SPY"]
