"""Rightwork I-9: section deadlines, document lists, E-Verify results and referrals, reverification."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.people.i9 import business_days_after
from tests.services.helpers import ServiceTools

I9 = ServiceTools("i9")
WORLD = I9.world
ok, refused, every = I9.ok, I9.refused, I9.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
HR = POP.employees[0].email


def form(ep: Episode, status: str, **more: Any) -> dict[str, Any]:
    return every(ep, "list_forms", status=status, **more)[0]


def case(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_cases", status=status)[0]


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def new_hire(ep: Episode) -> str:
    used = {f["employee_email"] for f in every(ep, "list_forms")}
    return next(p.email for p in POP.employees if p.email not in used | {HR})


def test_seeded_forms_are_the_worlds_employees_with_deadlines_and_documents(ep: Episode) -> None:
    names = {p.email: p.name for p in POP.employees}
    for f in every(ep, "list_forms"):
        assert names[f["employee_email"]] == f["employee_name"]
        start = dt.date.fromisoformat(f["start_date"])
        assert f["section2_due"] == business_days_after(start, 3).isoformat()
    for f in every(ep, "list_forms", status="complete"):
        lists = {d["list"] for d in every(ep, "list_documents", form_id=f["id"])}
        assert "A" in lists or {"B", "C"} <= lists
    statuses = {c["status"] for c in every(ep, "list_cases")}
    assert statuses == {"open", "employment_authorized", "tentative_nonconfirmation", "referred", "closed"}


def test_business_days_skip_weekends() -> None:
    friday = dt.date(2026, 12, 4)
    assert business_days_after(friday, 3) == dt.date(2026, 12, 9)
    assert business_days_after(friday, 1) == dt.date(2026, 12, 7)


def test_one_live_form_per_employee_and_section1_rules(ep: Episode) -> None:
    who = new_hire(ep)
    refused(ep, "create_form", "rule_violation", "employee_email", employee_email="x@y.io", start_date=day(3))
    made = ok(ep, "create_form", employee_email=who, start_date=day(3))
    assert (made["status"], made["section1_due"]) == ("section1_pending", day(3))
    refused(ep, "create_form", "conflict", "employee_email", employee_email=who, start_date=day(4))
    refused(
        ep,
        "complete_section1",
        "rule_violation",
        "work_auth_expires",
        form_id=made["id"],
        citizenship="authorized_alien",
    )
    refused(
        ep,
        "complete_section1",
        "rule_violation",
        "work_auth_expires",
        form_id=made["id"],
        citizenship="citizen",
        work_auth_expires=day(300),
    )
    signed = ok(ep, "complete_section1", form_id=made["id"], citizenship="authorized_alien", work_auth_expires=day(300))
    assert (signed["status"], signed["section1_signed_on"]) == ("section2_pending", day(0))
    refused(ep, "complete_section1", "rule_violation", "form_id", form_id=made["id"], citizenship="citizen")
    ok(ep, "void_form", form_id=made["id"], reason="Wrong start date")
    assert ok(ep, "create_form", employee_email=who, start_date=day(5))["status"] == "section1_pending"


def test_section2_needs_list_a_or_b_and_c_unexpired_and_another_reviewer(ep: Episode) -> None:
    f = next(
        x
        for x in every(ep, "list_forms", status="section2_pending")
        if not every(ep, "list_documents", form_id=x["id"])
    )
    refused(ep, "complete_section2", "rule_violation", "form_id", form_id=f["id"], reviewer_email=HR)
    doc = {"form_id": f["id"], "issuing_authority": "Texas DPS"}
    refused(
        ep,
        "add_document",
        "rule_violation",
        "expiration_date",
        doc_type="drivers_license",
        document_number="TX-0001",
        expiration_date=day(-1),
        **doc,
    )
    ok(ep, "add_document", doc_type="drivers_license", document_number="TX-0001", expiration_date=day(400), **doc)
    refused(ep, "add_document", "conflict", "doc_type", doc_type="state_id_card", document_number="TX-0002", **doc)
    refused(ep, "complete_section2", "rule_violation", "form_id", form_id=f["id"], reviewer_email=HR)
    ok(ep, "add_document", doc_type="social_security_card", document_number="SSA-12345", **doc)
    refused(
        ep, "complete_section2", "rule_violation", "reviewer_email", form_id=f["id"], reviewer_email=f["employee_email"]
    )
    done = ok(ep, "complete_section2", form_id=f["id"], reviewer_email=HR)
    assert (done["status"], done["reviewer_email"]) == ("complete", HR)
    assert done["section2_late"] == (TODAY.isoformat() > f["section2_due"])
    d = every(ep, "list_documents", form_id=f["id"])[0]
    refused(ep, "delete_document", "rule_violation", "document_id", document_id=d["id"])


def test_a_late_e_verify_case_needs_a_reason_and_a_form_has_one_case(ep: Episode) -> None:
    f = next(x for x in every(ep, "list_forms", status="complete") if not every(ep, "list_cases", form_id=x["id"]))
    assert f["section2_due"] < TODAY.isoformat()
    refused(ep, "open_case", "rule_violation", "late_reason", form_id=f["id"])
    made = ok(ep, "open_case", form_id=f["id"], late_reason="Waited for the employee's SSN")
    assert (made["status"], made["employee_email"]) == ("open", f["employee_email"])
    refused(ep, "open_case", "conflict", "form_id", form_id=f["id"], late_reason="Again")
    refused(ep, "open_case", "rule_violation", "form_id", form_id=form(ep, "section1_pending")["id"])
    refused(ep, "void_form", "conflict", "form_id", form_id=f["id"], reason="Mistake")


def test_a_contested_tnc_is_referred_then_resolved(ep: Episode) -> None:
    tnc = case(ep, "tentative_nonconfirmation")
    refused(ep, "confirm_case", "rule_violation", "case_id", case_id=tnc["id"])
    referred = ok(ep, "refer_case", case_id=tnc["id"])
    assert referred["referral_response_due"] == business_days_after(TODAY, 8).isoformat()
    refused(ep, "refer_case", "rule_violation", "case_id", case_id=tnc["id"])
    assert ok(ep, "confirm_case", case_id=tnc["id"])["status"] == "employment_authorized"
    other = case(ep, "referred")
    assert ok(ep, "final_nonconfirm", case_id=other["id"])["status"] == "final_nonconfirmation"
    refused(
        ep, "close_case", "rule_violation", "closure_reason", case_id=other["id"], closure_reason="employee_continues"
    )
    closed = ok(ep, "close_case", case_id=other["id"], closure_reason="employee_terminated")
    assert (closed["status"], closed["closure_reason"]) == ("closed", "employee_terminated")


def test_closing_needs_a_result(ep: Episode) -> None:
    opened = case(ep, "open")
    refused(ep, "close_case", "rule_violation", "case_id", case_id=opened["id"], closure_reason="employee_continues")
    ok(ep, "confirm_case", case_id=opened["id"])
    refused(
        ep, "close_case", "rule_violation", "closure_reason", case_id=opened["id"], closure_reason="employee_terminated"
    )
    assert ok(ep, "close_case", case_id=opened["id"], closure_reason="employee_continues")["status"] == "closed"
    refused(ep, "close_case", "rule_violation", "case_id", case_id=opened["id"], closure_reason="employee_continues")


def test_reverification_extends_an_expiring_authorization(ep: Episode) -> None:
    f = form(ep, "complete", citizenship="authorized_alien")
    due = [d for d in ok(ep, "upcoming_deadlines", within_days=60) if d["form_id"] == f["id"]]
    assert due and due[0]["section"] == "reverification"
    base = {"form_id": f["id"], "document_number": "EAC2690099999"}
    refused(ep, "reverify", "rule_violation", "doc_type", doc_type="drivers_license", new_expiration=day(500), **base)
    refused(
        ep,
        "reverify",
        "rule_violation",
        "new_expiration",
        doc_type="employment_authorization_card",
        new_expiration=f["work_auth_expires"],
        **base,
    )
    done = ok(ep, "reverify", doc_type="employment_authorization_card", new_expiration=day(500), **base)
    assert (done["work_auth_expires"], done["reverified_on"]) == (day(500), day(0))
    assert every(ep, "list_documents", form_id=f["id"], doc_type="employment_authorization_card")
    citizen = form(ep, "complete", citizenship="citizen")
    refused(
        ep,
        "reverify",
        "rule_violation",
        "form_id",
        doc_type="us_passport",
        new_expiration=day(500),
        **(base | {"form_id": citizen["id"]}),
    )


def test_a_hire_end_to_end_from_form_to_closed_case(ep: Episode) -> None:
    who = new_hire(ep)
    f = ok(ep, "create_form", employee_email=who, start_date=day(0))
    ok(ep, "complete_section1", form_id=f["id"], citizenship="citizen")
    ok(
        ep,
        "add_document",
        form_id=f["id"],
        doc_type="us_passport",
        document_number="P12345678",
        issuing_authority="U.S. Department of State",
        expiration_date=day(3000),
    )
    ok(ep, "complete_section2", form_id=f["id"], reviewer_email=HR)
    c = ok(ep, "open_case", form_id=f["id"])
    assert c["late_reason"] is None
    ok(ep, "confirm_case", case_id=c["id"])
    assert ok(ep, "close_case", case_id=c["id"], closure_reason="employee_continues")["closed_at"] is not None
    assert not [d for d in ok(ep, "upcoming_deadlines", within_days=365) if d["form_id"] == f["id"]]
