"""Reelbase Movies: film and TV metadata (movies, series, seasons, people, credits, genres) and the team's watchlists.

Modeled on the TMDB API v3: ``/search/movie``, ``/discover/movie`` (``with_genres``,
``primary_release_year``, ``vote_count.gte``, ``sort_by=popularity.desc|vote_average.desc|
primary_release_date.desc``), ``/movie/{id}``, ``/movie/{id}/credits``,
``/search/tv``, ``/tv/{id}``, ``/tv/{id}/season/{n}``,
``/search/person``, ``/person/{id}``, ``/person/{id}/combined_credits``,
and ``/genre/movie/list``; movie status values
``Released``, ``Post Production``, ``In Production``; series status ``Returning Series``,
``Ended``, ``Canceled``. Stored state follows TMDB's account watchlist and ratings
(``/account/{id}/watchlist``, ``POST /movie/{id}/rating`` with values 0.5 to 10 in
steps of 0.5) and v4 lists (``/list`` with items and comments, ``/list/{id}/clear``).

An open-world service: the catalogue of movies, series and people is a deterministic
draw from the world seed; every movie's cast and director are people of the same
catalogue, so a person's combined credits, a movie's credits and search results all
agree; some movies are still to be released (dated after today). Stored state: an
employee's watchlist holds a title once and goes ``watchlist`` → ``watched``; only a
watched, released title can be rated; lists are unique by name per owner, hold a
title once and at most 250 items.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.engine.types import Date, Email, IdOf, Language, SemanticType, Text, Title, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "movies",
    title="Reelbase Movies",
    category="film_data",
    modeled_on="TMDB API v3 (search and discover movies, movie details and credits, TV series "
    "and seasons, people and combined credits, genres) with account watchlist, ratings and v4 lists",
    description="Film and TV metadata: search and discover movies by genre, year and rating, get a movie's details, "
    "cast and crew, TV series and their seasons, people and their credits, and keep the team's "
    "watchlists, ratings and curated lists.",
)

MovieId = Annotated[int, SemanticType("movies.movie", kind="ref"), Field(ge=100000, le=999999)]
TvId = Annotated[int, SemanticType("movies.tv", kind="ref"), Field(ge=10000, le=99999)]
PersonId = Annotated[int, SemanticType("movies.person", kind="ref"), Field(ge=1000000, le=9999999)]
MediaId = Annotated[int, Field(ge=10000, le=999999)]
WatchItemId = Annotated[str, IdOf("movies.watch_item")]
ListId = Annotated[str, IdOf("movies.list")]
ListItemId = Annotated[str, IdOf("movies.list_item")]
Search = Annotated[str, StringConstraints(min_length=2, max_length=100)]
Rating = Annotated[float, Field(ge=0.5, le=10)]
MediaType = Literal["movie", "tv"]
MovieStatus = Literal["Released", "Post Production", "In Production"]
SeriesStatus = Literal["Returning Series", "Ended", "Canceled"]
MAX_LIST_ITEMS = 250
IMAGES = "https://image.tmdb.org/t/p/w500"

_GENRES = {
    28: "Action",
    12: "Adventure",
    16: "Animation",
    35: "Comedy",
    80: "Crime",
    99: "Documentary",
    18: "Drama",
    14: "Fantasy",
    27: "Horror",
    9648: "Mystery",
    10749: "Romance",
    878: "Science Fiction",
    53: "Thriller",
}
_W1 = "Silent;Crimson;Last;Broken;Golden;Midnight;Hidden;Electric;Frozen;Wild;Distant;Iron;Paper;Velvet;Burning"
_W2 = "Harbor;Protocol;Garden;Signal;Empire;Witness;Orbit;Summer;Frontier;Heist;Echo;Kingdom;Lighthouse;Verdict"
_NETWORKS = ("HBO", "Netflix", "BBC One", "Apple TV+", "Prime Video", "FX", "AMC")
_LANGS = ("en", "en", "en", "en", "fr", "es", "ko", "ja", "de")
_FIRST = "Ava;Liam;Mila;Noah;Zoe;Omar;Ines;Felix;Nora;Hugo;Lena;Ravi;Yuki;Tomas;Greta;Dario;Maya;Kofi;Elsa;Jonas"
_LAST = "Navarro;Whitlock;Okafor;Lindqvist;Park;Moreau;Castillo;Brandt;Ishikawa;Farrow;Quinn;Adeyemi;Rossi;Hale"
_CHARS = "Detective Mara Cole;Captain Reyes;Dr. Elias Stone;Agent Harper;The Stranger;Lucy Vance;Marcus;Old Tom;Sam"


@dataclass(frozen=True, slots=True)
class _Person:
    id: int
    name: str
    department: str
    birthday: dt.date
    place_of_birth: str
    popularity: float


@dataclass(frozen=True, slots=True)
class _Movie:
    id: int
    title: str
    language: str
    release: dt.date
    runtime: int
    genres: tuple[int, ...]
    director: int
    cast: tuple[tuple[int, str], ...]
    budget: int
    revenue: int
    vote_average: float
    vote_count: int
    popularity: float


@dataclass(frozen=True, slots=True)
class _Series:
    id: int
    name: str
    first_air: dt.date
    seasons: tuple[int, ...]
    """Episodes per season."""
    network: str
    status: str
    genres: tuple[int, ...]
    creator: int
    cast: tuple[tuple[int, str], ...]
    vote_average: float
    popularity: float


@dataclass(frozen=True, slots=True)
class _Db:
    people: dict[int, _Person]
    movies: dict[int, _Movie]
    series: dict[int, _Series]


@lru_cache(maxsize=8)
def _build(seed: int, today: dt.date) -> _Db:
    r = random.Random(f"movies:{seed}")
    names = r.sample([f"{f} {last}" for f in _FIRST.split(";") for last in _LAST.split(";")], 60)
    cities = ("London, England, UK", "Lagos, Nigeria", "Seoul, South Korea", "Lyon, France", "Toronto, Canada")
    people = {
        1_000_000 + 3_571 * k: _Person(
            1_000_000 + 3_571 * k,
            name,
            "Directing" if k < 12 else "Acting",
            dt.date(r.randint(1950, 2000), r.randint(1, 12), r.randint(1, 28)),
            r.choice(cities),
            round(r.uniform(1, 90), 3),
        )
        for k, name in enumerate(names)
    }
    directors = [p.id for p in people.values() if p.department == "Directing"]
    actors = [p.id for p in people.values() if p.department == "Acting"]
    chars, titles = _CHARS.split(";"), [f"The {a} {b}" for a in _W1.split(";") for b in _W2.split(";")]
    movies: dict[int, _Movie] = {}
    for k, title in enumerate(r.sample(titles, 90)):
        release = today + dt.timedelta(days=r.randint(-9000, 240)) if k % 9 else today + dt.timedelta(days=30 + k)
        budget = r.randint(2, 200) * 1_000_000
        released = release <= today
        votes = r.randint(40, 25000) if released else 0
        movies[100_000 + 7_919 * k] = _Movie(
            100_000 + 7_919 * k,
            title,
            r.choice(_LANGS),
            release,
            r.randint(82, 170),
            tuple(sorted(r.sample(list(_GENRES), r.choice((1, 2, 2, 3))))),
            r.choice(directors),
            tuple(zip(r.sample(actors, 5), r.sample(chars, 5), strict=True)),
            budget,
            int(budget * r.uniform(0.3, 6)) if released else 0,
            round(r.uniform(4.5, 8.9), 1) if released else 0.0,
            votes,
            round(r.uniform(5, 400) * (2 if (today - release).days < 60 else 1), 3),
        )
    series: dict[int, _Series] = {}
    for k, title in enumerate(r.sample([t.replace("The ", "") for t in titles], 30)):
        n = r.randint(1, 6)
        series[10_000 + 2_137 * k] = _Series(
            10_000 + 2_137 * k,
            title,
            today - dt.timedelta(days=r.randint(200, 6000)),
            tuple(r.randint(6, 12) for _ in range(n)),
            r.choice(_NETWORKS),
            r.choice(("Returning Series", "Ended", "Ended", "Canceled")),
            tuple(sorted(r.sample([18, 80, 35, 9648, 878], 2))),
            r.choice(directors),
            tuple(zip(r.sample(actors, 4), r.sample(chars, 4), strict=True)),
            round(r.uniform(6, 9.2), 1),
            round(r.uniform(5, 300), 3),
        )
    return _Db(people, movies, series)


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population.seed, EPOCH.date())


# -- result models -----------------------------------------------------------------------------------------


class Genre(BaseModel):
    """A genre."""

    id: int = Field(description="TMDB genre id.")
    name: str = Field(description="Genre name.")


class MovieSummary(BaseModel):
    """A movie in lists and search results."""

    id: MovieId = Field(description="TMDB movie id.")
    title: Title = Field(description="Title.")
    original_language: Language = Field(description="Original language (ISO 639-1).")
    release_date: Date = Field(description="Primary release date.")
    genre_ids: list[int] = Field(description="Genre ids.")
    vote_average: float = Field(description="Mean user score 0-10 (0: no votes yet).")
    vote_count: int = Field(description="Number of votes.")
    popularity: float = Field(description="TMDB popularity score.")
    poster_url: Url = Field(description="Poster image.")


class CastMember(BaseModel):
    """A credited actor."""

    person_id: PersonId = Field(description="TMDB person id.")
    name: str = Field(description="The actor.")
    character: str = Field(description="The role played.")
    order: int = Field(description="Billing order, 0 first.")


class Movie(MovieSummary):
    """A movie's details."""

    status: MovieStatus = Field(description="Released, Post Production or In Production.")
    runtime: int = Field(description="Minutes.")
    genres: list[Genre] = Field(description="Genres.")
    budget: int = Field(description="Budget in US dollars.")
    revenue: int = Field(description="Worldwide box office in US dollars (0 before release).")
    director: str = Field(description="The director's name.")
    imdb_id: str = Field(description="IMDb id.")


