"""Northstar OKRs: company, team and personal objectives per quarter, key results, check-ins and grading.

Modeled on the Weekdone API v1 (company, team and user objectives per quarter,
key results with start, target and current values, progress updates with a
1–10 confidence, alignment to a parent objective, closing a quarter) and the
Lattice Goals API (goal levels, alignment, progress rolled up from key results
or from aligned goals). A quarter is planned, then activated (only once it has
a company objective), and closed only after it ended; closing it grades every
objective (score 0.0–1.0) and locks its objectives, key results and check-ins.
A team objective aligns to a company objective, a personal one to a team or
company objective, always of the same quarter. Key results measure a number
(up or down), a percentage or a done/not-done milestone, weighted 1–10; an
objective has at most five. Check-ins happen only in an active quarter, by the
key result's or the objective's owner or, for a team objective, a team member;
an objective's progress is the weighted progress of its key results, or the
average of the objectives aligned to it, and its health follows the lowest
confidence reported. Unfinished objectives can be carried over to a later
quarter, their key results starting where they stand.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, JobTitle, Percent, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.world.org import department_of, org_chart

__all__ = ["service"]

service = Service(
    "okrs",
    title="Northstar OKRs",
    category="goals_okrs",
    modeled_on="Weekdone API v1 (objectives per company/team/user and quarter, key results, progress updates "
    "with confidence, alignment, closing quarters) / Lattice Goals API (levels, alignment, roll-up)",
    description="Objectives and key results for the company, its teams and its people, quarter by quarter: "
    "alignment to parent objectives, key results with start, target and current values, check-ins with "
    "confidence, progress roll-up, grading and locking when a quarter closes, and carrying work over.",
)

UserId = Annotated[str, IdOf("okrs.user")]
TeamId = Annotated[str, IdOf("okrs.team")]
PeriodId = Annotated[str, IdOf("okrs.period")]
ObjectiveId = Annotated[str, IdOf("okrs.objective")]
KeyResultId = Annotated[str, IdOf("okrs.key_result")]
CheckInId = Annotated[str, IdOf("okrs.check_in")]

Level = Literal["company", "team", "personal"]
Health = Literal["not_started", "on_track", "at_risk", "off_track"]
KrKind = Literal["numeric", "percent", "milestone"]
Confidence = Annotated[int, Field(ge=1, le=10)]
Amount = Annotated[float, Field(ge=-1e12, le=1e12, allow_inf_nan=False)]
RANK: dict[str, int] = {"company": 0, "team": 1, "personal": 2}
MAX_KRS = 5


class User(Created):
    """A person of the company using OKRs."""

    id: UserId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail."""
    job_title: JobTitle
    """Job title."""
    team_id: TeamId | None = None
    """The team they belong to."""


class Team(Created):
    """A team (department) that owns team objectives."""

    id: TeamId
    name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """Team name."""
    lead_id: UserId
    """The team lead, owner of the team's objectives."""


