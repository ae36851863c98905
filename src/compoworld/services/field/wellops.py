"""Pumpjack Field Ops: oil and gas leases, wells, daily production, downtime, workovers and run tickets.

Modeled on Greasebook (pumper app: daily gauges and production per well, tank
levels, run tickets to purchasers, downtime reasons) and Peloton WellView
(well header with API number, lift type and status; workover jobs with cost
estimates and approvals): leases hold wells and a tank battery and have a
pumper; a well (unique 14-digit API number) goes drilling → producing ↔
shut_in → plugged; a daily report per well and day (never in the future) for a
producing well records oil, gas, water and hours on, and adds its oil to the
lease's tanks. Downtime shuts a well in (one open at a time) and ending it
puts the well back on production. A workover goes planned → approved →
in_progress → completed (or cancelled), is approved by someone other than its
requester, starts on a producing or shut-in well with downtime reason
workover and records its actual cost when complete. A run ticket sells oil
from a lease's tanks to a purchaser: never more than the tanks hold, rejected
above 1% basic sediment and water, paid on net barrels at the posted price.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, CompanyName, Date, Email, IdOf, SemanticType, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "wellops",
    title="Pumpjack Field Ops",
    category="oil_gas_operations",
    modeled_on="Greasebook pumper app (daily production, tank gauges, downtime, run tickets) and Peloton "
    "WellView (well header, API number, status, workover jobs and costs)",
    description="Operations of the company's oil and gas leases: wells with their API numbers and status, "
    "daily production reports from the pumpers, downtime and its reasons, workover jobs with cost approvals, "
    "and run tickets selling tank oil to purchasers.",
)

LeaseId = Annotated[str, IdOf("wellops.lease")]
WellId = Annotated[str, IdOf("wellops.well")]
ReportId = Annotated[str, IdOf("wellops.production_report")]
DowntimeId = Annotated[str, IdOf("wellops.downtime")]
WorkoverId = Annotated[str, IdOf("wellops.workover")]
TicketId = Annotated[str, IdOf("wellops.run_ticket")]

ApiNumber = Annotated[
    str, SemanticType("well.api_number", kind="ref"), StringConstraints(pattern=r"^\d{2}-\d{3}-\d{5}-\d{2}-\d{2}$")
]
"""A well's API number, e.g. 42-329-40123-00-00."""
Barrels = Annotated[float, Field(ge=0, le=100000)]
WellStatus = Literal["drilling", "producing", "shut_in", "plugged"]
Lift = Literal["flowing", "rod_pump", "esp", "gas_lift", "plunger"]
DownReason = Literal["mechanical", "electrical", "weather", "workover", "pipeline_curtailment", "power_outage"]
JobType = Literal["rod_repair", "pump_change", "tubing_leak", "acidize", "esp_replacement"]
WorkoverStatus = Literal["planned", "approved", "in_progress", "completed", "cancelled"]

MAX_BSW = 1.0


class Lease(Timestamped):
    """A lease with its tank battery."""

    id: LeaseId
    lease_number: Annotated[str, Generated("sequence", "L-{n:04d}")]
    """The lease number."""
    name: Title
    """The lease's name."""
    county_city: City
    """The nearest town."""
    pumper_email: Email
    """The pumper who gauges it."""
    royalty_pct: Annotated[float, Field(ge=0, le=50)] = 18.75
    """Royalty owed on production."""
    tank_bbl: Barrels = 0
    """Oil in the tank battery."""


class Well(Timestamped):
    """A well on a lease."""

    id: WellId
    lease_id: LeaseId
    """The lease."""
    name: Title
    """The well's name, e.g. Smith 1H."""
    api_number: ApiNumber
    """Its API number (unique)."""
    lift: Lift = "rod_pump"
    """flowing, rod_pump, esp, gas_lift or plunger."""
    status: WellStatus = "drilling"
    """drilling, producing, shut_in or plugged."""
    first_production: Date | None = None
    """When it first produced."""


