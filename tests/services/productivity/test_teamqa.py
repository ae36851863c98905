"""Askwell: tags on questions, answering rules, votes and reputation, accepts, close/reopen, bounties, flags."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

QA = ServiceTools("teamqa")
WORLD = QA.world
ok, refused, every = QA.ok, QA.refused, QA.every
STAFF = [p.email for p in WORLD.population.employees]


def rep(ep: Episode, email: str) -> int:
    return int(every(ep, "list_users", email=email)[0]["reputation"])


def mod(ep: Episode) -> str:
    return str(every(ep, "list_users", role="moderator")[0]["email"])


def question(ep: Episode, words: str) -> dict[str, Any]:
    return next(q for q in every(ep, "list_questions") if words in q["title"])


def outsider_of(ep: Episode, *busy: str) -> str:
    return str(next(u["email"] for u in every(ep, "list_users") if u["email"] not in busy))


def test_seeded_team_are_employees_and_accepted_answers_match(ep: Episode) -> None:
    users = every(ep, "list_users")
    assert {u["email"] for u in users} <= set(STAFF)
    assert {u["role"] for u in users} == {"admin", "moderator", "member"}
    tags = {t["name"] for t in every(ep, "list_tags")}
    for q in every(ep, "list_questions"):
        assert set(q["tags"]) <= tags
        if q["accepted_answer_id"]:
            a = ok(ep, "get_answer", answer_id=q["accepted_answer_id"])
            assert a["accepted"] and a["question_id"] == q["id"]


def test_questions_need_one_to_five_existing_tags(ep: Episode) -> None:
    me = STAFF[0]
    base = {"author_email": me, "title": "Where are the build logs?", "body": "?"}
    refused(ep, "ask_question", "rule_violation", "tags", tags=[], **base)
    refused(ep, "ask_question", "rule_violation", "tags", tags=["nope"], **base)
    refused(ep, "ask_question", "rule_violation", "tags", tags=["vpn", "vpn"], **base)
    refused(ep, "ask_question", "rule_violation", "author_email", tags=["vpn"], **(base | {"author_email": "x@y.io"}))
    q = ok(ep, "ask_question", tags=["deploy", "python"], **base)
    assert (q["status"], q["score"], q["tags"]) == ("open", 0, ["deploy", "python"])


def test_each_member_answers_an_open_question_once(ep: Episode) -> None:
    q = question(ep, "SSO log me out")
    a = every(ep, "list_answers", question_id=q["id"])[0]
    refused(
        ep, "post_answer", "conflict", "author_email", question_id=q["id"], author_email=a["author_email"], body="Again"
    )
    who = outsider_of(ep, a["author_email"], q["author_email"])
    ok(ep, "post_answer", question_id=q["id"], author_email=who, body="Clear your cookies.")
    closed = question(ep, "roll back a deploy")
    refused(ep, "post_answer", "rule_violation", "question_id", question_id=closed["id"], author_email=who, body="x")


def test_votes_move_score_and_reputation_once_per_voter(ep: Episode) -> None:
    q = question(ep, "travel expenses")
    a = every(ep, "list_answers", question_id=q["id"])[0]
    author = a["author_email"]
    voter = outsider_of(ep, author, *(v["voter_email"] for v in every(ep, "list_votes", target_id=a["id"])))
    before = rep(ep, author)
    ok(ep, "vote", target_kind="answer", target_id=a["id"], voter_email=voter, value=1)
    assert rep(ep, author) == before + 10
    refused(ep, "vote", "conflict", "value", target_kind="answer", target_id=a["id"], voter_email=voter, value=1)
    ok(ep, "vote", target_kind="answer", target_id=a["id"], voter_email=voter, value=-1)
    assert rep(ep, author) == before - 2
    assert ok(ep, "get_answer", answer_id=a["id"])["score"] == a["score"] - 1
    refused(
        ep,
        "vote",
        "rule_violation",
        "voter_email",
        target_kind="answer",
        target_id=a["id"],
        voter_email=author,
        value=1,
    )
    ok(ep, "vote", target_kind="question", target_id=q["id"], voter_email=voter, value=1)
    assert ok(ep, "get_question", question_id=q["id"])["score"] == q["score"] + 1


def test_only_the_asker_accepts_and_accepting_moves_reputation(ep: Episode) -> None:
    q = question(ep, "connect to the VPN")
    old = ok(ep, "get_answer", answer_id=q["accepted_answer_id"])
    new = next(a for a in every(ep, "list_answers", question_id=q["id"]) if not a["accepted"])
    refused(ep, "accept_answer", "rule_violation", "asker_email", answer_id=new["id"], asker_email=new["author_email"])
    refused(ep, "accept_answer", "conflict", "answer_id", answer_id=old["id"], asker_email=q["author_email"])
    r_old, r_new = rep(ep, old["author_email"]), rep(ep, new["author_email"])
    ok(ep, "accept_answer", answer_id=new["id"], asker_email=q["author_email"])
    assert ok(ep, "get_question", question_id=q["id"])["accepted_answer_id"] == new["id"]
    assert ok(ep, "get_answer", answer_id=old["id"])["accepted"] is False
    assert (rep(ep, old["author_email"]), rep(ep, new["author_email"])) == (r_old - 15, r_new + 15)


def test_moderators_close_and_reopen(ep: Episode) -> None:
    q = question(ep, "SSO log me out")
    member = every(ep, "list_users", role="member")[0]["email"]
    refused(
        ep,
        "close_question",
        "rule_violation",
        "moderator_email",
        question_id=q["id"],
        moderator_email=member,
        reason="off_topic",
    )
    closed = ok(ep, "close_question", question_id=q["id"], moderator_email=mod(ep), reason="off_topic")
    assert (closed["status"], closed["close_reason"]) == ("closed", "off_topic")
    refused(
        ep,
        "close_question",
        "conflict",
        "question_id",
        question_id=q["id"],
        moderator_email=mod(ep),
        reason="duplicate",
    )
    assert ok(ep, "reopen_question", question_id=q["id"], moderator_email=mod(ep))["status"] == "open"
    refused(ep, "reopen_question", "conflict", "question_id", question_id=q["id"])


def test_a_bounty_costs_reputation_and_goes_to_someone_elses_answer(ep: Episode) -> None:
    q = question(ep, "SSO log me out")
    rich = every(ep, "list_users", role="admin")[0]["email"]
    poor = min(every(ep, "list_users"), key=lambda u: u["reputation"])["email"]
    refused(ep, "offer_bounty", "rule_violation", "amount", question_id=q["id"], offered_by=rich, amount=501)
    refused(ep, "offer_bounty", "rule_violation", "amount", question_id=q["id"], offered_by=poor, amount=500)
    before = rep(ep, rich)
    ok(ep, "offer_bounty", question_id=q["id"], offered_by=rich, amount=200)
    assert rep(ep, rich) == before - 200
    refused(ep, "offer_bounty", "conflict", "question_id", question_id=q["id"], offered_by=rich, amount=50)
    a = every(ep, "list_answers", question_id=q["id"])[0]
    refused(ep, "award_bounty", "rule_violation", "awarded_by", answer_id=a["id"], awarded_by=a["author_email"])
    r = rep(ep, a["author_email"])
    assert ok(ep, "award_bounty", answer_id=a["id"], awarded_by=rich)["bounty_awarded"] == 200
    assert rep(ep, a["author_email"]) == r + 200
    solved = question(ep, "connect to the VPN")
    refused(ep, "offer_bounty", "rule_violation", "question_id", question_id=solved["id"], offered_by=rich, amount=50)


def test_closing_refunds_an_open_bounty(ep: Episode) -> None:
    q = next(x for x in every(ep, "list_questions") if x["bounty_amount"])
    before = rep(ep, q["bounty_by"])
    ok(ep, "close_question", question_id=q["id"], moderator_email=mod(ep), reason="resolved_elsewhere")
    assert rep(ep, q["bounty_by"]) == before + q["bounty_amount"]
    assert ok(ep, "get_question", question_id=q["id"])["bounty_amount"] == 0


def test_answers_are_flagged_outdated_once_with_a_reason(ep: Episode) -> None:
    a = every(ep, "list_answers", outdated=False)[0]
    refused(ep, "flag_outdated", "rule_violation", "reason", answer_id=a["id"], reason=" ")
    assert ok(ep, "flag_outdated", answer_id=a["id"], reason="Policy changed")["outdated"] is True
    refused(ep, "flag_outdated", "conflict", "answer_id", answer_id=a["id"], reason="Again")


def test_tags_are_unique_and_kept_while_questions_use_them(ep: Episode) -> None:
    refused(ep, "create_tag", "conflict", "name", name="vpn")
    refused(ep, "create_tag", "rule_violation", "sme_emails", name="k8s", sme_emails=["x@y.io"])
    made = ok(ep, "create_tag", name="k8s", sme_emails=[STAFF[0]])
    assert made["sme_emails"] == [STAFF[0]]
    vpn = every(ep, "list_tags", name="vpn")[0]
    refused(ep, "delete_tag", "rule_violation", "tag_id", tag_id=vpn["id"])
    ok(ep, "delete_tag", tag_id=made["id"])
