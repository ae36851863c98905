"""Closewise: the month-end financial close, with checklists, reconciliations, flux reviews and sign-off.

Modeled on FloQast and BlackLine (close checklists with preparer and reviewer
sign-offs, account reconciliations with GL vs. supporting balances and
variance thresholds, flux analysis of balance changes, period lock): each
close period is open until the close manager locks it; checklist items go
open → prepared → reviewed (a rejected item goes back to open), and the
reviewer is never the preparer; a reconciliation is prepared with its general
ledger and supporting balances, and a variance over the account's threshold
needs an explanation; a flux line whose change beats the threshold needs an
explanation before it is approved; a period closes only once every item and
reconciliation is reviewed and every flux line approved, and a closed period
takes no change until it is reopened with a reason.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "closebook",
    title="Closewise",
    category="financial_close",
    modeled_on="FloQast / BlackLine: close periods, close checklists with preparer/reviewer sign-off, account "
    "reconciliations with variances, flux analysis, period lock",
    description="The month-end close of the books: close periods and their checklists with preparers and "
    "reviewers, balance sheet account reconciliations against bank and subledger balances with variance "
    "explanations, flux reviews of large balance changes, and the close manager's sign-off that locks the month.",
)

PeriodId = Annotated[str, IdOf("closebook.period")]
ItemId = Annotated[str, IdOf("closebook.checklist_item")]
AccountId = Annotated[str, IdOf("closebook.account")]
ReconId = Annotated[str, IdOf("closebook.reconciliation")]
FluxId = Annotated[str, IdOf("closebook.flux_line")]

PeriodName = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$")]
"""A month as YYYY-MM."""
Balance = Annotated[int, Field(ge=-(10**12), le=10**12)]
"""A signed balance in cents (credit balances negative)."""
Area = Literal["cash", "receivables", "payables", "accruals", "revenue", "payroll", "fixed_assets", "reporting"]
SignOff = Literal["open", "prepared", "reviewed"]


class Period(Timestamped):
    """A month being closed."""

    id: PeriodId
    name: PeriodName
    """YYYY-MM (unique)."""
    close_manager_email: Email
    """The employee who signs the close off."""
    due_date: Date
    """The close deadline."""
    status: Literal["open", "closed"] = "open"
    """open, or closed (locked)."""
    closed_at: DateTime | None = None
    """When it was locked."""
    reopen_reason: Text = ""
    """Why it was last reopened."""


class ChecklistItem(Timestamped):
    """A close task with its preparer and reviewer."""

    id: ItemId
    period_id: PeriodId
    """The close period."""
    title: Title
    """What is to be done."""
    area: Area
    """cash, receivables, payables, accruals, revenue, payroll, fixed_assets or reporting."""
    preparer_email: Email
    """The employee who does it."""
    reviewer_email: Email
    """The employee who reviews it (never the preparer)."""
    due_date: Date
    """When it is due."""
    status: SignOff = "open"
    """open, prepared or reviewed."""
    notes: Text = ""
    """Preparer's or reviewer's notes."""


class Account(Timestamped):
    """A general ledger account in the close."""

    id: AccountId
    number: Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]
    """Account number."""
    name: Title
    """Account name."""
    kind: Literal["balance_sheet", "income_statement"]
    """balance_sheet (reconciled) or income_statement (flux reviewed)."""
    owner_email: Email
    """The employee who owns it."""
    risk: Literal["low", "medium", "high"] = "medium"
    """Risk rating."""
    variance_threshold: Cents = 10_000
    """Largest unexplained reconciliation variance in cents."""
    flux_threshold_pct: Annotated[float, Field(ge=0, le=1000)] = 10.0
    """Change from the prior month, in percent, that needs an explanation."""


class Reconciliation(Timestamped):
    """An account's reconciliation for a period: the ledger balance against its support."""

    id: ReconId
    period_id: PeriodId
    """The close period."""
    account_id: AccountId
    """The account."""
    account_name: Title
    """The account's name."""
    preparer_email: Email
    """The employee who prepares it."""
    reviewer_email: Email
    """The employee who reviews it."""
    gl_balance: Balance | None = None
    """General ledger balance in cents."""
    supporting_balance: Balance | None = None
    """Bank statement or subledger balance in cents."""
    variance: Balance = 0
    """GL less supporting balance in cents."""
    explanation: Text = ""
    """Why they differ."""
    status: SignOff = "open"
    """open, prepared or reviewed."""


