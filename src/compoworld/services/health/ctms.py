"""Cohort Trials: clinical trial management — studies, sites, subjects, protocol visits, adverse events, monitoring.

Modeled on Veeva Vault CTMS and Advarra OnCore (study, study site, subject,
subject visit, adverse event, monitoring visit and protocol deviation objects,
with their lifecycle states): a study opens enrollment only with an activated
site and enrolls up to its target; a site is activated only with IRB approval
and a completed site initiation visit (SIV); a subject is screened at an
activated site of an enrolling study after signing informed consent, and is
enrolled (up to the site's cap) or screen-failed; enrolling generates the
protocol's visit schedule with its windows; a visit completed outside its
window logs a protocol deviation; a serious adverse event is reported within
24 hours of awareness or a deviation is logged; withdrawing a subject cancels
their remaining visits; a subject completes only when no visit is pending.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, CompanyName, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.world.care import clinicians

__all__ = ["service"]

service = Service(
    "ctms",
    title="Cohort Trials",
    category="clinical_trial_management",
    modeled_on="Veeva Vault CTMS / Advarra OnCore: studies, study sites, subjects, subject visits, adverse events, "
    "monitoring visits, protocol deviations",
    description="Clinical trial operations for a sponsor: studies and their protocol visit schedules, sites with "
    "IRB approval and initiation visits, subjects consented, screened, enrolled or withdrawn, protocol visits in "
    "their windows, adverse events and serious adverse events, monitoring visits by CRAs, protocol deviations.",
)

StudyId = Annotated[str, IdOf("ctms.study")]
SiteId = Annotated[str, IdOf("ctms.site")]
SubjectId = Annotated[str, IdOf("ctms.subject")]
VisitId = Annotated[str, IdOf("ctms.visit")]
AeId = Annotated[str, IdOf("ctms.adverse_event")]
MonitoringId = Annotated[str, IdOf("ctms.monitoring_visit")]
DeviationId = Annotated[str, IdOf("ctms.deviation")]

ProtocolNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,5}-[0-9]{3,5}$")]
"""A sponsor protocol number such as CTX-101."""
Phase = Literal["phase_1", "phase_2", "phase_3", "phase_4"]
StudyStatus = Literal["planned", "enrolling", "enrollment_closed", "suspended", "completed"]
SiteStatus = Literal["selected", "activated", "closed"]
SubjectStatus = Literal["screening", "screen_failed", "enrolled", "withdrawn", "completed"]
VisitStatus = Literal["scheduled", "completed", "missed", "cancelled"]
AeStatus = Literal["open", "resolved"]
MonitoringKind = Literal["siv", "imv", "cov"]
MonitoringStatus = Literal["planned", "completed"]
DeviationStatus = Literal["open", "closed"]
Grade = Annotated[int, Field(ge=1, le=5)]
"""CTCAE grade, 1 (mild) to 5 (death)."""
Headcount = Annotated[int, Field(ge=1, le=10000)]
SAE_DEADLINE = dt.timedelta(hours=24)


class ProtocolVisit(Value):
    """A visit the protocol requires, counted from enrollment."""

    name: Title
    """Visit name, e.g. Week 4."""
    day: Annotated[int, Field(ge=0, le=3650)]
    """Target day after enrollment."""
    window_days: Annotated[int, Field(ge=0, le=60)]
    """Allowed days either side."""


class Study(Timestamped):
    """A clinical study."""

    id: StudyId
    protocol_number: ProtocolNumber
    """Sponsor protocol number; unique."""
    title: Title
    """Study title."""
    phase: Phase
    """phase_1 to phase_4."""
    sponsor: CompanyName
    """The sponsor."""
    status: StudyStatus = "planned"
    """planned, enrolling, enrollment_closed, suspended or completed."""
    target_enrollment: Headcount
    """Subjects to enroll."""
    schedule: tuple[ProtocolVisit, ...]
    """The protocol's visits after enrollment."""


