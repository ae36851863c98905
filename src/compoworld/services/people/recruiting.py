"""Talentry Recruiting: jobs with openings, candidates, applications, interviews, scorecards and offers.

Modeled on the Greenhouse Harvest API (Job, Opening, Candidate, Application,
ScheduledInterview, Scorecard, Offer): an application moves forward through its
job's interview plan one stage at a time unless it is rejected, an offer needs
at least one submitted scorecard and a salary inside the job's range, hiring
fills one of the job's openings, and a closed job takes no new applications.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Currency,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    JobTitle,
    LastName,
    MeetingLink,
    Phone,
    Text,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.time import iso_z, utc_at

__all__ = ["service"]

service = Service(
    "recruiting",
    title="Talentry Recruiting",
    category="recruiting",
    modeled_on="Greenhouse Harvest API v1 (Job, Opening, Candidate, Application, ScheduledInterview, Scorecard, Offer)",
    description="Applicant tracking: open jobs and their openings, candidates and their applications moving "
    "through each job's interview plan, interviews, scorecards, offers and hires.",
)

JobId = Annotated[str, IdOf("recruiting.job")]
OpeningId = Annotated[str, IdOf("recruiting.opening")]
CandidateId = Annotated[str, IdOf("recruiting.candidate")]
ApplicationId = Annotated[str, IdOf("recruiting.application")]
InterviewId = Annotated[str, IdOf("recruiting.interview")]
ScorecardId = Annotated[str, IdOf("recruiting.scorecard")]
OfferId = Annotated[str, IdOf("recruiting.offer")]
Recommendation = Literal["definitely_not", "no", "yes", "strong_yes"]
Source = Literal["careers_page", "referral", "linkedin", "agency", "event"]
OfferStatus = Literal["sent", "accepted", "declined", "rescinded"]

DEFAULT_STAGES: tuple[str, ...] = ("application_review", "phone_screen", "technical_interview", "onsite", "offer")


class Job(Record):
    """A job the company hires for, with an interview plan of ordered stages."""

    id: JobId
    requisition_id: Annotated[str, Generated("sequence", "REQ-{n:04d}")]
    """Human requisition number of the job."""
    name: JobTitle
    """Job title as advertised."""
    department: Literal["Engineering", "Sales", "Support", "Finance", "People", "Operations", "Marketing"]
    """Department the job belongs to."""
    status: Literal["draft", "open", "closed"] = "open"
    """Draft jobs are not yet posted; closed jobs take no applications."""
    hiring_manager_email: Email
    """E-mail of the hiring manager (an employee)."""
    recruiter_email: Email
    """E-mail of the recruiter (an employee of the People team)."""
    stages: list[Annotated[str, Field(pattern=r"^[a-z][a-z_]{1,40}$")]] = Field(
        default_factory=lambda: list(DEFAULT_STAGES), min_length=2, max_length=10
    )
    """Interview plan: the ordered stage names an application moves through (snake_case)."""
    salary_min: Cents
    """Lowest annual base salary offered, in cents."""
    salary_max: Cents
    """Highest annual base salary offered, in cents."""
    currency: Currency = "USD"
    """Currency of the salary range."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the job last changed."""


class Opening(Created):
    """One head-count slot of a job; hiring a candidate fills (closes) it."""

    id: OpeningId
    job_id: JobId
    """The job the opening belongs to."""
    status: Literal["open", "closed"] = "open"
    """Open until filled or cancelled."""
    target_start_date: Date | None = None
    """When the hire should start."""
    close_reason: Literal["hired", "cancelled"] | None = None
    """Why the opening closed."""
    hired_application_id: ApplicationId | None = None
    """The application that filled the opening."""


class Candidate(Record):
    """A person who applies or is sourced for jobs."""

    id: CandidateId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """Personal e-mail address."""
    phone: Phone | None = None
    """Phone number."""
    current_title: Text = ""
    """Current job title, free text."""
    tags: list[Annotated[str, Field(max_length=40)]] = Field(default_factory=list, max_length=10)
    """Free-form tags."""
    created_at: Annotated[DateTime, CREATED]
    """When the candidate was added."""


