"""Clearlist Screening: sanctions and PEP matching, and the compliance team's screening cases.

Modeled on the OpenSanctions API (the yente match service: ``/match/{dataset}``
with queries of a ``schema`` and ``properties`` — ``name``, ``birthDate``,
``nationality``, ``country`` — scored by the ``logic-v1`` algorithm against a
``threshold`` of 0.7; ``/search/{dataset}``, ``/entities/{id}``,
``/entities/{id}/adjacent`` and the ``/catalog`` of datasets such as
``us_ofac_sdn``, ``eu_fsf``, ``gb_hmt_sanctions``, ``un_sc_sanctions`` and
``peps``). Entities are FollowTheMoney objects (``Person``, ``Company``,
``Organization``) with ``topics`` (``sanction``, ``role.pep``, ``debarment``,
``crime``) and the datasets that list them.

An open-world service: the entity database is a deterministic, fictional model
seeded by the world seed — sanctioned people and their companies with their
programmes, politically exposed persons with their positions, and, so that
screening the world's people is realistic, a few namesakes of the world's
business contacts (same name, another birth date or country: false positives)
and one contact who truly is a PEP. A name resembling no entity simply has no
match.

Stored state is the screening case: screening a customer or supplier stores the
hits above the threshold (``no_match`` when there is none, else
``pending_review``); an analyst clears a case as a false positive (each hit
becomes an exemption that later re-screens skip) or escalates it; an escalated
case is confirmed as a true match or cleared by a second analyst (four eyes). A
hit that matches name and birth date exactly cannot be cleared without
escalation. Monitored subjects are re-screened in bulk; new hits reopen them.
"""

from __future__ import annotations

import datetime as dt
import random
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, Date, DateTime, Email, IdOf, Text
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "sanctions",
    title="Clearlist Screening",
    category="sanctions_screening",
    modeled_on="OpenSanctions API / yente (match with logic-v1 scores and threshold, search, entities, adjacent, "
    "catalog of datasets) with a screening case workflow",
    description="Sanctions and PEP screening: match people and companies against sanctions lists and politically "
    "exposed persons, search and read entities and their relations, and keep the compliance team's screening "
    "cases, which analysts clear as false positives, escalate and confirm, with monitored re-screening.",
)

ScreeningId = Annotated[str, IdOf("sanctions.screening")]
ExemptionId = Annotated[str, IdOf("sanctions.exemption")]
EntityId = Annotated[str, StringConstraints(pattern=r"^osv-[a-z0-9-]{4,60}$")]
"""An entity id (``osv-…``)."""
Name = Annotated[str, StringConstraints(min_length=2, max_length=160)]

Schema = Literal["Person", "Company", "Organization"]
Topic = Literal["sanction", "role.pep", "debarment", "crime"]
Status = Literal["no_match", "pending_review", "escalated", "cleared", "confirmed_match"]
THRESHOLD = 0.7
EXACT = 0.95
MAX_BATCH = 20

_DATASETS: dict[str, tuple[str, str, str]] = {
    "us_ofac_sdn": ("US OFAC Specially Designated Nationals (SDN) List", "US", "Office of Foreign Assets Control"),
    "eu_fsf": ("EU Financial Sanctions Files (FSF)", "EU", "European Commission"),
    "gb_hmt_sanctions": ("UK HM Treasury Consolidated List", "GB", "Office of Financial Sanctions Implementation"),
    "un_sc_sanctions": ("UN Security Council Consolidated List", "UN", "United Nations Security Council"),
    "ch_seco_sanctions": ("Swiss SECO Sanctions", "CH", "State Secretariat for Economic Affairs"),
    "peps": ("Politically Exposed Persons (consolidated)", "ZZ", "OpenSanctions"),
    "worldbank_debarred": ("World Bank Debarred Providers", "ZZ", "World Bank Group"),
}
_SANCTION_SETS = ("us_ofac_sdn", "eu_fsf", "gb_hmt_sanctions", "un_sc_sanctions", "ch_seco_sanctions")
_PROGRAMS = ("RUSSIA-EO14024", "IRAN", "SDGT", "DPRK3", "SYRIA", "CYBER2", "GLOMAG")
_FIRST = ("Viktor", "Arkady", "Rustam", "Farid", "Jamal", "Oksana", "Tariq", "Yusuf", "Pavel", "Nadia", "Hassan",
          "Igor", "Leila", "Boris", "Marat", "Zarina", "Anatoly", "Karim", "Sabina", "Gennady")  # fmt: skip
