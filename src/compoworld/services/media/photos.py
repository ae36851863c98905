"""Lumen Photos: people's photo and video libraries, albums, shared albums with contributors, archive and trash.

Modeled on the Google Photos Library API v1 (mediaItems with mediaMetadata:
creationTime, width, height, photo camera make/model and video fps;
mediaItems.search with date and content filters, favorites and archived
items; albums.create, albums.batchAddMediaItems / batchRemoveMediaItems with
at most 50 items per call, coverPhotoMediaItemId; albums.share with
isCollaborative and isCommentable shareInfo, sharedAlbums.join / leave by
share token, albums.unshare) and the Google Photos trash that keeps items 60
days: a media item's file name must fit its MIME type; only the album's owner
adds to it, or contributors of a collaborative shared album, and only their
own active items; trashing takes an item out of every album, and it is
restored only within 60 days; unsharing removes the contributors and what they
added; a cover photo must be in the album.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, DateTime, Email, IdOf
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "photos",
    title="Lumen Photos",
    category="photo_library",
    modeled_on="Google Photos Library API v1 (mediaItems, mediaItems.search, albums, batchAddMediaItems, "
    "albums.share/unshare, sharedAlbums.join/leave) with the Google Photos archive and 60-day trash",
    description="Each person's library of photos and videos with their camera metadata: favorites, the "
    "archive, the trash (restorable for 60 days), albums with cover photos, and shared albums others join "
    "by link and, when collaborative, add their own photos to.",
)

MediaItemId = Annotated[str, IdOf("photos.media_item")]
AlbumId = Annotated[str, IdOf("photos.album")]
ContributorId = Annotated[str, IdOf("photos.contributor")]

MediaType = Literal["photo", "video"]
MediaStatus = Literal["active", "archived", "trashed"]
ContributorRole = Literal["owner", "contributor"]
Filename = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 _.\-]{0,250}\.[A-Za-z0-9]{2,4}$")]
"""A file name with its extension."""
AlbumTitle = Annotated[str, StringConstraints(min_length=1, max_length=500)]
"""An album's title."""
Caption = Annotated[str, StringConstraints(max_length=1000)]
"""A media item's description."""
ShareToken = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{16,64}$")]
"""The token in a shared album's link."""

TRASH_DAYS = 60
BATCH = 50
MIME_EXT: dict[str, tuple[MediaType, tuple[str, ...]]] = {
    "image/jpeg": ("photo", ("jpg", "jpeg")),
    "image/png": ("photo", ("png",)),
    "image/heic": ("photo", ("heic",)),
    "image/webp": ("photo", ("webp",)),
    "video/mp4": ("video", ("mp4",)),
    "video/quicktime": ("video", ("mov",)),
}
Mime = Literal["image/jpeg", "image/png", "image/heic", "image/webp", "video/mp4", "video/quicktime"]


class MediaItem(Record):
    """A photo or video in someone's library."""

    id: MediaItemId
    owner_email: Email
    """Whose library it is in."""
    filename: Filename
    """The uploaded file's name."""
    mime_type: Mime
    """Its MIME type."""
    media_type: MediaType
    """photo or video."""
    description: Caption = ""
    """The caption."""
    creation_time: DateTime
    """When it was taken."""
    width: Annotated[int, Field(ge=1, le=20000)]
    """Width in pixels."""
    height: Annotated[int, Field(ge=1, le=20000)]
    """Height in pixels."""
    camera_make: str | None = None
    """The camera's maker."""
    camera_model: str | None = None
    """The camera model."""
    city: City | None = None
    """Where it was taken."""
    status: MediaStatus = "active"
    """active, archived (hidden from the main library) or trashed."""
    favorite: bool = False
    """Marked as a favorite."""
    trashed_at: DateTime | None = None
    """When it went to the trash."""
    uploaded_at: Annotated[DateTime, CREATED]
    """When it was uploaded."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class AlbumEntry(Value):
    """A media item in an album and who added it."""

    media_item_id: MediaItemId
    """The media item."""
    added_by: Email
    """Who added it."""


class Album(Record):
    """An album of media items, possibly shared."""

    id: AlbumId
    owner_email: Email
    """Who made it."""
    title: AlbumTitle
    """Its title."""
    entries: tuple[AlbumEntry, ...] = ()
    """Its media items in order."""
    cover_photo_id: MediaItemId | None = None
    """The cover photo (one of its items)."""
    is_shared: bool = False
    """Shared by link."""
    is_collaborative: bool = False
    """Contributors may add their own items."""
    is_commentable: bool = False
    """Contributors may comment."""
    share_token: ShareToken | None = None
    """The token others join with."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Contributor(Record):
    """A person who joined a shared album."""

    id: ContributorId
    album_id: AlbumId
    """The shared album."""
    email: Email
    """The person."""
    joined_at: Annotated[DateTime, CREATED]
    """When they joined."""


