"""Pitwise Commodities: spot and futures prices of energy, metals and grains, settlements and price watches.

Modeled on CME Group's settlement data (``/settlements`` per product: each listed
contract month with ``settle``, ``change``, ``volume``, ``openInterest``; contract
codes such as ``CLK6`` from the product code, the month letter F G H J K M N Q
U V X Z and the year; listing cycles and last trade dates) and the
Commodities-API endpoints (``latest``, ``historical``, ``timeseries``,
``fluctuation``, ``symbols``, unit conversion). Quotes are in US dollars per
the product's unit: barrel, MMBtu, gallon, troy ounce, pound, bushel.

An open-world service drawn from the world seed: each commodity's spot price on
a trading day is a stable multi-scale random walk anchored at realistic prices
(WTI crude 78, natural gas 2.6, gold 2050, copper 3.85, corn 4.5 …); weekends
carry Friday's close. A futures contract settles at the spot times the
product's carry to its delivery month (contango for gold and grains,
backwardation for crude), so a calendar spread is the difference of two
settlements. Stored state is the price watches: a staff member watches a
commodity (spot) or a contract above or below a price, often for a supplier
whose prices follow it; a check compares the latest price and moves the
watch to ``triggered``; a triggered watch is acknowledged back to ``active``.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.engine.types import CompanyName, Date, DateTime, Email, IdOf, SemanticType, Text
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "commodities",
    title="Pitwise Commodities",
    category="commodity_data",
    modeled_on="CME Group settlements (contract months, settle, change, volume, open interest) with the "
    "Commodities-API endpoints (latest, historical, timeseries, fluctuation, symbols, convert)",
    description="Commodity prices: spot prices of energy, metals and grains today or on a past date, daily series "
    "and fluctuation over a period, listed futures contracts with their last trade dates, daily settlements "
    "with volume and open interest, calendar spreads, unit conversion, and price watches that trigger when a "
    "price crosses a level.",
)

Symbol = Annotated[str, SemanticType("commodity.symbol", kind="ref"), StringConstraints(pattern=r"^[A-Z]{2}$")]
ContractCode = Annotated[
    str, SemanticType("commodity.contract", kind="ref"), StringConstraints(pattern=r"^[A-Z]{2}[FGHJKMNQUVXZ][0-9]{2}$")
]
WatchId = Annotated[str, IdOf("commodities.watch")]
Sector = Literal["energy", "metals", "grains"]
Price = Annotated[float, Field(gt=0, le=1_000_000)]
HISTORY_START = dt.date(2010, 1, 4)
MAX_DAYS = 366
MAX_WATCHES = 15
_MONTHS = "FGHJKMNQUVXZ"


@dataclass(frozen=True, slots=True)
class _Com:
    symbol: str
    name: str
    sector: str
    unit: str
    anchor: float
    vol: float
    carry: float
    """Yearly carry of the curve: positive contango, negative backwardation."""
    cycle: str
    """Listed contract months."""
    exchange: str
    decimals: int


_COMS: tuple[_Com, ...] = (
    _Com("CL", "WTI Crude Oil", "energy", "barrel", 78.0, 0.35, -0.04, _MONTHS, "NYMEX", 2),
    _Com("BZ", "Brent Crude Oil", "energy", "barrel", 82.0, 0.32, -0.03, _MONTHS, "NYMEX", 2),
    _Com("NG", "Henry Hub Natural Gas", "energy", "MMBtu", 2.6, 0.6, 0.10, _MONTHS, "NYMEX", 3),
    _Com("HO", "NY Harbor ULSD (heating oil)", "energy", "gallon", 2.7, 0.35, -0.02, _MONTHS, "NYMEX", 4),
    _Com("GC", "Gold", "metals", "troy ounce", 2050.0, 0.15, 0.045, "GJMQVZ", "COMEX", 1),
    _Com("SI", "Silver", "metals", "troy ounce", 23.0, 0.25, 0.045, "HKNUZ", "COMEX", 3),
    _Com("HG", "Copper", "metals", "pound", 3.85, 0.22, 0.02, "HKNUZ", "COMEX", 4),
    _Com("PL", "Platinum", "metals", "troy ounce", 920.0, 0.25, 0.03, "FJNV", "NYMEX", 1),
    _Com("ZC", "Corn", "grains", "bushel", 4.5, 0.25, 0.06, "HKNUZ", "CBOT", 4),
    _Com("ZW", "Chicago SRW Wheat", "grains", "bushel", 5.9, 0.3, 0.07, "HKNUZ", "CBOT", 4),
    _Com("ZS", "Soybeans", "grains", "bushel", 12.2, 0.2, 0.03, "FHKNQUX", "CBOT", 4),
)
_BY: dict[str, _Com] = {c.symbol: c for c in _COMS}
# Unit conversions: one quote unit in the target unit.
_UNITS: dict[str, dict[str, float]] = {
    "barrel": {"litre": 158.987, "US gallon": 42.0, "metric ton": 0.1364},
    "MMBtu": {"GJ": 1.055056, "therm": 10.0, "MWh": 0.293071},
    "gallon": {"litre": 3.78541, "barrel": 1 / 42},
    "troy ounce": {"gram": 31.1035, "kilogram": 0.0311035},
    "pound": {"kilogram": 0.453592, "metric ton": 0.000453592},
    "bushel": {"metric ton": 0.0254, "kilogram": 25.4},
}
_SCALES = (1, 3, 9, 27, 81, 243, 729)


@lru_cache(maxsize=65536)
def _knot(seed: int, sym: str, scale: int, index: int) -> float:
    return random.Random(f"commodities:{seed}:{sym}:{scale}:{index}").gauss(0.0, 1.0)


def _walk(seed: int, sym: str, day: int) -> float:
    total = 0.0
    for scale in _SCALES:
        k, off = divmod(day, scale)
        a, b = _knot(seed, sym, scale, k), _knot(seed, sym, scale, k + 1)
        total += (a + (b - a) * off / scale) * math.sqrt(scale)
    return total / math.sqrt(3.0)


def _trading_day(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=max(0, day.weekday() - 4))


def _bindex(day: dt.date) -> int:
    weeks, wd = divmod(day.toordinal() - 1, 7)
    return weeks * 5 + min(wd, 4)


@lru_cache(maxsize=65536)
def _spot(seed: int, sym: str, day: dt.date) -> float:
    c = _BY[sym]
    t = _trading_day(day)
    noise = c.vol / math.sqrt(252) * (_walk(seed, sym, _bindex(t)) - _walk(seed, sym, _bindex(EPOCH.date())))
    return round(c.anchor * math.exp(1.2 * math.tanh(noise / 1.2)), c.decimals)


def _contract_month(code: str) -> dt.date:
    return dt.date(2000 + int(code[3:]), _MONTHS.index(code[2]) + 1, 1)


def _last_trade(code: str) -> dt.date:
    """The business day before the 20th of the month before the contract month."""
    first = _contract_month(code)
    prev = (first - dt.timedelta(days=1)).replace(day=19)
    return _trading_day(prev)


def _listed(c: _Com, day: dt.date, count: int = 6) -> list[str]:
    out: list[str] = []
    y, m = day.year, day.month
    while len(out) < count:
        code = f"{c.symbol}{_MONTHS[m - 1]}{y % 100:02d}"
        if _MONTHS[m - 1] in c.cycle and _last_trade(code) >= day:
            out.append(code)
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def _settle(seed: int, code: str, day: dt.date) -> float:
    c = _BY[code[:2]]
    years = max(0.0, (_contract_month(code) - day).days / 365.25)
    wobble = random.Random(f"commodities-basis:{seed}:{code}:{_bindex(_trading_day(day))}").gauss(0, 0.002)
    return round(_spot(seed, c.symbol, day) * math.exp(c.carry * years + wobble), c.decimals)


# -- result models ----------------------------------------------------------------------------------------


class Commodity(BaseModel):
    """A commodity (symbols)."""

    symbol: Symbol = Field(description="Product code (CL, GC, ZC).")
    name: str = Field(description="Name.")
    sector: Sector = Field(description="energy, metals or grains.")
    unit: str = Field(description="Quote unit (USD per ...).")
    exchange: str = Field(description="Exchange (NYMEX, COMEX, CBOT).")
    contract_months: str = Field(description="Listed month letters (F=Jan ... Z=Dec).")


class SpotPrice(BaseModel):
    """A spot price on a date."""

    symbol: Symbol = Field(description="Commodity.")
    date: Date = Field(description="Date asked for.")
    price_date: Date = Field(description="Trading day of the price (Friday for a weekend).")
    price: float = Field(description="USD per unit.")
    unit: str = Field(description="The unit.")
    change: float = Field(description="Change from the previous trading day.")
    change_pct: float = Field(description="Change in percent.")


class SeriesPoint(BaseModel):
    """One day of a series."""

    date: Date = Field(description="Date.")
    price: float = Field(description="USD per unit.")


class Fluctuation(BaseModel):
    """How a commodity moved over a period."""

    symbol: Symbol = Field(description="Commodity.")
    start_price: float = Field(description="Price on the start date.")
    end_price: float = Field(description="Price on the end date.")
    change_pct: float = Field(description="Change in percent.")
    high: float = Field(description="Highest daily price.")
    low: float = Field(description="Lowest daily price.")


class Contract(BaseModel):
    """A listed futures contract."""

    code: ContractCode = Field(description="Product, month letter and two-digit year (CLK26).")
    symbol: Symbol = Field(description="Product.")
    contract_month: Date = Field(description="First day of the delivery month.")
    last_trade_date: Date = Field(description="Last trading day.")


class Settlement(BaseModel):
    """A contract's daily settlement."""

    code: ContractCode = Field(description="Contract.")
    date: Date = Field(description="Trading day.")
    settle: float = Field(description="Settlement price, USD per unit.")
    change: float = Field(description="Change from the previous settlement.")
    volume: int = Field(description="Contracts traded.")
    open_interest: int = Field(description="Open contracts.")


