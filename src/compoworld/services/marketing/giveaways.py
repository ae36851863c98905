"""Prize Drop: contests and giveaways with entry methods, eligibility, fraud checks, winner draws and prizes.

Modeled on the Gleam Competitions API and app (and ShortStack's contests):
campaigns that run draft → running ⇄ paused → ended, with a start and end, an
eligible-country list and a minimum age; entry actions (visit a page, follow
an account, newsletter signup, answer a question, refer a friend, daily
bonus) each worth some entries, mandatory actions first; contestants whose
entries are capped per campaign, daily actions once a day; fraud checks that
flag disposable e-mail domains and shared IP addresses and disqualify
contestants; winners drawn at random weighted by entries once the campaign has
ended, only from clean contestants, one prize each; claims before a deadline,
forfeits and re-draws, and prize fulfilment with a tracking number.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Country, DateTime, Email, IdOf, PersonName, Text, Title, TrackingNumber, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "giveaways",
    title="Prize Drop",
    category="contests_giveaways",
    modeled_on="Gleam Competitions (campaigns, entry actions, contestants, entries, fraud/disqualification, "
    "winner draws) and ShortStack contests (eligibility, prizes, claims and fulfilment)",
    description="Marketing contests and giveaways run by the home company: campaigns with entry actions, "
    "eligibility by country and age, contestants and their entries, fraud checks and disqualification, "
    "weighted winner draws, prize claims, re-draws and prize shipping.",
)

CampaignId = Annotated[str, IdOf("giveaways.campaign")]
MethodId = Annotated[str, IdOf("giveaways.entry_method")]
EntrantId = Annotated[str, IdOf("giveaways.entrant")]
EntryId = Annotated[str, IdOf("giveaways.entry")]
PrizeId = Annotated[str, IdOf("giveaways.prize")]
WinnerId = Annotated[str, IdOf("giveaways.winner")]

CampaignStatus = Literal["draft", "running", "paused", "ended"]
CampaignKind = Literal["giveaway", "instant_win", "photo_contest"]
MethodKind = Literal[
    "visit_url", "follow_social", "newsletter_signup", "answer_question", "refer_friend", "daily_bonus"
]
FraudStatus = Literal["clean", "suspect", "disqualified"]
WinnerStatus = Literal["drawn", "claimed", "forfeited", "fulfilled"]

DISPOSABLE = ("mailinator.com", "tempmail.dev", "10minutemail.net")
CLAIM_DAYS = 14
Ipv4 = Annotated[str, StringConstraints(pattern=r"^(\d{1,3}\.){3}\d{1,3}$")]


class Campaign(Timestamped):
    """A contest or giveaway."""

    id: CampaignId
    name: Title
    """Name shown to entrants."""
    kind: CampaignKind = "giveaway"
    """giveaway, instant_win or photo_contest."""
    owner_email: Email
    """The marketer who runs it."""
    status: CampaignStatus = "draft"
    """draft, running, paused or ended."""
    starts_at: DateTime
    """When entries open."""
    ends_at: DateTime
    """When entries close."""
    eligible_countries: tuple[Country, ...] = ()
    """Countries whose residents may enter; empty: worldwide."""
    min_age: Annotated[int, Field(ge=13, le=25)] = 18
    """Minimum entrant age."""
    max_entries_per_person: Annotated[int, Field(ge=1, le=1000)] = 50
    """Cap on one contestant's entries."""
    rules_url: Url | None = None
    """Official rules page."""


class EntryMethod(Record):
    """An action that earns entries."""

    id: MethodId
    campaign_id: CampaignId
    """The campaign."""
    kind: MethodKind
    """What the entrant does."""
    title: Title
    """Label shown ("Follow us on Instagram")."""
    points: Annotated[int, Field(ge=1, le=100)] = 1
    """Entries it is worth."""
    mandatory: bool = False
    """Whether it must be done before other actions."""
    daily: bool = False
    """Whether it can be done once a day instead of once."""


class Entrant(Timestamped):
    """A contestant in one campaign."""

    id: EntrantId
    campaign_id: CampaignId
    """The campaign."""
    email: Email
    """Their e-mail (one contestant per e-mail per campaign)."""
    name: PersonName
    """Their name."""
    country: Country
    """Country of residence."""
    age: Annotated[int, Field(ge=0, le=120)]
    """Age they gave."""
    ip_address: Ipv4
    """Address they entered from."""
    total_entries: int = 0
    """Entries earned (valid ones)."""
    fraud_status: FraudStatus = "clean"
    """clean, suspect (flagged by a fraud check) or disqualified."""
    fraud_reason: str = ""
    """Why flagged or disqualified."""


