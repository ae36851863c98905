"""Patentscope: granted US patents, inventors, assignees, CPC classes and citations, and assignee watch lists.

Modeled on the USPTO PatentsView PatentSearch API (``/api/v1/patent/`` with
``patent_id``, ``patent_title``, ``patent_date``, ``patent_type`` utility /
design, ``patent_num_times_cited_by_us_patents``, ``application.filing_date``,
``inventors``, ``assignees`` with ``assignee_organization`` and
``assignee_type``, ``cpc_current`` with ``cpc_subclass_id`` and
``cpc_group_id``; ``/api/v1/inventor/``, ``/api/v1/assignee/``,
``/api/v1/cpc_subclass/`` and ``/api/v1/patent/us_patent_citation/``), with a
patent team's watch lists as in PatentsView-based monitoring tools.

An open-world service: the patent database is a deterministic draw from the
world seed: the world's companies (the home company and its business partners)
and a few large technology firms as assignees, their engineers and contacts as
inventors, grants on Tuesdays as the USPTO issues them, and citations only to
earlier patents, from which every forward-citation count follows. Stored state
is the watch lists: an employee watches assignees (optionally in one CPC
subclass); checking a watch raises an alert for each patent granted since the
last check; a paused watch is not checked; alerts are reviewed or dismissed
once; an archived watch list is frozen.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, Date, Email, IdOf, SemanticType, Text
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import fixed_example
from compoworld.services.kit.lists import KeptList, ListRecord, require_employee
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "patents",
    title="Patentscope",
    category="patent_data",
    modeled_on="USPTO PatentsView PatentSearch API (patent, inventor, assignee, cpc_subclass, us_patent_citation "
    "endpoints) with assignee watch lists and grant alerts",
    description="Patent search: find granted US patents by text, assignee, inventor, CPC class and grant date, follow "
    "citations both ways, read inventor, assignee and CPC profiles with counts, and keep watch lists of assignees "
    "whose new grants raise alerts to review.",
)

PatentId = Annotated[str, SemanticType("patent.number", kind="ref"), StringConstraints(pattern=r"^(D)?[0-9]{6,8}$")]
InventorId = Annotated[
    str,
    SemanticType("patent.inventor", kind="ref"),
    StringConstraints(pattern=r"^fl:[a-z]{2}_ln:[a-z]{2,20}-[0-9]{1,3}$"),
]
AssigneeId = Annotated[
    str, SemanticType("patent.assignee", kind="ref"), StringConstraints(pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}$")
]
CpcSubclass = Annotated[
    str, SemanticType("patent.cpc_subclass", kind="ref"), StringConstraints(pattern=r"^[A-H][0-9]{2}[A-Z]$")
]
WatchlistId = Annotated[str, IdOf("patents.watchlist")]
WatchId = Annotated[str, IdOf("patents.watch")]
AlertId = Annotated[str, IdOf("patents.alert")]
Search = Annotated[str, StringConstraints(min_length=2, max_length=120)]

PatentType = Literal["utility", "design"]
AssigneeType = Literal["us_company", "foreign_company"]
MAX_WATCHES = 20


def _rows(text: str) -> list[list[str]]:
    return [line.split("|") for line in text.strip().splitlines()]


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split(";"))


_CPC: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    code: (title, _words(groups), _words(topics))
    for code, title, groups, topics in _rows(
        """