class Period(Record):
    """A quarter objectives are set for."""

    id: PeriodId
    name: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """E.g. Q2 2026."""
    start_date: Date
    """First day."""
    end_date: Date
    """Last day."""
    status: Literal["planning", "active", "closed"] = "planning"
    """planning (objectives are set), active (check-ins) or closed (graded and locked)."""
    closed_at: DateTime | None = None
    """When it was closed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Objective(Record):
    """An objective of the company, a team or a person for one quarter."""

    id: ObjectiveId
    period_id: PeriodId
    """The quarter."""
    level: Level
    """company, team or personal."""
    title: Title
    """What to achieve."""
    description: Text = ""
    """Why it matters."""
    owner_id: UserId
    """Who is accountable (the team lead for a team objective)."""
    team_id: TeamId | None = None
    """The team of a team objective."""
    parent_objective_id: ObjectiveId | None = None
    """The higher-level objective of the same quarter it supports."""
    progress_source: Literal["key_results", "aligned"] = "key_results"
    """Whether progress comes from its key results or from the objectives aligned to it."""
    progress: Percent = 0
    """Progress, 0–100."""
    health: Health = "not_started"
    """From the lowest confidence reported: on_track (7–10), at_risk (4–6), off_track (1–3)."""
    locked: bool = False
    """Locked when its quarter closed."""
    final_score: Annotated[float, Field(ge=0, le=1)] | None = None
    """The grade at closing, 0.0–1.0."""
    carried_from_id: ObjectiveId | None = None
    """The objective of an earlier quarter it continues."""
    created_at: Annotated[DateTime, CREATED]
    """When it was set."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class KeyResult(Record):
    """A measurable result of an objective."""

    id: KeyResultId
    objective_id: ObjectiveId
    """The objective."""
    title: Title
    """What is measured."""
    kind: KrKind = "numeric"
    """numeric (up or down from start to target), percent, or milestone (0 not done, 1 done)."""
    start_value: Amount = 0
    """Value at the start."""
    target_value: Amount = 1
    """Value that means done (below the start for a decrease)."""
    current_value: Amount = 0
    """Latest checked-in value."""
    unit: Annotated[str, StringConstraints(max_length=20)] = ""
    """Unit of the values (customers, %, EUR …)."""
    weight: Annotated[int, Field(ge=1, le=10)] = 1
    """Weight in the objective's progress."""
    owner_id: UserId
    """Who checks it in."""
    confidence: Confidence | None = None
    """Latest confidence, 1–10."""
    progress: Percent = 0
    """Progress, 0–100."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class CheckIn(Record):
    """A progress update on a key result."""

    id: CheckInId
    key_result_id: KeyResultId
    """The key result."""
    objective_id: ObjectiveId
    """Its objective."""
    author_id: UserId
    """Who checked in."""
    previous_value: Amount
    """The value before."""
    value: Amount
    """The new value."""
    confidence: Confidence
    """Confidence of reaching the target, 1–10."""
    note: Text = ""
    """What happened."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class LevelSummary(BaseModel):
    """Progress of one level of objectives in a quarter."""

    level: Level = Field(description="company, team or personal.")
    objectives: int = Field(description="How many objectives.")
    average_progress: Percent = Field(description="Their average progress.")


class PeriodReport(BaseModel):
    """Where a quarter's objectives stand."""

    period_id: PeriodId = Field(description="The quarter.")
    status: str = Field(description="The quarter's status.")
    levels: list[LevelSummary] = Field(description="Progress by level.")
    at_risk: list[Objective] = Field(description="Objectives at risk or off track, lowest progress first.")
    not_started: list[Objective] = Field(description="Objectives with no check-in yet.")


# -- rules -------------------------------------------------------------------------------------


def kr_progress(kind: str, start: float, target: float, current: float) -> float:
    """Progress of a key result in percent, 0–100 (a decrease counts down from start to target)."""
    if kind == "milestone":
        return 100.0 if current >= 1 else 0.0
    span = target - start
    if span == 0:
        return 100.0 if current == target else 0.0
    return round(max(0.0, min(100.0, 100 * (current - start) / span)), 1)


def _health(confidences: list[int]) -> Health:
    if not confidences:
        return "not_started"
    low = min(confidences)
    return "on_track" if low >= 7 else ("at_risk" if low >= 4 else "off_track")


def _rollup(ctx: Ctx, objective: Objective) -> None:
    """Recompute an objective's progress and health, then its parents' that roll up from aligned objectives."""
    current: Objective | None = ctx.get(Objective, objective.id)
    while current is not None:
        if current.progress_source == "aligned":
            kids = ctx.where(Objective, parent_objective_id=current.id)
            progress = round(sum(k.progress for k in kids) / len(kids), 1) if kids else 0.0
            health = _health([c for k in kids for c in _confidences(ctx, k)])
        else:
            krs = ctx.where(KeyResult, objective_id=current.id)
            total = sum(k.weight for k in krs)
            progress = round(sum(k.progress * k.weight for k in krs) / total, 1) if total else 0.0
            health = _health([k.confidence for k in krs if k.confidence is not None])
        current = ctx.update(current, progress=progress, health=health)
        current = ctx.find(Objective, current.parent_objective_id) if current.parent_objective_id else None


