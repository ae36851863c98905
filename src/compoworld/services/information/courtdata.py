"""Docketwise Court Data: federal dockets and their entries, appellate opinions, judges and courts, with alerts.

Modeled on the CourtListener REST API v4 (``/courts/`` with ``id`` such as
``ca9`` or ``nysd`` and ``jurisdiction`` F / FD / S; ``/dockets/`` with
``docket_number``, ``case_name``, ``date_filed``, ``date_terminated``,
``nature_of_suit``, ``cause``, ``assigned_to``; ``/docket-entries/`` with
``entry_number``, ``date_filed`` and ``description``; ``/clusters/`` and
``/opinions/`` with ``precedential_status`` Published / Unpublished,
``citations`` and ``opinions_cited``; ``/people/`` with positions; the
``/search/`` endpoint), and its alerts: ``/docket-alerts/`` (subscribe to a
RECAP docket, unsubscribe) and search ``/alerts/`` with a ``query`` and a
``rate`` of ``rt``, ``dly``, ``wly``, ``mly`` or ``off``.

An open-world service drawn from the world seed: federal and two state courts,
their judges, civil dockets whose parties are the world's companies (the home
company among them) and outside firms, with entries from complaint to
dismissal, and appellate opinions that cite only earlier opinions.
Stored state is the alerts: a staff member subscribes to a docket once (at most
five active docket alerts each, as for a free account); checking an alert
returns the entries filed since its last check; an unsubscribed one is not
checked. A search alert reports opinions decided since its last run (not when ``off``).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, SemanticType, Title
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "courtdata",
    title="Docketwise Court Data",
    category="court_records",
    modeled_on="CourtListener REST API v4 (courts, dockets, docket-entries, clusters/opinions, people, search) "
    "with docket alerts and search alerts",
    description="Court records: search federal civil dockets by party, court and nature of suit and read their "
    "entries, search appellate opinions and follow their citations, look up judges and courts, and keep docket "
    "alerts and search alerts that report new filings and new opinions.",
)

CourtId = Annotated[str, SemanticType("court.id", kind="ref"), StringConstraints(pattern=r"^[a-z0-9]{2,10}$")]
DocketId = Annotated[int, SemanticType("court.docket", kind="ref"), Field(ge=1, le=99_999_999)]
OpinionId = Annotated[int, SemanticType("court.opinion", kind="ref"), Field(ge=1, le=99_999_999)]
JudgeId = Annotated[int, SemanticType("court.judge", kind="ref"), Field(ge=1, le=999_999)]
DocketAlertId = Annotated[str, IdOf("courtdata.docket_alert")]
SearchAlertId = Annotated[str, IdOf("courtdata.search_alert")]
Query = Annotated[str, StringConstraints(min_length=2, max_length=200)]
Jurisdiction = Literal["F", "FD", "S"]
Rate = Literal["rt", "dly", "wly", "mly", "off"]
Precedential = Literal["Published", "Unpublished"]
MAX_DOCKET_ALERTS = 5

_COURTS: dict[str, tuple[str, str, str]] = {
    "scotus": ("Supreme Court of the United States", "F", "Washington"),
    "ca2": ("Court of Appeals for the Second Circuit", "F", "New York"),
    "ca9": ("Court of Appeals for the Ninth Circuit", "F", "San Francisco"),
    "ca5": ("Court of Appeals for the Fifth Circuit", "F", "New Orleans"),
    "nysd": ("District Court, S.D. New York", "FD", "New York"),
    "cand": ("District Court, N.D. California", "FD", "San Francisco"),
    "txsd": ("District Court, S.D. Texas", "FD", "Houston"),
    "dde": ("District Court, D. Delaware", "FD", "Wilmington"),
    "cal": ("California Supreme Court", "S", "San Francisco"),
    "ny": ("New York Court of Appeals", "S", "Albany"),
}
_CIRCUIT = {"nysd": "ca2", "dde": "ca2", "cand": "ca9", "txsd": "ca5"}
_SUITS = (
    ("190 Contract: Other", "28:1332 Diversity-Breach of Contract", "breach of contract"),
    ("830 Patent", "35:271 Patent Infringement", "patent infringement"),
    ("840 Trademark", "15:1114 Trademark Infringement", "trademark infringement"),
    ("820 Copyright", "17:501 Copyright Infringement", "copyright infringement"),
    ("442 Civil Rights: Jobs", "42:2000e Job Discrimination (Employment)", "employment discrimination"),
    ("890 Other Statutory Actions", "15:78 Securities Exchange Act", "securities disclosure"),
)
_ENTRIES = (
    "COMPLAINT against {d}. Filing fee $405. Filed by {p}.",
    "SUMMONS Issued as to {d}.",
    "NOTICE of Appearance by counsel on behalf of {d}.",
    "ANSWER to Complaint by {d}.",
    "MOTION to Dismiss for Failure to State a Claim by {d}.",
    "MEMORANDUM in Opposition to Motion to Dismiss filed by {p}.",
    "ORDER denying Motion to Dismiss. Signed by Judge {j}.",
    "SCHEDULING ORDER: discovery due in 180 days. Signed by Judge {j}.",
    "MOTION for Summary Judgment by {p}.",
    "STIPULATION of Dismissal with prejudice by {p} and {d}.",
)


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split(";"))


_OUTSIDE = _words(
    "Halvorsen Logistics LLC;Brightline Capital Partners;Meridian Health Systems;Oakridge Textiles Inc.;Quantix Software Corp.;Redwood Mutual Insurance Co.;Sable Energy Holdings;Tamsin Foods Ltd."
)
_FIRST = _words("Ruth;Sonia;Amy;Neil;William;Kim;Jed;Lucy;Andrew;Mary;Jose;Ketanji;Paul;Denise;Victor;Lorna")
_LAST = _words(
    "Hale;Ortega;Koh;Chen;Alsup;Wardlaw;Rakoff;Furman;Stark;Gilstrap;Haynes;Liman;Nguyen;Park;Wood;Schofield"
)


@dataclass(frozen=True, slots=True)
class _Judge:
    id: int
    name: str
    court_id: str
    appointed: dt.date
    appointer: str


@dataclass(frozen=True, slots=True)
class _Docket:
    id: int
    number: str
    court_id: str
    case_name: str
    plaintiff: str
    defendant: str
    filed: dt.date
    terminated: dt.date | None
    suit: int
    judge_id: int
    entries: tuple[tuple[int, dt.date, str], ...]


@dataclass(frozen=True, slots=True)
class _Opinion:
    id: int
    case_name: str
    court_id: str
    filed: dt.date
    status: str
    citation: str
    judge_ids: tuple[int, ...]
    cites: tuple[int, ...]
    summary: str
    docket_id: int | None


@dataclass(frozen=True, slots=True)
class _Db:
    judges: dict[int, _Judge]
    dockets: dict[int, _Docket]
    opinions: dict[int, _Opinion]
    cited_by: dict[int, tuple[int, ...]]


def _weekday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=max(0, day.weekday() - 4))


@per_population
def _build(pop: Population, today: dt.date) -> _Db:
    r = random.Random(f"courtdata:{pop.seed}")
    judges: dict[int, _Judge] = {}
    for court in _COURTS:
        for _ in range(3 if court != "scotus" else 2):
            jid = 1000 + 17 * len(judges)
            name = f"{r.choice(_FIRST)} {r.choice(_LAST)}"
            appointed = today - dt.timedelta(days=r.randint(3 * 365, 25 * 365))
            judges[jid] = _Judge(jid, name, court, appointed, r.choice(("Obama", "Trump", "Biden", "Bush", "Clinton")))
    by_court = {c: [j for j in judges.values() if j.court_id == c] for c in _COURTS}
    world = [c.name for c in [pop.home, *pop.customers[:6]]]
    dockets: dict[int, _Docket] = {}
    for n in range(36):
        court = list(_CIRCUIT)[n % 4]
        filed = _weekday(today - dt.timedelta(days=r.randint(20, 4 * 365)))
        a = world[n % len(world)] if n % 3 != 2 else r.choice(_OUTSIDE)
        b = r.choice([x for x in world + list(_OUTSIDE) if x != a])
        p, d = (a, b) if r.random() < 0.5 else (b, a)
        suit = r.randrange(len(_SUITS))
        judge = r.choice(by_court[court])
        age = (today - filed).days
        count = min(len(_ENTRIES), 2 + age // 60)
        done = count == len(_ENTRIES) and r.random() < 0.7
        count = count if done else min(count, len(_ENTRIES) - 1)
        entries = []
        day = filed
        for k in range(count):
            if k:
                day = min(today, _weekday(day + dt.timedelta(days=r.randint(5, 60))))
            text = _ENTRIES[k]
            entries.append((k + 1, day, text.format(p=p, d=d, j=judge.name.split()[-1])))
        did = 6_800_000 + 4_111 * n
        year = filed.year % 100
        dockets[did] = _Docket(
            did,
            f"{1 + n % 3}:{year:02d}-cv-{1000 + 37 * n:05d}",
            court,
            f"{p} v. {d}",
            p,
            d,
            filed,
            entries[-1][1] if done else None,
            suit,
            judge.id,
            tuple(entries),
        )
    opinions: dict[int, _Opinion] = {}
    ended = [d for d in dockets.values() if d.terminated is not None]
    for n in range(60):
        court = ("ca2", "ca9", "ca5", "cal", "ny", "scotus")[n % 6 if n % 10 else 5]
        filed = _weekday(today - dt.timedelta(days=int(15 * 365 * (60 - n - r.random()) / 60)))
        src = ended[n % len(ended)] if ended and n % 5 == 0 and court in _CIRCUIT.values() else None
        if src is not None:
            filed = min(today, _weekday((src.terminated or filed) + dt.timedelta(days=r.randint(120, 400))))
        name = src.case_name if src else f"{r.choice(_OUTSIDE)} v. {r.choice(_OUTSIDE + tuple(world))}"
        topic = _SUITS[src.suit if src else r.randrange(len(_SUITS))][2]
        earlier = [o.id for o in opinions.values() if o.filed < filed]
        cites = tuple(sorted(r.sample(earlier, min(len(earlier), r.randint(0, 5)))))
        oid = 9_100_000 + 977 * n
        vol = 1 + (filed.year - 2000) * 4 + filed.month // 4
        reporter = {"scotus": "U.S.", "cal": "Cal. 5th", "ny": "N.Y.3d"}.get(court, "F.4th")
        panel = tuple(j.id for j in r.sample(by_court[court], min(3, len(by_court[court]))))
        opinions[oid] = _Opinion(
            oid,
            name,
            court,
            filed,
            "Published" if r.random() < 0.7 else "Unpublished",
            f"{vol} {reporter} {r.randint(100, 1400)}",
            panel,
            cites,
            f"Appeal on {topic}; the court {r.choice(('affirmed', 'reversed', 'vacated and remanded'))}.",
            src.id if src else None,
        )
    opinions = dict(sorted(opinions.items(), key=lambda kv: kv[1].filed))
    cited: dict[int, list[int]] = {o: [] for o in opinions}
    for o in opinions.values():
        for c in o.cites:
            cited[c].append(o.id)
    return _Db(judges, dockets, opinions, {k: tuple(v) for k, v in cited.items()})


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population, ctx.today())


# -- result models ----------------------------------------------------------------------------------------


class Court(BaseModel):
    """A court."""

    id: CourtId = Field(description="CourtListener court id (ca9, nysd).")
    full_name: str = Field(description="Full name.")
    jurisdiction: Jurisdiction = Field(description="F federal appellate, FD federal district, S state supreme.")
    city: str = Field(description="Seat.")
    appeals_to: CourtId | None = Field(description="The court hearing its appeals.")


class Judge(BaseModel):
    """A judge (/people/)."""

    id: JudgeId = Field(description="Person id.")
    name: str = Field(description="Full name.")
    court_id: CourtId = Field(description="Court of the current position.")
    date_start: Date = Field(description="When the position began.")
    appointer: str = Field(description="Appointing president.")
    dockets_assigned: int = Field(description="Dockets assigned to the judge in the database.")
    opinions_joined: int = Field(description="Opinions the judge sat on.")


class Docket(BaseModel):
    """A civil docket (/dockets/)."""

    id: DocketId = Field(description="Docket id.")
    docket_number: str = Field(description="Docket number (1:24-cv-01234).")
    court_id: CourtId = Field(description="Court.")
    case_name: str = Field(description="Plaintiff v. Defendant.")
    plaintiff: str = Field(description="First-named plaintiff.")
    defendant: str = Field(description="First-named defendant.")
    date_filed: Date = Field(description="Filing date.")
    date_terminated: Date | None = Field(description="Termination date; null while open.")
    nature_of_suit: str = Field(description="Nature of suit code and title.")
    cause: str = Field(description="Statutory cause.")
    assigned_to_id: JudgeId = Field(description="Assigned judge.")
    assigned_to_str: str = Field(description="Judge's name.")
    entry_count: int = Field(description="Docket entries so far.")
    date_last_filing: Date = Field(description="Date of the latest entry.")


class DocketEntry(BaseModel):
    """A docket entry (/docket-entries/)."""

    docket_id: DocketId = Field(description="Docket.")
    entry_number: int = Field(description="Entry number.")
    date_filed: Date = Field(description="Filing date.")
    description: str = Field(description="Clerk's text.")


class Opinion(BaseModel):
    """An opinion with its cluster (/clusters/, /opinions/)."""

    id: OpinionId = Field(description="Opinion cluster id.")
    case_name: str = Field(description="Case name.")
    court_id: CourtId = Field(description="Court.")
    date_filed: Date = Field(description="Decision date.")
    precedential_status: Precedential = Field(description="Published or Unpublished.")
    citation: str = Field(description="Reporter citation.")
    judges: list[str] = Field(description="Names of the panel.")
    opinions_cited: list[OpinionId] = Field(description="Earlier opinions it cites.")
    citation_count: int = Field(description="Later opinions citing it.")
    summary: str = Field(description="Syllabus line.")
    lower_court_docket_id: DocketId | None = Field(description="The district docket appealed from, if in the database.")


def _court(c: str) -> Court:
    name, juris, city = _COURTS[c]
    up = _CIRCUIT.get(c) or ("scotus" if juris == "F" and c != "scotus" else None)
    return Court(id=c, full_name=name, jurisdiction=juris, city=city, appeals_to=up)


def _docket(db: _Db, d: _Docket) -> Docket:
    suit, cause, _ = _SUITS[d.suit]
    return Docket(
        id=d.id,
        docket_number=d.number,
        court_id=d.court_id,
        case_name=d.case_name,
        plaintiff=d.plaintiff,
        defendant=d.defendant,
        date_filed=d.filed,
        date_terminated=d.terminated,
        nature_of_suit=suit,
        cause=cause,
        assigned_to_id=d.judge_id,
        assigned_to_str=db.judges[d.judge_id].name,
        entry_count=len(d.entries),
        date_last_filing=d.entries[-1][1],
    )


def _opinion(db: _Db, o: _Opinion) -> Opinion:
    return Opinion(
        id=o.id,
        case_name=o.case_name,
        court_id=o.court_id,
        date_filed=o.filed,
        precedential_status=o.status,
        citation=o.citation,
        judges=[db.judges[j].name for j in o.judge_ids],
        opinions_cited=list(o.cites),
        citation_count=len(db.cited_by[o.id]),
        summary=o.summary,
        lower_court_docket_id=o.docket_id,
    )


def _judge(db: _Db, j: _Judge) -> Judge:
    return Judge(
        id=j.id,
        name=j.name,
        court_id=j.court_id,
        date_start=j.appointed,
        appointer=j.appointer,
        dockets_assigned=sum(d.judge_id == j.id for d in db.dockets.values()),
        opinions_joined=sum(j.id in o.judge_ids for o in db.opinions.values()),
    )


def _check_court(court_id: str, field: str = "court_id") -> None:
    if court_id not in _COURTS:
        raise NotFound(f"no court {court_id!r}", field=field, hint="list courts with courtdata__list_courts")


def _get_docket(ctx: Ctx, docket_id: int, field: str = "docket_id") -> _Docket:
    d = _db(ctx).dockets.get(docket_id)
    if d is None:
        raise NotFound(f"no docket {docket_id}", field=field, hint="find it with courtdata__search_dockets")
    return d


def _get_opinion(ctx: Ctx, opinion_id: int) -> _Opinion:
    o = _db(ctx).opinions.get(opinion_id)
    if o is None:
        raise NotFound(f"no opinion {opinion_id}", field="opinion_id", hint="find it with courtdata__search_opinions")
    return o


def _span(after: dt.date | None, before: dt.date | None) -> None:
    if after is not None and before is not None and before < after:
        raise RuleViolation("filed_before is earlier than filed_after", field="filed_before", hint="swap the dates")


def _matches(words: list[str], text: str) -> bool:
    have = fold(text).split()
    return all(w in have for w in words)


# -- open-world tools -------------------------------------------------------------------------------------


@service.tool(intent="list the courts", open_world=True)
def list_courts(ctx: Ctx, jurisdiction: Jurisdiction | None = None) -> list[Court]:
    """List the courts (/courts/), optionally of one jurisdiction.

    Args:
        jurisdiction: F (federal appellate), FD (federal district) or S (state supreme).
    """
    return [_court(c) for c in _COURTS if jurisdiction in (None, _COURTS[c][1])]


@service.tool(intent="search dockets", open_world=True, example=fixed_example(party="Inc"))
def search_dockets(
    ctx: Ctx,
    party: Query | None = None,
    court_id: CourtId | None = None,
    nature_of_suit: Query | None = None,
    filed_after: Date | None = None,
    filed_before: Date | None = None,
    status: Literal["open", "terminated"] | None = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 25,
) -> list[Docket]:
    """Search civil dockets (/search/?type=r) by party name, court, nature of suit, dates and status, newest first.

    Args:
        party: Words of a party's name.
        court_id: Only this district court.
        nature_of_suit: Words of the nature of suit (Patent, Contract).
        filed_after: Filed on or after this date.
        filed_before: Filed on or before this date.
        status: open or terminated.
        limit: Most results.
    """
    if court_id is not None:
        _check_court(court_id)
    _span(filed_after, filed_before)
    db = _db(ctx)
    pw, sw = fold(party or "").split(), fold(nature_of_suit or "").split()
    found = [
        d
        for d in db.dockets.values()
        if (_matches(pw, d.plaintiff) or _matches(pw, d.defendant))
        and _matches(sw, _SUITS[d.suit][0])
        and court_id in (None, d.court_id)
        and (filed_after is None or d.filed >= filed_after)
        and (filed_before is None or d.filed <= filed_before)
        and (status is None or (d.terminated is None) == (status == "open"))
    ]
    found.sort(key=lambda d: (d.filed, d.id), reverse=True)
    return [_docket(db, d) for d in found[:limit]]


def _example_docket(ctx: Ctx) -> dict[str, Any]:
    return {"docket_id": next(iter(_db(ctx).dockets))}


@service.tool(intent="get the docket", open_world=True, example=_example_docket)
def get_docket(ctx: Ctx, docket_id: DocketId) -> Docket:
    """Get a docket: number, court, parties, dates, nature of suit, judge and entry count.

    Args:
        docket_id: The docket id.
    """
    return _docket(_db(ctx), _get_docket(ctx, docket_id))


@service.tool(intent="list the docket's entries", open_world=True, example=_example_docket)
def list_docket_entries(
    ctx: Ctx, docket_id: DocketId, after_entry: Annotated[int, Field(ge=0)] = 0
) -> list[DocketEntry]:
    """List a docket's entries (/docket-entries/) in order, optionally only those after an entry number.

    Args:
        docket_id: The docket id.
        after_entry: Only entries numbered above this.
    """
    d = _get_docket(ctx, docket_id)
    return [
        DocketEntry(docket_id=d.id, entry_number=n, date_filed=day, description=text)
        for n, day, text in d.entries
        if n > after_entry
    ]


@service.tool(intent="search court opinions", open_world=True, example=fixed_example(q="contract"))
def search_opinions(
    ctx: Ctx,
    q: Query | None = None,
    court_id: CourtId | None = None,
    filed_after: Date | None = None,
    filed_before: Date | None = None,
    precedential_status: Precedential | None = None,
    order_by: Literal["dateFiled desc", "citeCount desc"] = "dateFiled desc",
    limit: Annotated[int, Field(ge=1, le=100)] = 25,
) -> list[Opinion]:
    """Search opinions (/search/?type=o) by words of the case name and summary, court, dates and status.

    Args:
        q: Words that must all appear in the case name or summary.
        court_id: Only this court.
        filed_after: Decided on or after this date.
        filed_before: Decided on or before this date.
        precedential_status: Published or Unpublished.
        order_by: dateFiled desc (default) or citeCount desc.
        limit: Most results.
    """
    if court_id is not None:
        _check_court(court_id)
    _span(filed_after, filed_before)
    db = _db(ctx)
    found = _opinion_hits(db, q, court_id, filed_after, filed_before, precedential_status)
    if order_by == "dateFiled desc":
        found.sort(key=lambda o: (o.filed, o.id), reverse=True)
    else:
        found.sort(key=lambda o: (-len(db.cited_by[o.id]), o.id))
    return [_opinion(db, o) for o in found[:limit]]


def _opinion_hits(
    db: _Db, q: str | None, court_id: str | None, after: dt.date | None, before: dt.date | None, status: str | None
) -> list[_Opinion]:
    words = fold(q or "").split()
    return [
        o
        for o in db.opinions.values()
        if _matches(words, f"{o.case_name} {o.summary}")
        and court_id in (None, o.court_id)
        and (after is None or o.filed >= after)
        and (before is None or o.filed <= before)
        and status in (None, o.status)
    ]


def _example_opinion(ctx: Ctx) -> dict[str, Any]:
    db = _db(ctx)
    return {"opinion_id": max(db.opinions, key=lambda o: (len(db.cited_by[o]), o))}


@service.tool(intent="get the opinion", open_world=True, example=_example_opinion)
def get_opinion(ctx: Ctx, opinion_id: OpinionId) -> Opinion:
    """Get an opinion: case, court, date, status, citation, panel, cited opinions and citation count.

    Args:
        opinion_id: The opinion cluster id.
    """
    return _opinion(_db(ctx), _get_opinion(ctx, opinion_id))


@service.tool(intent="list the opinions citing an opinion", open_world=True, example=_example_opinion)
def list_citing_opinions(ctx: Ctx, opinion_id: OpinionId) -> list[Opinion]:
    """List the later opinions that cite an opinion, newest first.

    Args:
        opinion_id: The cited opinion.
    """
    db = _db(ctx)
    _get_opinion(ctx, opinion_id)
    return [
        _opinion(db, db.opinions[c])
        for c in sorted(db.cited_by[opinion_id], key=lambda c: db.opinions[c].filed, reverse=True)
    ]


@service.tool(intent="search judges", open_world=True, example=fixed_example(court_id="cand"))
def search_judges(ctx: Ctx, name: Query | None = None, court_id: CourtId | None = None) -> list[Judge]:
    """Search judges (/people/) by name and court.

    Args:
        name: Words of the judge's name.
        court_id: Only judges of this court.
    """
    if court_id is not None:
        _check_court(court_id)
    db = _db(ctx)
    words = fold(name or "").split()
    return [_judge(db, j) for j in db.judges.values() if _matches(words, j.name) and court_id in (None, j.court_id)]


def _example_judge(ctx: Ctx) -> dict[str, Any]:
    return {"judge_id": next(iter(_db(ctx).judges))}


@service.tool(intent="get the judge", open_world=True, example=_example_judge)
def get_judge(ctx: Ctx, judge_id: JudgeId) -> Judge:
    """Get a judge: court, start of position, appointer and counts of dockets and opinions.

    Args:
        judge_id: The person id.
    """
    j = _db(ctx).judges.get(judge_id)
    if j is None:
        raise NotFound(f"no judge {judge_id}", field="judge_id", hint="find one with courtdata__search_judges")
    return _judge(_db(ctx), j)


# -- alerts -----------------------------------------------------------------------------------------------


class DocketAlert(Timestamped):
    """A subscription to a docket's new entries (/docket-alerts/)."""

    id: DocketAlertId
    docket_id: DocketId
    """The docket."""
    case_name: str
    """Its case name."""
    subscriber_email: Email
    """The staff member alerted."""
    status: Literal["subscribed", "unsubscribed"] = "subscribed"
    """subscribed, or unsubscribed (not checked)."""
    last_entry_number: int = 0
    """Entries up to this number were already reported."""
    last_checked_at: DateTime | None = None
    """When it was last checked."""


