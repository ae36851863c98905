"""Keystone Capital: documents before submission, underwriting rules, offers, one loan at a time, draws, late fees."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LEND = ServiceTools("lending")
WORLD = LEND.world
ok, refused, every = LEND.ok, LEND.refused, LEND.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
UNDERWRITER = POP.staff("Finance", fallback=2)[0].email
DOCS = {
    "line_of_credit": ("bank_statements", "tax_return"),
    "term_loan": ("bank_statements", "tax_return", "business_license"),
}


def app(ep: Episode, status: str, **filters: Any) -> dict[str, Any]:
    return every(ep, "list_applications", status=status, **filters)[0]


def upload_all(ep: Episode, a: dict[str, Any]) -> None:
    have = {d["kind"] for d in every(ep, "list_documents", application_id=a["id"]) if d["status"] != "rejected"}
    for kind in DOCS[a["product"]]:
        if kind not in have:
            ok(ep, "upload_document", application_id=a["id"], kind=kind, file_url=f"https://f.example.com/{kind}.pdf")


def verify_all(ep: Episode, a: dict[str, Any]) -> None:
    for d in every(ep, "list_documents", application_id=a["id"], status="uploaded"):
        ok(ep, "verify_document", document_id=d["id"])


def test_borrowers_are_customer_companies_and_loans_match_their_schedules(ep: Episode) -> None:
    names = {c.name: c for c in POP.customers}
    for b in every(ep, "list_businesses"):
        contacts = {p.email for p in POP.people_at(names[b["name"]])}
        assert b["contact_email"] in contacts
    assert {a["status"] for a in every(ep, "list_applications")} == {
        "draft",
        "submitted",
        "approved",
        "declined",
        "withdrawn",
    }
    for loan in every(ep, "list_loans"):
        unpaid = [i for i in every(ep, "list_installments", loan_id=loan["id"]) if i["status"] != "paid"]
        assert loan["principal_outstanding"] == sum(i["principal"] for i in unpaid) > 0


def test_an_application_is_submitted_only_with_its_documents(ep: Episode) -> None:
    for a in every(ep, "list_applications", status="draft"):
        have = {d["kind"] for d in every(ep, "list_documents", application_id=a["id"])}
        if not set(DOCS[a["product"]]) <= have:
            break
    refused(ep, "submit_application", "rule_violation", "application_id", application_id=a["id"])
    kind = next(iter(have))
    refused(ep, "upload_document", "conflict", "kind", application_id=a["id"], kind=kind, file_url="https://f.io/x.pdf")
    upload_all(ep, a)
    assert ok(ep, "submit_application", application_id=a["id"])["status"] == "submitted"
    refused(ep, "submit_application", "rule_violation", "application_id", application_id=a["id"])
    declined = app(ep, "declined")
    refused(
        ep,
        "upload_document",
        "rule_violation",
        "application_id",
        application_id=declined["id"],
        kind="tax_return",
        file_url="https://f.io/t.pdf",
    )


def test_a_business_has_one_open_application_at_a_time(ep: Episode) -> None:
    draft = app(ep, "draft")
    refused(
        ep,
        "create_application",
        "conflict",
        "business_id",
        business_id=draft["business_id"],
        product="term_loan",
        requested_amount=10_000_00,
    )
    assert ok(ep, "withdraw_application", application_id=draft["id"])["status"] == "withdrawn"
    refused(ep, "withdraw_application", "rule_violation", "application_id", application_id=draft["id"])
    again = ok(
        ep, "create_application", business_id=draft["business_id"], product="term_loan", requested_amount=10_000_00
    )
    assert again["status"] == "draft"


def test_underwriting_needs_verified_documents_and_sizes_offers_on_revenue(ep: Episode) -> None:
    a = next(
        x
        for x in every(ep, "list_applications", status="submitted")
        if every(ep, "list_documents", application_id=x["id"], status="uploaded")
    )
    refused(
        ep,
        "underwrite_application",
        "rule_violation",
        "application_id",
        application_id=a["id"],
        underwriter_email=UNDERWRITER,
    )
    verify_all(ep, a)
    refused(
        ep,
        "underwrite_application",
        "rule_violation",
        "underwriter_email",
        application_id=a["id"],
        underwriter_email="bot@else.io",
    )
    done = ok(ep, "underwrite_application", application_id=a["id"], underwriter_email=UNDERWRITER)
    assert (done["status"], done["decided_on"]) == ("approved", TODAY.isoformat())
    biz = ok(ep, "get_business", business_id=a["business_id"])
    share = 15 if biz["credit_score"] >= 700 else 10
    made = every(ep, "list_offers", application_id=a["id"])
    assert len(made) == len(DOCS[a["product"]])
    for o in made:
        assert o["amount"] <= min(a["requested_amount"], biz["annual_revenue"] * share // 100)
        assert (o["status"], o["expires_on"]) == ("open", (TODAY + dt.timedelta(days=14)).isoformat())


def test_a_low_credit_score_is_declined_without_offers(ep: Episode) -> None:
    a = next(
        x
        for x in every(ep, "list_applications", status="submitted")
        if not every(ep, "list_documents", application_id=x["id"], status="uploaded")
    )
    ok(ep, "update_business", business_id=a["business_id"], credit_score=560)
    done = ok(ep, "underwrite_application", application_id=a["id"], underwriter_email=UNDERWRITER)
    assert done["status"] == "declined" and "560" in done["decision_reason"]
    assert every(ep, "list_offers", application_id=a["id"]) == []


def test_accepting_an_offer_declines_the_others_and_opens_the_line(ep: Episode) -> None:
    first, second = every(ep, "list_offers", status="open")[:2]
    assert first["application_id"] == second["application_id"]
    loan = ok(ep, "accept_offer", offer_id=first["id"])
    assert (loan["status"], loan["credit_limit"], loan["principal_outstanding"]) == ("active", first["amount"], 0)
    assert ok(ep, "get_offer", offer_id=second["id"])["status"] == "declined"
    refused(ep, "accept_offer", "rule_violation", "offer_id", offer_id=second["id"])


def test_a_business_holds_one_loan_at_a_time(ep: Episode) -> None:
    loan = every(ep, "list_loans", product="term_loan")[0]
    a = ok(
        ep, "create_application", business_id=loan["business_id"], product="line_of_credit", requested_amount=5_000_00
    )
    upload_all(ep, a)
    ok(ep, "submit_application", application_id=a["id"])
    verify_all(ep, a)
    ok(ep, "underwrite_application", application_id=a["id"], underwriter_email=UNDERWRITER)
    offer = every(ep, "list_offers", application_id=a["id"])[0]
    refused(ep, "accept_offer", "conflict", "offer_id", offer_id=offer["id"])


def test_draws_stay_within_the_line_and_get_a_monthly_schedule(ep: Episode) -> None:
    line = every(ep, "list_loans", product="line_of_credit")[0]
    term = every(ep, "list_loans", product="term_loan")[0]
    refused(ep, "draw_funds", "rule_violation", "loan_id", loan_id=term["id"], amount=1_000_00)
    room = line["credit_limit"] - line["principal_outstanding"]
    refused(ep, "draw_funds", "rule_violation", "amount", loan_id=line["id"], amount=room + 100)
    draw = ok(ep, "draw_funds", loan_id=line["id"], amount=room)
    sched = every(ep, "list_installments", draw_id=draw["id"])
    assert len(sched) == line["term_months"] and sum(i["principal"] for i in sched) == room
    assert sorted(i["due_date"] for i in sched)[0] > TODAY.isoformat()
    assert ok(ep, "get_loan", loan_id=line["id"])["principal_outstanding"] == line["credit_limit"]


def test_overdue_installments_carry_a_late_fee_that_must_be_paid(ep: Episode) -> None:
    term = every(ep, "list_loans", product="term_loan")[0]
    overdue = [
        i
        for i in every(ep, "list_installments", loan_id=term["id"], status="scheduled")
        if i["due_date"] < TODAY.isoformat()
    ]
    late = ok(ep, "assess_late_fees", loan_id=term["id"])
    assert [i["id"] for i in late] == [i["id"] for i in overdue] and late
    inst = late[0]
    assert inst["late_fee"] == max(2500, round((inst["principal"] + inst["interest"]) * 0.05))
    assert ok(ep, "assess_late_fees", loan_id=term["id"]) == []
    base = inst["principal"] + inst["interest"]
    refused(ep, "pay_installment", "rule_violation", "amount", installment_id=inst["id"], amount=base)
    paid = ok(ep, "pay_installment", installment_id=inst["id"], amount=base + inst["late_fee"])
    assert (paid["status"], paid["paid_on"]) == ("paid", TODAY.isoformat())
    after = ok(ep, "get_loan", loan_id=term["id"])
    assert after["principal_outstanding"] == term["principal_outstanding"] - inst["principal"]
    refused(ep, "pay_installment", "conflict", "installment_id", installment_id=inst["id"], amount=1)
