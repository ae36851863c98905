"""Ledgerstone Assets: the fixed asset register, depreciation runs, transfers, impairments and disposals.

Modeled on Sage Fixed Assets (Depreciation and Tracking): asset classes with a
default useful life and depreciation method (straight-line or 200% declining
balance), assets with a tag number, cost, salvage value, in-service date,
location and custodian, going pending → in_service → fully_depreciated or
disposed; monthly depreciation runs that post one entry per asset, in period
order and never for a future month (only the latest run can be reversed);
transfers between locations, impairments that write the net book value down
(never below salvage) and change depreciation prospectively, and disposals by
sale, scrap, donation or trade-in that compute the gain or loss against the
net book value.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, CompanyName, Date, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "fixedassets",
    title="Ledgerstone Assets",
    category="fixed_assets",
    modeled_on="Sage Fixed Assets – Depreciation & Tracking: asset classes, assets, depreciation methods and "
    "monthly runs, location transfers, impairments, disposals with gain/loss",
    description="The company's fixed asset register: computers, furniture, vehicles and machinery by class and "
    "location, their custodians, monthly depreciation runs, transfers between offices, impairment write-downs "
    "and disposals with the gain or loss they realise.",
)

ClassId = Annotated[str, IdOf("fixedassets.asset_class")]
LocationId = Annotated[str, IdOf("fixedassets.location")]
AssetId = Annotated[str, IdOf("fixedassets.asset")]
RunId = Annotated[str, IdOf("fixedassets.depreciation_run")]
TransferId = Annotated[str, IdOf("fixedassets.transfer")]
ImpairmentId = Annotated[str, IdOf("fixedassets.impairment")]
DisposalId = Annotated[str, IdOf("fixedassets.disposal")]

PeriodName = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$")]
"""A month as YYYY-MM."""
Life = Annotated[int, Field(ge=1, le=600)]
"""Useful life in months."""
Method = Literal["straight_line", "declining_balance_200"]
AssetStatus = Literal["pending", "in_service", "fully_depreciated", "disposed"]
DisposalMethod = Literal["sale", "scrap", "donation", "trade_in"]


class AssetClass(Timestamped):
    """A class of assets with its default depreciation."""

    id: ClassId
    code: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,8}$")]
    """Class code."""
    name: Title
    """Class name."""
    useful_life_months: Life
    """Default useful life in months."""
    method: Method
    """Default depreciation method."""
    gl_asset_account: Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]
    """General ledger cost account."""


class Location(Timestamped):
    """A site where assets are kept."""

    id: LocationId
    name: Title
    """Site name (unique)."""
    city: City
    """City."""
    manager_email: Email | None = None
    """The employee managing the site."""


class Asset(Timestamped):
    """A fixed asset in the register."""

    id: AssetId
    tag_number: Annotated[str, Generated("sequence", "FA-{n:05d}")]
    """Asset tag."""
    name: Title
    """Description."""
    class_id: ClassId
    """Its class."""
    location_id: LocationId
    """Where it is."""
    custodian_email: Email | None = None
    """The employee who holds it."""
    vendor_name: CompanyName | None = None
    """The supplier it was bought from."""
    serial_number: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{3,40}$")] | None = None
    """Manufacturer serial number."""
    cost: Cents
    """Acquisition cost in cents."""
    salvage_value: Cents = 0
    """Expected value at the end of its life in cents."""
    acquired_on: Date
    """Purchase date."""
    in_service_date: Date | None = None
    """When depreciation started."""
    useful_life_months: Life
    """Useful life in months."""
    method: Method
    """straight_line or declining_balance_200."""
    months_depreciated: int = 0
    """Monthly depreciation entries posted so far."""
    accumulated_depreciation: Cents = 0
    """Depreciation to date in cents."""
    impairment_total: Cents = 0
    """Impairment write-downs in cents."""
    net_book_value: Cents = 0
    """Cost less accumulated depreciation and impairments, in cents."""
    status: AssetStatus = "pending"
    """pending, in_service, fully_depreciated or disposed."""


class DepreciationRun(Created):
    """A monthly depreciation run."""

    id: RunId
    period: PeriodName
    """The month depreciated."""
    total: Cents
    """Depreciation posted in cents."""
    asset_count: int
    """Assets depreciated."""
    run_by: Email
    """The employee who ran it."""
    status: Literal["posted", "reversed"] = "posted"
    """posted or reversed."""


class DepreciationEntry(Created):
    """One asset's depreciation in one run."""

    id: Annotated[str, IdOf("fixedassets.depreciation_entry")]
    run_id: RunId
    """The run."""
    asset_id: AssetId
    """The asset."""
    period: PeriodName
    """The month."""
    amount: Cents
    """Depreciation in cents."""


