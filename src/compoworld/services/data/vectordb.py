"""Vectorvault: a managed vector database of indexes, namespaces and embedded records queried by similarity.

Modeled on the Pinecone API (control plane ``/indexes``, ``/collections``;
data plane ``/vectors/upsert``, ``/query``, ``/vectors/fetch``,
``/vectors/update``, ``/vectors/delete``, ``/vectors/list``,
``/describe_index_stats``): indexes with a ``dimension``, a ``metric``
(cosine, euclidean, dotproduct), a ``spec`` (serverless on a cloud and region,
or pod-based with ``pod_type``, ``pods`` and ``replicas``), a ``status``
(Initializing, Ready, ScalingUp, Terminating), ``deletion_protection`` and
tags; vectors with a string id, dense ``values`` and flat ``metadata``,
grouped in namespaces that exist while they hold vectors; queries that return
the ``top_k`` nearest stored vectors, optionally filtered by metadata
equality; and collections, static copies of a pod-based index from which a
new index can be created.

Every vector of an index has its dimension; an all-zero vector is refused by
cosine indexes; an upsert takes at most 1000 vectors, and an id that exists in
the namespace is overwritten. ``top_k`` is 1-1000. Index names are unique,
lower-case letters, digits and hyphens, and a project holds at most 20
indexes. An index with deletion protection enabled cannot be deleted. Only
pod-based indexes can be copied to a collection, and an index created from a
collection takes its dimension and vectors.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Quantity
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "vectordb",
    title="Vectorvault",
    category="vector_database",
    modeled_on="Pinecone API: indexes (dimension, metric, serverless/pod spec, status, deletion protection, tags), "
    "upsert/query/fetch/update/delete/list vectors by namespace with metadata filters, describe_index_stats, "
    "collections",
    description="The company's vector database for retrieval and semantic search: indexes with their dimension, "
    "metric and deployment, namespaces per tenant or source, embedded records with metadata, similarity queries, "
    "index statistics and collections (static copies) of pod-based indexes.",
)

IndexId = Annotated[str, IdOf("vectordb.index")]
VectorRowId = Annotated[str, IdOf("vectordb.vector")]
CollectionId = Annotated[str, IdOf("vectordb.collection")]

IndexName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9-]{0,43}[a-z0-9])?$")]
"""A name of lower-case letters, digits and hyphens, up to 45 characters."""
Namespace = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.@-]{0,64}$")]
"""A namespace name ('' is the default namespace)."""
VectorKey = Annotated[str, StringConstraints(min_length=1, max_length=512)]
"""A vector's id, chosen by the caller."""
Dimension = Annotated[int, Field(ge=1, le=20000)]
"""The number of values in each vector."""
MetaValue = str | float | bool
Metadata = dict[Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")], MetaValue]
"""Flat metadata: field names to text, numbers or booleans."""

Metric = Literal["cosine", "euclidean", "dotproduct"]
IndexStatus = Literal["Initializing", "Ready", "ScalingUp", "Terminating"]
Deployment = Literal["serverless", "pod"]
Cloud = Literal["aws", "gcp", "azure"]
PodType = Literal["s1.x1", "p1.x1", "p2.x1"]

MAX_INDEXES = 20
MAX_UPSERT = 1000


class Index(Record):
    """A vector index."""

    id: IndexId
    name: IndexName
    """Its unique name."""
    dimension: Dimension
    """The dimension of its vectors."""
    metric: Metric = "cosine"
    """cosine, euclidean or dotproduct."""
    deployment: Deployment = "serverless"
    """serverless or pod."""
    cloud: Cloud = "aws"
    """The cloud it runs in."""
    region: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{3,30}$")] = "us-east-1"
    """The cloud region."""
    pod_type: PodType | None = None
    """For pod indexes: the pod type."""
    replicas: Annotated[int, Field(ge=1, le=10)] = 1
    """For pod indexes: how many replicas serve queries."""
    status: IndexStatus = "Ready"
    """Initializing, Ready, ScalingUp or Terminating."""
    deletion_protection: Literal["enabled", "disabled"] = "disabled"
    """enabled: the index cannot be deleted."""
    owner_email: Email | None = None
    """The project member responsible for it (its owner tag)."""
    source_collection_id: CollectionId | None = None
    """The collection it was created from, if any."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Vector(Record):
    """An embedded record stored in an index's namespace."""

    id: VectorRowId
    index_id: IndexId
    """The index."""
    namespace: Namespace = ""
    """Its namespace ('' is the default)."""
    key: VectorKey
    """Its id in the namespace, chosen by the caller."""
    values: tuple[float, ...]
    """Its dense values (as many as the index's dimension)."""
    metadata: Metadata = Field(default_factory=dict)
    """Flat metadata for filtering."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it was last upserted or updated."""


class Collection(Record):
    """A static copy of a pod-based index."""

    id: CollectionId
    name: IndexName
    """Its unique name."""
    source_index_id: IndexId
    """The index it copies."""
    dimension: Dimension
    """The dimension of its vectors."""
    vector_count: Quantity
    """How many vectors it holds."""
    snapshot: tuple[tuple[str, str, tuple[float, ...]], ...] = ()
    """The copied vectors: namespace, key and values."""
    status: Literal["Initializing", "Ready"] = "Ready"
    """Initializing or Ready."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class VectorIn(Value):
    """A vector to upsert."""

    id: VectorKey
    """Its id in the namespace."""
    values: Annotated[list[float], Field(min_length=1, max_length=20000)]
    """Its dense values."""
    metadata: Metadata | None = None
    """Flat metadata."""


class Upserted(Value):
    """What an upsert did."""

    upserted_count: int
    """Vectors written (new or overwritten)."""
    namespace: Namespace
    """The namespace written."""


class Match(Value):
    """One query result."""

    id: VectorKey
    """The vector's id."""
    score: float
    """Similarity (cosine, dotproduct: higher is closer) or squared distance (euclidean: lower is closer)."""
    metadata: Metadata | None = None
    """Its metadata, when asked for."""


class QueryResult(Value):
    """The nearest vectors."""

    namespace: str
    """The namespace searched (* for several)."""
    matches: list[Match]
    """Nearest first."""


class NamespaceStats(Value):
    """One namespace's size."""

    namespace: Namespace
    """Its name."""
    vector_count: int
    """Its vectors."""


class IndexStats(Value):
    """An index's statistics."""

    index_id: IndexId
    """The index."""
    dimension: int
    """Its dimension."""
    total_vector_count: int
    """All its vectors."""
    namespaces: list[NamespaceStats]
    """Per namespace, by name."""


class Deleted(Value):
    """What a delete removed."""

    deleted_count: int
    """How many vectors."""


# -- rules ------------------------------------------------------------------------------------


def _ready(ctx: Ctx, index_id: str) -> Index:
    index = ctx.get(Index, index_id, field="index_id")
    if index.status not in ("Ready", "ScalingUp"):
        raise RuleViolation(
            f"index {index.name} is {index.status}", field="index_id", hint="wait until it is Ready, or use another"
        )
    return index


def _check_values(index: Index, values: list[float] | tuple[float, ...], field: str) -> None:
    if len(values) != index.dimension:
        raise RuleViolation(
            f"vector has {len(values)} values; index {index.name} has dimension {index.dimension}",
            field=field,
            hint=f"embed with a model of dimension {index.dimension}",
        )
    if not all(math.isfinite(v) for v in values):
        raise RuleViolation("values must be finite numbers", field=field, hint="drop NaN and infinite values")
    if index.metric == "cosine" and not any(values):
        raise RuleViolation("a cosine index cannot store an all-zero vector", field=field, hint="check the embedding")


def _guard_index(ctx: Ctx, new: Any, old: Any) -> None:
    if new.owner_email is not None:
        require_employee(ctx, new.owner_email, field="owner_email", hint="indexes are owned by project members")
    if new.deployment == "serverless" and new.replicas != 1:
        raise RuleViolation(
            "serverless indexes scale on their own", field="replicas", hint="only pod indexes take replicas"
        )


def _guard_index_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.deletion_protection == "enabled":
        raise RuleViolation(
            f"index {old.name} has deletion protection enabled",
            field="index_id",
            hint="disable it with vectordb__update_index first",
        )
    for v in ctx.where(Vector, index_id=old.id):
        ctx.delete(v)


indexes = service.resource(
    Index,
    name="index",
    plural="indexes",
    prefix="idx",
    create=False,
    filters=("name", "metric", "deployment", "status", "owner_email", "dimension"),
    update=("deletion_protection", "replicas", "owner_email"),
    guard_update=_guard_index,
    guard_delete=_guard_index_delete,
)
vectors = service.resource(
    Vector,
    name="vector",
    plural="vectors",
    prefix="vec",
    create=False,
    get=False,
    filters=("index_id", "namespace", "key"),
    search=("key",),
    delete=False,
)


def _guard_collection_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "Ready":
        raise RuleViolation(f"collection {old.name} is {old.status}", field="collection_id", hint="wait until Ready")


collections = service.resource(
    Collection,
    name="collection",
    plural="collections",
    prefix="col",
    create=False,
    filters=("name", "source_index_id", "status"),
    guard_delete=_guard_collection_delete,
)


# -- domain tools -----------------------------------------------------------------------------


def _name_free(ctx: Ctx, name: str) -> None:
    if ctx.first(Index, name=name) is not None or ctx.first(Collection, name=name) is not None:
        raise Conflict(f"{name!r} is already taken", field="name", hint="pick another name")


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "contract-clauses",
        "dimension": 8,
        "metric": "cosine",
        "owner_email": ctx.population.staff("Engineering", fallback=1)[0].email,
    }


