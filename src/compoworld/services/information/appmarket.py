"""Chartlens App Market: App Store and Google Play apps, top charts, rank history, ratings, reviews, competitors.

Modeled on the iTunes Search and Lookup API (``trackId``, ``bundleId``,
``primaryGenreName``, ``averageUserRating``, ``userRatingCount``, ``price``,
``sellerName``), Apple's RSS top charts (``top-free``, ``top-paid``,
``top-grossing`` per genre and country), Google Play's package names and
rating histograms, and market-intelligence APIs such as Sensor Tower and
AppFollow (daily category rank history, download estimates, keyword ranks,
reviews with author, rating, version and developer response).

An open-world service drawn from the world seed: apps in six categories on both
stores, published by the world's companies (the home company's own app among
them) and outside studios. Every day each chart ranks the apps of its store and
category by a stable random strength plus a slowly moving trend, so a rank on
one day is the app's place in that day's chart; ratings and reviews come from
the world's consumers. Stored state is the tracked apps: a staff member tracks
an app (its own or a competitor) once with an optional rank alert; checking a
tracked app reports its rank change since the last check, whether it fell
below the alert rank, and the reviews posted since, each once.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, SemanticType
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "appmarket",
    title="Chartlens App Market",
    category="app_market_data",
    modeled_on="iTunes Search/Lookup API and Apple RSS top charts, Google Play listings, with Sensor Tower / "
    "AppFollow rank history, download estimates, keyword ranks and reviews",
    description="App market intelligence for the App Store and Google Play: search apps, read their listing, "
    "ratings histogram and reviews, see the top free and top grossing charts of a category on a day, an app's "
    "rank history and download estimates, its competitors and keyword ranks, and track apps so that rank moves "
    "and new reviews are reported.",
)

AppId = Annotated[
    str,
    SemanticType("app.id", kind="ref"),
    StringConstraints(pattern=r"^(ios:[0-9]{9,10}|android:[a-z][a-z0-9_]*(\.[a-z0-9_]+)+)$"),
]
TrackedId = Annotated[str, IdOf("appmarket.tracked_app")]
Store = Literal["ios", "android"]
Chart = Literal["top-free", "top-grossing"]
Category = Literal["Productivity", "Finance", "Health & Fitness", "Shopping", "Travel", "Business"]
Keyword = Annotated[str, StringConstraints(min_length=2, max_length=60)]
MAX_TRACKED = 20
MAX_HISTORY = 90

_WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "Productivity": (("Task", "Focus", "Note", "Flow", "Plan"), ("ly", "Board", "Pad", "Hub", "Desk")),
    "Finance": (("Coin", "Budget", "Pay", "Ledger", "Penny"), ("Wise", "Track", "Pal", "Book", "Jar")),
    "Health & Fitness": (("Fit", "Pulse", "Calm", "Stride", "Sleep"), ("Coach", "Log", "Mate", "Up", "Cycle")),
    "Shopping": (("Deal", "Cart", "Shop", "Thrift", "Bazaar"), ("Finder", "Go", "Box", "Hunt", "Spot")),
    "Travel": (("Trip", "Wander", "Jet", "Road", "Stay"), ("Planner", "Pass", "Map", "Way", "Book")),
    "Business": (("Team", "Field", "Invoice", "Sales", "Shift"), ("Sync", "Works", "Pro", "Link", "Dash")),
}
_TITLES = {5: "Love it", 4: "Great app", 3: "Does the job", 2: "Too many ads", 1: "Crashes a lot"}
_BODIES = {
    5: "Exactly what I needed. Smooth and fast.",
    4: "Works well, a few rough edges since the last update.",
    3: "Decent, but the free tier is limited.",
    2: "Keeps logging me out after the update.",
    1: "Crashes on launch since the latest version.",
}


@dataclass(frozen=True, slots=True)
class _App:
    id: str
    store: str
    name: str
    category: str
    publisher: str
    price: float
    iap: bool
    strength: float
    rating: float
    ratings: int
    version: str
    released: dt.date


@dataclass(frozen=True, slots=True)
class _Review:
    id: str
    app_id: str
    author: str
    rating: int
    title: str
    body: str
    date: dt.date
    version: str
    replied: bool


@dataclass(frozen=True, slots=True)
class _Db:
    apps: dict[str, _App]
    reviews: dict[str, tuple[_Review, ...]]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", fold(text)) or "app"


@per_population
def _build(pop: Population, today: dt.date) -> _Db:
    r = random.Random(f"appmarket:{pop.seed}")
    publishers = [c.name for c in [pop.home, *pop.customers[:5]]]
    studios = ["Brightleaf Studios", "Northpeak Apps", "Pixelgrove Inc.", "Lumen Labs LLC", "Cobalt Mobile"]
    apps: dict[str, _App] = {}
    reviewers = [p for p in pop.consumers] or list(pop.people)
    reviews: dict[str, tuple[_Review, ...]] = {}
    n = 0
    for cat, (heads, tails) in _WORDS.items():
        names = [f"{h}{t}" for h in heads for t in tails]
        r.shuffle(names)
        for k in range(16):
            n += 1
            store = "ios" if k % 2 == 0 else "android"
            own = n in (3, 20) or (k == 1 and n % 3 == 0)
            publisher = publishers[0] if n in (3, 20) else r.choice(publishers[1:]) if own else r.choice(studios)
            name = f"{pop.home.name.split()[0]} {cat.split()[0]}" if n in (3, 20) else names[k]
            base = _slug(publisher)[:20]
            aid = f"ios:{1_000_000_000 + 7_919_111 * n}" if store == "ios" else f"android:com.{base}.{_slug(name)[:20]}"
            rating = round(min(4.9, max(2.1, r.gauss(4.2, 0.5))), 1)
            released = today - dt.timedelta(days=r.randint(200, 3000))
            app = _App(
                aid,
                store,
                name,
                cat,
                publisher,
                0.0 if k % 4 else round(r.choice((0.99, 2.99, 4.99)), 2),
                r.random() < 0.6,
                r.gauss(0, 1),
                rating,
                r.randint(300, 900_000),
                f"{r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)}",
                released,
            )
            apps[aid] = app
            revs = []
            for j in range(10):
                stars = max(1, min(5, round(r.gauss(rating, 1.0))))
                who = reviewers[(n * 7 + j) % len(reviewers)]
                day = today - dt.timedelta(days=int(360 * (10 - j) / 10) - r.randint(0, 20))
                revs.append(
                    _Review(
                        f"r{n:03d}{j:02d}",
                        aid,
                        f"{who.first_name} {who.last_name[0]}.",
                        stars,
                        _TITLES[stars],
                        _BODIES[stars],
                        min(day, today),
                        app.version,
                        stars <= 2 and j % 2 == 0,
                    )
                )
            reviews[aid] = tuple(sorted(revs, key=lambda v: (v.date, v.id)))
    return _Db(apps, reviews)


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population, ctx.today())


@lru_cache(maxsize=65536)
def _trend(seed: int, app_id: str, week: int) -> float:
    return random.Random(f"appmarket-trend:{seed}:{app_id}:{week}").gauss(0, 0.6)


def _score(seed: int, a: _App, chart: str, day: dt.date) -> float:
    w, frac = divmod(day.toordinal() / 7, 1)
    trend = _trend(seed, a.id, int(w)) * (1 - frac) + _trend(seed, a.id, int(w) + 1) * frac
    boost = (0.8 if a.iap else -0.8) if chart == "top-grossing" else (0.5 if a.price == 0 else -1.5)
    return a.strength + trend + boost


def _chart(db: _Db, seed: int, store: str, category: str, chart: str, day: dt.date) -> list[_App]:
    pool = [a for a in db.apps.values() if a.store == store and a.category == category and a.released <= day]
    return sorted(pool, key=lambda a: (-_score(seed, a, chart, day), a.id))


def _rank(db: _Db, seed: int, a: _App, chart: str, day: dt.date) -> int | None:
    ranked = _chart(db, seed, a.store, a.category, chart, day)
    return ranked.index(a) + 1 if a in ranked else None


# -- result models ----------------------------------------------------------------------------------------


class App(BaseModel):
    """An app listing (lookup)."""

    app_id: AppId = Field(description="ios:<trackId> or android:<package name>.")
    store: Store = Field(description="ios or android.")
    name: str = Field(description="App name.")
    category: Category = Field(description="Primary category.")
    publisher: str = Field(description="Seller / developer name.")
    price: float = Field(description="Price in USD (0 for free).")
    in_app_purchases: bool = Field(description="Whether it sells in-app purchases.")
    average_rating: float = Field(description="Average user rating (1-5).")
    rating_count: int = Field(description="Number of ratings.")
    version: str = Field(description="Current version.")
    release_date: Date = Field(description="First release.")
    rank_top_free: int | None = Field(description="Today's rank in its category's top free chart (null if paid).")
    rank_top_grossing: int = Field(description="Today's rank in its category's top grossing chart.")


class ChartEntry(BaseModel):
    """A place in a chart."""

    rank: int = Field(description="Rank (1 is top).")
    app_id: AppId = Field(description="App.")
    name: str = Field(description="App name.")
    publisher: str = Field(description="Publisher.")


class RankPoint(BaseModel):
    """An app's rank on a day."""

    date: Date = Field(description="Day.")
    rank: int | None = Field(description="Rank in the chart, null if not charted.")