class SearchAlert(Timestamped):
    """A saved opinion search that reports new opinions (/alerts/)."""

    id: SearchAlertId
    name: Title
    """Its name."""
    query: Query
    """Words the opinions must contain."""
    court_id: CourtId | None = None
    """Only this court."""
    rate: Rate = "wly"
    """rt, dly, wly, mly, or off (does not run)."""
    owner_email: Email
    """The staff member alerted."""
    last_run_on: Date
    """Opinions decided after this date are new at the next run."""
    hits_total: int = 0
    """Opinions reported so far."""


def _guard_search_alert(ctx: Ctx, new: SearchAlert, old: SearchAlert | None) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="alerts go to staff")
    if new.court_id is not None:
        _check_court(new.court_id)


docket_alerts = service.resource(
    DocketAlert,
    name="docket_alert",
    plural="docket_alerts",
    prefix="cda",
    create=False,
    filters=("docket_id", "subscriber_email", "status"),
    search=("case_name",),
    transitions={
        "unsubscribe": Transition("status", ("subscribed",), "unsubscribed", "unsubscribe from the docket alert"),
    },
    title="docket alert",
)
search_alerts = service.resource(
    SearchAlert,
    name="search_alert",
    plural="search_alerts",
    prefix="csa",
    create=False,
    filters=("owner_email", "rate", "court_id"),
    search=("name", "query"),
    update=("name", "query", "court_id", "rate"),
    guard_update=_guard_search_alert,
    title="search alert",
)


