"""Tidewater Ads: social advertising with ad accounts, campaigns, ad sets, creatives, ads and audiences.

Modeled on the Meta Marketing API (Graph API v21): AdAccount with a
``spend_cap`` and ``amount_spent`` (no campaign can be switched on once the cap
is reached, and the cap cannot drop below what was spent), Campaign with an
``objective`` (OUTCOME_AWARENESS, OUTCOME_TRAFFIC, OUTCOME_ENGAGEMENT,
OUTCOME_LEADS, OUTCOME_SALES, OUTCOME_APP_PROMOTION), ``special_ad_categories``
and an optional campaign budget (Advantage campaign budget: its ad sets then take
no budget of their own), AdSet with a daily or a lifetime budget (lifetime
needs an end time), a schedule and targeting (countries, ages 18-65, custom
audiences; special ad categories forbid narrowing age and lookalikes), AdCreative
(page post copy, link, call to action), Ad whose review goes PENDING_REVIEW →
APPROVED or DISAPPROVED with feedback and can be re-reviewed after the creative
changes, CustomAudience (customer-list and lookalike subtypes; a list must
match at least 100 people to be targeted) and Insights (impressions, reach,
clicks, spend, conversions by day).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    Quantity,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "socialads",
    title="Tidewater Ads",
    category="social_advertising",
    modeled_on="Meta Marketing API v21 (AdAccount, Campaign, AdSet, AdCreative, Ad with ad review, "
    "CustomAudience with users and lookalikes, Insights)",
    description="Paid social advertising on Facebook and Instagram for the home company: ad accounts with "
    "spend caps, campaigns with objectives, ad sets with budgets, schedules and targeting, creatives and "
    "ads that pass ad review, customer-list and lookalike audiences, and daily performance insights.",
)

AccountId = Annotated[str, IdOf("socialads.ad_account")]
CampaignId = Annotated[str, IdOf("socialads.campaign")]
AdSetId = Annotated[str, IdOf("socialads.ad_set")]
CreativeId = Annotated[str, IdOf("socialads.creative")]
AdId = Annotated[str, IdOf("socialads.ad")]
AudienceId = Annotated[str, IdOf("socialads.custom_audience")]

Objective = Literal[
    "OUTCOME_AWARENESS",
    "OUTCOME_TRAFFIC",
    "OUTCOME_ENGAGEMENT",
    "OUTCOME_LEADS",
    "OUTCOME_SALES",
    "OUTCOME_APP_PROMOTION",
]
SpecialCategory = Literal["HOUSING", "EMPLOYMENT", "CREDIT", "ISSUES_ELECTIONS_POLITICS"]
Status = Literal["ACTIVE", "PAUSED", "ARCHIVED"]
AccountStatus = Literal["ACTIVE", "DISABLED", "UNSETTLED", "CLOSED"]
Review = Literal["PENDING_REVIEW", "APPROVED", "DISAPPROVED"]
CallToAction = Literal["SHOP_NOW", "LEARN_MORE", "SIGN_UP", "BOOK_NOW", "CONTACT_US", "DOWNLOAD", "GET_OFFER"]
OptimizationGoal = Literal["REACH", "IMPRESSIONS", "LINK_CLICKS", "LEAD_GENERATION", "OFFSITE_CONVERSIONS"]
AudienceSubtype = Literal["CUSTOM", "LOOKALIKE"]
Age = Annotated[int, Field(ge=13, le=65)]
Budget = Annotated[int, Field(ge=100, le=10**10)]

MIN_AUDIENCE = 100
PROHIBITED = ("guaranteed", "miracle", "cure", "lose weight fast", "get rich")


class AdAccount(Timestamped):
    """An ad account that pays for ads, with its spend cap."""

    id: AccountId
    name: Title
    """The account's name."""
    business_name: CompanyName
    """The business that owns it."""
    currency: Currency
    """Currency of budgets and spend."""
    account_status: AccountStatus = "ACTIVE"
    """ACTIVE, DISABLED, UNSETTLED (payment failed) or CLOSED."""
    spend_cap_cents: Cents | None = None
    """The most the account may ever spend; none: no cap."""
    amount_spent_cents: Cents = 0
    """Spent so far."""
    billing_email: Email
    """Who receives the invoices."""


