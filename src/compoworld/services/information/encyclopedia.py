"""Lexipedia: encyclopedia articles on the world's companies, cities, countries and notable people, and reading lists.

Modeled on the Wikimedia REST API (``/page/summary/{title}``, ``/page/mobile-sections``,
``/page/related/{title}``, ``/feed/onthisday/births``, ``/feed/featured`` most read, the Pageviews API
``/metrics/pageviews/per-article``, the MediaWiki ``search`` and ``langlinks`` queries) and the
Wikipedia app's Reading Lists API (lists and their entries).

The articles are an open world written from the world itself: every company of the population has
an article with its real name, domain, industry, headquarters, size and the founding year the
``companyinfo`` service reports (drawn the same way from the world seed and the domain); every city
of the map has one with its real coordinates, time zone and currency (those of ``maps`` and
``weather``), every country of those cities one, and the executives of the world's companies one
each, with their real birth dates and employers. Page views, founding days and language links are
drawn from the world seed and the page alone, so every tool agrees. Reading lists are the service's
own records: each holds existing articles only, once each, at most 50.
"""

from __future__ import annotations

import datetime as dt
import difflib
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    City,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Domain,
    Email,
    IdOf,
    JobTitle,
    Language,
    Latitude,
    Longitude,
    PersonName,
    Quantity,
    Text,
    Timezone,
    Title,
    Url,
)
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.records import Timestamped
from compoworld.world.geo import CITIES, COUNTRY_CURRENCY, country_name

__all__ = ["service"]

service = Service(
    "encyclopedia",
    title="Lexipedia",
    category="knowledge",
    modeled_on="Wikimedia REST API (page summary, mobile sections, related, on this day, most read), Pageviews "
    "API, MediaWiki search and langlinks, and the Wikipedia Reading Lists API",
    description="An encyclopedia of the world: articles on its companies, cities, countries and executives "
    "with summaries, sections, related articles, page views, most-read lists, on-this-day births and "
    "foundings and language links, plus readers' reading lists.",
)

ListId = Annotated[str, IdOf("encyclopedia.reading_list")]
EntryId = Annotated[str, IdOf("encyclopedia.reading_list_entry")]
PageTitle = Annotated[str, StringConstraints(min_length=1, max_length=200, strip_whitespace=True)]
Kind = Literal["company", "city", "country", "person"]
BASE_URL = "https://en.lexipedia.org/wiki/"
MAX_ENTRIES = 50
MAX_VIEW_DAYS = 366

_CITY_POPULATION: dict[str, int] = {
    "Berlin": 3_755_000,
    "Munich": 1_512_000,
    "Paris": 2_103_000,
    "Lyon": 522_000,
    "Madrid": 3_332_000,
    "Milan": 1_371_000,
    "Amsterdam": 931_000,
    "Stockholm": 984_000,
    "London": 8_866_000,
    "Manchester": 568_000,
    "New York": 8_258_000,
    "Chicago": 2_665_000,
    "Austin": 974_000,
    "San Francisco": 808_000,
    "Seattle": 755_000,
    "Toronto": 2_794_000,
    "Tokyo": 14_047_000,
    "Singapore": 5_918_000,
    "Sydney": 5_450_000,
    "Sao Paulo": 11_451_000,
}
_LOCAL_NAMES: dict[str, dict[str, str]] = {
    "Munich": {"de": "München", "it": "Monaco di Baviera"},
    "Milan": {"it": "Milano", "de": "Mailand"},
    "Cologne": {"de": "Köln"},
    "Vienna": {"de": "Wien"},
    "Rome": {"it": "Roma"},
    "Lisbon": {"pt": "Lisboa"},
    "Prague": {"cs": "Praha"},
    "Warsaw": {"pl": "Warszawa"},
    "Copenhagen": {"da": "København"},
    "Gothenburg": {"sv": "Göteborg"},
    "Sao Paulo": {"pt": "São Paulo"},
    "Tokyo": {"ja": "東京"},
    "Seoul": {"ko": "서울"},
    "Beijing": {"zh": "北京"},
    "Moscow": {"ru": "Москва"},
}
_LANG: dict[str, str] = {
    "DE": "de", "FR": "fr", "ES": "es", "IT": "it", "NL": "nl", "SE": "sv", "JP": "ja", "BR": "pt", "PT": "pt",
    "AT": "de", "CH": "de", "PL": "pl", "CZ": "cs", "DK": "da", "NO": "no", "FI": "fi", "RU": "ru", "KR": "ko",
    "CN": "zh", "TR": "tr", "GR": "el", "MX": "es", "AR": "es", "CO": "es", "PE": "es", "CL": "es",
}  # fmt: skip
_INDUSTRY_WORDS: dict[str, str] = {
    "software": "software",
    "logistics": "logistics",
    "food": "food production",
    "healthcare": "healthcare",
    "manufacturing": "manufacturing",
    "retail": "retail",
    "consulting": "consulting",
    "energy": "energy",
    "media": "media",
    "hardware": "robotics and hardware",
    "wholesale": "wholesale supply",
}
EXECUTIVE_TITLES = ("Chief Executive Officer", "Chief Financial Officer", "Operations Director")