class ProductionReport(Timestamped):
    """One day's production of a well."""

    id: ReportId
    well_id: WellId
    """The well."""
    lease_id: LeaseId
    """Its lease."""
    report_date: Date
    """The production day."""
    oil_bbl: Barrels = 0
    """Oil produced."""
    gas_mcf: Annotated[float, Field(ge=0, le=1000000)] = 0
    """Gas produced, thousand cubic feet."""
    water_bbl: Barrels = 0
    """Water produced."""
    hours_on: Annotated[float, Field(ge=0, le=24)] = 24
    """Hours the well ran."""
    pumper_email: Email
    """Who reported it."""
    comments: Text = ""
    """The pumper's notes."""


class Downtime(Timestamped):
    """A period a well is shut in."""

    id: DowntimeId
    well_id: WellId
    """The well."""
    status: Literal["open", "closed"] = "open"
    """open or closed."""
    reason: DownReason
    """mechanical, electrical, weather, workover, pipeline_curtailment or power_outage."""
    notes: Text = ""
    """What happened."""
    start_date: Date
    """When it went down."""
    end_date: Date | None = None
    """When it came back."""


class Workover(Timestamped):
    """A workover job on a well."""

    id: WorkoverId
    well_id: WellId
    """The well."""
    job_type: JobType
    """rod_repair, pump_change, tubing_leak, acidize or esp_replacement."""
    rig_company: CompanyName
    """The workover rig contractor."""
    estimated_cost_cents: Cents
    """The AFE estimate."""
    actual_cost_cents: Cents | None = None
    """What it cost."""
    requested_by: Email
    """The engineer who planned it."""
    approved_by: Email | None = None
    """Who approved it (not the requester)."""
    status: WorkoverStatus = "planned"
    """planned, approved, in_progress, completed or cancelled."""


class RunTicket(Timestamped):
    """Oil sold from a lease's tanks to a purchaser."""

    id: TicketId
    ticket_number: Annotated[str, Generated("sequence", "RT-{n:06d}")]
    """The run ticket number."""
    lease_id: LeaseId
    """The lease."""
    purchaser: CompanyName
    """The crude purchaser."""
    run_date: Date
    """When the truck took it."""
    gross_bbl: Barrels
    """Gross barrels hauled."""
    bsw_pct: Annotated[float, Field(ge=0, le=100)]
    """Basic sediment and water, percent."""
    api_gravity: Annotated[float, Field(ge=10, le=70)] = 40
    """The oil's API gravity."""
    net_bbl: Barrels = 0
    """Net barrels after BS&W."""
    price_cents: Cents
    """Posted price per barrel."""
    amount_cents: Cents = 0
    """What the purchaser pays (0 when rejected)."""
    status: Literal["accepted", "rejected"] = "accepted"
    """accepted, or rejected for BS&W."""


class LeaseTotals(Value):
    """A lease's production over a date range."""

    lease_id: LeaseId
    """The lease."""
    days: int
    """Days covered."""
    oil_bbl: float
    """Oil produced."""
    gas_mcf: float
    """Gas produced."""
    water_bbl: float
    """Water produced."""
    sold_net_bbl: float
    """Net barrels sold on accepted run tickets."""
    royalty_bbl: float
    """The royalty share of oil produced."""


# -- rules ------------------------------------------------------------------------------------


def _guard_lease(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.pumper_email, field="pumper_email", hint="leases are gauged by staff")


