"""Catalogix PIM: product information management: attributes, families, product values, completeness, channels.

Modeled on the Akeneo PIM REST API (``/api/rest/v1/attributes``,
``/families`` with ``attribute_requirements`` per channel, ``/categories``,
``/channels`` with locales, ``/products`` with ``values`` keyed by attribute,
``locale`` and ``scope``, ``completenesses``): an attribute has a type (text,
textarea, number, boolean, simpleselect, price) and is localizable and/or
scopable; a family lists its attributes and, per channel, the ones required;
a product (identifier = SKU) belongs to a family and categories, and its
values must be for an attribute of its family, carry a locale exactly when the
attribute is localizable (one of the channel locales) and a channel exactly
when it is scopable, and fit the type (numbers, true/false, a listed option).
Completeness per channel and locale is the share of required attributes
filled; a product is published to a channel only when enabled and 100%
complete in every locale of that channel, and a publication can be withdrawn.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, IdOf, Sku, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "pim",
    title="Catalogix PIM",
    category="product_information",
    modeled_on="Akeneo PIM REST API (attributes, families with channel requirements, categories, channels and "
    "locales, products with localizable and scopable values, completeness)",
    description="Product information management: the attributes products are described with, families and "
    "what each channel requires of them, the category tree, products with their values per locale and "
    "channel, completeness, and publication to sales channels.",
)

AttributeId = Annotated[str, IdOf("pim.attribute")]
FamilyId = Annotated[str, IdOf("pim.family")]
ProductId = Annotated[str, IdOf("pim.product")]
PublicationId = Annotated[str, IdOf("pim.publication")]
ChannelId = Annotated[str, IdOf("pim.channel")]
CategoryId = Annotated[str, IdOf("pim.category")]

Code = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{1,59}$")]
"""An Akeneo code: lower case, digits and underscores."""
Locale = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}_[A-Z]{2}$")]
"""A locale such as en_US."""
AttrType = Literal["text", "textarea", "number", "boolean", "simpleselect", "price"]


class Channel(Timestamped):
    """A sales channel (scope) and its locales."""

    id: ChannelId
    code: Code
    """The channel code (ecommerce, mobile, print)."""
    label: Title
    """Its label."""
    locales: tuple[Locale, ...]
    """The locales it publishes in."""


class Attribute(Timestamped):
    """A property products are described with."""

    id: AttributeId
    code: Code
    """The attribute code (unique)."""
    label: Title
    """Its label."""
    type: AttrType
    """text, textarea, number, boolean, simpleselect or price."""
    localizable: bool = False
    """Whether values differ per locale."""
    scopable: bool = False
    """Whether values differ per channel."""
    options: tuple[Code, ...] = ()
    """The options of a simpleselect."""


class Family(Timestamped):
    """A family of products sharing attributes and requirements."""

    id: FamilyId
    code: Code
    """The family code (unique)."""
    label: Title
    """Its label."""
    attributes: tuple[Code, ...]
    """Its attributes' codes."""
    requirements: dict[str, tuple[Code, ...]] = Field(default_factory=dict)
    """Per channel code, the attributes required there."""


class Category(Timestamped):
    """A node of the category tree."""

    id: CategoryId
    code: Code
    """The category code."""
    label: Title
    """Its label."""
    parent: Code | None = None
    """The parent category's code."""


class ProductValue(Value):
    """One value of a product."""

    attribute: Code
    """The attribute code."""
    locale: Locale | None = None
    """The locale (localizable attributes only)."""
    scope: Code | None = None
    """The channel code (scopable attributes only)."""
    data: Text
    """The value, as text."""


class Product(Timestamped):
    """A product and its values."""

    id: ProductId
    identifier: Sku
    """The product identifier (SKU, unique)."""
    family: Code
    """Its family's code."""
    categories: tuple[Code, ...] = ()
    """Its categories' codes."""
    enabled: bool = True
    """Whether it may be published."""
    values: tuple[ProductValue, ...] = ()
    """Its values."""


class Publication(Timestamped):
    """A product published to a channel."""

    id: PublicationId
    product_id: ProductId
    """The product."""
    identifier: Sku
    """Its SKU."""
    channel: Code
    """The channel code."""
    status: Literal["live", "withdrawn"] = "live"
    """live or withdrawn."""
    published_at: DateTime
    """When it went live."""