class FluxLine(Timestamped):
    """A flux (variance) analysis line: an account's change from the prior month."""

    id: FluxId
    period_id: PeriodId
    """The close period."""
    account_id: AccountId
    """The account."""
    account_name: Title
    """The account's name."""
    prior_balance: Balance
    """Prior month in cents."""
    current_balance: Balance
    """This month in cents."""
    change_pct: float
    """Change in percent of the prior month."""
    over_threshold: bool
    """Whether the change needs an explanation."""
    explanation: Text = ""
    """Why it changed."""
    status: Literal["pending", "explained", "approved"] = "pending"
    """pending, explained or approved."""


class CloseStatus(Value):
    """How far a period's close has come."""

    period: PeriodName
    """The month."""
    status: str
    """open or closed."""
    items_reviewed: int
    """Checklist items reviewed."""
    items_total: int
    """Checklist items."""
    reconciliations_reviewed: int
    """Reconciliations reviewed."""
    reconciliations_total: int
    """Reconciliations."""
    flux_approved: int
    """Flux lines approved."""
    flux_total: int
    """Flux lines."""
    percent_complete: int
    """Share of all sign-offs done, 0-100."""
    overdue_items: list[ItemId]
    """Items past due and not reviewed."""


# -- rules ------------------------------------------------------------------------------------


def _open_period(ctx: Ctx, period_id: str, field: str) -> Period:
    found = ctx.get(Period, period_id, field=field)
    if found.status == "closed":
        raise RuleViolation(
            f"period {found.name} is closed", field=field, hint="reopen it with closebook__reopen_period first"
        )
    return found


def _two_people(ctx: Ctx, preparer: str, reviewer: str) -> None:
    require_employee(ctx, preparer, field="preparer_email", hint="preparers are staff")
    require_employee(ctx, reviewer, field="reviewer_email", hint="reviewers are staff")
    if preparer == reviewer:
        raise RuleViolation(
            "the reviewer cannot be the preparer", field="reviewer_email", hint="segregation of duties: pick another"
        )


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    _open_period(ctx, new.period_id, "period_id" if old is None else "checklist_item_id")
    _two_people(ctx, new.preparer_email, new.reviewer_email)
    if old is not None and old.status == "reviewed":
        raise RuleViolation("the item is already reviewed", field="checklist_item_id", hint="signed-off items stay")


def _guard_item_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _open_period(ctx, old.period_id, "checklist_item_id")
    if old.status != "open":
        raise RuleViolation(f"the item is {old.status}", field="checklist_item_id", hint="only open items are deleted")


def _guard_account(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="accounts are owned by staff")


periods = service.resource(
    Period,
    name="period",
    plural="periods",
    prefix="cp",
    create=False,
    filters=("status", "name", "close_manager_email"),
    delete=False,
    title="close period",
)
items = service.resource(
    ChecklistItem,
    name="checklist_item",
    plural="checklist_items",
    prefix="chk",
    create=("period_id", "title", "area", "preparer_email", "reviewer_email", "due_date"),
    filters=("period_id", "status", "area", "preparer_email", "reviewer_email"),
    search=("title",),
    update=("title", "preparer_email", "reviewer_email", "due_date", "notes"),
    guard_create=_guard_item,
    guard_update=_guard_item,
    guard_delete=_guard_item_delete,
    title="checklist item",
)
accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="gla",
    create=False,
    filters=("kind", "risk", "owner_email", "number"),
    search=("name",),
    update=("owner_email", "risk", "variance_threshold", "flux_threshold_pct"),
    delete=False,
    guard_update=_guard_account,
)
recons = service.resource(
    Reconciliation,
    name="reconciliation",
    plural="reconciliations",
    prefix="rec",
    create=False,
    filters=("period_id", "account_id", "status", "preparer_email", "reviewer_email"),
    delete=False,
)
flux = service.resource(
    FluxLine,
    name="flux_line",
    plural="flux_lines",
    prefix="flx",
    create=False,
    get=False,
    filters=("period_id", "account_id", "status", "over_threshold"),
    delete=False,
    title="flux line",
)