class Site(Timestamped):
    """A site of a study."""

    id: SiteId
    study_id: StudyId
    """The study."""
    name: CompanyName
    """The institution."""
    city: City
    """Its city."""
    principal_investigator: PersonName
    """The site's PI."""
    status: SiteStatus = "selected"
    """selected, activated or closed."""
    irb_approved_on: Date | None = None
    """When the IRB approved the study here."""
    enrollment_cap: Headcount = 10
    """Most subjects it may enroll."""


class Subject(Timestamped):
    """A study participant."""

    id: SubjectId
    study_id: StudyId
    """The study."""
    site_id: SiteId
    """The site."""
    subject_number: Annotated[str, StringConstraints(pattern=r"^[0-9]{3}-[0-9]{3}$")]
    """Site-subject number, e.g. 101-004."""
    name: PersonName
    """The participant."""
    email: Email
    """The participant's e-mail."""
    consent_signed_on: Date
    """When informed consent was signed."""
    status: SubjectStatus = "screening"
    """screening, screen_failed, enrolled, withdrawn or completed."""
    arm: Literal["treatment", "placebo"] | None = None
    """Randomized arm."""
    enrolled_on: Date | None = None
    """When enrolled."""
    status_reason: Text | None = None
    """Why screen-failed or withdrawn."""


class Visit(Record):
    """A subject's protocol visit."""

    id: VisitId
    subject_id: SubjectId
    """The subject."""
    name: Title
    """Visit name."""
    target_on: Date
    """Target date."""
    window_days: int
    """Allowed days either side."""
    status: VisitStatus = "scheduled"
    """scheduled, completed, missed or cancelled."""
    completed_on: Date | None = None
    """When it took place."""


class AdverseEvent(Timestamped):
    """An adverse event of a subject."""

    id: AeId
    subject_id: SubjectId
    """The subject."""
    term: Title
    """MedDRA preferred term."""
    grade: Grade
    """CTCAE grade."""
    serious: bool = False
    """Whether it is a serious adverse event (SAE)."""
    related: bool = False
    """Whether the investigator deems it related to the study drug."""
    onset_on: Date
    """Onset date."""
    aware_on: Date
    """When the site became aware."""
    status: AeStatus = "open"
    """open or resolved."""


class MonitoringVisit(Timestamped):
    """A CRA's visit to a site."""

    id: MonitoringId
    site_id: SiteId
    """The site."""
    kind: MonitoringKind
    """siv (initiation), imv (interim) or cov (close-out)."""
    monitor_email: Email
    """The CRA, an employee."""
    planned_on: Date
    """Planned date."""
    status: MonitoringStatus = "planned"
    """planned or completed."""
    findings: Text | None = None
    """The visit report's findings."""


class Deviation(Record):
    """A protocol deviation."""

    id: DeviationId
    site_id: SiteId
    """The site."""
    subject_id: SubjectId | None = None
    """The subject, if one."""
    description: Text
    """What happened."""
    major: bool = False
    """Whether it affects safety or data integrity."""
    status: DeviationStatus = "open"
    """open or closed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was logged."""


