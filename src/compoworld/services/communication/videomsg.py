"""Clipcast: async video messages recorded by the company's staff, with folders, sharing, comments and insights.

Modeled on the Loom API (Loom for Business / Enterprise, recordSDK and video endpoints): a workspace with
members whose seat is creator, creator_lite (at most 25 videos, each at most 5 minutes) or viewer (records
nothing); videos that go processing → ready (or failed) and ready ↔ archived, in folders owned by their
creator; a privacy setting per video (workspace, public, password or specific_people) that decides who may
watch; transcripts generated once a video is ready; time-stamped comments and emoji reactions (only while
comments are enabled and within the video's length); and view insights: views, unique viewers and
completion rate, recorded per viewer watch.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Language, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "videomsg",
    title="Clipcast",
    category="async_video",
    modeled_on="Loom API (videos, folders, workspace members and seats, sharing/privacy, transcripts, "
    "comments, reactions, video insights)",
    description="Async video messages for the company: staff record screen-and-camera videos into folders, "
    "share them with the workspace, the public, a password or named people, and colleagues watch, comment "
    "at a moment in the video, react with emoji, read the transcript, and owners follow view insights.",
)

MemberId = Annotated[str, IdOf("videomsg.member")]
FolderId = Annotated[str, IdOf("videomsg.folder")]
VideoId = Annotated[str, IdOf("videomsg.video")]
CommentId = Annotated[str, IdOf("videomsg.comment")]
ReactionId = Annotated[str, IdOf("videomsg.reaction")]
ViewId = Annotated[str, IdOf("videomsg.view")]

Seconds = Annotated[int, Field(ge=0, le=4 * 3600)]
"""A position or length in seconds (videos are at most four hours)."""

Seat = Literal["creator", "creator_lite", "viewer"]
MemberRole = Literal["admin", "member"]
VideoStatus = Literal["processing", "ready", "failed", "archived"]
Privacy = Literal["workspace", "public", "password", "specific_people"]
TranscriptStatus = Literal["none", "generating", "ready"]
Emoji = Literal["👍", "❤️", "😂", "🎉", "🔥", "👀", "🙌", "🤔"]

LITE_MAX_VIDEOS = 25
LITE_MAX_SECONDS = 300


class Member(Record):
    """A member of the workspace and the seat they hold."""

    id: MemberId
    email: Email
    """The member's e-mail (an employee's)."""
    seat: Seat = "creator"
    """creator (unlimited), creator_lite (25 videos of at most 5 minutes) or viewer (cannot record)."""
    role: MemberRole = "member"
    """admin (manages members) or member."""
    created_at: Annotated[DateTime, CREATED]
    """When they joined."""


class Folder(Record):
    """A folder of videos in someone's library."""

    id: FolderId
    name: Title
    """The folder's name (unique per owner)."""
    owner_email: Email
    """The member whose library it is in."""
    shared: bool = False
    """Whether it is shared with the whole workspace."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Video(Record):
    """A recorded video message."""

    id: VideoId
    title: Title
    """The video's title."""
    description: Text = ""
    """What it is about."""
    owner_email: Email
    """The creator who recorded it."""
    folder_id: FolderId | None = None
    """The folder it is in (none: the library root)."""
    duration_seconds: Seconds
    """Its length in seconds."""
    status: VideoStatus = "processing"
    """processing, ready, failed or archived."""
    privacy: Privacy = "workspace"
    """workspace (any employee), public (anyone with the link), password or specific_people."""
    shared_with: tuple[Email, ...] = ()
    """Who may watch it when privacy is specific_people."""
    password: Annotated[str, Field(min_length=4, max_length=64)] | None = None
    """The password when privacy is password."""
    comments_enabled: bool = True
    """Whether viewers may comment and react."""
    download_enabled: bool = False
    """Whether viewers may download it."""
    transcript_status: TranscriptStatus = "none"
    """none, generating or ready."""
    transcript_language: Language = "en"
    """The spoken language of the transcript."""
    transcript: Text = ""
    """The transcript text, once ready."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Comment(Record):
    """A comment on a video, at a moment in it."""

    id: CommentId
    video_id: VideoId
    """The video."""
    author_email: Email
    """Who wrote it."""
    body: Text
    """The comment."""
    timestamp_seconds: Seconds = 0
    """The moment of the video it refers to."""
    parent_id: CommentId | None = None
    """The comment it replies to."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


