"""Secondhand Ledger: a consignment shop: consignors and their splits, items with markdowns, sales and payouts.

Modeled on ConsignCloud's API (accounts with a default split and balance,
items with a tag price, an intake date, an expiration and a markdown schedule,
sales that credit the consignor's share to their balance, payouts by check,
ACH or store credit, and expired items returned to the consignor or donated
per their preference): the split is the consignor's percentage (10-90); an
item's price follows its schedule (each step takes a percentage off the tag
price after so many days, never below the floor); a sale of an available item
credits the consignor's split of the price; a refund reopens the item and
takes the share back, and is refused when the consignor's balance no longer
covers it; a payout is at most the balance; processing expirations returns or
donates every available item past its expiry date.
"""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, Email, IdOf, PersonName, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "consignment",
    title="Secondhand Ledger",
    category="consignment",
    modeled_on="ConsignCloud API (accounts with splits and balances, items with tag prices, expirations and "
    "markdown schedules, sales, payouts, expired-item returns and donations)",
    description="A consignment boutique's back office: consignors and their split and balance, the items they "
    "bring with tag prices and markdown schedules, sales that credit each consignor, refunds, payouts, and "
    "expired items returned or donated.",
)

ConsignorId = Annotated[str, IdOf("consignment.consignor")]
ItemId = Annotated[str, IdOf("consignment.item")]
SaleId = Annotated[str, IdOf("consignment.sale")]
PayoutId = Annotated[str, IdOf("consignment.payout")]

Split = Annotated[int, Field(ge=10, le=90)]
Category = Literal["clothing", "shoes", "handbags", "jewelry", "furniture", "home_decor"]


class Markdown(Value):
    """One step of a markdown schedule."""

    after_days: Annotated[int, Field(ge=1, le=365)]
    """Days after intake the step applies."""
    pct_off: Annotated[int, Field(ge=1, le=90)]
    """Percent off the tag price."""


STANDARD: tuple[Markdown, ...] = (Markdown(after_days=30, pct_off=20), Markdown(after_days=60, pct_off=40))


class Consignor(Timestamped):
    """A person who consigns items."""

    id: ConsignorId
    account_number: Annotated[str, Generated("sequence", "C{n:05d}")]
    """The account number."""
    name: PersonName
    """Their name."""
    email: Email
    """Their e-mail (unique)."""
    split_pct: Split = 50
    """The consignor's share of each sale, percent."""
    balance_cents: Cents = 0
    """What the shop owes them."""
    expired_items: Literal["return", "donate"] = "return"
    """What happens to their expired items."""


class Item(Timestamped):
    """An item on consignment."""

    id: ItemId
    tag: Annotated[str, Generated("sequence", "CC-{n:05d}")]
    """The item's tag number."""
    consignor_id: ConsignorId
    """Its consignor."""
    title: Title
    """What it is."""
    category: Category
    """clothing, shoes, handbags, jewelry, furniture or home_decor."""
    tag_price_cents: Cents
    """The starting price."""
    floor_price_cents: Cents = 0
    """The lowest price the consignor accepts."""
    price_cents: Cents
    """The current price after markdowns."""
    markdowns: tuple[Markdown, ...] = STANDARD
    """The markdown schedule."""
    received_on: Date
    """Intake date."""
    expires_on: Date
    """When it leaves the floor."""
    status: Literal["available", "sold", "returned", "donated"] = "available"
    """available, sold, returned or donated."""


class Sale(Timestamped):
    """A sale of an item."""

    id: SaleId
    item_id: ItemId
    """The item."""
    consignor_id: ConsignorId
    """Its consignor."""
    price_cents: Cents
    """What it sold for."""
    consignor_share_cents: Cents
    """Credited to the consignor."""
    store_share_cents: Cents
    """Kept by the shop."""
    status: Literal["completed", "refunded"] = "completed"
    """completed or refunded."""


class Payout(Timestamped):
    """Money paid out to a consignor."""

    id: PayoutId
    consignor_id: ConsignorId
    """The consignor."""
    amount_cents: Cents
    """The amount."""
    method: Literal["check", "ach", "store_credit"]
    """check, ach or store_credit."""


