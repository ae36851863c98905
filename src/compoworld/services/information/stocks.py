"""Tickerline market data: symbols, quotes, daily bars, company fundamentals and market hours.

Modeled on the Alpha Vantage stock APIs (SYMBOL_SEARCH, GLOBAL_QUOTE,
TIME_SERIES_DAILY, OVERVIEW, MARKET_STATUS, TOP_GAINERS_LOSERS) with Polygon.io's
conventions for exchanges (ISO 10383 MIC codes) and aggregate bars.

An open-world service: it holds no records. Every company of the world's
population is listed, under a ticker derived from its name (unique across the
population), on the exchange of its home country, and trades in that
country's currency. Prices are a deterministic function of the world seed,
the ticker and the date (a multi-scale random walk around a slowly trending
anchor), so a quote, the daily bars and the overview agree with each other in
any process; the trading clock is the world's clock (``ctx.now()``).
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import math
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Annotated, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Population
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Domain,
    JobTitle,
    Percent,
    PersonName,
    Phone,
    PostalAddress,
    Quantity,
    Text,
    Ticker,
    Timezone,
    Url,
)
from compoworld.world.geo import country_name

__all__ = ["service"]

service = Service(
    "stocks",
    title="Tickerline Market Data",
    category="market_data",
    modeled_on="Alpha Vantage Stock APIs (SYMBOL_SEARCH, GLOBAL_QUOTE, TIME_SERIES_DAILY, OVERVIEW, "
    "MARKET_STATUS, TOP_GAINERS_LOSERS) with Polygon.io v2/v3 exchange and aggregate conventions",
    description="Stock market data for the listed companies of the world: find a company's ticker, get a live "
    "quote, daily price history and company fundamentals, see which exchanges are open and the day's top movers.",
)

Mic = Literal[
    "XNAS", "XNYS", "XLON", "XETR", "XPAR", "XAMS", "XMAD", "XMIL", "XSTO", "XTSE", "XTKS", "XSES", "XASX", "BVMF"
]
MarketState = Literal["pre_market", "open", "after_hours", "closed"]

# -- exchanges and their calendars -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Exchange:
    """A stock exchange: where it is, its trading hours (local) and its holidays."""

    mic: str
    name: str
    country: str
    city: str
    timezone: str
    currency: str
    open: dt.time
    close: dt.time
    pre_open: dt.time | None = None
    post_close: dt.time | None = None


def _t(h: int, m: int = 0) -> dt.time:
    return dt.time(h, m)


EXCHANGES: dict[str, Exchange] = {
    e.mic: e
    for e in (
        Exchange(
            "XNAS", "Nasdaq Stock Market", "US", "New York", "America/New_York", "USD", _t(9, 30), _t(16), _t(4), _t(20)
        ),
        Exchange(
            "XNYS",
            "New York Stock Exchange",
            "US",
            "New York",
            "America/New_York",
            "USD",
            _t(9, 30),
            _t(16),
            _t(4),
            _t(20),
        ),
        Exchange("XLON", "London Stock Exchange", "GB", "London", "Europe/London", "GBP", _t(8), _t(16, 30)),
        Exchange("XETR", "Deutsche Boerse Xetra", "DE", "Frankfurt", "Europe/Berlin", "EUR", _t(9), _t(17, 30)),
        Exchange("XPAR", "Euronext Paris", "FR", "Paris", "Europe/Paris", "EUR", _t(9), _t(17, 30)),
        Exchange("XAMS", "Euronext Amsterdam", "NL", "Amsterdam", "Europe/Amsterdam", "EUR", _t(9), _t(17, 30)),
        Exchange("XMAD", "Bolsa de Madrid", "ES", "Madrid", "Europe/Madrid", "EUR", _t(9), _t(17, 30)),
        Exchange("XMIL", "Euronext Milan", "IT", "Milan", "Europe/Rome", "EUR", _t(9), _t(17, 30)),
        Exchange("XSTO", "Nasdaq Stockholm", "SE", "Stockholm", "Europe/Stockholm", "SEK", _t(9), _t(17, 30)),
        Exchange("XTSE", "Toronto Stock Exchange", "CA", "Toronto", "America/Toronto", "CAD", _t(9, 30), _t(16)),
        Exchange("XTKS", "Tokyo Stock Exchange", "JP", "Tokyo", "Asia/Tokyo", "JPY", _t(9), _t(15, 30)),
        Exchange("XSES", "Singapore Exchange", "SG", "Singapore", "Asia/Singapore", "SGD", _t(9), _t(17)),
        Exchange("XASX", "Australian Securities Exchange", "AU", "Sydney", "Australia/Sydney", "AUD", _t(10), _t(16)),
        Exchange("BVMF", "B3 Brasil Bolsa Balcao", "BR", "Sao Paulo", "America/Sao_Paulo", "BRL", _t(10), _t(17)),
    )
}

_MIC_OF_COUNTRY = {
    "GB": "XLON",
    "DE": "XETR",
    "FR": "XPAR",
    "NL": "XAMS",
    "ES": "XMAD",
    "IT": "XMIL",
    "SE": "XSTO",
    "CA": "XTSE",
    "JP": "XTKS",
    "SG": "XSES",
    "AU": "XASX",
    "BR": "BVMF",
}
_NASDAQ_INDUSTRIES = frozenset({"software", "hardware", "media", "healthcare"})

# Rough USD value of one unit of each listing currency, to put share prices in a realistic local range.
_PER_USD = {
    "USD": 1.0,
    "EUR": 0.92,
    "GBP": 0.79,
    "SEK": 10.5,
    "CAD": 1.36,
    "JPY": 150.0,
    "SGD": 1.34,
    "AUD": 1.52,
    "BRL": 5.0,
}
_ZERO_DECIMAL = frozenset({"JPY"})

_SECTORS = {
    "software": ("Technology", "Software - Application"),
    "hardware": ("Technology", "Computer Hardware"),
    "logistics": ("Industrials", "Integrated Freight & Logistics"),
    "food": ("Consumer Defensive", "Packaged Foods"),
    "healthcare": ("Healthcare", "Medical Care Facilities"),
    "manufacturing": ("Industrials", "Specialty Industrial Machinery"),
    "retail": ("Consumer Cyclical", "Specialty Retail"),
    "consulting": ("Industrials", "Consulting Services"),
    "energy": ("Utilities", "Utilities - Renewable"),
    "media": ("Communication Services", "Entertainment"),
    "wholesale": ("Industrials", "Industrial Distribution"),
}
# Revenue per employee in USD and a typical price-to-sales multiple.
_REVENUE_PER_EMPLOYEE = {
    "software": 260_000,
    "hardware": 330_000,
    "logistics": 210_000,
    "food": 240_000,
    "healthcare": 180_000,
    "manufacturing": 250_000,
    "retail": 190_000,
    "consulting": 170_000,
    "energy": 520_000,
    "media": 280_000,
    "wholesale": 450_000,
}
_PRICE_TO_SALES = {
    "software": 6.0,
    "hardware": 2.5,
    "logistics": 0.9,
    "food": 1.3,
    "healthcare": 2.2,
    "manufacturing": 1.4,
    "retail": 0.7,
    "consulting": 1.6,
    "energy": 2.0,
    "media": 2.2,
    "wholesale": 0.5,
}


def _easter(year: int) -> dt.date:
    """Western Easter Sunday (anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    ll = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ll) // 451
    month = (h + ll - 7 * m + 114) // 31
    day = (h + ll - 7 * m + 114) % 31 + 1
    return dt.date(year, month, day)


