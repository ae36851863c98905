"""Seeker web search: ranked web results, page fetches, autosuggest, image and video search.

Modeled on the Bing Web Search API v7 (``/v7.0/search`` with ``q``, ``count``,
``offset``, ``mkt``, ``freshness`` and the ``site:`` operator; the Image, Video
and Autosuggest APIs v7) with the result fields of the Brave Search API. A
``fetch_page`` tool reads a result's page, as an agent's browser would.

An open-world service: it stores no records. The web is a deterministic
function of the world seed and the URL, so a page reads the same in a search
snippet and in a fetch, whoever asks and in whatever order:

* every world company has a site at ``https://www.<its domain>/`` (home,
  about, team, contact, careers and press pages; the home company also lists
  its products) that shows its real address, phone, industry, size and the
  people the world knows there with their titles, e-mail addresses and phones;
  a LinkedIn page and a Crunchbase profile; its people have LinkedIn profiles;
* the news outlets of the ``news`` service serve the same articles here;
* a query naming a world company, person, city or product ranks those pages
  first and answers with entity cards; everything else gets plausible pages
  on encyclopedias, forums, Q&A sites, blogs, guides and review sites, whose
  text is generated from the URL, so that fetching a result shows the page
  the result described.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Person, Place, Population, Product
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import EPOCH
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Domain,
    Email,
    FirstName,
    JobTitle,
    Language,
    LastName,
    Latitude,
    Longitude,
    PersonName,
    Phone,
    PostalAddress,
    Quantity,
    Sku,
    Text,
    Timezone,
    Title,
    Url,
)
from compoworld.services.information import news
from compoworld.services.kit.text import fold
from compoworld.services.kit.time import utc_at
from compoworld.world.geo import country_name
from compoworld.world.population import DEPARTMENTS, FIRST_NAMES, LAST_NAMES

__all__ = ["service"]

service = Service(
    "websearch",
    title="Seeker Web Search",
    category="web_search",
    modeled_on="Bing Web Search API v7 (web, images, videos, autosuggest) with Brave Search API result fields",
    description="Web search over the world's web: ranked results with snippets, entity cards for companies, "
    "people, places and products, page fetches with the contacts a page lists, query suggestions, "
    "and image and video search. World companies' sites list their real addresses, phones and people.",
)

Market = Literal[
    "en-US",
    "en-GB",
    "en-CA",
    "en-AU",
    "en-SG",
    "de-DE",
    "fr-FR",
    "es-ES",
    "it-IT",
    "nl-NL",
    "sv-SE",
    "pt-BR",
    "ja-JP",
]
PageKind = Literal[
    "company_site",
    "profile",
    "directory",
    "news",
    "encyclopedia",
    "forum",
    "qa",
    "blog",
    "guide",
    "review",
    "video",
    "image",
    "web",
]
ImageSize = Literal["All", "Small", "Medium", "Large", "Wallpaper"]
VideoLength = Literal["All", "Short", "Medium", "Long"]
VideoFreshness = Literal["Day", "Week", "Month"]

T = TypeVar("T")
MAX_QUERY_CHARS = 400
DOMAIN_RE = re.compile(r"^[a-z0-9-]+(\.[a-z0-9-]+)+$")
RESERVED_TLDS = ("test", "example", "invalid", "localhost", "local", "internal")
COMPANY_PAGES = ("/", "/about", "/team", "/contact", "/careers", "/press")
PAGE_KEYWORDS = {
    "/team": ("team", "people", "leadership", "staff", "management", "who", "ceo", "founder", "founders"),
    "/contact": ("contact", "phone", "address", "email", "office", "location", "headquarters", "hq"),
    "/careers": ("careers", "career", "jobs", "job", "hiring", "vacancies", "openings", "work"),
    "/press": ("press", "news", "announcement", "announcements", "media"),
    "/about": ("about", "history", "founded", "mission", "company"),
    "/products": ("products", "product", "shop", "store", "price", "prices", "pricing", "buy"),
}
TAGLINES = {
    "software": ("Software that helps teams do their best work", "The workflow platform for growing businesses"),
    "logistics": ("Freight that arrives when you need it", "Logistics without the guesswork"),
    "food": ("Good food, made with care", "Ingredients you can trust"),
    "healthcare": ("Better care, closer to home", "Digital health for clinics and patients"),
    "manufacturing": ("Precision parts, delivered on time", "Engineering you can build on"),
    "retail": ("Everything you need, in store and online", "Shopping made simple"),
    "consulting": ("Advice that turns into results", "Strategy and operations, done together"),
    "energy": ("Clean power for a growing world", "Renewable energy, stored and delivered"),
    "media": ("Stories worth your time", "Content that connects"),
    "hardware": ("Robots that work alongside people", "Automation hardware for modern warehouses"),
    "wholesale": ("Supplies for every business", "Wholesale made dependable"),
}
ENCYCLOPEDIA_INTRO = {
    "en": "{Q} is the subject of this article. The term is used in several fields, and its meaning depends on context.",
    "de": "{Q} ist Gegenstand dieses Artikels. Der Begriff wird in mehreren Bereichen verwendet; seine Bedeutung "
    "hängt vom Zusammenhang ab.",
    "fr": "{Q} est le sujet de cet article. Le terme est employé dans plusieurs domaines et son sens dépend du contexte.",
    "es": "{Q} es el tema de este artículo. El término se usa en varios ámbitos y su significado depende del contexto.",
    "it": "{Q} è l'argomento di questa voce. Il termine è usato in diversi ambiti e il suo significato dipende dal "
    "contesto.",
    "nl": "{Q} is het onderwerp van dit artikel. De term wordt op verschillende gebieden gebruikt; de betekenis hangt "
    "af van de context.",
    "sv": "{Q} är ämnet för denna artikel. Termen används inom flera områden och dess betydelse beror på sammanhanget.",
    "pt": "{Q} é o tema deste artigo. O termo é usado em várias áreas e o seu significado depende do contexto.",
    "ja": "{Q}は、この記事の主題である。この用語は複数の分野で使われ、意味は文脈によって異なる。",
}
ENCYCLOPEDIA_MORE = {
    "en": "The earliest documented uses of {q} date from the {century} century; interest grew markedly after {year}.",
    "de": "Die frühesten Belege stammen aus dem {century_n}. Jahrhundert; seit {year} wächst das Interesse deutlich.",
    "fr": "Les premiers usages attestés remontent au {century_n}e siècle ; l'intérêt a nettement augmenté après {year}.",
    "es": "Los primeros usos documentados datan del siglo {century_n}; el interés creció notablemente después de {year}.",
    "it": "I primi usi documentati risalgono al {century_n}° secolo; l'interesse è cresciuto molto dopo il {year}.",
    "nl": "Het vroegste gedocumenteerde gebruik dateert uit de {century_n}e eeuw; na {year} nam de belangstelling toe.",
    "sv": "De tidigaste belagda användningarna är från {century_n}00-talet; intresset ökade tydligt efter {year}.",
    "pt": "Os primeiros usos documentados datam do século {century_n}; o interesse cresceu muito depois de {year}.",
    "ja": "最古の用例は{century_n}世紀にさかのぼり、{year}年以降に関心が大きく高まった。",
}
FORUM_SUBS = ("AskReddit", "smallbusiness", "technology", "explainlikeimfive", "personalfinance", "productivity")
ARTICLE_SITES = ("practicalpost.com", "everydayexplainer.com", "knowhowdaily.com", "smartbuyersguide.com")
VARIANTS: tuple[tuple[str, bool], ...] = (
    ("", False),
    ("guide", False),
    ("best", True),
    ("tips", False),
    ("examples", False),
    ("explained", False),
    ("for beginners", False),
    ("pricing", False),
    ("reviews", False),
    ("alternatives", False),
    ("how to use", True),
    ("benefits", False),
    ("problems", False),
    ("checklist", False),
    ("history", False),
    ("meaning", False),
    ("faq", False),
    ("comparison", False),
    ("cost", False),
    ("ideas", False),
    ("templates", False),
    ("mistakes", False),
    ("statistics", False),
    ("trends", False),
    ("case study", False),
    ("tools", False),
    ("course", False),
    ("definition", False),
    ("jobs", False),
    ("software", False),
    ("training", False),
    ("salary", False),
    ("book", False),
    ("podcast", False),
    ("near me", False),
    ("vs", False),
)
TECH_WORDS = frozenset(
    [
        "python",
        "java",
        "javascript",
        "typescript",
        "sql",
        "error",
        "api",
        "code",
        "install",
        "linux",
        "docker",
        "git",
        "function",
        "css",
        "html",
        "server",
        "database",
        "excel",
        "regex",
        "json",
        "http",
        "react",
        "compile",
        "kubernetes",
        "bash",
        "rust",
        "golang",
        "npm",
        "pip",
        "exception",
    ]
)
QUESTION_WORDS = frozenset(("how", "what", "why", "when", "where", "who", "which", "is", "can", "does"))
SMALL_WORDS = frozenset(
    ["a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "vs", "with"]
)


# -- deterministic helpers ---------------------------------------------------------------------


def _keyed(pop: Population, *parts: object) -> random.Random:
    """A generator seeded by the world seed and an entity key (a URL, a company, a query).

    A page must read the same whichever tool renders it (a search snippet, a
    fetch), so its content is keyed by its URL, not by the call.
    """
    return random.Random("websearch|" + "|".join([str(pop.seed), *(str(p) for p in parts)]))


def _code(pop: Population, *parts: object, length: int = 6, alphabet: str = "0123456789abcdef") -> str:
    digest = hashlib.sha256("|".join([str(pop.seed), *(str(p) for p in parts)]).encode()).digest()
    return "".join(alphabet[b % len(alphabet)] for b in digest[:length])


def _tokens(text: str) -> list[str]:
    return fold(text, sharp_s=True).split()


def _title_case(words: list[str]) -> str:
    return " ".join(w if (i and w in SMALL_WORDS) else w[:1].upper() + w[1:] for i, w in enumerate(words))


def _slug(words: list[str], sep: str = "-") -> str:
    return sep.join(words)


def _fmt(n: int) -> str:
    return f"{n:,}"


def _unique(items: list[T], key: Callable[[T], str] = str) -> list[T]:
    seen: set[str] = set()
    out = []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _employee_range(n: int) -> str:
    for lo, hi in ((1, 10), (11, 50), (51, 200), (201, 500), (501, 1000), (1001, 5000)):
        if n <= hi:
            return f"{lo}-{hi}"
    return "5,001-10,000"


# -- pages -------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Page:
    url: str
    title: str
    site_name: str
    kind: PageKind
    language: str
    published: dt.date
    paragraphs: list[str]
    links: list[tuple[str, str]] = field(default_factory=list)
    company: Company | None = None
    people: list[Person] = field(default_factory=list)
    show_contacts: bool = False
    emails: list[str] = field(default_factory=list)
    phones: list[str] = field(default_factory=list)
    addresses: list[PostalAddress] = field(default_factory=list)
    products: list[Product] = field(default_factory=list)
    author: str | None = None
    seconds: int = 0
    views: int = 0

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)

    @property
    def snippet(self) -> str:
        body = " ".join(p for p in self.paragraphs if p != self.title)
        return body if len(body) <= 220 else body[:217].rsplit(" ", 1)[0] + " …"


class _Web:
    """The world's web, rendered on demand from the population and the clock."""

    def __init__(self, ctx: Ctx) -> None:
        self.pop = ctx.population
        self.now = ctx.now()
        self.anchor = EPOCH.date()
        self._people = [p for p in self.pop.people if p.company_key]

    # -- world entities ---------------------------------------------------------------------

    def open_site(self, host: str) -> bool:
        """Whether any path on ``host`` has a generated page (unlike world sites, outlets and profile sites)."""
        if not DOMAIN_RE.match(host) or host.split(".")[-1] in RESERVED_TLDS or host.endswith("wikipedia.org"):
            return False
        closed = [c.domain for c in self.pop.companies] + [s.domain for s in news.SOURCES]
        closed += ["linkedin.com", "crunchbase.com", "youtube.com"]
        return not any(host == d or host.endswith("." + d) for d in closed)

    def company_by_domain(self, host: str) -> Company | None:
        for c in self.pop.companies:
            if c.domain == host:
                return c
        return None

    def employer(self, person: Person) -> Company | None:
        return self.pop.company_of(person)

    def profile_url(self, person: Person) -> str:
        first, last = _slug(_tokens(person.first_name)), _slug(_tokens(person.last_name))
        return f"https://www.linkedin.com/in/{first}-{last}-{_code(self.pop, 'profile', person.key)}"

    def person_by_profile(self, slug: str) -> Person | None:
        for p in self._people:
            if self.profile_url(p).endswith(f"/in/{slug}"):
                return p
        return None

    def company_slug(self, company: Company) -> str:
        return _slug(_tokens(company.name))

    def company_by_slug(self, slug: str) -> Company | None:
        for c in self.pop.companies:
            if self.company_slug(c) == slug:
                return c
        return None

    def founded(self, company: Company) -> int:
        return 1985 + _keyed(self.pop, "founded", company.key).randrange(37)

    def tagline(self, company: Company) -> str:
        options = TAGLINES.get(company.industry, TAGLINES["software"])
        return options[_keyed(self.pop, "tagline", company.key).randrange(len(options))]

    def offering(self, company: Company) -> str:
        return news.OFFERINGS.get(company.industry, news.OFFERINGS["software"])[0]

    def site_url(self, company: Company, path: str = "/") -> str:
        return f"https://www.{company.domain}{path}"

    def site_paths(self, company: Company) -> list[str]:
        paths = [p for p in COMPANY_PAGES if p != "/team" or self.pop.people_at(company)]
        if company.home and self.pop.products:
            paths.append("/products")
        return paths

    def product_url(self, product: Product) -> str:
        return self.site_url(self.pop.home, f"/products/{product.sku.lower()}")

    def page_date(self, url: str, max_days: int) -> dt.date:
        return self.anchor - dt.timedelta(days=_keyed(self.pop, "date", url).randrange(max_days))

    def crawled(self, page: _Page) -> dt.datetime:
        """When the crawler last read the page: in the ten days before the world's epoch, not before it was published."""
        hours = _keyed(self.pop, "crawl", page.url).randint(2, 240)
        published = utc_at(page.published)
        return max(published, EPOCH - dt.timedelta(hours=hours))

    # -- rendering ----------------------------------------------------------------------------

    def page(self, url: str) -> _Page:
        """Render the page at ``url``; raise NotFound where a browser would get an error."""
        parts = news.normalize_url(url)
        if parts is None:
            raise NotFound(f"{url} is not an http(s) URL", field="url", hint="give a full https:// URL")
        host, path = parts
        raw_query = re.search(r"\?([^#]*)", url)
        labels = host.split(".")
        if not DOMAIN_RE.match(host):
            raise RuleViolation(
                f"{url} has an invalid host name", field="url", hint="give a URL like https://www.example.com/page"
            )
        if labels[-1] in RESERVED_TLDS:
            raise NotFound(
                f"could not resolve host {host}",
                field="url",
                hint="check the domain for typos, or find the site with search_web",
            )
        company = self.company_by_domain(host)
        if company is not None:
            return self.company_page(company, path.lower())
        if any(host.endswith("." + c.domain) for c in self.pop.companies):
            raise NotFound(
                f"could not resolve host {host}",
                field="url",
                hint="world company sites live at https://www.<domain>/",
            )
        source = news.find_source(host)
        if source is not None:
            return self.news_page(source, url, path)
        if host == "linkedin.com":
            return self.linkedin_page(path)
        if host == "crunchbase.com":
            return self.crunchbase_page(path)
        if host == "youtube.com":
            params = dict(re.findall(r"([^&=]+)=([^&]*)", raw_query.group(1))) if raw_query else {}
            return self.youtube_page(path, params.get("v", ""))
        if host.endswith("wikipedia.org"):
            return self.wiki_page(labels[0] if len(labels) == 3 else "en", path)
        return self.generic_page(host, path)

    def _not_found(self, url: str, hint: str) -> NotFound:
        return NotFound(f"404 Not Found: {url}", field="url", hint=hint)

    def company_page(self, company: Company, path: str) -> _Page:
        pop = self.pop
        url = self.site_url(company, path)
        people = list(pop.people_at(company))
        country = country_name(company.place.country)
        nav = [(name, self.site_url(company, p)) for name, p in self.nav(company)]
        founded = self.founded(company)
        base: dict[str, Any] = {"site_name": company.name, "kind": "company_site", "language": "en", "company": company}
        if path == "/":
            paragraphs = [
                f"{company.name}: {self.tagline(company)}.",
                f"{company.name} provides {self.offering(company)}. Founded in {founded}, the company is "
                f"headquartered in {company.place.city}, {country}, and employs about {_fmt(company.employees)} people.",
                f"Call us on {company.phone} or meet the team at www.{company.domain}/team.",
            ]
            return _Page(
                url=url,
                title=f"{company.name} | {self.tagline(company)}",
                published=self.page_date(url, 30),
                paragraphs=paragraphs,
                links=[*nav, ("LinkedIn", f"https://www.linkedin.com/company/{self.company_slug(company)}")],
                phones=[company.phone],
                **base,
            )
        if path == "/about":
            leaders = ", ".join(f"{p.name} ({p.job_title})" for p in people[:6])
            paragraphs = [
                f"About {company.name}",
                f"{company.name} was founded in {founded} in {company.place.city}, {country}. "
                f"We provide {self.offering(company)} and today employ about {_fmt(company.employees)} people.",
                f"Headquarters: {self.address_line(company)}. Main line: {company.phone}.",
            ]
            if leaders:
                paragraphs.append(f"Leadership: {leaders}.")
            return _Page(
                url=url,
                title=f"About us | {company.name}",
                published=self.page_date(url, 200),
                paragraphs=paragraphs,
                links=nav,
                people=people[:6],
                phones=[company.phone],
                addresses=[company.address],
                **base,
            )
        if path == "/team" and people:
            lines = [f"{p.name} — {p.job_title} — {p.email} — {p.phone}" for p in people]
            return _Page(
                url=url,
                title=f"Our team | {company.name}",
                published=self.page_date(url, 120),
                paragraphs=[f"Meet the people of {company.name}.", *lines],
                links=[*nav, *((p.name, self.profile_url(p)) for p in people)],
                people=people,
                show_contacts=True,
                emails=[p.email for p in people],
                phones=[p.phone for p in people],
                **base,
            )
        if path == "/contact":
            paragraphs = [
                f"Contact {company.name}",
                f"Visit us at {self.address_line(company)}.",
                f"Call {company.phone} (Monday to Friday, 9:00-17:00, {company.place.timezone} time).",
            ]
            paragraphs += [f"{p.job_title}: {p.name}, {p.email}" for p in people[:3]]
            return _Page(
                url=url,
                title=f"Contact | {company.name}",
                published=self.page_date(url, 200),
                paragraphs=paragraphs,
                links=nav,
                people=people[:3],
                show_contacts=True,
                emails=[p.email for p in people[:3]],
                phones=[company.phone],
                addresses=[company.address],
                **base,
            )
        if path == "/careers":
            r = _keyed(pop, "careers", company.key)
            depts = sorted(DEPARTMENTS)
            jobs = []
            for _ in range(r.randint(2, 5)):
                title = r.choice(DEPARTMENTS[r.choice(depts)])
                where = r.choice((company.place.city, company.place.city, "Remote"))
                line = f"{title} — {where}"
                if line not in jobs:
                    jobs.append(line)
            return _Page(
                url=url,
                title=f"Careers at {company.name}",
                published=self.page_date(url, 21),
                paragraphs=[
                    f"Join {company.name}. We are hiring in {company.place.city} and remotely.",
                    *[f"Open position: {j}" for j in jobs],
                ],
                links=nav,
                **base,
            )
        if path == "/press":
            articles = news.company_articles(pop, company, self.now)
            contact = people[0] if people else None
            paragraphs = [f"{company.name} in the news"]
            paragraphs += [f"{a.published_at:%Y-%m-%d} — {a.source.name}: {a.title}" for a in articles[:10]]
            if contact is not None:
                paragraphs.append(f"Press enquiries: {contact.name}, {contact.email}")
            return _Page(
                url=url,
                title=f"Press | {company.name}",
                published=articles[0].published_at.date() if articles else self.page_date(url, 60),
                paragraphs=paragraphs,
                links=[*nav, *((a.title, a.url) for a in articles[:10])],
                people=[contact] if contact else [],
                show_contacts=True,
                emails=[contact.email] if contact else [],
                **base,
            )
        if company.home and path == "/products" and pop.products:
            currency = company.place.currency
            lines = [f"{p.name} — {p.price_cents / 100:,.2f} {currency} — SKU {p.sku}" for p in pop.products]
            return _Page(
                url=url,
                title=f"Shop all products | {company.name}",
                published=self.page_date(url, 14),
                paragraphs=[f"Products from {company.name}", *lines],
                links=[*nav, *((p.name, self.product_url(p)) for p in pop.products)],
                products=list(pop.products),
                **base,
            )
        if company.home and path.startswith("/products/"):
            for product in pop.products:
                if path == f"/products/{product.sku.lower()}":
                    return self.product_page(company, product, nav)
        raise self._not_found(
            url, f"pages of this site: {', '.join(self.site_url(company, p) for p in self.site_paths(company))}"
        )

    def nav(self, company: Company) -> list[tuple[str, str]]:
        names = {"/": "Home", "/about": "About", "/team": "Team", "/contact": "Contact"}
        names |= {"/careers": "Careers", "/press": "Press", "/products": "Products"}
        return [(names[p], p) for p in self.site_paths(company)]

    def address_line(self, company: Company) -> str:
        a = company.address
        return f"{a.street}, {a.postal_code} {a.city}, {country_name(a.country)}"

    def product_page(self, company: Company, product: Product, nav: list[tuple[str, str]]) -> _Page:
        url = self.product_url(product)
        currency = company.place.currency
        return _Page(
            url=url,
            title=f"{product.name} | {company.name}",
            site_name=company.name,
            kind="company_site",
            language="en",
            published=self.page_date(url, 90),
            paragraphs=[
                product.name,
                f"Price: {product.price_cents / 100:,.2f} {currency}. SKU {product.sku}.",
                f"Category: {product.category}. Shipping weight: {product.weight_grams / 1000:.2f} kg.",
                f"Sold and shipped by {company.name}, {company.place.city}.",
            ],
            links=nav,
            company=company,
            products=[product],
        )

    def news_page(self, source: news.NewsSource, url: str, path: str) -> _Page:
        if path == "/":
            items = [
                a for a in news.items_between(self.pop, self.now - dt.timedelta(days=2), self.now) if a.source == source
            ]
            return _Page(
                url=source.url + "/",
                title=f"{source.name} — {source.description}",
                site_name=source.name,
                kind="news",
                language=source.language,
                published=items[0].published_at.date() if items else self.now.date(),
                paragraphs=[source.name, *(a.title for a in items[:12])],
                links=[(a.title, a.url) for a in items[:12]],
            )
        item = news.find_article(self.pop, url, self.now)
        if item is None:
            raise self._not_found(url, f"find {source.name}'s articles with news__search_articles or search_web")
        byline = f"By {item.author} · " if item.author else ""
        people = list(item.people)
        return _Page(
            url=item.url,
            title=f"{item.title} | {source.name}",
            site_name=source.name,
            kind="news",
            language=source.language,
            published=item.published_at.date(),
            paragraphs=[item.title, f"{byline}{item.published_at:%Y-%m-%d %H:%M} UTC", *item.paragraphs],
            links=[(c.name, self.site_url(c)) for c in item.companies],
            company=item.companies[0] if item.companies else None,
            people=people,
            products=list(item.products),
        )

    def linkedin_page(self, path: str) -> _Page:
        m = re.match(r"^/in/([a-z0-9-]+)$", path.lower())
        if m:
            person = self.person_by_profile(m.group(1))
            if person is not None:
                return self.profile_page(person)
        m = re.match(r"^/company/([a-z0-9-]+)$", path.lower())
        if m:
            company = self.company_by_slug(m.group(1))
            if company is not None:
                return self.linkedin_company_page(company)
        raise self._not_found(
            f"https://www.linkedin.com{path}", "this profile does not exist; find people and companies with search_web"
        )

    def profile_page(self, person: Person) -> _Page:
        company = self.employer(person)
        url = self.profile_url(person)
        r = _keyed(self.pop, "profile", person.key)
        since = person.hire_date.year if person.hire_date else self.anchor.year - r.randint(1, 9)
        where = f"{person.place.city}, {country_name(person.place.country)}"
        company_name = company.name if company else "Self-employed"
        before = [c.name for c in self.pop.customers if c is not company]
        paragraphs = [
            f"{person.name}",
            f"{person.job_title} at {company_name} · {where} · {r.choice(('180', '320', '500+'))} connections",
            f"Experience: {person.job_title}, {company_name} ({since}–present).",
            f"Previously: {r.choice(DEPARTMENTS[r.choice(sorted(DEPARTMENTS))])} at {r.choice(before)}.",
        ]
        links = [(company.name, f"https://www.linkedin.com/company/{self.company_slug(company)}")] if company else []
        return _Page(
            url=url,
            title=f"{person.name} - {person.job_title} - {company_name} | LinkedIn",
            site_name="LinkedIn",
            kind="profile",
            language="en",
            published=self.page_date(url, 60),
            paragraphs=paragraphs,
            links=links,
            company=company,
            people=[person],
        )

    def linkedin_company_page(self, company: Company) -> _Page:
        url = f"https://www.linkedin.com/company/{self.company_slug(company)}"
        people = list(self.pop.people_at(company))
        followers = _keyed(self.pop, "followers", company.key).randint(3, 40) * company.employees
        paragraphs = [
            f"{company.name}",
            f"{company.industry.capitalize()} · {company.place.city}, {country_name(company.place.country)} · "
            f"{_fmt(followers)} followers · {_employee_range(company.employees)} employees",
            f"About us: {company.name} provides {self.offering(company)}. Website: https://www.{company.domain}",
        ]
        if people:
            paragraphs.append("Employees on LinkedIn: " + ", ".join(f"{p.name} ({p.job_title})" for p in people[:10]))
        return _Page(
            url=url,
            title=f"{company.name} | LinkedIn",
            site_name="LinkedIn",
            kind="profile",
            language="en",
            published=self.page_date(url, 45),
            paragraphs=paragraphs,
            links=[("Website", self.site_url(company)), *((p.name, self.profile_url(p)) for p in people[:10])],
            company=company,
            people=people[:10],
        )

    def crunchbase_page(self, path: str) -> _Page:
        m = re.match(r"^/organization/([a-z0-9-]+)$", path.lower())
        company = self.company_by_slug(m.group(1)) if m else None
        if company is None:
            raise self._not_found(
                f"https://www.crunchbase.com{path}", "this organization does not exist; find companies with search_web"
            )
        url = f"https://www.crunchbase.com/organization/{self.company_slug(company)}"
        articles = news.company_articles(self.pop, company, self.now)
        people = list(self.pop.people_at(company))
        paragraphs = [
            f"{company.name} - Crunchbase Company Profile",
            f"Founded {self.founded(company)} · Headquarters: {company.place.city}, {country_name(company.place.country)} · "
            f"Industry: {company.industry} · Employees: {_employee_range(company.employees)}",
            f"Website: https://www.{company.domain} · Phone: {company.phone}",
        ]
        if people:
            paragraphs.append("People: " + ", ".join(f"{p.name} ({p.job_title})" for p in people[:6]))
        paragraphs += [f"News: {a.title} ({a.source.name}, {a.published_at:%Y-%m-%d})" for a in articles[:3]]
        return _Page(
            url=url,
            title=f"{company.name} - Crunchbase Company Profile & Funding",
            site_name="Crunchbase",
            kind="directory",
            language="en",
            published=self.page_date(url, 90),
            paragraphs=paragraphs,
            links=[("Website", self.site_url(company)), *((a.title, a.url) for a in articles[:3])],
            company=company,
            people=people[:6],
            phones=[company.phone],
            addresses=[company.address],
        )

    def youtube_page(self, path: str, video_id: str) -> _Page:
        if path == "/watch":
            for video in self.world_videos():
                if video.video_id == video_id:
                    return video.page(self)
        raise self._not_found(
            f"https://www.youtube.com{path}?v={video_id}", "Video unavailable; find videos with search_videos"
        )

    def wiki_page(self, lang: str, path: str) -> _Page:
        m = re.match(r"^/wiki/(.+)$", path)
        words = _tokens(m.group(1).replace("_", " ")) if m else []
        lang = lang if lang in ENCYCLOPEDIA_INTRO else "en"
        if not words:
            return _Page(
                url=f"https://{lang}.wikipedia.org/",
                title="Wikipedia, the free encyclopedia",
                site_name="Wikipedia",
                kind="encyclopedia",
                language=lang,
                published=self.anchor,
                paragraphs=["Wikipedia, the free encyclopedia"],
            )
        place = self.place_by_words(words)
        if place is not None and lang == "en":
            return self.city_page(place)
        return _generic_page(
            self,
            "encyclopedia",
            f"{lang}.wikipedia.org",
            f"/wiki/{_slug([w.capitalize() for w in words], '_')}",
            words,
            lang,
        )

    def place_by_words(self, words: list[str]) -> Place | None:
        for place in self.pop.places:
            if _tokens(place.city) == words:
                return place
        return None

    def city_url(self, place: Place) -> str:
        return f"https://en.wikipedia.org/wiki/{place.city.replace(' ', '_')}"

    def city_page(self, place: Place) -> _Page:
        url = self.city_url(place)
        companies = [c.name for c in self.pop.companies if c.place.city == place.city]
        lat = f"{abs(place.latitude):.3f}°{'N' if place.latitude >= 0 else 'S'}"
        lon = f"{abs(place.longitude):.3f}°{'E' if place.longitude >= 0 else 'W'}"
        paragraphs = [
            f"{place.city} is a city in {country_name(place.country)}.",
            f"Coordinates: {lat} {lon}. Time zone: {place.timezone}. Currency: {place.currency}. "
            f"Main language: {place.language}. Dialling code: {place.phone_prefix}.",
        ]
        if companies:
            paragraphs.append(f"Companies headquartered in {place.city} include {', '.join(companies[:8])}.")
        return _Page(
            url=url,
            title=f"{place.city} - Wikipedia",
            site_name="Wikipedia",
            kind="encyclopedia",
            language="en",
            published=self.page_date(url, 20),
            paragraphs=paragraphs,
            links=[(c.name, self.site_url(c)) for c in self.pop.companies if c.place.city == place.city][:8],
        )

    def generic_page(self, host: str, path: str) -> _Page:
        spec = GENERIC_HOSTS.get(host)
        if spec is not None:
            words = spec.parse(path)
            if words:
                return _generic_page(self, spec.kind, host, path, words, "en")
        words = _tokens(re.sub(r"\.(html?|php|aspx?)$", "", path))[:8]
        return _generic_page(self, "web", host, path, words, "en")

    # -- world videos -----------------------------------------------------------------------

    def world_videos(self) -> list[_Video]:
        out: list[_Video] = []
        for company in self.pop.companies:
            r = _keyed(self.pop, "videos", company.key)
            people = self.pop.people_at(company)
            offering = self.offering(company)
            specs: list[tuple[str, str, tuple[Person, ...]]] = [
                (
                    f"Inside {company.name}: a day at our {company.place.city} office",
                    f"Meet the {company.name} team in {company.place.city} and see how we work on {offering}.",
                    (),
                ),
                (
                    f"{company.name} product demo",
                    f"A ten-minute walkthrough of what {company.name} offers: {offering}.",
                    (),
                ),
            ]
            if people:
                person = people[0]
                specs.append(
                    (
                        f"{person.name} ({person.job_title}, {company.name}) on the year ahead",
                        f"{person.name}, {person.job_title} at {company.name}, talks about customers and plans.",
                        (person,),
                    )
                )
            for n, (title, desc, who) in enumerate(specs):
                vid = _code(self.pop, "yt", company.key, n, length=11, alphabet=YT_ALPHABET)
                out.append(
                    _Video(
                        video_id=vid,
                        title=title,
                        description=desc,
                        content_url=f"https://www.youtube.com/watch?v={vid}",
                        host_page_url=f"https://www.youtube.com/watch?v={vid}",
                        publisher="YouTube",
                        creator=company.name,
                        seconds=r.randint(60, 1500),
                        views=r.randint(300, 250_000),
                        published=self.anchor - dt.timedelta(days=r.randrange(700)),
                        company=company,
                        people=who,
                    )
                )
        return out


