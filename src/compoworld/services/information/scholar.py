"""Scholarbase: scholarly works, authors, institutions, concepts and citations, and the team's reading lists.

Modeled on the OpenAlex API: ``/works`` (``search``, ``filter=concepts.id:,
authorships.author.id:, institutions.id:, publication_year:, is_oa:, cites:``,
``sort=cited_by_count:desc``, ``group_by=publication_year``), ``/works/doi:…``,
``/authors`` (with ``orcid``, ``h_index``, ``i10_index``, ``works_count``,
``cited_by_count``, ``last_known_institution``), ``/institutions`` (``ror``,
``type`` education / company / facility, ``country_code``) and ``/concepts``
(``level`` 0 to 2). Ids keep OpenAlex's letters: ``W…`` works, ``A…`` authors,
``I…`` institutions, ``C…`` concepts.

An open-world service: the bibliography is a deterministic draw from the world
seed: universities' researchers and, so that the world's people appear in it,
engineers of the home company and contacts of a few partner companies, each
an author of works whose references only point to earlier works; every
``cited_by_count``, h-index and count by year is computed from that citation
graph, so all tools agree. Stored state is the team's reading lists (as in
Zotero or Mendeley group libraries): an employee's list holds works once each,
read in turn (to_read, reading, read); an archived list is frozen, and a list
still holding unread works cannot be deleted.
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
from compoworld.engine.types import Country, Date, Email, IdOf, SemanticType, Text, Url
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import fixed_example
from compoworld.services.kit.lists import KeptList, ListRecord
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "scholar",
    title="Scholarbase",
    category="scholarly_data",
    modeled_on="OpenAlex API (works with search, filters, sort and group_by; works by DOI; authors with ORCID and "
    "h-index; institutions with ROR; concepts) with Zotero-style group reading lists",
    description="Scholarly literature: search works by text, concept, author, institution, year and open access, "
    "follow citations both ways, read author and institution profiles with their metrics, count works by year, "
    "and keep the team's reading lists of works to read.",
)

WorkId = Annotated[str, SemanticType("scholar.work", kind="ref"), StringConstraints(pattern=r"^W[0-9]{6,12}$")]
AuthorId = Annotated[str, SemanticType("scholar.author", kind="ref"), StringConstraints(pattern=r"^A[0-9]{6,12}$")]
InstitutionId = Annotated[
    str, SemanticType("scholar.institution", kind="ref"), StringConstraints(pattern=r"^I[0-9]{6,12}$")
]
ConceptId = Annotated[str, SemanticType("scholar.concept", kind="ref"), StringConstraints(pattern=r"^C[0-9]{6,12}$")]
Doi = Annotated[str, SemanticType("doi", kind="ref"), StringConstraints(pattern=r"^10\.[0-9]{4,9}/\S{1,80}$")]
Orcid = Annotated[
    str, SemanticType("orcid", kind="ref"), StringConstraints(pattern=r"^[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{3}[0-9X]$")
]
ListId = Annotated[str, IdOf("scholar.reading_list")]
ItemId = Annotated[str, IdOf("scholar.item")]
Search = Annotated[str, StringConstraints(min_length=2, max_length=120)]

WorkType = Literal["article", "preprint", "proceedings-article"]
OaStatus = Literal["gold", "green", "hybrid", "closed"]
InstType = Literal["education", "company", "facility"]
ItemStatus = Literal["to_read", "reading", "read"]
MAX_ITEMS = 100
FIRST_YEAR = 2012


def _rows(text: str) -> list[list[str]]:
    return [line.split("|") for line in text.strip().splitlines()]


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split(";"))


_CONCEPTS: tuple[tuple[str, str, int, tuple[str, ...], tuple[str, ...]], ...] = tuple(
    (c, name, int(level), _words(topics), _words(venues))
    for c, name, level, topics, venues in _rows(
        """
