"""Teampulse Engagement: employee engagement surveys, confidential results by team, and action plans.

Modeled on the Culture Amp API and product: surveys (engagement, pulse,
onboarding, exit) with an audience of departments, a close date and a
reporting (anonymity) threshold, that go draft → launched → closed; questions
in factors (engagement, leadership, enablement, alignment, growth, wellbeing)
rated on a 1-5 agreement scale, or free-text comments, editable only while the
survey is a draft; confidential responses (one per invited employee, never
listed with a name); results as favorable percentages (4-5 of 5) overall and by
team, where a team with fewer responses than the threshold is hidden; and
action plans a manager owns for one factor of one team after the results
(open → in_progress → completed, or cancelled).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "engagement",
    title="Teampulse Engagement",
    category="employee_engagement",
    modeled_on="Culture Amp API: surveys, questions and factors, launches, confidential responses with "
    "reporting thresholds, results by demographic (department), action plans",
    description="Employee engagement surveys: drafting questions by factor, launching to departments, "
    "collecting confidential responses, reading favorable scores overall and by team (small teams hidden "
    "under the anonymity threshold), and the action plans managers commit to after the results.",
)

SurveyId = Annotated[str, IdOf("engagement.survey")]
QuestionId = Annotated[str, IdOf("engagement.question")]
ResponseId = Annotated[str, IdOf("engagement.response")]
PlanId = Annotated[str, IdOf("engagement.action_plan")]

SurveyKind = Literal["engagement", "pulse", "onboarding", "exit"]
SurveyStatus = Literal["draft", "launched", "closed"]
Factor = Literal["engagement", "leadership", "enablement", "alignment", "growth", "wellbeing"]
QuestionKind = Literal["rating", "comment"]
PlanStatus = Literal["open", "in_progress", "completed", "cancelled"]
Department = Annotated[str, Field(min_length=1, max_length=60)]
"""A department of the company (a team in the results)."""
Score = Annotated[int, Field(ge=1, le=5)]
"""1 strongly disagree … 5 strongly agree."""
Threshold = Annotated[int, Field(ge=3, le=20)]
"""Fewest responses a group needs to be reported."""

FACTORS: tuple[Factor, ...] = ("engagement", "leadership", "enablement", "alignment", "growth", "wellbeing")


class Survey(Timestamped):
    """A survey sent to some departments."""

    id: SurveyId
    name: Title
    """The survey's name."""
    kind: SurveyKind
    """engagement, pulse, onboarding or exit."""
    owner_email: Email
    """The people-team employee running it."""
    departments: tuple[Department, ...] = ()
    """The audience's departments (empty: the whole company)."""
    reporting_threshold: Threshold = 5
    """Fewest responses a team needs for its results to show."""
    status: SurveyStatus = "draft"
    """draft, launched or closed."""
    launched_at: DateTime | None = None
    """When it was launched."""
    closes_on: Date | None = None
    """The last day it takes responses."""
    invited: int = 0
    """Employees invited at launch."""
    responses: int = 0
    """Responses received."""


class Question(Timestamped):
    """A survey question, in a factor."""

    id: QuestionId
    survey_id: SurveyId
    """The survey."""
    text: Title
    """The statement the employee rates (or the comment prompt)."""
    factor: Factor
    """The factor it measures."""
    kind: QuestionKind = "rating"
    """rating (1-5 agreement) or comment."""
    position: Annotated[int, Field(ge=1, le=200)] = 1
    """Its order in the survey."""


class Answer(Value):
    """One answer in a response."""

    question_id: QuestionId
    """The question."""
    score: Score | None = None
    """The rating (rating questions)."""
    comment: Text = ""
    """The comment (comment questions)."""


class Response(Timestamped):
    """A confidential response: stored with its author so each answers once, never reported by name."""

    id: ResponseId
    survey_id: SurveyId
    """The survey."""
    respondent_email: Email
    """Who answered (confidential)."""
    department: Department
    """The respondent's department, for team results."""
    answers: tuple[Answer, ...]
    """The answers."""


class ActionPlan(Timestamped):
    """What a team commits to improve on one factor after a survey."""

    id: PlanId
    survey_id: SurveyId
    """The survey whose results it answers."""
    department: Department
    """The team."""
    factor: Factor
    """The factor to improve."""
    title: Title
    """The action."""
    owner_email: Email
    """The manager who owns it."""
    due_date: Date
    """When it should be done."""
    status: PlanStatus = "open"
    """open, in_progress, completed or cancelled."""
    notes: Text = ""
    """Progress notes."""


