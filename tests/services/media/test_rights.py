"""Rightsbook: rights in, availability and exclusivity conflicts, deal workflow, royalty statements."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

RB = ServiceTools("rights")
WORLD = RB.world
ok, refused, every = RB.ok, RB.refused, RB.every
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in WORLD.population.employees}
BOSS = WORLD.population.employees[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def film(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_properties", type="film")[0]


def draft(ep: Episode, **over: Any) -> dict[str, Any]:
    args = {
        "property_id": film(ep)["id"],
        "licensee": "Streamly Media",
        "licensee_email": "r@streamly.example",
        "media": ["svod"],
        "territories": ["FR"],
        "starts_on": day(30),
        "ends_on": day(400),
        "royalty_rate": 10,
    } | over
    return dict(ok(ep, "draft_deal", **args))


def test_seeded_titles_are_managed_by_staff_and_deals_cover_every_state(ep: Episode) -> None:
    assert all(p["manager_email"] in STAFF for p in every(ep, "list_properties"))
    statuses = {d["status"] for d in every(ep, "list_deals")}
    assert statuses == {"draft", "pending_approval", "executed", "expired"}
    for st in every(ep, "list_statements"):
        deal = ok(ep, "get_deal", deal_id=st["deal_id"])
        assert st["royalty_due"] == round(st["gross_receipts"] * deal["royalty_rate"] / 100)


def test_availability_needs_rights_in_for_every_media_territory_and_day(ep: Episode) -> None:
    p = film(ep)
    rin = every(ep, "list_rights_in", property_id=p["id"])[0]
    free = ok(
        ep,
        "check_availability",
        property_id=p["id"],
        media=["avod"],
        territories=["FR"],
        starts_on=day(10),
        ends_on=day(20),
    )
    assert free["available"] is ("WW" in rin["territories"] or "FR" in rin["territories"])
    past_term = ok(
        ep,
        "check_availability",
        property_id=p["id"],
        media=["avod"],
        territories=["US"],
        starts_on=day(10),
        ends_on=(dt.date.fromisoformat(rin["ends_on"]) + dt.timedelta(days=1)).isoformat(),
    )
    assert not past_term["available"]
    print_rights = ok(
        ep,
        "check_availability",
        property_id=p["id"],
        media=["print"],
        territories=["US"],
        starts_on=day(10),
        ends_on=day(20),
    )
    assert not print_rights["available"] and "print" in print_rights["reasons"][0]
    refused(
        ep,
        "check_availability",
        "rule_violation",
        "ends_on",
        property_id=p["id"],
        media=["tv"],
        territories=["US"],
        starts_on=day(20),
        ends_on=day(10),
    )


def test_an_exclusive_executed_deal_blocks_overlapping_deals(ep: Episode) -> None:
    p = film(ep)
    excl = every(ep, "list_deals", property_id=p["id"], status="executed", exclusive=True)[0]
    av = ok(
        ep,
        "check_availability",
        property_id=p["id"],
        media=list(excl["media"]),
        territories=list(excl["territories"]),
        starts_on=excl["starts_on"],
        ends_on=excl["ends_on"],
    )
    assert av["conflicting_deal_ids"] == [excl["id"]]
    deal = draft(
        ep, media=list(excl["media"]), territories=list(excl["territories"]), starts_on=day(0), ends_on=day(30)
    )
    ok(ep, "submit_deal", deal_id=deal["id"])
    refused(ep, "execute_deal", "conflict", "deal_id", deal_id=deal["id"], approver_email=BOSS)
    ok(ep, "cancel_deal", deal_id=excl["id"])
    assert ok(ep, "execute_deal", deal_id=deal["id"], approver_email=BOSS)["status"] == "executed"


def test_a_deal_moves_draft_to_pending_to_executed_with_a_staff_approver(ep: Episode) -> None:
    deal = draft(ep, media=["avod"], territories=["CA"])
    refused(ep, "execute_deal", "rule_violation", "deal_id", deal_id=deal["id"], approver_email=BOSS)
    ok(ep, "submit_deal", deal_id=deal["id"])
    refused(ep, "update_deal", "rule_violation", "deal_id", deal_id=deal["id"], fee=1)
    refused(ep, "execute_deal", "rule_violation", "approver_email", deal_id=deal["id"], approver_email="a@b.io")
    done = ok(ep, "execute_deal", deal_id=deal["id"], approver_email=BOSS)
    assert done["status"] == "executed"
    refused(ep, "delete_deal", "rule_violation", "deal_id", deal_id=deal["id"])


def test_drafts_need_a_valid_term_and_can_be_edited_and_deleted(ep: Episode) -> None:
    p = film(ep)
    refused(
        ep,
        "draft_deal",
        "rule_violation",
        "ends_on",
        property_id=p["id"],
        licensee="X Co",
        licensee_email="x@x.io",
        media=["tv"],
        territories=["US"],
        starts_on=day(50),
        ends_on=day(10),
    )
    refused(
        ep,
        "draft_deal",
        "rule_violation",
        "media",
        property_id=p["id"],
        licensee="X Co",
        licensee_email="x@x.io",
        media=[],
        territories=["US"],
        starts_on=day(5),
        ends_on=day(10),
    )
    deal = draft(ep)
    assert ok(ep, "update_deal", deal_id=deal["id"], fee=990000)["fee"] == 990000
    ok(ep, "delete_deal", deal_id=deal["id"])


def test_statements_are_one_per_quarter_for_executed_deals(ep: Episode) -> None:
    deal = draft(ep, media=["avod"], territories=["CA"], royalty_rate=12.5)
    refused(
        ep, "create_statement", "rule_violation", "deal_id", deal_id=deal["id"], quarter="2026-Q1", gross_receipts=100
    )
    ok(ep, "submit_deal", deal_id=deal["id"])
    ok(ep, "execute_deal", deal_id=deal["id"], approver_email=BOSS)
    st = ok(ep, "create_statement", deal_id=deal["id"], quarter="2026-Q1", gross_receipts=800000)
    assert (st["royalty_due"], st["status"]) == (100000, "draft")
    refused(ep, "create_statement", "conflict", "quarter", deal_id=deal["id"], quarter="2026-Q1", gross_receipts=5)
    refused(ep, "pay_statement", "rule_violation", "statement_id", statement_id=st["id"])
    ok(ep, "send_statement", statement_id=st["id"])
    assert ok(ep, "pay_statement", statement_id=st["id"])["status"] == "paid"


def test_acquired_rights_open_new_availability(ep: Episode) -> None:
    p = film(ep)
    args = {
        "property_id": p["id"],
        "media": ["theatrical"],
        "territories": ["JP"],
        "starts_on": day(10),
        "ends_on": day(100),
    }
    assert not ok(ep, "check_availability", **args)["available"]
    refused(ep, "acquire_rights", "rule_violation", "ends_on", licensor="Kumo Films", **(args | {"ends_on": day(5)}))
    ok(ep, "acquire_rights", licensor="Kumo Films", **(args | {"starts_on": day(0), "ends_on": day(365)}))
    assert ok(ep, "check_availability", **args)["available"]


def test_properties_are_managed_by_staff(ep: Episode) -> None:
    refused(
        ep,
        "create_property",
        "rule_violation",
        "manager_email",
        title="New",
        type="film",
        year=2026,
        manager_email="x@agency.io",
    )
    made = ok(ep, "create_property", title="New", type="film", year=2026, manager_email=BOSS)
    assert every(ep, "list_properties", manager_email=BOSS)[-1]["id"] == made["id"]
