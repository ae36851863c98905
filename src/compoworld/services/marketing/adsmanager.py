"""Reachpoint Ads: search and shopping ad accounts, budgets, campaigns, ad groups, ads, keywords and spend.

Modeled on the Google Ads API v17 (Customer, CampaignBudget, Campaign with
status ENABLED/PAUSED/REMOVED, AdGroup, AdGroupAd with a responsive search ad
and its policy review, AdGroupCriterion keywords, campaign metrics by day,
Invoice, KeywordPlanIdeaService): a removed campaign is final, a campaign only
serves once it has an enabled ad group with an approved ad (and, for search,
a keyword), a budget that is not explicitly shared serves one campaign, a
daily budget cannot drop below what its campaigns already spent today,
manual-CPC ad groups need a bid that fits the daily budget, responsive search
ads take 3-15 headlines of at most 30 characters and 2-4 descriptions of at
most 90, and a keyword is unique per ad group and match type.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    Percent,
    Quantity,
    Sku,
    Timezone,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "adsmanager",
    title="Reachpoint Ads",
    category="marketing",
    modeled_on="Google Ads API v17 (Customer, CampaignBudget, Campaign, AdGroup, AdGroupAd responsive search ad, "
    "AdGroupCriterion keyword, campaign metrics, Invoice, KeywordPlanIdeaService)",
    description="Paid search and shopping advertising: ad accounts with their daily budgets, campaigns that are "
    "enabled, paused or removed, ad groups with bids, responsive search ads under policy review, keywords, "
    "daily spend and performance, monthly invoices and keyword ideas.",
)

AccountId = Annotated[str, IdOf("adsmanager.account")]
BudgetId = Annotated[str, IdOf("adsmanager.budget")]
CampaignId = Annotated[str, IdOf("adsmanager.campaign")]
AdGroupId = Annotated[str, IdOf("adsmanager.ad_group")]
AdId = Annotated[str, IdOf("adsmanager.ad")]
KeywordId = Annotated[str, IdOf("adsmanager.keyword")]
Status = Literal["ENABLED", "PAUSED", "REMOVED"]
Channel = Literal["SEARCH", "DISPLAY", "SHOPPING"]
Bidding = Literal["MANUAL_CPC", "MAXIMIZE_CLICKS", "MAXIMIZE_CONVERSIONS", "TARGET_CPA"]
MatchType = Literal["EXACT", "PHRASE", "BROAD"]
PolicyStatus = Literal["APPROVED", "APPROVED_LIMITED", "DISAPPROVED"]
Headline = Annotated[str, StringConstraints(min_length=1, max_length=30, strip_whitespace=True)]
Description = Annotated[str, StringConstraints(min_length=1, max_length=90, strip_whitespace=True)]
KeywordText = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True, to_lower=True)]
MIN_BUDGET = 100


class Account(Record):
    """An advertiser account (customer): its currency, time zone and billing."""

    id: AccountId
    descriptive_name: CompanyName
    """Name of the advertiser."""
    currency_code: Currency
    """Currency of every budget, bid and cost in the account."""
    time_zone: Timezone
    """Time zone days are counted in."""
    manager_email: Email
    """E-mail of the person who manages the account."""
    billing_email: Email
    """Where invoices are sent."""
    status: Literal["ENABLED", "SUSPENDED"] = "ENABLED"
    """Suspended accounts cannot serve or change campaigns."""


class Budget(Record):
    """A daily campaign budget."""

    id: BudgetId
    account_id: AccountId
    """The account."""
    name: Title
    """Budget name."""
    amount: Cents
    """Average daily amount in cents of the account's currency (at least 1.00)."""
    delivery_method: Literal["STANDARD", "ACCELERATED"] = "STANDARD"
    """STANDARD spreads spend over the day; ACCELERATED spends as early as possible."""
    explicitly_shared: bool = False
    """Whether several campaigns may share the budget; a non-shared budget serves one campaign."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Campaign(Timestamped):
    """An advertising campaign: channel, bidding, budget, dates and serving status."""

    id: CampaignId
    account_id: AccountId
    """The account."""
    name: Title
    """Campaign name; unique within the account."""
    channel: Channel
    """SEARCH (text ads on search results), DISPLAY (banner network) or SHOPPING (product listings)."""
    status: Status = "PAUSED"
    """ENABLED (serving), PAUSED, or REMOVED (final)."""
    budget_id: BudgetId
    """The budget it spends from."""
    bidding_strategy: Bidding = "MANUAL_CPC"
    """How bids are set; MANUAL_CPC uses each ad group's bid."""
    target_cpa: Cents | None = None
    """Target cost per conversion in cents; required with TARGET_CPA."""
    start_date: Date
    """First day it may serve."""
    end_date: Date | None = None
    """Last day it may serve; null: no end."""
    final_url_suffix: str = ""
    """Tracking parameters appended to every landing page URL."""


