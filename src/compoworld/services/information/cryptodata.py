"""Coinscope: crypto market data (coins, prices in currencies, market charts, exchanges), price alerts and portfolios.

Modeled on the CoinGecko API v3: ``/simple/price`` (``ids``, ``vs_currencies``), ``/coins/markets``
(``order=market_cap_desc|volume_desc``), ``/coins/{id}`` (rank, supplies, ``ath``, ``genesis_date``),
``/coins/{id}/market_chart`` (daily prices, market caps, volumes), ``/coins/{id}/history``, ``/search``,
``/search/trending``, ``/global`` and ``/exchanges`` (``trust_score``, ``trade_volume_24h_btc``), with its
coin ids (``bitcoin``, ``avalanche-2``) and lower-case ``vs_currencies``.

An open-world service: each coin's daily USD price is a multi-scale random walk seeded by the world seed,
the coin and the date, anchored to a realistic price on the world's first day (stablecoins barely move);
other currencies go through fixed rates, so every tool agrees. Stored state follows CoinGecko's app: an
employee's price alerts (``above`` or ``below`` a target on the far side of today's price; ``active`` ⇄
``paused``; ``active`` → ``triggered`` when checked) and portfolios whose holdings move only by recorded
buys and sells (never selling more than is held).
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
from compoworld.engine.types import Country, Date, DateTime, Email, IdOf, SemanticType, Text, Title, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "cryptodata",
    title="Coinscope",
    category="crypto_market_data",
    modeled_on="CoinGecko API v3 (simple/price, coins/markets, coins/{id}, market_chart, history, search, "
    "trending, global, exchanges) with CoinGecko app price alerts and portfolios",
    description="Crypto market data: prices of coins in fiat and crypto currencies, market rankings, coin details, "
    "daily market charts and historical snapshots, trending coins, global market figures and exchanges, and "
    "the team's price alerts and tracked portfolios.",
)

CoinId = Annotated[str, SemanticType("crypto.coin", kind="ref"), StringConstraints(pattern=r"^[a-z0-9-]{2,40}$")]
ExchangeId = Annotated[
    str, SemanticType("crypto.exchange", kind="ref"), StringConstraints(pattern=r"^[a-z0-9_-]{2,40}$")
]
VsCurrency = Literal["usd", "eur", "gbp", "jpy", "chf", "btc", "eth"]
AlertId = Annotated[str, IdOf("cryptodata.price_alert")]
PortfolioId = Annotated[str, IdOf("cryptodata.portfolio")]
HoldingId = Annotated[str, IdOf("cryptodata.holding")]
Search = Annotated[str, StringConstraints(min_length=1, max_length=60)]
Price = Annotated[float, Field(gt=0, le=1e9)]
Qty = Annotated[float, Field(gt=0, le=1e12)]
MAX_ACTIVE_ALERTS = 10
MAX_CHART_DAYS = 365

_FIAT = {"usd": 1.0, "eur": 0.92, "gbp": 0.79, "jpy": 150.0, "chf": 0.88}
"""Units per US dollar."""

# id | symbol | name | USD price on the anchor day | annual volatility | circulating supply | max supply | genesis
_COIN_ROWS = """\
bitcoin|btc|Bitcoin|62000|0.55|19650000|21000000|2009-01-03
ethereum|eth|Ethereum|3400|0.65|120100000|0|2015-07-30
tether|usdt|Tether|1|0.004|103000000000|0|2014-10-06
binancecoin|bnb|BNB|580|0.55|149500000|200000000|2017-07-25
solana|sol|Solana|140|0.9|444000000|0|2020-03-16
usd-coin|usdc|USDC|1|0.003|32000000000|0|2018-09-26
ripple|xrp|XRP|0.55|0.7|54900000000|100000000000|2012-06-02
cardano|ada|Cardano|0.45|0.8|35300000000|45000000000|2017-09-29
dogecoin|doge|Dogecoin|0.12|0.95|143000000000|0|2013-12-08
avalanche-2|avax|Avalanche|35|0.95|377000000|720000000|2020-09-21
polkadot|dot|Polkadot|7|0.85|1380000000|0|2020-05-26
chainlink|link|Chainlink|15|0.85|587000000|1000000000|2017-09-19
tron|trx|TRON|0.12|0.6|87700000000|0|2017-08-28
litecoin|ltc|Litecoin|80|0.7|74600000|84000000|2011-10-07
stellar|xlm|Stellar|0.11|0.75|28700000000|50001806812|2014-07-31
uniswap|uni|Uniswap|8|0.95|600000000|1000000000|2020-09-17
cosmos|atom|Cosmos Hub|9|0.9|390000000|0|2019-03-14
monero|xmr|Monero|150|0.6|18400000|0|2014-04-18"""

# id | name | country | year established | trust score | share of each coin's volume
_EXCHANGE_ROWS = """\
binance|Binance|KY|2017|10|0.34
gdax|Coinbase Exchange|US|2012|10|0.11
kraken|Kraken|US|2011|10|0.06
okx|OKX|SC|2017|10|0.09
bybit_spot|Bybit|AE|2018|9|0.08
kucoin|KuCoin|SC|2017|8|0.04
bitstamp|Bitstamp|LU|2011|9|0.02
gate|Gate.io|KY|2013|7|0.03"""


@dataclass(frozen=True, slots=True)
class _Coin:
    id: str
    symbol: str
    name: str
    anchor: float
    vol: float
    circulating: float
    max_supply: float | None
    genesis: dt.date


@dataclass(frozen=True, slots=True)
class _Exchange:
    id: str
    name: str
    country: str
    year: int
    trust: int
    share: float


def _parse_coins() -> dict[str, _Coin]:
    out = {}
    for row in _COIN_ROWS.splitlines():
        cid, sym, name, anchor, vol, circ, cap, genesis = row.split("|")
        out[cid] = _Coin(
            cid, sym, name, float(anchor), float(vol), float(circ), float(cap) or None, dt.date.fromisoformat(genesis)
        )
    return out


_COINS = _parse_coins()
_EXCHANGES = {
    e[0]: _Exchange(e[0], e[1], e[2], int(e[3]), int(e[4]), float(e[5]))
    for e in (row.split("|") for row in _EXCHANGE_ROWS.splitlines())
}
_ANCHOR = EPOCH.date()
_SCALES = (1, 4, 16, 64, 256, 1024)


@lru_cache(maxsize=131072)
def _knot(seed: int, coin: str, scale: int, index: int) -> float:
    return random.Random(f"cryptodata:{seed}:{coin}:{scale}:{index}").gauss(0.0, 1.0)


def _walk(seed: int, coin: str, day: int) -> float:
    total = 0.0
    for scale in _SCALES:
        k, offset = divmod(day, scale)
        a, b = _knot(seed, coin, scale, k), _knot(seed, coin, scale, k + 1)
        total += (a + (b - a) * offset / scale) * math.sqrt(scale)
    return total / math.sqrt(len(_SCALES))


@lru_cache(maxsize=65536)
def _usd(seed: int, coin: str, day: dt.date) -> float:
    """The coin's USD price on ``day``: equal to its anchor on the world's first day."""
    c = _COINS[coin]
    daily = c.vol / math.sqrt(365)
    move = daily * (_walk(seed, coin, day.toordinal()) - _walk(seed, coin, _ANCHOR.toordinal()))
    return c.anchor * math.exp(max(-6.0, min(6.0, move)))


def _in(seed: int, usd: float, vs: str, day: dt.date) -> float:
    value = usd * _FIAT[vs] if vs in _FIAT else usd / _usd(seed, "bitcoin" if vs == "btc" else "ethereum", day)
    return float(f"{value:.6g}")


def _volume_usd(seed: int, coin: str, day: dt.date) -> float:
    c = _COINS[coin]
    turnover = 0.02 + 0.06 * random.Random(f"cryptodata-vol:{seed}:{coin}:{day}").random()
    return _usd(seed, coin, day) * c.circulating * turnover


# -- result models -----------------------------------------------------------------------------------------


class SimplePrice(BaseModel):
    """A coin's price in one currency."""

    coin_id: CoinId = Field(description="CoinGecko coin id.")
    vs_currency: VsCurrency = Field(description="The currency.")
    price: float = Field(description="Price of one coin.")
    change_24h_pct: float = Field(description="Percent change since yesterday's price.")
    last_updated_at: DateTime = Field(description="When the price was taken.")


