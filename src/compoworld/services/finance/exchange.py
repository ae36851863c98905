"""Coinvault Exchange: the treasury desk's crypto exchange profiles, balances, orders, fills and transfers.

Modeled on the Coinbase Exchange REST API: profiles, accounts per currency with
balance, hold and available, products (BTC-USD, ETH-USD...) with minimum sizes,
increments and trading status (online, limit_only, cancel_only, delisted),
orders (limit and market; time in force GTC, IOC, FOK; post_only; status
open → done with done_reason filled or canceled, or rejected), fills with maker
and taker fees, holds that reserve funds for open orders and pending
withdrawals, deposits from the linked bank, crypto withdrawals to allow-listed
address book entries,.

Rules as the exchange enforces them: an order needs the available funds (a buy
reserves price × size plus the taker fee), respects the product's minimum
size and increments, and may not cross the book when post_only (it is
rejected); a marketable order fills at the last price up to the book depth,
the rest of a limit order rests as open (IOC cancels it, FOK fills all or
nothing). A withdrawal goes only to an active address-book entry of that
currency (new entries are held 48 hours), holds its amount, and needs a second
employee's confirmation before it is sent (two-person rule).
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
from compoworld.engine.types import DateTime, Email, IdOf, Title
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "exchange",
    title="Coinvault Exchange",
    category="crypto_exchange",
    modeled_on="Coinbase Exchange REST API (profiles, accounts, holds, products, orders, fills, deposits, "
    "withdrawals, address book)",
    description="The company's crypto exchange for its treasury desk: trading profiles and their balances per "
    "currency, the markets, buy and sell orders and their fills and fees, funds held for orders and "
    "withdrawals, bank deposits, withdrawals to allow-listed addresses with a second approver.",
)

ProfileId = Annotated[str, IdOf("exchange.profile")]
AccountId = Annotated[str, IdOf("exchange.account")]
ProductId = Annotated[str, IdOf("exchange.product")]
OrderId = Annotated[str, IdOf("exchange.order")]
FillId = Annotated[str, IdOf("exchange.fill")]
HoldId = Annotated[str, IdOf("exchange.hold")]
AddressId = Annotated[str, IdOf("exchange.address")]
TransferId = Annotated[str, IdOf("exchange.transfer")]

Coin = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3,5}$")]
"""A currency code (USD, BTC, ETH, SOL, USDC)."""
Amount = Annotated[float, Field(ge=0, le=1e12)]
"""An amount of a currency."""
Size = Annotated[float, Field(gt=0, le=1e9)]
"""A positive amount."""
CryptoAddress = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9]{26,64}$")]
"""A blockchain address."""

ProductStatus = Literal["online", "limit_only", "cancel_only", "delisted"]
Side = Literal["buy", "sell"]
OrderType = Literal["limit", "market"]
TimeInForce = Literal["GTC", "IOC", "FOK"]
OrderStatus = Literal["open", "done", "rejected"]
DoneReason = Literal["filled", "canceled"]
TransferType = Literal["deposit", "withdraw"]
TransferStatus = Literal["pending_confirmation", "processing", "completed", "canceled"]

MAKER_FEE = 0.004
TAKER_FEE = 0.006
ADDRESS_HOLD = dt.timedelta(hours=48)
FIAT = ("USD", "USDC")


def _q(value: float, currency: str) -> float:
    """An amount rounded to its currency's precision (2 places for fiat, 8 for crypto)."""
    return round(value, 2 if currency in FIAT else 8)


class Profile(Record):
    """A trading profile: a separate book of accounts (a desk or a strategy)."""

    id: ProfileId
    name: Title
    """The profile's name (unique)."""
    owner_email: Email
    """The employee responsible for it."""
    is_default: bool = False
    """The default profile."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Account(Record):
    """A profile's balance in one currency."""

    id: AccountId
    profile_id: ProfileId
    """The profile."""
    currency: Coin
    """The currency."""
    balance: Amount = 0.0
    """Total funds."""
    hold: Amount = 0.0
    """Funds held for open orders and pending withdrawals."""
    available: Amount = 0.0
    """Balance minus hold."""


