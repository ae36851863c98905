"""Nearby: local business data (search by location and category, details, hours, reviews) and saved collections.

Modeled on the Yelp Fusion API: ``/businesses/search`` (``term``, ``location`` or
``latitude``/``longitude``, ``radius`` up to 40 000 m, ``categories``, ``price=1..4``,
``open_now``, ``sort_by=best_match|rating|review_count|distance``, ``limit``),
``/businesses/{id}`` (``rating`` in half stars, ``review_count``, ``price``, ``hours`` with
``is_open_now`` and ``is_overnight``, ``transactions`` such as ``delivery``, ``pickup`` and
``restaurant_reservation``, ``is_closed``), ``/businesses/{id}/reviews`` (up to three
excerpts), ``/businesses/search/phone``, ``/businesses/matches`` (name and address),
``/autocomplete``, ``/transactions/delivery/search`` and ``/categories``; business ids are
Yelp-style aliases (``blue-harbor-coffee-lyon``).

An open-world service: every city of the world has a deterministic set of cafés, restaurants,
bars, gyms, salons and services, and every company of the world's population has its own
page at its office address and phone number, so a company found in the CRM is found here by
phone. Hours are local to the city (opening is judged at the episode clock in the city's time
zone); review authors are people of the population living in that city. Stored state is the
team's collections (Yelp Collections): unique by name per owner, a business is in a
collection once, a permanently closed business cannot be added, and an item goes
``want_to_go`` → ``visited``.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    City,
    DateTime,
    Email,
    IdOf,
    Latitude,
    Longitude,
    Phone,
    PostalAddress,
    SemanticType,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold
from compoworld.world.geo import haversine_m

__all__ = ["service"]

service = Service(
    "localbiz",
    title="Nearby",
    category="local_business_data",
    modeled_on="Yelp Fusion API (businesses/search, business details with hours, reviews, phone search, "
    "business match, autocomplete, delivery search, categories) with Yelp Collections",
    description="Local business data: search businesses by location, category, price and opening hours, get "
    "their details, hours and reviews, find a business by phone or by name and address, and keep the team's "
    "collections of places with notes and visits.",
)

BusinessId = Annotated[
    str, SemanticType("localbiz.business", kind="ref"), StringConstraints(pattern=r"^[a-z0-9-]{3,80}$")
]
CollectionId = Annotated[str, IdOf("localbiz.collection")]
ItemId = Annotated[str, IdOf("localbiz.collection_item")]
Term = Annotated[str, StringConstraints(min_length=2, max_length=80)]
Transaction = Literal["delivery", "pickup", "restaurant_reservation"]
MAX_ITEMS = 100

# alias | title | parent | name nouns | price levels | transactions | opening hours
_CATS = """\
coffee|Coffee & Tea|food|Coffee;Roasters;Espresso Bar|1,2|pickup|0700-1800
bakeries|Bakeries|food|Bakery;Bread Co.;Patisserie|1,2|pickup|0630-1600
italian|Italian|restaurants|Trattoria;Osteria;Pasta Bar|2,3|delivery,pickup,restaurant_reservation|1130-2230
japanese|Japanese|restaurants|Sushi;Ramen House;Izakaya|2,3,4|delivery,restaurant_reservation|1200-2300
mexican|Mexican|restaurants|Taqueria;Cantina;Tacos|1,2|delivery,pickup|1100-2200
vegan|Vegan|restaurants|Green Kitchen;Plant Table;Garden Cafe|2|delivery,pickup|1100-2100
bars|Bars|nightlife|Tavern;Social Club;Cocktail Bar|2,3|restaurant_reservation|1700-0200
gyms|Gyms|fitness|Fitness;Strength Lab;Athletic Club|2,3||0600-2200
hair|Hair Salons|beautysvc|Hair Studio;Salon;Barbers|2,3||0900-1900
florists|Florists|shopping|Flowers;Bloom Studio;Florist|2||0900-1800
coworkingspaces|Coworking Spaces|realestate|Workspace;Coworking;Hub|3||0800-2000
autorepair|Auto Repair|auto|Auto Service;Garage;Motor Works|2,3||0800-1800"""
_ADJ = "Blue;Golden;Little;Urban;Old Town;Corner;North Star;Red Door;Harbor;Maple;Copper;Sunny;Union;Park Lane"
_INDUSTRY = {
    "software": ("itservices", "IT Services & Computer Repair"),
    "consulting": ("businessconsulting", "Business Consulting"),
    "retail": ("shopping", "Shopping"),
    "healthcare": ("medcenters", "Medical Centers"),
    "logistics": ("couriers", "Couriers & Delivery Services"),
    "manufacturing": ("manufacturing", "Manufacturing"),
    "media": ("massmedia", "Mass Media"),
    "hardware": ("electronics", "Electronics"),
    "wholesale": ("wholesale_stores", "Wholesale Stores"),
}
_REVIEW_TEXT = (
    (5, "Outstanding from start to finish. We will be back with the whole team."),
    (4, "Really good, friendly staff; it gets busy at peak times."),
    (3, "Decent, but nothing special for the price."),
    (2, "Slow service and they got our order wrong."),
    (5, "Best in the neighbourhood, hands down."),
    (4, "Solid choice for a quick meeting nearby."),
)


@dataclass(frozen=True, slots=True)
class _Cat:
    alias: str
    title: str
    parent: str
    nouns: tuple[str, ...]
    prices: tuple[int, ...]
    transactions: tuple[str, ...]
    opens: int
    closes: int


def _parse_categories() -> dict[str, _Cat]:
    out = {}
    for row in _CATS.splitlines():
        alias, title, parent, nouns, prices, trans, hours = row.split("|")
        out[alias] = _Cat(
            alias,
            title,
            parent,
            tuple(nouns.split(";")),
            tuple(int(x) for x in prices.split(",")),
            tuple(x for x in trans.split(",") if x),
            int(hours[:4]),
            int(hours[5:]),
        )
    return out


_CATEGORIES = _parse_categories()


@dataclass(frozen=True, slots=True)
class _Biz:
    id: str
    name: str
    category: str
    category_title: str
    address: PostalAddress
    phone: str
    latitude: float
    longitude: float
    timezone: str
    rating: float
    review_count: int
    price: int
    transactions: tuple[str, ...]
    hours: tuple[tuple[int, int, int], ...]
    """(weekday 0 = Monday, opens hhmm, closes hhmm); closing before opening runs past midnight."""
    is_closed: bool
    reviewers: tuple[str, ...]


def _slug(*parts: str) -> str:
    return "-".join(fold(" ".join(parts)).split())


@per_population
def _build(pop: Population) -> dict[str, _Biz]:
    out: dict[str, _Biz] = {}
    for place in pop.places:
        r = random.Random(f"localbiz:{pop.seed}:{place.city}")
        locals_ = [f"{p.first_name} {p.last_name[0]}." for p in pop.people if p.place.city == place.city]
        streets = ("Market Street", "Station Road", "Church Lane", "Harbour Walk", "King Street", "Mill Road")
        for k, cat in enumerate(list(_CATEGORIES.values()) * 2):
            name = f"{r.choice(_ADJ.split(';'))} {r.choice(cat.nouns)}"
            bid = _slug(name, place.city)
            if bid in out:
                continue
            closed_day = r.choice((6, 0, None))
            hours = tuple(
                (d, cat.opens, cat.closes)
                for d in range(7)
                if d != closed_day and not (cat.parent == "auto" and d == 6)
            )
            count = r.randint(3, 1800)
            out[bid] = _Biz(
                bid,
                name,
                cat.alias,
                cat.title,
                PostalAddress(
                    street=f"{r.randint(1, 240)} {r.choice(streets)}",
                    city=place.city,
                    postal_code=f"{place.postal_prefix}{r.randint(100, 999)}",
                    country=place.country,
                ),
                place.phone_prefix + "".join(str(r.randint(0, 9)) for _ in range(max(6, 13 - len(place.phone_prefix)))),
                round(place.latitude + r.uniform(-0.06, 0.06), 6),
                round(place.longitude + r.uniform(-0.08, 0.08), 6),
                place.timezone,
                round(r.uniform(2.4, 5.0) * 2) / 2,
                count,
                r.choice(cat.prices),
                cat.transactions,
                hours,
                k % 11 == 10,
                tuple(r.sample(locals_, min(3, len(locals_)))),
            )
    for c in pop.companies:
        alias, title = _INDUSTRY.get(c.industry, ("professional", "Professional Services"))
        bid = _slug(c.name, c.place.city)
        r = random.Random(f"localbiz:{pop.seed}:{c.key}")
        out[bid] = _Biz(
            bid,
            c.name,
            alias,
            title,
            c.address,
            c.phone,
            round(c.place.latitude + r.uniform(-0.03, 0.03), 6),
            round(c.place.longitude + r.uniform(-0.04, 0.04), 6),
            c.place.timezone,
            round(r.uniform(3.0, 5.0) * 2) / 2,
            r.randint(1, 120),
            0,
            (),
            tuple((d, 900, 1800) for d in range(5)),
            False,
            (),
        )
    return out


def _all(ctx: Ctx) -> dict[str, _Biz]:
    return _build(ctx.population)


def _open_at(b: _Biz, when: dt.datetime) -> bool:
    local = when.astimezone(ZoneInfo(b.timezone))
    hhmm, day = local.hour * 100 + local.minute, local.weekday()
    for d, start, end in b.hours:
        if end > start and d == day and start <= hhmm < end:
            return True
        if end <= start and ((d == day and hhmm >= start) or ((d + 1) % 7 == day and hhmm < end)):
            return True
    return False


# -- result models -----------------------------------------------------------------------------------------


class Category(BaseModel):
    """A business category."""

    alias: str = Field(description="Category alias (coffee, italian, gyms, ...).")
    title: str = Field(description="Display title.")
    parent: str = Field(description="Parent category alias.")


class OpenHours(BaseModel):
    """Opening hours of one day."""

    day: int = Field(description="Weekday, 0 = Monday.")
    start: str = Field(description="Opening time, HHMM local.")
    end: str = Field(description="Closing time, HHMM local.")
    is_overnight: bool = Field(description="Whether it closes after midnight.")


class Business(BaseModel):
    """A business."""

    id: BusinessId = Field(description="Business id (alias).")
    name: str = Field(description="Name.")
    categories: list[Category] = Field(description="Categories.")
    rating: float = Field(description="Average rating, 1 to 5 in half stars.")
    review_count: int = Field(description="Number of reviews.")
    price: str | None = Field(description="Price level $ to $$$$ (None: not priced).")
    phone: Phone = Field(description="Phone number.")
    address: PostalAddress = Field(description="Address.")
    latitude: Latitude = Field(description="Latitude.")
    longitude: Longitude = Field(description="Longitude.")
    transactions: list[Transaction] = Field(description="delivery, pickup, restaurant_reservation.")
    is_closed: bool = Field(description="Whether it has closed for good.")
    is_open_now: bool = Field(description="Whether it is open at the episode's time, local to the city.")
    distance_m: float | None = Field(description="Metres from the searched point, when searching by point or city.")
    url: Url = Field(description="Business page.")


class BusinessDetail(Business):
    """A business with its weekly hours."""

    hours: list[OpenHours] = Field(description="Regular opening hours by weekday.")


class Review(BaseModel):
    """A review excerpt."""

    rating: int = Field(description="Stars 1-5.")
    text: str = Field(description="Excerpt.")
    user_name: str = Field(description="Reviewer (first name and initial).")
    time_created: DateTime = Field(description="When it was posted.")


# -- helpers -----------------------------------------------------------------------------------------------


def _business(ctx: Ctx, b: _Biz, origin: tuple[float, float] | None = None) -> Business:
    return Business(
        id=b.id,
        name=b.name,
        categories=[_category(b.category, b.category_title)],
        rating=b.rating,
        review_count=b.review_count,
        price="$" * b.price if b.price else None,
        phone=b.phone,
        address=b.address,
        latitude=b.latitude,
        longitude=b.longitude,
        transactions=list(b.transactions),
        is_closed=b.is_closed,
        is_open_now=not b.is_closed and _open_at(b, ctx.now()),
        distance_m=None if origin is None else round(haversine_m(*origin, b.latitude, b.longitude), 1),
        url=f"https://www.yelp.com/biz/{b.id}",
    )


def _category(alias: str, title: str) -> Category:
    c = _CATEGORIES.get(alias)
    return Category(alias=alias, title=title, parent=c.parent if c else "localservices")


def _get(ctx: Ctx, business_id: str, field: str = "business_id") -> _Biz:
    b = _all(ctx).get(business_id)
    if b is None:
        raise NotFound(f"no business {business_id!r}", field=field, hint="find it with localbiz__search_businesses")
    return b


def _origin(ctx: Ctx, location: str | None, latitude: float | None, longitude: float | None) -> tuple[float, float]:
    if latitude is not None and longitude is not None:
        return latitude, longitude
    if location is None:
        raise RuleViolation(
            "give a location or a latitude and longitude", field="location", hint="e.g. location='Lyon'"
        )
    city = fold(location.split(",")[0])
    for p in ctx.population.places:
        if fold(p.city) == city:
            return p.latitude, p.longitude
    raise NotFound(
        f"no city {location!r} is covered",
        field="location",
        hint=f"use one of {', '.join(p.city for p in ctx.population.places)}",
    )


def _example_city(ctx: Ctx) -> dict[str, Any]:
    return {"location": ctx.population.home.place.city, "categories": "coffee"}


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search local businesses", open_world=True, example=_example_city)
def search_businesses(
    ctx: Ctx,
    location: City | None = None,
    latitude: Latitude | None = None,
    longitude: Longitude | None = None,
    term: Term | None = None,
    categories: Term | None = None,
    price: Annotated[list[Annotated[int, Field(ge=1, le=4)]], Field(max_length=4)] | None = None,
    open_now: bool = False,
    radius: Annotated[int, Field(ge=100, le=40000)] = 10000,
    sort_by: Literal["best_match", "rating", "review_count", "distance"] = "best_match",
    limit: Annotated[int, Field(ge=1, le=50)] = 20,
) -> list[Business]:
    """Search businesses near a city or a point (/businesses/search); permanently closed ones are left out.

    Args:
        location: A city (e.g. Lyon or "Lyon, FR"); or give latitude and longitude.
        latitude: Latitude of the point to search around.
        longitude: Longitude of the point to search around.
        term: Words of the name or category (coffee, sushi, ...).
        categories: Comma-separated category aliases (coffee,bakeries).
        price: Price levels to include, 1 ($) to 4 ($$$$).
        open_now: Only businesses open at this moment.
        radius: Search radius in metres (at most 40000).
        sort_by: best_match, rating, review_count or distance.
        limit: Most results.
    """
    origin = _origin(ctx, location, latitude, longitude)
    cats = {c.strip() for c in categories.split(",")} if categories else None
    if cats and not cats <= set(_CATEGORIES) | {a for a, _ in _INDUSTRY.values()}:
        raise NotFound(
            f"unknown categories {sorted(cats - set(_CATEGORIES))}", field="categories", hint="see list_categories"
        )
    words = fold(term or "").split()
    found = []
    for b in _all(ctx).values():
        hay = fold(f"{b.name} {b.category} {b.category_title}").split()
        if b.is_closed or not all(any(h.startswith(w) for h in hay) for w in words):
            continue
        if (cats and b.category not in cats) or (price and b.price not in price):
            continue
        biz = _business(ctx, b, origin)
        if (biz.distance_m or 0) <= radius and (not open_now or biz.is_open_now):
            found.append(biz)
    keys = {
        "best_match": lambda x: (-(x.rating * x.review_count**0.5), x.id),
        "rating": lambda x: (-x.rating, -x.review_count, x.id),
        "review_count": lambda x: (-x.review_count, x.id),
        "distance": lambda x: (x.distance_m or 0, x.id),
    }
    return sorted(found, key=keys[sort_by])[:limit]


def _example_biz(ctx: Ctx) -> dict[str, Any]:
    return {"business_id": next(b.id for b in _all(ctx).values() if b.reviewers)}


@service.tool(intent="get the business's details and hours", open_world=True, example=_example_biz)
def get_business(ctx: Ctx, business_id: BusinessId) -> BusinessDetail:
    """Get a business with its weekly hours and whether it is open now (/businesses/{id}).

    Args:
        business_id: The business id.
    """
    b = _get(ctx, business_id)
    hours = [OpenHours(day=d, start=f"{s:04d}", end=f"{e:04d}", is_overnight=e <= s) for d, s, e in b.hours]
    return BusinessDetail(**_business(ctx, b).model_dump(), hours=hours)


@service.tool(intent="read the business's reviews", open_world=True, example=_example_biz)
def get_reviews(ctx: Ctx, business_id: BusinessId) -> list[Review]:
    """Get up to three review excerpts of a business, newest first (/businesses/{id}/reviews).

    Args:
        business_id: The business id.
    """
    b = _get(ctx, business_id)
    r = random.Random(f"localbiz-reviews:{b.id}")
    out = []
    for k, user in enumerate(b.reviewers):
        stars, text = r.choice([t for t in _REVIEW_TEXT if abs(t[0] - b.rating) <= 1.5] or list(_REVIEW_TEXT))
        when = ctx.now().replace(minute=0, second=0, microsecond=0) - dt.timedelta(days=3 + 17 * k + r.randint(0, 9))
        out.append(Review(rating=stars, text=text, user_name=user, time_created=when))
    return out


@service.tool(
    intent="find a business by phone number",
    open_world=True,
    example=lambda ctx: {"phone": ctx.population.companies[1].phone},
)
def search_by_phone(ctx: Ctx, phone: Phone) -> list[Business]:
    """Find the businesses with a phone number (/businesses/search/phone).

    Args:
        phone: The number in E.164 form (+ and digits).
    """
    return [_business(ctx, b) for b in _all(ctx).values() if b.phone == phone]


def _example_match(ctx: Ctx) -> dict[str, Any]:
    c = ctx.population.companies[1]
    return {"name": c.name, "street": c.address.street, "city": c.address.city, "country": c.address.country}


@service.tool(intent="match a business by name and address", open_world=True, example=_example_match)
def match_business(
    ctx: Ctx, name: Term, street: Term, city: City, country: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
) -> Business:
    """Match a business by its name and address (/businesses/matches); the name must match word for word.

    Args:
        name: The business's name.
        street: Street and number.
        city: City.
        country: ISO 3166-1 alpha-2 country code.
    """
    for b in _all(ctx).values():
        a = b.address
        if (fold(b.name), fold(a.street), fold(a.city), a.country) == (fold(name), fold(street), fold(city), country):
            return _business(ctx, b)
    raise NotFound(
        f"no business {name!r} at {street}, {city}", field="name", hint="search by term and location instead"
    )


@service.tool(intent="autocomplete a business search", open_world=True, example=fixed_example(text="cof"))
def autocomplete(
    ctx: Ctx, text: Annotated[str, StringConstraints(min_length=1, max_length=60)], location: City | None = None
) -> list[str]:
    """Suggest category titles and business names starting with the text typed (/autocomplete).

    Args:
        text: What was typed.
        location: Only businesses in this city.
    """
    t = fold(text)
    cats = sorted(c.title for c in _CATEGORIES.values() if fold(c.title).startswith(t))
    names = sorted(
        {
            b.name
            for b in _all(ctx).values()
            if any(w.startswith(t) for w in fold(b.name).split())
            and (location is None or fold(b.address.city) == fold(location))
        }
    )
    return (cats + names)[:10]


@service.tool(
    intent="find businesses that deliver to a place",
    open_world=True,
    example=lambda ctx: {"location": ctx.population.home.place.city},
)
def delivery_search(ctx: Ctx, location: City) -> list[Business]:
    """List the businesses of a city that deliver, best rated first (/transactions/delivery/search).

    Args:
        location: The city.
    """
    origin = _origin(ctx, location, None, None)
    found = [
        _business(ctx, b, origin)
        for b in _all(ctx).values()
        if "delivery" in b.transactions and not b.is_closed and fold(b.address.city) == fold(location.split(",")[0])
    ]
    return sorted(found, key=lambda x: (-x.rating, x.id))


@service.tool(intent="get a business category", open_world=True, example=fixed_example(alias="coffee"))
def get_category(ctx: Ctx, alias: Term) -> Category:
    """Get one category by its alias (/categories/{alias}).

    Args:
        alias: The category alias (coffee, italian, gyms, ...).
    """
    for c in list_categories(ctx):
        if c.alias == alias:
            return c
    raise NotFound(f"no category {alias!r}", field="alias", hint="list them with localbiz__list_categories")


@service.tool(intent="list business categories", open_world=True)
def list_categories(ctx: Ctx) -> list[Category]:
    """List the business categories with their aliases and parents (/categories)."""
    return [_category(c.alias, c.title) for c in _CATEGORIES.values()] + [
        _category(a, t) for a, t in _INDUSTRY.values()
    ]


# -- collections -------------------------------------------------------------------------------------------


class Collection(Timestamped):
    """An employee's collection of places (a Yelp Collection)."""

    id: CollectionId
    name: Title
    """Its name (unique per owner)."""
    owner_email: Email
    """The employee who keeps it."""
    description: Text = ""
    """What it gathers."""
    visibility: Literal["public", "private"] = "private"
    """public (anyone with the link) or private."""


