"""Nestwise SmartHome: locations, rooms, connected devices and their capabilities, scenes and automations.

Modeled on the SmartThings API v1 (Locations with modes, Rooms, Devices with
capabilities and their attribute states, device commands, Scenes, Rules): a
device accepts only the commands of its capabilities (switch, switchLevel,
colorTemperature, thermostat, lock; sensors accept none) with arguments in
range, an offline device accepts none, a thermostat's heating setpoint stays
at least 2 degrees below its cooling setpoint; a scene runs all its actions or
none; a room with devices cannot be deleted and a device only moves to a room
of its own location; a location cannot switch to away while a door or window
sensor reports open, and switching modes runs the enabled automations that
trigger on that mode. Every executed command is kept in the device history.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    DateTime,
    Email,
    IdOf,
    Percent,
    PersonName,
    PostalAddress,
    Sku,
    Timezone,
    Title,
)
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "smarthome",
    title="Nestwise SmartHome",
    category="iot_smart_home",
    modeled_on="SmartThings API v1 (Locations, Modes, Rooms, Devices, Capabilities, Commands, Scenes, Rules)",
    description="A smart-home hub: homes and their rooms, connected lights, plugs, thermostats, locks and "
    "sensors with capability-checked commands, scenes that run several commands at once, automations "
    "triggered by the home's mode, and each device's command history.",
)

LocationId = Annotated[str, IdOf("smarthome.location")]
RoomId = Annotated[str, IdOf("smarthome.room")]
DeviceId = Annotated[str, IdOf("smarthome.device")]
SceneId = Annotated[str, IdOf("smarthome.scene")]
AutomationId = Annotated[str, IdOf("smarthome.automation")]
EventId = Annotated[str, IdOf("smarthome.event")]
RoomName = Annotated[str, StringConstraints(min_length=1, max_length=60, strip_whitespace=True)]
Clock = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]

Mode = Literal["home", "away", "night"]
DeviceType = Literal["bulb", "dimmer", "plug", "thermostat", "lock", "contact_sensor", "motion_sensor", "camera"]
Capability = Literal[
    "switch",
    "switchLevel",
    "colorTemperature",
    "thermostat",
    "temperatureMeasurement",
    "lock",
    "contactSensor",
    "motionSensor",
    "battery",
]
Command = Literal[
    "on",
    "off",
    "setLevel",
    "setColorTemperature",
    "setHeatingSetpoint",
    "setCoolingSetpoint",
    "setThermostatMode",
    "lock",
    "unlock",
]
ThermostatMode = Literal["off", "heat", "cool", "auto"]
Source = Literal["user", "scene", "automation"]

CAPABILITIES: dict[str, tuple[Capability, ...]] = {
    "bulb": ("switch", "switchLevel", "colorTemperature"),
    "dimmer": ("switch", "switchLevel"),
    "plug": ("switch",),
    "thermostat": ("thermostat", "temperatureMeasurement"),
    "lock": ("lock", "battery"),
    "contact_sensor": ("contactSensor", "battery"),
    "motion_sensor": ("motionSensor", "temperatureMeasurement", "battery"),
    "camera": ("switch", "motionSensor"),
}
COMMAND_CAPABILITY: dict[str, Capability] = {
    "on": "switch",
    "off": "switch",
    "setLevel": "switchLevel",
    "setColorTemperature": "colorTemperature",
    "setHeatingSetpoint": "thermostat",
    "setCoolingSetpoint": "thermostat",
    "setThermostatMode": "thermostat",
    "lock": "lock",
    "unlock": "lock",
}
SETPOINT_RANGE = (10.0, 32.0)
KELVIN_RANGE = (2200, 6500)
DEADBAND = 2.0


class Location(Record):
    """A home (or office) with a hub."""

    id: LocationId
    name: Title
    """Location name."""
    address: PostalAddress
    """Where it is."""
    owner_name: PersonName
    """The account owner."""
    owner_email: Email
    """The owner's e-mail (login)."""
    timezone: Timezone
    """IANA time zone."""
    temperature_scale: Literal["C", "F"] = "C"
    """Scale the apps show temperatures in (the API always uses Celsius)."""
    mode: Mode = "home"
    """Current mode: home, away or night."""
    mode_changed_at: DateTime | None = None
    """When the mode last changed."""


