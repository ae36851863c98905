"""Skillcheck Assessments: test lifecycle, invites with expiry, scoring, plagiarism review and decisions."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ASSESS = ServiceTools("assessments")
WORLD = ASSESS.world
ok, refused, every = ASSESS.ok, ASSESS.refused, ASSESS.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
RECRUITER = POP.employees[0].email


def a_test(ep: Episode, state: str) -> dict[str, Any]:
    return every(ep, "list_tests", state=state)[0]


def fresh_candidate(ep: Episode) -> Any:
    taken = {i["candidate_email"] for i in every(ep, "list_invites")}
    return next(p for p in POP.consumers if p.email not in taken)


def invite(ep: Episode, test_id: str, days: int = 7) -> Any:
    p = fresh_candidate(ep)
    return ok(
        ep,
        "invite_candidate",
        test_id=test_id,
        candidate_email=p.email,
        candidate_name=p.name,
        invited_by=RECRUITER,
        valid_days=days,
    )


def test_seeded_invites_go_to_shared_consumers_and_completed_scores_add_up(ep: Episode) -> None:
    consumers = {p.email: p.name for p in POP.consumers}
    statuses = set()
    for inv in every(ep, "list_invites"):
        assert consumers[inv["candidate_email"]] == inv["candidate_name"]
        assert inv["invited_by"] in STAFF
        statuses.add(inv["status"])
        if inv["status"] == "completed":
            answers = every(ep, "list_answers", invite_id=inv["id"])
            assert inv["score"] == sum(a["score"] for a in answers)
            test = ok(ep, "get_test", test_id=inv["test_id"])
            assert inv["passed"] == (inv["percentage_score"] >= test["cutoff_percent"])
    assert statuses == {"invited", "in_progress", "completed", "expired", "canceled"}


def test_only_a_draft_with_questions_publishes_and_only_drafts_change_questions(ep: Episode) -> None:
    made = ok(ep, "create_test", name="Platform Screen", owner_email=RECRUITER, cutoff_percent=70)
    refused(ep, "publish_test", "rule_violation", "test_id", test_id=made["id"])
    q = every(ep, "list_questions", kind="coding")[0]
    ok(ep, "add_test_question", test_id=made["id"], question_id=q["id"])
    refused(ep, "add_test_question", "conflict", "question_id", test_id=made["id"], question_id=q["id"])
    assert ok(ep, "publish_test", test_id=made["id"])["state"] == "published"
    refused(ep, "remove_test_question", "rule_violation", "test_id", test_id=made["id"], question_id=q["id"])
    refused(ep, "create_test", "rule_violation", "owner_email", name="X", owner_email="nobody@else.io")


def test_invites_need_a_published_test_and_one_open_invite_per_candidate(ep: Episode) -> None:
    draft, archived, live = a_test(ep, "draft"), a_test(ep, "archived"), a_test(ep, "published")
    p = fresh_candidate(ep)
    args = {"candidate_email": p.email, "candidate_name": p.name, "invited_by": RECRUITER}
    refused(ep, "invite_candidate", "rule_violation", "test_id", test_id=draft["id"], **args)
    refused(ep, "invite_candidate", "rule_violation", "test_id", test_id=archived["id"], **args)
    refused(
        ep, "invite_candidate", "rule_violation", "invited_by", test_id=live["id"], **(args | {"invited_by": "x@y.io"})
    )
    made = ok(ep, "invite_candidate", test_id=live["id"], valid_days=3, **args)
    assert made["status"] == "invited" and made["expires_at"] > made["created_at"]
    refused(ep, "invite_candidate", "conflict", "candidate_email", test_id=live["id"], **args)
    refused(ep, "invite_candidate", "invalid_arguments", "valid_days", test_id=live["id"], valid_days=31, **args)


def test_an_expired_invite_cannot_start_until_extended(ep: Episode) -> None:
    expired = every(ep, "list_invites", status="expired")[0]
    refused(ep, "start_attempt", "rule_violation", "invite_id", invite_id=expired["id"])
    assert ok(ep, "extend_invite", invite_id=expired["id"], days=5)["status"] == "invited"
    started = ok(ep, "start_attempt", invite_id=expired["id"])
    assert started["status"] == "in_progress" and started["started_at"] is not None
    refused(ep, "cancel_invite", "rule_violation", "invite_id", invite_id=expired["id"])


def test_answers_are_limited_to_the_tests_questions_points_and_languages(ep: Episode) -> None:
    live = a_test(ep, "published")
    inv = invite(ep, live["id"])
    ok(ep, "start_attempt", invite_id=inv["id"])
    qs = [ok(ep, "get_question", question_id=q) for q in live["question_ids"]]
    coding = next(q for q in qs if q["kind"] == "coding")
    other = next(q for q in every(ep, "list_questions") if q["id"] not in live["question_ids"])
    base = {"invite_id": inv["id"]}
    refused(ep, "submit_answer", "rule_violation", "question_id", question_id=other["id"], score=1, **base)
    refused(
        ep,
        "submit_answer",
        "rule_violation",
        "score",
        question_id=coding["id"],
        score=coding["max_score"] + 1,
        language=coding["languages"][0],
        **base,
    )
    refused(
        ep, "submit_answer", "rule_violation", "language", question_id=coding["id"], score=1, language="cobol", **base
    )
    ok(
        ep,
        "submit_answer",
        question_id=coding["id"],
        score=coding["max_score"],
        language=coding["languages"][0],
        **base,
    )
    refused(ep, "submit_answer", "conflict", "question_id", question_id=coding["id"], score=0, **base)


def test_submitting_scores_the_attempt_against_the_cutoff(ep: Episode) -> None:
    live = a_test(ep, "published")
    inv = invite(ep, live["id"])
    ok(ep, "start_attempt", invite_id=inv["id"])
    qs = [ok(ep, "get_question", question_id=q) for q in live["question_ids"]]
    for q in qs:
        lang = q["languages"][0] if q["languages"] else None
        ok(ep, "submit_answer", invite_id=inv["id"], question_id=q["id"], score=q["max_score"], language=lang)
    done = ok(ep, "submit_attempt", invite_id=inv["id"])
    total = sum(q["max_score"] for q in qs)
    assert (done["status"], done["score"], done["max_score"], done["percentage_score"], done["passed"]) == (
        "completed",
        total,
        total,
        100.0,
        True,
    )
    report = ok(ep, "candidate_report", invite_id=inv["id"])
    assert [line["score"] for line in report["questions"]] == [q["max_score"] for q in qs]
    refused(ep, "submit_attempt", "rule_violation", "invite_id", invite_id=inv["id"])


def test_an_unanswered_attempt_fails_the_cutoff(ep: Episode) -> None:
    inv = invite(ep, a_test(ep, "published")["id"])
    ok(ep, "start_attempt", invite_id=inv["id"])
    done = ok(ep, "submit_attempt", invite_id=inv["id"])
    assert (done["score"], done["percentage_score"], done["passed"]) == (0, 0.0, False)


def test_a_plagiarism_flag_blocks_advancing_until_cleared(ep: Episode) -> None:
    flagged = every(ep, "list_invites", plagiarism_status="suspected")[0]
    refused(ep, "decide_candidate", "rule_violation", "decision", invite_id=flagged["id"], decision="advanced")
    refused(ep, "flag_plagiarism", "conflict", "invite_id", invite_id=flagged["id"], note="again")
    assert ok(ep, "review_plagiarism", invite_id=flagged["id"], confirmed=False)["plagiarism_status"] == "cleared"
    assert ok(ep, "decide_candidate", invite_id=flagged["id"], decision="advanced")["decision"] == "advanced"
    refused(ep, "decide_candidate", "conflict", "invite_id", invite_id=flagged["id"], decision="rejected")


def test_confirmed_plagiarism_rejects_the_candidate(ep: Episode) -> None:
    clean = every(ep, "list_invites", status="completed", plagiarism_status="none", decision="pending")[0]
    refused(ep, "flag_plagiarism", "rule_violation", "note", invite_id=clean["id"], note="  ")
    ok(ep, "flag_plagiarism", invite_id=clean["id"], note="Identical to another candidate's submission")
    done = ok(ep, "review_plagiarism", invite_id=clean["id"], confirmed=True)
    assert (done["plagiarism_status"], done["decision"]) == ("confirmed", "rejected")
    refused(ep, "review_plagiarism", "rule_violation", "invite_id", invite_id=clean["id"], confirmed=False)


def test_questions_in_use_cannot_be_deleted_and_coding_needs_languages(ep: Episode) -> None:
    used = a_test(ep, "published")["question_ids"][0]
    refused(ep, "delete_question", "conflict", "question_id", question_id=used)
    refused(ep, "create_question", "rule_violation", "languages", name="Parse Logs", kind="coding")
    refused(
        ep,
        "create_question",
        "rule_violation",
        "languages",
        name="Pick one",
        kind="multiple_choice",
        languages=["python3"],
    )
    made = ok(ep, "create_question", name="Parse Logs", kind="coding", languages=["python3"], max_score=80)
    ok(ep, "delete_question", question_id=made["id"])


def test_summary_counts_invites_and_pass_rate(ep: Episode) -> None:
    live = a_test(ep, "published")
    found = every(ep, "list_invites", test_id=live["id"])
    done = [i for i in found if i["status"] == "completed"]
    summary = ok(ep, "test_summary", test_id=live["id"])
    assert sum(summary["by_status"].values()) == len(found)
    assert summary["completed"] == len(done) > 0
    assert summary["pass_rate"] == round(100 * sum(i["passed"] for i in done) / len(done), 1)