class RatingSummary(BaseModel):
    """Ratings histogram."""

    app_id: AppId = Field(description="App.")
    average_rating: float = Field(description="Average.")
    rating_count: int = Field(description="Total ratings.")
    histogram: dict[str, int] = Field(description="Ratings per star, '1' to '5'.")


class Review(BaseModel):
    """A user review."""

    review_id: str = Field(description="Review id.")
    app_id: AppId = Field(description="App.")
    author: str = Field(description="Reviewer's display name.")
    rating: int = Field(description="Stars, 1-5.")
    title: str = Field(description="Title.")
    body: str = Field(description="Text.")
    date: Date = Field(description="Posted.")
    version: str = Field(description="App version reviewed.")
    has_developer_response: bool = Field(description="Whether the developer replied.")


class DownloadEstimate(BaseModel):
    """Estimated downloads and revenue of a month."""

    app_id: AppId = Field(description="App.")
    month: str = Field(description="YYYY-MM.")
    downloads: int = Field(description="Estimated downloads.")
    revenue_usd: int = Field(description="Estimated gross revenue, whole USD.")


class KeywordRank(BaseModel):
    """Where an app appears in a store search for a keyword."""

    position: int = Field(description="Position in the search results.")
    app_id: AppId = Field(description="App.")
    name: str = Field(description="App name.")