class Application(Record):
    """A candidate's application to one job, at one stage of its interview plan."""

    id: ApplicationId
    candidate_id: CandidateId
    """The applicant."""
    job_id: JobId
    """The job applied to."""
    stage: str
    """Current stage, one of the job's stages."""
    status: Literal["active", "rejected", "hired"] = "active"
    """Rejected and hired applications are final."""
    source: Source = "careers_page"
    """Where the application came from."""
    rejection_reason: Text | None = None
    """Why the application was rejected."""
    applied_at: Annotated[DateTime, CREATED]
    """When the candidate applied."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the application last changed."""


class Interview(Record):
    """An interview scheduled for an application."""

    id: InterviewId
    application_id: ApplicationId
    """The application interviewed for."""
    interviewer_email: Email
    """E-mail of the interviewing employee."""
    stage: str
    """Stage of the interview plan the interview belongs to."""
    start: DateTime
    """Start time."""
    end: DateTime
    """End time."""
    meeting_link: MeetingLink | None = None
    """Video call link, if remote."""
    status: Literal["scheduled", "completed", "cancelled"] = "scheduled"
    """Interview status."""


class Scorecard(Record):
    """An interviewer's written assessment of a candidate."""

    id: ScorecardId
    application_id: ApplicationId
    """The application assessed."""
    interviewer_email: Email
    """E-mail of the interviewer who wrote it."""
    stage: str
    """Stage the assessment is for."""
    overall_recommendation: Recommendation
    """Overall hiring recommendation."""
    notes: Text = ""
    """Key take-aways."""
    submitted_at: Annotated[DateTime, CREATED]
    """When it was submitted."""


class Offer(Record):
    """A job offer extended to an applicant."""

    id: OfferId
    application_id: ApplicationId
    """The application the offer is for."""
    salary: Cents
    """Annual base salary in cents; must lie in the job's range."""
    currency: Currency
    """Currency of the salary."""
    start_date: Date
    """Proposed start date."""
    status: OfferStatus = "sent"
    """Offer status; accepted, declined and rescinded offers are final."""
    created_at: Annotated[DateTime, CREATED]
    """When the offer was made."""


def _name(c: Candidate) -> str:
    return f"{c.first_name} {c.last_name}"


def _guard_job(ctx: Ctx, new: Any, old: Any) -> None:
    if new.salary_min > new.salary_max:
        raise RuleViolation(
            f"salary_min {new.salary_min} is above salary_max {new.salary_max}",
            field="salary_min",
            hint="give a salary range whose minimum is at most its maximum",
        )
    if len(set(new.stages)) != len(new.stages):
        raise RuleViolation("stage names must be unique", field="stages", hint="name every stage differently")
    if old is not None and old.stages != new.stages:
        used = {a.stage for a in ctx.where(Application, job_id=new.id, status="active")}
        missing = sorted(used - set(new.stages))
        if missing:
            raise RuleViolation(
                f"active applications are at stages {missing} that the new plan drops",
                field="stages",
                hint="keep those stages or move the applications first",
            )


def _guard_candidate_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Application, candidate_id=old.id) is not None:
        raise RuleViolation(
            f"candidate {old.id} has applications and cannot be deleted",
            field="candidate_id",
            hint="reject the candidate's applications instead; their history must stay",
        )


