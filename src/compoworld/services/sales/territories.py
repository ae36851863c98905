"""Gridline: sales territory and quota planning, with rule-based account assignment and rebalancing.

Modeled on Fullcast (territory hierarchy with assignment rules on geography,
industry and company size, account-to-territory routing, territory owners,
quota plans by period, carve-outs of named accounts and rebalancing requests):
an account is routed to the most specific active territory whose rules it
meets (a carved-out account stays with its named rep); a retired territory
takes no accounts and must be emptied first; a territory has one quota per
period, drafted and then approved by a sales leader other than its owner;
rebalancing requests move an account between territories only once approved.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Country, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "territories",
    title="Gridline",
    category="territory_management",
    modeled_on="Fullcast: territories with assignment rules, account routing, territory owners, quota plans by "
    "period, carve-outs, rebalancing requests",
    description="Territory and quota planning for the sales team: territories defined by country, industry and "
    "company size with an owning rep, accounts routed to them by rule or carved out to named reps, quotas per "
    "quarter approved by sales leaders, and requests to rebalance accounts between territories.",
)

TerritoryId = Annotated[str, IdOf("territories.territory")]
AssignmentId = Annotated[str, IdOf("territories.assignment")]
QuotaId = Annotated[str, IdOf("territories.quota")]
CarveOutId = Annotated[str, IdOf("territories.carve_out")]
RequestId = Annotated[str, IdOf("territories.rebalance_request")]

Quarter = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-Q[1-4]$")]
"""A fiscal quarter as YYYY-Qn."""
Headcount = Annotated[int, Field(ge=0, le=10_000_000)]
"""A number of employees."""
Segment = Literal["enterprise", "mid_market", "smb"]


class Territory(Timestamped):
    """A sales territory and its assignment rules."""

    id: TerritoryId
    name: Title
    """Its name (unique)."""
    segment: Segment
    """enterprise, mid_market or smb."""
    owner_email: Email
    """The rep who owns it."""
    countries: list[Country] = Field(default_factory=list, max_length=50)
    """Countries it covers (empty: any)."""
    industries: list[Annotated[str, StringConstraints(min_length=1, max_length=40)]] = Field(
        default_factory=list, max_length=20
    )
    """Industries it covers (empty: any)."""
    min_employees: Headcount = 0
    """Smallest company size."""
    max_employees: Headcount = 10_000_000
    """Largest company size."""
    status: Literal["active", "retired"] = "active"
    """active or retired."""


class Assignment(Timestamped):
    """An account assigned to a territory and rep."""

    id: AssignmentId
    account_name: CompanyName
    """The account."""
    territory_id: TerritoryId
    """Its territory."""
    rep_email: Email
    """The rep who covers it."""
    source: Literal["rule", "carve_out", "rebalance"] = "rule"
    """How it got here."""


class Quota(Timestamped):
    """A territory's quota for one quarter."""

    id: QuotaId
    territory_id: TerritoryId
    """The territory."""
    period: Quarter
    """The quarter."""
    amount: Cents
    """Bookings target in cents."""
    status: Literal["draft", "approved"] = "draft"
    """draft or approved."""
    approved_by: Email | None = None
    """The sales leader who approved it."""


class CarveOut(Timestamped):
    """A named account taken out of rule routing and given to a rep."""

    id: CarveOutId
    account_name: CompanyName
    """The account."""
    rep_email: Email
    """The rep it is carved out to."""
    reason: Text
    """Why (strategic account, existing relationship)."""
    status: Literal["active", "ended"] = "active"
    """active or ended."""


class RebalanceRequest(Timestamped):
    """A request to move an account to another territory."""

    id: RequestId
    account_name: CompanyName
    """The account."""
    from_territory_id: TerritoryId
    """Where it is."""
    to_territory_id: TerritoryId
    """Where it should go."""
    requested_by: Email
    """The employee asking."""
    reason: Text
    """Why."""
    status: Literal["pending", "approved", "rejected"] = "pending"
    """pending, approved or rejected."""
    decided_by: Email | None = None
    """Who decided."""


class TerritorySummary(Value):
    """A territory's load."""

    territory_id: TerritoryId
    """The territory."""
    accounts: int
    """Accounts assigned."""
    total_employees: int
    """Employees of its accounts (a proxy for potential)."""
    quotas: dict[str, int]
    """Quota per quarter in cents."""


