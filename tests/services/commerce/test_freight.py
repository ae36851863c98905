"""Bluewater Freight: booking confirmation, containers, document review, milestones in order, cancellation."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FREIGHT = ServiceTools("freight")
WORLD = FREIGHT.world
ok, refused, every, seeded = FREIGHT.ok, FREIGHT.refused, FREIGHT.every, FREIGHT.seeded
POP = WORLD.population
HOME = POP.home
CLERK = POP.employees[0].email
TODAY = WORLD.epoch.date()


def new_booking(ep: Episode, mode: str = "ocean_fcl", **changes: Any) -> dict[str, Any]:
    args = _booking_args(**{"mode": mode, "weight_kg": 9_500, "po_number": "PO-7001", **changes})
    args["cargo_ready_date"] = (TODAY + dt.timedelta(days=4)).isoformat()
    return dict(ok(ep, "create_booking", **args))


def confirm(ep: Episode, booking: dict[str, Any]) -> dict[str, Any]:
    dep = TODAY + dt.timedelta(days=6)
    return dict(
        ok(
            ep,
            "confirm_booking",
            booking_id=booking["id"],
            carrier="Oceanic Star Lines",
            estimated_departure=dep.isoformat(),
            estimated_arrival=(dep + dt.timedelta(days=25)).isoformat(),
        )
    )


def upload(ep: Episode, shipment_id: str, kind: str, approve: bool = True) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if kind == "commercial_invoice":
        extra = dict(invoice_number="CI-2026-9001", declared_value=3_200_000, currency="EUR")
    doc = ok(
        ep,
        "upload_document",
        shipment_id=shipment_id,
        kind=kind,
        file_url=f"https://files.example.com/{kind}.pdf",
        uploaded_by=CLERK,
        **extra,
    )
    if approve:
        doc = ok(ep, "review_document", document_id=doc["id"], decision="approve")
    return dict(doc)


# -- the world ---------------------------------------------------------------------------------


def test_bookings_move_goods_between_the_home_company_and_its_partners() -> None:
    companies = {c.name: c for c in POP.companies}
    for b in seeded("bookings"):
        assert HOME.name in (b["shipper"], b["consignee"])
        consignee = companies[b["consignee"]]
        assert b["delivery_address"] == consignee.address.model_dump()
        assert b["destination_city"] == consignee.place.city
    people = {p.email for p in POP.people}
    assert {b["shipper_contact"] for b in seeded("bookings")} <= people
    assert {s["status"] for s in seeded("shipments")} >= {"booked", "departed", "arrived", "delivered"}


def test_seeded_shipments_passed_their_milestones_in_order_with_their_paperwork() -> None:
    for s in seeded("shipments"):
        codes = [m["code"] for m in seeded("milestones") if m["shipment_id"] == s["id"]]
        assert codes == ["departed", "arrived", "customs_cleared", "delivered"][: len(codes)]
        docs = {(d["kind"], d["status"]) for d in seeded("documents") if d["shipment_id"] == s["id"]}
        if s["status"] in ("customs_cleared", "delivered"):
            assert {("commercial_invoice", "approved"), ("packing_list", "approved")} <= docs
        if s["mode"] == "ocean_fcl" and s["status"] != "booked":
            assert any(c["shipment_id"] == s["id"] for c in seeded("containers"))


# -- bookings ----------------------------------------------------------------------------------


def test_a_booking_needs_a_future_ready_date_and_another_destination(ep: Episode) -> None:
    with_past = dict(cargo_ready_date=(TODAY - dt.timedelta(days=1)).isoformat())
    refused(ep, "create_booking", "rule_violation", "cargo_ready_date", **_booking_args(**with_past))
    same = dict(destination_city=_booking_args()["origin_city"])
    refused(ep, "create_booking", "rule_violation", "destination_city", **_booking_args(**same))


def _booking_args(**changes: Any) -> dict[str, Any]:
    supplier = next(c for c in POP.customers if c.place.city != HOME.place.city and POP.people_at(c))
    args: dict[str, Any] = dict(
        shipper=supplier.name,
        shipper_contact=POP.people_at(supplier)[0].email,
        consignee=HOME.name,
        delivery_address=HOME.address.model_dump(),
        origin_city=supplier.place.city,
        origin_country=supplier.place.country,
        destination_city=HOME.place.city,
        destination_country=HOME.place.country,
        mode="air",
        incoterm="FOB",
        cargo_description="Spare parts",
        weight_kg=800,
        cargo_ready_date=(TODAY + dt.timedelta(days=2)).isoformat(),
    )
    args.update(changes)
    return args


def test_confirming_opens_a_shipment_with_a_master_bill_and_freezes_the_booking(ep: Episode) -> None:
    b = new_booking(ep)
    early = (TODAY + dt.timedelta(days=1)).isoformat()
    refused(
        ep,
        "confirm_booking",
        "rule_violation",
        "estimated_departure",
        booking_id=b["id"],
        carrier="Oceanic Star Lines",
        estimated_departure=early,
        estimated_arrival=(TODAY + dt.timedelta(days=30)).isoformat(),
    )
    s = confirm(ep, b)
    assert s["status"] == "booked" and s["master_bill_number"].startswith("BWFL")
    after = ok(ep, "get_booking", booking_id=b["id"])
    assert (after["status"], after["shipment_id"]) == ("confirmed", s["id"])
    refused(ep, "update_booking", "rule_violation", "booking_id", booking_id=b["id"], weight_kg=100)


# -- containers and documents ------------------------------------------------------------------


def test_a_container_carries_at_most_its_payload_and_only_on_full_container_shipments(ep: Episode) -> None:
    s = confirm(ep, new_booking(ep))
    box = dict(container_number="BWFU7000001", type="20GP", seal_number="SEAL0001")
    refused(
        ep, "add_container", "rule_violation", "cargo_weight_kg", shipment_id=s["id"], cargo_weight_kg=28_001, **box
    )
    ok(ep, "add_container", shipment_id=s["id"], cargo_weight_kg=28_000, **box)
    refused(ep, "add_container", "conflict", "container_number", shipment_id=s["id"], cargo_weight_kg=100, **box)
    air = confirm(ep, new_booking(ep, mode="air", weight_kg=500))
    refused(
        ep,
        "add_container",
        "rule_violation",
        "shipment_id",
        shipment_id=air["id"],
        cargo_weight_kg=100,
        **{**box, "container_number": "BWFU7000002"},
    )


def test_a_commercial_invoice_needs_its_number_and_a_rejection_a_reason(ep: Episode) -> None:
    s = confirm(ep, new_booking(ep))
    refused(
        ep,
        "upload_document",
        "rule_violation",
        "invoice_number",
        shipment_id=s["id"],
        kind="commercial_invoice",
        file_url="https://files.example.com/ci.pdf",
        uploaded_by=CLERK,
    )
    doc = upload(ep, s["id"], "packing_list", approve=False)
    refused(ep, "review_document", "rule_violation", "reason", document_id=doc["id"], decision="reject")
    rejected = ok(ep, "review_document", document_id=doc["id"], decision="reject", reason="Wrong carton count")
    assert rejected["status"] == "rejected"
    refused(ep, "review_document", "conflict", "document_id", document_id=doc["id"], decision="approve")


# -- milestones --------------------------------------------------------------------------------


def test_a_shipment_departs_only_with_its_bill_of_lading_and_a_container(ep: Episode) -> None:
    s = confirm(ep, new_booking(ep))
    args = dict(shipment_id=s["id"], code="departed", city=s["origin_city"])
    msg = refused(ep, "record_milestone", "rule_violation", "shipment_id", **args)
    assert "bill_of_lading" in msg and "container" in msg
    track = ok(ep, "track_shipment", master_bill_number=s["master_bill_number"])
    assert track["next_milestone"] == "departed" and len(track["blocking"]) == 2
    upload(ep, s["id"], "bill_of_lading")
    ok(
        ep,
        "add_container",
        shipment_id=s["id"],
        container_number="BWFU7000003",
        type="40HC",
        seal_number="SEAL0003",
        cargo_weight_kg=9_500,
    )
    m = ok(ep, "record_milestone", **args)
    assert (m["code"], m["master_bill_number"]) == ("departed", s["master_bill_number"])
    assert ok(ep, "get_shipment", shipment_id=s["id"])["status"] == "departed"


def test_milestones_come_in_order_and_customs_needs_the_invoice_and_packing_list(ep: Episode) -> None:
    s = next(x for x in every(ep, "list_shipments", status="departed"))
    city = s["destination_city"]
    refused(ep, "record_milestone", "rule_violation", "code", shipment_id=s["id"], code="delivered", city=city)
    ok(ep, "record_milestone", shipment_id=s["id"], code="arrived", city=city)
    approved = every(ep, "list_documents", shipment_id=s["id"], status="approved")
    assert not {"commercial_invoice", "packing_list"} <= {d["kind"] for d in approved}
    refused(
        ep, "record_milestone", "rule_violation", "shipment_id", shipment_id=s["id"], code="customs_cleared", city=city
    )
    for kind in ("commercial_invoice", "packing_list"):
        if not every(ep, "list_documents", shipment_id=s["id"], kind=kind, status="approved"):
            upload(ep, s["id"], kind)
    ok(ep, "record_milestone", shipment_id=s["id"], code="customs_cleared", city=city)
    ok(ep, "record_milestone", shipment_id=s["id"], code="delivered", city=city)
    assert ok(ep, "get_shipment", shipment_id=s["id"])["delivered_at"] is not None
    refused(ep, "record_milestone", "rule_violation", "shipment_id", shipment_id=s["id"], code="delivered", city=city)


# -- cancelling --------------------------------------------------------------------------------


def test_a_booking_can_be_cancelled_until_its_cargo_departs(ep: Episode) -> None:
    s = confirm(ep, new_booking(ep))
    cancelled = ok(ep, "cancel_booking", booking_id=s["booking_id"])
    assert cancelled["status"] == "cancelled"
    assert ok(ep, "get_shipment", shipment_id=s["id"])["status"] == "cancelled"
    refused(ep, "cancel_booking", "conflict", "booking_id", booking_id=s["booking_id"])
    gone = every(ep, "list_shipments", status="departed")[0]
    refused(ep, "cancel_booking", "rule_violation", "booking_id", booking_id=gone["booking_id"])


def test_containers_are_fixed_once_the_shipment_departs(ep: Episode) -> None:
    gone = next(x for x in every(ep, "list_shipments", mode="ocean_fcl") if x["status"] != "booked")
    box = every(ep, "list_containers", shipment_id=gone["id"])[0]
    refused(ep, "delete_container", "rule_violation", "container_id", container_id=box["id"])


def test_tracking_reports_containers_and_the_purchase_order(ep: Episode) -> None:
    s = next(x for x in seeded("shipments") if x["mode"] == "ocean_fcl")
    track = ok(ep, "track_shipment", master_bill_number=s["master_bill_number"])
    boxes = [c for c in seeded("containers") if c["shipment_id"] == s["id"]]
    assert track["total_container_weight_kg"] == sum(c["cargo_weight_kg"] for c in boxes)
    booking = ok(ep, "get_booking", booking_id=s["booking_id"])
    assert track["po_number"] == booking["po_number"]
    refused(ep, "track_shipment", "not_found", "master_bill_number", master_bill_number="BWFL0000000000")