class Credits(BaseModel):
    """A movie's or series' cast and crew."""

    id: int = Field(description="The movie or series id.")
    cast: list[CastMember] = Field(description="Cast in billing order.")
    crew: list[dict[str, Any]] = Field(description="Crew: person_id, name, job (Director or Creator).")


class Season(BaseModel):
    """A season of a series."""

    season_number: int = Field(description="1-based season number.")
    episode_count: int = Field(description="Episodes.")
    air_date: Date = Field(description="First episode's air date.")


class Series(BaseModel):
    """A TV series."""

    id: TvId = Field(description="TMDB TV id.")
    name: Title = Field(description="Name.")
    first_air_date: Date = Field(description="First episode's air date.")
    status: SeriesStatus = Field(description="Returning Series, Ended or Canceled.")
    network: str = Field(description="Network.")
    genres: list[Genre] = Field(description="Genres.")
    number_of_seasons: int = Field(description="Seasons.")
    number_of_episodes: int = Field(description="Episodes over all seasons.")
    seasons: list[Season] = Field(description="Seasons in order.")
    vote_average: float = Field(description="Mean user score 0-10.")
    popularity: float = Field(description="TMDB popularity score.")


class TvEpisode(BaseModel):
    """An episode of a season."""

    episode_number: int = Field(description="Number within the season.")
    name: str = Field(description="Title.")
    air_date: Date = Field(description="Air date.")
    runtime: int = Field(description="Minutes.")