# -- helpers ----------------------------------------------------------------------------------------------


def _get(ctx: Ctx, app_id: str, field: str = "app_id") -> _App:
    a = _db(ctx).apps.get(app_id)
    if a is None:
        raise NotFound(f"no app {app_id}", field=field, hint="find it with appmarket__search_apps")
    return a


def _out(ctx: Ctx, a: _App) -> App:
    db, seed, today = _db(ctx), ctx.population.seed, ctx.today()
    return App(
        app_id=a.id,
        store=a.store,
        name=a.name,
        category=a.category,
        publisher=a.publisher,
        price=a.price,
        in_app_purchases=a.iap,
        average_rating=a.rating,
        rating_count=a.ratings,
        version=a.version,
        release_date=a.released,
        rank_top_free=_rank(db, seed, a, "top-free", today) if a.price == 0 else None,
        rank_top_grossing=_rank(db, seed, a, "top-grossing", today) or 0,
    )


def _review(v: _Review) -> Review:
    return Review(
        review_id=v.id,
        app_id=v.app_id,
        author=v.author,
        rating=v.rating,
        title=v.title,
        body=v.body,
        date=v.date,
        version=v.version,
        has_developer_response=v.replied,
    )


def _example_app(ctx: Ctx) -> dict[str, Any]:
    return {"app_id": next(iter(_db(ctx).apps))}


# -- open-world tools -------------------------------------------------------------------------------------


