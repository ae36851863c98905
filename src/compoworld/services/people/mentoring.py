"""Kinship Mentoring: mentoring programs with cohorts, mentor and mentee profiles, matching, sessions, goals, feedback.

Modeled on the Together Platform / Chronus mentoring APIs (programs with a
matching mode and a minimum number of meetings, cohorts that enroll, run and
close, participant profiles with skills and a mentor's capacity, matches that
are proposed, accepted or declined, then completed or ended early, logged
meetings, goals with progress, and end-of-match feedback): a cohort takes
enrollments only while enrolling; a person takes one role per cohort; only
approved participants of the same cohort are matched, never a manager with
their own report, a mentor up to their capacity and a mentee once at a time;
meetings are logged on active matches and not in the future; a match
completes only after the program's minimum meetings; a cohort closes once no
match is live; feedback is given once per person when a match has ended.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, JobTitle, Percent, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.world.org import is_lead, org_chart

__all__ = ["service"]

service = Service(
    "mentoring",
    title="Kinship Mentoring",
    category="mentoring",
    modeled_on="Together Platform / Chronus mentoring API: programs, cohorts, participant profiles, matches "
    "(proposed, active, completed), meetings, goals, feedback",
    description="Mentoring programs for the home company's staff: programs and their cohorts, mentor and mentee "
    "profiles with skills and capacity, matching suggestions and matches, logged meetings, shared goals, and "
    "feedback at the end of each match.",
)

ProgramId = Annotated[str, IdOf("mentoring.program")]
CohortId = Annotated[str, IdOf("mentoring.cohort")]
ParticipantId = Annotated[str, IdOf("mentoring.participant")]
MatchId = Annotated[str, IdOf("mentoring.match")]
MeetingId = Annotated[str, IdOf("mentoring.meeting")]
GoalId = Annotated[str, IdOf("mentoring.goal")]
FeedbackId = Annotated[str, IdOf("mentoring.feedback")]

Skill = Literal[
    "leadership",
    "people_management",
    "public_speaking",
    "career_growth",
    "product_management",
    "software_engineering",
    "data_analysis",
    "sales",
    "finance",
    "design",
]
ProgramStatus = Literal["draft", "active", "closed"]
MatchingMode = Literal["admin_match", "self_match"]
CohortStatus = Literal["enrolling", "running", "closed"]
Role = Literal["mentor", "mentee"]
ParticipantStatus = Literal["applied", "approved", "withdrawn"]
MatchStatus = Literal["proposed", "active", "declined", "completed", "ended"]
GoalStatus = Literal["not_started", "in_progress", "achieved", "abandoned"]
Rating = Annotated[int, Field(ge=1, le=5)]
"""A rating from 1 (poor) to 5 (excellent)."""

LIVE_MATCH: tuple[MatchStatus, ...] = ("proposed", "active")


class Program(Timestamped):
    """A mentoring program."""

    id: ProgramId
    name: Title
    """Its name (unique)."""
    description: Text = ""
    """What it is for."""
    matching_mode: MatchingMode = "admin_match"
    """admin_match (administrators propose) or self_match (mentees pick)."""
    min_meetings: Annotated[int, Field(ge=0, le=24)] = 4
    """Meetings a match needs before it completes."""
    owner_email: Email | None = None
    """The program manager."""
    status: ProgramStatus = "draft"
    """draft, active or closed."""


class Cohort(Timestamped):
    """A round of a program with its own participants."""

    id: CohortId
    program_id: ProgramId
    """The program."""
    name: Title
    """Its name."""
    start_date: Date
    """When matches start meeting."""
    end_date: Date
    """When it ends."""
    status: CohortStatus = "enrolling"
    """enrolling, running or closed."""


class Participant(Timestamped):
    """A mentor's or mentee's profile in a cohort."""

    id: ParticipantId
    cohort_id: CohortId
    """The cohort."""
    email: Email
    """The employee's e-mail."""
    name: PersonName
    """Their name."""
    job_title: JobTitle
    """Their job."""
    role: Role
    """mentor or mentee."""
    skills: tuple[Skill, ...] = ()
    """What a mentor offers, or what a mentee wants to learn."""
    capacity: Annotated[int, Field(ge=0, le=5)] = 1
    """Mentees a mentor takes at most (mentees: 1)."""
    status: ParticipantStatus = "applied"
    """applied, approved or withdrawn."""


