"""Reelhouse: the home company's video channels with uploads, playlists, captions, comments and subscribers.

Modeled on the YouTube Data API v3 (channels, videos with status.uploadStatus,
privacyStatus and publishAt, thumbnails.set, playlists and playlistItems,
commentThreads and comments with setModerationStatus, captions, subscriptions,
and the daily quota in units): an upload is uploaded, then processing, then
processed or failed (a failed or rejected video never plays and must be
uploaded again); a video is made public or unlisted only once processed (an
upload may ask for it in advance and shows when processing ends); publishAt
schedules only a private video that has never been public, in the future;
titles are at most 100 characters and descriptions 5,000 bytes, neither with
< or >, and tags at most 500 characters counting commas and the quotes around
tags with spaces; uploads over 15 minutes and custom thumbnails need a
verified channel; playlists hold at most 5,000 items at positions 0..n-1;
comments go only on public or unlisted videos that are not made for kids,
replies only to published top-level comments, a channel's hold setting and
its hidden users decide a new comment's moderation status, and banAuthor goes
only with rejected; a track's language and name are unique per video; a
subscriber cannot subscribe twice or to their own channel; every write the
channel makes costs quota units as the API charges them (10,000 a day, and
uploads a bucket of their own of 100 calls a day), reset at midnight Pacific
Time.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, Date, DateTime, Email, IdOf, Language, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "vidhub",
    title="Reelhouse",
    category="video_platform",
    modeled_on="YouTube Data API v3 (channels, videos, thumbnails, playlists, playlistItems, commentThreads, "
    "comments, captions, subscriptions, quota units)",
    description="Video hosting for the home company's channels: uploads that are processed before they can "
    "go public, scheduled publishing, playlists, captions, viewer comments held for review or published, "
    "subscribers, and the daily API quota every change spends.",
)

ChannelId = Annotated[str, IdOf("vidhub.channel")]
VideoId = Annotated[str, IdOf("vidhub.video")]
PlaylistId = Annotated[str, IdOf("vidhub.playlist")]
PlaylistItemId = Annotated[str, IdOf("vidhub.playlist_item")]
CommentId = Annotated[str, IdOf("vidhub.comment")]
CaptionId = Annotated[str, IdOf("vidhub.caption")]

Privacy = Literal["private", "unlisted", "public"]
UploadStatus = Literal["uploaded", "processing", "processed", "failed", "rejected"]
FailureReason = Literal["codec", "conversion", "emptyFile", "invalidFile", "tooSmall", "uploadAborted"]
RejectionReason = Literal["claim", "copyright", "duplicate", "inappropriate", "legal", "length", "termsOfUse"]
Moderation = Literal["published", "heldForReview", "likelySpam", "rejected"]
HoldSetting = Literal["none", "hold_links", "hold_all"]
CategoryId = Literal["1", "2", "10", "15", "17", "19", "20", "22", "23", "24", "25", "26", "27", "28", "29"]
CATEGORIES = {
    "1": "Film & Animation",
    "2": "Autos & Vehicles",
    "10": "Music",
    "15": "Pets & Animals",
    "17": "Sports",
    "19": "Travel & Events",
    "20": "Gaming",
    "22": "People & Blogs",
    "23": "Comedy",
    "24": "Entertainment",
    "25": "News & Politics",
    "26": "Howto & Style",
    "27": "Education",
    "28": "Science & Technology",
    "29": "Nonprofits & Activism",
}
Handle = Annotated[str, StringConstraints(pattern=r"^@[A-Za-z0-9._-]{3,30}$")]
Tag = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
Tags = Annotated[list[Tag], Field(max_length=100)]
TrackName = Annotated[str, StringConstraints(max_length=150)]

DAILY_QUOTA = 10_000
DAILY_UPLOADS = 100
PACIFIC = zoneinfo.ZoneInfo("America/Los_Angeles")
COSTS: dict[str, int] = {
    "videos.update": 50,
    "videos.delete": 50,
    "thumbnails.set": 50,
    "channels.update": 50,
    "playlists.insert": 50,
    "playlists.update": 50,
    "playlists.delete": 50,
    "playlistItems.insert": 50,
    "playlistItems.update": 50,
    "playlistItems.delete": 50,
    "comments.insert": 50,
    "comments.setModerationStatus": 50,
    "comments.delete": 50,
    "captions.insert": 400,
    "captions.update": 450,
    "captions.delete": 50,
}
"""Quota units of each write method, as the API charges them (every list or read costs 1 unit, captions.list 50).

videos.insert (and search.list) have quota buckets of their own: 100 calls a day, 1 per call."""
SHORT_UPLOAD = 15 * 60
MAX_DURATION = 12 * 3600
MAX_ITEMS = 5000
MAX_TAG_CHARS = 500
MAX_DESCRIPTION_BYTES = 5000


class Channel(Created):
    """A channel of the home company."""

    id: ChannelId
    title: Title
    """Channel name."""
    description: Text = ""
    """About text (1,000 characters)."""
    custom_url: Handle
    """The channel's @handle."""
    owner_email: Email
    """E-mail of the employee who owns the channel."""
    country: Country
    """Country the channel is associated with."""
    default_language: Language = "en"
    """Language of its titles and descriptions."""
    verified: bool = False
    """Phone-verified: may upload videos over 15 minutes and set custom thumbnails."""
    comment_hold: HoldSetting = "hold_links"
    """Which new comments wait for review: none, those with links (hold_links), or all (hold_all)."""
    hidden_users: tuple[Email, ...] = ()
    """Viewers whose comments are rejected automatically (banned authors)."""
    subscriber_count: int = 0
    """Subscribers."""
    video_count: int = 0
    """Videos uploaded."""
    view_count: int = 0
    """Views of all its videos."""


