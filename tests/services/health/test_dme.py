"""Homeward Medical Supply: CMNs before delivery, deliveries start rentals, monthly billing to the cap, pickups."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.care import clinicians
from tests.services.helpers import ServiceTools

DME = ServiceTools("dme")
WORLD = DME.world
ok, refused, every, first = DME.ok, DME.refused, DME.every, DME.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
DOC = {"physician": "Dr. Maya Lin", "physician_npi": "1234567893", "diagnosis": "J44.9"}


def new_patient(ep: Episode) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "create_patient",
        name="Otto Lind",
        email="otto.lind@example.org",
        phone="+14155550177",
        birth_date="1941-07-07",
        payer="medicare",
    )
    return made


def test_orders_name_the_practices_physicians_and_patients_are_consumers(ep: Episode) -> None:
    docs = {p.name for p, _ in clinicians(POP)}
    assert {o["physician"] for o in every(ep, "list_orders")} <= docs
    names = {p.email: p.name for p in POP.consumers}
    assert all(names[p["email"]] == p["name"] for p in every(ep, "list_patients"))
    for r in every(ep, "list_rentals"):
        assert ok(ep, "get_order", order_id=r["order_id"])["status"] == "delivered"


def test_an_item_needing_a_cmn_waits_for_the_signature(ep: Episode) -> None:
    pt = new_patient(ep)
    bed = first(ep, "items", hcpcs="E0260")
    order = ok(ep, "create_order", patient_id=pt["id"], item_id=bed["id"], **DOC)
    assert order["status"] == "pending_documents"
    refused(
        ep, "schedule_delivery", "rule_violation", "order_id", order_id=order["id"], scheduled_for=TODAY.isoformat()
    )
    cmn = ok(ep, "send_cmn", order_id=order["id"])
    refused(ep, "send_cmn", "conflict", "order_id", order_id=order["id"])
    ok(ep, "sign_cmn", cmn_id=cmn["id"], length_of_need_months=99)
    assert ok(ep, "get_order", order_id=order["id"])["status"] == "ready"
    refused(ep, "create_order", "conflict", "item_id", patient_id=pt["id"], item_id=bed["id"], **DOC)


def test_delivering_a_rental_item_starts_the_rental(ep: Episode) -> None:
    pt = new_patient(ep)
    cpap = first(ep, "items", hcpcs="E0601")
    order = ok(ep, "create_order", patient_id=pt["id"], item_id=cpap["id"], **DOC)
    assert order["status"] == "ready"
    d = ok(ep, "schedule_delivery", order_id=order["id"], scheduled_for=TODAY.isoformat())
    refused(ep, "schedule_delivery", "conflict", "order_id", order_id=order["id"], scheduled_for=TODAY.isoformat())
    ok(ep, "complete_delivery", delivery_id=d["id"], serial_number="CPAP-99001", signed_by="Otto Lind")
    rental = first(ep, "rentals", patient_id=pt["id"])
    assert (rental["status"], rental["months_billed"], rental["serial_number"]) == ("active", 0, "CPAP-99001")
    refused(ep, "create_order", "conflict", "item_id", patient_id=pt["id"], item_id=cpap["id"], **DOC)


def test_a_sold_item_makes_no_rental(ep: Episode) -> None:
    pt = new_patient(ep)
    walker = first(ep, "items", rental=False)
    order = ok(ep, "create_order", patient_id=pt["id"], item_id=walker["id"], **DOC)
    d = ok(ep, "schedule_delivery", order_id=order["id"], scheduled_for=TODAY.isoformat())
    refused(
        ep,
        "complete_delivery",
        "conflict",
        "serial_number",
        delivery_id=d["id"],
        serial_number=first(ep, "rentals")["serial_number"],
        signed_by="Otto Lind",
    )
    ok(ep, "complete_delivery", delivery_id=d["id"], serial_number="WLK-00001", signed_by="Otto Lind")
    assert every(ep, "list_rentals", patient_id=pt["id"]) == []


def test_a_rental_bills_once_a_month_and_caps_at_13(ep: Episode) -> None:
    r = next(x for x in every(ep, "list_rentals", status="active") if x["months_billed"] == 12)
    billed = ok(ep, "bill_rental_month", rental_id=r["id"])
    assert (billed["months_billed"], billed["status"]) == (13, "capped")
    refused(ep, "bill_rental_month", "rule_violation", "rental_id", rental_id=r["id"])
    refused(
        ep,
        "schedule_pickup",
        "rule_violation",
        "rental_id",
        rental_id=r["id"],
        pickup_on=(TODAY + dt.timedelta(days=3)).isoformat(),
    )


def test_a_month_is_not_billed_twice(ep: Episode) -> None:
    r = next(x for x in every(ep, "list_rentals", status="active") if x["months_billed"] < 12)
    ok(ep, "bill_rental_month", rental_id=r["id"])
    refused(ep, "bill_rental_month", "conflict", "rental_id", rental_id=r["id"])


def test_a_pickup_ends_the_rental(ep: Episode) -> None:
    r = first(ep, "rentals", status="active")
    refused(ep, "complete_pickup", "rule_violation", "rental_id", rental_id=r["id"])
    refused(ep, "schedule_pickup", "rule_violation", "pickup_on", rental_id=r["id"], pickup_on="2000-01-01")
    ok(ep, "schedule_pickup", rental_id=r["id"], pickup_on=(TODAY + dt.timedelta(days=1)).isoformat())
    assert ok(ep, "complete_pickup", rental_id=r["id"])["status"] == "picked_up"
    refused(ep, "bill_rental_month", "rule_violation", "rental_id", rental_id=r["id"])


def test_a_failed_delivery_leaves_the_order_ready_and_closed_accounts_order_nothing(ep: Episode) -> None:
    d = first(ep, "deliveries", status="scheduled")
    refused(ep, "fail_delivery", "rule_violation", "note", delivery_id=d["id"], note=" ")
    ok(ep, "fail_delivery", delivery_id=d["id"], note="No one home")
    assert ok(ep, "get_order", order_id=d["order_id"])["status"] == "ready"
    ok(ep, "schedule_delivery", order_id=d["order_id"], scheduled_for=TODAY.isoformat())
    closed = first(ep, "patients", active=False)
    refused(
        ep,
        "create_order",
        "rule_violation",
        "patient_id",
        patient_id=closed["id"],
        item_id=first(ep, "items")["id"],
        **DOC,
    )