_LAST = ("Volkarev", "Petrashin", "Karimbek", "Haddari", "Rahmoni", "Sokolin", "Nazaryan", "Kovalchuk", "Mansouri",
         "Azimov", "Orlovsky", "Barzani", "Tikhonov", "Jafari", "Gromyko", "Salehi")  # fmt: skip
_FIRM_WORDS = (
    "Caspian",
    "Northern Star",
    "Golden Crescent",
    "Baltic",
    "Meridian Gulf",
    "Red Sea",
    "Ural",
    "Amber Route",
)
_FIRM_KINDS = ("Trading LLC", "Shipping Co", "Holding Ltd", "Petroleum FZE", "Metals JSC", "Logistics DMCC")
_POSITIONS = ("Member of Parliament", "Deputy Minister of Finance", "Governor of the Central Bank", "Mayor of the capital",
              "Ambassador", "Supreme Court Judge", "Minister of Energy", "Head of State-owned Enterprise")  # fmt: skip
_COUNTRIES = ("RU", "IR", "SY", "KP", "BY", "VE", "AE", "TR", "CY", "KZ")


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(("sanctions", str(seed), *map(str, parts))))


# -- the entity database ------------------------------------------------------------------------------------


class Entity(BaseModel):
    """A FollowTheMoney entity."""

    id: EntityId = Field(description="Its id.")
    schema_name: Schema = Field(description="Person, Company or Organization.")
    caption: str = Field(description="Its display name.")
    names: list[str] = Field(description="Its name and aliases.")
    birth_date: Date | None = Field(description="Birth date (people).")
    nationality: Country | None = Field(description="Nationality or country of registration.")
    topics: list[Topic] = Field(description="sanction, role.pep, debarment, crime.")
    datasets: list[str] = Field(description="Datasets listing it.")
    programs: list[str] = Field(description="Sanctions programmes.")
    position: str | None = Field(description="The public position of a PEP.")
    related_ids: list[EntityId] = Field(description="Entities it owns, directs or is owned by.")
    first_seen: Date = Field(description="When it was first listed.")
    last_seen: Date = Field(description="When it was last seen in a source.")


def _slug(text: str) -> str:
    return "-".join(fold(text).split())[:50]


@lru_cache(maxsize=8)
def _entities(seed: int, contacts: tuple[tuple[str, dt.date, str], ...]) -> dict[str, Entity]:
    """The database: sanctioned people and their firms, PEPs, and namesakes of the world's contacts."""
    r = _rng(seed, "db")
    out: dict[str, Entity] = {}

    def add(schema: Schema, name: str, birth: dt.date | None, country: str, topics: list[Topic], sets: list[str],
            programs: list[str], position: str | None = None, aliases: tuple[str, ...] = ()) -> Entity:  # fmt: skip
        eid = f"osv-{_slug(name)}-{r.randrange(1000, 9999)}"
        first = dt.date(r.randint(2012, 2024), r.randint(1, 12), r.randint(1, 28))
        e = Entity(id=eid, schema_name=schema, caption=name, names=[name, *aliases], birth_date=birth, nationality=country,
                   topics=topics, datasets=sets, programs=programs, position=position, related_ids=[],
                   first_seen=first, last_seen=dt.date(2026, 2, r.randint(1, 27)))  # fmt: skip
        out[eid] = e
        return e

    people = [(f, last) for f in _FIRST for last in _LAST]
    r.shuffle(people)
    for k, (first, last) in enumerate(people[:24]):
        birth = dt.date(r.randint(1950, 1985), r.randint(1, 12), r.randint(1, 28))
        sets = sorted(r.sample(_SANCTION_SETS, r.randint(1, 3)))
        program = [r.choice(_PROGRAMS)]
        person = add("Person", f"{first} {last}", birth, r.choice(_COUNTRIES), ["sanction"], sets, program,
                     aliases=(f"{first[0]}. {last}", f"{last} {first}"))  # fmt: skip
        if k % 3 == 0:
            firm = add("Company", f"{r.choice(_FIRM_WORDS)} {r.choice(_FIRM_KINDS)}", None, person.nationality or "RU",
                       ["sanction"], sets, program)  # fmt: skip
            out[person.id] = person.model_copy(update={"related_ids": [firm.id]})
            out[firm.id] = firm.model_copy(update={"related_ids": [person.id]})
    for first, last in people[24:36]:
        birth = dt.date(r.randint(1945, 1980), r.randint(1, 12), r.randint(1, 28))
        add("Person", f"{first} {last}", birth, r.choice(_COUNTRIES), ["role.pep"], ["peps"], [], r.choice(_POSITIONS))
    for k, (name, birth, country) in enumerate(contacts):
        if k == 0:  # a world contact who truly is a PEP
            add("Person", name, birth, country, ["role.pep"], ["peps"], [], "Former Deputy Minister of Trade")
        else:  # namesakes: same name, another person
            other = birth.replace(year=birth.year - 7 - k)
            add("Person", name, other, r.choice(_COUNTRIES), ["sanction"] if k % 2 else ["crime"],
                ["us_ofac_sdn"] if k % 2 else ["worldbank_debarred"], [r.choice(_PROGRAMS)] if k % 2 else [])  # fmt: skip
    add("Company", "Harbor Shipping Trading LLC", None, "IR", ["sanction"], ["us_ofac_sdn", "eu_fsf"], ["IRAN"])
    return out


