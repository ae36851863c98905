"""Lode Documents: the company's document database clusters, collections, JSON documents and indexes.

Modeled on the MongoDB Atlas Data API v1 (the action endpoints findOne, find,
insertOne, updateOne and deleteOne over a data source, database and
collection) with the Atlas Administration API v2 for clusters (pause and
resume) and the createIndexes / dropIndexes commands. Filters take a subset of
the query language: equality on a field or dotted path (an array matches when
it holds the value), ``$eq``, ``$gt``, ``$lt`` and ``$in`` (which needs an
array); any other operator is refused as unknown. Updates take ``$set``,
``$inc`` (numbers only) and ``$unset``; a document without operators, an
unknown modifier, two operators on one path and any change of ``_id`` are
refused, and ``upsert`` inserts from the filter's equalities. Documents are
JSON objects of at most 16 MB whose field names do not start with ``$``; each
has a unique string ``_id`` (an ObjectId is generated when none is given).
Unique indexes refuse duplicates (E11000; a missing field counts as null) and
cannot be built over existing duplicates; the ``_id_`` index cannot be dropped;
a collection has at most 64 indexes. Database names are at most 64 characters
without slashes, backslashes, dots, quotes, ``$`` or spaces; collection names hold no ``$`` and do not start with
``system.``. A paused cluster serves no data; a free M0 cluster cannot be
paused and stops taking writes at its 512 MB storage quota; a cluster resumed
less than 60 minutes ago cannot be paused again.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, JsonValue, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "docstore",
    title="Lode Documents",
    category="database",
    modeled_on="MongoDB Atlas Data API v1 (findOne, find, insertOne, updateOne, deleteOne) with the Atlas "
    "Administration API v2 for clusters (pause, resume) and createIndexes / dropIndexes",
    description="A hosted document database: clusters (which can be paused), databases and collections of JSON "
    "documents, queried with filters ($eq, $gt, $lt, $in) and changed with $set, $inc and $unset, and unique "
    "indexes that refuse duplicate values.",
)

ClusterId = Annotated[str, IdOf("docstore.cluster")]
CollectionId = Annotated[str, IdOf("docstore.collection")]
DocumentId = Annotated[str, IdOf("docstore.document")]
IndexId = Annotated[str, IdOf("docstore.index")]

DbName = Annotated[str, StringConstraints(min_length=1, max_length=120)]
"""A database name (at most 64 characters without slashes, dots, quotes, $ or spaces)."""
CollName = Annotated[str, StringConstraints(min_length=1, max_length=255)]
"""A collection name (no $, not starting with system.)."""
FieldPath = Annotated[str, StringConstraints(min_length=1, max_length=255)]
"""A field name or dotted path into embedded documents, e.g. address.city."""
Doc = dict[str, JsonValue]
"""A JSON document."""

Tier = Literal["M0", "M10", "M20", "M30", "M40"]
ClusterState = Literal["IDLE", "PAUSED"]

STORAGE_LIMIT: dict[str, int] = {
    "M0": 512 * 1024**2,
    "M10": 10 * 1024**3,
    "M20": 20 * 1024**3,
    "M30": 40 * 1024**3,
    "M40": 80 * 1024**3,
}
"""Storage quota in bytes by cluster tier."""
MAX_DOC_BYTES = 16 * 1024**2
MAX_INDEXES = 64
MAX_FREE_COLLECTIONS = 500
MAX_NAMESPACE = 255
RESUME_COOLDOWN = dt.timedelta(minutes=60)
QUERY_OPS = frozenset({"$eq", "$gt", "$lt", "$in"})
UPDATE_OPS = frozenset({"$set", "$inc", "$unset"})
_BAD_DB = re.compile(r'[/\\. "$*<>:|?]')
_MISSING = object()


class Cluster(Created):
    """A database cluster (its deployment); documents live in its databases."""

    id: ClusterId
    name: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9-]{0,63}$")]
    """The cluster's name."""
    tier: Tier
    """M0 (free, shared), M10, M20, M30 or M40."""
    region: str
    """The cloud region it runs in."""
    state: ClusterState = "IDLE"
    """IDLE (serving) or PAUSED (no reads or writes)."""
    storage_used_bytes: int = 0
    """Data stored, in bytes."""
    storage_limit_bytes: int
    """The tier's storage quota."""
    owner_email: Email
    """The staff member who owns the project."""
    paused_at: DateTime | None = None
    """When it was last paused."""
    resumed_at: DateTime | None = None
    """When it was last resumed."""


class Collection(Created):
    """A collection of documents in one database of a cluster."""

    id: CollectionId
    cluster_id: ClusterId
    """The cluster."""
    database: DbName
    """The database."""
    name: CollName
    """The collection's name."""
    document_count: int = 0
    """How many documents it holds."""


