"""Tally Rev: revenue recognition under ASC 606 for customer contracts.

Modeled on Zuora Revenue (RevPro) and Chargebee RevRec: revenue contracts per
customer with a transaction price, performance obligations (POBs) each with a
standalone selling price (SSP) and a recognition method (point in time,
ratably over a service term, or by percent complete), relative-SSP allocation
of the transaction price, recognition schedules by accounting period, period
runs and the period close, and the journal export of recognized revenue
(debit deferred revenue, credit revenue) to the general ledger. A contract
goes draft → allocated → active → completed, or cancelled; obligations are
added and priced only before activation; a period closes only after every
earlier one, once it has ended and nothing scheduled in it is left
unrecognized; a closed period takes no recognition, and one that was exported
cannot be reopened until its export is voided.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Currency, Date, DateTime, Email, IdOf, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "revrec",
    title="Tally Rev",
    category="revenue_recognition",
    modeled_on="Zuora Revenue (RevPro) / Chargebee RevRec: revenue contracts, performance obligations with SSP, "
    "relative-SSP allocation, recognition schedules (waterfall), period close, journal export",
    description="Revenue recognition for customer contracts: performance obligations priced at standalone "
    "selling prices, allocation of each contract's price, monthly recognition schedules, running and closing "
    "accounting periods, and exporting recognized revenue as journals to the ledger.",
)

ContractId = Annotated[str, IdOf("revrec.contract")]
ObligationId = Annotated[str, IdOf("revrec.obligation")]
LineId = Annotated[str, IdOf("revrec.schedule_line")]
PeriodId = Annotated[str, IdOf("revrec.period")]
ExportId = Annotated[str, IdOf("revrec.journal_export")]

PeriodName = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$")]
"""An accounting period as YYYY-MM."""

ContractStatus = Literal["draft", "allocated", "active", "completed", "cancelled"]
Method = Literal["point_in_time", "ratably", "percent_complete"]
PobKind = Literal["software_license", "subscription", "support", "professional_services", "hardware", "training"]
PobStatus = Literal["open", "in_progress", "satisfied", "cancelled"]
LineStatus = Literal["scheduled", "recognized", "cancelled"]
ExportTarget = Literal["ledger", "netsuite", "sap", "oracle"]


class Contract(Timestamped):
    """A revenue contract with one customer."""

    id: ContractId
    number: Annotated[str, Generated("sequence", "RC-{n:05d}")]
    """The contract number."""
    customer_name: CompanyName
    """The customer."""
    customer_email: Email
    """The customer's billing contact."""
    transaction_price: Cents
    """The total contract price in cents, allocated across its obligations."""
    currency: Currency = "USD"
    """Currency."""
    start_date: Date
    """Contract start."""
    end_date: Date
    """Contract end."""
    owner_email: Email
    """The revenue accountant responsible for it."""
    status: ContractStatus = "draft"
    """draft, allocated, active, completed or cancelled."""
    recognized_total: Cents = 0
    """Revenue recognized so far in cents."""


class Obligation(Timestamped):
    """A performance obligation (POB) of a contract."""

    id: ObligationId
    contract_id: ContractId
    """The contract."""
    name: Title
    """What is promised."""
    kind: PobKind
    """software_license, subscription, support, professional_services, hardware or training."""
    ssp: Cents
    """Standalone selling price in cents."""
    method: Method
    """point_in_time, ratably (over start..end) or percent_complete."""
    start_date: Date
    """When delivery starts."""
    end_date: Date
    """When delivery ends."""
    allocated_amount: Cents = 0
    """Transaction price allocated to it in cents."""
    recognized_amount: Cents = 0
    """Recognized (or scheduled for recognition) so far in cents."""
    percent_complete: Annotated[int, Field(ge=0, le=100)] = 0
    """Progress of a percent_complete obligation."""
    status: PobStatus = "open"
    """open, in_progress, satisfied or cancelled."""


class ScheduleLine(Created):
    """One line of a recognition schedule: an amount to recognize in a period."""

    id: LineId
    contract_id: ContractId
    """The contract."""
    obligation_id: ObligationId
    """The obligation."""
    period: PeriodName
    """The accounting period (YYYY-MM)."""
    amount: Cents
    """Amount in cents."""
    status: LineStatus = "scheduled"
    """scheduled, recognized or cancelled."""
    recognized_at: DateTime | None = None
    """When it was recognized."""


