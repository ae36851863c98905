"""Econbase: economic time series (series, observations with vintages, categories, releases) and dashboards.

Modeled on the FRED API of the Federal Reserve Bank of St. Louis with its ALFRED vintages:
``fred/series/search``, ``fred/series`` (``frequency``, ``units``, ``seasonal_adjustment``,
``observation_start``/``end``, ``last_updated``, ``popularity``), ``fred/series/observations``
(``observation_start``/``end``, ``units`` lin / chg / ch1 / pch / pc1 / log, ``frequency`` aggregation
with ``aggregation_method=avg``, ``vintage_dates``), ``fred/series/vintagedates``,
``fred/category`` and ``fred/category/children``, ``fred/releases``, ``fred/release/series`` and
``fred/release/dates``. Series ids are FRED's (GDP, UNRATE, CPIAUCSL, FEDFUNDS, DGS10, PAYEMS…).

An open-world service: every series is a deterministic path drawn from the world seed, anchored on a
realistic level at the world's start; each observation is published a fixed lag after its period and,
for revised series (GDP, payrolls, retail sales, industrial production, housing starts), first published
with an error that the two following monthly revisions remove, so an observation asked for at a vintage
date is what was known then. Stored state is the team's dashboards (as in FRED's saved graphs and
dashboards): an employee's dashboard shows up to twelve series once each, each with its units transform;
an archived dashboard is frozen.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.engine.types import Date, Email, IdOf, SemanticType, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "econstats",
    title="Econbase",
    category="economic_data",
    modeled_on="FRED API (series search, series, observations with units and frequency aggregation, "
    "categories, releases and release dates) with ALFRED vintage dates and FRED dashboards",
    description="Economic statistics: search series, read observations in levels, changes or growth rates, "
    "as first published or revised at any vintage, browse categories and releases with their calendar, and "
    "keep the team's dashboards of series.",
)

SeriesId = Annotated[str, SemanticType("econstats.series", kind="ref"), StringConstraints(pattern=r"^[A-Z0-9]{2,30}$")]
DashboardId = Annotated[str, IdOf("econstats.dashboard")]
PanelId = Annotated[str, IdOf("econstats.panel")]
Units = Literal["lin", "chg", "ch1", "pch", "pc1", "log"]
Freq = Literal["d", "m", "q", "a"]
MAX_PANELS = 12
START = dt.date(2000, 1, 1)


@dataclass(frozen=True, slots=True)
class _Series:
    id: str
    title: str
    freq: str
    units: str
    sa: str
    anchor: float
    drift: float
    """Yearly drift of the log level (or of the level for rates)."""
    vol: float
    """Yearly volatility."""
    rate: bool
    """A rate (moves additively, stays positive)."""
    lag: int
    """Days from the end of a period to publication."""
    revised: bool
    release: int
    category: int
    popularity: int


def _s(row: str) -> _Series:
    i, t, f, u, sa, a, d, v, r, lag, rev, rel, cat, pop = row.split("|")
    return _Series(
        i, t, f, u, sa, float(a), float(d), float(v), r == "1", int(lag), rev == "1", int(rel), int(cat), int(pop)
    )


_SERIES: tuple[_Series, ...] = tuple(
    _s(row)
    for row in """