def _db(ctx: Ctx) -> dict[str, Entity]:
    contacts = ctx.population.contacts
    picks = tuple((p.name, p.birth_date, p.place.country) for p in contacts[3:15:3])
    return _entities(ctx.population.seed, picks)


class Features(Value):
    """What a score is made of."""

    name_similarity: float
    """Best similarity of the query name to one of the entity's names (0-1)."""
    birth_date: Literal["match", "year_match", "mismatch", "unknown"]
    """How the birth dates compare."""
    country: Literal["match", "mismatch", "unknown"]
    """How the nationalities or countries compare."""


class Hit(Value):
    """An entity a query matched."""

    entity_id: EntityId
    """The entity."""
    caption: str
    """Its name."""
    schema_name: Schema
    """Person, Company or Organization."""
    score: float
    """logic-v1 score, 0-1."""
    match: bool
    """Whether the score reaches the threshold."""
    topics: tuple[Topic, ...]
    """Its topics."""
    datasets: tuple[str, ...]
    """Its datasets."""
    features: Features
    """The score's parts."""


def _similar(a: str, b: str) -> float:
    x, y = " ".join(sorted(fold(a).split())), " ".join(sorted(fold(b).split()))
    return SequenceMatcher(None, x, y).ratio()


def _score(e: Entity, schema: Schema, name: str, birth: dt.date | None, country: str | None) -> Hit | None:
    if (schema == "Person") != (e.schema_name == "Person"):
        return None
    sim = max(_similar(name, n) for n in e.names)
    if sim < 0.6:
        return None
    score = sim
    dob: Literal["match", "year_match", "mismatch", "unknown"] = "unknown"
    if birth is not None and e.birth_date is not None:
        dob = "match" if birth == e.birth_date else "year_match" if birth.year == e.birth_date.year else "mismatch"
        score += {"match": 0.05, "year_match": 0.0, "mismatch": -0.35}[dob]
    where: Literal["match", "mismatch", "unknown"] = "unknown"
    if country is not None and e.nationality is not None:
        where = "match" if country == e.nationality else "mismatch"
        score += 0.02 if where == "match" else -0.1
    score = round(max(0.0, min(1.0, score)), 3)
    return Hit(entity_id=e.id, caption=e.caption, schema_name=e.schema_name, score=score, match=score >= THRESHOLD,
               topics=tuple(e.topics), datasets=tuple(e.datasets),
               features=Features(name_similarity=round(sim, 3), birth_date=dob, country=where))  # fmt: skip


def _match(ctx: Ctx, schema: Schema, name: str, birth: dt.date | None, country: str | None, dataset: str,
           threshold: float = THRESHOLD) -> list[Hit]:  # fmt: skip
    hits = []
    for e in _db(ctx).values():
        if dataset != "default" and dataset not in e.datasets:
            continue
        h = _score(e, schema, name, birth, country)
        if h is not None and h.score >= threshold - 0.2:
            hits.append(h.model_copy(update={"match": h.score >= threshold}))
    return sorted(hits, key=lambda h: (-h.score, h.entity_id))[:10]