class Campaign(Timestamped):
    """A campaign with one objective, optionally holding the budget of its ad sets."""

    id: CampaignId
    account_id: AccountId
    """The ad account."""
    name: Title
    """The campaign's name."""
    objective: Objective
    """What the campaign optimises for."""
    special_ad_categories: tuple[SpecialCategory, ...] = ()
    """Declared special categories (housing, employment, credit, politics) that restrict targeting."""
    daily_budget_cents: Budget | None = None
    """Campaign budget (Advantage campaign budget); its ad sets then have none."""
    status: Status = "PAUSED"
    """ACTIVE, PAUSED or ARCHIVED."""


class Targeting(Value):
    """Who an ad set reaches."""

    countries: tuple[Country, ...]
    """Countries (at least one)."""
    age_min: Age = 18
    """Youngest age, 13-65 (18 for special ad categories)."""
    age_max: Age = 65
    """Oldest age, up to 65 (65+)."""
    custom_audience_ids: tuple[AudienceId, ...] = ()
    """Custom audiences to include."""


class AdSet(Timestamped):
    """An ad set: budget, schedule, targeting and optimization of some ads."""

    id: AdSetId
    campaign_id: CampaignId
    """The campaign."""
    name: Title
    """The ad set's name."""
    daily_budget_cents: Budget | None = None
    """Daily budget (or lifetime, not both)."""
    lifetime_budget_cents: Budget | None = None
    """Budget over the whole schedule; needs an end time."""
    start_time: DateTime
    """When it starts delivering."""
    end_time: DateTime | None = None
    """When it stops."""
    optimization_goal: OptimizationGoal = "LINK_CLICKS"
    """What delivery optimises for."""
    targeting: Targeting
    """Who it reaches."""
    status: Status = "PAUSED"
    """ACTIVE, PAUSED or ARCHIVED."""


class Creative(Timestamped):
    """An ad creative: the page post copy, link and call to action."""

    id: CreativeId
    account_id: AccountId
    """The ad account."""
    name: Title
    """The creative's name."""
    page_name: CompanyName
    """The Facebook page the ad runs as."""
    message: Annotated[str, StringConstraints(min_length=1, max_length=2200)]
    """Primary text."""
    headline: Annotated[str, StringConstraints(min_length=1, max_length=255)]
    """Headline under the image."""
    link_url: Url
    """Where a click goes."""
    call_to_action: CallToAction = "LEARN_MORE"
    """The button."""


class Ad(Timestamped):
    """An ad: a creative delivered in an ad set, after ad review."""

    id: AdId
    adset_id: AdSetId
    """The ad set."""
    campaign_id: CampaignId
    """The campaign (of the ad set)."""
    creative_id: CreativeId
    """The creative."""
    name: Title
    """The ad's name."""
    status: Status = "ACTIVE"
    """Configured status: ACTIVE, PAUSED or ARCHIVED."""
    review_status: Review = "PENDING_REVIEW"
    """PENDING_REVIEW, APPROVED or DISAPPROVED."""
    review_feedback: Text = ""
    """Why it was disapproved."""


class CustomAudience(Timestamped):
    """A customer-list audience, or a lookalike of one."""

    id: AudienceId
    account_id: AccountId
    """The ad account."""
    name: Title
    """The audience's name."""
    subtype: AudienceSubtype = "CUSTOM"
    """CUSTOM (a customer list) or LOOKALIKE."""
    description: Text = ""
    """What it holds."""
    approximate_count: Quantity = 0
    """Matched people."""
    uploaded_count: Quantity = 0
    """Identifiers uploaded (matched or not)."""
    origin_audience_id: AudienceId | None = None
    """The seed audience of a lookalike."""
    lookalike_country: Country | None = None
    """The country a lookalike covers."""
    lookalike_ratio: Annotated[int, Field(ge=1, le=10)] | None = None
    """Top percent of that country's population most like the seed (1-10)."""


