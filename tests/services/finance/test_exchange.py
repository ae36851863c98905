"""Coinvault Exchange: holds, fills and fees, order rules, post-only, withdrawals with allow-list and two people."""

from __future__ import annotations

from typing import Any

import pytest

from compoworld import Episode
from tests.services.helpers import ServiceTools

EXCH = ServiceTools("exchange")
WORLD = EXCH.world
ok, refused, every = EXCH.ok, EXCH.refused, EXCH.every
STAFF = [p.email for p in WORLD.population.employees]


def desk(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_profiles", is_default=True)[0]


def product(ep: Episode, symbol: str) -> dict[str, Any]:
    return every(ep, "list_products", symbol=symbol)[0]


def acct(ep: Episode, profile_id: str, currency: str) -> dict[str, Any]:
    return every(ep, "list_accounts", profile_id=profile_id, currency=currency)[0]


def test_seeded_holds_match_open_orders_and_pending_withdrawals(ep: Episode) -> None:
    assert {p["owner_email"] for p in every(ep, "list_profiles")} <= set(STAFF)
    for a in every(ep, "list_accounts"):
        active = every(ep, "list_holds", account_id=a["id"], active=True)
        assert a["hold"] == pytest.approx(sum(h["amount"] for h in active))
        assert a["available"] == pytest.approx(a["balance"] - a["hold"])
    for h in every(ep, "list_holds", active=True):
        ref = ok(ep, "get_order", order_id=h["ref"]) if h["type"] == "order" else None
        if ref is not None:
            assert ref["status"] == "open"
        else:
            assert ok(ep, "get_transfer", transfer_id=h["ref"])["status"] == "pending_confirmation"
    assert {p["status"] for p in every(ep, "list_products")} == {"online", "limit_only", "cancel_only"}


def test_a_marketable_buy_fills_as_taker_and_moves_both_balances(ep: Episode) -> None:
    prof, eth = desk(ep), product(ep, "ETH-USD")
    usd, coin = acct(ep, prof["id"], "USD"), acct(ep, prof["id"], "ETH")
    order = ok(ep, "place_order", profile_id=prof["id"], product_id=eth["id"], side="buy", size=2.0, type="market")
    assert (order["status"], order["done_reason"], order["filled_size"]) == ("done", "filled", 2.0)
    value = 2.0 * eth["last_price"]
    assert order["fill_fees"] == pytest.approx(round(value * 0.006, 2))
    assert acct(ep, prof["id"], "USD")["balance"] == pytest.approx(usd["balance"] - value - order["fill_fees"])
    assert acct(ep, prof["id"], "ETH")["balance"] == pytest.approx(coin["balance"] + 2.0)
    fill = every(ep, "list_fills", order_id=order["id"])
    assert [(f["liquidity"], f["size"]) for f in fill] == [("T", 2.0)]


def test_a_resting_limit_order_holds_funds_until_canceled(ep: Episode) -> None:
    prof, btc = desk(ep), product(ep, "BTC-USD")
    before = acct(ep, prof["id"], "USD")
    order = ok(ep, "place_order", profile_id=prof["id"], product_id=btc["id"], side="buy", size=0.1, price=50000.0)
    assert order["status"] == "open" and order["filled_size"] == 0
    held = round(0.1 * 50000.0 * 1.006, 2)
    assert acct(ep, prof["id"], "USD")["available"] == pytest.approx(before["available"] - held)
    assert ok(ep, "cancel_order", order_id=order["id"])["done_reason"] == "canceled"
    assert acct(ep, prof["id"], "USD")["available"] == pytest.approx(before["available"])
    assert not every(ep, "list_holds", ref=order["id"], active=True)
    refused(ep, "cancel_order", "conflict", "order_id", order_id=order["id"])


def test_book_depth_limits_fills_the_rest_rests_or_is_canceled(ep: Episode) -> None:
    prof, btc = desk(ep), product(ep, "BTC-USD")
    base = {"profile_id": prof["id"], "product_id": btc["id"], "side": "sell", "size": 3.0, "price": 60000.0}
    refused(ep, "place_order", "rule_violation", "size", **(base | {"size": 3.5}))
    fok = ok(ep, "place_order", time_in_force="FOK", **(base | {"size": 2.6}))
    assert (fok["done_reason"], fok["filled_size"]) == ("canceled", 0)
    ioc = ok(ep, "place_order", time_in_force="IOC", **(base | {"size": 2.6}))
    assert (ioc["done_reason"], ioc["filled_size"]) == ("canceled", btc["book_depth"])
    assert acct(ep, prof["id"], "BTC")["balance"] == pytest.approx(3.0 - btc["book_depth"])


def test_post_only_orders_that_would_cross_are_rejected(ep: Episode) -> None:
    prof, sol = desk(ep), product(ep, "SOL-USD")
    args = {"profile_id": prof["id"], "product_id": sol["id"], "side": "buy", "size": 10.0, "post_only": True}
    crossing = ok(ep, "place_order", price=sol["last_price"] + 1, **args)
    assert (crossing["status"], crossing["reject_reason"], crossing["filled_size"]) == ("rejected", "post only", 0)
    resting = ok(ep, "place_order", price=sol["last_price"] - 5, **args)
    assert resting["status"] == "open"
    refused(ep, "place_order", "rule_violation", "post_only", price=100.0, time_in_force="IOC", **args)


def test_orders_respect_sizes_increments_prices_status_and_funds(ep: Episode) -> None:
    prof = desk(ep)
    sol, doge, ethbtc = product(ep, "SOL-USD"), product(ep, "DOGE-USD"), product(ep, "ETH-BTC")
    args = {"profile_id": prof["id"], "side": "buy"}
    refused(ep, "place_order", "rule_violation", "size", product_id=sol["id"], size=0.001, price=100.0, **args)
    refused(ep, "place_order", "rule_violation", "size", product_id=sol["id"], size=1.0005, price=100.0, **args)
    refused(ep, "place_order", "rule_violation", "price", product_id=sol["id"], size=1.0, price=100.001, **args)
    refused(ep, "place_order", "rule_violation", "price", product_id=sol["id"], size=1.0, **args)
    refused(ep, "place_order", "rule_violation", "product_id", product_id=doge["id"], size=10.0, price=0.1, **args)
    refused(ep, "place_order", "rule_violation", "type", product_id=ethbtc["id"], size=1.0, type="market", **args)
    refused(ep, "place_order", "rule_violation", "size", product_id=sol["id"], size=5000.0, price=140.0, **args)
    ok(ep, "place_order", product_id=sol["id"], size=1.0, price=140.0, client_oid="mine", **args)
    refused(
        ep,
        "place_order",
        "conflict",
        "client_oid",
        product_id=sol["id"],
        size=1.0,
        price=140.0,
        client_oid="mine",
        **args,
    )


def test_withdrawals_need_an_active_allow_listed_address_and_available_funds(ep: Episode) -> None:
    fresh = every(ep, "list_addresses", currency="SOL")[0]
    refused(
        ep,
        "withdraw_to_address",
        "rule_violation",
        "address_id",
        address_id=fresh["id"],
        amount=1.0,
        requested_by=STAFF[0],
    )
    eth = every(ep, "list_addresses", currency="ETH")[0]
    free = acct(ep, eth["profile_id"], "ETH")["available"]
    refused(
        ep,
        "withdraw_to_address",
        "rule_violation",
        "amount",
        address_id=eth["id"],
        amount=free + 1,
        requested_by=STAFF[0],
    )
    refused(
        ep,
        "withdraw_to_address",
        "rule_violation",
        "requested_by",
        address_id=eth["id"],
        amount=1.0,
        requested_by="x@y.io",
    )
    made = ok(ep, "withdraw_to_address", address_id=eth["id"], amount=2.0, requested_by=STAFF[0])
    assert made["status"] == "pending_confirmation"
    assert acct(ep, eth["profile_id"], "ETH")["available"] == pytest.approx(free - 2.0)


def test_a_withdrawal_needs_a_second_employee_to_confirm(ep: Episode) -> None:
    xfer = every(ep, "list_transfers", status="pending_confirmation")[0]
    before = acct(ep, xfer["profile_id"], xfer["currency"])
    refused(
        ep,
        "confirm_withdrawal",
        "rule_violation",
        "confirmed_by",
        transfer_id=xfer["id"],
        confirmed_by=xfer["requested_by"],
    )
    other = next(e for e in STAFF if e != xfer["requested_by"])
    done = ok(ep, "confirm_withdrawal", transfer_id=xfer["id"], confirmed_by=other)
    assert (done["status"], done["confirmed_by"]) == ("processing", other)
    after = acct(ep, xfer["profile_id"], xfer["currency"])
    assert after["balance"] == pytest.approx(before["balance"] - xfer["amount"])
    assert after["available"] == pytest.approx(before["available"])
    refused(ep, "cancel_withdrawal", "conflict", "transfer_id", transfer_id=xfer["id"])


def test_canceling_a_withdrawal_releases_its_hold_and_frees_the_address(ep: Episode) -> None:
    xfer = every(ep, "list_transfers", status="pending_confirmation")[0]
    refused(ep, "delete_address", "conflict", "address_id", address_id=xfer["address_id"])
    before = acct(ep, xfer["profile_id"], xfer["currency"])
    assert ok(ep, "cancel_withdrawal", transfer_id=xfer["id"])["status"] == "canceled"
    assert acct(ep, xfer["profile_id"], xfer["currency"])["available"] == pytest.approx(
        before["available"] + xfer["amount"]
    )
    ok(ep, "delete_address", address_id=xfer["address_id"])


def test_new_addresses_wait_48_hours_and_are_unique(ep: Episode) -> None:
    prof = desk(ep)
    args = {"profile_id": prof["id"], "label": "Fireblocks vault", "added_by": STAFF[1]}
    refused(ep, "add_address", "rule_violation", "currency", currency="USD", address="A" * 30, **args)
    known = every(ep, "list_addresses", currency="BTC")[0]["address"]
    refused(ep, "add_address", "conflict", "address", currency="BTC", address=known, **args)
    made = ok(ep, "add_address", currency="BTC", address="bc1q" + "9" * 38, **args)
    assert made["active_at"] == "2026-03-04T09:00:00Z"
    refused(
        ep,
        "withdraw_to_address",
        "rule_violation",
        "address_id",
        address_id=made["id"],
        amount=0.1,
        requested_by=STAFF[1],
    )


def test_bank_deposits_credit_usd_at_once(ep: Episode) -> None:
    prof = desk(ep)
    before = acct(ep, prof["id"], "USD")["balance"]
    refused(ep, "deposit_from_bank", "rule_violation", "amount", profile_id=prof["id"], amount=5.0)
    dep = ok(ep, "deposit_from_bank", profile_id=prof["id"], amount=1234.56)
    assert (dep["type"], dep["status"]) == ("deposit", "completed")
    assert acct(ep, prof["id"], "USD")["balance"] == pytest.approx(before + 1234.56)