G06N|Computing arrangements based on specific computational models|3/08;3/045;20/00|neural network training;model compression;inference scheduling
G06F|Electric digital data processing|16/245;9/50;21/62|query optimisation;workload placement;access control of records
H04L|Transmission of digital information|9/40;67/10;41/0803|encrypted session handover;edge caching;network configuration rollout
G06Q|ICT for administrative, commercial or financial purposes|10/087;30/02;50/28|inventory forecasting;dynamic pricing;logistics routing
G06T|Image data processing or generation|7/70;7/11;5/50|pose estimation;image segmentation;denoising
H01M|Processes or means for the direct conversion of chemical energy into electrical energy|10/0562;4/38;10/44|solid electrolyte layers;anode coatings;battery charge balancing
B25J|Manipulators; chambers provided with manipulation devices|9/16;13/08;15/00|robotic grasp planning;collaborative arm safety;end effector exchange
A61B|Diagnosis; surgery; identification|5/00;5/024;34/10|wearable heart monitoring;remote patient sensing;surgical navigation
"""
    )
}
"""CPC subclass: title, main groups, title topics."""
_TITLE_FORMS = _words(
    "System and method for {};Method for {} using a learned model;Apparatus for {};Techniques for {} in distributed environments;Device and method for {}"
)
_BIG = _rows(
    """
