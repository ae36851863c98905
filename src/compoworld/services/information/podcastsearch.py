"""Podindex: podcast search and discovery (podcasts, episodes, best by genre, curated lists) and team playlists.

Modeled on the Listen Notes Podcast API v2 (``/search`` with ``q``, ``type`` episode or podcast,
``genre_ids``, ``len_min``, ``len_max``, ``published_after``, ``sort_by_date`` and ``offset``;
``/typeahead``; ``/podcasts/{id}`` with ``listen_score``, ``listennotes_url``, ``total_episodes``,
``latest_pub_date_ms``; ``/episodes/{id}`` with ``audio_length_sec`` and ``explicit_content``;
``/best_podcasts`` by ``genre_id`` and ``region``; ``/genres``; ``/curated_podcasts``;
``/podcasts/{id}/recommendations``) and its playlists (``/playlists``: Listen Later lists of
episodes and podcasts), kept here for a team.

An open-world service: the podcast index is a deterministic draw from the world seed: shows by
the world's companies (their people as hosts and guests) and independent shows across genres,
publishing on a fixed weekday every one or two weeks up to today, with listen scores from which
the global rank follows. Stored state is the team's playlists: kept by an employee, an item
once per playlist and at most 100, positions kept dense (1..n) when items are added, moved or
removed, and an archived playlist frozen.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, Date, DateTime, Email, IdOf, SemanticType, Text, Title, Url
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "podcastsearch",
    title="Podindex",
    category="podcast_data",
    modeled_on="Listen Notes Podcast API v2 (search, typeahead, podcasts, episodes, best_podcasts, genres, "
    "curated_podcasts, recommendations, playlists)",
    description="Podcast search: find podcasts and episodes by keywords, genre, length and date, read a podcast with "
    "its episodes, see the best podcasts of a genre and region, curated lists and recommendations, and keep the "
    "team's playlists of episodes and podcasts.",
)

PodcastId = Annotated[str, SemanticType("podcast.id", kind="ref"), StringConstraints(pattern=r"^[0-9a-f]{32}$")]
EpisodeId = Annotated[str, SemanticType("podcast.episode", kind="ref"), StringConstraints(pattern=r"^[0-9a-f]{32}$")]
CuratedId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9]{11}$")]
PlaylistId = Annotated[str, IdOf("podcastsearch.playlist")]
ItemId = Annotated[str, IdOf("podcastsearch.item")]
Query = Annotated[str, StringConstraints(min_length=2, max_length=120)]
GenreId = Annotated[int, Field(ge=1, le=999)]
MAX_ITEMS = 100

_GENRES: dict[int, tuple[str, int | None]] = {
    93: ("Business", None),
    171: ("Entrepreneurship", 93),
    97: ("Investing", 93),
    127: ("Technology", None),
    107: ("Science", None),
    88: ("Health & Fitness", None),
    111: ("Education", None),
    99: ("News", None),
    122: ("Society & Culture", None),
    77: ("Sports", None),
    135: ("True Crime", None),
}
_TOPICS: dict[int, tuple[str, ...]] = {
    93: ("pricing strategy", "hiring your first manager", "supply chains", "remote teams", "customer retention"),
    171: ("bootstrapping", "first sales hire", "fundraising rounds", "founder burnout", "finding product fit"),
    97: ("index funds", "interest rates", "dividend stocks", "bond ladders", "market cycles"),
    127: ("open source", "cloud costs", "AI assistants", "security breaches", "developer tools"),
    107: ("black holes", "gene editing", "climate models", "the deep ocean", "quantum computing"),
    88: ("sleep science", "strength training", "running injuries", "nutrition myths", "mindfulness"),
    111: ("learning languages", "study habits", "teaching math", "online courses", "memory"),
    99: ("the week in review", "elections", "trade policy", "city budgets", "energy prices"),
    122: ("family history", "urban life", "friendship", "work and meaning", "migration"),
    77: ("the transfer window", "marathon training", "tennis rivalries", "fantasy leagues", "coaching"),
    135: ("a cold case", "art forgery", "a bank heist", "con artists", "a missing heiress"),
}
_SHOWS = (
    ("The Weekly Ledger", 97),
    ("Build Mode", 171),
    ("Stack Trace Radio", 127),
    ("Lab Notes", 107),
    ("Move Better", 88),
    ("Teach Me Twice", 111),
    ("Morning Brief", 99),
    ("Open Kitchen Table", 122),
    ("Full Time Whistle", 77),
    ("Case Closed?", 135),
    ("Margin Call", 93),
    ("Ship It Friday", 127),
    ("Small Giants", 171),
    ("Curious Universe", 107),
    ("The Long Run", 88),
    ("Unsolved Files", 135),
)
_INDIE = ("Harbor Audio", "Northlight Media", "Pod Collective", "Wavelength Studios")


@dataclass(frozen=True, slots=True)
class _Episode:
    id: str
    podcast_id: str
    number: int
    title: str
    description: str
    pub: dt.datetime
    length: int
    explicit: bool
    guest: str | None


@dataclass(frozen=True, slots=True)
class _Podcast:
    id: str
    title: str
    publisher: str
    description: str
    genre_ids: tuple[int, ...]
    country: str
    language: str
    score: int
    explicit: bool
    host: str
    email: str | None
    episodes: tuple[_Episode, ...]


@dataclass(frozen=True, slots=True)
class _Curated:
    id: str
    title: str
    description: str
    podcast_ids: tuple[str, ...]
    published: dt.date


@dataclass(frozen=True, slots=True)
class _Index:
    podcasts: dict[str, _Podcast]
    episodes: dict[str, _Episode]
    curated: dict[str, _Curated]


def _hex(r: random.Random) -> str:
    return f"{r.getrandbits(128):032x}"


@per_population
def _index_of(pop: Population, today: dt.date) -> _Index:
    r = random.Random(f"podcastsearch:{pop.seed}")
    shows: list[tuple[str, int, str, str, str | None, str, str]] = []
    for company in pop.companies[:6]:
        people = pop.staff("Marketing", "Sales", fallback=2) if company.home else list(pop.people_at(company)[:2])
        lead = people[0] if people else pop.people[0]
        shows.append(
            (
                f"The {company.name} Podcast",
                93,
                company.name,
                lead.name,
                lead.email,
                company.place.country,
                company.place.language,
            )
        )
    for k, (title, genre) in enumerate(_SHOWS):
        who = pop.consumers[k % len(pop.consumers)] if pop.consumers else pop.people[k % len(pop.people)]
        shows.append((title, genre, _INDIE[k % len(_INDIE)], who.name, None, who.place.country, "en"))
    guests = [p for p in pop.people if p.role != "consumer"]
    podcasts: dict[str, _Podcast] = {}
    episodes: dict[str, _Episode] = {}
    for title, genre, publisher, host, email, country, lang in shows:
        pid = _hex(r)
        parent = _GENRES[genre][1]
        topics = _TOPICS[genre]
        cadence = r.choice((7, 7, 14))
        start = today - dt.timedelta(days=r.randint(120, 800))
        start += dt.timedelta(days=(r.randint(0, 4) - start.weekday()) % 7)
        explicit = genre == 135 and r.random() < 0.5
        eps: list[_Episode] = []
        day, n = start, 1
        hour = r.choice((5, 10, 14))
        while day < today:  # published up to yesterday
            topic = topics[(n + r.randint(0, 4)) % len(topics)]
            guest = r.choice(guests) if guests and r.random() < 0.5 else None
            with_guest = f" with {guest.name}, {guest.job_title}" if guest else ""
            eid = _hex(r)
            eps.append(
                _Episode(
                    id=eid,
                    podcast_id=pid,
                    number=n,
                    title=f"{n}. {topic.capitalize()}{with_guest}",
                    description=f"{host} talks about {topic}{with_guest} on {title}.",
                    pub=dt.datetime.combine(day, dt.time(hour), tzinfo=dt.UTC),
                    length=r.randint(15, 80) * 60,
                    explicit=explicit,
                    guest=guest.name if guest else None,
                )
            )
            day += dt.timedelta(days=cadence)
            n += 1
        for e in eps:
            episodes[e.id] = e
        podcasts[pid] = _Podcast(
            id=pid,
            title=title,
            publisher=publisher,
            description=f"{title}: conversations about {', '.join(topics[:3])}. Hosted by {host}.",
            genre_ids=(genre, parent) if parent else (genre,),
            country=country,
            language=lang,
            score=r.randint(20, 90),
            explicit=explicit,
            host=host,
            email=email,
            episodes=tuple(eps),
        )
    curated: dict[str, _Curated] = {}
    for genre in (93, 127, 88, 135):
        members = sorted((p for p in podcasts.values() if genre in p.genre_ids), key=lambda p: (-p.score, p.id))
        cid = "".join(r.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789") for _ in range(11))
        name = _GENRES[genre][0]
        curated[cid] = _Curated(
            id=cid,
            title=f"Best {name} podcasts of {today.year - 1}",
            description=f"Our editors' picks of {name.lower()} shows worth your commute.",
            podcast_ids=tuple(p.id for p in members[:8]),
            published=dt.date(today.year - 1, 12, 1 + len(curated)),
        )
    return _Index(podcasts, episodes, curated)


def _idx(ctx: Ctx) -> _Index:
    return _index_of(ctx.population, ctx.today())


def _rank(score: int) -> str:
    for bound, rank in ((85, "0.01%"), (75, "0.1%"), (65, "0.5%"), (55, "1%"), (45, "2.5%"), (35, "5%")):
        if score >= bound:
            return rank
    return "10%"


def _get_podcast(ctx: Ctx, podcast_id: str, field: str = "podcast_id") -> _Podcast:
    p = _idx(ctx).podcasts.get(podcast_id)
    if p is None:
        raise NotFound(f"no podcast {podcast_id}", field=field, hint="search with podcastsearch__search")
    return p


def _get_episode(ctx: Ctx, episode_id: str, field: str = "episode_id") -> _Episode:
    e = _idx(ctx).episodes.get(episode_id)
    if e is None:
        raise NotFound(f"no episode {episode_id}", field=field, hint="list a podcast's episodes first")
    return e


def _check_genre(genre_id: int, field: str = "genre_id") -> None:
    if genre_id not in _GENRES:
        raise NotFound(f"no genre {genre_id}", field=field, hint="list genres with podcastsearch__list_genres")


# -- result models -----------------------------------------------------------------------------------------


class Podcast(BaseModel):
    """A podcast."""

    id: PodcastId = Field(description="Listen Notes podcast id.")
    title: str = Field(description="Title.")
    publisher: str = Field(description="Publisher.")
    host: str = Field(description="Host's name.")
    email: Email | None = Field(description="Contact e-mail of the show, when it publishes one.")
    description: str = Field(description="Description.")
    genre_ids: list[int] = Field(description="Genre ids (with parents).")
    country: Country = Field(description="Country.")
    language: str = Field(description="Language code.")
    listen_score: int = Field(description="Popularity, 0-100.")
    listen_score_global_rank: str = Field(description="Top percentile by listen score (0.5%).")
    explicit_content: bool = Field(description="Explicit content.")
    total_episodes: int = Field(description="Episodes published.")
    earliest_pub_date: DateTime = Field(description="First episode.")
    latest_pub_date: DateTime = Field(description="Latest episode.")
    listennotes_url: Url = Field(description="Page of the podcast.")


class Episode(BaseModel):
    """An episode."""

    id: EpisodeId = Field(description="Listen Notes episode id.")
    podcast_id: PodcastId = Field(description="Its podcast.")
    podcast_title: str = Field(description="Podcast title.")
    title: str = Field(description="Title.")
    description: str = Field(description="Description.")
    pub_date: DateTime = Field(description="Published.")
    audio_length_sec: int = Field(description="Length in seconds.")
    explicit_content: bool = Field(description="Explicit content.")
    guest: str | None = Field(description="Guest's name, if any.")
    listennotes_url: Url = Field(description="Page of the episode.")


class SearchResult(BaseModel):
    """A page of search results."""

    count: int = Field(description="Results on this page.")
    total: int = Field(description="Results in all.")
    next_offset: int | None = Field(description="Offset of the next page; none on the last.")
    podcasts: list[Podcast] = Field(description="Podcasts found (type podcast).")
    episodes: list[Episode] = Field(description="Episodes found (type episode).")


class Genre(BaseModel):
    """A genre."""

    id: int = Field(description="Genre id.")
    name: str = Field(description="Name.")
    parent_id: int | None = Field(description="Parent genre.")


class CuratedList(BaseModel):
    """An editors' curated list."""

    id: CuratedId = Field(description="List id.")
    title: str = Field(description="Title.")
    description: str = Field(description="Description.")
    pub_date: Date = Field(description="Published.")
    podcasts: list[Podcast] = Field(description="Its podcasts, in order.")


