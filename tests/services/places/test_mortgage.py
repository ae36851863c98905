"""Keystone Lending: milestone gates, conditions, TRID disclosure timing, rate locks and program limits."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LOANS = ServiceTools("mortgage")
WORLD = LOANS.world
ok, refused, every = LOANS.ok, LOANS.refused, LOANS.every
POP = WORLD.population
TODAY = WORLD.epoch.date().isoformat()
OFFICER = POP.employees[0].email


def loan(ep: Episode, milestone: str, program: str | None = None) -> dict[str, Any]:
    found = every(ep, "list_loans", milestone=milestone)
    return next(x for x in found if program is None or x["program"] == program)


def test_seeded_loans_belong_to_consumers_at_their_address_and_staff_officers(ep: Episode) -> None:
    consumers = {p.email: p for p in POP.consumers}
    staff = {p.email for p in POP.employees}
    loans = every(ep, "list_loans")
    assert {x["milestone"] for x in loans} >= {"application", "underwriting", "clear_to_close", "funded"}
    for x in loans:
        assert x["loan_officer_email"] in staff
        b = every(ep, "list_borrowers", loan_id=x["id"])[0]
        assert consumers[b["email"]].address.street == x["property_address"]["street"]


def test_starting_a_loan_checks_officer_amount_and_open_files_on_the_property(ep: Episode) -> None:
    addr = POP.consumers[-1].address.model_dump()
    args = {"purpose": "purchase", "program": "fha", "note_rate": 6.25, "property_address": addr}
    refused(
        ep,
        "start_loan",
        "rule_violation",
        "loan_officer_email",
        loan_officer_email="x@y.io",
        loan_amount=20_000_000,
        **args,
    )
    refused(ep, "start_loan", "rule_violation", "loan_amount", loan_officer_email=OFFICER, loan_amount=500, **args)
    made = ok(ep, "start_loan", loan_officer_email=OFFICER, loan_amount=20_000_000, **args)
    assert (made["milestone"], made["application_date"]) == ("application", TODAY)
    refused(ep, "start_loan", "conflict", "property_address", loan_officer_email=OFFICER, loan_amount=1_000_000, **args)


def test_processing_needs_a_borrower_and_a_timely_loan_estimate(ep: Episode) -> None:
    addr = POP.consumers[-1].address.model_dump()
    made = ok(
        ep,
        "start_loan",
        loan_officer_email=OFFICER,
        purpose="refinance",
        program="conventional",
        loan_amount=20_000_000,
        note_rate=6.5,
        property_address=addr,
    )
    refused(ep, "advance_milestone", "rule_violation", "loan_id", loan_id=made["id"])
    refused(ep, "send_disclosure", "rule_violation", "loan_id", loan_id=made["id"], kind="loan_estimate")
    refused(ep, "send_disclosure", "rule_violation", "kind", loan_id=made["id"], kind="closing_disclosure")
    p = POP.consumers[-1]
    who = {"first_name": p.first_name, "last_name": p.last_name, "email": p.email, "annual_income": 9_000_000}
    ok(ep, "add_borrower", loan_id=made["id"], credit_score=700, **who)
    refused(ep, "add_borrower", "conflict", "email", loan_id=made["id"], credit_score=700, **who)
    le = ok(ep, "send_disclosure", loan_id=made["id"], kind="loan_estimate")
    assert (le["version"], le["timely"], le["received_on"]) == (1, True, None)
    assert ok(ep, "advance_milestone", loan_id=made["id"])["milestone"] == "processing"


def test_underwriting_needs_an_appraised_value(ep: Episode) -> None:
    x = loan(ep, "processing")
    refused(ep, "advance_milestone", "rule_violation", "loan_id", loan_id=x["id"])
    ok(ep, "update_loan", loan_id=x["id"], property_value=x["loan_amount"] + 2_000_000)
    assert ok(ep, "advance_milestone", loan_id=x["id"])["milestone"] == "underwriting"


def test_approval_applies_program_limits_and_open_prior_to_approval_conditions(ep: Episode) -> None:
    jumbo = loan(ep, "underwriting", "jumbo")
    q = ok(ep, "qualify_loan", loan_id=jumbo["id"])
    assert not q["eligible"] and q["ltv"] > 80 and any("LTV" in p for p in q["problems"])
    assert "LTV" in refused(ep, "advance_milestone", "rule_violation", "loan_id", loan_id=jumbo["id"])
    conv = loan(ep, "underwriting", "conventional")
    assert ok(ep, "qualify_loan", loan_id=conv["id"])["eligible"]
    extra = ok(ep, "create_condition", loan_id=conv["id"], title="Gift letter", category="prior_to_approval")
    refused(ep, "advance_milestone", "rule_violation", "loan_id", loan_id=conv["id"])
    refused(ep, "waive_condition", "rule_violation", "reason", condition_id=extra["id"], reason=" ")
    ok(ep, "waive_condition", condition_id=extra["id"], reason="Funds already seasoned in the account.")
    assert ok(ep, "advance_milestone", loan_id=conv["id"])["milestone"] == "approved"


def test_only_underwriting_denies_and_a_denied_loan_is_closed(ep: Episode) -> None:
    refused(ep, "deny_loan", "rule_violation", "loan_id", loan_id=loan(ep, "approved")["id"], reason="DTI")
    jumbo = loan(ep, "underwriting", "jumbo")
    refused(ep, "deny_loan", "rule_violation", "reason", loan_id=jumbo["id"], reason="  ")
    denied = ok(ep, "deny_loan", loan_id=jumbo["id"], reason="LTV above the jumbo limit.")
    assert denied["milestone"] == "denied"
    refused(ep, "lock_rate", "rule_violation", "loan_id", loan_id=jumbo["id"], rate=6.5, lock_days=30)


def test_clear_to_close_needs_a_closing_disclosure_after_approval(ep: Episode) -> None:
    x = loan(ep, "approved")
    refused(ep, "send_disclosure", "rule_violation", "kind", loan_id=x["id"], kind="loan_estimate")
    assert "Closing Disclosure" in refused(ep, "advance_milestone", "rule_violation", "loan_id", loan_id=x["id"])
    cd = ok(ep, "send_disclosure", loan_id=x["id"], kind="closing_disclosure")
    assert cd["sent_on"] == TODAY
    assert ok(ep, "advance_milestone", loan_id=x["id"])["milestone"] == "clear_to_close"


def test_funding_waits_three_business_days_after_the_closing_disclosure_is_received(ep: Episode) -> None:
    x = next(c for c in every(ep, "list_loans", milestone="clear_to_close") if c["program"] == "conventional")
    for c in every(ep, "list_conditions", loan_id=x["id"], category="prior_to_funding"):
        refused(ep, "waive_condition", "rule_violation", "condition_id", condition_id=c["id"], reason="Not needed")
        if c["status"] == "open":
            ok(ep, "receive_condition", condition_id=c["id"])
        ok(ep, "clear_condition", condition_id=c["id"])
    assert "TRID" in refused(ep, "advance_milestone", "rule_violation", "loan_id", loan_id=x["id"])


def test_an_expired_lock_blocks_funding_until_the_rate_is_locked_again(ep: Episode) -> None:
    x = loan(ep, "clear_to_close", "fha")
    old = every(ep, "list_locks", loan_id=x["id"])[0]
    refused(ep, "extend_lock", "rule_violation", "lock_id", lock_id=old["id"], days=7)
    assert "lock" in refused(ep, "advance_milestone", "rule_violation", "loan_id", loan_id=x["id"])
    new = ok(ep, "lock_rate", loan_id=x["id"], rate=6.25, lock_days=15)
    refused(ep, "lock_rate", "conflict", "loan_id", loan_id=x["id"], rate=6.0, lock_days=30)
    funded = ok(ep, "advance_milestone", loan_id=x["id"])
    assert funded["milestone"] == "funded" and funded["funded_at"] is not None
    assert new["status"] == "active" and ok(ep, "list_locks", loan_id=x["id"])
    refused(ep, "advance_milestone", "rule_violation", "loan_id", loan_id=x["id"])


def test_a_lock_extends_at_most_twice(ep: Episode) -> None:
    x = loan(ep, "approved")
    lock = every(ep, "list_locks", loan_id=x["id"], status="active")[0]
    once = ok(ep, "extend_lock", lock_id=lock["id"], days=15)
    twice = ok(ep, "extend_lock", lock_id=lock["id"], days=7)
    assert twice["extensions"] == 2 and twice["expires_on"] > once["expires_on"] > lock["expires_on"]
    refused(ep, "extend_lock", "rule_violation", "lock_id", lock_id=lock["id"], days=7)
