"""Tally Quotes: price books, draft-only lines, discount approval levels, sending, e-signature, expiry."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CPQ = ServiceTools("cpq")
WORLD = CPQ.world
ok, refused, every = CPQ.ok, CPQ.refused, CPQ.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
FINANCE = sorted(p.email for p in POP.employees if p.department == "Finance")


def quote(ep: Episode, status: str, live: bool = True, **filters: Any) -> dict[str, Any]:
    for q in every(ep, "list_quotes", status=status, **filters):
        if (dt.date.fromisoformat(q["expiration_date"]) >= TODAY) == live:
            return q
    raise AssertionError(f"no {status} quote")


def sellable(ep: Episode, q: dict[str, Any]) -> str:
    """An active product with an active price in the quote's book, not yet on the quote."""
    taken = {line["product_id"] for line in every(ep, "list_quote_lines", quote_id=q["id"])}
    active = {p["id"] for p in every(ep, "list_products", active=True)}
    for e in every(ep, "list_price_book_entries", price_book_id=q["price_book_id"], active=True):
        if e["product_id"] in active and e["product_id"] not in taken:
            return str(e["product_id"])
    raise AssertionError("nothing to sell")


def new_quote(ep: Episode, **over: Any) -> dict[str, Any]:
    buyer = POP.contacts[0]
    company = POP.company_of(buyer)
    assert company is not None
    book = every(ep, "list_price_books", currency="USD", active=True)[0]
    args = {
        "name": "Pilot",
        "account_name": company.name,
        "buyer_name": buyer.name,
        "buyer_email": buyer.email,
        "owner_email": POP.staff("Sales")[0].email,
        "price_book_id": book["id"],
        "expiration_date": (TODAY + dt.timedelta(days=30)).isoformat(),
    }
    return dict(ok(ep, "create_quote", **(args | over)))


def test_seeded_quotes_are_to_customer_buyers_and_totals_balance(ep: Episode) -> None:
    books = {b["id"]: b["currency"] for b in every(ep, "list_price_books")}
    contacts = {p.email: p for p in POP.contacts}
    numbers = set()
    for q in every(ep, "list_quotes"):
        buyer = contacts[q["buyer_email"]]
        company = POP.company_of(buyer)
        assert company is not None and company.name == q["account_name"] and buyer.name == q["buyer_name"]
        assert q["owner_email"] in STAFF and q["currency"] == books[q["price_book_id"]]
        lines = every(ep, "list_quote_lines", quote_id=q["id"])
        assert q["total"] == sum(line["net_total"] for line in lines) == q["subtotal"] - q["discount_total"]
        numbers.add(q["quote_number"])
    assert len(numbers) == len(every(ep, "list_quotes"))
    statuses = {q["status"] for q in every(ep, "list_quotes")}
    assert statuses == {"draft", "pending_approval", "approved", "sent", "accepted", "declined", "expired"}


def test_new_quote_takes_its_books_currency_and_the_next_number(ep: Episode) -> None:
    eur = every(ep, "list_price_books", currency="EUR")[0]
    before = max(int(q["quote_number"][2:]) for q in every(ep, "list_quotes"))
    q = new_quote(ep, price_book_id=eur["id"])
    assert (q["currency"], q["status"], q["total"]) == ("EUR", "draft", 0)
    assert q["quote_number"] == f"Q-{before + 1:05d}"
    inactive = every(ep, "list_price_books", active=False)[0]
    refused(ep, "create_quote", "rule_violation", "price_book_id", **_args(ep, price_book_id=inactive["id"]))
    refused(ep, "create_quote", "rule_violation", "owner_email", **_args(ep, owner_email=POP.contacts[1].email))
    late = (TODAY + dt.timedelta(days=200)).isoformat()
    refused(ep, "create_quote", "rule_violation", "expiration_date", **_args(ep, expiration_date=late))


def _args(ep: Episode, **over: Any) -> dict[str, Any]:
    buyer = POP.contacts[0]
    book = every(ep, "list_price_books", currency="USD", active=True)[0]
    return {
        "name": "Pilot",
        "account_name": "Someone Inc",
        "buyer_name": buyer.name,
        "buyer_email": buyer.email,
        "owner_email": POP.staff("Sales")[0].email,
        "price_book_id": book["id"],
        "expiration_date": (TODAY + dt.timedelta(days=30)).isoformat(),
    } | over


def test_lines_price_from_the_book_and_recompute_totals(ep: Episode) -> None:
    q = new_quote(ep)
    product = sellable(ep, q)
    entry = every(ep, "list_price_book_entries", price_book_id=q["price_book_id"], product_id=product)[0]
    line = ok(ep, "add_quote_line", quote_id=q["id"], product_id=product, quantity=4, discount_percent=10.0)
    gross = 4 * entry["unit_price"]
    assert line["net_total"] == gross - round(gross * 0.1)
    after = ok(ep, "get_quote", quote_id=q["id"])
    assert (after["subtotal"], after["total"], after["max_discount_percent"]) == (gross, line["net_total"], 10.0)
    refused(ep, "add_quote_line", "conflict", "product_id", quote_id=q["id"], product_id=product, quantity=1)
    other = sellable(ep, q)
    refused(
        ep,
        "add_quote_line",
        "rule_violation",
        "discount_percent",
        quote_id=q["id"],
        product_id=other,
        quantity=1,
        discount_percent=45.0,
    )
    dead = every(ep, "list_products", active=False)[0]
    refused(ep, "add_quote_line", "rule_violation", "product_id", quote_id=q["id"], product_id=dead["id"], quantity=1)
    emptied = ok(ep, "remove_quote_line", quote_line_id=line["id"])
    assert (emptied["subtotal"], emptied["total"]) == (0, 0)


