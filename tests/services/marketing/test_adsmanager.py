"""Reachpoint Ads: campaign states, serving readiness, budgets, bids, ad policy, keywords, performance."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ADS = ServiceTools("adsmanager")
WORLD = ADS.world
ok, refused, every, items, first = ADS.ok, ADS.refused, ADS.every, ADS.items, ADS.first
POP = WORLD.population
HEADS = ["Office chairs on sale", "Free delivery", "Order online today"]
DESCS = ["Comfortable chairs for long days.", "Delivered to your office within days."]
URL = f"https://www.{POP.home.domain}/chairs"


def campaign(ep: Episode, **filters: Any) -> dict[str, Any]:
    return first(ep, "campaigns", **filters)


def fresh_campaign(ep: Episode, channel: str = "SEARCH", bidding: str = "MANUAL_CPC") -> dict[str, Any]:
    acct = first(ep, "accounts")
    budget = ok(ep, "create_budget", account_id=acct["id"], name=f"New {channel} budget", amount=50_00)
    return dict(
        ok(
            ep,
            "create_campaign",
            account_id=acct["id"],
            name=f"New {channel} campaign",
            channel=channel,
            budget_id=budget["id"],
            bidding_strategy=bidding,
        )
    )


# -- the world ------------------------------------------------------------------------------


def test_the_accounts_are_the_home_companys_and_shopping_promotes_catalog_skus() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p for p in POP.employees}
    for acct in items(ep, "accounts"):
        assert acct["descriptive_name"].startswith(POP.home.name)
        assert staff[acct["manager_email"]].department == "Marketing"
        assert staff[acct["billing_email"]].department == "Finance"
    skus = {p.sku for p in POP.products}
    shopping = {c["id"] for c in items(ep, "campaigns", channel="SHOPPING")}
    for group in every(ep, "list_ad_groups"):
        assert (group["promoted_sku"] in skus) if group["campaign_id"] in shopping else group["promoted_sku"] is None
    for inv in items(ep, "invoices"):
        assert inv["total"] == inv["subtotal"] + inv["tax"]
    assert {c["status"] for c in items(ep, "campaigns")} == {"ENABLED", "PAUSED", "REMOVED"}


# -- creating campaigns ---------------------------------------------------------------------


def test_a_new_campaign_starts_paused_today(ep: Episode) -> None:
    new = fresh_campaign(ep)
    assert (new["status"], new["start_date"]) == ("PAUSED", "2026-03-02")


def test_a_budget_not_explicitly_shared_serves_one_campaign(ep: Episode) -> None:
    used = campaign(ep, channel="DISPLAY")
    args = dict(account_id=used["account_id"], name="Another display", channel="DISPLAY")
    refused(ep, "create_campaign", "conflict", "budget_id", budget_id=used["budget_id"], **args)
    shared = first(ep, "budgets", explicitly_shared=True)
    ok(ep, "create_campaign", budget_id=shared["id"], **args)
    msg = refused(
        ep, "update_budget", "rule_violation", "explicitly_shared", budget_id=shared["id"], explicitly_shared=False
    )
    assert "shared by" in msg


def test_campaign_settings_are_validated(ep: Episode) -> None:
    acct, other = items(ep, "accounts")[:2]
    foreign = first(ep, "budgets", account_id=other["id"])
    shared = first(ep, "budgets", account_id=acct["id"], explicitly_shared=True)
    base = dict(account_id=acct["id"], name="Spring sale", channel="SEARCH")
    refused(ep, "create_campaign", "rule_violation", "budget_id", budget_id=foreign["id"], **base)
    refused(
        ep, "create_campaign", "rule_violation", "start_date", budget_id=shared["id"], start_date="2026-02-01", **base
    )
    refused(
        ep,
        "create_campaign",
        "rule_violation",
        "target_cpa",
        budget_id=shared["id"],
        bidding_strategy="TARGET_CPA",
        **base,
    )
    refused(
        ep,
        "create_campaign",
        "rule_violation",
        "end_date",
        budget_id=shared["id"],
        start_date="2026-03-10",
        end_date="2026-03-09",
        **base,
    )
    taken = campaign(ep, account_id=acct["id"], status="ENABLED")["name"]
    refused(ep, "create_campaign", "conflict", "name", budget_id=shared["id"], **{**base, "name": taken})


# -- serving --------------------------------------------------------------------------------


def test_a_search_campaign_serves_only_with_an_ad_and_a_keyword(ep: Episode) -> None:
    new = fresh_campaign(ep)
    refused(ep, "enable_campaign", "rule_violation", "campaign_id", campaign_id=new["id"])
    refused(ep, "create_ad_group", "rule_violation", "cpc_bid", campaign_id=new["id"], name="Chairs")
    refused(ep, "create_ad_group", "rule_violation", "cpc_bid", campaign_id=new["id"], name="Chairs", cpc_bid=60_00)
    group = ok(ep, "create_ad_group", campaign_id=new["id"], name="Chairs", cpc_bid=80)
    ok(ep, "create_responsive_search_ad", ad_group_id=group["id"], headlines=HEADS, descriptions=DESCS, final_url=URL)
    msg = refused(ep, "enable_campaign", "rule_violation", "campaign_id", campaign_id=new["id"])
    assert "keyword" in msg
    ok(ep, "create_keyword", ad_group_id=group["id"], text="Office Chair", match_type="PHRASE")
    assert ok(ep, "enable_campaign", campaign_id=new["id"])["status"] == "ENABLED"
    assert ok(ep, "pause_campaign", campaign_id=new["id"])["status"] == "PAUSED"


def test_a_disapproved_ad_does_not_serve(ep: Episode) -> None:
    new = fresh_campaign(ep)
    group = ok(ep, "create_ad_group", campaign_id=new["id"], name="Chairs", cpc_bid=80)
    ok(ep, "create_keyword", ad_group_id=group["id"], text="office chair", match_type="EXACT")
    bad = ok(
        ep,
        "create_responsive_search_ad",
        ad_group_id=group["id"],
        headlines=["BEST CHAIRS", *HEADS[1:]],
        descriptions=DESCS,
        final_url=URL,
    )
    assert (bad["policy_status"], bad["policy_topics"]) == ("DISAPPROVED", ["EXCESSIVE_CAPITALIZATION"])
    refused(ep, "enable_campaign", "rule_violation", "campaign_id", campaign_id=new["id"])
    limited = ok(
        ep,
        "create_responsive_search_ad",
        ad_group_id=group["id"],
        headlines=["Guaranteed comfort", *HEADS[1:]],
        descriptions=DESCS,
        final_url=URL,
    )
    assert limited["policy_status"] == "APPROVED_LIMITED"
    assert ok(ep, "enable_campaign", campaign_id=new["id"])["status"] == "ENABLED"


def test_a_campaign_past_its_end_date_must_be_extended_before_enabling(ep: Episode) -> None:
    ended = next(c for c in items(ep, "campaigns", status="PAUSED") if c["end_date"])
    msg = refused(ep, "enable_campaign", "rule_violation", "campaign_id", campaign_id=ended["id"])
    assert "end date" in msg
    ok(ep, "update_campaign", campaign_id=ended["id"], end_date="2026-06-30")
    assert ok(ep, "enable_campaign", campaign_id=ended["id"])["status"] == "ENABLED"


def test_a_removed_campaign_is_final(ep: Episode) -> None:
    gone = campaign(ep, status="REMOVED")
    refused(ep, "update_campaign", "rule_violation", "campaign_id", campaign_id=gone["id"], name="Revived")
    refused(ep, "enable_campaign", "rule_violation", "campaign_id", campaign_id=gone["id"])
    refused(ep, "pause_campaign", "rule_violation", "campaign_id", campaign_id=gone["id"])
    refused(ep, "create_ad_group", "rule_violation", "campaign_id", campaign_id=gone["id"], name="X", cpc_bid=50)
    live = campaign(ep, status="ENABLED")
    ok(ep, "remove_campaign", campaign_id=live["id"])
    refused(ep, "enable_campaign", "rule_violation", "campaign_id", campaign_id=live["id"])


# -- ads and keywords -----------------------------------------------------------------------


def test_responsive_search_ads_need_3_to_15_distinct_headlines_and_2_to_4_descriptions(ep: Episode) -> None:
    group = first(ep, "ad_groups", campaign_id=campaign(ep, channel="SEARCH", status="ENABLED")["id"])
    args: dict[str, Any] = dict(ad_group_id=group["id"], final_url=URL)
    refused(
        ep,
        "create_responsive_search_ad",
        "rule_violation",
        "headlines",
        headlines=HEADS[:2],
        descriptions=DESCS,
        **args,
    )
    refused(
        ep,
        "create_responsive_search_ad",
        "rule_violation",
        "headlines",
        headlines=[*HEADS, "free delivery"],
        descriptions=DESCS,
        **args,
    )
    refused(
        ep,
        "create_responsive_search_ad",
        "rule_violation",
        "descriptions",
        headlines=HEADS,
        descriptions=DESCS[:1],
        **args,
    )
    too_long = ["A headline far longer than thirty characters", *HEADS[1:]]
    refused(
        ep,
        "create_responsive_search_ad",
        "invalid_arguments",
        "headlines.0",
        headlines=too_long,
        descriptions=DESCS,
        **args,
    )
    shopping_group = first(ep, "ad_groups", campaign_id=campaign(ep, channel="SHOPPING")["id"])
    refused(
        ep,
        "create_responsive_search_ad",
        "rule_violation",
        "ad_group_id",
        ad_group_id=shopping_group["id"],
        headlines=HEADS,
        descriptions=DESCS,
        final_url=URL,
    )


def test_keywords_are_unique_per_ad_group_and_match_type(ep: Episode) -> None:
    kw = first(ep, "keywords", negative=False)
    args = dict(ad_group_id=kw["ad_group_id"], text=kw["text"].upper())
    refused(ep, "create_keyword", "conflict", "text", match_type=kw["match_type"], **args)
    other = next(m for m in ("EXACT", "PHRASE", "BROAD") if m != kw["match_type"])
    if not items(ep, "keywords", ad_group_id=kw["ad_group_id"], match_type=other, query=kw["text"]):
        ok(ep, "create_keyword", match_type=other, **args)
    refused(
        ep,
        "create_keyword",
        "rule_violation",
        "cpc_bid",
        match_type="BROAD",
        negative=True,
        cpc_bid=50,
        **{**args, "text": "used"},
    )
    refused(
        ep, "create_keyword", "rule_violation", "text", match_type="BROAD", **{**args, "text": " ".join(["word"] * 11)}
    )
    shopping_group = first(ep, "ad_groups", campaign_id=campaign(ep, channel="SHOPPING")["id"])
    refused(
        ep,
        "create_keyword",
        "rule_violation",
        "ad_group_id",
        ad_group_id=shopping_group["id"],
        text="tent",
        match_type="EXACT",
    )


def test_shopping_ad_groups_promote_a_catalog_sku(ep: Episode) -> None:
    shop = campaign(ep, channel="SHOPPING", status="ENABLED")
    refused(ep, "create_ad_group", "rule_violation", "promoted_sku", campaign_id=shop["id"], name="Mystery", cpc_bid=50)
    refused(
        ep,
        "create_ad_group",
        "rule_violation",
        "promoted_sku",
        campaign_id=shop["id"],
        name="Mystery",
        cpc_bid=50,
        promoted_sku="NOPE-1",
    )
    sku = POP.products[3].sku
    group = ok(ep, "create_ad_group", campaign_id=shop["id"], name="Promoted", cpc_bid=50, promoted_sku=sku)
    assert group["promoted_sku"] == sku


# -- budgets and performance ----------------------------------------------------------------


def test_a_daily_budget_cannot_drop_below_todays_spend(ep: Episode) -> None:
    live = campaign(ep, status="ENABLED", channel="SHOPPING")
    spent = sum(s["cost"] for s in items(ep, "campaign_stats", campaign_id=live["id"], date="2026-03-02"))
    assert spent > 0
    refused(ep, "update_budget", "rule_violation", "amount", budget_id=live["budget_id"], amount=max(100, spent - 1))
    assert ok(ep, "update_budget", budget_id=live["budget_id"], amount=max(100, spent))["amount"] == max(100, spent)
    refused(ep, "update_budget", "rule_violation", "amount", budget_id=live["budget_id"], amount=99)


def test_performance_sums_the_daily_metrics() -> None:
    ep = Episode(WORLD)
    live = campaign(ep, status="ENABLED")
    rows = [
        r for r in every(ep, "list_campaign_stats", campaign_id=live["id"]) if "2026-02-24" <= r["date"] <= "2026-03-02"
    ]
    perf = ok(ep, "campaign_performance", campaign_id=live["id"], start_date="2026-02-24", end_date="2026-03-02")
    clicks, imp, cost = (sum(r[k] for r in rows) for k in ("clicks", "impressions", "cost"))
    assert (perf["clicks"], perf["impressions"], perf["cost"]) == (clicks, imp, cost)
    assert perf["ctr"] == round(100 * clicks / imp, 2)
    assert perf["average_cpc"] == round(cost / clicks)
    refused(
        ep,
        "campaign_performance",
        "rule_violation",
        "end_date",
        campaign_id=live["id"],
        start_date="2026-03-02",
        end_date="2026-02-01",
    )


def test_keyword_ideas_are_deterministic_and_grow_from_the_seed_words() -> None:
    a = ok(Episode(WORLD), "generate_keyword_ideas", seed_keywords=["desk chair"], currency="EUR")
    b = ok(Episode(WORLD), "generate_keyword_ideas", seed_keywords=["desk chair"], currency="EUR")
    assert a == b and a["ideas"]
    assert all("desk chair" in idea["text"] for idea in a["ideas"])
    volumes = [i["avg_monthly_searches"] for i in a["ideas"]]
    assert volumes == sorted(volumes, reverse=True)
    assert all(i["low_top_of_page_bid"] < i["high_top_of_page_bid"] for i in a["ideas"])
