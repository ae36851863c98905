"""Openroles Jobs: employers, job postings with sponsorship budgets and expiry, job seekers and applications.

Modeled on the Indeed Job Sync / Sponsored Jobs APIs and the LinkedIn Job
Posting API (employer accounts, postings published for a limited time,
sponsored campaigns with daily and total budgets, Indeed Apply applications
with employer dispositions): a draft is published with a valid salary range
for at most 60 days, extended 30 days at a time up to 120 days after posting;
only verified employers sponsor postings, at no less than the minimum daily
budget, and the remaining budget of an employer's sponsored postings may not
pass its monthly cap; postings past their expiry date take no applications
and are swept to expired; a seeker applies once per posting, with a resume
where required; applications move submitted → viewed → shortlisted → hired,
may be rejected until hired, and withdrawn by the seeker.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Domain,
    Email,
    FileLink,
    IdOf,
    JobTitle,
    PersonName,
    Phone,
    Quantity,
    Text,
)
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "jobboard",
    title="Openroles Jobs",
    category="recruiting",
    modeled_on="Indeed Job Sync & Sponsored Jobs APIs / LinkedIn Job Posting API (employers, postings with "
    "expiry, sponsored budgets, Indeed Apply applications and dispositions)",
    description="A public job board: employer accounts, job postings published for a limited time and optionally "
    "sponsored with daily and total budgets, job seekers, and their applications with the employer's "
    "disposition.",
)

EmployerId = Annotated[str, IdOf("jobboard.employer")]
PostingId = Annotated[str, IdOf("jobboard.posting")]
SeekerId = Annotated[str, IdOf("jobboard.job_seeker")]
ApplicationId = Annotated[str, IdOf("jobboard.application")]
PostingStatus = Literal["draft", "active", "paused", "expired", "closed"]
Workplace = Literal["onsite", "hybrid", "remote"]
EmploymentType = Literal["full_time", "part_time", "contract", "internship"]
AppStatus = Literal["submitted", "viewed", "shortlisted", "hired", "rejected", "withdrawn"]
PUBLISH_DAYS = 60
EXTEND_DAYS = 30
MAX_LIFETIME_DAYS = 120
MIN_DAILY_BUDGET = 500
NEXT_STATUS: dict[str, tuple[str, ...]] = {
    "submitted": ("viewed", "rejected"),
    "viewed": ("shortlisted", "rejected"),
    "shortlisted": ("hired", "rejected"),
}
FINAL: tuple[str, ...] = ("hired", "rejected", "withdrawn")


class Employer(Record):
    """A company that posts jobs on the board."""

    id: EmployerId
    name: CompanyName
    """Company name; unique."""
    domain: Domain | None = None
    """Company web domain."""
    industry: Text = ""
    """Industry, free text."""
    headquarters: City
    """City of the head office."""
    country: Country
    """Country of the head office."""
    verified: bool = False
    """Whether the board verified the employer; only verified employers sponsor postings."""
    currency: Currency
    """Currency budgets are billed in."""
    monthly_budget_cap: Cents = 0
    """Most that the remaining budgets of the employer's sponsored postings may add up to, in cents."""


class Posting(Record):
    """A job advertised on the board."""

    id: PostingId
    employer_id: EmployerId
    """The employer."""
    title: JobTitle
    """Job title."""
    description: Text = ""
    """Job description."""
    city: City
    """Where the job is."""
    country: Country
    """Country of the job."""
    workplace: Workplace = "onsite"
    """onsite, hybrid or remote."""
    employment_type: EmploymentType = "full_time"
    """Kind of contract."""
    salary_min: Cents | None = None
    """Lowest yearly salary advertised, in cents."""
    salary_max: Cents | None = None
    """Highest yearly salary advertised, in cents."""
    currency: Currency
    """Currency of the salary."""
    contact_email: Email
    """Recruiter who receives the applications."""
    resume_required: bool = True
    """Whether applicants must attach a resume."""
    status: PostingStatus = "draft"
    """draft, active (visible), paused, expired or closed."""
    posted_at: DateTime | None = None
    """When it was first published."""
    expires_on: Date | None = None
    """Last day the posting is visible while active."""
    sponsored: bool = False
    """Whether a sponsored campaign promotes the posting."""
    daily_budget: Cents = 0
    """Most spent on sponsorship per day, in cents."""
    total_budget: Cents = 0
    """Most spent on sponsorship over the campaign, in cents."""
    spent: Cents = 0
    """Sponsorship spent so far, in cents."""
    clicks: Quantity = 0
    """Clicks the posting received."""
    applications_count: Quantity = 0
    """Applications received."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class JobSeeker(Record):
    """A person looking for a job on the board."""

    id: SeekerId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique."""
    phone: Phone | None = None
    """Phone number."""
    city: City | None = None
    """Where the seeker lives."""
    headline: Text = ""
    """Profile headline."""
    resume_url: FileLink | None = None
    """The seeker's default resume."""
    created_at: Annotated[DateTime, CREATED]
    """When the seeker signed up."""


