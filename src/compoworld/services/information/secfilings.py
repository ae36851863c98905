"""Edgarline: SEC filings of the world's listed companies, XBRL financial facts, full-text search and watch lists.

Modeled on the SEC EDGAR APIs on data.sec.gov: ``/submissions/CIK##########.json``
(the company's ``cik``, ``tickers``, ``sicDescription``, ``fiscalYearEnd`` and
``filings.recent`` with ``accessionNumber``, ``filingDate``, ``reportDate``,
``form``, ``items``, ``primaryDocument``), ``/api/xbrl/companyfacts/`` and
``/api/xbrl/companyconcept/`` (facts by ``us-gaap`` concept with ``start``,
``end``, ``val``, ``accn``, ``fy``, ``fp``, ``form``, ``filed``, ``frame``),
``/api/xbrl/frames/{taxonomy}/{concept}/{unit}/CY2024Q1I`` across companies,
and EDGAR full-text search (``efts.sec.gov/LATEST/search-index?q=``), with an
investor-relations team's watch lists and filing alerts.

An open-world service: every company of the world's population is an SEC
registrant under the ticker the market data service gives it (a US company files
10-K, 10-Q, 8-K and DEF 14A; a foreign private issuer files 20-F and 6-K), with
calendar fiscal years. Filings are a deterministic draw from the world seed: the
annual report 60-75 days after year end, quarterly reports 35-45 days after each
of the first three quarters, an earnings 8-K (item 2.02) a few days before each
periodic report and other 8-Ks naming the company's own people (item 5.02 officer
changes). XBRL facts come only from periodic reports already filed, so companyfacts,
companyconcept and frames agree. Stored state is the watch lists: an employee
watches companies for some form types; checking a watch raises an alert for each
matching filing since the last check; a paused watch is not checked; alerts are
reviewed (with an action) or dismissed once; an archived list is frozen.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Country, Date, Email, IdOf, SemanticType, Text, Ticker
from compoworld.services.information.stocks import listings
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import fixed_example
from compoworld.services.kit.lists import KeptList, ListRecord, require_employee
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "secfilings",
    title="Edgarline",
    category="filings_data",
    modeled_on="SEC EDGAR APIs (submissions by CIK, XBRL companyfacts, companyconcept and frames, EDGAR full-text "
    "search) with filing watch lists and alerts",
    description="Company filings: find a registrant's CIK, list its 10-K, 10-Q, 8-K, 20-F and proxy filings, read a "
    "filing's items, search the text of filings, read XBRL financial facts by concept or across companies for a "
    "period, and keep watch lists of companies whose new filings raise alerts to review.",
)

Cik = Annotated[str, SemanticType("sec.cik", kind="ref"), StringConstraints(pattern=r"^[0-9]{10}$")]
Accession = Annotated[
    str, SemanticType("sec.accession", kind="ref"), StringConstraints(pattern=r"^[0-9]{10}-[0-9]{2}-[0-9]{6}$")
]
Frame = Annotated[str, StringConstraints(pattern=r"^CY[0-9]{4}(Q[1-4]I?)?$")]
WatchlistId = Annotated[str, IdOf("secfilings.watchlist")]
WatchId = Annotated[str, IdOf("secfilings.watch")]
AlertId = Annotated[str, IdOf("secfilings.alert")]
Search = Annotated[str, StringConstraints(min_length=2, max_length=120)]

Form = Literal["10-K", "10-Q", "8-K", "DEF 14A", "20-F", "6-K"]
Concept = Literal[
    "Revenues",
    "NetIncomeLoss",
    "OperatingIncomeLoss",
    "EarningsPerShareBasic",
    "Assets",
    "Liabilities",
    "StockholdersEquity",
    "CashAndCashEquivalentsAtCarryingValue",
]
_CONCEPTS: dict[str, tuple[str, str, bool]] = {
    "Revenues": ("Revenues", "USD", False),
    "NetIncomeLoss": ("Net Income (Loss) Attributable to Parent", "USD", False),
    "OperatingIncomeLoss": ("Operating Income (Loss)", "USD", False),
    "EarningsPerShareBasic": ("Earnings Per Share, Basic", "USD/shares", False),
    "Assets": ("Assets", "USD", True),
    "Liabilities": ("Liabilities", "USD", True),
    "StockholdersEquity": ("Stockholders' Equity", "USD", True),
    "CashAndCashEquivalentsAtCarryingValue": ("Cash and Cash Equivalents", "USD", True),
}
"""Concept: label, unit, instant (a balance on a date) rather than a duration."""
_SIC = {
    "software": ("7372", "Services-Prepackaged Software"),
    "hardware": ("3570", "Computer & Office Equipment"),
    "retail": ("5990", "Retail-Retail Stores, NEC"),
    "logistics": ("4731", "Arrangement of Transportation of Freight & Cargo"),
    "manufacturing": ("3590", "Misc Industrial & Commercial Machinery & Equipment"),
    "media": ("7812", "Services-Motion Picture & Video Tape Production"),
}
_EVENTS = (
    ("1.01", "Entry into a Material Definitive Agreement", "entered into a supply and services agreement"),
    ("8.01", "Other Events", "announced a share repurchase program"),
    ("7.01", "Regulation FD Disclosure", "presented at an investor conference"),
    (
        "2.01",
        "Completion of Acquisition or Disposition of Assets",
        "completed the acquisition of a regional competitor",
    ),
)
MAX_WATCHES = 25


@dataclass(frozen=True, slots=True)
class _Company:
    cik: str
    name: str
    ticker: str
    country: str
    sic: str
    sic_description: str
    domestic: bool
    shares: int
    revenue: float
    margin: float
    growth: float
    people: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class _Db:
    companies: dict[str, _Company]
    filings: dict[str, Filing]
    facts: dict[str, tuple[Fact, ...]]


def _workday(day: dt.date) -> dt.date:
    return day + dt.timedelta(days=(7 - day.weekday()) % 7 if day.weekday() >= 5 else 0)


def _pad(extra: tuple[Any, ...]) -> tuple[Any, Any, Any, Any]:
    vals = [*extra, *(None, (), None, None)[len(extra) :]]
    return vals[0], vals[1], vals[2], vals[3]


def _company(pop: Population, r: random.Random, c: Company, ticker: str, shares: int, margin: float) -> _Company:
    sic, desc = _SIC.get(c.industry, ("8742", "Services-Management Consulting Services"))
    people = pop.staff("Finance", "Operations")[:3] if c.home else list(pop.people_at(c)[:3])
    return _Company(
        cik=f"{r.randint(1_000_000, 1_999_999):010d}",
        name=c.name,
        ticker=ticker,
        country=c.address.country,
        sic=sic,
        sic_description=desc,
        domestic=c.address.country == "US",
        shares=shares,
        revenue=c.employees * 220_000 * r.uniform(0.7, 1.4),
        margin=margin,
        growth=r.uniform(-0.03, 0.18),
        people=tuple((p.name, p.job_title) for p in people),
    )


@per_population
def _build(pop: Population, today: dt.date) -> _Db:
    r = random.Random(f"secfilings:{pop.seed}")
    companies: dict[str, _Company] = {}
    for listing in listings(pop).values():
        co = _company(pop, r, listing.company, listing.ticker, listing.shares, listing.margin)
        companies[co.cik] = co
    filings: dict[str, Filing] = {}
    facts: dict[str, list[Fact]] = {}
    for co in companies.values():
        seq = [0]
        facts[co.cik] = []

        def file(form: str, day: dt.date, text: str, *extra: Any, co: _Company = co, seq: list[int] = seq) -> bool:
            """File ``form`` on the next business day from ``day``; extra: report date, items, fy, fp."""
            day = _workday(day)
            if day > today:
                return False
            seq[0] += 1
            accn = f"{co.cik}-{day.year % 100:02d}-{seq[0]:06d}"
            report, items, fy, fp = _pad(extra)
            doc = f"{co.ticker.lower()}-{(report or day).strftime('%Y%m%d')}.htm"
            filings[accn] = Filing(
                accession_number=accn,
                cik=co.cik,
                company_name=co.name,
                form=form,
                filing_date=day,
                report_date=report,
                items=list(items),
                fiscal_year=fy,
                fiscal_period=fp,
                primary_document=doc,
                description=f"{co.name} {text}",
            )
            return True

        for year in range(today.year - 5, today.year + 1):
            revenue = co.revenue * (1 + co.growth) ** (year - today.year)
            for q in (1, 2, 3, 4):
                end, annual, fp = dt.date(year, 3 * q, 30 if q in (2, 3) else 31), q == 4, "FY" if q == 4 else f"Q{q}"
                if co.domestic:
                    form, lag = ("10-K", r.randint(60, 75)) if annual else ("10-Q", r.randint(35, 45))
                else:
                    form, lag = ("20-F", r.randint(90, 120)) if annual else ("6-K", r.randint(40, 60))
                due = end + dt.timedelta(days=lag)
                results = f"announced results of operations for the period ended {end}; press release as exhibit 99.1"
                if co.domestic and not file("8-K", due - dt.timedelta(days=r.randint(2, 6)), results, end, ("2.02",)):
                    continue
                label = f"annual report for fiscal year {year}" if annual else f"quarterly report for {fp} {year}"
                text = f"{label}: revenue, results of operations, liquidity, risk factors, {co.sic_description.lower()}"
                if not file(form, due, text, end, (), year, fp):
                    continue
                _add_facts(facts[co.cik], co, r, next(reversed(filings.values())), year, q, revenue)
                proxy = (
                    "proxy statement for the annual meeting: election of directors, executive compensation, say on pay"
                )
                if co.domestic and annual:
                    file("DEF 14A", due + dt.timedelta(days=r.randint(25, 40)), proxy, None, (), year)
            if co.domestic:
                for _ in range(r.randint(0, 2)):
                    code, title, what = r.choice(_EVENTS)
                    file("8-K", dt.date(year, r.randint(1, 12), r.randint(1, 28)), f"{what} ({title})", None, (code,))
                if co.people and r.random() < 0.5:
                    name, title = r.choice(co.people)
                    text = f"Departure of Directors or Certain Officers: {name}, {title}, will step down"
                    file("8-K", dt.date(year, r.randint(1, 12), r.randint(1, 28)), text, None, ("5.02",))
    return _Db(companies, filings, {k: tuple(v) for k, v in facts.items()})


def _add_facts(out: list[Fact], co: _Company, r: random.Random, f: Filing, year: int, q: int, revenue: float) -> None:
    start = dt.date(year, 1, 1) if q == 4 else dt.date(year, 3 * q - 2, 1)
    end = f.report_date or f.filing_date
    part = revenue * (1 if q == 4 else r.uniform(0.22, 0.27))
    net = part * co.margin
    assets = revenue * r.uniform(1.1, 1.5)
    liabilities = assets * r.uniform(0.35, 0.65)
    duration = f"CY{year}" if q == 4 else f"CY{year}Q{q}"
    values = {
        "Revenues": round(part),
        "NetIncomeLoss": round(net),
        "OperatingIncomeLoss": round(net * 1.3),
        "EarningsPerShareBasic": round(net / co.shares, 2),
        "Assets": round(assets),
        "Liabilities": round(liabilities),
        "StockholdersEquity": round(assets) - round(liabilities),
        "CashAndCashEquivalentsAtCarryingValue": round(assets * r.uniform(0.08, 0.2)),
    }
    for concept, val in values.items():
        instant = _CONCEPTS[concept][2]
        out.append(
            Fact(
                concept=concept,
                unit=_CONCEPTS[concept][1],
                start=None if instant else start,
                end=end,
                val=val,
                accn=f.accession_number,
                fy=year,
                fp=f.fiscal_period or "FY",
                form=f.form,
                filed=f.filing_date,
                frame=f"CY{year}Q{q}I" if instant else duration,
            )
        )


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population, ctx.today())


# -- result models -----------------------------------------------------------------------------------------


class Registrant(BaseModel):
    """An SEC registrant."""

    cik: Cik = Field(description="Central Index Key, ten digits.")
    name: CompanyName = Field(description="Conformed company name.")
    tickers: list[Ticker] = Field(description="Exchange tickers.")
    sic: str = Field(description="Standard Industrial Classification code.")
    sic_description: str = Field(description="Its title.")
    state_of_incorporation_country: Country = Field(description="Country of the business address.")
    filer_category: Literal["domestic", "foreign_private_issuer"] = Field(
        description="domestic (10-K/10-Q) or foreign_private_issuer (20-F/6-K)."
    )
    fiscal_year_end: str = Field(description="MMDD of the fiscal year end.")


class Filing(BaseModel):
    """A filing in EDGAR."""

    accession_number: Accession = Field(description="Accession number.")
    cik: Cik = Field(description="The filer.")
    company_name: CompanyName = Field(description="The filer's name.")
    form: Form = Field(description="Form type.")
    filing_date: Date = Field(description="Date filed (a business day).")
    report_date: Date | None = Field(description="Period of report, for periodic reports and earnings 8-Ks.")
    items: list[str] = Field(description="8-K items (2.02 results, 5.02 officers …).")
    fiscal_year: int | None = Field(description="Fiscal year reported on.")
    fiscal_period: str | None = Field(description="FY, Q1, Q2 or Q3.")
    primary_document: str = Field(description="File name of the primary document.")
    description: str = Field(description="What the filing says, in short.")


class Submissions(BaseModel):
    """A registrant with its most recent filings."""

    registrant: Registrant = Field(description="The company.")
    recent_filings: list[Filing] = Field(description="Filings, newest first.")
    total_filings: int = Field(description="Filings on record.")


class Fact(BaseModel):
    """One XBRL fact."""

    concept: Concept = Field(description="us-gaap concept.")
    unit: str = Field(description="USD or USD/shares.")
    start: Date | None = Field(description="Period start (none for an instant).")
    end: Date = Field(description="Period end, or the instant.")
    val: float = Field(description="The value.")
    accn: Accession = Field(description="The filing it was reported in.")
    fy: int = Field(description="Fiscal year.")
    fp: str = Field(description="Fiscal period: FY, Q1, Q2, Q3.")
    form: Form = Field(description="Form of that filing.")
    filed: Date = Field(description="Date filed.")
    frame: str | None = Field(description="Calendar frame the fact fits (CY2024, CY2024Q1, CY2024Q1I).")


class FrameEntry(BaseModel):
    """One company's value in a frame."""

    cik: Cik = Field(description="The company.")
    entity_name: CompanyName = Field(description="Its name.")
    accn: Accession = Field(description="The filing.")
    end: Date = Field(description="Period end.")
    val: float = Field(description="The value.")


