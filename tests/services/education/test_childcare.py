"""Little Sprouts: room capacity and ratios, check-in and approved pickups, daily reports, tuition billing."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CC = ServiceTools("childcare")
WORLD = CC.world
ok, refused, every = CC.ok, CC.refused, CC.every
STAFF = [p.email for p in WORLD.population.employees]
TODAY = WORLD.epoch.date().isoformat()


def room(ep: Episode, age: str) -> dict[str, Any]:
    return every(ep, "list_rooms", age_group=age)[0]


def present(ep: Episode, room_id: str) -> list[dict[str, Any]]:
    return [a for a in every(ep, "list_attendance", room_id=room_id, day=TODAY) if a["out_at"] is None]


def absent_child(ep: Episode, room_id: str) -> dict[str, Any]:
    here = {a["child_id"] for a in present(ep, room_id)}
    return next(c for c in every(ep, "list_children", room_id=room_id, status="enrolled") if c["id"] not in here)


def test_seeded_rooms_are_led_by_staff_and_guardians_are_world_parents(ep: Episode) -> None:
    emails = {p.email for p in WORLD.population.people}
    assert all(r["lead_teacher_email"] in STAFF for r in every(ep, "list_rooms"))
    guardians = every(ep, "list_family_contacts", role="guardian")
    assert guardians and all(g["email"] in emails for g in guardians)
    for r in every(ep, "list_rooms"):
        assert len(every(ep, "list_children", room_id=r["id"], status="enrolled")) <= r["capacity"]


def test_a_full_room_refuses_another_enrollment(ep: Episode) -> None:
    infants = room(ep, "infant")
    enrolled = len(every(ep, "list_children", room_id=infants["id"], status="enrolled"))
    ok(ep, "update_room", room_id=infants["id"], capacity=enrolled)
    refused(
        ep,
        "create_child",
        "rule_violation",
        "room_id",
        name="Baby Grey",
        birth_date="2025-10-01",
        room_id=infants["id"],
        status="enrolled",
    )
    refused(ep, "update_room", "rule_violation", "capacity", room_id=infants["id"], capacity=enrolled - 1)
    waiting = ok(ep, "create_child", name="Baby Grey", birth_date="2025-10-01")
    assert (waiting["status"], waiting["room_id"]) == ("waitlisted", None)
    refused(ep, "update_child", "rule_violation", "room_id", child_id=waiting["id"], status="enrolled")


def test_check_in_keeps_the_staff_ratio(ep: Episode) -> None:
    infants = room(ep, "infant")
    here = len(present(ep, infants["id"]))
    for _ in range(4 - here):
        ok(ep, "create_child", name="Extra Kid", birth_date="2025-09-01", room_id=infants["id"], status="enrolled")
    for c in every(ep, "list_children", room_id=infants["id"], status="enrolled"):
        if len(present(ep, infants["id"])) < 4 and c["id"] not in {a["child_id"] for a in present(ep, infants["id"])}:
            ok(ep, "check_in_child", child_id=c["id"], dropped_off_by="Parent")
    extra = absent_child(ep, infants["id"])
    refused(ep, "check_in_child", "rule_violation", "child_id", child_id=extra["id"], dropped_off_by="Parent")
    helper = next(e for e in STAFF if not every(ep, "list_staff_shifts", staff_email=e))
    ok(ep, "staff_check_in", room_id=infants["id"], staff_email=helper)
    ok(ep, "check_in_child", child_id=extra["id"], dropped_off_by="Parent")
    refused(ep, "staff_check_out", "rule_violation", "staff_email", staff_email=helper)


def test_only_family_contacts_pick_up_a_child(ep: Episode) -> None:
    visit = next(a for a in every(ep, "list_attendance", day=TODAY) if a["out_at"] is None)
    child_id = visit["child_id"]
    refused(ep, "check_out_child", "rule_violation", "picked_up_by", child_id=child_id, picked_up_by="Stranger Danger")
    ok(
        ep,
        "create_family_contact",
        child_id=child_id,
        name="Nina Nanny",
        phone="+14155550123",
        relationship="nanny",
        role="approved_pickup",
    )
    done = ok(ep, "check_out_child", child_id=child_id, picked_up_by="nina nanny")
    assert done["picked_up_by"] == "nina nanny" and done["out_at"] is not None
    refused(ep, "check_out_child", "rule_violation", "child_id", child_id=child_id, picked_up_by="Nina Nanny")


def test_a_guardian_needs_an_email(ep: Episode) -> None:
    child = every(ep, "list_children", status="enrolled")[0]
    refused(
        ep,
        "create_family_contact",
        "rule_violation",
        "email",
        child_id=child["id"],
        name="Al Smith",
        phone="+14155550111",
    )
    made = ok(
        ep,
        "create_family_contact",
        child_id=child["id"],
        name="Al Smith",
        phone="+14155550111",
        email="al@home.example",
    )
    assert every(ep, "list_family_contacts", email="al@home.example")[0]["id"] == made["id"]


def test_activities_are_logged_by_staff_for_checked_in_children(ep: Episode) -> None:
    visit = next(a for a in every(ep, "list_attendance", day=TODAY) if a["out_at"] is None)
    args = {"child_id": visit["child_id"], "kind": "nap", "details": "Slept 1h20"}
    refused(ep, "log_activity", "rule_violation", "staff_email", staff_email="x@y.io", **args)
    ok(ep, "log_activity", staff_email=STAFF[0], **args)
    r = ok(ep, "get_room", room_id=visit["room_id"])
    other = absent_child(ep, r["id"])
    refused(
        ep, "log_activity", "rule_violation", "child_id", staff_email=STAFF[0], **(args | {"child_id": other["id"]})
    )


def test_withdrawing_needs_the_child_checked_out(ep: Episode) -> None:
    visit = next(a for a in every(ep, "list_attendance", day=TODAY) if a["out_at"] is None)
    refused(ep, "withdraw_child", "rule_violation", "child_id", child_id=visit["child_id"])
    fam = every(ep, "list_family_contacts", child_id=visit["child_id"])[0]
    ok(ep, "check_out_child", child_id=visit["child_id"], picked_up_by=fam["name"])
    assert ok(ep, "withdraw_child", child_id=visit["child_id"])["status"] == "withdrawn"
    refused(ep, "check_in_child", "rule_violation", "child_id", child_id=visit["child_id"], dropped_off_by="x")


def test_tuition_bills_enrolled_children_once_a_month(ep: Episode) -> None:
    month = TODAY[:7]
    made = ok(ep, "bill_tuition", month=month)
    enrolled = [c for c in every(ep, "list_children", status="enrolled") if c["monthly_tuition"]]
    assert len(made) == len(enrolled)
    for inv in made:
        child = ok(ep, "get_child", child_id=inv["child_id"])
        assert inv["amount"] == child["monthly_tuition"] and inv["due_on"].endswith("-05")
    refused(ep, "bill_tuition", "conflict", "month", month=month)
    paid = ok(ep, "pay_invoice", invoice_id=made[0]["id"])
    assert paid["status"] == "paid"
    refused(ep, "pay_invoice", "rule_violation", "invoice_id", invoice_id=made[0]["id"])
    refused(ep, "void_invoice", "rule_violation", "invoice_id", invoice_id=made[0]["id"])
