"""Civic Code Enforcement: complaint to case, inspections, the notice ladder, fines, abatement and closing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CE = ServiceTools("codeenforce")
WORLD = CE.world
ok, refused, every, first = CE.ok, CE.refused, CE.every, CE.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
OFFICER = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def stage(ep: Episode, kind: str) -> dict[str, Any]:
    """The violation case whose last notice is of this kind."""
    for case in every(ep, "list_cases", status="violation"):
        kinds = [n["kind"] for n in every(ep, "list_notices", case_id=case["id"])]
        if kinds and kinds[-1] == kind:
            return case
    raise AssertionError(kind)


def new_case(ep: Episode) -> dict[str, Any]:
    comp = ok(
        ep,
        "create_complaint",
        street="77 Birch Ln",
        city="Springfield",
        category="trash",
        description="Mattresses piled in the front yard",
    )
    made: dict[str, Any] = ok(
        ep,
        "open_case",
        complaint_id=comp["id"],
        owner_name="Harold Jennings",
        officer_email=OFFICER,
        owner_email="harold@example.org",
    )
    return made


def test_owners_are_residents_and_complaints_point_at_their_cases(ep: Episode) -> None:
    names = {p.name for p in POP.consumers}
    for case in every(ep, "list_cases"):
        assert case["owner_name"] in names
        assert every(ep, "list_complaints", case_id=case["id"])[0]["street"] == case["street"]


def test_a_complaint_becomes_one_case_per_address_and_category(ep: Episode) -> None:
    case = new_case(ep)
    assert (case["status"], case["case_number"][:4]) == ("open", f"CE{TODAY:%y}")
    dup = ok(ep, "create_complaint", street="77 Birch Ln", city="Springfield", category="trash", description="Again")
    refused(
        ep, "open_case", "conflict", "complaint_id", complaint_id=dup["id"], owner_name="H J", officer_email=OFFICER
    )
    refused(
        ep,
        "open_case",
        "rule_violation",
        "officer_email",
        complaint_id=dup["id"],
        owner_name="H J",
        officer_email="nobody@example.org",
    )
    assert ok(ep, "dismiss_complaint", complaint_id=dup["id"])["status"] == "dismissed"


def test_inspections_record_violations_and_reinspections_clear_them(ep: Episode) -> None:
    case = new_case(ep)
    refused(ep, "schedule_inspection", "rule_violation", "scheduled_on", case_id=case["id"], scheduled_on=day(-1))
    first_visit = ok(ep, "schedule_inspection", case_id=case["id"], scheduled_on=day(0))
    assert (first_visit["kind"], first_visit["inspector_email"]) == ("initial", OFFICER)
    refused(ep, "schedule_inspection", "conflict", "case_id", case_id=case["id"], scheduled_on=day(1))
    refused(
        ep,
        "record_inspection",
        "rule_violation",
        "code_sections",
        inspection_id=first_visit["id"],
        outcome="violation_found",
    )
    ok(ep, "record_inspection", inspection_id=first_visit["id"], outcome="violation_found", code_sections=["8-22"])
    assert ok(ep, "get_case", case_id=case["id"])["status"] == "violation"
    again = ok(ep, "schedule_inspection", case_id=case["id"], scheduled_on=day(0))
    assert again["kind"] == "reinspection"
    refused(ep, "record_inspection", "rule_violation", "outcome", inspection_id=again["id"], outcome="no_violation")
    ok(ep, "record_inspection", inspection_id=again["id"], outcome="corrected")
    assert {v["status"] for v in every(ep, "list_violations", case_id=case["id"])} == {"corrected"}
    assert ok(ep, "close_case", case_id=case["id"])["status"] == "closed"


def test_notices_climb_the_ladder_only_after_each_deadline(ep: Episode) -> None:
    case = new_case(ep)
    refused(ep, "issue_notice", "rule_violation", "case_id", case_id=case["id"], days_to_comply=14)
    visit = ok(ep, "schedule_inspection", case_id=case["id"], scheduled_on=day(0))
    ok(ep, "record_inspection", inspection_id=visit["id"], outcome="violation_found", code_sections=["8-22"])
    refused(ep, "issue_notice", "rule_violation", "days_to_comply", case_id=case["id"], days_to_comply=45)
    n = ok(ep, "issue_notice", case_id=case["id"], days_to_comply=7)
    assert (n["kind"], n["comply_by"], n["owner_email"]) == ("courtesy", day(7), "harold@example.org")
    refused(ep, "issue_notice", "rule_violation", "case_id", case_id=case["id"], days_to_comply=7)
    older = stage(ep, "courtesy")
    assert ok(ep, "issue_notice", case_id=older["id"], days_to_comply=10)["kind"] == "nov"
    refused(ep, "issue_notice", "rule_violation", "case_id", case_id=stage(ep, "final")["id"], days_to_comply=10)


def test_fines_need_a_passed_deadline_and_double_on_repeat(ep: Episode) -> None:
    case = stage(ep, "nov")
    before = [f for f in every(ep, "list_fines", case_id=case["id"]) if f["kind"] == "fine"]
    fine = ok(ep, "assess_fine", case_id=case["id"])
    assert fine["amount_cents"] == 7500 * 2 ** len(before)
    assert ok(ep, "assess_fine", case_id=case["id"])["amount_cents"] == fine["amount_cents"] * 2
    fresh = new_case(ep)
    refused(ep, "assess_fine", "rule_violation", "case_id", case_id=fresh["id"])


def test_abatement_follows_a_final_notice_and_bills_the_owner(ep: Episode) -> None:
    refused(
        ep, "abate", "rule_violation", "case_id", case_id=stage(ep, "courtesy")["id"], contractor="Acme", cost_cents=1
    )
    case = stage(ep, "final")
    charge = ok(ep, "abate", case_id=case["id"], contractor="Green Acres Lot Clearing", cost_cents=42000)
    assert (charge["kind"], charge["status"], charge["amount_cents"]) == ("abatement", "unpaid", 42000)
    assert {v["status"] for v in every(ep, "list_violations", case_id=case["id"])} == {"abated"}
    refused(ep, "close_case", "rule_violation", "case_id", case_id=case["id"])
    ok(ep, "pay_fine", fine_id=charge["id"])
    assert ok(ep, "close_case", case_id=case["id"])["closed_on"] == day(0)


def test_a_case_with_an_unpaid_fine_or_open_violation_stays_open(ep: Episode) -> None:
    refused(ep, "close_case", "rule_violation", "case_id", case_id=stage(ep, "courtesy")["id"])
    fined = next(c for c in every(ep, "list_cases") if every(ep, "list_fines", case_id=c["id"], status="unpaid"))
    unpaid = every(ep, "list_fines", case_id=fined["id"], status="unpaid")[0]
    assert ok(ep, "waive_fine", fine_id=unpaid["id"])["status"] == "waived"
    refused(ep, "pay_fine", "rule_violation", "fine_id", fine_id=unpaid["id"])


def test_a_closed_case_takes_no_more_work(ep: Episode) -> None:
    closed = first(ep, "cases", status="closed")
    refused(ep, "schedule_inspection", "rule_violation", "case_id", case_id=closed["id"], scheduled_on=day(1))
    refused(ep, "issue_notice", "rule_violation", "case_id", case_id=closed["id"], days_to_comply=10)
    refused(
        ep,
        "update_case",
        "rule_violation",
        "officer_email",
        case_id=first(ep, "cases", status="violation")["id"],
        officer_email="x@example.org",
    )