class Typeahead(BaseModel):
    """Typeahead suggestions."""

    terms: list[str] = Field(description="Search terms starting with the text.")
    genres: list[Genre] = Field(description="Genres starting with the text.")
    podcasts: list[Podcast] = Field(description="Podcasts whose title starts with the text.")


def _podcast(p: _Podcast) -> Podcast:
    return Podcast(
        id=p.id,
        title=p.title,
        publisher=p.publisher,
        host=p.host,
        email=p.email,
        description=p.description,
        genre_ids=list(p.genre_ids),
        country=p.country,
        language=p.language,
        listen_score=p.score,
        listen_score_global_rank=_rank(p.score),
        explicit_content=p.explicit,
        total_episodes=len(p.episodes),
        earliest_pub_date=p.episodes[0].pub,
        latest_pub_date=p.episodes[-1].pub,
        listennotes_url=f"https://www.listennotes.com/podcasts/{p.id}/",
    )


def _episode(ctx: Ctx, e: _Episode) -> Episode:
    return Episode(
        id=e.id,
        podcast_id=e.podcast_id,
        podcast_title=_idx(ctx).podcasts[e.podcast_id].title,
        title=e.title,
        description=e.description,
        pub_date=e.pub,
        audio_length_sec=e.length,
        explicit_content=e.explicit,
        guest=e.guest,
        listennotes_url=f"https://www.listennotes.com/e/{e.id}/",
    )


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search podcasts and episodes", open_world=True, example=fixed_example(q="pricing"))
def search(
    ctx: Ctx,
    q: Query,
    type: Literal["episode", "podcast"] = "episode",
    genre_ids: Annotated[list[GenreId], Field(max_length=10)] | None = None,
    len_min: Annotated[int, Field(ge=0, le=600)] | None = None,
    len_max: Annotated[int, Field(ge=0, le=600)] | None = None,
    published_after: Date | None = None,
    published_before: Date | None = None,
    safe_mode: bool = False,
    sort_by_date: bool = False,
    offset: Annotated[int, Field(ge=0, le=10_000)] = 0,
) -> SearchResult:
    """Full-text search of episodes or podcasts; all the words must appear (/search), ten per page.

    Args:
        q: Search words (title, description, host, publisher).
        type: episode (default) or podcast.
        genre_ids: Only these genres (a parent genre includes its children).
        len_min: Episodes at least this many minutes long.
        len_max: Episodes at most this many minutes long.
        published_after: Published on or after this date (episodes; podcasts by latest episode).
        published_before: Published on or before this date.
        safe_mode: Leave out explicit content.
        sort_by_date: Newest first instead of by relevance (listen score).
        offset: Offset for paging (from next_offset).
    """
    for i, g in enumerate(genre_ids or []):
        _check_genre(g, f"genre_ids.{i}")
    if len_min is not None and len_max is not None and len_max < len_min:
        raise RuleViolation("len_max is below len_min", field="len_max", hint="swap the bounds")
    if published_after and published_before and published_before < published_after:
        raise RuleViolation("published_before is before published_after", field="published_before", hint="swap")
    idx = _idx(ctx)
    words = fold(q).split()
    genres = set(genre_ids or [])

    def ok_podcast(p: _Podcast) -> bool:
        return (not genres or bool(genres & set(p.genre_ids))) and not (safe_mode and p.explicit)

    def in_dates(t: dt.datetime) -> bool:
        d = t.date()
        return (published_after is None or d >= published_after) and (published_before is None or d <= published_before)

    if type == "podcast":
        pods = [
            p
            for p in idx.podcasts.values()
            if ok_podcast(p)
            and all(w in fold(f"{p.title} {p.description} {p.publisher}").split() for w in words)
            and in_dates(p.episodes[-1].pub)
        ]
        pods.sort(
            key=(lambda p: (p.episodes[-1].pub, p.id)) if sort_by_date else (lambda p: (-p.score, p.id)),
            reverse=sort_by_date,
        )
        page = pods[offset : offset + 10]
        nxt = offset + 10 if offset + 10 < len(pods) else None
        return SearchResult(
            count=len(page), total=len(pods), next_offset=nxt, podcasts=[_podcast(p) for p in page], episodes=[]
        )
    eps = [
        e
        for e in idx.episodes.values()
        if ok_podcast(idx.podcasts[e.podcast_id])
        and all(w in fold(f"{e.title} {e.description}").split() for w in words)
        and (len_min is None or e.length >= len_min * 60)
        and (len_max is None or e.length <= len_max * 60)
        and in_dates(e.pub)
    ]
    if sort_by_date:
        eps.sort(key=lambda e: (e.pub, e.id), reverse=True)
    else:
        eps.sort(key=lambda e: (-idx.podcasts[e.podcast_id].score, -e.pub.timestamp(), e.id))
    page_e = eps[offset : offset + 10]
    nxt = offset + 10 if offset + 10 < len(eps) else None
    return SearchResult(
        count=len(page_e), total=len(eps), next_offset=nxt, podcasts=[], episodes=[_episode(ctx, e) for e in page_e]
    )


