"""Cadenza Music: a streaming catalog with listeners' playlists, saved library, followed artists and playback queue.

Modeled on the Spotify Web API v1 (artists, albums with available_markets,
tracks with duration_ms and explicit flags, users with country, product and
explicit_content filter settings, playlists with public and collaborative
flags and their items, the "Your Music" library, followed artists, devices and
the player queue). Rules the API enforces: a playlist holds at most 10,000
items and one request adds or removes at most 100; a collaborative playlist
cannot be public; only the owner changes a playlist's details, and only the
owner (or, on a collaborative playlist, anyone) adds or removes items; a track
is playable, addable and queueable only in the markets its album is released
in (the listener's country); an account whose explicit-content filter is on
cannot add explicit tracks to playlists or to its queue, and a locked filter
(managed accounts) cannot be switched off; the library saves and removes at
most 50 tracks a call, and following at most 50 artists; the player needs a
Premium account, an active device that is not restricted, and the queue holds
at most 80 tracks.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "tunes",
    title="Cadenza Music",
    category="music",
    modeled_on="Spotify Web API v1 (artists, albums, tracks, users, playlists and playlist items, saved tracks, "
    "followed artists, player devices and queue, markets and explicit-content settings)",
    description="Music streaming: a catalog of artists, albums and tracks released in given markets; listeners "
    "with Free or Premium accounts and explicit-content filters; their playlists (public, private or "
    "collaborative), saved tracks, followed artists, devices and playback queue.",
)

ArtistId = Annotated[str, IdOf("tunes.artist")]
AlbumId = Annotated[str, IdOf("tunes.album")]
TrackId = Annotated[str, IdOf("tunes.track")]
UserId = Annotated[str, IdOf("tunes.user")]
PlaylistId = Annotated[str, IdOf("tunes.playlist")]
DeviceId = Annotated[str, IdOf("tunes.device")]

PlaylistName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
"""A playlist's name, 1 to 100 characters."""

AlbumType = Literal["album", "single", "compilation"]
Product = Literal["free", "premium"]
DeviceType = Literal["computer", "smartphone", "speaker", "tv", "car"]

MAX_PLAYLIST_ITEMS = 10_000
MAX_ITEMS_PER_REQUEST = 100
MAX_LIBRARY_PER_REQUEST = 50
MAX_FOLLOW_PER_REQUEST = 50
MAX_QUEUE = 80
MAX_DESCRIPTION = 300


class Artist(Record):
    """A recording artist in the catalog."""

    id: ArtistId
    name: Title
    """The artist's name."""
    genres: tuple[str, ...] = ()
    """Genres the artist is associated with."""
    followers: int = 0
    """How many listeners follow the artist."""
    popularity: int = Field(default=0, ge=0, le=100)
    """0–100, from recent plays."""


class Album(Record):
    """An album, single or compilation by one artist."""

    id: AlbumId
    artist_id: ArtistId
    """The album's main artist."""
    name: Title
    """The album's title."""
    album_type: AlbumType = "album"
    """album, single or compilation."""
    release_date: Date
    """When it was released."""
    label: str = ""
    """The record label."""
    total_tracks: int = 0
    """How many tracks it has."""
    available_markets: tuple[Country, ...] = ()
    """Countries (ISO 3166-1 alpha-2) where it can be played."""


class Track(Record):
    """A track on an album."""

    id: TrackId
    album_id: AlbumId
    """The album it is on."""
    artist_id: ArtistId
    """Its main artist."""
    name: Title
    """The track's title."""
    track_number: int = Field(ge=1)
    """Its position on the album."""
    duration_ms: int = Field(ge=1)
    """Its length in milliseconds."""
    explicit: bool = False
    """Whether it has explicit lyrics."""
    popularity: int = Field(default=0, ge=0, le=100)
    """0–100, from recent plays."""
    available_markets: tuple[Country, ...] = ()
    """Countries where it can be played (its album's markets)."""


class User(Created):
    """A listener's account."""

    id: UserId
    email: Email
    """The account's e-mail."""
    display_name: PersonName
    """The name shown on the profile."""
    country: Country
    """The account's market: what it can play."""
    product: Product = "free"
    """free or premium; the player needs premium."""
    explicit_filter_enabled: bool = False
    """Whether explicit content is kept from the account."""
    explicit_filter_locked: bool = False
    """Whether the filter is locked on (a managed or child account): it cannot be switched off."""