YT_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
LOWER_ALNUM = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class _Video:
    video_id: str
    title: str
    description: str
    content_url: str
    host_page_url: str
    publisher: str
    creator: str
    seconds: int
    views: int
    published: dt.date
    company: Company | None = None
    people: tuple[Person, ...] = ()

    def page(self, web: _Web) -> _Page:
        return _Page(
            url=self.host_page_url,
            title=f"{self.title} - {self.publisher}",
            site_name=self.publisher,
            kind="video",
            language="en",
            published=self.published,
            paragraphs=[
                self.title,
                f"{self.creator} · {_fmt(self.views)} views · {self.published:%Y-%m-%d} · {_duration(self.seconds)}",
                self.description,
            ],
            links=[(self.company.name, web.site_url(self.company))] if self.company else [],
            company=self.company,
            people=list(self.people),
        )


def _duration(seconds: int) -> str:
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"PT{h}H{m}M{s}S" if h else f"PT{m}M{s}S"


# -- generic hosts -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Host:
    kind: PageKind
    site_name: str
    titles: tuple[str, ...]
    parse: Callable[[str], list[str]]


def _parse_after(prefix: str, sep: str = "-", strip_id: bool = False) -> Callable[[str], list[str]]:
    def parse(path: str) -> list[str]:
        m = re.match(prefix, path)
        if m is None:
            return []
        words = [w for w in m.group(1).lower().split(sep) if re.fullmatch(r"[a-z0-9]+", w)]
        if strip_id and words:
            words = words[:-1]
        return words[:10]

    return parse