class FrameResult(BaseModel):
    """A concept for one calendar period across companies."""

    concept: Concept = Field(description="us-gaap concept.")
    unit: str = Field(description="Unit.")
    frame: str = Field(description="The calendar period.")
    entries: list[FrameEntry] = Field(description="One per company that reported it, largest first.")


def _registrant(c: _Company) -> Registrant:
    return Registrant(
        cik=c.cik,
        name=c.name,
        tickers=[c.ticker],
        sic=c.sic,
        sic_description=c.sic_description,
        state_of_incorporation_country=c.country,
        filer_category="domestic" if c.domestic else "foreign_private_issuer",
        fiscal_year_end="1231",
    )


def _get_company(ctx: Ctx, cik: str, field: str = "cik") -> _Company:
    c = _db(ctx).companies.get(cik)
    if c is None:
        raise NotFound(
            f"no registrant with CIK {cik}", field=field, hint="find the CIK with secfilings__search_companies"
        )
    return c


def _check_range(start: dt.date | None, end: dt.date | None) -> None:
    if start is not None and end is not None and end < start:
        raise RuleViolation("filed_to is before filed_from", field="filed_to", hint="swap the dates")


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search SEC registrants", open_world=True)
def search_companies(ctx: Ctx, name: Search | None = None, ticker: Ticker | None = None) -> list[Registrant]:
    """Find registrants by words of the name or by ticker (company_tickers.json), by name.

    Args:
        name: Words of the company name.
        ticker: Exchange ticker.
    """
    words = fold(name or "").split()
    found = [
        c
        for c in _db(ctx).companies.values()
        if all(w in fold(c.name).split() for w in words) and ticker in (None, c.ticker)
    ]
    return [_registrant(c) for c in sorted(found, key=lambda c: c.name)]