class Room(Record):
    """A room of a location."""

    id: RoomId
    location_id: LocationId
    """The location."""
    name: RoomName
    """Room name; unique within the location."""


class Device(Record):
    """A connected device and the current values of its capabilities' attributes."""

    id: DeviceId
    location_id: LocationId
    """The location it is installed at."""
    room_id: RoomId | None = None
    """The room it is in."""
    label: Title
    """Name the owner gave it."""
    device_type: DeviceType
    """bulb, dimmer, plug, thermostat, lock, contact_sensor, motion_sensor or camera."""
    capabilities: list[Capability]
    """Capabilities it implements (they decide which commands it accepts)."""
    manufacturer: CompanyName
    """Maker."""
    sku: Sku | None = None
    """Product SKU it was sold under."""
    online: bool = True
    """Whether the hub can reach it; offline devices accept no commands."""
    battery: Percent | None = None
    """Battery level of battery-powered devices."""
    switch: Literal["on", "off"] | None = None
    """switch: on or off."""
    level: Annotated[int, Field(ge=0, le=100)] | None = None
    """switchLevel: brightness in percent."""
    color_temperature: Annotated[int, Field(ge=1000, le=10000)] | None = None
    """colorTemperature: in kelvin."""
    thermostat_mode: ThermostatMode | None = None
    """thermostat: off, heat, cool or auto."""
    heating_setpoint: float | None = None
    """thermostat: heating setpoint in Celsius."""
    cooling_setpoint: float | None = None
    """thermostat: cooling setpoint in Celsius."""
    temperature: float | None = None
    """temperatureMeasurement: measured temperature in Celsius."""
    lock: Literal["locked", "unlocked"] | None = None
    """lock: locked or unlocked."""
    contact: Literal["open", "closed"] | None = None
    """contactSensor: open or closed."""
    motion: Literal["active", "inactive"] | None = None
    """motionSensor: active or inactive."""
    installed_at: Annotated[DateTime, CREATED]
    """When it was added."""
    updated_at: Annotated[DateTime, UPDATED]
    """When its state last changed."""


class Action(BaseModel):
    """One device command with its argument."""

    device_id: DeviceId = Field(description="The device.")
    command: Command = Field(description="The command.")
    level: Annotated[int, Field(ge=0, le=100)] | None = Field(default=None, description="setLevel: brightness %.")
    kelvin: Annotated[int, Field(ge=1000, le=10000)] | None = Field(
        default=None, description="setColorTemperature: colour temperature in kelvin."
    )
    setpoint: Annotated[float, Field(ge=0, le=40)] | None = Field(
        default=None, description="setHeatingSetpoint / setCoolingSetpoint: Celsius."
    )
    mode: ThermostatMode | None = Field(default=None, description="setThermostatMode: the mode.")


class Scene(Record):
    """A named set of device commands run together."""

    id: SceneId
    location_id: LocationId
    """The location."""
    name: Title
    """Scene name."""
    actions: list[Action] = Field(min_length=1, max_length=30)
    """Commands it runs."""
    last_executed_at: DateTime | None = None
    """When it last ran."""


class Automation(Record):
    """A rule that runs device commands when the location enters a mode (or at a time of day)."""

    id: AutomationId
    location_id: LocationId
    """The location."""
    name: Title
    """Rule name."""
    trigger: Literal["mode", "time"]
    """mode (when the location enters trigger_mode) or time (daily at trigger_time)."""
    trigger_mode: Mode | None = None
    """For a mode trigger: the mode."""
    trigger_time: Clock | None = None
    """For a time trigger: local time HH:MM."""
    actions: list[Action] = Field(min_length=1, max_length=30)
    """Commands it runs."""
    enabled: bool = True
    """Disabled automations do not run."""
    last_run_at: DateTime | None = None
    """When it last ran."""


