"""Arcadia Backend: the studio's game backend: players, their data, currencies, items, leaderboards and bans.

Modeled on the Azure PlayFab Server and Admin APIs: players (title player
accounts with a unique display name and a linked e-mail), player data
(``UpdateUserData``: key/value pairs, Private or Public, at most 10 keys per
call and 100 per player), virtual currencies (``AddUserVirtualCurrency`` /
``SubtractUserVirtualCurrency``, balances never below zero), the catalog
(items with a class, prices per currency, consumable uses, stackable or not),
player inventories (``PurchaseItem`` at the catalog price, ``GrantItemsToUser``,
``ConsumeItem``, ``RevokeInventoryItem``), statistics with an aggregation
method (last, min, max, sum) and the leaderboard over them, and bans
(``BanUsers``, ``RevokeBans``) with a reason and an optional expiry. A banned
player can neither buy, nor post statistics; a non-stackable item is owned
once.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, DateTime, Email, IdOf, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "gamebackend",
    title="Arcadia Backend",
    category="game_backend",
    modeled_on="Azure PlayFab Server/Admin API (players, UpdateUserData, virtual currency, catalog items, "
    "PurchaseItem/GrantItemsToUser/ConsumeItem/RevokeInventoryItem, statistics and leaderboards, BanUsers)",
    description="The backend of the studio's game: player accounts and their saved data, virtual currency "
    "balances, the item catalog and player inventories, statistics and leaderboards, and player bans.",
)

PlayerId = Annotated[str, IdOf("gamebackend.player")]
DataId = Annotated[str, IdOf("gamebackend.player_data")]
BalanceId = Annotated[str, IdOf("gamebackend.balance")]
ItemId = Annotated[str, IdOf("gamebackend.catalog_item")]
InstanceId = Annotated[str, IdOf("gamebackend.inventory_item")]
StatId = Annotated[str, IdOf("gamebackend.statistic")]
BanId = Annotated[str, IdOf("gamebackend.ban")]

DisplayName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_]{3,25}$")]
"""A display name: 3-25 letters, digits or underscores."""
CurrencyCode = Literal["GC", "GM", "EN"]
"""Gold coins, gems, energy."""
DataKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,49}$")]
"""A player data key."""
StatName = Literal["high_score", "wins", "best_lap_ms", "xp"]
ItemClass = Literal["weapon", "armor", "consumable", "cosmetic", "bundle"]
InstanceStatus = Literal["active", "consumed", "revoked"]
Aggregation = Literal["last", "min", "max", "sum"]

AGGREGATION: dict[str, Aggregation] = {"high_score": "max", "wins": "sum", "best_lap_ms": "min", "xp": "sum"}
CURRENCY_NAMES = {"GC": "Gold Coins", "GM": "Gems", "EN": "Energy"}
MAX_KEYS = 100


class Player(Timestamped):
    """A title player account."""

    id: PlayerId
    display_name: DisplayName
    """Unique display name."""
    email: Email | None = None
    """Linked e-mail account."""
    country: Country = "US"
    """Country from the last login."""
    last_login: DateTime | None = None
    """When they last logged in."""
    banned: bool = False
    """Whether an active ban applies."""


class PlayerData(Timestamped):
    """A key/value pair saved for a player."""

    id: DataId
    player_id: PlayerId
    """The player."""
    key: DataKey
    """The key (unique per player)."""
    value: Annotated[str, StringConstraints(max_length=10000)]
    """The value."""
    permission: Literal["private", "public"] = "private"
    """public data other players can read."""


class Balance(Timestamped):
    """A player's balance of one virtual currency."""

    id: BalanceId
    player_id: PlayerId
    """The player."""
    currency: CurrencyCode
    """GC, GM or EN."""
    amount: Annotated[int, Field(ge=0)]
    """The balance."""


