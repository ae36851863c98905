"""Open Records Center: statutory clocks, extensions, fee categories and holds, releases with exemptions, closure."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.public.publicrecords import add_days, fee_amount
from tests.services.helpers import ServiceTools

RECORDS = ServiceTools("publicrecords")
WORLD = RECORDS.world
ok, refused, every = RECORDS.ok, RECORDS.refused, RECORDS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
ASKER = POP.consumers[-1]


def submit(ep: Episode, **extra: Any) -> Any:
    dept = every(ep, "list_departments")[0]
    args = {
        "description": "Parking citations issued on Elm Street in 2025.",
        "requester_name": ASKER.name,
        "requester_email": ASKER.email,
        "department_ids": [dept["id"]],
    }
    return ok(ep, "submit_request", **(args | extra))


def working(ep: Episode, **extra: Any) -> Any:
    req = submit(ep, **extra)
    dept = every(ep, "list_departments")[0]
    ok(ep, "assign_request", request_id=req["id"], officer_email=dept["officer_emails"][0])
    return ok(ep, "acknowledge_request", request_id=req["id"])


def test_seeded_requests_are_consistent_with_their_stage(ep: Episode) -> None:
    people = {p.email: p.name for p in POP.people}
    reqs = every(ep, "list_requests")
    assert {r["status"] for r in reqs} == {"received", "in_progress", "on_hold", "closed"}
    for r in reqs:
        assert people[r["requester_email"]] == r["requester_name"]
        docs = every(ep, "list_documents", request_id=r["id"])
        if r["close_reason"] == "fulfilled":
            assert docs and all(d["release"] == "released" for d in docs)
        if r["close_reason"] == "partially_fulfilled":
            assert all(d["exemptions"] for d in docs)
        if r["status"] == "on_hold":
            assert ok(ep, "request_clock", request_id=r["id"])["owed_cents"] > 0


def test_the_due_date_follows_the_statute(ep: Episode) -> None:
    foia = submit(ep)
    assert foia["due_on"] == add_days(TODAY, 20, True).isoformat()
    due = dt.date.fromisoformat(foia["due_on"])
    assert sum((TODAY + dt.timedelta(days=n)).weekday() < 5 for n in range(1, (due - TODAY).days + 1)) == 20
    pra = submit(ep, statute="state_pra", description="Budget workbooks for the library, FY2024.")
    assert pra["due_on"] == (TODAY + dt.timedelta(days=10)).isoformat()


def test_a_request_is_extended_once_by_the_statutes_days(ep: Episode) -> None:
    req = working(ep, statute="state_pra")
    refused(ep, "extend_due_date", "rule_violation", "reason", request_id=req["id"], reason=" ")
    longer = ok(ep, "extend_due_date", request_id=req["id"], reason="Archive retrieval")
    assert dt.date.fromisoformat(longer["due_on"]) - dt.date.fromisoformat(req["due_on"]) == dt.timedelta(days=14)
    refused(ep, "extend_due_date", "conflict", "request_id", request_id=req["id"], reason="Again")


def test_only_an_officer_of_its_departments_works_a_request(ep: Episode) -> None:
    req = submit(ep)
    refused(ep, "acknowledge_request", "rule_violation", "request_id", request_id=req["id"])
    police = every(ep, "list_departments", name="Police Department")[0]
    refused(
        ep,
        "assign_request",
        "rule_violation",
        "officer_email",
        request_id=req["id"],
        officer_email=police["officer_emails"][0],
    )
    refused(
        ep,
        "submit_request",
        "rule_violation",
        "requester_company",
        **{
            "description": "Contracts with towing vendors.",
            "requester_name": ASKER.name,
            "requester_email": ASKER.email,
            "department_ids": [police["id"]],
            "fee_category": "commercial",
        },
    )


def test_fees_follow_the_requester_category_and_put_large_ones_on_hold(ep: Episode) -> None:
    assert fee_amount("other", 2, 0, 100) == 0
    assert fee_amount("news_media", 10, 5, 300) == 200 * 15
    assert fee_amount("commercial", 2, 1, 10) == 2 * 2500 + 3500 + 150
    small = working(ep)
    cheap = ok(ep, "estimate_fee", request_id=small["id"], search_hours=2, pages=120)
    assert cheap["status"] == "not_charged" and ok(ep, "get_request", request_id=small["id"])["status"] == "in_progress"
    big = ok(ep, "estimate_fee", request_id=small["id"], search_hours=5, pages=400)
    assert big["amount_cents"] == 3 * 2500 + 300 * 15
    assert ok(ep, "get_request", request_id=small["id"])["status"] == "on_hold"
    refused(ep, "estimate_fee", "rule_violation", "request_id", request_id=small["id"], search_hours=1)
    refused(ep, "pay_fee", "rule_violation", "amount_cents", fee_id=big["id"], amount_cents=100)
    ok(ep, "pay_fee", fee_id=big["id"], amount_cents=big["amount_cents"])
    assert ok(ep, "get_request", request_id=small["id"])["status"] == "in_progress"
    refused(ep, "waive_fee", "conflict", "fee_id", fee_id=big["id"], reason="late")


def test_a_waiver_needs_a_justification_and_lifts_the_hold(ep: Episode) -> None:
    fee = every(ep, "list_fees", status="estimated")[0]
    refused(ep, "waive_fee", "rule_violation", "reason", fee_id=fee["id"], reason="")
    ok(ep, "waive_fee", fee_id=fee["id"], reason="Informs the public about police conduct.")
    assert ok(ep, "get_request", request_id=fee["request_id"])["status"] == "in_progress"


def test_releases_cite_exemptions_only_when_something_is_held_back(ep: Episode) -> None:
    req = working(ep)
    dept = req["department_ids"][0]
    doc = ok(ep, "add_document", request_id=req["id"], title="Citation log", department_id=dept, pages=4)
    refused(
        ep,
        "release_document",
        "rule_violation",
        "exemptions",
        document_id=doc["id"],
        release="released",
        exemptions=["b6"],
    )
    refused(
        ep, "release_document", "rule_violation", "exemptions", document_id=doc["id"], release="withheld", exemptions=[]
    )
    red = ok(ep, "release_document", document_id=doc["id"], release="redacted", exemptions=["b6", "b6"])
    assert (red["exemptions"], red["released_on"]) == (["b6"], TODAY.isoformat())
    refused(ep, "release_document", "conflict", "document_id", document_id=doc["id"], release="released", exemptions=[])
    other = every(ep, "list_departments")[1]["id"]
    refused(
        ep,
        "add_document",
        "rule_violation",
        "department_id",
        request_id=req["id"],
        title="X",
        department_id=other,
        pages=1,
    )


def test_nothing_is_released_while_fees_are_owed(ep: Episode) -> None:
    held = every(ep, "list_requests", status="on_hold")[0]
    doc = every(ep, "list_documents", request_id=held["id"], release="pending_review")[0]
    refused(
        ep,
        "release_document",
        "rule_violation",
        "document_id",
        document_id=doc["id"],
        release="released",
        exemptions=[],
    )
    refused(ep, "close_request", "rule_violation", "request_id", request_id=held["id"], close_reason="fulfilled")


def test_closing_must_match_what_was_released(ep: Episode) -> None:
    req = working(ep)
    doc = ok(ep, "add_document", request_id=req["id"], title="Log", department_id=req["department_ids"][0], pages=2)
    refused(ep, "close_request", "rule_violation", "request_id", request_id=req["id"], close_reason="fulfilled")
    ok(ep, "release_document", document_id=doc["id"], release="withheld", exemptions=["b7c"])
    refused(ep, "close_request", "rule_violation", "close_reason", request_id=req["id"], close_reason="fulfilled")
    done = ok(ep, "close_request", request_id=req["id"], close_reason="partially_fulfilled")
    assert (done["status"], done["closed_on"]) == ("closed", TODAY.isoformat())
    refused(ep, "extend_due_date", "rule_violation", "request_id", request_id=req["id"], reason="x")
    empty = working(ep, description="Drone flight logs for March, all units.")
    assert ok(ep, "close_request", request_id=empty["id"], close_reason="no_records")["close_reason"] == "no_records"


def test_withdrawing_waives_what_is_owed(ep: Episode) -> None:
    held = every(ep, "list_requests", status="on_hold")[0]
    ok(ep, "close_request", request_id=held["id"], close_reason="withdrawn")
    assert {f["status"] for f in every(ep, "list_fees", request_id=held["id"])} == {"waived"}
    assert held["id"] not in {r["id"] for r in ok(ep, "overdue_requests")}