class Document(Record):
    """A JSON document of a collection."""

    id: DocumentId
    collection_id: CollectionId
    """The collection."""
    doc_id: str
    """The document's ``_id``."""
    body: Doc
    """The document, ``_id`` included."""
    size_bytes: int
    """Its stored size in bytes."""
    created_at: Annotated[DateTime, CREATED]
    """When it was inserted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class IndexKey(Value):
    """One field of an index key pattern."""

    field: FieldPath = Field(description="The indexed field or dotted path.")
    direction: Literal[1, -1] = Field(default=1, description="1 ascending, -1 descending.")


class Index(Created):
    """An index of a collection."""

    id: IndexId
    collection_id: CollectionId
    """The collection."""
    name: Annotated[str, StringConstraints(min_length=1, max_length=127)]
    """The index's name, unique in its collection (e.g. email_1)."""
    keys: tuple[IndexKey, ...]
    """The key pattern."""
    unique: bool = False
    """Whether two documents may not share the indexed values."""


def _guard_pause(ctx: Ctx, new: Any, old: Any) -> None:
    if new.state == old.state:
        return
    if new.state == "PAUSED":
        if old.tier == "M0":
            raise RuleViolation(
                f"cluster {old.name} is a free M0 cluster, which cannot be paused",
                field="cluster_id",
                hint="only dedicated clusters (M10 and up) can be paused",
            )
        if old.resumed_at is not None and ctx.now() - old.resumed_at < RESUME_COOLDOWN:
            raise RuleViolation(
                f"cluster {old.name} was resumed at {old.resumed_at.isoformat()}; it cannot be paused within "
                "60 minutes of resuming",
                field="cluster_id",
                hint=f"try again after {(old.resumed_at + RESUME_COOLDOWN).isoformat()}",
            )
        ctx.update(new, paused_at=ctx.now())
    else:
        ctx.update(new, resumed_at=ctx.now())


clusters = service.resource(
    Cluster,
    name="cluster",
    plural="clusters",
    prefix="clu",
    create=False,
    filters=("name", "tier", "state", "owner_email"),
    search=("name",),
    delete=False,
    transitions={
        "pause": Transition(
            "state",
            ("IDLE",),
            "PAUSED",
            "pause the database cluster",
            description="Pause a dedicated cluster: it stops serving reads and writes until resumed. Free M0 "
            "clusters cannot be paused, nor a cluster within 60 minutes of its last resume.",
        ),
        "resume": Transition(
            "state", ("PAUSED",), "IDLE", "resume the database cluster", description="Resume a paused cluster."
        ),
    },
    guard_update=_guard_pause,
)
collections = service.resource(
    Collection,
    name="collection",
    plural="collections",
    prefix="coll",
    create=False,
    filters=("cluster_id", "database", "name"),
    search=("name", "database"),
    delete=False,
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=False,
    get=False,
    filters=("collection_id", "doc_id"),
    delete=False,
)
indexes = service.resource(
    Index,
    name="index",
    plural="indexes",
    prefix="idx",
    create=False,
    get=False,
    filters=("collection_id", "name", "unique"),
    delete=False,
)


# -- documents as JSON ------------------------------------------------------------------------


def _size(body: Doc) -> int:
    return len(json.dumps(body, sort_keys=True, separators=(",", ":")).encode())


def _lookup(doc: Any, path: str) -> Any:
    """The value at a dotted path, or ``_MISSING``."""
    cur = doc
    for part in path.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return _MISSING
    return cur


def _kind(v: Any) -> str:
    if v is None or v is _MISSING:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int | float):
        return "number"
    return type(v).__name__


def _same(a: Any, b: Any) -> bool:
    return _kind(a) == _kind(b) and (a is _MISSING or a == b or (a is None and b is None))


def _eq(value: Any, q: Any) -> bool:
    if isinstance(value, list) and not isinstance(q, list):
        return any(_same(v, q) for v in value)
    if value is _MISSING:
        return q is None
    return _same(value, q)


def _cmp(value: Any, q: Any, op: str) -> bool:
    items = value if isinstance(value, list) else [value]
    for v in items:
        comparable = _kind(v) == _kind(q) and _kind(q) in ("number", "str")
        if comparable and ((op == "$gt" and v > q) or (op == "$lt" and v < q)):
            return True
    return False


def check_filter(flt: Doc, field: str = "filter") -> None:
    """Refuse operators outside the supported subset."""
    for key, cond in flt.items():
        if key.startswith("$"):
            raise RuleViolation(
                f"unknown top level operator: {key}",
                field=field,
                hint="filter on fields with equality, $eq, $gt, $lt or $in; combine conditions as several fields",
            )
        if isinstance(cond, dict) and any(k.startswith("$") for k in cond):
            for op, arg in cond.items():
                if op not in QUERY_OPS:
                    raise RuleViolation(
                        f"unknown operator: {op}", field=field, hint="use $eq, $gt, $lt or $in (this API's subset)"
                    )
                if op == "$in" and not isinstance(arg, list):
                    raise RuleViolation(f"$in needs an array (field {key})", field=field, hint='write {"$in": [...]}')