class Playlist(Timestamped):
    """A listener's playlist."""

    id: PlaylistId
    owner_id: UserId
    """The listener who owns it."""
    name: PlaylistName
    """Its name."""
    description: Text = ""
    """Its description, at most 300 characters."""
    public: bool = True
    """Whether it shows on the owner's profile."""
    collaborative: bool = False
    """Whether other listeners may add and remove items (never public)."""
    track_count: int = 0
    """How many items it holds."""
    snapshot_id: str = "1"
    """Changes with every change of its items."""


class PlaylistItem(Record):
    """A track at a position of a playlist."""

    id: Annotated[str, IdOf("tunes.playlist_item")]
    playlist_id: PlaylistId
    """The playlist."""
    track_id: TrackId
    """The track."""
    position: int = Field(ge=0)
    """0-based position."""
    added_by: UserId
    """Who added it."""
    added_at: DateTime
    """When it was added."""


class SavedTrack(Record):
    """A track in a listener's library ("Liked Songs")."""

    id: Annotated[str, IdOf("tunes.saved_track")]
    user_id: UserId
    """The listener."""
    track_id: TrackId
    """The track."""
    added_at: DateTime
    """When it was saved."""


class FollowedArtist(Record):
    """An artist a listener follows."""

    id: Annotated[str, IdOf("tunes.followed_artist")]
    user_id: UserId
    """The listener."""
    artist_id: ArtistId
    """The artist."""
    followed_at: DateTime
    """When they followed."""


class Device(Record):
    """A device a listener plays on."""

    id: DeviceId
    user_id: UserId
    """Its owner."""
    name: str
    """The device's name."""
    type: DeviceType = "smartphone"
    """computer, smartphone, speaker, tv or car."""
    is_active: bool = False
    """Whether playback is on this device now (one per listener)."""
    is_restricted: bool = False
    """Whether it refuses remote commands (no queueing or transfer)."""
    current_track_id: TrackId | None = None
    """What is playing on it."""


class QueueEntry(Record):
    """A track waiting in a listener's playback queue."""

    id: Annotated[str, IdOf("tunes.queue_entry")]
    user_id: UserId
    """The listener."""
    device_id: DeviceId
    """The device it plays on."""
    track_id: TrackId
    """The track."""
    position: int = Field(ge=0)
    """0-based place in the queue."""


# -- helpers ----------------------------------------------------------------------------------


def _many(ids: list[str], field: str, limit: int, what: str) -> list[str]:
    if not ids:
        raise RuleViolation(f"name at least one {what}", field=field, hint=f"pass 1 to {limit} ids")
    if len(ids) > limit:
        raise RuleViolation(
            f"{len(ids)} {what}s in one request; at most {limit}", field=field, hint="split the request"
        )
    return list(dict.fromkeys(ids))


def _playable(ctx: Ctx, user: User, track: Track, field: str) -> None:
    if user.country not in track.available_markets:
        raise RuleViolation(
            f"track {track.name!r} is not available in {user.country}",
            field=field,
            hint="pick a track released in the listener's market",
        )
    if track.explicit and user.explicit_filter_enabled:
        raise RuleViolation(
            f"track {track.name!r} is explicit and {user.display_name}'s account filters explicit content",
            field=field,
            hint="pick a clean version, or switch the filter off with tunes__update_user (unless locked)",
        )


def _may_edit_items(playlist: Playlist, user: User) -> None:
    if playlist.owner_id != user.id and not playlist.collaborative:
        raise RuleViolation(
            f"{user.display_name} does not own playlist {playlist.name!r}, which is not collaborative",
            field="user_id",
            hint="act as the owner, or have the owner make it collaborative",
        )


def _renumber(ctx: Ctx, playlist: Playlist) -> Playlist:
    items = sorted(ctx.where(PlaylistItem, playlist_id=playlist.id), key=lambda i: i.position)
    for n, item in enumerate(items):
        if item.position != n:
            ctx.update(item, position=n)
    return ctx.update(
        playlist, track_count=len(items), snapshot_id=str(int(playlist.snapshot_id) + 1), updated_at=ctx.now()
    )


