"""Airwave Podcasts: the company's podcast shows, episodes, private-feed subscribers and download analytics.

Modeled on the Transistor.fm API v1 (shows; episodes with create, update,
authorize_upload and audio_url, publish with status published, scheduled or
draft; private podcast subscribers with create, batch and delete; analytics
of downloads per day for a show and for an episode). An episode is a draft
until published or scheduled, and neither happens without its audio; a
scheduled time is in the future and a published episode can be taken back to
draft. Full episodes carry a number that is unique within their season;
trailers and bonus episodes may go without. Only drafts are deleted. Audio
uploads are MP3, M4A or WAV files of at most 500 MB and cannot replace the
audio of a published episode. Subscribers belong to private shows only, one
per e-mail, up to the show's subscriber limit; a private show does not turn
public. Analytics ranges run forward over at most 90 days, and an episode has
analytics only once published.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Language, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "podcasts",
    title="Airwave Podcasts",
    category="podcasting",
    modeled_on="Transistor.fm API v1 (shows, episodes with authorize_upload, publish/schedule/unpublish, private "
    "podcast subscribers, show and episode download analytics)",
    description="The company's podcasts: public and private shows, episodes from draft through scheduled to "
    "published with their audio, private-feed subscribers, and daily download analytics.",
)

ShowId = Annotated[str, IdOf("podcasts.show")]
EpisodeId = Annotated[str, IdOf("podcasts.episode")]
SubscriberId = Annotated[str, IdOf("podcasts.subscriber")]
StatId = Annotated[str, IdOf("podcasts.download_stat")]

EpisodeType = Literal["full", "trailer", "bonus"]
EpisodeStatus = Literal["draft", "scheduled", "published"]
AudioFile = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._ -]{1,120}\.(mp3|m4a|wav)$")]
"""An audio file name ending in .mp3, .m4a or .wav."""

MAX_AUDIO_BYTES = 500_000_000
MAX_RANGE_DAYS = 90
BITRATE_BYTES_PER_SECOND = 16_000
"""128 kbps MP3: how the duration follows from the file size."""


class Show(Timestamped):
    """A podcast show and its feed."""

    id: ShowId
    title: Title
    """Show title."""
    author: PersonName
    """The host named in the feed."""
    owner_email: Email
    """The staff member who owns the show."""
    website: Url
    """The show's page."""
    language: Language = "en"
    """Language."""
    private: bool = False
    """Whether the feed is private (only subscribers can listen)."""
    subscriber_limit: int = 0
    """How many private subscribers the plan allows (0 for public shows)."""
    feed_url: Url
    """The RSS feed."""


class Episode(Timestamped):
    """An episode of a show."""

    id: EpisodeId
    show_id: ShowId
    """The show."""
    title: Title
    """Episode title."""
    summary: Text = ""
    """Show notes."""
    type: EpisodeType = "full"
    """full, trailer or bonus."""
    season: Annotated[int, Field(ge=1, le=100)] = 1
    """Season number."""
    number: Annotated[int, Field(ge=1, le=10_000)] | None = None
    """Episode number, unique within the season (required for full episodes before publishing)."""
    status: EpisodeStatus = "draft"
    """draft, scheduled or published."""
    audio_url: Url | None = None
    """The uploaded audio."""
    duration: int = 0
    """Length in seconds."""
    scheduled_for: DateTime | None = None
    """When a scheduled episode goes out."""
    published_at: DateTime | None = None
    """When it was published."""


class Subscriber(Created):
    """A listener of a private show's feed."""

    id: SubscriberId
    show_id: ShowId
    """The private show."""
    email: Email
    """The listener's e-mail; unique per show."""
    feed_url: Url
    """Their personal feed."""


class DownloadStat(Record):
    """Downloads of one episode on one day."""

    id: StatId
    show_id: ShowId
    """The show."""
    episode_id: EpisodeId
    """The episode."""
    day: Date
    """The day."""
    downloads: int
    """Downloads that day."""


