"""Jobscope: job market data (job ads by keyword and place, salary histograms, top employers), saved searches, benchmarks.

Modeled on the Adzuna API (``/jobs/{country}/search/{page}`` with ``what``, ``where``,
``category``, ``salary_min``, ``full_time``, ``permanent``, ``max_days_old`` and
``sort_by``; ad objects with ``id``, ``title``, ``company.display_name``,
``location.display_name`` and ``area``, ``category.tag`` and ``label``,
``salary_min``, ``salary_max``, ``salary_is_predicted``, ``contract_type``,
``contract_time``, ``created``, ``redirect_url``; ``/jobs/{country}/histogram``,
``/jobs/{country}/top_companies``, ``/jobs/{country}/geodata``,
``/jobs/{country}/history`` and ``/jobs/{country}/categories``), with a people
team's saved searches and salary benchmarks as kept in compensation tools.

An open-world service: the ad index is a deterministic draw from the world seed:
the world's companies advertise roles that fit their industry in their own cities
(and agencies in every city of the world), posted over the last 60 days, with
annual salaries in the country's currency (whole units) by category, seniority
and country pay level; about a fifth are salaries Adzuna predicted. Histograms,
top companies, geodata and history are computed from the same ads, so they agree.
Stored state: saved searches an employee runs (a paused one is not run; a run
reports the ads posted since the last run) and salary benchmarks prepared from
at least five salaried ads, approved by someone else in People or Finance (four
eyes); an approved benchmark is frozen and only drafts are deleted.
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    City,
    CompanyName,
    Country,
    Currency,
    DateTime,
    Email,
    IdOf,
    SemanticType,
    Title,
    Url,
)
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "jobmarket",
    title="Jobscope",
    category="job_market_data",
    modeled_on="Adzuna API (jobs search, histogram, top_companies, geodata, history, categories) with saved "
    "searches and salary benchmarks",
    description="Job market data: search job ads by keywords, place, category, salary and contract, read an ad, see "
    "the salary distribution, the top hiring companies, ads by city and the monthly average salary, and keep saved "
    "searches that report new ads and salary benchmarks approved by a second person.",
)

AdId = Annotated[str, SemanticType("jobmarket.ad", kind="ref"), StringConstraints(pattern=r"^[0-9]{10}$")]
SavedSearchId = Annotated[str, IdOf("jobmarket.saved_search")]
BenchmarkId = Annotated[str, IdOf("jobmarket.benchmark")]
Words = Annotated[str, StringConstraints(min_length=2, max_length=120)]
Salary = Annotated[int, Field(ge=0, le=10**9)]
CategoryTag = Literal[
    "it-jobs",
    "sales-jobs",
    "accounting-finance-jobs",
    "hr-jobs",
    "customer-services-jobs",
    "logistics-warehouse-jobs",
    "pr-advertising-marketing-jobs",
    "engineering-jobs",
    "healthcare-nursing-jobs",
]
_CATEGORIES: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "it-jobs": ("IT Jobs", 115_000, ("Software Engineer", "Data Engineer", "DevOps Engineer", "QA Analyst")),
    "sales-jobs": ("Sales Jobs", 80_000, ("Account Executive", "Sales Development Representative", "Sales Manager")),
    "accounting-finance-jobs": ("Accounting & Finance Jobs", 85_000, ("Accountant", "Financial Analyst", "Controller")),
    "hr-jobs": ("HR & Recruitment Jobs", 75_000, ("HR Generalist", "Recruiter", "Payroll Specialist")),
    "customer-services-jobs": ("Customer Services Jobs", 48_000, ("Support Specialist", "Customer Success Manager")),
    "logistics-warehouse-jobs": (
        "Logistics & Warehouse Jobs",
        52_000,
        ("Warehouse Associate", "Logistics Coordinator"),
    ),
    "pr-advertising-marketing-jobs": (
        "PR, Advertising & Marketing Jobs",
        78_000,
        ("Marketing Manager", "Content Writer"),
    ),
    "engineering-jobs": ("Engineering Jobs", 95_000, ("Mechanical Engineer", "Process Engineer", "Quality Engineer")),
    "healthcare-nursing-jobs": ("Healthcare & Nursing Jobs", 70_000, ("Registered Nurse", "Medical Assistant")),
}
"""Tag: label, base annual salary in USD (mid level, US), titles."""
_BY_INDUSTRY = {
    "software": ("it-jobs", "sales-jobs", "customer-services-jobs"),
    "hardware": ("engineering-jobs", "it-jobs", "sales-jobs"),
    "healthcare": ("healthcare-nursing-jobs", "customer-services-jobs", "hr-jobs"),
    "logistics": ("logistics-warehouse-jobs", "customer-services-jobs"),
    "manufacturing": ("engineering-jobs", "logistics-warehouse-jobs"),
    "media": ("pr-advertising-marketing-jobs", "sales-jobs"),
    "retail": ("customer-services-jobs", "logistics-warehouse-jobs", "sales-jobs"),
}
_LEVELS = (("Junior", 0.72), ("", 1.0), ("Senior", 1.3), ("Lead", 1.5))
_PAY_TABLE = "US:1:1 GB:.72:.79 DE:.78:.92 FR:.68:.92 ES:.52:.92 IT:.56:.92 NL:.78:.92 SE:.7:10.5 CA:.8:1.36 AU:.85:1.52 JP:.6:150"
_PAY: dict[str, tuple[float, float]] = {
    c: (float(level), float(rate))
    for c, level, rate in (row.split(":") for row in f"{_PAY_TABLE} SG:.8:1.34 BR:.3:5".split())
}
"""Country: pay level against the US, local currency per USD."""
_AGENCIES = ("Hays Recruitment", "Randstad", "Michael Page", "Robert Half")
HISTORY_MONTHS = 24
MAX_SAVED = 10
MIN_SAMPLE = 5


@dataclass(frozen=True, slots=True)
class _Ad:
    id: str
    title: str
    category: str
    company: str
    city: str
    country: str
    currency: str
    latitude: float
    longitude: float
    salary_min: int
    salary_max: int
    predicted: bool
    salaried: bool
    permanent: bool
    full_time: bool
    created: dt.datetime


def _round(value: float, step: int) -> int:
    return max(step, round(value / step) * step)


def _step(country: str) -> int:
    """Salary rounding step in the country's currency: about 1,000 US dollars."""
    per_usd = _PAY.get(country, (1.0, 1.0))[1]
    return int(10 ** max(2, len(str(int(1000 * per_usd))) - 1))