class Enrollment(Value):
    """A study's enrollment against its target, by site."""

    study_id: StudyId
    """The study."""
    target: int
    """Target enrollment."""
    enrolled: int
    """Subjects enrolled or completed."""
    screening: int
    """Subjects in screening."""
    screen_failed: int
    """Subjects who failed screening."""
    withdrawn: int
    """Subjects withdrawn."""
    by_site: dict[str, int]
    """Enrolled or completed subjects per site id."""
    open_saes: int
    """Serious adverse events still open."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use a CRA's work e-mail")


def _guard_site(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        study = ctx.get(Study, new.study_id, field="study_id")
        if study.status == "completed":
            raise RuleViolation("the study is completed", field="study_id", hint="pick an open study")


def _active(ctx: Ctx, study_id: str) -> list[Subject]:
    return [s for s in ctx.where(Subject, study_id=study_id) if s.status in ("enrolled", "completed")]


studies = service.resource(
    Study,
    name="study",
    plural="studies",
    prefix="std",
    create=False,
    filters=("status", "phase", "sponsor", "protocol_number"),
    search=("title", "protocol_number"),
    update=("target_enrollment",),
    delete=False,
    transitions={
        "close_enrollment": Transition("status", ("enrolling",), "enrollment_closed", "close enrollment of the study"),
        "suspend": Transition("status", ("enrolling",), "suspended", "suspend the study"),
        "resume": Transition("status", ("suspended",), "enrolling", "resume the study"),
        "complete": Transition("status", ("enrollment_closed",), "completed", "complete the study"),
    },
)
sites = service.resource(
    Site,
    name="site",
    plural="sites",
    prefix="site",
    create=("study_id", "name", "city", "principal_investigator", "enrollment_cap"),
    filters=("study_id", "status", "principal_investigator"),
    search=("name", "city"),
    update=("irb_approved_on", "enrollment_cap", "principal_investigator"),
    delete=False,
    transitions={"close": Transition("status", ("activated",), "closed", "close the site")},
    guard_create=_guard_site,
    title="study site",
)
subjects = service.resource(
    Subject,
    name="subject",
    plural="subjects",
    prefix="subj",
    create=False,
    filters=("study_id", "site_id", "status", "arm", "email", "subject_number"),
    search=("name",),
    delete=False,
)
visits = service.resource(
    Visit,
    name="visit",
    plural="visits",
    prefix="svis",
    create=False,
    get=False,
    filters=("subject_id", "status", "name"),
    delete=False,
    transitions={"miss": Transition("status", ("scheduled",), "missed", "mark the visit missed")},
    title="subject visit",
)
adverse_events = service.resource(
    AdverseEvent,
    name="adverse_event",
    plural="adverse_events",
    prefix="ae",
    create=False,
    get=False,
    filters=("subject_id", "serious", "related", "status", "grade"),
    search=("term",),
    delete=False,
    transitions={"resolve": Transition("status", ("open",), "resolved", "resolve the adverse event")},
)
monitoring = service.resource(
    MonitoringVisit,
    name="monitoring_visit",
    plural="monitoring_visits",
    prefix="mon",
    create=False,
    get=False,
    filters=("site_id", "kind", "status", "monitor_email"),
    delete=False,
)
deviations = service.resource(
    Deviation,
    name="deviation",
    plural="deviations",
    prefix="dev",
    create=False,
    get=False,
    filters=("site_id", "subject_id", "major", "status"),
    search=("description",),
    delete=False,
    transitions={"close": Transition("status", ("open",), "closed", "close the deviation")},
    title="protocol deviation",
)


# -- domain tools -----------------------------------------------------------------------------


def _has_active_site(ctx: Ctx, study: Study) -> bool:
    return ctx.first(Site, study_id=study.id, status="activated") is not None


@service.tool(
    intent="open enrollment of the study",
    write=True,
    example=first_example(Study, "study_id", where={"status": "planned"}, match=_has_active_site),
)
def open_enrollment(ctx: Ctx, study_id: StudyId) -> Study:
    """Open a planned study for enrollment; it needs at least one activated site.

    Args:
        study_id: The study.
    """
    study = ctx.get(Study, study_id, field="study_id")
    if study.status != "planned":
        raise Conflict(f"study {study.protocol_number} is {study.status}", field="study_id", hint="only planned ones")
    if not _has_active_site(ctx, study):
        raise RuleViolation("no activated site", field="study_id", hint="activate a site with ctms__activate_site")
    return ctx.update(study, status="enrolling")


def _siv_done(ctx: Ctx, site: Site) -> bool:
    return ctx.first(MonitoringVisit, site_id=site.id, kind="siv", status="completed") is not None


def _activatable(ctx: Ctx, site: Site) -> bool:
    return site.irb_approved_on is not None and _siv_done(ctx, site)


@service.tool(
    intent="activate the study site",
    write=True,
    example=first_example(Site, "site_id", where={"status": "selected"}, match=_activatable),
)
def activate_site(ctx: Ctx, site_id: SiteId) -> Site:
    """Activate a selected site: it needs IRB approval and a completed site initiation visit.

    Args:
        site_id: The site.
    """
    site = ctx.get(Site, site_id, field="site_id")
    if site.status != "selected":
        raise Conflict(f"site {site.name} is {site.status}", field="site_id", hint="only selected sites activate")
    if site.irb_approved_on is None:
        raise RuleViolation("no IRB approval", field="site_id", hint="record irb_approved_on with ctms__update_site")
    if not _siv_done(ctx, site):
        raise RuleViolation(
            "no completed site initiation visit", field="site_id", hint="complete an siv with the CRA first"
        )
    return ctx.update(site, status="activated")


def _example_screen(ctx: Ctx) -> dict[str, Any] | None:
    for site in ctx.where(Site, status="activated"):
        if ctx.get(Study, site.study_id).status == "enrolling":
            return {
                "site_id": site.id,
                "name": "Avery Quinn",
                "email": "avery.quinn@example.org",
                "consent_signed_on": ctx.today().isoformat(),
            }
    return None


@service.tool(intent="screen the subject", write=True, example=_example_screen)
def screen_subject(ctx: Ctx, site_id: SiteId, name: PersonName, email: Email, consent_signed_on: Date) -> Subject:
    """Register a consented participant for screening at an activated site of an enrolling study.

    Args:
        site_id: The site.
        name: The participant.
        email: The participant's e-mail (one subject per study).
        consent_signed_on: When informed consent was signed (not in the future).
    """
    site = ctx.get(Site, site_id, field="site_id")
    study = ctx.get(Study, site.study_id)
    if study.status != "enrolling":
        raise Conflict(f"study {study.protocol_number} is {study.status}", field="site_id", hint="it is not enrolling")
    if site.status != "activated":
        raise RuleViolation(f"site {site.name} is {site.status}", field="site_id", hint="screen at an activated site")
    if consent_signed_on > ctx.today():
        raise RuleViolation("consent cannot be in the future", field="consent_signed_on", hint="sign consent first")
    for other in ctx.where(Subject, study_id=study.id, email=email):
        raise Conflict(f"{email} is already subject {other.subject_number}", field="email", hint="one per study")
    n = len(ctx.where(Subject, site_id=site.id)) + 1
    rank = sorted(x.id for x in ctx.where(Site, study_id=study.id)).index(site.id)
    number = f"{101 + rank:03d}-{n:03d}"
    return ctx.create(
        Subject,
        study_id=study.id,
        site_id=site.id,
        subject_number=number,
        name=name,
        email=email,
        consent_signed_on=consent_signed_on,
    )


def _screening(ctx: Ctx, subject_id: str) -> Subject:
    subj = ctx.get(Subject, subject_id, field="subject_id")
    if subj.status != "screening":
        raise Conflict(f"subject {subj.subject_number} is {subj.status}", field="subject_id", hint="not in screening")
    return subj


def _enrollable(ctx: Ctx, subj: Subject) -> bool:
    study, site = ctx.get(Study, subj.study_id), ctx.get(Site, subj.site_id)
    mine = [s for s in _active(ctx, study.id) if s.site_id == site.id]
    return (
        study.status == "enrolling"
        and len(_active(ctx, study.id)) < study.target_enrollment
        and len(mine) < site.enrollment_cap
    )


@service.tool(
    intent="enroll the subject",
    write=True,
    example=first_example(Subject, "subject_id", where={"status": "screening"}, match=_enrollable),
)
def enroll_subject(ctx: Ctx, subject_id: SubjectId) -> Subject:
    """Enroll a screened subject, randomize the arm and schedule the protocol's visits; caps apply.

    Args:
        subject_id: The subject.
    """
    subj = _screening(ctx, subject_id)
    study, site = ctx.get(Study, subj.study_id), ctx.get(Site, subj.site_id)
    if study.status != "enrolling":
        raise Conflict(f"study {study.protocol_number} is {study.status}", field="subject_id", hint="not enrolling")
    if len(_active(ctx, study.id)) >= study.target_enrollment:
        raise RuleViolation("the study reached its target enrollment", field="subject_id", hint="close enrollment")
    if len([s for s in _active(ctx, study.id) if s.site_id == site.id]) >= site.enrollment_cap:
        raise RuleViolation(f"site {site.name} reached its cap", field="subject_id", hint="raise enrollment_cap")
    today = ctx.today()
    arm: Any = ("treatment", "placebo")[len(_active(ctx, study.id)) % 2]
    for v in study.schedule:
        ctx.create(
            Visit,
            subject_id=subj.id,
            name=v.name,
            target_on=today + dt.timedelta(days=v.day),
            window_days=v.window_days,
        )
    return ctx.update(subj, status="enrolled", arm=arm, enrolled_on=today)


@service.tool(
    intent="screen-fail the subject",
    write=True,
    example=first_example(Subject, "subject_id", where={"status": "screening"}, reason="HbA1c above 10%."),
)
def screen_fail_subject(ctx: Ctx, subject_id: SubjectId, reason: Text) -> Subject:
    """Record that a subject in screening did not meet the eligibility criteria.

    Args:
        subject_id: The subject.
        reason: The criterion not met (required).
    """
    subj = _screening(ctx, subject_id)
    if not reason.strip():
        raise RuleViolation("a screen failure needs a reason", field="reason", hint="name the criterion")
    return ctx.update(subj, status="screen_failed", status_reason=reason.strip())


@service.tool(
    intent="withdraw the subject",
    write=True,
    example=first_example(Subject, "subject_id", where={"status": "enrolled"}, reason="Withdrew consent."),
)
def withdraw_subject(ctx: Ctx, subject_id: SubjectId, reason: Text) -> Subject:
    """Withdraw an enrolled or screening subject; their scheduled visits are cancelled.

    Args:
        subject_id: The subject.
        reason: Why (required).
    """
    subj = ctx.get(Subject, subject_id, field="subject_id")
    if subj.status not in ("screening", "enrolled"):
        raise Conflict(f"subject {subj.subject_number} is {subj.status}", field="subject_id", hint="nothing to do")
    if not reason.strip():
        raise RuleViolation("a withdrawal needs a reason", field="reason", hint="say why")
    for v in ctx.where(Visit, subject_id=subj.id, status="scheduled"):
        ctx.update(v, status="cancelled")
    return ctx.update(subj, status="withdrawn", status_reason=reason.strip())


def _no_pending(ctx: Ctx, subj: Subject) -> bool:
    return not ctx.where(Visit, subject_id=subj.id, status="scheduled")


@service.tool(
    intent="complete the subject's participation",
    write=True,
    example=first_example(Subject, "subject_id", where={"status": "enrolled"}, match=_no_pending),
)
def complete_subject(ctx: Ctx, subject_id: SubjectId) -> Subject:
    """Mark an enrolled subject's participation complete; no protocol visit may still be scheduled.

    Args:
        subject_id: The subject.
    """
    subj = ctx.get(Subject, subject_id, field="subject_id")
    if subj.status != "enrolled":
        raise Conflict(f"subject {subj.subject_number} is {subj.status}", field="subject_id", hint="only enrolled")
    pending = ctx.where(Visit, subject_id=subj.id, status="scheduled")
    if pending:
        raise RuleViolation(
            f"{len(pending)} visits are still scheduled", field="subject_id", hint="complete or miss them first"
        )
    return ctx.update(subj, status="completed")


@service.tool(
    intent="complete the subject visit",
    write=True,
    example=first_example(
        Visit, "visit_id", where={"status": "scheduled"}, match=lambda c, v: v.target_on <= c.today()
    ),
)
def complete_visit(ctx: Ctx, visit_id: VisitId, completed_on: Date | None = None) -> Visit:
    """Record a protocol visit done; outside its window it logs a protocol deviation.

    Args:
        visit_id: The visit.
        completed_on: When it took place (default today; not in the future).
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "scheduled":
        raise Conflict(f"visit {visit.name} is {visit.status}", field="visit_id", hint="only scheduled visits")
    day = completed_on or ctx.today()
    if day > ctx.today():
        raise RuleViolation("a visit cannot be completed in the future", field="completed_on", hint="use today")
    if abs((day - visit.target_on).days) > visit.window_days:
        subj = ctx.get(Subject, visit.subject_id)
        ctx.create(
            Deviation,
            site_id=subj.site_id,
            subject_id=subj.id,
            description=f"{visit.name} done on {day}, outside {visit.target_on} ± {visit.window_days} days.",
        )
    return ctx.update(visit, status="completed", completed_on=day)