class Entry(Record):
    """One completed action."""

    id: EntryId
    campaign_id: CampaignId
    """The campaign."""
    entrant_id: EntrantId
    """The contestant."""
    method_id: MethodId
    """The action."""
    points: int
    """Entries earned."""
    answer: Text = ""
    """Answer for a question action."""
    valid: bool = True
    """False once the contestant is disqualified."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Prize(Record):
    """A prize of a campaign."""

    id: PrizeId
    campaign_id: CampaignId
    """The campaign."""
    name: Title
    """What it is."""
    value_cents: Cents
    """Retail value."""
    quantity: Annotated[int, Field(ge=1, le=100)] = 1
    """How many winners it has."""


class Winner(Timestamped):
    """A drawn winner and their prize."""

    id: WinnerId
    campaign_id: CampaignId
    """The campaign."""
    entrant_id: EntrantId
    """The contestant."""
    email: Email
    """Their e-mail."""
    name: PersonName
    """Their name."""
    prize_id: PrizeId
    """The prize."""
    status: WinnerStatus = "drawn"
    """drawn, claimed, forfeited or fulfilled."""
    claim_deadline: DateTime
    """Last moment to claim."""
    tracking_number: TrackingNumber | None = None
    """Shipment of the prize."""


class Stats(Value):
    """A campaign's entry figures."""

    campaign_id: CampaignId
    """The campaign."""
    entrants: int
    """Contestants."""
    valid_entries: int
    """Valid entries."""
    suspect: int
    """Contestants flagged as suspect."""
    disqualified: int
    """Disqualified contestants."""
    by_method: dict[str, int]
    """Valid entries per action title."""


# -- rules ------------------------------------------------------------------------------------


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{new.owner_email} is not a marketer here", field="owner_email", hint="use an employee")
    if new.ends_at <= new.starts_at:
        raise RuleViolation("ends_at must be after starts_at", field="ends_at", hint="pick a later end")
    if old is not None and old.status == "ended" and new.status == "ended" and new != old:
        raise Conflict("an ended campaign cannot change", field="campaign_id", hint="run a new campaign")
    if new.status == "running" and (old is None or old.status == "draft"):
        if not ctx.where(EntryMethod, campaign_id=new.id):
            raise RuleViolation("a campaign needs an entry method to start", field="campaign_id", hint="add one")
        if not ctx.where(Prize, campaign_id=new.id):
            raise RuleViolation("a campaign needs a prize to start", field="campaign_id", hint="add one")


campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=False,
    filters=("status", "kind", "owner_email"),
    search=("name",),
    update=("name", "ends_at", "eligible_countries", "min_age", "max_entries_per_person", "rules_url"),
    delete=False,
    transitions={
        "start": Transition("status", ("draft",), "running", "start the giveaway"),
        "pause": Transition("status", ("running",), "paused", "pause the giveaway"),
        "resume": Transition("status", ("paused",), "running", "resume the giveaway"),
        "end": Transition("status", ("running", "paused"), "ended", "end the giveaway", destructive=True),
    },
    guard_update=_guard_campaign,
)
methods = service.resource(
    EntryMethod,
    name="entry_method",
    plural="entry_methods",
    prefix="em",
    create=False,
    get=False,
    filters=("campaign_id", "kind"),
    delete=False,
    title="entry action",
)
entrants = service.resource(
    Entrant,
    name="entrant",
    plural="entrants",
    prefix="ent",
    create=False,
    filters=("campaign_id", "email", "country", "fraud_status", "ip_address"),
    search=("name", "email"),
    delete=False,
    title="contestant",
)
entries = service.resource(
    Entry,
    name="entry",
    plural="entries",
    prefix="e",
    create=False,
    get=False,
    filters=("campaign_id", "entrant_id", "method_id", "valid"),
    delete=False,
)
prizes = service.resource(
    Prize, name="prize", plural="prizes", prefix="prz", create=False, get=False, filters=("campaign_id",), delete=False
)
winners = service.resource(
    Winner,
    name="winner",
    plural="winners",
    prefix="win",
    create=False,
    get=False,
    filters=("campaign_id", "status", "email", "prize_id"),
    delete=False,
    transitions={"claim": Transition("status", ("drawn",), "claimed", "record that the winner claimed the prize")},
)