def _confidences(ctx: Ctx, objective: Objective) -> list[int]:
    return [k.confidence for k in ctx.where(KeyResult, objective_id=objective.id) if k.confidence is not None]


def _unlocked(objective: Objective, field: str) -> None:
    if objective.locked:
        raise RuleViolation(
            f"objective {objective.title!r} is locked: its quarter is closed",
            field=field,
            hint="carry it over to an open quarter with okrs__carry_over_objective",
        )


def _check_alignment(ctx: Ctx, period_id: str, level: str, parent_id: str | None, self_id: str | None) -> None:
    if parent_id is None:
        return
    parent = ctx.get(Objective, parent_id, field="parent_objective_id")
    if parent.id == self_id:
        raise RuleViolation("an objective cannot align to itself", field="parent_objective_id", hint="pick another")
    if parent.period_id != period_id:
        raise RuleViolation(
            "the parent objective is in another quarter",
            field="parent_objective_id",
            hint="align to an objective of the same quarter",
        )
    if RANK[parent.level] >= RANK[level]:
        wanted = "a company objective" if level == "team" else "a team or company objective"
        raise RuleViolation(
            f"a {level} objective cannot align to a {parent.level} objective",
            field="parent_objective_id",
            hint=f"align it to {wanted}" if level != "company" else "company objectives align to nothing",
        )


def _guard_objective_update(ctx: Ctx, new: Any, old: Any) -> None:
    _unlocked(old, "objective_id")
    _check_alignment(ctx, new.period_id, new.level, new.parent_objective_id, new.id)
    if old.parent_objective_id and old.parent_objective_id != new.parent_objective_id:
        former = ctx.find(Objective, old.parent_objective_id)
        if former is not None:
            _rollup(ctx, former)
    _rollup(ctx, new)


def _guard_objective_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _unlocked(old, "objective_id")
    kids = ctx.where(Objective, parent_objective_id=old.id)
    if kids:
        raise RuleViolation(
            f"{len(kids)} objectives are aligned to {old.title!r} (e.g. {kids[0].title!r})",
            field="objective_id",
            hint="align them elsewhere or delete them first",
        )
    for kr in ctx.where(KeyResult, objective_id=old.id):
        for ci in ctx.where(CheckIn, key_result_id=kr.id):
            ctx.delete(ci)
        ctx.delete(kr)


def _guard_key_result(ctx: Ctx, new: Any, old: Any) -> None:
    objective = ctx.get(Objective, new.objective_id, field="objective_id")
    _unlocked(objective, "objective_id")
    if old is None:
        if len(ctx.where(KeyResult, objective_id=objective.id)) > MAX_KRS:
            raise RuleViolation(
                f"objective {objective.title!r} already has {MAX_KRS} key results",
                field="objective_id",
                hint="focus: drop a key result or split the objective",
            )
        if objective.progress_source == "aligned":
            raise RuleViolation(
                "this objective's progress comes from the objectives aligned to it",
                field="objective_id",
                hint="add the key result to an aligned objective instead",
            )
    if new.kind == "milestone" and (new.start_value, new.target_value) != (0, 1):
        raise RuleViolation("a milestone goes from 0 to 1", field="target_value", hint="use start 0 and target 1")
    if new.kind == "percent" and not (0 <= new.start_value <= 100 and 0 <= new.target_value <= 100):
        raise RuleViolation("percentages lie between 0 and 100", field="target_value", hint="give 0–100")
    if new.target_value == new.start_value:
        raise RuleViolation(
            "the target equals the start value", field="target_value", hint="give a target different from the start"
        )
    fresh = ctx.update(
        new,
        current_value=new.start_value if old is None else new.current_value,
        progress=kr_progress(
            new.kind, new.start_value, new.target_value, new.start_value if old is None else new.current_value
        ),
    )
    _rollup(ctx, ctx.get(Objective, fresh.objective_id))