class Spread(BaseModel):
    """A calendar spread between two contracts of one product."""

    near: ContractCode = Field(description="Nearer contract.")
    far: ContractCode = Field(description="Farther contract.")
    date: Date = Field(description="Trading day.")
    spread: float = Field(description="Near settle minus far settle (positive: backwardation).")
    structure: Literal["backwardation", "contango", "flat"] = Field(description="Shape of the curve between them.")


class Converted(BaseModel):
    """A price converted to another unit."""

    symbol: Symbol = Field(description="Commodity.")
    price: float = Field(description="USD per quote unit.")
    unit: str = Field(description="Quote unit.")
    to_unit: str = Field(description="Target unit.")
    converted: float = Field(description="USD per target unit.")


# -- helpers ----------------------------------------------------------------------------------------------


def _com(symbol: str, field: str = "symbol") -> _Com:
    c = _BY.get(symbol)
    if c is None:
        raise NotFound(f"no commodity {symbol}", field=field, hint=f"use one of {', '.join(_BY)}")
    return c


def _day(ctx: Ctx, day: dt.date, field: str) -> None:
    if day > ctx.today():
        raise RuleViolation(f"{day} is in the future", field=field, hint=f"ask for a date up to {ctx.today()}")
    if day < HISTORY_START:
        raise RuleViolation(f"prices start on {HISTORY_START}", field=field, hint=f"ask from {HISTORY_START} on")


