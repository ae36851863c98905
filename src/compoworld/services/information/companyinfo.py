"""Firmograph company data: company and person enrichment over the world's companies and people.

Modeled on the Clearbit enrichment APIs (Company ``/v2/companies/find``,
Person ``/v2/people/find``, Prospector ``/v1/people/search``, Name-to-Domain)
and People Data Labs v5 (similar companies, e-mail finding). An open-world
service: it holds no records; its answers come from the shared population and
from deterministic generation.

World consistency:

* a world company's domain answers with its real name, industry, address,
  phone, city and size, and the people the world knows there are its people;
* a world person's e-mail answers with their real name, title and employer,
  and finding the e-mail of a world person by name gives their real address;
* an unknown company domain gets a plausible profile that every tool agrees on
  (name, place, size, e-mail pattern and people are drawn from the world seed
  and the domain alone), while personal mail providers and reserved domains
  are refused as a real enrichment API refuses them;
* generated details of world entities (founding year, tech stack, profile
  links) depend only on the world seed and the entity, never on the call.
"""

from __future__ import annotations

import datetime as dt
import difflib
import math
import random
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Person, Place
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.types import (
    City,
    CompanyName,
    Country,
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
    Percent,
    PersonName,
    Phone,
    PostalAddress,
    Quantity,
    Text,
    Timezone,
    Url,
)
from compoworld.services.kit.text import fold
from compoworld.world.geo import country_name
from compoworld.world.population import (
    COMPANY_SUFFIXES,
    CUSTOMER_TITLES,
    FIRST_NAMES,
    INDUSTRIES,
    LAST_NAMES,
    PLACES,
    STREETS,
)

__all__ = ["service"]

service = Service(
    "companyinfo",
    title="Firmograph Company Data",
    category="company_data",
    modeled_on="Clearbit Enrichment API v2 (Company, Person, Prospector, Name-to-Domain) / People Data Labs API v5",
    description="Company and person enrichment: look a company up by its web domain, search companies by name, "
    "list the people known to work at a company, enrich a person from their e-mail address and find a "
    "person's work e-mail from their name and company domain.",
)

Role = Literal[
    "leadership",
    "engineering",
    "sales",
    "customer_service",
    "finance",
    "human_resources",
    "operations",
    "marketing",
    "information_technology",
    "product",
    "procurement",
]
Seniority = Literal["executive", "director", "manager", "senior", "entry"]
EmailStatus = Literal["valid", "accept_all", "unknown"]
PageSize = Annotated[int, Field(ge=1, le=20)]
Page = Annotated[int, Field(ge=1, le=1000)]
Limit = Annotated[int, Field(ge=1, le=25)]

FREE_MAIL = frozenset(
    {
        "mailbox.net",
        "postbox.org",
        "inbox.io",
        "gmail.com",
        "googlemail.com",
        "yahoo.com",
        "outlook.com",
        "hotmail.com",
        "live.com",
        "icloud.com",
        "me.com",
        "aol.com",
        "proton.me",
        "protonmail.com",
        "gmx.de",
        "gmx.net",
        "web.de",
        "mail.ru",
        "yandex.ru",
        "qq.com",
    }
)
"""Personal mail providers: no company behind them (the population's consumers use the first three)."""

RESERVED_SUFFIXES = (".test", ".example", ".invalid", ".localhost", ".local")
RESERVED_DOMAINS = frozenset({"example.com", "example.org", "example.net"})

ROLE_ADDRESSES = frozenset(
    {
        "admin",
        "billing",
        "contact",
        "hello",
        "help",
        "hr",
        "info",
        "invoices",
        "jobs",
        "marketing",
        "noreply",
        "no-reply",
        "office",
        "press",
        "sales",
        "support",
        "team",
    }
)

EMAIL_PATTERNS = ("{first}.{last}", "{f}{last}", "{first}", "{first}_{last}", "{first}{l}", "{last}.{first}")
WORLD_PATTERN = "{first}.{last}"
"""Every world company's addresses follow the population's ``first.last`` rule."""

LEGAL_FORMS = {
    "AU": "Pty Ltd",
    "BR": "Ltda.",
    "CA": "Inc.",
    "DE": "GmbH",
    "ES": "S.L.",
    "FR": "SAS",
    "GB": "Ltd",
    "IT": "S.r.l.",
    "JP": "K.K.",
    "NL": "B.V.",
    "SE": "AB",
    "SG": "Pte. Ltd.",
    "US": "Inc.",
}
LEGAL_FORM_RE = re.compile(
    r"(?<![a-z0-9])(?:gmbh|inc|ltd|llc|plc|corp|sas|s\.?r\.?l|s\.?l|s\.?a|b\.?v|ab|ag|k\.?k|pte|pty|ltda)(?![a-z0-9])\.?"
)
"""Legal forms a searched name may carry (as the legal names this service returns do)."""
CCTLD_COUNTRY = {
    "au": "AU",
    "br": "BR",
    "ca": "CA",
    "de": "DE",
    "es": "ES",
    "fr": "FR",
    "it": "IT",
    "jp": "JP",
    "nl": "NL",
    "se": "SE",
    "sg": "SG",
    "uk": "GB",
    "us": "US",
}

