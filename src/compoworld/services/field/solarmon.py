"""Sunbeam Monitor: monitoring of installed solar and battery systems, their devices, telemetry, alarms and cases.

Modeled on the Enphase Enlighten Systems API v4 (``/api/v4/systems``,
``/systems/{id}/devices``, ``/telemetry/production_micro``,
``/energy_lifetime``, battery settings, events and alarms) and the installer
portal's service cases: the home company installs and monitors homes' systems.
A system's status is ``normal`` unless a device is not reporting (``comm``,
``micro``) or it is ``retired``; devices (microinverters, IQ batteries,
gateways, meters) have unique serial numbers and go normal ↔ not_reporting →
retired, and a replacement (RMA) needs an open service case and a device still
under its warranty (25 years for microinverters, 15 for batteries, 5 for
gateways and meters). Alarms are opened by the fleet, acknowledged and cleared,
and one about a device cannot clear while the device still does not report.
Battery profiles are self-consumption, savings or backup_only (reserve 100%);
a reserve is 0-100% and needs a battery. Cases go new → in_progress ↔
awaiting_customer → resolved → closed.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Date,
    DateTime,
    Email,
    IdOf,
    PersonName,
    PostalAddress,
    Text,
    Timezone,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "solarmon",
    title="Sunbeam Monitor",
    category="energy_monitoring",
    modeled_on="Enphase Enlighten Systems API v4: systems, devices (microinverters, IQ batteries, gateways, "
    "meters), production/consumption telemetry, energy_lifetime, battery settings, events and alarms, "
    "installer service cases",
    description="Monitoring of the solar and battery systems the company installed at customers' homes: each "
    "system and its microinverters, batteries, gateways and meters, daily production and consumption, "
    "battery profiles, the alarms the fleet raises, and service cases with warranty replacements.",
)

SystemId = Annotated[str, IdOf("solarmon.system")]
DeviceId = Annotated[str, IdOf("solarmon.device")]
ReadingId = Annotated[str, IdOf("solarmon.daily_energy")]
AlarmId = Annotated[str, IdOf("solarmon.alarm")]
CaseId = Annotated[str, IdOf("solarmon.case")]

Serial = Annotated[str, StringConstraints(pattern=r"^[0-9]{12}$")]
"""A device's 12-digit serial number."""
Wh = Annotated[int, Field(ge=0, le=10**12)]
"""Energy in watt-hours."""
Pct = Annotated[int, Field(ge=0, le=100)]
"""A percentage, 0-100."""

SystemStatus = Literal["normal", "comm", "micro", "retired"]
DeviceKind = Literal["microinverter", "battery", "gateway", "meter"]
DeviceStatus = Literal["normal", "not_reporting", "retired"]
BatteryProfile = Literal["self-consumption", "savings", "backup_only"]
AlarmType = Literal["micro_not_reporting", "gateway_offline", "battery_overtemp", "production_drop", "grid_fault"]
AlarmSeverity = Literal["low", "medium", "high"]
AlarmStatus = Literal["open", "acknowledged", "cleared"]
CaseStatus = Literal["new", "in_progress", "awaiting_customer", "resolved", "closed"]

WARRANTY_YEARS: dict[str, int] = {"microinverter": 25, "battery": 15, "gateway": 5, "meter": 5}
MODELS: dict[str, str] = {
    "microinverter": "IQ8PLUS-72-2-US",
    "battery": "IQ Battery 5P",
    "gateway": "IQ Gateway",
    "meter": "CT-200-SPLIT",
}
BATTERY_WH = 5000
MICRO_W = 290


class System(Record):
    """A monitored solar (and battery) system at a customer's home."""

    id: SystemId
    name: Title
    """The system's name."""
    owner_name: PersonName
    """The homeowner."""
    owner_email: Email
    """The homeowner's e-mail."""
    address: PostalAddress
    """Where it is installed."""
    timezone: Timezone = "Europe/London"
    """The site's time zone."""
    installer_email: Email
    """The employee who installed and looks after it."""
    status: SystemStatus = "normal"
    """normal, comm (gateway not reporting), micro (a microinverter not reporting) or retired."""
    size_w: Annotated[int, Field(ge=0, le=10**7)] = 0
    """DC size in watts (microinverters × their rating)."""
    battery_profile: BatteryProfile | None = None
    """self-consumption, savings or backup_only; none without a battery."""
    battery_reserve_pct: Pct | None = None
    """Charge kept for outages; none without a battery."""
    operational_at: Date
    """The day it started producing."""
    created_at: Annotated[DateTime, CREATED]
    """When it was registered."""