GENERIC_HOSTS: dict[str, _Host] = {
    "guidehub.com": _Host(
        "guide",
        "GuideHub",
        ("{Q}: A Complete Guide", "What Is {Q}? Everything You Need to Know", "{Q} Explained in Plain English"),
        _parse_after(r"^/guides/([a-z0-9-]+)$"),
    ),
    "reviewsphere.com": _Host(
        "review",
        "ReviewSphere",
        ("{Q}: Reviews, Pricing and Alternatives", "The Best {Q} Options Compared", "{Q} Reviews from Real Users"),
        _parse_after(r"^/compare/([a-z0-9-]+)$"),
    ),
    "reddit.com": _Host(
        "forum",
        "Reddit",
        ("Anyone have experience with {q}?", "What do you all think about {q}?", "Looking for advice on {q}"),
        _parse_after(r"^/r/[a-z0-9_]+/comments/[a-z0-9]+/([a-z0-9_]+)$", sep="_"),
    ),
    "stackoverflow.com": _Host(
        "qa",
        "Stack Overflow",
        ("How do I get {q} working?", "{Q} not working as expected", "What is the right way to use {q}?"),
        _parse_after(r"^/questions/[0-9]+/([a-z0-9-]+)$"),
    ),
    "medium.com": _Host(
        "blog",
        "Medium",
        ("{Q}: What I Learned", "Why {Q} Matters More Than You Think", "A Practical Introduction to {Q}"),
        _parse_after(r"^/@[a-z0-9.]+/([a-z0-9-]+)$", strip_id=True),
    ),
    "ted.com": _Host(
        "video",
        "TED",
        ("What everyone gets wrong about {q}", "The surprising story of {q}", "How {q} is changing"),
        _parse_after(r"^/talks/([a-z0-9_]+)$", sep="_"),
    ),
    "skillshare.com": _Host(
        "video",
        "Skillshare",
        ("{Q}: A Beginner's Class", "Master {Q} in One Hour", "{Q} Fundamentals"),
        _parse_after(r"^/classes/([a-z0-9-]+)/[0-9]+$"),
    ),
    "unsplash.com": _Host(
        "image",
        "Unsplash",
        ("Photo of {q}", "{Q} photo", "{Q} — free stock photo"),
        _parse_after(r"^/photos/([a-z0-9-]+)$", strip_id=True),
    ),
}
for _site in ARTICLE_SITES:
    GENERIC_HOSTS[_site] = _Host(
        "web",
        _title_case(_tokens(_site.split(".")[0].replace("post", " post").replace("daily", " daily"))),
        ("{Q} | {site}", "{Q}: The Essentials | {site}", "Everything About {Q} | {site}"),
        _parse_after(r"^/articles/([a-z0-9-]+)$"),
    )

