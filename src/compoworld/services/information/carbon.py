"""Carbonledger: emission factors, estimates for activities, travel, freight, electricity and spend; footprint ledgers.

Modeled on the Climatiq API: ``/data/v1/search`` (emission factors by ``query``, ``category``, ``region``,
``year``, ``source``, ``unit_type``), ``/data/v1/estimate`` (an ``emission_factor.activity_id`` with
``parameters`` such as ``energy``/``energy_unit``, ``distance``, ``weight``, ``money``/``money_unit``,
``volume``), ``/travel/v1/distance`` (flights between cities with a cabin class), ``/freight/v1/intermodal``
(legs by truck, rail, sea and air with a cargo weight), ``/energy/v1/electricity`` (location-based and
market-based with a renewable share) and ``/procurement/v1/spend``. Results keep Climatiq's fields:
``co2e`` in ``kg``, ``co2e_calculation_method`` ``ar5``, ``activity_unit`` and the factor used.

An open-world service: the factors are a fixed table of published values (DEFRA/BEIS 2024 for fuels,
travel and freight, IEA 2023 grid intensities, EXIOBASE spend factors), and distances between the world's
cities come from the shared map (great circle plus DEFRA's 8 % uplift for flights), so every estimate is
reproducible. Stored state is the company's footprint ledgers (as in Climatiq-powered carbon accounting
such as Persefoni or Watershed): an employee's ledger for a reporting year holds entries recorded from
estimates, each with its GHG Protocol scope; an entry must fall in the ledger's year, a closed ledger is
frozen until reopened, and a ledger that holds entries cannot be deleted.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Country, Currency, Date, Email, IdOf, SemanticType, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold
from compoworld.world.geo import CITIES, haversine_km

__all__ = ["service"]

service = Service(
    "carbon",
    title="Carbonledger",
    category="emissions_data",
    modeled_on="Climatiq API (data/v1 search and estimate, travel distance, freight intermodal, energy "
    "electricity, procurement spend) with Persefoni-style footprint ledgers by GHG Protocol scope",
    description="Greenhouse-gas emissions: search emission factors, estimate kg CO2e for activities, flights, "
    "freight, electricity and spend, and keep the company's yearly footprint ledgers by scope.",
)

ActivityId = Annotated[
    str, SemanticType("carbon.activity", kind="ref"), StringConstraints(pattern=r"^[a-z0-9_-]{3,120}$")
]
Amount = Annotated[float, Field(gt=0, le=1e9)]
LedgerId = Annotated[str, IdOf("carbon.ledger")]
EntryId = Annotated[str, IdOf("carbon.entry")]
UnitType = Literal["Energy", "Distance", "Weight", "WeightOverDistance", "PassengerOverDistance", "Volume", "Money"]
Scope = Literal[1, 2, 3]
Cabin = Literal["economy", "premium_economy", "business", "first"]
FreightMode = Literal["road", "rail", "sea", "air"]
GRID = "electricity-supply_grid-source_residual_mix"
FLIGHT_UPLIFT = 1.08
"""DEFRA's distance uplift for flight routing."""
CABIN_FACTOR = {"economy": 1.0, "premium_economy": 1.6, "business": 2.9, "first": 4.0}
"""DEFRA long-haul class multipliers (seat area)."""
USD_PER = {"USD": 1.0, "EUR": 1.09, "GBP": 1.27, "JPY": 0.0067, "CHF": 1.13, "CAD": 0.74, "AUD": 0.66, "SEK": 0.095}


@dataclass(frozen=True, slots=True)
class _Factor:
    activity_id: str
    name: str
    category: str
    sector: str
    source: str
    region: str
    year: int
    unit_type: str
    unit: str
    factor: float
    """kg CO2e per unit."""
    scope: int


def _rows(text: str) -> list[list[str]]:
    return [line.split("|") for line in text.strip().splitlines()]