class SeasonDetail(Season):
    """A season with its episodes."""

    tv_id: TvId = Field(description="The series.")
    episodes: list[TvEpisode] = Field(description="Episodes in order.")


class Person(BaseModel):
    """A person in film and TV."""

    id: PersonId = Field(description="TMDB person id.")
    name: str = Field(description="Name.")
    known_for_department: Literal["Acting", "Directing"] = Field(description="Acting or Directing.")
    birthday: Date = Field(description="Date of birth.")
    place_of_birth: str = Field(description="Place of birth.")
    popularity: float = Field(description="TMDB popularity score.")


class PersonCredit(BaseModel):
    """One credit of a person."""

    media_type: MediaType = Field(description="movie or tv.")
    id: MediaId = Field(description="The movie or series id.")
    title: str = Field(description="Its title or name.")
    date: Date = Field(description="Release or first air date.")
    role: str = Field(description="Character played, or the job (Director, Creator).")


# -- helpers -----------------------------------------------------------------------------------------------


def _summary(m: _Movie) -> MovieSummary:
    return MovieSummary(
        id=m.id,
        title=m.title,
        original_language=m.language,
        release_date=m.release,
        genre_ids=list(m.genres),
        vote_average=m.vote_average,
        vote_count=m.vote_count,
        popularity=m.popularity,
        poster_url=f"{IMAGES}/m{m.id}.jpg",
    )


