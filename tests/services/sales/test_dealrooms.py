"""Meetingpoint Rooms: stakeholders, publishing rules, visits, mutual action plans and closing rooms."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DR = ServiceTools("dealrooms")
WORLD = DR.world
ok, refused, every = DR.ok, DR.refused, DR.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
ME = POP.employees[0].email


def room(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_rooms", status=status)[0]


def fresh_room(ep: Episode) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "create_room",
        name="Acme x Us",
        opportunity_name="Acme - platform",
        account_name=POP.customers[10].name,
        owner_email=ME,
    )
    return made


def test_rooms_are_for_world_accounts_with_their_people(ep: Episode) -> None:
    for r in every(ep, "list_rooms"):
        company = next(c for c in POP.customers if c.name == r["account_name"])
        people = {p.email for p in POP.people_at(company)}
        for s in every(ep, "list_stakeholders", room_id=r["id"]):
            assert s["email"] in people


def test_a_room_publishes_only_with_a_stakeholder_and_a_plan(ep: Episode) -> None:
    r = fresh_room(ep)
    refused(ep, "publish_room", "rule_violation", "room_id", room_id=r["id"])
    buyer = POP.contacts[0]
    ok(ep, "invite_stakeholder", room_id=r["id"], email=buyer.email, name=buyer.name, role="champion")
    refused(ep, "publish_room", "rule_violation", "room_id", room_id=r["id"])
    ok(
        ep,
        "create_milestone",
        room_id=r["id"],
        title="Kickoff",
        owner_email=buyer.email,
        due_date=(TODAY + dt.timedelta(days=7)).isoformat(),
    )
    assert ok(ep, "publish_room", room_id=r["id"])["status"] == "published"
    refused(ep, "publish_room", "conflict", "room_id", room_id=r["id"])


def test_stakeholders_are_external_and_invited_once(ep: Episode) -> None:
    r = fresh_room(ep)
    refused(
        ep,
        "invite_stakeholder",
        "rule_violation",
        "email",
        room_id=r["id"],
        email=POP.employees[1].email,
        name="Colleague",
        role="legal",
    )
    buyer = POP.contacts[1]
    ok(ep, "invite_stakeholder", room_id=r["id"], email=buyer.email, name=buyer.name, role="legal")
    refused(
        ep, "invite_stakeholder", "conflict", "email", room_id=r["id"], email=buyer.email, name=buyer.name, role="legal"
    )


def test_milestones_belong_to_the_seller_or_a_stakeholder(ep: Episode) -> None:
    r = room(ep, "published")
    due = (TODAY + dt.timedelta(days=3)).isoformat()
    refused(
        ep,
        "create_milestone",
        "rule_violation",
        "owner_email",
        room_id=r["id"],
        title="x",
        owner_email=POP.contacts[-1].email,
        due_date=due,
    )
    step = ok(ep, "create_milestone", room_id=r["id"], title="Legal review", owner_email=r["owner_email"], due_date=due)
    assert ok(ep, "complete_milestone", milestone_id=step["id"])["status"] == "done"
    refused(ep, "complete_milestone", "conflict", "milestone_id", milestone_id=step["id"])
    refused(ep, "update_milestone", "rule_violation", "milestone_id", milestone_id=step["id"], title="Renamed")


def test_visits_are_tracked_on_the_stakeholder_asset_and_room(ep: Episode) -> None:
    r = room(ep, "published")
    who = every(ep, "list_stakeholders", room_id=r["id"])[0]
    asset = every(ep, "list_assets", room_id=r["id"])[0]
    before = ok(ep, "room_engagement", room_id=r["id"])
    after_visit = ok(ep, "record_visit", stakeholder_id=who["id"], asset_id=asset["id"])
    assert (after_visit["visits"], after_visit["status"]) == (who["visits"] + 1, "joined")
    now = ok(ep, "room_engagement", room_id=r["id"])
    assert now["visits"] == before["visits"] + 1
    assert now["asset_views"][asset["title"]] == before["asset_views"][asset["title"]] + 1
    other = next(a for a in every(ep, "list_assets") if a["room_id"] != r["id"])
    refused(ep, "record_visit", "rule_violation", "asset_id", stakeholder_id=who["id"], asset_id=other["id"])


def test_draft_rooms_take_no_visits(ep: Episode) -> None:
    r = next(x for x in every(ep, "list_rooms", status="draft") if every(ep, "list_stakeholders", room_id=x["id"]))
    who = every(ep, "list_stakeholders", room_id=r["id"])[0]
    refused(ep, "record_visit", "rule_violation", "stakeholder_id", stakeholder_id=who["id"])


def test_a_closed_room_is_frozen(ep: Episode) -> None:
    r = room(ep, "published")
    refused(ep, "close_room", "rule_violation", "room_id", room_id=room(ep, "draft")["id"], outcome="won")
    assert ok(ep, "close_room", room_id=r["id"], outcome="lost")["status"] == "lost"
    refused(ep, "update_room", "rule_violation", "room_id", room_id=r["id"], name="Renamed")
    refused(
        ep,
        "create_asset",
        "rule_violation",
        "room_id",
        room_id=r["id"],
        title="Late deck",
        kind="deck",
        file_link="https://files.example.com/late.pdf",
    )
    buyer = POP.contacts[2]
    refused(
        ep,
        "invite_stakeholder",
        "rule_violation",
        "room_id",
        room_id=r["id"],
        email=buyer.email,
        name=buyer.name,
        role="champion",
    )


def test_engagement_counts_plan_progress_and_overdue_steps(ep: Episode) -> None:
    for r in every(ep, "list_rooms"):
        eng = ok(ep, "room_engagement", room_id=r["id"])
        plan = every(ep, "list_milestones", room_id=r["id"])
        assert (eng["plan_total"], eng["plan_done"]) == (len(plan), sum(m["status"] == "done" for m in plan))
        assert set(eng["overdue"]) == {
            m["id"] for m in plan if m["status"] == "open" and m["due_date"] < TODAY.isoformat()
        }