C41008148|Computer science|0|Systems;Algorithms|Communications of the ACM
C119857082|Machine learning|1|Self-supervised learning;Gradient boosting;Federated learning;Contrastive pretraining|Journal of Machine Learning Research;NeurIPS Proceedings
C204321447|Natural language processing|1|Retrieval-augmented generation;Instruction tuning;Tokenization;Entity linking|Transactions of the ACL;EMNLP Proceedings
C31972630|Computer vision|1|Vision transformers;Object detection;Depth estimation|IEEE TPAMI;CVPR Proceedings
C120314980|Distributed computing|1|Consensus protocols;Serverless scheduling;Stream processing|ACM Transactions on Computer Systems;USENIX OSDI
C38652104|Computer security|1|Supply-chain attacks;Fuzzing;Zero-trust access control|IEEE Symposium on Security and Privacy;USENIX Security
C192562407|Materials science|0|Solid-state electrolytes;Perovskite films;Graphene composites|Nature Materials;Advanced Materials
C90856448|Robotics|1|Legged locomotion;Grasp planning;SLAM|IEEE Transactions on Robotics;ICRA Proceedings
C162324750|Economics|0|Supply chain resilience;Pricing algorithms;Remote work productivity|American Economic Review;Journal of Operations Management
"""
    )
)
"""Concept id, name, level, title topics, venues."""
_VERBS = _words(
    "A study of;Scaling;Rethinking;Towards robust;Efficient;An empirical analysis of;Benchmarking;Understanding"
)
_SETTINGS = _words(
    "at scale;in production systems;under distribution shift;with limited labels;for small teams;in low-resource settings;across domains;with formal guarantees"
)
_UNIS: tuple[tuple[str, ...], ...] = tuple(
    tuple(row)
    for row in _rows(
        """