def _example_ae(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Subject, status="enrolled")
    today = ctx.today().isoformat()
    return None if s is None else {"subject_id": s.id, "term": "Headache", "grade": 1, "onset_on": today}


@service.tool(intent="report the adverse event", write=True, example=_example_ae)
def report_adverse_event(
    ctx: Ctx,
    subject_id: SubjectId,
    term: Title,
    grade: Grade,
    onset_on: Date,
    serious: bool = False,
    related: bool = False,
    aware_on: Date | None = None,
) -> AdverseEvent:
    """Report an adverse event of a consented subject; an SAE reported over 24 h after awareness logs a deviation.

    Args:
        subject_id: The subject.
        term: MedDRA preferred term.
        grade: CTCAE grade 1-5 (grade 4-5 events are serious).
        onset_on: Onset date (after consent, not in the future).
        serious: Whether it is an SAE.
        related: Whether related to the study drug.
        aware_on: When the site learned of it (default today).
    """
    subj = ctx.get(Subject, subject_id, field="subject_id")
    if subj.status in ("screen_failed",):
        raise RuleViolation("the subject failed screening", field="subject_id", hint="not followed for AEs")
    today = ctx.today()
    if onset_on < subj.consent_signed_on or onset_on > today:
        raise RuleViolation(
            f"onset must be between consent ({subj.consent_signed_on}) and today",
            field="onset_on",
            hint="check the date",
        )
    aware = aware_on or today
    if aware < onset_on or aware > today:
        raise RuleViolation("awareness is between onset and today", field="aware_on", hint="check the date")
    serious = serious or grade >= 4
    if serious and today - aware > dt.timedelta(days=1):
        ctx.create(
            Deviation,
            site_id=subj.site_id,
            subject_id=subj.id,
            description=f"SAE {term} reported {(today - aware).days} days after awareness (limit 24 h).",
            major=True,
        )
    return ctx.create(
        AdverseEvent,
        subject_id=subj.id,
        term=term,
        grade=grade,
        serious=serious,
        related=related,
        onset_on=onset_on,
        aware_on=aware,
    )


