"""Nestwise SmartHome: capability-checked commands, all-or-nothing scenes, modes and their automations."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

HOME = ServiceTools("smarthome")
WORLD = HOME.world
ok, refused, every = HOME.ok, HOME.refused, HOME.every
POP = WORLD.population


def device(ep: Episode, device_type: str, online: bool = True, **where: Any) -> dict[str, Any]:
    return every(ep, "list_devices", device_type=device_type, online=online, **where)[0]


# -- the world ------------------------------------------------------------------------------------


def test_locations_are_consumers_homes_and_the_office() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    locs = every(ep, "list_locations")
    for loc in locs:
        person = people[loc["owner_email"]]
        assert person.name == loc["owner_name"]
        if person.role == "consumer":
            assert loc["address"] == person.address.model_dump()
    office = [loc for loc in locs if loc["address"] == POP.home.address.model_dump()]
    assert len(office) == 1 and people[office[0]["owner_email"]].role == "employee"
    skus = {p.sku for p in POP.products}
    assert all(d["sku"] in skus for d in every(ep, "list_devices") if d["sku"])
    makers = {c.name for c in POP.companies}
    assert all(d["manufacturer"] in makers for d in every(ep, "list_devices"))


def test_seeded_scenes_and_automations_use_devices_of_their_location() -> None:
    ep = Episode(WORLD)
    devices = {d["id"]: d for d in every(ep, "list_devices")}
    for item in every(ep, "list_scenes") + every(ep, "list_automations"):
        assert all(devices[a["device_id"]]["location_id"] == item["location_id"] for a in item["actions"])


# -- commands -------------------------------------------------------------------------------------


def test_commands_follow_capabilities_and_are_logged(ep: Episode) -> None:
    bulb = device(ep, "bulb")
    dimmed = ok(ep, "execute_command", device_id=bulb["id"], command="setLevel", level=35)
    assert (dimmed["level"], dimmed["switch"]) == (35, "on")
    off = ok(ep, "execute_command", device_id=bulb["id"], command="setLevel", level=0)
    assert off["switch"] == "off"
    warm = ok(ep, "execute_command", device_id=bulb["id"], command="setColorTemperature", kelvin=3000)
    assert warm["color_temperature"] == 3000
    history = every(ep, "list_events", device_id=bulb["id"], source="user")
    assert [e["command"] for e in history][-3:] == ["setLevel", "setLevel", "setColorTemperature"]
    assert history[-1]["value"] == "3000"
    plug = device(ep, "plug")
    msg = refused(
        ep, "execute_command", "rule_violation", "command", device_id=plug["id"], command="setLevel", level=10
    )
    assert "on, off" in msg or "switchLevel" in msg
    sensor = device(ep, "contact_sensor")
    refused(ep, "execute_command", "rule_violation", "command", device_id=sensor["id"], command="on")
    refused(ep, "execute_command", "rule_violation", "level", device_id=bulb["id"], command="setLevel")
    refused(
        ep,
        "execute_command",
        "rule_violation",
        "kelvin",
        device_id=bulb["id"],
        command="setColorTemperature",
        kelvin=9000,
    )


def test_an_offline_device_takes_no_command(ep: Episode) -> None:
    gone = next(
        d
        for d in every(ep, "list_devices", online=False)
        if "switch" in d["capabilities"] or "lock" in d["capabilities"]
    )
    command = "on" if "switch" in gone["capabilities"] else "lock"
    msg = refused(ep, "execute_command", "rule_violation", "device_id", device_id=gone["id"], command=command)
    assert "offline" in msg


def test_thermostat_setpoints_keep_their_deadband(ep: Episode) -> None:
    stat = device(ep, "thermostat")
    cool = stat["cooling_setpoint"]
    refused(
        ep,
        "execute_command",
        "rule_violation",
        "setpoint",
        device_id=stat["id"],
        command="setHeatingSetpoint",
        setpoint=cool - 1,
    )
    refused(
        ep,
        "execute_command",
        "rule_violation",
        "setpoint",
        device_id=stat["id"],
        command="setHeatingSetpoint",
        setpoint=35,
    )
    heat = ok(ep, "execute_command", device_id=stat["id"], command="setHeatingSetpoint", setpoint=cool - 2)
    assert heat["heating_setpoint"] == cool - 2
    refused(
        ep,
        "execute_command",
        "rule_violation",
        "setpoint",
        device_id=stat["id"],
        command="setCoolingSetpoint",
        setpoint=cool - 1,
    )
    mode = ok(ep, "execute_command", device_id=stat["id"], command="setThermostatMode", mode="cool")
    assert mode["thermostat_mode"] == "cool"
    refused(ep, "execute_command", "rule_violation", "mode", device_id=stat["id"], command="setThermostatMode")


def test_locks_lock_and_unlock(ep: Episode) -> None:
    lock = device(ep, "lock")
    assert ok(ep, "execute_command", device_id=lock["id"], command="unlock")["lock"] == "unlocked"
    assert ok(ep, "execute_command", device_id=lock["id"], command="lock")["lock"] == "locked"


# -- scenes ---------------------------------------------------------------------------------------


def test_a_scene_runs_all_its_commands_or_none(ep: Episode) -> None:
    bulb = device(ep, "bulb")
    loc = bulb["location_id"]
    others = [d for d in every(ep, "list_devices", location_id=loc) if d["device_type"] in ("bulb", "plug", "dimmer")]
    scene = ok(
        ep,
        "create_scene",
        location_id=loc,
        name="Party",
        actions=[{"device_id": d["id"], "command": "on"} for d in others if d["online"]],
    )
    ok(ep, "execute_scene", scene_id=scene["id"])
    assert all(ok(ep, "get_device", device_id=a["device_id"])["switch"] == "on" for a in scene["actions"])
    assert ok(ep, "get_scene", scene_id=scene["id"])["last_executed_at"] is not None
    broken = next(
        s
        for s in every(ep, "list_scenes")
        if any(not ok(ep, "get_device", device_id=a["device_id"])["online"] for a in s["actions"])
    )
    refused(ep, "execute_scene", "rule_violation", "scene_id", scene_id=broken["id"])


def test_scenes_only_use_devices_of_their_location_that_support_the_command(ep: Episode) -> None:
    locs = every(ep, "list_locations")
    foreign = device(ep, "bulb", location_id=locs[1]["id"])
    refused(
        ep,
        "create_scene",
        "rule_violation",
        "actions.0.device_id",
        location_id=locs[0]["id"],
        name="Wrong home",
        actions=[{"device_id": foreign["id"], "command": "on"}],
    )
    sensor = device(ep, "motion_sensor", location_id=locs[0]["id"])
    refused(
        ep,
        "create_scene",
        "rule_violation",
        "actions.0.command",
        location_id=locs[0]["id"],
        name="Sensor on",
        actions=[{"device_id": sensor["id"], "command": "on"}],
    )


# -- modes and automations ------------------------------------------------------------------------


def test_away_mode_needs_closed_contacts_and_runs_the_leaving_home_rule(ep: Episode) -> None:
    opened = every(ep, "list_devices", contact="open")[0]
    loc = ok(ep, "get_location", location_id=opened["location_id"])
    assert opened["id"] in ok(ep, "location_summary", location_id=loc["id"])["open_contacts"]
    msg = refused(ep, "set_location_mode", "rule_violation", "mode", location_id=loc["id"], mode="away")
    assert opened["label"] in msg
    homes = [
        x
        for x in every(ep, "list_locations", mode="home")
        if not every(ep, "list_devices", location_id=x["id"], contact="open")
        and every(ep, "list_automations", location_id=x["id"], trigger_mode="away", enabled=True)
    ]
    home = homes[0]
    [rule] = every(ep, "list_automations", location_id=home["id"], trigger_mode="away", enabled=True)
    change = ok(ep, "set_location_mode", location_id=home["id"], mode="away")
    assert change["location"]["mode"] == "away"
    if rule["id"] in change["automations_run"]:
        lock = next(a for a in rule["actions"] if a["command"] == "lock")
        assert ok(ep, "get_device", device_id=lock["device_id"])["lock"] == "locked"
        logged = every(ep, "list_events", source="automation", device_id=lock["device_id"])
        assert logged[-1]["source_id"] == rule["id"]
    else:
        assert rule["id"] in change["automations_skipped"]
    refused(ep, "set_location_mode", "rule_violation", "mode", location_id=home["id"], mode="away")


def test_disabled_automations_do_not_run(ep: Episode) -> None:
    loc = next(
        x
        for x in every(ep, "list_locations", mode="home")
        if every(ep, "list_automations", location_id=x["id"], trigger_mode="night", enabled=True) == []
    )
    rule = ok(
        ep,
        "create_automation",
        location_id=loc["id"],
        name="Night lights off",
        trigger_mode="night",
        actions=[
            {
                "device_id": device(ep, "thermostat", location_id=loc["id"])["id"],
                "command": "setThermostatMode",
                "mode": "off",
            }
        ],
    )
    ok(ep, "disable_automation", automation_id=rule["id"])
    change = ok(ep, "set_location_mode", location_id=loc["id"], mode="night")
    assert change["automations_run"] == [] and change["devices_changed"] == []
    refused(
        ep,
        "create_automation",
        "rule_violation",
        "trigger_mode",
        location_id=loc["id"],
        name="No trigger",
        actions=rule["actions"],
    )


def test_rooms_with_devices_stay_and_devices_move_within_their_location(ep: Episode) -> None:
    bulb = device(ep, "bulb")
    refused(ep, "delete_room", "rule_violation", "room_id", room_id=bulb["room_id"])
    other_loc = next(x for x in every(ep, "list_locations") if x["id"] != bulb["location_id"])
    foreign_room = every(ep, "list_rooms", location_id=other_loc["id"])[0]
    refused(ep, "update_device", "rule_violation", "room_id", device_id=bulb["id"], room_id=foreign_room["id"])
    study = ok(ep, "create_room", location_id=bulb["location_id"], name="Study")
    refused(ep, "create_room", "rule_violation", "name", location_id=bulb["location_id"], name="study")
    moved = ok(ep, "update_device", device_id=bulb["id"], room_id=study["id"])
    assert moved["room_id"] == study["id"]
    refused(ep, "delete_device", "rule_violation", "device_id", device_id=bulb["id"])


def test_location_summary_reports_what_the_devices_say() -> None:
    ep = Episode(WORLD)
    loc = every(ep, "list_locations")[0]
    devices = every(ep, "list_devices", location_id=loc["id"])
    summary = ok(ep, "location_summary", location_id=loc["id"])
    assert summary["devices"] == len(devices)
    assert set(summary["offline"]) == {d["id"] for d in devices if not d["online"]}
    assert set(summary["unlocked"]) == {d["id"] for d in devices if d["lock"] == "unlocked"}
    temps = [d["temperature"] for d in devices if d["temperature"] is not None]
    assert summary["average_temperature"] == round(sum(temps) / len(temps), 1)
