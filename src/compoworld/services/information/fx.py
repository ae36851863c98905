"""Ratewise FX: foreign exchange rates, conversion, history, time series and fluctuation.

Modeled on the Open Exchange Rates API (``latest.json``, ``historical/*.json``,
``convert``, ``time-series.json``, ``currencies.json``) and exchangerate.host's
``fluctuation`` endpoint: end-of-day rates against any base currency, from
1999-01-01 up to today, for 32 currencies.

An open-world service: it holds no records. Each currency's rate against the
US dollar on a date is a stable multi-scale random walk seeded by the world
seed, the currency and the date alone, anchored so that on the world's first
day the rates are the realistic anchors (EUR 0.92, GBP 0.79, JPY 150, SEK
10.5, CAD 1.36, AUD 1.52, SGD 1.34, BRL 5.0 … per USD). Pegged currencies
(HKD, AED, SAR to the dollar, DKK to the euro) barely move. Markets close at
weekends: a Saturday or Sunday has the Friday's rates. Every cross rate is
computed through the dollar (A to B = A to USD to B), so all tools agree.
Amounts are in minor units of their currency (cents; yen for JPY, which has
none; fils for KWD, which has three decimals).
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Annotated, Any

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import EPOCH
from compoworld.engine.types import Cents, Country, Currency, Date, DateTime, SemanticType

__all__ = ["service"]

service = Service(
    "fx",
    title="Ratewise FX",
    category="currency_exchange",
    modeled_on="Open Exchange Rates API v1 (latest, historical, convert, time-series, currencies) "
    "with exchangerate.host's fluctuation endpoint",
    description="Foreign exchange rates: the latest and historical end-of-day rates against any base currency, "
    "conversion of amounts in minor units, daily time series, fluctuation over a period and the list of "
    "supported currencies.",
)

HISTORY_START = dt.date(1999, 1, 1)
"""The first date with rates."""
ANCHOR_DATE = EPOCH.date()
"""On this date every rate equals its anchor."""
MAX_SERIES_DAYS = 366
MAX_SERIES_DAYS_ALL = 31
"""Longest time series without naming symbols."""
MAX_CENTS = 10**12

Symbols = Annotated[list[Currency], Field(max_length=40)]


@dataclass(frozen=True, slots=True)
class _Cur:
    code: str
    name: str
    symbol: str
    minor_units: int
    per_usd: float
    volatility: float
    """Annualised volatility of the log rate."""
    drift: float = 0.0
    """Yearly drift of the log rate (positive: the currency weakens)."""
    peg: str | None = None
    countries: tuple[str, ...] = ()


_EURO_AREA = (
    "AT",
    "BE",
    "CY",
    "DE",
    "EE",
    "ES",
    "FI",
    "FR",
    "GR",
    "HR",
    "IE",
    "IT",
    "LT",
    "LU",
    "LV",
    "MT",
    "NL",
    "PT",
    "SI",
    "SK",
)

_CURRENCIES: tuple[_Cur, ...] = (
    _Cur("AED", "United Arab Emirates Dirham", "AED", 2, 3.6725, 0.0, peg="USD", countries=("AE",)),
    _Cur("AUD", "Australian Dollar", "A$", 2, 1.52, 0.10, countries=("AU",)),
    _Cur("BRL", "Brazilian Real", "R$", 2, 5.0, 0.15, drift=0.03, countries=("BR",)),
    _Cur("CAD", "Canadian Dollar", "CA$", 2, 1.36, 0.065, countries=("CA",)),
    _Cur("CHF", "Swiss Franc", "CHF", 2, 0.88, 0.075, drift=-0.01, countries=("CH", "LI")),
    _Cur("CNY", "Chinese Yuan", "CN¥", 2, 7.2, 0.04, countries=("CN",)),
    _Cur("CZK", "Czech Koruna", "Kč", 2, 23.0, 0.09, countries=("CZ",)),
    _Cur("DKK", "Danish Krone", "kr.", 2, 6.86, 0.0, peg="EUR", countries=("DK",)),
    _Cur("EUR", "Euro", "€", 2, 0.92, 0.075, countries=_EURO_AREA),
    _Cur("GBP", "British Pound", "£", 2, 0.79, 0.08, countries=("GB",)),
    _Cur("HKD", "Hong Kong Dollar", "HK$", 2, 7.82, 0.0, peg="USD", countries=("HK",)),
    _Cur("HUF", "Hungarian Forint", "Ft", 2, 360.0, 0.11, drift=0.02, countries=("HU",)),
    _Cur("IDR", "Indonesian Rupiah", "Rp", 2, 15700.0, 0.09, drift=0.03, countries=("ID",)),
    _Cur("ILS", "Israeli New Shekel", "₪", 2, 3.7, 0.08, countries=("IL",)),
    _Cur("INR", "Indian Rupee", "₹", 2, 83.0, 0.05, drift=0.03, countries=("IN",)),
    _Cur("ISK", "Icelandic Krona", "kr", 0, 138.0, 0.10, countries=("IS",)),
    _Cur("JPY", "Japanese Yen", "¥", 0, 150.0, 0.10, countries=("JP",)),
    _Cur("KRW", "South Korean Won", "₩", 0, 1330.0, 0.09, countries=("KR",)),
    _Cur("KWD", "Kuwaiti Dinar", "KD", 3, 0.307, 0.03, countries=("KW",)),
    _Cur("MXN", "Mexican Peso", "MX$", 2, 17.0, 0.12, drift=0.03, countries=("MX",)),
    _Cur("MYR", "Malaysian Ringgit", "RM", 2, 4.7, 0.07, countries=("MY",)),
    _Cur("NOK", "Norwegian Krone", "kr", 2, 10.6, 0.10, countries=("NO",)),
    _Cur("NZD", "New Zealand Dollar", "NZ$", 2, 1.64, 0.10, countries=("NZ",)),
    _Cur("PHP", "Philippine Peso", "₱", 2, 56.0, 0.07, drift=0.02, countries=("PH",)),
    _Cur("PLN", "Polish Zloty", "zł", 2, 4.0, 0.09, countries=("PL",)),
    _Cur("SAR", "Saudi Riyal", "SAR", 2, 3.75, 0.0, peg="USD", countries=("SA",)),
    _Cur("SEK", "Swedish Krona", "kr", 2, 10.5, 0.09, countries=("SE",)),
    _Cur("SGD", "Singapore Dollar", "S$", 2, 1.34, 0.05, countries=("SG",)),
    _Cur("THB", "Thai Baht", "฿", 2, 36.0, 0.07, countries=("TH",)),
    _Cur("TRY", "Turkish Lira", "₺", 2, 32.0, 0.20, drift=0.16, countries=("TR",)),
    _Cur("USD", "United States Dollar", "$", 2, 1.0, 0.0, countries=("US", "EC", "PR", "SV")),
    _Cur("ZAR", "South African Rand", "R", 2, 18.7, 0.15, drift=0.03, countries=("ZA",)),
)
_BY_CODE: dict[str, _Cur] = {c.code: c for c in _CURRENCIES}
_CODES = ", ".join(sorted(_BY_CODE))

# -- the rates ------------------------------------------------------------------------------------

_SCALES = (1, 3, 9, 27, 81, 243, 729, 2187, 6561)
"""Knot spacings (days) of the random walk's layers: each adds wiggles of its own length."""
_LAYER_NORM = 1.0 / math.sqrt(3.0)
"""Scales the layers so that the daily change of the sum has the currency's daily volatility."""