def _count_active(ctx: Ctx, email: str) -> int:
    return len(ctx.where(DocketAlert, subscriber_email=email, status="subscribed"))


def _example_subscribe(ctx: Ctx) -> dict[str, Any] | None:
    taken = {(a.docket_id, a.subscriber_email) for a in ctx.scan(DocketAlert)}
    for p in ctx.population.employees:
        if _count_active(ctx, p.email) < MAX_DOCKET_ALERTS:
            free = next((d for d in _db(ctx).dockets if (d, p.email) not in taken), None)
            if free is not None:
                return {"docket_id": free, "subscriber_email": p.email}
    return None


@service.tool(intent="subscribe to a docket's new filings", write=True, example=_example_subscribe)
def subscribe_docket(ctx: Ctx, docket_id: DocketId, subscriber_email: Email) -> DocketAlert:
    """Subscribe a staff member to a docket's new entries; entries from now on are reported at each check.

    Args:
        docket_id: The docket.
        subscriber_email: The employee to alert (at most five active docket alerts each).
    """
    d = _get_docket(ctx, docket_id)
    require_employee(ctx, subscriber_email, field="subscriber_email", hint="alerts go to staff")
    other = ctx.first(DocketAlert, docket_id=d.id, subscriber_email=subscriber_email)
    if other is not None:
        raise Conflict(
            f"{subscriber_email} already has alert {other.id} on docket {d.id}",
            field="docket_id",
            hint="resubscribe that alert instead" if other.status == "unsubscribed" else "check that alert",
        )
    _check_limit(ctx, subscriber_email, "subscriber_email")
    return ctx.create(
        DocketAlert,
        docket_id=d.id,
        case_name=d.case_name,
        subscriber_email=subscriber_email,
        last_entry_number=len(d.entries),
        last_checked_at=ctx.now(),
    )