@per_population
def _ads_of(pop: Population, today: dt.date) -> tuple[_Ad, ...]:
    r = random.Random(f"jobmarket:{pop.seed}")
    ads: list[_Ad] = []
    hirers = [
        (c.name, c.place, _BY_INDUSTRY.get(c.industry, ("sales-jobs", "accounting-finance-jobs")))
        for c in pop.companies
    ]
    hirers += [(a, p, tuple(_CATEGORIES)) for a in _AGENCIES for p in pop.places]
    local = [h for h in hirers if h[1] == pop.home.place]
    for n in range(900):
        # Every hirer twice, then anyone, with a third of the rest in the home company's city.
        pool = local if n % 3 == 0 and local else hirers
        name, place, tags = hirers[n % len(hirers)] if n < len(hirers) * 2 else r.choice(pool)
        tag = r.choice(tags)
        _, base, titles = _CATEGORIES[tag]
        level, mult = r.choice(_LEVELS)
        title = f"{level} {r.choice(titles)}".strip()
        level_pay, per_usd = _PAY.get(place.country, (1.0, 1.0))
        step = _step(place.country)
        mid = base * mult * level_pay * per_usd * r.uniform(0.88, 1.15)
        predicted = r.random() < 0.2
        lo, hi = (_round(mid, step),) * 2 if predicted else (_round(mid * 0.92, step), _round(mid * 1.08, step))
        created = dt.datetime.combine(today, dt.time(9), tzinfo=dt.UTC) - dt.timedelta(
            minutes=r.randint(60, 60 * 24 * 60)
        )
        ads.append(
            _Ad(
                id=f"{4_000_000_000 + 7919 * n + r.randint(0, 7000)}",
                title=title,
                category=tag,
                company=name,
                city=place.city,
                country=place.country,
                currency=place.currency if place.country in _PAY else "USD",
                latitude=round(place.latitude + r.uniform(-0.05, 0.05), 4),
                longitude=round(place.longitude + r.uniform(-0.05, 0.05), 4),
                salary_min=lo,
                salary_max=hi,
                predicted=predicted,
                salaried=r.random() < 0.9 or predicted,
                permanent=r.random() < 0.8,
                full_time=r.random() < 0.85,
                created=created,
            )
        )
    return tuple(sorted(ads, key=lambda a: a.id))


