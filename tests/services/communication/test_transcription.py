"""Scribewell: pricing and due times, the order workflow by fidelity, cancellation, re-review, edits, captions."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TRX = ServiceTools("transcription")
WORLD = TRX.world
ok, refused, every = TRX.ok, TRX.refused, TRX.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
ME = POP.employees[0].email


def seg(start: float, end: float, speaker: str = "Speaker 1", text: str = "Hello there") -> dict[str, Any]:
    return {"speaker": speaker, "start_seconds": start, "end_seconds": end, "text": text}


def new_media(ep: Episode, secs: int = 125) -> dict[str, Any]:
    url = "https://files.example.com/call.mp3"
    made = ok(ep, "upload_media", name="Call", url=url, duration_seconds=secs, uploaded_by=ME)
    return dict(made)


def test_seeded_orders_are_priced_by_the_minute_and_transcripts_belong_to_completed_orders(ep: Episode) -> None:
    media = {m["id"]: m for m in every(ep, "list_media_files")}
    assert {m["uploaded_by"] for m in media.values()} <= STAFF
    statuses = set()
    for o in every(ep, "list_orders"):
        statuses.add(o["status"])
        minutes = -(-media[o["media_id"]]["duration_seconds"] // 60)
        rate = {"machine": 25, "human": 150}[o["fidelity"]] + (125 if o["turnaround"] == "rush" else 0)
        assert o["price_cents"] == minutes * rate
        trx = every(ep, "list_transcripts", order_id=o["id"])
        assert len(trx) == (1 if o["status"] == "complete" else 0)
    assert statuses == {"pending", "in_progress", "in_review", "complete", "cancelled"}
    names = set(every(ep, "list_glossaries")[0]["terms"])
    assert POP.home.name in names


def test_a_new_order_is_priced_and_due_by_fidelity_and_turnaround(ep: Episode) -> None:
    m = new_media(ep, 125)
    rush = ok(ep, "place_order", media_id=m["id"], placed_by=ME, fidelity="human", turnaround="rush")
    assert (rush["status"], rush["price_cents"]) == ("pending", 3 * 275)
    refused(ep, "place_order", "conflict", "media_id", media_id=m["id"], placed_by=ME, fidelity="human")
    refused(
        ep,
        "place_order",
        "rule_violation",
        "fidelity",
        media_id=m["id"],
        placed_by=ME,
        fidelity="machine",
        verbatim=True,
    )
    refused(ep, "place_order", "rule_violation", "placed_by", media_id=m["id"], placed_by="x@y.io", fidelity="machine")
    machine = ok(ep, "place_order", media_id=m["id"], placed_by=ME, fidelity="machine")
    assert machine["price_cents"] == 75 and machine["due_at"] < rush["due_at"]


def test_human_orders_go_through_review_and_machine_orders_do_not(ep: Episode) -> None:
    m = new_media(ep, 60)
    h = ok(ep, "place_order", media_id=m["id"], placed_by=ME, fidelity="human")
    refused(ep, "submit_for_review", "rule_violation", "order_id", order_id=h["id"])
    ok(ep, "start_order", order_id=h["id"])
    refused(ep, "deliver_order", "rule_violation", "order_id", order_id=h["id"], segments=[seg(0, 5)])
    assert ok(ep, "submit_for_review", order_id=h["id"])["status"] == "in_review"
    t = ok(ep, "deliver_order", order_id=h["id"], segments=[seg(0, 5), seg(6, 9, "Speaker 2", "Yes indeed")])
    assert (t["word_count"], t["confidence"]) == (4, 0.99)
    assert ok(ep, "get_order", order_id=h["id"])["status"] == "complete"
    mac = ok(ep, "place_order", media_id=m["id"], placed_by=ME, fidelity="machine")
    ok(ep, "start_order", order_id=mac["id"])
    refused(ep, "submit_for_review", "rule_violation", "order_id", order_id=mac["id"])
    assert ok(ep, "deliver_order", order_id=mac["id"], segments=[seg(0, 5)])["confidence"] == 0.86


def test_delivered_segments_must_be_ordered_inside_the_recording_and_match_speakers(ep: Episode) -> None:
    m = new_media(ep, 60)
    o = ok(ep, "place_order", media_id=m["id"], placed_by=ME, fidelity="machine", speakers_expected=1)
    ok(ep, "start_order", order_id=o["id"])
    refused(ep, "deliver_order", "rule_violation", "segments", order_id=o["id"], segments=[seg(0, 61)])
    refused(ep, "deliver_order", "rule_violation", "segments", order_id=o["id"], segments=[seg(10, 20), seg(5, 8)])
    refused(
        ep,
        "deliver_order",
        "rule_violation",
        "segments",
        order_id=o["id"],
        segments=[seg(0, 5), seg(6, 8, "Speaker 2")],
    )
    refused(ep, "deliver_order", "rule_violation", "segments", order_id=o["id"], segments=[])


def test_cancelling_refunds_only_before_delivery(ep: Episode) -> None:
    pending = every(ep, "list_orders", status="pending")[0]
    done = ok(ep, "cancel_order", order_id=pending["id"])
    assert (done["status"], done["refunded"]) == ("cancelled", True)
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=pending["id"])
    review = every(ep, "list_orders", status="in_review")[0]
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=review["id"])
    refused(ep, "start_order", "rule_violation", "order_id", order_id=pending["id"])


def test_a_human_transcript_is_rereviewed_once_within_30_days(ep: Episode) -> None:
    recent = max(every(ep, "list_orders", status="complete", fidelity="human"), key=lambda o: o["completed_at"])
    old = min(every(ep, "list_orders", status="complete", fidelity="human"), key=lambda o: o["completed_at"])
    refused(ep, "request_rereview", "rule_violation", "order_id", order_id=old["id"])
    again = ok(ep, "request_rereview", order_id=recent["id"])
    assert (again["status"], again["rereviews"]) == ("in_review", 1)
    assert every(ep, "list_transcripts", order_id=recent["id"]) == []
    ok(ep, "deliver_order", order_id=recent["id"], segments=[seg(0, 5)])
    refused(ep, "request_rereview", "conflict", "order_id", order_id=recent["id"])
    machine = every(ep, "list_orders", status="complete", fidelity="machine")[0]
    refused(ep, "request_rereview", "rule_violation", "order_id", order_id=machine["id"])


def test_speakers_are_named_and_captions_use_the_names(ep: Episode) -> None:
    t = every(ep, "list_transcripts")[0]
    refused(ep, "name_speaker", "rule_violation", "label", transcript_id=t["id"], label="Speaker 9", name="Ghost")
    ok(ep, "name_speaker", transcript_id=t["id"], label="Speaker 2", name="Dana Lee")
    srt = ok(ep, "export_captions", transcript_id=t["id"], format="srt")
    assert srt["cues"] == len(t["segments"])
    assert "Dana Lee: " in srt["content"] and "00:00:00,000 --> 00:00:25,000" in srt["content"]
    vtt = ok(ep, "export_captions", transcript_id=t["id"], format="vtt")
    assert vtt["content"].startswith("WEBVTT") and "00:00:30.000 --> 00:00:55.000" in vtt["content"]


def test_correcting_a_segment_recounts_words(ep: Episode) -> None:
    t = every(ep, "list_transcripts")[0]
    fixed = ok(ep, "correct_segment", transcript_id=t["id"], index=0, text="Hi all")
    assert fixed["segments"][0]["text"] == "Hi all"
    assert fixed["word_count"] == t["word_count"] - len(t["segments"][0]["text"].split()) + 2
    refused(ep, "correct_segment", "rule_violation", "index", transcript_id=t["id"], index=99, text="x")
    refused(ep, "correct_segment", "rule_violation", "text", transcript_id=t["id"], index=0, text=" ")


def test_glossaries_are_unique_distinct_and_kept_while_orders_use_them(ep: Episode) -> None:
    g = every(ep, "list_glossaries")[0]
    refused(ep, "create_glossary", "conflict", "name", name=g["name"], terms=["Acme"], owner_email=ME)
    refused(ep, "create_glossary", "rule_violation", "terms", name="Dup", terms=["SSO", "sso"], owner_email=ME)
    refused(ep, "create_glossary", "rule_violation", "terms", name="Empty", terms=[], owner_email=ME)
    assert any(
        o["status"] in ("pending", "in_progress", "in_review") for o in every(ep, "list_orders", glossary_id=g["id"])
    )
    refused(ep, "delete_glossary", "rule_violation", "glossary_id", glossary_id=g["id"])
    made = ok(ep, "create_glossary", name="Names", terms=[" Zorblax "], owner_email=ME)
    assert made["terms"] == ["Zorblax"]


def test_media_is_unique_by_url_and_kept_while_orders_are_open(ep: Episode) -> None:
    m = new_media(ep)
    refused(ep, "upload_media", "conflict", "url", name="Again", url=m["url"], duration_seconds=9, uploaded_by=ME)
    o = ok(ep, "place_order", media_id=m["id"], placed_by=ME, fidelity="machine")
    refused(ep, "delete_media", "rule_violation", "media_id", media_id=m["id"])
    ok(ep, "cancel_order", order_id=o["id"])
    ok(ep, "delete_media", media_id=m["id"])