@service.tool(intent="suggest search terms", open_world=True, example=fixed_example(q="bu"))
def typeahead(
    ctx: Ctx, q: Annotated[str, StringConstraints(min_length=1, max_length=60)], show_podcasts: bool = True
) -> Typeahead:
    """Suggest search terms, genres and podcasts that start with what was typed (/typeahead).

    Args:
        q: What was typed.
        show_podcasts: Also suggest podcasts.
    """
    key = fold(q)
    idx = _idx(ctx)
    topics = sorted({t for ts in _TOPICS.values() for t in ts if fold(t).startswith(key)})
    genres = [Genre(id=g, name=n, parent_id=p) for g, (n, p) in _GENRES.items() if fold(n).startswith(key)]
    pods = [_podcast(p) for p in idx.podcasts.values() if show_podcasts and fold(p.title).startswith(key)][:5]
    return Typeahead(terms=topics[:8], genres=genres, podcasts=pods)


def _example_podcast(ctx: Ctx) -> dict[str, Any]:
    return {"podcast_id": next(iter(_idx(ctx).podcasts))}


@service.tool(intent="get the podcast", open_world=True, example=_example_podcast)
def get_podcast(ctx: Ctx, podcast_id: PodcastId) -> Podcast:
    """Get a podcast's metadata: publisher, host, genres, listen score and rank, episode count and dates.

    Args:
        podcast_id: The podcast id.
    """
    return _podcast(_get_podcast(ctx, podcast_id))