def _ads(ctx: Ctx) -> tuple[_Ad, ...]:
    return _ads_of(ctx.population, ctx.today())


def _countries(ctx: Ctx) -> set[str]:
    return {p.country for p in ctx.population.places}


def _check_country(ctx: Ctx, country: str, field: str = "country") -> None:
    if country not in _countries(ctx):
        have = ", ".join(sorted(_countries(ctx)))
        raise NotFound(f"no job ads indexed for {country}", field=field, hint=f"use one of {have}")


def _check_where(ctx: Ctx, country: str, where: str | None, field: str = "where") -> None:
    if where is not None and fold(where) not in {fold(p.city) for p in ctx.population.places if p.country == country}:
        raise NotFound(f"no location {where!r} in {country}", field=field, hint="use a city of that country or omit it")


def _matches(
    a: _Ad,
    country: str,
    what: str | None = None,
    where: str | None = None,
    category: str | None = None,
    company: str | None = None,
) -> bool:
    words = fold(what or "").split()
    return (
        a.country == country
        and all(w in fold(f"{a.title} {a.company}").split() for w in words)
        and (where is None or fold(where) == fold(a.city))
        and category in (None, a.category)
        and (company is None or fold(company) == fold(a.company))
    )


def _mid(a: _Ad) -> float:
    return (a.salary_min + a.salary_max) / 2


# -- result models -----------------------------------------------------------------------------------------


class JobAd(BaseModel):
    """A job ad."""

    id: AdId = Field(description="Ad id.")
    title: str = Field(description="Job title.")
    company: CompanyName = Field(description="Hiring company (display_name).")
    location: str = Field(description="Location display name (City, Country).")
    city: City = Field(description="City.")
    country: Country = Field(description="Country (ISO 3166-1 alpha-2).")
    latitude: float = Field(description="Latitude.")
    longitude: float = Field(description="Longitude.")
    category_tag: CategoryTag = Field(description="Category tag.")
    category_label: str = Field(description="Category label.")
    salary_min: int | None = Field(description="Lowest annual salary, whole units of the currency (none if unstated).")
    salary_max: int | None = Field(description="Highest annual salary, whole units of the currency.")
    salary_is_predicted: bool = Field(description="Whether the salary is Adzuna's prediction, not the advertiser's.")
    currency: Currency = Field(description="Currency of the salary.")
    contract_type: Literal["permanent", "contract"] = Field(description="permanent or contract.")
    contract_time: Literal["full_time", "part_time"] = Field(description="full_time or part_time.")
    created: DateTime = Field(description="When the ad was posted.")
    redirect_url: Url = Field(description="Link to the ad.")


class SearchResult(BaseModel):
    """A page of search results."""

    count: int = Field(description="Ads matching in all.")
    mean: float | None = Field(description="Mean salary (midpoint) of the matching salaried ads.")
    page: int = Field(description="This page.")
    results: list[JobAd] = Field(description="The ads of this page.")


class Bucket(BaseModel):
    """One bar of a salary histogram."""

    salary_from: int = Field(description="Lower bound (inclusive), whole units.")
    count: int = Field(description="Salaried ads whose midpoint is in the bucket.")


class Histogram(BaseModel):
    """The salary distribution of matching ads."""

    country: Country = Field(description="Country.")
    currency: Currency = Field(description="Currency.")
    bucket_size: int = Field(description="Width of a bucket.")
    buckets: list[Bucket] = Field(description="Buckets, lowest first (empty ones left out).")


class CompanyCount(BaseModel):
    """A hiring company's ads."""

    company: CompanyName = Field(description="Company display name.")
    count: int = Field(description="Matching ads.")
    average_salary: int | None = Field(description="Mean salary midpoint of its salaried ads.")


