"""Meridian Aid: ISIRs, verification, packaging limits, acceptance, disbursement gates, SAP, returns of funds."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

AID = ServiceTools("financialaid")
WORLD = AID.world
ok, refused, every, first = AID.ok, AID.refused, AID.every, AID.first
POP = WORLD.population
YEAR = "2025-26"


def award(ep: Episode, student_id: str, fund: str) -> dict[str, Any]:
    return next(a for a in every(ep, "list_awards", student_id=student_id) if a["fund"] == fund)


def term(ep: Episode, name: str) -> dict[str, Any]:
    return next(t for t in every(ep, "list_terms") if t["name"] == name)


def test_seeded_packages_stay_within_need_and_cost(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    for st in every(ep, "list_students"):
        assert st["email"] in consumers
        isir = every(ep, "list_isirs", student_id=st["id"], status="active")
        if not isir:
            assert not every(ep, "list_awards", student_id=st["id"])
            continue
        budget = ok(ep, "cost_of_attendance", student_id=st["id"], aid_year=YEAR)
        assert budget["offered_cents"] <= budget["cost_of_attendance_cents"]
        assert budget["need_based_cents"] <= budget["need_cents"]
        if not isir[0]["pell_eligible"]:
            assert all(a["fund"] != "pell_grant" for a in every(ep, "list_awards", student_id=st["id"]))


def test_a_new_isir_supersedes_the_last_and_selection_requests_documents(ep: Episode) -> None:
    st = next(s for s in every(ep, "list_students") if not every(ep, "list_isirs", student_id=s["id"]))
    first_isir = ok(ep, "import_isir", student_id=st["id"], aid_year=YEAR, sai=8000, selected_for_verification=False)
    assert (first_isir["transaction_number"], first_isir["pell_eligible"]) == (1, False)
    second = ok(ep, "import_isir", student_id=st["id"], aid_year=YEAR, sai=-500, selected_for_verification=True)
    assert (second["transaction_number"], second["pell_eligible"], second["verification"]) == (2, True, "pending")
    assert [i["status"] for i in every(ep, "list_isirs", student_id=st["id"])] == ["superseded", "active"]
    kinds = {d["kind"] for d in every(ep, "list_documents", student_id=st["id"])}
    assert kinds == {"tax_return_transcript", "verification_worksheet"}


def test_verification_completes_when_every_document_is_accepted(ep: Episode) -> None:
    isir = first(ep, "isirs", verification="pending")
    docs = every(ep, "list_documents", student_id=isir["student_id"])
    received = next(d for d in docs if d["status"] == "received")
    refused(ep, "reject_document", "rule_violation", "reason", document_id=received["id"], reason=" ")
    ok(ep, "reject_document", document_id=received["id"], reason="Worksheet is unsigned")
    refused(ep, "accept_document", "rule_violation", "document_id", document_id=received["id"])
    for d in docs:
        if d["status"] != "accepted":
            ok(ep, "receive_document", document_id=d["id"])
            ok(ep, "accept_document", document_id=d["id"])
    assert every(ep, "list_isirs", student_id=isir["student_id"], status="active")[0]["verification"] == "complete"


def test_packaging_respects_pell_need_cost_and_loan_limits(ep: Episode) -> None:
    no_isir = next(s for s in every(ep, "list_students") if not every(ep, "list_isirs", student_id=s["id"]))
    args = {"aid_year": YEAR, "fund": "institutional_grant", "amount_cents": 100000}
    refused(ep, "offer_award", "rule_violation", "student_id", student_id=no_isir["id"], **args)
    rich = next(i for i in every(ep, "list_isirs", status="active") if not i["pell_eligible"])
    refused(
        ep,
        "offer_award",
        "rule_violation",
        "amount_cents",
        student_id=rich["student_id"],
        aid_year=YEAR,
        fund="pell_grant",
        amount_cents=100000,
    )
    st = every(ep, "list_students", grade_level=1)[0]
    refused(
        ep,
        "offer_award",
        "conflict",
        "fund",
        student_id=st["id"],
        aid_year=YEAR,
        fund="subsidized_loan",
        amount_cents=1000,
    )
    budget = ok(ep, "cost_of_attendance", student_id=st["id"], aid_year=YEAR)
    over_need = budget["need_cents"] - budget["need_based_cents"] + 100
    refused(
        ep,
        "offer_award",
        "rule_violation",
        "amount_cents",
        student_id=st["id"],
        aid_year=YEAR,
        fund="institutional_grant",
        amount_cents=over_need,
    )
    made = ok(ep, "offer_award", student_id=st["id"], aid_year=YEAR, fund="institutional_grant", amount_cents=100000)
    assert (made["status"], made["accepted_cents"]) == ("offered", 0)


def test_direct_loans_stay_inside_annual_limits(ep: Episode) -> None:
    st = first(ep, "students", grade_level=3, dependency="independent")
    unsub = award(ep, st["id"], "unsubsidized_loan")
    for d in every(ep, "list_disbursements", award_id=unsub["id"]):
        ok(ep, "return_disbursement", disbursement_id=d["id"], reason="Repackage loans")
    ok(ep, "cancel_award", award_id=unsub["id"], reason="Repackage loans")
    # 5,500 subsidized already: 12,500 in all for an independent third-year student.
    refused(
        ep,
        "offer_award",
        "rule_violation",
        "amount_cents",
        student_id=st["id"],
        aid_year=YEAR,
        fund="unsubsidized_loan",
        amount_cents=700100,
    )
    assert (
        ok(ep, "offer_award", student_id=st["id"], aid_year=YEAR, fund="unsubsidized_loan", amount_cents=700000)[
            "offered_cents"
        ]
        == 700000
    )


def test_students_accept_in_part_or_decline(ep: Episode) -> None:
    offered = every(ep, "list_awards", status="offered")
    loan = next(a for a in offered if a["fund"] == "subsidized_loan")
    refused(
        ep,
        "accept_award",
        "rule_violation",
        "amount_cents",
        award_id=loan["id"],
        amount_cents=loan["offered_cents"] + 1,
    )
    took = ok(ep, "accept_award", award_id=loan["id"], amount_cents=200000)
    assert (took["status"], took["accepted_cents"]) == ("accepted", 200000)
    refused(ep, "decline_award", "rule_violation", "award_id", award_id=loan["id"])
    other = next(a for a in offered if a["id"] != loan["id"])
    assert ok(ep, "decline_award", award_id=other["id"])["status"] == "declined"
    refused(ep, "accept_award", "rule_violation", "award_id", award_id=other["id"], amount_cents=1)


def test_disbursement_waits_for_verification_census_and_is_once_a_term(ep: Episode) -> None:
    isir = first(ep, "isirs", verification="pending")
    grant = award(ep, isir["student_id"], "pell_grant")
    spring, fall_next = term(ep, "Spring 2026"), term(ep, "Fall 2026")
    refused(ep, "disburse", "rule_violation", "award_id", award_id=grant["id"], term_id=spring["id"])
    for d in every(ep, "list_documents", student_id=isir["student_id"]):
        if d["status"] == "requested":
            ok(ep, "receive_document", document_id=d["id"])
        if d["status"] != "accepted":
            ok(ep, "accept_document", document_id=d["id"])
    paid = ok(ep, "disburse", award_id=grant["id"], term_id=spring["id"])
    assert paid["amount_cents"] == grant["accepted_cents"] // 2
    refused(ep, "disburse", "rule_violation", "term_id", award_id=grant["id"], term_id=spring["id"])
    refused(ep, "disburse", "rule_violation", "term_id", award_id=grant["id"], term_id=fall_next["id"])
    fws = first(ep, "awards", fund="federal_work_study", status="accepted")
    refused(ep, "disburse", "rule_violation", "award_id", award_id=fws["id"], term_id=spring["id"])


def test_sap_suspension_blocks_aid_until_an_appeal_is_approved(ep: Episode) -> None:
    st = first(ep, "students", sap_status="suspension")
    loan = award(ep, st["id"], "subsidized_loan")
    spring = term(ep, "Spring 2026")
    refused(ep, "disburse", "rule_violation", "award_id", award_id=loan["id"], term_id=spring["id"])
    refused(ep, "approve_sap_appeal", "rule_violation", "plan", student_id=st["id"], plan="")
    assert (
        ok(ep, "approve_sap_appeal", student_id=st["id"], plan="12 credits with tutoring")["sap_status"] == "probation"
    )
    ok(ep, "disburse", award_id=loan["id"], term_id=spring["id"])
    good = first(ep, "students", sap_status="meeting")
    assert (
        ok(ep, "evaluate_sap", student_id=good["id"], cumulative_gpa=1.8, completion_rate=90)["sap_status"] == "warning"
    )
    assert (
        ok(ep, "evaluate_sap", student_id=good["id"], cumulative_gpa=1.9, completion_rate=50)["sap_status"]
        == "suspension"
    )
    refused(
        ep,
        "approve_sap_appeal",
        "rule_violation",
        "student_id",
        student_id=first(ep, "students", sap_status="warning")["id"],
        plan="x",
    )


def test_loans_need_half_time_and_disbursed_awards_are_returned_before_cancelling(ep: Episode) -> None:
    part_time = first(ep, "students", enrollment="less_than_half")
    loan = award(ep, part_time["id"], "subsidized_loan")
    spring = term(ep, "Spring 2026")
    refused(ep, "disburse", "rule_violation", "award_id", award_id=loan["id"], term_id=spring["id"])
    paid = every(ep, "list_disbursements", award_id=loan["id"])[0]
    refused(ep, "cancel_award", "rule_violation", "award_id", award_id=loan["id"], reason="Dropped below half time")
    refused(ep, "return_disbursement", "rule_violation", "reason", disbursement_id=paid["id"], reason=" ")
    assert ok(ep, "return_disbursement", disbursement_id=paid["id"], reason="R2T4")["status"] == "reversed"
    assert ok(ep, "cancel_award", award_id=loan["id"], reason="Dropped below half time")["status"] == "cancelled"


def test_cost_of_attendance_follows_housing_and_need_follows_the_sai(ep: Episode) -> None:
    st = next(s for s in every(ep, "list_students") if every(ep, "list_isirs", student_id=s["id"], status="active"))
    isir = every(ep, "list_isirs", student_id=st["id"], status="active")[0]
    budget = ok(ep, "cost_of_attendance", student_id=st["id"], aid_year=YEAR)
    assert budget["cost_of_attendance_cents"] == sum(budget["components"].values())
    assert budget["need_cents"] == max(0, budget["cost_of_attendance_cents"] - isir["sai"] * 100)
    home = ok(ep, "update_student", student_id=st["id"], housing="with_parents")
    cheaper = ok(ep, "cost_of_attendance", student_id=home["id"], aid_year=YEAR)
    assert cheaper["cost_of_attendance_cents"] < budget["cost_of_attendance_cents"]
    assert ok(ep, "cost_of_attendance", student_id=st["id"], aid_year="2026-27")["need_cents"] is None