@service.tool(intent="list the podcast's episodes", open_world=True, example=_example_podcast)
def list_episodes(
    ctx: Ctx,
    podcast_id: PodcastId,
    sort: Literal["recent_first", "oldest_first"] = "recent_first",
    limit: Annotated[int, Field(ge=1, le=50)] = 10,
    published_before: DateTime | None = None,
) -> list[Episode]:
    """List a podcast's episodes (/podcasts/{id}), ten at a time; page back with the last pub_date.

    Args:
        podcast_id: The podcast id.
        sort: recent_first or oldest_first.
        limit: Most episodes.
        published_before: Only episodes published before this time (for paging).
    """
    p = _get_podcast(ctx, podcast_id)
    eps = [e for e in p.episodes if published_before is None or e.pub < published_before]
    if sort == "recent_first":
        eps = list(reversed(eps))
    return [_episode(ctx, e) for e in eps[:limit]]


def _example_episode(ctx: Ctx) -> dict[str, Any]:
    return {"episode_id": next(iter(_idx(ctx).episodes))}


@service.tool(intent="get the episode", open_world=True, example=_example_episode)
def get_episode(ctx: Ctx, episode_id: EpisodeId) -> Episode:
    """Get an episode: title, description, date, length, guest and podcast.

    Args:
        episode_id: The episode id.
    """
    return _episode(ctx, _get_episode(ctx, episode_id))


