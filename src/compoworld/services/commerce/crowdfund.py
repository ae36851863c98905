"""Backerloop: reward crowdfunding: campaigns with goals and deadlines, reward tiers, pledges, surveys, fulfillment.

Modeled on Kickstarter's creator tools (projects that go draft → live →
successful or failed, or canceled; all-or-nothing funding against a goal by a
deadline at most 60 days after launch; reward tiers with a minimum pledge, an
optional limit and an estimated delivery; pledges by backers, one per backer
and project, at least the tier's minimum, changed or canceled only while the
project is live; pledge management: backer surveys sent after success to
collect shipping addresses, and rewards shipped only to backers who answered).
A project launches only with at least one reward tier; when it ends after its
deadline, pledges are collected if the goal is met and dropped if not.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Country, Date, Email, IdOf, PersonName, Text, Title, TrackingNumber
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "crowdfund",
    title="Backerloop",
    category="crowdfunding",
    modeled_on="Kickstarter creator tools (projects with goals and deadlines, reward tiers with limits, pledges, "
    "backer surveys and reward fulfillment)",
    description="Reward crowdfunding run by the company: campaigns with a funding goal and a deadline, reward "
    "tiers with minimum pledges and limits, backers' pledges, all-or-nothing collection at the end, backer "
    "surveys for shipping addresses and the fulfillment of rewards.",
)

CampaignId = Annotated[str, IdOf("crowdfund.campaign")]
RewardId = Annotated[str, IdOf("crowdfund.reward")]
PledgeId = Annotated[str, IdOf("crowdfund.pledge")]

MAX_DAYS = 60
Status = Literal["draft", "live", "successful", "failed", "canceled"]
PledgeStatus = Literal["active", "collected", "dropped", "canceled"]


class Campaign(Timestamped):
    """A crowdfunding project."""

    id: CampaignId
    title: Title
    """The project's title."""
    blurb: Text = ""
    """The short pitch."""
    creator_email: Email
    """The employee running it."""
    goal_cents: Cents
    """The funding goal."""
    deadline: Date | None = None
    """The last day of funding (set at launch)."""
    status: Status = "draft"
    """draft, live, successful, failed or canceled."""
    pledged_cents: int = 0
    """Active or collected pledges."""
    backers: int = 0
    """Backers pledging."""


class Reward(Timestamped):
    """A reward tier."""

    id: RewardId
    campaign_id: CampaignId
    """The campaign."""
    title: Title
    """What backers get."""
    minimum_cents: Cents
    """The smallest pledge for it."""
    limit: Annotated[int, Field(ge=1, le=100000)] | None = None
    """How many exist (none: unlimited)."""
    claimed: int = 0
    """How many pledges hold it."""
    estimated_delivery: Date
    """When it should ship."""


class Pledge(Timestamped):
    """A backer's pledge."""

    id: PledgeId
    campaign_id: CampaignId
    """The campaign."""
    backer_name: PersonName
    """The backer."""
    backer_email: Email
    """Their e-mail."""
    amount_cents: Cents
    """The pledge."""
    reward_id: RewardId | None = None
    """The reward tier (none: no reward)."""
    status: PledgeStatus = "active"
    """active, collected, dropped (goal missed) or canceled."""
    survey: Literal["not_sent", "sent", "answered"] = "not_sent"
    """The backer survey."""
    ship_city: City | None = None
    """Shipping city from the survey."""
    ship_country: Country | None = None
    """Shipping country from the survey."""
    tracking_number: TrackingNumber | None = None
    """Set when the reward ships."""


class Funding(Value):
    """Where a campaign stands."""

    campaign_id: CampaignId
    """The campaign."""
    pledged_cents: int
    """Pledged."""
    percent_funded: int
    """Pledged as a percentage of the goal."""
    backers: int
    """Backers."""
    days_left: int
    """Days until the deadline (0 when past)."""
    by_reward: dict[str, int]
    """Pledges per reward title."""


