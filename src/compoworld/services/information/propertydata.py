"""Parcelview: property records and valuations (details, owners, AVM, sales history, tax assessments) and saved lists.

Modeled on the ATTOM Property API: ``/property/detail`` and ``/property/detailowner`` (by
``address1``/``address2`` or ``attomid``; ``propertyType`` such as ``SFR``, ``CONDOMINIUM``,
``OFFICE BUILDING``; ``yearBuilt``, ``beds``, ``bathsTotal``, ``livingSize``, ``lotSize``,
``absenteeOwnerStatus``), ``/property/snapshot`` (search by ``postalcode``, ``propertytype``,
``minBeds``/``maxBeds``, ``minYearBuilt``), ``/attomavm/detail`` (``value``, ``high``, ``low``,
``scr`` confidence score, ``fsd``), ``/saleshistory/detail``, ``/assessment/detail``
(``assdLandValue``, ``assdImprValue``, ``taxAmt``, ``taxYear``), ``/sale/snapshot`` (sales in
a postal code over a period) and ``/salescomparables``.

An open-world service: the world's properties are the homes of its people and the offices of
its companies, at their postal addresses, each under a stable ATTOM id, with the person or
company as owner (absentee when the company's office is leased). Sizes, years and sale
histories are drawn from the world seed and the property; values follow the country's price
per square foot in the local currency and a yearly appreciation, so the AVM, the last sale,
the assessment and the comparables agree. Stored state is the team's saved property lists
(an acquisitions pipeline): a list is ``active`` or ``archived`` (frozen); a saved property
moves ``prospect`` → ``reviewing`` → ``acquired`` (only with a maximum offer, at most the AVM's
high estimate) or ``rejected``; valuations are refreshed from the AVM.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.engine.types import (
    Cents,
    Currency,
    Date,
    Email,
    IdOf,
    PostalAddress,
    PostalCode,
    SemanticType,
    Text,
    Title,
)
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "propertydata",
    title="Parcelview",
    category="property_data",
    modeled_on="ATTOM Property API (property/detail and detailowner, property/snapshot, attomavm/detail, "
    "saleshistory/detail, assessment/detail, sale/snapshot, salescomparables) with saved property lists",
    description="Property records: look up a property by address or ATTOM id with its owner, size and rooms, "
    "search properties in a postal code, get automated valuations with confidence, sales history, tax "
    "assessments, recent area sales and comparables, and keep the team's saved lists of properties under review.",
)

AttomId = Annotated[int, SemanticType("property.attom_id", kind="ref"), Field(ge=100000000, le=999999999)]
ListId = Annotated[str, IdOf("propertydata.property_list")]
SavedId = Annotated[str, IdOf("propertydata.saved_property")]
Street = Annotated[str, SemanticType("address.street"), StringConstraints(min_length=3, max_length=200)]
PropertyType = Literal["SFR", "CONDOMINIUM", "TOWNHOUSE", "OFFICE BUILDING", "COMMERCIAL (NEC)"]
MAX_SAVED = 100
APPRECIATION = 0.045
"""Yearly growth of values."""

_PER_M2 = {
    "US": 3000,
    "CA": 6000,
    "BR": 9000,
    "GB": 4000,
    "DE": 4500,
    "FR": 4800,
    "ES": 2800,
    "IT": 2600,
    "NL": 5000,
    "SE": 45000,
    "JP": 700000,
    "AU": 8000,
    "SG": 15000,
}
"""Price per square metre of a home in the local currency's major unit, on the world's first day."""
_ZERO_DECIMALS = {"JPY", "KRW", "ISK"}


@dataclass(frozen=True, slots=True)
class _Prop:
    id: int
    address: PostalAddress
    currency: str
    type: str
    owner: str
    owner_email: str | None
    absentee: bool
    year_built: int
    beds: int
    baths: float
    living_sqft: int
    lot_sqft: int
    sales: tuple[tuple[dt.date, int], ...]
    """Sale dates and prices in minor units, oldest first."""
    value: int
    """Value on the world's first day, minor units."""
    confidence: int