class Product(Record):
    """A market: a base currency traded against a quote currency."""

    id: ProductId
    symbol: Annotated[str, StringConstraints(pattern=r"^[A-Z]{3,5}-[A-Z]{3,5}$")]
    """E.g. BTC-USD (unique)."""
    base_currency: Coin
    """What is bought and sold."""
    quote_currency: Coin
    """What it is priced in."""
    base_min_size: Size
    """Smallest order size."""
    base_increment: Size
    """Size step."""
    quote_increment: Size
    """Price step."""
    last_price: Size
    """The last trade price."""
    book_depth: Size
    """Base size resting at the best price (what one taker order can fill)."""
    status: ProductStatus = "online"
    """online, limit_only, cancel_only or delisted."""


class Order(Record):
    """A buy or sell order on a product."""

    id: OrderId
    profile_id: ProfileId
    """The profile."""
    product_id: ProductId
    """The market."""
    symbol: str
    """The market's symbol."""
    client_oid: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,48}$")]
    """The caller's id (unique per profile)."""
    side: Side
    """buy or sell."""
    type: OrderType
    """limit or market."""
    size: Size
    """Base size ordered."""
    price: Size | None = None
    """Limit price (limit orders)."""
    time_in_force: TimeInForce = "GTC"
    """GTC, IOC or FOK."""
    post_only: bool = False
    """Only add liquidity: rejected if it would fill at once."""
    status: OrderStatus = "open"
    """open, done or rejected."""
    done_reason: DoneReason | None = None
    """filled or canceled (done orders)."""
    reject_reason: str | None = None
    """Why it was rejected."""
    filled_size: Amount = 0.0
    """Base size filled."""
    executed_value: Amount = 0.0
    """Quote value filled."""
    fill_fees: Amount = 0.0
    """Fees paid, in the quote currency."""
    created_at: Annotated[DateTime, CREATED]
    """When it was placed."""
    done_at: DateTime | None = None
    """When it was done."""


class Fill(Record):
    """One execution of an order."""

    id: FillId
    order_id: OrderId
    """The order."""
    profile_id: ProfileId
    """The profile."""
    symbol: str
    """The market's symbol."""
    side: Side
    """buy or sell."""
    price: Size
    """Execution price."""
    size: Size
    """Base size."""
    fee: Amount
    """Fee in the quote currency."""
    liquidity: Literal["M", "T"]
    """M (maker) or T (taker)."""
    created_at: Annotated[DateTime, CREATED]
    """When it executed."""


class Hold(Record):
    """Funds reserved on an account for an open order or a pending withdrawal."""

    id: HoldId
    account_id: AccountId
    """The account."""
    amount: Amount
    """Amount held."""
    type: Literal["order", "transfer"]
    """order or transfer."""
    ref: str
    """The order or transfer id."""
    active: bool = True
    """False once released."""
    created_at: Annotated[DateTime, CREATED]
    """When it was placed."""


class Address(Record):
    """An allow-listed withdrawal address of the address book."""

    id: AddressId
    profile_id: ProfileId
    """The profile it may receive from."""
    currency: Coin
    """The currency it receives."""
    address: CryptoAddress
    """The blockchain address."""
    label: Title
    """Who it belongs to (e.g. the custodian)."""
    added_by: Email
    """The employee who added it."""
    active_at: DateTime
    """When withdrawals to it are allowed (48 hours after it was added)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Transfer(Record):
    """A deposit from the bank or a withdrawal to an address."""

    id: TransferId
    profile_id: ProfileId
    """The profile."""
    type: TransferType
    """deposit or withdraw."""
    currency: Coin
    """The currency."""
    amount: Size
    """The amount."""
    address_id: AddressId | None = None
    """The destination (crypto withdrawals)."""
    requested_by: Email | None = None
    """The employee who requested a withdrawal."""
    confirmed_by: Email | None = None
    """The second employee who confirmed it."""
    status: TransferStatus = "processing"
    """pending_confirmation, processing, completed or canceled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        why = f"{email} is not a member of the exchange organization"
        raise RuleViolation(why, field=field, hint="use an employee's e-mail")


def _account(ctx: Ctx, profile_id: str, currency: str, *, field: str = "currency") -> Account:
    acct = ctx.first(Account, profile_id=profile_id, currency=currency)
    if acct is None:
        why = f"profile {profile_id} has no {currency} account"
        raise RuleViolation(why, field=field, hint="list its accounts with exchange__list_accounts")
    return acct