class LocationCount(BaseModel):
    """Ads in one city."""

    city: City = Field(description="City.")
    count: int = Field(description="Matching ads.")
    average_salary: int | None = Field(description="Mean salary midpoint of the salaried ads there.")


class MonthSalary(BaseModel):
    """The average advertised salary of one month."""

    month: str = Field(description="YYYY-MM.")
    average_salary: int = Field(description="Mean salary, whole units.")


class Category(BaseModel):
    """A job category."""

    tag: CategoryTag = Field(description="Tag.")
    label: str = Field(description="Label.")


def _ad(a: _Ad) -> JobAd:
    return JobAd(
        id=a.id,
        title=a.title,
        company=a.company,
        location=f"{a.city}, {a.country}",
        city=a.city,
        country=a.country,
        latitude=a.latitude,
        longitude=a.longitude,
        category_tag=a.category,
        category_label=_CATEGORIES[a.category][0],
        salary_min=a.salary_min if a.salaried else None,
        salary_max=a.salary_max if a.salaried else None,
        salary_is_predicted=a.predicted,
        currency=a.currency,
        contract_type="permanent" if a.permanent else "contract",
        contract_time="full_time" if a.full_time else "part_time",
        created=a.created,
        redirect_url=f"https://www.adzuna.com/details/{a.id}",
    )


def _quartiles(found: list[_Ad]) -> dict[str, Any]:
    q1, q2, q3 = statistics.quantiles(sorted(_mid(a) for a in found), n=4, method="inclusive")
    return {
        "currency": found[0].currency,
        "sample_size": len(found),
        "p25": round(q1),
        "median": round(q2),
        "p75": round(q3),
    }


def _mean(found: list[_Ad]) -> float | None:
    paid = [_mid(a) for a in found if a.salaried]
    return round(statistics.fmean(paid), 2) if paid else None


def _filtered(
    ctx: Ctx, country: str, what: str | None, where: str | None, category: str | None, company: str | None = None
) -> list[_Ad]:
    _check_country(ctx, country)
    _check_where(ctx, country, where)
    return [a for a in _ads(ctx) if _matches(a, country, what, where, category, company)]


# -- open-world tools --------------------------------------------------------------------------------------


def _example_country(ctx: Ctx) -> dict[str, Any]:
    return {"country": ctx.population.home.place.country}


@service.tool(intent="search job ads", open_world=True, example=_example_country)
def search_ads(
    ctx: Ctx,
    country: Country,
    what: Words | None = None,
    where: City | None = None,
    category: CategoryTag | None = None,
    company: CompanyName | None = None,
    salary_min: Salary | None = None,
    salary_max: Salary | None = None,
    full_time: bool | None = None,
    permanent: bool | None = None,
    max_days_old: Annotated[int, Field(ge=1, le=60)] | None = None,
    sort_by: Literal["date", "salary", "relevance"] = "relevance",
    page: Annotated[int, Field(ge=1, le=50)] = 1,
    results_per_page: Annotated[int, Field(ge=1, le=50)] = 20,
) -> SearchResult:
    """Search the job ads of a country (/jobs/{country}/search/{page}).

    Args:
        country: Country (ISO 3166-1 alpha-2).
        what: Words that must all appear in the title or company.
        where: City.
        category: Category tag (from jobmarket__list_categories).
        company: Exact hiring company name.
        salary_min: Only salaried ads paying at least this (salary_max of the ad), whole units.
        salary_max: Only salaried ads paying at most this (salary_min of the ad).
        full_time: True for full time only, False for part time only.
        permanent: True for permanent only, False for contracts only.
        max_days_old: Only ads posted in the last so many days.
        sort_by: date (newest first), salary (highest first) or relevance (by id).
        page: Page number.
        results_per_page: Ads per page.
    """
    if salary_min is not None and salary_max is not None and salary_max < salary_min:
        raise RuleViolation("salary_max is below salary_min", field="salary_max", hint="swap the bounds")
    found = _filtered(ctx, country, what, where, category, company)
    since = ctx.now() - dt.timedelta(days=max_days_old or 10_000)
    found = [
        a
        for a in found
        if (salary_min is None or (a.salaried and a.salary_max >= salary_min))
        and (salary_max is None or (a.salaried and a.salary_min <= salary_max))
        and full_time in (None, a.full_time)
        and permanent in (None, a.permanent)
        and a.created >= since
    ]
    if sort_by == "date":
        found.sort(key=lambda a: (a.created, a.id), reverse=True)
    elif sort_by == "salary":
        found.sort(key=lambda a: (-_mid(a) if a.salaried else 0, a.id))
    start = (page - 1) * results_per_page
    return SearchResult(
        count=len(found),
        mean=_mean(found),
        page=page,
        results=[_ad(a) for a in found[start : start + results_per_page]],
    )