Nortek Dynamics Corp.|US|Austin
Helix Semiconductor Inc.|US|San Jose
Kanto Denki K.K.|JP|Osaka
Brightwater Medical Ltd.|GB|Oxford
Voltaris GmbH|DE|Stuttgart
"""
)
"""Large assignees outside the world: organisation, country, city."""
_FIRST = _words("Hiro;Anna;Marco;Leah;Sanjay;Grace;Pedro;Yuki;David;Olga;Tariq;Emma")
_LAST = _words("Kimura;Fischer;Bianchi;Cohen;Iyer;Walsh;Costa;Sato;Miller;Ivanova;Aziz")


@dataclass(frozen=True, slots=True)
class _Assignee:
    id: str
    organization: str
    country: str
    city: str
    email_domain: str | None


@dataclass(frozen=True, slots=True)
class _Inventor:
    id: str
    name: str
    city: str
    country: str
    assignee_id: str
    email: str | None


@dataclass(frozen=True, slots=True)
class _Patent:
    id: str
    title: str
    type: str
    date: dt.date
    filed: dt.date
    claims: int
    assignee_id: str
    inventor_ids: tuple[str, ...]
    cpc: tuple[str, ...]
    cites: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Db:
    assignees: dict[str, _Assignee]
    inventors: dict[str, _Inventor]
    patents: dict[str, _Patent]
    cited_by: dict[str, tuple[str, ...]]


def _inventor_id(name: str, n: int) -> str:
    first, last = fold(name).split()[0], fold(name).split()[-1]
    return f"fl:{first[:2]}_ln:{last[:20]}-{n % 1000}"


@per_population
def _build(pop: Population, today: dt.date) -> _Db:
    r = random.Random(f"patents:{pop.seed}")
    assignees: dict[str, _Assignee] = {}
    inventors: dict[str, _Inventor] = {}
    firms = [(c.name, c.address.country, c.address.city, c.domain, c) for c in [pop.home, *pop.customers[:5]]]
    for name, country, city, domain, company in firms:
        aid = f"{r.getrandbits(32):08x}-{r.getrandbits(16):04x}"
        assignees[aid] = _Assignee(aid, name, country, city, domain)
        people = pop.staff("Engineering")[:4] if company.home else list(pop.people_at(company)[:2])
        for p in people:
            iid = _inventor_id(p.name, len(inventors))
            inventors[iid] = _Inventor(iid, p.name, p.address.city, p.address.country, aid, p.email)
    for name, country, city in _BIG:
        aid = f"{r.getrandbits(32):08x}-{r.getrandbits(16):04x}"
        assignees[aid] = _Assignee(aid, name, country, city, None)
        for _ in range(3):
            person = f"{r.choice(_FIRST)} {r.choice(_LAST)}"
            iid = _inventor_id(person, len(inventors))
            inventors[iid] = _Inventor(iid, person, city, country, aid, None)
    by_firm: dict[str, list[str]] = {a: [i for i, v in inventors.items() if v.assignee_id == a] for a in assignees}
    patents: dict[str, _Patent] = {}
    start = today - dt.timedelta(days=365 * 10)
    firm_ids = list(assignees)
    weights = [3 if a.email_domain is None else 2 for a in assignees.values()]
    for n in range(170):
        day = start + dt.timedelta(days=int((today - start).days * (n + r.random()) / 170))
        day -= dt.timedelta(days=(day.weekday() - 1) % 7)  # grants issue on Tuesdays
        aid = r.choices(firm_ids, weights)[0]
        subclass = list(_CPC)[(firm_ids.index(aid) + r.randrange(3)) % len(_CPC)]
        _, groups, topics = _CPC[subclass]
        design = n % 11 == 0
        title = (
            f"Ornamental design for a {r.choice(('sensor housing', 'controller', 'charging dock'))}"
            if design
            else r.choice(_TITLE_FORMS).format(r.choice(topics))
        )
        earlier = [p for p in patents.values() if p.date < day]
        same = [p.id for p in earlier if p.cpc[0][:4] == subclass]
        pool = same + [p.id for p in earlier[-30:]]
        cites = sorted(set(r.sample(pool, min(len(pool), r.randint(0, 6)))))
        team = r.sample(by_firm[aid], min(len(by_firm[aid]), r.randint(1, 3)))
        pid = f"D{1_000_000 + 1237 * n}" if design else f"{10_000_000 + 9973 * n}"
        patents[pid] = _Patent(
            pid,
            title,
            "design" if design else "utility",
            day,
            day - dt.timedelta(days=r.randint(500, 1200)),
            1 if design else r.randint(8, 30),
            aid,
            tuple(team),
            (f"{subclass}{r.choice(groups)}",),
            tuple(cites),
        )
    cited: dict[str, list[str]] = {p: [] for p in patents}
    for pt in patents.values():
        for c in pt.cites:
            cited[c].append(pt.id)
    return _Db(assignees, inventors, patents, {k: tuple(v) for k, v in cited.items()})


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population, ctx.today())


# -- result models -----------------------------------------------------------------------------------------


class PatentInventor(BaseModel):
    """An inventor named on a patent."""

    inventor_id: InventorId = Field(description="PatentsView inventor id.")
    name: str = Field(description="Full name.")
    city: str = Field(description="City.")
    country: Country = Field(description="Country.")


class Patent(BaseModel):
    """A granted US patent."""

    patent_id: PatentId = Field(description="Patent number (D… for a design patent).")
    patent_title: str = Field(description="Title.")
    patent_type: PatentType = Field(description="utility or design.")
    patent_date: Date = Field(description="Grant date (a Tuesday).")
    filing_date: Date = Field(description="Application filing date.")
    num_claims: int = Field(description="Number of claims.")
    assignee_id: AssigneeId = Field(description="The owner.")
    assignee_organization: str = Field(description="Its name.")
    inventors: list[PatentInventor] = Field(description="Inventors in order.")
    cpc_subclass_id: CpcSubclass = Field(description="Main CPC subclass.")
    cpc_group_id: str = Field(description="Main CPC group (G06N3/08).")
    cited_patent_ids: list[PatentId] = Field(description="US patents it cites.")
    num_times_cited_by_us_patents: int = Field(description="US patents citing it.")


class Inventor(BaseModel):
    """An inventor's profile."""

    inventor_id: InventorId = Field(description="PatentsView inventor id.")
    name: str = Field(description="Full name.")
    city: str = Field(description="Last known city.")
    country: Country = Field(description="Last known country.")
    assignee_id: AssigneeId = Field(description="Last known assignee.")
    assignee_organization: str = Field(description="Its name.")
    num_patents: int = Field(description="Patents naming them.")
    first_seen_date: Date | None = Field(description="First grant.")
    last_seen_date: Date | None = Field(description="Latest grant.")
    email: Email | None = Field(description="Contact e-mail when the inventor is someone the company knows.")


class Assignee(BaseModel):
    """An assignee's profile."""

    assignee_id: AssigneeId = Field(description="PatentsView assignee id.")
    organization: str = Field(description="Organisation name.")
    assignee_type: AssigneeType = Field(description="us_company or foreign_company.")
    country: Country = Field(description="Country.")
    city: str = Field(description="City.")
    num_patents: int = Field(description="Patents granted to it.")
    num_inventors: int = Field(description="Distinct inventors on those patents.")
    top_cpc_subclasses: list[CpcSubclass] = Field(description="Its most frequent CPC subclasses.")
    last_grant_date: Date | None = Field(description="Its latest grant.")


