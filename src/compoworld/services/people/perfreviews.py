"""Pulsecheck Performance: goals with key results, review cycles, self/manager/peer reviews, feedback and 1:1s.

Modeled on the Lattice API (Users, Goals with key results and alignment,
Review Cycles, Reviews by reviewer type, Feedback, One-on-ones) and 15Five
(check-ins, high fives): a goal's progress is the average progress of its key
results and only moves by check-ins while the goal is open; launching a cycle
creates a self review for every active participant and a manager review for
everyone with a manager; peer reviewers are requested per reviewee (at most
three, never the reviewee or their manager); a manager review is written after
the reviewee's self review; a cycle closes only when every manager review is
in; feedback is never to oneself; a one-on-one is scheduled by a manager with
a direct report, one per pair per day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, JobTitle, MeetingLink, Percent, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at
from compoworld.world.org import OrgChart, department_of, org_chart

__all__ = ["service"]

service = Service(
    "perfreviews",
    title="Pulsecheck Performance",
    category="hr",
    modeled_on="Lattice API (Users, Goals and key results, Review Cycles, Reviews, Feedback, One-on-ones) / "
    "15Five check-ins",
    description="Performance management for the home company: goals with measurable key results aligned to "
    "company goals, review cycles with self, manager and peer reviews, continuous feedback and "
    "manager one-on-ones.",
)

PersonId = Annotated[str, IdOf("perfreviews.person")]
GoalId = Annotated[str, IdOf("perfreviews.goal")]
KeyResultId = Annotated[str, IdOf("perfreviews.key_result")]
CycleId = Annotated[str, IdOf("perfreviews.review_cycle")]
ReviewId = Annotated[str, IdOf("perfreviews.review")]
FeedbackId = Annotated[str, IdOf("perfreviews.feedback")]
OneOnOneId = Annotated[str, IdOf("perfreviews.one_on_one")]
GoalStatus = Literal["on_track", "behind", "at_risk", "completed", "abandoned"]
CycleStatus = Literal["draft", "active", "closed"]
ReviewKind = Literal["self", "manager", "peer"]
ReviewStatus = Literal["pending", "submitted", "declined"]
Rating = Annotated[int, Field(ge=1, le=5)]
Value = Annotated[float, Field(ge=-1e9, le=1e9)]
CLOSED_GOAL: tuple[str, ...] = ("completed", "abandoned")
MAX_PEERS = 3


class Person(Record):
    """An employee in the performance system."""

    id: PersonId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    department: Text = ""
    """Department."""
    job_title: JobTitle
    """Job title."""
    manager_email: Email | None = None
    """E-mail of the person's manager."""
    active: bool = True
    """Inactive people take part in no new cycles."""


class Goal(Record):
    """An objective owned by a person, possibly aligned to a parent goal."""

    id: GoalId
    owner_id: PersonId
    """Who owns the goal."""
    title: Title
    """The objective."""
    description: Text = ""
    """Details."""
    parent_goal_id: GoalId | None = None
    """The company or team goal this one supports."""
    company_goal: bool = False
    """Whether it is a company-level goal."""
    due_date: Date
    """When it should be reached."""
    status: GoalStatus = "on_track"
    """on_track, behind, at_risk, completed or abandoned (the last two close it)."""
    progress: Percent = 0
    """Average progress of its key results."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class KeyResult(Record):
    """A measurable result that tracks a goal's progress."""

    id: KeyResultId
    goal_id: GoalId
    """The goal."""
    title: Title
    """What is measured."""
    start_value: Value = 0
    """Value when the goal was set."""
    target_value: Value
    """Value that means done."""
    current_value: Value = 0
    """Latest checked-in value."""
    unit: Literal["percent", "number", "currency"] = "number"
    """Unit of the values."""
    last_check_in_note: Text = ""
    """Note of the latest check-in."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it was last checked in."""


class ReviewCycle(Record):
    """A performance review cycle with its deadlines."""

    id: CycleId
    name: Title
    """Cycle name, e.g. H1 2026 Performance Review."""
    period_start: Date
    """Start of the period reviewed."""
    period_end: Date
    """End of the period reviewed."""
    self_review_due: Date | None = None
    """Deadline of self reviews, set at launch."""
    manager_review_due: Date | None = None
    """Deadline of manager and peer reviews, set at launch."""
    departments: list[Annotated[str, Field(min_length=1, max_length=80)]] = Field(default_factory=list, max_length=20)
    """Departments taking part; empty means everyone."""
    status: CycleStatus = "draft"
    """draft, active (reviews being written) or closed."""
    launched_at: DateTime | None = None
    """When it was launched."""


class Review(Record):
    """One review of one person by one reviewer in a cycle."""

    id: ReviewId
    cycle_id: CycleId
    """The cycle."""
    reviewee_id: PersonId
    """Who is reviewed."""
    reviewer_id: PersonId
    """Who writes it."""
    kind: ReviewKind
    """self, manager or peer."""
    status: ReviewStatus = "pending"
    """pending, submitted or declined (peers only)."""
    rating: Rating | None = None
    """Overall rating, 1 (far below) to 5 (far above expectations)."""
    strengths: Text = ""
    """What went well."""
    growth_areas: Text = ""
    """What to improve."""
    submitted_at: DateTime | None = None
    """When it was submitted."""