def _guard_playlist(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        return
    if new.collaborative and new.public:
        raise RuleViolation(
            "a collaborative playlist cannot be public",
            field="public" if old is not None and old.collaborative else "collaborative",
            hint="set public to false to make it collaborative",
        )
    if len(new.description) > MAX_DESCRIPTION:
        raise RuleViolation(
            f"the description is over {MAX_DESCRIPTION} characters", field="description", hint="shorten it"
        )
    if old is not None:
        ctx.update(new, updated_at=ctx.now())


def _guard_user(ctx: Ctx, new: Any, old: Any) -> None:
    if old.explicit_filter_locked and not new.explicit_filter_enabled:
        raise RuleViolation(
            f"{old.display_name}'s explicit-content filter is locked on",
            field="explicit_filter_enabled",
            hint="a locked filter is managed by the account's parent or administrator",
        )


artists = service.resource(
    Artist,
    name="artist",
    plural="artists",
    prefix="ar",
    create=False,
    get=False,
    filters=(),
    search=("name",),
    delete=False,
)
albums = service.resource(
    Album,
    name="album",
    plural="albums",
    prefix="al",
    create=False,
    get=False,
    filters=("artist_id", "album_type"),
    search=("name", "label"),
    delete=False,
)
tracks = service.resource(
    Track,
    name="track",
    plural="tracks",
    prefix="tr",
    create=False,
    filters=("album_id", "artist_id", "explicit"),
    search=("name",),
    delete=False,
)
users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="us",
    create=False,
    get=False,
    filters=("email", "country", "product"),
    search=("display_name",),
    update=("display_name", "explicit_filter_enabled"),
    delete=False,
    unique=("email",),
    guard_update=_guard_user,
    title="listener",
)
playlists = service.resource(
    Playlist,
    name="playlist",
    plural="playlists",
    prefix="pl",
    create=False,
    filters=("owner_id", "public", "collaborative"),
    search=("name", "description"),
    update=("name", "description", "public", "collaborative"),
    delete=False,
    guard_update=_guard_playlist,
)
playlist_items = service.resource(
    PlaylistItem,
    name="playlist_item",
    plural="playlist_items",
    prefix="pli",
    create=False,
    get=False,
    filters=("playlist_id", "track_id"),
    delete=False,
    title="playlist item",
)
saved_tracks = service.resource(
    SavedTrack,
    name="saved_track",
    plural="saved_tracks",
    prefix="st",
    create=False,
    get=False,
    filters=("user_id", "track_id"),
    delete=False,
    title="saved track",
)
followed_artists = service.resource(
    FollowedArtist,
    name="followed_artist",
    plural="followed_artists",
    prefix="fa",
    create=False,
    get=False,
    filters=("user_id", "artist_id"),
    delete=False,
    title="followed artist",
)
devices = service.resource(
    Device,
    name="device",
    plural="devices",
    prefix="dv",
    create=False,
    get=False,
    filters=("user_id", "is_active"),
    delete=False,
)
queue = service.resource(
    QueueEntry,
    name="queue_entry",
    plural="queue_entries",
    prefix="qe",
    create=False,
    get=False,
    filters=("user_id",),
    delete=False,
    title="queued track",
)


# -- examples ---------------------------------------------------------------------------------


def _fits(ctx: Ctx, user: User, track: Track) -> bool:
    return user.country in track.available_markets and not (track.explicit and user.explicit_filter_enabled)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    for pl in ctx.scan(Playlist):
        owner = ctx.get(User, pl.owner_id)
        have = {i.track_id for i in ctx.where(PlaylistItem, playlist_id=pl.id)}
        for t in ctx.scan(Track):
            if t.id not in have and _fits(ctx, owner, t):
                return {"playlist_id": pl.id, "user_id": owner.id, "track_ids": [t.id]}
    return None


def _example_remove(ctx: Ctx) -> dict[str, Any] | None:
    for item in ctx.scan(PlaylistItem):
        pl = ctx.get(Playlist, item.playlist_id)
        return {"playlist_id": pl.id, "user_id": pl.owner_id, "track_ids": [item.track_id]}
    return None


def _example_save(ctx: Ctx) -> dict[str, Any] | None:
    user = next(iter(ctx.scan(User)))
    saved = {s.track_id for s in ctx.where(SavedTrack, user_id=user.id)}
    for t in ctx.scan(Track):
        if t.id not in saved:
            return {"user_id": user.id, "track_ids": [t.id]}
    return None