def _status(m: _Movie, today: dt.date) -> MovieStatus:
    if m.release <= today:
        return "Released"
    return "Post Production" if (m.release - today).days <= 120 else "In Production"


def _movie(ctx: Ctx, movie_id: int, field: str = "movie_id") -> _Movie:
    m = _db(ctx).movies.get(movie_id)
    if m is None:
        raise NotFound(f"no movie {movie_id}", field=field, hint="find movies with movies__search_movies")
    return m


def _series(ctx: Ctx, tv_id: int, field: str = "tv_id") -> _Series:
    s = _db(ctx).series.get(tv_id)
    if s is None:
        raise NotFound(f"no TV series {tv_id}", field=field, hint="find series with movies__search_tv")
    return s


def _seasons(s: _Series) -> list[Season]:
    return [
        Season(season_number=k + 1, episode_count=n, air_date=s.first_air + dt.timedelta(days=365 * k))
        for k, n in enumerate(s.seasons)
    ]


def _genres(ids: tuple[int, ...]) -> list[Genre]:
    return [Genre(id=g, name=_GENRES[g]) for g in ids]


def _title_of(ctx: Ctx, media_type: str, media_id: int, field: str) -> tuple[str, dt.date]:
    if media_type == "movie":
        m = _movie(ctx, media_id, field)
        return m.title, m.release
    s = _series(ctx, media_id, field)
    return s.name, s.first_air


def _words(text: str | None) -> list[str]:
    return fold(text or "").split()


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search movies by title", open_world=True, example=fixed_example(query="the"))
def search_movies(
    ctx: Ctx, query: Search, year: Annotated[int, Field(ge=1900, le=2100)] | None = None
) -> list[MovieSummary]:
    """Search movies by title words (/search/movie), most popular first.

    Args:
        query: Words that must all appear in the title.
        year: Only movies released in this year.
    """
    words = _words(query)
    found = [
        m
        for m in _db(ctx).movies.values()
        if all(w in _words(m.title) for w in words) and (year is None or m.release.year == year)
    ]
    return [_summary(m) for m in sorted(found, key=lambda m: (-m.popularity, m.id))]


@service.tool(intent="discover movies by genre, year and score", open_world=True, example=fixed_example(genre_id=18))
def discover_movies(
    ctx: Ctx,
    genre_id: int | None = None,
    primary_release_year: Annotated[int, Field(ge=1900, le=2100)] | None = None,
    min_vote_count: Annotated[int, Field(ge=0)] = 0,
    language: Language | None = None,
    sort_by: Literal["popularity.desc", "vote_average.desc", "primary_release_date.desc"] = "popularity.desc",
    limit: Annotated[int, Field(ge=1, le=50)] = 20,
) -> list[MovieSummary]:
    """Discover movies (/discover/movie) by genre, release year, vote count and language, sorted as asked.

    Args:
        genre_id: Only movies with this genre (see list_genres).
        primary_release_year: Only movies released in this year.
        min_vote_count: Only movies with at least this many votes (vote_count.gte).
        language: Only movies in this original language.
        sort_by: popularity.desc, vote_average.desc or primary_release_date.desc.
        limit: Most results.
    """
    if genre_id is not None and genre_id not in _GENRES:
        raise NotFound(f"no genre {genre_id}", field="genre_id", hint="list the genres with movies__list_genres")
    found = [
        m
        for m in _db(ctx).movies.values()
        if (genre_id is None or genre_id in m.genres)
        and (primary_release_year is None or m.release.year == primary_release_year)
        and m.vote_count >= min_vote_count
        and (language is None or m.language == language)
    ]
    key = {
        "popularity.desc": lambda m: (-m.popularity, m.id),
        "vote_average.desc": lambda m: (-m.vote_average, m.id),
        "primary_release_date.desc": lambda m: (-m.release.toordinal(), m.id),
    }[sort_by]
    return [_summary(m) for m in sorted(found, key=key)[:limit]]