class Event(Record):
    """A command executed on a device (the device history)."""

    id: EventId
    device_id: DeviceId
    """The device."""
    location_id: LocationId
    """Its location."""
    command: Command
    """The command."""
    value: str | None = None
    """Its argument, as text."""
    source: Source
    """user, scene or automation."""
    source_id: str | None = None
    """The scene or automation that ran it."""
    at: Annotated[DateTime, CREATED]
    """When it ran."""


# -- guards ------------------------------------------------------------------------------------------


def _guard_room(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Room, location_id=new.location_id):
        if other.id != new.id and other.name.casefold() == new.name.casefold():
            raise RuleViolation(
                f"the location already has a room named {other.name!r}", field="name", hint="choose another name"
            )


def _guard_room_delete(ctx: Ctx, new: Any, old: Any) -> None:
    inside = ctx.where(Device, room_id=old.id)
    if inside:
        raise RuleViolation(
            f"room {old.name!r} still has {len(inside)} device(s)",
            field="room_id",
            hint="move its devices to another room with smarthome__update_device first",
        )


def _guard_device(ctx: Ctx, new: Any, old: Any) -> None:
    if new.room_id is not None:
        room = ctx.get(Room, new.room_id, field="room_id")
        if room.location_id != new.location_id:
            raise RuleViolation(
                f"room {room.name!r} belongs to another location",
                field="room_id",
                hint="pick a room of the device's own location",
            )


def _guard_device_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for scene in ctx.where(Scene, location_id=old.location_id):
        if any(a.device_id == old.id for a in scene.actions):
            raise RuleViolation(
                f"scene {scene.name!r} uses the device",
                field="device_id",
                hint="delete or change that scene first",
            )
    for rule in ctx.where(Automation, location_id=old.location_id):
        if any(a.device_id == old.id for a in rule.actions):
            raise RuleViolation(
                f"automation {rule.name!r} uses the device",
                field="device_id",
                hint="delete that automation first",
            )


locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    filters=("owner_email", "mode"),
    search=("name", "owner_name"),
    update=("name", "temperature_scale"),
    delete=False,
)
rooms = service.resource(
    Room,
    name="room",
    plural="rooms",
    prefix="room",
    create=("location_id", "name"),
    get=False,
    filters=("location_id",),
    guard_create=_guard_room,
    guard_delete=_guard_room_delete,
)
devices = service.resource(
    Device,
    name="device",
    plural="devices",
    prefix="dev",
    create=False,
    filters=("location_id", "room_id", "device_type", "online", "switch", "lock", "contact", "sku"),
    search=("label", "manufacturer"),
    update=("label", "room_id"),
    guard_update=_guard_device,
    guard_delete=_guard_device_delete,
)
scenes = service.resource(
    Scene,
    name="scene",
    plural="scenes",
    prefix="scn",
    create=False,
    filters=("location_id",),
    search=("name",),
)
automations = service.resource(
    Automation,
    name="automation",
    plural="automations",
    prefix="rule",
    create=False,
    filters=("location_id", "trigger", "trigger_mode", "enabled"),
    search=("name",),
    transitions={
        "enable": Transition("enabled", (False,), True, "turn the automation on"),
        "disable": Transition("enabled", (True,), False, "turn the automation off"),
    },
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    get=False,
    filters=("device_id", "location_id", "command", "source"),
    delete=False,
    title="device event",
)


# -- commands ------------------------------------------------------------------------------------------


