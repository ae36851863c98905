"""Hearthline Restaurant POS: tables, modifier rules, 86'd items, kitchen tickets, manager voids, payments, closing."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.commerce.kitchen import tax_on
from tests.services.helpers import ServiceTools

KITCHEN = ServiceTools("kitchen")
WORLD = KITCHEN.world
ok, refused, every, first = KITCHEN.ok, KITCHEN.refused, KITCHEN.every, KITCHEN.first
POP = WORLD.population


def item(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "menu_items", query=name)


def staff(ep: Episode, job: str, active: bool = True) -> dict[str, Any]:
    return first(ep, "employees", job=job, active=active)


def free_table(ep: Episode, seats: int = 4) -> dict[str, Any]:
    busy = {o["table_id"] for o in every(ep, "list_orders", status="open")}
    return next(t for t in every(ep, "list_dining_tables") if t["id"] not in busy and t["seats"] >= seats)


def new_check(ep: Episode) -> dict[str, Any]:
    table = free_table(ep)
    check: dict[str, Any] = ok(
        ep,
        "open_order",
        dining_option="dine_in",
        server_id=staff(ep, "server")["id"],
        table_id=table["id"],
        guest_count=3,
    )
    return check


def burger(ep: Episode, check: dict[str, Any], **kw: Any) -> dict[str, Any]:
    args = {"modifiers": ["medium", "fries"]} | kw
    out: dict[str, Any] = ok(
        ep, "add_selection", check_id=check["id"], menu_item_id=item(ep, "House Burger")["id"], **args
    )
    return out


def test_the_seeded_restaurant_uses_the_population_and_checks_add_up(ep: Episode) -> None:
    emails = {p.email for p in POP.employees}
    assert {e["email"] for e in every(ep, "list_employees")} <= emails
    assert item(ep, "Ribeye Steak")["out_of_stock"] is True
    phones = {p.phone for p in POP.consumers}
    takeout = every(ep, "list_orders", dining_option="takeout")
    assert takeout and all(o["customer_phone"] in phones and o["table_id"] is None for o in takeout)
    for c in every(ep, "list_checks"):
        assert c["subtotal"] == sum(s["price"] for s in c["selections"] if not s["voided"])
        assert c["total"] == c["subtotal"] + tax_on(c["subtotal"]) and c["balance_due"] == c["total"] - c["paid"]
    assert {t["status"] for t in every(ep, "list_tickets")} == {"fired", "ready", "served"}


def test_a_table_takes_one_open_order_and_no_more_guests_than_it_seats(ep: Episode) -> None:
    busy = first(ep, "orders", status="open", dining_option="dine_in")
    server = staff(ep, "server")["id"]
    refused(
        ep, "open_order", "conflict", "table_id", dining_option="dine_in", server_id=server, table_id=busy["table_id"]
    )
    busy_ids = {o["table_id"] for o in every(ep, "list_orders", status="open")}
    small = next(t for t in every(ep, "list_dining_tables") if t["seats"] == 2 and t["id"] not in busy_ids)
    refused(
        ep,
        "open_order",
        "rule_violation",
        "guest_count",
        dining_option="dine_in",
        server_id=server,
        table_id=small["id"],
        guest_count=5,
    )
    refused(ep, "open_order", "rule_violation", "table_id", dining_option="dine_in", server_id=server)
    refused(
        ep,
        "open_order",
        "rule_violation",
        "server_id",
        dining_option="dine_in",
        server_id=staff(ep, "cook")["id"],
        table_id=small["id"],
    )
    check = ok(ep, "open_order", dining_option="dine_in", server_id=server, table_id=small["id"], guest_count=4)
    assert check["status"] == "OPEN" and check["total"] == 0
    order = ok(ep, "get_order", order_id=check["order_id"])
    assert (order["table_id"], order["status"]) == (small["id"], "open")


def test_takeout_needs_the_guests_name_and_phone_and_no_table(ep: Episode) -> None:
    guest = POP.consumers[0]
    server = staff(ep, "server")["id"]
    refused(
        ep,
        "open_order",
        "rule_violation",
        "customer_phone",
        dining_option="takeout",
        server_id=server,
        customer_name=guest.name,
    )
    refused(
        ep,
        "open_order",
        "rule_violation",
        "table_id",
        dining_option="takeout",
        server_id=server,
        customer_name=guest.name,
        customer_phone=guest.phone,
        table_id=free_table(ep)["id"],
    )
    check = ok(
        ep,
        "open_order",
        dining_option="takeout",
        server_id=server,
        customer_name=guest.name,
        customer_phone=guest.phone,
    )
    assert ok(ep, "get_order", order_id=check["order_id"])["customer_phone"] == guest.phone


def test_modifier_groups_need_their_minimum_and_allow_their_maximum(ep: Episode) -> None:
    check = new_check(ep)
    burger_id = item(ep, "House Burger")["id"]
    refused(
        ep,
        "add_selection",
        "rule_violation",
        "modifiers",
        check_id=check["id"],
        menu_item_id=burger_id,
        modifiers=["medium"],
    )
    refused(
        ep,
        "add_selection",
        "rule_violation",
        "modifiers",
        check_id=check["id"],
        menu_item_id=burger_id,
        modifiers=["medium", "rare", "fries"],
    )
    refused(
        ep,
        "add_selection",
        "rule_violation",
        "modifiers",
        check_id=check["id"],
        menu_item_id=burger_id,
        modifiers=["medium", "fries", "ketchup"],
    )
    done = burger(ep, check, modifiers=["medium", "truffle fries", "bacon", "avocado"], quantity=2)
    sel = done["selections"][0]
    assert sel["unit_price"] == 1900 + 300 + 250 + 200 and sel["price"] == 2 * sel["unit_price"]
    assert done["subtotal"] == sel["price"] and done["tax"] == tax_on(sel["price"])


def test_an_86d_item_cannot_be_ordered_until_back_in_stock(ep: Episode) -> None:
    check = new_check(ep)
    steak = item(ep, "Ribeye Steak")
    args = {"check_id": check["id"], "menu_item_id": steak["id"], "modifiers": ["rare", "salad"]}
    refused(ep, "add_selection", "rule_violation", "menu_item_id", **args)
    ok(ep, "update_menu_item", menu_item_id=steak["id"], out_of_stock=False)
    assert ok(ep, "add_selection", **args)["subtotal"] == 4200


def test_firing_makes_one_ticket_per_station_which_goes_fired_ready_served(ep: Episode) -> None:
    check = new_check(ep)
    burger(ep, check)
    ok(ep, "add_selection", check_id=check["id"], menu_item_id=item(ep, "Draft IPA")["id"], quantity=2)
    fired = ok(ep, "fire_check", check_id=check["id"])
    assert sorted(t["station"] for t in fired["tickets"]) == ["bar", "grill"]
    assert all(s["fired"] for s in fired["check"]["selections"])
    refused(ep, "fire_check", "rule_violation", "check_id", check_id=check["id"])
    grill = next(t for t in fired["tickets"] if t["station"] == "grill")
    assert grill["items"][0]["modifiers"] == ["medium", "fries"]
    refused(ep, "serve_ticket", "rule_violation", "ticket_id", ticket_id=grill["id"])
    assert ok(ep, "bump_ticket", ticket_id=grill["id"])["ready_at"] is not None
    served = ok(ep, "serve_ticket", ticket_id=grill["id"])
    assert served["status"] == "served" and served["served_at"] is not None


def test_voids_need_an_active_manager_and_cannot_undercut_payments(ep: Episode) -> None:
    check = new_check(ep)
    burger(ep, check)
    two = ok(ep, "add_selection", check_id=check["id"], menu_item_id=item(ep, "Truffle Fries")["id"])
    args = {"check_id": check["id"], "selection_id": "sel_002", "reason": "kitchen_error"}
    refused(ep, "void_selection", "rule_violation", "manager_id", manager_id=staff(ep, "server")["id"], **args)
    refused(ep, "void_selection", "rule_violation", "manager_id", manager_id=staff(ep, "manager", False)["id"], **args)
    manager = staff(ep, "manager")["id"]
    ok(ep, "add_payment", check_id=check["id"], payment_type="CASH", amount=two["total"] - 100)
    refused(ep, "void_selection", "rule_violation", "selection_id", manager_id=manager, **args)
    three = ok(ep, "add_selection", check_id=check["id"], menu_item_id=item(ep, "Sparkling Water")["id"])
    after = ok(
        ep,
        "void_selection",
        check_id=check["id"],
        selection_id="sel_003",
        manager_id=manager,
        reason="customer_changed_mind",
    )
    assert after["total"] == two["total"] and after["selections"][2]["voided_by"] == manager
    assert three["total"] > after["total"]
    refused(
        ep,
        "void_selection",
        "conflict",
        "selection_id",
        check_id=check["id"],
        selection_id="sel_003",
        manager_id=manager,
        reason="comp",
    )


def test_payments_stay_within_the_balance_and_tips_go_on_cards(ep: Episode) -> None:
    check = new_check(ep)
    total = burger(ep, check)["total"]
    refused(ep, "add_payment", "rule_violation", "amount", check_id=check["id"], payment_type="CASH", amount=total + 1)
    refused(
        ep,
        "add_payment",
        "rule_violation",
        "tip_amount",
        check_id=check["id"],
        payment_type="CASH",
        amount=100,
        tip_amount=50,
    )
    refused(ep, "add_payment", "rule_violation", "card_last4", check_id=check["id"], payment_type="CREDIT", amount=100)
    half = ok(ep, "add_payment", check_id=check["id"], payment_type="CASH", amount=1000)
    assert (half["status"], half["balance_due"]) == ("OPEN", total - 1000)
    paid = ok(
        ep,
        "add_payment",
        check_id=check["id"],
        payment_type="CREDIT",
        amount=total - 1000,
        tip_amount=400,
        card_last4="1881",
    )
    assert (paid["status"], paid["balance_due"], paid["tips"], paid["paid"]) == ("PAID", 0, 400, total)
    refused(ep, "add_payment", "rule_violation", "check_id", check_id=check["id"], payment_type="CASH", amount=1)


def test_a_check_closes_only_paid_and_fired_and_closing_frees_the_table(ep: Episode) -> None:
    check = new_check(ep)
    table = ok(ep, "get_order", order_id=check["order_id"])["table_id"]
    total = burger(ep, check)["total"]
    refused(ep, "close_check", "rule_violation", "check_id", check_id=check["id"])
    ok(ep, "add_payment", check_id=check["id"], payment_type="CASH", amount=total)
    refused(ep, "close_check", "rule_violation", "check_id", check_id=check["id"])
    ok(ep, "fire_check", check_id=check["id"])
    order = ok(ep, "close_check", check_id=check["id"])
    assert order["status"] == "closed" and order["closed_at"] is not None
    assert ok(ep, "get_check", check_id=check["id"])["status"] == "CLOSED"
    refused(
        ep,
        "add_selection",
        "rule_violation",
        "check_id",
        check_id=check["id"],
        menu_item_id=item(ep, "Draft IPA")["id"],
    )
    again = ok(ep, "open_order", dining_option="dine_in", server_id=staff(ep, "server")["id"], table_id=table)
    assert again["order_id"] != check["order_id"]