def _example_movie(ctx: Ctx) -> dict[str, Any]:
    return {"movie_id": next(iter(_db(ctx).movies))}


@service.tool(intent="get the movie's details", open_world=True, example=_example_movie)
def get_movie(ctx: Ctx, movie_id: MovieId) -> Movie:
    """Get a movie's details (/movie/{id}): status, runtime, genres, budget, revenue, score and director.

    Args:
        movie_id: The TMDB movie id.
    """
    m = _movie(ctx, movie_id)
    return Movie(
        **_summary(m).model_dump(),
        status=_status(m, ctx.today()),
        runtime=m.runtime,
        genres=_genres(m.genres),
        budget=m.budget,
        revenue=m.revenue if m.release <= ctx.today() else 0,
        director=_db(ctx).people[m.director].name,
        imdb_id=f"tt{m.id * 7 % 10_000_000:07d}",
    )


@service.tool(intent="get the movie's cast and crew", open_world=True, example=_example_movie)
def get_movie_credits(ctx: Ctx, movie_id: MovieId) -> Credits:
    """Get a movie's cast in billing order and its director (/movie/{id}/credits).

    Args:
        movie_id: The TMDB movie id.
    """
    m, people = _movie(ctx, movie_id), _db(ctx).people
    return Credits(
        id=m.id,
        cast=[CastMember(person_id=p, name=people[p].name, character=c, order=k) for k, (p, c) in enumerate(m.cast)],
        crew=[{"person_id": m.director, "name": people[m.director].name, "job": "Director"}],
    )


@service.tool(intent="search TV series", open_world=True, example=fixed_example(query="harbor"))
def search_tv(ctx: Ctx, query: Search) -> list[Series]:
    """Search TV series by name words (/search/tv), most popular first.

    Args:
        query: Words that must all appear in the name.
    """
    words = _words(query)
    found = [s for s in _db(ctx).series.values() if all(w in _words(s.name) for w in words)]
    return [get_tv_series(ctx, s.id) for s in sorted(found, key=lambda s: (-s.popularity, s.id))]


def _example_tv(ctx: Ctx) -> dict[str, Any]:
    return {"tv_id": next(iter(_db(ctx).series))}


@service.tool(intent="get the TV series", open_world=True, example=_example_tv)
def get_tv_series(ctx: Ctx, tv_id: TvId) -> Series:
    """Get a TV series (/tv/{id}): status, network, genres, seasons and episode counts.

    Args:
        tv_id: The TMDB TV id.
    """
    s = _series(ctx, tv_id)
    return Series(
        id=s.id,
        name=s.name,
        first_air_date=s.first_air,
        status=s.status,
        network=s.network,
        genres=_genres(s.genres),
        number_of_seasons=len(s.seasons),
        number_of_episodes=sum(s.seasons),
        seasons=_seasons(s),
        vote_average=s.vote_average,
        popularity=s.popularity,
    )


@service.tool(
    intent="get a season's episodes", open_world=True, example=lambda ctx: _example_tv(ctx) | {"season_number": 1}
)
def get_tv_season(ctx: Ctx, tv_id: TvId, season_number: Annotated[int, Field(ge=1, le=50)]) -> SeasonDetail:
    """Get a season of a series with its episodes (/tv/{id}/season/{n}).

    Args:
        tv_id: The TMDB TV id.
        season_number: The season, from 1.
    """
    s = _series(ctx, tv_id)
    if season_number > len(s.seasons):
        raise NotFound(
            f"{s.name} has {len(s.seasons)} seasons", field="season_number", hint="pick a season from get_tv_series"
        )
    season = _seasons(s)[season_number - 1]
    words = _W2.split(";")
    episodes = [
        TvEpisode(
            episode_number=k + 1,
            name=f"{words[(s.id + k) % len(words)]} {k + 1}" if k else "Pilot" if season_number == 1 else "Return",
            air_date=season.air_date + dt.timedelta(days=7 * k),
            runtime=45 + (s.id + k) % 15,
        )
        for k in range(season.episode_count)
    ]
    return SeasonDetail(**season.model_dump(), tv_id=s.id, episodes=episodes)


def _person(p: _Person) -> Person:
    return Person(
        id=p.id,
        name=p.name,
        known_for_department=p.department,
        birthday=p.birthday,
        place_of_birth=p.place_of_birth,
        popularity=p.popularity,
    )