def _check_action(
    ctx: Ctx, action: Action, location_id: str | None, blame: str | None
) -> tuple[Device, dict[str, Any]]:
    """Validate one command against its device's current state; return the device and the attribute changes.

    Errors name the argument at fault, or ``blame`` (the scene or automation) when given.
    """

    def fld(name: str) -> str:
        return blame or name

    device = ctx.get(Device, action.device_id, field=fld("device_id"))
    if location_id is not None and device.location_id != location_id:
        raise RuleViolation(
            f"device {device.label!r} is at another location",
            field=fld("device_id"),
            hint="use devices of the same location",
        )
    need = COMMAND_CAPABILITY[action.command]
    if need not in device.capabilities:
        supported = sorted(c for c, cap in COMMAND_CAPABILITY.items() if cap in device.capabilities)
        raise RuleViolation(
            f"{device.label!r} ({device.device_type}) has no {need} capability for {action.command}",
            field=fld("command"),
            hint=f"commands it supports: {', '.join(supported) or 'none (it is a sensor)'}",
        )
    if not device.online:
        raise RuleViolation(
            f"{device.label!r} is offline",
            field=fld("device_id"),
            hint="check its power or battery; offline devices accept no commands",
        )
    cmd = action.command
    if cmd in ("on", "off"):
        return device, {"switch": cmd}
    if cmd in ("lock", "unlock"):
        return device, {"lock": "locked" if cmd == "lock" else "unlocked"}
    if cmd == "setLevel":
        if action.level is None:
            raise RuleViolation("setLevel needs a level", field=fld("level"), hint="give a level from 0 to 100")
        return device, {"level": action.level, "switch": "on" if action.level > 0 else "off"}
    if cmd == "setColorTemperature":
        lo, hi = KELVIN_RANGE
        if action.kelvin is None or not lo <= action.kelvin <= hi:
            raise RuleViolation(
                f"setColorTemperature needs kelvin between {lo} and {hi}",
                field=fld("kelvin"),
                hint=f"give a colour temperature from {lo} to {hi} K",
            )
        return device, {"color_temperature": action.kelvin}
    if cmd == "setThermostatMode":
        if action.mode is None:
            raise RuleViolation(
                "setThermostatMode needs a mode", field=fld("mode"), hint="give off, heat, cool or auto"
            )
        return device, {"thermostat_mode": action.mode}
    lo_c, hi_c = SETPOINT_RANGE
    if action.setpoint is None or not lo_c <= action.setpoint <= hi_c:
        raise RuleViolation(
            f"{cmd} needs a setpoint between {lo_c} and {hi_c} C",
            field=fld("setpoint"),
            hint=f"give a temperature from {lo_c} to {hi_c}",
        )
    heat = action.setpoint if cmd == "setHeatingSetpoint" else device.heating_setpoint
    cool = action.setpoint if cmd == "setCoolingSetpoint" else device.cooling_setpoint
    if heat is not None and cool is not None and heat > cool - DEADBAND:
        raise RuleViolation(
            f"the heating setpoint ({heat}) must stay {DEADBAND} degrees below the cooling setpoint ({cool})",
            field=fld("setpoint"),
            hint="lower the heating or raise the cooling setpoint",
        )
    key = "heating_setpoint" if cmd == "setHeatingSetpoint" else "cooling_setpoint"
    return device, {key: action.setpoint}


def _value(action: Action) -> str | None:
    for v in (action.level, action.kelvin, action.setpoint, action.mode):
        if v is not None:
            return str(v)
    return None


def _run(
    ctx: Ctx, actions: list[Action], location_id: str | None, source: str, source_id: str | None, blame: str | None
) -> list[Device]:
    """Check and apply the actions in order; any refusal fails the whole call, so all run or none."""
    done: dict[str, Device] = {}
    for action in actions:
        device, changes = _check_action(ctx, action, location_id, blame)
        done[device.id] = ctx.update(device, **changes)
        ctx.create(
            Event,
            device_id=device.id,
            location_id=device.location_id,
            command=action.command,
            value=_value(action),
            source=source,
            source_id=source_id,
        )
    return list(done.values())


# -- examples -------------------------------------------------------------------------------------------


_example_command = first_example(
    Device, "device_id", where={"device_type": "bulb", "online": True}, command="setLevel", level=40
)


def _example_scene_args(ctx: Ctx) -> dict[str, Any] | None:
    for device in ctx.where(Device, device_type="plug", online=True):
        return {
            "location_id": device.location_id,
            "name": "All off",
            "actions": [{"device_id": device.id, "command": "off"}],
        }
    return None