def matches(body: Doc, flt: Doc) -> bool:
    """Whether a document matches a (checked) filter."""
    for key, cond in flt.items():
        value = _lookup(body, key)
        if isinstance(cond, dict) and any(k.startswith("$") for k in cond):
            for op, arg in cond.items():
                if op == "$eq" and not _eq(value, arg):
                    return False
                if op in ("$gt", "$lt") and not _cmp(value, arg, op):
                    return False
                if op == "$in" and not any(_eq(value, a) for a in arg):  # type: ignore[union-attr]
                    return False
        elif not _eq(value, cond):
            return False
    return True


def _check_names(doc: Any, where: str = "document") -> None:
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k.startswith("$") or not k:
                raise RuleViolation(
                    f"field name {k!r} is not allowed: field names cannot be empty or start with $",
                    field=where,
                    hint="rename the field",
                )
            _check_names(v, where)
    elif isinstance(doc, list):
        for v in doc:
            _check_names(v, where)


def _set_path(doc: Doc, path: str, value: Any) -> None:
    parts = path.split(".")
    cur: Any = doc
    for part in parts[:-1]:
        nxt = cur.get(part)
        if nxt is None:
            nxt = cur[part] = {}
        if not isinstance(nxt, dict):
            raise RuleViolation(
                f"cannot create field {parts[-1]!r} in element {{{part}: {json.dumps(nxt)}}}",
                field="update",
                hint="set a path through embedded documents only",
            )
        cur = nxt
    cur[parts[-1]] = value


def _unset_path(doc: Doc, path: str) -> None:
    parts = path.split(".")
    cur: Any = doc
    for part in parts[:-1]:
        cur = cur.get(part) if isinstance(cur, dict) else None
    if isinstance(cur, dict):
        cur.pop(parts[-1], None)


def apply_update(body: Doc, update: Doc) -> Doc:
    """A copy of ``body`` with the update operators applied (refusing what the server refuses)."""
    if not update:
        raise RuleViolation("the update is empty", field="update", hint='give {"$set": {...}} or {"$inc": {...}}')
    plain = [k for k in update if not k.startswith("$")]
    if plain:
        raise RuleViolation(
            f"update document requires atomic operators (found field {plain[0]!r})",
            field="update",
            hint='wrap the new values in {"$set": {...}}',
        )
    seen: set[str] = set()
    out = copy.deepcopy(body)
    for op, args in update.items():
        if op not in UPDATE_OPS:
            raise RuleViolation(f"unknown modifier: {op}", field="update", hint="use $set, $inc or $unset")
        if not isinstance(args, dict) or not args:
            raise RuleViolation(
                f"{op} needs a non-empty object", field="update", hint=f'write {{"{op}": {{"field": …}}}}'
            )
        for path, arg in args.items():
            if path == "_id" or path.startswith("_id."):
                raise RuleViolation(
                    "performing an update on the path '_id' would modify the immutable field '_id'",
                    field="update",
                    hint="insert a new document with the other _id and delete this one",
                )
            if any(path == s or path.startswith(s + ".") or s.startswith(path + ".") for s in seen):
                raise RuleViolation(
                    f"updating the path {path!r} would create a conflict", field="update", hint="name each path once"
                )
            seen.add(path)
            if op == "$set":
                _check_names(arg, "update")
                _set_path(out, path, copy.deepcopy(arg))
            elif op == "$unset":
                _unset_path(out, path)
            else:
                current = _lookup(out, path)
                if _kind(arg) != "number":
                    raise RuleViolation(
                        f"cannot increment with non-numeric argument: {{{path}: {json.dumps(arg)}}}",
                        field="update",
                        hint="$inc takes a number",
                    )
                if current is _MISSING:
                    _set_path(out, path, arg)
                elif _kind(current) != "number":
                    raise RuleViolation(
                        f"cannot apply $inc to a value of non-numeric type ({path} is {_kind(current)})",
                        field="update",
                        hint="use $set to replace it",
                    )
                else:
                    _set_path(out, path, current + arg)
    return out


# -- rules ------------------------------------------------------------------------------------


def _serving(ctx: Ctx, cluster_id: str, field: str = "collection_id") -> Cluster:
    cluster = ctx.get(Cluster, cluster_id, field=field)
    if cluster.state == "PAUSED":
        raise RuleViolation(
            f"cluster {cluster.name} is paused and serves no reads or writes",
            field=field,
            hint="resume it with docstore__resume_cluster",
        )
    return cluster


def _collection(ctx: Ctx, collection_id: str) -> tuple[Collection, Cluster]:
    coll = ctx.get(Collection, collection_id, field="collection_id")
    return coll, _serving(ctx, coll.cluster_id)


def _index_values(body: Doc, index: Index) -> tuple[str, ...]:
    out = []
    for key in index.keys:
        v = _lookup(body, key.field)
        out.append(json.dumps(None if v is _MISSING else v, sort_keys=True))
    return tuple(out)