def _guard_opening(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        job = ctx.get(Job, new.job_id, field="job_id")
        if job.status == "closed":
            raise RuleViolation(
                f"job {job.id} is closed; it takes no new openings",
                field="job_id",
                hint="reopen the job with recruiting__reopen_job first",
            )
    elif old.status == "closed" and new.target_start_date != old.target_start_date:
        raise RuleViolation(f"opening {old.id} is closed", field="opening_id", hint="closed openings cannot be edited")


def _guard_interview(ctx: Ctx, new: Any, old: Any) -> None:
    if new.end <= new.start:
        raise RuleViolation("an interview must end after it starts", field="end", hint="give an end after the start")
    if old is None:
        app = ctx.get(Application, new.application_id, field="application_id")
        if app.status != "active":
            raise RuleViolation(
                f"application {app.id} is {app.status}; interviews are only for active applications",
                field="application_id",
                hint="pick an active application",
            )
        job = ctx.get(Job, app.job_id)
        if new.stage not in job.stages:
            raise RuleViolation(
                f"{new.stage!r} is not a stage of job {job.id}",
                field="stage",
                hint=f"use one of {', '.join(job.stages)}",
            )
    if new.status != "scheduled":
        return
    for other in ctx.where(Interview, interviewer_email=new.interviewer_email, status="scheduled"):
        if other.id != new.id and other.start < new.end and new.start < other.end:
            raise Conflict(
                f"{new.interviewer_email} already interviews at that time ({other.id})",
                field="start",
                hint="pick a time that does not overlap the interviewer's other interviews",
            )


jobs = service.resource(
    Job,
    name="job",
    plural="jobs",
    prefix="job",
    create=(
        "name",
        "department",
        "status",
        "hiring_manager_email",
        "recruiter_email",
        "stages",
        "salary_min",
        "salary_max",
        "currency",
    ),
    filters=("status", "department", "hiring_manager_email", "recruiter_email", "requisition_id"),
    search=("name", "requisition_id"),
    update=("name", "hiring_manager_email", "recruiter_email", "stages", "salary_min", "salary_max"),
    delete=False,
    transitions={
        "open": Transition("status", ("draft",), "open", "post the job", "Post a draft job so it takes applications."),
        "close": Transition(
            "status", ("draft", "open"), "closed", "close the job", "Close a job: it takes no new applications."
        ),
        "reopen": Transition("status", ("closed",), "open", "reopen the job", "Reopen a closed job."),
    },
    guard_create=_guard_job,
    guard_update=_guard_job,
)
openings = service.resource(
    Opening,
    name="opening",
    plural="openings",
    prefix="opn",
    create=("job_id", "target_start_date"),
    filters=("job_id", "status", "close_reason"),
    update=("target_start_date",),
    delete=False,
    guard_create=_guard_opening,
    guard_update=_guard_opening,
)
candidates = service.resource(
    Candidate,
    name="candidate",
    plural="candidates",
    prefix="cand",
    create=("first_name", "last_name", "email", "phone", "current_title", "tags"),
    filters=("email", "last_name"),
    search=("first_name", "last_name", "email", "current_title"),
    update=("first_name", "last_name", "email", "phone", "current_title", "tags"),
    unique=("email",),
    guard_delete=_guard_candidate_delete,
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=False,
    filters=("candidate_id", "job_id", "stage", "status", "source"),
    delete=False,
)
interviews = service.resource(
    Interview,
    name="interview",
    plural="interviews",
    prefix="int",
    create=False,
    filters=("application_id", "interviewer_email", "status", "stage"),
    update=("start", "end", "meeting_link"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("scheduled",), "cancelled", "cancel the interview"),
        "complete": Transition("status", ("scheduled",), "completed", "mark the interview held"),
    },
    guard_update=_guard_interview,
)
scorecards = service.resource(
    Scorecard,
    name="scorecard",
    plural="scorecards",
    prefix="sc",
    create=False,
    filters=("application_id", "interviewer_email", "overall_recommendation"),
    delete=False,
)
offers = service.resource(
    Offer,
    name="offer",
    plural="offers",
    prefix="off",
    create=False,
    filters=("application_id", "status"),
    delete=False,
    transitions={
        "rescind": Transition("status", ("sent",), "rescinded", "withdraw the offer", destructive=True),
        "decline": Transition("status", ("sent",), "declined", "record that the candidate declined the offer"),
    },
)


def _active_application(ctx: Ctx, application_id: str) -> Application:
    app = ctx.get(Application, application_id, field="application_id")
    if app.status != "active":
        raise RuleViolation(
            f"application {app.id} is {app.status}, which is final",
            field="application_id",
            hint="only active applications can change; the candidate can apply again to another job",
        )
    return app


# -- examples ---------------------------------------------------------------------------------


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    for job in ctx.where(Job, status="open"):
        applied = {a.candidate_id for a in ctx.where(Application, job_id=job.id)}
        for cand in ctx.scan(Candidate):
            if cand.id not in applied:
                return {"candidate_id": cand.id, "job_id": job.id, "source": "referral"}
    return None


