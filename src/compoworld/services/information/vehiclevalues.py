"""Autovalue: used-vehicle valuation (trade-in, private party, dealer retail) and a trade-in desk's appraisals.

Modeled on the Edmunds Vehicle API and True Market Value (``/api/vehicle/v2/{make}/{model}/{year}/styles``,
``/v1/api/tmv/tmvservice/calculateusedtmv`` with ``styleid``, ``condition`` Outstanding / Clean /
Average / Rough, ``mileage`` and ``zip``, returning ``usedTradeIn``, ``usedPrivateParty`` and
``usedTmvRetail`` with mileage, condition and regional adjustments; True Cost to Own) and Kelley
Blue Book's trade-in and private-party values, with a dealer's trade-in appraisals as kept in
appraisal tools (vAuto, ACV): an appraisal of a customer's car, an offer valid for seven days,
accepted or declined.

An open-world service: the makes and models are the VIN decoder's (``vindecode``), so a VIN is
valued as decoded there. A style's MSRP follows its body, make and trim; its clean retail value
falls with age by the make's yearly retention; the mileage adjustment is against 12,000 miles a
year; the condition and the ZIP code's region scale it; trade-in and private-party values are
fixed shares of retail. Stored state is the appraisals: made by an employee for a customer (one
open appraisal per VIN), re-appraised only as drafts, an offer at most the private-party value,
accepted only while valid, declined or cancelled; decided appraisals are final.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, PersonName, Text
from compoworld.services.information.vindecode import _MAKES, Vin, _decode, _Make, _Model, _models_in, make_vin
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "vehiclevalues",
    title="Autovalue",
    category="vehicle_valuation",
    modeled_on="Edmunds Vehicle API and True Market Value (styles, used TMV by condition, mileage and ZIP, True Cost "
    "to Own) with Kelley Blue Book trade-in and private-party values and a dealer's trade-in appraisals",
    description="Vehicle valuation: list makes, models and styles with MSRP, value a used vehicle (trade-in, private "
    "party, dealer retail) by year, style, mileage, condition and ZIP or by VIN, see depreciation and five-year cost "
    "to own, and keep trade-in appraisals with offers that customers accept or decline.",
)

Zip = Annotated[str, StringConstraints(pattern=r"^[0-9]{5}$")]
Year = Annotated[int, Field(ge=1981, le=2100)]
Mileage = Annotated[int, Field(ge=0, le=999_999)]
Dollars = Annotated[int, Field(ge=0, le=10**7)]
AppraisalId = Annotated[str, IdOf("vehiclevalues.appraisal")]
Condition = Literal["outstanding", "clean", "average", "rough"]
Trim = Literal["Base", "S", "SE", "Limited", "Sport", "Premium"]
_TRIMS: dict[str, float] = {"Base": 1.0, "S": 1.06, "SE": 1.1, "Limited": 1.25, "Sport": 1.15, "Premium": 1.3}
_CONDITIONS: dict[str, tuple[float, str]] = {
    "outstanding": (1.06, "Exceptional mechanical, exterior and interior condition; no reconditioning needed."),
    "clean": (1.0, "Minimal wear, no major mechanical problems; little reconditioning needed."),
    "average": (0.91, "Normal wear for its age, a few minor problems; some reconditioning needed."),
    "rough": (0.78, "Significant mechanical or cosmetic problems; substantial repairs needed."),
}
_BODY_MSRP = {"Pickup": 46_000, "Sport Utility Vehicle (SUV)": 37_000, "Sedan/Saloon": 28_000, "Hatchback": 25_000}
_PREMIUM = {"BMW": 1.6, "MERCEDES-BENZ": 1.65, "TESLA": 1.45, "VOLVO": 1.35, "FIAT": 0.85, "HYUNDAI": 0.9}
_RETENTION = {"TOYOTA": 0.9, "HONDA": 0.895, "SUBARU": 0.89, "TESLA": 0.85, "BMW": 0.84, "MERCEDES-BENZ": 0.845}
_REGION = {"0": 1.03, "1": 1.03, "2": 0.99, "3": 0.97, "4": 0.98, "5": 0.97, "6": 0.99, "7": 0.98, "8": 1.01, "9": 1.04}
TRADE_IN_SHARE = 0.8
PRIVATE_SHARE = 0.91
MILES_PER_YEAR = 12_000
OFFER_DAYS = 7


def _make(name: str, field: str = "make") -> _Make:
    mk = next((m for m in _MAKES if m.name == name.strip().upper()), None)
    if mk is None:
        raise NotFound(f"make {name!r} is unknown", field=field, hint="list makes with vehiclevalues__list_makes")
    return mk


def _model(mk: _Make, name: str, year: int, field: str = "model") -> _Model:
    md = next((m for m in mk.models if m.name.lower() == name.strip().lower()), None)
    if md is None:
        raise NotFound(
            f"{mk.name} has no model {name!r}", field=field, hint="list models with vehiclevalues__list_models"
        )
    if md not in _models_in(mk, year):
        last = md.last or "today"
        raise RuleViolation(
            f"{mk.name} {md.name} was built {md.first}-{last}, not in {year}",
            field="year",
            hint="pick a model year it was built",
        )
    return md


def _check_year(ctx: Ctx, year: int) -> None:
    if year > ctx.today().year:
        raise RuleViolation(f"model year {year} is not on sale yet", field="year", hint="value a built model year")


def _msrp(mk: _Make, md: _Model, trim: str) -> int:
    base = _BODY_MSRP.get(md.body, 40_000) * _PREMIUM.get(mk.name, 1.0) * _TRIMS[trim]
    if md.electrification == "BEV":
        base *= 1.2
    return round(base / 50) * 50


def _retail(today: dt.date, mk: _Make, md: _Model, year: int, trim: str) -> float:
    """Clean dealer-retail value at typical mileage, before region (a model year goes on sale the October before)."""
    age = max(0.0, (today - dt.date(year - 1, 10, 1)).days / 365.25)
    return float(_msrp(mk, md, trim) * 0.9 * _RETENTION.get(mk.name, 0.87) ** age)


def _round(x: float) -> int:
    return max(100, round(x / 25) * 25)


# -- result models -----------------------------------------------------------------------------------------


class MakeInfo(BaseModel):
    """A make."""

    make: str = Field(description="Make name (upper case).")
    country: str = Field(description="Country of the maker.")
    models: list[str] = Field(description="Its models.")


class ModelInfo(BaseModel):
    """A model."""

    make: str = Field(description="Make.")
    model: str = Field(description="Model.")
    body: str = Field(description="Body style.")
    fuel: str = Field(description="Primary fuel.")
    first_year: int = Field(description="First model year.")
    last_year: int | None = Field(description="Last model year (none: still built).")


class Style(BaseModel):
    """A style (trim) of a model year, with its price when new."""

    make: str = Field(description="Make.")
    model: str = Field(description="Model.")
    year: int = Field(description="Model year.")
    trim: Trim = Field(description="Trim.")
    msrp: Dollars = Field(description="Base MSRP when new, whole US dollars.")


class Valuation(BaseModel):
    """A used vehicle's True Market Value (whole US dollars)."""

    make: str = Field(description="Make.")
    model: str = Field(description="Model.")
    year: int = Field(description="Model year.")
    trim: Trim = Field(description="Trim.")
    mileage: Mileage = Field(description="Odometer miles.")
    condition: Condition = Field(description="Condition.")
    zip: Zip = Field(description="ZIP code of the sale.")
    trade_in: Dollars = Field(description="What a dealer pays on a trade-in (usedTradeIn).")
    private_party: Dollars = Field(description="A fair price between private parties (usedPrivateParty).")
    dealer_retail: Dollars = Field(description="A fair dealer price (usedTmvRetail).")
    mileage_adjustment: int = Field(description="Dollars added (negative: taken) for mileage above or below typical.")
    condition_adjustment: int = Field(description="Dollars for condition against clean.")
    regional_adjustment: int = Field(description="Dollars for the ZIP's region.")
    typical_mileage: int = Field(description="Expected miles for its age.")
    msrp: Dollars = Field(description="Base MSRP when new.")
    vin: Vin | None = Field(default=None, description="The VIN valued, if valued by VIN.")