@service.tool(intent="create the vector index", write=True, example=_example_create)
def create_index(
    ctx: Ctx,
    name: IndexName,
    dimension: Dimension | None = None,
    metric: Metric = "cosine",
    deployment: Deployment = "serverless",
    cloud: Cloud = "aws",
    region: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{3,30}$")] = "us-east-1",
    pod_type: PodType | None = None,
    owner_email: Email | None = None,
    deletion_protection: Literal["enabled", "disabled"] = "disabled",
    source_collection_id: CollectionId | None = None,
) -> Index:
    """Create an index (at most 20 per project); from a collection it takes the collection's dimension and vectors.

    Args:
        name: Unique name: lower-case letters, digits and hyphens.
        dimension: The vectors' dimension (required unless created from a collection).
        metric: cosine, euclidean or dotproduct.
        deployment: serverless or pod.
        cloud: aws, gcp or azure.
        region: The cloud region.
        pod_type: For pod indexes: s1.x1, p1.x1 or p2.x1.
        owner_email: The project member responsible for it.
        deletion_protection: enabled or disabled.
        source_collection_id: A collection to create it from (pod indexes only).
    """
    _name_free(ctx, name)
    if sum(1 for _ in ctx.scan(Index)) >= MAX_INDEXES:
        raise RuleViolation(f"the project already has {MAX_INDEXES} indexes", field="name", hint="delete one first")
    if owner_email is not None:
        require_employee(ctx, owner_email, field="owner_email", hint="indexes are owned by project members")
    if (deployment == "pod") != (pod_type is not None):
        raise RuleViolation(
            "pod indexes need a pod_type and serverless ones take none", field="pod_type", hint="match it to deployment"
        )
    source = None
    if source_collection_id is not None:
        source = ctx.get(Collection, source_collection_id, field="source_collection_id")
        if deployment != "pod":
            raise RuleViolation("only pod indexes are created from collections", field="deployment", hint="use pod")
        if dimension is not None and dimension != source.dimension:
            raise RuleViolation(
                f"collection {source.name} has dimension {source.dimension}", field="dimension", hint="omit dimension"
            )
        dimension = source.dimension
    if dimension is None:
        raise RuleViolation("an index needs a dimension", field="dimension", hint="the embedding model's output size")
    index = ctx.create(
        Index,
        name=name,
        dimension=dimension,
        metric=metric,
        deployment=deployment,
        cloud=cloud,
        region=region,
        pod_type=pod_type,
        owner_email=owner_email,
        deletion_protection=deletion_protection,
        source_collection_id=source_collection_id,
    )
    if source is not None:
        for ns, key, values in source.snapshot:
            ctx.create(Vector, index_id=index.id, namespace=ns, key=key, values=values)
    return index


