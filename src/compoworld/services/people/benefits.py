"""Harbor Benefits: benefit plans, enrollment windows, elections, dependents and qualifying life events.

Modeled on benefits administration platforms such as Employee Navigator and
Ease (plans with coverage tiers and employer contributions, open-enrollment
and new-hire windows, elections and waivers, dependents, qualifying life
events opening special enrollment): an election is only made inside an open
window that offers the plan's type, or within 30 days of an approved life
event; the coverage tier must match the dependents covered (one spouse or
partner, children under 26); one election per plan type and plan year, and a
new one replaces a pending one; premiums split between employer and employee
by the plan's contribution; life events are reported within 30 days and a
dependent on active coverage cannot be removed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    Percent,
    PersonName,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import age_on
from compoworld.world.population import FIRST_NAMES

__all__ = ["service"]

service = Service(
    "benefits",
    title="Harbor Benefits",
    category="hr",
    modeled_on="Employee Navigator / Ease benefits administration (plans with coverage tiers, enrollment windows, "
    "elections and waivers, dependents, qualifying life events)",
    description="Employee benefits administration: medical, dental, vision and other plans with tiered premiums "
    "and employer contributions, open-enrollment and new-hire windows, members and their dependents, "
    "elections and waivers, and qualifying life events that open special enrollment.",
)

PlanId = Annotated[str, IdOf("benefits.plan")]
WindowId = Annotated[str, IdOf("benefits.enrollment_window")]
MemberId = Annotated[str, IdOf("benefits.member")]
DependentId = Annotated[str, IdOf("benefits.dependent")]
EnrollmentId = Annotated[str, IdOf("benefits.enrollment")]
EventId = Annotated[str, IdOf("benefits.life_event")]
PlanType = Literal["medical", "dental", "vision", "life", "fsa"]
Tier = Literal["employee", "employee_spouse", "employee_children", "family"]
Relationship = Literal["spouse", "domestic_partner", "child"]
EnrollmentStatus = Literal["pending", "active", "waived", "terminated"]
EventKind = Literal["marriage", "birth", "adoption", "divorce", "loss_of_other_coverage", "relocation"]
EventStatus = Literal["pending_review", "approved", "denied"]
PlanYear = Annotated[int, Field(ge=2000, le=2100)]
EVENT_REPORT_DAYS = 30
CHILD_AGE_LIMIT = 26
PARTNERS: tuple[str, ...] = ("spouse", "domestic_partner")


class Plan(Record):
    """A benefit plan offered for one plan year, with monthly premiums per coverage tier."""

    id: PlanId
    name: Title
    """Plan name, e.g. Blue PPO 500."""
    type: PlanType
    """medical, dental, vision, life or fsa."""
    carrier: CompanyName
    """Insurance carrier or administrator."""
    plan_year: PlanYear
    """Calendar year the plan covers."""
    premium_employee: Cents
    """Monthly premium for the employee alone, in cents."""
    premium_employee_spouse: Cents
    """Monthly premium for employee plus spouse or partner."""
    premium_employee_children: Cents
    """Monthly premium for employee plus children."""
    premium_family: Cents
    """Monthly premium for employee, partner and children."""
    employer_contribution: Percent = 0
    """Share of the premium the company pays, in percent."""
    currency: Currency
    """Currency of the premiums."""
    active: bool = True
    """Inactive plans take no new elections."""


class EnrollmentWindow(Record):
    """A period in which members may elect plans of some types."""

    id: WindowId
    name: Title
    """Window name, e.g. 2026 Open Enrollment."""
    kind: Literal["open_enrollment", "new_hire", "special"]
    """open_enrollment (everyone), new_hire (one new member) or special (a mid-year window)."""
    member_id: MemberId | None = None
    """For a new-hire window: the member it is for."""
    plan_types: list[PlanType] = Field(min_length=1, max_length=5)
    """Plan types that may be elected in the window."""
    plan_year: PlanYear
    """Plan year elections are for."""
    opens: Date
    """First day elections are accepted."""
    closes: Date
    """Last day elections are accepted."""
    coverage_start: Date | None = None
    """When elections made in the window take effect; null means the first of the month after it closes."""


class Member(Record):
    """An employee eligible for benefits."""

    id: MemberId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    birth_date: Date
    """Date of birth."""
    hire_date: Date
    """First day of employment."""
    home_address: PostalAddress | None = None
    """Home address."""
    eligible: bool = True
    """Whether the member may elect benefits (full-time staff)."""


class Dependent(Record):
    """A member's spouse, partner or child who may be covered."""

    id: DependentId
    member_id: MemberId
    """The member."""
    name: PersonName
    """Full name."""
    relationship: Relationship
    """spouse, domestic_partner or child."""
    birth_date: Date
    """Date of birth; children are covered until 26."""
    created_at: Annotated[DateTime, CREATED]
    """When the dependent was added."""