def _contract(ctx: Ctx, code: str, field: str = "code", day: dt.date | None = None) -> _Com:
    c = _com(code[:2], field)
    if code[2] not in c.cycle:
        raise NotFound(f"{c.name} lists no {code[2]} month", field=field, hint=f"its months are {c.cycle}")
    if _last_trade(code) < (day or ctx.today()):
        raise RuleViolation(f"{code} expired on {_last_trade(code)}", field=field, hint="pick a listed contract")
    return c


def _spot_out(ctx: Ctx, c: _Com, day: dt.date) -> SpotPrice:
    seed = ctx.population.seed
    t = _trading_day(day)
    prev = _trading_day(t - dt.timedelta(days=1))
    p, q = _spot(seed, c.symbol, t), _spot(seed, c.symbol, prev)
    return SpotPrice(
        symbol=c.symbol,
        date=day,
        price_date=t,
        price=p,
        unit=c.unit,
        change=round(p - q, c.decimals),
        change_pct=round(100 * (p - q) / q, 3),
    )


def _period(ctx: Ctx, start: dt.date, end: dt.date) -> list[dt.date]:
    _day(ctx, start, "start_date")
    _day(ctx, end, "end_date")
    if end < start:
        raise RuleViolation("end_date is before start_date", field="end_date", hint="swap the dates")
    if (end - start).days + 1 > MAX_DAYS:
        raise RuleViolation(f"at most {MAX_DAYS} days", field="end_date", hint="ask for a shorter period")
    return [start + dt.timedelta(days=k) for k in range((end - start).days + 1)]


