"""Snaplink: short links on branded domains, custom back-halves, campaigns and click analytics.

Modeled on the Bitly API v4 (``/shorten`` and ``/bitlinks`` with custom
back-halves, ``/expand``, branded short domains (BSDs) with DNS verification,
Campaigns with channels, link ``clicks`` and ``countries`` metrics): short links
are made only on the default domain or a verified branded domain; a back-half is
unique per domain, never a reserved word, and custom back-halves are limited per
calendar month; a link cannot point at another short link; a back-half can be
changed only while the link has no clicks; archived or expired links no longer
redirect; a domain with links cannot be removed and a campaign's links must be
on its own workspace's domains. Clicks are counted per day and country.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, Date, DateTime, Domain, Email, IdOf, Quantity, Text, Title, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "links",
    title="Snaplink",
    category="marketing",
    modeled_on="Bitly API v4 (shorten, bitlinks, expand, custom back-halves, branded short domains, "
    "campaigns, clicks and countries metrics)",
    description="A link shortener for marketing: short links on the default or a verified branded domain, "
    "custom back-halves, link campaigns by channel, redirects that count clicks, and click analytics by "
    "day and country.",
)

DomainId = Annotated[str, IdOf("links.domain")]
LinkId = Annotated[str, IdOf("links.link")]
CampaignId = Annotated[str, IdOf("links.campaign")]
ClickDayId = Annotated[str, IdOf("links.click_day")]
BackHalf = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{3,40}$")]
Tag = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,29}$")]

Channel = Literal["email", "social", "sms", "print", "paid", "partner"]
Referrer = Literal["direct", "email", "social", "search", "other"]

DEFAULT_DOMAIN = "snpl.ink"
RESERVED: frozenset[str] = frozenset({"api", "admin", "login", "help", "www", "app", "static", "settings"})
CUSTOM_PER_MONTH = 10
"""Custom back-halves the workspace may create per calendar month."""
ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class ShortDomain(Record):
    """A domain short links are made on: the default one or a branded domain of the workspace."""

    id: DomainId
    domain: Domain
    """The domain name; unique."""
    is_default: bool = False
    """Whether it is the shared default domain."""
    status: Literal["pending", "verified"] = "pending"
    """pending until its DNS TXT record is verified."""
    verification_token: Annotated[str, StringConstraints(pattern=r"^snaplink-verify=[a-z0-9]{16}$")] | None = None
    """TXT record value that proves ownership."""
    added_by: Email | None = None
    """Who added it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Campaign(Created):
    """A marketing campaign that groups links by channel."""

    id: CampaignId
    name: Title
    """Campaign name."""
    description: Text = ""
    """What it is about."""
    channels: list[Channel] = Field(default_factory=list, max_length=6)
    """Channels it runs on."""
    owner_email: Email
    """Who runs it."""
    starts_on: Date
    """First day."""
    ends_on: Date | None = None
    """Last day, if planned."""


class Link(Timestamped):
    """A short link (bitlink) and the long URL it redirects to."""

    id: LinkId
    domain: Domain
    """Short domain."""
    back_half: BackHalf
    """Path after the domain; unique per domain."""
    short_url: Url
    """The full short link."""
    long_url: Url
    """Where it redirects."""
    title: Title | None = None
    """Title shown in the dashboard."""
    tags: list[Tag] = Field(default_factory=list, max_length=10)
    """Tags."""
    custom: bool = False
    """Whether the back-half was chosen rather than generated."""
    campaign_id: CampaignId | None = None
    """The campaign it belongs to."""
    channel: Channel | None = None
    """Channel within the campaign."""
    created_by: Email
    """Who created it."""
    archived: bool = False
    """Archived links no longer redirect."""
    expires_at: DateTime | None = None
    """After this time the link no longer redirects."""
    total_clicks: Quantity = 0
    """Clicks so far."""


class ClickDay(Record):
    """Clicks of one link on one day from one country."""

    id: ClickDayId
    link_id: LinkId
    """The link."""
    date: Date
    """The UTC day."""
    country: Country
    """Country of the clicks."""
    referrer: Referrer
    """Where most of them came from."""
    clicks: Quantity
    """Number of clicks."""


# -- guards ------------------------------------------------------------------------------------------------


