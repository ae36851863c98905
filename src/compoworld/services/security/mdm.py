"""Orchard Device Manager: the company's Macs, iPhones and iPads, their profiles, policies and remote commands.

Modeled on Jamf Pro API (v1 computers-inventory, mobile-devices, configuration
profiles, policies, and MDM commands). Computers and mobile devices are
enrolled to an owner from the staff, with serial numbers unique across the
fleet. Configuration profiles are per platform (macOS profiles scope computers,
iOS profiles scope mobile devices) and need at least one payload; profile and
policy names are unique. Policies run on a trigger (check-in, enrollment,
login, or a custom event that must be named) at a frequency. Management
commands go only to managed devices; a device that checked in within the last
day acknowledges at once, otherwise the command stays pending, and a device
holds one pending command of each kind. Locking a computer needs a six-digit
PIN, locking a mobile device needs a device passcode; erasing needs a PIN on a
computer and supervision on a mobile device, and unenrolls it; lost mode is for
supervised devices and needs a message or phone number.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "mdm",
    title="Orchard Device Manager",
    category="device_management",
    modeled_on="Jamf Pro API v1 (computers-inventory, mobile-devices, os-x-configuration-profiles and "
    "mobile-device-configuration-profiles, policies, MDM commands: DeviceLock, EraseDevice, lost mode)",
    description="Apple device management for the company: enrolled Macs and iPhones/iPads with their owners "
    "and inventory (OS, encryption, supervision), configuration profiles scoped to devices, policies run on "
    "triggers, and remote management commands such as lock, erase, lost mode and inventory update.",
)

ComputerId = Annotated[str, IdOf("mdm.computer")]
MobileDeviceId = Annotated[str, IdOf("mdm.mobile_device")]
ProfileId = Annotated[str, IdOf("mdm.configuration_profile")]
PolicyId = Annotated[str, IdOf("mdm.policy")]
CommandId = Annotated[str, IdOf("mdm.command")]

Serial = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{10,12}$")]
"""An Apple serial number."""
OsVersion = Annotated[str, StringConstraints(pattern=r"^\d{1,2}\.\d{1,2}(\.\d{1,2})?$")]
"""An OS version such as 14.4.1."""
Pin = Annotated[str, StringConstraints(pattern=r"^\d{6}$")]
"""A six-digit PIN."""
ShortName = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]
"""A device or event name."""

Platform = Literal["macOS", "iOS"]
PayloadType = Literal["wifi", "vpn", "passcode", "filevault", "firewall", "restrictions", "certificate", "email"]
Trigger = Literal["recurring_checkin", "enrollment", "login", "custom"]
Frequency = Literal["once_per_computer", "once_per_day", "once_per_week", "ongoing"]
ComputerCommand = Literal["DeviceLock", "EraseDevice", "RestartDevice", "UpdateInventory"]
MobileCommand = Literal["DeviceLock", "EraseDevice", "EnableLostMode", "DisableLostMode", "UpdateInventory"]
CommandStatus = Literal["Pending", "Acknowledged", "Canceled"]

ONLINE = dt.timedelta(hours=24)
CURRENT = {"macOS": (14, 4), "iOS": (17, 4)}
"""The OS release the company requires (major, minor)."""


class Computer(Record):
    """A Mac enrolled in management."""

    id: ComputerId
    name: ShortName
    """The computer name."""
    serial_number: Serial
    """Its serial number (unique)."""
    hardware_model: Annotated[str, StringConstraints(min_length=1, max_length=60)]
    """The hardware model."""
    os_version: OsVersion
    """The macOS version."""
    owner_email: Email | None = None
    """The employee it is assigned to."""
    owner_name: PersonName | None = None
    """That employee's name."""
    managed: bool = True
    """Whether it is enrolled and accepts commands."""
    filevault_enabled: bool = True
    """Whether its disk is encrypted."""
    locked: bool = False
    """Whether a lock command locked it."""
    last_check_in: DateTime
    """When it last contacted the server."""
    last_inventory_update: DateTime
    """When its inventory was last collected."""
    enrolled_at: Annotated[DateTime, CREATED]
    """When it was enrolled."""


