"""GiftList Registry: wedding, baby and birthday registries, guests' gifts, group gifts and thank-you notes.

Modeled on Zola's and Babylist's registry features (registries with an event
type and date and a public URL slug; registry items with a quantity requested
and purchased and a "most wanted" flag; group gifts funded by guests'
contributions; gift purchases with a guest's note; the thank-you tracker; and
the completion discount on what is left after the event). A guest buys at most
what is still needed, contributes to a group gift at most what is still
unfunded, and buys only from an active public registry; an item with
purchases cannot be deleted nor asked for in a quantity below what was
bought; the completion discount is used once, from the event date until six
months after it, on items still needed; thank-you notes are marked sent once
per gift, and a purchase is cancelled only within 30 days and before its
thank-you note.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "giftregistry",
    title="GiftList Registry",
    category="gift_registry",
    modeled_on="Zola and Babylist registry features (registries, registry items, group gifts and contributions, "
    "gift purchases, thank-you tracker, completion discount)",
    description="Gift registries for weddings, baby showers and birthdays: the items a couple or parent asks "
    "for, what guests buy or chip in towards as group gifts, the notes that come with them, the thank-you "
    "cards still to send, and the completion discount on what is left after the event.",
)

RegistryId = Annotated[str, IdOf("giftregistry.registry")]
ItemId = Annotated[str, IdOf("giftregistry.item")]
PurchaseId = Annotated[str, IdOf("giftregistry.purchase")]

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+){0,6}$", max_length=60)]
"""The registry's URL slug, lower-case words joined by hyphens."""
EventType = Literal["wedding", "baby_shower", "birthday", "housewarming"]
Visibility = Literal["public", "private"]
RegistryStatus = Literal["active", "closed"]
PurchaseKind = Literal["gift", "contribution", "completion"]
PositiveQuantity = Annotated[Quantity, Field(ge=1)]

COMPLETION_PERCENT = 20
COMPLETION_WINDOW = dt.timedelta(days=183)
CANCEL_WINDOW = dt.timedelta(days=30)


class Registry(Timestamped):
    """A registry for one event."""

    id: RegistryId
    slug: Slug
    """Its URL slug (unique)."""
    title: Title
    """Its title, e.g. 'Ana & Luis'."""
    owner_name: PersonName
    """Who the registry is for."""
    owner_email: Email
    """Their e-mail."""
    co_owner_name: PersonName | None = None
    """A partner's name."""
    event_type: EventType
    """wedding, baby_shower, birthday or housewarming."""
    event_date: Date
    """The day of the event."""
    visibility: Visibility = "public"
    """public (guests can find and buy) or private."""
    status: RegistryStatus = "active"
    """active or closed."""
    completion_used: bool = False
    """Whether the completion discount was used."""


class Item(Timestamped):
    """Something the registry asks for."""

    id: ItemId
    registry_id: RegistryId
    """The registry."""
    name: Title
    """What it is."""
    price: Cents
    """Price per unit, in cents (a group gift's total goal)."""
    quantity_requested: PositiveQuantity = 1
    """Units asked for (1 for a group gift)."""
    quantity_purchased: Quantity = 0
    """Units bought so far."""
    group_gift: bool = False
    """Funded by contributions instead of bought whole."""
    amount_funded: Cents = 0
    """Contributions so far, in cents (group gifts)."""
    most_wanted: bool = False
    """Flagged as most wanted."""


class Purchase(Record):
    """A gift bought, a contribution made, or an item bought by the owner with the completion discount."""

    id: PurchaseId
    registry_id: RegistryId
    """The registry."""
    item_id: ItemId
    """The item."""
    kind: PurchaseKind
    """gift, contribution or completion."""
    guest_name: PersonName
    """Who gave it."""
    guest_email: Email
    """Their e-mail."""
    quantity: Quantity = 0
    """Units bought (0 for a contribution)."""
    amount: Cents
    """What was paid, in cents."""
    message: Text = ""
    """The guest's note."""
    thank_you_sent: bool = False
    """Whether the owner sent a thank-you note."""
    cancelled: bool = False
    """Whether it was cancelled and refunded."""
    purchased_at: Annotated[DateTime, CREATED]
    """When it was bought."""


class ThankYouList(Value):
    """The guests still owed a thank-you note."""

    registry_id: RegistryId
    """The registry."""
    pending: int
    """Gifts and contributions without a note."""
    sent: int
    """Those with one."""
    guests: list[Email]
    """E-mails of guests still to thank, in order of their first gift."""


