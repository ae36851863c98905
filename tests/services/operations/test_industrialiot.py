"""Plantwire IoT: models and hierarchies, measurements with transforms, alarm states, maintenance triggers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

IOT = ServiceTools("industrialiot")
WORLD = IOT.world
ok, refused, every, first = IOT.ok, IOT.refused, IOT.every, IOT.first
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
ENGINEER = POP.employees[0].email


def model(ep: Episode, name: str) -> dict[str, Any]:
    return next(m for m in every(ep, "list_asset_models") if m["name"] == name)


def machine(ep: Episode, kind: str) -> dict[str, Any]:
    m = model(ep, kind)
    return next(a for a in every(ep, "list_assets", model_id=m["id"]) if a["parent_id"])


def test_seeded_plants_form_model_consistent_trees_owned_by_employees(ep: Episode) -> None:
    for a in every(ep, "list_assets"):
        assert a["owner_email"] in STAFF
        if a["parent_id"]:
            parent = ok(ep, "get_asset", asset_id=a["parent_id"])
            assert a["model_id"] in ok(ep, "get_asset_model", asset_model_id=parent["model_id"])["child_model_ids"]
    states = {a["state"] for a in every(ep, "list_alarms")}
    assert states == {"NORMAL", "ACTIVE", "ACKNOWLEDGED", "SNOOZE_DISABLED", "DISABLED"}


def test_a_measurement_computes_its_transform(ep: Episode) -> None:
    filler = machine(ep, "Filler")
    ok(ep, "put_value", asset_id=filler["id"], property="temperature_c", value=50.0)
    assert ok(ep, "latest_value", asset_id=filler["id"], property="temperature_f")["value"] == 122.0
    refused(ep, "put_value", "rule_violation", "property", asset_id=filler["id"], property="temperature_f", value=1.0)
    refused(ep, "put_value", "rule_violation", "property", asset_id=filler["id"], property="speed_mps", value=1.0)
    old = (WORLD.epoch - dt.timedelta(days=8)).isoformat()
    refused(
        ep,
        "put_value",
        "rule_violation",
        "timestamp",
        asset_id=filler["id"],
        property="pressure_bar",
        value=4.0,
        timestamp=old,
    )
    when = (WORLD.epoch - dt.timedelta(minutes=30)).isoformat()
    ok(ep, "put_value", asset_id=filler["id"], property="pressure_bar", value=4.0, timestamp=when)
    refused(
        ep,
        "put_value",
        "conflict",
        "timestamp",
        asset_id=filler["id"],
        property="pressure_bar",
        value=4.1,
        timestamp=when,
    )


def test_aggregates_cover_good_values_in_the_window(ep: Episode) -> None:
    conveyor = machine(ep, "Conveyor")
    ok(ep, "put_value", asset_id=conveyor["id"], property="speed_mps", value=99.0, quality="BAD")
    ok(
        ep,
        "put_value",
        asset_id=conveyor["id"],
        property="speed_mps",
        value=2.0,
        timestamp=(WORLD.epoch - dt.timedelta(minutes=5)).isoformat(),
    )
    agg = ok(ep, "property_aggregates", asset_id=conveyor["id"], property="speed_mps", hours=24)
    good = [
        v["value"]
        for v in every(ep, "list_property_values", asset_id=conveyor["id"], property="speed_mps", quality="GOOD")
    ]
    assert agg["count"] == len(good) and agg["maximum"] == max(good) < 99.0


def test_associations_follow_model_hierarchies_without_cycles(ep: Episode) -> None:
    spare = next(a for a in every(ep, "list_assets") if a["name"] == "Spare Filler")
    line = next(a for a in every(ep, "list_assets", model_id=model(ep, "Packaging Line")["id"]))
    plant = next(a for a in every(ep, "list_assets", model_id=model(ep, "Plant")["id"]))
    refused(ep, "associate_asset", "rule_violation", "parent_id", asset_id=spare["id"], parent_id=plant["id"])
    moved = ok(ep, "associate_asset", asset_id=spare["id"], parent_id=line["id"])
    assert moved["parent_id"] == line["id"]
    refused(ep, "associate_asset", "conflict", "asset_id", asset_id=spare["id"], parent_id=line["id"])
    refused(ep, "delete_asset", "rule_violation", "asset_id", asset_id=line["id"])
    ok(ep, "disassociate_asset", asset_id=spare["id"])
    ok(ep, "delete_asset", asset_id=spare["id"])
    loop = ok(ep, "create_asset_model", name="Cell", properties=[], child_model_ids=[])
    a = ok(ep, "create_asset", name="Cell A", model_id=loop["id"], owner_email=ENGINEER)
    refused(
        ep, "create_asset", "rule_violation", "owner_email", name="Cell B", model_id=loop["id"], owner_email="x@y.io"
    )
    refused(ep, "associate_asset", "rule_violation", "parent_id", asset_id=a["id"], parent_id=a["id"])


def test_models_need_unique_names_and_transforms_of_their_own_measurements(ep: Episode) -> None:
    refused(ep, "create_asset_model", "conflict", "name", name="Filler", properties=[])
    bad = [{"name": "t_f", "kind": "transform", "source": "t_c", "scale": 1.8, "offset": 32}]
    refused(ep, "create_asset_model", "rule_violation", "properties", name="Oven", properties=bad)
    twice = [{"name": "t_c", "kind": "measurement"}, {"name": "t_c", "kind": "measurement"}]
    refused(ep, "create_asset_model", "rule_violation", "properties", name="Oven", properties=twice)
    made = ok(ep, "create_asset_model", name="Oven", properties=[{"name": "t_c", "kind": "measurement"}, *bad])
    assert [p["kind"] for p in made["properties"]] == ["measurement", "transform"]


def test_an_alarm_activates_on_breach_is_acknowledged_and_resets_only_when_clear(ep: Episode) -> None:
    filler = machine(ep, "Filler")
    alarm = ok(
        ep,
        "create_alarm",
        asset_id=filler["id"],
        property="temperature_c",
        name="Overheat",
        comparison="GREATER",
        threshold=90.0,
        severity=1,
    )
    refused(
        ep,
        "create_alarm",
        "conflict",
        "threshold",
        asset_id=filler["id"],
        property="temperature_c",
        name="Again",
        comparison="GREATER",
        threshold=90.0,
    )
    refused(ep, "acknowledge_alarm", "rule_violation", "alarm_id", alarm_id=alarm["id"], note="n/a")
    ok(ep, "put_value", asset_id=filler["id"], property="temperature_c", value=95.0)
    raised = ok(ep, "get_alarm", alarm_id=alarm["id"])
    assert (raised["state"], raised["last_value"]) == ("ACTIVE", 95.0) and raised["triggered_at"]
    ok(ep, "acknowledge_alarm", alarm_id=alarm["id"], note="Coolant valve stuck")
    refused(ep, "reset_alarm", "rule_violation", "alarm_id", alarm_id=alarm["id"])
    ok(
        ep,
        "put_value",
        asset_id=filler["id"],
        property="temperature_c",
        value=70.0,
        timestamp=(WORLD.epoch + dt.timedelta(minutes=4)).isoformat(),
    )
    assert ok(ep, "reset_alarm", alarm_id=alarm["id"])["state"] == "NORMAL"


def test_snoozes_are_bounded_and_disabled_alarms_ignore_values(ep: Episode) -> None:
    active = first(ep, "alarms", state="ACTIVE")
    refused(ep, "snooze_alarm", "rule_violation", "minutes", alarm_id=active["id"], minutes=1441, note="long")
    snoozed = ok(ep, "snooze_alarm", alarm_id=active["id"], minutes=60, note="Planned stop")
    assert snoozed["state"] == "SNOOZE_DISABLED" and snoozed["snoozed_until"]
    refused(
        ep,
        "snooze_alarm",
        "rule_violation",
        "alarm_id",
        alarm_id=first(ep, "alarms", state="NORMAL")["id"],
        minutes=5,
        note="x",
    )
    off = ok(ep, "disable_alarm", alarm_id=first(ep, "alarms", state="NORMAL")["id"])
    ok(ep, "put_value", asset_id=off["asset_id"], property=off["property"], value=off["threshold"] + 100)
    assert ok(ep, "get_alarm", alarm_id=off["id"])["state"] == "DISABLED"
    assert ok(ep, "enable_alarm", alarm_id=off["id"])["state"] == "NORMAL"


def test_a_runtime_counter_opens_one_maintenance_request_per_interval(ep: Episode) -> None:
    conveyor = machine(ep, "Conveyor")
    trig = first(ep, "maintenance_triggers", asset_id=conveyor["id"])
    refused(
        ep,
        "create_maintenance_trigger",
        "conflict",
        "property",
        asset_id=conveyor["id"],
        property="runtime_hours",
        interval=100.0,
        task="Again",
    )
    before = every(ep, "list_maintenance_requests", asset_id=conveyor["id"], status="open")
    counter = trig["baseline"] + trig["interval"] + 1
    ok(ep, "put_value", asset_id=conveyor["id"], property="runtime_hours", value=counter)
    ok(
        ep,
        "put_value",
        asset_id=conveyor["id"],
        property="runtime_hours",
        value=counter + 1,
        timestamp=(WORLD.epoch + dt.timedelta(minutes=3)).isoformat(),
    )
    opened = every(ep, "list_maintenance_requests", asset_id=conveyor["id"], status="open")
    assert len(opened) == max(1, len(before))
    req = opened[0]
    assert req["assignee_email"] == conveyor["owner_email"]
    ok(ep, "complete_maintenance", request_id=req["id"])
    refused(ep, "complete_maintenance", "conflict", "request_id", request_id=req["id"])
    assert first(ep, "maintenance_triggers", asset_id=conveyor["id"])["baseline"] == counter + 1