class MarketRow(BaseModel):
    """A coin's market figures (coins/markets)."""

    id: CoinId = Field(description="CoinGecko coin id.")
    symbol: str = Field(description="Ticker symbol, lower case.")
    name: str = Field(description="Name.")
    current_price: float = Field(description="Price in the currency asked.")
    market_cap: float = Field(description="Price times circulating supply.")
    market_cap_rank: int = Field(description="Rank by market cap, 1 first.")
    total_volume: float = Field(description="Traded volume over 24 hours.")
    price_change_percentage_24h: float = Field(description="Percent change over 24 hours.")
    image: Url = Field(description="Logo.")


class Coin(MarketRow):
    """A coin's details."""

    vs_currency: VsCurrency = Field(description="The currency of the figures.")
    circulating_supply: float = Field(description="Coins in circulation.")
    max_supply: float | None = Field(description="Hard cap (None: uncapped).")
    ath: float = Field(description="All-time high daily price.")
    ath_date: Date = Field(description="When the all-time high was reached.")
    genesis_date: Date = Field(description="First day of the coin.")


class ChartPoint(BaseModel):
    """One day of a market chart."""

    date: Date = Field(description="The day.")
    price: float = Field(description="Price.")
    market_cap: float = Field(description="Market cap.")
    total_volume: float = Field(description="Volume that day.")