_BOXING_DAY = frozenset({"XLON", "XETR", "XPAR", "XAMS", "XMIL", "XSTO", "XTSE", "XASX"})
_EASTER_MONDAY = frozenset({"XLON", "XETR", "XPAR", "XAMS", "XMIL", "XSTO", "XASX"})
_CHRISTMAS_EVE = frozenset({"XETR", "XMIL", "XSTO", "BVMF"})


@lru_cache(maxsize=4096)
def holiday(mic: str, day: dt.date) -> str | None:
    """The name of the exchange holiday on ``day``, or None on a normal day (weekends are not holidays)."""
    md = (day.month, day.day)
    if md == (1, 1):
        return "New Year's Day"
    if md == (12, 25):
        return "Christmas Day"
    if md == (12, 26) and mic in _BOXING_DAY:
        return "Boxing Day"
    if md == (12, 24) and mic in _CHRISTMAS_EVE:
        return "Christmas Eve"
    if mic == "XTKS" and md in ((1, 2), (1, 3), (12, 31)):
        return "Year-end holidays"
    easter = _easter(day.year)
    if day == easter - dt.timedelta(days=2) and mic != "XTKS":
        return "Good Friday"
    if day == easter + dt.timedelta(days=1) and mic in _EASTER_MONDAY:
        return "Easter Monday"
    if mic in ("XNAS", "XNYS"):
        if md == (7, 4):
            return "Independence Day"
        if day.month == 11 and day.weekday() == 3 and 22 <= day.day <= 28:
            return "Thanksgiving Day"
    if mic == "BVMF" and day in (easter - dt.timedelta(days=48), easter - dt.timedelta(days=47)):
        return "Carnival"
    return None


def is_trading_day(mic: str, day: dt.date) -> bool:
    """Whether the exchange holds a regular session on ``day``."""
    return day.weekday() < 5 and holiday(mic, day) is None


def _previous_trading_day(mic: str, day: dt.date) -> dt.date:
    day -= dt.timedelta(days=1)
    while not is_trading_day(mic, day):
        day -= dt.timedelta(days=1)
    return day


def _next_trading_day(mic: str, day: dt.date) -> dt.date:
    day += dt.timedelta(days=1)
    while not is_trading_day(mic, day):
        day += dt.timedelta(days=1)
    return day


def _at(ex: Exchange, day: dt.date, when: dt.time) -> dt.datetime:
    """A local exchange time on ``day`` as a UTC datetime."""
    return dt.datetime.combine(day, when, tzinfo=ZoneInfo(ex.timezone)).astimezone(dt.UTC)


# -- deterministic noise ---------------------------------------------------------------------

_NORMAL = NormalDist()


def _unit(*parts: object) -> float:
    """A uniform value in (0, 1) that depends only on ``parts`` (the same in every process)."""
    digest = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return (int.from_bytes(digest, "big") + 0.5) / 2**64


def _gauss(*parts: object) -> float:
    """A standard normal value that depends only on ``parts``."""
    return _NORMAL.inv_cdf(_unit(*parts))


@lru_cache(maxsize=1 << 17)
def _knot(seed: int, ticker: str, span: int, k: int) -> float:
    return _gauss("stocks-knot", seed, ticker, span, k)