def _example_scene(ctx: Ctx) -> dict[str, Any] | None:
    for scene in ctx.scan(Scene):
        try:
            for a in scene.actions:
                _check_action(ctx, a, scene.location_id, "scene_id")
        except RuleViolation:
            continue
        return {"scene_id": scene.id}
    return None


def _example_automation(ctx: Ctx) -> dict[str, Any] | None:
    args = _example_scene_args(ctx)
    if args is None:
        return None
    return {**args, "name": "Away: plugs off", "trigger_mode": "away"}


_example_mode = first_example(Location, "location_id", match=lambda ctx, loc: loc.mode != "night", mode="night")


# -- domain tools ---------------------------------------------------------------------------------------


@service.tool(intent="send a command to the device", write=True, example=_example_command)
def execute_command(
    ctx: Ctx,
    device_id: DeviceId,
    command: Command,
    level: Annotated[int, Field(ge=0, le=100)] | None = None,
    kelvin: Annotated[int, Field(ge=1000, le=10000)] | None = None,
    setpoint: Annotated[float, Field(ge=0, le=40)] | None = None,
    mode: ThermostatMode | None = None,
) -> Device:
    """Send one command to a device; it must implement the command's capability and be online.

    Commands: on/off (switch), setLevel (switchLevel, level 0-100), setColorTemperature
    (colorTemperature, 2200-6500 K), setHeatingSetpoint / setCoolingSetpoint (thermostat, 10-32 C,
    heating at least 2 degrees below cooling), setThermostatMode (thermostat), lock/unlock (lock).

    Args:
        device_id: The device.
        command: The command.
        level: setLevel: brightness in percent.
        kelvin: setColorTemperature: colour temperature in kelvin.
        setpoint: setHeatingSetpoint / setCoolingSetpoint: temperature in Celsius.
        mode: setThermostatMode: off, heat, cool or auto.
    """
    action = Action(device_id=device_id, command=command, level=level, kelvin=kelvin, setpoint=setpoint, mode=mode)
    return _run(ctx, [action], None, "user", None, None)[0]


def _check_all(ctx: Ctx, location_id: str, actions: list[Action]) -> None:
    for i, a in enumerate(actions):
        device = ctx.get(Device, a.device_id, field=f"actions.{i}.device_id")
        if device.location_id != location_id:
            raise RuleViolation(
                f"device {device.label!r} is at another location",
                field=f"actions.{i}.device_id",
                hint="a scene or automation only uses devices of its location",
            )
        need = COMMAND_CAPABILITY[a.command]
        if need not in device.capabilities:
            raise RuleViolation(
                f"{device.label!r} has no {need} capability for {a.command}",
                field=f"actions.{i}.command",
                hint="use a command the device supports",
            )


@service.tool(intent="create a scene", write=True, example=_example_scene_args)
def create_scene(
    ctx: Ctx,
    location_id: LocationId,
    name: Title,
    actions: Annotated[list[Action], Field(min_length=1, max_length=30)],
) -> Scene:
    """Create a scene: device commands of one location run together by smarthome__execute_scene.

    Every device must belong to the location and support its command.

    Args:
        location_id: The location.
        name: Scene name.
        actions: The commands.
    """
    ctx.get(Location, location_id, field="location_id")
    _check_all(ctx, location_id, actions)
    return ctx.create(Scene, location_id=location_id, name=name, actions=actions)


@service.tool(intent="run the scene", write=True, example=_example_scene)
def execute_scene(ctx: Ctx, scene_id: SceneId) -> list[Device]:
    """Run every command of a scene; if any device cannot take its command (offline, out of range) none runs.

    Args:
        scene_id: The scene.
    """
    scene = ctx.get(Scene, scene_id, field="scene_id")
    changed = _run(ctx, scene.actions, scene.location_id, "scene", scene.id, "scene_id")
    ctx.update(scene, last_executed_at=ctx.now())
    return changed


