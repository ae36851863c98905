"""Blueprint PLM: revisions, locked BOMs, change routing and release, BOM compliance, sourcing."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.operations.plm import next_revision
from tests.services.helpers import ServiceTools

PLM = ServiceTools("plm")
WORLD = PLM.world
ok, refused, every = PLM.ok, PLM.refused, PLM.every
POP = WORLD.population
STAFF = [p.email for p in POP.employees]


def item(ep: Episode, number: str) -> dict[str, Any]:
    return every(ep, "list_items", number=number)[0]


def new_change(ep: Episode, approvers: list[str]) -> dict[str, Any]:
    made: dict[str, Any] = ok(ep, "create_change", title="Update", creator_email=STAFF[0], approver_emails=approvers)
    return made


def test_revisions_skip_the_letters_that_read_as_digits() -> None:
    assert next_revision(None) == "A"
    assert next_revision("H") == "J"
    assert next_revision("N") == "P"
    assert next_revision("R") == "T"
    assert next_revision("Y") == "AA"


def test_seeded_assemblies_are_the_catalogue_and_suppliers_the_worlds_companies(ep: Episode) -> None:
    skus = {p.sku for p in POP.products}
    for a in every(ep, "list_items", category="assembly"):
        assert a["number"] in skus and a["bom"]
    names = {c.name for c in POP.customers}
    assert {s["name"] for s in every(ep, "list_suppliers")} <= names
    eff = every(ep, "list_changes", status="effective")[0]
    for aff in eff["affected_items"]:
        got = ok(ep, "get_item", item_id=aff["item_id"])
        assert (got["revision"], got["lifecycle_phase"]) == (aff["to_revision"], aff["new_phase"])


def test_a_released_bom_changes_only_on_an_unsubmitted_change(ep: Episode) -> None:
    asm = next(
        a for a in every(ep, "list_items", category="assembly", lifecycle_phase="production") if a["revision"] == "C"
    )
    foot = item(ep, "300-0101")
    refused(ep, "add_bom_line", "rule_violation", "item_id", item_id=asm["id"], child_item_id=foot["id"], quantity=4)
    refused(ep, "update_item", "rule_violation", "item_id", item_id=asm["id"], name="Renamed")
    eco = new_change(ep, STAFF[1:2])
    ok(ep, "add_affected_item", change_id=eco["id"], item_id=asm["id"], new_phase="production")
    got = ok(ep, "add_bom_line", item_id=asm["id"], child_item_id=foot["id"], quantity=4, ref_des="F1-F4")
    assert got["bom"][-1]["item_id"] == foot["id"]
    refused(ep, "add_bom_line", "conflict", "child_item_id", item_id=asm["id"], child_item_id=foot["id"], quantity=1)
    ok(ep, "submit_change", change_id=eco["id"])
    refused(ep, "remove_bom_line", "rule_violation", "item_id", item_id=asm["id"], child_item_id=foot["id"])


def test_a_bom_never_contains_itself(ep: Episode) -> None:
    outer = ok(ep, "create_item", number="900-0001", name="Outer", category="assembly", owner_email=STAFF[0])
    inner = ok(ep, "create_item", number="900-0002", name="Inner", category="assembly", owner_email=STAFF[0])
    ok(ep, "add_bom_line", item_id=outer["id"], child_item_id=inner["id"], quantity=1)
    refused(
        ep,
        "add_bom_line",
        "rule_violation",
        "child_item_id",
        item_id=inner["id"],
        child_item_id=outer["id"],
        quantity=1,
    )
    refused(
        ep,
        "add_bom_line",
        "rule_violation",
        "child_item_id",
        item_id=outer["id"],
        child_item_id=outer["id"],
        quantity=1,
    )
    part = item(ep, "300-0100")
    refused(ep, "add_bom_line", "rule_violation", "item_id", item_id=part["id"], child_item_id=inner["id"], quantity=1)
    used = ok(ep, "where_used", item_id=inner["id"])
    assert [u["number"] for u in used] == ["900-0001"]


def test_an_item_is_on_one_open_change_and_submitting_needs_items_and_approvers(ep: Episode) -> None:
    busy = every(ep, "list_changes", status="submitted")[0]["affected_items"][0]["item_id"]
    eco = new_change(ep, [])
    refused(ep, "submit_change", "rule_violation", "change_id", change_id=eco["id"])
    refused(ep, "add_affected_item", "conflict", "item_id", change_id=eco["id"], item_id=busy, new_phase="production")
    free = item(ep, "300-0100")
    after = ok(ep, "add_affected_item", change_id=eco["id"], item_id=free["id"], new_phase="production")
    assert after["affected_items"][0]["to_revision"] == next_revision(free["revision"])
    refused(ep, "submit_change", "rule_violation", "change_id", change_id=eco["id"])
    ok(ep, "update_change", change_id=eco["id"], approver_emails=STAFF[1:3])
    assert ok(ep, "submit_change", change_id=eco["id"])["status"] == "submitted"
    refused(ep, "update_change", "rule_violation", "change_id", change_id=eco["id"], title="Late edit")


def test_a_change_is_approved_by_every_approver_then_releases_its_items(ep: Episode) -> None:
    part = item(ep, "300-0100")
    eco = new_change(ep, STAFF[1:3])
    ok(ep, "add_affected_item", change_id=eco["id"], item_id=part["id"], new_phase="end_of_life")
    ok(ep, "submit_change", change_id=eco["id"])
    refused(ep, "approve_change", "rule_violation", "approver_email", change_id=eco["id"], approver_email=STAFF[4])
    refused(ep, "implement_change", "rule_violation", "change_id", change_id=eco["id"])
    assert ok(ep, "approve_change", change_id=eco["id"], approver_email=STAFF[1])["status"] == "submitted"
    refused(ep, "approve_change", "conflict", "approver_email", change_id=eco["id"], approver_email=STAFF[1])
    assert ok(ep, "approve_change", change_id=eco["id"], approver_email=STAFF[2])["status"] == "approved"
    done = ok(ep, "implement_change", change_id=eco["id"])
    assert done["status"] == "effective" and done["effective_at"] is not None
    got = ok(ep, "get_item", item_id=part["id"])
    assert (got["revision"], got["lifecycle_phase"]) == (next_revision(part["revision"]), "end_of_life")


def test_a_rejection_needs_a_comment_and_closes_the_change(ep: Episode) -> None:
    eco = every(ep, "list_changes", status="submitted")[0]
    signed = {a["approver_email"] for a in eco["approvals"]}
    who = next(e for e in eco["approver_emails"] if e not in signed)
    refused(ep, "reject_change", "rule_violation", "comment", change_id=eco["id"], approver_email=who, comment="")
    assert (
        ok(ep, "reject_change", change_id=eco["id"], approver_email=who, comment="No analysis")["status"] == "rejected"
    )
    refused(ep, "cancel_change", "rule_violation", "change_id", change_id=eco["id"])
    freed = eco["affected_items"][0]["item_id"]
    other = new_change(ep, STAFF[1:2])
    ok(ep, "add_affected_item", change_id=other["id"], item_id=freed, new_phase="production")


def test_an_assembly_goes_to_production_only_with_released_children(ep: Episode) -> None:
    eco = every(ep, "list_changes", status="unsubmitted")[0]
    asm_id = eco["affected_items"][0]["item_id"]
    ok(ep, "update_change", change_id=eco["id"], approver_emails=STAFF[1:2])
    ok(ep, "submit_change", change_id=eco["id"])
    ok(ep, "approve_change", change_id=eco["id"], approver_email=STAFF[1])
    msg = refused(ep, "implement_change", "rule_violation", "change_id", change_id=eco["id"])
    assert "400-0200" in msg
    assert ok(ep, "get_item", item_id=asm_id)["lifecycle_phase"] == "prototype"


def test_sourcing_needs_an_approved_supplier_and_keeps_one_preferred(ep: Episode) -> None:
    part = item(ep, "300-0101")
    approved = every(ep, "list_suppliers", status="approved")
    pending = every(ep, "list_suppliers", status="pending")[0]
    bad = every(ep, "list_supplier_items", supplier_id=pending["id"])[0]
    refused(ep, "add_sourcing", "rule_violation", "supplier_item_id", item_id=part["id"], supplier_item_id=bad["id"])
    obsolete = every(ep, "list_supplier_items", lifecycle="obsolete")[0]
    refused(
        ep, "add_sourcing", "rule_violation", "supplier_item_id", item_id=part["id"], supplier_item_id=obsolete["id"]
    )
    current = {s["supplier_item_id"] for s in part["sourcing"]}
    fresh = next(
        si
        for sup in approved
        for si in every(ep, "list_supplier_items", supplier_id=sup["id"], lifecycle="active")
        if si["id"] not in current
    )
    got = ok(ep, "add_sourcing", item_id=part["id"], supplier_item_id=fresh["id"], preferred=True)
    assert [s["supplier_item_id"] for s in got["sourcing"] if s["preferred"]] == [fresh["id"]]
    refused(ep, "add_sourcing", "conflict", "supplier_item_id", item_id=part["id"], supplier_item_id=fresh["id"])