class CatalogItem(Timestamped):
    """An item the game sells or grants."""

    id: ItemId
    item_code: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{2,40}$")]
    """The item id used by the game client (unique)."""
    display_name: Title
    """Name shown in the store."""
    item_class: ItemClass
    """weapon, armor, consumable, cosmetic or bundle."""
    prices: dict[CurrencyCode, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    """Price per currency; empty: not for sale, only granted."""
    uses: Annotated[int, Field(ge=0)] = 0
    """Uses of a consumable (0: not consumable)."""
    stackable: bool = False
    """Whether a player may own several."""
    for_sale: bool = True
    """Whether the store offers it."""


class InventoryItem(Created):
    """An item instance a player owns."""

    id: InstanceId
    player_id: PlayerId
    """The owner."""
    item_id: ItemId
    """The catalog item."""
    item_code: str
    """Its client id."""
    remaining_uses: int = 0
    """Uses left (consumables)."""
    paid_currency: CurrencyCode | None = None
    """Currency it was bought with (None: granted)."""
    paid_amount: int = 0
    """Price paid."""
    status: InstanceStatus = "active"
    """active, consumed or revoked."""


class Statistic(Timestamped):
    """A player's value of one statistic."""

    id: StatId
    player_id: PlayerId
    """The player."""
    name: StatName
    """high_score, wins, best_lap_ms or xp."""
    value: int
    """Its value after aggregation."""


class Ban(Created):
    """A ban of a player."""

    id: BanId
    player_id: PlayerId
    """The player."""
    reason: Annotated[str, StringConstraints(min_length=1, max_length=140)]
    """Why."""
    expires_at: DateTime | None = None
    """When it ends (None: permanent)."""
    active: bool = True
    """Whether it applies."""


class LeaderboardEntry(Value):
    """A place on a leaderboard."""

    position: int
    """0-based rank."""
    player_id: PlayerId
    """The player."""
    display_name: str
    """Their display name."""
    value: int
    """Their statistic."""


# -- rules ------------------------------------------------------------------------------------


def _guard_player(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Player, display_name=new.display_name):
        if other.id != new.id:
            raise Conflict(f"display name {new.display_name} is taken", field="display_name", hint="pick another")


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(CatalogItem, item_code=new.item_code):
        if other.id != new.id:
            raise Conflict(f"item code {new.item_code} is taken", field="item_code", hint="pick another code")
    if new.item_class == "consumable" and new.uses < 1:
        raise RuleViolation("a consumable has at least one use", field="uses", hint="set uses")


def _playable(ctx: Ctx, player_id: str) -> Player:
    player = ctx.get(Player, player_id, field="player_id")
    if player.banned:
        raise RuleViolation(f"player {player.display_name} is banned", field="player_id", hint="revoke the ban first")
    return player


def _balance(ctx: Ctx, player_id: str, currency: str) -> Balance:
    found = ctx.first(Balance, player_id=player_id, currency=currency)
    return found if found is not None else ctx.create(Balance, player_id=player_id, currency=currency, amount=0)


players = service.resource(
    Player,
    name="player",
    plural="players",
    prefix="plr",
    create=("display_name", "email", "country"),
    filters=("email", "display_name", "banned", "country"),
    search=("display_name",),
    update=("display_name", "email"),
    delete=False,
    guard_create=_guard_player,
    guard_update=_guard_player,
)
player_data = service.resource(
    PlayerData,
    name="player_data",
    plural="player_data",
    prefix="pdat",
    create=False,
    get=False,
    filters=("player_id", "key", "permission"),
    title="player data entry",
)
balances = service.resource(
    Balance,
    name="balance",
    plural="balances",
    prefix="bal",
    create=False,
    get=False,
    filters=("player_id", "currency"),
    delete=False,
    title="currency balance",
)
catalog = service.resource(
    CatalogItem,
    name="catalog_item",
    plural="catalog_items",
    prefix="item",
    create=False,
    filters=("item_class", "item_code", "for_sale"),
    search=("display_name",),
    update=("display_name", "prices", "for_sale"),
    delete=False,
    guard_update=_guard_item,
)
inventory = service.resource(
    InventoryItem,
    name="inventory_item",
    plural="inventory_items",
    prefix="inst",
    create=False,
    filters=("player_id", "item_id", "status"),
    delete=False,
)
statistics = service.resource(
    Statistic,
    name="statistic",
    plural="statistics",
    prefix="stat",
    create=False,
    get=False,
    filters=("player_id", "name"),
    delete=False,
    title="player statistic",
)
bans = service.resource(
    Ban, name="ban", plural="bans", prefix="ban", create=False, get=False, filters=("player_id", "active"), delete=False
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="add the item to the catalog",
    write=True,
    example=lambda ctx: {
        "item_code": "shield_oak",
        "display_name": "Oak Shield",
        "item_class": "armor",
        "prices": {"GC": 400},
    },
)
def add_catalog_item(
    ctx: Ctx,
    item_code: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{2,40}$")],
    display_name: Title,
    item_class: ItemClass,
    prices: dict[CurrencyCode, Annotated[int, Field(ge=0)]] | None = None,
    uses: Annotated[int, Field(ge=0)] = 0,
    stackable: bool = False,
) -> CatalogItem:
    """Add an item to the catalog; item codes are unique and consumables have uses.

    Args:
        item_code: The id the game client uses (lower case, digits, underscores).
        display_name: Name shown in the store.
        item_class: weapon, armor, consumable, cosmetic or bundle.
        prices: Price per currency; omit to only grant it.
        uses: Uses of a consumable.
        stackable: Whether a player may own several.
    """
    made = ctx.create(
        CatalogItem,
        item_code=item_code,
        display_name=display_name,
        item_class=item_class,
        prices=prices or {},
        uses=uses,
        stackable=stackable,
        for_sale=bool(prices),
    )
    _guard_item(ctx, made, None)
    return made


@service.tool(
    intent="save the player's data",
    write=True,
    example=first_example(Player, "player_id", data={"tutorial_done": "true", "skin": "red"}),
)
def set_player_data(
    ctx: Ctx,
    player_id: PlayerId,
    data: dict[DataKey, Annotated[str, StringConstraints(max_length=10000)]],
    permission: Literal["private", "public"] = "private",
) -> list[PlayerData]:
    """Create or overwrite up to 10 keys of a player's data; a player keeps at most 100 keys.

    Args:
        player_id: The player.
        data: Keys and their values.
        permission: private, or public (other players may read it).
    """
    player = ctx.get(Player, player_id, field="player_id")
    if not 1 <= len(data) <= 10:
        raise RuleViolation("set 1 to 10 keys per call", field="data", hint="split the update")
    known = {d.key: d for d in ctx.where(PlayerData, player_id=player.id)}
    if len(known.keys() | data.keys()) > MAX_KEYS:
        raise RuleViolation(f"a player keeps at most {MAX_KEYS} keys", field="data", hint="delete unused keys")
    out = []
    for key, value in sorted(data.items()):
        old = known.get(key)
        out.append(
            ctx.update(old, value=value, permission=permission)
            if old
            else ctx.create(PlayerData, player_id=player.id, key=key, value=value, permission=permission)
        )
    return out


@service.tool(
    intent="add virtual currency to the player",
    write=True,
    example=first_example(Player, "player_id", where={"banned": False}, currency="GC", amount=250),
)
def add_currency(ctx: Ctx, player_id: PlayerId, currency: CurrencyCode, amount: Annotated[int, Field(ge=1)]) -> Balance:
    """Credit a player's balance of a virtual currency.

    Args:
        player_id: The player.
        currency: GC (gold coins), GM (gems) or EN (energy).
        amount: How much to add.
    """
    player = ctx.get(Player, player_id, field="player_id")
    bal = _balance(ctx, player.id, currency)
    return ctx.update(bal, amount=bal.amount + amount)


@service.tool(
    intent="subtract virtual currency from the player",
    write=True,
    example=first_example(
        Balance,
        None,
        match=lambda c, b: b.amount >= 10,
        fields={"player_id": "player_id", "currency": "currency"},
        amount=10,
    ),
)
def subtract_currency(
    ctx: Ctx, player_id: PlayerId, currency: CurrencyCode, amount: Annotated[int, Field(ge=1)]
) -> Balance:
    """Debit a player's balance; it never goes below zero.

    Args:
        player_id: The player.
        currency: GC, GM or EN.
        amount: How much to take.
    """
    player = ctx.get(Player, player_id, field="player_id")
    bal = _balance(ctx, player.id, currency)
    if bal.amount < amount:
        raise RuleViolation(
            f"{player.display_name} has only {bal.amount} {currency}",
            field="amount",
            hint="subtract at most the balance",
        )
    return ctx.update(bal, amount=bal.amount - amount)


def _owns(ctx: Ctx, player_id: str, item: CatalogItem) -> None:
    if not item.stackable and ctx.where(InventoryItem, player_id=player_id, item_id=item.id, status="active"):
        raise Conflict(
            f"the player already owns {item.display_name}", field="item_id", hint="non-stackable items are owned once"
        )


def _example_purchase(ctx: Ctx) -> dict[str, Any] | None:
    for bal in ctx.where(Balance, currency="GC"):
        for item in ctx.where(CatalogItem, for_sale=True):
            price = item.prices.get("GC")
            if price is not None and price <= bal.amount and item.stackable:
                return {"player_id": bal.player_id, "item_id": item.id, "currency": "GC", "price": price}
    return None


@service.tool(intent="buy the item for the player", write=True, example=_example_purchase)
def purchase_item(ctx: Ctx, player_id: PlayerId, item_id: ItemId, currency: CurrencyCode, price: int) -> InventoryItem:
    """Buy a catalog item for a player at its catalog price in one currency, from their balance.

    Args:
        player_id: The buyer (not banned).
        item_id: The catalog item (for sale).
        currency: The currency paid in; the item must have a price in it.
        price: The price the client showed; it must equal the catalog price.
    """
    player = _playable(ctx, player_id)
    item = ctx.get(CatalogItem, item_id, field="item_id")
    if not item.for_sale or currency not in item.prices:
        raise RuleViolation(
            f"{item.display_name} is not sold for {currency}",
            field="currency",
            hint=f"prices: {item.prices or 'none (granted only)'}",
        )
    if price != item.prices[currency]:
        raise Conflict(
            f"the price is {item.prices[currency]} {currency}",
            field="price",
            hint="refresh the store and buy at the current price",
        )
    _owns(ctx, player.id, item)
    bal = _balance(ctx, player.id, currency)
    if bal.amount < price:
        raise RuleViolation(
            f"{player.display_name} has {bal.amount} {currency}, needs {price}",
            field="player_id",
            hint="add currency first",
        )
    ctx.update(bal, amount=bal.amount - price)
    return ctx.create(
        InventoryItem,
        player_id=player.id,
        item_id=item.id,
        item_code=item.item_code,
        remaining_uses=item.uses,
        paid_currency=currency,
        paid_amount=price,
    )


def _example_grant(ctx: Ctx) -> dict[str, Any] | None:
    item = ctx.first(CatalogItem, stackable=True)
    player = ctx.first(Player)
    return None if item is None or player is None else {"player_id": player.id, "item_id": item.id}


@service.tool(intent="grant the item to the player", write=True, example=_example_grant)
def grant_item(ctx: Ctx, player_id: PlayerId, item_id: ItemId) -> InventoryItem:
    """Give a player a catalog item for free (rewards, compensation).

    Args:
        player_id: The player.
        item_id: The catalog item.
    """
    player = ctx.get(Player, player_id, field="player_id")
    item = ctx.get(CatalogItem, item_id, field="item_id")
    _owns(ctx, player.id, item)
    return ctx.create(
        InventoryItem, player_id=player.id, item_id=item.id, item_code=item.item_code, remaining_uses=item.uses
    )


@service.tool(
    intent="consume uses of the item",
    write=True,
    example=first_example(
        InventoryItem, "instance_id", where={"status": "active"}, match=lambda c, i: i.remaining_uses > 0, count=1
    ),
)
def consume_item(ctx: Ctx, instance_id: InstanceId, count: Annotated[int, Field(ge=1)] = 1) -> InventoryItem:
    """Use up a consumable's uses; at zero it is consumed.

    Args:
        instance_id: The inventory item.
        count: Uses to consume.
    """
    inst = ctx.get(InventoryItem, instance_id, field="instance_id")
    if inst.status != "active" or inst.remaining_uses < count:
        raise RuleViolation(
            f"{inst.item_code} has {inst.remaining_uses} uses left ({inst.status})",
            field="count",
            hint="consume at most the uses left of an active item",
        )
    left = inst.remaining_uses - count
    return ctx.update(inst, remaining_uses=left, status="active" if left else "consumed")


@service.tool(
    intent="revoke the inventory item",
    write=True,
    destructive=True,
    example=first_example(InventoryItem, "instance_id", where={"status": "active"}),
)
def revoke_item(ctx: Ctx, instance_id: InstanceId, refund: bool = False) -> InventoryItem:
    """Take an item back from a player, refunding its price to their balance if asked.

    Args:
        instance_id: The inventory item (active).
        refund: Give back what was paid.
    """
    inst = ctx.get(InventoryItem, instance_id, field="instance_id")
    if inst.status != "active":
        raise RuleViolation(f"{inst.item_code} is {inst.status}", field="instance_id", hint="only active items")
    if refund and inst.paid_currency is not None:
        bal = _balance(ctx, inst.player_id, inst.paid_currency)
        ctx.update(bal, amount=bal.amount + inst.paid_amount)
    return ctx.update(inst, status="revoked")


@service.tool(
    intent="post the player's statistic",
    write=True,
    example=first_example(Player, "player_id", where={"banned": False}, name="wins", value=1),
)
def update_statistic(ctx: Ctx, player_id: PlayerId, name: StatName, value: Annotated[int, Field(ge=0)]) -> Statistic:
    """Post a value to a statistic; it aggregates by the statistic's method (max, min, sum or last).

    Args:
        player_id: The player (not banned).
        name: high_score (max), wins (sum), best_lap_ms (min) or xp (sum).
        value: The value posted.
    """
    player = _playable(ctx, player_id)
    stat = ctx.first(Statistic, player_id=player.id, name=name)
    if stat is None:
        return ctx.create(Statistic, player_id=player.id, name=name, value=value)
    how = AGGREGATION[name]
    merged = {"max": max(stat.value, value), "min": min(stat.value, value), "sum": stat.value + value}.get(how, value)
    return ctx.update(stat, value=merged)


@service.tool(intent="show the leaderboard", example=lambda ctx: {"name": "high_score", "max_results": 5})
def get_leaderboard(
    ctx: Ctx, name: StatName, max_results: Annotated[int, Field(ge=1, le=100)] = 10
) -> list[LeaderboardEntry]:
    """The best players of a statistic (lowest first for best_lap_ms), banned players left out.

    Args:
        name: The statistic.
        max_results: How many places.
    """
    banned = {p.id for p in ctx.where(Player, banned=True)}
    rows = [s for s in ctx.where(Statistic, name=name) if s.player_id not in banned]
    rows.sort(key=lambda s: (s.value if name == "best_lap_ms" else -s.value, s.player_id))
    return [
        LeaderboardEntry(
            position=k, player_id=s.player_id, display_name=ctx.get(Player, s.player_id).display_name, value=s.value
        )
        for k, s in enumerate(rows[:max_results])
    ]


@service.tool(
    intent="ban the player",
    write=True,
    example=first_example(Player, "player_id", where={"banned": False}, reason="Cheating", duration_hours=72),
)
def ban_player(
    ctx: Ctx,
    player_id: PlayerId,
    reason: Annotated[str, StringConstraints(max_length=140)],
    duration_hours: Annotated[int, Field(ge=1, le=8760)] | None = None,
) -> Ban:
    """Ban a player for some hours or for good; they drop off leaderboards and cannot buy.

    Args:
        player_id: The player.
        reason: Why (required).
        duration_hours: How long; omit for a permanent ban.
    """
    player = ctx.get(Player, player_id, field="player_id")
    if player.banned:
        raise Conflict(f"{player.display_name} is already banned", field="player_id", hint="revoke the ban first")
    if not reason.strip():
        raise RuleViolation("a ban needs a reason", field="reason", hint="say why")
    until = None if duration_hours is None else ctx.now() + dt.timedelta(hours=duration_hours)
    ctx.update(player, banned=True)
    return ctx.create(Ban, player_id=player.id, reason=reason.strip(), expires_at=until)


@service.tool(
    intent="revoke the player's ban",
    write=True,
    example=first_example(Ban, "ban_id", where={"active": True}),
)
def revoke_ban(ctx: Ctx, ban_id: BanId) -> Ban:
    """Lift an active ban; the player can play and buy again.

    Args:
        ban_id: The ban.
    """
    ban = ctx.get(Ban, ban_id, field="ban_id")
    if not ban.active:
        raise Conflict(f"ban {ban.id} is already lifted", field="ban_id", hint="nothing to do")
    ctx.update(ctx.get(Player, ban.player_id), banned=False)
    return ctx.update(ban, active=False)


# -- seed -------------------------------------------------------------------------------------

ITEMS: tuple[tuple[str, str, ItemClass, dict[str, int], int, bool, bool], ...] = (
    ("sword_iron", "Iron Sword", "weapon", {"GC": 500}, 0, False, True),
    ("bow_elven", "Elven Bow", "weapon", {"GC": 1200, "GM": 40}, 0, False, True),
    ("armor_leather", "Leather Armor", "armor", {"GC": 350}, 0, False, True),
    ("potion_health", "Health Potion", "consumable", {"GC": 50}, 3, True, True),
    ("elixir_energy", "Energy Elixir", "consumable", {"GM": 5}, 1, True, True),
    ("skin_golden", "Golden Skin", "cosmetic", {"GM": 120}, 0, False, True),
    ("banner_founder", "Founder's Banner", "cosmetic", {}, 0, False, False),
    ("bundle_starter", "Starter Bundle", "bundle", {"GM": 60}, 0, False, True),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Players from the world's consumers with data, balances, items, statistics, and a banned cheater."""
    pop = s.population
    people = list(pop.consumers[:10]) or list(pop.contacts[:10])
    items = [
        s.create(
            CatalogItem,
            item_code=code,
            display_name=name,
            item_class=cls,
            prices=prices,
            uses=uses,
            stackable=stack,
            for_sale=sale,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=30),
        )
        for code, name, cls, prices, uses, stack, sale in ITEMS
    ]
    for k, p in enumerate(people):
        handle = "".join(c for c in f"{p.first_name}{p.last_name[:1]}{k}" if c.isascii() and c.isalnum())
        player = s.create(
            Player,
            display_name=handle[:25].ljust(3, "x"),
            email=p.email,
            country=p.place.country,
            last_login=s.ago(hours=3 + 17 * k),
            banned=k == 7,
            created_at=s.ago(days=200 - 9 * k),
            updated_at=s.ago(days=k),
        )
        for cur, amount in (("GC", 300 + 170 * k), ("GM", 10 * (k % 4)), ("EN", 20)):
            s.create(
                Balance,
                player_id=player.id,
                currency=cur,
                amount=amount,
                created_at=s.ago(days=150),
                updated_at=s.ago(days=k),
            )
        s.create(
            PlayerData,
            player_id=player.id,
            key="tutorial_done",
            value="true" if k % 3 else "false",
            created_at=s.ago(days=100),
            updated_at=s.ago(days=k),
        )
        s.create(
            PlayerData,
            player_id=player.id,
            key="title",
            value=("Rookie", "Veteran", "Champion")[k % 3],
            permission="public",
            created_at=s.ago(days=90),
            updated_at=s.ago(days=k),
        )
        for j in (k % 3, 3, 6 if k < 3 else 5):
            item = items[j]
            paid: tuple[str | None, int] = next(iter(item.prices.items()), (None, 0))
            paid_cur, price = paid
            s.create(
                InventoryItem,
                player_id=player.id,
                item_id=item.id,
                item_code=item.item_code,
                remaining_uses=item.uses,
                paid_currency=paid_cur,
                paid_amount=price,
                created_at=s.ago(days=60 - k),
            )
        for name, value in (
            ("high_score", 1000 + (k * 7919) % 9000),
            ("wins", 3 + k * 2),
            ("best_lap_ms", 61000 + (k * 3301) % 20000),
            ("xp", 500 * (k + 1)),
        ):
            s.create(
                Statistic,
                player_id=player.id,
                name=name,
                value=value,
                created_at=s.ago(days=40),
                updated_at=s.ago(days=k),
            )
        if k == 7:
            s.create(
                Ban,
                player_id=player.id,
                reason="Speed hack detected",
                expires_at=s.now + dt.timedelta(days=3),
                created_at=s.ago(days=4),
            )
        if k == 5:
            s.create(
                Ban,
                player_id=player.id,
                reason="Abusive chat",
                expires_at=s.ago(days=10),
                active=False,
                created_at=s.ago(days=17),
            )
