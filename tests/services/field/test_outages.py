"""Gridwatch OMS: calls grouped into outages, confirmation, dispatch, ETRs, restoration, planned outages."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

OM = ServiceTools("outages")
WORLD = OM.world
ok, refused, every = OM.ok, OM.refused, OM.every
POP = WORLD.population
NOW = WORLD.epoch
STAFF = {p.email for p in POP.employees}


def at(hours: float) -> str:
    return (NOW + dt.timedelta(hours=hours)).isoformat()


def quiet_premise(ep: Episode) -> dict[str, Any]:
    busy = {o["device_id"] for o in every(ep, "list_outages") if o["status"] not in ("restored", "cancelled")}
    found: dict[str, Any] = next(p for p in every(ep, "list_premises") if p["transformer_id"] not in busy)
    return found


def test_premises_are_the_worlds_consumers_on_transformers(ep: Episode) -> None:
    consumers = {p.email: p for p in POP.consumers}
    for prem in every(ep, "list_premises"):
        person = consumers[prem["email"]]
        assert prem["customer_name"] == person.name
        assert ok(ep, "get_device", device_id=prem["transformer_id"])["kind"] == "transformer"
    for crew in every(ep, "list_crews"):
        assert crew["lead_email"] in STAFF


def test_a_call_predicts_an_outage_and_the_next_call_joins_it(ep: Episode) -> None:
    prem = quiet_premise(ep)
    call = ok(ep, "log_call", account_number=prem["account_number"], kind="no_power", caller_name="Pat")
    out = ok(ep, "get_outage", outage_id=call["outage_id"])
    assert (out["status"], out["device_id"]) == ("predicted", prem["transformer_id"])
    assert out["customers_affected"] == len(every(ep, "list_premises", transformer_id=prem["transformer_id"]))
    again = ok(ep, "log_call", account_number=prem["account_number"], kind="wire_down", caller_name="Pat")
    assert again["outage_id"] == out["id"]
    assert ok(ep, "get_outage", outage_id=out["id"])["emergency"] is True
    refused(
        ep,
        "log_call",
        "rule_violation",
        "account_number",
        account_number="ACCT-9999999",
        kind="no_power",
        caller_name="X",
    )


def test_a_flicker_call_alone_does_not_make_an_outage(ep: Episode) -> None:
    prem = quiet_premise(ep)
    n = len(every(ep, "list_outages"))
    call = ok(ep, "log_call", account_number=prem["account_number"], kind="flicker", caller_name="Lee")
    assert (call["outage_id"], call["status"]) == (None, "closed")
    assert len(every(ep, "list_outages")) == n


def test_only_confirmed_outages_take_an_available_crew(ep: Episode) -> None:
    predicted = every(ep, "list_outages", status="predicted")[0]
    free = every(ep, "list_crews", status="available")[0]
    refused(ep, "dispatch_crew", "rule_violation", "outage_id", outage_id=predicted["id"], crew_id=free["id"])
    confirmed = ok(ep, "confirm_outage", outage_id=predicted["id"], cause="animal")
    busy = every(ep, "list_crews", status="on_site")[0]
    refused(ep, "dispatch_crew", "rule_violation", "crew_id", outage_id=confirmed["id"], crew_id=busy["id"])
    sent = ok(ep, "dispatch_crew", outage_id=confirmed["id"], crew_id=free["id"])
    assert (sent["status"], sent["crew_id"]) == ("dispatched", free["id"])
    assert ok(ep, "get_crew", crew_id=free["id"])["status"] == "dispatched"


def test_restoration_needs_the_crew_on_site_and_frees_it(ep: Episode) -> None:
    out = every(ep, "list_outages", status="dispatched")[0]
    refused(ep, "restore_outage", "rule_violation", "outage_id", outage_id=out["id"])
    ok(ep, "crew_on_site", outage_id=out["id"])
    assert ok(ep, "get_crew", crew_id=out["crew_id"])["status"] == "on_site"
    done = ok(ep, "restore_outage", outage_id=out["id"], cause="vehicle")
    assert (done["status"], done["cause"]) == ("restored", "vehicle")
    assert done["customer_minutes"] >= 60 * out["customers_affected"]
    assert ok(ep, "get_crew", crew_id=out["crew_id"])["status"] == "available"
    assert {c["status"] for c in every(ep, "list_calls", outage_id=out["id"])} == {"closed"}


def test_the_etr_lies_ahead_and_counts_its_changes(ep: Episode) -> None:
    out = every(ep, "list_outages", status="confirmed")[0]
    refused(ep, "set_etr", "rule_violation", "etr", outage_id=out["id"], etr=at(-1))
    ok(ep, "set_etr", outage_id=out["id"], etr=at(2))
    moved = ok(ep, "set_etr", outage_id=out["id"], etr=at(5))
    assert moved["etr_changes"] == out["etr_changes"] + 2
    done = every(ep, "list_outages", status="restored")[0]
    refused(ep, "set_etr", "rule_violation", "outage_id", outage_id=done["id"], etr=at(3))


def test_only_predicted_outages_are_cancelled(ep: Episode) -> None:
    predicted = every(ep, "list_outages", status="predicted")[0]
    assert ok(ep, "cancel_outage", outage_id=predicted["id"])["status"] == "cancelled"
    confirmed = every(ep, "list_outages", status="confirmed")[0]
    refused(ep, "cancel_outage", "rule_violation", "outage_id", outage_id=confirmed["id"])


def test_affected_premises_lists_everyone_below_the_device_critical_first(ep: Episode) -> None:
    fuse = every(ep, "list_devices", kind="fuse")[0]
    out = ok(ep, "plan_outage", device_id=fuse["id"], start=at(49), end=at(53))
    below = {d["id"] for d in every(ep, "list_devices", parent_id=fuse["id"])}
    expect = [p for p in every(ep, "list_premises") if p["transformer_id"] in below]
    listed = ok(ep, "affected_premises", outage_id=out["id"])["premises"]
    assert {p["premise_id"] for p in listed} == {p["id"] for p in expect} and out["customers_affected"] == len(expect)
    flags = [p["critical_care"] for p in listed]
    assert flags == sorted(flags, reverse=True)
    urgent = ok(ep, "affected_premises", outage_id=out["id"], critical_only=True)["premises"]
    assert urgent == [p for p in listed if p["critical_care"]]


def test_planned_outages_need_48_hours_notice_and_a_free_device(ep: Episode) -> None:
    fuse = every(ep, "list_devices", kind="fuse")[1]
    refused(ep, "plan_outage", "rule_violation", "start", device_id=fuse["id"], start=at(24), end=at(30))
    refused(ep, "plan_outage", "rule_violation", "end", device_id=fuse["id"], start=at(50), end=at(50))
    made = ok(ep, "plan_outage", device_id=fuse["id"], start=at(50), end=at(54))
    assert (made["status"], made["cause"], made["planned"], made["etr"][:13]) == (
        "confirmed",
        "planned",
        True,
        at(54)[:13],
    )
    refused(ep, "plan_outage", "conflict", "device_id", device_id=fuse["id"], start=at(60), end=at(62))