def _example_cik(ctx: Ctx) -> dict[str, Any]:
    return {"cik": next(c.cik for c in _db(ctx).companies.values() if c.domestic)}


@service.tool(intent="get the company's submissions", open_world=True, example=_example_cik)
def get_submissions(ctx: Ctx, cik: Cik) -> Submissions:
    """Get a registrant's profile and its 40 most recent filings (/submissions/CIK##########.json).

    Args:
        cik: The ten-digit CIK.
    """
    db = _db(ctx)
    co = _get_company(ctx, cik)
    mine = sorted(
        (f for f in db.filings.values() if f.cik == cik),
        key=lambda f: (f.filing_date, f.accession_number),
        reverse=True,
    )
    return Submissions(registrant=_registrant(co), recent_filings=mine[:40], total_filings=len(mine))


@service.tool(intent="list the company's filings", open_world=True, example=_example_cik)
def list_filings(
    ctx: Ctx,
    cik: Cik,
    form: Form | None = None,
    filed_from: Date | None = None,
    filed_to: Date | None = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 25,
) -> list[Filing]:
    """List a registrant's filings, optionally of one form type and in a date range, newest first.

    Args:
        cik: The ten-digit CIK.
        form: Only this form type (10-K, 10-Q, 8-K, DEF 14A, 20-F, 6-K).
        filed_from: Filed on or after this date.
        filed_to: Filed on or before this date.
        limit: Most results.
    """
    _get_company(ctx, cik)
    _check_range(filed_from, filed_to)
    db = _db(ctx)
    found = [
        f
        for f in db.filings.values()
        if f.cik == cik
        and form in (None, f.form)
        and (filed_from is None or f.filing_date >= filed_from)
        and (filed_to is None or f.filing_date <= filed_to)
    ]
    found.sort(key=lambda f: (f.filing_date, f.accession_number), reverse=True)
    return [f for f in found[:limit]]


