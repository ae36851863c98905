"""Quantra Brokerage: commission-free stock trading accounts, orders, positions, watchlists and market hours.

Modeled on the Alpaca Trading and Broker APIs: brokerage accounts (status
ACTIVE / ACTION_REQUIRED / DISABLED / ACCOUNT_CLOSED, cash, a margin
multiplier of 1, 2 or 4, the pattern-day-trader flag and day-trade count),
tradable assets, orders (market, limit, stop, stop_limit; time in force day,
gtc, ioc, fok; lifecycle new → partially_filled → filled, or canceled /
rejected), positions with average entry price, watchlists, ACH
transfers, and the market clock and calendar (NYSE hours 9:30-16:00 ET, pre
and after hours 4:00-9:30 and 16:00-20:00).

Rules as Alpaca enforces them: a buy may not exceed buying power (cash times
the multiplier less what open buys reserve); a sell may not exceed the
position's shares not already held for open sells (no shorting); limit and
stop prices are required by their types; extended-hours orders must be day
limit orders; an account under $25,000 equity flagged as a pattern day trader
that already has 3 day trades in the rolling window may not open a fourth;
marketable orders fill at the last price while their session is open (thin
extended-hours books fill at most the asset's pre-market depth, leaving the
order partially filled), the rest wait as new; only new or partially filled
orders can be canceled.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import AccountNumber, Cents, Date, DateTime, Email, IdOf, PersonName, Ticker, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "brokerage",
    title="Quantra Brokerage",
    category="brokerage",
    modeled_on="Alpaca Trading/Broker API v2 (accounts, assets, orders, positions, watchlists, transfers, "
    "clock, calendar, pattern day trader protection)",
    description="Stock brokerage for the company's retail investors: their trading accounts with cash and buying "
    "power, the tradable US stocks, buy and sell orders and their fills, open positions, watchlists, ACH "
    "deposits and withdrawals, and the market clock and trading calendar.",
)

AccountId = Annotated[str, IdOf("brokerage.account")]
AssetId = Annotated[str, IdOf("brokerage.asset")]
OrderId = Annotated[str, IdOf("brokerage.order")]
PositionId = Annotated[str, IdOf("brokerage.position")]
WatchlistId = Annotated[str, IdOf("brokerage.watchlist")]
TransferId = Annotated[str, IdOf("brokerage.transfer")]

Shares = Annotated[int, Field(ge=1, le=1_000_000)]
"""A whole number of shares."""
ClientOrderId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,48}$")]
"""The caller's own id for an order (unique per account)."""

AccountStatus = Literal["ACTIVE", "ACTION_REQUIRED", "DISABLED", "ACCOUNT_CLOSED"]
Side = Literal["buy", "sell"]
OrderType = Literal["market", "limit", "stop", "stop_limit"]
TimeInForce = Literal["day", "gtc", "ioc", "fok"]
OrderStatus = Literal["new", "partially_filled", "filled", "canceled", "rejected"]
Direction = Literal["INCOMING", "OUTGOING"]
TransferStatus = Literal["QUEUED", "COMPLETE", "CANCELED"]
Session = Literal["pre", "regular", "post", "closed"]

PDT_EQUITY = 2_500_000
"""Equity (cents) under which pattern day traders are held to 3 day trades."""
PDT_LIMIT = 3
OPEN: tuple[OrderStatus, ...] = ("new", "partially_filled")
ET = ZoneInfo("America/New_York")