def _example_monitor(ctx: Ctx) -> dict[str, Any] | None:
    free = [x for x in ctx.where(Site, status="activated") if not ctx.where(MonitoringVisit, site_id=x.id, kind="imv")]
    site = free[0] if free else None
    return (
        None
        if site is None
        else {
            "site_id": site.id,
            "kind": "imv",
            "monitor_email": ctx.population.employees[0].email,
            "planned_on": (ctx.today() + dt.timedelta(days=14)).isoformat(),
        }
    )


@service.tool(intent="schedule the monitoring visit", write=True, example=_example_monitor)
def schedule_monitoring_visit(
    ctx: Ctx, site_id: SiteId, kind: MonitoringKind, monitor_email: Email, planned_on: Date
) -> MonitoringVisit:
    """Plan a CRA visit: an SIV before activation, IMVs at activated sites, a close-out (COV) at an activated site.

    Args:
        site_id: The site.
        kind: siv, imv or cov.
        monitor_email: The CRA (an employee).
        planned_on: Planned date (today or later).
    """
    site = ctx.get(Site, site_id, field="site_id")
    if kind == "siv" and site.status != "selected":
        raise RuleViolation("an SIV is for a site not yet activated", field="kind", hint="plan an imv")
    if kind != "siv" and site.status != "activated":
        raise RuleViolation(f"site {site.name} is {site.status}", field="kind", hint="activate it first")
    _staff(ctx, monitor_email, "monitor_email")
    if planned_on < ctx.today():
        raise RuleViolation("planned_on is in the past", field="planned_on", hint="pick today or later")
    if ctx.first(MonitoringVisit, site_id=site.id, kind=kind, status="planned") is not None:
        raise Conflict(f"an {kind} is already planned there", field="kind", hint="complete it first")
    return ctx.create(MonitoringVisit, site_id=site.id, kind=kind, monitor_email=monitor_email, planned_on=planned_on)