def _guard_period(ctx: Ctx, new: Any, old: Any) -> None:
    starting = new.status == "active" and old.status == "planning"
    if starting and not ctx.where(Objective, period_id=new.id, level="company"):
        raise RuleViolation(
            f"{new.name} has no company objective yet",
            field="period_id",
            hint="set the company objectives first, then activate the quarter",
        )


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    get=False,
    filters=("team_id", "email"),
    search=("name", "job_title"),
    delete=False,
)
teams = service.resource(
    Team, name="team", plural="teams", prefix="team", create=False, get=False, search=("name",), delete=False
)
periods = service.resource(
    Period,
    name="period",
    plural="periods",
    prefix="per",
    create=False,
    get=False,
    filters=("status",),
    delete=False,
    transitions={
        "activate": Transition(
            "status",
            ("planning",),
            "active",
            "start the quarter",
            description="Start a planned quarter: check-ins open. It needs at least one company objective.",
        )
    },
    guard_update=_guard_period,
    title="quarter",
)
objectives = service.resource(
    Objective,
    name="objective",
    plural="objectives",
    prefix="obj",
    create=False,
    filters=("period_id", "level", "owner_id", "team_id", "parent_objective_id", "health", "locked"),
    search=("title", "description"),
    update=("title", "description", "parent_objective_id"),
    guard_update=_guard_objective_update,
    guard_delete=_guard_objective_delete,
)
key_results = service.resource(
    KeyResult,
    name="key_result",
    plural="key_results",
    prefix="kr",
    create=("objective_id", "title", "kind", "start_value", "target_value", "unit", "weight", "owner_id"),
    get=False,
    filters=("objective_id", "owner_id", "kind"),
    search=("title",),
    delete=False,
    guard_create=_guard_key_result,
    title="key result",
)
check_ins = service.resource(
    CheckIn,
    name="check_in",
    plural="check_ins",
    prefix="ci",
    create=False,
    get=False,
    filters=("key_result_id", "objective_id", "author_id"),
    search=("note",),
    delete=False,
    title="check-in",
)


# -- tools -------------------------------------------------------------------------------------


def _ex_create(ctx: Ctx) -> dict[str, Any] | None:
    for period in ctx.where(Period, status="planning"):
        parent = ctx.first(Objective, period_id=period.id, level="company")
        team = ctx.first(Team)
        if parent is not None and team is not None:
            return {
                "period_id": period.id,
                "level": "team",
                "title": "Cut onboarding time in half",
                "team_id": team.id,
                "parent_objective_id": parent.id,
            }
    return None


@service.tool(intent="set an objective", write=True, example=_ex_create)
def create_objective(
    ctx: Ctx,
    period_id: PeriodId,
    level: Level,
    title: Title,
    owner_id: UserId | None = None,
    team_id: TeamId | None = None,
    parent_objective_id: ObjectiveId | None = None,
    description: Text = "",
    progress_source: Literal["key_results", "aligned"] = "key_results",
) -> Objective:
    """Set a company, team or personal objective for a quarter that is not closed.

    Args:
        period_id: The quarter (planning or active).
        level: company, team or personal.
        title: What to achieve.
        owner_id: Who is accountable (required for company and personal objectives; a team objective's is the lead).
        team_id: The team (team objectives only).
        parent_objective_id: A higher-level objective of the same quarter it supports.
        description: Why it matters.
        progress_source: key_results, or aligned to roll up the objectives aligned to it.
    """
    period = ctx.get(Period, period_id, field="period_id")
    if period.status == "closed":
        raise RuleViolation(
            f"{period.name} is closed", field="period_id", hint="set objectives for a planned or active quarter"
        )
    if level == "team":
        if team_id is None:
            raise RuleViolation("a team objective names its team", field="team_id", hint="give the team_id")
        team = ctx.get(Team, team_id, field="team_id")
        owner_id = owner_id or team.lead_id
    elif team_id is not None:
        raise RuleViolation(
            f"a {level} objective belongs to no team", field="team_id", hint="leave team_id empty or use level=team"
        )
    if owner_id is None:
        raise RuleViolation(f"a {level} objective needs an owner", field="owner_id", hint="give the owner's user id")
    ctx.get(User, owner_id, field="owner_id")
    if level == "company" and parent_objective_id is not None:
        raise RuleViolation("company objectives align to nothing", field="parent_objective_id", hint="leave it empty")
    _check_alignment(ctx, period.id, level, parent_objective_id, None)
    made = ctx.create(
        Objective,
        period_id=period.id,
        level=level,
        title=title,
        description=description,
        owner_id=owner_id,
        team_id=team_id,
        parent_objective_id=parent_objective_id,
        progress_source=progress_source,
    )
    if parent_objective_id is not None:
        _rollup(ctx, ctx.get(Objective, parent_objective_id))
    return made


