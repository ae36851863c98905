"""Faxline: sending rules, delivery results, scheduled faxes, retries, inbound handling, contacts and cover pages."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FAX = ServiceTools("fax")
WORLD = FAX.world
ok, refused, every = FAX.ok, FAX.refused, FAX.every
POP = WORLD.population
ME = POP.employees[0].email
NOW = WORLD.epoch


def number(ep: Episode, international: bool) -> dict[str, Any]:
    return every(ep, "list_numbers", international=international, status="active")[0]


def send(ep: Episode, to: str, **extra: Any) -> dict[str, Any]:
    args = {
        "from_number_id": number(ep, True)["id"],
        "to_number": to,
        "subject": "PO",
        "documents": ["po.pdf"],
        "pages": 2,
        "sent_by": ME,
    }
    return dict(ok(ep, "send_fax", **(args | extra)))


def test_seeded_contacts_are_the_customers_first_contacts(ep: Episode) -> None:
    names = {c["company"]: c["name"] for c in every(ep, "list_contacts")}
    for company in POP.customers[:6]:
        person = POP.first_contact(company)
        if person is not None:
            assert names[company.name] == person.name
    assert {f["status"] for f in every(ep, "list_outbound_faxes")} == {"success", "failed", "queued", "cancelled"}


def test_a_fax_to_a_contact_is_delivered_and_names_the_recipient(ep: Episode) -> None:
    c = next(c for c in every(ep, "list_contacts") if not c["line_busy"])
    fax = send(ep, c["fax_number"], cover=True)
    assert (fax["status"], fax["result_code"], fax["attempts"]) == ("success", "ok", 1)
    assert (fax["recipient_name"], fax["pages"]) == (c["name"], 3) and fax["cover_page_id"] is not None


def test_busy_lines_and_non_fax_numbers_fail_and_resends_stop_at_three(ep: Episode) -> None:
    busy = next(c for c in every(ep, "list_contacts") if c["line_busy"])
    fax = send(ep, busy["fax_number"])
    assert (fax["status"], fax["result_code"]) == ("failed", "busy")
    ok(ep, "resend_fax", fax_id=fax["id"])
    third = ok(ep, "resend_fax", fax_id=fax["id"])
    assert third["attempts"] == 3
    refused(ep, "resend_fax", "rule_violation", "fax_id", fax_id=fax["id"])
    voice = send(ep, busy["fax_number"][:-2] + "00")
    assert voice["result_code"] == "not_a_fax_machine"


def test_international_faxing_needs_the_number_enabled(ep: Episode) -> None:
    domestic = number(ep, False)
    far = next(c for c in every(ep, "list_contacts") if not c["fax_number"].startswith(domestic["number"][:3]))
    args = {"to_number": far["fax_number"], "subject": "x", "documents": ["a.pdf"], "pages": 1, "sent_by": ME}
    refused(ep, "send_fax", "rule_violation", "to_number", from_number_id=domestic["id"], **args)
    ok(ep, "update_number", number_id=domestic["id"], international=True)
    assert ok(ep, "send_fax", from_number_id=domestic["id"], **args)["status"] in ("success", "failed")


def test_sending_checks_pages_sender_and_schedule(ep: Episode) -> None:
    c = every(ep, "list_contacts")[0]["fax_number"]
    base = {"from_number_id": number(ep, True)["id"], "to_number": c, "subject": "x", "documents": ["a.pdf"]}
    refused(ep, "send_fax", "rule_violation", "pages", pages=200, cover=True, sent_by=ME, **base)
    refused(ep, "send_fax", "rule_violation", "sent_by", pages=1, sent_by="x@y.io", **base)
    refused(ep, "send_fax", "rule_violation", "send_at", pages=1, sent_by=ME, send_at=NOW.isoformat(), **base)
    later = (NOW + dt.timedelta(hours=3)).isoformat()
    queued = ok(ep, "send_fax", pages=1, sent_by=ME, send_at=later, **base)
    assert (queued["status"], queued["attempts"]) == ("queued", 0)
    assert ok(ep, "cancel_fax", fax_id=queued["id"])["status"] == "cancelled"
    refused(ep, "cancel_fax", "conflict", "fax_id", fax_id=queued["id"])


def test_a_number_with_queued_faxes_is_not_released(ep: Episode) -> None:
    queued = every(ep, "list_outbound_faxes", status="queued")[0]
    refused(ep, "release_number", "conflict", "number_id", number_id=queued["from_number_id"])
    ok(ep, "cancel_fax", fax_id=queued["id"])
    ok(ep, "release_number", number_id=queued["from_number_id"])
    c = every(ep, "list_contacts")[0]["fax_number"]
    args = {"to_number": c, "subject": "x", "documents": ["a.pdf"], "pages": 1, "sent_by": ME}
    refused(ep, "send_fax", "rule_violation", "from_number_id", from_number_id=queued["from_number_id"], **args)


def test_inbound_faxes_are_assigned_forwarded_and_archived(ep: Episode) -> None:
    f = every(ep, "list_inbound_faxes", status="unread")[0]
    refused(ep, "assign_inbound", "rule_violation", "assignee_email", inbound_fax_id=f["id"], assignee_email="x@y.io")
    done = ok(ep, "assign_inbound", inbound_fax_id=f["id"], assignee_email=ME)
    assert done["assigned_to"] == ME
    fwd = ok(ep, "forward_inbound", inbound_fax_id=f["id"], to=[POP.contacts[0].email])
    assert fwd["status"] == "read" and fwd["forwarded_to"] == [POP.contacts[0].email]
    refused(ep, "forward_inbound", "conflict", "to", inbound_fax_id=f["id"], to=[POP.contacts[0].email])
    ok(ep, "archive_inbound_fax", inbound_fax_id=f["id"])
    refused(
        ep,
        "assign_inbound",
        "rule_violation",
        "inbound_fax_id",
        inbound_fax_id=f["id"],
        assignee_email=POP.employees[1].email,
    )


def test_contacts_are_unique_by_fax_number_and_the_default_cover_stays(ep: Episode) -> None:
    c = every(ep, "list_contacts")[0]
    refused(ep, "create_contact", "conflict", "fax_number", name="Dup", fax_number=c["fax_number"])
    default = every(ep, "list_cover_pages", is_default=True)[0]
    refused(ep, "delete_cover_page", "rule_violation", "cover_page_id", cover_page_id=default["id"])
    new = ok(ep, "create_cover_page", name="Legal", body="Privileged.", is_default=True)
    assert [p["id"] for p in every(ep, "list_cover_pages", is_default=True)] == [new["id"]]
    ok(ep, "delete_cover_page", cover_page_id=default["id"])