class AdGroup(Record):
    """A group of ads and keywords within a campaign, with its bid."""

    id: AdGroupId
    campaign_id: CampaignId
    """The campaign."""
    name: Title
    """Ad group name."""
    status: Status = "ENABLED"
    """ENABLED, PAUSED or REMOVED."""
    cpc_bid: Cents | None = None
    """Maximum cost per click in cents; required in MANUAL_CPC campaigns."""
    promoted_sku: Sku | None = None
    """For shopping campaigns: the product the group advertises."""


class Ad(Created):
    """A responsive search ad in an ad group, with its policy review."""

    id: AdId
    ad_group_id: AdGroupId
    """The ad group."""
    headlines: tuple[Headline, ...]
    """3 to 15 distinct headlines of at most 30 characters each."""
    descriptions: tuple[Description, ...]
    """2 to 4 descriptions of at most 90 characters each."""
    final_url: Url
    """Landing page."""
    status: Status = "ENABLED"
    """ENABLED, PAUSED or REMOVED."""
    policy_status: PolicyStatus = "APPROVED"
    """Policy review result; disapproved ads do not serve."""
    policy_topics: tuple[str, ...] = ()
    """Policies the ad was found to break."""


class Keyword(Record):
    """A keyword an ad group bids on (or excludes, when negative)."""

    id: KeywordId
    ad_group_id: AdGroupId
    """The ad group."""
    text: KeywordText
    """Keyword text, lower case, at most 10 words."""
    match_type: MatchType
    """EXACT, PHRASE or BROAD."""
    negative: bool = False
    """Whether searches matching it are excluded."""
    cpc_bid: Cents | None = None
    """Keyword-level bid overriding the ad group's; not allowed on negative keywords."""
    status: Literal["ENABLED", "PAUSED"] = "ENABLED"
    """ENABLED or PAUSED."""


class CampaignStat(Record):
    """One day of a campaign's delivery metrics."""

    id: Annotated[str, IdOf("adsmanager.campaign_stat")]
    campaign_id: CampaignId
    """The campaign."""
    date: Date
    """The day (in the account's time zone)."""
    impressions: Quantity
    """Times an ad was shown."""
    clicks: Quantity
    """Clicks."""
    cost: Cents
    """Spend in cents."""
    conversions: Quantity
    """Conversions attributed to the day."""
    conversion_value: Cents
    """Value of those conversions in cents."""


class Invoice(Record):
    """A monthly invoice of an account's ad spend."""

    id: Annotated[str, IdOf("adsmanager.invoice")]
    account_id: AccountId
    """The account billed."""
    invoice_number: InvoiceNumber
    """Invoice number."""
    billing_month: Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-[0-9]{2}$")]
    """Month billed (YYYY-MM)."""
    issue_date: Date
    """When it was issued."""
    due_date: Date
    """When payment is due."""
    subtotal: Cents
    """Ad spend in cents."""
    tax: Cents
    """Tax in cents."""
    total: Cents
    """Amount due in cents."""
    currency: Currency
    """Currency."""
    billing_email: Email
    """Where it was sent."""


# -- rules ------------------------------------------------------------------------------------


def _account_ok(ctx: Ctx, account_id: str, field: str) -> Account:
    acct = ctx.get(Account, account_id, field=field)
    if acct.status != "ENABLED":
        raise RuleViolation(
            f"account {acct.descriptive_name} is suspended", field=field, hint="resolve the suspension first"
        )
    return acct


def _spent_today(ctx: Ctx, campaign_ids: set[str]) -> int:
    today = ctx.today()
    return sum(s.cost for cid in sorted(campaign_ids) for s in ctx.where(CampaignStat, campaign_id=cid, date=today))


def _check_budget_use(ctx: Ctx, campaign: Campaign, field: str) -> None:
    budget = ctx.get(Budget, campaign.budget_id, field=field)
    if budget.account_id != campaign.account_id:
        raise RuleViolation(
            f"budget {budget.name} belongs to another account",
            field=field,
            hint="use a budget of the campaign's own account (adsmanager__list_budgets)",
        )
    if not budget.explicitly_shared:
        for other in ctx.where(Campaign, budget_id=budget.id):
            if other.id != campaign.id and other.status != "REMOVED":
                raise Conflict(
                    f"budget {budget.name} is not shared and already serves campaign {other.name}",
                    field=field,
                    hint="create a new budget, or mark this one explicitly_shared",
                )