def _check_limit(ctx: Ctx, email: str, field: str) -> None:
    if _count_active(ctx, email) >= MAX_DOCKET_ALERTS:
        raise RuleViolation(
            f"{email} already has {MAX_DOCKET_ALERTS} active docket alerts",
            field=field,
            hint="unsubscribe from one first",
        )


@service.tool(
    intent="resubscribe the docket alert",
    write=True,
    example=first_example(DocketAlert, "docket_alert_id", where={"status": "unsubscribed"}),
)
def resubscribe_docket_alert(ctx: Ctx, docket_alert_id: DocketAlertId) -> DocketAlert:
    """Turn an unsubscribed docket alert back on; entries filed meanwhile are reported at the next check.

    Args:
        docket_alert_id: The alert (unsubscribed).
    """
    a = ctx.get(DocketAlert, docket_alert_id, field="docket_alert_id")
    if a.status != "unsubscribed":
        raise RuleViolation(f"alert {a.id} is already subscribed", field="docket_alert_id", hint="check it instead")
    _check_limit(ctx, a.subscriber_email, "docket_alert_id")
    return ctx.update(a, status="subscribed")


@service.tool(
    intent="check the docket alert for new filings",
    write=True,
    example=first_example(DocketAlert, "docket_alert_id", where={"status": "subscribed"}),
)
def check_docket_alert(ctx: Ctx, docket_alert_id: DocketAlertId) -> list[DocketEntry]:
    """Return the docket's entries filed since the alert's last check, and mark them reported.

    Args:
        docket_alert_id: The alert (subscribed).
    """
    a = ctx.get(DocketAlert, docket_alert_id, field="docket_alert_id")
    if a.status != "subscribed":
        raise RuleViolation(
            f"alert {a.id} is unsubscribed",
            field="docket_alert_id",
            hint="resubscribe it with courtdata__resubscribe_docket_alert",
        )
    d = _get_docket(ctx, a.docket_id)
    new = [
        DocketEntry(docket_id=d.id, entry_number=n, date_filed=day, description=text)
        for n, day, text in d.entries
        if n > a.last_entry_number
    ]
    ctx.update(a, last_entry_number=len(d.entries), last_checked_at=ctx.now())
    return new