@service.tool(intent="search apps", open_world=True, example=fixed_example(category="Finance"))
def search_apps(
    ctx: Ctx,
    q: Keyword | None = None,
    store: Store | None = None,
    category: Category | None = None,
    publisher: str | None = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 25,
) -> list[App]:
    """Search apps by name words, store, category and publisher, most rated first.

    Args:
        q: Words of the app name.
        store: ios or android.
        category: Primary category.
        publisher: Publisher name (exact, case-insensitive).
        limit: Most results.
    """
    words = fold(q or "").split()
    found = [
        a
        for a in _db(ctx).apps.values()
        if all(w in fold(a.name) for w in words)
        and store in (None, a.store)
        and category in (None, a.category)
        and (publisher is None or fold(publisher) == fold(a.publisher))
    ]
    found.sort(key=lambda a: (-a.ratings, a.id))
    return [_out(ctx, a) for a in found[:limit]]


@service.tool(intent="get the app", open_world=True, example=_example_app)
def get_app(ctx: Ctx, app_id: AppId) -> App:
    """Get an app's listing: publisher, price, rating, version and today's chart ranks.

    Args:
        app_id: ios:<trackId> or android:<package name>.
    """
    return _out(ctx, _get(ctx, app_id))


@service.tool(intent="get the top chart", open_world=True, example=fixed_example(store="ios", category="Productivity"))
def get_top_chart(
    ctx: Ctx, store: Store, category: Category, chart: Chart = "top-free", date: Date | None = None
) -> list[ChartEntry]:
    """Get a category's top free or top grossing chart on a day (top-free lists free apps only).

    Args:
        store: ios or android.
        category: Category.
        chart: top-free or top-grossing.
        date: Day (default: today; up to 90 days back).
    """
    day = date or ctx.today()
    _history_day(ctx, day, "date")
    ranked = _chart(_db(ctx), ctx.population.seed, store, category, chart, day)
    ranked = [a for a in ranked if chart != "top-free" or a.price == 0]
    return [ChartEntry(rank=k + 1, app_id=a.id, name=a.name, publisher=a.publisher) for k, a in enumerate(ranked)]


def _history_day(ctx: Ctx, day: dt.date, field: str) -> None:
    today = ctx.today()
    if day > today or (today - day).days > MAX_HISTORY:
        raise RuleViolation(
            f"{day} is outside the {MAX_HISTORY} days of rank history", field=field, hint=f"pick a day up to {today}"
        )


@service.tool(intent="get the app's rank history", open_world=True, example=_example_app)
def get_rank_history(
    ctx: Ctx, app_id: AppId, chart: Chart = "top-grossing", days: Annotated[int, Field(ge=1, le=90)] = 30
) -> list[RankPoint]:
    """Get an app's daily rank in its category chart over the last days, oldest first.

    Args:
        app_id: The app.
        chart: top-free (free apps) or top-grossing.
        days: How many days back, up to 90.
    """
    a = _get(ctx, app_id)
    if chart == "top-free" and a.price > 0:
        raise RuleViolation(f"{a.name} is a paid app", field="chart", hint="use top-grossing for paid apps")
    db, seed, today = _db(ctx), ctx.population.seed, ctx.today()
    out = []
    for k in range(days - 1, -1, -1):
        day = today - dt.timedelta(days=k)
        ranked = [x for x in _chart(db, seed, a.store, a.category, chart, day) if chart != "top-free" or x.price == 0]
        out.append(RankPoint(date=day, rank=ranked.index(a) + 1 if a in ranked else None))
    return out


@service.tool(intent="get the ratings histogram", open_world=True, example=_example_app)
def get_ratings(ctx: Ctx, app_id: AppId) -> RatingSummary:
    """Get an app's average rating, rating count and ratings per star.

    Args:
        app_id: The app.
    """
    a = _get(ctx, app_id)
    weights = [math.exp(-((s - a.rating) ** 2) / 1.2) for s in range(1, 6)]
    total = sum(weights)
    counts = [int(a.ratings * w / total) for w in weights]
    counts[4] += a.ratings - sum(counts)
    return RatingSummary(
        app_id=a.id,
        average_rating=a.rating,
        rating_count=a.ratings,
        histogram={str(s): c for s, c in zip(range(1, 6), counts, strict=True)},
    )


