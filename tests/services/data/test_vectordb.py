"""Vectorvault: dimension checks, upsert overwrites, similarity queries, namespaces, protection and collections."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

VDB = ServiceTools("vectordb")
WORLD = VDB.world
ok, refused, every = VDB.ok, VDB.refused, VDB.every
POP = WORLD.population
OWNER = POP.employees[0].email


def index(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_indexes", name=name)[0]


def unit(dim: int, at: int, scale: float = 1.0) -> list[float]:
    return [scale if k == at else 0.0 for k in range(dim)]


def test_seeded_namespaces_are_the_customers_domains(ep: Episode) -> None:
    notes = index(ep, "customer-notes")
    stats = ok(ep, "describe_index_stats", index_id=notes["id"])
    assert [n["namespace"] for n in stats["namespaces"]] == sorted(c.domain for c in POP.customers[:4])
    assert stats["total_vector_count"] == 12 and all(n["vector_count"] == 3 for n in stats["namespaces"])
    names = {c.name for c in POP.customers[:4]}
    for v in every(ep, "list_vectors", index_id=notes["id"]):
        assert v["metadata"]["company"] in names


def test_upsert_checks_dimension_zero_vectors_and_duplicate_ids(ep: Episode) -> None:
    kb = index(ep, "support-kb")
    refused(
        ep,
        "upsert_vectors",
        "rule_violation",
        "vectors[0].values",
        index_id=kb["id"],
        vectors=[{"id": "a", "values": [1.0, 2.0]}],
    )
    refused(
        ep,
        "upsert_vectors",
        "rule_violation",
        "vectors[0].values",
        index_id=kb["id"],
        vectors=[{"id": "a", "values": [0.0] * 8}],
    )
    twice = [{"id": "a", "values": unit(8, 0)}, {"id": "a", "values": unit(8, 1)}]
    refused(ep, "upsert_vectors", "rule_violation", "vectors", index_id=kb["id"], vectors=twice)
    init = index(ep, "contracts-embeddings")
    refused(
        ep,
        "upsert_vectors",
        "rule_violation",
        "index_id",
        index_id=init["id"],
        vectors=[{"id": "a", "values": [1.0] * 1536}],
    )


def test_upserting_an_existing_id_overwrites_it_in_its_namespace_only(ep: Episode) -> None:
    kb = index(ep, "support-kb")
    before = ok(ep, "describe_index_stats", index_id=kb["id"])["total_vector_count"]
    done = ok(
        ep,
        "upsert_vectors",
        index_id=kb["id"],
        namespace="articles",
        vectors=[{"id": "kb-refund-policy", "values": unit(8, 3), "metadata": {"category": "billing"}}],
    )
    assert done["upserted_count"] == 1
    assert ok(ep, "describe_index_stats", index_id=kb["id"])["total_vector_count"] == before
    ok(
        ep,
        "upsert_vectors",
        index_id=kb["id"],
        namespace="drafts",
        vectors=[{"id": "kb-refund-policy", "values": unit(8, 3)}],
    )
    stats = ok(ep, "describe_index_stats", index_id=kb["id"])
    assert stats["total_vector_count"] == before + 1
    got = ok(ep, "fetch_vectors", index_id=kb["id"], namespace="articles", ids=["kb-refund-policy"])
    assert got[0]["values"] == unit(8, 3) and got[0]["metadata"] == {"category": "billing"}


def test_queries_rank_by_the_index_metric_and_filter_on_metadata(ep: Episode) -> None:
    made = ok(ep, "create_index", name="ranker", dimension=3, metric="euclidean", owner_email=OWNER)
    vecs = [
        {"id": "near", "values": [1.0, 0.0, 0.0], "metadata": {"lang": "en"}},
        {"id": "far", "values": [5.0, 5.0, 5.0], "metadata": {"lang": "de"}},
        {"id": "mid", "values": [2.0, 1.0, 0.0], "metadata": {"lang": "en"}},
    ]
    ok(ep, "upsert_vectors", index_id=made["id"], vectors=vecs)
    res = ok(ep, "query", index_id=made["id"], vector=[1.0, 0.0, 0.0], top_k=3)
    assert [m["id"] for m in res["matches"]] == ["near", "mid", "far"] and res["matches"][0]["score"] == 0.0
    res = ok(ep, "query", index_id=made["id"], id="far", filter={"lang": "en"}, top_k=1, include_metadata=False)
    assert [m["id"] for m in res["matches"]] == ["mid"] and res["matches"][0]["metadata"] is None
    refused(ep, "query", "rule_violation", "vector", index_id=made["id"])
    refused(ep, "query", "rule_violation", "vector", index_id=made["id"], vector=[1.0])


def test_update_merges_metadata_and_checks_values(ep: Episode) -> None:
    kb = index(ep, "support-kb")
    old = ok(ep, "fetch_vectors", index_id=kb["id"], namespace="articles", ids=["kb-sso-setup"])[0]
    new = ok(
        ep, "update_vector", index_id=kb["id"], namespace="articles", id="kb-sso-setup", set_metadata={"reviewed": True}
    )
    assert new["metadata"] == {**old["metadata"], "reviewed": True} and new["values"] == old["values"]
    refused(
        ep,
        "update_vector",
        "rule_violation",
        "values",
        index_id=kb["id"],
        namespace="articles",
        id="kb-sso-setup",
        values=[1.0],
    )
    refused(
        ep,
        "update_vector",
        "rule_violation",
        "id",
        index_id=kb["id"],
        namespace="articles",
        id="nope",
        set_metadata={"a": 1.0},
    )


def test_deleting_vectors_by_filter_and_all_drops_the_namespace(ep: Episode) -> None:
    kb = index(ep, "support-kb")
    billing = [v for v in every(ep, "list_vectors", index_id=kb["id"]) if v["metadata"]["category"] == "billing"]
    assert ok(ep, "delete_vectors", index_id=kb["id"], namespace="articles", filter={"category": "billing"})[
        "deleted_count"
    ] == len(billing)
    refused(
        ep,
        "delete_vectors",
        "rule_violation",
        "ids",
        index_id=kb["id"],
        namespace="articles",
        ids=["x"],
        delete_all=True,
    )
    ok(ep, "delete_vectors", index_id=kb["id"], namespace="articles", delete_all=True)
    assert ok(ep, "describe_index_stats", index_id=kb["id"])["namespaces"] == []


def test_deletion_protection_guards_an_index(ep: Episode) -> None:
    kb = index(ep, "support-kb")
    refused(ep, "delete_index", "rule_violation", "index_id", index_id=kb["id"])
    ok(ep, "update_index", index_id=kb["id"], deletion_protection="disabled")
    ok(ep, "delete_index", index_id=kb["id"])
    assert every(ep, "list_indexes", name="support-kb") == []
    assert all(v["index_id"] != kb["id"] for v in every(ep, "list_vectors"))


def test_index_names_are_unique_and_pod_settings_match_deployment(ep: Episode) -> None:
    refused(ep, "create_index", "conflict", "name", name="support-kb", dimension=8)
    refused(ep, "create_index", "conflict", "name", name="customer-notes-2026-02", dimension=8)
    refused(ep, "create_index", "rule_violation", "pod_type", name="x1", dimension=8, deployment="pod")
    refused(ep, "create_index", "rule_violation", "dimension", name="x1")
    refused(ep, "create_index", "rule_violation", "owner_email", name="x1", dimension=8, owner_email="x@y.io")
    kb = index(ep, "support-kb")
    refused(ep, "update_index", "rule_violation", "replicas", index_id=kb["id"], replicas=3)


def test_collections_copy_pod_indexes_and_restore_into_a_new_index(ep: Episode) -> None:
    kb = index(ep, "support-kb")
    refused(ep, "create_collection", "rule_violation", "source_index_id", name="kb-copy", source_index_id=kb["id"])
    notes = index(ep, "customer-notes")
    col = ok(ep, "create_collection", name="notes-copy", source_index_id=notes["id"])
    assert (col["vector_count"], col["dimension"]) == (12, 8)
    refused(ep, "create_index", "rule_violation", "deployment", name="restored", source_collection_id=col["id"])
    refused(
        ep,
        "create_index",
        "rule_violation",
        "dimension",
        name="restored",
        deployment="pod",
        pod_type="s1.x1",
        dimension=16,
        source_collection_id=col["id"],
    )
    new = ok(ep, "create_index", name="restored", deployment="pod", pod_type="s1.x1", source_collection_id=col["id"])
    assert new["dimension"] == 8
    assert ok(ep, "describe_index_stats", index_id=new["id"])["total_vector_count"] == 12


def test_namespaces_are_listed_queried_together_and_deleted(ep: Episode) -> None:
    notes = index(ep, "customer-notes")
    spaces = [n["namespace"] for n in ok(ep, "list_namespaces", index_id=notes["id"])]
    assert spaces == sorted(c.domain for c in POP.customers[:4])
    res = ok(ep, "query_namespaces", index_id=notes["id"], namespaces=spaces[:2], vector=unit(8, 0), top_k=4)
    assert len(res["matches"]) == 4 and all(m["id"].split("/")[0] in spaces[:2] for m in res["matches"])
    scores = [m["score"] for m in res["matches"]]
    assert scores == sorted(scores, reverse=True)
    hits = ok(ep, "fetch_by_metadata", index_id=notes["id"], namespace=spaces[0], filter={"topic": "renewal"})
    assert [h["key"] for h in hits] == ["note-renewal"]
    assert ok(ep, "delete_namespace", index_id=notes["id"], namespace=spaces[0])["deleted_count"] == 3
    refused(ep, "delete_namespace", "rule_violation", "namespace", index_id=notes["id"], namespace=spaces[0])
    refused(ep, "delete_namespace", "rule_violation", "namespace", index_id=notes["id"], namespace="")
