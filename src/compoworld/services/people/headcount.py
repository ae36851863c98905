"""Orgplan Headcount: the org chart of positions, planned openings with approvals, budget scenarios, backfills.

Modeled on the ChartHop API (jobs/positions with a manager job and an assigned
person, open and planned jobs, scenarios for headcount planning with their
changes, approval requests): positions are filled, open (vacant) or closed and
report to a manager position (no cycles); openings request a new position or a
backfill of a vacated one and go draft → pending_approval → approved or
rejected (or cancelled), then filled when someone is hired; scenarios hold a
headcount budget for a fiscal year and go draft → active → archived, one active
at a time; an opening is approved only if its cost fits what the active
scenario has left after filled, open and approved positions; nobody approves
their own request, and a person holds one position at a time.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Country, Date, Email, IdOf, JobTitle, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.world.org import department_of, org_chart

__all__ = ["service"]

service = Service(
    "headcount",
    title="Orgplan Headcount",
    category="headcount_planning",
    modeled_on="ChartHop API: jobs (positions) with manager jobs and assigned people, open and planned jobs, "
    "headcount scenarios with budgets, approval requests, backfills",
    description="Headcount planning on the live org chart: every position with its manager and holder, vacancies "
    "and backfills, requests for new positions that go through approval against the active budget scenario, and "
    "filling approved openings when someone is hired.",
)

PositionId = Annotated[str, IdOf("headcount.position")]
OpeningId = Annotated[str, IdOf("headcount.opening")]
ScenarioId = Annotated[str, IdOf("headcount.scenario")]

PositionStatus = Literal["filled", "open", "closed"]
OpeningKind = Literal["new", "backfill"]
OpeningStatus = Literal["draft", "pending_approval", "approved", "rejected", "cancelled", "filled"]
ScenarioStatus = Literal["draft", "active", "archived"]
Department = Annotated[str, StringConstraints(min_length=1, max_length=60)]
"""A department of the company."""
FiscalYear = Annotated[int, Field(ge=2000, le=2100)]
"""A fiscal year."""
LIVE_POSITIONS: tuple[PositionStatus, ...] = ("filled", "open")


class Position(Timestamped):
    """A job on the org chart: filled by a person, or open."""

    id: PositionId
    title: JobTitle
    """The job title."""
    department: Department
    """The department."""
    manager_position_id: PositionId | None = None
    """The position it reports to (none: the top)."""
    holder_email: Email | None = None
    """The employee in it (none when open)."""
    holder_name: PersonName | None = None
    """Their name."""
    country: Country
    """Where the job is located."""
    annual_cost_cents: Cents
    """Fully loaded yearly cost budgeted for it."""
    status: PositionStatus = "filled"
    """filled, open (vacant) or closed."""
    opening_id: OpeningId | None = None
    """The approved opening that created it, if any."""


class Opening(Timestamped):
    """A request for a new position or a backfill, approved against the budget."""

    id: OpeningId
    kind: OpeningKind
    """new or backfill."""
    title: JobTitle
    """The job title."""
    department: Department
    """The department."""
    manager_position_id: PositionId
    """The position it will report to."""
    backfill_of: PositionId | None = None
    """The vacated position it replaces (backfills)."""
    country: Country
    """Where it will be located."""
    annual_cost_cents: Annotated[int, Field(ge=1, le=10**10)]
    """Its yearly cost."""
    target_start: Date
    """The hoped-for start date."""
    justification: Text = ""
    """Why the team needs it."""
    requested_by: Email
    """The manager asking."""
    approver_email: Email | None = None
    """Who decided."""
    scenario_id: ScenarioId | None = None
    """The scenario whose budget it was approved against."""
    position_id: PositionId | None = None
    """The position it created."""
    status: OpeningStatus = "draft"
    """draft, pending_approval, approved, rejected, cancelled or filled."""


class Scenario(Timestamped):
    """A headcount plan: a yearly budget for the cost of all positions."""

    id: ScenarioId
    name: Title
    """The scenario's name."""
    fiscal_year: FiscalYear
    """The year it plans."""
    budget_cents: Cents
    """The headcount cost budget."""
    owner_email: Email
    """The finance or people lead owning it."""
    status: ScenarioStatus = "draft"
    """draft, active or archived."""
    notes: Text = ""
    """Assumptions."""