class Enrollment(Record):
    """A member's election of one plan (or waiver of a plan type) for a plan year."""

    id: EnrollmentId
    member_id: MemberId
    """The member."""
    plan_type: PlanType
    """Type of plan elected or waived."""
    plan_id: PlanId | None = None
    """The plan elected; null for a waiver."""
    plan_year: PlanYear
    """Plan year."""
    tier: Tier | None = None
    """Coverage tier; null for a waiver."""
    dependent_ids: list[DependentId] = Field(default_factory=list, max_length=12)
    """Dependents covered."""
    status: EnrollmentStatus = "pending"
    """pending (effective in the future), active, waived or terminated."""
    effective_date: Date
    """When coverage starts."""
    end_date: Date | None = None
    """When coverage ended, for a terminated election."""
    monthly_premium: Cents = 0
    """Total monthly premium of the tier."""
    employer_cost: Cents = 0
    """Monthly part the company pays."""
    employee_cost: Cents = 0
    """Monthly part deducted from the member's pay."""
    window_id: WindowId | None = None
    """The window the election was made in."""
    life_event_id: EventId | None = None
    """The life event that allowed the election."""
    waive_reason: Text = ""
    """Why coverage was waived."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class LifeEvent(Record):
    """A qualifying life event that lets a member change elections outside open enrollment."""

    id: EventId
    member_id: MemberId
    """The member."""
    kind: EventKind
    """marriage, birth, adoption, divorce, loss_of_other_coverage or relocation."""
    event_date: Date
    """When it happened."""
    status: EventStatus = "pending_review"
    """pending_review, approved (special enrollment open for 30 days) or denied."""
    review_note: Text = ""
    """The administrator's note."""
    reported_at: Annotated[DateTime, CREATED]
    """When it was reported."""


# -- rules ----------------------------------------------------------------------------------


def _premium(plan: Plan, tier: str) -> int:
    return int(getattr(plan, f"premium_{tier}"))


def _split(plan: Plan, tier: str) -> tuple[int, int, int]:
    total = _premium(plan, tier)
    employer = round(total * plan.employer_contribution / 100)
    return total, employer, total - employer


def _tier_of(kinds: list[str]) -> str:
    partner = any(k in PARTNERS for k in kinds)
    child = "child" in kinds
    return {(False, False): "employee", (True, False): "employee_spouse", (False, True): "employee_children"}.get(
        (partner, child), "family"
    )


def _guard_dependent(ctx: Ctx, new: Any, old: Any) -> None:
    member = ctx.get(Member, new.member_id, field="member_id")
    if new.birth_date > ctx.today():
        raise RuleViolation("the birth date is in the future", field="birth_date", hint="give the actual birth date")
    if new.relationship in PARTNERS:
        others = [d for d in ctx.where(Dependent, member_id=member.id) if d.id != new.id and d.relationship in PARTNERS]
        if others:
            raise Conflict(
                f"{member.name} already has a {others[0].relationship} on file ({others[0].name})",
                field="relationship",
                hint="remove the other spouse or partner first",
            )
    if old is not None and old.relationship != new.relationship and _covered(ctx, old.id):
        raise RuleViolation(
            f"{old.name} is covered on an election and cannot change relationship",
            field="relationship",
            hint="change the elections first",
        )


def _covered(ctx: Ctx, dependent_id: str) -> bool:
    dep = ctx.get(Dependent, dependent_id)
    return any(
        dependent_id in e.dependent_ids and e.status in ("pending", "active")
        for e in ctx.where(Enrollment, member_id=dep.member_id)
    )


def _guard_dependent_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if _covered(ctx, old.id):
        raise RuleViolation(
            f"{old.name} is covered on an active or pending election",
            field="dependent_id",
            hint="remove them from coverage first (report a life event such as divorce and elect a new tier)",
        )


def _guard_plan(ctx: Ctx, new: Any, old: Any) -> None:
    tiers = [new.premium_employee, new.premium_employee_spouse, new.premium_employee_children, new.premium_family]
    if new.premium_employee == 0 or new.premium_family < max(tiers):
        raise RuleViolation(
            "premiums must be positive and the family tier the most expensive",
            field="premium_family",
            hint="check the carrier's rate sheet",
        )
    if old is not None and old.active and not new.active:
        live = [e for e in ctx.where(Enrollment, plan_id=new.id) if e.status in ("pending", "active")]
        if live:
            raise RuleViolation(
                f"{len(live)} member(s) are enrolled in plan {new.name}",
                field="active",
                hint="plans with enrollees stay active until the plan year ends",
            )