def _check_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "REMOVED":
        raise RuleViolation(
            f"campaign {old.name} is removed and cannot change",
            field="campaign_id",
            hint="removed campaigns are final; create a new campaign",
        )
    _account_ok(ctx, new.account_id, "account_id" if old is None else "campaign_id")
    if old is None and new.start_date < ctx.today():
        raise RuleViolation("a campaign cannot start in the past", field="start_date", hint="start today or later")
    if new.end_date is not None and new.end_date < new.start_date:
        raise RuleViolation("the end date is before the start date", field="end_date", hint="end on or after the start")
    if new.bidding_strategy == "TARGET_CPA" and new.target_cpa is None:
        raise RuleViolation("TARGET_CPA bidding needs a target_cpa", field="target_cpa", hint="set target_cpa in cents")
    if new.bidding_strategy != "TARGET_CPA" and new.target_cpa is not None:
        raise RuleViolation(
            "target_cpa only applies to TARGET_CPA bidding",
            field="target_cpa",
            hint="set bidding_strategy to TARGET_CPA or leave target_cpa empty",
        )
    for other in ctx.where(Campaign, account_id=new.account_id, name=new.name):
        if other.id != new.id and other.status != "REMOVED":
            raise Conflict(
                f"the account already has a campaign named {new.name}",
                field="name",
                hint="campaign names are unique per account; choose another",
            )
    if old is None or new.budget_id != old.budget_id:
        _check_budget_use(ctx, new, "budget_id")


def _check_budget(ctx: Ctx, new: Any, old: Any) -> None:
    acct = ctx.get(Account, new.account_id, field="account_id")
    if new.amount < MIN_BUDGET:
        raise RuleViolation(
            f"a daily budget must be at least {MIN_BUDGET} cents", field="amount", hint="raise the amount"
        )
    if old is None:
        return
    if old.explicitly_shared and not new.explicitly_shared:
        users = [c for c in ctx.where(Campaign, budget_id=old.id) if c.status != "REMOVED"]
        if len(users) > 1:
            raise RuleViolation(
                f"budget {old.name} is shared by {len(users)} campaigns",
                field="explicitly_shared",
                hint="move campaigns to their own budgets first",
            )
    if new.amount < old.amount:
        spent = _spent_today(ctx, {c.id for c in ctx.where(Campaign, budget_id=old.id)})
        if new.amount < spent:
            raise RuleViolation(
                f"campaigns on budget {old.name} already spent {spent} cents today ({acct.currency_code})",
                field="amount",
                hint=f"set a daily amount of at least {spent} cents",
            )


def _check_ad_group(ctx: Ctx, new: Any, old: Any) -> None:
    campaign = ctx.get(Campaign, new.campaign_id, field="campaign_id")
    where = "campaign_id" if old is None else "ad_group_id"
    if campaign.status == "REMOVED":
        raise RuleViolation(
            f"campaign {campaign.name} is removed", field=where, hint="removed campaigns take no changes"
        )
    if old is not None and old.status == "REMOVED":
        raise RuleViolation(f"ad group {old.name} is removed", field=where, hint="create a new ad group")
    if campaign.bidding_strategy == "MANUAL_CPC":
        if new.cpc_bid is None:
            raise RuleViolation(
                f"campaign {campaign.name} uses manual CPC bidding; the ad group needs a cpc_bid",
                field="cpc_bid",
                hint="set a maximum cost per click in cents",
            )
        budget = ctx.get(Budget, campaign.budget_id)
        if new.cpc_bid > budget.amount:
            raise RuleViolation(
                f"a bid of {new.cpc_bid} exceeds the daily budget of {budget.amount}",
                field="cpc_bid",
                hint="bid less than the campaign's daily budget, or raise the budget",
            )
    if (new.promoted_sku is not None) != (campaign.channel == "SHOPPING"):
        raise RuleViolation(
            "shopping ad groups, and only they, promote a product SKU",
            field="promoted_sku",
            hint="give promoted_sku for SHOPPING campaigns and leave it empty otherwise",
        )
    if new.promoted_sku is not None and all(p.sku != new.promoted_sku for p in ctx.population.products):
        raise RuleViolation(
            f"no product with SKU {new.promoted_sku} in the merchant feed",
            field="promoted_sku",
            hint="promote a SKU of the company's product catalog",
        )


def _policy(headlines: tuple[str, ...], descriptions: tuple[str, ...]) -> tuple[PolicyStatus, tuple[str, ...]]:
    topics: list[str] = []
    if any("!" in h for h in headlines):
        topics.append("PUNCTUATION_IN_HEADLINE")
    if any(len(w) > 3 and w.isupper() for text in headlines + descriptions for w in text.split()):
        topics.append("EXCESSIVE_CAPITALIZATION")
    if any(w in text.lower() for text in headlines + descriptions for w in ("guaranteed", "miracle", "#1")):
        topics.append("UNSUBSTANTIATED_CLAIMS")
    if not topics:
        return "APPROVED", ()
    return ("APPROVED_LIMITED" if topics == ["UNSUBSTANTIATED_CLAIMS"] else "DISAPPROVED"), tuple(topics)


def _check_ad_text(headlines: tuple[str, ...], descriptions: tuple[str, ...]) -> None:
    if not 3 <= len(headlines) <= 15:
        raise RuleViolation(
            f"a responsive search ad needs 3 to 15 headlines, not {len(headlines)}",
            field="headlines",
            hint="give between 3 and 15 headlines of at most 30 characters",
        )
    if len({h.casefold() for h in headlines}) != len(headlines):
        raise RuleViolation("headlines must be distinct", field="headlines", hint="remove the repeated headline")
    if not 2 <= len(descriptions) <= 4:
        raise RuleViolation(
            f"a responsive search ad needs 2 to 4 descriptions, not {len(descriptions)}",
            field="descriptions",
            hint="give 2 to 4 descriptions of at most 90 characters",
        )