GDP|Gross Domestic Product|q|Billions of Dollars|SAAR|29000|0.045|0.012|0|30|1|53|106|93
GDPC1|Real Gross Domestic Product|q|Billions of Chained 2017 Dollars|SAAR|23400|0.02|0.012|0|30|1|53|106|91
UNRATE|Unemployment Rate|m|Percent|SA|4.1|0.0|0.4|1|5|0|50|12|95
PAYEMS|All Employees, Total Nonfarm|m|Thousands of Persons|SA|159000|0.012|0.002|0|5|1|50|12|88
CPIAUCSL|Consumer Price Index for All Urban Consumers: All Items|m|Index 1982-1984=100|SA|318|0.03|0.005|0|13|0|10|9|94
PCEPI|Personal Consumption Expenditures: Chain-type Price Index|m|Index 2017=100|SA|125|0.026|0.004|0|28|1|54|9|80
FEDFUNDS|Federal Funds Effective Rate|m|Percent|NSA|4.33|0.0|0.5|1|1|0|18|22|92
DGS10|Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity|d|Percent|NSA|4.2|0.0|0.8|1|1|0|18|22|90
INDPRO|Industrial Production: Total Index|m|Index 2017=100|SA|103|0.01|0.015|0|16|1|13|3|75
HOUST|New Privately-Owned Housing Units Started: Total Units|m|Thousands of Units|SAAR|1360|0.0|0.12|0|17|1|97|97|70
RSAFS|Advance Retail Sales: Retail Trade and Food Services|m|Millions of Dollars|SA|724000|0.04|0.015|0|15|1|9|6|72
M2SL|M2|m|Billions of Dollars|SA|21800|0.05|0.008|0|24|0|21|24|78
""".strip().splitlines()
)
_BY_ID = {s.id: s for s in _SERIES}
_RELEASES = {
    53: ("Gross Domestic Product", "Bureau of Economic Analysis"),
    50: ("Employment Situation", "Bureau of Labor Statistics"),
    10: ("Consumer Price Index", "Bureau of Labor Statistics"),
    54: ("Personal Income and Outlays", "Bureau of Economic Analysis"),
    18: ("H.15 Selected Interest Rates", "Board of Governors of the Federal Reserve System"),
    13: ("G.17 Industrial Production and Capacity Utilization", "Board of Governors of the Federal Reserve System"),
    97: ("New Residential Construction", "U.S. Census Bureau"),
    9: ("Advance Monthly Sales for Retail and Food Services", "U.S. Census Bureau"),
    21: ("H.6 Money Stock Measures", "Board of Governors of the Federal Reserve System"),
}
_CATEGORIES = {
    0: ("Categories", None),
    32991: ("Money, Banking, & Finance", 0),
    10: ("Population, Employment, & Labor Markets", 0),
    32992: ("National Accounts", 0),
    1: ("Production & Business Activity", 0),
    32455: ("Prices", 0),
    22: ("Interest Rates", 32991),
    24: ("Monetary Data", 32991),
    12: ("Current Population Survey (Household Survey)", 10),
    106: ("Gross Domestic Product", 32992),
    3: ("Industrial Production & Capacity Utilization", 1),
    97: ("Housing", 1),
    6: ("Retail Trade", 1),
    9: ("Consumer Price Indexes (CPI and PCE)", 32455),
}


def _periods(s: _Series, until: dt.date) -> list[dt.date]:
    """Period start dates from START up to ``until`` (weekdays for daily series)."""
    out, day = [], START if s.freq != "d" else dt.date(2015, 1, 1)
    step = {"m": 1, "q": 3}
    while day <= until:
        if s.freq != "d" or day.weekday() < 5:
            out.append(day)
        day = day + dt.timedelta(days=1) if s.freq == "d" else add_months(day, step[s.freq])
    return out


def _period_end(s: _Series, p: dt.date) -> dt.date:
    return p if s.freq == "d" else add_months(p, 3 if s.freq == "q" else 1) - dt.timedelta(days=1)


def _published(s: _Series, p: dt.date) -> dt.date:
    return _period_end(s, p) + dt.timedelta(days=s.lag)


@lru_cache(maxsize=64)
def _path(seed: int, sid: str, today: dt.date) -> tuple[tuple[dt.date, float, float, float], ...]:
    """(period, final value, first estimate, second estimate) of every period published by ``today``.

    The path is drawn up to the later of today and the world's start, and anchored there, so that a
    period's values do not depend on the day they are asked for.
    """
    s = _BY_ID[sid]
    periods = _periods(s, max(today, EPOCH.date()))
    r = random.Random(f"econstats:{seed}:{sid}")
    per_year = {"d": 260, "m": 12, "q": 4}[s.freq]
    steps = [r.gauss(0, s.vol / math.sqrt(per_year)) for _ in periods]
    level, out = 0.0, []
    levels = []
    for x in steps:
        level += x + s.drift / per_year
        levels.append(level)
    cut = EPOCH.date() - dt.timedelta(days=90)
    shift = next((lv for p, lv in zip(reversed(periods), reversed(levels), strict=True) if p <= cut), 0.0)
    for p, lv in zip(periods, levels, strict=True):
        rel = lv - shift
        value = max(0.05, s.anchor + rel) if s.rate else s.anchor * math.exp(rel)
        e1, e2 = (r.gauss(0, 0.001), r.gauss(0, 0.0004)) if s.revised else (0.0, 0.0)
        if _published(s, p) > today:
            continue
        out.append((p, round(value, 3), round(value * (1 + e1), 3), round(value * (1 + e2), 3)))
    return tuple(out)


def _series(series_id: str, field: str = "series_id") -> _Series:
    s = _BY_ID.get(series_id)
    if s is None:
        raise NotFound(f"no series {series_id}", field=field, hint="find series with econstats__search_series")
    return s


def _known(ctx: Ctx, s: _Series, vintage: dt.date) -> list[tuple[dt.date, float]]:
    """Observations as they stood on ``vintage``: each release revises the two periods before its own."""
    known = [row for row in _path(ctx.population.seed, s.id, ctx.today()) if _published(s, row[0]) <= vintage]
    return [
        (p, first if k == 0 else second if k == 1 else final)
        for k, (p, final, first, second) in enumerate(reversed(known))
    ][::-1]


def _transform(obs: list[tuple[dt.date, float]], units: str, per_year: int) -> list[tuple[dt.date, float | None]]:
    out: list[tuple[dt.date, float | None]] = []
    for k, (p, v) in enumerate(obs):
        back = 1 if units in ("chg", "pch") else per_year
        prev = obs[k - back][1] if k >= back and units not in ("lin", "log") else None
        if units == "lin":
            out.append((p, v))
        elif units == "log":
            out.append((p, round(math.log(v), 6)))
        elif prev is None:
            out.append((p, None))
        elif units in ("chg", "ch1"):
            out.append((p, round(v - prev, 3)))
        else:
            out.append((p, round(100 * (v - prev) / prev, 3)))
    return out


def _aggregate(s: _Series, obs: list[tuple[dt.date, float]], freq: str) -> list[tuple[dt.date, float]]:
    order = "dmqa"
    if order.index(freq) < order.index(s.freq):
        raise RuleViolation(
            f"{s.id} is {s.freq}; it cannot be shown at a higher frequency {freq}",
            field="frequency",
            hint="aggregate only to a lower frequency (d → m → q → a)",
        )
    if freq == s.freq:
        return obs
    groups: dict[dt.date, list[float]] = {}
    for p, v in obs:
        key = {"m": p.replace(day=1), "q": dt.date(p.year, 3 * ((p.month - 1) // 3) + 1, 1), "a": dt.date(p.year, 1, 1)}
        groups.setdefault(key[freq], []).append(v)
    return [(k, round(sum(v) / len(v), 3)) for k, v in sorted(groups.items())]


# -- result models -----------------------------------------------------------------------------------------


class Series(BaseModel):
    """A series' metadata."""

    id: SeriesId = Field(description="FRED series id.")
    title: str = Field(description="Title.")
    frequency: Literal["Daily", "Monthly", "Quarterly"] = Field(description="Frequency.")
    units: str = Field(description="Units of the levels.")
    seasonal_adjustment: str = Field(description="SA, SAAR or NSA.")
    observation_start: Date = Field(description="First observation.")
    observation_end: Date = Field(description="Latest published observation.")
    last_updated: Date = Field(description="When it was last published or revised.")
    popularity: int = Field(description="FRED popularity, 0 to 100.")
    release_id: int = Field(description="Release it comes in.")
    category_id: int = Field(description="Category.")