class InsightDay(Record):
    """One ad's delivery on one day."""

    id: Annotated[str, IdOf("socialads.insight")]
    ad_id: AdId
    """The ad."""
    adset_id: AdSetId
    """Its ad set."""
    campaign_id: CampaignId
    """Its campaign."""
    date: Date
    """The day."""
    impressions: Quantity
    """Times shown."""
    reach: Quantity
    """People reached."""
    clicks: Quantity
    """Link clicks."""
    spend_cents: Cents
    """Amount spent."""
    conversions: Quantity = 0
    """Conversions (purchases, leads)."""


class Insights(Value):
    """Delivery totals of a campaign, ad set or ad over a date range."""

    object_id: str
    """The campaign, ad set or ad."""
    impressions: Quantity
    """Times shown."""
    reach: Quantity
    """Summed daily reach."""
    clicks: Quantity
    """Link clicks."""
    spend_cents: Cents
    """Amount spent."""
    conversions: Quantity
    """Conversions."""
    ctr: float
    """Clicks per impression, in percent."""
    cpc_cents: int
    """Spend per click (0 without clicks)."""


# -- rules ------------------------------------------------------------------------------------


def _check_targeting(ctx: Ctx, t: Targeting, campaign: Campaign) -> None:
    if not t.countries:
        raise RuleViolation("targeting needs a country", field="countries", hint="list at least one country code")
    if t.age_min > t.age_max:
        raise RuleViolation("age_min is above age_max", field="age_min", hint="swap or widen the ages")
    if campaign.special_ad_categories and (t.age_min != 18 or t.age_max != 65):
        raise RuleViolation(
            f"special ad category {campaign.special_ad_categories[0]} campaigns target ages 18-65",
            field="age_min",
            hint="use age_min 18 and age_max 65",
        )
    for aid in t.custom_audience_ids:
        aud = ctx.get(CustomAudience, aid, field="custom_audience_ids")
        if aud.account_id != campaign.account_id:
            raise RuleViolation(
                f"audience {aid} belongs to another account", field="custom_audience_ids", hint="use its own"
            )
        if aud.subtype == "LOOKALIKE" and campaign.special_ad_categories:
            raise RuleViolation(
                "special ad categories cannot target lookalike audiences",
                field="custom_audience_ids",
                hint="drop the lookalike",
            )
        if aud.approximate_count < MIN_AUDIENCE:
            raise RuleViolation(
                f"audience {aud.name!r} matches {aud.approximate_count} people, below {MIN_AUDIENCE}",
                field="custom_audience_ids",
                hint="add more users with socialads__add_audience_users",
            )


def _check_budget(campaign: Campaign, daily: int | None, lifetime: int | None, end: dt.datetime | None) -> None:
    if campaign.daily_budget_cents is not None:
        if daily is not None or lifetime is not None:
            raise RuleViolation(
                f"campaign {campaign.name!r} holds the budget (Advantage campaign budget)",
                field="daily_budget_cents",
                hint="leave the ad set's budgets empty",
            )
        return
    if (daily is None) == (lifetime is None):
        raise RuleViolation(
            "an ad set needs exactly one of daily_budget_cents and lifetime_budget_cents",
            field="daily_budget_cents",
            hint="give a daily budget or a lifetime budget",
        )
    if lifetime is not None and end is None:
        raise RuleViolation("a lifetime budget needs an end_time", field="end_time", hint="set when the ad set ends")


def _guard_account(ctx: Ctx, new: Any, old: Any) -> None:
    if new.spend_cap_cents is not None and new.spend_cap_cents < new.amount_spent_cents:
        raise RuleViolation(
            f"the spend cap cannot be below the {new.amount_spent_cents} already spent",
            field="spend_cap_cents",
            hint=f"set at least {new.amount_spent_cents}, or remove the cap",
        )


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    account = ctx.get(AdAccount, new.account_id, field="account_id")
    if old is None and account.account_status != "ACTIVE":
        raise RuleViolation(
            f"ad account {account.id} is {account.account_status}", field="account_id", hint="settle the account first"
        )
    waking = new.status == "ACTIVE" and (old is None or old.status != "ACTIVE")
    if waking and (
        account.account_status != "ACTIVE" or account.amount_spent_cents >= (account.spend_cap_cents or 10**13)
    ):
        raise RuleViolation(
            f"ad account {account.name!r} has reached its spend cap or is {account.account_status}",
            field="campaign_id" if old is not None else "account_id",
            hint="raise the cap with socialads__set_spend_cap",
        )
    to_cbo = old is not None and old.daily_budget_cents is None and new.daily_budget_cents is not None
    if to_cbo and ctx.where(AdSet, campaign_id=new.id):
        raise RuleViolation(
            "the campaign's ad sets hold their own budgets",
            field="daily_budget_cents",
            hint="set budgets on the ad sets instead",
        )