SECTORS = {
    "consulting": "Industrials",
    "energy": "Energy",
    "finance": "Financials",
    "food": "Consumer Staples",
    "hardware": "Information Technology",
    "healthcare": "Health Care",
    "logistics": "Industrials",
    "manufacturing": "Industrials",
    "media": "Communication Services",
    "retail": "Consumer Discretionary",
    "software": "Information Technology",
    "wholesale": "Industrials",
}
INDUSTRY_BLURBS = {
    "consulting": "advising mid-sized firms on operations, finance and digital transformation",
    "energy": "developing and operating renewable generation and storage projects",
    "finance": "providing financing and investment services to growing businesses",
    "food": "producing and distributing packaged foods for retail and food service",
    "hardware": "designing robotic and embedded systems for industrial automation",
    "healthcare": "running clinics and digital care programmes for patients and employers",
    "logistics": "moving freight by road, rail and air and running contract warehousing",
    "manufacturing": "manufacturing precision components for industrial customers",
    "media": "producing video, audio and branded content for consumer brands",
    "retail": "selling home and lifestyle products in stores and online",
    "software": "building cloud software for operations and finance teams",
    "wholesale": "supplying office, facility and industrial goods to businesses",
}
INDUSTRY_TAGS = {
    "consulting": ("Consulting", "Professional Services", "B2B"),
    "energy": ("Energy", "Renewables", "Utilities"),
    "finance": ("Finance", "Financial Services", "B2B"),
    "food": ("Food", "Consumer Goods", "Food Production"),
    "hardware": ("Hardware", "Robotics", "Technology"),
    "healthcare": ("Health Care", "Medical", "B2C"),
    "logistics": ("Logistics", "Transportation", "B2B"),
    "manufacturing": ("Manufacturing", "Industrial", "B2B"),
    "media": ("Media", "Entertainment", "Content"),
    "retail": ("Retail", "E-commerce", "B2C"),
    "software": ("SaaS", "Technology", "B2B"),
    "wholesale": ("Wholesale", "Distribution", "B2B"),
}
REVENUE_PER_EMPLOYEE_USD = {
    "consulting": 180_000,
    "energy": 600_000,
    "finance": 450_000,
    "food": 260_000,
    "hardware": 300_000,
    "healthcare": 150_000,
    "logistics": 220_000,
    "manufacturing": 240_000,
    "media": 200_000,
    "retail": 210_000,
    "software": 230_000,
    "wholesale": 520_000,
}
TECH = {
    "common": ("google_workspace", "microsoft_365", "slack", "zoom", "hubspot", "salesforce", "cloudflare"),
    "software": ("aws", "github", "datadog", "stripe", "jira", "kubernetes", "segment"),
    "hardware": ("aws", "github", "sap", "autodesk", "jira"),
    "retail": ("shopify", "stripe", "klaviyo", "google_analytics", "zendesk"),
    "media": ("wordpress", "google_analytics", "adobe_creative_cloud", "vimeo"),
    "default": ("sap", "netsuite", "google_analytics", "zendesk", "docusign"),
}

# Words a company domain is made of: the population's suffixes and other common ones, with the industry they suggest.
DOMAIN_WORDS: dict[str, str | None] = {
    **{suffix.lower(): INDUSTRIES[suffix] for suffix, _tld in COMPANY_SUFFIXES},
    "studio": "media",
    "tech": "software",
    "technologies": "software",
    "software": "software",
    "cloud": "software",
    "data": "software",
    "digital": "software",
    "networks": "software",
    "apps": "software",
    "app": "software",
    "ai": "software",
    "games": "media",
    "design": "media",
    "solutions": "consulting",
    "consulting": "consulting",
    "group": "consulting",
    "global": None,
    "holdings": "finance",
    "capital": "finance",
    "ventures": "finance",
    "bank": "finance",
    "insurance": "finance",
    "pharma": "healthcare",
    "bio": "healthcare",
    "care": "healthcare",
    "shop": "retail",
    "store": "retail",
    "works": "manufacturing",
    "industries": "manufacturing",
    "motors": "manufacturing",
    "power": "energy",
    "solar": "energy",
    "freight": "logistics",
    "foods": "food",
    "kitchen": "food",
}
TLD_INDUSTRY = {"io": "software", "ai": "software", "dev": "software", "app": "software", "tech": "software"}
UPPER_WORDS = frozenset({"ai", "hq", "it", "ag"})
SIZES = (12, 40, 85, 150, 400, 1200, 5000)
GOOD_MATCH = 0.75
"""A search score from which a name counts as found: below it, the likely domain of the name is suggested too."""
GUESS_SCORE = 0.6

ROLE_OF_DEPARTMENT: dict[str, Role] = {
    "Engineering": "engineering",
    "Sales": "sales",
    "Support": "customer_service",
    "Finance": "finance",
    "People": "human_resources",
    "Operations": "operations",
    "Marketing": "marketing",
}
ROLE_KEYWORDS: tuple[tuple[str, Role], ...] = (
    ("chief executive", "leadership"),
    ("chief financial", "finance"),
    ("procurement", "procurement"),
    ("purchasing", "procurement"),
    ("it manager", "information_technology"),
    ("product", "product"),
    ("finance", "finance"),
    ("account", "finance"),
    ("operations", "operations"),
    ("office", "operations"),
    ("sales", "sales"),
    ("engineer", "engineering"),
    ("marketing", "marketing"),
)
SENIORITY_RANK: dict[str, int] = {"executive": 0, "director": 1, "manager": 2, "senior": 3, "entry": 4}