def _example_follow(ctx: Ctx) -> dict[str, Any] | None:
    user = next(iter(ctx.scan(User)))
    have = {f.artist_id for f in ctx.where(FollowedArtist, user_id=user.id)}
    for a in ctx.scan(Artist):
        if a.id not in have:
            return {"user_id": user.id, "artist_ids": [a.id]}
    return None


def _example_queue(ctx: Ctx) -> dict[str, Any] | None:
    for user in ctx.where(User, product="premium"):
        dev = ctx.first(Device, user_id=user.id, is_active=True)
        if dev is None or dev.is_restricted:
            continue
        for t in ctx.scan(Track):
            if _fits(ctx, user, t):
                return {"user_id": user.id, "track_id": t.id}
    return None


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    for user in ctx.where(User, product="premium"):
        for dev in ctx.where(Device, user_id=user.id, is_active=False, is_restricted=False):
            return {"user_id": user.id, "device_id": dev.id}
    return None


# -- playlists --------------------------------------------------------------------------------


@service.tool(
    intent="create a playlist for the listener",
    write=True,
    example=first_example(User, "user_id", name="Road trip"),
)
def create_playlist(
    ctx: Ctx,
    user_id: UserId,
    name: PlaylistName,
    description: Text = "",
    public: bool = True,
    collaborative: bool = False,
) -> Playlist:
    """Create an empty playlist owned by the listener (a collaborative one must not be public).

    Args:
        user_id: The listener who will own it.
        name: The playlist's name.
        description: Its description, at most 300 characters.
        public: Whether it shows on the listener's profile.
        collaborative: Whether other listeners may add and remove its tracks; needs public false.
    """
    user = ctx.get(User, user_id, field="user_id")
    pl = ctx.create(
        Playlist,
        owner_id=user.id,
        name=name,
        description=description,
        public=public,
        collaborative=collaborative,
    )
    _guard_playlist(ctx, pl, None)
    return pl


@service.tool(intent="add the tracks to the playlist", write=True, example=_example_add)
def add_tracks_to_playlist(
    ctx: Ctx,
    playlist_id: PlaylistId,
    user_id: UserId,
    track_ids: list[TrackId],
    position: int | None = None,
) -> Playlist:
    """Add up to 100 tracks to a playlist, at the end or from a position (a playlist holds at most 10,000).

    Only the owner adds to a playlist that is not collaborative. Every track must be available in the
    adding listener's market, and explicit tracks are refused when their explicit-content filter is on.

    Args:
        playlist_id: The playlist.
        user_id: The listener who adds them.
        track_ids: The tracks, in order (1 to 100; a track may appear more than once in a playlist).
        position: 0-based position to insert at (default: the end).
    """
    pl = ctx.get(Playlist, playlist_id, field="playlist_id")
    user = ctx.get(User, user_id, field="user_id")
    if not track_ids or len(track_ids) > MAX_ITEMS_PER_REQUEST:
        _many(track_ids, "track_ids", MAX_ITEMS_PER_REQUEST, "track")
    _may_edit_items(pl, user)
    if pl.track_count + len(track_ids) > MAX_PLAYLIST_ITEMS:
        raise RuleViolation(
            f"playlist {pl.name!r} holds {pl.track_count} tracks; {len(track_ids)} more would pass "
            f"the {MAX_PLAYLIST_ITEMS:,} limit",
            field="track_ids",
            hint="remove tracks first, or start a new playlist",
        )
    at = pl.track_count if position is None else position
    if not 0 <= at <= pl.track_count:
        raise RuleViolation(
            f"position {at} is outside 0..{pl.track_count}", field="position", hint="omit it to add at the end"
        )
    found = [ctx.get(Track, t, field="track_ids") for t in track_ids]
    for t in found:
        _playable(ctx, user, t, "track_ids")
    for item in ctx.where(PlaylistItem, playlist_id=pl.id):
        if item.position >= at:
            ctx.update(item, position=item.position + len(found))
    for n, t in enumerate(found):
        ctx.create(
            PlaylistItem, playlist_id=pl.id, track_id=t.id, position=at + n, added_by=user.id, added_at=ctx.now()
        )
    return _renumber(ctx, pl)