# -- domain tools -----------------------------------------------------------------------------


def _example_campaign(ctx: Ctx) -> dict[str, Any] | None:
    start = ctx.now() + dt.timedelta(days=2)
    return {
        "name": "Back to school giveaway",
        "owner_email": ctx.population.employees[0].email,
        "starts_at": start.isoformat(),
        "ends_at": (start + dt.timedelta(days=14)).isoformat(),
        "eligible_countries": [ctx.population.home.place.country],
    }


@service.tool(intent="create the giveaway", write=True, example=_example_campaign)
def create_campaign(
    ctx: Ctx,
    name: Title,
    owner_email: Email,
    starts_at: DateTime,
    ends_at: DateTime,
    kind: CampaignKind = "giveaway",
    eligible_countries: list[Country] | None = None,
    min_age: Annotated[int, Field(ge=13, le=25)] = 18,
    max_entries_per_person: Annotated[int, Field(ge=1, le=1000)] = 50,
    rules_url: Url | None = None,
) -> Campaign:
    """Create a draft campaign run by a marketer; it ends after it starts.

    Args:
        name: Name shown to entrants.
        owner_email: The employee who runs it.
        starts_at: When entries open.
        ends_at: When entries close.
        kind: giveaway, instant_win or photo_contest.
        eligible_countries: Countries whose residents may enter; omit for worldwide.
        min_age: Minimum entrant age.
        max_entries_per_person: Cap on one contestant's entries.
        rules_url: Official rules page.
    """
    made = ctx.create(
        Campaign,
        name=name,
        owner_email=owner_email,
        starts_at=starts_at,
        ends_at=ends_at,
        kind=kind,
        eligible_countries=tuple(dict.fromkeys(eligible_countries or ())),
        min_age=min_age,
        max_entries_per_person=max_entries_per_person,
        rules_url=rules_url,
    )
    _guard_campaign(ctx, made, None)
    return made


def _draft(ctx: Ctx, campaign_id: str) -> Campaign:
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    if c.status != "draft":
        raise Conflict(f"campaign {c.name!r} is {c.status}", field="campaign_id", hint="only drafts change their setup")
    return c


@service.tool(
    intent="add an entry action to the giveaway",
    write=True,
    example=first_example(
        Campaign,
        "campaign_id",
        where={"status": "draft"},
        kind="follow_social",
        title="Follow us on Instagram",
        points=2,
    ),
)
def add_entry_method(
    ctx: Ctx,
    campaign_id: CampaignId,
    kind: MethodKind,
    title: Title,
    points: Annotated[int, Field(ge=1, le=100)] = 1,
    mandatory: bool = False,
) -> EntryMethod:
    """Add an entry action to a draft campaign; daily_bonus actions repeat once a day and cannot be mandatory.

    Args:
        campaign_id: The draft campaign.
        kind: visit_url, follow_social, newsletter_signup, answer_question, refer_friend or daily_bonus.
        title: Label shown to entrants (unique within the campaign).
        points: Entries it is worth.
        mandatory: Whether it must be done first.
    """
    c = _draft(ctx, campaign_id)
    if kind == "daily_bonus" and mandatory:
        raise RuleViolation(
            "a daily bonus cannot be mandatory", field="mandatory", hint="make another action mandatory"
        )
    if any(m.title == title for m in ctx.where(EntryMethod, campaign_id=c.id)):
        raise Conflict(f"action {title!r} exists", field="title", hint="pick another title")
    return ctx.create(
        EntryMethod,
        campaign_id=c.id,
        kind=kind,
        title=title,
        points=points,
        mandatory=mandatory,
        daily=kind == "daily_bonus",
    )


@service.tool(
    intent="add a prize to the giveaway",
    write=True,
    example=first_example(
        Campaign, "campaign_id", where={"status": "draft"}, name="Wireless headphones", value_cents=19900
    ),
)
def add_prize(
    ctx: Ctx,
    campaign_id: CampaignId,
    name: Title,
    value_cents: Cents,
    quantity: Annotated[int, Field(ge=1, le=100)] = 1,
) -> Prize:
    """Add a prize to a draft campaign.

    Args:
        campaign_id: The draft campaign.
        name: What it is.
        value_cents: Retail value.
        quantity: How many winners it has.
    """
    c = _draft(ctx, campaign_id)
    return ctx.create(Prize, campaign_id=c.id, name=name, value_cents=value_cents, quantity=quantity)