def _guard_domain_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.is_default:
        raise RuleViolation("the default domain cannot be removed", field="domain_id", hint="remove a branded one")
    used = ctx.where(Link, domain=old.domain)
    if used:
        raise RuleViolation(
            f"{len(used)} link(s) use {old.domain}",
            field="domain_id",
            hint="links on it would stop working; a domain stays while links use it",
        )


def _guard_link(ctx: Ctx, new: Any, old: Any) -> None:
    if new.campaign_id is not None:
        campaign = ctx.get(Campaign, new.campaign_id, field="campaign_id")
        if new.channel is not None and campaign.channels and new.channel not in campaign.channels:
            raise RuleViolation(
                f"campaign {campaign.name!r} does not run on {new.channel}",
                field="channel",
                hint=f"pick one of {', '.join(campaign.channels)} or add the channel to the campaign",
            )
    elif new.channel is not None:
        raise RuleViolation(
            "a channel is only set for a link in a campaign", field="channel", hint="set the campaign as well"
        )


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if new.ends_on is not None and new.ends_on < new.starts_on:
        raise RuleViolation("a campaign cannot end before it starts", field="ends_on", hint="pick a later end")
    if old is not None:
        dropped = set(old.channels) - set(new.channels)
        for link in ctx.where(Link, campaign_id=new.id):
            if link.channel in dropped:
                raise RuleViolation(
                    f"link {link.short_url} runs on {link.channel}",
                    field="channels",
                    hint="move that link to another channel first",
                )


def _guard_campaign_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Link, campaign_id=old.id) is not None:
        raise RuleViolation(
            f"campaign {old.name!r} still has links", field="campaign_id", hint="move its links out first"
        )


domains = service.resource(
    ShortDomain,
    name="domain",
    plural="domains",
    prefix="bsd",
    create=False,
    get=False,
    filters=("status", "is_default"),
    guard_delete=_guard_domain_delete,
    title="short domain",
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=("name", "description", "channels", "owner_email", "starts_on", "ends_on"),
    filters=("owner_email",),
    search=("name", "description"),
    update=("name", "description", "channels", "ends_on"),
    guard_create=_guard_campaign,
    guard_update=_guard_campaign,
    guard_delete=_guard_campaign_delete,
)
links = service.resource(
    Link,
    name="link",
    plural="links",
    prefix="lnk",
    create=False,
    filters=("domain", "campaign_id", "channel", "created_by", "archived", "custom"),
    search=("title", "long_url", "back_half"),
    update=("title", "tags", "campaign_id", "channel", "expires_at"),
    delete=False,
    transitions={
        "archive": Transition("archived", (False,), True, "archive the short link"),
        "unarchive": Transition("archived", (True,), False, "restore the short link"),
    },
    guard_update=_guard_link,
    title="short link",
)
click_days = service.resource(
    ClickDay,
    name="click_day",
    plural="click_days",
    prefix="clk",
    create=False,
    get=False,
    filters=("link_id", "date", "country"),
    delete=False,
    title="daily click count",
)


# -- helpers --------------------------------------------------------------------------------------------


def _short(domain: str, back_half: str) -> str:
    return f"https://{domain}/{back_half}"


def _is_short(ctx: Ctx, url: str) -> bool:
    host = url.split("://", 1)[-1].split("/", 1)[0].lower()
    return any(d.domain == host for d in ctx.scan(ShortDomain))


def _custom_this_month(ctx: Ctx) -> int:
    month = ctx.today().replace(day=1)
    return sum(1 for link in ctx.where(Link, custom=True) if link.created_at.date() >= month)


def _check_back_half(ctx: Ctx, domain: str, back_half: str, field: str, ignore: str | None = None) -> None:
    if back_half.lower() in RESERVED:
        raise RuleViolation(f"{back_half!r} is a reserved word", field=field, hint="choose another back-half")
    for other in ctx.where(Link, domain=domain, back_half=back_half):
        if other.id != ignore:
            raise Conflict(
                f"{_short(domain, back_half)} is already taken", field=field, hint="choose another back-half"
            )
    if _custom_this_month(ctx) >= CUSTOM_PER_MONTH:
        raise RuleViolation(
            f"the workspace used its {CUSTOM_PER_MONTH} custom back-halves this month",
            field=field,
            hint="omit the back-half to get a generated one",
        )


def _link_by_url(ctx: Ctx, short_url: str, field: str) -> Link:
    rest = short_url.split("://", 1)[-1]
    host, _, path = rest.partition("/")
    path = path.split("?", 1)[0].strip("/")
    link = ctx.first(Link, domain=host.lower(), back_half=path)
    if link is None:
        raise NotFound(f"no short link {short_url}", field=field, hint="check the link or list links")
    return link


