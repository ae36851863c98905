"""Ledgerline IT Assets: hardware checked out to staff and locations, software license seats, accessories, audits.

Modeled on Snipe-IT API v1 (hardware with checkout/checkin/audit, licenses and
seats, accessories with checkout, locations). Asset tags and serial numbers are
unique. A hardware asset is deployable, pending, undeployable or archived, and
deployed while checked out: only a deployable asset can be checked out, to one
employee or one location, with an expected check-in date in the future; a
deployed asset cannot be edited into another status or archived until it is
checked in. A license has a fixed number of seats: a checkout takes a free seat
and is refused when none is left, an expired license lends no seat, and a
person holds at most one seat of a license. Accessories are lent from a
quantity that cannot go below zero. An audit records where an asset was seen
and schedules the next one, which must be ahead; archived assets are not
audited.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, CompanyName, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "itassets",
    title="Ledgerline IT Assets",
    category="it_asset_management",
    modeled_on="Snipe-IT API v1 (hardware with checkout, checkin and audit; licenses and seats; accessories "
    "and their checkouts; locations)",
    description="The IT team's asset register: laptops, monitors and phones with tags, serials and purchase data, "
    "checked out to employees or office locations and checked back in; software licenses and their seats; "
    "accessories lent from stock; and periodic audits with their due dates.",
)

AssetId = Annotated[str, IdOf("itassets.hardware")]
LocationId = Annotated[str, IdOf("itassets.location")]
LicenseId = Annotated[str, IdOf("itassets.license")]
SeatId = Annotated[str, IdOf("itassets.license_seat")]
AccessoryId = Annotated[str, IdOf("itassets.accessory")]
LoanId = Annotated[str, IdOf("itassets.accessory_checkout")]
AuditId = Annotated[str, IdOf("itassets.audit")]

AssetTag = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{3,20}$")]
"""An asset tag such as LT-00042."""
SerialNo = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9-]{4,30}$")]
"""A manufacturer serial number."""
Status = Literal["deployable", "deployed", "pending", "undeployable", "archived"]
Category = Literal["laptop", "desktop", "monitor", "phone", "tablet", "network"]
Qty = Annotated[int, Field(ge=0, le=100000)]


class Location(Created):
    """An office or site assets can be checked out to."""

    id: LocationId
    name: Title
    """The location's name."""
    city: City
    """Its city."""
    manager_email: Email | None = None
    """The employee who manages it."""


