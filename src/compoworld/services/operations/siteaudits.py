"""Checkpoint Audits: inspection checklists at the company's sites, scored, with actions for failed items.

Modeled on the SafetyCulture (iAuditor) API: sites with a manager; templates
whose items are questions (yes/no/N-A, a 1-5 rating, or free text) with a
weight and a critical flag, edited as a draft and published before use, then
archived; inspections started from a published template at an active site by
an inspector, answered item by item (answers must fit the question type),
and completed only when every question is answered: the score is the weighted
share of passed scored items, a failed item ("no", or a rating of 1-2)
raises an action, and a failed critical item fails the whole inspection.
Actions go to_do → in_progress → complete, or cant_do with a reason; they are
assigned to staff with a due date. Schedules repeat a template at a site daily,
weekly or monthly; starting the due inspection moves the next due date on,
and a paused schedule starts nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Date, DateTime, Email, IdOf, Percent, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "siteaudits",
    title="Checkpoint Audits",
    category="inspection_checklists",
    modeled_on="SafetyCulture (iAuditor) API: sites, templates with questions, inspections with answers and "
    "scores, actions from failed items, schedules",
    description="Inspection checklists for the company's sites: templates of weighted questions, inspections "
    "answered on the floor and scored, actions raised from failed items and assigned to staff, and "
    "recurring schedules of inspections.",
)

SiteId = Annotated[str, IdOf("siteaudits.site")]
TemplateId = Annotated[str, IdOf("siteaudits.template")]
InspectionId = Annotated[str, IdOf("siteaudits.inspection")]
ActionId = Annotated[str, IdOf("siteaudits.action")]
ScheduleId = Annotated[str, IdOf("siteaudits.schedule")]

QuestionKind = Literal["yes_no", "rating", "text"]
TemplateStatus = Literal["draft", "published", "archived"]
InspectionStatus = Literal["in_progress", "completed"]
ActionStatus = Literal["to_do", "in_progress", "complete", "cant_do"]
Priority = Literal["low", "medium", "high"]
Frequency = Literal["daily", "weekly", "monthly"]
Weight = Annotated[int, Field(ge=1, le=10)]

FAILING = {"no", "1", "2"}
ALLOWED: dict[QuestionKind, set[str] | None] = {
    "yes_no": {"yes", "no", "na"},
    "rating": {"1", "2", "3", "4", "5", "na"},
    "text": None,
}


class Question(Value):
    """A question on a template."""

    label: Title
    """The question, unique on its template."""
    kind: QuestionKind = "yes_no"
    """yes_no, rating (1-5) or text."""
    weight: Weight = 1
    """Its weight in the score."""
    critical: bool = False
    """Whether failing it fails the inspection."""


class Answer(Value):
    """The response to one question of an inspection."""

    label: Title
    """The question."""
    response: Text
    """yes / no / na, 1-5, or text."""
    failed: bool = False
    """Whether the response fails the question."""
    note: Text = ""
    """The inspector's note."""


class Site(Timestamped):
    """A site inspections happen at."""

    id: SiteId
    name: Title
    """The site's name."""
    city: City
    """Its city."""
    manager_email: Email
    """The site manager."""
    status: Literal["active", "archived"] = "active"
    """active or archived."""


class Template(Timestamped):
    """An inspection template: a checklist of weighted questions."""

    id: TemplateId
    name: Title
    """Its name."""
    description: Text = ""
    """What it checks."""
    questions: tuple[Question, ...] = ()
    """Its questions."""
    owner_email: Email
    """Who maintains it."""
    status: TemplateStatus = "draft"
    """draft, published or archived."""