class MarketChart(BaseModel):
    """Daily prices, market caps and volumes of a coin."""

    coin_id: CoinId = Field(description="The coin.")
    vs_currency: VsCurrency = Field(description="The currency.")
    points: list[ChartPoint] = Field(description="One point per day, oldest first, ending today.")


class Exchange(BaseModel):
    """A crypto exchange."""

    id: ExchangeId = Field(description="CoinGecko exchange id.")
    name: str = Field(description="Name.")
    country: Country = Field(description="Country of registration (ISO 3166-1 alpha-2).")
    year_established: int = Field(description="Year founded.")
    trust_score: int = Field(description="CoinGecko trust score 1-10.")
    trade_volume_24h_btc: float = Field(description="Volume over 24 hours in BTC.")
    url: Url = Field(description="Web site.")


class GlobalMarket(BaseModel):
    """Totals across the tracked coins (/global)."""

    active_cryptocurrencies: int = Field(description="Coins tracked.")
    markets: int = Field(description="Exchanges tracked.")
    total_market_cap_usd: float = Field(description="Sum of market caps in USD.")
    total_volume_usd: float = Field(description="Sum of 24-hour volumes in USD.")
    market_cap_percentage: dict[str, float] = Field(description="Share of the total by symbol, top five.")
    market_cap_change_percentage_24h_usd: float = Field(description="Change of the total over 24 hours.")


# -- helpers -----------------------------------------------------------------------------------------------


def _coin(coin_id: str, field: str = "coin_id") -> _Coin:
    c = _COINS.get(coin_id)
    if c is None:
        close = [k for k, v in _COINS.items() if fold(coin_id) in (v.symbol, fold(v.name))]
        raise NotFound(
            f"no coin {coin_id!r}",
            field=field,
            hint=f"use the id {close[0]!r}" if close else "find the coin id with cryptodata__search",
        )
    return c


def _change(seed: int, coin: str, day: dt.date) -> float:
    now, before = _usd(seed, coin, day), _usd(seed, coin, day - dt.timedelta(days=1))
    return round(100 * (now - before) / before, 4)


def _rank(seed: int, day: dt.date) -> dict[str, int]:
    caps = sorted(_COINS, key=lambda c: -_usd(seed, c, day) * _COINS[c].circulating)
    return {c: k + 1 for k, c in enumerate(caps)}


def _row(seed: int, c: _Coin, vs: str, day: dt.date) -> MarketRow:
    usd = _usd(seed, c.id, day)
    return MarketRow(
        id=c.id,
        symbol=c.symbol,
        name=c.name,
        current_price=_in(seed, usd, vs, day),
        market_cap=round(_in(seed, usd, vs, day) * c.circulating, 2),
        market_cap_rank=_rank(seed, day)[c.id],
        total_volume=round(_in(seed, _volume_usd(seed, c.id, day), vs, day), 2),
        price_change_percentage_24h=_change(seed, c.id, day),
        image=f"https://assets.coingecko.com/coins/images/{c.id}/large.png",
    )


@lru_cache(maxsize=256)
def _ath(seed: int, coin: str, today: dt.date) -> tuple[float, dt.date]:
    c, best = _COINS[coin], (0.0, today)
    day = c.genesis
    while day <= today:
        best = max(best, (_usd(seed, coin, day), day))
        day += dt.timedelta(days=3 if (today - day).days > 400 else 1)
    return best