@service.tool(
    intent="complete the monitoring visit",
    write=True,
    example=first_example(MonitoringVisit, "monitoring_visit_id", where={"status": "planned"}, findings="No issues."),
)
def complete_monitoring_visit(ctx: Ctx, monitoring_visit_id: MonitoringId, findings: Text) -> MonitoringVisit:
    """File the visit report of a planned monitoring visit.

    Args:
        monitoring_visit_id: The monitoring visit.
        findings: The report's findings (required).
    """
    mv = ctx.get(MonitoringVisit, monitoring_visit_id, field="monitoring_visit_id")
    if mv.status != "planned":
        raise Conflict("the visit is already completed", field="monitoring_visit_id", hint="nothing to do")
    if not findings.strip():
        raise RuleViolation("a visit report needs findings", field="findings", hint="write 'No issues.' if none")
    return ctx.update(mv, status="completed", findings=findings.strip())


@service.tool(intent="show the study's enrollment", example=first_example(Study, "study_id"))
def enrollment_summary(ctx: Ctx, study_id: StudyId) -> Enrollment:
    """A study's enrollment against target, by status and site, with its open SAEs.

    Args:
        study_id: The study.
    """
    study = ctx.get(Study, study_id, field="study_id")
    subs = ctx.where(Subject, study_id=study.id)
    active = _active(ctx, study.id)
    by_site = {site.id: sum(s.site_id == site.id for s in active) for site in ctx.where(Site, study_id=study.id)}
    saes = sum(1 for s in subs for ae in ctx.where(AdverseEvent, subject_id=s.id, serious=True) if ae.status == "open")
    return Enrollment(
        study_id=study.id,
        target=study.target_enrollment,
        enrolled=len(active),
        screening=sum(s.status == "screening" for s in subs),
        screen_failed=sum(s.status == "screen_failed" for s in subs),
        withdrawn=sum(s.status == "withdrawn" for s in subs),
        by_site=by_site,
        open_saes=saes,
    )


