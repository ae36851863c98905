"""Gridflex DR: enrollment, event notice and limits, opt-outs, telemetry, settlement of delivered reduction."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DR = ServiceTools("demandresponse")
WORLD = DR.world
ok, refused, every, first = DR.ok, DR.refused, DR.every, DR.first
POP = WORLD.population
NOW = WORLD.epoch


def at(**delta: float) -> str:
    return (NOW.replace(minute=0, second=0, microsecond=0) + dt.timedelta(**delta)).isoformat()


def program(ep: Episode) -> dict[str, Any]:
    return next(p for p in every(ep, "list_programs", status="active") if every(ep, "list_events", program_id=p["id"]))


def enroll_args(ep: Episode, **over: Any) -> dict[str, Any]:
    co = POP.customers[-1]
    args = {
        "program_id": program(ep)["id"],
        "ven_id": "VEN-TEST01",
        "name": "Test plant",
        "company_name": co.name,
        "contact_email": f"energy@{co.domain}",
        "address": co.address.model_dump(),
        "baseline_kw": 500.0,
        "committed_kw": 100.0,
    }
    return args | over


def test_seeded_sites_belong_to_customer_companies_and_commit_within_their_baseline(ep: Episode) -> None:
    companies = {c.name for c in POP.customers}
    sites = every(ep, "list_sites")
    assert {s["status"] for s in sites} >= {"enrolled", "pending", "suspended"}
    for s in sites:
        assert s["company_name"] in companies and s["committed_kw"] <= s["baseline_kw"]
    assert {e["status"] for e in every(ep, "list_events")} == {"far", "near", "active", "completed", "cancelled"}


def test_enrollment_is_pending_until_approved_and_refuses_duplicates_and_overcommitment(ep: Episode) -> None:
    refused(ep, "enroll_site", "rule_violation", "committed_kw", **enroll_args(ep, committed_kw=600.0))
    closed = first(ep, "programs", status="closed")
    refused(ep, "enroll_site", "rule_violation", "program_id", **enroll_args(ep, program_id=closed["id"]))
    refused(ep, "update_program", "rule_violation", "program_id", program_id=closed["id"], incentive_cents_per_kwh=1)
    site = ok(ep, "enroll_site", **enroll_args(ep))
    assert site["status"] == "pending"
    refused(ep, "enroll_site", "conflict", "ven_id", **enroll_args(ep))
    assert ok(ep, "approve_site", site_id=site["id"])["status"] == "enrolled"
    refused(ep, "update_site", "rule_violation", "committed_kw", site_id=site["id"], committed_kw=501.0)
    assert ok(ep, "suspend_site", site_id=site["id"])["status"] == "suspended"


def test_an_event_needs_notice_quarter_hours_a_valid_level_and_reaches_every_enrolled_site(ep: Episode) -> None:
    p = program(ep)
    base = {"program_id": p["id"], "duration_minutes": 60, "signal_value": 2}
    notice = p["min_notice_minutes"]
    refused(ep, "create_event", "rule_violation", "dtstart", dtstart=at(minutes=notice - 60), **base)
    refused(ep, "create_event", "rule_violation", "dtstart", dtstart=at(days=3, minutes=5), **base)
    too_long = base | {"duration_minutes": p["max_duration_minutes"] + 15}
    refused(ep, "create_event", "rule_violation", "duration_minutes", dtstart=at(days=3), **too_long)
    refused(ep, "create_event", "rule_violation", "signal_value", dtstart=at(days=3), **(base | {"signal_value": 5}))
    event = ok(ep, "create_event", dtstart=at(days=3), **base)
    assert event["status"] == "far"
    enrolled = {s["id"] for s in every(ep, "list_sites", program_id=p["id"], status="enrolled")}
    got = every(ep, "list_responses", event_id=event["id"])
    assert {r["site_id"] for r in got} == enrolled and {r["opt"] for r in got} == {"opt_in"}


def test_a_program_runs_at_most_its_events_per_season(ep: Episode) -> None:
    p = program(ep)
    used = sum(e["status"] != "cancelled" for e in every(ep, "list_events", program_id=p["id"]))
    ok(ep, "update_program", program_id=p["id"], max_events_per_season=used + 1)
    ok(ep, "create_event", program_id=p["id"], dtstart=at(days=4), duration_minutes=60, signal_value=1)
    refused(
        ep,
        "create_event",
        "rule_violation",
        "program_id",
        program_id=p["id"],
        dtstart=at(days=5),
        duration_minutes=60,
        signal_value=1,
    )


def test_opt_outs_close_when_the_event_starts_and_are_limited_per_season(ep: Episode) -> None:
    near = first(ep, "events", status="near")
    resp = every(ep, "list_responses", event_id=near["id"], opt="opt_in")[0]
    out = ok(ep, "opt_out", response_id=resp["id"])
    assert out["opt"] == "opt_out"
    refused(ep, "opt_out", "conflict", "response_id", response_id=resp["id"])
    assert ok(ep, "opt_in", response_id=resp["id"])["opt"] == "opt_in"
    ok(ep, "update_program", program_id=near["program_id"], opt_outs_per_season=0)
    refused(ep, "opt_out", "rule_violation", "response_id", response_id=resp["id"])
    active = first(ep, "events", status="active")
    live = every(ep, "list_responses", event_id=active["id"])[0]
    refused(ep, "opt_out", "rule_violation", "response_id", response_id=live["id"])


def test_events_move_far_near_active_completed_in_time_order(ep: Episode) -> None:
    far = first(ep, "events", status="far")
    refused(ep, "activate_event", "rule_violation", "event_id", event_id=far["id"])
    near = first(ep, "events", status="near")
    assert ok(ep, "activate_event", event_id=near["id"])["status"] == "active"
    refused(ep, "complete_event", "rule_violation", "event_id", event_id=near["id"])
    refused(ep, "cancel_event", "rule_violation", "event_id", event_id=near["id"])
    ended = next(e for e in every(ep, "list_events", status="active") if e["id"] != near["id"])
    assert ok(ep, "complete_event", event_id=ended["id"])["status"] == "completed"
    cancelled = ok(ep, "cancel_event", event_id=far["id"])
    assert (cancelled["status"], cancelled["modification_number"]) == ("cancelled", far["modification_number"] + 1)


def test_telemetry_is_reported_once_per_past_quarter_hour(ep: Episode) -> None:
    site = first(ep, "sites", status="enrolled")
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "interval_start",
        site_id=site["id"],
        interval_start=at(minutes=7),
        kw=100.0,
    )
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "interval_start",
        site_id=site["id"],
        interval_start=at(hours=1),
        kw=100.0,
    )
    ok(ep, "submit_report", site_id=site["id"], interval_start=at(days=-1), kw=100.0)
    refused(ep, "submit_report", "conflict", "interval_start", site_id=site["id"], interval_start=at(days=-1), kw=90.0)
    pending = first(ep, "sites", status="pending")
    refused(ep, "submit_report", "rule_violation", "site_id", site_id=pending["id"], interval_start=at(days=-1), kw=1.0)


def test_settlement_pays_measured_reduction_of_opted_in_sites_once(ep: Episode) -> None:
    event = next(
        e for e in every(ep, "list_events", status="completed") if not every(ep, "list_settlements", event_id=e["id"])
    )
    p = ok(ep, "get_program", program_id=event["program_id"])
    done = ok(ep, "settle_event", event_id=event["id"])
    opted_in = {r["site_id"] for r in every(ep, "list_responses", event_id=event["id"], opt="opt_in")}
    assert {s["site_id"] for s in done} == opted_in and len(opted_in) < len(
        every(ep, "list_responses", event_id=event["id"])
    )
    for stl in done:
        site = ok(ep, "get_site", site_id=stl["site_id"])
        assert abs(stl["reduction_kw"] - (site["baseline_kw"] - stl["measured_kw"])) < 0.02
        hours = event["duration_minutes"] / 60
        assert abs(stl["incentive_cents"] - stl["reduction_kw"] * hours * p["incentive_cents_per_kwh"]) <= 1
        assert stl["status"] == "calculated"
    refused(ep, "settle_event", "conflict", "event_id", event_id=event["id"])
    refused(ep, "pay_settlement", "rule_violation", "settlement_id", settlement_id=done[0]["id"])
    ok(ep, "approve_settlement", settlement_id=done[0]["id"])
    assert ok(ep, "pay_settlement", settlement_id=done[0]["id"])["status"] == "paid"
    perf = ok(ep, "site_performance", site_id=done[0]["site_id"])
    assert perf["events_settled"] == len(every(ep, "list_settlements", site_id=done[0]["site_id"]))
    refused(ep, "settle_event", "rule_violation", "event_id", event_id=first(ep, "events", status="far")["id"])