class Observation(BaseModel):
    """One observation."""

    date: Date = Field(description="Start of the period.")
    value: float | None = Field(description="Value in the units asked for (None where it cannot be computed).")


class Observations(BaseModel):
    """Observations of a series."""

    series_id: SeriesId = Field(description="The series.")
    units: Units = Field(description="The transform applied.")
    frequency: Freq = Field(description="The frequency shown.")
    vintage_date: Date = Field(description="The data as it stood on this date.")
    count: int = Field(description="Observations returned.")
    observations: list[Observation] = Field(description="In date order.")


class Category(BaseModel):
    """A category."""

    id: int = Field(description="Category id.")
    name: str = Field(description="Name.")
    parent_id: int | None = Field(description="Parent category.")
    children: list[int] = Field(description="Child category ids.")
    series: list[SeriesId] = Field(description="Series in it.")


class Release(BaseModel):
    """A statistical release."""

    id: int = Field(description="Release id.")
    name: str = Field(description="Name.")
    source: str = Field(description="Agency publishing it.")
    series: list[SeriesId] = Field(description="Series it publishes.")


_FREQ_NAME = {"d": "Daily", "m": "Monthly", "q": "Quarterly"}


def _series_out(ctx: Ctx, s: _Series) -> Series:
    path = _path(ctx.population.seed, s.id, ctx.today())
    last = path[-1][0]
    return Series(
        id=s.id,
        title=s.title,
        frequency=_FREQ_NAME[s.freq],
        units=s.units,
        seasonal_adjustment=s.sa,
        observation_start=path[0][0],
        observation_end=last,
        last_updated=_published(s, last),
        popularity=s.popularity,
        release_id=s.release,
        category_id=s.category,
    )


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search economic data series", open_world=True, example=fixed_example(search_text="price"))
def search_series(
    ctx: Ctx,
    search_text: Annotated[str, StringConstraints(min_length=2, max_length=100)] | None = None,
    frequency: Literal["Daily", "Monthly", "Quarterly"] | None = None,
) -> list[Series]:
    """Search series by words of the title or id (fred/series/search), most popular first.

    Args:
        search_text: Words that must all appear in the title or id.
        frequency: Only series of this frequency.
    """
    words = fold(search_text or "").split()
    found = [
        _series_out(ctx, s)
        for s in _SERIES
        if all(w in fold(f"{s.title} {s.id}").split() or w == s.id.lower() for w in words)
        and (frequency is None or _FREQ_NAME[s.freq] == frequency)
    ]
    return sorted(found, key=lambda s: (-s.popularity, s.id))


