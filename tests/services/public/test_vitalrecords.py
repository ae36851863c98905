"""Vital Link: eligibility to order, fees, identity verification, approval and shipping, amendments."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

VR = ServiceTools("vitalrecords")
WORLD = VR.world
ok, refused, every, first = VR.ok, VR.refused, VR.every, VR.first
POP = WORLD.population


def order(ep: Episode, rec: dict[str, Any], **over: Any) -> Any:
    args = {
        "certificate_number": rec["certificate_number"],
        "requester_name": "Ann Lee",
        "requester_email": "ann@example.org",
        "relationship": "parent",
        "copies": 3,
        "certified": True,
    }
    return ok(ep, "place_order", **(args | over))


def test_birth_records_are_the_worlds_residents(ep: Episode) -> None:
    people = {(p.first_name, p.last_name, p.birth_date.isoformat()) for p in POP.consumers}
    births = every(ep, "list_records", record_type="birth")
    assert births and all((r["first_name"], r["last_name"], r["event_date"]) in people for r in births)
    for o in every(ep, "list_orders", status="shipped"):
        assert every(ep, "list_shipments", order_id=o["id"])


def test_fees_follow_copies_kind_and_shipping(ep: Episode) -> None:
    q = ok(ep, "fee_quote", copies=3, certified=True, shipping="ups_express")
    assert (q["agency_cents"], q["processing_cents"], q["shipping_cents"], q["total_cents"]) == (3300, 1295, 1950, 6545)
    assert ok(ep, "fee_quote", copies=2, certified=False)["total_cents"] == 3000 + 1295
    rec = first(ep, "records", record_type="birth")
    assert order(ep, rec, shipping="ups_express")["fee_cents"] == 6545


def test_only_entitled_requesters_get_certified_copies(ep: Episode) -> None:
    birth = first(ep, "records", record_type="birth")
    death = first(ep, "records", record_type="death")
    refused(
        ep,
        "place_order",
        "rule_violation",
        "relationship",
        certificate_number=birth["certificate_number"],
        requester_name="Ann Lee",
        requester_email="ann@example.org",
        relationship="other",
        copies=1,
        certified=True,
    )
    refused(
        ep,
        "place_order",
        "rule_violation",
        "relationship",
        certificate_number=birth["certificate_number"],
        requester_name="Ann Lee",
        requester_email="ann@example.org",
        relationship="funeral_director",
        copies=1,
        certified=True,
    )
    assert order(ep, death, relationship="funeral_director")["status"] == "identity_pending"
    info = order(ep, birth, relationship="other", certified=False)
    assert info["status"] == "received"
    refused(
        ep,
        "place_order",
        "rule_violation",
        "certificate_number",
        certificate_number="999-1999-999999",
        requester_name="Ann Lee",
        requester_email="ann@example.org",
        relationship="self",
        copies=1,
        certified=True,
    )


def test_identity_must_match_and_a_second_failure_rejects(ep: Episode) -> None:
    o = order(ep, first(ep, "records", record_type="birth"))
    refused(ep, "approve_order", "rule_violation", "order_id", order_id=o["id"])
    bad = ok(ep, "verify_identity", order_id=o["id"], document="passport", name_on_document="Anne Leigh")
    assert bad["status"] == "failed"
    assert ok(ep, "get_order", order_id=o["id"])["status"] == "identity_pending"
    ok(ep, "verify_identity", order_id=o["id"], document="passport", name_on_document="Anne Leigh")
    rejected = ok(ep, "get_order", order_id=o["id"])
    assert (rejected["status"], rejected["reject_reason"]) == ("rejected", "identity could not be verified")
    refused(
        ep, "verify_identity", "conflict", "order_id", order_id=o["id"], document="passport", name_on_document="Ann Lee"
    )


def test_a_verified_order_is_approved_and_shipped_with_tracking(ep: Episode) -> None:
    o = order(ep, first(ep, "records", record_type="birth"), shipping="ups_express")
    ok(ep, "verify_identity", order_id=o["id"], document="drivers_license", name_on_document="ann lee")
    refused(ep, "ship_order", "conflict", "order_id", order_id=o["id"])
    assert ok(ep, "approve_order", order_id=o["id"])["status"] == "approved"
    sh = ok(ep, "ship_order", order_id=o["id"])
    assert sh["carrier"] == "ups" and sh["tracking_number"].startswith("1Z")
    assert ok(ep, "get_order", order_id=o["id"])["status"] == "shipped"
    assert ok(ep, "deliver_shipment", shipment_id=sh["id"])["status"] == "delivered"


def test_shipped_or_rejected_orders_cannot_be_cancelled(ep: Episode) -> None:
    for status in ("shipped", "rejected"):
        refused(ep, "cancel_order", "rule_violation", "order_id", order_id=first(ep, "orders", status=status)["id"])
    pending = first(ep, "orders", status="identity_pending")
    assert ok(ep, "cancel_order", order_id=pending["id"])["status"] == "cancelled"


def test_an_approved_amendment_corrects_the_record(ep: Episode) -> None:
    rec = next(
        r for r in every(ep, "list_records", record_type="birth") if not every(ep, "list_amendments", record_id=r["id"])
    )
    args = {"record_id": rec["id"], "requester_email": "x@example.org", "evidence": "Hospital record"}
    refused(
        ep, "request_amendment", "rule_violation", "new_value", field="first_name", new_value=rec["first_name"], **args
    )
    refused(ep, "request_amendment", "rule_violation", "new_value", field="event_date", new_value="12/04/1990", **args)
    refused(
        ep,
        "request_amendment",
        "rule_violation",
        "evidence",
        field="place",
        new_value="Nowhereville",
        **(args | {"evidence": " "}),
    )
    a = ok(ep, "request_amendment", field="event_date", new_value="1990-04-12", **args)
    refused(ep, "request_amendment", "conflict", "field", field="event_date", new_value="1990-04-13", **args)
    ok(ep, "approve_amendment", amendment_id=a["id"])
    fixed = ok(ep, "get_record", record_id=rec["id"])
    assert (fixed["event_date"], fixed["amended"]) == ("1990-04-12", True)
    refused(ep, "approve_amendment", "conflict", "amendment_id", amendment_id=a["id"])


def test_a_denied_amendment_leaves_the_record_alone(ep: Episode) -> None:
    a = first(ep, "amendments", status="submitted")
    before = ok(ep, "get_record", record_id=a["record_id"])
    assert ok(ep, "deny_amendment", amendment_id=a["id"])["status"] == "denied"
    assert ok(ep, "get_record", record_id=a["record_id"]) == before
