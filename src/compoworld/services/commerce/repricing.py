"""PriceWatch: competitor price monitoring, repricing rules and approved price changes.

Modeled on the Prisync API (v2: products with SKU, brand, category, cost and
own price; competitor URLs attached to a product; price history per URL) with
Wiser-style repricing: rules per product, brand or category with a strategy
(match or beat the lowest competitor, or a target margin over cost) bounded by
a floor and a ceiling price; a repricing run proposes a price change that goes
pending → approved → pushed (or rejected), and only approved changes are pushed
to the store; price observations below our price or out of stock raise alerts
that go open → acknowledged → resolved. A competitor URL must live on the
competitor's own domain, a product tracks one page per competitor, one active
rule prices a target, a rule's floor may not exceed its ceiling, and no price
is ever set below cost.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal
from urllib.parse import urlparse

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    DateTime,
    Domain,
    Email,
    IdOf,
    Percent,
    Sku,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "repricing",
    title="PriceWatch",
    category="pricing_intelligence",
    modeled_on="Prisync API v2 (products, brands, categories, competitor URLs, price history) with Wiser-style "
    "repricing rules, price change approval and price alerts",
    description="Competitor price tracking for the home company's catalogue: each product's competitor URLs "
    "and the prices observed on them over time, repricing rules with floors and ceilings, the price changes "
    "they propose (approved before they are pushed to the store) and alerts when a competitor undercuts us.",
)

ProductId = Annotated[str, IdOf("repricing.product")]
CompetitorId = Annotated[str, IdOf("repricing.competitor")]
UrlId = Annotated[str, IdOf("repricing.url")]
ObservationId = Annotated[str, IdOf("repricing.observation")]
RuleId = Annotated[str, IdOf("repricing.rule")]
ChangeId = Annotated[str, IdOf("repricing.change")]
AlertId = Annotated[str, IdOf("repricing.alert")]

Label = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Strategy = Literal["match_lowest", "beat_lowest", "target_margin"]
RuleScope = Literal["product", "brand", "category"]
RuleStatus = Literal["active", "paused"]
ChangeStatus = Literal["pending", "approved", "rejected", "pushed"]
AlertKind = Literal["undercut", "out_of_stock", "price_increase"]
AlertStatus = Literal["open", "acknowledged", "resolved"]
UrlStatus = Literal["tracking", "broken"]

MAX_URLS = 10
"""Prisync tracks at most this many competitor URLs per product on the plans modeled."""


class Product(Timestamped):
    """A product of ours whose price is tracked against competitors."""

    id: ProductId
    sku: Sku
    """Our SKU (unique)."""
    name: Title
    """Product name."""
    brand: Label
    """The brand."""
    category: Label
    """Our category for it."""
    cost: Cents
    """What one unit costs us, in cents."""
    price: Cents
    """Our current selling price, in cents."""
    currency: Currency = "USD"
    """Currency of cost and prices."""


class Competitor(Record):
    """A competing store whose prices we watch."""

    id: CompetitorId
    name: CompanyName
    """The competitor's name."""
    domain: Domain
    """Its web shop's domain (unique); its URLs must live there."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class CompetitorUrl(Record):
    """A competitor's product page matched to one of our products."""

    id: UrlId
    product_id: ProductId
    """Our product."""
    competitor_id: CompetitorId
    """The competitor."""
    url: Url
    """The product page on the competitor's site."""
    status: UrlStatus = "tracking"
    """tracking, or broken (the page no longer answers)."""
    last_price: Cents | None = None
    """The latest price seen there, in cents."""
    in_stock: bool | None = None
    """Whether it was in stock at the latest check."""
    last_checked: DateTime | None = None
    """When it was last checked."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Observation(Record):
    """One price seen on a competitor URL at one time (the price history)."""

    id: ObservationId
    url_id: UrlId
    """The competitor URL."""
    product_id: ProductId
    """Our product."""
    competitor_id: CompetitorId
    """The competitor."""
    price: Cents
    """The price seen, in cents."""
    in_stock: bool = True
    """Whether it was in stock."""
    observed_at: DateTime
    """When it was seen."""


class RepricingRule(Timestamped):
    """A rule that proposes our price from competitors' prices, within a floor and a ceiling."""

    id: RuleId
    name: Title
    """The rule's name."""
    scope: RuleScope
    """product, brand or category."""
    target: Label
    """The product id, brand or category it applies to."""
    strategy: Strategy
    """match_lowest, beat_lowest (by beat_by cents) or target_margin (margin_percent over cost)."""
    beat_by: Cents = 0
    """For beat_lowest: how many cents under the lowest competitor."""
    margin_percent: Percent = 0
    """For target_margin: the margin over cost."""
    floor_margin_percent: Percent = 5
    """The lowest margin over cost a proposed price may have (the floor)."""
    ceiling: Cents | None = None
    """The highest price it may propose; none: no ceiling."""
    status: RuleStatus = "active"
    """active or paused."""
    owner_email: Email
    """The employee who owns the rule."""


