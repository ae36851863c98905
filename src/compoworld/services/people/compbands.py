"""Payscale Planner: job levels, salary bands by location, and merit review cycles with budgeted raises.

Modeled on Pave's compensation planning (Pave API and product: job levels and
job families, salary bands per level, family and geo zone with min / midpoint /
max, employees' compensation synced from the HRIS with compa-ratio, merit
cycles with a budget as a percent of eligible payroll that go draft → active →
closed, and raise recommendations that a manager drafts, submits, and an
approver approves or rejects). Rules: a band's min ≤ mid ≤ max and one band per
level, family and country; raises are recommended only in an active cycle, at
most one per employee, never a cut, never above the band's max, and the
submitted and approved raises of a cycle stay within its budget; closing a
cycle applies the approved raises to salaries on its effective date.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Country, Currency, Date, Email, IdOf, JobTitle, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.world.org import org_chart

__all__ = ["service"]

service = Service(
    "compbands",
    title="Payscale Planner",
    category="compensation_planning",
    modeled_on="Pave compensation planning: job levels, salary bands by job family, level and geo zone, "
    "employee compensation with compa-ratio, merit cycles with budgets, raise recommendations and approvals",
    description="Compensation planning: the job-level ladder, salary bands per family, level and country, each "
    "employee's placement in their band, and merit review cycles where managers propose raises within band and "
    "budget for approval before the cycle closes and new salaries take effect.",
)

LevelId = Annotated[str, IdOf("compbands.level")]
BandId = Annotated[str, IdOf("compbands.band")]
PlacementId = Annotated[str, IdOf("compbands.placement")]
CycleId = Annotated[str, IdOf("compbands.cycle")]
ProposalId = Annotated[str, IdOf("compbands.proposal")]

Track = Literal["individual_contributor", "manager", "executive"]
CycleStatus = Literal["draft", "active", "closed"]
ProposalStatus = Literal["draft", "submitted", "approved", "rejected", "withdrawn"]
Family = Annotated[str, StringConstraints(min_length=1, max_length=60)]
"""A job family (the department: Engineering, Sales …)."""
LevelCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{1,3}[0-9]{1,2}$")]
"""A level code such as P3 or M2."""
BudgetPercent = Annotated[float, Field(gt=0, le=20)]
"""A merit budget in percent of eligible payroll."""
LIVE: tuple[ProposalStatus, ...] = ("draft", "submitted", "approved")


class Level(Timestamped):
    """A rung of the job-level ladder."""

    id: LevelId
    code: LevelCode
    """The level code (unique), e.g. P3."""
    name: Title
    """Its name, e.g. Senior."""
    track: Track
    """individual_contributor, manager or executive."""
    rank: Annotated[int, Field(ge=1, le=20)]
    """Its order on the ladder (higher is more senior)."""


class Band(Timestamped):
    """The salary range of one level in one job family and country."""

    id: BandId
    level_id: LevelId
    """The level."""
    family: Family
    """The job family."""
    country: Country
    """The geo zone."""
    currency: Currency
    """The currency."""
    min_cents: Cents
    """The range minimum (annual)."""
    mid_cents: Cents
    """The midpoint."""
    max_cents: Cents
    """The range maximum."""


class Placement(Timestamped):
    """An employee's current compensation and level, synced from the HRIS."""

    id: PlacementId
    employee_email: Email
    """The employee (unique)."""
    employee_name: PersonName
    """Their name."""
    job_title: JobTitle
    """Their title."""
    family: Family
    """Their job family."""
    level_id: LevelId
    """Their level."""
    country: Country
    """Where they work."""
    currency: Currency
    """Pay currency."""
    base_salary_cents: Cents
    """Annual base salary."""
    manager_email: Email | None = None
    """Their manager."""


class Cycle(Timestamped):
    """A merit review cycle."""

    id: CycleId
    name: Title
    """The cycle's name."""
    owner_email: Email
    """The compensation lead running it."""
    budget_percent: BudgetPercent
    """Merit budget as a percent of eligible payroll."""
    effective_date: Date
    """When new salaries take effect."""
    status: CycleStatus = "draft"
    """draft, active or closed."""
    budget_cents: Cents = 0
    """The budget fixed at launch (in the home currency's cents, summed across currencies)."""
    eligible: int = 0
    """Employees eligible at launch."""