@dataclass(frozen=True, slots=True)
class _Db:
    props: dict[int, _Prop]
    by_address: dict[tuple[str, str], int]


def _minor(currency: str) -> int:
    return 1 if currency in _ZERO_DECIMALS else 100


@per_population
def _build(pop: Population) -> _Db:
    today = EPOCH.date()
    props: dict[int, _Prop] = {}
    owners: list[tuple[str, PostalAddress, str, str, str | None, bool]] = []
    seen: set[tuple[str, str]] = set()
    for p in pop.people:
        owners.append((p.key, p.address, p.place.currency, p.name, None if p.role == "employee" else p.email, False))
    for c in pop.companies:
        owners.append((c.key, c.address, c.place.currency, c.name, None, c.employees < 500))
    for k, (key, addr, currency, owner, email, absentee) in enumerate(owners):
        if (fold(addr.street), addr.postal_code) in seen:
            continue
        seen.add((fold(addr.street), addr.postal_code))
        r = random.Random(f"propertydata:{pop.seed}:{key}")
        office = key.startswith("co")
        kind = (
            r.choice(("OFFICE BUILDING", "COMMERCIAL (NEC)"))
            if office
            else r.choice(("SFR", "SFR", "CONDOMINIUM", "TOWNHOUSE"))
        )
        m2 = r.randint(400, 4000) if office else r.randint(55, 260)
        sqft = round(m2 * 10.764)
        per_m2 = _PER_M2.get(addr.country, 3000) * (1.3 if office else 1.0) * r.uniform(0.75, 1.3)
        value = round(m2 * per_m2) * _minor(currency)
        built = r.randint(1925, 2020)
        sales: list[tuple[dt.date, int]] = []
        day = dt.date(max(built, 1985), r.randint(1, 12), r.randint(1, 28))
        while day < today - dt.timedelta(days=400) and len(sales) < 4:
            years = (today - day).days / 365.25
            sales.append((day, int(round(value / (1 + APPRECIATION) ** years * r.uniform(0.92, 1.06), -2))))
            day += dt.timedelta(days=r.randint(1500, 4500))
        pid = 100_000_000 + 7_919 * k
        props[pid] = _Prop(
            pid,
            addr,
            currency,
            kind,
            owner,
            email,
            absentee,
            built,
            0 if office else r.randint(1, 5),
            0.0 if office else r.choice((1.0, 1.5, 2.0, 2.5, 3.0)),
            sqft,
            sqft * (1 if kind == "CONDOMINIUM" else r.randint(2, 6)),
            tuple(sales),
            value,
            r.randint(70, 97),
        )
    by_address = {(fold(p.address.street), p.address.postal_code): p.id for p in props.values()}
    return _Db(props, by_address)


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population)


def _value_on(p: _Prop, day: dt.date) -> int:
    years = (day - EPOCH.date()).days / 365.25
    return int(round(p.value * (1 + APPRECIATION) ** years, -2))


# -- result models -----------------------------------------------------------------------------------------


class Property(BaseModel):
    """A property's detail with its owner (property/detailowner)."""

    attom_id: AttomId = Field(description="ATTOM property id.")
    address: PostalAddress = Field(description="Postal address.")
    property_type: PropertyType = Field(description="SFR, CONDOMINIUM, TOWNHOUSE, OFFICE BUILDING or COMMERCIAL (NEC).")
    year_built: int = Field(description="Year built.")
    beds: int = Field(description="Bedrooms (0 for commercial).")
    baths_total: float = Field(description="Bathrooms (0 for commercial).")
    living_size_sqft: int = Field(description="Living or building area in square feet.")
    lot_size_sqft: int = Field(description="Lot area in square feet.")
    owner_name: str = Field(description="Owner of record (a person or a company).")
    owner_email: Email | None = Field(description="Owner's e-mail when on file.")
    absentee_owner: bool = Field(description="Whether the owner does not occupy it.")
    last_sale_date: Date | None = Field(description="Date of the last recorded sale.")
    last_sale_price: Cents | None = Field(description="Price of that sale, minor units.")
    currency: Currency = Field(description="Currency of the amounts.")