@lru_cache(maxsize=65536)
def _knot(seed: int, code: str, scale: int, index: int) -> float:
    return random.Random(f"compoworld-fx:{seed}:{code}:{scale}:{index}").gauss(0.0, 1.0)


def _walk(seed: int, code: str, day: int) -> float:
    """A continuous, multi-scale random walk in units of daily volatility at day number ``day``."""
    total = 0.0
    for scale in _SCALES:
        k, offset = divmod(day, scale)
        a, b = _knot(seed, code, scale, k), _knot(seed, code, scale, k + 1)
        total += (a + (b - a) * offset / scale) * math.sqrt(scale)
    return total * _LAYER_NORM


def _trading_day(day: dt.date) -> dt.date:
    """The day whose closing rates apply: a weekend has the Friday's."""
    return day - dt.timedelta(days=max(0, day.weekday() - 4))


def _business_index(day: dt.date) -> int:
    """Number of the trading day (Monday to Friday) ``day``, counting weekdays only."""
    weeks, weekday = divmod(day.toordinal() - 1, 7)  # ordinal 1 is a Monday
    return weeks * 5 + min(weekday, 4)


@lru_cache(maxsize=65536)
def _per_usd(seed: int, code: str, day: dt.date) -> float:
    """Units of ``code`` one US dollar buys at the close of ``day`` (a trading day)."""
    cur = _BY_CODE[code]
    if code == "USD":
        return 1.0
    n, n0 = _business_index(day), _business_index(ANCHOR_DATE)
    if cur.peg is not None:
        wobble = 0.0004 * math.tanh(_walk(seed, code, n) - _walk(seed, code, n0))
        base = 1.0 if cur.peg == "USD" else _per_usd(seed, cur.peg, day) / _BY_CODE[cur.peg].per_usd
        return cur.per_usd * base * math.exp(wobble)
    daily = cur.volatility / math.sqrt(261.0)
    noise = daily * (_walk(seed, code, n) - _walk(seed, code, n0))
    # Softly bounded (at most a factor of about 4.5 either way), plus the currency's long-run drift.
    return cur.per_usd * math.exp(1.5 * math.tanh(noise / 1.5) + cur.drift * (n - n0) / 261.0)