@service.tool(intent="remove the tracks from the playlist", write=True, destructive=True, example=_example_remove)
def remove_tracks_from_playlist(
    ctx: Ctx, playlist_id: PlaylistId, user_id: UserId, track_ids: list[TrackId]
) -> Playlist:
    """Remove every occurrence of up to 100 tracks from a playlist.

    Args:
        playlist_id: The playlist.
        user_id: The listener who removes them (the owner, or anyone on a collaborative playlist).
        track_ids: The tracks to remove (1 to 100); each must be in the playlist.
    """
    pl = ctx.get(Playlist, playlist_id, field="playlist_id")
    user = ctx.get(User, user_id, field="user_id")
    wanted = _many(track_ids, "track_ids", MAX_ITEMS_PER_REQUEST, "track")
    _may_edit_items(pl, user)
    items = ctx.where(PlaylistItem, playlist_id=pl.id)
    for t in wanted:
        if not any(i.track_id == t for i in items):
            raise NotFound(
                f"track {t} is not in playlist {pl.name!r}",
                field="track_ids",
                hint="list the playlist's items with tunes__list_playlist_items",
            )
    for item in items:
        if item.track_id in wanted:
            ctx.delete(item)
    return _renumber(ctx, pl)


@service.tool(
    intent="move tracks within the playlist",
    write=True,
    example=first_example(
        Playlist, "playlist_id", match=lambda c, p: p.track_count >= 2, range_start=0, insert_before=2
    ),
)
def reorder_playlist_items(
    ctx: Ctx, playlist_id: PlaylistId, range_start: int, insert_before: int, range_length: int = 1
) -> Playlist:
    """Move a run of items to another place in the playlist (the playlist's owner's edit).

    Args:
        playlist_id: The playlist.
        range_start: 0-based position of the first item to move.
        insert_before: The position, counted before the move, to put them before (0..track count).
        range_length: How many consecutive items to move.
    """
    pl = ctx.get(Playlist, playlist_id, field="playlist_id")
    n = pl.track_count
    if range_length < 1 or range_start < 0 or range_start + range_length > n:
        raise RuleViolation(
            f"items {range_start}..{range_start + range_length - 1} are not all in a playlist of {n}",
            field="range_start",
            hint="positions start at 0",
        )
    if not 0 <= insert_before <= n:
        raise RuleViolation(f"insert_before must be within 0..{n}", field="insert_before", hint="positions start at 0")
    items = sorted(ctx.where(PlaylistItem, playlist_id=pl.id), key=lambda i: i.position)
    moving = items[range_start : range_start + range_length]
    before = [i for i in items[:insert_before] if i not in moving]
    after = [i for i in items[insert_before:] if i not in moving]
    for pos, item in enumerate(before + moving + after):
        if item.position != pos:
            ctx.update(item, position=pos)
    return ctx.update(pl, snapshot_id=str(int(pl.snapshot_id) + 1), updated_at=ctx.now())


class PlaylistSummary(BaseModel):
    """What a playlist adds up to."""

    playlist_id: PlaylistId = Field(description="The playlist.")
    name: str = Field(description="Its name.")
    track_count: int = Field(description="How many items it holds.")
    total_duration_ms: int = Field(description="Their summed length in milliseconds.")
    explicit_count: int = Field(description="How many items are explicit.")
    artist_ids: list[ArtistId] = Field(description="The distinct artists, in playlist order.")
    remaining_capacity: int = Field(description="How many more items fit under the 10,000 limit.")


@service.tool(intent="sum up the playlist's length", example=first_example(Playlist, "playlist_id"))
def get_playlist_summary(ctx: Ctx, playlist_id: PlaylistId) -> PlaylistSummary:
    """Total length, explicit items and artists of a playlist.

    Args:
        playlist_id: The playlist.
    """
    pl = ctx.get(Playlist, playlist_id, field="playlist_id")
    items = sorted(ctx.where(PlaylistItem, playlist_id=pl.id), key=lambda i: i.position)
    found = [ctx.get(Track, i.track_id) for i in items]
    return PlaylistSummary(
        playlist_id=pl.id,
        name=pl.name,
        track_count=len(found),
        total_duration_ms=sum(t.duration_ms for t in found),
        explicit_count=sum(t.explicit for t in found),
        artist_ids=list(dict.fromkeys(t.artist_id for t in found)),
        remaining_capacity=MAX_PLAYLIST_ITEMS - len(found),
    )


# -- library and follows ----------------------------------------------------------------------


class LibraryChange(BaseModel):
    """What a library call changed."""

    user_id: UserId = Field(description="The listener.")
    changed: list[str] = Field(description="The ids added or removed.")
    unchanged: list[str] = Field(description="The ids that were already so.")