@service.tool(intent="list the best podcasts", open_world=True, example=fixed_example(genre_id=93))
def best_podcasts(
    ctx: Ctx, genre_id: GenreId | None = None, region: Country | None = None, safe_mode: bool = False
) -> list[Podcast]:
    """List the best podcasts by listen score, of a genre (with its children) and a region (/best_podcasts).

    Args:
        genre_id: Genre id (default: all).
        region: Country of the podcasts.
        safe_mode: Leave out explicit content.
    """
    if genre_id is not None:
        _check_genre(genre_id)
    found = [
        p
        for p in _idx(ctx).podcasts.values()
        if (genre_id is None or genre_id in p.genre_ids)
        and region in (None, p.country)
        and not (safe_mode and p.explicit)
    ]
    return [_podcast(p) for p in sorted(found, key=lambda p: (-p.score, p.id))[:20]]


@service.tool(intent="list podcast genres", open_world=True)
def list_genres(ctx: Ctx, top_level_only: bool = False) -> list[Genre]:
    """List the genres with their parents (/genres).

    Args:
        top_level_only: Only genres without a parent.
    """
    return [Genre(id=g, name=n, parent_id=p) for g, (n, p) in sorted(_GENRES.items()) if not (top_level_only and p)]


def _curated(ctx: Ctx, c: _Curated) -> CuratedList:
    pods = _idx(ctx).podcasts
    return CuratedList(
        id=c.id,
        title=c.title,
        description=c.description,
        pub_date=c.published,
        podcasts=[_podcast(pods[p]) for p in c.podcast_ids],
    )