def _example_search_alert(ctx: Ctx) -> dict[str, Any]:
    return {"name": "Contract appeals", "query": "contract", "owner_email": ctx.population.employees[0].email}


@service.tool(intent="create a search alert on new opinions", write=True, example=_example_search_alert)
def create_search_alert(
    ctx: Ctx, name: Title, query: Query, owner_email: Email, court_id: CourtId | None = None, rate: Rate = "wly"
) -> SearchAlert:
    """Save an opinion search that reports opinions decided from today on (/alerts/).

    Args:
        name: The alert's name.
        query: Words the opinions must contain.
        owner_email: The employee to alert.
        court_id: Only this court.
        rate: rt, dly, wly (default), mly, or off.
    """
    require_employee(ctx, owner_email, field="owner_email", hint="alerts go to staff")
    if court_id is not None:
        _check_court(court_id)
    same = ctx.first(SearchAlert, owner_email=owner_email, query=query, court_id=court_id)
    if same is not None:
        raise Conflict(f"{owner_email} already has this search as {same.id}", field="query", hint="use that alert")
    return ctx.create(
        SearchAlert,
        name=name,
        query=query,
        owner_email=owner_email,
        court_id=court_id,
        rate=rate,
        last_run_on=ctx.today(),
    )


@service.tool(
    intent="run the search alert",
    write=True,
    example=first_example(SearchAlert, "search_alert_id", match=lambda ctx, a: a.rate != "off"),
)
def run_search_alert(ctx: Ctx, search_alert_id: SearchAlertId) -> list[Opinion]:
    """Return the opinions matching the alert decided since its last run, oldest first, and move its run date.

    Args:
        search_alert_id: The alert (rate not off).
    """
    a = ctx.get(SearchAlert, search_alert_id, field="search_alert_id")
    if a.rate == "off":
        raise RuleViolation(
            f"search alert {a.id} is off",
            field="search_alert_id",
            hint="set a rate with courtdata__update_search_alert",
        )
    db = _db(ctx)
    hits = [o for o in _opinion_hits(db, a.query, a.court_id, None, None, None) if o.filed > a.last_run_on]
    hits.sort(key=lambda o: (o.filed, o.id))
    ctx.update(a, last_run_on=ctx.today(), hits_total=a.hits_total + len(hits))
    return [_opinion(db, o) for o in hits]