def _published(value: float) -> float:
    """A rate as published: six significant digits."""
    return float(f"{value:.6g}")


def _cross(seed: int, base: str, quote: str, day: dt.date) -> float:
    """Units of ``quote`` one unit of ``base`` buys (through the dollar)."""
    t = _trading_day(day)
    return _per_usd(seed, quote, t) / _per_usd(seed, base, t)


# -- argument checks ------------------------------------------------------------------------------


def _currency(code: str, field: str) -> _Cur:
    cur = _BY_CODE.get(code)
    if cur is None:
        raise NotFound(
            f"currency {code!r} is not supported",
            field=field,
            hint=f"use an ISO 4217 code from fx__list_currencies ({_CODES})",
        )
    return cur


def _symbols(symbols: list[str] | None, base: str) -> list[str]:
    if not symbols:
        return sorted(c for c in _BY_CODE if c != base)
    for i, code in enumerate(symbols):
        _currency(code, f"symbols.{i}")
    return sorted(set(symbols))


def _check_date(ctx: Ctx, day: dt.date, field: str) -> None:
    today = ctx.today()
    if day > today:
        raise RuleViolation(
            f"no rates for {day} yet: it is in the future (today is {today})",
            field=field,
            hint=f"ask for a date up to {today}; rates are not forecast",
        )
    if day < HISTORY_START:
        raise RuleViolation(
            f"rates start on {HISTORY_START}; {day} is earlier",
            field=field,
            hint=f"ask for a date from {HISTORY_START} on",
        )


def _stamp(ctx: Ctx, day: dt.date) -> dt.datetime:
    """When the rates of ``day`` were published: the latest hour today, else the day's close."""
    if day >= ctx.today():
        return ctx.now().replace(minute=0, second=0, microsecond=0)
    return dt.datetime(day.year, day.month, day.day, 23, 59, 59, tzinfo=dt.UTC)


# -- result models --------------------------------------------------------------------------------


class Rate(BaseModel):
    """The rate of one currency against the base."""

    currency: Currency = Field(description="The quoted currency.")
    rate: float = Field(description="Units of the quoted currency one unit of the base buys.")
    inverse: float = Field(description="Units of the base one unit of the quoted currency buys.")


