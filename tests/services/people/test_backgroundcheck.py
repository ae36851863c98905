"""Veritas Screening: invitations and consent, reports per package, engagement and the adverse action process."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools, service_world

BGC = ServiceTools("backgroundcheck")
WORLD = BGC.world
ok, refused, every = BGC.ok, BGC.refused, BGC.every


def uninvited(ep: Episode) -> dict[str, Any]:
    invited = {i["candidate_id"] for i in every(ep, "list_invitations")}
    return next(c for c in every(ep, "list_candidates") if c["id"] not in invited)


def package(ep: Episode, slug: str) -> dict[str, Any]:
    return dict(every(ep, "list_packages", slug=slug)[0])


def report(ep: Episode, **filters: Any) -> dict[str, Any]:
    return dict(every(ep, "list_reports", **filters)[0])


def unadjudicated_consider(ep: Episode) -> dict[str, Any]:
    return next(r for r in every(ep, "list_reports", status="complete", result="consider") if r["adjudication"] is None)


# -- the world ------------------------------------------------------------------------------


def test_candidates_are_the_recruiting_candidates() -> None:
    world = service_world("backgroundcheck", "recruiting")
    ep = Episode(world)
    hiring = {c["email"]: c for c in ServiceTools("recruiting").every(ep, "list_candidates")}
    screened = BGC.every(ep, "list_candidates")
    assert screened
    for c in screened:
        assert c["email"] in hiring
        assert (c["first_name"], c["last_name"]) == (hiring[c["email"]]["first_name"], hiring[c["email"]]["last_name"])


def test_seeded_reports_are_consistent() -> None:
    ep = Episode(WORLD)
    pkgs = {p["id"]: p for p in every(ep, "list_packages")}
    for rep in every(ep, "list_reports"):
        scr = every(ep, "list_screenings", report_id=rep["id"])
        assert sorted(s["type"] for s in scr) == sorted(pkgs[rep["package_id"]]["screenings"])
        assert rep["cost"] == pkgs[rep["package_id"]]["price"]
        if rep["result"] == "consider":
            assert any(s["status"] == "consider" for s in scr)
    for aa in every(ep, "list_adverse_actions"):
        for sid in aa["screening_ids"]:
            assert (
                next(s for s in every(ep, "list_screenings", report_id=aa["report_id"]) if s["id"] == sid)["status"]
                == "consider"
            )


# -- invitations ----------------------------------------------------------------------------


def test_the_invitation_flow_orders_a_report(ep: Episode) -> None:
    cand = uninvited(ep)
    pkg = package(ep, "professional")
    inv = ok(ep, "create_invitation", candidate_id=cand["id"], package_id=pkg["id"])
    assert inv["status"] == "pending" and inv["invitation_url"].startswith("https://")
    refused(ep, "create_invitation", "conflict", "candidate_id", candidate_id=cand["id"], package_id=pkg["id"])
    args = dict(invitation_id=inv["id"], dob="1991-06-30", zipcode="10115")
    refused(ep, "submit_invitation", "rule_violation", "consent", consent=False, **args)
    refused(ep, "submit_invitation", "rule_violation", "dob", consent=True, **{**args, "dob": "2012-01-01"})
    rep = ok(ep, "submit_invitation", consent=True, **args)
    assert (rep["status"], rep["cost"], rep["eta"]) == ("pending", pkg["price"], "2026-03-07")
    assert sorted(s["type"] for s in every(ep, "list_screenings", report_id=rep["id"])) == sorted(pkg["screenings"])
    assert ok(ep, "get_candidate", candidate_id=cand["id"])["dob"] == "1991-06-30"
    refused(ep, "submit_invitation", "rule_violation", "invitation_id", consent=True, **args)
    refused(ep, "update_candidate", "rule_violation", "dob", candidate_id=cand["id"], dob="1991-07-01")


def test_expired_invitations_and_retired_packages(ep: Episode) -> None:
    expired = every(ep, "list_invitations", status="expired")[0]
    refused(
        ep,
        "submit_invitation",
        "rule_violation",
        "invitation_id",
        invitation_id=expired["id"],
        dob="1990-01-01",
        zipcode="10115",
        consent=True,
    )
    retired = every(ep, "list_packages", active=False)[0]
    refused(
        ep,
        "create_invitation",
        "rule_violation",
        "package_id",
        candidate_id=expired["candidate_id"],
        package_id=retired["id"],
    )
    again = ok(ep, "create_invitation", candidate_id=expired["candidate_id"], package_id=package(ep, "basic")["id"])
    assert again["status"] == "pending"


def test_a_pending_invitation_can_be_cancelled_once(ep: Episode) -> None:
    inv = every(ep, "list_invitations", status="pending")[0]
    assert ok(ep, "cancel_invitation", invitation_id=inv["id"])["status"] == "cancelled"
    refused(ep, "cancel_invitation", "rule_violation", "invitation_id", invitation_id=inv["id"])


# -- adjudication ---------------------------------------------------------------------------


def test_engaging_needs_a_complete_report(ep: Episode) -> None:
    clear = next(r for r in every(ep, "list_reports", status="complete", result="clear") if r["adjudication"] is None)
    assert ok(ep, "engage_candidate", report_id=clear["id"])["adjudication"] == "engaged"
    refused(ep, "engage_candidate", "conflict", "report_id", report_id=clear["id"])
    pending = report(ep, status="pending")
    refused(ep, "engage_candidate", "rule_violation", "report_id", report_id=pending["id"])
    cand = ok(ep, "get_candidate", candidate_id=clear["candidate_id"])
    status = ok(ep, "candidate_status", email=cand["email"])
    assert status["cleared_to_hire"] and status["report_id"] == clear["id"]


def test_adverse_action_cites_consider_screenings_and_waits_seven_days(ep: Episode) -> None:
    clear = report(ep, status="complete", result="clear")
    scr = every(ep, "list_screenings", report_id=clear["id"])[0]
    refused(ep, "start_adverse_action", "rule_violation", "report_id", report_id=clear["id"], screening_ids=[scr["id"]])
    rep = unadjudicated_consider(ep)
    screens = every(ep, "list_screenings", report_id=rep["id"])
    fine = next(s for s in screens if s["status"] == "clear")
    hit = next(s for s in screens if s["status"] == "consider")
    refused(
        ep, "start_adverse_action", "rule_violation", "screening_ids.0", report_id=rep["id"], screening_ids=[fine["id"]]
    )
    aa = ok(ep, "start_adverse_action", report_id=rep["id"], screening_ids=[hit["id"]])
    cand = ok(ep, "get_candidate", candidate_id=rep["candidate_id"])
    assert (aa["status"], aa["notified_email"]) == ("pre_notice_sent", cand["email"])
    assert ok(ep, "get_report", report_id=rep["id"])["adjudication"] == "pre_adverse_action"
    refused(ep, "start_adverse_action", "conflict", "report_id", report_id=rep["id"], screening_ids=[hit["id"]])
    msg = refused(ep, "complete_adverse_action", "rule_violation", "adverse_action_id", adverse_action_id=aa["id"])
    assert "waiting period" in msg
    ok(ep, "cancel_adverse_action", adverse_action_id=aa["id"])
    assert ok(ep, "get_report", report_id=rep["id"])["adjudication"] is None


def test_the_final_notice_is_final(ep: Episode) -> None:
    ready = next(
        a
        for a in every(ep, "list_adverse_actions", status="pre_notice_sent")
        if ok(ep, "get_report", report_id=a["report_id"])["status"] == "complete"
        and a["post_notice_ready_at"] < "2026-03-02"
    )
    done = ok(ep, "complete_adverse_action", adverse_action_id=ready["id"])
    assert done["status"] == "post_notice_sent" and done["post_notice_at"] is not None
    assert ok(ep, "get_report", report_id=ready["report_id"])["adjudication"] == "post_adverse_action"
    refused(ep, "engage_candidate", "rule_violation", "report_id", report_id=ready["report_id"])
    refused(ep, "dispute_report", "rule_violation", "report_id", report_id=ready["report_id"], reason="Not me")
    refused(ep, "complete_adverse_action", "rule_violation", "adverse_action_id", adverse_action_id=ready["id"])


def test_a_dispute_pauses_the_adverse_action(ep: Episode) -> None:
    disputed = report(ep, status="dispute")
    aa = every(ep, "list_adverse_actions", report_id=disputed["id"])[0]
    msg = refused(ep, "complete_adverse_action", "rule_violation", "adverse_action_id", adverse_action_id=aa["id"])
    assert "dispute" in msg
    rep = unadjudicated_consider(ep)
    refused(ep, "dispute_report", "rule_violation", "reason", report_id=rep["id"], reason=" ")
    assert ok(ep, "dispute_report", report_id=rep["id"], reason="The record is someone else's")["status"] == "dispute"
    refused(ep, "engage_candidate", "rule_violation", "report_id", report_id=rep["id"])


def test_engaging_during_the_waiting_period_cancels_the_adverse_action(ep: Episode) -> None:
    waiting = next(
        a
        for a in every(ep, "list_adverse_actions", status="pre_notice_sent")
        if ok(ep, "get_report", report_id=a["report_id"])["status"] == "complete"
    )
    assert ok(ep, "engage_candidate", report_id=waiting["report_id"])["adjudication"] == "engaged"
    assert every(ep, "list_adverse_actions", report_id=waiting["report_id"])[0]["status"] == "canceled"


def test_only_unfinished_reports_are_cancelled(ep: Episode) -> None:
    pending = report(ep, status="pending")
    done = ok(ep, "cancel_report", report_id=pending["id"])
    assert done["status"] == "canceled"
    assert {s["status"] for s in every(ep, "list_screenings", report_id=pending["id"])} <= {"canceled", "clear"}
    complete = report(ep, status="complete")
    refused(ep, "cancel_report", "rule_violation", "report_id", report_id=complete["id"])


def test_looking_up_an_unknown_candidate(ep: Episode) -> None:
    refused(ep, "candidate_status", "not_found", "email", email="nobody@example.org")