class Account(Record):
    """A customer's brokerage account."""

    id: AccountId
    account_number: Annotated[AccountNumber, Generated("sequence", "PA{n:08d}")]
    """The account number."""
    owner_name: PersonName
    """The account holder."""
    email: Email
    """The holder's e-mail (unique)."""
    status: AccountStatus = "ACTIVE"
    """ACTIVE, ACTION_REQUIRED (KYC pending), DISABLED or ACCOUNT_CLOSED."""
    cash: Cents = 0
    """Settled cash."""
    multiplier: Literal[1, 2, 4] = 1
    """Buying power multiplier: 1 cash account, 2 margin, 4 pattern-day-trader margin."""
    pattern_day_trader: bool = False
    """Flagged as a pattern day trader."""
    daytrade_count: Annotated[int, Field(ge=0)] = 0
    """Day trades in the rolling five business days."""
    suspend_trade: bool = False
    """Trading suspended by the holder's configuration."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""


class Asset(Record):
    """A US stock that may be traded."""

    id: AssetId
    symbol: Ticker
    """The ticker (unique)."""
    name: Title
    """The issuer's name."""
    exchange: Literal["NYSE", "NASDAQ", "ARCA"]
    """Its listing exchange."""
    tradable: bool = True
    """Whether orders are accepted."""
    last_price: Cents
    """The last trade price."""
    premarket_depth: Annotated[int, Field(ge=0)] = 50
    """Shares available per order in pre and after hours."""