class Transfer(Created):
    """A move of an asset from one location to another."""

    id: TransferId
    asset_id: AssetId
    """The asset."""
    from_location_id: LocationId
    """Where it was."""
    to_location_id: LocationId
    """Where it went."""
    transfer_date: Date
    """When."""
    requested_by: Email
    """The employee who moved it."""
    new_custodian_email: Email | None = None
    """Its custodian at the new site, if it changed."""


class Impairment(Created):
    """A write-down of an asset's net book value."""

    id: ImpairmentId
    asset_id: AssetId
    """The asset."""
    amount: Cents
    """Write-down in cents."""
    reason: Text
    """Why (damage, obsolescence, market decline)."""
    recorded_by: Email
    """The employee who recorded it."""


class Disposal(Created):
    """The disposal of an asset and its gain or loss."""

    id: DisposalId
    asset_id: AssetId
    """The asset."""
    disposal_date: Date
    """When."""
    method: DisposalMethod
    """sale, scrap, donation or trade_in."""
    proceeds: Cents = 0
    """What was received in cents."""
    buyer_name: CompanyName | None = None
    """Who bought it."""
    net_book_value: Cents
    """Its net book value when disposed, in cents."""
    gain_loss: int
    """Proceeds less net book value in cents (negative: a loss)."""
    approved_by: Email
    """The employee who approved it."""


class ForecastMonth(Value):
    """Projected depreciation of one month."""

    period: PeriodName
    """The month."""
    amount: int
    """Depreciation in cents."""
    net_book_value: int
    """Net book value after it, in cents."""


# -- rules ------------------------------------------------------------------------------------


def period_of(day: dt.date) -> str:
    """The YYYY-MM month a day falls in."""
    return f"{day.year:04d}-{day.month:02d}"


