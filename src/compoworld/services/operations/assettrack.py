"""Tagtrail: real-time tracking of tools and equipment by RFID and BLE tags, zones, check-out and alerts.

Modeled on Zebra MotionWorks / Zebra DNA asset visibility and Samsara's asset
gateway API (``/assets``, ``/tags``, ``/addresses`` as zones, location
reads, check-out): zones (storage, production, dock, yard, office) each with
a reader gateway; RFID UHF and BLE tags registered by their EPC or MAC (unique),
attached to one asset at a time and retired only when detached; assets with an
asset tag number that go available ↔ checked_out, → missing when a sweep finds
them unseen for longer than the threshold, back to available on the next read,
and retired (never while checked out). A gateway read of an attached tag in
an active zone moves the asset there, clears its missing alert and raises a
low-battery alert for a BLE tag under 20%. Check-out goes to an employee for at
most 30 days; check-in closes the loan and puts the asset in the zone it is
returned to; the sweep also flags overdue loans. Alerts go open → acknowledged
→ resolved, and one asset has at most one open alert of each kind.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Date, DateTime, Email, IdOf, SemanticType, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "assettrack",
    title="Tagtrail",
    category="asset_tracking",
    modeled_on="Zebra MotionWorks asset visibility and Samsara asset gateways API (assets, RFID/BLE tags, "
    "zones and gateways, location reads, check-out/check-in, missing-asset and battery alerts)",
    description="Tracking of the company's tools, carts and equipment: zones with reader gateways, RFID and "
    "BLE tags attached to assets, the reads that place them, check-out to employees and check-in, and "
    "alerts for missing assets, overdue loans and low tag batteries.",
)

ZoneId = Annotated[str, IdOf("assettrack.zone")]
TagId = Annotated[str, IdOf("assettrack.tag")]
AssetId = Annotated[str, IdOf("assettrack.asset")]
ReadId = Annotated[str, IdOf("assettrack.read")]
LoanId = Annotated[str, IdOf("assettrack.checkout")]
AlertId = Annotated[str, IdOf("assettrack.alert")]

TagCode = Annotated[
    str,
    SemanticType("rfid.tag_code", kind="ref"),
    StringConstraints(pattern=r"^([0-9A-F]{24}|([0-9A-F]{2}:){5}[0-9A-F]{2})$"),
]
"""An RFID EPC (24 hex digits) or a BLE tag's MAC address."""
GatewaySerial = Annotated[str, StringConstraints(pattern=r"^GW-[A-Z0-9]{4,12}$")]
ZoneKind = Literal["storage", "production", "dock", "yard", "office"]
TagTech = Literal["rfid_uhf", "ble"]
AssetKind = Literal["power_tool", "test_equipment", "pallet_jack", "laptop_cart", "container", "ladder"]
AssetStatus = Literal["available", "checked_out", "missing", "retired"]
AlertKind = Literal["missing", "overdue_return", "low_battery"]
AlertStatus = Literal["open", "acknowledged", "resolved"]
Battery = Annotated[int, Field(ge=0, le=100)]

MAX_LOAN = dt.timedelta(days=30)
LOW_BATTERY = 20


class Zone(Timestamped):
    """An area covered by a reader gateway."""

    id: ZoneId
    name: Title
    """The zone's name."""
    kind: ZoneKind
    """storage, production, dock, yard or office."""
    city: City
    """The site's city."""
    gateway_serial: GatewaySerial
    """The reader gateway covering it."""
    status: Literal["active", "inactive"] = "active"
    """active or inactive (gateway off)."""


class Tag(Timestamped):
    """An RFID or BLE tag."""

    id: TagId
    code: TagCode
    """Its EPC or MAC address (unique)."""
    tech: TagTech
    """rfid_uhf or ble."""
    battery_pct: Battery | None = None
    """Last reported battery (BLE only)."""
    asset_id: AssetId | None = None
    """The asset it is attached to."""
    status: Literal["unassigned", "attached", "retired"] = "unassigned"
    """unassigned, attached or retired."""


