"""Paddle Raise: charity auctions for the company's foundation galas, with bidders, bids and checkout.

Modeled on GiveSmart and OneCause: events that go draft → open (bidding) → closed → (checkout) with items
that have a fair market value, a starting bid, a bid increment and an optional buy-now price; bidders
registered per event with a unique bidder number; bids that must beat the high bid by at least the
increment while the event is open and the item is open; buy-now that sells an item at once; closing the
event awards every item to its high bidder; checkout charges a bidder's won items once, and the part above
fair market value is the tax-deductible amount.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "charityauction",
    title="Paddle Raise",
    category="charity_auctions",
    modeled_on="GiveSmart / OneCause: events, auction items (FMV, starting bid, increment, buy-now), bidders "
    "with bidder numbers, bids, closing, checkout",
    description="Charity auctions for fundraising galas: events, donated items with values and bid "
    "increments, registered bidders with numbers, mobile bids and buy-now, closing and bidder checkout.",
)

EventId = Annotated[str, IdOf("charityauction.event")]
ItemId = Annotated[str, IdOf("charityauction.item")]
BidderId = Annotated[str, IdOf("charityauction.bidder")]
BidId = Annotated[str, IdOf("charityauction.bid")]

EventStatus = Literal["draft", "open", "closed"]
ItemStatus = Literal["open", "sold", "unsold", "withdrawn"]
BidderNumber = Annotated[int, Field(ge=1, le=9999)]


class Event(Record):
    """An auction event."""

    id: EventId
    name: Title
    """The gala's name."""
    beneficiary: Title
    """The cause the proceeds go to."""
    status: EventStatus = "draft"
    """draft, open (bidding) or closed."""
    raised: Cents = 0
    """Total collected at checkout, in cents."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Item(Record):
    """A donated auction item."""

    id: ItemId
    event_id: EventId
    """The event."""
    title: Title
    """The item."""
    description: Text = ""
    """Its description."""
    donor_name: Annotated[str, Field(max_length=160)] = ""
    """Who donated it."""
    fair_market_value: Cents
    """Its fair market value in cents."""
    starting_bid: Cents
    """The minimum first bid in cents."""
    increment: Annotated[int, Field(ge=100, le=10**8)] = 500
    """The minimum raise over the high bid, in cents."""
    buy_now_price: Cents | None = None
    """A price that wins it at once."""
    status: ItemStatus = "open"
    """open, sold, unsold or withdrawn."""
    high_bid: Cents = 0
    """The current high bid."""
    high_bidder_id: BidderId | None = None
    """Who holds it."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Bidder(Record):
    """A guest registered to bid."""

    id: BidderId
    event_id: EventId
    """The event."""
    number: BidderNumber
    """The bidder (paddle) number, unique per event."""
    name: PersonName
    """The guest."""
    email: Email
    """Their e-mail."""
    checked_out: bool = False
    """Whether they paid."""
    amount_paid: Cents = 0
    """What they paid at checkout."""
    created_at: Annotated[DateTime, CREATED]
    """When they registered."""


class Bid(Record):
    """A bid on an item."""

    id: BidId
    item_id: ItemId
    """The item."""
    bidder_id: BidderId
    """The bidder."""
    amount: Cents
    """The amount in cents."""
    buy_now: bool = False
    """Whether it was a buy-now."""
    placed_at: Annotated[DateTime, CREATED]
    """When it was placed."""


class Receipt(Value):
    """A bidder's checkout receipt."""

    bidder_id: BidderId
    """The bidder."""
    item_ids: list[ItemId]
    """The items won."""
    total: int
    """Charged, in cents."""
    deductible: int
    """The part above fair market value, in cents."""


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.get(Event, new.event_id, field="event_id").status == "closed":
        raise Conflict("the event is closed", field="event_id", hint="items change only before closing")
    if new.buy_now_price is not None and new.buy_now_price <= new.starting_bid:
        raise RuleViolation("buy_now_price must exceed starting_bid", field="buy_now_price", hint="raise it")


events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=("name", "beneficiary"),
    filters=("status",),
    search=("name", "beneficiary"),
    update=("name", "beneficiary"),
    delete=False,
    transitions={"open_bidding": Transition("status", ("draft",), "open", "open bidding at the event")},
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=(
        "event_id",
        "title",
        "description",
        "donor_name",
        "fair_market_value",
        "starting_bid",
        "increment",
        "buy_now_price",
    ),
    filters=("event_id", "status", "high_bidder_id"),
    search=("title", "description", "donor_name"),
    update=("title", "description", "increment", "buy_now_price"),
    delete=False,
    transitions={"withdraw": Transition("status", ("open",), "withdrawn", "withdraw the item")},
    guard_create=_guard_item,
    guard_update=_guard_item,
)
bidders = service.resource(
    Bidder,
    name="bidder",
    plural="bidders",
    prefix="bdr",
    create=False,
    filters=("event_id", "email", "number", "checked_out"),
    search=("name",),
    update=("name",),
    delete=False,
)
bids = service.resource(
    Bid,
    name="bid",
    plural="bids",
    prefix="bid",
    create=False,
    filters=("item_id", "bidder_id"),
    delete=False,
)


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Event, status="open")
    if e is None:
        return None
    taken = {b.email for b in ctx.where(Bidder, event_id=e.id)}
    p = next((p for p in ctx.population.people if p.email not in taken), None)
    return None if p is None else {"event_id": e.id, "name": p.name, "email": p.email}


