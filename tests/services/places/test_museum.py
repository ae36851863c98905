"""Registrar: accession numbers, climate rules for moves, loans gated by condition reports, exhibitions."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

MUSEUM = ServiceTools("museum")
WORLD = MUSEUM.world
ok, refused, every, first = MUSEUM.ok, MUSEUM.refused, MUSEUM.every, MUSEUM.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def loc(ep: Episode, kind: str, climate: bool = True) -> dict[str, Any]:
    return first(ep, "locations", kind=kind, climate_controlled=climate)


def obj(ep: Episode, kind: str) -> dict[str, Any]:
    return first(ep, "objects", object_type=kind, status="in_collection")


def test_seeded_objects_have_a_movement_history_ending_where_they_are(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    for o in every(ep, "list_objects", status="in_collection"):
        assert o["curator_email"] in staff
        moves = every(ep, "list_movements", object_id=o["id"])
        assert moves and moves[-1]["to_location_id"] == o["location_id"]
    for o in every(ep, "list_objects", status="on_loan_out"):
        assert o["location_id"] is None


def test_accession_numbers_are_unique_and_loans_take_l_numbers(ep: Episode) -> None:
    known = every(ep, "list_objects")[0]
    base = {
        "title": "Bowl",
        "object_type": "ceramic",
        "maker": "Unknown",
        "date_made": "c. 1700",
        "medium": "Stoneware",
        "location_id": loc(ep, "storage")["id"],
        "curator_email": STAFF,
    }
    refused(
        ep,
        "accession_object",
        "conflict",
        "accession_number",
        accession_number=known["accession_number"],
        acquisition_method="gift",
        **base,
    )
    refused(
        ep,
        "accession_object",
        "rule_violation",
        "accession_number",
        accession_number="2026.9.1",
        acquisition_method="loan_in",
        **base,
    )
    made = ok(ep, "accession_object", accession_number="2026.9.1", acquisition_method="purchase", **base)
    assert made["status"] == "in_collection" and made["location_id"] == base["location_id"]
    assert every(ep, "list_movements", object_id=made["id"])[0]["to_location_id"] == base["location_id"]


def test_sensitive_objects_move_only_to_climate_controlled_places(ep: Episode) -> None:
    textile = obj(ep, "textile")
    warm = loc(ep, "storage", climate=False)
    refused(
        ep,
        "move_object",
        "rule_violation",
        "location_id",
        object_id=textile["id"],
        location_id=warm["id"],
        reason="storage",
        moved_by=STAFF,
    )
    refused(
        ep,
        "move_object",
        "rule_violation",
        "moved_by",
        object_id=textile["id"],
        location_id=loc(ep, "conservation_lab")["id"],
        reason="conservation",
        moved_by="x@y.io",
    )
    moved = ok(
        ep,
        "move_object",
        object_id=textile["id"],
        location_id=loc(ep, "conservation_lab")["id"],
        reason="conservation",
        moved_by=STAFF,
    )
    assert moved["location_id"] == loc(ep, "conservation_lab")["id"]
    refused(
        ep,
        "move_object",
        "rule_violation",
        "location_id",
        object_id=textile["id"],
        location_id=loc(ep, "offsite", climate=False)["id"],
        reason="storage",
        moved_by=STAFF,
    )


def test_an_outgoing_loan_needs_a_fair_outgoing_report_before_dispatch(ep: Episode) -> None:
    chair = obj(ep, "furniture")
    loan = ok(
        ep,
        "request_loan",
        direction="outgoing",
        institution="Design Museum",
        contact_name="Ann Lee",
        contact_email="ann@design.example",
        object_ids=[chair["id"]],
        start_date=day(30),
        end_date=day(90),
        purpose="Chairs",
    )
    assert loan["insurance_value"] == chair["valuation"]
    refused(ep, "dispatch_loan", "rule_violation", "loan_id", loan_id=loan["id"], moved_by=STAFF)
    ok(ep, "approve_loan", loan_id=loan["id"])
    ok(
        ep,
        "report_condition",
        object_id=chair["id"],
        condition="poor",
        stage="outgoing",
        loan_id=loan["id"],
        examined_by=STAFF,
    )
    refused(ep, "dispatch_loan", "rule_violation", "loan_id", loan_id=loan["id"], moved_by=STAFF)
    ok(
        ep,
        "report_condition",
        object_id=chair["id"],
        condition="fair",
        stage="outgoing",
        loan_id=loan["id"],
        examined_by=STAFF,
    )
    assert ok(ep, "dispatch_loan", loan_id=loan["id"], moved_by=STAFF)["status"] == "active"
    after = ok(ep, "get_object", object_id=chair["id"])
    assert (after["status"], after["location_id"]) == ("on_loan_out", None)


def test_a_returning_loan_needs_an_incoming_report(ep: Episode) -> None:
    loan = first(ep, "loans", status="active", direction="outgoing")
    oid = loan["object_ids"][0]
    refused(ep, "return_loan", "rule_violation", "loan_id", loan_id=loan["id"])
    ok(ep, "report_condition", object_id=oid, condition="good", stage="incoming", loan_id=loan["id"], examined_by=STAFF)
    assert ok(ep, "return_loan", loan_id=loan["id"])["status"] == "returned"
    back = ok(ep, "get_object", object_id=oid)
    assert back["status"] == "in_collection" and back["location_id"] == loc(ep, "storage")["id"]


def test_objects_on_loan_or_exhibition_cannot_be_double_committed(ep: Episode) -> None:
    shown = first(ep, "exhibitions", status="open")["object_ids"][0]
    args = {
        "direction": "outgoing",
        "institution": "X",
        "contact_name": "Bo Ek",
        "contact_email": "bo@x.example",
        "purpose": "Survey",
    }
    refused(
        ep, "request_loan", "conflict", "object_ids", object_ids=[shown], start_date=day(10), end_date=day(20), **args
    )
    away = first(ep, "objects", status="on_loan_out")
    refused(
        ep,
        "request_loan",
        "rule_violation",
        "object_ids",
        object_ids=[away["id"]],
        start_date=day(10),
        end_date=day(20),
        **args,
    )
    refused(
        ep,
        "request_loan",
        "rule_violation",
        "end_date",
        object_ids=[obj(ep, "ceramic")["id"]],
        start_date=day(20),
        end_date=day(10),
        **args,
    )


def test_an_exhibition_is_planned_in_a_gallery_and_opens_with_a_checklist(ep: Episode) -> None:
    store = loc(ep, "storage")
    gallery = first(ep, "locations", kind="gallery")
    base = {"title": "New Acquisitions", "opens_on": day(400), "closes_on": day(500), "curator_email": STAFF}
    refused(ep, "plan_exhibition", "rule_violation", "gallery_id", gallery_id=store["id"], **base)
    ex = ok(ep, "plan_exhibition", gallery_id=gallery["id"], **base)
    refused(ep, "open_exhibition", "rule_violation", "exhibition_id", exhibition_id=ex["id"])
    photo = obj(ep, "photograph")
    ex = ok(ep, "add_to_exhibition", exhibition_id=ex["id"], object_id=photo["id"])
    refused(ep, "add_to_exhibition", "conflict", "object_id", exhibition_id=ex["id"], object_id=photo["id"])
    assert ok(ep, "open_exhibition", exhibition_id=ex["id"])["status"] == "open"


def test_deaccession_needs_a_reason_staff_approval_and_no_commitments(ep: Episode) -> None:
    desk = every(ep, "list_objects", object_type="furniture")[-1]
    refused(ep, "deaccession_object", "rule_violation", "reason", object_id=desk["id"], reason="  ", approved_by=STAFF)
    refused(
        ep,
        "deaccession_object",
        "rule_violation",
        "approved_by",
        object_id=desk["id"],
        reason="Duplicate",
        approved_by="a@b.io",
    )
    planned = first(ep, "exhibitions", status="planned")
    refused(
        ep,
        "deaccession_object",
        "conflict",
        "object_id",
        object_id=planned["object_ids"][0],
        reason="Dup",
        approved_by=STAFF,
    )
    gone = ok(ep, "deaccession_object", object_id=desk["id"], reason="Duplicate", approved_by=STAFF)
    assert (gone["status"], gone["location_id"]) == ("deaccessioned", None)
    refused(
        ep,
        "move_object",
        "rule_violation",
        "object_id",
        object_id=desk["id"],
        location_id=loc(ep, "storage")["id"],
        reason="storage",
        moved_by=STAFF,
    )


def test_an_incoming_loan_returns_its_objects_to_the_lender(ep: Episode) -> None:
    loan = first(ep, "loans", status="active", direction="incoming")
    assert ok(ep, "return_loan", loan_id=loan["id"])["status"] == "returned"
    o = ok(ep, "get_object", object_id=loan["object_ids"][0])
    assert (o["status"], o["location_id"]) == ("returned_to_lender", None)