class Asset(Timestamped):
    """A tracked tool or piece of equipment."""

    id: AssetId
    asset_tag: Annotated[str, Generated("sequence", "AT-{n:05d}")]
    """Its asset tag number."""
    name: Title
    """What it is."""
    kind: AssetKind
    """power_tool, test_equipment, pallet_jack, laptop_cart, container or ladder."""
    serial_number: Annotated[str, StringConstraints(min_length=1, max_length=60)] | None = None
    """The maker's serial number."""
    home_zone_id: ZoneId
    """Where it belongs."""
    current_zone_id: ZoneId | None = None
    """Where it was last read."""
    tag_id: TagId | None = None
    """Its tag."""
    status: AssetStatus = "available"
    """available, checked_out, missing or retired."""
    custodian_email: Email | None = None
    """The employee who has it out."""
    last_seen_at: DateTime | None = None
    """When a gateway last read it."""


class Read(Created):
    """A gateway read of a tag."""

    id: ReadId
    tag_id: TagId
    """The tag."""
    asset_id: AssetId
    """Its asset."""
    zone_id: ZoneId
    """Where it was read."""
    rssi: Annotated[int, Field(ge=-120, le=0)] = -60
    """Signal strength in dBm."""


class Checkout(Timestamped):
    """A loan of an asset to an employee."""

    id: LoanId
    asset_id: AssetId
    """The asset."""
    person_email: Email
    """The employee who took it."""
    due_back: Date
    """When it must be returned."""
    returned_at: DateTime | None = None
    """When it came back."""
    return_zone_id: ZoneId | None = None
    """Where it was returned."""
    status: Literal["open", "returned"] = "open"
    """open or returned."""
    purpose: Text = ""
    """What it was taken for."""


class Alert(Timestamped):
    """An alert about an asset."""

    id: AlertId
    asset_id: AssetId
    """The asset."""
    kind: AlertKind
    """missing, overdue_return or low_battery."""
    message: Text
    """What happened."""
    status: AlertStatus = "open"
    """open, acknowledged or resolved."""


# -- rules ------------------------------------------------------------------------------------


def _active_zone(ctx: Ctx, zone_id: str, field: str) -> Zone:
    zone = ctx.get(Zone, zone_id, field=field)
    if zone.status != "active":
        raise RuleViolation(f"zone {zone.name!r} is inactive", field=field, hint="pick an active zone")
    return zone