def monthly(asset: Asset) -> int:
    """This month's depreciation of an asset: prospective over its remaining life, never below salvage."""
    room = asset.net_book_value - asset.salvage_value
    if room <= 0:
        return 0
    if asset.method == "straight_line":
        left = max(1, asset.useful_life_months - asset.months_depreciated)
        return room if left == 1 else room // left
    left = asset.useful_life_months - asset.months_depreciated
    return room if left <= 1 else min(room, asset.net_book_value * 2 // asset.useful_life_months)


def _guard_asset(ctx: Ctx, new: Any, old: Any) -> None:
    if new.custodian_email is not None:
        require_employee(ctx, new.custodian_email, field="custodian_email", hint="assets are held by staff")
    if old is None:
        if new.salvage_value >= new.cost:
            raise RuleViolation(
                "salvage value must be below cost", field="salvage_value", hint="give a smaller salvage value"
            )
        ctx.get(AssetClass, new.class_id, field="class_id")
        ctx.get(Location, new.location_id, field="location_id")
        if new.acquired_on > ctx.today():
            raise RuleViolation("acquired_on is in the future", field="acquired_on", hint="record bought assets only")
        ctx.update(new, net_book_value=new.cost)
    elif old.status == "disposed":
        raise RuleViolation(f"asset {old.tag_number} is disposed", field="asset_id", hint="disposed assets are final")


def _guard_asset_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "pending":
        raise RuleViolation(
            f"asset {old.tag_number} is {old.status}; only pending assets are deleted",
            field="asset_id",
            hint="dispose of it with fixedassets__dispose_asset instead",
        )


def _guard_location(ctx: Ctx, new: Any, old: Any) -> None:
    if new.manager_email is not None:
        require_employee(ctx, new.manager_email, field="manager_email", hint="sites are managed by staff")


classes = service.resource(
    AssetClass,
    name="asset_class",
    plural="asset_classes",
    prefix="cls",
    create=False,
    filters=("method", "code"),
    search=("name",),
    update=("useful_life_months", "method"),
    delete=False,
    title="asset class",
)
locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=("name", "city", "manager_email"),
    filters=("city", "manager_email", "name"),
    search=("name",),
    update=("name", "manager_email"),
    delete=False,
    unique=("name",),
    guard_create=_guard_location,
    guard_update=_guard_location,
)
assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="fa",
    create=(
        "name",
        "class_id",
        "location_id",
        "custodian_email",
        "vendor_name",
        "cost",
        "salvage_value",
        "acquired_on",
        "useful_life_months",
        "method",
    ),
    filters=("status", "class_id", "location_id", "custodian_email", "vendor_name", "tag_number", "serial_number"),
    search=("name",),
    update=("name", "custodian_email", "serial_number"),
    guard_create=_guard_asset,
    guard_update=_guard_asset,
    guard_delete=_guard_asset_delete,
    title="fixed asset",
)
runs = service.resource(
    DepreciationRun,
    name="depreciation_run",
    plural="depreciation_runs",
    prefix="dep",
    create=False,
    filters=("period", "status", "run_by"),
    delete=False,
    title="depreciation run",
)
entries = service.resource(
    DepreciationEntry,
    name="depreciation_entry",
    plural="depreciation_entries",
    prefix="dpe",
    create=False,
    get=False,
    filters=("run_id", "asset_id", "period"),
    delete=False,
    title="depreciation entry",
)
transfers = service.resource(
    Transfer,
    name="transfer",
    plural="transfers",
    prefix="xfr",
    create=False,
    get=False,
    filters=("asset_id", "to_location_id", "from_location_id"),
    delete=False,
)
impairments = service.resource(
    Impairment,
    name="impairment",
    plural="impairments",
    prefix="imp",
    create=False,
    get=False,
    filters=("asset_id", "recorded_by"),
    delete=False,
)
disposals = service.resource(
    Disposal,
    name="disposal",
    plural="disposals",
    prefix="dsp",
    create=False,
    filters=("asset_id", "method"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _live(ctx: Ctx, asset_id: str) -> Asset:
    asset = ctx.get(Asset, asset_id, field="asset_id")
    if asset.status == "disposed":
        raise RuleViolation(f"asset {asset.tag_number} is disposed", field="asset_id", hint="disposed assets are final")
    return asset


@service.tool(
    intent="place the asset in service",
    write=True,
    example=first_example(Asset, "asset_id", where={"status": "pending"}),
)
def place_in_service(ctx: Ctx, asset_id: AssetId, in_service_date: Date | None = None) -> Asset:
    """Start depreciating a pending asset from its in-service date (default today).

    Args:
        asset_id: The asset.
        in_service_date: When it went into use: not before it was acquired, not in the future.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    if asset.status != "pending":
        raise Conflict(f"asset {asset.tag_number} is already {asset.status}", field="asset_id", hint="nothing to do")
    day = in_service_date or ctx.today()
    if day < asset.acquired_on or day > ctx.today():
        raise RuleViolation(
            f"in_service_date must be between {asset.acquired_on} and today",
            field="in_service_date",
            hint="give the day it went into use",
        )
    return ctx.update(asset, status="in_service", in_service_date=day)


def _next_period(ctx: Ctx) -> str:
    posted = [r.period for r in ctx.where(DepreciationRun, status="posted")]
    if not posted:
        return period_of(ctx.today())
    year, month = (int(x) for x in max(posted).split("-"))
    return period_of(add_months(dt.date(year, month, 1), 1))


@service.tool(
    intent="run depreciation for the month",
    write=True,
    example=lambda ctx: {"period": _next_period(ctx), "run_by": ctx.population.employees[0].email},
)
def run_depreciation(ctx: Ctx, period: PeriodName, run_by: Email) -> DepreciationRun:
    """Post one month's depreciation for every asset in service; months run in order, never ahead of today.

    Args:
        period: The month, YYYY-MM: the one after the latest posted run.
        run_by: The employee running it.
    """
    require_employee(ctx, run_by, field="run_by", hint="depreciation is run by the accounting team")
    expected = _next_period(ctx)
    if period != expected:
        raise RuleViolation(f"the next month to depreciate is {expected}", field="period", hint=f"run {expected}")
    if period > period_of(ctx.today()):
        raise RuleViolation(f"{period} has not started", field="period", hint="depreciate current or past months")
    run = ctx.create(DepreciationRun, period=period, total=0, asset_count=0, run_by=run_by)
    total = count = 0
    for asset in ctx.where(Asset, status="in_service"):
        if asset.in_service_date is None or period_of(asset.in_service_date) > period:
            continue
        amount = monthly(asset)
        if amount <= 0:
            continue
        ctx.create(DepreciationEntry, run_id=run.id, asset_id=asset.id, period=period, amount=amount)
        nbv = asset.net_book_value - amount
        ctx.update(
            asset,
            months_depreciated=asset.months_depreciated + 1,
            accumulated_depreciation=asset.accumulated_depreciation + amount,
            net_book_value=nbv,
            status="fully_depreciated" if nbv <= asset.salvage_value else "in_service",
        )
        total, count = total + amount, count + 1
    return ctx.update(run, total=total, asset_count=count)


@service.tool(
    intent="reverse the depreciation run",
    write=True,
    destructive=True,
    example=lambda ctx: next(
        (
            {"depreciation_run_id": r.id}
            for r in sorted(ctx.where(DepreciationRun, status="posted"), key=lambda r: r.period)[-1:]
        ),
        None,
    ),
)
def reverse_run(ctx: Ctx, depreciation_run_id: RunId) -> DepreciationRun:
    """Reverse the latest posted run: its assets get their depreciation back.

    Args:
        depreciation_run_id: The run.
    """
    run = ctx.get(DepreciationRun, depreciation_run_id, field="depreciation_run_id")
    if run.status != "posted":
        raise Conflict(f"run {run.period} is already reversed", field="depreciation_run_id", hint="nothing to do")
    latest = max(r.period for r in ctx.where(DepreciationRun, status="posted"))
    if run.period != latest:
        raise RuleViolation(
            f"{latest} was depreciated after {run.period}",
            field="depreciation_run_id",
            hint=f"reverse the {latest} run first",
        )
    for entry in ctx.where(DepreciationEntry, run_id=run.id):
        asset = ctx.get(Asset, entry.asset_id)
        if asset.status == "disposed":
            raise RuleViolation(
                f"asset {asset.tag_number} of this run was disposed",
                field="depreciation_run_id",
                hint="a run covering a disposed asset stays",
            )
        ctx.update(
            asset,
            months_depreciated=asset.months_depreciated - 1,
            accumulated_depreciation=asset.accumulated_depreciation - entry.amount,
            net_book_value=asset.net_book_value + entry.amount,
            status="in_service",
        )
    return ctx.update(run, status="reversed")


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    asset = ctx.first(Asset, status="in_service")
    other = next((loc for loc in ctx.scan(Location) if asset and loc.id != asset.location_id), None)
    if asset is None or other is None:
        return None
    return {"asset_id": asset.id, "to_location_id": other.id, "requested_by": ctx.population.employees[0].email}


@service.tool(intent="transfer the asset to another location", write=True, example=_example_transfer)
def transfer_asset(
    ctx: Ctx,
    asset_id: AssetId,
    to_location_id: LocationId,
    requested_by: Email,
    new_custodian_email: Email | None = None,
) -> Transfer:
    """Move an asset to another location, optionally handing it to a new custodian.

    Args:
        asset_id: The asset.
        to_location_id: Where it goes.
        requested_by: The employee moving it.
        new_custodian_email: Its custodian at the new site.
    """
    asset = _live(ctx, asset_id)
    ctx.get(Location, to_location_id, field="to_location_id")
    if to_location_id == asset.location_id:
        raise RuleViolation("the asset is already there", field="to_location_id", hint="pick another location")
    require_employee(ctx, requested_by, field="requested_by", hint="transfers are made by staff")
    if new_custodian_email is not None:
        require_employee(ctx, new_custodian_email, field="new_custodian_email", hint="assets are held by staff")
    made = ctx.create(
        Transfer,
        asset_id=asset.id,
        from_location_id=asset.location_id,
        to_location_id=to_location_id,
        transfer_date=ctx.today(),
        requested_by=requested_by,
        new_custodian_email=new_custodian_email,
    )
    ctx.update(asset, location_id=to_location_id, custodian_email=new_custodian_email or asset.custodian_email)
    return made


@service.tool(
    intent="record an impairment of the asset",
    write=True,
    example=lambda ctx: next(
        (
            {
                "asset_id": a.id,
                "amount": 1000,
                "reason": "Water damage.",
                "recorded_by": ctx.population.employees[0].email,
            }
            for a in ctx.where(Asset, status="in_service")
            if a.net_book_value - a.salvage_value > 1000
        ),
        None,
    ),
)
def record_impairment(ctx: Ctx, asset_id: AssetId, amount: Cents, reason: Text, recorded_by: Email) -> Impairment:
    """Write an asset's net book value down; it cannot fall below salvage, and later months depreciate less.

    Args:
        asset_id: The asset.
        amount: The write-down in cents.
        reason: Why (required).
        recorded_by: The employee recording it.
    """
    asset = _live(ctx, asset_id)
    if asset.status == "pending":
        raise RuleViolation(f"asset {asset.tag_number} is not in service", field="asset_id", hint="place it in service")
    room = asset.net_book_value - asset.salvage_value
    if amount <= 0 or amount > room:
        raise RuleViolation(
            f"the write-down must be between 1 and {room} cents (net book value above salvage)",
            field="amount",
            hint="impair by at most the net book value less salvage",
        )
    if not reason.strip():
        raise RuleViolation("an impairment needs a reason", field="reason", hint="say what reduced its value")
    require_employee(ctx, recorded_by, field="recorded_by", hint="impairments are recorded by staff")
    nbv = asset.net_book_value - amount
    ctx.update(
        asset,
        impairment_total=asset.impairment_total + amount,
        net_book_value=nbv,
        status="fully_depreciated" if nbv <= asset.salvage_value else asset.status,
    )
    return ctx.create(Impairment, asset_id=asset.id, amount=amount, reason=reason.strip(), recorded_by=recorded_by)


@service.tool(
    intent="dispose of the asset",
    write=True,
    destructive=True,
    example=lambda ctx: next(
        (
            {"asset_id": a.id, "method": "sale", "proceeds": 50_000, "approved_by": ctx.population.employees[0].email}
            for a in ctx.where(Asset, status="in_service")
        ),
        None,
    ),
)
def dispose_asset(
    ctx: Ctx,
    asset_id: AssetId,
    method: DisposalMethod,
    approved_by: Email,
    proceeds: Cents = 0,
    buyer_name: CompanyName | None = None,
) -> Disposal:
    """Dispose of an asset: the gain or loss is the proceeds less its net book value.

    Args:
        asset_id: The asset.
        method: sale, scrap, donation or trade_in.
        approved_by: The employee approving it.
        proceeds: What was received in cents (a sale or trade-in needs some; scrap and donation none).
        buyer_name: The buyer of a sale.
    """
    asset = _live(ctx, asset_id)
    require_employee(ctx, approved_by, field="approved_by", hint="disposals are approved by staff")
    if method in ("sale", "trade_in") and proceeds <= 0:
        raise RuleViolation(f"a {method} needs proceeds", field="proceeds", hint="give the amount received")
    if method in ("scrap", "donation") and proceeds:
        raise RuleViolation(f"a {method} has no proceeds", field="proceeds", hint="use method 'sale' instead")
    made = ctx.create(
        Disposal,
        asset_id=asset.id,
        disposal_date=ctx.today(),
        method=method,
        proceeds=proceeds,
        buyer_name=buyer_name,
        net_book_value=asset.net_book_value,
        gain_loss=proceeds - asset.net_book_value,
        approved_by=approved_by,
    )
    ctx.update(asset, status="disposed")
    return made


@service.tool(intent="forecast the asset's depreciation", example=first_example(Asset, "asset_id", months=6))
def depreciation_forecast(
    ctx: Ctx, asset_id: AssetId, months: Annotated[int, Field(ge=1, le=60)] = 12
) -> list[ForecastMonth]:
    """The asset's projected depreciation for the coming months, as the runs would post it.

    Args:
        asset_id: The asset.
        months: How many months ahead.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    if asset.status in ("pending", "disposed"):
        return []
    year, month = (int(x) for x in _next_period(ctx).split("-"))
    out: list[ForecastMonth] = []
    for k in range(months):
        amount = monthly(asset)
        asset = asset.model_copy(
            update={"net_book_value": asset.net_book_value - amount, "months_depreciated": asset.months_depreciated + 1}
        )
        out.append(
            ForecastMonth(
                period=period_of(add_months(dt.date(year, month, 1), k)),
                amount=amount,
                net_book_value=asset.net_book_value,
            )
        )
    return out


# -- seed -------------------------------------------------------------------------------------

CLASSES: tuple[tuple[str, str, int, Method, str], ...] = (
    ("COMP", "Computer equipment", 36, "straight_line", "1520"),
    ("FURN", "Furniture and fixtures", 84, "straight_line", "1530"),
    ("VEH", "Vehicles", 60, "declining_balance_200", "1540"),
    ("MACH", "Machinery and equipment", 120, "straight_line", "1550"),
    ("LHI", "Leasehold improvements", 120, "straight_line", "1560"),
)
ITEMS: tuple[tuple[str, int, int, int], ...] = (
    ("MacBook Pro 16-inch", 0, 349_900, 20_000),
    ("Dell PowerEdge R750 server", 0, 1_250_000, 50_000),
    ("Standing desks (set of 10)", 1, 620_000, 40_000),
    ("Conference room furniture", 1, 980_000, 50_000),
    ("Ford Transit Connect van", 2, 3_450_000, 600_000),
    ("Toyota RAV4 Hybrid", 2, 3_200_000, 800_000),
    ("CNC milling machine", 3, 8_800_000, 500_000),
    ("Office fit-out, 3rd floor", 4, 15_000_000, 0),
    ("Cisco Catalyst 9300 switch stack", 0, 860_000, 0),
    ("Epson large-format printer", 3, 540_000, 30_000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Classes, the offices of the company, assets in every status, three monthly runs, a disposal."""
    pop = s.population
    staff = pop.staff("Finance", "Accounting", fallback=4)
    made = [
        s.create(
            AssetClass,
            code=c,
            name=n,
            useful_life_months=life,
            method=m,
            gl_asset_account=gl,
            created_at=s.ago(days=900),
            updated_at=s.ago(days=900),
        )
        for c, n, life, m, gl in CLASSES
    ]
    cities = [pop.home.place.city, *[p.city for p in pop.places if p.city != pop.home.place.city][:2]]
    sites = [
        s.create(
            Location,
            name=f"{city} {kind}",
            city=city,
            manager_email=staff[k % len(staff)].email,
            created_at=s.ago(days=900),
            updated_at=s.ago(days=900),
        )
        for k, (city, kind) in enumerate(zip(cities, ("headquarters", "office", "warehouse"), strict=False))
    ]
    today = s.now.date()
    this = dt.date(today.year, today.month, 1)
    periods = [period_of(add_months(this, -k)) for k in (3, 2, 1)]
    vendors = [c.name for c in pop.customers]
    for k, (name, ci, cost, salvage) in enumerate(ITEMS * 2):
        cls = made[ci]
        acquired = add_months(this, -(4 + 3 * k))
        pending = k in (5, 16)
        asset = s.create(
            Asset,
            name=name,
            class_id=cls.id,
            location_id=sites[k % len(sites)].id,
            custodian_email=pop.employees[k % len(pop.employees)].email,
            vendor_name=vendors[k % len(vendors)],
            cost=cost,
            salvage_value=salvage,
            acquired_on=acquired if not pending else today - dt.timedelta(days=3),
            in_service_date=None if pending else acquired,
            useful_life_months=cls.useful_life_months,
            method=cls.method,
            net_book_value=cost,
            status="pending" if pending else "in_service",
            created_at=s.ago(days=30 * (4 + 3 * k)),
            updated_at=s.ago(days=5),
        )
        if pending:
            continue
        # Opening balance: every month before the seeded runs, depreciated as the runs would.
        before = 3 + 3 * k - 3
        for _ in range(max(0, before)):
            asset = s.update(asset, **_step(asset))
    old = next(a for a in s.records(Asset) if a.name.startswith("Epson"))
    s.create(
        Disposal,
        asset_id=old.id,
        disposal_date=add_months(this, -3) - dt.timedelta(days=2),
        method="sale",
        proceeds=25_000,
        buyer_name=vendors[0],
        net_book_value=old.net_book_value,
        gain_loss=25_000 - old.net_book_value,
        approved_by=staff[0].email,
        created_at=s.ago(days=95),
    )
    s.update(old, status="disposed")

    for period in periods:
        run = s.create(
            DepreciationRun, period=period, total=0, asset_count=0, run_by=staff[0].email, created_at=s.ago(days=5)
        )
        total = count = 0
        for asset in s.records(Asset):
            if asset.status != "in_service":
                continue
            step = _step(asset)
            amount = asset.net_book_value - step["net_book_value"]
            if amount:
                s.create(
                    DepreciationEntry,
                    run_id=run.id,
                    asset_id=asset.id,
                    period=period,
                    amount=amount,
                    created_at=s.ago(days=5),
                )
                s.update(asset, **step)
                total, count = total + amount, count + 1
        s.update(run, total=total, asset_count=count)


def _step(asset: Asset) -> dict[str, Any]:
    amount = monthly(asset)
    nbv = asset.net_book_value - amount
    return {
        "months_depreciated": asset.months_depreciated + (1 if amount else 0),
        "accumulated_depreciation": asset.accumulated_depreciation + amount,
        "net_book_value": nbv,
        "status": "fully_depreciated" if nbv <= asset.salvage_value else "in_service",
    }