def _guard_window(ctx: Ctx, new: Any, old: Any) -> None:
    if new.closes < new.opens:
        raise RuleViolation("the window closes before it opens", field="closes", hint="swap the dates")
    if new.coverage_start is not None and new.coverage_start < new.opens:
        raise RuleViolation(
            "coverage cannot start before the window opens", field="coverage_start", hint="start coverage later"
        )
    if len(set(new.plan_types)) != len(new.plan_types):
        raise RuleViolation("a plan type is listed twice", field="plan_types", hint="list each type once")
    if new.kind == "new_hire" and new.member_id is None:
        raise RuleViolation("a new-hire window is for one member", field="member_id", hint="give the new member")
    if new.member_id is not None:
        ctx.get(Member, new.member_id, field="member_id")


plans = service.resource(
    Plan,
    name="plan",
    plural="plans",
    prefix="pln",
    create=(
        "name",
        "type",
        "carrier",
        "plan_year",
        "premium_employee",
        "premium_employee_spouse",
        "premium_employee_children",
        "premium_family",
        "employer_contribution",
        "currency",
    ),
    filters=("type", "plan_year", "carrier", "active"),
    search=("name", "carrier"),
    update=(
        "name",
        "premium_employee",
        "premium_employee_spouse",
        "premium_employee_children",
        "premium_family",
        "employer_contribution",
        "active",
    ),
    delete=False,
    guard_create=_guard_plan,
    guard_update=_guard_plan,
)
windows = service.resource(
    EnrollmentWindow,
    name="enrollment_window",
    plural="enrollment_windows",
    prefix="win",
    create=False,
    get=False,
    filters=("kind", "plan_year", "member_id"),
    search=("name",),
    update=("name", "closes"),
    delete=False,
    guard_update=_guard_window,
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mbr",
    create=False,
    filters=("email", "eligible"),
    search=("name", "email"),
    delete=False,
    unique=("email",),
)
dependents = service.resource(
    Dependent,
    name="dependent",
    plural="dependents",
    prefix="dep",
    create=("member_id", "name", "relationship", "birth_date"),
    get=False,
    filters=("member_id", "relationship"),
    search=("name",),
    update=("name", "relationship", "birth_date"),
    guard_create=_guard_dependent,
    guard_update=_guard_dependent,
    guard_delete=_guard_dependent_delete,
)
enrollments = service.resource(
    Enrollment,
    name="enrollment",
    plural="enrollments",
    prefix="enr",
    create=False,
    filters=("member_id", "plan_id", "plan_type", "plan_year", "status", "window_id"),
    delete=False,
)
events = service.resource(
    LifeEvent,
    name="life_event",
    plural="life_events",
    prefix="qle",
    create=False,
    get=False,
    filters=("member_id", "kind", "status"),
    delete=False,
)


# -- elections ------------------------------------------------------------------------------