class YearValue(BaseModel):
    """A vehicle's clean private-party value at the end of a year of ownership."""

    year_of_ownership: int = Field(description="0 is today.")
    on: Date = Field(description="Date.")
    private_party: Dollars = Field(description="Clean private-party value at typical mileage.")


class CostToOwn(BaseModel):
    """Five-year True Cost to Own (whole US dollars)."""

    depreciation: int = Field(description="Value lost over five years.")
    fuel: int = Field(description="Fuel or charging.")
    insurance: int = Field(description="Insurance.")
    maintenance: int = Field(description="Maintenance and repairs.")
    total: int = Field(description="Sum.")
    per_mile: float = Field(description="Total per mile at 15,000 miles a year.")


class ConditionInfo(BaseModel):
    """A condition grade."""

    condition: Condition = Field(description="Grade.")
    factor: float = Field(description="Multiplier of the clean value.")
    description: str = Field(description="What it means.")


def _value(
    today: dt.date, make: str, model: str, year: int, trim: str, mileage: int, condition: str, zip: str
) -> Valuation:
    if year > today.year:
        raise RuleViolation(f"model year {year} is not on sale yet", field="year", hint="value a built model year")
    mk = _make(make)
    md = _model(mk, model, year)
    clean = _retail(today, mk, md, year, trim)
    age = max(0.5, today.year - year + 0.5)
    typical = round(MILES_PER_YEAR * age)
    miles = max(-0.3 * clean, min(0.15 * clean, -(mileage - typical) * clean * 0.0000025))
    cond = (clean + miles) * (_CONDITIONS[condition][0] - 1)
    region = (clean + miles + cond) * (_REGION[zip[0]] - 1)
    retail = clean + miles + cond + region
    return Valuation(
        make=mk.name,
        model=md.name,
        year=year,
        trim=trim,
        mileage=mileage,
        condition=condition,
        zip=zip,
        trade_in=_round(retail * TRADE_IN_SHARE),
        private_party=_round(retail * PRIVATE_SHARE),
        dealer_retail=_round(retail),
        mileage_adjustment=round(miles),
        condition_adjustment=round(cond),
        regional_adjustment=round(region),
        typical_mileage=typical,
        msrp=_msrp(mk, md, trim),
    )


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="list vehicle makes", open_world=True)
def list_makes(ctx: Ctx) -> list[MakeInfo]:
    """List the makes with their countries and models."""
    return [MakeInfo(make=m.name, country=m.country, models=[md.name for md in m.models]) for m in _MAKES]