class CollectionItem(Timestamped):
    """A business saved in a collection."""

    id: ItemId
    collection_id: CollectionId
    """The collection."""
    business_id: BusinessId
    """The business."""
    business_name: str
    """Its name."""
    city: City
    """Its city."""
    phone: Phone
    """Its phone number."""
    note: Text = ""
    """Why it is saved."""
    status: Literal["want_to_go", "visited"] = "want_to_go"
    """want_to_go or visited."""
    visited_at: DateTime | None = None
    """When it was marked visited."""


def _guard_collection(ctx: Ctx, new: Collection, old: Collection | None) -> None:
    if new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(
            f"{new.owner_email} is not an employee", field="owner_email", hint="collections are kept by staff"
        )
    for other in ctx.where(Collection, owner_email=new.owner_email, name=new.name):
        if other.id != new.id:
            raise Conflict(
                f"{new.owner_email} already has a collection named {new.name!r}: {other.id}",
                field="name",
                hint="pick another name or add to that collection",
            )


def _guard_collection_delete(ctx: Ctx, new: None, old: Collection) -> None:
    for item in ctx.where(CollectionItem, collection_id=old.id):
        ctx.delete(item)


def _guard_item(ctx: Ctx, new: CollectionItem | None, old: CollectionItem | None) -> None:
    if new is not None and old is not None and new.status == "visited" and old.status != "visited":
        ctx.update(new, visited_at=ctx.now())