class Valuation(BaseModel):
    """An automated valuation (attomavm/detail)."""

    attom_id: AttomId = Field(description="ATTOM property id.")
    value: Cents = Field(description="Estimated market value, minor units.")
    high: Cents = Field(description="High end of the estimate.")
    low: Cents = Field(description="Low end of the estimate.")
    confidence_score: int = Field(description="0-100; above 80 is high confidence.")
    fsd: float = Field(description="Forecast standard deviation (share of the value).")
    value_per_sqft: Cents = Field(description="Value per square foot of living area.")
    currency: Currency = Field(description="Currency.")
    as_of: Date = Field(description="Date of the estimate.")


class Sale(BaseModel):
    """A recorded sale."""

    attom_id: AttomId = Field(description="ATTOM property id.")
    sale_date: Date = Field(description="Recording date.")
    price: Cents = Field(description="Sale price, minor units.")
    currency: Currency = Field(description="Currency.")
    price_per_sqft: Cents = Field(description="Price per square foot.")
    address: PostalAddress = Field(description="The property's address.")


class Assessment(BaseModel):
    """A tax assessment (assessment/detail)."""

    attom_id: AttomId = Field(description="ATTOM property id.")
    tax_year: int = Field(description="Tax year.")
    assessed_land_value: Cents = Field(description="Assessed value of the land.")
    assessed_improvement_value: Cents = Field(description="Assessed value of the buildings.")
    assessed_total_value: Cents = Field(description="Land plus improvements.")
    tax_amount: Cents = Field(description="Property tax billed for the year.")
    currency: Currency = Field(description="Currency.")


class Comparable(BaseModel):
    """A comparable property with its last sale."""

    attom_id: AttomId = Field(description="ATTOM property id.")
    address: PostalAddress = Field(description="Address.")
    property_type: PropertyType = Field(description="Type.")
    living_size_sqft: int = Field(description="Living area.")
    last_sale_date: Date = Field(description="Last sale.")
    last_sale_price: Cents = Field(description="Its price.")
    estimated_value: Cents = Field(description="Today's AVM value.")


# -- helpers -----------------------------------------------------------------------------------------------


def _prop(ctx: Ctx, attom_id: int, field: str = "attom_id") -> _Prop:
    p = _db(ctx).props.get(attom_id)
    if p is None:
        raise NotFound(
            f"no property {attom_id}",
            field=field,
            hint="look it up by address with propertydata__get_property_by_address",
        )
    return p


def _property(p: _Prop) -> Property:
    last = p.sales[-1] if p.sales else None
    return Property(
        attom_id=p.id,
        address=p.address,
        property_type=p.type,
        year_built=p.year_built,
        beds=p.beds,
        baths_total=p.baths,
        living_size_sqft=p.living_sqft,
        lot_size_sqft=p.lot_sqft,
        owner_name=p.owner,
        owner_email=p.owner_email,
        absentee_owner=p.absentee,
        last_sale_date=None if last is None else last[0],
        last_sale_price=None if last is None else last[1],
        currency=p.currency,
    )


def _avm(p: _Prop, day: dt.date) -> Valuation:
    value = _value_on(p, day)
    fsd = round((100 - p.confidence) / 200, 3)
    return Valuation(
        attom_id=p.id,
        value=value,
        high=int(round(value * (1 + fsd), -2)),
        low=int(round(value * (1 - fsd), -2)),
        confidence_score=p.confidence,
        fsd=fsd,
        value_per_sqft=round(value / p.living_sqft),
        currency=p.currency,
        as_of=day,
    )


def _sale(p: _Prop, day: dt.date, price: int) -> Sale:
    return Sale(
        attom_id=p.id,
        sale_date=day,
        price=price,
        currency=p.currency,
        price_per_sqft=round(price / p.living_sqft),
        address=p.address,
    )