def _check_unique(ctx: Ctx, coll: Collection, body: Doc, skip: str | None) -> None:
    for index in ctx.where(Index, collection_id=coll.id, unique=True):
        values = _index_values(body, index)
        for other in ctx.where(Document, collection_id=coll.id):
            if other.id != skip and _index_values(other.body, index) == values:
                shown = ", ".join(f"{k.field}: {v}" for k, v in zip(index.keys, values, strict=True))
                raise Conflict(
                    f"E11000 duplicate key error collection: {coll.database}.{coll.name} index: {index.name} "
                    f"dup key: {{ {shown} }}",
                    field="document" if skip is None else "update",
                    hint=f"document {other.doc_id} already has this value; update it instead, or use another value",
                )


def _room(ctx: Ctx, cluster: Cluster, grow: int) -> None:
    if grow > 0 and cluster.storage_used_bytes + grow > cluster.storage_limit_bytes:
        used, limit = cluster.storage_used_bytes // 1024**2, cluster.storage_limit_bytes // 1024**2
        raise RuleViolation(
            f"you are over your space quota, using {used} MB of {limit} MB on {cluster.name}",
            field="document",
            hint="delete documents you no longer need, or move to a larger tier",
        )


def _object_id(ctx: Ctx) -> str:
    return f"{int(ctx.now().timestamp()):08x}" + "".join(ctx.rng.choice("0123456789abcdef") for _ in range(16))


def _find(ctx: Ctx, coll: Collection, flt: Doc) -> list[Document]:
    check_filter(flt)
    return [d for d in ctx.where(Document, collection_id=coll.id) if matches(d.body, flt)]


def _insert(ctx: Ctx, coll: Collection, cluster: Cluster, document: Doc) -> Document:
    _check_names(document)
    body = copy.deepcopy(document)
    given = body.get("_id", _MISSING)
    if given is _MISSING:
        body = {"_id": _object_id(ctx), **body}
    elif not isinstance(given, str) or not given:
        raise RuleViolation("_id must be a non-empty string here", field="document", hint="omit _id to get an ObjectId")
    doc_id = str(body["_id"])
    if ctx.first(Document, collection_id=coll.id, doc_id=doc_id) is not None:
        raise Conflict(
            f"E11000 duplicate key error collection: {coll.database}.{coll.name} index: _id_ dup key: {{ _id: "
            f'"{doc_id}" }}',
            field="document",
            hint="use another _id, or update the existing document",
        )
    size = _size(body)
    if size > MAX_DOC_BYTES:
        raise RuleViolation(
            f"document is {size} bytes; the limit is 16 MB", field="document", hint="split it into several"
        )
    _room(ctx, cluster, size)
    _check_unique(ctx, coll, body, None)
    made = ctx.create(Document, collection_id=coll.id, doc_id=doc_id, body=body, size_bytes=size)
    ctx.update(coll, document_count=coll.document_count + 1)
    ctx.update(cluster, storage_used_bytes=cluster.storage_used_bytes + size)
    return made


# -- examples ---------------------------------------------------------------------------------


def _live_collection(ctx: Ctx, name: str | None = None) -> Collection | None:
    for coll in ctx.scan(Collection):
        if (name is None or coll.name == name) and ctx.get(Cluster, coll.cluster_id).state == "IDLE":
            return coll
    return None


def _example_insert(ctx: Ctx) -> dict[str, Any] | None:
    coll = _live_collection(ctx, "orders")
    if coll is None:
        return None
    return {
        "collection_id": coll.id,
        "document": {"order_number": "SO-90001", "status": "pending", "total": 129.5, "items": ["DOCK-01"]},
    }


def _example_find(ctx: Ctx) -> dict[str, Any] | None:
    coll = _live_collection(ctx, "orders")
    return None if coll is None else {"collection_id": coll.id, "filter": {"total": {"$gt": 100}}}


def _example_update(ctx: Ctx) -> dict[str, Any] | None:
    coll = _live_collection(ctx, "orders")
    doc = None if coll is None else ctx.first(Document, collection_id=coll.id)
    if coll is None or doc is None:
        return None
    return {"collection_id": coll.id, "filter": {"_id": doc.doc_id}, "update": {"$set": {"status": "shipped"}}}


def _example_delete(ctx: Ctx) -> dict[str, Any] | None:
    coll = _live_collection(ctx, "sessions")
    doc = None if coll is None else ctx.first(Document, collection_id=coll.id)
    return None if coll is None or doc is None else {"collection_id": coll.id, "filter": {"_id": doc.doc_id}}


def _example_create_collection(ctx: Ctx) -> dict[str, Any] | None:
    cluster = ctx.first(Cluster, state="IDLE")
    return None if cluster is None else {"cluster_id": cluster.id, "database": "shop", "name": "returns"}