# -- rules ------------------------------------------------------------------------------------


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    reg = ctx.get(Registry, new.registry_id, field="registry_id")
    if old is None and reg.status != "active":
        raise RuleViolation(f"registry {reg.slug} is closed", field="registry_id", hint="reopen it or pick another")
    if new.group_gift and new.quantity_requested != 1:
        raise RuleViolation("a group gift asks for one unit", field="quantity_requested", hint="set it to 1")
    if new.quantity_requested < new.quantity_purchased:
        raise RuleViolation(
            f"{new.quantity_purchased} were already bought",
            field="quantity_requested",
            hint=f"ask for {new.quantity_purchased} or more",
        )


def _guard_item_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if any(not p.cancelled for p in ctx.where(Purchase, item_id=old.id)):
        raise Conflict(
            f"guests already bought {old.name}", field="item_id", hint="lower quantity_requested to what was bought"
        )


registries = service.resource(
    Registry,
    name="registry",
    plural="registries",
    prefix="reg",
    create=False,
    filters=("slug", "owner_email", "event_type", "status", "visibility"),
    search=("title", "owner_name", "co_owner_name"),
    update=("title", "event_date", "visibility", "co_owner_name"),
    delete=False,
    transitions={
        "close": Transition("status", ("active",), "closed", "close the registry"),
        "reopen": Transition("status", ("closed",), "active", "reopen the registry"),
    },
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=("registry_id", "name", "price", "quantity_requested", "group_gift", "most_wanted"),
    filters=("registry_id", "group_gift", "most_wanted"),
    search=("name",),
    update=("name", "price", "quantity_requested", "most_wanted"),
    guard_create=_guard_item,
    guard_update=_guard_item,
    guard_delete=_guard_item_delete,
    title="registry item",
)
purchases = service.resource(
    Purchase,
    name="purchase",
    plural="purchases",
    prefix="pur",
    create=False,
    filters=("registry_id", "item_id", "kind", "guest_email", "thank_you_sent", "cancelled"),
    delete=False,
)


# -- tools ------------------------------------------------------------------------------------


def _example_registry(ctx: Ctx) -> dict[str, Any] | None:
    who = ctx.population.consumers[-1]
    return {
        "slug": f"{fold(who.first_name).replace(' ', '-')}-housewarming-2099",
        "title": f"{who.first_name}'s new home",
        "owner_name": who.name,
        "owner_email": who.email,
        "event_type": "housewarming",
        "event_date": (ctx.today() + dt.timedelta(days=60)).isoformat(),
    }


@service.tool(intent="create a gift registry", write=True, example=_example_registry)
def create_registry(
    ctx: Ctx,
    slug: Slug,
    title: Title,
    owner_name: PersonName,
    owner_email: Email,
    event_type: EventType,
    event_date: Date,
    co_owner_name: PersonName | None = None,
    visibility: Visibility = "public",
) -> Registry:
    """Create a registry for an event that is still ahead; its slug is unique.

    Args:
        slug: URL slug, lower-case words joined by hyphens.
        title: Its title.
        owner_name: Who it is for.
        owner_email: Their e-mail.
        event_type: wedding, baby_shower, birthday or housewarming.
        event_date: The day of the event (today or later).
        co_owner_name: A partner's name.
        visibility: public or private.
    """
    if ctx.first(Registry, slug=slug) is not None:
        raise Conflict(f"the slug {slug} is taken", field="slug", hint="add a year or a name to it")
    if event_date < ctx.today():
        raise RuleViolation("the event is in the past", field="event_date", hint="give the date of the event ahead")
    return ctx.create(
        Registry,
        slug=slug,
        title=title,
        owner_name=owner_name,
        owner_email=owner_email,
        co_owner_name=co_owner_name,
        event_type=event_type,
        event_date=event_date,
        visibility=visibility,
    )


def _open(ctx: Ctx, item_id: str) -> tuple[Item, Registry]:
    item = ctx.get(Item, item_id, field="item_id")
    reg = ctx.get(Registry, item.registry_id)
    if reg.status != "active" or reg.visibility != "public":
        raise RuleViolation(
            f"registry {reg.slug} is {reg.status if reg.status != 'active' else 'private'}",
            field="item_id",
            hint="guests buy from active public registries",
        )
    return item, reg


def _example_gift(ctx: Ctx) -> dict[str, Any] | None:
    for item in ctx.where(Item, group_gift=False):
        reg = ctx.get(Registry, item.registry_id)
        if reg.status == "active" and reg.visibility == "public" and item.quantity_purchased < item.quantity_requested:
            guest = ctx.population.consumers[0]
            return {"item_id": item.id, "guest_name": guest.name, "guest_email": guest.email, "quantity": 1}
    return None