# -- examples -------------------------------------------------------------------------------------------------


_example_shorten = fixed_example(long_url="https://www.example.org/spring-sale?ref=newsletter", title="Spring sale")
_example_add_domain = fixed_example(domain="go.example-brand.com")


def _example_verify(ctx: Ctx) -> dict[str, Any] | None:
    dom = ctx.first(ShortDomain, status="pending")
    if dom is None or dom.verification_token is None:
        return None
    return {"domain_id": dom.id, "txt_record": dom.verification_token}


_example_url = first_example(Link, where={"archived": False}, fields={"short_url": "short_url"})
_example_click = first_example(
    Link,
    where={"archived": False},
    match=lambda ctx, link: link.expires_at is None or link.expires_at > ctx.now(),
    fields={"short_url": "short_url"},
    country="DE",
)


# -- domain tools -------------------------------------------------------------------------------------------


@service.tool(intent="add a branded short domain", write=True, example=_example_add_domain)
def add_domain(ctx: Ctx, domain: Domain, added_by: Email | None = None) -> ShortDomain:
    """Add a branded short domain; it is pending until its DNS TXT record is verified.

    Args:
        domain: The domain, e.g. go.acme.com.
        added_by: Who adds it.
    """
    if ctx.first(ShortDomain, domain=domain) is not None:
        raise Conflict(f"{domain} is already added", field="domain", hint="use the existing domain")
    token = "".join(ctx.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(16))
    return ctx.create(ShortDomain, domain=domain, verification_token=f"snaplink-verify={token}", added_by=added_by)


@service.tool(intent="verify the branded domain", write=True, example=_example_verify)
def verify_domain(ctx: Ctx, domain_id: DomainId, txt_record: Annotated[str, Field(max_length=100)]) -> ShortDomain:
    """Verify a pending branded domain with the TXT record found in its DNS.

    Args:
        domain_id: The pending domain.
        txt_record: The TXT record value published for it.
    """
    dom = ctx.get(ShortDomain, domain_id, field="domain_id")
    if dom.status == "verified":
        raise RuleViolation(f"{dom.domain} is already verified", field="domain_id", hint="nothing to do")
    if txt_record.strip() != dom.verification_token:
        raise RuleViolation(
            f"the TXT record does not match the token of {dom.domain}",
            field="txt_record",
            hint="publish the domain's verification_token as a TXT record and pass it exactly",
        )
    return ctx.update(dom, status="verified")


@service.tool(intent="shorten the link", write=True, example=_example_shorten)
def shorten_link(
    ctx: Ctx,
    long_url: Url,
    domain: Domain | None = None,
    back_half: BackHalf | None = None,
    title: Title | None = None,
    tags: Annotated[list[Tag], Field(max_length=10)] = [],  # noqa: B006 - pydantic copies defaults
    campaign_id: CampaignId | None = None,
    channel: Channel | None = None,
    created_by: Email | None = None,
) -> Link:
    """Make a short link for a long URL, on the default domain or a verified branded domain.

    A custom back-half must be free on that domain and not reserved, and counts against the
    monthly allowance of custom back-halves; without one a random back-half is generated.
    A short link cannot point at another short link.

    Args:
        long_url: The destination.
        domain: Short domain; omit for the default domain.
        back_half: Custom path after the domain.
        title: Title for the dashboard.
        tags: Tags.
        campaign_id: Campaign to put the link in.
        channel: Channel within the campaign.
        created_by: Who creates it; omit for the workspace owner.
    """
    host = domain or DEFAULT_DOMAIN
    dom = ctx.first(ShortDomain, domain=host)
    if dom is None:
        raise NotFound(f"{host} is not a domain of the workspace", field="domain", hint="add it with links__add_domain")
    if dom.status != "verified":
        raise RuleViolation(
            f"{host} is not verified yet", field="domain", hint="verify it with links__verify_domain first"
        )
    if _is_short(ctx, long_url):
        raise RuleViolation(
            "the long URL is itself a short link", field="long_url", hint="shorten the final destination instead"
        )
    if back_half is not None:
        _check_back_half(ctx, host, back_half, "back_half")
        path = back_half
    else:
        while True:
            path = "".join(ctx.rng.choice(ALPHABET) for _ in range(7))
            if ctx.first(Link, domain=host, back_half=path) is None:
                break
    owner = created_by or _owner(ctx)
    link = ctx.create(
        Link,
        domain=host,
        back_half=path,
        short_url=_short(host, path),
        long_url=long_url,
        title=title,
        tags=sorted(set(tags)),
        custom=back_half is not None,
        campaign_id=campaign_id,
        channel=channel,
        created_by=owner,
    )
    _guard_link(ctx, link, None)
    return link