# -- helpers -----------------------------------------------------------------------------


def _rng(ctx: Ctx, *parts: str) -> random.Random:
    """Randomness for one world entity: seeded by the world seed and the entity alone.

    Every tool that describes the same company or person draws its generated
    details from the same stream, so the tools agree with each other; the
    string seed is hashed with SHA-512, independent of PYTHONHASHSEED.
    """
    return random.Random(":".join(("companyinfo", str(ctx.population.seed), *parts)))


def _same_name(a: str, b: str) -> bool:
    """Whether two names match once lower-cased and their accents dropped (punctuation counts)."""
    return fold(a, keep_punctuation=True) == fold(b, keep_punctuation=True)


def _local_token(text: str) -> str:
    return re.sub(r"[^a-z0-9-]", "", fold(text, keep_punctuation=True))


def _apply_pattern(pattern: str, first: str, last: str) -> str:
    f, la = _local_token(first), _local_token(last)
    return pattern.format(first=f, last=la, f=f[:1], l=la[:1])


def _role_of(title: str, department: str | None) -> Role | None:
    if department in ROLE_OF_DEPARTMENT:
        return ROLE_OF_DEPARTMENT[department]
    low = title.lower()
    for key, role in ROLE_KEYWORDS:
        if key in low:
            return role
    return None


def _seniority_of(title: str) -> Seniority:
    low = title.lower()
    if low.startswith("chief"):
        return "executive"
    if "head of" in low or "director" in low:
        return "director"
    if "manager" in low or "lead" in low or "controller" in low:
        return "manager"
    if "senior" in low:
        return "senior"
    return "entry"


def _employees_range(n: int) -> str:
    for top, label in ((10, "1-10"), (50, "11-50"), (250, "51-250"), (1000, "251-1K"), (5000, "1K-5K")):
        if n <= top:
            return label
    return "5K-10K" if n <= 10000 else "10K+"


def _revenue_range(usd: int) -> str:
    bands = (
        (1_000_000, "$0-$1M"),
        (10_000_000, "$1M-$10M"),
        (50_000_000, "$10M-$50M"),
        (100_000_000, "$50M-$100M"),
        (250_000_000, "$100M-$250M"),
        (500_000_000, "$250M-$500M"),
        (1_000_000_000, "$500M-$1B"),
    )
    for top, label in bands:
        if usd < top:
            return label
    return "$1B-$10B"


def _normal_domain(domain: str) -> str:
    return domain[4:] if domain.startswith("www.") and domain.count(".") >= 2 else domain


def _name_from_domain(domain: str) -> str:
    """A company name read off an unknown domain: ``acme-robotics.io`` and ``acmerobotics.com`` give Acme Robotics."""
    label = domain.split(".")[0]
    words: list[str] = []
    for part in (p for p in label.split("-") if p):
        split = None
        for word in sorted(DOMAIN_WORDS, key=lambda w: (-len(w), w)):
            if part.endswith(word) and len(part) > len(word) + 1:
                split = [part[: -len(word)], word]
                break
        words.extend(split or [part])
    return " ".join(w.upper() if w in UPPER_WORDS else w[:1].upper() + w[1:] for w in words)


@dataclass(frozen=True, slots=True)
class _Firm:
    """A company as this service knows it: a world company, or one generated from its domain."""

    name: str
    domain: str
    industry: str
    address: PostalAddress
    phone: str
    place: Place
    employees: int
    pattern: str
    company: Company | None


@dataclass(frozen=True, slots=True)
class _Human:
    """A person at a firm: a world person, or one generated for an unknown firm."""

    first_name: str
    last_name: str
    email: str
    phone: str | None
    job_title: str
    department: str | None
    place: Place
    hire_date: dt.date | None
    person: Person | None


def _world_firm(company: Company) -> _Firm:
    return _Firm(
        name=company.name,
        domain=company.domain,
        industry=company.industry,
        address=company.address,
        phone=company.phone,
        place=company.place,
        employees=company.employees,
        pattern=WORLD_PATTERN,
        company=company,
    )


def _generated_firm(ctx: Ctx, domain: str) -> _Firm:
    rng = _rng(ctx, "firm", domain)
    labels = domain.split(".")
    country = CCTLD_COUNTRY.get(labels[-1])
    places = [p for p in PLACES if p.country == country] or list(PLACES)
    place = rng.choice(places)
    employees = rng.choices(SIZES, weights=(30, 25, 15, 12, 9, 6, 3))[0]
    street = f"{rng.randint(1, 240)} {rng.choice(STREETS)}"
    address = PostalAddress(
        street=street,
        city=place.city,
        postal_code=f"{place.postal_prefix}{rng.randint(100, 999)}",
        country=place.country,
    )
    digits = max(12 - len(place.phone_prefix) + 1, 6)
    phone = place.phone_prefix + "".join(str(rng.randint(0, 9)) for _ in range(digits))
    pattern = rng.choice(EMAIL_PATTERNS)
    name = _name_from_domain(domain)
    industry = None
    for word in name.lower().split():
        industry = DOMAIN_WORDS.get(word) or industry
    industry = industry or TLD_INDUSTRY.get(labels[-1]) or rng.choice(sorted(SECTORS))
    return _Firm(name, domain, industry, address, phone, place, employees, pattern, None)


