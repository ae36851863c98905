"""Paystream Payroll: pay schedules, employees with compensations and deductions, payroll runs and pay stubs.

Modeled on the Gusto Embedded Payroll API v1 (Pay Schedule, Employee, Job &
Compensation, Employee Benefits/Deductions, Payroll with employee_compensations,
Off-Cycle Payroll, calculate/submit/cancel, Pay Stubs): a payroll is calculated
before it is submitted and any edit sends it back to be recalculated; gross pay
comes from the compensation in effect at the end of the pay period (salary per
period or hours times rate, overtime at 1.5x for non-exempt staff only), taxes
from the employee's withholding, and net pay may never be negative; a direct
deposit payroll must be submitted two days before its check date; one
unprocessed regular payroll per schedule at a time; a paid payroll is final.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    AccountNumber,
    Cents,
    Currency,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    JobTitle,
    LastName,
    PersonName,
    PostalAddress,
    Quantity,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.world.org import department_of

__all__ = ["service"]

service = Service(
    "payroll",
    title="Paystream Payroll",
    category="hr_payroll",
    modeled_on="Gusto Embedded Payroll API v1 (Pay Schedule, Employee, Job & Compensation, Deductions, Payroll "
    "with employee_compensations, Off-Cycle Payroll, calculate/submit/cancel, Pay Stub)",
    description="Running the home company's payroll: pay schedules, employees with their compensation history, "
    "withholding and deductions, regular and off-cycle payroll runs that compute gross pay, taxes and net pay, "
    "and the pay stubs of paid payrolls.",
)

ScheduleId = Annotated[str, IdOf("payroll.pay_schedule")]
EmployeeId = Annotated[str, IdOf("payroll.employee")]
CompensationId = Annotated[str, IdOf("payroll.compensation")]
DeductionId = Annotated[str, IdOf("payroll.deduction")]
PayrollId = Annotated[str, IdOf("payroll.payroll")]
ItemId = Annotated[str, IdOf("payroll.payroll_item")]
StubId = Annotated[str, IdOf("payroll.pay_stub")]
Frequency = Literal["weekly", "biweekly", "semimonthly", "monthly"]
FilingStatus = Literal["single", "married", "head_of_household"]
PaymentMethod = Literal["direct_deposit", "check"]
PaymentUnit = Literal["hour", "year"]
FlsaStatus = Literal["exempt", "nonexempt"]
PayrollStatus = Literal["open", "calculated", "processed", "cancelled"]
OffCycleReason = Literal["bonus", "correction", "termination"]

PERIODS_PER_YEAR: dict[str, int] = {"weekly": 52, "biweekly": 26, "semimonthly": 24, "monthly": 12}
INCOME_TAX_BP: dict[str, int] = {"single": 1200, "married": 900, "head_of_household": 1000}
"""Flat income tax withholding by filing status, in basis points of taxable wages."""
SOCIAL_SECURITY_BP = 620
MEDICARE_BP = 145
UNEMPLOYMENT_BP = 60
DIRECT_DEPOSIT_LEAD_DAYS = 2
UNPROCESSED: tuple[str, ...] = ("open", "calculated")


class PaySchedule(Record):
    """How often and on which dates a group of employees is paid."""

    id: ScheduleId
    name: Title
    """Schedule name, e.g. Biweekly staff."""
    frequency: Frequency
    """weekly, biweekly (every other week), semimonthly (1st-15th and 16th-month end) or monthly."""
    anchor_end_of_pay_period: Date
    """Last day of the first pay period; later periods follow from it."""
    anchor_pay_date: Date
    """Check date of the first pay period; later check dates keep the same lag after their period's end."""
    active: bool = True
    """Inactive schedules take no new payrolls or employees."""


class Employee(Record):
    """A person on the company's payroll."""

    id: EmployeeId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """Work e-mail address (the same address as in HR, mail and calendar); unique."""
    home_address: PostalAddress | None = None
    """Home address printed on pay stubs and checks."""
    department: Text = ""
    """Department, free text."""
    job_title: JobTitle
    """Job title."""
    hire_date: Date
    """First day of employment."""
    pay_schedule_id: ScheduleId
    """The schedule the employee is paid on."""
    filing_status: FilingStatus = "single"
    """Withholding filing status from the employee's tax form."""
    extra_withholding: Cents = 0
    """Additional income tax withheld from every paycheck, in cents."""
    payment_method: PaymentMethod = "check"
    """direct_deposit (needs a bank account) or check."""
    bank_account: AccountNumber | None = None
    """Account that direct deposits are paid into."""
    terminated: bool = False
    """Whether the employee has left; terminated employees are not put on new regular payrolls."""
    termination_date: Date | None = None
    """Last day of employment of a terminated employee."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the record last changed."""


class Compensation(Record):
    """One dated row of an employee's pay: the rate in effect from a date on."""

    id: CompensationId
    employee_id: EmployeeId
    """The employee."""
    rate: Cents
    """Pay rate in cents per payment unit."""
    payment_unit: PaymentUnit
    """'year' (salary) or 'hour' (hourly wage; hourly staff are non-exempt)."""
    flsa_status: FlsaStatus
    """exempt (salaried, no overtime) or nonexempt (paid overtime at 1.5x)."""
    effective_date: Date
    """From when this rate applies; one row per employee and date."""
    created_at: Annotated[DateTime, CREATED]
    """When the row was entered."""


class Deduction(Record):
    """A recurring amount taken from each regular paycheck (retirement, insurance premium, garnishment)."""

    id: DeductionId
    employee_id: EmployeeId
    """The employee."""
    name: Title
    """What the deduction is for, e.g. 401(k)."""
    amount_per_paycheck: Cents
    """Amount taken from each regular paycheck, in cents."""
    pre_tax: bool = False
    """Whether it is taken before taxes (lowers taxable wages)."""
    active: bool = True
    """Inactive deductions are no longer taken."""


