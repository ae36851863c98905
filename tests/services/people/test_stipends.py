"""Perkwell Stipends: programs, enrollment, eligible claims, receipts, balances, rollover, reimbursement."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.people.stipends import period_start
from tests.services.helpers import ServiceTools

ST = ServiceTools("stipends")
WORLD = ST.world
ok, refused, every = ST.ok, ST.refused, ST.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
RECEIPT = "https://files.perkwell.com/receipts/x.pdf"


def program(ep: Episode, kind: str) -> dict[str, Any]:
    return every(ep, "list_programs", kind=kind)[0]


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def fresh_enrollment(ep: Episode, kind: str) -> dict[str, Any]:
    prog = program(ep, kind)
    enrolled = {e["employee_email"] for e in every(ep, "list_enrollments", program_id=prog["id"])}
    who = next(p.email for p in POP.employees if p.email not in enrolled)
    made: dict[str, Any] = ok(ep, "enroll", program_id=prog["id"], employee_email=who)
    return made


def test_periods_start_on_month_quarter_and_year() -> None:
    d = dt.date(2026, 8, 17)
    assert period_start(d, "monthly") == dt.date(2026, 8, 1)
    assert period_start(d, "quarterly") == dt.date(2026, 7, 1)
    assert period_start(d, "annual") == dt.date(2026, 1, 1)


def test_seeded_claims_are_enrolled_employees_in_eligible_categories(ep: Episode) -> None:
    names = {p.email: p.name for p in POP.employees}
    for e in every(ep, "list_enrollments"):
        assert names[e["employee_email"]] == e["employee_name"]
    cats = {p["id"]: set(p["categories"]) for p in every(ep, "list_programs")}
    for c in every(ep, "list_claims"):
        assert c["category"] in cats[c["program_id"]]
        assert c["amount_cents"] <= 7_500 or c["receipt_url"]
    assert {c["status"] for c in every(ep, "list_claims")} == {
        "submitted",
        "info_requested",
        "approved",
        "reimbursed",
        "rejected",
    }


def test_enrollment_needs_an_active_program_an_employee_and_happens_once(ep: Episode) -> None:
    draft = program(ep, "commuter")
    who = POP.employees[0].email
    refused(ep, "enroll", "rule_violation", "program_id", program_id=draft["id"], employee_email=who)
    ok(ep, "activate_program", program_id=draft["id"])
    refused(ep, "enroll", "rule_violation", "employee_email", program_id=draft["id"], employee_email="a@b.io")
    made = ok(ep, "enroll", program_id=draft["id"], employee_email=who)
    assert (made["status"], made["enrolled_on"]) == ("active", day(0))
    refused(ep, "enroll", "conflict", "employee_email", program_id=draft["id"], employee_email=who)
    ok(ep, "remove_enrollment", enrollment_id=made["id"])
    assert ok(ep, "enroll", program_id=draft["id"], employee_email=who)["status"] == "active"


def test_programs_need_distinct_categories(ep: Episode) -> None:
    base = {"name": "Pet Care", "kind": "family", "allowance_cents": 5_000, "period": "monthly"}
    refused(ep, "create_program", "rule_violation", "categories", categories=[], **base)
    refused(ep, "create_program", "rule_violation", "categories", categories=["meals", "meals"], **base)
    made = ok(ep, "create_program", categories=["meals"], **base)
    assert made["status"] == "draft"


def test_claims_must_be_eligible_dated_receipted_and_unique(ep: Episode) -> None:
    enr = fresh_enrollment(ep, "wellness")
    base = {"enrollment_id": enr["id"], "merchant": "Equinox"}
    refused(
        ep,
        "submit_claim",
        "rule_violation",
        "category",
        category="books",
        amount_cents=100,
        purchased_on=day(0),
        **base,
    )
    refused(
        ep,
        "submit_claim",
        "rule_violation",
        "purchased_on",
        category="gym",
        amount_cents=100,
        purchased_on=day(-1),
        **base,
    )
    refused(
        ep,
        "submit_claim",
        "rule_violation",
        "receipt_url",
        category="gym",
        amount_cents=7_501,
        purchased_on=day(0),
        **base,
    )
    made = ok(ep, "submit_claim", category="gym", amount_cents=7_501, purchased_on=day(0), receipt_url=RECEIPT, **base)
    assert (made["status"], made["employee_email"]) == ("submitted", enr["employee_email"])
    refused(
        ep,
        "submit_claim",
        "conflict",
        "merchant",
        category="gym",
        amount_cents=7_501,
        purchased_on=day(0),
        receipt_url=RECEIPT,
        **base,
    )


def test_approval_stops_at_the_periods_allowance(ep: Episode) -> None:
    enr = fresh_enrollment(ep, "remote_work")
    allowance = program(ep, "remote_work")["allowance_cents"]
    first = ok(
        ep,
        "submit_claim",
        enrollment_id=enr["id"],
        category="home_office",
        merchant="Herman Miller",
        amount_cents=allowance - 1_000,
        purchased_on=day(0),
        receipt_url=RECEIPT,
    )
    second = ok(
        ep,
        "submit_claim",
        enrollment_id=enr["id"],
        category="internet",
        merchant="Comcast",
        amount_cents=1_001,
        purchased_on=day(0),
    )
    ok(ep, "approve_claim", claim_id=first["id"])
    bal = ok(ep, "get_balance", enrollment_id=enr["id"])
    assert (bal["spent_cents"], bal["available_cents"]) == (allowance - 1_000, 1_000)
    refused(ep, "approve_claim", "rule_violation", "claim_id", claim_id=second["id"])
    assert ok(ep, "reject_claim", claim_id=second["id"], reason="Over the quarterly allowance")["status"] == "rejected"


def test_info_requests_go_back_to_the_employee_and_return_with_a_receipt(ep: Episode) -> None:
    c = every(ep, "list_claims", status="submitted")[0]
    refused(ep, "request_info", "rule_violation", "note", claim_id=c["id"], note=" ")
    asked = ok(ep, "request_info", claim_id=c["id"], note="Itemized receipt please")
    assert (asked["status"], asked["note"]) == ("info_requested", "Itemized receipt please")
    refused(ep, "approve_claim", "rule_violation", "claim_id", claim_id=c["id"])
    back = ok(ep, "resubmit_claim", claim_id=c["id"], receipt_url=RECEIPT)
    assert (back["status"], back["receipt_url"]) == ("submitted", RECEIPT)
    refused(ep, "resubmit_claim", "rule_violation", "claim_id", claim_id=c["id"], receipt_url=RECEIPT)


def test_only_approved_claims_are_reimbursed(ep: Episode) -> None:
    approved = every(ep, "list_claims", status="approved")[0]
    paid = ok(ep, "reimburse_claim", claim_id=approved["id"], payout="direct_deposit")
    assert (paid["status"], paid["payout"]) == ("reimbursed", "direct_deposit")
    refused(ep, "reimburse_claim", "rule_violation", "claim_id", claim_id=approved["id"], payout="payroll")
    submitted = every(ep, "list_claims", status="submitted")[0]
    refused(ep, "reimburse_claim", "rule_violation", "claim_id", claim_id=submitted["id"], payout="payroll")


def test_unused_allowance_rolls_over_only_where_the_program_says(ep: Episode) -> None:
    wellness = program(ep, "wellness")
    assert wellness["rollover"] is True
    for e in every(ep, "list_enrollments", program_id=wellness["id"]):
        bal = ok(ep, "get_balance", enrollment_id=e["id"])
        prev = (dt.date.fromisoformat(bal["period_start"]) - dt.timedelta(days=1)).isoformat()
        last = ok(ep, "get_balance", enrollment_id=e["id"], on=prev)
        assert bal["rolled_over_cents"] == max(last["allowance_cents"] - last["spent_cents"], 0)
    learning = program(ep, "learning")
    for b in ok(ep, "unused_balances", program_id=learning["id"]):
        assert b["rolled_over_cents"] == 0 and b["available_cents"] > 0


def test_a_newer_hire_has_one_enrollment_and_one_claim_their_email_finds(ep: Episode) -> None:
    by_email: dict[str, int] = {}
    for e in every(ep, "list_enrollments"):
        by_email[e["employee_email"]] = by_email.get(e["employee_email"], 0) + 1
    single = [email for email, n in by_email.items() if n == 1]
    assert len(single) >= 5 and max(by_email.values()) > 1  # long-standing staff are in several programs
    for email in single:
        (enrollment,) = every(ep, "list_enrollments", employee_email=email)
        (claim,) = every(ep, "list_claims", employee_email=email)
        assert claim["enrollment_id"] == enrollment["id"] and claim["status"] in ("submitted", "info_requested")