class DayCount(Value):
    """Downloads on one day."""

    date: Date
    """The day."""
    downloads: int
    """Downloads."""


class Analytics(Value):
    """Downloads per day over a range."""

    show_id: ShowId
    """The show."""
    episode_id: EpisodeId | None
    """The episode, for episode analytics."""
    start_date: Date
    """First day."""
    end_date: Date
    """Last day."""
    total_downloads: int
    """Sum over the range."""
    days: list[DayCount]
    """Every day of the range."""


# -- guards -----------------------------------------------------------------------------------


def _check_number(ctx: Ctx, new: Any) -> None:
    if new.number is None:
        return
    for other in ctx.where(Episode, show_id=new.show_id, season=new.season, number=new.number):
        if other.id != new.id:
            raise Conflict(
                f"season {new.season} already has episode {new.number}: {other.title} ({other.id})",
                field="number",
                hint="pick another number or season",
            )


def _guard_episode(ctx: Ctx, new: Any, old: Any) -> None:
    _check_number(ctx, new)
    if old is not None and old.status == "published" and (new.number, new.season) != (old.number, old.season):
        raise RuleViolation(
            "a published episode keeps its season and number",
            field="number",
            hint="unpublish it first with podcasts__unpublish_episode",
        )


def _guard_episode_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(
            f"only drafts are deleted; the episode is {old.status}",
            field="episode_id",
            hint="unpublish it first",
        )


def _guard_show(ctx: Ctx, new: Any, old: Any) -> None:
    if old.private and not new.private:
        raise RuleViolation(
            "a private show cannot be made public", field="private", hint="start a new public show instead"
        )
    if new.private and new.subscriber_limit == 0:
        ctx.update(new, subscriber_limit=100)


shows = service.resource(
    Show,
    name="show",
    plural="shows",
    prefix="show",
    create=False,
    get=False,
    filters=("private", "owner_email"),
    search=("title", "author"),
    update=("title", "author", "website", "private"),
    delete=False,
    guard_update=_guard_show,
)
episodes = service.resource(
    Episode,
    name="episode",
    plural="episodes",
    prefix="ep",
    create=("show_id", "title", "summary", "type", "season", "number"),
    filters=("show_id", "status", "season", "type"),
    search=("title", "summary"),
    update=("title", "summary", "season", "number"),
    delete=True,
    guard_create=_guard_episode,
    guard_update=_guard_episode,
    guard_delete=_guard_episode_delete,
)
subscribers = service.resource(
    Subscriber,
    name="subscriber",
    plural="subscribers",
    prefix="sub",
    create=False,
    get=False,
    filters=("show_id", "email"),
    delete=True,
)
stats = service.resource(
    DownloadStat,
    name="download_stat",
    plural="download_stats",
    prefix="dl",
    create=False,
    get=False,
    filters=None,
    delete=False,
)


# -- rules ------------------------------------------------------------------------------------


def _ready(ctx: Ctx, episode: Episode, field: str) -> None:
    """Refuse publishing or scheduling an episode without audio or, for a full episode, without a number."""
    if episode.audio_url is None:
        raise RuleViolation(
            f"'{episode.title}' has no audio", field=field, hint="upload it with podcasts__upload_audio first"
        )
    if episode.type == "full" and episode.number is None:
        raise RuleViolation(
            f"the full episode '{episode.title}' has no episode number",
            field=field,
            hint="set one with podcasts__update_episode",
        )


def _range(start_date: dt.date | None, end_date: dt.date | None, today: dt.date) -> tuple[dt.date, dt.date]:
    end = end_date or today
    start = start_date or end - dt.timedelta(days=13)
    if start > end:
        raise RuleViolation("the range runs backwards", field="start_date", hint="start on or before the end")
    if (end - start).days + 1 > MAX_RANGE_DAYS:
        raise RuleViolation("ranges cover at most 90 days", field="start_date", hint="ask for a shorter range")
    return start, end