class Inspection(Timestamped):
    """One conduct of a template at a site."""

    id: InspectionId
    template_id: TemplateId
    """The template."""
    title: Title
    """Template name, site and date."""
    site_id: SiteId
    """The site."""
    inspector_email: Email
    """Who conducts it."""
    status: InspectionStatus = "in_progress"
    """in_progress or completed."""
    answers: tuple[Answer, ...] = ()
    """Responses so far."""
    score_pct: Percent | None = None
    """Weighted share of passed scored questions, on completion."""
    failed_items: int = 0
    """Questions failed, on completion."""
    result: Literal["pending", "pass", "fail"] = "pending"
    """pass, fail (a critical question failed) or pending."""
    completed_at: DateTime | None = None
    """When it was completed."""


class Action(Timestamped):
    """A follow-up action, most often from a failed question."""

    id: ActionId
    title: Title
    """What to do."""
    inspection_id: InspectionId | None = None
    """The inspection it came from."""
    question: Title | None = None
    """The failed question."""
    site_id: SiteId
    """The site."""
    assignee_email: Email
    """Who must do it."""
    priority: Priority = "medium"
    """low, medium or high."""
    due_on: Date
    """When it is due."""
    status: ActionStatus = "to_do"
    """to_do, in_progress, complete or cant_do."""
    resolution: Text = ""
    """What was done, or why it cannot be."""


class Schedule(Timestamped):
    """A recurring inspection of a template at a site."""

    id: ScheduleId
    template_id: TemplateId
    """The template."""
    site_id: SiteId
    """The site."""
    assignee_email: Email
    """Who inspects."""
    frequency: Frequency
    """daily, weekly or monthly."""
    next_due: Date
    """When the next inspection is due."""
    status: Literal["active", "paused"] = "active"
    """active or paused."""


# -- rules ------------------------------------------------------------------------------------


def _guard_site(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.manager_email, field="manager_email", hint="sites are managed by staff")


