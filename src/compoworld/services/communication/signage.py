"""Beacon Screens: digital signage on the company's screens, with assets, playlists, schedules and overrides.

Modeled on the Screenly API v4 (and Yodeck's schedules and emergency messages): screens paired with a
six-character pairing code and placed at a site, reporting heartbeats (a screen is offline when none came in
ten minutes); assets (image, video, webpage) that are processing until ready, with a play duration; playlists
of ready assets with per-item durations; a default playlist per screen; schedules that play a playlist on
screens between two times, where two schedules of the same priority may not overlap on a screen; and an
emergency override that takes over screens with a message until cleared, at most one per screen. What a
screen shows now follows override > highest-priority schedule > default playlist.
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
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "signage",
    title="Beacon Screens",
    category="digital_signage",
    modeled_on="Screenly API v4 (screens, pairing, assets, playlists, playlist items, schedules) with "
    "Yodeck-style emergency overrides and screen health",
    description="Digital signage across the company's sites: reception and office screens paired to the "
    "account, images, videos and web dashboards as assets, playlists and schedules of what plays where, "
    "emergency messages that take over screens, and the health of every screen.",
)

ScreenId = Annotated[str, IdOf("signage.screen")]
AssetId = Annotated[str, IdOf("signage.asset")]
PlaylistId = Annotated[str, IdOf("signage.playlist")]
ScheduleId = Annotated[str, IdOf("signage.schedule")]
OverrideId = Annotated[str, IdOf("signage.override")]

PairingCode = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{6}$")]
"""The six-character code a new screen shows."""
PlaySeconds = Annotated[int, Field(ge=1, le=3600)]
"""How long an item plays."""

Orientation = Literal["landscape", "portrait"]
AssetKind = Literal["image", "video", "webpage"]
AssetStatus = Literal["processing", "ready", "failed"]
OverrideStatus = Literal["active", "cleared"]
Health = Literal["online", "offline", "never_seen"]

OFFLINE_AFTER = dt.timedelta(minutes=10)
MAX_ITEMS = 100


class Screen(Record):
    """A paired display at a site."""

    id: ScreenId
    name: Title
    """Its name (unique)."""
    site: Title
    """The site or room it is in."""
    orientation: Orientation = "landscape"
    """landscape or portrait."""
    playlist_id: PlaylistId | None = None
    """What it plays when nothing is scheduled."""
    last_heartbeat: DateTime | None = None
    """When it last reported in."""
    player_version: Annotated[str, StringConstraints(max_length=20)] = "4.1.0"
    """The player software version."""
    created_at: Annotated[DateTime, CREATED]
    """When it was paired."""


class Asset(Record):
    """Something screens can show."""

    id: AssetId
    name: Title
    """Its name."""
    kind: AssetKind
    """image, video or webpage."""
    uri: Url
    """Where it is."""
    duration_seconds: PlaySeconds = 10
    """Its default play time (a video's own length)."""
    status: AssetStatus = "processing"
    """processing, ready or failed."""
    uploaded_by: Email
    """The employee who added it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Item(Value):
    """An asset in a playlist."""

    asset_id: AssetId
    """The asset."""
    duration_seconds: PlaySeconds
    """How long it plays here."""


class Playlist(Record):
    """An ordered loop of assets."""

    id: PlaylistId
    name: Title
    """Its name (unique)."""
    items: tuple[Item, ...] = ()
    """Its assets in play order."""
    shuffle: bool = False
    """Whether items play in random order."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Schedule(Record):
    """A playlist played on some screens between two times."""

    id: ScheduleId
    name: Title
    """Its name."""
    playlist_id: PlaylistId
    """What plays."""
    screen_ids: tuple[ScreenId, ...]
    """Where."""
    starts_at: DateTime
    """From when."""
    ends_at: DateTime
    """Until when."""
    priority: Annotated[int, Field(ge=1, le=10)] = 5
    """Higher wins where schedules overlap."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Override(Record):
    """An emergency message that takes over screens."""

    id: OverrideId
    message: Text
    """What the screens show."""
    screen_ids: tuple[ScreenId, ...]
    """The screens it covers."""
    started_by: Email
    """The employee who started it."""
    status: OverrideStatus = "active"
    """active or cleared."""
    created_at: Annotated[DateTime, CREATED]
    """When it started."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class NowPlaying(Value):
    """What a screen shows now and why."""

    screen_id: ScreenId
    """The screen."""
    health: Health
    """online, offline or never_seen."""
    source: Literal["override", "schedule", "default", "nothing"]
    """Why it shows it."""
    playlist_id: PlaylistId | None
    """The playlist playing, if any."""
    message: str | None
    """The emergency message, if any."""
    loop_seconds: int
    """Length of one loop of the playlist."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _health(now: dt.datetime, screen: Screen) -> Health:
    if screen.last_heartbeat is None:
        return "never_seen"
    return "online" if now - screen.last_heartbeat <= OFFLINE_AFTER else "offline"


def _unique(ctx: Ctx, model: Any, new: Any, old: Any) -> None:
    if old is None or new.name != old.name:
        other = next((r for r in ctx.where(model, name=new.name) if r.id != new.id), None)
        if other is not None and other.id != new.id:
            raise Conflict(f"{other.id} is already named {new.name!r}", field="name", hint="pick another name")


def _guard_screen(ctx: Ctx, new: Any, old: Any) -> None:
    _unique(ctx, Screen, new, old)
    if new.playlist_id is not None and new.playlist_id != old.playlist_id:
        ctx.get(Playlist, new.playlist_id, field="playlist_id")


def _guard_playlist(ctx: Ctx, new: Any, old: Any) -> None:
    _unique(ctx, Playlist, new, old)


def _guard_playlist_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Screen, playlist_id=old.id) is not None or ctx.first(Schedule, playlist_id=old.id) is not None:
        raise RuleViolation(
            f"playlist {old.id} is in use", field="playlist_id", hint="unassign it from screens and schedules first"
        )


def _guard_asset_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for p in ctx.where(Playlist):
        if any(i.asset_id == old.id for i in p.items):
            raise RuleViolation(
                f"playlist {p.id} plays asset {old.id}",
                field="asset_id",
                hint="remove it with signage__remove_from_playlist first",
            )


screens = service.resource(
    Screen,
    name="screen",
    plural="screens",
    prefix="scr",
    create=False,
    filters=("site", "orientation", "playlist_id"),
    search=("name", "site"),
    update=("name", "site", "orientation", "playlist_id"),
    guard_update=_guard_screen,
)
assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="ast",
    create=("name", "kind", "uri", "duration_seconds", "uploaded_by"),
    filters=("kind", "status", "uploaded_by"),
    search=("name",),
    update=("name", "duration_seconds"),
    transitions={
        "finish": Transition("status", ("processing",), "ready", "finish processing the asset"),
    },
    guard_create=lambda ctx, new, old: _staff(ctx, new.uploaded_by, "uploaded_by"),
    guard_delete=_guard_asset_delete,
)
playlists = service.resource(
    Playlist,
    name="playlist",
    plural="playlists",
    prefix="pl",
    create=("name", "shuffle"),
    filters=("shuffle",),
    search=("name",),
    update=("name", "shuffle"),
    guard_create=_guard_playlist,
    guard_update=_guard_playlist,
    guard_delete=_guard_playlist_delete,
)
schedules = service.resource(
    Schedule,
    name="schedule",
    plural="schedules",
    prefix="sch",
    create=False,
    filters=("playlist_id", "priority"),
    search=("name",),
    delete=True,
)
overrides = service.resource(
    Override,
    name="override",
    plural="overrides",
    prefix="ovr",
    create=False,
    get=False,
    filters=("status", "started_by"),
    search=("message",),
    delete=False,
    transitions={"clear": Transition("status", ("active",), "cleared", "clear the emergency message")},
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="pair the screen",
    write=True,
    example=fixed_example(pairing_code="K7Q2ZP", name="Lobby east", site="Head office lobby"),
)
def pair_screen(
    ctx: Ctx, pairing_code: PairingCode, name: Title, site: Title, orientation: Orientation = "landscape"
) -> Screen:
    """Pair a new screen by the code it shows; it has not reported in yet.

    Args:
        pairing_code: The six-character code on the screen.
        name: Its name (unique).
        site: The site or room it is in.
        orientation: landscape or portrait.
    """
    if ctx.first(Screen, name=name) is not None:
        raise Conflict(f"a screen is already named {name!r}", field="name", hint="pick another name")
    return ctx.create(Screen, name=name, site=site, orientation=orientation)


@service.tool(intent="record the screen's heartbeat", write=True, example=first_example(Screen, "screen_id"))
def report_heartbeat(ctx: Ctx, screen_id: ScreenId) -> Screen:
    """A screen reports in now: it is online for the next ten minutes.

    Args:
        screen_id: The screen.
    """
    return ctx.update(ctx.get(Screen, screen_id, field="screen_id"), last_heartbeat=ctx.now())


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Asset, status="ready")
    p = ctx.first(Playlist)
    return None if a is None or p is None else {"playlist_id": p.id, "asset_id": a.id}


@service.tool(intent="add the asset to the playlist", write=True, example=_example_add)
def add_to_playlist(
    ctx: Ctx, playlist_id: PlaylistId, asset_id: AssetId, duration_seconds: PlaySeconds | None = None
) -> Playlist:
    """Append a ready asset to a playlist (at most 100 items); videos always play their own length.

    Args:
        playlist_id: The playlist.
        asset_id: The ready asset.
        duration_seconds: How long it plays (default: the asset's duration).
    """
    pl = ctx.get(Playlist, playlist_id, field="playlist_id")
    a = ctx.get(Asset, asset_id, field="asset_id")
    if a.status != "ready":
        raise RuleViolation(f"asset {a.id} is {a.status}", field="asset_id", hint="wait until it is ready")
    if len(pl.items) >= MAX_ITEMS:
        raise RuleViolation(f"a playlist holds at most {MAX_ITEMS} items", field="playlist_id", hint="make another")
    if a.kind == "video" and duration_seconds not in (None, a.duration_seconds):
        raise RuleViolation(
            f"video {a.id} plays {a.duration_seconds} seconds", field="duration_seconds", hint="omit it for videos"
        )
    item = Item(asset_id=a.id, duration_seconds=duration_seconds or a.duration_seconds)
    return ctx.update(pl, items=(*pl.items, item))


@service.tool(
    intent="remove the item from the playlist",
    write=True,
    example=first_example(Playlist, "playlist_id", match=lambda ctx, p: bool(p.items), position=0),
)
def remove_from_playlist(ctx: Ctx, playlist_id: PlaylistId, position: Annotated[int, Field(ge=0)]) -> Playlist:
    """Remove the item at a position (from 0) of a playlist.

    Args:
        playlist_id: The playlist.
        position: The item's position.
    """
    pl = ctx.get(Playlist, playlist_id, field="playlist_id")
    if position >= len(pl.items):
        raise RuleViolation(f"{pl.id} has {len(pl.items)} items", field="position", hint="pick an existing item")
    return ctx.update(pl, items=pl.items[:position] + pl.items[position + 1 :])


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    pl = ctx.first(Playlist)
    sc = ctx.first(Screen)
    if pl is None or sc is None:
        return None
    start = ctx.now() + dt.timedelta(days=60)
    return {
        "name": "Open day",
        "playlist_id": pl.id,
        "screen_ids": [sc.id],
        "starts_at": start.isoformat(),
        "ends_at": (start + dt.timedelta(hours=8)).isoformat(),
        "priority": 9,
    }


@service.tool(intent="schedule the playlist", write=True, example=_example_schedule)
def create_schedule(
    ctx: Ctx,
    name: Title,
    playlist_id: PlaylistId,
    screen_ids: list[ScreenId],
    starts_at: DateTime,
    ends_at: DateTime,
    priority: Annotated[int, Field(ge=1, le=10)] = 5,
) -> Schedule:
    """Play a non-empty playlist on screens between two times; same-priority schedules may not overlap.

    Args:
        name: Its name.
        playlist_id: The playlist.
        screen_ids: The screens (distinct).
        starts_at: From when.
        ends_at: Until when (after starts_at, not in the past).
        priority: 1-10; higher wins where schedules overlap.
    """
    pl = ctx.get(Playlist, playlist_id, field="playlist_id")
    if not pl.items:
        raise RuleViolation(f"playlist {pl.id} is empty", field="playlist_id", hint="add assets first")
    if not screen_ids or len(set(screen_ids)) != len(screen_ids):
        raise RuleViolation("list each screen once", field="screen_ids", hint="give distinct screen ids")
    for sid in screen_ids:
        ctx.get(Screen, sid, field="screen_ids")
    if ends_at <= starts_at or ends_at <= ctx.now():
        raise RuleViolation("ends_at must be after starts_at and now", field="ends_at", hint="pick a later end")
    for other in ctx.where(Schedule, priority=priority):
        shared = set(other.screen_ids) & set(screen_ids)
        if shared and other.starts_at < ends_at and starts_at < other.ends_at:
            raise Conflict(
                f"schedule {other.id} of the same priority overlaps on {sorted(shared)[0]}",
                field="starts_at",
                hint="pick another time or priority",
            )
    return ctx.create(
        Schedule,
        name=name,
        playlist_id=pl.id,
        screen_ids=tuple(screen_ids),
        starts_at=starts_at,
        ends_at=ends_at,
        priority=priority,
    )


def _example_emergency(ctx: Ctx) -> dict[str, Any] | None:
    busy = {s for o in ctx.where(Override, status="active") for s in o.screen_ids}
    free = [s.id for s in ctx.where(Screen) if s.id not in busy]
    if not free:
        return None
    return {"message": "Fire drill at 14:00.", "started_by": ctx.population.employees[0].email, "screen_ids": free}


@service.tool(intent="start the emergency message", write=True, example=_example_emergency)
def start_emergency(ctx: Ctx, message: Text, started_by: Email, screen_ids: list[ScreenId] | None = None) -> Override:
    """Take over screens (all when none are listed) with an emergency message; one active override per screen.

    Args:
        message: What the screens show.
        started_by: The employee starting it.
        screen_ids: The screens; omit for every screen.
    """
    if not message.strip():
        raise RuleViolation("the message is empty", field="message", hint="say what people must know")
    _staff(ctx, started_by, "started_by")
    ids = list(dict.fromkeys(screen_ids or [s.id for s in ctx.where(Screen)]))
    for sid in ids:
        ctx.get(Screen, sid, field="screen_ids")
    for o in ctx.where(Override, status="active"):
        if set(o.screen_ids) & set(ids):
            raise Conflict(
                f"override {o.id} is active on some of these screens",
                field="screen_ids",
                hint="clear it with signage__clear_override first",
            )
    return ctx.create(Override, message=message.strip(), started_by=started_by, screen_ids=tuple(ids))


@service.tool(intent="show what the screen plays now", example=first_example(Screen, "screen_id"))
def now_playing(ctx: Ctx, screen_id: ScreenId) -> NowPlaying:
    """What a screen shows now (override, then highest-priority current schedule, then its default) and its health.

    Args:
        screen_id: The screen.
    """
    sc = ctx.get(Screen, screen_id, field="screen_id")
    now = ctx.now()
    health = _health(now, sc)
    for o in ctx.where(Override, status="active"):
        if sc.id in o.screen_ids:
            return NowPlaying(
                screen_id=sc.id, health=health, source="override", playlist_id=None, message=o.message, loop_seconds=0
            )
    live = [s for s in ctx.where(Schedule) if sc.id in s.screen_ids and s.starts_at <= now < s.ends_at]
    pid = max(live, key=lambda s: s.priority).playlist_id if live else sc.playlist_id
    source: Any = "schedule" if live else ("default" if pid else "nothing")
    loop = sum(i.duration_seconds for i in ctx.get(Playlist, pid).items) if pid else 0
    return NowPlaying(screen_id=sc.id, health=health, source=source, playlist_id=pid, message=None, loop_seconds=loop)


class Fleet(Value):
    """The health of every screen."""

    online: list[ScreenId]
    """Screens that reported in the last ten minutes."""
    offline: list[ScreenId]
    """Screens silent for longer."""
    never_seen: list[ScreenId]
    """Paired screens that never reported."""


@service.tool(intent="check the screens' health", example=fixed_example())
def screen_health(ctx: Ctx, site: Title | None = None) -> Fleet:
    """Which screens (at a site, or all) are online, offline or never seen.

    Args:
        site: Only this site.
    """
    out: dict[Health, list[str]] = {"online": [], "offline": [], "never_seen": []}
    for sc in ctx.where(Screen) if site is None else ctx.where(Screen, site=site):
        out[_health(ctx.now(), sc)].append(sc.id)
    return Fleet(online=out["online"], offline=out["offline"], never_seen=out["never_seen"])


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Screens at the company's sites in every health, assets, playlists, schedules and a cleared override."""
    pop = s.population
    staff = pop.employees
    city = pop.home.place.city
    assets = []
    for k, (name, kind, secs, status) in enumerate(
        (
            ("Welcome slide", "image", 10, "ready"),
            ("Brand video", "video", 45, "ready"),
            ("Sales dashboard", "webpage", 30, "ready"),
            ("Cafeteria menu", "image", 15, "ready"),
            ("Safety instructions", "image", 20, "ready"),
            ("Product launch teaser", "video", 60, "processing"),
            ("Broken upload", "video", 30, "failed"),
        )
    ):
        ext = {"image": "png", "video": "mp4", "webpage": "html"}[kind]
        assets.append(
            s.create(
                Asset,
                name=name,
                kind=kind,
                uri=f"https://media.{pop.home.domain}/signage/{k + 1}.{ext}",
                duration_seconds=secs,
                status=status,
                uploaded_by=staff[k % len(staff)].email,
                created_at=s.ago(days=90 - 5 * k),
            )
        )
    lobby = s.create(
        Playlist,
        name="Lobby loop",
        items=tuple(Item(asset_id=a.id, duration_seconds=a.duration_seconds) for a in assets[:3]),
        created_at=s.ago(days=60),
        updated_at=s.ago(days=10),
    )
    office = s.create(
        Playlist,
        name="Office loop",
        items=tuple(Item(asset_id=a.id, duration_seconds=a.duration_seconds) for a in assets[2:5]),
        shuffle=True,
        created_at=s.ago(days=50),
        updated_at=s.ago(days=5),
    )
    s.create(Playlist, name="Holiday specials", created_at=s.ago(days=3), updated_at=s.ago(days=3))
    made = []
    for k, (name, site, beat) in enumerate(
        (
            ("Lobby main", f"{city} HQ lobby", 2.0),
            ("Lobby side", f"{city} HQ lobby", 4.0),
            ("Cafeteria", f"{city} HQ cafeteria", 180.0),
            ("Floor 2 kitchen", f"{city} HQ floor 2", 1.0),
            ("Warehouse entrance", "Warehouse", None),
        )
    ):
        made.append(
            s.create(
                Screen,
                name=name,
                site=site,
                orientation="portrait" if k == 1 else "landscape",
                playlist_id=lobby.id if k < 2 else (office.id if k < 4 else None),
                last_heartbeat=None if beat is None else s.ago(minutes=beat),
                created_at=s.ago(days=100 - k),
            )
        )
    s.create(
        Schedule,
        name="Town hall stream",
        playlist_id=office.id,
        screen_ids=(made[0].id, made[1].id),
        starts_at=s.ago(hours=1),
        ends_at=s.now + dt.timedelta(hours=2),
        priority=8,
        created_at=s.ago(days=2),
    )
    s.create(
        Schedule,
        name="Next week's launch",
        playlist_id=lobby.id,
        screen_ids=tuple(m.id for m in made[:4]),
        starts_at=s.now + dt.timedelta(days=7),
        ends_at=s.now + dt.timedelta(days=8),
        created_at=s.ago(days=1),
    )
    s.create(
        Override,
        message="Fire alarm test - no need to evacuate.",
        screen_ids=tuple(m.id for m in made),
        started_by=staff[0].email,
        status="cleared",
        created_at=s.ago(days=20),
        updated_at=s.ago(days=20),
    )
    s.create(
        Override,
        message="Cafeteria closed for cleaning.",
        screen_ids=(made[2].id,),
        started_by=staff[1].email,
        created_at=s.ago(hours=1),
        updated_at=s.ago(hours=1),
    )
