"""Lode Documents: the filter subset, update operators, unique indexes, paused clusters and quotas."""

from __future__ import annotations

import re
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DS = ServiceTools("docstore")
WORLD = DS.world
ok, refused, every = DS.ok, DS.refused, DS.every
POP = WORLD.population


def coll(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_collections", name=name)[0]


def cluster(ep: Episode, suffix: str) -> dict[str, Any]:
    return next(c for c in every(ep, "list_clusters") if c["name"].endswith(f"-{suffix}"))


def find(ep: Episode, name: str, flt: dict[str, Any], **kw: Any) -> list[dict[str, Any]]:
    return list(ok(ep, "find", collection_id=coll(ep, name)["id"], filter=flt, limit=1000, **kw)["documents"])


def test_seeded_customers_are_the_populations_people_and_orders_point_at_them(ep: Episode) -> None:
    people = {p.email: p for p in POP.consumers}
    customers = find(ep, "customers", {})
    assert customers and all(people[c["email"]].name == c["name"] for c in customers)
    orders = find(ep, "orders", {})
    emails = {c["email"] for c in customers}
    assert orders and all(o["customer_email"] in emails for o in orders)
    for c in customers:
        assert c["orders_count"] == sum(o["customer_email"] == c["email"] for o in orders)
    assert coll(ep, "customers")["document_count"] == len(customers)
    unique = {i["name"] for i in every(ep, "list_indexes", collection_id=coll(ep, "customers")["id"], unique=True)}
    assert unique == {"_id_", "email_1"}


def test_the_filter_subset_and_unknown_operators(ep: Episode) -> None:
    orders = find(ep, "orders", {})
    big = find(ep, "orders", {"total": {"$gt": 300}})
    assert {o["_id"] for o in big} == {o["_id"] for o in orders if o["total"] > 300}
    small = find(ep, "orders", {"total": {"$lt": 300}, "status": {"$in": ["paid", "shipped"]}})
    assert {o["_id"] for o in small} == {
        o["_id"] for o in orders if o["total"] < 300 and o["status"] in ("paid", "shipped")
    }
    sku = orders[1]["items"][0]
    assert {o["_id"] for o in find(ep, "orders", {"items": sku})} == {o["_id"] for o in orders if sku in o["items"]}
    city = find(ep, "customers", {})[0]["address"]["city"]
    assert all(c["address"]["city"] == city for c in find(ep, "customers", {"address.city": {"$eq": city}}))
    ordered = find(ep, "orders", {}, sort_by="total", descending=True)
    assert [o["total"] for o in ordered] == sorted((o["total"] for o in orders), reverse=True)
    cid = coll(ep, "orders")["id"]
    refused(ep, "find", "rule_violation", "filter", collection_id=cid, filter={"status": {"$regex": "^p"}})
    refused(ep, "find_one", "rule_violation", "filter", collection_id=cid, filter={"$or": [{"status": "paid"}]})
    refused(ep, "find", "rule_violation", "filter", collection_id=cid, filter={"status": {"$in": "paid"}})


def test_insert_generates_an_object_id_and_unique_indexes_refuse_duplicates(ep: Episode) -> None:
    customers = coll(ep, "customers")
    new = ok(ep, "insert_one", collection_id=customers["id"], document={"name": "Ana Lima", "email": "ana@lima.dev"})
    assert re.fullmatch(r"[0-9a-f]{24}", new["inserted_id"])
    assert coll(ep, "customers")["document_count"] == customers["document_count"] + 1
    taken = find(ep, "customers", {})[0]
    msg = refused(
        ep,
        "insert_one",
        "conflict",
        "document",
        collection_id=customers["id"],
        document={"name": "Someone", "email": taken["email"]},
    )
    assert "E11000" in msg and "email_1" in msg
    refused(
        ep,
        "insert_one",
        "conflict",
        "document",
        collection_id=customers["id"],
        document={"_id": taken["_id"], "email": "other@x.dev"},
    )
    refused(
        ep,
        "insert_one",
        "rule_violation",
        "document",
        collection_id=customers["id"],
        document={"email": "z@x.dev", "$where": "1"},
    )


def test_update_operators_and_what_they_refuse(ep: Episode) -> None:
    cid = coll(ep, "customers")["id"]
    first = find(ep, "customers", {})[0]
    sel = {"_id": first["_id"]}
    res = ok(
        ep,
        "update_one",
        collection_id=cid,
        filter=sel,
        update={"$set": {"tier": "platinum"}, "$inc": {"orders_count": 2}},
    )
    assert (res["matched_count"], res["modified_count"]) == (1, 1)
    now = ok(ep, "find_one", collection_id=cid, filter=sel)["document"]
    assert (now["tier"], now["orders_count"]) == ("platinum", first["orders_count"] + 2)
    for bad in (
        {"tier": "gold"},
        {"$push": {"tags": "vip"}},
        {"$inc": {"name": 1}},
        {"$set": {"_id": "abc"}},
        {"$set": {"tier": "a"}, "$unset": {"tier": ""}},
    ):
        refused(ep, "update_one", "rule_violation", "update", collection_id=cid, filter=sel, update=bad)
    other = find(ep, "customers", {})[1]
    refused(
        ep,
        "update_one",
        "conflict",
        "update",
        collection_id=cid,
        filter=sel,
        update={"$set": {"email": other["email"]}},
    )
    miss = ok(ep, "update_one", collection_id=cid, filter={"email": "nobody@x.dev"}, update={"$set": {"tier": "gold"}})
    assert (miss["matched_count"], miss["upserted_id"]) == (0, None)
    up = ok(
        ep,
        "update_one",
        collection_id=cid,
        filter={"email": "new@x.dev"},
        update={"$set": {"tier": "gold"}},
        upsert=True,
    )
    made = ok(ep, "find_one", collection_id=cid, filter={"_id": up["upserted_id"]})["document"]
    assert (made["email"], made["tier"]) == ("new@x.dev", "gold")


def test_delete_one_removes_the_first_match_and_frees_storage(ep: Episode) -> None:
    sessions = coll(ep, "sessions")
    before = cluster(ep, "prod")["storage_used_bytes"]
    doc = find(ep, "sessions", {})[0]
    res = ok(ep, "delete_one", collection_id=sessions["id"], filter={"user_email": doc["user_email"]})
    assert res == {"deleted_count": 1, "deleted_id": doc["_id"]}
    assert coll(ep, "sessions")["document_count"] == sessions["document_count"] - 1
    assert cluster(ep, "prod")["storage_used_bytes"] < before
    assert ok(ep, "delete_one", collection_id=sessions["id"], filter={"_id": doc["_id"]})["deleted_count"] == 0


def test_a_unique_index_cannot_be_built_over_duplicates_and_missing_fields_count_as_null(ep: Episode) -> None:
    cid = coll(ep, "orders")["id"]
    refused(ep, "create_index", "conflict", "unique", collection_id=cid, keys=[{"field": "status"}], unique=True)
    refused(ep, "create_index", "conflict", "unique", collection_id=cid, keys=[{"field": "coupon"}], unique=True)
    refused(ep, "create_index", "conflict", "keys", collection_id=cid, keys=[{"field": "order_number"}])
    made = ok(ep, "create_index", collection_id=cid, keys=[{"field": "status", "direction": -1}])
    assert made["name"] == "status_-1" and not made["unique"]
    refused(ep, "drop_index", "rule_violation", "name", collection_id=cid, name="_id_")
    refused(ep, "drop_index", "not_found", "name", collection_id=cid, name="nope_1")
    ok(ep, "drop_index", collection_id=cid, name="order_number_1")
    dup = find(ep, "orders", {})[0]["order_number"]
    ok(ep, "insert_one", collection_id=cid, document={"order_number": dup, "total": 1})


def test_a_paused_cluster_serves_nothing_and_free_or_just_resumed_clusters_cannot_pause(ep: Episode) -> None:
    events = coll(ep, "page_views")
    analytics = cluster(ep, "analytics")
    assert analytics["state"] == "PAUSED"
    refused(ep, "find", "rule_violation", "collection_id", collection_id=events["id"], filter={})
    ok(ep, "resume_cluster", cluster_id=analytics["id"])
    assert len(find(ep, "page_views", {})) == events["document_count"]
    refused(ep, "pause_cluster", "rule_violation", "cluster_id", cluster_id=analytics["id"])
    refused(ep, "pause_cluster", "rule_violation", "cluster_id", cluster_id=cluster(ep, "sandbox")["id"])
    refused(ep, "pause_cluster", "rule_violation", "cluster_id", cluster_id=cluster(ep, "staging")["id"])
    assert ok(ep, "pause_cluster", cluster_id=cluster(ep, "prod")["id"])["state"] == "PAUSED"
    refused(ep, "insert_one", "rule_violation", "collection_id", collection_id=coll(ep, "orders")["id"], document={})


def test_a_free_cluster_stops_taking_writes_at_its_storage_quota(ep: Episode) -> None:
    fixtures = coll(ep, "fixtures")
    sandbox = cluster(ep, "sandbox")
    room = sandbox["storage_limit_bytes"] - sandbox["storage_used_bytes"]
    refused(
        ep, "insert_one", "rule_violation", "document", collection_id=fixtures["id"], document={"payload": "x" * room}
    )
    ok(ep, "insert_one", collection_id=fixtures["id"], document={"payload": "x" * (room // 2)})
    assert cluster(ep, "sandbox")["storage_used_bytes"] > sandbox["storage_used_bytes"]


def test_collections_follow_the_naming_rules_and_dropping_removes_everything(ep: Episode) -> None:
    prod = cluster(ep, "prod")
    made = ok(ep, "create_collection", cluster_id=prod["id"], database="shop", name="returns")
    assert [i["name"] for i in every(ep, "list_indexes", collection_id=made["id"])] == ["_id_"]
    refused(ep, "create_collection", "conflict", "name", cluster_id=prod["id"], database="shop", name="returns")
    refused(ep, "create_collection", "rule_violation", "database", cluster_id=prod["id"], database="my.shop", name="x")
    refused(ep, "create_collection", "rule_violation", "name", cluster_id=prod["id"], database="shop", name="system.x")
    refused(ep, "create_collection", "rule_violation", "name", cluster_id=prod["id"], database="shop", name="a$b")
    orders = coll(ep, "orders")
    dropped = ok(ep, "drop_collection", collection_id=orders["id"])
    assert (dropped["namespace"], dropped["documents_removed"], dropped["indexes_removed"]) == (
        "shop.orders",
        orders["document_count"],
        3,
    )
    assert not every(ep, "list_collections", name="orders")
    assert not any(d["collection_id"] == orders["id"] for d in every(ep, "list_documents"))
