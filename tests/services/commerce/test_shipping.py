"""ParcelPoint shipping: address validation, rating, labels, voids, tracking and pickups."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode, World
from tests.services.helpers import ServiceTools, service_world

SHIPPING = ServiceTools("shipping")
WORLD = SHIPPING.world
ok, refused, seeded = SHIPPING.ok, SHIPPING.refused, SHIPPING.seeded
POP = WORLD.population


def warehouse() -> dict[str, Any]:
    return seeded("addresses", lambda a: a["company"] == POP.home.name)[0]


def address_of(ep: Episode, person_index: int, city: str | None = None) -> str:
    """Create an address for a population consumer (optionally moved to another population city)."""
    person = POP.consumers[person_index]
    addr = person.address.model_dump()
    if city is not None:
        place = next(p for p in POP.places if p.city == city)
        addr = {**addr, "city": place.city, "country": place.country, "postal_code": f"{place.postal_prefix}321"}
    return str(ok(ep, "create_address", name=person.name, address=addr, email=person.email)["id"])


def shipment(ep: Episode, src: str, dst: str, weight: int = 1200, dims: tuple[int, int, int] = (30, 20, 10)) -> str:
    length, width, height = dims
    parcel = ok(ep, "create_parcel", length_cm=length, width_cm=width, height_cm=height, weight_grams=weight)
    return str(ok(ep, "create_shipment", address_from_id=src, address_to_id=dst, parcel_id=parcel["id"])["id"])


def fresh_label(ep: Episode) -> dict[str, Any]:
    """Rate a new shipment from the warehouse to a consumer and buy its cheapest label."""
    sid = shipment(ep, warehouse()["id"], address_of(ep, 0))
    cheapest = ok(ep, "get_rates", shipment_id=sid)[0]
    return dict(ok(ep, "buy_label", rate_id=cheapest["id"]))


def label_in(state: str) -> dict[str, Any]:
    return seeded("transactions", lambda t: t["status"] == "success" and t["tracking_status"] == state)[0]


# -- addresses -----------------------------------------------------------------------------


def test_validating_a_population_address_marks_it_valid() -> None:
    ep = Episode(WORLD)
    addr = seeded("addresses", lambda a: a["validation_status"] == "unverified")[0]
    out = ok(ep, "validate_address", address_id=addr["id"])
    assert out == {"address_id": addr["id"], "is_valid": True, "validation_status": "valid", "messages": []}
    (change,) = ep.diff().tables["shipping.addresses"].updated
    assert change.changed == ["validation_status"]


def test_a_postal_code_from_another_city_is_found_invalid() -> None:
    ep = Episode(WORLD)
    typo = seeded("addresses", lambda a: a["validation_status"] == "invalid")[0]
    out = ok(ep, "validate_address", address_id=typo["id"])
    assert not out["is_valid"]
    assert [m["code"] for m in out["messages"]] == ["postal_code_mismatch"]
    assert ep.diff().is_empty  # it was already stored as invalid


def test_an_unserved_country_and_a_street_without_number_are_reported() -> None:
    ep = Episode(WORLD)
    person = POP.consumers[5]
    addr = ok(
        ep,
        "create_address",
        name=person.name,
        address={"street": "Laugavegur", "city": "Reykjavik", "postal_code": "101", "country": "IS"},
    )
    out = ok(ep, "validate_address", address_id=addr["id"])
    assert [m["code"] for m in out["messages"]] == ["street_number_missing", "country_not_served"]
    assert ok(ep, "get_address", address_id=addr["id"])["validation_status"] == "invalid"


def test_an_address_used_by_a_shipment_cannot_be_deleted_but_an_unused_one_can() -> None:
    ep = Episode(WORLD)
    refused(ep, "delete_address", "rule_violation", "address_id", address_id=warehouse()["id"])
    unused = address_of(ep, 7)
    ok(ep, "delete_address", address_id=unused)
    assert ep.diff().is_empty  # created and deleted again


# -- parcels and shipments -----------------------------------------------------------------


def test_a_parcel_above_70_kg_is_refused_and_changes_nothing() -> None:
    ep = Episode(WORLD)
    refused(
        ep,
        "create_parcel",
        "rule_violation",
        "weight_grams",
        length_cm=50,
        width_cm=40,
        height_cm=40,
        weight_grams=70_001,
    )


def test_an_oversized_parcel_is_refused() -> None:
    ep = Episode(WORLD)
    message = refused(
        ep, "create_parcel", "rule_violation", "length_cm", length_cm=200, width_cm=60, height_cm=50, weight_grams=5000
    )
    assert "length plus girth" in message


def test_a_shipment_to_its_own_sender_is_refused() -> None:
    ep = Episode(WORLD)
    parcel = seeded("parcels")[0]["id"]
    src = warehouse()["id"]
    refused(
        ep,
        "create_shipment",
        "rule_violation",
        "address_to_id",
        address_from_id=src,
        address_to_id=src,
        parcel_id=parcel,
    )


def test_a_shipment_with_a_label_cannot_be_cancelled() -> None:
    ep = Episode(WORLD)
    label = label_in("pre_transit")
    refused(ep, "cancel_shipment", "rule_violation", "shipment_id", shipment_id=label["shipment_id"])


# -- rates ---------------------------------------------------------------------------------


def test_rating_a_shipment_quotes_its_services_once_and_marks_it_rated() -> None:
    ep = Episode(WORLD)
    created = seeded("shipments", lambda s: s["status"] == "created")[0]
    quoted = ok(ep, "get_rates", shipment_id=created["id"])
    assert quoted
    assert [r["amount"] for r in quoted] == sorted(r["amount"] for r in quoted)
    assert {a for r in quoted for a in r["attributes"]} == {"cheapest", "fastest", "bestvalue"}
    assert "cheapest" in quoted[0]["attributes"]
    assert ok(ep, "get_shipment", shipment_id=created["id"])["status"] == "rated"
    counts = ep.diff().counts()
    assert counts["shipping.rates"]["added"] == len(quoted)
    before = ep.state_hash()
    assert ok(ep, "get_rates", shipment_id=created["id"]) == quoted
    assert ep.state_hash() == before


def test_rates_grow_with_weight_and_are_deterministic() -> None:
    ep = Episode(WORLD)
    src, dst = warehouse()["id"], address_of(ep, 3)
    light = ok(ep, "get_rates", shipment_id=shipment(ep, src, dst, weight=500))
    heavy = ok(ep, "get_rates", shipment_id=shipment(ep, src, dst, weight=20_000))
    price = {r["servicelevel_token"]: r["amount"] for r in light}
    assert all(r["amount"] > price[r["servicelevel_token"]] for r in heavy)
    other = Episode(WORLD)
    same = ok(other, "get_rates", shipment_id=shipment(other, src, address_of(other, 3), weight=500))
    assert [(r["servicelevel_token"], r["amount"], r["estimated_days"]) for r in same] == [
        (r["servicelevel_token"], r["amount"], r["estimated_days"]) for r in light
    ]


def test_volumetric_weight_bills_a_light_bulky_parcel() -> None:
    ep = Episode(WORLD)
    sid = shipment(ep, warehouse()["id"], address_of(ep, 3), weight=300, dims=(60, 50, 40))
    assert {r["billable_weight_grams"] for r in ok(ep, "get_rates", shipment_id=sid)} == {60 * 50 * 40 // 5}


def test_usps_only_ships_from_the_us_and_ground_services_stay_in_the_country() -> None:
    ep = Episode(WORLD)
    new_york, chicago, berlin = (
        address_of(ep, i, city) for i, city in ((0, "New York"), (1, "Chicago"), (2, "Berlin"))
    )
    domestic_us = {r["servicelevel_token"] for r in ok(ep, "get_rates", shipment_id=shipment(ep, new_york, chicago))}
    assert {"usps_ground_advantage", "ups_ground", "fedex_ground"} <= domestic_us
    assert "fedex_international_priority" not in domestic_us
    abroad = ok(ep, "get_rates", shipment_id=shipment(ep, new_york, berlin))
    assert {r["zone"] for r in abroad} == {"international"}
    assert not {"usps_ground_advantage", "ups_ground", "fedex_ground"} & {r["servicelevel_token"] for r in abroad}
    from_abroad = ok(ep, "get_rates", shipment_id=shipment(ep, berlin, new_york))
    assert not any(r["carrier"] == "usps" for r in from_abroad)


def test_a_cancelled_shipment_cannot_be_rated() -> None:
    ep = Episode(WORLD)
    sid = shipment(ep, warehouse()["id"], address_of(ep, 4))
    ok(ep, "cancel_shipment", shipment_id=sid)
    refused(ep, "get_rates", "rule_violation", "shipment_id", shipment_id=sid)


# -- labels --------------------------------------------------------------------------------


def test_buying_a_label_gives_a_tracking_number_and_a_first_scan() -> None:
    ep = Episode(WORLD)
    sid = shipment(ep, warehouse()["id"], address_of(ep, 0))
    rate = ok(ep, "get_rates", shipment_id=sid)[0]
    snap = ep.snapshot()
    label = ok(ep, "buy_label", rate_id=rate["id"], label_file_type="ZPLII")
    assert label["amount"] == rate["amount"]
    assert label["tracking_status"] == "pre_transit"
    assert label["label_url"].endswith(f"{label['tracking_number']}.zpl")
    assert label["tracking_number"] in label["tracking_url_provider"]
    assert ep.diff(snap).counts() == {
        "shipping.shipments": {"added": 0, "updated": 1, "removed": 0},
        "shipping.tracking_events": {"added": 1, "updated": 0, "removed": 0},
        "shipping.transactions": {"added": 1, "updated": 0, "removed": 0},
    }
    assert ok(ep, "get_shipment", shipment_id=sid)["status"] == "purchased"


def test_a_second_label_for_the_same_shipment_is_a_conflict_and_changes_nothing() -> None:
    ep = Episode(WORLD)
    label = fresh_label(ep)
    other = ok(ep, "list_rates", shipment_id=label["shipment_id"])["items"][-1]
    refused(ep, "buy_label", "conflict", "rate_id", rate_id=other["id"])


def test_no_label_is_bought_to_an_invalid_address() -> None:
    ep = Episode(WORLD)
    invalid = {a["id"] for a in seeded("addresses", lambda a: a["validation_status"] == "invalid")}
    bad = seeded("shipments", lambda s: s["address_to_id"] in invalid and s["status"] == "rated")[0]
    rate = seeded("rates", lambda r: r["shipment_id"] == bad["id"])[0]
    message = refused(ep, "buy_label", "rule_violation", "rate_id", rate_id=rate["id"])
    assert "failed validation" in message


def test_voiding_an_unused_label_refunds_it_and_lets_the_shipment_be_relabelled() -> None:
    ep = Episode(WORLD)
    label = fresh_label(ep)
    snap = ep.snapshot()
    refund = ok(ep, "void_label", transaction_id=label["id"], reason="wrong_service")
    assert refund["amount"] == label["amount"]
    assert refund["tracking_number"] == label["tracking_number"]
    diff = ep.diff(snap)
    assert [c.changed for c in diff.tables["shipping.transactions"].updated] == [["status", "updated_at"]]
    assert ok(ep, "get_shipment", shipment_id=label["shipment_id"])["status"] == "rated"
    refused(ep, "void_label", "conflict", "transaction_id", transaction_id=label["id"])
    relabel = ok(ep, "buy_label", rate_id=label["rate_id"])
    assert relabel["tracking_number"] != label["tracking_number"]


def test_a_label_in_transit_cannot_be_voided_and_changes_nothing() -> None:
    ep = Episode(WORLD)
    label = label_in("in_transit")
    message = refused(ep, "void_label", "rule_violation", "transaction_id", transaction_id=label["id"])
    assert "cannot be" in message


def test_a_label_older_than_30_days_cannot_be_voided() -> None:
    ep = Episode(WORLD)
    old = [
        t
        for t in seeded("transactions", lambda t: t["status"] == "success" and t["tracking_status"] == "pre_transit")
        if t["created_at"] < "2026-01-31"
    ]
    assert old
    message = refused(ep, "void_label", "rule_violation", "transaction_id", transaction_id=old[0]["id"])
    assert "30 days" in message


def test_a_label_booked_on_a_pickup_cannot_be_voided_until_the_pickup_is_cancelled() -> None:
    ep = Episode(WORLD)
    pickup = seeded("pickups", lambda p: p["status"] == "confirmed")[0]
    label_id = pickup["transaction_ids"][0]
    refused(ep, "void_label", "rule_violation", "transaction_id", transaction_id=label_id)
    ok(ep, "cancel_pickup", pickup_id=pickup["id"])
    ok(ep, "void_label", transaction_id=label_id)


# -- tracking ------------------------------------------------------------------------------


def test_tracking_advances_one_scan_at_a_time_until_delivered() -> None:
    ep = Episode(WORLD)
    label = fresh_label(ep)
    number = label["tracking_number"]
    statuses = [ok(ep, "advance_tracking", tracking_number=number)["status"] for _ in range(4)]
    assert statuses == ["in_transit", "in_transit", "out_for_delivery", "delivered"]
    refused(ep, "advance_tracking", "rule_violation", "tracking_number", tracking_number=number)
    track = ok(ep, "track_shipment", tracking_number=number)
    assert track["status"] == "delivered"
    assert [e["status"] for e in track["events"]] == ["pre_transit", *statuses]
    assert track["events"][-1]["city"] == track["address_to"]["city"]
    refused(ep, "void_label", "rule_violation", "transaction_id", transaction_id=label["id"])


def test_a_voided_label_does_not_move() -> None:
    ep = Episode(WORLD)
    voided = seeded("transactions", lambda t: t["status"] == "refunded")[0]
    refused(ep, "advance_tracking", "rule_violation", "tracking_number", tracking_number=voided["tracking_number"])


def test_tracking_an_unknown_number_is_not_found() -> None:
    ep = Episode(WORLD)
    refused(ep, "track_shipment", "not_found", "tracking_number", tracking_number="1Z0000000000000000")


# -- pickups -------------------------------------------------------------------------------


def pickup_args(label: dict[str, Any], start: str, end: str) -> dict[str, Any]:
    return {
        "carrier": label["carrier"],
        "address_id": warehouse()["id"],
        "transaction_ids": [label["id"]],
        "requested_start": start,
        "requested_end": end,
    }


def test_a_pickup_is_booked_for_waiting_labels() -> None:
    ep = Episode(WORLD)
    label = fresh_label(ep)
    pickup = ok(ep, "schedule_pickup", **pickup_args(label, "2026-03-03T13:00:00Z", "2026-03-03T17:00:00Z"))
    assert pickup["status"] == "confirmed"
    assert pickup["confirmation_code"].startswith("PU-")
    refused(
        ep,
        "schedule_pickup",
        "conflict",
        "transaction_ids.0",
        **pickup_args(label, "2026-03-04T13:00:00Z", "2026-03-04T17:00:00Z"),
    )


def test_a_pickup_window_in_the_past_or_shorter_than_two_hours_is_refused() -> None:
    ep = Episode(WORLD)
    label = fresh_label(ep)
    refused(
        ep,
        "schedule_pickup",
        "rule_violation",
        "requested_start",
        **pickup_args(label, "2026-03-01T13:00:00Z", "2026-03-01T17:00:00Z"),
    )
    refused(
        ep,
        "schedule_pickup",
        "rule_violation",
        "requested_end",
        **pickup_args(label, "2026-03-03T13:00:00Z", "2026-03-03T14:30:00Z"),
    )


def test_a_pickup_only_collects_the_carriers_own_waiting_labels() -> None:
    ep = Episode(WORLD)
    label = fresh_label(ep)
    other = next(c for c in ("ups", "fedex", "dhl_express") if c != label["carrier"])
    args = pickup_args(label, "2026-03-03T13:00:00Z", "2026-03-03T17:00:00Z")
    refused(ep, "schedule_pickup", "rule_violation", "transaction_ids.0", **{**args, "carrier": other})
    moving = label_in("in_transit")
    refused(
        ep,
        "schedule_pickup",
        "rule_violation",
        "transaction_ids.0",
        **{**args, "carrier": moving["carrier"], "transaction_ids": [moving["id"]]},
    )


def test_a_pickup_cannot_be_cancelled_once_its_window_started() -> None:
    ep = Episode(WORLD)
    label = fresh_label(ep)
    now = ep.now()
    start, end = (when.isoformat().replace("+00:00", "Z") for when in (now, now + dt.timedelta(hours=3)))
    pickup = ok(ep, "schedule_pickup", **pickup_args(label, start, end))
    assert ep.now() > now  # the write moved the clock past the window's start
    refused(ep, "cancel_pickup", "rule_violation", "pickup_id", pickup_id=pickup["id"])


# -- seed and the shop ---------------------------------------------------------------------


def test_every_status_is_seeded() -> None:
    assert {s["status"] for s in seeded("shipments")} == {"created", "rated", "purchased", "cancelled"}
    labels = seeded("transactions")
    assert {t["tracking_status"] for t in labels} == {"pre_transit", "in_transit", "out_for_delivery", "delivered"}
    assert {t["status"] for t in labels} == {"success", "refunded"}
    assert {a["validation_status"] for a in seeded("addresses")} == {"unverified", "valid", "invalid"}
    assert {p["status"] for p in seeded("pickups")} == {"confirmed", "cancelled"}


def test_addresses_are_the_populations() -> None:
    emails = {a["email"] for a in seeded("addresses")}
    assert {p.email for p in POP.consumers} <= emails
    assert warehouse()["address"] == POP.home.address.model_dump()


def rows(world: World, table: str) -> dict[str, dict[str, Any]]:
    """Every seeded record of a table, as JSON, by id."""
    return {rid: rec.model_dump(mode="json") for rid, rec in world.tables[table].records.items()}


BOTH = service_world("shop", "shipping")
SHOP = ServiceTools("shop")


def test_the_shops_shipped_orders_have_labels_under_the_same_order_and_tracking_numbers() -> None:
    orders = rows(BOTH, "shop.orders")
    labels = {t["tracking_number"]: t for t in rows(BOTH, "shipping.transactions").values()}
    shipments = rows(BOTH, "shipping.shipments")
    addresses = rows(BOTH, "shipping.addresses")
    fulfillments = list(rows(BOTH, "shop.fulfillments").values())
    assert fulfillments
    for ful in fulfillments:
        label = labels[ful["tracking_number"]]
        assert label["carrier"] == ful["tracking_company"]
        shipment = shipments[label["shipment_id"]]
        order = orders[ful["order_id"]]
        assert shipment["order_number"] == order["order_number"]
        assert addresses[shipment["address_to_id"]]["address"] == order["shipping_address"]


def test_a_label_bought_here_fulfills_a_shop_order() -> None:
    ep = Episode(BOTH)
    order = next(
        o
        for o in rows(BOTH, "shop.orders").values()
        if o["status"] == "open" and o["financial_status"] == "paid" and o["fulfillment_status"] == "unfulfilled"
    )
    customer = rows(BOTH, "shop.customers")[order["customer_id"]]
    src = next(a for a in rows(BOTH, "shipping.addresses").values() if a["company"] == BOTH.population.home.name)

    to = SHIPPING.ok(
        ep,
        "create_address",
        name=f"{customer['first_name']} {customer['last_name']}",
        address=order["shipping_address"],
        email=customer["email"],
    )
    parcel = SHIPPING.ok(ep, "create_parcel", length_cm=30, width_cm=20, height_cm=15, weight_grams=2000)
    shipment = SHIPPING.ok(
        ep,
        "create_shipment",
        address_from_id=src["id"],
        address_to_id=to["id"],
        parcel_id=parcel["id"],
        order_number=order["order_number"],
    )
    rate = SHIPPING.ok(ep, "get_rates", shipment_id=shipment["id"])[0]
    label = SHIPPING.ok(ep, "buy_label", rate_id=rate["id"])
    ful = SHOP.ok(
        ep,
        "create_fulfillment",
        order_id=order["id"],
        tracking_company=label["carrier"],
        tracking_number=label["tracking_number"],
    )
    assert ful["tracking_url"] == label["tracking_url_provider"]
    assert SHOP.ok(ep, "get_order", order_id=order["id"])["fulfillment_status"] == "fulfilled"