_GRIDS = {
    "GB": 0.207,
    "DE": 0.381,
    "FR": 0.056,
    "US": 0.369,
    "SE": 0.013,
    "PL": 0.662,
    "JP": 0.457,
    "BR": 0.094,
    "IN": 0.713,
    "CN": 0.582,
    "AU": 0.634,
    "ES": 0.146,
    "NL": 0.328,
    "IT": 0.315,
    "CA": 0.119,
    "SG": 0.408,
}
_FACTORS: tuple[_Factor, ...] = tuple(
    _Factor(
        GRID, f"Electricity supplied from grid ({cc})", "Electricity", "Energy", "IEA", cc, 2023, "Energy", "kWh", v, 2
    )
    for cc, v in _GRIDS.items()
) + tuple(
    _Factor(a, n, c, s, src, "GLOBAL", 2024, ut, u, float(f), int(sc))
    for a, n, c, s, src, ut, u, f, sc in _rows("""
fuel-type_diesel-fuel_use_na|Diesel (average biofuel blend)|Fuel|Energy|BEIS|Volume|l|2.51|1
fuel-type_petrol-fuel_use_na|Petrol (average biofuel blend)|Fuel|Energy|BEIS|Volume|l|2.10|1
fuel-type_natural_gas-fuel_use_stationary_combustion|Natural gas, stationary combustion|Fuel|Energy|BEIS|Energy|kWh|0.183|1
passenger_vehicle-vehicle_type_car-fuel_source_petrol-engine_size_medium|Medium petrol car|Vehicles|Transport|BEIS|Distance|km|0.177|3
passenger_vehicle-vehicle_type_car-fuel_source_bev-engine_size_medium|Medium battery electric car|Vehicles|Transport|BEIS|Distance|km|0.047|3
passenger_train-route_type_national_rail-fuel_source_na|National rail|Rail Travel|Transport|BEIS|PassengerOverDistance|passenger-km|0.035|3
passenger_flight-route_type_domestic-aircraft_type_na-distance_na-class_na-rf_included|Domestic flight (with radiative forcing)|Air Travel|Transport|BEIS|PassengerOverDistance|passenger-km|0.272|3
passenger_flight-route_type_short_haul-aircraft_type_na-distance_na-class_economy-rf_included|Short-haul flight, economy (with RF)|Air Travel|Transport|BEIS|PassengerOverDistance|passenger-km|0.186|3
passenger_flight-route_type_long_haul-aircraft_type_na-distance_na-class_economy-rf_included|Long-haul flight, economy (with RF)|Air Travel|Transport|BEIS|PassengerOverDistance|passenger-km|0.148|3
accommodation_type_hotel_stay|Hotel stay, per room night|Accommodation|Restaurants and Accommodation|BEIS|Number|night|18.3|3
freight_vehicle-vehicle_type_hgv-fuel_source_diesel-vehicle_weight_na-percentage_load_na|HGV, average laden|Road Freight|Transport|BEIS|WeightOverDistance|tonne-km|0.107|3
freight_train-route_type_na-fuel_source_na|Freight train|Rail Freight|Transport|BEIS|WeightOverDistance|tonne-km|0.028|3
sea_freight-vessel_type_container_ship-route_type_na|Container ship, average|Sea Freight|Transport|BEIS|WeightOverDistance|tonne-km|0.016|3
air_freight-route_type_international-distance_long_haul-rf_included|Long-haul air freight (with RF)|Air Freight|Transport|BEIS|WeightOverDistance|tonne-km|1.13|3
waste-type_mixed_commercial-disposal_method_landfill|Commercial waste to landfill|Waste|Waste|BEIS|Weight|t|467.0|3
office_equipment-type_computers|Computers and electronic products|Equipment|Materials and Manufacturing|EXIOBASE|Money|usd|0.31|3
professional_services-type_consulting|Management consulting services|Professional Services|Services|EXIOBASE|Money|usd|0.12|3
consumer_goods-type_office_supplies|Office supplies and stationery|Consumer Goods|Materials and Manufacturing|EXIOBASE|Money|usd|0.44|3
restaurants_accommodation-type_restaurants|Restaurant and catering services|Restaurants and Accommodation|Restaurants and Accommodation|EXIOBASE|Money|usd|0.24|3
information_communication-type_cloud_computing|Data processing and hosting services|Information and Communication|Services|EXIOBASE|Money|usd|0.09|3
""")
)
_FREIGHT = {
    "road": _FACTORS[len(_GRIDS) + 10],
    "rail": _FACTORS[len(_GRIDS) + 11],
    "sea": _FACTORS[len(_GRIDS) + 12],
    "air": _FACTORS[len(_GRIDS) + 13],
}
_SPEND_CATEGORIES = {f.activity_id.split("-")[0]: f for f in _FACTORS if f.unit_type == "Money"}