@service.tool(intent="set up an automation", write=True, example=_example_automation)
def create_automation(
    ctx: Ctx,
    location_id: LocationId,
    name: Title,
    actions: Annotated[list[Action], Field(min_length=1, max_length=30)],
    trigger_mode: Mode | None = None,
    trigger_time: Clock | None = None,
) -> Automation:
    """Create an automation that runs device commands when the location enters a mode or daily at a time.

    Give exactly one of trigger_mode and trigger_time.

    Args:
        location_id: The location.
        name: Rule name.
        actions: The commands.
        trigger_mode: Run when the location switches to this mode.
        trigger_time: Run daily at this local time (HH:MM).
    """
    ctx.get(Location, location_id, field="location_id")
    if (trigger_mode is None) == (trigger_time is None):
        raise RuleViolation(
            "an automation needs exactly one trigger",
            field="trigger_mode",
            hint="give either trigger_mode or trigger_time",
        )
    _check_all(ctx, location_id, actions)
    return ctx.create(
        Automation,
        location_id=location_id,
        name=name,
        trigger="mode" if trigger_mode else "time",
        trigger_mode=trigger_mode,
        trigger_time=trigger_time,
        actions=actions,
    )


class ModeChange(BaseModel):
    """The result of switching a location's mode."""

    location: Location = Field(description="The location in its new mode.")
    automations_run: list[AutomationId] = Field(description="Automations that ran.")
    automations_skipped: list[AutomationId] = Field(
        description="Enabled automations for the mode that could not run (a device offline or out of range)."
    )
    devices_changed: list[DeviceId] = Field(description="Devices whose state changed.")


@service.tool(intent="switch the home's mode", write=True, example=_example_mode)
def set_location_mode(ctx: Ctx, location_id: LocationId, mode: Mode) -> ModeChange:
    """Switch a location to home, away or night and run the enabled automations that trigger on that mode.

    A location cannot switch to away while a door or window sensor reports open.

    Args:
        location_id: The location.
        mode: The new mode.
    """
    loc = ctx.get(Location, location_id, field="location_id")
    if loc.mode == mode:
        raise RuleViolation(f"{loc.name} is already in {mode} mode", field="mode", hint="nothing to do")
    if mode == "away":
        opened = [d for d in ctx.where(Device, location_id=loc.id, contact="open")]
        if opened:
            raise RuleViolation(
                f"{opened[0].label!r} reports open; close it before switching to away",
                field="mode",
                hint="close the doors and windows that are open (see smarthome__location_summary)",
            )
    loc = ctx.update(loc, mode=mode, mode_changed_at=ctx.now())
    ran: list[str] = []
    skipped: list[str] = []
    changed: dict[str, None] = {}
    for rule in ctx.where(Automation, location_id=loc.id, trigger_mode=mode, enabled=True):
        try:
            for a in rule.actions:
                _check_action(ctx, a, loc.id, "mode")
        except RuleViolation:
            skipped.append(rule.id)
            continue
        for d in _run(ctx, rule.actions, loc.id, "automation", rule.id, "mode"):
            changed[d.id] = None
        ctx.update(rule, last_run_at=ctx.now())
        ran.append(rule.id)
    return ModeChange(location=loc, automations_run=ran, automations_skipped=skipped, devices_changed=list(changed))


class Summary(BaseModel):
    """What a location's devices report right now."""

    location_id: LocationId = Field(description="The location.")
    mode: Mode = Field(description="Current mode.")
    devices: int = Field(description="Installed devices.")
    offline: list[DeviceId] = Field(description="Devices the hub cannot reach.")
    low_battery: list[DeviceId] = Field(description="Devices with 15% battery or less.")
    lights_on: list[DeviceId] = Field(description="Bulbs, dimmers and plugs switched on.")
    unlocked: list[DeviceId] = Field(description="Locks that are unlocked.")
    open_contacts: list[DeviceId] = Field(description="Door and window sensors reporting open.")
    average_temperature: float | None = Field(description="Mean of the measured temperatures (Celsius).")