class Completeness(Value):
    """A product's completeness on one channel and locale."""

    channel: Code
    """The channel."""
    locale: Locale
    """The locale."""
    required: int
    """Required attributes."""
    missing: list[str]
    """Required attributes without a value."""
    ratio: int
    """Percent complete."""


# -- rules ------------------------------------------------------------------------------------

channels = service.resource(
    Channel, name="channel", plural="channels", prefix="chn", create=False, filters=("code",), delete=False
)
attributes = service.resource(
    Attribute,
    name="attribute",
    plural="attributes",
    prefix="attr",
    create=False,
    filters=("code", "type", "localizable", "scopable"),
    search=("label",),
    update=("label",),
    delete=False,
)
families = service.resource(
    Family,
    name="family",
    plural="families",
    prefix="fam",
    create=False,
    filters=("code",),
    search=("label",),
    update=("label",),
    delete=False,
)
categories = service.resource(
    Category,
    name="category",
    plural="categories",
    prefix="cat",
    create=False,
    filters=("code", "parent"),
    search=("label",),
    update=("label",),
    delete=False,
)
products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prd",
    create=False,
    filters=("identifier", "family", "enabled"),
    update=("enabled",),
    delete=False,
)
publications = service.resource(
    Publication,
    name="publication",
    plural="publications",
    prefix="pub",
    create=False,
    filters=("product_id", "identifier", "channel", "status"),
    delete=False,
    transitions={"withdraw": Transition("status", ("live",), "withdrawn", "withdraw the product from the channel")},
)


# -- domain tools -----------------------------------------------------------------------------


def _by_code(ctx: Ctx, model: Any, code: str, field: str) -> Any:
    found = ctx.first(model, code=code)
    if found is None:
        raise RuleViolation(f"no {model.__name__.lower()} {code!r}", field=field, hint="list them to pick a code")
    return found


def _product(ctx: Ctx, identifier: str) -> Product:
    found = ctx.first(Product, identifier=identifier)
    if found is None:
        raise RuleViolation(f"no product {identifier}", field="identifier", hint="find it with pim__list_products")
    return found


def _example_family(ctx: Ctx) -> dict[str, Any] | None:
    return {"code": "garden_tools", "label": "Garden tools", "attributes": ["name", "description", "weight_kg"]}


@service.tool(intent="create the product family", write=True, example=_example_family)
def create_family(ctx: Ctx, code: Code, label: Title, attributes: list[Code]) -> Family:
    """Create a family from existing attributes (codes unique); requirements are added per channel.

    Args:
        code: The family code.
        label: Its label.
        attributes: Its attributes' codes.
    """
    if ctx.first(Family, code=code) is not None:
        raise Conflict(f"family {code} exists", field="code", hint="pick another code")
    for attr in attributes:
        _by_code(ctx, Attribute, attr, "attributes")
    if len(set(attributes)) != len(attributes):
        raise RuleViolation("an attribute is listed twice", field="attributes", hint="list each once")
    return ctx.create(Family, code=code, label=label, attributes=tuple(attributes))


def _example_require(ctx: Ctx) -> dict[str, Any] | None:
    fam = ctx.first(Family)
    if fam is None:
        return None
    free = [a for a in fam.attributes if a not in fam.requirements.get("print", ())]
    return {"family": fam.code, "channel": "print", "attribute": free[0]} if free else None


@service.tool(intent="require the attribute on the channel", write=True, example=_example_require)
def require_attribute(ctx: Ctx, family: Code, channel: Code, attribute: Code) -> Family:
    """Make one of a family's attributes required for completeness on a channel.

    Args:
        family: The family code.
        channel: The channel code.
        attribute: The attribute code (of the family).
    """
    fam: Family = _by_code(ctx, Family, family, "family")
    _by_code(ctx, Channel, channel, "channel")
    if attribute not in fam.attributes:
        raise RuleViolation(f"{attribute} is not in family {family}", field="attribute", hint="add it to the family")
    now = fam.requirements.get(channel, ())
    if attribute in now:
        raise Conflict(f"{attribute} is already required on {channel}", field="attribute", hint="nothing to do")
    return ctx.update(fam, requirements=fam.requirements | {channel: (*now, attribute)})


def _example_product(ctx: Ctx) -> dict[str, Any] | None:
    fam = ctx.first(Family)
    return None if fam is None else {"identifier": "NEW-2001", "family": fam.code, "categories": []}