def _day_ok(ctx: Ctx, c: _Coin, day: dt.date, field: str) -> None:
    if day > ctx.today():
        raise RuleViolation(f"{day} is in the future", field=field, hint=f"ask for a date up to {ctx.today()}")
    if day < c.genesis:
        raise RuleViolation(
            f"{c.name} did not exist on {day}", field=field, hint=f"its data starts on {c.genesis} (genesis)"
        )


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(
    intent="get coin prices", open_world=True, example=fixed_example(ids=["bitcoin", "ethereum"], vs_currencies=["usd"])
)
def simple_price(
    ctx: Ctx,
    ids: Annotated[list[CoinId], Field(min_length=1, max_length=25)],
    vs_currencies: Annotated[list[VsCurrency], Field(min_length=1, max_length=7)],
) -> list[SimplePrice]:
    """Get the current price of coins in currencies (/simple/price) with the 24-hour change.

    Args:
        ids: CoinGecko coin ids (bitcoin, ethereum, solana, ...).
        vs_currencies: Currencies to price in (usd, eur, gbp, jpy, chf, btc, eth).
    """
    seed, today = ctx.population.seed, ctx.today()
    coins = [_coin(cid, f"ids.{k}") for k, cid in enumerate(ids)]
    stamp = ctx.now().replace(second=0, microsecond=0)
    return [
        SimplePrice(
            coin_id=c.id,
            vs_currency=vs,
            price=_in(seed, _usd(seed, c.id, today), vs, today),
            change_24h_pct=_change(seed, c.id, today),
            last_updated_at=stamp,
        )
        for c in coins
        for vs in dict.fromkeys(vs_currencies)
    ]


@service.tool(intent="rank coins by market cap or volume", open_world=True, example=fixed_example(vs_currency="eur"))
def coins_markets(
    ctx: Ctx,
    vs_currency: VsCurrency = "usd",
    order: Literal["market_cap_desc", "volume_desc"] = "market_cap_desc",
    per_page: Annotated[int, Field(ge=1, le=100)] = 10,
) -> list[MarketRow]:
    """List coins with price, market cap, rank, volume and 24-hour change (/coins/markets).

    Args:
        vs_currency: The currency of the figures.
        order: market_cap_desc or volume_desc.
        per_page: Most coins.
    """
    seed, today = ctx.population.seed, ctx.today()
    rows = [_row(seed, c, vs_currency, today) for c in _COINS.values()]
    key = (lambda r: r.market_cap_rank) if order == "market_cap_desc" else (lambda r: -r.total_volume)
    return sorted(rows, key=key)[:per_page]


@service.tool(intent="get the coin's details", open_world=True, example=fixed_example(coin_id="solana"))
def get_coin(ctx: Ctx, coin_id: CoinId, vs_currency: VsCurrency = "usd") -> Coin:
    """Get a coin's details (/coins/{id}): market figures, supplies, all-time high and genesis date.

    Args:
        coin_id: The CoinGecko coin id.
        vs_currency: The currency of the figures.
    """
    c, seed, today = _coin(coin_id), ctx.population.seed, ctx.today()
    ath, ath_date = _ath(seed, c.id, today)
    return Coin(
        **_row(seed, c, vs_currency, today).model_dump(),
        vs_currency=vs_currency,
        circulating_supply=c.circulating,
        max_supply=c.max_supply,
        ath=_in(seed, ath, vs_currency, ath_date),
        ath_date=ath_date,
        genesis_date=c.genesis,
    )


@service.tool(
    intent="get a coin's daily market chart", open_world=True, example=lambda ctx: {"coin_id": "bitcoin", "days": 30}
)
def get_market_chart(
    ctx: Ctx, coin_id: CoinId, days: Annotated[int, Field(ge=1, le=MAX_CHART_DAYS)], vs_currency: VsCurrency = "usd"
) -> MarketChart:
    """Get daily prices, market caps and volumes of a coin over the last days (/coins/{id}/market_chart).

    Args:
        coin_id: The CoinGecko coin id.
        days: How many days back from today (1 to 365); today is the last point.
        vs_currency: The currency of the figures.
    """
    c, seed, today = _coin(coin_id), ctx.population.seed, ctx.today()
    start = max(c.genesis, today - dt.timedelta(days=days))
    points = []
    for k in range((today - start).days + 1):
        day = start + dt.timedelta(days=k)
        price = _in(seed, _usd(seed, c.id, day), vs_currency, day)
        volume = round(_in(seed, _volume_usd(seed, c.id, day), vs_currency, day), 2)
        points.append(
            ChartPoint(date=day, price=price, market_cap=round(price * c.circulating, 2), total_volume=volume)
        )
    return MarketChart(coin_id=c.id, vs_currency=vs_currency, points=points)


@service.tool(
    intent="get a coin's price on a past date",
    open_world=True,
    example=lambda ctx: {"coin_id": "ethereum", "date": (ctx.today() - dt.timedelta(days=90)).isoformat()},
)
def get_coin_history(ctx: Ctx, coin_id: CoinId, date: Date, vs_currency: VsCurrency = "usd") -> MarketRow:
    """Get a coin's price, market cap and volume on a past date (/coins/{id}/history).

    Args:
        coin_id: The CoinGecko coin id.
        date: The day (from the coin's genesis date up to today).
        vs_currency: The currency of the figures.
    """
    c = _coin(coin_id)
    _day_ok(ctx, c, date, "date")
    return _row(ctx.population.seed, c, vs_currency, date)