GENERIC_TEXT: dict[str, tuple[str, ...]] = {
    "guide": (
        "This guide explains {q} step by step, from the basics to the most common mistakes.",
        "We reviewed {n} sources and spoke to practitioners to put it together.",
        "Key points: start small, measure what matters and review the results after a few weeks.",
        "Updated {date}.",
    ),
    "review": (
        "We compared {n} options for {q} on price, features and support.",
        "Our top pick scores {score}/5 across {reviews} verified reviews.",
        "Prices start at about {price} per month, and most vendors offer a free trial.",
    ),
    "forum": (
        "Posted by u/{user} · {n} comments",
        "I've been looking into {q} for a while and can't decide. Has anyone here tried it?",
        'Top comment: "It depends on what you need. For us it worked well after the first month."',
        'Reply: "Read the official documentation first, it answers most questions."',
    ),
    "qa": (
        "Asked {date} · Viewed {views} times",
        "I'm trying to get {q} working but keep running into problems. What am I missing?",
        "Accepted answer ({votes} votes): check which version you are running and read the error message carefully; "
        "the most common cause is a configuration mistake.",
    ),
    "blog": (
        "{author} · {minutes} min read · {date}",
        "When I first came across {q}, I underestimated it.",
        "Here is what I learned after working with it for {months} months, and what I would do differently.",
    ),
    "video": (
        "{author} · {duration} · {views} views",
        "In this video: an introduction to {q}, with practical examples and common pitfalls.",
    ),
    "image": (
        "Photo by {author} · Free to use under the Unsplash License",
        "A photo of {q}, {width} × {height} pixels.",
    ),
    "web": (
        "This article is about {q}.",
        "Readers looking into {q} most often compare price, quality and availability before deciding.",
        "We update this page regularly; last reviewed {date}.",
    ),
}


CANONICAL_HOSTS = {"stackoverflow.com": "stackoverflow.com", "medium.com": "medium.com", "unsplash.com": "unsplash.com"}


def _canonical_host(host: str) -> str:
    """The host a site redirects to: www. for a bare second-level domain, unless the site serves without it."""
    if host in CANONICAL_HOSTS:
        return CANONICAL_HOSTS[host]
    return f"www.{host}" if host.count(".") == 1 else host


def _generic_page(web: _Web, kind: PageKind, host: str, path: str, words: list[str], lang: str) -> _Page:
    """A page generated from its URL alone: its words give the topic, the URL keys everything else."""
    spec = GENERIC_HOSTS.get(host)
    site = spec.site_name if spec else _title_case(_tokens(host.split(".")[-2])) or host
    url = f"https://{host if kind == 'encyclopedia' else _canonical_host(host)}{path or '/'}"
    r = _keyed(web.pop, "page", url)
    q = " ".join(words)
    big_q = _title_case(words)
    published = web.anchor - dt.timedelta(days=r.randrange(5 * 365))
    if kind == "encyclopedia":
        century = r.choice((17, 18, 19, 20))
        values = {"Q": big_q, "q": q, "century": f"{century}th", "century_n": century, "year": r.randint(1950, 2015)}
        paragraphs = [big_q, ENCYCLOPEDIA_INTRO[lang].format(**values), ENCYCLOPEDIA_MORE[lang].format(**values)]
        return _Page(url, f"{big_q} - Wikipedia", "Wikipedia", kind, lang, published, paragraphs)
    if not words:
        return _Page(url, site, site, "web", "en", published, [site, f"Welcome to {site}."])
    templates = spec.titles if spec else ("{Q} | {site}", "{Q}")
    title = templates[r.randrange(len(templates))].format(Q=big_q, q=q, site=site)
    author = f"{r.choice(FIRST_NAMES)} {r.choice(LAST_NAMES)}"
    byline = re.match(r"^/@([a-z]+)\.([a-z]+)/", path)
    if host == "medium.com" and byline:
        author = f"{byline.group(1).capitalize()} {byline.group(2).capitalize()}"
    seconds = r.randint(120, 2400)
    views = r.randint(100, 250_000)
    values = {
        "q": q,
        "n": r.randint(5, 40),
        "date": published.isoformat(),
        "score": f"{r.randint(38, 49) / 10:.1f}",
        "reviews": _fmt(r.randint(40, 4000)),
        "price": f"${r.randint(5, 99)}",
        "user": f"{r.choice(FIRST_NAMES).lower()}_{r.randint(10, 999)}",
        "views": _fmt(views),
        "votes": r.randint(3, 900),
        "author": author,
        "minutes": r.randint(3, 14),
        "months": r.randint(2, 30),
        "duration": _duration(seconds),
        "width": r.choice((1600, 2400, 3000, 4000)),
        "height": r.choice((1067, 1600, 2000, 2667)),
    }
    paragraphs = [title, *(t.format(**values) for t in GENERIC_TEXT.get(kind, GENERIC_TEXT["web"]))]
    return _Page(url, title, site, kind, "en", published, paragraphs, author=author, seconds=seconds, views=views)