@service.tool(intent="buy a gift from the registry", write=True, example=_example_gift)
def purchase_gift(
    ctx: Ctx,
    item_id: ItemId,
    guest_name: PersonName,
    guest_email: Email,
    quantity: PositiveQuantity = 1,
    message: Text = "",
) -> Purchase:
    """Buy units of a registry item for the owner; at most what is still needed, not for group gifts.

    Args:
        item_id: The registry item.
        guest_name: The guest's name.
        guest_email: The guest's e-mail.
        quantity: Units to buy.
        message: A note for the owner.
    """
    item, reg = _open(ctx, item_id)
    if item.group_gift:
        raise RuleViolation(
            f"{item.name} is a group gift", field="item_id", hint="chip in with giftregistry__contribute"
        )
    left = item.quantity_requested - item.quantity_purchased
    if quantity > left:
        raise RuleViolation(
            f"only {left} of {item.name} still needed", field="quantity", hint="buy fewer or pick another item"
        )
    ctx.update(item, quantity_purchased=item.quantity_purchased + quantity)
    return ctx.create(
        Purchase,
        registry_id=reg.id,
        item_id=item.id,
        kind="gift",
        guest_name=guest_name,
        guest_email=guest_email,
        quantity=quantity,
        amount=item.price * quantity,
        message=message,
    )


def _example_contribute(ctx: Ctx) -> dict[str, Any] | None:
    for item in ctx.where(Item, group_gift=True):
        reg = ctx.get(Registry, item.registry_id)
        if reg.status == "active" and reg.visibility == "public" and item.amount_funded + 2500 <= item.price:
            guest = ctx.population.consumers[1]
            return {"item_id": item.id, "guest_name": guest.name, "guest_email": guest.email, "amount": 2500}
    return None


@service.tool(intent="contribute to the group gift", write=True, example=_example_contribute)
def contribute(
    ctx: Ctx, item_id: ItemId, guest_name: PersonName, guest_email: Email, amount: Cents, message: Text = ""
) -> Purchase:
    """Chip in towards a group gift; at most what is still unfunded. Fully funded, it counts as bought.

    Args:
        item_id: The group gift.
        guest_name: The guest's name.
        guest_email: The guest's e-mail.
        amount: The contribution in cents (at least 500).
        message: A note for the owner.
    """
    item, reg = _open(ctx, item_id)
    if not item.group_gift:
        raise RuleViolation(f"{item.name} is not a group gift", field="item_id", hint="buy it with purchase_gift")
    left = item.price - item.amount_funded
    if left <= 0:
        raise Conflict(f"{item.name} is fully funded", field="item_id", hint="pick another item")
    if amount < 500 or amount > left:
        raise RuleViolation(
            f"a contribution is 500 cents up to the {left} still unfunded", field="amount", hint=f"give up to {left}"
        )
    funded = item.amount_funded + amount
    ctx.update(item, amount_funded=funded, quantity_purchased=1 if funded >= item.price else 0)
    return ctx.create(
        Purchase,
        registry_id=reg.id,
        item_id=item.id,
        kind="contribution",
        guest_name=guest_name,
        guest_email=guest_email,
        amount=amount,
        message=message,
    )


def _cancellable(ctx: Ctx, p: Purchase) -> bool:
    return p.kind != "completion" and not p.thank_you_sent and ctx.now() - p.purchased_at <= CANCEL_WINDOW


@service.tool(
    intent="cancel the registry purchase",
    write=True,
    destructive=True,
    example=first_example(Purchase, "purchase_id", where={"cancelled": False}, match=_cancellable),
)
def cancel_purchase(ctx: Ctx, purchase_id: PurchaseId) -> Purchase:
    """Cancel and refund a gift or contribution within 30 days, before its thank-you note; the item is needed again.

    Args:
        purchase_id: The purchase.
    """
    p = ctx.get(Purchase, purchase_id, field="purchase_id")
    if p.cancelled:
        raise Conflict(f"purchase {p.id} is already cancelled", field="purchase_id", hint="nothing to do")
    if not _cancellable(ctx, p):
        raise RuleViolation(
            f"purchase {p.id} can no longer be cancelled",
            field="purchase_id",
            hint="only gifts and contributions within 30 days and before their thank-you note",
        )
    item = ctx.get(Item, p.item_id)
    if p.kind == "contribution":
        funded = item.amount_funded - p.amount
        ctx.update(item, amount_funded=funded, quantity_purchased=1 if funded >= item.price else 0)
    else:
        ctx.update(item, quantity_purchased=item.quantity_purchased - p.quantity)
    return ctx.update(p, cancelled=True)