_SPANS = (1, 5, 21, 63, 252, 1008)


# -- listings ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Listing:
    """A world company as a listed stock, with the parameters of its price walk."""

    ticker: str
    company: Company
    exchange: Exchange
    currency: str
    base: float
    """Anchor share price in the listing currency (major units) at the world's epoch."""
    sigma: float
    """Daily volatility of the log price."""
    drift: float
    """Yearly drift of the anchor."""
    ipo: dt.date
    shares: int
    turnover: float
    margin: float
    dividend_yield: float
    beta: float
    seed: int

    @property
    def exponent(self) -> int:
        """Decimal places of the listing currency's minor unit."""
        return 0 if self.currency in _ZERO_DECIMAL else 2

    @property
    def scale(self) -> int:
        """Minor units per major unit of the listing currency."""
        return 1 if self.currency in _ZERO_DECIMAL else 100

    def cents(self, price: float) -> int:
        """A price in major units as minor units of the listing currency."""
        return round(price * self.scale)

    def log_close(self, day: dt.date) -> float:
        n = day.toordinal()
        years = (n - _EPOCH_ORDINAL) / 365.25
        value = math.log(self.base) + self.drift * years
        for span in _SPANS:
            amp = self.sigma * math.sqrt(span) * 0.7
            if span == 1:
                value += amp * _knot(self.seed, self.ticker, span, n)
                continue
            k, rest = divmod(n, span)
            t = rest / span
            w = t * t * (3 - 2 * t)
            value += amp * (
                (1 - w) * _knot(self.seed, self.ticker, span, k) + w * _knot(self.seed, self.ticker, span, k + 1)
            )
        return value

    def bar(self, day: dt.date) -> Bar:
        """The daily bar of a trading day (open, high, low, close in minor units; volume)."""
        close = math.exp(self.log_close(day))
        prev = math.exp(self.log_close(_previous_trading_day(self.exchange.mic, day)))
        s = self.sigma
        open_ = prev * math.exp(0.3 * s * _gauss("stocks-gap", self.seed, self.ticker, day))
        high = max(open_, close) * math.exp(abs(0.5 * s * _gauss("stocks-high", self.seed, self.ticker, day)))
        low = min(open_, close) * math.exp(-abs(0.5 * s * _gauss("stocks-low", self.seed, self.ticker, day)))
        move = abs(math.log(close / prev))
        volume = self.shares * self.turnover * math.exp(0.35 * _gauss("stocks-vol", self.seed, self.ticker, day))
        volume *= 1 + 8 * move
        return Bar(
            date=day,
            open=self.cents(open_),
            high=self.cents(high),
            low=self.cents(low),
            close=self.cents(close),
            volume=min(int(volume), 10**9),
        )

    def close_cents(self, day: dt.date) -> int:
        """The close of a trading day in minor units."""
        return self.cents(math.exp(self.log_close(day)))


_EPOCH_ORDINAL = dt.date(2026, 3, 2).toordinal()
_IPO_FIRST = dt.date(2003, 1, 6).toordinal()
_IPO_LAST = dt.date(2021, 12, 15).toordinal()


def _ticker_candidates(name: str) -> list[str]:
    words = [w.upper() for w in re.findall(r"[A-Za-z]+", name)] or ["X"]
    first, rest = words[0], "".join(words[1:]) or words[0]
    out = [
        first[:3] + rest[:1],
        first[:4],
        first[:2] + rest[:2],
        first[:3] + rest[:2],
        first[:1] + rest[:3],
        first[:4] + rest[:1],
        first[:5],
    ]
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out += [first[:3] + a for a in letters]
    out += [first[:2] + a + b for a in letters for b in letters]
    return [c for c in out if 1 <= len(c) <= 5]


def _make_listing(seed: int, ticker: str, company: Company) -> Listing:
    rng = random.Random(f"stocks-listing:{seed}:{ticker}:{company.name}")
    country = company.place.country
    if country == "US":
        mic = "XNAS" if company.industry in _NASDAQ_INDUSTRIES else "XNYS"
    else:
        mic = _MIC_OF_COUNTRY.get(country, "XNYS")
    ex = EXCHANGES[mic]
    currency = ex.currency
    usd_price = math.exp(rng.uniform(math.log(9), math.log(340)))
    base = usd_price * _PER_USD.get(currency, 1.0)
    tech = company.industry in ("software", "hardware", "media")
    sigma = rng.uniform(0.016, 0.028) if tech else rng.uniform(0.009, 0.02)
    revenue_usd = company.employees * _REVENUE_PER_EMPLOYEE.get(company.industry, 220_000) * rng.uniform(0.7, 1.4)
    cap_usd = revenue_usd * _PRICE_TO_SALES.get(company.industry, 1.5) * rng.uniform(0.6, 1.7)
    shares = int(cap_usd / usd_price)
    if shares < 1_000_000:
        # Too few shares at that price for a listed company: a low-priced stock with a wider float instead.
        shares = rng.randint(1_000_000, 4_000_000)
        usd_price = max(cap_usd / shares, 0.5)
        base = usd_price * _PER_USD.get(currency, 1.0)
    shares = min(shares, 990_000_000)
    ipo = dt.date.fromordinal(rng.randint(_IPO_FIRST, _IPO_LAST))
    while not is_trading_day(mic, ipo):
        ipo += dt.timedelta(days=1)
    return Listing(
        ticker=ticker,
        company=company,
        exchange=ex,
        currency=currency,
        base=base,
        sigma=sigma,
        drift=rng.uniform(-0.04, 0.16),
        ipo=ipo,
        shares=shares,
        turnover=rng.uniform(0.002, 0.009),
        margin=rng.uniform(-0.08, 0.24),
        dividend_yield=0.0 if tech and rng.random() < 0.7 else round(rng.uniform(0.4, 4.2), 2),
        beta=round(rng.uniform(1.0, 1.8) if tech else rng.uniform(0.4, 1.2), 2),
        seed=seed,
    )