class Report(Value):
    """A position in an org-chart view."""

    position_id: PositionId
    """The position."""
    title: str
    """Its title."""
    holder_email: str | None
    """Who holds it."""
    status: PositionStatus
    """filled or open."""
    depth: int
    """Levels below the root (1: direct report)."""


class OrgView(Value):
    """A position and everyone under it."""

    root: PositionId
    """The position."""
    direct_reports: int
    """Positions reporting to it directly."""
    total_reports: int
    """All positions under it."""
    open_positions: int
    """Vacancies under it."""
    reports: list[Report]
    """Everyone under it, depth first."""


class BudgetView(Value):
    """What a scenario's budget carries."""

    scenario_id: ScenarioId
    """The scenario."""
    budget_cents: int
    """The budget."""
    filled_cents: int
    """Cost of filled positions."""
    open_cents: int
    """Cost of open positions."""
    pending_cents: int
    """Openings awaiting approval."""
    remaining_cents: int
    """Budget minus filled and open positions."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _live_manager(ctx: Ctx, position_id: str, field: str) -> Position:
    mgr = ctx.get(Position, position_id, field=field)
    if mgr.status == "closed":
        raise RuleViolation(f"position {mgr.id} is closed", field=field, hint="report to a live position")
    return mgr


def _guard_position(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "closed" and new.status == "closed":
        raise RuleViolation(f"position {old.id} is closed", field="position_id", hint="open a new position")
    if new.manager_position_id is not None and new.manager_position_id != old.manager_position_id:
        seen = {new.id}
        cur: str | None = new.manager_position_id
        while cur is not None:
            if cur in seen:
                raise RuleViolation(
                    "that would make a reporting loop",
                    field="manager_position_id",
                    hint="pick a manager outside this position's reports",
                )
            seen.add(cur)
            cur = _live_manager(ctx, cur, "manager_position_id").manager_position_id


def _guard_scenario(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"scenario {old.id} is archived", field="scenario_id", hint="create a new scenario")
    _staff(ctx, new.owner_email, "owner_email")


positions = service.resource(
    Position,
    name="position",
    plural="positions",
    prefix="pos",
    create=False,
    filters=("department", "status", "manager_position_id", "holder_email", "country"),
    search=("title", "holder_name"),
    update=("title", "manager_position_id", "annual_cost_cents"),
    delete=False,
    guard_update=_guard_position,
)
openings = service.resource(
    Opening,
    name="opening",
    plural="openings",
    prefix="opn",
    create=False,
    filters=("status", "kind", "department", "requested_by", "manager_position_id", "backfill_of"),
    search=("title", "justification"),
    update=(),
    delete=False,
    title="headcount opening",
)
scenarios = service.resource(
    Scenario,
    name="scenario",
    plural="scenarios",
    prefix="scn",
    create=("name", "fiscal_year", "budget_cents", "owner_email", "notes"),
    filters=("status", "fiscal_year", "owner_email"),
    search=("name",),
    update=("name", "budget_cents", "notes"),
    delete=False,
    guard_create=_guard_scenario,
    guard_update=_guard_scenario,
    title="headcount scenario",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="show the org chart under the position", example=first_example(Position, "position_id"))
def org_view(ctx: Ctx, position_id: PositionId) -> OrgView:
    """A position's direct and indirect reports (live positions only), with the vacancies among them.

    Args:
        position_id: The root position.
    """
    root = ctx.get(Position, position_id, field="position_id")
    out: list[Report] = []

    def walk(pid: str, depth: int) -> None:
        for child in ctx.where(Position, manager_position_id=pid):
            if child.status in LIVE_POSITIONS:
                out.append(
                    Report(
                        position_id=child.id,
                        title=child.title,
                        holder_email=child.holder_email,
                        status=child.status,
                        depth=depth,
                    )
                )
                walk(child.id, depth + 1)

    walk(root.id, 1)
    return OrgView(
        root=root.id,
        direct_reports=sum(r.depth == 1 for r in out),
        total_reports=len(out),
        open_positions=sum(r.status == "open" for r in out),
        reports=out,
    )


@service.tool(
    intent="vacate the position",
    write=True,
    example=first_example(
        Position, "position_id", where={"status": "filled"}, match=lambda ctx, p: p.manager_position_id is not None
    ),
)
def vacate_position(ctx: Ctx, position_id: PositionId) -> Position:
    """Record that the holder left: the position becomes open (a backfill can then be requested).

    Args:
        position_id: The filled position.
    """
    pos = ctx.get(Position, position_id, field="position_id")
    if pos.status != "filled":
        raise Conflict(f"position {pos.id} is {pos.status}", field="position_id", hint="only filled ones are vacated")
    return ctx.update(pos, status="open", holder_email=None, holder_name=None)


@service.tool(
    intent="close the position",
    write=True,
    destructive=True,
    example=first_example(Position, "position_id", where={"status": "open"}),
)
def close_position(ctx: Ctx, position_id: PositionId) -> Position:
    """Eliminate an open position that has no live reports and no live backfill; its budget is freed.

    Args:
        position_id: The open position.
    """
    pos = ctx.get(Position, position_id, field="position_id")
    if pos.status != "open":
        raise Conflict(f"position {pos.id} is {pos.status}", field="position_id", hint="vacate it first")
    if any(c.status in LIVE_POSITIONS for c in ctx.where(Position, manager_position_id=pos.id)):
        raise RuleViolation("positions still report to it", field="position_id", hint="move them to another manager")
    for o in ctx.where(Opening, backfill_of=pos.id):
        if o.status in ("draft", "pending_approval", "approved"):
            raise Conflict(f"backfill {o.id} is {o.status}", field="position_id", hint="cancel the backfill first")
    return ctx.update(pos, status="closed")


@service.tool(
    intent="assign the person to the position",
    write=True,
    example=lambda ctx: _example_assign(ctx),
)
def assign_person(ctx: Ctx, position_id: PositionId, employee_email: Email) -> Position:
    """Put an employee (who holds no other position) into an open position; a backfill or opening for it is filled.

    Args:
        position_id: The open position.
        employee_email: The employee.
    """
    pos = ctx.get(Position, position_id, field="position_id")
    if pos.status != "open":
        raise Conflict(f"position {pos.id} is {pos.status}", field="position_id", hint="pick an open position")
    person = next((p for p in ctx.population.employees if p.email == employee_email), None)
    if person is None:
        raise RuleViolation(f"{employee_email} is not an employee", field="employee_email", hint="hire them first")
    held = ctx.first(Position, holder_email=employee_email, status="filled")
    if held is not None:
        raise Conflict(f"{employee_email} holds {held.id}", field="employee_email", hint="vacate that one first")
    for o in ctx.where(Opening, status="approved"):
        if o.position_id == pos.id or o.backfill_of == pos.id:
            ctx.update(o, status="filled", position_id=pos.id)
    return ctx.update(pos, status="filled", holder_email=employee_email, holder_name=person.name)


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    pos = ctx.first(Position, status="open")
    holders = {p.holder_email for p in ctx.where(Position, status="filled")}
    free = next((p.email for p in ctx.population.employees if p.email not in holders), None)
    return None if pos is None or free is None else {"position_id": pos.id, "employee_email": free}


def _example_opening(ctx: Ctx) -> dict[str, Any] | None:
    mgr = ctx.first(Position, status="filled")
    if mgr is None or mgr.holder_email is None:
        return None
    return {
        "kind": "new",
        "title": "Data Engineer",
        "department": mgr.department,
        "manager_position_id": mgr.id,
        "country": mgr.country,
        "annual_cost_cents": 9_000_000,
        "requested_by": mgr.holder_email,
        "target_start": (ctx.today() + dt.timedelta(days=60)).isoformat(),
        "justification": "Pipeline work.",
    }


@service.tool(intent="request the headcount opening", write=True, example=_example_opening)
def request_opening(
    ctx: Ctx,
    kind: OpeningKind,
    title: JobTitle,
    department: Department,
    manager_position_id: PositionId,
    country: Country,
    annual_cost_cents: Annotated[int, Field(ge=1, le=10**10)],
    target_start: Date,
    requested_by: Email,
    backfill_of: PositionId | None = None,
    justification: Text = "",
) -> Opening:
    """Draft a request for a new position, or a backfill of a vacated (open) one.

    Args:
        kind: new or backfill.
        title: The job title.
        department: The department (one the company has).
        manager_position_id: The live position it will report to.
        country: Where it will be located.
        annual_cost_cents: Its yearly cost.
        target_start: The hoped-for start (in the future).
        requested_by: The manager asking (an employee).
        backfill_of: The open position it replaces (backfills only; one live backfill each).
        justification: Why.
    """
    known = {department_of(p) for p in ctx.population.employees}
    if department not in known:
        raise RuleViolation(f"no department {department!r}", field="department", hint=f"pick from {sorted(known)}")
    _live_manager(ctx, manager_position_id, "manager_position_id")
    _staff(ctx, requested_by, "requested_by")
    if target_start <= ctx.today():
        raise RuleViolation("the start must be in the future", field="target_start", hint="pick a later date")
    if (kind == "backfill") != (backfill_of is not None):
        raise RuleViolation(
            "a backfill names the position it replaces, and only a backfill does",
            field="backfill_of",
            hint="set kind backfill with backfill_of, or neither",
        )
    if backfill_of is not None:
        old = ctx.get(Position, backfill_of, field="backfill_of")
        if old.status != "open":
            raise RuleViolation(
                f"position {old.id} is {old.status}",
                field="backfill_of",
                hint="only a vacated (open) position is backfilled",
            )
        for o in ctx.where(Opening, backfill_of=old.id):
            if o.status in ("draft", "pending_approval", "approved"):
                raise Conflict(f"backfill {o.id} already exists", field="backfill_of", hint="use that request")
    return ctx.create(
        Opening,
        kind=kind,
        title=title,
        department=department,
        manager_position_id=manager_position_id,
        backfill_of=backfill_of,
        country=country,
        annual_cost_cents=annual_cost_cents,
        target_start=target_start,
        justification=justification,
        requested_by=requested_by,
    )


def _opening(ctx: Ctx, opening_id: str, *states: OpeningStatus) -> Opening:
    o = ctx.get(Opening, opening_id, field="opening_id")
    if o.status not in states:
        raise Conflict(f"opening {o.id} is {o.status}", field="opening_id", hint=f"it must be {' or '.join(states)}")
    return o


@service.tool(
    intent="submit the opening for approval",
    write=True,
    example=first_example(Opening, "opening_id", where={"status": "draft"}),
)
def submit_opening(ctx: Ctx, opening_id: OpeningId) -> Opening:
    """Send a draft opening for approval.

    Args:
        opening_id: The draft.
    """
    return ctx.update(_opening(ctx, opening_id, "draft"), status="pending_approval")


def _committed(ctx: Ctx) -> tuple[int, int]:
    live = [p for p in ctx.scan(Position) if p.status in LIVE_POSITIONS]
    return (
        sum(p.annual_cost_cents for p in live if p.status == "filled"),
        sum(p.annual_cost_cents for p in live if p.status == "open"),
    )


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    o = ctx.first(Opening, status="pending_approval")
    if o is None:
        return None
    who = next(p.email for p in ctx.population.employees if p.email != o.requested_by)
    return {"opening_id": o.id, "approver_email": who}


@service.tool(intent="approve the headcount opening", write=True, example=_example_decide)
def approve_opening(ctx: Ctx, opening_id: OpeningId, approver_email: Email) -> Opening:
    """Approve a pending opening against the active scenario's budget; a new opening becomes an open position.

    Args:
        opening_id: The pending opening.
        approver_email: The approver (an employee other than the requester).
    """
    o = _opening(ctx, opening_id, "pending_approval")
    _staff(ctx, approver_email, "approver_email")
    if approver_email == o.requested_by:
        raise RuleViolation("nobody approves their own request", field="approver_email", hint="ask another leader")
    scn = ctx.first(Scenario, status="active")
    if scn is None:
        raise RuleViolation("no active scenario", field="opening_id", hint="activate a scenario first")
    filled, vacant = _committed(ctx)
    extra = o.annual_cost_cents
    if o.backfill_of is not None:
        extra -= ctx.get(Position, o.backfill_of).annual_cost_cents
    left = scn.budget_cents - filled - vacant
    if extra > left:
        raise RuleViolation(
            f"the active scenario has {left} cents left",
            field="opening_id",
            hint="raise the scenario's budget or lower the cost",
        )
    if o.backfill_of is not None:
        old = ctx.get(Position, o.backfill_of)
        ctx.update(old, annual_cost_cents=o.annual_cost_cents, title=o.title)
        pos_id = old.id
    else:
        pos = ctx.create(
            Position,
            title=o.title,
            department=o.department,
            manager_position_id=o.manager_position_id,
            country=o.country,
            annual_cost_cents=o.annual_cost_cents,
            status="open",
            opening_id=o.id,
        )
        pos_id = pos.id
    return ctx.update(o, status="approved", approver_email=approver_email, scenario_id=scn.id, position_id=pos_id)


@service.tool(intent="reject the headcount opening", write=True, example=_example_decide)
def reject_opening(ctx: Ctx, opening_id: OpeningId, approver_email: Email) -> Opening:
    """Reject a pending opening.

    Args:
        opening_id: The pending opening.
        approver_email: The approver (an employee other than the requester).
    """
    o = _opening(ctx, opening_id, "pending_approval")
    _staff(ctx, approver_email, "approver_email")
    if approver_email == o.requested_by:
        raise RuleViolation("nobody decides their own request", field="approver_email", hint="ask another leader")
    return ctx.update(o, status="rejected", approver_email=approver_email)


@service.tool(
    intent="cancel the headcount opening",
    write=True,
    example=first_example(Opening, "opening_id", where={"status": "draft"}),
)
def cancel_opening(ctx: Ctx, opening_id: OpeningId) -> Opening:
    """Withdraw a draft, pending or approved opening; an approved new position that is still open is closed.

    Args:
        opening_id: The opening.
    """
    o = _opening(ctx, opening_id, "draft", "pending_approval", "approved")
    if o.status == "approved" and o.kind == "new" and o.position_id is not None:
        pos = ctx.get(Position, o.position_id)
        if pos.status == "open":
            ctx.update(pos, status="closed")
    return ctx.update(o, status="cancelled")


@service.tool(
    intent="activate the headcount scenario",
    write=True,
    example=first_example(Scenario, "scenario_id", where={"status": "draft"}),
)
def activate_scenario(ctx: Ctx, scenario_id: ScenarioId) -> Scenario:
    """Make a draft scenario the active plan; the previous active one is archived.

    Args:
        scenario_id: The draft scenario.
    """
    scn = ctx.get(Scenario, scenario_id, field="scenario_id")
    if scn.status != "draft":
        raise Conflict(f"scenario {scn.name!r} is {scn.status}", field="scenario_id", hint="only drafts activate")
    filled, _ = _committed(ctx)
    if scn.budget_cents < filled:
        raise RuleViolation(
            f"the budget is below the {filled} cents of filled positions", field="scenario_id", hint="raise the budget"
        )
    for other in ctx.where(Scenario, status="active"):
        ctx.update(other, status="archived")
    return ctx.update(scn, status="active")


@service.tool(intent="show the scenario's budget", example=first_example(Scenario, "scenario_id"))
def scenario_budget(ctx: Ctx, scenario_id: ScenarioId) -> BudgetView:
    """A scenario's budget against filled and open positions and pending openings.

    Args:
        scenario_id: The scenario.
    """
    scn = ctx.get(Scenario, scenario_id, field="scenario_id")
    filled, vacant = _committed(ctx)
    pending = sum(o.annual_cost_cents for o in ctx.where(Opening, status="pending_approval"))
    return BudgetView(
        scenario_id=scn.id,
        budget_cents=scn.budget_cents,
        filled_cents=filled,
        open_cents=vacant,
        pending_cents=pending,
        remaining_cents=scn.budget_cents - filled - vacant,
    )


# -- seed -------------------------------------------------------------------------------------

COST = {"Engineering": 130_000, "Sales": 100_000, "Marketing": 95_000, "Finance": 105_000}


@service.seeder
def seed(s: SeedContext) -> None:
    """The org chart of the staff, two vacancies, openings in every state, and three scenarios."""
    pop = s.population
    chart = org_chart(pop.employees)
    by_key: dict[str, Position] = {}
    order = [chart.top] + [h for h in chart.heads.values() if h.key != chart.top.key]
    order += [p for p in pop.employees if not chart.is_head(p)]
    for p in order:
        mgr = chart.manager_of(p)
        by_key[p.key] = s.create(
            Position,
            title=p.job_title,
            department=department_of(p),
            manager_position_id=by_key[mgr.key].id if mgr is not None else None,
            holder_email=p.email,
            holder_name=p.name,
            country=p.place.country,
            annual_cost_cents=COST.get(department_of(p), 85_000) * 100 * (2 if chart.is_head(p) else 1),
            created_at=s.ago(days=500),
        )
    staff = [by_key[p.key] for p in pop.employees if not chart.is_head(p)]
    vacated = [s.update(pos, status="open", holder_email=None, holder_name=None) for pos in staff[-2:]]
    total = sum(p.annual_cost_cents for p in s.records(Position))
    lead = chart.heads.get("Finance", chart.top).email
    year = s.now.year
    for name, budget, status in (
        (f"FY{year - 1} plan", total * 95 // 100, "archived"),
        (f"FY{year} plan", total * 108 // 100, "active"),
        (f"FY{year} growth case", total * 125 // 100, "draft"),
    ):
        s.create(
            Scenario,
            name=name,
            fiscal_year=year - 1 if status == "archived" else year,
            budget_cents=budget,
            owner_email=lead,
            status=status,
            created_at=s.ago(days=60),
        )
    _seed_openings(s, chart.heads, by_key, vacated)


def _seed_openings(s: SeedContext, heads: dict[str, Any], by_key: dict[str, Position], vacated: list[Position]) -> None:
    start = s.now.date() + dt.timedelta(days=45)
    active = s.records(Scenario)[1]
    rows: list[tuple[str, str, OpeningStatus]] = [
        ("Engineering", "Senior Software Engineer", "pending_approval"),
        ("Sales", "Account Executive", "draft"),
        ("Marketing", "Content Marketing Manager", "rejected"),
        ("Engineering", "Platform Engineer", "approved"),
    ]
    for dept, title, status in rows:
        head = heads.get(dept) or next(iter(heads.values()))
        mgr = by_key[head.key]
        o = s.create(
            Opening,
            kind="new",
            title=title,
            department=department_of(head),
            manager_position_id=mgr.id,
            country=mgr.country,
            annual_cost_cents=COST.get(dept, 85_000) * 100,
            target_start=start,
            justification=f"{dept} roadmap needs more capacity.",
            requested_by=head.email,
            status=status,
            approver_email=None
            if status in ("draft", "pending_approval")
            else next(h.email for h in heads.values() if h.email != head.email),
            scenario_id=active.id if status == "approved" else None,
            created_at=s.ago(days=12),
        )
        if status == "approved":
            pos = s.create(
                Position,
                title=title,
                department=o.department,
                manager_position_id=mgr.id,
                country=mgr.country,
                annual_cost_cents=o.annual_cost_cents,
                status="open",
                opening_id=o.id,
                created_at=s.ago(days=5),
            )
            s.update(o, position_id=pos.id)
    old = vacated[0]
    boss = next(p for p in s.records(Position) if p.id == old.manager_position_id)
    s.create(
        Opening,
        kind="backfill",
        title=old.title,
        department=old.department,
        manager_position_id=boss.id,
        backfill_of=old.id,
        country=old.country,
        annual_cost_cents=old.annual_cost_cents,
        target_start=start,
        justification="Backfill after a resignation.",
        requested_by=boss.holder_email or heads[next(iter(heads))].email,
        status="pending_approval",
        created_at=s.ago(days=3),
    )
