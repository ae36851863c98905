"""Duecraft Collections: payments, dunning runs, promises to pay, disputes, payment plans, write-offs, aging."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

AR = ServiceTools("collections")
WORLD = AR.world
ok, refused, every = AR.ok, AR.refused, AR.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def invoice(ep: Episode, customer: int = 0, status: str = "open", overdue: bool | None = None) -> dict[str, Any]:
    cid = every(ep, "list_customers")[customer]["id"]
    for inv in every(ep, "list_invoices", customer_id=cid, status=status):
        late = inv["due_date"] < TODAY.isoformat()
        if inv["plan_id"] is None and (overdue is None or late == overdue):
            return inv
    raise AssertionError("no such invoice")


def test_seeded_customers_are_world_companies_with_collectors(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    companies = {c.name: c for c in POP.customers}
    for c in every(ep, "list_customers"):
        contact = POP.first_contact(companies[c["name"]])
        assert contact is not None and c["ar_contact_email"] == contact.email
        assert c["owner_email"] in staff
    statuses = {i["status"] for i in every(ep, "list_invoices")}
    assert statuses == {"open", "partially_paid", "paid", "disputed"}
    for d in every(ep, "list_disputes", status="open"):
        assert ok(ep, "get_invoice", invoice_id=d["invoice_id"])["status"] == "disputed"


def test_payments_reduce_the_amount_due_and_keep_promises(ep: Episode) -> None:
    promise = every(ep, "list_promises", status="pending")[0]
    inv = ok(ep, "get_invoice", invoice_id=promise["invoice_id"])
    refused(ep, "record_payment", "rule_violation", "amount", invoice_id=inv["id"], amount=inv["amount_due"] + 1)
    part = ok(ep, "record_payment", invoice_id=inv["id"], amount=1000)
    assert (part["status"], part["amount_due"]) == ("partially_paid", inv["amount_due"] - 1000)
    assert ok(ep, "get_promise", promise_id=promise["id"])["status"] == "pending"
    paid = ok(ep, "record_payment", invoice_id=inv["id"], amount=part["amount_due"])
    assert (paid["status"], paid["amount_due"]) == ("paid", 0)
    assert ok(ep, "get_promise", promise_id=promise["id"])["status"] == "kept"
    refused(ep, "record_payment", "rule_violation", "invoice_id", invoice_id=inv["id"], amount=1)


def test_dunning_schedules_due_steps_once_and_skips_paused_invoices(ep: Episode) -> None:
    made = ok(ep, "run_dunning")
    assert made, "seeded invoices have steps that came due since the last run"
    for r in made:
        inv = ok(ep, "get_invoice", invoice_id=r["invoice_id"])
        assert inv["status"] in ("open", "partially_paid") and inv["plan_id"] is None
        assert not every(ep, "list_promises", invoice_id=inv["id"], status="pending")
        assert dt.date.fromisoformat(inv["due_date"]) + dt.timedelta(days=r["day_offset"]) <= TODAY
    assert ok(ep, "run_dunning") == []
    no_flow = next(c for c in every(ep, "list_customers") if c["workflow_id"] is None)
    assert not every(ep, "list_reminders", customer_id=no_flow["id"])


def test_a_promise_is_for_an_undisputed_invoice_within_60_days(ep: Episode) -> None:
    inv = invoice(ep, 0)
    args = {"invoice_id": inv["id"], "amount": inv["amount_due"]}
    refused(ep, "create_promise", "rule_violation", "promised_date", promised_date=day(61), **args)
    refused(ep, "create_promise", "rule_violation", "promised_date", promised_date=day(0), **args)
    refused(
        ep,
        "create_promise",
        "rule_violation",
        "amount",
        **(args | {"amount": inv["amount_due"] + 1}),
        promised_date=day(5),
    )
    made = ok(ep, "create_promise", promised_date=day(60), **args)
    assert made["status"] == "pending"
    refused(ep, "create_promise", "conflict", "invoice_id", promised_date=day(10), **args)
    disputed = every(ep, "list_invoices", status="disputed")[0]
    refused(
        ep,
        "create_promise",
        "rule_violation",
        "invoice_id",
        invoice_id=disputed["id"],
        amount=100,
        promised_date=day(5),
    )
    assert ok(ep, "review_promises") == []


def test_a_dispute_pauses_the_invoice_and_a_credit_lowers_what_is_due(ep: Episode) -> None:
    promise = every(ep, "list_promises", status="pending")[0]
    dsp = ok(ep, "open_dispute", invoice_id=promise["invoice_id"], reason="pricing", description="Wrong rate")
    inv = ok(ep, "get_invoice", invoice_id=promise["invoice_id"])
    assert inv["status"] == "disputed"
    assert ok(ep, "get_promise", promise_id=promise["id"])["status"] == "broken"
    refused(ep, "open_dispute", "rule_violation", "invoice_id", invoice_id=inv["id"], reason="other", description="x")
    refused(
        ep,
        "resolve_dispute",
        "rule_violation",
        "credit_amount",
        dispute_id=dsp["id"],
        outcome="rejected",
        credit_amount=5,
    )
    refused(
        ep,
        "resolve_dispute",
        "rule_violation",
        "credit_amount",
        dispute_id=dsp["id"],
        outcome="credited",
        credit_amount=inv["amount_due"] + 1,
    )
    done = ok(ep, "resolve_dispute", dispute_id=dsp["id"], outcome="credited", credit_amount=20000)
    assert (done["status"], done["credit_amount"]) == ("credited", 20000)
    after = ok(ep, "get_invoice", invoice_id=inv["id"])
    assert (after["status"], after["amount_due"]) == ("partially_paid", inv["amount_due"] - 20000)
    refused(ep, "resolve_dispute", "conflict", "dispute_id", dispute_id=dsp["id"], outcome="rejected")


def test_a_rejected_dispute_makes_the_invoice_due_again(ep: Episode) -> None:
    dsp = every(ep, "list_disputes", status="open")[0]
    assert ok(ep, "resolve_dispute", dispute_id=dsp["id"], outcome="rejected")["status"] == "rejected"
    inv = ok(ep, "get_invoice", invoice_id=dsp["invoice_id"])
    assert (inv["status"], inv["amount_due"]) == ("open", inv["amount"])


def test_a_payment_plan_splits_one_customers_invoices_and_completes_when_paid(ep: Episode) -> None:
    a, b = invoice(ep, 0, overdue=True), invoice(ep, 0, "partially_paid")
    other = invoice(ep, 1)
    refused(
        ep,
        "create_payment_plan",
        "rule_violation",
        "invoice_ids",
        invoice_ids=[a["id"], other["id"]],
        installments=3,
        first_due_date=day(7),
    )
    disputed = every(ep, "list_invoices", status="disputed")[0]
    refused(
        ep,
        "create_payment_plan",
        "rule_violation",
        "invoice_ids",
        invoice_ids=[disputed["id"]],
        installments=3,
        first_due_date=day(7),
    )
    refused(
        ep,
        "create_payment_plan",
        "rule_violation",
        "first_due_date",
        invoice_ids=[a["id"]],
        installments=3,
        first_due_date=day(0),
    )
    plan = ok(ep, "create_payment_plan", invoice_ids=[a["id"], b["id"]], installments=3, first_due_date=day(7))
    total = a["amount_due"] + b["amount_due"]
    assert plan["total"] == total == sum(i["amount"] for i in plan["installments"])
    assert [i["due_date"] for i in plan["installments"]] == [day(7), day(37), day(67)]
    assert ok(ep, "get_invoice", invoice_id=a["id"])["plan_id"] == plan["id"]
    refused(
        ep,
        "create_payment_plan",
        "rule_violation",
        "invoice_ids",
        invoice_ids=[a["id"]],
        installments=2,
        first_due_date=day(7),
    )
    for inv in (a, b):
        ok(ep, "record_payment", invoice_id=inv["id"], amount=inv["amount_due"])
    assert ok(ep, "get_payment_plan", payment_plan_id=plan["id"])["status"] == "completed"


def test_canceling_a_plan_frees_its_invoices(ep: Episode) -> None:
    plan = every(ep, "list_payment_plans", status="active")[0]
    assert ok(ep, "cancel_payment_plan", plan_id=plan["id"])["status"] == "canceled"
    for i in plan["invoice_ids"]:
        assert ok(ep, "get_invoice", invoice_id=i)["plan_id"] is None
    refused(ep, "cancel_payment_plan", "conflict", "plan_id", plan_id=plan["id"])
    again = ok(ep, "create_payment_plan", invoice_ids=plan["invoice_ids"], installments=2, first_due_date=day(3))
    assert again["status"] == "active" and again["id"] != plan["id"]


def test_only_invoices_over_90_days_overdue_are_written_off(ep: Episode) -> None:
    recent = invoice(ep, 0, overdue=True)
    refused(ep, "write_off_invoice", "rule_violation", "invoice_id", invoice_id=recent["id"])
    old = next(
        i
        for i in every(ep, "list_invoices", status="open")
        if (TODAY - dt.date.fromisoformat(i["due_date"])).days > 90 and i["plan_id"] is None
    )
    assert ok(ep, "write_off_invoice", invoice_id=old["id"])["status"] == "written_off"
    planned = every(ep, "list_payment_plans", status="active")[0]["invoice_ids"][0]
    refused(ep, "write_off_invoice", "rule_violation", "invoice_id", invoice_id=planned)


def test_workflows_need_distinct_offsets_and_cannot_be_deleted_in_use(ep: Episode) -> None:
    steps = [
        {"day_offset": 5, "action": "email", "template": "A"},
        {"day_offset": 5, "action": "call", "template": "B"},
    ]
    refused(ep, "create_workflow", "rule_violation", "steps", name="Twice", steps=steps)
    refused(ep, "create_workflow", "rule_violation", "steps", name="Empty", steps=[])
    used = every(ep, "list_customers")[0]["workflow_id"]
    refused(ep, "delete_workflow", "conflict", "workflow_id", workflow_id=used)
    made = ok(ep, "create_workflow", name="Short", steps=steps[:1])
    ok(ep, "delete_workflow", workflow_id=made["id"])


def test_aging_buckets_add_up_to_what_is_due(ep: Episode) -> None:
    for c in every(ep, "list_customers"):
        aging = ok(ep, "customer_aging", customer_id=c["id"])
        due = [i for i in every(ep, "list_invoices", customer_id=c["id"]) if i["status"] not in ("paid", "written_off")]
        assert aging["total_due"] == sum(i["amount_due"] for i in due)
        buckets = ("current", "days_1_30", "days_31_60", "days_61_90", "days_over_90")
        assert sum(aging[b] for b in buckets) == aging["total_due"]
        assert aging["disputed"] == sum(i["amount_due"] for i in due if i["status"] == "disputed")
        late = [i for i in due if (TODAY - dt.date.fromisoformat(i["due_date"])).days > 90]
        assert aging["days_over_90"] == sum(i["amount_due"] for i in late)