def _example_prop(ctx: Ctx) -> dict[str, Any]:
    return {"attom_id": next(p.id for p in _db(ctx).props.values() if p.sales)}


# -- open-world tools --------------------------------------------------------------------------------------


def _example_address(ctx: Ctx) -> dict[str, Any]:
    a = ctx.population.consumers[0].address
    return {"street": a.street, "postal_code": a.postal_code}


@service.tool(intent="look up a property by its address", open_world=True, example=_example_address)
def get_property_by_address(ctx: Ctx, street: Street, postal_code: PostalCode) -> Property:
    """Get the property at an address with its owner (property/detailowner by address1 and address2).

    Args:
        street: Street and number, as on the address (case and accents do not matter).
        postal_code: Its postal code.
    """
    pid = _db(ctx).by_address.get((fold(street), postal_code))
    if pid is None:
        same = [p.address.street for p in _db(ctx).props.values() if p.address.postal_code == postal_code]
        raise NotFound(
            f"no property at {street}, {postal_code}",
            field="street",
            hint=f"streets on file in {postal_code}: {', '.join(same[:4])}" if same else "check the postal code",
        )
    return _property(_db(ctx).props[pid])


@service.tool(intent="get the property's details and owner", open_world=True, example=_example_prop)
def get_property(ctx: Ctx, attom_id: AttomId) -> Property:
    """Get a property by ATTOM id (property/detailowner): type, year, rooms, sizes, owner and last sale.

    Args:
        attom_id: The ATTOM property id.
    """
    return _property(_prop(ctx, attom_id))


def _example_postal(ctx: Ctx) -> dict[str, Any]:
    return {"postal_code": ctx.population.consumers[0].address.postal_code}


@service.tool(intent="search properties in a postal code", open_world=True, example=_example_postal)
def search_properties(
    ctx: Ctx,
    postal_code: PostalCode,
    property_type: PropertyType | None = None,
    min_beds: Annotated[int, Field(ge=0, le=20)] | None = None,
    min_year_built: Annotated[int, Field(ge=1800, le=2100)] | None = None,
) -> list[Property]:
    """Search the properties of a postal code (property/snapshot) by type, bedrooms and year built.

    Args:
        postal_code: The postal code.
        property_type: Only this type.
        min_beds: At least this many bedrooms.
        min_year_built: Built in this year or later.
    """
    found = [
        p
        for p in _db(ctx).props.values()
        if p.address.postal_code == postal_code
        and (property_type is None or p.type == property_type)
        and (min_beds is None or p.beds >= min_beds)
        and (min_year_built is None or p.year_built >= min_year_built)
    ]
    return [_property(p) for p in sorted(found, key=lambda p: (p.address.street, p.id))]


@service.tool(intent="get the property's automated valuation", open_world=True, example=_example_prop)
def get_avm(ctx: Ctx, attom_id: AttomId) -> Valuation:
    """Get today's automated valuation of a property (attomavm/detail): value, high, low, confidence and FSD.

    Args:
        attom_id: The ATTOM property id.
    """
    return _avm(_prop(ctx, attom_id), ctx.today())


@service.tool(intent="get the property's sales history", open_world=True, example=_example_prop)
def get_sales_history(ctx: Ctx, attom_id: AttomId) -> list[Sale]:
    """List every recorded sale of a property, newest first (saleshistory/detail).

    Args:
        attom_id: The ATTOM property id.
    """
    p = _prop(ctx, attom_id)
    return [_sale(p, day, price) for day, price in reversed(p.sales)]


