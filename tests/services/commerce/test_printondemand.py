"""Inkwell Print: printable variants, order costs and statuses, shipping rates and return claims."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

POD = ServiceTools("printondemand")
WORLD = POD.world
ok, refused, every = POD.ok, POD.refused, POD.every
POP = WORLD.population
BUYER = POP.consumers[0]


def catalog_variants(ep: Episode, type_name: str) -> list[dict[str, Any]]:
    cp = next(p for p in every(ep, "list_catalog_products") if p["type_name"] == type_name)
    return every(ep, "list_catalog_variants", product_id=cp["id"])


def product(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_sync_products") if p["name"] == name)


def order_args(sv_id: str, **more: Any) -> dict[str, Any]:
    return {
        "recipient_name": BUYER.name,
        "recipient_email": BUYER.email,
        "address": BUYER.address.model_dump(),
        "items": [{"sync_variant_id": sv_id, "quantity": 2}],
    } | more


def tee_variant(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_sync_variants", sync_product_id=product(ep, "Logo Tee")["id"])[0]


def test_seeded_orders_go_to_consumers_with_consistent_costs(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    orders = every(ep, "list_orders")
    assert {o["status"] for o in orders} == {"draft", "pending", "onhold", "inprocess", "fulfilled", "canceled"}
    for o in orders:
        assert o["recipient_email"] in consumers
        assert o["subtotal_cents"] == sum(i["cost_cents"] * i["quantity"] for i in o["items"])
        assert o["total_cents"] == o["subtotal_cents"] + o["shipping_cents"]
        assert (o["tracking_number"] is not None) == (o["status"] == "fulfilled")


def test_variants_need_ok_files_a_live_blank_and_a_price_above_cost(ep: Episode) -> None:
    tee = product(ep, "Logo Tee")
    used = {v["catalog_variant_id"] for v in every(ep, "list_sync_variants", sync_product_id=tee["id"])}
    variants = catalog_variants(ep, "T-Shirt")
    fresh = next(v for v in variants if v["id"] not in used and not v["discontinued"])
    gone = next(v for v in variants if v["discontinued"])
    good = every(ep, "list_files", status="ok")[0]["id"]
    bad = every(ep, "list_files", status="failed")[0]["id"]
    base = {"sync_product_id": tee["id"], "sku": "MERCH-TEE-NEW", "file_ids": [good]}
    price = fresh["price_cents"] + 1000
    refused(
        ep,
        "add_sync_variant",
        "rule_violation",
        "file_ids",
        catalog_variant_id=fresh["id"],
        retail_price_cents=price,
        **(base | {"file_ids": [bad]}),
    )
    refused(
        ep,
        "add_sync_variant",
        "rule_violation",
        "retail_price_cents",
        catalog_variant_id=fresh["id"],
        retail_price_cents=fresh["price_cents"],
        **base,
    )
    refused(
        ep,
        "add_sync_variant",
        "rule_violation",
        "catalog_variant_id",
        catalog_variant_id=gone["id"],
        retail_price_cents=price,
        **base,
    )
    mug = catalog_variants(ep, "Mug")[0]
    refused(
        ep,
        "add_sync_variant",
        "rule_violation",
        "catalog_variant_id",
        catalog_variant_id=mug["id"],
        retail_price_cents=price,
        **base,
    )
    refused(
        ep,
        "add_sync_variant",
        "conflict",
        "catalog_variant_id",
        catalog_variant_id=next(iter(used)),
        retail_price_cents=price * 3,
        **base,
    )
    made = ok(ep, "add_sync_variant", catalog_variant_id=fresh["id"], retail_price_cents=price, **base)
    assert made["sku"] == "MERCH-TEE-NEW"
    refused(
        ep,
        "update_sync_variant",
        "rule_violation",
        "retail_price_cents",
        sync_variant_id=made["id"],
        retail_price_cents=1,
    )


def test_low_resolution_files_fail_processing(ep: Episode) -> None:
    assert ok(ep, "add_file", url="https://cdn.example.org/a/art.png", dpi=96)["status"] == "failed"
    made = ok(ep, "add_file", url="https://cdn.example.org/a/art-hd.png", dpi=300)
    assert (made["status"], made["filename"]) == ("ok", "art-hd.png")


def test_an_order_is_costed_and_moves_draft_to_pending_to_fulfilled(ep: Episode) -> None:
    sv = tee_variant(ep)
    o = ok(ep, "create_order", **order_args(sv["id"]))
    assert o["status"] == "draft"
    assert o["subtotal_cents"] == 2 * o["items"][0]["cost_cents"]
    rate = next(
        r for r in ok(ep, "shipping_rates", country=BUYER.address.country, item_count=2) if r["method"] == "STANDARD"
    )
    assert o["shipping_cents"] == rate["rate_cents"]
    express = ok(ep, "update_order", order_id=o["id"], shipping="EXPRESS")
    assert (
        express["shipping_cents"] > o["shipping_cents"]
        and express["total_cents"] == express["subtotal_cents"] + express["shipping_cents"]
    )
    assert ok(ep, "confirm_order", order_id=o["id"])["status"] == "pending"
    refused(ep, "confirm_order", "conflict", "order_id", order_id=o["id"])
    refused(ep, "update_order", "conflict", "order_id", order_id=o["id"], shipping="STANDARD")
    shipped = ok(ep, "fulfill_order", order_id=o["id"])
    assert shipped["status"] == "fulfilled" and shipped["tracking_number"]
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=o["id"])


def test_orders_refuse_unprintable_items_and_duplicate_store_numbers(ep: Episode) -> None:
    poster = every(ep, "list_sync_variants", sync_product_id=product(ep, "Launch Poster")["id"])[0]
    refused(ep, "create_order", "rule_violation", "items", **order_args(poster["id"]))
    sv = tee_variant(ep)
    refused(
        ep, "create_order", "rule_violation", "items", **order_args(sv["id"], items=[{"sync_variant_id": sv["id"]}] * 2)
    )
    taken = every(ep, "list_orders")[0]["external_id"]
    refused(ep, "create_order", "conflict", "external_id", **order_args(sv["id"], external_id=taken))
    made = ok(ep, "create_order", **order_args(sv["id"], external_id="#9001", confirm=True))
    assert made["status"] == "pending"


def test_hold_release_and_cancel_follow_the_status(ep: Episode) -> None:
    held = every(ep, "list_orders", status="onhold")[0]
    assert ok(ep, "release_order", order_id=held["id"])["status"] == "pending"
    assert ok(ep, "hold_order", order_id=held["id"])["status"] == "onhold"
    assert ok(ep, "cancel_order", order_id=held["id"])["status"] == "canceled"
    busy = every(ep, "list_orders", status="inprocess")[0]
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=busy["id"])
    refused(ep, "hold_order", "rule_violation", "order_id", order_id=busy["id"])


def test_shipping_abroad_costs_more_and_takes_longer(ep: Episode) -> None:
    home = POP.home.place.country
    abroad = "JP" if home != "JP" else "US"
    local = {r["method"]: r for r in ok(ep, "shipping_rates", country=home, item_count=3)}
    far = {r["method"]: r for r in ok(ep, "shipping_rates", country=abroad, item_count=3)}
    for m in ("STANDARD", "EXPRESS"):
        assert far[m]["rate_cents"] > local[m]["rate_cents"]
        assert far[m]["min_delivery_days"] > local[m]["min_delivery_days"]
    assert local["EXPRESS"]["min_delivery_days"] < local["STANDARD"]["min_delivery_days"]


def test_claims_are_for_recent_fulfilled_orders_and_reprints_make_a_new_order(ep: Episode) -> None:
    fulfilled = every(ep, "list_orders", status="fulfilled")
    claimed = {r["order_id"] for r in every(ep, "list_return_requests")}
    cutoff = (WORLD.epoch - dt.timedelta(days=30)).isoformat()[:10]
    recent = next(o for o in fulfilled if o["id"] not in claimed and o["shipped_at"][:10] > cutoff)
    stale = next(o for o in fulfilled if o["shipped_at"][:10] < cutoff)
    refused(ep, "create_return", "rule_violation", "order_id", order_id=stale["id"], reason="misprint")
    refused(
        ep,
        "create_return",
        "rule_violation",
        "order_id",
        order_id=every(ep, "list_orders", status="pending")[0]["id"],
        reason="misprint",
    )
    claim = ok(ep, "create_return", order_id=recent["id"], reason="misprint")
    refused(ep, "create_return", "conflict", "order_id", order_id=recent["id"], reason="damaged")
    done = ok(ep, "approve_return", return_request_id=claim["id"])
    reprint = ok(ep, "get_order", order_id=done["reprint_order_id"])
    assert (reprint["status"], reprint["items"], reprint["address"]) == ("pending", recent["items"], recent["address"])
    refused(ep, "approve_return", "conflict", "return_request_id", return_request_id=claim["id"])