def _factor(activity_id: str, region: str | None, region_field: str = "region") -> _Factor:
    found = [f for f in _FACTORS if f.activity_id == activity_id]
    if not found:
        raise NotFound(
            f"no emission factor {activity_id!r}", field="activity_id", hint="find one with carbon__search_factors"
        )
    if region is None:
        if len(found) > 1:
            raise RuleViolation(
                f"{activity_id} has a factor per region", field="region", hint="give the region (ISO country code)"
            )
        return found[0]
    for f in found:
        if f.region in (region, "GLOBAL"):
            return f
    raise NotFound(f"no {activity_id} factor for {region}", field=region_field, hint="search the factor's regions")


def _city(name: str, field: str) -> tuple[float, float, str]:
    key = fold(name)
    for c in CITIES:
        if fold(c.city) == key:
            return c.latitude, c.longitude, c.country
    raise NotFound(f"no city {name!r} on the map", field=field, hint="use a major city's English name")


# -- result models -----------------------------------------------------------------------------------------


class EmissionFactor(BaseModel):
    """An emission factor."""

    activity_id: ActivityId = Field(description="Climatiq activity id.")
    name: str = Field(description="What it measures.")
    category: str = Field(description="Category.")
    sector: str = Field(description="Sector.")
    source: str = Field(description="Publisher (BEIS, IEA, EXIOBASE).")
    region: str = Field(description="ISO country code, or GLOBAL.")
    year: int = Field(description="Year of the data.")
    unit_type: str = Field(description="Kind of activity amount.")
    unit: str = Field(description="Unit of the activity amount.")
    factor: float = Field(description="kg CO2e per unit.")
    scope: Scope = Field(description="GHG Protocol scope of the activity for the consumer.")


class Estimate(BaseModel):
    """An emissions estimate."""

    co2e: float = Field(description="Emissions, in co2e_unit.")
    co2e_unit: Literal["kg"] = Field(description="Always kg.")
    co2e_calculation_method: Literal["ar5"] = Field(description="IPCC AR5 global warming potentials.")
    activity_id: ActivityId = Field(description="The factor used.")
    region: str = Field(description="Its region.")
    activity_amount: float = Field(description="The activity amount the factor was applied to.")
    activity_unit: str = Field(description="Its unit.")
    scope: Scope = Field(description="GHG Protocol scope.")
    notes: str = Field(description="How it was computed.")


class FreightLeg(BaseModel):
    """One leg of a shipment."""

    mode: FreightMode = Field(description="road, rail, sea or air.")
    distance_km: Annotated[float, Field(gt=0, le=40000)] = Field(description="Leg distance in km.")


def _estimate(f: _Factor, amount: float, unit: str | None = None, notes: str = "") -> Estimate:
    return Estimate(
        co2e=round(amount * f.factor, 3),
        co2e_unit="kg",
        co2e_calculation_method="ar5",
        activity_id=f.activity_id,
        region=f.region,
        activity_amount=round(amount, 3),
        activity_unit=unit or f.unit,
        scope=f.scope,
        notes=notes or f"{round(amount, 3)} {f.unit} x {f.factor} kg CO2e/{f.unit} ({f.source} {f.year})",
    )


def _flight(origin: str, destination: str, passengers: int, cabin: str) -> Estimate:
    a, b = _city(origin, "origin"), _city(destination, "destination")
    if (a[0], a[1]) == (b[0], b[1]):
        raise RuleViolation("origin and destination are the same city", field="destination", hint="name another city")
    km = haversine_km(a[0], a[1], b[0], b[1]) * FLIGHT_UPLIFT
    route = "domestic" if a[2] == b[2] else "short_haul" if km < 3700 else "long_haul"
    f = next(x for x in _FACTORS if x.activity_id.startswith(f"passenger_flight-route_type_{route}-"))
    mult = CABIN_FACTOR[cabin] if route == "long_haul" else (1.5 if cabin != "economy" else 1.0)
    est = _estimate(f, km * passengers * mult, "passenger-km")
    note = f"{origin} to {destination}: {round(km)} km incl. 8% uplift, {route}, {cabin} x{mult}, {passengers} pax"
    return est.model_copy(update={"notes": note})


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search emission factors", open_world=True, example=fixed_example(query="flight"))
def search_factors(
    ctx: Ctx,
    query: Annotated[str, StringConstraints(min_length=2, max_length=80)] | None = None,
    category: str | None = None,
    region: Country | None = None,
    unit_type: UnitType | None = None,
    source: Literal["BEIS", "IEA", "EXIOBASE"] | None = None,
) -> list[EmissionFactor]:
    """Search emission factors (/data/v1/search) by words, category, region, unit type and source.

    Args:
        query: Words that must all appear in the factor's name or activity id.
        category: Only this category (e.g. Electricity, Air Travel, Road Freight).
        region: Only factors for this country (global factors included).
        unit_type: Only factors applied to this kind of amount.
        source: Only this publisher.
    """
    words = fold(query or "").split()
    out = []
    for f in _FACTORS:
        text = fold(f"{f.name} {f.activity_id}")
        if (
            all(w in text for w in words)
            and (category is None or fold(category) == fold(f.category))
            and (region is None or f.region in (region, "GLOBAL"))
            and (unit_type is None or f.unit_type == unit_type)
            and (source is None or f.source == source)
        ):
            out.append(EmissionFactor(**{k: getattr(f, k) for k in EmissionFactor.model_fields}))
    return out