class Application(Record):
    """A seeker's application to a posting and the employer's disposition of it."""

    id: ApplicationId
    posting_id: PostingId
    """The posting."""
    seeker_id: SeekerId
    """The applicant."""
    applicant_email: Email
    """The applicant's e-mail."""
    applicant_name: PersonName
    """The applicant's name."""
    resume_url: FileLink | None = None
    """The resume sent."""
    cover_letter: Text = ""
    """Cover letter."""
    status: AppStatus = "submitted"
    """submitted, viewed, shortlisted, hired, rejected or withdrawn."""
    disposition_note: Text = ""
    """The employer's note on the latest decision."""
    applied_at: Annotated[DateTime, CREATED]
    """When the seeker applied."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- rules ----------------------------------------------------------------------------------


def _check_salary(new: Any) -> None:
    if (new.salary_min is None) != (new.salary_max is None):
        raise RuleViolation(
            "give both ends of the salary range or neither", field="salary_max", hint="set salary_min and salary_max"
        )
    if new.salary_min is not None and new.salary_max is not None and new.salary_min > new.salary_max:
        raise RuleViolation("the salary range is reversed", field="salary_max", hint="salary_max must be >= salary_min")


def _guard_posting(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Employer, new.employer_id, field="employer_id")
    elif old.status in ("closed", "expired") and new.status == old.status:
        raise RuleViolation(
            f"posting {old.id} is {old.status} and cannot be edited",
            field="posting_id",
            hint="extend an expired posting with jobboard__extend_posting; closed postings are final",
        )
    _check_salary(new)
    if new.status == "active" and (new.expires_on is None or new.expires_on < ctx.today()):
        raise RuleViolation(
            f"posting {new.id} expired on {new.expires_on}",
            field="posting_id",
            hint="extend it with jobboard__extend_posting first",
        )
    if old is not None and old.status != "closed" and new.status == "closed" and new.sponsored:
        raise RuleViolation(
            f"posting {new.id} is sponsored",
            field="posting_id",
            hint="stop the sponsorship with jobboard__stop_sponsorship before closing it",
        )


def _guard_employer(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.verified and not new.verified:
        live = [p for p in ctx.where(Posting, employer_id=new.id) if p.sponsored]
        if live:
            raise RuleViolation(
                f"{new.name} has {len(live)} sponsored posting(s)",
                field="verified",
                hint="stop their sponsorship first",
            )
    if old is not None and new.monthly_budget_cap < _committed(ctx, new.id):
        raise RuleViolation(
            f"the cap is below the {_committed(ctx, new.id)} already committed to sponsored postings",
            field="monthly_budget_cap",
            hint="lower or stop some sponsorships first",
        )


def _committed(ctx: Ctx, employer_id: str, exclude: str | None = None) -> int:
    return sum(
        max(0, p.total_budget - p.spent)
        for p in ctx.where(Posting, employer_id=employer_id)
        if p.sponsored and p.id != exclude
    )


employers = service.resource(
    Employer,
    name="employer",
    plural="employers",
    prefix="emr",
    create=("name", "domain", "industry", "headquarters", "country", "currency", "monthly_budget_cap"),
    filters=("name", "country", "verified"),
    search=("name", "industry"),
    update=("industry", "headquarters", "verified", "monthly_budget_cap"),
    delete=False,
    unique=("name",),
    guard_update=_guard_employer,
)
postings = service.resource(
    Posting,
    name="posting",
    plural="postings",
    prefix="post",
    create=(
        "employer_id",
        "title",
        "description",
        "city",
        "country",
        "workplace",
        "employment_type",
        "salary_min",
        "salary_max",
        "currency",
        "contact_email",
        "resume_required",
    ),
    filters=("employer_id", "status", "city", "country", "workplace", "employment_type", "sponsored", "contact_email"),
    search=("title", "description"),
    update=("title", "description", "salary_min", "salary_max", "workplace", "contact_email", "resume_required"),
    delete=False,
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the job posting"),
        "resume": Transition("status", ("paused",), "active", "put the paused job posting back online"),
        "close": Transition(
            "status", ("draft", "active", "paused", "expired"), "closed", "close the job posting", destructive=True
        ),
    },
    guard_create=_guard_posting,
    guard_update=_guard_posting,
)
seekers = service.resource(
    JobSeeker,
    name="job_seeker",
    plural="job_seekers",
    prefix="seek",
    get=False,
    create=("name", "email", "phone", "city", "headline", "resume_url"),
    filters=("email", "city"),
    search=("name", "headline"),
    delete=False,
    unique=("email",),
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=False,
    filters=("posting_id", "seeker_id", "applicant_email", "status"),
    delete=False,
)


# -- examples -------------------------------------------------------------------------------


def _example_sponsor(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Posting, status="active", sponsored=False):
        emp = ctx.get(Employer, p.employer_id)
        room = emp.monthly_budget_cap - _committed(ctx, emp.id)
        if emp.verified and room >= 10_000 and p.expires_on and p.expires_on >= ctx.today():
            return {"posting_id": p.id, "daily_budget": 1_500, "total_budget": 10_000}
    return None


def _example_extend(ctx: Ctx) -> dict[str, Any] | None:
    for status in ("expired", "active"):
        for p in ctx.where(Posting, status=status):
            if p.posted_at and (ctx.today() - p.posted_at.date()).days < MAX_LIFETIME_DAYS - EXTEND_DAYS - 31:
                return {"posting_id": p.id}
    return None


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Posting, status="active"):
        if p.expires_on is None or p.expires_on < ctx.today():
            continue
        applied = {a.seeker_id for a in ctx.where(Application, posting_id=p.id)}
        for s in ctx.scan(JobSeeker):
            if s.id not in applied and (s.resume_url or not p.resume_required):
                return {"posting_id": p.id, "email": s.email, "cover_letter": "I would love to join your team."}
    return None


# -- domain tools ---------------------------------------------------------------------------


@service.tool(
    intent="publish the job posting",
    write=True,
    example=first_example(Posting, "posting_id", where={"status": "draft"}),
)
def publish_posting(ctx: Ctx, posting_id: PostingId, days: Annotated[int, Field(ge=1, le=60)] = 30) -> Posting:
    """Publish a draft posting for a number of days (at most 60); it is visible and takes applications.

    Args:
        posting_id: The draft posting.
        days: How many days the posting stays up.
    """
    post = ctx.get(Posting, posting_id, field="posting_id")
    if post.status != "draft":
        raise RuleViolation(
            f"posting {post.id} is {post.status}, not a draft",
            field="posting_id",
            hint="resume a paused posting with jobboard__resume_posting, extend an expired one",
        )
    if post.salary_min is None:
        raise RuleViolation(
            "postings are published with a salary range",
            field="posting_id",
            hint="set salary_min and salary_max with jobboard__update_posting (pay transparency)",
        )
    return ctx.update(post, status="active", posted_at=ctx.now(), expires_on=ctx.today() + dt.timedelta(days=days))


@service.tool(intent="extend the job posting", write=True, example=_example_extend)
def extend_posting(ctx: Ctx, posting_id: PostingId) -> Posting:
    """Push an active or expired posting's expiry 30 days past today (or past its expiry, if later).

    An expired posting becomes active again. A posting stays up at most 120 days after it was first published.

    Args:
        posting_id: The posting.
    """
    post = ctx.get(Posting, posting_id, field="posting_id")
    if post.status not in ("active", "paused", "expired") or post.posted_at is None:
        raise RuleViolation(
            f"posting {post.id} is {post.status}",
            field="posting_id",
            hint="publish drafts with jobboard__publish_posting; closed postings are final",
        )
    today = ctx.today()
    base = max(today, post.expires_on or today)
    new_end = base + dt.timedelta(days=EXTEND_DAYS)
    limit = post.posted_at.date() + dt.timedelta(days=MAX_LIFETIME_DAYS)
    if new_end > limit:
        raise RuleViolation(
            f"posting {post.id} may stay up until {limit} at most",
            field="posting_id",
            hint="close it and create a new posting for the same job",
        )
    return ctx.update(post, expires_on=new_end, status="active" if post.status == "expired" else post.status)


@service.tool(intent="expire the job postings that have run out", write=True, idempotent=True)
def expire_postings(ctx: Ctx) -> list[Posting]:
    """Move every active or paused posting whose expiry date has passed to expired; sponsorship stops.

    Returns the postings expired by this call.
    """
    today = ctx.today()
    out = []
    for status in ("active", "paused"):
        for post in ctx.where(Posting, status=status):
            if post.expires_on is not None and post.expires_on < today:
                out.append(ctx.update(post, status="expired", sponsored=False))
    return out


@service.tool(intent="sponsor the job posting", write=True, example=_example_sponsor)
def sponsor_posting(ctx: Ctx, posting_id: PostingId, daily_budget: Cents, total_budget: Cents) -> Posting:
    """Start or change a sponsored campaign for an active posting.

    The employer must be verified, the daily budget at least the minimum (500
    cents), the total at least the daily budget and what is already spent,
    and the remaining budgets of the employer's sponsored postings may not
    pass its monthly cap.

    Args:
        posting_id: The active posting.
        daily_budget: Most to spend per day, in cents.
        total_budget: Most to spend over the campaign, in cents.
    """
    post = ctx.get(Posting, posting_id, field="posting_id")
    if post.status != "active":
        raise RuleViolation(
            f"posting {post.id} is {post.status}", field="posting_id", hint="only active postings are sponsored"
        )
    employer = ctx.get(Employer, post.employer_id)
    if not employer.verified:
        raise RuleViolation(
            f"{employer.name} is not verified",
            field="posting_id",
            hint="the employer must be verified before sponsoring postings",
        )
    if daily_budget < MIN_DAILY_BUDGET:
        raise RuleViolation(
            f"the daily budget must be at least {MIN_DAILY_BUDGET}",
            field="daily_budget",
            hint=f"give a daily budget of {MIN_DAILY_BUDGET} cents or more",
        )
    if total_budget < max(daily_budget, post.spent):
        raise RuleViolation(
            "the total budget is below the daily budget or what is already spent",
            field="total_budget",
            hint=f"give at least {max(daily_budget, post.spent)}",
        )
    room = employer.monthly_budget_cap - _committed(ctx, employer.id, exclude=post.id)
    if total_budget - post.spent > room:
        raise RuleViolation(
            f"only {room} of {employer.name}'s monthly cap of {employer.monthly_budget_cap} is left",
            field="total_budget",
            hint="lower the total budget, stop another sponsorship or raise the employer's monthly_budget_cap",
        )
    return ctx.update(post, sponsored=True, daily_budget=daily_budget, total_budget=total_budget)


@service.tool(
    intent="stop sponsoring the job posting",
    write=True,
    example=first_example(Posting, "posting_id", where={"sponsored": True}),
)
def stop_sponsorship(ctx: Ctx, posting_id: PostingId) -> Posting:
    """End a posting's sponsored campaign; the unspent budget is released.

    Args:
        posting_id: The sponsored posting.
    """
    post = ctx.get(Posting, posting_id, field="posting_id")
    if not post.sponsored:
        raise RuleViolation(f"posting {post.id} is not sponsored", field="posting_id", hint="nothing to stop")
    return ctx.update(post, sponsored=False, total_budget=post.spent)


@service.tool(intent="apply to the job posting", write=True, example=_example_apply)
def apply_to_posting(
    ctx: Ctx,
    posting_id: PostingId,
    email: Email,
    cover_letter: Text = "",
    resume_url: FileLink | None = None,
) -> Application:
    """Apply to an active posting as the job seeker with this e-mail; the seeker's resume is used if none is given.

    Args:
        posting_id: The posting.
        email: The job seeker's e-mail (a registered seeker).
        cover_letter: Cover letter.
        resume_url: Resume to send instead of the seeker's default.
    """
    post = ctx.get(Posting, posting_id, field="posting_id")
    seeker = ctx.first(JobSeeker, email=email)
    if seeker is None:
        raise NotFound(
            f"no job seeker with e-mail {email}",
            field="email",
            hint="register the seeker with jobboard__create_job_seeker first",
        )
    if post.status != "active" or (post.expires_on is not None and post.expires_on < ctx.today()):
        raise RuleViolation(
            f"posting {post.id} is not taking applications ({post.status}, expires {post.expires_on})",
            field="posting_id",
            hint="apply to an active posting that has not expired",
        )
    if ctx.first(Application, posting_id=post.id, seeker_id=seeker.id) is not None:
        raise Conflict(
            f"{seeker.name} already applied to this posting", field="email", hint="check the seeker's applications"
        )
    resume = resume_url or seeker.resume_url
    if post.resume_required and resume is None:
        raise RuleViolation(
            "this posting requires a resume", field="resume_url", hint="attach a resume link or add one to the profile"
        )
    ctx.update(post, applications_count=post.applications_count + 1)
    return ctx.create(
        Application,
        posting_id=post.id,
        seeker_id=seeker.id,
        applicant_email=seeker.email,
        applicant_name=seeker.name,
        resume_url=resume,
        cover_letter=cover_letter,
    )


@service.tool(
    intent="update the application's status",
    write=True,
    example=first_example(Application, "application_id", where={"status": "submitted"}, status="viewed"),
)
def set_application_status(
    ctx: Ctx,
    application_id: ApplicationId,
    status: Literal["viewed", "shortlisted", "hired", "rejected"],
    note: Text = "",
) -> Application:
    """Record the employer's disposition: submitted → viewed → shortlisted → hired, or rejected before hiring.

    Args:
        application_id: The application.
        status: The new status.
        note: Note for the record (shared with the applicant on rejection).
    """
    app = ctx.get(Application, application_id, field="application_id")
    allowed = NEXT_STATUS.get(app.status, ())
    if status not in allowed:
        raise RuleViolation(
            f"application {app.id} is {app.status} and cannot become {status}",
            field="status",
            hint=f"allowed next: {', '.join(allowed)}" if allowed else "the application is final",
        )
    if status == "hired":
        post = ctx.get(Posting, app.posting_id)
        if post.status == "closed":
            raise RuleViolation(
                f"posting {post.id} is closed", field="application_id", hint="hire from an open posting"
            )
    return ctx.update(app, status=status, disposition_note=note)


@service.tool(
    intent="withdraw the application",
    write=True,
    example=first_example(
        Application, "application_id", where={"status": "submitted"}, fields={"email": "applicant_email"}
    ),
)
def withdraw_application(ctx: Ctx, application_id: ApplicationId, email: Email) -> Application:
    """Withdraw an application as the applicant; only before it is final.

    Args:
        application_id: The application.
        email: The applicant's e-mail, to confirm it is theirs.
    """
    app = ctx.get(Application, application_id, field="application_id")
    if email != app.applicant_email:
        raise RuleViolation(
            "only the applicant can withdraw the application", field="email", hint="give the applicant's e-mail"
        )
    if app.status in FINAL:
        raise RuleViolation(
            f"application {app.id} is {app.status}", field="application_id", hint="final applications stay as they are"
        )
    post = ctx.get(Posting, app.posting_id)
    ctx.update(post, applications_count=max(0, post.applications_count - 1))
    return ctx.update(app, status="withdrawn")


class PostingStats(BaseModel):
    """One posting's performance."""

    posting_id: PostingId = Field(description="The posting.")
    title: JobTitle = Field(description="Job title.")
    status: PostingStatus = Field(description="Posting status.")
    clicks: Quantity = Field(description="Clicks.")
    applications: Quantity = Field(description="Applications not withdrawn.")
    spent: Cents = Field(description="Sponsorship spent, in cents.")
    cost_per_application: Cents | None = Field(description="Spent divided by applications; null without any.")