def _ex_check_in(ctx: Ctx) -> dict[str, Any] | None:
    for kr in ctx.scan(KeyResult):
        objective = ctx.get(Objective, kr.objective_id)
        if ctx.get(Period, objective.period_id).status == "active" and not objective.locked:
            value = 1.0 if kr.kind == "milestone" else (kr.current_value + kr.target_value) / 2
            return {"key_result_id": kr.id, "author_id": kr.owner_id, "value": value, "confidence": 7}
    return None


@service.tool(intent="check in progress on the key result", write=True, example=_ex_check_in)
def check_in(
    ctx: Ctx, key_result_id: KeyResultId, author_id: UserId, value: Amount, confidence: Confidence, note: Text = ""
) -> CheckIn:
    """Report a key result's current value and the confidence of reaching its target.

    Only in an active quarter, by the key result's owner, the objective's owner or (team objectives) a team member.

    Args:
        key_result_id: The key result.
        author_id: Who reports.
        value: The current value (0 or 1 for a milestone, 0–100 for a percentage).
        confidence: Confidence of reaching the target, 1–10.
        note: What happened.
    """
    kr = ctx.get(KeyResult, key_result_id, field="key_result_id")
    objective = ctx.get(Objective, kr.objective_id)
    _unlocked(objective, "key_result_id")
    period = ctx.get(Period, objective.period_id)
    if period.status != "active":
        raise RuleViolation(
            f"{period.name} has not started: check-ins open when it is activated",
            field="key_result_id",
            hint="activate the quarter with okrs__activate_period",
        )
    author = ctx.get(User, author_id, field="author_id")
    allowed = author.id in (kr.owner_id, objective.owner_id) or (
        objective.team_id is not None and author.team_id == objective.team_id
    )
    if not allowed:
        raise RuleViolation(
            f"{author.name} neither owns this key result or its objective nor belongs to its team",
            field="author_id",
            hint="check in as the key result's owner",
        )
    if kr.kind == "milestone" and value not in (0, 1):
        raise RuleViolation("a milestone is 0 (not done) or 1 (done)", field="value", hint="give 0 or 1")
    if kr.kind == "percent" and not 0 <= value <= 100:
        raise RuleViolation("a percentage lies between 0 and 100", field="value", hint="give 0–100")
    made = ctx.create(
        CheckIn,
        key_result_id=kr.id,
        objective_id=objective.id,
        author_id=author.id,
        previous_value=kr.current_value,
        value=value,
        confidence=confidence,
        note=note,
    )
    ctx.update(
        kr,
        current_value=value,
        confidence=confidence,
        progress=kr_progress(kr.kind, kr.start_value, kr.target_value, value),
    )
    _rollup(ctx, objective)
    return made


class Closing(BaseModel):
    """A closed quarter and its grades."""

    period: Period = Field(description="The quarter, now closed.")
    graded: list[Objective] = Field(description="Its objectives with their final scores, now locked.")
    average_score: float = Field(description="Average final score.")


def _ex_close(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Period, status="active"):
        if p.end_date < ctx.today():
            return {"period_id": p.id}
    return None


