"""Remitly Match: auto-matching from the advice, manual applications with deductions, exceptions and posting."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CA = ServiceTools("cashapp")
WORLD = CA.world
ok, refused, every = CA.ok, CA.refused, CA.every
POP = WORLD.population
TODAY = WORLD.epoch.date().isoformat()
ME = POP.employees[0].email


def open_invoice(ep: Episode, customer: str | None = None) -> dict[str, Any]:
    filters = {"status": "open"} | ({"customer_name": customer} if customer else {})
    return every(ep, "list_open_invoices", **filters)[0]


def remit(ep: Episode, payer: str, amount: int, advice: str = "") -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep, "create_remittance", payer_name=payer, amount=amount, received_on=TODAY, method="ach", advice=advice
    )
    return made


def test_seeded_receivables_belong_to_world_customers_and_balance(ep: Episode) -> None:
    names = {c.name for c in POP.customers}
    for inv in every(ep, "list_open_invoices"):
        assert inv["customer_name"] in names
        applied = sum(
            a["amount"] + a["deduction"]
            for a in every(ep, "list_applications", invoice_id=inv["id"])
            if a["status"] != "reversed"
        )
        assert inv["open_amount"] == inv["amount"] - applied
    for r in every(ep, "list_remittances"):
        applied = sum(a["amount"] for a in every(ep, "list_applications", remittance_id=r["id"]))
        assert r["unapplied"] == r["amount"] - applied


def test_auto_match_pays_the_quoted_invoices(ep: Episode) -> None:
    a, b = every(ep, "list_open_invoices", customer_name=POP.customers[7].name, status="open")[:2]
    r = remit(
        ep,
        a["customer_name"],
        a["open_amount"] + b["open_amount"],
        f"Paying {a['invoice_number']}, {b['invoice_number']}",
    )
    assert r["unapplied"] == r["amount"] and r["status"] == "unapplied"
    result = ok(ep, "auto_match", remittance_id=r["id"])
    assert len(result["applications"]) == 2 and result["unapplied"] == 0 and result["exception_id"] is None
    assert ok(ep, "get_open_invoice", open_invoice_id=a["id"])["status"] == "paid"
    refused(ep, "auto_match", "conflict", "remittance_id", remittance_id=r["id"])


def test_auto_match_raises_exceptions_for_what_it_cannot_apply(ep: Episode) -> None:
    a = open_invoice(ep)
    over = ok(
        ep, "auto_match", remittance_id=remit(ep, a["customer_name"], a["open_amount"] + 500, a["invoice_number"])["id"]
    )
    assert over["unapplied"] == 500
    assert ok(ep, "get_exception", exception_id=over["exception_id"])["kind"] == "overpayment"
    stranger = ok(ep, "auto_match", remittance_id=remit(ep, "Nobody Known Ltd", 1000)["id"])
    assert ok(ep, "get_exception", exception_id=stranger["exception_id"])["kind"] == "unidentified_payer"


def test_manual_application_takes_a_short_pay_as_a_reasoned_deduction(ep: Episode) -> None:
    inv = open_invoice(ep)
    short = inv["open_amount"] * 96 // 100
    r = remit(ep, inv["customer_name"], short)
    gap = inv["open_amount"] - short
    args = {"remittance_id": r["id"], "invoice_id": inv["id"], "amount": short, "deduction": gap}
    refused(ep, "apply_payment", "rule_violation", "deduction_reason", **args)
    app = ok(ep, "apply_payment", deduction_reason="damaged_goods", **args)
    assert (app["deduction"], app["deduction_reason"]) == (gap, "damaged_goods")
    paid = ok(ep, "get_open_invoice", open_invoice_id=inv["id"])
    assert (paid["status"], paid["deducted"]) == ("paid", gap)


def test_applications_refuse_other_payers_too_much_and_big_deductions(ep: Episode) -> None:
    inv = open_invoice(ep)
    other = next(
        i for i in every(ep, "list_open_invoices", status="open") if i["customer_name"] != inv["customer_name"]
    )
    r = remit(ep, inv["customer_name"], inv["open_amount"])
    refused(
        ep, "apply_payment", "rule_violation", "invoice_id", remittance_id=r["id"], invoice_id=other["id"], amount=100
    )
    refused(
        ep,
        "apply_payment",
        "rule_violation",
        "amount",
        remittance_id=r["id"],
        invoice_id=inv["id"],
        amount=inv["open_amount"] + 1,
    )
    refused(
        ep,
        "apply_payment",
        "rule_violation",
        "deduction",
        remittance_id=r["id"],
        invoice_id=inv["id"],
        amount=inv["open_amount"] // 2,
        deduction=inv["amount"] // 5,
        deduction_reason="pricing",
    )


def test_reversing_a_proposed_application_reopens_the_invoice(ep: Episode) -> None:
    app = every(ep, "list_applications", status="proposed")[0]
    inv = ok(ep, "get_open_invoice", open_invoice_id=app["invoice_id"])
    back = ok(ep, "reverse_application", application_id=app["id"])
    assert back["status"] == "reversed"
    again = ok(ep, "get_open_invoice", open_invoice_id=inv["id"])
    assert again["open_amount"] == inv["open_amount"] + app["amount"] and again["status"] != "paid"
    posted = every(ep, "list_applications", status="posted")[0]
    refused(ep, "reverse_application", "rule_violation", "application_id", application_id=posted["id"])


def test_posting_moves_every_proposed_application_into_one_batch(ep: Episode) -> None:
    proposed = every(ep, "list_applications", status="proposed")
    batch = ok(ep, "post_batch", posted_by=ME)
    assert (batch["count"], batch["cash_total"]) == (len(proposed), sum(a["amount"] for a in proposed))
    assert {
        a["batch_id"] for a in every(ep, "list_applications", status="posted") if a["id"] in {p["id"] for p in proposed}
    } == {batch["id"]}
    refused(ep, "post_batch", "rule_violation", "posted_by", posted_by=ME)


def test_unidentified_cash_is_identified_then_put_on_account(ep: Episode) -> None:
    exc = every(ep, "list_exceptions", kind="unidentified_payer", status="open")[0]
    refused(ep, "put_on_account", "rule_violation", "remittance_id", remittance_id=exc["remittance_id"])
    customer = POP.customers[0].name
    ok(ep, "identify_payer", remittance_id=exc["remittance_id"], customer_name=customer)
    assert ok(ep, "get_exception", exception_id=exc["id"])["status"] == "resolved"
    before = ok(ep, "customer_cash", customer_name=customer)
    r = ok(ep, "put_on_account", remittance_id=exc["remittance_id"])
    after = ok(ep, "customer_cash", customer_name=customer)
    assert after["on_account"] == before["on_account"] + r["unapplied"]
    refused(ep, "put_on_account", "conflict", "remittance_id", remittance_id=exc["remittance_id"])
