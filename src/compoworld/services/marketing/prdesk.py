"""Byline PR: the media database, media lists, pitches, press releases with embargoes and coverage clips.

Modeled on Muck Rack (journalists with outlets and beats, media lists, pitches
sent to a list with per-pitch tracking, coverage reports) and the Cision
Communications Cloud / PR Newswire release API (press releases ``draft`` →
``scheduled`` → ``published``, or ``withdrawn``; embargoes; distribution
circuits): a journalist who opted out of pitches is skipped, nobody is pitched
twice about one release, a pitch needs a list with someone still pitchable, a
release is pitched only once it is scheduled or published, an embargo must
lie before the release time, a published release cannot be withdrawn after a
day, and coverage that appears before a release's embargo lifts is flagged as
an embargo break.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Country,
    Date,
    DateTime,
    Domain,
    Email,
    IdOf,
    JobTitle,
    PersonName,
    Quantity,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "prdesk",
    title="Byline PR",
    category="public_relations",
    modeled_on="Muck Rack (journalists, outlets, media lists, pitches, coverage reports) and Cision "
    "Communications Cloud / PR Newswire (press releases with embargoes and distribution)",
    description="Public relations for the home company: a database of journalists and the outlets they "
    "write for, media lists, pitches e-mailed to those lists, press releases scheduled under embargo and "
    "distributed on the wire, and the coverage they earn with reach and sentiment.",
)

OutletId = Annotated[str, IdOf("prdesk.outlet")]
JournalistId = Annotated[str, IdOf("prdesk.journalist")]
MediaListId = Annotated[str, IdOf("prdesk.media_list")]
ReleaseId = Annotated[str, IdOf("prdesk.press_release")]
PitchId = Annotated[str, IdOf("prdesk.pitch")]
CoverageId = Annotated[str, IdOf("prdesk.coverage")]

Beat = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z &-]{1,39}$")]
OutletType = Literal["newspaper", "magazine", "online", "broadcast", "podcast", "trade", "wire"]
ReleaseStatus = Literal["draft", "scheduled", "published", "withdrawn"]
Circuit = Literal["national", "regional", "state", "trade", "global"]
Sentiment = Literal["positive", "neutral", "negative"]

WITHDRAW_WINDOW = dt.timedelta(hours=24)


class Outlet(Created):
    """A publication, broadcaster or podcast journalists write for."""

    id: OutletId
    name: Title
    """The outlet's name (unique)."""
    outlet_type: OutletType
    """newspaper, magazine, online, broadcast, podcast, trade or wire."""
    domain: Domain
    """Its website's domain."""
    country: Country
    """Where it is based."""
    monthly_visitors: Quantity = 0
    """Audience reach per month."""


class Journalist(Timestamped):
    """A journalist or freelancer in the media database."""

    id: JournalistId
    name: PersonName
    """Full name."""
    email: Email
    """Where pitches go (unique)."""
    outlet_id: OutletId | None = None
    """Main outlet; none for freelancers."""
    title: JobTitle = "Reporter"
    """Role at the outlet."""
    beats: tuple[Beat, ...] = ()
    """Topics covered, e.g. technology, retail."""
    twitter_handle: Annotated[str, StringConstraints(pattern=r"^@[A-Za-z0-9_]{1,15}$")] | None = None
    """Handle on X."""
    opted_out: bool = False
    """Asked not to receive pitches."""


class MediaList(Timestamped):
    """A named list of journalists to pitch."""

    id: MediaListId
    name: Title
    """The list's name."""
    owner_email: Email
    """The PR team member who owns it."""
    journalist_ids: tuple[JournalistId, ...] = ()
    """Members."""


class PressRelease(Timestamped):
    """A press release distributed on the wire."""

    id: ReleaseId
    headline: Title
    """Headline."""
    body: Text
    """Full text, including boilerplate."""
    author_email: Email
    """Who wrote it."""
    status: ReleaseStatus = "draft"
    """draft, scheduled, published or withdrawn."""
    circuit: Circuit = "national"
    """Distribution circuit."""
    release_at: DateTime | None = None
    """When it goes out (scheduled) or went out."""
    embargo_until: DateTime | None = None
    """Journalists may not publish before this time."""