@dataclass(frozen=True, slots=True)
class Page:
    """One article."""

    title: str
    kind: Kind
    description: str
    extract: str
    country: str | None
    city: str | None
    latitude: float | None
    longitude: float | None
    timezone: str | None
    currency: str | None
    company: str | None
    domain: str | None
    industry: str | None
    employees: int | None
    founded: dt.date | None
    person: str | None
    job_title: str | None
    birth_date: dt.date | None
    population: int | None
    facts: tuple[tuple[str, str], ...]
    links: tuple[str, ...]


def _founded_year(seed: int, domain: str, employees: int) -> int:
    """The founding year the companyinfo service reports (same stream: world seed, "profile", domain)."""
    rng = random.Random(":".join(("companyinfo", str(seed), "profile", domain)))
    young = {12: (2014, 2023), 40: (2008, 2021), 85: (2000, 2019), 150: (1995, 2017), 400: (1985, 2012)}
    lo, hi = young.get(employees, (1950, 2005))
    return rng.randint(lo, hi)


def _city_title(city: str, country: str, dupes: set[str]) -> str:
    return f"{city}, {country_name(country)}" if city in dupes else city


def _fmt_date(day: dt.date) -> str:
    return f"{day:%B} {day.day}, {day.year}"


@per_population
def pages_of(pop: Population) -> dict[str, Page]:
    """Every article of a world, by title (built once per population)."""
    pages: dict[str, Page] = {}
    seed = pop.seed
    names = [c.city for c in CITIES]
    dupes = {n for n in names if names.count(n) > 1}
    city_titles = {_city_title(c.city, c.country, dupes) for c in CITIES}

    def country_title(code: str) -> str:
        name = country_name(code)
        return f"{name} (country)" if name in city_titles else name  # a city-state's city keeps the plain title

    hq: dict[str, list[str]] = {}
    for company in pop.companies:
        hq.setdefault(company.place.city, []).append(company.name)
    executives = [p for p in pop.contacts if p.job_title in EXECUTIVE_TITLES]
    home_heads = sorted(
        (p for p in pop.employees if "Manager" in p.job_title), key=lambda p: (p.hire_date or dt.date.min, p.key)
    )[:3]
    notable = executives + home_heads
    person_titles: dict[str, str] = {}
    for p in notable:
        title = p.name if p.name not in person_titles.values() else f"{p.name} ({p.job_title.lower()})"
        person_titles[p.key] = title
    for company in pop.companies:
        year = _founded_year(seed, company.domain, company.employees)
        rng = random.Random(f"compoworld-encyclopedia:{seed}:founded:{company.domain}")
        founded = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
        size = "small" if company.employees < 100 else "mid-sized" if company.employees < 1000 else "large"
        industry = _INDUSTRY_WORDS.get(company.industry, company.industry)
        place = company.place
        peers = [c.name for c in pop.companies if c.industry == company.industry and c.key != company.key][:3]
        people = [person_titles[p.key] for p in notable if p.company_key == company.key]
        pages[company.name] = Page(
            title=company.name,
            kind="company",
            description=f"{industry.capitalize()} company based in {place.city}",
            extract=f"{company.name} is a {size} {industry} company headquartered in {place.city}, "
            f"{country_name(place.country)}. Founded in {year}, it employs about {company.employees:,} people."
            + (" It runs the internal systems of this world." if company.home else ""),
            country=place.country,
            city=place.city,
            latitude=place.latitude,
            longitude=place.longitude,
            timezone=place.timezone,
            currency=place.currency,
            company=company.name,
            domain=company.domain,
            industry=company.industry,
            employees=company.employees,
            founded=founded,
            person=None,
            job_title=None,
            birth_date=None,
            population=None,
            facts=(
                ("Type", "Private company"),
                ("Industry", industry.capitalize()),
                ("Founded", str(year)),
                ("Headquarters", f"{place.city}, {country_name(place.country)}"),
                ("Number of employees", f"{company.employees:,}"),
                ("Website", f"https://www.{company.domain}"),
            ),
            links=(_city_title(place.city, place.country, dupes), *people, *peers),
        )
    for ref in CITIES:
        title = _city_title(ref.city, ref.country, dupes)
        popn = _CITY_POPULATION.get(ref.city)
        companies = sorted(hq.get(ref.city, [])) if ref.world else []
        pages[title] = Page(
            title=title,
            kind="city",
            description=f"City in {country_name(ref.country)}",
            extract=f"{ref.city} is a city in {country_name(ref.country)}"
            + (f" with a population of about {popn:,}" if popn else "")
            + f". It lies at {abs(ref.latitude):.2f}°{'N' if ref.latitude >= 0 else 'S'}, "
            f"{abs(ref.longitude):.2f}°{'E' if ref.longitude >= 0 else 'W'} in the {ref.timezone} time zone."
            + (f" Companies headquartered there include {', '.join(companies[:3])}." if companies else ""),
            country=ref.country,
            city=ref.city,
            latitude=ref.latitude,
            longitude=ref.longitude,
            timezone=ref.timezone,
            currency=ref.currency,
            company=None,
            domain=None,
            industry=None,
            employees=None,
            founded=None,
            person=None,
            job_title=None,
            birth_date=None,
            population=popn,
            facts=(
                ("Country", country_name(ref.country)),
                ("Coordinates", f"{ref.latitude:.3f}, {ref.longitude:.3f}"),
                ("Time zone", ref.timezone),
                ("Currency", ref.currency),
                *((("Population", f"{popn:,}"),) if popn else ()),
            ),
            links=(country_title(ref.country), *companies[:5]),
        )
    for code in sorted({c.country for c in CITIES}):
        name = country_title(code)
        cities = [_city_title(c.city, c.country, dupes) for c in CITIES if c.country == code]
        currency = COUNTRY_CURRENCY[code]
        pages[name] = Page(
            title=name,
            kind="country",
            description="Country",
            extract=f"{country_name(code)} (ISO code {code}) is a country whose currency is the {currency}. "
            f"Its cities in this encyclopedia are {', '.join(cities)}.",
            country=code,
            city=None,
            latitude=None,
            longitude=None,
            timezone=None,
            currency=currency,
            company=None,
            domain=None,
            industry=None,
            employees=None,
            founded=None,
            person=None,
            job_title=None,
            birth_date=None,
            population=None,
            facts=(("ISO code", code), ("Currency", currency), ("Cities", ", ".join(cities))),
            links=tuple(cities),
        )
    for p in notable:
        employer = pop.company_of(p)
        if employer is None:  # pragma: no cover - notable people all work somewhere
            continue
        title = person_titles[p.key]
        pages[title] = Page(
            title=title,
            kind="person",
            description=f"{p.job_title} of {employer.name}",
            extract=f"{p.name} (born {_fmt_date(p.birth_date)}) is a businessperson, {p.job_title.lower()} of "
            f"{employer.name} in {employer.place.city}.",
            country=p.place.country,
            city=p.place.city,
            latitude=None,
            longitude=None,
            timezone=None,
            currency=None,
            company=employer.name,
            domain=employer.domain,
            industry=employer.industry,
            employees=None,
            founded=None,
            person=p.name,
            job_title=p.job_title,
            birth_date=p.birth_date,
            population=None,
            facts=(
                ("Born", _fmt_date(p.birth_date)),
                ("Occupation", p.job_title),
                ("Employer", employer.name),
                ("Residence", p.place.city),
            ),
            links=(employer.name, _city_title(p.place.city, p.place.country, dupes)),
        )
    return pages