Massachusetts Institute of Technology|US|Cambridge
ETH Zurich|CH|Zurich
University of Cambridge|GB|Cambridge
Technical University of Munich|DE|Munich
University of Sao Paulo|BR|Sao Paulo
Sorbonne University|FR|Paris
University of Tokyo|JP|Tokyo
Polytechnic University of Madrid|ES|Madrid
University of Toronto|CA|Toronto
National University of Singapore|SG|Singapore
"""
    )
)
"""University, country, city."""
_FIRST = _words(
    "Wei;Amara;Lukas;Priya;Mateo;Sofia;Kenji;Elena;Omar;Ingrid;Rafael;Mei;Jonas;Aisha;Tomas;Chloe;Arjun;Nadia"
)
_LAST = _words("Zhang;Okafor;Becker;Raman;Silva;Rossi;Tanaka;Petrova;Haddad;Lindqvist;Moreau;Chen;Novak;Kowalski")


@dataclass(frozen=True, slots=True)
class _Author:
    id: str
    name: str
    orcid: str
    institution_id: str
    email: str | None


@dataclass(frozen=True, slots=True)
class _Work:
    id: str
    doi: str
    title: str
    year: int
    date: dt.date
    type: str
    venue: str
    oa: str
    author_ids: tuple[str, ...]
    concept_ids: tuple[str, ...]
    references: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Db:
    institutions: dict[str, tuple[str, str, str, str]]
    """id: (name, country, city, type)."""
    authors: dict[str, _Author]
    works: dict[str, _Work]
    cited_by: dict[str, tuple[str, ...]]


def _orcid(n: int) -> str:
    """An ORCID iD with its ISO 7064 mod 11-2 check digit."""
    digits = f"{n:015d}"
    total = 0
    for c in digits:
        total = (total + int(c)) * 2
    check = (12 - total % 11) % 11
    body = digits + ("X" if check == 10 else str(check))
    return "-".join(body[i : i + 4] for i in range(0, 16, 4))


@per_population
def _build(pop: Population, today: dt.date) -> _Db:
    r = random.Random(f"scholar:{pop.seed}")
    insts: dict[str, tuple[str, str, str, str]] = {}
    for k, (name, country, city) in enumerate(_UNIS):
        insts[f"I{10_000_000 + 7919 * k}"] = (name, country, city, "education")
    partners = [pop.home, *pop.customers[:3]]
    for k, c in enumerate(partners):
        insts[f"I{40_000_000 + 104_729 * k}"] = (c.name, c.address.country, c.address.city, "company")
    inst_ids = list(insts)
    authors: dict[str, _Author] = {}

    def add(name: str, inst: str, email: str | None) -> None:
        n = len(authors)
        aid = f"A{5_000_000_000 + 1_000_003 * n}"
        authors[aid] = _Author(aid, name, _orcid(1_000_000_000 + 7_777_777 * n + r.randrange(1000)), inst, email)

    names = r.sample([f"{f} {last}" for f in _FIRST for last in _LAST], 36)
    for k, name in enumerate(names):
        add(name, inst_ids[k % len(_UNIS)], None)
    for k, c in enumerate(partners):
        people = pop.staff("Engineering")[:4] if c.home else list(pop.people_at(c)[:2])
        for p in people:
            add(p.name, inst_ids[len(_UNIS) + k], p.email)
    author_ids = list(authors)
    works: dict[str, _Work] = {}
    years = list(range(FIRST_YEAR, today.year + 1))
    for n in range(160):
        year = years[min(len(years) - 1, int(len(years) * (n / 160) ** 0.8))]
        date = dt.date(year, r.randint(1, 12), r.randint(1, 28))
        if date > today:
            date = today - dt.timedelta(days=r.randint(1, 40))
            year = date.year
        cid, _name, _, topics, venues = r.choice(_CONCEPTS[1:]) if n % 7 else _CONCEPTS[0]
        concepts = (cid, "C41008148") if cid in {c[0] for c in _CONCEPTS[1:6]} else (cid,)
        title = f"{r.choice(_VERBS)} {r.choice(topics).lower()} {r.choice(_SETTINGS)}"
        title = title[0].upper() + title[1:]
        earlier = [w for w in works.values() if w.date < date]
        weights = [1 + 3 * (set(w.concept_ids) & set(concepts) != set()) for w in earlier]
        refs = (
            sorted(set(r.choices([w.id for w in earlier], weights, k=min(len(earlier), r.randint(0, 8)))))
            if earlier
            else []
        )
        team = tuple(dict.fromkeys(r.sample(author_ids, r.randint(1, 4))))
        wid = f"W{4_000_000_000 + 9_901 * n}"
        kind: WorkType = r.choice(("article", "article", "proceedings-article", "preprint"))
        works[wid] = _Work(
            wid,
            f"10.{48_550 + n % 3}/cw.{year}.{n:05d}",
            title,
            year,
            date,
            kind,
            "arXiv" if kind == "preprint" else r.choice(venues),
            "green" if kind == "preprint" else r.choice(("gold", "hybrid", "closed", "closed")),
            team,
            concepts,
            tuple(refs),
        )
    cited: dict[str, list[str]] = {w: [] for w in works}
    for w in works.values():
        for ref in w.references:
            cited[ref].append(w.id)
    return _Db(insts, authors, works, {k: tuple(v) for k, v in cited.items()})


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population, ctx.today())


# -- result models -----------------------------------------------------------------------------------------


class Authorship(BaseModel):
    """An author of a work."""

    author_id: AuthorId = Field(description="The author.")
    display_name: str = Field(description="Their name.")
    institution_id: InstitutionId = Field(description="Their institution.")
    institution_name: str = Field(description="Its name.")
    position: Literal["first", "middle", "last"] = Field(description="Author position.")


class Work(BaseModel):
    """A scholarly work."""

    id: WorkId = Field(description="OpenAlex id.")
    doi: Doi = Field(description="Its DOI.")
    title: str = Field(description="Its title.")
    publication_year: int = Field(description="Year published.")
    publication_date: Date = Field(description="Date published.")
    type: WorkType = Field(description="article, preprint or proceedings-article.")
    venue: str = Field(description="Journal, proceedings or repository.")
    is_oa: bool = Field(description="Whether it is open access.")
    oa_status: OaStatus = Field(description="gold, green, hybrid or closed.")
    landing_page_url: Url = Field(description="Where to read it.")
    authorships: list[Authorship] = Field(description="Its authors in order.")
    concepts: list[str] = Field(description="Concept ids.")
    referenced_works: list[WorkId] = Field(description="Works it cites.")
    cited_by_count: int = Field(description="Works citing it.")


class Author(BaseModel):
    """An author's profile with metrics."""

    id: AuthorId = Field(description="OpenAlex id.")
    display_name: str = Field(description="Name.")
    orcid: Orcid = Field(description="ORCID iD.")
    last_known_institution_id: InstitutionId = Field(description="Institution.")
    last_known_institution: str = Field(description="Its name.")
    works_count: int = Field(description="Works authored.")
    cited_by_count: int = Field(description="Citations of those works.")
    h_index: int = Field(description="h-index.")
    i10_index: int = Field(description="Works with at least 10 citations.")
    email: Email | None = Field(description="Contact e-mail when the author is someone the company knows.")


