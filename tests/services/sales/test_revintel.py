"""Cadence Intelligence: recording privacy, analysis by trackers, deal links, scorecards, coaching and erasure."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

GONG = ServiceTools("revintel")
WORLD = GONG.world
ok, refused, every = GONG.ok, GONG.refused, GONG.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
REP = POP.staff("Sales", fallback=3)[0]
GUEST = POP.contacts[0]


def scheduled_external(ep: Episode) -> dict[str, Any]:
    return next(c for c in every(ep, "list_calls", status="scheduled") if c["scope"] == "external")


def transcript_for(call: dict[str, Any]) -> str:
    host = call["participants"][0]["name"]
    guest = call["participants"][1]["name"]
    return f"{host}: Let's cover pricing and the discount.\n{guest}: Our budget is small; pricing matters."


def test_seeded_calls_are_hosted_by_reps_with_customer_guests(ep: Episode) -> None:
    customers = {c.name for c in POP.customers}
    for c in every(ep, "list_calls"):
        assert c["host_email"] in STAFF
        for p in c["participants"]:
            assert (p["email"] in STAFF) == (p["affiliation"] == "internal")
            assert p["company_name"] is None or p["company_name"] in customers
        transcripts = every(ep, "list_transcripts", call_id=c["id"])
        assert len(transcripts) == (1 if c["status"] in ("recorded", "analyzed") else 0)
    assert {c["status"] for c in every(ep, "list_calls")} == {"scheduled", "recorded", "analyzed", "purged"}


def test_an_external_call_is_recorded_only_when_announced(ep: Episode) -> None:
    call = scheduled_external(ep)
    args = {"call_id": call["id"], "duration_seconds": 900, "transcript": transcript_for(call)}
    refused(ep, "upload_recording", "rule_violation", "recording_announced", **args)
    tr = ok(ep, "upload_recording", recording_announced=True, **args)
    assert tr["call_id"] == call["id"] and tr["word_count"] == len(args["transcript"].split())
    assert ok(ep, "get_call", call_id=call["id"])["status"] == "recorded"
    refused(ep, "upload_recording", "conflict", "call_id", recording_announced=True, **args)


def test_do_not_record_domains_block_recording(ep: Episode) -> None:
    call = scheduled_external(ep)
    guest = next(p for p in call["participants"] if p["affiliation"] == "external")
    domain = guest["email"].split("@")[1]
    ok(ep, "create_exclusion", domain=domain, reason="Customer policy")
    refused(ep, "create_exclusion", "conflict", "domain", domain=domain)
    refused(
        ep,
        "upload_recording",
        "rule_violation",
        "call_id",
        call_id=call["id"],
        duration_seconds=600,
        transcript=transcript_for(call),
        recording_announced=True,
    )


def test_analysis_counts_enabled_tracker_keywords_per_side(ep: Episode) -> None:
    call = scheduled_external(ep)
    refused(ep, "analyze_call", "rule_violation", "call_id", call_id=call["id"])
    ok(
        ep,
        "upload_recording",
        call_id=call["id"],
        duration_seconds=900,
        transcript=transcript_for(call),
        recording_announced=True,
    )
    hits = ok(ep, "analyze_call", call_id=call["id"])
    pricing = every(ep, "list_trackers", enabled=True)
    pricing_id = next(t["id"] for t in pricing if t["name"] == "Pricing")
    got = {(h["keyword"], h["side"]): h["count"] for h in hits if h["tracker_id"] == pricing_id}
    assert got == {
        ("pricing", "internal"): 1,
        ("discount", "internal"): 1,
        ("pricing", "external"): 1,
        ("budget", "external"): 1,
    }
    assert ok(ep, "get_call", call_id=call["id"])["status"] == "analyzed"
    refused(ep, "analyze_call", "rule_violation", "call_id", call_id=call["id"])


def test_disabled_trackers_do_not_fire(ep: Episode) -> None:
    pricing = next(t for t in every(ep, "list_trackers") if t["name"] == "Pricing")
    assert ok(ep, "disable_tracker", tracker_id=pricing["id"])["enabled"] is False
    call = every(ep, "list_calls", status="recorded")[0]
    hits = ok(ep, "analyze_call", call_id=call["id"])
    assert all(h["tracker_id"] != pricing["id"] for h in hits)
    refused(ep, "create_tracker", "conflict", "name", name="pricing", keywords=["x"], owner_email=REP.email)
    refused(ep, "create_tracker", "rule_violation", "keywords", name="Dup", keywords=["a", "A"], owner_email=REP.email)


def test_calls_link_only_to_deals_of_companies_on_them(ep: Episode) -> None:
    call = next(c for c in every(ep, "list_calls", scope="external") if c["deal_id"] is None)
    company = next(p["company_name"] for p in call["participants"] if p["company_name"])
    own = every(ep, "list_deals", company_name=company)[0]
    other = next(d for d in every(ep, "list_deals") if d["company_name"] != company)
    refused(ep, "link_call_to_deal", "rule_violation", "deal_id", call_id=call["id"], deal_id=other["id"])
    assert ok(ep, "link_call_to_deal", call_id=call["id"], deal_id=own["id"])["deal_id"] == own["id"]
    internal = every(ep, "list_calls", scope="internal")[0]
    refused(ep, "link_call_to_deal", "rule_violation", "call_id", call_id=internal["id"], deal_id=own["id"])
    stats = ok(ep, "deal_activity", deal_id=own["id"])
    assert stats["calls"] == len(every(ep, "list_calls", deal_id=own["id"]))


def test_scorecards_are_filled_once_by_someone_other_than_the_host(ep: Episode) -> None:
    card = every(ep, "list_scorecards", enabled=True)[0]
    call = next(c for c in every(ep, "list_calls", status="analyzed") if not every(ep, "list_reviews", call_id=c["id"]))
    other = next(e for e in STAFF if e != call["host_email"])
    base = {"call_id": call["id"], "scorecard_id": card["id"]}
    refused(
        ep,
        "review_call",
        "rule_violation",
        "reviewer_email",
        reviewer_email=call["host_email"],
        answers=[3, 3, 3],
        **base,
    )
    refused(ep, "review_call", "rule_violation", "answers", reviewer_email=other, answers=[3, 3], **base)
    rev = ok(ep, "review_call", reviewer_email=other, answers=[5, 4, 3], **base)
    assert (rev["average"], rev["reviewee_email"]) == (4.0, call["host_email"])
    refused(ep, "review_call", "conflict", "scorecard_id", reviewer_email=other, answers=[1, 1, 1], **base)
    off = every(ep, "list_scorecards", enabled=False)[0]
    refused(
        ep,
        "review_call",
        "rule_violation",
        "scorecard_id",
        call_id=call["id"],
        scorecard_id=off["id"],
        reviewer_email=other,
        answers=[3, 3],
    )


def test_coaching_comments_point_within_the_recording(ep: Episode) -> None:
    call = every(ep, "list_calls", status="analyzed")[0]
    coach = next(e for e in STAFF if e != call["host_email"])
    base = {"call_id": call["id"], "author_email": coach, "text": "Pause after the price."}
    refused(ep, "add_comment", "rule_violation", "at_second", at_second=call["duration_seconds"] + 1, **base)
    made = ok(ep, "add_comment", at_second=call["duration_seconds"], private=True, **base)
    assert made["private"] is True
    refused(
        ep,
        "add_comment",
        "rule_violation",
        "call_id",
        at_second=0,
        **(base | {"call_id": scheduled_external(ep)["id"]}),
    )


def test_erasing_a_person_purges_every_call_they_joined(ep: Episode) -> None:
    call = every(ep, "list_calls", status="analyzed")[0]
    guest = next(p["email"] for p in call["participants"] if p["affiliation"] == "external")
    refused(ep, "erase_person_data", "rule_violation", "email", email=call["host_email"])
    purged = ok(ep, "erase_person_data", email=guest)
    assert call["id"] in {c["id"] for c in purged} and {c["status"] for c in purged} == {"purged"}
    for c in purged:
        assert every(ep, "list_transcripts", call_id=c["id"]) == []
        assert every(ep, "list_tracker_hits", call_id=c["id"]) == []
        assert every(ep, "list_comments", call_id=c["id"]) == []
    refused(ep, "erase_person_data", "rule_violation", "email", email=guest)


def test_closed_deals_do_not_reopen(ep: Episode) -> None:
    won = every(ep, "list_deals", stage="closed_won")[0]
    refused(ep, "update_deal", "rule_violation", "stage", deal_id=won["id"], stage="negotiation")
    refused(
        ep,
        "create_deal",
        "rule_violation",
        "owner_email",
        name="X",
        company_name="Y Inc",
        owner_email="a@b.io",
        amount=100,
        close_date="2030-01-01",
    )
