"""Crewdesk: request → quote → job → visits → invoice → payment, and the rules at each step."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FS = ServiceTools("fieldservice")
WORLD = FS.world
ok, refused, every = FS.ok, FS.refused, FS.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
CREW = POP.employees[-1].email
LINES = [{"name": "Labour (hours)", "quantity": 3, "unit_price": 6500}, {"name": "Parts", "unit_price": 1200}]


def at(day: int, hour: int) -> str:
    return f"2030-01-{day:02d}T{hour:02d}:00:00Z"


def open_request(ep: Episode) -> dict[str, Any]:
    return next(r for r in every(ep, "list_requests") if r["status"] in ("new", "assessment_scheduled"))


def test_clients_are_people_of_the_world_and_leads_until_their_first_job(ep: Episode) -> None:
    emails = {p.email for p in POP.people}
    for c in every(ep, "list_clients"):
        assert c["email"] is None or c["email"] in emails
        jobs = every(ep, "list_jobs", client_id=c["id"])
        assert c["is_lead"] == (not jobs)
    for job in every(ep, "list_jobs"):
        assert ok(ep, "get_quote", quote_id=job["quote_id"])["status"] == "converted"
        for v in every(ep, "list_visits", job_id=job["id"]):
            assert set(v["assigned_emails"]) <= STAFF


def test_the_whole_flow_from_request_to_paid_invoice(ep: Episode) -> None:
    req = open_request(ep)
    quote = ok(
        ep,
        "create_quote",
        client_id=req["client_id"],
        property_id=req["property_id"],
        title=req["title"],
        request_id=req["id"],
        line_items=LINES,
    )
    assert (quote["status"], quote["total"]) == ("draft", 3 * 6500 + 1200)
    assert ok(ep, "get_request", request_id=req["id"])["status"] == "converted"
    assert ok(ep, "send_quote", quote_id=quote["id"])["sent_at"] is not None
    ok(ep, "approve_quote", quote_id=quote["id"])
    job = ok(ep, "convert_quote_to_job", quote_id=quote["id"])
    assert (job["status"], job["total"]) == ("active", quote["total"])
    assert ok(ep, "get_client", client_id=req["client_id"])["is_lead"] is False
    visit = ok(ep, "schedule_visit", job_id=job["id"], start_at=at(5, 8), end_at=at(5, 11), assigned_emails=[CREW])
    ok(ep, "complete_visit", visit_id=visit["id"])
    assert ok(ep, "get_job", job_id=job["id"])["status"] == "requires_invoicing"
    inv = ok(ep, "create_invoice", job_id=job["id"])
    assert (inv["status"], inv["balance"]) == ("draft", job["total"])
    assert ok(ep, "get_job", job_id=job["id"])["status"] == "closed"
    refused(ep, "record_payment", "rule_violation", "invoice_id", invoice_id=inv["id"], amount=100)
    ok(ep, "send_invoice", invoice_id=inv["id"])
    ok(ep, "record_payment", invoice_id=inv["id"], amount=inv["total"], method="cash")
    assert ok(ep, "get_invoice", invoice_id=inv["id"])["status"] == "paid"


def test_a_request_is_quoted_only_once_and_only_for_its_client(ep: Episode) -> None:
    req = open_request(ep)
    other = next(c for c in every(ep, "list_clients") if c["id"] != req["client_id"])
    other_prop = every(ep, "list_properties", client_id=other["id"])[0]
    base = {"title": "Work", "line_items": LINES, "request_id": req["id"]}
    refused(
        ep,
        "create_quote",
        "rule_violation",
        "property_id",
        client_id=req["client_id"],
        property_id=other_prop["id"],
        **base,
    )
    refused(
        ep, "create_quote", "rule_violation", "request_id", client_id=other["id"], property_id=other_prop["id"], **base
    )
    ok(ep, "create_quote", client_id=req["client_id"], property_id=req["property_id"], **base)
    refused(
        ep, "create_quote", "conflict", "request_id", client_id=req["client_id"], property_id=req["property_id"], **base
    )


def test_a_quote_is_sent_only_with_lines_to_a_client_with_an_email(ep: Episode) -> None:
    req = open_request(ep)
    bare = ok(ep, "create_quote", client_id=req["client_id"], property_id=req["property_id"], title="Empty")
    refused(ep, "send_quote", "rule_violation", "quote_id", quote_id=bare["id"])
    updated = ok(ep, "update_quote", quote_id=bare["id"], line_items=LINES)
    assert updated["total"] == 3 * 6500 + 1200
    ok(ep, "send_quote", quote_id=bare["id"])
    refused(ep, "update_quote", "rule_violation", "line_items", quote_id=bare["id"], line_items=LINES[:1])
    no_mail = next(c for c in every(ep, "list_clients") if c["email"] is None)
    prop = every(ep, "list_properties", client_id=no_mail["id"])[0]
    q = ok(ep, "create_quote", client_id=no_mail["id"], property_id=prop["id"], title="Tap", line_items=LINES)
    refused(ep, "send_quote", "rule_violation", "quote_id", quote_id=q["id"])


def test_only_approved_quotes_become_jobs(ep: Episode) -> None:
    waiting = every(ep, "list_quotes", status="awaiting_response")[0]
    refused(ep, "convert_quote_to_job", "rule_violation", "quote_id", quote_id=waiting["id"])
    assert ok(ep, "request_changes_quote", quote_id=waiting["id"])["status"] == "changes_requested"
    assert ok(ep, "send_quote", quote_id=waiting["id"])["status"] == "awaiting_response"
    ok(ep, "approve_quote", quote_id=waiting["id"])
    job = ok(ep, "convert_quote_to_job", quote_id=waiting["id"])
    assert job["quote_id"] == waiting["id"]
    refused(ep, "convert_quote_to_job", "rule_violation", "quote_id", quote_id=waiting["id"])


def test_nobody_is_booked_on_two_overlapping_visits(ep: Episode) -> None:
    job = every(ep, "list_jobs", status="active")[0]
    first = ok(ep, "schedule_visit", job_id=job["id"], start_at=at(7, 8), end_at=at(7, 12), assigned_emails=[CREW])
    assert first["status"] == "scheduled"
    refused(
        ep,
        "schedule_visit",
        "conflict",
        "assigned_emails",
        job_id=job["id"],
        start_at=at(7, 11),
        end_at=at(7, 14),
        assigned_emails=[POP.employees[0].email, CREW],
    )
    refused(
        ep,
        "schedule_visit",
        "rule_violation",
        "end_at",
        job_id=job["id"],
        start_at=at(7, 14),
        end_at=at(7, 13),
        assigned_emails=[CREW],
    )
    refused(
        ep,
        "schedule_visit",
        "rule_violation",
        "assigned_emails",
        job_id=job["id"],
        start_at=at(8, 8),
        end_at=at(8, 9),
        assigned_emails=["someone@elsewhere.io"],
    )
    assert ok(ep, "schedule_visit", job_id=job["id"], start_at=at(7, 12), end_at=at(7, 15), assigned_emails=[CREW])


def test_a_job_is_invoiced_only_when_no_visit_is_left(ep: Episode) -> None:
    job = every(ep, "list_jobs", status="active")[0]
    refused(ep, "create_invoice", "rule_violation", "job_id", job_id=job["id"])
    visits = every(ep, "list_visits", job_id=job["id"], status="scheduled")
    for v in visits[:-1]:
        ok(ep, "complete_visit", visit_id=v["id"])
    ok(ep, "cancel_visit", visit_id=visits[-1]["id"])
    assert ok(ep, "get_job", job_id=job["id"])["status"] == "active"
    extra = ok(ep, "schedule_visit", job_id=job["id"], start_at=at(9, 8), end_at=at(9, 10), assigned_emails=[CREW])
    ok(ep, "complete_visit", visit_id=extra["id"])
    assert ok(ep, "get_job", job_id=job["id"])["status"] == "requires_invoicing"
    ok(ep, "create_invoice", job_id=job["id"])
    refused(ep, "create_invoice", "rule_violation", "job_id", job_id=job["id"])
    refused(
        ep,
        "schedule_visit",
        "rule_violation",
        "job_id",
        job_id=job["id"],
        start_at=at(10, 8),
        end_at=at(10, 9),
        assigned_emails=[CREW],
    )


def test_payments_never_exceed_the_balance_and_paid_invoices_are_not_written_off(ep: Episode) -> None:
    inv = every(ep, "list_invoices", status="awaiting_payment")[0]
    refused(ep, "record_payment", "rule_violation", "amount", invoice_id=inv["id"], amount=inv["balance"] + 1)
    ok(ep, "record_payment", invoice_id=inv["id"], amount=500)
    assert ok(ep, "get_invoice", invoice_id=inv["id"])["balance"] == inv["balance"] - 500
    assert ok(ep, "mark_bad_debt_invoice", invoice_id=inv["id"])["status"] == "bad_debt"
    paid = every(ep, "list_invoices", status="paid")[0]
    refused(ep, "mark_bad_debt_invoice", "rule_violation", "invoice_id", invoice_id=paid["id"])
    refused(ep, "record_payment", "rule_violation", "invoice_id", invoice_id=paid["id"], amount=1)
    assert sum(p["amount"] for p in every(ep, "list_payments", invoice_id=paid["id"])) == paid["total"]


def test_clients_are_unique_by_email_and_properties_by_address(ep: Episode) -> None:
    known = next(c for c in every(ep, "list_clients") if c["email"])
    addr = {"street": "3 Elm Row", "city": "Leeds", "postal_code": "LS1 4AP", "country": "GB"}
    refused(
        ep,
        "create_client",
        "conflict",
        "email",
        first_name="A",
        last_name="B",
        email=known["email"],
        billing_address=addr,
    )
    new = ok(
        ep, "create_client", first_name="Ana", last_name="Bell", email="ana.bell@postbox.org", billing_address=addr
    )
    assert new["is_lead"] is True
    ok(ep, "create_property", client_id=new["id"], address=addr)
    refused(ep, "create_property", "conflict", "address", client_id=new["id"], address=addr)
    req = ok(ep, "create_request", client_id=new["id"], title="Quote for lawn care")
    assert (
        ok(ep, "schedule_assessment", request_id=req["id"], assessment_at=at(3, 9))["status"] == "assessment_scheduled"
    )
    refused(
        ep,
        "schedule_assessment",
        "rule_violation",
        "assessment_at",
        request_id=req["id"],
        assessment_at="2020-01-01T09:00:00Z",
    )