class Match(Timestamped):
    """A mentor and mentee paired in a cohort."""

    id: MatchId
    cohort_id: CohortId
    """The cohort."""
    mentor_id: ParticipantId
    """The mentor."""
    mentee_id: ParticipantId
    """The mentee."""
    mentor_email: Email
    """The mentor's e-mail."""
    mentee_email: Email
    """The mentee's e-mail."""
    score: Percent = 0.0
    """How much of what the mentee wants the mentor offers."""
    status: MatchStatus = "proposed"
    """proposed, active, declined, completed or ended (early)."""
    end_reason: Text | None = None
    """Why it ended early or was declined."""


class Meeting(Timestamped):
    """A logged mentoring meeting."""

    id: MeetingId
    match_id: MatchId
    """The match."""
    held_on: Date
    """When it was held."""
    duration_minutes: Annotated[int, Field(ge=15, le=240)] = 45
    """How long."""
    topics: Text = ""
    """What was discussed."""


class Goal(Timestamped):
    """A goal the mentee works on with the mentor."""

    id: GoalId
    match_id: MatchId
    """The match."""
    title: Title
    """The goal."""
    due_date: Date | None = None
    """When it should be reached."""
    progress: Percent = 0.0
    """How far along."""
    status: GoalStatus = "not_started"
    """not_started, in_progress, achieved or abandoned."""


class Feedback(Timestamped):
    """A participant's feedback on a finished match."""

    id: FeedbackId
    match_id: MatchId
    """The match."""
    author_email: Email
    """Who gave it (the mentor or the mentee)."""
    rating: Rating
    """1-5."""
    comment: Text = ""
    """What they said."""


class Suggestion(Value):
    """A mentor a mentee could be matched with."""

    mentor_id: ParticipantId
    """The mentor."""
    name: PersonName
    """Their name."""
    shared_skills: list[Skill]
    """Skills the mentee wants that the mentor offers."""
    score: float
    """Share of the mentee's wanted skills covered, 0-100."""
    open_slots: int
    """Mentees they can still take."""


class CohortReport(Value):
    """How a cohort is going."""

    cohort_id: CohortId
    """The cohort."""
    mentors: int
    """Approved mentors."""
    mentees: int
    """Approved mentees."""
    unmatched_mentees: int
    """Approved mentees without a live or finished match."""
    matches_by_status: dict[MatchStatus, int]
    """Matches per status."""
    meetings: int
    """Meetings logged."""
    average_rating: float | None
    """Average feedback rating (none without feedback)."""


# -- rules ------------------------------------------------------------------------------------