def _example_filing(ctx: Ctx) -> dict[str, Any]:
    return {"accession_number": next(iter(_db(ctx).filings))}


@service.tool(intent="get the filing", open_world=True, example=_example_filing)
def get_filing(ctx: Ctx, accession_number: Accession) -> Filing:
    """Get one filing by accession number: form, dates, items, period and primary document.

    Args:
        accession_number: The accession number (0001234567-24-000012).
    """
    db = _db(ctx)
    f = db.filings.get(accession_number)
    if f is None:
        raise NotFound(
            f"no filing {accession_number}", field="accession_number", hint="list filings with secfilings__list_filings"
        )
    return f


@service.tool(intent="search the text of filings", open_world=True, example=fixed_example(q="annual report"))
def full_text_search(
    ctx: Ctx,
    q: Search,
    forms: list[Form] | None = None,
    filed_from: Date | None = None,
    filed_to: Date | None = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 25,
) -> list[Filing]:
    """Search the text of filings for all the words of a query (EDGAR full-text search), newest first.

    Args:
        q: Words that must all appear.
        forms: Only these form types.
        filed_from: Filed on or after this date.
        filed_to: Filed on or before this date.
        limit: Most results.
    """
    _check_range(filed_from, filed_to)
    db = _db(ctx)
    words = fold(q).split()
    found = [
        f
        for f in db.filings.values()
        if all(w in fold(f.description).split() for w in words)
        and (not forms or f.form in forms)
        and (filed_from is None or f.filing_date >= filed_from)
        and (filed_to is None or f.filing_date <= filed_to)
    ]
    found.sort(key=lambda f: (f.filing_date, f.accession_number), reverse=True)
    return found[:limit]


