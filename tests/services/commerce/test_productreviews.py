"""Starlit Product Reviews: verified reviews, moderation and averages, replies, syndication, Q&A, review requests."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PR = ServiceTools("productreviews")
WORLD = PR.world
ok, refused, every = PR.ok, PR.refused, PR.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
AGENT = POP.employees[0].email
SHOPPER = POP.consumers[-1]


def review(ep: Episode, status: str, **more: Any) -> dict[str, Any]:
    return every(ep, "list_reviews", status=status, **more)[0]


def submit(ep: Episode, product_id: str, email: str, **more: Any) -> dict[str, Any]:
    args = {"display_name": "Sam P.", "score": 4, "title": "Good", "content": "Works as described."} | more
    made: dict[str, Any] = ok(ep, "submit_review", product_id=product_id, email=email, **args)
    return made


def test_seeded_averages_and_badges_match_the_reviews(ep: Episode) -> None:
    for p in every(ep, "list_products"):
        live = [r["score"] for r in every(ep, "list_reviews", product_id=p["id"], status="published")]
        assert p["review_count"] == len(live)
        assert p["average_score"] == (round(sum(live) / len(live), 2) if live else 0.0)
    consumers = {c.email for c in POP.consumers}
    for r in every(ep, "list_reviews"):
        assert r["email"] in consumers
        if r["verified_buyer"]:
            asked = every(ep, "list_requests", email=r["email"])
            assert any(q["status"] == "completed" and r["product_id"] in q["product_ids"] for q in asked)
    assert all(q["answered_by"] in STAFF for q in every(ep, "list_questions", status="answered"))
    assert {r["status"] for r in every(ep, "list_reviews")} == {"pending", "published", "rejected"}


def test_a_review_is_verified_by_a_sent_request_and_completes_it(ep: Episode) -> None:
    req = every(ep, "list_requests", status="sent")[0]
    pid = req["product_ids"][0]
    made = submit(ep, pid, req["email"])
    assert (made["status"], made["verified_buyer"]) == ("pending", True)
    assert ok(ep, "get_request", request_id=req["id"])["status"] == "completed"
    refused(
        ep,
        "submit_review",
        "conflict",
        "email",
        product_id=pid,
        email=req["email"],
        display_name="X",
        score=5,
        title="Again",
        content="More",
    )
    stranger = submit(ep, pid, "walk.in@example.org")
    assert stranger["verified_buyer"] is False


def test_photos_are_limited_to_five_distinct_links(ep: Episode) -> None:
    pid = every(ep, "list_products")[0]["id"]
    six = [f"https://img.example.org/{k}.jpg" for k in range(6)]
    base = {
        "product_id": pid,
        "email": SHOPPER.email,
        "display_name": "Sam",
        "score": 5,
        "title": "Great",
        "content": "x",
    }
    refused(ep, "submit_review", "rule_violation", "photo_urls", photo_urls=six, **base)
    refused(ep, "submit_review", "rule_violation", "photo_urls", photo_urls=[six[0], six[0]], **base)
    assert len(ok(ep, "submit_review", photo_urls=six[:5], **base)["photo_urls"]) == 5


def test_publishing_and_rejecting_move_the_product_average(ep: Episode) -> None:
    pending = review(ep, "pending")
    before = ok(ep, "get_product", product_id=pending["product_id"])
    ok(ep, "publish_review", review_id=pending["id"])
    after = ok(ep, "get_product", product_id=pending["product_id"])
    assert after["review_count"] == before["review_count"] + 1
    total = before["average_score"] * before["review_count"] + pending["score"]
    assert after["average_score"] == round(total / after["review_count"], 2)
    refused(ep, "publish_review", "rule_violation", "review_id", review_id=pending["id"])
    refused(ep, "reject_review", "rule_violation", "reason", review_id=pending["id"], reason="fake")
    gone = ok(ep, "reject_review", review_id=pending["id"], reason="off_topic")
    assert (gone["status"], gone["syndicated_to"]) == ("rejected", [])
    assert ok(ep, "get_product", product_id=pending["product_id"])["review_count"] == before["review_count"]


def test_the_store_replies_once_to_published_reviews_as_staff(ep: Episode) -> None:
    refused(
        ep,
        "reply_to_review",
        "rule_violation",
        "review_id",
        review_id=review(ep, "pending")["id"],
        content="Hi",
        replied_by=AGENT,
    )
    target = next(r for r in every(ep, "list_reviews", status="published") if not r["store_reply"])
    refused(
        ep, "reply_to_review", "rule_violation", "replied_by", review_id=target["id"], content="Hi", replied_by="x@y.io"
    )
    done = ok(ep, "reply_to_review", review_id=target["id"], content="Thanks!", replied_by=AGENT)
    assert (done["store_reply"], done["replied_by"]) == ("Thanks!", AGENT)
    refused(ep, "reply_to_review", "conflict", "review_id", review_id=target["id"], content="Again", replied_by=AGENT)


def test_syndication_takes_published_reviews_once_per_channel(ep: Episode) -> None:
    low = submit(ep, every(ep, "list_products")[0]["id"], SHOPPER.email, score=2)
    refused(ep, "syndicate_review", "rule_violation", "review_id", review_id=low["id"], channel="target")
    ok(ep, "publish_review", review_id=low["id"])
    refused(ep, "syndicate_review", "rule_violation", "channel", review_id=low["id"], channel="google_shopping")
    assert ok(ep, "syndicate_review", review_id=low["id"], channel="walmart")["syndicated_to"] == ["walmart"]
    refused(ep, "syndicate_review", "conflict", "channel", review_id=low["id"], channel="walmart")
    refused(
        ep, "syndicate_review", "rule_violation", "review_id", review_id=review(ep, "pending")["id"], channel="target"
    )


def test_questions_are_answered_by_staff_once(ep: Episode) -> None:
    pid = every(ep, "list_products")[0]["id"]
    q = ok(
        ep,
        "ask_question",
        product_id=pid,
        email=SHOPPER.email,
        display_name=SHOPPER.first_name,
        content="Is it waterproof?",
    )
    assert q["status"] == "pending"
    refused(
        ep,
        "ask_question",
        "conflict",
        "content",
        product_id=pid,
        email=SHOPPER.email,
        display_name="S",
        content="is it WATERPROOF?",
    )
    refused(
        ep, "answer_question", "rule_violation", "answered_by", question_id=q["id"], answer="No", answered_by="a@b.io"
    )
    done = ok(ep, "answer_question", question_id=q["id"], answer="Splash-proof only.", answered_by=AGENT)
    assert (done["status"], done["answered_by"]) == ("answered", AGENT)
    refused(ep, "answer_question", "rule_violation", "question_id", question_id=q["id"], answer="x", answered_by=AGENT)
    refused(ep, "reject_question", "rule_violation", "question_id", question_id=q["id"])


def test_review_requests_are_scheduled_once_and_sent_when_due(ep: Episode) -> None:
    pid = every(ep, "list_products")[0]["id"]
    base = {"email": SHOPPER.email, "customer_name": SHOPPER.name, "product_ids": [pid]}
    refused(
        ep,
        "schedule_request",
        "rule_violation",
        "delivered_on",
        order_number="SO-77",
        delivered_on=str(TODAY + dt.timedelta(days=1)),
        **base,
    )
    req = ok(ep, "schedule_request", order_number="SO-77", delivered_on=str(TODAY - dt.timedelta(days=2)), **base)
    assert (req["status"], req["send_after"]) == ("scheduled", str(TODAY + dt.timedelta(days=5)))
    refused(ep, "schedule_request", "conflict", "order_number", order_number="SO-77", delivered_on=str(TODAY), **base)
    refused(ep, "send_request", "rule_violation", "request_id", request_id=req["id"])
    assert ok(ep, "cancel_request", request_id=req["id"])["status"] == "cancelled"
    sent = every(ep, "list_requests", status="sent")[0]
    refused(ep, "cancel_request", "rule_violation", "request_id", request_id=sent["id"])


def test_a_delivered_order_becomes_a_verified_published_review(ep: Episode) -> None:
    pid = every(ep, "list_products")[1]["id"]
    req = ok(
        ep,
        "schedule_request",
        order_number="SO-88",
        email=SHOPPER.email,
        customer_name=SHOPPER.name,
        product_ids=[pid],
        delivered_on=str(TODAY - dt.timedelta(days=8)),
    )
    assert ok(ep, "send_request", request_id=req["id"])["status"] == "sent"
    made = submit(ep, pid, SHOPPER.email, score=5)
    ok(ep, "publish_review", review_id=made["id"])
    summary = ok(ep, "review_summary", product_id=pid)
    live = every(ep, "list_reviews", product_id=pid, status="published")
    assert summary["review_count"] == len(live) and summary["distribution"]["5"] >= 1
    assert summary["verified_share"] == round(sum(r["verified_buyer"] for r in live) / len(live), 2)
