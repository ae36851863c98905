"""Lumen Search: hosted search indices of records, their ranking settings, synonyms, rules, replicas and keys.

Modeled on the Algolia Search REST API v1 (indexes, saveObject /
partialUpdateObject / deleteObject, setSettings with searchableAttributes,
customRanking, attributesForFaceting and replicas, synonyms, query rules,
API keys with ACLs and index restrictions, and query). Records are JSON
objects with a unique ``objectID`` of at most 10 KB. A replica index shares its
primary's records and synonyms but ranks with its own settings: it cannot be
written to, cannot have replicas of its own, belongs to one primary, and must
be unlinked from its primary before it is deleted (deleting a primary turns its
replicas into ordinary indices). Custom ranking entries are ``asc(attr)`` or
``desc(attr)``; filtering on a facet needs it in ``attributesForFaceting``.
A regular synonym groups at least two words, a one-way synonym needs its input;
a query rule cannot promote and hide the same record nor promote two records to
one position. Search matches every query word (the last as a prefix, synonyms
expanded) in the searchable attributes, ranks promoted records first, then by
the first attribute matched, then by custom ranking. An API key needs the
``search`` ACL to query, only reaches the indices its patterns allow, caps the
hits per page at its ``maxHitsPerQuery`` and stops working once its validity
runs out.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import json
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, JsonValue, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "searchidx",
    title="Lumen Search",
    category="search_index",
    modeled_on="Algolia Search REST API v1 (indexes, objects, setSettings with searchableAttributes, customRanking, "
    "attributesForFaceting and replicas, synonyms, query rules, API keys with ACLs and index restrictions, query)",
    description="Hosted site search: indices of JSON records with an objectID, ranking settings (searchable "
    "attributes, custom ranking, facets), replica indices that sort differently, synonyms, merchandising rules "
    "that promote or hide results, and API keys limited by ACL, index and hits per query.",
)

IndexId = Annotated[str, IdOf("searchidx.index")]
RecordId = Annotated[str, IdOf("searchidx.record")]
SynonymId = Annotated[str, IdOf("searchidx.synonym")]
RuleId = Annotated[str, IdOf("searchidx.rule")]
KeyId = Annotated[str, IdOf("searchidx.api_key")]

IndexName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,256}$")]
"""An index name: letters, digits, dots, hyphens and underscores."""
ObjectID = Annotated[str, StringConstraints(min_length=1, max_length=512)]
"""A record's objectID."""
Attribute = Annotated[str, StringConstraints(min_length=1, max_length=200)]
"""An attribute name (searchable attributes may wrap it as unordered(name))."""
Body = dict[str, JsonValue]
"""A JSON record."""

Acl = Literal[
    "search",
    "browse",
    "addObject",
    "deleteObject",
    "deleteIndex",
    "settings",
    "editSettings",
    "analytics",
    "listIndexes",
]
Anchoring = Literal["is", "startsWith", "endsWith", "contains"]
SynonymType = Literal["synonym", "onewaysynonym"]

MAX_RECORD_BYTES = 10_000
MAX_HITS_PER_PAGE = 1000
_RANKING = re.compile(r"^(asc|desc)\(([^()]+)\)$")
_SEARCHABLE = re.compile(r"^(unordered\()?([^()]+)\)?$")


class Index(Timestamped):
    """A search index and its settings."""

    id: IndexId
    name: IndexName
    """The index's name, unique in the application."""
    searchable_attributes: tuple[Attribute, ...] = ()
    """Attributes searched, most important first (empty: all)."""
    custom_ranking: tuple[Attribute, ...] = ()
    """Tie-breaking ranking, e.g. desc(popularity), asc(price)."""
    attributes_for_faceting: tuple[Attribute, ...] = ()
    """Attributes that can filter results."""
    replicas: tuple[IndexName, ...] = ()
    """Names of the replica indices that share its records."""
    primary_id: IndexId | None = None
    """The primary index, if this is a replica."""
    record_count: int = 0
    """How many records it holds (a replica: its primary's)."""


class SearchRecord(Record):
    """A record of an index."""

    id: RecordId
    index_id: IndexId
    """The index."""
    object_id: ObjectID
    """The record's objectID, unique in its index."""
    body: Body
    """The record's attributes (objectID included)."""
    updated_at: Annotated[DateTime, CREATED]
    """When it was last saved."""


class Synonym(Record):
    """A synonym set of an index."""

    id: SynonymId
    index_id: IndexId
    """The index."""
    object_id: ObjectID
    """The synonym's objectID."""
    type: SynonymType
    """synonym (all words equivalent) or onewaysynonym (input → synonyms)."""
    input: str | None = None
    """The word a one-way synonym expands."""
    synonyms: tuple[str, ...]
    """The equivalent words."""