class Institution(BaseModel):
    """An institution."""

    id: InstitutionId = Field(description="OpenAlex id.")
    display_name: str = Field(description="Name.")
    ror: Url = Field(description="ROR id.")
    type: InstType = Field(description="education, company or facility.")
    country_code: Country = Field(description="Country.")
    city: str = Field(description="City.")
    works_count: int = Field(description="Works with an author there.")
    cited_by_count: int = Field(description="Citations of those works.")


class Concept(BaseModel):
    """A concept (topic)."""

    id: ConceptId = Field(description="OpenAlex id.")
    display_name: str = Field(description="Name.")
    level: int = Field(description="0 (root) to 2.")
    works_count: int = Field(description="Works tagged with it.")


class YearCount(BaseModel):
    """Works of one publication year."""

    publication_year: int = Field(description="The year.")
    count: int = Field(description="Works published.")


def _work(db: _Db, w: _Work) -> Work:
    auth = []
    for k, aid in enumerate(w.author_ids):
        a = db.authors[aid]
        pos: Literal["first", "middle", "last"] = (
            "first" if k == 0 else "last" if k == len(w.author_ids) - 1 else "middle"
        )
        auth.append(
            Authorship(
                author_id=aid,
                display_name=a.name,
                institution_id=a.institution_id,
                institution_name=db.institutions[a.institution_id][0],
                position=pos,
            )
        )
    return Work(
        id=w.id,
        doi=w.doi,
        title=w.title,
        publication_year=w.year,
        publication_date=w.date,
        type=w.type,
        venue=w.venue,
        is_oa=w.oa != "closed",
        oa_status=w.oa,
        landing_page_url=f"https://doi.org/{w.doi}",
        authorships=auth,
        concepts=list(w.concept_ids),
        referenced_works=list(w.references),
        cited_by_count=len(db.cited_by[w.id]),
    )


def _metrics(db: _Db, works: list[_Work]) -> tuple[int, int, int]:
    counts = sorted((len(db.cited_by[w.id]) for w in works), reverse=True)
    h = sum(1 for k, c in enumerate(counts) if c >= k + 1)
    return sum(counts), h, sum(c >= 10 for c in counts)


def _author(db: _Db, a: _Author) -> Author:
    mine = [w for w in db.works.values() if a.id in w.author_ids]
    cites, h, i10 = _metrics(db, mine)
    return Author(
        id=a.id,
        display_name=a.name,
        orcid=a.orcid,
        last_known_institution_id=a.institution_id,
        last_known_institution=db.institutions[a.institution_id][0],
        works_count=len(mine),
        cited_by_count=cites,
        h_index=h,
        i10_index=i10,
        email=a.email,
    )


def _institution(db: _Db, iid: str) -> Institution:
    name, country, city, kind = db.institutions[iid]
    mine = [w for w in db.works.values() if any(db.authors[a].institution_id == iid for a in w.author_ids)]
    return Institution(
        id=iid,
        display_name=name,
        ror=f"https://ror.org/0{int(iid[1:]) % 10**8:08d}",
        type=kind,
        country_code=country,
        city=city,
        works_count=len(mine),
        cited_by_count=_metrics(db, mine)[0],
    )


