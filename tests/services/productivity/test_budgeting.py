"""Envelope Budget: categories required on budget, reconciliation locks, assignments, moving money, schedules."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BG = ServiceTools("budgeting")
WORLD = BG.world
ok, refused, every = BG.ok, BG.refused, BG.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
MONTH = TODAY.replace(day=1).isoformat()


def budget(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_budgets")[0]


def account(ep: Episode, type_: str, **kw: Any) -> dict[str, Any]:
    return every(ep, "list_accounts", budget_id=budget(ep)["id"], type=type_, **kw)[0]


def category(ep: Episode, name: str) -> dict[str, Any]:
    return next(c for c in every(ep, "list_categories", budget_id=budget(ep)["id"]) if c["name"] == name)


def test_seeded_budgets_belong_to_staff_and_spend_at_the_worlds_companies(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    names = {c.name for c in POP.companies}
    assert {b["owner_email"] for b in every(ep, "list_budgets")} <= staff
    spent = [t for t in every(ep, "list_transactions") if t["amount"] < 0 and t["payee_name"] != "Starting Balance"]
    assert spent and all(t["payee_name"] in names for t in spent)
    assert {t["cleared"] for t in spent} == {"uncleared", "cleared", "reconciled"}
    for t in every(ep, "list_transactions", approved=False):
        assert t["category_id"] is None


def test_on_budget_outflows_need_a_category_and_tracking_accounts_take_none(ep: Episode) -> None:
    checking, car = account(ep, "checking"), account(ep, "otherAsset")
    groceries = category(ep, "Groceries")
    refused(ep, "create_transaction", "rule_violation", "category_id", account_id=checking["id"], amount=-500)
    refused(
        ep,
        "create_transaction",
        "rule_violation",
        "category_id",
        account_id=car["id"],
        amount=-500,
        category_id=groceries["id"],
    )
    refused(ep, "create_transaction", "rule_violation", "amount", account_id=checking["id"], amount=0)
    made = ok(
        ep,
        "create_transaction",
        account_id=checking["id"],
        amount=-4599,
        payee_name="Corner Grocer",
        category_id=groceries["id"],
    )
    assert (made["approved"], made["cleared"], made["date"]) == (True, "uncleared", TODAY.isoformat())
    assert any(p["name"] == "Corner Grocer" for p in every(ep, "list_payees", budget_id=budget(ep)["id"]))
    assert ok(ep, "create_transaction", account_id=checking["id"], amount=250000)["category_id"] is None


def test_reconciling_needs_matching_balances_and_locks_what_cleared(ep: Episode) -> None:
    checking = account(ep, "checking")
    bal = ok(ep, "get_account", account_id=checking["id"])
    assert bal["closed"] is False
    txs = every(ep, "list_transactions", account_id=checking["id"])
    cleared = sum(t["amount"] for t in txs if t["cleared"] != "uncleared")
    refused(
        ep,
        "reconcile_account",
        "rule_violation",
        "cleared_balance",
        account_id=checking["id"],
        cleared_balance=cleared + 100,
    )
    res = ok(ep, "reconcile_account", account_id=checking["id"], cleared_balance=cleared + 100, create_adjustment=True)
    assert res["cleared_balance"] == cleared + 100
    locked = every(ep, "list_transactions", account_id=checking["id"], cleared="reconciled")[-1]
    refused(ep, "update_transaction", "rule_violation", "transaction_id", transaction_id=locked["id"], memo="x")
    refused(ep, "delete_transaction", "rule_violation", "transaction_id", transaction_id=locked["id"])


def test_imported_transactions_are_categorized_approved_and_cleared(ep: Episode) -> None:
    tx = every(ep, "list_transactions", budget_id=budget(ep)["id"], approved=False)[0]
    dining = category(ep, "Dining out")
    done = ok(ep, "update_transaction", transaction_id=tx["id"], category_id=dining["id"])
    assert done["category_id"] == dining["id"]
    assert ok(ep, "approve_transaction", transaction_id=tx["id"])["approved"] is True
    assert ok(ep, "clear_transaction", transaction_id=tx["id"])["cleared"] == "cleared"
    refused(ep, "clear_transaction", "rule_violation", "transaction_id", transaction_id=tx["id"])


def test_an_account_closes_only_at_zero_and_then_takes_nothing(ep: Episode) -> None:
    refused(ep, "close_account", "rule_violation", "account_id", account_id=account(ep, "checking")["id"])
    wallet = account(ep, "cash")
    ok(ep, "close_account", account_id=wallet["id"])
    refused(ep, "create_transaction", "rule_violation", "account_id", account_id=wallet["id"], amount=100)
    ok(ep, "reopen_account", account_id=wallet["id"])
    assert ok(ep, "create_transaction", account_id=wallet["id"], amount=100)["amount"] == 100


def test_assigning_sets_the_month_and_shows_goal_progress(ep: Episode) -> None:
    rent = category(ep, "Rent")
    got = ok(ep, "assign_to_category", category_id=rent["id"], month=MONTH, budgeted=100000)
    assert (got["budgeted"], got["goal_under_funded"]) == (100000, rent["goal_target"] - 100000)
    full = ok(ep, "assign_to_category", category_id=rent["id"], month=MONTH, budgeted=rent["goal_target"])
    assert full["goal_under_funded"] == 0
    far = (TODAY + dt.timedelta(days=500)).isoformat()
    refused(ep, "assign_to_category", "rule_violation", "month", category_id=rent["id"], month=far, budgeted=1)
    ok(ep, "update_category", category_id=rent["id"], hidden=True)
    refused(ep, "assign_to_category", "rule_violation", "category_id", category_id=rent["id"], month=MONTH, budgeted=1)


def test_ready_to_assign_falls_as_money_is_assigned(ep: Episode) -> None:
    b = budget(ep)
    before = ok(ep, "month_summary", budget_id=b["id"])
    vacation = category(ep, "Vacation")
    current = next(c for c in before["categories"] if c["category_id"] == vacation["id"])["budgeted"]
    ok(ep, "assign_to_category", category_id=vacation["id"], month=MONTH, budgeted=current + 5000)
    after = ok(ep, "month_summary", budget_id=b["id"], month=MONTH)
    assert after["to_be_budgeted"] == before["to_be_budgeted"] - 5000
    assert after["budgeted"] == before["budgeted"] + 5000


def test_money_moves_only_up_to_what_is_available(ep: Episode) -> None:
    src, dst = category(ep, "Internet"), category(ep, "Dining out")
    month = ok(ep, "month_summary", budget_id=budget(ep)["id"])
    have = next(c for c in month["categories"] if c["category_id"] == src["id"])["balance"]
    assert have > 0
    refused(
        ep,
        "move_money",
        "rule_violation",
        "amount",
        from_category_id=src["id"],
        to_category_id=dst["id"],
        month=MONTH,
        amount=have + 1,
    )
    refused(
        ep,
        "move_money",
        "rule_violation",
        "to_category_id",
        from_category_id=src["id"],
        to_category_id=src["id"],
        month=MONTH,
        amount=1,
    )
    moved = ok(ep, "move_money", from_category_id=src["id"], to_category_id=dst["id"], month=MONTH, amount=have)
    assert moved[0]["balance"] == 0


def test_schedules_start_in_the_future_and_advance_when_entered(ep: Episode) -> None:
    checking, rent = account(ep, "checking"), category(ep, "Rent")
    args = {"account_id": checking["id"], "amount": -1599, "payee_name": "Streamflix", "category_id": rent["id"]}
    refused(ep, "create_scheduled_transaction", "rule_violation", "date_next", date_next=TODAY.isoformat(), **args)
    sch = ok(
        ep,
        "create_scheduled_transaction",
        date_next=(TODAY + dt.timedelta(days=31)).isoformat(),
        frequency="weekly",
        **args,
    )
    tx = ok(ep, "enter_scheduled_transaction", scheduled_transaction_id=sch["id"])
    assert (tx["amount"], tx["date"], tx["category_id"]) == (-1599, TODAY.isoformat(), rent["id"])
    again = next(s for s in every(ep, "list_scheduled_transactions") if s["id"] == sch["id"])
    assert again["date_next"] == (TODAY + dt.timedelta(days=38)).isoformat()


def test_account_names_are_unique_and_starting_balances_are_income(ep: Episode) -> None:
    b = budget(ep)
    refused(ep, "create_account", "conflict", "name", budget_id=b["id"], name="Checking", type="checking")
    before = ok(ep, "month_summary", budget_id=b["id"])["income"]
    made = ok(ep, "create_account", budget_id=b["id"], name="Bonus", type="savings", balance=70000)
    assert made["on_budget"] is True
    assert ok(ep, "month_summary", budget_id=b["id"])["income"] == before + 70000
    assert ok(ep, "create_account", budget_id=b["id"], name="House", type="otherAsset")["on_budget"] is False