class Promotion(Value):
    """A record a rule pins to a position."""

    object_id: ObjectID = Field(description="The promoted record's objectID.")
    position: int = Field(ge=0, le=999, description="The 0-based position it takes.")


class QueryRule(Record):
    """A merchandising rule: for matching queries, promote or hide records."""

    id: RuleId
    index_id: IndexId
    """The index."""
    object_id: ObjectID
    """The rule's objectID."""
    pattern: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The query pattern."""
    anchoring: Anchoring = "is"
    """How the query must match the pattern: is, startsWith, endsWith or contains."""
    promote: tuple[Promotion, ...] = ()
    """Records pinned to positions."""
    hide: tuple[ObjectID, ...] = ()
    """Records removed from the results."""
    enabled: bool = True
    """Whether the rule applies."""
    description: Text = ""
    """What it is for."""


class ApiKey(Record):
    """An API key with its permissions."""

    id: KeyId
    value: str
    """The key itself."""
    description: Text = ""
    """What it is for."""
    acl: tuple[Acl, ...]
    """What it may do."""
    indexes: tuple[Annotated[str, StringConstraints(min_length=1, max_length=256)], ...] = ()
    """Index name patterns it may reach (a trailing * matches a prefix; empty: all)."""
    max_hits_per_query: int = 0
    """The most hits one query returns (0: no cap)."""
    issued_to_email: Email | None = None
    """Who the key was given to."""
    expires_at: DateTime | None = None
    """When it stops working (None: never)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


indexes = service.resource(
    Index,
    name="index",
    plural="indexes",
    prefix="ix",
    create=False,
    filters=("name", "primary_id"),
    search=("name",),
    delete=False,
)
records = service.resource(
    SearchRecord,
    name="record",
    plural="records",
    prefix="rec",
    create=False,
    get=False,
    filters=("index_id", "object_id"),
    delete=False,
)
synonyms = service.resource(
    Synonym,
    name="synonym",
    plural="synonyms",
    prefix="syn",
    create=False,
    get=False,
    filters=("index_id", "type"),
    delete=False,
)
rules = service.resource(
    QueryRule,
    name="rule",
    plural="rules",
    prefix="qr",
    create=False,
    get=False,
    filters=("index_id", "enabled", "anchoring"),
    search=("pattern", "description"),
    delete=False,
    title="query rule",
)
keys = service.resource(
    ApiKey,
    name="api_key",
    plural="api_keys",
    prefix="key",
    create=False,
    get=False,
    filters=("issued_to_email",),
    search=("description",),
    title="API key",
)


# -- rules ------------------------------------------------------------------------------------


def _index(ctx: Ctx, index_id: str, field: str = "index_id") -> Index:
    return ctx.get(Index, index_id, field=field)


def _writable(ctx: Ctx, index_id: str) -> Index:
    index = _index(ctx, index_id)
    if index.primary_id is not None:
        primary = ctx.get(Index, index.primary_id)
        raise RuleViolation(
            f"{index.name} is a replica of {primary.name}; replicas cannot be written to",
            field="index_id",
            hint=f"write to the primary index {primary.name}; its replicas follow",
        )
    return index


def _count(ctx: Ctx, index: Index, delta: int) -> None:
    ctx.update(index, record_count=max(0, index.record_count + delta))
    for name in index.replicas:
        replica = ctx.first(Index, name=name)
        if replica is not None:
            ctx.update(replica, record_count=max(0, replica.record_count + delta))


def _check_ranking(items: list[str]) -> None:
    for item in items:
        if not _RANKING.match(item):
            raise RuleViolation(
                f"invalid custom ranking {item!r}",
                field="custom_ranking",
                hint="write asc(attribute) or desc(attribute)",
            )


def _words(value: Any) -> list[str]:
    if isinstance(value, str):
        return fold(value).split()
    if isinstance(value, list):
        return [w for v in value for w in _words(v)]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [str(value)]
    return []


def _attribute(entry: str) -> str:
    m = _SEARCHABLE.match(entry)
    return m.group(2) if m else entry


def _expansions(ctx: Ctx, index: Index, word: str) -> set[str]:
    out = {word}
    for syn in ctx.where(Synonym, index_id=index.id):
        words = [fold(s) for s in syn.synonyms]
        if (syn.type == "synonym" and word in words) or (
            syn.type == "onewaysynonym" and syn.input is not None and fold(syn.input) == word
        ):
            out.update(words)
    return out


def _rank_value(body: Body, attr: str) -> Any:
    v = body.get(attr)
    return v if isinstance(v, int | float) and not isinstance(v, bool) else None


def _sort_key(index: Index, body: Body, matched_attr: int) -> tuple[Any, ...]:
    key: list[Any] = [matched_attr]
    for entry in index.custom_ranking:
        m = _RANKING.match(entry)
        if m is None:
            continue
        v = _rank_value(body, m.group(2))
        if v is None:
            key.append((1, 0))
        else:
            key.append((0, -v if m.group(1) == "desc" else v))
    return tuple(key)