_LISTINGS: dict[int, tuple[Population, dict[str, Listing], dict[str, str]]] = {}


def listings(pop: Population) -> dict[str, Listing]:
    """Every company of the population as a listing, by ticker (tickers unique, assigned in population order)."""
    return _listing_tables(pop)[0]


def ticker_of(pop: Population, company: Company) -> str:
    """The ticker of a world company."""
    return _listing_tables(pop)[1][company.key]


def _listing_tables(pop: Population) -> tuple[dict[str, Listing], dict[str, str]]:
    cached = _LISTINGS.get(id(pop))
    if cached is not None and cached[0] is pop:
        return cached[1], cached[2]
    by_ticker: dict[str, Listing] = {}
    by_key: dict[str, str] = {}
    for company in pop.companies:
        ticker = next(c for c in _ticker_candidates(company.name) if c not in by_ticker)
        by_ticker[ticker] = _make_listing(pop.seed, ticker, company)
        by_key[company.key] = ticker
    if len(_LISTINGS) > 32:
        _LISTINGS.clear()
    _LISTINGS[id(pop)] = (pop, by_ticker, by_key)  # holding pop keeps its id from being reused
    return by_ticker, by_key


def _listing(ctx: Ctx, symbol: str) -> Listing:
    found = listings(ctx.population).get(symbol)
    if found is None:
        raise NotFound(
            f"no listed stock with ticker {symbol!r}",
            field="symbol",
            hint="find the company's ticker with stocks__search_symbols",
        )
    return found


# -- results -----------------------------------------------------------------------------------


class Bar(BaseModel):
    """One trading day's prices."""

    date: Date = Field(description="Trading day.")
    open: Cents = Field(description="Opening price in minor units of the listing currency.")
    high: Cents = Field(description="Highest price of the day in minor units.")
    low: Cents = Field(description="Lowest price of the day in minor units.")
    close: Cents = Field(description="Closing price in minor units.")
    volume: Quantity = Field(description="Number of shares traded.")


class SymbolMatch(BaseModel):
    """A listed company matching a search."""

    symbol: Ticker = Field(description="Ticker symbol.")
    name: CompanyName = Field(description="Company name.")
    type: Literal["Equity"] = Field(description="Security type.")
    exchange: Mic = Field(description="Exchange, as an ISO 10383 MIC code.")
    region: Country = Field(description="Country of the exchange (ISO 3166-1 alpha-2).")
    currency: Currency = Field(description="Trading currency.")
    market_open: str = Field(description="Regular session opening time, local HH:MM.")
    market_close: str = Field(description="Regular session closing time, local HH:MM.")
    timezone: Timezone = Field(description="Time zone of the exchange.")
    domain: Domain = Field(description="The company's web domain.")
    match_score: float = Field(description="How well the company matches the keywords, 0 to 1.")


class SymbolSearch(BaseModel):
    """Best matches for a symbol search, best first."""

    keywords: str = Field(description="The keywords searched for.")
    best_matches: list[SymbolMatch] = Field(description="Matching listings, best match first.")


class Quote(BaseModel):
    """The latest price of a stock."""

    symbol: Ticker = Field(description="Ticker symbol.")
    name: CompanyName = Field(description="Company name.")
    exchange: Mic = Field(description="Exchange (MIC code).")
    currency: Currency = Field(description="Currency of every price, in its minor units (cents; yen for JPY).")
    price: Cents = Field(description="Latest trade price in minor units.")
    open: Cents = Field(description="Opening price of the latest trading day in minor units.")
    high: Cents = Field(description="Highest price of the latest trading day so far in minor units.")
    low: Cents = Field(description="Lowest price of the latest trading day so far in minor units.")
    previous_close: Cents = Field(description="Close of the trading day before the latest one, in minor units.")
    change: int = Field(description="Price minus previous close, in minor units (negative when down).")
    change_percent: float = Field(description="Change relative to the previous close, in percent (negative when down).")
    volume: Quantity = Field(description="Shares traded in the latest trading day so far.")
    latest_trading_day: Date = Field(description="The trading day the price belongs to.")
    market_state: MarketState = Field(description="State of the exchange's market now.")
    as_of: DateTime = Field(description="Time of the price: now while the market is open, else the session close.")


class History(BaseModel):
    """Daily bars of a stock over a date range."""

    symbol: Ticker = Field(description="Ticker symbol.")
    currency: Currency = Field(description="Currency of the prices, in its minor units.")
    exchange: Mic = Field(description="Exchange (MIC code).")
    start_date: Date = Field(description="First day of the range asked for.")
    end_date: Date = Field(description="Last day of the range asked for.")
    order: Literal["asc", "desc"] = Field(description="Order of the bars by date.")
    count: Quantity = Field(description="Number of bars returned.")
    truncated: bool = Field(
        description="True when the range had more trading days than the limit; the most recent are kept."
    )
    bars: list[Bar] = Field(description="One bar per completed trading session in the range.")