class Video(Timestamped):
    """A video uploaded to a channel."""

    id: VideoId
    channel_id: ChannelId
    """The channel."""
    title: Title
    """Title (100 characters, no < or >)."""
    description: Text = ""
    """Description (5,000 bytes, no < or >)."""
    tags: tuple[Tag, ...] = ()
    """Keyword tags (500 characters in all)."""
    category_id: CategoryId = "28"
    """Video category: 1 Film, 2 Autos, 10 Music, 15 Pets, 17 Sports, 19 Travel, 20 Gaming, 22 People & Blogs,
    23 Comedy, 24 Entertainment, 25 News, 26 Howto & Style, 27 Education, 28 Science & Technology, 29 Nonprofits."""
    default_language: Language | None = None
    """Language of the title and description."""
    privacy_status: Privacy = "private"
    """private, unlisted (anyone with the link) or public."""
    publish_at: DateTime | None = None
    """When a scheduled private video goes public."""
    upload_status: UploadStatus = "uploaded"
    """uploaded, processing, processed (playable), failed or rejected."""
    failure_reason: FailureReason | None = None
    """Why processing failed."""
    rejection_reason: RejectionReason | None = None
    """Why the video was rejected."""
    duration_seconds: int
    """Length in seconds."""
    made_for_kids: bool = False
    """Self-declared as made for kids (comments are off)."""
    embeddable: bool = True
    """Whether other sites may embed it."""
    license: Literal["youtube", "creativeCommon"] = "youtube"
    """The video's licence."""
    public_stats_viewable: bool = True
    """Whether viewers see its statistics."""
    thumbnail_url: Url | None = None
    """The custom thumbnail."""
    view_count: int = 0
    """Views."""
    like_count: int = 0
    """Likes."""
    comment_count: int = 0
    """Published comments and replies."""
    published_at: DateTime | None = None
    """When it first went public or unlisted."""


class Playlist(Timestamped):
    """A playlist of a channel."""

    id: PlaylistId
    channel_id: ChannelId
    """The channel."""
    title: Title
    """Title (150 characters)."""
    description: Text = ""
    """Description (5,000 characters)."""
    privacy_status: Privacy = "public"
    """private, unlisted or public."""
    item_count: int = 0
    """Videos in it."""


class PlaylistItem(Record):
    """A video at a position of a playlist."""

    id: PlaylistItemId
    playlist_id: PlaylistId
    """The playlist."""
    video_id: VideoId
    """The video."""
    position: int
    """Zero-based position in the playlist."""
    note: Annotated[str, StringConstraints(max_length=280)] = ""
    """A note shown with the item (280 characters)."""
    added_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Comment(Record):
    """A top-level comment on a video, or a reply to one."""

    id: CommentId
    video_id: VideoId
    """The video."""
    channel_id: ChannelId
    """The video's channel."""
    parent_id: CommentId | None = None
    """The top-level comment this replies to."""
    commenter_email: Email | None = None
    """E-mail of the viewer who wrote it; null when the channel wrote it."""
    author_channel_id: ChannelId | None = None
    """The channel itself, when it wrote the comment."""
    author_display_name: str
    """Name shown with the comment."""
    text_original: Text
    """The comment as written (10,000 characters)."""
    moderation_status: Moderation = "published"
    """published, heldForReview, likelySpam or rejected."""
    like_count: int = 0
    """Likes."""
    reply_count: int = 0
    """Replies to a top-level comment."""
    published_at: Annotated[DateTime, CREATED]
    """When it was written."""
    updated_at: DateTime | None = None
    """When its moderation status last changed."""


class Caption(Timestamped):
    """A caption track of a video."""

    id: CaptionId
    video_id: VideoId
    """The video."""
    language: Language
    """Language of the track."""
    name: TrackName = ""
    """Track name (150 characters); language and name are unique per video."""
    track_kind: Literal["standard", "asr", "forced"] = "standard"
    """standard, asr (made by speech recognition) or forced (only foreign-language parts)."""
    is_draft: bool = False
    """Drafts are not shown to viewers."""


class Subscription(Record):
    """A viewer subscribed to a channel."""

    id: Annotated[str, IdOf("vidhub.subscription")]
    channel_id: ChannelId
    """The channel."""
    subscriber_email: Email
    """E-mail of the subscriber."""
    subscriber_name: PersonName
    """The subscriber's name."""
    subscribed_at: Annotated[DateTime, CREATED]
    """When they subscribed."""


class QuotaDay(Record):
    """Quota units the home company's API project spent on one Pacific-time day."""

    id: Annotated[str, IdOf("vidhub.quota_day")]
    day: Date
    """The day, in Pacific Time."""
    units_used: int = 0
    """Units spent."""
    calls: int = 0
    """Charged calls."""
    uploads: int = 0
    """videos.insert calls (their own bucket of 100 a day)."""


# -- quota and rules --------------------------------------------------------------------------


def pacific_day(when: dt.datetime) -> dt.date:
    """The Pacific-time date of an instant: the day the quota counts it on."""
    return when.astimezone(PACIFIC).date()


def _charge(ctx: Ctx, method: str) -> None:
    day = pacific_day(ctx.now())
    rec = ctx.first(QuotaDay, day=day)
    if method == "videos.insert":
        uploads = rec.uploads if rec else 0
        if uploads >= DAILY_UPLOADS:
            raise RuleViolation(
                f"quotaExceeded: the project made its {DAILY_UPLOADS} videos.insert calls today",
                field=None,
                hint="uploads reset at midnight Pacific Time; upload the video then",
            )
        if rec is None:
            ctx.create(QuotaDay, day=day, uploads=1)
        else:
            ctx.update(rec, uploads=uploads + 1)
        return
    units = COSTS[method]
    used = rec.units_used if rec else 0
    if used + units > DAILY_QUOTA:
        raise RuleViolation(
            f"quotaExceeded: {method} costs {units} units and only {DAILY_QUOTA - used} of {DAILY_QUOTA} are left today",
            field=None,
            hint="the quota resets at midnight Pacific Time; try again then, or do the cheaper calls first",
        )
    if rec is None:
        ctx.create(QuotaDay, day=day, units_used=units, calls=1)
    else:
        ctx.update(rec, units_used=used + units, calls=rec.calls + 1)


def _check_text(value: str, field: str, limit: int, *, in_bytes: bool = False) -> None:
    if "<" in value or ">" in value:
        raise RuleViolation(f"the {field} contains < or >", field=field, hint="remove the angle brackets")
    size = len(value.encode("utf-8")) if in_bytes else len(value)
    if size > limit:
        unit = "bytes" if in_bytes else "characters"
        raise RuleViolation(f"the {field} is {size} {unit}; at most {limit}", field=field, hint="shorten it")


def tag_length(tags: tuple[str, ...] | list[str]) -> int:
    """Characters tags count against the 500 limit: commas between them, quotes around tags with spaces."""
    return sum(len(t) + (2 if " " in t else 0) for t in tags) + max(0, len(tags) - 1)


def _check_tags(tags: tuple[str, ...] | list[str]) -> None:
    n = tag_length(tags)
    if n > MAX_TAG_CHARS:
        raise RuleViolation(
            f"the tags count {n} characters (commas and quotes included); at most {MAX_TAG_CHARS}",
            field="tags",
            hint="drop or shorten some tags",
        )


def _person(ctx: Ctx, email: str, field: str) -> Person:
    for p in ctx.population.people:
        if p.email == email:
            return p
    raise NotFound(f"no viewer with e-mail {email}", field=field, hint="use the e-mail of a known person")