def _example_index(ctx: Ctx) -> dict[str, Any] | None:
    coll = _live_collection(ctx, "orders")
    return None if coll is None else {"collection_id": coll.id, "keys": [{"field": "status", "direction": 1}]}


def _example_drop_index(ctx: Ctx) -> dict[str, Any] | None:
    for index in ctx.scan(Index):
        if index.name != "_id_" and _live(ctx, index.collection_id):
            return {"collection_id": index.collection_id, "name": index.name}
    return None


def _live(ctx: Ctx, collection_id: str) -> bool:
    return ctx.get(Cluster, ctx.get(Collection, collection_id).cluster_id).state == "IDLE"


# -- collections ------------------------------------------------------------------------------


@service.tool(intent="create a collection", write=True, example=_example_create_collection)
def create_collection(ctx: Ctx, cluster_id: ClusterId, database: DbName, name: CollName) -> Collection:
    """Create a collection (and its database, if new) with its ``_id_`` index.

    A database name has at most 64 characters without slashes, backslashes,
    dots, quotes, $, *, <, >, :, |, ? or spaces; a collection name holds no $ and does not start with system.;
    database.collection is at most 255 bytes. A free M0 cluster holds at most
    500 collections.

    Args:
        cluster_id: The cluster.
        database: The database.
        name: The collection's name.
    """
    cluster = _serving(ctx, cluster_id, "cluster_id")
    if len(database) > 64 or _BAD_DB.search(database):
        raise RuleViolation(
            f'invalid database name {database!r}: at most 64 characters, none of / \\ . " $ * < > : | ? or spaces',
            field="database",
            hint="use letters, digits, hyphens and underscores",
        )
    if "$" in name or name.startswith("system."):
        raise RuleViolation(
            f"invalid collection name {name!r}: no $ and no system. prefix",
            field="name",
            hint="use letters, digits, dots and underscores",
        )
    if len(f"{database}.{name}".encode()) > MAX_NAMESPACE:
        raise RuleViolation("the namespace database.collection exceeds 255 bytes", field="name", hint="shorten it")
    if ctx.first(Collection, cluster_id=cluster.id, database=database, name=name) is not None:
        raise Conflict(
            f"NamespaceExists: collection {database}.{name} already exists",
            field="name",
            hint="use the existing collection",
        )
    if cluster.tier == "M0" and len(ctx.where(Collection, cluster_id=cluster.id)) >= MAX_FREE_COLLECTIONS:
        raise RuleViolation(
            f"a free M0 cluster holds at most {MAX_FREE_COLLECTIONS} collections",
            field="cluster_id",
            hint="drop unused collections or move to a dedicated tier",
        )
    coll = ctx.create(Collection, cluster_id=cluster.id, database=database, name=name)
    ctx.create(Index, collection_id=coll.id, name="_id_", keys=(IndexKey(field="_id"),), unique=True)
    return coll


class Dropped(BaseModel):
    """What dropping a collection removed."""

    collection_id: CollectionId = Field(description="The dropped collection.")
    namespace: str = Field(description="Its database.collection.")
    documents_removed: int = Field(description="How many documents went with it.")
    indexes_removed: int = Field(description="How many indexes went with it.")


@service.tool(
    intent="drop the collection",
    write=True,
    destructive=True,
    example=first_example(Collection, "collection_id", match=lambda ctx, c: _live(ctx, c.id) and c.name == "sessions"),
)
def drop_collection(ctx: Ctx, collection_id: CollectionId) -> Dropped:
    """Drop a collection with all its documents and indexes; this cannot be undone.

    Args:
        collection_id: The collection.
    """
    coll, cluster = _collection(ctx, collection_id)
    docs = ctx.where(Document, collection_id=coll.id)
    idx = ctx.where(Index, collection_id=coll.id)
    for rec in (*docs, *idx):
        ctx.delete(rec)
    ctx.update(cluster, storage_used_bytes=max(0, cluster.storage_used_bytes - sum(d.size_bytes for d in docs)))
    ctx.delete(coll)
    return Dropped(
        collection_id=coll.id,
        namespace=f"{coll.database}.{coll.name}",
        documents_removed=len(docs),
        indexes_removed=len(idx),
    )


# -- documents --------------------------------------------------------------------------------


class InsertResult(BaseModel):
    """The answer of insertOne."""

    inserted_id: str = Field(description="The new document's _id.")
    document: Document = Field(description="The stored document.")


@service.tool(intent="insert a document", write=True, example=_example_insert)
def insert_one(ctx: Ctx, collection_id: CollectionId, document: Doc) -> InsertResult:
    """Insert one document (insertOne).

    Without an ``_id`` an ObjectId is generated; a given ``_id`` must be a
    string not yet used in the collection. Field names cannot start with $;
    unique indexes refuse duplicate values; a document is at most 16 MB.

    Args:
        collection_id: The collection.
        document: The document, a JSON object.
    """
    coll, cluster = _collection(ctx, collection_id)
    made = _insert(ctx, coll, cluster, document)
    return InsertResult(inserted_id=made.doc_id, document=made)