class Payroll(Record):
    """One payroll run: who is paid what for one pay period, and its totals once calculated."""

    id: PayrollId
    payroll_number: Annotated[str, Generated("sequence", "PR-{n:05d}")]
    """Human payroll number."""
    pay_schedule_id: ScheduleId | None = None
    """The schedule of a regular payroll; null for an off-cycle one."""
    off_cycle: bool = False
    """Whether this is an off-cycle payroll (bonus, correction, final paycheck)."""
    off_cycle_reason: OffCycleReason | None = None
    """Why an off-cycle payroll is run."""
    pay_period_start: Date
    """First day of the pay period."""
    pay_period_end: Date
    """Last day of the pay period."""
    check_date: Date
    """The day employees are paid."""
    status: PayrollStatus = "open"
    """open (editable), calculated (ready to submit), processed (paid, final) or cancelled."""
    currency: Currency
    """Currency of every amount."""
    gross_pay: Cents = 0
    """Total gross pay of the included employees, once calculated."""
    employee_taxes: Cents = 0
    """Taxes withheld from employees."""
    employer_taxes: Cents = 0
    """Taxes the company owes on top of gross pay."""
    deductions: Cents = 0
    """Deductions taken from paychecks."""
    reimbursements: Cents = 0
    """Untaxed reimbursements paid with the paychecks."""
    net_pay: Cents = 0
    """Total paid out to employees."""
    company_debit: Cents = 0
    """What the company's bank account is debited: gross pay + employer taxes + reimbursements."""
    processed_at: DateTime | None = None
    """When the payroll was submitted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the payroll last changed."""


class PayrollItem(Record):
    """One employee's line on a payroll: hours, bonus and reimbursement in, pay computed out."""

    id: ItemId
    payroll_id: PayrollId
    """The payroll."""
    employee_id: EmployeeId
    """The employee paid."""
    salary_included: bool = True
    """Whether the period's salary or regular wage is paid (false on off-cycle payrolls)."""
    regular_hours: Quantity = 0
    """Regular hours worked (hourly employees)."""
    overtime_hours: Quantity = 0
    """Overtime hours, paid at 1.5x (non-exempt employees only)."""
    bonus: Cents = 0
    """Bonus paid with this paycheck, in cents."""
    reimbursement: Cents = 0
    """Untaxed reimbursement paid with this paycheck, in cents."""
    excluded: bool = False
    """Whether the employee is skipped on this payroll."""
    gross_pay: Cents = 0
    """Gross pay, once calculated."""
    pre_tax_deductions: Cents = 0
    """Pre-tax deductions, once calculated."""
    employee_taxes: Cents = 0
    """Income and social taxes withheld, once calculated."""
    employer_taxes: Cents = 0
    """Employer taxes on this paycheck, once calculated."""
    post_tax_deductions: Cents = 0
    """Post-tax deductions, once calculated."""
    net_pay: Cents = 0
    """Net pay including the reimbursement, once calculated."""


class PayStub(Record):
    """The pay statement of one employee for one processed payroll."""

    id: StubId
    payroll_id: PayrollId
    """The payroll."""
    employee_id: EmployeeId
    """The employee."""
    employee_name: PersonName
    """Employee's full name."""
    email: Email
    """Employee's work e-mail, where the stub is sent."""
    check_date: Date
    """Pay day."""
    pay_period_start: Date
    """First day of the pay period."""
    pay_period_end: Date
    """Last day of the pay period."""
    gross_pay: Cents
    """Gross pay."""
    employee_taxes: Cents
    """Taxes withheld."""
    deductions: Cents
    """Pre- and post-tax deductions."""
    reimbursement: Cents
    """Untaxed reimbursement."""
    net_pay: Cents
    """Amount paid to the employee."""
    currency: Currency
    """Currency of the amounts."""
    payment_method: PaymentMethod
    """How the net pay was paid."""
    bank_account: AccountNumber | None = None
    """Account a direct deposit went to."""
    voided: bool = False
    """Whether the payroll was cancelled after processing and the stub voided."""