class SearchHit(BaseModel):
    """A coin found by search."""

    id: CoinId = Field(description="CoinGecko coin id.")
    symbol: str = Field(description="Symbol.")
    name: str = Field(description="Name.")
    market_cap_rank: int = Field(description="Rank by market cap.")


@service.tool(intent="search coins by name or symbol", open_world=True, example=fixed_example(query="coin"))
def search(ctx: Ctx, query: Search) -> list[SearchHit]:
    """Search coins by name, symbol or id (/search), highest market cap first.

    Args:
        query: Part of the name, the symbol or the id.
    """
    q, rank = fold(query), _rank(ctx.population.seed, ctx.today())
    found = [c for c in _COINS.values() if q in fold(c.name) or q == c.symbol or q in c.id]
    return [
        SearchHit(id=c.id, symbol=c.symbol, name=c.name, market_cap_rank=rank[c.id])
        for c in sorted(found, key=lambda c: rank[c.id])
    ]


@service.tool(intent="see which coins are trending", open_world=True)
def trending(ctx: Ctx) -> list[MarketRow]:
    """Get the seven trending coins (/search/trending): the biggest 24-hour movers, up or down."""
    seed, today = ctx.population.seed, ctx.today()
    movers = sorted(_COINS.values(), key=lambda c: (-abs(_change(seed, c.id, today)), c.id))[:7]
    return [_row(seed, c, "usd", today) for c in movers]


@service.tool(intent="get the global crypto market totals", open_world=True)
def global_market(ctx: Ctx) -> GlobalMarket:
    """Get the total market cap and volume of the tracked coins, the top shares and the 24-hour change (/global)."""
    seed, today = ctx.population.seed, ctx.today()
    yesterday = today - dt.timedelta(days=1)
    caps = {c.symbol: _usd(seed, c.id, today) * c.circulating for c in _COINS.values()}
    before = sum(_usd(seed, c.id, yesterday) * c.circulating for c in _COINS.values())
    total = sum(caps.values())
    top = sorted(caps, key=lambda s: -caps[s])[:5]
    return GlobalMarket(
        active_cryptocurrencies=len(_COINS),
        markets=len(_EXCHANGES),
        total_market_cap_usd=round(total, 2),
        total_volume_usd=round(sum(_volume_usd(seed, c, today) for c in _COINS), 2),
        market_cap_percentage={s: round(100 * caps[s] / total, 3) for s in top},
        market_cap_change_percentage_24h_usd=round(100 * (total - before) / before, 4),
    )


def _exchange(seed: int, e: _Exchange, today: dt.date) -> Exchange:
    usd = sum(_volume_usd(seed, c, today) for c in _COINS) * e.share
    return Exchange(
        id=e.id,
        name=e.name,
        country=e.country,
        year_established=e.year,
        trust_score=e.trust,
        trade_volume_24h_btc=round(usd / _usd(seed, "bitcoin", today), 2),
        url=f"https://www.{e.name.split()[0].lower()}.com",
    )


@service.tool(intent="list crypto exchanges", open_world=True)
def list_exchanges(ctx: Ctx, min_trust_score: Annotated[int, Field(ge=1, le=10)] = 1) -> list[Exchange]:
    """List exchanges by 24-hour volume in BTC (/exchanges).

    Args:
        min_trust_score: Only exchanges with at least this trust score.
    """
    seed, today = ctx.population.seed, ctx.today()
    rows = [_exchange(seed, e, today) for e in _EXCHANGES.values() if e.trust >= min_trust_score]
    return sorted(rows, key=lambda x: -x.trade_volume_24h_btc)


@service.tool(intent="get the exchange's profile", open_world=True, example=fixed_example(exchange_id="kraken"))
def get_exchange(ctx: Ctx, exchange_id: ExchangeId) -> Exchange:
    """Get an exchange (/exchanges/{id}): country, year, trust score and 24-hour volume.

    Args:
        exchange_id: The CoinGecko exchange id (binance, gdax, kraken, ...).
    """
    e = _EXCHANGES.get(exchange_id)
    if e is None:
        raise NotFound(f"no exchange {exchange_id!r}", field="exchange_id", hint=f"use one of {', '.join(_EXCHANGES)}")
    return _exchange(ctx.population.seed, e, ctx.today())


# -- price alerts ------------------------------------------------------------------------------------------