class RateTable(BaseModel):
    """Exchange rates against one base currency on one date."""

    base: Currency = Field(description="The base currency.")
    date: Date = Field(description="The date asked for.")
    rate_date: Date = Field(description="The trading day the rates come from (the Friday for a weekend).")
    timestamp: DateTime = Field(description="When the rates were published.")
    market_closed: bool = Field(description="Whether the date is a weekend, with no trading.")
    rates: list[Rate] = Field(description="One rate per quoted currency, by currency code.")


# A converted amount as people write it (its currency's symbol and separators): what a conversion is asked for.
ConvertedAmount = Annotated[str, SemanticType("fx.converted_amount")]


class Conversion(BaseModel):
    """An amount converted from one currency to another."""

    from_currency: Currency = Field(description="Currency of the amount.")
    to_currency: Currency = Field(description="Currency of the result.")
    amount: Cents = Field(description="The amount, in minor units of from_currency.")
    result: Cents = Field(description="The converted amount, in minor units of to_currency (rounded half up).")
    rate: float = Field(description="Units of to_currency one unit of from_currency buys (the rate applied).")
    inverse_rate: float = Field(description="Units of from_currency one unit of to_currency buys.")
    date: Date = Field(description="The date of the rate.")
    rate_date: Date = Field(description="The trading day the rate comes from.")
    timestamp: DateTime = Field(description="When the rate was published.")
    amount_display: str = Field(description="The amount formatted with its currency symbol.")
    result_display: ConvertedAmount = Field(description="The result formatted with its currency symbol.")


class DayRates(BaseModel):
    """The rates of one day in a series."""

    date: Date = Field(description="The date.")
    rates: list[Rate] = Field(description="One rate per quoted currency.")


class TimeSeries(BaseModel):
    """Daily rates over a period."""

    base: Currency = Field(description="The base currency.")
    start_date: Date = Field(description="First date.")
    end_date: Date = Field(description="Last date.")
    days: list[DayRates] = Field(description="One entry per calendar day, in date order.")


class Fluctuation(BaseModel):
    """How one currency moved against the base over a period."""

    currency: Currency = Field(description="The quoted currency.")
    start_rate: float = Field(description="Rate on the start date.")
    end_rate: float = Field(description="Rate on the end date.")
    change: float = Field(description="end_rate - start_rate.")
    change_pct: float = Field(description="Change in percent of the start rate (negative: the currency gained).")
    high: float = Field(description="Highest daily rate in the period.")
    low: float = Field(description="Lowest daily rate in the period.")
    average: float = Field(description="Mean of the daily rates in the period.")


class FluctuationReport(BaseModel):
    """Movements of several currencies against a base over a period."""

    base: Currency = Field(description="The base currency.")
    start_date: Date = Field(description="First date.")
    end_date: Date = Field(description="Last date.")
    currencies: list[Fluctuation] = Field(description="One entry per quoted currency, by currency code.")


class CurrencyInfo(BaseModel):
    """A supported currency."""

    code: Currency = Field(description="ISO 4217 code.")
    name: str = Field(description="Name of the currency.")
    symbol: str = Field(description="Display symbol.")
    minor_units: int = Field(description="Decimals of the minor unit: 2 for cents, 0 for JPY, 3 for KWD.")
    countries: list[Country] = Field(description="Countries (ISO 3166-1 alpha-2) that use it.")
    pegged_to: Currency | None = Field(description="The currency it is pegged to, if any.")


class CurrencyList(BaseModel):
    """Supported currencies."""

    count: int = Field(description="Number of currencies listed.")
    currencies: list[CurrencyInfo] = Field(description="The currencies, by code.")


# -- helpers --------------------------------------------------------------------------------------


def _rates(seed: int, base: str, codes: list[str], day: dt.date) -> list[Rate]:
    out = []
    for code in codes:
        value = _cross(seed, base, code, day)
        out.append(Rate(currency=code, rate=_published(value), inverse=_published(1 / value)))
    return out


def _table(ctx: Ctx, base: str, symbols: list[str] | None, day: dt.date) -> RateTable:
    _currency(base, "base")
    codes = _symbols(symbols, base)
    return RateTable(
        base=base,
        date=day,
        rate_date=_trading_day(day),
        timestamp=_stamp(ctx, day),
        market_closed=day.weekday() >= 5,
        rates=_rates(ctx.population.seed, base, codes, day),
    )


