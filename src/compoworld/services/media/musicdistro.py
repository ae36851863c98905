"""Soundwire Distribution: the label's music distribution to streaming stores, splits and earnings.

Modeled on DistroKid (artists, releases with UPCs and release dates, tracks with
ISRCs that DistroKid assigns, delivery to stores such as Spotify, Apple Music,
Amazon Music, YouTube Music, TIDAL, Deezer and TikTok, takedowns, "Teams" splits
that invite collaborators to a share of a track's earnings, and the bank of
monthly earnings per store). A release is a single (1-3 tracks), an EP (4-6)
or an album (7 or more); it is edited only as a draft, submitted with its
stores and a release date that is not in the past, and goes draft → in_review
→ live once a store has it → taken_down. A track's splits add up to at most
100% and a collaborator is invited once per track; accepted splits are paid
from the track's earnings.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, Email, IdOf, PersonName, SemanticType, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "musicdistro",
    title="Soundwire Distribution",
    category="music_distribution",
    modeled_on="DistroKid (artists, releases with UPC, tracks with ISRC, store delivery and takedowns, "
    "Teams splits with collaborators, monthly store earnings)",
    description="The label's music distribution: artists, singles, EPs and albums with their tracks and ISRCs, "
    "delivery to the streaming stores and takedowns, royalty splits shared with collaborators, and monthly "
    "streams and earnings per store.",
)

ArtistId = Annotated[str, IdOf("musicdistro.artist")]
ReleaseId = Annotated[str, IdOf("musicdistro.release")]
TrackId = Annotated[str, IdOf("musicdistro.track")]
DeliveryId = Annotated[str, IdOf("musicdistro.delivery")]
SplitId = Annotated[str, IdOf("musicdistro.split")]
EarningId = Annotated[str, IdOf("musicdistro.earning")]

Isrc = Annotated[str, SemanticType("isrc", kind="ref"), StringConstraints(pattern=r"^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$")]
"""An International Standard Recording Code, e.g. QZDA72600001."""
Upc = Annotated[str, SemanticType("upc", kind="ref"), StringConstraints(pattern=r"^[0-9]{12}$")]
"""A 12-digit Universal Product Code."""
Month = Annotated[str, StringConstraints(pattern=r"^20[0-9]{2}-(0[1-9]|1[0-2])$")]
"""A month, YYYY-MM."""
Store = Literal["spotify", "apple_music", "amazon_music", "youtube_music", "tidal", "deezer", "tiktok"]
ReleaseType = Literal["single", "ep", "album"]
ReleaseStatus = Literal["draft", "in_review", "live", "taken_down"]
DeliveryStatus = Literal["queued", "live", "takedown_requested", "taken_down"]
SplitStatus = Literal["invited", "accepted", "declined"]
Genre = Literal["pop", "hip_hop", "electronic", "rock", "jazz", "classical", "folk", "r_and_b"]

TRACKS_FOR: dict[str, tuple[int, int]] = {"single": (1, 3), "ep": (4, 6), "album": (7, 40)}
ISRC_STEM = "QZDA7"


class Artist(Timestamped):
    """An artist the label distributes."""

    id: ArtistId
    name: Title
    """Artist name as shown in stores (unique)."""
    contact_name: PersonName
    """The person behind the act."""
    email: Email
    """Where statements go."""
    spotify_verified: bool = False
    """Whether the Spotify for Artists profile is verified."""


class Release(Timestamped):
    """A single, EP or album."""

    id: ReleaseId
    title: Title
    """Release title."""
    artist_id: ArtistId
    """Primary artist."""
    type: ReleaseType = "single"
    """single, ep or album."""
    genre: Genre = "pop"
    """Primary genre."""
    release_date: Date
    """The date stores put it out."""
    upc: Upc | None = None
    """Assigned when submitted."""
    label_name: str = ""
    """Label line (P-line)."""
    status: ReleaseStatus = "draft"
    """draft, in_review, live or taken_down."""


class Track(Created):
    """A track of a release."""

    id: TrackId
    release_id: ReleaseId
    """The release."""
    title: Title
    """Track title."""
    track_number: Annotated[int, Field(ge=1)]
    """Position on the release."""
    isrc: Isrc
    """Its ISRC (unique)."""
    duration_s: Annotated[int, Field(ge=1, le=7200)]
    """Length in seconds."""
    explicit: bool = False
    """Explicit lyrics."""
    songwriter: PersonName
    """Songwriter credit."""


class Delivery(Timestamped):
    """A release's delivery to one store."""

    id: DeliveryId
    release_id: ReleaseId
    """The release."""
    store: Store
    """The store."""
    status: DeliveryStatus = "queued"
    """queued, live, takedown_requested or taken_down."""