class Period(Timestamped):
    """An accounting period."""

    id: PeriodId
    name: PeriodName
    """YYYY-MM."""
    start_date: Date
    """First day."""
    end_date: Date
    """Last day."""
    status: Literal["open", "closed"] = "open"
    """open or closed."""
    closed_by: Email | None = None
    """The employee who closed it."""


class JournalExport(Created):
    """Recognized revenue of a closed period, exported as a journal to the general ledger."""

    id: ExportId
    period: PeriodName
    """The period."""
    target: ExportTarget
    """ledger, netsuite, sap or oracle."""
    debit_account: Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")] = "2400"
    """Deferred revenue account debited."""
    credit_account: Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")] = "4000"
    """Revenue account credited."""
    amount: Cents
    """Total recognized in the period in cents."""
    line_count: int
    """Schedule lines included."""
    exported_by: Email
    """The employee who exported it."""
    status: Literal["exported", "voided"] = "exported"
    """exported or voided."""


class Waterfall(Value):
    """A contract's revenue waterfall."""

    contract_id: ContractId
    """The contract."""
    transaction_price: Cents
    """Total price in cents."""
    recognized: Cents
    """Recognized in cents."""
    scheduled: Cents
    """Scheduled but not yet recognized, in cents."""
    unscheduled: Cents
    """Allocated but not yet scheduled (deferred), in cents."""
    by_period: dict[str, int]
    """Scheduled and recognized amounts per period."""


# -- rules ------------------------------------------------------------------------------------


def period_of(day: dt.date) -> str:
    """The YYYY-MM period a day falls in."""
    return f"{day.year:04d}-{day.month:02d}"


def _period(ctx: Ctx, name: str, field: str = "period") -> Period:
    found = ctx.first(Period, name=name)
    if found is None:
        raise RuleViolation(f"no accounting period {name}", field=field, hint="list periods with revrec__list_periods")
    return found


def _open_period(ctx: Ctx, name: str, field: str = "period") -> Period:
    found = _period(ctx, name, field)
    if found.status != "open":
        raise RuleViolation(
            f"period {name} is closed", field=field, hint="reopen it with revrec__reopen_period, or use a later period"
        )
    return found


def _guard_contract(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="contracts are owned by revenue accountants")
    if new.end_date <= new.start_date:
        raise RuleViolation("end_date must be after start_date", field="end_date", hint="give a later end date")
    if old is not None and old.status not in ("draft", "allocated") and new.end_date != old.end_date:
        raise RuleViolation(
            f"contract {old.number} is {old.status}; its term is fixed",
            field="end_date",
            hint="only draft or allocated contracts change term",
        )


def _guard_contract_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(
            f"contract {old.number} is {old.status}; only drafts are deleted",
            field="contract_id",
            hint="cancel it with revrec__cancel_contract instead",
        )
    for pob in ctx.where(Obligation, contract_id=old.id):
        ctx.delete(pob)


def _editable_contract(ctx: Ctx, contract_id: str, field: str) -> Contract:
    contract = ctx.get(Contract, contract_id, field=field)
    if contract.status not in ("draft", "allocated"):
        raise RuleViolation(
            f"contract {contract.number} is {contract.status}; its obligations are fixed",
            field=field,
            hint="obligations change only before the contract is activated",
        )
    return contract


def _guard_obligation(ctx: Ctx, new: Any, old: Any) -> None:
    contract = _editable_contract(ctx, new.contract_id, "contract_id" if old is None else "obligation_id")
    if new.end_date < new.start_date:
        raise RuleViolation("end_date is before start_date", field="end_date", hint="give a later end date")
    if new.start_date < contract.start_date or new.end_date > contract.end_date:
        raise RuleViolation(
            f"delivery must fall within the contract term {contract.start_date}..{contract.end_date}",
            field="start_date",
            hint="use dates inside the contract term",
        )
    if new.ssp <= 0:
        raise RuleViolation("the standalone selling price must be positive", field="ssp", hint="give an SSP in cents")
    if contract.status == "allocated":
        ctx.update(contract, status="draft")


def _guard_obligation_delete(ctx: Ctx, new: Any, old: Any) -> None:
    contract = _editable_contract(ctx, old.contract_id, "obligation_id")
    if contract.status == "allocated":
        ctx.update(contract, status="draft")