def _guard_adset(ctx: Ctx, new: Any, old: Any) -> None:
    campaign = ctx.get(Campaign, new.campaign_id, field="campaign_id")
    _check_budget(campaign, new.daily_budget_cents, new.lifetime_budget_cents, new.end_time)
    if new.end_time is not None and new.end_time <= new.start_time:
        raise RuleViolation("end_time must be after start_time", field="end_time", hint="pick a later end")


def _guard_ad(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "ACTIVE" and old is not None and old.status != "ACTIVE" and new.review_status == "DISAPPROVED":
        raise RuleViolation(
            f"ad {new.id} was disapproved: {new.review_feedback}",
            field="ad_id",
            hint="change its creative and request a review with socialads__request_ad_review",
        )


def _guard_audience_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for s in ctx.scan(AdSet):
        if s.status == "ACTIVE" and old.id in s.targeting.custom_audience_ids:
            raise Conflict(
                f"active ad set {s.id} targets audience {old.id}", field="custom_audience_id", hint="pause it first"
            )
    for a in ctx.where(CustomAudience, origin_audience_id=old.id):
        raise Conflict(
            f"lookalike {a.id} is based on it", field="custom_audience_id", hint="delete the lookalike first"
        )


accounts = service.resource(
    AdAccount,
    name="ad_account",
    plural="ad_accounts",
    prefix="act",
    create=False,
    filters=("account_status", "currency", "billing_email"),
    search=("name", "business_name"),
    delete=False,
    title="ad account",
)
_TOGGLE = {
    "pause": Transition("status", ("ACTIVE",), "PAUSED", "pause {}"),
    "activate": Transition("status", ("PAUSED",), "ACTIVE", "switch {} on"),
    "archive": Transition("status", ("ACTIVE", "PAUSED"), "ARCHIVED", "archive {}", destructive=True),
}


def _toggles(noun: str, *verbs: str) -> dict[str, Transition]:
    return {
        v: Transition(t.field, t.source, t.target, t.intent.format(noun), destructive=t.destructive)
        for v, t in _TOGGLE.items()
        if v in verbs
    }


campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=("account_id", "name", "objective", "special_ad_categories", "daily_budget_cents"),
    filters=("account_id", "objective", "status"),
    search=("name",),
    update=("name", "daily_budget_cents"),
    delete=False,
    transitions=_toggles("the campaign", "pause", "activate", "archive"),
    guard_create=_guard_campaign,
    guard_update=_guard_campaign,
)
adsets = service.resource(
    AdSet,
    name="ad_set",
    plural="ad_sets",
    prefix="adset",
    create=False,
    filters=("campaign_id", "status", "optimization_goal"),
    search=("name",),
    update=("name", "daily_budget_cents", "lifetime_budget_cents", "end_time"),
    delete=False,
    transitions=_toggles("the ad set", "pause", "activate"),
    guard_update=_guard_adset,
    title="ad set",
)
creatives = service.resource(
    Creative,
    name="creative",
    plural="creatives",
    prefix="cr",
    create=("account_id", "name", "page_name", "message", "headline", "link_url", "call_to_action"),
    filters=("account_id", "call_to_action"),
    search=("name", "headline", "message"),
    delete=False,
)
ads = service.resource(
    Ad,
    name="ad",
    plural="ads",
    prefix="ad",
    create=False,
    filters=("adset_id", "campaign_id", "creative_id", "status", "review_status"),
    search=("name",),
    update=("name",),
    delete=False,
    transitions=_toggles("the ad", "pause", "activate"),
    guard_update=_guard_ad,
)
audiences = service.resource(
    CustomAudience,
    name="custom_audience",
    plural="custom_audiences",
    prefix="aud",
    create=("account_id", "name", "description"),
    filters=("account_id", "subtype"),
    search=("name", "description"),
    guard_delete=_guard_audience_delete,
    title="custom audience",
)
insights = service.resource(
    InsightDay, name="insight", plural="insights", prefix="ins", create=False, get=False, filters=None, delete=False
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="set the ad account's spend cap",
    write=True,
    example=first_example(AdAccount, "account_id", where={"account_status": "ACTIVE"}, spend_cap_cents=50_000_000),
)
def set_spend_cap(ctx: Ctx, account_id: AccountId, spend_cap_cents: Cents | None) -> AdAccount:
    """Set or remove an account's spend cap; it cannot drop below what was already spent.

    Args:
        account_id: The ad account.
        spend_cap_cents: The new cap in cents; null removes it.
    """
    account = ctx.get(AdAccount, account_id, field="account_id")
    updated = ctx.update(account, spend_cap_cents=spend_cap_cents)
    _guard_account(ctx, updated, account)
    return updated