@service.tool(intent="get the company's XBRL facts", open_world=True, example=_example_cik)
def get_company_facts(
    ctx: Ctx, cik: Cik, fiscal_year: Annotated[int, Field(ge=1990, le=2100)] | None = None
) -> list[Fact]:
    """Get every XBRL fact a company reported (/api/xbrl/companyfacts/), by concept and period.

    Args:
        cik: The ten-digit CIK.
        fiscal_year: Only facts of this fiscal year.
    """
    _get_company(ctx, cik)
    return [f for f in _db(ctx).facts[cik] if fiscal_year in (None, f.fy)]


@service.tool(
    intent="get one concept's facts for the company",
    open_world=True,
    example=lambda ctx: _example_cik(ctx) | {"concept": "Revenues"},
)
def get_company_concept(ctx: Ctx, cik: Cik, concept: Concept) -> list[Fact]:
    """Get one us-gaap concept's facts for a company over time (/api/xbrl/companyconcept/), oldest first.

    Args:
        cik: The ten-digit CIK.
        concept: The us-gaap concept (Revenues, NetIncomeLoss, Assets …).
    """
    _get_company(ctx, cik)
    return [f for f in _db(ctx).facts[cik] if f.concept == concept]


def _example_frame(ctx: Ctx) -> dict[str, Any]:
    return {"concept": "Revenues", "frame": f"CY{ctx.today().year - 1}Q3"}


