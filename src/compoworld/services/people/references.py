"""Vouchly References: automated reference checks for candidates, referees, questionnaires and fraud signals.

Modeled on the Crosschq 360 / SkillSurvey Pre-Hire API (reference requests per
candidate with a questionnaire, references/referees the candidate nominates,
surveys answered by the referees, fraud signals and the final report): a
request starts waiting for the candidate to nominate referees (at least the
request's minimum, at most five, never the candidate themselves, never the same
referee twice); submitting the referees invites them and moves the request to
in progress; each referee answers once with one 1-5 rating per rating question,
or declines; reminders are limited to three; the request completes when the
minimum number of referees have answered. Fraud signals are raised on a
referee using a personal e-mail address, a referee already used for another
candidate, and a survey answered in under two minutes; a signal is dismissed
or confirmed, and a confirmed one excludes the referee from the report.
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
from compoworld.engine.types import CompanyName, Date, DateTime, Email, IdOf, JobTitle, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "references",
    title="Vouchly References",
    category="reference_checks",
    modeled_on="Crosschq 360 API (reference requests, references, surveys, fraud signals, reports) and "
    "SkillSurvey Pre-Hire",
    description="Automated reference checks for hiring: a request per candidate with a questionnaire, the "
    "referees the candidate nominates, their invitations, reminders and survey answers, the fraud signals "
    "raised on suspicious references and the report recruiters read.",
)

QuestionnaireId = Annotated[str, IdOf("references.questionnaire")]
RequestId = Annotated[str, IdOf("references.request")]
RefereeId = Annotated[str, IdOf("references.referee")]
ResponseId = Annotated[str, IdOf("references.response")]
SignalId = Annotated[str, IdOf("references.signal")]

RequestStatus = Literal["awaiting_candidate", "in_progress", "completed", "canceled"]
RefereeStatus = Literal["nominated", "invited", "completed", "declined"]
Relationship = Literal["manager", "peer", "direct_report", "client", "other"]
SignalKind = Literal["personal_email", "shared_referee", "rushed_response"]
SignalStatus = Literal["open", "dismissed", "confirmed"]
Rating = Annotated[int, Field(ge=1, le=5)]
Prompt = Annotated[str, StringConstraints(min_length=5, max_length=300)]

MAX_REFEREES = 5
MAX_REMINDERS = 3
RUSHED_SECONDS = 120


class Questionnaire(Record):
    """A survey template referees answer: rating prompts and free-text prompts."""

    id: QuestionnaireId
    name: Title
    """Its name."""
    rating_prompts: tuple[Prompt, ...]
    """Prompts rated 1 (poor) to 5 (outstanding)."""
    text_prompts: tuple[Prompt, ...] = ()
    """Prompts answered in words."""
    active: bool = True
    """Whether new requests may use it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Request(Record):
    """A reference check of one candidate."""

    id: RequestId
    candidate_email: Email
    """The candidate."""
    candidate_name: PersonName
    """The candidate's name."""
    job_title: JobTitle
    """The role they are hired for."""
    questionnaire_id: QuestionnaireId
    """The survey referees answer."""
    requested_by: Email
    """The recruiter who ordered it."""
    min_references: Annotated[int, Field(ge=1, le=MAX_REFEREES)] = 2
    """Answers needed to complete it."""
    due_date: Date
    """When the recruiter needs it."""
    status: RequestStatus = "awaiting_candidate"
    """awaiting_candidate, in_progress, completed or canceled."""
    completed_at: DateTime | None = None
    """When the last needed answer came in."""
    created_at: Annotated[DateTime, CREATED]
    """When it was ordered."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Referee(Record):
    """A person the candidate nominated to give a reference."""

    id: RefereeId
    request_id: RequestId
    """The request."""
    name: PersonName
    """The referee's name."""
    email: Email
    """The referee's e-mail."""
    company: CompanyName | None = None
    """Where they worked with the candidate."""
    relationship: Relationship
    """manager, peer, direct_report, client or other."""
    status: RefereeStatus = "nominated"
    """nominated, invited, completed or declined."""
    reminders_sent: Annotated[int, Field(ge=0, le=MAX_REMINDERS)] = 0
    """Reminders sent since the invitation."""
    invited_at: DateTime | None = None
    """When the survey was sent."""
    completed_at: DateTime | None = None
    """When they answered."""
    created_at: Annotated[DateTime, CREATED]
    """When they were nominated."""


