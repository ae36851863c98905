"""Charter Registry: formation, ownership cycles, officers, filings and good standing, dissolution."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ENT = ServiceTools("entities")
WORLD = ENT.world
ok, refused, every = ENT.ok, ENT.refused, ENT.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
CLERK = POP.employees[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def top(ep: Episode) -> dict[str, Any]:
    return next(e for e in every(ep, "list_entities") if e["parent_id"] is None)


def test_seeded_entities_belong_to_the_home_company_and_standing_matches_filings(ep: Episode) -> None:
    ents = every(ep, "list_entities")
    assert all(e["name"].startswith(POP.home.name) for e in ents)
    assert sum(e["parent_id"] is None for e in ents) == 1
    for o in every(ep, "list_officers"):
        assert o["email"] in STAFF
    for e in ents:
        report = ok(ep, "check_standing", entity_id=e["id"])
        assert report["good_standing"] == e["good_standing"]
    assert {f["status"] for f in every(ep, "list_filings")} == {"due", "filed", "accepted", "rejected"}


def test_form_entity_refuses_duplicate_names_and_half_ownership(ep: Episode) -> None:
    parent = top(ep)
    refused(
        ep,
        "form_entity",
        "conflict",
        "name",
        name=parent["name"],
        entity_type="llc",
        country="US",
        region="Texas",
        formation_date=day(0),
    )
    refused(
        ep,
        "form_entity",
        "rule_violation",
        "ownership_percent",
        name="Newco Texas LLC",
        entity_type="llc",
        country="US",
        region="Texas",
        formation_date=day(0),
        parent_id=parent["id"],
    )
    refused(
        ep,
        "form_entity",
        "rule_violation",
        "formation_date",
        name="Newco Texas LLC",
        entity_type="llc",
        country="US",
        region="Texas",
        formation_date=day(3),
    )
    made = ok(
        ep,
        "form_entity",
        name="Newco Texas LLC",
        entity_type="llc",
        country="US",
        region="Texas",
        formation_date=day(0),
        parent_id=parent["id"],
        ownership_percent=60,
    )
    assert (made["status"], made["good_standing"], made["parent_id"]) == ("active", "good", parent["id"])


def test_ownership_cannot_form_a_cycle_and_chain_multiplies_shares(ep: Episode) -> None:
    parent = top(ep)
    child = next(e for e in every(ep, "list_entities", parent_id=parent["id"]) if e["ownership_percent"] == 80)
    refused(
        ep,
        "transfer_ownership",
        "rule_violation",
        "parent_id",
        entity_id=parent["id"],
        parent_id=child["id"],
        ownership_percent=50,
    )
    grand = ok(
        ep,
        "form_entity",
        name="Grandchild Ontario Inc",
        entity_type="corporation",
        country="CA",
        region="Ontario",
        formation_date=day(0),
        parent_id=child["id"],
        ownership_percent=50,
    )
    chain = ok(ep, "ownership_chain", entity_id=grand["id"])
    assert [c["entity_id"] for c in chain] == [grand["id"], child["id"], parent["id"]]
    assert chain[-1]["effective_percent"] == 40.0


def test_sole_officer_titles_have_one_holder_until_resignation(ep: Episode) -> None:
    parent = top(ep)
    ceo = every(ep, "list_officers", entity_id=parent["id"], title="ceo", status="active")[0]
    p = POP.employees[-1]
    refused(ep, "appoint_officer", "conflict", "title", entity_id=parent["id"], name=p.name, email=p.email, title="ceo")
    assert ok(ep, "resign_officer", officer_id=ceo["id"])["status"] == "resigned"
    refused(ep, "resign_officer", "conflict", "officer_id", officer_id=ceo["id"])
    made = ok(ep, "appoint_officer", entity_id=parent["id"], name=p.name, email=p.email, title="ceo")
    assert made["status"] == "active"
    ok(
        ep,
        "appoint_officer",
        entity_id=parent["id"],
        name=POP.employees[-2].name,
        email=POP.employees[-2].email,
        title="director",
    )


def test_an_overdue_filing_costs_good_standing_until_accepted(ep: Episode) -> None:
    bad = every(ep, "list_entities", good_standing="not_in_good_standing")
    assert bad
    e = next(x for x in bad if x["agent_id"] is not None) if any(x["agent_id"] for x in bad) else bad[0]
    f = next(x for x in every(ep, "list_filings", entity_id=e["id"]) if x["status"] in ("due", "rejected"))
    if e["agent_id"] is None:
        refused(ep, "submit_filing", "rule_violation", "filing_id", filing_id=f["id"], filed_by=CLERK)
        agent = every(ep, "list_agents", country=e["country"], region=e["region"])[0]
        ok(ep, "update_entity", entity_id=e["id"], agent_id=agent["id"])
    filed = ok(ep, "submit_filing", filing_id=f["id"], filed_by=CLERK)
    assert filed["status"] == "filed"
    assert ok(ep, "get_entity", entity_id=e["id"])["good_standing"] == "not_in_good_standing"
    ok(ep, "accept_filing", filing_id=f["id"])
    assert ok(ep, "get_entity", entity_id=e["id"])["good_standing"] == "good"


def test_filings_follow_their_states(ep: Episode) -> None:
    filed = every(ep, "list_filings", status="filed")[0]
    refused(ep, "submit_filing", "conflict", "filing_id", filing_id=filed["id"], filed_by=CLERK)
    rejected = ok(ep, "reject_filing", filing_id=filed["id"], reason="Wrong fee paid.")
    assert (rejected["status"], rejected["rejection_reason"]) == ("rejected", "Wrong fee paid.")
    refused(ep, "accept_filing", "conflict", "filing_id", filing_id=filed["id"])
    refused(ep, "submit_filing", "rule_violation", "filed_by", filing_id=filed["id"], filed_by="x@nowhere.example")
    again = ok(ep, "submit_filing", filing_id=filed["id"], filed_by=CLERK)
    assert (again["status"], again["rejection_reason"]) == ("filed", None)


def test_schedule_filing_refuses_a_second_open_one_and_past_dates(ep: Episode) -> None:
    e = top(ep)
    refused(ep, "schedule_filing", "rule_violation", "due_on", entity_id=e["id"], kind="franchise_tax", due_on=day(0))
    ok(ep, "schedule_filing", entity_id=e["id"], kind="franchise_tax", due_on=day(30), fee=40000)
    refused(ep, "schedule_filing", "conflict", "kind", entity_id=e["id"], kind="franchise_tax", due_on=day(60))


def test_agent_must_serve_the_entity_jurisdiction(ep: Episode) -> None:
    e = top(ep)
    wrong = next(a for a in every(ep, "list_agents") if a["region"] != e["region"])
    refused(ep, "update_entity", "rule_violation", "agent_id", entity_id=e["id"], agent_id=wrong["id"])


def test_dissolution_needs_no_subsidiaries_and_no_open_filings(ep: Episode) -> None:
    refused(ep, "dissolve_entity", "conflict", "entity_id", entity_id=top(ep)["id"])
    dormant = every(ep, "list_entities", status="dormant")[0]
    for f in every(ep, "list_filings", entity_id=dormant["id"]):
        assert f["status"] == "accepted"
    gone = ok(ep, "dissolve_entity", entity_id=dormant["id"])
    assert (gone["status"], gone["dissolved_on"]) == ("dissolved", TODAY.isoformat())
    assert not every(ep, "list_officers", entity_id=dormant["id"], status="active")
    refused(
        ep,
        "appoint_officer",
        "conflict",
        "entity_id",
        entity_id=dormant["id"],
        name="A B",
        email=CLERK,
        title="director",
    )
    live = next(e for e in every(ep, "list_entities", status="active") if e["parent_id"])
    ok(ep, "schedule_filing", entity_id=live["id"], kind="beneficial_ownership", due_on=day(10))
    refused(ep, "dissolve_entity", "conflict", "entity_id", entity_id=live["id"])