@service.tool(intent="list the make's models", open_world=True, example=fixed_example(make="TOYOTA"))
def list_models(ctx: Ctx, make: str, year: Year | None = None) -> list[ModelInfo]:
    """List a make's models, optionally only those built in a model year.

    Args:
        make: Make name (any case).
        year: Only models of this model year.
    """
    mk = _make(make)
    found = mk.models if year is None else _models_in(mk, year)
    return [
        ModelInfo(make=mk.name, model=m.name, body=m.body, fuel=m.fuel, first_year=m.first, last_year=m.last)
        for m in found
    ]


@service.tool(
    intent="list the styles and prices", open_world=True, example=fixed_example(make="TOYOTA", model="RAV4", year=2021)
)
def list_styles(ctx: Ctx, make: str, model: str, year: Year) -> list[Style]:
    """List a model year's styles (trims) with their MSRP when new (/api/vehicle/v2/{make}/{model}/{year}/styles).

    Args:
        make: Make.
        model: Model.
        year: Model year.
    """
    _check_year(ctx, year)
    mk = _make(make)
    md = _model(mk, model, year)
    return [Style(make=mk.name, model=md.name, year=year, trim=t, msrp=_msrp(mk, md, t)) for t in _TRIMS]


@service.tool(
    intent="value a used vehicle",
    open_world=True,
    example=fixed_example(
        make="HONDA", model="Civic", year=2020, trim="SE", mileage=48000, condition="clean", zip="98101"
    ),
)
def get_value(
    ctx: Ctx,
    make: str,
    model: str,
    year: Year,
    mileage: Mileage,
    zip: Zip,
    trim: Trim = "Base",
    condition: Condition = "clean",
) -> Valuation:
    """Value a used vehicle: trade-in, private-party and dealer-retail values with their adjustments (TMV).

    Args:
        make: Make.
        model: Model.
        year: Model year.
        mileage: Odometer miles.
        zip: US ZIP code of the sale.
        trim: Trim.
        condition: outstanding, clean, average or rough.
    """
    return _value(ctx.today(), make, model, year, trim, mileage, condition, zip)