class Response(Record):
    """A referee's answers to the questionnaire."""

    id: ResponseId
    request_id: RequestId
    """The request."""
    referee_id: RefereeId
    """Who answered."""
    ratings: tuple[Rating, ...]
    """One rating per rating prompt, in order."""
    comments: Text = ""
    """Free-text answers."""
    would_rehire: bool
    """Whether they would work with the candidate again."""
    seconds_spent: Annotated[int, Field(ge=1, le=86400)]
    """How long the survey took."""
    submitted_at: Annotated[DateTime, CREATED]
    """When it was submitted."""


class Signal(Record):
    """A fraud signal raised on a referee."""

    id: SignalId
    request_id: RequestId
    """The request."""
    referee_id: RefereeId
    """The referee concerned."""
    kind: SignalKind
    """personal_email, shared_referee or rushed_response."""
    detail: Text
    """What was seen."""
    status: SignalStatus = "open"
    """open, dismissed or confirmed."""
    reviewed_by: Email | None = None
    """The employee who reviewed it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was raised."""


class RefereeLine(Value):
    """One referee in a report."""

    referee_id: RefereeId
    """The referee."""
    name: PersonName
    """Their name."""
    relationship: Relationship
    """How they know the candidate."""
    average_rating: float
    """Their average rating."""
    would_rehire: bool
    """Whether they would rehire."""