def _dataset(name: str, field: str = "dataset") -> str:
    if name != "default" and name not in _DATASETS:
        raise NotFound(
            f"no dataset {name!r}", field=field, hint="list them with sanctions__list_datasets, or use default"
        )
    return name


# -- open-world tools ----------------------------------------------------------------------------------------


class MatchResult(BaseModel):
    """Results of one match query."""

    query_name: str = Field(description="The name asked about.")
    threshold: float = Field(description="The score a hit needs to be a match.")
    total: int = Field(description="Candidates returned (near-misses included).")
    matches: int = Field(description="Candidates at or above the threshold.")
    results: list[Hit] = Field(description="Candidates, best first (at most 10).")


class Dataset(BaseModel):
    """A dataset of the catalogue."""

    name: str = Field(description="Its name (us_ofac_sdn).")
    title: str = Field(description="Its title.")
    publisher: str = Field(description="Who publishes it.")
    publisher_country: str = Field(description="Publisher's country (EU, UN or ZZ for international).")
    entity_count: int = Field(description="Entities in it.")
    last_change: Date = Field(description="When it last changed.")


def _example_match(ctx: Ctx) -> dict[str, Any]:
    p = ctx.population.contacts[3]
    return {"schema_name": "Person", "name": p.name, "birth_date": p.birth_date.isoformat()}


@service.tool(intent="match a person or company against sanctions and PEP lists", open_world=True,
              example=_example_match)  # fmt: skip
def match_entities(
    ctx: Ctx, schema_name: Schema, name: Name, birth_date: Date | None = None, nationality: Country | None = None,
    dataset: str = "default", threshold: Annotated[float, Field(ge=0.5, le=1.0)] = THRESHOLD,
) -> MatchResult:  # fmt: skip
    """Score a person or company against the lists (/match): candidates best first, match when score ≥ threshold.

    Args:
        schema_name: Person, Company or Organization.
        name: The full name.
        birth_date: Birth date of a person (a mismatch lowers the score a lot).
        nationality: Nationality or country of registration.
        dataset: A dataset name, or default for all.
        threshold: Score a candidate needs to be a match (default 0.7).
    """
    hits = _match(ctx, schema_name, name, birth_date, nationality, _dataset(dataset), threshold)
    return MatchResult(query_name=name, threshold=threshold, total=len(hits), matches=sum(h.match for h in hits),
                       results=hits)  # fmt: skip


class Query(Value):
    """One query of a batch."""

    schema_name: Schema
    """Person, Company or Organization."""
    name: Name
    """The name."""
    birth_date: Date | None = None
    """Birth date of a person."""
    nationality: Country | None = None
    """Nationality or country."""


def _example_batch(ctx: Ctx) -> dict[str, Any]:
    return {"queries": [{"schema_name": "Company", "name": c.name} for c in ctx.population.customers[:3]]}


@service.tool(intent="match several people or companies at once", open_world=True, example=_example_batch)
def match_batch(
    ctx: Ctx, queries: Annotated[list[Query], Field(min_length=1, max_length=MAX_BATCH)]
) -> list[MatchResult]:
    """Match up to 20 queries in one call (the match API's multi-query form), at the default threshold.

    Args:
        queries: The queries.
    """
    out = []
    for q in queries:
        hits = _match(ctx, q.schema_name, q.name, q.birth_date, q.nationality, "default")
        out.append(MatchResult(query_name=q.name, threshold=THRESHOLD, total=len(hits),
                               matches=sum(h.match for h in hits), results=hits))  # fmt: skip
    return out


@service.tool(intent="search sanctions and PEP entities by text", open_world=True, example=fixed_example(q="Trading"))
def search_entities(ctx: Ctx, q: Name, topic: Topic | None = None, dataset: str = "default") -> list[Entity]:
    """Full-text search of entity names (/search): every word must appear in a name.

    Args:
        q: Words of the name.
        topic: Only entities with this topic.
        dataset: A dataset name, or default for all.
    """
    _dataset(dataset)
    words = fold(q).split()
    return [e for e in _db(ctx).values()
            if any(all(w in fold(n).split() or w in fold(n) for w in words) for n in e.names)
            and (topic is None or topic in e.topics) and (dataset == "default" or dataset in e.datasets)]  # fmt: skip


def _entity(ctx: Ctx, entity_id: str, field: str = "entity_id") -> Entity:
    e = _db(ctx).get(entity_id)
    if e is None:
        raise NotFound(f"no entity {entity_id}", field=field, hint="take ids from match or search results")
    return e