def _example_enter(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Campaign, status="running"):
        m = next((m for m in ctx.where(EntryMethod, campaign_id=c.id) if m.mandatory), None)
        if m is not None:
            country = c.eligible_countries[0] if c.eligible_countries else "US"
            return {
                "campaign_id": c.id,
                "method_id": m.id,
                "email": "new.fan@example.org",
                "name": "Robin Fan",
                "country": country,
                "age": 30,
                "ip_address": "198.51.100.7",
            }
    return None


@service.tool(intent="enter the giveaway", write=True, example=_example_enter)
def enter_giveaway(
    ctx: Ctx,
    campaign_id: CampaignId,
    method_id: MethodId,
    email: Email,
    name: PersonName,
    country: Country,
    age: Annotated[int, Field(ge=0, le=120)],
    ip_address: Ipv4,
    answer: Text = "",
) -> Entry:
    """Record a completed entry action for a contestant (registered on first entry) of a running campaign.

    Entrants must live in an eligible country and be old enough; mandatory actions come first; an action
    counts once (daily ones once a day) and a contestant's entries stop at the campaign's cap.

    Args:
        campaign_id: The campaign.
        method_id: The action done.
        email: Contestant e-mail.
        name: Contestant name.
        country: Country of residence.
        age: Their age.
        ip_address: Address they entered from.
        answer: Answer, for a question action.
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    m = ctx.get(EntryMethod, method_id, field="method_id")
    if m.campaign_id != c.id:
        raise RuleViolation("the action belongs to another campaign", field="method_id", hint="list its actions")
    now = ctx.now()
    if c.status != "running" or not c.starts_at <= now <= c.ends_at:
        raise Conflict(
            f"campaign {c.name!r} is not open for entries ({c.status})", field="campaign_id", hint="wait for it to run"
        )
    if c.eligible_countries and country not in c.eligible_countries:
        raise RuleViolation(f"residents of {country} are not eligible", field="country", hint="see the official rules")
    if age < c.min_age:
        raise RuleViolation(f"entrants must be {c.min_age} or older", field="age", hint="see the official rules")
    if m.kind == "answer_question" and not answer.strip():
        raise RuleViolation("this action needs an answer", field="answer", hint="answer the question")
    who = ctx.first(Entrant, campaign_id=c.id, email=email)
    if who is not None and who.fraud_status == "disqualified":
        raise RuleViolation(f"{email} was disqualified", field="email", hint="disqualified contestants cannot enter")
    done = [] if who is None else ctx.where(Entry, entrant_id=who.id)
    done_ids = {e.method_id for e in done}
    missing = [
        x.title
        for x in ctx.where(EntryMethod, campaign_id=c.id)
        if x.mandatory and x.id not in done_ids and x.id != m.id
    ]
    if missing:
        raise RuleViolation(f"do the mandatory action first: {missing[0]}", field="method_id", hint="complete it first")
    same = [e for e in done if e.method_id == m.id]
    if same and (not m.daily or any(e.created_at.date() == now.date() for e in same)):
        raise Conflict(
            f"{email} already did {m.title!r}" + (" today" if m.daily else ""),
            field="method_id",
            hint="pick another action",
        )
    total = 0 if who is None else who.total_entries
    if total + m.points > c.max_entries_per_person:
        raise RuleViolation(
            f"entries are capped at {c.max_entries_per_person}", field="method_id", hint="no more entries"
        )
    if who is None:
        who = ctx.create(
            Entrant, campaign_id=c.id, email=email, name=name, country=country, age=age, ip_address=ip_address
        )
    ctx.update(who, total_entries=total + m.points)
    return ctx.create(Entry, campaign_id=c.id, entrant_id=who.id, method_id=m.id, points=m.points, answer=answer)


@service.tool(
    intent="run a fraud check on the giveaway",
    write=True,
    example=first_example(Campaign, "campaign_id", where={"status": "running"}),
)
def run_fraud_check(ctx: Ctx, campaign_id: CampaignId) -> list[Entrant]:
    """Flag clean contestants as suspect when they use a disposable e-mail domain or share an IP address; returns the newly flagged.

    Args:
        campaign_id: The campaign.
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    people = ctx.where(Entrant, campaign_id=c.id)
    by_ip: dict[str, int] = {}
    for p in people:
        by_ip[p.ip_address] = by_ip.get(p.ip_address, 0) + 1
    flagged = []
    for p in people:
        if p.fraud_status != "clean":
            continue
        reason = (
            "disposable e-mail domain"
            if p.email.split("@")[-1] in DISPOSABLE
            else "shared IP address"
            if by_ip[p.ip_address] > 1
            else ""
        )
        if reason:
            flagged.append(ctx.update(p, fraud_status="suspect", fraud_reason=reason))
    return flagged