@service.tool(intent="search film and TV people", open_world=True, example=fixed_example(query="park"))
def search_people(ctx: Ctx, query: Search) -> list[Person]:
    """Search actors and directors by name words (/search/person), most popular first.

    Args:
        query: Words of the name.
    """
    words = _words(query)
    found = [p for p in _db(ctx).people.values() if all(w in _words(p.name) for w in words)]
    return [_person(p) for p in sorted(found, key=lambda p: (-p.popularity, p.id))]


def _example_person(ctx: Ctx) -> dict[str, Any]:
    return {"person_id": next(iter(_db(ctx).people))}


def _get_person(ctx: Ctx, person_id: int) -> _Person:
    p = _db(ctx).people.get(person_id)
    if p is None:
        raise NotFound(f"no person {person_id}", field="person_id", hint="find people with movies__search_people")
    return p


@service.tool(intent="get the person's profile", open_world=True, example=_example_person)
def get_person(ctx: Ctx, person_id: PersonId) -> Person:
    """Get an actor's or director's profile (/person/{id}).

    Args:
        person_id: The TMDB person id.
    """
    return _person(_get_person(ctx, person_id))


@service.tool(intent="list the person's movie and TV credits", open_world=True, example=_example_person)
def get_person_credits(ctx: Ctx, person_id: PersonId) -> list[PersonCredit]:
    """List a person's movie and TV credits (/person/{id}/combined_credits), newest first.

    Args:
        person_id: The TMDB person id.
    """
    p, db = _get_person(ctx, person_id), _db(ctx)
    out = []
    for m in db.movies.values():
        roles = [c for a, c in m.cast if a == p.id] + (["Director"] if m.director == p.id else [])
        out += [PersonCredit(media_type="movie", id=m.id, title=m.title, date=m.release, role=r) for r in roles]
    for s in db.series.values():
        roles = [c for a, c in s.cast if a == p.id] + (["Creator"] if s.creator == p.id else [])
        out += [PersonCredit(media_type="tv", id=s.id, title=s.name, date=s.first_air, role=r) for r in roles]
    return sorted(out, key=lambda c: (-c.date.toordinal(), c.id))


@service.tool(intent="list the movie genres", open_world=True)
def list_genres(ctx: Ctx) -> list[Genre]:
    """List the movie genres with their ids (/genre/movie/list)."""
    return _genres(tuple(_GENRES))


# -- watchlists and lists ----------------------------------------------------------------------------------


class WatchItem(Timestamped):
    """A movie or series on an employee's watchlist (the account watchlist and its rating)."""

    id: WatchItemId
    owner_email: Email
    """The employee whose watchlist it is on."""
    media_type: MediaType
    """movie or tv."""
    media_id: MediaId
    """The movie or series id."""
    title: Title
    """Its title."""
    release_date: Date
    """Release (or first air) date."""
    status: Literal["watchlist", "watched"] = "watchlist"
    """watchlist (to watch) or watched."""
    rating: float | None = None
    """The owner's rating, 0.5 to 10 in steps of 0.5, once watched."""


class TitleList(Timestamped):
    """A curated list of movies and series (a v4 list)."""

    id: ListId
    name: Title
    """Its name (unique per owner)."""
    owner_email: Email
    """The employee who keeps it."""
    description: Text = ""
    """What it gathers."""
    public: bool = False
    """Whether anyone with the link can see it."""


class ListItem(Timestamped):
    """A title on a list, with a comment."""

    id: ListItemId
    list_id: ListId
    """The list."""
    media_type: MediaType
    """movie or tv."""
    media_id: MediaId
    """The movie or series id."""
    title: Title
    """Its title."""
    comment: Text = ""
    """Why it is on the list."""


def _staff(ctx: Ctx, email: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field="owner_email", hint="watchlists are kept by staff")


def _guard_watch(ctx: Ctx, new: WatchItem, old: WatchItem | None) -> None:
    if new.status == "watched" and new.release_date > ctx.today():
        raise RuleViolation(
            f"{new.title} is not out until {new.release_date}",
            field="watch_item_id",
            hint="keep it on the watchlist until it is released",
        )