@service.tool(
    intent="estimate emissions of an activity",
    open_world=True,
    example=fixed_example(activity_id="fuel-type_diesel-fuel_use_na", amount=120.0),
)
def estimate(ctx: Ctx, activity_id: ActivityId, amount: Amount, region: Country | None = None) -> Estimate:
    """Estimate kg CO2e of an activity amount with a factor (/data/v1/estimate); the amount is in the factor's unit.

    Args:
        activity_id: The factor's activity id.
        amount: The activity amount in the factor's unit (kWh, l, km, passenger-km, tonne-km, t, usd, night).
        region: The region, for factors published per country (electricity).
    """
    return _estimate(_factor(activity_id, region), amount)


@service.tool(
    intent="estimate a flight's emissions",
    open_world=True,
    example=fixed_example(origin="London", destination="Berlin"),
)
def estimate_flight(
    ctx: Ctx,
    origin: City,
    destination: City,
    passengers: Annotated[int, Field(ge=1, le=500)] = 1,
    cabin_class: Cabin = "economy",
    return_trip: bool = False,
) -> Estimate:
    """Estimate a flight between two cities (/travel/v1/distance): great circle plus 8 %, by route and cabin class.

    Args:
        origin: City flown from.
        destination: City flown to.
        passengers: Travellers.
        cabin_class: economy, premium_economy, business or first (long-haul multipliers).
        return_trip: Count the way back too.
    """
    est = _flight(origin, destination, passengers, cabin_class)
    if not return_trip:
        return est
    return est.model_copy(
        update={
            "co2e": round(2 * est.co2e, 3),
            "activity_amount": round(2 * est.activity_amount, 3),
            "notes": est.notes + ", return",
        }
    )


@service.tool(
    intent="estimate a shipment's freight emissions",
    open_world=True,
    example=fixed_example(weight_kg=1200.0, legs=[{"mode": "road", "distance_km": 350.0}]),
)
def estimate_freight(
    ctx: Ctx, weight_kg: Amount, legs: Annotated[list[FreightLeg], Field(min_length=1, max_length=6)]
) -> Estimate:
    """Estimate an intermodal shipment (/freight/v1/intermodal): each leg's tonne-km times its mode's factor.

    Args:
        weight_kg: Cargo weight in kg.
        legs: The legs in order, each a mode and a distance.
    """
    tonnes = weight_kg / 1000
    total = sum(tonnes * leg.distance_km * _FREIGHT[leg.mode].factor for leg in legs)
    tkm = sum(tonnes * leg.distance_km for leg in legs)
    parts = ", ".join(f"{leg.mode} {leg.distance_km:g} km" for leg in legs)
    first = _FREIGHT[legs[0].mode]
    est = _estimate(first, tkm, "tonne-km", f"{tonnes:g} t over {parts}")
    return est.model_copy(update={"co2e": round(total, 3)})