@service.tool(intent="register the bidder", write=True, example=_example_register)
def register_bidder(ctx: Ctx, event_id: EventId, name: PersonName, email: Email) -> Bidder:
    """Register a guest to bid at a draft or open event; they get the next bidder number, once per e-mail.

    Args:
        event_id: The event.
        name: The guest.
        email: Their e-mail.
    """
    e = ctx.get(Event, event_id, field="event_id")
    if e.status == "closed":
        raise Conflict("the event is closed", field="event_id", hint="register for an open event")
    existing = ctx.where(Bidder, event_id=e.id)
    if any(b.email == email for b in existing):
        raise Conflict(f"{email} is already registered", field="email", hint="look the bidder up instead")
    number = max((b.number for b in existing), default=100) + 1
    return ctx.create(Bidder, event_id=e.id, number=number, name=name, email=email)


def _bidder_for(ctx: Ctx, item: Item, bidder_id: str) -> Bidder:
    b = ctx.get(Bidder, bidder_id, field="bidder_id")
    if b.event_id != item.event_id:
        raise RuleViolation(
            f"bidder #{b.number} is registered at another event", field="bidder_id", hint="register them"
        )
    if ctx.get(Event, item.event_id).status != "open":
        raise Conflict("bidding is not open", field="item_id", hint="open bidding at the event first")
    if item.status != "open":
        raise Conflict(f"item is {item.status}", field="item_id", hint="pick an open item")
    return b


def _example_bid(ctx: Ctx) -> dict[str, Any] | None:
    for it in ctx.where(Item, status="open"):
        for b in ctx.where(Bidder, event_id=it.event_id):
            if b.id != it.high_bidder_id and ctx.get(Event, it.event_id).status == "open":
                amount = it.high_bid + it.increment if it.high_bid else it.starting_bid
                return {"item_id": it.id, "bidder_id": b.id, "amount": amount}
    return None


@service.tool(intent="place the bid", write=True, example=_example_bid)
def place_bid(ctx: Ctx, item_id: ItemId, bidder_id: BidderId, amount: Cents) -> Bid:
    """Bid on an open item: at least the starting bid, then the high bid plus the increment.

    Args:
        item_id: The item.
        bidder_id: The bidder.
        amount: The bid in cents.
    """
    it = ctx.get(Item, item_id, field="item_id")
    b = _bidder_for(ctx, it, bidder_id)
    if it.high_bidder_id == b.id:
        raise Conflict(f"bidder #{b.number} already holds the high bid", field="bidder_id", hint="wait to be outbid")
    floor = it.high_bid + it.increment if it.high_bid else it.starting_bid
    if amount < floor:
        raise RuleViolation(f"the minimum bid is {floor}", field="amount", hint=f"bid at least {floor}")
    if it.buy_now_price is not None and amount >= it.buy_now_price:
        raise RuleViolation("that meets the buy-now price", field="amount", hint="use charityauction__buy_now")
    bid = ctx.create(Bid, item_id=it.id, bidder_id=b.id, amount=amount)
    ctx.update(it, high_bid=amount, high_bidder_id=b.id)
    return bid


def _example_buy(ctx: Ctx) -> dict[str, Any] | None:
    for it in ctx.where(Item, status="open"):
        if it.buy_now_price is not None and ctx.get(Event, it.event_id).status == "open":
            b = ctx.first(Bidder, event_id=it.event_id)
            if b is not None:
                return {"item_id": it.id, "bidder_id": b.id}
    return None


@service.tool(intent="buy the item now", write=True, example=_example_buy)
def buy_now(ctx: Ctx, item_id: ItemId, bidder_id: BidderId) -> Item:
    """Win an open item at its buy-now price at once.

    Args:
        item_id: The item (it needs a buy-now price).
        bidder_id: The bidder.
    """
    it = ctx.get(Item, item_id, field="item_id")
    b = _bidder_for(ctx, it, bidder_id)
    if it.buy_now_price is None:
        raise RuleViolation("the item has no buy-now price", field="item_id", hint="place a bid instead")
    ctx.create(Bid, item_id=it.id, bidder_id=b.id, amount=it.buy_now_price, buy_now=True)
    return ctx.update(it, status="sold", high_bid=it.buy_now_price, high_bidder_id=b.id)