class FindOneResult(BaseModel):
    """The answer of findOne."""

    document: Doc | None = Field(description="The first matching document, or null.")


@service.tool(intent="find one document", example=_example_find)
def find_one(ctx: Ctx, collection_id: CollectionId, filter: Doc) -> FindOneResult:
    """Find the first document (in insertion order) that matches a filter (findOne).

    Args:
        collection_id: The collection.
        filter: Field conditions: a value for equality, or {"$eq"|"$gt"|"$lt": value} or {"$in": [values]};
            dotted paths reach into embedded documents; {} matches everything.
    """
    coll, _ = _collection(ctx, collection_id)
    found = _find(ctx, coll, filter)
    return FindOneResult(document=found[0].body if found else None)


class FindResult(BaseModel):
    """The answer of find."""

    documents: list[Doc] = Field(description="The matching documents.")
    total_matched: int = Field(description="How many documents matched before the limit.")


@service.tool(intent="find documents", example=_example_find)
def find(
    ctx: Ctx,
    collection_id: CollectionId,
    filter: Doc,
    sort_by: FieldPath | None = None,
    descending: bool = False,
    limit: Annotated[int, Field(ge=1, le=1000)] = 100,
) -> FindResult:
    """Find the documents that match a filter (find), optionally sorted by one field.

    Args:
        collection_id: The collection.
        filter: Field conditions as in findOne ($eq, $gt, $lt, $in); {} matches everything.
        sort_by: A field or dotted path to sort by (missing values first when ascending).
        descending: Sort from the largest value.
        limit: At most this many documents (1-1000).
    """
    coll, _ = _collection(ctx, collection_id)
    found = _find(ctx, coll, filter)
    if sort_by is not None:
        order = {"null": 0, "number": 1, "str": 2, "dict": 3, "list": 4, "bool": 5}

        def key(d: Document) -> tuple[int, Any]:
            v = _lookup(d.body, sort_by)
            k = _kind(v)
            return (
                order.get(k, 6),
                v if k in ("number", "str", "bool") else json.dumps(v, sort_keys=True, default=str),
            )

        found.sort(key=key, reverse=descending)
    return FindResult(documents=[d.body for d in found[:limit]], total_matched=len(found))


class UpdateResult(BaseModel):
    """The answer of updateOne."""

    matched_count: int = Field(description="0 or 1.")
    modified_count: int = Field(description="0 or 1 (0 when the update changed nothing).")
    upserted_id: str | None = Field(description="The _id of a document the upsert inserted.")


@service.tool(intent="update a document", write=True, example=_example_update)
def update_one(
    ctx: Ctx,
    collection_id: CollectionId,
    filter: Doc,
    update: Doc,
    upsert: bool = False,
) -> UpdateResult:
    """Update the first document that matches a filter (updateOne) with $set, $inc and $unset.

    The update must consist of operators; ``_id`` cannot change; $inc needs
    numbers; unique indexes still hold. With ``upsert`` and no match, a new
    document is built from the filter's plain equalities and the update.

    Args:
        collection_id: The collection.
        filter: Field conditions as in findOne.
        update: Operators, e.g. {"$set": {"status": "shipped"}, "$inc": {"orders": 1}}.
        upsert: Insert a document when none matches.
    """
    coll, cluster = _collection(ctx, collection_id)
    found = _find(ctx, coll, filter)
    if not found:
        apply_update({}, update)  # refuse a malformed update even when nothing matches
        if not upsert:
            return UpdateResult(matched_count=0, modified_count=0, upserted_id=None)
        seed_doc: Doc = {}
        for k, v in filter.items():
            if not isinstance(v, dict):
                _set_path(seed_doc, k, copy.deepcopy(v))
            elif set(v) == {"$eq"}:
                _set_path(seed_doc, k, copy.deepcopy(v["$eq"]))
        made = _insert(ctx, coll, cluster, apply_update(seed_doc, update))
        return UpdateResult(matched_count=0, modified_count=0, upserted_id=made.doc_id)
    doc = found[0]
    body = apply_update(doc.body, update)
    if body == doc.body:
        return UpdateResult(matched_count=1, modified_count=0, upserted_id=None)
    _check_names(body, "update")
    size = _size(body)
    if size > MAX_DOC_BYTES:
        raise RuleViolation("the updated document would exceed 16 MB", field="update", hint="store less in it")
    _room(ctx, cluster, size - doc.size_bytes)
    _check_unique(ctx, coll, body, doc.id)
    ctx.update(doc, body=body, size_bytes=size)
    ctx.update(cluster, storage_used_bytes=max(0, cluster.storage_used_bytes + size - doc.size_bytes))
    return UpdateResult(matched_count=1, modified_count=1, upserted_id=None)


