"""Dialtrace: tracking numbers by source, incoming calls and first callers, scoring, tags, forms, reports."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CT = ServiceTools("calltracking")
WORLD = CT.world
ok, refused, every = CT.ok, CT.refused, CT.every
DEST = "+14155550100"


def company(ep: Episode, status: str = "active") -> dict[str, Any]:
    return every(ep, "list_companies", status=status)[0]


def number(ep: Episode, status: str = "active") -> dict[str, Any]:
    return every(ep, "list_tracking_numbers", status=status)[0]


def test_seeded_calls_come_from_world_contacts_and_first_calls_are_first(ep: Episode) -> None:
    phones = {p.phone for p in WORLD.population.contacts}
    calls = sorted(every(ep, "list_calls"), key=lambda c: c["started_at"])
    assert calls and all(c["caller_number"] in phones for c in calls)
    for c in every(ep, "list_calls"):
        assert c["value"] == 0 or c["lead_status"] == "good_lead"
        assert c["source"] == ok(ep, "get_tracking_number", tracking_number_id=c["tracking_number_id"])["source"]


def test_numbers_are_provisioned_for_active_companies_and_never_forward_to_themselves(ep: Episode) -> None:
    home = company(ep)
    made = ok(
        ep,
        "provision_number",
        company_id=home["id"],
        area_code="646",
        source="facebook",
        name="FB retarget",
        destination_number=DEST,
    )
    assert made["number"].startswith("+1646") and made["status"] == "active"
    refused(
        ep,
        "update_tracking_number",
        "rule_violation",
        "destination_number",
        tracking_number_id=made["id"],
        destination_number=made["number"],
    )
    off = company(ep, "disabled")
    refused(
        ep,
        "provision_number",
        "rule_violation",
        "company_id",
        company_id=off["id"],
        area_code="646",
        source="bing",
        name="x",
        destination_number=DEST,
    )


def test_disabling_a_company_disables_its_numbers(ep: Episode) -> None:
    home = company(ep)
    ok(ep, "disable_company", company_id=home["id"])
    assert every(ep, "list_tracking_numbers", company_id=home["id"], status="active") == []
    num = every(ep, "list_tracking_numbers", company_id=home["id"])[0]
    refused(ep, "enable_tracking_number", "rule_violation", "tracking_number_id", tracking_number_id=num["id"])
    ok(ep, "enable_company", company_id=home["id"])
    assert ok(ep, "enable_tracking_number", tracking_number_id=num["id"])["status"] == "active"


def test_calls_arrive_only_on_active_numbers_and_know_first_callers(ep: Episode) -> None:
    off = number(ep, "disabled")
    refused(
        ep, "log_call", "rule_violation", "tracking_number", tracking_number=off["number"], caller_number="+13125550199"
    )
    refused(
        ep,
        "log_call",
        "rule_violation",
        "tracking_number",
        tracking_number="+19999999999",
        caller_number="+13125550199",
    )
    num = number(ep)
    first = ok(ep, "log_call", tracking_number=num["number"], caller_number="+13125550199", duration_s=80)
    assert (first["first_call"], first["source"]) == (True, num["source"])
    again = ok(ep, "log_call", tracking_number=num["number"], caller_number="+13125550199", duration_s=20)
    assert again["first_call"] is False
    refused(
        ep,
        "log_call",
        "rule_violation",
        "duration_s",
        tracking_number=num["number"],
        caller_number="+13125550199",
        answered=False,
        duration_s=30,
    )


def test_only_answered_good_leads_carry_a_value(ep: Episode) -> None:
    call = every(ep, "list_calls", lead_status="unscored", answered=True)[0]
    refused(ep, "score_call", "rule_violation", "value", call_id=call["id"], lead_status="not_a_lead", value=100)
    refused(ep, "update_call", "rule_violation", "value", call_id=call["id"], value=100)
    scored = ok(ep, "score_call", call_id=call["id"], lead_status="good_lead", value=40000)
    assert (scored["lead_status"], scored["value"]) == ("good_lead", 40000)
    missed = every(ep, "list_calls", answered=False)[0]
    refused(ep, "score_call", "rule_violation", "lead_status", call_id=missed["id"], lead_status="good_lead")


def test_tags_belong_to_the_company_and_apply_once(ep: Episode) -> None:
    home = company(ep)
    call = next(c for c in every(ep, "list_calls") if "Support" not in c["tags"])
    refused(ep, "tag_call", "rule_violation", "tags", call_id=call["id"], tags=["Support", "Billing"])
    refused(ep, "tag_call", "rule_violation", "tags", call_id=call["id"], tags=[])
    assert "Support" in ok(ep, "tag_call", call_id=call["id"], tags=["support"])["tags"]
    refused(ep, "tag_call", "conflict", "tags", call_id=call["id"], tags=["Support"])
    refused(ep, "create_tag", "conflict", "name", company_id=home["id"], name="SPAM")
    ok(ep, "create_tag", company_id=home["id"], name="Billing")
    both = ok(ep, "tag_call", call_id=call["id"], tags=["Billing", "support"])["tags"]
    assert both.count("Support") == 1 and "Billing" in both


def test_source_report_adds_up_calls_forms_and_value(ep: Episode) -> None:
    home = company(ep)
    rows = ok(ep, "source_report", company_id=home["id"], days=365)
    calls = every(ep, "list_calls", company_id=home["id"])
    forms = every(ep, "list_form_submissions", company_id=home["id"])
    assert sum(r["calls"] for r in rows) == len(calls)
    assert sum(r["forms"] for r in rows) == len(forms)
    assert sum(r["value"] for r in rows) == sum(c["value"] for c in calls)
    good = sum(c["lead_status"] == "good_lead" for c in calls) + sum(f["lead_status"] == "good_lead" for f in forms)
    assert sum(r["good_leads"] for r in rows) == good


def test_form_leads_are_recorded_and_scored(ep: Episode) -> None:
    home = company(ep)
    made = ok(
        ep,
        "create_form_submission",
        company_id=home["id"],
        source="google_ads",
        form_url="https://example.com/quote",
        customer_email="jo@client.io",
        customer_name="Jo Park",
    )
    assert made["lead_status"] == "unscored"
    assert ok(ep, "update_form_submission", form_submission_id=made["id"], lead_status="good_lead")
    assert every(ep, "list_form_submissions", customer_email="jo@client.io")[0]["lead_status"] == "good_lead"
    refused(ep, "create_company", "conflict", "name", name=home["name"])