class Officer(BaseModel):
    """A person the world knows at the company."""

    name: PersonName = Field(description="Full name.")
    title: JobTitle = Field(description="Job title.")


class Overview(BaseModel):
    """Company information and key financial figures."""

    symbol: Ticker = Field(description="Ticker symbol.")
    asset_type: Literal["Common Stock"] = Field(description="Security type.")
    name: CompanyName = Field(description="Company name.")
    description: Text = Field(description="What the company does.")
    exchange: Mic = Field(description="Exchange (MIC code).")
    exchange_name: str = Field(description="Exchange name.")
    currency: Currency = Field(description="Trading and reporting currency.")
    country: Country = Field(description="Country of the headquarters.")
    sector: str = Field(description="Sector.")
    industry: str = Field(description="Industry as the world knows it (software, logistics ...).")
    industry_detail: str = Field(description="Finer industry classification.")
    address: PostalAddress = Field(description="Headquarters address.")
    city: City = Field(description="Headquarters city.")
    domain: Domain = Field(description="The company's web domain.")
    website: Url = Field(description="The company's website.")
    phone: Phone = Field(description="Main phone number.")
    employees: Quantity = Field(description="Full-time employees.")
    ipo_date: Date = Field(description="First trading day.")
    fiscal_year_end: Literal["December"] = Field(description="Month the fiscal year ends.")
    latest_close: Cents = Field(description="Close of the latest completed trading day, in minor units.")
    shares_outstanding: Quantity = Field(description="Shares outstanding.")
    market_capitalization: int = Field(description="Market value of all shares, in whole units of the currency.")
    revenue_ttm: int = Field(description="Revenue over the trailing twelve months, in whole units of the currency.")
    profit_margin: float = Field(description="Net profit margin as a fraction (negative for a loss).")
    eps: float = Field(description="Earnings per share over the trailing twelve months, in major units.")
    pe_ratio: float | None = Field(description="Price to earnings ratio; null when earnings are negative.")
    dividend_yield: Percent = Field(description="Dividend yield in percent.")
    beta: float = Field(description="Volatility relative to the market.")
    week_52_high: Cents = Field(description="Highest close of the last 52 weeks, in minor units.")
    week_52_low: Cents = Field(description="Lowest close of the last 52 weeks, in minor units.")
    moving_average_50: Cents = Field(description="Average close of the last 50 sessions, in minor units.")
    moving_average_200: Cents = Field(description="Average close of the last 200 sessions, in minor units.")
    officers: list[Officer] = Field(description="People known at the company.")


class ExchangeStatus(BaseModel):
    """Whether an exchange is trading now and when it next opens and closes."""

    exchange: Mic = Field(description="Exchange (MIC code).")
    name: str = Field(description="Exchange name.")
    country: Country = Field(description="Country of the exchange.")
    city: City = Field(description="City of the exchange.")
    timezone: Timezone = Field(description="Time zone of the exchange.")
    currency: Currency = Field(description="Trading currency.")
    local_time: str = Field(description="Local time at the exchange now, ISO 8601 with UTC offset.")
    market_state: MarketState = Field(description="State now.")
    is_trading_day: bool = Field(description="Whether today (local) has a regular session.")
    holiday: str | None = Field(description="The holiday closing the exchange today, if any.")
    session_open: DateTime | None = Field(description="Today's regular session opening, if it trades today.")
    session_close: DateTime | None = Field(description="Today's regular session closing, if it trades today.")
    next_open: DateTime = Field(description="The next time the regular session opens (after now).")
    next_close: DateTime = Field(description="The next time the regular session closes (after now).")
    listed_companies: Quantity = Field(description="World companies listed there.")


class MarketStatus(BaseModel):
    """The state of the world's exchanges now."""

    server_time: DateTime = Field(description="Now, UTC.")
    markets: list[ExchangeStatus] = Field(description="One entry per exchange, in MIC order.")


class Mover(BaseModel):
    """A stock among the day's top movers."""

    symbol: Ticker = Field(description="Ticker symbol.")
    name: CompanyName = Field(description="Company name.")
    exchange: Mic = Field(description="Exchange (MIC code).")
    currency: Currency = Field(description="Currency of the prices.")
    price: Cents = Field(description="Latest price in minor units.")
    change: int = Field(description="Change against the previous close, in minor units.")
    change_percent: float = Field(description="Change in percent.")
    volume: Quantity = Field(description="Shares traded in the latest session so far.")
    latest_trading_day: Date = Field(description="Trading day of the price.")


class TopMovers(BaseModel):
    """The day's biggest gainers, losers and most traded stocks."""

    as_of: DateTime = Field(description="Now, UTC.")
    exchange: Mic | None = Field(description="The exchange ranked, or null for every exchange.")
    top_gainers: list[Mover] = Field(description="Largest percentage gains, biggest first.")
    top_losers: list[Mover] = Field(description="Largest percentage losses, biggest first.")
    most_actively_traded: list[Mover] = Field(description="Highest volume, highest first.")


# -- the price clock ---------------------------------------------------------------------------