class CpcClass(BaseModel):
    """A CPC subclass."""

    cpc_subclass_id: CpcSubclass = Field(description="Subclass (G06N).")
    title: str = Field(description="Its title.")
    num_patents: int = Field(description="Patents in it.")


class YearCount(BaseModel):
    """Patents granted in one year."""

    year: int = Field(description="Grant year.")
    count: int = Field(description="Patents granted.")


def _patent(db: _Db, p: _Patent) -> Patent:
    return Patent(
        patent_id=p.id,
        patent_title=p.title,
        patent_type=p.type,
        patent_date=p.date,
        filing_date=p.filed,
        num_claims=p.claims,
        assignee_id=p.assignee_id,
        assignee_organization=db.assignees[p.assignee_id].organization,
        inventors=[
            PatentInventor(
                inventor_id=i, name=db.inventors[i].name, city=db.inventors[i].city, country=db.inventors[i].country
            )
            for i in p.inventor_ids
        ],
        cpc_subclass_id=p.cpc[0][:4],
        cpc_group_id=p.cpc[0],
        cited_patent_ids=list(p.cites),
        num_times_cited_by_us_patents=len(db.cited_by[p.id]),
    )


def _inventor(db: _Db, v: _Inventor) -> Inventor:
    dates = sorted(p.date for p in db.patents.values() if v.id in p.inventor_ids)
    return Inventor(
        inventor_id=v.id,
        name=v.name,
        city=v.city,
        country=v.country,
        assignee_id=v.assignee_id,
        assignee_organization=db.assignees[v.assignee_id].organization,
        num_patents=len(dates),
        first_seen_date=dates[0] if dates else None,
        last_seen_date=dates[-1] if dates else None,
        email=v.email,
    )


def _assignee(db: _Db, a: _Assignee) -> Assignee:
    mine = [p for p in db.patents.values() if p.assignee_id == a.id]
    cpcs = Counter(p.cpc[0][:4] for p in mine)
    return Assignee(
        assignee_id=a.id,
        organization=a.organization,
        assignee_type="us_company" if a.country == "US" else "foreign_company",
        country=a.country,
        city=a.city,
        num_patents=len(mine),
        num_inventors=len({i for p in mine for i in p.inventor_ids}),
        top_cpc_subclasses=[c for c, _ in sorted(cpcs.items(), key=lambda kv: (-kv[1], kv[0]))[:3]],
        last_grant_date=max((p.date for p in mine), default=None),
    )


def _get_patent(ctx: Ctx, patent_id: str) -> _Patent:
    p = _db(ctx).patents.get(patent_id)
    if p is None:
        raise NotFound(f"no granted patent {patent_id}", field="patent_id", hint="search with patents__search_patents")
    return p


def _get_assignee(ctx: Ctx, assignee_id: str, field: str = "assignee_id") -> _Assignee:
    a = _db(ctx).assignees.get(assignee_id)
    if a is None:
        raise NotFound(f"no assignee {assignee_id}", field=field, hint="find it with patents__search_assignees")
    return a