def _example_advance(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="active"):
        job = ctx.get(Job, app.job_id)
        i = job.stages.index(app.stage)
        if i + 1 < len(job.stages):
            return {"application_id": app.id, "to_stage": job.stages[i + 1]}
    return None


def _example_scorecard(ctx: Ctx) -> dict[str, Any] | None:
    app = ctx.first(Application, status="active")
    if app is None:
        return None
    job = ctx.get(Job, app.job_id)
    return {
        "application_id": app.id,
        "interviewer_email": job.hiring_manager_email,
        "overall_recommendation": "yes",
        "notes": "Clear communicator.",
    }


def _offerable(ctx: Ctx) -> tuple[Application, Job] | None:
    for app in ctx.where(Application, status="active"):
        if ctx.first(Scorecard, application_id=app.id) is None:
            continue
        if ctx.first(Offer, application_id=app.id, status="sent") is not None:
            continue
        return app, ctx.get(Job, app.job_id)
    return None


def _example_offer(ctx: Ctx) -> dict[str, Any] | None:
    found = _offerable(ctx)
    if found is None:
        return None
    app, job = found
    return {
        "application_id": app.id,
        "salary": (job.salary_min + job.salary_max) // 2,
        "start_date": (ctx.today() + dt.timedelta(days=30)).isoformat(),
    }


def _example_hire(ctx: Ctx) -> dict[str, Any] | None:
    for offer in ctx.where(Offer, status="sent"):
        app = ctx.get(Application, offer.application_id)
        if app.status == "active" and ctx.first(Opening, job_id=app.job_id, status="open") is not None:
            return {"offer_id": offer.id}
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="submit the candidate's application to the job", write=True, example=_example_apply)
def apply_to_job(ctx: Ctx, candidate_id: CandidateId, job_id: JobId, source: Source = "careers_page") -> Application:
    """Add an application of a candidate to a job, at the first stage of its interview plan.

    Closed and draft jobs take no applications, and a candidate can have only
    one active application per job.

    Args:
        candidate_id: The candidate applying.
        job_id: The job applied to.
        source: Where the application came from.
    """
    cand = ctx.get(Candidate, candidate_id, field="candidate_id")
    job = ctx.get(Job, job_id, field="job_id")
    if job.status != "open":
        raise RuleViolation(
            f"job {job.id} ({job.name}) is {job.status} and accepts no applications",
            field="job_id",
            hint="apply to an open job (recruiting__list_jobs with status=open)",
        )
    for other in ctx.where(Application, candidate_id=cand.id, job_id=job.id):
        if other.status == "active":
            raise Conflict(
                f"{_name(cand)} already has an active application to this job ({other.id})",
                field="candidate_id",
                hint="move the existing application forward instead",
            )
    return ctx.create(Application, candidate_id=cand.id, job_id=job.id, stage=job.stages[0], source=source)


@service.tool(intent="move the application to the next interview stage", write=True, example=_example_advance)
def advance_application(ctx: Ctx, application_id: ApplicationId, to_stage: str | None = None) -> Application:
    """Move an active application forward in its job's interview plan.

    Applications only move forward (to a later stage, skipping allowed); to
    take a candidate out of the process, reject the application.

    Args:
        application_id: The application.
        to_stage: The later stage to move to; omit for the next stage.
    """
    app = _active_application(ctx, application_id)
    job = ctx.get(Job, app.job_id)
    here = job.stages.index(app.stage) if app.stage in job.stages else 0
    if to_stage is None:
        if here + 1 >= len(job.stages):
            raise RuleViolation(
                f"application {app.id} is at the last stage ({app.stage})",
                field="application_id",
                hint="make an offer with recruiting__create_offer",
            )
        to_stage = job.stages[here + 1]
    if to_stage not in job.stages:
        raise RuleViolation(
            f"{to_stage!r} is not a stage of job {job.id}",
            field="to_stage",
            hint=f"use one of {', '.join(job.stages)}",
        )
    if job.stages.index(to_stage) <= here:
        raise RuleViolation(
            f"application {app.id} is at {app.stage}; applications only move forward",
            field="to_stage",
            hint=f"pick a stage after {app.stage}, or reject the application",
        )
    return ctx.update(app, stage=to_stage)