def _guard_asset(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.home_zone_id != old.home_zone_id:
        _active_zone(ctx, new.home_zone_id, "home_zone_id")
    if old is not None and old.status == "retired":
        raise RuleViolation("the asset is retired", field="asset_id", hint="retired assets do not change")
    if old is not None and new.status == "retired" and old.status == "checked_out":
        raise RuleViolation("the asset is checked out", field="asset_id", hint="check it in first")
    if old is not None and new.status == "retired" and new.tag_id is not None:
        tag = ctx.get(Tag, new.tag_id)
        ctx.update(tag, asset_id=None, status="unassigned")
        ctx.update(new, tag_id=None)


def _guard_tag(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "retired" and old.status == "attached":
        raise RuleViolation("the tag is attached to an asset", field="tag_id", hint="detach it first")


def _guard_zone(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.status == "inactive":
        homed = [a.asset_tag for a in ctx.where(Asset, home_zone_id=new.id) if a.status != "retired"]
        if homed:
            raise RuleViolation(
                f"zone is home to {', '.join(homed[:5])}", field="zone_id", hint="move those assets' home first"
            )


zones = service.resource(
    Zone,
    name="zone",
    plural="zones",
    prefix="zone",
    create=False,
    filters=("kind", "city", "status", "gateway_serial"),
    search=("name",),
    update=("name", "kind"),
    delete=False,
    transitions={
        "deactivate": Transition("status", ("active",), "inactive", "deactivate the zone"),
        "activate": Transition("status", ("inactive",), "active", "activate the zone"),
    },
    guard_update=_guard_zone,
)
tags = service.resource(
    Tag,
    name="tag",
    plural="tags",
    prefix="tag",
    create=False,
    filters=("code", "tech", "status", "asset_id"),
    delete=False,
    transitions={"retire": Transition("status", ("unassigned",), "retired", "retire the tag", destructive=True)},
    guard_update=_guard_tag,
)
assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="ast",
    create=("name", "kind", "serial_number", "home_zone_id"),
    filters=("asset_tag", "kind", "status", "home_zone_id", "current_zone_id", "custodian_email", "tag_id"),
    search=("name", "serial_number"),
    update=("name", "home_zone_id", "serial_number"),
    delete=False,
    transitions={
        "retire": Transition(
            "status",
            ("available", "missing"),
            "retired",
            "retire the asset",
            destructive=True,
            description="Retire an asset that is not checked out; its tag is detached for reuse.",
        )
    },
    guard_create=_guard_asset,
    guard_update=_guard_asset,
)
reads = service.resource(
    Read,
    name="read",
    plural="reads",
    prefix="read",
    create=False,
    get=False,
    filters=("tag_id", "asset_id", "zone_id"),
    delete=False,
    title="tag read",
)
checkouts = service.resource(
    Checkout,
    name="checkout",
    plural="checkouts",
    prefix="loan",
    create=False,
    filters=("asset_id", "person_email", "status", "due_back"),
    search=("purpose",),
    delete=False,
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="alrt",
    create=False,
    filters=("asset_id", "kind", "status"),
    search=("message",),
    delete=False,
    transitions={
        "acknowledge": Transition("status", ("open",), "acknowledged", "acknowledge the alert"),
        "resolve": Transition("status", ("open", "acknowledged"), "resolved", "resolve the alert"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _example_zone(ctx: Ctx) -> dict[str, Any] | None:
    return {"name": "Mezzanine", "kind": "storage", "city": ctx.population.home.place.city, "gateway_serial": "GW-7001"}


@service.tool(intent="set up the zone", write=True, example=_example_zone)
def create_zone(ctx: Ctx, name: Title, kind: ZoneKind, city: City, gateway_serial: GatewaySerial) -> Zone:
    """Set up a zone covered by a reader gateway; each gateway covers one zone.

    Args:
        name: The zone's name.
        kind: storage, production, dock, yard or office.
        city: The site's city.
        gateway_serial: The gateway's serial number, GW- and 4-12 letters or digits.
    """
    other = ctx.first(Zone, gateway_serial=gateway_serial)
    if other is not None:
        raise Conflict(f"gateway {gateway_serial} covers {other.name!r}", field="gateway_serial", hint="use another")
    return ctx.create(Zone, name=name, kind=kind, city=city, gateway_serial=gateway_serial)


@service.tool(
    intent="register the tag", write=True, example=fixed_example(code="E28011700000020F1A2B3C4D", tech="rfid_uhf")
)
def register_tag(ctx: Ctx, code: TagCode, tech: TagTech, battery_pct: Battery | None = None) -> Tag:
    """Register a new tag by its EPC (RFID) or MAC address (BLE); codes are unique.

    Args:
        code: 24 hex digits for an RFID EPC, or a MAC address such as AC:23:3F:A1:B2:C3 for BLE.
        tech: rfid_uhf or ble.
        battery_pct: Battery level of a BLE tag.
    """
    if (":" in code) != (tech == "ble"):
        raise RuleViolation(
            f"a {tech} tag's code is {'a MAC address' if tech == 'ble' else 'a 24-digit EPC'}",
            field="code",
            hint="check the code printed on the tag",
        )
    if tech == "rfid_uhf" and battery_pct is not None:
        raise RuleViolation("passive RFID tags have no battery", field="battery_pct", hint="leave it empty")
    known = ctx.first(Tag, code=code)
    if known is not None:
        raise Conflict(f"tag {code} is already registered as {known.id}", field="code", hint="use that tag")
    return ctx.create(
        Tag, code=code, tech=tech, battery_pct=100 if tech == "ble" and battery_pct is None else battery_pct
    )


def _example_attach(ctx: Ctx) -> dict[str, Any] | None:
    tag = ctx.first(Tag, status="unassigned")
    asset = next((a for a in ctx.scan(Asset) if a.tag_id is None and a.status != "retired"), None)
    return None if tag is None or asset is None else {"tag_id": tag.id, "asset_id": asset.id}


@service.tool(intent="attach the tag to the asset", write=True, example=_example_attach)
def attach_tag(ctx: Ctx, tag_id: TagId, asset_id: AssetId) -> Asset:
    """Attach an unassigned tag to an asset that has none.

    Args:
        tag_id: The tag.
        asset_id: The asset.
    """
    tag = ctx.get(Tag, tag_id, field="tag_id")
    if tag.status != "unassigned":
        raise RuleViolation(f"tag is {tag.status}", field="tag_id", hint="use an unassigned tag")
    asset = ctx.get(Asset, asset_id, field="asset_id")
    if asset.status == "retired":
        raise RuleViolation("the asset is retired", field="asset_id", hint="tag a live asset")
    if asset.tag_id is not None:
        raise Conflict(f"{asset.asset_tag} already has tag {asset.tag_id}", field="asset_id", hint="detach it first")
    ctx.update(tag, asset_id=asset.id, status="attached")
    return ctx.update(asset, tag_id=tag.id)


@service.tool(
    intent="detach the tag from the asset",
    write=True,
    example=first_example(Asset, "asset_id", match=lambda c, a: a.tag_id is not None),
)
def detach_tag(ctx: Ctx, asset_id: AssetId) -> Asset:
    """Detach an asset's tag; the tag becomes unassigned.

    Args:
        asset_id: The asset.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    if asset.tag_id is None:
        raise RuleViolation(f"{asset.asset_tag} has no tag", field="asset_id", hint="nothing to detach")
    ctx.update(ctx.get(Tag, asset.tag_id), asset_id=None, status="unassigned")
    return ctx.update(asset, tag_id=None)


def _open_alert(ctx: Ctx, asset: Asset, kind: AlertKind, message: str) -> None:
    if not any(a.status != "resolved" for a in ctx.where(Alert, asset_id=asset.id, kind=kind)):
        ctx.create(Alert, asset_id=asset.id, kind=kind, message=message)


def _example_read(ctx: Ctx) -> dict[str, Any] | None:
    tag, zone = ctx.first(Tag, status="attached"), ctx.first(Zone, status="active")
    return None if tag is None or zone is None else {"code": tag.code, "zone_id": zone.id, "rssi": -55}


@service.tool(intent="record a gateway read", write=True, example=_example_read)
def record_read(ctx: Ctx, code: TagCode, zone_id: ZoneId, rssi: int = -60, battery_pct: Battery | None = None) -> Read:
    """Record a gateway's read of a tag: its asset moves to the zone, is seen now, and is found if missing.

    Args:
        code: The tag's EPC or MAC address.
        zone_id: The zone whose gateway read it.
        rssi: Signal strength in dBm (-120 to 0).
        battery_pct: Battery level a BLE tag reported.
    """
    tag = ctx.first(Tag, code=code)
    if tag is None or tag.asset_id is None:
        raise RuleViolation(f"tag {code} is not attached to an asset", field="code", hint="attach it first")
    zone = _active_zone(ctx, zone_id, "zone_id")
    if not -120 <= rssi <= 0:
        raise RuleViolation("rssi is between -120 and 0 dBm", field="rssi", hint="give the reported dBm")
    asset = ctx.get(Asset, tag.asset_id)
    if asset.status == "missing":
        asset = ctx.update(asset, status="available")
        for alert in ctx.where(Alert, asset_id=asset.id, kind="missing"):
            if alert.status != "resolved":
                ctx.update(alert, status="resolved")
    ctx.update(asset, current_zone_id=zone.id, last_seen_at=ctx.now())
    if battery_pct is not None and tag.tech == "ble":
        ctx.update(tag, battery_pct=battery_pct)
        if battery_pct < LOW_BATTERY:
            _open_alert(ctx, asset, "low_battery", f"tag {code} battery at {battery_pct}%")
    return ctx.create(Read, tag_id=tag.id, asset_id=asset.id, zone_id=zone.id, rssi=rssi)


def _example_checkout(ctx: Ctx) -> dict[str, Any] | None:
    asset = ctx.first(Asset, status="available")
    if asset is None:
        return None
    return {
        "asset_id": asset.id,
        "person_email": ctx.population.employees[3].email,
        "due_back": (ctx.today() + dt.timedelta(days=7)).isoformat(),
        "purpose": "Site visit",
    }


@service.tool(intent="check out the asset", write=True, example=_example_checkout)
def check_out(ctx: Ctx, asset_id: AssetId, person_email: Email, due_back: Date, purpose: Text = "") -> Checkout:
    """Lend an available asset to an employee until a date at most 30 days ahead.

    Args:
        asset_id: The asset.
        person_email: The employee taking it.
        due_back: When it must be returned (after today, at most 30 days ahead).
        purpose: What it is for.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    if asset.status != "available":
        raise RuleViolation(f"{asset.asset_tag} is {asset.status}", field="asset_id", hint="pick an available asset")
    require_employee(ctx, person_email, field="person_email", hint="assets are lent to staff")
    today = ctx.today()
    if due_back <= today or due_back > today + MAX_LOAN:
        raise RuleViolation(
            f"due_back must be after {today} and by {today + MAX_LOAN}", field="due_back", hint="lend for 1-30 days"
        )
    ctx.update(asset, status="checked_out", custodian_email=person_email)
    return ctx.create(Checkout, asset_id=asset.id, person_email=person_email, due_back=due_back, purpose=purpose)


def _example_checkin(ctx: Ctx) -> dict[str, Any] | None:
    loan, zone = ctx.first(Checkout, status="open"), ctx.first(Zone, status="active")
    return None if loan is None or zone is None else {"asset_id": loan.asset_id, "zone_id": zone.id}


@service.tool(intent="check in the asset", write=True, example=_example_checkin)
def check_in(ctx: Ctx, asset_id: AssetId, zone_id: ZoneId) -> Checkout:
    """Return a checked-out asset into a zone; its loan closes and overdue alerts resolve.

    Args:
        asset_id: The asset.
        zone_id: The zone it is returned to.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    loan = ctx.first(Checkout, asset_id=asset.id, status="open")
    if loan is None:
        raise RuleViolation(f"{asset.asset_tag} is not checked out", field="asset_id", hint="nothing to return")
    zone = _active_zone(ctx, zone_id, "zone_id")
    ctx.update(asset, status="available", custodian_email=None, current_zone_id=zone.id, last_seen_at=ctx.now())
    for alert in ctx.where(Alert, asset_id=asset.id, kind="overdue_return"):
        if alert.status != "resolved":
            ctx.update(alert, status="resolved")
    return ctx.update(loan, status="returned", returned_at=ctx.now(), return_zone_id=zone.id)


@service.tool(intent="sweep for missing assets", write=True, example=fixed_example(unseen_hours=48))
def sweep_missing(ctx: Ctx, unseen_hours: Annotated[int, Field(ge=1, le=720)] = 24) -> list[Alert]:
    """Mark available assets unseen for longer than the threshold missing, and flag overdue loans.

    Args:
        unseen_hours: How long an asset may go unread before it is missing.
    """
    cutoff = ctx.now() - dt.timedelta(hours=unseen_hours)
    before = {a.id for a in ctx.scan(Alert)}
    for asset in ctx.where(Asset, status="available"):
        if asset.last_seen_at is None or asset.last_seen_at < cutoff:
            ctx.update(asset, status="missing")
            _open_alert(ctx, asset, "missing", f"{asset.asset_tag} unseen since {asset.last_seen_at}")
    for loan in ctx.where(Checkout, status="open"):
        if loan.due_back < ctx.today():
            asset = ctx.get(Asset, loan.asset_id)
            _open_alert(ctx, asset, "overdue_return", f"{asset.asset_tag} was due back {loan.due_back}")
    return [a for a in ctx.scan(Alert) if a.id not in before]


# -- seed -------------------------------------------------------------------------------------

ZONES: tuple[tuple[str, ZoneKind], ...] = (
    ("Tool crib", "storage"),
    ("Assembly line 1", "production"),
    ("Dock doors 1-6", "dock"),
    ("North yard", "yard"),
    ("Second floor office", "office"),
    ("Returns cage", "storage"),
)
KIT: tuple[tuple[str, AssetKind], ...] = (
    ("Milwaukee M18 impact driver", "power_tool"),
    ("Fluke 87V multimeter", "test_equipment"),
    ("Crown PTH50 pallet jack", "pallet_jack"),
    ("Laptop charging cart", "laptop_cart"),
    ("Returnable tote container", "container"),
    ("Werner 8ft step ladder", "ladder"),
    ("Hilti TE 30 rotary hammer", "power_tool"),
    ("Keysight oscilloscope", "test_equipment"),
    ("Bosch laser level", "test_equipment"),
    ("DeWalt circular saw", "power_tool"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Zones at the head office, tagged assets in every state, loans to employees, reads and alerts."""
    pop = s.population
    city = pop.home.place.city
    made_zones = [
        s.create(
            Zone,
            name=name,
            kind=kind,
            city=city,
            gateway_serial=f"GW-{4100 + k}",
            status="inactive" if k == 4 else "active",
            created_at=s.ago(days=400),
            updated_at=s.ago(days=10),
        )
        for k, (name, kind) in enumerate(ZONES)
    ]
    staff = pop.employees
    for k, (name, kind) in enumerate(KIT):
        ble = k % 3 == 0
        tag = s.create(
            Tag,
            code=f"AC:23:3F:00:{k:02X}:{(k * 7) % 256:02X}" if ble else f"E2801170000002{k:010X}",
            tech="ble" if ble else "rfid_uhf",
            battery_pct=(85, 15, 60, 40)[k // 3] if ble else None,
            status="attached" if k < 9 else "unassigned",
            created_at=s.ago(days=300),
            updated_at=s.ago(days=300),
        )
        home = made_zones[k % 4]
        status: AssetStatus = ("available", "checked_out", "missing", "available")[k % 4]
        person = staff[(k * 3) % len(staff)]
        asset = s.create(
            Asset,
            name=name,
            kind=kind,
            serial_number=f"SN{90210 + k * 13}",
            home_zone_id=home.id,
            current_zone_id=home.id,
            tag_id=tag.id if k < 9 else None,
            status=status,
            custodian_email=person.email if status == "checked_out" else None,
            last_seen_at=s.ago(days=5) if status == "missing" else s.ago(hours=k + 1),
            created_at=s.ago(days=280),
            updated_at=s.ago(hours=k + 1),
        )
        if k < 9:
            s.update(tag, asset_id=asset.id)
            s.create(
                Read, tag_id=tag.id, asset_id=asset.id, zone_id=home.id, rssi=-50 - k, created_at=s.ago(hours=k + 1)
            )
        if status == "checked_out":
            s.create(
                Checkout,
                asset_id=asset.id,
                person_email=person.email,
                due_back=(s.now + dt.timedelta(days=-2 if k == 1 else 5)).date(),
                purpose="Customer site installation",
                created_at=s.ago(days=6),
                updated_at=s.ago(days=6),
            )
        if status == "missing":
            s.create(
                Alert,
                asset_id=asset.id,
                kind="missing",
                message=f"{asset.asset_tag} unseen for 5 days",
                created_at=s.ago(days=4),
                updated_at=s.ago(days=4),
            )
    s.create(
        Tag,
        code="AC:23:3F:FF:00:01",
        tech="ble",
        battery_pct=100,
        created_at=s.ago(days=3),
        updated_at=s.ago(days=3),
    )
