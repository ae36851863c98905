"""Stridelog: athletes' activities, gear, segments and efforts, clubs, kudos and comments.

Modeled on the Strava API v3 (athletes and their stats, activities with sport
type, distance, moving and elapsed time, elevation gain and visibility, gear
with accumulated distance and a retired flag, segments and segment efforts with
personal-record ranks and leaderboards, clubs with members and join requests,
kudos and comments). Rules the API enforces: moving time never exceeds elapsed
time and an activity cannot start in the future; gear belongs to its athlete,
shoes go on foot activities and bikes on rides, retired gear takes no new
activities, and an activity's distance counts on its gear (moved with it when
the gear changes, taken off when it is deleted); a segment effort needs an
activity of the segment's sport that is at least as long as the segment, and
no faster than the activity itself; personal-record ranks 1–3 follow each
athlete's best times on a segment; leaderboards show only efforts of activities
visible to everyone; kudos and comments go only on activities the athlete may
see (only_me: nobody else; followers_only: followers), never kudos on one's own
activity and never twice; only a comment's author or the activity's owner
deletes it; a private club's join request waits for an admin's approval; a
club's last admin cannot leave it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Country, DateTime, Email, FirstName, IdOf, LastName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "fittrack",
    title="Stridelog",
    category="fitness",
    modeled_on="Strava API v3 (athletes and stats, activities, gear, segments and segment efforts, "
    "segment leaderboards, clubs and members, kudos, comments)",
    description="Fitness tracking: athletes log runs, rides, swims, walks and hikes with distance, moving time "
    "and elevation, on gear whose distance adds up until it is retired; segments with efforts, personal "
    "records and leaderboards; clubs with members and join requests; kudos and comments under visibility rules.",
)

AthleteId = Annotated[str, IdOf("fittrack.athlete")]
ActivityId = Annotated[str, IdOf("fittrack.activity")]
GearId = Annotated[str, IdOf("fittrack.gear")]
SegmentId = Annotated[str, IdOf("fittrack.segment")]
EffortId = Annotated[str, IdOf("fittrack.segment_effort")]
ClubId = Annotated[str, IdOf("fittrack.club")]
MembershipId = Annotated[str, IdOf("fittrack.club_membership")]
KudosId = Annotated[str, IdOf("fittrack.kudos")]
CommentId = Annotated[str, IdOf("fittrack.comment")]

CommentText = Annotated[str, StringConstraints(min_length=1, max_length=1000, strip_whitespace=True)]
"""A comment, 1 to 1,000 characters."""

SportType = Literal["Run", "Ride", "Swim", "Walk", "Hike"]
Visibility = Literal["everyone", "followers_only", "only_me"]
GearKind = Literal["shoes", "bike"]
GearStatus = Literal["active", "retired"]
MemberStatus = Literal["pending", "active"]
ClubRole = Literal["member", "admin"]

FOOT: tuple[str, ...] = ("Run", "Walk", "Hike")
GEAR_FOR: dict[str, GearKind] = {"Run": "shoes", "Walk": "shoes", "Hike": "shoes", "Ride": "bike"}
"""Which kind of gear an activity of each sport takes (swims take none)."""


class Athlete(Created):
    """An athlete's profile."""

    id: AthleteId
    email: Email
    """The account's e-mail."""
    firstname: FirstName
    """First name."""
    lastname: LastName
    """Last name."""
    city: City
    """Home city."""
    country: Country
    """Home country."""
    premium: bool = False
    """Whether they subscribe (segment leaderboards filtered by more than overall need it)."""
    follower_ids: tuple[AthleteId, ...] = ()
    """Athletes who follow them (they see followers_only activities)."""


class Gear(Created):
    """A pair of shoes or a bike an athlete uses."""

    id: GearId
    athlete_id: AthleteId
    """The owner."""
    name: Title
    """The gear's nickname, e.g. 'Blue racers'."""
    kind: GearKind
    """shoes or bike."""
    brand_name: str = ""
    """The maker."""
    distance: float = Field(default=0.0, ge=0)
    """Meters covered by every activity on it."""
    status: GearStatus = "active"
    """active, or retired (takes no new activities)."""


