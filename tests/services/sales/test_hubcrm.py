"""Hub CRM: lifecycle stages, unique e-mails and domains, deal stages and closing, associations, engagements."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

HUB = ServiceTools("hubcrm")
WORLD = HUB.world
ok, refused, every = HUB.ok, HUB.refused, HUB.every
POP = WORLD.population


def owner(ep: Episode, archived: bool = False) -> dict[str, Any]:
    return next(o for o in every(ep, "list_owners") if o["archived"] is archived)


def sales_pipeline(ep: Episode) -> dict[str, Any]:
    return next(p for p in every(ep, "list_pipelines") if p["label"] == "Sales Pipeline")


def open_deal(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_deals", hs_is_closed=False)[0]


def test_seeded_contacts_are_the_worlds_people_with_their_primary_company(ep: Episode) -> None:
    people = {p.email: p for p in POP.people}
    staff = {p.email for p in POP.employees}
    assert all(o["email"] in staff for o in every(ep, "list_owners"))
    companies = {c["id"]: c for c in every(ep, "list_companies")}
    for c in every(ep, "list_contacts"):
        person = people[c["email"]]
        assert (c["firstname"], c["lastname"]) == (person.first_name, person.last_name)
        primary = every(ep, "list_associations", from_id=c["id"], label="Primary")
        if person.role == "contact":
            assert len(primary) == 1 and companies[primary[0]["to_id"]]["domain"] == c["email"].split("@")[1]
        else:
            assert primary == []
    stages = {d["dealstage"] for d in every(ep, "list_deals")}
    assert {"closedwon", "closedlost", "appointmentscheduled"} <= stages


def test_emails_and_domains_are_unique(ep: Episode) -> None:
    c = every(ep, "list_contacts")[0]
    refused(ep, "create_contact", "conflict", "email", email=c["email"], firstname="A", lastname="B")
    co = every(ep, "list_companies")[0]
    refused(ep, "create_company", "conflict", "domain", name="Dup Inc", domain=co["domain"])
    made = ok(ep, "create_contact", email="new.lead@example.org", firstname="New", lastname="Lead")
    assert made["lifecyclestage"] == "lead"


def test_lifecycle_stage_moves_forward_only_unless_reset(ep: Episode) -> None:
    c = every(ep, "list_contacts", lifecyclestage="opportunity")[0]
    refused(ep, "update_contact", "rule_violation", "lifecyclestage", contact_id=c["id"], lifecyclestage="lead")
    assert ok(ep, "update_contact", contact_id=c["id"], lifecyclestage="customer")["lifecyclestage"] == "customer"
    ok(ep, "update_contact", contact_id=c["id"], lifecyclestage="other")
    assert ok(ep, "update_contact", contact_id=c["id"], lifecyclestage="lead")["lifecyclestage"] == "lead"


def test_a_deal_is_created_in_an_open_stage_of_its_pipeline(ep: Episode) -> None:
    pipe = sales_pipeline(ep)
    lead = every(ep, "list_contacts", lifecyclestage="marketingqualifiedlead")[0]
    base = {"dealname": "Pilot", "pipeline": pipe["id"], "hubspot_owner_id": owner(ep)["id"]}
    refused(ep, "create_deal", "rule_violation", "dealstage", dealstage="renewed", **base)
    refused(ep, "create_deal", "rule_violation", "dealstage", dealstage="closedwon", **base)
    refused(
        ep,
        "create_deal",
        "rule_violation",
        "hubspot_owner_id",
        dealstage="qualifiedtobuy",
        **(base | {"hubspot_owner_id": owner(ep, archived=True)["id"]}),
    )
    deal = ok(ep, "create_deal", dealstage="qualifiedtobuy", contact_ids=[lead["id"]], **base)
    assert (deal["hs_is_closed"], deal["deal_currency_code"]) == (False, POP.home.place.currency)
    assert ok(ep, "get_contact", contact_id=lead["id"])["lifecyclestage"] == "opportunity"
    assert every(ep, "list_associations", from_id=deal["id"], to_id=lead["id"])


def test_closing_won_needs_amount_and_contact_and_makes_customers(ep: Episode) -> None:
    pipe = sales_pipeline(ep)
    co = every(ep, "list_companies", lifecyclestage="opportunity")[0]
    bare = ok(
        ep,
        "create_deal",
        dealname="Bare",
        pipeline=pipe["id"],
        dealstage="contractsent",
        hubspot_owner_id=owner(ep)["id"],
        company_id=co["id"],
    )
    refused(ep, "move_deal_stage", "rule_violation", "deal_id", deal_id=bare["id"], dealstage="closedwon")
    ok(ep, "update_deal", deal_id=bare["id"], amount=500_000)
    refused(ep, "move_deal_stage", "rule_violation", "deal_id", deal_id=bare["id"], dealstage="closedwon")
    contact = every(ep, "list_associations", to_id=co["id"], label="Primary")[0]["from_id"]
    ok(ep, "associate", from_object="deal", from_id=bare["id"], to_object="contact", to_id=contact)
    won = ok(ep, "move_deal_stage", deal_id=bare["id"], dealstage="closedwon")
    assert (won["hs_is_closed"], won["hs_is_closed_won"]) == (True, True)
    assert ok(ep, "get_company", company_id=co["id"])["lifecyclestage"] == "customer"
    assert ok(ep, "get_contact", contact_id=contact)["lifecyclestage"] == "customer"


def test_a_lost_deal_needs_a_reason_and_a_closed_deal_is_frozen_until_reopened(ep: Episode) -> None:
    deal = open_deal(ep)
    refused(ep, "move_deal_stage", "rule_violation", "closed_lost_reason", deal_id=deal["id"], dealstage="closedlost")
    lost = ok(ep, "move_deal_stage", deal_id=deal["id"], dealstage="closedlost", closed_lost_reason="No budget")
    assert (lost["hs_is_closed"], lost["hs_is_closed_won"], lost["closed_lost_reason"]) == (True, False, "No budget")
    refused(ep, "update_deal", "rule_violation", "deal_id", deal_id=deal["id"], amount=1)
    refused(ep, "move_deal_stage", "conflict", "dealstage", deal_id=deal["id"], dealstage="closedlost")
    again = ok(ep, "move_deal_stage", deal_id=deal["id"], dealstage="qualifiedtobuy")
    assert (again["hs_is_closed"], again["closed_lost_reason"]) == (False, None)
    assert ok(ep, "update_deal", deal_id=deal["id"], amount=1)["amount"] == 1


def test_associations_are_unique_and_a_contact_has_one_primary_company(ep: Episode) -> None:
    link = every(ep, "list_associations", label="Primary")[0]
    contact, company = link["from_id"], link["to_id"]
    other = next(c for c in every(ep, "list_companies") if c["id"] != company)
    args = {"from_object": "contact", "from_id": contact, "to_object": "company"}
    refused(ep, "associate", "conflict", "to_id", to_id=company, **args)
    refused(ep, "associate", "conflict", "label", to_id=other["id"], label="Primary", **args)
    deal = open_deal(ep)
    refused(
        ep,
        "associate",
        "rule_violation",
        "label",
        from_object="deal",
        from_id=deal["id"],
        to_object="company",
        to_id=other["id"],
        label="Primary",
    )
    assert ok(ep, "associate", to_id=other["id"], label="Billing contact", **args)["label"] == "Billing contact"


def test_deleting_removes_associations_but_not_a_company_with_an_open_deal(ep: Episode) -> None:
    deal = open_deal(ep)
    company = every(ep, "list_associations", from_id=deal["id"], to_object="company")[0]["to_id"]
    refused(ep, "delete_company", "rule_violation", "company_id", company_id=company)
    for other in every(ep, "list_associations", to_id=company, from_object="deal"):
        if not ok(ep, "get_deal", deal_id=other["from_id"])["hs_is_closed"]:
            ok(ep, "move_deal_stage", deal_id=other["from_id"], dealstage="closedlost", closed_lost_reason="Went dark")
    ok(ep, "delete_company", company_id=company)
    assert every(ep, "list_associations", to_id=company) == []
    contact = every(ep, "list_associations", label="Primary")[0]["from_id"]
    ok(ep, "delete_contact", contact_id=contact)
    assert every(ep, "list_associations", from_id=contact) + every(ep, "list_associations", to_id=contact) == []


def test_calls_move_the_lead_status(ep: Episode) -> None:
    c = every(ep, "list_contacts", hs_lead_status="NEW")[0]
    me = owner(ep)["id"]
    refused(
        ep,
        "log_call",
        "rule_violation",
        "duration_s",
        hubspot_owner_id=me,
        title="Try",
        contact_id=c["id"],
        call_disposition="no_answer",
        duration_s=600,
    )
    refused(ep, "log_call", "rule_violation", "contact_id", hubspot_owner_id=me, title="Try", call_disposition="busy")
    ok(ep, "log_call", hubspot_owner_id=me, title="Try", contact_id=c["id"], call_disposition="no_answer")
    assert ok(ep, "get_contact", contact_id=c["id"])["hs_lead_status"] == "ATTEMPTED_TO_CONTACT"
    call = ok(
        ep,
        "log_call",
        hubspot_owner_id=me,
        title="Intro",
        contact_id=c["id"],
        call_disposition="connected",
        duration_s=600,
    )
    assert call["type"] == "CALL" and ok(ep, "get_contact", contact_id=c["id"])["hs_lead_status"] == "CONNECTED"


def test_tasks_are_completed_once_by_active_owners(ep: Episode) -> None:
    c = every(ep, "list_contacts")[0]
    args = {"title": "Send pricing", "due": "2030-01-01T09:00:00Z", "contact_id": c["id"]}
    refused(ep, "create_task", "rule_violation", "hubspot_owner_id", hubspot_owner_id=owner(ep, True)["id"], **args)
    task = ok(ep, "create_task", hubspot_owner_id=owner(ep)["id"], **args)
    assert (task["task_status"], task["completed_at"]) == ("NOT_STARTED", None)
    done = ok(ep, "complete_engagement", engagement_id=task["id"])
    assert done["task_status"] == "COMPLETED" and done["completed_at"] is not None
    refused(ep, "complete_engagement", "rule_violation", "engagement_id", engagement_id=task["id"])
    note = ok(ep, "create_note", hubspot_owner_id=owner(ep)["id"], body="Met at fair", contact_id=c["id"])
    refused(ep, "complete_engagement", "rule_violation", "engagement_id", engagement_id=note["id"])