def _pages(ctx: Ctx) -> dict[str, Page]:
    return pages_of(ctx.population)


def _find(ctx: Ctx, title: str, field: str = "title") -> Page:
    pages = _pages(ctx)
    wanted = title.replace("_", " ").strip()
    if wanted in pages:
        return pages[wanted]
    folded = wanted.casefold()
    for page in pages.values():
        if page.title.casefold() == folded or (page.domain and page.kind == "company" and page.domain == folded):
            return page
    close = difflib.get_close_matches(wanted, list(pages), n=3, cutoff=0.6)
    raise NotFound(
        f"no article titled {title!r}",
        field=field,
        hint=("did you mean: " + "; ".join(close)) if close else "search with encyclopedia__search_pages",
    )


def _url(title: str) -> str:
    return BASE_URL + title.replace(" ", "_")


class Summary(BaseModel):
    """An article's summary (page/summary)."""

    title: str = Field(description="Article title.")
    kind: Kind = Field(description="company, city, country or person.")
    description: str = Field(description="Short description.")
    extract: str = Field(description="First paragraph.")
    url: Url = Field(description="Article URL.")
    company: CompanyName | None = Field(description="The company (company and person articles).")
    domain: Domain | None = Field(description="The company's web domain.")
    person: PersonName | None = Field(description="The person (person articles).")
    job_title: JobTitle | None = Field(description="The person's position.")
    birth_date: Date | None = Field(description="The person's date of birth.")
    city: City | None = Field(description="The city (or headquarters / residence).")
    country: Country | None = Field(description="ISO country code.")
    latitude: Latitude | None = Field(description="Latitude of a city or headquarters.")
    longitude: Longitude | None = Field(description="Longitude of a city or headquarters.")
    timezone: Timezone | None = Field(description="Time zone of a city or headquarters.")
    currency: Currency | None = Field(description="Currency of a city, country or headquarters.")
    founded_year: int | None = Field(description="Year a company was founded.")
    employees: Quantity | None = Field(description="A company's employees.")
    population: Quantity | None = Field(description="A city's population, where known.")
    website: Url | None = Field(description="A company's website.")