@service.tool(
    intent="mark the thank-you note sent",
    write=True,
    example=first_example(
        Purchase,
        "purchase_id",
        where={"thank_you_sent": False, "cancelled": False},
        match=lambda c, p: p.kind != "completion",
    ),
)
def mark_thank_you_sent(ctx: Ctx, purchase_id: PurchaseId) -> Purchase:
    """Mark the thank-you note for a gift or contribution sent (once).

    Args:
        purchase_id: The purchase.
    """
    p = ctx.get(Purchase, purchase_id, field="purchase_id")
    if p.kind == "completion" or p.cancelled:
        raise RuleViolation(
            f"purchase {p.id} needs no thank-you note", field="purchase_id", hint="only guests' live gifts"
        )
    if p.thank_you_sent:
        raise Conflict(f"the note for {p.id} is already sent", field="purchase_id", hint="nothing to do")
    return ctx.update(p, thank_you_sent=True)


@service.tool(intent="list who still needs a thank-you note", example=first_example(Registry, "registry_id"))
def thank_you_list(ctx: Ctx, registry_id: RegistryId) -> ThankYouList:
    """The registry's gifts and contributions still owed a thank-you note, and the guests to thank.

    Args:
        registry_id: The registry.
    """
    reg = ctx.get(Registry, registry_id, field="registry_id")
    live = [p for p in ctx.where(Purchase, registry_id=reg.id) if p.kind != "completion" and not p.cancelled]
    owed = [p for p in live if not p.thank_you_sent]
    guests = list(dict.fromkeys(p.guest_email for p in sorted(owed, key=lambda p: (p.purchased_at, p.id))))
    return ThankYouList(registry_id=reg.id, pending=len(owed), sent=len(live) - len(owed), guests=guests)


class Progress(Value):
    """How far a registry is from complete."""

    registry_id: RegistryId
    """The registry."""
    units_requested: int
    """Units asked for, all items."""
    units_purchased: int
    """Units bought."""
    group_gift_funded: int
    """Cents contributed to group gifts."""
    group_gift_goal: int
    """Cents the group gifts ask for."""
    gifts_total: int
    """Cents guests spent (gifts and contributions, not cancelled)."""


@service.tool(intent="show the registry's progress", example=first_example(Registry, "registry_id"))
def registry_progress(ctx: Ctx, registry_id: RegistryId) -> Progress:
    """Units asked for and bought, group gift funding, and what guests spent on the registry.

    Args:
        registry_id: The registry.
    """
    reg = ctx.get(Registry, registry_id, field="registry_id")
    its = ctx.where(Item, registry_id=reg.id)
    spent = [p for p in ctx.where(Purchase, registry_id=reg.id) if p.kind != "completion" and not p.cancelled]
    return Progress(
        registry_id=reg.id,
        units_requested=sum(i.quantity_requested for i in its),
        units_purchased=sum(i.quantity_purchased for i in its),
        group_gift_funded=sum(i.amount_funded for i in its if i.group_gift),
        group_gift_goal=sum(i.price for i in its if i.group_gift),
        gifts_total=sum(p.amount for p in spent),
    )


def _can_complete(ctx: Ctx, reg: Registry) -> bool:
    today = ctx.today()
    return not reg.completion_used and reg.event_date <= today <= reg.event_date + COMPLETION_WINDOW


def _example_complete(ctx: Ctx) -> dict[str, Any] | None:
    for reg in ctx.where(Registry):
        if _can_complete(ctx, reg):
            left = [
                i.id
                for i in ctx.where(Item, registry_id=reg.id, group_gift=False)
                if i.quantity_purchased < i.quantity_requested
            ]
            if left:
                return {"registry_id": reg.id, "item_ids": left[:2]}
    return None


