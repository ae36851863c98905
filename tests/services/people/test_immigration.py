"""Passage Immigration: case rules, documents, petitions with receipts, RFEs, decisions and expirations."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

IMM = ServiceTools("immigration")
WORLD = IMM.world
ok, refused, every = IMM.ok, IMM.refused, IMM.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
HR = POP.employees[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def case_in(ep: Episode, status: str, **where: Any) -> Any:
    return every(ep, "list_cases", status=status, **where)[0]


def open_args(fn_id: str, case_type: str, wage: int = 15_000_000, prevailing: int = 14_000_000) -> dict[str, Any]:
    return {
        "foreign_national_id": fn_id,
        "case_type": case_type,
        "job_title": "Software Engineer",
        "offered_wage_cents": wage,
        "prevailing_wage_cents": prevailing,
        "hr_owner_email": HR,
        "target_file_by": day(45),
    }


def test_seeded_foreign_nationals_are_employees_and_petitions_carry_receipts(ep: Episode) -> None:
    people = every(ep, "list_foreign_nationals")
    assert len({p["employee_email"] for p in people}) == len(people)
    assert all(p["employee_email"] in STAFF for p in people)
    for pet in every(ep, "list_petitions"):
        assert re.fullmatch(r"(EAC|WAC|LIN|SRC|IOE|MSC)\d{10}", pet["receipt_number"])
    for c in every(ep, "list_cases"):
        if c["case_type"] in ("h1b", "h1b_extension", "l1"):
            assert c["offered_wage_cents"] >= c["prevailing_wage_cents"]
    assert {"intake", "collecting_documents", "preparing", "filed", "rfe", "approved", "withdrawn"} <= {
        c["status"] for c in every(ep, "list_cases")
    }


def test_adding_a_foreign_national_needs_a_non_us_employee_once(ep: Episode) -> None:
    known = every(ep, "list_foreign_nationals")[0]
    taken = {p["employee_email"] for p in every(ep, "list_foreign_nationals")}
    free = next(p for p in POP.employees if p.email not in taken)
    base = {"name": free.name, "current_status": "TN", "status_expires_on": day(300), "passport_expires_on": day(2000)}
    refused(
        ep,
        "add_foreign_national",
        "conflict",
        "employee_email",
        **(base | {"employee_email": known["employee_email"], "citizenship": "CA"}),
    )
    refused(
        ep,
        "add_foreign_national",
        "rule_violation",
        "employee_email",
        **(base | {"employee_email": "x@nowhere.io", "citizenship": "CA"}),
    )
    refused(
        ep,
        "add_foreign_national",
        "rule_violation",
        "citizenship",
        **(base | {"employee_email": free.email, "citizenship": "US"}),
    )
    made = ok(ep, "add_foreign_national", employee_email=free.email, citizenship="CA", **base)
    assert made["current_status"] == "TN"


def test_cases_need_the_prevailing_wage_and_one_open_case_per_type(ep: Episode) -> None:
    opt = every(ep, "list_foreign_nationals", current_status="F-1 OPT")[0]
    refused(ep, "open_case", "rule_violation", "offered_wage_cents", **open_args(opt["id"], "l1", 9_000_000))
    refused(ep, "open_case", "rule_violation", "case_type", **open_args(opt["id"], "h1b_extension"))
    made = ok(ep, "open_case", **open_args(opt["id"], "o1", 9_000_000))
    assert made["status"] == "intake"
    refused(ep, "open_case", "conflict", "case_type", **open_args(opt["id"], "o1"))
    refused(
        ep, "open_case", "rule_violation", "attorney_email", **(open_args(opt["id"], "l1") | {"attorney_email": HR})
    )


def test_a_case_is_prepared_only_when_every_document_is_accepted(ep: Episode) -> None:
    case = case_in(ep, "intake")
    doc = ok(ep, "request_document", case_id=case["id"], kind="passport")
    assert ok(ep, "get_case", case_id=case["id"])["status"] == "collecting_documents"
    refused(ep, "request_document", "conflict", "kind", case_id=case["id"], kind="passport")
    refused(ep, "prepare_case", "rule_violation", "case_id", case_id=case["id"])
    ok(ep, "submit_document", document_id=doc["id"], file_url="https://files.example/passport.pdf")
    refused(ep, "review_document", "rule_violation", "reason", document_id=doc["id"], accept=False)
    assert ok(ep, "review_document", document_id=doc["id"], accept=False, reason="Expired")["status"] == "rejected"
    ok(ep, "submit_document", document_id=doc["id"], file_url="https://files.example/passport2.pdf")
    ok(ep, "review_document", document_id=doc["id"], accept=True)
    assert ok(ep, "prepare_case", case_id=case["id"])["status"] == "preparing"


def test_filing_needs_a_prepared_case_the_right_form_and_a_unique_receipt(ep: Episode) -> None:
    prepared = case_in(ep, "preparing")
    known = every(ep, "list_petitions")[0]["receipt_number"]
    args = {"case_id": prepared["id"], "fee_cents": 70_000}
    refused(ep, "file_petition", "rule_violation", "form", form="I-129", receipt_number="IOE0912345678", **args)
    refused(ep, "file_petition", "conflict", "receipt_number", form="I-140", receipt_number=known, **args)
    refused(ep, "file_petition", "invalid_arguments", "receipt_number", form="I-140", receipt_number="ABC123", **args)
    pet = ok(ep, "file_petition", form="I-140", receipt_number="IOE0912345678", **args)
    assert (pet["status"], pet["filed_on"]) == ("pending", TODAY.isoformat())
    assert ok(ep, "get_case", case_id=prepared["id"])["status"] == "filed"
    intake = case_in(ep, "intake")
    refused(
        ep,
        "file_petition",
        "rule_violation",
        "case_id",
        case_id=intake["id"],
        form="I-129",
        receipt_number="WAC2699999999",
        fee_cents=1,
    )


def test_an_rfe_is_answered_by_its_due_date_and_the_petition_pends_again(ep: Episode) -> None:
    pet = every(ep, "list_petitions", status="pending", form="I-129")[0]
    refused(ep, "record_rfe", "invalid_arguments", "due_in_days", petition_id=pet["id"], due_in_days=88)
    rfe = ok(ep, "record_rfe", petition_id=pet["id"], due_in_days=30)
    assert (rfe["status"], rfe["rfe_due_on"]) == ("rfe_issued", day(30))
    assert ok(ep, "get_case", case_id=pet["case_id"])["status"] == "rfe"
    refused(ep, "decide_petition", "rule_violation", "petition_id", petition_id=pet["id"], approved=True)
    assert ok(ep, "respond_rfe", petition_id=pet["id"])["status"] == "pending"
    assert ok(ep, "get_case", case_id=pet["case_id"])["status"] == "filed"


def test_approving_a_work_visa_updates_the_foreign_nationals_status(ep: Episode) -> None:
    pet = every(ep, "list_petitions", status="pending", form="I-129")[0]
    case = ok(ep, "get_case", case_id=pet["case_id"])
    done = ok(ep, "decide_petition", petition_id=pet["id"], approved=True)
    assert done["status"] == "approved" and done["valid_until"] > TODAY.isoformat()
    assert ok(ep, "get_case", case_id=case["id"])["status"] == "approved"
    fn = ok(ep, "get_foreign_national", foreign_national_id=case["foreign_national_id"])
    assert (fn["current_status"], fn["status_expires_on"]) == ("H-1B", done["valid_until"])


def test_a_green_card_needs_both_forms_before_permanent_residence(ep: Episode) -> None:
    case = case_in(ep, "filed", case_type="green_card")
    i140 = every(ep, "list_petitions", case_id=case["id"], form="I-140")[0]
    ok(ep, "decide_petition", petition_id=i140["id"], approved=True)
    assert ok(ep, "get_case", case_id=case["id"])["status"] == "filed"
    i485 = ok(ep, "file_petition", case_id=case["id"], form="I-485", receipt_number="MSC2690000001", fee_cents=1)
    refused(ep, "upgrade_premium", "rule_violation", "petition_id", petition_id=i485["id"])
    ok(ep, "decide_petition", petition_id=i485["id"], approved=True)
    fn = ok(ep, "get_foreign_national", foreign_national_id=case["foreign_national_id"])
    assert (fn["current_status"], fn["status_expires_on"]) == ("permanent_resident", None)
    assert ok(ep, "get_case", case_id=case["id"])["status"] == "approved"


def test_premium_processing_is_bought_once_and_adds_the_fee(ep: Episode) -> None:
    pet = every(ep, "list_petitions", status="pending", premium_processing=False)[0]
    up = ok(ep, "upgrade_premium", petition_id=pet["id"])
    assert (up["premium_processing"], up["fee_cents"]) == (True, pet["fee_cents"] + 280_500)
    refused(ep, "upgrade_premium", "conflict", "petition_id", petition_id=pet["id"])


def test_withdrawing_a_case_withdraws_its_pending_petitions(ep: Episode) -> None:
    pet = every(ep, "list_petitions", status="rfe_issued")[0]
    assert ok(ep, "withdraw_case", case_id=pet["case_id"])["status"] == "withdrawn"
    assert ok(ep, "get_petition", petition_id=pet["id"])["status"] == "withdrawn"
    refused(ep, "respond_rfe", "rule_violation", "petition_id", petition_id=pet["id"])
    refused(ep, "withdraw_case", "rule_violation", "case_id", case_id=pet["case_id"])


def test_expiring_statuses_are_soonest_first_with_their_open_case(ep: Episode) -> None:
    soon = ok(ep, "expiring_statuses", within_days=180)
    assert soon and [e["expires_on"] for e in soon] == sorted(e["expires_on"] for e in soon)
    assert all(0 <= e["days_left"] <= 180 for e in soon)
    for e in soon:
        if e["open_case_id"]:
            case = ok(ep, "get_case", case_id=e["open_case_id"])
            assert case["foreign_national_id"] == e["foreign_national_id"]
    assert {e["what"] for e in soon} == {"status", "passport"}