# -- domain tools -----------------------------------------------------------------------------


def _next_name(ctx: Ctx) -> str:
    latest = max(p.name for p in ctx.scan(Period))
    year, month = (int(x) for x in latest.split("-"))
    nxt = add_months(dt.date(year, month, 1), 1)
    return f"{nxt.year:04d}-{nxt.month:02d}"


@service.tool(
    intent="open the next close period",
    write=True,
    example=lambda ctx: {"close_manager_email": ctx.population.employees[0].email},
)
def open_period(
    ctx: Ctx, close_manager_email: Email, due_business_days: Annotated[int, Field(ge=1, le=20)] = 5
) -> Period:
    """Open the month after the latest period, copying the previous checklist and adding its reconciliations.

    Args:
        close_manager_email: The employee who will sign the close off.
        due_business_days: Days after month end the close is due (weekdays).
    """
    require_employee(ctx, close_manager_email, field="close_manager_email", hint="close managers are staff")
    name = _next_name(ctx)
    year, month = (int(x) for x in name.split("-"))
    day = add_months(dt.date(year, month, 1), 1) - dt.timedelta(days=1)
    left = due_business_days
    while left:
        day += dt.timedelta(days=1)
        left -= day.weekday() < 5
    made = ctx.create(Period, name=name, close_manager_email=close_manager_email, due_date=day)
    previous = max((p for p in ctx.scan(Period) if p.name < name), key=lambda p: p.name)
    for item in ctx.where(ChecklistItem, period_id=previous.id):
        ctx.create(
            ChecklistItem,
            period_id=made.id,
            title=item.title,
            area=item.area,
            preparer_email=item.preparer_email,
            reviewer_email=item.reviewer_email,
            due_date=day,
        )
    _add_recons(ctx, made)
    return made


def _add_recons(ctx: Any, period: Period) -> None:
    staff = ctx.population.employees
    for acct in ctx.where(Account, kind="balance_sheet"):
        other = next(p.email for p in staff if p.email != acct.owner_email)
        ctx.create(
            Reconciliation,
            period_id=period.id,
            account_id=acct.id,
            account_name=acct.name,
            preparer_email=acct.owner_email,
            reviewer_email=other,
        )


def _sign(ctx: Ctx, record: Any, who: str, role: str, field: str) -> None:
    require_employee(ctx, who, field=field, hint="sign-offs are made by staff")
    if who != getattr(record, f"{role}_email"):
        raise RuleViolation(
            f"{who} is not the {role}", field=field, hint=f"the {role} is {getattr(record, f'{role}_email')}"
        )


@service.tool(
    intent="mark the checklist item prepared",
    write=True,
    example=first_example(
        ChecklistItem,
        "checklist_item_id",
        where={"status": "open"},
        fields={"prepared_by": "preparer_email"},
        match=lambda c, r: c.get(Period, r.period_id).status == "open",
    ),
)
def prepare_item(ctx: Ctx, checklist_item_id: ItemId, prepared_by: Email, notes: Text = "") -> ChecklistItem:
    """The preparer signs an open checklist item off as done.

    Args:
        checklist_item_id: The item.
        prepared_by: The preparer's e-mail.
        notes: What was done.
    """
    item = ctx.get(ChecklistItem, checklist_item_id, field="checklist_item_id")
    _open_period(ctx, item.period_id, "checklist_item_id")
    if item.status != "open":
        raise Conflict(f"the item is already {item.status}", field="checklist_item_id", hint="nothing to prepare")
    _sign(ctx, item, prepared_by, "preparer", "prepared_by")
    return ctx.update(item, status="prepared", notes=notes or item.notes)