def _move(ctx: Ctx, acct: Account, *, balance: float = 0.0, hold: float = 0.0) -> Account:
    """Change an account's balance and hold, keeping available = balance - hold."""
    new_balance = _q(acct.balance + balance, acct.currency)
    new_hold = _q(max(0.0, acct.hold + hold), acct.currency)
    return ctx.update(acct, balance=new_balance, hold=new_hold, available=_q(new_balance - new_hold, acct.currency))


def _need(acct: Account, amount: float, field: str) -> None:
    if amount > acct.available + 1e-9:
        why = f"insufficient funds: {amount} {acct.currency} needed, {acct.available} available"
        raise RuleViolation(why, field=field, hint="lower the amount, or deposit or transfer funds first")


def _place_hold(ctx: Ctx, acct: Account, amount: float, kind: str, ref: str) -> None:
    ctx.create(Hold, account_id=acct.id, amount=_q(amount, acct.currency), type=kind, ref=ref)
    _move(ctx, acct, hold=amount)


def _release(ctx: Ctx, ref: str) -> None:
    for h in ctx.where(Hold, ref=ref, active=True):
        acct = ctx.get(Account, h.account_id)
        _move(ctx, acct, hold=-h.amount)
        ctx.update(h, active=False)


def _steps(value: float, step: float) -> bool:
    n = value / step
    return abs(n - round(n)) < 1e-6


def _execute(ctx: Ctx, order: Order, product: Product, size: float) -> Order:
    """Fill ``size`` at the last price as taker, moving funds between the profile's accounts."""
    price = product.last_price
    value = _q(size * price, product.quote_currency)
    fee = _q(value * TAKER_FEE, product.quote_currency)
    base = _account(ctx, order.profile_id, product.base_currency)
    quote = _account(ctx, order.profile_id, product.quote_currency)
    if order.side == "buy":
        _move(ctx, quote, balance=-(value + fee))
        _move(ctx, base, balance=size)
    else:
        _move(ctx, base, balance=-size)
        _move(ctx, quote, balance=value - fee)
    ctx.create(
        Fill,
        order_id=order.id,
        profile_id=order.profile_id,
        symbol=order.symbol,
        side=order.side,
        price=price,
        size=size,
        fee=fee,
        liquidity="T",
    )
    return ctx.update(
        order,
        filled_size=_q(order.filled_size + size, product.base_currency),
        executed_value=_q(order.executed_value + value, product.quote_currency),
        fill_fees=_q(order.fill_fees + fee, product.quote_currency),
    )


def _finish(ctx: Ctx, order: Order, reason: DoneReason) -> Order:
    _release(ctx, order.id)
    return ctx.update(order, status="done", done_reason=reason, done_at=ctx.now())


# -- resources --------------------------------------------------------------------------------

profiles = service.resource(
    Profile,
    name="profile",
    plural="profiles",
    prefix="prof",
    create=False,
    filters=("owner_email", "is_default"),
    search=("name",),
    delete=False,
)
accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acct",
    create=False,
    filters=("profile_id", "currency"),
    delete=False,
)
products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prod",
    create=False,
    filters=("symbol", "base_currency", "quote_currency", "status"),
    delete=False,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("profile_id", "product_id", "symbol", "side", "status", "client_oid"),
    delete=False,
)
fills = service.resource(
    Fill,
    name="fill",
    plural="fills",
    prefix="fill",
    create=False,
    get=False,
    filters=("order_id", "profile_id", "symbol", "side"),
    delete=False,
)
holds = service.resource(
    Hold,
    name="hold",
    plural="holds",
    prefix="hold",
    create=False,
    get=False,
    filters=("account_id", "type", "ref", "active"),
    delete=False,
)


def _guard_address_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for t in ctx.where(Transfer, address_id=old.id):
        if t.status in ("pending_confirmation", "processing"):
            why = f"transfer {t.id} to this address is {t.status}"
            raise Conflict(why, field="address_id", hint="wait for it to complete or cancel it first")


addresses = service.resource(
    Address,
    name="address",
    plural="addresses",
    prefix="addr",
    create=False,
    filters=("profile_id", "currency", "address"),
    search=("label",),
    guard_delete=_guard_address_delete,
    title="address book entry",
)
transfers = service.resource(
    Transfer,
    name="transfer",
    plural="transfers",
    prefix="xfer",
    create=False,
    filters=("profile_id", "type", "currency", "status", "address_id"),
    delete=False,
)