# -- queries -------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Query:
    raw: str
    words: list[str]
    site: str | None
    exclude: list[str]


def _parse(query: str, field_name: str = "query") -> _Query:
    text = query.strip()
    if not text:
        raise RuleViolation(f"{field_name} must not be empty", field=field_name, hint="give some words to search for")
    if len(text) > MAX_QUERY_CHARS:
        raise RuleViolation(
            f"{field_name} is longer than {MAX_QUERY_CHARS} characters",
            field=field_name,
            hint="use fewer, more specific keywords",
        )
    site = None
    exclude: list[str] = []
    words: list[str] = []
    for token in re.findall(r'"[^"]*"|\S+', text):
        low = token.lower()
        if low.startswith("site:"):
            site = low[5:].strip("/").removeprefix("https://").removeprefix("http://").removeprefix("www.") or None
        elif token.startswith("-") and len(token) > 1:
            exclude += _tokens(token[1:])
        else:
            words += _tokens(token)
    if not words and site is None:
        raise RuleViolation(
            f"{field_name} has no words to search for",
            field=field_name,
            hint="give at least one word or a site: filter",
        )
    return _Query(text, words, site, exclude)


@dataclass(slots=True)
class _Match:
    companies: list[Company] = field(default_factory=list)
    weak: list[Company] = field(default_factory=list)
    people: list[Person] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)
    products: list[Product] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.companies or self.people or self.places or self.products)


def _contains(words: list[str], part: list[str]) -> bool:
    n = len(part)
    return n > 0 and any(words[i : i + n] == part for i in range(len(words) - n + 1))


def _match(pop: Population, q: _Query) -> _Match:
    m = _Match()
    words = q.words
    raw = fold(q.raw, sharp_s=True, keep_punctuation=True)
    for c in pop.companies:
        name = _tokens(c.name)
        if _contains(words, name) or c.domain in raw or c.domain.split(".")[0] in words or q.site == c.domain:
            m.companies.append(c)
        elif name[0] in words:
            m.weak.append(c)
    for p in pop.people:
        if p.company_key and _contains(words, _tokens(p.first_name) + _tokens(p.last_name)):
            m.people.append(p)
    for place in pop.places:
        if _contains(words, _tokens(place.city)):
            m.places.append(place)
    for product in pop.products:
        if _contains(words, _tokens(product.name)) or product.sku.lower() in raw:
            m.products.append(product)
    return m


def _vocabulary(pop: Population) -> list[str]:
    vocab: set[str] = set()
    for c in pop.companies:
        vocab.update(_tokens(c.name))
    for p in pop.people:
        if p.company_key:
            vocab.update(_tokens(p.name))
    for place in pop.places:
        vocab.update(_tokens(place.city))
    return sorted(vocab)


def _correct(pop: Population, q: _Query) -> _Query | None:
    """Bing's alteredQuery: a query one typo away from a world name is searched as that name."""
    vocab = _vocabulary(pop)
    known = set(vocab)
    fixed = []
    for w in q.words:
        close = difflib.get_close_matches(w, vocab, n=1, cutoff=0.8) if w not in known and len(w) > 3 else []
        fixed.append(close[0] if close else w)
    if fixed == q.words:
        return None
    altered = _Query(" ".join(fixed), fixed, q.site, q.exclude)
    return altered if _match(pop, altered).any else None


# -- results --------------------------------------------------------------------------------------


class DeepLink(BaseModel):
    """A sub-page of a result's site (Bing deepLinks)."""

    title: Title = Field(description="The link text.")
    url: Url = Field(description="The sub-page's URL.")


class WebResult(BaseModel):
    """One ranked web result."""

    rank: int = Field(description="Position in the whole result list, from 1.")
    title: Title = Field(description="The page's title.")
    url: Url = Field(description="The page's URL; read it with fetch_page.")
    display_url: str = Field(description="The URL as shown to a reader, without the scheme.")
    domain: Domain = Field(description="The site's domain.")
    snippet: Text = Field(description="An extract of the page's text.")
    kind: PageKind = Field(description="What sort of page it is.")
    language: Language = Field(description="The page's language.")
    date_published: Date = Field(description="When the page was published or last changed.")
    date_last_crawled: DateTime = Field(description="When the crawler last read the page (UTC).")
    company: CompanyName | None = Field(description="The world company the page is about or belongs to, if any.")
    deep_links: list[DeepLink] = Field(description="Main sub-pages of a site's home page.")


class PersonCard(BaseModel):
    """A person the search engine knows about (an entity card)."""

    name: PersonName = Field(description="Full name.")
    first_name: FirstName = Field(description="Given name.")
    last_name: LastName = Field(description="Family name.")
    job_title: JobTitle = Field(description="Current job title.")
    company: CompanyName | None = Field(description="Current employer.")
    company_domain: Domain | None = Field(description="The employer's web domain.")
    city: City = Field(description="City they are based in.")
    country: Country = Field(description="Country they are based in.")
    profile_url: Url = Field(description="Their professional profile page.")


class CompanyCard(BaseModel):
    """A company the search engine knows about (an entity card)."""

    name: CompanyName = Field(description="The company's name.")
    domain: Domain = Field(description="Its web domain.")
    website: Url = Field(description="Its home page.")
    description: Text = Field(description="What it does.")
    industry: str = Field(description="Its industry.")
    founded: int = Field(description="Year it was founded.")
    employees: Quantity = Field(description="Approximate number of employees.")
    address: PostalAddress = Field(description="Headquarters address.")
    phone: Phone = Field(description="Main phone number.")
    linkedin_url: Url = Field(description="Its LinkedIn page.")
    key_people: list[PersonCard] = Field(description="People known to work there.")


class PlaceCard(BaseModel):
    """A city the search engine knows about (an entity card)."""

    city: City = Field(description="The city.")
    country: Country = Field(description="Its country.")
    latitude: Latitude = Field(description="Latitude of the city centre.")
    longitude: Longitude = Field(description="Longitude of the city centre.")
    timezone: Timezone = Field(description="The city's IANA time zone.")
    currency: Currency = Field(description="The local currency.")
    language: Language = Field(description="The main local language.")
    url: Url = Field(description="Its encyclopedia page.")


class ProductCard(BaseModel):
    """A product on sale (a shopping answer)."""

    sku: Sku = Field(description="The seller's SKU.")
    name: str = Field(description="Product name.")
    price: Cents = Field(description="Price in minor units.")
    currency: Currency = Field(description="Currency of the price.")
    seller: CompanyName = Field(description="The company selling it.")
    url: Url = Field(description="The product page.")


class WebSearchResults(BaseModel):
    """A page of web results with the entity cards the query matched."""

    query: str = Field(description="The query as sent.")
    altered_query: str | None = Field(description="The spelling-corrected query actually searched, if corrected.")
    market: Market = Field(description="The market searched.")
    total_estimated_matches: Quantity = Field(description="Estimated number of matching pages on the web.")
    offset: int = Field(description="Results skipped before this page.")
    next_offset: int | None = Field(description="Offset of the next page; None on the last page.")
    results: list[WebResult] = Field(description="The results on this page, best first.")
    companies: list[CompanyCard] = Field(description="Companies the query names.")
    people: list[PersonCard] = Field(description="People the query names.")
    places: list[PlaceCard] = Field(description="Cities the query names.")
    products: list[ProductCard] = Field(description="Products the query names.")
    related_searches: list[str] = Field(description="Other queries people searched for.")


class Link(BaseModel):
    """A link on a page."""

    text: str = Field(description="The link text.")
    url: Url = Field(description="Where it points.")


class PagePerson(BaseModel):
    """A person a page names."""

    name: PersonName = Field(description="Full name.")
    job_title: JobTitle | None = Field(description="Job title as the page gives it.")
    company: CompanyName | None = Field(description="Their employer.")
    email: Email | None = Field(description="E-mail address, where the page lists it.")
    phone: Phone | None = Field(description="Direct phone number, where the page lists it.")
    profile_url: Url | None = Field(description="Their professional profile page.")


class WebPage(BaseModel):
    """A fetched page: its text, links and the contacts it lists."""

    url: Url = Field(description="The page's canonical URL (after redirects).")
    status_code: int = Field(description="HTTP status of the final response (200).")
    title: Title = Field(description="The page's title.")
    site_name: str = Field(description="The site's name.")
    domain: Domain = Field(description="The site's domain.")
    kind: PageKind = Field(description="What sort of page it is.")
    language: Language = Field(description="The detected language of the text.")
    published: Date = Field(description="When the page was published or last changed.")
    text: Text = Field(description="The readable text, paragraphs separated by blank lines.")
    truncated: bool = Field(description="Whether the text was cut at max_chars.")
    word_count: Quantity = Field(description="Words in the full text.")
    links: list[Link] = Field(description="Links on the page, in page order.")
    company: CompanyName | None = Field(description="The world company the page belongs to or is about.")
    company_domain: Domain | None = Field(description="That company's web domain.")
    people: list[PagePerson] = Field(description="People the page names.")
    emails: list[Email] = Field(description="E-mail addresses on the page.")
    phones: list[Phone] = Field(description="Phone numbers on the page.")
    addresses: list[PostalAddress] = Field(description="Postal addresses on the page.")
    products: list[ProductCard] = Field(description="Products the page offers.")


class Suggestion(BaseModel):
    """One autosuggest completion."""

    text: str = Field(description="The suggested query.")
    kind: Literal["company", "person", "place", "product", "query"] = Field(description="What it completes to.")
    url: Url | None = Field(description="A direct link for an entity suggestion.")
    company: CompanyName | None = Field(description="The company it names.")
    domain: Domain | None = Field(description="That company's web domain.")
    person: PersonName | None = Field(description="The person it names.")


class Suggestions(BaseModel):
    """Autosuggest completions for a partial query."""

    query: str = Field(description="The partial query.")
    market: Market = Field(description="The market.")
    suggestions: list[Suggestion] = Field(description="Completions, best first.")


