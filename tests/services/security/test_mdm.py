"""Orchard Device Manager: lock/erase/lost-mode rules, pending commands, owners, profile and policy rules, inventory."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

MDM = ServiceTools("mdm")
WORLD = MDM.world
ok, refused, every = MDM.ok, MDM.refused, MDM.every
POP = WORLD.population
NOW = WORLD.epoch
EMPLOYEES = {p.email: p for p in POP.employees}


def seen(device: dict[str, Any]) -> dt.datetime:
    return dt.datetime.fromisoformat(device["last_check_in"])


def online(devices: list[dict[str, Any]]) -> dict[str, Any]:
    return next(d for d in devices if NOW - seen(d) <= dt.timedelta(hours=24))


def test_seeded_devices_belong_to_employees_with_unique_serials(ep: Episode) -> None:
    macs, mobiles = every(ep, "list_computers"), every(ep, "list_mobile_devices")
    serials = [d["serial_number"] for d in macs + mobiles]
    assert len(serials) == len(set(serials))
    for d in macs + mobiles:
        assert EMPLOYEES[d["owner_email"]].name == d["owner_name"]
    lost = every(ep, "list_mobile_devices", lost_mode_enabled=True)
    assert lost and all(d["supervised"] for d in lost)
    cmds = every(ep, "list_commands", mobile_device_id=lost[0]["id"], command="EnableLostMode")
    assert cmds[0]["status"] == "Acknowledged"


def test_locking_a_mac_needs_a_pin_and_takes_effect_when_it_is_online(ep: Episode) -> None:
    mac = online(every(ep, "list_computers", managed=True))
    refused(ep, "send_computer_command", "rule_violation", "pin", computer_id=mac["id"], command="DeviceLock")
    refused(
        ep,
        "send_computer_command",
        "rule_violation",
        "pin",
        computer_id=mac["id"],
        command="RestartDevice",
        pin="123456",
    )
    refused(
        ep,
        "send_computer_command",
        "rule_violation",
        "issued_by",
        computer_id=mac["id"],
        command="RestartDevice",
        issued_by="x@y.io",
    )
    cmd = ok(ep, "send_computer_command", computer_id=mac["id"], command="DeviceLock", pin="482913", message="Call IT")
    assert cmd["status"] == "Acknowledged"
    assert ok(ep, "get_computer", computer_id=mac["id"])["locked"] is True


def test_a_stale_device_keeps_one_pending_command_of_each_kind(ep: Episode) -> None:
    stale = next(c for c in every(ep, "list_computers", managed=True) if NOW - seen(c) > dt.timedelta(days=1))
    cmd = ok(ep, "send_computer_command", computer_id=stale["id"], command="EraseDevice", pin="111222")
    assert cmd["status"] == "Pending"
    assert ok(ep, "get_computer", computer_id=stale["id"])["managed"] is True
    refused(
        ep, "send_computer_command", "conflict", "command", computer_id=stale["id"], command="EraseDevice", pin="111222"
    )
    assert ok(ep, "cancel_command", command_id=cmd["id"])["status"] == "Canceled"
    refused(ep, "cancel_command", "rule_violation", "command_id", command_id=cmd["id"])
    assert (
        ok(ep, "send_computer_command", computer_id=stale["id"], command="EraseDevice", pin="111222")["status"]
        == "Pending"
    )


def test_erasing_a_mobile_device_needs_supervision_and_unenrolls_it(ep: Episode) -> None:
    unsupervised = online(every(ep, "list_mobile_devices", supervised=False, managed=True))
    refused(
        ep,
        "send_mobile_device_command",
        "rule_violation",
        "command",
        mobile_device_id=unsupervised["id"],
        command="EraseDevice",
    )
    supervised = online(
        [d for d in every(ep, "list_mobile_devices", supervised=True, managed=True) if not d["lost_mode_enabled"]]
    )
    ok(ep, "send_mobile_device_command", mobile_device_id=supervised["id"], command="EraseDevice")
    assert ok(ep, "get_mobile_device", mobile_device_id=supervised["id"])["managed"] is False
    refused(
        ep,
        "send_mobile_device_command",
        "rule_violation",
        "mobile_device_id",
        mobile_device_id=supervised["id"],
        command="UpdateInventory",
    )


def test_locking_a_mobile_device_needs_its_passcode(ep: Episode) -> None:
    bare = every(ep, "list_mobile_devices", managed=True)
    no_code = next(d for d in bare if not d["passcode_present"])
    refused(
        ep,
        "send_mobile_device_command",
        "rule_violation",
        "mobile_device_id",
        mobile_device_id=no_code["id"],
        command="DeviceLock",
    )
    with_code = online([d for d in bare if d["passcode_present"]])
    assert (
        ok(ep, "send_mobile_device_command", mobile_device_id=with_code["id"], command="DeviceLock")["status"]
        == "Acknowledged"
    )


def test_lost_mode_needs_a_way_to_call_back_and_toggles(ep: Episode) -> None:
    dev = online([d for d in every(ep, "list_mobile_devices", supervised=True) if not d["lost_mode_enabled"]])
    refused(
        ep,
        "send_mobile_device_command",
        "rule_violation",
        "message",
        mobile_device_id=dev["id"],
        command="EnableLostMode",
    )
    refused(
        ep,
        "send_mobile_device_command",
        "rule_violation",
        "command",
        mobile_device_id=dev["id"],
        command="DisableLostMode",
    )
    cmd = ok(
        ep, "send_mobile_device_command", mobile_device_id=dev["id"], command="EnableLostMode", phone="+14155550100"
    )
    assert "+14155550100" in cmd["message"]
    assert ok(ep, "get_mobile_device", mobile_device_id=dev["id"])["lost_mode_enabled"] is True
    refused(
        ep,
        "send_mobile_device_command",
        "conflict",
        "command",
        mobile_device_id=dev["id"],
        command="EnableLostMode",
        message="Lost",
    )
    ok(ep, "send_mobile_device_command", mobile_device_id=dev["id"], command="DisableLostMode")
    assert ok(ep, "get_mobile_device", mobile_device_id=dev["id"])["lost_mode_enabled"] is False


def test_devices_are_reassigned_to_employees_only(ep: Episode) -> None:
    mac = every(ep, "list_computers")[0]
    refused(
        ep, "update_computer", "rule_violation", "owner_email", computer_id=mac["id"], owner_email="guest@example.org"
    )
    other = next(p for p in POP.employees if p.email != mac["owner_email"])
    moved = ok(ep, "update_computer", computer_id=mac["id"], owner_email=other.email)
    assert (moved["owner_email"], moved["owner_name"]) == (other.email, other.name)


def test_profiles_are_per_platform_with_unique_names_and_fitting_payloads(ep: Episode) -> None:
    mac = every(ep, "list_computers")[0]
    refused(
        ep,
        "create_configuration_profile",
        "rule_violation",
        "computer_ids",
        name="VPN",
        platform="iOS",
        payloads=["vpn"],
        computer_ids=[mac["id"]],
    )
    refused(
        ep,
        "create_configuration_profile",
        "rule_violation",
        "payloads",
        name="Encrypt",
        platform="iOS",
        payloads=["filevault"],
    )
    refused(
        ep, "create_configuration_profile", "rule_violation", "payloads", name="Empty", platform="macOS", payloads=[]
    )
    refused(
        ep,
        "create_configuration_profile",
        "conflict",
        "name",
        name="Firewall on",
        platform="macOS",
        payloads=["firewall"],
    )
    made = ok(ep, "create_configuration_profile", name="Firewall on", platform="iOS", payloads=["restrictions"])
    assert made["platform"] == "iOS"


def test_policy_triggers_follow_their_rules(ep: Episode) -> None:
    refused(ep, "create_policy", "rule_violation", "custom_event", name="Install Slack", trigger="custom")
    refused(
        ep, "create_policy", "rule_violation", "frequency", name="Enroll", trigger="enrollment", frequency="ongoing"
    )
    refused(ep, "create_policy", "conflict", "name", name="Install Zoom", trigger="custom", custom_event="zoom2")
    made = ok(
        ep, "create_policy", name="Install Slack", trigger="custom", custom_event="installSlack", all_computers=True
    )
    assert made["enabled"] is True


def test_inventory_counts_managed_devices_by_os_and_encryption(ep: Episode) -> None:
    macs = every(ep, "list_computers", managed=True)
    mobiles = every(ep, "list_mobile_devices", managed=True)
    inv = ok(ep, "inventory_summary")
    assert (inv["computers"], inv["mobile_devices"]) == (len(macs), len(mobiles))
    assert set(inv["unencrypted_computers"]) == {c["id"] for c in macs if not c["filevault_enabled"]}
    assert sum(r["devices"] for r in inv["by_os"]) == len(macs) + len(mobiles)
    assert inv["outdated"] == sum(r["devices"] for r in inv["by_os"] if not r["compliant"]) > 0
    assert inv["stale"] == sum(NOW - seen(d) > dt.timedelta(days=30) for d in macs + mobiles)