class PriceAlert(Timestamped):
    """An employee's alert on a coin's price crossing a target."""

    id: AlertId
    owner_email: Email
    """The employee alerted."""
    coin_id: CoinId
    """The coin watched."""
    vs_currency: VsCurrency
    """The currency of the target."""
    direction: Literal["above", "below"]
    """Fire when the price rises above or falls below the target."""
    target_price: Price
    """The price to cross."""
    status: Literal["active", "paused", "triggered"] = "active"
    """active, paused or triggered (fired once, final)."""
    note: Text = ""
    """What to do when it fires."""
    triggered_at: DateTime | None = None
    """When it fired."""
    triggered_price: float | None = None
    """The price that fired it."""


def _staff(ctx: Ctx, email: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field="owner_email", hint="alerts are kept by staff")


def _guard_alert(ctx: Ctx, new: PriceAlert, old: PriceAlert | None) -> None:
    if old is not None and old.status == "paused" and new.status == "active":
        _room(ctx, new.owner_email, "alert_id")


def _room(ctx: Ctx, owner: str, field: str) -> None:
    active = ctx.where(PriceAlert, owner_email=owner, status="active")
    if len(active) > MAX_ACTIVE_ALERTS:
        raise RuleViolation(
            f"{owner} already has {MAX_ACTIVE_ALERTS} active alerts", field=field, hint="pause or delete one first"
        )


price_alerts = service.resource(
    PriceAlert,
    name="price_alert",
    plural="price_alerts",
    prefix="pa",
    create=False,
    filters=("owner_email", "coin_id", "status", "direction"),
    search=("note",),
    update=("note",),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the price alert"),
        "resume": Transition("status", ("paused",), "active", "resume the price alert"),
    },
    guard_update=_guard_alert,
    title="price alert",
)


def _example_alert(ctx: Ctx) -> dict[str, Any]:
    price = _usd(ctx.population.seed, "solana", ctx.today())
    owner = ctx.population.employees[-1].email
    return {"owner_email": owner, "coin_id": "solana", "direction": "above", "target_price": round(price * 1.2, 2)}


@service.tool(intent="set a price alert on a coin", write=True, example=_example_alert)
def create_price_alert(
    ctx: Ctx,
    owner_email: Email,
    coin_id: CoinId,
    direction: Literal["above", "below"],
    target_price: Price,
    vs_currency: VsCurrency = "usd",
    note: Text = "",
) -> PriceAlert:
    """Set an alert for a coin's price rising above or falling below a target (on the far side of today's price).

    Args:
        owner_email: The employee to alert.
        coin_id: The CoinGecko coin id.
        direction: above or below.
        target_price: The price to cross, in vs_currency.
        vs_currency: The currency of the target.
        note: What to do when it fires.
    """
    _staff(ctx, owner_email)
    c, seed, today = _coin(coin_id), ctx.population.seed, ctx.today()
    now = _in(seed, _usd(seed, c.id, today), vs_currency, today)
    if (direction == "above" and target_price <= now) or (direction == "below" and target_price >= now):
        raise RuleViolation(
            f"{c.name} is at {now} {vs_currency} already: an alert {direction} {target_price} would fire at once",
            field="target_price",
            hint=f"set a target {'above' if direction == 'above' else 'below'} {now}",
        )
    same = ctx.where(PriceAlert, owner_email=owner_email, coin_id=c.id, direction=direction, vs_currency=vs_currency)
    for other in same:
        if other.target_price == target_price and other.status != "triggered":
            raise Conflict(f"the same alert exists: {other.id}", field="target_price", hint="use that alert")
    alert = ctx.create(
        PriceAlert,
        owner_email=owner_email,
        coin_id=c.id,
        vs_currency=vs_currency,
        direction=direction,
        target_price=target_price,
        note=note,
    )
    _room(ctx, owner_email, "owner_email")
    return alert


class AlertCheck(BaseModel):
    """The outcome of checking alerts against today's prices."""

    checked: int = Field(description="Active alerts checked.")
    triggered: list[PriceAlert] = Field(description="Alerts that fired now.")


@service.tool(
    intent="check the price alerts against current prices",
    write=True,
    example=fixed_example(),
)
def check_price_alerts(ctx: Ctx, owner_email: Email | None = None) -> AlertCheck:
    """Check active alerts against today's prices; those whose target was crossed become triggered.

    Args:
        owner_email: Only this employee's alerts (default: everyone's).
    """
    seed, today = ctx.population.seed, ctx.today()
    alerts = ctx.where(PriceAlert, status="active")
    alerts = [a for a in alerts if owner_email is None or a.owner_email == owner_email]
    fired = []
    for a in alerts:
        price = _in(seed, _usd(seed, a.coin_id, today), a.vs_currency, today)
        if (a.direction == "above" and price >= a.target_price) or (a.direction == "below" and price <= a.target_price):
            fired.append(ctx.update(a, status="triggered", triggered_at=ctx.now(), triggered_price=price))
    return AlertCheck(checked=len(alerts), triggered=fired)