def _owner(ctx: Ctx) -> str:
    first = ctx.first(Campaign)
    return first.owner_email if first else f"owner@{ctx.population.home.domain}"


@service.tool(
    intent="change the back-half of the short link",
    write=True,
    example=first_example(Link, "link_id", where={"total_clicks": 0}, back_half="fresh-name-1"),
)
def customize_back_half(ctx: Ctx, link_id: LinkId, back_half: BackHalf) -> Link:
    """Give a link a custom back-half; only while it has no clicks (printed or shared links must keep working).

    Args:
        link_id: The link.
        back_half: The new back-half.
    """
    link = ctx.get(Link, link_id, field="link_id")
    if link.total_clicks:
        raise RuleViolation(
            f"{link.short_url} already has {link.total_clicks} clicks",
            field="link_id",
            hint="create a new short link instead; this one is in use",
        )
    if back_half == link.back_half:
        raise RuleViolation("that is already the back-half", field="back_half", hint="choose another")
    _check_back_half(ctx, link.domain, back_half, "back_half", ignore=link.id)
    return ctx.update(link, back_half=back_half, short_url=_short(link.domain, back_half), custom=True)


@service.tool(intent="find out where the short link goes", example=_example_url)
def expand_link(ctx: Ctx, short_url: Url) -> Link:
    """Look up a short link by its URL (Bitly expand).

    Args:
        short_url: The short link, e.g. https://snpl.ink/abc123.
    """
    return _link_by_url(ctx, short_url, "short_url")


class Redirect(BaseModel):
    """The result of following a short link."""

    short_url: Url = Field(description="The link followed.")
    long_url: Url = Field(description="Where it redirected.")
    total_clicks: Quantity = Field(description="Clicks including this one.")


@service.tool(intent="open the short link", write=True, example=_example_click)
def click_link(ctx: Ctx, short_url: Url, country: Country, referrer: Referrer = "direct") -> Redirect:
    """Follow a short link as a visitor would: counts the click and returns the destination.

    Archived and expired links no longer redirect.

    Args:
        short_url: The short link.
        country: Visitor's country.
        referrer: Where the visitor came from.
    """
    link = _link_by_url(ctx, short_url, "short_url")
    if link.archived:
        raise RuleViolation(f"{short_url} is archived", field="short_url", hint="it no longer redirects")
    if link.expires_at is not None and link.expires_at <= ctx.now():
        raise RuleViolation(f"{short_url} expired", field="short_url", hint="it no longer redirects")
    today = ctx.today()
    day = next((d for d in ctx.where(ClickDay, link_id=link.id, date=today, country=country)), None)
    if day is None:
        ctx.create(ClickDay, link_id=link.id, date=today, country=country, referrer=referrer, clicks=1)
    else:
        ctx.update(day, clicks=day.clicks + 1)
    link = ctx.update(link, total_clicks=link.total_clicks + 1)
    return Redirect(short_url=link.short_url, long_url=link.long_url, total_clicks=link.total_clicks)


class DayCount(BaseModel):
    """Clicks on one day."""

    date: Date = Field(description="The day.")
    clicks: Quantity = Field(description="Clicks that day.")


class CountryCount(BaseModel):
    """Clicks from one country."""

    country: Country = Field(description="The country.")
    clicks: Quantity = Field(description="Clicks from it.")
    share: Annotated[float, Field(ge=0, le=100)] = Field(description="Share of the period's clicks in percent.")


class LinkStats(BaseModel):
    """A link's clicks over a period."""

    link_id: LinkId = Field(description="The link.")
    short_url: Url = Field(description="The short link.")
    long_url: Url = Field(description="Its destination.")
    since: Date = Field(description="First day of the period.")
    until: Date = Field(description="Last day of the period.")
    total: Quantity = Field(description="Clicks in the period.")
    by_day: list[DayCount] = Field(description="Clicks per day, oldest first, every day of the period.")
    by_country: list[CountryCount] = Field(description="Clicks per country, most first.")


