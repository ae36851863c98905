"""ClearPath Auth: request rules, submission and turnaround, plan questions, determinations, appeals, renewals."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PA = ServiceTools("priorauth")
WORLD = PA.world
ok, refused, every = PA.ok, PA.refused, PA.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def req(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_requests", status=status)[0]


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def draft(ep: Episode, drug: str = "Mounjaro 5 mg/0.5 mL pen", **extra: Any) -> dict[str, Any]:
    m = every(ep, "list_members")[0]
    doc = every(ep, "list_prescribers", active=True)[0]
    made: dict[str, Any] = ok(
        ep,
        "create_request",
        member_id=m["id"],
        prescriber_id=doc["id"],
        drug_name=drug,
        diagnosis_codes=["E11.65"],
        quantity=4,
        **extra,
    )
    return made


def test_seeded_members_are_consumers_and_prescribers_share_the_practice_npis(ep: Episode) -> None:
    consumers = {p.email: p for p in POP.consumers}
    for m in every(ep, "list_members"):
        assert consumers[m["email"]].birth_date.isoformat() == m["birth_date"]
    assert all(len(p["npi"]) == 10 for p in every(ep, "list_prescribers"))
    statuses = {r["status"] for r in every(ep, "list_requests")}
    assert statuses >= {"draft", "submitted", "pended", "approved", "denied", "appealed", "expired", "cancelled"}


def test_a_request_names_one_service_with_diagnoses_for_a_covered_member(ep: Episode) -> None:
    m, doc = every(ep, "list_members")[1], every(ep, "list_prescribers", active=True)[0]
    base = {"member_id": m["id"], "prescriber_id": doc["id"]}
    refused(ep, "create_request", "rule_violation", "drug_name", diagnosis_codes=["I10"], **base)
    refused(
        ep,
        "create_request",
        "rule_violation",
        "drug_name",
        diagnosis_codes=["I10"],
        drug_name="Entresto",
        procedure_code="93306",
        **base,
    )
    refused(ep, "create_request", "rule_violation", "diagnosis_codes", diagnosis_codes=[], drug_name="Entresto", **base)
    lapsed = next(x for x in every(ep, "list_members") if x["coverage_end"])
    refused(
        ep,
        "create_request",
        "rule_violation",
        "member_id",
        **(base | {"member_id": lapsed["id"]}),
        diagnosis_codes=["I10"],
        drug_name="Entresto",
    )
    idle = every(ep, "list_prescribers", active=False)[0]
    refused(
        ep,
        "create_request",
        "rule_violation",
        "prescriber_id",
        **(base | {"prescriber_id": idle["id"]}),
        diagnosis_codes=["I10"],
        drug_name="Entresto",
    )
    made = ok(ep, "create_request", diagnosis_codes=["I50.22"], drug_name="Entresto 49/51 mg", **base)
    assert (made["status"], made["payer_id"]) == ("draft", m["payer_id"]) and made["key"].startswith("PA")


def test_no_second_request_while_one_is_open_or_an_approval_is_in_force(ep: Episode) -> None:
    approved = req(ep, "approved")
    service = approved["drug_name"] or approved["procedure_code"]
    field = "drug_name" if approved["drug_name"] else "procedure_code"
    refused(
        ep,
        "create_request",
        "conflict",
        field,
        member_id=approved["member_id"],
        prescriber_id=approved["prescriber_id"],
        diagnosis_codes=list(approved["diagnosis_codes"]),
        **{field: service},
    )
    d = draft(ep)
    refused(
        ep,
        "create_request",
        "conflict",
        "drug_name",
        member_id=d["member_id"],
        prescriber_id=d["prescriber_id"],
        diagnosis_codes=["E11.65"],
        drug_name=d["drug_name"],
    )


def test_submission_sets_the_due_time_from_the_payer_turnaround(ep: Episode) -> None:
    d = draft(ep, urgency="urgent")
    sent = ok(ep, "submit_request", request_id=d["id"])
    payer = ok(ep, "get_payer", payer_id=d["payer_id"])
    due, at = (dt.datetime.fromisoformat(sent[k].replace("Z", "+00:00")) for k in ("due_by", "submitted_at"))
    assert due - at == dt.timedelta(hours=payer["urgent_hours"])
    refused(ep, "submit_request", "conflict", "request_id", request_id=d["id"])
    refused(ep, "update_request", "rule_violation", "request_id", request_id=d["id"], quantity=8)


def test_a_pended_request_goes_back_only_when_required_questions_are_answered(ep: Episode) -> None:
    r = req(ep, "pended")
    qs = {q["answer_type"]: q for q in every(ep, "list_questions", request_id=r["id"])}
    refused(ep, "submit_request", "rule_violation", "request_id", request_id=r["id"])
    refused(ep, "answer_question", "rule_violation", "answer", question_id=qs["yes_no"]["id"], answer="maybe")
    refused(ep, "answer_question", "rule_violation", "answer", question_id=qs["choice"]["id"], answer="10%")
    assert ok(ep, "answer_question", question_id=qs["yes_no"]["id"], answer="Yes")["answer"] == "yes"
    ok(ep, "answer_question", question_id=qs["choice"]["id"], answer="7-9%")
    assert ok(ep, "submit_request", request_id=r["id"])["status"] == "submitted"
    refused(ep, "answer_question", "conflict", "question_id", question_id=qs["free_text"]["id"], answer="late")


def test_the_plan_pends_then_approves_within_quantity_and_a_year(ep: Episode) -> None:
    r = ok(ep, "submit_request", request_id=draft(ep)["id"])
    qs = ok(ep, "pend_request", request_id=r["id"], questions=["Date of last HbA1c?"], answer_type="date")
    refused(ep, "answer_question", "rule_violation", "answer", question_id=qs[0]["id"], answer="last week")
    ok(ep, "answer_question", question_id=qs[0]["id"], answer=day(-20))
    ok(ep, "submit_request", request_id=r["id"])
    args = {"request_id": r["id"], "outcome": "approved"}
    refused(
        ep,
        "record_determination",
        "rule_violation",
        "approved_quantity",
        approved_quantity=5,
        valid_until=day(90),
        **args,
    )
    refused(
        ep, "record_determination", "rule_violation", "valid_until", approved_quantity=4, valid_until=day(366), **args
    )
    got = ok(ep, "record_determination", approved_quantity=3, valid_until=day(180), **args)
    assert (got["status"], got["approved_quantity"], got["valid_from"]) == ("approved", 3, day(0))
    check = ok(ep, "check_authorization", member_id=r["member_id"], service=r["drug_name"])
    assert (check["covered"], check["request_id"], check["remaining_days"]) == (True, r["id"], 180)


def test_a_denial_needs_a_reason_and_can_be_appealed_twice(ep: Episode) -> None:
    r = req(ep, "submitted")
    refused(ep, "record_determination", "rule_violation", "denial_reason", request_id=r["id"], outcome="denied")
    ok(ep, "record_determination", request_id=r["id"], outcome="denied", denial_reason="Not medically necessary")
    refused(ep, "file_appeal", "rule_violation", "reason", request_id=r["id"], reason=" ")
    first = ok(ep, "file_appeal", request_id=r["id"], reason="Imaging shows progression")
    assert first["level"] == 1 and ok(ep, "get_request", request_id=r["id"])["status"] == "appealed"
    refused(ep, "file_appeal", "rule_violation", "request_id", request_id=r["id"], reason="again")
    assert ok(ep, "decide_appeal", appeal_id=first["id"], outcome="upheld")["status"] == "upheld"
    second = ok(ep, "file_appeal", request_id=r["id"], reason="Peer-to-peer review notes")
    assert second["level"] == 2
    ok(ep, "decide_appeal", appeal_id=second["id"], outcome="upheld")
    refused(ep, "file_appeal", "rule_violation", "request_id", request_id=r["id"], reason="third")


def test_an_overturned_appeal_approves_the_request(ep: Episode) -> None:
    a = every(ep, "list_appeals", status="submitted")[0]
    assert ok(ep, "decide_appeal", appeal_id=a["id"], outcome="overturned")["status"] == "overturned"
    r = ok(ep, "get_request", request_id=a["request_id"])
    assert (r["status"], r["approved_quantity"], r["valid_from"]) == ("approved", r["quantity"], day(0))
    refused(ep, "decide_appeal", "conflict", "appeal_id", appeal_id=a["id"], outcome="upheld")


def test_renewal_only_near_or_after_expiry_and_once(ep: Episode) -> None:
    far = next(r for r in every(ep, "list_requests", status="approved") if r["valid_until"] > day(30))
    refused(ep, "renew_request", "rule_violation", "request_id", request_id=far["id"])
    old = req(ep, "expired")
    new = ok(ep, "renew_request", request_id=old["id"])
    assert (new["status"], new["renewal_of"], new["member_id"]) == ("draft", old["id"], old["member_id"])
    refused(ep, "renew_request", "conflict", "request_id", request_id=old["id"])
    service = old["drug_name"] or old["procedure_code"]
    assert ok(ep, "check_authorization", member_id=old["member_id"], service=service)["covered"] is False


def test_cancel_only_undecided_requests(ep: Episode) -> None:
    assert ok(ep, "cancel_request", request_id=req(ep, "pended")["id"])["status"] == "cancelled"
    refused(ep, "cancel_request", "rule_violation", "request_id", request_id=req(ep, "approved")["id"])