def _example_adset(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Campaign, status="PAUSED", daily_budget_cents=None)
    if c is None or c.special_ad_categories:
        return None
    return {
        "campaign_id": c.id,
        "name": "Retargeting - site visitors",
        "daily_budget_cents": 2500,
        "start_time": (ctx.now() + dt.timedelta(days=1)).isoformat(),
        "countries": ["US", "CA"],
        "age_min": 25,
        "age_max": 54,
    }


@service.tool(intent="create the ad set", write=True, example=_example_adset)
def create_ad_set(
    ctx: Ctx,
    campaign_id: CampaignId,
    name: Title,
    countries: list[Country],
    start_time: DateTime,
    age_min: Age = 18,
    age_max: Age = 65,
    custom_audience_ids: list[AudienceId] | None = None,
    daily_budget_cents: Budget | None = None,
    lifetime_budget_cents: Budget | None = None,
    end_time: DateTime | None = None,
    optimization_goal: OptimizationGoal = "LINK_CLICKS",
) -> AdSet:
    """Create a paused ad set in a campaign, with its budget, schedule and targeting.

    Args:
        campaign_id: The campaign (not archived).
        name: The ad set's name.
        countries: Countries to target (at least one).
        start_time: When it starts delivering.
        age_min: Youngest age (13-65; special ad categories: 18).
        age_max: Oldest age (65 means 65+; special ad categories: 65).
        custom_audience_ids: Audiences to include, each matched by at least 100 people.
        daily_budget_cents: Daily budget, at least 100 (not with a campaign budget).
        lifetime_budget_cents: Budget over the schedule instead; needs end_time.
        end_time: When it stops.
        optimization_goal: REACH, IMPRESSIONS, LINK_CLICKS, LEAD_GENERATION or OFFSITE_CONVERSIONS.
    """
    campaign = ctx.get(Campaign, campaign_id, field="campaign_id")
    if campaign.status == "ARCHIVED":
        raise RuleViolation(f"campaign {campaign.name!r} is archived", field="campaign_id", hint="use a live campaign")
    targeting = Targeting(
        countries=tuple(countries),
        age_min=age_min,
        age_max=age_max,
        custom_audience_ids=tuple(custom_audience_ids or ()),
    )
    _check_targeting(ctx, targeting, campaign)
    adset = ctx.create(
        AdSet,
        campaign_id=campaign.id,
        name=name,
        targeting=targeting,
        start_time=start_time,
        daily_budget_cents=daily_budget_cents,
        lifetime_budget_cents=lifetime_budget_cents,
        end_time=end_time,
        optimization_goal=optimization_goal,
    )
    _guard_adset(ctx, adset, None)
    return adset


def _review(ctx: Ctx, ad: Ad, creative: Creative) -> Ad:
    text = f"{creative.message} {creative.headline}".lower()
    bad = next((w for w in PROHIBITED if w in text), None)
    if bad is not None:
        return ctx.update(
            ad,
            creative_id=creative.id,
            review_status="DISAPPROVED",
            review_feedback=f"Unrealistic or misleading claim ({bad!r}) under the Advertising Standards.",
        )
    return ctx.update(ad, creative_id=creative.id, review_status="APPROVED", review_feedback="")