def _summary(page: Page) -> Summary:
    return Summary(
        title=page.title,
        kind=page.kind,
        description=page.description,
        extract=page.extract,
        url=_url(page.title),
        company=page.company,
        domain=page.domain,
        person=page.person,
        job_title=page.job_title,
        birth_date=page.birth_date,
        city=page.city,
        country=page.country,
        latitude=page.latitude,
        longitude=page.longitude,
        timezone=page.timezone,
        currency=page.currency,
        founded_year=page.founded.year if page.founded else None,
        employees=page.employees,
        population=page.population,
        website=f"https://www.{page.domain}" if page.kind == "company" and page.domain else None,
    )


# -- open-world tools --------------------------------------------------------------------------------------


def _example_title(ctx: Ctx) -> dict[str, Any]:
    return {"title": ctx.population.home.name}


@service.tool(intent="read the encyclopedia summary of the topic", open_world=True, example=_example_title)
def page_summary(ctx: Ctx, title: PageTitle) -> Summary:
    """Get an article's summary by title (case-insensitive; underscores allowed; a company's domain also works).

    Args:
        title: Article title, e.g. a company, a city, a country or a person.
    """
    return _summary(_find(ctx, title))


def _example_company(ctx: Ctx) -> dict[str, Any]:
    return {"company": ctx.population.customers[0].name}


@service.tool(intent="read the encyclopedia article on the company", open_world=True, example=_example_company)
def company_article(ctx: Ctx, company: CompanyName) -> Summary:
    """Get the article on a company by its name.

    Args:
        company: Company name.
    """
    page = _find(ctx, company, "company")
    if page.kind != "company":
        raise NotFound(f"{company!r} is not a company article", field="company", hint="use encyclopedia__page_summary")
    return _summary(page)