# -- orders -----------------------------------------------------------------------------------


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    prof = ctx.first(Profile, is_default=True)
    prod = ctx.first(Product, symbol="ETH-USD")
    if prof is None or prod is None:
        return None
    return {
        "profile_id": prof.id,
        "product_id": prod.id,
        "side": "buy",
        "type": "limit",
        "size": 0.5,
        "price": round(prod.last_price * 0.95, 2),
        "client_oid": f"ex{ctx.rng.randint(1000, 9999)}",
    }


@service.tool(intent="place the order", write=True, example=_example_order)
def place_order(
    ctx: Ctx,
    profile_id: ProfileId,
    product_id: ProductId,
    side: Side,
    size: Size,
    type: OrderType = "limit",
    price: Size | None = None,
    time_in_force: TimeInForce = "GTC",
    post_only: bool = False,
    client_oid: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,48}$")] | None = None,
) -> Order:
    """Place a limit or market order; funds are held, and a marketable order fills at once up to the book depth.

    Args:
        profile_id: The profile trading.
        product_id: The market.
        side: buy or sell.
        size: Base size (a multiple of the product's base_increment, at least base_min_size).
        type: limit or market.
        price: Limit price (limit orders; a multiple of quote_increment).
        time_in_force: GTC (rest until canceled), IOC (cancel what does not fill now) or FOK (all now or nothing).
        post_only: Only add liquidity: an order that would fill at once is rejected (GTC limit orders only).
        client_oid: Your own id for the order, unique per profile.
    """
    prof = ctx.get(Profile, profile_id, field="profile_id")
    product = ctx.get(Product, product_id, field="product_id")
    if product.status in ("cancel_only", "delisted") or (product.status == "limit_only" and type == "market"):
        raise RuleViolation(
            f"{product.symbol} is {product.status}",
            field="product_id" if type == "limit" else "type",
            hint="check the product's status with exchange__get_product",
        )
    if type == "limit" and price is None:
        raise RuleViolation("a limit order needs a price", field="price", hint="give a price")
    if type == "market" and (price is not None or post_only):
        why = "a market order takes no price and cannot be post_only"
        raise RuleViolation(why, field="price", hint="use a limit order")
    if post_only and time_in_force != "GTC":
        raise RuleViolation("post_only needs GTC", field="post_only", hint="use time_in_force=GTC")
    if size < product.base_min_size or not _steps(size, product.base_increment):
        why = f"size must be at least {product.base_min_size} in steps of {product.base_increment}"
        raise RuleViolation(why, field="size", hint="round the size to the product's base_increment")
    if price is not None and not _steps(price, product.quote_increment):
        why = f"price must be in steps of {product.quote_increment}"
        raise RuleViolation(why, field="price", hint="round the price to the product's quote_increment")
    oid = client_oid or f"c{ctx.next_number(Order, 'client_oid'):07d}"
    if ctx.first(Order, profile_id=prof.id, client_oid=oid) is not None:
        raise Conflict(f"client_oid {oid} is already used", field="client_oid", hint="use a new client_oid")
    ref_price = price if price is not None else product.last_price
    if side == "buy":
        funding = _account(ctx, prof.id, product.quote_currency, field="product_id")
        need = _q(size * ref_price * (1 + TAKER_FEE), funding.currency)
    else:
        funding = _account(ctx, prof.id, product.base_currency, field="product_id")
        need = size
    _need(funding, need, "size")
    crosses = price is None or (price >= product.last_price if side == "buy" else price <= product.last_price)
    order = ctx.create(
        Order,
        profile_id=prof.id,
        product_id=product.id,
        symbol=product.symbol,
        client_oid=oid,
        side=side,
        type=type,
        size=size,
        price=price,
        time_in_force=time_in_force,
        post_only=post_only,
    )
    if post_only and crosses:
        return ctx.update(order, status="rejected", reject_reason="post only", done_at=ctx.now())
    fillable = min(size, product.book_depth) if crosses else 0.0
    if time_in_force == "FOK" and fillable < size:
        return ctx.update(order, status="done", done_reason="canceled", done_at=ctx.now())
    if fillable:
        order = _execute(ctx, order, product, fillable)
    rest = _q(size - order.filled_size, product.base_currency)
    if rest <= 0:
        return ctx.update(order, status="done", done_reason="filled", done_at=ctx.now())
    if type == "market" or time_in_force == "IOC":
        return ctx.update(order, status="done", done_reason="canceled", done_at=ctx.now())
    amount = _q(rest * ref_price * (1 + TAKER_FEE), funding.currency) if side == "buy" else rest
    _place_hold(ctx, ctx.get(Account, funding.id), amount, "order", order.id)
    return order