def _firm(ctx: Ctx, domain: str, field: str = "domain") -> _Firm:
    """The firm behind a domain; personal mail providers and reserved domains have none."""
    domain = _normal_domain(domain)
    for company in ctx.population.companies:
        if domain == company.domain or domain.endswith("." + company.domain):
            return _world_firm(company)
    if domain in FREE_MAIL:
        raise NotFound(
            f"{domain} is a personal e-mail provider, not a company",
            field=field,
            hint="look the company up by its own web domain, e.g. the domain of a work e-mail address",
        )
    if domain in RESERVED_DOMAINS or domain.endswith(RESERVED_SUFFIXES):
        raise NotFound(
            f"{domain} is a reserved domain; no company is registered under it",
            field=field,
            hint="use the company's real web domain",
        )
    return _generated_firm(ctx, domain)


def _humans(ctx: Ctx, firm: _Firm) -> list[_Human]:
    """The people known at a firm, most senior first."""
    if firm.company is not None:
        out = [
            _Human(p.first_name, p.last_name, p.email, p.phone, p.job_title, p.department, p.place, p.hire_date, p)
            for p in ctx.population.people_at(firm.company)
        ]
    else:
        rng = _rng(ctx, "people", firm.domain)
        out = []
        used: set[str] = set()
        for _ in range(min(rng.randint(2, 5), firm.employees)):
            first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
            local = _apply_pattern(firm.pattern, first, last)
            if local in used:
                continue
            used.add(local)
            digits = max(12 - len(firm.place.phone_prefix) + 1, 6)
            phone = firm.place.phone_prefix + "".join(str(rng.randint(0, 9)) for _ in range(digits))
            out.append(
                _Human(
                    first,
                    last,
                    f"{local}@{firm.domain}",
                    phone,
                    rng.choice(CUSTOMER_TITLES),
                    None,
                    firm.place,
                    None,
                    None,
                )
            )
    return sorted(out, key=lambda h: (SENIORITY_RANK[_seniority_of(h.job_title)], h.last_name, h.first_name, h.email))


def _linkedin_person(ctx: Ctx, email: str, first: str, last: str) -> str:
    rng = _rng(ctx, "linkedin", email)
    tag = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(6))
    return f"https://www.linkedin.com/in/{_local_token(first)}-{_local_token(last)}-{tag}"


# -- result models -----------------------------------------------------------------------


class PersonSummary(BaseModel):
    """A person known to work at a company."""

    full_name: PersonName = Field(description="Full name.")
    first_name: FirstName = Field(description="Given name.")
    last_name: LastName = Field(description="Family name.")
    email: Email = Field(description="Work e-mail address.")
    email_status: EmailStatus = Field(description="Deliverability of the address: valid, accept_all or unknown.")
    job_title: JobTitle = Field(description="Job title.")
    role: Role | None = Field(description="Job function derived from the title or department.")
    seniority: Seniority = Field(description="Seniority derived from the title.")
    phone: Phone | None = Field(description="Direct work phone number, if known.")
    city: City = Field(description="City the person works in.")
    country: Country = Field(description="ISO 3166-1 alpha-2 country the person works in.")
    linkedin_url: Url = Field(description="Public profile page.")


class CompanyProfile(BaseModel):
    """Everything known about one company (Clearbit Company object)."""

    name: CompanyName = Field(description="Common company name.")
    legal_name: CompanyName = Field(description="Registered legal name with its legal form.")
    domain: Domain = Field(description="Primary web domain.")
    url: Url = Field(description="Home page.")
    logo_url: Url = Field(description="Logo image.")
    description: Text = Field(description="Short description of what the company does.")
    industry: str = Field(description="Industry (software, logistics, food, healthcare, ...).")
    sector: str = Field(description="GICS-style sector of the industry.")
    tags: list[str] = Field(description="Category tags.")
    founded_year: int = Field(ge=1800, le=2100, description="Year the company was founded.")
    employees: Quantity = Field(description="Estimated number of employees.")
    employees_range: str = Field(description="Employee count band, e.g. 51-250.")
    estimated_annual_revenue: str = Field(description="Estimated annual revenue band in US dollars, e.g. $10M-$50M.")
    address: PostalAddress = Field(description="Headquarters address.")
    city: City = Field(description="Headquarters city.")
    country: Country = Field(description="Headquarters country (ISO 3166-1 alpha-2).")
    latitude: Latitude = Field(description="Latitude of the headquarters city.")
    longitude: Longitude = Field(description="Longitude of the headquarters city.")
    timezone: Timezone = Field(description="IANA time zone of the headquarters.")
    language: Language = Field(description="Main business language at the headquarters (ISO 639-1).")
    phone: Phone = Field(description="Main phone number.")
    email_pattern: str = Field(description="How work addresses are formed, e.g. {first}.{last}@domain.")
    linkedin_url: Url = Field(description="Company page on LinkedIn.")
    twitter_handle: str | None = Field(description="Twitter/X handle, if the company has one.")
    tech: list[str] = Field(description="Technologies detected on the company's site and mail records.")
    known_people: Quantity = Field(description="How many people at the company this service knows.")
    key_people: list[PersonSummary] = Field(description="Up to five of those people, most senior first.")
    indexed_at: DateTime = Field(description="When the profile was last refreshed.")