@service.tool(intent="check the state of the home", example=first_example(Location, "location_id"))
def location_summary(ctx: Ctx, location_id: LocationId) -> Summary:
    """Summarise a location: offline and low-battery devices, lights on, unlocked locks, open doors, temperature.

    Args:
        location_id: The location.
    """
    loc = ctx.get(Location, location_id, field="location_id")
    devs = ctx.where(Device, location_id=loc.id)
    temps = [d.temperature for d in devs if d.temperature is not None]
    return Summary(
        location_id=loc.id,
        mode=loc.mode,
        devices=len(devs),
        offline=[d.id for d in devs if not d.online],
        low_battery=[d.id for d in devs if d.battery is not None and d.battery <= 15],
        lights_on=[d.id for d in devs if d.device_type in ("bulb", "dimmer", "plug") and d.switch == "on"],
        unlocked=[d.id for d in devs if d.lock == "unlocked"],
        open_contacts=[d.id for d in devs if d.contact == "open"],
        average_temperature=round(sum(temps) / len(temps), 1) if temps else None,
    )


# -- seed ---------------------------------------------------------------------------------------------------

LAYOUT: tuple[tuple[str, DeviceType, str], ...] = (
    ("Living Room", "bulb", "Ceiling light"),
    ("Living Room", "plug", "TV plug"),
    ("Living Room", "thermostat", "Thermostat"),
    ("Hallway", "lock", "Front door lock"),
    ("Hallway", "contact_sensor", "Front door sensor"),
    ("Bedroom", "dimmer", "Bedside lamp"),
    ("Bedroom", "contact_sensor", "Bedroom window"),
    ("Kitchen", "motion_sensor", "Kitchen motion"),
    ("Kitchen", "bulb", "Kitchen lights"),
    ("Garage", "camera", "Driveway camera"),
)
PRODUCT_MATCH: dict[str, tuple[str, ...]] = {
    "thermostat": ("Thermostat",),
    "camera": ("Webcam",),
    "plug": ("Speaker",),
}


@service.seeder
def seed(s: SeedContext) -> None:
    """Smart homes of consumers and the home company's office, devices of hardware makers, scenes and rules."""
    pop = s.population
    makers = [c.name for c in pop.customers if c.industry in ("hardware", "manufacturing")][:3]
    makers = makers or [c.name for c in pop.customers[:3]]
    skus = {
        kind: [p.sku for p in pop.products if any(word in p.name for word in words)]
        for kind, words in PRODUCT_MATCH.items()
    }
    owners = list(pop.consumers)[12:22]
    office_manager = pop.staff("Operations", fallback=1)[0]
    homes = [(f"{p.first_name}'s home", p.address, p.name, p.email, p.place.timezone) for p in owners]
    homes.append(
        (
            f"{pop.home.name} office",
            pop.home.address,
            office_manager.name,
            office_manager.email,
            pop.home.place.timezone,
        )
    )
    for h, (name, address, owner, email, tz) in enumerate(homes):
        loc = s.create(
            Location,
            name=name,
            address=address,
            owner_name=owner,
            owner_email=email,
            timezone=tz,
            temperature_scale="F" if address.country == "US" else "C",
            mode=("home", "home", "away", "night")[h % 4],
            mode_changed_at=s.now - dt.timedelta(hours=3 + h),
        )
        installed = _seed_devices(s, h, loc, makers, skus)
        _seed_scenes_and_rules(s, h, loc, installed)


def _seed_devices(
    s: SeedContext, h: int, loc: Location, makers: list[str], skus: dict[str, list[str]]
) -> dict[str, Device]:
    """The rooms of the ``h``-th home and the devices of ``LAYOUT`` in them (not every home has every one).

    Returns:
        The installed devices by label.
    """
    room_ids: dict[str, str] = {}
    for room_name in dict.fromkeys(r for r, _, _ in LAYOUT):
        room_ids[room_name] = s.create(Room, location_id=loc.id, name=room_name).id
    installed: dict[str, Device] = {}
    for k, (room_name, kind, label) in enumerate(LAYOUT):
        if (h + k) % 5 == 4 and kind not in ("lock", "thermostat", "contact_sensor"):
            continue  # not every home has every device
        caps = list(CAPABILITIES[kind])
        pool = skus.get(kind) or []
        installed[label] = s.create(
            Device,
            location_id=loc.id,
            room_id=room_ids[room_name],
            label=label,
            device_type=kind,
            capabilities=caps,
            manufacturer=makers[k % len(makers)],
            sku=pool[h % len(pool)] if pool else None,
            online=(h * 7 + k) % 13 != 5,
            installed_at=s.now - dt.timedelta(days=40 + 3 * h + k),
            updated_at=s.now - dt.timedelta(hours=1 + k),
            **_initial_state(s, h, k, kind, label, loc.mode),
        )
    return installed