@service.tool(intent="list curated podcast lists", open_world=True)
def list_curated_lists(ctx: Ctx) -> list[CuratedList]:
    """List the editors' curated lists of podcasts, newest first (/curated_podcasts)."""
    return [_curated(ctx, c) for c in sorted(_idx(ctx).curated.values(), key=lambda c: c.published, reverse=True)]


@service.tool(intent="recommend similar podcasts", open_world=True, example=_example_podcast)
def get_recommendations(ctx: Ctx, podcast_id: PodcastId, safe_mode: bool = False) -> list[Podcast]:
    """Recommend up to eight podcasts sharing a genre with a podcast, best first (/podcasts/{id}/recommendations).

    Args:
        podcast_id: The podcast id.
        safe_mode: Leave out explicit content.
    """
    p = _get_podcast(ctx, podcast_id)
    found = [
        o
        for o in _idx(ctx).podcasts.values()
        if o.id != p.id and set(o.genre_ids) & set(p.genre_ids) and not (safe_mode and o.explicit)
    ]
    return [_podcast(o) for o in sorted(found, key=lambda o: (-o.score, o.id))[:8]]


# -- playlists ---------------------------------------------------------------------------------------------


class Playlist(Timestamped):
    """A team playlist of episodes and podcasts."""

    id: PlaylistId
    name: Title
    """Its name."""
    owner_email: Email
    """The employee who keeps it."""
    description: Text = ""
    """What it is for."""
    visibility: Literal["private", "team"] = "team"
    """private or team."""
    status: Literal["active", "archived"] = "active"
    """active, or archived (frozen)."""