def _days(rows: list[DownloadStat], start: dt.date, end: dt.date) -> list[DayCount]:
    per: dict[dt.date, int] = {}
    for r in rows:
        if start <= r.day <= end:
            per[r.day] = per.get(r.day, 0) + r.downloads
    span = (end - start).days + 1
    return [DayCount(date=d, downloads=per.get(d, 0)) for d in (start + dt.timedelta(days=n) for n in range(span))]


# -- examples ---------------------------------------------------------------------------------


def _has_audio(ctx: Ctx, e: Episode) -> bool:
    return e.audio_url is not None and (e.type != "full" or e.number is not None)


def _example_subscriber(ctx: Ctx) -> dict[str, Any] | None:
    show = ctx.first(Show, private=True)
    if show is None:
        return None
    known = {s.email for s in ctx.where(Subscriber, show_id=show.id)}
    person = next((p for p in ctx.population.employees if p.email not in known), None)
    return None if person is None else {"show_id": show.id, "email": person.email}


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for e in ctx.where(Episode, status="draft"):
        if _has_audio(ctx, e):
            when = ctx.now().replace(microsecond=0) + dt.timedelta(days=3)
            return {"episode_id": e.id, "scheduled_for": when.isoformat()}
    return None


# -- tools ------------------------------------------------------------------------------------


