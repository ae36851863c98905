"""Sendwave: transfer limits, finalize, downloads with recipients, passwords and limits, expiry, file requests."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FT = ServiceTools("filetransfer")
WORLD = FT.world
ok, refused, every = FT.ok, FT.refused, FT.every
POP = WORLD.population
ME = POP.employees[0].email
NOW = WORLD.epoch
FILE = {"name": "deck.pdf", "size_bytes": 1000}


def titled(ep: Episode, title: str) -> dict[str, Any]:
    return next(t for t in every(ep, "list_transfers") if t["title"] == title)


def test_seeded_transfers_go_to_customer_contacts(ep: Episode) -> None:
    t = titled(ep, "Q1 campaign video")
    company = POP.customers[0]
    assert t["recipients"] == [p.email for p in POP.people_at(company)[:2]]
    assert t["total_bytes"] == sum(f["size_bytes"] for f in t["files"])
    assert len(every(ep, "list_downloads", transfer_id=t["id"])) == t["download_count"] == 1


def test_a_transfer_needs_distinct_files_within_the_limit(ep: Episode) -> None:
    to = [POP.contacts[0].email]
    refused(
        ep, "create_transfer", "rule_violation", "files", sender_email=ME, title="x", files=[FILE, FILE], recipients=to
    )
    big = [{"name": f"part{k}.bin", "size_bytes": 60 * 10**9} for k in range(4)]
    refused(ep, "create_transfer", "rule_violation", "files", sender_email=ME, title="x", files=big, recipients=to)
    refused(
        ep,
        "create_transfer",
        "rule_violation",
        "recipients",
        sender_email=ME,
        title="x",
        files=[FILE],
        recipients=to * 2,
    )
    refused(ep, "create_transfer", "rule_violation", "sender_email", sender_email="a@b.io", title="x", files=[FILE])
    link = ok(ep, "create_transfer", sender_email=ME, title="x", files=[FILE])
    assert (link["kind"], link["status"], link["recipients"]) == ("link", "uploading", [])


def test_downloads_wait_for_finalize_and_go_to_recipients_only(ep: Episode) -> None:
    to = POP.contacts[0].email
    t = ok(ep, "create_transfer", sender_email=ME, title="x", files=[FILE], recipients=[to])
    refused(ep, "download_transfer", "rule_violation", "transfer_id", transfer_id=t["id"], email=to)
    assert ok(ep, "finalize_transfer", transfer_id=t["id"])["status"] == "ready"
    refused(ep, "finalize_transfer", "conflict", "transfer_id", transfer_id=t["id"])
    refused(ep, "download_transfer", "rule_violation", "email", transfer_id=t["id"], email=POP.contacts[1].email)
    ok(ep, "download_transfer", transfer_id=t["id"], email=to)
    assert ok(ep, "get_transfer", transfer_id=t["id"])["download_count"] == 1


def test_passwords_and_download_limits_are_enforced(ep: Episode) -> None:
    locked = titled(ep, "Signed contract and annexes")
    who = locked["recipients"][0]
    refused(ep, "download_transfer", "rule_violation", "password", transfer_id=locked["id"], email=who)
    refused(
        ep, "download_transfer", "rule_violation", "password", transfer_id=locked["id"], email=who, password="wrong-one"
    )
    ok(ep, "download_transfer", transfer_id=locked["id"], email=who, password="Tidal-2026!")
    once = titled(ep, "Product photos")
    assert once["kind"] == "link" and once["download_count"] == once["download_limit"] == 1
    refused(ep, "download_transfer", "rule_violation", "transfer_id", transfer_id=once["id"])


def test_expired_transfers_refuse_downloads_and_expiry_extends_within_a_year(ep: Episode) -> None:
    gone = every(ep, "list_transfers", status="expired")[0]
    refused(
        ep, "download_transfer", "rule_violation", "transfer_id", transfer_id=gone["id"], email=gone["recipients"][0]
    )
    t = titled(ep, "Q1 campaign video")
    created = dt.datetime.fromisoformat(t["created_at"].replace("Z", "+00:00"))
    refused(
        ep,
        "extend_expiry",
        "rule_violation",
        "expires_at",
        transfer_id=t["id"],
        expires_at=(created + dt.timedelta(days=2)).isoformat(),
    )
    refused(
        ep,
        "extend_expiry",
        "rule_violation",
        "expires_at",
        transfer_id=t["id"],
        expires_at=(created + dt.timedelta(days=366)).isoformat(),
    )
    later = ok(ep, "extend_expiry", transfer_id=t["id"], expires_at=(created + dt.timedelta(days=30)).isoformat())
    assert later["expires_at"].startswith((created + dt.timedelta(days=30)).date().isoformat())


def test_recipients_are_added_once_and_only_to_email_transfers(ep: Episode) -> None:
    t = titled(ep, "Q1 campaign video")
    refused(ep, "add_recipients", "conflict", "recipients", transfer_id=t["id"], recipients=[t["recipients"][0]])
    link = titled(ep, "Product photos")
    refused(
        ep,
        "add_recipients",
        "rule_violation",
        "transfer_id",
        transfer_id=link["id"],
        recipients=[POP.contacts[7].email],
    )
    grown = ok(ep, "add_recipients", transfer_id=t["id"], recipients=[POP.contacts[7].email])
    assert grown["recipients"][-1] == POP.contacts[7].email
    ok(ep, "download_transfer", transfer_id=t["id"], email=POP.contacts[7].email)


def test_only_the_sender_deletes_and_deleted_transfers_stop_downloads(ep: Episode) -> None:
    t = titled(ep, "Q1 campaign video")
    other = next(e.email for e in POP.employees if e.email != t["sender_email"])
    refused(ep, "delete_transfer", "rule_violation", "sender_email", transfer_id=t["id"], sender_email=other)
    ok(ep, "delete_transfer", transfer_id=t["id"], sender_email=t["sender_email"])
    refused(ep, "download_transfer", "rule_violation", "transfer_id", transfer_id=t["id"], email=t["recipients"][0])
    refused(ep, "delete_transfer", "conflict", "transfer_id", transfer_id=t["id"], sender_email=t["sender_email"])


def test_file_requests_take_uploads_while_open_and_within_size(ep: Episode) -> None:
    req = every(ep, "list_file_requests", status="open")[0]
    who = POP.contacts[4].email
    big = {"name": "raw.mov", "size_bytes": req["max_upload_bytes"] + 1}
    refused(ep, "upload_to_request", "rule_violation", "files", request_id=req["id"], uploader_email=who, files=[big])
    up = ok(ep, "upload_to_request", request_id=req["id"], uploader_email=who, files=[FILE])
    assert up["total_bytes"] == 1000
    ok(ep, "close_file_request", file_request_id=req["id"])
    refused(
        ep, "upload_to_request", "rule_violation", "request_id", request_id=req["id"], uploader_email=who, files=[FILE]
    )
    ok(ep, "reopen_file_request", file_request_id=req["id"])
    refused(
        ep,
        "create_file_request",
        "rule_violation",
        "deadline",
        requester_email=ME,
        title="x",
        deadline=(NOW - dt.timedelta(days=1)).isoformat(),
    )


def test_sender_activity_counts_live_transfers_and_downloads(ep: Episode) -> None:
    for t in every(ep, "list_transfers"):
        mine = [x for x in every(ep, "list_transfers", sender_email=t["sender_email"]) if x["status"] != "deleted"]
        act = ok(ep, "sender_activity", sender_email=t["sender_email"])
        assert act["transfers"] == len(mine)
        assert act["downloads"] == sum(x["download_count"] for x in mine)
        assert act["live"] == sum(1 for x in mine if x["status"] == "ready" and x["title"] != "Audit evidence")