class Order(Record):
    """A buy or sell order and its fills."""

    id: OrderId
    account_id: AccountId
    """The account."""
    client_order_id: ClientOrderId
    """The caller's id (unique per account)."""
    symbol: Ticker
    """The stock."""
    side: Side
    """buy or sell."""
    type: OrderType
    """market, limit, stop or stop_limit."""
    time_in_force: TimeInForce = "day"
    """day, gtc, ioc or fok."""
    qty: Shares
    """Shares ordered."""
    filled_qty: Annotated[int, Field(ge=0)] = 0
    """Shares filled so far."""
    limit_price: Cents | None = None
    """The limit (limit and stop_limit)."""
    stop_price: Cents | None = None
    """The trigger (stop and stop_limit)."""
    extended_hours: bool = False
    """May fill in pre and after hours."""
    status: OrderStatus = "new"
    """new, partially_filled, filled, canceled or rejected (by the exchange)."""
    filled_avg_price: Cents | None = None
    """Average fill price."""
    filled_at: DateTime | None = None
    """When it was completely filled."""
    canceled_at: DateTime | None = None
    """When it was canceled."""
    submitted_at: Annotated[DateTime, CREATED]
    """When it was submitted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Position(Record):
    """Shares an account holds in one stock."""

    id: PositionId
    account_id: AccountId
    """The account."""
    symbol: Ticker
    """The stock."""
    qty: Annotated[int, Field(ge=0)]
    """Shares held."""
    avg_entry_price: Cents
    """Average cost per share."""
    last_buy_on: Date | None = None
    """The last day shares were bought (a sale that day is a day trade)."""


class Watchlist(Record):
    """A named list of stocks an account follows."""

    id: WatchlistId
    account_id: AccountId
    """The account."""
    name: Title
    """Its name (unique per account)."""
    symbols: tuple[Ticker, ...] = ()
    """The stocks, in order."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Transfer(Record):
    """An ACH deposit into or withdrawal from an account."""

    id: TransferId
    account_id: AccountId
    """The account."""
    direction: Direction
    """INCOMING (deposit) or OUTGOING (withdrawal)."""
    amount: Annotated[int, Field(ge=100, le=5_000_000_000)]
    """Amount in cents."""
    status: TransferStatus = "QUEUED"
    """QUEUED, COMPLETE or CANCELED."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


class Balances(Value):
    """An account's money: cash, positions' value, equity and buying power."""

    account_id: AccountId
    cash: int
    long_market_value: int
    """Positions at the last price."""
    equity: int
    """Cash plus positions."""
    reserved_for_orders: int
    """Cash held for open buy orders."""
    buying_power: int
    """(cash − reserved) × multiplier."""
    daytrades_left: int | None
    """Day trades left before PDT protection (None: not limited)."""


class Clock(Value):
    """The market clock."""

    timestamp: DateTime
    is_open: bool
    """Whether the regular session is open."""
    session: Session
    """pre, regular, post or closed."""
    next_open: DateTime
    next_close: DateTime


class TradingDay(Value):
    """One trading day of the calendar."""

    date: Date
    open: str
    """Opening time, ET (HH:MM)."""
    close: str
    """Closing time, ET (HH:MM)."""


# -- market calendar --------------------------------------------------------------------------


_CLOSED = (
    "2025-01-01 2025-01-09 2025-01-20 2025-02-17 2025-04-18 2025-05-26 2025-06-19 2025-07-04 2025-09-01 "
    "2025-11-27 2025-12-25 2026-01-01 2026-01-19 2026-02-16 2026-04-03 2026-05-25 2026-06-19 2026-07-03 "
    "2026-09-07 2026-11-26 2026-12-25 2027-01-01 2027-01-18 2027-02-15 2027-03-26 2027-05-31 2027-06-18 "
    "2027-07-05 2027-09-06 2027-11-25 2027-12-24"
)
HOLIDAYS: frozenset[dt.date] = frozenset(dt.date.fromisoformat(d) for d in _CLOSED.split())
"""NYSE full-day closures, as the exchange publishes them."""


def is_trading_day(day: dt.date) -> bool:
    """Whether the exchange opens on ``day``."""
    return day.weekday() < 5 and day not in HOLIDAYS


def _at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=ET).astimezone(dt.UTC)


def session_at(when: dt.datetime) -> Session:
    """The trading session at a moment."""
    local = when.astimezone(ET)
    if not is_trading_day(local.date()):
        return "closed"
    hm = (local.hour, local.minute)
    if (4, 0) <= hm < (9, 30):
        return "pre"
    if (9, 30) <= hm < (16, 0):
        return "regular"
    return "post" if (16, 0) <= hm < (20, 0) else "closed"


# -- rules ------------------------------------------------------------------------------------


def _tradable_account(ctx: Ctx, account_id: str) -> Account:
    acct = ctx.get(Account, account_id, field="account_id")
    if acct.status != "ACTIVE" or acct.suspend_trade:
        why = "trading is suspended" if acct.suspend_trade else f"it is {acct.status}"
        raise RuleViolation(
            f"account {acct.account_number} cannot trade: {why}",
            field="account_id",
            hint="use an ACTIVE account with trading not suspended",
        )
    return acct


def _asset(ctx: Ctx, symbol: str) -> Asset:
    asset = ctx.first(Asset, symbol=symbol)
    if asset is None or not asset.tradable:
        raise RuleViolation(
            f"{symbol} is not a tradable asset",
            field="symbol",
            hint="list assets with brokerage__list_assets (tradable=true)",
        )
    return asset


def _price_of(order: Order, asset: Asset) -> int:
    return order.limit_price if order.limit_price is not None else asset.last_price


def _reserved(ctx: Ctx, account_id: str) -> int:
    total = 0
    for o in ctx.where(Order, account_id=account_id, side="buy"):
        if o.status in OPEN:
            asset = ctx.first(Asset, symbol=o.symbol)
            total += (o.qty - o.filled_qty) * (_price_of(o, asset) if asset else o.limit_price or 0)
    return total


def balances(ctx: Ctx, acct: Account) -> Balances:
    """An account's cash, market value, equity and buying power."""
    value = 0
    for p in ctx.where(Position, account_id=acct.id):
        asset = ctx.first(Asset, symbol=p.symbol)
        value += p.qty * (asset.last_price if asset else p.avg_entry_price)
    reserved = _reserved(ctx, acct.id)
    equity = acct.cash + value
    limited = acct.pattern_day_trader and equity < PDT_EQUITY
    return Balances(
        account_id=acct.id,
        cash=acct.cash,
        long_market_value=value,
        equity=equity,
        reserved_for_orders=reserved,
        buying_power=max(0, acct.cash - reserved) * acct.multiplier,
        daytrades_left=max(0, PDT_LIMIT - acct.daytrade_count) if limited else None,
    )


def _held(ctx: Ctx, account_id: str, symbol: str) -> int:
    pos = ctx.first(Position, account_id=account_id, symbol=symbol)
    pending = sum(
        o.qty - o.filled_qty
        for o in ctx.where(Order, account_id=account_id, symbol=symbol, side="sell")
        if o.status in OPEN
    )
    return (pos.qty if pos else 0) - pending