def _playable(video: Video, field: str) -> None:
    if video.upload_status in ("failed", "rejected"):
        reason = video.failure_reason or video.rejection_reason
        raise RuleViolation(
            f"video {video.title} {video.upload_status} ({reason}) and cannot be played",
            field=field,
            hint="upload the video again with vidhub__upload_video",
        )


def _check_schedule(ctx: Ctx, new: Video, old: Video | None) -> None:
    if new.publish_at is None or (old is not None and new.publish_at == old.publish_at):
        return
    if new.privacy_status != "private":
        raise RuleViolation(
            "publish_at can only be set on a private video",
            field="publish_at",
            hint="keep privacy_status 'private'; the video goes public at publish_at",
        )
    if new.published_at is not None:
        raise RuleViolation(
            "the video has been published before and cannot be scheduled",
            field="publish_at",
            hint="change its privacy_status directly",
        )
    if new.publish_at <= ctx.now():
        raise RuleViolation("publish_at must be in the future", field="publish_at", hint="pick a later time")
    _playable(new, "video_id")


def _guard_video(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        _charge(ctx, "videos.delete")
        for item in ctx.where(PlaylistItem, video_id=old.id):
            _drop_item(ctx, item)
        for rec in ctx.where(Comment, video_id=old.id) + ctx.where(Caption, video_id=old.id):
            ctx.delete(rec)
        ch = ctx.get(Channel, old.channel_id)
        ctx.update(ch, video_count=max(0, ch.video_count - 1), view_count=max(0, ch.view_count - old.view_count))
        return
    if new.upload_status != old.upload_status:
        return  # a processing step of the platform, not a call of the channel
    _charge(ctx, "videos.update")
    _check_text(new.title, "title", 100)
    _check_text(new.description, "description", MAX_DESCRIPTION_BYTES, in_bytes=True)
    _check_tags(new.tags)
    _check_schedule(ctx, new, old)
    if new.privacy_status != "private" and new.privacy_status != old.privacy_status:
        _check_public(new)
        ctx.update(new, publish_at=None, published_at=new.published_at or ctx.now())


def _check_public(video: Video) -> None:
    _playable(video, "video_id")
    if video.upload_status != "processed":
        raise RuleViolation(
            f"video {video.title} is still {video.upload_status}",
            field="video_id",
            hint="wait until processing is done, or schedule it with publish_at while private",
        )


def _guard_channel(ctx: Ctx, new: Any, old: Any) -> None:
    _charge(ctx, "channels.update")
    if len(new.description) > 1000:
        raise RuleViolation("the channel description is over 1,000 characters", field="description", hint="shorten it")


def _guard_playlist(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        _charge(ctx, "playlists.delete")
        for item in ctx.where(PlaylistItem, playlist_id=old.id):
            ctx.delete(item)
        return
    _charge(ctx, "playlists.insert" if old is None else "playlists.update")
    _check_text(new.title, "title", 150)
    _check_text(new.description, "description", 5000)


def _guard_caption(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        _charge(ctx, "captions.delete")
        return
    _charge(ctx, "captions.insert" if old is None else "captions.update")
    if old is None:
        _playable(ctx.get(Video, new.video_id), "video_id")
        if new.track_kind == "asr":
            raise RuleViolation(
                "speech-recognition tracks are made by the platform", field="track_kind", hint="upload a standard track"
            )
    for other in ctx.where(Caption, video_id=new.video_id, language=new.language):
        if other.id != new.id and other.name == new.name:
            raise Conflict(
                f"the video already has a {new.language} track named {new.name!r} ({other.id})",
                field="name",
                hint="give the track another name, or update the existing one",
            )


def _guard_comment(ctx: Ctx, new: Any, old: Any) -> None:
    if old.commenter_email is None:
        raise RuleViolation(
            "the channel's own comments are not moderated",
            field="comment_id",
            hint="delete it with vidhub__delete_comment",
        )
    _charge(ctx, "comments.setModerationStatus")
    _count(ctx, new, old.moderation_status, new.moderation_status)
    ctx.update(new, updated_at=ctx.now())


channels = service.resource(
    Channel,
    name="channel",
    plural="channels",
    prefix="UC",
    create=False,
    filters=("owner_email", "custom_url", "country", "verified"),
    search=("title", "description"),
    update=("title", "description", "default_language", "country", "comment_hold"),
    delete=False,
    guard_update=_guard_channel,
)
videos = service.resource(
    Video,
    name="video",
    plural="videos",
    prefix="vid",
    create=False,
    filters=("channel_id", "privacy_status", "upload_status", "category_id", "made_for_kids", "license"),
    search=("title", "description"),
    update=(
        "title",
        "description",
        "tags",
        "category_id",
        "default_language",
        "privacy_status",
        "publish_at",
        "made_for_kids",
        "embeddable",
        "license",
        "public_stats_viewable",
    ),
    transitions={
        "process": Transition(
            "upload_status",
            ("uploaded",),
            "processing",
            "start processing the uploaded video",
            description="Start processing an uploaded video (the platform's transcoding): sets upload_status to "
            "'processing'; allowed when it is 'uploaded'.",
        )
    },
    guard_update=_guard_video,
    guard_delete=_guard_video,
)
playlists = service.resource(
    Playlist,
    name="playlist",
    plural="playlists",
    prefix="PL",
    create=("channel_id", "title", "description", "privacy_status"),
    get=False,
    filters=("channel_id", "privacy_status"),
    search=("title", "description"),
    update=("title", "description", "privacy_status"),
    guard_create=_guard_playlist,
    guard_update=_guard_playlist,
    guard_delete=_guard_playlist,
)
playlist_items = service.resource(
    PlaylistItem,
    name="playlist_item",
    plural="playlist_items",
    prefix="PLI",
    create=False,
    get=False,
    filters=("playlist_id", "video_id"),
    delete=False,
    title="playlist item",
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=False,
    filters=("video_id", "channel_id", "parent_id", "commenter_email", "moderation_status"),
    search=("text_original", "author_display_name"),
    delete=False,
    transitions={
        "approve": Transition(
            "moderation_status",
            ("heldForReview", "likelySpam", "rejected"),
            "published",
            "approve the held comment",
            description="Approve a viewer's held, spam-flagged or rejected comment so it shows "
            "(comments.setModerationStatus published, 50 units).",
        ),
        "reject": Transition(
            "moderation_status",
            ("published", "heldForReview", "likelySpam"),
            "rejected",
            "remove the viewer's comment",
            description="Reject a viewer's comment so it no longer shows (comments.setModerationStatus rejected, "
            "50 units); to hide its author too, use vidhub__set_comment_moderation_status with ban_author.",
        ),
    },
    guard_update=_guard_comment,
)
captions = service.resource(
    Caption,
    name="caption",
    plural="captions",
    prefix="cap",
    create=("video_id", "language", "name", "track_kind", "is_draft"),
    get=False,
    filters=("video_id", "language", "track_kind", "is_draft"),
    update=("name", "is_draft"),
    guard_create=_guard_caption,
    guard_update=_guard_caption,
    guard_delete=_guard_caption,
    title="caption track",
)
subscriptions = service.resource(
    Subscription,
    name="subscription",
    plural="subscriptions",
    prefix="sub",
    create=False,
    get=False,
    filters=("channel_id", "subscriber_email"),
    search=("subscriber_name",),
    delete=False,
)
quota_days = service.resource(
    QuotaDay, name="quota_day", plural="quota_days", prefix="qd", create=False, get=False, filters=None, delete=False
)


# -- examples ---------------------------------------------------------------------------------


def _example_upload(ctx: Ctx) -> dict[str, Any]:
    ch = next(iter(ctx.scan(Channel)))
    return {"channel_id": ch.id, "title": "Getting started in five minutes", "duration_seconds": 300}


def _commentable(ctx: Ctx, video: Video) -> bool:
    return video.privacy_status != "private" and video.upload_status == "processed" and not video.made_for_kids


def _example_comment(ctx: Ctx) -> dict[str, Any] | None:
    for video in ctx.where(Video, privacy_status="public", upload_status="processed"):
        if not _commentable(ctx, video):
            continue
        ch = ctx.get(Channel, video.channel_id)
        for p in ctx.population.consumers:
            if p.email not in ch.hidden_users:
                return {"video_id": video.id, "commenter_email": p.email, "text": "Really clear walkthrough, thanks!"}
    return None


def _example_add_item(ctx: Ctx) -> dict[str, Any] | None:
    for pl in ctx.scan(Playlist):
        for video in ctx.where(Video, channel_id=pl.channel_id, upload_status="processed"):
            return {"playlist_id": pl.id, "video_id": video.id}
    return None


def _example_subscribe(ctx: Ctx) -> dict[str, Any] | None:
    ch = next(iter(ctx.scan(Channel)))
    for p in ctx.population.consumers:
        if ctx.first(Subscription, channel_id=ch.id, subscriber_email=p.email) is None:
            return {"channel_id": ch.id, "subscriber_email": p.email}
    return None


def _example_own_comment(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.scan(Comment):
        if c.author_channel_id is not None:
            return {"comment_id": c.id}
    return None


# -- videos -----------------------------------------------------------------------------------


@service.tool(intent="upload a video to the channel", write=True, example=_example_upload)
def upload_video(
    ctx: Ctx,
    channel_id: ChannelId,
    title: Title,
    duration_seconds: int,
    description: Text = "",
    tags: Tags | None = None,
    category_id: CategoryId = "28",
    privacy_status: Privacy = "private",
    publish_at: DateTime | None = None,
    made_for_kids: bool = False,
    default_language: Language | None = None,
) -> Video:
    """Upload a video (videos.insert: one of the project's 100 uploads a day); it must then be processed.

    Title at most 100 characters and description 5,000 bytes, neither with <
    or >; tags at most 500 characters counting commas and the quotes around
    tags with spaces. Videos over 15 minutes need a verified channel (12 hours
    at most). publish_at schedules a private video and must be in the future.
    A public or unlisted upload becomes visible once processed.

    Args:
        channel_id: The channel.
        title: Video title.
        duration_seconds: Length in seconds.
        description: Description.
        tags: Keyword tags.
        category_id: Category id (28 Science & Technology, 27 Education, 26 Howto & Style …).
        privacy_status: private, unlisted or public.
        publish_at: When a private video should go public.
        made_for_kids: Whether it is made for kids (turns comments off).
        default_language: Language of the title and description.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    _check_text(title, "title", 100)
    _check_text(description, "description", MAX_DESCRIPTION_BYTES, in_bytes=True)
    tag_list = tuple(dict.fromkeys(tags or []))
    _check_tags(tag_list)
    if not 1 <= duration_seconds <= MAX_DURATION:
        raise RuleViolation(
            "a video is 1 second to 12 hours long", field="duration_seconds", hint="check the file's length"
        )
    if duration_seconds > SHORT_UPLOAD and not ch.verified:
        raise RuleViolation(
            f"{ch.title} is not verified and can only upload videos up to 15 minutes",
            field="duration_seconds",
            hint="verify the channel by phone, or trim the video to 15 minutes",
        )
    if publish_at is not None:
        if privacy_status != "private":
            raise RuleViolation(
                "publish_at can only be set on a private video", field="publish_at", hint="upload it as private"
            )
        if publish_at <= ctx.now():
            raise RuleViolation("publish_at must be in the future", field="publish_at", hint="pick a later time")
    _charge(ctx, "videos.insert")
    video = ctx.create(
        Video,
        channel_id=ch.id,
        title=title,
        description=description,
        tags=tag_list,
        category_id=category_id,
        default_language=default_language or ch.default_language,
        privacy_status=privacy_status,
        publish_at=publish_at,
        duration_seconds=duration_seconds,
        made_for_kids=made_for_kids,
    )
    ctx.update(ch, video_count=ch.video_count + 1)
    return video


@service.tool(
    intent="record the video's processing result",
    write=True,
    example=first_example(Video, "video_id", where={"upload_status": "processing"}, outcome="processed"),
)
def complete_video_processing(
    ctx: Ctx,
    video_id: VideoId,
    outcome: Literal["processed", "failed"],
    failure_reason: FailureReason | None = None,
) -> Video:
    """Finish processing a video (the platform's side): processed, or failed with a reason.

    Only videos in processing finish; a failed video stays failed and must be
    uploaded again.

    Args:
        video_id: The video.
        outcome: processed or failed.
        failure_reason: Why it failed (codec, conversion, emptyFile, invalidFile, tooSmall, uploadAborted).
    """
    video = ctx.get(Video, video_id, field="video_id")
    if video.upload_status != "processing":
        raise RuleViolation(
            f"video {video.title} is {video.upload_status}, not processing",
            field="video_id",
            hint="start processing an uploaded video with vidhub__process_video",
        )
    if outcome == "failed" and failure_reason is None:
        raise RuleViolation("a failed video needs a failure_reason", field="failure_reason", hint="say why it failed")
    if outcome == "processed" and failure_reason is not None:
        raise RuleViolation("a processed video has no failure_reason", field="failure_reason", hint="omit it")
    changes: dict[str, Any] = {"upload_status": outcome, "failure_reason": failure_reason}
    if outcome == "processed" and video.privacy_status != "private":
        changes["published_at"] = ctx.now()
    if outcome == "failed":
        changes["publish_at"] = None
    return ctx.update(video, **changes)


@service.tool(
    intent="publish the video",
    write=True,
    example=first_example(Video, "video_id", where={"upload_status": "processed", "privacy_status": "private"}),
)
def publish_video(ctx: Ctx, video_id: VideoId) -> Video:
    """Make a processed video public now (videos.update, 50 units); a schedule it had is dropped.

    Args:
        video_id: The video.
    """
    video = ctx.get(Video, video_id, field="video_id")
    if video.privacy_status == "public":
        raise Conflict(f"video {video.title} is already public", field="video_id", hint="nothing to do")
    _check_public(video)
    _charge(ctx, "videos.update")
    return ctx.update(video, privacy_status="public", publish_at=None, published_at=video.published_at or ctx.now())


@service.tool(
    intent="set the video's custom thumbnail",
    write=True,
    example=first_example(
        Video,
        "video_id",
        where={"upload_status": "processed"},
        match=lambda ctx, v: ctx.get(Channel, v.channel_id).verified,
        image_url="https://cdn.example.com/thumbs/launch.jpg",
    ),
)
def set_thumbnail(ctx: Ctx, video_id: VideoId, image_url: Url) -> Video:
    """Set a custom thumbnail (thumbnails.set, 50 units): a JPEG or PNG, on a verified channel's video.

    Args:
        video_id: The video.
        image_url: https address of the .jpg, .jpeg or .png image.
    """
    video = ctx.get(Video, video_id, field="video_id")
    ch = ctx.get(Channel, video.channel_id)
    if not ch.verified:
        raise RuleViolation(
            f"{ch.title} is not verified and cannot set custom thumbnails",
            field="video_id",
            hint="verify the channel by phone first",
        )
    _playable(video, "video_id")
    if not image_url.startswith("https://") or not image_url.lower().endswith((".jpg", ".jpeg", ".png")):
        raise RuleViolation(
            "the thumbnail must be an https JPEG or PNG",
            field="image_url",
            hint="pass an https URL ending in .jpg or .png",
        )
    _charge(ctx, "thumbnails.set")
    return ctx.update(video, thumbnail_url=image_url)


# -- playlists --------------------------------------------------------------------------------


def _drop_item(ctx: Ctx, item: PlaylistItem) -> None:
    for other in ctx.where(PlaylistItem, playlist_id=item.playlist_id):
        if other.position > item.position:
            ctx.update(other, position=other.position - 1)
    ctx.delete(item)
    pl = ctx.get(Playlist, item.playlist_id)
    ctx.update(pl, item_count=max(0, pl.item_count - 1))


@service.tool(intent="add the video to the playlist", write=True, example=_example_add_item)
def add_playlist_item(
    ctx: Ctx, playlist_id: PlaylistId, video_id: VideoId, position: int | None = None, note: str = ""
) -> PlaylistItem:
    """Add a video to a playlist (playlistItems.insert, 50 units), at the end or at a position.

    Items at and after the position move down one. A playlist holds at most
    5,000 items; failed and rejected videos cannot be added.

    Args:
        playlist_id: The playlist.
        video_id: The video.
        position: Zero-based position (0 to the number of items); omit to append.
        note: A note shown with the item (280 characters).
    """
    pl = ctx.get(Playlist, playlist_id, field="playlist_id")
    video = ctx.get(Video, video_id, field="video_id")
    _playable(video, "video_id")
    items = ctx.where(PlaylistItem, playlist_id=pl.id)
    if len(items) >= MAX_ITEMS:
        raise RuleViolation(
            f"playlist {pl.title} holds {MAX_ITEMS} videos, its maximum",
            field="playlist_id",
            hint="start another playlist",
        )
    at = len(items) if position is None else position
    if not 0 <= at <= len(items):
        raise RuleViolation(
            f"position {position} is outside the playlist", field="position", hint=f"pick 0 to {len(items)}"
        )
    if len(note) > 280:
        raise RuleViolation("the note is over 280 characters", field="note", hint="shorten it")
    _charge(ctx, "playlistItems.insert")
    for other in items:
        if other.position >= at:
            ctx.update(other, position=other.position + 1)
    item = ctx.create(PlaylistItem, playlist_id=pl.id, video_id=video.id, position=at, note=note)
    ctx.update(pl, item_count=len(items) + 1)
    return item


@service.tool(
    intent="move the video within the playlist",
    write=True,
    idempotent=True,
    example=first_example(PlaylistItem, "playlist_item_id", where={"position": 1}, position=0),
)
def move_playlist_item(ctx: Ctx, playlist_item_id: PlaylistItemId, position: int) -> PlaylistItem:
    """Move an item to another position (playlistItems.update, 50 units); the items between shift by one.

    Args:
        playlist_item_id: The item.
        position: Its new zero-based position.
    """
    item = ctx.get(PlaylistItem, playlist_item_id, field="playlist_item_id")
    items = ctx.where(PlaylistItem, playlist_id=item.playlist_id)
    if not 0 <= position < len(items):
        raise RuleViolation(
            f"position {position} is outside the playlist", field="position", hint=f"pick 0 to {len(items) - 1}"
        )
    if position == item.position:
        return item
    _charge(ctx, "playlistItems.update")
    for other in items:
        if other.id == item.id:
            continue
        if item.position < other.position <= position:
            ctx.update(other, position=other.position - 1)
        elif position <= other.position < item.position:
            ctx.update(other, position=other.position + 1)
    return ctx.update(item, position=position)


class ItemRemoval(BaseModel):
    """A video taken out of a playlist."""

    playlist_item_id: PlaylistItemId = Field(description="The removed item.")
    playlist_id: PlaylistId = Field(description="The playlist.")
    item_count: int = Field(description="Items left in the playlist.")


@service.tool(
    intent="remove the video from the playlist",
    write=True,
    destructive=True,
    example=first_example(PlaylistItem, "playlist_item_id"),
)
def remove_playlist_item(ctx: Ctx, playlist_item_id: PlaylistItemId) -> ItemRemoval:
    """Take an item out of its playlist (playlistItems.delete, 50 units); later items move up.

    Args:
        playlist_item_id: The item.
    """
    item = ctx.get(PlaylistItem, playlist_item_id, field="playlist_item_id")
    _charge(ctx, "playlistItems.delete")
    _drop_item(ctx, item)
    pl = ctx.get(Playlist, item.playlist_id)
    return ItemRemoval(playlist_item_id=item.id, playlist_id=pl.id, item_count=pl.item_count)


# -- comments ---------------------------------------------------------------------------------


def _count(ctx: Ctx, comment: Comment, before: str, after: str) -> None:
    """Keep the video's count of published comments when a comment's status changes."""
    delta = (after == "published") - (before == "published")
    if delta:
        video = ctx.get(Video, comment.video_id)
        ctx.update(video, comment_count=max(0, video.comment_count + delta))


@service.tool(intent="comment on the video as the customer", write=True, example=_example_comment)
def post_comment(ctx: Ctx, video_id: VideoId, commenter_email: Email, text: Text) -> Comment:
    """A viewer comments on a video (the audience's side of commentThreads.insert).

    Comments go only on processed public or unlisted videos not made for
    kids. The channel's hold setting decides whether the comment is published
    or held for review (hold_links holds comments with links; three links or
    more are likely spam); a hidden user's comments are rejected.

    Args:
        video_id: The video.
        commenter_email: E-mail of the viewer.
        text: The comment (10,000 characters).
    """
    video = ctx.get(Video, video_id, field="video_id")
    if video.made_for_kids:
        raise RuleViolation(
            "comments are off on videos made for kids", field="video_id", hint="comment on another video"
        )
    if video.privacy_status == "private" or video.upload_status != "processed":
        raise RuleViolation(
            f"video {video.title} is not public", field="video_id", hint="comment on a public or unlisted video"
        )
    if not text.strip() or len(text) > 10000:
        raise RuleViolation("a comment has 1 to 10,000 characters", field="text", hint="write a shorter comment")
    person = _person(ctx, commenter_email, "commenter_email")
    ch = ctx.get(Channel, video.channel_id)
    links = text.count("http://") + text.count("https://")
    status: Moderation = "published"
    if commenter_email in ch.hidden_users:
        status = "rejected"
    elif links >= 3:
        status = "likelySpam"
    elif ch.comment_hold == "hold_all" or (ch.comment_hold == "hold_links" and links):
        status = "heldForReview"
    comment = ctx.create(
        Comment,
        video_id=video.id,
        channel_id=ch.id,
        commenter_email=commenter_email,
        author_display_name=person.name,
        text_original=text,
        moderation_status=status,
    )
    _count(ctx, comment, "rejected", status)
    return comment


@service.tool(
    intent="reply to the comment",
    write=True,
    example=first_example(
        Comment, "comment_id", where={"parent_id": None, "moderation_status": "published"}, text="Thanks for watching!"
    ),
)
def reply_to_comment(ctx: Ctx, comment_id: CommentId, text: Text) -> Comment:
    """Reply as the video's channel to a published top-level comment (comments.insert, 50 units).

    Replies to replies are not possible: reply to the top-level comment.

    Args:
        comment_id: The top-level comment.
        text: The reply.
    """
    parent = ctx.get(Comment, comment_id, field="comment_id")
    if parent.parent_id is not None:
        raise RuleViolation(
            "replies cannot be replied to",
            field="comment_id",
            hint=f"reply to the top-level comment {parent.parent_id}",
        )
    if parent.moderation_status != "published":
        raise RuleViolation(
            f"the comment is {parent.moderation_status}",
            field="comment_id",
            hint="publish it with vidhub__set_comment_moderation_status first",
        )
    if not text.strip() or len(text) > 10000:
        raise RuleViolation("a reply has 1 to 10,000 characters", field="text", hint="write a shorter reply")
    _charge(ctx, "comments.insert")
    ch = ctx.get(Channel, parent.channel_id)
    reply = ctx.create(
        Comment,
        video_id=parent.video_id,
        channel_id=ch.id,
        parent_id=parent.id,
        author_channel_id=ch.id,
        author_display_name=ch.title,
        text_original=text,
    )
    ctx.update(parent, reply_count=parent.reply_count + 1)
    _count(ctx, reply, "rejected", "published")
    return reply


@service.tool(
    intent="moderate the comment",
    write=True,
    example=first_example(
        Comment, "comment_id", where={"moderation_status": "heldForReview"}, moderation_status="published"
    ),
)
def set_comment_moderation_status(
    ctx: Ctx,
    comment_id: CommentId,
    moderation_status: Literal["published", "heldForReview", "rejected"],
    ban_author: bool = False,
) -> Comment:
    """Publish, hold or reject a viewer's comment (comments.setModerationStatus, 50 units).

    ban_author (only with rejected) hides the viewer: their future comments
    are rejected automatically.

    Args:
        comment_id: The comment.
        moderation_status: published, heldForReview or rejected.
        ban_author: Also hide the comment's author from the channel.
    """
    comment = ctx.get(Comment, comment_id, field="comment_id")
    if comment.commenter_email is None:
        raise RuleViolation(
            "the channel's own comments are not moderated",
            field="comment_id",
            hint="delete it with vidhub__delete_comment",
        )
    if ban_author and moderation_status != "rejected":
        raise RuleViolation(
            "banAuthor can only be used with moderation_status 'rejected'",
            field="ban_author",
            hint="reject the comment to ban its author",
        )
    if comment.moderation_status == moderation_status and not ban_author:
        raise Conflict(f"the comment is already {moderation_status}", field="moderation_status", hint="nothing to do")
    _charge(ctx, "comments.setModerationStatus")
    if ban_author:
        ch = ctx.get(Channel, comment.channel_id)
        if comment.commenter_email not in ch.hidden_users:
            ctx.update(ch, hidden_users=(*ch.hidden_users, comment.commenter_email))
    _count(ctx, comment, comment.moderation_status, moderation_status)
    return ctx.update(comment, moderation_status=moderation_status, updated_at=ctx.now())


class CommentDeletion(BaseModel):
    """A deleted comment."""

    comment_id: CommentId = Field(description="The deleted comment.")
    deleted_replies: int = Field(description="Replies deleted with it.")


@service.tool(intent="delete the channel's comment", write=True, destructive=True, example=_example_own_comment)
def delete_comment(ctx: Ctx, comment_id: CommentId) -> CommentDeletion:
    """Delete a comment the channel wrote (comments.delete, 50 units), with its replies.

    Viewers' comments are not deleted through the API: reject them instead.

    Args:
        comment_id: The comment.
    """
    comment = ctx.get(Comment, comment_id, field="comment_id")
    if comment.author_channel_id is None:
        raise RuleViolation(
            "only comments the channel wrote can be deleted",
            field="comment_id",
            hint="reject a viewer's comment with vidhub__set_comment_moderation_status",
        )
    _charge(ctx, "comments.delete")
    replies = ctx.where(Comment, parent_id=comment.id)
    for c in [*replies, comment]:
        _count(ctx, c, c.moderation_status, "rejected")
        ctx.delete(c)
    if comment.parent_id is not None:
        parent = ctx.get(Comment, comment.parent_id)
        ctx.update(parent, reply_count=max(0, parent.reply_count - 1))
    return CommentDeletion(comment_id=comment.id, deleted_replies=len(replies))


# -- subscribers and quota --------------------------------------------------------------------


@service.tool(intent="subscribe to the channel as the customer", write=True, example=_example_subscribe)
def subscribe_to_channel(ctx: Ctx, channel_id: ChannelId, subscriber_email: Email) -> Subscription:
    """A viewer subscribes to a channel (the audience's side of subscriptions.insert).

    Nobody subscribes twice, and a channel's owner cannot subscribe to it.

    Args:
        channel_id: The channel.
        subscriber_email: E-mail of the viewer.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    if subscriber_email == ch.owner_email:
        raise RuleViolation(
            "subscriptionForbidden: a channel cannot subscribe to itself",
            field="subscriber_email",
            hint="subscribe another viewer",
        )
    if ctx.first(Subscription, channel_id=ch.id, subscriber_email=subscriber_email) is not None:
        raise Conflict(
            f"subscriptionDuplicate: {subscriber_email} already subscribes to {ch.title}",
            field="subscriber_email",
            hint="nothing to do",
        )
    person = _person(ctx, subscriber_email, "subscriber_email")
    sub = ctx.create(Subscription, channel_id=ch.id, subscriber_email=subscriber_email, subscriber_name=person.name)
    ctx.update(ch, subscriber_count=ch.subscriber_count + 1)
    return sub


@service.tool(
    intent="unsubscribe from the channel as the customer",
    write=True,
    destructive=True,
    example=first_example(
        Subscription, None, fields={"channel_id": "channel_id", "subscriber_email": "subscriber_email"}
    ),
)
def unsubscribe_from_channel(ctx: Ctx, channel_id: ChannelId, subscriber_email: Email) -> Subscription:
    """A viewer unsubscribes from a channel (the audience's side of subscriptions.delete).

    Args:
        channel_id: The channel.
        subscriber_email: E-mail of the subscriber.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    sub = ctx.first(Subscription, channel_id=ch.id, subscriber_email=subscriber_email)
    if sub is None:
        raise NotFound(
            f"{subscriber_email} does not subscribe to {ch.title}",
            field="subscriber_email",
            hint="list the channel's subscriptions",
        )
    ctx.delete(sub)
    ctx.update(ch, subscriber_count=max(0, ch.subscriber_count - 1))
    return sub


class MethodCost(BaseModel):
    """What one API method costs."""

    method: str = Field(description="The API method (videos.insert …).")
    units: int = Field(description="Quota units per call.")


class QuotaReport(BaseModel):
    """The API project's quota on one day."""

    day: Date = Field(description="The day, in Pacific Time.")
    units_used: int = Field(description="Units spent.")
    calls: int = Field(description="Charged calls.")
    daily_limit: int = Field(description="Units allowed per day.")
    remaining: int = Field(description="Units left.")
    uploads: int = Field(description="videos.insert calls made.")
    uploads_remaining: int = Field(description="videos.insert calls left (100 a day).")
    costs: list[MethodCost] = Field(description="Units of each write method; reads cost 1 unit each.")


@service.tool(intent="check the API quota left today", example=fixed_example())
def get_quota_usage(ctx: Ctx, day: Date | None = None) -> QuotaReport:
    """Report the quota units spent and left on a day (today, Pacific Time, by default).

    Args:
        day: The Pacific-time day.
    """
    when = day or pacific_day(ctx.now())
    rec = ctx.first(QuotaDay, day=when)
    used = rec.units_used if rec else 0
    return QuotaReport(
        day=when,
        units_used=used,
        calls=rec.calls if rec else 0,
        daily_limit=DAILY_QUOTA,
        remaining=DAILY_QUOTA - used,
        uploads=rec.uploads if rec else 0,
        uploads_remaining=DAILY_UPLOADS - (rec.uploads if rec else 0),
        costs=[MethodCost(method=m, units=u) for m, u in COSTS.items()],
    )


# -- seed -------------------------------------------------------------------------------------

VIDEO_TITLES = (
    ("Product tour: everything new this spring", "27"),
    ("How to set up your workspace in 10 minutes", "26"),
    ("Customer story: scaling support with automations", "22"),
    ("Live Q&A with the product team", "28"),
    ("Five reporting tricks you did not know", "26"),
    ("Release 4.1 walkthrough", "28"),
    ("Behind the scenes: our new office", "22"),
    ("Keyboard shortcuts in 90 seconds", "26"),
    ("Security and compliance explained", "27"),
)
COMMENTS = (
    "This is exactly what I needed, thanks!",
    "Could you do a deeper dive on the reporting part?",
    "The audio drops out around the middle.",
    "Great update, the new filters are a huge time saver.",
    "Is this available on the mobile app too?",
    "Check out my channel for more tips https://spam.example/promo",
    "Loved the customer story, very relatable.",
)
REPLIES = ("Thanks for watching!", "Good idea, noted for the next video.", "Yes, it is on mobile since 4.0.")


@service.seeder
def seed(s: SeedContext) -> None:
    """The company's channels with videos in every state, playlists, captions, comments, subscribers and quota."""
    chans = _seed_channels(s)
    for k, ch in enumerate(chans):
        vids = _seed_videos(s, ch, k)
        _seed_playlists(s, ch, vids)
        _seed_captions(s, vids)
        _seed_comments(s, ch, vids, k)
        _seed_subscriptions(s, ch, k)
    _seed_quota(s)


def _seed_channels(s: SeedContext) -> list[Channel]:
    """A brand channel, a tutorials channel and an unverified engineering channel, owned by employees."""
    pop = s.population
    home = pop.home
    slug = "".join(ch for ch in home.domain.split(".")[0] if ch.isalnum())[:20] or "company"
    plan = (
        (home.name, f"@{slug}", ("Marketing",), True, "hold_links"),
        (f"{home.name} Academy", f"@{slug}academy", ("Support", "People"), True, "none"),
        (f"{home.name} Engineering", f"@{slug}eng", ("Engineering",), False, "hold_all"),
    )
    out = []
    for k, (title, handle, depts, verified, hold) in enumerate(plan):
        owner = pop.staff(*depts, fallback=3)[0]
        out.append(
            s.create(
                Channel,
                title=title,
                description=f"Videos from {home.name}: product news, tutorials and stories.",
                custom_url=handle,
                owner_email=owner.email,
                country=home.place.country,
                default_language=home.place.language if len(home.place.language) == 2 else "en",
                verified=verified,
                comment_hold=hold,
                created_at=s.now - dt.timedelta(days=900 - 200 * k),
            )
        )
    return out


def _seed_videos(s: SeedContext, ch: Channel, k: int) -> list[Video]:
    """Videos in every state: public, unlisted, scheduled, private, uploaded, processing, failed and rejected."""
    states: tuple[tuple[Privacy, UploadStatus], ...] = (
        ("public", "processed"),
        ("public", "processed"),
        ("public", "processed"),
        ("unlisted", "processed"),
        ("private", "processed"),
        ("private", "processed"),
        ("private", "uploaded"),
        ("private", "processing"),
        ("private", "failed"),
    )
    if k == 0:
        states = (*states, ("private", "rejected"))
    out = []
    views = 0
    for n, (privacy, upload) in enumerate(states):
        title, category = VIDEO_TITLES[(n + 2 * k) % len(VIDEO_TITLES)]
        created = s.now - dt.timedelta(days=120 - 11 * n, hours=k)
        public = upload == "processed" and privacy != "private"
        viewed = s.rng.randint(200, 40000) if public else 0
        views += viewed
        out.append(
            s.create(
                Video,
                channel_id=ch.id,
                title=title if k == 0 else f"{title} ({ch.title.split()[-1]})",
                description=f"{title}. Subscribe for more from {ch.title}.",
                tags=("tutorial", "product updates", ch.custom_url[1:])[: 1 + n % 3],
                category_id=category,
                default_language=ch.default_language,
                privacy_status=privacy,
                publish_at=s.now + dt.timedelta(days=3 + k) if n == 4 else None,
                upload_status=upload,
                failure_reason="codec" if upload == "failed" else None,
                rejection_reason="copyright" if upload == "rejected" else None,
                duration_seconds=s.rng.randint(60, SHORT_UPLOAD if not ch.verified else 3000),
                made_for_kids=False,
                thumbnail_url=f"https://cdn.{s.population.home.domain}/thumbs/{ch.id}-{n}.jpg"
                if ch.verified and public
                else None,
                view_count=viewed,
                like_count=viewed // 25,
                published_at=created + dt.timedelta(hours=6) if public else None,
                created_at=created,
                updated_at=created,
            )
        )
    return out


def _seed_playlists(s: SeedContext, ch: Channel, vids: list[Video]) -> None:
    """A public playlist of the channel's playable videos and a private one of drafts."""
    playable = [v for v in vids if v.upload_status == "processed"]
    plans = (
        (f"{ch.title} highlights", "public", [v for v in playable if v.privacy_status != "private"]),
        ("Drafts to review", "private", [v for v in playable if v.privacy_status == "private"]),
    )
    for title, privacy, members in plans:
        pl = s.create(
            Playlist,
            channel_id=ch.id,
            title=title,
            description=f"{title} from {ch.title}.",
            privacy_status=privacy,
            item_count=len(members),
            created_at=ch.created_at,
            updated_at=ch.created_at,
        )
        for pos, v in enumerate(members):
            s.create(PlaylistItem, playlist_id=pl.id, video_id=v.id, position=pos, added_at=v.created_at)


def _seed_captions(s: SeedContext, vids: list[Video]) -> None:
    """English tracks on playable videos, a draft Spanish one, and speech-recognition tracks."""
    for n, v in enumerate(vids):
        if v.upload_status != "processed":
            continue
        s.create(
            Caption, video_id=v.id, language="en", name="English", created_at=v.created_at, updated_at=v.created_at
        )
        if n == 0:
            s.create(Caption, video_id=v.id, language="es", name="Español", is_draft=True)
        if n % 2:
            s.create(Caption, video_id=v.id, language="en", track_kind="asr")


def _seed_comments(s: SeedContext, ch: Channel, vids: list[Video], k: int) -> None:
    """Viewers' comments on public videos in every moderation state, some answered by the channel."""
    viewers = list(s.population.consumers)
    public = [v for v in vids if v.privacy_status != "private" and v.upload_status == "processed"]
    hidden: list[str] = []
    for n, v in enumerate(public):
        published = 0
        for j in range(3):
            who = viewers[(n * 3 + j + k * 7) % len(viewers)]
            text = COMMENTS[(n * 3 + j) % len(COMMENTS)]
            status: Moderation = "published"
            if "http" in text:
                status = "heldForReview" if ch.comment_hold != "none" else "published"
            if ch.comment_hold == "hold_all" and j == 2:
                status = "heldForReview"
            if n == 1 and j == 1:
                status = "rejected"
                hidden.append(who.email)
            when = (v.published_at or v.created_at) + dt.timedelta(hours=3 + j * 5)
            top = s.create(
                Comment,
                video_id=v.id,
                channel_id=ch.id,
                commenter_email=who.email,
                author_display_name=who.name,
                text_original=text,
                moderation_status=status,
                like_count=s.rng.randint(0, 40),
                published_at=when,
            )
            published += status == "published"
            if status == "published" and j == 0:
                s.create(
                    Comment,
                    video_id=v.id,
                    channel_id=ch.id,
                    parent_id=top.id,
                    author_channel_id=ch.id,
                    author_display_name=ch.title,
                    text_original=REPLIES[n % len(REPLIES)],
                    published_at=when + dt.timedelta(hours=1),
                )
                s.update(top, reply_count=1)
                published += 1
        s.update(v, comment_count=published)
    s.update(
        _current(s, ch),
        hidden_users=tuple(dict.fromkeys(hidden[:1])),
        video_count=len(vids),
        view_count=sum(v.view_count for v in vids),
    )


def _current(s: SeedContext, ch: Channel) -> Channel:
    """The channel as seeded so far (seeders update it as they go)."""
    return next(c for c in s.records(Channel) if c.id == ch.id)


def _seed_subscriptions(s: SeedContext, ch: Channel, k: int) -> None:
    """Most consumers and a few business contacts subscribe to the brand channel, fewer to the others."""
    pop = s.population
    people = list(pop.consumers)[k * 5 :: 1 + k] + list(pop.contacts)[: 3 - k]
    for p in people:
        s.create(
            Subscription,
            channel_id=ch.id,
            subscriber_email=p.email,
            subscriber_name=p.name,
            subscribed_at=s.now - dt.timedelta(days=s.rng.randint(1, 400)),
        )
    s.update(_current(s, ch), subscriber_count=len(people))


def _seed_quota(s: SeedContext) -> None:
    """Yesterday's spend and what today's uploads and edits used so far."""
    today = pacific_day(s.now)
    s.create(QuotaDay, day=today - dt.timedelta(days=1), units_used=9550, calls=44, uploads=6)
    s.create(QuotaDay, day=today, units_used=7900, calls=31, uploads=3)