@service.tool(intent="save the tracks to the listener's library", write=True, example=_example_save)
def save_tracks(ctx: Ctx, user_id: UserId, track_ids: list[TrackId]) -> LibraryChange:
    """Save up to 50 tracks to the listener's Liked Songs (already saved ones stay as they are).

    Args:
        user_id: The listener.
        track_ids: The tracks (1 to 50).
    """
    user = ctx.get(User, user_id, field="user_id")
    wanted = _many(track_ids, "track_ids", MAX_LIBRARY_PER_REQUEST, "track")
    changed, same = [], []
    for t in wanted:
        ctx.get(Track, t, field="track_ids")
        if ctx.first(SavedTrack, user_id=user.id, track_id=t):
            same.append(t)
        else:
            ctx.create(SavedTrack, user_id=user.id, track_id=t, added_at=ctx.now())
            changed.append(t)
    return LibraryChange(user_id=user.id, changed=changed, unchanged=same)


@service.tool(
    intent="remove the tracks from the listener's library",
    write=True,
    destructive=True,
    example=first_example(SavedTrack, None, fields={"user_id": "user_id"}),
)
def remove_saved_tracks(ctx: Ctx, user_id: UserId, track_ids: list[TrackId] | None = None) -> LibraryChange:
    """Remove up to 50 tracks from the listener's Liked Songs.

    Args:
        user_id: The listener.
        track_ids: The tracks (1 to 50); default: the listener's most recently saved track.
    """
    user = ctx.get(User, user_id, field="user_id")
    saved = ctx.where(SavedTrack, user_id=user.id)
    if track_ids is None:
        if not saved:
            raise NotFound(f"{user.display_name} has no saved tracks", field="user_id", hint="pick another listener")
        track_ids = [max(saved, key=lambda s: (s.added_at, s.id)).track_id]
    wanted = _many(track_ids, "track_ids", MAX_LIBRARY_PER_REQUEST, "track")
    changed, same = [], []
    for t in wanted:
        rec = next((s for s in saved if s.track_id == t), None)
        if rec is None:
            same.append(t)
        else:
            ctx.delete(rec)
            changed.append(t)
    return LibraryChange(user_id=user.id, changed=changed, unchanged=same)


@service.tool(intent="follow the artists for the listener", write=True, example=_example_follow)
def follow_artists(ctx: Ctx, user_id: UserId, artist_ids: list[ArtistId]) -> LibraryChange:
    """Follow up to 50 artists (already followed ones stay as they are).

    Args:
        user_id: The listener.
        artist_ids: The artists (1 to 50).
    """
    user = ctx.get(User, user_id, field="user_id")
    changed, same = [], []
    for a in _many(artist_ids, "artist_ids", MAX_FOLLOW_PER_REQUEST, "artist"):
        artist = ctx.get(Artist, a, field="artist_ids")
        if ctx.first(FollowedArtist, user_id=user.id, artist_id=a):
            same.append(a)
            continue
        ctx.create(FollowedArtist, user_id=user.id, artist_id=a, followed_at=ctx.now())
        ctx.update(artist, followers=artist.followers + 1)
        changed.append(a)
    return LibraryChange(user_id=user.id, changed=changed, unchanged=same)


@service.tool(
    intent="unfollow the artists for the listener",
    write=True,
    destructive=True,
    example=first_example(FollowedArtist, None, fields={"user_id": "user_id", "artist_id": "artist_id"}),
)
def unfollow_artist(ctx: Ctx, user_id: UserId, artist_id: ArtistId) -> FollowedArtist:
    """Stop following an artist the listener follows.

    Args:
        user_id: The listener.
        artist_id: The artist.
    """
    user = ctx.get(User, user_id, field="user_id")
    artist = ctx.get(Artist, artist_id, field="artist_id")
    rec = ctx.first(FollowedArtist, user_id=user.id, artist_id=artist.id)
    if rec is None:
        raise NotFound(
            f"{user.display_name} does not follow {artist.name}",
            field="artist_id",
            hint="list their follows with tunes__list_followed_artists",
        )
    ctx.delete(rec)
    ctx.update(artist, followers=max(0, artist.followers - 1))
    return rec


# -- player -----------------------------------------------------------------------------------


def _premium(user: User) -> None:
    if user.product != "premium":
        raise RuleViolation(
            f"{user.display_name} has a Free account; the player needs Premium",
            field="user_id",
            hint="PREMIUM_REQUIRED: the listener must upgrade",
        )


