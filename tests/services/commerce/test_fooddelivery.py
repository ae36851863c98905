"""Forkful Eats: one-restaurant carts, store hours in local time, minimum order, fees, the kitchen's steps."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.engine.entities import Person
from tests.services.helpers import ServiceTools

EATS = ServiceTools("fooddelivery")
WORLD = EATS.world
ok, refused, every, seeded = EATS.ok, EATS.refused, EATS.every, EATS.seeded
POP = WORLD.population


def open_restaurant(ep: Episode, min_order: int | None = None) -> dict[str, Any]:
    for r in every(ep, "list_restaurants", status="online"):
        if ok(ep, "store_status", restaurant_id=r["id"])["open_now"] and min_order in (None, r["min_order"]):
            return r
    raise AssertionError("no open restaurant")


def eater_in(city: str) -> Person:
    return next(p for p in POP.consumers if p.address.city == city)


def fill_cart(ep: Episode, r: dict[str, Any], eater: Person, quantity: int = 2) -> dict[str, Any]:
    item = every(ep, "list_menu_items", restaurant_id=r["id"], available=True, category="mains")[0]
    return dict(
        ok(
            ep,
            "add_to_cart",
            customer_email=eater.email,
            customer_name=eater.name,
            menu_item_id=item["id"],
            quantity=quantity,
            replace_cart=True,
        )
    )


def checkout(ep: Episode, cart: dict[str, Any], eater: Person, **extra: Any) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "checkout_cart",
            cart_id=cart["id"],
            delivery_address=eater.address.model_dump(),
            customer_phone=eater.phone,
            **extra,
        )
    )


def placed(ep: Episode) -> tuple[dict[str, Any], Person]:
    r = open_restaurant(ep)
    eater = eater_in(r["address"]["city"])
    return checkout(ep, fill_cart(ep, r, eater), eater), eater


# -- the world ---------------------------------------------------------------------------------


def test_restaurants_are_in_the_consumers_cities_and_orders_go_to_their_homes() -> None:
    consumers = {p.email: p for p in POP.consumers}
    restaurants = {r["id"]: r for r in seeded("restaurants")}
    for o in seeded("orders"):
        eater = consumers[o["customer_email"]]
        assert (o["customer_name"], o["customer_phone"]) == (eater.name, eater.phone)
        assert o["delivery_address"] == eater.address.model_dump()
        assert restaurants[o["restaurant_id"]]["address"]["city"] == eater.address.city
    places = {p.city: p for p in POP.places}
    for r in restaurants.values():
        assert r["timezone"] == places[r["address"]["city"]].timezone


def test_seeded_order_totals_add_up() -> None:
    for o in seeded("orders"):
        assert o["subtotal"] == sum(li["unit_price"] * li["quantity"] for li in o["items"])
        assert o["service_fee"] == round(o["subtotal"] / 10)
        assert o["total"] == o["subtotal"] + o["delivery_fee"] + o["service_fee"] + o["tip"]
        assert o["refunded"] == (o["total"] if o["status"] in ("cancelled", "denied") else 0)


# -- carts -------------------------------------------------------------------------------------


def test_a_cart_holds_one_restaurant_unless_replaced(ep: Episode) -> None:
    r = open_restaurant(ep)
    eater = eater_in(r["address"]["city"])
    cart = fill_cart(ep, r, eater, 1)
    again = fill_cart(ep, r, eater, 2)
    assert again["id"] == cart["id"] and again["items"][0]["quantity"] == 3
    assert again["subtotal"] == 3 * again["items"][0]["unit_price"]
    other = next(x for x in every(ep, "list_menu_items", available=True) if x["restaurant_id"] != r["id"])
    args = dict(customer_email=eater.email, customer_name=eater.name, menu_item_id=other["id"])
    refused(ep, "add_to_cart", "conflict", "menu_item_id", **args)
    swapped = ok(ep, "add_to_cart", replace_cart=True, **args)
    assert (swapped["restaurant_id"], len(swapped["items"])) == (other["restaurant_id"], 1)


def test_a_sold_out_item_cannot_be_added_or_checked_out(ep: Episode) -> None:
    r = open_restaurant(ep)
    eater = eater_in(r["address"]["city"])
    cart = fill_cart(ep, r, eater)
    item_id = cart["items"][0]["menu_item_id"]
    ok(ep, "suspend_menu_item", menu_item_id=item_id)
    refused(
        ep, "add_to_cart", "rule_violation", "menu_item_id", customer_email=eater.email, customer_name=eater.name,
        menu_item_id=item_id,
    )  # fmt: skip
    refused(
        ep, "checkout_cart", "rule_violation", "cart_id", cart_id=cart["id"],
        delivery_address=eater.address.model_dump(), customer_phone=eater.phone,
    )  # fmt: skip
    ok(ep, "unsuspend_menu_item", menu_item_id=item_id)
    assert checkout(ep, cart, eater)["status"] == "created"


# -- checkout ----------------------------------------------------------------------------------


def test_checkout_prices_the_order_and_empties_the_cart(ep: Episode) -> None:
    r = open_restaurant(ep)
    eater = eater_in(r["address"]["city"])
    cart = fill_cart(ep, r, eater, 3)
    order = checkout(ep, cart, eater, tip=250)
    assert order["order_number"].startswith("FK-") and order["restaurant_name"] == r["name"]
    assert order["service_fee"] == round(cart["subtotal"] / 10)
    assert order["total"] == cart["subtotal"] + r["delivery_fee"] + order["service_fee"] + 250
    assert ok(ep, "get_cart", cart_id=cart["id"])["items"] == []
    refused(
        ep, "checkout_cart", "rule_violation", "cart_id", cart_id=cart["id"],
        delivery_address=eater.address.model_dump(), customer_phone=eater.phone,
    )  # fmt: skip


def test_a_closed_restaurant_takes_no_orders_and_says_when_it_opens(ep: Episode) -> None:
    closed = next(
        r
        for r in every(ep, "list_restaurants", status="online")
        if not ok(ep, "store_status", restaurant_id=r["id"])["open_now"]
    )
    status = ok(ep, "store_status", restaurant_id=closed["id"])
    assert not status["accepting_orders"] and status["next_opening"] is not None
    eater = eater_in(closed["address"]["city"])
    cart = fill_cart(ep, closed, eater, 3)
    msg = refused(
        ep, "checkout_cart", "rule_violation", "cart_id", cart_id=cart["id"],
        delivery_address=eater.address.model_dump(), customer_phone=eater.phone,
    )  # fmt: skip
    assert "closed" in msg


def test_a_paused_restaurant_takes_no_orders(ep: Episode) -> None:
    r = open_restaurant(ep)
    eater = eater_in(r["address"]["city"])
    cart = fill_cart(ep, r, eater)
    ok(ep, "pause_restaurant", restaurant_id=r["id"])
    refused(
        ep, "checkout_cart", "rule_violation", "cart_id", cart_id=cart["id"],
        delivery_address=eater.address.model_dump(), customer_phone=eater.phone,
    )  # fmt: skip
    ok(ep, "resume_restaurant", restaurant_id=r["id"])
    assert checkout(ep, cart, eater)["status"] == "created"


def test_the_minimum_order_and_the_delivery_city(ep: Episode) -> None:
    r = next(
        x
        for x in every(ep, "list_restaurants", status="online")
        if x["min_order"] > 0 and ok(ep, "store_status", restaurant_id=x["id"])["open_now"]
    )
    eater = eater_in(r["address"]["city"])
    cheapest = min(every(ep, "list_menu_items", restaurant_id=r["id"], available=True), key=lambda i: i["price"])
    cart = ok(
        ep, "add_to_cart", customer_email=eater.email, customer_name=eater.name, menu_item_id=cheapest["id"],
        replace_cart=True,
    )  # fmt: skip
    assert cart["subtotal"] < r["min_order"]
    refused(
        ep, "checkout_cart", "rule_violation", "cart_id", cart_id=cart["id"],
        delivery_address=eater.address.model_dump(), customer_phone=eater.phone,
    )  # fmt: skip
    cart = fill_cart(ep, r, eater, 3)
    far = next(p for p in POP.consumers if p.address.city != r["address"]["city"])
    refused(
        ep, "checkout_cart", "rule_violation", "delivery_address", cart_id=cart["id"],
        delivery_address=far.address.model_dump(), customer_phone=eater.phone,
    )  # fmt: skip


def test_store_hours_cannot_close_before_they_open(ep: Episode) -> None:
    r = seeded("restaurants")[0]
    bad = [{"day": "monday", "opens": "18:00", "closes": "09:00"}]
    refused(ep, "update_restaurant", "rule_violation", "hours.0", restaurant_id=r["id"], hours=bad)
    overlap = [
        {"day": "friday", "opens": "09:00", "closes": "15:00"},
        {"day": "friday", "opens": "14:00", "closes": "22:00"},
    ]
    refused(ep, "update_restaurant", "rule_violation", "hours.1", restaurant_id=r["id"], hours=overlap)


# -- the kitchen -------------------------------------------------------------------------------


def test_an_accepted_order_moves_through_the_kitchen_one_step_at_a_time(ep: Episode) -> None:
    order, _ = placed(ep)
    refused(ep, "update_order_status", "rule_violation", "order_id", order_id=order["id"], status="preparing")
    accepted = ok(ep, "accept_order", order_id=order["id"], prep_time_minutes=15)
    assert accepted["status"] == "accepted" and accepted["estimated_ready_at"] is not None
    refused(ep, "accept_order", "rule_violation", "order_id", order_id=order["id"])
    refused(ep, "update_order_status", "rule_violation", "status", order_id=order["id"], status="picked_up")
    for step in ("preparing", "ready_for_pickup", "picked_up", "delivered"):
        assert ok(ep, "update_order_status", order_id=order["id"], status=step)["status"] == step
    refused(ep, "update_order_status", "rule_violation", "order_id", order_id=order["id"], status="delivered")


def test_denying_refunds_and_needs_a_reason(ep: Episode) -> None:
    order, _ = placed(ep)
    refused(ep, "deny_order", "rule_violation", "reason", order_id=order["id"], reason=" ")
    denied = ok(ep, "deny_order", order_id=order["id"], reason="Out of ramen broth")
    assert (denied["status"], denied["refunded"]) == ("denied", order["total"])


def test_an_order_can_be_cancelled_only_before_the_kitchen_starts(ep: Episode) -> None:
    order, _ = placed(ep)
    ok(ep, "accept_order", order_id=order["id"])
    cancelled = ok(ep, "cancel_order", order_id=order["id"], reason="Changed my mind")
    assert (cancelled["status"], cancelled["refunded"]) == ("cancelled", order["total"])
    cooking = every(ep, "list_orders", status="preparing")[0]
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=cooking["id"], reason="Too slow")