@service.tool(intent="get the series", open_world=True, example=fixed_example(series_id="UNRATE"))
def get_series(ctx: Ctx, series_id: SeriesId) -> Series:
    """Get a series' title, frequency, units, seasonal adjustment, dates, release and category (fred/series).

    Args:
        series_id: The FRED series id.
    """
    return _series_out(ctx, _series(series_id))


@service.tool(
    intent="get a series' observations",
    open_world=True,
    example=fixed_example(series_id="CPIAUCSL", units="pc1", observation_start="2024-01-01"),
)
def get_observations(
    ctx: Ctx,
    series_id: SeriesId,
    observation_start: Date | None = None,
    observation_end: Date | None = None,
    units: Units = "lin",
    frequency: Freq | None = None,
    vintage_date: Date | None = None,
) -> Observations:
    """Get observations (fred/series/observations) as levels or changes, optionally aggregated, at a vintage.

    Args:
        series_id: The series.
        observation_start: First period (default: the whole history).
        observation_end: Last period.
        units: lin (levels), chg (change), ch1 (change from a year ago), pch (% change), pc1 (% change from a
            year ago) or log.
        frequency: Aggregate (average) to a lower frequency: d, m, q or a.
        vintage_date: Show the data as first published or revised up to this date (ALFRED; default today).
    """
    s = _series(series_id)
    today = ctx.today()
    vintage = vintage_date or today
    if vintage > today:
        raise RuleViolation(f"vintage {vintage} is in the future", field="vintage_date", hint="use a past date")
    if observation_start and observation_end and observation_end < observation_start:
        raise RuleViolation("observation_end is before observation_start", field="observation_end", hint="swap them")
    freq = frequency or s.freq
    obs = _aggregate(s, _known(ctx, s, vintage), freq)
    per_year = {"d": 260, "m": 12, "q": 4, "a": 1}[freq]
    shown = [
        Observation(date=p, value=v)
        for p, v in _transform(obs, units, per_year)
        if (observation_start is None or p >= observation_start) and (observation_end is None or p <= observation_end)
    ]
    return Observations(
        series_id=s.id,
        units=units,
        frequency=freq,
        vintage_date=vintage,
        count=len(shown),
        observations=shown,
    )


@service.tool(intent="list a series' vintage dates", open_world=True, example=fixed_example(series_id="PAYEMS"))
def list_vintage_dates(ctx: Ctx, series_id: SeriesId, since: Date | None = None) -> list[Date]:
    """List the dates the series was published or revised (fred/series/vintagedates), oldest first.

    Each release of a revised series also revises the two periods before its own.

    Args:
        series_id: The series.
        since: Only vintages from this date on (default: the last 12 months).
    """
    s = _series(series_id)
    today = ctx.today()
    start = since or today - dt.timedelta(days=365)
    days = [_published(s, p) for p, *_ in _path(ctx.population.seed, s.id, today)]
    return [d for d in days if start <= d <= today]


