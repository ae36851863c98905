"""Veritas Screening: background check packages, candidates, invitations, reports, screenings and adverse actions.

Modeled on the Checkr API v1 (Packages, Candidates, Invitations, Reports with
status/result/adjudication, Screenings, Adverse Actions): a candidate gets one
open invitation at a time, which expires after 7 days and is completed only
with the candidate's consent and date of birth (adults only), creating a
pending report with one screening per package item; a complete report with a
'consider' result is either engaged (hire) or goes through the FCRA adverse
action process: a pre-adverse action notice citing the screenings at fault,
a waiting period of 7 days, then the post-adverse action notice; a disputed
report pauses the process, and a report with a final adverse action cannot be
engaged.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    Country,
    Currency,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    JobTitle,
    LastName,
    Phone,
    PostalCode,
    Quantity,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import age_on

__all__ = ["service"]

service = Service(
    "backgroundcheck",
    title="Veritas Screening",
    category="recruiting",
    modeled_on="Checkr API v1 (Packages, Candidates, Invitations, Reports, Screenings, Adverse Actions)",
    description="Pre-employment background checks: screening packages, candidates invited to consent and give "
    "their details, reports made of criminal, identity, driving and verification screenings, and the "
    "adjudication of results: engaging the candidate or the pre- and post-adverse action notices.",
)

PackageId = Annotated[str, IdOf("backgroundcheck.package")]
CandidateId = Annotated[str, IdOf("backgroundcheck.candidate")]
InvitationId = Annotated[str, IdOf("backgroundcheck.invitation")]
ReportId = Annotated[str, IdOf("backgroundcheck.report")]
ScreeningId = Annotated[str, IdOf("backgroundcheck.screening")]
AdverseActionId = Annotated[str, IdOf("backgroundcheck.adverse_action")]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{2,40}$")]
ScreeningType = Literal[
    "ssn_trace",
    "sex_offender_search",
    "national_criminal_search",
    "county_criminal_search",
    "motor_vehicle_report",
    "employment_verification",
    "education_verification",
]
ReportStatus = Literal["pending", "complete", "suspended", "dispute", "canceled"]
Result = Literal["clear", "consider"]
Adjudication = Literal["engaged", "pre_adverse_action", "post_adverse_action"]
InvitationStatus = Literal["pending", "completed", "expired", "cancelled"]
ScreeningStatus = Literal["pending", "clear", "consider", "canceled"]
ActionStatus = Literal["pre_notice_sent", "post_notice_sent", "canceled"]
INVITATION_DAYS = 7
WAITING_DAYS = 7
ADULT_AGE = 18


class Package(Record):
    """A named set of screenings ordered together, with its price."""

    id: PackageId
    name: Title
    """Package name, e.g. Tasker Standard."""
    slug: Slug | None = None
    """Short machine name, e.g. driver_plus; unique when set."""
    screenings: list[ScreeningType] = Field(min_length=1, max_length=7)
    """Screenings the package runs."""
    price: Cents
    """Price per report in cents."""
    currency: Currency
    """Currency of the price."""
    turnaround_days: Annotated[int, Field(ge=1, le=30)] = 3
    """Typical business days until the report completes."""
    active: bool = True
    """Inactive packages take no new invitations."""


class Candidate(Record):
    """A person being screened."""

    id: CandidateId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """Personal e-mail the invitation goes to; unique."""
    phone: Phone | None = None
    """Phone number."""
    dob: Date | None = None
    """Date of birth, given by the candidate when they complete the invitation."""
    zipcode: PostalCode | None = None
    """Postal code of the candidate's residence."""
    job_title: JobTitle | None = None
    """The position the candidate is screened for."""
    work_city: City
    """City the candidate would work in (sets which laws apply)."""
    work_country: Country
    """Country the candidate would work in."""
    copy_requested: bool = False
    """Whether the candidate asked for a copy of their report."""
    created_at: Annotated[DateTime, CREATED]
    """When the candidate was added."""