class EmployerPerformance(BaseModel):
    """An employer's postings and sponsorship spend."""

    employer_id: EmployerId = Field(description="The employer.")
    name: CompanyName = Field(description="Employer name.")
    currency: Currency = Field(description="Budget currency.")
    monthly_budget_cap: Cents = Field(description="Monthly cap.")
    committed: Cents = Field(description="Remaining budget of sponsored postings.")
    spent: Cents = Field(description="Total spent.")
    postings: list[PostingStats] = Field(description="Every posting that was published.")


@service.tool(intent="report the employer's posting performance", example=first_example(Employer, "employer_id"))
def employer_performance(ctx: Ctx, employer_id: EmployerId) -> EmployerPerformance:
    """Sum an employer's clicks, applications and sponsorship spend per published posting.

    Args:
        employer_id: The employer.
    """
    emp = ctx.get(Employer, employer_id, field="employer_id")
    stats = []
    for post in ctx.where(Posting, employer_id=emp.id):
        if post.posted_at is None:
            continue
        apps = sum(1 for a in ctx.where(Application, posting_id=post.id) if a.status != "withdrawn")
        stats.append(
            PostingStats(
                posting_id=post.id,
                title=post.title,
                status=post.status,
                clicks=post.clicks,
                applications=apps,
                spent=post.spent,
                cost_per_application=post.spent // apps if apps else None,
            )
        )
    return EmployerPerformance(
        employer_id=emp.id,
        name=emp.name,
        currency=emp.currency,
        monthly_budget_cap=emp.monthly_budget_cap,
        committed=_committed(ctx, emp.id),
        spent=sum(s.spent for s in stats),
        postings=stats,
    )