# -- portfolios --------------------------------------------------------------------------------------------


class Portfolio(Timestamped):
    """A tracked portfolio of coin holdings."""

    id: PortfolioId
    name: Title
    """Its name (unique per owner)."""
    owner_email: Email
    """The employee who tracks it."""
    vs_currency: VsCurrency = "usd"
    """The currency it is valued in."""


class Holding(Timestamped):
    """A coin held in a portfolio, moved by buy and sell transactions."""

    id: HoldingId
    portfolio_id: PortfolioId
    """The portfolio."""
    coin_id: CoinId
    """The coin."""
    quantity: float
    """Coins held."""
    cost_basis: float
    """Total paid for the coins held, in the portfolio's currency (average cost)."""
    transactions: int = 0
    """Buy and sell transactions recorded."""


def _guard_portfolio(ctx: Ctx, new: Portfolio, old: Portfolio | None) -> None:
    _staff(ctx, new.owner_email)
    for other in ctx.where(Portfolio, owner_email=new.owner_email, name=new.name):
        if other.id != new.id:
            raise Conflict(f"{new.owner_email} already has a portfolio named {new.name!r}", field="name", hint="rename")
    if old is not None and old.vs_currency != new.vs_currency and ctx.where(Holding, portfolio_id=new.id):
        raise RuleViolation(
            "the currency of a portfolio with holdings cannot change",
            field="vs_currency",
            hint="start another portfolio in that currency",
        )


def _guard_portfolio_delete(ctx: Ctx, new: None, old: Portfolio) -> None:
    for h in ctx.where(Holding, portfolio_id=old.id):
        ctx.delete(h)


portfolios = service.resource(
    Portfolio,
    name="portfolio",
    plural="portfolios",
    prefix="pf",
    create=("name", "owner_email", "vs_currency"),
    filters=("owner_email", "vs_currency"),
    search=("name",),
    update=("name", "vs_currency"),
    guard_create=_guard_portfolio,
    guard_update=_guard_portfolio,
    guard_delete=_guard_portfolio_delete,
    title="crypto portfolio",
)
holdings = service.resource(
    Holding,
    name="holding",
    plural="holdings",
    prefix="ph",
    create=False,
    filters=("portfolio_id", "coin_id"),
    delete=False,
    title="portfolio holding",
)


def _example_txn(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Portfolio)
    return None if p is None else {"portfolio_id": p.id, "coin_id": "bitcoin", "side": "buy", "quantity": 0.05}


@service.tool(intent="record a buy or sell in the portfolio", write=True, example=_example_txn)
def record_transaction(
    ctx: Ctx,
    portfolio_id: PortfolioId,
    coin_id: CoinId,
    side: Literal["buy", "sell"],
    quantity: Qty,
    price: Price | None = None,
) -> Holding:
    """Record a buy or sell of a coin in a portfolio; a sell cannot exceed what is held and keeps the average cost.

    Args:
        portfolio_id: The portfolio.
        coin_id: The CoinGecko coin id.
        side: buy or sell.
        quantity: Coins bought or sold.
        price: Price per coin in the portfolio's currency (default: today's price).
    """
    p = ctx.get(Portfolio, portfolio_id, field="portfolio_id")
    c, seed, today = _coin(coin_id), ctx.population.seed, ctx.today()
    unit = price if price is not None else _in(seed, _usd(seed, c.id, today), p.vs_currency, today)
    h = ctx.first(Holding, portfolio_id=p.id, coin_id=c.id)
    if side == "buy":
        if h is None:
            return ctx.create(
                Holding, portfolio_id=p.id, coin_id=c.id, quantity=quantity, cost_basis=quantity * unit, transactions=1
            )
        return ctx.update(
            h,
            quantity=h.quantity + quantity,
            cost_basis=h.cost_basis + quantity * unit,
            transactions=h.transactions + 1,
        )
    held = 0.0 if h is None else h.quantity
    if h is None or quantity > held + 1e-12:
        raise RuleViolation(
            f"the portfolio holds {held} {c.symbol}; cannot sell {quantity}",
            field="quantity",
            hint=f"sell at most {held}",
        )
    left = h.quantity - quantity
    cost = 0.0 if left <= 1e-12 else h.cost_basis * left / h.quantity
    return ctx.update(h, quantity=max(0.0, left), cost_basis=cost, transactions=h.transactions + 1)