@service.tool(
    intent="reject the candidate's application",
    write=True,
    destructive=True,
    example=first_example(
        Application, "application_id", where={"status": "active"}, reason="Position needs more experience"
    ),
)
def reject_application(ctx: Ctx, application_id: ApplicationId, reason: Text) -> Application:
    """Reject an active application, with a reason; open offers for it are rescinded.

    Args:
        application_id: The application.
        reason: Why the candidate is rejected.
    """
    app = _active_application(ctx, application_id)
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="say why the candidate is rejected")
    for offer in ctx.where(Offer, application_id=app.id, status="sent"):
        ctx.update(offer, status="rescinded")
    for interview in ctx.where(Interview, application_id=app.id, status="scheduled"):
        ctx.update(interview, status="cancelled")
    return ctx.update(app, status="rejected", rejection_reason=reason.strip())


@service.tool(intent="submit an interview scorecard", write=True, example=_example_scorecard)
def submit_scorecard(
    ctx: Ctx,
    application_id: ApplicationId,
    interviewer_email: Email,
    overall_recommendation: Recommendation,
    notes: Text = "",
) -> Scorecard:
    """Submit an interviewer's scorecard for an active application at its current stage.

    An interviewer submits at most one scorecard per application and stage.

    Args:
        application_id: The application assessed.
        interviewer_email: E-mail of the interviewer.
        overall_recommendation: Overall recommendation.
        notes: Key take-aways.
    """
    app = _active_application(ctx, application_id)
    for sc in ctx.where(Scorecard, application_id=app.id, interviewer_email=interviewer_email):
        if sc.stage == app.stage:
            raise Conflict(
                f"{interviewer_email} already submitted a scorecard for stage {app.stage} ({sc.id})",
                field="interviewer_email",
                hint="each interviewer submits one scorecard per stage",
            )
    return ctx.create(
        Scorecard,
        application_id=app.id,
        interviewer_email=interviewer_email,
        stage=app.stage,
        overall_recommendation=overall_recommendation,
        notes=notes,
    )


@service.tool(intent="make the candidate an offer", write=True, example=_example_offer)
def create_offer(
    ctx: Ctx,
    application_id: ApplicationId,
    salary: Cents,
    start_date: Date,
) -> Offer:
    """Extend an offer on an active application; it moves to the job's last stage.

    The application needs at least one submitted scorecard, the salary must lie
    within the job's salary range, the start date must not be in the past, and
    there can be only one outstanding offer per application.

    Args:
        application_id: The application.
        salary: Annual base salary in cents, within the job's range.
        start_date: Proposed start date.
    """
    app = _active_application(ctx, application_id)
    job = ctx.get(Job, app.job_id)
    if ctx.first(Scorecard, application_id=app.id) is None:
        raise RuleViolation(
            f"application {app.id} has no scorecard; an offer needs at least one",
            field="application_id",
            hint="have an interviewer submit a scorecard with recruiting__submit_scorecard first",
        )
    if not job.salary_min <= salary <= job.salary_max:
        raise RuleViolation(
            f"salary {salary} is outside the job's range {job.salary_min}-{job.salary_max} {job.currency}",
            field="salary",
            hint="offer a salary within the range, or widen the job's range first",
        )
    if start_date < ctx.today():
        raise RuleViolation("the start date is in the past", field="start_date", hint="pick a future start date")
    existing = ctx.first(Offer, application_id=app.id, status="sent")
    if existing is not None:
        raise Conflict(
            f"application {app.id} already has an outstanding offer ({existing.id})",
            field="application_id",
            hint="rescind the outstanding offer before making a new one",
        )
    if app.stage != job.stages[-1]:
        ctx.update(app, stage=job.stages[-1])
    return ctx.create(
        Offer, application_id=app.id, salary=salary, currency=job.currency, start_date=start_date, status="sent"
    )


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    app = ctx.first(Application, status="active")
    if app is None:
        return None
    job = ctx.get(Job, app.job_id)
    start = utc_at(ctx.today() + dt.timedelta(days=21), 15)
    return {
        "application_id": app.id,
        "interviewer_email": job.hiring_manager_email,
        "start": iso_z(start),
        "duration_minutes": 45,
    }