# -- seed -----------------------------------------------------------------------------------

HOME_JOBS = (
    ("Senior Software Engineer", "Engineering", "hybrid", 95_000, 135_000),
    ("Site Reliability Engineer", "Engineering", "remote", 90_000, 125_000),
    ("Account Executive", "Sales", "onsite", 60_000, 90_000),
    ("Support Specialist", "Support", "onsite", 38_000, 50_000),
    ("Accountant", "Finance", "hybrid", 55_000, 72_000),
    ("Content Strategist", "Marketing", "remote", 52_000, 70_000),
)
PARTNER_JOBS = (
    "Warehouse Associate",
    "Data Analyst",
    "Customer Success Manager",
    "Product Designer",
    "Office Manager",
    "Marketing Coordinator",
)
HEADLINES = (
    "Analyst looking for a new challenge",
    "Engineer open to remote roles",
    "Coordinator with 5 years of experience",
    "Recent graduate",
    "Customer-focused specialist",
)


POSTING_FATES: tuple[tuple[PostingStatus, int, int, bool], ...] = (
    ("active", 10, 30, True),
    ("active", 25, 30, False),
    ("active", 40, 30, False),  # ran out two days ago; not swept yet
    ("paused", 15, 45, False),
    ("expired", 70, 30, False),
    ("closed", 60, 30, False),
    ("draft", 0, 0, False),
)
"""(status, days since posting, days the posting lasts, sponsored) of seeded postings, in turn."""