class DeleteResult(BaseModel):
    """The answer of deleteOne."""

    deleted_count: int = Field(description="0 or 1.")
    deleted_id: str | None = Field(description="The _id of the deleted document.")


@service.tool(intent="delete a document", write=True, destructive=True, example=_example_delete)
def delete_one(ctx: Ctx, collection_id: CollectionId, filter: Doc) -> DeleteResult:
    """Delete the first document that matches a filter (deleteOne).

    Args:
        collection_id: The collection.
        filter: Field conditions as in findOne.
    """
    coll, cluster = _collection(ctx, collection_id)
    found = _find(ctx, coll, filter)
    if not found:
        return DeleteResult(deleted_count=0, deleted_id=None)
    doc = found[0]
    ctx.delete(doc)
    ctx.update(coll, document_count=max(0, coll.document_count - 1))
    ctx.update(cluster, storage_used_bytes=max(0, cluster.storage_used_bytes - doc.size_bytes))
    return DeleteResult(deleted_count=1, deleted_id=doc.doc_id)


# -- indexes ----------------------------------------------------------------------------------


@service.tool(intent="create an index on the collection", write=True, example=_example_index)
def create_index(
    ctx: Ctx,
    collection_id: CollectionId,
    keys: Annotated[list[IndexKey], Field(min_length=1, max_length=32)],
    unique: bool = False,
    name: Annotated[str, StringConstraints(min_length=1, max_length=127)] | None = None,
) -> Index:
    """Build an index (createIndexes); a unique one refuses documents that share its values.

    The name defaults to field_direction pairs (email_1). A key pattern or name
    already in use is refused, as is a 65th index; a unique index cannot be
    built while two documents share the values (a missing field counts as null).

    Args:
        collection_id: The collection.
        keys: The key pattern: fields and directions.
        unique: Whether values must be unique.
        name: The index's name.
    """
    coll, _ = _collection(ctx, collection_id)
    fields = [k.field for k in keys]
    if len(set(fields)) != len(fields) or any(f.startswith("$") for f in fields):
        raise RuleViolation("each key field once, none starting with $", field="keys", hint="fix the key pattern")
    index_name = name or "_".join(f"{k.field}_{k.direction}" for k in keys)
    existing = ctx.where(Index, collection_id=coll.id)
    for other in existing:
        if other.keys == tuple(keys):
            raise Conflict(
                f"index with the same key pattern already exists: {other.name}",
                field="keys",
                hint="use the existing index, or drop it first to change its options",
            )
        if other.name == index_name:
            raise Conflict(
                f"an index named {index_name} already exists with another key pattern",
                field="name",
                hint="choose another name",
            )
    if len(existing) >= MAX_INDEXES:
        raise RuleViolation(
            f"{coll.name} already has {MAX_INDEXES} indexes", field="keys", hint="drop an unused index first"
        )
    made = ctx.create(Index, collection_id=coll.id, name=index_name, keys=tuple(keys), unique=unique)
    if unique:
        seen: dict[tuple[str, ...], str] = {}
        for doc in ctx.where(Document, collection_id=coll.id):
            values = _index_values(doc.body, made)
            if values in seen:
                shown = ", ".join(f"{f}: {v}" for f, v in zip(fields, values, strict=True))
                raise Conflict(
                    f"E11000 duplicate key error while building unique index {index_name}: documents {seen[values]} "
                    f"and {doc.doc_id} share {{ {shown} }}",
                    field="unique",
                    hint="remove or fix the duplicates first, or build a non-unique index",
                )
            seen[values] = doc.doc_id
    return made