def test_a_product_without_a_price_in_the_books_currency_cannot_be_quoted(ep: Episode) -> None:
    eur = every(ep, "list_price_books", currency="EUR")[0]
    priced = {e["product_id"] for e in every(ep, "list_price_book_entries", price_book_id=eur["id"], active=True)}
    missing = next(p for p in every(ep, "list_products", active=True) if p["id"] not in priced)
    q = new_quote(ep, price_book_id=eur["id"])
    refused(
        ep, "add_quote_line", "rule_violation", "product_id", quote_id=q["id"], product_id=missing["id"], quantity=1
    )


def test_small_discounts_approve_at_submit_and_empty_quotes_cannot_be_submitted(ep: Episode) -> None:
    q = new_quote(ep)
    refused(ep, "submit_quote", "rule_violation", "quote_id", quote_id=q["id"])
    ok(ep, "add_quote_line", quote_id=q["id"], product_id=sellable(ep, q), quantity=2, discount_percent=15.0)
    done = ok(ep, "submit_quote", quote_id=q["id"])
    assert (done["status"], done["approval_level"]) == ("approved", "none")
    refused(
        ep, "add_quote_line", "rule_violation", "quote_id", quote_id=q["id"], product_id=sellable(ep, q), quantity=1
    )
    refused(ep, "update_quote", "rule_violation", "quote_id", quote_id=q["id"], name="Changed")


def test_deep_discounts_need_finance_and_no_one_approves_their_own_quote(ep: Episode) -> None:
    q = quote(ep, "pending_approval", approval_level="finance")
    refused(ep, "approve_quote", "rule_violation", "approver_email", quote_id=q["id"], approver_email=q["owner_email"])
    sales = next(e for e in sorted(STAFF) if e not in FINANCE and e != q["owner_email"])
    refused(ep, "approve_quote", "rule_violation", "approver_email", quote_id=q["id"], approver_email=sales)
    refused(
        ep, "approve_quote", "rule_violation", "approver_email", quote_id=q["id"], approver_email=POP.contacts[0].email
    )
    done = ok(ep, "approve_quote", quote_id=q["id"], approver_email=FINANCE[0])
    assert (done["status"], done["approver_email"]) == ("approved", FINANCE[0])
    m = quote(ep, "pending_approval", approval_level="manager")
    assert ok(ep, "approve_quote", quote_id=m["id"], approver_email=sales)["status"] == "approved"


def test_rejection_and_recall_send_a_quote_back_to_draft(ep: Episode) -> None:
    q = quote(ep, "pending_approval", approval_level="manager")
    approver = next(e for e in sorted(STAFF) if e != q["owner_email"])
    refused(ep, "reject_quote", "rule_violation", "note", quote_id=q["id"], approver_email=approver, note=" ")
    back = ok(ep, "reject_quote", quote_id=q["id"], approver_email=approver, note="Too deep for one year")
    assert (back["status"], back["approval_note"]) == ("draft", "Too deep for one year")
    a = quote(ep, "approved")
    recalled = ok(ep, "recall_quote", quote_id=a["id"])
    assert (recalled["status"], recalled["approver_email"]) == ("draft", None)
    assert ok(ep, "update_quote", quote_id=a["id"], notes="Net 30")["notes"] == "Net 30"


def test_only_the_buyer_signs_a_sent_quote(ep: Episode) -> None:
    a = quote(ep, "approved")
    refused(
        ep,
        "accept_quote",
        "rule_violation",
        "quote_id",
        quote_id=a["id"],
        signer_name=a["buyer_name"],
        signer_email=a["buyer_email"],
    )
    sent = ok(ep, "send_quote", quote_id=a["id"])
    assert sent["status"] == "sent" and sent["sent_at"]
    refused(
        ep,
        "accept_quote",
        "rule_violation",
        "signer_email",
        quote_id=a["id"],
        signer_name="Someone Else",
        signer_email=POP.consumers[0].email,
    )
    done = ok(ep, "accept_quote", quote_id=a["id"], signer_name=a["buyer_name"], signer_email=a["buyer_email"])
    assert (done["status"], done["signer_email"]) == ("accepted", a["buyer_email"])
    refused(ep, "decline_quote", "rule_violation", "quote_id", quote_id=a["id"], reason="Too late")


def test_expired_quotes_cannot_be_accepted_and_are_swept(ep: Episode) -> None:
    stale = quote(ep, "sent", live=False)
    refused(
        ep,
        "accept_quote",
        "rule_violation",
        "quote_id",
        quote_id=stale["id"],
        signer_name=stale["buyer_name"],
        signer_email=stale["buyer_email"],
    )
    live = quote(ep, "sent")
    swept = ok(ep, "expire_quotes")
    ids = {q["id"] for q in swept["expired"]}
    assert stale["id"] in ids and live["id"] not in ids
    assert all(q["status"] == "expired" for q in swept["expired"])
    assert ok(ep, "expire_quotes")["expired"] == []
    assert ok(ep, "decline_quote", quote_id=live["id"], reason="Budget cut")["decline_reason"] == "Budget cut"