class Device(Record):
    """A microinverter, battery, gateway or meter of a system."""

    id: DeviceId
    system_id: SystemId
    """The system."""
    kind: DeviceKind
    """microinverter, battery, gateway or meter."""
    serial_number: Serial
    """Its serial number (unique)."""
    sku: Title
    """Its model (SKU)."""
    status: DeviceStatus = "normal"
    """normal, not_reporting or retired."""
    installed_on: Date
    """The day it was installed (warranty starts)."""
    last_report_at: DateTime | None = None
    """When it last reported."""
    replaced_by: DeviceId | None = None
    """The device that replaced it under an RMA."""
    soc_pct: Pct | None = None
    """A battery's state of charge."""


class DailyEnergy(Record):
    """A system's energy on one day (the telemetry rolled up per day)."""

    id: ReadingId
    system_id: SystemId
    """The system."""
    day: Date
    """The day."""
    produced_wh: Wh
    """Produced by the microinverters."""
    consumed_wh: Wh
    """Used by the home."""
    exported_wh: Wh
    """Sent to the grid."""
    imported_wh: Wh
    """Taken from the grid."""


class Alarm(Record):
    """An event the fleet raised about a system or one of its devices."""

    id: AlarmId
    system_id: SystemId
    """The system."""
    device_id: DeviceId | None = None
    """The device, if one."""
    alarm_type: AlarmType
    """micro_not_reporting, gateway_offline, battery_overtemp, production_drop or grid_fault."""
    severity: AlarmSeverity
    """low, medium or high."""
    status: AlarmStatus = "open"
    """open → acknowledged → cleared."""
    raised_at: DateTime
    """When it was raised."""
    cleared_at: DateTime | None = None
    """When it was cleared."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Case(Record):
    """An installer service case about a system."""

    id: CaseId
    number: Annotated[str, Generated("sequence", "CASE-{n:06d}")]
    """The case number."""
    system_id: SystemId
    """The system."""
    subject: Title
    """What is wrong."""
    description: Text = ""
    """Details."""
    alarm_id: AlarmId | None = None
    """The alarm it was opened for."""
    assignee_email: Email
    """The employee working on it."""
    status: CaseStatus = "new"
    """new → in_progress ↔ awaiting_customer → resolved → closed."""
    rma_device_ids: tuple[DeviceId, ...] = ()
    """Devices replaced under this case."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class EnergyReport(Value):
    """A system's energy over a period."""

    system_id: SystemId
    """The system."""
    start_date: Date
    """First day."""
    end_date: Date
    """Last day."""
    days: int
    """Days with telemetry."""
    produced_wh: int
    """Produced."""
    consumed_wh: int
    """Consumed."""
    self_consumption_pct: float
    """Share of production used at home."""
    specific_yield_kwh_per_kw: float
    """kWh produced per kW of DC size."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an installer's e-mail")


def _refresh(ctx: Ctx, system_id: str) -> None:
    """Recompute a system's status and size from its devices."""
    system = ctx.get(System, system_id)
    if system.status == "retired":
        return
    live = [d for d in ctx.where(Device, system_id=system_id) if d.status != "retired"]
    silent = {d.kind for d in live if d.status == "not_reporting"}
    status = "comm" if "gateway" in silent else "micro" if "microinverter" in silent else "normal"
    ctx.update(system, status=status, size_w=MICRO_W * sum(d.kind == "microinverter" for d in live))