def _facet_match(value: Any, wanted: str) -> bool:
    """Whether a record's facet value (or one of a list's values) folds to ``wanted``."""
    values = value if isinstance(value, list) else [value]
    return any(fold(json.dumps(v) if isinstance(v, bool) else str(v)) == wanted for v in values if v is not None)


def _rule_matches(rule: QueryRule, query: str) -> bool:
    q, p = fold(query), fold(rule.pattern)
    return {
        "is": q == p,
        "startsWith": q.startswith(p),
        "endsWith": q.endswith(p),
        "contains": p in q,
    }[rule.anchoring]


def _key_for(ctx: Ctx, api_key: str, index: Index) -> ApiKey:
    key = ctx.first(ApiKey, value=api_key)
    if key is None:
        raise NotFound("Invalid Application-ID or API key", field="api_key", hint="use a key listed by list_api_keys")
    if key.expires_at is not None and key.expires_at <= ctx.now():
        raise RuleViolation(
            f"the API key expired at {key.expires_at.isoformat()}",
            field="api_key",
            hint="create a new key with searchidx__add_api_key",
        )
    if "search" not in key.acl:
        raise RuleViolation(
            "method not allowed with this API key: it lacks the search ACL",
            field="api_key",
            hint="use a key whose ACL includes search",
        )
    if key.indexes and not any(fnmatch.fnmatchcase(index.name, p) for p in key.indexes):
        raise RuleViolation(
            f"index {index.name} not allowed with this API key (it reaches {', '.join(key.indexes)})",
            field="api_key",
            hint="use a key whose index patterns include this index",
        )
    return key


# -- examples ---------------------------------------------------------------------------------


def _primary(ctx: Ctx, name: str = "products") -> Index | None:
    return ctx.first(Index, name=name)


def _example_save(ctx: Ctx) -> dict[str, Any] | None:
    ix = _primary(ctx)
    if ix is None:
        return None
    return {
        "index_id": ix.id,
        "record": {"objectID": "SKU-NEW-1", "name": "Walnut desk organizer", "category": "Office", "price": 39.0},
    }


def _example_partial(ctx: Ctx) -> dict[str, Any] | None:
    ix = _primary(ctx)
    rec = None if ix is None else ctx.first(SearchRecord, index_id=ix.id)
    if ix is None or rec is None:
        return None
    return {"index_id": ix.id, "object_id": rec.object_id, "attributes": {"popularity": 99}}


def _example_delete(ctx: Ctx) -> dict[str, Any] | None:
    ix = _primary(ctx)
    rec = None if ix is None else ctx.first(SearchRecord, index_id=ix.id)
    return None if ix is None or rec is None else {"index_id": ix.id, "object_id": rec.object_id}


def _example_search(ctx: Ctx) -> dict[str, Any] | None:
    ix = _primary(ctx)
    rec = None if ix is None else ctx.first(SearchRecord, index_id=ix.id)
    if ix is None or rec is None:
        return None
    word = str(rec.body.get("name", "a")).split()[0]
    return {"index_id": ix.id, "query": word}


def _example_settings(ctx: Ctx) -> dict[str, Any] | None:
    ix = _primary(ctx, "help_articles")
    return None if ix is None else {"index_id": ix.id, "custom_ranking": ["desc(views)"]}


def _example_synonym(ctx: Ctx) -> dict[str, Any] | None:
    ix = _primary(ctx)
    if ix is None:
        return None
    return {"index_id": ix.id, "object_id": "syn-sofa", "type": "synonym", "synonyms": ["sofa", "couch", "settee"]}


def _example_rule(ctx: Ctx) -> dict[str, Any] | None:
    ix = _primary(ctx)
    rec = None if ix is None else ctx.first(SearchRecord, index_id=ix.id)
    if ix is None or rec is None:
        return None
    return {
        "index_id": ix.id,
        "object_id": "promo-new",
        "pattern": "new",
        "anchoring": "contains",
        "promote": [{"object_id": rec.object_id, "position": 0}],
    }


def _example_delete_index(ctx: Ctx) -> dict[str, Any] | None:
    ix = ctx.first(Index, name="staging_products")
    return None if ix is None else {"index_id": ix.id}


# -- indices and settings ---------------------------------------------------------------------


@service.tool(intent="create a search index", write=True, example=lambda ctx: {"name": "blog_posts"})
def create_index(ctx: Ctx, name: IndexName) -> Index:
    """Create an empty index; its name is unique in the application.

    Args:
        name: The index's name.
    """
    if ctx.first(Index, name=name) is not None:
        raise Conflict(f"index {name} already exists", field="name", hint="use it, or choose another name")
    return ctx.create(Index, name=name)