@service.tool(intent="cancel the order", write=True, example=first_example(Order, "order_id", where={"status": "open"}))
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel an open order: its hold is released; what already filled stays filled.

    Args:
        order_id: The order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "open":
        raise Conflict(f"order {order.id} is {order.status}", field="order_id", hint="only open orders can be canceled")
    return _finish(ctx, order, "canceled")


# -- funds ------------------------------------------------------------------------------------


@service.tool(
    intent="deposit money from the bank", write=True, example=first_example(Profile, "profile_id", amount=25000.0)
)
def deposit_from_bank(ctx: Ctx, profile_id: ProfileId, amount: Size) -> Transfer:
    """Deposit USD from the linked bank account (ACH); it is credited at once.

    Args:
        profile_id: The profile credited.
        amount: USD.
    """
    prof = ctx.get(Profile, profile_id, field="profile_id")
    if amount < 10:
        raise RuleViolation("the minimum deposit is 10 USD", field="amount", hint="deposit at least 10 USD")
    _move(ctx, _account(ctx, prof.id, "USD", field="profile_id"), balance=amount)
    return ctx.create(
        Transfer, profile_id=prof.id, type="deposit", currency="USD", amount=_q(amount, "USD"), status="completed"
    )


def _example_address(ctx: Ctx) -> dict[str, Any] | None:
    prof = ctx.first(Profile, is_default=True)
    return (
        None
        if prof is None
        else {
            "profile_id": prof.id,
            "currency": "ETH",
            "address": "8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063",
            "label": "Anchorage cold wallet",
            "added_by": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="add the address to the address book", write=True, example=_example_address)
def add_address(
    ctx: Ctx, profile_id: ProfileId, currency: Coin, address: CryptoAddress, label: Title, added_by: Email
) -> Address:
    """Allow-list a withdrawal address; withdrawals to it are allowed 48 hours later.

    Args:
        profile_id: The profile that may withdraw to it.
        currency: The crypto currency it receives.
        address: The blockchain address.
        label: Whose wallet it is.
        added_by: The employee adding it.
    """
    ctx.get(Profile, profile_id, field="profile_id")
    if currency in FIAT:
        why = f"{currency} is withdrawn to the bank, not to an address"
        raise RuleViolation(why, field="currency", hint="use a crypto currency")
    _account(ctx, profile_id, currency)
    _staff(ctx, added_by, "added_by")
    if ctx.first(Address, profile_id=profile_id, address=address) is not None:
        raise Conflict("the address is already in the address book", field="address", hint="use the existing entry")
    return ctx.create(
        Address,
        profile_id=profile_id,
        currency=currency,
        address=address,
        label=label,
        added_by=added_by,
        active_at=ctx.now() + ADDRESS_HOLD,
    )


def _example_withdraw(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.scan(Address):
        acct = ctx.first(Account, profile_id=a.profile_id, currency=a.currency)
        if a.active_at <= ctx.now() and acct is not None and acct.available >= 0.1:
            return {"address_id": a.id, "amount": 0.1, "requested_by": ctx.population.employees[0].email}
    return None


@service.tool(intent="withdraw crypto to the address", write=True, example=_example_withdraw)
def withdraw_to_address(ctx: Ctx, address_id: AddressId, amount: Size, requested_by: Email) -> Transfer:
    """Request a crypto withdrawal to an allow-listed address; the amount is held until a second employee confirms.

    Args:
        address_id: The address book entry (active: added at least 48 hours ago).
        amount: Amount of the address's currency.
        requested_by: The employee requesting it.
    """
    addr = ctx.get(Address, address_id, field="address_id")
    if addr.active_at > ctx.now():
        why = f"the address is on its 48-hour hold until {addr.active_at.isoformat()}"
        raise RuleViolation(why, field="address_id", hint="wait until it is active, or use another address")
    _staff(ctx, requested_by, "requested_by")
    acct = _account(ctx, addr.profile_id, addr.currency, field="address_id")
    _need(acct, amount, "amount")
    xfer = ctx.create(
        Transfer,
        profile_id=addr.profile_id,
        type="withdraw",
        currency=addr.currency,
        amount=_q(amount, addr.currency),
        address_id=addr.id,
        requested_by=requested_by,
        status="pending_confirmation",
    )
    _place_hold(ctx, acct, amount, "transfer", xfer.id)
    return xfer


def _pending(ctx: Ctx, transfer_id: str) -> Transfer:
    xfer = ctx.get(Transfer, transfer_id, field="transfer_id")
    if xfer.status != "pending_confirmation":
        raise Conflict(
            f"transfer {xfer.id} is {xfer.status}",
            field="transfer_id",
            hint="only withdrawals pending confirmation can be confirmed or canceled",
        )
    return xfer


def _example_confirm(ctx: Ctx) -> dict[str, Any] | None:
    xfer = ctx.first(Transfer, status="pending_confirmation")
    if xfer is None:
        return None
    other = next(p.email for p in ctx.population.employees if p.email != xfer.requested_by)
    return {"transfer_id": xfer.id, "confirmed_by": other}


@service.tool(intent="confirm the withdrawal", write=True, example=_example_confirm)
def confirm_withdrawal(ctx: Ctx, transfer_id: TransferId, confirmed_by: Email) -> Transfer:
    """Confirm a pending withdrawal as the second employee: the funds leave the account and it is sent.

    Args:
        transfer_id: The withdrawal.
        confirmed_by: An employee other than the requester.
    """
    xfer = _pending(ctx, transfer_id)
    _staff(ctx, confirmed_by, "confirmed_by")
    if confirmed_by == xfer.requested_by:
        why = "the requester cannot confirm their own withdrawal"
        raise RuleViolation(why, field="confirmed_by", hint="ask a second employee to confirm it")
    _release(ctx, xfer.id)
    _move(ctx, _account(ctx, xfer.profile_id, xfer.currency), balance=-xfer.amount)
    return ctx.update(xfer, status="processing", confirmed_by=confirmed_by)


@service.tool(
    intent="cancel the withdrawal",
    write=True,
    example=first_example(Transfer, "transfer_id", where={"status": "pending_confirmation"}),
)
def cancel_withdrawal(ctx: Ctx, transfer_id: TransferId) -> Transfer:
    """Cancel a withdrawal pending confirmation; its hold is released.

    Args:
        transfer_id: The withdrawal.
    """
    xfer = _pending(ctx, transfer_id)
    _release(ctx, xfer.id)
    return ctx.update(xfer, status="canceled")


# -- seed -------------------------------------------------------------------------------------

PRODUCTS: tuple[tuple[str, float, float, float, float, float, ProductStatus], ...] = (
    ("BTC-USD", 0.00001, 0.00000001, 0.01, 67250.0, 2.5, "online"),
    ("ETH-USD", 0.0001, 0.00000001, 0.01, 3480.5, 40.0, "online"),
    ("SOL-USD", 0.01, 0.001, 0.01, 148.2, 900.0, "online"),
    ("ETH-BTC", 0.001, 0.00000001, 0.00001, 0.05176, 30.0, "limit_only"),
    ("DOGE-USD", 1.0, 0.1, 0.00001, 0.16, 500000.0, "cancel_only"),
)
BALANCES = {"USD": 250000.0, "USDC": 50000.0, "BTC": 3.0, "ETH": 40.0, "SOL": 500.0, "DOGE": 0.0}
WALLETS = (
    ("BTC", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", "BTC cold storage (custodian)", 90),
    ("ETH", "71C7656EC7ab88b098defB751B7401B5f6d8976F", "ETH cold storage (custodian)", 90),
    ("SOL", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV", "SOL staking wallet", 0.75),
)
TRANSFERS = (
    ("deposit", "USD", 250000.0, "completed", 400),
    ("withdraw", "BTC", 0.25, "completed", 30),
    ("withdraw", "ETH", 1.5, "pending_confirmation", 0.1),
)


def _seed_hold(
    s: SeedContext,
    accts: dict[tuple[str, str], Account],
    key: tuple[str, str],
    amount: float,
    kind: str,
    ref: str,
    when: dt.datetime,
) -> None:
    """Hold ``amount`` on a seeded account for an open order or a pending withdrawal."""
    a = accts[key]
    s.create(Hold, account_id=a.id, amount=amount, type=kind, ref=ref, created_at=when)
    hold = _q(a.hold + amount, a.currency)
    accts[key] = s.update(a, hold=hold, available=_q(a.balance - hold, a.currency))


DONE = (("BTC-USD", "buy", 0.5, 64100.0), ("ETH-USD", "sell", 5.0, 3390.0), ("SOL-USD", "buy", 100.0, 141.5))
OPEN = (("BTC-USD", "buy", 0.2, 60000.0), ("ETH-USD", "sell", 4.0, 3800.0), ("SOL-USD", "buy", 50.0, 120.0))


@service.seeder
def seed(s: SeedContext) -> None:
    """Three profiles with balances, products in every status, orders with fills and holds, addresses, transfers."""
    staff = s.population.staff("Finance", "Accounting", fallback=3)
    names = ("Treasury", "Market making", "Payments float")
    profs = [
        s.create(
            Profile,
            name=n,
            owner_email=staff[k % len(staff)].email,
            is_default=k == 0,
            created_at=s.ago(days=500 - 100 * k),
        )
        for k, n in enumerate(names)
    ]
    keys = ("base_min_size", "base_increment", "quote_increment", "last_price", "book_depth", "status")
    for sym, *row in PRODUCTS:
        base, quote = sym.split("-")
        s.create(Product, symbol=sym, base_currency=base, quote_currency=quote, **dict(zip(keys, row, strict=True)))
    prods = {p.symbol: p.id for p in s.records(Product)}
    accts: dict[tuple[str, str], Account] = {}
    for k, prof in enumerate(profs):
        for cur, bal in BALANCES.items():
            amt = _q(bal / (k + 1), cur)
            accts[prof.id, cur] = s.create(Account, profile_id=prof.id, currency=cur, balance=amt, available=amt)
    desk, by, second = profs[0], staff[0].email, staff[1 % len(staff)].email
    for n, (sym, side, size, price) in enumerate(DONE):
        value = _q(size * price, "USD")
        fee, when = _q(value * MAKER_FEE, "USD"), s.ago(days=12 - 3 * n)
        common = {"profile_id": desk.id, "symbol": sym, "side": side, "size": size, "created_at": when}
        o = s.create(
            Order,
            product_id=prods[sym],
            client_oid=f"seed-{n}",
            type="limit",
            price=price,
            status="done",
            done_reason="filled",
            filled_size=size,
            executed_value=value,
            fill_fees=fee,
            done_at=when,
            **common,
        )
        s.create(Fill, order_id=o.id, price=price, fee=fee, liquidity="M", **common)
    for n, (sym, side, size, price) in enumerate(OPEN):
        prof, when = profs[n % 2], s.ago(hours=20 - n)
        o = s.create(
            Order,
            profile_id=prof.id,
            product_id=prods[sym],
            symbol=sym,
            client_oid=f"seed-open-{n}",
            side=side,
            type="limit",
            size=size,
            price=price,
            created_at=when,
        )
        cur = "USD" if side == "buy" else sym.split("-")[0]
        _seed_hold(
            s,
            accts,
            (prof.id, cur),
            _q(size * price * (1 + TAKER_FEE), cur) if side == "buy" else size,
            "order",
            o.id,
            when,
        )
    when = s.ago(days=20)
    s.create(
        Order,
        profile_id=desk.id,
        product_id=prods["ETH-USD"],
        symbol="ETH-USD",
        client_oid="seed-cxl",
        side="buy",
        type="limit",
        size=2.0,
        price=3000.0,
        status="done",
        done_reason="canceled",
        created_at=when,
        done_at=when,
    )
    for cur, wallet, label, days in WALLETS:
        s.create(
            Address,
            profile_id=desk.id,
            currency=cur,
            address=wallet,
            label=label,
            added_by=by,
            active_at=s.ago(days=days - 2),
            created_at=s.ago(days=days),
        )
    addr = s.records(Address)
    for n, (kind, cur, amount, status, days) in enumerate(TRANSFERS):
        withdraw = {"address_id": addr[n - 1].id, "requested_by": by} if kind == "withdraw" else {}
        x = s.create(
            Transfer,
            profile_id=desk.id,
            type=kind,
            currency=cur,
            amount=amount,
            status=status,
            confirmed_by=second if status == "completed" and withdraw else None,
            created_at=s.ago(days=days),
            updated_at=s.ago(days=days),
            **withdraw,
        )
    _seed_hold(s, accts, (desk.id, "ETH"), x.amount, "transfer", x.id, x.created_at)