class Receipt(Value):
    """What the respondent gets back: confirmation without the answers."""

    survey_id: SurveyId
    """The survey."""
    department: str
    """The department the answers count for."""
    submitted_at: dt.datetime
    """When."""
    responses: int
    """The survey's response count now."""


class FactorScore(Value):
    """A factor's result in one group."""

    factor: Factor
    """The factor."""
    favorable_percent: float
    """Share of ratings of 4 or 5."""
    average: float
    """Mean rating."""


class TeamResult(Value):
    """A team's (department's) results; hidden under the reporting threshold."""

    department: str
    """The team."""
    invited: int
    """Employees invited."""
    responses: int
    """Responses."""
    participation_percent: float
    """Responses over invited."""
    hidden: bool
    """True when responses are under the threshold: no scores are shown."""
    factors: list[FactorScore]
    """Scores per factor (empty when hidden)."""


class SurveyResults(Value):
    """A survey's results: overall and by team."""

    survey_id: SurveyId
    """The survey."""
    status: SurveyStatus
    """Its status."""
    invited: int
    """Employees invited."""
    responses: int
    """Responses."""
    participation_percent: float
    """Responses over invited."""
    overall: list[FactorScore]
    """Company-wide scores per factor (empty under the threshold)."""
    teams: list[TeamResult]
    """Per department."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _draft_only(ctx: Ctx, survey_id: str, field: str) -> Survey:
    survey = ctx.get(Survey, survey_id, field=field)
    if survey.status != "draft":
        raise RuleViolation(
            f"survey {survey.name!r} is {survey.status}; only drafts change",
            field=field,
            hint="create a new survey for different questions",
        )
    return survey


def _audience(ctx: Ctx, survey: Survey) -> list[Any]:
    return [p for p in ctx.population.employees if not survey.departments or p.department in survey.departments]


def _guard_survey(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        if old.status != "draft":
            raise RuleViolation(f"survey {old.id} is {old.status}", field="survey_id", hint="only drafts are deleted")
        for q in ctx.where(Question, survey_id=old.id):
            ctx.delete(q)
        return
    if old is not None and old.status != "draft" and new.status == old.status:
        raise RuleViolation(f"survey {old.id} is {old.status}", field="survey_id", hint="only drafts are edited")
    _staff(ctx, new.owner_email, "owner_email")
    known = {p.department for p in ctx.population.employees if p.department}
    for d in new.departments:
        if d not in known:
            raise RuleViolation(f"no department {d!r}", field="departments", hint=f"pick from {sorted(known)}")


def _guard_question(ctx: Ctx, new: Any, old: Any) -> None:
    _draft_only(ctx, (new or old).survey_id, "survey_id" if old is None else "question_id")


surveys = service.resource(
    Survey,
    name="survey",
    plural="surveys",
    prefix="srv",
    create=("name", "kind", "owner_email", "departments", "reporting_threshold"),
    filters=("status", "kind", "owner_email"),
    search=("name",),
    update=("name", "departments", "reporting_threshold", "owner_email"),
    delete=True,
    transitions={
        "close": Transition(
            "status",
            ("launched",),
            "closed",
            "close the survey",
            description="Close a launched survey early: it takes no more responses and its results are final.",
        ),
    },
    guard_create=_guard_survey,
    guard_update=_guard_survey,
    guard_delete=_guard_survey,
)
questions = service.resource(
    Question,
    name="question",
    plural="questions",
    prefix="q",
    create=("survey_id", "text", "factor", "kind", "position"),
    filters=("survey_id", "factor", "kind"),
    search=("text",),
    update=("text", "factor", "position"),
    delete=True,
    guard_create=_guard_question,
    guard_update=_guard_question,
    guard_delete=_guard_question,
)
responses = service.resource(
    Response,
    name="response",
    plural="responses",
    prefix="rsp",
    create=False,
    get=False,
    filters=None,
    delete=False,
)


def _guard_plan(ctx: Ctx, new: Any, old: Any) -> None:
    if new is not None and old is not None and new.status == old.status and old.status in ("completed", "cancelled"):
        raise RuleViolation(f"action plan {old.id} is {old.status}", field="action_plan_id", hint="create a new one")
    if new is not None:
        _staff(ctx, new.owner_email, "owner_email")


action_plans = service.resource(
    ActionPlan,
    name="action_plan",
    plural="action_plans",
    prefix="ap",
    create=False,
    filters=("survey_id", "department", "factor", "status", "owner_email"),
    search=("title",),
    update=("title", "owner_email", "due_date", "notes"),
    delete=False,
    transitions={
        "start": Transition("status", ("open",), "in_progress", "start the action plan"),
        "complete": Transition("status", ("open", "in_progress"), "completed", "complete the action plan"),
        "cancel": Transition("status", ("open", "in_progress"), "cancelled", "cancel the action plan"),
    },
    guard_update=_guard_plan,
    title="action plan",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_launch(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Survey, status="draft"):
        if ctx.first(Question, survey_id=s.id, kind="rating") is not None:
            return {"survey_id": s.id, "closes_on": (ctx.today() + dt.timedelta(days=14)).isoformat()}
    return None


@service.tool(intent="launch the survey", write=True, example=_example_launch)
def launch_survey(ctx: Ctx, survey_id: SurveyId, closes_on: Date) -> Survey:
    """Launch a draft survey to its audience; it needs a rating question and takes responses until closes_on.

    Args:
        survey_id: The draft survey.
        closes_on: The last day of responses (1 to 60 days ahead).
    """
    survey = ctx.get(Survey, survey_id, field="survey_id")
    if survey.status != "draft":
        raise Conflict(f"survey {survey.name!r} is already {survey.status}", field="survey_id", hint="nothing to do")
    if ctx.first(Question, survey_id=survey.id, kind="rating") is None:
        raise RuleViolation(
            "a survey needs at least one rating question",
            field="survey_id",
            hint="add one with engagement__create_question",
        )
    today = ctx.today()
    if not today < closes_on <= today + dt.timedelta(days=60):
        raise RuleViolation("closes_on must be 1 to 60 days ahead", field="closes_on", hint="pick a date in that range")
    invited = len(_audience(ctx, survey))
    if invited < survey.reporting_threshold:
        raise RuleViolation(
            f"only {invited} employees are invited, under the reporting threshold of {survey.reporting_threshold}",
            field="survey_id",
            hint="widen the departments or lower the threshold",
        )
    return ctx.update(survey, status="launched", launched_at=ctx.now(), closes_on=closes_on, invited=invited)


def _example_response(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Survey, status="launched"):
        taken = {r.respondent_email for r in ctx.where(Response, survey_id=s.id)}
        who = next((p for p in _audience(ctx, s) if p.email not in taken), None)
        if who is not None:
            qs = ctx.where(Question, survey_id=s.id)
            answers = [
                {"question_id": q.id, "score": 4} if q.kind == "rating" else {"question_id": q.id, "comment": "Fine."}
                for q in qs
            ]
            return {"survey_id": s.id, "respondent_email": who.email, "answers": answers}
    return None


@service.tool(intent="submit the survey response", write=True, example=_example_response)
def submit_response(ctx: Ctx, survey_id: SurveyId, respondent_email: Email, answers: list[Answer]) -> Receipt:
    """Submit an invited employee's confidential response to a launched survey; each employee answers once.

    Every rating question needs a score; comments are optional. The receipt does not echo the answers.

    Args:
        survey_id: The launched survey.
        respondent_email: The employee answering.
        answers: One answer per question (score for ratings, comment for comment questions).
    """
    survey = ctx.get(Survey, survey_id, field="survey_id")
    if survey.status != "launched":
        raise Conflict(f"survey {survey.name!r} is {survey.status}", field="survey_id", hint="it takes no responses")
    if survey.closes_on is not None and ctx.today() > survey.closes_on:
        raise RuleViolation(f"the survey closed on {survey.closes_on}", field="survey_id", hint="it is over")
    person = next((p for p in _audience(ctx, survey) if p.email == respondent_email), None)
    if person is None:
        raise RuleViolation(
            f"{respondent_email} is not invited", field="respondent_email", hint="only the audience answers"
        )
    if ctx.first(Response, survey_id=survey.id, respondent_email=respondent_email) is not None:
        raise Conflict("this employee has already responded", field="respondent_email", hint="each answers once")
    qs = {q.id: q for q in ctx.where(Question, survey_id=survey.id)}
    seen: set[str] = set()
    for a in answers:
        q = qs.get(a.question_id)
        if q is None or a.question_id in seen:
            raise RuleViolation(
                f"{a.question_id} is not a question of this survey, or is answered twice",
                field="answers",
                hint="see engagement__list_questions",
            )
        seen.add(a.question_id)
        if (q.kind == "rating") != (a.score is not None):
            raise RuleViolation(
                f"{q.id} is a {q.kind} question", field="answers", hint="score ratings 1-5; comment the others"
            )
    missing = [q for q in qs.values() if q.kind == "rating" and q.id not in seen]
    if missing:
        raise RuleViolation(f"rating {missing[0].id} is unanswered", field="answers", hint="score every rating")
    ctx.create(
        Response,
        survey_id=survey.id,
        respondent_email=respondent_email,
        department=person.department or "Unassigned",
        answers=tuple(answers),
    )
    survey = ctx.update(survey, responses=survey.responses + 1)
    return Receipt(
        survey_id=survey.id,
        department=person.department or "Unassigned",
        submitted_at=ctx.now(),
        responses=survey.responses,
    )


def _scores(qs: dict[str, Question], found: list[Response]) -> list[FactorScore]:
    by: dict[Factor, list[int]] = {}
    for r in found:
        for a in r.answers:
            q = qs.get(a.question_id)
            if q is not None and a.score is not None:
                by.setdefault(q.factor, []).append(a.score)
    return [
        FactorScore(
            factor=f,
            favorable_percent=round(100 * sum(s >= 4 for s in by[f]) / len(by[f]), 1),
            average=round(sum(by[f]) / len(by[f]), 2),
        )
        for f in FACTORS
        if by.get(f)
    ]


def _pct(n: int, d: int) -> float:
    return round(100 * n / d, 1) if d else 0.0


@service.tool(
    intent="show the survey's results by team",
    example=first_example(Survey, "survey_id", where={"status": "closed"}),
)
def survey_results(ctx: Ctx, survey_id: SurveyId) -> SurveyResults:
    """Favorable scores per factor, overall and by team; teams under the reporting threshold are hidden.

    Args:
        survey_id: A launched or closed survey.
    """
    survey = ctx.get(Survey, survey_id, field="survey_id")
    if survey.status == "draft":
        raise RuleViolation("a draft has no results", field="survey_id", hint="launch it first")
    qs = {q.id: q for q in ctx.where(Question, survey_id=survey.id)}
    found = ctx.where(Response, survey_id=survey.id)
    audience = _audience(ctx, survey)
    teams: list[TeamResult] = []
    for dept in sorted({p.department or "Unassigned" for p in audience}):
        mine = [r for r in found if r.department == dept]
        invited = sum((p.department or "Unassigned") == dept for p in audience)
        hidden = len(mine) < survey.reporting_threshold
        teams.append(
            TeamResult(
                department=dept,
                invited=invited,
                responses=len(mine),
                participation_percent=_pct(len(mine), invited),
                hidden=hidden,
                factors=[] if hidden else _scores(qs, mine),
            )
        )
    under = len(found) < survey.reporting_threshold
    return SurveyResults(
        survey_id=survey.id,
        status=survey.status,
        invited=survey.invited,
        responses=len(found),
        participation_percent=_pct(len(found), survey.invited),
        overall=[] if under else _scores(qs, found),
        teams=teams,
    )


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Survey, status="closed")
    if s is None:
        return None
    used = {(p.department, p.factor) for p in ctx.where(ActionPlan, survey_id=s.id) if p.status != "cancelled"}
    for dept in sorted({r.department for r in ctx.where(Response, survey_id=s.id)}):
        for f in FACTORS:
            if (dept, f) not in used:
                return {
                    "survey_id": s.id,
                    "department": dept,
                    "factor": f,
                    "title": "Monthly team retro",
                    "owner_email": ctx.population.employees[0].email,
                    "due_date": (ctx.today() + dt.timedelta(days=60)).isoformat(),
                }
    return None


@service.tool(intent="create the action plan", write=True, example=_example_plan)
def create_action_plan(
    ctx: Ctx,
    survey_id: SurveyId,
    department: Department,
    factor: Factor,
    title: Title,
    owner_email: Email,
    due_date: Date,
) -> ActionPlan:
    """Commit a team to an action on one factor after a closed survey's results; one live plan per team and factor.

    Args:
        survey_id: The closed survey.
        department: The team (its results must be reportable).
        factor: The factor to improve.
        title: The action.
        owner_email: The employee who owns it.
        due_date: When it should be done (in the future).
    """
    survey = ctx.get(Survey, survey_id, field="survey_id")
    if survey.status != "closed":
        raise RuleViolation(
            f"survey {survey.name!r} is {survey.status}", field="survey_id", hint="plan after it closes"
        )
    team = sum(r.department == department for r in ctx.where(Response, survey_id=survey.id))
    if team < survey.reporting_threshold:
        raise RuleViolation(
            f"{department} has no reportable results ({team} responses)",
            field="department",
            hint="plan for a team whose results show, or company-wide",
        )
    _staff(ctx, owner_email, "owner_email")
    if due_date <= ctx.today():
        raise RuleViolation("the due date must be in the future", field="due_date", hint="pick a later date")
    for p in ctx.where(ActionPlan, survey_id=survey.id, department=department, factor=factor):
        if p.status in ("open", "in_progress"):
            raise Conflict(f"{department} already has plan {p.id} on {factor}", field="factor", hint="update it")
    return ctx.create(
        ActionPlan,
        survey_id=survey.id,
        department=department,
        factor=factor,
        title=title,
        owner_email=owner_email,
        due_date=due_date,
    )


# -- seed -------------------------------------------------------------------------------------

QUESTIONS: tuple[tuple[str, Factor, QuestionKind], ...] = (
    ("I am proud to work for this company.", "engagement", "rating"),
    ("I would recommend this company as a great place to work.", "engagement", "rating"),
    ("Leaders have communicated a vision that motivates me.", "leadership", "rating"),
    ("I have the tools and resources to do my job well.", "enablement", "rating"),
    ("I understand how my work contributes to company goals.", "alignment", "rating"),
    ("I have access to the learning I need to grow.", "growth", "rating"),
    ("My workload is manageable.", "wellbeing", "rating"),
    ("What is one thing we should change?", "engagement", "comment"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """A closed engagement survey with results and plans, a launched pulse, and a draft onboarding survey."""
    pop = s.population
    owner = pop.staff("People", "HR", fallback=2)[0].email
    today = s.now.date()
    plans: list[tuple[str, SurveyKind, SurveyStatus, tuple[str, ...], int, float]] = [
        ("Annual engagement survey", "engagement", "closed", (), 90, 0.8),
        ("Quarterly wellbeing pulse", "pulse", "launched", (), 4, 0.35),
        ("New hire onboarding check-in", "onboarding", "draft", (), 0, 0.0),
    ]
    for k, (name, kind, status, depts, days, rate) in enumerate(plans):
        survey = s.create(
            Survey,
            name=name,
            kind=kind,
            owner_email=owner,
            departments=depts,
            status=status,
            launched_at=s.ago(days=days) if days else None,
            closes_on=today + dt.timedelta(days=21 - days) if days else None,
            created_at=s.ago(days=days + 10),
        )
        chosen = QUESTIONS if k == 0 else QUESTIONS[6:] if k == 1 else QUESTIONS[4:6]
        qs = [
            s.create(
                Question,
                survey_id=survey.id,
                text=t,
                factor=f,
                kind=qk,
                position=j + 1,
                created_at=s.ago(days=days + 9),
            )
            for j, (t, f, qk) in enumerate(chosen)
        ]
        if status == "draft":
            continue
        count = 0
        for p in pop.employees:
            if s.rng.random() > rate:
                continue
            bias = {"Engineering": 0.4, "Support": -0.6, "Sales": 0.1}.get(p.department or "", 0.0)
            answers = tuple(
                Answer(question_id=q.id, score=max(1, min(5, round(s.rng.gauss(3.7 + bias, 0.9)))))
                if q.kind == "rating"
                else Answer(question_id=q.id, comment="More clarity on priorities would help.")
                for q in qs
            )
            s.create(
                Response,
                survey_id=survey.id,
                respondent_email=p.email,
                department=p.department or "Unassigned",
                answers=answers,
                created_at=s.ago(days=max(days - 3, 0)),
            )
            count += 1
        s.update(survey, invited=len(pop.employees), responses=count)
        if k == 0:
            _seed_plans(s, survey)


def _seed_plans(s: SeedContext, survey: Survey) -> None:
    found = s.records(Response)
    depts = sorted({r.department for r in found if r.survey_id == survey.id})
    big = [d for d in depts if sum(r.department == d for r in found) >= survey.reporting_threshold]
    heads = s.population.employees
    statuses: tuple[PlanStatus, ...] = ("in_progress", "open", "completed", "cancelled")
    for k, dept in enumerate(big[:4]):
        owner = next((p for p in heads if p.department == dept), heads[0]).email
        s.create(
            ActionPlan,
            survey_id=survey.id,
            department=dept,
            factor=FACTORS[(k + 2) % len(FACTORS)],
            title=(
                "Fortnightly priorities review",
                "Tooling budget request",
                "Career ladder workshop",
                "No-meeting Fridays",
            )[k],
            owner_email=owner,
            due_date=s.now.date() + dt.timedelta(days=30 + 15 * k),
            status=statuses[k],
            created_at=s.ago(days=40 - 5 * k),
        )