@service.tool(intent="list the app's reviews", open_world=True, example=_example_app)
def list_reviews(
    ctx: Ctx, app_id: AppId, rating: Annotated[int, Field(ge=1, le=5)] | None = None, since: Date | None = None
) -> list[Review]:
    """List an app's recent reviews, newest first, optionally of one star rating or after a date.

    Args:
        app_id: The app.
        rating: Only reviews with this many stars.
        since: Only reviews posted after this date.
    """
    _get(ctx, app_id)
    found = [v for v in _db(ctx).reviews[app_id] if rating in (None, v.rating) and (since is None or v.date > since)]
    return [_review(v) for v in reversed(found)]


@service.tool(intent="list the app's competitors", open_world=True, example=_example_app)
def list_competitors(ctx: Ctx, app_id: AppId, limit: Annotated[int, Field(ge=1, le=10)] = 5) -> list[App]:
    """List the apps of the same store and category closest to an app in today's top grossing chart.

    Args:
        app_id: The app.
        limit: How many.
    """
    a = _get(ctx, app_id)
    ranked = _chart(_db(ctx), ctx.population.seed, a.store, a.category, "top-grossing", ctx.today())
    me = ranked.index(a)
    others = sorted((x for x in ranked if x is not a), key=lambda x: (abs(ranked.index(x) - me), ranked.index(x)))
    return [_out(ctx, x) for x in others[:limit]]


def _example_month(ctx: Ctx) -> dict[str, Any]:
    last = ctx.today().replace(day=1) - dt.timedelta(days=1)
    return _example_app(ctx) | {"month": last.strftime("%Y-%m")}


@service.tool(intent="get the download estimates", open_world=True, example=_example_month)
def get_download_estimates(
    ctx: Ctx, app_id: AppId, month: Annotated[str, StringConstraints(pattern=r"^20[0-9]{2}-(0[1-9]|1[0-2])$")]
) -> DownloadEstimate:
    """Get the estimated downloads and revenue of an app in a past month (Sensor Tower style estimates).

    Args:
        app_id: The app.
        month: A complete past month, YYYY-MM.
    """
    a = _get(ctx, app_id)
    first = dt.date(int(month[:4]), int(month[5:]), 1)
    if first >= ctx.today().replace(day=1):
        raise RuleViolation(f"{month} is not complete yet", field="month", hint="ask for an earlier month")
    if first < a.released.replace(day=1):
        raise RuleViolation(f"{a.name} was released on {a.released}", field="month", hint="ask for a later month")
    r = random.Random(f"appmarket-dl:{ctx.population.seed}:{a.id}:{month}")
    downloads = int(math.sqrt(a.ratings) * 60 * math.exp(0.4 * a.strength) * (0.8 + 0.4 * r.random()))
    revenue = int(downloads * (a.price + (0.35 if a.iap else 0.0)) * 0.9)
    return DownloadEstimate(app_id=a.id, month=month, downloads=downloads, revenue_usd=revenue)


@service.tool(
    intent="get the keyword search ranks", open_world=True, example=fixed_example(keyword="budget", store="ios")
)
def get_keyword_ranks(ctx: Ctx, keyword: Keyword, store: Store) -> list[KeywordRank]:
    """Get the apps a store search for a keyword returns, in order (name matches first, then by ratings).

    Args:
        keyword: The search keyword.
        store: ios or android.
    """
    word = fold(keyword)
    pool = [a for a in _db(ctx).apps.values() if a.store == store]
    hits = [a for a in pool if word in fold(f"{a.name} {a.category}")]
    hits.sort(key=lambda a: (word not in fold(a.name), -a.ratings, a.id))
    return [KeywordRank(position=k + 1, app_id=a.id, name=a.name) for k, a in enumerate(hits[:25])]


class CategoryInfo(BaseModel):
    """A category of a store."""

    store: Store = Field(description="ios or android.")
    category: Category = Field(description="Category.")
    app_count: int = Field(description="Apps in its charts.")
    leader_app_id: AppId = Field(description="Today's number one in top grossing.")