def _check_cpc(code: str, field: str = "cpc_subclass") -> None:
    if code not in _CPC:
        raise NotFound(
            f"no CPC subclass {code} in the database", field=field, hint="list them with patents__list_cpc_classes"
        )


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search granted patents", open_world=True, example=fixed_example(q="method"))
def search_patents(
    ctx: Ctx,
    q: Search | None = None,
    assignee_id: AssigneeId | None = None,
    inventor_id: InventorId | None = None,
    cpc_subclass: CpcSubclass | None = None,
    granted_from: Date | None = None,
    granted_to: Date | None = None,
    patent_type: PatentType | None = None,
    sort: Literal["patent_date", "num_times_cited_by_us_patents"] = "patent_date",
    limit: Annotated[int, Field(ge=1, le=100)] = 25,
) -> list[Patent]:
    """Search granted patents by title words and filters (/patent/?q=), newest or most cited first.

    Args:
        q: Words that must all appear in the title.
        assignee_id: Only this assignee's patents.
        inventor_id: Only patents naming this inventor.
        cpc_subclass: Only patents in this CPC subclass (G06N).
        granted_from: Granted on or after this date.
        granted_to: Granted on or before this date.
        patent_type: utility or design.
        sort: patent_date (default) or num_times_cited_by_us_patents, both descending.
        limit: Most results.
    """
    if granted_from is not None and granted_to is not None and granted_to < granted_from:
        raise RuleViolation("granted_to is before granted_from", field="granted_to", hint="swap the dates")
    if assignee_id is not None:
        _get_assignee(ctx, assignee_id)
    if cpc_subclass is not None:
        _check_cpc(cpc_subclass)
    db = _db(ctx)
    words = fold(q or "").split()
    found = [
        p
        for p in db.patents.values()
        if all(w in fold(p.title).split() for w in words)
        and (assignee_id in (None, p.assignee_id))
        and (inventor_id is None or inventor_id in p.inventor_ids)
        and (cpc_subclass in (None, p.cpc[0][:4]))
        and (granted_from is None or p.date >= granted_from)
        and (granted_to is None or p.date <= granted_to)
        and (patent_type in (None, p.type))
    ]
    if sort == "patent_date":
        found.sort(key=lambda p: (p.date, p.id), reverse=True)
    else:
        found.sort(key=lambda p: (-len(db.cited_by[p.id]), p.id))
    return [_patent(db, p) for p in found[:limit]]


def _example_patent(ctx: Ctx) -> dict[str, Any]:
    db = _db(ctx)
    return {"patent_id": max(db.patents, key=lambda p: (len(db.cited_by[p]), len(db.patents[p].cites)))}


@service.tool(intent="get the patent", open_world=True, example=_example_patent)
def get_patent(ctx: Ctx, patent_id: PatentId) -> Patent:
    """Get a granted patent: title, dates, claims, assignee, inventors, CPC and citations.

    Args:
        patent_id: The patent number (D… for a design).
    """
    return _patent(_db(ctx), _get_patent(ctx, patent_id))


@service.tool(intent="list the patents a patent cites", open_world=True, example=_example_patent)
def list_citations(ctx: Ctx, patent_id: PatentId) -> list[Patent]:
    """List the US patents a patent cites (/patent/us_patent_citation/), oldest first.

    Args:
        patent_id: The citing patent.
    """
    db = _db(ctx)
    return [
        _patent(db, db.patents[c]) for c in sorted(_get_patent(ctx, patent_id).cites, key=lambda c: db.patents[c].date)
    ]


@service.tool(intent="list the patents citing a patent", open_world=True, example=_example_patent)
def list_cited_by(ctx: Ctx, patent_id: PatentId) -> list[Patent]:
    """List the US patents that cite a patent (forward citations), newest first.

    Args:
        patent_id: The cited patent.
    """
    db = _db(ctx)
    _get_patent(ctx, patent_id)
    return [
        _patent(db, db.patents[c])
        for c in sorted(db.cited_by[patent_id], key=lambda c: db.patents[c].date, reverse=True)
    ]


@service.tool(intent="search inventors", open_world=True, example=fixed_example(name="Kimura"))
def search_inventors(ctx: Ctx, name: Search | None = None, country: Country | None = None) -> list[Inventor]:
    """Search inventors by name and country (/inventor/), most patents first.

    Args:
        name: Words of the name.
        country: Only inventors in this country.
    """
    db = _db(ctx)
    words = fold(name or "").split()
    found = [
        _inventor(db, v)
        for v in db.inventors.values()
        if all(w in fold(v.name).split() for w in words) and country in (None, v.country)
    ]
    return sorted(found, key=lambda v: (-v.num_patents, v.inventor_id))


