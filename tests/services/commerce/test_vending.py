"""Coilpoint Vending: sales from coils, stock alerts, pick lists, service visits, planogram changes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

VD = ServiceTools("vending")
WORLD = VD.world
ok, refused, every = VD.ok, VD.refused, VD.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
A = POP.employees[0].email


def online(ep: Episode) -> dict[str, Any]:
    found: dict[str, Any] = every(ep, "list_machines", status="online")[0]
    return found


def coil_with(ep: Episode, machine_id: str, on_hand: int) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in every(ep, "list_coils", machine_id=machine_id) if c["on_hand"] == on_hand)
    return found


def test_machines_stand_at_customer_companies(ep: Episode) -> None:
    names = {c.name for c in POP.customers}
    for loc in every(ep, "list_locations"):
        assert loc["name"] in names
    for coil in every(ep, "list_coils"):
        assert 0 <= coil["on_hand"] <= coil["capacity"]
        open_out = every(ep, "list_alerts", machine_id=coil["machine_id"], kind="out_of_stock", status="open")
        assert (coil["on_hand"] == 0) == any(a["coil_code"] == coil["code"] for a in open_out)


def test_a_sale_takes_one_unit_and_the_last_raises_out_of_stock(ep: Episode) -> None:
    m = online(ep)
    coil = coil_with(ep, m["id"], 1)
    sale = ok(ep, "record_sale", machine_id=m["id"], coil_code=coil["code"], payment="mobile")
    assert (sale["sku"], sale["price_cents"]) == (coil["sku"], coil["price_cents"])
    assert ok(ep, "get_coil", coil_id=coil["id"])["on_hand"] == 0
    alerts = every(ep, "list_alerts", machine_id=m["id"], kind="out_of_stock", status="open")
    assert coil["code"] in {a["coil_code"] for a in alerts}
    refused(
        ep, "record_sale", "rule_violation", "coil_code", machine_id=m["id"], coil_code=coil["code"], payment="cash"
    )


def test_a_coil_at_par_raises_one_low_stock_alert(ep: Episode) -> None:
    m = online(ep)
    coil = coil_with(ep, m["id"], 8)
    for _ in range(6):
        ok(ep, "record_sale", machine_id=m["id"], coil_code=coil["code"], payment="card")
    ok(ep, "record_sale", machine_id=m["id"], coil_code=coil["code"], payment="card")
    low = [a for a in every(ep, "list_alerts", machine_id=m["id"], kind="low_stock") if a["coil_code"] == coil["code"]]
    assert len(low) == 1


def test_offline_machines_and_unknown_coils_do_not_sell(ep: Episode) -> None:
    off = every(ep, "list_machines", status="offline")[0]
    refused(ep, "record_sale", "rule_violation", "machine_id", machine_id=off["id"], coil_code="A1", payment="cash")
    refused(
        ep, "record_sale", "rule_violation", "coil_code", machine_id=online(ep)["id"], coil_code="H9", payment="cash"
    )


def test_going_offline_and_back_raises_and_resolves_an_alert(ep: Episode) -> None:
    m = online(ep)
    ok(ep, "mark_offline_machine", machine_id=m["id"])
    assert every(ep, "list_alerts", machine_id=m["id"], kind="offline", status="open")
    ok(ep, "mark_online_machine", machine_id=m["id"])
    assert not every(ep, "list_alerts", machine_id=m["id"], kind="offline", status="open")


def test_the_pick_list_fills_every_coil_to_capacity(ep: Episode) -> None:
    m = online(ep)
    coils = every(ep, "list_coils", machine_id=m["id"])
    lines = ok(ep, "pick_list", machine_id=m["id"])
    assert sum(line["units"] for line in lines) == sum(c["capacity"] - c["on_hand"] for c in coils)


def test_a_visit_restocks_everything_once_and_resolves_stock_alerts(ep: Episode) -> None:
    visit = every(ep, "list_visits", status="scheduled")[0]
    need = sum(line["units"] for line in ok(ep, "pick_list", machine_id=visit["machine_id"]))
    done = ok(ep, "complete_visit", visit_id=visit["id"], cash_collected_cents=2500)
    assert (done["status"], done["units_added"]) == ("completed", need)
    assert all(c["on_hand"] == c["capacity"] for c in every(ep, "list_coils", machine_id=visit["machine_id"]))
    open_stock = [
        a for a in every(ep, "list_alerts", machine_id=visit["machine_id"], status="open") if a["kind"] != "offline"
    ]
    assert open_stock == []
    refused(ep, "complete_visit", "conflict", "visit_id", visit_id=visit["id"])


def test_visits_are_scheduled_for_staff_drivers_ahead(ep: Episode) -> None:
    m = online(ep)
    refused(
        ep,
        "create_visit",
        "rule_violation",
        "driver_email",
        machine_id=m["id"],
        driver_email="x@y.io",
        scheduled_on=TODAY.isoformat(),
    )
    past = (TODAY - dt.timedelta(days=1)).isoformat()
    refused(ep, "create_visit", "rule_violation", "scheduled_on", machine_id=m["id"], driver_email=A, scheduled_on=past)
    assert (
        ok(ep, "create_visit", machine_id=m["id"], driver_email=A, scheduled_on=TODAY.isoformat())["status"]
        == "scheduled"
    )


def test_a_coil_changes_product_or_price_only_when_empty(ep: Episode) -> None:
    m = online(ep)
    full = coil_with(ep, m["id"], 8)
    refused(ep, "update_coil", "rule_violation", "coil_id", coil_id=full["id"], price_cents=999)
    refused(ep, "update_coil", "rule_violation", "par_level", coil_id=full["id"], par_level=full["capacity"])
    empty = coil_with(ep, m["id"], 0)
    moved = ok(ep, "update_coil", coil_id=empty["id"], sku="SNK-9009", product_name="Protein bar", price_cents=250)
    assert (moved["sku"], moved["price_cents"]) == ("SNK-9009", 250)