@service.tool(intent="compare a concept across companies for a period", open_world=True, example=_example_frame)
def get_frame(ctx: Ctx, concept: Concept, frame: Frame) -> FrameResult:
    """Get one concept for a calendar period across every reporting company (/api/xbrl/frames/), largest first.

    Durations use CY2024 (a year) or CY2024Q1 (a quarter); balances use an instant frame such as CY2024Q4I.

    Args:
        concept: The us-gaap concept.
        frame: The calendar period (CY2024, CY2024Q1, CY2024Q4I).
    """
    _, unit, instant = _CONCEPTS[concept]
    if instant and not frame.endswith("I"):
        msg = f"{concept} is a balance on a date; {frame} is a duration frame"
        raise RuleViolation(msg, field="frame", hint=f"ask for an instant frame such as {frame[:6]}Q4I")
    if not instant and frame.endswith("I"):
        msg = f"{concept} covers a period; {frame} is an instant frame"
        raise RuleViolation(msg, field="frame", hint=f"ask for {frame[:-1]} or {frame[:6]}")
    db = _db(ctx)
    entries = [
        FrameEntry(cik=cik, entity_name=db.companies[cik].name, accn=f.accn, end=f.end, val=f.val)
        for cik, facts in db.facts.items()
        for f in facts
        if f.concept == concept and f.frame == frame
    ]
    entries.sort(key=lambda e: (-e.val, e.cik))
    return FrameResult(concept=concept, unit=unit, frame=frame, entries=entries)


# -- watch lists -------------------------------------------------------------------------------------------


class Watchlist(ListRecord):
    """An investor-relations or finance team's list of watched registrants."""

    id: WatchlistId


class Watch(Timestamped):
    """A registrant on a watch list."""

    id: WatchId
    watchlist_id: WatchlistId
    """The list."""
    cik: Cik
    """The watched company's CIK."""
    company_name: CompanyName
    """Its name."""
    forms: list[Form]
    """Form types that raise alerts."""
    status: Literal["active", "paused"] = "active"
    """active, or paused (not checked)."""
    last_checked_on: Date
    """Filings after this date raise alerts at the next check."""


class Alert(Timestamped):
    """A new filing of a watched company."""

    id: AlertId
    watch_id: WatchId
    """The watch that raised it."""
    accession_number: Accession
    """The filing."""
    form: Form
    """Its form type."""
    filing_date: Date
    """Date filed."""
    company_name: CompanyName
    """The filer."""
    status: Literal["new", "reviewed", "dismissed"] = "new"
    """new, reviewed or dismissed."""
    action: Literal["none", "update_model", "brief_leadership", "refer_to_legal"] | None = None
    """What the review decided."""
    reviewed_by: Email | None = None
    """Who reviewed it."""
    note: Text = ""
    """The review note."""


_LISTS = KeptList(Watchlist, noun="watch list", field="watchlist_id", frozen_hint="create a new watch list")
_open_list = _LISTS.open