@service.tool(
    intent="estimate electricity emissions",
    open_world=True,
    example=fixed_example(country="DE", energy_kwh=12000.0),
)
def estimate_electricity(
    ctx: Ctx,
    country: Country,
    energy_kwh: Amount,
    renewable_share: Annotated[float, Field(ge=0, le=100)] = 0.0,
) -> Estimate:
    """Estimate electricity use (/energy/v1/electricity): location-based, or market-based with a renewable share.

    Args:
        country: Where the electricity was used.
        energy_kwh: Energy in kWh.
        renewable_share: Percent covered by renewable certificates or a green tariff (market-based; 0 is the grid).
    """
    f = _factor(GRID, country, "country")
    fossil = energy_kwh * (1 - renewable_share / 100)
    method = "location-based" if renewable_share == 0 else f"market-based, {renewable_share:g}% renewable"
    est = _estimate(f, fossil, "kWh", f"{energy_kwh:g} kWh in {country}, {method}, {f.factor} kg/kWh (IEA 2023)")
    return est.model_copy(update={"activity_amount": energy_kwh})


@service.tool(
    intent="estimate emissions from spend",
    open_world=True,
    example=fixed_example(category="office_equipment", amount=250000, currency="EUR"),
)
def estimate_spend(ctx: Ctx, category: str, amount: Cents, currency: Currency = "USD") -> Estimate:
    """Estimate purchased goods and services from money spent (/procurement/v1/spend), EXIOBASE factors per USD.

    Args:
        category: office_equipment, professional_services, consumer_goods, restaurants_accommodation or
            information_communication.
        amount: Amount spent, in minor units (cents).
        currency: ISO 4217 code (USD, EUR, GBP, JPY, CHF, CAD, AUD, SEK).
    """
    f = _SPEND_CATEGORIES.get(category)
    if f is None:
        raise NotFound(f"no spend category {category!r}", field="category", hint=", ".join(_SPEND_CATEGORIES))
    if currency not in USD_PER:
        raise NotFound(f"no conversion for {currency}", field="currency", hint=", ".join(USD_PER))
    minor = 1 if currency == "JPY" else 100
    usd = amount / minor * USD_PER[currency]
    return _estimate(f, usd, "usd", f"{amount / minor:g} {currency} = {usd:.2f} USD x {f.factor} kg/USD (EXIOBASE)")


# -- ledgers -----------------------------------------------------------------------------------------------


class Ledger(Timestamped):
    """A footprint ledger for one reporting year."""

    id: LedgerId
    name: Title
    """Its name (unique per year)."""
    owner_email: Email
    """The employee who keeps it."""
    reporting_year: Annotated[int, Field(ge=2000, le=2100)]
    """The year it covers."""
    status: Literal["open", "closed"] = "open"
    """open, or closed (frozen)."""


class Entry(Timestamped):
    """An emissions entry of a ledger."""

    id: EntryId
    ledger_id: LedgerId
    """The ledger."""
    occurred_on: Date
    """When the activity happened (in the ledger's year)."""
    scope: Scope
    """GHG Protocol scope."""
    category: str
    """Factor category (Air Travel, Electricity…)."""
    activity_id: ActivityId
    """Factor used."""
    co2e_kg: float
    """Emissions in kg CO2e."""
    description: Text = ""
    """What it was."""
    notes: str = ""
    """How it was computed."""


def _guard_ledger(ctx: Ctx, new: Ledger, old: Ledger | None) -> None:
    if old is not None and old.status == "closed" and new.status == "closed":
        raise RuleViolation(f"ledger {old.id} is closed", field="ledger_id", hint="reopen it first")
    if new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{new.owner_email} is not an employee", field="owner_email", hint="staff keep ledgers")
    for other in ctx.where(Ledger, reporting_year=new.reporting_year, name=new.name):
        if other.id != new.id:
            raise Conflict(
                f"ledger {new.name!r} for {new.reporting_year} exists: {other.id}", field="name", hint="use it"
            )
    if old is not None and old.reporting_year != new.reporting_year and ctx.where(Entry, ledger_id=old.id):
        raise RuleViolation("a ledger with entries keeps its year", field="reporting_year", hint="start a new ledger")


def _guard_ledger_delete(ctx: Ctx, new: None, old: Ledger) -> None:
    if ctx.where(Entry, ledger_id=old.id):
        raise RuleViolation(f"ledger {old.id} holds entries", field="ledger_id", hint="close it instead")


def _open_ledger(ctx: Ctx, ledger_id: str, field: str = "ledger_id") -> Ledger:
    ledger = ctx.get(Ledger, ledger_id, field=field)
    if ledger.status == "closed":
        raise RuleViolation(f"ledger {ledger.id} is closed", field=field, hint="reopen it first")
    return ledger