class MobileDevice(Record):
    """An iPhone or iPad enrolled in management."""

    id: MobileDeviceId
    name: ShortName
    """The device name."""
    serial_number: Serial
    """Its serial number (unique)."""
    hardware_model: Annotated[str, StringConstraints(min_length=1, max_length=60)]
    """The hardware model."""
    os_version: OsVersion
    """The iOS/iPadOS version."""
    phone_number: Phone | None = None
    """Its phone number, if it has a line."""
    owner_email: Email | None = None
    """The employee it is assigned to."""
    owner_name: PersonName | None = None
    """That employee's name."""
    managed: bool = True
    """Whether it is enrolled and accepts commands."""
    supervised: bool = False
    """Whether it is supervised (company-owned, enrolled through Automated Device Enrollment)."""
    passcode_present: bool = True
    """Whether the user set a passcode."""
    lost_mode_enabled: bool = False
    """Whether lost mode is on."""
    last_check_in: DateTime
    """When it last contacted the server."""
    last_inventory_update: DateTime
    """When its inventory was last collected."""
    enrolled_at: Annotated[DateTime, CREATED]
    """When it was enrolled."""


class ConfigurationProfile(Record):
    """A configuration profile and the devices in its scope."""

    id: ProfileId
    name: Title
    """Its name (unique per platform)."""
    platform: Platform
    """macOS (for computers) or iOS (for mobile devices)."""
    payloads: tuple[PayloadType, ...]
    """The settings it carries."""
    all_devices: bool = False
    """Whether it is scoped to every device of its platform."""
    computer_ids: tuple[ComputerId, ...] = ()
    """Computers in scope (macOS profiles)."""
    mobile_device_ids: tuple[MobileDeviceId, ...] = ()
    """Mobile devices in scope (iOS profiles)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Policy(Record):
    """A policy that runs on computers on a trigger."""

    id: PolicyId
    name: Title
    """Its name (unique)."""
    enabled: bool = True
    """Whether it runs."""
    trigger: Trigger
    """recurring_checkin, enrollment, login or custom."""
    custom_event: ShortName | None = None
    """The event name a custom trigger listens for."""
    frequency: Frequency = "once_per_computer"
    """once_per_computer, once_per_day, once_per_week or ongoing."""
    all_computers: bool = False
    """Whether it is scoped to every computer."""
    computer_ids: tuple[ComputerId, ...] = ()
    """Computers in scope."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Command(Record):
    """A management command sent to one device."""

    id: CommandId
    command: Literal[
        "DeviceLock", "EraseDevice", "RestartDevice", "UpdateInventory", "EnableLostMode", "DisableLostMode"
    ]
    """What the device is told to do."""
    computer_id: ComputerId | None = None
    """The computer, for a computer command."""
    mobile_device_id: MobileDeviceId | None = None
    """The mobile device, for a mobile command."""
    status: CommandStatus
    """Pending (the device has not checked in), Acknowledged or Canceled."""
    message: Text = ""
    """The lock or lost-mode message."""
    issued_by: Email
    """The administrator who sent it."""
    issued_at: Annotated[DateTime, CREATED]
    """When it was sent."""
    updated_at: Annotated[DateTime, UPDATED]
    """When its status last changed."""


class OsCount(Value):
    """How many devices run one OS version."""

    platform: Platform
    """macOS or iOS."""
    os_version: OsVersion
    """The version."""
    devices: int
    """How many managed devices run it."""
    compliant: bool
    """Whether it meets the required release."""


class Inventory(Value):
    """The managed fleet at a glance."""

    computers: int
    """Managed computers."""
    mobile_devices: int
    """Managed mobile devices."""
    unencrypted_computers: tuple[ComputerId, ...]
    """Managed computers without FileVault."""
    outdated: int
    """Managed devices below the required OS release."""
    stale: int
    """Managed devices that have not checked in for 30 days."""
    by_os: tuple[OsCount, ...]
    """Devices per OS version."""


# -- rules ------------------------------------------------------------------------------------


