"""Tallyspend Expenses: expense policies, employee expense reports, entries, approvals and reimbursements.

Modeled on the SAP Concur Expense API v4 / Expensify Integration Server
(Policy, Report, Expense entry, Approval workflow, Reimbursement): an empty
report cannot be submitted, entries above their category's policy limit need a
justification and entries above the receipt threshold need a receipt, only the
submitter's manager decides a report, and a reimbursed report is final.
"""

from __future__ import annotations

import datetime as dt
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
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    FileLink,
    IdOf,
    PersonName,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value
from compoworld.world.org import department_of, org_chart

__all__ = ["service"]

service = Service(
    "expenses",
    title="Tallyspend Expenses",
    category="expenses",
    modeled_on="SAP Concur Expense API v4 / Expensify Integration Server (Policy, Report, Entry, Approval, "
    "Reimbursement)",
    description="Employee spend management: expense policies with category limits and receipt rules, expense "
    "reports with their entries, manager approval and reimbursement.",
)

PolicyId = Annotated[str, IdOf("expenses.policy")]
EmployeeId = Annotated[str, IdOf("expenses.employee")]
ReportId = Annotated[str, IdOf("expenses.report")]
ExpenseId = Annotated[str, IdOf("expenses.expense")]
ReimbursementId = Annotated[str, IdOf("expenses.reimbursement")]
Category = Literal["airfare", "lodging", "meals", "ground_transport", "office_supplies", "software", "other"]
ReportStatus = Literal["draft", "submitted", "approved", "returned", "reimbursed"]
EDITABLE: tuple[str, ...] = ("draft", "returned")


class CategoryLimit(Value):
    """The most one entry of a category may cost without a justification."""

    category: Category = Field(description="Expense category.")
    limit: Cents = Field(description="Per-entry limit in cents; above it an entry needs a justification.")


class Policy(Record):
    """An expense policy: the rules that apply to reports of the employees assigned to it."""

    id: PolicyId
    name: Title
    """Policy name."""
    currency: Currency
    """Reimbursement currency; entries must be in it."""
    receipt_required_over: Cents = 7500
    """Entries above this amount (cents) need a receipt."""
    limits: list[CategoryLimit] = Field(default_factory=list, max_length=7)
    """Per-entry limits by category; categories not listed have no limit."""
    active: bool = True
    """Inactive policies cannot be assigned to employees."""


class Employee(Record):
    """An employee's expense profile: who they are, their manager and their policy."""

    id: EmployeeId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail address (login)."""
    department: Text = ""
    """Department, free text."""
    manager_email: Email | None = None
    """E-mail of the employee's manager, who approves their reports; null at the top."""
    policy_id: PolicyId
    """The expense policy that applies to the employee."""
    reimbursement_account: AccountNumber
    """Bank account reimbursements are paid to."""
    active: bool = True
    """Inactive employees cannot create reports."""