@service.tool(intent="get the click statistics of the short link", example=first_example(Link, "link_id"))
def link_stats(ctx: Ctx, link_id: LinkId, days: Annotated[int, Field(ge=1, le=90)] = 30) -> LinkStats:
    """Clicks of a link over the last days (today included), per day and per country.

    Args:
        link_id: The link.
        days: Length of the period in days (1 to 90).
    """
    link = ctx.get(Link, link_id, field="link_id")
    until = ctx.today()
    since = until - dt.timedelta(days=days - 1)
    rows = [d for d in ctx.where(ClickDay, link_id=link.id) if since <= d.date <= until]
    per_day: dict[dt.date, int] = {}
    per_country: dict[str, int] = {}
    for r in rows:
        per_day[r.date] = per_day.get(r.date, 0) + r.clicks
        per_country[r.country] = per_country.get(r.country, 0) + r.clicks
    total = sum(per_day.values())
    return LinkStats(
        link_id=link.id,
        short_url=link.short_url,
        long_url=link.long_url,
        since=since,
        until=until,
        total=total,
        by_day=[
            DayCount(date=since + dt.timedelta(days=k), clicks=per_day.get(since + dt.timedelta(days=k), 0))
            for k in range(days)
        ],
        by_country=[
            CountryCount(country=c, clicks=n, share=round(100 * n / total, 1) if total else 0.0)
            for c, n in sorted(per_country.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
    )


class ChannelCount(BaseModel):
    """Clicks of a campaign's links on one channel."""

    channel: Channel | None = Field(description="The channel; null for links without one.")
    links: int = Field(description="Links on it.")
    clicks: Quantity = Field(description="Their clicks.")


class CampaignReport(BaseModel):
    """Clicks of a campaign's links."""

    campaign_id: CampaignId = Field(description="The campaign.")
    name: Title = Field(description="Its name.")
    links: int = Field(description="Links in the campaign.")
    total_clicks: Quantity = Field(description="Clicks of all of them.")
    by_channel: list[ChannelCount] = Field(description="Per channel, most clicks first.")
    top_link: Url | None = Field(description="Short link with the most clicks.")


@service.tool(intent="report on the campaign's clicks", example=first_example(Campaign, "campaign_id"))
def campaign_report(ctx: Ctx, campaign_id: CampaignId) -> CampaignReport:
    """Total clicks of a campaign's links, per channel, and its best link.

    Args:
        campaign_id: The campaign.
    """
    campaign = ctx.get(Campaign, campaign_id, field="campaign_id")
    mine = ctx.where(Link, campaign_id=campaign.id)
    groups: dict[str | None, list[Link]] = {}
    for link in mine:
        groups.setdefault(link.channel, []).append(link)
    rows = [
        ChannelCount(channel=ch, links=len(ls), clicks=sum(x.total_clicks for x in ls)) for ch, ls in groups.items()
    ]
    rows.sort(key=lambda r: (-r.clicks, r.channel or ""))
    best = max(mine, key=lambda x: (x.total_clicks, x.id), default=None)
    return CampaignReport(
        campaign_id=campaign.id,
        name=campaign.name,
        links=len(mine),
        total_clicks=sum(x.total_clicks for x in mine),
        by_channel=rows,
        top_link=best.short_url if best else None,
    )


# -- seed -------------------------------------------------------------------------------------------------

CAMPAIGNS: tuple[tuple[str, tuple[Channel, ...], int, int | None], ...] = (
    ("Spring product launch", ("email", "social", "paid"), -40, 30),
    ("Partner webinar series", ("email", "partner"), -25, None),
    ("Trade fair handouts", ("print", "sms"), -60, -10),
    ("Summer newsletter", ("email",), 90, 120),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The default and branded domains, marketing staff's campaigns, links to company and product pages, clicks."""
    staff = s.population.staff("Marketing")
    brand = _seed_domains(s, staff)
    camps = _seed_campaigns(s, staff)
    _seed_links(s, brand, camps, staff)


def _seed_domains(s: SeedContext, staff: list[Person]) -> ShortDomain:
    """The default domain, the verified branded domain (returned) and a second one still pending."""
    home = s.population.home
    s.create(
        ShortDomain,
        domain=DEFAULT_DOMAIN,
        is_default=True,
        status="verified",
        created_at=s.now - dt.timedelta(days=400),
    )
    label = home.domain.split(".")[0][:12]
    brand = s.create(
        ShortDomain,
        domain=f"go.{home.domain}",
        status="verified",
        verification_token=f"snaplink-verify={(label * 4)[:16]}",
        added_by=staff[0].email,
        created_at=s.now - dt.timedelta(days=200),
    )
    s.create(
        ShortDomain,
        domain=f"{label}.link",
        verification_token="snaplink-verify=" + "".join(s.rng.choice("abcdef0123456789") for _ in range(16)),
        added_by=staff[-1].email,
        created_at=s.now - dt.timedelta(days=2),
    )
    return brand


def _seed_campaigns(s: SeedContext, staff: list[Person]) -> list[Campaign]:
    home = s.population.home
    today = s.now.date()
    return [
        s.create(
            Campaign,
            name=name,
            description=f"{name} of {home.name}.",
            channels=list(channels),
            owner_email=staff[k % len(staff)].email,
            starts_on=today + dt.timedelta(days=start),
            ends_on=None if end is None else today + dt.timedelta(days=end),
            created_at=s.now + dt.timedelta(days=start - 3),
        )
        for k, (name, channels, start, end) in enumerate(CAMPAIGNS)
    ]


def _seed_links(s: SeedContext, brand: ShortDomain, camps: list[Campaign], staff: list[Person]) -> None:
    """Links to product and content pages, each followed by its clicks so that random draws interleave as seeded."""
    pop = s.population
    home = pop.home
    targets: list[tuple[str, str]] = [
        (f"https://shop.{home.domain}/products/{p.sku.lower()}", p.name) for p in pop.products[:14]
    ]
    targets += [
        (f"https://www.{home.domain}/blog/spring-collection", "Spring collection"),
        (f"https://www.{home.domain}/webinars/partners", "Partner webinar"),
        (f"https://www.{home.domain}/careers", "Careers"),
    ]
    targets += [(f"https://www.{c.domain}/", f"{c.name} homepage") for c in pop.customers[:3]]
    month = s.now.date().replace(day=1)
    countries = [pl.country for pl in pop.places]
    for i, (url, title) in enumerate(targets):
        camp = camps[i % 4] if i % 4 < 3 else None  # the summer campaign has no links yet
        custom = i % 3 == 0
        host = brand.domain if custom or i % 5 == 0 else DEFAULT_DOMAIN
        path = (
            title.lower().replace(" ", "-")[:30].strip("-")
            if custom
            else "".join(s.rng.choice(ALPHABET) for _ in range(7))
        )
        created = s.now - dt.timedelta(days=3 + (i * 7) % 50)
        if custom and created.date() >= month and i % 2:
            created = s.now - dt.timedelta(days=35 + i)
        link = s.create(
            Link,
            domain=host,
            back_half=path,
            short_url=_short(host, path),
            long_url=url,
            title=title,
            tags=["product"] if "/products/" in url else ["content"],
            custom=custom,
            campaign_id=camp.id if camp else None,
            channel=camp.channels[i % len(camp.channels)] if camp else None,
            created_by=camp.owner_email if camp else staff[i % len(staff)].email,
            archived=i % 11 == 10,
            expires_at=s.now - dt.timedelta(days=1) if i % 13 == 12 else None,
            created_at=created,
            updated_at=created,
        )
        if i % 7 != 6:  # every seventh link was never clicked
            _seed_clicks(s, link, i, countries)


def _seed_clicks(s: SeedContext, link: Link, i: int, countries: list[str]) -> None:
    """Up to eight days of clicks of the ``i``-th link from a few countries, and its click total."""
    today = s.now.date()
    counts: dict[tuple[dt.date, str], tuple[int, Referrer]] = {}
    first_day = link.created_at.date()
    span = max(1, (today - first_day).days)
    for k in range(min(8, span)):
        day = first_day + dt.timedelta(days=1 + (k * span) // 8)
        if day > today:
            break
        for c in range(1 + (i + k) % 3):
            key = (day, countries[(i + k * 3 + c * 7) % len(countries)])
            n, ref = counts.get(key, (0, ("email", "social", "direct", "search", "other")[(i + c) % 5]))
            counts[key] = (n + s.rng.randint(1, 40), ref)
    for (day, country), (n, ref) in sorted(counts.items()):
        s.create(ClickDay, link_id=link.id, date=day, country=country, referrer=ref, clicks=n)
    s.update(link, total_clicks=sum(n for n, _ in counts.values()))