def _state(ex: Exchange, now: dt.datetime) -> tuple[MarketState, dt.date]:
    """The market state now and the local date."""
    local = now.astimezone(ZoneInfo(ex.timezone))
    day, clock = local.date(), local.time()
    if not is_trading_day(ex.mic, day):
        return "closed", day
    if ex.open <= clock < ex.close:
        return "open", day
    if ex.pre_open is not None and ex.pre_open <= clock < ex.open:
        return "pre_market", day
    if ex.post_close is not None and ex.close <= clock < ex.post_close:
        return "after_hours", day
    return "closed", day


def _last_completed_session(ex: Exchange, now: dt.datetime) -> dt.date:
    """The latest trading day whose regular session has closed by ``now``."""
    local = now.astimezone(ZoneInfo(ex.timezone))
    day = local.date()
    if is_trading_day(ex.mic, day) and local.time() >= ex.close:
        return day
    return _previous_trading_day(ex.mic, day)


def _quote(listing: Listing, now: dt.datetime) -> Quote:
    ex = listing.exchange
    state, today = _state(ex, now)
    if state == "open":
        day = today
        bar = listing.bar(day)
        start, end = _at(ex, day, ex.open), _at(ex, day, ex.close)
        f = (now - start) / (end - start)
        minute = int((now - start).total_seconds() // 60)
        noise = (
            0.5
            * listing.sigma
            * math.sqrt(f * (1 - f))
            * _gauss("stocks-tick", listing.seed, listing.ticker, day, minute)
        )
        price = round(bar.open * (bar.close / bar.open) ** f * math.exp(noise))
        price = min(max(price, bar.low), bar.high)
        top = max(bar.open, bar.close)
        bottom = min(bar.open, bar.close)
        high = max(bar.open, price, round(top + (bar.high - top) * f))
        low = min(bar.open, price, round(bottom - (bottom - bar.low) * f))
        volume = int(bar.volume * f**0.8)
        as_of = now
        open_ = bar.open
    else:
        day = _last_completed_session(ex, now)
        bar = listing.bar(day)
        price, open_, high, low, volume = bar.close, bar.open, bar.high, bar.low, bar.volume
        as_of = _at(ex, day, ex.close)
    prev = listing.close_cents(_previous_trading_day(ex.mic, day))
    change = price - prev
    return Quote(
        symbol=listing.ticker,
        name=listing.company.name,
        exchange=ex.mic,
        currency=listing.currency,
        price=price,
        open=open_,
        high=high,
        low=low,
        previous_close=prev,
        change=change,
        change_percent=round(100 * change / prev, 4) if prev else 0.0,
        volume=volume,
        latest_trading_day=day,
        market_state=state,
        as_of=as_of,
    )


# -- examples for the conformance suite ----------------------------------------------------------


def _example_symbol(ctx: Ctx) -> dict[str, object]:
    return {"symbol": ticker_of(ctx.population, ctx.population.customers[0])}


def _example_search(ctx: Ctx) -> dict[str, object]:
    return {"keywords": ctx.population.customers[0].name}


def _example_history(ctx: Ctx) -> dict[str, object]:
    return {**_example_symbol(ctx), "start_date": (ctx.today() - dt.timedelta(days=30)).isoformat()}


# -- tools ---------------------------------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


@service.tool(intent="look up the stock ticker of the company", open_world=True, example=_example_search)
def search_symbols(ctx: Ctx, keywords: CompanyName, limit: Annotated[int, Field(ge=1, le=25)] = 10) -> SymbolSearch:
    """Find listed companies by name, ticker or web domain (Alpha Vantage SYMBOL_SEARCH).

    Matches are scored from 0 to 1: an exact name, ticker or domain scores 1;
    a name starting with the keywords, or containing all of them, scores
    high; similar names score lower. No match gives an empty list.

    Args:
        keywords: A company name or part of it, a ticker, or the company's web domain.
        limit: Most matches to return (1-25).
    """
    query = _norm(keywords)
    if not query:
        raise RuleViolation(
            "the keywords contain no letters or digits", field="keywords", hint="search by the company's name"
        )
    raw = keywords.strip().lower()
    scored: list[tuple[float, str, Listing]] = []
    for ticker, listing in sorted(listings(ctx.population).items()):
        name = _norm(listing.company.name)
        if query == name or raw == listing.company.domain or raw.upper() == ticker:
            score = 1.0
        elif name.startswith(query):
            score = 0.9
        elif all(any(w.startswith(q) for w in name.split()) for q in query.split()):
            score = 0.8 * len(query) / max(len(name), 1) + 0.1
        elif ticker.startswith(raw.upper()) and raw.isalpha() and len(raw) <= 5:
            score = 0.6
        else:
            ratio = difflib.SequenceMatcher(None, query, name).ratio()
            if ratio < 0.6:
                continue
            score = 0.7 * ratio
        scored.append((round(score, 4), ticker, listing))
    scored.sort(key=lambda item: (-item[0], item[2].company.name, item[1]))
    return SymbolSearch(
        keywords=keywords,
        best_matches=[
            SymbolMatch(
                symbol=ticker,
                name=listing.company.name,
                type="Equity",
                exchange=listing.exchange.mic,
                region=listing.exchange.country,
                currency=listing.currency,
                market_open=listing.exchange.open.strftime("%H:%M"),
                market_close=listing.exchange.close.strftime("%H:%M"),
                timezone=listing.exchange.timezone,
                domain=listing.company.domain,
                match_score=score,
            )
            for score, ticker, listing in scored[:limit]
        ],
    )


@service.tool(intent="get the current stock price", open_world=True, example=_example_symbol)
def quote(ctx: Ctx, symbol: Ticker) -> Quote:
    """Get the latest price of a stock with the day's range, volume and change (Alpha Vantage GLOBAL_QUOTE).

    While the exchange is open the price moves through the session; before
    the open, after the close and on holidays it is the last session's close.
    Prices are in minor units of the listing currency (cents; yen for JPY).

    Args:
        symbol: The stock's ticker (find it with stocks__search_symbols).
    """
    return _quote(_listing(ctx, symbol), ctx.now())


@service.tool(intent="get the stock's daily price history", open_world=True, example=_example_history)
def daily_history(
    ctx: Ctx,
    symbol: Ticker,
    start_date: Date | None = None,
    end_date: Date | None = None,
    order: Literal["asc", "desc"] = "desc",
    limit: Annotated[int, Field(ge=1, le=5000)] = 100,
) -> History:
    """Get a stock's daily open, high, low, close and volume over a date range (TIME_SERIES_DAILY).

    Only completed sessions are returned: weekends and exchange holidays have
    no bar, and today has one only after the close. When the range holds more
    sessions than ``limit``, the most recent are kept.

    Args:
        symbol: The stock's ticker.
        start_date: First day of the range (default: 140 days before the end).
        end_date: Last day of the range (default: today); it cannot be in the future.
        order: ``desc`` for newest first (Alpha Vantage), ``asc`` for oldest first (Polygon).
        limit: Most bars to return (1-5000).
    """
    listing = _listing(ctx, symbol)
    ex = listing.exchange
    today = ctx.now().astimezone(ZoneInfo(ex.timezone)).date()
    end = end_date or today
    if end > today:
        raise RuleViolation(
            f"end_date {end} is in the future (today is {today} at {ex.name})",
            field="end_date",
            hint="history ends today; use stocks__quote for the live price",
        )
    start = start_date or end - dt.timedelta(days=140)
    if start > end:
        raise RuleViolation(
            f"start_date {start} is after end_date {end}", field="start_date", hint="give a start on or before the end"
        )
    if end < listing.ipo:
        raise RuleViolation(
            f"{listing.ticker} started trading on {listing.ipo}; there is no history up to {end}",
            field="end_date",
            hint=f"ask for dates from {listing.ipo} on",
        )
    if (end - start).days > 366 * 30:
        raise RuleViolation("the range spans more than 30 years", field="start_date", hint="ask for a shorter range")
    last = min(end, _last_completed_session(ex, ctx.now()))
    days: list[dt.date] = []
    day = last
    first = max(start, listing.ipo)
    truncated = False
    while day >= first:
        if is_trading_day(ex.mic, day):
            if len(days) == limit:
                truncated = True
                break
            days.append(day)
        day -= dt.timedelta(days=1)
    bars = [listing.bar(d) for d in days]
    if order == "asc":
        bars.reverse()
    return History(
        symbol=listing.ticker,
        currency=listing.currency,
        exchange=ex.mic,
        start_date=start,
        end_date=end,
        order=order,
        count=len(bars),
        truncated=truncated,
        bars=bars,
    )


_DESCRIPTIONS = {
    "software": "builds cloud software for {size} businesses, sold as subscriptions",
    "hardware": "designs and sells robotics hardware and the control software that runs it",
    "logistics": "runs freight forwarding, warehousing and last-mile delivery networks",
    "food": "produces and distributes packaged foods to retailers and food service",
    "healthcare": "operates clinics and digital health services",
    "manufacturing": "manufactures industrial components and machinery on contract",
    "retail": "sells consumer goods through its stores and online shop",
    "consulting": "advises companies on strategy, operations and technology",
    "energy": "develops and operates renewable power generation and storage",
    "media": "produces and distributes video, audio and editorial content",
    "wholesale": "supplies businesses with industrial and office goods from its distribution centres",
}


@service.tool(intent="look up the listed company's profile and fundamentals", open_world=True, example=_example_symbol)
def company_overview(ctx: Ctx, symbol: Ticker) -> Overview:
    """Get a listed company's profile and key financial figures (Alpha Vantage OVERVIEW).

    The profile is the world's own record of the company: its name, domain,
    industry, headquarters address, phone, head count and the people known to
    work there; prices and ratios follow from the stock's daily closes.

    Args:
        symbol: The stock's ticker.
    """
    listing = _listing(ctx, symbol)
    company, ex = listing.company, listing.exchange
    last = _last_completed_session(ex, ctx.now())
    closes: list[int] = []
    day = last
    year_ago = last - dt.timedelta(days=365)
    while day > year_ago and day >= listing.ipo:
        if is_trading_day(ex.mic, day):
            closes.append(listing.close_cents(day))
        day -= dt.timedelta(days=1)
    latest = closes[0] if closes else listing.close_cents(last)
    rng = random.Random(f"stocks-overview:{listing.seed}:{listing.ticker}")
    price_major = latest / listing.scale
    cap = int(listing.shares * price_major)
    revenue = int(cap / _PRICE_TO_SALES.get(company.industry, 1.5) * rng.uniform(0.7, 1.3))
    eps = round(revenue * listing.margin / listing.shares, 2)
    size = "small" if company.employees < 100 else "mid-sized" if company.employees < 1000 else "large"
    sector, detail = _SECTORS.get(company.industry, ("Industrials", "Conglomerates"))
    what = _DESCRIPTIONS.get(company.industry, "serves business customers").format(size=size)
    country = country_name(company.place.country)
    description = (
        f"{company.name} {what}. Headquartered in {company.place.city}, {country}, it employs about "
        f"{company.employees:,} people and has been listed on the {ex.name} since {listing.ipo.year}."
    )
    window50 = closes[:50] or [latest]
    window200 = closes[:200] or [latest]
    return Overview(
        symbol=listing.ticker,
        asset_type="Common Stock",
        name=company.name,
        description=description,
        exchange=ex.mic,
        exchange_name=ex.name,
        currency=listing.currency,
        country=company.place.country,
        sector=sector,
        industry=company.industry,
        industry_detail=detail,
        address=company.address,
        city=company.place.city,
        domain=company.domain,
        website=f"https://www.{company.domain}",
        phone=company.phone,
        employees=company.employees,
        ipo_date=listing.ipo,
        fiscal_year_end="December",
        latest_close=latest,
        shares_outstanding=listing.shares,
        market_capitalization=cap,
        revenue_ttm=revenue,
        profit_margin=round(listing.margin, 4),
        eps=eps,
        pe_ratio=round(price_major / eps, 2) if eps > 0 else None,
        dividend_yield=listing.dividend_yield,
        beta=listing.beta,
        week_52_high=max(closes or [latest]),
        week_52_low=min(closes or [latest]),
        moving_average_50=round(sum(window50) / len(window50)),
        moving_average_200=round(sum(window200) / len(window200)),
        officers=[Officer(name=p.name, title=p.job_title) for p in ctx.population.people_at(company)],
    )


def _exchange_status(ctx: Ctx, ex: Exchange, listed: int) -> ExchangeStatus:
    now = ctx.now()
    state, today = _state(ex, now)
    trading = is_trading_day(ex.mic, today)
    day = today if trading and now < _at(ex, today, ex.close) else _next_trading_day(ex.mic, today)
    next_close = _at(ex, day, ex.close)
    next_open = _at(ex, day, ex.open)
    if next_open <= now:
        next_open = _at(ex, _next_trading_day(ex.mic, day), ex.open)
    return ExchangeStatus(
        exchange=ex.mic,
        name=ex.name,
        country=ex.country,
        city=ex.city,
        timezone=ex.timezone,
        currency=ex.currency,
        local_time=now.astimezone(ZoneInfo(ex.timezone)).isoformat(timespec="seconds"),
        market_state=state,
        is_trading_day=trading,
        holiday=holiday(ex.mic, today),
        session_open=_at(ex, today, ex.open) if trading else None,
        session_close=_at(ex, today, ex.close) if trading else None,
        next_open=next_open,
        next_close=next_close,
        listed_companies=listed,
    )


@service.tool(intent="check whether the stock exchanges are open", open_world=True)
def market_status(ctx: Ctx, exchange: Mic | None = None) -> MarketStatus:
    """See which exchanges are trading now, with today's session and the next open and close (MARKET_STATUS).

    US exchanges also have pre-market (04:00-09:30) and after-hours
    (16:00-20:00) sessions; weekends and exchange holidays are closed.

    Args:
        exchange: One exchange by MIC code (e.g. XNAS, XETR, XLON); omit for all of them.
    """
    counts: dict[str, int] = {}
    for listing in listings(ctx.population).values():
        counts[listing.exchange.mic] = counts.get(listing.exchange.mic, 0) + 1
    mics = [exchange] if exchange else sorted(EXCHANGES)
    return MarketStatus(
        server_time=ctx.now(),
        markets=[_exchange_status(ctx, EXCHANGES[m], counts.get(m, 0)) for m in mics],
    )


@service.tool(intent="see the day's biggest stock gainers and losers", open_world=True)
def top_movers(ctx: Ctx, exchange: Mic | None = None, limit: Annotated[int, Field(ge=1, le=20)] = 5) -> TopMovers:
    """Rank the listed stocks by today's move: top gainers, top losers and most traded (TOP_GAINERS_LOSERS).

    Each stock is ranked on its latest quote (live while its exchange is open).

    Args:
        exchange: Rank only the stocks of this exchange (MIC code); omit for all.
        limit: Stocks per list (1-20).
    """
    now = ctx.now()
    movers: list[Mover] = []
    for ticker, listing in sorted(listings(ctx.population).items()):
        if exchange and listing.exchange.mic != exchange:
            continue
        q = _quote(listing, now)
        movers.append(
            Mover(
                symbol=ticker,
                name=q.name,
                exchange=q.exchange,
                currency=q.currency,
                price=q.price,
                change=q.change,
                change_percent=q.change_percent,
                volume=q.volume,
                latest_trading_day=q.latest_trading_day,
            )
        )
    gainers = sorted((m for m in movers if m.change_percent > 0), key=lambda m: (-m.change_percent, m.symbol))
    losers = sorted((m for m in movers if m.change_percent < 0), key=lambda m: (m.change_percent, m.symbol))
    active = sorted(movers, key=lambda m: (-m.volume, m.symbol))
    return TopMovers(
        as_of=now,
        exchange=exchange,
        top_gainers=gainers[:limit],
        top_losers=losers[:limit],
        most_actively_traded=active[:limit],
    )