collections = service.resource(
    Collection,
    name="collection",
    plural="collections",
    prefix="col",
    create=("name", "owner_email", "description", "visibility"),
    filters=("owner_email", "visibility"),
    search=("name", "description"),
    update=("name", "description", "visibility"),
    guard_create=_guard_collection,
    guard_update=_guard_collection,
    guard_delete=_guard_collection_delete,
    title="collection of places",
)
collection_items = service.resource(
    CollectionItem,
    name="collection_item",
    plural="collection_items",
    prefix="coli",
    create=False,
    filters=("collection_id", "business_id", "status", "city"),
    search=("business_name", "note"),
    update=("note",),
    transitions={"mark_visited": Transition("status", ("want_to_go",), "visited", "mark the place as visited")},
    guard_update=_guard_item,
    title="saved place",
)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    col = ctx.first(Collection)
    if col is None:
        return None
    have = {i.business_id for i in ctx.where(CollectionItem, collection_id=col.id)}
    biz = next(b for b in _all(ctx).values() if not b.is_closed and b.id not in have)
    return {"collection_id": col.id, "business_id": biz.id, "note": "Team lunch option"}


@service.tool(intent="save a business to a collection", write=True, example=_example_add)
def add_to_collection(
    ctx: Ctx, collection_id: CollectionId, business_id: BusinessId, note: Text = ""
) -> CollectionItem:
    """Save a business to a collection; a business is in a collection once and a closed one cannot be added.

    Args:
        collection_id: The collection.
        business_id: The business.
        note: Why it is saved.
    """
    col = ctx.get(Collection, collection_id, field="collection_id")
    b = _get(ctx, business_id)
    if b.is_closed:
        raise RuleViolation(f"{b.name} has closed for good", field="business_id", hint="pick a business still open")
    items = ctx.where(CollectionItem, collection_id=col.id)
    other = next((i for i in items if i.business_id == b.id), None)
    if other is not None:
        raise Conflict(f"{b.name} is already in {col.name} as {other.id}", field="business_id", hint="update its note")
    if len(items) >= MAX_ITEMS:
        raise RuleViolation(
            f"{col.name} holds {MAX_ITEMS} places", field="collection_id", hint="start another collection"
        )
    return ctx.create(
        CollectionItem,
        collection_id=col.id,
        business_id=b.id,
        business_name=b.name,
        city=b.address.city,
        phone=b.phone,
        note=note,
    )