def _example_vin(ctx: Ctx) -> dict[str, Any]:
    vin = make_vin(ctx.population.seed, "TOYOTA", "Corolla", ctx.today().year - 4, 1)
    return {"vin": vin, "mileage": 52000, "zip": "60601"}


@service.tool(intent="value a vehicle by VIN", open_world=True, example=_example_vin)
def value_by_vin(ctx: Ctx, vin: Vin, mileage: Mileage, zip: Zip, condition: Condition = "clean") -> Valuation:
    """Value a used vehicle by its VIN: decoded to year, make, model and trim as the VIN decoder does.

    Args:
        vin: The 17-character VIN.
        mileage: Odometer miles.
        zip: US ZIP code.
        condition: outstanding, clean, average or rough.
    """
    d = _decode(ctx, vin)
    out = _value(ctx.today(), d.make, d.model, d.model_year, d.trim, mileage, condition, zip)
    return out.model_copy(update={"vin": d.vin})


@service.tool(
    intent="compare the trims' values",
    open_world=True,
    example=fixed_example(make="TOYOTA", model="Corolla", year=2021, mileage=40000, zip="10001"),
)
def compare_trims(
    ctx: Ctx, make: str, model: str, year: Year, mileage: Mileage, zip: Zip, condition: Condition = "clean"
) -> list[Valuation]:
    """Value every trim of a model year at the same mileage, condition and ZIP, cheapest first.

    Args:
        make: Make.
        model: Model.
        year: Model year.
        mileage: Odometer miles.
        zip: US ZIP code.
        condition: Condition.
    """
    out = [_value(ctx.today(), make, model, year, t, mileage, condition, zip) for t in _TRIMS]
    return sorted(out, key=lambda v: (v.dealer_retail, v.trim))


@service.tool(
    intent="forecast depreciation", open_world=True, example=fixed_example(make="TESLA", model="Model 3", year=2022)
)
def get_depreciation(
    ctx: Ctx, make: str, model: str, year: Year, trim: Trim = "Base", years: Annotated[int, Field(ge=1, le=10)] = 5
) -> list[YearValue]:
    """Forecast the clean private-party value at typical mileage at the end of each coming year of ownership.

    Args:
        make: Make.
        model: Model.
        year: Model year.
        trim: Trim.
        years: Years ahead.
    """
    _check_year(ctx, year)
    mk = _make(make)
    md = _model(mk, model, year)
    now = _retail(ctx.today(), mk, md, year, trim) * PRIVATE_SHARE
    keep = _RETENTION.get(mk.name, 0.87)
    today = ctx.today()
    return [
        YearValue(year_of_ownership=k, on=add_months(today, 12 * k), private_party=_round(now * keep**k))
        for k in range(years + 1)
    ]


@service.tool(
    intent="estimate the five-year cost to own",
    open_world=True,
    example=fixed_example(make="FORD", model="F-150", year=2023, zip="78701"),
)
def get_cost_to_own(ctx: Ctx, make: str, model: str, year: Year, zip: Zip, trim: Trim = "Base") -> CostToOwn:
    """Estimate the five-year True Cost to Own at 15,000 miles a year: depreciation, fuel, insurance, maintenance.

    Args:
        make: Make.
        model: Model.
        year: Model year.
        zip: US ZIP code.
        trim: Trim.
    """
    _check_year(ctx, year)
    mk = _make(make)
    md = _model(mk, model, year)
    now = _retail(ctx.today(), mk, md, year, trim) * _REGION[zip[0]]
    depreciation = round(now * (1 - _RETENTION.get(mk.name, 0.87) ** 5))
    per_mile_fuel = 0.05 if md.electrification == "BEV" else 0.09 if md.electrification else 0.15
    fuel = round(75_000 * per_mile_fuel * (1.3 if md.body in ("Pickup", "Van") else 1.0))
    insurance = round(5 * (1100 + 0.02 * _msrp(mk, md, trim)) * _REGION[zip[0]])
    age = max(0, ctx.today().year - year)
    maintenance = round(sum(400 + 120 * (age + k) for k in range(5)) * (0.7 if md.electrification == "BEV" else 1.0))
    total = depreciation + fuel + insurance + maintenance
    return CostToOwn(
        depreciation=depreciation,
        fuel=fuel,
        insurance=insurance,
        maintenance=maintenance,
        total=total,
        per_mile=round(total / 75_000, 3),
    )