def _settlement(seed: int, code: str, day: dt.date) -> Settlement:
    t = _trading_day(day)
    s, prev = _settle(seed, code, t), _settle(seed, code, _trading_day(t - dt.timedelta(days=1)))
    r = random.Random(f"commodities-vol:{seed}:{code}:{t}")
    near = max(1, (_last_trade(code) - t).days)
    volume = int(250_000 * math.exp(-near / 60) * (0.7 + 0.6 * r.random()))
    oi = int(400_000 * math.exp(-near / 200) * (0.9 + 0.2 * r.random()))
    return Settlement(
        code=code, date=t, settle=s, change=round(s - prev, 4), volume=volume, open_interest=max(oi, volume // 3)
    )


def _example_period(ctx: Ctx) -> dict[str, Any]:
    end = ctx.today()
    return {"symbol": "CL", "start_date": (end - dt.timedelta(days=30)).isoformat(), "end_date": end.isoformat()}


def _example_contract(ctx: Ctx) -> dict[str, Any]:
    return {"code": _listed(_BY["CL"], ctx.today())[1]}


# -- open-world tools -------------------------------------------------------------------------------------


@service.tool(intent="list the commodities", open_world=True)
def list_commodities(ctx: Ctx, sector: Sector | None = None) -> list[Commodity]:
    """List the commodities with their units, exchanges and listed contract months (symbols).

    Args:
        sector: energy, metals or grains.
    """
    return [
        Commodity(
            symbol=c.symbol,
            name=c.name,
            sector=c.sector,
            unit=c.unit,
            exchange=c.exchange,
            contract_months=c.cycle,
        )
        for c in _COMS
        if sector in (None, c.sector)
    ]


@service.tool(intent="get the spot price", open_world=True, example=fixed_example(symbol="GC"))
def get_spot_price(ctx: Ctx, symbol: Symbol, date: Date | None = None) -> SpotPrice:
    """Get a commodity's spot price today (latest) or on a past date, with the day's change.

    Args:
        symbol: Commodity symbol (CL, GC, ZC).
        date: Past date (default: today; a weekend gives Friday's close).
    """
    c = _com(symbol)
    day = date or ctx.today()
    _day(ctx, day, "date")
    return _spot_out(ctx, c, day)


@service.tool(intent="get the daily price series", open_world=True, example=_example_period)
def get_timeseries(ctx: Ctx, symbol: Symbol, start_date: Date, end_date: Date) -> list[SeriesPoint]:
    """Get a commodity's daily spot prices over a period (at most 366 days; weekends carry Friday's close).

    Args:
        symbol: Commodity symbol.
        start_date: First day.
        end_date: Last day (up to today).
    """
    c = _com(symbol)
    seed = ctx.population.seed
    return [SeriesPoint(date=d, price=_spot(seed, c.symbol, d)) for d in _period(ctx, start_date, end_date)]


def _example_fluctuation(ctx: Ctx) -> dict[str, Any]:
    end = ctx.today()
    return {
        "symbols": ["CL", "GC"],
        "start_date": (end - dt.timedelta(days=30)).isoformat(),
        "end_date": end.isoformat(),
    }


@service.tool(intent="see how commodity prices moved", open_world=True, example=_example_fluctuation)
def get_fluctuation(
    ctx: Ctx, symbols: Annotated[list[Symbol], Field(min_length=1, max_length=11)], start_date: Date, end_date: Date
) -> list[Fluctuation]:
    """Get how commodities moved between two dates: start, end, percent change, high and low.

    Args:
        symbols: Commodity symbols.
        start_date: First day.
        end_date: Last day (at most 366 days later).
    """
    for i, s in enumerate(symbols):
        _com(s, f"symbols.{i}")
    days, seed = _period(ctx, start_date, end_date), ctx.population.seed
    out = []
    for s in sorted(set(symbols)):
        series = [_spot(seed, s, d) for d in days]
        pct = round(100 * (series[-1] - series[0]) / series[0], 3)
        out.append(
            Fluctuation(
                symbol=s, start_price=series[0], end_price=series[-1], change_pct=pct, high=max(series), low=min(series)
            )
        )
    return out


@service.tool(intent="list the listed futures contracts", open_world=True, example=fixed_example(symbol="CL"))
def list_contracts(ctx: Ctx, symbol: Symbol, count: Annotated[int, Field(ge=1, le=12)] = 6) -> list[Contract]:
    """List a product's nearest listed futures contracts with their delivery months and last trade dates.

    Args:
        symbol: Commodity symbol.
        count: How many contract months.
    """
    c = _com(symbol)
    return [
        Contract(code=k, symbol=c.symbol, contract_month=_contract_month(k), last_trade_date=_last_trade(k))
        for k in _listed(c, ctx.today(), count)
    ]


@service.tool(intent="get the settlements", open_world=True, example=fixed_example(symbol="ZC"))
def get_settlements(ctx: Ctx, symbol: Symbol, date: Date | None = None) -> list[Settlement]:
    """Get a product's daily settlements for its listed contracts: settle, change, volume, open interest.

    Args:
        symbol: Commodity symbol.
        date: Trading day (default: today).
    """
    c = _com(symbol)
    day = date or ctx.today()
    _day(ctx, day, "date")
    return [_settlement(ctx.population.seed, k, day) for k in _listed(c, _trading_day(day))]


@service.tool(intent="get the contract's settlement history", open_world=True, example=_example_contract)
def get_contract_history(
    ctx: Ctx, code: ContractCode, days: Annotated[int, Field(ge=1, le=90)] = 20
) -> list[Settlement]:
    """Get a listed contract's settlements over its last trading days, oldest first.

    Args:
        code: Contract code (CLK26).
        days: Calendar days back from today.
    """
    _contract(ctx, code)
    today = ctx.today()
    tdays = sorted({_trading_day(today - dt.timedelta(days=k)) for k in range(days)})
    return [_settlement(ctx.population.seed, code, d) for d in tdays]


def _example_spread(ctx: Ctx) -> dict[str, Any]:
    near, far = _listed(_BY["CL"], ctx.today())[:2]
    return {"near": near, "far": far}


@service.tool(intent="get the calendar spread", open_world=True, example=_example_spread)
def get_spread(ctx: Ctx, near: ContractCode, far: ContractCode) -> Spread:
    """Get today's calendar spread between two listed contracts of one product (near minus far).

    Args:
        near: The nearer contract.
        far: The farther contract of the same product.
    """
    _contract(ctx, near, "near")
    _contract(ctx, far, "far")
    if near[:2] != far[:2]:
        raise RuleViolation("the contracts are of different products", field="far", hint=f"pick a {near[:2]} contract")
    if _contract_month(far) <= _contract_month(near):
        raise RuleViolation(f"{far} does not deliver after {near}", field="far", hint="put the later month in far")
    seed, day = ctx.population.seed, _trading_day(ctx.today())
    spread = round(_settle(seed, near, day) - _settle(seed, far, day), 4)
    shape = "backwardation" if spread > 0 else "contango" if spread < 0 else "flat"
    return Spread(near=near, far=far, date=day, spread=spread, structure=shape)


@service.tool(
    intent="convert a commodity price to another unit",
    open_world=True,
    example=fixed_example(symbol="ZC", to_unit="metric ton"),
)
def convert_price(ctx: Ctx, symbol: Symbol, to_unit: str, price: Price | None = None) -> Converted:
    """Convert a commodity price (default: today's spot) from its quote unit to another unit.

    Args:
        symbol: Commodity symbol.
        to_unit: Target unit (litre, metric ton, gram, kilogram, GJ, MWh ...).
        price: USD per quote unit (default: today's spot).
    """
    c = _com(symbol)
    factors = _UNITS[c.unit]
    if to_unit not in factors:
        raise NotFound(f"cannot convert {c.unit} to {to_unit}", field="to_unit", hint=f"use {', '.join(factors)}")
    p = price if price is not None else _spot(ctx.population.seed, c.symbol, ctx.today())
    return Converted(symbol=c.symbol, price=p, unit=c.unit, to_unit=to_unit, converted=round(p / factors[to_unit], 4))


class ContractDetail(Contract):
    """A listed contract with its latest settlement."""

    days_to_last_trade: int = Field(description="Calendar days until the last trading day.")
    settlement: Settlement = Field(description="Today's (or Friday's) settlement.")


@service.tool(intent="get the futures contract", open_world=True, example=_example_contract)
def get_contract(ctx: Ctx, code: ContractCode) -> ContractDetail:
    """Get a listed futures contract: delivery month, last trade date, days left and its latest settlement.

    Args:
        code: Contract code (CLK26).
    """
    c = _contract(ctx, code)
    today = ctx.today()
    return ContractDetail(
        code=code,
        symbol=c.symbol,
        contract_month=_contract_month(code),
        last_trade_date=_last_trade(code),
        days_to_last_trade=(_last_trade(code) - today).days,
        settlement=_settlement(ctx.population.seed, code, today),
    )


class Ratio(BaseModel):
    """The ratio of two commodities' spot prices."""

    numerator: Symbol = Field(description="Commodity on top.")
    denominator: Symbol = Field(description="Commodity below.")
    date: Date = Field(description="Trading day.")
    ratio: float = Field(description="Numerator price / denominator price (e.g. the gold/silver ratio).")
    average_1y: float = Field(description="Mean of the daily ratio over the past 365 days.")


@service.tool(
    intent="get the price ratio of two commodities",
    open_world=True,
    example=fixed_example(numerator="GC", denominator="SI"),
)
def get_price_ratio(ctx: Ctx, numerator: Symbol, denominator: Symbol, date: Date | None = None) -> Ratio:
    """Get the ratio of two commodities' spot prices on a date and its one-year average (gold/silver, oil/gas).

    Args:
        numerator: Commodity on top.
        denominator: Commodity below (a different one).
        date: Past date (default: today).
    """
    _com(numerator, "numerator")
    _com(denominator, "denominator")
    if numerator == denominator:
        raise RuleViolation("the two commodities are the same", field="denominator", hint="pick another one")
    day = date or ctx.today()
    _day(ctx, day, "date")
    seed = ctx.population.seed
    days = [day - dt.timedelta(days=k) for k in range(365)]
    ratios = [_spot(seed, numerator, d) / _spot(seed, denominator, d) for d in days]
    return Ratio(
        numerator=numerator,
        denominator=denominator,
        date=_trading_day(day),
        ratio=round(ratios[0], 4),
        average_1y=round(sum(ratios) / len(ratios), 4),
    )


# -- price watches ----------------------------------------------------------------------------------------


class Watch(Timestamped):
    """A watch on a commodity's spot price or a contract's settlement."""

    id: WatchId
    symbol: Symbol
    """The commodity."""
    contract_code: ContractCode | None = None
    """A futures contract; null to watch the spot price."""
    direction: Literal["above", "below"]
    """Trigger when the price goes above or below the level."""
    level: Price
    """The price level, USD per unit."""
    owner_email: Email
    """The staff member alerted."""
    supplier_name: CompanyName | None = None
    """The supplier whose prices follow this commodity, if any."""
    note: Text = ""
    """Why it is watched."""
    status: Literal["active", "triggered", "paused"] = "active"
    """active, triggered (until acknowledged) or paused."""
    triggered_price: float | None = None
    """The price that triggered it."""
    triggered_on: Date | None = None
    """The trading day it triggered."""
    last_checked_at: DateTime | None = None
    """When it was last checked."""


def _price(ctx: Ctx, symbol: str, code: str | None) -> float:
    if code is not None:
        return _settle(ctx.population.seed, code, _trading_day(ctx.today()))
    return _spot(ctx.population.seed, symbol, ctx.today())


def _current(ctx: Ctx, w: Watch) -> float:
    return _price(ctx, w.symbol, w.contract_code)


def _guard(ctx: Ctx, new: Watch, old: Watch | None) -> None:
    if old is not None and (new.level, new.direction) != (old.level, old.direction) and new.status == "active":
        now = _current(ctx, new)
        if (now > new.level) if new.direction == "above" else (now < new.level):
            raise RuleViolation(
                f"the price is already {now}, {new.direction} {new.level}",
                field="level",
                hint="set a level the price has not reached yet",
            )


watches = service.resource(
    Watch,
    name="watch",
    plural="watches",
    prefix="cpw",
    create=False,
    filters=("symbol", "contract_code", "owner_email", "status", "supplier_name"),
    search=("note", "supplier_name"),
    update=("level", "direction", "note"),
    guard_update=_guard,
    transitions={
        "pause": Transition("status", ("active", "triggered"), "paused", "pause the price watch"),
        "resume": Transition("status", ("paused",), "active", "resume the price watch"),
        "acknowledge": Transition("status", ("triggered",), "active", "acknowledge the triggered price watch"),
    },
    title="price watch",
)


def _example_watch(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.population.employees:
        if len(ctx.where(Watch, owner_email=p.email)) < MAX_WATCHES:
            for c in _COMS:
                if ctx.first(Watch, symbol=c.symbol, contract_code=None, owner_email=p.email) is None:
                    level = round(_spot(ctx.population.seed, c.symbol, ctx.today()) * 1.1, c.decimals)
                    return {"symbol": c.symbol, "direction": "above", "level": level, "owner_email": p.email}
    return None


@service.tool(intent="create a price watch", write=True, example=_example_watch)
def create_watch(
    ctx: Ctx,
    symbol: Symbol,
    direction: Literal["above", "below"],
    level: Price,
    owner_email: Email,
    contract_code: ContractCode | None = None,
    supplier_name: CompanyName | None = None,
    note: Text = "",
) -> Watch:
    """Watch a commodity's spot price (or a listed contract) for a move above or below a level not yet reached.

    Args:
        symbol: Commodity symbol.
        direction: above or below.
        level: Price level, USD per unit (not already crossed).
        owner_email: The employee alerted (at most 15 watches each).
        contract_code: A listed contract of the commodity; omit for spot.
        supplier_name: A supplier whose prices follow it.
        note: Why it is watched.
    """
    c = _com(symbol)
    if contract_code is not None:
        _contract(ctx, contract_code, "contract_code")
        if contract_code[:2] != c.symbol:
            raise RuleViolation(f"{contract_code} is not a {c.symbol} contract", field="contract_code", hint="match")
    if owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{owner_email} is not an employee", field="owner_email", hint="watches are for staff")
    same = ctx.first(Watch, symbol=symbol, contract_code=contract_code, owner_email=owner_email, direction=direction)
    if same is not None:
        raise Conflict(f"{owner_email} already has watch {same.id}", field="symbol", hint="update its level")
    if len(ctx.where(Watch, owner_email=owner_email)) >= MAX_WATCHES:
        raise RuleViolation(f"{owner_email} has {MAX_WATCHES} watches", field="owner_email", hint="delete one")
    now = _price(ctx, symbol, contract_code)
    if (now > level) if direction == "above" else (now < level):
        raise RuleViolation(
            f"the price is already {now}, {direction} {level}", field="level", hint="set a level not yet reached"
        )
    return ctx.create(
        Watch,
        symbol=symbol,
        contract_code=contract_code,
        direction=direction,
        level=level,
        owner_email=owner_email,
        supplier_name=supplier_name,
        note=note,
    )


class WatchCheck(BaseModel):
    """The result of checking a watch."""

    watch_id: WatchId = Field(description="The watch.")
    price: float = Field(description="The latest price.")
    level: float = Field(description="The level.")
    triggered: bool = Field(description="Whether the price crossed the level (the watch is now triggered).")


@service.tool(
    intent="check the price watch",
    write=True,
    example=first_example(Watch, "watch_id", where={"status": "active"}),
)
def check_watch(ctx: Ctx, watch_id: WatchId) -> WatchCheck:
    """Compare the latest price with the watch's level; a crossing moves the watch to triggered.

    Args:
        watch_id: The watch (active).
    """
    w = ctx.get(Watch, watch_id, field="watch_id")
    if w.status != "active":
        hint = "acknowledge it first" if w.status == "triggered" else "resume it with commodities__resume_watch"
        raise RuleViolation(f"watch {w.id} is {w.status}", field="watch_id", hint=hint)
    if w.contract_code is not None and _last_trade(w.contract_code) < ctx.today():
        raise RuleViolation(f"{w.contract_code} has expired", field="watch_id", hint="delete the watch")
    now = _current(ctx, w)
    hit = now >= w.level if w.direction == "above" else now <= w.level
    if hit:
        day = _trading_day(ctx.today())
        ctx.update(w, status="triggered", triggered_price=now, triggered_on=day, last_checked_at=ctx.now())
    else:
        ctx.update(w, last_checked_at=ctx.now())
    return WatchCheck(watch_id=w.id, price=now, level=w.level, triggered=hit)


# -- seed -------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Procurement's watches on the commodities behind its suppliers' prices."""
    pop = s.population
    today = s.now.date()
    staff = pop.staff("Procurement", "Operations", "Finance", fallback=3)
    suppliers = list(pop.customers[:4])
    plans = (
        ("CL", None, "above", 1.06),
        ("HG", None, "above", 1.08),
        ("NG", None, "below", 0.9),
        ("GC", 1, "above", 1.05),
        ("ZC", None, "below", 0.93),
        ("CL", 0, "below", 1.02),
        ("SI", None, "above", 1.1),
    )
    for k, (sym, contract, direction, factor) in enumerate(plans):
        code = None if contract is None else _listed(_BY[sym], today)[contract]
        price = _settle(pop.seed, code, _trading_day(today)) if code else _spot(pop.seed, sym, today)
        triggered = k == 5
        level = round(price * factor, _BY[sym].decimals)
        s.create(
            Watch,
            symbol=sym,
            contract_code=code,
            direction=direction,
            level=level,
            owner_email=staff[k % len(staff)].email,
            supplier_name=suppliers[k % len(suppliers)].name if suppliers and k % 2 == 0 else None,
            note=f"{_BY[sym].name} drives input costs" if k % 2 == 0 else "",
            status="triggered" if triggered else "paused" if k == 6 else "active",
            triggered_price=price if triggered else None,
            triggered_on=_trading_day(today - dt.timedelta(days=1)) if triggered else None,
            last_checked_at=s.ago(days=1 + k),
            created_at=s.ago(days=90 + 5 * k),
            updated_at=s.ago(days=1 + k),
        )