@service.tool(
    intent="close the auction", write=True, example=first_example(Event, "event_id", where={"status": "open"})
)
def close_auction(ctx: Ctx, event_id: EventId) -> Event:
    """Close bidding: open items with a bid are sold to the high bidder, the rest go unsold.

    Args:
        event_id: The event.
    """
    e = ctx.get(Event, event_id, field="event_id")
    if e.status != "open":
        raise Conflict(f"the event is {e.status}", field="event_id", hint="only open events close")
    for it in ctx.where(Item, event_id=e.id, status="open"):
        ctx.update(it, status="sold" if it.high_bidder_id else "unsold")
    return ctx.update(e, status="closed")


def _won(ctx: Ctx, b: Bidder) -> list[Item]:
    return [it for it in ctx.where(Item, high_bidder_id=b.id) if it.status == "sold"]


def _example_checkout(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.where(Bidder, checked_out=False):
        if _won(ctx, b) and ctx.get(Event, b.event_id).status == "closed":
            return {"bidder_id": b.id}
    return None


@service.tool(intent="check the bidder out", write=True, example=_example_checkout)
def checkout(ctx: Ctx, bidder_id: BidderId) -> Receipt:
    """Charge a bidder for the items they won, once, after the event closed.

    Args:
        bidder_id: The bidder.
    """
    b = ctx.get(Bidder, bidder_id, field="bidder_id")
    e = ctx.get(Event, b.event_id)
    if e.status != "closed":
        raise Conflict("the auction is still running", field="bidder_id", hint="close the auction first")
    if b.checked_out:
        raise Conflict(f"bidder #{b.number} already checked out", field="bidder_id", hint="nothing to pay")
    won = _won(ctx, b)
    if not won:
        raise RuleViolation(f"bidder #{b.number} won nothing", field="bidder_id", hint="nothing to pay")
    total = sum(it.high_bid for it in won)
    ctx.update(b, checked_out=True, amount_paid=total)
    ctx.update(e, raised=e.raised + total)
    return Receipt(
        bidder_id=b.id,
        item_ids=[it.id for it in won],
        total=total,
        deductible=sum(max(0, it.high_bid - it.fair_market_value) for it in won),
    )


ITEMS: tuple[tuple[str, int, int, int, int | None], ...] = (
    ("Weekend in Napa for two", 150000, 80000, 5000, 300000),
    ("Signed jersey", 40000, 20000, 2500, None),
    ("Chef's table dinner for six", 120000, 60000, 5000, 250000),
    ("Week at a lake cabin", 200000, 100000, 10000, None),
    ("Golf foursome", 80000, 40000, 2500, 150000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Last year's closed gala, this year's open one with bids, and a draft spring event."""
    pop = s.population
    guests = list(pop.contacts[:10]) + list(pop.employees[:4])
    for k, (name, status) in enumerate(
        (("Winter Gala", "closed"), ("Spring Gala", "open"), ("Summer Golf Classic", "draft"))
    ):
        e = s.create(
            Event,
            name=f"{pop.home.name} Foundation {name}",
            beneficiary="Children's literacy",
            status=status,
            updated_at=s.ago(days=90 - 40 * k),
        )
        if status == "draft":
            continue
        bdrs = [
            s.create(Bidder, event_id=e.id, number=101 + j, name=p.name, email=p.email, created_at=s.ago(days=20))
            for j, p in enumerate(guests[k * 3 : k * 3 + 8])
        ]
        for j, (title, fmv, start, inc, bn) in enumerate(ITEMS):
            donor = pop.companies[(j + k) % len(pop.companies)].name
            it = s.create(
                Item,
                event_id=e.id,
                title=title,
                donor_name=donor,
                fair_market_value=fmv,
                starting_bid=start,
                increment=inc,
                buy_now_price=bn,
                updated_at=s.ago(days=10),
            )
            amount = 0
            for n in range(j % 3 + (1 if j != 4 else 0)):
                amount = start + n * inc
                who = bdrs[(j + n) % len(bdrs)]
                s.create(Bid, item_id=it.id, bidder_id=who.id, amount=amount, placed_at=s.ago(hours=30 - n))
                it = s.update(it, high_bid=amount, high_bidder_id=who.id)
            if status == "closed":
                s.update(it, status="sold" if amount else "unsold")
        if status == "closed":
            paid = 0
            for b in bdrs[:2]:
                total = sum(i.high_bid for i in s.records(Item) if i.high_bidder_id == b.id and i.status == "sold")
                if total:
                    s.update(b, checked_out=True, amount_paid=total)
                    paid += total
            s.update(e, raised=paid)