contracts = service.resource(
    Contract,
    name="contract",
    plural="contracts",
    prefix="rc",
    create=(
        "customer_name",
        "customer_email",
        "transaction_price",
        "currency",
        "start_date",
        "end_date",
        "owner_email",
    ),
    filters=("status", "customer_name", "customer_email", "owner_email", "number"),
    search=("customer_name",),
    update=("owner_email", "end_date", "customer_email"),
    guard_create=_guard_contract,
    guard_update=_guard_contract,
    guard_delete=_guard_contract_delete,
    title="revenue contract",
)
obligations = service.resource(
    Obligation,
    name="obligation",
    plural="obligations",
    prefix="pob",
    create=("contract_id", "name", "kind", "ssp", "method", "start_date", "end_date"),
    filters=("contract_id", "kind", "method", "status"),
    search=("name",),
    update=("name", "ssp", "start_date", "end_date"),
    guard_create=_guard_obligation,
    guard_update=_guard_obligation,
    guard_delete=_guard_obligation_delete,
    title="performance obligation",
)
schedule_lines = service.resource(
    ScheduleLine,
    name="schedule_line",
    plural="schedule_lines",
    prefix="rsl",
    create=False,
    get=False,
    filters=("contract_id", "obligation_id", "period", "status"),
    delete=False,
    title="schedule line",
)
periods = service.resource(
    Period,
    name="period",
    plural="periods",
    prefix="per",
    create=False,
    get=False,
    filters=("status", "name"),
    delete=False,
)
exports = service.resource(
    JournalExport,
    name="journal_export",
    plural="journal_exports",
    prefix="jex",
    create=False,
    filters=("period", "target", "status"),
    delete=False,
    title="journal export",
)


# -- domain tools -----------------------------------------------------------------------------