@service.tool(intent="get the property's tax assessment", open_world=True, example=_example_prop)
def get_assessment(
    ctx: Ctx, attom_id: AttomId, tax_year: Annotated[int, Field(ge=1990, le=2100)] | None = None
) -> Assessment:
    """Get a property's tax assessment for a year (assessment/detail): land, improvements, total and tax.

    Assessed values are 85 % of the value on 1 January of the tax year; land is 30 % of it
    (20 % for a condominium) and the tax is 1.1 % of the assessed total.

    Args:
        attom_id: The ATTOM property id.
        tax_year: The tax year (default: last year, the latest assessed).
    """
    p = _prop(ctx, attom_id)
    latest = ctx.today().year - 1
    year = tax_year or latest
    if year > latest or year < p.year_built:
        raise RuleViolation(
            f"no assessment for {year}",
            field="tax_year",
            hint=f"ask for a year from {max(1990, p.year_built)} to {latest}",
        )
    total = int(round(_value_on(p, dt.date(year, 1, 1)) * 0.85, -2))
    land = int(round(total * (0.2 if p.type == "CONDOMINIUM" else 0.3), -2))
    return Assessment(
        attom_id=p.id,
        tax_year=year,
        assessed_land_value=land,
        assessed_improvement_value=total - land,
        assessed_total_value=total,
        tax_amount=round(total * 0.011),
        currency=p.currency,
    )


@service.tool(
    intent="list recent sales in a postal code",
    open_world=True,
    example=lambda ctx: _example_postal(ctx) | {"start_date": "2000-01-01"},
)
def sales_snapshot(ctx: Ctx, postal_code: PostalCode, start_date: Date, end_date: Date | None = None) -> list[Sale]:
    """List the sales recorded in a postal code between two dates, newest first (sale/snapshot).

    Args:
        postal_code: The postal code.
        start_date: First recording date.
        end_date: Last recording date (default: today).
    """
    end = end_date or ctx.today()
    if end < start_date:
        raise RuleViolation(f"end_date {end} is before {start_date}", field="end_date", hint="swap the dates")
    out = [
        _sale(p, day, price)
        for p in _db(ctx).props.values()
        if p.address.postal_code == postal_code
        for day, price in p.sales
        if start_date <= day <= end
    ]
    return sorted(out, key=lambda s: (-s.sale_date.toordinal(), s.attom_id))


@service.tool(intent="find comparable sold properties", open_world=True, example=_example_prop)
def get_comparables(ctx: Ctx, attom_id: AttomId, limit: Annotated[int, Field(ge=1, le=20)] = 5) -> list[Comparable]:
    """Find sold properties comparable to one (salescomparables): same kind, same country, closest in size.

    Args:
        attom_id: The subject property.
        limit: Most comparables.
    """
    p, today = _prop(ctx, attom_id), ctx.today()
    office = p.type in ("OFFICE BUILDING", "COMMERCIAL (NEC)")
    pool = [
        o
        for o in _db(ctx).props.values()
        if o.id != p.id
        and o.sales
        and o.address.country == p.address.country
        and (o.type in ("OFFICE BUILDING", "COMMERCIAL (NEC)")) == office
    ]
    pool.sort(key=lambda o: (o.address.city != p.address.city, abs(o.living_sqft - p.living_sqft), o.id))
    return [
        Comparable(
            attom_id=o.id,
            address=o.address,
            property_type=o.type,
            living_size_sqft=o.living_sqft,
            last_sale_date=o.sales[-1][0],
            last_sale_price=o.sales[-1][1],
            estimated_value=_value_on(o, today),
        )
        for o in pool[:limit]
    ]


# -- saved lists -------------------------------------------------------------------------------------------


class PropertyList(Timestamped):
    """A saved list of properties an employee is looking at."""

    id: ListId
    name: Title
    """Its name (unique per owner)."""
    owner_email: Email
    """The employee who keeps it."""
    purpose: Text = ""
    """What the list is for."""
    status: Literal["active", "archived"] = "active"
    """active, or archived (frozen)."""


class SavedProperty(Timestamped):
    """A property on a list, with its valuation when saved and its review status."""

    id: SavedId
    list_id: ListId
    """The list."""
    attom_id: AttomId
    """The property."""
    address: PostalAddress
    """Its address."""
    currency: Currency
    """Currency of the amounts."""
    value_at_save: Cents
    """AVM value when it was saved."""
    latest_value: Cents
    """AVM value at the last refresh."""
    valued_on: Date
    """When latest_value was taken."""
    max_offer: Cents | None = None
    """The most the team would pay (at most the AVM's high estimate)."""
    status: Literal["prospect", "reviewing", "acquired", "rejected"] = "prospect"
    """prospect, reviewing, acquired or rejected."""
    note: Text = ""
    """Notes."""