@service.tool(intent="close the quarter and grade its objectives", write=True, destructive=True, example=_ex_close)
def close_period(ctx: Ctx, period_id: PeriodId) -> Closing:
    """Close an active quarter after its end: grade every objective (progress as a 0.0–1.0 score) and lock it.

    Args:
        period_id: The quarter.
    """
    period = ctx.get(Period, period_id, field="period_id")
    if period.status != "active":
        raise RuleViolation(
            f"{period.name} is {period.status}", field="period_id", hint="only an active quarter can be closed"
        )
    if period.end_date >= ctx.today():
        raise RuleViolation(
            f"{period.name} runs until {period.end_date}",
            field="period_id",
            hint="close the quarter after its last day",
        )
    graded = [
        ctx.update(o, locked=True, final_score=round(o.progress / 100, 2))
        for o in ctx.where(Objective, period_id=period.id)
    ]
    period = ctx.update(period, status="closed", closed_at=ctx.now())
    average = round(sum(o.final_score or 0 for o in graded) / len(graded), 2) if graded else 0.0
    return Closing(period=period, graded=graded, average_score=average)


def _ex_carry(ctx: Ctx) -> dict[str, Any] | None:
    later = [p for p in ctx.scan(Period) if p.status != "closed"]
    for o in ctx.scan(Objective):
        if o.progress >= 100 or o.level != "personal":
            continue
        src = ctx.get(Period, o.period_id)
        target = next((p for p in later if p.start_date > src.end_date), None)
        if target is not None:
            return {"objective_id": o.id, "period_id": target.id}
    return None


@service.tool(intent="carry the objective over to a later quarter", write=True, example=_ex_carry)
def carry_over_objective(ctx: Ctx, objective_id: ObjectiveId, period_id: PeriodId) -> Objective:
    """Continue an unfinished objective in a later quarter; its key results start where they stand.

    The copy aligns to nothing (align it in its new quarter); the original stays as it is.

    Args:
        objective_id: The objective (not achieved).
        period_id: A later quarter that is not closed.
    """
    source = ctx.get(Objective, objective_id, field="objective_id")
    if source.progress >= 100:
        raise RuleViolation(
            f"objective {source.title!r} is achieved",
            field="objective_id",
            hint="only unfinished objectives carry over",
        )
    target = ctx.get(Period, period_id, field="period_id")
    origin = ctx.get(Period, source.period_id)
    if target.status == "closed" or target.start_date <= origin.end_date:
        raise RuleViolation(
            f"{target.name} is not a later open quarter than {origin.name}",
            field="period_id",
            hint="pick a planned or active quarter after the objective's own",
        )
    for other in ctx.where(Objective, period_id=target.id):
        if other.carried_from_id == source.id:
            raise RuleViolation(
                f"objective {source.title!r} was already carried over to {target.name}",
                field="objective_id",
                hint=f"work on {other.id}",
            )
    copy = ctx.create(
        Objective,
        period_id=target.id,
        level=source.level,
        title=source.title,
        description=source.description,
        owner_id=source.owner_id,
        team_id=source.team_id,
        carried_from_id=source.id,
    )
    for kr in ctx.where(KeyResult, objective_id=source.id):
        if kr.progress >= 100:
            continue
        ctx.create(
            KeyResult,
            objective_id=copy.id,
            title=kr.title,
            kind=kr.kind,
            start_value=kr.current_value if kr.kind != "milestone" else 0,
            target_value=kr.target_value,
            current_value=kr.current_value if kr.kind != "milestone" else 0,
            unit=kr.unit,
            weight=kr.weight,
            owner_id=kr.owner_id,
        )
    _rollup(ctx, copy)
    return ctx.get(Objective, copy.id)


@service.tool(intent="report how the quarter's objectives stand", example=first_example(Period, "period_id"))
def period_report(ctx: Ctx, period_id: PeriodId) -> PeriodReport:
    """Average progress by level, objectives at risk or off track, and those with no check-in yet.

    Args:
        period_id: The quarter.
    """
    period = ctx.get(Period, period_id, field="period_id")
    objs = ctx.where(Objective, period_id=period.id)
    levels = []
    for level in ("company", "team", "personal"):
        mine = [o for o in objs if o.level == level]
        if mine:
            avg = round(sum(o.progress for o in mine) / len(mine), 1)
            levels.append(LevelSummary(level=level, objectives=len(mine), average_progress=avg))
    risky = sorted((o for o in objs if o.health in ("at_risk", "off_track")), key=lambda o: (o.progress, o.id))
    return PeriodReport(
        period_id=period.id,
        status=period.status,
        levels=levels,
        at_risk=risky,
        not_started=[o for o in objs if o.health == "not_started"],
    )