def _example_entity(ctx: Ctx) -> dict[str, Any]:
    return {"entity_id": next(iter(_db(ctx)))}


@service.tool(intent="get a sanctions or PEP entity", open_world=True, example=_example_entity)
def get_entity(ctx: Ctx, entity_id: EntityId) -> Entity:
    """An entity with its names, birth date, nationality, topics, datasets, programmes and position (/entities).

    Args:
        entity_id: The entity's id.
    """
    return _entity(ctx, entity_id)


@service.tool(intent="list the entities related to an entity", open_world=True, example=_example_entity)
def get_adjacent(ctx: Ctx, entity_id: EntityId) -> list[Entity]:
    """Entities an entity owns, directs or is owned by (/entities/{id}/adjacent).

    Args:
        entity_id: The entity's id.
    """
    return [_entity(ctx, i) for i in _entity(ctx, entity_id).related_ids]


@service.tool(intent="list the sanctions and PEP datasets", open_world=True)
def list_datasets(ctx: Ctx) -> list[Dataset]:
    """The catalogue of datasets with entity counts and last change."""
    db = _db(ctx).values()
    return [Dataset(name=n, title=t, publisher=pub, publisher_country=c,
                    entity_count=sum(n in e.datasets for e in db),
                    last_change=max((e.last_seen for e in db if n in e.datasets), default=dt.date(2026, 1, 1)))
            for n, (t, c, pub) in _DATASETS.items()]  # fmt: skip


@service.tool(intent="get a sanctions dataset", open_world=True, example=fixed_example(name="us_ofac_sdn"))
def get_dataset(ctx: Ctx, name: str) -> Dataset:
    """One dataset of the catalogue, with its publisher, entity count and last change.

    Args:
        name: The dataset's name (us_ofac_sdn, eu_fsf, peps …).
    """
    if name not in _DATASETS:
        raise NotFound(f"no dataset {name!r}", field="name", hint="list them with sanctions__list_datasets")
    return next(d for d in list_datasets(ctx) if d.name == name)


# -- screening cases ----------------------------------------------------------------------------------------


class Screening(Timestamped):
    """A screening case for one customer, supplier or partner."""

    id: ScreeningId
    schema_name: Schema
    """Person, Company or Organization."""
    name: Name
    """The subject's name as screened."""
    birth_date: Date | None = None
    """A person's birth date."""
    nationality: Country | None = None
    """Nationality or country."""
    subject_email: Email | None = None
    """The subject's e-mail (a customer's or supplier's contact), to find the case from other systems."""
    reference: Annotated[str, StringConstraints(max_length=60)] = ""
    """The subject's id elsewhere (CRM account, supplier number)."""
    requested_by: Email
    """The employee who asked for it."""
    status: Status
    """no_match, pending_review, escalated, cleared or confirmed_match."""
    hits: tuple[Hit, ...] = ()
    """Hits at or above the threshold, not exempted."""
    monitored: bool = False
    """Re-screened by rescreen_monitored."""
    escalated_by: Email | None = None
    """The analyst who escalated it."""
    decided_by: Email | None = None
    """The analyst who cleared or confirmed it."""
    decision_note: Text = ""
    """Why."""
    decided_at: DateTime | None = None
    """When."""


class Exemption(Created):
    """A hit an analyst ruled a false positive for a subject: re-screens skip it."""

    id: ExemptionId
    subject_key: str
    """The subject's folded name (and birth date)."""
    entity_id: EntityId
    """The entity ruled out."""
    screening_id: ScreeningId
    """The case it was ruled in."""
    reason: Text
    """Why it is not the subject."""
    created_by: Email
    """The analyst."""


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an analyst's e-mail")


def _key(name: str, birth: dt.date | None) -> str:
    return f"{' '.join(sorted(fold(name).split()))}|{birth or ''}"


screenings = service.resource(
    Screening, name="screening", plural="screenings", prefix="scr", create=False, delete=False,
    filters=("status", "schema_name", "requested_by", "subject_email", "monitored", "reference"),
    search=("name", "decision_note"), update=("monitored", "reference", "subject_email"),
)  # fmt: skip
exemptions = service.resource(
    Exemption, name="exemption", plural="exemptions", prefix="fpx", create=False,
    filters=("entity_id", "screening_id", "created_by"), search=("reason", "subject_key"),
)  # fmt: skip