def _owner(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.owner_email == old.owner_email:
        return
    if new.owner_email is None:
        ctx.update(new, owner_name=None)
        return
    person = next((p for p in ctx.population.employees if p.email == new.owner_email), None)
    if person is None:
        raise RuleViolation(
            f"{new.owner_email} is not a user of the company", field="owner_email", hint="assign it to an employee"
        )
    ctx.update(new, owner_name=person.name)


def _unique_name(ctx: Ctx, model: Any, new: Any, **scope: Any) -> None:
    for other in ctx.where(model, name=new.name, **scope):
        if other.id != new.id:
            raise Conflict(f"{other.id} is already named {new.name!r}", field="name", hint="choose another name")


def _guard_profile(ctx: Ctx, new: Any, old: Any) -> None:
    _unique_name(ctx, ConfigurationProfile, new, platform=new.platform)
    if not new.payloads or len(set(new.payloads)) != len(new.payloads):
        raise RuleViolation(
            "a profile needs at least one payload, each once", field="payloads", hint="list distinct payload types"
        )
    if new.platform == "macOS" and new.mobile_device_ids:
        raise RuleViolation(
            "a macOS profile scopes computers only", field="mobile_device_ids", hint="scope computer_ids instead"
        )
    if new.platform == "iOS" and new.computer_ids:
        raise RuleViolation(
            "an iOS profile scopes mobile devices only", field="computer_ids", hint="scope mobile_device_ids instead"
        )
    if new.platform == "iOS" and "filevault" in new.payloads:
        raise RuleViolation("FileVault is a macOS payload", field="payloads", hint="use it in a macOS profile")


def _guard_policy(ctx: Ctx, new: Any, old: Any) -> None:
    _unique_name(ctx, Policy, new)
    if new.trigger == "custom" and not new.custom_event:
        raise RuleViolation(
            "a custom trigger needs its event name", field="custom_event", hint="name the event, e.g. installZoom"
        )
    if new.trigger != "custom" and new.custom_event:
        raise RuleViolation(
            "only a custom trigger takes an event name", field="custom_event", hint="drop it or use trigger custom"
        )
    if new.trigger == "enrollment" and new.frequency == "ongoing":
        raise RuleViolation(
            "an enrollment policy runs once per computer", field="frequency", hint="use once_per_computer"
        )


computers = service.resource(
    Computer,
    name="computer",
    plural="computers",
    prefix="comp",
    create=False,
    filters=("owner_email", "managed", "filevault_enabled", "os_version", "serial_number", "hardware_model"),
    search=("name", "owner_name"),
    update=("name", "owner_email"),
    delete=False,
    guard_update=_owner,
)
mobile_devices = service.resource(
    MobileDevice,
    name="mobile_device",
    plural="mobile_devices",
    prefix="mob",
    create=False,
    filters=(
        "owner_email",
        "managed",
        "supervised",
        "lost_mode_enabled",
        "os_version",
        "serial_number",
        "hardware_model",
    ),
    search=("name", "owner_name"),
    update=("name", "owner_email"),
    delete=False,
    guard_update=_owner,
)
profiles = service.resource(
    ConfigurationProfile,
    name="configuration_profile",
    plural="configuration_profiles",
    prefix="prof",
    create=("name", "platform", "payloads", "all_devices", "computer_ids", "mobile_device_ids"),
    get=False,
    filters=("platform", "all_devices"),
    search=("name",),
    update=("name", "payloads", "all_devices", "computer_ids", "mobile_device_ids"),
    delete=False,
    guard_create=_guard_profile,
    guard_update=_guard_profile,
)
policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=("name", "trigger", "custom_event", "frequency", "all_computers", "computer_ids", "enabled"),
    get=False,
    filters=("enabled", "trigger", "frequency"),
    search=("name",),
    update=("enabled", "frequency", "all_computers", "computer_ids"),
    delete=False,
    guard_create=_guard_policy,
    guard_update=_guard_policy,
)
commands = service.resource(
    Command,
    name="command",
    plural="commands",
    prefix="cmd",
    create=False,
    get=False,
    filters=("computer_id", "mobile_device_id", "command", "status", "issued_by"),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("Pending",),
            "Canceled",
            "cancel the pending command",
            description="Cancel a command the device has not picked up yet.",
        )
    },
    title="management command",
)