def _guard_list(ctx: Ctx, new: TitleList, old: TitleList | None) -> None:
    _staff(ctx, new.owner_email)
    for other in ctx.where(TitleList, owner_email=new.owner_email, name=new.name):
        if other.id != new.id:
            raise Conflict(
                f"{new.owner_email} already has a list named {new.name!r}: {other.id}",
                field="name",
                hint="pick another name or add to that list",
            )


def _guard_list_delete(ctx: Ctx, new: None, old: TitleList) -> None:
    for item in ctx.where(ListItem, list_id=old.id):
        ctx.delete(item)


watch_items = service.resource(
    WatchItem,
    name="watch_item",
    plural="watch_items",
    prefix="wl",
    create=False,
    filters=("owner_email", "media_type", "status", "media_id"),
    search=("title",),
    transitions={"mark_watched": Transition("status", ("watchlist",), "watched", "mark the title as watched")},
    guard_update=_guard_watch,
    title="watchlist entry",
)
title_lists = service.resource(
    TitleList,
    name="list",
    plural="lists",
    prefix="lst",
    create=("name", "owner_email", "description", "public"),
    filters=("owner_email", "public"),
    search=("name", "description"),
    update=("name", "description", "public"),
    guard_create=_guard_list,
    guard_update=_guard_list,
    guard_delete=_guard_list_delete,
    title="movie list",
)
list_items = service.resource(
    ListItem,
    name="list_item",
    plural="list_items",
    prefix="lsi",
    create=False,
    filters=("list_id", "media_type", "media_id"),
    search=("title", "comment"),
    update=("comment",),
    title="list item",
)


def _example_watch(ctx: Ctx) -> dict[str, Any]:
    owner = ctx.population.employees[-1].email
    have = {w.media_id for w in ctx.where(WatchItem, owner_email=owner)}
    movie = next(m for m in _db(ctx).movies.values() if m.id not in have)
    return {"owner_email": owner, "media_type": "movie", "media_id": movie.id}


@service.tool(intent="add a title to the watchlist", write=True, example=_example_watch)
def add_to_watchlist(ctx: Ctx, owner_email: Email, media_type: MediaType, media_id: MediaId) -> WatchItem:
    """Put a movie or series on an employee's watchlist (POST /account/{id}/watchlist); a title is on it once.

    Args:
        owner_email: The employee.
        media_type: movie or tv.
        media_id: The movie or series id.
    """
    _staff(ctx, owner_email)
    title, release = _title_of(ctx, media_type, media_id, "media_id")
    other = ctx.first(WatchItem, owner_email=owner_email, media_type=media_type, media_id=media_id)
    if other is not None:
        raise Conflict(f"{title} is already on the watchlist as {other.id}", field="media_id", hint="nothing to do")
    return ctx.create(
        WatchItem, owner_email=owner_email, media_type=media_type, media_id=media_id, title=title, release_date=release
    )


@service.tool(
    intent="rate a watched title",
    write=True,
    example=first_example(WatchItem, "watch_item_id", where={"status": "watched"}, rating=8.5),
)
def rate_title(ctx: Ctx, watch_item_id: WatchItemId, rating: Rating) -> WatchItem:
    """Rate a watched movie or series from 0.5 to 10 in steps of 0.5 (POST /movie/{id}/rating).

    Args:
        watch_item_id: The watchlist entry (watched).
        rating: The score, a multiple of 0.5.
    """
    item = ctx.get(WatchItem, watch_item_id, field="watch_item_id")
    if item.status != "watched":
        raise RuleViolation(
            f"{item.title} has not been watched yet",
            field="watch_item_id",
            hint="mark it watched first (movies__mark_watched_watch_item)",
        )
    if rating * 2 != int(rating * 2):
        raise RuleViolation(f"{rating} is not a multiple of 0.5", field="rating", hint="rate 0.5, 1.0, ... 10.0")
    return ctx.update(item, rating=rating)


def _example_list_add(ctx: Ctx) -> dict[str, Any] | None:
    lst = ctx.first(TitleList)
    if lst is None:
        return None
    have = {i.media_id for i in ctx.where(ListItem, list_id=lst.id)}
    movie = next(m for m in _db(ctx).movies.values() if m.id not in have)
    return {"list_id": lst.id, "media_type": "movie", "media_id": movie.id, "comment": "Next movie night"}