def _allowed_by(
    ctx: Ctx, member: Member, plan_type: str, window_id: str | None, life_event_id: str | None
) -> tuple[int, dt.date, str | None, str | None]:
    """(plan year, effective date, window id, event id) of an allowed election, or a refusal."""
    today = ctx.today()
    if window_id is not None:
        win = ctx.get(EnrollmentWindow, window_id, field="window_id")
        if not (win.opens <= today <= win.closes):
            raise RuleViolation(
                f"window {win.name} is open from {win.opens} to {win.closes}",
                field="window_id",
                hint="elect in an open window or after an approved life event",
            )
        if win.member_id is not None and win.member_id != member.id:
            raise RuleViolation(
                f"window {win.name} is another member's new-hire window",
                field="window_id",
                hint="use an open-enrollment window or the member's own new-hire window",
            )
        if plan_type not in win.plan_types:
            raise RuleViolation(
                f"window {win.name} offers {', '.join(win.plan_types)}, not {plan_type}",
                field="window_id",
                hint="change other plan types at open enrollment or after a life event",
            )
        start = win.coverage_start or (win.closes.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
        return win.plan_year, start, win.id, None
    if life_event_id is not None:
        event = ctx.get(LifeEvent, life_event_id, field="life_event_id")
        if event.member_id != member.id:
            raise RuleViolation(
                "the life event is another member's", field="life_event_id", hint="use the member's own event"
            )
        if event.status != "approved":
            raise RuleViolation(
                f"the life event is {event.status.replace('_', ' ')}",
                field="life_event_id",
                hint="an administrator must approve it first (benefits__approve_life_event)",
            )
        deadline = event.event_date + dt.timedelta(days=EVENT_REPORT_DAYS)
        if today > deadline:
            raise RuleViolation(
                f"special enrollment for the {event.kind} closed on {deadline}",
                field="life_event_id",
                hint="wait for the next open enrollment",
            )
        start = max(event.event_date, today) if event.kind in ("birth", "adoption") else today
        first = (start.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
        return today.year, event.event_date if event.kind in ("birth", "adoption") else first, None, event.id
    raise RuleViolation(
        "an election needs an open window or an approved life event",
        field="window_id",
        hint="pass window_id (benefits__list_enrollment_windows) or life_event_id",
    )


def _replace_pending(ctx: Ctx, member: Member, plan_type: str, year: int) -> None:
    for e in ctx.where(Enrollment, member_id=member.id, plan_type=plan_type, plan_year=year):
        if e.status == "pending":
            ctx.update(e, status="terminated", end_date=e.effective_date)


def _end_active(ctx: Ctx, member: Member, plan_type: str, year: int, effective: dt.date) -> None:
    for e in ctx.where(Enrollment, member_id=member.id, plan_type=plan_type, plan_year=year, status="active"):
        ctx.update(e, status="terminated", end_date=max(e.effective_date, effective - dt.timedelta(days=1)))


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    today = ctx.today()
    for win in ctx.scan(EnrollmentWindow):
        if win.opens <= today <= win.closes and win.member_id is None:
            plan = next(
                (p for p in ctx.where(Plan, plan_year=win.plan_year, active=True) if p.type in win.plan_types), None
            )
            member = ctx.first(Member, eligible=True)
            if plan and member:
                return {"member_id": member.id, "plan_id": plan.id, "tier": "employee", "window_id": win.id}
    return None


def _example_waive(ctx: Ctx) -> dict[str, Any] | None:
    args = _example_enroll(ctx)
    if args is None:
        return None
    plan = ctx.get(Plan, args["plan_id"])
    return {
        "member_id": args["member_id"],
        "plan_type": plan.type,
        "window_id": args["window_id"],
        "reason": "Covered by spouse's plan",
    }


def _example_terminate(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Enrollment, status="active")
    return None if e is None else {"enrollment_id": e.id, "end_date": ctx.today().isoformat()}


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Member, eligible=True)
    day = ctx.today() - dt.timedelta(days=3)
    return None if m is None else {"member_id": m.id, "kind": "marriage", "event_date": day.isoformat()}


def _example_window(ctx: Ctx) -> dict[str, Any] | None:
    opens = ctx.today() + dt.timedelta(days=30)
    return {
        "name": "Summer vision enrollment",
        "kind": "special",
        "plan_types": ["vision"],
        "plan_year": opens.year,
        "opens": opens.isoformat(),
        "closes": (opens + dt.timedelta(days=14)).isoformat(),
    }


@service.tool(intent="open an enrollment window", write=True, example=_example_window)
def create_enrollment_window(
    ctx: Ctx,
    name: Title,
    kind: Literal["open_enrollment", "new_hire", "special"],
    plan_types: Annotated[list[PlanType], Field(min_length=1, max_length=5)],
    plan_year: PlanYear,
    opens: Date,
    closes: Date,
    coverage_start: Date | None = None,
    member_id: MemberId | None = None,
) -> EnrollmentWindow:
    """Create a window in which members may elect plans of the given types for a plan year.

    It closes on or after it opens and coverage does not start before it
    opens (by default the first of the month after it closes); a new-hire
    window is for one member, and an eligible one.

    Args:
        name: Window name.
        kind: open_enrollment (everyone), new_hire (one member) or special (mid-year).
        plan_types: Plan types that may be elected.
        plan_year: Plan year of the elections.
        opens: First day.
        closes: Last day.
        coverage_start: When elections take effect; omit for the first of the month after it closes.
        member_id: The new member, for a new-hire window.
    """
    window = ctx.create(
        EnrollmentWindow,
        name=name,
        kind=kind,
        plan_types=plan_types,
        plan_year=plan_year,
        opens=opens,
        closes=closes,
        coverage_start=coverage_start,
        member_id=member_id,
    )
    _guard_window(ctx, window, None)
    if member_id is not None and not ctx.get(Member, member_id).eligible:
        raise RuleViolation(
            "the member is not eligible for benefits", field="member_id", hint="pick an eligible member"
        )
    return window


@service.tool(intent="enroll the member in the plan", write=True, example=_example_enroll)
def enroll(
    ctx: Ctx,
    member_id: MemberId,
    plan_id: PlanId,
    tier: Tier,
    dependent_ids: Annotated[list[DependentId], Field(max_length=12)] | None = None,
    window_id: WindowId | None = None,
    life_event_id: EventId | None = None,
) -> Enrollment:
    """Elect a plan for the member in an open window, or within 30 days of an approved life event.

    The tier must match the dependents covered: employee (none),
    employee_spouse (the spouse or partner), employee_children (children
    only) or family (partner and children); children are covered until 26.
    A pending election of the same plan type is replaced, and an active one
    ends the day before the new coverage starts.

    Args:
        member_id: The member.
        plan_id: The plan.
        tier: Coverage tier.
        dependent_ids: Dependents to cover (the member's own).
        window_id: The open enrollment window elected in.
        life_event_id: The approved life event allowing the election (instead of a window).
    """
    member = ctx.get(Member, member_id, field="member_id")
    plan = ctx.get(Plan, plan_id, field="plan_id")
    if not member.eligible:
        raise RuleViolation(f"{member.name} is not eligible for benefits", field="member_id", hint="check eligibility")
    if not plan.active:
        raise RuleViolation(f"plan {plan.name} is closed", field="plan_id", hint="pick an active plan")
    year, effective, win_id, event_id = _allowed_by(ctx, member, plan.type, window_id, life_event_id)
    if plan.plan_year != year:
        raise RuleViolation(
            f"plan {plan.name} is for {plan.plan_year}, the election is for {year}",
            field="plan_id",
            hint=f"pick a {year} plan",
        )
    deps: list[Dependent] = []
    for k, dep_id in enumerate(dict.fromkeys(dependent_ids or [])):
        dep = ctx.get(Dependent, dep_id, field=f"dependent_ids.{k}")
        if dep.member_id != member.id:
            raise RuleViolation(
                f"{dep.name} is not {member.name}'s dependent",
                field=f"dependent_ids.{k}",
                hint="add the dependent to the member first",
            )
        if dep.relationship == "child" and age_on(dep.birth_date, effective) >= CHILD_AGE_LIMIT:
            raise RuleViolation(
                f"{dep.name} is {CHILD_AGE_LIMIT} or older on {effective}",
                field=f"dependent_ids.{k}",
                hint=f"children are covered until they turn {CHILD_AGE_LIMIT}",
            )
        deps.append(dep)
    needed = _tier_of([d.relationship for d in deps])
    if needed != tier:
        raise RuleViolation(
            f"the dependents chosen make the tier {needed}, not {tier}",
            field="tier",
            hint="pick the tier that matches the dependents, or change the dependents",
        )
    _replace_pending(ctx, member, plan.type, year)
    _end_active(ctx, member, plan.type, year, effective)
    total, employer, employee = _split(plan, tier)
    return ctx.create(
        Enrollment,
        member_id=member.id,
        plan_type=plan.type,
        plan_id=plan.id,
        plan_year=year,
        tier=tier,
        dependent_ids=[d.id for d in deps],
        status="active" if effective <= ctx.today() else "pending",
        effective_date=effective,
        monthly_premium=total,
        employer_cost=employer,
        employee_cost=employee,
        window_id=win_id,
        life_event_id=event_id,
    )


@service.tool(intent="waive coverage of this plan type", write=True, example=_example_waive)
def waive_coverage(
    ctx: Ctx,
    member_id: MemberId,
    plan_type: PlanType,
    reason: Text,
    window_id: WindowId | None = None,
    life_event_id: EventId | None = None,
) -> Enrollment:
    """Decline coverage of a plan type for the plan year, in an open window or after a life event.

    Args:
        member_id: The member.
        plan_type: The type of plan declined.
        reason: Why, e.g. covered by a spouse's plan.
        window_id: The open window.
        life_event_id: The approved life event (instead of a window).
    """
    member = ctx.get(Member, member_id, field="member_id")
    if not reason.strip():
        raise RuleViolation("a waiver needs a reason", field="reason", hint="e.g. 'covered by spouse's plan'")
    year, effective, win_id, event_id = _allowed_by(ctx, member, plan_type, window_id, life_event_id)
    _replace_pending(ctx, member, plan_type, year)
    _end_active(ctx, member, plan_type, year, effective)
    return ctx.create(
        Enrollment,
        member_id=member.id,
        plan_type=plan_type,
        plan_year=year,
        status="waived",
        effective_date=effective,
        window_id=win_id,
        life_event_id=event_id,
        waive_reason=reason.strip(),
    )


@service.tool(intent="end the member's coverage", write=True, destructive=True, example=_example_terminate)
def terminate_enrollment(ctx: Ctx, enrollment_id: EnrollmentId, end_date: Date) -> Enrollment:
    """End an active election's coverage on a date (for example when the member leaves).

    Args:
        enrollment_id: The active election.
        end_date: Last day of coverage; not before it started, not more than 60 days back.
    """
    e = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    if e.status != "active":
        raise RuleViolation(
            f"election {e.id} is {e.status}",
            field="enrollment_id",
            hint="only active coverage is ended; a pending election is replaced by electing again",
        )
    if end_date < e.effective_date or end_date < ctx.today() - dt.timedelta(days=60):
        raise RuleViolation(
            f"coverage cannot end on {end_date}",
            field="end_date",
            hint=f"end it after {e.effective_date} and no more than 60 days ago",
        )
    return ctx.update(e, status="terminated", end_date=end_date)


@service.tool(intent="report a qualifying life event", write=True, example=_example_report)
def report_life_event(ctx: Ctx, member_id: MemberId, kind: EventKind, event_date: Date) -> LifeEvent:
    """Report a life event for review; it must be reported within 30 days of happening.

    Args:
        member_id: The member.
        kind: What happened.
        event_date: When it happened.
    """
    member = ctx.get(Member, member_id, field="member_id")
    today = ctx.today()
    if event_date > today:
        raise RuleViolation("the event has not happened yet", field="event_date", hint="report it once it happens")
    if today - event_date > dt.timedelta(days=EVENT_REPORT_DAYS):
        raise RuleViolation(
            f"life events must be reported within {EVENT_REPORT_DAYS} days; this one was on {event_date}",
            field="event_date",
            hint="change elections at the next open enrollment",
        )
    for other in ctx.where(LifeEvent, member_id=member.id, kind=kind, event_date=event_date):
        if other.status != "denied":
            raise Conflict(
                f"this {kind} was already reported ({other.id})", field="kind", hint="check the member's life events"
            )
    return ctx.create(LifeEvent, member_id=member.id, kind=kind, event_date=event_date)


def _pending_event(ctx: Ctx, life_event_id: str) -> LifeEvent:
    event = ctx.get(LifeEvent, life_event_id, field="life_event_id")
    if event.status != "pending_review":
        raise RuleViolation(
            f"the life event is already {event.status}", field="life_event_id", hint="only pending events are reviewed"
        )
    return event


@service.tool(
    intent="approve the life event",
    write=True,
    example=first_example(LifeEvent, "life_event_id", where={"status": "pending_review"}, note="Certificate received"),
)
def approve_life_event(ctx: Ctx, life_event_id: EventId, note: Text = "") -> LifeEvent:
    """Approve a reported life event; the member may then change elections until 30 days after it.

    A birth or adoption needs the child on file as a dependent.

    Args:
        life_event_id: The event.
        note: Review note.
    """
    event = _pending_event(ctx, life_event_id)
    if event.kind in ("birth", "adoption"):
        kids = [
            d
            for d in ctx.where(Dependent, member_id=event.member_id, relationship="child")
            if event.kind == "adoption" or d.birth_date == event.event_date
        ]
        if not kids:
            raise RuleViolation(
                f"no child of the member is on file for the {event.kind}",
                field="life_event_id",
                hint="add the child with benefits__create_dependent first",
            )
    return ctx.update(event, status="approved", review_note=note)


@service.tool(
    intent="deny the life event",
    write=True,
    example=first_example(LifeEvent, "life_event_id", where={"status": "pending_review"}, note="Certificate received"),
)
def deny_life_event(ctx: Ctx, life_event_id: EventId, note: Text) -> LifeEvent:
    """Deny a reported life event with a reason.

    Args:
        life_event_id: The event.
        note: Why it is denied.
    """
    event = _pending_event(ctx, life_event_id)
    if not note.strip():
        raise RuleViolation("a denial needs a reason", field="note", hint="tell the member why")
    return ctx.update(event, status="denied", review_note=note.strip())


class Coverage(BaseModel):
    """One plan type's current election of a member."""

    plan_type: PlanType = Field(description="Plan type.")
    enrollment_id: EnrollmentId = Field(description="The election.")
    plan_name: Title | None = Field(description="Plan elected; null if waived.")
    carrier: CompanyName | None = Field(description="Carrier of the plan.")
    tier: Tier | None = Field(description="Coverage tier.")
    status: EnrollmentStatus = Field(description="active, pending or waived.")
    covered: list[PersonName] = Field(description="Dependents covered.")
    employee_cost: Cents = Field(description="Monthly cost to the member.")


class BenefitsSummary(BaseModel):
    """What a member has elected and what it costs them."""

    member_id: MemberId = Field(description="The member.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work e-mail.")
    coverages: list[Coverage] = Field(description="Current elections by plan type.")
    monthly_employee_cost: Cents = Field(description="Total monthly payroll deduction for active coverage.")
    monthly_employer_cost: Cents = Field(description="Total monthly company contribution for active coverage.")


@service.tool(
    intent="summarize the member's benefits", example=first_example(Member, "member_id", where={"eligible": True})
)
def benefits_summary(ctx: Ctx, member_id: MemberId) -> BenefitsSummary:
    """List a member's current and pending elections with the monthly costs of active coverage.

    Args:
        member_id: The member.
    """
    member = ctx.get(Member, member_id, field="member_id")
    lines: list[Coverage] = []
    own = ctx.where(Enrollment, member_id=member.id)
    employee = employer = 0
    for e in own:
        if e.status == "terminated":
            continue
        plan = ctx.find(Plan, e.plan_id) if e.plan_id else None
        names = [ctx.get(Dependent, d).name for d in e.dependent_ids if ctx.find(Dependent, d)]
        lines.append(
            Coverage(
                plan_type=e.plan_type,
                enrollment_id=e.id,
                plan_name=plan.name if plan else None,
                carrier=plan.carrier if plan else None,
                tier=e.tier,
                status=e.status,
                covered=names,
                employee_cost=e.employee_cost,
            )
        )
        if e.status == "active":
            employee += e.employee_cost
            employer += e.employer_cost
    return BenefitsSummary(
        member_id=member.id,
        name=member.name,
        email=member.email,
        coverages=lines,
        monthly_employee_cost=employee,
        monthly_employer_cost=employer,
    )


# -- seed -----------------------------------------------------------------------------------

PLANS: tuple[tuple[str, PlanType, str, tuple[int, int, int, int], float], ...] = (
    ("Harbor PPO 500", "medical", "Northwind Health Mutual", (54_000, 112_000, 98_000, 158_000), 80.0),
    ("Harbor HMO Select", "medical", "Northwind Health Mutual", (41_000, 86_000, 76_000, 121_000), 85.0),
    ("High Deductible 3000", "medical", "Evergreen Assurance", (29_000, 61_000, 55_000, 88_000), 90.0),
    ("Dental Plus", "dental", "BrightSmile Dental", (4_200, 8_600, 9_100, 13_800), 50.0),
    ("Vision Care", "vision", "ClearView Vision", (900, 1_800, 1_900, 2_900), 100.0),
    ("Basic Life 2x salary", "life", "Evergreen Assurance", (1_200, 1_200, 1_200, 1_200), 100.0),
)
TIERS: tuple[Tier, ...] = ("employee", "employee_spouse", "employee_children", "family")


@service.seeder
def seed(s: SeedContext) -> None:
    """2026 plans, open-enrollment and new-hire windows, staff with dependents, elections and life events."""
    plans = _seed_plans(s)
    open_enrollment = _seed_windows(s)
    members = _seed_members(s)
    dependents = _seed_dependents(s, members)
    for i, m in enumerate(members):
        if m.eligible:
            _seed_elections(s, i, m, dependents[m.id], plans, open_enrollment)
    _seed_life_events(s, [m for m in members if m.eligible], dependents)


def _seed_plans(s: SeedContext) -> dict[str, list[Plan]]:
    """This year's plans (and a retired one from last year); return this year's by plan type."""
    year = s.now.year
    cur = s.population.home.place.currency
    by_type: dict[str, list[Plan]] = {}
    for name, kind, carrier, p, pct in PLANS:
        plan = s.create(
            Plan,
            name=name,
            type=kind,
            carrier=carrier,
            plan_year=year,
            premium_employee=p[0],
            premium_employee_spouse=p[1],
            premium_employee_children=p[2],
            premium_family=p[3],
            employer_contribution=pct,
            currency=cur,
        )
        by_type.setdefault(plan.type, []).append(plan)
    s.create(
        Plan,
        name="Harbor PPO 250 (retired)",
        type="medical",
        carrier="Northwind Health Mutual",
        plan_year=year - 1,
        premium_employee=51_000,
        premium_employee_spouse=105_000,
        premium_employee_children=93_000,
        premium_family=149_000,
        employer_contribution=80.0,
        currency=cur,
        active=False,
    )
    return by_type


def _seed_windows(s: SeedContext) -> EnrollmentWindow:
    """Last November's open enrollment (returned) and a spring dental and vision window open now."""
    today = s.now.date()
    year = today.year
    open_enrollment = s.create(
        EnrollmentWindow,
        name=f"{year} Open Enrollment",
        kind="open_enrollment",
        plan_types=["medical", "dental", "vision", "life"],
        plan_year=year,
        opens=dt.date(year - 1, 11, 3),
        closes=dt.date(year - 1, 11, 21),
        coverage_start=dt.date(year, 1, 1),
    )
    s.create(
        EnrollmentWindow,
        name=f"Spring {year} dental & vision enrollment",
        kind="special",
        plan_types=["dental", "vision"],
        plan_year=year,
        opens=today - dt.timedelta(days=7),
        closes=today + dt.timedelta(days=11),
        coverage_start=dt.date(year, 4, 1),
    )
    return open_enrollment


def _seed_members(s: SeedContext) -> list[Member]:
    """Every employee, in population order; every fifteenth is not eligible."""
    return [
        s.create(
            Member,
            name=p.name,
            email=p.email,
            birth_date=p.birth_date,
            hire_date=p.hire_date or s.now.date(),
            home_address=p.address,
            eligible=i % 15 != 14,
        )
        for i, p in enumerate(s.population.employees)
    ]


def _seed_dependents(s: SeedContext, members: Sequence[Member]) -> dict[str, list[Dependent]]:
    """A partner for two in three members and up to three children for some; return them by member id."""
    rng = s.rng
    today = s.now.date()
    deps: dict[str, list[Dependent]] = {}
    for i, (p, m) in enumerate(zip(s.population.employees, members, strict=True)):
        mine: list[Dependent] = []
        if i % 3 != 2:
            partner_age = age_on(p.birth_date, today) + rng.randint(-4, 4)
            mine.append(
                s.create(
                    Dependent,
                    member_id=m.id,
                    name=f"{rng.choice(FIRST_NAMES)} {p.last_name}",
                    relationship="spouse" if i % 5 else "domestic_partner",
                    birth_date=p.birth_date + dt.timedelta(days=365 * (age_on(p.birth_date, today) - partner_age)),
                    created_at=s.ago(days=400),
                )
            )
        for k in range(i % 4 if i % 3 != 1 else 0):
            age_days = rng.randint(200, min(30 * 365, max(400, (age_on(p.birth_date, today) - 20) * 365)))
            mine.append(
                s.create(
                    Dependent,
                    member_id=m.id,
                    name=f"{rng.choice(FIRST_NAMES)} {p.last_name}",
                    relationship="child",
                    birth_date=today - dt.timedelta(days=age_days + 97 * k),
                    created_at=s.ago(days=300),
                )
            )
        deps[m.id] = mine
    return deps


def _seed_elections(
    s: SeedContext,
    i: int,
    m: Member,
    dependents: Sequence[Dependent],
    plans: dict[str, list[Plan]],
    open_enrollment: EnrollmentWindow,
) -> None:
    """The ``i``-th member's elections for the year, made in open enrollment or in their new-hire window.

    A member hired after open enrollment gets a new-hire window, and makes no
    elections while it is still open.
    """
    year = s.now.year
    if m.hire_date > open_enrollment.closes:
        closes = m.hire_date + dt.timedelta(days=30)
        s.create(
            EnrollmentWindow,
            name=f"New hire enrollment: {m.name}",
            kind="new_hire",
            member_id=m.id,
            plan_types=["medical", "dental", "vision", "life"],
            plan_year=year,
            opens=m.hire_date,
            closes=closes,
            coverage_start=(m.hire_date.replace(day=1) + dt.timedelta(days=32)).replace(day=1),
        )
        if closes >= s.now.date():
            return  # still choosing
    start = dt.date(year, 1, 1)
    eligible_deps = [d for d in dependents if d.relationship != "child" or age_on(d.birth_date, start) < 26]
    for kind in ("medical", "dental", "vision", "life"):
        options = plans[kind]
        if kind in ("dental", "vision") and i % 4 == 3:
            continue  # never elected; may enroll in the spring window
        if kind == "medical" and i % 7 == 6:
            s.create(
                Enrollment,
                member_id=m.id,
                plan_type="medical",
                plan_year=year,
                status="waived",
                effective_date=start,
                window_id=open_enrollment.id,
                waive_reason="Covered by spouse's employer plan",
            )
            continue
        plan = options[i % len(options)]
        covered = [] if kind == "life" or i % 5 == 4 else eligible_deps
        tier = _tier_of([d.relationship for d in covered])
        total, employer, employee = _split(plan, tier)
        s.create(
            Enrollment,
            member_id=m.id,
            plan_type=kind,
            plan_id=plan.id,
            plan_year=year,
            tier=tier,
            dependent_ids=[d.id for d in covered],
            status="active",
            effective_date=start,
            monthly_premium=total,
            employer_cost=employer,
            employee_cost=employee,
            window_id=open_enrollment.id,
        )


def _seed_life_events(s: SeedContext, eligible: Sequence[Member], dependents: dict[str, list[Dependent]]) -> None:
    """A birth and a relocation waiting for review, a recent approved marriage, an old denied loss of coverage."""
    today = s.now.date()
    # A birth reported last week and waiting for review (the baby is on file).
    new_parent = eligible[1]
    born = today - dt.timedelta(days=9)
    s.create(
        Dependent,
        member_id=new_parent.id,
        name=f"{s.rng.choice(FIRST_NAMES)} {new_parent.name.split()[-1]}",
        relationship="child",
        birth_date=born,
        created_at=s.ago(days=6),
    )
    s.create(LifeEvent, member_id=new_parent.id, kind="birth", event_date=born, reported_at=s.ago(days=6))
    # A marriage approved two weeks ago; the member has not changed elections yet.
    newlywed = next(m for m in eligible[3:] if not any(d.relationship in PARTNERS for d in dependents[m.id]))
    s.create(
        LifeEvent,
        member_id=newlywed.id,
        kind="marriage",
        event_date=today - dt.timedelta(days=14),
        status="approved",
        review_note="Marriage certificate received",
        reported_at=s.ago(days=12),
    )
    # A relocation pending review, and an old loss of coverage that was denied.
    s.create(
        LifeEvent,
        member_id=eligible[7].id,
        kind="relocation",
        event_date=today - dt.timedelta(days=4),
        reported_at=s.ago(days=3),
    )
    s.create(
        LifeEvent,
        member_id=eligible[10].id,
        kind="loss_of_other_coverage",
        event_date=today - dt.timedelta(days=70),
        status="denied",
        review_note="Reported after the 30-day deadline",
        reported_at=s.ago(days=28),
    )