class ImageResult(BaseModel):
    """One image result."""

    name: Title = Field(description="The image's caption.")
    content_url: Url = Field(description="URL of the full-size image.")
    thumbnail_url: Url = Field(description="URL of a thumbnail.")
    host_page_url: Url = Field(description="The page the image appears on; read it with fetch_page.")
    host_domain: Domain = Field(description="That page's domain.")
    width: int = Field(description="Width in pixels.")
    height: int = Field(description="Height in pixels.")
    encoding_format: Literal["jpeg", "png", "webp"] = Field(description="Image format.")
    content_size: Quantity = Field(description="File size in bytes.")
    date_published: Date = Field(description="When the image was published.")
    accent_color: str = Field(description="Dominant colour as RRGGBB hex.")
    company: CompanyName | None = Field(description="The world company the image shows or belongs to.")
    person: PersonName | None = Field(description="The person the image shows.")


class ImageResults(BaseModel):
    """A page of image results."""

    query: str = Field(description="The query as sent.")
    total_estimated_matches: Quantity = Field(description="Estimated number of matching images.")
    offset: int = Field(description="Results skipped before this page.")
    next_offset: int | None = Field(description="Offset of the next page; None on the last page.")
    images: list[ImageResult] = Field(description="The images, best first.")


class VideoResult(BaseModel):
    """One video result."""

    name: Title = Field(description="The video's title.")
    description: Text = Field(description="The video's description.")
    content_url: Url = Field(description="Where to watch it.")
    host_page_url: Url = Field(description="The page hosting it; read it with fetch_page.")
    thumbnail_url: Url = Field(description="URL of a thumbnail.")
    publisher: str = Field(description="The video platform.")
    creator: str = Field(description="The channel or speaker.")
    duration: str = Field(description="Length as an ISO 8601 duration (PT4M13S).")
    duration_seconds: Quantity = Field(description="Length in seconds.")
    view_count: Quantity = Field(description="Number of views.")
    date_published: Date = Field(description="When it was published.")
    company: CompanyName | None = Field(description="The world company that published or features it.")
    people: list[PersonName] = Field(description="People appearing in it.")


class VideoResults(BaseModel):
    """A page of video results."""

    query: str = Field(description="The query as sent.")
    total_estimated_matches: Quantity = Field(description="Estimated number of matching videos.")
    offset: int = Field(description="Results skipped before this page.")
    next_offset: int | None = Field(description="Offset of the next page; None on the last page.")
    videos: list[VideoResult] = Field(description="The videos, best first.")


# -- building result lists ------------------------------------------------------------------------


def _host_of(url: str) -> str:
    parts = news.normalize_url(url)
    return parts[0] if parts else ""


def _market_lang(market: str) -> str:
    return market.split("-")[0]


def _topic(words: list[str], variant: tuple[str, bool]) -> list[str]:
    extra = _tokens(variant[0])
    return [*extra, *words] if variant[1] else [*words, *extra]


def _generic_urls(
    web: _Web, words: list[str], market: str, site: str | None, encyclopedia: bool
) -> list[tuple[str, str]]:
    """``(host, url)`` of generated pages about ``words``: the query's long tail."""
    pop = web.pop
    key = " ".join(words)
    r = _keyed(pop, "tail", key)
    n = 30 + r.randrange(21)
    lang = _market_lang(market)
    base = words[:8]
    hosts = ["guidehub.com", "reddit.com", "medium.com", "reviewsphere.com", *ARTICLE_SITES]
    if TECH_WORDS & set(words):
        hosts.insert(1, "stackoverflow.com")
    if site is not None and not web.open_site(site):
        return []  # a site whose pages the world knows one by one (a company, an outlet, a profile site)
    if site is not None and not any(site == h or site.endswith("." + h) for h in hosts):
        hosts = [site]
    elif site is not None:
        hosts = [h for h in hosts if site == h or site.endswith("." + h)]
    out: list[tuple[str, str]] = []
    if (site is None and encyclopedia and len(base) <= 3) or (site is not None and site.endswith("wikipedia.org")):
        wiki_lang = lang if lang in ENCYCLOPEDIA_INTRO else "en"
        out.append(
            ("wikipedia.org", f"https://{wiki_lang}.wikipedia.org/wiki/{_slug([w.capitalize() for w in base], '_')}")
        )
        if site is not None:
            return out
    variants = list(VARIANTS)
    r.shuffle(variants)
    variants.sort(key=lambda v: v[0] != "")
    i = 0
    while len(out) < n and i < len(variants) * len(hosts):
        topic = _topic(base, variants[i % len(variants)])
        host = hosts[(i + i // len(variants)) % len(hosts)]
        i += 1
        if not topic:
            continue
        out.append((host, _generic_url(pop, host, topic)))
    return _unique(out, key=lambda hu: hu[1])


def _generic_url(pop: Population, host: str, topic: list[str]) -> str:
    slug = _slug(topic)
    key = f"{host}|{slug}"
    if host == "reddit.com":
        sub = FORUM_SUBS[_keyed(pop, "sub", key).randrange(len(FORUM_SUBS))]
        return f"https://www.reddit.com/r/{sub.lower()}/comments/{_code(pop, key, alphabet=LOWER_ALNUM)}/{_slug(topic, '_')}"
    if host == "stackoverflow.com":
        return f"https://stackoverflow.com/questions/{70000000 + _keyed(pop, 'so', key).randrange(9000000)}/{slug}"
    if host == "medium.com":
        ra = _keyed(pop, "au", key)
        author = f"{_slug(_tokens(ra.choice(FIRST_NAMES)))}.{_slug(_tokens(ra.choice(LAST_NAMES)))}"
        return f"https://medium.com/@{author}/{slug}-{_code(pop, key, length=12)}"
    if host == "guidehub.com":
        return f"https://www.guidehub.com/guides/{slug}"
    if host == "reviewsphere.com":
        return f"https://www.reviewsphere.com/compare/{slug}"
    if host in ARTICLE_SITES:
        return f"https://www.{host}/articles/{slug}"
    return f"https://www.{host}/{slug}"


def _entity_urls(web: _Web, m: _Match, q: _Query) -> list[str]:
    pop = web.pop
    urls: list[str] = []

    def company_block(company: Company, with_people: bool) -> None:
        paths = web.site_paths(company)
        # Words of the query beyond the company's name ("careers", "contact") pick the page to rank first.
        extra = set(q.words) - set(_tokens(company.name))
        first = [p for p, keys in PAGE_KEYWORDS.items() if set(keys) & extra and p in paths]
        ordered = [*first, *(p for p in paths if p not in first)]
        urls.extend(web.site_url(company, p) for p in ordered)
        urls.append(f"https://www.linkedin.com/company/{web.company_slug(company)}")
        urls.append(f"https://www.crunchbase.com/organization/{web.company_slug(company)}")
        urls.extend(a.url for a in news.company_articles(pop, company, web.now)[:3])
        if with_people:
            urls.extend(web.profile_url(p) for p in pop.people_at(company)[:5])

    for person in m.people:
        urls.append(web.profile_url(person))
        employer = web.employer(person)
        if employer is not None:
            urls.append(web.site_url(employer, "/team"))
            mentions = [a for a in news.company_articles(pop, employer, web.now) if person in a.people]
            urls.extend(a.url for a in mentions[:2])
    for company in m.companies:
        company_block(company, with_people=not m.people)
    for product in m.products:
        urls.append(web.product_url(product))
        urls.append(web.site_url(pop.home, "/products"))
    for place in m.places:
        urls.append(web.city_url(place))
    for company in m.weak[:3]:
        urls.append(web.site_url(company))
    return _unique(urls)


def _result(web: _Web, page: _Page, rank: int) -> WebResult:
    host = _host_of(page.url)
    deep: list[DeepLink] = []
    if page.company is not None and page.kind == "company_site" and page.url == web.site_url(page.company):
        deep = [DeepLink(title=_clip(name), url=url) for name, url in page.links if url != page.url][:6]
    return WebResult(
        rank=rank,
        title=_clip(page.title),
        url=page.url,
        display_url=re.sub(r"^https?://", "", page.url).rstrip("/"),
        domain=host,
        snippet=page.snippet,
        kind=page.kind,
        language=page.language,
        date_published=page.published,
        date_last_crawled=web.crawled(page),
        company=page.company.name if page.company else None,
        deep_links=deep,
    )


def _person_card(web: _Web, person: Person) -> PersonCard:
    employer = web.employer(person)
    return PersonCard(
        name=person.name,
        first_name=person.first_name,
        last_name=person.last_name,
        job_title=person.job_title,
        company=employer.name if employer else None,
        company_domain=employer.domain if employer else None,
        city=person.place.city,
        country=person.place.country,
        profile_url=web.profile_url(person),
    )


def _company_card(web: _Web, company: Company) -> CompanyCard:
    return CompanyCard(
        name=company.name,
        domain=company.domain,
        website=web.site_url(company),
        description=f"{company.name} provides {web.offering(company)}. {web.tagline(company)}.",
        industry=company.industry,
        founded=web.founded(company),
        employees=company.employees,
        address=company.address,
        phone=company.phone,
        linkedin_url=f"https://www.linkedin.com/company/{web.company_slug(company)}",
        key_people=[_person_card(web, p) for p in web.pop.people_at(company)[:6]],
    )


def _place_card(web: _Web, place: Place) -> PlaceCard:
    return PlaceCard(
        city=place.city,
        country=place.country,
        latitude=place.latitude,
        longitude=place.longitude,
        timezone=place.timezone,
        currency=place.currency,
        language=place.language,
        url=web.city_url(place),
    )


def _product_card(web: _Web, product: Product) -> ProductCard:
    home = web.pop.home
    return ProductCard(
        sku=product.sku,
        name=product.name,
        price=product.price_cents,
        currency=home.place.currency,
        seller=home.name,
        url=web.product_url(product),
    )


def _freshness(value: str | None, today: dt.date) -> tuple[dt.date, dt.date] | None:
    if value is None:
        return None
    spans = {"day": 1, "week": 7, "month": 31, "year": 366}
    key = value.strip().lower()
    if key in spans:
        return today - dt.timedelta(days=spans[key]), today
    m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})(?:\.\.(\d{4}-\d{2}-\d{2}))?", value.strip())
    if m:
        try:
            start = dt.date.fromisoformat(m.group(1))
            end = dt.date.fromisoformat(m.group(2)) if m.group(2) else today
        except ValueError:
            m = None
        else:
            if end < start:
                raise RuleViolation(
                    "the freshness range ends before it starts",
                    field="freshness",
                    hint="write the range as YYYY-MM-DD..YYYY-MM-DD, earliest first",
                )
            return start, end
    raise RuleViolation(
        f"invalid freshness {value!r}",
        field="freshness",
        hint="use Day, Week, Month, Year, a date YYYY-MM-DD or a range YYYY-MM-DD..YYYY-MM-DD",
    )