@service.seeder
def seed(s: SeedContext) -> None:
    """The home company and some customers as employers, their postings in every state, consumers as seekers."""
    employers = _seed_employers(s)
    seekers = _seed_seekers(s)
    postings = _seed_postings(s, employers)
    _seed_applications(s, seekers, postings)


def _seed_employers(s: SeedContext) -> list[tuple[Company, Employer]]:
    """The home company and the first six customers, each with the employer account it has here."""
    companies = [s.population.home, *s.population.customers[:6]]
    return [
        (
            c,
            s.create(
                Employer,
                name=c.name,
                domain=c.domain,
                industry=c.industry,
                headquarters=c.place.city,
                country=c.place.country,
                verified=i % 4 != 3,
                currency=c.place.currency,
                monthly_budget_cap=(250_000 if c.home else 60_000 + 20_000 * i) if i % 4 != 3 else 0,
            ),
        )
        for i, c in enumerate(companies)
    ]


def _seed_seekers(s: SeedContext) -> list[JobSeeker]:
    """Every consumer as a job seeker; every fifth has no resume on file."""
    return [
        s.create(
            JobSeeker,
            name=p.name,
            email=p.email,
            phone=p.phone,
            city=p.place.city,
            headline=HEADLINES[i % len(HEADLINES)],
            resume_url=f"https://files.openroles.example/resumes/{p.key}.pdf" if i % 5 != 4 else None,
            created_at=s.ago(days=20 + i * 3),
        )
        for i, p in enumerate(s.population.consumers)
    ]