class Activity(Created):
    """A recorded workout."""

    id: ActivityId
    athlete_id: AthleteId
    """Who did it."""
    name: Title
    """Its title."""
    sport_type: SportType
    """Run, Ride, Swim, Walk or Hike."""
    start_date: DateTime
    """When it started."""
    distance: float = Field(ge=0)
    """Meters."""
    moving_time: int = Field(ge=0)
    """Seconds in motion."""
    elapsed_time: int = Field(ge=1)
    """Seconds from start to finish, stops included."""
    total_elevation_gain: float = Field(default=0.0, ge=0)
    """Meters climbed."""
    gear_id: GearId | None = None
    """The shoes or bike used."""
    visibility: Visibility = "everyone"
    """Who can see it: everyone, followers_only or only_me."""
    description: Text = ""
    """Notes."""
    kudos_count: int = 0
    """Kudos received."""
    comment_count: int = 0
    """Comments received."""


class Segment(Record):
    """A stretch of road or trail whose efforts are compared."""

    id: SegmentId
    name: Title
    """The segment's name."""
    activity_type: Literal["Run", "Ride"]
    """The sport it is ranked for."""
    distance: float = Field(gt=0)
    """Meters."""
    average_grade: float = 0.0
    """Average grade in percent."""
    city: City
    """Where it is."""
    effort_count: int = 0
    """Efforts recorded on it."""


class SegmentEffort(Record):
    """An athlete's time on a segment during an activity."""

    id: EffortId
    segment_id: SegmentId
    """The segment."""
    activity_id: ActivityId
    """The activity it was part of."""
    athlete_id: AthleteId
    """The athlete."""
    elapsed_time: int = Field(ge=1)
    """Seconds on the segment."""
    start_date: DateTime
    """When the effort started."""
    pr_rank: int | None = None
    """1, 2 or 3 when it is among the athlete's three best times on the segment."""


class Club(Created):
    """A club athletes join."""

    id: ClubId
    name: Title
    """The club's name."""
    sport_type: Literal["running", "cycling", "triathlon", "other"] = "running"
    """Its sport."""
    private: bool = False
    """Whether joining needs an admin's approval."""
    city: City
    """Where it meets."""
    member_count: int = 0
    """Active members."""


class ClubMembership(Record):
    """An athlete's membership of (or request to join) a club."""

    id: MembershipId
    club_id: ClubId
    """The club."""
    athlete_id: AthleteId
    """The athlete."""
    role: ClubRole = "member"
    """member or admin."""
    status: MemberStatus = "active"
    """pending (a join request to a private club) or active."""
    joined_at: DateTime
    """When they asked to join."""


class Kudos(Record):
    """A kudos an athlete gave an activity."""

    id: KudosId
    activity_id: ActivityId
    """The activity."""
    athlete_id: AthleteId
    """Who gave it."""
    given_at: DateTime
    """When."""


class Comment(Record):
    """A comment on an activity."""

    id: CommentId
    activity_id: ActivityId
    """The activity."""
    athlete_id: AthleteId
    """Its author."""
    text: CommentText
    """What they wrote."""
    created_at: DateTime
    """When."""


# -- helpers ----------------------------------------------------------------------------------


def _gear_delta(ctx: Ctx, gear_id: str | None, meters: float) -> None:
    if gear_id is None:
        return
    gear = ctx.get(Gear, gear_id)
    ctx.update(gear, distance=round(max(0.0, gear.distance + meters), 1))


def _check_activity(ctx: Ctx, new: Activity, old: Activity | None) -> None:
    if new.moving_time > new.elapsed_time:
        raise RuleViolation(
            f"moving time {new.moving_time}s exceeds elapsed time {new.elapsed_time}s",
            field="moving_time",
            hint="moving time counts only the time in motion; it is at most the elapsed time",
        )
    if new.start_date > ctx.now():
        raise RuleViolation("an activity cannot start in the future", field="start_date", hint="use a past time")
    if new.gear_id is not None and (old is None or new.gear_id != old.gear_id or new.sport_type != old.sport_type):
        gear = ctx.get(Gear, new.gear_id, field="gear_id")
        if gear.athlete_id != new.athlete_id:
            raise RuleViolation(
                f"gear {gear.name!r} belongs to another athlete", field="gear_id", hint="use the athlete's own gear"
            )
        want = GEAR_FOR.get(new.sport_type)
        if want != gear.kind:
            raise RuleViolation(
                f"a {new.sport_type} takes {want or 'no gear'}, not {gear.kind} ({gear.name!r})",
                field="gear_id",
                hint="shoes go on runs, walks and hikes; bikes on rides",
            )
        if gear.status == "retired" and (old is None or new.gear_id != old.gear_id):
            raise RuleViolation(
                f"gear {gear.name!r} is retired", field="gear_id", hint="reactivate it first, or pick other gear"
            )


