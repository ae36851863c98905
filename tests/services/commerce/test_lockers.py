"""Lockbay: deposits into the smallest fitting door, pickup codes, holds, expiry and returns."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LK = ServiceTools("lockers")
WORLD = LK.world
ok, refused, every = LK.ok, LK.refused, LK.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
WHO = POP.employees[-1].email


def online(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_banks", status="online")[0]


def deposit(ep: Episode, bank: dict[str, Any], tracking: str, size: str = "small") -> dict[str, Any]:
    return ok(  # type: ignore[no-any-return]
        ep,
        "deposit_package",
        bank_id=bank["id"],
        tracking_number=tracking,
        carrier="ups",
        recipient_email=WHO,
        package_size=size,
    )


def test_seeded_deliveries_are_for_employees_and_occupy_their_doors(ep: Episode) -> None:
    for d in every(ep, "list_deliveries"):
        assert d["recipient_email"] in STAFF
        door = ok(ep, "get_compartment", compartment_id=d["compartment_id"])
        assert door["bank_id"] == d["bank_id"]
        assert (door["status"] == "occupied") == (d["status"] in ("deposited", "expired"))
    assert {d["status"] for d in every(ep, "list_deliveries")} == {"deposited", "picked_up", "expired", "returned"}


def test_a_package_goes_into_the_smallest_free_door_it_fits(ep: Episode) -> None:
    bank = online(ep)
    free = [c for c in every(ep, "list_compartments", bank_id=bank["id"], status="available")]
    d = deposit(ep, bank, "TRK0000000001", "medium")
    door = ok(ep, "get_compartment", compartment_id=d["compartment_id"])
    expected = min(
        (c for c in free if c["size"] in ("medium", "large", "xl")),
        key=lambda c: (("medium", "large", "xl").index(c["size"]), c["label"]),
    )
    assert door["id"] == expected["id"] and door["status"] == "occupied"
    assert d["recipient_name"] == next(f"{p.first_name} {p.last_name}" for p in POP.employees if p.email == WHO)


def test_a_full_bank_refuses_and_sizes_fall_back_to_larger_doors(ep: Episode) -> None:
    bank = online(ep)
    k = 0
    while ok(ep, "bank_occupancy", bank_id=bank["id"])["free_by_size"]["xl"]:
        deposit(ep, bank, f"TRKXL{k:08d}", "xl")
        k += 1
    refused(
        ep,
        "deposit_package",
        "conflict",
        "package_size",
        bank_id=bank["id"],
        tracking_number="TRKXL99999999",
        carrier="dhl",
        recipient_email=WHO,
        package_size="xl",
    )


def test_deposits_need_an_online_bank_an_employee_and_a_new_tracking_number(ep: Episode) -> None:
    off = every(ep, "list_banks", status="offline")[0]
    args = {"tracking_number": "TRK0000000002", "carrier": "ups", "recipient_email": WHO, "package_size": "small"}
    refused(ep, "deposit_package", "conflict", "bank_id", bank_id=off["id"], **args)
    bank = online(ep)
    refused(
        ep,
        "deposit_package",
        "rule_violation",
        "recipient_email",
        bank_id=bank["id"],
        **(args | {"recipient_email": "someone@else.io"}),
    )
    live = every(ep, "list_deliveries", status="deposited")[0]
    refused(
        ep,
        "deposit_package",
        "conflict",
        "tracking_number",
        bank_id=bank["id"],
        **(args | {"tracking_number": live["tracking_number"]}),
    )
    ok(ep, "bring_online_bank", bank_id=off["id"])
    assert deposit(ep, off, "TRK0000000002")["bank_id"] == off["id"]


def test_pickup_needs_the_right_code_and_frees_the_door(ep: Episode) -> None:
    d = deposit(ep, online(ep), "TRK0000000003")
    wrong = "000000" if d["pickup_code"] != "000000" else "111111"
    refused(ep, "pick_up", "rule_violation", "pickup_code", delivery_id=d["id"], pickup_code=wrong)
    got = ok(ep, "pick_up", delivery_id=d["id"], pickup_code=d["pickup_code"])
    assert got["status"] == "picked_up" and got["picked_up_at"] is not None
    assert ok(ep, "get_compartment", compartment_id=d["compartment_id"])["status"] == "available"
    refused(ep, "pick_up", "conflict", "delivery_id", delivery_id=d["id"], pickup_code=d["pickup_code"])


def test_a_reset_code_replaces_the_old_one(ep: Episode) -> None:
    d = deposit(ep, online(ep), "TRK0000000004")
    new = ok(ep, "reset_pickup_code", delivery_id=d["id"])
    assert new["pickup_code"] != d["pickup_code"]
    refused(ep, "pick_up", "rule_violation", "pickup_code", delivery_id=d["id"], pickup_code=d["pickup_code"])
    ok(ep, "pick_up", delivery_id=d["id"], pickup_code=new["pickup_code"])


def test_a_hold_is_extended_once(ep: Episode) -> None:
    d = deposit(ep, online(ep), "TRK0000000005")
    ext = ok(ep, "extend_hold", delivery_id=d["id"])
    assert ext["extended"] and ext["expires_at"] > d["expires_at"]
    refused(ep, "extend_hold", "rule_violation", "delivery_id", delivery_id=d["id"])


def test_expired_packages_cannot_be_picked_up_and_return_to_sender(ep: Episode) -> None:
    d = every(ep, "list_deliveries", status="expired")[0]
    refused(ep, "pick_up", "conflict", "delivery_id", delivery_id=d["id"], pickup_code=d["pickup_code"])
    back = ok(ep, "return_to_sender", delivery_id=d["id"])
    assert back["status"] == "returned"
    assert ok(ep, "get_compartment", compartment_id=d["compartment_id"])["status"] == "available"
    refused(ep, "return_to_sender", "conflict", "delivery_id", delivery_id=d["id"])


def test_an_occupied_door_cannot_go_out_of_service(ep: Episode) -> None:
    d = every(ep, "list_deliveries", status="deposited")[0]
    refused(ep, "disable_compartment", "rule_violation", "compartment_id", compartment_id=d["compartment_id"])
    occ = ok(ep, "bank_occupancy", bank_id=d["bank_id"])
    assert occ["awaiting_pickup"] == len(every(ep, "list_deliveries", bank_id=d["bank_id"], status="deposited"))