def _get_work(ctx: Ctx, work_id: str, field: str = "work_id") -> _Work:
    w = _db(ctx).works.get(work_id)
    if w is None:
        raise NotFound(f"no work {work_id}", field=field, hint="find works with scholar__search_works")
    return w


def _get_author(ctx: Ctx, author_id: str) -> _Author:
    a = _db(ctx).authors.get(author_id)
    if a is None:
        raise NotFound(f"no author {author_id}", field="author_id", hint="find authors with scholar__search_authors")
    return a


def _check_inst(ctx: Ctx, institution_id: str) -> None:
    if institution_id not in _db(ctx).institutions:
        raise NotFound(
            f"no institution {institution_id}",
            field="institution_id",
            hint="find institutions with scholar__search_institutions",
        )


def _check_concept(concept_id: str) -> None:
    if concept_id not in {c[0] for c in _CONCEPTS}:
        raise NotFound(f"no concept {concept_id}", field="concept_id", hint="list them with scholar__list_concepts")


def _filtered(ctx: Ctx, concept_id: str | None, author_id: str | None, institution_id: str | None) -> list[_Work]:
    db = _db(ctx)
    if concept_id is not None:
        _check_concept(concept_id)
    if author_id is not None:
        _get_author(ctx, author_id)
    if institution_id is not None:
        _check_inst(ctx, institution_id)
    return [
        w
        for w in db.works.values()
        if (concept_id is None or concept_id in w.concept_ids)
        and (author_id is None or author_id in w.author_ids)
        and (institution_id is None or any(db.authors[a].institution_id == institution_id for a in w.author_ids))
    ]


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search scholarly works", open_world=True, example=fixed_example(search="learning"))
def search_works(
    ctx: Ctx,
    search: Search | None = None,
    concept_id: ConceptId | None = None,
    author_id: AuthorId | None = None,
    institution_id: InstitutionId | None = None,
    from_year: Annotated[int, Field(ge=1900, le=2100)] | None = None,
    to_year: Annotated[int, Field(ge=1900, le=2100)] | None = None,
    is_oa: bool | None = None,
    sort: Literal["cited_by_count", "publication_date"] = "cited_by_count",
    limit: Annotated[int, Field(ge=1, le=50)] = 25,
) -> list[Work]:
    """Search works by title words and filters (/works?search=&filter=), most cited or newest first.

    Args:
        search: Words that must all appear in the title.
        concept_id: Only works tagged with this concept.
        author_id: Only works by this author.
        institution_id: Only works with an author at this institution.
        from_year: Earliest publication year.
        to_year: Latest publication year.
        is_oa: Only open-access (true) or closed (false) works.
        sort: cited_by_count (default) or publication_date, both descending.
        limit: Most results.
    """
    if from_year is not None and to_year is not None and to_year < from_year:
        raise RuleViolation(
            f"to_year {to_year} is before from_year {from_year}",
            field="to_year",
            hint="give a to_year on or after from_year",
        )
    db = _db(ctx)
    words = fold(search or "").split()
    found = [
        w
        for w in _filtered(ctx, concept_id, author_id, institution_id)
        if all(x in fold(w.title).split() for x in words)
        and (from_year is None or w.year >= from_year)
        and (to_year is None or w.year <= to_year)
        and (is_oa is None or (w.oa != "closed") == is_oa)
    ]
    if sort == "cited_by_count":
        found.sort(key=lambda w: (-len(db.cited_by[w.id]), w.id))
    else:
        found.sort(key=lambda w: (w.date, w.id), reverse=True)
    return [_work(db, w) for w in found[:limit]]


def _example_work(ctx: Ctx) -> dict[str, Any]:
    db = _db(ctx)
    return {"work_id": max(db.works, key=lambda w: len(db.cited_by[w]))}


@service.tool(intent="get the scholarly work", open_world=True, example=_example_work)
def get_work(ctx: Ctx, work_id: WorkId) -> Work:
    """Get one work with its authors, venue, open-access status, references and citation count.

    Args:
        work_id: The OpenAlex work id (W…).
    """
    return _work(_db(ctx), _get_work(ctx, work_id))


def _example_doi(ctx: Ctx) -> dict[str, Any]:
    return {"doi": next(iter(_db(ctx).works.values())).doi}