def _category(cid: int) -> Category:
    if cid not in _CATEGORIES:
        raise NotFound(f"no category {cid}", field="category_id", hint="start from category 0 (the root)")
    name, parent = _CATEGORIES[cid]
    kids = [k for k, (_, par) in _CATEGORIES.items() if par == cid]
    return Category(
        id=cid, name=name, parent_id=parent, children=kids, series=[s.id for s in _SERIES if s.category == cid]
    )


@service.tool(intent="browse the data categories", open_world=True, example=fixed_example(category_id=32991))
def get_category(ctx: Ctx, category_id: Annotated[int, Field(ge=0)] = 0) -> Category:
    """Get a category with its child categories and series (fred/category, /children, /series).

    Args:
        category_id: The category (0: the root).
    """
    return _category(category_id)


@service.tool(intent="list statistical releases", open_world=True)
def list_releases(ctx: Ctx) -> list[Release]:
    """List the statistical releases (fred/releases) with their agency and series."""
    return [
        Release(id=k, name=n, source=src, series=[s.id for s in _SERIES if s.release == k])
        for k, (n, src) in sorted(_RELEASES.items())
    ]


@service.tool(intent="list a release's publication dates", open_world=True, example=fixed_example(release_id=50))
def list_release_dates(
    ctx: Ctx, release_id: int, include_upcoming: bool = True, since: Date | None = None
) -> list[Date]:
    """List when a release is published (fred/release/dates), past and, optionally, scheduled.

    Args:
        release_id: The release.
        include_upcoming: Include the scheduled dates of the next three periods.
        since: First date (default: 6 months ago).
    """
    if release_id not in _RELEASES:
        raise NotFound(f"no release {release_id}", field="release_id", hint="list them with econstats__list_releases")
    today = ctx.today()
    start = since or today - dt.timedelta(days=182)
    end = today + dt.timedelta(days=100) if include_upcoming else today
    days: set[dt.date] = set()
    for s in _SERIES:
        if s.release == release_id:
            days.update(d for p in _periods(s, end) if start <= (d := _published(s, p)) <= end)
    return sorted(days)


# -- dashboards --------------------------------------------------------------------------------------------


class Dashboard(Timestamped):
    """A dashboard of series."""

    id: DashboardId
    name: Title
    """Its name (unique per owner)."""
    owner_email: Email
    """The employee who keeps it."""
    description: Text = ""
    """What it tracks."""
    status: Literal["active", "archived"] = "active"
    """active, or archived (frozen)."""


class Panel(Timestamped):
    """A series shown on a dashboard."""

    id: PanelId
    dashboard_id: DashboardId
    """The dashboard."""
    series_id: SeriesId
    """The series."""
    title: str
    """Panel title."""
    units: Units = "lin"
    """Transform shown."""


def _guard_dashboard(ctx: Ctx, new: Dashboard, old: Dashboard | None) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"dashboard {old.id} is archived", field="dashboard_id", hint="unarchive it first")
    if new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{new.owner_email} is not an employee", field="owner_email", hint="staff keep dashboards")
    for other in ctx.where(Dashboard, owner_email=new.owner_email, name=new.name):
        if other.id != new.id:
            raise Conflict(f"{new.owner_email} already has {new.name!r}: {other.id}", field="name", hint="rename it")


def _guard_dashboard_delete(ctx: Ctx, new: None, old: Dashboard) -> None:
    for p in ctx.where(Panel, dashboard_id=old.id):
        ctx.delete(p)


def _open_dashboard(ctx: Ctx, dashboard_id: str, field: str = "dashboard_id") -> Dashboard:
    d = ctx.get(Dashboard, dashboard_id, field=field)
    if d.status == "archived":
        raise RuleViolation(f"dashboard {d.id} is archived", field=field, hint="unarchive it first")
    return d


def _guard_panel(ctx: Ctx, new: Panel | None, old: Panel | None) -> None:
    _open_dashboard(ctx, (new or old).dashboard_id, "panel_id")  # type: ignore[union-attr]


