"""Stockroom WMS: stock never negative, transfers, over-receipts, count approval, locked bins."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

WAREHOUSE = ServiceTools("warehouse")
WORLD = WAREHOUSE.world
ok, refused, every = WAREHOUSE.ok, WAREHOUSE.refused, WAREHOUSE.every
POP = WORLD.population
EMPLOYEES = [p.email for p in POP.employees]


def stocked(ep: Episode, *, locked: bool = False, minimum: int = 2) -> dict[str, Any]:
    for row in every(ep, "list_stock"):
        bin_ = ok(ep, "get_bin", bin_id=row["bin_id"])
        if bin_["locked"] == locked and row["on_hand"] >= minimum:
            return row
    raise AssertionError("no such stock row")


def bin_elsewhere(ep: Episode, warehouse_id: str) -> dict[str, Any]:
    return next(b for b in every(ep, "list_bins", locked=False) if b["warehouse_id"] != warehouse_id)


def open_receipt(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_receipts", status="expected")[0]


def unlocked_bin_in(ep: Episode, warehouse_id: str) -> dict[str, Any]:
    return every(ep, "list_bins", warehouse_id=warehouse_id, locked=False)[0]


# -- the world ------------------------------------------------------------------------------


def test_stock_is_held_for_the_population_products_in_several_warehouses() -> None:
    ep = Episode(WORLD)
    skus = {r["sku"] for r in every(ep, "list_stock")}
    assert skus == {p.sku for p in POP.products}
    assert all(r["on_hand"] >= 0 for r in every(ep, "list_stock"))
    assert len(every(ep, "list_warehouses", active=True)) == 3
    assert {r["status"] for r in every(ep, "list_receipts")} == {
        "expected",
        "partially_received",
        "received",
        "cancelled",
    }
    assert {c["status"] for c in every(ep, "list_cycle_counts")} == {"posted", "pending_approval", "rejected"}
    assert all(w["manager_email"] in EMPLOYEES for w in every(ep, "list_warehouses"))


# -- adjustments and picks ------------------------------------------------------------------


def test_removing_more_than_on_hand_is_refused_and_changes_nothing(ep: Episode) -> None:
    row = stocked(ep)
    refused(
        ep,
        "adjust_stock",
        "rule_violation",
        "quantity_change",
        bin_id=row["bin_id"],
        sku=row["sku"],
        quantity_change=-(row["on_hand"] + 1),
        reason="lost",
    )


def test_an_adjustment_changes_the_stock_and_logs_the_reason(ep: Episode) -> None:
    row = stocked(ep)
    adj = ok(ep, "adjust_stock", bin_id=row["bin_id"], sku=row["sku"], quantity_change=-2, reason="damaged")
    assert adj["quantity_change"] == -2 and adj["reason"] == "damaged"
    assert ok(ep, "get_stock", stock_id=row["id"])["on_hand"] == row["on_hand"] - 2
    assert ep.diff().counts() == {
        "warehouse.stock": {"added": 0, "updated": 1, "removed": 0},
        "warehouse.adjustments": {"added": 1, "updated": 0, "removed": 0},
    }


def test_a_locked_bin_cannot_be_picked_from(ep: Episode) -> None:
    row = stocked(ep, locked=True)
    refused(
        ep,
        "pick_stock",
        "rule_violation",
        "bin_id",
        bin_id=row["bin_id"],
        sku=row["sku"],
        quantity=1,
        order_number="#1001",
    )


def test_picking_from_an_unlocked_bin_removes_the_units_for_the_order(ep: Episode) -> None:
    row = stocked(ep)
    after = ok(ep, "pick_stock", bin_id=row["bin_id"], sku=row["sku"], quantity=2, order_number="#1002")
    assert after["on_hand"] == row["on_hand"] - 2
    logged = every(ep, "list_adjustments", order_number="#1002")
    assert [a["quantity_change"] for a in logged] == [-2] and logged[0]["reason"] == "picked"


def test_unlocking_a_bin_makes_it_pickable_again(ep: Episode) -> None:
    row = stocked(ep, locked=True)
    bin_ = ok(ep, "unlock_bin", bin_id=row["bin_id"])
    assert bin_["locked"] is False and bin_["lock_reason"] is None
    ok(ep, "pick_stock", bin_id=row["bin_id"], sku=row["sku"], quantity=1, order_number="#1003")


def test_locking_a_bin_needs_a_reason(ep: Episode) -> None:
    bin_ = every(ep, "list_bins", locked=False)[0]
    refused(ep, "lock_bin", "rule_violation", "reason", bin_id=bin_["id"], reason="   ")
    locked = ok(ep, "lock_bin", bin_id=bin_["id"], reason="Water damage")
    assert locked["locked"] and locked["lock_reason"] == "Water damage"


def test_a_bin_with_stock_cannot_be_deleted(ep: Episode) -> None:
    row = stocked(ep)
    refused(ep, "delete_bin", "rule_violation", "bin_id", bin_id=row["bin_id"])


# -- transfers ------------------------------------------------------------------------------


def test_a_transfer_within_the_same_warehouse_is_refused(ep: Episode) -> None:
    row = stocked(ep)
    same = next(b for b in every(ep, "list_bins", warehouse_id=row["warehouse_id"]) if b["id"] != row["bin_id"])
    refused(
        ep,
        "create_transfer",
        "rule_violation",
        "to_bin_id",
        sku=row["sku"],
        quantity=1,
        from_bin_id=row["bin_id"],
        to_bin_id=same["id"],
    )


def test_a_transfer_needs_the_stock_at_its_source(ep: Episode) -> None:
    row = stocked(ep)
    dest = bin_elsewhere(ep, row["warehouse_id"])
    refused(
        ep,
        "create_transfer",
        "rule_violation",
        "quantity",
        sku=row["sku"],
        quantity=row["on_hand"] + 1,
        from_bin_id=row["bin_id"],
        to_bin_id=dest["id"],
    )


def test_a_transfer_moves_stock_out_now_and_in_when_received(ep: Episode) -> None:
    row = stocked(ep)
    dest = bin_elsewhere(ep, row["warehouse_id"])
    tr = ok(ep, "create_transfer", sku=row["sku"], quantity=2, from_bin_id=row["bin_id"], to_bin_id=dest["id"])
    assert tr["status"] == "in_transit" and tr["to_warehouse_id"] == dest["warehouse_id"]
    assert ok(ep, "get_stock", stock_id=row["id"])["on_hand"] == row["on_hand"] - 2
    done = ok(ep, "receive_transfer", transfer_id=tr["id"])
    assert done["status"] == "received"
    arrived = every(ep, "list_stock", bin_id=dest["id"], sku=row["sku"])
    assert arrived and arrived[0]["on_hand"] >= 2
    refused(ep, "cancel_transfer", "rule_violation", "transfer_id", transfer_id=tr["id"])


def test_cancelling_a_transfer_returns_the_units_to_the_source(ep: Episode) -> None:
    row = stocked(ep)
    dest = bin_elsewhere(ep, row["warehouse_id"])
    tr = ok(ep, "create_transfer", sku=row["sku"], quantity=1, from_bin_id=row["bin_id"], to_bin_id=dest["id"])
    ok(ep, "cancel_transfer", transfer_id=tr["id"])
    assert ok(ep, "get_stock", stock_id=row["id"])["on_hand"] == row["on_hand"]


# -- receiving ------------------------------------------------------------------------------


def test_receiving_more_than_expected_needs_an_over_receipt_reason(ep: Episode) -> None:
    rec = open_receipt(ep)
    line = rec["lines"][0]
    bin_ = unlocked_bin_in(ep, rec["warehouse_id"])
    args = {
        "receipt_id": rec["id"],
        "sku": line["sku"],
        "bin_id": bin_["id"],
        "quantity": line["expected_quantity"] + 5,
    }
    refused(ep, "receive_receipt", "rule_violation", "over_receipt_reason", **args)
    got = ok(ep, "receive_receipt", over_receipt_reason="supplier_overship", **args)
    assert got["lines"][0]["received_quantity"] == line["expected_quantity"] + 5
    assert got["over_receipt_reason"] == "supplier_overship"


def test_receiving_every_line_completes_the_receipt_and_puts_stock_away(ep: Episode) -> None:
    rec = open_receipt(ep)
    bin_ = unlocked_bin_in(ep, rec["warehouse_id"])
    for line in rec["lines"]:
        got = ok(
            ep,
            "receive_receipt",
            receipt_id=rec["id"],
            sku=line["sku"],
            bin_id=bin_["id"],
            quantity=line["expected_quantity"],
        )
    assert got["status"] == "received"
    for line in rec["lines"]:
        assert every(ep, "list_stock", bin_id=bin_["id"], sku=line["sku"])[0]["on_hand"] >= line["expected_quantity"]


def test_receiving_into_a_bin_of_another_warehouse_is_refused(ep: Episode) -> None:
    rec = open_receipt(ep)
    other = bin_elsewhere(ep, rec["warehouse_id"])
    refused(
        ep,
        "receive_receipt",
        "rule_violation",
        "bin_id",
        receipt_id=rec["id"],
        sku=rec["lines"][0]["sku"],
        bin_id=other["id"],
        quantity=1,
    )


def test_a_cancelled_receipt_cannot_be_received(ep: Episode) -> None:
    rec = every(ep, "list_receipts", status="cancelled")[0]
    bin_ = unlocked_bin_in(ep, rec["warehouse_id"])
    refused(
        ep,
        "receive_receipt",
        "rule_violation",
        "receipt_id",
        receipt_id=rec["id"],
        sku=rec["lines"][0]["sku"],
        bin_id=bin_["id"],
        quantity=1,
    )


def test_a_receipt_for_an_unknown_sku_is_not_found(ep: Episode) -> None:
    wh = every(ep, "list_warehouses", active=True)[0]
    refused(
        ep,
        "create_receipt",
        "not_found",
        "lines.0.sku",
        warehouse_id=wh["id"],
        supplier="Acme",
        expected_date="2026-03-10",
        lines=[{"sku": "NOPE-0000", "expected_quantity": 3}],
    )


# -- cycle counts ---------------------------------------------------------------------------


def test_a_small_count_variance_is_posted_at_once(ep: Episode) -> None:
    row = stocked(ep)
    cc = ok(
        ep,
        "record_cycle_count",
        bin_id=row["bin_id"],
        sku=row["sku"],
        counted_quantity=row["on_hand"] - 1,
        counted_by=EMPLOYEES[0],
    )
    assert cc["status"] == "posted" and cc["variance"] == -1
    assert ok(ep, "get_stock", stock_id=row["id"])["on_hand"] == row["on_hand"] - 1


def test_a_large_count_variance_waits_for_approval_by_someone_else(ep: Episode) -> None:
    row = stocked(ep)
    cc = ok(
        ep,
        "record_cycle_count",
        bin_id=row["bin_id"],
        sku=row["sku"],
        counted_quantity=row["on_hand"] + 50,
        counted_by=EMPLOYEES[0],
    )
    assert cc["status"] == "pending_approval"
    assert ok(ep, "get_stock", stock_id=row["id"])["on_hand"] == row["on_hand"]
    refused(
        ep,
        "approve_cycle_count",
        "rule_violation",
        "approver_email",
        cycle_count_id=cc["id"],
        approver_email=EMPLOYEES[0],
    )
    done = ok(ep, "approve_cycle_count", cycle_count_id=cc["id"], approver_email=EMPLOYEES[1])
    assert done["status"] == "posted" and done["approved_by"] == EMPLOYEES[1]
    assert ok(ep, "get_stock", stock_id=row["id"])["on_hand"] == row["on_hand"] + 50


def test_a_rejected_count_cannot_be_approved(ep: Episode) -> None:
    cc = every(ep, "list_cycle_counts", status="rejected")[0]
    refused(
        ep,
        "approve_cycle_count",
        "rule_violation",
        "cycle_count_id",
        cycle_count_id=cc["id"],
        approver_email=EMPLOYEES[2],
    )


def test_stock_by_sku_separates_pickable_units_from_locked_ones(ep: Episode) -> None:
    row = stocked(ep, locked=True)
    totals = ok(ep, "stock_by_sku", sku=row["sku"])
    mine = next(t for t in totals if t["warehouse_id"] == row["warehouse_id"])
    assert mine["on_hand"] - mine["available"] >= row["on_hand"]