class CompanyMatch(BaseModel):
    """One company in a search result."""

    name: CompanyName = Field(description="Company name.")
    domain: Domain = Field(description="Primary web domain; look it up for the full profile.")
    url: Url = Field(description="Home page.")
    logo_url: Url = Field(description="Logo image.")
    industry: str = Field(description="Industry.")
    city: City = Field(description="Headquarters city.")
    country: Country = Field(description="Headquarters country.")
    employees_range: str = Field(description="Employee count band.")
    score: float = Field(ge=0, le=1, description="Match score between 0 and 1, higher is better.")


class CompanySearch(BaseModel):
    """A page of companies matching a name."""

    query: CompanyName = Field(description="The name searched for.")
    total: Quantity = Field(description="Number of matches over all pages.")
    page: int = Field(description="This page's number, from 1.")
    results: list[CompanyMatch] = Field(description="Matches on this page, best first.")


class SimilarCompanies(BaseModel):
    """Companies similar to one company."""

    domain: Domain = Field(description="The company compared against.")
    name: CompanyName = Field(description="Its name.")
    industry: str = Field(description="Its industry.")
    results: list[CompanyMatch] = Field(description="Similar companies, most similar first.")


class PeoplePage(BaseModel):
    """A page of the people known at a company (Clearbit Prospector response)."""

    domain: Domain = Field(description="The company's domain.")
    company: CompanyName = Field(description="The company's name.")
    email_pattern: str = Field(description="How work addresses at the company are formed.")
    total: Quantity = Field(description="People matching the filters over all pages.")
    page: int = Field(description="This page's number, from 1.")
    page_size: int = Field(description="Results per page.")
    people: list[PersonSummary] = Field(description="People on this page, most senior first.")


class PersonProfile(BaseModel):
    """Everything known about the owner of an e-mail address (Clearbit Person object)."""

    email: Email = Field(description="The e-mail address looked up.")
    full_name: PersonName = Field(description="Full name.")
    first_name: FirstName = Field(description="Given name.")
    last_name: LastName = Field(description="Family name.")
    job_title: JobTitle | None = Field(description="Current job title; none for private persons.")
    role: Role | None = Field(description="Job function.")
    seniority: Seniority | None = Field(description="Seniority; none for private persons.")
    company: CompanyName | None = Field(description="Current employer; none for private persons.")
    company_domain: Domain | None = Field(description="Employer's web domain.")
    employment_start: Date | None = Field(description="When the current job started, if known.")
    city: City = Field(description="City the person lives or works in.")
    country: Country = Field(description="Country (ISO 3166-1 alpha-2).")
    timezone: Timezone = Field(description="The person's IANA time zone.")
    phone: Phone | None = Field(description="Work phone number, if known; private numbers are never given.")
    linkedin_url: Url = Field(description="Public profile page.")
    bio: Text = Field(description="One-line biography.")
    email_status: EmailStatus = Field(description="Deliverability of the address.")
    likelihood: int = Field(ge=1, le=10, description="Confidence that the profile belongs to the address, 1-10.")


class EmailFinding(BaseModel):
    """The most likely work e-mail of a person at a company."""

    email: Email = Field(description="The e-mail address found.")
    first_name: FirstName = Field(description="Given name searched for.")
    last_name: LastName = Field(description="Family name searched for.")
    domain: Domain = Field(description="The company's domain.")
    company: CompanyName = Field(description="The company's name.")
    pattern: str = Field(description="The company's address pattern the guess follows.")
    confidence: Percent = Field(description="Confidence that the address reaches the person, 0-100.")
    email_status: EmailStatus = Field(description="Deliverability: valid when the person is known there.")
    person_known: bool = Field(description="Whether the person is known to work at the company.")
    job_title: JobTitle | None = Field(description="The person's title, when known.")


# -- building results --------------------------------------------------------------------


def _summary(ctx: Ctx, h: _Human) -> PersonSummary:
    return PersonSummary(
        full_name=f"{h.first_name} {h.last_name}",
        first_name=h.first_name,
        last_name=h.last_name,
        email=h.email,
        email_status="valid" if h.person is not None else "accept_all",
        job_title=h.job_title,
        role=_role_of(h.job_title, h.department),
        seniority=_seniority_of(h.job_title),
        phone=h.phone,
        city=h.place.city,
        country=h.place.country,
        linkedin_url=_linkedin_person(ctx, h.email, h.first_name, h.last_name),
    )


def _match(firm: _Firm, score: float) -> CompanyMatch:
    return CompanyMatch(
        name=firm.name,
        domain=firm.domain,
        url=f"https://www.{firm.domain}",
        logo_url=f"https://logo.clearbit.com/{firm.domain}",
        industry=firm.industry,
        city=firm.place.city,
        country=firm.place.country,
        employees_range=_employees_range(firm.employees),
        score=round(score, 3),
    )