def allocate(total: int, ssps: list[int]) -> list[int]:
    """Split ``total`` over ``ssps`` in proportion (relative SSP), the rounding remainder on the largest."""
    base = sum(ssps)
    shares = [total * s // base for s in ssps]
    shares[ssps.index(max(ssps))] += total - sum(shares)
    return shares


@service.tool(
    intent="allocate the contract's price",
    write=True,
    example=first_example(
        Contract,
        "contract_id",
        where={"status": "draft"},
        match=lambda c, r: bool(c.where(Obligation, contract_id=r.id)),
    ),
)
def allocate_contract(ctx: Ctx, contract_id: ContractId) -> list[Obligation]:
    """Allocate a draft contract's transaction price to its obligations in proportion to their SSPs.

    Args:
        contract_id: The contract.
    """
    contract = _editable_contract(ctx, contract_id, "contract_id")
    pobs = ctx.where(Obligation, contract_id=contract.id)
    if not pobs:
        raise RuleViolation(
            f"contract {contract.number} has no performance obligations",
            field="contract_id",
            hint="add one with revrec__create_obligation",
        )
    shares = allocate(contract.transaction_price, [p.ssp for p in pobs])
    out = [ctx.update(p, allocated_amount=share) for p, share in zip(pobs, shares, strict=True)]
    ctx.update(contract, status="allocated")
    return out


def _months(start: dt.date, end: dt.date) -> list[str]:
    names, day = [], dt.date(start.year, start.month, 1)
    while day <= end:
        names.append(period_of(day))
        day = add_months(day, 1)
    return names


def _schedule(ctx: Ctx, pob: Obligation, period: str, amount: int) -> None:
    if amount > 0:
        ctx.create(ScheduleLine, contract_id=pob.contract_id, obligation_id=pob.id, period=period, amount=amount)
        ctx.update(pob, recognized_amount=pob.recognized_amount + amount)


@service.tool(
    intent="activate the contract",
    write=True,
    example=first_example(Contract, "contract_id", where={"status": "allocated"}),
)
def activate_contract(ctx: Ctx, contract_id: ContractId) -> Contract:
    """Activate an allocated contract: ratable obligations get a monthly schedule over their term.

    Args:
        contract_id: The contract.
    """
    contract = ctx.get(Contract, contract_id, field="contract_id")
    if contract.status != "allocated":
        raise RuleViolation(
            f"contract {contract.number} is {contract.status}; only an allocated contract is activated",
            field="contract_id",
            hint="allocate it first with revrec__allocate_contract",
        )
    opened = sorted(p.name for p in ctx.where(Period, status="open"))
    if not opened:
        raise RuleViolation("no accounting period is open", field="contract_id", hint="reopen a period first")
    for pob in ctx.where(Obligation, contract_id=contract.id):
        if pob.method != "ratably":
            continue
        months = _months(pob.start_date, pob.end_date)
        each = pob.allocated_amount // len(months)
        plan: dict[str, int] = {}
        for k, name in enumerate(months):
            # Months already closed are caught up in the earliest open period.
            target = max(name, opened[0])
            plan[target] = plan.get(target, 0) + (pob.allocated_amount - each * k if k == len(months) - 1 else each)
        for name, amount in plan.items():
            _schedule(ctx, pob, name, amount)
            pob = ctx.get(Obligation, pob.id)
        ctx.update(pob, status="in_progress")
    return ctx.update(contract, status="active")


def _active_obligation(ctx: Ctx, obligation_id: str, method: str) -> Obligation:
    pob = ctx.get(Obligation, obligation_id, field="obligation_id")
    contract = ctx.get(Contract, pob.contract_id)
    if contract.status != "active":
        raise RuleViolation(
            f"contract {contract.number} is {contract.status}",
            field="obligation_id",
            hint="activate the contract first with revrec__activate_contract",
        )
    if pob.method != method:
        raise RuleViolation(
            f"obligation {pob.name!r} is recognized {pob.method.replace('_', ' ')}",
            field="obligation_id",
            hint=f"this tool is for {method.replace('_', ' ')} obligations",
        )
    if pob.status in ("satisfied", "cancelled"):
        raise Conflict(f"obligation {pob.name!r} is already {pob.status}", field="obligation_id", hint="nothing to do")
    return pob


@service.tool(
    intent="mark the performance obligation satisfied",
    write=True,
    example=first_example(
        Obligation,
        "obligation_id",
        where={"method": "point_in_time", "status": "open"},
        match=lambda c, r: c.get(Contract, r.contract_id).status == "active",
    ),
)
def satisfy_obligation(ctx: Ctx, obligation_id: ObligationId) -> Obligation:
    """Mark a point-in-time obligation delivered: its whole allocation is scheduled in the current period.

    Args:
        obligation_id: The obligation.
    """
    pob = _active_obligation(ctx, obligation_id, "point_in_time")
    now = _open_period(ctx, period_of(ctx.today()), "obligation_id")
    _schedule(ctx, pob, now.name, pob.allocated_amount - pob.recognized_amount)
    return ctx.update(ctx.get(Obligation, pob.id), status="satisfied", percent_complete=100)


@service.tool(
    intent="record progress on the performance obligation",
    write=True,
    example=first_example(
        Obligation,
        "obligation_id",
        where={"method": "percent_complete", "status": "in_progress"},
        match=lambda c, r: r.percent_complete < 90,
        percent_complete=90,
    ),
)
def record_progress(
    ctx: Ctx, obligation_id: ObligationId, percent_complete: Annotated[int, Field(ge=1, le=100)]
) -> Obligation:
    """Record a percent-complete obligation's progress: the newly earned share is scheduled in the current period.

    Args:
        obligation_id: The obligation.
        percent_complete: Progress to date, 1-100; it cannot go back.
    """
    pob = _active_obligation(ctx, obligation_id, "percent_complete")
    if percent_complete <= pob.percent_complete:
        raise RuleViolation(
            f"progress is already {pob.percent_complete}%",
            field="percent_complete",
            hint=f"give more than {pob.percent_complete}",
        )
    now = _open_period(ctx, period_of(ctx.today()), "obligation_id")
    earned = pob.allocated_amount * percent_complete // 100 if percent_complete < 100 else pob.allocated_amount
    _schedule(ctx, pob, now.name, earned - pob.recognized_amount)
    status: PobStatus = "satisfied" if percent_complete == 100 else "in_progress"
    return ctx.update(ctx.get(Obligation, pob.id), percent_complete=percent_complete, status=status)


def _refresh_contract(ctx: Ctx, contract_id: str) -> None:
    contract = ctx.get(Contract, contract_id)
    lines = ctx.where(ScheduleLine, contract_id=contract_id, status="recognized")
    done = sum(ln.amount for ln in lines)
    status = "completed" if done == contract.transaction_price and contract.status == "active" else contract.status
    ctx.update(contract, recognized_total=done, status=status)


@service.tool(
    intent="run revenue recognition for the period",
    write=True,
    example=lambda ctx: next(
        (
            {"period": p.name}
            for p in ctx.where(Period, status="open")
            if ctx.where(ScheduleLine, period=p.name, status="scheduled") and p.start_date <= ctx.today()
        ),
        None,
    ),
)
def run_recognition(ctx: Ctx, period: PeriodName) -> list[ScheduleLine]:
    """Recognize every scheduled line of an open period that has started.

    Args:
        period: The period, YYYY-MM.
    """
    found = _open_period(ctx, period)
    if found.start_date > ctx.today():
        raise RuleViolation(
            f"period {period} has not started", field="period", hint="recognize only current or past periods"
        )
    due = ctx.where(ScheduleLine, period=period, status="scheduled")
    if not due:
        raise RuleViolation(f"nothing is scheduled in {period}", field="period", hint="the period is fully recognized")
    out = [ctx.update(ln, status="recognized", recognized_at=ctx.now()) for ln in due]
    for contract_id in sorted({ln.contract_id for ln in due}):
        _refresh_contract(ctx, contract_id)
    return out


@service.tool(
    intent="close the accounting period",
    write=True,
    destructive=True,
    example=lambda ctx: next(
        (
            {"period": p.name, "closed_by": p.closed_by or ctx.population.employees[0].email}
            for p in sorted(ctx.where(Period, status="open"), key=lambda q: q.name)[:1]
        ),
        None,
    ),
)
def close_period(ctx: Ctx, period: PeriodName, closed_by: Email) -> Period:
    """Close an ended period once every earlier period is closed and all its scheduled revenue is recognized.

    Args:
        period: The period, YYYY-MM.
        closed_by: The employee closing it.
    """
    found = _open_period(ctx, period)
    require_employee(ctx, closed_by, field="closed_by", hint="periods are closed by revenue accountants")
    earlier = [p.name for p in ctx.where(Period, status="open") if p.name < period]
    if earlier:
        raise RuleViolation(f"period {min(earlier)} is still open", field="period", hint=f"close {min(earlier)} first")
    if found.end_date >= ctx.today():
        raise RuleViolation(f"period {period} has not ended", field="period", hint=f"close it after {found.end_date}")
    if ctx.where(ScheduleLine, period=period, status="scheduled"):
        raise RuleViolation(
            f"period {period} has unrecognized schedule lines",
            field="period",
            hint="run revrec__run_recognition for it first",
        )
    return ctx.update(found, status="closed", closed_by=closed_by)


@service.tool(
    intent="reopen the accounting period",
    write=True,
    example=lambda ctx: next(
        (
            {"period": p.name}
            for p in sorted(ctx.where(Period, status="closed"), key=lambda q: q.name, reverse=True)[:1]
            if not ctx.where(JournalExport, period=p.name, status="exported")
        ),
        None,
    ),
)
def reopen_period(ctx: Ctx, period: PeriodName) -> Period:
    """Reopen the latest closed period, unless its revenue was exported (void the export first).

    Args:
        period: The period, YYYY-MM.
    """
    found = _period(ctx, period)
    if found.status != "closed":
        raise Conflict(f"period {period} is already open", field="period", hint="nothing to do")
    later = [p.name for p in ctx.where(Period, status="closed") if p.name > period]
    if later:
        raise RuleViolation(
            f"period {max(later)} is closed after it", field="period", hint=f"reopen {max(later)} first"
        )
    if ctx.first(JournalExport, period=period, status="exported"):
        raise RuleViolation(
            f"period {period} was exported to the ledger",
            field="period",
            hint="void its export with revrec__void_journal_export first",
        )
    return ctx.update(found, status="open", closed_by=None)


@service.tool(
    intent="export the period's revenue journal",
    write=True,
    example=lambda ctx: next(
        (
            {"period": p.name, "target": "ledger", "exported_by": ctx.population.employees[0].email}
            for p in ctx.where(Period, status="closed")
            if not ctx.where(JournalExport, period=p.name, status="exported")
        ),
        None,
    ),
)
def export_journal(ctx: Ctx, period: PeriodName, target: ExportTarget, exported_by: Email) -> JournalExport:
    """Export a closed period's recognized revenue as one journal (debit deferred revenue, credit revenue).

    Args:
        period: The period, YYYY-MM.
        target: The general ledger: ledger, netsuite, sap or oracle.
        exported_by: The employee exporting it.
    """
    found = _period(ctx, period)
    if found.status != "closed":
        raise RuleViolation(f"period {period} is open", field="period", hint="close it with revrec__close_period first")
    require_employee(ctx, exported_by, field="exported_by", hint="journals are exported by staff")
    if ctx.first(JournalExport, period=period, status="exported"):
        raise Conflict(f"period {period} was already exported", field="period", hint="void that export to redo it")
    lines = ctx.where(ScheduleLine, period=period, status="recognized")
    return ctx.create(
        JournalExport,
        period=period,
        target=target,
        amount=sum(ln.amount for ln in lines),
        line_count=len(lines),
        exported_by=exported_by,
    )


@service.tool(
    intent="void the journal export",
    write=True,
    example=first_example(JournalExport, "journal_export_id", where={"status": "exported"}),
)
def void_journal_export(ctx: Ctx, journal_export_id: ExportId) -> JournalExport:
    """Void an export (reverse it in the ledger) so its period can be reopened.

    Args:
        journal_export_id: The export.
    """
    found = ctx.get(JournalExport, journal_export_id, field="journal_export_id")
    if found.status == "voided":
        raise Conflict(f"export {found.id} is already voided", field="journal_export_id", hint="nothing to do")
    return ctx.update(found, status="voided")


@service.tool(
    intent="cancel the contract",
    write=True,
    destructive=True,
    example=first_example(Contract, "contract_id", where={"status": "active"}),
)
def cancel_contract(ctx: Ctx, contract_id: ContractId) -> Contract:
    """Cancel an allocated or active contract: revenue not yet recognized is unscheduled.

    Args:
        contract_id: The contract.
    """
    contract = ctx.get(Contract, contract_id, field="contract_id")
    hint = "delete a draft with revrec__delete_contract; completed contracts stay"
    if contract.status in ("draft", "completed", "cancelled"):
        raise RuleViolation(f"contract {contract.number} is {contract.status}", field="contract_id", hint=hint)
    pending = ctx.where(ScheduleLine, contract_id=contract.id, status="scheduled")
    for ln in pending:
        ctx.update(ln, status="cancelled")
    for pob in ctx.where(Obligation, contract_id=contract.id):
        if pob.status != "satisfied":
            ctx.update(pob, status="cancelled")
    return ctx.update(contract, status="cancelled")


@service.tool(intent="show the contract's revenue waterfall", example=first_example(Contract, "contract_id"))
def contract_waterfall(ctx: Ctx, contract_id: ContractId) -> Waterfall:
    """A contract's recognized, scheduled and still-deferred revenue, and its amounts per period.

    Args:
        contract_id: The contract.
    """
    contract = ctx.get(Contract, contract_id, field="contract_id")
    lines = [ln for ln in ctx.where(ScheduleLine, contract_id=contract.id) if ln.status != "cancelled"]
    by: dict[str, int] = {}
    for ln in lines:
        by[ln.period] = by.get(ln.period, 0) + ln.amount
    recognized = sum(ln.amount for ln in lines if ln.status == "recognized")
    scheduled = sum(ln.amount for ln in lines if ln.status == "scheduled")
    allocated = sum(
        p.allocated_amount for p in ctx.where(Obligation, contract_id=contract.id) if p.status != "cancelled"
    )
    return Waterfall(
        contract_id=contract.id,
        transaction_price=contract.transaction_price,
        recognized=recognized,
        scheduled=scheduled,
        unscheduled=max(0, allocated - recognized - scheduled),
        by_period=dict(sorted(by.items())),
    )


# -- seed -------------------------------------------------------------------------------------

BUNDLES: tuple[tuple[tuple[str, PobKind, int, Method], ...], ...] = (
    (
        ("Platform subscription", "subscription", 9_600_000, "ratably"),
        ("Onboarding", "professional_services", 1_500_000, "percent_complete"),
    ),
    (
        ("Perpetual license", "software_license", 12_000_000, "point_in_time"),
        ("Premium support", "support", 2_400_000, "ratably"),
    ),
    (
        ("Edge appliance", "hardware", 3_000_000, "point_in_time"),
        ("Platform subscription", "subscription", 4_800_000, "ratably"),
        ("Admin training", "training", 600_000, "point_in_time"),
    ),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Accounting periods around today, and customer contracts in every status with their schedules."""
    today = s.now.date()
    first = add_months(dt.date(today.year, today.month, 1), -6)
    owners = s.population.staff("Finance", "Accounting", fallback=3)
    for k in range(19):
        start = add_months(first, k)
        s.create(
            Period,
            name=period_of(start),
            start_date=start,
            end_date=add_months(start, 1) - dt.timedelta(days=1),
            status="closed" if k < 5 else "open",
            closed_by=owners[0].email if k < 5 else None,
            created_at=s.ago(days=400),
            updated_at=s.ago(days=max(1, 150 - 30 * k)),
        )
    statuses: tuple[ContractStatus, ...] = (
        "active",
        "active",
        "active",
        "allocated",
        "active",
        "cancelled",
        "draft",
        "active",
    )
    for k, company in enumerate(s.population.customers[:8]):
        contact = s.population.first_contact(company)
        bundle = BUNDLES[k % len(BUNDLES)]
        start = add_months(first, 3 + k % 3)
        end = add_months(start, 12) - dt.timedelta(days=1)
        price = sum(b[2] for b in bundle) * (90 - 5 * (k % 3)) // 100
        contract = s.create(
            Contract,
            customer_name=company.name,
            customer_email=contact.email if contact else f"billing@{company.domain}",
            transaction_price=price,
            start_date=start,
            end_date=end,
            owner_email=owners[k % len(owners)].email,
            status="draft",
            created_at=s.ago(days=200 - 10 * k),
            updated_at=s.ago(days=20),
        )
        shares = allocate(price, [b[2] for b in bundle])
        status = statuses[k]
        for (name, kind, ssp, method), share in zip(bundle, shares, strict=True):
            pob = s.create(
                Obligation,
                contract_id=contract.id,
                name=name,
                kind=kind,
                ssp=ssp,
                method=method,
                start_date=start,
                end_date=end if method == "ratably" else add_months(start, 2),
                allocated_amount=share if status != "draft" else 0,
                created_at=s.ago(days=200 - 10 * k),
                updated_at=s.ago(days=20),
            )
            if status in ("active", "cancelled"):
                _seed_lines(s, contract, pob, today, status == "cancelled")
        done = sum(
            ln.amount for ln in s.records(ScheduleLine) if ln.contract_id == contract.id and ln.status == "recognized"
        )
        s.update(contract, status=status, recognized_total=done)
    _seed_exports(s, owners[0].email)


def _seed_lines(s: SeedContext, contract: Contract, pob: Obligation, today: dt.date, cancelled: bool) -> None:
    now = period_of(today)
    closed = {p.name for p in s.records(Period) if p.status == "closed"}
    plan: list[tuple[str, int]] = []
    if pob.kind == "training":
        if cancelled:
            s.update(pob, status="cancelled")
        return  # delivered later: still open
    if pob.method == "ratably":
        months = _months(pob.start_date, pob.end_date)
        each = pob.allocated_amount // len(months)
        plan = [(m, each if i < len(months) - 1 else pob.allocated_amount - each * i) for i, m in enumerate(months)]
    elif pob.method == "point_in_time":
        plan = [(period_of(pob.start_date), pob.allocated_amount)]
    else:
        plan = [(period_of(pob.start_date), pob.allocated_amount * 40 // 100)]
        pob = s.update(pob, percent_complete=40)
    for name, amount in plan:
        if cancelled and name >= now:
            continue
        status: LineStatus = "recognized" if name in closed or name < now else "scheduled"
        s.create(
            ScheduleLine,
            contract_id=contract.id,
            obligation_id=pob.id,
            period=name,
            amount=amount,
            status=status,
            recognized_at=s.ago(days=3) if status == "recognized" else None,
            created_at=s.ago(days=100),
        )
    recognized = sum(a for name, a in plan if not (cancelled and name >= now))
    pob_status: PobStatus = (
        "cancelled" if cancelled else ("satisfied" if pob.method == "point_in_time" else "in_progress")
    )
    s.update(pob, recognized_amount=recognized, status=pob_status)


def _seed_exports(s: SeedContext, by: str) -> None:
    """Every closed period but the latest was exported to the ledger."""
    closed = sorted(p.name for p in s.records(Period) if p.status == "closed")
    for name in closed[:-1]:
        lines = [ln for ln in s.records(ScheduleLine) if ln.period == name and ln.status == "recognized"]
        s.create(
            JournalExport,
            period=name,
            target="ledger",
            amount=sum(ln.amount for ln in lines),
            line_count=len(lines),
            exported_by=by,
            created_at=s.ago(days=20),
        )