@service.tool(
    intent="review the checklist item",
    write=True,
    example=first_example(
        ChecklistItem,
        "checklist_item_id",
        where={"status": "prepared"},
        fields={"reviewed_by": "reviewer_email"},
        approve=True,
    ),
)
def review_item(
    ctx: Ctx, checklist_item_id: ItemId, reviewed_by: Email, approve: bool, notes: Text = ""
) -> ChecklistItem:
    """The reviewer approves a prepared item (reviewed) or sends it back to the preparer (open).

    Args:
        checklist_item_id: The item.
        reviewed_by: The reviewer's e-mail.
        approve: True to sign it off, False to reject it.
        notes: Review notes (required when rejecting).
    """
    item = ctx.get(ChecklistItem, checklist_item_id, field="checklist_item_id")
    _open_period(ctx, item.period_id, "checklist_item_id")
    if item.status != "prepared":
        raise RuleViolation(f"the item is {item.status}", field="checklist_item_id", hint="it must be prepared first")
    _sign(ctx, item, reviewed_by, "reviewer", "reviewed_by")
    if not approve and not notes.strip():
        raise RuleViolation("a rejection needs notes", field="notes", hint="tell the preparer what to fix")
    return ctx.update(item, status="reviewed" if approve else "open", notes=notes or item.notes)


@service.tool(
    intent="prepare the account reconciliation",
    write=True,
    example=first_example(
        Reconciliation,
        "reconciliation_id",
        where={"status": "open"},
        fields={"prepared_by": "preparer_email"},
        match=lambda c, r: c.get(Period, r.period_id).status == "open",
        gl_balance=1_250_000,
        supporting_balance=1_250_000,
    ),
)
def prepare_reconciliation(
    ctx: Ctx,
    reconciliation_id: ReconId,
    prepared_by: Email,
    gl_balance: Balance,
    supporting_balance: Balance,
    explanation: Text = "",
) -> Reconciliation:
    """Record the ledger and supporting balances; a variance over the account's threshold needs an explanation.

    Args:
        reconciliation_id: The reconciliation.
        prepared_by: The preparer's e-mail.
        gl_balance: General ledger balance in cents.
        supporting_balance: Bank statement or subledger balance in cents.
        explanation: Why they differ (reconciling items, timing).
    """
    rec = ctx.get(Reconciliation, reconciliation_id, field="reconciliation_id")
    _open_period(ctx, rec.period_id, "reconciliation_id")
    if rec.status == "reviewed":
        raise Conflict("the reconciliation is already reviewed", field="reconciliation_id", hint="it is signed off")
    _sign(ctx, rec, prepared_by, "preparer", "prepared_by")
    variance = gl_balance - supporting_balance
    limit = ctx.get(Account, rec.account_id).variance_threshold
    if abs(variance) > limit and not explanation.strip():
        raise RuleViolation(
            f"variance {variance} cents is over the {limit} cent threshold",
            field="explanation",
            hint="explain the reconciling items",
        )
    return ctx.update(
        rec,
        gl_balance=gl_balance,
        supporting_balance=supporting_balance,
        variance=variance,
        explanation=explanation.strip(),
        status="prepared",
    )