class Item(Timestamped):
    """An episode or podcast in a playlist."""

    id: ItemId
    playlist_id: PlaylistId
    """The playlist."""
    kind: Literal["episode", "podcast"]
    """episode or podcast."""
    ref_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")]
    """The episode or podcast id."""
    title: str
    """Its title."""
    position: int
    """1-based position."""
    added_by: Email
    """Who added it."""
    note: Text = ""
    """Why it is worth a listen."""


def _staff(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _guard_playlist(ctx: Ctx, new: Playlist, old: Playlist | None) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"playlist {old.id} is archived", field="playlist_id", hint="create a new playlist")
    if new.owner_email not in _staff(ctx):
        raise RuleViolation(f"{new.owner_email} is not an employee", field="owner_email", hint="a colleague keeps it")


def _open(ctx: Ctx, playlist_id: str, field: str = "playlist_id") -> Playlist:
    pl = ctx.get(Playlist, playlist_id, field=field)
    if pl.status == "archived":
        raise RuleViolation(f"playlist {pl.id} is archived", field=field, hint="archived playlists are frozen")
    return pl


def _items(ctx: Ctx, playlist_id: str) -> list[Item]:
    return sorted(ctx.where(Item, playlist_id=playlist_id), key=lambda i: i.position)


def _renumber(ctx: Ctx, items: list[Item]) -> None:
    for n, it in enumerate(items, start=1):
        if it.position != n:
            ctx.update(it, position=n)


def _guard_item_update(ctx: Ctx, new: Item, old: Item) -> None:
    _open(ctx, old.playlist_id, "item_id")


def _guard_item_delete(ctx: Ctx, new: None, old: Item) -> None:
    _open(ctx, old.playlist_id, "item_id")
    _renumber(ctx, [i for i in _items(ctx, old.playlist_id) if i.id != old.id])


def _guard_playlist_delete(ctx: Ctx, new: None, old: Playlist) -> None:
    for it in ctx.where(Item, playlist_id=old.id):
        ctx.delete(it)


playlists = service.resource(
    Playlist,
    name="playlist",
    plural="playlists",
    prefix="ppl",
    create=("name", "owner_email", "description", "visibility"),
    filters=("owner_email", "visibility", "status"),
    search=("name", "description"),
    update=("name", "description", "visibility", "owner_email"),
    transitions={"archive": Transition("status", ("active",), "archived", "archive the playlist", destructive=True)},
    guard_create=_guard_playlist,
    guard_update=_guard_playlist,
    guard_delete=_guard_playlist_delete,
    title="podcast playlist",
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="pit",
    create=False,
    filters=("playlist_id", "kind", "ref_id", "added_by"),
    search=("title", "note"),
    update=("note",),
    guard_update=_guard_item_update,
    guard_delete=_guard_item_delete,
    title="playlist item",
)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    pl = ctx.first(Playlist, status="active")
    if pl is None:
        return None
    have = {i.ref_id for i in ctx.where(Item, playlist_id=pl.id)}
    eid = next(e for e in _idx(ctx).episodes if e not in have)
    return {"playlist_id": pl.id, "kind": "episode", "ref_id": eid, "added_by": pl.owner_email}