def _example_ad(ctx: Ctx) -> dict[str, Any]:
    return {"ad_id": _ads(ctx)[0].id}


@service.tool(intent="get the job ad", open_world=True, example=_example_ad)
def get_ad(ctx: Ctx, ad_id: AdId) -> JobAd:
    """Get one job ad by id.

    Args:
        ad_id: The ad id.
    """
    found = next((a for a in _ads(ctx) if a.id == ad_id), None)
    if found is None:
        raise NotFound(f"no job ad {ad_id} (expired?)", field="ad_id", hint="search with jobmarket__search_ads")
    return _ad(found)


@service.tool(intent="get the salary distribution", open_world=True, example=_example_country)
def salary_histogram(
    ctx: Ctx,
    country: Country,
    what: Words | None = None,
    where: City | None = None,
    category: CategoryTag | None = None,
) -> Histogram:
    """Get the distribution of advertised salaries (midpoints) of matching ads (/jobs/{country}/histogram).

    Args:
        country: Country.
        what: Words of the title or company.
        where: City.
        category: Category tag.
    """
    found = [a for a in _filtered(ctx, country, what, where, category) if a.salaried]
    size = _step(country) * 10
    counts: dict[int, int] = {}
    for a in found:
        b = int(_mid(a) // size) * size
        counts[b] = counts.get(b, 0) + 1
    currency = next((p.currency for p in ctx.population.places if p.country == country), "USD")
    return Histogram(
        country=country,
        currency=currency if country in _PAY else "USD",
        bucket_size=size,
        buckets=[Bucket(salary_from=k, count=v) for k, v in sorted(counts.items())],
    )


@service.tool(intent="list the top hiring companies", open_world=True, example=_example_country)
def top_companies(
    ctx: Ctx,
    country: Country,
    what: Words | None = None,
    where: City | None = None,
    category: CategoryTag | None = None,
) -> list[CompanyCount]:
    """List the companies with the most matching ads, with their average salary (/jobs/{country}/top_companies).

    Args:
        country: Country.
        what: Words of the title or company.
        where: City.
        category: Category tag.
    """
    groups: dict[str, list[_Ad]] = {}
    for a in _filtered(ctx, country, what, where, category):
        groups.setdefault(a.company, []).append(a)
    out = [
        CompanyCount(company=c, count=len(ads), average_salary=None if (m := _mean(ads)) is None else round(m))
        for c, ads in groups.items()
    ]
    return sorted(out, key=lambda c: (-c.count, c.company))[:25]


@service.tool(intent="count job ads by city", open_world=True, example=_example_country)
def geodata(
    ctx: Ctx, country: Country, what: Words | None = None, category: CategoryTag | None = None
) -> list[LocationCount]:
    """Count matching ads in each city of a country, with the average salary there (/jobs/{country}/geodata).

    Args:
        country: Country.
        what: Words of the title or company.
        category: Category tag.
    """
    groups: dict[str, list[_Ad]] = {}
    for a in _filtered(ctx, country, what, None, category):
        groups.setdefault(a.city, []).append(a)
    return [
        LocationCount(city=c, count=len(ads), average_salary=None if (m := _mean(ads)) is None else round(m))
        for c, ads in sorted(groups.items())
    ]


def _avg_now(ctx: Ctx, country: str, category: str | None) -> float:
    found = [a for a in _ads(ctx) if a.country == country and category in (None, a.category) and a.salaried]
    mean = _mean(found)
    if mean is not None:
        return mean
    base = _CATEGORIES[category or "it-jobs"][1]
    level, per_usd = _PAY.get(country, (1.0, 1.0))
    return base * level * per_usd


@service.tool(intent="get the monthly average salary history", open_world=True, example=_example_country)
def salary_history(
    ctx: Ctx,
    country: Country,
    category: CategoryTag | None = None,
    months: Annotated[int, Field(ge=1, le=HISTORY_MONTHS)] = 12,
) -> list[MonthSalary]:
    """Get the average advertised salary of each past month, oldest first; the current month is today's mean.

    Args:
        country: Country.
        category: Category tag.
        months: How many months back (at most 24).
    """
    _check_country(ctx, country)
    now = _avg_now(ctx, country, category)
    today = ctx.today().replace(day=1)
    out = []
    for k in range(months, -1, -1):
        month = add_months(today, -k)
        noise = random.Random(f"jobmarket-history:{ctx.population.seed}:{country}:{category}:{month}").uniform(
            -0.015, 0.015
        )
        value = now if k == 0 else now / (1.003**k) * (1 + noise)
        out.append(MonthSalary(month=month.strftime("%Y-%m"), average_salary=round(value)))
    return out


@service.tool(intent="list the job categories", open_world=True)
def list_categories(ctx: Ctx) -> list[Category]:
    """List the job categories with their tags and labels (/jobs/{country}/categories)."""
    return [Category(tag=t, label=v[0]) for t, v in _CATEGORIES.items()]


# -- saved searches and benchmarks -------------------------------------------------------------------------


class SavedSearch(Timestamped):
    """A saved job-ad search an employee runs to follow the market."""

    id: SavedSearchId
    name: Title
    """Its name (unique per owner)."""
    owner_email: Email
    """The employee who keeps it."""
    country: Country
    """Country searched."""
    what: str | None = None
    """Keywords."""
    where: City | None = None
    """City."""
    category: CategoryTag | None = None
    """Category tag."""
    salary_min: Salary | None = None
    """Minimum salary, whole units."""
    alert_frequency: Literal["daily", "weekly", "never"] = "weekly"
    """How often new ads are e-mailed."""
    status: Literal["active", "paused"] = "active"
    """active, or paused (not run)."""
    last_run_at: DateTime | None = None
    """When it last ran; ads posted after this are new at the next run."""
    last_result_count: int = 0
    """Ads matching at the last run."""


class Benchmark(Timestamped):
    """A salary benchmark for a role, prepared from job ads and approved by a second person."""

    id: BenchmarkId
    job_title: Title
    """The role benchmarked (keywords searched)."""
    country: Country
    """Country."""
    city: City | None = None
    """City, if one."""
    category: CategoryTag | None = None
    """Category tag."""
    currency: Currency
    """Currency of the figures."""
    sample_size: int
    """Salaried ads used."""
    p25: int
    """25th percentile of salary midpoints."""
    median: int
    """Median."""
    p75: int
    """75th percentile."""
    prepared_by: Email
    """The employee who prepared it."""
    status: Literal["draft", "approved", "archived"] = "draft"
    """draft, approved (frozen) or archived."""
    approved_by: Email | None = None
    """Who approved it."""


def _staff(ctx: Ctx, *departments: str) -> set[str]:
    return {p.email for p in ctx.population.employees if not departments or p.department in departments}


def _check_owner(ctx: Ctx, owner: str, name: str, own_id: str = "") -> None:
    if owner not in _staff(ctx):
        raise RuleViolation(f"{owner} is not an employee", field="owner_email", hint="searches are kept by staff")
    same = [s for s in ctx.where(SavedSearch, owner_email=owner) if s.id != own_id]
    if any(fold(s.name) == fold(name) for s in same):
        raise Conflict(f"{owner} already has a search named {name!r}", field="name", hint="pick another name")


def _guard_saved(ctx: Ctx, new: SavedSearch, old: SavedSearch | None) -> None:
    _check_owner(ctx, new.owner_email, new.name, new.id)


def _guard_bench_delete(ctx: Ctx, new: None, old: Benchmark) -> None:
    if old.status != "draft":
        raise RuleViolation(f"benchmark {old.id} is {old.status}", field="benchmark_id", hint="only drafts are deleted")


saved_searches = service.resource(
    SavedSearch,
    name="saved_search",
    plural="saved_searches",
    prefix="jss",
    create=False,
    filters=("owner_email", "country", "category", "status"),
    search=("name", "what"),
    update=("name", "alert_frequency", "salary_min"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the saved search"),
        "resume": Transition("status", ("paused",), "active", "resume the saved search"),
    },
    guard_update=_guard_saved,
    title="saved job search",
)
benchmarks = service.resource(
    Benchmark,
    name="benchmark",
    plural="benchmarks",
    prefix="jbm",
    create=False,
    filters=("country", "category", "status", "prepared_by"),
    search=("job_title",),
    transitions={"archive": Transition("status", ("approved",), "archived", "archive the salary benchmark")},
    guard_delete=_guard_bench_delete,
    title="salary benchmark",
)


def _example_save(ctx: Ctx) -> dict[str, Any]:
    home = ctx.population.home.place
    return {
        "name": f"Data roles in {home.city}",
        "owner_email": ctx.population.staff("People", fallback=1)[0].email,
        "country": home.country,
        "what": "data",
        "where": home.city,
        "category": "it-jobs",
    }


@service.tool(intent="save a job search", write=True, example=_example_save)
def save_search(
    ctx: Ctx,
    name: Title,
    owner_email: Email,
    country: Country,
    what: Words | None = None,
    where: City | None = None,
    category: CategoryTag | None = None,
    salary_min: Salary | None = None,
    alert_frequency: Literal["daily", "weekly", "never"] = "weekly",
) -> SavedSearch:
    """Save a job-ad search for an employee (at most 10 active each; names unique per owner).

    Args:
        name: Its name.
        owner_email: The employee who keeps it.
        country: Country searched.
        what: Keywords.
        where: City (in that country).
        category: Category tag.
        salary_min: Minimum salary, whole units.
        alert_frequency: daily, weekly or never.
    """
    _check_country(ctx, country)
    _check_where(ctx, country, where)
    if len(ctx.where(SavedSearch, owner_email=owner_email, status="active")) >= MAX_SAVED:
        msg = f"{owner_email} already has {MAX_SAVED} active saved searches"
        raise RuleViolation(msg, field="owner_email", hint="pause or delete one first")
    _check_owner(ctx, owner_email, name)
    return ctx.create(
        SavedSearch,
        name=name,
        owner_email=owner_email,
        country=country,
        what=what,
        where=where,
        category=category,
        salary_min=salary_min,
        alert_frequency=alert_frequency,
    )


class RunResult(BaseModel):
    """What a saved search found."""

    saved_search_id: SavedSearchId = Field(description="The search.")
    count: int = Field(description="Ads matching now.")
    new_ads: list[JobAd] = Field(description="Ads posted since the last run, newest first.")


def _example_run(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(SavedSearch, status="active")
    return None if s is None else {"saved_search_id": s.id}


@service.tool(intent="run the saved search", write=True, example=_example_run)
def run_saved_search(ctx: Ctx, saved_search_id: SavedSearchId) -> RunResult:
    """Run a saved search: count its matches and list the ads posted since the last run.

    Args:
        saved_search_id: The saved search (active).
    """
    s = ctx.get(SavedSearch, saved_search_id, field="saved_search_id")
    if s.status != "active":
        raise RuleViolation(f"saved search {s.id} is paused", field="saved_search_id", hint="resume it first")
    found = [
        a
        for a in _filtered(ctx, s.country, s.what, s.where, s.category)
        if s.salary_min is None or (a.salaried and a.salary_max >= s.salary_min)
    ]
    new = sorted((a for a in found if s.last_run_at is None or a.created > s.last_run_at), key=lambda a: a.created)
    ctx.update(s, last_run_at=ctx.now(), last_result_count=len(found))
    return RunResult(saved_search_id=s.id, count=len(found), new_ads=[_ad(a) for a in reversed(new)])


def _example_bench(ctx: Ctx) -> dict[str, Any]:
    country = max(sorted(_countries(ctx)), key=lambda c: sum(a.country == c for a in _ads(ctx)))
    return {
        "job_title": "Engineer",
        "country": country,
        "prepared_by": ctx.population.staff("People", fallback=1)[0].email,
    }


@service.tool(intent="prepare a salary benchmark", write=True, example=_example_bench)
def create_benchmark(
    ctx: Ctx,
    job_title: Title,
    country: Country,
    prepared_by: Email,
    city: City | None = None,
    category: CategoryTag | None = None,
) -> Benchmark:
    """Prepare a draft salary benchmark from the salaried ads matching a role (at least five are needed).

    Args:
        job_title: The role; its words must all appear in an ad's title or company.
        country: Country.
        prepared_by: The employee preparing it.
        city: Only ads in this city.
        category: Only ads in this category.
    """
    if prepared_by not in _staff(ctx):
        raise RuleViolation(f"{prepared_by} is not an employee", field="prepared_by", hint="benchmarks are staff work")
    found = [a for a in _filtered(ctx, country, job_title, city, category) if a.salaried]
    if len(found) < MIN_SAMPLE:
        msg = f"only {len(found)} salaried ads match {job_title!r}; a benchmark needs {MIN_SAMPLE}"
        raise RuleViolation(msg, field="job_title", hint="use broader keywords or drop the city")
    return ctx.create(
        Benchmark,
        job_title=job_title,
        country=country,
        city=city,
        category=category,
        **_quartiles(found),
        prepared_by=prepared_by,
    )


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Benchmark, status="draft")
    if b is None:
        return None
    who = next(iter(sorted(_staff(ctx, "People", "Finance") - {b.prepared_by})), None)
    return None if who is None else {"benchmark_id": b.id, "approved_by": who}


@service.tool(intent="approve the salary benchmark", write=True, example=_example_approve)
def approve_benchmark(ctx: Ctx, benchmark_id: BenchmarkId, approved_by: Email) -> Benchmark:
    """Approve a draft benchmark; the approver works in People or Finance and did not prepare it.

    Args:
        benchmark_id: The benchmark (draft).
        approved_by: The approving employee.
    """
    b = ctx.get(Benchmark, benchmark_id, field="benchmark_id")
    if b.status != "draft":
        raise RuleViolation(f"benchmark {b.id} is already {b.status}", field="benchmark_id", hint="pick a draft")
    if approved_by not in _staff(ctx, "People", "Finance"):
        msg = f"{approved_by} is not in People or Finance"
        raise RuleViolation(msg, field="approved_by", hint="ask a People or Finance colleague")
    if approved_by == b.prepared_by:
        raise RuleViolation("the preparer cannot approve their own benchmark", field="approved_by", hint="four eyes")
    return ctx.update(b, status="approved", approved_by=approved_by)


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """People's saved searches in the home country and benchmarks, draft and approved."""
    pop = s.population
    home = pop.home.place
    people = pop.staff("People", fallback=2)
    approver = next(p for p in [*pop.staff("Finance"), *pop.employees] if p.email != people[0].email)
    plans = (
        ("Engineers at home", "engineer", None, "it-jobs", "active", 30),
        (f"Sales roles in {home.city}", None, home.city, "sales-jobs", "active", 10),
        ("Support benchmark watch", "support", None, None, "paused", 45),
    )
    for k, (name, what, where, cat, status, days) in enumerate(plans):
        search = {"name": name, "what": what, "where": where, "category": cat, "status": status}
        when = {"last_run_at": s.ago(days=days), "created_at": s.ago(days=90), "updated_at": s.ago(days=days)}
        s.create(SavedSearch, **search, **when, owner_email=people[k % len(people)].email, country=home.country)
    ads = _ads_of(pop, s.now.date())
    for k, (title, status) in enumerate((("Engineer", "approved"), ("Sales", "draft"))):
        found = [a for a in ads if _matches(a, home.country, title) and a.salaried]
        if len(found) < MIN_SAMPLE:
            continue
        s.create(
            Benchmark,
            job_title=title,
            country=home.country,
            **_quartiles(found),
            prepared_by=people[0].email,
            status=status,
            approved_by=approver.email if status == "approved" else None,
            created_at=s.ago(days=20 - k),
            updated_at=s.ago(days=18 - k),
        )