@service.tool(intent="look up a work by DOI", open_world=True, example=_example_doi)
def get_work_by_doi(ctx: Ctx, doi: Doi) -> Work:
    """Get a work by its DOI (/works/doi:10.…), case-insensitively.

    Args:
        doi: The DOI without the https://doi.org/ prefix.
    """
    db = _db(ctx)
    for w in db.works.values():
        if w.doi.lower() == doi.lower():
            return _work(db, w)
    raise NotFound(f"no work with DOI {doi}", field="doi", hint="search by title with scholar__search_works")


@service.tool(intent="list the works citing a work", open_world=True, example=_example_work)
def list_citing_works(ctx: Ctx, work_id: WorkId) -> list[Work]:
    """List the works that cite a work (/works?filter=cites:W…), newest first.

    Args:
        work_id: The cited work.
    """
    db = _db(ctx)
    _get_work(ctx, work_id)
    found = sorted((db.works[c] for c in db.cited_by[work_id]), key=lambda w: (w.date, w.id), reverse=True)
    return [_work(db, w) for w in found]


@service.tool(intent="search authors", open_world=True, example=fixed_example(search="Chen"))
def search_authors(ctx: Ctx, search: Search | None = None, institution_id: InstitutionId | None = None) -> list[Author]:
    """Search authors by name (/authors?search=), optionally at one institution, most cited first.

    Args:
        search: Words of the name.
        institution_id: Only authors last known at this institution.
    """
    if institution_id is not None:
        _check_inst(ctx, institution_id)
    db = _db(ctx)
    words = fold(search or "").split()
    found = [
        _author(db, a)
        for a in db.authors.values()
        if all(x in fold(a.name).split() for x in words)
        and (institution_id is None or a.institution_id == institution_id)
    ]
    return sorted(found, key=lambda a: (-a.cited_by_count, a.id))


def _example_author(ctx: Ctx) -> dict[str, Any]:
    return {"author_id": next(iter(_db(ctx).authors))}


@service.tool(intent="get the author's profile", open_world=True, example=_example_author)
def get_author(ctx: Ctx, author_id: AuthorId) -> Author:
    """Get an author's profile: ORCID, institution, works count, citations, h-index and i10-index.

    Args:
        author_id: The OpenAlex author id (A…).
    """
    return _author(_db(ctx), _get_author(ctx, author_id))


def _example_orcid(ctx: Ctx) -> dict[str, Any]:
    return {"orcid": next(iter(_db(ctx).authors.values())).orcid}


@service.tool(intent="look up an author by ORCID", open_world=True, example=_example_orcid)
def get_author_by_orcid(ctx: Ctx, orcid: Orcid) -> Author:
    """Get an author by ORCID iD (/authors/orcid:…).

    Args:
        orcid: The ORCID iD (0000-0002-1825-0097).
    """
    db = _db(ctx)
    for a in db.authors.values():
        if a.orcid == orcid:
            return _author(db, a)
    raise NotFound(f"no author with ORCID {orcid}", field="orcid", hint="search by name with scholar__search_authors")


@service.tool(intent="search research institutions", open_world=True)
def search_institutions(
    ctx: Ctx, search: Search | None = None, country_code: Country | None = None, type: InstType | None = None
) -> list[Institution]:
    """Search institutions by name, country and type (/institutions), most works first.

    Args:
        search: Words of the name.
        country_code: Only institutions in this country.
        type: education, company or facility.
    """
    db = _db(ctx)
    words = fold(search or "").split()
    found = [
        _institution(db, i)
        for i, (name, country, _, kind) in db.institutions.items()
        if all(x in fold(name).split() for x in words)
        and (country_code is None or country == country_code)
        and (type is None or kind == type)
    ]
    return sorted(found, key=lambda i: (-i.works_count, i.id))


def _example_inst(ctx: Ctx) -> dict[str, Any]:
    return {"institution_id": next(iter(_db(ctx).institutions))}