@service.tool(intent="create the product", write=True, example=_example_product)
def create_product(ctx: Ctx, identifier: Sku, family: Code, categories: list[Code] | None = None) -> Product:
    """Create a product by SKU (unique) in a family and categories.

    Args:
        identifier: The SKU.
        family: The family code.
        categories: Category codes.
    """
    if ctx.first(Product, identifier=identifier) is not None:
        raise Conflict(f"product {identifier} exists", field="identifier", hint="update that product")
    _by_code(ctx, Family, family, "family")
    for cat in categories or ():
        _by_code(ctx, Category, cat, "categories")
    return ctx.create(Product, identifier=identifier, family=family, categories=tuple(categories or ()))


def _fits(attr: Attribute, data: str) -> bool:
    if attr.type in ("number", "price"):
        try:
            float(data)
        except ValueError:
            return False
        return True
    if attr.type == "boolean":
        return data in ("true", "false")
    if attr.type == "simpleselect":
        return data in attr.options
    return bool(data.strip())


def _example_value(ctx: Ctx) -> dict[str, Any] | None:
    prod = ctx.first(Product)
    return (
        None
        if prod is None
        else {"identifier": prod.identifier, "attribute": "name", "data": "Cordless drill", "locale": "en_US"}
    )


@service.tool(intent="set the product's value", write=True, example=_example_value)
def set_value(
    ctx: Ctx, identifier: Sku, attribute: Code, data: Text, locale: Locale | None = None, scope: Code | None = None
) -> Product:
    """Set a product's value for an attribute of its family; locale and scope exactly as the attribute needs.

    Args:
        identifier: The product's SKU.
        attribute: The attribute code.
        data: The value (numbers as digits, booleans as true/false, an option code for a select).
        locale: The locale, for a localizable attribute (one a channel publishes in).
        scope: The channel code, for a scopable attribute.
    """
    prod = _product(ctx, identifier)
    attr = _by_code(ctx, Attribute, attribute, "attribute")
    if attribute not in _by_code(ctx, Family, prod.family, "identifier").attributes:
        raise RuleViolation(f"{attribute} is not in family {prod.family}", field="attribute", hint="use a family one")
    if attr.localizable != (locale is not None):
        need = "needs a locale" if attr.localizable else "takes no locale"
        raise RuleViolation(f"{attribute} {need}", field="locale", hint="match the attribute")
    if locale is not None and not any(locale in c.locales for c in ctx.scan(Channel)):
        raise RuleViolation(f"no channel publishes in {locale}", field="locale", hint="use a channel's locale")
    if attr.scopable != (scope is not None):
        need = "needs a channel" if attr.scopable else "takes no channel"
        raise RuleViolation(f"{attribute} {need}", field="scope", hint="match the attribute")
    if scope is not None:
        _by_code(ctx, Channel, scope, "scope")
    if not _fits(attr, data):
        raise RuleViolation(f"{data!r} is not a valid {attr.type}", field="data", hint="give a value of that type")
    kept = tuple(v for v in prod.values if (v.attribute, v.locale, v.scope) != (attribute, locale, scope))
    value = ProductValue(attribute=attribute, locale=locale, scope=scope, data=data)
    return ctx.update(prod, values=(*kept, value))


def _completeness(ctx: Ctx, prod: Product, channel: Channel) -> list[Completeness]:
    fam = ctx.first(Family, code=prod.family)
    required = () if fam is None else fam.requirements.get(channel.code, ())
    attrs = {a.code: a for a in ctx.scan(Attribute) if a.code in required}
    out = []
    for locale in channel.locales:
        missing = []
        for code in required:
            a = attrs[code]
            key = (code, locale if a.localizable else None, channel.code if a.scopable else None)
            if not any((v.attribute, v.locale, v.scope) == key for v in prod.values):
                missing.append(code)
        ratio = 100 if not required else round(100 * (len(required) - len(missing)) / len(required))
        out.append(
            Completeness(channel=channel.code, locale=locale, required=len(required), missing=missing, ratio=ratio)
        )
    return out


@service.tool(
    intent="check the product's completeness", example=first_example(Product, None, fields={"identifier": "identifier"})
)
def product_completeness(ctx: Ctx, identifier: Sku) -> list[Completeness]:
    """A product's completeness on every channel and locale, with what is missing.

    Args:
        identifier: The product's SKU.
    """
    prod = _product(ctx, identifier)
    return [c for ch in ctx.scan(Channel) for c in _completeness(ctx, prod, ch)]