class Split(Created):
    """A collaborator's share of a track's earnings (DistroKid Teams)."""

    id: SplitId
    track_id: TrackId
    """The track."""
    collaborator_email: Email
    """The collaborator invited."""
    collaborator_name: PersonName
    """Their name."""
    percent: Annotated[float, Field(gt=0, le=100)]
    """Share of earnings, percent."""
    status: SplitStatus = "invited"
    """invited, accepted or declined."""


class Earning(Created):
    """A month of streams and money of one track at one store."""

    id: EarningId
    track_id: TrackId
    """The track."""
    store: Store
    """The store."""
    month: Month
    """The month."""
    streams: Annotated[int, Field(ge=0)]
    """Streams or downloads."""
    amount: Cents
    """Earned, in cents."""


class ArtistEarnings(Value):
    """An artist's earnings over the reported months."""

    artist_id: ArtistId
    """The artist."""
    streams: int
    """Total streams."""
    gross: int
    """Gross earnings, cents."""
    to_collaborators: int
    """Owed to accepted splits, cents."""
    net: int
    """What the artist keeps, cents."""
    by_store: dict[str, int]
    """Gross per store, cents."""


# -- rules ------------------------------------------------------------------------------------


def _draft(ctx: Ctx, release_id: str, field: str) -> Release:
    rel = ctx.get(Release, release_id, field=field)
    if rel.status != "draft":
        raise RuleViolation(
            f"release {rel.id} is {rel.status}; only drafts change",
            field=field,
            hint="take it down and create a new release to change it",
        )
    return rel


def _guard_artist(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Artist, name=new.name):
        if other.id != new.id:
            raise Conflict(f"artist {other.id} is already called {new.name}", field="name", hint="use that artist")