class Reaction(Record):
    """An emoji reaction at a moment of a video."""

    id: ReactionId
    video_id: VideoId
    """The video."""
    viewer_email: Email
    """Who reacted."""
    emoji: Emoji
    """The emoji."""
    timestamp_seconds: Seconds = 0
    """The moment of the video."""
    created_at: Annotated[DateTime, CREATED]
    """When they reacted."""


class View(Record):
    """One watch of a video by a viewer."""

    id: ViewId
    video_id: VideoId
    """The video."""
    viewer_email: Email
    """Who watched."""
    watched_seconds: Seconds
    """How long they watched."""
    completed: bool
    """Whether they watched to the end (95% or more)."""
    viewed_at: Annotated[DateTime, CREATED]
    """When they watched."""


class Insights(Value):
    """A video's engagement."""

    video_id: VideoId
    """The video."""
    views: int
    """Watches recorded."""
    unique_viewers: int
    """Distinct viewers."""
    completion_rate: float
    """Share of watches that reached the end, 0-1."""
    average_watch_seconds: float
    """Mean watched time."""
    comments: int
    """Comments on it."""
    reactions: dict[str, int]
    """Reactions per emoji."""
    viewers_who_did_not_finish: list[str]
    """Viewers whose every watch stopped early."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _member(ctx: Ctx, email: str, field: str) -> Member:
    m = ctx.first(Member, email=email)
    if m is None:
        raise RuleViolation(
            f"{email} is not a member of the workspace",
            field=field,
            hint="add them with videomsg__add_member first",
        )
    return m


def _can_watch(ctx: Ctx, video: Video, email: str, password: str | None) -> None:
    if video.status != "ready":
        raise RuleViolation(
            f"video {video.id} is {video.status}", field="video_id", hint="only ready videos can be watched"
        )
    if email == video.owner_email or video.privacy == "public":
        return
    if video.privacy == "workspace":
        _staff(ctx, email, "viewer_email")
    elif video.privacy == "specific_people" and email not in video.shared_with:
        raise RuleViolation(
            f"video {video.id} is shared only with specific people",
            field="viewer_email",
            hint="the owner can add them with videomsg__share_video",
        )
    elif video.privacy == "password" and password != video.password:
        raise RuleViolation("wrong or missing password", field="password", hint="ask the owner for the password")


def _guard_folder(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _member(ctx, new.owner_email, "owner_email")
    if old is None or new.name != old.name:
        for f in ctx.where(Folder, owner_email=new.owner_email, name=new.name):
            if f.id != new.id:
                raise Conflict(
                    f"folder {f.id} of {new.owner_email} is already named {new.name!r}",
                    field="name",
                    hint="pick another name",
                )


def _guard_folder_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Video, folder_id=old.id) is not None:
        raise RuleViolation(
            f"folder {old.id} still holds videos",
            field="folder_id",
            hint="move its videos out with videomsg__update_video first",
        )


def _check_folder(ctx: Ctx, owner_email: str, folder_id: str | None) -> None:
    if folder_id is not None:
        folder = ctx.get(Folder, folder_id, field="folder_id")
        if folder.owner_email != owner_email and not folder.shared:
            raise RuleViolation(
                f"folder {folder.id} belongs to {folder.owner_email} and is not shared",
                field="folder_id",
                hint="use one of the owner's folders or a shared folder",
            )


def _guard_video(ctx: Ctx, new: Any, old: Any) -> None:
    if new.folder_id != old.folder_id:
        _check_folder(ctx, new.owner_email, new.folder_id)


def _guard_member(ctx: Ctx, new: Any, old: Any) -> None:
    if old.role == "admin" and new.role != "admin" and len(ctx.where(Member, role="admin")) <= 1:
        raise RuleViolation("the workspace needs at least one admin", field="role", hint="make another admin first")


members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mem",
    create=False,
    filters=("email", "seat", "role"),
    update=("seat", "role"),
    delete=False,
    guard_update=_guard_member,
)
folders = service.resource(
    Folder,
    name="folder",
    plural="folders",
    prefix="fld",
    create=("name", "owner_email", "shared"),
    filters=("owner_email", "shared"),
    search=("name",),
    update=("name", "shared"),
    guard_create=_guard_folder,
    guard_update=_guard_folder,
    guard_delete=_guard_folder_delete,
)
videos = service.resource(
    Video,
    name="video",
    plural="videos",
    prefix="vid",
    create=False,
    filters=("owner_email", "folder_id", "status", "privacy", "transcript_status", "comments_enabled"),
    search=("title", "description", "transcript"),
    update=("title", "description", "folder_id", "comments_enabled", "download_enabled"),
    delete=True,
    transitions={
        "archive": Transition("status", ("ready",), "archived", "archive the video"),
        "restore": Transition("status", ("archived",), "ready", "restore the video"),
    },
    guard_update=_guard_video,
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=False,
    filters=("video_id", "author_email", "parent_id"),
    search=("body",),
    delete=True,
)
reactions = service.resource(
    Reaction,
    name="reaction",
    plural="reactions",
    prefix="rct",
    create=False,
    get=False,
    filters=("video_id", "viewer_email", "emoji"),
    delete=True,
)
views = service.resource(
    View,
    name="view",
    plural="views",
    prefix="view",
    create=False,
    get=False,
    filters=("video_id", "viewer_email", "completed"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_add_member(ctx: Ctx) -> dict[str, Any] | None:
    taken = {m.email for m in ctx.where(Member)}
    for p in ctx.population.employees:
        if p.email not in taken:
            return {"email": p.email, "seat": "viewer"}
    return None


@service.tool(intent="add the member to the workspace", write=True, example=_example_add_member)
def add_member(ctx: Ctx, email: Email, seat: Seat = "creator_lite", role: MemberRole = "member") -> Member:
    """Add an employee to the workspace with a seat.

    Args:
        email: The employee's e-mail.
        seat: creator, creator_lite or viewer.
        role: admin or member.
    """
    _staff(ctx, email, "email")
    other = ctx.first(Member, email=email)
    if other is not None:
        raise Conflict(
            f"{email} is already member {other.id}", field="email", hint="change the seat with update_member"
        )
    return ctx.create(Member, email=email, seat=seat, role=role)


def _example_record(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Member, seat="creator")
    return None if m is None else {"owner_email": m.email, "title": "Q3 roadmap walkthrough", "duration_seconds": 245}


@service.tool(intent="record the video", write=True, example=_example_record)
def record_video(
    ctx: Ctx,
    owner_email: Email,
    title: Title,
    duration_seconds: Annotated[int, Field(ge=1, le=4 * 3600)],
    description: Text = "",
    folder_id: FolderId | None = None,
    privacy: Privacy = "workspace",
) -> Video:
    """Upload a new recording; it is processing until videomsg__complete_processing marks it ready.

    Args:
        owner_email: The recording member (creator or creator_lite seat).
        title: Its title.
        duration_seconds: Its length in seconds (creator_lite: at most 300).
        description: What it is about.
        folder_id: The owner's folder (or a shared one) to put it in.
        privacy: workspace or public (password and specific people are set with videomsg__share_video).
    """
    m = _member(ctx, owner_email, "owner_email")
    if m.seat == "viewer":
        raise RuleViolation(
            f"{owner_email} has a viewer seat and cannot record",
            field="owner_email",
            hint="an admin can upgrade the seat with videomsg__update_member",
        )
    if m.seat == "creator_lite":
        if duration_seconds > LITE_MAX_SECONDS:
            raise RuleViolation(
                f"creator_lite videos are at most {LITE_MAX_SECONDS} seconds",
                field="duration_seconds",
                hint="record a shorter video or upgrade to a creator seat",
            )
        live = [v for v in ctx.where(Video, owner_email=owner_email) if v.status != "archived"]
        if len(live) >= LITE_MAX_VIDEOS:
            raise RuleViolation(
                f"creator_lite members keep at most {LITE_MAX_VIDEOS} videos",
                field="owner_email",
                hint="archive or delete older videos, or upgrade to a creator seat",
            )
    if privacy in ("password", "specific_people"):
        raise RuleViolation(
            f"privacy {privacy} needs its settings", field="privacy", hint="record it, then use videomsg__share_video"
        )
    _check_folder(ctx, owner_email, folder_id)
    return ctx.create(
        Video,
        title=title,
        description=description,
        owner_email=owner_email,
        folder_id=folder_id,
        duration_seconds=duration_seconds,
        privacy=privacy,
    )


@service.tool(
    intent="finish processing the video",
    write=True,
    example=first_example(Video, "video_id", where={"status": "processing"}),
)
def complete_processing(ctx: Ctx, video_id: VideoId, succeeded: bool = True) -> Video:
    """Finish processing an uploaded video: it becomes ready (or failed when the encode broke).

    Args:
        video_id: The processing video.
        succeeded: False when the encode failed.
    """
    video = ctx.get(Video, video_id, field="video_id")
    if video.status != "processing":
        raise Conflict(f"video {video.id} is {video.status}, not processing", field="video_id", hint="nothing to do")
    return ctx.update(video, status="ready" if succeeded else "failed")


def _example_share(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Video, status="ready", privacy="workspace")
    if v is None:
        return None
    others = [p.email for p in ctx.population.employees if p.email != v.owner_email][:2]
    return {"video_id": v.id, "privacy": "specific_people", "shared_with": others}


@service.tool(intent="change who can watch the video", write=True, example=_example_share)
def share_video(
    ctx: Ctx,
    video_id: VideoId,
    privacy: Privacy,
    shared_with: list[Email] | None = None,
    password: Annotated[str, Field(min_length=4, max_length=64)] | None = None,
) -> Video:
    """Set a video's privacy: workspace, public, password (needs a password) or specific_people (needs e-mails).

    Args:
        video_id: The video (not failed).
        privacy: workspace, public, password or specific_people.
        shared_with: The people who may watch, for specific_people.
        password: The password, for password.
    """
    video = ctx.get(Video, video_id, field="video_id")
    if video.status == "failed":
        raise RuleViolation(f"video {video.id} failed to process", field="video_id", hint="record it again")
    people = tuple(dict.fromkeys(shared_with or ()))
    if privacy == "specific_people" and not people:
        raise RuleViolation("specific_people needs at least one e-mail", field="shared_with", hint="list viewers")
    if privacy != "specific_people" and people:
        raise RuleViolation("shared_with applies only to specific_people", field="shared_with", hint="omit shared_with")
    if privacy == "password" and not password:
        raise RuleViolation("password privacy needs a password", field="password", hint="give one of 4+ characters")
    if privacy != "password" and password:
        raise RuleViolation("a password applies only to password privacy", field="password", hint="omit it")
    return ctx.update(video, privacy=privacy, shared_with=people, password=password if privacy == "password" else None)


@service.tool(
    intent="transcribe the video",
    write=True,
    example=first_example(Video, "video_id", where={"status": "ready", "transcript_status": "none"}),
)
def generate_transcript(ctx: Ctx, video_id: VideoId, language: Language = "en") -> Video:
    """Start the transcript of a ready video; it is ready when videomsg__complete_transcript finishes it.

    Args:
        video_id: The ready video.
        language: The spoken language.
    """
    video = ctx.get(Video, video_id, field="video_id")
    if video.status != "ready":
        raise RuleViolation(f"video {video.id} is {video.status}", field="video_id", hint="wait until it is ready")
    if video.transcript_status != "none":
        raise Conflict(
            f"video {video.id} transcript is already {video.transcript_status}",
            field="video_id",
            hint="read it with videomsg__get_video",
        )
    return ctx.update(video, transcript_status="generating", transcript_language=language)


@service.tool(
    intent="store the finished transcript",
    write=True,
    example=first_example(
        Video, "video_id", where={"transcript_status": "generating"}, text="Hi team, quick update on the launch."
    ),
)
def complete_transcript(ctx: Ctx, video_id: VideoId, text: Text) -> Video:
    """Store the text of a transcript being generated; it becomes ready and searchable.

    Args:
        video_id: The video whose transcript is generating.
        text: The transcript.
    """
    video = ctx.get(Video, video_id, field="video_id")
    if video.transcript_status != "generating":
        raise RuleViolation(
            f"video {video.id} transcript is {video.transcript_status}, not generating",
            field="video_id",
            hint="start it with videomsg__generate_transcript",
        )
    if not text.strip():
        raise RuleViolation("the transcript is empty", field="text", hint="give the spoken text")
    return ctx.update(video, transcript_status="ready", transcript=text.strip())


def _open_for_feedback(ctx: Ctx, video: Video, email: str, at: int) -> None:
    _can_watch(ctx, video, email, video.password)
    if not video.comments_enabled:
        raise RuleViolation(
            f"comments are turned off on video {video.id}", field="video_id", hint="the owner can turn them on"
        )
    if at > video.duration_seconds:
        raise RuleViolation(
            f"the video is {video.duration_seconds} seconds long",
            field="timestamp_seconds",
            hint=f"pick a moment from 0 to {video.duration_seconds}",
        )


def _example_comment(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Video, status="ready", privacy="workspace", comments_enabled=True)
    return None if v is None else {"video_id": v.id, "author_email": v.owner_email, "body": "Thanks!"}


@service.tool(intent="comment on the video", write=True, example=_example_comment)
def add_comment(
    ctx: Ctx,
    video_id: VideoId,
    author_email: Email,
    body: Text,
    timestamp_seconds: Seconds = 0,
    parent_id: CommentId | None = None,
) -> Comment:
    """Comment on a ready video someone may watch, at a moment in it, or reply to a comment.

    Args:
        video_id: The video.
        author_email: Who comments (must be allowed to watch it).
        body: The comment.
        timestamp_seconds: The moment it refers to, within the video.
        parent_id: The comment it replies to, on the same video.
    """
    video = ctx.get(Video, video_id, field="video_id")
    _open_for_feedback(ctx, video, author_email, timestamp_seconds)
    if not body.strip():
        raise RuleViolation("the comment is empty", field="body", hint="write something")
    if parent_id is not None:
        parent = ctx.get(Comment, parent_id, field="parent_id")
        if parent.video_id != video.id:
            raise RuleViolation("the parent is on another video", field="parent_id", hint="reply on the same video")
    return ctx.create(
        Comment,
        video_id=video.id,
        author_email=author_email,
        body=body.strip(),
        timestamp_seconds=timestamp_seconds,
        parent_id=parent_id,
    )


def _example_react(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Video, status="ready", privacy="workspace", comments_enabled=True)
    return None if v is None else {"video_id": v.id, "viewer_email": v.owner_email, "emoji": "🙌"}


@service.tool(intent="react to the video", write=True, example=_example_react)
def add_reaction(
    ctx: Ctx, video_id: VideoId, viewer_email: Email, emoji: Emoji, timestamp_seconds: Seconds = 0
) -> Reaction:
    """React with an emoji at a moment of a video; the same emoji at the same moment counts once per viewer.

    Args:
        video_id: The video.
        viewer_email: Who reacts (must be allowed to watch it).
        emoji: One of the reaction emoji.
        timestamp_seconds: The moment, within the video.
    """
    video = ctx.get(Video, video_id, field="video_id")
    _open_for_feedback(ctx, video, viewer_email, timestamp_seconds)
    for r in ctx.where(Reaction, video_id=video.id, viewer_email=viewer_email, emoji=emoji):
        if r.timestamp_seconds == timestamp_seconds:
            raise Conflict(f"{viewer_email} already reacted {emoji} there", field="emoji", hint="react once")
    return ctx.create(
        Reaction, video_id=video.id, viewer_email=viewer_email, emoji=emoji, timestamp_seconds=timestamp_seconds
    )


def _example_view(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Video, status="ready", privacy="workspace")
    if v is None:
        return None
    viewer = next(p.email for p in ctx.population.employees if p.email != v.owner_email)
    return {"video_id": v.id, "viewer_email": viewer, "watched_seconds": v.duration_seconds}


@service.tool(intent="record a watch of the video", write=True, example=_example_view)
def record_view(
    ctx: Ctx, video_id: VideoId, viewer_email: Email, watched_seconds: Seconds, password: str | None = None
) -> View:
    """Record that someone allowed to watch a ready video watched part or all of it.

    Args:
        video_id: The video.
        viewer_email: Who watched.
        watched_seconds: How long they watched, at most its length.
        password: The password, for password-protected videos.
    """
    video = ctx.get(Video, video_id, field="video_id")
    _can_watch(ctx, video, viewer_email, password)
    if watched_seconds > video.duration_seconds:
        raise RuleViolation(
            f"the video is {video.duration_seconds} seconds long",
            field="watched_seconds",
            hint=f"give at most {video.duration_seconds}",
        )
    done = watched_seconds >= 0.95 * video.duration_seconds
    return ctx.create(
        View, video_id=video.id, viewer_email=viewer_email, watched_seconds=watched_seconds, completed=done
    )


@service.tool(intent="show the video's insights", example=first_example(Video, "video_id", where={"status": "ready"}))
def video_insights(ctx: Ctx, video_id: VideoId) -> Insights:
    """A video's views, unique viewers, completion rate, comments, reactions and who did not finish.

    Args:
        video_id: The video.
    """
    video = ctx.get(Video, video_id, field="video_id")
    seen = ctx.where(View, video_id=video.id)
    people = sorted({w.viewer_email for w in seen})
    finished = {w.viewer_email for w in seen if w.completed}
    counts: dict[str, int] = {}
    for r in ctx.where(Reaction, video_id=video.id):
        counts[r.emoji] = counts.get(r.emoji, 0) + 1
    return Insights(
        video_id=video.id,
        views=len(seen),
        unique_viewers=len(people),
        completion_rate=round(sum(w.completed for w in seen) / len(seen), 4) if seen else 0.0,
        average_watch_seconds=round(sum(w.watched_seconds for w in seen) / len(seen), 2) if seen else 0.0,
        comments=len(ctx.where(Comment, video_id=video.id)),
        reactions=counts,
        viewers_who_did_not_finish=[p for p in people if p not in finished],
    )


@service.tool(
    intent="duplicate the video",
    write=True,
    example=first_example(Video, "video_id", where={"status": "ready"}, fields={"owner_email": "owner_email"}),
)
def duplicate_video(ctx: Ctx, video_id: VideoId, owner_email: Email) -> Video:
    """Copy a ready or archived video into a member's library (a creator seat); comments and views stay behind.

    Args:
        video_id: The video to copy.
        owner_email: The creator who owns the copy.
    """
    video = ctx.get(Video, video_id, field="video_id")
    if video.status not in ("ready", "archived"):
        raise RuleViolation(f"video {video.id} is {video.status}", field="video_id", hint="copy a ready video")
    m = _member(ctx, owner_email, "owner_email")
    if m.seat != "creator":
        raise RuleViolation(
            f"{owner_email} has a {m.seat} seat", field="owner_email", hint="only creator seats can duplicate"
        )
    return ctx.create(
        Video,
        title=f"Copy of {video.title}"[:200],
        description=video.description,
        owner_email=owner_email,
        duration_seconds=video.duration_seconds,
        status="ready",
        transcript_status=video.transcript_status,
        transcript_language=video.transcript_language,
        transcript=video.transcript,
    )


# -- seed -------------------------------------------------------------------------------------

TOPICS: tuple[tuple[str, int, str], ...] = (
    ("Weekly product update", 412, "Here is what shipped this week and what is next."),
    ("Onboarding: how we run sprints", 615, "Welcome! This walks through our sprint rituals."),
    ("Bug repro: checkout button", 95, "Watch the button stop responding after the coupon is applied."),
    ("Design review feedback", 280, "Three notes on the new dashboard layout."),
    ("Quarterly numbers walkthrough", 900, "Revenue, churn and pipeline for the quarter."),
    ("Customer demo recording", 1320, "Full demo of the reporting module for a prospect."),
    ("Code review: payments refactor", 240, "Walking through the payments service changes."),
    ("Hello from the new office", 60, "A quick tour of the new space."),
    ("How to file expenses", 180, "Step-by-step expense submission."),
    ("Incident retro summary", 330, "What happened, why, and the follow-ups."),
)
FOLDERS = ("Team updates", "Demos", "How-tos")


@service.seeder
def seed(s: SeedContext) -> None:
    """Members with every seat, folders, videos in every status and privacy, comments, reactions and views."""
    staff = list(s.population.employees[:12])
    seats: tuple[Seat, ...] = ("creator", "creator", "creator", "creator_lite", "creator_lite", "viewer")
    for k, p in enumerate(staff):
        s.create(
            Member,
            email=p.email,
            seat=seats[k % len(seats)],
            role="admin" if k == 0 else "member",
            created_at=s.ago(days=300 - 10 * k),
        )
    creators = [p.email for k, p in enumerate(staff) if seats[k % len(seats)] != "viewer"]
    made_folders = [
        s.create(Folder, name=name, owner_email=creators[k], shared=k == 0, created_at=s.ago(days=200))
        for k, name in enumerate(FOLDERS)
    ]
    s.create(Folder, name="Drafts", owner_email=creators[0], created_at=s.ago(days=20))
    statuses: tuple[VideoStatus, ...] = (
        "ready",
        "ready",
        "ready",
        "archived",
        "ready",
        "processing",
        "ready",
        "failed",
    )
    privacies: tuple[Privacy, ...] = ("workspace", "workspace", "public", "workspace", "specific_people", "password")
    for k, (title, secs, desc) in enumerate(TOPICS):
        owner = creators[k % len(creators)]
        seat = seats[staff.index(next(p for p in staff if p.email == owner)) % len(seats)]
        if seat == "creator_lite":
            secs = min(secs, LITE_MAX_SECONDS)
        status = statuses[k % len(statuses)]
        privacy = privacies[k % len(privacies)]
        folder = next((f for f in made_folders if f.owner_email == owner), None)
        ready = status in ("ready", "archived")
        video = s.create(
            Video,
            title=title,
            description=desc,
            owner_email=owner,
            folder_id=folder.id if folder else None,
            duration_seconds=secs,
            status=status,
            privacy=privacy,
            shared_with=tuple(p.email for p in staff[6:8]) if privacy == "specific_people" else (),
            password="launch2024" if privacy == "password" else None,
            comments_enabled=k != 2,
            transcript_status="ready" if ready and k % 3 == 0 else ("generating" if ready and k % 3 == 1 else "none"),
            transcript=f"{desc} Let me know what you think." if ready and k % 3 == 0 else "",
            created_at=s.ago(days=60 - 5 * k),
            updated_at=s.ago(days=60 - 5 * k),
        )
        if status != "ready":
            continue
        watchers = [p.email for p in staff if p.email != owner][: 3 + k % 4]
        if privacy == "specific_people":
            watchers = list(video.shared_with)
        for j, who in enumerate(watchers):
            watched = secs if j % 3 != 2 else secs // 3
            s.create(
                View,
                video_id=video.id,
                viewer_email=who,
                watched_seconds=watched,
                completed=watched >= 0.95 * secs,
                viewed_at=s.ago(days=50 - 5 * k, hours=j),
            )
            if j == 0 and video.comments_enabled:
                s.create(
                    Comment,
                    video_id=video.id,
                    author_email=who,
                    body="Great walkthrough, one question at this point.",
                    timestamp_seconds=secs // 2,
                    created_at=s.ago(days=49 - 5 * k),
                )
            if j == 1 and video.comments_enabled:
                s.create(
                    Reaction,
                    video_id=video.id,
                    viewer_email=who,
                    emoji="👍",
                    timestamp_seconds=min(10, secs),
                    created_at=s.ago(days=49 - 5 * k),
                )