def _example_publish(ctx: Ctx) -> dict[str, Any] | None:
    for prod in ctx.where(Product, enabled=True):
        for ch in ctx.scan(Channel):
            live = ctx.first(Publication, product_id=prod.id, channel=ch.code, status="live")
            if live is None and all(c.ratio == 100 for c in _completeness(ctx, prod, ch)):
                return {"identifier": prod.identifier, "channel": ch.code}
    return None


@service.tool(intent="publish the product to the channel", write=True, example=_example_publish)
def publish_product(ctx: Ctx, identifier: Sku, channel: Code) -> Publication:
    """Publish an enabled product to a channel where it is complete in every locale.

    Args:
        identifier: The product's SKU.
        channel: The channel code.
    """
    prod = _product(ctx, identifier)
    ch = _by_code(ctx, Channel, channel, "channel")
    if not prod.enabled:
        raise RuleViolation(f"{identifier} is disabled", field="identifier", hint="enable it first")
    if ctx.first(Publication, product_id=prod.id, channel=channel, status="live") is not None:
        raise Conflict(f"{identifier} is live on {channel}", field="channel", hint="nothing to do")
    gaps = [c for c in _completeness(ctx, prod, ch) if c.ratio < 100]
    if gaps:
        raise RuleViolation(
            f"{identifier} is incomplete on {channel}: {gaps[0].locale} misses {', '.join(gaps[0].missing)}",
            field="channel",
            hint="fill them with pim__set_value",
        )
    return ctx.create(Publication, product_id=prod.id, identifier=identifier, channel=channel, published_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

ATTRS: tuple[tuple[str, str, AttrType, bool, bool], ...] = (
    ("name", "Name", "text", True, False),
    ("description", "Description", "textarea", True, True),
    ("weight_kg", "Weight (kg)", "number", False, False),
    ("price", "Price", "price", False, True),
    ("color", "Color", "simpleselect", False, False),
    ("waterproof", "Waterproof", "boolean", False, False),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Channels, attributes, families per product category, the world's products with values, publications."""
    pop = s.population
    for code, label, locales in (
        ("ecommerce", "E-commerce", ("en_US", "de_DE")),
        ("mobile", "Mobile app", ("en_US",)),
        ("print", "Print catalog", ("en_US",)),
    ):
        s.create(Channel, code=code, label=label, locales=locales)
    for code, label, attr_type, per_locale, per_scope in ATTRS:
        options = ("black", "white", "red", "blue") if attr_type == "simpleselect" else ()
        s.create(
            Attribute,
            code=code,
            label=label,
            type=attr_type,
            localizable=per_locale,
            scopable=per_scope,
            options=options,
        )
    kinds = sorted({p.category for p in pop.products})
    for kind in kinds:
        code = "".join(ch if ch.isalnum() else "_" for ch in kind.lower())[:50] or "general"
        s.create(
            Family,
            code=code,
            label=kind.title(),
            attributes=tuple(a[0] for a in ATTRS),
            requirements={
                "ecommerce": ("name", "description", "price"),
                "mobile": ("name",),
                "print": ("name", "weight_kg"),
            },
        )
        s.create(Category, code=f"cat_{code}", label=kind.title(), parent="master")
    s.create(Category, code="master", label="Master catalog")
    for k, product in enumerate(pop.products[:16]):
        fam = "".join(ch if ch.isalnum() else "_" for ch in product.category.lower())[:50] or "general"
        values = [ProductValue(attribute="name", locale="en_US", data=product.name)]
        if k % 2 == 0:
            values.append(ProductValue(attribute="name", locale="de_DE", data=product.name))
            values.append(ProductValue(attribute="price", scope="ecommerce", data=f"{product.price_cents / 100:.2f}"))
            for loc in ("en_US", "de_DE"):
                values.append(
                    ProductValue(attribute="description", locale=loc, scope="ecommerce", data=f"{product.name}.")
                )
        if k % 3 == 0:
            values.append(ProductValue(attribute="weight_kg", data=f"{product.weight_grams / 1000:.2f}"))
        prod = s.create(
            Product,
            identifier=product.sku,
            family=fam,
            categories=(f"cat_{fam}",),
            enabled=k != 5,
            values=tuple(values),
        )
        if k % 4 == 0:
            s.create(
                Publication,
                product_id=prod.id,
                identifier=prod.identifier,
                channel="ecommerce",
                published_at=s.ago(days=k + 1),
            )