def _fresh_hits(ctx: Ctx, schema: Schema, name: str, birth: dt.date | None, country: str | None) -> list[Hit]:
    """Hits at or above the threshold that no exemption for this subject rules out."""
    ruled = {x.entity_id for x in ctx.where(Exemption, subject_key=_key(name, birth))}
    return [h for h in _match(ctx, schema, name, birth, country, "default") if h.match and h.entity_id not in ruled]


def _exact(h: Hit) -> bool:
    """A hit on name and birth date alike: only a second analyst may clear it."""
    return h.score >= EXACT and h.features.birth_date == "match"


def _example_screen(ctx: Ctx) -> dict[str, Any]:
    p = ctx.population.contacts[1]
    return {"schema_name": "Person", "name": p.name, "birth_date": p.birth_date.isoformat(),
            "subject_email": p.email, "requested_by": ctx.population.employees[0].email}  # fmt: skip


@service.tool(intent="screen a customer or supplier", write=True, example=_example_screen)
def screen_subject(
    ctx: Ctx, schema_name: Schema, name: Name, requested_by: Email, birth_date: Date | None = None,
    nationality: Country | None = None, subject_email: Email | None = None, reference: str = "", monitored: bool = False,
) -> Screening:  # fmt: skip
    """Screen a subject and open a case: no_match when nothing reaches the threshold, else pending_review.

    Args:
        schema_name: Person, Company or Organization.
        name: The subject's full name.
        requested_by: The employee asking.
        birth_date: A person's birth date (strongly advised: it rules out namesakes).
        nationality: Nationality or country of registration.
        subject_email: The subject's e-mail.
        reference: The subject's id elsewhere.
        monitored: Keep re-screening it.
    """
    _staff(ctx, requested_by, "requested_by")
    if birth_date is not None and (schema_name != "Person" or birth_date > ctx.today()):
        raise RuleViolation("a birth date is for a person, and not in the future", field="birth_date",
                            hint="leave it out for a company")  # fmt: skip
    for other in ctx.where(Screening, name=name):
        if other.status in ("pending_review", "escalated") and other.birth_date == birth_date:
            raise Conflict(f"case {other.id} on {name} is still {other.status}", field="name",
                           hint="decide that case first")  # fmt: skip
    hits = _fresh_hits(ctx, schema_name, name, birth_date, nationality)
    return ctx.create(Screening, schema_name=schema_name, name=name, birth_date=birth_date, nationality=nationality,
                      subject_email=subject_email, reference=reference, requested_by=requested_by,
                      status="pending_review" if hits else "no_match", hits=tuple(hits), monitored=monitored)  # fmt: skip


def _open(ctx: Ctx, screening_id: str, allowed: tuple[str, ...], verb: str) -> Screening:
    s = ctx.get(Screening, screening_id, field="screening_id")
    if s.status not in allowed:
        raise RuleViolation(f"case {s.id} is {s.status}; only {' or '.join(allowed)} cases can be {verb}",
                            field="screening_id", hint="list open cases with status=pending_review")  # fmt: skip
    return s


@service.tool(intent="escalate the screening case", write=True,
              example=first_example(Screening, "screening_id", where={"status": "pending_review"}, note="Possible match",
                                    fields={"escalated_by": "requested_by"}))  # fmt: skip
def escalate_screening(ctx: Ctx, screening_id: ScreeningId, escalated_by: Email, note: Text) -> Screening:
    """Escalate a case under review to a second analyst (needed before an exact hit can be cleared).

    Args:
        screening_id: The case.
        escalated_by: The analyst escalating.
        note: Why.
    """
    s = _open(ctx, screening_id, ("pending_review",), "escalated")
    _staff(ctx, escalated_by, "escalated_by")
    if not note.strip():
        raise RuleViolation("an escalation needs a note", field="note", hint="say what needs a second look")
    return ctx.update(s, status="escalated", escalated_by=escalated_by, decision_note=note.strip())


def _decide(ctx: Ctx, s: Screening, by: str, note: str) -> None:
    _staff(ctx, by, "decided_by")
    if not note.strip():
        raise RuleViolation("a decision needs a note", field="note", hint="say why")
    if s.status == "escalated" and by == s.escalated_by:
        raise RuleViolation(f"{by} escalated this case; a second analyst decides it", field="decided_by",
                            hint="four eyes: another analyst must decide")  # fmt: skip