def _guard_action(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status in ("complete", "cant_do"):
        raise RuleViolation(f"action is {old.status}", field="action_id", hint="raise a new action")
    require_employee(ctx, new.assignee_email, field="assignee_email", hint="actions go to staff")


def _guard_template(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "archived":
        raise RuleViolation(f"template {old.name!r} is archived", field="template_id", hint="copy it to a new one")
    if old is not None and old.status == "draft" and new.status == "published" and not new.questions:
        raise RuleViolation("a template needs questions", field="template_id", hint="add questions first")


def _guard_schedule(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.assignee_email, field="assignee_email", hint="inspections are done by staff")


sites = service.resource(
    Site,
    name="site",
    plural="sites",
    prefix="site",
    create=("name", "city", "manager_email"),
    filters=("city", "manager_email", "status"),
    search=("name",),
    update=("name", "manager_email"),
    delete=False,
    transitions={"archive": Transition("status", ("active",), "archived", "archive the site")},
    guard_create=_guard_site,
    guard_update=_guard_site,
)
templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="tpl",
    create=False,
    filters=("status", "owner_email"),
    search=("name", "description"),
    update=("name", "description"),
    delete=False,
    transitions={
        "publish": Transition("status", ("draft",), "published", "publish the template"),
        "archive": Transition("status", ("draft", "published"), "archived", "archive the template"),
    },
    guard_update=_guard_template,
)
inspections = service.resource(
    Inspection,
    name="inspection",
    plural="inspections",
    prefix="audit",
    create=False,
    filters=("template_id", "site_id", "inspector_email", "status", "result"),
    search=("title",),
    delete=False,
)
actions = service.resource(
    Action,
    name="action",
    plural="actions",
    prefix="act",
    create=False,
    filters=("inspection_id", "site_id", "assignee_email", "status", "priority"),
    search=("title", "question"),
    update=("title", "assignee_email", "priority", "due_on"),
    delete=False,
    transitions={"start": Transition("status", ("to_do",), "in_progress", "start the action")},
    guard_update=_guard_action,
)
schedules = service.resource(
    Schedule,
    name="schedule",
    plural="schedules",
    prefix="sch",
    create=("template_id", "site_id", "assignee_email", "frequency", "next_due"),
    filters=("template_id", "site_id", "assignee_email", "status", "frequency"),
    update=("assignee_email", "frequency", "next_due"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the schedule"),
        "resume": Transition("status", ("paused",), "active", "resume the schedule"),
    },
    guard_create=_guard_schedule,
    guard_update=_guard_schedule,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_template(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "Forklift pre-use check",
        "owner_email": ctx.population.employees[0].email,
        "questions": [{"label": "Brakes work", "kind": "yes_no", "weight": 3, "critical": True}],
    }


@service.tool(intent="create the inspection template", write=True, example=_example_template)
def create_template(
    ctx: Ctx, name: Title, owner_email: Email, questions: list[Question] | None = None, description: Text = ""
) -> Template:
    """Create a draft template; question labels are unique on it.

    Args:
        name: Its name.
        owner_email: The employee maintaining it.
        questions: Its questions (label, kind, weight, critical).
        description: What it checks.
    """
    require_employee(ctx, owner_email, field="owner_email", hint="templates are kept by staff")
    qs = tuple(questions or ())
    if len({q.label for q in qs}) != len(qs):
        raise RuleViolation("a question label repeats", field="questions", hint="give each question its own label")
    return ctx.create(Template, name=name, owner_email=owner_email, questions=qs, description=description)


@service.tool(
    intent="add a question to the template",
    write=True,
    example=first_example(Template, "template_id", where={"status": "draft"}, label="Fire exits clear"),
)
def add_question(
    ctx: Ctx,
    template_id: TemplateId,
    label: Title,
    kind: QuestionKind = "yes_no",
    weight: Weight = 1,
    critical: bool = False,
) -> Template:
    """Add a question to a draft template (published ones are frozen).

    Args:
        template_id: The template.
        label: The question (unique on the template).
        kind: yes_no, rating or text.
        weight: Its weight in the score, 1-10.
        critical: Whether failing it fails the inspection.
    """
    tpl = ctx.get(Template, template_id, field="template_id")
    if tpl.status != "draft":
        raise RuleViolation(f"template is {tpl.status}", field="template_id", hint="only drafts take new questions")
    if any(q.label == label for q in tpl.questions):
        raise Conflict(f"{label!r} is already on the template", field="label", hint="use another label")
    question = Question(label=label, kind=kind, weight=weight, critical=critical)
    return ctx.update(tpl, questions=(*tpl.questions, question))


def _start(ctx: Ctx, template_id: str, site_id: str, inspector_email: str, field: str) -> Inspection:
    tpl = ctx.get(Template, template_id, field=field if field == "template_id" else None)
    if tpl.status != "published":
        raise RuleViolation(f"template {tpl.name!r} is {tpl.status}", field=field, hint="publish it first")
    site = ctx.get(Site, site_id, field="site_id" if field == "template_id" else None)
    if site.status != "active":
        raise RuleViolation(f"site {site.name!r} is archived", field="site_id", hint="pick an active site")
    require_employee(ctx, inspector_email, field="inspector_email", hint="inspections are done by staff")
    return ctx.create(
        Inspection,
        template_id=tpl.id,
        site_id=site.id,
        inspector_email=inspector_email,
        title=f"{tpl.name} / {site.name} / {ctx.today().isoformat()}",
    )


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    tpl, site = ctx.first(Template, status="published"), ctx.first(Site, status="active")
    if tpl is None or site is None:
        return None
    return {"template_id": tpl.id, "site_id": site.id, "inspector_email": site.manager_email}


@service.tool(intent="start an inspection", write=True, example=_example_start)
def start_inspection(ctx: Ctx, template_id: TemplateId, site_id: SiteId, inspector_email: Email) -> Inspection:
    """Start an inspection of a published template at an active site.

    Args:
        template_id: The template.
        site_id: The site.
        inspector_email: The employee inspecting.
    """
    return _start(ctx, template_id, site_id, inspector_email, "template_id")


def _example_answer(ctx: Ctx) -> dict[str, Any] | None:
    for insp in ctx.where(Inspection, status="in_progress"):
        tpl = ctx.get(Template, insp.template_id)
        for q in tpl.questions:
            return {"inspection_id": insp.id, "label": q.label, "response": "3" if q.kind == "rating" else "yes"}
    return None


@service.tool(intent="answer a question of the inspection", write=True, example=_example_answer)
def answer_question(ctx: Ctx, inspection_id: InspectionId, label: Title, response: Text, note: Text = "") -> Inspection:
    """Answer (or re-answer) a question of an inspection in progress; the response must fit the question.

    Args:
        inspection_id: The inspection.
        label: The question, as on the template.
        response: yes / no / na for yes-no questions, 1-5 or na for ratings, any text for text questions.
        note: A note on what was seen.
    """
    insp = ctx.get(Inspection, inspection_id, field="inspection_id")
    if insp.status != "in_progress":
        raise RuleViolation("the inspection is completed", field="inspection_id", hint="start a new inspection")
    tpl = ctx.get(Template, insp.template_id)
    question = next((q for q in tpl.questions if q.label == label), None)
    if question is None:
        raise RuleViolation(f"no question {label!r}", field="label", hint="use a label of the template's questions")
    value = response.strip().lower() if question.kind != "text" else response.strip()
    allowed = ALLOWED[question.kind]
    if (allowed is not None and value not in allowed) or not value:
        raise RuleViolation(
            f"{response!r} does not answer a {question.kind} question",
            field="response",
            hint=f"answer one of {sorted(allowed)}" if allowed else "write an answer",
        )
    answer = Answer(label=label, response=value, failed=question.kind != "text" and value in FAILING, note=note)
    kept = tuple(a for a in insp.answers if a.label != label)
    return ctx.update(insp, answers=(*kept, answer))


@service.tool(
    intent="complete the inspection",
    write=True,
    example=first_example(
        Inspection, "inspection_id", where={"status": "in_progress"}, match=lambda c, i: _unanswered(c, i) == []
    ),
)
def complete_inspection(ctx: Ctx, inspection_id: InspectionId) -> Inspection:
    """Complete an inspection whose questions are all answered: score it and raise an action per failed question.

    Args:
        inspection_id: The inspection.
    """
    insp = ctx.get(Inspection, inspection_id, field="inspection_id")
    if insp.status != "in_progress":
        raise Conflict("the inspection is already completed", field="inspection_id", hint="nothing to do")
    missing = _unanswered(ctx, insp)
    if missing:
        raise RuleViolation(
            f"unanswered: {', '.join(missing)}",
            field="inspection_id",
            hint="answer them with siteaudits__answer_question",
        )
    tpl = ctx.get(Template, insp.template_id)
    weights = {q.label: q for q in tpl.questions}
    scored = [a for a in insp.answers if weights[a.label].kind != "text" and a.response != "na"]
    total = sum(weights[a.label].weight for a in scored)
    passed = sum(weights[a.label].weight for a in scored if not a.failed)
    failed = [a for a in insp.answers if a.failed]
    site = ctx.get(Site, insp.site_id)
    for a in failed:
        critical = weights[a.label].critical
        ctx.create(
            Action,
            title=f"Fix: {a.label}"[:200],
            inspection_id=insp.id,
            question=a.label,
            site_id=site.id,
            assignee_email=site.manager_email,
            priority="high" if critical else "medium",
            due_on=ctx.today() + dt.timedelta(days=2 if critical else 14),
        )
    return ctx.update(
        insp,
        status="completed",
        score_pct=round(100 * passed / total, 1) if total else 100.0,
        failed_items=len(failed),
        result="fail" if any(weights[a.label].critical for a in failed) else "pass",
        completed_at=ctx.now(),
    )


def _unanswered(ctx: Ctx, insp: Inspection) -> list[str]:
    done = {a.label for a in insp.answers}
    return [q.label for q in ctx.get(Template, insp.template_id).questions if q.label not in done]


@service.tool(
    intent="complete the action",
    write=True,
    example=first_example(Action, "action_id", where={"status": "in_progress"}, resolution="Replaced the sign."),
)
def complete_action(ctx: Ctx, action_id: ActionId, resolution: Text) -> Action:
    """Complete an open action, saying what was done.

    Args:
        action_id: The action.
        resolution: What was done (required).
    """
    return _close(ctx, action_id, "complete", resolution)


@service.tool(
    intent="mark the action can't do",
    write=True,
    example=first_example(Action, "action_id", where={"status": "to_do"}, resolution="Landlord's responsibility."),
)
def cant_do_action(ctx: Ctx, action_id: ActionId, resolution: Text) -> Action:
    """Close an open action as can't do, saying why.

    Args:
        action_id: The action.
        resolution: Why it cannot be done (required).
    """
    return _close(ctx, action_id, "cant_do", resolution)


def _close(ctx: Ctx, action_id: str, status: ActionStatus, resolution: str) -> Action:
    act = ctx.get(Action, action_id, field="action_id")
    if act.status not in ("to_do", "in_progress"):
        raise Conflict(f"action is already {act.status}", field="action_id", hint="nothing to do")
    if not resolution.strip():
        raise RuleViolation("a resolution is required", field="resolution", hint="say what was done or why not")
    return ctx.update(act, status=status, resolution=resolution.strip())


STEP: dict[Frequency, int] = {"daily": 1, "weekly": 7}


@service.tool(
    intent="start the scheduled inspection",
    write=True,
    example=first_example(Schedule, "schedule_id", where={"status": "active"}),
)
def start_scheduled_inspection(ctx: Ctx, schedule_id: ScheduleId) -> Inspection:
    """Start the inspection an active schedule has due; its next due date moves on by its frequency.

    Args:
        schedule_id: The schedule.
    """
    sch = ctx.get(Schedule, schedule_id, field="schedule_id")
    if sch.status != "active":
        raise RuleViolation("the schedule is paused", field="schedule_id", hint="resume it first")
    insp = _start(ctx, sch.template_id, sch.site_id, sch.assignee_email, "schedule_id")
    base = max(sch.next_due, ctx.today())
    step = STEP.get(sch.frequency)
    nxt = base + dt.timedelta(days=step) if step else add_months(base, 1)
    ctx.update(sch, next_due=nxt)
    return insp


class SiteScore(Value):
    """A site's inspection record."""

    site_id: SiteId
    """The site."""
    completed: int
    """Completed inspections."""
    average_score_pct: float
    """Their average score (0 when none)."""
    failed: int
    """Inspections failed on a critical question."""
    open_actions: int
    """Actions to do or in progress."""


@service.tool(intent="show the site's scores", example=first_example(Site, "site_id"))
def site_scorecard(ctx: Ctx, site_id: SiteId) -> SiteScore:
    """A site's completed inspections, average score, failures and open actions.

    Args:
        site_id: The site.
    """
    site = ctx.get(Site, site_id, field="site_id")
    done = ctx.where(Inspection, site_id=site.id, status="completed")
    scores = [i.score_pct for i in done if i.score_pct is not None]
    return SiteScore(
        site_id=site.id,
        completed=len(done),
        average_score_pct=round(sum(scores) / len(scores), 1) if scores else 0.0,
        failed=sum(i.result == "fail" for i in done),
        open_actions=sum(a.status in ("to_do", "in_progress") for a in ctx.where(Action, site_id=site.id)),
    )


# -- seed -------------------------------------------------------------------------------------

CHECKLISTS: tuple[tuple[str, tuple[tuple[str, QuestionKind, int, bool], ...]], ...] = (
    (
        "Warehouse safety walk",
        (
            ("Fire exits clear and signed", "yes_no", 3, True),
            ("Racking undamaged", "yes_no", 2, False),
            ("Housekeeping standard", "rating", 2, False),
            ("Comments", "text", 1, False),
        ),
    ),
    (
        "Office fire safety",
        (
            ("Extinguishers inspected this month", "yes_no", 3, True),
            ("Emergency lighting works", "yes_no", 2, False),
            ("Evacuation plan posted", "yes_no", 1, False),
        ),
    ),
    ("Vehicle pre-trip check", (("Tyres and lights", "yes_no", 2, True), ("Cab tidy", "rating", 1, False))),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Sites in the company's cities, templates, completed and open inspections with actions, schedules."""
    staff = s.population.employees
    managers = s.population.staff("Operations", fallback=4)
    cities = sorted({p.place.city for p in staff})[:5]
    made_sites = [
        s.create(
            Site,
            name=f"{city} {('Distribution Center', 'Office', 'Depot')[k % 3]}",
            city=city,
            manager_email=managers[k % len(managers)].email,
            status="archived" if k == 4 else "active",
            created_at=s.ago(days=500),
            updated_at=s.ago(days=30),
        )
        for k, city in enumerate(cities)
    ]
    tpls = []
    for k, (name, qs) in enumerate(CHECKLISTS):
        questions = tuple(Question(label=q, kind=kind, weight=w, critical=c) for q, kind, w, c in qs)
        tpls.append(
            s.create(
                Template,
                name=name,
                questions=questions,
                owner_email=managers[0].email,
                status="published" if k < 2 else "draft",
                created_at=s.ago(days=200),
                updated_at=s.ago(days=100),
            )
        )
    for k in range(6):
        tpl, site = tpls[k % 2], made_sites[k % 4]
        inspector = staff[(k * 5) % len(staff)]
        answers = tuple(
            Answer(
                label=q.label,
                response="text ok"
                if q.kind == "text"
                else ("no" if (j + k) % 4 == 1 else ("yes", "4")[q.kind == "rating"]),
                failed=q.kind != "text" and (j + k) % 4 == 1,
            )
            for j, q in enumerate(tpl.questions)
        )
        done = k < 4
        when = s.ago(days=30 - 4 * k)
        insp = s.create(
            Inspection,
            template_id=tpl.id,
            site_id=site.id,
            inspector_email=inspector.email,
            title=f"{tpl.name} / {site.name} / {when.date().isoformat()}",
            status="completed" if done else "in_progress",
            answers=answers if done else answers[:1] if k == 4 else answers,
            created_at=when,
            updated_at=when,
        )
        if done:
            _finish_seeded(s, insp, tpl, site, when, k)
    for k, freq in enumerate(("daily", "weekly", "monthly")):
        s.create(
            Schedule,
            template_id=tpls[k % 2].id,
            site_id=made_sites[k].id,
            assignee_email=made_sites[k].manager_email,
            frequency=freq,
            next_due=(s.now + dt.timedelta(days=k)).date(),
            status="paused" if k == 2 else "active",
            created_at=s.ago(days=90),
            updated_at=s.ago(days=1),
        )


def _finish_seeded(s: SeedContext, insp: Inspection, tpl: Template, site: Site, when: dt.datetime, k: int) -> None:
    weights = {q.label: q for q in tpl.questions}
    scored = [a for a in insp.answers if weights[a.label].kind != "text"]
    total = sum(weights[a.label].weight for a in scored)
    passed = sum(weights[a.label].weight for a in scored if not a.failed)
    failed = [a for a in insp.answers if a.failed]
    for n, a in enumerate(failed):
        s.create(
            Action,
            title=f"Fix: {a.label}",
            inspection_id=insp.id,
            question=a.label,
            site_id=site.id,
            assignee_email=site.manager_email,
            priority="high" if weights[a.label].critical else "medium",
            due_on=(when + dt.timedelta(days=14)).date(),
            status=("to_do", "in_progress", "complete")[(k + n) % 3],
            resolution="Fixed on the day." if (k + n) % 3 == 2 else "",
            created_at=when,
            updated_at=when,
        )
    s.update(
        insp,
        score_pct=round(100 * passed / total, 1) if total else 100.0,
        failed_items=len(failed),
        result="fail" if any(weights[a.label].critical for a in failed) else "pass",
        completed_at=when + dt.timedelta(hours=1),
    )