class Pitch(Timestamped):
    """A pitch e-mailed to a media list, optionally about a release."""

    id: PitchId
    subject: Title
    """E-mail subject."""
    body: Text
    """The pitch."""
    media_list_id: MediaListId
    """Who it goes to."""
    press_release_id: ReleaseId | None = None
    """The release it pitches."""
    sender_email: Email
    """The PR person sending it."""
    status: Literal["draft", "sent"] = "draft"
    """draft or sent."""
    sent_at: DateTime | None = None
    """When it was sent."""
    recipient_ids: tuple[JournalistId, ...] = ()
    """Journalists it went to."""
    skipped: Quantity = 0
    """List members left out (opted out, or already pitched on the release)."""
    opens: Quantity = 0
    """Recipients who opened it."""


class Coverage(Created):
    """A clip: an article or segment that covered the company."""

    id: CoverageId
    url: Url
    """The article (unique)."""
    headline: Title
    """Its headline."""
    outlet_id: OutletId
    """Where it ran."""
    journalist_id: JournalistId | None = None
    """Who wrote it."""
    published_at: DateTime
    """When it ran."""
    press_release_id: ReleaseId | None = None
    """The release it covers."""
    sentiment: Sentiment = "neutral"
    """positive, neutral or negative."""
    reach: Quantity = 0
    """The outlet's monthly visitors when it ran."""
    embargo_broken: bool = False
    """It ran before the release's embargo lifted."""