def _example_clear(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Screening, status="pending_review"):
        if not any(_exact(h) for h in s.hits):
            return {"screening_id": s.id, "decided_by": s.requested_by, "note": "Different birth date and country."}
    return None


@service.tool(intent="clear the screening case as a false positive", write=True, example=_example_clear)
def clear_screening(ctx: Ctx, screening_id: ScreeningId, decided_by: Email, note: Text) -> Screening:
    """Clear a case as a false positive: each hit becomes an exemption; an exact hit must be escalated first.

    Args:
        screening_id: The case (pending_review or escalated).
        decided_by: The analyst (not the one who escalated it).
        note: Why the hits are not the subject.
    """
    s = _open(ctx, screening_id, ("pending_review", "escalated"), "cleared")
    _decide(ctx, s, decided_by, note)
    exact = [h for h in s.hits if _exact(h)]
    if exact and s.status != "escalated":
        raise RuleViolation(f"{exact[0].caption} matches name and birth date (score {exact[0].score})", field="screening_id",
                            hint="escalate the case; a second analyst may clear an exact match")  # fmt: skip
    for h in s.hits:
        ctx.create(Exemption, subject_key=_key(s.name, s.birth_date), entity_id=h.entity_id, screening_id=s.id,
                   reason=note.strip(), created_by=decided_by)  # fmt: skip
    return ctx.update(s, status="cleared", decided_by=decided_by, decision_note=note.strip(), decided_at=ctx.now())


def _example_confirm(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Screening, status="escalated")
    if s is None:
        return None
    other = next(p.email for p in ctx.population.employees if p.email != s.escalated_by)
    return {"screening_id": s.id, "decided_by": other, "note": "Same person: PEP, enhanced due diligence."}


@service.tool(intent="confirm the screening match", write=True, example=_example_confirm)
def confirm_match(ctx: Ctx, screening_id: ScreeningId, decided_by: Email, note: Text) -> Screening:
    """Confirm an escalated case as a true match (the subject is listed); a second analyst decides.

    Args:
        screening_id: The escalated case.
        decided_by: The analyst confirming (not the one who escalated it).
        note: What follows (blocked, enhanced due diligence …).
    """
    s = _open(ctx, screening_id, ("escalated",), "confirmed")
    _decide(ctx, s, decided_by, note)
    return ctx.update(s, status="confirmed_match", decided_by=decided_by, decision_note=note.strip(),
                      decided_at=ctx.now())  # fmt: skip


def _rescreen(ctx: Ctx, s: Screening) -> Screening:
    hits = _fresh_hits(ctx, s.schema_name, s.name, s.birth_date, s.nationality)
    if not hits or s.status in ("pending_review", "escalated", "confirmed_match"):
        return ctx.update(s, hits=tuple(hits)) if s.status in ("no_match", "cleared") else s
    return ctx.update(s, status="pending_review", hits=tuple(hits), decided_by=None, decided_at=None)


@service.tool(intent="re-screen the subject", write=True,
              example=first_example(Screening, "screening_id", where={"status": "cleared"}))  # fmt: skip
def rescreen(ctx: Ctx, screening_id: ScreeningId) -> Screening:
    """Screen a closed case's subject again (no_match or cleared): new, unexempted hits reopen it for review.

    Args:
        screening_id: The case.
    """
    s = _open(ctx, screening_id, ("no_match", "cleared"), "re-screened")
    return _rescreen(ctx, s)


@service.tool(intent="re-screen every monitored subject", write=True)
def rescreen_monitored(ctx: Ctx) -> list[Screening]:
    """Re-screen every monitored, closed case; returns the cases reopened."""
    out = []
    for s in ctx.where(Screening, monitored=True):
        if s.status in ("no_match", "cleared"):
            again = _rescreen(ctx, s)
            if again.status == "pending_review":
                out.append(again)
    return out


def _example_reopen(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Screening, status="cleared")
    return None if s is None else {"screening_id": s.id, "reopened_by": s.requested_by, "note": "QA sample review"}