# -- commands ---------------------------------------------------------------------------------


def _admin(ctx: Ctx, email: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a Jamf Pro user", field="issued_by", hint="send as an administrator")


def _managed(device: Computer | MobileDevice, field: str) -> None:
    if not device.managed:
        raise RuleViolation(
            f"{device.name} is not managed and cannot receive commands",
            field=field,
            hint="re-enroll the device first",
        )


def _no_pending(ctx: Ctx, command: str, field: str, **device: str) -> None:
    pending = ctx.first(Command, command=command, status="Pending", **device)
    if pending is not None:
        raise Conflict(
            f"{command} is already pending for the device ({pending.id})",
            field=field,
            hint="wait for the device to check in, or cancel it with mdm__cancel_command",
        )


def _online(ctx: Ctx, device: Computer | MobileDevice) -> bool:
    return ctx.now() - device.last_check_in <= ONLINE


@service.tool(
    intent="send a management command to the computer",
    write=True,
    destructive=True,
    example=first_example(Computer, "computer_id", where={"managed": True}, command="UpdateInventory"),
)
def send_computer_command(
    ctx: Ctx,
    computer_id: ComputerId,
    command: ComputerCommand,
    issued_by: Email | None = None,
    pin: Pin | None = None,
    message: Text = "",
) -> Command:
    """Send a command to a managed Mac; it is acknowledged at once if the Mac checked in within a day.

    Args:
        computer_id: The computer.
        command: DeviceLock, EraseDevice, RestartDevice or UpdateInventory.
        issued_by: The administrator (an employee); defaults to the first IT administrator.
        pin: The six-digit PIN that DeviceLock and EraseDevice need to unlock the Mac afterwards.
        message: The message a locked Mac shows.
    """
    mac = ctx.get(Computer, computer_id, field="computer_id")
    admin = issued_by or ctx.population.employees[0].email
    _admin(ctx, admin)
    _managed(mac, "computer_id")
    if command in ("DeviceLock", "EraseDevice") and pin is None:
        raise RuleViolation(f"{command} needs a six-digit PIN", field="pin", hint="choose a PIN and keep it")
    if command not in ("DeviceLock", "EraseDevice") and pin is not None:
        raise RuleViolation(f"{command} takes no PIN", field="pin", hint="leave pin out")
    _no_pending(ctx, command, "command", computer_id=mac.id)
    online = _online(ctx, mac)
    cmd = ctx.create(
        Command,
        command=command,
        computer_id=mac.id,
        status="Acknowledged" if online else "Pending",
        message=message,
        issued_by=admin,
    )
    if online:
        if command == "DeviceLock":
            ctx.update(mac, locked=True)
        elif command == "EraseDevice":
            ctx.update(mac, managed=False, locked=False)
        elif command == "UpdateInventory":
            ctx.update(mac, last_inventory_update=ctx.now(), last_check_in=ctx.now())
    return cmd


@service.tool(
    intent="send a management command to the mobile device",
    write=True,
    destructive=True,
    example=first_example(MobileDevice, "mobile_device_id", where={"managed": True}, command="UpdateInventory"),
)
def send_mobile_device_command(
    ctx: Ctx,
    mobile_device_id: MobileDeviceId,
    command: MobileCommand,
    issued_by: Email | None = None,
    message: Text = "",
    phone: Phone | None = None,
) -> Command:
    """Send a command to a managed iPhone or iPad; it is acknowledged at once if it checked in within a day.

    Args:
        mobile_device_id: The device.
        command: DeviceLock, EraseDevice, EnableLostMode, DisableLostMode or UpdateInventory.
        issued_by: The administrator (an employee); defaults to the first IT administrator.
        message: The message the lock screen or lost mode shows.
        phone: A phone number lost mode shows.
    """
    dev = ctx.get(MobileDevice, mobile_device_id, field="mobile_device_id")
    admin = issued_by or ctx.population.employees[0].email
    _admin(ctx, admin)
    _managed(dev, "mobile_device_id")
    if command == "DeviceLock" and not dev.passcode_present:
        raise RuleViolation(
            f"{dev.name} has no passcode, so locking it would not protect it",
            field="mobile_device_id",
            hint="enforce a passcode with a profile, or use EnableLostMode on a supervised device",
        )
    if command in ("EraseDevice", "EnableLostMode") and not dev.supervised:
        raise RuleViolation(
            f"{command} needs a supervised device and {dev.name} is not supervised",
            field="command",
            hint="lock it with DeviceLock instead",
        )
    if command == "EnableLostMode":
        if dev.lost_mode_enabled:
            raise Conflict(f"{dev.name} is already in lost mode", field="command", hint="nothing to do")
        if not message.strip() and phone is None:
            raise RuleViolation("lost mode needs a message or a phone number", field="message", hint="say whom to call")
    if command == "DisableLostMode" and not dev.lost_mode_enabled:
        raise RuleViolation(f"{dev.name} is not in lost mode", field="command", hint="nothing to disable")
    _no_pending(ctx, command, "command", mobile_device_id=dev.id)
    online = _online(ctx, dev)
    cmd = ctx.create(
        Command,
        command=command,
        mobile_device_id=dev.id,
        status="Acknowledged" if online else "Pending",
        message=message.strip() + (f" Call {phone}." if phone else ""),
        issued_by=admin,
    )
    if online:
        if command == "EraseDevice":
            ctx.update(dev, managed=False, lost_mode_enabled=False)
        elif command in ("EnableLostMode", "DisableLostMode"):
            ctx.update(dev, lost_mode_enabled=command == "EnableLostMode")
        elif command == "UpdateInventory":
            ctx.update(dev, last_inventory_update=ctx.now(), last_check_in=ctx.now())
    return cmd


def _compliant(platform: str, version: str) -> bool:
    parts = [int(x) for x in version.split(".")]
    return (parts[0], parts[1]) >= CURRENT[platform]


@service.tool(intent="summarize the device inventory")
def inventory_summary(ctx: Ctx) -> Inventory:
    """The managed fleet: counts, unencrypted Macs, devices below the required OS release, stale check-ins."""
    macs = [c for c in ctx.scan(Computer) if c.managed]
    mobiles = [m for m in ctx.scan(MobileDevice) if m.managed]
    counts: dict[tuple[Platform, str], int] = {}
    for c in macs:
        counts[("macOS", c.os_version)] = counts.get(("macOS", c.os_version), 0) + 1
    for m in mobiles:
        counts[("iOS", m.os_version)] = counts.get(("iOS", m.os_version), 0) + 1
    cutoff = ctx.now() - dt.timedelta(days=30)
    devices: list[Computer | MobileDevice] = [*macs, *mobiles]
    return Inventory(
        computers=len(macs),
        mobile_devices=len(mobiles),
        unencrypted_computers=tuple(c.id for c in macs if not c.filevault_enabled),
        outdated=sum(n for (p, v), n in counts.items() if not _compliant(p, v)),
        stale=sum(d.last_check_in < cutoff for d in devices),
        by_os=tuple(
            OsCount(platform=p, os_version=v, devices=n, compliant=_compliant(p, v))
            for (p, v), n in sorted(counts.items())
        ),
    )


# -- seed -------------------------------------------------------------------------------------

MACS = (
    ("MacBook Pro (14-inch, M3)", "14.4.1"),
    ("MacBook Air (M2)", "14.3"),
    ("MacBook Pro (16-inch, 2019)", "13.6.4"),
)
PHONES = (("iPhone 15", "17.4"), ("iPhone 13", "17.2.1"), ("iPad Air (5th generation)", "16.7.5"))


def _serial(s: SeedContext, used: set[str]) -> str:
    while True:
        cand = "".join(s.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(10))
        if cand not in used:
            used.add(cand)
            return cand


@service.seeder
def seed(s: SeedContext) -> None:
    """A Mac for most employees and phones for many, some stale, unmanaged or unsupervised; profiles and policies."""
    pop = s.population
    used: set[str] = set()
    macs: list[Computer] = []
    phones: list[MobileDevice] = []
    for k, p in enumerate(pop.employees[:24]):
        model, version = MACS[k % len(MACS)]
        seen = s.ago(hours=2 + k) if k % 6 != 5 else s.ago(days=40 + k)
        macs.append(
            s.create(
                Computer,
                name=f"{p.first_name}'s MacBook"[:80],
                serial_number=_serial(s, used),
                hardware_model=model,
                os_version=version,
                owner_email=p.email,
                owner_name=p.name,
                managed=k != 23,
                filevault_enabled=k % 7 != 3,
                last_check_in=seen,
                last_inventory_update=seen - dt.timedelta(hours=1),
                enrolled_at=s.ago(days=500 - 15 * k),
            )
        )
        if k % 2 == 0:
            pmodel, pversion = PHONES[(k // 2) % len(PHONES)]
            pseen = s.ago(hours=1 + k) if k % 8 != 6 else s.ago(days=3)
            phones.append(
                s.create(
                    MobileDevice,
                    name=f"{p.first_name}'s {pmodel.split(' (')[0]}"[:80],
                    serial_number=_serial(s, used),
                    hardware_model=pmodel,
                    os_version=pversion,
                    phone_number=p.phone if pmodel.startswith("iPhone") else None,
                    owner_email=p.email,
                    owner_name=p.name,
                    supervised=k % 4 == 0,
                    passcode_present=k % 10 != 2,
                    lost_mode_enabled=k == 8,
                    last_check_in=pseen,
                    last_inventory_update=pseen,
                    enrolled_at=s.ago(days=300 - 10 * k),
                )
            )
    for name, platform, payloads, everyone in (
        ("Corporate Wi-Fi", "macOS", ("wifi", "certificate"), True),
        ("Disk encryption", "macOS", ("filevault",), True),
        ("Firewall on", "macOS", ("firewall",), True),
        ("Corporate Wi-Fi", "iOS", ("wifi", "certificate"), True),
        ("Passcode policy", "iOS", ("passcode",), True),
        ("Mail for executives", "iOS", ("email", "vpn"), False),
    ):
        s.create(
            ConfigurationProfile,
            name=name,
            platform=platform,
            payloads=payloads,
            all_devices=everyone,
            mobile_device_ids=() if everyone else tuple(m.id for m in phones[:3]),
            created_at=s.ago(days=200),
            updated_at=s.ago(days=30),
        )
    for name, trigger, event, freq, everyone in (
        ("Install security agent", "enrollment", None, "once_per_computer", True),
        ("Software updates", "recurring_checkin", None, "once_per_week", True),
        ("Inventory collection", "recurring_checkin", None, "once_per_day", True),
        ("Install Zoom", "custom", "installZoom", "ongoing", True),
        ("Legacy VPN client", "login", None, "ongoing", False),
    ):
        s.create(
            Policy,
            name=name,
            trigger=trigger,
            custom_event=event,
            frequency=freq,
            all_computers=everyone,
            computer_ids=() if everyone else tuple(c.id for c in macs[:4]),
            enabled=name != "Legacy VPN client",
            created_at=s.ago(days=250),
        )
    admin = pop.staff("Engineering", "IT", fallback=1)[0].email
    stale = next(c for c in macs if c.managed and c.last_check_in < s.ago(days=30))
    s.create(
        Command,
        command="UpdateInventory",
        computer_id=stale.id,
        status="Pending",
        issued_by=admin,
        issued_at=s.ago(days=5),
        updated_at=s.ago(days=5),
    )
    lost = next(m for m in phones if m.lost_mode_enabled)
    s.create(
        Command,
        command="EnableLostMode",
        mobile_device_id=lost.id,
        status="Acknowledged",
        message="This phone is lost. Please call the IT desk.",
        issued_by=admin,
        issued_at=s.ago(days=2),
        updated_at=s.ago(days=2),
    )
