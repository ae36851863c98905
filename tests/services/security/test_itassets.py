"""Ledgerline IT Assets: checkout/checkin states, unique tags, license seat limits, accessory stock, audits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ITA = ServiceTools("itassets")
WORLD = ITA.world
ok, refused, every = ITA.ok, ITA.refused, ITA.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
EMPLOYEES = {p.email: p for p in POP.employees}
NEWCOMER = POP.employees[-1].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def asset(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_hardware", status=status)[0]


def license_named(ep: Episode, name: str) -> dict[str, Any]:
    return next(x for x in every(ep, "list_licenses") if x["name"] == name)


def test_seeded_register_is_consistent_with_the_staff(ep: Episode) -> None:
    for h in every(ep, "list_hardware", status="deployed"):
        assert (h["assigned_to_email"] is None) != (h["location_id"] is None)
        if h["assigned_to_email"]:
            assert EMPLOYEES[h["assigned_to_email"]].name == h["assigned_to_name"]
    for h in every(ep, "list_hardware"):
        if h["status"] != "deployed":
            assert h["assigned_to_email"] is None and h["location_id"] is None
    for lic in every(ep, "list_licenses"):
        held = every(ep, "list_license_seats", license_id=lic["id"])
        assert lic["free_seats"] == lic["seats"] - len(held)
        assert {s["assigned_to_email"] for s in held} <= set(EMPLOYEES)


def test_only_a_deployable_asset_is_checked_out_to_one_target(ep: Episode) -> None:
    ready = asset(ep, "deployable")
    loc = every(ep, "list_locations")[0]
    refused(
        ep,
        "checkout_hardware",
        "rule_violation",
        "asset_id",
        asset_id=asset(ep, "pending")["id"],
        assigned_to_email=NEWCOMER,
    )
    refused(ep, "checkout_hardware", "rule_violation", "assigned_to_email", asset_id=ready["id"])
    refused(
        ep,
        "checkout_hardware",
        "rule_violation",
        "assigned_to_email",
        asset_id=ready["id"],
        assigned_to_email=NEWCOMER,
        location_id=loc["id"],
    )
    refused(
        ep,
        "checkout_hardware",
        "rule_violation",
        "assigned_to_email",
        asset_id=ready["id"],
        assigned_to_email="x@partner.io",
    )
    refused(
        ep,
        "checkout_hardware",
        "rule_violation",
        "expected_checkin",
        asset_id=ready["id"],
        assigned_to_email=NEWCOMER,
        expected_checkin=day(0),
    )
    out = ok(ep, "checkout_hardware", asset_id=ready["id"], assigned_to_email=NEWCOMER, expected_checkin=day(30))
    assert (out["status"], out["assigned_to_name"]) == ("deployed", EMPLOYEES[NEWCOMER].name)
    refused(ep, "checkout_hardware", "conflict", "asset_id", asset_id=ready["id"], location_id=loc["id"])


def test_a_deployed_asset_keeps_its_status_until_checked_in(ep: Episode) -> None:
    out = asset(ep, "deployed")
    refused(ep, "update_hardware", "rule_violation", "status", hardware_id=out["id"], status="archived")
    back = ok(ep, "checkin_hardware", asset_id=out["id"], status="undeployable")
    assert (back["status"], back["assigned_to_email"], back["location_id"]) == ("undeployable", None, None)
    refused(ep, "checkin_hardware", "rule_violation", "asset_id", asset_id=out["id"])
    refused(ep, "update_hardware", "rule_violation", "status", hardware_id=out["id"], status="deployed")
    assert ok(ep, "update_hardware", hardware_id=out["id"], status="deployable")["status"] == "deployable"


def test_asset_tags_and_serials_are_unique(ep: Episode) -> None:
    known = every(ep, "list_hardware")[0]
    base = {"name": "Spare", "model_name": "Latitude 7440", "category": "laptop", "manufacturer": "Dell"}
    refused(ep, "add_hardware", "conflict", "asset_tag", asset_tag=known["asset_tag"], serial="NEW12345", **base)
    refused(ep, "add_hardware", "conflict", "serial", asset_tag="LT-77777", serial=known["serial"], **base)
    refused(
        ep,
        "add_hardware",
        "rule_violation",
        "purchase_date",
        asset_tag="LT-77777",
        serial="NEW12345",
        purchase_date=day(3),
        **base,
    )
    made = ok(ep, "add_hardware", asset_tag="LT-77777", serial="NEW12345", **base)
    assert made["status"] == "deployable"


def test_license_seats_cannot_exceed_the_seats_bought(ep: Episode) -> None:
    full = license_named(ep, "Adobe Creative Cloud")
    assert full["free_seats"] == 0
    refused(
        ep, "checkout_license_seat", "rule_violation", "license_id", license_id=full["id"], assigned_to_email=NEWCOMER
    )
    seat = every(ep, "list_license_seats", license_id=full["id"])[0]
    assert ok(ep, "checkin_license_seat", seat_id=seat["id"])["free_seats"] == 1
    taken = ok(ep, "checkout_license_seat", license_id=full["id"], assigned_to_email=NEWCOMER)
    assert taken["assigned_to_email"] == NEWCOMER
    refused(
        ep,
        "checkout_license_seat",
        "rule_violation",
        "license_id",
        license_id=full["id"],
        assigned_to_email=seat["assigned_to_email"],
    )


def test_a_person_holds_one_seat_and_expired_licenses_lend_none(ep: Episode) -> None:
    m365 = license_named(ep, "Microsoft 365 E3")
    holder = every(ep, "list_license_seats", license_id=m365["id"])[0]["assigned_to_email"]
    refused(
        ep, "checkout_license_seat", "conflict", "assigned_to_email", license_id=m365["id"], assigned_to_email=holder
    )
    expired = license_named(ep, "Sketch Teams")
    assert expired["expiration_date"] < TODAY.isoformat() and expired["free_seats"] > 0
    refused(
        ep,
        "checkout_license_seat",
        "rule_violation",
        "license_id",
        license_id=expired["id"],
        assigned_to_email=NEWCOMER,
    )


def test_checking_in_an_asset_frees_its_installed_seats(ep: Episode) -> None:
    out = asset(ep, "deployed")
    jb = license_named(ep, "JetBrains All Products")
    ok(ep, "checkout_license_seat", license_id=jb["id"], asset_id=out["id"])
    assert license_named(ep, "JetBrains All Products")["free_seats"] == jb["free_seats"] - 1
    ok(ep, "checkin_hardware", asset_id=out["id"])
    assert license_named(ep, "JetBrains All Products")["free_seats"] == jb["free_seats"]
    assert every(ep, "list_license_seats", asset_id=out["id"]) == []


def test_accessories_are_lent_from_stock_only(ep: Episode) -> None:
    accs = {a["name"]: a for a in every(ep, "list_accessories")}
    refused(
        ep,
        "checkout_accessory",
        "rule_violation",
        "accessory_id",
        accessory_id=accs["Wireless headset"]["id"],
        assigned_to_email=NEWCOMER,
    )
    dock = accs["USB-C docking station"]
    loan = ok(ep, "checkout_accessory", accessory_id=dock["id"], assigned_to_email=NEWCOMER)
    back = ok(ep, "checkin_accessory", checkout_id=loan["id"])
    assert back["remaining"] == dock["remaining"]
    refused(ep, "checkin_accessory", "conflict", "checkout_id", checkout_id=loan["id"])


def test_audits_schedule_the_next_one_and_skip_archived_assets(ep: Episode) -> None:
    due = ok(ep, "audits_due")
    assert due and all(h["next_audit_date"] <= TODAY.isoformat() and h["status"] != "archived" for h in due)
    target = due[0]
    auditor = POP.employees[0].email
    refused(
        ep,
        "audit_hardware",
        "rule_violation",
        "next_audit_date",
        asset_id=target["id"],
        auditor_email=auditor,
        next_audit_date=day(0),
    )
    refused(
        ep,
        "audit_hardware",
        "rule_violation",
        "asset_id",
        asset_id=asset(ep, "archived")["id"],
        auditor_email=auditor,
        next_audit_date=day(90),
    )
    ok(ep, "audit_hardware", asset_id=target["id"], auditor_email=auditor, next_audit_date=day(365))
    after = ok(ep, "get_hardware", hardware_id=target["id"])
    assert (after["last_audit_date"], after["next_audit_date"]) == (TODAY.isoformat(), day(365))
    assert target["id"] not in {h["id"] for h in ok(ep, "audits_due")}
