"""Pulsecheck Surveys: invitations and reminders, opt-outs, one answer per recipient, anonymity, NPS, rates."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SURVEYS = ServiceTools("surveys")
WORLD = SURVEYS.world
ok, refused, every, items, first = SURVEYS.ok, SURVEYS.refused, SURVEYS.every, SURVEYS.items, SURVEYS.first
POP = WORLD.population
BODY = "Please answer: [SurveyLink]. Unsubscribe: [OptOutLink]"


def collector(ep: Episode, name: str) -> dict[str, Any]:
    return next(c for c in items(ep, "collectors") if c["name"] == name)


def answers(ep: Episode, survey_id: str, nps: int = 9) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for q in sorted(items(ep, "questions", survey_id=survey_id), key=lambda q: q["position"]):
        if q["family"] == "nps":
            out.append({"question_id": q["id"], "number": nps})
        elif q["family"] == "rating":
            out.append({"question_id": q["id"], "number": 4})
        elif q["family"] in ("single_choice", "multiple_choice"):
            out.append({"question_id": q["id"], "choices": [q["choices"][0]]})
        else:
            out.append({"question_id": q["id"], "text": "Fine."})
    return out


# -- the world ------------------------------------------------------------------------------


def test_customer_recipients_are_contacts_and_each_responded_once() -> None:
    ep = Episode(WORLD)
    mail = collector(ep, "Customer contacts e-mail")
    contacts = {p.email: p.name for p in POP.contacts}
    rsps = every(ep, "list_responses", collector_id=mail["id"])
    for r in every(ep, "list_recipients", collector_id=mail["id"]):
        assert contacts[r["email"]] == r["name"]
        mine = [x for x in rsps if x["recipient_id"] == r["id"]]
        assert len(mine) == (1 if r["status"] == "responded" else 0)
        if mine:
            assert mine[0]["respondent_email"] == r["email"]
    for r in every(ep, "list_responses"):
        nps = [a["number"] for a in r["answers"] if a["number"] is not None and a["question_id"]]
        assert r["nps_score"] in nps
    staff = collector(ep, "All staff (anonymous)")
    assert all(
        r["respondent_email"] is None and r["recipient_id"] is None
        for r in items(ep, "responses", collector_id=staff["id"])
    )


def test_the_nps_is_promoters_minus_detractors() -> None:
    ep = Episode(WORLD)
    survey = first(ep, "surveys", audience="customers")
    scores = [r["nps_score"] for r in every(ep, "list_responses", survey_id=survey["id"]) if r["nps_score"] is not None]
    report = ok(ep, "nps_report", survey_id=survey["id"])
    pro, det = sum(s >= 9 for s in scores), sum(s <= 6 for s in scores)
    assert (report["promoters"], report["detractors"], report["responses"]) == (pro, det, len(scores))
    assert report["nps"] == round(100 * (pro - det) / len(scores), 1)
    assert len(report["detractor_emails"]) == det
    link = collector(ep, "Website link")
    assert ok(ep, "nps_report", survey_id=survey["id"], collector_id=link["id"])["responses"] == 15
    other = collector(ep, "Attendee link")
    refused(ep, "nps_report", "rule_violation", "collector_id", survey_id=survey["id"], collector_id=other["id"])


# -- inviting -------------------------------------------------------------------------------


def test_invitations_need_both_links_and_open_a_new_collector(ep: Episode) -> None:
    partners = collector(ep, "Partner invitations")
    people = [{"email": p.email, "name": p.name} for p in POP.contacts[:3]]
    added = ok(ep, "add_recipients", collector_id=partners["id"], recipients=people)
    assert len(added["added"]) == 3
    refused(
        ep, "send_invitations", "rule_violation", "body", collector_id=partners["id"], subject="Hi", body="[SurveyLink]"
    )
    sent = ok(ep, "send_invitations", collector_id=partners["id"], subject="Your feedback", body=BODY)
    assert sent["sent_to"] == [p["email"] for p in people]
    assert ok(ep, "get_collector", collector_id=partners["id"])["status"] == "open"
    refused(
        ep,
        "send_invitations",
        "rule_violation",
        "collector_id",
        collector_id=partners["id"],
        subject="Again",
        body=BODY,
    )


def test_opted_out_addresses_are_never_added_or_emailed(ep: Episode) -> None:
    mail = collector(ep, "Customer contacts e-mail")
    gone = first(ep, "recipients", collector_id=mail["id"], status="opted_out")
    waiting = first(ep, "recipients", collector_id=mail["id"], status="not_sent")
    ok(ep, "opt_out_recipient", recipient_id=waiting["id"])
    sent = ok(ep, "send_invitations", collector_id=mail["id"], subject="Hi", body=BODY)["sent_to"]
    assert sent and waiting["email"] not in sent and gone["email"] not in sent
    partners = collector(ep, "Partner invitations")
    res = ok(
        ep,
        "add_recipients",
        collector_id=partners["id"],
        recipients=[{"email": gone["email"]}, {"email": "fresh@example.org"}, {"email": "fresh@example.org"}],
    )
    assert ([r["email"] for r in res["added"]], res["skipped_opted_out"], res["skipped_existing"]) == (
        ["fresh@example.org"],
        [gone["email"]],
        ["fresh@example.org"],
    )
    refused(
        ep,
        "add_recipients",
        "conflict",
        "recipients",
        collector_id=partners["id"],
        recipients=[{"email": gone["email"]}],
    )
    link = collector(ep, "Website link")
    refused(
        ep,
        "add_recipients",
        "rule_violation",
        "collector_id",
        collector_id=link["id"],
        recipients=[{"email": "x@y.io"}],
    )


def test_reminders_go_to_the_invited_who_have_not_answered_a_day_apart(ep: Episode) -> None:
    mail = collector(ep, "Customer contacts e-mail")
    recips = every(ep, "list_recipients", collector_id=mail["id"])
    due = {r["email"] for r in recips if r["status"] in ("sent", "opened") and r["reminders_sent"] < 3}
    sent = ok(ep, "send_reminders", collector_id=mail["id"])
    assert set(sent["sent_to"]) == due and sent["kind"] == "reminder"
    refused(ep, "send_reminders", "rule_violation", "collector_id", collector_id=mail["id"])


# -- responding -----------------------------------------------------------------------------


def test_an_invited_recipient_answers_once(ep: Episode) -> None:
    mail = collector(ep, "Customer contacts e-mail")
    invited = first(ep, "recipients", collector_id=mail["id"], status="sent")
    uninvited = first(ep, "recipients", collector_id=mail["id"], status="not_sent")
    good = answers(ep, mail["survey_id"])
    refused(ep, "submit_response", "rule_violation", "recipient_email", collector_id=mail["id"], answers=good)
    refused(
        ep,
        "submit_response",
        "rule_violation",
        "recipient_email",
        collector_id=mail["id"],
        answers=good,
        recipient_email=uninvited["email"],
    )
    rsp = ok(ep, "submit_response", collector_id=mail["id"], answers=good, recipient_email=invited["email"])
    assert (rsp["recipient_id"], rsp["nps_score"]) == (invited["id"], 9)
    assert first(ep, "recipients", collector_id=mail["id"], email=invited["email"])["status"] == "responded"
    refused(
        ep,
        "submit_response",
        "conflict",
        "recipient_email",
        collector_id=mail["id"],
        answers=good,
        recipient_email=invited["email"],
    )


def test_answers_must_fit_and_required_questions_be_answered(ep: Episode) -> None:
    link = collector(ep, "Website link")
    good = answers(ep, link["survey_id"])
    refused(ep, "submit_response", "rule_violation", "answers", collector_id=link["id"], answers=good[1:])
    bad_nps = [{**good[0], "number": 11}, *good[1:]]
    refused(ep, "submit_response", "rule_violation", "answers.0", collector_id=link["id"], answers=bad_nps)
    as_text = [{"question_id": good[0]["question_id"], "text": "ten"}, *good[1:]]
    refused(ep, "submit_response", "rule_violation", "answers.0", collector_id=link["id"], answers=as_text)
    bad_choice = [*good[:2], {**good[2], "choices": ["Spaceships"]}, *good[3:]]
    refused(ep, "submit_response", "rule_violation", "answers.2", collector_id=link["id"], answers=bad_choice)
    ok(ep, "submit_response", collector_id=link["id"], answers=good, recipient_email="visitor@example.org")
    refused(
        ep,
        "submit_response",
        "conflict",
        "recipient_email",
        collector_id=link["id"],
        answers=good,
        recipient_email="visitor@example.org",
    )


def test_anonymous_collectors_keep_no_address(ep: Episode) -> None:
    staff = collector(ep, "All staff (anonymous)")
    waiting = first(ep, "recipients", collector_id=staff["id"], status="sent")
    good = answers(ep, staff["survey_id"], nps=6)
    rsp = ok(ep, "submit_response", collector_id=staff["id"], answers=good, recipient_email=waiting["email"])
    assert (rsp["respondent_email"], rsp["recipient_id"]) == (None, None)
    assert first(ep, "recipients", collector_id=staff["id"], email=waiting["email"])["status"] == "responded"


def test_closed_or_expired_collectors_take_nothing(ep: Episode) -> None:
    closed = collector(ep, "Attendee link")
    refused(
        ep,
        "submit_response",
        "rule_violation",
        "collector_id",
        collector_id=closed["id"],
        answers=answers(ep, closed["survey_id"]),
    )
    refused(ep, "update_collector", "rule_violation", "collector_id", collector_id=closed["id"], name="Reopen")
    link = collector(ep, "Website link")
    ok(ep, "update_collector", collector_id=link["id"], close_date="2026-03-01T00:00:00Z")
    refused(
        ep,
        "submit_response",
        "rule_violation",
        "collector_id",
        collector_id=link["id"],
        answers=answers(ep, link["survey_id"]),
    )


# -- building surveys -----------------------------------------------------------------------


def test_questions_of_a_survey_with_responses_stay_and_there_is_one_nps_question(ep: Episode) -> None:
    survey = first(ep, "surveys", audience="customers")
    q = first(ep, "questions", survey_id=survey["id"])
    refused(ep, "delete_question", "rule_violation", "question_id", question_id=q["id"])
    refused(ep, "add_question", "conflict", "family", survey_id=survey["id"], heading="Recommend?", family="nps")
    refused(
        ep,
        "add_question",
        "rule_violation",
        "choices",
        survey_id=survey["id"],
        heading="Pick",
        family="single_choice",
        choices=["Only"],
    )
    added = ok(ep, "add_question", survey_id=survey["id"], heading="Pick", family="single_choice", choices=["A", "B"])
    assert added["position"] == len(items(ep, "questions", survey_id=survey["id"]))


def test_a_survey_without_questions_collects_nothing(ep: Episode) -> None:
    empty = ok(ep, "create_survey", title="Empty", owner_email=POP.employees[0].email)
    col = ok(ep, "create_collector", survey_id=empty["id"], name="Link", type="weblink", url="https://example.com/s")
    refused(ep, "open_collector", "rule_violation", "collector_id", collector_id=col["id"])
    refused(ep, "create_collector", "rule_violation", "sender_email", survey_id=empty["id"], name="Mail", type="email")


def test_response_rates_count_responses_per_invitation() -> None:
    ep = Episode(WORLD)
    survey = first(ep, "surveys", audience="customers")
    rates = {c["name"]: c for c in ok(ep, "response_rates", survey_id=survey["id"])["collectors"]}
    mail = collector(ep, "Customer contacts e-mail")
    recips = every(ep, "list_recipients", collector_id=mail["id"])
    invited = sum(r["status"] in ("sent", "opened", "responded") for r in recips)
    responded = sum(r["status"] == "responded" for r in recips)
    assert rates[mail["name"]]["response_rate"] == round(100 * responded / invited, 1)
    assert rates["Website link"]["response_rate"] is None