class IndexDeleted(BaseModel):
    """What deleting an index removed."""

    index_id: IndexId = Field(description="The deleted index.")
    records_removed: int = Field(description="How many records went with it.")
    detached_replicas: list[IndexName] = Field(description="Replicas that became ordinary indices.")


@service.tool(intent="delete the search index", write=True, destructive=True, example=_example_delete_index)
def delete_index(ctx: Ctx, index_id: IndexId) -> IndexDeleted:
    """Delete an index with its records, synonyms and rules.

    A replica must first be removed from its primary's replicas; deleting a
    primary turns its replicas into ordinary indices with a copy of the records.

    Args:
        index_id: The index.
    """
    index = _index(ctx, index_id)
    if index.primary_id is not None:
        primary = ctx.get(Index, index.primary_id)
        raise RuleViolation(
            f"{index.name} is a replica of {primary.name}; it cannot be deleted while linked",
            field="index_id",
            hint=f"remove it from {primary.name}'s replicas with searchidx__set_settings first",
        )
    recs = ctx.where(SearchRecord, index_id=index.id)
    detached: list[str] = []
    for name in index.replicas:
        replica = ctx.first(Index, name=name)
        if replica is None:
            continue
        for rec in recs:
            ctx.create(SearchRecord, index_id=replica.id, object_id=rec.object_id, body=rec.body)
        ctx.update(replica, primary_id=None, record_count=len(recs))
        detached.append(name)
    doomed: list[Record] = [*recs, *ctx.where(Synonym, index_id=index.id), *ctx.where(QueryRule, index_id=index.id)]
    for item in doomed:
        ctx.delete(item)
    ctx.delete(index)
    return IndexDeleted(index_id=index.id, records_removed=len(recs), detached_replicas=detached)


@service.tool(intent="change the index's ranking settings", write=True, example=_example_settings)
def set_settings(
    ctx: Ctx,
    index_id: IndexId,
    searchable_attributes: list[Attribute] | None = None,
    custom_ranking: list[Attribute] | None = None,
    attributes_for_faceting: list[Attribute] | None = None,
    replicas: list[IndexName] | None = None,
) -> Index:
    """Change an index's settings; only the settings given change.

    Custom ranking entries are asc(attr) or desc(attr). Replicas are created
    when missing and share the records; a replica cannot have replicas, an
    index can be the replica of one primary only, and replicas dropped from the
    list become ordinary indices.

    Args:
        index_id: The index.
        searchable_attributes: Attributes searched, most important first (unordered(attr) allowed).
        custom_ranking: Tie-breaking ranking.
        attributes_for_faceting: Attributes that can filter.
        replicas: Names of replica indices.
    """
    index = _index(ctx, index_id)
    changes: dict[str, Any] = {}
    if searchable_attributes is not None:
        changes["searchable_attributes"] = tuple(searchable_attributes)
    if custom_ranking is not None:
        _check_ranking(custom_ranking)
        changes["custom_ranking"] = tuple(custom_ranking)
    if attributes_for_faceting is not None:
        changes["attributes_for_faceting"] = tuple(attributes_for_faceting)
    if replicas is not None:
        if index.primary_id is not None:
            raise RuleViolation(
                f"{index.name} is a replica; a replica cannot have replicas",
                field="replicas",
                hint="set the replicas on the primary index",
            )
        if len(set(replicas)) != len(replicas) or index.name in replicas:
            raise RuleViolation(
                "replica names must be distinct and differ from the index", field="replicas", hint="fix the list"
            )
        for name in replicas:
            other = ctx.first(Index, name=name)
            if other is None:
                other = ctx.create(Index, name=name, record_count=index.record_count)
            elif other.primary_id not in (None, index.id):
                owner = ctx.get(Index, other.primary_id) if other.primary_id else None
                raise Conflict(
                    f"{name} is already a replica of {owner.name if owner else other.primary_id}",
                    field="replicas",
                    hint="an index can be the replica of one primary only",
                )
            elif other.replicas:
                raise RuleViolation(
                    f"{name} has replicas of its own and cannot become a replica",
                    field="replicas",
                    hint="remove its replicas first",
                )
            elif other.primary_id is None:
                for rec in ctx.where(SearchRecord, index_id=other.id):
                    ctx.delete(rec)
            ctx.update(other, primary_id=index.id, record_count=index.record_count)
        for name in index.replicas:
            if name not in replicas:
                gone = ctx.first(Index, name=name)
                if gone is not None:
                    for rec in ctx.where(SearchRecord, index_id=index.id):
                        ctx.create(SearchRecord, index_id=gone.id, object_id=rec.object_id, body=rec.body)
                    ctx.update(gone, primary_id=None)
        changes["replicas"] = tuple(replicas)
    if not changes:
        raise RuleViolation("no setting given", field="custom_ranking", hint="pass at least one setting to change")
    return ctx.update(index, **changes)