@service.tool(intent="use the completion discount", write=True, example=_example_complete)
def complete_registry(ctx: Ctx, registry_id: RegistryId, item_ids: list[ItemId]) -> list[Purchase]:
    """Buy what is still needed of some items at 20% off, once, from the event date to six months after.

    Args:
        registry_id: The registry.
        item_ids: Items still needed (not group gifts), each once.
    """
    reg = ctx.get(Registry, registry_id, field="registry_id")
    if reg.completion_used:
        raise Conflict(f"registry {reg.slug} already used its discount", field="registry_id", hint="it is used once")
    if not _can_complete(ctx, reg):
        raise RuleViolation(
            f"the completion discount runs from {reg.event_date} to {reg.event_date + COMPLETION_WINDOW}",
            field="registry_id",
            hint="use it after the event",
        )
    if not item_ids or len(set(item_ids)) != len(item_ids):
        raise RuleViolation("list each item once", field="item_ids", hint="at least one item")
    made: list[Purchase] = []
    for k, iid in enumerate(item_ids):
        item = ctx.get(Item, iid, field=f"item_ids[{k}]")
        left = item.quantity_requested - item.quantity_purchased
        if item.registry_id != reg.id or item.group_gift or left <= 0:
            raise RuleViolation(
                f"{item.name} is not a still-needed item of this registry",
                field=f"item_ids[{k}]",
                hint="pick items with units still needed",
            )
        ctx.update(item, quantity_purchased=item.quantity_requested)
        made.append(
            ctx.create(
                Purchase,
                registry_id=reg.id,
                item_id=item.id,
                kind="completion",
                guest_name=reg.owner_name,
                guest_email=reg.owner_email,
                quantity=left,
                amount=round(item.price * left * (100 - COMPLETION_PERCENT) / 100),
            )
        )
    ctx.update(reg, completion_used=True)
    return made


# -- seed -------------------------------------------------------------------------------------

FUNDS: dict[str, tuple[str, int]] = {
    "wedding": ("Honeymoon fund", 150000),
    "baby_shower": ("Stroller and car seat", 65000),
    "birthday": ("Weekend getaway", 40000),
    "housewarming": ("Sofa fund", 90000),
}

EVENTS: tuple[tuple[EventType, int], ...] = (
    ("wedding", 45),
    ("baby_shower", -20),
    ("birthday", 12),
    ("housewarming", -250),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Registries of consumers (one after its event), items from the catalogue, gifts and contributions by guests."""
    pop = s.population
    today = s.now.date()
    people = pop.consumers
    guests = people[20:40]
    for k, (etype, days) in enumerate(EVENTS):
        owner, partner = people[2 * k], people[2 * k + 1]
        reg = s.create(
            Registry,
            slug=f"{fold(owner.first_name).replace(' ', '-')}-{fold(owner.last_name).replace(' ', '-')}-{etype.replace('_', '-')}",
            title=f"{owner.first_name} & {partner.first_name}"
            if etype == "wedding"
            else f"{owner.first_name}'s {etype.replace('_', ' ')}",
            owner_name=owner.name,
            owner_email=owner.email,
            co_owner_name=partner.name if etype != "birthday" else None,
            event_type=etype,
            event_date=today + dt.timedelta(days=days),
            visibility="private" if etype == "birthday" else "public",
            status="closed" if days < -COMPLETION_WINDOW.days else "active",
            created_at=s.ago(days=120),
            updated_at=s.ago(days=3),
        )
        fund_name, goal = FUNDS[etype]
        fund = s.create(
            Item,
            registry_id=reg.id,
            name=fund_name,
            price=goal,
            group_gift=True,
            most_wanted=True,
            created_at=s.ago(days=110),
            updated_at=s.ago(days=2),
        )
        made = [
            s.create(
                Item,
                registry_id=reg.id,
                name=p.name,
                price=p.price_cents,
                quantity_requested=1 + j % 3,
                most_wanted=j == 0,
                created_at=s.ago(days=110),
                updated_at=s.ago(days=2),
            )
            for j, p in enumerate(pop.products[k * 6 : k * 6 + 6])
        ]
        for j, item in enumerate(made[:4]):
            guest = guests[(k * 7 + j) % len(guests)]
            qty = 1 if j % 2 else item.quantity_requested
            s.create(
                Purchase,
                registry_id=reg.id,
                item_id=item.id,
                kind="gift",
                guest_name=guest.name,
                guest_email=guest.email,
                quantity=qty,
                amount=item.price * qty,
                message="Congratulations!" if j % 2 else "",
                thank_you_sent=j == 0,
                purchased_at=s.ago(days=max(0, -days) + 40 - 9 * j),
            )
            s.update(item, quantity_purchased=qty)
        funded = 0
        for j in range(3):
            guest = guests[(k * 5 + j + 10) % len(guests)]
            amount = goal // 6
            funded += amount
            s.create(
                Purchase,
                registry_id=reg.id,
                item_id=fund.id,
                kind="contribution",
                guest_name=guest.name,
                guest_email=guest.email,
                amount=amount,
                message="For something special.",
                thank_you_sent=j == 0 and k == 1,
                purchased_at=s.ago(days=max(0, -days) + 20 - 5 * j),
            )
        s.update(fund, amount_funded=funded)