class Position(BaseModel):
    """A holding valued at today's price."""

    coin_id: CoinId = Field(description="The coin.")
    quantity: float = Field(description="Coins held.")
    price: float = Field(description="Today's price.")
    value: float = Field(description="quantity times price.")
    cost_basis: float = Field(description="Paid for the coins held.")
    profit_loss: float = Field(description="value minus cost_basis.")


class PortfolioValue(BaseModel):
    """A portfolio valued at today's prices."""

    portfolio_id: PortfolioId = Field(description="The portfolio.")
    vs_currency: VsCurrency = Field(description="The currency of the figures.")
    total_value: float = Field(description="Sum of the positions' values.")
    total_cost: float = Field(description="Sum of their cost bases.")
    profit_loss: float = Field(description="total_value minus total_cost.")
    positions: list[Position] = Field(description="Positions, largest value first.")


@service.tool(intent="value the portfolio at today's prices", example=first_example(Portfolio, "portfolio_id"))
def get_portfolio_value(ctx: Ctx, portfolio_id: PortfolioId) -> PortfolioValue:
    """Value every holding of a portfolio at today's prices, with profit or loss against its cost.

    Args:
        portfolio_id: The portfolio.
    """
    p = ctx.get(Portfolio, portfolio_id, field="portfolio_id")
    seed, today = ctx.population.seed, ctx.today()
    out = []
    for h in ctx.where(Holding, portfolio_id=p.id):
        price = _in(seed, _usd(seed, h.coin_id, today), p.vs_currency, today)
        value = round(h.quantity * price, 2)
        out.append(
            Position(
                coin_id=h.coin_id,
                quantity=h.quantity,
                price=price,
                value=value,
                cost_basis=round(h.cost_basis, 2),
                profit_loss=round(value - h.cost_basis, 2),
            )
        )
    out.sort(key=lambda x: (-x.value, x.coin_id))
    total, cost = round(sum(x.value for x in out), 2), round(sum(x.cost_basis for x in out), 2)
    return PortfolioValue(
        portfolio_id=p.id,
        vs_currency=p.vs_currency,
        total_value=total,
        total_cost=cost,
        profit_loss=round(total - cost, 2),
        positions=out,
    )


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Finance staff's price alerts in every state and a treasury portfolio bought over the last months."""
    seed_, today = s.population.seed, s.now.date()
    owners = s.population.staff("Finance", "Engineering", fallback=2)
    plans = (
        ("bitcoin", "below", 0.85, "active", "Review the treasury allocation."),
        ("ethereum", "above", 1.15, "active", "Consider taking profit."),
        ("solana", "below", 0.8, "paused", ""),
        ("cardano", "crossed", 1.0, "active", "Tell the CFO."),
        ("ethereum", "below", 0.97, "triggered", "Buy the dip for the treasury."),
    )
    for k, (coin, direction, factor, status, note) in enumerate(plans):
        fired = status == "triggered"  # set 40 days ago at 3 % under that day's price, fired two days later
        target = round(_usd(seed_, coin, today - dt.timedelta(days=40 if fired else 0)) * factor, 2)
        if direction == "crossed":  # set 12 days ago halfway to today's price: crossed since, not checked yet
            then, now = _usd(seed_, coin, today - dt.timedelta(days=12)), _usd(seed_, coin, today)
            direction, target = ("above" if now > then else "below"), round((then + now) / 2, 4)
        s.create(
            PriceAlert,
            owner_email=owners[k % len(owners)].email,
            coin_id=coin,
            vs_currency="usd",
            direction=direction,
            target_price=target,
            status=status,
            note=note,
            triggered_at=s.ago(days=38) if fired else None,
            triggered_price=round(target * 0.99, 2) if fired else None,
            created_at=s.ago(days=45 if fired else 20 + k),
            updated_at=s.ago(days=38 if fired else 5 + k),
        )
    book = s.create(
        Portfolio,
        name="Treasury reserve",
        owner_email=owners[0].email,
        created_at=s.ago(days=120),
        updated_at=s.ago(days=10),
    )
    for k, (coin, qty) in enumerate((("bitcoin", 1.5), ("ethereum", 12.0), ("usd-coin", 250000.0))):
        day = today - dt.timedelta(days=110 - 30 * k)
        s.create(
            Holding,
            portfolio_id=book.id,
            coin_id=coin,
            quantity=qty,
            cost_basis=round(qty * _usd(seed_, coin, day), 2),
            transactions=1 + k % 2,
            created_at=s.ago(days=110 - 30 * k),
            updated_at=s.ago(days=10),
        )
    s.create(Portfolio, name="Research watch", owner_email=owners[1 % len(owners)].email, vs_currency="eur")
