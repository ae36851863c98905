"""Ledgerline Books: invoices computed from lines, payments and credits bounded by the balance, voiding."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

INVOICING = ServiceTools("invoicing")
WORLD = INVOICING.world
ok, refused, every = INVOICING.ok, INVOICING.refused, INVOICING.every
POP = WORLD.population
HOME = POP.home.place.currency
TODAY = WORLD.epoch.date()


def active_customer(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_customers", active=True)[0]


def item(ep: Episode, *, taxable: bool = True, active: bool = True) -> dict[str, Any]:
    return every(ep, "list_items", taxable=taxable, active=active)[0]


def invoice_where(ep: Episode, status: str, **extra: Any) -> dict[str, Any]:
    for inv in every(ep, "list_invoices", status=status):
        if all(inv[k] == v for k, v in extra.items()):
            return inv
    raise AssertionError(f"no {status} invoice with {extra}")


def new_invoice(ep: Episode, customer_id: str | None = None, quantity: int = 2) -> dict[str, Any]:
    cid = customer_id or active_customer(ep)["id"]
    inv = ok(ep, "create_invoice", customer_id=cid, lines=[{"item_id": item(ep)["id"], "quantity": quantity}])
    return dict(inv)


# -- the world ------------------------------------------------------------------------------


def test_customers_are_the_population_companies_with_their_contact_and_items_are_its_products() -> None:
    ep = Episode(WORLD)
    customers = every(ep, "list_customers")
    assert {c["company_name"] for c in customers} == {c.name for c in POP.customers}
    contact_emails = {p.email for p in POP.contacts}
    assert all(c["email"] in contact_emails for c in customers)
    skus = {i["sku"] for i in every(ep, "list_items")}
    assert {p.sku for p in POP.products} <= skus
    statuses = {i["status"] for i in every(ep, "list_invoices")}
    assert statuses == {"draft", "sent", "partially_paid", "paid", "voided"}


def test_seeded_invoices_balance_out_with_their_payments_and_credits() -> None:
    ep = Episode(WORLD)
    payments = every(ep, "list_payments")
    for inv in every(ep, "list_invoices"):
        assert inv["total"] == inv["subtotal"] + inv["tax_amount"]
        assert inv["subtotal"] == sum(line["amount"] for line in inv["lines"])
        paid = sum(p["amount"] for p in payments if p["invoice_id"] == inv["id"] and p["status"] == "completed")
        assert paid == inv["amount_paid"]
        if inv["status"] != "voided":
            assert inv["balance"] == inv["total"] - inv["amount_paid"] - inv["amount_credited"]


# -- creating invoices ----------------------------------------------------------------------


def test_an_invoice_total_is_computed_from_its_lines_with_tax_on_taxable_items_only(ep: Episode) -> None:
    customer = active_customer(ep)
    taxed = item(ep, taxable=True)
    untaxed = item(ep, taxable=False)
    inv = ok(
        ep,
        "create_invoice",
        customer_id=customer["id"],
        lines=[
            {"item_id": taxed["id"], "quantity": 3},
            {"item_id": untaxed["id"], "quantity": 1, "unit_price": 2000, "description": "Express delivery"},
        ],
        tax_rate=10,
    )
    assert inv["subtotal"] == 3 * taxed["unit_price"] + 2000
    assert inv["tax_amount"] == round(3 * taxed["unit_price"] / 10)
    assert inv["total"] == inv["balance"] == inv["subtotal"] + inv["tax_amount"]
    assert inv["status"] == "draft"
    assert inv["lines"][1]["description"] == "Express delivery"
    assert inv["lines"][0]["sku"] == taxed["sku"]
    assert inv["bill_email"] == customer["email"]
    assert inv["currency"] == HOME
    days = {"due_on_receipt": 0, "net_15": 15, "net_30": 30, "net_60": 60}[customer["terms"]]
    assert inv["txn_date"] == "2026-03-02"
    assert inv["due_date"] == (TODAY + dt.timedelta(days=days)).isoformat()
    existing = {i["doc_number"] for i in every(ep, "list_invoices")} - {inv["doc_number"]}
    assert inv["doc_number"] == f"INV-{len(existing) + 1:05d}"
    diff = ep.diff()
    assert diff.counts() == {"invoicing.invoices": {"added": 1, "updated": 0, "removed": 0}}


def test_an_inactive_customer_cannot_be_invoiced_and_nothing_changes(ep: Episode) -> None:
    inactive = every(ep, "list_customers", active=False)[0]
    refused(
        ep,
        "create_invoice",
        "rule_violation",
        "customer_id",
        customer_id=inactive["id"],
        lines=[{"item_id": item(ep)["id"]}],
    )


def test_an_inactive_item_cannot_be_put_on_an_invoice(ep: Episode) -> None:
    off = item(ep, active=False)
    refused(
        ep,
        "create_invoice",
        "rule_violation",
        "lines.0.item_id",
        customer_id=active_customer(ep)["id"],
        lines=[{"item_id": off["id"]}],
    )


def test_an_unknown_item_on_a_line_is_not_found(ep: Episode) -> None:
    refused(
        ep,
        "create_invoice",
        "not_found",
        "lines.1.item_id",
        customer_id=active_customer(ep)["id"],
        lines=[{"item_id": item(ep)["id"]}, {"item_id": "item_999999"}],
    )


def test_a_line_needs_a_quantity_of_at_least_one(ep: Episode) -> None:
    refused(
        ep,
        "create_invoice",
        "rule_violation",
        "lines.0.quantity",
        customer_id=active_customer(ep)["id"],
        lines=[{"item_id": item(ep)["id"], "quantity": 0}],
    )


def test_a_due_date_before_the_invoice_date_is_refused(ep: Episode) -> None:
    refused(
        ep,
        "create_invoice",
        "rule_violation",
        "due_date",
        customer_id=active_customer(ep)["id"],
        lines=[{"item_id": item(ep)["id"]}],
        txn_date="2026-03-02",
        due_date="2026-02-27",
    )


def test_a_foreign_currency_customer_needs_explicit_prices(ep: Episode) -> None:
    foreign = "EUR" if HOME != "EUR" else "USD"
    person = POP.consumers[0]
    customer = ok(
        ep,
        "create_customer",
        company_name=person.name,
        email=person.email,
        billing_address=person.address.model_dump(),
        currency=foreign,
    )
    refused(
        ep,
        "create_invoice",
        "rule_violation",
        "lines.0.unit_price",
        customer_id=customer["id"],
        lines=[{"item_id": item(ep)["id"]}],
    )
    inv = ok(ep, "create_invoice", customer_id=customer["id"], lines=[{"item_id": item(ep)["id"], "unit_price": 4500}])
    assert (inv["currency"], inv["total"]) == (foreign, 4500)


def test_a_customer_company_name_and_an_item_sku_are_unique(ep: Episode) -> None:
    taken = active_customer(ep)
    refused(
        ep,
        "create_customer",
        "conflict",
        "company_name",
        company_name=taken["company_name"],
        email="ap@example.com",
        billing_address=taken["billing_address"],
    )
    refused(ep, "create_item", "conflict", "sku", name="Copy", sku=POP.products[0].sku, unit_price=100)


# -- sending, editing, deleting -------------------------------------------------------------


def test_sending_a_draft_marks_it_sent_to_the_given_address(ep: Episode) -> None:
    draft = invoice_where(ep, "draft")
    sent = ok(ep, "send_invoice", invoice_id=draft["id"], send_to="ap@example.com")
    assert (sent["status"], sent["bill_email"], sent["sent_at"]) == ("sent", "ap@example.com", "2026-03-02T09:00:00Z")
    [change] = ep.diff().tables["invoicing.invoices"].updated
    assert change.changed == ["bill_email", "sent_at", "status", "updated_at"]


def test_a_voided_invoice_cannot_be_sent_edited_or_paid(ep: Episode) -> None:
    voided = invoice_where(ep, "voided")
    refused(ep, "send_invoice", "rule_violation", "invoice_id", invoice_id=voided["id"])
    refused(ep, "update_invoice", "rule_violation", "invoice_id", invoice_id=voided["id"], memo="again")
    refused(ep, "receive_payment", "rule_violation", "invoice_id", invoice_id=voided["id"], amount=100, method="cash")
    refused(
        ep,
        "update_invoice_lines",
        "rule_violation",
        "invoice_id",
        invoice_id=voided["id"],
        lines=[{"item_id": item(ep)["id"]}],
    )


def test_only_a_draft_invoice_can_be_deleted(ep: Episode) -> None:
    refused(ep, "delete_invoice", "rule_violation", "invoice_id", invoice_id=invoice_where(ep, "sent")["id"])
    draft = invoice_where(ep, "draft")
    ok(ep, "delete_invoice", invoice_id=draft["id"])
    assert [r["id"] for r in ep.diff().tables["invoicing.invoices"].removed] == [draft["id"]]


def test_changing_lines_recomputes_the_total_and_keeps_what_was_paid(ep: Episode) -> None:
    inv = invoice_where(ep, "partially_paid")
    price = item(ep)["unit_price"]
    quantity = inv["amount_paid"] // price + 2
    new = ok(
        ep,
        "update_invoice_lines",
        invoice_id=inv["id"],
        lines=[{"item_id": item(ep)["id"], "quantity": quantity}],
        tax_rate=0,
    )
    assert new["total"] == quantity * price
    assert new["balance"] == new["total"] - inv["amount_paid"] - inv["amount_credited"]
    assert new["status"] == "partially_paid"


def test_lines_cannot_bring_the_total_below_what_was_already_paid(ep: Episode) -> None:
    inv = invoice_where(ep, "partially_paid")
    cheap = item(ep)
    assert cheap["unit_price"] < inv["amount_paid"]
    refused(
        ep,
        "update_invoice_lines",
        "rule_violation",
        "lines",
        invoice_id=inv["id"],
        lines=[{"item_id": cheap["id"], "unit_price": 1}],
        tax_rate=0,
    )


# -- payments -------------------------------------------------------------------------------


def test_partial_then_full_payment_moves_the_invoice_to_paid(ep: Episode) -> None:
    inv = invoice_where(ep, "sent")
    first = ok(
        ep, "receive_payment", invoice_id=inv["id"], amount=inv["balance"] - 100, method="check", reference="CHK-2001"
    )
    after = ok(ep, "get_invoice", invoice_id=inv["id"])
    assert (after["status"], after["balance"], after["amount_paid"]) == ("partially_paid", 100, inv["balance"] - 100)
    assert (first["customer_id"], first["currency"], first["txn_date"]) == (
        inv["customer_id"],
        inv["currency"],
        "2026-03-02",
    )
    ok(ep, "receive_payment", invoice_id=inv["id"], amount=100, method="bank_transfer")
    paid = ok(ep, "get_invoice", invoice_id=inv["id"])
    assert (paid["status"], paid["balance"]) == ("paid", 0)
    counts = ep.diff().counts()
    assert counts["invoicing.payments"]["added"] == 2
    assert counts["invoicing.invoices"] == {"added": 0, "updated": 1, "removed": 0}


def test_a_payment_above_the_balance_is_refused_and_changes_nothing(ep: Episode) -> None:
    inv = invoice_where(ep, "partially_paid")
    msg = refused(
        ep,
        "receive_payment",
        "rule_violation",
        "amount",
        invoice_id=inv["id"],
        amount=inv["balance"] + 1,
        method="check",
    )
    assert str(inv["balance"]) in msg


def test_a_paid_invoice_takes_no_payment_and_no_payment_is_zero_or_in_the_future(ep: Episode) -> None:
    refused(
        ep,
        "receive_payment",
        "rule_violation",
        "invoice_id",
        invoice_id=invoice_where(ep, "paid")["id"],
        amount=100,
        method="cash",
    )
    open_ = invoice_where(ep, "sent")
    refused(ep, "receive_payment", "rule_violation", "amount", invoice_id=open_["id"], amount=0, method="cash")
    refused(
        ep,
        "receive_payment",
        "rule_violation",
        "txn_date",
        invoice_id=open_["id"],
        amount=100,
        method="cash",
        txn_date="2026-03-09",
    )


def test_voiding_a_payment_makes_the_invoice_owed_again(ep: Episode) -> None:
    inv = invoice_where(ep, "paid", amount_credited=0)
    payments = every(ep, "list_payments", invoice_id=inv["id"])
    voided = ok(ep, "void_payment", payment_id=payments[0]["id"])
    assert voided["status"] == "voided"
    after = ok(ep, "get_invoice", invoice_id=inv["id"])
    assert after["balance"] == payments[0]["amount"]
    assert after["status"] == ("partially_paid" if len(payments) > 1 else "sent")
    refused(ep, "void_payment", "rule_violation", "payment_id", payment_id=payments[0]["id"])
    refused(ep, "update_payment", "rule_violation", "payment_id", payment_id=payments[0]["id"], memo="bounced")


# -- voiding --------------------------------------------------------------------------------


def test_a_paid_invoice_cannot_be_voided(ep: Episode) -> None:
    refused(ep, "void_invoice", "rule_violation", "invoice_id", invoice_id=invoice_where(ep, "paid")["id"])


def test_a_partially_paid_invoice_cannot_be_voided_until_its_payments_are(ep: Episode) -> None:
    inv = invoice_where(ep, "partially_paid", amount_credited=0)
    msg = refused(ep, "void_invoice", "rule_violation", "invoice_id", invoice_id=inv["id"])
    assert "payments" in msg
    for payment in every(ep, "list_payments", invoice_id=inv["id"]):
        ok(ep, "void_payment", payment_id=payment["id"])
    voided = ok(ep, "void_invoice", invoice_id=inv["id"])
    assert (voided["status"], voided["balance"]) == ("voided", 0)


def test_voiding_an_invoice_gives_applied_credit_back_to_the_credit_memo(ep: Episode) -> None:
    memo = every(ep, "list_credit_memos", status="open")[0]
    inv = invoice_where(ep, "sent", customer_id=memo["customer_id"])
    ok(ep, "apply_credit_memo", credit_memo_id=memo["id"], invoice_id=inv["id"], amount=memo["amount"])
    voided = ok(ep, "void_invoice", invoice_id=inv["id"])
    assert (voided["status"], voided["balance"], voided["amount_credited"]) == ("voided", 0, 0)
    back = ok(ep, "get_credit_memo", credit_memo_id=memo["id"])
    assert (back["remaining"], back["status"], back["applications"]) == (memo["amount"], "open", [])


# -- credit memos ---------------------------------------------------------------------------


def test_applying_credit_reduces_the_invoice_balance_and_the_credit_left(ep: Episode) -> None:
    memo = every(ep, "list_credit_memos", status="open")[0]
    inv = invoice_where(ep, "sent", customer_id=memo["customer_id"])
    part = memo["amount"] // 2
    res = ok(ep, "apply_credit_memo", credit_memo_id=memo["id"], invoice_id=inv["id"], amount=part)
    assert res["amount"] == part
    assert (res["invoice"]["balance"], res["invoice"]["status"]) == (inv["balance"] - part, "partially_paid")
    assert (res["credit_memo"]["remaining"], res["credit_memo"]["status"]) == (
        memo["amount"] - part,
        "partially_applied",
    )
    assert res["credit_memo"]["applications"] == [{"invoice_id": inv["id"], "amount": part, "applied_on": "2026-03-02"}]
    counts = ep.diff().counts()
    assert counts == {
        "invoicing.credit_memos": {"added": 0, "updated": 1, "removed": 0},
        "invoicing.invoices": {"added": 0, "updated": 1, "removed": 0},
    }


def test_credit_above_what_is_left_on_the_memo_is_refused(ep: Episode) -> None:
    memo = every(ep, "list_credit_memos", status="open")[0]
    inv = invoice_where(ep, "sent", customer_id=memo["customer_id"])
    refused(
        ep,
        "apply_credit_memo",
        "rule_violation",
        "amount",
        credit_memo_id=memo["id"],
        invoice_id=inv["id"],
        amount=memo["remaining"] + 1,
    )


def test_credit_above_the_invoice_balance_is_refused(ep: Episode) -> None:
    cust = active_customer(ep)
    memo = ok(ep, "issue_credit_memo", customer_id=cust["id"], amount=10**7, reason="goodwill")
    inv = new_invoice(ep, cust["id"], quantity=1)
    refused(
        ep,
        "apply_credit_memo",
        "rule_violation",
        "amount",
        credit_memo_id=memo["id"],
        invoice_id=inv["id"],
        amount=inv["balance"] + 1,
    )
    whole = ok(ep, "apply_credit_memo", credit_memo_id=memo["id"], invoice_id=inv["id"])
    assert whole["amount"] == inv["balance"]
    assert whole["invoice"]["status"] == "paid"


def test_credit_goes_only_to_the_same_customers_invoices(ep: Episode) -> None:
    memo = every(ep, "list_credit_memos", status="open")[0]
    other = next(i for i in every(ep, "list_invoices", status="sent") if i["customer_id"] != memo["customer_id"])
    refused(ep, "apply_credit_memo", "rule_violation", "invoice_id", credit_memo_id=memo["id"], invoice_id=other["id"])


def test_an_applied_credit_memo_cannot_be_deleted_but_an_unused_one_can(ep: Episode) -> None:
    applied = every(ep, "list_credit_memos", status="applied")[0]
    refused(ep, "delete_credit_memo", "rule_violation", "credit_memo_id", credit_memo_id=applied["id"])
    refused(
        ep,
        "apply_credit_memo",
        "rule_violation",
        "credit_memo_id",
        credit_memo_id=applied["id"],
        invoice_id=invoice_where(ep, "sent")["id"],
    )
    unused = every(ep, "list_credit_memos", status="open")[0]
    ok(ep, "delete_credit_memo", credit_memo_id=unused["id"])
    assert ep.diff().counts() == {"invoicing.credit_memos": {"added": 0, "updated": 0, "removed": 1}}


# -- customers ------------------------------------------------------------------------------


def test_a_customer_with_unpaid_invoices_cannot_be_made_inactive(ep: Episode) -> None:
    owing = invoice_where(ep, "sent")["customer_id"]
    refused(ep, "deactivate_customer", "rule_violation", "customer_id", customer_id=owing)


def test_a_customer_without_unpaid_invoices_can_be_made_inactive_and_back(ep: Episode) -> None:
    person = POP.consumers[1]
    cust = ok(
        ep, "create_customer", company_name=person.name, email=person.email, billing_address=person.address.model_dump()
    )
    assert cust["currency"] == HOME
    off = ok(ep, "deactivate_customer", customer_id=cust["id"])
    assert off["active"] is False
    refused(
        ep, "issue_credit_memo", "rule_violation", "customer_id", customer_id=cust["id"], amount=100, reason="goodwill"
    )
    assert ok(ep, "reactivate_customer", customer_id=cust["id"])["active"] is True


# -- reports --------------------------------------------------------------------------------


def test_the_customer_balance_and_aging_report_add_up_the_open_invoices(ep: Episode) -> None:
    owing = invoice_where(ep, "sent")["customer_id"]
    invoices = [i for i in every(ep, "list_invoices", customer_id=owing) if i["status"] != "voided"]
    balance = ok(ep, "get_customer_balance", customer_id=owing)
    assert balance["open_balance"] == sum(i["balance"] for i in invoices)
    assert balance["overdue_balance"] == sum(i["balance"] for i in invoices if i["due_date"] < "2026-03-02")
    report = ok(ep, "aging_report")
    row = next(r for r in report["rows"] if r["customer_id"] == owing)
    assert row["total"] == balance["open_balance"]
    assert row["total"] == sum(row[k] for k in ("current", "days_1_30", "days_31_60", "days_61_90", "over_90"))
    totals = [r["total"] for r in report["rows"]]
    assert totals == sorted(totals, reverse=True)
    late = ok(ep, "aging_report", min_days_overdue=60)
    assert all(r["days_61_90"] + r["over_90"] > 0 or r["days_31_60"] > 0 for r in late["rows"])


def test_an_invoice_due_date_cannot_be_moved_before_its_invoice_date(ep: Episode) -> None:
    inv = invoice_where(ep, "sent")
    refused(ep, "update_invoice", "rule_violation", "due_date", invoice_id=inv["id"], due_date="2020-01-01")
    moved = ok(ep, "update_invoice", invoice_id=inv["id"], due_date="2026-04-30", memo="Extended by agreement")
    assert (moved["due_date"], moved["memo"], moved["status"]) == ("2026-04-30", "Extended by agreement", "sent")