@service.tool(intent="drop the index", write=True, destructive=True, example=_example_drop_index)
def drop_index(ctx: Ctx, collection_id: CollectionId, name: Annotated[str, StringConstraints(min_length=1)]) -> Index:
    """Drop an index by name (dropIndexes); the ``_id_`` index cannot be dropped.

    Args:
        collection_id: The collection.
        name: The index's name.
    """
    coll, _ = _collection(ctx, collection_id)
    if name == "_id_":
        raise RuleViolation("cannot drop _id index", field="name", hint="drop the collection instead")
    index = ctx.first(Index, collection_id=coll.id, name=name)
    if index is None:
        raise NotFound(f"index not found with name [{name}]", field="name", hint="list the collection's indexes")
    ctx.delete(index)
    return index


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """A production cluster (customers, orders, sessions), a paused analytics cluster, a nearly full free one."""
    pop = s.population
    base = re.sub(r"[^a-z0-9]", "", pop.home.domain.split(".")[0].lower())[:40] or "company"
    engineers = pop.staff("Engineering", fallback=3)
    now = s.now

    def cluster(name: str, tier: Tier, state: ClusterState, used: int, days: int, **extra: Any) -> Cluster:
        return s.create(
            Cluster,
            name=name,
            tier=tier,
            region="eu-west-1" if pop.home.place.country not in ("US", "CA", "BR") else "us-east-1",
            state=state,
            storage_used_bytes=used,
            storage_limit_bytes=STORAGE_LIMIT[tier],
            owner_email=engineers[days % len(engineers)].email,
            created_at=now - dt.timedelta(days=days),
            **extra,
        )

    prod = cluster(f"{base}-prod", "M30", "IDLE", 6 * 1024**3, 600)
    analytics = cluster(f"{base}-analytics", "M10", "PAUSED", 2 * 1024**3, 300, paused_at=now - dt.timedelta(days=3))
    sandbox = cluster(f"{base}-sandbox", "M0", "IDLE", STORAGE_LIMIT["M0"] - 900, 90)
    cluster(f"{base}-staging", "M20", "IDLE", 3 * 1024**3, 200, resumed_at=now - dt.timedelta(minutes=20))

    def collection(c: Cluster, db: str, name: str, days: int) -> Collection:
        coll = s.create(Collection, cluster_id=c.id, database=db, name=name, created_at=now - dt.timedelta(days=days))
        s.create(
            Index,
            collection_id=coll.id,
            name="_id_",
            keys=(IndexKey(field="_id"),),
            unique=True,
            created_at=coll.created_at,
        )
        return coll

    def add(coll: Collection, fields: Doc, when: dt.datetime) -> None:
        oid = f"{int(when.timestamp()):08x}" + "".join(s.rng.choice("0123456789abcdef") for _ in range(16))
        body: Doc = {"_id": oid, **fields}
        s.create(
            Document,
            collection_id=coll.id,
            doc_id=oid,
            body=body,
            size_bytes=_size(body),
            created_at=when,
            updated_at=when,
        )

    customers = collection(prod, "shop", "customers", 600)
    orders = collection(prod, "shop", "orders", 600)
    sessions = collection(prod, "app", "sessions", 120)
    consumers = list(pop.consumers)[:24]
    products = list(pop.products)[:10]
    for k, p in enumerate(consumers):
        when = now - dt.timedelta(days=400 - 13 * k)
        add(
            customers,
            {
                "name": p.name,
                "email": p.email,
                "phone": p.phone,
                "address": {"city": p.address.city, "country": p.address.country},
                "tier": ("gold", "silver", "bronze")[k % 3],
                "orders_count": 0,
                "tags": ["newsletter"] if k % 2 else [],
            },
            when,
        )
    for k, p in enumerate(consumers[:18]):
        lines = [products[(k + j) % len(products)] for j in range(1 + k % 3)]
        total = round(sum(x.price_cents for x in lines) / 100, 2)
        when = now - dt.timedelta(days=60 - 3 * k, hours=k)
        add(
            orders,
            {
                "order_number": f"SO-{70001 + k}",
                "customer_email": p.email,
                "total": total,
                "currency": "USD",
                "status": ("pending", "paid", "shipped", "delivered", "cancelled")[k % 5],
                "items": [x.sku for x in lines],
                "placed_at": when.isoformat().replace("+00:00", "Z"),
            },
            when,
        )
    counts: dict[str, int] = {}
    for d in s.records(Document):
        if d.collection_id == orders.id:
            email = str(d.body["customer_email"])
            counts[email] = counts.get(email, 0) + 1
    for d in s.records(Document):
        if d.collection_id == customers.id and counts.get(str(d.body["email"])):
            s.update(d, body={**d.body, "orders_count": counts[str(d.body["email"])]})
    for k, p in enumerate(consumers[:6]):
        when = now - dt.timedelta(hours=2 + 5 * k)
        add(sessions, {"user_email": p.email, "device": ("ios", "android", "web")[k % 3], "active": k % 2 == 0}, when)
    s.create(
        Index,
        collection_id=customers.id,
        name="email_1",
        keys=(IndexKey(field="email"),),
        unique=True,
        created_at=customers.created_at,
    )
    s.create(
        Index,
        collection_id=orders.id,
        name="order_number_1",
        keys=(IndexKey(field="order_number"),),
        unique=True,
        created_at=orders.created_at,
    )
    s.create(
        Index,
        collection_id=orders.id,
        name="customer_email_1_placed_at_-1",
        keys=(IndexKey(field="customer_email"), IndexKey(field="placed_at", direction=-1)),
        created_at=orders.created_at,
    )
    events = collection(analytics, "events", "page_views", 300)
    for k in range(5):
        when = now - dt.timedelta(days=4 + k)
        add(events, {"path": ("/", "/pricing", "/docs", "/blog", "/signup")[k], "views": 100 * (k + 1)}, when)
    scratch = collection(sandbox, "test", "fixtures", 90)
    for k in range(3):
        add(scratch, {"name": f"fixture-{k + 1}", "payload": "x" * 120}, now - dt.timedelta(days=80 - k))
    for coll in (customers, orders, sessions, events, scratch):
        s.update(coll, document_count=sum(1 for d in s.records(Document) if d.collection_id == coll.id))