@service.tool(intent="explain the condition grades", open_world=True)
def list_conditions(ctx: Ctx) -> list[ConditionInfo]:
    """List the condition grades with their factors and what each means."""
    return [ConditionInfo(condition=c, factor=f, description=d) for c, (f, d) in _CONDITIONS.items()]


# -- appraisals --------------------------------------------------------------------------------------------


class Appraisal(Timestamped):
    """A trade-in appraisal of a customer's vehicle."""

    id: AppraisalId
    vin: Vin | None = None
    """The VIN, if read."""
    make: str
    """Make."""
    model_name: str
    """Model."""
    year: int
    """Model year."""
    trim: Trim
    """Trim."""
    mileage: Mileage
    """Odometer miles."""
    condition: Condition
    """Condition found."""
    zip: Zip
    """ZIP code."""
    customer_name: PersonName
    """The owner."""
    customer_email: Email
    """Their e-mail."""
    appraised_by: Email
    """The employee who appraised it."""
    trade_in: Dollars
    """Trade-in value at appraisal."""
    private_party: Dollars
    """Private-party value at appraisal."""
    dealer_retail: Dollars
    """Dealer-retail value at appraisal."""
    offer: Dollars | None = None
    """The offer made."""
    valid_until: Date | None = None
    """Last day the offer may be accepted."""
    status: Literal["draft", "offered", "accepted", "declined", "cancelled"] = "draft"
    """draft, offered, accepted, declined or cancelled."""
    notes: Text = ""
    """Notes."""


_OPEN = ("draft", "offered")


def _guard(ctx: Ctx, new: Appraisal | None, old: Appraisal | None) -> None:
    if old is not None and old.status not in _OPEN and (new is None or new.status == old.status):
        raise RuleViolation(f"appraisal {old.id} is {old.status}", field="appraisal_id", hint="appraise again")


appraisals = service.resource(
    Appraisal,
    name="appraisal",
    plural="appraisals",
    prefix="vap",
    create=False,
    filters=("status", "make", "appraised_by", "customer_email", "vin"),
    search=("customer_name", "model_name", "notes"),
    update=("notes", "customer_email"),
    transitions={
        "decline": Transition("status", ("offered",), "declined", "record that the customer declined the offer"),
        "cancel": Transition("status", ("draft", "offered"), "cancelled", "cancel the appraisal", destructive=True),
    },
    guard_update=_guard,
    guard_delete=_guard,
    title="trade-in appraisal",
)


def _example_appraise(ctx: Ctx) -> dict[str, Any]:
    c = ctx.population.consumers[0]
    return {
        "make": "SUBARU",
        "model": "Outback",
        "year": ctx.today().year - 5,
        "mileage": 61000,
        "zip": "98101",
        "customer_name": c.name,
        "customer_email": c.email,
        "appraised_by": ctx.population.employees[0].email,
        "condition": "average",
    }