@service.tool(
    intent="upload the episode's audio",
    write=True,
    example=first_example(
        Episode, "episode_id", where={"status": "draft"}, filename="episode.mp3", file_size=48_000_000
    ),
)
def upload_audio(
    ctx: Ctx,
    episode_id: EpisodeId,
    filename: AudioFile,
    file_size: Annotated[int, Field(ge=1)],
) -> Episode:
    """Upload an episode's audio (authorize_upload, then set audio_url); the duration follows from the size.

    Args:
        episode_id: A draft or scheduled episode.
        filename: The file, .mp3, .m4a or .wav.
        file_size: Size in bytes (at most 500 MB).
    """
    episode = ctx.get(Episode, episode_id, field="episode_id")
    if episode.status == "published":
        raise RuleViolation(
            "the audio of a published episode cannot be replaced",
            field="episode_id",
            hint="unpublish it first with podcasts__unpublish_episode",
        )
    if file_size > MAX_AUDIO_BYTES:
        raise RuleViolation(
            f"{filename} is {file_size} bytes; uploads are at most 500 MB",
            field="file_size",
            hint="export at a lower bitrate",
        )
    url = f"https://media.airwave.fm/{episode.show_id}/{episode.id}/{filename.replace(' ', '_')}"
    return ctx.update(episode, audio_url=url, duration=max(1, file_size // BITRATE_BYTES_PER_SECOND))


@service.tool(
    intent="publish the episode",
    write=True,
    example=first_example(Episode, "episode_id", where={"status": "draft"}, match=_has_audio),
)
def publish_episode(ctx: Ctx, episode_id: EpisodeId) -> Episode:
    """Publish a draft or scheduled episode now; it needs its audio, and a full episode its number.

    Args:
        episode_id: The episode.
    """
    episode = ctx.get(Episode, episode_id, field="episode_id")
    if episode.status == "published":
        raise Conflict(f"'{episode.title}' is already published", field="episode_id", hint="nothing to do")
    _ready(ctx, episode, "episode_id")
    return ctx.update(episode, status="published", published_at=ctx.now(), scheduled_for=None)


@service.tool(intent="schedule the episode", write=True, example=_example_schedule)
def schedule_episode(ctx: Ctx, episode_id: EpisodeId, scheduled_for: DateTime) -> Episode:
    """Schedule a draft (or move a scheduled episode) to go out at a future time; it needs its audio.

    Args:
        episode_id: The episode.
        scheduled_for: When it goes out (RFC 3339, in the future).
    """
    episode = ctx.get(Episode, episode_id, field="episode_id")
    if episode.status == "published":
        raise RuleViolation(
            f"'{episode.title}' is already published", field="episode_id", hint="unpublish it first to reschedule"
        )
    _ready(ctx, episode, "episode_id")
    if scheduled_for <= ctx.now():
        raise RuleViolation("the time has passed", field="scheduled_for", hint="publish it now instead")
    return ctx.update(episode, status="scheduled", scheduled_for=scheduled_for)


@service.tool(
    intent="unpublish the episode",
    write=True,
    example=first_example(Episode, "episode_id", where={"status": "published"}),
)
def unpublish_episode(ctx: Ctx, episode_id: EpisodeId) -> Episode:
    """Take a published or scheduled episode back to draft (it leaves the feed).

    Args:
        episode_id: The episode.
    """
    episode = ctx.get(Episode, episode_id, field="episode_id")
    if episode.status == "draft":
        raise Conflict(f"'{episode.title}' is a draft already", field="episode_id", hint="nothing to do")
    return ctx.update(episode, status="draft", published_at=None, scheduled_for=None)


@service.tool(intent="add a subscriber to the private podcast", write=True, example=_example_subscriber)
def create_subscriber(ctx: Ctx, show_id: ShowId, email: Email) -> Subscriber:
    """Give a listener a personal feed of a private show; one per e-mail, up to the show's limit.

    Args:
        show_id: The private show.
        email: The listener's e-mail.
    """
    show = ctx.get(Show, show_id, field="show_id")
    if not show.private:
        raise RuleViolation(f"{show.title} is public", field="show_id", hint="anyone can follow its public feed")
    if ctx.first(Subscriber, show_id=show.id, email=email) is not None:
        raise Conflict(f"{email} already subscribes", field="email", hint="nothing to do")
    count = len(ctx.where(Subscriber, show_id=show.id))
    if count >= show.subscriber_limit:
        raise RuleViolation(
            f"{show.title} has reached its limit of {show.subscriber_limit} subscribers",
            field="show_id",
            hint="remove a subscriber first",
        )
    made = ctx.create(Subscriber, show_id=show.id, email=email, feed_url="https://feeds.airwave.fm/pending")
    return ctx.update(made, feed_url=f"https://feeds.airwave.fm/private/{made.id}")


@service.tool(intent="see the show's downloads", example=first_example(Show, "show_id"))
def show_analytics(
    ctx: Ctx, show_id: ShowId, start_date: Date | None = None, end_date: Date | None = None
) -> Analytics:
    """A show's downloads per day (default: the last 14 days; at most 90 days).

    Args:
        show_id: The show.
        start_date: First day.
        end_date: Last day (default today).
    """
    show = ctx.get(Show, show_id, field="show_id")
    start, end = _range(start_date, end_date, ctx.today())
    days = _days(ctx.where(DownloadStat, show_id=show.id), start, end)
    return Analytics(
        show_id=show.id,
        episode_id=None,
        start_date=start,
        end_date=end,
        total_downloads=sum(d.downloads for d in days),
        days=days,
    )


@service.tool(
    intent="see the episode's downloads",
    example=first_example(Episode, "episode_id", where={"status": "published"}),
)
def episode_analytics(
    ctx: Ctx, episode_id: EpisodeId, start_date: Date | None = None, end_date: Date | None = None
) -> Analytics:
    """A published episode's downloads per day (default: the last 14 days; at most 90 days).

    Args:
        episode_id: The published episode.
        start_date: First day.
        end_date: Last day (default today).
    """
    episode = ctx.get(Episode, episode_id, field="episode_id")
    if episode.status != "published":
        raise RuleViolation(
            f"'{episode.title}' is {episode.status}", field="episode_id", hint="analytics start once it is published"
        )
    start, end = _range(start_date, end_date, ctx.today())
    days = _days(ctx.where(DownloadStat, episode_id=episode.id), start, end)
    return Analytics(
        show_id=episode.show_id,
        episode_id=episode.id,
        start_date=start,
        end_date=end,
        total_downloads=sum(d.downloads for d in days),
        days=days,
    )


# -- seed -------------------------------------------------------------------------------------

SHOWS: tuple[tuple[str, bool, int], ...] = (
    ("Build in Public", False, 0),
    ("Customer Stories", False, 0),
    ("Inside the Company (staff only)", True, 12),
)
"""Title, private, subscriber limit."""
TOPICS = (
    "How we ship every week",
    "Pricing lessons",
    "Scaling support",
    "Hiring our first designer",
    "What customers taught us",
    "Migrating to the cloud",
    "A year of remote work",
    "Security basics for startups",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two public shows and a private staff show, seasons of episodes in every state, subscribers, downloads."""
    pop = s.population
    hosts = pop.staff("Marketing", "Sales", "People", fallback=3)
    domain = pop.home.domain
    for n, (title, private, limit) in enumerate(SHOWS):
        host = hosts[n % len(hosts)]
        show = s.create(
            Show,
            title=title,
            author=host.name,
            owner_email=host.email,
            website=f"https://{domain}/podcast/{n + 1}",
            private=private,
            subscriber_limit=limit,
            feed_url=f"https://feeds.airwave.fm/show-{n + 1}",
            created_at=s.now - dt.timedelta(days=400 - 50 * n),
            updated_at=s.now - dt.timedelta(days=20),
        )
        _seed_episodes(s, show, n)
        if private:
            for k, p in enumerate(pop.employees[: limit - 2]):
                sub = s.create(
                    Subscriber,
                    show_id=show.id,
                    email=p.email,
                    feed_url="https://feeds.airwave.fm/pending",
                    created_at=s.now - dt.timedelta(days=90 - k),
                )
                s.update(sub, feed_url=f"https://feeds.airwave.fm/private/{sub.id}")


def _seed_episodes(s: SeedContext, show: Show, n: int) -> None:
    """Published episodes over two seasons with daily downloads, one scheduled, drafts with and without audio."""
    today = s.now.date()
    plan: list[tuple[int, int | None, EpisodeType, EpisodeStatus, bool]] = [
        (1, None, "trailer", "published", True),
        (1, 1, "full", "published", True),
        (1, 2, "full", "published", True),
        (1, 3, "full", "published", True),
        (2, 1, "full", "published", True),
        (2, 2, "full", "scheduled", True),
        (2, 3, "full", "draft", True),
        (2, None, "bonus", "draft", False),
        (2, 4, "full", "draft", False),
    ]
    for k, (season, number, kind, status, audio) in enumerate(plan):
        created = s.now - dt.timedelta(days=200 - 20 * k)
        published = created + dt.timedelta(days=2) if status == "published" else None
        episode = s.create(
            Episode,
            show_id=show.id,
            title=f"{TOPICS[(k + n) % len(TOPICS)]}" if kind == "full" else f"{show.title}: {kind}",
            summary=f"Season {season}" + (f", episode {number}" if number else ""),
            type=kind,
            season=season,
            number=number,
            status=status,
            audio_url=f"https://media.airwave.fm/{show.id}/ep{k}.mp3" if audio else None,
            duration=1800 + 120 * k if audio else 0,
            scheduled_for=s.now + dt.timedelta(days=4) if status == "scheduled" else None,
            published_at=published,
            created_at=created,
            updated_at=created + dt.timedelta(days=2),
        )
        if published is None:
            continue
        first = max(published.date(), today - dt.timedelta(days=59))
        for d in range((today - first).days + 1):
            day = first + dt.timedelta(days=d)
            s.create(
                DownloadStat,
                show_id=show.id,
                episode_id=episode.id,
                day=day,
                downloads=5 + (17 * (k + 1) + 7 * d + 3 * n) % 40,
            )