def _guard_activity(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        _gear_delta(ctx, old.gear_id, -old.distance)
        touched = {e.segment_id for e in ctx.where(SegmentEffort, activity_id=old.id)}
        for rec in (
            ctx.where(SegmentEffort, activity_id=old.id)
            + ctx.where(Kudos, activity_id=old.id)
            + ctx.where(Comment, activity_id=old.id)
        ):
            ctx.delete(rec)
        for seg_id in sorted(touched):
            _rerank(ctx, seg_id, old.athlete_id)
        return
    _check_activity(ctx, new, old)
    if new.gear_id != old.gear_id or new.distance != old.distance:
        _gear_delta(ctx, old.gear_id, -old.distance)
        _gear_delta(ctx, new.gear_id, new.distance)


def _guard_membership(ctx: Ctx, new: Any, old: Any) -> None:
    club = ctx.get(Club, new.club_id)
    ctx.update(club, member_count=club.member_count + 1)


def _rerank(ctx: Ctx, segment_id: str, athlete_id: str) -> None:
    efforts = sorted(
        ctx.where(SegmentEffort, segment_id=segment_id, athlete_id=athlete_id), key=lambda e: (e.elapsed_time, e.id)
    )
    for n, effort in enumerate(efforts):
        rank = n + 1 if n < 3 else None
        if effort.pr_rank != rank:
            ctx.update(effort, pr_rank=rank)
    seg = ctx.get(Segment, segment_id)
    ctx.update(seg, effort_count=len(ctx.where(SegmentEffort, segment_id=segment_id)))


def _can_see(ctx: Ctx, activity: Activity, viewer: Athlete) -> bool:
    if activity.athlete_id == viewer.id or activity.visibility == "everyone":
        return True
    if activity.visibility == "only_me":
        return False
    return viewer.id in ctx.get(Athlete, activity.athlete_id).follower_ids


def _see(ctx: Ctx, activity: Activity, viewer: Athlete) -> None:
    if not _can_see(ctx, activity, viewer):
        raise RuleViolation(
            f"{viewer.firstname} {viewer.lastname} cannot see activity {activity.name!r} ({activity.visibility})",
            field="activity_id",
            hint="only_me activities are seen by their owner alone; followers_only ones by followers",
        )


athletes = service.resource(
    Athlete,
    name="athlete",
    plural="athletes",
    prefix="ath",
    create=False,
    filters=("email", "country", "city", "premium"),
    search=("firstname", "lastname"),
    delete=False,
)
gear = service.resource(
    Gear,
    name="gear",
    plural="gear",
    prefix="g",
    create=False,
    get=False,
    filters=("athlete_id", "kind", "status"),
    search=("name", "brand_name"),
    update=("name",),
    delete=False,
    transitions={
        "retire": Transition(
            "status", ("active",), "retired", "retire the worn-out gear",
            description="Retire gear: it keeps its distance but takes no new activities; allowed when active.",
        ),
        "reactivate": Transition(
            "status", ("retired",), "active", "put the gear back in use",
            description="Bring retired gear back into use; allowed when retired.",
        ),
    },
)  # fmt: skip
activities = service.resource(
    Activity,
    name="activity",
    plural="activities",
    prefix="act",
    create=False,
    filters=("athlete_id", "sport_type", "gear_id", "visibility"),
    search=("name", "description"),
    update=("name", "description", "sport_type", "gear_id", "visibility", "distance", "moving_time", "elapsed_time"),
    guard_update=_guard_activity,
    guard_delete=_guard_activity,
)
segments = service.resource(
    Segment,
    name="segment",
    plural="segments",
    prefix="seg",
    create=False,
    get=False,
    filters=("activity_type", "city"),
    search=("name",),
    delete=False,
)
efforts = service.resource(
    SegmentEffort,
    name="segment_effort",
    plural="segment_efforts",
    prefix="eff",
    create=False,
    get=False,
    filters=("segment_id", "activity_id", "athlete_id", "pr_rank"),
    delete=False,
    title="segment effort",
)
clubs = service.resource(
    Club,
    name="club",
    plural="clubs",
    prefix="club",
    create=False,
    get=False,
    filters=("sport_type", "private", "city"),
    search=("name",),
    delete=False,
)
memberships = service.resource(
    ClubMembership,
    name="club_membership",
    plural="club_memberships",
    prefix="cm",
    create=False,
    get=False,
    filters=("club_id", "athlete_id", "status", "role"),
    delete=False,
    transitions={
        "approve": Transition(
            "status", ("pending",), "active", "approve the request to join the club",
            description="Approve a pending request to join a private club; the athlete becomes an active member.",
        )
    },
    guard_update=_guard_membership,
    title="club membership",
)  # fmt: skip
kudos = service.resource(
    Kudos, name="kudos", plural="kudos_list", prefix="kd", create=False, get=False, filters=("activity_id", "athlete_id"),
    delete=False,
)  # fmt: skip
comments = service.resource(
    Comment, name="comment", plural="comments", prefix="cmt", create=False, get=False,
    filters=("activity_id", "athlete_id"), search=("text",), delete=False,
)  # fmt: skip


# -- examples ---------------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    for g in ctx.where(Gear, kind="shoes", status="active"):
        return {
            "athlete_id": g.athlete_id,
            "name": "Lunch run",
            "sport_type": "Run",
            "start_date": (ctx.now() - dt.timedelta(hours=3)).isoformat(),
            "distance": 8000.0,
            "moving_time": 2700,
            "elapsed_time": 2900,
            "gear_id": g.id,
        }
    return None


def _example_kudos(ctx: Ctx) -> dict[str, Any] | None:
    for act in ctx.where(Activity, visibility="everyone"):
        for a in ctx.scan(Athlete):
            if a.id != act.athlete_id and ctx.first(Kudos, activity_id=act.id, athlete_id=a.id) is None:
                return {"activity_id": act.id, "athlete_id": a.id}
    return None


def _example_effort(ctx: Ctx) -> dict[str, Any] | None:
    for seg in ctx.scan(Segment):
        for act in ctx.where(Activity, sport_type=seg.activity_type):
            if act.distance >= seg.distance and ctx.first(SegmentEffort, activity_id=act.id, segment_id=seg.id) is None:
                return {"activity_id": act.id, "segment_id": seg.id, "elapsed_time": act.elapsed_time}
    return None


def _example_join(ctx: Ctx) -> dict[str, Any] | None:
    for club in ctx.scan(Club):
        for a in ctx.scan(Athlete):
            if ctx.first(ClubMembership, club_id=club.id, athlete_id=a.id) is None:
                return {"club_id": club.id, "athlete_id": a.id}
    return None


def _example_leave(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.where(ClubMembership, role="member"):
        return {"club_id": m.club_id, "athlete_id": m.athlete_id}
    return None


# -- activities -------------------------------------------------------------------------------


@service.tool(intent="log the athlete's workout", write=True, example=_example_create)
def create_activity(
    ctx: Ctx,
    athlete_id: AthleteId,
    name: Title,
    sport_type: SportType,
    start_date: DateTime,
    distance: float,
    moving_time: int,
    elapsed_time: int,
    total_elevation_gain: float = 0.0,
    gear_id: GearId | None = None,
    visibility: Visibility = "everyone",
    description: Text = "",
) -> Activity:
    """Record a manual activity; its distance adds to the gear's.

    Args:
        athlete_id: Who did it.
        name: Its title.
        sport_type: Run, Ride, Swim, Walk or Hike.
        start_date: When it started (not in the future).
        distance: Meters (0 or more).
        moving_time: Seconds in motion (at most elapsed_time).
        elapsed_time: Seconds from start to finish (1 or more).
        total_elevation_gain: Meters climbed.
        gear_id: The athlete's active shoes (foot sports) or bike (rides).
        visibility: everyone, followers_only or only_me.
        description: Notes.
    """
    athlete = ctx.get(Athlete, athlete_id, field="athlete_id")
    if distance < 0 or moving_time < 0 or elapsed_time < 1 or total_elevation_gain < 0:
        raise RuleViolation(
            "distance, times and elevation cannot be negative, and elapsed time is at least 1 second",
            field="elapsed_time" if elapsed_time < 1 else "distance",
            hint="give meters and seconds",
        )
    act = ctx.create(
        Activity,
        athlete_id=athlete.id,
        name=name,
        sport_type=sport_type,
        start_date=start_date,
        distance=distance,
        moving_time=moving_time,
        elapsed_time=elapsed_time,
        total_elevation_gain=total_elevation_gain,
        gear_id=gear_id,
        visibility=visibility,
        description=description,
    )
    _check_activity(ctx, act, None)
    _gear_delta(ctx, gear_id, distance)
    return act


class SportTotals(BaseModel):
    """An athlete's totals in one sport."""

    sport_type: SportType = Field(description="The sport.")
    count: int = Field(description="Activities.")
    distance: float = Field(description="Meters.")
    moving_time: int = Field(description="Seconds in motion.")
    elevation_gain: float = Field(description="Meters climbed.")


class AthleteStats(BaseModel):
    """An athlete's totals, overall and this year."""

    athlete_id: AthleteId = Field(description="The athlete.")
    all_time: list[SportTotals] = Field(description="Totals per sport, every activity.")
    year_to_date: list[SportTotals] = Field(description="Totals per sport since 1 January.")
    biggest_distance: float = Field(description="The longest activity's distance in meters.")


def _totals(acts: list[Activity]) -> list[SportTotals]:
    out = []
    sports: tuple[SportType, ...] = ("Run", "Ride", "Swim", "Walk", "Hike")
    for sport in sports:
        mine = [a for a in acts if a.sport_type == sport]
        if mine:
            out.append(
                SportTotals(
                    sport_type=sport,
                    count=len(mine),
                    distance=round(sum(a.distance for a in mine), 1),
                    moving_time=sum(a.moving_time for a in mine),
                    elevation_gain=round(sum(a.total_elevation_gain for a in mine), 1),
                )
            )
    return out


@service.tool(intent="total up the athlete's training", example=first_example(Athlete, "athlete_id"))
def get_athlete_stats(ctx: Ctx, athlete_id: AthleteId) -> AthleteStats:
    """Distance, time, elevation and count per sport, all time and this year.

    Args:
        athlete_id: The athlete.
    """
    athlete = ctx.get(Athlete, athlete_id, field="athlete_id")
    acts = ctx.where(Activity, athlete_id=athlete.id)
    year = ctx.now().year
    return AthleteStats(
        athlete_id=athlete.id,
        all_time=_totals(acts),
        year_to_date=_totals([a for a in acts if a.start_date.year == year]),
        biggest_distance=max((a.distance for a in acts), default=0.0),
    )


# -- segments ---------------------------------------------------------------------------------


@service.tool(intent="record the athlete's time on the segment", write=True, example=_example_effort)
def record_segment_effort(ctx: Ctx, activity_id: ActivityId, segment_id: SegmentId, elapsed_time: int) -> SegmentEffort:
    """Match an activity to a segment with the time it took; personal-record ranks are updated.

    Args:
        activity_id: The activity (of the segment's sport, at least as long as the segment).
        segment_id: The segment.
        elapsed_time: Seconds on the segment (1 up to the activity's elapsed time).
    """
    act = ctx.get(Activity, activity_id, field="activity_id")
    seg = ctx.get(Segment, segment_id, field="segment_id")
    if act.sport_type != seg.activity_type:
        raise RuleViolation(
            f"segment {seg.name!r} is ranked for {seg.activity_type}, the activity is a {act.sport_type}",
            field="segment_id",
            hint="pick a segment of the activity's sport",
        )
    if act.distance < seg.distance:
        raise RuleViolation(
            f"the activity covers {act.distance:.0f} m, the segment is {seg.distance:.0f} m",
            field="segment_id",
            hint="only an activity that covers the whole segment has an effort on it",
        )
    if not 1 <= elapsed_time <= act.elapsed_time:
        raise RuleViolation(
            f"an effort takes 1 to {act.elapsed_time} seconds within this activity",
            field="elapsed_time",
            hint="the effort is part of the activity",
        )
    if ctx.first(SegmentEffort, activity_id=act.id, segment_id=seg.id):
        raise Conflict(
            f"activity {act.name!r} already has an effort on {seg.name!r}",
            field="segment_id",
            hint="list the activity's efforts",
        )
    effort = ctx.create(
        SegmentEffort,
        segment_id=seg.id,
        activity_id=act.id,
        athlete_id=act.athlete_id,
        elapsed_time=elapsed_time,
        start_date=act.start_date,
    )
    _rerank(ctx, seg.id, act.athlete_id)
    return ctx.get(SegmentEffort, effort.id)


class LeaderboardEntry(BaseModel):
    """One athlete's best time on a segment."""

    rank: int = Field(description="1 for the fastest.")
    athlete_id: AthleteId = Field(description="The athlete.")
    athlete_name: str = Field(description="Their name.")
    elapsed_time: int = Field(description="Their best time in seconds.")
    effort_id: EffortId = Field(description="The effort.")


@service.tool(intent="show the segment's leaderboard", example=first_example(Segment, "segment_id"))
def get_segment_leaderboard(ctx: Ctx, segment_id: SegmentId, club_id: ClubId | None = None) -> list[LeaderboardEntry]:
    """Each athlete's best time on a segment, fastest first, from activities visible to everyone.

    Args:
        segment_id: The segment.
        club_id: Only active members of this club.
    """
    seg = ctx.get(Segment, segment_id, field="segment_id")
    members = None
    if club_id is not None:
        club = ctx.get(Club, club_id, field="club_id")
        members = {m.athlete_id for m in ctx.where(ClubMembership, club_id=club.id, status="active")}
    best: dict[str, SegmentEffort] = {}
    for e in ctx.where(SegmentEffort, segment_id=seg.id):
        if ctx.get(Activity, e.activity_id).visibility != "everyone":
            continue
        if members is not None and e.athlete_id not in members:
            continue
        cur = best.get(e.athlete_id)
        if cur is None or (e.elapsed_time, e.id) < (cur.elapsed_time, cur.id):
            best[e.athlete_id] = e
    out = []
    for n, e in enumerate(sorted(best.values(), key=lambda e: (e.elapsed_time, e.id))):
        a = ctx.get(Athlete, e.athlete_id)
        out.append(
            LeaderboardEntry(
                rank=n + 1,
                athlete_id=a.id,
                athlete_name=f"{a.firstname} {a.lastname}",
                elapsed_time=e.elapsed_time,
                effort_id=e.id,
            )
        )
    return out


# -- social -----------------------------------------------------------------------------------


@service.tool(intent="give the activity kudos", write=True, example=_example_kudos)
def give_kudos(ctx: Ctx, activity_id: ActivityId, athlete_id: AthleteId) -> Kudos:
    """Give kudos to another athlete's activity the giver can see, once.

    Args:
        activity_id: The activity.
        athlete_id: Who gives it.
    """
    act = ctx.get(Activity, activity_id, field="activity_id")
    giver = ctx.get(Athlete, athlete_id, field="athlete_id")
    if act.athlete_id == giver.id:
        raise RuleViolation(
            "athletes cannot give kudos to their own activity",
            field="athlete_id",
            hint="give kudos as another athlete who can see the activity",
        )
    _see(ctx, act, giver)
    if ctx.first(Kudos, activity_id=act.id, athlete_id=giver.id):
        raise Conflict(
            f"{giver.firstname} already gave kudos to {act.name!r}", field="athlete_id", hint="kudos are given once"
        )
    rec = ctx.create(Kudos, activity_id=act.id, athlete_id=giver.id, given_at=ctx.now())
    ctx.update(act, kudos_count=act.kudos_count + 1)
    return rec


@service.tool(intent="comment on the activity", write=True, example=first_example(
    Activity, "activity_id", where={"visibility": "everyone"}, fields={"athlete_id": "athlete_id"}, text="Great pace!",
))  # fmt: skip
def comment_on_activity(ctx: Ctx, activity_id: ActivityId, athlete_id: AthleteId, text: CommentText) -> Comment:
    """Comment on an activity the author can see.

    Args:
        activity_id: The activity.
        athlete_id: The comment's author.
        text: The comment.
    """
    act = ctx.get(Activity, activity_id, field="activity_id")
    author = ctx.get(Athlete, athlete_id, field="athlete_id")
    _see(ctx, act, author)
    rec = ctx.create(Comment, activity_id=act.id, athlete_id=author.id, text=text, created_at=ctx.now())
    ctx.update(act, comment_count=act.comment_count + 1)
    return rec


@service.tool(intent="delete the comment", write=True, destructive=True, example=first_example(
    Comment, "comment_id", fields={"athlete_id": "athlete_id"},
))  # fmt: skip
def delete_comment(ctx: Ctx, comment_id: CommentId, athlete_id: AthleteId) -> Comment:
    """Delete a comment, as its author or as the activity's owner.

    Args:
        comment_id: The comment.
        athlete_id: Who deletes it.
    """
    rec = ctx.get(Comment, comment_id, field="comment_id")
    act = ctx.get(Activity, rec.activity_id)
    if athlete_id not in (rec.athlete_id, act.athlete_id):
        raise RuleViolation(
            "only the comment's author or the activity's owner can delete it",
            field="athlete_id",
            hint="act as the author or the owner",
        )
    ctx.delete(rec)
    ctx.update(act, comment_count=max(0, act.comment_count - 1))
    return rec


# -- clubs ------------------------------------------------------------------------------------


@service.tool(intent="join the club", write=True, example=_example_join)
def join_club(ctx: Ctx, club_id: ClubId, athlete_id: AthleteId) -> ClubMembership:
    """Join a club: at once for a public club, as a pending request for a private one.

    Args:
        club_id: The club.
        athlete_id: The athlete.
    """
    club = ctx.get(Club, club_id, field="club_id")
    athlete = ctx.get(Athlete, athlete_id, field="athlete_id")
    have = ctx.first(ClubMembership, club_id=club.id, athlete_id=athlete.id)
    if have is not None:
        raise Conflict(
            f"{athlete.firstname} is already {'a member of' if have.status == 'active' else 'waiting to join'} "
            f"{club.name}",
            field="athlete_id",
            hint="list the club's memberships",
        )
    status: MemberStatus = "pending" if club.private else "active"
    rec = ctx.create(ClubMembership, club_id=club.id, athlete_id=athlete.id, status=status, joined_at=ctx.now())
    if status == "active":
        ctx.update(club, member_count=club.member_count + 1)
    return rec


@service.tool(intent="leave the club", write=True, destructive=True, example=_example_leave)
def leave_club(ctx: Ctx, club_id: ClubId, athlete_id: AthleteId) -> ClubMembership:
    """Leave a club, or withdraw a pending request (a club's last admin cannot leave).

    Args:
        club_id: The club.
        athlete_id: The athlete.
    """
    club = ctx.get(Club, club_id, field="club_id")
    rec = ctx.first(ClubMembership, club_id=club.id, athlete_id=athlete_id)
    if rec is None:
        raise NotFound(f"the athlete is not in {club.name}", field="athlete_id", hint="list the club's memberships")
    if rec.role == "admin" and len(ctx.where(ClubMembership, club_id=club.id, role="admin")) == 1:
        raise RuleViolation(
            f"the last admin cannot leave {club.name}",
            field="athlete_id",
            hint="make another member an admin first",
        )
    ctx.delete(rec)
    if rec.status == "active":
        ctx.update(club, member_count=max(0, club.member_count - 1))
    return rec


# -- seed -------------------------------------------------------------------------------------

SHOES = (("Daily trainers", "Brooks"), ("Race flats", "Saucony"), ("Trail shoes", "Hoka"))
BIKES = (("Road bike", "Canyon"), ("Commuter", "Trek"))
NAMES = {
    "Run": ("Morning run", "Tempo run", "Long run", "Easy recovery"),
    "Ride": ("Evening ride", "Hill repeats", "Weekend century"),
    "Swim": ("Pool swim",),
    "Walk": ("Lunch walk",),
    "Hike": ("Ridge hike",),
}
SPEED = {"Run": 3.0, "Ride": 7.5, "Swim": 0.9, "Walk": 1.4, "Hike": 1.1}
"""Meters per second, for plausible times."""
PLAN: tuple[SportType, ...] = ("Run", "Ride", "Run", "Walk", "Run", "Swim", "Ride", "Hike")


@service.seeder
def seed(s: SeedContext) -> None:
    """Ten athletes drawn from the population with gear, activities, segments and efforts, clubs, kudos, comments."""
    athletes_ = _seed_athletes(s)
    segs = _seed_segments(s, athletes_[0].city)
    acts = []
    for k, a in enumerate(athletes_):
        acts += _seed_activities(s, a, k)
    for seg in segs:
        for i, act in enumerate(acts):
            if i % 3 != 2 and act.sport_type == seg.activity_type and act.distance >= seg.distance:
                speed = SPEED[act.sport_type] * (0.9 + s.rng.random() * 0.3)
                s.create(
                    SegmentEffort, segment_id=seg.id, activity_id=act.id, athlete_id=act.athlete_id,
                    elapsed_time=max(1, int(seg.distance / speed)), start_date=act.start_date,
                )  # fmt: skip
        efforts_ = [e for e in s.records(SegmentEffort) if e.segment_id == seg.id]
        for ath in {e.athlete_id for e in efforts_}:
            mine = sorted((e for e in efforts_ if e.athlete_id == ath), key=lambda e: (e.elapsed_time, e.id))
            for n, e in enumerate(mine[:3]):
                s.update(e, pr_rank=n + 1)
        s.update(seg, effort_count=len(efforts_))
    _seed_social(s, athletes_, acts)
    _seed_clubs(s, athletes_)


def _seed_athletes(s: SeedContext) -> list[Athlete]:
    people = list(s.population.consumers[:7]) + list(s.population.employees[:3])
    out = []
    for k, p in enumerate(people):
        out.append(
            s.create(
                Athlete, email=p.email, firstname=p.first_name, lastname=p.last_name, city=p.place.city,
                country=p.place.country, premium=k % 3 == 0, created_at=s.now - dt.timedelta(days=900 - 40 * k),
            )
        )  # fmt: skip
    for k, a in enumerate(out):
        followers = tuple(o.id for j, o in enumerate(out) if j != k and (j + k) % 3 == 0)
        out[k] = s.update(a, follower_ids=followers)
    return out


def _seed_segments(s: SeedContext, city: str) -> list[Segment]:
    plan: tuple[tuple[str, Literal["Run", "Ride"], float, float], ...] = (
        ("Harbor sprint", "Run", 400.0, 0.5),
        ("Park loop", "Run", 2500.0, 1.2),
        ("Col climb", "Ride", 6200.0, 5.8),
    )
    return [s.create(Segment, name=n, activity_type=t, distance=d, average_grade=g, city=city) for n, t, d, g in plan]


def _seed_activities(s: SeedContext, a: Athlete, k: int) -> list[Activity]:
    kit: dict[str, list[Gear]] = {"shoes": [], "bike": []}
    for j, (name, brand) in enumerate(SHOES[: 2 + k % 2]):
        kit["shoes"].append(
            s.create(Gear, athlete_id=a.id, name=name, kind="shoes", brand_name=brand,
                     status="retired" if j == 2 else "active", created_at=a.created_at)
        )  # fmt: skip
    if k % 2 == 0:
        for name, brand in BIKES[: 1 + k % 4 // 2]:
            kit["bike"].append(s.create(Gear, athlete_id=a.id, name=name, kind="bike", brand_name=brand))
    out = []
    totals: dict[str, float] = {}
    for n in range(6):
        sport = PLAN[(n + k) % len(PLAN)]
        if sport == "Ride" and not kit["bike"]:
            sport = "Run"
        kind = GEAR_FOR.get(sport)
        pool = kit[kind] if kind else []
        g = pool[n % len(pool)] if pool else None
        distance = round(SPEED[sport] * s.rng.randint(1200, 5400), 1)
        moving = int(distance / SPEED[sport])
        when = s.now - dt.timedelta(days=3 + 9 * n + k, hours=k % 5)
        out.append(
            s.create(
                Activity, athlete_id=a.id, name=NAMES[sport][n % len(NAMES[sport])], sport_type=sport,
                start_date=when, distance=distance, moving_time=moving, elapsed_time=moving + s.rng.randint(0, 600),
                total_elevation_gain=round(distance * (0.01 if sport != "Hike" else 0.06), 1),
                gear_id=g.id if g else None,
                visibility=("everyone", "everyone", "followers_only", "everyone", "only_me", "everyone")[n],
                created_at=when,
            )
        )  # fmt: skip
        if g is not None:
            totals[g.id] = totals.get(g.id, 0.0) + distance
    for g in kit["shoes"] + kit["bike"]:
        s.update(g, distance=round(totals.get(g.id, 0.0) + 100_000.0 * (g.status == "retired"), 1))
    return out


def _seed_social(s: SeedContext, people: list[Athlete], acts: list[Activity]) -> None:
    lines = ("Nice one!", "Great pace!", "What a climb.", "See you at the club run.")
    by_id = {a.id: a for a in people}
    for n, act in enumerate(acts):
        if act.visibility != "everyone":
            continue
        owner = by_id[act.athlete_id]
        fans = [p for j, p in enumerate(people) if p.id != owner.id and (j + n) % 4 == 0]
        for p in fans:
            s.create(Kudos, activity_id=act.id, athlete_id=p.id, given_at=act.start_date + dt.timedelta(hours=2))
        said = 0
        if n % 3 == 0 and fans:
            s.create(Comment, activity_id=act.id, athlete_id=fans[0].id, text=lines[n % len(lines)],
                     created_at=act.start_date + dt.timedelta(hours=3))  # fmt: skip
            said = 1
        s.update(act, kudos_count=len(fans), comment_count=said)


def _seed_clubs(s: SeedContext, people: list[Athlete]) -> None:
    home = s.population.home
    plan = ((f"{home.name} Run Club", "running", False), ("Sunrise Cyclists", "cycling", True))
    for c, (name, sport, private) in enumerate(plan):
        club = s.create(Club, name=name, sport_type=sport, private=private, city=people[0].city,
                        created_at=s.now - dt.timedelta(days=500))  # fmt: skip
        active = 0
        for j, p in enumerate(people[c::2]):
            status: MemberStatus = "pending" if private and j >= 3 else "active"
            s.create(ClubMembership, club_id=club.id, athlete_id=p.id, role="admin" if j == 0 else "member",
                     status=status, joined_at=s.now - dt.timedelta(days=400 - 30 * j))  # fmt: skip
            active += status == "active"
        s.update(club, member_count=active)