def _check_prices(order_type: str, limit_price: int | None, stop_price: int | None, extended: bool, tif: str) -> None:
    if order_type in ("limit", "stop_limit") and limit_price is None:
        raise RuleViolation(f"a {order_type} order needs limit_price", field="limit_price", hint="give a limit price")
    if order_type in ("stop", "stop_limit") and stop_price is None:
        raise RuleViolation(f"a {order_type} order needs stop_price", field="stop_price", hint="give a stop price")
    if order_type in ("market", "stop") and limit_price is not None:
        raise RuleViolation(
            f"a {order_type} order takes no limit_price", field="limit_price", hint="omit it or use a limit type"
        )
    if extended and (order_type != "limit" or tif != "day"):
        raise RuleViolation(
            "extended-hours orders must be day limit orders",
            field="extended_hours",
            hint="use type=limit and time_in_force=day, or extended_hours=false",
        )


def _check_funds(ctx: Ctx, acct: Account, side: str, qty: int, price: int, asset: Asset) -> None:
    if side == "buy":
        cost = qty * price
        power = max(0, acct.cash - _reserved(ctx, acct.id)) * acct.multiplier
        if cost > power:
            raise RuleViolation(
                f"insufficient buying power: the order needs {cost} cents, {power} available",
                field="qty",
                hint="order fewer shares, or deposit cash with brokerage__create_transfer",
            )
        return
    held = _held(ctx, acct.id, asset.symbol)
    if qty > held:
        raise RuleViolation(
            f"insufficient qty available: {held} shares of {asset.symbol} free to sell",
            field="qty",
            hint="sell at most the position's free shares (short selling is not enabled)",
        )
    pos = ctx.first(Position, account_id=acct.id, symbol=asset.symbol)
    day_trade = pos is not None and pos.last_buy_on == ctx.today()
    limited = acct.pattern_day_trader and acct.daytrade_count >= PDT_LIMIT
    if day_trade and limited and balances(ctx, acct).equity < PDT_EQUITY:
        raise RuleViolation(
            f"pattern day trading protection: {acct.daytrade_count} day trades already and equity under $25,000",
            field="symbol",
            hint="hold the shares until the next trading day, or bring equity to $25,000",
        )


def _marketable(order: Order, asset: Asset) -> bool:
    if order.type in ("stop", "stop_limit"):
        assert order.stop_price is not None
        triggered = (
            asset.last_price >= order.stop_price if order.side == "buy" else asset.last_price <= order.stop_price
        )
        if not triggered:
            return False
    if order.limit_price is None:
        return True
    return asset.last_price <= order.limit_price if order.side == "buy" else asset.last_price >= order.limit_price


def _fill(ctx: Ctx, order: Order, asset: Asset) -> Order:
    """Fill what the open session allows; ioc/fok orders that cannot fill are canceled."""
    session = session_at(ctx.now())
    can_trade = session == "regular" or (session in ("pre", "post") and order.extended_hours)
    want = order.qty - order.filled_qty
    qty = 0
    if can_trade and _marketable(order, asset):
        qty = want if session == "regular" else min(want, asset.premarket_depth)
    if order.time_in_force == "fok" and qty < want:
        qty = 0
    if qty:
        acct = ctx.get(Account, order.account_id)
        price = asset.last_price
        pos = ctx.first(Position, account_id=acct.id, symbol=order.symbol)
        if order.side == "buy":
            if pos is None:
                ctx.create(
                    Position,
                    account_id=acct.id,
                    symbol=order.symbol,
                    qty=qty,
                    avg_entry_price=price,
                    last_buy_on=ctx.today(),
                )
            else:
                avg = (pos.qty * pos.avg_entry_price + qty * price) // (pos.qty + qty)
                ctx.update(pos, qty=pos.qty + qty, avg_entry_price=avg, last_buy_on=ctx.today())
            ctx.update(acct, cash=acct.cash - qty * price)
        else:
            assert pos is not None
            trades = acct.daytrade_count + (pos.last_buy_on == ctx.today())
            if pos.qty == qty:
                ctx.delete(pos)
            else:
                ctx.update(pos, qty=pos.qty - qty)
            ctx.update(acct, cash=acct.cash + qty * price, daytrade_count=trades)
        done = order.filled_qty + qty
        avg_price = ((order.filled_avg_price or 0) * order.filled_qty + price * qty) // done
        order = ctx.update(
            order,
            filled_qty=done,
            filled_avg_price=avg_price,
            status="filled" if done == order.qty else "partially_filled",
            filled_at=ctx.now() if done == order.qty else None,
        )
    if order.time_in_force in ("ioc", "fok") and order.status in OPEN:
        order = ctx.update(order, status="canceled", canceled_at=ctx.now())
    return order