def _related(m: _Match, q: _Query) -> list[str]:
    out: list[str] = []
    for c in m.companies[:2]:
        out += [f"{c.name} careers", f"{c.name} contact", f"{c.name} reviews", f"{c.name} {c.place.city}"]
    for p in m.people[:2]:
        out.append(f"{p.name} {p.job_title}")
    for place in m.places[:1]:
        out += [f"things to do in {place.city}", f"{place.city} weather"]
    base = " ".join(q.words[:6])
    if base:
        out += [f"what is {base}", f"best {base}", f"{base} examples", f"{base} near me"]
    return _unique(out)[:8]


def _excluded(page: _Page, exclude: list[str]) -> bool:
    if not exclude:
        return False
    words = set(_tokens(f"{page.title} {page.snippet}"))
    return any(w in words for w in exclude)


def _on_site(url: str, site: str | None) -> bool:
    if site is None:
        return True
    host = _host_of(url)
    return host == site or host.endswith("." + site)


# -- tools ---------------------------------------------------------------------------------------


def _example_search(ctx: Ctx) -> dict[str, Any]:
    return {"query": ctx.population.customers[0].name}


@service.tool(intent="search the web", open_world=True, example=_example_search)
def search_web(
    ctx: Ctx,
    query: str,
    count: int = 10,
    offset: int = 0,
    market: Market = "en-US",
    freshness: str | None = None,
) -> WebSearchResults:
    """Search the web and return ranked results with entity cards (Bing Web Search v7).

    The query may use ``site:example.com`` to search one site, ``-word`` to
    leave out pages with a word, and "quotes". A query naming a world company,
    person, city or product ranks its pages first and returns its card. A query
    one typo away from a known name is searched as corrected (altered_query).

    Args:
        query: The search terms, at most 400 characters.
        count: Results per page, 1 to 50.
        offset: Results to skip, for paging (use next_offset).
        market: Market code (language-country) to search in; it sets the language of encyclopedia results.
        freshness: Only pages published within Day, Week, Month or Year, on a date YYYY-MM-DD, or in a range YYYY-MM-DD..YYYY-MM-DD.
    """
    q = _parse(query)
    if not 1 <= count <= 50:
        raise RuleViolation("count must be between 1 and 50", field="count", hint="ask for at most 50 per page")
    if offset < 0:
        raise RuleViolation("offset must not be negative", field="offset", hint="start at 0")
    window = _freshness(freshness, ctx.today())
    web = _Web(ctx)
    m = _match(web.pop, q)
    altered = None
    if not m.any and q.words:
        fixed = _correct(web.pop, q)
        if fixed is not None:
            q, altered = fixed, fixed.raw
            m = _match(web.pop, q)
    urls = _entity_urls(web, m, q)
    if q.site is not None:
        company = web.company_by_domain(q.site)
        if company is not None:
            urls += [web.site_url(company, p) for p in web.site_paths(company)]
        outlet = news.find_source(q.site)
        if outlet is not None:
            start = web.now - dt.timedelta(days=news.ARCHIVE_DAYS)
            wanted = set(q.words)
            urls += [
                a.url
                for a in news.items_between(web.pop, start, web.now)
                if a.source == outlet and wanted <= set(a.words[0].split()) | set(a.words[2].split())
            ]
        urls = [u for u in urls if _on_site(u, q.site)]
    if q.words:
        generic = _generic_urls(web, q.words, market, q.site, encyclopedia=not m.any)
        urls += [u for _, u in generic if u not in urls]
    pages = []
    for url in dict.fromkeys(urls):
        try:
            page = web.page(url)
        except NotFound:  # a page that is gone is not listed
            continue
        if window is not None and not window[0] <= page.published <= window[1]:
            continue
        if _excluded(page, q.exclude):
            continue
        pages.append(page)
    r = _keyed(web.pop, "total", " ".join(q.words), q.site or "", market)
    if q.site is not None:
        total = len(pages)
    else:
        total = max(len(pages), r.randint(20, 400) * 1000 if m.any else r.randint(50, 50000) * 1000)
    chosen = pages[offset : offset + count]
    end = offset + len(chosen)
    return WebSearchResults(
        query=query,
        altered_query=altered,
        market=market,
        total_estimated_matches=total,
        offset=offset,
        next_offset=end if end < len(pages) else None,
        results=[_result(web, p, offset + i + 1) for i, p in enumerate(chosen)],
        companies=[_company_card(web, c) for c in m.companies],
        people=[_person_card(web, p) for p in m.people],
        places=[_place_card(web, p) for p in m.places],
        products=[_product_card(web, p) for p in m.products],
        related_searches=_related(m, q),
    )


def _example_fetch(ctx: Ctx) -> dict[str, Any]:
    return {"url": f"https://www.{ctx.population.customers[0].domain}/team"}


@service.tool(intent="open the web page", open_world=True, example=_example_fetch)
def fetch_page(ctx: Ctx, url: Url, max_chars: int = 8000) -> WebPage:
    """Fetch a web page and return its readable text, links and the contacts it lists.

    Follows redirects (http to https, a bare domain to www). World company sites
    have the pages /, /about, /team, /contact, /careers and /press; other paths
    there give 404. Hosts under reserved test domains do not resolve.

    Args:
        url: The page's http(s) URL.
        max_chars: Cut the text after this many characters, 200 to 20000.
    """
    if not 200 <= max_chars <= 20000:
        raise RuleViolation("max_chars must be between 200 and 20000", field="max_chars", hint="use 8000 for a page")
    web = _Web(ctx)
    page = web.page(url)
    text = page.text
    truncated = len(text) > max_chars
    company = page.company
    people = []
    for p in page.people:
        employer = web.employer(p)
        people.append(
            PagePerson(
                name=p.name,
                job_title=p.job_title,
                company=employer.name if employer else None,
                email=p.email if page.show_contacts else None,
                phone=p.phone if page.show_contacts else None,
                profile_url=web.profile_url(p),
            )
        )
    return WebPage(
        url=page.url,
        status_code=200,
        title=_clip(page.title),
        site_name=page.site_name,
        domain=_host_of(page.url),
        kind=page.kind,
        language=page.language,
        published=page.published,
        text=text[:max_chars],
        truncated=truncated,
        word_count=len(text.split()),
        links=[Link(text=t, url=u) for t, u in page.links],
        company=company.name if company else None,
        company_domain=company.domain if company else None,
        people=people,
        emails=page.emails,
        phones=page.phones,
        addresses=page.addresses,
        products=[_product_card(web, p) for p in page.products],
    )


def _example_suggest(ctx: Ctx) -> dict[str, Any]:
    return {"query": ctx.population.customers[0].name[:4]}


@service.tool(intent="get search suggestions", open_world=True, example=_example_suggest)
def suggest_queries(ctx: Ctx, query: str, market: Market = "en-US", count: int = 8) -> Suggestions:
    """Complete a partial query as a search box would (Bing Autosuggest v7).

    Names of world companies, people, cities and products that start with the
    text come first, with a direct link; then popular completions.

    Args:
        query: What has been typed so far, at most 400 characters.
        market: Market code (language-country).
        count: How many suggestions to return, 1 to 20.
    """
    text = query.strip()
    if not text:
        raise RuleViolation("query must not be empty", field="query", hint="type at least one character")
    if len(text) > MAX_QUERY_CHARS:
        raise RuleViolation(
            f"query is longer than {MAX_QUERY_CHARS} characters", field="query", hint="type a shorter query"
        )
    if not 1 <= count <= 20:
        raise RuleViolation("count must be between 1 and 20", field="count", hint="ask for at most 20")
    web = _Web(ctx)
    pop = web.pop
    prefix = " ".join(_tokens(text))
    trailing_space = text.endswith(" ")
    out: list[Suggestion] = []

    def starts(name: str) -> bool:
        folded = " ".join(_tokens(name))
        return bool(prefix) and (folded.startswith(prefix) or f" {prefix}" in f" {folded}")

    exact: Company | None = None
    for c in sorted(pop.companies, key=lambda c: c.name):
        if " ".join(_tokens(c.name)) == prefix:
            exact = c
        if starts(c.name) or c.domain.startswith(prefix.replace(" ", "")):
            out.append(
                Suggestion(
                    text=c.name, kind="company", url=web.site_url(c), company=c.name, domain=c.domain, person=None
                )
            )
    for p in sorted((p for p in pop.people if p.company_key), key=lambda p: (p.name, p.key)):
        if starts(p.name):
            employer = web.employer(p)
            out.append(
                Suggestion(
                    text=f"{p.name} {employer.name}" if employer else p.name,
                    kind="person",
                    url=web.profile_url(p),
                    company=employer.name if employer else None,
                    domain=employer.domain if employer else None,
                    person=p.name,
                )
            )
    for place in pop.places:
        if starts(place.city):
            out.append(
                Suggestion(
                    text=place.city, kind="place", url=web.city_url(place), company=None, domain=None, person=None
                )
            )
    for product in pop.products:
        if starts(product.name):
            out.append(
                Suggestion(
                    text=product.name,
                    kind="product",
                    url=web.product_url(product),
                    company=pop.home.name,
                    domain=pop.home.domain,
                    person=None,
                )
            )
    if exact is not None:
        for word in ("careers", "contact", "reviews", "linkedin", exact.place.city):
            out.append(
                Suggestion(
                    text=f"{exact.name} {word}",
                    kind="query",
                    url=None,
                    company=exact.name,
                    domain=exact.domain,
                    person=None,
                )
            )
    base = " ".join(text.lower().split())
    r = _keyed(pop, "suggest", prefix)
    if base in QUESTION_WORDS:
        tails = ["to", "does", "is", "much", "many", "long"]
    else:
        tails = ["meaning", "near me", "reviews", "price", "examples", "login", "jobs", "vs"]
    r.shuffle(tails)
    generic: list[str] = []
    if trailing_space or not out:
        generic = [f"{base} {t}" for t in tails]
        if base.split()[0] not in QUESTION_WORDS:
            generic.insert(0, f"how to {base}")
    for s in generic:
        out.append(Suggestion(text=s, kind="query", url=None, company=None, domain=None, person=None))
    unique = _unique(out, key=lambda s: s.text.lower())
    return Suggestions(query=query, market=market, suggestions=unique[:count])


def _accent(r: random.Random) -> str:
    return "".join(f"{r.randrange(40, 220):02X}" for _ in range(3))