def _guard_list(ctx: Ctx, new: PropertyList, old: PropertyList | None) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"list {old.id} is archived", field="property_list_id", hint="unarchive it first")
    if new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(
            f"{new.owner_email} is not an employee", field="owner_email", hint="lists are kept by staff"
        )
    for other in ctx.where(PropertyList, owner_email=new.owner_email, name=new.name):
        if other.id != new.id:
            raise Conflict(f"{new.owner_email} already has a list named {new.name!r}", field="name", hint="rename it")


def _guard_list_delete(ctx: Ctx, new: None, old: PropertyList) -> None:
    saved = ctx.where(SavedProperty, list_id=old.id)
    if any(s.status == "reviewing" for s in saved):
        raise RuleViolation(
            f"list {old.id} has properties under review",
            field="property_list_id",
            hint="reject them or archive the list",
        )
    for s in saved:
        ctx.delete(s)


def _guard_saved(ctx: Ctx, new: SavedProperty | None, old: SavedProperty | None) -> None:
    rec = new or old
    assert rec is not None
    lst = ctx.find(PropertyList, rec.list_id)
    if lst is not None and lst.status == "archived":
        raise RuleViolation(f"list {lst.id} is archived", field="saved_property_id", hint="unarchive the list first")
    if new is None:
        return
    if new.max_offer is not None and old is not None and new.max_offer != old.max_offer:
        high = _avm(_prop(ctx, new.attom_id), ctx.today()).high
        if new.max_offer > high:
            raise RuleViolation(
                f"a maximum offer of {new.max_offer} is above the AVM high estimate {high}",
                field="max_offer",
                hint=f"offer at most {high} {new.currency} minor units",
            )
    if new.status == "acquired" and new.max_offer is None:
        raise RuleViolation(
            "a property is acquired only with a maximum offer approved",
            field="saved_property_id",
            hint="set max_offer with propertydata__update_saved_property first",
        )


property_lists = service.resource(
    PropertyList,
    name="property_list",
    plural="property_lists",
    prefix="pl",
    create=("name", "owner_email", "purpose"),
    filters=("owner_email", "status"),
    search=("name", "purpose"),
    update=("name", "purpose"),
    transitions={
        "archive": Transition("status", ("active",), "archived", "archive the property list"),
        "unarchive": Transition("status", ("archived",), "active", "unarchive the property list"),
    },
    guard_create=_guard_list,
    guard_update=_guard_list,
    guard_delete=_guard_list_delete,
    title="saved property list",
)
saved_properties = service.resource(
    SavedProperty,
    name="saved_property",
    plural="saved_properties",
    prefix="sp",
    create=False,
    filters=("list_id", "attom_id", "status"),
    search=("note",),
    update=("note", "max_offer"),
    transitions={
        "start_review": Transition("status", ("prospect",), "reviewing", "start reviewing the property"),
        "acquire": Transition("status", ("reviewing",), "acquired", "mark the property as acquired"),
        "reject": Transition("status", ("prospect", "reviewing"), "rejected", "reject the property"),
    },
    guard_update=_guard_saved,
    guard_delete=_guard_saved,
    title="saved property",
)


def _example_save(ctx: Ctx) -> dict[str, Any] | None:
    lst = ctx.first(PropertyList, status="active")
    if lst is None:
        return None
    have = {s.attom_id for s in ctx.where(SavedProperty, list_id=lst.id)}
    return {"property_list_id": lst.id, "attom_id": next(p for p in _db(ctx).props if p not in have)}


