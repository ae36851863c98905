"""Sunbeam Monitor: fleet seeding, device provisioning, RMA replacements, alarms, battery profiles, energy reports."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SOL = ServiceTools("solarmon")
WORLD = SOL.world
ok, refused, every = SOL.ok, SOL.refused, SOL.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
TECH = POP.employees[0].email


def silent(ep: Episode, kind: str) -> dict[str, Any]:
    return every(ep, "list_devices", status="not_reporting", kind=kind)[0]


def test_systems_belong_to_consumers_and_their_status_follows_their_devices(ep: Episode) -> None:
    owners = {p.email: p.name for p in POP.consumers}
    for s in every(ep, "list_systems"):
        assert owners[s["owner_email"]] == s["owner_name"] and s["installer_email"] in STAFF
        devs = [d for d in every(ep, "list_devices", system_id=s["id"]) if d["status"] != "retired"]
        assert s["size_w"] == 290 * sum(d["kind"] == "microinverter" for d in devs)
        has_battery = any(d["kind"] == "battery" for d in devs)
        assert (s["battery_profile"] is not None) == has_battery
    assert ok(ep, "get_system", system_id=silent(ep, "gateway")["system_id"])["status"] == "comm"
    assert ok(ep, "get_system", system_id=silent(ep, "microinverter")["system_id"])["status"] == "micro"


def test_an_alarm_about_a_silent_device_clears_only_once_it_reports(ep: Episode) -> None:
    alarm = every(ep, "list_alarms", alarm_type="micro_not_reporting", status="open")[0]
    refused(ep, "clear_alarm", "rule_violation", "alarm_id", alarm_id=alarm["id"])
    assert ok(ep, "acknowledge_alarm", alarm_id=alarm["id"])["status"] == "acknowledged"
    refused(ep, "acknowledge_alarm", "rule_violation", "alarm_id", alarm_id=alarm["id"])
    back = ok(ep, "mark_device_reporting", device_id=alarm["device_id"])
    assert back["status"] == "normal"
    assert ok(ep, "get_system", system_id=alarm["system_id"])["status"] == "normal"
    cleared = ok(ep, "clear_alarm", alarm_id=alarm["id"])
    assert cleared["status"] == "cleared" and cleared["cleared_at"] is not None
    refused(ep, "mark_device_reporting", "rule_violation", "device_id", device_id=alarm["device_id"])


def test_replacing_a_device_needs_a_case_in_progress_and_retires_the_old_one(ep: Episode) -> None:
    case = every(ep, "list_cases", status="in_progress")[0]
    gw = silent(ep, "gateway")
    assert gw["system_id"] == case["system_id"]
    waiting = every(ep, "list_cases", status="awaiting_customer")[0]
    refused(ep, "replace_device", "rule_violation", "case_id", case_id=waiting["id"], device_id=gw["id"])
    other = every(ep, "list_devices", kind="meter", system_id=waiting["system_id"])[0]
    refused(ep, "replace_device", "rule_violation", "device_id", case_id=case["id"], device_id=other["id"])
    new = ok(ep, "replace_device", case_id=case["id"], device_id=gw["id"])
    assert (new["kind"], new["status"], new["system_id"]) == ("gateway", "normal", gw["system_id"])
    old = ok(ep, "get_device", device_id=gw["id"])
    assert (old["status"], old["replaced_by"]) == ("retired", new["id"])
    assert ok(ep, "get_case", case_id=case["id"])["rma_device_ids"] == [gw["id"]]
    assert ok(ep, "get_system", system_id=gw["system_id"])["status"] == "normal"
    refused(ep, "replace_device", "conflict", "device_id", case_id=case["id"], device_id=gw["id"])


def test_no_replacement_after_the_warranty_ends(ep: Episode) -> None:
    old_site = min(every(ep, "list_systems"), key=lambda s: s["operational_at"])
    assert dt.date.fromisoformat(old_site["operational_at"]) < TODAY - dt.timedelta(days=5 * 366)
    case = ok(ep, "create_case", system_id=old_site["id"], subject="Gateway keeps rebooting", assignee_email=TECH)
    assert case["status"] == "new"
    ok(ep, "start_case", case_id=case["id"])
    gw = every(ep, "list_devices", system_id=old_site["id"], kind="gateway")[0]
    message = refused(ep, "replace_device", "rule_violation", "device_id", case_id=case["id"], device_id=gw["id"])
    assert "warranty" in message
    micro = every(ep, "list_devices", system_id=old_site["id"], kind="microinverter")[0]
    assert ok(ep, "replace_device", case_id=case["id"], device_id=micro["id"])["kind"] == "microinverter"


def test_cases_move_through_their_states_and_one_case_per_alarm(ep: Episode) -> None:
    alarm = every(ep, "list_alarms", status="open", alarm_type="micro_not_reporting")[0]
    args = {"system_id": alarm["system_id"], "subject": "Micro offline", "alarm_id": alarm["id"]}
    refused(ep, "create_case", "rule_violation", "assignee_email", assignee_email="someone@else.io", **args)
    case = ok(ep, "create_case", assignee_email=TECH, **args)
    refused(ep, "create_case", "conflict", "alarm_id", assignee_email=TECH, **args)
    other = next(s for s in every(ep, "list_systems") if s["id"] != alarm["system_id"])
    refused(ep, "create_case", "rule_violation", "alarm_id", assignee_email=TECH, **(args | {"system_id": other["id"]}))
    refused(ep, "resolve_case", "rule_violation", "case_id", case_id=case["id"])
    for verb, status in (("start", "in_progress"), ("await_customer", "awaiting_customer"), ("start", "in_progress")):
        assert ok(ep, f"{verb}_case", case_id=case["id"])["status"] == status
    refused(ep, "close_case", "rule_violation", "case_id", case_id=case["id"])
    assert ok(ep, "resolve_case", case_id=case["id"])["status"] == "resolved"
    assert ok(ep, "close_case", case_id=case["id"])["status"] == "closed"


def test_devices_are_unique_by_serial_and_limited_per_system(ep: Episode) -> None:
    system = every(ep, "list_systems", status="normal", battery_profile=None)[0]
    taken = every(ep, "list_devices", system_id=system["id"])[0]["serial_number"]
    refused(ep, "add_device", "conflict", "serial_number", system_id=system["id"], kind="battery", serial_number=taken)
    refused(
        ep, "add_device", "rule_violation", "kind", system_id=system["id"], kind="gateway", serial_number="202226000001"
    )
    micro = ok(ep, "add_device", system_id=system["id"], kind="microinverter", serial_number="482226000001")
    assert micro["status"] == "normal"
    assert ok(ep, "get_system", system_id=system["id"])["size_w"] == system["size_w"] + 290
    ok(ep, "add_device", system_id=system["id"], kind="battery", serial_number="482326000001")
    after = ok(ep, "get_system", system_id=system["id"])
    assert (after["battery_profile"], after["battery_reserve_pct"]) == ("self-consumption", 20)


def test_battery_profiles_need_a_battery_and_respect_the_reserve_rules(ep: Episode) -> None:
    bare = every(ep, "list_systems", status="normal", battery_profile=None)[0]
    refused(ep, "set_battery_profile", "rule_violation", "system_id", system_id=bare["id"], profile="savings")
    sys = every(ep, "list_systems", battery_profile="self-consumption")[0]
    args = {"system_id": sys["id"]}
    refused(ep, "set_battery_profile", "rule_violation", "reserve_pct", profile="backup_only", reserve_pct=50, **args)
    refused(ep, "set_battery_profile", "rule_violation", "reserve_pct", profile="savings", reserve_pct=90, **args)
    assert ok(ep, "set_battery_profile", profile="backup_only", **args)["battery_reserve_pct"] == 100
    assert ok(ep, "set_battery_profile", profile="savings", reserve_pct=30, **args)["battery_reserve_pct"] == 30


def test_retiring_the_last_battery_drops_the_profile_and_the_gateway_stays(ep: Episode) -> None:
    sys = every(ep, "list_systems", battery_profile="self-consumption", status="normal")[0]
    gateway = every(ep, "list_devices", system_id=sys["id"], kind="gateway")[0]
    refused(ep, "retire_device", "rule_violation", "device_id", device_id=gateway["id"])
    battery = every(ep, "list_devices", system_id=sys["id"], kind="battery")[0]
    assert ok(ep, "retire_device", device_id=battery["id"])["status"] == "retired"
    after = ok(ep, "get_system", system_id=sys["id"])
    assert (after["battery_profile"], after["battery_reserve_pct"]) == (None, None)
    assert ok(ep, "retire_device", device_id=gateway["id"])["status"] == "retired"


def test_energy_report_sums_the_days_and_derives_self_consumption(ep: Episode) -> None:
    sys = every(ep, "list_systems")[0]
    start = (TODAY - dt.timedelta(days=7)).isoformat()
    rows = [r for r in every(ep, "list_daily_energy", system_id=sys["id"]) if r["day"] >= start]
    report = ok(ep, "energy_report", system_id=sys["id"], start_date=start)
    produced = sum(r["produced_wh"] for r in rows)
    exported = sum(r["exported_wh"] for r in rows)
    assert (report["days"], report["produced_wh"]) == (7, produced)
    assert report["self_consumption_pct"] == round(100 * (produced - exported) / produced, 1)
    assert report["specific_yield_kwh_per_kw"] == round(produced / sys["size_w"], 2)
    refused(
        ep, "energy_report", "rule_violation", "end_date", system_id=sys["id"], start_date=start, end_date="2000-01-01"
    )


def test_a_retired_system_takes_no_more_devices_or_cases(ep: Episode) -> None:
    sys = every(ep, "list_systems", status="normal")[0]
    assert ok(ep, "retire_system", system_id=sys["id"])["status"] == "retired"
    refused(
        ep, "add_device", "rule_violation", "system_id", system_id=sys["id"], kind="meter", serial_number="202426000009"
    )
    refused(ep, "create_case", "rule_violation", "system_id", system_id=sys["id"], subject="x", assignee_email=TECH)
    refused(ep, "update_system", "rule_violation", "system_id", system_id=sys["id"], name="Renamed")