watchlists = _LISTS.declare(
    service,
    name="watchlist",
    plural="watchlists",
    prefix="swl",
    title="filing watch list",
    children=[(Watch, "watchlist_id"), (Alert, "watch_id")],
)
watches = service.resource(
    Watch,
    name="watch",
    plural="watches",
    prefix="swa",
    create=False,
    filters=("watchlist_id", "cik", "status"),
    search=("company_name",),
    title="company watch",
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the company watch"),
        "resume": Transition("status", ("paused",), "active", "resume the company watch"),
    },
    guard_update=_LISTS.entry_guard("watchlist_id", "watch_id"),
    guard_delete=_LISTS.entry_guard("watchlist_id", "watch_id"),
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="sal",
    create=False,
    delete=False,
    filters=("watch_id", "accession_number", "form", "status"),
    search=("company_name", "note"),
    title="filing alert",
    transitions={"dismiss": Transition("status", ("new",), "dismissed", "dismiss the filing alert")},
)


def _example_watch(ctx: Ctx) -> dict[str, Any] | None:
    wl = ctx.first(Watchlist, status="active")
    if wl is None:
        return None
    have = {w.cik for w in ctx.where(Watch, watchlist_id=wl.id)}
    free = next(c for c in _db(ctx).companies if c not in have)
    return {"watchlist_id": wl.id, "cik": free, "forms": ["10-K", "8-K"]}


@service.tool(intent="watch a company's new filings", write=True, example=_example_watch)
def add_watch(ctx: Ctx, watchlist_id: WatchlistId, cik: Cik, forms: list[Form]) -> Watch:
    """Watch a registrant on a list for some form types; filings from today on raise alerts.

    Args:
        watchlist_id: The watch list (active).
        cik: The company's CIK (once per list).
        forms: Form types to alert on; each must be one the company files (10-K/10-Q/8-K/DEF 14A for a domestic
            filer, 20-F/6-K for a foreign private issuer).
    """
    wl = _open_list(ctx, watchlist_id)
    co = _get_company(ctx, cik)
    if not forms:
        raise RuleViolation("a watch needs at least one form type", field="forms", hint="name forms such as 10-K, 8-K")
    files = {"10-K", "10-Q", "8-K", "DEF 14A"} if co.domestic else {"20-F", "6-K"}
    for i, f in enumerate(forms):
        if f not in files:
            kind = "a domestic filer" if co.domestic else "a foreign private issuer"
            msg = f"{co.name} is {kind} and does not file {f}"
            raise RuleViolation(msg, field=f"forms.{i}", hint=f"choose among {', '.join(sorted(files))}")
    other = ctx.first(Watch, watchlist_id=wl.id, cik=cik)
    if other is not None:
        raise Conflict(f"{co.name} is already watched as {other.id}", field="cik", hint="resume or change that watch")
    if len(ctx.where(Watch, watchlist_id=wl.id)) >= MAX_WATCHES:
        msg = f"watch list {wl.id} already watches {MAX_WATCHES} companies"
        raise RuleViolation(msg, field="watchlist_id", hint="remove a watch first")
    return ctx.create(
        Watch, watchlist_id=wl.id, cik=cik, company_name=co.name, forms=sorted(set(forms)), last_checked_on=ctx.today()
    )


def _example_check(ctx: Ctx) -> dict[str, Any] | None:
    for w in ctx.where(Watch, status="active"):
        if ctx.get(Watchlist, w.watchlist_id).status == "active":
            return {"watch_id": w.id}
    return None