# -- seeding -----------------------------------------------------------------------------------

_COMPANY = (
    (
        "Grow recurring revenue",
        (("Net new ARR", "numeric", 0, 1_200_000, "EUR"), ("Net revenue retention", "percent", 98, 110, "%")),
    ),
    (
        "Delight customers",
        (("Support first-response time (hours)", "numeric", 8, 2, "h"), ("NPS", "numeric", 31, 45, "")),
    ),
)
_TEAM = {
    "Sales": (
        "Open the DACH market",
        (("Qualified DACH opportunities", "numeric", 0, 40, ""), ("Hire a DACH AE", "milestone", 0, 1, "")),
    ),
    "Support": (
        "Answer faster",
        (("Median first response (hours)", "numeric", 8, 2, "h"), ("Help-centre deflection", "percent", 20, 35, "%")),
    ),
    "Engineering": (
        "Ship reliably",
        (("Deploys per week", "numeric", 5, 20, ""), ("Launch status page", "milestone", 0, 1, "")),
    ),
    "Marketing": (
        "Fill the pipeline",
        (("Marketing-qualified leads", "numeric", 0, 600, ""), ("Webinar attendance rate", "percent", 30, 45, "%")),
    ),
}
_PERSONAL = {
    "Sales": ("Close five enterprise deals", "Enterprise deals closed", 0, 5),
    "Support": ("Cut the ticket backlog", "Open tickets", 120, 40),
    "Engineering": ("Automate the release checklist", "Manual release steps left", 14, 2),
    "Marketing": ("Launch the customer webinar series", "Webinars held", 0, 6),
}


class _Seeder:
    def __init__(self, s: SeedContext) -> None:
        self.s = s
        self.when = s.now
        """When the current quarter's check-ins were made."""

    def objective(self, period: Period, level: str, title: str, owner: User, **extra: Any) -> Objective:
        return self.s.create(
            Objective,
            period_id=period.id,
            level=level,
            title=title,
            owner_id=owner.id,
            created_at=self.s.now,
            updated_at=self.s.now,
            **extra,
        )

    def key_result(
        self, obj: Objective, spec: tuple[Any, ...], owner: User, share: float, conf: int | None
    ) -> KeyResult:
        title, kind, start, target, unit = spec
        current = (1.0 if share >= 1 else 0.0) if kind == "milestone" else round(start + (target - start) * share, 1)
        kr = self.s.create(
            KeyResult,
            objective_id=obj.id,
            title=title,
            kind=kind,
            start_value=start,
            target_value=target,
            current_value=current if conf is not None else start,
            unit=unit,
            owner_id=owner.id,
            confidence=conf,
            progress=kr_progress(kind, start, target, current) if conf is not None else 0.0,
            updated_at=self.s.now,
        )
        if conf is not None:
            self.s.create(
                CheckIn,
                key_result_id=kr.id,
                objective_id=obj.id,
                author_id=owner.id,
                previous_value=start,
                value=kr.current_value,
                confidence=conf,
                note="Weekly update.",
                created_at=self.when,
            )
        return kr

    def finish(self, obj: Objective, krs: list[KeyResult], **extra: Any) -> Objective:
        total = sum(k.weight for k in krs)
        progress = round(sum(k.progress * k.weight for k in krs) / total, 1) if total else 0.0
        health = _health([k.confidence for k in krs if k.confidence is not None])
        return self.s.update(obj, progress=progress, health=health, **extra)