def _seed_postings(s: SeedContext, employers: Sequence[tuple[Company, Employer]]) -> list[Posting]:
    """The home company's jobs and two or three jobs of each other employer, in the states of POSTING_FATES."""
    pop = s.population
    recruiters = pop.staff("People")
    posts: list[Posting] = []
    for i, (c, emp) in enumerate(employers):
        jobs: list[tuple[str, str, str, int, int]]
        if c.home:
            jobs = list(HOME_JOBS)
        else:
            jobs = [
                (PARTNER_JOBS[(i + k) % len(PARTNER_JOBS)], "", "onsite", 40_000 + 5_000 * k, 55_000 + 6_000 * k)
                for k in range(2 + i % 2)
            ]
        contacts = recruiters if c.home else list(pop.people_at(c)) or recruiters
        for k, (title, dept, workplace, lo, hi) in enumerate(jobs):
            status, age, lasts, sponsored = POSTING_FATES[(i + k) % len(POSTING_FATES)]
            posted = s.ago(days=age, hours=3) if status != "draft" else None
            expires = (posted.date() + dt.timedelta(days=lasts)) if posted else None
            sponsor = sponsored and emp.verified and status == "active"
            budget = 30_000 if sponsor else 0
            spent = (
                min(budget, 1_200 * age) if sponsor else (s.rng.randint(0, 40) * 100 if posted and k % 3 == 0 else 0)
            )
            posts.append(
                s.create(
                    Posting,
                    employer_id=emp.id,
                    title=title,
                    description=f"{c.name} is hiring a {title}" + (f" for its {dept} team." if dept else "."),
                    city=c.place.city,
                    country=c.place.country,
                    workplace=workplace,
                    employment_type="full_time" if k % 4 != 3 else "contract",
                    salary_min=lo * 100 if status != "draft" or k % 2 == 0 else None,
                    salary_max=hi * 100 if status != "draft" or k % 2 == 0 else None,
                    currency=c.place.currency,
                    contact_email=contacts[k % len(contacts)].email,
                    resume_required=k % 3 != 2,
                    status=status,
                    posted_at=posted,
                    expires_on=expires,
                    sponsored=sponsor,
                    daily_budget=1_500 if sponsor else 0,
                    total_budget=max(budget, spent),
                    spent=spent,
                    clicks=(age * 7 + k * 3) if posted else 0,
                )
            )
    return posts