def _example_inventor(ctx: Ctx) -> dict[str, Any]:
    return {"inventor_id": next(iter(_db(ctx).inventors))}


@service.tool(intent="get the inventor", open_world=True, example=_example_inventor)
def get_inventor(ctx: Ctx, inventor_id: InventorId) -> Inventor:
    """Get an inventor: place, assignee, number of patents and first and latest grant.

    Args:
        inventor_id: The PatentsView inventor id.
    """
    v = _db(ctx).inventors.get(inventor_id)
    if v is None:
        raise NotFound(f"no inventor {inventor_id}", field="inventor_id", hint="search with patents__search_inventors")
    return _inventor(_db(ctx), v)


@service.tool(intent="search patent assignees", open_world=True)
def search_assignees(ctx: Ctx, organization: Search | None = None, country: Country | None = None) -> list[Assignee]:
    """Search assignees by organisation name and country (/assignee/), most patents first.

    Args:
        organization: Words of the organisation's name.
        country: Only assignees in this country.
    """
    db = _db(ctx)
    words = fold(organization or "").split()
    found = [
        _assignee(db, a)
        for a in db.assignees.values()
        if all(w in fold(a.organization).split() for w in words) and country in (None, a.country)
    ]
    return sorted(found, key=lambda a: (-a.num_patents, a.assignee_id))


def _example_assignee(ctx: Ctx) -> dict[str, Any]:
    return {"assignee_id": next(iter(_db(ctx).assignees))}


@service.tool(intent="get the assignee", open_world=True, example=_example_assignee)
def get_assignee(ctx: Ctx, assignee_id: AssigneeId) -> Assignee:
    """Get an assignee: type, place, patents, inventors, top CPC subclasses and latest grant.

    Args:
        assignee_id: The PatentsView assignee id.
    """
    return _assignee(_db(ctx), _get_assignee(ctx, assignee_id))


@service.tool(intent="list CPC classes", open_world=True)
def list_cpc_classes(
    ctx: Ctx, section: Annotated[str, StringConstraints(pattern=r"^[A-H]$")] | None = None
) -> list[CpcClass]:
    """List the CPC subclasses with their titles and patent counts (/cpc_subclass/).

    Args:
        section: Only subclasses of this CPC section letter (G: physics, H: electricity …).
    """
    patents = _db(ctx).patents.values()
    return [
        CpcClass(cpc_subclass_id=c, title=t, num_patents=sum(p.cpc[0][:4] == c for p in patents))
        for c, (t, _, _) in sorted(_CPC.items())
        if section is None or c[0] == section
    ]


@service.tool(intent="count patents by grant year", open_world=True, example=_example_assignee)
def count_patents_by_year(
    ctx: Ctx, assignee_id: AssigneeId | None = None, cpc_subclass: CpcSubclass | None = None
) -> list[YearCount]:
    """Count granted patents per year, for an assignee and/or a CPC subclass, oldest first.

    Args:
        assignee_id: Only this assignee's patents.
        cpc_subclass: Only this CPC subclass.
    """
    if assignee_id is not None:
        _get_assignee(ctx, assignee_id)
    if cpc_subclass is not None:
        _check_cpc(cpc_subclass)
    found = [
        p
        for p in _db(ctx).patents.values()
        if assignee_id in (None, p.assignee_id) and cpc_subclass in (None, p.cpc[0][:4])
    ]
    counts = Counter(p.date.year for p in found)
    return [YearCount(year=y, count=n) for y, n in sorted(counts.items())]


# -- watch lists -------------------------------------------------------------------------------------------


class Watchlist(ListRecord):
    """A patent team's list of watched assignees."""

    id: WatchlistId