@service.seeder
def seed(s: SeedContext) -> None:
    """Teams from the departments and four quarters around the world's epoch, each with aligned objectives.

    Two quarters back is closed and graded; the last quarter ended but is still active (waiting to be
    closed); the current quarter is active with check-ins, one Support key result off track; the next is
    being planned.
    """
    staff = list(s.population.employees)
    if not staff:
        return
    chart = org_chart(staff)
    by_key: dict[str, User] = {}
    teams_by_name: dict[str, Team] = {}
    for name, head in chart.heads.items():
        lead = s.create(User, name=head.name, email=head.email, job_title=head.job_title, created_at=s.ago(days=400))
        by_key[head.key] = lead
        team = s.create(Team, name=name, lead_id=lead.id, created_at=s.ago(days=400))
        teams_by_name[name] = team
        by_key[head.key] = s.update(lead, team_id=team.id)
    for p in staff:
        if p.key not in by_key:
            by_key[p.key] = s.create(
                User,
                name=p.name,
                email=p.email,
                job_title=p.job_title,
                team_id=teams_by_name[department_of(p)].id,
                created_at=s.ago(days=300),
            )
    top = by_key[chart.top.key]
    today = s.now.date()
    q = (today.month - 1) // 3
    quarters = []
    for offset in (-2, -1, 0, 1):
        n = q + offset
        year, idx = today.year + n // 4, n % 4
        start = dt.date(year, 3 * idx + 1, 1)
        end = (dt.date(year + (idx == 3), (3 * idx + 3) % 12 + 1, 1)) - dt.timedelta(days=1)
        status = ("closed", "active", "active", "planning")[offset + 2]
        quarters.append(
            s.create(
                Period,
                name=f"Q{idx + 1} {year}",
                start_date=start,
                end_date=end,
                status=status,
                closed_at=s.ago(days=60) if status == "closed" else None,
                updated_at=s.ago(days=5),
            )
        )
    sd = _Seeder(s)
    for qi, period in enumerate(quarters):
        last = min(period.end_date, today) - dt.timedelta(days=3)
        sd.when = dt.datetime.combine(last, dt.time(9), tzinfo=dt.UTC)
        share = (0.9, 0.6, 0.35, 0.0)[qi]
        conf = (8, 6, 7, None)[qi]
        for ci, (title, specs) in enumerate(_COMPANY):
            company = sd.objective(
                period, "company", title, top, progress_source="aligned" if ci == 0 else "key_results"
            )
            if ci == 1:
                krs = [sd.key_result(company, spec, top, share * (1.1 - 0.3 * k), conf) for k, spec in enumerate(specs)]
                company = sd.finish(company, krs)
            kids = []
            for name, (ttitle, tspecs) in _TEAM.items():
                squad = teams_by_name.get(name)
                if squad is None or ci != 0:
                    continue
                lead = next(u for u in by_key.values() if u.id == squad.lead_id)
                obj = sd.objective(period, "team", ttitle, lead, team_id=squad.id, parent_objective_id=company.id)
                low = 3 if name == "Support" and conf else conf
                krs = [
                    sd.key_result(obj, spec, lead, share * (1.2 - 0.4 * k), low if k == 1 else conf)
                    for k, spec in enumerate(tspecs)
                ]
                kids.append(sd.finish(obj, krs))
                member = next((u for u in by_key.values() if u.team_id == squad.id and u.id != lead.id), None)
                if member is not None and qi < 3:
                    ptitle, ktitle, low_value, high_value = _PERSONAL[name]
                    pobj = sd.objective(period, "personal", ptitle, member, parent_objective_id=obj.id)
                    pkr = sd.key_result(pobj, (ktitle, "numeric", low_value, high_value, ""), member, share, conf)
                    sd.finish(pobj, [pkr])
            if kids:
                progress = round(sum(k.progress for k in kids) / len(kids), 1)
                health = _health([c for k in kids for c in _kid_conf(s, k)])
                company = s.update(company, progress=progress, health=health)
        if period.status == "closed":
            for o in s.records(Objective):
                if o.period_id == period.id:
                    s.update(o, locked=True, final_score=round(o.progress / 100, 2))


def _kid_conf(s: SeedContext, objective: Objective) -> list[int]:
    return [k.confidence for k in s.records(KeyResult) if k.objective_id == objective.id and k.confidence is not None]