@service.tool(intent="list the categories", open_world=True)
def list_categories(ctx: Ctx, store: Store | None = None) -> list[CategoryInfo]:
    """List the store categories with their number of charted apps and today's top grossing leader.

    Args:
        store: ios or android.
    """
    db, seed, today = _db(ctx), ctx.population.seed, ctx.today()
    out = []
    for st in ("ios", "android"):
        if store not in (None, st):
            continue
        for cat in _WORDS:
            ranked = _chart(db, seed, st, cat, "top-grossing", today)
            info = CategoryInfo(store=st, category=cat, app_count=len(ranked), leader_app_id=ranked[0].id)
            out.append(info)
    return out


class Publisher(BaseModel):
    """A publisher (seller / developer) with its apps."""

    name: str = Field(description="Publisher name.")
    app_ids: list[AppId] = Field(description="Its apps.")
    total_ratings: int = Field(description="Ratings across its apps.")
    average_rating: float = Field(description="Rating average weighted by rating counts.")


@service.tool(intent="get the publisher", open_world=True, example=fixed_example(name="Cobalt Mobile"))
def get_publisher(ctx: Ctx, name: Annotated[str, StringConstraints(min_length=2, max_length=160)]) -> Publisher:
    """Get a publisher (seller / developer) with its apps and ratings.

    Args:
        name: Publisher name (case-insensitive).
    """
    mine = [a for a in _db(ctx).apps.values() if fold(a.publisher) == fold(name)]
    if not mine:
        raise NotFound(f"no publisher {name!r}", field="name", hint="find publishers with appmarket__search_apps")
    total = sum(a.ratings for a in mine)
    avg = round(sum(a.rating * a.ratings for a in mine) / total, 2)
    return Publisher(name=mine[0].publisher, app_ids=[a.id for a in mine], total_ratings=total, average_rating=avg)


def _example_compare(ctx: Ctx) -> dict[str, Any]:
    return {"app_ids": list(_db(ctx).apps)[:2]}


@service.tool(intent="compare apps", open_world=True, example=_example_compare)
def compare_apps(ctx: Ctx, app_ids: Annotated[list[AppId], Field(min_length=2, max_length=6)]) -> list[App]:
    """Compare apps side by side: ratings, prices and today's ranks, best top grossing rank first.

    Args:
        app_ids: Two to six apps.
    """
    apps = [_out(ctx, _get(ctx, x, f"app_ids.{i}")) for i, x in enumerate(app_ids)]
    if len({a.app_id for a in apps}) < len(apps):
        raise RuleViolation("an app is named twice", field="app_ids", hint="name each app once")
    return sorted(apps, key=lambda a: (a.rank_top_grossing, a.app_id))


# -- tracked apps -----------------------------------------------------------------------------------------


class TrackedApp(Timestamped):
    """An app a staff member tracks."""

    id: TrackedId
    app_id: AppId
    """The app."""
    app_name: str
    """Its name."""
    relation: Literal["own", "competitor"]
    """own (published by the company) or competitor."""
    owner_email: Email
    """The staff member following it."""
    alert_below_rank: Annotated[int, Field(ge=1, le=50)] | None = None
    """Report when the top grossing rank is worse than this."""
    status: Literal["active", "paused"] = "active"
    """active or paused (not checked)."""
    last_rank: int | None = None
    """Top grossing rank at the last check."""
    last_review_date: Date
    """Reviews after this date are new at the next check."""


class TrackReport(BaseModel):
    """What a check of a tracked app found."""

    tracked_app_id: TrackedId = Field(description="The tracking.")
    rank: int = Field(description="Today's top grossing rank.")
    previous_rank: int | None = Field(description="The rank at the last check.")
    below_alert: bool = Field(description="Whether the rank is worse than alert_below_rank.")
    new_reviews: list[Review] = Field(description="Reviews posted since the last check, oldest first.")


tracked_apps = service.resource(
    TrackedApp,
    name="tracked_app",
    plural="tracked_apps",
    prefix="atr",
    create=False,
    filters=("app_id", "relation", "owner_email", "status"),
    search=("app_name",),
    update=("alert_below_rank",),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause tracking the app"),
        "resume": Transition("status", ("paused",), "active", "resume tracking the app"),
    },
    title="tracked app",
)


