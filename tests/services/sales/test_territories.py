"""Gridline: rule routing of world accounts, carve-outs, quotas with approval, retiring and rebalancing."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TR = ServiceTools("territories")
WORLD = TR.world
ok, refused, every = TR.ok, TR.refused, TR.every
POP = WORLD.population
COMPANIES = {c.name: c for c in POP.customers}


def territory(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_territories", name=name)[0]


def test_every_account_is_routed_by_its_country_and_size(ep: Episode) -> None:
    found = every(ep, "list_assignments")
    assert {a["account_name"] for a in found} == set(COMPANIES)
    for a in found:
        t = ok(ep, "get_territory", territory_id=a["territory_id"])
        c = COMPANIES[a["account_name"]]
        assert t["min_employees"] <= c.employees <= t["max_employees"]
        assert not t["countries"] or c.place.country in t["countries"]
        if a["source"] == "rule":
            assert a["rep_email"] == t["owner_email"]


def test_routing_picks_the_most_specific_active_territory(ep: Episode) -> None:
    big_us = next(c for c in POP.customers if c.employees >= 1000 and c.place.country == "US")
    again = ok(ep, "route_account", account_name=big_us.name)
    assert again["territory_id"] == territory(ep, "North America Enterprise")["id"]
    refused(ep, "route_account", "rule_violation", "account_name", account_name="Unknown Corp")
    na = territory(ep, "North America Enterprise")
    ok(ep, "update_territory", territory_id=na["id"], countries=["CA"])
    refused(ep, "route_account", "rule_violation", "account_name", account_name=big_us.name)


def test_carved_out_accounts_stay_with_their_rep_until_the_carve_out_ends(ep: Episode) -> None:
    co = every(ep, "list_carve_outs", status="active")[0]
    refused(ep, "route_account", "rule_violation", "account_name", account_name=co["account_name"])
    refused(
        ep,
        "carve_out",
        "conflict",
        "account_name",
        account_name=co["account_name"],
        rep_email=co["rep_email"],
        reason="Again",
    )
    ok(ep, "end_carve_out", carve_out_id=co["id"])
    [a] = every(ep, "list_assignments", account_name=co["account_name"])
    owner = ok(ep, "get_territory", territory_id=a["territory_id"])["owner_email"]
    assert (a["rep_email"], a["source"]) == (owner, "rule")


def test_changing_a_territory_owner_moves_its_rule_accounts(ep: Episode) -> None:
    t = territory(ep, "Global Mid-Market")
    new_owner = next(p.email for p in POP.employees if p.email != t["owner_email"])
    ok(ep, "update_territory", territory_id=t["id"], owner_email=new_owner)
    for a in every(ep, "list_assignments", territory_id=t["id"], source="rule"):
        assert a["rep_email"] == new_owner


def test_a_territory_with_accounts_cannot_be_retired(ep: Episode) -> None:
    t = territory(ep, "APAC Enterprise")
    refused(ep, "retire_territory", "rule_violation", "territory_id", territory_id=t["id"])
    empty = ok(
        ep,
        "create_territory",
        name="LATAM",
        segment="mid_market",
        owner_email=POP.employees[0].email,
        countries=["BR"],
        min_employees=200,
        max_employees=999,
    )
    assert ok(ep, "retire_territory", territory_id=empty["id"])["status"] == "retired"
    refused(ep, "set_quota", "rule_violation", "territory_id", territory_id=empty["id"], period="2030-Q1", amount=5)


def test_quotas_are_one_per_quarter_and_locked_once_approved(ep: Episode) -> None:
    draft = every(ep, "list_quotas", status="draft")[0]
    owner = ok(ep, "get_territory", territory_id=draft["territory_id"])["owner_email"]
    changed = ok(ep, "set_quota", territory_id=draft["territory_id"], period=draft["period"], amount=1_000)
    assert changed["id"] == draft["id"] and changed["amount"] == 1_000
    refused(ep, "approve_quota", "rule_violation", "approved_by", quota_id=draft["id"], approved_by=owner)
    leader = next(p.email for p in POP.employees if p.email != owner)
    ok(ep, "approve_quota", quota_id=draft["id"], approved_by=leader)
    refused(
        ep, "set_quota", "conflict", "period", territory_id=draft["territory_id"], period=draft["period"], amount=2_000
    )
    refused(ep, "approve_quota", "conflict", "quota_id", quota_id=draft["id"], approved_by=leader)


def test_an_approved_rebalance_moves_the_account(ep: Episode) -> None:
    req = every(ep, "list_rebalance_requests", status="pending")[0]
    refused(
        ep,
        "decide_rebalance",
        "rule_violation",
        "decided_by",
        rebalance_request_id=req["id"],
        approve=True,
        decided_by=req["requested_by"],
    )
    leader = next(p.email for p in POP.employees if p.email != req["requested_by"])
    ok(ep, "decide_rebalance", rebalance_request_id=req["id"], approve=True, decided_by=leader)
    [a] = every(ep, "list_assignments", account_name=req["account_name"])
    target = ok(ep, "get_territory", territory_id=req["to_territory_id"])
    assert (a["territory_id"], a["rep_email"], a["source"]) == (target["id"], target["owner_email"], "rebalance")


def test_rebalance_requests_need_a_different_live_territory_and_no_pending_twin(ep: Episode) -> None:
    a = every(ep, "list_assignments")[5]
    me = POP.employees[0].email
    refused(
        ep,
        "request_rebalance",
        "rule_violation",
        "to_territory_id",
        account_name=a["account_name"],
        to_territory_id=a["territory_id"],
        reason="x",
        requested_by=me,
    )
    other = next(t for t in every(ep, "list_territories", status="active") if t["id"] != a["territory_id"])
    made = ok(
        ep,
        "request_rebalance",
        account_name=a["account_name"],
        to_territory_id=other["id"],
        reason="x",
        requested_by=me,
    )
    assert made["from_territory_id"] == a["territory_id"]
    refused(
        ep,
        "request_rebalance",
        "conflict",
        "account_name",
        account_name=a["account_name"],
        to_territory_id=other["id"],
        reason="x",
        requested_by=me,
    )
    summary = ok(ep, "territory_summary", territory_id=a["territory_id"])
    assert summary["accounts"] == len(every(ep, "list_assignments", territory_id=a["territory_id"]))