def _example_upsert(ctx: Ctx) -> dict[str, Any] | None:
    index = ctx.first(Index, name="support-kb")
    if index is None:
        return None
    values = [0.1 * (k + 1) for k in range(index.dimension)]
    return {
        "index_id": index.id,
        "namespace": "articles",
        "vectors": [{"id": "kb-reset-password", "values": values, "metadata": {"category": "account"}}],
    }


@service.tool(intent="upsert vectors into the index", write=True, example=_example_upsert)
def upsert_vectors(
    ctx: Ctx,
    index_id: IndexId,
    vectors: Annotated[list[VectorIn], Field(min_length=1)],
    namespace: Namespace = "",
) -> Upserted:
    """Write vectors into a namespace (at most 1000 at once); an existing id in the namespace is overwritten.

    Args:
        index_id: The index.
        vectors: The vectors: id, values (of the index's dimension) and optional metadata.
        namespace: The namespace ('' is the default); it exists once it holds a vector.
    """
    index = _ready(ctx, index_id)
    if len(vectors) > MAX_UPSERT:
        raise RuleViolation(f"at most {MAX_UPSERT} vectors per upsert", field="vectors", hint="send them in batches")
    keys = [v.id for v in vectors]
    if len(set(keys)) != len(keys):
        raise RuleViolation("a vector id appears twice in the batch", field="vectors", hint="send each id once")
    for k, v in enumerate(vectors):
        _check_values(index, v.values, f"vectors[{k}].values")
    for v in vectors:
        old = ctx.first(Vector, index_id=index.id, namespace=namespace, key=v.id)
        if old is None:
            ctx.create(
                Vector,
                index_id=index.id,
                namespace=namespace,
                key=v.id,
                values=tuple(v.values),
                metadata=v.metadata or {},
            )
        else:
            ctx.update(old, values=tuple(v.values), metadata=v.metadata or {})
    return Upserted(upserted_count=len(vectors), namespace=namespace)