@service.tool(
    intent="disqualify the contestant",
    write=True,
    example=first_example(Entrant, "entrant_id", where={"fraud_status": "suspect"}, reason="Duplicate accounts"),
)
def disqualify_entrant(
    ctx: Ctx, entrant_id: EntrantId, reason: Annotated[str, StringConstraints(min_length=3, max_length=200)]
) -> Entrant:
    """Disqualify a contestant: their entries become invalid and they cannot win; a drawn win is forfeited.

    Args:
        entrant_id: The contestant.
        reason: Why.
    """
    p = ctx.get(Entrant, entrant_id, field="entrant_id")
    if p.fraud_status == "disqualified":
        raise Conflict(f"{p.email} is already disqualified", field="entrant_id", hint="nothing to do")
    for e in ctx.where(Entry, entrant_id=p.id, valid=True):
        ctx.update(e, valid=False)
    for w in ctx.where(Winner, entrant_id=p.id, status="drawn"):
        ctx.update(w, status="forfeited")
    return ctx.update(p, fraud_status="disqualified", fraud_reason=reason, total_entries=0)


@service.tool(
    intent="clear the contestant's fraud flag",
    write=True,
    example=first_example(Entrant, "entrant_id", where={"fraud_status": "suspect"}),
)
def clear_entrant(ctx: Ctx, entrant_id: EntrantId) -> Entrant:
    """Mark a suspect contestant clean after review.

    Args:
        entrant_id: The contestant.
    """
    p = ctx.get(Entrant, entrant_id, field="entrant_id")
    if p.fraud_status != "suspect":
        raise Conflict(f"{p.email} is {p.fraud_status}", field="entrant_id", hint="only suspects are cleared")
    return ctx.update(p, fraud_status="clean", fraud_reason="")


def _weighted(ctx: Ctx, c: Campaign, pool: list[Entrant], salt: str) -> Entrant:
    """Deterministic weighted pick: each entrant's entries are tickets ordered by a hash of campaign and salt."""
    tickets = [
        (hashlib.sha256(f"{c.id}:{salt}:{p.id}:{k}".encode()).hexdigest(), p)
        for p in pool
        for k in range(p.total_entries)
    ]
    return min(tickets, key=lambda t: t[0])[1]


def _eligible(ctx: Ctx, c: Campaign) -> list[Entrant]:
    won = {w.entrant_id for w in ctx.where(Winner, campaign_id=c.id)}
    return [
        p for p in ctx.where(Entrant, campaign_id=c.id, fraud_status="clean") if p.total_entries > 0 and p.id not in won
    ]