def _check_keyword(ctx: Ctx, new: Any, old: Any) -> None:
    group = ctx.get(AdGroup, new.ad_group_id, field="ad_group_id")
    if group.status == "REMOVED":
        raise RuleViolation(f"ad group {group.name} is removed", field="ad_group_id", hint="use an active ad group")
    campaign = ctx.get(Campaign, group.campaign_id)
    if campaign.channel != "SEARCH":
        raise RuleViolation(
            f"campaign {campaign.name} is a {campaign.channel} campaign; keywords target search campaigns",
            field="ad_group_id",
            hint="add keywords to an ad group of a SEARCH campaign",
        )
    if len(new.text.split()) > 10:
        raise RuleViolation("a keyword has at most 10 words", field="text", hint="shorten the keyword")
    if new.negative and new.cpc_bid is not None:
        raise RuleViolation("negative keywords carry no bid", field="cpc_bid", hint="leave cpc_bid empty")
    for other in ctx.where(Keyword, ad_group_id=new.ad_group_id, text=new.text):
        if other.id != new.id and other.match_type == new.match_type and other.negative == new.negative:
            raise Conflict(
                f"ad group {group.name} already has the {new.match_type} keyword '{new.text}'",
                field="text",
                hint="keywords are unique per ad group and match type; change its bid instead",
            )


accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="cus",
    create=False,
    filters=("currency_code", "manager_email", "status"),
    search=("descriptive_name",),
    delete=False,
)
budgets = service.resource(
    Budget,
    name="budget",
    plural="budgets",
    prefix="bud",
    create=("account_id", "name", "amount", "delivery_method", "explicitly_shared"),
    get=False,
    filters=("account_id", "explicitly_shared"),
    search=("name",),
    update=("name", "amount", "delivery_method", "explicitly_shared"),
    delete=False,
    guard_create=_check_budget,
    guard_update=_check_budget,
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=False,
    filters=("account_id", "status", "channel", "budget_id"),
    search=("name",),
    update=("name", "budget_id", "bidding_strategy", "target_cpa", "end_date", "final_url_suffix"),
    delete=False,
    transitions={
        "pause": Transition("status", ("ENABLED",), "PAUSED", "pause the ad campaign"),
        "remove": Transition(
            "status",
            ("ENABLED", "PAUSED"),
            "REMOVED",
            "remove the ad campaign for good",
            description="Remove a campaign: it stops serving for good and can no longer be changed or enabled.",
            destructive=True,
        ),
    },
    guard_update=_check_campaign,
)
ad_groups = service.resource(
    AdGroup,
    name="ad_group",
    plural="ad_groups",
    prefix="adg",
    create=("campaign_id", "name", "cpc_bid", "promoted_sku"),
    get=False,
    filters=("campaign_id", "status", "promoted_sku"),
    search=("name",),
    update=("name", "status", "cpc_bid"),
    delete=False,
    guard_create=_check_ad_group,
    guard_update=_check_ad_group,
    title="ad group",
)
ads = service.resource(
    Ad,
    name="ad",
    plural="ads",
    prefix="ad",
    create=False,
    get=False,
    filters=("ad_group_id", "status", "policy_status"),
    delete=False,
    transitions={"pause": Transition("status", ("ENABLED",), "PAUSED", "pause the ad")},
)
keywords = service.resource(
    Keyword,
    name="keyword",
    plural="keywords",
    prefix="kw",
    create=("ad_group_id", "text", "match_type", "negative", "cpc_bid"),
    get=False,
    filters=("ad_group_id", "match_type", "negative", "status"),
    search=("text",),
    update=("cpc_bid", "status"),
    guard_create=_check_keyword,
    guard_update=_check_keyword,
)
stats = service.resource(
    CampaignStat,
    name="campaign_stat",
    plural="campaign_stats",
    prefix="st",
    create=False,
    get=False,
    filters=("campaign_id", "date"),
    delete=False,
    title="campaign day",
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    get=False,
    filters=("account_id", "billing_month", "invoice_number"),
    delete=False,
)


# -- examples ---------------------------------------------------------------------------------


def _example_ad(ctx: Ctx) -> dict[str, Any] | None:
    for group in ctx.where(AdGroup, status="ENABLED"):
        campaign = ctx.get(Campaign, group.campaign_id)
        if campaign.status != "REMOVED" and campaign.channel == "SEARCH":
            return {
                "ad_group_id": group.id,
                "headlines": ["Ergonomic office chairs", "Free delivery", "Order online today"],
                "descriptions": ["Comfortable chairs for long days.", "Delivered to your office within days."],
                "final_url": f"https://www.{ctx.population.home.domain}/chairs",
            }
    return None