class AlbumChange(Value):
    """The result of adding items to or removing them from an album."""

    album_id: AlbumId
    """The album."""
    media_items_count: int
    """Items in it now."""
    changed: list[MediaItemId]
    """The items added or removed."""


# -- rules ------------------------------------------------------------------------------------


def _check_file(filename: str, mime_type: str) -> MediaType:
    kind, exts = MIME_EXT[mime_type]
    if filename.rsplit(".", 1)[-1].lower() not in exts:
        raise RuleViolation(
            f"{filename} is not a {mime_type} file", field="filename", hint=f"use a .{exts[0]} file name"
        )
    return kind


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "trashed" and new.status == "trashed":
        raise RuleViolation(
            "an item in the trash cannot change", field="media_item_id", hint="restore it with restore_media_item"
        )
    if new.filename != old.filename:
        _check_file(new.filename, new.mime_type)


def _guard_album(ctx: Ctx, new: Any, old: Any) -> None:
    if new.cover_photo_id is not None and new.cover_photo_id not in {e.media_item_id for e in new.entries}:
        raise RuleViolation(
            "the cover photo must be in the album", field="cover_photo_id", hint="add it to the album first"
        )
    cover = None if new.cover_photo_id is None else ctx.get(MediaItem, new.cover_photo_id, field="cover_photo_id")
    if cover is not None and cover.media_type != "photo":
        raise RuleViolation("a cover must be a photo", field="cover_photo_id", hint="pick a photo")


def _album_can_add(ctx: Ctx, album: Album, email: str) -> None:
    if email == album.owner_email:
        return
    joined = ctx.first(Contributor, album_id=album.id, email=email) is not None
    if not (album.is_shared and album.is_collaborative and joined):
        raise RuleViolation(
            f"{email} may not add to album {album.title!r}",
            field="added_by",
            hint="only the owner adds, or contributors of a collaborative shared album",
        )