def _seed_applications(s: SeedContext, seekers: Sequence[JobSeeker], posts: Sequence[Posting]) -> None:
    """One or two applications from three in four seekers to posted jobs; postings count those not withdrawn.

    Seekers without a resume do not apply where one is required.
    """
    statuses: tuple[AppStatus, ...] = ("submitted", "viewed", "shortlisted", "rejected", "submitted", "withdrawn")
    counts: dict[str, int] = {}
    for j, seeker in enumerate(seekers):
        if j % 4 == 3:
            continue
        for k in range(1 + j % 2):
            post = posts[(j * 3 + k * 5) % len(posts)]
            if post.posted_at is None:
                continue
            if any(a.posting_id == post.id and a.seeker_id == seeker.id for a in s.records(Application)):
                continue
            status = statuses[(j + k) % len(statuses)]
            if post.resume_required and seeker.resume_url is None:
                continue
            applied = min(post.posted_at + dt.timedelta(days=1 + j % 9), s.ago(hours=2))
            s.create(
                Application,
                posting_id=post.id,
                seeker_id=seeker.id,
                applicant_email=seeker.email,
                applicant_name=seeker.name,
                resume_url=seeker.resume_url,
                cover_letter="I am excited about this role." if j % 3 else "",
                status=status,
                disposition_note="Position requires on-site presence" if status == "rejected" else "",
                applied_at=applied,
                updated_at=applied + dt.timedelta(hours=5),
            )
            if status != "withdrawn":
                counts[post.id] = counts.get(post.id, 0) + 1
    for post in posts:
        if post.id in counts:
            s.update(post, applications_count=counts[post.id])