class Report(Record):
    """An expense report: entries an employee submits together for approval and reimbursement."""

    id: ReportId
    report_number: Annotated[str, Generated("sequence", "ER-{n:05d}")]
    """Human report number."""
    employee_id: EmployeeId
    """The submitter."""
    title: Title
    """Report name (e.g. the trip)."""
    purpose: Text = ""
    """Business purpose."""
    status: ReportStatus = "draft"
    """draft/returned are editable; submitted awaits the manager; reimbursed is final."""
    currency: Currency
    """Currency of the report (the policy's)."""
    total: Cents = 0
    """Sum of the report's entries in cents."""
    submitted_at: DateTime | None = None
    """When it was last submitted."""
    approver_email: Email | None = None
    """Who approved or returned it."""
    decision_comment: Text | None = None
    """The approver's comment."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Expense(Created):
    """One expense entry on a report."""

    id: ExpenseId
    report_id: ReportId
    """The report the entry is on."""
    date: Date
    """Transaction date."""
    merchant: CompanyName
    """Where the money was spent."""
    category: Category
    """Expense category."""
    amount: Cents
    """Amount in cents."""
    currency: Currency
    """Currency of the amount (the policy's)."""
    description: Text = ""
    """What it was for."""
    receipt_url: FileLink | None = None
    """Link to the receipt image."""
    justification: Text | None = None
    """Why an entry above the policy limit was necessary."""


class Reimbursement(Record):
    """A payment of an approved report to the employee."""

    id: ReimbursementId
    report_id: ReportId
    """The reimbursed report."""
    employee_id: EmployeeId
    """The employee paid."""
    amount: Cents
    """Amount paid in cents."""
    currency: Currency
    """Currency of the payment."""
    method: Literal["ach", "payroll", "check"]
    """How it was paid."""
    account_number: AccountNumber
    """Account paid to."""
    paid_at: Annotated[DateTime, CREATED]
    """When it was paid."""


def _editable_report(ctx: Ctx, report_id: str, field: str) -> Report:
    report = ctx.get(Report, report_id, field=field)
    if report.status not in EDITABLE:
        raise RuleViolation(
            f"report {report.report_number} is {report.status}; only draft or returned reports can change",
            field=field,
            hint="reimbursed reports are final; a submitted report must be returned by the approver first",
        )
    return report


def _retotal(ctx: Ctx, report_id: str) -> None:
    report = ctx.get(Report, report_id)
    ctx.update(report, total=sum(e.amount for e in ctx.where(Expense, report_id=report_id)))


def _guard_expense(ctx: Ctx, new: Any, old: Any) -> None:
    rec = new or old
    report = _editable_report(ctx, rec.report_id, "report_id" if old is None else "expense_id")
    if new is not None:
        if old is not None and old.report_id != new.report_id:
            _editable_report(ctx, old.report_id, "expense_id")
        if new.currency != report.currency:
            raise RuleViolation(
                f"the entry is in {new.currency} but the report is in {report.currency}",
                field="currency",
                hint=f"convert the amount to {report.currency}",
            )
        if new.date > ctx.today():
            raise RuleViolation("an expense cannot be dated in the future", field="date", hint="use the receipt date")
        _retotal(ctx, new.report_id)
        if old is not None and old.report_id != new.report_id:
            _retotal(ctx, old.report_id)


def _guard_expense_delete(ctx: Ctx, new: Any, old: Any) -> None:
    report = _editable_report(ctx, old.report_id, "expense_id")
    ctx.update(report, total=max(0, report.total - old.amount))


def _guard_report(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        emp = ctx.get(Employee, new.employee_id, field="employee_id")
        if not emp.active:
            raise RuleViolation(
                f"employee {emp.email} is inactive", field="employee_id", hint="only active employees file reports"
            )
        policy = ctx.get(Policy, emp.policy_id)
        if new.currency != policy.currency:
            raise RuleViolation(
                f"the employee's policy reimburses in {policy.currency}",
                field="currency",
                hint=f"create the report in {policy.currency}",
            )
    elif old.status not in EDITABLE:
        raise RuleViolation(
            f"report {old.report_number} is {old.status} and cannot be edited",
            field="report_id",
            hint="only draft or returned reports can change",
        )


def _guard_report_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status not in EDITABLE:
        raise RuleViolation(
            f"report {old.report_number} is {old.status} and cannot be deleted",
            field="report_id",
            hint="only draft or returned reports can be deleted",
        )
    for e in ctx.where(Expense, report_id=old.id):
        ctx.delete(e)


def _guard_employee(ctx: Ctx, new: Any, old: Any) -> None:
    if new.manager_email is not None and new.manager_email == new.email:
        raise RuleViolation(
            "an employee cannot be their own manager", field="manager_email", hint="give someone else's e-mail"
        )
    if old is None or new.policy_id != old.policy_id:
        policy = ctx.get(Policy, new.policy_id, field="policy_id")
        if not policy.active:
            raise RuleViolation(f"policy {policy.name} is inactive", field="policy_id", hint="assign an active policy")


def _guard_policy(ctx: Ctx, new: Any, old: Any) -> None:
    cats = [lim.category for lim in new.limits]
    if len(set(cats)) != len(cats):
        raise RuleViolation("a category is limited twice", field="limits", hint="give each category one limit")
    if old is not None and old.currency != new.currency:
        raise RuleViolation("a policy's currency cannot change", field="currency", hint="create a new policy")
    deactivating = old is not None and old.active and not new.active
    if deactivating and ctx.first(Employee, policy_id=new.id, active=True) is not None:
        raise RuleViolation(
            f"active employees are assigned to policy {new.name}",
            field="active",
            hint="move them to another policy first",
        )


policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=("name", "currency", "receipt_required_over", "limits"),
    filters=("active", "currency"),
    search=("name",),
    update=("name", "receipt_required_over", "limits", "active"),
    delete=False,
    guard_create=_guard_policy,
    guard_update=_guard_policy,
)
employees = service.resource(
    Employee,
    name="employee",
    plural="employees",
    prefix="emp",
    create=False,
    filters=("email", "manager_email", "policy_id", "active"),
    search=("name", "email", "department"),
    update=("manager_email", "policy_id", "reimbursement_account", "active"),
    delete=False,
    unique=("email",),
    guard_update=_guard_employee,
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rpt",
    create=("employee_id", "title", "purpose", "currency"),
    filters=("employee_id", "status", "approver_email", "report_number"),
    search=("title", "purpose", "report_number"),
    update=("title", "purpose"),
    guard_create=_guard_report,
    guard_update=_guard_report,
    guard_delete=_guard_report_delete,
)
expenses = service.resource(
    Expense,
    name="expense",
    plural="expenses",
    prefix="exp",
    create=("report_id", "date", "merchant", "category", "amount", "currency", "description", "receipt_url"),
    filters=("report_id", "category", "merchant", "date"),
    search=("merchant", "description"),
    update=("date", "merchant", "category", "amount", "description", "justification"),
    guard_create=_guard_expense,
    guard_update=_guard_expense,
    guard_delete=_guard_expense_delete,
)
reimbursements = service.resource(
    Reimbursement,
    name="reimbursement",
    plural="reimbursements",
    prefix="rmb",
    create=False,
    filters=("report_id", "employee_id", "method"),
    delete=False,
)


class Violation(BaseModel):
    """One policy problem of one entry."""

    expense_id: ExpenseId = Field(description="The entry at fault.")
    rule: Literal["over_limit_without_justification", "missing_receipt"] = Field(description="The rule broken.")
    message: str = Field(description="What is wrong and how to fix it.")


class Audit(BaseModel):
    """A report checked against its policy."""

    report_id: ReportId = Field(description="The report.")
    total: Cents = Field(description="Report total in cents.")
    entries: int = Field(description="Number of entries.")
    violations: list[Violation] = Field(description="Problems that block submission.")
    submittable: bool = Field(description="Whether the report can be submitted now.")


def _audit(ctx: Ctx, report: Report) -> Audit:
    emp = ctx.get(Employee, report.employee_id)
    policy = ctx.get(Policy, emp.policy_id)
    limits = {lim.category: lim.limit for lim in policy.limits}
    entries = ctx.where(Expense, report_id=report.id)
    problems: list[Violation] = []
    for e in entries:
        limit = limits.get(e.category)
        if limit is not None and e.amount > limit and not (e.justification or "").strip():
            problems.append(
                Violation(
                    expense_id=e.id,
                    rule="over_limit_without_justification",
                    message=f"{e.amount} is above the {e.category} limit of {limit}; add a justification",
                )
            )
        if e.amount > policy.receipt_required_over and e.receipt_url is None:
            problems.append(
                Violation(
                    expense_id=e.id,
                    rule="missing_receipt",
                    message=f"entries above {policy.receipt_required_over} need a receipt; attach one",
                )
            )
    return Audit(
        report_id=report.id,
        total=sum(e.amount for e in entries),
        entries=len(entries),
        violations=problems,
        submittable=bool(entries) and not problems and report.status in EDITABLE,
    )


def _manager_of(ctx: Ctx, report: Report) -> str | None:
    return ctx.get(Employee, report.employee_id).manager_email


# -- examples ---------------------------------------------------------------------------------


def _example_submittable(ctx: Ctx) -> dict[str, Any] | None:
    for status in EDITABLE:
        for report in ctx.where(Report, status=status):
            if _audit(ctx, report).submittable:
                return {"report_id": report.id}
    return None


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    for report in ctx.where(Report, status="submitted"):
        manager = _manager_of(ctx, report)
        if manager is not None:
            return {"report_id": report.id, "approver_email": manager, "comment": "Looks good."}
    return None


def _example_receipt(ctx: Ctx) -> dict[str, Any] | None:
    for status in EDITABLE:
        for report in ctx.where(Report, status=status):
            for e in ctx.where(Expense, report_id=report.id):
                if e.receipt_url is None:
                    return {"expense_id": e.id, "receipt_url": f"https://files.example.com/receipts/{e.id}.pdf"}
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="check the expense report against its policy")
def audit_report(ctx: Ctx, report_id: ReportId) -> Audit:
    """Check every entry of a report against the submitter's policy, without changing anything.

    Args:
        report_id: The report.
    """
    return _audit(ctx, ctx.get(Report, report_id, field="report_id"))