class Feedback(Record):
    """Feedback or praise from one person to another."""

    id: FeedbackId
    from_id: PersonId
    """Who gives it."""
    to_id: PersonId
    """Who receives it."""
    body: Text
    """The feedback."""
    praise: bool = False
    """Whether it is public praise (a high five)."""
    visibility: Literal["private", "manager", "public"] = "private"
    """Who sees it: the receiver, also their manager, or everyone."""
    created_at: Annotated[DateTime, CREATED]
    """When it was given."""


class OneOnOne(Record):
    """A meeting between a manager and a direct report."""

    id: OneOnOneId
    manager_id: PersonId
    """The manager."""
    report_id: PersonId
    """The direct report."""
    scheduled_for: DateTime
    """When it takes place."""
    meeting_link: MeetingLink | None = None
    """Video call link."""
    talking_points: list[Annotated[str, Field(min_length=1, max_length=300)]] = Field(
        default_factory=list, max_length=20
    )
    """Agenda."""
    notes: Text = ""
    """Shared notes."""
    status: Literal["scheduled", "completed", "cancelled"] = "scheduled"
    """scheduled, completed or cancelled."""


# -- rules ----------------------------------------------------------------------------------


def _kr_progress(kr: KeyResult) -> float:
    span = kr.target_value - kr.start_value
    if span == 0:
        return 100.0 if kr.current_value == kr.target_value else 0.0
    return max(0.0, min(100.0, 100 * (kr.current_value - kr.start_value) / span))


def _goal_progress(ctx: Ctx, goal_id: str) -> float:
    krs = ctx.where(KeyResult, goal_id=goal_id)
    return round(sum(_kr_progress(k) for k in krs) / len(krs), 1) if krs else 0.0


def _guard_goal(ctx: Ctx, new: Any, old: Any) -> None:
    owner = ctx.get(Person, new.owner_id, field="owner_id")
    if old is None and not owner.active:
        raise RuleViolation(f"{owner.name} is inactive", field="owner_id", hint="goals belong to active people")
    if old is not None and old.status in CLOSED_GOAL:
        raise RuleViolation(
            f"goal {old.title!r} is {old.status}", field="goal_id", hint="closed goals stay as they are"
        )
    if new.parent_goal_id is not None:
        seen = {new.id}
        parent: Goal | None = ctx.get(Goal, new.parent_goal_id, field="parent_goal_id")
        while parent is not None:
            if parent.id in seen:
                raise RuleViolation(
                    "the goal alignment would loop", field="parent_goal_id", hint="align to a goal higher up"
                )
            seen.add(parent.id)
            parent = ctx.find(Goal, parent.parent_goal_id) if parent.parent_goal_id else None
    if new.status == "completed" and (old is None or old.status != "completed") and new.progress < 100:
        raise RuleViolation(
            f"goal {new.title!r} is at {new.progress:g}%",
            field="status",
            hint="check in the key results to their targets first, or abandon the goal",
        )


def _guard_key_result(ctx: Ctx, new: Any, old: Any) -> None:
    goal = ctx.get(Goal, new.goal_id, field="goal_id")
    if goal.status in CLOSED_GOAL:
        raise RuleViolation(f"goal {goal.title!r} is {goal.status}", field="goal_id", hint="add results to open goals")
    if new.target_value == new.start_value:
        raise RuleViolation(
            "the target equals the start value", field="target_value", hint="give a target different from the start"
        )
    if len(ctx.where(KeyResult, goal_id=goal.id)) > 5:
        raise RuleViolation("a goal has at most 5 key results", field="goal_id", hint="split the goal")
    ctx.update(goal, progress=_goal_progress(ctx, goal.id))


def _guard_feedback(ctx: Ctx, new: Any, old: Any) -> None:
    giver = ctx.get(Person, new.from_id, field="from_id")
    receiver = ctx.get(Person, new.to_id, field="to_id")
    if giver.id == receiver.id:
        raise RuleViolation("feedback cannot be given to oneself", field="to_id", hint="pick a colleague")
    if not receiver.active:
        raise RuleViolation(f"{receiver.name} has left", field="to_id", hint="give feedback to current colleagues")
    if not new.body.strip():
        raise RuleViolation("feedback needs a body", field="body", hint="write what you want to say")
    if new.praise and new.visibility != "public":
        raise RuleViolation("praise is public", field="visibility", hint="set visibility to 'public' for praise")


def _guard_cycle(ctx: Ctx, new: Any, old: Any) -> None:
    if new.period_end < new.period_start:
        raise RuleViolation("the period ends before it starts", field="period_end", hint="swap the dates")
    if len(set(new.departments)) != len(new.departments):
        raise RuleViolation("a department is listed twice", field="departments", hint="list each once")


