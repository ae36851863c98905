"""Relay CRM: the seeded pipeline, converting leads, moving opportunities through stages, closed deals are final."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CRM = ServiceTools("crm")
WORLD = CRM.world
ok, refused, every, items, first = CRM.ok, CRM.refused, CRM.every, CRM.items, CRM.first
POP = WORLD.population
OPEN_STAGES = ("prospecting", "qualification", "proposal", "negotiation")


def open_opportunity(ep: Episode, **filters: Any) -> dict[str, Any]:
    return next(o for o in every(ep, "list_opportunities", **filters) if o["stage"] in OPEN_STAGES)


# -- the world ------------------------------------------------------------------------------


def test_accounts_are_the_customers_owned_by_sales_reps() -> None:
    ep = Episode(WORLD)
    accounts = every(ep, "list_accounts")
    assert [a["domain"] for a in accounts] == [c.domain for c in POP.customers]
    reps = {p.email for p in POP.employees if p.department == "Sales"} or {p.email for p in POP.employees}
    assert {a["owner_email"] for a in accounts} <= reps


def test_every_fifth_account_is_a_prospect_without_contacts() -> None:
    ep = Episode(WORLD)
    for n, account in enumerate(every(ep, "list_accounts")):
        contacts = every(ep, "list_contacts", account_id=account["id"])
        company = POP.customers[n]
        if n % 5 == 0:
            assert contacts == []
        else:
            assert [c["email"] for c in contacts] == [p.email for p in POP.people_at(company)]


def test_leads_are_consumers_and_closed_lost_opportunities_say_why() -> None:
    ep = Episode(WORLD)
    consumers = {p.email for p in POP.consumers}
    leads = every(ep, "list_leads")
    assert leads and all(lead["email"] in consumers and lead["status"] == "new" for lead in leads)
    for opp in every(ep, "list_opportunities", stage="closed_lost"):
        assert opp["loss_reason"]


# -- leads ----------------------------------------------------------------------------------


def test_converting_a_lead_creates_a_contact_an_account_and_an_opportunity(ep: Episode) -> None:
    lead = first(ep, "leads", status="new")
    done = ok(
        ep,
        "convert_lead",
        lead_id=lead["id"],
        account_domain="fresh-prospect.example",
        opportunity_name="First order",
        opportunity_amount=250_000,
    )
    assert done["account"]["name"] == lead["company"]
    assert (done["contact"]["email"], done["contact"]["account_id"]) == (lead["email"], done["account"]["id"])
    opp = done["opportunity"]
    assert (opp["stage"], opp["amount"], opp["primary_contact_id"]) == ("prospecting", 250_000, done["contact"]["id"])
    converted = ok(ep, "get_lead", lead_id=lead["id"])
    assert (converted["status"], converted["converted_contact_id"]) == ("converted", done["contact"]["id"])
    refused(ep, "convert_lead", "rule_violation", "lead_id", lead_id=lead["id"], account_domain="other.example")


def test_a_lead_of_a_known_company_joins_its_account(ep: Episode) -> None:
    lead = first(ep, "leads", status="new")
    account = first(ep, "accounts")
    done = ok(ep, "convert_lead", lead_id=lead["id"], account_domain=account["domain"])
    assert done["account"]["id"] == account["id"]
    assert done["opportunity"] is None
    assert len(every(ep, "list_accounts")) == len(POP.customers)


# -- opportunities --------------------------------------------------------------------------


def test_losing_a_deal_needs_a_reason_and_closed_deals_are_final(ep: Episode) -> None:
    opp = open_opportunity(ep)
    refused(ep, "advance_opportunity", "rule_violation", "loss_reason", opportunity_id=opp["id"], stage="closed_lost")
    lost = ok(ep, "advance_opportunity", opportunity_id=opp["id"], stage="closed_lost", loss_reason="No budget")
    assert (lost["stage"], lost["loss_reason"]) == ("closed_lost", "No budget")
    refused(ep, "advance_opportunity", "rule_violation", "opportunity_id", opportunity_id=opp["id"], stage="proposal")
    refused(ep, "update_opportunity", "rule_violation", None, opportunity_id=opp["id"], name="Renamed")


def test_a_deal_is_won_only_with_an_amount(ep: Episode) -> None:
    opp = open_opportunity(ep)
    ok(ep, "update_opportunity", opportunity_id=opp["id"], amount=0)
    refused(ep, "advance_opportunity", "rule_violation", "stage", opportunity_id=opp["id"], stage="closed_won")
    ok(ep, "update_opportunity", opportunity_id=opp["id"], amount=120_000)
    won = ok(ep, "advance_opportunity", opportunity_id=opp["id"], stage="closed_won")
    assert (won["stage"], won["loss_reason"]) == ("closed_won", None)


def test_the_account_pipeline_sums_open_and_won_amounts(ep: Episode) -> None:
    opp = open_opportunity(ep)
    account_id = opp["account_id"]
    before = ok(ep, "account_pipeline", account_id=account_id)
    opps = every(ep, "list_opportunities", account_id=account_id)
    assert before["open_opportunities"] == sum(o["stage"] in OPEN_STAGES for o in opps)
    assert before["open_amount"] == sum(o["amount"] for o in opps if o["stage"] in OPEN_STAGES)
    ok(ep, "advance_opportunity", opportunity_id=opp["id"], stage="closed_won")
    after = ok(ep, "account_pipeline", account_id=account_id)
    assert after["open_opportunities"] == before["open_opportunities"] - 1
    assert after["open_amount"] == before["open_amount"] - opp["amount"]
    assert after["won_amount"] == before["won_amount"] + opp["amount"]


# -- contacts and accounts ------------------------------------------------------------------


def test_contacts_are_found_by_email_and_accounts_with_contacts_stay(ep: Episode) -> None:
    contact = first(ep, "contacts")
    assert ok(ep, "find_contact_by_email", email=contact["email"])["id"] == contact["id"]
    refused(ep, "find_contact_by_email", "not_found", "email", email="nobody@nowhere.example")
    refused(ep, "delete_account", "rule_violation", None, account_id=contact["account_id"])