def _example_performance(ctx: Ctx) -> dict[str, Any] | None:
    stat = ctx.first(CampaignStat)
    if stat is None:
        return None
    return {
        "campaign_id": stat.campaign_id,
        "start_date": str(stat.date - dt.timedelta(days=6)),
        "end_date": str(stat.date),
    }


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="create an ad campaign",
    write=True,
    example=first_example(
        Budget,
        "budget_id",
        where={"explicitly_shared": True},
        fields={"account_id": "account_id"},
        name="Search - Spring sale",
        channel="SEARCH",
    ),
)
def create_campaign(
    ctx: Ctx,
    account_id: AccountId,
    name: Title,
    channel: Channel,
    budget_id: BudgetId,
    bidding_strategy: Bidding = "MANUAL_CPC",
    target_cpa: Cents | None = None,
    start_date: Date | None = None,
    end_date: Date | None = None,
    final_url_suffix: str = "",
) -> Campaign:
    """Create a campaign, paused, in an account; enable it once it has ad groups, ads and keywords.

    The budget must be of the same account and, unless explicitly shared, not
    serve another campaign; names are unique per account.

    Args:
        account_id: The account.
        name: Campaign name, unique within the account.
        channel: SEARCH, DISPLAY or SHOPPING.
        budget_id: The daily budget it spends from.
        bidding_strategy: How bids are set.
        target_cpa: Target cost per conversion in cents; required with TARGET_CPA.
        start_date: First day it may serve, today or later (default: today).
        end_date: Last day it may serve (default: none).
        final_url_suffix: Tracking parameters appended to landing page URLs.
    """
    ctx.get(Account, account_id, field="account_id")
    ctx.get(Budget, budget_id, field="budget_id")
    campaign = ctx.create(
        Campaign,
        account_id=account_id,
        name=name,
        channel=channel,
        budget_id=budget_id,
        bidding_strategy=bidding_strategy,
        target_cpa=target_cpa,
        start_date=start_date or ctx.today(),
        end_date=end_date,
        final_url_suffix=final_url_suffix,
    )
    _check_campaign(ctx, campaign, None)
    return campaign


@service.tool(intent="create a responsive search ad", write=True, example=_example_ad)
def create_responsive_search_ad(
    ctx: Ctx,
    ad_group_id: AdGroupId,
    headlines: list[Headline],
    descriptions: list[Description],
    final_url: Url,
) -> Ad:
    """Create a responsive search ad in an ad group of a search campaign; it is reviewed against ad policy at once.

    Headlines with exclamation marks or words in capitals are disapproved;
    unsubstantiated claims ("guaranteed", "#1") limit where the ad serves.

    Args:
        ad_group_id: The ad group.
        headlines: 3 to 15 distinct headlines, at most 30 characters each.
        descriptions: 2 to 4 descriptions, at most 90 characters each.
        final_url: The landing page.
    """
    group = ctx.get(AdGroup, ad_group_id, field="ad_group_id")
    campaign = ctx.get(Campaign, group.campaign_id)
    if group.status == "REMOVED" or campaign.status == "REMOVED":
        raise RuleViolation(
            f"ad group {group.name} or its campaign is removed", field="ad_group_id", hint="use an active ad group"
        )
    if campaign.channel != "SEARCH":
        raise RuleViolation(
            f"responsive search ads run in search campaigns; {campaign.name} is {campaign.channel}",
            field="ad_group_id",
            hint="pick an ad group of a SEARCH campaign",
        )
    h, d = tuple(headlines), tuple(descriptions)
    _check_ad_text(h, d)
    status, topics = _policy(h, d)
    return ctx.create(
        Ad,
        ad_group_id=group.id,
        headlines=h,
        descriptions=d,
        final_url=final_url,
        policy_status=status,
        policy_topics=topics,
    )


def _serving_problems(ctx: Ctx, campaign: Campaign) -> list[str]:
    problems: list[str] = []
    acct = ctx.get(Account, campaign.account_id)
    if acct.status != "ENABLED":
        problems.append(f"account {acct.descriptive_name} is suspended")
    if campaign.end_date is not None and campaign.end_date < ctx.today():
        problems.append(f"its end date {campaign.end_date} has passed; set a later end_date")
    groups = [g for g in ctx.where(AdGroup, campaign_id=campaign.id) if g.status == "ENABLED"]
    ready = False
    for g in groups:
        has_ad = campaign.channel != "SEARCH" or any(
            a.status == "ENABLED" and a.policy_status != "DISAPPROVED" for a in ctx.where(Ad, ad_group_id=g.id)
        )
        has_kw = campaign.channel != "SEARCH" or any(
            k.status == "ENABLED" and not k.negative for k in ctx.where(Keyword, ad_group_id=g.id)
        )
        ready = ready or (has_ad and has_kw)
    if not ready:
        if campaign.channel == "SEARCH":
            problems.append("no enabled ad group has an approved enabled ad and an enabled keyword")
        else:
            problems.append("it has no enabled ad group")
    return problems


