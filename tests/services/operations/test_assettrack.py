"""Tagtrail: tags and assets, gateway reads, check-out and check-in, missing sweeps and alerts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

AT = ServiceTools("assettrack")
WORLD = AT.world
ok, refused, every = AT.ok, AT.refused, AT.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
A = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def zone(ep: Episode) -> dict[str, Any]:
    found: dict[str, Any] = every(ep, "list_zones", status="active")[0]
    return found


def tagged(ep: Episode, status: str) -> tuple[dict[str, Any], dict[str, Any]]:
    for asset in every(ep, "list_assets", status=status):
        if asset["tag_id"]:
            return asset, ok(ep, "get_tag", tag_id=asset["tag_id"])
    raise AssertionError(f"no tagged {status} asset")


def test_seeded_tags_and_assets_point_at_each_other(ep: Episode) -> None:
    for asset in every(ep, "list_assets"):
        if asset["tag_id"]:
            tag = ok(ep, "get_tag", tag_id=asset["tag_id"])
            assert (tag["asset_id"], tag["status"]) == (asset["id"], "attached")
        assert (asset["custodian_email"] is not None) == (asset["status"] == "checked_out")
        if asset["custodian_email"]:
            assert asset["custodian_email"] in STAFF
            assert every(ep, "list_checkouts", asset_id=asset["id"], status="open")


def test_tag_codes_are_unique_and_fit_their_technology(ep: Episode) -> None:
    known = every(ep, "list_tags")[0]
    refused(ep, "register_tag", "conflict", "code", code=known["code"], tech=known["tech"])
    refused(ep, "register_tag", "rule_violation", "code", code="AC:23:3F:01:02:03", tech="rfid_uhf")
    refused(
        ep,
        "register_tag",
        "rule_violation",
        "battery_pct",
        code="E28011700000020000000ABC",
        tech="rfid_uhf",
        battery_pct=50,
    )
    ble = ok(ep, "register_tag", code="AC:23:3F:01:02:03", tech="ble")
    assert (ble["status"], ble["battery_pct"]) == ("unassigned", 100)


def test_a_tag_attaches_to_one_asset_and_retires_only_when_free(ep: Episode) -> None:
    asset, tag = tagged(ep, "available")
    free = every(ep, "list_tags", status="unassigned")[0]
    refused(ep, "attach_tag", "conflict", "asset_id", tag_id=free["id"], asset_id=asset["id"])
    refused(ep, "retire_tag", "rule_violation", "tag_id", tag_id=tag["id"])
    ok(ep, "detach_tag", asset_id=asset["id"])
    assert ok(ep, "get_tag", tag_id=tag["id"])["status"] == "unassigned"
    moved = ok(ep, "attach_tag", tag_id=free["id"], asset_id=asset["id"])
    assert moved["tag_id"] == free["id"]
    refused(ep, "attach_tag", "rule_violation", "tag_id", tag_id=free["id"], asset_id=asset["id"])
    assert ok(ep, "retire_tag", tag_id=tag["id"])["status"] == "retired"


def test_a_read_places_the_asset_and_finds_a_missing_one(ep: Episode) -> None:
    asset, tag = tagged(ep, "missing")
    dock = every(ep, "list_zones", kind="dock")[0]
    alert = every(ep, "list_alerts", asset_id=asset["id"], kind="missing")[0]
    read = ok(ep, "record_read", code=tag["code"], zone_id=dock["id"], rssi=-48)
    assert read["asset_id"] == asset["id"]
    found = ok(ep, "get_asset", asset_id=asset["id"])
    assert (found["status"], found["current_zone_id"]) == ("available", dock["id"])
    assert ok(ep, "get_alert", alert_id=alert["id"])["status"] == "resolved"
    off = every(ep, "list_zones", status="inactive")[0]
    refused(ep, "record_read", "rule_violation", "zone_id", code=tag["code"], zone_id=off["id"])
    spare = every(ep, "list_tags", status="unassigned")[0]
    refused(ep, "record_read", "rule_violation", "code", code=spare["code"], zone_id=dock["id"])


def test_a_low_battery_read_raises_one_alert(ep: Episode) -> None:
    ble = next(t for t in every(ep, "list_tags", tech="ble", status="attached"))
    before = len(every(ep, "list_alerts", asset_id=ble["asset_id"], kind="low_battery"))
    ok(ep, "record_read", code=ble["code"], zone_id=zone(ep)["id"], battery_pct=12)
    ok(ep, "record_read", code=ble["code"], zone_id=zone(ep)["id"], battery_pct=11)
    alerts = every(ep, "list_alerts", asset_id=ble["asset_id"], kind="low_battery")
    assert len(alerts) == before + 1 and ok(ep, "get_tag", tag_id=ble["id"])["battery_pct"] == 11


def test_check_out_lends_available_assets_to_staff_for_up_to_30_days(ep: Episode) -> None:
    asset = every(ep, "list_assets", status="available")[0]
    refused(ep, "check_out", "rule_violation", "due_back", asset_id=asset["id"], person_email=A, due_back=day(31))
    refused(ep, "check_out", "rule_violation", "due_back", asset_id=asset["id"], person_email=A, due_back=day(0))
    refused(
        ep, "check_out", "rule_violation", "person_email", asset_id=asset["id"], person_email="x@y.io", due_back=day(3)
    )
    loan = ok(ep, "check_out", asset_id=asset["id"], person_email=A, due_back=day(30))
    assert loan["status"] == "open"
    out = ok(ep, "get_asset", asset_id=asset["id"])
    assert (out["status"], out["custodian_email"]) == ("checked_out", A)
    refused(ep, "check_out", "rule_violation", "asset_id", asset_id=asset["id"], person_email=A, due_back=day(3))
    refused(ep, "retire_asset", "rule_violation", "asset_id", asset_id=asset["id"])


def test_check_in_closes_the_loan_in_a_zone(ep: Episode) -> None:
    loan = every(ep, "list_checkouts", status="open")[0]
    z = zone(ep)
    back = ok(ep, "check_in", asset_id=loan["asset_id"], zone_id=z["id"])
    assert (back["status"], back["return_zone_id"]) == ("returned", z["id"])
    asset = ok(ep, "get_asset", asset_id=loan["asset_id"])
    assert (asset["status"], asset["custodian_email"], asset["current_zone_id"]) == ("available", None, z["id"])
    refused(ep, "check_in", "rule_violation", "asset_id", asset_id=loan["asset_id"], zone_id=z["id"])


def test_the_sweep_marks_unseen_assets_missing_and_flags_overdue_loans(ep: Episode) -> None:
    made = ok(ep, "sweep_missing", unseen_hours=3)
    kinds = {a["kind"] for a in made}
    assert "missing" in kinds and "overdue_return" in kinds
    for a in made:
        if a["kind"] == "missing":
            assert ok(ep, "get_asset", asset_id=a["asset_id"])["status"] == "missing"
    assert ok(ep, "sweep_missing", unseen_hours=3) == []
    overdue = next(a for a in made if a["kind"] == "overdue_return")
    ok(ep, "check_in", asset_id=overdue["asset_id"], zone_id=zone(ep)["id"])
    assert ok(ep, "get_alert", alert_id=overdue["id"])["status"] == "resolved"


def test_retiring_an_asset_frees_its_tag_and_freezes_it(ep: Episode) -> None:
    asset, tag = tagged(ep, "available")
    gone = ok(ep, "retire_asset", asset_id=asset["id"])
    assert (gone["status"], gone["tag_id"]) == ("retired", None)
    assert ok(ep, "get_tag", tag_id=tag["id"])["status"] == "unassigned"
    refused(ep, "update_asset", "rule_violation", "asset_id", asset_id=asset["id"], name="Renamed")


def test_zones_have_one_gateway_and_keep_their_assets_homes(ep: Episode) -> None:
    z = zone(ep)
    refused(
        ep,
        "create_zone",
        "conflict",
        "gateway_serial",
        name="X",
        kind="yard",
        city="Berlin",
        gateway_serial=z["gateway_serial"],
    )
    refused(ep, "deactivate_zone", "rule_violation", "zone_id", zone_id=z["id"])
    empty = ok(ep, "create_zone", name="Annex", kind="storage", city="Berlin", gateway_serial="GW-9999")
    assert ok(ep, "deactivate_zone", zone_id=empty["id"])["status"] == "inactive"
    refused(
        ep, "create_asset", "rule_violation", "home_zone_id", name="Drill", kind="power_tool", home_zone_id=empty["id"]
    )