def _employee(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_program(ctx: Ctx, new: Any, old: Any) -> None:
    _employee(ctx, new.owner_email, "owner_email")


def _guard_cohort(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        program = ctx.get(Program, new.program_id, field="program_id")
        if program.status == "closed":
            raise RuleViolation(f"program {program.name!r} is closed", field="program_id", hint="use an open program")
        if new.end_date <= new.start_date:
            raise RuleViolation("a cohort ends after it starts", field="end_date", hint="give a later end date")
    starting = new.status == "running" and old is not None and old.status != "running"
    if starting and not ctx.where(Match, cohort_id=new.id, status="active"):
        raise RuleViolation("the cohort has no active match", field="cohort_id", hint="match participants first")
    if new.status == "closed" and old is not None and old.status != "closed":
        live = [m for m in ctx.where(Match, cohort_id=new.id) if m.status in LIVE_MATCH]
        if live:
            raise RuleViolation(
                f"{len(live)} match(es) are still live", field="cohort_id", hint="complete or end them first"
            )


def _guard_goal(ctx: Ctx, new: Any, old: Any) -> None:
    match = ctx.get(Match, new.match_id, field="match_id")
    if match.status != "active":
        raise RuleViolation(
            f"match {match.id} is {match.status}", field="match_id", hint="goals belong to active matches"
        )
    if old is not None and new.progress < old.progress:
        raise RuleViolation("progress only moves forward", field="progress", hint=f"give {old.progress} or more")
    if new.status not in ("abandoned",):
        status: GoalStatus = "achieved" if new.progress >= 100 else "in_progress" if new.progress > 0 else "not_started"
        if status != new.status:
            ctx.update(new, status=status)


def _guard_withdraw(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "withdrawn" and old.status != "withdrawn":
        field = "mentor_id" if new.role == "mentor" else "mentee_id"
        for m in ctx.where(Match, **{field: new.id}):
            if m.status in LIVE_MATCH:
                ctx.update(m, status="ended" if m.status == "active" else "declined", end_reason="participant withdrew")


programs = service.resource(
    Program,
    name="program",
    plural="programs",
    prefix="prog",
    create=("name", "description", "matching_mode", "min_meetings", "owner_email"),
    filters=("status", "matching_mode", "owner_email"),
    search=("name",),
    update=("description", "min_meetings", "owner_email"),
    delete=False,
    unique=("name",),
    transitions={
        "launch": Transition("status", ("draft",), "active", "launch the mentoring program"),
        "close": Transition("status", ("active",), "closed", "close the mentoring program"),
    },
    guard_create=_guard_program,
    guard_update=_guard_program,
    title="mentoring program",
)
cohorts = service.resource(
    Cohort,
    name="cohort",
    plural="cohorts",
    prefix="coh",
    create=("program_id", "name", "start_date", "end_date"),
    filters=("program_id", "status"),
    search=("name",),
    delete=False,
    transitions={
        "start": Transition("status", ("enrolling",), "running", "start the cohort"),
        "close": Transition("status", ("running",), "closed", "close the cohort"),
    },
    guard_create=_guard_cohort,
    guard_update=_guard_cohort,
)
participants = service.resource(
    Participant,
    name="participant",
    plural="participants",
    prefix="ptc",
    create=False,
    filters=("cohort_id", "role", "status", "email"),
    search=("name", "job_title"),
    delete=False,
    transitions={
        "approve": Transition("status", ("applied",), "approved", "approve the participant"),
        "withdraw": Transition("status", ("applied", "approved"), "withdrawn", "withdraw the participant"),
    },
    guard_update=_guard_withdraw,
)
matches = service.resource(
    Match,
    name="match",
    plural="matches",
    prefix="mtc",
    create=False,
    filters=("cohort_id", "mentor_id", "mentee_id", "status", "mentor_email", "mentee_email"),
    delete=False,
    transitions={"accept": Transition("status", ("proposed",), "active", "accept the mentoring match")},
    title="mentoring match",
)
meetings = service.resource(
    Meeting,
    name="meeting",
    plural="meetings",
    prefix="mtg",
    create=False,
    get=False,
    filters=("match_id",),
    delete=False,
)
goals = service.resource(
    Goal,
    name="goal",
    plural="goals",
    prefix="goal",
    create=("match_id", "title", "due_date"),
    get=False,
    filters=("match_id", "status"),
    search=("title",),
    update=("progress", "due_date"),
    delete=False,
    transitions={"abandon": Transition("status", ("not_started", "in_progress"), "abandoned", "abandon the goal")},
    guard_create=_guard_goal,
    guard_update=_guard_goal,
)
feedback = service.resource(
    Feedback,
    name="feedback",
    plural="feedback",
    prefix="fdb",
    create=False,
    get=False,
    filters=("match_id",),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    cohort = ctx.first(Cohort, status="enrolling")
    if cohort is None:
        return None
    taken = {p.email for p in ctx.where(Participant, cohort_id=cohort.id)}
    p = next((p for p in ctx.population.employees if p.email not in taken), None)
    return None if p is None else {"cohort_id": cohort.id, "email": p.email, "role": "mentee", "skills": ["leadership"]}


@service.tool(intent="enroll the employee in the mentoring cohort", write=True, example=_example_enroll)
def enroll(
    ctx: Ctx,
    cohort_id: CohortId,
    email: Email,
    role: Role,
    skills: Annotated[list[Skill], Field(max_length=6)],
    capacity: Annotated[int, Field(ge=1, le=5)] = 1,
) -> Participant:
    """Enroll an employee as a mentor or mentee in an enrolling cohort (one role per cohort); they apply first.

    Args:
        cohort_id: An enrolling cohort.
        email: The employee's e-mail.
        role: mentor or mentee.
        skills: What a mentor offers, or what a mentee wants to learn (at least one).
        capacity: Mentees a mentor takes at most (mentees always 1).
    """
    cohort = ctx.get(Cohort, cohort_id, field="cohort_id")
    if cohort.status != "enrolling":
        raise RuleViolation(
            f"cohort {cohort.name!r} is {cohort.status}", field="cohort_id", hint="use an enrolling cohort"
        )
    person = next((p for p in ctx.population.employees if p.email == email), None)
    if person is None:
        raise RuleViolation(f"{email} is not an employee", field="email", hint="use an employee's e-mail")
    if not skills:
        raise RuleViolation("list at least one skill", field="skills", hint="say what is offered or wanted")
    for other in ctx.where(Participant, cohort_id=cohort.id, email=email):
        if other.status != "withdrawn":
            raise Conflict(
                f"{email} is already a {other.role} here ({other.id})", field="email", hint="one role a cohort"
            )
    return ctx.create(
        Participant,
        cohort_id=cohort.id,
        email=email,
        name=person.name,
        job_title=person.job_title,
        role=role,
        skills=tuple(dict.fromkeys(skills)),
        capacity=capacity if role == "mentor" else 1,
    )


def _live(ctx: Ctx, mentor: Participant) -> int:
    return sum(m.status in LIVE_MATCH for m in ctx.where(Match, mentor_id=mentor.id))


def _shared(mentor: Participant, mentee: Participant) -> list[Skill]:
    return [s for s in mentee.skills if s in mentor.skills]


def _reports_to(ctx: Ctx, a: str, b: str) -> bool:
    """Whether employee ``a`` reports to ``b``."""
    chart = org_chart(ctx.population.employees)
    person = next((p for p in ctx.population.employees if p.email == a), None)
    boss = chart.manager_of(person) if person is not None else None
    return boss is not None and boss.email == b


def _can_match(ctx: Ctx, mentor: Participant, mentee: Participant) -> str | None:
    if _live(ctx, mentor) >= mentor.capacity:
        return f"{mentor.name} is at capacity ({mentor.capacity})"
    if _reports_to(ctx, mentee.email, mentor.email) or _reports_to(ctx, mentor.email, mentee.email):
        return "a manager does not mentor their own report"
    if mentor.email == mentee.email:
        return "a person does not mentor themselves"
    return None


def _example_propose(ctx: Ctx) -> dict[str, Any] | None:
    for mentee in ctx.where(Participant, role="mentee", status="approved"):
        if ctx.get(Cohort, mentee.cohort_id).status == "closed":
            continue
        if any(m.status in LIVE_MATCH for m in ctx.where(Match, mentee_id=mentee.id)):
            continue
        for mentor in ctx.where(Participant, cohort_id=mentee.cohort_id, role="mentor", status="approved"):
            if _can_match(ctx, mentor, mentee) is None:
                return {"mentor_id": mentor.id, "mentee_id": mentee.id}
    return None


@service.tool(intent="match the mentee with the mentor", write=True, example=_example_propose)
def propose_match(ctx: Ctx, mentor_id: ParticipantId, mentee_id: ParticipantId) -> Match:
    """Propose a match of two approved participants of one open cohort; the mentor accepts or declines it.

    Args:
        mentor_id: An approved mentor with a free slot.
        mentee_id: An approved mentee of the same cohort without a live match.
    """
    mentor = ctx.get(Participant, mentor_id, field="mentor_id")
    mentee = ctx.get(Participant, mentee_id, field="mentee_id")
    for p, field, role in ((mentor, "mentor_id", "mentor"), (mentee, "mentee_id", "mentee")):
        if p.role != role or p.status != "approved":
            raise RuleViolation(f"{p.id} is not an approved {role}", field=field, hint=f"pick an approved {role}")
    if mentor.cohort_id != mentee.cohort_id:
        raise RuleViolation("they are in different cohorts", field="mentee_id", hint="match within one cohort")
    cohort = ctx.get(Cohort, mentor.cohort_id)
    if cohort.status == "closed":
        raise RuleViolation(f"cohort {cohort.name!r} is closed", field="mentor_id", hint="use an open cohort")
    for m in ctx.where(Match, mentee_id=mentee.id):
        if m.status in LIVE_MATCH:
            raise Conflict(f"{mentee.name} already has match {m.id}", field="mentee_id", hint="end that match first")
    why = _can_match(ctx, mentor, mentee)
    if why is not None:
        raise RuleViolation(why, field="mentor_id", hint="see mentoring__suggest_mentors")
    shared = _shared(mentor, mentee)
    return ctx.create(
        Match,
        cohort_id=cohort.id,
        mentor_id=mentor.id,
        mentee_id=mentee.id,
        mentor_email=mentor.email,
        mentee_email=mentee.email,
        score=round(100 * len(shared) / max(1, len(mentee.skills)), 1),
    )


@service.tool(
    intent="suggest mentors for the mentee",
    example=first_example(Participant, "mentee_id", where={"role": "mentee", "status": "approved"}),
)
def suggest_mentors(ctx: Ctx, mentee_id: ParticipantId) -> list[Suggestion]:
    """Approved mentors of the mentee's cohort who could take them, best skill match first.

    Args:
        mentee_id: A mentee.
    """
    mentee = ctx.get(Participant, mentee_id, field="mentee_id")
    if mentee.role != "mentee":
        raise RuleViolation(f"{mentee.id} is a {mentee.role}", field="mentee_id", hint="pick a mentee")
    out = []
    for mentor in ctx.where(Participant, cohort_id=mentee.cohort_id, role="mentor", status="approved"):
        if _can_match(ctx, mentor, mentee) is None:
            shared = _shared(mentor, mentee)
            score = round(100 * len(shared) / max(1, len(mentee.skills)), 1)
            slots = mentor.capacity - _live(ctx, mentor)
            out.append(
                Suggestion(mentor_id=mentor.id, name=mentor.name, shared_skills=shared, score=score, open_slots=slots)
            )
    return sorted(out, key=lambda s: (-s.score, -s.open_slots, s.mentor_id))


@service.tool(
    intent="decline the mentoring match",
    write=True,
    example=first_example(Match, "match_id", where={"status": "proposed"}, reason="No time this quarter."),
)
def decline_match(ctx: Ctx, match_id: MatchId, reason: Text) -> Match:
    """The mentor declines a proposed match, with a reason.

    Args:
        match_id: A proposed match.
        reason: Why (required).
    """
    match = ctx.get(Match, match_id, field="match_id")
    if match.status != "proposed":
        raise RuleViolation(f"match {match.id} is {match.status}", field="match_id", hint="only proposed matches")
    if not reason.strip():
        raise RuleViolation("declining needs a reason", field="reason", hint="say why")
    return ctx.update(match, status="declined", end_reason=reason.strip())


def _example_meeting(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Match, status="active")
    return None if m is None else {"match_id": m.id, "held_on": ctx.today().isoformat(), "topics": "Quarter goals"}


@service.tool(intent="log the mentoring meeting", write=True, example=_example_meeting)
def log_meeting(
    ctx: Ctx,
    match_id: MatchId,
    held_on: Date,
    duration_minutes: Annotated[int, Field(ge=15, le=240)] = 45,
    topics: Text = "",
) -> Meeting:
    """Log a meeting an active match held (today or earlier, not before the cohort started).

    Args:
        match_id: An active match.
        held_on: When it was held.
        duration_minutes: How long.
        topics: What was discussed.
    """
    match = ctx.get(Match, match_id, field="match_id")
    if match.status != "active":
        raise RuleViolation(f"match {match.id} is {match.status}", field="match_id", hint="accept the match first")
    cohort = ctx.get(Cohort, match.cohort_id)
    if held_on > ctx.today() or held_on < cohort.start_date:
        raise RuleViolation(
            f"held_on must be between {cohort.start_date} and {ctx.today()}", field="held_on", hint="log past meetings"
        )
    return ctx.create(Meeting, match_id=match.id, held_on=held_on, duration_minutes=duration_minutes, topics=topics)


def _enough(ctx: Ctx, m: Match) -> bool:
    program = ctx.get(Program, ctx.get(Cohort, m.cohort_id).program_id)
    return len(ctx.where(Meeting, match_id=m.id)) >= program.min_meetings


@service.tool(
    intent="complete the mentoring match",
    write=True,
    example=first_example(Match, "match_id", where={"status": "active"}, match=_enough),
)
def complete_match(ctx: Ctx, match_id: MatchId) -> Match:
    """Complete an active match that held the program's minimum number of meetings.

    Args:
        match_id: An active match.
    """
    match = ctx.get(Match, match_id, field="match_id")
    if match.status != "active":
        raise RuleViolation(f"match {match.id} is {match.status}", field="match_id", hint="only active matches")
    program = ctx.get(Program, ctx.get(Cohort, match.cohort_id).program_id)
    held = len(ctx.where(Meeting, match_id=match.id))
    if held < program.min_meetings:
        raise RuleViolation(
            f"{held} of {program.min_meetings} meetings held",
            field="match_id",
            hint="log the meetings, or end the match early with mentoring__end_match",
        )
    return ctx.update(match, status="completed")


@service.tool(
    intent="end the mentoring match early",
    write=True,
    example=first_example(Match, "match_id", where={"status": "active"}, reason="Mentee changed teams."),
)
def end_match(ctx: Ctx, match_id: MatchId, reason: Text) -> Match:
    """End an active match before it completes, with a reason; its open goals are abandoned.

    Args:
        match_id: An active match.
        reason: Why (required).
    """
    match = ctx.get(Match, match_id, field="match_id")
    if match.status != "active":
        raise RuleViolation(f"match {match.id} is {match.status}", field="match_id", hint="only active matches")
    if not reason.strip():
        raise RuleViolation("ending needs a reason", field="reason", hint="say why")
    for g in ctx.where(Goal, match_id=match.id):
        if g.status in ("not_started", "in_progress"):
            ctx.update(g, status="abandoned")
    return ctx.update(match, status="ended", end_reason=reason.strip())


def _example_feedback(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.where(Match, status="completed"):
        given = {f.author_email for f in ctx.where(Feedback, match_id=m.id)}
        for email in (m.mentee_email, m.mentor_email):
            if email not in given:
                return {"match_id": m.id, "author_email": email, "rating": 5, "comment": "Very helpful."}
    return None


@service.tool(intent="give feedback on the mentoring match", write=True, example=_example_feedback)
def submit_feedback(ctx: Ctx, match_id: MatchId, author_email: Email, rating: Rating, comment: Text = "") -> Feedback:
    """The mentor or mentee rates a completed or ended match, once each.

    Args:
        match_id: A completed or ended match.
        author_email: The mentor's or mentee's e-mail.
        rating: 1-5.
        comment: What they say.
    """
    match = ctx.get(Match, match_id, field="match_id")
    if match.status not in ("completed", "ended"):
        raise RuleViolation(f"match {match.id} is {match.status}", field="match_id", hint="wait until it finishes")
    if author_email not in (match.mentor_email, match.mentee_email):
        raise RuleViolation(f"{author_email} is not in this match", field="author_email", hint="the mentor or mentee")
    if ctx.first(Feedback, match_id=match.id, author_email=author_email) is not None:
        raise Conflict(f"{author_email} already gave feedback", field="author_email", hint="feedback is given once")
    return ctx.create(Feedback, match_id=match.id, author_email=author_email, rating=rating, comment=comment)


@service.tool(intent="report on the cohort", example=first_example(Cohort, "cohort_id"))
def cohort_report(ctx: Ctx, cohort_id: CohortId) -> CohortReport:
    """Participants, unmatched mentees, matches by status, meetings and average rating of a cohort.

    Args:
        cohort_id: The cohort.
    """
    cohort = ctx.get(Cohort, cohort_id, field="cohort_id")
    people = ctx.where(Participant, cohort_id=cohort.id, status="approved")
    found = ctx.where(Match, cohort_id=cohort.id)
    counts: dict[MatchStatus, int] = {s: 0 for s in ("proposed", "active", "declined", "completed", "ended")}
    for m in found:
        counts[m.status] += 1
    matched = {m.mentee_id for m in found if m.status not in ("declined",)}
    ratings = [f.rating for m in found for f in ctx.where(Feedback, match_id=m.id)]
    return CohortReport(
        cohort_id=cohort.id,
        mentors=sum(p.role == "mentor" for p in people),
        mentees=sum(p.role == "mentee" for p in people),
        unmatched_mentees=sum(p.role == "mentee" and p.id not in matched for p in people),
        matches_by_status=counts,
        meetings=sum(len(ctx.where(Meeting, match_id=m.id)) for m in found),
        average_rating=round(sum(ratings) / len(ratings), 2) if ratings else None,
    )


# -- seed -------------------------------------------------------------------------------------

SKILLS_OF: dict[str, tuple[Skill, ...]] = {
    "Engineering": ("software_engineering", "data_analysis", "leadership"),
    "Sales": ("sales", "public_speaking", "career_growth"),
    "Marketing": ("product_management", "design", "public_speaking"),
    "Finance": ("finance", "data_analysis", "career_growth"),
    "People": ("people_management", "leadership", "career_growth"),
    "Support": ("public_speaking", "career_growth", "leadership"),
    "Operations": ("leadership", "finance", "people_management"),
}


@service.seeder
def seed(s: SeedContext) -> None:
    """Two programs; a closed cohort with finished matches and feedback, a running one, and one enrolling."""
    pop = s.population
    owner = pop.staff("People", fallback=1)[0].email
    today = s.now.date()
    lead = s.create(
        Program,
        name="Leadership Circles",
        description="Senior leaders mentor new managers.",
        min_meetings=4,
        owner_email=owner,
        status="active",
        created_at=s.ago(days=500),
    )
    s.create(
        Program,
        name="Women in Tech",
        description="Peer mentoring for women in engineering.",
        matching_mode="self_match",
        min_meetings=3,
        owner_email=owner,
        created_at=s.ago(days=10),
    )
    plans: tuple[tuple[str, CohortStatus, int], ...] = (
        ("Fall 2025", "closed", -200),
        ("Spring 2026", "running", -40),
        ("Fall 2026", "enrolling", 60),
        ("Winter 2025", "running", -150),
    )
    chart = org_chart(pop.employees)
    leads = [p for p in pop.employees if is_lead(p)] or list(pop.employees[:5])
    others = [p for p in pop.employees if not is_lead(p)]
    for k, (name, status, offset) in enumerate(plans):
        start = today + dt.timedelta(days=offset)
        cohort = s.create(
            Cohort,
            program_id=lead.id,
            name=name,
            start_date=start,
            end_date=start + dt.timedelta(days=150),
            status=status,
            created_at=s.ago(days=max(1, 30 - offset)),
        )
        mentors = [
            s.create(
                Participant,
                cohort_id=cohort.id,
                email=p.email,
                name=p.name,
                job_title=p.job_title,
                role="mentor",
                skills=SKILLS_OF.get(p.department or "Operations", ()),
                capacity=2,
                status="approved",
            )
            for p in leads[k : k + 4]
        ]
        mentees = [
            s.create(
                Participant,
                cohort_id=cohort.id,
                email=p.email,
                name=p.name,
                job_title=p.job_title,
                role="mentee",
                skills=SKILLS_OF.get(p.department or "Operations", ())[1:],
                status="applied" if n == 5 else "approved",
            )
            for n, p in enumerate(others[6 * k : 6 * k + 6])
        ]
        used: dict[str, int] = {}
        for n, mentee in enumerate(mentees[:4]):
            mentor = next(
                (
                    m
                    for m in mentors
                    if used.get(m.id, 0) < m.capacity and not _seed_reports(chart, pop, mentee.email, m.email)
                ),
                None,
            )
            if mentor is None:
                continue
            used[mentor.id] = used.get(mentor.id, 0) + 1
            mstatus: MatchStatus = (
                ("completed" if n < 3 else "ended")
                if status == "closed" or offset < -100
                else ("active", "active", "proposed", "active")[n]
                if status == "running"
                else ("active", "proposed", "proposed", "proposed")[n]
            )
            shared = _shared(mentor, mentee)
            match = s.create(
                Match,
                cohort_id=cohort.id,
                mentor_id=mentor.id,
                mentee_id=mentee.id,
                mentor_email=mentor.email,
                mentee_email=mentee.email,
                score=round(100 * len(shared) / max(1, len(mentee.skills)), 1),
                status=mstatus,
                end_reason="Mentor left the company." if mstatus == "ended" else None,
            )
            held = 4 if mstatus == "completed" else (0 if mstatus == "proposed" or status == "enrolling" else n + 2)
            for w in range(held):
                held_on = min(today, start + dt.timedelta(days=7 + 10 * w))
                s.create(Meeting, match_id=match.id, held_on=held_on, topics="Check-in")
            if mstatus in ("active", "completed"):
                s.create(
                    Goal,
                    match_id=match.id,
                    title="Run a team retrospective",
                    progress=100.0 if mstatus == "completed" else 40.0,
                    status="achieved" if mstatus == "completed" else "in_progress",
                    due_date=start + dt.timedelta(days=90),
                )
            if mstatus == "completed" and n < 2:
                s.create(
                    Feedback, match_id=match.id, author_email=mentee.email, rating=4 + n % 2, comment="Great guidance."
                )


def _seed_reports(chart: Any, pop: Any, a: str, b: str) -> bool:
    by = {p.email: p for p in pop.employees}
    boss = chart.manager_of(by[a])
    other = chart.manager_of(by[b])
    return (boss is not None and boss.email == b) or (other is not None and other.email == a)
