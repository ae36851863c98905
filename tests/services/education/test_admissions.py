"""Gateway Admissions: application start and checklist, completion, reader assignment, decisions, deposits, funnel."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ADM = ServiceTools("admissions")
WORLD = ADM.world
ok, refused, every = ADM.ok, ADM.refused, ADM.every
POP = WORLD.population


def app(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_applications", status=status)[0]


def rnd(ep: Episode, name: str) -> dict[str, Any]:
    return next(r for r in every(ep, "list_rounds") if r["name"] == name)


def items(ep: Episode, application_id: str) -> dict[str, dict[str, Any]]:
    return {i["kind"]: i for i in every(ep, "list_checklist_items", application_id=application_id)}


def fresh(ep: Episode) -> dict[str, Any]:
    rd = rnd(ep, "Regular Decision")
    taken = {a["prospect_id"] for a in every(ep, "list_applications")}
    p = next(x for x in every(ep, "list_prospects") if x["id"] not in taken)
    made: dict[str, Any] = ok(ep, "start_application", prospect_id=p["id"], round_id=rd["id"], program="Nursing")
    return made


def test_seeded_prospects_are_consumers_and_readers_are_staff(ep: Episode) -> None:
    consumers = {p.email: p for p in POP.consumers}
    for p in every(ep, "list_prospects"):
        assert consumers[p["email"]].first_name == p["first_name"]
    staff = {p.email for p in POP.employees}
    assert all(r["email"] in staff for r in every(ep, "list_readers"))
    for a in every(ep, "list_applications", status="deposited"):
        assert every(ep, "list_deposits", application_id=a["id"])


def test_an_application_starts_before_the_deadline_once_per_round_with_a_checklist(ep: Episode) -> None:
    made = fresh(ep)
    assert made["status"] == "started" and made["ref"].startswith("APP-")
    assert set(items(ep, made["id"])) == {"essay", "transcript", "recommendation", "test_scores", "fee"}
    refused(
        ep,
        "start_application",
        "conflict",
        "round_id",
        prospect_id=made["prospect_id"],
        round_id=made["round_id"],
        program="Biology",
    )
    closed = rnd(ep, "Early Decision")
    taken = {a["prospect_id"] for a in every(ep, "list_applications")}
    other = next(x for x in every(ep, "list_prospects") if x["id"] not in taken)
    refused(
        ep,
        "start_application",
        "rule_violation",
        "round_id",
        prospect_id=other["id"],
        round_id=closed["id"],
        program="Biology",
    )


def test_submitting_receives_essay_and_fee_and_completion_needs_every_item(ep: Episode) -> None:
    made = fresh(ep)
    sub = ok(ep, "submit_application", application_id=made["id"])
    assert sub["status"] == "submitted" and sub["submitted_at"]
    got = items(ep, made["id"])
    assert got["essay"]["status"] == got["fee"]["status"] == "received"
    refused(ep, "submit_application", "conflict", "application_id", application_id=made["id"])
    ok(ep, "receive_item", checklist_item_id=got["transcript"]["id"])
    ok(ep, "receive_item", checklist_item_id=got["recommendation"]["id"])
    assert ok(ep, "get_application", application_id=made["id"])["status"] == "submitted"
    ok(ep, "waive_item", checklist_item_id=got["test_scores"]["id"], reason="Test-optional")
    assert ok(ep, "get_application", application_id=made["id"])["status"] == "complete"


def test_only_test_scores_and_fee_can_be_waived_with_a_reason(ep: Episode) -> None:
    got = items(ep, fresh(ep)["id"])
    refused(
        ep,
        "waive_item",
        "rule_violation",
        "checklist_item_id",
        checklist_item_id=got["transcript"]["id"],
        reason="lost",
    )
    refused(ep, "waive_item", "rule_violation", "reason", checklist_item_id=got["fee"]["id"], reason=" ")
    assert ok(ep, "waive_item", checklist_item_id=got["fee"]["id"], reason="Fee waiver")["status"] == "waived"
    refused(ep, "receive_item", "conflict", "checklist_item_id", checklist_item_id=got["fee"]["id"])


def test_readers_are_assigned_to_complete_files_once_and_two_at_most(ep: Episode) -> None:
    a = app(ep, "complete")
    readers = every(ep, "list_readers", active=True)
    refused(
        ep,
        "assign_reader",
        "rule_violation",
        "application_id",
        application_id=app(ep, "submitted")["id"],
        reader_id=readers[0]["id"],
    )
    idle = every(ep, "list_readers", active=False)[0]
    refused(ep, "assign_reader", "rule_violation", "reader_id", application_id=a["id"], reader_id=idle["id"])
    ok(ep, "assign_reader", application_id=a["id"], reader_id=readers[0]["id"])
    assert ok(ep, "get_application", application_id=a["id"])["status"] == "in_review"
    refused(ep, "assign_reader", "conflict", "reader_id", application_id=a["id"], reader_id=readers[0]["id"])
    ok(ep, "assign_reader", application_id=a["id"], reader_id=readers[1]["id"])
    refused(ep, "assign_reader", "rule_violation", "application_id", application_id=a["id"], reader_id=readers[2]["id"])


def test_a_decision_needs_two_completed_reviews(ep: Episode) -> None:
    pending = next(
        a
        for a in every(ep, "list_applications", status="in_review")
        if every(ep, "list_reviews", application_id=a["id"], status="assigned")
    )
    refused(
        ep, "decide_application", "rule_violation", "application_id", application_id=pending["id"], decision="admit"
    )
    for r in every(ep, "list_reviews", application_id=pending["id"], status="assigned"):
        done = ok(ep, "submit_review", review_id=r["id"], rating=5, recommendation="admit")
        assert done["status"] == "completed"
        refused(ep, "submit_review", "conflict", "review_id", review_id=r["id"], rating=4, recommendation="deny")
    if len(every(ep, "list_reviews", application_id=pending["id"], status="completed")) < 2:
        reader = next(
            x
            for x in every(ep, "list_readers", active=True)
            if not every(ep, "list_reviews", application_id=pending["id"], reader_id=x["id"])
        )
        rev = ok(ep, "assign_reader", application_id=pending["id"], reader_id=reader["id"])
        ok(ep, "submit_review", review_id=rev["id"], rating=4, recommendation="admit")
    refused(
        ep,
        "decide_application",
        "rule_violation",
        "merit_award_cents",
        application_id=pending["id"],
        decision="deny",
        merit_award_cents=100,
    )
    got = ok(ep, "decide_application", application_id=pending["id"], decision="admit", merit_award_cents=600000)
    assert (got["status"], got["decision"], got["merit_award_cents"]) == ("admitted", "admit", 600000)


def test_a_waitlisted_applicant_can_be_admitted_later(ep: Episode) -> None:
    w = app(ep, "waitlisted")
    assert ok(ep, "decide_application", application_id=w["id"], decision="admit")["status"] == "admitted"
    refused(
        ep,
        "decide_application",
        "rule_violation",
        "application_id",
        application_id=app(ep, "denied")["id"],
        decision="admit",
    )


def test_the_deposit_is_paid_in_full_then_the_student_enrolls(ep: Episode) -> None:
    a = app(ep, "admitted")
    deposit = rnd(ep, "Early Decision")["deposit_cents"]
    refused(ep, "record_deposit", "rule_violation", "amount_cents", application_id=a["id"], amount_cents=deposit - 1)
    refused(ep, "enroll_application", "rule_violation", "application_id", application_id=a["id"])
    dep = ok(ep, "record_deposit", application_id=a["id"], amount_cents=deposit)
    assert dep["amount_cents"] == deposit
    assert ok(ep, "enroll_application", application_id=a["id"])["status"] == "enrolled"
    refused(ep, "record_deposit", "rule_violation", "application_id", application_id=a["id"], amount_cents=deposit)


def test_withdraw_only_undecided_and_decline_only_offers(ep: Episode) -> None:
    assert ok(ep, "withdraw_application", application_id=app(ep, "submitted")["id"])["status"] == "withdrawn"
    refused(ep, "withdraw_application", "rule_violation", "application_id", application_id=app(ep, "admitted")["id"])
    assert ok(ep, "decline_application", application_id=app(ep, "admitted")["id"])["status"] == "declined"
    refused(ep, "decline_application", "rule_violation", "application_id", application_id=app(ep, "in_review")["id"])


def test_the_funnel_counts_statuses_admit_rate_and_yield(ep: Episode) -> None:
    ed = rnd(ep, "Early Decision")
    apps = every(ep, "list_applications", round_id=ed["id"])
    f = ok(ep, "round_funnel", round_id=ed["id"])
    assert sum(f["by_status"].values()) == len(apps)
    admits = sum(a["decision"] == "admit" for a in apps)
    kept = sum(a["status"] in ("deposited", "enrolled") for a in apps)
    assert f["admit_rate"] == round(admits / len(apps), 3) and f["yield_rate"] == round(kept / admits, 3)
