"""Secondhand Ledger: intake, markdowns, sales and splits, refunds, payouts, expirations."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CS = ServiceTools("consignment")
WORLD = CS.world
ok, refused, every = CS.ok, CS.refused, CS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def consignor(ep: Episode, **where: Any) -> dict[str, Any]:
    found: dict[str, Any] = every(ep, "list_consignors", **where)[0]
    return found


def intake(ep: Episode, who: dict[str, Any], price: int = 10000, floor: int = 0) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "intake_item",
        consignor_id=who["id"],
        title="Silk scarf",
        category="clothing",
        tag_price_cents=price,
        floor_price_cents=floor,
    )
    return made


def test_consignors_are_consumers_and_balances_match_sales_less_payouts(ep: Episode) -> None:
    emails = {p.email for p in POP.consumers}
    for who in every(ep, "list_consignors"):
        assert who["email"] in emails
        st = ok(ep, "consignor_statement", consignor_id=who["id"])
        assert st["balance_cents"] == st["earned_cents"] - st["paid_cents"] == who["balance_cents"]


def test_a_sale_credits_the_consignors_split(ep: Episode) -> None:
    who = consignor(ep)
    item = intake(ep, who, price=8000)
    sale = ok(ep, "sell_item", item_id=item["id"])
    share = round(8000 * who["split_pct"] / 100)
    assert (sale["consignor_share_cents"], sale["store_share_cents"]) == (share, 8000 - share)
    assert ok(ep, "get_consignor", consignor_id=who["id"])["balance_cents"] == who["balance_cents"] + share
    refused(ep, "sell_item", "rule_violation", "item_id", item_id=item["id"])


def test_sales_never_go_under_the_floor(ep: Episode) -> None:
    item = intake(ep, consignor(ep), price=9000, floor=5000)
    refused(ep, "sell_item", "rule_violation", "price_cents", item_id=item["id"], price_cents=4999)
    refused(ep, "update_item", "rule_violation", "price_cents", item_id=item["id"], price_cents=100)
    assert ok(ep, "sell_item", item_id=item["id"], price_cents=5000)["price_cents"] == 5000


def test_intake_refuses_a_floor_above_the_tag(ep: Episode) -> None:
    who = consignor(ep)
    refused(
        ep,
        "intake_item",
        "rule_violation",
        "floor_price_cents",
        consignor_id=who["id"],
        title="Lamp",
        category="home_decor",
        tag_price_cents=1000,
        floor_price_cents=2000,
    )
    item = intake(ep, who)
    assert item["expires_on"] == (TODAY + dt.timedelta(days=90)).isoformat() and item["price_cents"] == 10000


def test_markdowns_follow_the_schedule_and_stop_at_the_floor(ep: Episode) -> None:
    changed = ok(ep, "apply_markdowns")
    for item in changed:
        age = (TODAY - dt.date.fromisoformat(item["received_on"])).days
        off = max((m["pct_off"] for m in item["markdowns"] if age >= m["after_days"]), default=0)
        assert item["price_cents"] == max(item["floor_price_cents"], round(item["tag_price_cents"] * (100 - off) / 100))
    assert changed and ok(ep, "apply_markdowns") == []


def test_a_markdown_schedule_must_deepen_over_time(ep: Episode) -> None:
    item = intake(ep, consignor(ep))
    refused(
        ep,
        "set_markdowns",
        "rule_violation",
        "markdowns",
        item_id=item["id"],
        markdowns=[{"after_days": 30, "pct_off": 30}, {"after_days": 20, "pct_off": 40}],
    )
    done = ok(ep, "set_markdowns", item_id=item["id"], markdowns=[{"after_days": 1, "pct_off": 10}])
    assert done["price_cents"] == 10000
    old = next(i for i in every(ep, "list_items", status="available") if i["received_on"] < TODAY.isoformat())
    again = ok(ep, "set_markdowns", item_id=old["id"], markdowns=[{"after_days": 1, "pct_off": 10}])
    assert again["price_cents"] == max(old["floor_price_cents"], round(old["tag_price_cents"] * 0.9))


def test_a_refund_reopens_the_item_unless_the_share_was_paid_out(ep: Episode) -> None:
    who = consignor(ep)
    item = intake(ep, who, price=6000)
    sale = ok(ep, "sell_item", item_id=item["id"])
    balance = ok(ep, "get_consignor", consignor_id=who["id"])["balance_cents"]
    ok(ep, "pay_consignor", consignor_id=who["id"], amount_cents=balance, method="ach")
    refused(ep, "refund_sale", "rule_violation", "sale_id", sale_id=sale["id"])
    other = intake(ep, who, price=4000)
    second = ok(ep, "sell_item", item_id=other["id"])
    assert ok(ep, "refund_sale", sale_id=second["id"])["status"] == "refunded"
    assert ok(ep, "get_item", item_id=other["id"])["status"] == "available"
    assert ok(ep, "get_consignor", consignor_id=who["id"])["balance_cents"] == 0
    refused(ep, "refund_sale", "conflict", "sale_id", sale_id=second["id"])


def test_payouts_are_at_most_the_balance(ep: Episode) -> None:
    who = next(c for c in every(ep, "list_consignors") if c["balance_cents"] > 0)
    refused(
        ep,
        "pay_consignor",
        "rule_violation",
        "amount_cents",
        consignor_id=who["id"],
        amount_cents=who["balance_cents"] + 1,
        method="check",
    )
    ok(ep, "pay_consignor", consignor_id=who["id"], amount_cents=who["balance_cents"], method="store_credit")
    assert ok(ep, "get_consignor", consignor_id=who["id"])["balance_cents"] == 0


def test_expired_items_are_returned_or_donated_by_preference(ep: Episode) -> None:
    gone = ok(ep, "process_expired")
    assert gone
    for item in gone:
        who = ok(ep, "get_consignor", consignor_id=item["consignor_id"])
        assert item["status"] == ("returned" if who["expired_items"] == "return" else "donated")
        refused(ep, "sell_item", "rule_violation", "item_id", item_id=item["id"])
    assert ok(ep, "process_expired") == []
    fresh = intake(ep, consignor(ep))
    assert ok(ep, "return_item", item_id=fresh["id"])["status"] == "returned"
    refused(ep, "return_item", "rule_violation", "item_id", item_id=fresh["id"])


def test_consignor_emails_are_unique(ep: Episode) -> None:
    who = consignor(ep)
    refused(ep, "create_consignor", "conflict", "email", name="Twin", email=who["email"])
    made = ok(ep, "create_consignor", name="Ana Diaz", email="ana.diaz@example.org", split_pct=60)
    assert (made["balance_cents"], made["split_pct"]) == (0, 60)