class CoverageReport(Value):
    """Coverage totals over a period."""

    clips: Quantity
    """Clips."""
    total_reach: Quantity
    """Summed reach."""
    by_sentiment: dict[Sentiment, int]
    """Clips per sentiment."""
    outlets: Quantity
    """Distinct outlets."""
    embargo_breaks: Quantity
    """Clips that broke an embargo."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not on the team", field=field, hint="use an employee's e-mail")


def _guard_list(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_release(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status in ("published", "withdrawn") and new.status == old.status:
        raise RuleViolation(
            f"release {old.id} is {old.status}", field="press_release_id", hint="issue a new release instead"
        )
    if old is None:
        _staff(ctx, new.author_email, "author_email")


def _guard_pitch(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "sent":
        raise RuleViolation(f"pitch {old.id} was sent", field="pitch_id", hint="write a follow-up pitch")
    if old is None:
        _staff(ctx, new.sender_email, "sender_email")
    ctx.get(MediaList, new.media_list_id, field="media_list_id")
    if new.press_release_id is not None:
        ctx.get(PressRelease, new.press_release_id, field="press_release_id")


outlets = service.resource(
    Outlet,
    name="outlet",
    plural="outlets",
    prefix="out",
    create=("name", "outlet_type", "domain", "country", "monthly_visitors"),
    filters=("outlet_type", "country", "domain"),
    search=("name",),
    delete=False,
    unique=("name",),
)
journalists = service.resource(
    Journalist,
    name="journalist",
    plural="journalists",
    prefix="jour",
    create=("name", "email", "outlet_id", "title", "beats", "twitter_handle"),
    filters=("outlet_id", "opted_out", "email"),
    search=("name", "title", "email"),
    update=("outlet_id", "title", "beats", "twitter_handle", "opted_out"),
    delete=False,
    unique=("email",),
)
media_lists = service.resource(
    MediaList,
    name="media_list",
    plural="media_lists",
    prefix="ml",
    create=("name", "owner_email"),
    filters=("owner_email",),
    search=("name",),
    update=("name", "owner_email"),
    guard_create=_guard_list,
    guard_update=_guard_list,
    title="media list",
)
releases = service.resource(
    PressRelease,
    name="press_release",
    plural="press_releases",
    prefix="pr",
    create=("headline", "body", "author_email", "circuit"),
    filters=("status", "circuit", "author_email"),
    search=("headline", "body"),
    update=("headline", "body", "circuit"),
    delete=False,
    guard_create=_guard_release,
    guard_update=_guard_release,
    title="press release",
)
pitches = service.resource(
    Pitch,
    name="pitch",
    plural="pitches",
    prefix="pit",
    create=("subject", "body", "media_list_id", "press_release_id", "sender_email"),
    filters=("status", "media_list_id", "press_release_id", "sender_email"),
    search=("subject",),
    update=("subject", "body", "media_list_id", "press_release_id"),
    delete=False,
    guard_create=_guard_pitch,
    guard_update=_guard_pitch,
)
coverage = service.resource(
    Coverage,
    name="coverage",
    plural="coverage",
    prefix="clip",
    create=False,
    filters=("outlet_id", "journalist_id", "press_release_id", "sentiment", "embargo_broken"),
    search=("headline",),
    delete=False,
    unique=("url",),
    title="coverage clip",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="add journalists to the media list",
    write=True,
    example=first_example(MediaList, "media_list_id", journalist_ids=["jour_000001", "jour_000002"]),
)
def add_to_media_list(ctx: Ctx, media_list_id: MediaListId, journalist_ids: list[JournalistId]) -> MediaList:
    """Add journalists to a media list (those already on it are skipped).

    Args:
        media_list_id: The list.
        journalist_ids: Journalists to add (1-200).
    """
    ml = ctx.get(MediaList, media_list_id, field="media_list_id")
    if not 1 <= len(journalist_ids) <= 200:
        raise RuleViolation("give 1-200 journalists", field="journalist_ids", hint="split the list")
    for jid in journalist_ids:
        ctx.get(Journalist, jid, field="journalist_ids")
    new = [j for j in dict.fromkeys(journalist_ids) if j not in ml.journalist_ids]
    return ctx.update(ml, journalist_ids=(*ml.journalist_ids, *new))


@service.tool(
    intent="remove journalists from the media list",
    write=True,
    example=first_example(
        MediaList,
        "media_list_id",
        match=lambda ctx, m: bool(m.journalist_ids),
        fields={"journalist_ids": "journalist_ids"},
    ),
)
def remove_from_media_list(ctx: Ctx, media_list_id: MediaListId, journalist_ids: list[JournalistId]) -> MediaList:
    """Take journalists off a media list.

    Args:
        media_list_id: The list.
        journalist_ids: Members to remove.
    """
    ml = ctx.get(MediaList, media_list_id, field="media_list_id")
    missing = [j for j in journalist_ids if j not in ml.journalist_ids]
    if missing or not journalist_ids:
        raise RuleViolation(
            f"not on {ml.name!r}: {', '.join(missing) or 'none given'}", field="journalist_ids", hint="list the members"
        )
    return ctx.update(ml, journalist_ids=tuple(j for j in ml.journalist_ids if j not in journalist_ids))


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(PressRelease, status="draft")
    now = ctx.now()
    return (
        None
        if r is None
        else {
            "press_release_id": r.id,
            "release_at": (now + dt.timedelta(days=3)).isoformat(),
            "embargo_until": (now + dt.timedelta(days=2)).isoformat(),
        }
    )


@service.tool(intent="schedule the press release", write=True, example=_example_schedule)
def schedule_press_release(
    ctx: Ctx, press_release_id: ReleaseId, release_at: DateTime, embargo_until: DateTime | None = None
) -> PressRelease:
    """Schedule a draft (or re-time a scheduled) release for the wire, optionally under embargo.

    Args:
        press_release_id: The release.
        release_at: When it crosses the wire (in the future).
        embargo_until: Until when journalists pitched in advance must hold it; no later than release_at.
    """
    r = ctx.get(PressRelease, press_release_id, field="press_release_id")
    if r.status not in ("draft", "scheduled"):
        raise RuleViolation(f"release {r.id} is {r.status}", field="press_release_id", hint="issue a new release")
    if not r.body.strip():
        raise RuleViolation("the release has no body", field="press_release_id", hint="write it first")
    now = ctx.now()
    if release_at <= now:
        raise RuleViolation("release_at must be in the future", field="release_at", hint="publish now instead")
    if embargo_until is not None and not now < embargo_until <= release_at:
        raise RuleViolation(
            "the embargo must lift between now and the release time", field="embargo_until", hint="move it earlier"
        )
    return ctx.update(r, status="scheduled", release_at=release_at, embargo_until=embargo_until)


@service.tool(
    intent="publish the press release now",
    write=True,
    example=first_example(PressRelease, "press_release_id", where={"status": "scheduled"}),
)
def publish_press_release(ctx: Ctx, press_release_id: ReleaseId) -> PressRelease:
    """Send a draft or scheduled release over the wire now; any embargo lifts with it.

    Args:
        press_release_id: The release.
    """
    r = ctx.get(PressRelease, press_release_id, field="press_release_id")
    if r.status not in ("draft", "scheduled"):
        raise RuleViolation(f"release {r.id} is {r.status}", field="press_release_id", hint="nothing to publish")
    if not r.body.strip():
        raise RuleViolation("the release has no body", field="press_release_id", hint="write it first")
    now = ctx.now()
    embargo = r.embargo_until if r.embargo_until is not None and r.embargo_until < now else None
    return ctx.update(r, status="published", release_at=now, embargo_until=embargo)


@service.tool(
    intent="withdraw the press release",
    write=True,
    destructive=True,
    example=first_example(PressRelease, "press_release_id", where={"status": "scheduled"}),
)
def withdraw_press_release(ctx: Ctx, press_release_id: ReleaseId) -> PressRelease:
    """Withdraw a scheduled release, or a published one within 24 hours of going out.

    Args:
        press_release_id: The release.
    """
    r = ctx.get(PressRelease, press_release_id, field="press_release_id")
    if r.status == "published" and r.release_at is not None and ctx.now() - r.release_at > WITHDRAW_WINDOW:
        raise RuleViolation(
            f"release {r.id} went out more than 24 hours ago",
            field="press_release_id",
            hint="issue a correction release instead",
        )
    if r.status not in ("scheduled", "published"):
        raise RuleViolation(f"release {r.id} is {r.status}", field="press_release_id", hint="only sent-out ones")
    return ctx.update(r, status="withdrawn")


@service.tool(
    intent="send the pitch",
    write=True,
    example=first_example(Pitch, "pitch_id", where={"status": "draft"}),
)
def send_pitch(ctx: Ctx, pitch_id: PitchId) -> Pitch:
    """E-mail a draft pitch to its media list, skipping opted-out journalists and those already pitched on the release.

    Args:
        pitch_id: The pitch.
    """
    p = ctx.get(Pitch, pitch_id, field="pitch_id")
    if p.status == "sent":
        raise RuleViolation(f"pitch {p.id} was sent", field="pitch_id", hint="write a follow-up pitch")
    ml = ctx.get(MediaList, p.media_list_id)
    done: set[str] = set()
    if p.press_release_id is not None:
        r = ctx.get(PressRelease, p.press_release_id)
        if r.status not in ("scheduled", "published"):
            raise RuleViolation(
                f"release {r.id} is {r.status}", field="pitch_id", hint="schedule or publish the release first"
            )
        for other in ctx.where(Pitch, press_release_id=r.id, status="sent"):
            done.update(other.recipient_ids)
    to = [
        j for j in ml.journalist_ids if j not in done and (x := ctx.find(Journalist, j)) is not None and not x.opted_out
    ]
    if not to:
        raise RuleViolation(
            f"nobody on {ml.name!r} can be pitched", field="pitch_id", hint="add journalists who have not opted out"
        )
    return ctx.update(
        p, status="sent", sent_at=ctx.now(), recipient_ids=tuple(to), skipped=len(ml.journalist_ids) - len(to)
    )


def _example_clip(ctx: Ctx) -> dict[str, Any] | None:
    j = ctx.first(Journalist, opted_out=False)
    if j is None or j.outlet_id is None:
        return None
    return {
        "url": "https://news.example.com/2026/new-clip",
        "headline": f"{ctx.population.home.name} expands",
        "outlet_id": j.outlet_id,
        "journalist_id": j.id,
        "published_at": ctx.now().isoformat(),
        "sentiment": "positive",
    }


@service.tool(intent="log the coverage clip", write=True, example=_example_clip)
def log_coverage(
    ctx: Ctx,
    url: Url,
    headline: Title,
    outlet_id: OutletId,
    published_at: DateTime,
    journalist_id: JournalistId | None = None,
    press_release_id: ReleaseId | None = None,
    sentiment: Sentiment = "neutral",
) -> Coverage:
    """Add an article to the coverage report; running before the release's embargo lifted flags a break.

    Args:
        url: The article (unique).
        headline: Its headline.
        outlet_id: Where it ran.
        published_at: When it ran (not in the future).
        journalist_id: Who wrote it.
        press_release_id: The release it covers.
        sentiment: positive, neutral or negative.
    """
    outlet = ctx.get(Outlet, outlet_id, field="outlet_id")
    if journalist_id is not None:
        ctx.get(Journalist, journalist_id, field="journalist_id")
    if published_at > ctx.now():
        raise RuleViolation("published_at is in the future", field="published_at", hint="log it once it runs")
    broken = False
    if press_release_id is not None:
        r = ctx.get(PressRelease, press_release_id, field="press_release_id")
        if r.status == "draft":
            raise RuleViolation(f"release {r.id} is a draft", field="press_release_id", hint="it cannot be covered yet")
        lifts = r.embargo_until or r.release_at
        broken = lifts is not None and published_at < lifts
    if ctx.first(Coverage, url=url) is not None:
        raise Conflict(f"{url} is already logged", field="url", hint="it is in the report")
    return ctx.create(
        Coverage,
        url=url,
        headline=headline,
        outlet_id=outlet.id,
        journalist_id=journalist_id,
        published_at=published_at,
        press_release_id=press_release_id,
        sentiment=sentiment,
        reach=outlet.monthly_visitors,
        embargo_broken=broken,
    )


@service.tool(
    intent="report on the coverage",
    example=lambda ctx: {"since": (ctx.today() - dt.timedelta(days=90)).isoformat(), "until": ctx.today().isoformat()},
)
def coverage_report(ctx: Ctx, since: Date, until: Date, press_release_id: ReleaseId | None = None) -> CoverageReport:
    """Clips, reach, sentiment and embargo breaks between two days, optionally for one release.

    Args:
        since: First day.
        until: Last day.
        press_release_id: Only clips about this release.
    """
    if until < since:
        raise RuleViolation("until is before since", field="until", hint="swap the dates")
    clips = [
        c
        for c in ctx.scan(Coverage)
        if since <= c.published_at.date() <= until
        and (press_release_id is None or c.press_release_id == press_release_id)
    ]
    counts: dict[Sentiment, int] = {"positive": 0, "neutral": 0, "negative": 0}
    for c in clips:
        counts[c.sentiment] += 1
    return CoverageReport(
        clips=len(clips),
        total_reach=sum(c.reach for c in clips),
        by_sentiment=counts,
        outlets=len({c.outlet_id for c in clips}),
        embargo_breaks=sum(c.embargo_broken for c in clips),
    )


# -- seed -------------------------------------------------------------------------------------

OUTLETS: tuple[tuple[str, OutletType, str, str, int, tuple[str, ...]], ...] = (
    ("The Daily Ledger", "newspaper", "dailyledger.com", "US", 42_000_000, ("business", "markets")),
    ("TechWire", "online", "techwire.io", "US", 18_500_000, ("technology", "startups")),
    ("Retail Dive Weekly", "trade", "retaildiveweekly.com", "US", 2_100_000, ("retail", "e-commerce")),
    ("Economia Hoje", "magazine", "economiahoje.com.br", "BR", 6_400_000, ("business", "economy")),
    ("The Founders Show", "podcast", "foundersshow.fm", "GB", 350_000, ("startups", "leadership")),
    ("Metro Business Radio", "broadcast", "metrobizradio.com", "US", 1_200_000, ("business", "local")),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Outlets, journalists (freelancers among the world's people), media lists, releases, pitches and clips."""
    pop = s.population
    pr_team = pop.staff("Marketing", fallback=2)
    made_outlets = [
        s.create(Outlet, name=n, outlet_type=t, domain=d, country=c, monthly_visitors=v, created_at=s.ago(days=900))
        for n, t, d, c, v, _ in OUTLETS
    ]
    writers: list[Journalist] = []
    for k, p in enumerate(pop.consumers[-18:]):
        o = k % (len(OUTLETS) + 1)
        outlet = made_outlets[o] if o < len(OUTLETS) else None
        writers.append(
            s.create(
                Journalist,
                name=p.name,
                email=p.email,
                outlet_id=outlet.id if outlet else None,
                title=("Senior Reporter", "Editor", "Columnist", "Host")[k % 4] if outlet else "Freelance Journalist",
                beats=OUTLETS[o][5] if outlet else ("technology", "business"),
                twitter_handle=f"@{p.first_name.lower()}{p.last_name.lower()}"[:16].replace(" ", "").replace("'", ""),
                opted_out=k in (4, 11),
                created_at=s.ago(days=600 - 9 * k),
                updated_at=s.ago(days=30),
            )
        )
    lists = [
        s.create(
            MediaList,
            name=name,
            owner_email=pr_team[k % len(pr_team)].email,
            journalist_ids=tuple(j.id for j in members),
            created_at=s.ago(days=120),
            updated_at=s.ago(days=10),
        )
        for k, (name, members) in enumerate(
            (
                ("Tech & startups", [w for w in writers if "technology" in w.beats or "startups" in w.beats]),
                ("Business press", [w for w in writers if "business" in w.beats]),
                ("Brazil media", [w for w in writers if w.outlet_id == made_outlets[3].id]),
            )
        )
    ]
    home = pop.home.name
    ceo = pop.employees[0]
    boiler = f"About {home}: {home} builds software for teams worldwide. Media contact: {pr_team[0].email}."
    rel = []
    for k, (headline, status, release, embargo) in enumerate(
        (
            (f"{home} raises Series B to expand in Latin America", "published", s.ago(days=40), s.ago(days=41)),
            (f"{home} names new Chief Revenue Officer", "published", s.ago(days=12), None),
            (f"{home} launches AI assistant for operations teams", "scheduled", s.ago(days=-6), s.ago(days=-7)),
            (f"{home} partners with {pop.customers[0].name}", "draft", None, None),
        )
    ):
        rel.append(
            s.create(
                PressRelease,
                headline=headline,
                body=f'{headline}. "This is a milestone for us," said {ceo.name}, {ceo.job_title}. {boiler}',
                author_email=pr_team[k % len(pr_team)].email,
                status=status,
                circuit=("national", "global", "national", "regional")[k],
                release_at=release,
                embargo_until=embargo,
                created_at=s.ago(days=50 - 10 * k),
                updated_at=s.ago(days=5),
            )
        )
    for k, (subj, ml, r, sent) in enumerate(
        (
            ("Embargoed: Series B news", lists[1], rel[0], True),
            ("Exclusive briefing on our AI launch", lists[0], rel[2], True),
            ("AI launch: business angle", lists[1], rel[2], False),
            ("Story idea: remote ops teams in Brazil", lists[2], None, False),
        )
    ):
        ok = [j for j in ml.journalist_ids if not next(w for w in writers if w.id == j).opted_out] if sent else []
        s.create(
            Pitch,
            subject=subj,
            body=f"Hi, sharing this ahead of time: {r.headline if r else subj}. Happy to set up an interview.",
            media_list_id=ml.id,
            press_release_id=r.id if r else None,
            sender_email=pr_team[0].email,
            status="sent" if sent else "draft",
            sent_at=s.ago(days=42 - 30 * k) if sent else None,
            recipient_ids=tuple(ok),
            skipped=len(ml.journalist_ids) - len(ok) if sent else 0,
            opens=len(ok) // 2,
            created_at=s.ago(days=45 - 30 * k),
            updated_at=s.ago(days=2),
        )
    for k, w in enumerate(writers[:9]):
        if w.outlet_id is None or w.opted_out:
            continue
        outlet = next(o for o in made_outlets if o.id == w.outlet_id)
        r = rel[k % 2]
        when = (
            (r.release_at or s.now)
            + dt.timedelta(hours=3 + 20 * k)
            - (dt.timedelta(days=3) if k == 2 else dt.timedelta())
        )
        s.create(
            Coverage,
            url=f"https://www.{outlet.domain}/{2026}/{k:02d}/{r.id}",
            headline=f"{home}: {r.headline.split(' ', 1)[1]}",
            outlet_id=outlet.id,
            journalist_id=w.id,
            published_at=when,
            press_release_id=r.id,
            sentiment=("positive", "neutral", "positive", "negative")[k % 4],
            reach=outlet.monthly_visitors,
            embargo_broken=r.embargo_until is not None and when < r.embargo_until,
            created_at=when,
        )