@service.tool(intent="attach the receipt to the expense", write=True, idempotent=True, example=_example_receipt)
def attach_receipt(ctx: Ctx, expense_id: ExpenseId, receipt_url: FileLink) -> Expense:
    """Attach a receipt image to an entry of a draft or returned report.

    Args:
        expense_id: The entry.
        receipt_url: Link to the stored receipt.
    """
    e = ctx.get(Expense, expense_id, field="expense_id")
    _editable_report(ctx, e.report_id, "expense_id")
    return ctx.update(e, receipt_url=receipt_url)


@service.tool(intent="submit the expense report for approval", write=True, example=_example_submittable)
def submit_report(ctx: Ctx, report_id: ReportId) -> Report:
    """Submit a draft or returned report to the submitter's manager.

    A report needs at least one entry; entries above their category's policy
    limit need a justification, and entries above the policy's receipt
    threshold need a receipt (see expenses__audit_report).

    Args:
        report_id: The report.
    """
    report = _editable_report(ctx, report_id, "report_id")
    audit = _audit(ctx, report)
    if audit.entries == 0:
        raise RuleViolation(
            f"report {report.report_number} has no entries and cannot be submitted",
            field="report_id",
            hint="add expenses with expenses__create_expense first",
        )
    if audit.violations:
        first = audit.violations[0]
        raise RuleViolation(
            f"report {report.report_number} breaks its policy: entry {first.expense_id}: {first.message}"
            + (f" (and {len(audit.violations) - 1} more)" if len(audit.violations) > 1 else ""),
            field="report_id",
            hint="fix every violation listed by expenses__audit_report (justify or attach receipts), then submit",
        )
    if _manager_of(ctx, report) is None:
        raise RuleViolation(
            "the submitter has no manager to approve the report",
            field="report_id",
            hint="set the employee's manager_email with expenses__update_employee first",
        )
    return ctx.update(report, status="submitted", submitted_at=ctx.now(), total=audit.total)