@service.tool(
    intent="enable the ad campaign so it serves",
    write=True,
    example=first_example(
        Campaign, "campaign_id", where={"status": "PAUSED"}, match=lambda ctx, c: not _serving_problems(ctx, c)
    ),
)
def enable_campaign(ctx: Ctx, campaign_id: CampaignId) -> Campaign:
    """Enable a paused campaign so that it serves.

    It needs an enabled account, an end date not yet passed, and an enabled ad
    group (search campaigns: with an enabled, non-disapproved ad and an enabled
    keyword); removed campaigns stay removed.

    Args:
        campaign_id: The paused campaign.
    """
    campaign = ctx.get(Campaign, campaign_id, field="campaign_id")
    if campaign.status != "PAUSED":
        raise RuleViolation(
            f"campaign {campaign.name} is {campaign.status}",
            field="campaign_id",
            hint="only paused campaigns can be enabled; removed campaigns are final",
        )
    problems = _serving_problems(ctx, campaign)
    if problems:
        raise RuleViolation(
            f"campaign {campaign.name} cannot serve: {'; '.join(problems)}",
            field="campaign_id",
            hint="add an ad group with an approved ad and keywords (or fix the listed problems), then enable",
        )
    return ctx.update(campaign, status="ENABLED")


class Performance(BaseModel):
    """A campaign's delivery over a period."""

    campaign_id: CampaignId = Field(description="The campaign.")
    start_date: Date = Field(description="First day.")
    end_date: Date = Field(description="Last day.")
    currency: Currency = Field(description="Currency of the money figures.")
    impressions: Quantity = Field(description="Impressions.")
    clicks: Quantity = Field(description="Clicks.")
    cost: Cents = Field(description="Spend in cents.")
    conversions: Quantity = Field(description="Conversions.")
    conversion_value: Cents = Field(description="Conversion value in cents.")
    ctr: Percent = Field(description="Click-through rate: clicks per impression, in percent.")
    average_cpc: Cents = Field(description="Cost per click in cents (0 without clicks).")
    cost_per_conversion: Cents = Field(description="Cost per conversion in cents (0 without conversions).")
    roas: float = Field(description="Return on ad spend: conversion value divided by cost (0 without cost).")
    budget_utilization: Percent = Field(
        description="Spend as a share of the daily budget times the days in the period, in percent (capped at 100)."
    )


@service.tool(intent="report the campaign's performance over the period", example=_example_performance)
def campaign_performance(ctx: Ctx, campaign_id: CampaignId, start_date: Date, end_date: Date) -> Performance:
    """Sum a campaign's daily metrics over a period and compute CTR, CPC, cost per conversion and ROAS.

    Args:
        campaign_id: The campaign.
        start_date: First day of the period.
        end_date: Last day of the period (at most 92 days after the first).
    """
    campaign = ctx.get(Campaign, campaign_id, field="campaign_id")
    if end_date < start_date:
        raise RuleViolation("the period ends before it starts", field="end_date", hint="swap the dates")
    days = (end_date - start_date).days + 1
    if days > 92:
        raise RuleViolation("a report covers at most 92 days", field="end_date", hint="ask for a shorter period")
    rows = [s for s in ctx.where(CampaignStat, campaign_id=campaign.id) if start_date <= s.date <= end_date]
    imp = sum(r.impressions for r in rows)
    clicks = sum(r.clicks for r in rows)
    cost = sum(r.cost for r in rows)
    conv = sum(r.conversions for r in rows)
    value = sum(r.conversion_value for r in rows)
    budget = ctx.get(Budget, campaign.budget_id)
    acct = ctx.get(Account, campaign.account_id)
    return Performance(
        campaign_id=campaign.id,
        start_date=start_date,
        end_date=end_date,
        currency=acct.currency_code,
        impressions=imp,
        clicks=clicks,
        cost=cost,
        conversions=conv,
        conversion_value=value,
        ctr=round(100 * clicks / imp, 2) if imp else 0.0,
        average_cpc=round(cost / clicks) if clicks else 0,
        cost_per_conversion=round(cost / conv) if conv else 0,
        roas=round(value / cost, 2) if cost else 0.0,
        budget_utilization=min(100.0, round(100 * cost / (budget.amount * days), 2)),
    )


class KeywordIdea(BaseModel):
    """A keyword suggestion with its search volume and competition."""

    text: str = Field(description="The suggested keyword.")
    avg_monthly_searches: int = Field(description="Average monthly searches over the last 12 months.")
    competition: Literal["LOW", "MEDIUM", "HIGH"] = Field(description="How many advertisers bid on it.")
    low_top_of_page_bid: Cents = Field(description="Low range of the top-of-page bid, in cents.")
    high_top_of_page_bid: Cents = Field(description="High range of the top-of-page bid, in cents.")