@service.tool(intent="add a title to a list", write=True, example=_example_list_add)
def add_list_item(ctx: Ctx, list_id: ListId, media_type: MediaType, media_id: MediaId, comment: Text = "") -> ListItem:
    """Add a movie or series to a list (POST /list/{id}/items); a title is on a list once, 250 items at most.

    Args:
        list_id: The list.
        media_type: movie or tv.
        media_id: The movie or series id.
        comment: Why it is on the list.
    """
    lst = ctx.get(TitleList, list_id, field="list_id")
    title, _ = _title_of(ctx, media_type, media_id, "media_id")
    items = ctx.where(ListItem, list_id=lst.id)
    if any(i.media_type == media_type and i.media_id == media_id for i in items):
        raise Conflict(f"{title} is already on {lst.name}", field="media_id", hint="update its comment instead")
    if len(items) >= MAX_LIST_ITEMS:
        raise RuleViolation(f"{lst.name} holds {MAX_LIST_ITEMS} items", field="list_id", hint="start another list")
    return ctx.create(ListItem, list_id=lst.id, media_type=media_type, media_id=media_id, title=title, comment=comment)


class Cleared(BaseModel):
    """A list emptied."""

    list_id: ListId = Field(description="The list.")
    removed: int = Field(description="Items removed.")


@service.tool(
    intent="clear every item off a list",
    write=True,
    destructive=True,
    example=first_example(TitleList, "list_id", confirm=True),
)
def clear_list(ctx: Ctx, list_id: ListId, confirm: bool) -> Cleared:
    """Remove every item from a list, keeping the list (POST /list/{id}/clear); needs confirm=true.

    Args:
        list_id: The list.
        confirm: Must be true: the items cannot be brought back.
    """
    lst = ctx.get(TitleList, list_id, field="list_id")
    if not confirm:
        raise RuleViolation("clearing a list needs confirm=true", field="confirm", hint="pass confirm=true")
    items = ctx.where(ListItem, list_id=lst.id)
    for i in items:
        ctx.delete(i)
    return Cleared(list_id=lst.id, removed=len(items))


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff watchlists (watched and rated, still to watch, not yet released) and two curated lists."""
    db = _build(s.population.seed, EPOCH.date())
    today = s.now.date()
    owners = s.population.staff("Marketing", "Engineering", "Sales", fallback=3)
    movies = sorted(db.movies.values(), key=lambda m: (-m.popularity, m.id))
    released = [m for m in movies if m.release <= today]
    upcoming = [m for m in movies if m.release > today]
    for k, owner in enumerate(owners[:3]):
        show = list(db.series.values())[k]
        picks = [("movie", m.id, m.title, m.release) for m in released[k * 4 : k * 4 + 4] + upcoming[k : k + 1]]
        for j, (kind, mid, title, release) in enumerate([*picks, ("tv", show.id, show.name, show.first_air)]):
            watched = j < 2 and release <= today
            s.create(
                WatchItem,
                owner_email=owner.email,
                media_type=kind,
                media_id=mid,
                title=title,
                release_date=release,
                status="watched" if watched else "watchlist",
                rating=(7.5 + j) if watched else None,
                created_at=s.ago(days=60 - 5 * j),
                updated_at=s.ago(days=20 - 3 * j),
            )
    scifi = [m for m in released if 878 in m.genres][:4]
    plans = (
        ("Team movie night picks", "Films we vote on for the monthly movie night.", True, released[:5]),
        ("Sci-fi essentials", "Science fiction everyone should see.", False, scifi),
    )
    for k, (name, description, public, titles) in enumerate(plans):
        lst = s.create(
            TitleList,
            name=name,
            owner_email=owners[k % len(owners)].email,
            description=description,
            public=public,
            created_at=s.ago(days=90),
            updated_at=s.ago(days=10),
        )
        for j, m in enumerate(titles):
            s.create(
                ListItem,
                list_id=lst.id,
                media_type="movie",
                media_id=m.id,
                title=m.title,
                comment="Winner of last month's vote." if j == 0 and public else "",
                created_at=s.ago(days=80 - j),
                updated_at=s.ago(days=80 - j),
            )