@service.tool(intent="appraise a trade-in", write=True, example=_example_appraise)
def create_appraisal(
    ctx: Ctx,
    make: str,
    model: str,
    year: Year,
    mileage: Mileage,
    zip: Zip,
    customer_name: PersonName,
    customer_email: Email,
    appraised_by: Email,
    trim: Trim = "Base",
    condition: Condition = "clean",
    vin: Vin | None = None,
) -> Appraisal:
    """Appraise a customer's vehicle at today's values; a VIN, if given, must decode to the same year, make and model.

    Args:
        make: Make.
        model: Model.
        year: Model year.
        mileage: Odometer miles.
        zip: US ZIP code.
        customer_name: The owner.
        customer_email: Their e-mail.
        appraised_by: The appraising employee.
        trim: Trim.
        condition: Condition found.
        vin: The VIN (one open appraisal per VIN).
    """
    if appraised_by not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{appraised_by} is not an employee", field="appraised_by", hint="staff appraise")
    v = _value(ctx.today(), make, model, year, trim, mileage, condition, zip)
    if vin is not None:
        d = _decode(ctx, vin)
        if (d.make, d.model, d.model_year) != (v.make, v.model, v.year):
            msg = f"VIN {d.vin} is a {d.model_year} {d.make} {d.model}, not a {year} {v.make} {v.model}"
            raise RuleViolation(msg, field="vin", hint="check the VIN or the vehicle")
        vin = d.vin
        for other in ctx.where(Appraisal, vin=vin):
            if other.status in _OPEN:
                raise Conflict(f"VIN {vin} already has open appraisal {other.id}", field="vin", hint="use that one")
    return ctx.create(
        Appraisal,
        vin=vin,
        make=v.make,
        model_name=v.model,
        year=year,
        trim=trim,
        mileage=mileage,
        condition=condition,
        zip=zip,
        customer_name=customer_name,
        customer_email=customer_email,
        appraised_by=appraised_by,
        trade_in=v.trade_in,
        private_party=v.private_party,
        dealer_retail=v.dealer_retail,
    )


@service.tool(
    intent="re-appraise the vehicle",
    write=True,
    example=first_example(Appraisal, "appraisal_id", where={"status": "draft"}, condition="rough"),
)
def reappraise(
    ctx: Ctx, appraisal_id: AppraisalId, mileage: Mileage | None = None, condition: Condition | None = None
) -> Appraisal:
    """Re-value a draft appraisal after a new look (mileage, condition) at today's values.

    Args:
        appraisal_id: The appraisal (draft).
        mileage: Corrected odometer miles.
        condition: Corrected condition.
    """
    a = ctx.get(Appraisal, appraisal_id, field="appraisal_id")
    if a.status != "draft":
        raise RuleViolation(
            f"appraisal {a.id} is {a.status}", field="appraisal_id", hint="only drafts are re-appraised"
        )
    m, c = mileage if mileage is not None else a.mileage, condition or a.condition
    v = _value(ctx.today(), a.make, a.model_name, a.year, a.trim, m, c, a.zip)
    return ctx.update(
        a, mileage=m, condition=c, trade_in=v.trade_in, private_party=v.private_party, dealer_retail=v.dealer_retail
    )


def _example_offer(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Appraisal, status="draft")
    return None if a is None else {"appraisal_id": a.id, "amount": a.trade_in}


@service.tool(intent="make a trade-in offer", write=True, example=_example_offer)
def make_offer(ctx: Ctx, appraisal_id: AppraisalId, amount: Dollars) -> Appraisal:
    """Offer the customer an amount for the vehicle (at most the private-party value), valid for seven days.

    Args:
        appraisal_id: The appraisal (draft).
        amount: The offer, whole US dollars.
    """
    a = ctx.get(Appraisal, appraisal_id, field="appraisal_id")
    if a.status != "draft":
        raise RuleViolation(f"appraisal {a.id} is {a.status}", field="appraisal_id", hint="offers are made on drafts")
    if amount <= 0 or amount > a.private_party:
        raise RuleViolation(
            f"an offer must be between $1 and the private-party value ${a.private_party:,}",
            field="amount",
            hint=f"the trade-in value is ${a.trade_in:,}",
        )
    return ctx.update(a, offer=amount, status="offered", valid_until=ctx.today() + dt.timedelta(days=OFFER_DAYS))


