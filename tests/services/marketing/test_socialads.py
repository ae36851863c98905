"""Tidewater Ads: spend caps, ad set budgets and targeting, ad review, custom audiences, insights."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ADS = ServiceTools("socialads")
WORLD = ADS.world
ok, refused, every, first = ADS.ok, ADS.refused, ADS.every, ADS.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
START = (WORLD.epoch + dt.timedelta(days=1)).isoformat()


def main_account(ep: Episode) -> dict[str, Any]:
    return next(a for a in every(ep, "list_ad_accounts") if a["name"].endswith("Main"))


def capped_account(ep: Episode) -> dict[str, Any]:
    return next(a for a in every(ep, "list_ad_accounts") if a["name"].endswith("Recruiting"))


def test_accounts_belong_to_the_home_company_and_spend_matches_insights(ep: Episode) -> None:
    finance = {p.email for p in POP.employees}
    for a in every(ep, "list_ad_accounts"):
        assert a["business_name"] == POP.home.name and a["billing_email"] in finance
        assert a["amount_spent_cents"] <= a["spend_cap_cents"]
    main = main_account(ep)
    total = 0
    for c in every(ep, "list_campaigns", account_id=main["id"]):
        got = ok(
            ep, "get_insights", object_id=c["id"], since=(TODAY - dt.timedelta(days=30)).isoformat(), until=str(TODAY)
        )
        total += got["spend_cents"]
    assert 0 < total <= main["amount_spent_cents"]


def test_the_spend_cap_stops_activation_and_cannot_drop_below_spend(ep: Episode) -> None:
    capped = capped_account(ep)
    camp = first(ep, "campaigns", account_id=capped["id"])
    refused(ep, "activate_campaign", "rule_violation", "campaign_id", campaign_id=camp["id"])
    refused(
        ep,
        "set_spend_cap",
        "rule_violation",
        "spend_cap_cents",
        account_id=capped["id"],
        spend_cap_cents=capped["amount_spent_cents"] - 1,
    )
    ok(ep, "set_spend_cap", account_id=capped["id"], spend_cap_cents=capped["amount_spent_cents"] + 100_000)
    assert ok(ep, "activate_campaign", campaign_id=camp["id"])["status"] == "ACTIVE"


def test_an_ad_set_has_exactly_one_budget_unless_the_campaign_holds_it(ep: Episode) -> None:
    main = main_account(ep)
    camp = ok(ep, "create_campaign", account_id=main["id"], name="Retargeting", objective="OUTCOME_SALES")
    base = {"campaign_id": camp["id"], "name": "Visitors", "countries": ["US"], "start_time": START}
    refused(ep, "create_ad_set", "rule_violation", "daily_budget_cents", **base)
    refused(
        ep,
        "create_ad_set",
        "rule_violation",
        "daily_budget_cents",
        daily_budget_cents=500,
        lifetime_budget_cents=9000,
        **base,
    )
    refused(ep, "create_ad_set", "rule_violation", "end_time", lifetime_budget_cents=9000, **base)
    made = ok(ep, "create_ad_set", daily_budget_cents=1500, **base)
    assert (made["status"], made["targeting"]["countries"]) == ("PAUSED", ["US"])
    refused(
        ep, "update_campaign", "rule_violation", "daily_budget_cents", campaign_id=camp["id"], daily_budget_cents=9000
    )
    cbo = next(c for c in every(ep, "list_campaigns") if c["daily_budget_cents"] is not None)
    refused(
        ep,
        "create_ad_set",
        "rule_violation",
        "daily_budget_cents",
        **(base | {"campaign_id": cbo["id"]}),
        daily_budget_cents=900,
    )
    assert ok(ep, "create_ad_set", **(base | {"campaign_id": cbo["id"]}))["daily_budget_cents"] is None


def test_special_ad_categories_restrict_ages_and_lookalikes(ep: Episode) -> None:
    main = main_account(ep)
    camp = ok(
        ep,
        "create_campaign",
        account_id=main["id"],
        name="Apartment listings",
        objective="OUTCOME_LEADS",
        special_ad_categories=["HOUSING"],
    )
    look = first(ep, "custom_audiences", subtype="LOOKALIKE")
    base = {
        "campaign_id": camp["id"],
        "name": "Renters",
        "countries": ["US"],
        "start_time": START,
        "daily_budget_cents": 2000,
    }
    refused(ep, "create_ad_set", "rule_violation", "age_min", age_min=25, **base)
    refused(ep, "create_ad_set", "rule_violation", "custom_audience_ids", custom_audience_ids=[look["id"]], **base)
    assert ok(ep, "create_ad_set", **base)["targeting"]["age_min"] == 18


def test_small_audiences_cannot_be_targeted_until_enough_users_match(ep: Episode) -> None:
    small = next(a for a in every(ep, "list_custom_audiences", subtype="CUSTOM") if a["approximate_count"] < 100)
    camp = next(c for c in every(ep, "list_campaigns", status="PAUSED") if not c["special_ad_categories"])
    base = {
        "campaign_id": camp["id"],
        "name": "Subs",
        "countries": ["US"],
        "start_time": START,
        "daily_budget_cents": 900,
    }
    refused(ep, "create_ad_set", "rule_violation", "custom_audience_ids", custom_audience_ids=[small["id"]], **base)
    emails = [p.email for p in POP.people[:50]] + ["nobody@nowhere.example", POP.people[0].email.upper()]
    grown = ok(ep, "add_audience_users", custom_audience_id=small["id"], emails=emails)
    assert grown["approximate_count"] == small["approximate_count"] + 50
    assert grown["uploaded_count"] == small["uploaded_count"] + 51
    assert ok(ep, "create_ad_set", custom_audience_ids=[small["id"]], **base)["targeting"]["custom_audience_ids"] == [
        small["id"]
    ]


def test_lookalikes_need_a_large_seed_and_protect_it_from_deletion(ep: Episode) -> None:
    customs = every(ep, "list_custom_audiences", subtype="CUSTOM")
    small = next(a for a in customs if a["approximate_count"] < 100)
    big = next(a for a in customs if a["approximate_count"] >= 100)
    args = {"name": "LAL", "country": "BR", "ratio": 2}
    refused(
        ep, "create_lookalike_audience", "rule_violation", "origin_audience_id", origin_audience_id=small["id"], **args
    )
    lal = ok(ep, "create_lookalike_audience", origin_audience_id=big["id"], **args)
    assert (lal["subtype"], lal["lookalike_ratio"], lal["origin_audience_id"]) == ("LOOKALIKE", 2, big["id"])
    refused(
        ep,
        "add_audience_users",
        "rule_violation",
        "custom_audience_id",
        custom_audience_id=lal["id"],
        emails=["a@b.io"],
    )
    refused(ep, "delete_custom_audience", "conflict", "custom_audience_id", custom_audience_id=big["id"])
    ok(ep, "delete_custom_audience", custom_audience_id=small["id"])


def test_a_disapproved_ad_is_rereviewed_with_a_clean_creative(ep: Episode) -> None:
    bad = first(ep, "ads", review_status="DISAPPROVED")
    assert "guaranteed" in bad["review_feedback"]
    refused(ep, "activate_ad", "rule_violation", "ad_id", ad_id=bad["id"])
    refused(
        ep,
        "request_ad_review",
        "rule_violation",
        "ad_id",
        ad_id=first(ep, "ads", review_status="APPROVED")["id"],
        creative_id=bad["creative_id"],
    )
    camp = ok(ep, "get_campaign", campaign_id=bad["campaign_id"])
    clean = ok(
        ep,
        "create_creative",
        account_id=camp["account_id"],
        name="Compliant copy",
        page_name=POP.home.name,
        message="Loved by thousands of customers.",
        headline="Shop the range",
        link_url=f"https://www.{POP.home.domain}/shop",
    )
    again = ok(ep, "request_ad_review", ad_id=bad["id"], creative_id=clean["id"])
    assert (again["review_status"], again["creative_id"], again["review_feedback"]) == ("APPROVED", clean["id"], "")
    assert ok(ep, "activate_ad", ad_id=bad["id"])["status"] == "ACTIVE"


def test_new_ads_are_reviewed_and_must_use_the_accounts_creatives(ep: Episode) -> None:
    adset = first(ep, "ad_sets", status="ACTIVE")
    camp = ok(ep, "get_campaign", campaign_id=adset["campaign_id"])
    creatives = every(ep, "list_creatives", account_id=camp["account_id"])
    risky = next(c for c in creatives if "guaranteed" in c["message"].lower())
    made = ok(ep, "create_ad", adset_id=adset["id"], creative_id=risky["id"], name="Risky")
    assert made["review_status"] == "DISAPPROVED" and made["campaign_id"] == camp["id"]
    other = next(c for c in every(ep, "list_creatives") if c["account_id"] != camp["account_id"])
    refused(ep, "create_ad", "rule_violation", "creative_id", adset_id=adset["id"], creative_id=other["id"], name="X")


def test_insights_sum_an_ads_days_and_refuse_bad_ranges(ep: Episode) -> None:
    ad = first(ep, "ads", status="ACTIVE", review_status="APPROVED")
    since, until = str(TODAY - dt.timedelta(days=7)), str(TODAY)
    got = ok(ep, "get_insights", object_id=ad["id"], since=since, until=until)
    assert got["impressions"] > 0 and got["ctr"] == round(100 * got["clicks"] / got["impressions"], 2)
    refused(ep, "get_insights", "rule_violation", "until", object_id=ad["id"], since=until, until=since)
    refused(ep, "get_insights", "rule_violation", "object_id", object_id="act_000001", since=since, until=until)
    camp = ok(ep, "archive_campaign", campaign_id=ad["campaign_id"])
    assert camp["status"] == "ARCHIVED"
    refused(ep, "activate_campaign", "rule_violation", "campaign_id", campaign_id=camp["id"])


def test_each_account_is_billed_to_its_own_team_and_found_by_that_address(ep: Episode) -> None:
    accounts = every(ep, "list_ad_accounts")
    assert len({a["billing_email"] for a in accounts}) == len(accounts)
    for a in accounts:
        assert [x["id"] for x in every(ep, "list_ad_accounts", billing_email=a["billing_email"])] == [a["id"]]
    people = {p.email: p for p in POP.employees}
    assert people[capped_account(ep)["billing_email"]].department == "People"  # recruiting ads: people ops pays