@service.tool(
    intent="draw the giveaway's winners",
    write=True,
    example=first_example(
        Campaign, "campaign_id", where={"status": "ended"}, match=lambda ctx, c: not ctx.where(Winner, campaign_id=c.id)
    ),
)
def draw_winners(ctx: Ctx, campaign_id: CampaignId) -> list[Winner]:
    """Draw one winner per prize unit of an ended campaign, weighted by entries, among clean contestants.

    Args:
        campaign_id: The ended campaign (drawn once).
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    if c.status != "ended":
        raise Conflict(f"campaign {c.name!r} is {c.status}", field="campaign_id", hint="end it first")
    if ctx.where(Winner, campaign_id=c.id):
        raise Conflict("winners were already drawn", field="campaign_id", hint="use redraw_winner for a forfeit")
    if ctx.where(Entrant, campaign_id=c.id, fraud_status="suspect"):
        raise RuleViolation(
            "suspect contestants are not reviewed yet", field="campaign_id", hint="clear or disqualify them"
        )
    out: list[Winner] = []
    for prize in ctx.where(Prize, campaign_id=c.id):
        for k in range(prize.quantity):
            pool = _eligible(ctx, c)
            if not pool:
                if not out:
                    raise RuleViolation(
                        "no eligible contestant to draw", field="campaign_id", hint="no one entered validly"
                    )
                return out
            p = _weighted(ctx, c, pool, f"{prize.id}:{k}")
            out.append(
                ctx.create(
                    Winner,
                    campaign_id=c.id,
                    entrant_id=p.id,
                    email=p.email,
                    name=p.name,
                    prize_id=prize.id,
                    claim_deadline=ctx.now() + dt.timedelta(days=CLAIM_DAYS),
                )
            )
    return out


@service.tool(
    intent="forfeit the unclaimed prize",
    write=True,
    example=first_example(Winner, "winner_id", where={"status": "drawn"}),
)
def forfeit_winner(ctx: Ctx, winner_id: WinnerId) -> Winner:
    """Forfeit a drawn winner who did not claim (or declined); the prize can then be re-drawn.

    Args:
        winner_id: The winner.
    """
    w = ctx.get(Winner, winner_id, field="winner_id")
    if w.status != "drawn":
        raise Conflict(f"winner {w.id} is {w.status}", field="winner_id", hint="only unclaimed wins are forfeited")
    return ctx.update(w, status="forfeited")


@service.tool(
    intent="re-draw the forfeited prize",
    write=True,
    example=first_example(Winner, "winner_id", where={"status": "forfeited"}),
)
def redraw_winner(ctx: Ctx, winner_id: WinnerId) -> Winner:
    """Draw a new winner for a forfeited prize among clean contestants who have not won.

    Args:
        winner_id: The forfeited win.
    """
    w = ctx.get(Winner, winner_id, field="winner_id")
    if w.status != "forfeited":
        raise Conflict(f"winner {w.id} is {w.status}", field="winner_id", hint="forfeit it first")
    if ctx.first(Winner, campaign_id=w.campaign_id, prize_id=w.prize_id, status="drawn"):
        raise Conflict("this prize already has a new drawn winner", field="winner_id", hint="wait for their claim")
    c = ctx.get(Campaign, w.campaign_id)
    pool = _eligible(ctx, c)
    if not pool:
        raise RuleViolation("no eligible contestant left", field="winner_id", hint="the prize stays unawarded")
    p = _weighted(ctx, c, pool, f"redraw:{w.id}")
    return ctx.create(
        Winner,
        campaign_id=c.id,
        entrant_id=p.id,
        email=p.email,
        name=p.name,
        prize_id=w.prize_id,
        claim_deadline=ctx.now() + dt.timedelta(days=CLAIM_DAYS),
    )


@service.tool(
    intent="ship the prize",
    write=True,
    example=first_example(Winner, "winner_id", where={"status": "claimed"}, tracking_number="1Z999AA10123456784"),
)
def fulfill_prize(ctx: Ctx, winner_id: WinnerId, tracking_number: TrackingNumber) -> Winner:
    """Record that a claimed prize was shipped.

    Args:
        winner_id: The winner.
        tracking_number: The shipment's tracking number.
    """
    w = ctx.get(Winner, winner_id, field="winner_id")
    if w.status != "claimed":
        raise RuleViolation(f"winner {w.id} is {w.status}", field="winner_id", hint="only claimed prizes ship")
    return ctx.update(w, status="fulfilled", tracking_number=tracking_number)


@service.tool(intent="show the giveaway's entry stats", example=first_example(Campaign, "campaign_id"))
def campaign_stats(ctx: Ctx, campaign_id: CampaignId) -> Stats:
    """Contestants, valid entries, flagged and disqualified counts and entries per action.

    Args:
        campaign_id: The campaign.
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    people = ctx.where(Entrant, campaign_id=c.id)
    titles = {m.id: m.title for m in ctx.where(EntryMethod, campaign_id=c.id)}
    by: dict[str, int] = {t: 0 for t in titles.values()}
    valid = 0
    for e in ctx.where(Entry, campaign_id=c.id, valid=True):
        by[titles[e.method_id]] += e.points
        valid += e.points
    return Stats(
        campaign_id=c.id,
        entrants=len(people),
        valid_entries=valid,
        suspect=sum(p.fraud_status == "suspect" for p in people),
        disqualified=sum(p.fraud_status == "disqualified" for p in people),
        by_method=by,
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Campaigns in every status; consumers entering with fraud cases; winners in every status."""
    pop = s.population
    owner = pop.staff("Marketing", "Sales", fallback=2)[0].email
    home_c = pop.home.place.country
    countries = tuple(dict.fromkeys((home_c, *(p.place.country for p in pop.consumers[:30]))))
    plan = (
        ("Summer merch giveaway", "ended", -40, -10),
        ("Launch week sweepstakes", "running", -5, 9),
        ("Photo contest: your desk setup", "draft", 7, 37),
        ("Holiday gift guide giveaway", "paused", -8, 20),
        ("Spring quiz giveaway", "ended", -70, -55),
    )
    made = []
    for name, status, start, end in plan:
        c = s.create(
            Campaign,
            name=name,
            owner_email=owner,
            status=status,
            kind="photo_contest" if "Photo" in name else "giveaway",
            starts_at=s.ago(days=-start),
            ends_at=s.ago(days=-end),
            eligible_countries=countries,
            rules_url=f"https://{pop.home.domain}/giveaway-rules",
            created_at=s.ago(days=50),
            updated_at=s.ago(days=3),
        )
        ms = [
            s.create(
                EntryMethod,
                campaign_id=c.id,
                kind="newsletter_signup",
                title="Join our newsletter",
                points=3,
                mandatory=True,
            ),
            s.create(EntryMethod, campaign_id=c.id, kind="follow_social", title="Follow us on Instagram", points=2),
            s.create(EntryMethod, campaign_id=c.id, kind="daily_bonus", title="Daily bonus", points=1, daily=True),
        ]
        s.create(Prize, campaign_id=c.id, name="Merch bundle", value_cents=12000, quantity=3)
        s.create(Prize, campaign_id=c.id, name="Grand prize: wireless headphones", value_cents=29900)
        made.append((c, ms))
    for (c, ms), crowd in (
        (made[0], pop.consumers[:14]),
        (made[1], pop.consumers[10:22]),
        (made[4], pop.consumers[22:28]),
    ):
        for k, p in enumerate(crowd):
            if p.place.country not in countries:
                continue
            odd = k % 7 == 3 and c is not made[4][0]
            email = f"{p.first_name.lower()}{k}@mailinator.com" if odd else p.email
            fstat: FraudStatus = "clean"
            if c.status == "ended" and odd:
                fstat = "disqualified"
            elif odd:
                fstat = "suspect"
            used = ms[: 1 + k % 3]
            total = sum(m.points for m in used)
            ent = s.create(
                Entrant,
                campaign_id=c.id,
                email=email,
                name=p.name,
                country=p.place.country,
                age=21 + k,
                ip_address=f"203.0.113.{10 + k}",
                total_entries=0 if fstat == "disqualified" else total,
                fraud_status=fstat,
                fraud_reason="disposable e-mail domain" if odd else "",
                created_at=c.starts_at + dt.timedelta(hours=k),
                updated_at=c.starts_at + dt.timedelta(hours=k),
            )
            for m in used:
                s.create(
                    Entry,
                    campaign_id=c.id,
                    entrant_id=ent.id,
                    method_id=m.id,
                    points=m.points,
                    valid=fstat != "disqualified",
                    created_at=c.starts_at + dt.timedelta(hours=k),
                )
    ended = made[0][0]
    prizes_ = s.records(Prize)
    clean = [e for e in s.records(Entrant) if e.campaign_id == ended.id and e.fraud_status == "clean"]
    for k, (e, st) in enumerate(zip(clean[:4], ("fulfilled", "claimed", "drawn", "forfeited"), strict=False)):
        prize = next(p for p in prizes_ if p.campaign_id == ended.id and (p.quantity == 3) == (k < 3))
        s.create(
            Winner,
            campaign_id=ended.id,
            entrant_id=e.id,
            email=e.email,
            name=e.name,
            prize_id=prize.id,
            status=st,
            claim_deadline=s.ago(days=-4),
            tracking_number="1Z999AA10123456784" if st == "fulfilled" else None,
            created_at=s.ago(days=9),
            updated_at=s.ago(days=2),
        )