@service.tool(
    intent="accept the trade-in offer",
    write=True,
    example=first_example(
        Appraisal,
        "appraisal_id",
        where={"status": "offered"},
        match=lambda ctx, a: a.valid_until is not None and a.valid_until >= ctx.today(),
    ),
)
def accept_offer(ctx: Ctx, appraisal_id: AppraisalId) -> Appraisal:
    """Record that the customer accepted the offer (only while it is valid).

    Args:
        appraisal_id: The appraisal (offered).
    """
    a = ctx.get(Appraisal, appraisal_id, field="appraisal_id")
    if a.status != "offered":
        raise RuleViolation(f"appraisal {a.id} is {a.status}", field="appraisal_id", hint="make an offer first")
    if a.valid_until is not None and ctx.today() > a.valid_until:
        raise RuleViolation(
            f"the offer expired on {a.valid_until}",
            field="appraisal_id",
            hint="appraise the vehicle again for a new offer",
        )
    return ctx.update(a, status="accepted")


@service.tool(
    intent="renew the expired offer",
    write=True,
    example=first_example(
        Appraisal,
        "appraisal_id",
        where={"status": "offered"},
        match=lambda ctx, a: a.valid_until is not None and a.valid_until < ctx.today(),
    ),
)
def renew_offer(ctx: Ctx, appraisal_id: AppraisalId) -> Appraisal:
    """Renew an expired offer at today's values: the offer is kept unless it now exceeds the private-party value.

    Args:
        appraisal_id: The appraisal (offered, expired).
    """
    a = ctx.get(Appraisal, appraisal_id, field="appraisal_id")
    if a.status != "offered" or a.valid_until is None:
        raise RuleViolation(f"appraisal {a.id} is {a.status}", field="appraisal_id", hint="only offers are renewed")
    if a.valid_until >= ctx.today():
        raise RuleViolation(f"the offer is valid until {a.valid_until}", field="appraisal_id", hint="no renewal needed")
    v = _value(ctx.today(), a.make, a.model_name, a.year, a.trim, a.mileage, a.condition, a.zip)
    return ctx.update(
        a,
        trade_in=v.trade_in,
        private_party=v.private_party,
        dealer_retail=v.dealer_retail,
        offer=min(a.offer or v.trade_in, v.private_party),
        valid_until=ctx.today() + dt.timedelta(days=OFFER_DAYS),
    )


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """The trade-in desk's appraisals of customers' cars: draft, offered, expired, accepted and declined."""
    pop = s.population
    today = s.now.date()
    staff = pop.staff("Sales", "Operations", fallback=2)
    us = [p for p in pop.places if p.country == "US"]
    plan = (
        ("TOYOTA", "RAV4", 4, "SE", 52_000, "clean", "draft", 2),
        ("HONDA", "Civic", 6, "Base", 81_000, "average", "offered", 3),
        ("FORD", "F-150", 3, "Limited", 36_000, "outstanding", "offered", 12),
        ("BMW", "3 Series", 7, "Sport", 97_000, "rough", "declined", 20),
        ("SUBARU", "Outback", 5, "Premium", 64_000, "clean", "accepted", 30),
    )
    for k, (make, model, age, trim, miles, cond, status, days) in enumerate(plan):
        c = pop.consumers[k % len(pop.consumers)]
        zip = c.address.postal_code if c.address.country == "US" and len(c.address.postal_code) == 5 else None
        zip = zip or f"{(us[k % len(us)].postal_prefix if us else '10')}{k:03d}"
        year = today.year - age
        v = _value(today, make, model, year, trim, miles, cond, zip)
        offered = status != "draft"
        s.create(
            Appraisal,
            vin=make_vin(pop.seed, make, model, year, 100 + k),
            make=make,
            model_name=model,
            year=year,
            trim=trim,
            mileage=miles,
            condition=cond,
            zip=zip,
            customer_name=c.name,
            customer_email=c.email,
            appraised_by=staff[k % len(staff)].email,
            trade_in=v.trade_in,
            private_party=v.private_party,
            dealer_retail=v.dealer_retail,
            offer=v.trade_in if offered else None,
            valid_until=today - dt.timedelta(days=days - OFFER_DAYS) if offered else None,
            status=status,
            created_at=s.ago(days=days),
            updated_at=s.ago(days=max(1, days - 2)),
        )