# -- seed -------------------------------------------------------------------------------------

SCHEDULE = (
    ProtocolVisit(name="Baseline", day=0, window_days=0),
    ProtocolVisit(name="Week 4", day=28, window_days=3),
    ProtocolVisit(name="Week 12", day=84, window_days=7),
)
STUDIES: tuple[tuple[str, str, Phase, StudyStatus, int], ...] = (
    ("CTX-101", "Once-weekly GLP-1 agonist in type 2 diabetes", "phase_3", "enrolling", 12),
    ("NRV-2040", "Migraine prevention with an oral CGRP antagonist", "phase_2", "planned", 8),
    ("ONC-330", "Adjuvant immunotherapy in stage III melanoma", "phase_3", "enrollment_closed", 40),
    ("DRM-415", "Topical JAK inhibitor in atopic dermatitis", "phase_2", "suspended", 20),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two studies at the practice's clinics, sites in every state, subjects in every status with visits and AEs."""
    pop = s.population
    docs = clinicians(pop)
    keys = {p.key for p, _ in docs}
    people = [p for p in list(pop.consumers)[:36] if p.key not in keys]
    sponsor = next((c for c in pop.customers if c.industry == "healthcare"), pop.customers[0])
    cra = pop.employees[0].email
    today = s.now.date()
    hospitals = list(pop.customers)[:4]
    made = [
        s.create(
            Study,
            protocol_number=num,
            title=title,
            phase=phase,
            sponsor=sponsor.name,
            status=status,
            target_enrollment=target,
            schedule=SCHEDULE,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=200),
        )
        for num, title, phase, status, target in STUDIES
    ]
    site_plan: tuple[tuple[int, SiteStatus, bool, bool], ...] = (
        (0, "activated", True, True),
        (0, "activated", True, True),
        (0, "selected", True, False),
        (1, "selected", True, True),
        (1, "activated", True, True),
    )
    sites_made: list[Site] = []
    for k, (si, st, irb, siv) in enumerate(site_plan):
        org = hospitals[k % len(hospitals)]
        site = s.create(
            Site,
            study_id=made[si].id,
            name=org.name,
            city=org.place.city,
            principal_investigator=docs[k % len(docs)][0].name,
            status=st,
            irb_approved_on=today - dt.timedelta(days=150 - k) if irb else None,
            enrollment_cap=(6, 4, 6, 5, 5)[k],
            created_at=s.ago(days=250),
            updated_at=s.ago(days=140),
        )
        sites_made.append(site)
        if siv:
            s.create(
                MonitoringVisit,
                site_id=site.id,
                kind="siv",
                monitor_email=cra,
                planned_on=today - dt.timedelta(days=130),
                status="completed",
                findings="Site staff trained; investigational product received.",
                created_at=s.ago(days=140),
                updated_at=s.ago(days=130),
            )
    s.create(
        MonitoringVisit,
        site_id=sites_made[0].id,
        kind="imv",
        monitor_email=cra,
        planned_on=today + dt.timedelta(days=10),
        created_at=s.ago(days=5),
        updated_at=s.ago(days=5),
    )
    plan: tuple[SubjectStatus, ...] = (
        "enrolled",
        "enrolled",
        "enrolled",
        "screening",
        "screen_failed",
        "withdrawn",
        "completed",
        "screening",
    )
    for k, status in enumerate(plan):
        p = people[k]
        site = sites_made[k % 2]
        consent = today - dt.timedelta(days=120 - 5 * k)
        enrolled = consent + dt.timedelta(days=14) if status in ("enrolled", "withdrawn", "completed") else None
        subj = s.create(
            Subject,
            study_id=site.study_id,
            site_id=site.id,
            subject_number=f"{101 + k % 2}-{k // 2 + 1:03d}",
            name=p.name,
            email=p.email,
            consent_signed_on=consent,
            status=status,
            arm=("treatment", "placebo")[k % 2] if enrolled else None,
            enrolled_on=enrolled,
            status_reason={"screen_failed": "eGFR below 45.", "withdrawn": "Moved out of state."}.get(status),
            created_at=s.ago(days=120 - 5 * k),
            updated_at=s.ago(days=10),
        )
        if enrolled is None:
            continue
        for v in SCHEDULE:
            target = enrolled + dt.timedelta(days=v.day)
            done = status == "completed" or k == 1 or v.day == 0 or (v.day == 28 and k != 2)
            vstat: VisitStatus = "completed" if done else "cancelled" if status == "withdrawn" else "scheduled"
            s.create(
                Visit,
                subject_id=subj.id,
                name=v.name,
                target_on=target,
                window_days=v.window_days,
                status=vstat,
                completed_on=target if done else None,
            )
        if k == 2:
            s.create(Deviation, site_id=site.id, subject_id=subj.id, description="Dosing diary not returned.")
        if k in (0, 1):
            s.create(
                AdverseEvent,
                subject_id=subj.id,
                term=("Nausea", "Pancreatitis")[k],
                grade=(1, 3)[k],
                serious=k == 1,
                related=True,
                onset_on=enrolled + dt.timedelta(days=20),
                aware_on=enrolled + dt.timedelta(days=21),
                status="open",
                created_at=s.ago(days=60),
                updated_at=s.ago(days=60),
            )
