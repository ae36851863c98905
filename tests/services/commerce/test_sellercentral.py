"""SellerDesk: listing issues and status, FBA inbound shipments and stock, MFN shipping, returns, reports."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SC = ServiceTools("sellercentral")
WORLD = SC.world
ok, refused, every = SC.ok, SC.refused, SC.every
TODAY = WORLD.epoch.date()


def stock(ep: Episode, sku: str, center: str) -> dict[str, Any]:
    return every(ep, "list_inventory", sku=sku, fulfillment_center=center)[0]


def day(n: int) -> str:
    return str(TODAY - dt.timedelta(days=n))


def test_seeded_status_follows_issues_and_stock(ep: Episode) -> None:
    skus = {p.sku for p in WORLD.population.products}
    for x in every(ep, "list_listings"):
        assert x["sku"] in skus
        held = sum(r["fulfillable"] for r in every(ep, "list_inventory", sku=x["sku"]))
        error = any(i["severity"] == "ERROR" for i in x["issues"])
        if x["status"] == "BUYABLE":
            assert not error and (x["fulfillment_channel"] == "MFN" or held > 0)
        elif x["status"] == "DISCOVERABLE":
            assert error or held == 0


def test_patching_the_faulty_attribute_makes_a_listing_buyable(ep: Episode) -> None:
    bad = next(x for x in every(ep, "list_listings", status="DISCOVERABLE") if x["issues"])
    attr = bad["issues"][0]["attribute"]
    refused(ep, "patch_listing", "rule_violation", "listing_id", listing_id=bad["id"])
    refused(ep, "patch_listing", "rule_violation", "list_price", listing_id=bad["id"], list_price=50)
    fixed = ok(ep, "patch_listing", listing_id=bad["id"], **{attr: "Tidal" if attr == "brand" else "Fixed title"})
    assert fixed["issues"] == []
    held = sum(r["fulfillable"] for r in every(ep, "list_inventory", sku=bad["sku"]))
    assert fixed["status"] == ("BUYABLE" if held or bad["fulfillment_channel"] == "MFN" else "DISCOVERABLE")


def test_a_new_listing_is_unique_and_waits_for_stock(ep: Episode) -> None:
    taken = every(ep, "list_listings")[0]
    args = {"asin": "B0TESTTEST", "item_name": "Mug", "brand": "Acme", "list_price": 1500}
    refused(ep, "put_listing", "conflict", "sku", sku=taken["sku"], **args)
    refused(ep, "put_listing", "rule_violation", "list_price", sku="MUG-001", **(args | {"list_price": 99}))
    afn = ok(ep, "put_listing", sku="MUG-001", **args)
    assert afn["status"] == "DISCOVERABLE"
    assert ok(ep, "put_listing", sku="MUG-002", fulfillment_channel="MFN", **args)["status"] == "BUYABLE"


def test_an_inbound_shipment_moves_stock_from_inbound_to_fulfillable(ep: Episode) -> None:
    new = ok(ep, "put_listing", sku="MUG-003", asin="B0TESTTES2", item_name="Mug", brand="Acme", list_price=1500)
    mfn = every(ep, "list_listings", fulfillment_channel="MFN")[0]
    refused(
        ep,
        "create_inbound_shipment",
        "rule_violation",
        "items[0].sku",
        name="X",
        destination="EWR4",
        items=[{"sku": mfn["sku"], "quantity_shipped": 5}],
    )
    two = [{"sku": "MUG-003", "quantity_shipped": 5}] * 2
    refused(ep, "create_inbound_shipment", "rule_violation", "items[1].sku", name="X", destination="EWR4", items=two)
    ship = ok(ep, "create_inbound_shipment", name="First mugs", destination="EWR4", items=two[:1])
    refused(
        ep,
        "receive_inbound",
        "rule_violation",
        "inbound_shipment_id",
        inbound_shipment_id=ship["id"],
        sku="MUG-003",
        quantity=1,
    )
    ok(ep, "ship_inbound", inbound_shipment_id=ship["id"], carrier="UPS", tracking_number="1ZMUG0000001")
    assert stock(ep, "MUG-003", "EWR4")["inbound"] == 5
    refused(
        ep, "receive_inbound", "rule_violation", "quantity", inbound_shipment_id=ship["id"], sku="MUG-003", quantity=6
    )
    ok(ep, "receive_inbound", inbound_shipment_id=ship["id"], sku="MUG-003", quantity=3)
    assert (stock(ep, "MUG-003", "EWR4")["inbound"], stock(ep, "MUG-003", "EWR4")["fulfillable"]) == (2, 3)
    assert ok(ep, "get_listing", listing_id=new["id"])["status"] == "BUYABLE"
    closed = ok(ep, "close_inbound", inbound_shipment_id=ship["id"])
    assert closed["status"] == "CLOSED" and stock(ep, "MUG-003", "EWR4")["inbound"] == 0
    refused(ep, "cancel_inbound", "rule_violation", "inbound_shipment_id", inbound_shipment_id=ship["id"])


def test_cancelling_a_shipped_inbound_takes_back_its_inbound_units(ep: Episode) -> None:
    ship = every(ep, "list_inbound_shipments", status="SHIPPED")[0]
    item = ship["items"][0]
    before = stock(ep, item["sku"], ship["destination"])["inbound"]
    assert ok(ep, "cancel_inbound", inbound_shipment_id=ship["id"])["status"] == "CANCELLED"
    assert stock(ep, item["sku"], ship["destination"])["inbound"] == before - item["quantity_shipped"]


def test_only_unshipped_mfn_orders_are_confirmed_by_the_seller(ep: Episode) -> None:
    afn = every(ep, "list_orders", status="Unshipped", fulfillment_channel="AFN")[0]
    mfn = every(ep, "list_orders", status="Unshipped", fulfillment_channel="MFN")[0]
    track = {"carrier": "USPS", "tracking_number": "9400111899220000000001"}
    refused(ep, "confirm_shipment", "rule_violation", "order_id", order_id=afn["id"], **track)
    done = ok(ep, "confirm_shipment", order_id=mfn["id"], **track)
    assert (done["status"], done["carrier"]) == ("Shipped", "USPS")
    refused(ep, "confirm_shipment", "rule_violation", "order_id", order_id=mfn["id"], **track)
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=mfn["id"])


def test_cancelling_an_afn_order_releases_its_reservation(ep: Episode) -> None:
    order = every(ep, "list_orders", status="Unshipped", fulfillment_channel="AFN")[0]
    item = order["items"][0]
    before = stock(ep, item["sku"], order["fulfillment_center"])
    assert ok(ep, "cancel_order", order_id=order["id"])["status"] == "Canceled"
    after = stock(ep, item["sku"], order["fulfillment_center"])
    assert after["fulfillable"] == before["fulfillable"] + item["quantity"]
    assert after["reserved"] == max(0, before["reserved"] - item["quantity"])


def test_returns_are_limited_to_what_was_bought_and_restock_when_sellable(ep: Episode) -> None:
    order = next(
        o
        for o in every(ep, "list_orders", status="Shipped", fulfillment_channel="AFN")
        if o["items"][0]["quantity"] == 2
    )
    sku = order["items"][0]["sku"]
    left = 2 - sum(r["quantity"] for r in every(ep, "list_returns", order_id=order["id"]))
    refused(
        ep,
        "authorize_return",
        "rule_violation",
        "quantity",
        order_id=order["id"],
        sku=sku,
        quantity=left + 1,
        reason="DEFECTIVE",
    )
    refused(
        ep,
        "authorize_return",
        "rule_violation",
        "sku",
        order_id=order["id"],
        sku="NOPE-1",
        quantity=1,
        reason="DEFECTIVE",
    )
    ret = ok(ep, "authorize_return", order_id=order["id"], sku=sku, quantity=left, reason="WRONG_ITEM")
    before = stock(ep, sku, order["fulfillment_center"])
    got = ok(ep, "receive_return", return_id=ret["id"], condition="DAMAGED")
    assert (got["status"], got["condition"]) == ("Received", "DAMAGED")
    after = stock(ep, sku, order["fulfillment_center"])
    assert after["unfulfillable"] == before["unfulfillable"] + left and after["fulfillable"] == before["fulfillable"]
    assert ok(ep, "close_return", return_id=ret["id"])["status"] == "Closed"
    refused(
        ep,
        "authorize_return",
        "rule_violation",
        "order_id",
        order_id=every(ep, "list_orders", status="Pending")[0]["id"],
        sku=sku,
        quantity=1,
        reason="DEFECTIVE",
    )


def test_reports_cover_at_most_90_days_up_to_today(ep: Episode) -> None:
    t = "GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE"
    refused(ep, "create_report", "rule_violation", "data_start", report_type=t, data_start=day(120), data_end=day(0))
    refused(ep, "create_report", "rule_violation", "data_end", report_type=t, data_start=day(5), data_end=day(-1))
    rep = ok(ep, "create_report", report_type=t, data_start=day(30), data_end=day(0))
    assert (rep["status"], rep["row_count"]) == ("DONE", len(every(ep, "list_orders")))
    queued = every(ep, "list_reports", status="IN_QUEUE")[0]
    assert ok(ep, "cancel_report", report_id=queued["id"])["status"] == "CANCELLED"
    refused(ep, "cancel_report", "rule_violation", "report_id", report_id=rep["id"])


def test_a_listing_with_stock_at_a_center_cannot_be_deleted(ep: Episode) -> None:
    held = every(ep, "list_inventory")[0]
    listing = every(ep, "list_listings", sku=held["sku"])[0]
    refused(ep, "delete_listing", "conflict", "listing_id", listing_id=listing["id"])
    assert ok(ep, "deactivate_listing", listing_id=listing["id"])["status"] == "INACTIVE"
    assert ok(ep, "reactivate_listing", listing_id=listing["id"])["status"] in ("BUYABLE", "DISCOVERABLE")