def _profile(ctx: Ctx, firm: _Firm) -> CompanyProfile:
    rng = _rng(ctx, "profile", firm.domain)
    young = {12: (2014, 2023), 40: (2008, 2021), 85: (2000, 2019), 150: (1995, 2017), 400: (1985, 2012)}
    lo, hi = young.get(firm.employees, (1950, 2005))
    founded = rng.randint(lo, hi)
    revenue = firm.employees * REVENUE_PER_EMPLOYEE_USD.get(firm.industry, 200_000) * rng.randint(70, 135) // 100
    pool = sorted(set(TECH["common"]) | set(TECH.get(firm.industry, TECH["default"])))
    tech = sorted(rng.sample(pool, rng.randint(3, 6)))
    label = firm.domain.split(".")[0]
    twitter = f"@{label[:15]}" if rng.random() < 0.7 else None
    indexed = ctx.now() - dt.timedelta(days=rng.randint(1, 90), hours=rng.randint(0, 23))
    humans = _humans(ctx, firm)
    size = "small" if firm.employees < 100 else "mid-sized" if firm.employees < 1000 else "large"
    country = country_name(firm.place.country, article=True)
    blurb = INDUSTRY_BLURBS.get(firm.industry, f"working in {firm.industry}")
    return CompanyProfile(
        name=firm.name,
        legal_name=f"{firm.name} {LEGAL_FORMS.get(firm.place.country, 'Ltd')}",
        domain=firm.domain,
        url=f"https://www.{firm.domain}",
        logo_url=f"https://logo.clearbit.com/{firm.domain}",
        description=f"{firm.name} is a {size} {firm.industry} company based in {firm.place.city}, {country}, {blurb}.",
        industry=firm.industry,
        sector=SECTORS.get(firm.industry, "Industrials"),
        tags=list(INDUSTRY_TAGS.get(firm.industry, (firm.industry.title(), "B2B"))),
        founded_year=founded,
        employees=firm.employees,
        employees_range=_employees_range(firm.employees),
        estimated_annual_revenue=_revenue_range(revenue),
        address=firm.address,
        city=firm.place.city,
        country=firm.place.country,
        latitude=firm.place.latitude,
        longitude=firm.place.longitude,
        timezone=firm.place.timezone,
        language=firm.place.language,
        phone=firm.phone,
        email_pattern=f"{firm.pattern}@{firm.domain}",
        linkedin_url=f"https://www.linkedin.com/company/{label}",
        twitter_handle=twitter,
        tech=tech,
        known_people=len(humans),
        key_people=[_summary(ctx, h) for h in humans[:5]],
        indexed_at=indexed,
    )


def _person_profile(ctx: Ctx, h: _Human, firm: _Firm | None, likelihood: int) -> PersonProfile:
    rng = _rng(ctx, "person", h.email)
    start = h.hire_date
    if start is None and firm is not None:
        start = ctx.today() - dt.timedelta(days=rng.randint(120, 3650))
    name = f"{h.first_name} {h.last_name}"
    bio = f"{name} lives in {h.place.city}." if firm is None else f"{h.job_title} at {firm.name} in {h.place.city}."
    return PersonProfile(
        email=h.email,
        full_name=name,
        first_name=h.first_name,
        last_name=h.last_name,
        job_title=h.job_title if firm is not None else None,
        role=_role_of(h.job_title, h.department) if firm is not None else None,
        seniority=_seniority_of(h.job_title) if firm is not None else None,
        company=firm.name if firm is not None else None,
        company_domain=firm.domain if firm is not None else None,
        employment_start=start if firm is not None else None,
        city=h.place.city,
        country=h.place.country,
        timezone=h.place.timezone,
        phone=h.phone if firm is not None else None,
        linkedin_url=_linkedin_person(ctx, h.email, h.first_name, h.last_name),
        bio=bio,
        email_status="valid" if h.person is not None else "accept_all",
        likelihood=likelihood,
    )


def _core_name(name: str) -> str:
    """A company name folded to lower-case words without its legal form: ``Acme Robotics GmbH`` -> ``acme robotics``."""
    words = re.findall(r"[a-z0-9]+", LEGAL_FORM_RE.sub(" ", fold(name, keep_punctuation=True)))
    return " ".join(words)


def _name_score(query: str, name: str, domain: str) -> float:
    """How well a company matches a searched name, 0 (not at all) to 1 (exactly)."""
    q = _core_name(query)
    n = _core_name(name)
    if not q:
        return 0.0
    compact = q.replace(" ", "")
    if q == n or fold(query, keep_punctuation=True).strip() == domain:
        return 1.0
    if n.startswith(q) or domain.split(".")[0].startswith(compact):
        return 0.9
    qw, nw = q.split(), n.split()
    hits = sum(1 for t in qw if any(w.startswith(t) for w in nw))
    if hits == len(qw):
        return 0.8
    ratio = difflib.SequenceMatcher(None, q, n).ratio()
    score = 0.7 * ratio if ratio >= 0.85 else 0.0
    if hits:
        score = max(score, 0.5 * hits / len(qw))
    return score