class PriceChange(Record):
    """A price our rules propose for a product, approved before it is pushed to the store."""

    id: ChangeId
    product_id: ProductId
    """The product."""
    rule_id: RuleId
    """The rule that proposed it."""
    old_price: Cents
    """Our price when proposed."""
    new_price: Cents
    """The proposed price."""
    lowest_competitor: Cents | None = None
    """The lowest in-stock competitor price it was based on."""
    status: ChangeStatus = "pending"
    """pending, approved, rejected or pushed."""
    approved_by: Email | None = None
    """The employee who approved or rejected it."""
    note: Text = ""
    """Why it was rejected, or any remark."""
    pushed_at: DateTime | None = None
    """When the price went live."""
    created_at: Annotated[DateTime, CREATED]
    """When it was proposed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Alert(Record):
    """A notice that a competitor undercut us, ran out of stock or raised its price."""

    id: AlertId
    kind: AlertKind
    """undercut, out_of_stock or price_increase."""
    product_id: ProductId
    """Our product."""
    competitor_id: CompetitorId
    """The competitor."""
    competitor_price: Cents
    """The competitor's price, in cents."""
    our_price: Cents
    """Our price at the time, in cents."""
    status: AlertStatus = "open"
    """open, acknowledged or resolved."""
    created_at: Annotated[DateTime, CREATED]
    """When it was raised."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class PricePosition(Value):
    """Where our price stands among the competitors' latest prices."""

    product_id: ProductId
    """The product."""
    our_price: Cents
    """Our price."""
    lowest: Cents | None
    """The lowest in-stock competitor price (none: no data)."""
    highest: Cents | None
    """The highest in-stock competitor price."""
    average: Cents | None
    """The average in-stock competitor price, rounded."""
    rank: int
    """Our rank by price among us and the in-stock competitors (1: cheapest)."""
    cheapest_competitor_id: CompetitorId | None
    """The competitor with the lowest price."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of PriceWatch", field=field, hint="use an employee's e-mail")


def _floor(product: Product, rule: RepricingRule) -> int:
    return round(product.cost * (1 + rule.floor_margin_percent / 100))


def _guard_product(ctx: Ctx, new: Any, old: Any) -> None:
    if new.price < new.cost and (old is None or new.price != old.price):
        raise RuleViolation(
            f"price {new.price} is below cost {new.cost}",
            field="price",
            hint="price at or above cost; PriceWatch never sells at a loss",
        )


def _guard_rule(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    if new.strategy == "target_margin" and new.margin_percent <= 0:
        raise RuleViolation("a target_margin rule needs margin_percent above 0", field="margin_percent", hint="e.g. 30")
    if new.strategy == "beat_lowest" and new.beat_by <= 0:
        raise RuleViolation("a beat_lowest rule needs beat_by above 0 cents", field="beat_by", hint="e.g. 100")
    if new.scope == "product":
        scoped = [ctx.get(Product, new.target, field="target")]
    else:
        scoped = ctx.where(Product, **{new.scope: new.target})
    if not scoped:
        raise RuleViolation(
            f"no product has {new.scope} {new.target!r}",
            field="target",
            hint=f"list products to pick a {new.scope} in use",
        )
    rivals = [
        r for r in ctx.where(RepricingRule, scope=new.scope, target=new.target, status="active") if r.id != new.id
    ]
    if old is None and rivals:
        raise Conflict(
            f"active rule {rivals[0].id} already prices {new.scope} {new.target!r}",
            field="target",
            hint="update that rule, or pause it first",
        )
    for p in scoped if new.ceiling is not None else []:
        if new.ceiling < _floor(p, new):
            raise RuleViolation(
                f"ceiling {new.ceiling} is below the floor {_floor(p, new)} of {p.sku}",
                field="ceiling",
                hint="raise the ceiling or lower floor_margin_percent",
            )


def _awaiting(ctx: Ctx, product_id: str) -> bool:
    return any(ctx.first(PriceChange, product_id=product_id, status=st) for st in ("pending", "approved"))


def _guard_product_delete(ctx: Ctx, new: Any, record: Any) -> None:
    if _awaiting(ctx, record.id):
        raise Conflict(
            f"product {record.sku} has price changes awaiting a decision",
            field="product_id",
            hint="reject or push its pending and approved changes first",
        )


products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prd",
    create=("sku", "name", "brand", "category", "cost", "price", "currency"),
    filters=("sku", "brand", "category"),
    search=("name", "sku"),
    update=("name", "brand", "category", "cost"),
    unique=("sku",),
    guard_create=_guard_product,
    guard_update=_guard_product,
    guard_delete=_guard_product_delete,
)
competitors = service.resource(
    Competitor,
    name="competitor",
    plural="competitors",
    prefix="cmp",
    create=("name", "domain"),
    filters=("domain",),
    search=("name",),
    unique=("domain",),
    delete=False,
)
urls = service.resource(
    CompetitorUrl,
    name="url",
    plural="urls",
    prefix="url",
    create=False,
    filters=("product_id", "competitor_id", "status"),
    search=("url",),
    title="competitor URL",
)
observations = service.resource(
    Observation,
    name="observation",
    plural="observations",
    prefix="obs",
    create=False,
    get=False,
    filters=("url_id", "product_id", "competitor_id", "in_stock"),
    delete=False,
    title="price observation",
)
rules = service.resource(
    RepricingRule,
    name="rule",
    plural="rules",
    prefix="rule",
    create=False,
    filters=("scope", "target", "strategy", "status", "owner_email"),
    search=("name",),
    update=("name", "beat_by", "margin_percent", "floor_margin_percent", "ceiling"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the repricing rule"),
    },
    guard_create=_guard_rule,
    guard_update=_guard_rule,
    title="repricing rule",
)
changes = service.resource(
    PriceChange,
    name="change",
    plural="changes",
    prefix="chg",
    create=False,
    filters=("product_id", "rule_id", "status", "approved_by"),
    delete=False,
    title="price change",
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="alr",
    create=False,
    filters=("kind", "product_id", "competitor_id", "status"),
    delete=False,
    transitions={
        "acknowledge": Transition("status", ("open",), "acknowledged", "acknowledge the price alert"),
        "resolve": Transition("status", ("open", "acknowledged"), "resolved", "resolve the price alert"),
    },
    title="price alert",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_add_url(ctx: Ctx) -> dict[str, Any] | None:
    for comp in ctx.where(Competitor):
        for p in ctx.where(Product):
            if not ctx.where(CompetitorUrl, product_id=p.id, competitor_id=comp.id):
                return {
                    "product_id": p.id,
                    "competitor_id": comp.id,
                    "url": f"https://www.{comp.domain}/products/{p.sku.lower()}",
                }
    return None


@service.tool(intent="track a competitor's product page", write=True, example=_example_add_url)
def add_url(ctx: Ctx, product_id: ProductId, competitor_id: CompetitorId, url: Url) -> CompetitorUrl:
    """Match a competitor's product page to one of our products; its prices are tracked from now on.

    Args:
        product_id: Our product.
        competitor_id: The competitor.
        url: The product page; it must be on the competitor's domain.
    """
    product = ctx.get(Product, product_id, field="product_id")
    comp = ctx.get(Competitor, competitor_id, field="competitor_id")
    host = (urlparse(url).hostname or "").lower()
    if host != comp.domain and not host.endswith("." + comp.domain):
        raise RuleViolation(
            f"{host} is not on {comp.name}'s domain {comp.domain}",
            field="url",
            hint=f"give a page under https://www.{comp.domain}/",
        )
    if ctx.first(CompetitorUrl, product_id=product.id, url=url) is not None:
        raise Conflict(f"{url} is already tracked for {product.sku}", field="url", hint="list_urls shows it")
    if ctx.first(CompetitorUrl, product_id=product.id, competitor_id=comp.id) is not None:
        raise Conflict(
            f"{comp.name} already has a tracked page for {product.sku}",
            field="competitor_id",
            hint="delete that URL first to replace it",
        )
    if len(ctx.where(CompetitorUrl, product_id=product.id)) >= MAX_URLS:
        raise RuleViolation(
            f"{product.sku} already tracks {MAX_URLS} competitor URLs",
            field="product_id",
            hint="delete a URL first",
        )
    return ctx.create(CompetitorUrl, product_id=product.id, competitor_id=comp.id, url=url)


@service.tool(
    intent="record a competitor's price",
    write=True,
    example=first_example(CompetitorUrl, "url_id", where={"status": "tracking"}, price=1999, in_stock=True),
)
def record_price(ctx: Ctx, url_id: UrlId, price: Cents, in_stock: bool = True) -> Observation:
    """Record the price a crawl saw on a competitor URL; an undercut, a stock-out or a rise raises an alert.

    Args:
        url_id: The competitor URL.
        price: The price seen, in cents (above 0).
        in_stock: Whether the item was in stock.
    """
    link = ctx.get(CompetitorUrl, url_id, field="url_id")
    if link.status != "tracking":
        raise RuleViolation(f"URL {link.id} is {link.status}", field="url_id", hint="fix or replace the URL first")
    if price <= 0:
        raise RuleViolation("a price must be above 0", field="price", hint="give the price in cents")
    product = ctx.get(Product, link.product_id)
    kind: AlertKind | None = None
    if not in_stock and link.in_stock is not False:
        kind = "out_of_stock"
    elif in_stock and price < product.price:
        kind = "undercut"
    elif in_stock and link.last_price is not None and price > link.last_price:
        kind = "price_increase"
    obs = ctx.create(
        Observation,
        url_id=link.id,
        product_id=product.id,
        competitor_id=link.competitor_id,
        price=price,
        in_stock=in_stock,
        observed_at=ctx.now(),
    )
    ctx.update(link, last_price=price, in_stock=in_stock, last_checked=ctx.now())
    if kind is not None:
        ctx.create(
            Alert,
            kind=kind,
            product_id=product.id,
            competitor_id=link.competitor_id,
            competitor_price=price,
            our_price=product.price,
        )
    return obs


@service.tool(
    intent="mark the competitor URL broken",
    write=True,
    example=first_example(CompetitorUrl, "url_id", where={"status": "tracking"}),
)
def mark_url_broken(ctx: Ctx, url_id: UrlId) -> CompetitorUrl:
    """Mark a tracked URL broken (the page is gone); it is left out of repricing until replaced.

    Args:
        url_id: The competitor URL.
    """
    link = ctx.get(CompetitorUrl, url_id, field="url_id")
    if link.status == "broken":
        raise Conflict(f"URL {link.id} is already broken", field="url_id", hint="delete it and add the new page")
    return ctx.update(link, status="broken")


def _lowest(ctx: Ctx, product_id: str) -> tuple[int | None, str | None, list[int]]:
    live = [
        u
        for u in ctx.where(CompetitorUrl, product_id=product_id, status="tracking")
        if u.in_stock and u.last_price is not None
    ]
    prices = [u.last_price for u in live if u.last_price is not None]
    if not live:
        return None, None, []
    best = min(live, key=lambda u: (u.last_price or 0, u.id))
    return best.last_price, best.competitor_id, prices


def _rule_for(ctx: Ctx, product: Product) -> RepricingRule | None:
    for scope, target in (("product", product.id), ("brand", product.brand), ("category", product.category)):
        rule = ctx.first(RepricingRule, scope=scope, target=target, status="active")
        if rule is not None:
            return rule
    return None


def _has_rule(ctx: Ctx, product: Product) -> bool:
    return _rule_for(ctx, product) is not None and _lowest(ctx, product.id)[0] is not None


@service.tool(
    intent="run repricing for the product",
    write=True,
    example=first_example(Product, "product_id", match=_has_rule),
)
def reprice_product(ctx: Ctx, product_id: ProductId) -> PriceChange:
    """Apply the product's active rule (product, then brand, then category) and propose a pending price change.

    The proposal is clamped to the rule's floor (cost plus floor margin) and ceiling.

    Args:
        product_id: The product.
    """
    product = ctx.get(Product, product_id, field="product_id")
    rule = _rule_for(ctx, product)
    if rule is None:
        raise RuleViolation(
            f"no active rule applies to {product.sku}",
            field="product_id",
            hint="create a rule for the product, its brand or its category",
        )
    if _awaiting(ctx, product.id):
        raise Conflict(
            f"{product.sku} already has a price change awaiting a decision",
            field="product_id",
            hint="approve and push, or reject, the open change first",
        )
    lowest, _, _ = _lowest(ctx, product.id)
    if rule.strategy == "target_margin":
        price = round(product.cost * (1 + rule.margin_percent / 100))
    elif lowest is None:
        raise RuleViolation(
            f"no in-stock competitor price is known for {product.sku}",
            field="product_id",
            hint="record competitor prices first",
        )
    else:
        price = lowest - (rule.beat_by if rule.strategy == "beat_lowest" else 0)
    price = max(price, _floor(product, rule))
    if rule.ceiling is not None:
        price = min(price, rule.ceiling)
    if price == product.price:
        raise Conflict(
            f"{product.sku} is already at the price its rule gives ({price})",
            field="product_id",
            hint="nothing to change",
        )
    return ctx.create(
        PriceChange,
        product_id=product.id,
        rule_id=rule.id,
        old_price=product.price,
        new_price=price,
        lowest_competitor=lowest,
    )


def _decide(ctx: Ctx, change_id: str, by: str) -> PriceChange:
    change = ctx.get(PriceChange, change_id, field="change_id")
    if change.status != "pending":
        raise RuleViolation(f"change {change.id} is {change.status}", field="change_id", hint="only pending changes")
    _staff(ctx, by, "approved_by")
    return change


def _example_decide(ctx: Ctx, note: str) -> dict[str, Any] | None:
    c = ctx.first(PriceChange, status="pending")
    out = None if c is None else {"change_id": c.id, "approved_by": ctx.population.employees[0].email}
    return out if out is None or not note else out | {"note": note}


@service.tool(
    intent="approve the price change",
    write=True,
    example=lambda ctx: _example_decide(ctx, ""),
)
def approve_change(ctx: Ctx, change_id: ChangeId, approved_by: Email) -> PriceChange:
    """Approve a pending price change so that it can be pushed to the store.

    Args:
        change_id: The price change.
        approved_by: The employee approving it.
    """
    change = _decide(ctx, change_id, approved_by)
    return ctx.update(change, status="approved", approved_by=approved_by)


@service.tool(
    intent="reject the price change",
    write=True,
    example=lambda ctx: _example_decide(ctx, "Keep the price through the promotion."),
)
def reject_change(ctx: Ctx, change_id: ChangeId, approved_by: Email, note: Text) -> PriceChange:
    """Reject a pending price change, with the reason.

    Args:
        change_id: The price change.
        approved_by: The employee rejecting it.
        note: Why (required).
    """
    change = _decide(ctx, change_id, approved_by)
    if not note.strip():
        raise RuleViolation("a rejection needs a reason", field="note", hint="say why the price stays")
    return ctx.update(change, status="rejected", approved_by=approved_by, note=note.strip())


@service.tool(
    intent="push the price change to the store",
    write=True,
    example=first_example(PriceChange, "change_id", where={"status": "approved"}),
)
def push_change(ctx: Ctx, change_id: ChangeId) -> PriceChange:
    """Push an approved price change live: the product's price becomes the new price.

    Args:
        change_id: The price change.
    """
    change = ctx.get(PriceChange, change_id, field="change_id")
    if change.status != "approved":
        raise RuleViolation(
            f"change {change.id} is {change.status}",
            field="change_id",
            hint="only approved changes are pushed; approve it with repricing__approve_change",
        )
    product = ctx.get(Product, change.product_id)
    if product.price != change.old_price:
        raise Conflict(
            f"{product.sku}'s price moved from {change.old_price} to {product.price} since the proposal",
            field="change_id",
            hint="reject it and run repricing again",
        )
    ctx.update(product, price=change.new_price)
    return ctx.update(change, status="pushed", pushed_at=ctx.now())


def _example_rule(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Product):
        if _rule_for(ctx, p) is None and not ctx.where(RepricingRule, scope="product", target=p.id):
            return {
                "name": f"Beat lowest on {p.sku}",
                "scope": "product",
                "target": p.id,
                "strategy": "beat_lowest",
                "beat_by": 50,
                "owner_email": ctx.population.employees[0].email,
            }
    return None


@service.tool(intent="create a repricing rule", write=True, example=_example_rule)
def create_rule(
    ctx: Ctx,
    name: Title,
    scope: RuleScope,
    target: Label,
    strategy: Strategy,
    owner_email: Email,
    beat_by: Cents = 0,
    margin_percent: Percent = 0,
    floor_margin_percent: Percent = 5,
    ceiling: Cents | None = None,
) -> RepricingRule:
    """Create an active repricing rule for a product, a brand or a category; one active rule per target.

    Args:
        name: The rule's name.
        scope: product, brand or category.
        target: The product id, brand or category it applies to.
        strategy: match_lowest, beat_lowest or target_margin.
        owner_email: The employee who owns the rule.
        beat_by: For beat_lowest: cents under the lowest competitor (above 0).
        margin_percent: For target_margin: the margin over cost (above 0).
        floor_margin_percent: The lowest margin over cost a proposed price may have.
        ceiling: The highest price it may propose, in cents.
    """
    rule = ctx.create(
        RepricingRule,
        name=name,
        scope=scope,
        target=target,
        strategy=strategy,
        owner_email=owner_email,
        beat_by=beat_by,
        margin_percent=margin_percent,
        floor_margin_percent=floor_margin_percent,
        ceiling=ceiling,
    )
    _guard_rule(ctx, rule, None)
    return rule


@service.tool(
    intent="resume the repricing rule",
    write=True,
    example=first_example(RepricingRule, "rule_id", where={"status": "paused"}),
)
def resume_rule(ctx: Ctx, rule_id: RuleId) -> RepricingRule:
    """Resume a paused rule; no other active rule may price the same product, brand or category.

    Args:
        rule_id: The rule.
    """
    rule = ctx.get(RepricingRule, rule_id, field="rule_id")
    if rule.status != "paused":
        raise RuleViolation(f"rule {rule.id} is {rule.status}", field="rule_id", hint="only paused rules resume")
    other = ctx.first(RepricingRule, scope=rule.scope, target=rule.target, status="active")
    if other is not None:
        raise Conflict(
            f"active rule {other.id} already prices {rule.scope} {rule.target!r}",
            field="rule_id",
            hint="pause that rule first",
        )
    return ctx.update(rule, status="active")


@service.tool(intent="show the product's price position", example=first_example(Product, "product_id"))
def price_position(ctx: Ctx, product_id: ProductId) -> PricePosition:
    """Where our price stands among the competitors' latest in-stock prices.

    Args:
        product_id: The product.
    """
    product = ctx.get(Product, product_id, field="product_id")
    lowest, who, prices = _lowest(ctx, product.id)
    return PricePosition(
        product_id=product.id,
        our_price=product.price,
        lowest=lowest,
        highest=max(prices) if prices else None,
        average=round(sum(prices) / len(prices)) if prices else None,
        rank=1 + sum(p < product.price for p in prices),
        cheapest_competitor_id=who,
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """The home company's products, competitors from the world, URLs with price history, rules, changes, alerts."""
    pop = s.population
    owners = pop.staff("Sales", "Marketing", fallback=3)
    comps = [
        s.create(Competitor, name=c.name, domain=c.domain, created_at=s.ago(days=300))
        for c in [c for c in pop.companies if not c.home][:4]
    ]
    others = [c.name[:80] for c in pop.companies if not c.home][4:6] or [pop.home.name[:80]]
    made: list[Product] = []
    for k, item in enumerate(pop.products[:12]):
        made.append(
            s.create(
                Product,
                sku=item.sku,
                name=item.name,
                brand=pop.home.name[:80] if k % 3 else others[k % len(others)],
                category=item.category[:80],
                cost=item.cost_cents,
                price=item.price_cents,
                created_at=s.ago(days=200 - k),
                updated_at=s.ago(days=20 - k),
            )
        )
    for k, p in enumerate(made):
        for j, comp in enumerate(comps):
            if (k + j) % 4 == 3:
                continue
            factor = 0.88 + 0.06 * ((k + 2 * j) % 5)
            prices = [round(p.price * (factor + 0.02 * d)) for d in (2, 1, 0)]
            stock = (k + j) % 7 != 0
            link = s.create(
                CompetitorUrl,
                product_id=p.id,
                competitor_id=comp.id,
                url=f"https://www.{comp.domain}/products/{p.sku.lower()}",
                status="broken" if (k, j) == (5, 1) else "tracking",
                last_price=prices[-1],
                in_stock=stock,
                last_checked=s.ago(hours=6),
                created_at=s.ago(days=90),
            )
            for d, price in zip((14, 7, 0), prices, strict=True):
                s.create(
                    Observation,
                    url_id=link.id,
                    product_id=p.id,
                    competitor_id=comp.id,
                    price=price,
                    in_stock=stock or d > 0,
                    observed_at=s.ago(days=d, hours=6),
                )
            undercut = stock and prices[-1] < p.price and (k + j) % 3 == 0
            if undercut or not stock:
                s.create(
                    Alert,
                    kind="undercut" if stock else "out_of_stock",
                    product_id=p.id,
                    competitor_id=comp.id,
                    competitor_price=prices[-1],
                    our_price=p.price,
                    status=("open", "acknowledged", "resolved")[k % 3] if stock else "open",
                    created_at=s.ago(hours=6),
                    updated_at=s.ago(hours=5),
                )
    _seed_rules(s, made, [o.email for o in owners])


