"""SourceLink Dropship: imports with price rules, inventory sync, orders routed to one supplier, placed and tracked."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DS = ServiceTools("dropship")
WORLD = DS.world
ok, refused, every = DS.ok, DS.refused, DS.every
POP = WORLD.population
BUYER = POP.consumers[-1]


def supplier(ep: Episode, status: str = "active") -> dict[str, Any]:
    return every(ep, "list_suppliers", status=status)[0]


def fresh_item(ep: Episode, status: str = "active") -> dict[str, Any]:
    for s in every(ep, "list_suppliers", status=status):
        for item in every(ep, "list_catalog_items", supplier_id=s["id"]):
            if not every(ep, "list_imported_products", catalog_item_id=item["id"]) and item["stock"] > 0:
                return item
    raise AssertionError("no catalogue item left to import")


def route(ep: Episode, number: str, *lines: tuple[str, int]) -> Any:
    args = {"customer_email": BUYER.email, "customer_name": BUYER.name}
    return ok(
        ep,
        "route_order",
        order_number=number,
        lines=[{"imported_product_id": p, "quantity": q} for p, q in lines],
        **args,
    )


def test_seeded_suppliers_are_world_companies_and_prices_follow_the_rules(ep: Episode) -> None:
    names = {c.name for c in POP.companies}
    assert all(s["name"] in names for s in every(ep, "list_suppliers"))
    for p in every(ep, "list_imported_products"):
        assert p["price"] == round(p["cost"] * (1 + p["markup_percent"] / 100)) + p["markup_fixed"]
        item = ok(ep, "get_catalog_item", catalog_item_id=p["catalog_item_id"])
        assert (p["supplier_id"], p["store_sku"]) == (item["supplier_id"], f"DS-{item['supplier_sku']}")
    for o in every(ep, "list_orders"):
        assert o["total_price"] == sum(x["unit_price"] * x["quantity"] for x in o["lines"])


def test_importing_prices_by_rule_once_per_product_and_sku(ep: Episode) -> None:
    item = fresh_item(ep)
    taken = every(ep, "list_imported_products")[0]["store_sku"]
    refused(ep, "import_product", "conflict", "store_sku", catalog_item_id=item["id"], store_sku=taken)
    made = ok(
        ep, "import_product", catalog_item_id=item["id"], store_sku="DS-NEW-001", markup_percent=40, markup_fixed=99
    )
    assert (made["status"], made["price"]) == ("draft", round(item["cost"] * 1.4) + 99)
    refused(ep, "import_product", "conflict", "catalog_item_id", catalog_item_id=item["id"], store_sku="DS-NEW-002")
    paused = fresh_item(ep, "paused")
    refused(
        ep, "import_product", "rule_violation", "catalog_item_id", catalog_item_id=paused["id"], store_sku="DS-NEW-003"
    )


def test_a_draft_goes_live_only_with_supplier_stock(ep: Episode) -> None:
    item = fresh_item(ep)
    made = ok(ep, "import_product", catalog_item_id=item["id"], store_sku="DS-LIVE-01")
    ok(ep, "update_catalog_item", catalog_item_id=item["id"], stock=0)
    ok(ep, "sync_inventory", supplier_id=item["supplier_id"])
    refused(ep, "push_live", "rule_violation", "imported_product_id", imported_product_id=made["id"])
    ok(ep, "update_catalog_item", catalog_item_id=item["id"], stock=5)
    ok(ep, "sync_inventory", supplier_id=item["supplier_id"])
    assert ok(ep, "push_live", imported_product_id=made["id"])["status"] == "live"
    refused(ep, "push_live", "rule_violation", "imported_product_id", imported_product_id=made["id"])


def test_sync_copies_cost_and_stock_and_reprices(ep: Episode) -> None:
    live = every(ep, "list_imported_products", status="live", supplier_id=supplier(ep)["id"])
    first, second = live[0], live[1]
    ok(ep, "update_catalog_item", catalog_item_id=first["catalog_item_id"], cost=first["cost"] + 1000)
    ok(ep, "update_catalog_item", catalog_item_id=second["catalog_item_id"], stock=0)
    result = ok(ep, "sync_inventory", supplier_id=first["supplier_id"])
    assert result["repriced"] >= 1 and result["out_of_stock"] >= 1
    after = ok(ep, "get_imported_product", imported_product_id=first["id"])
    assert after["price"] == round((first["cost"] + 1000) * (1 + first["markup_percent"] / 100)) + first["markup_fixed"]
    assert ok(ep, "get_imported_product", imported_product_id=second["id"])["status"] == "out_of_stock"
    refused(ep, "sync_inventory", "rule_violation", "supplier_id", supplier_id=supplier(ep, "paused")["id"])


def test_changing_the_markup_reprices_the_product(ep: Episode) -> None:
    p = every(ep, "list_imported_products", status="live")[0]
    after = ok(ep, "update_imported_product", imported_product_id=p["id"], markup_percent=100, markup_fixed=1)
    assert after["price"] == p["cost"] * 2 + 1


def test_an_order_goes_to_one_supplier_and_once(ep: Episode) -> None:
    live = [p for p in every(ep, "list_imported_products", status="live")]
    a = live[0]
    b = next(p for p in live if p["supplier_id"] != a["supplier_id"])
    args = {"customer_email": BUYER.email, "customer_name": BUYER.name}
    two = [{"imported_product_id": a["id"], "quantity": 1}, {"imported_product_id": b["id"], "quantity": 1}]
    refused(ep, "route_order", "rule_violation", "lines", order_number="SO-1", lines=two, **args)
    draft = every(ep, "list_imported_products", status="draft")[0]
    one = [{"imported_product_id": draft["id"], "quantity": 1}]
    refused(ep, "route_order", "rule_violation", "lines[0].imported_product_id", order_number="SO-1", lines=one, **args)
    made = route(ep, "SO-1", (a["id"], 1), (a["id"], 2))
    assert (made["status"], made["lines"][0]["quantity"], made["total_cost"]) == ("pending", 3, a["cost"] * 3)
    refused(ep, "route_order", "conflict", "order_number", order_number="SO-1", lines=two[:1], **args)


def test_placing_takes_supplier_stock_and_cancelling_gives_it_back(ep: Episode) -> None:
    p = every(ep, "list_imported_products", status="live", supplier_id=supplier(ep)["id"])[0]
    item = ok(ep, "get_catalog_item", catalog_item_id=p["catalog_item_id"])
    big = route(ep, "SO-2", (p["id"], item["stock"] + 1))
    refused(ep, "place_order", "rule_violation", "order_id", order_id=big["id"])
    order = route(ep, "SO-3", (p["id"], 2))
    placed = ok(ep, "place_order", order_id=order["id"])
    assert placed["status"] == "placed" and placed["placed_at"] is not None
    assert ok(ep, "get_catalog_item", catalog_item_id=item["id"])["stock"] == item["stock"] - 2
    refused(ep, "place_order", "rule_violation", "order_id", order_id=order["id"])
    assert ok(ep, "cancel_order", order_id=order["id"])["status"] == "cancelled"
    assert ok(ep, "get_catalog_item", catalog_item_id=item["id"])["stock"] == item["stock"]


def test_tracking_ships_the_order_and_is_unique(ep: Episode) -> None:
    proc = every(ep, "list_orders", status="processing")[0]
    pending = every(ep, "list_orders", status="pending")[0]
    refused(
        ep,
        "add_tracking",
        "rule_violation",
        "order_id",
        order_id=pending["id"],
        carrier="ups",
        tracking_number="1ZAAA0000001",
    )
    shipped = every(ep, "list_orders", status="shipped")[0]
    refused(
        ep,
        "add_tracking",
        "conflict",
        "tracking_number",
        order_id=proc["id"],
        carrier="ups",
        tracking_number=shipped["tracking_number"],
    )
    done = ok(ep, "add_tracking", order_id=proc["id"], carrier="fedex", tracking_number="794612345678")
    assert (done["status"], done["carrier"]) == ("shipped", "fedex")
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=done["id"])
    assert ok(ep, "deliver_order", order_id=done["id"])["status"] == "delivered"


def test_a_paused_supplier_takes_no_orders_and_imported_products_in_open_orders_stay(ep: Episode) -> None:
    order = every(ep, "list_orders", status="pending")[0]
    pid = order["lines"][0]["imported_product_id"]
    refused(ep, "delete_imported_product", "conflict", "imported_product_id", imported_product_id=pid)
    ok(ep, "pause_supplier", supplier_id=order["supplier_id"])
    refused(ep, "place_order", "rule_violation", "order_id", order_id=order["id"])
    refused(
        ep,
        "route_order",
        "rule_violation",
        "lines",
        order_number="SO-9",
        customer_email=BUYER.email,
        customer_name=BUYER.name,
        lines=[{"imported_product_id": pid, "quantity": 1}],
    )
    ok(ep, "resume_supplier", supplier_id=order["supplier_id"])
    assert ok(ep, "place_order", order_id=order["id"])["status"] == "placed"