# -- records ----------------------------------------------------------------------------------


def _store(ctx: Ctx, index: Index, body: Body, field: str) -> SearchRecord:
    size = len(json.dumps(body, separators=(",", ":")).encode())
    oid = str(body["objectID"])
    if size > MAX_RECORD_BYTES:
        raise RuleViolation(
            f"record objectID={oid} is too big size={size}/{MAX_RECORD_BYTES} bytes",
            field=field,
            hint="split long text into several records, or drop attributes not needed for search",
        )
    old = ctx.first(SearchRecord, index_id=index.id, object_id=oid)
    if old is not None:
        return ctx.update(old, body=body, updated_at=ctx.now())
    made = ctx.create(SearchRecord, index_id=index.id, object_id=oid, body=body)
    _count(ctx, index, 1)
    return made


@service.tool(intent="add or replace a record in the index", write=True, example=_example_save)
def save_object(ctx: Ctx, index_id: IndexId, record: Body) -> SearchRecord:
    """Add a record, or replace the record with the same objectID (saveObject).

    Without an objectID one is generated. A record is at most 10 KB; replicas
    cannot be written to.

    Args:
        index_id: The index.
        record: The record's attributes, with its objectID.
    """
    index = _writable(ctx, index_id)
    body = dict(record)
    oid = body.get("objectID")
    if oid is None:
        body = {"objectID": f"{ctx.next_number(SearchRecord, 'object')}{ctx.rng.randrange(16**8):08x}", **body}
    elif not isinstance(oid, str) or not oid:
        raise RuleViolation("objectID must be a non-empty string", field="record", hint='e.g. "SKU-1001"')
    return _store(ctx, index, body, "record")


@service.tool(intent="update some attributes of a record", write=True, example=_example_partial)
def partial_update_object(
    ctx: Ctx, index_id: IndexId, object_id: ObjectID, attributes: Body, create_if_not_exists: bool = False
) -> SearchRecord:
    """Change some attributes of a record (partialUpdateObject); the others stay.

    Without ``create_if_not_exists`` a missing objectID is refused.

    Args:
        index_id: The index.
        object_id: The record's objectID.
        attributes: The attributes to set.
        create_if_not_exists: Create the record when it does not exist.
    """
    index = _writable(ctx, index_id)
    if "objectID" in attributes and attributes["objectID"] != object_id:
        raise RuleViolation("the objectID cannot change", field="attributes", hint="save a new record instead")
    old = ctx.first(SearchRecord, index_id=index.id, object_id=object_id)
    if old is None and not create_if_not_exists:
        raise NotFound(
            f"ObjectID {object_id} does not exist in {index.name}",
            field="object_id",
            hint="pass create_if_not_exists=true, or save the full record with searchidx__save_object",
        )
    body: Body = {**(old.body if old else {"objectID": object_id}), **attributes}
    return _store(ctx, index, body, "attributes")


class ObjectDeleted(BaseModel):
    """What deleteObject removed."""

    index_id: IndexId = Field(description="The index.")
    object_id: ObjectID = Field(description="The deleted record's objectID.")


@service.tool(intent="remove the record from the index", write=True, destructive=True, example=_example_delete)
def delete_object(ctx: Ctx, index_id: IndexId, object_id: ObjectID) -> ObjectDeleted:
    """Delete a record by objectID (deleteObject); its replicas lose it too.

    Args:
        index_id: The index.
        object_id: The record's objectID.
    """
    index = _writable(ctx, index_id)
    rec = ctx.first(SearchRecord, index_id=index.id, object_id=object_id)
    if rec is None:
        raise NotFound(f"ObjectID {object_id} does not exist in {index.name}", field="object_id", hint="list records")
    ctx.delete(rec)
    _count(ctx, index, -1)
    return ObjectDeleted(index_id=index.id, object_id=object_id)


# -- search -----------------------------------------------------------------------------------


class Hit(BaseModel):
    """One search result."""

    object_id: ObjectID = Field(description="The record's objectID.")
    record: Body = Field(description="The record.")
    promoted: bool = Field(description="Whether a query rule pinned it.")


class SearchResult(BaseModel):
    """The answer of a query."""

    hits: list[Hit] = Field(description="The page of results.")
    nb_hits: int = Field(description="How many records match.")
    page: int = Field(description="The page returned (0-based).")
    hits_per_page: int = Field(description="The page size used.")
    applied_rules: list[ObjectID] = Field(description="The objectIDs of the query rules that applied.")


