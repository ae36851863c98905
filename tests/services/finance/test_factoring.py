"""Forward Funding: schedules, verification, funding within credit limits, payments, rebates and chargebacks."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FF = ServiceTools("factoring")
WORLD = FF.world
ok, refused, every = FF.ok, FF.refused, FF.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
ME = POP.employees[0].email


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def active_client(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_clients", status="active")[0]


def draft_with_invoice(ep: Episode, amount: int = 500_000) -> tuple[dict[str, Any], dict[str, Any]]:
    sched = ok(ep, "create_schedule", client_id=active_client(ep)["id"])
    debtor = every(ep, "list_debtors", status="active")[0]
    inv = ok(
        ep,
        "add_invoice",
        schedule_id=sched["id"],
        debtor_id=debtor["id"],
        invoice_number="INV-90001",
        face_amount=amount,
        invoice_date=day(-3),
        due_date=day(27),
    )
    return sched, inv


def test_seeded_parties_are_world_companies_and_balances_agree(ep: Episode) -> None:
    names = {c.name for c in POP.customers}
    assert {c["company_name"] for c in every(ep, "list_clients")} <= names
    for d in every(ep, "list_debtors"):
        assert d["company_name"] in names
        open_face = sum(i["face_amount"] for i in every(ep, "list_invoices", debtor_id=d["id"], status="purchased"))
        assert d["outstanding"] == open_face <= d["credit_limit"]
    for s in every(ep, "list_schedules", status="funded"):
        assert s["advance_total"] == sum(i["advance_amount"] for i in every(ep, "list_invoices", schedule_id=s["id"]))


def test_only_active_clients_open_schedules(ep: Episode) -> None:
    onboarding = every(ep, "list_clients", status="onboarding")[0]
    refused(ep, "create_schedule", "rule_violation", "client_id", client_id=onboarding["id"])
    ok(ep, "activate_client", client_id=onboarding["id"])
    assert ok(ep, "create_schedule", client_id=onboarding["id"])["status"] == "draft"


def test_invoices_must_be_recent_unique_and_to_an_active_debtor(ep: Episode) -> None:
    sched, inv = draft_with_invoice(ep)
    base = {"schedule_id": sched["id"], "face_amount": 1000, "due_date": day(20)}
    active = inv["debtor_id"]
    refused(
        ep,
        "add_invoice",
        "conflict",
        "invoice_number",
        debtor_id=active,
        invoice_number="INV-90001",
        invoice_date=day(-1),
        **base,
    )
    refused(
        ep,
        "add_invoice",
        "rule_violation",
        "invoice_date",
        debtor_id=active,
        invoice_number="INV-90002",
        invoice_date=day(-120),
        **base,
    )
    blocked = every(ep, "list_debtors", status="blocked")[0]
    refused(
        ep,
        "add_invoice",
        "rule_violation",
        "debtor_id",
        debtor_id=blocked["id"],
        invoice_number="INV-90003",
        invoice_date=day(-1),
        **base,
    )
    assert ok(ep, "get_schedule", schedule_id=sched["id"])["face_total"] == inv["face_amount"]


def test_funding_needs_every_invoice_verified(ep: Episode) -> None:
    sched, inv = draft_with_invoice(ep)
    ok(ep, "submit_schedule", schedule_id=sched["id"])
    refused(
        ep,
        "add_invoice",
        "rule_violation",
        "schedule_id",
        schedule_id=sched["id"],
        debtor_id=inv["debtor_id"],
        invoice_number="INV-90009",
        face_amount=10,
        invoice_date=day(-1),
        due_date=day(20),
    )
    refused(ep, "fund_schedule", "rule_violation", "schedule_id", schedule_id=sched["id"])
    ok(ep, "verify_invoice", invoice_id=inv["id"], outcome="verified", contact_name="Ana Ruiz", verified_by=ME)
    refused(
        ep,
        "verify_invoice",
        "conflict",
        "invoice_id",
        invoice_id=inv["id"],
        outcome="disputed",
        contact_name="Ana Ruiz",
        verified_by=ME,
    )
    funded = ok(ep, "fund_schedule", schedule_id=sched["id"])
    client = ok(ep, "get_client", client_id=funded["client_id"])
    got = ok(ep, "get_invoice", invoice_id=inv["id"])
    assert got["advance_amount"] == round(inv["face_amount"] * client["advance_rate"] / 100)
    assert got["advance_amount"] + got["reserve_amount"] == inv["face_amount"] and got["status"] == "purchased"


def test_funding_refuses_to_exceed_a_debtor_credit_limit(ep: Episode) -> None:
    debtor = every(ep, "list_debtors", status="active")[0]
    room = debtor["credit_limit"] - debtor["outstanding"]
    sched = ok(ep, "create_schedule", client_id=active_client(ep)["id"])
    inv = ok(
        ep,
        "add_invoice",
        schedule_id=sched["id"],
        debtor_id=debtor["id"],
        invoice_number="INV-95555",
        face_amount=room + 1,
        invoice_date=day(-2),
        due_date=day(28),
    )
    ok(ep, "verify_invoice", invoice_id=inv["id"], outcome="verified", contact_name="Li Wei", verified_by=ME)
    ok(ep, "submit_schedule", schedule_id=sched["id"])
    refused(ep, "fund_schedule", "rule_violation", "schedule_id", schedule_id=sched["id"])
    if debtor["outstanding"]:
        refused(ep, "update_debtor", "rule_violation", "credit_limit", debtor_id=debtor["id"], credit_limit=0)
    ok(ep, "update_debtor", debtor_id=debtor["id"], credit_limit=debtor["credit_limit"] + 1)
    ok(ep, "fund_schedule", schedule_id=sched["id"])
    assert ok(ep, "get_debtor", debtor_id=debtor["id"])["outstanding"] == debtor["credit_limit"] + 1


def test_full_payment_releases_the_reserve_less_fee_as_a_rebate(ep: Episode) -> None:
    inv = every(ep, "list_invoices", status="purchased")[0]
    refused(ep, "record_payment", "rule_violation", "amount", invoice_id=inv["id"], amount=inv["face_amount"] + 1)
    part = ok(ep, "record_payment", invoice_id=inv["id"], amount=1000)
    assert (part["status"], part["collected"]) == ("purchased", 1000)
    done = ok(ep, "record_payment", invoice_id=inv["id"], amount=inv["face_amount"] - 1000)
    assert done["status"] == "paid" and 0 < done["fee"] <= done["reserve_amount"]
    [rebate] = every(ep, "list_rebates", invoice_id=inv["id"])
    assert rebate["amount"] == done["reserve_amount"] - done["fee"]


def test_chargebacks_need_recourse_and_a_dispute_or_overdue_invoice(ep: Episode) -> None:
    fresh = next(i for i in every(ep, "list_invoices", status="purchased") if i["due_date"] > day(-30))
    refused(ep, "charge_back", "rule_violation", "invoice_id", invoice_id=fresh["id"])
    late = next(
        i
        for i in every(ep, "list_invoices", status="purchased")
        if i["due_date"] < day(-30) and ok(ep, "get_client", client_id=i["client_id"])["recourse"]
    )
    cb = ok(ep, "charge_back", invoice_id=late["id"])
    assert (cb["reason"], cb["amount"]) == ("past_due", late["advance_amount"])
    assert ok(ep, "get_invoice", invoice_id=late["id"])["status"] == "charged_back"


def test_rebates_wait_for_open_chargebacks_to_settle(ep: Episode) -> None:
    cb = every(ep, "list_chargebacks", status="open")[0]
    target = every(ep, "list_invoices", client_id=cb["client_id"], status="purchased")[0]
    ok(ep, "record_payment", invoice_id=target["id"], amount=target["face_amount"])
    rebate = every(ep, "list_rebates", client_id=cb["client_id"], status="pending")[0]
    refused(ep, "pay_rebate", "rule_violation", "rebate_id", rebate_id=rebate["id"])
    ok(ep, "settle_chargeback", chargeback_id=cb["id"])
    assert ok(ep, "pay_rebate", rebate_id=rebate["id"])["status"] == "paid"
    pending = every(ep, "list_rebates", status="pending")
    assert pending
    pos = ok(ep, "client_position", client_id=pending[0]["client_id"])
    assert pos["rebates_pending"] == sum(r["amount"] for r in pending if r["client_id"] == pending[0]["client_id"])