@service.tool(
    intent="review the account reconciliation",
    write=True,
    example=first_example(
        Reconciliation,
        "reconciliation_id",
        where={"status": "prepared"},
        fields={"reviewed_by": "reviewer_email"},
        approve=True,
    ),
)
def review_reconciliation(ctx: Ctx, reconciliation_id: ReconId, reviewed_by: Email, approve: bool) -> Reconciliation:
    """The reviewer signs a prepared reconciliation off, or sends it back to open.

    Args:
        reconciliation_id: The reconciliation.
        reviewed_by: The reviewer's e-mail.
        approve: True to sign it off, False to reject it.
    """
    rec = ctx.get(Reconciliation, reconciliation_id, field="reconciliation_id")
    _open_period(ctx, rec.period_id, "reconciliation_id")
    if rec.status != "prepared":
        raise RuleViolation(f"the reconciliation is {rec.status}", field="reconciliation_id", hint="prepare it first")
    _sign(ctx, rec, reviewed_by, "reviewer", "reviewed_by")
    return ctx.update(rec, status="reviewed" if approve else "open")


_EXPLAIN_EXAMPLE = first_example(
    FluxLine,
    "flux_line_id",
    where={"status": "pending"},
    match=lambda c, r: c.get(Period, r.period_id).status == "open",
    explanation="Annual software renewals billed in the month.",
)


def _flux_open(ctx: Ctx, flux_line_id: str) -> FluxLine:
    line = ctx.get(FluxLine, flux_line_id, field="flux_line_id")
    _open_period(ctx, line.period_id, "flux_line_id")
    if line.status == "approved":
        raise Conflict("the flux line is already approved", field="flux_line_id", hint="nothing to do")
    return line


@service.tool(
    intent="explain the balance change",
    write=True,
    example=_EXPLAIN_EXAMPLE,
)
def explain_flux(ctx: Ctx, flux_line_id: FluxId, explanation: Text) -> FluxLine:
    """Explain why an account's balance changed from the prior month.

    Args:
        flux_line_id: The flux line.
        explanation: What drove the change.
    """
    line = _flux_open(ctx, flux_line_id)
    if not explanation.strip():
        raise RuleViolation("the explanation is empty", field="explanation", hint="say what drove the change")
    return ctx.update(line, explanation=explanation.strip(), status="explained")


@service.tool(
    intent="approve the flux line",
    write=True,
    example=first_example(
        FluxLine,
        "flux_line_id",
        where={"status": "explained"},
        match=lambda c, r: c.get(Period, r.period_id).status == "open",
    ),
)
def approve_flux(ctx: Ctx, flux_line_id: FluxId) -> FluxLine:
    """Approve a flux line; one over its threshold must be explained first.

    Args:
        flux_line_id: The flux line.
    """
    line = _flux_open(ctx, flux_line_id)
    if line.over_threshold and line.status != "explained":
        raise RuleViolation(
            f"{line.account_name} moved {line.change_pct}%, over its threshold",
            field="flux_line_id",
            hint="explain it with closebook__explain_flux first",
        )
    return ctx.update(line, status="approved")


def _status(ctx: Ctx, period: Period) -> CloseStatus:
    its = ctx.where(ChecklistItem, period_id=period.id)
    recs = ctx.where(Reconciliation, period_id=period.id)
    lines = ctx.where(FluxLine, period_id=period.id)
    done = (
        sum(i.status == "reviewed" for i in its),
        sum(r.status == "reviewed" for r in recs),
        sum(f.status == "approved" for f in lines),
    )
    total = len(its) + len(recs) + len(lines)
    return CloseStatus(
        period=period.name,
        status=period.status,
        items_reviewed=done[0],
        items_total=len(its),
        reconciliations_reviewed=done[1],
        reconciliations_total=len(recs),
        flux_approved=done[2],
        flux_total=len(lines),
        percent_complete=100 * sum(done) // total if total else 100,
        overdue_items=[i.id for i in its if i.status != "reviewed" and i.due_date < ctx.today()],
    )