def _commandable(device: Device, field: str) -> None:
    if device.is_restricted:
        raise RuleViolation(
            f"device {device.name!r} is restricted and takes no remote commands",
            field=field,
            hint="play on another of the listener's devices",
        )


@service.tool(intent="queue the track on the listener's device", write=True, example=_example_queue)
def add_to_queue(ctx: Ctx, user_id: UserId, track_id: TrackId) -> QueueEntry:
    """Add a track to the end of the listener's queue on their active device (Premium; at most 80 queued).

    Args:
        user_id: The listener.
        track_id: The track; it must be available in their market and pass their explicit filter.
    """
    user = ctx.get(User, user_id, field="user_id")
    track = ctx.get(Track, track_id, field="track_id")
    _premium(user)
    device = ctx.first(Device, user_id=user.id, is_active=True)
    if device is None:
        raise NotFound(
            f"{user.display_name} has no active device",
            field="user_id",
            hint="start playback on a device with tunes__transfer_playback",
        )
    _commandable(device, "user_id")
    _playable(ctx, user, track, "track_id")
    waiting = ctx.where(QueueEntry, user_id=user.id)
    if len(waiting) >= MAX_QUEUE:
        raise Conflict(f"the queue already holds {MAX_QUEUE} tracks", field="track_id", hint="wait for it to play")
    return ctx.create(QueueEntry, user_id=user.id, device_id=device.id, track_id=track.id, position=len(waiting))


@service.tool(intent="move the listener's playback to the device", write=True, example=_example_transfer)
def transfer_playback(ctx: Ctx, user_id: UserId, device_id: DeviceId) -> Device:
    """Make a device the listener's active one; the queue and current track move with it (Premium).

    Args:
        user_id: The listener.
        device_id: One of their devices that is not restricted.
    """
    user = ctx.get(User, user_id, field="user_id")
    device = ctx.get(Device, device_id, field="device_id")
    if device.user_id != user.id:
        raise RuleViolation(
            f"device {device.name!r} is not {user.display_name}'s",
            field="device_id",
            hint="list the listener's devices with tunes__list_devices",
        )
    _premium(user)
    _commandable(device, "device_id")
    if device.is_active:
        return device
    current = None
    for other in ctx.where(Device, user_id=user.id, is_active=True):
        current = other.current_track_id
        ctx.update(other, is_active=False, current_track_id=None)
    for entry in ctx.where(QueueEntry, user_id=user.id):
        ctx.update(entry, device_id=device.id)
    return ctx.update(device, is_active=True, current_track_id=current)


# -- seed -------------------------------------------------------------------------------------

ARTISTS = (
    ("The Lantern Hours", ("indie rock",)),
    ("Mira Solace", ("pop", "dance pop")),
    ("Kinetic Youth", ("hip hop",)),
    ("Ondine Quartet", ("classical", "chamber")),
    ("Dusty Meridian", ("country", "americana")),
    ("Neon Tidal", ("electronic", "house")),
)
ALBUM_NAMES = ("First Light", "Afterglow", "Paper Maps", "Low Tide", "Static Bloom", "Open Roads", "Glass Harbor")
TRACK_WORDS = ("Echoes", "Satellite", "Gold", "Runaway", "Midnight", "Paper", "Summer", "Wires", "Northbound", "Home")
LABELS = ("Harbor Lights Records", "Fieldnote Music", "Blue Dial Recordings")
WORLD_MARKETS = ("US", "CA", "GB", "DE", "FR", "ES", "IT", "NL", "BR", "MX", "AU", "JP", "IN", "SE", "PL")
DEVICES: tuple[tuple[str, DeviceType], ...] = (("Phone", "smartphone"), ("Laptop", "computer"), ("Car", "car"))


@service.seeder
def seed(s: SeedContext) -> None:
    """A catalog in several markets, consumer listeners with playlists, libraries, follows, devices and queues."""
    cat = _seed_catalog(s)
    listeners = _seed_users(s)
    for k, user in enumerate(listeners):
        _seed_library(s, user, cat, k)
    follows = [f.artist_id for f in s.records(FollowedArtist)]
    for artist in s.records(Artist):
        s.update(artist, followers=follows.count(artist.id) + 1000 * artist.popularity)