# -- rules ------------------------------------------------------------------------------------


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.creator_email, field="creator_email", hint="campaigns are run by staff")
    if old is not None and old.status != "draft" and new.goal_cents != old.goal_cents:
        raise RuleViolation("the goal is fixed at launch", field="goal_cents", hint="keep the goal")
    if new.goal_cents <= 0:
        raise RuleViolation("a goal is required", field="goal_cents", hint="give the funding goal")


def _guard_reward(ctx: Ctx, new: Any, old: Any) -> None:
    camp = ctx.get(Campaign, new.campaign_id, field="campaign_id")
    if camp.status not in ("draft", "live"):
        raise RuleViolation(f"the campaign is {camp.status}", field="campaign_id", hint="rewards change while open")
    if new.limit is not None and new.limit < new.claimed:
        raise RuleViolation(f"{new.claimed} backers already hold it", field="limit", hint="keep the limit above that")


campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=("title", "blurb", "creator_email", "goal_cents"),
    filters=("status", "creator_email"),
    search=("title", "blurb"),
    update=("title", "blurb", "goal_cents"),
    delete=False,
    transitions={"cancel": Transition("status", ("draft", "live"), "canceled", "cancel the campaign")},
    guard_create=_guard_campaign,
    guard_update=_guard_campaign,
)
rewards = service.resource(
    Reward,
    name="reward",
    plural="rewards",
    prefix="rwd",
    create=("campaign_id", "title", "minimum_cents", "limit", "estimated_delivery"),
    filters=("campaign_id",),
    search=("title",),
    update=("title", "limit", "estimated_delivery"),
    delete=False,
    guard_create=_guard_reward,
    guard_update=_guard_reward,
    title="reward tier",
)
pledges = service.resource(
    Pledge,
    name="pledge",
    plural="pledges",
    prefix="plg",
    create=False,
    filters=("campaign_id", "backer_email", "reward_id", "status", "survey"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="launch the campaign",
    write=True,
    example=first_example(
        Campaign,
        "campaign_id",
        where={"status": "draft"},
        match=lambda c, x: bool(c.where(Reward, campaign_id=x.id)),
        days=30,
    ),
)
def launch_campaign(ctx: Ctx, campaign_id: CampaignId, days: Annotated[int, Field(ge=1, le=60)]) -> Campaign:
    """Launch a draft campaign with at least one reward tier; it funds for 1-60 days.

    Args:
        campaign_id: The campaign.
        days: How many days it runs (1-60).
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    if camp.status != "draft":
        raise RuleViolation(f"the campaign is {camp.status}", field="campaign_id", hint="only drafts launch")
    if not ctx.where(Reward, campaign_id=camp.id):
        raise RuleViolation("a campaign needs a reward tier", field="campaign_id", hint="add one with create_reward")
    return ctx.update(camp, status="live", deadline=ctx.today() + dt.timedelta(days=days))


def _live(ctx: Ctx, campaign_id: str) -> Campaign:
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    if camp.status != "live":
        raise RuleViolation(f"the campaign is {camp.status}", field="campaign_id", hint="pledges change while live")
    return camp


def _check_reward(ctx: Ctx, camp: Campaign, reward_id: str | None, amount: int, holding: str | None) -> None:
    if reward_id is None:
        return
    tier = ctx.get(Reward, reward_id, field="reward_id")
    if tier.campaign_id != camp.id:
        raise RuleViolation("the reward is another campaign's", field="reward_id", hint="pick one of this campaign")
    if amount < tier.minimum_cents:
        raise RuleViolation(
            f"{tier.title} needs at least {tier.minimum_cents}", field="amount_cents", hint="pledge more"
        )
    if reward_id != holding and tier.limit is not None and tier.claimed >= tier.limit:
        raise RuleViolation(f"{tier.title} is all gone", field="reward_id", hint="pick another tier")


def _example_pledge(ctx: Ctx) -> dict[str, Any] | None:
    camp = ctx.first(Campaign, status="live")
    if camp is None:
        return None
    taken = {p.backer_email for p in ctx.where(Pledge, campaign_id=camp.id)}
    who = next(p for p in ctx.population.consumers if p.email not in taken)
    return {"campaign_id": camp.id, "backer_name": who.name, "backer_email": who.email, "amount_cents": 2500}


@service.tool(intent="pledge to the campaign", write=True, example=_example_pledge)
def pledge(
    ctx: Ctx,
    campaign_id: CampaignId,
    backer_name: PersonName,
    backer_email: Email,
    amount_cents: Cents,
    reward_id: RewardId | None = None,
) -> Pledge:
    """Pledge to a live campaign, once per backer, at least the chosen tier's minimum while it lasts.

    Args:
        campaign_id: The campaign.
        backer_name: The backer.
        backer_email: Their e-mail.
        amount_cents: The pledge (at least 100).
        reward_id: The reward tier, if any.
    """
    camp = _live(ctx, campaign_id)
    if amount_cents < 100:
        raise RuleViolation("the smallest pledge is 100", field="amount_cents", hint="pledge at least 100")
    if any(p.status == "active" for p in ctx.where(Pledge, campaign_id=camp.id, backer_email=backer_email)):
        raise Conflict(f"{backer_email} already backs it", field="backer_email", hint="adjust that pledge")
    _check_reward(ctx, camp, reward_id, amount_cents, None)
    if reward_id is not None:
        tier = ctx.get(Reward, reward_id)
        ctx.update(tier, claimed=tier.claimed + 1)
    ctx.update(camp, pledged_cents=camp.pledged_cents + amount_cents, backers=camp.backers + 1)
    return ctx.create(
        Pledge,
        campaign_id=camp.id,
        backer_name=backer_name,
        backer_email=backer_email,
        amount_cents=amount_cents,
        reward_id=reward_id,
    )


def _move_tier(ctx: Ctx, old: str | None, new: str | None) -> None:
    if old == new:
        return
    for rid, step in ((old, -1), (new, 1)):
        if rid is not None:
            tier = ctx.get(Reward, rid)
            ctx.update(tier, claimed=tier.claimed + step)


@service.tool(
    intent="change the pledge",
    write=True,
    example=first_example(Pledge, "pledge_id", where={"status": "active", "reward_id": None}, amount_cents=5000),
)
def adjust_pledge(ctx: Ctx, pledge_id: PledgeId, amount_cents: Cents, reward_id: RewardId | None = None) -> Pledge:
    """Change an active pledge's amount and tier while the campaign is live.

    Args:
        pledge_id: The pledge.
        amount_cents: The new amount.
        reward_id: The new tier (none: no reward).
    """
    plg = ctx.get(Pledge, pledge_id, field="pledge_id")
    if plg.status != "active":
        raise RuleViolation(f"the pledge is {plg.status}", field="pledge_id", hint="pledge again")
    camp = _live(ctx, plg.campaign_id)
    if amount_cents < 100:
        raise RuleViolation("the smallest pledge is 100", field="amount_cents", hint="pledge at least 100")
    _check_reward(ctx, camp, reward_id, amount_cents, plg.reward_id)
    _move_tier(ctx, plg.reward_id, reward_id)
    ctx.update(camp, pledged_cents=camp.pledged_cents - plg.amount_cents + amount_cents)
    return ctx.update(plg, amount_cents=amount_cents, reward_id=reward_id)


@service.tool(
    intent="cancel the pledge",
    write=True,
    example=first_example(Pledge, "pledge_id", where={"status": "active"}),
)
def cancel_pledge(ctx: Ctx, pledge_id: PledgeId) -> Pledge:
    """Cancel an active pledge while the campaign is live; its tier is freed.

    Args:
        pledge_id: The pledge.
    """
    plg = ctx.get(Pledge, pledge_id, field="pledge_id")
    if plg.status != "active":
        raise RuleViolation(f"the pledge is {plg.status}", field="pledge_id", hint="nothing to cancel")
    camp = _live(ctx, plg.campaign_id)
    _move_tier(ctx, plg.reward_id, None)
    ctx.update(camp, pledged_cents=camp.pledged_cents - plg.amount_cents, backers=camp.backers - 1)
    return ctx.update(plg, status="canceled")


@service.tool(
    intent="end the campaign",
    write=True,
    example=first_example(
        Campaign,
        "campaign_id",
        where={"status": "live"},
        match=lambda c, x: x.deadline is not None and x.deadline < c.today(),
    ),
)
def end_campaign(ctx: Ctx, campaign_id: CampaignId) -> Campaign:
    """End a live campaign past its deadline: all or nothing, pledges collected if the goal is met, else dropped.

    Args:
        campaign_id: The campaign.
    """
    camp = _live(ctx, campaign_id)
    if camp.deadline is None or camp.deadline >= ctx.today():
        raise RuleViolation(f"funding runs until {camp.deadline}", field="campaign_id", hint="wait for the deadline")
    won = camp.pledged_cents >= camp.goal_cents
    for plg in ctx.where(Pledge, campaign_id=camp.id, status="active"):
        ctx.update(plg, status="collected" if won else "dropped")
    return ctx.update(camp, status="successful" if won else "failed")


@service.tool(
    intent="send the backer surveys",
    write=True,
    example=first_example(Campaign, "campaign_id", where={"status": "successful"}),
)
def send_surveys(ctx: Ctx, campaign_id: CampaignId) -> list[Pledge]:
    """Send the backer survey to every collected pledge with a reward that has not had one.

    Args:
        campaign_id: The successful campaign.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    if camp.status != "successful":
        raise RuleViolation(f"the campaign is {camp.status}", field="campaign_id", hint="surveys follow success")
    due = [
        p
        for p in ctx.where(Pledge, campaign_id=camp.id, status="collected", survey="not_sent")
        if p.reward_id is not None
    ]
    return [ctx.update(p, survey="sent") for p in due]


@service.tool(
    intent="record the backer's survey answer",
    write=True,
    example=first_example(Pledge, "pledge_id", where={"survey": "sent"}, ship_city="Lisbon", ship_country="PT"),
)
def answer_survey(ctx: Ctx, pledge_id: PledgeId, ship_city: City, ship_country: Country) -> Pledge:
    """Record a backer's answer to their survey: where to ship the reward.

    Args:
        pledge_id: The pledge.
        ship_city: The shipping city.
        ship_country: The shipping country (ISO code).
    """
    plg = ctx.get(Pledge, pledge_id, field="pledge_id")
    if plg.survey == "not_sent":
        raise RuleViolation("no survey was sent", field="pledge_id", hint="send the surveys first")
    if plg.tracking_number is not None:
        raise RuleViolation("the reward has shipped", field="pledge_id", hint="contact the carrier")
    return ctx.update(plg, survey="answered", ship_city=ship_city, ship_country=ship_country)


@service.tool(
    intent="ship the reward",
    write=True,
    example=first_example(
        Pledge, "pledge_id", where={"survey": "answered", "tracking_number": None}, tracking_number="1Z999AA10123456784"
    ),
)
def ship_reward(ctx: Ctx, pledge_id: PledgeId, tracking_number: TrackingNumber) -> Pledge:
    """Ship a collected pledge's reward to the address from the answered survey.

    Args:
        pledge_id: The pledge.
        tracking_number: The carrier's tracking number.
    """
    plg = ctx.get(Pledge, pledge_id, field="pledge_id")
    if plg.survey != "answered":
        raise RuleViolation("the backer has not answered the survey", field="pledge_id", hint="wait for the address")
    if plg.tracking_number is not None:
        raise Conflict("the reward already shipped", field="pledge_id", hint="nothing to do")
    return ctx.update(plg, tracking_number=tracking_number)


@service.tool(intent="show the campaign's funding", example=first_example(Campaign, "campaign_id"))
def funding_summary(ctx: Ctx, campaign_id: CampaignId) -> Funding:
    """How far a campaign is funded: pledged, percent of goal, backers, days left, pledges per tier.

    Args:
        campaign_id: The campaign.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    tiers = {r.id: r.title for r in ctx.where(Reward, campaign_id=camp.id)}
    counts: dict[str, int] = {}
    for p in ctx.where(Pledge, campaign_id=camp.id):
        if p.status in ("active", "collected") and p.reward_id is not None:
            counts[tiers[p.reward_id]] = counts.get(tiers[p.reward_id], 0) + 1
    left = 0 if camp.deadline is None else max(0, (camp.deadline - ctx.today()).days)
    return Funding(
        campaign_id=camp.id,
        pledged_cents=camp.pledged_cents,
        percent_funded=camp.pledged_cents * 100 // camp.goal_cents if camp.goal_cents else 0,
        backers=camp.backers,
        days_left=left,
        by_reward=counts,
    )


# -- seed -------------------------------------------------------------------------------------

PROJECTS: tuple[tuple[str, int, Status, int], ...] = (
    ("Modular standing desk, made to last", 2000000, "live", 20),
    ("Solar camping lantern", 800000, "live", -1),
    ("Recycled-ocean-plastic backpack", 80000, "successful", -20),
    ("Smart plant sensor", 3000000, "failed", -35),
    ("Board game: Harbour Lights", 1200000, "draft", 0),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Campaigns at every stage by staff, reward tiers, pledges from the world's consumers, surveys, shipments."""
    pop = s.population
    today = s.now.date()
    creators = pop.staff("Marketing", fallback=3)
    backers = pop.consumers
    for k, (title, goal, status, offset) in enumerate(PROJECTS):
        camp = s.create(
            Campaign,
            title=title,
            creator_email=creators[k % len(creators)].email,
            goal_cents=goal,
            deadline=None if status == "draft" else today + dt.timedelta(days=offset),
            status=status,
        )
        tiers = [
            s.create(
                Reward,
                campaign_id=camp.id,
                title=name,
                minimum_cents=minimum,
                limit=limit,
                estimated_delivery=today + dt.timedelta(days=120),
            )
            for name, minimum, limit in (("Early bird", 9900, 5), ("Standard", 14900, None))
        ]
        if status == "draft":
            continue
        pledged, count = 0, 0
        held: dict[str, int] = {}
        for n in range(8):
            who = backers[(k * 8 + n) % len(backers)]
            tier = tiers[n % 2] if n < 7 else None
            amount = tier.minimum_cents if tier else 2500
            outcome: dict[str, PledgeStatus] = {"live": "active", "successful": "collected", "failed": "dropped"}
            plg_status = outcome[status]
            answered = status == "successful" and n < 3
            s.create(
                Pledge,
                campaign_id=camp.id,
                backer_name=who.name,
                backer_email=who.email,
                amount_cents=amount,
                reward_id=tier.id if tier else None,
                status=plg_status,
                survey="answered" if answered else ("sent" if status == "successful" and n < 5 else "not_sent"),
                ship_city=who.address.city if answered else None,
                ship_country=who.address.country if answered else None,
                tracking_number=f"1Z999AA1012345678{n}" if answered and n == 0 else None,
            )
            if tier is not None:
                held[tier.id] = held.get(tier.id, 0) + 1
            pledged += amount
            count += 1
        s.update(camp, pledged_cents=pledged, backers=count)
        for tier in tiers:
            s.update(tier, claimed=held.get(tier.id, 0))