@service.tool(intent="schedule an interview with the candidate", write=True, example=_example_schedule)
def schedule_interview(
    ctx: Ctx,
    application_id: ApplicationId,
    interviewer_email: Email,
    start: DateTime,
    duration_minutes: Annotated[int, Field(ge=15, le=480)] = 60,
    meeting_link: MeetingLink | None = None,
) -> Interview:
    """Schedule an interview for an active application at its current stage.

    The start must be in the future and the interviewer must not have another
    scheduled interview overlapping it.

    Args:
        application_id: The application (must be active).
        interviewer_email: E-mail of the interviewing employee.
        start: Start time.
        duration_minutes: Length in minutes (15 to 480).
        meeting_link: Video call link, if remote.
    """
    app = _active_application(ctx, application_id)
    if start <= ctx.now():
        raise RuleViolation("an interview cannot start in the past", field="start", hint="pick a future start time")
    interview = ctx.create(
        Interview,
        application_id=app.id,
        interviewer_email=interviewer_email,
        stage=app.stage,
        start=start,
        end=start + dt.timedelta(minutes=duration_minutes),
        meeting_link=meeting_link,
    )
    _guard_interview(ctx, interview, None)
    return interview


class Hire(BaseModel):
    """What hiring a candidate changed."""

    offer: Offer = Field(description="The accepted offer.")
    application: Application = Field(description="The hired application.")
    opening: Opening = Field(description="The opening it filled, now closed.")
    job: Job = Field(description="The job; closed when no opening is left.")


@service.tool(intent="hire the candidate on the accepted offer", write=True, destructive=True, example=_example_hire)
def hire_candidate(ctx: Ctx, offer_id: OfferId, opening_id: OpeningId | None = None) -> Hire:
    """Record that the candidate accepted an offer: the application is hired and fills an opening.

    Hiring closes one open opening of the job (the given one or the first);
    when no opening is left the job closes. A job without an open opening
    cannot hire.

    Args:
        offer_id: The outstanding offer the candidate accepted.
        opening_id: The opening to fill; omit for the job's first open opening.
    """
    offer = ctx.get(Offer, offer_id, field="offer_id")
    if offer.status != "sent":
        raise RuleViolation(
            f"offer {offer.id} is {offer.status}", field="offer_id", hint="only an outstanding (sent) offer is accepted"
        )
    app = ctx.get(Application, offer.application_id)
    if app.status != "active":
        raise RuleViolation(f"application {app.id} is {app.status}", field="offer_id", hint="pick another offer")
    job = ctx.get(Job, app.job_id)
    if opening_id is not None:
        opening = ctx.get(Opening, opening_id, field="opening_id")
        if opening.job_id != job.id or opening.status != "open":
            raise RuleViolation(
                f"opening {opening.id} is not an open opening of job {job.id}",
                field="opening_id",
                hint="list the job's open openings with recruiting__list_openings",
            )
    else:
        found = ctx.first(Opening, job_id=job.id, status="open")
        if found is None:
            raise RuleViolation(
                f"job {job.id} has no open opening left to fill",
                field="offer_id",
                hint="add an opening to the job with recruiting__create_opening first",
            )
        opening = found
    offer = ctx.update(offer, status="accepted")
    app = ctx.update(app, status="hired")
    opening = ctx.update(opening, status="closed", close_reason="hired", hired_application_id=app.id)
    if ctx.first(Opening, job_id=job.id, status="open") is None and job.status != "closed":
        job = ctx.update(job, status="closed")
    return Hire(offer=offer, application=app, opening=opening, job=job)


class StageCount(BaseModel):
    """How many active applications sit at one stage."""

    stage: str = Field(description="Stage name.")
    active: int = Field(description="Active applications at the stage.")


class JobPipeline(BaseModel):
    """A job's hiring funnel."""

    job_id: JobId = Field(description="The job.")
    stages: list[StageCount] = Field(description="Active applications per stage, in plan order.")
    rejected: int = Field(description="Rejected applications.")
    hired: int = Field(description="Hired applications.")
    open_openings: int = Field(description="Openings still to fill.")