@service.tool(intent="show the close status of the period", example=first_example(Period, "period_id"))
def close_status(ctx: Ctx, period_id: PeriodId) -> CloseStatus:
    """Sign-offs done and left in a period's close, and its overdue checklist items.

    Args:
        period_id: The close period.
    """
    return _status(ctx, ctx.get(Period, period_id, field="period_id"))


@service.tool(
    intent="close and lock the period",
    write=True,
    destructive=True,
    example=first_example(Period, "period_id", where={"status": "open"}, fields={"closed_by": "close_manager_email"}),
)
def close_period(ctx: Ctx, period_id: PeriodId, closed_by: Email) -> Period:
    """The close manager locks a period once every item and reconciliation is reviewed and every flux line approved.

    Args:
        period_id: The close period.
        closed_by: The close manager's e-mail.
    """
    period = _open_period(ctx, period_id, "period_id")
    _sign(ctx, period, closed_by, "close_manager", "closed_by")
    earlier = [p.name for p in ctx.where(Period, status="open") if p.name < period.name]
    if earlier:
        raise RuleViolation(f"{min(earlier)} is still open", field="period_id", hint="close earlier months first")
    st = _status(ctx, period)
    if st.percent_complete < 100:
        raise RuleViolation(
            f"the close is {st.percent_complete}% signed off",
            field="period_id",
            hint="review every checklist item and reconciliation and approve every flux line first",
        )
    return ctx.update(period, status="closed", closed_at=ctx.now())


_REOPEN_EXAMPLE = first_example(Period, "period_id", where={"status": "closed"}, reason="Late vendor invoice.")


@service.tool(intent="reopen the closed period", write=True, example=_REOPEN_EXAMPLE)
def reopen_period(ctx: Ctx, period_id: PeriodId, reason: Text) -> Period:
    """Unlock a closed period to correct it; a reason is required.

    Args:
        period_id: The close period.
        reason: Why it is reopened.
    """
    why = reason.strip()
    if not why:
        raise RuleViolation("reopening needs a reason", field="reason", hint="say what must be corrected")
    period = ctx.get(Period, period_id, field="period_id")
    if period.status == "open":
        raise Conflict(f"period {period.name} is open", field="period_id", hint="nothing to reopen")
    return ctx.update(period, status="open", closed_at=None, reopen_reason=why)


# -- seed -------------------------------------------------------------------------------------