@service.tool(
    intent="see which saved places are open now",
    example=first_example(Collection, "collection_id"),
)
def open_now_in_collection(ctx: Ctx, collection_id: CollectionId) -> list[Business]:
    """List the businesses of a collection that are open at this moment, best rated first.

    Args:
        collection_id: The collection.
    """
    col = ctx.get(Collection, collection_id, field="collection_id")
    found = [_business(ctx, _get(ctx, i.business_id)) for i in ctx.where(CollectionItem, collection_id=col.id)]
    return sorted((b for b in found if b.is_open_now), key=lambda b: (-b.rating, b.id))


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    for item in ctx.select(CollectionItem, {}):
        col = ctx.get(Collection, item.collection_id)
        for other in ctx.where(Collection, owner_email=col.owner_email):
            if other.id != col.id and not ctx.first(
                CollectionItem, collection_id=other.id, business_id=item.business_id
            ):
                return {"collection_item_id": item.id, "collection_id": other.id}
    return None


@service.tool(intent="move a saved place to another collection", write=True, example=_example_move)
def move_item(ctx: Ctx, collection_item_id: ItemId, collection_id: CollectionId) -> CollectionItem:
    """Move a saved place to another collection of the same owner, keeping its note and visit.

    Args:
        collection_item_id: The saved place.
        collection_id: The collection to move it to.
    """
    item = ctx.get(CollectionItem, collection_item_id, field="collection_item_id")
    src = ctx.get(Collection, item.collection_id)
    dst = ctx.get(Collection, collection_id, field="collection_id")
    if dst.id == src.id:
        raise Conflict(f"{item.business_name} is already in {dst.name}", field="collection_id", hint="nothing to do")
    if dst.owner_email != src.owner_email:
        raise RuleViolation(
            f"{dst.name} belongs to {dst.owner_email}, not {src.owner_email}",
            field="collection_id",
            hint="move places only between your own collections",
        )
    if ctx.first(CollectionItem, collection_id=dst.id, business_id=item.business_id):
        raise Conflict(f"{item.business_name} is already in {dst.name}", field="collection_id", hint="delete this copy")
    if len(ctx.where(CollectionItem, collection_id=dst.id)) >= MAX_ITEMS:
        raise RuleViolation(f"{dst.name} holds {MAX_ITEMS} places", field="collection_id", hint="start another")
    return ctx.update(item, collection_id=dst.id)


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff collections around the home office: lunch spots, client-dinner places (some visited) and coffee."""
    pop = s.population
    owners = pop.staff("Sales", "People", "Operations", fallback=3)
    city = pop.home.place.city
    here = [b for b in _build(pop).values() if b.address.city == city and not b.is_closed and b.price]
    plans = (
        ("Team lunch spots", "Places near the office for team lunches.", "public", ("italian", "mexican", "vegan")),
        ("Client dinners", "Where to take clients after a visit.", "private", ("japanese", "italian", "bars")),
        ("Coffee meetings", "Quiet cafés for one-to-ones.", "private", ("coffee", "bakeries")),
    )
    for k, (name, description, visibility, cats) in enumerate(plans):
        col = s.create(
            Collection,
            name=name,
            owner_email=owners[k % 2 % len(owners)].email,
            description=description,
            visibility=visibility,
            created_at=s.ago(days=120 - 20 * k),
            updated_at=s.ago(days=10 + k),
        )
        for j, b in enumerate(sorted((b for b in here if b.category in cats), key=lambda b: (-b.rating, b.id))[:4]):
            visited = j % 2 == 0
            s.create(
                CollectionItem,
                collection_id=col.id,
                business_id=b.id,
                business_name=b.name,
                city=b.address.city,
                phone=b.phone,
                note="Book ahead on Fridays." if j == 0 else "",
                status="visited" if visited else "want_to_go",
                visited_at=s.ago(days=30 + j) if visited else None,
                created_at=s.ago(days=100 - j),
                updated_at=s.ago(days=30 + j),
            )