class KeywordIdeas(BaseModel):
    """Keyword ideas for seed words."""

    seed: list[str] = Field(description="The seed keywords.")
    currency: Currency = Field(description="Currency of the bid ranges.")
    ideas: list[KeywordIdea] = Field(description="Ideas, most searched first.")


MODIFIERS = ("buy", "best", "cheap", "{} online", "{} near me", "{} reviews", "{} sale", "{} for office")


@service.tool(intent="get keyword ideas for the seed words", open_world=True)
def generate_keyword_ideas(
    ctx: Ctx,
    seed_keywords: Annotated[list[KeywordText], Field(min_length=1, max_length=10)],
    currency: Currency = "USD",
    language: Annotated[str, StringConstraints(pattern=r"^[a-z]{2}$")] = "en",
) -> KeywordIdeas:
    """Suggest keywords related to seed words, with search volumes and top-of-page bid ranges.

    Args:
        seed_keywords: 1 to 10 seed keywords or phrases.
        currency: Currency of the bid ranges.
        language: ISO 639-1 code of the searches' language.
    """
    seen: dict[str, KeywordIdea] = {}
    for seed in seed_keywords:
        for mod in MODIFIERS:
            text = mod.format(seed) if "{}" in mod else f"{mod} {seed}"
            if text in seen or len(text) > 80:
                continue
            digest = int(hashlib.sha256(f"{ctx.population.seed}:{language}:{text}".encode()).hexdigest(), 16)
            volume = (10, 50, 110, 260, 480, 880, 1600, 2900, 5400, 9900)[digest % 10]
            low = 20 + digest % 180
            seen[text] = KeywordIdea(
                text=text,
                avg_monthly_searches=volume,
                competition=("LOW", "MEDIUM", "HIGH")[(digest >> 8) % 3],
                low_top_of_page_bid=low,
                high_top_of_page_bid=low * (2 + (digest >> 16) % 3),
            )
    ideas = sorted(seen.values(), key=lambda i: (-i.avg_monthly_searches, i.text))
    return KeywordIdeas(seed=list(seed_keywords), currency=currency, ideas=ideas[:25])


# -- seed -------------------------------------------------------------------------------------