def _decide(ctx: Ctx, report_id: str, approver_email: str) -> Report:
    report = ctx.get(Report, report_id, field="report_id")
    if report.status != "submitted":
        raise RuleViolation(
            f"report {report.report_number} is {report.status}, not submitted",
            field="report_id",
            hint="only submitted reports await a decision",
        )
    manager = _manager_of(ctx, report)
    if approver_email != manager:
        raise RuleViolation(
            f"{approver_email} is not the submitter's manager ({manager})",
            field="approver_email",
            hint=f"the report goes to the submitter's manager ({manager})",
        )
    return report


@service.tool(intent="approve the expense report", write=True, example=_example_decide)
def approve_report(ctx: Ctx, report_id: ReportId, approver_email: Email, comment: Text = "") -> Report:
    """Approve a submitted report; only the submitter's manager may.

    Args:
        report_id: The report.
        approver_email: E-mail of the approving manager.
        comment: Optional comment for the submitter.
    """
    report = _decide(ctx, report_id, approver_email)
    return ctx.update(report, status="approved", approver_email=approver_email, decision_comment=comment or None)


@service.tool(intent="send the expense report back to the submitter", write=True, example=_example_decide)
def return_report(ctx: Ctx, report_id: ReportId, approver_email: Email, comment: Text) -> Report:
    """Send a submitted report back to the submitter for changes; only the submitter's manager may.

    Args:
        report_id: The report.
        approver_email: E-mail of the submitter's manager.
        comment: What the submitter must change.
    """
    report = _decide(ctx, report_id, approver_email)
    if not comment.strip():
        raise RuleViolation(
            "returning a report needs a comment", field="comment", hint="tell the submitter what to change"
        )
    return ctx.update(report, status="returned", approver_email=approver_email, decision_comment=comment.strip())