ACCOUNTS: tuple[tuple[str, str, str, str, int], ...] = (
    ("1010", "Cash - operating account", "balance_sheet", "high", 45_000_000),
    ("1200", "Accounts receivable", "balance_sheet", "high", 82_000_000),
    ("1400", "Prepaid expenses", "balance_sheet", "low", 6_500_000),
    ("1500", "Fixed assets, net", "balance_sheet", "medium", 120_000_000),
    ("2000", "Accounts payable", "balance_sheet", "high", -38_000_000),
    ("2100", "Accrued liabilities", "balance_sheet", "medium", -12_000_000),
    ("2400", "Deferred revenue", "balance_sheet", "medium", -54_000_000),
    ("4000", "Subscription revenue", "income_statement", "high", -96_000_000),
    ("6000", "Salaries and wages", "income_statement", "medium", 41_000_000),
    ("6200", "Rent expense", "income_statement", "low", 3_200_000),
    ("6500", "Software subscriptions", "income_statement", "low", 1_800_000),
)
TASKS: tuple[tuple[str, Area], ...] = (
    ("Bank reconciliations for all operating accounts", "cash"),
    ("Review AR aging and bad debt reserve", "receivables"),
    ("Accrue unbilled vendor invoices", "accruals"),
    ("Book payroll and benefits accruals", "payroll"),
    ("Run depreciation and review fixed asset additions", "fixed_assets"),
    ("Recognize revenue and roll forward deferred revenue", "revenue"),
    ("AP cutoff and subledger tie-out", "payables"),
    ("Prepare flux analysis and management reporting pack", "reporting"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The chart of close accounts, two months closed, last month signed off but open, this month mid-close."""
    staff = s.population.staff("Finance", "Accounting", fallback=4)
    if len(staff) < 2:
        staff = list(s.population.employees[:4])
    accts = [
        s.create(
            Account,
            number=n,
            name=name,
            kind=kind,
            owner_email=staff[k % len(staff)].email,
            risk=risk,
            variance_threshold=50_000 if risk == "high" else 10_000,
            flux_threshold_pct=5.0 if kind == "income_statement" else 10.0,
            created_at=s.ago(days=700),
            updated_at=s.ago(days=700),
        )
        for k, (n, name, kind, risk, _) in enumerate(ACCOUNTS)
    ]
    today = s.now.date()
    this = today.replace(day=1)
    for back, stage in ((3, "closed"), (2, "closed"), (1, "ready"), (0, "mid")):
        start = add_months(this, -back)
        end = add_months(start, 1) - dt.timedelta(days=1)
        period = s.create(
            Period,
            name=f"{start.year:04d}-{start.month:02d}",
            close_manager_email=staff[0].email,
            due_date=end + dt.timedelta(days=7),
            status="closed" if stage == "closed" else "open",
            closed_at=s.ago(days=30 * back - 8) if stage == "closed" else None,
            created_at=s.ago(days=30 * back + 2),
            updated_at=s.ago(days=max(1, 30 * back - 8)),
        )
        for k, (title, area) in enumerate(TASKS):
            status: SignOff = (
                "reviewed"
                if stage in ("closed", "ready") or (stage == "mid" and k < 4)
                else ("prepared" if stage == "mid" and k < 6 else "open")
            )
            s.create(
                ChecklistItem,
                period_id=period.id,
                title=title,
                area=area,
                preparer_email=staff[(k + 1) % len(staff)].email,
                reviewer_email=staff[k % len(staff)].email,
                due_date=end + dt.timedelta(days=3 + k % 4),
                status=status,
                created_at=s.ago(days=30 * back + 2),
                updated_at=s.ago(days=max(1, 30 * back)),
            )
        for k, acct in enumerate(accts):
            base = ACCOUNTS[k][4]
            bal = base + base * ((back * 7 + k * 3) % 11 - 5) // 100
            if acct.kind == "balance_sheet":
                rec_status: SignOff = (
                    "reviewed"
                    if stage in ("closed", "ready") or (stage == "mid" and k < 4)
                    else ("prepared" if stage == "mid" and k < 6 else "open")
                )
                other = next(p.email for p in staff if p.email != acct.owner_email)
                gap = 0 if k % 3 else 35_000
                s.create(
                    Reconciliation,
                    period_id=period.id,
                    account_id=acct.id,
                    account_name=acct.name,
                    preparer_email=acct.owner_email,
                    reviewer_email=other,
                    gl_balance=bal if rec_status != "open" else None,
                    supporting_balance=bal - gap if rec_status != "open" else None,
                    variance=gap if rec_status != "open" else 0,
                    explanation="Deposits in transit." if gap and rec_status != "open" else "",
                    status=rec_status,
                    created_at=s.ago(days=30 * back),
                    updated_at=s.ago(days=max(1, 30 * back)),
                )
            elif stage != "new":
                prior = base + base * (((back + 1) * 7 + k * 3) % 11 - 5) // 100
                pct = round(100 * (bal - prior) / abs(prior), 1)
                over = abs(pct) > acct.flux_threshold_pct
                s.create(
                    FluxLine,
                    period_id=period.id,
                    account_id=acct.id,
                    account_name=acct.name,
                    prior_balance=prior,
                    current_balance=bal,
                    change_pct=pct,
                    over_threshold=over,
                    explanation="Seasonal billing." if stage in ("closed", "ready") and over else "",
                    status="approved" if stage in ("closed", "ready") else "pending",
                    created_at=s.ago(days=30 * back),
                    updated_at=s.ago(days=max(1, 30 * back)),
                )