def _guard_release(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status != "draft":
        raise RuleViolation(f"release {old.id} is {old.status}", field="release_id", hint="only drafts are edited")
    ctx.get(Artist, new.artist_id, field="artist_id")


def _guard_release_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(f"release {old.id} is {old.status}", field="release_id", hint="request a takedown instead")
    for t in ctx.where(Track, release_id=old.id):
        for sp in ctx.where(Split, track_id=t.id):
            ctx.delete(sp)
        ctx.delete(t)


def _guard_track(ctx: Ctx, new: Any, old: Any) -> None:
    _draft(ctx, new.release_id, "track_id")


artists = service.resource(
    Artist,
    name="artist",
    plural="artists",
    prefix="art",
    create=("name", "contact_name", "email"),
    filters=("email", "name", "spotify_verified"),
    search=("name", "contact_name"),
    update=("name", "contact_name", "email"),
    delete=False,
    guard_create=_guard_artist,
    guard_update=_guard_artist,
)
releases = service.resource(
    Release,
    name="release",
    plural="releases",
    prefix="rel",
    create=("title", "artist_id", "type", "genre", "release_date", "label_name"),
    filters=("artist_id", "status", "type", "upc"),
    search=("title",),
    update=("title", "type", "genre", "release_date", "label_name"),
    guard_create=_guard_release,
    guard_update=_guard_release,
    guard_delete=_guard_release_delete,
)
tracks = service.resource(
    Track,
    name="track",
    plural="tracks",
    prefix="trk",
    create=False,
    filters=("release_id", "isrc", "explicit"),
    search=("title", "songwriter"),
    update=("title", "duration_s", "explicit", "songwriter"),
    delete=False,
    unique=("isrc",),
    guard_update=_guard_track,
)
deliveries = service.resource(
    Delivery,
    name="delivery",
    plural="deliveries",
    prefix="dlv",
    create=False,
    get=False,
    filters=("release_id", "store", "status"),
    delete=False,
    title="store delivery",
)
splits = service.resource(
    Split,
    name="split",
    plural="splits",
    prefix="spl",
    create=False,
    filters=("track_id", "collaborator_email", "status"),
    delete=False,
    transitions={
        "accept": Transition("status", ("invited",), "accepted", "accept the split invitation"),
        "decline": Transition("status", ("invited",), "declined", "decline the split invitation"),
    },
    title="royalty split",
)
earnings = service.resource(
    Earning,
    name="earning",
    plural="earnings",
    prefix="earn",
    create=False,
    get=False,
    filters=("track_id", "store", "month"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="add a track to the release",
    write=True,
    example=first_example(
        Release,
        "release_id",
        where={"status": "draft"},
        title="Night Drive (Radio Edit)",
        duration_s=201,
        songwriter="Alex Morgan",
    ),
)
def add_track(
    ctx: Ctx,
    release_id: ReleaseId,
    title: Title,
    duration_s: Annotated[int, Field(ge=1, le=7200)],
    songwriter: PersonName,
    explicit: bool = False,
) -> Track:
    """Add a track at the end of a draft release; an ISRC is assigned to it.

    Args:
        release_id: The draft release.
        title: Track title.
        duration_s: Length in seconds.
        songwriter: Songwriter credit.
        explicit: Explicit lyrics.
    """
    rel = _draft(ctx, release_id, "release_id")
    count = len(ctx.where(Track, release_id=rel.id))
    if count >= TRACKS_FOR[rel.type][1]:
        raise RuleViolation(
            f"a {rel.type} has at most {TRACKS_FOR[rel.type][1]} tracks",
            field="release_id",
            hint="change the release type to ep or album first",
        )
    isrc = f"{ISRC_STEM}{ctx.today().year % 100:02d}{ctx.next_number(Track, 'isrc') + 90000:05d}"
    return ctx.create(
        Track,
        release_id=rel.id,
        title=title,
        track_number=count + 1,
        isrc=isrc,
        duration_s=duration_s,
        explicit=explicit,
        songwriter=songwriter,
    )


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for rel in ctx.where(Release, status="draft"):
        n = len(ctx.where(Track, release_id=rel.id))
        low, high = TRACKS_FOR[rel.type]
        if low <= n <= high and rel.release_date >= ctx.today():
            return {"release_id": rel.id, "stores": ["spotify", "apple_music"]}
    return None


@service.tool(intent="submit the release to the stores", write=True, example=_example_submit)
def submit_release(ctx: Ctx, release_id: ReleaseId, stores: list[Store]) -> Release:
    """Submit a draft for review and delivery to the chosen stores; a UPC is assigned.

    Args:
        release_id: The draft release; its track count must fit its type and its date must not be past.
        stores: The stores to deliver to (at least one, each once).
    """
    rel = _draft(ctx, release_id, "release_id")
    n = len(ctx.where(Track, release_id=rel.id))
    low, high = TRACKS_FOR[rel.type]
    if not low <= n <= high:
        raise RuleViolation(
            f"a {rel.type} has {low}-{high} tracks, this one has {n}",
            field="release_id",
            hint="add tracks with musicdistro__add_track or change its type",
        )
    if rel.release_date < ctx.today():
        raise RuleViolation("the release date is past", field="release_id", hint="update the release date")
    if not stores or len(set(stores)) != len(stores):
        raise RuleViolation("pick one or more stores, each once", field="stores", hint="list distinct stores")
    for store in stores:
        ctx.create(Delivery, release_id=rel.id, store=store)
    upc = f"{859700000000 + ctx.next_number(Release, 'upc') + 500:012d}"
    return ctx.update(rel, status="in_review", upc=upc)


@service.tool(
    intent="mark the store delivery live",
    write=True,
    example=first_example(Delivery, "delivery_id", where={"status": "queued"}),
)
def confirm_delivery(ctx: Ctx, delivery_id: DeliveryId) -> Delivery:
    """Record that a store made a queued release available; the release goes live with its first store.

    Args:
        delivery_id: The delivery.
    """
    d = ctx.get(Delivery, delivery_id, field="delivery_id")
    if d.status != "queued":
        raise RuleViolation(f"delivery {d.id} is {d.status}", field="delivery_id", hint="only queued deliveries")
    rel = ctx.get(Release, d.release_id)
    if rel.status == "in_review":
        ctx.update(rel, status="live")
    return ctx.update(d, status="live")


@service.tool(
    intent="take the release down from the stores",
    write=True,
    destructive=True,
    example=first_example(Release, "release_id", where={"status": "live"}),
)
def remove_from_stores(ctx: Ctx, release_id: ReleaseId, stores: list[Store] | None = None) -> Release:
    """Ask stores to remove a submitted release: some stores, or all (the release is then taken down).

    Args:
        release_id: The release, in review or live.
        stores: Only these stores; omit for every store.
    """
    rel = ctx.get(Release, release_id, field="release_id")
    if rel.status not in ("in_review", "live"):
        raise RuleViolation(f"release {rel.id} is {rel.status}", field="release_id", hint="nothing to take down")
    active = [d for d in ctx.where(Delivery, release_id=rel.id) if d.status in ("queued", "live")]
    chosen = active if not stores else [d for d in active if d.store in stores]
    if stores and len(chosen) != len(set(stores)):
        raise RuleViolation("a store listed does not carry the release", field="stores", hint="list its deliveries")
    for d in chosen:
        ctx.update(d, status="takedown_requested" if d.status == "live" else "taken_down")
    if len(chosen) == len(active):
        return ctx.update(rel, status="taken_down")
    return rel


def _example_split(ctx: Ctx) -> dict[str, Any] | None:
    person = ctx.population.contacts[-1]
    for t in ctx.scan(Track):
        if not ctx.where(Split, track_id=t.id):
            return {
                "track_id": t.id,
                "collaborator_email": person.email,
                "collaborator_name": person.name,
                "percent": 25,
            }
    return None


@service.tool(intent="invite a collaborator to a split", write=True, example=_example_split)
def invite_split(
    ctx: Ctx,
    track_id: TrackId,
    collaborator_email: Email,
    collaborator_name: PersonName,
    percent: Annotated[float, Field(gt=0, le=100)],
) -> Split:
    """Invite a collaborator to a share of a track's earnings; shares of a track total at most 100%.

    Args:
        track_id: The track.
        collaborator_email: Their e-mail (once per track).
        collaborator_name: Their name.
        percent: Their share, percent.
    """
    track = ctx.get(Track, track_id, field="track_id")
    live = [s for s in ctx.where(Split, track_id=track.id) if s.status != "declined"]
    if any(s.collaborator_email == collaborator_email for s in live):
        raise Conflict(
            f"{collaborator_email} already has a split of this track",
            field="collaborator_email",
            hint="decline the old invitation first",
        )
    taken = sum(s.percent for s in live)
    if taken + percent > 100:
        raise RuleViolation(
            f"splits of this track already take {taken:g}%", field="percent", hint=f"offer at most {100 - taken:g}%"
        )
    return ctx.create(
        Split,
        track_id=track.id,
        collaborator_email=collaborator_email,
        collaborator_name=collaborator_name,
        percent=percent,
    )


@service.tool(intent="show the artist's earnings", example=first_example(Artist, "artist_id"))
def artist_earnings(ctx: Ctx, artist_id: ArtistId, month: Month | None = None) -> ArtistEarnings:
    """Streams and earnings of an artist's tracks, what accepted splits take, and per store.

    Args:
        artist_id: The artist.
        month: Only this month (YYYY-MM).
    """
    artist = ctx.get(Artist, artist_id, field="artist_id")
    streams = gross = shared = 0
    by_store: dict[str, int] = {}
    for rel in ctx.where(Release, artist_id=artist.id):
        for t in ctx.where(Track, release_id=rel.id):
            share = sum(s.percent for s in ctx.where(Split, track_id=t.id, status="accepted"))
            for e in ctx.where(Earning, track_id=t.id):
                if month is None or e.month == month:
                    streams += e.streams
                    gross += e.amount
                    shared += round(e.amount * share / 100)
                    by_store[e.store] = by_store.get(e.store, 0) + e.amount
    return ArtistEarnings(
        artist_id=artist.id,
        streams=streams,
        gross=gross,
        to_collaborators=shared,
        net=gross - shared,
        by_store=by_store,
    )


# -- seed -------------------------------------------------------------------------------------

ACTS: tuple[tuple[str, Genre], ...] = (
    ("Velvet Static", "electronic"),
    ("The Harbor Lines", "rock"),
    ("Mira Sol", "pop"),
    ("Northbound Quartet", "jazz"),
)
SONGS = (
    "Night Drive",
    "Paper Moons",
    "Low Tide",
    "Signal Fire",
    "Glasshouse",
    "Afterglow",
    "Runaway Hours",
    "Copper Sky",
    "Slow Orbit",
    "Late Bloom",
)
STORES: tuple[Store, ...] = ("spotify", "apple_music", "amazon_music", "youtube_music", "tidal")
RATE = {
    "spotify": 0.4,
    "apple_music": 0.7,
    "amazon_music": 0.5,
    "youtube_music": 0.2,
    "tidal": 1.1,
    "deezer": 0.6,
    "tiktok": 0.1,
}


@service.seeder
def seed(s: SeedContext) -> None:
    """Artists fronted by the world's people, releases in every state with tracks, stores, splits, earnings."""
    pop = s.population
    people = pop.consumers[:4] if len(pop.consumers) >= 4 else pop.contacts[:4]
    today = s.now.date()
    n = 0
    for k, ((act, genre), person) in enumerate(zip(ACTS, people, strict=False)):
        artist = s.create(
            Artist,
            name=act,
            contact_name=person.name,
            email=person.email,
            spotify_verified=k % 2 == 0,
            created_at=s.ago(days=700 - 50 * k),
            updated_at=s.ago(days=40),
        )
        plan: tuple[tuple[ReleaseType, ReleaseStatus, int, int], ...] = (
            ("single", "live", 1, -200 + 10 * k),
            ("ep", "live" if k != 2 else "taken_down", 4, -90 + 5 * k),
            ("single", "in_review" if k % 2 else "draft", 2, 14 + k),
        )
        for j, (rtype, status, count, offset) in enumerate(plan):
            rel = s.create(
                Release,
                title=SONGS[(k * 3 + j) % len(SONGS)] + (" EP" if rtype == "ep" else ""),
                artist_id=artist.id,
                type=rtype,
                genre=genre,
                release_date=today + dt.timedelta(days=offset),
                upc=None if status == "draft" else f"{859700000000 + k * 10 + j:012d}",
                label_name=f"{pop.home.name} Records",
                status=status,
                created_at=s.ago(days=max(10, 30 - offset)),
                updated_at=s.ago(days=max(5, -offset)),
            )
            for t in range(count):
                n += 1
                track = s.create(
                    Track,
                    release_id=rel.id,
                    title=SONGS[(n + t) % len(SONGS)] if t else rel.title.removesuffix(" EP"),
                    track_number=t + 1,
                    isrc=f"{ISRC_STEM}25{n:05d}",
                    duration_s=170 + 13 * n % 90,
                    explicit=n % 5 == 0,
                    songwriter=person.name,
                    created_at=s.ago(days=max(10, 40 - offset)),
                )
                if status in ("live", "taken_down"):
                    _seed_money(s, track, today, k)
            _seed_deliveries(s, rel, status, k)
    _seed_splits(s)


DELIVERED: dict[str, DeliveryStatus] = {"live": "live", "in_review": "queued", "taken_down": "taken_down"}


def _seed_deliveries(s: SeedContext, rel: Release, status: ReleaseStatus, k: int) -> None:
    if status == "draft":
        return
    for j, store in enumerate(STORES[: 3 + k % 3]):
        d: DeliveryStatus = DELIVERED[status]
        if status == "live" and j == 4:
            d = "queued"
        s.create(
            Delivery, release_id=rel.id, store=store, status=d, created_at=s.ago(days=30), updated_at=s.ago(days=3 + j)
        )


def _seed_money(s: SeedContext, track: Track, today: dt.date, k: int) -> None:
    for back in range(1, 4):
        m = today.month - 1 - back
        month = f"{today.year + m // 12:04d}-{m % 12 + 1:02d}"
        for store in STORES[:3]:
            streams = s.rng.randint(200, 20000) // (k + 1)
            s.create(
                Earning,
                track_id=track.id,
                store=store,
                month=month,
                streams=streams,
                amount=round(streams * RATE[store] / 10),
                created_at=s.ago(days=30 * back - 10),
            )


def _seed_splits(s: SeedContext) -> None:
    pop = s.population
    producers = pop.contacts[-3:]
    for k, track in enumerate(s.records(Track)[:6]):
        p = producers[k % len(producers)]
        status: SplitStatus = ("accepted", "invited", "declined")[k % 3]
        s.create(
            Split,
            track_id=track.id,
            collaborator_email=p.email,
            collaborator_name=p.name,
            percent=20 + 5 * (k % 3),
            status=status,
            created_at=s.ago(days=60 - k),
        )