def _example_person(ctx: Ctx) -> dict[str, Any] | None:
    page = next((p for p in _pages(ctx).values() if p.kind == "person"), None)
    return None if page is None or page.person is None else {"name": page.person}


@service.tool(intent="read the encyclopedia article on the person", open_world=True, example=_example_person)
def person_article(ctx: Ctx, name: PersonName) -> Summary:
    """Get the article on a notable person (a company executive) by name.

    Args:
        name: The person's full name.
    """
    found = [p for p in _pages(ctx).values() if p.kind == "person" and (p.person or "").casefold() == name.casefold()]
    if not found:
        raise NotFound(
            f"no article on a person named {name!r}",
            field="name",
            hint="only notable people (company executives) have articles; search with encyclopedia__search_pages",
        )
    return _summary(found[0])


class Section(BaseModel):
    """One section of an article."""

    heading: str = Field(description="Section heading.")
    text: str = Field(description="Section text.")


class Content(BaseModel):
    """An article's full content (mobile-sections) with its infobox."""

    title: str = Field(description="Article title.")
    url: Url = Field(description="Article URL.")
    infobox: list[Section] = Field(description="Infobox facts as heading/text pairs.")
    sections: list[Section] = Field(description="Sections in order.")
    links: list[str] = Field(description="Titles of the articles it links to.")


@service.tool(intent="read the whole encyclopedia article", open_world=True, example=_example_title)
def page_content(ctx: Ctx, title: PageTitle) -> Content:
    """Get an article's infobox, sections and links.

    Args:
        title: Article title.
    """
    page = _find(ctx, title)
    sections = [Section(heading="Overview", text=page.extract)]
    if page.kind == "company" and page.founded is not None:
        sections.append(
            Section(heading="History", text=f"{page.title} was founded on {_fmt_date(page.founded)} in {page.city}.")
        )
        people = [t for t in page.links if _pages(ctx).get(t) and _pages(ctx)[t].kind == "person"]
        if people:
            sections.append(Section(heading="Key people", text="; ".join(people)))
    if page.kind == "city":
        sections.append(Section(heading="Geography", text=f"Time zone {page.timezone}; currency {page.currency}."))
    if page.kind == "person" and page.birth_date is not None:
        sections.append(Section(heading="Early life", text=f"{page.person} was born on {_fmt_date(page.birth_date)}."))
        sections.append(Section(heading="Career", text=f"{page.person} is {page.description.lower()}."))
    return Content(
        title=page.title,
        url=_url(page.title),
        infobox=[Section(heading=k, text=v) for k, v in page.facts],
        sections=sections,
        links=list(page.links),
    )


class SearchHit(BaseModel):
    """One search result."""

    title: str = Field(description="Article title.")
    kind: Kind = Field(description="Article kind.")
    description: str = Field(description="Short description.")
    url: Url = Field(description="Article URL.")
    score: float = Field(description="Relevance (higher is better).")


def _example_search(ctx: Ctx) -> dict[str, Any]:
    return {"query": ctx.population.home.place.city}


@service.tool(intent="search the encyclopedia", open_world=True, example=_example_search)
def search_pages(
    ctx: Ctx,
    query: Annotated[str, StringConstraints(min_length=1, max_length=200, strip_whitespace=True)],
    kind: Kind | None = None,
    limit: Annotated[int, Field(ge=1, le=50)] = 10,
) -> list[SearchHit]:
    """Full-text search over titles, descriptions and first paragraphs; title matches rank first.

    Args:
        query: Words to look for.
        kind: Only articles of this kind.
        limit: Most results.
    """
    words = [w for w in query.casefold().split() if w]
    hits: list[SearchHit] = []
    for page in _pages(ctx).values():
        if kind is not None and page.kind != kind:
            continue
        title, body = page.title.casefold(), f"{page.description} {page.extract}".casefold()
        if not all(w in title or w in body for w in words):
            continue
        score = sum(3.0 if w in title else 1.0 for w in words) + (2.0 if title == query.casefold() else 0.0)
        hits.append(
            SearchHit(title=page.title, kind=page.kind, description=page.description, url=_url(page.title), score=score)
        )
    hits.sort(key=lambda h: (-h.score, h.title))
    return hits[:limit]