def _display(cur: _Cur, minor: int) -> str:
    if cur.minor_units == 0:
        return f"{cur.symbol}{minor:,}"
    major, rest = divmod(minor, 10**cur.minor_units)
    return f"{cur.symbol}{major:,}.{rest:0{cur.minor_units}d}"


def _period(ctx: Ctx, start_date: dt.date, end_date: dt.date, symbols: list[str] | None) -> None:
    _check_date(ctx, start_date, "start_date")
    _check_date(ctx, end_date, "end_date")
    if end_date < start_date:
        raise RuleViolation(
            f"end_date {end_date} is before start_date {start_date}",
            field="end_date",
            hint="give an end date on or after the start date",
        )
    span = (end_date - start_date).days + 1
    if span > MAX_SERIES_DAYS:
        raise RuleViolation(
            f"the period has {span} days; at most {MAX_SERIES_DAYS} are allowed",
            field="end_date",
            hint=f"ask for at most {MAX_SERIES_DAYS} days at a time",
        )
    if not symbols and span > MAX_SERIES_DAYS_ALL:
        raise RuleViolation(
            f"a period of {span} days needs the currencies named",
            field="symbols",
            hint=f"name the currencies you need in symbols, or ask for at most {MAX_SERIES_DAYS_ALL} days",
        )


def _example_dated(ctx: Ctx) -> dict[str, Any]:
    return {"date": (ctx.today() - dt.timedelta(days=30)).isoformat(), "base": "EUR"}


def _example_convert(ctx: Ctx) -> dict[str, Any]:
    return {"amount": 125000, "from_currency": "USD", "to_currency": ctx.population.home.place.currency}


def _example_period(ctx: Ctx) -> dict[str, Any]:
    today = ctx.today()
    return {
        "start_date": (today - dt.timedelta(days=14)).isoformat(),
        "end_date": today.isoformat(),
        "symbols": ["EUR", "GBP", "JPY"],
    }


# -- tools ----------------------------------------------------------------------------------------


@service.tool(intent="get the latest exchange rates", open_world=True)
def latest_rates(ctx: Ctx, base: Currency = "USD", symbols: Symbols | None = None) -> RateTable:
    """Get the latest exchange rates of a base currency (today's; the Friday's close at weekends).

    Args:
        base: ISO 4217 code of the base currency.
        symbols: Codes of the currencies to quote (default: every supported currency but the base).
    """
    return _table(ctx, base, symbols, ctx.today())


@service.tool(intent="look up the exchange rates of a past date", open_world=True, example=_example_dated)
def historical_rates(ctx: Ctx, date: Date, base: Currency = "USD", symbols: Symbols | None = None) -> RateTable:
    """Get the end-of-day exchange rates of a past date (from 1999-01-01 up to today).

    Args:
        date: The date; a weekend gives the Friday's rates.
        base: ISO 4217 code of the base currency.
        symbols: Codes of the currencies to quote (default: every supported currency but the base).
    """
    _check_date(ctx, date, "date")
    return _table(ctx, base, symbols, date)