def _guard_entry(ctx: Ctx, new: Entry | None, old: Entry | None) -> None:
    _open_ledger(ctx, (new or old).ledger_id, "entry_id")  # type: ignore[union-attr]


ledgers = service.resource(
    Ledger,
    name="ledger",
    plural="ledgers",
    prefix="led",
    create=("name", "owner_email", "reporting_year"),
    filters=("owner_email", "reporting_year", "status"),
    search=("name",),
    update=("name", "owner_email", "reporting_year"),
    transitions={
        "close": Transition("status", ("open",), "closed", "close the ledger for reporting"),
        "reopen": Transition("status", ("closed",), "open", "reopen the ledger"),
    },
    guard_create=_guard_ledger,
    guard_update=_guard_ledger,
    guard_delete=_guard_ledger_delete,
    title="footprint ledger",
)
entries = service.resource(
    Entry,
    name="entry",
    plural="entries",
    prefix="lde",
    create=False,
    filters=("ledger_id", "scope", "category", "activity_id"),
    search=("description", "notes"),
    update=("description",),
    guard_update=_guard_entry,
    guard_delete=_guard_entry,
    title="ledger entry",
)


def _record(ctx: Ctx, ledger_id: str, occurred_on: dt.date, est: Estimate, description: str) -> Entry:
    ledger = _open_ledger(ctx, ledger_id)
    if occurred_on.year != ledger.reporting_year:
        raise RuleViolation(
            f"{occurred_on} is outside the ledger's year {ledger.reporting_year}",
            field="occurred_on",
            hint="record it in the ledger of that year",
        )
    if occurred_on > ctx.today():
        raise RuleViolation(f"{occurred_on} is in the future", field="occurred_on", hint="record what happened")
    cat = next(f.category for f in _FACTORS if f.activity_id == est.activity_id)
    return ctx.create(
        Entry,
        ledger_id=ledger_id,
        occurred_on=occurred_on,
        scope=est.scope,
        category=cat,
        activity_id=est.activity_id,
        co2e_kg=est.co2e,
        description=description,
        notes=est.notes,
    )


def _example_record(ctx: Ctx) -> dict[str, Any] | None:
    ledger = ctx.first(Ledger, status="open", reporting_year=ctx.today().year)
    if ledger is None:
        return None
    return {
        "ledger_id": ledger.id,
        "occurred_on": ctx.today().replace(day=1).isoformat(),
        "amount": 40.0,
        "activity_id": "fuel-type_diesel-fuel_use_na",
    }


@service.tool(intent="record an activity's emissions in a ledger", write=True, example=_example_record)
def record_activity(
    ctx: Ctx,
    ledger_id: LedgerId,
    activity_id: ActivityId,
    amount: Amount,
    occurred_on: Date,
    region: Country | None = None,
    description: Text = "",
) -> Entry:
    """Estimate an activity with a factor and record it as a ledger entry in the factor's scope.

    Args:
        ledger_id: The ledger (open).
        activity_id: The factor's activity id.
        amount: Amount in the factor's unit.
        occurred_on: When it happened (in the ledger's year, not in the future).
        region: Region for per-country factors.
        description: What it was.
    """
    return _record(ctx, ledger_id, occurred_on, _estimate(_factor(activity_id, region), amount), description)


def _example_flight(ctx: Ctx) -> dict[str, Any] | None:
    got = _example_record(ctx)
    if got is None:
        return None
    return {
        "ledger_id": got["ledger_id"],
        "occurred_on": got["occurred_on"],
        "origin": "London",
        "destination": "Madrid",
    }


@service.tool(intent="record a business flight in a ledger", write=True, example=_example_flight)
def record_flight(
    ctx: Ctx,
    ledger_id: LedgerId,
    origin: City,
    destination: City,
    occurred_on: Date,
    passengers: Annotated[int, Field(ge=1, le=500)] = 1,
    cabin_class: Cabin = "economy",
    description: Text = "",
) -> Entry:
    """Estimate a one-way flight between two cities and record it as a scope 3 business-travel entry.

    Args:
        ledger_id: The ledger (open).
        origin: City flown from.
        destination: City flown to.
        occurred_on: Flight date (in the ledger's year).
        passengers: Travellers.
        cabin_class: Cabin class.
        description: Trip purpose or reference.
    """
    est = _flight(origin, destination, passengers, cabin_class)
    return _record(ctx, ledger_id, occurred_on, est, description or f"Flight {origin} - {destination}")


