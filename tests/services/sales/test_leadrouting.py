"""Relayline: account matching, rule priority and round robin, acceptance, SLA breaches and meeting handoffs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LR = ServiceTools("leadrouting")
WORLD = LR.world
ok, refused, every = LR.ok, LR.refused, LR.every
POP = WORLD.population
NOW = WORLD.epoch


def new_lead(ep: Episode, email: str, employees: int = 50, country: str = "US") -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "create_lead",
        email=email,
        name="Pat Doe",
        company_name="Someco",
        country=country,
        employees=employees,
        source="web_form",
    )
    return made


def test_seeded_leads_are_world_contacts_and_owners_are_reps(ep: Episode) -> None:
    contacts = {p.email for p in POP.contacts}
    staff = {p.email for p in POP.employees}
    for lead in every(ep, "list_leads"):
        assert lead["email"] in contacts
        assert lead["owner_email"] is None or lead["owner_email"] in staff
    for q in every(ep, "list_queues"):
        assert set(q["members"]) <= staff


def test_a_lead_from_a_known_account_goes_to_its_owner(ep: Episode) -> None:
    owner = every(ep, "list_account_owners")[0]
    lead = new_lead(ep, f"jo@{owner['domain']}")
    routed = ok(ep, "route_lead", lead_id=lead["id"])
    assert (routed["owner_email"], routed["routed_by"], routed["matched_account"]) == (
        owner["owner_email"],
        "account_match",
        owner["account_name"],
    )
    refused(ep, "route_lead", "conflict", "lead_id", lead_id=lead["id"])


def test_rules_apply_in_priority_and_queues_rotate(ep: Episode) -> None:
    ent = every(ep, "list_queues", name="Enterprise AEs")[0]
    got = [
        ok(ep, "route_lead", lead_id=new_lead(ep, f"a{k}@bigco.example", employees=5000)["id"])["owner_email"]
        for k in range(len(ent["members"]) + 1)
    ]
    start = ent["next_index"]
    expected = [ent["members"][(start + k) % len(ent["members"])] for k in range(len(got))]
    assert got == expected
    small = ok(ep, "route_lead", lead_id=new_lead(ep, "b@smallco.example")["id"])
    sdr = every(ep, "list_queues", name="Inbound SDRs")[0]
    assert small["owner_email"] in sdr["members"] and small["routed_by"] == "round_robin"


def test_paused_queues_and_no_matching_rule_leave_the_lead_unrouted(ep: Episode) -> None:
    for q in every(ep, "list_queues", status="active"):
        ok(ep, "pause_queue", queue_id=q["id"])
    lead = new_lead(ep, "c@nowhere.example")
    refused(ep, "route_lead", "rule_violation", "lead_id", lead_id=lead["id"])
    assert ok(ep, "get_lead", lead_id=lead["id"])["status"] == "new"


def test_rule_priorities_are_unique_and_queues_hold_distinct_staff(ep: Episode) -> None:
    r = every(ep, "list_rules")[0]
    refused(ep, "create_rule", "conflict", "priority", name="Dup", priority=r["priority"], queue_id=r["queue_id"])
    me = POP.employees[0].email
    refused(ep, "create_queue", "rule_violation", "members", name="Twice", members=[me, me])
    refused(ep, "create_queue", "rule_violation", "members", name="Outsider", members=[POP.contacts[0].email])


def test_only_the_owner_accepts_a_routed_lead(ep: Episode) -> None:
    lead = every(ep, "list_leads", status="routed")[0]
    other = next(p.email for p in POP.employees if p.email != lead["owner_email"])
    refused(ep, "accept_lead", "rule_violation", "accepted_by", lead_id=lead["id"], accepted_by=other)
    assert ok(ep, "accept_lead", lead_id=lead["id"], accepted_by=lead["owner_email"])["status"] == "accepted"
    refused(ep, "accept_lead", "rule_violation", "lead_id", lead_id=lead["id"], accepted_by=lead["owner_email"])


def test_sla_check_logs_each_late_lead_once(ep: Episode) -> None:
    late = [x for x in every(ep, "list_leads", status="routed") if x["sla_due_at"] < NOW.isoformat()]
    already = {b["lead_id"] for b in every(ep, "list_sla_breaches")}
    made = ok(ep, "check_sla")
    assert {b["lead_id"] for b in made} == {x["id"] for x in late} - already
    assert ok(ep, "check_sla") == []
    b = every(ep, "list_sla_breaches", status="open")[0]
    assert ok(ep, "excuse_sla_breach", sla_breach_id=b["id"])["status"] == "excused"


def test_meetings_are_booked_once_with_the_owner_in_the_future(ep: Episode) -> None:
    lead = every(ep, "list_leads", status="routed")[0]
    link = "https://meet.example.com/intro"
    refused(
        ep,
        "book_meeting",
        "rule_violation",
        "starts_at",
        lead_id=lead["id"],
        starts_at=(NOW - dt.timedelta(hours=1)).isoformat(),
        meeting_link=link,
    )
    m = ok(
        ep, "book_meeting", lead_id=lead["id"], starts_at=(NOW + dt.timedelta(days=1)).isoformat(), meeting_link=link
    )
    assert m["owner_email"] == lead["owner_email"]
    refused(
        ep,
        "book_meeting",
        "conflict",
        "lead_id",
        lead_id=lead["id"],
        starts_at=(NOW + dt.timedelta(days=2)).isoformat(),
        meeting_link=link,
    )
    ok(ep, "no_show_meeting", meeting_id=m["id"])
    fresh = new_lead(ep, "d@x.example")
    refused(
        ep,
        "book_meeting",
        "rule_violation",
        "lead_id",
        lead_id=fresh["id"],
        starts_at=(NOW + dt.timedelta(days=1)).isoformat(),
        meeting_link=link,
    )