@service.tool(intent="find articles related to the topic", open_world=True, example=_example_title)
def related_pages(ctx: Ctx, title: PageTitle) -> list[Summary]:
    """List the articles an article links to (its headquarters, people, peers, country, cities …).

    Args:
        title: Article title.
    """
    page = _find(ctx, title)
    pages = _pages(ctx)
    return [_summary(pages[t]) for t in page.links if t in pages]


def _views(seed: int, page: Page, day: dt.date) -> int:
    base = {
        "city": (page.population or 400_000) // 300,
        "country": 9_000,
        "company": 8 + (page.employees or 10) // 15,
        "person": 35,
    }[page.kind]
    rng = random.Random(f"compoworld-encyclopedia:{seed}:views:{page.title}:{day.isoformat()}")
    weekend = 0.8 if day.weekday() >= 5 else 1.0
    return max(0, round(base * weekend * rng.uniform(0.6, 1.5)))


class DayViews(BaseModel):
    """Views of an article on one day."""

    date: Date = Field(description="The day.")
    views: Quantity = Field(description="Page views.")


class PageViews(BaseModel):
    """Daily page views of an article."""

    title: str = Field(description="Article title.")
    start: Date = Field(description="First day.")
    end: Date = Field(description="Last day.")
    total: Quantity = Field(description="Views in the period.")
    daily: list[DayViews] = Field(description="Views per day.")


def _example_views(ctx: Ctx) -> dict[str, Any]:
    today = ctx.today()
    return {
        "title": ctx.population.home.place.city,
        "start": (today - dt.timedelta(days=7)).isoformat(),
        "end": (today - dt.timedelta(days=1)).isoformat(),
    }


@service.tool(intent="check how often the article is read", open_world=True, example=_example_views)
def page_views(ctx: Ctx, title: PageTitle, start: Date, end: Date) -> PageViews:
    """Daily views of an article between two past dates (both included, up to yesterday, at most 366 days).

    Args:
        title: Article title.
        start: First day.
        end: Last day (before today).
    """
    page = _find(ctx, title)
    if end >= ctx.today():
        raise RuleViolation("views are only known up to yesterday", field="end", hint="end the range yesterday")
    if start > end or (end - start).days >= MAX_VIEW_DAYS:
        raise RuleViolation(
            "the range must run forwards and span at most 366 days", field="start", hint="choose a shorter range"
        )
    seed = ctx.population.seed
    daily = [
        DayViews(date=start + dt.timedelta(days=k), views=_views(seed, page, start + dt.timedelta(days=k)))
        for k in range((end - start).days + 1)
    ]
    return PageViews(title=page.title, start=start, end=end, total=sum(d.views for d in daily), daily=daily)


class MostRead(BaseModel):
    """One of a day's most read articles."""

    rank: int = Field(description="1 for the most read.")
    title: str = Field(description="Article title.")
    kind: Kind = Field(description="Article kind.")
    views: Quantity = Field(description="Views that day.")


def _example_day(ctx: Ctx) -> dict[str, Any]:
    return {"date": (ctx.today() - dt.timedelta(days=1)).isoformat()}


@service.tool(intent="see the most read articles of the day", open_world=True, example=_example_day)
def most_read(
    ctx: Ctx, date: Date, kind: Kind | None = None, limit: Annotated[int, Field(ge=1, le=50)] = 10
) -> list[MostRead]:
    """The most read articles on a past day (the same counts as encyclopedia__page_views).

    Args:
        date: The day (before today).
        kind: Only articles of this kind.
        limit: How many.
    """
    if date >= ctx.today():
        raise RuleViolation("views are only known up to yesterday", field="date", hint="ask for an earlier day")
    seed = ctx.population.seed
    rows = [(p.title, p.kind, _views(seed, p, date)) for p in _pages(ctx).values() if kind is None or p.kind == kind]
    rows.sort(key=lambda r: (-r[2], r[0]))
    return [MostRead(rank=i + 1, title=t, kind=k, views=v) for i, (t, k, v) in enumerate(rows[:limit])]