@service.tool(intent="reopen the screening case", write=True, example=_example_reopen)
def reopen_screening(ctx: Ctx, screening_id: ScreeningId, reopened_by: Email, note: Text) -> Screening:
    """Reopen a cleared or confirmed case for review (quality assurance, new information); its decision is kept in the note.

    Args:
        screening_id: The case.
        reopened_by: The analyst reopening it.
        note: Why.
    """
    s = _open(ctx, screening_id, ("cleared", "confirmed_match"), "reopened")
    _staff(ctx, reopened_by, "reopened_by")
    if not note.strip():
        raise RuleViolation("reopening needs a note", field="note", hint="say why the case is looked at again")
    for x in ctx.where(Exemption, screening_id=s.id):
        ctx.delete(x)
    was = f"{s.status} by {s.decided_by}: {s.decision_note}"
    return ctx.update(s, status="pending_review", decided_by=None, decided_at=None, escalated_by=None,
                      decision_note=f"Reopened by {reopened_by}: {note.strip()} (was {was})")  # fmt: skip


class Stats(BaseModel):
    """The screening workload."""

    by_status: dict[str, int] = Field(description="Cases per status.")
    open_hits: int = Field(description="Hits on cases still pending or escalated.")
    monitored: int = Field(description="Monitored cases.")
    exemptions: int = Field(description="False-positive exemptions in force.")


@service.tool(intent="show the screening workload")
def screening_stats(ctx: Ctx) -> Stats:
    """Cases per status, hits awaiting a decision, monitored subjects and exemptions."""
    cases = list(ctx.scan(Screening))
    by = {
        st: sum(c.status == st for c in cases)
        for st in ("no_match", "pending_review", "escalated", "cleared", "confirmed_match")
    }
    return Stats(by_status=by, open_hits=sum(len(c.hits) for c in cases if c.status in ("pending_review", "escalated")),
                 monitored=sum(c.monitored for c in cases), exemptions=len(list(ctx.scan(Exemption))))  # fmt: skip


# -- seed ----------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Cases on customers' and suppliers' contacts and firms in every state, with the exemptions clearing made."""
    pop = s.population
    analysts = pop.staff("Finance", "Legal", fallback=3)
    a, b = analysts[0].email, analysts[1 % len(analysts)].email
    contacts = pop.contacts
    picks = tuple((p.name, p.birth_date, p.place.country) for p in contacts[3:15:3])
    db = _entities(pop.seed, picks)

    def hits_for(name: str, birth: dt.date | None, schema: Schema = "Person") -> tuple[Hit, ...]:
        found = [_score(e, schema, name, birth, None) for e in db.values()]
        return tuple(sorted((h for h in found if h is not None and h.match), key=lambda h: -h.score))

    def case(p: Any, birth: dt.date | None, status: Status, days: int, **extra: Any) -> Screening:
        return s.create(Screening, schema_name="Person", name=p.name, birth_date=birth, subject_email=p.email,
                        requested_by=a, status=status, hits=hits_for(p.name, birth), created_at=s.ago(days=days),
                        updated_at=s.ago(days=max(1, days - 2)), **extra)  # fmt: skip

    true_pep = contacts[3]
    case(
        true_pep,
        true_pep.birth_date,
        "escalated",
        6,
        escalated_by=a,
        decision_note="Exact name and birth date on the PEP list.",
    )
    namesake = contacts[6]
    cleared = case(namesake, None, "cleared", 40, decided_by=b, decision_note="Different birth date and nationality.",
                   decided_at=s.ago(days=38), monitored=True)  # fmt: skip
    for h in cleared.hits:
        s.create(Exemption, subject_key=_key(cleared.name, cleared.birth_date), entity_id=h.entity_id,
                 screening_id=cleared.id, reason="Different birth date and nationality.", created_by=b,
                 created_at=s.ago(days=38))  # fmt: skip
    for p in contacts[9:15:3]:
        status: Status = "pending_review" if hits_for(p.name, None) else "no_match"
        s.create(Screening, schema_name="Person", name=p.name, subject_email=p.email, requested_by=b, status=status,
                 hits=hits_for(p.name, None), monitored=True, created_at=s.ago(days=3), updated_at=s.ago(days=3))  # fmt: skip
    for k, c in enumerate(pop.customers[:5]):
        s.create(Screening, schema_name="Company", name=c.name, nationality=c.address.country, requested_by=a,
                 status="no_match" if not hits_for(c.name, None, "Company") else "pending_review",
                 hits=hits_for(c.name, None, "Company"), monitored=k < 3, reference=f"ACC-{1001 + k}",
                 created_at=s.ago(days=100 - k), updated_at=s.ago(days=100 - k))  # fmt: skip