@service.tool(intent="show the job's hiring pipeline")
def job_pipeline(ctx: Ctx, job_id: JobId) -> JobPipeline:
    """Count a job's applications per stage and status, and its openings left.

    Args:
        job_id: The job.
    """
    job = ctx.get(Job, job_id, field="job_id")
    apps = ctx.where(Application, job_id=job.id)
    return JobPipeline(
        job_id=job.id,
        stages=[
            StageCount(stage=st, active=sum(1 for a in apps if a.status == "active" and a.stage == st))
            for st in job.stages
        ],
        rejected=sum(1 for a in apps if a.status == "rejected"),
        hired=sum(1 for a in apps if a.status == "hired"),
        open_openings=len(ctx.where(Opening, job_id=job.id, status="open")),
    )


@service.tool(intent="find the candidate with this e-mail address")
def find_candidate_by_email(ctx: Ctx, email: Email) -> Candidate:
    """Find the candidate whose e-mail is the given address.

    Args:
        email: The e-mail address.
    """
    found = ctx.first(Candidate, email=email)
    if found is None:
        raise NotFound(
            f"no candidate with e-mail {email}",
            field="email",
            hint="search candidates by name with recruiting__list_candidates",
        )
    return found


# -- seed -------------------------------------------------------------------------------------

SALARY_BANDS: dict[str, tuple[int, int]] = {
    "Engineering": (95_000, 165_000),
    "Sales": (60_000, 110_000),
    "Support": (45_000, 70_000),
    "Finance": (65_000, 115_000),
    "People": (55_000, 95_000),
    "Operations": (50_000, 85_000),
    "Marketing": (58_000, 100_000),
}


JOBS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Engineering", ("Senior Software Engineer", "Site Reliability Engineer", "QA Engineer")),
    ("Sales", ("Account Executive", "Sales Development Representative")),
    ("Support", ("Support Specialist",)),
    ("Finance", ("Accountant",)),
    ("People", ("Recruiter",)),
    ("Operations", ("Logistics Coordinator",)),
    ("Marketing", ("Content Strategist", "Growth Analyst")),
)
"""The jobs seeded in each department."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Jobs across departments run by People recruiters, consumers as candidates, pipelines in every state."""
    jobs, open_slots = _seed_jobs(s)
    candidates = _seed_candidates(s)
    open_jobs = [j for j in jobs if j.status == "open"]
    closed_jobs = [j for j in jobs if j.status == "closed"]
    for i, cand in enumerate(candidates):
        if i % 6 == 5:
            continue  # sourced candidates who have not applied anywhere yet
        pool = closed_jobs if closed_jobs and i % 9 == 8 else open_jobs
        job = pool[i % len(pool)]
        _seed_application(s, i, cand, job, open_slots.get(job.id, []))


def _seed_jobs(s: SeedContext) -> tuple[list[Job], dict[str, list[Opening]]]:
    """The jobs of :data:`JOBS`, most open, with two to four openings each.

    Returns:
        The jobs, and the open openings by job id.
    """
    recruiters = s.population.staff("People")
    currency = s.population.home.place.currency
    jobs: list[Job] = []
    open_slots: dict[str, list[Opening]] = {}
    n = 0
    for dept, titles in JOBS:
        managers = s.population.staff(dept)
        lo, hi = SALARY_BANDS[dept]
        for title in titles:
            status = "open" if n % 6 not in (4, 5) else ("closed" if n % 6 == 4 else "draft")
            stages = list(DEFAULT_STAGES) if dept == "Engineering" else ["application_review", "interview", "offer"]
            job = s.create(
                Job,
                name=title,
                department=dept,
                status=status,
                hiring_manager_email=managers[n % len(managers)].email,
                recruiter_email=recruiters[n % len(recruiters)].email,
                stages=stages,
                salary_min=lo * 100,
                salary_max=hi * 100,
                currency=currency,
            )
            jobs.append(job)
            for k in range(2 + n % 3):
                slot = s.create(
                    Opening,
                    job_id=job.id,
                    status="closed" if status == "closed" else "open",
                    close_reason="cancelled" if status == "closed" else None,
                    target_start_date=s.now.date() + dt.timedelta(days=30 + 15 * k),
                )
                if slot.status == "open":
                    open_slots.setdefault(job.id, []).append(slot)
            n += 1
    return jobs, open_slots