@service.tool(intent="search the index", example=_example_search)
def search(
    ctx: Ctx,
    index_id: IndexId,
    query: Annotated[str, StringConstraints(max_length=512)],
    facet_filters: list[str] | None = None,
    hits_per_page: Annotated[int, Field(ge=1, le=MAX_HITS_PER_PAGE)] = 20,
    page: Annotated[int, Field(ge=0)] = 0,
    api_key: str | None = None,
) -> SearchResult:
    """Query an index: every word must match a searchable attribute (the last as a prefix, synonyms expanded).

    Results: records pinned by enabled query rules first, then by the first
    searchable attribute matched, then by custom ranking. Facet filters are
    attribute:value and need the attribute in attributes_for_faceting. With an
    API key, the key needs the search ACL, must reach the index, must not have
    expired, and caps hits_per_page at its max_hits_per_query.

    Args:
        index_id: The index (a replica ranks with its own settings).
        query: The text typed; "" matches every record.
        facet_filters: Filters such as "category:Office".
        hits_per_page: Results per page (1-1000).
        page: The page (0-based).
        api_key: The API key to query with.
    """
    index = _index(ctx, index_id)
    if api_key is not None:
        key = _key_for(ctx, api_key, index)
        if key.max_hits_per_query:
            hits_per_page = min(hits_per_page, key.max_hits_per_query)
    source = ctx.get(Index, index.primary_id) if index.primary_id else index
    filters: list[tuple[str, str]] = []
    for item in facet_filters or []:
        attr, sep, value = item.partition(":")
        if not sep:
            raise RuleViolation(f"invalid facet filter {item!r}", field="facet_filters", hint="write attribute:value")
        if attr not in index.attributes_for_faceting:
            raise RuleViolation(
                f"cannot filter on {attr}: it is not in attributes_for_faceting of {index.name}",
                field="facet_filters",
                hint=f"add {attr} to attributes_for_faceting with searchidx__set_settings",
            )
        filters.append((attr, fold(value)))
    words = fold(query).split()
    expansions = [_expansions(ctx, source, w) for w in words]
    matched: list[tuple[tuple[Any, ...], SearchRecord]] = []
    for rec in ctx.where(SearchRecord, index_id=source.id):
        body = rec.body
        if not all(_facet_match(body.get(attr), value) for attr, value in filters):
            continue
        attrs = [_attribute(a) for a in index.searchable_attributes] or [k for k in body if k != "objectID"]
        first = len(attrs)
        ok = True
        for n, options in enumerate(expansions):
            last = n == len(expansions) - 1
            hit_at = None
            for pos, attr in enumerate(attrs):
                tokens = _words(body.get(attr))
                if any(t == o or (last and t.startswith(o)) for t in tokens for o in options):
                    hit_at = pos
                    break
            if hit_at is None:
                ok = False
                break
            first = min(first, hit_at)
        if ok:
            matched.append((_sort_key(index, body, first), rec))
    matched.sort(key=lambda pair: (pair[0], pair[1].object_id))
    ordered = [rec for _, rec in matched]
    applied: list[str] = []
    promoted: set[str] = set()
    if words:
        for rule in ctx.where(QueryRule, index_id=index.id, enabled=True):
            if not _rule_matches(rule, query):
                continue
            applied.append(rule.object_id)
            hidden = set(rule.hide)
            ordered = [r for r in ordered if r.object_id not in hidden]
            for promo in sorted(rule.promote, key=lambda p: p.position):
                pinned = ctx.first(SearchRecord, index_id=source.id, object_id=promo.object_id)
                if pinned is None:
                    continue
                ordered = [r for r in ordered if r.object_id != promo.object_id]
                ordered.insert(min(promo.position, len(ordered)), pinned)
                promoted.add(promo.object_id)
    start = page * hits_per_page
    hits = [
        Hit(object_id=r.object_id, record=r.body, promoted=r.object_id in promoted)
        for r in ordered[start : start + hits_per_page]
    ]
    return SearchResult(hits=hits, nb_hits=len(ordered), page=page, hits_per_page=hits_per_page, applied_rules=applied)


# -- synonyms, rules, keys --------------------------------------------------------------------


@service.tool(intent="add a synonym to the index", write=True, example=_example_synonym)
def save_synonym(
    ctx: Ctx,
    index_id: IndexId,
    object_id: ObjectID,
    type: SynonymType,
    synonyms: list[Annotated[str, StringConstraints(min_length=1, max_length=100)]],
    input: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = None,
) -> Synonym:
    """Add or replace a synonym set (by objectID).

    A regular synonym groups at least two distinct words; a one-way synonym
    expands its input into at least one other word.

    Args:
        index_id: The index.
        object_id: The synonym's objectID.
        type: synonym or onewaysynonym.
        synonyms: The words.
        input: The word a one-way synonym expands.
    """
    index = _index(ctx, index_id)
    distinct = {fold(s) for s in synonyms}
    if type == "synonym":
        if len(distinct) < 2:
            raise RuleViolation(
                "a synonym needs at least two distinct words", field="synonyms", hint="list the equivalent words"
            )
        if input is not None:
            raise RuleViolation("only a one-way synonym takes an input", field="input", hint="drop input")
    else:
        if input is None:
            raise RuleViolation("a one-way synonym needs its input", field="input", hint="give the word to expand")
        if not distinct - {fold(input)}:
            raise RuleViolation(
                "a one-way synonym expands its input into another word", field="synonyms", hint="add another word"
            )
    old = ctx.first(Synonym, index_id=index.id, object_id=object_id)
    fields = {"type": type, "input": input, "synonyms": tuple(synonyms)}
    if old is not None:
        return ctx.update(old, **fields)
    return ctx.create(Synonym, index_id=index.id, object_id=object_id, **fields)