class Proposal(Timestamped):
    """A recommended raise for one employee in one cycle."""

    id: ProposalId
    cycle_id: CycleId
    """The cycle."""
    placement_id: PlacementId
    """The employee's placement."""
    employee_email: Email
    """The employee."""
    current_salary_cents: Cents
    """Salary when proposed."""
    proposed_salary_cents: Cents
    """The new salary."""
    increase_cents: Cents
    """The raise."""
    increase_percent: float
    """The raise in percent."""
    rationale: Text = ""
    """Why."""
    proposed_by: Email
    """The manager proposing it."""
    approver_email: Email | None = None
    """Who decided."""
    status: ProposalStatus = "draft"
    """draft, submitted, approved, rejected or withdrawn."""


class BandFit(Value):
    """Where an employee sits in their band."""

    placement_id: PlacementId
    """The placement."""
    band_id: BandId | None
    """Their band (None: no band for their level, family and country)."""
    compa_ratio: float | None
    """Salary over the band midpoint."""
    range_penetration_percent: float | None
    """Position between min (0) and max (100)."""
    below_min: bool
    """Under the band minimum."""
    above_max: bool
    """Over the band maximum."""


class BudgetSummary(Value):
    """How much of a cycle's budget is spent."""

    cycle_id: CycleId
    """The cycle."""
    budget_cents: int
    """The budget."""
    approved_cents: int
    """Raises approved."""
    submitted_cents: int
    """Raises submitted, awaiting a decision."""
    remaining_cents: int
    """Budget minus approved and submitted."""
    proposals: int
    """Live proposals."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_band(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        return
    if not new.min_cents <= new.mid_cents <= new.max_cents or new.min_cents == new.max_cents:
        raise RuleViolation("a band needs min ≤ mid ≤ max, min below max", field="mid_cents", hint="fix the range")
    for b in ctx.where(Band, level_id=new.level_id, family=new.family, country=new.country):  # after the write
        if b.id != new.id:
            raise Conflict(
                f"band {b.id} already covers this level, family and country",
                field="level_id",
                hint="update that band instead",
            )


def _guard_level(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None and ctx.first(Placement, level_id=old.id) is not None:
        raise RuleViolation("employees hold this level", field="level_id", hint="move them to another level first")
    if new is None:
        for b in ctx.where(Band, level_id=old.id):
            ctx.delete(b)


def _guard_cycle(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.status == old.status and old.status == "closed":
        raise RuleViolation(f"cycle {old.id} is closed", field="cycle_id", hint="start a new cycle")
    _staff(ctx, new.owner_email, "owner_email")


levels = service.resource(
    Level,
    name="level",
    plural="levels",
    prefix="lvl",
    create=False,
    filters=("track", "code"),
    search=("name",),
    update=("name",),
    delete=True,
    unique=("code",),
    guard_delete=_guard_level,
    title="job level",
)
bands = service.resource(
    Band,
    name="band",
    plural="bands",
    prefix="band",
    create=False,
    filters=("level_id", "family", "country"),
    update=("min_cents", "mid_cents", "max_cents"),
    delete=True,
    guard_update=_guard_band,
    title="salary band",
)
placements = service.resource(
    Placement,
    name="placement",
    plural="placements",
    prefix="plc",
    create=False,
    filters=("employee_email", "family", "level_id", "country", "manager_email"),
    search=("employee_name", "job_title"),
    update=("level_id", "job_title"),
    delete=False,
    title="employee placement",
)
cycles = service.resource(
    Cycle,
    name="cycle",
    plural="cycles",
    prefix="cyc",
    create=("name", "owner_email", "budget_percent", "effective_date"),
    filters=("status", "owner_email"),
    search=("name",),
    update=("name", "budget_percent", "effective_date"),
    delete=False,
    guard_create=_guard_cycle,
    guard_update=_guard_cycle,
    title="merit cycle",
)
proposals = service.resource(
    Proposal,
    name="proposal",
    plural="proposals",
    prefix="prp",
    create=False,
    filters=("cycle_id", "placement_id", "employee_email", "status", "proposed_by"),
    delete=False,
    transitions={
        "withdraw": Transition("status", ("draft", "submitted"), "withdrawn", "withdraw the raise proposal"),
    },
    title="raise proposal",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_level(ctx: Ctx) -> dict[str, Any] | None:
    top = max((lv.rank for lv in ctx.scan(Level)), default=0)
    return {"code": f"E{top + 1}", "name": "Vice President", "track": "executive", "rank": min(top + 1, 20)}


@service.tool(intent="add the job level", write=True, example=_example_level)
def add_level(ctx: Ctx, code: LevelCode, name: Title, track: Track, rank: Annotated[int, Field(ge=1, le=20)]) -> Level:
    """Add a rung to the ladder; codes are unique.

    Args:
        code: The level code, e.g. P4 or M2.
        name: Its name, e.g. Staff.
        track: individual_contributor, manager or executive.
        rank: Its order on the ladder (higher is more senior).
    """
    other = ctx.first(Level, code=code)
    if other is not None:
        raise Conflict(f"level {other.id} already has code {code}", field="code", hint="pick another code")
    return ctx.create(Level, code=code, name=name, track=track, rank=rank)


def _example_band(ctx: Ctx) -> dict[str, Any] | None:
    lvl = ctx.first(Level, code="P1")
    if lvl is None or ctx.first(Band, level_id=lvl.id, family="Legal", country="US") is not None:
        return None
    return {
        "level_id": lvl.id,
        "family": "Legal",
        "country": "US",
        "currency": "USD",
        "min_cents": 8_000_000,
        "mid_cents": 9_500_000,
        "max_cents": 11_000_000,
    }


@service.tool(intent="define the salary band", write=True, example=_example_band)
def define_band(
    ctx: Ctx,
    level_id: LevelId,
    family: Family,
    country: Country,
    currency: Currency,
    min_cents: Cents,
    mid_cents: Cents,
    max_cents: Cents,
) -> Band:
    """Define the salary range of a level in a job family and country: min ≤ mid ≤ max, one band per triple.

    Args:
        level_id: The level.
        family: The job family.
        country: The geo zone.
        currency: The currency.
        min_cents: The annual minimum.
        mid_cents: The midpoint.
        max_cents: The maximum (above the minimum).
    """
    ctx.get(Level, level_id, field="level_id")
    band = ctx.create(
        Band,
        level_id=level_id,
        family=family,
        country=country,
        currency=currency,
        min_cents=min_cents,
        mid_cents=mid_cents,
        max_cents=max_cents,
    )
    _guard_band(ctx, band, None)  # the call is atomic: a refusal undoes the create
    return band


def _band_of(ctx: Ctx, p: Placement) -> Band | None:
    return ctx.first(Band, level_id=p.level_id, family=p.family, country=p.country)


@service.tool(intent="show the employee's band fit", example=first_example(Placement, "placement_id"))
def band_fit(ctx: Ctx, placement_id: PlacementId) -> BandFit:
    """An employee's compa-ratio and range penetration in the band of their level, family and country.

    Args:
        placement_id: The employee's placement.
    """
    p = ctx.get(Placement, placement_id, field="placement_id")
    b = _band_of(ctx, p)
    if b is None:
        return BandFit(
            placement_id=p.id,
            band_id=None,
            compa_ratio=None,
            range_penetration_percent=None,
            below_min=False,
            above_max=False,
        )
    pen = 100 * (p.base_salary_cents - b.min_cents) / (b.max_cents - b.min_cents)
    return BandFit(
        placement_id=p.id,
        band_id=b.id,
        compa_ratio=round(p.base_salary_cents / b.mid_cents, 3),
        range_penetration_percent=round(pen, 1),
        below_min=p.base_salary_cents < b.min_cents,
        above_max=p.base_salary_cents > b.max_cents,
    )


@service.tool(
    intent="launch the merit cycle",
    write=True,
    example=first_example(Cycle, "cycle_id", where={"status": "draft"}),
)
def launch_cycle(ctx: Ctx, cycle_id: CycleId) -> Cycle:
    """Open a draft cycle for proposals; its budget is fixed at launch from eligible payroll.

    Args:
        cycle_id: The draft cycle.
    """
    cycle = ctx.get(Cycle, cycle_id, field="cycle_id")
    if cycle.status != "draft":
        raise Conflict(f"cycle {cycle.name!r} is {cycle.status}", field="cycle_id", hint="only drafts launch")
    if cycle.effective_date <= ctx.today():
        raise RuleViolation("the effective date has passed", field="cycle_id", hint="move it to a future date")
    eligible = list(ctx.scan(Placement))
    payroll = sum(p.base_salary_cents for p in eligible)
    return ctx.update(
        cycle, status="active", eligible=len(eligible), budget_cents=round(payroll * cycle.budget_percent / 100)
    )


def _spent(ctx: Ctx, cycle_id: str) -> tuple[int, int]:
    props = ctx.where(Proposal, cycle_id=cycle_id)
    return (
        sum(p.increase_cents for p in props if p.status == "approved"),
        sum(p.increase_cents for p in props if p.status == "submitted"),
    )


@service.tool(intent="show the cycle's budget", example=first_example(Cycle, "cycle_id", where={"status": "active"}))
def cycle_budget(ctx: Ctx, cycle_id: CycleId) -> BudgetSummary:
    """A cycle's budget and how much approved and submitted raises use.

    Args:
        cycle_id: The cycle.
    """
    cycle = ctx.get(Cycle, cycle_id, field="cycle_id")
    approved, submitted = _spent(ctx, cycle.id)
    live = sum(p.status in LIVE for p in ctx.where(Proposal, cycle_id=cycle.id))
    return BudgetSummary(
        cycle_id=cycle.id,
        budget_cents=cycle.budget_cents,
        approved_cents=approved,
        submitted_cents=submitted,
        remaining_cents=cycle.budget_cents - approved - submitted,
        proposals=live,
    )


def _example_propose(ctx: Ctx) -> dict[str, Any] | None:
    cycle = ctx.first(Cycle, status="active")
    if cycle is None:
        return None
    taken = {p.placement_id for p in ctx.where(Proposal, cycle_id=cycle.id) if p.status in LIVE}
    for p in ctx.scan(Placement):
        b = _band_of(ctx, p)
        if p.id not in taken and p.manager_email and b is not None and p.base_salary_cents * 102 // 100 <= b.max_cents:
            return {
                "cycle_id": cycle.id,
                "placement_id": p.id,
                "proposed_salary_cents": p.base_salary_cents * 102 // 100,
                "proposed_by": p.manager_email,
                "rationale": "Strong year.",
            }
    return None


@service.tool(intent="propose the raise", write=True, example=_example_propose)
def propose_raise(
    ctx: Ctx,
    cycle_id: CycleId,
    placement_id: PlacementId,
    proposed_salary_cents: Cents,
    proposed_by: Email,
    rationale: Text = "",
) -> Proposal:
    """Draft a raise for an employee in the active cycle: no cut, within their band's max, one per employee.

    Args:
        cycle_id: The active cycle.
        placement_id: The employee's placement.
        proposed_salary_cents: The new annual salary.
        proposed_by: The manager proposing it (an employee, not the subject).
        rationale: Why.
    """
    cycle = ctx.get(Cycle, cycle_id, field="cycle_id")
    if cycle.status != "active":
        raise RuleViolation(f"cycle {cycle.name!r} is {cycle.status}", field="cycle_id", hint="use the active cycle")
    p = ctx.get(Placement, placement_id, field="placement_id")
    _staff(ctx, proposed_by, "proposed_by")
    if proposed_by == p.employee_email:
        raise RuleViolation("nobody proposes their own raise", field="proposed_by", hint="their manager proposes it")
    for other in ctx.where(Proposal, cycle_id=cycle.id, placement_id=p.id):
        if other.status in LIVE:
            raise Conflict(f"proposal {other.id} already exists", field="placement_id", hint="withdraw it first")
    if proposed_salary_cents <= p.base_salary_cents:
        raise RuleViolation(
            "a raise must exceed the current salary",
            field="proposed_salary_cents",
            hint=f"propose more than {p.base_salary_cents}",
        )
    band = _band_of(ctx, p)
    if band is not None and proposed_salary_cents > band.max_cents:
        raise RuleViolation(
            f"above the band maximum of {band.max_cents}",
            field="proposed_salary_cents",
            hint="propose within the band, or promote to a higher level",
        )
    inc = proposed_salary_cents - p.base_salary_cents
    return ctx.create(
        Proposal,
        cycle_id=cycle.id,
        placement_id=p.id,
        employee_email=p.employee_email,
        current_salary_cents=p.base_salary_cents,
        proposed_salary_cents=proposed_salary_cents,
        increase_cents=inc,
        increase_percent=round(100 * inc / p.base_salary_cents, 2),
        rationale=rationale,
        proposed_by=proposed_by,
    )


@service.tool(
    intent="submit the raise proposal",
    write=True,
    example=first_example(Proposal, "proposal_id", where={"status": "draft"}),
)
def submit_proposal(ctx: Ctx, proposal_id: ProposalId) -> Proposal:
    """Submit a draft for approval; submitted and approved raises must fit the cycle's budget.

    Args:
        proposal_id: The draft proposal.
    """
    prop = ctx.get(Proposal, proposal_id, field="proposal_id")
    if prop.status != "draft":
        raise Conflict(f"proposal {prop.id} is {prop.status}", field="proposal_id", hint="only drafts are submitted")
    cycle = ctx.get(Cycle, prop.cycle_id)
    if cycle.status != "active":
        raise RuleViolation(f"cycle {cycle.name!r} is {cycle.status}", field="proposal_id", hint="it is over")
    approved, submitted = _spent(ctx, cycle.id)
    left = cycle.budget_cents - approved - submitted
    if prop.increase_cents > left:
        raise RuleViolation(
            f"only {left} cents of budget remain",
            field="proposal_id",
            hint="lower the raise (withdraw and propose again) or reject others",
        )
    return ctx.update(prop, status="submitted")


def _decide(ctx: Ctx, proposal_id: str, approver_email: str, status: ProposalStatus) -> Proposal:
    prop = ctx.get(Proposal, proposal_id, field="proposal_id")
    if prop.status != "submitted":
        raise Conflict(f"proposal {prop.id} is {prop.status}", field="proposal_id", hint="decide submitted ones")
    _staff(ctx, approver_email, "approver_email")
    if approver_email in (prop.employee_email, prop.proposed_by):
        raise RuleViolation(
            "the approver must be someone else",
            field="approver_email",
            hint="neither the employee nor the proposer approves",
        )
    return ctx.update(prop, status=status, approver_email=approver_email)


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    for prop in ctx.where(Proposal, status="submitted"):
        who = next(p.email for p in ctx.population.employees if p.email not in (prop.employee_email, prop.proposed_by))
        return {"proposal_id": prop.id, "approver_email": who}
    return None


@service.tool(intent="approve the raise proposal", write=True, example=_example_decide)
def approve_proposal(ctx: Ctx, proposal_id: ProposalId, approver_email: Email) -> Proposal:
    """Approve a submitted raise; it applies when the cycle closes.

    Args:
        proposal_id: The submitted proposal.
        approver_email: The approver (not the employee or the proposer).
    """
    return _decide(ctx, proposal_id, approver_email, "approved")


@service.tool(intent="reject the raise proposal", write=True, example=_example_decide)
def reject_proposal(ctx: Ctx, proposal_id: ProposalId, approver_email: Email) -> Proposal:
    """Reject a submitted raise; its budget is freed.

    Args:
        proposal_id: The submitted proposal.
        approver_email: The approver (not the employee or the proposer).
    """
    return _decide(ctx, proposal_id, approver_email, "rejected")


@service.tool(
    intent="close the merit cycle",
    write=True,
    example=first_example(Cycle, "cycle_id", where={"status": "active"}),
)
def close_cycle(ctx: Ctx, cycle_id: CycleId) -> Cycle:
    """Close the active cycle: approved raises become salaries; drafts and submitted proposals are withdrawn.

    Args:
        cycle_id: The active cycle.
    """
    cycle = ctx.get(Cycle, cycle_id, field="cycle_id")
    if cycle.status != "active":
        raise Conflict(f"cycle {cycle.name!r} is {cycle.status}", field="cycle_id", hint="only active ones close")
    for prop in ctx.where(Proposal, cycle_id=cycle.id):
        if prop.status == "approved":
            ctx.update(ctx.get(Placement, prop.placement_id), base_salary_cents=prop.proposed_salary_cents)
        elif prop.status in ("draft", "submitted"):
            ctx.update(prop, status="withdrawn")
    return ctx.update(cycle, status="closed")


# -- seed -------------------------------------------------------------------------------------

LEVELS: tuple[tuple[str, str, Track, int], ...] = (
    ("P1", "Associate", "individual_contributor", 1),
    ("P2", "Professional", "individual_contributor", 2),
    ("P3", "Senior", "individual_contributor", 3),
    ("M1", "Manager", "manager", 4),
    ("M2", "Senior Manager", "manager", 5),
    ("E1", "Director", "executive", 6),
)
BASE = {"Engineering": 90_000, "Sales": 70_000, "Marketing": 68_000, "Finance": 72_000}
COUNTRY = {"US": 1.0, "CA": 0.8, "GB": 0.8, "DE": 0.8, "NL": 0.8, "FR": 0.7, "SE": 0.75, "AU": 0.8}


@service.seeder
def seed(s: SeedContext) -> None:
    """The ladder, bands for every family, level and country of the staff, placements, a closed and an active cycle."""
    pop = s.population
    levels_made = [
        s.create(Level, code=c, name=n, track=t, rank=r, created_at=s.ago(days=700)) for c, n, t, r in LEVELS
    ]
    fams = sorted({p.department or "General" for p in pop.employees})
    zones = sorted({(p.place.country, p.place.currency) for p in pop.employees})
    bands_made: dict[tuple[str, str, str], Band] = {}
    for lvl in levels_made:
        for fam in fams:
            for country, cur in zones:
                mid = round(BASE.get(fam, 60_000) * COUNTRY.get(country, 0.5) * (1 + 0.25 * (lvl.rank - 1))) * 100
                bands_made[(lvl.id, fam, country)] = s.create(
                    Band,
                    level_id=lvl.id,
                    family=fam,
                    country=country,
                    currency=cur,
                    min_cents=mid * 80 // 100,
                    mid_cents=mid,
                    max_cents=mid * 120 // 100,
                    created_at=s.ago(days=300),
                )
    chart = org_chart(pop.employees)
    made: list[Placement] = []
    for k, p in enumerate(pop.employees):
        fam = p.department or "General"
        lvl = levels_made[5 if p.key == chart.top.key else 3 if chart.is_head(p) else k % 3]
        boss = chart.manager_of(p)
        band = bands_made[(lvl.id, fam, p.place.country)]
        salary = band.min_cents + (band.max_cents - band.min_cents) * s.rng.randint(10, 80) // 100
        made.append(
            s.create(
                Placement,
                employee_email=p.email,
                employee_name=p.name,
                job_title=p.job_title,
                family=fam,
                level_id=lvl.id,
                country=p.place.country,
                currency=p.place.currency,
                base_salary_cents=salary,
                manager_email=boss.email if boss is not None else None,
                created_at=s.ago(days=200),
            )
        )
    _seed_cycles(s, made, pop.staff("People", "Finance", fallback=2)[0].email)


def _seed_cycles(s: SeedContext, made: list[Placement], lead: str) -> None:
    today = s.now.date()
    payroll = sum(p.base_salary_cents for p in made)
    s.create(
        Cycle,
        name="Merit cycle 2025",
        owner_email=lead,
        budget_percent=3.5,
        effective_date=today.replace(year=today.year - 1, month=4, day=1),
        status="closed",
        budget_cents=round(payroll * 0.035),
        eligible=len(made),
        created_at=s.ago(days=420),
    )
    active = s.create(
        Cycle,
        name=f"Merit cycle {today.year}",
        owner_email=lead,
        budget_percent=4.0,
        effective_date=today.replace(month=4, day=1)
        if today.month < 4
        else today.replace(year=today.year + 1, month=4, day=1),
        status="active",
        budget_cents=round(payroll * 0.04),
        eligible=len(made),
        created_at=s.ago(days=20),
    )
    s.create(
        Cycle,
        name="Off-cycle equity adjustments",
        owner_email=lead,
        budget_percent=1.0,
        effective_date=active.effective_date.replace(month=10),
        created_at=s.ago(days=2),
    )
    statuses: tuple[ProposalStatus, ...] = ("approved", "approved", "submitted", "submitted", "draft", "rejected")
    for k, p in enumerate([p for p in made if p.manager_email][:6]):
        new = p.base_salary_cents * (103 + k % 3) // 100
        s.create(
            Proposal,
            cycle_id=active.id,
            placement_id=p.id,
            employee_email=p.employee_email,
            current_salary_cents=p.base_salary_cents,
            proposed_salary_cents=new,
            increase_cents=new - p.base_salary_cents,
            increase_percent=round(100 * (new - p.base_salary_cents) / p.base_salary_cents, 2),
            rationale="Exceeded expectations this year.",
            proposed_by=p.manager_email or lead,
            approver_email=lead if statuses[k] in ("approved", "rejected") else None,
            status=statuses[k],
            created_at=s.ago(days=10 - k),
        )