def _initial_state(s: SeedContext, h: int, k: int, kind: str, label: str, mode: str) -> dict[str, Any]:
    """The state device ``k`` of home ``h`` is found in, given the home's mode."""
    caps = CAPABILITIES[kind]
    state: dict[str, Any] = {}
    if "switch" in caps:
        state["switch"] = "on" if (h + k) % 3 == 0 and mode != "away" else "off"
    if "switchLevel" in caps:
        state["level"] = 80 if state["switch"] == "on" else 0
    if "colorTemperature" in caps:
        state["color_temperature"] = 2700
    if kind == "thermostat":
        state.update(
            thermostat_mode="heat",
            heating_setpoint=16.0 if mode == "away" else 20.5,
            cooling_setpoint=26.0,
            temperature=round(19.0 + s.rng.uniform(-1.5, 2.0), 1),
        )
    if kind == "motion_sensor":
        state.update(motion="inactive", temperature=round(19.5 + s.rng.uniform(-2.0, 2.0), 1))
    if kind == "camera":
        state["motion"] = "inactive"
    if kind == "lock":
        state["lock"] = "unlocked" if mode == "home" and h % 2 == 0 else "locked"
    if kind == "contact_sensor":
        state["contact"] = "open" if mode == "home" and label == "Bedroom window" and h % 3 == 0 else "closed"
    if "battery" in caps:
        state["battery"] = float((97 - 9 * (h + k)) % 100 or 12)
    return state


def _seed_scenes_and_rules(s: SeedContext, h: int, loc: Location, installed: dict[str, Device]) -> None:
    """The home's scenes, automations and the last events of its first lights."""
    lights = [d for d in installed.values() if d.device_type in ("bulb", "dimmer", "plug")]
    lock = installed.get("Front door lock")
    thermostat = installed.get("Thermostat")
    good_night = [Action(device_id=d.id, command="off") for d in lights]
    if lock is not None:
        good_night.append(Action(device_id=lock.id, command="lock"))
    s.create(Scene, location_id=loc.id, name="Good night", actions=good_night)
    movie = [Action(device_id=d.id, command="setLevel", level=25) for d in lights if "switchLevel" in d.capabilities]
    if movie:
        s.create(Scene, location_id=loc.id, name="Movie time", actions=movie)
    if thermostat is not None and lock is not None:
        s.create(
            Automation,
            location_id=loc.id,
            name="Leaving home",
            trigger="mode",
            trigger_mode="away",
            actions=[
                Action(device_id=lock.id, command="lock"),
                Action(device_id=thermostat.id, command="setHeatingSetpoint", setpoint=16.0),
                *[Action(device_id=d.id, command="off") for d in lights],
            ],
            enabled=h % 5 != 3,
        )
        s.create(
            Automation,
            location_id=loc.id,
            name="Welcome home",
            trigger="mode",
            trigger_mode="home",
            actions=[Action(device_id=thermostat.id, command="setHeatingSetpoint", setpoint=20.5)],
        )
    if lights:
        s.create(
            Automation,
            location_id=loc.id,
            name="Evening lights",
            trigger="time",
            trigger_time="18:30",
            actions=[Action(device_id=lights[0].id, command="on")],
        )
        for k, d in enumerate(lights[:2]):
            s.create(
                Event,
                device_id=d.id,
                location_id=loc.id,
                command=d.switch or "off",
                source="user" if k == 0 else "automation",
                at=s.now - dt.timedelta(hours=2 + k + h),
            )