@service.tool(intent="add a merchandising rule", write=True, example=_example_rule)
def save_rule(
    ctx: Ctx,
    index_id: IndexId,
    object_id: ObjectID,
    pattern: Annotated[str, StringConstraints(min_length=1, max_length=200)],
    anchoring: Anchoring = "is",
    promote: list[Promotion] | None = None,
    hide: list[ObjectID] | None = None,
    description: Text = "",
) -> QueryRule:
    """Add or replace a query rule (by objectID) that promotes or hides records for matching queries.

    A rule needs a consequence; it cannot promote and hide the same record, nor
    promote two records to one position or one record twice.

    Args:
        index_id: The index.
        object_id: The rule's objectID.
        pattern: The query pattern.
        anchoring: is, startsWith, endsWith or contains.
        promote: Records pinned to positions.
        hide: Records removed from the results.
        description: What it is for.
    """
    index = _index(ctx, index_id)
    promote = promote or []
    hide = hide or []
    if not promote and not hide:
        raise RuleViolation("a rule needs a consequence", field="promote", hint="promote or hide at least one record")
    ids = [p.object_id for p in promote]
    if len(set(ids)) != len(ids) or len({p.position for p in promote}) != len(promote):
        raise RuleViolation(
            "each promoted record once and each position once", field="promote", hint="fix the promotions"
        )
    both = set(ids) & set(hide)
    if both:
        raise RuleViolation(
            f"cannot promote and hide the same record ({', '.join(sorted(both))})",
            field="hide",
            hint="either promote it or hide it",
        )
    fields = {
        "pattern": pattern,
        "anchoring": anchoring,
        "promote": tuple(promote),
        "hide": tuple(hide),
        "description": description,
    }
    old = ctx.first(QueryRule, index_id=index.id, object_id=object_id)
    if old is not None:
        return ctx.update(old, **fields)
    return ctx.create(QueryRule, index_id=index.id, object_id=object_id, **fields)


@service.tool(
    intent="create an API key",
    write=True,
    example=lambda ctx: {"acl": ["search"], "indexes": ["products*"], "description": "Storefront search"},
)
def add_api_key(
    ctx: Ctx,
    acl: Annotated[list[Acl], Field(min_length=1)],
    indexes: list[Annotated[str, StringConstraints(min_length=1, max_length=256)]] | None = None,
    description: Text = "",
    max_hits_per_query: Annotated[int, Field(ge=0, le=1000)] = 0,
    validity_seconds: Annotated[int, Field(ge=0)] = 0,
    issued_to_email: Email | None = None,
) -> ApiKey:
    """Create an API key limited by ACL, index patterns and hits per query, valid for a while or for ever.

    Args:
        acl: What it may do (at least one of search, browse, addObject, …).
        indexes: Index name patterns it may reach (a trailing * matches a prefix); none: all.
        description: What it is for.
        max_hits_per_query: The most hits one query returns (0: no cap).
        validity_seconds: How long it works (0: for ever).
        issued_to_email: Who it is given to.
    """
    if len(set(acl)) != len(acl):
        raise RuleViolation("each ACL once", field="acl", hint="remove the repeated entries")
    for pattern in indexes or []:
        if "*" in pattern.rstrip("*") or not re.match(r"^[A-Za-z0-9_.*-]+$", pattern):
            raise RuleViolation(
                f"invalid index pattern {pattern!r}", field="indexes", hint="use an index name, optionally ending in *"
            )
    value = "".join(ctx.rng.choice("0123456789abcdef") for _ in range(32))
    return ctx.create(
        ApiKey,
        value=value,
        description=description,
        acl=tuple(acl),
        indexes=tuple(indexes or ()),
        max_hits_per_query=max_hits_per_query,
        issued_to_email=issued_to_email,
        expires_at=ctx.now() + dt.timedelta(seconds=validity_seconds) if validity_seconds else None,
    )


# -- seed -------------------------------------------------------------------------------------