# -- resources --------------------------------------------------------------------------------


def _guard_account(ctx: Ctx, new: Any, old: Any) -> None:
    if new.multiplier == 4 and not new.pattern_day_trader:
        raise RuleViolation(
            "a 4x multiplier is for pattern day trader accounts",
            field="multiplier",
            hint="use 1 (cash) or 2 (margin)",
        )
    if old is not None and old.status == "ACCOUNT_CLOSED":
        raise Conflict("the account is closed", field="account_id", hint="open a new account")


def _guard_watchlist(ctx: Ctx, new: Any, old: Any) -> None:
    if len(set(new.symbols)) != len(new.symbols):
        raise RuleViolation("a symbol is listed twice", field="symbols", hint="list each symbol once")
    for sym in new.symbols:
        if ctx.first(Asset, symbol=sym) is None:
            raise RuleViolation(f"unknown symbol {sym}", field="symbols", hint="use symbols from list_assets")
    for w in ctx.where(Watchlist, account_id=new.account_id, name=new.name):
        if w.id != new.id:
            raise Conflict(f"watchlist {new.name!r} exists ({w.id})", field="name", hint="pick another name")
    ctx.get(Account, new.account_id, field="account_id")


accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acct",
    create=("owner_name", "email", "multiplier"),
    filters=("status", "email", "pattern_day_trader", "multiplier", "account_number"),
    search=("owner_name", "email"),
    update=("multiplier", "suspend_trade"),
    delete=False,
    unique=("email",),
    guard_create=_guard_account,
    guard_update=_guard_account,
    title="brokerage account",
)
assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="asset",
    create=False,
    filters=("symbol", "exchange", "tradable"),
    search=("symbol", "name"),
    delete=False,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("account_id", "symbol", "side", "status", "type", "client_order_id"),
    delete=False,
)
positions = service.resource(
    Position,
    name="position",
    plural="positions",
    prefix="pos",
    create=False,
    filters=("account_id", "symbol"),
    delete=False,
)
watchlists = service.resource(
    Watchlist,
    name="watchlist",
    plural="watchlists",
    prefix="wl",
    create=("account_id", "name", "symbols"),
    filters=("account_id",),
    search=("name",),
    update=("name", "symbols"),
    guard_create=_guard_watchlist,
    guard_update=_guard_watchlist,
)
transfers = service.resource(
    Transfer,
    name="transfer",
    plural="transfers",
    prefix="xfer",
    create=False,
    filters=("account_id", "direction", "status"),
    delete=False,
    title="ACH transfer",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    acct = ctx.first(Account, status="ACTIVE", suspend_trade=False)
    asset = ctx.first(Asset, symbol="AAPL")
    if acct is None or asset is None:
        return None
    return {
        "account_id": acct.id,
        "symbol": "AAPL",
        "side": "buy",
        "qty": 2,
        "type": "limit",
        "limit_price": asset.last_price + 100,
        "extended_hours": True,
        "client_order_id": f"ex-{ctx.rng.randint(1000, 9999)}",
    }


@service.tool(intent="place the order", write=True, example=_example_order)
def submit_order(
    ctx: Ctx,
    account_id: AccountId,
    symbol: Ticker,
    side: Side,
    qty: Shares,
    type: OrderType = "market",
    time_in_force: TimeInForce = "day",
    limit_price: Cents | None = None,
    stop_price: Cents | None = None,
    extended_hours: bool = False,
    client_order_id: ClientOrderId | None = None,
) -> Order:
    """Submit a buy or sell order; it fills at once if marketable while its session is open.

    Args:
        account_id: The account.
        symbol: The stock's ticker.
        side: buy or sell.
        qty: Shares.
        type: market, limit, stop or stop_limit.
        time_in_force: day, gtc, ioc (fill what you can now, cancel the rest) or fok (all now or nothing).
        limit_price: Limit in cents (limit and stop_limit orders).
        stop_price: Trigger in cents (stop and stop_limit orders).
        extended_hours: Allow fills in pre and after hours (day limit orders only).
        client_order_id: Your own id for the order, unique per account.
    """
    acct = _tradable_account(ctx, account_id)
    asset = _asset(ctx, symbol)
    _check_prices(type, limit_price, stop_price, extended_hours, time_in_force)
    coid = client_order_id or f"co-{ctx.next_number(Order, 'client_order_id'):06d}"
    if ctx.first(Order, account_id=acct.id, client_order_id=coid) is not None:
        raise Conflict(
            f"client_order_id {coid} is already used", field="client_order_id", hint="use a new client_order_id"
        )
    _check_funds(ctx, acct, side, qty, limit_price if limit_price is not None else asset.last_price, asset)
    order = ctx.create(
        Order,
        account_id=acct.id,
        client_order_id=coid,
        symbol=symbol,
        side=side,
        type=type,
        time_in_force=time_in_force,
        qty=qty,
        limit_price=limit_price,
        stop_price=stop_price,
        extended_hours=extended_hours,
    )
    return _fill(ctx, order, asset)


def _open_order(ctx: Ctx, order_id: str) -> Order:
    order = ctx.get(Order, order_id, field="order_id")
    if order.status not in OPEN:
        raise Conflict(
            f"order {order.id} is {order.status}",
            field="order_id",
            hint="only new or partially filled orders can change",
        )
    return order


@service.tool(intent="cancel the order", write=True, example=first_example(Order, "order_id", where={"status": "new"}))
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel an open order; shares already filled stay filled.

    Args:
        order_id: The order.
    """
    order = _open_order(ctx, order_id)
    return ctx.update(order, status="canceled", canceled_at=ctx.now())


@service.tool(
    intent="close the position",
    write=True,
    example=first_example(Position, "position_id", match=lambda ctx, p: _held(ctx, p.account_id, p.symbol) > 0),
)
def close_position(ctx: Ctx, position_id: PositionId, percentage: Annotated[int, Field(ge=1, le=100)] = 100) -> Order:
    """Sell a position's free shares (or a percentage of the position) with a market order.

    Args:
        position_id: The position.
        percentage: Percent of the position to sell (100: all free shares).
    """
    pos = ctx.get(Position, position_id, field="position_id")
    qty = min(_held(ctx, pos.account_id, pos.symbol), pos.qty * percentage // 100)
    if qty < 1:
        raise RuleViolation(
            f"no free shares of {pos.symbol} to sell",
            field="position_id",
            hint="cancel the open sell orders holding them first",
        )
    return submit_order(ctx, pos.account_id, pos.symbol, "sell", qty)


@service.tool(intent="show the account's buying power", example=first_example(Account, "account_id"))
def get_account_balances(ctx: Ctx, account_id: AccountId) -> Balances:
    """An account's cash, positions' value, equity, buying power and day trades left.

    Args:
        account_id: The account.
    """
    return balances(ctx, ctx.get(Account, account_id, field="account_id"))


@service.tool(
    intent="transfer money to or from the account",
    write=True,
    example=first_example(Account, "account_id", where={"status": "ACTIVE"}, direction="INCOMING", amount=50000),
)
def create_transfer(
    ctx: Ctx, account_id: AccountId, direction: Direction, amount: Annotated[int, Field(ge=100, le=5_000_000_000)]
) -> Transfer:
    """Request an ACH deposit (INCOMING) or withdrawal (OUTGOING); withdrawals are held from cash at once.

    Args:
        account_id: The account.
        direction: INCOMING or OUTGOING.
        amount: Cents.
    """
    acct = ctx.get(Account, account_id, field="account_id")
    if acct.status in ("DISABLED", "ACCOUNT_CLOSED"):
        raise RuleViolation(f"the account is {acct.status}", field="account_id", hint="use an open account")
    if direction == "OUTGOING":
        free = acct.cash - _reserved(ctx, acct.id)
        if amount > free:
            raise RuleViolation(
                f"only {free} cents are withdrawable", field="amount", hint="withdraw less or cancel open buy orders"
            )
        ctx.update(acct, cash=acct.cash - amount)
    return ctx.create(Transfer, account_id=acct.id, direction=direction, amount=amount)


@service.tool(
    intent="complete the transfer",
    write=True,
    example=first_example(Transfer, "transfer_id", where={"status": "QUEUED"}),
)
def complete_transfer(ctx: Ctx, transfer_id: TransferId) -> Transfer:
    """Settle a queued transfer: a deposit's cash arrives in the account.

    Args:
        transfer_id: The transfer.
    """
    xfer = ctx.get(Transfer, transfer_id, field="transfer_id")
    if xfer.status != "QUEUED":
        raise Conflict(f"transfer is {xfer.status}", field="transfer_id", hint="only QUEUED transfers settle")
    if xfer.direction == "INCOMING":
        acct = ctx.get(Account, xfer.account_id)
        ctx.update(acct, cash=acct.cash + xfer.amount)
    return ctx.update(xfer, status="COMPLETE")


@service.tool(intent="check whether the market is open", example=fixed_example())
def get_clock(ctx: Ctx) -> Clock:
    """The market clock: the session now and the next regular open and close."""
    now = ctx.now()
    day = now.astimezone(ET).date()
    nxt_open = nxt_close = None
    for k in range(0, 15):
        d = day + dt.timedelta(days=k)
        if not is_trading_day(d):
            continue
        if nxt_open is None and _at(d, 9, 30) > now:
            nxt_open = _at(d, 9, 30)
        if nxt_close is None and _at(d, 16) > now:
            nxt_close = _at(d, 16)
    assert nxt_open is not None and nxt_close is not None
    session = session_at(now)
    return Clock(timestamp=now, is_open=session == "regular", session=session, next_open=nxt_open, next_close=nxt_close)


@service.tool(intent="show the trading calendar", example=fixed_example(start="2026-03-30", end="2026-04-10"))
def get_calendar(ctx: Ctx, start: Date, end: Date) -> list[TradingDay]:
    """The trading days between two dates (inclusive), at most 90 days apart.

    Args:
        start: First day.
        end: Last day.
    """
    if end < start or (end - start).days > 90:
        raise RuleViolation(
            "end must be on or after start and at most 90 days later", field="end", hint="narrow the range"
        )
    days = (start + dt.timedelta(days=k) for k in range((end - start).days + 1))
    return [TradingDay(date=d, open="09:30", close="16:00") for d in days if is_trading_day(d)]


# -- seed -------------------------------------------------------------------------------------

ASSETS: tuple[tuple[str, str, str, int], ...] = (
    ("AAPL", "Apple Inc.", "NASDAQ", 22950),
    ("MSFT", "Microsoft Corporation", "NASDAQ", 41220),
    ("NVDA", "NVIDIA Corporation", "NASDAQ", 13480),
    ("AMZN", "Amazon.com, Inc.", "NASDAQ", 21015),
    ("JPM", "JPMorgan Chase & Co.", "NYSE", 26830),
    ("KO", "The Coca-Cola Company", "NYSE", 7105),
    ("XOM", "Exxon Mobil Corporation", "NYSE", 11290),
    ("SPY", "SPDR S&P 500 ETF Trust", "ARCA", 59875),
    ("TSLA", "Tesla, Inc.", "NASDAQ", 28560),
    ("GME", "GameStop Corp.", "NYSE", 2410),
)


def _order(s: SeedContext, acct: Account, key: str, ago: float, **fields: Any) -> None:
    """A seeded order of ``acct`` submitted ``ago`` days back."""
    base = {"type": "limit", "time_in_force": "day", "status": "new", "side": "buy"}
    when = s.ago(days=ago)
    s.create(
        Order, account_id=acct.id, client_order_id=f"seed-{key}", submitted_at=when, updated_at=when, **(base | fields)
    )


@service.seeder
def seed(s: SeedContext) -> None:
    """Consumer accounts in every status, assets, filled and open orders, positions, watchlists, transfers."""
    for k, (sym, name, exch, price) in enumerate(ASSETS):
        tradable = sym != "GME"
        s.create(
            Asset,
            symbol=sym,
            name=name,
            exchange=exch,
            last_price=price,
            tradable=tradable,
            premarket_depth=20 + 10 * k,
        )
    prices = {a[0]: a[3] for a in ASSETS}
    statuses: tuple[AccountStatus, ...] = ("ACTIVE",) * 7 + ("ACTION_REQUIRED", "DISABLED", "ACCOUNT_CLOSED")
    for k, p in enumerate(s.population.consumers[:10]):
        status = statuses[k]
        cash = 0 if status == "ACCOUNT_CLOSED" else (1_250_000, 480_000, 600_000, 3_500_000)[k % 4]
        acct = s.create(
            Account,
            owner_name=p.name,
            email=p.email,
            status=status,
            cash=cash,
            multiplier=4 if k == 3 else (2 if k % 2 else 1),
            pattern_day_trader=k in (2, 3),
            daytrade_count=3 if k == 2 else int(k == 3),
            created_at=s.ago(days=700 - 40 * k),
        )
        if status != "ACTIVE":
            continue
        s.create(
            Transfer,
            account_id=acct.id,
            direction="INCOMING",
            amount=cash + 500_000,
            status="COMPLETE",
            created_at=s.ago(days=600 - 40 * k),
        )
        picks = [ASSETS[(k + j * 3) % 8][0] for j in range(2 if k % 3 else 3)]
        for j, sym in enumerate(picks):
            qty, price, days = 5 + 3 * j + k, prices[sym] - 150 * (j + 1), 0.1 if k == 2 else 3 + j
            held = qty + (15 if j == 1 and k % 2 == 0 else 0)  # with the partially filled order's shares
            bought = (s.now - dt.timedelta(days=days)).date()
            s.create(Position, account_id=acct.id, symbol=sym, qty=held, avg_entry_price=price, last_buy_on=bought)
            _order(
                s,
                acct,
                f"{k}-{j}",
                days,
                symbol=sym,
                type="market",
                qty=qty,
                filled_qty=qty,
                status="filled",
                filled_avg_price=price,
                filled_at=s.ago(days=days),
            )
        sym, other = picks[0], picks[1]
        _order(s, acct, f"{k}-gtc", 1, symbol=sym, time_in_force="gtc", qty=4, limit_price=prices[sym] - 900)
        if k % 2 == 0:
            _order(
                s,
                acct,
                f"{k}-part",
                0.8,
                symbol=other,
                qty=40,
                filled_qty=15,
                status="partially_filled",
                limit_price=prices[other] - 500,
                filled_avg_price=prices[other] - 520,
            )
        if k % 3 == 1:
            _order(
                s,
                acct,
                f"{k}-stop",
                2,
                symbol=sym,
                side="sell",
                type="stop",
                qty=2,
                time_in_force="gtc",
                stop_price=prices[sym] - 2000,
            )
        _order(
            s, acct, f"{k}-old", 10, symbol="KO", qty=10, limit_price=6900, status="canceled", canceled_at=s.ago(days=9)
        )
        tech = k % 2 == 1
        s.create(
            Watchlist,
            account_id=acct.id,
            name="Tech" if tech else "Dividends",
            symbols=("AAPL", "MSFT", "NVDA") if tech else ("KO", "JPM", "XOM"),
            created_at=s.ago(days=90),
        )
        if k == 1:
            s.create(Transfer, account_id=acct.id, direction="INCOMING", amount=200_000, created_at=s.ago(hours=6))
            _order(s, acct, f"{k}-rej", 5, symbol="TSLA", type="market", qty=900, status="rejected")
