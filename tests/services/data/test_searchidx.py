"""Lumen Search: matching and ranking, synonyms, rules, replicas, record limits and API key restrictions."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SX = ServiceTools("searchidx")
WORLD = SX.world
ok, refused, every = SX.ok, SX.refused, SX.every
POP = WORLD.population
PRODUCTS = list(POP.products)


def ix(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_indexes", name=name)[0]


def search(ep: Episode, name: str, query: str, **kw: Any) -> dict[str, Any]:
    return dict(ok(ep, "search", index_id=ix(ep, name)["id"], query=query, hits_per_page=1000, **kw))


def ids(result: dict[str, Any]) -> list[str]:
    return [h["object_id"] for h in result["hits"]]


def key(ep: Episode, description: str) -> str:
    return next(str(k["value"]) for k in every(ep, "list_api_keys") if k["description"].startswith(description))


def test_the_catalogue_holds_the_populations_products_and_replicas_share_them(ep: Episode) -> None:
    products = ix(ep, "products")
    recs = every(ep, "list_records", index_id=products["id"])
    assert {r["object_id"] for r in recs} == {p.sku for p in PRODUCTS}
    assert {r["body"]["name"] for r in recs} == {p.name for p in PRODUCTS}
    for name in products["replicas"]:
        replica = ix(ep, name)
        assert replica["primary_id"] == products["id"] and replica["record_count"] == len(recs)
        assert not every(ep, "list_records", index_id=replica["id"])
    assert search(ep, "products_price_asc", "")["nb_hits"] == len(PRODUCTS)


def test_every_word_must_match_with_synonyms_and_a_prefix_last_word(ep: Episode) -> None:
    everything = {r["object_id"]: r["body"] for r in every(ep, "list_records", index_id=ix(ep, "products")["id"])}
    by_word = {oid for oid, b in everything.items() if "notebook" in b["name"].lower().split()}
    assert by_word and set(ids(search(ep, "products", "laptop"))) >= by_word
    name = PRODUCTS[0].name
    prefix = name.split()[0][:3]
    hits = ids(search(ep, "products", prefix))
    assert PRODUCTS[0].sku in hits
    assert not search(ep, "products", f"{name} zzzqx")["hits"]
    ranked = search(ep, "products", PRODUCTS[0].category)["hits"]
    pops = [h["record"]["popularity"] for h in ranked]
    assert pops == sorted(pops, reverse=True)
    asc = [h["record"]["price"] for h in search(ep, "products_price_asc", "")["hits"]]
    desc = [h["record"]["price"] for h in search(ep, "products_price_desc", "")["hits"]]
    assert asc == sorted(asc) and desc == sorted(desc, reverse=True)


def test_facet_filters_need_declared_facets(ep: Episode) -> None:
    cat = PRODUCTS[0].category
    hits = search(ep, "products", "", facet_filters=[f"category:{cat}"])["hits"]
    assert hits and all(h["record"]["category"] == cat for h in hits)
    stocked = search(ep, "products", "", facet_filters=["in_stock:false"])["hits"]
    assert stocked and all(h["record"]["in_stock"] is False for h in stocked)
    refused(
        ep,
        "search",
        "rule_violation",
        "facet_filters",
        index_id=ix(ep, "products_price_asc")["id"],
        query="",
        facet_filters=["in_stock:true"],
    )


def test_query_rules_promote_and_hide_records_and_refuse_contradictions(ep: Episode) -> None:
    featured, hidden = PRODUCTS[2].sku, PRODUCTS[1].sku
    cat = PRODUCTS[1].category
    res = search(ep, "products", f"{cat} sale")
    assert res["applied_rules"] == ["sale-promo"] and ids(res)[0] == featured and res["hits"][0]["promoted"]
    assert hidden not in ids(res)
    assert search(ep, "products", "black friday")["applied_rules"] == []
    products = ix(ep, "products")["id"]
    refused(
        ep,
        "save_rule",
        "rule_violation",
        "hide",
        index_id=products,
        object_id="r",
        pattern="x",
        promote=[{"object_id": featured, "position": 0}],
        hide=[featured],
    )
    refused(
        ep,
        "save_rule",
        "rule_violation",
        "promote",
        index_id=products,
        object_id="r",
        pattern="x",
        promote=[{"object_id": featured, "position": 0}, {"object_id": hidden, "position": 0}],
    )
    refused(ep, "save_rule", "rule_violation", "promote", index_id=products, object_id="r", pattern="x")


def test_records_go_to_the_primary_replicas_follow_and_size_is_capped(ep: Episode) -> None:
    products = ix(ep, "products")
    record = {"objectID": "SKU-X1", "name": "Zebrawood Pen Tray", "category": "office", "price": 1.5}
    ok(ep, "save_object", index_id=products["id"], record=record)
    assert ix(ep, "products")["record_count"] == products["record_count"] + 1
    assert ix(ep, "products_price_asc")["record_count"] == products["record_count"] + 1
    assert ids(search(ep, "products_price_asc", "zebrawood")) == ["SKU-X1"]
    ok(ep, "save_object", index_id=products["id"], record={**record, "price": 2.0})
    assert ix(ep, "products")["record_count"] == products["record_count"] + 1
    refused(ep, "save_object", "rule_violation", "index_id", index_id=ix(ep, "products_price_asc")["id"], record=record)
    refused(
        ep,
        "save_object",
        "rule_violation",
        "record",
        index_id=products["id"],
        record={"objectID": "big", "description": "x" * 10_001},
    )
    made = ok(ep, "save_object", index_id=products["id"], record={"name": "No id given"})
    assert made["object_id"] and made["body"]["objectID"] == made["object_id"]


def test_partial_updates_need_an_existing_record_unless_asked_to_create(ep: Episode) -> None:
    products = ix(ep, "products")["id"]
    sku = PRODUCTS[0].sku
    done = ok(ep, "partial_update_object", index_id=products, object_id=sku, attributes={"popularity": 1000})
    assert done["body"]["popularity"] == 1000 and done["body"]["name"] == PRODUCTS[0].name
    assert ids(search(ep, "products", PRODUCTS[0].category))[0] == sku
    refused(
        ep, "partial_update_object", "not_found", "object_id", index_id=products, object_id="nope", attributes={"a": 1}
    )
    refused(
        ep,
        "partial_update_object",
        "rule_violation",
        "attributes",
        index_id=products,
        object_id=sku,
        attributes={"objectID": "other"},
    )
    ok(
        ep,
        "partial_update_object",
        index_id=products,
        object_id="nope",
        attributes={"name": "Made"},
        create_if_not_exists=True,
    )
    ok(ep, "delete_object", index_id=products, object_id="nope")
    refused(ep, "delete_object", "not_found", "object_id", index_id=products, object_id="nope")


def test_replica_settings_rules_and_unlinking(ep: Episode) -> None:
    products = ix(ep, "products")
    asc = ix(ep, "products_price_asc")
    refused(
        ep,
        "set_settings",
        "rule_violation",
        "custom_ranking",
        index_id=products["id"],
        custom_ranking=["popularity desc"],
    )
    refused(ep, "set_settings", "rule_violation", "replicas", index_id=asc["id"], replicas=["x_replica"])
    refused(
        ep,
        "set_settings",
        "conflict",
        "replicas",
        index_id=ix(ep, "help_articles")["id"],
        replicas=["products_price_asc"],
    )
    refused(ep, "delete_index", "rule_violation", "index_id", index_id=asc["id"])
    ok(ep, "set_settings", index_id=products["id"], replicas=["products_price_desc"])
    freed = ix(ep, "products_price_asc")
    assert freed["primary_id"] is None
    assert len(every(ep, "list_records", index_id=freed["id"])) == products["record_count"]
    ok(ep, "delete_index", index_id=freed["id"])
    gone = ok(ep, "delete_index", index_id=products["id"])
    assert gone["detached_replicas"] == ["products_price_desc"]
    assert search(ep, "products_price_desc", "")["nb_hits"] == products["record_count"]


def test_api_keys_are_limited_by_acl_index_expiry_and_hits(ep: Episode) -> None:
    products = ix(ep, "products")["id"]
    store = key(ep, "Storefront")
    res = ok(ep, "search", index_id=products, query="", hits_per_page=200, api_key=store)
    assert res["hits_per_page"] == 50 and len(res["hits"]) == min(50, len(PRODUCTS))
    ok(ep, "search", index_id=ix(ep, "products_price_desc")["id"], query="", api_key=store)
    refused(ep, "search", "rule_violation", "api_key", index_id=ix(ep, "help_articles")["id"], query="", api_key=store)
    refused(ep, "search", "rule_violation", "api_key", index_id=products, query="", api_key=key(ep, "Catalog sync"))
    refused(ep, "search", "rule_violation", "api_key", index_id=products, query="", api_key=key(ep, "Partner feed"))
    refused(ep, "search", "not_found", "api_key", index_id=products, query="", api_key="0" * 32)
    made = ok(
        ep,
        "add_api_key",
        acl=["search"],
        indexes=["help_*"],
        validity_seconds=3600,
        issued_to_email=POP.employees[0].email,
    )
    created = dt.datetime.fromisoformat(made["created_at"])
    assert dt.datetime.fromisoformat(made["expires_at"]) == created + dt.timedelta(hours=1)
    ok(ep, "search", index_id=ix(ep, "help_articles")["id"], query="refund", api_key=made["value"])
    refused(ep, "add_api_key", "rule_violation", "indexes", acl=["search"], indexes=["pro*ducts"])
    refused(ep, "add_api_key", "rule_violation", "acl", acl=["search", "search"])
    ok(ep, "delete_api_key", api_key_id=made["id"])
    refused(ep, "search", "not_found", "api_key", index_id=products, query="", api_key=made["value"])


def test_synonyms_need_enough_words_and_one_way_ones_an_input(ep: Episode) -> None:
    help_ix = ix(ep, "help_articles")["id"]
    assert "help-1" in ids(search(ep, "help_articles", "refund"))
    refused(
        ep,
        "save_synonym",
        "rule_violation",
        "synonyms",
        index_id=help_ix,
        object_id="s",
        type="synonym",
        synonyms=["parcel", "Parcel"],
    )
    refused(
        ep,
        "save_synonym",
        "rule_violation",
        "input",
        index_id=help_ix,
        object_id="s",
        type="onewaysynonym",
        synonyms=["delivery"],
    )
    ok(ep, "save_synonym", index_id=help_ix, object_id="s", type="onewaysynonym", input="parcel", synonyms=["shipping"])
    assert "help-2" in ids(search(ep, "help_articles", "parcel"))