media_items = service.resource(
    MediaItem,
    name="media_item",
    plural="media_items",
    prefix="mi",
    create=False,
    filters=("owner_email", "media_type", "status", "favorite", "camera_model", "city", "mime_type"),
    search=("filename", "description"),
    update=("description", "filename"),
    delete=False,
    transitions={
        "archive": Transition("status", ("active",), "archived", "archive the media item"),
        "unarchive": Transition("status", ("archived",), "active", "move the media item back to the library"),
        "favorite": Transition("favorite", (False,), True, "mark the media item as a favorite"),
        "unfavorite": Transition("favorite", (True,), False, "remove the media item from favorites"),
    },
    guard_update=_guard_item,
    title="photo or video",
)
albums = service.resource(
    Album,
    name="album",
    plural="albums",
    prefix="alb",
    create=("owner_email", "title"),
    filters=("owner_email", "is_shared"),
    search=("title",),
    update=("title", "cover_photo_id"),
    delete=False,
    guard_update=_guard_album,
)
contributors = service.resource(
    Contributor,
    name="contributor",
    plural="contributors",
    prefix="ctb",
    create=False,
    get=False,
    filters=("album_id", "email"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_upload(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "owner_email": ctx.population.employees[0].email,
        "filename": "PXL_20260301_101500.jpg",
        "mime_type": "image/jpeg",
        "width": 4032,
        "height": 3024,
        "creation_time": (ctx.now() - dt.timedelta(days=2)).isoformat(),
        "description": "Whiteboard after the planning session",
    }


@service.tool(intent="upload the photo or video", write=True, example=_example_upload)
def upload_media_item(
    ctx: Ctx,
    owner_email: Email,
    filename: Filename,
    mime_type: Mime,
    width: Annotated[int, Field(ge=1, le=20000)],
    height: Annotated[int, Field(ge=1, le=20000)],
    creation_time: DateTime,
    description: Caption = "",
    camera_make: str | None = None,
    camera_model: str | None = None,
    city: City | None = None,
    album_id: AlbumId | None = None,
) -> MediaItem:
    """Upload a photo or video into a person's library, optionally straight into an album they may add to.

    Args:
        owner_email: Whose library.
        filename: The file name; its extension must fit the MIME type.
        mime_type: image/jpeg, image/png, image/heic, image/webp, video/mp4 or video/quicktime.
        width: Width in pixels.
        height: Height in pixels.
        creation_time: When it was taken (not in the future).
        description: A caption.
        camera_make: The camera's maker.
        camera_model: The camera model.
        city: Where it was taken.
        album_id: An album to add it to.
    """
    kind = _check_file(filename, mime_type)
    if creation_time > ctx.now():
        raise RuleViolation("creation_time is in the future", field="creation_time", hint="give when it was taken")
    album = None if album_id is None else ctx.get(Album, album_id, field="album_id")
    if album is not None:
        try:
            _album_can_add(ctx, album, owner_email)
        except RuleViolation as exc:
            raise RuleViolation(str(exc), field="album_id", hint=exc.hint) from exc
    item = ctx.create(
        MediaItem,
        owner_email=owner_email,
        filename=filename,
        mime_type=mime_type,
        media_type=kind,
        description=description,
        creation_time=creation_time,
        width=width,
        height=height,
        camera_make=camera_make,
        camera_model=camera_model,
        city=city,
    )
    if album is not None:
        ctx.update(album, entries=(*album.entries, AlbumEntry(media_item_id=item.id, added_by=owner_email)))
    return item


@service.tool(
    intent="move the photo or video to the trash",
    write=True,
    example=first_example(MediaItem, "media_item_id", where={"status": "active"}),
)
def trash_media_item(ctx: Ctx, media_item_id: MediaItemId) -> MediaItem:
    """Move an item to the trash: it leaves every album (and stops being a cover); restorable for 60 days.

    Args:
        media_item_id: The photo or video.
    """
    item = ctx.get(MediaItem, media_item_id, field="media_item_id")
    if item.status == "trashed":
        raise Conflict("the item is already in the trash", field="media_item_id", hint="restore it or leave it")
    for album in ctx.scan(Album):
        if any(e.media_item_id == item.id for e in album.entries):
            ctx.update(
                album,
                entries=tuple(e for e in album.entries if e.media_item_id != item.id),
                cover_photo_id=None if album.cover_photo_id == item.id else album.cover_photo_id,
            )
    return ctx.update(item, status="trashed", favorite=False, trashed_at=ctx.now())


@service.tool(
    intent="restore the photo or video from the trash",
    write=True,
    example=first_example(
        MediaItem,
        "media_item_id",
        where={"status": "trashed"},
        match=lambda c, r: r.trashed_at is not None and c.now() - r.trashed_at <= dt.timedelta(days=TRASH_DAYS),
    ),
)
def restore_media_item(ctx: Ctx, media_item_id: MediaItemId) -> MediaItem:
    """Restore an item trashed at most 60 days ago to the library (not to its former albums).

    Args:
        media_item_id: The photo or video.
    """
    item = ctx.get(MediaItem, media_item_id, field="media_item_id")
    if item.status != "trashed" or item.trashed_at is None:
        raise RuleViolation("the item is not in the trash", field="media_item_id", hint="nothing to restore")
    if ctx.now() - item.trashed_at > dt.timedelta(days=TRASH_DAYS):
        raise RuleViolation(
            f"the item was trashed more than {TRASH_DAYS} days ago and is gone for good",
            field="media_item_id",
            hint="it cannot be restored; upload it again if you have the file",
        )
    return ctx.update(item, status="active", trashed_at=None)


def _owner_example(ctx: Ctx) -> dict[str, Any] | None:
    item = ctx.first(MediaItem, status="trashed")
    return None if item is None else {"owner_email": item.owner_email}


@service.tool(intent="empty the trash", write=True, destructive=True, example=_owner_example)
def empty_trash(ctx: Ctx, owner_email: Email) -> list[MediaItemId]:
    """Delete for good every item in a person's trash; returns their ids.

    Args:
        owner_email: Whose trash.
    """
    gone = [m for m in ctx.where(MediaItem, owner_email=owner_email) if m.status == "trashed"]
    if not gone:
        raise RuleViolation(f"the trash of {owner_email} is empty", field="owner_email", hint="nothing to delete")
    for m in gone:
        ctx.delete(m)
    return [m.id for m in gone]


def _example_search(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(MediaItem)
    return None if m is None else {"owner_email": m.owner_email, "media_type": "photo", "only_favorites": False}


@service.tool(intent="search the photo library", example=_example_search)
def search_media_items(
    ctx: Ctx,
    owner_email: Email,
    start: DateTime | None = None,
    end: DateTime | None = None,
    media_type: MediaType | None = None,
    only_favorites: bool = False,
    include_archived: bool = False,
    album_id: AlbumId | None = None,
) -> list[MediaItem]:
    """A person's items (not trashed) taken in a time range, newest first; or an album's items in album order.

    Args:
        owner_email: Whose library.
        start: Taken at or after this time.
        end: Taken before this time.
        media_type: Only photos or only videos.
        only_favorites: Only favorites.
        include_archived: Include archived items (an album search always does).
        album_id: An album instead of the library; no other filter may be given with it.
    """
    if album_id is not None:
        if start or end or media_type or only_favorites:
            raise RuleViolation(
                "an album search takes no other filter", field="album_id", hint="search the album alone"
            )
        album = ctx.get(Album, album_id, field="album_id")
        return [ctx.get(MediaItem, e.media_item_id) for e in album.entries]
    if start is not None and end is not None and end <= start:
        raise RuleViolation("end must be after start", field="end", hint="swap the two times")
    out = []
    for m in ctx.where(MediaItem, owner_email=owner_email):
        if m.status == "trashed" or (m.status == "archived" and not include_archived):
            continue
        if (start and m.creation_time < start) or (end and m.creation_time >= end):
            continue
        if (media_type and m.media_type != media_type) or (only_favorites and not m.favorite):
            continue
        out.append(m)
    return sorted(out, key=lambda m: m.creation_time, reverse=True)[:100]


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    for album in ctx.scan(Album):
        inside = {e.media_item_id for e in album.entries}
        free = [
            m.id for m in ctx.where(MediaItem, owner_email=album.owner_email, status="active") if m.id not in inside
        ]
        if free:
            return {"album_id": album.id, "media_item_ids": free[:2], "added_by": album.owner_email}
    return None


@service.tool(intent="add photos to the album", write=True, example=_example_add)
def add_media_items(ctx: Ctx, album_id: AlbumId, media_item_ids: list[MediaItemId], added_by: Email) -> AlbumChange:
    """Add up to 50 of the adder's own items (not trashed) to an album they own or contribute to.

    Args:
        album_id: The album.
        media_item_ids: The items to add, in order.
        added_by: The person adding them (the owner, or a contributor of a collaborative shared album).
    """
    album = ctx.get(Album, album_id, field="album_id")
    if not media_item_ids or len(media_item_ids) > BATCH:
        raise RuleViolation(f"give 1 to {BATCH} items", field="media_item_ids", hint="split the list")
    _album_can_add(ctx, album, added_by)
    inside = {e.media_item_id for e in album.entries}
    new: list[AlbumEntry] = []
    for mid in dict.fromkeys(media_item_ids):
        m = ctx.get(MediaItem, mid, field="media_item_ids")
        if m.owner_email != added_by:
            raise RuleViolation(
                f"{mid} is not in {added_by}'s library", field="media_item_ids", hint="add only your own items"
            )
        if m.status == "trashed":
            raise RuleViolation(f"{mid} is in the trash", field="media_item_ids", hint="restore it first")
        if mid in inside:
            raise Conflict(f"{mid} is already in the album", field="media_item_ids", hint="leave it out")
        new.append(AlbumEntry(media_item_id=mid, added_by=added_by))
    album = ctx.update(album, entries=album.entries + tuple(new))
    return AlbumChange(album_id=album.id, media_items_count=len(album.entries), changed=[e.media_item_id for e in new])


@service.tool(
    intent="remove photos from the album",
    write=True,
    example=first_example(Album, "album_id", match=lambda c, r: bool(r.entries), fields={"removed_by": "owner_email"}),
)
def remove_media_items(
    ctx: Ctx, album_id: AlbumId, removed_by: Email, media_item_ids: list[MediaItemId] | None = None
) -> AlbumChange:
    """Remove items from an album: the owner removes any, a contributor only what they added.

    Args:
        album_id: The album.
        removed_by: Who removes them.
        media_item_ids: The items; omit for the album's last item.
    """
    album = ctx.get(Album, album_id, field="album_id")
    if not album.entries:
        raise RuleViolation("the album is empty", field="album_id", hint="nothing to remove")
    ids = list(dict.fromkeys(media_item_ids or [album.entries[-1].media_item_id]))
    by_id = {e.media_item_id: e for e in album.entries}
    for mid in ids:
        entry = by_id.get(mid)
        if entry is None:
            raise RuleViolation(f"{mid} is not in the album", field="media_item_ids", hint="list the album's items")
        if removed_by not in (album.owner_email, entry.added_by):
            raise RuleViolation(
                f"{removed_by} may not remove {mid}", field="removed_by", hint="only the owner or who added it may"
            )
    kept = tuple(e for e in album.entries if e.media_item_id not in ids)
    cover = None if album.cover_photo_id in ids else album.cover_photo_id
    album = ctx.update(album, entries=kept, cover_photo_id=cover)
    return AlbumChange(album_id=album.id, media_items_count=len(kept), changed=list(ids))


@service.tool(
    intent="delete the album",
    write=True,
    destructive=True,
    example=first_example(Album, "album_id", where={"is_shared": False}),
)
def delete_album(ctx: Ctx, album_id: AlbumId) -> Album:
    """Delete an unshared album; its photos stay in their libraries.

    Args:
        album_id: The album.
    """
    album = ctx.get(Album, album_id, field="album_id")
    if album.is_shared:
        raise RuleViolation("the album is shared", field="album_id", hint="unshare it with photos__unshare_album first")
    ctx.delete(album)
    return album


@service.tool(
    intent="share the album",
    write=True,
    example=first_example(Album, "album_id", where={"is_shared": False}, is_collaborative=True),
)
def share_album(ctx: Ctx, album_id: AlbumId, is_collaborative: bool = False, is_commentable: bool = True) -> Album:
    """Share an album by link: it gets a share token others join with.

    Args:
        album_id: The album.
        is_collaborative: Whether contributors may add their own items.
        is_commentable: Whether contributors may comment.
    """
    album = ctx.get(Album, album_id, field="album_id")
    if album.is_shared:
        raise Conflict("the album is already shared", field="album_id", hint="get it for its share token")
    token = f"AF1Qip{ctx.rng.getrandbits(96):024x}"
    return ctx.update(
        album, is_shared=True, is_collaborative=is_collaborative, is_commentable=is_commentable, share_token=token
    )


@service.tool(
    intent="unshare the album",
    write=True,
    destructive=True,
    example=first_example(Album, "album_id", where={"is_shared": True}),
)
def unshare_album(ctx: Ctx, album_id: AlbumId) -> Album:
    """Stop sharing an album: contributors leave it and the items they added are removed.

    Args:
        album_id: The album.
    """
    album = ctx.get(Album, album_id, field="album_id")
    if not album.is_shared:
        raise RuleViolation("the album is not shared", field="album_id", hint="nothing to unshare")
    for c in ctx.where(Contributor, album_id=album.id):
        ctx.delete(c)
    kept = tuple(e for e in album.entries if e.added_by == album.owner_email)
    cover = album.cover_photo_id if album.cover_photo_id in {e.media_item_id for e in kept} else None
    return ctx.update(
        album, is_shared=False, is_collaborative=False, share_token=None, entries=kept, cover_photo_id=cover
    )


def _example_join(ctx: Ctx) -> dict[str, Any] | None:
    for album in ctx.where(Album, is_shared=True):
        joined = {c.email for c in ctx.where(Contributor, album_id=album.id)} | {album.owner_email}
        who = next((p.email for p in ctx.population.employees if p.email not in joined), None)
        if who is not None:
            return {"share_token": album.share_token, "email": who}
    return None


@service.tool(intent="join the shared album", write=True, example=_example_join)
def join_shared_album(ctx: Ctx, share_token: ShareToken, email: Email) -> Contributor:
    """Join a shared album by its share token.

    Args:
        share_token: The token from the album's link.
        email: The person joining.
    """
    album = ctx.first(Album, share_token=share_token)
    if album is None:
        raise RuleViolation("no shared album has this token", field="share_token", hint="ask the owner for the link")
    if email == album.owner_email:
        raise RuleViolation("the owner is already in the album", field="email", hint="nothing to join")
    if ctx.first(Contributor, album_id=album.id, email=email) is not None:
        raise Conflict(f"{email} already joined", field="email", hint="nothing to join")
    return ctx.create(Contributor, album_id=album.id, email=email)


@service.tool(
    intent="leave the shared album",
    write=True,
    example=first_example(Contributor, None, fields={"album_id": "album_id", "email": "email"}),
)
def leave_shared_album(ctx: Ctx, album_id: AlbumId, email: Email) -> AlbumChange:
    """Leave a shared album: the items the person added are removed from it.

    Args:
        album_id: The album.
        email: The contributor leaving.
    """
    album = ctx.get(Album, album_id, field="album_id")
    c = ctx.first(Contributor, album_id=album.id, email=email)
    if c is None:
        raise RuleViolation(f"{email} is not a contributor", field="email", hint="list the album's contributors")
    ctx.delete(c)
    gone = [e.media_item_id for e in album.entries if e.added_by == email]
    kept = tuple(e for e in album.entries if e.added_by != email)
    cover = None if album.cover_photo_id in gone else album.cover_photo_id
    ctx.update(album, entries=kept, cover_photo_id=cover)
    return AlbumChange(album_id=album.id, media_items_count=len(kept), changed=gone)


# -- seed -------------------------------------------------------------------------------------

CAMERAS = (("Google", "Pixel 8"), ("Apple", "iPhone 15 Pro"), ("Sony", "ILCE-7M4"), ("Samsung", "SM-S918B"))
SHOTS = ("Team lunch", "Whiteboard", "Office view", "Product demo", "Conference booth", "Hike", "Sunset")


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff libraries (active, archived, favorites, trash old and recent), albums, a collaborative shared album."""
    pop = s.population
    staff = list(pop.employees[:10])
    places = [p.city for p in pop.places] or [pop.home.place.city]
    libraries: dict[str, list[MediaItem]] = {}
    for k, p in enumerate(staff):
        make, model = CAMERAS[k % len(CAMERAS)]
        items = []
        for j in range(8):
            video = j == 5
            taken = s.ago(days=5 + 17 * j + k)
            status: Any = "archived" if j == 6 else ("trashed" if j == 7 else "active")
            items.append(
                s.create(
                    MediaItem,
                    owner_email=p.email,
                    filename=f"{'VID' if video else 'IMG'}_{taken:%Y%m%d_%H%M%S}.{'mp4' if video else 'jpg'}",
                    mime_type="video/mp4" if video else "image/jpeg",
                    media_type="video" if video else "photo",
                    description=SHOTS[(k + j) % len(SHOTS)] if j % 2 == 0 else "",
                    creation_time=taken,
                    width=1920 if video else 4032,
                    height=1080 if video else 3024,
                    camera_make=make,
                    camera_model=model,
                    city=places[(k + j) % len(places)],
                    status=status,
                    favorite=j in (1, 3),
                    trashed_at=s.ago(days=10 if k % 2 else 75) if status == "trashed" else None,
                    uploaded_at=taken + dt.timedelta(minutes=5),
                    updated_at=taken + dt.timedelta(minutes=5),
                )
            )
        libraries[p.email] = items
        entries = tuple(AlbumEntry(media_item_id=m.id, added_by=p.email) for m in items[:4])
        s.create(
            Album,
            owner_email=p.email,
            title=f"{SHOTS[k % len(SHOTS)]} {2026 - k % 2}",
            entries=entries,
            cover_photo_id=items[0].id,
            created_at=s.ago(days=100),
            updated_at=s.ago(days=50),
        )
    owner, guests = staff[0], staff[1:4]
    joint = [AlbumEntry(media_item_id=m.id, added_by=owner.email) for m in libraries[owner.email][2:5]]
    for g in guests[:2]:
        joint.append(AlbumEntry(media_item_id=libraries[g.email][2].id, added_by=g.email))
    shared = s.create(
        Album,
        owner_email=owner.email,
        title=f"{pop.home.name} offsite",
        entries=tuple(joint),
        cover_photo_id=libraries[owner.email][2].id,
        is_shared=True,
        is_collaborative=True,
        is_commentable=True,
        share_token=f"AF1Qip{s.rng.getrandbits(96):024x}",
        created_at=s.ago(days=40),
        updated_at=s.ago(days=20),
    )
    for g in guests:
        s.create(Contributor, album_id=shared.id, email=g.email, joined_at=s.ago(days=30))