class OnThisDay(BaseModel):
    """A birth or a founding on a calendar day."""

    kind: Literal["birth", "founding"] = Field(description="birth or founding.")
    year: int = Field(description="Year it happened.")
    date: Date = Field(description="Full date.")
    title: str = Field(description="Article about it.")
    text: str = Field(description="What happened.")
    person: PersonName | None = Field(description="Who was born.")
    company: CompanyName | None = Field(description="What was founded.")


@service.tool(intent="see who was born and what was founded on this day", open_world=True)
def on_this_day(
    ctx: Ctx,
    month: Annotated[int, Field(ge=1, le=12)] | None = None,
    day: Annotated[int, Field(ge=1, le=31)] | None = None,
) -> list[OnThisDay]:
    """Births of notable people and foundings of companies on a calendar day (default today), oldest first.

    Args:
        month: Month (1-12); omit with day for today.
        day: Day of the month; omit with month for today.
    """
    if (month is None) != (day is None):
        raise RuleViolation("give both month and day, or neither", field="day", hint="e.g. month=3, day=14")
    m, d = (month, day) if month is not None and day is not None else (ctx.today().month, ctx.today().day)
    try:
        dt.date(2000, m, d)
    except ValueError:
        raise RuleViolation(f"{m}/{d} is not a date", field="day", hint="give a real calendar day") from None
    out: list[OnThisDay] = []
    for page in _pages(ctx).values():
        if page.birth_date is not None and (page.birth_date.month, page.birth_date.day) == (m, d):
            out.append(
                OnThisDay(
                    kind="birth",
                    year=page.birth_date.year,
                    date=page.birth_date,
                    title=page.title,
                    text=f"{page.person}, {page.description.lower()}, is born.",
                    person=page.person,
                    company=None,
                )
            )
        if page.founded is not None and (page.founded.month, page.founded.day) == (m, d):
            out.append(
                OnThisDay(
                    kind="founding",
                    year=page.founded.year,
                    date=page.founded,
                    title=page.title,
                    text=f"{page.title} is founded in {page.city}.",
                    person=None,
                    company=page.company,
                )
            )
    out.sort(key=lambda e: (e.year, e.title))
    return out


class LanguageLink(BaseModel):
    """The same article in another language."""

    language: Language = Field(description="ISO 639-1 code.")
    title: str = Field(description="Title in that language.")
    url: Url = Field(description="Its URL.")


@service.tool(intent="find the article in other languages", open_world=True, example=_example_title)
def page_languages(ctx: Ctx, title: PageTitle) -> list[LanguageLink]:
    """List the languages an article exists in, with its title in each.

    Args:
        title: Article title (English).
    """
    page = _find(ctx, title)
    rng = random.Random(f"compoworld-encyclopedia:{ctx.population.seed}:langs:{page.title}")
    langs = {"en"}
    local = _LANG.get(page.country or "")
    if local:
        langs.add(local)
    pool = ["de", "fr", "es", "it", "nl", "sv", "ja", "pt", "pl", "zh", "ru", "ko"]
    extra = {"city": 7, "country": 10, "company": 1, "person": 0}[page.kind]
    langs.update(rng.sample(pool, min(extra, len(pool))))
    names = _LOCAL_NAMES.get(page.city or "", {}) if page.kind == "city" else {}
    out = []
    for lang in sorted(langs):
        t = names.get(lang, page.title)
        out.append(LanguageLink(language=lang, title=t, url=f"https://{lang}.lexipedia.org/wiki/{t.replace(' ', '_')}"))
    return out


# -- reading lists (records) --------------------------------------------------------------------------------


class ReadingList(Timestamped):
    """A reader's list of saved articles."""

    id: ListId
    name: Title
    """List name; unique per reader."""
    description: Text = ""
    """What it is for."""
    owner_email: Email
    """The reader."""
    is_default: bool = False
    """The reader's default "Saved" list; it cannot be deleted."""


class ReadingListEntry(Record):
    """An article saved on a reading list."""

    id: EntryId
    list_id: ListId
    """The list."""
    title: PageTitle
    """The article's title."""
    kind: Kind
    """The article's kind."""
    url: Url
    """The article's URL."""
    note: Text = ""
    """The reader's note."""
    added_at: Annotated[DateTime, CREATED]
    """When it was saved."""