def _example_ad(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(AdSet, status="ACTIVE")
    if s is None:
        return None
    c = ctx.get(Campaign, s.campaign_id)
    cr = ctx.first(Creative, account_id=c.account_id)
    return None if cr is None else {"adset_id": s.id, "creative_id": cr.id, "name": "Variant B"}


@service.tool(intent="create the ad", write=True, example=_example_ad)
def create_ad(ctx: Ctx, adset_id: AdSetId, creative_id: CreativeId, name: Title, status: Status = "ACTIVE") -> Ad:
    """Create an ad from a creative in an ad set; it goes through ad review at once.

    Args:
        adset_id: The ad set (not archived).
        creative_id: The creative (of the same ad account).
        name: The ad's name.
        status: ACTIVE (deliver once approved) or PAUSED.
    """
    adset = ctx.get(AdSet, adset_id, field="adset_id")
    campaign = ctx.get(Campaign, adset.campaign_id)
    creative = ctx.get(Creative, creative_id, field="creative_id")
    if creative.account_id != campaign.account_id:
        raise RuleViolation("the creative belongs to another ad account", field="creative_id", hint="use its own")
    if adset.status == "ARCHIVED" or status == "ARCHIVED":
        raise RuleViolation("ads are not created archived", field="status", hint="use ACTIVE or PAUSED")
    ad = ctx.create(Ad, adset_id=adset.id, campaign_id=campaign.id, creative_id=creative.id, name=name, status=status)
    return _review(ctx, ad, creative)


@service.tool(
    intent="request a new review of the ad",
    write=True,
    example=first_example(Ad, "ad_id", where={"review_status": "DISAPPROVED"}, fields={"creative_id": "creative_id"}),
)
def request_ad_review(ctx: Ctx, ad_id: AdId, creative_id: CreativeId) -> Ad:
    """Swap a disapproved ad's creative and have it reviewed again.

    Args:
        ad_id: The disapproved ad.
        creative_id: The (edited) creative to review.
    """
    ad = ctx.get(Ad, ad_id, field="ad_id")
    if ad.review_status != "DISAPPROVED":
        raise RuleViolation(
            f"ad {ad.id} is {ad.review_status}", field="ad_id", hint="only disapproved ads are re-reviewed"
        )
    creative = ctx.get(Creative, creative_id, field="creative_id")
    return _review(ctx, ad, creative)


@service.tool(
    intent="add users to the custom audience",
    write=True,
    example=first_example(CustomAudience, "custom_audience_id", where={"subtype": "CUSTOM"}, emails=["x@inbox.io"]),
)
def add_audience_users(ctx: Ctx, custom_audience_id: AudienceId, emails: list[Email]) -> CustomAudience:
    """Upload customer e-mails (hashed before upload) to a customer-list audience; matches raise its size.

    Args:
        custom_audience_id: A CUSTOM audience.
        emails: 1-10000 e-mail addresses; people with an account on the network match.
    """
    aud = ctx.get(CustomAudience, custom_audience_id, field="custom_audience_id")
    if aud.subtype != "CUSTOM":
        raise RuleViolation(
            "users are only added to customer-list audiences", field="custom_audience_id", hint="pick a CUSTOM one"
        )
    unique = {e.lower() for e in emails}
    if not unique or len(unique) > 10000:
        raise RuleViolation("give 1-10000 e-mails", field="emails", hint="split the upload into batches")
    known = {p.email.lower() for p in ctx.population.people}
    matched = len(unique & known)
    return ctx.update(
        aud, approximate_count=aud.approximate_count + matched, uploaded_count=aud.uploaded_count + len(unique)
    )


@service.tool(
    intent="create a lookalike audience",
    write=True,
    example=first_example(
        CustomAudience,
        "origin_audience_id",
        where={"subtype": "CUSTOM"},
        match=lambda ctx, a: a.approximate_count >= MIN_AUDIENCE,
        name="Lookalike (US, 1%)",
        country="US",
        ratio=1,
    ),
)
def create_lookalike_audience(
    ctx: Ctx, origin_audience_id: AudienceId, name: Title, country: Country, ratio: Annotated[int, Field(ge=1, le=10)]
) -> CustomAudience:
    """Create a lookalike of a customer-list audience: the top ratio percent of a country most like it.

    Args:
        origin_audience_id: The seed audience (CUSTOM, at least 100 matched people).
        name: The lookalike's name.
        country: The country it covers.
        ratio: 1-10 percent of the country's population.
    """
    seed = ctx.get(CustomAudience, origin_audience_id, field="origin_audience_id")
    if seed.subtype != "CUSTOM" or seed.approximate_count < MIN_AUDIENCE:
        raise RuleViolation(
            f"a lookalike needs a customer-list seed of at least {MIN_AUDIENCE} people",
            field="origin_audience_id",
            hint="add users to the seed audience first",
        )
    return ctx.create(
        CustomAudience,
        account_id=seed.account_id,
        name=name,
        subtype="LOOKALIKE",
        description=f"{ratio}% lookalike of {seed.name} in {country}",
        approximate_count=ratio * 2_000_000,
        origin_audience_id=seed.id,
        lookalike_country=country,
        lookalike_ratio=ratio,
    )


@service.tool(
    intent="get the performance insights",
    example=first_example(Campaign, "object_id", where={"status": "ACTIVE"}, since="2026-01-01", until="2026-01-31"),
)
def get_insights(ctx: Ctx, object_id: str, since: Date, until: Date) -> Insights:
    """Delivery totals of a campaign, ad set or ad between two days (at most 90 days apart).

    Args:
        object_id: A campaign (cmp_…), ad set (adset_…) or ad (ad_…) id.
        since: First day.
        until: Last day.
    """
    if until < since or (until - since).days > 90:
        raise RuleViolation("until must be on or after since, at most 90 days later", field="until", hint="fix it")
    key = {"cmp": "campaign_id", "adset": "adset_id", "ad": "ad_id"}.get(object_id.split("_")[0])
    model: Any = {"campaign_id": Campaign, "adset_id": AdSet, "ad_id": Ad}.get(key or "")
    if key is None or model is None:
        raise RuleViolation(
            f"{object_id!r} is no campaign, ad set or ad", field="object_id", hint="pass a cmp_, adset_ or ad_ id"
        )
    ctx.get(model, object_id, field="object_id")
    rows = [r for r in ctx.where(InsightDay, **{key: object_id}) if since <= r.date <= until]
    imp, clicks, spend = (
        sum(r.impressions for r in rows),
        sum(r.clicks for r in rows),
        sum(r.spend_cents for r in rows),
    )
    return Insights(
        object_id=object_id,
        impressions=imp,
        reach=sum(r.reach for r in rows),
        clicks=clicks,
        spend_cents=spend,
        conversions=sum(r.conversions for r in rows),
        ctr=round(100 * clicks / imp, 2) if imp else 0.0,
        cpc_cents=round(spend / clicks) if clicks else 0,
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Two ad accounts (one at its cap), campaigns of several objectives, ad sets, reviewed ads and insights."""
    pop = s.population
    home = pop.home
    # Each account is billed to the team that runs it: finance the main one, people ops the recruiting one.
    billing = {
        "Main": pop.staff("Finance", fallback=1)[0].email,
        "Recruiting": pop.staff("People", fallback=2)[0].email,
    }
    site = f"https://www.{home.domain}"
    main, capped = (
        s.create(
            AdAccount,
            name=f"{home.name} - {label}",
            business_name=home.name,
            currency="USD",
            spend_cap_cents=cap,
            amount_spent_cents=spent,
            billing_email=billing[label],
            created_at=s.ago(days=700),
            updated_at=s.ago(days=1),
        )
        for label, cap, spent in (("Main", 5_000_000, 0), ("Recruiting", 300_000, 300_000))
    )
    buyers = s.create(
        CustomAudience,
        account_id=main.id,
        name="Purchasers - last 180 days",
        description="Customer list exported from the shop",
        approximate_count=4200,
        uploaded_count=5100,
        created_at=s.ago(days=90),
        updated_at=s.ago(days=7),
    )
    s.create(
        CustomAudience,
        account_id=main.id,
        name="Newsletter subscribers (new)",
        approximate_count=60,
        uploaded_count=80,
        created_at=s.ago(days=5),
        updated_at=s.ago(days=5),
    )
    look = s.create(
        CustomAudience,
        account_id=main.id,
        name="Lookalike (US, 1%) - Purchasers",
        subtype="LOOKALIKE",
        approximate_count=2_000_000,
        origin_audience_id=buyers.id,
        lookalike_country="US",
        lookalike_ratio=1,
        created_at=s.ago(days=80),
        updated_at=s.ago(days=80),
    )
    products = pop.products[:4]
    cr = []
    for k, prod in enumerate(products):
        claim = "Guaranteed results or your money back!" if k == 3 else f"Meet the {prod.name}."
        cr.append(
            s.create(
                Creative,
                account_id=main.id,
                name=f"{prod.name} - carousel",
                page_name=home.name,
                message=claim,
                headline=f"{prod.name} from ${prod.price_cents // 100}",
                link_url=f"{site}/products/{prod.sku.lower()}",
                call_to_action="SHOP_NOW",
                created_at=s.ago(days=60 - k),
                updated_at=s.ago(days=60 - k),
            )
        )
    hiring = s.create(
        Creative,
        account_id=capped.id,
        name="We're hiring",
        page_name=home.name,
        message=f"Join {home.name}: open roles in engineering and sales.",
        headline="See open roles",
        link_url=f"{site}/careers",
        call_to_action="LEARN_MORE",
        created_at=s.ago(days=100),
        updated_at=s.ago(days=100),
    )
    look_us = Targeting(countries=("US",), age_min=25, age_max=54, custom_audience_ids=(look.id,))
    buyers_us = Targeting(countries=("US",), custom_audience_ids=(buyers.id,))
    us_br = Targeting(countries=("US", "BR"))
    plan: tuple[tuple[AdAccount, str, Any, tuple[Any, ...], int | None, Status, Targeting, list[Creative]], ...] = (
        (main, "Spring sale - conversions", "OUTCOME_SALES", (), None, "ACTIVE", look_us, cr[:3]),
        (main, "Brand awareness", "OUTCOME_AWARENESS", (), 8000, "ACTIVE", Targeting(countries=("US", "CA")), cr[:1]),
        (main, "Lead gen - webinar", "OUTCOME_LEADS", (), None, "PAUSED", buyers_us, cr[3:]),
        (capped, "Hiring - engineers", "OUTCOME_TRAFFIC", ("EMPLOYMENT",), None, "PAUSED", us_br, [hiring]),
    )
    for account, name, objective, special, cbo, status, target, made in plan:
        camp = s.create(
            Campaign,
            account_id=account.id,
            name=name,
            objective=objective,
            special_ad_categories=special,
            daily_budget_cents=cbo,
            status=status,
            created_at=s.ago(days=45),
            updated_at=s.ago(days=2),
        )
        adset = s.create(
            AdSet,
            campaign_id=camp.id,
            name=f"{name} - core",
            daily_budget_cents=None if cbo else 5000,
            start_time=s.ago(days=30),
            targeting=target,
            status=status,
            created_at=s.ago(days=45),
            updated_at=s.ago(days=2),
        )
        for creative in made:
            bad = "guaranteed" in creative.message.lower()
            ad = s.create(
                Ad,
                adset_id=adset.id,
                campaign_id=camp.id,
                creative_id=creative.id,
                name=creative.name,
                status=status,
                review_status="DISAPPROVED" if bad else "APPROVED",
                review_feedback="Unrealistic or misleading claim ('guaranteed') under the Advertising Standards."
                if bad
                else "",
                created_at=s.ago(days=30),
                updated_at=s.ago(days=30),
            )
            if bad or account is capped:
                continue
            for d in range(1, 15):
                imp = s.rng.randint(2000, 9000)
                clicks = imp * s.rng.randint(5, 25) // 1000
                spend = imp * s.rng.randint(6, 14) // 1000 * 100 // 10
                s.create(
                    InsightDay,
                    ad_id=ad.id,
                    adset_id=adset.id,
                    campaign_id=camp.id,
                    date=(s.now - dt.timedelta(days=d)).date(),
                    impressions=imp,
                    reach=imp * 7 // 10,
                    clicks=clicks,
                    spend_cents=spend,
                    conversions=clicks // 12,
                )
    spent = sum(r.spend_cents for r in s.records(InsightDay))
    s.update(main, amount_spent_cents=spent + 1_250_000)
