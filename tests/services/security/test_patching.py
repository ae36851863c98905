"""Patchwise: groups, policy runs installing selected patches, reboot rules, exceptions with expiry, compliance."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PATCH = ServiceTools("patching")
WORLD = PATCH.world
ok, refused, every = PATCH.ok, PATCH.refused, PATCH.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
ADMIN = POP.employees[0].email
SEVERITIES = ("none", "low", "medium", "high", "critical")


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def group(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_groups", name=name)[0]


def policy(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_policies") if p["name"] == name)


def test_seeded_devices_belong_to_employees_and_have_patches_for_their_os(ep: Episode) -> None:
    for d in every(ep, "list_devices"):
        assert d["owner_email"] in STAFF
        names = {p["name"] for p in every(ep, "list_patches", device_id=d["id"])}
        assert names and ("openssl" in names) == (d["os_family"] == "Linux")
    laptops = every(ep, "list_devices", os_family="Windows") + every(ep, "list_devices", os_family="Mac")
    owners = {d["owner_email"] for d in laptops}
    assert len(owners) == len(laptops)


def test_a_severity_policy_installs_only_selected_patches_on_connected_devices(ep: Episode) -> None:
    pol = policy(ep, "Critical and high, weekly")
    scope = every(ep, "list_devices", group_id=pol["group_ids"][0])
    before = {d["id"]: every(ep, "list_patches", device_id=d["id"], status="pending") for d in scope}
    run = ok(ep, "run_policy", policy_id=pol["id"], triggered_by=ADMIN)
    offline = [d for d in scope if d["connection"] == "disconnected"]
    assert run["status"] == ("partial" if offline else "success") and run["device_count"] == len(scope)
    installed = 0
    for d in scope:
        left = {p["id"]: p for p in every(ep, "list_patches", device_id=d["id"], status="pending")}
        for p in before[d["id"]]:
            chosen = SEVERITIES.index(p["severity"]) >= SEVERITIES.index("high")
            gone = p["id"] not in left
            assert gone == (chosen and d["connection"] == "connected")
            installed += gone
    assert run["patches_installed"] == installed
    statuses = {r["device_id"]: r["status"] for r in every(ep, "list_run_results", run_id=run["id"])}
    for d in offline:
        assert statuses[d["id"]] == "skipped_offline"


def test_reboot_rule_decides_whether_devices_reboot_or_are_flagged(ep: Episode) -> None:
    servers = policy(ep, "Servers: maintenance window")
    assert servers["auto_reboot"] is True
    ok(ep, "run_policy", policy_id=servers["id"])
    for d in every(ep, "list_devices", group_id=servers["group_ids"][0]):
        assert d["needs_reboot"] is False
    pilot = policy(ep, "Pilot ring: everything")
    run = ok(ep, "run_policy", policy_id=pilot["id"])
    assert not any(r["rebooted"] for r in every(ep, "list_run_results", run_id=run["id"]))
    flagged = every(ep, "list_devices", needs_reboot=True, connection="connected")[0]
    assert ok(ep, "reboot_device", device_id=flagged["id"])["needs_reboot"] is False
    refused(ep, "reboot_device", "rule_violation", "device_id", device_id=flagged["id"])
    offline = every(ep, "list_devices", connection="disconnected")[0]
    refused(ep, "reboot_device", "conflict", "device_id", device_id=offline["id"])
    refused(ep, "scan_device", "conflict", "device_id", device_id=offline["id"])


def test_a_disabled_or_unassigned_policy_does_not_run(ep: Episode) -> None:
    browsers = policy(ep, "Browsers daily")
    refused(ep, "run_policy", "conflict", "policy_id", policy_id=browsers["id"])
    ok(ep, "enable_policy", policy_id=browsers["id"])
    refused(ep, "run_policy", "rule_violation", "policy_id", policy_id=browsers["id"])
    ok(ep, "assign_policy", policy_id=browsers["id"], group_id=group(ep, "Workstations")["id"])
    refused(
        ep, "assign_policy", "conflict", "group_id", policy_id=browsers["id"], group_id=group(ep, "Workstations")["id"]
    )
    run = ok(ep, "run_policy", policy_id=browsers["id"])
    assert run["patches_installed"] > 0
    for d in every(ep, "list_devices", group_id=group(ep, "Workstations")["id"], connection="connected"):
        assert not every(ep, "list_patches", device_id=d["id"], name="Google Chrome", status="pending")


def test_policies_need_a_schedule_and_a_complete_rule(ep: Episode) -> None:
    base = {"name": "Nightly", "owner_email": ADMIN}
    refused(ep, "create_policy", "rule_violation", "schedule_days", schedule_days=[], **base)
    refused(ep, "create_policy", "rule_violation", "schedule_days", schedule_days=["monday", "monday"], **base)
    refused(
        ep, "create_policy", "rule_violation", "min_severity", patch_rule="severity", schedule_days=["monday"], **base
    )
    refused(ep, "create_policy", "rule_violation", "filter_text", patch_rule="filter", schedule_days=["monday"], **base)
    refused(ep, "create_policy", "conflict", "name", schedule_days=["monday"], **(base | {"name": "Browsers daily"}))
    made = ok(ep, "create_policy", schedule_days=["monday"], schedule_time="23:30", **base)
    assert (made["enabled"], made["group_ids"]) == (True, [])


def test_exceptions_hold_a_patch_back_within_policy_limits(ep: Episode) -> None:
    p = every(ep, "list_patches", status="pending", severity="critical")[0]
    base = {"device_id": p["device_id"], "package": p["name"], "requested_by": ADMIN, "reason": "App freeze"}
    refused(ep, "create_exception", "rule_violation", "expires_on", expires_on=day(31), **base)
    refused(ep, "create_exception", "rule_violation", "expires_on", expires_on=day(0), **base)
    refused(ep, "create_exception", "rule_violation", "reason", expires_on=day(10), **(base | {"reason": " "}))
    refused(ep, "create_exception", "rule_violation", "package", expires_on=day(10), **(base | {"package": "Nope"}))
    exc = ok(ep, "create_exception", expires_on=day(30), **base)
    assert ok(ep, "get_patch", patch_id=p["id"])["status"] == "excepted"
    refused(ep, "create_exception", "rule_violation", "package", expires_on=day(10), **base)
    ok(ep, "revoke_exception", exception_id=exc["id"])
    assert ok(ep, "get_patch", patch_id=p["id"])["status"] == "pending"
    refused(ep, "revoke_exception", "conflict", "exception_id", exception_id=exc["id"])


def test_excepted_patches_are_skipped_by_runs(ep: Episode) -> None:
    exc = every(ep, "list_exceptions", status="active")[0]
    dev = ok(ep, "get_device", device_id=exc["device_id"])
    pol = next(p for p in every(ep, "list_policies", enabled=True) if dev["group_id"] in p["group_ids"])
    ok(ep, "update_policy", policy_id=pol["id"], min_severity="none")
    ok(ep, "run_policy", policy_id=pol["id"])
    held = every(ep, "list_patches", device_id=dev["id"], name=exc["package"])
    assert {p["status"] for p in held} == {"excepted"}


def test_groups_with_devices_and_the_default_group_stay(ep: Episode) -> None:
    refused(ep, "delete_group", "conflict", "group_id", group_id=group(ep, "Default")["id"])
    work = group(ep, "Workstations")
    refused(ep, "delete_group", "conflict", "group_id", group_id=work["id"])
    refused(ep, "create_group", "conflict", "name", name="Workstations")
    empty = group(ep, "Conference room PCs")
    pol = policy(ep, "Critical and high, weekly")
    ok(ep, "assign_policy", policy_id=pol["id"], group_id=empty["id"])
    ok(ep, "delete_group", group_id=empty["id"])
    assert empty["id"] not in ok(ep, "get_policy", policy_id=pol["id"])["group_ids"]
    d = every(ep, "list_devices", group_id=work["id"])[0]
    assert ok(ep, "move_device", device_id=d["id"], group_id=group(ep, "Default")["id"])["group_id"] != work["id"]
    refused(ep, "move_device", "conflict", "group_id", device_id=d["id"], group_id=group(ep, "Default")["id"])


def test_compliance_counts_pending_patches_and_reboots(ep: Episode) -> None:
    for d in every(ep, "list_devices")[:8]:
        found = every(ep, "list_patches", device_id=d["id"])
        c = ok(ep, "device_compliance", device_id=d["id"])
        pending = [p for p in found if p["status"] == "pending"]
        assert sum(c["pending_by_severity"].values()) == len(pending)
        urgent = any(p["severity"] in ("critical", "high") for p in pending)
        assert c["compliant"] == (not urgent and not d["needs_reboot"])
