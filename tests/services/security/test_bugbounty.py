"""Bountyline: submissions in scope, triage workflow, duplicates, severity with CVSS, bounties, disclosure."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BB = ServiceTools("bugbounty")
WORLD = BB.world
ok, refused, every, first = BB.ok, BB.refused, BB.every, BB.first
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
LEAD = POP.employees[0].email


def report(ep: Episode, words: str) -> dict[str, Any]:
    return first(ep, "reports", query=words)


def submit(ep: Episode, prog: dict[str, Any], **extra: Any) -> dict[str, Any]:
    hacker = every(ep, "list_hackers")[0]
    args = {"program_id": prog["id"], "hacker_id": hacker["id"], "title": "SQL injection in export", "weakness": "SQLi"}
    return dict(ok(ep, "submit_report", **args | extra))


def test_seeded_reports_are_consistent(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    assert all(h["email"] in consumers for h in every(ep, "list_hackers"))
    for r in every(ep, "list_reports"):
        scope = next(s for s in every(ep, "list_scopes", program_id=r["program_id"]) if s["id"] == r["scope_id"])
        assert scope["eligible_for_submission"]
        paid = every(ep, "list_bounties", report_id=r["id"])
        assert r["bounty_cents"] == sum(b["amount_cents"] + b["bonus_cents"] for b in paid)
        assert r["assignee_email"] is None or r["assignee_email"] in STAFF
        assert (r["closed_at"] is not None) == (
            r["state"] in ("resolved", "duplicate", "informative", "not-applicable", "spam")
        )
    dup = first(ep, "reports", state="duplicate")
    assert ok(ep, "get_report", report_id=dup["original_report_id"])["weakness"] == dup["weakness"]


def test_reports_are_accepted_only_in_scope_and_while_the_program_runs(ep: Episode) -> None:
    main = first(ep, "programs", state="public", offers_bounties=True)
    out = first(ep, "scopes", program_id=main["id"], eligible_for_submission=False)
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "scope_id",
        program_id=main["id"],
        scope_id=out["id"],
        hacker_id=every(ep, "list_hackers")[0]["id"],
        title="x",
        weakness="y",
    )
    other = first(ep, "scopes", asset_type="GOOGLE_PLAY_APP_ID")
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "scope_id",
        program_id=main["id"],
        scope_id=other["id"],
        hacker_id=every(ep, "list_hackers")[0]["id"],
        title="x",
        weakness="y",
    )
    paused = first(ep, "programs", state="paused")
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "program_id",
        program_id=paused["id"],
        hacker_id=every(ep, "list_hackers")[0]["id"],
        title="x",
        weakness="y",
    )
    made = submit(ep, main, scope_id=first(ep, "scopes", program_id=main["id"])["id"])
    assert (made["state"], made["severity"], made["bounty_cents"]) == ("new", "none", 0)
    ok(ep, "pause_program", program_id=main["id"])
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "program_id",
        program_id=main["id"],
        hacker_id=made["hacker_id"],
        title="x",
        weakness="y",
    )


def test_the_triage_workflow_moves_only_along_allowed_states(ep: Episode) -> None:
    r = first(ep, "reports", state="new")
    refused(ep, "change_report_state", "rule_violation", "state", report_id=r["id"], state="resolved")
    asked = ok(ep, "change_report_state", report_id=r["id"], state="needs-more-info", message="Which browser?")
    assert asked["state"] == "needs-more-info" and asked["triaged_at"] is None
    triaged = ok(ep, "change_report_state", report_id=r["id"], state="triaged")
    assert triaged["triaged_at"] is not None and triaged["closed_at"] is None
    done = ok(ep, "change_report_state", report_id=r["id"], state="resolved")
    assert done["closed_at"] is not None
    refused(ep, "change_report_state", "rule_violation", "state", report_id=r["id"], state="new")
    again = ok(ep, "change_report_state", report_id=r["id"], state="triaged")
    assert again["closed_at"] is None and again["triaged_at"] == triaged["triaged_at"]


def test_a_duplicate_names_an_earlier_report_of_the_same_program(ep: Episode) -> None:
    later = report(ep, "Reflected XSS")
    earlier = report(ep, "Stored XSS")
    refused(ep, "change_report_state", "rule_violation", "original_report_id", report_id=later["id"], state="duplicate")
    refused(
        ep,
        "change_report_state",
        "rule_violation",
        "original_report_id",
        report_id=earlier["id"],
        state="duplicate",
        original_report_id=later["id"],
    )
    vdp = first(ep, "reports", program_id=first(ep, "programs", offers_bounties=False)["id"])
    refused(
        ep,
        "change_report_state",
        "rule_violation",
        "original_report_id",
        report_id=later["id"],
        state="duplicate",
        original_report_id=vdp["id"],
    )
    dup = ok(ep, "change_report_state", report_id=later["id"], state="duplicate", original_report_id=earlier["id"])
    assert (dup["state"], dup["original_report_id"]) == ("duplicate", earlier["id"])


def test_severity_must_agree_with_cvss_and_the_asset_cap(ep: Episode) -> None:
    r = report(ep, "Verbose stack traces")
    refused(ep, "set_report_severity", "rule_violation", "severity", report_id=r["id"], severity="high", cvss_score=5.0)
    refused(
        ep, "set_report_severity", "rule_violation", "severity", report_id=r["id"], severity="critical", cvss_score=9.5
    )
    rated = ok(ep, "set_report_severity", report_id=r["id"], severity="high", cvss_score=7.2)
    assert (rated["severity"], rated["cvss_score"]) == ("high", 7.2)


def test_bounties_stay_within_the_table_and_only_on_eligible_reports(ep: Episode) -> None:
    r = report(ep, "Stored XSS")
    refused(
        ep, "award_bounty", "rule_violation", "amount_cents", report_id=r["id"], amount_cents=200000, awarded_by=LEAD
    )
    refused(
        ep, "award_bounty", "rule_violation", "awarded_by", report_id=r["id"], amount_cents=60000, awarded_by="h@x.io"
    )
    b = ok(ep, "award_bounty", report_id=r["id"], amount_cents=60000, bonus_cents=90000, awarded_by=LEAD)
    assert b["amount_cents"] == 60000
    assert ok(ep, "get_report", report_id=r["id"])["bounty_cents"] == r["bounty_cents"] + 150000
    refused(
        ep,
        "award_bounty",
        "rule_violation",
        "report_id",
        report_id=report(ep, "Open redirect")["id"],
        amount_cents=10000,
        awarded_by=LEAD,
    )
    wild = report(ep, "Verbose stack traces")
    ok(ep, "change_report_state", report_id=wild["id"], state="triaged")
    refused(
        ep, "award_bounty", "rule_violation", "report_id", report_id=wild["id"], amount_cents=10000, awarded_by=LEAD
    )


def test_a_disclosure_program_pays_no_bounties(ep: Episode) -> None:
    vdp = first(ep, "programs", offers_bounties=False)
    r = first(ep, "reports", program_id=vdp["id"])
    ok(ep, "change_report_state", report_id=r["id"], state="triaged")
    refused(ep, "award_bounty", "rule_violation", "report_id", report_id=r["id"], amount_cents=0, awarded_by=LEAD)


def test_disclosure_needs_both_parties(ep: Episode) -> None:
    pending = first(ep, "reports", disclosure="requested")
    refused(
        ep,
        "agree_to_disclosure",
        "rule_violation",
        "party",
        report_id=pending["id"],
        party=pending["disclosure_requested_by"],
    )
    other = "reporter" if pending["disclosure_requested_by"] == "program" else "program"
    done = ok(ep, "agree_to_disclosure", report_id=pending["id"], party=other)
    assert done["disclosure"] == "disclosed" and done["disclosed_at"] is not None
    refused(ep, "request_disclosure", "conflict", "report_id", report_id=pending["id"], party="reporter")
    triaged = first(ep, "reports", state="triaged")
    refused(ep, "request_disclosure", "rule_violation", "report_id", report_id=triaged["id"], party="reporter")
    informative = first(ep, "reports", state="informative")
    assert ok(ep, "request_disclosure", report_id=informative["id"], party="reporter")["disclosure"] == "requested"


def test_programs_launch_private_and_metrics_add_up(ep: Episode) -> None:
    refused(
        ep,
        "create_program",
        "conflict",
        "handle",
        handle=every(ep, "list_programs")[0]["handle"],
        name="X",
        manager_email=LEAD,
    )
    made = ok(ep, "create_program", handle="labs-vdp", name="Labs VDP", manager_email=LEAD)
    assert (made["state"], made["offers_bounties"]) == ("private", False)
    assert ok(ep, "publish_program", program_id=made["id"])["state"] == "public"
    main = first(ep, "programs", state="public", offers_bounties=True)
    m = ok(ep, "program_metrics", program_id=main["id"])
    found = every(ep, "list_reports", program_id=main["id"])
    assert sum(m["reports_by_state"].values()) == len(found)
    assert m["paid_cents"] == sum(r["bounty_cents"] for r in found)
    assert m["open_reports"] == sum(r["state"] in ("new", "needs-more-info", "triaged") for r in found)