class Invitation(Record):
    """A request to a candidate to consent and give their details so a report can run."""

    id: InvitationId
    candidate_id: CandidateId
    """The candidate."""
    package_id: PackageId
    """The package to run."""
    status: InvitationStatus = "pending"
    """pending, completed (a report was created), expired or cancelled."""
    invitation_url: Url
    """Link the candidate follows."""
    expires_at: DateTime
    """When a pending invitation expires."""
    report_id: ReportId | None = None
    """The report created when the candidate completed it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was sent."""


class Report(Record):
    """A background check of one candidate for one package."""

    id: ReportId
    candidate_id: CandidateId
    """The candidate."""
    package_id: PackageId
    """The package run."""
    status: ReportStatus = "pending"
    """pending, complete, suspended (needs candidate input), dispute or canceled."""
    result: Result | None = None
    """clear or consider (something to review), once complete."""
    adjudication: Adjudication | None = None
    """engaged (moving forward), pre_adverse_action or post_adverse_action."""
    eta: Date | None = None
    """Estimated completion date of a pending report."""
    cost: Cents
    """What the report costs, in cents."""
    currency: Currency
    """Currency of the cost."""
    completed_at: DateTime | None = None
    """When it completed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was ordered."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Screening(Record):
    """One search of a report and its outcome."""

    id: ScreeningId
    report_id: ReportId
    """The report."""
    type: ScreeningType
    """What is searched."""
    status: ScreeningStatus = "pending"
    """pending, clear, consider or canceled."""
    records_found: Quantity = 0
    """Records found that need review."""
    description: Text = ""
    """What was found."""


class AdverseAction(Record):
    """The FCRA process of not hiring a candidate because of their report."""

    id: AdverseActionId
    report_id: ReportId
    """The report."""
    candidate_id: CandidateId
    """The candidate notified."""
    screening_ids: list[ScreeningId] = Field(min_length=1, max_length=7)
    """The screenings the decision rests on."""
    status: ActionStatus = "pre_notice_sent"
    """pre_notice_sent (waiting period running), post_notice_sent (final) or canceled."""
    notified_email: Email
    """Where the notices were sent."""
    pre_notice_at: DateTime
    """When the pre-adverse action notice went out."""
    post_notice_ready_at: DateTime
    """When the waiting period ends and the final notice may be sent."""
    post_notice_at: DateTime | None = None
    """When the final notice went out."""


# -- rules ----------------------------------------------------------------------------------


def _guard_package(ctx: Ctx, new: Any, old: Any) -> None:
    if len(set(new.screenings)) != len(new.screenings):
        raise RuleViolation("a screening is listed twice", field="screenings", hint="list each screening once")
    if new.slug is not None and any(p.id != new.id and p.slug == new.slug for p in ctx.scan(Package)):
        raise Conflict(f"package slug {new.slug} is taken", field="slug", hint="pick another slug")


def _guard_candidate(ctx: Ctx, new: Any, old: Any) -> None:
    if new.dob is not None and age_on(new.dob, ctx.today()) < ADULT_AGE:
        raise RuleViolation(f"candidates must be at least {ADULT_AGE}", field="dob", hint="check the date of birth")
    changed = old is not None and old.dob is not None and new.dob != old.dob
    if changed and ctx.first(Report, candidate_id=old.id) is not None:
        raise RuleViolation(
            "the date of birth cannot change once a report has run",
            field="dob",
            hint="the candidate can dispute the report instead (backgroundcheck__dispute_report)",
        )


packages = service.resource(
    Package,
    name="package",
    plural="packages",
    prefix="pkg",
    create=("name", "slug", "screenings", "price", "currency", "turnaround_days"),
    get=False,
    filters=("slug", "active"),
    search=("name", "slug"),
    delete=False,
    guard_create=_guard_package,
)
candidates = service.resource(
    Candidate,
    name="candidate",
    plural="candidates",
    prefix="cand",
    create=("first_name", "last_name", "email", "phone", "zipcode", "job_title", "work_city", "work_country"),
    filters=("email", "work_country", "job_title"),
    search=("first_name", "last_name", "email"),
    update=("phone", "zipcode", "job_title", "work_city", "work_country", "copy_requested", "dob"),
    delete=False,
    unique=("email",),
    guard_create=_guard_candidate,
    guard_update=_guard_candidate,
)
invitations = service.resource(
    Invitation,
    name="invitation",
    plural="invitations",
    prefix="inv",
    create=False,
    get=False,
    filters=("candidate_id", "package_id", "status"),
    delete=False,
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rep",
    create=False,
    filters=("candidate_id", "package_id", "status", "result", "adjudication"),
    delete=False,
)
screenings = service.resource(
    Screening,
    name="screening",
    plural="screenings",
    prefix="scr",
    create=False,
    get=False,
    filters=("report_id", "type", "status"),
    delete=False,
)
adverse_actions = service.resource(
    AdverseAction,
    name="adverse_action",
    plural="adverse_actions",
    prefix="aa",
    create=False,
    get=False,
    filters=("report_id", "candidate_id", "status"),
    delete=False,
)


# -- examples -------------------------------------------------------------------------------


def _example_invite(ctx: Ctx) -> dict[str, Any] | None:
    pkg = ctx.first(Package, active=True)
    for cand in ctx.scan(Candidate):
        if pkg and not any(i.status == "pending" for i in ctx.where(Invitation, candidate_id=cand.id)):
            return {"candidate_id": cand.id, "package_id": pkg.id}
    return None


def _example_pre(ctx: Ctx) -> dict[str, Any] | None:
    for rep in ctx.where(Report, status="complete", result="consider"):
        if rep.adjudication is None:
            hits = [s.id for s in ctx.where(Screening, report_id=rep.id, status="consider")]
            return {"report_id": rep.id, "screening_ids": hits}
    return None


# -- domain tools ---------------------------------------------------------------------------


@service.tool(intent="invite the candidate to a background check", write=True, example=_example_invite)
def create_invitation(ctx: Ctx, candidate_id: CandidateId, package_id: PackageId) -> Invitation:
    """Send the candidate an invitation to consent to and start a background check of the package.

    A candidate has one pending invitation at a time; it expires after 7 days.

    Args:
        candidate_id: The candidate.
        package_id: The package to run.
    """
    cand = ctx.get(Candidate, candidate_id, field="candidate_id")
    pkg = ctx.get(Package, package_id, field="package_id")
    if not pkg.active:
        raise RuleViolation(f"package {pkg.name} is retired", field="package_id", hint="pick an active package")
    now = ctx.now()
    for inv in ctx.where(Invitation, candidate_id=cand.id, status="pending"):
        if inv.expires_at >= now:
            raise Conflict(
                f"{cand.first_name} {cand.last_name} already has a pending invitation ({inv.id})",
                field="candidate_id",
                hint="wait for it to be completed or cancel it (backgroundcheck__cancel_invitation)",
            )
        ctx.update(inv, status="expired")
    n = ctx.next_number(Invitation, "url")
    return ctx.create(
        Invitation,
        candidate_id=cand.id,
        package_id=pkg.id,
        invitation_url=f"https://apply.veritas-screening.example/invite/{cand.id}-{n}",
        expires_at=now + dt.timedelta(days=INVITATION_DAYS),
    )


@service.tool(
    intent="cancel the invitation",
    write=True,
    example=first_example(Invitation, "invitation_id", where={"status": "pending"}),
)
def cancel_invitation(ctx: Ctx, invitation_id: InvitationId) -> Invitation:
    """Cancel a pending invitation so the candidate can no longer complete it.

    Args:
        invitation_id: The invitation.
    """
    inv = ctx.get(Invitation, invitation_id, field="invitation_id")
    if inv.status != "pending":
        raise RuleViolation(
            f"invitation {inv.id} is {inv.status}", field="invitation_id", hint="only pending invitations are cancelled"
        )
    return ctx.update(inv, status="cancelled")


@service.tool(
    intent="complete the invitation on the candidate's behalf",
    write=True,
    example=first_example(
        Invitation,
        "invitation_id",
        where={"status": "pending"},
        match=lambda ctx, inv: inv.expires_at >= ctx.now(),
        dob="1990-04-12",
        zipcode="10115",
        consent=True,
    ),
)
def submit_invitation(ctx: Ctx, invitation_id: InvitationId, dob: Date, zipcode: PostalCode, consent: bool) -> Report:
    """Record the candidate's consent and details, completing the invitation and ordering the report.

    The invitation must be pending and not expired, the candidate must consent
    and be an adult. The report starts pending with one screening per item of
    the package.

    Args:
        invitation_id: The invitation.
        dob: The candidate's date of birth.
        zipcode: Postal code of the candidate's residence.
        consent: Whether the candidate consents to the check (required).
    """
    inv = ctx.get(Invitation, invitation_id, field="invitation_id")
    if inv.status != "pending":
        raise RuleViolation(f"invitation {inv.id} is {inv.status}", field="invitation_id", hint="send a new invitation")
    if inv.expires_at < ctx.now():
        raise RuleViolation(
            f"invitation {inv.id} expired on {inv.expires_at.date()}",
            field="invitation_id",
            hint="send a new invitation with backgroundcheck__create_invitation",
        )
    if not consent:
        raise RuleViolation(
            "a background check needs the candidate's written consent",
            field="consent",
            hint="the candidate must agree to the disclosure before the check runs",
        )
    cand = ctx.get(Candidate, inv.candidate_id)
    if age_on(dob, ctx.today()) < ADULT_AGE:
        raise RuleViolation(f"candidates must be at least {ADULT_AGE}", field="dob", hint="check the date of birth")
    pkg = ctx.get(Package, inv.package_id)
    ctx.update(cand, dob=dob, zipcode=zipcode)
    report = ctx.create(
        Report,
        candidate_id=cand.id,
        package_id=pkg.id,
        eta=ctx.today() + dt.timedelta(days=pkg.turnaround_days),
        cost=pkg.price,
        currency=pkg.currency,
    )
    for kind in pkg.screenings:
        ctx.create(Screening, report_id=report.id, type=kind)
    ctx.update(inv, status="completed", report_id=report.id)
    return report


@service.tool(
    intent="cancel the pending report",
    write=True,
    destructive=True,
    example=first_example(Report, "report_id", where={"status": "pending"}),
)
def cancel_report(ctx: Ctx, report_id: ReportId) -> Report:
    """Cancel a report that has not completed; its pending screenings stop.

    Args:
        report_id: The report.
    """
    rep = ctx.get(Report, report_id, field="report_id")
    if rep.status not in ("pending", "suspended"):
        raise RuleViolation(
            f"report {rep.id} is {rep.status}",
            field="report_id",
            hint="only pending or suspended reports can be canceled",
        )
    for scr in ctx.where(Screening, report_id=rep.id, status="pending"):
        ctx.update(scr, status="canceled")
    return ctx.update(rep, status="canceled", eta=None)


@service.tool(
    intent="move forward with the candidate",
    write=True,
    example=first_example(
        Report, "report_id", where={"status": "complete"}, match=lambda ctx, rep: rep.adjudication is None
    ),
)
def engage_candidate(ctx: Ctx, report_id: ReportId) -> Report:
    """Mark a complete report as engaged: the company moves forward with the candidate.

    A report under adverse action is engaged only while the pre-adverse action
    is open (which cancels it); after the final notice it cannot be.

    Args:
        report_id: The complete report.
    """
    rep = ctx.get(Report, report_id, field="report_id")
    if rep.status != "complete":
        raise RuleViolation(
            f"report {rep.id} is {rep.status}, not complete",
            field="report_id",
            hint="wait for the report to complete (or for the dispute to be resolved)",
        )
    if rep.adjudication == "engaged":
        raise Conflict(f"report {rep.id} is already engaged", field="report_id", hint="nothing to do")
    if rep.adjudication == "post_adverse_action":
        raise RuleViolation(
            f"a final adverse action was sent on report {rep.id}",
            field="report_id",
            hint="the decision is final; order a new report if the candidate applies again",
        )
    for aa in ctx.where(AdverseAction, report_id=rep.id, status="pre_notice_sent"):
        ctx.update(aa, status="canceled")
    return ctx.update(rep, adjudication="engaged")


@service.tool(intent="start the adverse action process", write=True, example=_example_pre)
def start_adverse_action(
    ctx: Ctx, report_id: ReportId, screening_ids: Annotated[list[ScreeningId], Field(min_length=1, max_length=7)]
) -> AdverseAction:
    """Send the candidate a pre-adverse action notice citing the screenings at fault; a 7-day wait begins.

    Only a complete report with a 'consider' result that is not yet adjudicated
    qualifies, and every cited screening must be one of its 'consider' screenings.

    Args:
        report_id: The report.
        screening_ids: The report's screenings the decision rests on.
    """
    rep = ctx.get(Report, report_id, field="report_id")
    if rep.status != "complete" or rep.result != "consider":
        raise RuleViolation(
            f"report {rep.id} is {rep.status}{' / ' + rep.result if rep.result else ''}",
            field="report_id",
            hint="adverse action is only taken on a complete report whose result is 'consider'",
        )
    if rep.adjudication is not None:
        raise Conflict(
            f"report {rep.id} is already adjudicated ({rep.adjudication})",
            field="report_id",
            hint="list its adverse actions with backgroundcheck__list_adverse_actions",
        )
    for k, sid in enumerate(dict.fromkeys(screening_ids)):
        scr = ctx.get(Screening, sid, field=f"screening_ids.{k}")
        if scr.report_id != rep.id or scr.status != "consider":
            raise RuleViolation(
                f"screening {scr.id} is not a 'consider' screening of report {rep.id}",
                field=f"screening_ids.{k}",
                hint="cite the report's screenings with status 'consider'",
            )
    cand = ctx.get(Candidate, rep.candidate_id)
    now = ctx.now()
    ctx.update(rep, adjudication="pre_adverse_action")
    return ctx.create(
        AdverseAction,
        report_id=rep.id,
        candidate_id=cand.id,
        screening_ids=list(dict.fromkeys(screening_ids)),
        notified_email=cand.email,
        pre_notice_at=now,
        post_notice_ready_at=now + dt.timedelta(days=WAITING_DAYS),
    )


def _open_action(ctx: Ctx, adverse_action_id: str) -> AdverseAction:
    aa = ctx.get(AdverseAction, adverse_action_id, field="adverse_action_id")
    if aa.status != "pre_notice_sent":
        raise RuleViolation(
            f"adverse action {aa.id} is {aa.status.replace('_', ' ')}",
            field="adverse_action_id",
            hint="only an adverse action in its waiting period can move on",
        )
    return aa


@service.tool(
    intent="send the final adverse action notice",
    write=True,
    destructive=True,
    example=first_example(
        AdverseAction,
        "adverse_action_id",
        where={"status": "pre_notice_sent"},
        match=lambda ctx, aa: (
            ctx.get(Report, aa.report_id).status == "complete" and aa.post_notice_ready_at <= ctx.now()
        ),
    ),
)
def complete_adverse_action(ctx: Ctx, adverse_action_id: AdverseActionId) -> AdverseAction:
    """Send the post-adverse action notice once the 7-day waiting period is over; the decision is final.

    Not while the candidate disputes the report.

    Args:
        adverse_action_id: The adverse action.
    """
    aa = _open_action(ctx, adverse_action_id)
    rep = ctx.get(Report, aa.report_id)
    if rep.status == "dispute":
        raise RuleViolation(
            f"the candidate disputes report {rep.id}",
            field="adverse_action_id",
            hint="wait until the dispute is resolved and the report is complete again",
        )
    now = ctx.now()
    if now < aa.post_notice_ready_at:
        raise RuleViolation(
            f"the waiting period runs until {aa.post_notice_ready_at.isoformat()}",
            field="adverse_action_id",
            hint="the candidate must get time to respond; try again after the waiting period",
        )
    ctx.update(rep, adjudication="post_adverse_action")
    return ctx.update(aa, status="post_notice_sent", post_notice_at=now)


@service.tool(
    intent="cancel the adverse action",
    write=True,
    example=first_example(AdverseAction, "adverse_action_id", where={"status": "pre_notice_sent"}),
)
def cancel_adverse_action(ctx: Ctx, adverse_action_id: AdverseActionId) -> AdverseAction:
    """Stop an adverse action in its waiting period; the report is no longer adjudicated.

    Args:
        adverse_action_id: The adverse action.
    """
    aa = _open_action(ctx, adverse_action_id)
    rep = ctx.get(Report, aa.report_id)
    ctx.update(rep, adjudication=None)
    return ctx.update(aa, status="canceled")


@service.tool(
    intent="record the candidate's dispute of the report",
    write=True,
    example=first_example(
        Report,
        "report_id",
        where={"status": "complete", "result": "consider"},
        match=lambda ctx, rep: rep.adjudication != "post_adverse_action",
        reason="The record belongs to someone else",
    ),
)
def dispute_report(ctx: Ctx, report_id: ReportId, reason: Text) -> Report:
    """Record that the candidate disputes a complete 'consider' report; adverse action pauses meanwhile.

    Args:
        report_id: The report.
        reason: What the candidate says is wrong.
    """
    rep = ctx.get(Report, report_id, field="report_id")
    if not reason.strip():
        raise RuleViolation("a dispute needs the candidate's reason", field="reason", hint="say what is wrong")
    if rep.status != "complete" or rep.result != "consider":
        raise RuleViolation(
            f"report {rep.id} is {rep.status}",
            field="report_id",
            hint="only a complete report with findings ('consider') can be disputed",
        )
    if rep.adjudication == "post_adverse_action":
        raise RuleViolation(
            "the adverse action on this report is final",
            field="report_id",
            hint="the candidate can contact the screening company directly",
        )
    return ctx.update(rep, status="dispute")


class CandidateStatus(BaseModel):
    """Where a candidate's background check stands."""

    candidate_id: CandidateId = Field(description="The candidate.")
    email: Email = Field(description="The candidate's e-mail.")
    first_name: FirstName = Field(description="Given name.")
    last_name: LastName = Field(description="Family name.")
    invitation_status: InvitationStatus | None = Field(description="Status of the latest invitation.")
    report_id: ReportId | None = Field(description="The latest report.")
    report_status: ReportStatus | None = Field(description="Its status.")
    result: Result | None = Field(description="Its result.")
    adjudication: Adjudication | None = Field(description="Its adjudication.")
    eta: Date | None = Field(description="Expected completion of a pending report.")
    cleared_to_hire: bool = Field(description="Whether the latest report is complete and engaged.")