# -- rules ------------------------------------------------------------------------------------


def _company(ctx: Ctx, name: str, field: str) -> Company:
    for company in ctx.population.customers:
        if company.name == name:
            return company
    raise RuleViolation(f"{name} is not a known account", field=field, hint="use the account's company name")


def fits(territory: Territory, company: Company) -> bool:
    """Whether a company meets a territory's rules."""
    return (
        (not territory.countries or company.place.country in territory.countries)
        and (not territory.industries or company.industry in territory.industries)
        and territory.min_employees <= company.employees <= territory.max_employees
    )


def _specificity(territory: Territory) -> tuple[int, int, str]:
    return (
        -(bool(territory.countries) + bool(territory.industries)),
        territory.max_employees - territory.min_employees,
        territory.id,
    )


def route(ctx: Ctx, company: Company) -> Territory | None:
    """The most specific active territory whose rules the company meets."""
    found = [t for t in ctx.where(Territory, status="active") if fits(t, company)]
    return min(found, key=_specificity) if found else None


def _guard_territory(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="territories are owned by reps")
    if new.min_employees > new.max_employees:
        raise RuleViolation("min_employees is above max_employees", field="min_employees", hint="swap them")
    retiring = old is not None and new.status == "retired" and old.status != "retired"
    if retiring and ctx.first(Assignment, territory_id=old.id):
        raise RuleViolation(
            "the territory still has accounts",
            field="territory_id",
            hint="rebalance its accounts elsewhere before retiring it",
        )
    if old is not None and new.owner_email != old.owner_email:
        for a in ctx.where(Assignment, territory_id=old.id, source="rule"):
            ctx.update(a, rep_email=new.owner_email)


territories = service.resource(
    Territory,
    name="territory",
    plural="territories",
    prefix="ter",
    create=("name", "segment", "owner_email", "countries", "industries", "min_employees", "max_employees"),
    filters=("segment", "owner_email", "status", "name"),
    search=("name",),
    update=("name", "owner_email", "countries", "industries", "min_employees", "max_employees"),
    delete=False,
    unique=("name",),
    transitions={"retire": Transition("status", ("active",), "retired", "retire the territory")},
    guard_create=_guard_territory,
    guard_update=_guard_territory,
)
assignments = service.resource(
    Assignment,
    name="assignment",
    plural="assignments",
    prefix="asg",
    create=False,
    filters=("territory_id", "rep_email", "account_name", "source"),
    delete=False,
    title="account assignment",
)
quotas = service.resource(
    Quota,
    name="quota",
    plural="quotas",
    prefix="quo",
    create=False,
    filters=("territory_id", "period", "status"),
    delete=False,
)
carve_outs = service.resource(
    CarveOut,
    name="carve_out",
    plural="carve_outs",
    prefix="cvo",
    create=False,
    filters=("account_name", "rep_email", "status"),
    delete=False,
    title="carve-out",
)
requests = service.resource(
    RebalanceRequest,
    name="rebalance_request",
    plural="rebalance_requests",
    prefix="rbr",
    create=False,
    filters=("status", "account_name", "requested_by", "from_territory_id", "to_territory_id"),
    delete=False,
    title="rebalancing request",
)


# -- domain tools -----------------------------------------------------------------------------


def _assign(ctx: Ctx, account: str, territory: Territory, rep: str, source: str) -> Assignment:
    current = ctx.first(Assignment, account_name=account)
    if current is None:
        return ctx.create(Assignment, account_name=account, territory_id=territory.id, rep_email=rep, source=source)
    return ctx.update(current, territory_id=territory.id, rep_email=rep, source=source)


