"""Cadence Nurture: scoring rules and limits, MQL threshold, forward-only stages, lists, batch and trigger campaigns."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

NURTURE = ServiceTools("nurture")
WORLD = NURTURE.world
ok, refused, every, items, first = NURTURE.ok, NURTURE.refused, NURTURE.every, NURTURE.items, NURTURE.first
POP = WORLD.population
SALES = [p.email for p in POP.employees if p.department == "Sales"]
PAGE = f"https://www.{POP.home.domain}/pricing"


def campaign(ep: Episode, name: str) -> dict[str, Any]:
    return next(c for c in items(ep, "smart_campaigns") if c["name"] == name)


def new_lead(ep: Episode, email: str = "new.lead@example.org") -> dict[str, Any]:
    return dict(ok(ep, "create_lead", email=email, first_name="Nia", last_name="Lopez", company="Nimbus Labs"))


# -- the world ------------------------------------------------------------------------------


def test_leads_are_population_people_and_scores_are_the_sum_of_their_activities() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    acts = every(ep, "list_activities")
    for lead in every(ep, "list_leads"):
        person = people[lead["email"]]
        assert (lead["first_name"], lead["last_name"]) == (person.first_name, person.last_name)
        company = POP.company_of(person)
        assert lead["company"] == (company.name if company else None)
        assert lead["score"] == sum(a["points_awarded"] for a in acts if a["lead_id"] == lead["id"])
        if lead["lifecycle_stage"] in ("sales_qualified", "opportunity", "customer"):
            assert lead["owner_email"] in SALES
        elif lead["score"] >= 100:
            assert lead["lifecycle_stage"] == "marketing_qualified"


# -- scoring --------------------------------------------------------------------------------


def test_activities_earn_the_points_of_active_rules_up_to_their_limit(ep: Episode) -> None:
    lead = new_lead(ep)
    rule = first(ep, "scoring_rules", activity_type="content_download", active=True)
    url = f"https://www.{POP.home.domain}/whitepaper.pdf"
    for _ in range(rule["limit_per_lead"]):
        ok(ep, "log_activity", lead_id=lead["id"], type="content_download", url=url)
    extra = ok(ep, "log_activity", lead_id=lead["id"], type="content_download", url=url)
    assert extra["activity"]["points_awarded"] == 0
    assert extra["lead"]["score"] == rule["points"] * rule["limit_per_lead"]
    refused(ep, "log_activity", "rule_violation", "url", lead_id=lead["id"], type="web_visit")


def test_reaching_100_points_makes_a_lead_marketing_qualified(ep: Episode) -> None:
    lead = new_lead(ep)
    for _ in range(4):
        scored = ok(ep, "log_activity", lead_id=lead["id"], type="webinar_attend")
    assert scored["lead"]["score"] == 100
    assert scored["lead"]["lifecycle_stage"] == "marketing_qualified"


def test_a_rule_twin_is_a_conflict_and_a_rule_needs_points(ep: Episode) -> None:
    rule = first(ep, "scoring_rules", activity_type="form_fill", active=True)
    refused(ep, "create_scoring_rule", "conflict", "activity_type", name="Twin", activity_type="form_fill", points=7)
    refused(
        ep, "create_scoring_rule", "rule_violation", "points", name="Nothing", activity_type="email_click", points=0
    )
    ok(ep, "update_scoring_rule", scoring_rule_id=rule["id"], active=False)
    lead = new_lead(ep)
    assert ok(ep, "log_activity", lead_id=lead["id"], type="form_fill", url=PAGE)["lead"]["score"] == 0


# -- lifecycle ------------------------------------------------------------------------------


def test_lifecycle_stages_only_move_forward_and_sales_stages_need_an_owner(ep: Episode) -> None:
    lead = first(ep, "leads", lifecycle_stage="marketing_qualified", owner_email=None)
    refused(ep, "change_lifecycle_stage", "rule_violation", "stage", lead_id=lead["id"], stage="lead")
    refused(ep, "change_lifecycle_stage", "rule_violation", "owner_email", lead_id=lead["id"], stage="sales_qualified")
    moved = ok(ep, "change_lifecycle_stage", lead_id=lead["id"], stage="sales_qualified", owner_email=SALES[0])
    assert (moved["lifecycle_stage"], moved["owner_email"]) == ("sales_qualified", SALES[0])


def test_an_unsubscribed_lead_is_unsubscribed_once(ep: Episode) -> None:
    lead = first(ep, "leads", unsubscribed=False)
    gone = ok(ep, "unsubscribe_lead", lead_id=lead["id"], reason="Too many e-mails")
    assert (gone["unsubscribed"], gone["unsubscribed_reason"]) == (True, "Too many e-mails")
    refused(ep, "unsubscribe_lead", "conflict", "lead_id", lead_id=lead["id"])


# -- lists ----------------------------------------------------------------------------------


def test_adding_to_a_list_reports_existing_members(ep: Episode) -> None:
    lst = items(ep, "static_lists")[0]
    member = first(ep, "list_memberships", list_id=lst["id"])["lead_id"]
    members = {m["lead_id"] for m in every(ep, "list_list_memberships", list_id=lst["id"])}
    outsider = next(lead["id"] for lead in every(ep, "list_leads") if lead["id"] not in members)
    res = ok(ep, "add_to_list", list_id=lst["id"], lead_ids=[member, outsider])
    assert (res["added"], res["already_members"], res["members"]) == ([outsider], [member], len(members) + 1)
    refused(ep, "add_to_list", "conflict", "lead_ids", list_id=lst["id"], lead_ids=[member, outsider])


# -- campaigns ------------------------------------------------------------------------------


def test_a_batch_run_enrolls_every_qualifying_lead_once_and_skips_opted_out_ones(ep: Episode) -> None:
    track = campaign(ep, "Evaluation nurture track")
    res = ok(ep, "run_campaign", campaign_id=track["id"])
    leads = {lead["email"]: lead for lead in every(ep, "list_leads")}
    expected = {
        e
        for e, lead in leads.items()
        if lead["score"] >= 30
        and lead["lifecycle_stage"] == "lead"
        and not lead["unsubscribed"]
        and not lead["marketing_suspended"]
    }
    assert set(res["enrolled_emails"]) == expected and res["enrolled"] == len(expected)
    assert res["skipped_opted_out"] > 0
    track_list = track["add_to_list_id"]
    on_list = {m["lead_id"] for m in every(ep, "list_list_memberships", list_id=track_list)}
    assert {leads[e]["id"] for e in expected} <= on_list
    assert len(every(ep, "list_enrollments", campaign_id=track["id"])) == len(expected)
    refused(ep, "run_campaign", "rule_violation", "campaign_id", campaign_id=track["id"])


def test_batch_and_trigger_campaigns_are_started_their_own_way(ep: Episode) -> None:
    lead = first(ep, "leads", lifecycle_stage="marketing_qualified")
    batch, trigger = campaign(ep, "Monthly newsletter"), campaign(ep, "MQL hand-off to sales")
    refused(ep, "request_campaign", "rule_violation", "campaign_id", campaign_id=batch["id"], lead_id=lead["id"])
    refused(ep, "run_campaign", "rule_violation", "campaign_id", campaign_id=trigger["id"])
    inactive = campaign(ep, "Trade show welcome")
    refused(ep, "run_campaign", "rule_violation", "campaign_id", campaign_id=inactive["id"])
    ok(ep, "activate_smart_campaign", smart_campaign_id=inactive["id"])
    assert ok(ep, "run_campaign", campaign_id=inactive["id"])["enrolled"] > 0


def test_the_mql_hand_off_makes_the_lead_sales_qualified_with_an_owner(ep: Episode) -> None:
    handoff = campaign(ep, "MQL hand-off to sales")
    lead = first(ep, "leads", lifecycle_stage="marketing_qualified", owner_email=None)
    enrollment = ok(ep, "request_campaign", campaign_id=handoff["id"], lead_id=lead["id"])
    assert enrollment["stage_after"] == "sales_qualified"
    after = ok(ep, "get_lead", lead_id=lead["id"])
    assert (after["lifecycle_stage"], after["owner_email"]) == ("sales_qualified", handoff["assign_owner_email"])
    refused(ep, "request_campaign", "conflict", "lead_id", campaign_id=handoff["id"], lead_id=lead["id"])
    not_mql = first(ep, "leads", lifecycle_stage="lead")
    msg = refused(ep, "request_campaign", "rule_violation", "lead_id", campaign_id=handoff["id"], lead_id=not_mql["id"])
    assert "marketing_qualified" in msg


def test_campaigns_that_send_email_never_reach_unsubscribed_leads(ep: Episode) -> None:
    follow_up = campaign(ep, "Webinar follow-up")
    members = {m["lead_id"] for m in every(ep, "list_list_memberships", list_id=follow_up["list_id"])}
    done = {e["lead_id"] for e in every(ep, "list_enrollments", campaign_id=follow_up["id"])}
    lead = next(x for x in every(ep, "list_leads", unsubscribed=False) if x["id"] in members - done)
    ok(ep, "unsubscribe_lead", lead_id=lead["id"])
    msg = refused(ep, "request_campaign", "rule_violation", "lead_id", campaign_id=follow_up["id"], lead_id=lead["id"])
    assert "unsubscribed" in msg
    seeded = next(iter(done))
    refused(ep, "request_campaign", "conflict", "lead_id", campaign_id=follow_up["id"], lead_id=seeded)


def test_a_campaign_flow_must_do_something_and_hand_sales_leads_to_an_owner(ep: Episode) -> None:
    refused(ep, "create_smart_campaign", "rule_violation", "email_subject", name="Empty", type="batch", min_score=10)
    refused(
        ep,
        "create_smart_campaign",
        "rule_violation",
        "assign_owner_email",
        name="Fast track",
        type="trigger",
        set_stage="opportunity",
    )
    made = ok(
        ep,
        "create_smart_campaign",
        name="Fast track",
        type="trigger",
        set_stage="opportunity",
        assign_owner_email=SALES[0],
    )
    assert made["status"] == "inactive"