@service.tool(intent="convert an amount to another currency", open_world=True, example=_example_convert)
def convert(
    ctx: Ctx, amount: Cents, from_currency: Currency, to_currency: Currency, date: Date | None = None
) -> Conversion:
    """Convert an amount of money between currencies at the rate of a date.

    Amounts are in minor units (cents; yen for JPY). The result is the amount
    times the published rate, rounded half up to the target's minor unit.

    Args:
        amount: The amount in minor units of from_currency.
        from_currency: ISO 4217 code of the amount's currency.
        to_currency: ISO 4217 code of the currency to convert to.
        date: Date of the rate (default: today, the latest rate).
    """
    src = _currency(from_currency, "from_currency")
    dst = _currency(to_currency, "to_currency")
    day = date or ctx.today()
    _check_date(ctx, day, "date")
    value = _cross(ctx.population.seed, from_currency, to_currency, day)
    rate = _published(value)
    exact = Decimal(amount) * Decimal(repr(rate)) * (Decimal(10) ** (dst.minor_units - src.minor_units))
    result = int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    if result > MAX_CENTS:
        raise RuleViolation(
            f"{amount} {from_currency} minor units come to more than {MAX_CENTS} {to_currency} minor units",
            field="amount",
            hint="convert a smaller amount, in parts",
        )
    return Conversion(
        from_currency=from_currency,
        to_currency=to_currency,
        amount=amount,
        result=result,
        rate=rate,
        inverse_rate=_published(1 / value),
        date=day,
        rate_date=_trading_day(day),
        timestamp=_stamp(ctx, day),
        amount_display=_display(src, amount),
        result_display=_display(dst, result),
    )


@service.tool(intent="get the daily exchange rates over a period", open_world=True, example=_example_period)
def timeseries(
    ctx: Ctx, start_date: Date, end_date: Date, base: Currency = "USD", symbols: Symbols | None = None
) -> TimeSeries:
    """Get daily exchange rates for every day of a period (at most 366 days; 31 without symbols).

    Args:
        start_date: First date (from 1999-01-01).
        end_date: Last date (up to today).
        base: ISO 4217 code of the base currency.
        symbols: Codes of the currencies to quote (default: every supported currency but the base).
    """
    _currency(base, "base")
    codes = _symbols(symbols, base)
    _period(ctx, start_date, end_date, symbols)
    seed = ctx.population.seed
    span = (end_date - start_date).days + 1
    days = [start_date + dt.timedelta(days=k) for k in range(span)]
    return TimeSeries(
        base=base,
        start_date=start_date,
        end_date=end_date,
        days=[DayRates(date=d, rates=_rates(seed, base, codes, d)) for d in days],
    )


@service.tool(intent="see how exchange rates moved over a period", open_world=True, example=_example_period)
def fluctuation(
    ctx: Ctx, start_date: Date, end_date: Date, base: Currency = "USD", symbols: Symbols | None = None
) -> FluctuationReport:
    """Get how currencies moved against a base between two dates: change, percent change, high, low, average.

    Args:
        start_date: First date (from 1999-01-01).
        end_date: Last date (up to today; at most 366 days after start_date).
        base: ISO 4217 code of the base currency.
        symbols: Codes of the currencies to quote (default: every supported currency but the base).
    """
    _currency(base, "base")
    codes = _symbols(symbols, base)
    _period(ctx, start_date, end_date, symbols)
    seed = ctx.population.seed
    span = (end_date - start_date).days + 1
    out = []
    for code in codes:
        series = [_published(_cross(seed, base, code, start_date + dt.timedelta(days=k))) for k in range(span)]
        first, last = series[0], series[-1]
        out.append(
            Fluctuation(
                currency=code,
                start_rate=first,
                end_rate=last,
                change=_published(last - first),
                change_pct=round(100 * (last - first) / first, 4),
                high=max(series),
                low=min(series),
                average=_published(sum(series) / span),
            )
        )
    return FluctuationReport(base=base, start_date=start_date, end_date=end_date, currencies=out)


@service.tool(intent="list the supported currencies", open_world=True)
def list_currencies(ctx: Ctx, country: Country | None = None) -> CurrencyList:
    """List the supported currencies with their names, symbols, minor units and the countries using them.

    Args:
        country: Only the currency of this country (ISO 3166-1 alpha-2).
    """
    found = [c for c in _CURRENCIES if country is None or country in c.countries]
    if not found:
        raise NotFound(
            f"no supported currency is used in {country}",
            field="country",
            hint="leave country out to list every supported currency",
        )
    return CurrencyList(
        count=len(found),
        currencies=[
            CurrencyInfo(
                code=c.code,
                name=c.name,
                symbol=c.symbol,
                minor_units=c.minor_units,
                countries=sorted(c.countries),
                pegged_to=c.peg,
            )
            for c in found
        ],
    )