@service.tool(intent="add to the playlist", write=True, example=_example_add)
def add_to_playlist(
    ctx: Ctx,
    playlist_id: PlaylistId,
    kind: Literal["episode", "podcast"],
    ref_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")],
    added_by: Email,
    position: Annotated[int, Field(ge=1, le=MAX_ITEMS)] | None = None,
    note: Text = "",
) -> Item:
    """Add an episode or podcast to a playlist (once; at most 100 items), at a position or at the end.

    Args:
        playlist_id: The playlist (active).
        kind: episode or podcast.
        ref_id: The episode or podcast id.
        added_by: The employee adding it.
        position: Where to insert it (default: at the end).
        note: Why it is worth a listen.
    """
    pl = _open(ctx, playlist_id)
    if added_by not in _staff(ctx):
        raise RuleViolation(f"{added_by} is not an employee", field="added_by", hint="a colleague adds items")
    title = (
        _get_episode(ctx, ref_id, "ref_id").title if kind == "episode" else _get_podcast(ctx, ref_id, "ref_id").title
    )
    have = _items(ctx, pl.id)
    same = next((i for i in have if i.ref_id == ref_id), None)
    if same is not None:
        raise Conflict(f"it is already item {same.position} of the playlist", field="ref_id", hint="move it instead")
    if len(have) >= MAX_ITEMS:
        raise RuleViolation(f"playlist {pl.id} holds {MAX_ITEMS} items", field="playlist_id", hint="remove some first")
    at = min(position or len(have) + 1, len(have) + 1)
    for it in reversed(have[at - 1 :]):
        ctx.update(it, position=it.position + 1)
    return ctx.create(
        Item, playlist_id=pl.id, kind=kind, ref_id=ref_id, title=title, position=at, added_by=added_by, note=note
    )


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    for pl in ctx.where(Playlist, status="active"):
        have = _items(ctx, pl.id)
        if len(have) > 1:
            return {"item_id": have[-1].id, "position": 1}
    return None


@service.tool(intent="move the playlist item", write=True, example=_example_move)
def move_item(ctx: Ctx, item_id: ItemId, position: Annotated[int, Field(ge=1, le=MAX_ITEMS)]) -> Item:
    """Move an item to another position; the others close up around it.

    Args:
        item_id: The item.
        position: Its new position (1 is first; at most the number of items).
    """
    it = ctx.get(Item, item_id, field="item_id")
    _open(ctx, it.playlist_id, "item_id")
    have = _items(ctx, it.playlist_id)
    if position > len(have):
        raise RuleViolation(f"the playlist has {len(have)} items", field="position", hint=f"use 1 to {len(have)}")
    order = [i for i in have if i.id != it.id]
    order.insert(position - 1, it)
    _renumber(ctx, order)
    return ctx.get(Item, item_id)


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """The team's playlists: a shared learning list, a private one and an archived one, with items in order."""
    pop = s.population
    idx = _index_of(pop, s.now.date())
    team = pop.staff("Marketing", "Engineering", fallback=3)
    pods = sorted(idx.podcasts.values(), key=lambda p: (-p.score, p.id))
    plans: tuple[tuple[str, str, str, list[tuple[str, _Episode | _Podcast]]], ...] = (
        ("Team learning", "team", "active", [("episode", e) for p in pods[:3] for e in p.episodes[-2:]]),
        ("Commute picks", "private", "active", [("podcast", p) for p in pods[3:6]]),
        ("2024 offsite prep", "team", "archived", [("episode", pods[6].episodes[0])]),
    )
    for k, (name, vis, status, picks) in enumerate(plans):
        owner = team[k % len(team)]
        pl = s.create(
            Playlist,
            name=name,
            owner_email=owner.email,
            visibility=vis,
            status=status,
            description=f"{name} for the team.",
            created_at=s.ago(days=60 + 100 * k),
            updated_at=s.ago(days=5 + 50 * k),
        )
        for n, (kind, ref) in enumerate(picks, start=1):
            s.create(
                Item,
                playlist_id=pl.id,
                kind=kind,
                ref_id=ref.id,
                title=ref.title,
                position=n,
                added_by=team[(k + n) % len(team)].email,
                note="Worth a listen." if n == 1 else "",
                created_at=s.ago(days=30 - n),
                updated_at=s.ago(days=30 - n),
            )