people = service.resource(
    Person,
    name="person",
    plural="people",
    prefix="per",
    create=False,
    filters=("email", "manager_email", "active"),
    search=("name", "email", "department", "job_title"),
    delete=False,
    unique=("email",),
)
goals = service.resource(
    Goal,
    name="goal",
    plural="goals",
    prefix="gol",
    create=("owner_id", "title", "description", "parent_goal_id", "company_goal", "due_date"),
    filters=("owner_id", "parent_goal_id", "status", "company_goal"),
    search=("title", "description"),
    update=("title", "description", "due_date", "status", "parent_goal_id"),
    delete=False,
    guard_create=_guard_goal,
    guard_update=_guard_goal,
)
key_results = service.resource(
    KeyResult,
    name="key_result",
    plural="key_results",
    prefix="kr",
    create=("goal_id", "title", "start_value", "target_value", "current_value", "unit"),
    get=False,
    filters=("goal_id", "unit"),
    search=("title",),
    delete=False,
    guard_create=_guard_key_result,
)
cycles = service.resource(
    ReviewCycle,
    name="review_cycle",
    plural="review_cycles",
    prefix="cyc",
    create=("name", "period_start", "period_end", "departments"),
    get=False,
    filters=("status",),
    search=("name",),
    delete=False,
    guard_create=_guard_cycle,
)
reviews = service.resource(
    Review,
    name="review",
    plural="reviews",
    prefix="rev",
    create=False,
    filters=("cycle_id", "reviewee_id", "reviewer_id", "kind", "status"),
    delete=False,
)
feedbacks = service.resource(
    Feedback,
    name="feedback",
    plural="feedback",
    prefix="fb",
    create=("from_id", "to_id", "body", "praise", "visibility"),
    get=False,
    filters=("from_id", "to_id", "praise", "visibility"),
    search=("body",),
    delete=False,
    guard_create=_guard_feedback,
)
one_on_ones = service.resource(
    OneOnOne,
    name="one_on_one",
    plural="one_on_ones",
    prefix="ooo",
    create=False,
    get=False,
    filters=("manager_id", "report_id", "status"),
    delete=False,
)


# -- examples -------------------------------------------------------------------------------


def _example_check_in(ctx: Ctx) -> dict[str, Any] | None:
    for kr in ctx.scan(KeyResult):
        if ctx.get(Goal, kr.goal_id).status not in CLOSED_GOAL:
            value = kr.current_value + (kr.target_value - kr.current_value) / 2
            return {"key_result_id": kr.id, "value": round(value, 2), "note": "Good week"}
    return None