@service.tool(intent="get the institution", open_world=True, example=_example_inst)
def get_institution(ctx: Ctx, institution_id: InstitutionId) -> Institution:
    """Get an institution with its ROR id, type, place, works and citations.

    Args:
        institution_id: The OpenAlex institution id (I…).
    """
    _check_inst(ctx, institution_id)
    return _institution(_db(ctx), institution_id)


@service.tool(intent="list research concepts", open_world=True)
def list_concepts(ctx: Ctx, level: Annotated[int, Field(ge=0, le=2)] | None = None) -> list[Concept]:
    """List the concepts (topics) works are tagged with, with their work counts.

    Args:
        level: Only concepts of this level (0: root fields).
    """
    works = _db(ctx).works.values()
    return [
        Concept(id=c, display_name=n, level=lv, works_count=sum(c in w.concept_ids for w in works))
        for c, n, lv, _, _ in _CONCEPTS
        if level is None or lv == level
    ]


@service.tool(intent="count works by publication year", open_world=True, example=fixed_example(concept_id="C119857082"))
def count_works_by_year(
    ctx: Ctx,
    concept_id: ConceptId | None = None,
    author_id: AuthorId | None = None,
    institution_id: InstitutionId | None = None,
) -> list[YearCount]:
    """Count works per publication year (/works?group_by=publication_year), oldest first.

    Args:
        concept_id: Only works tagged with this concept.
        author_id: Only works by this author.
        institution_id: Only works with an author at this institution.
    """
    counts = Counter(w.year for w in _filtered(ctx, concept_id, author_id, institution_id))
    return [YearCount(publication_year=y, count=n) for y, n in sorted(counts.items())]


# -- reading lists -----------------------------------------------------------------------------------------


class ReadingList(ListRecord):
    """A team's reading list; its name is unique per owner."""

    id: ListId


class Item(Timestamped):
    """A work on a reading list."""

    id: ItemId
    reading_list_id: ListId
    """The list."""
    work_id: WorkId
    """The work."""
    title: str
    """Its title."""
    doi: Doi
    """Its DOI."""
    publication_year: int
    """Its year."""
    status: ItemStatus = "to_read"
    """to_read, reading or read."""
    note: Text = ""
    """The reader's note."""


_LISTS = KeptList(ReadingList, noun="reading list", field="reading_list_id", frozen_hint="unarchive it first")
_open_list = _LISTS.open


def _guard_list(ctx: Ctx, new: ReadingList, old: ReadingList | None) -> None:
    _LISTS.guard(ctx, new, old)
    for other in ctx.where(ReadingList, owner_email=new.owner_email, name=new.name):
        if other.id != new.id:
            raise Conflict(
                f"{new.owner_email} already has a list named {new.name!r}: {other.id}",
                field="name",
                hint="pick another name or use that list",
            )


def _guard_list_delete(ctx: Ctx, new: None, old: ReadingList) -> None:
    items = ctx.where(Item, reading_list_id=old.id)
    unread = [i for i in items if i.status != "read"]
    if unread and old.status != "archived":
        raise RuleViolation(
            f"reading list {old.id} still has {len(unread)} unread works",
            field="reading_list_id",
            hint="archive it instead, or finish reading",
        )
    for i in items:
        ctx.delete(i)


reading_lists = _LISTS.declare(
    service,
    name="reading_list",
    plural="reading_lists",
    prefix="rl",
    title="reading list",
    unarchive=True,
    guard=_guard_list,
    guard_delete=_guard_list_delete,
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="rli",
    create=False,
    title="reading list item",
    filters=("reading_list_id", "work_id", "status", "publication_year"),
    search=("title", "note"),
    update=("note",),
    transitions={
        "start_reading": Transition("status", ("to_read",), "reading", "start reading the work"),
        "finish_reading": Transition("status", ("to_read", "reading"), "read", "mark the work as read"),
    },
    guard_update=_LISTS.entry_guard("reading_list_id", "item_id"),
    guard_delete=_LISTS.entry_guard("reading_list_id", "item_id"),
)