def _seed_candidates(s: SeedContext) -> list[Candidate]:
    """Two in three consumers (at least eight) as candidates."""
    consumers = s.population.consumers
    return [
        s.create(
            Candidate,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            current_title=s.rng.choice(("Analyst", "Engineer", "Coordinator", "Consultant", "Specialist")),
        )
        for p in consumers[: max(8, len(consumers) * 2 // 3)]
    ]


def _seed_application(s: SeedContext, i: int, cand: Candidate, job: Job, open_slots: list[Opening]) -> None:
    """The ``i``-th candidate's application to ``job``: rejected, hired into an open slot, or active at a stage.

    A hire takes (and closes) the first of ``open_slots``; a job keeps one open
    slot at least, else the candidate stays active.
    """
    sources: tuple[Source, ...] = ("careers_page", "referral", "linkedin", "agency", "event")
    fate = i % 7
    stage_i = min(len(job.stages) - 1, i % len(job.stages))
    if fate == 0:
        status = "rejected"
    elif fate == 1 and len(open_slots) > 1:
        status = "hired"
        stage_i = len(job.stages) - 1
    else:
        status = "active"
        if stage_i == len(job.stages) - 1:
            stage_i -= 1
    app = s.create(
        Application,
        candidate_id=cand.id,
        job_id=job.id,
        stage=job.stages[stage_i],
        status=status,
        source=sources[i % len(sources)],
        rejection_reason="Not enough relevant experience" if status == "rejected" else None,
        applied_at=s.ago(days=5 + i % 40),
        updated_at=s.ago(days=i % 5),
    )
    if status == "hired":
        slot = open_slots.pop(0)
        s.update(slot, status="closed", close_reason="hired", hired_application_id=app.id)
    _seed_interviews(s, i, app, job, stage_i)
    _seed_offer(s, i, app, job, stage_i)


def _seed_interviews(s: SeedContext, i: int, app: Application, job: Job, stage_i: int) -> None:
    """Past the first stage: an interview two days ago and the scorecard of the stage before; soon: another."""
    if stage_i >= 1:
        s.create(
            Interview,
            application_id=app.id,
            interviewer_email=job.hiring_manager_email,
            stage=job.stages[stage_i],
            start=s.ago(days=2 + i % 4, hours=-(i % 6)),
            end=s.ago(days=2 + i % 4, hours=-(i % 6) - 1),
            status="completed",
        )
        s.create(
            Scorecard,
            application_id=app.id,
            interviewer_email=job.hiring_manager_email,
            stage=job.stages[stage_i - 1],
            overall_recommendation=("strong_yes", "yes", "no", "definitely_not")[i % 4]
            if app.status != "hired"
            else "strong_yes",
            notes="Solid fundamentals." if i % 2 else "Needs more depth in the core area.",
            submitted_at=s.ago(days=1 + i % 3),
        )
    if app.status == "active" and i % 5 == 2:
        s.create(
            Interview,
            application_id=app.id,
            interviewer_email=job.recruiter_email,
            stage=job.stages[stage_i],
            start=s.now + dt.timedelta(days=1 + i % 9, hours=i % 7),
            end=s.now + dt.timedelta(days=1 + i % 9, hours=i % 7, minutes=45),
            meeting_link=f"https://meet.example.com/int-{app.id}",
        )


def _seed_offer(s: SeedContext, i: int, app: Application, job: Job, stage_i: int) -> None:
    """The offer at mid-band: accepted by a hire, out (or declined) for some, rescinded for the rejected."""
    if app.status == "hired":
        status: OfferStatus = "accepted"
    elif app.status == "active" and stage_i >= 1 and i % 2 == 1:
        status = ("sent", "declined", "sent")[i % 3]
    elif app.status == "rejected" and stage_i >= 1:
        status = "rescinded"
    else:
        return
    s.create(
        Offer,
        application_id=app.id,
        salary=(job.salary_min + job.salary_max) // 2,
        currency=job.currency,
        start_date=s.now.date() + dt.timedelta(days=30),
        status=status,
    )