def _example_launch(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(ReviewCycle, status="draft")
    if c is None:
        return None
    today = ctx.today()
    return {
        "review_cycle_id": c.id,
        "self_review_due": (today + dt.timedelta(days=7)).isoformat(),
        "manager_review_due": (today + dt.timedelta(days=21)).isoformat(),
    }


def _example_peer(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(ReviewCycle, status="active"):
        for own in ctx.where(Review, cycle_id=c.id, kind="self"):
            reviewee = ctx.get(Person, own.reviewee_id)
            peers = ctx.where(Review, cycle_id=c.id, reviewee_id=reviewee.id, kind="peer")
            if len(peers) >= MAX_PEERS:
                continue
            taken = {p.reviewer_id for p in peers}
            for cand in ctx.where(Person, active=True):
                if cand.id != reviewee.id and cand.email != reviewee.manager_email and cand.id not in taken:
                    return {"review_cycle_id": c.id, "reviewee_id": reviewee.id, "reviewer_email": cand.email}
    return None


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Person, active=True):
        if p.manager_email:
            manager = ctx.first(Person, email=p.manager_email)
            if manager is not None:
                when = utc_at(ctx.today() + dt.timedelta(days=3), 15)
                busy = {o.scheduled_for.date() for o in ctx.where(OneOnOne, manager_id=manager.id, report_id=p.id)}
                if when.date() not in busy:
                    return {
                        "manager_email": manager.email,
                        "report_email": p.email,
                        "scheduled_for": when.isoformat(),
                        "talking_points": ["Goals check-in"],
                    }
    return None


def _example_summary(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.scan(ReviewCycle):
        r = ctx.first(Review, cycle_id=c.id, kind="self")
        if r is not None:
            return {"review_cycle_id": c.id, "email": ctx.get(Person, r.reviewee_id).email}
    return None


# -- goals ----------------------------------------------------------------------------------


@service.tool(intent="check in progress on the key result", write=True, example=_example_check_in)
def check_in_key_result(ctx: Ctx, key_result_id: KeyResultId, value: Value, note: Text = "") -> Goal:
    """Record a key result's new value; the goal's progress becomes the average of its key results.

    Only open goals (not completed or abandoned) take check-ins.

    Args:
        key_result_id: The key result.
        value: The current value.
        note: What changed.
    """
    kr = ctx.get(KeyResult, key_result_id, field="key_result_id")
    goal = ctx.get(Goal, kr.goal_id)
    if goal.status in CLOSED_GOAL:
        raise RuleViolation(
            f"goal {goal.title!r} is {goal.status}", field="key_result_id", hint="closed goals take no check-ins"
        )
    ctx.update(kr, current_value=value, last_check_in_note=note)
    return ctx.update(goal, progress=_goal_progress(ctx, goal.id))


# -- review cycles --------------------------------------------------------------------------


def _self_done(ctx: Ctx, review: Review) -> bool:
    own = ctx.first(Review, cycle_id=review.cycle_id, reviewee_id=review.reviewee_id, kind="self")
    return own is None or own.status == "submitted"


@service.tool(intent="launch the review cycle", write=True, example=_example_launch)
def launch_cycle(ctx: Ctx, review_cycle_id: CycleId, self_review_due: Date, manager_review_due: Date) -> ReviewCycle:
    """Launch a draft cycle with its deadlines, creating the self and manager reviews.

    Every active participant gets a self review and, if they have a manager, a
    manager review. The self review deadline must be ahead, and the manager
    deadline on or after it.

    Args:
        review_cycle_id: The draft cycle.
        self_review_due: Deadline of self reviews.
        manager_review_due: Deadline of manager and peer reviews.
    """
    cycle = ctx.get(ReviewCycle, review_cycle_id, field="review_cycle_id")
    if cycle.status != "draft":
        raise RuleViolation(
            f"cycle {cycle.name} is {cycle.status}", field="review_cycle_id", hint="only draft cycles are launched"
        )
    if self_review_due < ctx.today():
        raise RuleViolation("the self review deadline has passed", field="self_review_due", hint="give a later date")
    if manager_review_due < self_review_due:
        raise RuleViolation(
            "manager reviews are due before self reviews",
            field="manager_review_due",
            hint="managers write after the self reviews; give a later date",
        )
    members = [p for p in ctx.where(Person, active=True) if not cycle.departments or p.department in cycle.departments]
    if not members:
        raise RuleViolation(
            "nobody takes part in the cycle", field="review_cycle_id", hint="check the cycle's departments"
        )
    for p in members:
        ctx.create(Review, cycle_id=cycle.id, reviewee_id=p.id, reviewer_id=p.id, kind="self")
        manager = ctx.first(Person, email=p.manager_email) if p.manager_email else None
        if manager is not None and manager.active:
            ctx.create(Review, cycle_id=cycle.id, reviewee_id=p.id, reviewer_id=manager.id, kind="manager")
    return ctx.update(
        cycle,
        status="active",
        launched_at=ctx.now(),
        self_review_due=self_review_due,
        manager_review_due=manager_review_due,
    )


@service.tool(
    intent="close the review cycle",
    write=True,
    destructive=True,
    example=first_example(
        ReviewCycle,
        "review_cycle_id",
        where={"status": "active"},
        match=lambda ctx, c: all(r.status == "submitted" for r in ctx.where(Review, cycle_id=c.id, kind="manager")),
    ),
)
def close_cycle(ctx: Ctx, review_cycle_id: CycleId) -> ReviewCycle:
    """Close an active cycle once every manager review is submitted; pending peer and self reviews lapse.

    Args:
        review_cycle_id: The active cycle.
    """
    cycle = ctx.get(ReviewCycle, review_cycle_id, field="review_cycle_id")
    if cycle.status != "active":
        raise RuleViolation(
            f"cycle {cycle.name} is {cycle.status}", field="review_cycle_id", hint="only active cycles are closed"
        )
    waiting = [r for r in ctx.where(Review, cycle_id=cycle.id, kind="manager") if r.status != "submitted"]
    if waiting:
        raise RuleViolation(
            f"{len(waiting)} manager review(s) are not submitted",
            field="review_cycle_id",
            hint="list them with perfreviews__list_reviews(kind='manager', status='pending')",
        )
    return ctx.update(cycle, status="closed")


@service.tool(intent="ask a colleague for a peer review", write=True, example=_example_peer)
def request_peer_review(ctx: Ctx, review_cycle_id: CycleId, reviewee_id: PersonId, reviewer_email: Email) -> Review:
    """Ask a colleague to review a participant of an active cycle as a peer.

    At most three peers per reviewee; not the reviewee, not their manager, not twice.

    Args:
        review_cycle_id: The active cycle.
        reviewee_id: Who is reviewed.
        reviewer_email: The peer's work e-mail.
    """
    cycle = ctx.get(ReviewCycle, review_cycle_id, field="review_cycle_id")
    reviewee = ctx.get(Person, reviewee_id, field="reviewee_id")
    if cycle.status != "active":
        raise RuleViolation(
            f"cycle {cycle.name} is {cycle.status}", field="review_cycle_id", hint="use an active cycle"
        )
    if ctx.first(Review, cycle_id=cycle.id, reviewee_id=reviewee.id, kind="self") is None:
        raise RuleViolation(
            f"{reviewee.name} does not take part in {cycle.name}", field="reviewee_id", hint="pick a participant"
        )
    peer = ctx.first(Person, email=reviewer_email)
    if peer is None or not peer.active:
        raise RuleViolation(
            f"{reviewer_email} is not an active colleague", field="reviewer_email", hint="give a colleague's e-mail"
        )
    if peer.id == reviewee.id or peer.email == reviewee.manager_email:
        raise RuleViolation(
            "peers are neither the reviewee nor their manager", field="reviewer_email", hint="pick another colleague"
        )
    peers = ctx.where(Review, cycle_id=cycle.id, reviewee_id=reviewee.id, kind="peer")
    if any(r.reviewer_id == peer.id for r in peers):
        raise Conflict(f"{peer.name} was already asked", field="reviewer_email", hint="pick another colleague")
    if len(peers) >= MAX_PEERS:
        raise RuleViolation(
            f"{reviewee.name} already has {MAX_PEERS} peer reviewers",
            field="reviewee_id",
            hint="a reviewee gets at most three peer reviews",
        )
    return ctx.create(Review, cycle_id=cycle.id, reviewee_id=reviewee.id, reviewer_id=peer.id, kind="peer")


@service.tool(
    intent="submit the review",
    write=True,
    example=first_example(
        Review,
        "review_id",
        where={"status": "pending"},
        match=lambda ctx, r: (
            ctx.get(ReviewCycle, r.cycle_id).status == "active" and (r.kind != "manager" or _self_done(ctx, r))
        ),
        rating=4,
        strengths="Owns problems end to end.",
        growth_areas="Delegate more.",
    ),
)
def submit_review(ctx: Ctx, review_id: ReviewId, rating: Rating, strengths: Text, growth_areas: Text = "") -> Review:
    """Submit a pending review of an active cycle with a rating from 1 to 5.

    A manager review is written after the reviewee submitted their self review.

    Args:
        review_id: The review.
        rating: Overall rating, 1 to 5.
        strengths: What went well (required).
        growth_areas: What to improve.
    """
    review = ctx.get(Review, review_id, field="review_id")
    cycle = ctx.get(ReviewCycle, review.cycle_id)
    if cycle.status != "active":
        raise RuleViolation(f"cycle {cycle.name} is {cycle.status}", field="review_id", hint="the cycle is not open")
    if review.status != "pending":
        raise RuleViolation(
            f"the review is {review.status}", field="review_id", hint="only pending reviews are submitted"
        )
    if review.kind == "manager" and not _self_done(ctx, review):
        raise RuleViolation(
            "the reviewee has not submitted their self review",
            field="review_id",
            hint="wait for the self review (or remind the reviewee)",
        )
    if not strengths.strip():
        raise RuleViolation("a review needs strengths", field="strengths", hint="write what went well")
    return ctx.update(
        review,
        status="submitted",
        rating=rating,
        strengths=strengths.strip(),
        growth_areas=growth_areas,
        submitted_at=ctx.now(),
    )


@service.tool(
    intent="decline the peer review request",
    write=True,
    example=first_example(
        Review, "review_id", where={"status": "pending", "kind": "peer"}, reason="We did not work together this period"
    ),
)
def decline_peer_review(ctx: Ctx, review_id: ReviewId, reason: Text) -> Review:
    """Decline a pending peer review request with a reason.

    Args:
        review_id: The peer review.
        reason: Why.
    """
    review = ctx.get(Review, review_id, field="review_id")
    if review.kind != "peer" or review.status != "pending":
        raise RuleViolation(
            "only pending peer reviews can be declined", field="review_id", hint="self and manager reviews are required"
        )
    if not reason.strip():
        raise RuleViolation("declining needs a reason", field="reason", hint="say why")
    return ctx.update(review, status="declined", growth_areas="", strengths="", rating=None)


class ReviewSummary(BaseModel):
    """What one person's reviews in a cycle came to."""

    review_cycle_id: CycleId = Field(description="The cycle.")
    reviewee_id: PersonId = Field(description="The reviewee.")
    name: PersonName = Field(description="Reviewee name.")
    email: Email = Field(description="Reviewee e-mail.")
    manager_email: Email | None = Field(description="Reviewee's manager.")
    self_rating: int | None = Field(description="Self rating, if submitted.")
    manager_rating: int | None = Field(description="Manager rating, if submitted.")
    peer_average: float | None = Field(description="Average of submitted peer ratings.")
    peer_reviews: int = Field(description="Peer reviews submitted.")
    pending: int = Field(description="Reviews still pending.")
    goal_progress: float | None = Field(description="Average progress of the reviewee's open and completed goals.")


@service.tool(intent="summarize the person's reviews in the cycle", example=_example_summary)
def review_summary(ctx: Ctx, review_cycle_id: CycleId, email: Email) -> ReviewSummary:
    """Summarize a person's self, manager and peer ratings in a cycle, with their goal progress.

    Args:
        review_cycle_id: The cycle.
        email: The reviewee's work e-mail.
    """
    cycle = ctx.get(ReviewCycle, review_cycle_id, field="review_cycle_id")
    person = ctx.first(Person, email=email)
    if person is None:
        raise NotFound(f"nobody has the e-mail {email}", field="email", hint="list people to find their e-mail")
    mine = ctx.where(Review, cycle_id=cycle.id, reviewee_id=person.id)
    if not mine:
        raise RuleViolation(
            f"{person.name} has no reviews in {cycle.name}", field="email", hint="pick a participant of the cycle"
        )

    def rating(kind: str) -> int | None:
        r = next((x for x in mine if x.kind == kind and x.status == "submitted"), None)
        return r.rating if r else None

    peers = [x.rating for x in mine if x.kind == "peer" and x.status == "submitted" and x.rating is not None]
    own_goals = [g for g in ctx.where(Goal, owner_id=person.id) if g.status != "abandoned"]
    return ReviewSummary(
        review_cycle_id=cycle.id,
        reviewee_id=person.id,
        name=person.name,
        email=person.email,
        manager_email=person.manager_email,
        self_rating=rating("self"),
        manager_rating=rating("manager"),
        peer_average=round(sum(peers) / len(peers), 2) if peers else None,
        peer_reviews=len(peers),
        pending=sum(1 for x in mine if x.status == "pending"),
        goal_progress=round(sum(g.progress for g in own_goals) / len(own_goals), 1) if own_goals else None,
    )


# -- one-on-ones ----------------------------------------------------------------------------


@service.tool(intent="schedule a one-on-one", write=True, example=_example_schedule)
def schedule_one_on_one(
    ctx: Ctx,
    manager_email: Email,
    report_email: Email,
    scheduled_for: DateTime,
    talking_points: Annotated[list[Annotated[str, Field(min_length=1, max_length=300)]], Field(max_length=20)]
    | None = None,
    meeting_link: MeetingLink | None = None,
) -> OneOnOne:
    """Schedule a one-on-one of a manager with a direct report, in the future, one per pair per day.

    Args:
        manager_email: The manager's work e-mail.
        report_email: The direct report's work e-mail.
        scheduled_for: When it takes place.
        talking_points: Agenda items.
        meeting_link: Video call link.
    """
    manager = ctx.first(Person, email=manager_email)
    report = ctx.first(Person, email=report_email)
    if manager is None:
        raise NotFound(f"nobody has the e-mail {manager_email}", field="manager_email", hint="list people")
    if report is None:
        raise NotFound(f"nobody has the e-mail {report_email}", field="report_email", hint="list people")
    if report.manager_email != manager.email:
        raise RuleViolation(
            f"{report.name} does not report to {manager.name}",
            field="report_email",
            hint=f"{report.name}'s manager is {report.manager_email}",
        )
    if not report.active:
        raise RuleViolation(f"{report.name} has left", field="report_email", hint="meet current reports")
    if scheduled_for <= ctx.now():
        raise RuleViolation("the meeting is in the past", field="scheduled_for", hint="schedule it ahead")
    for o in ctx.where(OneOnOne, manager_id=manager.id, report_id=report.id):
        if o.status == "scheduled" and o.scheduled_for.date() == scheduled_for.date():
            raise Conflict(
                f"a one-on-one is already scheduled on {o.scheduled_for.date()}",
                field="scheduled_for",
                hint="pick another day or use the existing meeting",
            )
    return ctx.create(
        OneOnOne,
        manager_id=manager.id,
        report_id=report.id,
        scheduled_for=scheduled_for,
        talking_points=list(talking_points or []),
        meeting_link=meeting_link,
    )


@service.tool(
    intent="complete the one-on-one with notes",
    write=True,
    example=first_example(OneOnOne, "one_on_one_id", where={"status": "scheduled"}, notes="Discussed Q2 priorities."),
)
def complete_one_on_one(ctx: Ctx, one_on_one_id: OneOnOneId, notes: Text) -> OneOnOne:
    """Mark a scheduled one-on-one as held, with its notes.

    Args:
        one_on_one_id: The meeting.
        notes: What was discussed.
    """
    o = ctx.get(OneOnOne, one_on_one_id, field="one_on_one_id")
    if o.status != "scheduled":
        raise RuleViolation(f"the meeting is {o.status}", field="one_on_one_id", hint="only scheduled meetings")
    if not notes.strip():
        raise RuleViolation("notes are required", field="notes", hint="write what was discussed")
    return ctx.update(o, status="completed", notes=notes.strip())


# -- seed -----------------------------------------------------------------------------------

COMPANY_GOALS = (
    ("Grow annual recurring revenue", (("ARR in millions", 12.0, 18.0, "currency"),)),
    (
        "Delight our customers",
        (("Net promoter score", 31.0, 45.0, "number"), ("Tickets solved within SLA", 82.0, 95.0, "percent")),
    ),
    ("Ship a reliable platform", (("Uptime", 99.5, 99.95, "percent"),)),
)
TEAM_GOALS = {
    "Engineering": ("Cut deployment lead time", "Lead time in hours", 48.0, 12.0),
    "Sales": ("Expand into new markets", "New logos", 0.0, 25.0),
    "Support": ("Faster first responses", "Median first response in minutes", 90.0, 30.0),
    "Finance": ("Close the books faster", "Days to close", 10.0, 5.0),
    "People": ("Hire the growth plan", "Hires made", 0.0, 18.0),
    "Operations": ("Reduce shipping costs", "Cost per parcel in cents", 950.0, 800.0),
    "Marketing": ("Grow qualified pipeline", "Marketing-qualified leads", 0.0, 600.0),
}
PRAISE = (
    "Thanks for jumping on the incident last night!",
    "Great demo to the customer today.",
    "Your onboarding docs saved me hours.",
    "Superb job closing the quarter on time.",
)
STRENGTHS = ("Reliable and thorough", "Great collaborator", "Strong ownership", "Clear communicator")
GROWTH = ("Delegate more", "Share progress earlier", "Prioritize ruthlessly", "Speak up in planning")


@service.seeder
def seed(s: SeedContext) -> None:
    """The staff with reporting lines, aligned goals, a closed and an active review cycle, feedback and 1:1s."""
    chart = org_chart(s.population.employees)
    people = _seed_people(s, chart)
    _seed_goals(s, people, chart)
    active = [x for x in people.values() if x.active]
    by_email = {x.email: x for x in people.values()}
    for cycle, done, probation in _seed_review_cycles(s):
        _seed_reviews(s, cycle, done, probation, active, by_email)
    _seed_feedback(s, active)
    _seed_one_on_ones(s, active, by_email)


def _seed_people(s: SeedContext, chart: OrgChart) -> dict[str, Person]:
    """Every employee with their manager, by population key."""
    people: dict[str, Person] = {}
    for i, p in enumerate(s.population.employees):
        manager = chart.manager_of(p)
        people[p.key] = s.create(
            Person,
            name=p.name,
            email=p.email,
            department=department_of(p),
            job_title=p.job_title,
            manager_email=manager.email if manager else None,
            active=i % 17 != 16,
        )
    return people


def _seed_goals(s: SeedContext, people: dict[str, Person], chart: OrgChart) -> None:
    """Company goals owned by the top manager, a team goal per head under them, members' goals under those."""
    company = [
        _seed_goal(s, people[chart.top.key], t, tuple(k), None, True, 0.25 + 0.1 * n)
        for n, (t, k) in enumerate(COMPANY_GOALS)
    ]
    for n, (dept, (title, kr, start, target)) in enumerate(sorted(TEAM_GOALS.items())):
        if dept not in chart.heads:
            continue
        team = _seed_goal(
            s,
            people[chart.heads[dept].key],
            title,
            ((kr, start, target, "number"),),
            company[n % len(company)],
            False,
            0.2 + 0.07 * n,
            "behind" if n % 4 == 3 else "on_track",
        )
        members = [people[p.key] for p in s.population.employees if department_of(p) == dept and not chart.is_head(p)]
        for j, m in enumerate(members[:3]):
            if not m.active:
                continue
            frac = (0.1, 0.5, 1.0)[j % 3]
            _seed_goal(
                s,
                m,
                f"Contribute to: {title.lower()}",
                ((f"My part: {kr.lower()}", 0.0, 10.0, "number"),),
                team,
                False,
                frac,
                "completed" if frac == 1.0 else "at_risk" if j == 0 and n % 2 else "on_track",
            )


def _seed_goal(
    s: SeedContext,
    owner: Person,
    title: str,
    krs: tuple[tuple[str, float, float, str], ...],
    parent: Goal | None,
    company: bool,
    frac: float,
    status: GoalStatus = "on_track",
) -> Goal:
    """A goal with key results ``(title, start, target, unit)``, each ``frac`` of the way to its target."""
    today = s.now.date()
    g = s.create(
        Goal,
        owner_id=owner.id,
        title=title,
        parent_goal_id=parent.id if parent else None,
        company_goal=company,
        due_date=dt.date(today.year, 12, 31) if company else dt.date(today.year, 6, 30),
        status=status,
    )
    recs = [
        s.create(
            KeyResult,
            goal_id=g.id,
            title=kr_title,
            start_value=start,
            target_value=target,
            current_value=round(start + (target - start) * frac, 2),
            unit=unit,
        )
        for kr_title, start, target, unit in krs
    ]
    return s.update(g, progress=round(sum(_kr_progress(k) for k in recs) / len(recs), 1))


def _seed_review_cycles(s: SeedContext) -> list[tuple[ReviewCycle, bool, bool]]:
    """A closed year-end cycle, an active Q1 check-in, a draft mid-year cycle and active Support probation reviews.

    Returns:
        The launched cycles, each with whether its reviews are all done and whether it is the probation cycle.
    """
    today = s.now.date()
    closed = s.create(
        ReviewCycle,
        name=f"H2 {today.year - 1} Performance Review",
        period_start=dt.date(today.year - 1, 7, 1),
        period_end=dt.date(today.year - 1, 12, 31),
        self_review_due=dt.date(today.year, 1, 16),
        manager_review_due=dt.date(today.year, 1, 30),
        status="closed",
        launched_at=dt.datetime(today.year, 1, 5, 9, tzinfo=dt.UTC),
    )
    active = s.create(
        ReviewCycle,
        name=f"Q1 {today.year} Check-in",
        period_start=dt.date(today.year, 1, 1),
        period_end=dt.date(today.year, 3, 31),
        self_review_due=today + dt.timedelta(days=4),
        manager_review_due=today + dt.timedelta(days=18),
        status="active",
        launched_at=s.ago(days=14),
    )
    s.create(
        ReviewCycle,
        name=f"Mid-year {today.year} Review",
        period_start=dt.date(today.year, 1, 1),
        period_end=dt.date(today.year, 6, 30),
        departments=["Engineering", "Sales", "Support"],
    )
    probation = s.create(
        ReviewCycle,
        name=f"Support probation reviews {today.year}",
        period_start=dt.date(today.year, 1, 1),
        period_end=dt.date(today.year, 2, 28),
        self_review_due=today - dt.timedelta(days=3),
        manager_review_due=today + dt.timedelta(days=4),
        departments=["Support"],
        status="active",
        launched_at=s.ago(days=10),
    )
    return [(closed, True, False), (active, False, False), (probation, True, True)]


def _seed_reviews(
    s: SeedContext,
    cycle: ReviewCycle,
    done: bool,
    probation: bool,
    people: Sequence[Person],
    by_email: dict[str, Person],
) -> None:
    """Self, manager and peer reviews of a cycle's participants; in an open cycle some are still pending.

    A probation cycle asks one peer at most, whose review is the only one due.
    """
    participants = [x for x in people if not cycle.departments or x.department in cycle.departments]
    for i, member in enumerate(participants):
        self_done = done or i % 3 != 0
        submitted = cycle.launched_at + dt.timedelta(days=3 + i % 5) if cycle.launched_at else s.now
        s.create(
            Review,
            cycle_id=cycle.id,
            reviewee_id=member.id,
            reviewer_id=member.id,
            kind="self",
            status="submitted" if self_done else "pending",
            rating=3 + i % 3 if self_done else None,
            strengths=STRENGTHS[i % 4] if self_done else "",
            growth_areas=GROWTH[i % 4] if self_done else "",
            submitted_at=submitted if self_done else None,
        )
        manager = by_email.get(member.manager_email or "")
        if manager is not None and manager.active:
            mgr_done = done or (self_done and i % 4 == 1)
            s.create(
                Review,
                cycle_id=cycle.id,
                reviewee_id=member.id,
                reviewer_id=manager.id,
                kind="manager",
                status="submitted" if mgr_done else "pending",
                rating=2 + (i * 7) % 4 if mgr_done else None,
                strengths=STRENGTHS[(i + 1) % 4] if mgr_done else "",
                growth_areas=GROWTH[(i + 2) % 4] if mgr_done else "",
                submitted_at=submitted + dt.timedelta(days=6) if mgr_done else None,
            )
        if i % 2:
            continue
        for k in range(1 + i % 3):
            peer = people[(i + 5 + 3 * k) % len(people)]
            if probation and k:
                break
            if peer.id == member.id or peer.email == member.manager_email:
                continue
            peer_done = (done and not probation) or k == 0
            s.create(
                Review,
                cycle_id=cycle.id,
                reviewee_id=member.id,
                reviewer_id=peer.id,
                kind="peer",
                status="submitted" if peer_done else "pending",
                rating=3 + (i + k) % 3 if peer_done else None,
                strengths=STRENGTHS[(i + k) % 4] if peer_done else "",
                submitted_at=submitted + dt.timedelta(days=2) if peer_done else None,
            )


def _seed_feedback(s: SeedContext, people: Sequence[Person]) -> None:
    """Thirty pieces of feedback between colleagues over the past month; every third is public praise."""
    for n in range(30):
        giver = people[(n * 7) % len(people)]
        receiver = people[(n * 11 + 3) % len(people)]
        if giver.id == receiver.id:
            continue
        praise = n % 3 == 0
        s.create(
            Feedback,
            from_id=giver.id,
            to_id=receiver.id,
            body=PRAISE[n % len(PRAISE)] if praise else f"Suggestion: {GROWTH[n % len(GROWTH)].lower()} next sprint.",
            praise=praise,
            visibility="public" if praise else ("private", "manager")[n % 2],
            created_at=s.ago(days=1 + n, hours=n % 7),
        )


def _seed_one_on_ones(s: SeedContext, people: Sequence[Person], by_email: dict[str, Person]) -> None:
    """A completed 1:1 last week and one in the coming days between each active manager and report."""
    today = s.now.date()
    for member in people:
        manager = by_email.get(member.manager_email or "")
        if manager is None or not manager.active:
            continue
        past = utc_at(today - dt.timedelta(days=5 + len(member.name) % 4), 14)
        s.create(
            OneOnOne,
            manager_id=manager.id,
            report_id=member.id,
            scheduled_for=past,
            talking_points=["Priorities", "Blockers"],
            notes="Agreed on next steps for the quarter.",
            status="completed",
        )
        soon = utc_at(today + dt.timedelta(days=2 + len(member.name) % 5), 10)
        s.create(
            OneOnOne,
            manager_id=manager.id,
            report_id=member.id,
            scheduled_for=soon,
            talking_points=["Q1 check-in", "Career growth"],
            meeting_link=f"https://meet.pulsecheck.example/{manager.id}-{member.id}",
        )