@service.tool(
    intent="check the candidate's background check status",
    example=first_example(Candidate, None, fields={"email": "email"}),
)
def candidate_status(ctx: Ctx, email: Email) -> CandidateStatus:
    """Look a candidate up by e-mail and summarize their latest invitation and report.

    Args:
        email: The candidate's e-mail.
    """
    cand = ctx.first(Candidate, email=email)
    if cand is None:
        raise NotFound(
            f"no candidate with e-mail {email}",
            field="email",
            hint="add them with backgroundcheck__create_candidate",
        )
    invs = ctx.where(Invitation, candidate_id=cand.id)
    reps = ctx.where(Report, candidate_id=cand.id)
    inv = max(invs, key=lambda i: (i.created_at, i.id)) if invs else None
    rep = max(reps, key=lambda r: (r.created_at, r.id)) if reps else None
    return CandidateStatus(
        candidate_id=cand.id,
        email=cand.email,
        first_name=cand.first_name,
        last_name=cand.last_name,
        invitation_status=inv.status if inv else None,
        report_id=rep.id if rep else None,
        report_status=rep.status if rep else None,
        result=rep.result if rep else None,
        adjudication=rep.adjudication if rep else None,
        eta=rep.eta if rep else None,
        cleared_to_hire=rep is not None and rep.status == "complete" and rep.adjudication == "engaged",
    )