class Hardware(Record):
    """A hardware asset."""

    id: AssetId
    asset_tag: AssetTag
    """The tag on the device (unique)."""
    serial: SerialNo
    """The manufacturer serial (unique)."""
    name: Title
    """A display name."""
    model_name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """The model."""
    category: Category
    """laptop, desktop, monitor, phone, tablet or network."""
    manufacturer: CompanyName
    """Who made it."""
    supplier: CompanyName | None = None
    """Who sold it."""
    status: Status = "deployable"
    """deployable (ready), deployed (checked out), pending, undeployable (broken, in repair) or archived."""
    assigned_to_email: Email | None = None
    """The employee it is checked out to."""
    assigned_to_name: PersonName | None = None
    """That employee's name."""
    location_id: LocationId | None = None
    """The location it is checked out to."""
    expected_checkin: Date | None = None
    """When it is due back."""
    last_checkout: DateTime | None = None
    """When it was last checked out."""
    purchase_date: Date | None = None
    """When it was bought."""
    purchase_cost: Cents | None = None
    """What it cost, in cents."""
    warranty_months: Annotated[int, Field(ge=0, le=120)] = 0
    """The warranty's length."""
    last_audit_date: Date | None = None
    """When it was last audited."""
    next_audit_date: Date | None = None
    """When the next audit is due."""
    notes: Text = ""
    """Notes."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class License(Created):
    """A software license with a number of seats."""

    id: LicenseId
    name: Title
    """The software."""
    manufacturer: CompanyName
    """The vendor."""
    seats: Annotated[int, Field(ge=1, le=100000)]
    """How many seats were bought."""
    free_seats: Qty
    """How many are not checked out."""
    purchase_cost: Cents | None = None
    """What it cost, in cents."""
    expiration_date: Date | None = None
    """When it expires."""
    license_email: Email | None = None
    """The account the license is registered to."""


class LicenseSeat(Created):
    """A license seat checked out to an employee or to an asset."""

    id: SeatId
    license_id: LicenseId
    """The license."""
    assigned_to_email: Email | None = None
    """The employee holding it."""
    asset_id: AssetId | None = None
    """The asset it is installed on."""


class Accessory(Created):
    """Accessories of one kind (keyboards, headsets …) lent from stock."""

    id: AccessoryId
    name: Title
    """What it is."""
    manufacturer: CompanyName
    """Who made it."""
    qty: Annotated[int, Field(ge=1, le=100000)]
    """How many the company owns."""
    remaining: Qty
    """How many are in stock."""
    min_amt: Qty = 0
    """Below this stock, reorder."""
    purchase_cost: Cents | None = None
    """Unit cost in cents."""


class AccessoryCheckout(Created):
    """One accessory lent to an employee."""

    id: LoanId
    accessory_id: AccessoryId
    """The accessory."""
    assigned_to_email: Email
    """The employee."""
    returned: bool = False
    """Whether it came back."""


class Audit(Created):
    """An audit of an asset: where it was seen."""

    id: AuditId
    asset_id: AssetId
    """The asset."""
    location_id: LocationId | None = None
    """Where it was seen."""
    auditor_email: Email
    """Who audited it."""
    next_audit_date: Date
    """When the next audit is due."""
    note: Text = ""
    """What was noted."""


# -- rules ------------------------------------------------------------------------------------


def _person(ctx: Ctx, email: str, field: str) -> PersonName:
    for p in ctx.population.employees:
        if p.email == email:
            return p.name
    raise RuleViolation(f"{email} is not a user", field=field, hint="check the asset out to an employee")


def _guard_hardware(ctx: Ctx, new: Any, old: Any) -> None:
    for fname in ("asset_tag", "serial"):
        for other in ctx.where(Hardware, **{fname: getattr(new, fname)}):
            if other.id != new.id:
                raise Conflict(
                    f"{other.id} already has {fname} {getattr(new, fname)}",
                    field=fname,
                    hint=f"{fname.replace('_', ' ')}s are unique",
                )
    if old is None and new.status == "deployed":
        raise RuleViolation(
            "a new asset cannot be deployed", field="status", hint="create it deployable, then check it out"
        )
    if old is not None and new.status != old.status:
        if old.status == "deployed":
            raise RuleViolation(
                f"{old.asset_tag} is checked out", field="status", hint="check it in with itassets__checkin_hardware"
            )
        if new.status == "deployed":
            raise RuleViolation("deployed is set by a checkout", field="status", hint="use itassets__checkout_hardware")


hardware = service.resource(
    Hardware,
    name="hardware",
    plural="hardware",
    prefix="hw",
    create=False,
    filters=("status", "category", "assigned_to_email", "location_id", "asset_tag", "serial", "manufacturer"),
    search=("name", "model_name", "notes"),
    update=("name", "status", "supplier", "notes", "warranty_months"),
    delete=False,
    guard_update=_guard_hardware,
    title="hardware asset",
)
locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    get=False,
    search=("name", "city"),
    delete=False,
)
licenses = service.resource(
    License,
    name="license",
    plural="licenses",
    prefix="lic",
    create=False,
    get=False,
    filters=("manufacturer",),
    search=("name",),
    delete=False,
)
seats = service.resource(
    LicenseSeat,
    name="license_seat",
    plural="license_seats",
    prefix="seat",
    create=False,
    get=False,
    filters=("license_id", "assigned_to_email", "asset_id"),
    delete=False,
)
accessories = service.resource(
    Accessory,
    name="accessory",
    plural="accessories",
    prefix="acc",
    create=False,
    get=False,
    search=("name",),
    delete=False,
)
loans = service.resource(
    AccessoryCheckout,
    name="accessory_checkout",
    plural="accessory_checkouts",
    prefix="loan",
    create=False,
    get=False,
    filters=None,
    delete=False,
)
audits = service.resource(
    Audit, name="audit", plural="audits", prefix="aud", create=False, get=False, filters=None, delete=False
)


# -- hardware ---------------------------------------------------------------------------------


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "asset_tag": "LT-09001",
        "serial": "C02XK1ABCD",
        "name": "Spare laptop",
        "model_name": "Latitude 7440",
        "category": "laptop",
        "manufacturer": "Dell",
        "purchase_cost": 145000,
        "purchase_date": ctx.today().isoformat(),
    }


@service.tool(intent="add a hardware asset", write=True, example=_example_add)
def add_hardware(
    ctx: Ctx,
    asset_tag: AssetTag,
    serial: SerialNo,
    name: Title,
    model_name: Annotated[str, StringConstraints(min_length=1, max_length=80)],
    category: Category,
    manufacturer: CompanyName,
    status: Literal["deployable", "pending", "undeployable"] = "deployable",
    supplier: CompanyName | None = None,
    purchase_date: Date | None = None,
    purchase_cost: Cents | None = None,
    warranty_months: Annotated[int, Field(ge=0, le=120)] = 0,
) -> Hardware:
    """Add a hardware asset to the register; asset tags and serials are unique.

    Args:
        asset_tag: The tag on the device, e.g. LT-00042.
        serial: The manufacturer serial.
        name: A display name.
        model_name: The model.
        category: laptop, desktop, monitor, phone, tablet or network.
        manufacturer: Who made it.
        status: deployable (ready), pending or undeployable; it is deployed by a checkout.
        supplier: Who sold it.
        purchase_date: When it was bought (not in the future).
        purchase_cost: What it cost, in cents.
        warranty_months: The warranty's length.
    """
    if purchase_date is not None and purchase_date > ctx.today():
        raise RuleViolation("purchase_date is in the future", field="purchase_date", hint="give the invoice date")
    hw = ctx.create(
        Hardware,
        asset_tag=asset_tag,
        serial=serial,
        name=name,
        model_name=model_name,
        category=category,
        manufacturer=manufacturer,
        status=status,
        supplier=supplier,
        purchase_date=purchase_date,
        purchase_cost=purchase_cost,
        warranty_months=warranty_months,
    )
    _guard_hardware(ctx, hw, None)
    return hw


def _example_checkout(ctx: Ctx) -> dict[str, Any] | None:
    hw = ctx.first(Hardware, status="deployable")
    return (
        None
        if hw is None
        else {
            "asset_id": hw.id,
            "assigned_to_email": ctx.population.employees[-1].email,
            "expected_checkin": (ctx.today() + dt.timedelta(days=365)).isoformat(),
        }
    )


@service.tool(intent="check the asset out", write=True, example=_example_checkout)
def checkout_hardware(
    ctx: Ctx,
    asset_id: AssetId,
    assigned_to_email: Email | None = None,
    location_id: LocationId | None = None,
    expected_checkin: Date | None = None,
    note: Text = "",
) -> Hardware:
    """Check a deployable asset out to one employee or one location.

    Args:
        asset_id: The asset.
        assigned_to_email: The employee who gets it.
        location_id: Or the location it goes to.
        expected_checkin: When it is due back (after today).
        note: A note for the asset's history.
    """
    hw = ctx.get(Hardware, asset_id, field="asset_id")
    if hw.status == "deployed":
        whom = hw.assigned_to_email or hw.location_id
        raise Conflict(
            f"{hw.asset_tag} is already checked out to {whom}",
            field="asset_id",
            hint="check it in with itassets__checkin_hardware first",
        )
    if hw.status != "deployable":
        raise RuleViolation(
            f"{hw.asset_tag} is {hw.status}, not deployable",
            field="asset_id",
            hint="only assets ready to deploy can be checked out; set its status to deployable when it is ready",
        )
    if (assigned_to_email is None) == (location_id is None):
        raise RuleViolation(
            "check out to exactly one employee or one location",
            field="assigned_to_email",
            hint="give assigned_to_email or location_id, not both",
        )
    name = _person(ctx, assigned_to_email, "assigned_to_email") if assigned_to_email else None
    if location_id is not None:
        ctx.get(Location, location_id, field="location_id")
    if expected_checkin is not None and expected_checkin <= ctx.today():
        raise RuleViolation("expected_checkin must be after today", field="expected_checkin", hint="pick a later date")
    return ctx.update(
        hw,
        status="deployed",
        assigned_to_email=assigned_to_email,
        assigned_to_name=name,
        location_id=location_id,
        expected_checkin=expected_checkin,
        last_checkout=ctx.now(),
        notes=(hw.notes + ("\n" if hw.notes else "") + note).strip() if note else hw.notes,
    )


@service.tool(
    intent="check the asset in",
    write=True,
    example=first_example(Hardware, "asset_id", where={"status": "deployed"}),
)
def checkin_hardware(
    ctx: Ctx, asset_id: AssetId, status: Literal["deployable", "pending", "undeployable", "archived"] = "deployable"
) -> Hardware:
    """Check a deployed asset back in, with the status it returns in; its license seats are freed.

    Args:
        asset_id: The asset.
        status: deployable (ready again), pending, undeployable (broken) or archived.
    """
    hw = ctx.get(Hardware, asset_id, field="asset_id")
    if hw.status != "deployed":
        raise RuleViolation(f"{hw.asset_tag} is not checked out", field="asset_id", hint="nothing to check in")
    for seat in ctx.where(LicenseSeat, asset_id=hw.id):
        _release(ctx, seat)
    return ctx.update(
        hw, status=status, assigned_to_email=None, assigned_to_name=None, location_id=None, expected_checkin=None
    )


def _example_audit(ctx: Ctx) -> dict[str, Any] | None:
    hw = ctx.first(Hardware, status="deployed")
    return (
        None
        if hw is None
        else {
            "asset_id": hw.id,
            "auditor_email": ctx.population.employees[0].email,
            "next_audit_date": (ctx.today() + dt.timedelta(days=365)).isoformat(),
        }
    )


@service.tool(intent="audit the asset", write=True, example=_example_audit)
def audit_hardware(
    ctx: Ctx,
    asset_id: AssetId,
    auditor_email: Email,
    next_audit_date: Date,
    location_id: LocationId | None = None,
    note: Text = "",
) -> Audit:
    """Record that an asset was seen, and when to audit it next.

    Args:
        asset_id: The asset.
        auditor_email: The employee who saw it.
        next_audit_date: When the next audit is due (after today).
        location_id: Where it was seen.
        note: What was noted.
    """
    hw = ctx.get(Hardware, asset_id, field="asset_id")
    if hw.status == "archived":
        raise RuleViolation(f"{hw.asset_tag} is archived", field="asset_id", hint="archived assets are not audited")
    _person(ctx, auditor_email, "auditor_email")
    if next_audit_date <= ctx.today():
        raise RuleViolation("the next audit must be after today", field="next_audit_date", hint="pick a later date")
    if location_id is not None:
        ctx.get(Location, location_id, field="location_id")
    ctx.update(hw, last_audit_date=ctx.today(), next_audit_date=next_audit_date)
    return ctx.create(
        Audit,
        asset_id=hw.id,
        location_id=location_id,
        auditor_email=auditor_email,
        next_audit_date=next_audit_date,
        note=note,
    )


@service.tool(intent="list the assets due for audit")
def audits_due(ctx: Ctx, within_days: Annotated[int, Field(ge=0, le=365)] = 0) -> list[Hardware]:
    """Assets (not archived) whose next audit is due within so many days, or overdue, soonest first.

    Args:
        within_days: How many days ahead to look (0: due today or overdue).
    """
    limit = ctx.today() + dt.timedelta(days=within_days)
    due = [
        h
        for h in ctx.scan(Hardware)
        if h.status != "archived" and h.next_audit_date is not None and h.next_audit_date <= limit
    ]
    return sorted(due, key=lambda h: (h.next_audit_date or limit, h.id))


# -- licenses and accessories -----------------------------------------------------------------


def _release(ctx: Ctx, seat: LicenseSeat) -> None:
    lic = ctx.get(License, seat.license_id)
    ctx.delete(seat)
    ctx.update(lic, free_seats=lic.free_seats + 1)


def _example_seat(ctx: Ctx) -> dict[str, Any] | None:
    for lic in ctx.scan(License):
        if lic.free_seats and (lic.expiration_date is None or lic.expiration_date >= ctx.today()):
            holders = {s.assigned_to_email for s in ctx.where(LicenseSeat, license_id=lic.id)}
            for p in ctx.population.employees:
                if p.email not in holders:
                    return {"license_id": lic.id, "assigned_to_email": p.email}
    return None


@service.tool(intent="check out a license seat", write=True, example=_example_seat)
def checkout_license_seat(
    ctx: Ctx, license_id: LicenseId, assigned_to_email: Email | None = None, asset_id: AssetId | None = None
) -> LicenseSeat:
    """Give a free seat of a license to an employee or install it on an asset.

    Args:
        license_id: The license.
        assigned_to_email: The employee who gets the seat.
        asset_id: Or the asset it is installed on.
    """
    lic = ctx.get(License, license_id, field="license_id")
    if (assigned_to_email is None) == (asset_id is None):
        raise RuleViolation(
            "a seat goes to exactly one employee or one asset",
            field="assigned_to_email",
            hint="give assigned_to_email or asset_id, not both",
        )
    if lic.expiration_date is not None and lic.expiration_date < ctx.today():
        raise RuleViolation(
            f"{lic.name} expired on {lic.expiration_date}", field="license_id", hint="renew the license first"
        )
    if assigned_to_email is not None:
        _person(ctx, assigned_to_email, "assigned_to_email")
        held = ctx.first(LicenseSeat, license_id=lic.id, assigned_to_email=assigned_to_email)
    else:
        assert asset_id is not None
        ctx.get(Hardware, asset_id, field="asset_id")
        held = ctx.first(LicenseSeat, license_id=lic.id, asset_id=asset_id)
    if held is not None:
        raise Conflict(
            f"{assigned_to_email or asset_id} already holds a seat of {lic.name} ({held.id})",
            field="assigned_to_email" if assigned_to_email else "asset_id",
            hint="one seat per holder is enough",
        )
    if lic.free_seats == 0:
        raise RuleViolation(
            f"all {lic.seats} seats of {lic.name} are checked out",
            field="license_id",
            hint="check a seat in with itassets__checkin_license_seat, or buy more seats",
        )
    ctx.update(lic, free_seats=lic.free_seats - 1)
    return ctx.create(LicenseSeat, license_id=lic.id, assigned_to_email=assigned_to_email, asset_id=asset_id)


@service.tool(
    intent="check in the license seat",
    write=True,
    example=first_example(LicenseSeat, "seat_id"),
)
def checkin_license_seat(ctx: Ctx, seat_id: SeatId) -> License:
    """Free a checked-out seat; returns the license with its free seats.

    Args:
        seat_id: The seat.
    """
    seat = ctx.get(LicenseSeat, seat_id, field="seat_id")
    _release(ctx, seat)
    return ctx.get(License, seat.license_id)


def _example_lend(ctx: Ctx) -> dict[str, Any] | None:
    for acc in ctx.scan(Accessory):
        if acc.remaining:
            return {"accessory_id": acc.id, "assigned_to_email": ctx.population.employees[0].email}
    return None


@service.tool(intent="check out the accessory", write=True, example=_example_lend)
def checkout_accessory(ctx: Ctx, accessory_id: AccessoryId, assigned_to_email: Email) -> AccessoryCheckout:
    """Lend one accessory from stock to an employee.

    Args:
        accessory_id: The accessory.
        assigned_to_email: The employee.
    """
    acc = ctx.get(Accessory, accessory_id, field="accessory_id")
    _person(ctx, assigned_to_email, "assigned_to_email")
    if acc.remaining == 0:
        raise RuleViolation(
            f"no {acc.name} left in stock (all {acc.qty} lent)",
            field="accessory_id",
            hint="wait for one to be returned, or order more",
        )
    ctx.update(acc, remaining=acc.remaining - 1)
    return ctx.create(AccessoryCheckout, accessory_id=acc.id, assigned_to_email=assigned_to_email)


@service.tool(
    intent="check in the accessory",
    write=True,
    example=first_example(AccessoryCheckout, "checkout_id", where={"returned": False}),
)
def checkin_accessory(ctx: Ctx, checkout_id: LoanId) -> Accessory:
    """Take a lent accessory back into stock; returns the accessory.

    Args:
        checkout_id: The checkout.
    """
    loan = ctx.get(AccessoryCheckout, checkout_id, field="checkout_id")
    if loan.returned:
        raise Conflict("that accessory was already returned", field="checkout_id", hint="nothing to do")
    acc = ctx.get(Accessory, loan.accessory_id)
    ctx.update(loan, returned=True)
    return ctx.update(acc, remaining=acc.remaining + 1)


# -- seed -------------------------------------------------------------------------------------

MODELS: tuple[tuple[str, str, Category, str, int, int], ...] = (
    ("LT", "Latitude 7440", "laptop", "Dell", 145000, 36),
    ("LT", "MacBook Pro 14", "laptop", "Apple", 219900, 12),
    ("MN", "U2723QE 27-inch", "monitor", "Dell", 58000, 36),
    ("PH", "iPhone 15", "phone", "Apple", 79900, 12),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Offices, hardware deployed to employees and in stock, licenses near and at their seat limit, accessories."""
    pop = s.population
    staff = list(pop.employees)
    it = pop.staff("Engineering", "IT", fallback=2)
    vendors = [c for c in pop.companies if not c.home]
    s.create(
        Location, name="Headquarters", city=pop.home.place.city, manager_email=it[0].email, created_at=s.ago(days=900)
    )
    lab = s.create(
        Location, name="Hardware lab", city=pop.home.place.city, manager_email=it[-1].email, created_at=s.ago(days=600)
    )
    s.create(Location, name="Remote office", city=vendors[0].place.city, created_at=s.ago(days=300))
    counters: dict[str, int] = {}
    today = s.now.date()
    for k in range(40):
        prefix, model, category, maker, cost, warranty = MODELS[k % len(MODELS)]
        counters[prefix] = counters.get(prefix, 0) + 1
        owner = staff[k % len(staff)] if k < 26 else None
        status: Status = "deployed" if owner else ("deployable", "pending", "undeployable", "archived")[k % 4]
        loc = lab.id if k in (26, 30) else None
        if loc:
            status = "deployed"
        s.create(
            Hardware,
            asset_tag=f"{prefix}-{counters[prefix]:05d}",
            serial=f"{maker[:2].upper()}{s.rng.randint(10**7, 10**8 - 1)}",
            name=f"{model} ({owner.first_name})" if owner else model,
            model_name=model,
            category=category,
            manufacturer=maker,
            supplier=vendors[k % len(vendors)].name,
            status=status,
            assigned_to_email=owner.email if owner else None,
            assigned_to_name=owner.name if owner else None,
            location_id=loc,
            last_checkout=s.ago(days=30 + 7 * k) if status == "deployed" else None,
            purchase_date=today - dt.timedelta(days=60 + 25 * k),
            purchase_cost=cost,
            warranty_months=warranty,
            last_audit_date=today - dt.timedelta(days=200 + 5 * k) if status != "archived" else None,
            next_audit_date=today + dt.timedelta(days=-20 + 4 * k) if status != "archived" else None,
            notes="Screen cracked, sent for repair." if status == "undeployable" else "",
            created_at=s.ago(days=60 + 25 * k),
            updated_at=s.ago(days=30),
        )
    for name, maker, total, used, cost, expires in (
        ("Microsoft 365 E3", "Microsoft", 30, 22, 1296000, 200),
        ("Adobe Creative Cloud", "Adobe", 5, 5, 358800, 120),
        ("JetBrains All Products", "JetBrains", 10, 6, 289000, 40),
        ("Sketch Teams", "Sketch", 4, 1, 48000, -15),
    ):
        lic = s.create(
            License,
            name=name,
            manufacturer=maker,
            seats=total,
            free_seats=total - min(used, len(staff)),
            purchase_cost=cost,
            expiration_date=today + dt.timedelta(days=expires),
            license_email=f"it@{pop.home.domain}",
            created_at=s.ago(days=365 - expires if expires < 365 else 10),
        )
        for p in staff[:used]:
            s.create(LicenseSeat, license_id=lic.id, assigned_to_email=p.email, created_at=s.ago(days=100))
    for name, maker, qty, lent, cost in (
        ("USB-C docking station", "Dell", 12, 9, 23900),
        ("Wireless headset", "Jabra", 6, 6, 14900),
        ("Ergonomic keyboard", "Logitech", 15, 4, 9900),
    ):
        acc = s.create(
            Accessory,
            name=name,
            manufacturer=maker,
            qty=qty,
            remaining=qty - len(staff[3 : 3 + lent]),
            min_amt=2,
            purchase_cost=cost,
            created_at=s.ago(days=300),
        )
        for p in staff[3 : 3 + lent]:
            s.create(AccessoryCheckout, accessory_id=acc.id, assigned_to_email=p.email, created_at=s.ago(days=50))