class Watch(Timestamped):
    """An assignee on a watch list."""

    id: WatchId
    watchlist_id: WatchlistId
    """The list."""
    assignee_id: AssigneeId
    """The watched assignee."""
    organization: str
    """Its name."""
    cpc_subclass: CpcSubclass | None = None
    """Only grants in this CPC subclass."""
    status: Literal["active", "paused"] = "active"
    """active, or paused (not checked)."""
    last_checked_on: Date
    """Grants after this date raise alerts at the next check."""


class Alert(Timestamped):
    """A new grant of a watched assignee."""

    id: AlertId
    watch_id: WatchId
    """The watch that raised it."""
    patent_id: PatentId
    """The new patent."""
    patent_title: str
    """Its title."""
    patent_date: Date
    """Its grant date."""
    status: Literal["new", "reviewed", "dismissed"] = "new"
    """new, reviewed or dismissed."""
    reviewed_by: Email | None = None
    """Who reviewed it."""
    note: Text = ""
    """The review note (relevance, follow-up)."""


_LISTS = KeptList(Watchlist, noun="watch list", field="watchlist_id", frozen_hint="create a new watch list")
_open_list = _LISTS.open


watchlists = _LISTS.declare(
    service,
    name="watchlist",
    plural="watchlists",
    prefix="pwl",
    title="watch list",
    children=[(Watch, "watchlist_id"), (Alert, "watch_id")],
)
watches = service.resource(
    Watch,
    name="watch",
    plural="watches",
    prefix="pwa",
    create=False,
    filters=("watchlist_id", "assignee_id", "status"),
    search=("organization",),
    title="assignee watch",
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the assignee watch"),
        "resume": Transition("status", ("paused",), "active", "resume the assignee watch"),
    },
    guard_update=_LISTS.entry_guard("watchlist_id", "watch_id"),
    guard_delete=_LISTS.entry_guard("watchlist_id", "watch_id"),
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="pal",
    create=False,
    delete=False,
    filters=("watch_id", "patent_id", "status"),
    search=("patent_title", "note"),
    title="grant alert",
    transitions={"dismiss": Transition("status", ("new",), "dismissed", "dismiss the grant alert")},
)


def _example_watch(ctx: Ctx) -> dict[str, Any] | None:
    wl = ctx.first(Watchlist, status="active")
    if wl is None:
        return None
    have = {w.assignee_id for w in ctx.where(Watch, watchlist_id=wl.id)}
    free = next(a for a in _db(ctx).assignees if a not in have)
    return {"watchlist_id": wl.id, "assignee_id": free}


@service.tool(intent="watch an assignee's new patents", write=True, example=_example_watch)
def add_watch(
    ctx: Ctx, watchlist_id: WatchlistId, assignee_id: AssigneeId, cpc_subclass: CpcSubclass | None = None
) -> Watch:
    """Watch an assignee on a list (optionally one CPC subclass); grants from today on raise alerts.

    Args:
        watchlist_id: The watch list (active).
        assignee_id: The assignee to watch (once per list).
        cpc_subclass: Only grants in this CPC subclass.
    """
    wl = _open_list(ctx, watchlist_id)
    a = _get_assignee(ctx, assignee_id)
    if cpc_subclass is not None:
        _check_cpc(cpc_subclass)
    other = ctx.first(Watch, watchlist_id=wl.id, assignee_id=a.id)
    if other is not None:
        raise Conflict(
            f"{a.organization} is already watched as {other.id}",
            field="assignee_id",
            hint="resume or change that watch",
        )
    if len(ctx.where(Watch, watchlist_id=wl.id)) >= MAX_WATCHES:
        raise RuleViolation(
            f"watch list {wl.id} already watches {MAX_WATCHES} assignees",
            field="watchlist_id",
            hint="remove a watch first",
        )
    return ctx.create(
        Watch,
        watchlist_id=wl.id,
        assignee_id=a.id,
        organization=a.organization,
        cpc_subclass=cpc_subclass,
        last_checked_on=ctx.today(),
    )


def _example_check(ctx: Ctx) -> dict[str, Any] | None:
    for w in ctx.where(Watch, status="active"):
        if ctx.get(Watchlist, w.watchlist_id).status == "active":
            return {"watch_id": w.id}
    return None