ARTICLES = (
    ("How to return an item", "Start a return from your orders page within 30 days.", 1800),
    ("Shipping times and costs", "Standard shipping takes three to five business days.", 2400),
    ("Resetting your password", "Use the forgot password link on the sign in page.", 950),
    ("Changing your delivery address", "You can change the address until the order ships.", 700),
    ("Warranty for electronics", "Electronics carry a two year warranty against defects.", 400),
    ("Paying with a gift card", "Enter the gift card code at checkout before paying.", 300),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The product catalogue with price replicas, help articles, a staging copy, synonyms, rules and keys."""
    pop = s.population
    now = s.now
    products = list(pop.products)
    engineers = pop.staff("Engineering", fallback=3)

    def index(name: str, days: int, **settings: Any) -> Index:
        when = now - dt.timedelta(days=days)
        return s.create(Index, name=name, created_at=when, updated_at=when, **settings)

    catalog = index(
        "products",
        400,
        searchable_attributes=("name", "category", "unordered(description)"),
        custom_ranking=("desc(popularity)",),
        attributes_for_faceting=("category", "in_stock"),
        replicas=("products_price_asc", "products_price_desc"),
        record_count=len(products),
    )
    for name, order in (("products_price_asc", "asc(price)"), ("products_price_desc", "desc(price)")):
        index(
            name,
            300,
            searchable_attributes=catalog.searchable_attributes,
            custom_ranking=(order,),
            attributes_for_faceting=("category",),
            primary_id=catalog.id,
            record_count=len(products),
        )
    help_ix = index("help_articles", 500, searchable_attributes=("title", "body"), record_count=len(ARTICLES))
    staging = index("staging_products", 20, record_count=min(3, len(products)))
    for k, p in enumerate(products):
        body: Body = {
            "objectID": p.sku,
            "name": p.name,
            "category": p.category,
            "price": round(p.price_cents / 100, 2),
            "popularity": (k * 37) % 100,
            "in_stock": k % 7 != 3,
            "description": f"{p.name} from our {p.category.lower()} range.",
        }
        s.create(SearchRecord, index_id=catalog.id, object_id=p.sku, body=body, updated_at=now - dt.timedelta(days=k))
        if k < 3:
            s.create(SearchRecord, index_id=staging.id, object_id=p.sku, body=body, updated_at=now)
    for k, (title, text, views) in enumerate(ARTICLES):
        oid = f"help-{k + 1}"
        s.create(
            SearchRecord,
            index_id=help_ix.id,
            object_id=oid,
            body={"objectID": oid, "title": title, "body": text, "views": views},
            updated_at=now - dt.timedelta(days=30 + k),
        )
    s.create(Synonym, index_id=catalog.id, object_id="syn-laptop", type="synonym", synonyms=("laptop", "notebook"))
    s.create(
        Synonym,
        index_id=catalog.id,
        object_id="syn-tv",
        type="onewaysynonym",
        input="tv",
        synonyms=("television", "monitor"),
    )
    s.create(Synonym, index_id=help_ix.id, object_id="syn-refund", type="synonym", synonyms=("refund", "return"))
    if len(products) >= 3:
        s.create(
            QueryRule,
            index_id=catalog.id,
            object_id="sale-promo",
            pattern="sale",
            anchoring="contains",
            promote=(Promotion(object_id=products[2].sku, position=0),),
            hide=(products[1].sku,),
            description="Spring sale: pin the featured product",
        )
    s.create(
        QueryRule,
        index_id=catalog.id,
        object_id="old-campaign",
        pattern="black friday",
        anchoring="is",
        promote=(Promotion(object_id=products[0].sku, position=0),),
        enabled=False,
    )
    partner = pop.first_contact(pop.customers[0]) if pop.customers else None
    plan: tuple[tuple[str, tuple[str, ...], tuple[str, ...], int, str | None, dt.datetime | None, int], ...] = (
        ("Storefront search-only key", ("search",), ("products*",), 50, None, None, 300),
        ("Help center widget", ("search",), ("help_articles",), 10, None, None, 200),
        (
            "Catalog sync job",
            ("addObject", "deleteObject", "settings", "editSettings"),
            ("products",),
            0,
            engineers[0].email,
            None,
            150,
        ),
        (
            "Partner feed (expired)",
            ("search", "browse"),
            ("products",),
            100,
            partner.email if partner else None,
            now - dt.timedelta(days=10),
            100,
        ),
        ("Analytics dashboard", ("analytics", "listIndexes"), (), 0, engineers[-1].email, None, 90),
    )
    for desc, acl, patterns, cap, who, expires, days in plan:
        s.create(
            ApiKey,
            value="".join(s.rng.choice("0123456789abcdef") for _ in range(32)),
            description=desc,
            acl=acl,
            indexes=patterns,
            max_hits_per_query=cap,
            issued_to_email=who,
            expires_at=expires,
            created_at=now - dt.timedelta(days=days),
        )