class Summary(BaseModel):
    """A ledger's totals."""

    ledger_id: LedgerId = Field(description="The ledger.")
    total_kg: float = Field(description="All entries, kg CO2e.")
    scope1_kg: float = Field(description="Scope 1.")
    scope2_kg: float = Field(description="Scope 2.")
    scope3_kg: float = Field(description="Scope 3.")
    by_category: dict[str, float] = Field(description="kg CO2e per category.")
    entries: int = Field(description="Number of entries.")


@service.tool(intent="total a ledger by scope and category", example=first_example(Ledger, "ledger_id"))
def ledger_summary(ctx: Ctx, ledger_id: LedgerId) -> Summary:
    """Total a ledger's entries by GHG Protocol scope and by category, in kg CO2e.

    Args:
        ledger_id: The ledger.
    """
    ledger = ctx.get(Ledger, ledger_id, field="ledger_id")
    rows = ctx.where(Entry, ledger_id=ledger.id)
    by_scope = {s: round(sum(e.co2e_kg for e in rows if e.scope == s), 3) for s in (1, 2, 3)}
    cats: dict[str, float] = {}
    for e in rows:
        cats[e.category] = round(cats.get(e.category, 0.0) + e.co2e_kg, 3)
    return Summary(
        ledger_id=ledger.id,
        total_kg=round(sum(e.co2e_kg for e in rows), 3),
        scope1_kg=by_scope[1],
        scope2_kg=by_scope[2],
        scope3_kg=by_scope[3],
        by_category=cats,
        entries=len(rows),
    )


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Last year's closed ledger and this year's open one: office electricity, gas, fleet diesel, flights."""
    pop = s.population
    owner = pop.staff("Operations", "Finance", fallback=1)[0]
    home = pop.home.place
    country = home.country if home.country in _GRIDS else "DE"
    travellers = pop.staff("Sales", fallback=3)
    others = [c.place.city for c in pop.customers if c.place.city != home.city][:3] or ["London"]
    today = s.now.date()
    planner = pop.staff("Marketing", fallback=1)[0]
    s.create(
        Ledger,
        name=f"Customer summit {today.year}",
        owner_email=planner.email,
        reporting_year=today.year,
        created_at=s.ago(days=5),
        updated_at=s.ago(days=5),
    )
    for year, status in ((today.year - 1, "closed"), (today.year, "open")):
        ledger = s.create(
            Ledger,
            name=f"{pop.home.name} footprint {year}",
            owner_email=owner.email,
            reporting_year=year,
            status=status,
            created_at=s.ago(days=400 if status == "closed" else 60),
            updated_at=s.ago(days=30),
        )
        months = range(1, 13) if status == "closed" else range(1, today.month)
        for m in months:
            day = dt.date(year, m, 28)
            plans = [
                (_factor(GRID, country), 18000.0 + 400 * m, f"Office electricity {day:%b %Y}"),
                (
                    _factor("fuel-type_natural_gas-fuel_use_stationary_combustion", None),
                    9000.0 - 500 * min(m, 6),
                    f"Office heating {day:%b %Y}",
                ),
                (_factor("fuel-type_diesel-fuel_use_na", None), 300.0 + 10 * m, f"Van fleet diesel {day:%b %Y}"),
            ]
            for f, amount, text in plans:
                est = _estimate(f, amount)
                s.create(
                    Entry,
                    ledger_id=ledger.id,
                    occurred_on=day,
                    scope=est.scope,
                    category=f.category,
                    activity_id=f.activity_id,
                    co2e_kg=est.co2e,
                    description=text,
                    notes=est.notes,
                    created_at=s.ago(days=30),
                    updated_at=s.ago(days=30),
                )
            person = travellers[m % len(travellers)]
            dest = others[m % len(others)]
            if dest != home.city:
                est = _flight(home.city, dest, 1, "economy")
                s.create(
                    Entry,
                    ledger_id=ledger.id,
                    occurred_on=day.replace(day=10),
                    scope=3,
                    category="Air Travel",
                    activity_id=est.activity_id,
                    co2e_kg=est.co2e,
                    description=f"{person.name}: {home.city} - {dest}",
                    notes=est.notes,
                    created_at=s.ago(days=30),
                    updated_at=s.ago(days=30),
                )