class Report(Value):
    """The reference report of a request, counting only referees without a confirmed signal."""

    request_id: RequestId
    """The request."""
    candidate_email: Email
    """The candidate."""
    status: RequestStatus
    """The request's status."""
    responses: int
    """Answers counted."""
    excluded: int
    """Answers left out for a confirmed fraud signal."""
    average_rating: float
    """Average of all counted ratings (0 when none)."""
    would_rehire_percent: float
    """Share of counted referees who would rehire, 0-100."""
    open_signals: int
    """Signals not yet reviewed."""
    referees: list[RefereeLine]
    """The counted referees."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a member of the team", field=field, hint="use an employee's e-mail")


def _guard_questionnaire(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        if ctx.first(Request, questionnaire_id=old.id) is not None:
            raise Conflict(
                f"questionnaire {old.id} is used by requests",
                field="questionnaire_id",
                hint="retire it with references__retire_questionnaire instead",
            )
        return
    if not new.rating_prompts:
        raise RuleViolation("a questionnaire needs a rating prompt", field="rating_prompts", hint="add one")
    if old is not None and new.rating_prompts != old.rating_prompts and ctx.first(Request, questionnaire_id=old.id):
        raise RuleViolation(
            "rating prompts of a questionnaire in use cannot change",
            field="rating_prompts",
            hint="create a new questionnaire so that answers stay comparable",
        )


def _guard_request(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "canceled" and old.status != "canceled":
        for ref in ctx.where(Referee, request_id=new.id):
            if ref.status in ("nominated", "invited"):
                ctx.update(ref, status="declined")
    if old is not None and new.due_date != old.due_date and new.due_date < ctx.today():
        raise RuleViolation("due_date is in the past", field="due_date", hint="pick today or later")


questionnaires = service.resource(
    Questionnaire,
    name="questionnaire",
    plural="questionnaires",
    prefix="qn",
    create=("name", "rating_prompts", "text_prompts"),
    filters=("active",),
    search=("name",),
    update=("name", "rating_prompts", "text_prompts"),
    transitions={"retire": Transition("active", (True,), False, "retire the questionnaire")},
    guard_create=_guard_questionnaire,
    guard_update=_guard_questionnaire,
    guard_delete=_guard_questionnaire,
)
requests = service.resource(
    Request,
    name="request",
    plural="requests",
    prefix="rc",
    create=False,
    filters=("status", "candidate_email", "requested_by", "questionnaire_id"),
    search=("candidate_name", "job_title"),
    update=("due_date",),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("awaiting_candidate", "in_progress"),
            "canceled",
            "cancel the reference check",
            description="Cancel an open reference check; referees who have not answered are released.",
            destructive=True,
        )
    },
    guard_update=_guard_request,
    title="reference request",
)
referees = service.resource(
    Referee,
    name="referee",
    plural="referees",
    prefix="ref",
    create=False,
    filters=("request_id", "email", "status", "relationship"),
    search=("name", "company"),
    delete=False,
)
responses = service.resource(
    Response, name="response", plural="responses", prefix="rsp", create=False, filters=("request_id",), delete=False
)
signals = service.resource(
    Signal,
    name="signal",
    plural="signals",
    prefix="sig",
    create=False,
    filters=("request_id", "referee_id", "kind", "status"),
    delete=False,
    title="fraud signal",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    used = {r.candidate_email for r in ctx.scan(Request)}
    q = ctx.first(Questionnaire, active=True)
    for p in ctx.population.consumers:
        if p.email not in used and q is not None:
            return {
                "candidate_email": p.email,
                "candidate_name": p.name,
                "job_title": "Account Executive",
                "questionnaire_id": q.id,
                "requested_by": ctx.population.employees[0].email,
                "due_date": (ctx.today() + dt.timedelta(days=5)).isoformat(),
            }
    return None


@service.tool(intent="request a reference check for the candidate", write=True, example=_example_request)
def create_request(
    ctx: Ctx,
    candidate_email: Email,
    candidate_name: PersonName,
    job_title: JobTitle,
    questionnaire_id: QuestionnaireId,
    requested_by: Email,
    due_date: Date,
    min_references: Annotated[int, Field(ge=1, le=MAX_REFEREES)] = 2,
) -> Request:
    """Order a reference check; the candidate is asked to nominate referees. One open check per candidate.

    Args:
        candidate_email: The candidate's e-mail.
        candidate_name: The candidate's name.
        job_title: The role they are hired for.
        questionnaire_id: An active questionnaire.
        requested_by: The recruiter ordering it.
        due_date: When it is needed (today or later).
        min_references: Answers needed to complete it (1-5).
    """
    q = ctx.get(Questionnaire, questionnaire_id, field="questionnaire_id")
    if not q.active:
        raise RuleViolation(f"questionnaire {q.id} is retired", field="questionnaire_id", hint="use an active one")
    _staff(ctx, requested_by, "requested_by")
    if due_date < ctx.today():
        raise RuleViolation("due_date is in the past", field="due_date", hint="pick today or later")
    for other in ctx.where(Request, candidate_email=candidate_email):
        if other.status in ("awaiting_candidate", "in_progress"):
            raise Conflict(
                f"{candidate_email} already has open reference check {other.id}",
                field="candidate_email",
                hint="follow that one up, or cancel it first",
            )
    return ctx.create(
        Request,
        candidate_email=candidate_email,
        candidate_name=candidate_name,
        job_title=job_title,
        questionnaire_id=q.id,
        requested_by=requested_by,
        due_date=due_date,
        min_references=min_references,
    )


def _request(ctx: Ctx, request_id: str, *allowed: RequestStatus) -> Request:
    req = ctx.get(Request, request_id, field="request_id")
    if req.status not in allowed:
        raise RuleViolation(
            f"reference check {req.id} is {req.status}", field="request_id", hint=f"it must be {' or '.join(allowed)}"
        )
    return req


def _personal_domains(ctx: Ctx) -> set[str]:
    return {p.email.rsplit("@", 1)[1] for p in ctx.population.consumers}


def _example_nominate(ctx: Ctx) -> dict[str, Any] | None:
    req = ctx.first(Request, status="awaiting_candidate")
    taken = {r.email for r in ctx.where(Referee, request_id=req.id)} if req else set()
    for p in ctx.population.contacts:
        if req is not None and p.email not in taken:
            return {"request_id": req.id, "name": p.name, "email": p.email, "relationship": "manager"}
    return None


@service.tool(intent="nominate the referee", write=True, example=_example_nominate)
def nominate_referee(
    ctx: Ctx,
    request_id: RequestId,
    name: PersonName,
    email: Email,
    relationship: Relationship,
    company: CompanyName | None = None,
) -> Referee:
    """The candidate nominates a referee (at most five, not themselves, each once).

    Args:
        request_id: A reference check awaiting the candidate or in progress.
        name: The referee's name.
        email: The referee's e-mail.
        relationship: manager, peer, direct_report, client or other.
        company: Where they worked together.
    """
    req = _request(ctx, request_id, "awaiting_candidate", "in_progress")
    if email.lower() == req.candidate_email.lower():
        raise RuleViolation("a candidate cannot be their own referee", field="email", hint="nominate someone else")
    mine = ctx.where(Referee, request_id=req.id)
    if any(r.email.lower() == email.lower() for r in mine):
        raise Conflict(f"{email} is already a referee of this check", field="email", hint="nominate someone else")
    if len(mine) >= MAX_REFEREES:
        raise RuleViolation(f"a check has at most {MAX_REFEREES} referees", field="request_id", hint="enough")
    in_progress = req.status == "in_progress"
    ref = ctx.create(
        Referee,
        request_id=req.id,
        name=name,
        email=email,
        company=company,
        relationship=relationship,
        status="invited" if in_progress else "nominated",
        invited_at=ctx.now() if in_progress else None,
    )
    _screen(ctx, req, ref)
    return ref


def _screen(ctx: Ctx, req: Request, ref: Referee) -> None:
    domain = ref.email.rsplit("@", 1)[1].lower()
    if domain in _personal_domains(ctx):
        _raise_signal(ctx, req, ref, "personal_email", f"{ref.email} is a personal address, not a work one")
    for other in ctx.where(Referee, email=ref.email):
        if other.request_id != req.id:
            other_req = ctx.get(Request, other.request_id)
            if other_req.candidate_email != req.candidate_email:
                _raise_signal(ctx, req, ref, "shared_referee", f"also a referee of {other_req.candidate_email}")
                return


def _raise_signal(ctx: Ctx, req: Request, ref: Referee, kind: SignalKind, detail: str) -> None:
    ctx.create(Signal, request_id=req.id, referee_id=ref.id, kind=kind, detail=detail)


@service.tool(
    intent="remove the referee",
    write=True,
    destructive=True,
    example=first_example(Referee, "referee_id", where={"status": "nominated"}),
)
def remove_referee(ctx: Ctx, referee_id: RefereeId) -> Request:
    """Remove a nominated referee before the survey is sent.

    Args:
        referee_id: The nominated referee.
    """
    ref = ctx.get(Referee, referee_id, field="referee_id")
    if ref.status != "nominated":
        raise RuleViolation(f"referee {ref.id} is {ref.status}", field="referee_id", hint="only nominated ones")
    for sig in ctx.where(Signal, referee_id=ref.id):
        ctx.delete(sig)
    ctx.delete(ref)
    return ctx.get(Request, ref.request_id)


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for req in ctx.where(Request, status="awaiting_candidate"):
        if len(ctx.where(Referee, request_id=req.id)) >= req.min_references:
            return {"request_id": req.id}
    return None


@service.tool(intent="submit the candidate's referees", write=True, example=_example_submit)
def submit_referees(ctx: Ctx, request_id: RequestId) -> Request:
    """The candidate submits their referees: at least the minimum; every nominated referee gets the survey.

    Args:
        request_id: A reference check awaiting the candidate.
    """
    req = _request(ctx, request_id, "awaiting_candidate")
    mine = ctx.where(Referee, request_id=req.id)
    if len(mine) < req.min_references:
        raise RuleViolation(
            f"{len(mine)} referee(s) nominated; {req.min_references} needed",
            field="request_id",
            hint="nominate more with references__nominate_referee",
        )
    for ref in mine:
        ctx.update(ref, status="invited", invited_at=ctx.now())
    return ctx.update(req, status="in_progress")


@service.tool(
    intent="remind the referee",
    write=True,
    example=first_example(Referee, "referee_id", where={"status": "invited", "reminders_sent": 0}),
)
def remind_referee(ctx: Ctx, referee_id: RefereeId) -> Referee:
    """Send an invited referee a reminder (at most three).

    Args:
        referee_id: The invited referee.
    """
    ref = ctx.get(Referee, referee_id, field="referee_id")
    if ref.status != "invited":
        raise RuleViolation(f"referee {ref.id} is {ref.status}", field="referee_id", hint="only invited referees")
    if ref.reminders_sent >= MAX_REMINDERS:
        raise RuleViolation(
            f"{MAX_REMINDERS} reminders already sent",
            field="referee_id",
            hint="ask the candidate to nominate another referee",
        )
    return ctx.update(ref, reminders_sent=ref.reminders_sent + 1)


@service.tool(
    intent="record that the referee declined",
    write=True,
    example=first_example(Referee, "referee_id", where={"status": "invited"}),
)
def decline_referee(ctx: Ctx, referee_id: RefereeId) -> Referee:
    """Record that an invited referee declined to give a reference.

    Args:
        referee_id: The invited referee.
    """
    ref = ctx.get(Referee, referee_id, field="referee_id")
    if ref.status != "invited":
        raise RuleViolation(f"referee {ref.id} is {ref.status}", field="referee_id", hint="only invited referees")
    return ctx.update(ref, status="declined")


def _example_answer(ctx: Ctx) -> dict[str, Any] | None:
    for ref in ctx.where(Referee, status="invited"):
        req = ctx.get(Request, ref.request_id)
        q = ctx.get(Questionnaire, req.questionnaire_id)
        return {
            "referee_id": ref.id,
            "ratings": [4] * len(q.rating_prompts),
            "would_rehire": True,
            "seconds_spent": 600,
            "comments": "Dependable and clear in communication.",
        }
    return None


@service.tool(intent="record the referee's answers", write=True, example=_example_answer)
def record_response(
    ctx: Ctx,
    referee_id: RefereeId,
    ratings: list[Rating],
    would_rehire: bool,
    seconds_spent: Annotated[int, Field(ge=1, le=86400)],
    comments: Text = "",
) -> Response:
    """Record an invited referee's survey answers: one 1-5 rating per rating prompt, in order.

    The check completes when its minimum number of referees have answered; a survey
    answered in under two minutes raises a rushed_response signal.

    Args:
        referee_id: The invited referee.
        ratings: One rating per rating prompt of the questionnaire.
        would_rehire: Whether they would work with the candidate again.
        seconds_spent: How long the survey took.
        comments: Free-text answers.
    """
    ref = ctx.get(Referee, referee_id, field="referee_id")
    if ref.status != "invited":
        raise RuleViolation(
            f"referee {ref.id} is {ref.status}",
            field="referee_id",
            hint="only an invited referee answers, once",
        )
    req = _request(ctx, ref.request_id, "in_progress", "completed")
    q = ctx.get(Questionnaire, req.questionnaire_id)
    if len(ratings) != len(q.rating_prompts):
        raise RuleViolation(
            f"{len(ratings)} rating(s) for {len(q.rating_prompts)} prompt(s)",
            field="ratings",
            hint="give one rating per rating prompt, in order",
        )
    resp = ctx.create(
        Response,
        request_id=req.id,
        referee_id=ref.id,
        ratings=tuple(ratings),
        comments=comments,
        would_rehire=would_rehire,
        seconds_spent=seconds_spent,
    )
    ctx.update(ref, status="completed", completed_at=ctx.now())
    if seconds_spent < RUSHED_SECONDS:
        _raise_signal(ctx, req, ref, "rushed_response", f"survey answered in {seconds_spent} seconds")
    done = len(ctx.where(Referee, request_id=req.id, status="completed"))
    if req.status == "in_progress" and done >= req.min_references:
        ctx.update(req, status="completed", completed_at=ctx.now())
    return resp


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    sig = ctx.first(Signal, status="open")
    reviewer = ctx.population.employees[0].email
    return None if sig is None else {"signal_id": sig.id, "confirmed": False, "reviewed_by": reviewer}


@service.tool(intent="review the fraud signal", write=True, example=_example_review)
def review_signal(ctx: Ctx, signal_id: SignalId, confirmed: bool, reviewed_by: Email) -> Signal:
    """Dismiss or confirm an open fraud signal; a confirmed one excludes the referee from the report.

    Args:
        signal_id: The open signal.
        confirmed: True: the reference is not genuine; False: dismiss the signal.
        reviewed_by: The employee reviewing it.
    """
    sig = ctx.get(Signal, signal_id, field="signal_id")
    if sig.status != "open":
        raise Conflict(f"signal {sig.id} is already {sig.status}", field="signal_id", hint="nothing to review")
    _staff(ctx, reviewed_by, "reviewed_by")
    return ctx.update(sig, status="confirmed" if confirmed else "dismissed", reviewed_by=reviewed_by)


@service.tool(intent="show the reference report", example=first_example(Request, "request_id"))
def request_report(ctx: Ctx, request_id: RequestId) -> Report:
    """The reference report: average rating, rehire share and each counted referee.

    Args:
        request_id: The reference check.
    """
    req = ctx.get(Request, request_id, field="request_id")
    sigs = ctx.where(Signal, request_id=req.id)
    bad = {s.referee_id for s in sigs if s.status == "confirmed"}
    counted = [r for r in ctx.where(Response, request_id=req.id) if r.referee_id not in bad]
    lines = []
    for r in counted:
        ref = ctx.get(Referee, r.referee_id)
        avg = round(sum(r.ratings) / len(r.ratings), 2)
        lines.append(
            RefereeLine(
                referee_id=ref.id,
                name=ref.name,
                relationship=ref.relationship,
                average_rating=avg,
                would_rehire=r.would_rehire,
            )
        )
    allr = [x for r in counted for x in r.ratings]
    return Report(
        request_id=req.id,
        candidate_email=req.candidate_email,
        status=req.status,
        responses=len(counted),
        excluded=len(ctx.where(Response, request_id=req.id)) - len(counted),
        average_rating=round(sum(allr) / len(allr), 2) if allr else 0.0,
        would_rehire_percent=round(100 * sum(r.would_rehire for r in counted) / len(counted), 1) if counted else 0.0,
        open_signals=sum(s.status == "open" for s in sigs),
        referees=lines,
    )


# -- seed -------------------------------------------------------------------------------------

STANDARD = (
    "How would you rate their overall job performance?",
    "How well do they communicate with colleagues?",
    "How reliable are they in meeting commitments?",
    "How well do they handle feedback?",
)
LEADER = (
    "How effective are they at developing their team?",
    "How well do they make decisions under pressure?",
    "How well do they set direction and priorities?",
)
PLAN: tuple[tuple[RequestStatus, str, int], ...] = (
    ("completed", "Account Executive", 2),
    ("completed", "Software Engineer", 3),
    ("in_progress", "Customer Support Specialist", 2),
    ("in_progress", "Engineering Manager", 2),
    ("awaiting_candidate", "Data Analyst", 2),
    ("awaiting_candidate", "Product Designer", 3),
    ("canceled", "Marketing Manager", 2),
)
RELATIONS: tuple[Relationship, ...] = ("manager", "peer", "direct_report", "client")


@service.seeder
def seed(s: SeedContext) -> None:
    """Questionnaires, consumers as candidates with checks in every state, business contacts as referees."""
    pop = s.population
    recruiters = pop.staff("People", fallback=3)
    qs = [
        s.create(
            Questionnaire,
            name="Standard professional reference",
            rating_prompts=STANDARD,
            text_prompts=("What should their next manager know?",),
            created_at=s.ago(days=400),
        ),
        s.create(
            Questionnaire,
            name="People leader reference",
            rating_prompts=STANDARD[:2] + LEADER,
            text_prompts=("Describe a hard call they made.",),
            created_at=s.ago(days=300),
        ),
        s.create(
            Questionnaire,
            name="Legacy 2022 survey",
            rating_prompts=STANDARD[:2],
            active=False,
            created_at=s.ago(days=900),
        ),
    ]
    contacts = list(pop.contacts)
    personal = pop.consumers[-5:]
    used = 0
    for k, (status, title, minimum) in enumerate(PLAN):
        cand = pop.consumers[5 + k]
        q = qs[1] if "Manager" in title else qs[0]
        created = s.ago(days=30 - 3 * k)
        req = s.create(
            Request,
            candidate_email=cand.email,
            candidate_name=cand.name,
            job_title=title,
            questionnaire_id=q.id,
            requested_by=recruiters[k % len(recruiters)].email,
            min_references=minimum,
            due_date=(s.now + dt.timedelta(days=3 + k)).date(),
            status=status,
            completed_at=created + dt.timedelta(days=4) if status == "completed" else None,
            created_at=created,
            updated_at=created,
        )
        count = {"completed": minimum, "in_progress": minimum + 1, "canceled": 1}.get(
            status, minimum - 1 if k == 4 else minimum
        )
        for j in range(count):
            p = personal[k % len(personal)] if (k, j) in ((2, 1), (3, 2)) else contacts[used % len(contacts)]
            used += 1
            _seed_referee(s, req, q, p.name, p.email, RELATIONS[j % 4], j, created, personal)
    if contacts:  # a referee shared by two candidates' checks
        first = s.records(Referee)[0]
        req = next(r for r in s.records(Request) if r.status == "in_progress")
        ref = s.create(
            Referee,
            request_id=req.id,
            name=first.name,
            email=first.email,
            relationship="peer",
            status="invited",
            invited_at=req.created_at,
            created_at=req.created_at,
        )
        s.create(
            Signal,
            request_id=req.id,
            referee_id=ref.id,
            kind="shared_referee",
            detail="also a referee of another candidate",
            created_at=req.created_at,
        )


def _seed_referee(
    s: SeedContext,
    req: Request,
    q: Questionnaire,
    name: str,
    email: str,
    rel: Relationship,
    j: int,
    created: dt.datetime,
    personal: Any,
) -> None:
    answered = req.status == "completed" or (req.status == "in_progress" and j == 0)
    status: RefereeStatus = "invited"
    if answered:
        status = "completed"
    elif req.status in ("awaiting_candidate", "canceled"):
        status = "nominated" if req.status == "awaiting_candidate" else "declined"
    ref = s.create(
        Referee,
        request_id=req.id,
        name=name,
        email=email,
        company=None if email in {p.email for p in personal} else email.rsplit("@", 1)[1].split(".")[0].title(),
        relationship=rel,
        status=status,
        reminders_sent=1 if status == "invited" and j == 1 else 0,
        invited_at=created + dt.timedelta(days=1) if status != "nominated" else None,
        completed_at=created + dt.timedelta(days=3) if answered else None,
        created_at=created,
    )
    if email in {p.email for p in personal}:
        s.create(
            Signal,
            request_id=req.id,
            referee_id=ref.id,
            kind="personal_email",
            detail=f"{email} is a personal address, not a work one",
            created_at=created,
        )
    if answered:
        rushed = req.status == "completed" and j == 1 and len(q.rating_prompts) > 3
        base = 3 + (j + len(req.id)) % 3
        s.create(
            Response,
            request_id=req.id,
            referee_id=ref.id,
            ratings=tuple(min(5, base + (i % 2)) for i in range(len(q.rating_prompts))),
            comments="Strong collaborator; would benefit from more delegation.",
            would_rehire=base >= 4,
            seconds_spent=75 if rushed else 540 + 60 * j,
            submitted_at=created + dt.timedelta(days=3),
        )
        if rushed:
            s.create(
                Signal,
                request_id=req.id,
                referee_id=ref.id,
                kind="rushed_response",
                detail="survey answered in 75 seconds",
                created_at=created + dt.timedelta(days=3),
            )