# -- seed -------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Legal's docket alerts on the home company's cases and search alerts on opinions in its fields."""
    pop = s.population
    today = s.now.date()
    db = _build(pop, today)
    legal = pop.staff("Legal", "Finance", fallback=3)
    home = fold(pop.home.name)
    mine = [d for d in db.dockets.values() if home in (fold(d.plaintiff), fold(d.defendant))]
    others = [d for d in db.dockets.values() if d not in mine]
    for k, d in enumerate((mine + others)[:7]):
        person = legal[k % len(legal)]
        seen = max(0, len(d.entries) - 1 - k % 3)
        s.create(
            DocketAlert,
            docket_id=d.id,
            case_name=d.case_name,
            subscriber_email=person.email,
            status="unsubscribed" if k == 5 else "subscribed",
            last_entry_number=seen,
            last_checked_at=s.ago(days=40 + k),
            created_at=s.ago(days=300 - 20 * k),
            updated_at=s.ago(days=40 + k),
        )
    recent = [o for o in db.opinions.values() if o.filed > today - dt.timedelta(days=400)]
    topic = recent[-1].summary.split(";")[0].removeprefix("Appeal on ") if recent else "contract"
    for k, (name, query, court, rate) in enumerate(
        (
            (f"{topic.capitalize()} appeals", topic, None, "wly"),
            ("Ninth Circuit contract rulings", "contract", "ca9", "dly"),
            ("Employment cases (paused)", "employment", None, "off"),
        )
    ):
        s.create(
            SearchAlert,
            name=name,
            query=query,
            court_id=court,
            rate=rate,
            owner_email=legal[k % len(legal)].email,
            last_run_on=today - dt.timedelta(days=400),
            hits_total=k * 3,
            created_at=s.ago(days=700),
            updated_at=s.ago(days=400),
        )