@service.tool(
    intent="reimburse the employee for the approved report",
    write=True,
    example=first_example(Report, "report_id", where={"status": "approved"}, method="ach"),
)
def reimburse_report(
    ctx: Ctx, report_id: ReportId, method: Literal["ach", "payroll", "check"] = "ach"
) -> Reimbursement:
    """Pay an approved report to the submitter's reimbursement account; the report becomes final.

    Args:
        report_id: The approved report.
        method: How to pay.
    """
    report = ctx.get(Report, report_id, field="report_id")
    if report.status == "reimbursed":
        raise Conflict(
            f"report {report.report_number} is already reimbursed",
            field="report_id",
            hint="reimbursed reports are final; look up the payment with expenses__list_reimbursements",
        )
    if report.status != "approved":
        raise RuleViolation(
            f"report {report.report_number} is {report.status}; only approved reports are reimbursed",
            field="report_id",
            hint="have the submitter's manager approve it first",
        )
    emp = ctx.get(Employee, report.employee_id)
    ctx.update(report, status="reimbursed")
    return ctx.create(
        Reimbursement,
        report_id=report.id,
        employee_id=emp.id,
        amount=report.total,
        currency=report.currency,
        method=method,
        account_number=emp.reimbursement_account,
    )


class ApprovalQueue(BaseModel):
    """Reports waiting for one manager."""

    approver_email: Email = Field(description="The manager.")
    reports: list[Report] = Field(description="Submitted reports of their direct reports, oldest first.")
    total: Cents = Field(description="Sum of those reports in cents.")


@service.tool(intent="list the reports waiting for this manager's approval")
def pending_approvals(ctx: Ctx, approver_email: Email) -> ApprovalQueue:
    """List the submitted reports of a manager's direct reports.

    Args:
        approver_email: The manager's e-mail.
    """
    reports_of = {e.id for e in ctx.where(Employee, manager_email=approver_email)}
    waiting = [r for r in ctx.where(Report, status="submitted") if r.employee_id in reports_of]
    waiting.sort(key=lambda r: (r.submitted_at or r.updated_at, r.id))
    return ApprovalQueue(approver_email=approver_email, reports=waiting, total=sum(r.total for r in waiting))


# -- seed -------------------------------------------------------------------------------------

MERCHANTS: dict[str, tuple[str, ...]] = {
    "airfare": ("Northwind Airways", "Skyline Air"),
    "lodging": ("Harborview Hotel", "Grand Central Suites"),
    "meals": ("Cafe Lumen", "Trattoria Verde", "Noodle Bar 88"),
    "ground_transport": ("CityCab", "Metro Rail"),
    "office_supplies": ("Paper & Pen Co", "Desk Depot"),
    "software": ("Cloudware Inc", "Devtools Ltd"),
    "other": ("Conference Center", "Courier Express"),
}
AMOUNTS: dict[str, tuple[int, int]] = {
    "airfare": (180_00, 900_00),
    "lodging": (110_00, 420_00),
    "meals": (12_00, 140_00),
    "ground_transport": (8_00, 90_00),
    "office_supplies": (5_00, 160_00),
    "software": (10_00, 300_00),
    "other": (20_00, 250_00),
}


def _seed_policies(s: SeedContext) -> tuple[Policy, Policy]:
    """The standard and the sales policy, and a retired one; returns the first two."""
    cur = s.population.home.place.currency
    standard = s.create(
        Policy,
        name="Standard travel & expense",
        currency=cur,
        receipt_required_over=75_00,
        limits=[
            CategoryLimit(category="lodging", limit=250_00),
            CategoryLimit(category="meals", limit=75_00),
            CategoryLimit(category="airfare", limit=600_00),
            CategoryLimit(category="ground_transport", limit=60_00),
        ],
    )
    sales = s.create(
        Policy,
        name="Sales & field teams",
        currency=cur,
        receipt_required_over=50_00,
        limits=[CategoryLimit(category="lodging", limit=300_00), CategoryLimit(category="meals", limit=120_00)],
    )
    s.create(Policy, name="Legacy contractor policy", currency=cur, receipt_required_over=25_00, active=False)
    return standard, sales