def _check_industry(industry: str | None) -> None:
    if industry is not None and industry not in SECTORS:
        raise RuleViolation(
            f"unknown industry {industry!r}",
            field="industry",
            hint=f"use one of: {', '.join(sorted(SECTORS))}",
        )


# -- tools -------------------------------------------------------------------------------


def _example_domain(ctx: Ctx) -> dict[str, Any]:
    return {"domain": ctx.population.customers[0].domain}


def _example_name(ctx: Ctx) -> dict[str, Any]:
    return {"name": ctx.population.customers[0].name.split()[0]}


def _example_email(ctx: Ctx) -> dict[str, Any]:
    return {"email": ctx.population.contacts[0].email}


def _example_person(ctx: Ctx) -> dict[str, Any]:
    p = ctx.population.contacts[0]
    company = ctx.population.company_of(p)
    assert company is not None
    return {"first_name": p.first_name, "last_name": p.last_name, "domain": company.domain}


@service.tool(intent="look up the company behind the web domain", open_world=True, example=_example_domain)
def find_company(ctx: Ctx, domain: Domain) -> CompanyProfile:
    """Look up a company by its web domain (Clearbit Company API).

    A known company answers with its real name, industry, size, headquarters
    address and phone, and the people known to work there. A domain nobody has
    indexed yet is profiled from what the domain and the web reveal. Personal
    mail providers (gmail.com, mailbox.net, ...) and reserved domains
    (example.com, *.test) have no company behind them and are refused.

    Args:
        domain: The company's web domain, e.g. acme.com; a leading www. is ignored.
    """
    return _profile(ctx, _firm(ctx, domain))


@service.tool(intent="find the company's web domain from its name", open_world=True, example=_example_name)
def search_companies(
    ctx: Ctx,
    name: CompanyName,
    country: Country | None = None,
    industry: str | None = None,
    min_employees: Quantity | None = None,
    page: Page = 1,
    limit: Limit = 10,
) -> CompanySearch:
    """Search companies by name, best match first (Clearbit Autocomplete and Name-to-Domain).

    Matches whole names, name prefixes, single words and near-miss spellings.
    When no indexed company matches and no filter is set, the most likely
    domain for the name is suggested with a low score.

    Args:
        name: The company's name or the start of it.
        country: Only companies headquartered in this country (ISO 3166-1 alpha-2).
        industry: Only companies of this industry (software, logistics, food, healthcare, manufacturing, retail,
            consulting, energy, media, hardware, wholesale, finance).
        min_employees: Only companies with at least this many employees.
        page: Page number, from 1.
        limit: Results per page, 1-25.
    """
    _check_industry(industry)
    if not fold(name):
        raise RuleViolation(
            "the name has no letters or digits to search for", field="name", hint="give the company's name"
        )
    scored: list[tuple[float, str, _Firm]] = []
    for company in ctx.population.companies:
        score = _name_score(name, company.name, company.domain)
        if score <= 0:
            continue
        if country is not None and company.place.country != country:
            continue
        if industry is not None and company.industry != industry:
            continue
        if min_employees is not None and company.employees < min_employees:
            continue
        scored.append((score, company.name, _world_firm(company)))
    filtered = country is not None or industry is not None or min_employees is not None
    if not filtered and all(s[0] < GOOD_MATCH for s in scored):
        slug = _core_name(name).replace(" ", "")[:40] or fold(name).replace(" ", "")[:40]
        guess = f"{slug}.com"
        if guess not in FREE_MAIL and guess not in RESERVED_DOMAINS:
            scored.append((GUESS_SCORE, guess, _firm(ctx, guess, field="name")))
    scored.sort(key=lambda s: (-s[0], s[1]))
    window = scored[(page - 1) * limit : page * limit]
    return CompanySearch(
        query=name, total=len(scored), page=page, results=[_match(firm, score) for score, _, firm in window]
    )


@service.tool(intent="find companies similar to this one", open_world=True, example=_example_domain)
def find_similar_companies(ctx: Ctx, domain: Domain, limit: Limit = 5) -> SimilarCompanies:
    """List companies similar to a company: same industry first, then same country and a similar size.

    Args:
        domain: The company's web domain.
        limit: How many similar companies to return, 1-25.
    """
    firm = _firm(ctx, domain)
    span = math.log(SIZES[-1] / SIZES[0])
    scored = []
    for company in ctx.population.companies:
        if company.domain == firm.domain:
            continue
        size = 1 - min(abs(math.log(company.employees / firm.employees)) / span, 1.0)
        score = (
            0.6 * (company.industry == firm.industry)
            + 0.25 * (company.place.country == firm.place.country)
            + 0.15 * size
        )
        scored.append((round(score, 3), company.name, company))
    scored.sort(key=lambda s: (-s[0], s[1]))
    return SimilarCompanies(
        domain=firm.domain,
        name=firm.name,
        industry=firm.industry,
        results=[_match(_world_firm(c), s) for s, _, c in scored[:limit]],
    )