def _guard_list(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(ReadingList, owner_email=new.owner_email):
        if other.id != new.id and other.name.casefold() == new.name.casefold():
            raise Conflict(
                f"{new.owner_email} already has a list named {other.name!r}", field="name", hint="choose another name"
            )


def _guard_list_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.is_default:
        raise RuleViolation(
            "the default list cannot be deleted", field="reading_list_id", hint="remove its entries instead"
        )
    for entry in ctx.where(ReadingListEntry, list_id=old.id):
        ctx.delete(entry)


reading_lists = service.resource(
    ReadingList,
    name="reading_list",
    plural="reading_lists",
    prefix="rl",
    create=("name", "description", "owner_email"),
    filters=("owner_email", "is_default"),
    search=("name", "description"),
    update=("name", "description"),
    guard_create=_guard_list,
    guard_update=_guard_list,
    guard_delete=_guard_list_delete,
)
entries = service.resource(
    ReadingListEntry,
    name="reading_list_entry",
    plural="reading_list_entries",
    prefix="rle",
    create=False,
    get=False,
    filters=("list_id", "kind", "title"),
    title="reading list entry",
)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    lst = ctx.first(ReadingList)
    if lst is None:
        return None
    saved = {e.title for e in ctx.where(ReadingListEntry, list_id=lst.id)}
    title = next(t for t in sorted(_pages(ctx)) if t not in saved)
    return {"reading_list_id": lst.id, "title": title}


@service.tool(intent="save the article to the reading list", write=True, example=_example_add)
def add_to_reading_list(ctx: Ctx, reading_list_id: ListId, title: PageTitle, note: Text = "") -> ReadingListEntry:
    """Save an existing article on a reading list, once; a list holds at most 50 articles.

    Args:
        reading_list_id: The list.
        title: Article title.
        note: A note.
    """
    lst = ctx.get(ReadingList, reading_list_id, field="reading_list_id")
    page = _find(ctx, title)
    if ctx.first(ReadingListEntry, list_id=lst.id, title=page.title) is not None:
        raise Conflict(f"{page.title!r} is already on {lst.name!r}", field="title", hint="it is saved already")
    if len(ctx.where(ReadingListEntry, list_id=lst.id)) >= MAX_ENTRIES:
        raise RuleViolation(
            f"{lst.name!r} already holds {MAX_ENTRIES} articles", field="reading_list_id", hint="use another list"
        )
    ctx.update(lst, updated_at=ctx.now())
    return ctx.create(
        ReadingListEntry, list_id=lst.id, title=page.title, kind=page.kind, url=_url(page.title), note=note
    )


# -- seed ------------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Reading lists of a few staff: their default list, customer research and travel destinations."""
    pop = s.population
    pages = pages_of(pop)
    readers = pop.staff("Sales", "Marketing", fallback=5)[:5]
    customers = [c.name for c in pop.customers]
    cities = sorted(t for t, p in pages.items() if p.kind == "city" and p.city in {pl.city for pl in pop.places})
    for i, reader in enumerate(readers):
        saved = s.create(
            ReadingList,
            name="Saved",
            owner_email=reader.email,
            is_default=True,
            created_at=s.now - dt.timedelta(days=200 - i),
            updated_at=s.now - dt.timedelta(days=3),
        )
        research = s.create(
            ReadingList,
            name="Account research" if i % 2 == 0 else "Prospects",
            description="Companies to know before the next call.",
            owner_email=reader.email,
            created_at=s.now - dt.timedelta(days=60 - i),
            updated_at=s.now - dt.timedelta(days=2),
        )
        for k in range(3 + i % 3):
            title = customers[(i * 4 + k) % len(customers)]
            s.create(
                ReadingListEntry,
                list_id=research.id,
                title=title,
                kind="company",
                url=_url(title),
                note="Check their headcount" if k == 0 else "",
                added_at=s.now - dt.timedelta(days=10 - k),
            )
        for k in range(2):
            title = cities[(i * 3 + k) % len(cities)]
            s.create(
                ReadingListEntry,
                list_id=saved.id,
                title=title,
                kind="city",
                url=_url(title),
                added_at=s.now - dt.timedelta(days=20 - k),
            )