def _seed_rules(s: SeedContext, made: list[Product], owners: list[str]) -> None:
    """A category rule, a brand rule, a paused product rule, and price changes in every status."""
    cats = sorted({p.category for p in made})
    specs: list[tuple[str, RuleScope, str, Strategy, int, float, RuleStatus]] = [
        (f"Match lowest in {cats[0]}", "category", cats[0], "match_lowest", 0, 0, "active"),
        (f"Beat lowest on {made[1].brand}", "brand", made[1].brand, "beat_lowest", 100, 0, "active"),
        (f"Margin hold {made[0].sku}", "product", made[0].id, "target_margin", 0, 40, "paused"),
    ]
    if len(cats) > 1:
        specs.append((f"Margin target in {cats[1]}", "category", cats[1], "target_margin", 0, 35, "active"))
    rules_made = [
        s.create(
            RepricingRule,
            name=name,
            scope=scope,
            target=target,
            strategy=strategy,
            beat_by=beat,
            margin_percent=margin,
            floor_margin_percent=10,
            status=status,
            owner_email=owners[k % len(owners)],
            created_at=s.ago(days=60 - k),
            updated_at=s.ago(days=10 - k),
        )
        for k, (name, scope, target, strategy, beat, margin, status) in enumerate(specs)
    ]
    plan: tuple[tuple[ChangeStatus, int], ...] = (("pushed", 20), ("rejected", 9), ("approved", 1), ("pending", 0))
    covered = [
        (p, r)
        for p in reversed(made)
        for r in rules_made
        if r.status == "active" and r.target in (p.id, p.brand, p.category)
    ]
    for status, days in plan:
        p, rule = covered[0]
        covered = [(q, r) for q, r in covered if q.id != p.id]
        new = max(round(p.price * 0.95), round(p.cost * 1.1))
        s.create(
            PriceChange,
            product_id=p.id,
            rule_id=rule.id,
            old_price=round(p.price * 1.05) if status == "pushed" else p.price,
            new_price=p.price if status == "pushed" else new,
            status=status,
            approved_by=None if status == "pending" else owners[0],
            note="Hold the price until the spring catalogue." if status == "rejected" else "",
            pushed_at=s.ago(days=days) if status == "pushed" else None,
            created_at=s.ago(days=days + 1),
            updated_at=s.ago(days=days),
        )