def _guard_well(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "plugged":
        raise RuleViolation("the well is plugged", field="well_id", hint="plugged wells do not change")
    if new.status == "plugged":
        busy = [w.id for w in ctx.where(Workover, well_id=new.id) if w.status in ("approved", "in_progress")]
        if busy:
            raise RuleViolation(f"workover {busy[0]} is pending", field="well_id", hint="complete or cancel it")


leases = service.resource(
    Lease,
    name="lease",
    plural="leases",
    prefix="lse",
    create=False,
    filters=("lease_number", "pumper_email", "county_city"),
    search=("name",),
    update=("name", "pumper_email", "royalty_pct"),
    delete=False,
    guard_update=_guard_lease,
)
wells = service.resource(
    Well,
    name="well",
    plural="wells",
    prefix="well",
    create=False,
    filters=("lease_id", "api_number", "status", "lift"),
    search=("name",),
    update=("name", "lift"),
    delete=False,
    transitions={
        "complete": Transition("status", ("drilling",), "producing", "put the well on production"),
        "plug": Transition("status", ("shut_in",), "plugged", "plug and abandon the well", destructive=True),
    },
    guard_update=_guard_well,
)
reports = service.resource(
    ProductionReport,
    name="production_report",
    plural="production_reports",
    prefix="prod",
    create=False,
    filters=("well_id", "lease_id", "report_date", "pumper_email"),
    delete=False,
    title="daily production report",
)
downtimes = service.resource(
    Downtime,
    name="downtime",
    plural="downtimes",
    prefix="down",
    create=False,
    get=False,
    filters=("well_id", "reason", "status"),
    delete=False,
)
workovers = service.resource(
    Workover,
    name="workover",
    plural="workovers",
    prefix="wo",
    create=False,
    filters=("well_id", "job_type", "status", "rig_company", "requested_by"),
    delete=False,
    transitions={"cancel": Transition("status", ("planned", "approved"), "cancelled", "cancel the workover")},
)
tickets = service.resource(
    RunTicket,
    name="run_ticket",
    plural="run_tickets",
    prefix="run",
    create=False,
    filters=("lease_id", "purchaser", "status", "ticket_number", "run_date"),
    delete=False,
    title="run ticket",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_well(ctx: Ctx) -> dict[str, Any] | None:
    lease = ctx.first(Lease)
    return None if lease is None else {"lease_id": lease.id, "name": "Nelson 4H", "api_number": "42-329-49999-00-00"}


@service.tool(intent="register the well", write=True, example=_example_well)
def register_well(ctx: Ctx, lease_id: LeaseId, name: Title, api_number: ApiNumber, lift: Lift = "flowing") -> Well:
    """Register a newly spudded well on a lease; API numbers are unique.

    Args:
        lease_id: The lease.
        name: The well's name.
        api_number: Its API number, e.g. 42-329-40123-00-00.
        lift: flowing, rod_pump, esp, gas_lift or plunger.
    """
    ctx.get(Lease, lease_id, field="lease_id")
    other = ctx.first(Well, api_number=api_number)
    if other is not None:
        raise Conflict(f"API {api_number} is well {other.name!r}", field="api_number", hint="check the API number")
    return ctx.create(Well, lease_id=lease_id, name=name, api_number=api_number, lift=lift)


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    well = ctx.first(Well, status="producing")
    if well is None:
        return None
    lease = ctx.get(Lease, well.lease_id)
    return {
        "well_id": well.id,
        "report_date": ctx.today().isoformat(),
        "oil_bbl": 31.5,
        "gas_mcf": 60.0,
        "water_bbl": 12.0,
        "pumper_email": lease.pumper_email,
    }


@service.tool(intent="record the daily production", write=True, example=_example_report)
def record_production(
    ctx: Ctx,
    well_id: WellId,
    report_date: Date,
    oil_bbl: Barrels,
    gas_mcf: Annotated[float, Field(ge=0, le=1000000)],
    water_bbl: Barrels,
    pumper_email: Email,
    hours_on: Annotated[float, Field(ge=0, le=24)] = 24,
    comments: Text = "",
) -> ProductionReport:
    """Record a producing well's day (one report per well and day, not in the future); oil goes to the tanks.

    Args:
        well_id: The well.
        report_date: The production day.
        oil_bbl: Oil produced, barrels.
        gas_mcf: Gas produced, mcf.
        water_bbl: Water produced, barrels.
        pumper_email: The pumper reporting.
        hours_on: Hours the well ran (0-24).
        comments: Notes.
    """
    well = ctx.get(Well, well_id, field="well_id")
    if well.status != "producing":
        raise RuleViolation(f"{well.name} is {well.status}", field="well_id", hint="only producing wells report")
    if report_date > ctx.today():
        raise RuleViolation("the day has not happened", field="report_date", hint="report today or earlier")
    require_employee(ctx, pumper_email, field="pumper_email", hint="pumpers are staff")
    if ctx.first(ProductionReport, well_id=well.id, report_date=report_date) is not None:
        raise Conflict(f"{well.name} already reported {report_date}", field="report_date", hint="one report a day")
    lease = ctx.get(Lease, well.lease_id)
    ctx.update(lease, tank_bbl=round(lease.tank_bbl + oil_bbl, 2))
    if well.first_production is None:
        ctx.update(well, first_production=report_date)
    return ctx.create(
        ProductionReport,
        well_id=well.id,
        lease_id=lease.id,
        report_date=report_date,
        oil_bbl=oil_bbl,
        gas_mcf=gas_mcf,
        water_bbl=water_bbl,
        hours_on=hours_on,
        pumper_email=pumper_email,
        comments=comments,
    )


def _shut_in(ctx: Ctx, well: Well, reason: DownReason, notes: str) -> Downtime:
    if well.status != "producing":
        raise RuleViolation(f"{well.name} is {well.status}", field="well_id", hint="only producing wells go down")
    ctx.update(well, status="shut_in")
    return ctx.create(Downtime, well_id=well.id, reason=reason, start_date=ctx.today(), notes=notes)


def _back_on(ctx: Ctx, well: Well) -> Downtime | None:
    down = ctx.first(Downtime, well_id=well.id, status="open")
    if down is not None:
        down = ctx.update(down, status="closed", end_date=ctx.today())
    ctx.update(well, status="producing")
    return down


@service.tool(
    intent="report the well down",
    write=True,
    example=first_example(Well, "well_id", where={"status": "producing"}, reason="mechanical"),
)
def start_downtime(ctx: Ctx, well_id: WellId, reason: DownReason, notes: Text = "") -> Downtime:
    """Shut in a producing well for a reason; it stays down until the downtime ends.

    Args:
        well_id: The well.
        reason: mechanical, electrical, weather, workover, pipeline_curtailment or power_outage.
        notes: What happened.
    """
    return _shut_in(ctx, ctx.get(Well, well_id, field="well_id"), reason, notes)


@service.tool(
    intent="end the well's downtime",
    write=True,
    example=first_example(Downtime, None, where={"status": "open"}, fields={"well_id": "well_id"}),
)
def end_downtime(ctx: Ctx, well_id: WellId) -> Downtime:
    """End a shut-in well's open downtime (not one held by a workover in progress); it produces again.

    Args:
        well_id: The well.
    """
    well = ctx.get(Well, well_id, field="well_id")
    down = ctx.first(Downtime, well_id=well.id, status="open")
    if down is None:
        raise RuleViolation(f"{well.name} has no open downtime", field="well_id", hint="it is not down")
    if ctx.first(Workover, well_id=well.id, status="in_progress") is not None:
        raise RuleViolation("a workover is in progress", field="well_id", hint="complete the workover instead")
    closed = _back_on(ctx, well)
    assert closed is not None
    return closed


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    well = ctx.first(Well, status="producing")
    companies = [c for c in ctx.population.companies if not c.home]
    if well is None:
        return None
    return {
        "well_id": well.id,
        "job_type": "rod_repair",
        "rig_company": companies[0].name,
        "estimated_cost_cents": 1850000,
        "requested_by": ctx.population.employees[0].email,
    }


@service.tool(intent="plan a workover", write=True, example=_example_plan)
def plan_workover(
    ctx: Ctx,
    well_id: WellId,
    job_type: JobType,
    rig_company: CompanyName,
    estimated_cost_cents: Cents,
    requested_by: Email,
) -> Workover:
    """Plan a workover on a producing or shut-in well, with its cost estimate (one open job per well).

    Args:
        well_id: The well.
        job_type: rod_repair, pump_change, tubing_leak, acidize or esp_replacement.
        rig_company: The rig contractor.
        estimated_cost_cents: The AFE estimate.
        requested_by: The engineer planning it.
    """
    well = ctx.get(Well, well_id, field="well_id")
    if well.status not in ("producing", "shut_in"):
        raise RuleViolation(f"{well.name} is {well.status}", field="well_id", hint="pick a producing well")
    require_employee(ctx, requested_by, field="requested_by", hint="workovers are planned by engineers")
    for job in ctx.where(Workover, well_id=well.id):
        if job.status in ("planned", "approved", "in_progress"):
            raise Conflict(f"{well.name} has workover {job.id}", field="well_id", hint="finish or cancel it")
    if estimated_cost_cents <= 0:
        raise RuleViolation("an estimate is required", field="estimated_cost_cents", hint="give the AFE amount")
    return ctx.create(
        Workover,
        well_id=well.id,
        job_type=job_type,
        rig_company=rig_company,
        estimated_cost_cents=estimated_cost_cents,
        requested_by=requested_by,
    )


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    job = ctx.first(Workover, status="planned")
    managers = [p.email for p in ctx.population.staff("Finance", fallback=2)]
    if job is None:
        return None
    return {"workover_id": job.id, "approver_email": next(m for m in managers if m != job.requested_by)}


@service.tool(intent="approve the workover", write=True, example=_example_approve)
def approve_workover(ctx: Ctx, workover_id: WorkoverId, approver_email: Email) -> Workover:
    """Approve a planned workover's AFE; the approver is a member of staff and not its requester.

    Args:
        workover_id: The workover.
        approver_email: The approving manager.
    """
    require_employee(ctx, approver_email, field="approver_email", hint="approvers are staff")
    job = ctx.get(Workover, workover_id, field="workover_id")
    if approver_email == job.requested_by:
        raise RuleViolation("requesters cannot approve their own AFE", field="approver_email", hint="ask a manager")
    if job.status == "planned":
        return ctx.update(job, status="approved", approved_by=approver_email)
    raise RuleViolation(f"workover is {job.status}", field="workover_id", hint="only planned jobs are approved")


@service.tool(
    intent="start the workover",
    write=True,
    example=first_example(Workover, "workover_id", where={"status": "approved"}),
)
def start_workover(ctx: Ctx, workover_id: WorkoverId) -> Workover:
    """Move the rig in on an approved workover: the well is shut in for the workover.

    Args:
        workover_id: The workover.
    """
    job = ctx.get(Workover, workover_id, field="workover_id")
    if job.status != "approved":
        raise RuleViolation(f"workover is {job.status}", field="workover_id", hint="approve it first")
    well = ctx.get(Well, job.well_id)
    if well.status == "producing":
        _shut_in(ctx, well, "workover", f"workover {job.id}")
    return ctx.update(job, status="in_progress")


@service.tool(
    intent="complete the workover",
    write=True,
    example=first_example(Workover, "workover_id", where={"status": "in_progress"}, actual_cost_cents=2100000),
)
def complete_workover(ctx: Ctx, workover_id: WorkoverId, actual_cost_cents: Cents) -> Workover:
    """Complete a workover in progress with its actual cost; the well returns to production.

    Args:
        workover_id: The workover.
        actual_cost_cents: What it cost.
    """
    job = ctx.get(Workover, workover_id, field="workover_id")
    if job.status != "in_progress":
        raise RuleViolation(f"workover is {job.status}", field="workover_id", hint="start it first")
    _back_on(ctx, ctx.get(Well, job.well_id))
    return ctx.update(job, status="completed", actual_cost_cents=actual_cost_cents)


def _example_ticket(ctx: Ctx) -> dict[str, Any] | None:
    lease = next((x for x in ctx.scan(Lease) if x.tank_bbl >= 50), None)
    buyer = next(c for c in ctx.population.companies if not c.home)
    return (
        None
        if lease is None
        else {"lease_id": lease.id, "purchaser": buyer.name, "gross_bbl": 50, "bsw_pct": 0.4, "price_cents": 7425}
    )


@service.tool(intent="record the run ticket", write=True, example=_example_ticket)
def record_run_ticket(
    ctx: Ctx,
    lease_id: LeaseId,
    purchaser: CompanyName,
    gross_bbl: Barrels,
    bsw_pct: Annotated[float, Field(ge=0, le=100)],
    price_cents: Cents,
    api_gravity: Annotated[float, Field(ge=10, le=70)] = 40,
) -> RunTicket:
    """Record a haul from a lease's tanks: over 1% BS&W it is rejected and the oil stays; else it is paid on net.

    Args:
        lease_id: The lease.
        purchaser: The crude purchaser.
        gross_bbl: Gross barrels (at most what the tanks hold).
        bsw_pct: Basic sediment and water, percent.
        price_cents: Posted price per barrel.
        api_gravity: The oil's API gravity.
    """
    lease = ctx.get(Lease, lease_id, field="lease_id")
    if gross_bbl <= 0 or gross_bbl > lease.tank_bbl:
        raise RuleViolation(
            f"the tanks hold {lease.tank_bbl} bbl", field="gross_bbl", hint=f"haul 1 to {lease.tank_bbl} bbl"
        )
    rejected = bsw_pct > MAX_BSW
    net = 0.0 if rejected else round(gross_bbl * (1 - bsw_pct / 100), 2)
    if not rejected:
        ctx.update(lease, tank_bbl=round(lease.tank_bbl - gross_bbl, 2))
    return ctx.create(
        RunTicket,
        lease_id=lease.id,
        purchaser=purchaser,
        run_date=ctx.today(),
        gross_bbl=gross_bbl,
        bsw_pct=bsw_pct,
        api_gravity=api_gravity,
        net_bbl=net,
        price_cents=price_cents,
        amount_cents=round(net * price_cents),
        status="rejected" if rejected else "accepted",
    )


def _example_totals(ctx: Ctx) -> dict[str, Any] | None:
    lease = ctx.first(Lease)
    start = (ctx.today() - dt.timedelta(days=30)).isoformat()
    return None if lease is None else {"lease_id": lease.id, "start": start}


@service.tool(intent="total the lease's production", example=_example_totals)
def lease_totals(ctx: Ctx, lease_id: LeaseId, start: Date, end: Date | None = None) -> LeaseTotals:
    """A lease's oil, gas and water from start to end (default today), net oil sold and the royalty share.

    Args:
        lease_id: The lease.
        start: The first day.
        end: The last day (default today).
    """
    lease = ctx.get(Lease, lease_id, field="lease_id")
    last = end or ctx.today()
    if last < start:
        raise RuleViolation("end is before start", field="end", hint="give a later end")
    rows = [r for r in ctx.where(ProductionReport, lease_id=lease.id) if start <= r.report_date <= last]
    sold = [t for t in ctx.where(RunTicket, lease_id=lease.id, status="accepted") if start <= t.run_date <= last]
    oil = round(sum(r.oil_bbl for r in rows), 2)
    return LeaseTotals(
        lease_id=lease.id,
        days=(last - start).days + 1,
        oil_bbl=oil,
        gas_mcf=round(sum(r.gas_mcf for r in rows), 2),
        water_bbl=round(sum(r.water_bbl for r in rows), 2),
        sold_net_bbl=round(sum(t.net_bbl for t in sold), 2),
        royalty_bbl=round(oil * lease.royalty_pct / 100, 2),
    )


# -- seed -------------------------------------------------------------------------------------

LEASES: tuple[str, ...] = ("Nelson Ranch", "Big Spring Unit", "Caldwell State")


@service.seeder
def seed(s: SeedContext) -> None:
    """Leases gauged by field staff, wells in every status, two weeks of reports, downtime, workovers, tickets."""
    pop = s.population
    pumpers = pop.staff("Operations", fallback=3)
    rigs = [c for c in pop.companies if not c.home]
    today = s.now.date()
    for k, name in enumerate(LEASES):
        lease = s.create(
            Lease,
            name=name,
            county_city=pumpers[k % len(pumpers)].place.city,
            pumper_email=pumpers[k % len(pumpers)].email,
            royalty_pct=(18.75, 20.0, 25.0)[k],
            created_at=s.ago(days=900),
            updated_at=s.ago(days=1),
        )
        tank = 0.0
        for w, status in enumerate(("producing", "producing", "shut_in", "drilling" if k == 0 else "plugged")):
            well = s.create(
                Well,
                lease_id=lease.id,
                name=f"{name.split()[0]} {w + 1}H",
                api_number=f"42-{329 + k:03d}-{40100 + 10 * k + w:05d}-00-00",
                lift=("rod_pump", "esp", "gas_lift", "flowing")[w],
                status=status,
                first_production=None if status == "drilling" else today - dt.timedelta(days=400 + 30 * w),
                created_at=s.ago(days=500),
                updated_at=s.ago(days=2),
            )
            if status == "shut_in":
                s.create(
                    Downtime,
                    well_id=well.id,
                    reason=("mechanical", "pipeline_curtailment", "electrical")[k],
                    start_date=today - dt.timedelta(days=3),
                    notes="Waiting on parts.",
                    created_at=s.ago(days=3),
                    updated_at=s.ago(days=3),
                )
            if status != "producing":
                continue
            for d in range(1, 15):
                oil = round(20 + 5 * w + (d * 7 + k) % 6, 1)
                tank += oil
                s.create(
                    ProductionReport,
                    well_id=well.id,
                    lease_id=lease.id,
                    report_date=today - dt.timedelta(days=d),
                    oil_bbl=oil,
                    gas_mcf=round(oil * 2.1, 1),
                    water_bbl=round(oil * 0.6, 1),
                    hours_on=24 if d % 5 else 20,
                    pumper_email=lease.pumper_email,
                    created_at=s.ago(days=d),
                    updated_at=s.ago(days=d),
                )
        sold = 180.0 if k < 2 else 0.0
        if sold:
            s.create(
                RunTicket,
                lease_id=lease.id,
                purchaser=rigs[(k + 3) % len(rigs)].name,
                run_date=today - dt.timedelta(days=4),
                gross_bbl=sold,
                bsw_pct=0.3,
                net_bbl=round(sold * 0.997, 2),
                price_cents=7380,
                amount_cents=round(sold * 0.997 * 7380),
                created_at=s.ago(days=4),
                updated_at=s.ago(days=4),
            )
        s.update(lease, tank_bbl=round(tank - sold, 2))
    _seed_workovers(s, rigs, pumpers)


def _seed_workovers(s: SeedContext, rigs: list[Any], staff: list[Any]) -> None:
    engineers = s.population.staff("Engineering", fallback=3)
    shut = [w for w in s.records(Well) if w.status == "shut_in"]
    producing = [w for w in s.records(Well) if w.status == "producing"]
    plan: tuple[tuple[Well, WorkoverStatus, JobType], ...] = (
        (producing[0], "planned", "pump_change"),
        (producing[1], "approved", "rod_repair"),
        (shut[0], "completed", "tubing_leak"),
        (producing[2], "cancelled", "acidize"),
        (shut[1], "in_progress", "esp_replacement"),
    )
    for k, (well, status, job) in enumerate(plan):
        s.create(
            Workover,
            well_id=well.id,
            job_type=job,
            rig_company=rigs[k % len(rigs)].name,
            estimated_cost_cents=(1850000, 2400000, 960000, 3100000, 4200000)[k],
            actual_cost_cents=1020000 if status == "completed" else None,
            requested_by=engineers[k % len(engineers)].email,
            approved_by=staff[0].email if status in ("approved", "completed", "in_progress") else None,
            status=status,
            created_at=s.ago(days=20 - k),
            updated_at=s.ago(days=5 - k),
        )