@service.tool(intent="save a property to a list", write=True, example=_example_save)
def save_property(ctx: Ctx, property_list_id: ListId, attom_id: AttomId, note: Text = "") -> SavedProperty:
    """Save a property to a list as a prospect, with today's AVM value; a property is on a list once.

    Args:
        property_list_id: The list (active).
        attom_id: The ATTOM property id.
        note: Why it is interesting.
    """
    lst = ctx.get(PropertyList, property_list_id, field="property_list_id")
    if lst.status == "archived":
        raise RuleViolation(f"list {lst.id} is archived", field="property_list_id", hint="unarchive it first")
    p = _prop(ctx, attom_id)
    saved = ctx.where(SavedProperty, list_id=lst.id)
    other = next((s for s in saved if s.attom_id == p.id), None)
    if other is not None:
        raise Conflict(
            f"{p.address.street} is already on the list as {other.id}", field="attom_id", hint="use that entry"
        )
    if len(saved) >= MAX_SAVED:
        raise RuleViolation(
            f"list {lst.id} holds {MAX_SAVED} properties", field="property_list_id", hint="start another"
        )
    value = _avm(p, ctx.today()).value
    return ctx.create(
        SavedProperty,
        list_id=lst.id,
        attom_id=p.id,
        address=p.address,
        currency=p.currency,
        value_at_save=value,
        latest_value=value,
        valued_on=ctx.today(),
        note=note,
    )


@service.tool(
    intent="refresh the valuations of a saved list",
    write=True,
    example=first_example(PropertyList, "property_list_id", where={"status": "active"}),
)
def refresh_valuations(ctx: Ctx, property_list_id: ListId) -> list[SavedProperty]:
    """Take today's AVM value for every prospect and property under review on a list.

    Args:
        property_list_id: The list (active).
    """
    lst = ctx.get(PropertyList, property_list_id, field="property_list_id")
    if lst.status == "archived":
        raise RuleViolation(f"list {lst.id} is archived", field="property_list_id", hint="unarchive it first")
    out = []
    for s in ctx.where(SavedProperty, list_id=lst.id):
        if s.status in ("prospect", "reviewing"):
            value = _avm(_prop(ctx, s.attom_id), ctx.today()).value
            out.append(ctx.update(s, latest_value=value, valued_on=ctx.today()))
    return out


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """An acquisitions list of offices near the home company (in every review state) and an archived home search."""
    db = _build(s.population)
    owners = s.population.staff("Operations", "Finance", fallback=2)
    home = s.population.home.address
    offices = sorted(
        (p for p in db.props.values() if p.type in ("OFFICE BUILDING", "COMMERCIAL (NEC)")),
        key=lambda p: (p.address.country != home.country, p.address.city != home.city, p.id),
    )
    homes = [p for p in db.props.values() if p.type == "SFR"]
    plans = (
        ("Office expansion", "Buildings for the new regional office.", "active", offices[:5], 60),
        ("Relocation homes 2025", "Homes shortlisted for relocating staff.", "archived", homes[:3], 300),
    )
    states = ("prospect", "prospect", "reviewing", "acquired", "rejected")
    for k, (name, purpose, status, props, age) in enumerate(plans):
        lst = s.create(
            PropertyList,
            name=name,
            owner_email=owners[k % len(owners)].email,
            purpose=purpose,
            status=status,
            created_at=s.ago(days=age),
            updated_at=s.ago(days=age // 4),
        )
        for j, p in enumerate(props):
            then = s.now.date() - dt.timedelta(days=age - j)
            state = states[j] if status == "active" else "rejected"
            s.create(
                SavedProperty,
                list_id=lst.id,
                attom_id=p.id,
                address=p.address,
                currency=p.currency,
                value_at_save=_value_on(p, then),
                latest_value=_value_on(p, then),
                valued_on=then,
                max_offer=int(round(_value_on(p, then) * 0.95, -2)) if state in ("reviewing", "acquired") else None,
                status=state,
                note="Close to the client cluster." if j == 0 else "",
                created_at=s.ago(days=age - j),
                updated_at=s.ago(days=max(1, (age - j) // 3)),
            )