def _score(metric: str, a: tuple[float, ...] | list[float], b: tuple[float, ...]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    if metric == "dotproduct":
        return round(dot, 6)
    if metric == "euclidean":
        return round(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)), 6)
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return round(dot / norm, 6) if norm else 0.0


def _example_query(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Vector)
    return None if v is None else {"index_id": v.index_id, "namespace": v.namespace, "id": v.key, "top_k": 3}


@service.tool(intent="query the index for similar vectors", example=_example_query)
def query(
    ctx: Ctx,
    index_id: IndexId,
    top_k: Annotated[int, Field(ge=1, le=1000)] = 10,
    namespace: Namespace = "",
    vector: list[float] | None = None,
    id: VectorKey | None = None,
    filter: Metadata | None = None,
    include_metadata: bool = True,
) -> QueryResult:
    """The top_k stored vectors of a namespace nearest to a query vector (or to a stored vector given by id).

    Args:
        index_id: The index.
        top_k: How many matches (1-1000).
        namespace: The namespace to search.
        vector: The query vector (of the index's dimension); or give id.
        id: The id of a stored vector to search from; or give vector.
        filter: Metadata values the matches must have (all must be equal).
        include_metadata: Whether matches carry their metadata.
    """
    index = _ready(ctx, index_id)
    if (vector is None) == (id is None):
        raise RuleViolation("give exactly one of vector and id", field="vector", hint="pass a vector or a stored id")
    if id is not None:
        found = ctx.first(Vector, index_id=index.id, namespace=namespace, key=id)
        if found is None:
            raise RuleViolation(f"no vector {id!r} in namespace {namespace!r}", field="id", hint="list the vectors")
        probe: tuple[float, ...] | list[float] = found.values
    else:
        assert vector is not None
        _check_values(index, vector, "vector")
        probe = vector
    cands = [
        v
        for v in ctx.where(Vector, index_id=index.id, namespace=namespace)
        if not filter or all(v.metadata.get(k) == val for k, val in filter.items())
    ]
    scored = sorted(
        ((_score(index.metric, probe, v.values), v) for v in cands),
        key=lambda sv: (sv[0] if index.metric == "euclidean" else -sv[0], sv[1].key),
    )
    return QueryResult(
        namespace=namespace,
        matches=[
            Match(id=v.key, score=s, metadata=v.metadata if include_metadata else None) for s, v in scored[:top_k]
        ],
    )


@service.tool(
    intent="fetch vectors by id",
    example=first_example(Vector, None, fields={"index_id": "index_id", "namespace": "namespace"}, ids=[]),
)
def fetch_vectors(
    ctx: Ctx, index_id: IndexId, ids: Annotated[list[VectorKey], Field(max_length=1000)], namespace: Namespace = ""
) -> list[Vector]:
    """The stored vectors with these ids in a namespace (unknown ids are skipped; none: the first 100).

    Args:
        index_id: The index.
        ids: The vector ids.
        namespace: The namespace.
    """
    index = ctx.get(Index, index_id, field="index_id")
    held = ctx.where(Vector, index_id=index.id, namespace=namespace)
    if not ids:
        return held[:100]
    wanted = set(ids)
    return [v for v in held if v.key in wanted]