@service.tool(intent="list the people who work at the company", open_world=True, example=_example_domain)
def list_people(
    ctx: Ctx,
    domain: Domain,
    role: Role | None = None,
    seniority: Seniority | None = None,
    title: str | None = None,
    page: Page = 1,
    page_size: PageSize = 10,
) -> PeoplePage:
    """List the people known to work at a company, most senior first (Clearbit Prospector).

    Args:
        domain: The company's web domain.
        role: Only people in this job function.
        seniority: Only people of this seniority.
        title: Only people whose job title contains this text (case-insensitive).
        page: Page number, from 1.
        page_size: Results per page, 1-20.
    """
    firm = _firm(ctx, domain)
    wanted = (title or "").strip().lower()
    people = [
        h
        for h in _humans(ctx, firm)
        if (role is None or _role_of(h.job_title, h.department) == role)
        and (seniority is None or _seniority_of(h.job_title) == seniority)
        and wanted in h.job_title.lower()
    ]
    window = people[(page - 1) * page_size : page * page_size]
    return PeoplePage(
        domain=firm.domain,
        company=firm.name,
        email_pattern=f"{firm.pattern}@{firm.domain}",
        total=len(people),
        page=page,
        page_size=page_size,
        people=[_summary(ctx, h) for h in window],
    )


@service.tool(intent="find out who owns the e-mail address", open_world=True, example=_example_email)
def enrich_person(ctx: Ctx, email: Email) -> PersonProfile:
    """Enrich a person from their e-mail address: name, job, employer and location (Clearbit Person API).

    Known people answer with their real details; private persons have no
    employer. An unknown address at a company whose people are all known, a
    role address (info@, sales@ ...) and an unknown private address are refused.

    Args:
        email: The person's e-mail address.
    """
    pop = ctx.population
    for p in pop.people:
        if p.email == email:
            company = pop.company_of(p)
            human = _Human(
                p.first_name, p.last_name, p.email, p.phone, p.job_title, p.department, p.place, p.hire_date, p
            )
            return _person_profile(ctx, human, _world_firm(company) if company else None, 10)
    local, _, domain = email.partition("@")
    if local in ROLE_ADDRESSES:
        raise NotFound(
            f"{email} is a shared role address, not a person",
            field="email",
            hint="enrich a personal work address, or list the company's people with list_people",
        )
    firm = _firm(ctx, domain, field="email")
    if firm.company is not None:
        raise NotFound(
            f"nobody with the address {email} is known at {firm.name}",
            field="email",
            hint=f"list the people at {firm.domain} with list_people, or guess the address with find_email",
        )
    for h in _humans(ctx, firm):
        if h.email == email:
            return _person_profile(ctx, h, firm, 8)
    parts = [p for p in re.split(r"[._-]+", local) if p.isalpha()]
    if len(parts) < 2:
        raise NotFound(
            f"no person could be matched to {email}",
            field="email",
            hint="look the person up by name and company domain with find_email",
        )
    rng = _rng(ctx, "guess", email)
    human = _Human(
        parts[0].capitalize(),
        parts[-1].capitalize(),
        email,
        None,
        rng.choice(CUSTOMER_TITLES),
        None,
        firm.place,
        None,
        None,
    )
    return _person_profile(ctx, human, firm, 4)


@service.tool(intent="find the person's work e-mail address", open_world=True, example=_example_person)
def find_email(ctx: Ctx, first_name: FirstName, last_name: LastName, domain: Domain) -> EmailFinding:
    """Find a person's work e-mail from their name and their company's domain.

    A person known at the company gets their real address; anyone else gets
    the address the company's e-mail pattern gives, with a lower confidence.

    Args:
        first_name: The person's given name.
        last_name: The person's family name.
        domain: The company's web domain.
    """
    if not _local_token(first_name):
        raise RuleViolation(
            f"cannot form an e-mail address from the given name {first_name!r}",
            field="first_name",
            hint="give the name in Latin letters",
        )
    if not _local_token(last_name):
        raise RuleViolation(
            f"cannot form an e-mail address from the family name {last_name!r}",
            field="last_name",
            hint="give the name in Latin letters",
        )
    if _normal_domain(domain) in FREE_MAIL:
        raise RuleViolation(
            f"{domain} is a personal e-mail provider; its addresses follow no pattern",
            field="domain",
            hint="give the domain of the person's employer",
        )
    firm = _firm(ctx, domain)
    for h in _humans(ctx, firm):
        if _same_name(h.first_name, first_name) and _same_name(h.last_name, last_name):
            return EmailFinding(
                email=h.email,
                first_name=first_name,
                last_name=last_name,
                domain=firm.domain,
                company=firm.name,
                pattern=f"{firm.pattern}@{firm.domain}",
                confidence=99.0 if h.person is not None else 92.0,
                email_status="valid" if h.person is not None else "accept_all",
                person_known=True,
                job_title=h.job_title,
            )
    return EmailFinding(
        email=f"{_apply_pattern(firm.pattern, first_name, last_name)}@{firm.domain}",
        first_name=first_name,
        last_name=last_name,
        domain=firm.domain,
        company=firm.name,
        pattern=f"{firm.pattern}@{firm.domain}",
        confidence=64.0 if firm.company is not None else 48.0,
        email_status="unknown",
        person_known=False,
        job_title=None,
    )
