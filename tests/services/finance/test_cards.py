"""Ridgeway Cards: spend limits, blocked categories, tips, refunds, receipts and card lifecycle."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services import helpers
from tests.services.helpers import ServiceTools, service_world

CARDS = ServiceTools("cards")
WORLD = CARDS.world
ok, refused, every = CARDS.ok, CARDS.refused, CARDS.every
POP = WORLD.population
RECEIPT = "https://files.example.com/card-receipts/new-1.pdf"


def monthly_card(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_cards", status="active", limit_period="monthly", card_type="virtual")[0]


def buy(ep: Episode, card: dict[str, Any], amount: int, category: str = "office_supplies") -> dict[str, Any]:
    return dict(
        ok(ep, "authorize_purchase", card_id=card["id"], merchant="Desk Depot", category=category, amount=amount)
    )


def allowed_category(card: dict[str, Any]) -> str:
    return next(
        c for c in ("office_supplies", "restaurants", "software", "other") if c not in card["blocked_categories"]
    )


def test_cardholders_are_the_staff_with_the_expense_services_managers() -> None:
    ep = Episode(service_world("cards", "expenses"))
    holders = helpers.ok(ep, "cards__list_cardholders", limit=100)["items"]
    employees = {e["email"]: e for e in helpers.ok(ep, "expenses__list_employees", limit=100)["items"]}
    assert {h["email"] for h in holders} == set(employees) == {p.email for p in POP.employees}
    for h in holders:
        assert h["manager_email"] == employees[h["email"]]["manager_email"]


def test_seeded_spend_is_the_sum_of_each_cards_purchases() -> None:
    ep = Episode(WORLD)
    txs = every(ep, "list_card_transactions")
    for card in every(ep, "list_cards"):
        assert card["spent"] == sum(t["amount"] - t["refunded_amount"] for t in txs if t["card_id"] == card["id"])
        assert {"gambling", "cash_advance"} <= set(card["blocked_categories"])
        assert (card["card_type"] == "physical") == (card["shipping_address"] is not None)
    assert {c["status"] for c in every(ep, "list_cards")} == {"active", "locked", "terminated"}


def test_issuing_cards_checks_the_holder_and_the_physical_card_rules(ep: Episode) -> None:
    holder = every(ep, "list_cardholders", status="active")[0]
    card = ok(
        ep,
        "issue_card",
        cardholder_id=holder["id"],
        card_name="Offsite",
        card_type="virtual",
        spend_limit=900_00,
        blocked_categories=["airlines"],
    )
    assert card["blocked_categories"] == ["gambling", "cash_advance", "airlines"]
    assert card["cardholder_email"] == holder["email"] and card["spent"] == 0
    refused(
        ep,
        "issue_card",
        "rule_violation",
        "shipping_address",
        cardholder_id=holder["id"],
        card_name="Plastic",
        card_type="physical",
        spend_limit=100_00,
    )
    physical = every(ep, "list_cards", card_type="physical", status="active")[0]
    person = next(p for p in POP.employees if p.email == physical["cardholder_email"])
    refused(
        ep,
        "issue_card",
        "conflict",
        "card_type",
        cardholder_id=physical["cardholder_id"],
        card_name="Second",
        card_type="physical",
        spend_limit=100_00,
        shipping_address=person.address.model_dump(),
    )
    disabled = every(ep, "list_cardholders", status="disabled")[0]
    refused(
        ep,
        "issue_card",
        "rule_violation",
        "cardholder_id",
        cardholder_id=disabled["id"],
        card_name="X",
        card_type="virtual",
        spend_limit=100_00,
    )


def test_a_purchase_counts_against_the_limit_and_is_declined_above_it(ep: Episode) -> None:
    card = monthly_card(ep)
    category = allowed_category(card)
    left = card["spend_limit"] - card["spent"]
    tx = buy(ep, card, 1_000, category)
    assert (tx["status"], tx["cardholder_email"]) == ("pending", card["cardholder_email"])
    assert ok(ep, "get_card", card_id=card["id"])["spent"] == card["spent"] + 1_000
    msg = refused(
        ep,
        "authorize_purchase",
        "rule_violation",
        "amount",
        card_id=card["id"],
        merchant="Desk Depot",
        category=category,
        amount=left - 1_000 + 1,
    )
    assert "declined" in msg
    buy(ep, card, left - 1_000, category)


def test_blocked_categories_and_locked_cards_decline(ep: Episode) -> None:
    card = monthly_card(ep)
    refused(
        ep,
        "authorize_purchase",
        "rule_violation",
        "category",
        card_id=card["id"],
        merchant="Lucky Casino",
        category="gambling",
        amount=100,
    )
    locked = every(ep, "list_cards", status="locked")[0]
    refused(
        ep,
        "authorize_purchase",
        "rule_violation",
        "card_id",
        card_id=locked["id"],
        merchant="Desk Depot",
        category=allowed_category(locked),
        amount=100,
    )
    refused(
        ep, "update_card", "rule_violation", "blocked_categories", card_id=card["id"], blocked_categories=["airlines"]
    )


def test_a_per_transaction_limit_caps_each_purchase(ep: Episode) -> None:
    card = every(ep, "list_cards", status="active", limit_period="per_transaction")[0]
    category = allowed_category(card)
    buy(ep, card, card["spend_limit"], category)
    buy(ep, card, card["spend_limit"], category)
    refused(
        ep,
        "authorize_purchase",
        "rule_violation",
        "amount",
        card_id=card["id"],
        merchant="Cafe Lumen",
        category=category,
        amount=card["spend_limit"] + 1,
    )


def test_a_tip_settles_within_twenty_percent(ep: Episode) -> None:
    card = monthly_card(ep)
    tx = buy(ep, card, 50_00, allowed_category(card))
    refused(
        ep, "settle_transaction", "rule_violation", "final_amount", card_transaction_id=tx["id"], final_amount=60_01
    )
    settled = ok(ep, "settle_transaction", card_transaction_id=tx["id"], final_amount=59_00)
    assert (settled["status"], settled["amount"]) == ("settled", 59_00)
    assert ok(ep, "get_card", card_id=card["id"])["spent"] == card["spent"] + 59_00
    refused(ep, "settle_transaction", "rule_violation", "card_transaction_id", card_transaction_id=tx["id"])


def test_refunds_free_the_limit_and_never_exceed_the_charge(ep: Episode) -> None:
    tx = every(ep, "list_card_transactions", status="settled")[0]
    card = ok(ep, "get_card", card_id=tx["card_id"])
    left = tx["amount"] - tx["refunded_amount"]
    refused(ep, "refund_transaction", "rule_violation", "amount", card_transaction_id=tx["id"], amount=left + 1)
    ok(ep, "refund_transaction", card_transaction_id=tx["id"], amount=1)
    done = ok(ep, "refund_transaction", card_transaction_id=tx["id"])
    assert (done["status"], done["refunded_amount"]) == ("refunded", tx["amount"])
    assert ok(ep, "get_card", card_id=card["id"])["spent"] == card["spent"] - left
    pending = every(ep, "list_card_transactions", status="pending")[0]
    refused(ep, "refund_transaction", "rule_violation", "card_transaction_id", card_transaction_id=pending["id"])


def test_a_limit_cannot_drop_below_what_was_spent(ep: Episode) -> None:
    card = next(c for c in every(ep, "list_cards", status="active", limit_period="monthly") if c["spent"] > 0)
    refused(ep, "set_spend_limit", "rule_violation", "spend_limit", card_id=card["id"], spend_limit=card["spent"] - 1)
    changed = ok(ep, "set_spend_limit", card_id=card["id"], spend_limit=card["spent"], limit_period="yearly")
    assert (changed["spend_limit"], changed["limit_period"]) == (card["spent"], "yearly")


def test_a_terminated_card_is_final_and_holders_with_cards_stay_enabled(ep: Episode) -> None:
    card = monthly_card(ep)
    ok(ep, "terminate_card", card_id=card["id"])
    refused(ep, "unlock_card", "rule_violation", "card_id", card_id=card["id"])
    refused(ep, "update_card", "rule_violation", "card_id", card_id=card["id"], card_name="Again")
    refused(ep, "set_spend_limit", "rule_violation", "card_id", card_id=card["id"], spend_limit=100)
    holder = next(
        h
        for h in every(ep, "list_cardholders", status="active")
        if any(c["status"] != "terminated" for c in every(ep, "list_cards", cardholder_id=h["id"]))
    )
    refused(ep, "update_cardholder", "rule_violation", "status", cardholder_id=holder["id"], status="disabled")


def test_missing_receipts_lists_purchases_above_the_threshold_until_one_is_attached(ep: Episode) -> None:
    tx = next(
        t
        for t in every(ep, "list_card_transactions", status="settled")
        if t["receipt_url"] is None and t["amount"] > 75_00
    )
    report = ok(ep, "missing_receipts", cardholder_email=tx["cardholder_email"])
    assert tx["id"] in {t["id"] for t in report["transactions"]}
    assert report["total"] == sum(t["amount"] for t in report["transactions"])
    assert all(t["amount"] > 75_00 and t["receipt_url"] is None for t in report["transactions"])
    ok(ep, "attach_receipt", card_transaction_id=tx["id"], receipt_url=RECEIPT)
    after = ok(ep, "missing_receipts", cardholder_email=tx["cardholder_email"])
    assert tx["id"] not in {t["id"] for t in after["transactions"]}
    other = next(t for t in every(ep, "list_card_transactions") if t["id"] != tx["id"])
    refused(ep, "attach_receipt", "conflict", "receipt_url", card_transaction_id=other["id"], receipt_url=RECEIPT)


def test_the_spend_summary_adds_up_the_holders_cards(ep: Episode) -> None:
    card = monthly_card(ep)
    summary = ok(ep, "spend_summary", cardholder_email=card["cardholder_email"])
    mine = every(ep, "list_cards", cardholder_email=card["cardholder_email"])
    assert summary["total_spent"] == sum(c["spent"] for c in mine)
    row = next(r for r in summary["cards"] if r["card_id"] == card["id"])
    assert row["remaining"] == card["spend_limit"] - card["spent"]
    refused(ep, "spend_summary", "rule_violation", "cardholder_email", cardholder_email="nobody@example.com")