def _example_meta(ctx: Ctx) -> dict[str, Any] | None:
    v = next((v for v in ctx.scan(Vector) if v.metadata), None)
    if v is None:
        return None
    key = sorted(v.metadata)[0]
    return {"index_id": v.index_id, "namespace": v.namespace, "filter": {key: v.metadata[key]}}


@service.tool(intent="fetch vectors by metadata", example=_example_meta)
def fetch_by_metadata(
    ctx: Ctx,
    index_id: IndexId,
    filter: Metadata,
    namespace: Namespace = "",
    limit: Annotated[int, Field(ge=1, le=1000)] = 100,
) -> list[Vector]:
    """The stored vectors of a namespace whose metadata has all the given values, by id.

    Args:
        index_id: The index.
        filter: Metadata values to match (at least one).
        namespace: The namespace.
        limit: Most vectors returned.
    """
    index = ctx.get(Index, index_id, field="index_id")
    if not filter:
        raise RuleViolation("give at least one metadata value", field="filter", hint='e.g. {"category": "billing"}')
    held = [
        v
        for v in ctx.where(Vector, index_id=index.id, namespace=namespace)
        if all(v.metadata.get(k) == val for k, val in filter.items())
    ]
    return sorted(held, key=lambda v: v.key)[:limit]


def _example_update(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Vector)
    if v is None:
        return None
    return {"index_id": v.index_id, "namespace": v.namespace, "id": v.key, "set_metadata": {"reviewed": True}}


@service.tool(intent="update the stored vector", write=True, example=_example_update)
def update_vector(
    ctx: Ctx,
    index_id: IndexId,
    id: VectorKey,
    namespace: Namespace = "",
    values: list[float] | None = None,
    set_metadata: Metadata | None = None,
) -> Vector:
    """Replace a stored vector's values and/or merge fields into its metadata.

    Args:
        index_id: The index.
        id: The vector's id.
        namespace: Its namespace.
        values: New values (of the index's dimension).
        set_metadata: Metadata fields to set (others are kept).
    """
    index = _ready(ctx, index_id)
    found = ctx.first(Vector, index_id=index.id, namespace=namespace, key=id)
    if found is None:
        raise RuleViolation(f"no vector {id!r} in namespace {namespace!r}", field="id", hint="upsert it instead")
    if values is None and not set_metadata:
        raise RuleViolation("nothing to update", field="values", hint="give values or set_metadata")
    changes: dict[str, Any] = {}
    if values is not None:
        _check_values(index, values, "values")
        changes["values"] = tuple(values)
    if set_metadata:
        changes["metadata"] = {**found.metadata, **set_metadata}
    return ctx.update(found, **changes)


def _example_delete(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Vector)
    return None if v is None else {"index_id": v.index_id, "namespace": v.namespace, "ids": [v.key]}


@service.tool(intent="delete vectors from the index", write=True, destructive=True, example=_example_delete)
def delete_vectors(
    ctx: Ctx,
    index_id: IndexId,
    namespace: Namespace = "",
    ids: list[VectorKey] | None = None,
    filter: Metadata | None = None,
    delete_all: bool = False,
) -> Deleted:
    """Delete vectors of a namespace by id, by metadata filter, or all of them (which drops the namespace).

    Args:
        index_id: The index.
        namespace: The namespace.
        ids: The vector ids to delete.
        filter: Delete the vectors whose metadata has all these values.
        delete_all: Delete every vector of the namespace.
    """
    index = _ready(ctx, index_id)
    ways = sum((bool(ids), bool(filter), delete_all))
    if ways != 1:
        raise RuleViolation("give exactly one of ids, filter and delete_all", field="ids", hint="choose one way")
    held = ctx.where(Vector, index_id=index.id, namespace=namespace)
    if ids:
        gone = [v for v in held if v.key in set(ids)]
    elif filter:
        gone = [v for v in held if all(v.metadata.get(k) == val for k, val in filter.items())]
    else:
        gone = held
    if not gone:
        raise RuleViolation(f"nothing matched in namespace {namespace!r}", field="ids", hint="check ids and filter")
    for v in gone:
        ctx.delete(v)
    return Deleted(deleted_count=len(gone))