dashboards = service.resource(
    Dashboard,
    name="dashboard",
    plural="dashboards",
    prefix="dash",
    create=("name", "owner_email", "description"),
    filters=("owner_email", "status"),
    search=("name", "description"),
    update=("name", "description", "owner_email"),
    transitions={
        "archive": Transition("status", ("active",), "archived", "archive the dashboard"),
        "unarchive": Transition("status", ("archived",), "active", "unarchive the dashboard"),
    },
    guard_create=_guard_dashboard,
    guard_update=_guard_dashboard,
    guard_delete=_guard_dashboard_delete,
    title="dashboard",
)
panels = service.resource(
    Panel,
    name="panel",
    plural="panels",
    prefix="pan",
    create=False,
    filters=("dashboard_id", "series_id"),
    search=("title",),
    update=("title", "units"),
    guard_update=_guard_panel,
    guard_delete=_guard_panel,
    title="dashboard panel",
)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    d = ctx.first(Dashboard, status="active")
    if d is None:
        return None
    have = {p.series_id for p in ctx.where(Panel, dashboard_id=d.id)}
    return {"dashboard_id": d.id, "series_id": next(s.id for s in _SERIES if s.id not in have)}


@service.tool(intent="add a series to the dashboard", write=True, example=_example_add)
def add_series(
    ctx: Ctx, dashboard_id: DashboardId, series_id: SeriesId, units: Units = "lin", title: str = ""
) -> Panel:
    """Show a series on a dashboard; a series is on a dashboard once, at most twelve series.

    Args:
        dashboard_id: The dashboard (active).
        series_id: The series.
        units: Transform to show (lin, chg, ch1, pch, pc1, log).
        title: Panel title (default: the series title).
    """
    d = _open_dashboard(ctx, dashboard_id)
    s = _series(series_id)
    mine = ctx.where(Panel, dashboard_id=d.id)
    for p in mine:
        if p.series_id == s.id:
            raise Conflict(f"{s.id} is already on the dashboard as {p.id}", field="series_id", hint="update that panel")
    if len(mine) >= MAX_PANELS:
        raise RuleViolation(f"dashboard {d.id} shows {MAX_PANELS} series", field="dashboard_id", hint="remove one")
    return ctx.create(Panel, dashboard_id=d.id, series_id=s.id, title=title or s.title, units=units)


class PanelValue(BaseModel):
    """A panel's latest value."""

    panel_id: PanelId = Field(description="The panel.")
    series_id: SeriesId = Field(description="The series.")
    title: str = Field(description="Panel title.")
    units: Units = Field(description="Transform.")
    date: Date = Field(description="Latest period.")
    value: float | None = Field(description="Latest value in the panel's units.")
    previous: float | None = Field(description="The period before.")


@service.tool(intent="read the dashboard's latest values", example=first_example(Dashboard, "dashboard_id"))
def dashboard_snapshot(ctx: Ctx, dashboard_id: DashboardId) -> list[PanelValue]:
    """Read each panel's latest value and the one before, in its units, as published today.

    Args:
        dashboard_id: The dashboard.
    """
    d = ctx.get(Dashboard, dashboard_id, field="dashboard_id")
    out = []
    for p in ctx.where(Panel, dashboard_id=d.id):
        s = _series(p.series_id)
        per_year = {"d": 260, "m": 12, "q": 4}[s.freq]
        obs = _transform(_known(ctx, s, ctx.today()), p.units, per_year)
        (day, value), prev = obs[-1], obs[-2][1] if len(obs) > 1 else None
        out.append(
            PanelValue(
                panel_id=p.id, series_id=s.id, title=p.title, units=p.units, date=day, value=value, previous=prev
            )
        )
    return out


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Finance's macro dashboard, a rates dashboard and an archived housing one."""
    owners = s.population.staff("Finance", "Sales", fallback=2)
    plans = (
        ("US macro monitor", "active", (("GDPC1", "pc1"), ("UNRATE", "lin"), ("CPIAUCSL", "pc1"), ("PAYEMS", "chg"))),
        ("Rates and money", "active", (("FEDFUNDS", "lin"), ("DGS10", "lin"), ("M2SL", "pc1"))),
        ("Housing 2024 review", "archived", (("HOUST", "lin"),)),
    )
    for k, (name, status, series) in enumerate(plans):
        d = s.create(
            Dashboard,
            name=name,
            owner_email=owners[k % len(owners)].email,
            description=f"{name} for the leadership team.",
            status=status,
            created_at=s.ago(days=200 - 50 * k),
            updated_at=s.ago(days=20),
        )
        for sid, units in series:
            s.create(
                Panel,
                dashboard_id=d.id,
                series_id=sid,
                title=_BY_ID[sid].title,
                units=units,
                created_at=s.ago(days=150),
                updated_at=s.ago(days=20),
            )