def _seed_employees(s: SeedContext, standard: Policy, sales: Policy) -> list[Employee]:
    """The home staff with the same reporting lines as the HR service; Sales follows the sales policy."""
    chart = org_chart(s.population.employees)
    employees = []
    for i, p in enumerate(s.population.employees):
        manager = chart.manager_of(p)
        employee = s.create(
            Employee,
            name=p.name,
            email=p.email,
            department=department_of(p),
            manager_email=manager.email if manager else None,
            policy_id=(sales if department_of(p) == "Sales" else standard).id,
            reimbursement_account=f"DE{89 + i:02d}{3704 + i:04d}0044{532 + i:04d}13",
            active=i % 17 != 16,
        )
        employees.append(employee)
    return employees


def _seed_entries(s: SeedContext, i: int, report: Report, policy: Policy, n_entries: int) -> int:
    """The entries of the i-th employee's report; returns their total."""
    cats = list(MERCHANTS)
    limits = {lim.category: lim.limit for lim in policy.limits}
    total = 0
    for j in range(n_entries):
        cat = cats[(i * 3 + j) % len(cats)]
        lo, hi = AMOUNTS[cat]
        amount = s.rng.randint(lo // 100, hi // 100) * 100 + s.rng.choice((0, 50, 99))
        over = cat in limits and amount > limits[cat]
        # Draft reports may still break the policy; anything submitted complies.
        sloppy = report.status == "draft" and j == 0 and i % 3 == 1
        needs_receipt = amount > policy.receipt_required_over
        s.create(
            Expense,
            report_id=report.id,
            date=s.now.date() - dt.timedelta(days=3 + (i + j) % 25),
            merchant=s.rng.choice(MERCHANTS[cat]),
            category=cat,
            amount=amount,
            currency=report.currency,
            description=f"{cat.replace('_', ' ').capitalize()} for {report.title.lower()}",
            receipt_url=None
            if (sloppy or not needs_receipt) and j % 2 == 0
            else f"https://files.example.com/receipts/{report.id}-{j + 1}.pdf",
            justification="Only option available near the client site" if over and not sloppy else None,
        )
        total += amount
    return total


def _seed_reports(s: SeedContext, emps: list[Employee], standard: Policy, sales: Policy) -> None:
    """One or two reports per active employee in every status, with entries and reimbursements."""
    statuses: tuple[ReportStatus, ...] = ("draft", "submitted", "approved", "returned", "reimbursed", "submitted")
    for i, emp in enumerate(e for e in emps if e.active):
        for k in range(1 + i % 2):
            status = statuses[(i + k) % len(statuses)]
            if emp.manager_email is None and status != "draft":
                status = "draft"
            report = s.create(
                Report,
                employee_id=emp.id,
                title=("Client visit", "Team offsite", "Conference trip", "Monthly expenses")[(i + k) % 4],
                purpose="Meeting customers and partners",
                status=status,
                currency=s.population.home.place.currency,
            )
            n_entries = 0 if (status == "draft" and i % 5 == 0) else 1 + (i + k) % 4
            policy = sales if emp.policy_id == sales.id else standard
            total = _seed_entries(s, i, report, policy, n_entries)
            when = s.ago(days=1 + i % 9)
            decided = status in ("approved", "returned", "reimbursed")
            s.update(
                report,
                total=total,
                submitted_at=when if status != "draft" else None,
                approver_email=emp.manager_email if decided else None,
                decision_comment="Please split the hotel bill per night" if status == "returned" else None,
            )
            if status == "reimbursed":
                s.create(
                    Reimbursement,
                    report_id=report.id,
                    employee_id=emp.id,
                    amount=total,
                    currency=report.currency,
                    method=("ach", "payroll", "check")[i % 3],
                    account_number=emp.reimbursement_account,
                    paid_at=s.ago(hours=6 + i),
                )


@service.seeder
def seed(s: SeedContext) -> None:
    """Policies, the home staff with the same reporting lines as HR, reports in every status with entries."""
    standard, sales = _seed_policies(s)
    _seed_reports(s, _seed_employees(s, standard, sales), standard, sales)