@service.tool(intent="describe the index's statistics", example=first_example(Index, "index_id"))
def describe_index_stats(ctx: Ctx, index_id: IndexId) -> IndexStats:
    """How many vectors an index holds, in total and per namespace.

    Args:
        index_id: The index.
    """
    index = ctx.get(Index, index_id, field="index_id")
    counts: dict[str, int] = {}
    for v in ctx.where(Vector, index_id=index.id):
        counts[v.namespace] = counts.get(v.namespace, 0) + 1
    return IndexStats(
        index_id=index.id,
        dimension=index.dimension,
        total_vector_count=sum(counts.values()),
        namespaces=[NamespaceStats(namespace=ns, vector_count=n) for ns, n in sorted(counts.items())],
    )


@service.tool(intent="list the index's namespaces", example=first_example(Index, "index_id"))
def list_namespaces(ctx: Ctx, index_id: IndexId, prefix: Namespace = "") -> list[NamespaceStats]:
    """The namespaces of an index that hold vectors (optionally those starting with a prefix), by name.

    Args:
        index_id: The index.
        prefix: Only namespaces whose name starts with this.
    """
    stats = describe_index_stats(ctx, index_id)
    return [n for n in stats.namespaces if n.namespace.startswith(prefix)]


def _example_drop_ns(ctx: Ctx) -> dict[str, Any] | None:
    for v in ctx.scan(Vector):
        if v.namespace:
            return {"index_id": v.index_id, "namespace": v.namespace}
    return None


@service.tool(intent="delete the namespace", write=True, destructive=True, example=_example_drop_ns)
def delete_namespace(ctx: Ctx, index_id: IndexId, namespace: Namespace) -> Deleted:
    """Delete a named namespace with all its vectors (the default namespace '' cannot be deleted this way).

    Args:
        index_id: The index.
        namespace: The namespace's name.
    """
    index = _ready(ctx, index_id)
    if not namespace:
        raise RuleViolation(
            "the default namespace is not deleted", field="namespace", hint="delete its vectors instead"
        )
    held = ctx.where(Vector, index_id=index.id, namespace=namespace)
    if not held:
        raise RuleViolation(
            f"no namespace {namespace!r} in {index.name}", field="namespace", hint="list the namespaces"
        )
    for v in held:
        ctx.delete(v)
    return Deleted(deleted_count=len(held))


def _example_multi(ctx: Ctx) -> dict[str, Any] | None:
    notes = ctx.first(Index, name="customer-notes")
    if notes is None:
        return None
    names = sorted({v.namespace for v in ctx.where(Vector, index_id=notes.id)})
    return {"index_id": notes.id, "namespaces": names[:2], "vector": [0.5] * notes.dimension, "top_k": 3}


@service.tool(intent="query several namespaces at once", example=_example_multi)
def query_namespaces(
    ctx: Ctx,
    index_id: IndexId,
    namespaces: Annotated[list[Namespace], Field(min_length=1, max_length=100)],
    vector: list[float],
    top_k: Annotated[int, Field(ge=1, le=1000)] = 10,
    filter: Metadata | None = None,
) -> QueryResult:
    """The top_k nearest vectors across several namespaces, merged (match ids are namespace/id).

    Args:
        index_id: The index.
        namespaces: The namespaces to search.
        vector: The query vector.
        top_k: How many matches overall.
        filter: Metadata values the matches must have.
    """
    index = _ready(ctx, index_id)
    _check_values(index, vector, "vector")
    if len(set(namespaces)) != len(namespaces):
        raise RuleViolation("a namespace is listed twice", field="namespaces", hint="list each once")
    found: list[Match] = []
    for ns in namespaces:
        res = query(ctx, index.id, top_k=top_k, namespace=ns, vector=vector, filter=filter)
        found += [Match(id=f"{ns}/{m.id}", score=m.score, metadata=m.metadata) for m in res.matches]
    asc = index.metric == "euclidean"
    found.sort(key=lambda m: (m.score if asc else -m.score, m.id))
    return QueryResult(namespace="*", matches=found[:top_k])


def _example_collection(ctx: Ctx) -> dict[str, Any] | None:
    index = ctx.first(Index, deployment="pod", status="Ready")
    return None if index is None else {"name": f"{index.name}-backup", "source_index_id": index.id}