def _guard_system(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _staff(ctx, new.installer_email, "installer_email")
        if new.operational_at > ctx.today():
            raise RuleViolation("operational_at is in the future", field="operational_at", hint="use the install day")
        if new.battery_profile is not None or new.battery_reserve_pct is not None:
            raise RuleViolation("a new system has no battery yet", field="battery_profile", hint="add one first")
        return
    if old.status == "retired":
        raise RuleViolation("the system is retired", field="system_id", hint="retired systems cannot change")
    _staff(ctx, new.installer_email, "installer_email")


def _guard_alarm(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "cleared" and old.status != "cleared":
        if new.device_id is not None and ctx.get(Device, new.device_id).status == "not_reporting":
            raise RuleViolation(
                f"device {new.device_id} still does not report",
                field="alarm_id",
                hint="fix or replace the device first; the alarm clears once it reports",
            )
        ctx.update(new, cleared_at=ctx.now())


def _guard_case(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        system = ctx.get(System, new.system_id, field="system_id")
        if system.status == "retired":
            raise RuleViolation("the system is retired", field="system_id", hint="open cases on live systems")
        if new.alarm_id is not None:
            alarm = ctx.get(Alarm, new.alarm_id, field="alarm_id")
            if alarm.system_id != new.system_id:
                raise RuleViolation("the alarm is on another system", field="alarm_id", hint="pick this system's")
            for other in ctx.where(Case, alarm_id=new.alarm_id):
                if other.id != new.id and other.status not in ("resolved", "closed"):
                    raise Conflict(f"case {other.number} is open for it", field="alarm_id", hint="work on that case")
    if old is None or new.assignee_email != old.assignee_email:
        _staff(ctx, new.assignee_email, "assignee_email")


systems = service.resource(
    System,
    name="system",
    plural="systems",
    prefix="sys",
    create=("name", "owner_name", "owner_email", "address", "timezone", "installer_email", "operational_at"),
    filters=("status", "owner_email", "installer_email", "battery_profile"),
    search=("name", "owner_name"),
    update=("name", "installer_email", "timezone"),
    delete=False,
    transitions={
        "retire": Transition(
            "status",
            ("normal", "comm", "micro"),
            "retired",
            "retire the system",
            destructive=True,
            description="Retire a decommissioned system: it stops being monitored.",
        ),
    },
    guard_create=_guard_system,
    guard_update=_guard_system,
)
devices = service.resource(
    Device,
    name="device",
    plural="devices",
    prefix="dev",
    create=False,
    filters=("system_id", "kind", "status", "serial_number"),
    delete=False,
    unique=("serial_number",),
)
daily = service.resource(
    DailyEnergy,
    name="daily_energy",
    plural="daily_energy",
    prefix="day",
    create=False,
    get=False,
    filters=("system_id", "day"),
    delete=False,
    title="day of telemetry",
)
alarms = service.resource(
    Alarm,
    name="alarm",
    plural="alarms",
    prefix="alm",
    create=False,
    filters=("system_id", "device_id", "alarm_type", "severity", "status"),
    delete=False,
    transitions={
        "acknowledge": Transition("status", ("open",), "acknowledged", "acknowledge the alarm"),
        "clear": Transition(
            "status",
            ("open", "acknowledged"),
            "cleared",
            "clear the alarm",
            description="Clear an alarm; one about a device clears only once the device reports again.",
        ),
    },
    guard_update=_guard_alarm,
)
cases = service.resource(
    Case,
    name="case",
    plural="cases",
    prefix="case",
    create=("system_id", "subject", "description", "alarm_id", "assignee_email"),
    filters=("system_id", "status", "assignee_email", "alarm_id"),
    search=("subject", "description"),
    update=("subject", "description", "assignee_email"),
    delete=False,
    transitions={
        "start": Transition("status", ("new", "awaiting_customer"), "in_progress", "start work on the case"),
        "await_customer": Transition("status", ("in_progress",), "awaiting_customer", "wait for the homeowner"),
        "resolve": Transition("status", ("in_progress", "awaiting_customer"), "resolved", "resolve the case"),
        "close": Transition("status", ("resolved",), "closed", "close the case"),
    },
    guard_create=_guard_case,
    guard_update=_guard_case,
    title="service case",
)


# -- domain tools -----------------------------------------------------------------------------


def _live_system(ctx: Ctx, system_id: str) -> System:
    system = ctx.get(System, system_id, field="system_id")
    if system.status == "retired":
        raise RuleViolation("the system is retired", field="system_id", hint="pick a live system")
    return system


def _new_serial(ctx: Ctx, kind: str) -> str:
    base = {"microinverter": 4822, "battery": 4823, "gateway": 2023, "meter": 2024}[kind]
    n = ctx.next_number(Device, "serial")
    return f"{base}{ctx.today().year % 100:02d}{900000 + n:06d}"


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(System, status="normal")
    return None if s is None else {"system_id": s.id, "kind": "battery", "serial_number": "482326990001"}


@service.tool(intent="add a device to the system", write=True, example=_example_add)
def add_device(ctx: Ctx, system_id: SystemId, kind: DeviceKind, serial_number: Serial) -> Device:
    """Provision a new device on a system; a system has one gateway, at most 4 batteries and 60 microinverters.

    Args:
        system_id: The system.
        kind: microinverter, battery, gateway or meter.
        serial_number: The device's serial number (unique across the fleet).
    """
    system = _live_system(ctx, system_id)
    if ctx.first(Device, serial_number=serial_number) is not None:
        raise Conflict(f"serial {serial_number} is already provisioned", field="serial_number", hint="check the label")
    live = [d for d in ctx.where(Device, system_id=system.id, kind=kind) if d.status != "retired"]
    limit = {"gateway": 1, "battery": 4, "microinverter": 60, "meter": 2}[kind]
    if len(live) >= limit:
        raise RuleViolation(
            f"the system already has {len(live)} {kind}(s), the most it can have",
            field="kind",
            hint="retire or replace one instead",
        )
    dev = ctx.create(
        Device,
        system_id=system.id,
        kind=kind,
        serial_number=serial_number,
        sku=MODELS[kind],
        installed_on=ctx.today(),
        last_report_at=ctx.now(),
        soc_pct=50 if kind == "battery" else None,
    )
    if kind == "battery" and system.battery_profile is None:
        ctx.update(system, battery_profile="self-consumption", battery_reserve_pct=20)
    _refresh(ctx, system.id)
    return dev


def _example_replace(ctx: Ctx) -> dict[str, Any] | None:
    for case in ctx.select(Case, {"status": "in_progress"}):
        for d in ctx.where(Device, system_id=case.system_id, status="not_reporting"):
            return {"case_id": case.id, "device_id": d.id}
    return None


@service.tool(intent="replace the device under warranty", write=True, destructive=True, example=_example_replace)
def replace_device(ctx: Ctx, case_id: CaseId, device_id: DeviceId) -> Device:
    """Replace a faulty device under an RMA: the old one is retired and a new one takes its place.

    The case must be in progress and about the device's system, and the device within its warranty.

    Args:
        case_id: The open service case.
        device_id: The device to replace.
    """
    case = ctx.get(Case, case_id, field="case_id")
    if case.status != "in_progress":
        raise RuleViolation(f"case {case.number} is {case.status}", field="case_id", hint="start the case first")
    dev = ctx.get(Device, device_id, field="device_id")
    if dev.system_id != case.system_id:
        raise RuleViolation("the device is on another system", field="device_id", hint="pick one of the case's system")
    if dev.status == "retired":
        raise Conflict("the device is already retired", field="device_id", hint="nothing to replace")
    years = WARRANTY_YEARS[dev.kind]
    ends = dev.installed_on.replace(year=dev.installed_on.year + years)
    if ctx.today() > ends:
        raise RuleViolation(
            f"the {dev.kind}'s {years}-year warranty ended on {ends}",
            field="device_id",
            hint="quote the homeowner for a paid replacement instead",
        )
    new = ctx.create(
        Device,
        system_id=dev.system_id,
        kind=dev.kind,
        serial_number=_new_serial(ctx, dev.kind),
        sku=MODELS[dev.kind],
        installed_on=dev.installed_on,
        last_report_at=ctx.now(),
        soc_pct=50 if dev.kind == "battery" else None,
    )
    ctx.update(dev, status="retired", replaced_by=new.id)
    ctx.update(case, rma_device_ids=(*case.rma_device_ids, dev.id))
    _refresh(ctx, dev.system_id)
    return new


@service.tool(
    intent="retire the device",
    write=True,
    destructive=True,
    example=first_example(Device, "device_id", where={"status": "normal", "kind": "meter"}),
)
def retire_device(ctx: Ctx, device_id: DeviceId) -> Device:
    """Retire a device removed from its system; a system with a battery keeps at least one gateway.

    Args:
        device_id: The device.
    """
    dev = ctx.get(Device, device_id, field="device_id")
    if dev.status == "retired":
        raise Conflict("the device is already retired", field="device_id", hint="nothing to do")
    if dev.kind == "gateway" and ctx.first(Device, system_id=dev.system_id, kind="battery", status="normal"):
        raise RuleViolation(
            "batteries need the gateway to run", field="device_id", hint="replace it under a case instead"
        )
    out = ctx.update(dev, status="retired")
    if dev.kind == "battery" and not [
        d for d in ctx.where(Device, system_id=dev.system_id, kind="battery") if d.status != "retired"
    ]:
        ctx.update(ctx.get(System, dev.system_id), battery_profile=None, battery_reserve_pct=None)
    _refresh(ctx, dev.system_id)
    return out


@service.tool(
    intent="record that the device reports again",
    write=True,
    example=first_example(Device, "device_id", where={"status": "not_reporting"}),
)
def mark_device_reporting(ctx: Ctx, device_id: DeviceId) -> Device:
    """Record that a not-reporting device reports again (after a reboot or a site visit).

    Args:
        device_id: The device.
    """
    dev = ctx.get(Device, device_id, field="device_id")
    if dev.status != "not_reporting":
        raise RuleViolation(f"the device is {dev.status}", field="device_id", hint="only silent devices come back")
    out = ctx.update(dev, status="normal", last_report_at=ctx.now())
    _refresh(ctx, dev.system_id)
    return out


def _example_profile(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.select(System, {"battery_profile": "self-consumption"}):
        return {"system_id": s.id, "profile": "savings", "reserve_pct": 30}
    return None


@service.tool(intent="change the battery profile of the system", write=True, example=_example_profile)
def set_battery_profile(
    ctx: Ctx, system_id: SystemId, profile: BatteryProfile, reserve_pct: Pct | None = None
) -> System:
    """Set a system's battery profile and backup reserve (backup_only always keeps 100%).

    Args:
        system_id: The system (it needs a battery).
        profile: self-consumption, savings or backup_only.
        reserve_pct: Charge kept for outages, 0-100 (default: 20, or 100 for backup_only).
    """
    system = _live_system(ctx, system_id)
    if system.battery_profile is None:
        raise RuleViolation("the system has no battery", field="system_id", hint="add a battery first")
    if profile == "backup_only" and reserve_pct not in (None, 100):
        raise RuleViolation("backup_only keeps a 100% reserve", field="reserve_pct", hint="omit reserve_pct")
    if profile == "savings" and reserve_pct is not None and reserve_pct > 80:
        raise RuleViolation("savings mode needs room to charge cheaply", field="reserve_pct", hint="use at most 80%")
    reserve = 100 if profile == "backup_only" else 20 if reserve_pct is None else reserve_pct
    return ctx.update(system, battery_profile=profile, battery_reserve_pct=reserve)


@service.tool(
    intent="show the system's energy report",
    example=first_example(System, "system_id", where={"status": "normal"}, start_date="2000-01-01"),
)
def energy_report(ctx: Ctx, system_id: SystemId, start_date: Date, end_date: Date | None = None) -> EnergyReport:
    """A system's produced and consumed energy between two days, its self-consumption and specific yield.

    Args:
        system_id: The system.
        start_date: First day.
        end_date: Last day (default: today).
    """
    system = ctx.get(System, system_id, field="system_id")
    end = end_date or ctx.today()
    if end < start_date:
        raise RuleViolation("end_date is before start_date", field="end_date", hint="swap the days")
    rows = [r for r in ctx.where(DailyEnergy, system_id=system.id) if start_date <= r.day <= end]
    produced = sum(r.produced_wh for r in rows)
    exported = sum(r.exported_wh for r in rows)
    return EnergyReport(
        system_id=system.id,
        start_date=start_date,
        end_date=end,
        days=len(rows),
        produced_wh=produced,
        consumed_wh=sum(r.consumed_wh for r in rows),
        self_consumption_pct=round(100 * (produced - exported) / produced, 1) if produced else 0.0,
        specific_yield_kwh_per_kw=round(produced / system.size_w, 2) if system.size_w else 0.0,
    )


# -- seed -------------------------------------------------------------------------------------

ALARMS: tuple[tuple[AlarmType, AlarmSeverity, DeviceKind | None], ...] = (
    ("micro_not_reporting", "medium", "microinverter"),
    ("gateway_offline", "high", "gateway"),
    ("production_drop", "low", None),
    ("battery_overtemp", "high", "battery"),
    ("grid_fault", "medium", None),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Systems at consumers' homes with devices, 30 days of telemetry, alarms in every state and service cases."""
    pop = s.population
    installers = pop.staff("Operations", "Engineering", "Customer Success", fallback=4)
    today = s.now.date()
    serial = 0
    for k, p in enumerate(pop.consumers[:12]):
        micros = 10 + (k * 3) % 14
        battery = k % 3 == 0
        built = today - dt.timedelta(days=200 + 320 * (k % 8))
        system = s.create(
            System,
            name=f"{p.last_name} Residence",
            owner_name=p.name,
            owner_email=p.email,
            address=p.address,
            timezone=p.place.timezone,
            installer_email=installers[k % len(installers)].email,
            size_w=micros * MICRO_W,
            battery_profile="self-consumption" if battery else None,
            battery_reserve_pct=20 if battery else None,
            operational_at=built,
            created_at=s.ago(days=(today - built).days + 3),
        )
        micro: DeviceKind = "microinverter"
        kinds: list[DeviceKind] = ["gateway", "meter", *([micro] * micros)]
        if battery:
            kinds.append("battery")
        made: list[Device] = []
        for kind in kinds:
            serial += 1
            prefix = {"microinverter": 4822, "battery": 4823, "gateway": 2022, "meter": 2024}[kind]
            made.append(
                s.create(
                    Device,
                    system_id=system.id,
                    kind=kind,
                    serial_number=f"{prefix}{built.year % 100:02d}{100000 + serial:06d}",
                    sku=MODELS[kind],
                    installed_on=built,
                    last_report_at=s.ago(minutes=15),
                    soc_pct=60 + k if kind == "battery" else None,
                )
            )
        for d in range(30, 0, -1):
            produced = round(system.size_w * (2.0 + 2.5 * s.rng.random()))
            consumed = 6000 + s.rng.randint(0, 9000)
            used = min(produced, consumed * (0.5 if not battery else 0.8))
            s.create(
                DailyEnergy,
                system_id=system.id,
                day=today - dt.timedelta(days=d),
                produced_wh=produced,
                consumed_wh=consumed,
                exported_wh=round(produced - used),
                imported_wh=round(consumed - used),
            )
        _seed_alarms(s, k, system, made, installers[k % len(installers)].email)


def _seed_alarms(s: SeedContext, k: int, system: System, made: list[Device], installer: str) -> None:
    """Every other system has a problem: an alarm in some state, maybe a silent device, and a case in some state."""
    if k % 2:
        return
    kind_alarm = ALARMS[(k // 2) % len(ALARMS)]
    atype, severity, kind = kind_alarm
    dev = next((d for d in made if d.kind == kind), None) if kind else None
    state: AlarmStatus = ("open", "acknowledged", "cleared")[(k // 2) % 3]
    if dev is not None and state != "cleared" and atype in ("micro_not_reporting", "gateway_offline"):
        s.update(dev, status="not_reporting", last_report_at=s.ago(days=2 + k))
        s.update(system, status="comm" if dev.kind == "gateway" else "micro")
    alarm = s.create(
        Alarm,
        system_id=system.id,
        device_id=dev.id if dev else None,
        alarm_type=atype,
        severity=severity,
        status=state,
        raised_at=s.ago(days=2 + k),
        cleared_at=s.ago(days=1) if state == "cleared" else None,
        updated_at=s.ago(days=1 + k % 2),
    )
    stages: dict[int, CaseStatus] = {2: "in_progress", 4: "resolved", 6: "new", 8: "awaiting_customer", 10: "closed"}
    case_status = stages.get(k)
    if case_status is not None:
        s.create(
            Case,
            system_id=system.id,
            subject=f"{atype.replace('_', ' ').capitalize()} at {system.name}",
            description="Raised from the fleet alarm; remote diagnostics first, site visit if needed.",
            alarm_id=alarm.id,
            assignee_email=installer,
            status=case_status,
            created_at=s.ago(days=1 + k),
            updated_at=s.ago(days=1),
        )
