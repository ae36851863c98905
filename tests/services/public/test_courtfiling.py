"""Clerk Connect eFiling: case initiation, envelope fees, clerk review, e-service, cancellation and closing."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.public.courtfiling import EFILING_FEE, FEES
from tests.services.helpers import ServiceTools

COURT = ServiceTools("courtfiling")
WORLD = COURT.world
ok, refused, every = COURT.ok, COURT.refused, COURT.every
POP = WORLD.population
FILER = POP.employees[0].email


def account(ep: Episode, kind: str = "firm_account", active: bool = True) -> str:
    return str(every(ep, "list_payment_accounts", kind=kind, active=active)[0]["id"])


def new_case(ep: Episode) -> Any:
    return ok(
        ep,
        "initiate_case",
        title="Acme v. Jones",
        case_type="civil_limited",
        court="Superior Court, Central Division",
        filer_email=FILER,
        plaintiff=POP.home.name,
        defendant=POP.customers[2].name,
    )


def through_review(ep: Episode, env_id: str, acct: str | None = None) -> None:
    ok(ep, "submit_envelope", envelope_id=env_id, payment_account_id=acct or account(ep))
    ok(ep, "review_envelope", envelope_id=env_id)


def test_seeded_cases_are_against_the_worlds_companies_and_consistent(ep: Episode) -> None:
    companies = {c.name for c in POP.companies}
    for case in every(ep, "list_cases"):
        assert {p["name"] for p in every(ep, "list_parties", case_id=case["id"])} <= companies
        assert (case["case_number"] is None) == (case["status"] == "pending")
        for f in every(ep, "list_filings", case_id=case["id"], status="accepted"):
            served = {r["contact_id"] for r in every(ep, "list_service_records", filing_id=f["id"])}
            assert served == set(case["service_contact_ids"])
    for env in every(ep, "list_envelopes"):
        assert env["filer_email"] in {p.email for p in POP.employees}


def test_an_initiation_leads_with_a_complaint_and_opens_the_case_on_acceptance(ep: Episode) -> None:
    env = new_case(ep)
    assert ok(ep, "get_case", case_id=env["case_id"])["status"] == "pending"
    refused(ep, "add_filing", "rule_violation", "code", envelope_id=env["id"], code="motion", document_title="Motion")
    ok(ep, "add_filing", envelope_id=env["id"], code="complaint", document_title="Complaint")
    ok(ep, "add_filing", envelope_id=env["id"], code="notice", document_title="Notice of related case")
    refused(ep, "create_envelope", "rule_violation", "case_id", case_id=env["case_id"], filer_email=FILER)
    through_review(ep, env["id"])
    done = ok(ep, "accept_envelope", envelope_id=env["id"])
    case = ok(ep, "get_case", case_id=env["case_id"])
    assert done["status"] == "accepted" and case["status"] == "open" and case["case_number"].split("-")[1] == "CL"
    assert {f["status"] for f in every(ep, "list_filings", envelope_id=env["id"])} == {"accepted"}


def test_fees_are_fixed_at_submission_and_waived_under_a_fee_waiver(ep: Episode) -> None:
    case = every(ep, "list_cases", status="open")[0]
    env = ok(ep, "create_envelope", case_id=case["id"], filer_email=FILER)
    refused(
        ep, "submit_envelope", "rule_violation", "envelope_id", envelope_id=env["id"], payment_account_id=account(ep)
    )
    ok(ep, "add_filing", envelope_id=env["id"], code="motion", document_title="Motion to continue")
    ok(ep, "add_filing", envelope_id=env["id"], code="proposed_order", document_title="Proposed order")
    quote = ok(ep, "fee_quote", envelope_id=env["id"], payment_account_id=account(ep))
    assert quote["total_cents"] == FEES["motion"] + EFILING_FEE
    assert ok(ep, "fee_quote", envelope_id=env["id"], payment_account_id=account(ep, "fee_waiver"))["total_cents"] == 0
    refused(
        ep,
        "submit_envelope",
        "rule_violation",
        "payment_account_id",
        envelope_id=env["id"],
        payment_account_id=account(ep, "credit_card", False),
    )
    sent = ok(ep, "submit_envelope", envelope_id=env["id"], payment_account_id=account(ep))
    assert (sent["status"], sent["filing_fees_cents"], sent["efiling_fee_cents"]) == ("submitted", 6_000, EFILING_FEE)
    refused(ep, "add_filing", "rule_violation", "envelope_id", envelope_id=env["id"], code="notice", document_title="N")


def test_subsequent_filings_cannot_start_a_case_or_go_into_closed_ones(ep: Episode) -> None:
    case = every(ep, "list_cases", status="open")[0]
    env = ok(ep, "create_envelope", case_id=case["id"], filer_email=FILER)
    refused(ep, "add_filing", "rule_violation", "code", envelope_id=env["id"], code="complaint", document_title="C")
    closed = every(ep, "list_cases", status="closed")[0]
    refused(ep, "create_envelope", "rule_violation", "case_id", case_id=closed["id"], filer_email=FILER)
    refused(ep, "create_envelope", "rule_violation", "filer_email", case_id=case["id"], filer_email="x@opposing.law")


def test_the_clerk_reviews_before_deciding_and_a_rejection_charges_nothing(ep: Episode) -> None:
    sub = every(ep, "list_envelopes", status="submitted")[0]
    refused(ep, "accept_envelope", "rule_violation", "envelope_id", envelope_id=sub["id"])
    ok(ep, "review_envelope", envelope_id=sub["id"])
    refused(ep, "cancel_envelope", "rule_violation", "envelope_id", envelope_id=sub["id"])
    out = ok(
        ep, "reject_envelope", envelope_id=sub["id"], reason="missing_information", clerk_comment="No hearing date"
    )
    assert (out["status"], out["rejection_reason"], out["filing_fees_cents"], out["efiling_fee_cents"]) == (
        "rejected",
        "missing_information",
        0,
        0,
    )
    assert {f["status"] for f in every(ep, "list_filings", envelope_id=sub["id"])} == {"rejected"}
    refused(ep, "accept_envelope", "rule_violation", "envelope_id", envelope_id=sub["id"])


def test_a_rejected_initiation_leaves_no_case(ep: Episode) -> None:
    env = new_case(ep)
    ok(ep, "add_filing", envelope_id=env["id"], code="complaint", document_title="Complaint")
    through_review(ep, env["id"])
    ok(ep, "reject_envelope", envelope_id=env["id"], reason="missing_signature")
    case = ok(ep, "get_case", case_id=env["case_id"])
    assert (case["status"], case["case_number"]) == ("closed", None)


def test_acceptance_e_serves_the_cases_service_contacts(ep: Episode) -> None:
    case = every(ep, "list_cases", status="open")[0]
    extra = next(c for c in every(ep, "list_service_contacts") if c["id"] not in case["service_contact_ids"])
    ok(ep, "attach_service_contact", case_id=case["id"], contact_id=extra["id"])
    refused(ep, "attach_service_contact", "conflict", "contact_id", case_id=case["id"], contact_id=extra["id"])
    env = ok(ep, "create_envelope", case_id=case["id"], filer_email=FILER)
    f = ok(ep, "add_filing", envelope_id=env["id"], code="opposition", document_title="Opposition to motion")
    through_review(ep, env["id"])
    ok(ep, "accept_envelope", envelope_id=env["id"])
    served = {r["email"] for r in every(ep, "list_service_records", filing_id=f["id"])}
    assert extra["email"] in served and len(served) == len(case["service_contact_ids"]) + 1
    assert ok(ep, "get_filing", filing_id=f["id"])["file_stamped_at"] is not None


def test_the_filer_cancels_only_before_review(ep: Episode) -> None:
    env = every(ep, "list_envelopes", status="submitted")[0]
    out = ok(ep, "cancel_envelope", envelope_id=env["id"])
    assert (out["status"], out["filing_fees_cents"]) == ("cancelled", 0)
    refused(
        ep,
        "cancel_envelope",
        "rule_violation",
        "envelope_id",
        envelope_id=every(ep, "list_envelopes", status="accepted")[0]["id"],
    )


def test_a_case_closes_only_with_nothing_pending(ep: Episode) -> None:
    busy = next(
        c
        for c in every(ep, "list_cases", status="open")
        if every(ep, "list_envelopes", case_id=c["id"], status="under_review")
    )
    refused(ep, "close_case", "rule_violation", "case_id", case_id=busy["id"])
    env = every(ep, "list_envelopes", case_id=busy["id"], status="under_review")[0]
    ok(ep, "accept_envelope", envelope_id=env["id"])
    assert ok(ep, "close_case", case_id=busy["id"])["status"] == "closed"
    refused(
        ep,
        "attach_service_contact",
        "rule_violation",
        "case_id",
        case_id=busy["id"],
        contact_id=every(ep, "list_service_contacts")[0]["id"],
    )


def test_service_contacts_are_unique_by_email(ep: Episode) -> None:
    known = every(ep, "list_service_contacts")[0]
    refused(ep, "create_service_contact", "conflict", "email", name="Someone Else", email=known["email"])
    made = ok(ep, "create_service_contact", name="Dana Reyes", email="dreyes@reyeslaw.example", bar_number="298811")
    assert made["bar_number"] == "298811"