@service.tool(intent="create a collection from the index", write=True, example=_example_collection)
def create_collection(ctx: Ctx, name: IndexName, source_index_id: IndexId) -> Collection:
    """Copy a pod-based index into a static collection (serverless indexes cannot be copied).

    Args:
        name: Unique name of the collection.
        source_index_id: The pod-based index to copy.
    """
    index = ctx.get(Index, source_index_id, field="source_index_id")
    if index.deployment != "pod":
        raise RuleViolation(
            f"index {index.name} is serverless", field="source_index_id", hint="collections copy pod-based indexes only"
        )
    _name_free(ctx, name)
    held = ctx.where(Vector, index_id=index.id)
    return ctx.create(
        Collection,
        name=name,
        source_index_id=index.id,
        dimension=index.dimension,
        vector_count=len(held),
        snapshot=tuple((v.namespace, v.key, v.values) for v in held),
    )


# -- seed -------------------------------------------------------------------------------------

ARTICLES = (
    ("kb-reset-password", "Resetting your password", "account"),
    ("kb-sso-setup", "Setting up single sign-on", "account"),
    ("kb-invoice-download", "Downloading invoices", "billing"),
    ("kb-refund-policy", "Refund policy", "billing"),
    ("kb-api-limits", "API rate limits", "developer"),
    ("kb-webhooks", "Configuring webhooks", "developer"),
    ("kb-export-data", "Exporting your data", "account"),
    ("kb-change-plan", "Changing your plan", "billing"),
)


def _embed(s: SeedContext, dim: int, bias: int) -> tuple[float, ...]:
    return tuple(round(s.rng.uniform(-1, 1) + (0.8 if k == bias % dim else 0.0), 4) for k in range(dim))


@service.seeder
def seed(s: SeedContext) -> None:
    """A help-centre index, a per-customer notes index (one namespace per customer) and a product index."""
    pop = s.population
    eng = pop.staff("Engineering", fallback=2)
    support = pop.staff("Support", fallback=2)
    kb = s.create(
        Index,
        name="support-kb",
        dimension=8,
        metric="cosine",
        owner_email=eng[0].email,
        deletion_protection="enabled",
        created_at=s.ago(days=200),
        updated_at=s.ago(days=20),
    )
    for k, (key, title, cat) in enumerate(ARTICLES):
        s.create(
            Vector,
            index_id=kb.id,
            namespace="articles",
            key=key,
            values=_embed(s, 8, ("account", "billing", "developer").index(cat)),
            metadata={"title": title, "category": cat, "author": support[k % len(support)].email},
            updated_at=s.ago(days=30 - k),
        )
    notes = s.create(
        Index,
        name="customer-notes",
        dimension=8,
        metric="dotproduct",
        deployment="pod",
        pod_type="p1.x1",
        replicas=2,
        owner_email=eng[1 % len(eng)].email,
        created_at=s.ago(days=150),
        updated_at=s.ago(days=15),
    )
    for c in pop.customers[:4]:
        ns = c.domain
        for k, topic in enumerate(("renewal", "onboarding", "escalation")):
            contact = pop.first_contact(c)
            s.create(
                Vector,
                index_id=notes.id,
                namespace=ns,
                key=f"note-{topic}",
                values=_embed(s, 8, k),
                metadata={"company": c.name, "topic": topic, "contact_email": contact.email if contact else ""},
                updated_at=s.ago(days=10 + k),
            )
    products = s.create(
        Index,
        name="product-search",
        dimension=16,
        metric="euclidean",
        cloud="gcp",
        region="us-central1",
        owner_email=eng[0].email,
        created_at=s.ago(days=90),
        updated_at=s.ago(days=9),
    )
    for k, p in enumerate(pop.products[:12]):
        s.create(
            Vector,
            index_id=products.id,
            key=p.sku,
            values=_embed(s, 16, k),
            metadata={"name": p.name, "category": p.category, "price": p.price_cents / 100},
            updated_at=s.ago(days=9),
        )
    s.create(
        Index,
        name="contracts-embeddings",
        dimension=1536,
        metric="cosine",
        status="Initializing",
        owner_email=eng[-1].email,
        created_at=s.ago(minutes=5),
        updated_at=s.ago(minutes=5),
    )
    held = s.records(Vector)
    s.create(
        Collection,
        name="customer-notes-2026-02",
        source_index_id=notes.id,
        dimension=8,
        vector_count=sum(v.index_id == notes.id for v in held),
        snapshot=tuple((v.namespace, v.key, v.values) for v in held if v.index_id == notes.id),
        created_at=s.ago(days=28),
    )