# -- pay periods and pay computation (shared by tools and the seeder) --------------------------


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def _period(sched: PaySchedule, k: int) -> tuple[dt.date, dt.date, dt.date]:
    """(start, end, check date) of the schedule's ``k``-th pay period (0 is the anchor period)."""
    anchor_end = sched.anchor_end_of_pay_period
    lag = sched.anchor_pay_date - anchor_end
    if sched.frequency in ("weekly", "biweekly"):
        length = 7 if sched.frequency == "weekly" else 14
        end = anchor_end + dt.timedelta(days=length * k)
        return end - dt.timedelta(days=length - 1), end, end + lag
    if sched.frequency == "monthly":
        m = anchor_end.year * 12 + anchor_end.month - 1 + k
        end = _month_end(m // 12, m % 12 + 1)
        return end.replace(day=1), end, end + lag
    half = 2 * (anchor_end.year * 12 + anchor_end.month - 1) + (0 if anchor_end.day <= 15 else 1) + k
    year, month = divmod(half // 2, 12)
    month += 1
    if half % 2 == 0:
        start, end = dt.date(year, month, 1), dt.date(year, month, 15)
    else:
        start, end = dt.date(year, month, 16), _month_end(year, month)
    return start, end, end + lag


def _next_period(sched: PaySchedule, after: dt.date) -> tuple[dt.date, dt.date, dt.date]:
    """The first pay period of the schedule that starts after ``after``."""
    for k in range(5000):
        start, end, check = _period(sched, k)
        if start > after:
            return start, end, check
    raise RuleViolation("the schedule has no pay period in range", hint="check the schedule's anchor dates")


def _bp(amount: int, bp: int) -> int:
    return (amount * bp + 5000) // 10000


@dataclass(frozen=True, slots=True)
class Paycheck:
    gross: int
    pre_tax: int
    employee_taxes: int
    employer_taxes: int
    post_tax: int
    net: int


def _paycheck(
    item: PayrollItem, emp: Employee, comp: Compensation, frequency: str, deductions: list[Deduction]
) -> Paycheck:
    gross = item.bonus
    if comp.payment_unit == "hour":
        gross += comp.rate * item.regular_hours + comp.rate * item.overtime_hours * 3 // 2
    elif item.salary_included:
        gross += comp.rate // PERIODS_PER_YEAR.get(frequency, 26)
    regular = item.salary_included
    pre = sum(d.amount_per_paycheck for d in deductions if d.active and d.pre_tax) if regular else 0
    post = sum(d.amount_per_paycheck for d in deductions if d.active and not d.pre_tax) if regular else 0
    taxable = max(0, gross - pre)
    income = _bp(taxable, INCOME_TAX_BP[emp.filing_status]) + (emp.extra_withholding if gross else 0)
    social = _bp(taxable, SOCIAL_SECURITY_BP) + _bp(taxable, MEDICARE_BP)
    employer = _bp(taxable, SOCIAL_SECURITY_BP) + _bp(taxable, MEDICARE_BP) + _bp(taxable, UNEMPLOYMENT_BP)
    net = gross - pre - income - social - post + item.reimbursement
    return Paycheck(gross, pre, income + social, employer, post, net)


# -- rules ----------------------------------------------------------------------------------


def _name(emp: Employee) -> str:
    return f"{emp.first_name} {emp.last_name}"


def _compensation_at(ctx: Ctx, employee_id: str, when: dt.date) -> Compensation | None:
    rows = [c for c in ctx.where(Compensation, employee_id=employee_id) if c.effective_date <= when]
    return max(rows, key=lambda c: (c.effective_date, c.id)) if rows else None


def _unprocessed_payroll(ctx: Ctx, payroll_id: str, field: str) -> Payroll:
    payroll = ctx.get(Payroll, payroll_id, field=field)
    if payroll.status not in UNPROCESSED:
        raise RuleViolation(
            f"payroll {payroll.payroll_number} is {payroll.status} and cannot change",
            field=field,
            hint="processed payrolls are final (run an off-cycle correction instead); cancelled ones are void",
        )
    return payroll


def _guard_schedule(ctx: Ctx, new: Any, old: Any) -> None:
    if new.anchor_pay_date < new.anchor_end_of_pay_period:
        raise RuleViolation(
            "the check date cannot come before the end of its pay period",
            field="anchor_pay_date",
            hint="pay on or after the last day of the pay period",
        )
    if old is not None and old.active and not new.active:
        staff = [e for e in ctx.where(Employee, pay_schedule_id=new.id) if not e.terminated]
        if staff:
            raise RuleViolation(
                f"{len(staff)} current employee(s) are paid on schedule {new.name}",
                field="active",
                hint="move them to another schedule with payroll__update_employee first",
            )


def _guard_employee(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.terminated:
        raise RuleViolation(
            f"employee {_name(old)} was terminated on {old.termination_date} and cannot change",
            field="employee_id",
            hint="terminated employees are read-only; pay them with an off-cycle payroll if needed",
        )
    if old is None or new.pay_schedule_id != old.pay_schedule_id:
        sched = ctx.get(PaySchedule, new.pay_schedule_id, field="pay_schedule_id")
        if not sched.active:
            raise RuleViolation(
                f"pay schedule {sched.name} is inactive", field="pay_schedule_id", hint="pick an active pay schedule"
            )
    if new.payment_method == "direct_deposit" and new.bank_account is None:
        raise RuleViolation(
            "direct deposit needs a bank account",
            field="bank_account",
            hint="give the bank_account or pay by check",
        )


def _guard_compensation(ctx: Ctx, new: Any, old: Any) -> None:
    emp = ctx.get(Employee, new.employee_id, field="employee_id")
    if emp.terminated:
        raise RuleViolation(
            f"employee {_name(emp)} has been terminated",
            field="employee_id",
            hint="compensation can only change for current employees",
        )
    if new.payment_unit == "hour" and new.flsa_status == "exempt":
        raise RuleViolation(
            "hourly employees cannot be exempt from overtime",
            field="flsa_status",
            hint="use flsa_status 'nonexempt' for hourly pay, or pay a yearly salary",
        )
    if new.effective_date < emp.hire_date:
        raise RuleViolation(
            f"the compensation takes effect before the hire date {emp.hire_date}",
            field="effective_date",
            hint="use a date on or after the hire date",
        )
    if any(c.id != new.id for c in ctx.where(Compensation, employee_id=emp.id, effective_date=new.effective_date)):
        raise Conflict(
            f"employee {_name(emp)} already has a compensation effective {new.effective_date}",
            field="effective_date",
            hint="use another effective date; list the employee's compensations to see them",
        )
    if new.rate == 0:
        raise RuleViolation("the pay rate must be above zero", field="rate", hint="give the rate in cents")


def _guard_deduction(ctx: Ctx, new: Any, old: Any) -> None:
    emp = ctx.get(Employee, new.employee_id, field="employee_id")
    if emp.terminated and (old is None or new.active):
        raise RuleViolation(
            f"employee {_name(emp)} has been terminated",
            field="employee_id",
            hint="only deactivate deductions of terminated employees",
        )
    if new.amount_per_paycheck == 0:
        raise RuleViolation(
            "a deduction must take a positive amount",
            field="amount_per_paycheck",
            hint="give the amount in cents, or deactivate the deduction",
        )


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    payroll = _unprocessed_payroll(ctx, new.payroll_id, "payroll_item_id")
    emp = ctx.get(Employee, new.employee_id)
    comp = _compensation_at(ctx, emp.id, payroll.pay_period_end)
    if new.overtime_hours and (comp is None or comp.flsa_status == "exempt"):
        raise RuleViolation(
            f"{_name(emp)} is exempt from overtime",
            field="overtime_hours",
            hint="only non-exempt (hourly) employees are paid overtime; pay a bonus instead",
        )
    if new.regular_hours and comp is not None and comp.payment_unit == "year":
        raise RuleViolation(
            f"{_name(emp)} is salaried; hours do not change their pay",
            field="regular_hours",
            hint="leave hours at 0 for salaried employees",
        )
    left = emp.termination_date if emp.terminated else None
    if not new.excluded and left is not None and payroll.pay_period_start > left and not payroll.off_cycle:
        raise RuleViolation(
            f"{_name(emp)} left on {left}, before this pay period",
            field="excluded",
            hint="pay a final paycheck with an off-cycle payroll instead",
        )
    if payroll.status == "calculated":
        ctx.update(payroll, status="open")


schedules = service.resource(
    PaySchedule,
    name="pay_schedule",
    plural="pay_schedules",
    prefix="psch",
    create=("name", "frequency", "anchor_end_of_pay_period", "anchor_pay_date"),
    filters=("frequency", "active"),
    search=("name",),
    update=("name", "active"),
    delete=False,
    guard_create=_guard_schedule,
    guard_update=_guard_schedule,
)
employees = service.resource(
    Employee,
    name="employee",
    plural="employees",
    prefix="pemp",
    create=(
        "first_name",
        "last_name",
        "email",
        "home_address",
        "department",
        "job_title",
        "hire_date",
        "pay_schedule_id",
        "filing_status",
        "payment_method",
        "bank_account",
    ),
    filters=("email", "pay_schedule_id", "terminated", "payment_method"),
    search=("first_name", "last_name", "email", "department", "job_title"),
    update=(
        "home_address",
        "department",
        "job_title",
        "pay_schedule_id",
        "filing_status",
        "extra_withholding",
        "payment_method",
        "bank_account",
    ),
    delete=False,
    unique=("email",),
    guard_create=_guard_employee,
    guard_update=_guard_employee,
)
compensations = service.resource(
    Compensation,
    name="compensation",
    plural="compensations",
    prefix="comp",
    create=("employee_id", "rate", "payment_unit", "flsa_status", "effective_date"),
    get=False,
    filters=("employee_id", "payment_unit"),
    delete=False,
    guard_create=_guard_compensation,
)
deductions = service.resource(
    Deduction,
    name="deduction",
    plural="deductions",
    prefix="ded",
    create=("employee_id", "name", "amount_per_paycheck", "pre_tax"),
    get=False,
    filters=("employee_id", "pre_tax", "active"),
    update=("name", "amount_per_paycheck", "active"),
    delete=False,
    guard_create=_guard_deduction,
    guard_update=_guard_deduction,
)
payrolls = service.resource(
    Payroll,
    name="payroll",
    plural="payrolls",
    prefix="pay",
    create=False,
    filters=("pay_schedule_id", "status", "off_cycle", "check_date", "payroll_number"),
    delete=False,
)
items = service.resource(
    PayrollItem,
    name="payroll_item",
    plural="payroll_items",
    prefix="pit",
    create=False,
    get=False,
    filters=("payroll_id", "employee_id", "excluded"),
    delete=False,
)
stubs = service.resource(
    PayStub,
    name="pay_stub",
    plural="pay_stubs",
    prefix="stub",
    create=False,
    filters=("payroll_id", "employee_id", "email", "check_date", "voided"),
    delete=False,
)


# -- examples -------------------------------------------------------------------------------


def _example_off_cycle(ctx: Ctx) -> dict[str, Any] | None:
    staff = [e.email for e in ctx.where(Employee, terminated=False)][:2]
    if not staff:
        return None
    when = ctx.today() + dt.timedelta(days=5)
    return {"reason": "bonus", "check_date": when.isoformat(), "employee_emails": staff, "bonus": 50_000}


def _example_item(ctx: Ctx) -> dict[str, Any] | None:
    for status in UNPROCESSED:
        for payroll in ctx.where(Payroll, status=status):
            for line in ctx.where(PayrollItem, payroll_id=payroll.id):
                return {"payroll_item_id": line.id, "bonus": 25_000}
    return None


def _example_terminate(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Employee, terminated=False)
    return None if e is None else {"employee_id": e.id, "termination_date": ctx.today().isoformat()}


# -- domain tools ---------------------------------------------------------------------------


def _add_items(ctx: Ctx, payroll: Payroll, staff: list[Employee], salary: bool, bonus: int) -> None:
    for emp in staff:
        comp = _compensation_at(ctx, emp.id, payroll.pay_period_end)
        hourly = comp is not None and comp.payment_unit == "hour"
        hours = 0
        if salary and hourly:
            hours = 8 * sum(
                1
                for d in range((payroll.pay_period_end - payroll.pay_period_start).days + 1)
                if (payroll.pay_period_start + dt.timedelta(days=d)).weekday() < 5
            )
        ctx.create(
            PayrollItem,
            payroll_id=payroll.id,
            employee_id=emp.id,
            salary_included=salary,
            regular_hours=hours,
            bonus=bonus,
        )


@service.tool(
    intent="start the next regular payroll of the pay schedule",
    write=True,
    example=first_example(
        PaySchedule,
        "pay_schedule_id",
        where={"active": True},
        match=lambda ctx, sched: not any(p.status in UNPROCESSED for p in ctx.where(Payroll, pay_schedule_id=sched.id)),
    ),
)
def create_payroll(ctx: Ctx, pay_schedule_id: ScheduleId) -> Payroll:
    """Open the regular payroll for the schedule's next pay period, with a line for each current employee on it.

    Hourly employees start with 8 regular hours per weekday of the period. Only
    one regular payroll per schedule may be unprocessed at a time.

    Args:
        pay_schedule_id: The pay schedule.
    """
    sched = ctx.get(PaySchedule, pay_schedule_id, field="pay_schedule_id")
    if not sched.active:
        raise RuleViolation(
            f"pay schedule {sched.name} is inactive", field="pay_schedule_id", hint="pick an active pay schedule"
        )
    existing = [p for p in ctx.where(Payroll, pay_schedule_id=sched.id) if p.status != "cancelled"]
    pending = next((p for p in existing if p.status in UNPROCESSED), None)
    if pending is not None:
        raise Conflict(
            f"payroll {pending.payroll_number} of this schedule is still {pending.status}",
            field="pay_schedule_id",
            hint="submit or cancel it first (payroll__submit_payroll / payroll__cancel_payroll)",
        )
    last_end = max((p.pay_period_end for p in existing), default=None)
    start, end, check = _next_period(sched, last_end or (ctx.today() - dt.timedelta(days=15)))
    staff = [
        e
        for e in ctx.where(Employee, pay_schedule_id=sched.id)
        if e.hire_date <= end and not (e.terminated and e.termination_date is not None and e.termination_date < start)
    ]
    if not staff:
        raise RuleViolation(
            f"nobody is paid on schedule {sched.name}",
            field="pay_schedule_id",
            hint="assign employees to the schedule first",
        )
    payroll = ctx.create(
        Payroll,
        pay_schedule_id=sched.id,
        pay_period_start=start,
        pay_period_end=end,
        check_date=check,
        currency=ctx.population.home.place.currency,
    )
    _add_items(ctx, payroll, staff, True, 0)
    return payroll


@service.tool(intent="run an off-cycle payroll", write=True, example=_example_off_cycle)
def create_off_cycle_payroll(
    ctx: Ctx,
    reason: OffCycleReason,
    check_date: Date,
    employee_emails: Annotated[list[Email], Field(min_length=1, max_length=50)],
    bonus: Cents = 0,
) -> Payroll:
    """Open an off-cycle payroll (a bonus, a correction or a final paycheck) for some employees.

    No salary is paid on an off-cycle payroll; each line carries the given bonus,
    and hours or reimbursements can be added with payroll__update_payroll_item.
    Only a 'termination' payroll may pay terminated employees.

    Args:
        reason: bonus, correction or termination.
        check_date: Pay day; today or later.
        employee_emails: Work e-mails of the employees to pay.
        bonus: Bonus per employee in cents.
    """
    if check_date < ctx.today():
        raise RuleViolation("the check date is in the past", field="check_date", hint="pay today or later")
    if reason == "bonus" and bonus == 0:
        raise RuleViolation("a bonus payroll needs a bonus amount", field="bonus", hint="give the bonus in cents")
    staff: list[Employee] = []
    for k, email in enumerate(dict.fromkeys(employee_emails)):
        emp = ctx.first(Employee, email=email)
        if emp is None:
            raise RuleViolation(
                f"nobody on the payroll has the e-mail {email}",
                field=f"employee_emails.{k}",
                hint="list employees with payroll__list_employees to find their e-mails",
            )
        if emp.terminated and reason != "termination":
            raise RuleViolation(
                f"{_name(emp)} has been terminated",
                field=f"employee_emails.{k}",
                hint="terminated employees are only paid on a 'termination' off-cycle payroll",
            )
        staff.append(emp)
    payroll = ctx.create(
        Payroll,
        off_cycle=True,
        off_cycle_reason=reason,
        pay_period_start=check_date,
        pay_period_end=check_date,
        check_date=check_date,
        currency=ctx.population.home.place.currency,
    )
    _add_items(ctx, payroll, staff, False, bonus)
    return payroll


@service.tool(
    intent="calculate the payroll",
    write=True,
    idempotent=True,
    example=first_example(Payroll, "payroll_id", where={"status": "open"}),
)
def calculate_payroll(ctx: Ctx, payroll_id: PayrollId) -> Payroll:
    """Compute every included line's gross pay, deductions, taxes and net pay, and the payroll's totals.

    Gross pay is the period's share of the yearly salary, or hours times the
    hourly rate (overtime at 1.5x), plus any bonus; deductions apply to regular
    payrolls only. A line whose net pay would be negative is refused.

    Args:
        payroll_id: The open payroll.
    """
    payroll = _unprocessed_payroll(ctx, payroll_id, "payroll_id")
    lines = [i for i in ctx.where(PayrollItem, payroll_id=payroll.id) if not i.excluded]
    if not lines:
        raise RuleViolation(
            f"payroll {payroll.payroll_number} pays nobody",
            field="payroll_id",
            hint="include at least one employee (set excluded to false on a line) or cancel the payroll",
        )
    sched = ctx.find(PaySchedule, payroll.pay_schedule_id) if payroll.pay_schedule_id else None
    frequency = sched.frequency if sched else "biweekly"
    totals = dict.fromkeys(("gross", "ee", "er", "ded", "reimb", "net"), 0)
    for line in lines:
        emp = ctx.get(Employee, line.employee_id)
        comp = _compensation_at(ctx, emp.id, payroll.pay_period_end)
        if comp is None:
            raise RuleViolation(
                f"{_name(emp)} has no compensation in effect on {payroll.pay_period_end}",
                field="payroll_id",
                hint="add one with payroll__create_compensation or exclude the employee's line",
            )
        pay = _paycheck(line, emp, comp, frequency, ctx.where(Deduction, employee_id=emp.id))
        if pay.net < 0:
            raise RuleViolation(
                f"net pay of {_name(emp)} would be negative ({pay.net})",
                field="payroll_id",
                hint="lower or deactivate the employee's deductions, or exclude the line",
            )
        ctx.update(
            line,
            gross_pay=pay.gross,
            pre_tax_deductions=pay.pre_tax,
            employee_taxes=pay.employee_taxes,
            employer_taxes=pay.employer_taxes,
            post_tax_deductions=pay.post_tax,
            net_pay=pay.net,
        )
        for key, value in (
            ("gross", pay.gross),
            ("ee", pay.employee_taxes),
            ("er", pay.employer_taxes),
            ("ded", pay.pre_tax + pay.post_tax),
            ("reimb", line.reimbursement),
            ("net", pay.net),
        ):
            totals[key] += value
    return ctx.update(
        payroll,
        status="calculated",
        gross_pay=totals["gross"],
        employee_taxes=totals["ee"],
        employer_taxes=totals["er"],
        deductions=totals["ded"],
        reimbursements=totals["reimb"],
        net_pay=totals["net"],
        company_debit=totals["gross"] + totals["er"] + totals["reimb"],
    )


@service.tool(
    intent="submit the payroll for payment",
    write=True,
    example=first_example(Payroll, "payroll_id", where={"status": "calculated"}),
)
def submit_payroll(ctx: Ctx, payroll_id: PayrollId) -> Payroll:
    """Submit a calculated payroll: it becomes final and every included employee gets a pay stub.

    A payroll paying anyone by direct deposit must be submitted at least two days
    before its check date.

    Args:
        payroll_id: The calculated payroll.
    """
    payroll = ctx.get(Payroll, payroll_id, field="payroll_id")
    if payroll.status == "processed":
        raise Conflict(
            f"payroll {payroll.payroll_number} was already submitted",
            field="payroll_id",
            hint="find its pay stubs with payroll__list_pay_stubs",
        )
    if payroll.status != "calculated":
        raise RuleViolation(
            f"payroll {payroll.payroll_number} is {payroll.status}, not calculated",
            field="payroll_id",
            hint="calculate it with payroll__calculate_payroll first"
            if payroll.status == "open"
            else "cancelled payrolls cannot be submitted; create a new one",
        )
    lines = [i for i in ctx.where(PayrollItem, payroll_id=payroll.id) if not i.excluded]
    staff = {i.employee_id: ctx.get(Employee, i.employee_id) for i in lines}
    deposit = any(e.payment_method == "direct_deposit" for e in staff.values())
    deadline = payroll.check_date - dt.timedelta(days=DIRECT_DEPOSIT_LEAD_DAYS)
    if deposit and ctx.today() > deadline:
        raise RuleViolation(
            f"direct deposits for check date {payroll.check_date} had to be submitted by {deadline}",
            field="payroll_id",
            hint="cancel this payroll and run an off-cycle payroll with a later check date",
        )
    for line in lines:
        emp = staff[line.employee_id]
        ctx.create(
            PayStub,
            payroll_id=payroll.id,
            employee_id=emp.id,
            employee_name=_name(emp),
            email=emp.email,
            check_date=payroll.check_date,
            pay_period_start=payroll.pay_period_start,
            pay_period_end=payroll.pay_period_end,
            gross_pay=line.gross_pay,
            employee_taxes=line.employee_taxes,
            deductions=line.pre_tax_deductions + line.post_tax_deductions,
            reimbursement=line.reimbursement,
            net_pay=line.net_pay,
            currency=payroll.currency,
            payment_method=emp.payment_method,
            bank_account=emp.bank_account if emp.payment_method == "direct_deposit" else None,
        )
    return ctx.update(payroll, status="processed", processed_at=ctx.now())


def _example_cancel(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Payroll, status="open") or ctx.first(Payroll, status="calculated")
    return None if p is None else {"payroll_id": p.id}


@service.tool(intent="cancel the payroll", write=True, destructive=True, example=_example_cancel)
def cancel_payroll(ctx: Ctx, payroll_id: PayrollId) -> Payroll:
    """Cancel a payroll that has not been paid; a processed one only until two days before its check date.

    Cancelling a processed payroll voids its pay stubs.

    Args:
        payroll_id: The payroll.
    """
    payroll = ctx.get(Payroll, payroll_id, field="payroll_id")
    if payroll.status == "cancelled":
        raise Conflict(
            f"payroll {payroll.payroll_number} is already cancelled",
            field="payroll_id",
            hint="nothing to do; list payrolls to find the current one",
        )
    if payroll.status == "processed":
        deadline = payroll.check_date - dt.timedelta(days=DIRECT_DEPOSIT_LEAD_DAYS)
        if ctx.today() > deadline:
            raise RuleViolation(
                f"payroll {payroll.payroll_number} has been paid (check date {payroll.check_date})",
                field="payroll_id",
                hint="paid payrolls are final; fix mistakes with an off-cycle 'correction' payroll",
            )
        for stub in ctx.where(PayStub, payroll_id=payroll.id):
            ctx.update(stub, voided=True)
    return ctx.update(payroll, status="cancelled")


@service.tool(intent="terminate the employee on the payroll", write=True, destructive=True, example=_example_terminate)
def terminate_employee(ctx: Ctx, employee_id: EmployeeId, termination_date: Date) -> Employee:
    """Record an employee's last day; they are excluded from unprocessed payrolls whose period starts later.

    Args:
        employee_id: The employee.
        termination_date: Last day of employment.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    if emp.terminated:
        raise Conflict(
            f"{_name(emp)} was already terminated on {emp.termination_date}",
            field="employee_id",
            hint="nothing to do; terminated employees are read-only",
        )
    if termination_date < emp.hire_date:
        raise RuleViolation(
            f"the termination date is before the hire date {emp.hire_date}",
            field="termination_date",
            hint="give the employee's last working day",
        )
    for line in ctx.where(PayrollItem, employee_id=emp.id):
        payroll = ctx.get(Payroll, line.payroll_id)
        if payroll.status in UNPROCESSED and not payroll.off_cycle and payroll.pay_period_start > termination_date:
            ctx.update(line, excluded=True)
            if payroll.status == "calculated":
                ctx.update(payroll, status="open")
    for ded in ctx.where(Deduction, employee_id=emp.id, active=True):
        ctx.update(ded, active=False)
    return ctx.update(emp, terminated=True, termination_date=termination_date)


@service.tool(intent="change the employee's line on the payroll", write=True, idempotent=True, example=_example_item)
def update_payroll_item(
    ctx: Ctx,
    payroll_item_id: ItemId,
    regular_hours: Quantity | None = None,
    overtime_hours: Quantity | None = None,
    bonus: Cents | None = None,
    reimbursement: Cents | None = None,
    excluded: bool | None = None,
) -> PayrollItem:
    """Change hours, bonus, reimbursement or exclusion of one line of an unprocessed payroll.

    A calculated payroll goes back to open and must be calculated again.
    Overtime is only paid to non-exempt employees, and hours only change the
    pay of hourly employees.

    Args:
        payroll_item_id: The payroll line.
        regular_hours: Regular hours worked; omit to keep.
        overtime_hours: Overtime hours (non-exempt only); omit to keep.
        bonus: Bonus in cents; omit to keep.
        reimbursement: Untaxed reimbursement in cents; omit to keep.
        excluded: Whether to skip the employee on this payroll; omit to keep.
    """
    line = ctx.get(PayrollItem, payroll_item_id, field="payroll_item_id")
    changes = {
        k: v
        for k, v in (
            ("regular_hours", regular_hours),
            ("overtime_hours", overtime_hours),
            ("bonus", bonus),
            ("reimbursement", reimbursement),
            ("excluded", excluded),
        )
        if v is not None
    }
    if not changes:
        raise RuleViolation(
            f"nothing to change on payroll line {line.id}",
            hint="pass at least one of regular_hours, overtime_hours, bonus, reimbursement, excluded",
        )
    new = ctx.update(line, **changes)
    _guard_item(ctx, new, line)
    return new


class PaycheckPreview(BaseModel):
    """What one regular paycheck of an employee comes to under their current pay."""

    employee_id: EmployeeId = Field(description="The employee.")
    employee_name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work e-mail.")
    frequency: Frequency = Field(description="Pay frequency of the employee's schedule.")
    gross_pay: Cents = Field(description="Gross pay of a regular paycheck (8 hours per weekday for hourly staff).")
    employee_taxes: Cents = Field(description="Taxes withheld.")
    deductions: Cents = Field(description="Active deductions.")
    net_pay: Cents = Field(description="Take-home pay.")
    currency: Currency = Field(description="Currency of the amounts.")


@service.tool(
    intent="preview the employee's regular paycheck",
    example=first_example(Employee, "employee_id", where={"terminated": False}),
)
def preview_paycheck(ctx: Ctx, employee_id: EmployeeId) -> PaycheckPreview:
    """Compute a regular paycheck for the employee's current compensation, withholding and deductions.

    Args:
        employee_id: The employee.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    comp = _compensation_at(ctx, emp.id, ctx.today())
    if comp is None:
        raise RuleViolation(
            f"{_name(emp)} has no compensation in effect",
            field="employee_id",
            hint="add one with payroll__create_compensation",
        )
    sched = ctx.get(PaySchedule, emp.pay_schedule_id)
    hours = {"weekly": 40, "biweekly": 80, "semimonthly": 88, "monthly": 176}[sched.frequency]
    line = PayrollItem(
        id="pit_preview",
        payroll_id="pay_preview",
        employee_id=emp.id,
        regular_hours=hours if comp.payment_unit == "hour" else 0,
    )
    pay = _paycheck(line, emp, comp, sched.frequency, ctx.where(Deduction, employee_id=emp.id))
    return PaycheckPreview(
        employee_id=emp.id,
        employee_name=_name(emp),
        email=emp.email,
        frequency=sched.frequency,
        gross_pay=pay.gross,
        employee_taxes=pay.employee_taxes,
        deductions=pay.pre_tax + pay.post_tax,
        net_pay=max(0, pay.net),
        currency=ctx.population.home.place.currency,
    )


# -- seed -----------------------------------------------------------------------------------

HOURLY_DEPARTMENTS = ("Support", "Operations")
SEMIMONTHLY_DEPARTMENTS = ("Sales", "Finance", "People")
BASE_SALARY = {
    "Engineering": 98_000,
    "Sales": 72_000,
    "Finance": 76_000,
    "People": 68_000,
    "Marketing": 70_000,
    "Support": 0,
    "Operations": 0,
}


@dataclass(frozen=True, slots=True)
class _Staff:
    """The seeded employees, with each one's current compensation and deductions by employee id."""

    employees: list[Employee]
    pay: dict[str, Compensation]
    deductions: dict[str, list[Deduction]]


@service.seeder
def seed(s: SeedContext) -> None:
    """Pay schedules, the home staff with pay and deductions, paid payroll history and the upcoming payrolls."""
    biweekly, semimonthly = _seed_schedules(s)
    staff = _seed_staff(s, biweekly, semimonthly)
    # Biweekly: periods 1-3 paid; the payroll of period 4 (check date this Friday) is not started yet.
    for k in (1, 2, 3):
        _seed_payroll(s, staff, biweekly, k, "processed")
    # Semimonthly: January and the first half of February paid, the second half submitted early
    # (still cancellable), the first half of March calculated and ready to submit.
    for k in (0, 1, 2, 3):
        _seed_payroll(s, staff, semimonthly, k, "processed")
    _seed_payroll(s, staff, semimonthly, 4, "calculated")
    _seed_payroll(s, staff, None, 12, "processed", "bonus")
    _seed_payroll(s, staff, None, -6, "open", "correction")


def _seed_schedules(s: SeedContext) -> tuple[PaySchedule, PaySchedule]:
    """The biweekly and semimonthly schedules staff are paid on, and a retired weekly one."""
    biweekly = s.create(
        PaySchedule,
        name="Biweekly staff",
        frequency="biweekly",
        anchor_end_of_pay_period=dt.date(2026, 1, 4),
        anchor_pay_date=dt.date(2026, 1, 9),
    )
    semimonthly = s.create(
        PaySchedule,
        name="Semimonthly salaried",
        frequency="semimonthly",
        anchor_end_of_pay_period=dt.date(2026, 1, 15),
        anchor_pay_date=dt.date(2026, 1, 20),
    )
    s.create(
        PaySchedule,
        name="Weekly seasonal (retired)",
        frequency="weekly",
        anchor_end_of_pay_period=dt.date(2024, 6, 2),
        anchor_pay_date=dt.date(2024, 6, 7),
        active=False,
    )
    return biweekly, semimonthly


def _seed_staff(s: SeedContext, biweekly: PaySchedule, semimonthly: PaySchedule) -> _Staff:
    """Every employee of the home company (two of them leavers), each followed by their pay and deductions."""
    today = s.now.date()
    people = list(s.population.employees)
    leavers = {people[k].key for k in (5, 23) if k < len(people)}
    staff = _Staff([], {}, {})
    for i, p in enumerate(people):
        dept = department_of(p)
        sched = semimonthly if dept in SEMIMONTHLY_DEPARTMENTS else biweekly
        deposit = i % 7 != 3
        leaving = p.key in leavers
        emp = s.create(
            Employee,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            home_address=p.address,
            department=dept,
            job_title=p.job_title,
            hire_date=p.hire_date or today - dt.timedelta(days=400),
            pay_schedule_id=sched.id,
            filing_status=("single", "married", "single", "head_of_household")[i % 4],
            extra_withholding=2_500 if i % 9 == 4 else 0,
            payment_method="direct_deposit" if deposit else "check",
            bank_account=f"US{40 + i:02d}PAYS{1000 + i * 37:06d}" if deposit else None,
            terminated=leaving,
            termination_date=today - dt.timedelta(days=20 + i % 10) if leaving else None,
        )
        staff.employees.append(emp)
        staff.pay[emp.id] = _seed_compensation(s, i, emp)
        staff.deductions[emp.id] = _seed_deductions(s, i, emp)
    return staff


def _seed_compensation(s: SeedContext, i: int, emp: Employee) -> Compensation:
    """Hourly pay for support and operations, else a salary, raised after a year for most; return the current."""
    rng = s.rng
    if emp.department in HOURLY_DEPARTMENTS:
        rate = (24 + rng.randint(0, 14)) * 100 + rng.choice((0, 25, 50, 75))
        if any(w in emp.job_title for w in ("Manager", "Lead")):
            rate += 900
        return s.create(
            Compensation,
            employee_id=emp.id,
            rate=rate,
            payment_unit="hour",
            flsa_status="nonexempt",
            effective_date=emp.hire_date,
        )
    base = BASE_SALARY.get(emp.department, 65_000) + rng.randint(-5, 15) * 1_000
    if any(w in emp.job_title for w in ("Manager", "Controller", "Lead", "Senior")):
        base += 18_000
    current = s.create(
        Compensation,
        employee_id=emp.id,
        rate=base * 100,
        payment_unit="year",
        flsa_status="exempt",
        effective_date=emp.hire_date,
    )
    raise_on = emp.hire_date + dt.timedelta(days=365)
    if raise_on < s.now.date() - dt.timedelta(days=90) and i % 3 != 2:
        current = s.create(
            Compensation,
            employee_id=emp.id,
            rate=base * 100 * (104 + i % 5) // 100,
            payment_unit="year",
            flsa_status="exempt",
            effective_date=raise_on,
        )
    return current


def _seed_deductions(s: SeedContext, i: int, emp: Employee) -> list[Deduction]:
    """Retirement, medical and charity deductions (stopped for leavers) and, for some, a stopped gym one.

    Returns:
        The employee's deductions other than the gym one.
    """
    active = not emp.terminated
    plans = (
        (i % 2 == 0, "401(k) retirement", (150 + 25 * (i % 6)) * 100, True),
        (i % 3 == 0, "Medical premium", 8_600, True),
        (i % 11 == 5, "Charitable giving", 2_000, False),
    )
    mine = [
        s.create(Deduction, employee_id=emp.id, name=name, amount_per_paycheck=amount, pre_tax=pre_tax, active=active)
        for applies, name, amount, pre_tax in plans
        if applies
    ]
    if i % 13 == 7:
        s.create(
            Deduction,
            employee_id=emp.id,
            name="Gym membership",
            amount_per_paycheck=3_000,
            pre_tax=False,
            active=False,
        )
    return mine


def _seed_payroll(
    s: SeedContext,
    staff: _Staff,
    sched: PaySchedule | None,
    k: int,
    status: PayrollStatus,
    reason: OffCycleReason | None = None,
) -> None:
    """A payroll in ``status``: the ``k``-th of a schedule, or an off-cycle one checked ``k`` days ago.

    Calculated payrolls have their pay worked out; processed (and cancelled)
    ones also have pay stubs.
    """
    start, end, check, frequency, paid = _payroll_period(s, staff, sched, k, reason)
    payroll = s.create(
        Payroll,
        pay_schedule_id=sched.id if sched else None,
        off_cycle=sched is None,
        off_cycle_reason=reason,
        pay_period_start=start,
        pay_period_end=end,
        check_date=check,
        status=status,
        currency=s.population.home.place.currency,
        processed_at=None if status != "processed" else s.ago(days=max(1, (s.now.date() - check).days + 3)),
    )
    totals = dict.fromkeys(("gross", "ee", "er", "ded", "reimb", "net"), 0)
    for e in paid:
        comp = staff.pay[e.id]
        line = _seed_payroll_item(s, payroll, e, comp, reason)
        if status == "open":
            continue
        pay = _paycheck(line, e, comp, frequency, staff.deductions[e.id])
        line = s.update(
            line,
            gross_pay=pay.gross,
            pre_tax_deductions=pay.pre_tax,
            employee_taxes=pay.employee_taxes,
            employer_taxes=pay.employer_taxes,
            post_tax_deductions=pay.post_tax,
            net_pay=pay.net,
        )
        for key, value in (
            ("gross", pay.gross),
            ("ee", pay.employee_taxes),
            ("er", pay.employer_taxes),
            ("ded", pay.pre_tax + pay.post_tax),
            ("reimb", line.reimbursement),
            ("net", pay.net),
        ):
            totals[key] += value
        if status in ("processed", "cancelled"):
            _seed_pay_stub(s, payroll, e, line, pay)
    if status != "open":
        s.update(
            payroll,
            gross_pay=totals["gross"],
            employee_taxes=totals["ee"],
            employer_taxes=totals["er"],
            deductions=totals["ded"],
            reimbursements=totals["reimb"],
            net_pay=totals["net"],
            company_debit=totals["gross"] + totals["er"] + totals["reimb"],
        )


def _payroll_period(
    s: SeedContext, staff: _Staff, sched: PaySchedule | None, k: int, reason: OffCycleReason | None
) -> tuple[dt.date, dt.date, dt.date, str, list[Employee]]:
    """(start, end, check date, pay frequency, employees paid) of a seeded payroll (see :func:`_seed_payroll`).

    A bonus run pays every sixth employee; a correction pays the first hourly one.
    """
    if sched is not None:
        start, end, check = _period(sched, k)
        paid = [
            e
            for e in staff.employees
            if e.pay_schedule_id == sched.id
            and e.hire_date <= end
            and not (e.terminated and e.termination_date is not None and e.termination_date < start)
        ]
        return start, end, check, sched.frequency, paid
    check = s.now.date() - dt.timedelta(days=k)
    if reason == "bonus":
        paid = [e for j, e in enumerate(staff.employees) if not e.terminated and j % 6 == 1]
    else:
        paid = [e for e in staff.employees if not e.terminated and staff.pay[e.id].payment_unit == "hour"][:1]
    return check, check, check, "biweekly", paid


def _seed_payroll_item(
    s: SeedContext, payroll: Payroll, e: Employee, comp: Compensation, reason: OffCycleReason | None
) -> PayrollItem:
    """An employee's line on a payroll: hours worked (hourly staff), overtime and expenses on regular payrolls."""
    rng = s.rng
    regular = not payroll.off_cycle
    start, end = payroll.pay_period_start, payroll.pay_period_end
    hours = 0
    if comp.payment_unit == "hour" and regular:
        workdays = sum(1 for d in range((end - start).days + 1) if (start + dt.timedelta(days=d)).weekday() < 5)
        hours = 8 * workdays - rng.choice((0, 0, 0, 4, 8))
    elif reason == "correction":
        hours = 6  # hours missed on the last regular payroll
    return s.create(
        PayrollItem,
        payroll_id=payroll.id,
        employee_id=e.id,
        salary_included=regular,
        regular_hours=hours,
        overtime_hours=rng.choice((0, 0, 0, 2, 5)) if comp.payment_unit == "hour" and regular else 0,
        bonus=0 if regular or reason != "bonus" else 100_000,
        reimbursement=rng.choice((0, 0, 0, 0, 4_250, 12_800)) if regular else 0,
    )


def _seed_pay_stub(s: SeedContext, payroll: Payroll, e: Employee, line: PayrollItem, pay: Paycheck) -> None:
    """The employee's pay stub of a processed payroll; a cancelled payroll's stubs are void."""
    s.create(
        PayStub,
        payroll_id=payroll.id,
        employee_id=e.id,
        employee_name=_name(e),
        email=e.email,
        check_date=payroll.check_date,
        pay_period_start=payroll.pay_period_start,
        pay_period_end=payroll.pay_period_end,
        gross_pay=pay.gross,
        employee_taxes=pay.employee_taxes,
        deductions=pay.pre_tax + pay.post_tax,
        reimbursement=line.reimbursement,
        net_pay=pay.net,
        currency=payroll.currency,
        payment_method=e.payment_method,
        bank_account=e.bank_account if e.payment_method == "direct_deposit" else None,
        voided=payroll.status == "cancelled",
    )