@service.tool(
    intent="route the account to its territory",
    write=True,
    example=lambda ctx: next(
        (
            {"account_name": c.name}
            for c in ctx.population.customers
            if not ctx.first(CarveOut, account_name=c.name, status="active")
        ),
        None,
    ),
)
def route_account(ctx: Ctx, account_name: CompanyName) -> Assignment:
    """Assign an account to the most specific active territory whose rules it meets, and to that territory's owner.

    Args:
        account_name: The account's company name.
    """
    company = _company(ctx, account_name, "account_name")
    if ctx.first(CarveOut, account_name=account_name, status="active"):
        raise RuleViolation(f"{account_name} is carved out", field="account_name", hint="end the carve-out first")
    territory = route(ctx, company)
    if territory is None:
        raise RuleViolation(
            f"no active territory covers {account_name}", field="account_name", hint="create or widen a territory"
        )
    return _assign(ctx, account_name, territory, territory.owner_email, "rule")


def _example_quota(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(Territory, status="active")
    year = ctx.today().year + 1
    return None if t is None else {"territory_id": t.id, "period": f"{year}-Q1", "amount": 150_000_000}


@service.tool(intent="set the territory's quota for the quarter", write=True, example=_example_quota)
def set_quota(ctx: Ctx, territory_id: TerritoryId, period: Quarter, amount: Cents) -> Quota:
    """Draft or change an active territory's quota for a quarter; an approved quota is not changed.

    Args:
        territory_id: The territory.
        period: The quarter, YYYY-Qn.
        amount: Bookings target in cents.
    """
    territory = ctx.get(Territory, territory_id, field="territory_id")
    if territory.status != "active":
        raise RuleViolation("the territory is retired", field="territory_id", hint="plan active territories")
    if amount <= 0:
        raise RuleViolation("a quota must be positive", field="amount", hint="give a target in cents")
    current = ctx.first(Quota, territory_id=territory.id, period=period)
    if current is None:
        return ctx.create(Quota, territory_id=territory.id, period=period, amount=amount)
    if current.status == "approved":
        raise Conflict(f"the {period} quota is approved", field="period", hint="approved quotas are locked")
    return ctx.update(current, amount=amount)


@service.tool(
    intent="approve the quota",
    write=True,
    example=lambda ctx: next(
        (
            {
                "quota_id": q.id,
                "approved_by": next(
                    p.email
                    for p in ctx.population.employees
                    if p.email != ctx.get(Territory, q.territory_id).owner_email
                ),
            }
            for q in ctx.where(Quota, status="draft")
        ),
        None,
    ),
)
def approve_quota(ctx: Ctx, quota_id: QuotaId, approved_by: Email) -> Quota:
    """A sales leader other than the territory's owner approves a draft quota.

    Args:
        quota_id: The quota.
        approved_by: The approver's e-mail.
    """
    quota = ctx.get(Quota, quota_id, field="quota_id")
    if quota.status == "approved":
        raise Conflict("the quota is already approved", field="quota_id", hint="nothing to do")
    require_employee(ctx, approved_by, field="approved_by", hint="quotas are approved by sales leaders")
    if approved_by == ctx.get(Territory, quota.territory_id).owner_email:
        raise RuleViolation("owners cannot approve their own quota", field="approved_by", hint="ask their manager")
    return ctx.update(quota, status="approved", approved_by=approved_by)


@service.tool(
    intent="carve the account out to a rep",
    write=True,
    example=lambda ctx: next(
        (
            {
                "account_name": c.name,
                "rep_email": ctx.population.employees[0].email,
                "reason": "Executive relationship.",
            }
            for c in ctx.population.customers
            if not ctx.first(CarveOut, account_name=c.name, status="active")
        ),
        None,
    ),
)
def carve_out(ctx: Ctx, account_name: CompanyName, rep_email: Email, reason: Text) -> CarveOut:
    """Take a named account out of rule routing and give it to a rep, staying in its territory.

    Args:
        account_name: The account.
        rep_email: The rep who will cover it.
        reason: Why.
    """
    _company(ctx, account_name, "account_name")
    require_employee(ctx, rep_email, field="rep_email", hint="accounts are covered by reps")
    if ctx.first(CarveOut, account_name=account_name, status="active"):
        raise Conflict(f"{account_name} is already carved out", field="account_name", hint="end that one first")
    if not reason.strip():
        raise RuleViolation("a carve-out needs a reason", field="reason", hint="say why")
    current = ctx.first(Assignment, account_name=account_name)
    if current is not None:
        ctx.update(current, rep_email=rep_email, source="carve_out")
    return ctx.create(CarveOut, account_name=account_name, rep_email=rep_email, reason=reason.strip())


@service.tool(
    intent="end the carve-out",
    write=True,
    example=first_example(CarveOut, "carve_out_id", where={"status": "active"}),
)
def end_carve_out(ctx: Ctx, carve_out_id: CarveOutId) -> CarveOut:
    """End a carve-out: the account goes back to its territory's owner.

    Args:
        carve_out_id: The carve-out.
    """
    found = ctx.get(CarveOut, carve_out_id, field="carve_out_id")
    if found.status != "active":
        raise Conflict("the carve-out already ended", field="carve_out_id", hint="nothing to do")
    current = ctx.first(Assignment, account_name=found.account_name)
    if current is not None:
        ctx.update(current, rep_email=ctx.get(Territory, current.territory_id).owner_email, source="rule")
    return ctx.update(found, status="ended")


def _example_rebalance(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Assignment)
    other = next((t for t in ctx.where(Territory, status="active") if a and t.id != a.territory_id), None)
    if a is None or other is None:
        return None
    return {
        "account_name": a.account_name,
        "to_territory_id": other.id,
        "reason": "Moved headquarters.",
        "requested_by": ctx.population.employees[0].email,
    }


@service.tool(intent="request moving the account to another territory", write=True, example=_example_rebalance)
def request_rebalance(
    ctx: Ctx, account_name: CompanyName, to_territory_id: TerritoryId, reason: Text, requested_by: Email
) -> RebalanceRequest:
    """Ask to move an assigned account to another active territory.

    Args:
        account_name: The account.
        to_territory_id: Where it should go.
        reason: Why.
        requested_by: The employee asking.
    """
    current = ctx.first(Assignment, account_name=account_name)
    if current is None:
        raise RuleViolation(f"{account_name} is not assigned", field="account_name", hint="route it first")
    target = ctx.get(Territory, to_territory_id, field="to_territory_id")
    if target.status != "active" or target.id == current.territory_id:
        raise RuleViolation("pick another, active territory", field="to_territory_id", hint="list territories")
    require_employee(ctx, requested_by, field="requested_by", hint="requests come from staff")
    if ctx.first(RebalanceRequest, account_name=account_name, status="pending"):
        raise Conflict(f"a request for {account_name} is pending", field="account_name", hint="decide it first")
    return ctx.create(
        RebalanceRequest,
        account_name=account_name,
        from_territory_id=current.territory_id,
        to_territory_id=target.id,
        requested_by=requested_by,
        reason=reason,
    )


@service.tool(
    intent="decide the rebalancing request",
    write=True,
    example=lambda ctx: next(
        (
            {
                "rebalance_request_id": r.id,
                "approve": True,
                "decided_by": next(p.email for p in ctx.population.employees if p.email != r.requested_by),
            }
            for r in ctx.where(RebalanceRequest, status="pending")
        ),
        None,
    ),
)
def decide_rebalance(ctx: Ctx, rebalance_request_id: RequestId, approve: bool, decided_by: Email) -> RebalanceRequest:
    """Approve (the account moves to the new territory's owner) or reject a pending request; not one's own.

    Args:
        rebalance_request_id: The request.
        approve: True to approve.
        decided_by: The sales leader deciding.
    """
    req = ctx.get(RebalanceRequest, rebalance_request_id, field="rebalance_request_id")
    if req.status != "pending":
        raise Conflict(f"the request is {req.status}", field="rebalance_request_id", hint="already decided")
    require_employee(ctx, decided_by, field="decided_by", hint="sales leaders decide")
    if decided_by == req.requested_by:
        raise RuleViolation("requesters cannot decide their own request", field="decided_by", hint="ask a leader")
    if approve:
        target = ctx.get(Territory, req.to_territory_id)
        if target.status != "active":
            raise RuleViolation("the target territory is retired", field="rebalance_request_id", hint="reject it")
        carved = ctx.first(CarveOut, account_name=req.account_name, status="active")
        _assign(ctx, req.account_name, target, carved.rep_email if carved else target.owner_email, "rebalance")
    return ctx.update(req, status="approved" if approve else "rejected", decided_by=decided_by)


@service.tool(intent="summarise the territory", example=first_example(Territory, "territory_id"))
def territory_summary(ctx: Ctx, territory_id: TerritoryId) -> TerritorySummary:
    """A territory's accounts, their combined size and its quotas by quarter.

    Args:
        territory_id: The territory.
    """
    territory = ctx.get(Territory, territory_id, field="territory_id")
    held = ctx.where(Assignment, territory_id=territory.id)
    sizes = {c.name: c.employees for c in ctx.population.customers}
    return TerritorySummary(
        territory_id=territory.id,
        accounts=len(held),
        total_employees=sum(sizes.get(a.account_name, 0) for a in held),
        quotas={
            q.period: q.amount for q in sorted(ctx.where(Quota, territory_id=territory.id), key=lambda q: q.period)
        },
    )


# -- seed -------------------------------------------------------------------------------------


def quarter_of(day: dt.date) -> str:
    """The YYYY-Qn quarter of a day."""
    return f"{day.year}-Q{(day.month - 1) // 3 + 1}"


@service.seeder
def seed(s: SeedContext) -> None:
    """Territories by region and segment, every customer routed, quotas, a carve-out and rebalancing requests."""
    pop = s.population
    reps = pop.staff("Sales", fallback=4)
    plan: tuple[tuple[str, Segment, list[str], int, int], ...] = (
        ("North America Enterprise", "enterprise", ["US", "CA"], 1000, 10_000_000),
        ("EMEA Enterprise", "enterprise", ["GB", "DE", "FR", "NL", "ES", "IT", "SE"], 1000, 10_000_000),
        ("APAC Enterprise", "enterprise", ["JP", "AU"], 1000, 10_000_000),
        ("Global Mid-Market", "mid_market", [], 200, 999),
        ("Global SMB", "smb", [], 0, 199),
        ("Legacy Channel", "smb", ["US"], 0, 50),
    )
    made = [
        s.create(
            Territory,
            name=name,
            segment=seg,
            owner_email=reps[k % len(reps)].email,
            countries=countries,
            min_employees=lo,
            max_employees=hi,
            created_at=s.ago(days=400),
            updated_at=s.ago(days=40),
        )
        for k, (name, seg, countries, lo, hi) in enumerate(plan)
    ]
    made[-1] = s.update(made[-1], status="retired")
    live = [t for t in made if t.status == "active"]
    for company in pop.customers:
        territory = min((t for t in live if fits(t, company)), key=_specificity, default=None)
        if territory is not None:
            s.create(
                Assignment,
                account_name=company.name,
                territory_id=territory.id,
                rep_email=territory.owner_email,
                created_at=s.ago(days=300),
                updated_at=s.ago(days=300),
            )
    today = s.now.date()
    this, nxt = quarter_of(today), quarter_of(today + dt.timedelta(days=92))
    leader = next(p.email for p in pop.employees if p.email not in {t.owner_email for t in made})
    for k, t in enumerate(live):
        s.create(
            Quota,
            territory_id=t.id,
            period=this,
            amount=(400, 350, 200, 150, 80)[k] * 1_000_000,
            status="approved",
            approved_by=leader,
            created_at=s.ago(days=80),
            updated_at=s.ago(days=70),
        )
        if k < 3:
            s.create(
                Quota,
                territory_id=t.id,
                period=nxt,
                amount=(450, 380, 220)[k] * 1_000_000,
                created_at=s.ago(days=5),
                updated_at=s.ago(days=5),
            )
    assigned = s.records(Assignment)
    strategic = assigned[0]
    s.create(
        CarveOut,
        account_name=strategic.account_name,
        rep_email=leader,
        reason="Executive sponsor relationship.",
        created_at=s.ago(days=60),
        updated_at=s.ago(days=60),
    )
    s.update(strategic, rep_email=leader, source="carve_out")
    for k, a in enumerate(assigned[1:3]):
        target = next(t for t in live if t.id != a.territory_id)
        s.create(
            RebalanceRequest,
            account_name=a.account_name,
            from_territory_id=a.territory_id,
            to_territory_id=target.id,
            requested_by=reps[0].email,
            reason="Buying center moved to a new region.",
            status="pending" if k == 0 else "rejected",
            decided_by=None if k == 0 else leader,
            created_at=s.ago(days=6 - k),
            updated_at=s.ago(days=2),
        )