def _seed_catalog(s: SeedContext) -> list[Track]:
    """Six artists with two releases each; some explicit tracks and one release held back from most markets."""
    out: list[Track] = []
    for a, (name, genres) in enumerate(ARTISTS):
        artist = s.create(Artist, name=name, genres=genres, popularity=s.rng.randint(30, 90))
        for b in range(2):
            kind: AlbumType = "album" if b == 0 else "single"
            markets = WORLD_MARKETS if (a + b) % 5 else WORLD_MARKETS[6:]
            n_tracks = 5 if kind == "album" else 2
            album = s.create(
                Album,
                artist_id=artist.id,
                name=ALBUM_NAMES[(a + 3 * b) % len(ALBUM_NAMES)],
                album_type=kind,
                release_date=s.now.date() - dt.timedelta(days=40 + 300 * a + 150 * b),
                label=LABELS[a % len(LABELS)],
                total_tracks=n_tracks,
                available_markets=markets,
            )
            for t in range(n_tracks):
                word = TRACK_WORDS[(a * 3 + b * 5 + t) % len(TRACK_WORDS)]
                out.append(
                    s.create(
                        Track,
                        album_id=album.id,
                        artist_id=artist.id,
                        name=f"{word} {'Part ' + str(t + 1) if t else ''}".strip(),
                        track_number=t + 1,
                        duration_ms=s.rng.randint(150_000, 330_000),
                        explicit=genres[0] == "hip hop" or (a == 0 and t == 2),
                        popularity=s.rng.randint(10, 95),
                        available_markets=markets,
                    )
                )
    return out


def _seed_users(s: SeedContext) -> list[User]:
    """The first eight consumers: Premium and Free accounts, one with a locked explicit filter."""
    out = []
    for k, p in enumerate(s.population.consumers[:8]):
        country = p.place.country if p.place.country in WORLD_MARKETS else "US"
        out.append(
            s.create(
                User,
                email=p.email,
                display_name=p.name,
                country=country,
                product="premium" if k % 3 != 2 else "free",
                explicit_filter_enabled=k in (3, 5),
                explicit_filter_locked=k == 5,
                created_at=s.now - dt.timedelta(days=700 - 60 * k),
            )
        )
    return out


def _seed_library(s: SeedContext, user: User, cat: list[Track], k: int) -> None:
    """Two playlists (one collaborative and private), saved tracks, follows, devices and a short queue."""
    ok = [t for t in cat if user.country in t.available_markets and not (t.explicit and user.explicit_filter_enabled)]
    plans = ((f"{user.display_name.split()[0]}'s mix", True, False), ("Shared party list", False, True))
    for n, (name, public, collab) in enumerate(plans):
        picks = ok[(k + n) % 4 :: 3][: 6 + n * 2]
        when = s.now - dt.timedelta(days=30 - k - n)
        pl = s.create(
            Playlist,
            owner_id=user.id,
            name=name,
            description="Songs for the weekend." if n == 0 else "Everyone add your favourites.",
            public=public,
            collaborative=collab,
            track_count=len(picks),
            snapshot_id=str(len(picks) + 1),
            created_at=when,
            updated_at=when,
        )
        for pos, t in enumerate(picks):
            s.create(PlaylistItem, playlist_id=pl.id, track_id=t.id, position=pos, added_by=user.id, added_at=when)
    for j, t in enumerate(ok[k % 5 :: 4][:5]):
        s.create(SavedTrack, user_id=user.id, track_id=t.id, added_at=s.now - dt.timedelta(days=20 - j, hours=k))
    artist_ids = list(dict.fromkeys(t.artist_id for t in ok))
    for j, a in enumerate(artist_ids[k % 3 : k % 3 + 2]):
        s.create(FollowedArtist, user_id=user.id, artist_id=a, followed_at=s.now - dt.timedelta(days=50 - j))
    active: Device | None = None
    for j, (label, kind) in enumerate(DEVICES[: 2 + k % 2]):
        dev = s.create(
            Device,
            user_id=user.id,
            name=f"{user.display_name.split()[0]}'s {label}",
            type=kind,
            is_active=j == 0,
            is_restricted=kind == "car",
            current_track_id=ok[0].id if j == 0 and ok else None,
        )
        active = active or dev
    if user.product == "premium" and active is not None:
        for pos, t in enumerate(ok[1:3]):
            s.create(QueueEntry, user_id=user.id, device_id=active.id, track_id=t.id, position=pos)