def _example_track(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.population.employees:
        if len(ctx.where(TrackedApp, owner_email=p.email)) < MAX_TRACKED:
            for a in _db(ctx).apps.values():
                if ctx.first(TrackedApp, app_id=a.id, owner_email=p.email) is None:
                    return {"app_id": a.id, "owner_email": p.email}
    return None


@service.tool(intent="track an app", write=True, example=_example_track)
def track_app(
    ctx: Ctx, app_id: AppId, owner_email: Email, alert_below_rank: Annotated[int, Field(ge=1, le=50)] | None = None
) -> TrackedApp:
    """Track an app for a staff member: own when the home company publishes it, else competitor.

    Args:
        app_id: The app.
        owner_email: The employee following it (at most 20 tracked apps each).
        alert_below_rank: Report when its top grossing rank is worse than this.
    """
    a = _get(ctx, app_id)
    require_employee(ctx, owner_email, field="owner_email", hint="tracking is for staff")
    same = ctx.first(TrackedApp, app_id=app_id, owner_email=owner_email)
    if same is not None:
        raise Conflict(f"{owner_email} already tracks {a.name} as {same.id}", field="app_id", hint="update it")
    if len(ctx.where(TrackedApp, owner_email=owner_email)) >= MAX_TRACKED:
        raise RuleViolation(f"{owner_email} tracks {MAX_TRACKED} apps", field="owner_email", hint="delete one")
    return ctx.create(
        TrackedApp,
        app_id=a.id,
        app_name=a.name,
        relation="own" if a.publisher == ctx.population.home.name else "competitor",
        owner_email=owner_email,
        alert_below_rank=alert_below_rank,
        last_rank=_rank(_db(ctx), ctx.population.seed, a, "top-grossing", ctx.today()),
        last_review_date=ctx.today(),
    )


@service.tool(
    intent="check the tracked app",
    write=True,
    example=first_example(TrackedApp, "tracked_app_id", where={"status": "active"}),
)
def check_tracked_app(ctx: Ctx, tracked_app_id: TrackedId) -> TrackReport:
    """Report the app's rank change since the last check, the rank alert and the new reviews; mark them seen.

    Args:
        tracked_app_id: The tracking (active).
    """
    t = ctx.get(TrackedApp, tracked_app_id, field="tracked_app_id")
    if t.status != "active":
        raise RuleViolation(
            f"tracking {t.id} is paused", field="tracked_app_id", hint="resume it with appmarket__resume_tracked_app"
        )
    a = _get(ctx, t.app_id, "tracked_app_id")
    rank = _rank(_db(ctx), ctx.population.seed, a, "top-grossing", ctx.today()) or 0
    new = [_review(v) for v in _db(ctx).reviews[a.id] if v.date > t.last_review_date]
    ctx.update(t, last_rank=rank, last_review_date=ctx.today())
    return TrackReport(
        tracked_app_id=t.id,
        rank=rank,
        previous_rank=t.last_rank,
        below_alert=t.alert_below_rank is not None and rank > t.alert_below_rank,
        new_reviews=new,
    )


# -- seed -------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Marketing and product staff tracking the company's own apps and their closest competitors."""
    pop = s.population
    today = s.now.date()
    db = _build(pop, today)
    staff = pop.staff("Marketing", "Product", "Engineering", fallback=3)
    own = [a for a in db.apps.values() if a.publisher == pop.home.name]
    rivals = [
        a
        for a in db.apps.values()
        if a.publisher != pop.home.name and any(a.category == o.category and a.store == o.store for o in own)
    ]
    for k, a in enumerate(own + rivals[:6]):
        rank = _rank(db, pop.seed, a, "top-grossing", today - dt.timedelta(days=7))
        s.create(
            TrackedApp,
            app_id=a.id,
            app_name=a.name,
            relation="own" if a in own else "competitor",
            owner_email=staff[k % len(staff)].email,
            alert_below_rank=3 if a in own else None,
            status="paused" if k == 4 else "active",
            last_rank=rank,
            last_review_date=today - dt.timedelta(days=60 + 20 * k),
            created_at=s.ago(days=200 - 10 * k),
            updated_at=s.ago(days=7),
        )