def _thumb(pop: Population, url: str) -> str:
    return f"https://tse.mm.bing.net/th?id=OIP.{_code(pop, 'thumb', url, length=22, alphabet=YT_ALPHABET[:62])}"


def _image(
    web: _Web,
    name: str,
    content_url: str,
    host_page: str,
    size: tuple[int, int],
    fmt: Literal["jpeg", "png", "webp"],
    company: Company | None = None,
    person: Person | None = None,
) -> ImageResult:
    r = _keyed(web.pop, "image", content_url)
    width, height = size
    return ImageResult(
        name=name,
        content_url=content_url,
        thumbnail_url=_thumb(web.pop, content_url),
        host_page_url=host_page,
        host_domain=_host_of(host_page),
        width=width,
        height=height,
        encoding_format=fmt,
        content_size=width * height * (1 if fmt == "png" else 3) // r.randint(8, 14),
        date_published=web.page_date(host_page, 365),
        accent_color=_accent(r),
        company=company.name if company else None,
        person=person.name if person else None,
    )


def _size_ok(size: ImageSize, width: int, height: int) -> bool:
    if size == "Small":
        return max(width, height) < 200
    if size == "Medium":
        return 200 <= max(width, height) < 500
    if size == "Large":
        return max(width, height) >= 500
    if size == "Wallpaper":
        return width >= 1600 and width > height
    return True


def _example_images(ctx: Ctx) -> dict[str, Any]:
    return {"query": f"{ctx.population.customers[0].name} logo"}


@service.tool(intent="search for images", open_world=True, example=_example_images)
def search_images(
    ctx: Ctx, query: str, count: int = 35, offset: int = 0, market: Market = "en-US", size: ImageSize = "All"
) -> ImageResults:
    """Search for images (Bing Image Search v7).

    World companies have their logo, office photo and team headshots; cities
    their skyline photos; anything else gets stock and encyclopedia photos.

    Args:
        query: The search terms, at most 400 characters.
        count: Images per page, 1 to 150.
        offset: Images to skip, for paging (use next_offset).
        market: Market code (language-country).
        size: Only images of this size: Small (under 200 px), Medium (200-499 px), Large (500 px and up) or Wallpaper.
    """
    q = _parse(query)
    if not 1 <= count <= 150:
        raise RuleViolation("count must be between 1 and 150", field="count", hint="ask for at most 150 per page")
    if offset < 0:
        raise RuleViolation("offset must not be negative", field="offset", hint="start at 0")
    web = _Web(ctx)
    pop = web.pop
    m = _match(pop, q)
    images: list[ImageResult] = []
    for person in m.people:
        company = web.employer(person)
        slug = _slug(_tokens(person.name))
        if company is not None:
            images.append(
                _image(
                    web,
                    f"{person.name}, {person.job_title} at {company.name}",
                    f"https://www.{company.domain}/assets/team/{slug}.jpg",
                    web.site_url(company, "/team"),
                    (800, 800),
                    "jpeg",
                    company,
                    person,
                )
            )
        images.append(
            _image(
                web,
                f"{person.name} | LinkedIn",
                f"https://media.licdn.com/dms/image/{_code(pop, 'li', person.key, length=16)}/profile-400.jpg",
                web.profile_url(person),
                (400, 400),
                "jpeg",
                company,
                person,
            )
        )
    for company in m.companies:
        images.append(
            _image(
                web,
                f"{company.name} logo",
                f"https://www.{company.domain}/assets/logo.png",
                web.site_url(company),
                (512, 512),
                "png",
                company,
            )
        )
        images.append(
            _image(
                web,
                f"{company.name} office in {company.place.city}",
                f"https://www.{company.domain}/assets/office-{_slug(_tokens(company.place.city))}.jpg",
                web.site_url(company, "/about"),
                (1600, 1067),
                "jpeg",
                company,
            )
        )
        images.append(
            _image(
                web,
                f"{company.name} logo (small)",
                f"https://www.{company.domain}/assets/favicon-128.png",
                web.site_url(company),
                (128, 128),
                "png",
                company,
            )
        )
        for person in pop.people_at(company)[:4]:
            images.append(
                _image(
                    web,
                    f"{person.name}, {person.job_title} at {company.name}",
                    f"https://www.{company.domain}/assets/team/{_slug(_tokens(person.name))}.jpg",
                    web.site_url(company, "/team"),
                    (800, 800),
                    "jpeg",
                    company,
                    person,
                )
            )
    for product in m.products:
        images.append(
            _image(
                web,
                product.name,
                f"https://www.{pop.home.domain}/assets/products/{product.sku.lower()}.webp",
                web.product_url(product),
                (1200, 1200),
                "webp",
                pop.home,
            )
        )
    for place in m.places:
        city = place.city.replace(" ", "_")
        images.append(
            _image(
                web,
                f"Skyline of {place.city}",
                f"https://upload.wikimedia.org/wikipedia/commons/{_code(pop, 'sky', city, length=2)}/{city}_skyline.jpg",
                web.city_url(place),
                (2400, 1350),
                "jpeg",
            )
        )
    words = q.words[:8]
    if words:
        r = _keyed(pop, "images", " ".join(words))
        n = 40 + r.randrange(40)
        variants = list(VARIANTS)
        for i in range(n):
            topic = _topic(words, variants[i % len(variants)])
            if i % 3 == 2:
                host_page = _generic_url(pop, "guidehub.com", topic)
                content = f"https://www.guidehub.com/images/{_slug(topic)}-{i}.jpg"
            else:
                photo_id = _code(pop, "us", _slug(topic), length=11, alphabet=LOWER_ALNUM)
                host_page = f"https://unsplash.com/photos/{_slug(topic)}-{photo_id}"
                content = (
                    f"https://images.unsplash.com/photo-{_code(pop, 'ui', host_page, length=13, alphabet='0123456789')}"
                )
            page = web.page(host_page)
            rr = _keyed(pop, "dims", content)
            width = rr.choice((150, 320, 480, 800, 1200, 1600, 2400, 4000))
            height = width * rr.choice((9, 10, 12, 16)) // 16
            images.append(_image(web, _clip(page.title), content, host_page, (width, height), "jpeg"))
    images = [i for i in images if _size_ok(size, i.width, i.height) and _on_site(i.host_page_url, q.site)]
    images = _unique(images, key=lambda i: i.content_url)
    chosen = images[offset : offset + count]
    end = offset + len(chosen)
    total = max(len(images), _keyed(pop, "itotal", " ".join(q.words)).randint(1, 900) * 100)
    return ImageResults(
        query=query,
        total_estimated_matches=total if q.site is None else len(images),
        offset=offset,
        next_offset=end if end < len(images) else None,
        images=chosen,
    )


def _video_length_ok(length: VideoLength, seconds: int) -> bool:
    if length == "Short":
        return seconds < 300
    if length == "Medium":
        return 300 <= seconds <= 1200
    if length == "Long":
        return seconds > 1200
    return True


def _example_videos(ctx: Ctx) -> dict[str, Any]:
    return {"query": ctx.population.customers[0].name}


@service.tool(intent="search for videos", open_world=True, example=_example_videos)
def search_videos(
    ctx: Ctx,
    query: str,
    count: int = 35,
    offset: int = 0,
    market: Market = "en-US",
    freshness: VideoFreshness | None = None,
    length: VideoLength = "All",
) -> VideoResults:
    """Search for videos (Bing Video Search v7).

    World companies have channel videos (office tours, product demos, talks by
    their people); other topics get talks and classes.

    Args:
        query: The search terms, at most 400 characters.
        count: Videos per page, 1 to 105.
        offset: Videos to skip, for paging (use next_offset).
        market: Market code (language-country).
        freshness: Only videos published within the last Day, Week or Month.
        length: Only Short (under 5 minutes), Medium (5 to 20 minutes) or Long (over 20 minutes) videos.
    """
    q = _parse(query)
    if not 1 <= count <= 105:
        raise RuleViolation("count must be between 1 and 105", field="count", hint="ask for at most 105 per page")
    if offset < 0:
        raise RuleViolation("offset must not be negative", field="offset", hint="start at 0")
    web = _Web(ctx)
    pop = web.pop
    m = _match(pop, q)
    wanted_companies = {c.key for c in m.companies} | {p.company_key for p in m.people if p.company_key}
    world = [v for v in web.world_videos() if v.company is not None and v.company.key in wanted_companies]
    named = {p.key for p in m.people}
    world.sort(key=lambda v: (not any(p.key in named for p in v.people), v.content_url))
    videos = list(world)
    words = q.words[:8]
    if words:
        r = _keyed(pop, "videos", " ".join(words))
        for i in range(20 + r.randrange(25)):
            topic = _topic(words, VARIANTS[i % len(VARIANTS)])
            if i % 2 == 0:
                url = f"https://www.ted.com/talks/{_slug(topic, '_')}"
            else:
                url = f"https://www.skillshare.com/classes/{_slug(topic)}/{_keyed(pop, 'sk', _slug(topic)).randint(10**8, 10**9)}"
            page = web.page(url)
            videos.append(
                _Video(
                    video_id="",
                    title=page.title,
                    description=page.paragraphs[-1],
                    content_url=page.url,
                    host_page_url=page.url,
                    publisher=page.site_name,
                    creator=page.author or page.site_name,
                    seconds=page.seconds,
                    views=page.views,
                    published=page.published,
                )
            )
    today = ctx.today()
    spans = {"Day": 1, "Week": 7, "Month": 31}
    out = [
        v
        for v in videos
        if _video_length_ok(length, v.seconds)
        and (freshness is None or v.published >= today - dt.timedelta(days=spans[freshness]))
        and _on_site(v.host_page_url, q.site)
    ]
    chosen = out[offset : offset + count]
    end = offset + len(chosen)
    total = max(len(out), _keyed(pop, "vtotal", " ".join(q.words)).randint(1, 300) * 10)
    return VideoResults(
        query=query,
        total_estimated_matches=total if q.site is None and freshness is None else len(out),
        offset=offset,
        next_offset=end if end < len(out) else None,
        videos=[
            VideoResult(
                name=_clip(v.title),
                description=v.description,
                content_url=v.content_url,
                host_page_url=v.host_page_url,
                thumbnail_url=_thumb(pop, v.content_url),
                publisher=v.publisher,
                creator=v.creator,
                duration=_duration(v.seconds),
                duration_seconds=v.seconds,
                view_count=v.views,
                date_published=v.published,
                company=v.company.name if v.company else None,
                people=[p.name for p in v.people],
            )
            for v in chosen
        ],
    )