def _add(ctx: Ctx, rl: ReadingList, w: _Work) -> Item:
    return ctx.create(Item, reading_list_id=rl.id, work_id=w.id, title=w.title, doi=w.doi, publication_year=w.year)


def _room(ctx: Ctx, rl: ReadingList, more: int) -> None:
    if len(ctx.where(Item, reading_list_id=rl.id)) + more > MAX_ITEMS:
        raise RuleViolation(
            f"reading list {rl.id} would hold more than {MAX_ITEMS} works",
            field="reading_list_id",
            hint="remove read works or start another list",
        )


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    rl = ctx.first(ReadingList, status="active")
    if rl is None:
        return None
    have = {i.work_id for i in ctx.where(Item, reading_list_id=rl.id)}
    free = next(w for w in _db(ctx).works if w not in have)
    return {"reading_list_id": rl.id, "work_id": free}


@service.tool(intent="add a work to the reading list", write=True, example=_example_add)
def add_work(ctx: Ctx, reading_list_id: ListId, work_id: WorkId, note: Text = "") -> Item:
    """Put a work on a reading list (to_read); a work is on a list once.

    Args:
        reading_list_id: The list (active).
        work_id: The work.
        note: Why it is worth reading.
    """
    rl = _open_list(ctx, reading_list_id)
    w = _get_work(ctx, work_id)
    other = ctx.first(Item, reading_list_id=rl.id, work_id=w.id)
    if other is not None:
        raise Conflict(f"{w.id} is already on the list as {other.id}", field="work_id", hint="update that item")
    _room(ctx, rl, 1)
    item = _add(ctx, rl, w)
    return ctx.update(item, note=note) if note else item


def _example_import(ctx: Ctx) -> dict[str, Any] | None:
    rl = ctx.first(ReadingList, status="active")
    db = _db(ctx)
    best = max(db.works.values(), key=lambda w: len(w.references))
    return None if rl is None else {"reading_list_id": rl.id, "work_id": best.id}


@service.tool(intent="add a work's references to the reading list", write=True, example=_example_import)
def import_references(ctx: Ctx, reading_list_id: ListId, work_id: WorkId) -> list[Item]:
    """Add every work a work cites to a reading list, skipping those already on it; returns the items added.

    Args:
        reading_list_id: The list (active).
        work_id: The citing work.
    """
    rl = _open_list(ctx, reading_list_id)
    w = _get_work(ctx, work_id)
    if not w.references:
        raise RuleViolation(f"{w.id} cites no works", field="work_id", hint="pick a work with referenced_works")
    have = {i.work_id for i in ctx.where(Item, reading_list_id=rl.id)}
    new = [r for r in w.references if r not in have]
    _room(ctx, rl, len(new))
    db = _db(ctx)
    return [_add(ctx, rl, db.works[r]) for r in new]


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Engineers' reading lists on machine learning and security, one archived, items in every state."""
    pop = s.population
    db = _build(pop, s.now.date())
    eng = pop.staff("Engineering", fallback=3)
    plans = (
        ("ML reading group", "C119857082", "active", 120),
        ("Security papers", "C38652104", "active", 45),
        ("Distributed systems classics", "C120314980", "archived", 400),
    )
    for k, (name, concept, status, days) in enumerate(plans):
        rl = s.create(
            ReadingList,
            name=name,
            owner_email=eng[k % len(eng)].email,
            status=status,
            description=f"Papers the team reads on {name.lower()}.",
            created_at=s.ago(days=days),
            updated_at=s.ago(days=max(1, days // 3)),
        )
        works = sorted(
            (w for w in db.works.values() if concept in w.concept_ids), key=lambda w: -len(db.cited_by[w.id])
        )
        for j, w in enumerate(works[:6]):
            state: ItemStatus = "read" if j < 2 or status == "archived" else "reading" if j == 2 else "to_read"
            s.create(
                Item,
                reading_list_id=rl.id,
                work_id=w.id,
                title=w.title,
                doi=w.doi,
                publication_year=w.year,
                status=state,
                note="Key reference." if j == 0 else "",
                created_at=s.ago(days=days - 1),
                updated_at=s.ago(days=max(1, days // 4)),
            )