# -- rules ------------------------------------------------------------------------------------


def _guard_consignor(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Consignor, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"{new.email} is account {other.account_number}", field="email", hint="use that account")


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "available":
        raise RuleViolation(f"item {old.tag} is {old.status}", field="item_id", hint="only items on the floor change")
    if new.price_cents < new.floor_price_cents:
        raise RuleViolation("the price is under the floor", field="price_cents", hint="price at or above the floor")


consignors = service.resource(
    Consignor,
    name="consignor",
    plural="consignors",
    prefix="csg",
    create=("name", "email", "split_pct", "expired_items"),
    filters=("email", "account_number", "expired_items"),
    search=("name",),
    update=("name", "split_pct", "expired_items"),
    delete=False,
    guard_create=_guard_consignor,
    guard_update=_guard_consignor,
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=False,
    filters=("consignor_id", "category", "status", "tag"),
    search=("title",),
    update=("title", "price_cents"),
    delete=False,
    transitions={
        "return": Transition(
            "status",
            ("available",),
            "returned",
            "return the item to its consignor",
            description="Hand an available item back to its consignor before it expires (they picked it up).",
        )
    },
    guard_update=_guard_item,
)
sales = service.resource(
    Sale,
    name="sale",
    plural="sales",
    prefix="sale",
    create=False,
    filters=("item_id", "consignor_id", "status"),
    delete=False,
)
payouts = service.resource(
    Payout,
    name="payout",
    plural="payouts",
    prefix="pay",
    create=False,
    filters=("consignor_id", "method"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_intake(ctx: Ctx) -> dict[str, Any] | None:
    who = ctx.first(Consignor)
    return (
        None
        if who is None
        else {"consignor_id": who.id, "title": "Wool peacoat", "category": "clothing", "tag_price_cents": 8900}
    )


@service.tool(intent="take in the item", write=True, example=_example_intake)
def intake_item(
    ctx: Ctx,
    consignor_id: ConsignorId,
    title: Title,
    category: Category,
    tag_price_cents: Cents,
    floor_price_cents: Cents = 0,
    days_on_floor: Annotated[int, Field(ge=30, le=365)] = 90,
) -> Item:
    """Take in a consignor's item at a tag price, on the standard markdown schedule, for so many days.

    Args:
        consignor_id: The consignor.
        title: What it is.
        category: clothing, shoes, handbags, jewelry, furniture or home_decor.
        tag_price_cents: The starting price.
        floor_price_cents: The lowest price the consignor accepts (at most the tag price).
        days_on_floor: Days before it expires (30-365).
    """
    ctx.get(Consignor, consignor_id, field="consignor_id")
    if tag_price_cents <= 0:
        raise RuleViolation("an item needs a price", field="tag_price_cents", hint="give the tag price")
    if floor_price_cents > tag_price_cents:
        raise RuleViolation("the floor is above the tag price", field="floor_price_cents", hint="lower the floor")
    today = ctx.today()
    return ctx.create(
        Item,
        consignor_id=consignor_id,
        title=title,
        category=category,
        tag_price_cents=tag_price_cents,
        floor_price_cents=floor_price_cents,
        price_cents=tag_price_cents,
        received_on=today,
        expires_on=today + dt.timedelta(days=days_on_floor),
    )


def _scheduled_price(item: Item, today: dt.date) -> int:
    age = (today - item.received_on).days
    off = max((m.pct_off for m in item.markdowns if age >= m.after_days), default=0)
    return max(item.floor_price_cents, round(item.tag_price_cents * (100 - off) / 100))


@service.tool(intent="apply the markdowns", write=True, example=fixed_example())
def apply_markdowns(ctx: Ctx) -> list[Item]:
    """Reprice every available item to its markdown schedule for today (never under its floor); returns those changed."""
    changed = []
    for item in ctx.where(Item, status="available"):
        price = _scheduled_price(item, ctx.today())
        if price != item.price_cents:
            changed.append(ctx.update(item, price_cents=price))
    return changed


@service.tool(
    intent="sell the item",
    write=True,
    example=first_example(Item, "item_id", where={"status": "available"}),
)
def sell_item(ctx: Ctx, item_id: ItemId, price_cents: Cents | None = None) -> Sale:
    """Sell an available item (at its current price unless given, never under the floor); credit the consignor.

    Args:
        item_id: The item.
        price_cents: The agreed price (default: the current price).
    """
    item = ctx.get(Item, item_id, field="item_id")
    if item.status != "available":
        raise RuleViolation(f"item {item.tag} is {item.status}", field="item_id", hint="sell an available item")
    price = item.price_cents if price_cents is None else price_cents
    if price < item.floor_price_cents or price <= 0:
        raise RuleViolation("the price is under the floor", field="price_cents", hint="ask the consignor first")
    who = ctx.get(Consignor, item.consignor_id)
    share = round(price * who.split_pct / 100)
    ctx.update(who, balance_cents=who.balance_cents + share)
    ctx.update(item, status="sold")
    return ctx.create(
        Sale,
        item_id=item.id,
        consignor_id=who.id,
        price_cents=price,
        consignor_share_cents=share,
        store_share_cents=price - share,
    )


@service.tool(
    intent="refund the sale",
    write=True,
    example=first_example(
        Sale,
        "sale_id",
        where={"status": "completed"},
        match=lambda c, s: c.get(Consignor, s.consignor_id).balance_cents >= s.consignor_share_cents,
    ),
)
def refund_sale(ctx: Ctx, sale_id: SaleId) -> Sale:
    """Refund a sale: the item goes back on the floor and the consignor's share comes off their balance.

    Args:
        sale_id: The sale.
    """
    sale = ctx.get(Sale, sale_id, field="sale_id")
    if sale.status != "completed":
        raise Conflict("the sale is already refunded", field="sale_id", hint="nothing to do")
    who = ctx.get(Consignor, sale.consignor_id)
    if who.balance_cents < sale.consignor_share_cents:
        raise RuleViolation(
            f"{who.name} was already paid out for it", field="sale_id", hint="recover the payout from the consignor"
        )
    ctx.update(who, balance_cents=who.balance_cents - sale.consignor_share_cents)
    ctx.update(ctx.get(Item, sale.item_id), status="available")
    return ctx.update(sale, status="refunded")


def _example_payout(ctx: Ctx) -> dict[str, Any] | None:
    who = next((c for c in ctx.scan(Consignor) if c.balance_cents > 0), None)
    return None if who is None else {"consignor_id": who.id, "amount_cents": who.balance_cents, "method": "ach"}


@service.tool(intent="pay out the consignor", write=True, example=_example_payout)
def pay_consignor(
    ctx: Ctx, consignor_id: ConsignorId, amount_cents: Cents, method: Literal["check", "ach", "store_credit"]
) -> Payout:
    """Pay a consignor up to their balance by check, ACH or store credit.

    Args:
        consignor_id: The consignor.
        amount_cents: The amount (1 to the balance).
        method: check, ach or store_credit.
    """
    who = ctx.get(Consignor, consignor_id, field="consignor_id")
    if amount_cents <= 0 or amount_cents > who.balance_cents:
        raise RuleViolation(
            f"the balance is {who.balance_cents}", field="amount_cents", hint=f"pay 1 to {who.balance_cents} cents"
        )
    ctx.update(who, balance_cents=who.balance_cents - amount_cents)
    return ctx.create(Payout, consignor_id=who.id, amount_cents=amount_cents, method=method)


@service.tool(intent="process expired items", write=True, example=fixed_example())
def process_expired(ctx: Ctx) -> list[Item]:
    """Take every available item past its expiry off the floor: returned or donated per its consignor's choice."""
    done = []
    for item in ctx.where(Item, status="available"):
        if item.expires_on < ctx.today():
            who = ctx.get(Consignor, item.consignor_id)
            done.append(ctx.update(item, status="returned" if who.expired_items == "return" else "donated"))
    return done


@service.tool(
    intent="set the item's markdown schedule",
    write=True,
    example=first_example(
        Item, "item_id", where={"status": "available"}, markdowns=[{"after_days": 21, "pct_off": 25}]
    ),
)
def set_markdowns(ctx: Ctx, item_id: ItemId, markdowns: list[Markdown]) -> Item:
    """Replace an available item's markdown schedule: later steps take more off; the price follows at once.

    Args:
        item_id: The item.
        markdowns: The steps (days after intake, percent off), in order; empty for no markdowns.
    """
    item = ctx.get(Item, item_id, field="item_id")
    if item.status != "available":
        raise RuleViolation(f"item {item.tag} is {item.status}", field="item_id", hint="only items on the floor")
    for before, after in itertools.pairwise(markdowns):
        if after.after_days <= before.after_days or after.pct_off <= before.pct_off:
            raise RuleViolation(
                "each step must come later and take more off", field="markdowns", hint="order the steps"
            )
    item = ctx.update(item, markdowns=tuple(markdowns))
    return ctx.update(item, price_cents=_scheduled_price(item, ctx.today()))


class Statement(Value):
    """A consignor's account statement."""

    consignor_id: ConsignorId
    """The consignor."""
    items_available: int
    """Items on the floor."""
    items_sold: int
    """Items sold (not refunded)."""
    earned_cents: int
    """Their share of completed sales."""
    paid_cents: int
    """Paid out so far."""
    balance_cents: int
    """What the shop owes them."""


@service.tool(intent="show the consignor's statement", example=first_example(Consignor, "consignor_id"))
def consignor_statement(ctx: Ctx, consignor_id: ConsignorId) -> Statement:
    """A consignor's items on the floor and sold, earnings, payouts and balance.

    Args:
        consignor_id: The consignor.
    """
    who = ctx.get(Consignor, consignor_id, field="consignor_id")
    owned = ctx.where(Item, consignor_id=who.id)
    done = ctx.where(Sale, consignor_id=who.id, status="completed")
    return Statement(
        consignor_id=who.id,
        items_available=sum(i.status == "available" for i in owned),
        items_sold=sum(i.status == "sold" for i in owned),
        earned_cents=sum(x.consignor_share_cents for x in done),
        paid_cents=sum(p.amount_cents for p in ctx.where(Payout, consignor_id=who.id)),
        balance_cents=who.balance_cents,
    )


# -- seed -------------------------------------------------------------------------------------

GOODS: tuple[tuple[str, Category, int], ...] = (
    ("Vintage Levi's 501 jeans", "clothing", 6500),
    ("Coach leather tote", "handbags", 14500),
    ("Frye harness boots", "shoes", 9800),
    ("Sterling silver cuff", "jewelry", 7200),
    ("Mid-century walnut side table", "furniture", 32000),
    ("Ceramic table lamp", "home_decor", 5400),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Consignors from the world's consumers, items of every age and status, sales credited, payouts."""
    today = s.now.date()
    for k, person in enumerate(s.population.consumers[:8]):
        who = s.create(
            Consignor,
            name=person.name,
            email=person.email,
            split_pct=(40, 50, 60)[k % 3],
            expired_items="donate" if k % 3 == 2 else "return",
        )
        earned = 0
        for n, (title, cat, price) in enumerate(GOODS[k % 3 :][:3]):
            age = (10, 45, 100)[n]
            received = today - dt.timedelta(days=age)
            sold = (k + n) % 4 == 0
            item = s.create(
                Item,
                consignor_id=who.id,
                title=title,
                category=cat,
                tag_price_cents=price,
                floor_price_cents=price // 3,
                price_cents=price,
                received_on=received,
                expires_on=received + dt.timedelta(days=90),
                status="sold" if sold else "available",
            )
            if sold:
                share = round(price * who.split_pct / 100)
                earned += share
                s.create(
                    Sale,
                    item_id=item.id,
                    consignor_id=who.id,
                    price_cents=price,
                    consignor_share_cents=share,
                    store_share_cents=price - share,
                )
        paid = earned // 2 if k % 2 else 0
        if paid:
            s.create(Payout, consignor_id=who.id, amount_cents=paid, method="check")
        s.update(who, balance_cents=earned - paid)