HEADLINES = ("{name}", "Shop {category} online", "Free delivery over 50", "Order today", "Trusted by teams")
DESCRIPTIONS = (
    "Quality {category} products from {company}, delivered fast.",
    "Compare models, read reviews and order online in minutes.",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two ad accounts of the home company with budgets, campaigns in every status, ads, keywords, spend, invoices."""
    accts = _seed_accounts(s)
    _seed_campaigns(s, accts)
    _seed_invoices(s, accts)


def _seed_accounts(s: SeedContext) -> list[Account]:
    pop = s.population
    home = pop.home
    marketing = pop.staff("Marketing")
    finance = pop.staff("Finance")
    cur = home.place.currency
    return [
        s.create(
            Account,
            descriptive_name=home.name,
            currency_code=cur,
            time_zone=home.place.timezone,
            manager_email=marketing[0].email,
            billing_email=finance[0].email,
        ),
        s.create(
            Account,
            descriptive_name=f"{home.name} Outlet",
            currency_code=cur,
            time_zone=home.place.timezone,
            manager_email=marketing[-1].email,
            billing_email=finance[0].email,
            status="ENABLED",
        ),
    ]


PLANS: tuple[tuple[int, Channel, Status, Bidding], ...] = (
    (0, "SEARCH", "ENABLED", "MANUAL_CPC"),
    (0, "SEARCH", "ENABLED", "MAXIMIZE_CLICKS"),
    (0, "SHOPPING", "ENABLED", "MANUAL_CPC"),
    (0, "DISPLAY", "PAUSED", "MAXIMIZE_CONVERSIONS"),
    (0, "SEARCH", "PAUSED", "MANUAL_CPC"),
    (1, "SEARCH", "ENABLED", "TARGET_CPA"),
    (1, "SHOPPING", "PAUSED", "MANUAL_CPC"),
    (1, "SEARCH", "REMOVED", "MANUAL_CPC"),
)
"""The seeded campaigns: account index, channel, status and bidding."""


def _seed_campaigns(s: SeedContext, accts: list[Account]) -> None:
    """The planned campaigns, each with its budget, ad groups and daily stats, drawn in that order."""
    rng = s.rng
    today = s.now.date()
    shared = s.create(Budget, account_id=accts[0].id, name="Shared brand budget", amount=150_00, explicitly_shared=True)
    categories = sorted({p.category for p in s.population.products})
    for n, (a, channel, status, bidding) in enumerate(PLANS):
        acct = accts[a]
        category = categories[n % len(categories)]
        if n in (0, 1):
            budget = shared
        else:
            budget = s.create(
                Budget,
                account_id=acct.id,
                name=f"{channel.title()} {category} daily",
                amount=rng.choice((40, 60, 80, 120, 200)) * 100,
                delivery_method="ACCELERATED" if n == 5 else "STANDARD",
            )
        start = today - dt.timedelta(days=rng.randint(20, 120))
        campaign = s.create(
            Campaign,
            account_id=acct.id,
            name=f"{channel.title()} - {category.title()}" + (" - Brand" if n == 1 else ""),
            channel=channel,
            status=status,
            budget_id=budget.id,
            bidding_strategy=bidding,
            target_cpa=25_00 if bidding == "TARGET_CPA" else None,
            start_date=start,
            end_date=today - dt.timedelta(days=3) if n == 4 else None,
            final_url_suffix="utm_source=reachpoint&utm_medium=cpc",
            created_at=s.now - dt.timedelta(days=(today - start).days + 2),
        )
        _seed_ad_groups(s, campaign, n, category)
        if status != "REMOVED":
            _seed_stats(s, campaign, budget)


def _seed_ad_groups(s: SeedContext, campaign: Campaign, n: int, category: str) -> None:
    """Two ad groups of the ``n``-th campaign; in search campaigns with ads and keywords."""
    home = s.population.home
    products = [p for p in s.population.products if p.category == category][:3]
    for g, product in enumerate(products[:2]):
        group = s.create(
            AdGroup,
            campaign_id=campaign.id,
            name=product.name,
            status="PAUSED" if g == 1 and n % 3 == 0 else "ENABLED",
            cpc_bid=s.rng.choice((45, 60, 85, 120, 150)) if campaign.bidding_strategy == "MANUAL_CPC" else None,
            promoted_sku=product.sku if campaign.channel == "SHOPPING" else None,
        )
        if campaign.channel != "SEARCH":
            continue
        url = f"https://www.{home.domain}/products/{product.sku.lower()}"
        heads = tuple(h.format(name=product.name, category=category)[:30] for h in HEADLINES)
        descs = tuple(d.format(category=category, company=home.name)[:90] for d in DESCRIPTIONS)
        s.create(Ad, ad_group_id=group.id, headlines=heads, descriptions=descs, final_url=url)
        if g == 0 and n == 4:
            bad = ("BEST PRICES EVER", "Buy now!", product.name[:30])
            s.create(
                Ad,
                ad_group_id=group.id,
                headlines=bad,
                descriptions=descs,
                final_url=url,
                policy_status="DISAPPROVED",
                policy_topics=("PUNCTUATION_IN_HEADLINE", "EXCESSIVE_CAPITALIZATION"),
            )
        words = product.name.lower().split()
        texts = (words[-1], " ".join(words), f"{words[-1]} {category}", f"buy {words[-1]}")
        for k, text in enumerate(texts):
            if n == 4 and g == 0:
                break  # the paused campaign's first group has no keywords yet
            s.create(
                Keyword,
                ad_group_id=group.id,
                text=text,
                match_type=("BROAD", "EXACT", "PHRASE", "PHRASE")[k],
                cpc_bid=None if k else 95,
            )
        s.create(Keyword, ad_group_id=group.id, text="free", match_type="BROAD", negative=True)


def _seed_stats(s: SeedContext, campaign: Campaign, budget: Budget) -> None:
    """Up to four weeks of the campaign's daily metrics, none for the last week of a paused one."""
    rng = s.rng
    today = s.now.date()
    serving_days = min(28, (today - campaign.start_date).days + 1)
    for d in range(serving_days):
        day = today - dt.timedelta(days=d)
        if campaign.status == "PAUSED" and d < 7:
            continue  # paused a week ago
        imp = rng.randint(300, 4000)
        clicks = imp * rng.randint(1, 7) // 100
        cost = min(budget.amount, clicks * rng.randint(30, 140))
        if d == 0:
            cost = min(cost, budget.amount // 2)  # half a day so far
        conv = clicks * rng.randint(0, 12) // 100
        s.create(
            CampaignStat,
            campaign_id=campaign.id,
            date=day,
            impressions=imp,
            clicks=clicks,
            cost=cost,
            conversions=conv,
            conversion_value=conv * rng.randint(30, 180) * 100,
        )


def _seed_invoices(s: SeedContext, accts: list[Account]) -> None:
    """Invoices of the last three months for each account."""
    today = s.now.date()
    k = 0
    for acct in accts:
        for months_back in (3, 2, 1):
            billed = add_months(today.replace(day=1), -months_back)
            year, month = billed.year, billed.month
            k += 1
            subtotal = s.rng.randint(800, 4000) * 100
            tax = subtotal * 19 // 100
            issued = dt.date(year, month, 28) + dt.timedelta(days=5)
            s.create(
                Invoice,
                account_id=acct.id,
                invoice_number=f"RP-{year}{month:02d}-{k:04d}",
                billing_month=f"{year}-{month:02d}",
                issue_date=issued,
                due_date=issued + dt.timedelta(days=30),
                subtotal=subtotal,
                tax=tax,
                total=subtotal + tax,
                currency=acct.currency_code,
                billing_email=acct.billing_email,
            )
