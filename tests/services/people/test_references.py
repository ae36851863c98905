"""Vouchly References: nominating referees, invitations, answers, completion, fraud signals and reports."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

REFS = ServiceTools("references")
WORLD = REFS.world
ok, refused, every = REFS.ok, REFS.refused, REFS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
RECRUITER = POP.employees[0].email
PERSONAL = {p.email.rsplit("@", 1)[1] for p in POP.consumers}


def fresh_candidate(ep: Episode) -> Any:
    taken = {r["candidate_email"] for r in every(ep, "list_requests")}
    return next(p for p in POP.consumers if p.email not in taken)


def new_request(ep: Episode, minimum: int = 2) -> Any:
    p = fresh_candidate(ep)
    q = every(ep, "list_questionnaires", active=True)[0]
    return ok(
        ep,
        "create_request",
        candidate_email=p.email,
        candidate_name=p.name,
        job_title="Solutions Engineer",
        questionnaire_id=q["id"],
        requested_by=RECRUITER,
        due_date=(TODAY + dt.timedelta(days=7)).isoformat(),
        min_references=minimum,
    )


def nominate(ep: Episode, request_id: str, k: int) -> Any:
    p = POP.contacts[-1 - k]
    return ok(ep, "nominate_referee", request_id=request_id, name=p.name, email=p.email, relationship="manager")


def ratings_for(ep: Episode, request_id: str, value: int = 4) -> list[int]:
    req = ok(ep, "get_request", request_id=request_id)
    q = ok(ep, "get_questionnaire", questionnaire_id=req["questionnaire_id"])
    return [value] * len(q["rating_prompts"])


def test_seeded_checks_use_shared_people_and_completed_ones_have_enough_answers(ep: Episode) -> None:
    consumers = {p.email: p.name for p in POP.consumers}
    for req in every(ep, "list_requests"):
        assert consumers[req["candidate_email"]] == req["candidate_name"]
        done = every(ep, "list_referees", request_id=req["id"], status="completed")
        if req["status"] == "completed":
            assert len(done) >= req["min_references"] and req["completed_at"] is not None
        assert len(every(ep, "list_responses", request_id=req["id"])) == len(done)
    for sig in every(ep, "list_signals", kind="personal_email"):
        assert ok(ep, "get_referee", referee_id=sig["referee_id"])["email"].rsplit("@", 1)[1] in PERSONAL


def test_one_open_check_per_candidate_and_only_active_questionnaires(ep: Episode) -> None:
    open_req = every(ep, "list_requests", status="in_progress")[0]
    retired = every(ep, "list_questionnaires", active=False)[0]
    args = {
        "candidate_name": open_req["candidate_name"],
        "job_title": "Analyst",
        "requested_by": RECRUITER,
        "due_date": (TODAY + dt.timedelta(days=3)).isoformat(),
    }
    refused(
        ep,
        "create_request",
        "conflict",
        "candidate_email",
        candidate_email=open_req["candidate_email"],
        questionnaire_id=open_req["questionnaire_id"],
        **args,
    )
    fresh = fresh_candidate(ep).email
    refused(
        ep,
        "create_request",
        "rule_violation",
        "questionnaire_id",
        candidate_email=fresh,
        questionnaire_id=retired["id"],
        **args,
    )
    refused(
        ep,
        "create_request",
        "rule_violation",
        "due_date",
        candidate_email=fresh,
        questionnaire_id=open_req["questionnaire_id"],
        **(args | {"due_date": (TODAY - dt.timedelta(days=1)).isoformat()}),
    )


def test_referees_are_not_the_candidate_not_repeated_and_at_most_five(ep: Episode) -> None:
    req = new_request(ep)
    refused(
        ep,
        "nominate_referee",
        "rule_violation",
        "email",
        request_id=req["id"],
        name=req["candidate_name"],
        email=req["candidate_email"],
        relationship="peer",
    )
    first = nominate(ep, req["id"], 0)
    refused(
        ep,
        "nominate_referee",
        "conflict",
        "email",
        request_id=req["id"],
        name=first["name"],
        email=first["email"],
        relationship="peer",
    )
    for k in range(1, 5):
        nominate(ep, req["id"], k)
    p = POP.contacts[-6]
    refused(
        ep,
        "nominate_referee",
        "rule_violation",
        "request_id",
        request_id=req["id"],
        name=p.name,
        email=p.email,
        relationship="peer",
    )


def test_submitting_needs_the_minimum_and_invites_every_referee(ep: Episode) -> None:
    req = new_request(ep, minimum=2)
    nominate(ep, req["id"], 0)
    refused(ep, "submit_referees", "rule_violation", "request_id", request_id=req["id"])
    nominate(ep, req["id"], 1)
    assert ok(ep, "submit_referees", request_id=req["id"])["status"] == "in_progress"
    refs = every(ep, "list_referees", request_id=req["id"])
    assert {r["status"] for r in refs} == {"invited"} and all(r["invited_at"] for r in refs)
    refused(ep, "submit_referees", "rule_violation", "request_id", request_id=req["id"])
    refused(ep, "remove_referee", "rule_violation", "referee_id", referee_id=refs[0]["id"])


def test_the_check_completes_when_the_minimum_have_answered(ep: Episode) -> None:
    req = new_request(ep, minimum=2)
    a, b = nominate(ep, req["id"], 0), nominate(ep, req["id"], 1)
    ok(ep, "submit_referees", request_id=req["id"])
    good = ratings_for(ep, req["id"])
    refused(
        ep,
        "record_response",
        "rule_violation",
        "ratings",
        referee_id=a["id"],
        ratings=good[:-1],
        would_rehire=True,
        seconds_spent=600,
    )
    ok(ep, "record_response", referee_id=a["id"], ratings=good, would_rehire=True, seconds_spent=600)
    assert ok(ep, "get_request", request_id=req["id"])["status"] == "in_progress"
    refused(
        ep,
        "record_response",
        "rule_violation",
        "referee_id",
        referee_id=a["id"],
        ratings=good,
        would_rehire=True,
        seconds_spent=600,
    )
    ok(
        ep,
        "record_response",
        referee_id=b["id"],
        ratings=ratings_for(ep, req["id"], 2),
        would_rehire=False,
        seconds_spent=900,
    )
    done = ok(ep, "get_request", request_id=req["id"])
    assert done["status"] == "completed" and done["completed_at"] is not None
    report = ok(ep, "request_report", request_id=req["id"])
    assert (report["responses"], report["average_rating"], report["would_rehire_percent"]) == (2, 3.0, 50.0)


def test_suspicious_references_raise_signals(ep: Episode) -> None:
    req = new_request(ep, minimum=1)
    personal = POP.consumers[-1]
    ref = ok(
        ep, "nominate_referee", request_id=req["id"], name=personal.name, email=personal.email, relationship="peer"
    )
    kinds = {s["kind"] for s in every(ep, "list_signals", referee_id=ref["id"])}
    assert kinds == {"personal_email"}
    shared = every(ep, "list_referees", status="completed")[0]
    other = ok(
        ep, "nominate_referee", request_id=req["id"], name=shared["name"], email=shared["email"], relationship="manager"
    )
    assert {s["kind"] for s in every(ep, "list_signals", referee_id=other["id"])} == {"shared_referee"}
    ok(ep, "submit_referees", request_id=req["id"])
    ok(
        ep,
        "record_response",
        referee_id=other["id"],
        ratings=ratings_for(ep, req["id"]),
        would_rehire=True,
        seconds_spent=40,
    )
    kinds = {s["kind"] for s in every(ep, "list_signals", referee_id=other["id"])}
    assert kinds == {"shared_referee", "rushed_response"}


def test_a_confirmed_signal_excludes_the_referee_from_the_report(ep: Episode) -> None:
    sig = every(ep, "list_signals", kind="rushed_response", status="open")[0]
    before = ok(ep, "request_report", request_id=sig["request_id"])
    refused(
        ep,
        "review_signal",
        "rule_violation",
        "reviewed_by",
        signal_id=sig["id"],
        confirmed=True,
        reviewed_by="someone@else.io",
    )
    assert ok(ep, "review_signal", signal_id=sig["id"], confirmed=True, reviewed_by=RECRUITER)["status"] == "confirmed"
    after = ok(ep, "request_report", request_id=sig["request_id"])
    assert (after["responses"], after["excluded"]) == (before["responses"] - 1, 1)
    assert sig["referee_id"] not in {r["referee_id"] for r in after["referees"]}
    refused(ep, "review_signal", "conflict", "signal_id", signal_id=sig["id"], confirmed=False, reviewed_by=RECRUITER)


def test_reminders_stop_at_three_and_declines_are_recorded(ep: Episode) -> None:
    ref = every(ep, "list_referees", status="invited")[0]
    for n in range(ref["reminders_sent"], 3):
        assert ok(ep, "remind_referee", referee_id=ref["id"])["reminders_sent"] == n + 1
    refused(ep, "remind_referee", "rule_violation", "referee_id", referee_id=ref["id"])
    assert ok(ep, "decline_referee", referee_id=ref["id"])["status"] == "declined"
    refused(ep, "decline_referee", "rule_violation", "referee_id", referee_id=ref["id"])


def test_canceling_releases_open_referees_and_blocks_new_ones(ep: Episode) -> None:
    req = every(ep, "list_requests", status="in_progress")[0]
    assert ok(ep, "cancel_request", request_id=req["id"])["status"] == "canceled"
    left = {r["status"] for r in every(ep, "list_referees", request_id=req["id"])}
    assert left <= {"completed", "declined"}
    p = POP.contacts[-1]
    refused(
        ep,
        "nominate_referee",
        "rule_violation",
        "request_id",
        request_id=req["id"],
        name=p.name,
        email=p.email,
        relationship="peer",
    )
    refused(ep, "cancel_request", "rule_violation", "request_id", request_id=req["id"])


def test_questionnaires_in_use_keep_their_prompts(ep: Episode) -> None:
    used = every(ep, "list_requests")[0]["questionnaire_id"]
    refused(
        ep,
        "update_questionnaire",
        "rule_violation",
        "rating_prompts",
        questionnaire_id=used,
        rating_prompts=["Would you hire them again?"],
    )
    refused(ep, "delete_questionnaire", "conflict", "questionnaire_id", questionnaire_id=used)
    assert ok(ep, "retire_questionnaire", questionnaire_id=used)["active"] is False
    refused(ep, "create_questionnaire", "rule_violation", "rating_prompts", name="Empty", rating_prompts=[])