@service.tool(intent="check the watch for new filings", write=True, example=_example_check)
def check_watch(ctx: Ctx, watch_id: WatchId) -> list[Alert]:
    """Raise an alert for each watched-form filing of the company since the last check; returns them.

    Args:
        watch_id: The watch (active, on an active list).
    """
    w = ctx.get(Watch, watch_id, field="watch_id")
    _open_list(ctx, w.watchlist_id, "watch_id")
    if w.status != "active":
        raise RuleViolation(f"watch {w.id} is paused", field="watch_id", hint="resume it with secfilings__resume_watch")
    db = _db(ctx)
    new = sorted(
        (f for f in db.filings.values() if f.cik == w.cik and f.filing_date > w.last_checked_on and f.form in w.forms),
        key=lambda f: (f.filing_date, f.accession_number),
    )
    out = [
        ctx.create(
            Alert,
            watch_id=w.id,
            accession_number=f.accession_number,
            form=f.form,
            filing_date=f.filing_date,
            company_name=w.company_name,
        )
        for f in new
        if ctx.first(Alert, watch_id=w.id, accession_number=f.accession_number) is None
    ]
    ctx.update(w, last_checked_on=ctx.today())
    return out


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Alert, status="new")
    return (
        None
        if a is None
        else {
            "alert_id": a.id,
            "reviewed_by": ctx.population.employees[0].email,
            "action": "update_model",
            "note": "Guidance raised; refresh the peer model.",
        }
    )


@service.tool(intent="review the filing alert", write=True, example=_example_review)
def review_alert(
    ctx: Ctx,
    alert_id: AlertId,
    reviewed_by: Email,
    action: Literal["none", "update_model", "brief_leadership", "refer_to_legal"],
    note: Text,
) -> Alert:
    """Record the review of a new alert: who read the filing, what follows and why.

    Args:
        alert_id: The alert (new).
        reviewed_by: The employee who reviewed it.
        action: none, update_model, brief_leadership or refer_to_legal.
        note: What the filing says that matters.
    """
    a = ctx.get(Alert, alert_id, field="alert_id")
    if a.status != "new":
        raise RuleViolation(f"alert {a.id} is already {a.status}", field="alert_id", hint="pick a new alert")
    require_employee(ctx, reviewed_by, field="reviewed_by", hint="a colleague reviews it")
    if not note.strip():
        raise RuleViolation("a review needs a note", field="note", hint="say what the filing changes")
    return ctx.update(a, status="reviewed", action=action, reviewed_by=reviewed_by, note=note.strip())


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Finance's watch lists on partners' filings, with alerts new, reviewed and dismissed."""
    pop = s.population
    today = s.now.date()
    db = _build(pop, today)
    team = pop.staff("Finance", fallback=3)
    cos = sorted(db.companies.values(), key=lambda c: not c.domestic)  # US peers first
    plans = (
        ("Peer and partner filings", "active", 240, cos[0:3] + cos[5:7]),
        ("2024 supplier due diligence", "archived", 700, cos[3:4] + cos[7:8]),
    )
    for k, (name, status, days, watched) in enumerate(plans):
        wl = s.create(
            Watchlist,
            name=name,
            owner_email=team[k % len(team)].email,
            status=status,
            description=f"Filings we follow: {name.lower()}.",
            created_at=s.ago(days=days),
            updated_at=s.ago(days=days // 4),
        )
        for j, co in enumerate(watched):
            checked = today - dt.timedelta(days=120 if status == "active" else days // 2)
            forms = ["10-K", "10-Q", "8-K"] if co.domestic else ["20-F", "6-K"]
            w = s.create(
                Watch,
                watchlist_id=wl.id,
                cik=co.cik,
                company_name=co.name,
                forms=forms,
                status="paused" if j == 3 else "active",
                last_checked_on=checked,
                created_at=s.ago(days=days),
                updated_at=s.ago(days=120),
            )
            lo = checked - dt.timedelta(days=200)
            mine = [f for f in db.filings.values() if f.cik == co.cik and f.form in forms]
            past = sorted((f for f in mine if lo < f.filing_date <= checked), key=lambda f: f.filing_date)
            for i, f in enumerate(past[-3:]):
                state = ("reviewed", "dismissed", "new")[i % 3]
                s.create(
                    Alert,
                    watch_id=w.id,
                    accession_number=f.accession_number,
                    form=f.form,
                    filing_date=f.filing_date,
                    company_name=co.name,
                    status=state,
                    action="none" if state == "reviewed" else None,
                    reviewed_by=team[0].email if state == "reviewed" else None,
                    note="Routine; nothing new." if state == "reviewed" else "",
                    created_at=s.ago(days=125),
                    updated_at=s.ago(days=121),
                )
