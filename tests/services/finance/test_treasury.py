"""Tidemark Treasury: dual approval, releases moving balances and positions, intercompany rules, fees, forecasts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world import finance as links
from tests.services.helpers import ServiceTools

TR = ServiceTools("treasury")
WORLD = TR.world
ok, refused, every = TR.ok, TR.refused, TR.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def user(ep: Episode, role: str, n: int = 0) -> str:
    return str(every(ep, "list_users", role=role)[n]["email"])


def account(ep: Episode, name: str) -> dict[str, Any]:
    return next(a for a in every(ep, "list_bank_accounts") if a["name"] == name)


def pay(ep: Episode, acct: dict[str, Any], amount: int, ref: str = "INV-90001") -> dict[str, Any]:
    sup = links.suppliers(POP)[0]
    args = {"beneficiary_name": sup.company.name, "beneficiary_account": sup.remit_account, "reference": ref}
    made = ok(
        ep,
        "create_payment",
        from_account_id=acct["id"],
        amount=amount,
        value_date=TODAY.isoformat(),
        initiated_by=user(ep, "analyst"),
        **args,
    )
    assert made["status"] == "draft"
    return dict(ok(ep, "submit_payment", payment_id=made["id"]))


def test_seeding_matches_the_bank_the_suppliers_and_the_staff(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    assert {u["email"] for u in every(ep, "list_users")} <= staff
    assert account(ep, "US Operating")["account_number"] == links.home_account_number(POP, "operating")
    assert account(ep, "US Payroll")["account_number"] == links.home_account_number(POP, "payroll")
    remit = {s.company.name: s.remit_account for s in links.suppliers(POP)}
    vendor = every(ep, "list_payments", kind="vendor")
    assert all(remit[p["beneficiary_name"]] == p["beneficiary_account"] for p in vendor)
    assert {p["status"] for p in vendor} == {
        "draft",
        "pending_approval",
        "approved",
        "released",
        "rejected",
        "cancelled",
    }
    for a in every(ep, "list_bank_accounts"):
        held = sum(p["amount"] for p in every(ep, "list_payments", from_account_id=a["id"], status="approved"))
        assert a["available_balance"] == a["ledger_balance"] - held


def test_large_payments_need_two_different_approvers_other_than_the_initiator(ep: Episode) -> None:
    acct = account(ep, "US Operating")
    p = pay(ep, acct, 30_000_00)
    assert p["required_approvals"] == 2
    refused(
        ep, "approve_payment", "rule_violation", "approver_email", payment_id=p["id"], approver_email=p["initiated_by"]
    )
    refused(
        ep, "approve_payment", "rule_violation", "approver_email", payment_id=p["id"], approver_email=user(ep, "viewer")
    )
    refused(ep, "approve_payment", "not_found", "approver_email", payment_id=p["id"], approver_email="x@nowhere.io")
    first = ok(ep, "approve_payment", payment_id=p["id"], approver_email=user(ep, "approver", 0))
    assert (first["status"], len(first["approvals"])) == ("pending_approval", 1)
    assert ok(ep, "get_bank_account", bank_account_id=acct["id"])["available_balance"] == acct["available_balance"]
    refused(
        ep, "approve_payment", "conflict", "approver_email", payment_id=p["id"], approver_email=user(ep, "approver")
    )
    done = ok(ep, "approve_payment", payment_id=p["id"], approver_email=user(ep, "treasurer"))
    assert done["status"] == "approved"
    after = ok(ep, "get_bank_account", bank_account_id=acct["id"])
    assert after["available_balance"] == acct["available_balance"] - 30_000_00


def test_small_payments_need_one_approval_and_only_submitted_ones_are_approved(ep: Episode) -> None:
    acct = account(ep, "US Operating")
    draft = every(ep, "list_payments", status="draft")[0]
    refused(
        ep,
        "approve_payment",
        "rule_violation",
        "payment_id",
        payment_id=draft["id"],
        approver_email=user(ep, "approver"),
    )
    p = pay(ep, acct, 24_999_99)
    assert p["required_approvals"] == 1
    assert ok(ep, "approve_payment", payment_id=p["id"], approver_email=user(ep, "approver"))["status"] == "approved"
    refused(ep, "cancel_payment", "rule_violation", "payment_id", payment_id=p["id"])


def test_releasing_posts_the_payment_and_moves_todays_position(ep: Episode) -> None:
    approved = every(ep, "list_payments", status="approved")[0]
    acct = ok(ep, "get_bank_account", bank_account_id=approved["from_account_id"])
    pending = every(ep, "list_payments", status="pending_approval")[0]
    refused(ep, "release_payment", "rule_violation", "payment_id", payment_id=pending["id"])
    done = ok(ep, "release_payment", payment_id=approved["id"])
    assert (done["status"], done["released_on"]) == ("released", TODAY.isoformat())
    after = ok(ep, "get_bank_account", bank_account_id=acct["id"])
    assert after["ledger_balance"] == acct["ledger_balance"] - approved["amount"]
    assert after["available_balance"] == acct["available_balance"]
    [pos] = every(ep, "list_cash_positions", account_id=acct["id"], date=TODAY.isoformat())
    assert (pos["source"], pos["outflows"], pos["closing_balance"]) == (
        "intraday_mt942",
        approved["amount"],
        after["ledger_balance"],
    )
    refused(ep, "release_payment", "rule_violation", "payment_id", payment_id=approved["id"])


def test_intercompany_transfers_cross_entities_in_one_currency_and_credit_the_other_side(ep: Episode) -> None:
    conc, payroll = account(ep, "US Concentration"), account(ep, "US Payroll")
    uk_gbp, uk_usd = account(ep, "UK Operating"), account(ep, "UK USD Collections")
    base = {"from_account_id": conc["id"], "amount": 5_000_00, "value_date": TODAY.isoformat()}
    who = user(ep, "treasurer")
    refused(
        ep,
        "create_intercompany_transfer",
        "rule_violation",
        "to_account_id",
        to_account_id=payroll["id"],
        initiated_by=who,
        **base,
    )
    refused(
        ep,
        "create_intercompany_transfer",
        "rule_violation",
        "to_account_id",
        to_account_id=uk_gbp["id"],
        initiated_by=who,
        **base,
    )
    refused(
        ep,
        "create_intercompany_transfer",
        "rule_violation",
        "initiated_by",
        to_account_id=uk_usd["id"],
        initiated_by=user(ep, "approver"),
        **base,
    )
    t = ok(ep, "create_intercompany_transfer", to_account_id=uk_usd["id"], initiated_by=who, **base)
    ok(ep, "submit_payment", payment_id=t["id"])
    ok(ep, "approve_payment", payment_id=t["id"], approver_email=user(ep, "approver"))
    ok(ep, "release_payment", payment_id=t["id"])
    got = ok(ep, "get_bank_account", bank_account_id=uk_usd["id"])
    assert (got["ledger_balance"], got["available_balance"]) == (
        uk_usd["ledger_balance"] + 5_000_00,
        uk_usd["available_balance"] + 5_000_00,
    )


def test_an_approval_cannot_overdraw_the_available_balance(ep: Episode) -> None:
    acct = account(ep, "UK USD Collections")
    p = pay(ep, acct, acct["available_balance"] + 1)
    refused(
        ep, "approve_payment", "rule_violation", "payment_id", payment_id=p["id"], approver_email=user(ep, "approver")
    )
    assert ok(ep, "reject_payment", payment_id=p["id"], reason="Insufficient funds")["status"] == "rejected"


def test_a_reference_is_paid_once_and_payments_are_not_backdated(ep: Episode) -> None:
    acct = account(ep, "US Operating")
    p = pay(ep, acct, 1_000_00, ref="INV-55501")
    sup = links.suppliers(POP)[0]
    args = {
        "from_account_id": acct["id"],
        "beneficiary_name": sup.company.name,
        "beneficiary_account": sup.remit_account,
        "amount": 1_000_00,
        "initiated_by": user(ep, "analyst"),
    }
    refused(ep, "create_payment", "conflict", "reference", reference="INV-55501", value_date=TODAY.isoformat(), **args)
    yesterday = (TODAY - dt.timedelta(days=1)).isoformat()
    refused(ep, "create_payment", "rule_violation", "value_date", reference="INV-55502", value_date=yesterday, **args)
    ok(ep, "cancel_payment", payment_id=p["id"])
    ok(ep, "create_payment", reference="INV-55501", value_date=TODAY.isoformat(), **args)


def test_an_account_closes_only_empty_and_idle(ep: Episode) -> None:
    dormant, uk = account(ep, "DE Dormant"), account(ep, "UK Operating")
    refused(ep, "close_bank_account", "rule_violation", "bank_account_id", bank_account_id=uk["id"])
    assert ok(ep, "close_bank_account", bank_account_id=dormant["id"])["status"] == "closed"
    refused(ep, "close_bank_account", "rule_violation", "bank_account_id", bank_account_id=dormant["id"])
    sup = links.suppliers(POP)[0]
    refused(
        ep,
        "create_payment",
        "rule_violation",
        "from_account_id",
        from_account_id=dormant["id"],
        beneficiary_name=sup.company.name,
        beneficiary_account=sup.remit_account,
        amount=100,
        value_date=TODAY.isoformat(),
        initiated_by=user(ep, "analyst"),
    )


def test_the_forecast_projects_flows_and_warns_below_the_minimum(ep: Episode) -> None:
    acct = account(ep, "US Operating")
    flows = [
        f
        for f in every(ep, "list_forecasts", account_id=acct["id"])
        if f["value_date"] <= str(TODAY + dt.timedelta(days=60))
    ]
    net = sum(f["amount"] if f["direction"] == "inflow" else -f["amount"] for f in flows)
    fc = ok(ep, "forecast_cash", bank_account_id=acct["id"], days=60)
    assert fc["projected_balance"] == acct["ledger_balance"] + net and not fc["below_minimum"]
    day = (TODAY + dt.timedelta(days=5)).isoformat()
    big = {"account_id": acct["id"], "category": "taxes", "direction": "outflow", "description": "Quarterly tax"}
    refused(ep, "create_forecast", "rule_violation", "value_date", amount=1, value_date="2020-01-01", **big)
    ok(ep, "create_forecast", amount=acct["ledger_balance"], value_date=day, **big)
    fc = ok(ep, "forecast_cash", bank_account_id=acct["id"], days=60)
    assert fc["below_minimum"] and fc["lowest_balance"] < acct["minimum_balance"]
    assert fc["outflows_by_category"]["taxes"] >= acct["ledger_balance"]


def test_only_overpriced_open_fees_are_disputed_and_the_analysis_sums_the_overcharge(ep: Episode) -> None:
    acct = account(ep, "US Operating")
    lines = every(ep, "list_bank_fees", account_id=acct["id"])
    over = [f for f in lines if f["unit_price"] > f["agreed_unit_price"]]
    fair = next(f for f in lines if f["unit_price"] == f["agreed_unit_price"])
    an = ok(ep, "analyze_bank_fees", bank_account_id=acct["id"], period=lines[0]["period"])
    assert an["overcharge"] == sum(f["volume"] * (f["unit_price"] - f["agreed_unit_price"]) for f in over) > 0
    assert an["charged"] - an["expected"] == an["overcharge"]
    refused(ep, "dispute_fee", "rule_violation", "bank_fee_id", bank_fee_id=fair["id"], reason="Too high")
    refused(ep, "dispute_fee", "rule_violation", "reason", bank_fee_id=over[0]["id"], reason="  ")
    assert ok(ep, "dispute_fee", bank_fee_id=over[0]["id"], reason="Above schedule")["status"] == "disputed"
    refused(ep, "dispute_fee", "conflict", "bank_fee_id", bank_fee_id=over[0]["id"], reason="Again")
    refused(ep, "accept_bank_fee", "rule_violation", "bank_fee_id", bank_fee_id=over[0]["id"])