# -- seed -----------------------------------------------------------------------------------

PACKAGES: tuple[tuple[str, str, tuple[ScreeningType, ...], int, int, bool], ...] = (
    ("Basic", "basic", ("ssn_trace", "sex_offender_search", "national_criminal_search"), 2_900, 1, True),
    (
        "Standard",
        "standard",
        ("ssn_trace", "sex_offender_search", "national_criminal_search", "county_criminal_search"),
        5_400,
        3,
        True,
    ),
    (
        "Professional",
        "professional",
        (
            "ssn_trace",
            "national_criminal_search",
            "county_criminal_search",
            "employment_verification",
            "education_verification",
        ),
        8_900,
        5,
        True,
    ),
    ("Driver", "driver", ("ssn_trace", "national_criminal_search", "motor_vehicle_report"), 4_200, 2, True),
    ("Legacy bundle", "legacy_bundle", ("ssn_trace", "county_criminal_search"), 3_500, 4, False),
)
FINDINGS: dict[str, str] = {
    "county_criminal_search": "Misdemeanor: petty theft, disposed with a fine (2017)",
    "national_criminal_search": "Record of a dismissed misdemeanor charge (2015)",
    "motor_vehicle_report": "License suspended for unpaid fines (2023)",
    "employment_verification": "Employer could not confirm the stated dates of employment",
    "education_verification": "Degree not confirmed by the institution",
}
POSITIONS = ("Support Specialist", "Logistics Coordinator", "Account Executive", "Software Engineer", "Accountant")
# Each candidate's story: (package index, invitation status, report status, result, adjudication, action).
STORIES: tuple[tuple[int, str, str | None, str | None, str | None, str | None], ...] = (
    (1, "completed", "complete", "clear", "engaged", None),
    (2, "completed", "complete", "consider", None, None),
    (1, "completed", "pending", None, None, None),
    (3, "completed", "complete", "consider", "pre_adverse_action", "ready"),
    (0, "pending", None, None, None, None),
    (1, "completed", "complete", "consider", "pre_adverse_action", "waiting"),
    (2, "completed", "complete", "consider", "post_adverse_action", "final"),
    (0, "expired", None, None, None, None),
    (1, "completed", "dispute", "consider", "pre_adverse_action", "ready"),
    (0, "completed", "complete", "clear", None, None),
    (3, "completed", "canceled", None, None, None),
    (2, "completed", "suspended", None, None, None),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Packages, consumers who are recruiting candidates, and reports at every stage of adjudication."""
    packages = _seed_packages(s)
    # The recruiting service's candidates are the first two thirds of the consumers; screen some of them.
    consumers = s.population.consumers
    pool = list(consumers[: max(8, len(consumers) * 2 // 3)])
    step = 3 if len(pool) >= 3 * len(STORIES) else 1  # small worlds screen everyone
    people = [p for i, p in enumerate(pool) if i % step == 0][: len(STORIES) + 4]
    for i, p in enumerate(people):
        story = STORIES[i] if i < len(STORIES) else None
        started = s.ago(days=3 + 2 * i)
        cand = _seed_candidate(s, i, p, started, invited=story is not None and story[1] == "completed")
        if story is not None:  # the others were added, not yet invited
            _seed_check(s, i, cand, packages[story[0]], story, started)


def _seed_packages(s: SeedContext) -> list[Package]:
    cur = s.population.home.place.currency
    return [
        s.create(
            Package, name=n, slug=slug, screenings=list(scr), price=price, currency=cur, turnaround_days=t, active=a
        )
        for n, slug, scr, price, t, a in PACKAGES
    ]


def _seed_candidate(s: SeedContext, i: int, p: Person, started: dt.datetime, *, invited: bool) -> Candidate:
    """The ``i``-th screened consumer; only those who completed an invitation gave their birth date and zipcode."""
    home = s.population.home.place
    return s.create(
        Candidate,
        first_name=p.first_name,
        last_name=p.last_name,
        email=p.email,
        phone=p.phone,
        dob=p.birth_date if invited else None,
        zipcode=p.address.postal_code if invited else None,
        job_title=POSITIONS[i % len(POSITIONS)],
        work_city=home.city,
        work_country=home.country,
        copy_requested=i % 4 == 1,
        created_at=started - dt.timedelta(hours=2),
    )


def _seed_check(
    s: SeedContext,
    i: int,
    cand: Candidate,
    pkg: Package,
    story: tuple[int, str, str | None, str | None, str | None, str | None],
    started: dt.datetime,
) -> None:
    """A candidate's check as far as their story (see :data:`STORIES`) goes: invitation, report, adverse action."""
    _, inv_status, rep_status, result, adjudication, action = story
    if inv_status == "pending":
        started = s.ago(days=2)
    if inv_status == "expired":
        started = s.ago(days=12)
    inv = s.create(
        Invitation,
        candidate_id=cand.id,
        package_id=pkg.id,
        status=inv_status,
        invitation_url=f"https://apply.veritas-screening.example/invite/{cand.id}-{i + 1}",
        expires_at=started + dt.timedelta(days=INVITATION_DAYS),
        created_at=started,
    )
    if rep_status is None:
        return
    ordered = started + dt.timedelta(hours=20)
    done = rep_status in ("complete", "dispute")
    rep = s.create(
        Report,
        candidate_id=cand.id,
        package_id=pkg.id,
        status=rep_status,
        result=result,
        adjudication=adjudication,
        eta=s.now.date() + dt.timedelta(days=pkg.turnaround_days) if rep_status in ("pending", "suspended") else None,
        cost=pkg.price,
        currency=pkg.currency,
        completed_at=ordered + dt.timedelta(days=1) if done else None,
        created_at=ordered,
        updated_at=ordered + dt.timedelta(days=1),
    )
    s.update(inv, report_id=rep.id)
    hits = _seed_screenings(s, rep, pkg)
    if action is not None:
        sent = s.ago(days=9 if action in ("ready", "final") else 2)
        s.create(
            AdverseAction,
            report_id=rep.id,
            candidate_id=cand.id,
            screening_ids=hits,
            status="post_notice_sent" if action == "final" else "pre_notice_sent",
            notified_email=cand.email,
            pre_notice_at=sent,
            post_notice_ready_at=sent + dt.timedelta(days=WAITING_DAYS),
            post_notice_at=sent + dt.timedelta(days=WAITING_DAYS, hours=2) if action == "final" else None,
        )


def _seed_screenings(s: SeedContext, rep: Report, pkg: Package) -> list[str]:
    """The screenings of a report's package (one with a finding when it is to consider); return those with findings."""
    done = rep.status in ("complete", "dispute")
    hits: list[str] = []
    for k, kind in enumerate(pkg.screenings):
        status: ScreeningStatus
        if rep.status == "canceled":
            status = "canceled" if k else "clear"
        elif not done:
            status = "pending" if k else "clear"
        elif rep.result == "consider" and kind in FINDINGS and not hits:
            status = "consider"
        else:
            status = "clear"
        scr = s.create(
            Screening,
            report_id=rep.id,
            type=kind,
            status=status,
            records_found=1 if status == "consider" else 0,
            description=FINDINGS[kind] if status == "consider" else "",
        )
        if status == "consider":
            hits.append(scr.id)
    return hits