@service.tool(intent="check the watch for new patents", write=True, example=_example_check)
def check_watch(ctx: Ctx, watch_id: WatchId) -> list[Alert]:
    """Raise an alert for each patent the watched assignee was granted since the last check; returns them.

    Args:
        watch_id: The watch (active, on an active list).
    """
    w = ctx.get(Watch, watch_id, field="watch_id")
    _open_list(ctx, w.watchlist_id, "watch_id")
    if w.status != "active":
        raise RuleViolation(f"watch {w.id} is paused", field="watch_id", hint="resume it with patents__resume_watch")
    db = _db(ctx)
    new = sorted(
        (
            p
            for p in db.patents.values()
            if p.assignee_id == w.assignee_id and p.date > w.last_checked_on and w.cpc_subclass in (None, p.cpc[0][:4])
        ),
        key=lambda p: (p.date, p.id),
    )
    out = [
        ctx.create(Alert, watch_id=w.id, patent_id=p.id, patent_title=p.title, patent_date=p.date)
        for p in new
        if ctx.first(Alert, watch_id=w.id, patent_id=p.id) is None
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
            "note": "Close to our claims; send to counsel.",
        }
    )


@service.tool(intent="review the grant alert", write=True, example=_example_review)
def review_alert(ctx: Ctx, alert_id: AlertId, reviewed_by: Email, note: Text) -> Alert:
    """Record the review of a new alert: who read the patent and what follows.

    Args:
        alert_id: The alert (new).
        reviewed_by: The employee who reviewed it.
        note: Relevance and follow-up.
    """
    a = ctx.get(Alert, alert_id, field="alert_id")
    if a.status != "new":
        raise RuleViolation(f"alert {a.id} is already {a.status}", field="alert_id", hint="pick a new alert")
    require_employee(ctx, reviewed_by, field="reviewed_by", hint="a colleague reviews it")
    if not note.strip():
        raise RuleViolation("a review needs a note", field="note", hint="say whether the patent matters and why")
    return ctx.update(a, status="reviewed", reviewed_by=reviewed_by, note=note.strip())


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """The patent team's watch lists on partners and large firms, with alerts new, reviewed and dismissed."""
    pop = s.population
    today = s.now.date()
    db = _build(pop, today)
    team = pop.staff("Engineering", fallback=3)
    firms = list(db.assignees.values())
    plans = (
        ("Competitor grants", "active", 200, firms[1:4] + firms[-2:]),
        ("2023 freedom-to-operate study", "archived", 900, firms[4:6]),
    )
    for k, (name, status, days, watched) in enumerate(plans):
        wl = s.create(
            Watchlist,
            name=name,
            owner_email=team[k % len(team)].email,
            status=status,
            description=f"Grants we follow: {name.lower()}.",
            created_at=s.ago(days=days),
            updated_at=s.ago(days=days // 4),
        )
        for j, a in enumerate(watched):
            checked = today - dt.timedelta(days=120 if status == "active" else days // 2)
            w = s.create(
                Watch,
                watchlist_id=wl.id,
                assignee_id=a.id,
                organization=a.organization,
                status="paused" if j == 3 else "active",
                last_checked_on=checked,
                cpc_subclass=None,
                created_at=s.ago(days=days),
                updated_at=s.ago(days=120),
            )
            past = [
                p
                for p in db.patents.values()
                if p.assignee_id == a.id and checked - dt.timedelta(days=365) < p.date <= checked
            ]
            for i, p in enumerate(past[:3]):
                state = ("reviewed", "dismissed", "new")[i % 3]
                s.create(
                    Alert,
                    watch_id=w.id,
                    patent_id=p.id,
                    patent_title=p.title,
                    patent_date=p.date,
                    status=state,
                    reviewed_by=team[0].email if state == "reviewed" else None,
                    note="Not in our field." if state == "reviewed" else "",
                    created_at=s.ago(days=125),
                    updated_at=s.ago(days=121),
                )
