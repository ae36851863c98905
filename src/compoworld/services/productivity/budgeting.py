"""Envelope Budget: zero-based personal budgets: accounts, categories with monthly assignments and goals.

Modeled on the YNAB API v1 (budgets; accounts with on-budget and tracking
types, cleared and uncleared balances; category_groups and categories with
goal types TB, TBD, MF and NEED; PATCH months/{month}/categories/{id} for the
``budgeted`` (assigned) amount; payees; transactions with
``cleared`` = uncleared / cleared / reconciled, ``approved`` and flag colors;
scheduled_transactions with frequencies; account reconciliation): amounts are
in cents, outflows negative. An on-budget outflow needs a category, a tracking
account's transactions take none; reconciled transactions are locked; an
account closes only at a zero balance and a closed one takes no transaction;
reconciling needs the bank's cleared balance to match (or an adjustment);
money moves between categories only up to what the source has available;
assignments are for months from the budget's first month to 12 months ahead.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, DateTime, Email, IdOf, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "budgeting",
    title="Envelope Budget",
    category="personal_budgeting",
    modeled_on="YNAB API v1 (budgets, accounts, category groups, categories with goals, month categories, "
    "payees, transactions with cleared/approved, scheduled transactions, reconciliation)",
    description="Zero-based personal budgets: checking, savings, credit-card and tracking accounts; category "
    "groups and categories that get money assigned each month toward goals; transactions with payees that "
    "are approved, cleared and reconciled against the bank; scheduled bills and moving money "
    "between categories.",
)

BudgetId = Annotated[str, IdOf("budgeting.budget")]
AccountId = Annotated[str, IdOf("budgeting.account")]
GroupId = Annotated[str, IdOf("budgeting.category_group")]
CategoryId = Annotated[str, IdOf("budgeting.category")]
PayeeId = Annotated[str, IdOf("budgeting.payee")]
TransactionId = Annotated[str, IdOf("budgeting.transaction")]
ScheduledId = Annotated[str, IdOf("budgeting.scheduled_transaction")]

Amount = Annotated[int, Field(ge=-(10**11), le=10**11)]
"""An amount in cents: negative for an outflow, positive for an inflow."""
Name = Annotated[str, StringConstraints(min_length=1, max_length=100)]
"""A name."""
AccountType = Literal["checking", "savings", "cash", "creditCard", "lineOfCredit", "otherAsset", "otherLiability"]
Cleared = Literal["uncleared", "cleared", "reconciled"]
GoalType = Literal["TB", "TBD", "MF", "NEED"]
Frequency = Literal["never", "weekly", "everyOtherWeek", "monthly", "everyOtherMonth", "yearly"]

TRACKING: tuple[str, ...] = ("otherAsset", "otherLiability")
STEP = {"weekly": 7, "everyOtherWeek": 14}
MONTHS = {"monthly": 1, "everyOtherMonth": 2, "yearly": 12, "never": 0}


class Budget(Record):
    """A budget (a plan for one household's money)."""

    id: BudgetId
    name: Title
    """Its name."""
    owner_email: Email
    """The person it belongs to."""
    first_month: Date
    """The first month of the plan (the 1st)."""


class Account(Record):
    """A bank, card, cash or tracking account of a budget."""

    id: AccountId
    budget_id: BudgetId
    """The budget."""
    name: Name
    """Its name."""
    type: AccountType
    """checking, savings, cash, creditCard, lineOfCredit, otherAsset or otherLiability."""
    on_budget: bool = True
    """Whether its money is budgeted (tracking accounts are not)."""
    closed: bool = False
    """Closed accounts take no transactions."""
    last_reconciled_at: DateTime | None = None
    """When it was last reconciled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class CategoryGroup(Record):
    """A group of categories (Bills, Everyday, Savings goals)."""

    id: GroupId
    budget_id: BudgetId
    """The budget."""
    name: Name
    """Its name."""


class Category(Record):
    """A spending category ("envelope") and its goal."""

    id: CategoryId
    budget_id: BudgetId
    """The budget."""
    group_id: GroupId
    """Its group."""
    name: Name
    """Its name."""
    hidden: bool = False
    """Hidden from the plan (takes no new assignments)."""
    goal_type: GoalType | None = None
    """TB (target balance), TBD (target balance by date), MF (monthly funding) or NEED (spending need)."""
    goal_target: Annotated[int, Field(ge=0, le=10**11)] | None = None
    """The goal's amount in cents."""
    goal_target_month: Date | None = None
    """The month a TBD goal is due."""


class Assignment(Record):
    """The amount assigned to a category in one month."""

    id: Annotated[str, IdOf("budgeting.assignment")]
    category_id: CategoryId
    """The category."""
    month: Date
    """The month (its 1st)."""
    budgeted: Amount
    """Cents assigned that month (may be negative when money was moved out)."""


class Payee(Record):
    """Someone paid or paying."""

    id: PayeeId
    budget_id: BudgetId
    """The budget."""
    name: CompanyName
    """The payee's name."""


class Transaction(Record):
    """Money in or out of an account."""

    id: TransactionId
    budget_id: BudgetId
    """The budget."""
    account_id: AccountId
    """The account."""
    date: Date
    """The day."""
    amount: Amount
    """Cents: negative outflow, positive inflow."""
    payee_id: PayeeId | None = None
    """The payee."""
    payee_name: CompanyName | None = None
    """The payee's name."""
    category_id: CategoryId | None = None
    """The category (none: Ready to Assign for inflows, or a tracking account)."""
    memo: Annotated[str, StringConstraints(max_length=500)] = ""
    """A memo."""
    cleared: Cleared = "uncleared"
    """uncleared, cleared (the bank shows it) or reconciled (locked)."""
    approved: bool = False
    """Imported transactions wait for approval."""
    created_at: Annotated[DateTime, CREATED]
    """When it was entered."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class ScheduledTransaction(Record):
    """A repeating bill or income entered on its next date."""

    id: ScheduledId
    budget_id: BudgetId
    """The budget."""
    account_id: AccountId
    """The account."""
    date_next: Date
    """The next day it is due."""
    frequency: Frequency = "monthly"
    """never, weekly, everyOtherWeek, monthly, everyOtherMonth or yearly."""
    amount: Amount
    """Cents: negative outflow, positive inflow."""
    payee_name: CompanyName
    """The payee."""
    category_id: CategoryId | None = None
    """The category."""


class AccountBalance(Value):
    """An account's balances."""

    account_id: AccountId
    """The account."""
    balance: int
    """All transactions, in cents."""
    cleared_balance: int
    """Cleared and reconciled transactions."""
    uncleared_balance: int
    """Uncleared transactions."""


class MonthCategory(Value):
    """A category in one month: assigned, activity, available and goal progress."""

    category_id: CategoryId
    """The category."""
    name: str
    """Its name."""
    month: dt.date
    """The month."""
    budgeted: int
    """Assigned this month."""
    activity: int
    """Spending (negative) and refunds this month."""
    balance: int
    """Available: everything assigned and spent up to this month."""
    goal_under_funded: int
    """What is still needed this month to stay on track (0 when none or met)."""


class MonthSummary(Value):
    """A budget's month: income, assigned, activity and Ready to Assign."""

    month: dt.date
    """The month."""
    income: int
    """Inflows to Ready to Assign this month."""
    budgeted: int
    """Assigned this month."""
    activity: int
    """Categorized activity this month."""
    to_be_budgeted: int
    """Ready to Assign (all income ever, less everything assigned up to this month)."""
    categories: list[MonthCategory]
    """Each visible category."""


# -- rules ------------------------------------------------------------------------------------


def _month(day: dt.date) -> dt.date:
    return day.replace(day=1)


def _check_month(ctx: Ctx, budget: Budget, month: dt.date) -> dt.date:
    m = _month(month)
    last = add_months(_month(ctx.today()), 12)
    if m < budget.first_month or m > last:
        raise RuleViolation(
            f"month {m} is outside the budget ({budget.first_month} to {last})",
            field="month",
            hint="pick a month from the budget's first month to a year ahead",
        )
    return m


def _balances(ctx: Ctx, account_id: str) -> AccountBalance:
    txs = ctx.where(Transaction, account_id=account_id)
    cleared = sum(t.amount for t in txs if t.cleared != "uncleared")
    unclr = sum(t.amount for t in txs if t.cleared == "uncleared")
    return AccountBalance(
        account_id=account_id, balance=cleared + unclr, cleared_balance=cleared, uncleared_balance=unclr
    )


def _check_category(ctx: Ctx, account: Account, category_id: str | None, amount: int) -> None:
    if category_id is not None:
        cat = ctx.get(Category, category_id, field="category_id")
        if cat.budget_id != account.budget_id:
            raise RuleViolation("the category is in another budget", field="category_id", hint="use this budget's")
        if not account.on_budget:
            raise RuleViolation("a tracking account takes no category", field="category_id", hint="leave it out")
    elif account.on_budget and amount < 0:
        raise RuleViolation("an on-budget outflow needs a category", field="category_id", hint="pick its category")


def _guard_tx(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.cleared == "reconciled":
        raise RuleViolation("a reconciled transaction is locked", field="transaction_id", hint="enter an adjustment")
    if new is not None and new.category_id != old.category_id:
        acct = ctx.get(Account, new.account_id)
        _check_category(ctx, acct, new.category_id, new.amount)


def _guard_account(ctx: Ctx, new: Any, old: Any) -> None:
    if new.closed and not old.closed and _balances(ctx, new.id).balance != 0:
        raise RuleViolation("only a zero-balance account closes", field="account_id", hint="move its balance out first")


def _guard_category(ctx: Ctx, new: Any, old: Any) -> None:
    if new.goal_type == "TBD" and new.goal_target_month is None:
        raise RuleViolation("a TBD goal needs a target month", field="goal_target_month", hint="say when it is due")
    if new.goal_type is not None and not new.goal_target:
        raise RuleViolation("a goal needs a target amount", field="goal_target", hint="give the amount in cents")
    if old is None or new.group_id != old.group_id:
        group = ctx.get(CategoryGroup, new.group_id, field="group_id")
        if group.budget_id != new.budget_id:
            raise RuleViolation("the group is in another budget", field="group_id", hint="use this budget's group")


budgets = service.resource(
    Budget, name="budget", plural="budgets", prefix="bud", create=False, filters=("owner_email",), delete=False
)
accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acct",
    create=False,
    filters=("budget_id", "type", "on_budget", "closed"),
    search=("name",),
    update=("name",),
    delete=False,
    transitions={
        "close": Transition("closed", (False,), True, "close the account"),
        "reopen": Transition("closed", (True,), False, "reopen the account"),
    },
    guard_update=_guard_account,
)
category_groups = service.resource(
    CategoryGroup,
    name="category_group",
    plural="category_groups",
    prefix="grp",
    create=("budget_id", "name"),
    get=False,
    filters=("budget_id",),
    update=("name",),
    delete=False,
)
categories = service.resource(
    Category,
    name="category",
    plural="categories",
    prefix="cat",
    create=("budget_id", "group_id", "name", "goal_type", "goal_target", "goal_target_month"),
    filters=("budget_id", "group_id", "hidden", "goal_type"),
    search=("name",),
    update=("name", "hidden", "goal_type", "goal_target", "goal_target_month", "group_id"),
    delete=False,
    guard_create=_guard_category,
    guard_update=_guard_category,
)
assignments = service.resource(
    Assignment,
    name="assignment",
    plural="assignments",
    prefix="asg",
    create=False,
    get=False,
    filters=None,
    delete=False,
)
payees = service.resource(
    Payee,
    name="payee",
    plural="payees",
    prefix="pay",
    create=False,
    get=False,
    filters=("budget_id",),
    search=("name",),
    update=("name",),
    delete=False,
)
transactions = service.resource(
    Transaction,
    name="transaction",
    plural="transactions",
    prefix="txn",
    create=False,
    filters=("budget_id", "account_id", "category_id", "payee_id", "cleared", "approved", "date"),
    search=("memo", "payee_name"),
    update=("memo", "date", "category_id"),
    delete=True,
    transitions={
        "approve": Transition("approved", (False,), True, "approve the transaction"),
        "clear": Transition("cleared", ("uncleared",), "cleared", "mark the transaction cleared"),
    },
    guard_update=_guard_tx,
    guard_delete=_guard_tx,
)
scheduled = service.resource(
    ScheduledTransaction,
    name="scheduled_transaction",
    plural="scheduled_transactions",
    prefix="sch",
    create=False,
    get=False,
    filters=("budget_id", "account_id", "frequency"),
    search=("payee_name",),
    delete=True,
)


# -- domain tools -----------------------------------------------------------------------------


def _payee(ctx: Ctx, budget_id: str, name: str) -> Payee:
    found = ctx.first(Payee, budget_id=budget_id, name=name)
    return found if found is not None else ctx.create(Payee, budget_id=budget_id, name=name)


def _open_account(ctx: Ctx, account_id: str, field: str = "account_id") -> Account:
    acct = ctx.get(Account, account_id, field=field)
    if acct.closed:
        raise RuleViolation(f"account {acct.name!r} is closed", field=field, hint="reopen it first")
    return acct


def _example_account(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Budget)
    return None if b is None else {"budget_id": b.id, "name": "Holiday savings", "type": "savings", "balance": 50000}


@service.tool(intent="add an account to the budget", write=True, example=_example_account)
def create_account(ctx: Ctx, budget_id: BudgetId, name: Name, type: AccountType, balance: Amount = 0) -> Account:
    """Add an account with its starting balance (an inflow to Ready to Assign on budget); names are unique.

    Args:
        budget_id: The budget.
        name: The account's name.
        type: checking, savings, cash, creditCard, lineOfCredit, otherAsset or otherLiability.
        balance: The starting balance in cents (negative for debt).
    """
    ctx.get(Budget, budget_id, field="budget_id")
    if ctx.first(Account, budget_id=budget_id, name=name) is not None:
        raise Conflict(f"an account is already named {name!r}", field="name", hint="pick another name")
    acct = ctx.create(Account, budget_id=budget_id, name=name, type=type, on_budget=type not in TRACKING)
    if balance:
        ctx.create(
            Transaction,
            budget_id=budget_id,
            account_id=acct.id,
            date=ctx.today(),
            amount=balance,
            payee_name="Starting Balance",
            cleared="cleared",
            approved=True,
        )
    return acct


def _example_tx(ctx: Ctx) -> dict[str, Any] | None:
    acct = ctx.first(Account, type="checking", closed=False)
    cat = None if acct is None else ctx.first(Category, budget_id=acct.budget_id, hidden=False)
    if acct is None or cat is None:
        return None
    return {"account_id": acct.id, "amount": -4599, "payee_name": "Corner Grocer", "category_id": cat.id}


@service.tool(intent="enter the transaction", write=True, example=_example_tx)
def create_transaction(
    ctx: Ctx,
    account_id: AccountId,
    amount: Amount,
    payee_name: CompanyName | None = None,
    category_id: CategoryId | None = None,
    date: Date | None = None,
    memo: Annotated[str, StringConstraints(max_length=500)] = "",
    cleared: Literal["uncleared", "cleared"] = "uncleared",
) -> Transaction:
    """Enter an approved transaction in an open account; new payees are created.

    Args:
        account_id: The account (open).
        amount: Cents: negative outflow, positive inflow; not zero.
        payee_name: The payee (new payees are created).
        category_id: The category; required for on-budget outflows.
        date: The day (default today; not more than 5 years back nor in the future).
        memo: A memo.
        cleared: uncleared or cleared.
    """
    acct = _open_account(ctx, account_id)
    if amount == 0:
        raise RuleViolation("the amount cannot be zero", field="amount", hint="give cents, negative for an outflow")
    day = date or ctx.today()
    if day > ctx.today() or day < ctx.today() - dt.timedelta(days=5 * 365):
        raise RuleViolation(
            "the date must be today or earlier (use a scheduled transaction for the future)",
            field="date",
            hint="schedule future bills with budgeting__create_scheduled_transaction",
        )
    _check_category(ctx, acct, category_id, amount)
    pid = None if payee_name is None else _payee(ctx, acct.budget_id, payee_name).id
    return ctx.create(
        Transaction,
        budget_id=acct.budget_id,
        account_id=acct.id,
        date=day,
        amount=amount,
        payee_id=pid,
        payee_name=payee_name,
        category_id=category_id,
        memo=memo,
        cleared=cleared,
        approved=True,
    )


def _example_reconcile(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Account, closed=False)
    return None if a is None else {"account_id": a.id, "cleared_balance": _balances(ctx, a.id).cleared_balance}


@service.tool(intent="reconcile the account", write=True, example=_example_reconcile)
def reconcile_account(
    ctx: Ctx, account_id: AccountId, cleared_balance: Amount, create_adjustment: bool = False
) -> AccountBalance:
    """Reconcile against the bank: cleared transactions become reconciled (locked) when the balances match.

    Args:
        account_id: The account.
        cleared_balance: The bank's current balance in cents.
        create_adjustment: Enter a Reconciliation Balance Adjustment for a difference instead of refusing.
    """
    acct = _open_account(ctx, account_id)
    have = _balances(ctx, acct.id).cleared_balance
    if have != cleared_balance:
        if not create_adjustment:
            raise RuleViolation(
                f"the cleared balance is {have} cents, not {cleared_balance}",
                field="cleared_balance",
                hint="find the missing transactions, or pass create_adjustment=true",
            )
        ctx.create(
            Transaction,
            budget_id=acct.budget_id,
            account_id=acct.id,
            date=ctx.today(),
            amount=cleared_balance - have,
            payee_name="Reconciliation Balance Adjustment",
            cleared="cleared",
            approved=True,
        )
    for t in ctx.where(Transaction, account_id=acct.id, cleared="cleared"):
        ctx.update(t, cleared="reconciled")
    ctx.update(acct, last_reconciled_at=ctx.now())
    return _balances(ctx, acct.id)


def _activity(ctx: Ctx, cat_id: str, upto: dt.date, only: dt.date | None = None) -> int:
    return sum(
        t.amount
        for t in ctx.where(Transaction, category_id=cat_id)
        if _month(t.date) <= upto and (only is None or _month(t.date) == only)
    )


def _month_category(ctx: Ctx, cat: Category, month: dt.date) -> MonthCategory:
    rows = ctx.where(Assignment, category_id=cat.id)
    budgeted = sum(a.budgeted for a in rows if a.month == month)
    balance = sum(a.budgeted for a in rows if a.month <= month) + _activity(ctx, cat.id, month)
    need = 0
    if cat.goal_type in ("MF", "NEED") and cat.goal_target:
        need = max(0, cat.goal_target - budgeted)
    elif cat.goal_type in ("TB", "TBD") and cat.goal_target:
        left = 1
        if cat.goal_type == "TBD" and cat.goal_target_month is not None:
            t = _month(cat.goal_target_month)
            left = max(1, (t.year - month.year) * 12 + t.month - month.month + 1)
        need = max(0, -(-(cat.goal_target - (balance - budgeted)) // left) - budgeted)
    return MonthCategory(
        category_id=cat.id,
        name=cat.name,
        month=month,
        budgeted=budgeted,
        activity=_activity(ctx, cat.id, month, only=month),
        balance=balance,
        goal_under_funded=need,
    )


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    cat = ctx.first(Category, hidden=False)
    month = ctx.today().replace(day=1).isoformat()
    return None if cat is None else {"category_id": cat.id, "month": month, "budgeted": 12500}


@service.tool(intent="assign money to the category for the month", write=True, example=_example_assign)
def assign_to_category(ctx: Ctx, category_id: CategoryId, month: Date, budgeted: Amount) -> MonthCategory:
    """Set what a visible category is assigned in a month (the budget's first month to a year ahead).

    Args:
        category_id: The category.
        month: Any day of the month.
        budgeted: The amount assigned that month, in cents (replaces the previous amount).
    """
    cat = ctx.get(Category, category_id, field="category_id")
    if cat.hidden:
        raise RuleViolation(f"category {cat.name!r} is hidden", field="category_id", hint="unhide it first")
    m = _check_month(ctx, ctx.get(Budget, cat.budget_id), month)
    row = ctx.first(Assignment, category_id=cat.id, month=m)
    if row is None:
        ctx.create(Assignment, category_id=cat.id, month=m, budgeted=budgeted)
    else:
        ctx.update(row, budgeted=budgeted)
    return _month_category(ctx, cat, m)


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.today().replace(day=1)
    for a in ctx.where(Assignment, month=m):
        src = ctx.get(Category, a.category_id)
        if _month_category(ctx, src, m).balance >= 1000:
            dst = next((c for c in ctx.where(Category, budget_id=src.budget_id, hidden=False) if c.id != src.id), None)
            if dst is not None:
                return {"from_category_id": src.id, "to_category_id": dst.id, "month": m.isoformat(), "amount": 1000}
    return None


@service.tool(intent="move money between categories", write=True, example=_example_move)
def move_money(
    ctx: Ctx,
    from_category_id: CategoryId,
    to_category_id: CategoryId,
    month: Date,
    amount: Annotated[int, Field(ge=1, le=10**11)],
) -> list[MonthCategory]:
    """Move available money from one category to another of the same budget in a month (up to what is available).

    Args:
        from_category_id: The category giving money.
        to_category_id: The category receiving it.
        month: Any day of the month.
        amount: Cents to move.
    """
    src = ctx.get(Category, from_category_id, field="from_category_id")
    dst = ctx.get(Category, to_category_id, field="to_category_id")
    if src.id == dst.id or src.budget_id != dst.budget_id:
        raise RuleViolation("move between two categories of one budget", field="to_category_id", hint="pick another")
    m = _check_month(ctx, ctx.get(Budget, src.budget_id), month)
    have = _month_category(ctx, src, m).balance
    if amount > have:
        raise RuleViolation(
            f"{src.name!r} has only {have} cents available", field="amount", hint=f"move at most {max(have, 0)}"
        )
    out = []
    for cat, delta in ((src, -amount), (dst, amount)):
        current = _month_category(ctx, cat, m).budgeted
        out.append(assign_to_category(ctx, cat.id, m, current + delta))
    return out


@service.tool(intent="show the budget month", example=first_example(Budget, "budget_id"))
def month_summary(ctx: Ctx, budget_id: BudgetId, month: Date | None = None) -> MonthSummary:
    """A month of a budget: income, assigned, activity, Ready to Assign and every visible category.

    Args:
        budget_id: The budget.
        month: Any day of the month; omit for the current month.
    """
    budget = ctx.get(Budget, budget_id, field="budget_id")
    m = _check_month(ctx, budget, month or ctx.today())
    cats = [_month_category(ctx, c, m) for c in ctx.where(Category, budget_id=budget.id) if not c.hidden]
    on = {a.id for a in ctx.where(Account, budget_id=budget.id) if a.on_budget}
    rta = [
        t
        for t in ctx.where(Transaction, budget_id=budget.id)
        if t.account_id in on and t.category_id is None and t.amount > 0
    ]
    all_assigned = sum(
        a.budgeted
        for c in ctx.where(Category, budget_id=budget.id)
        for a in ctx.where(Assignment, category_id=c.id)
        if a.month <= m
    )
    return MonthSummary(
        month=m,
        income=sum(t.amount for t in rta if _month(t.date) == m),
        budgeted=sum(c.budgeted for c in cats),
        activity=sum(c.activity for c in cats),
        to_be_budgeted=sum(t.amount for t in rta if _month(t.date) <= m) - all_assigned,
        categories=cats,
    )


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    acct = ctx.first(Account, type="checking", closed=False)
    cat = None if acct is None else ctx.first(Category, budget_id=acct.budget_id, hidden=False)
    if acct is None or cat is None:
        return None
    return {
        "account_id": acct.id,
        "date_next": (ctx.today() + dt.timedelta(days=10)).isoformat(),
        "amount": -1599,
        "payee_name": "Streamflix",
        "category_id": cat.id,
        "frequency": "monthly",
    }


@service.tool(intent="schedule the repeating transaction", write=True, example=_example_schedule)
def create_scheduled_transaction(
    ctx: Ctx,
    account_id: AccountId,
    date_next: Date,
    amount: Amount,
    payee_name: CompanyName,
    frequency: Frequency = "monthly",
    category_id: CategoryId | None = None,
) -> ScheduledTransaction:
    """Schedule a future bill or income (first date after today, at most 5 years ahead).

    Args:
        account_id: The account (open).
        date_next: The first day it is due.
        amount: Cents: negative outflow, positive inflow; not zero.
        payee_name: The payee.
        frequency: never, weekly, everyOtherWeek, monthly, everyOtherMonth or yearly.
        category_id: The category (required for on-budget outflows).
    """
    acct = _open_account(ctx, account_id)
    if date_next <= ctx.today() or date_next > ctx.today() + dt.timedelta(days=5 * 365):
        raise RuleViolation(
            "a scheduled transaction starts after today and within 5 years",
            field="date_next",
            hint="enter past transactions with budgeting__create_transaction",
        )
    if amount == 0:
        raise RuleViolation("the amount cannot be zero", field="amount", hint="give cents, negative for an outflow")
    _check_category(ctx, acct, category_id, amount)
    return ctx.create(
        ScheduledTransaction,
        budget_id=acct.budget_id,
        account_id=acct.id,
        date_next=date_next,
        frequency=frequency,
        amount=amount,
        payee_name=payee_name,
        category_id=category_id,
    )


@service.tool(
    intent="enter the scheduled transaction now",
    write=True,
    example=first_example(ScheduledTransaction, "scheduled_transaction_id"),
)
def enter_scheduled_transaction(ctx: Ctx, scheduled_transaction_id: ScheduledId) -> Transaction:
    """Enter the next occurrence today; it moves to its next date (a one-off is removed).

    Args:
        scheduled_transaction_id: The scheduled transaction.
    """
    s = ctx.get(ScheduledTransaction, scheduled_transaction_id, field="scheduled_transaction_id")
    acct = _open_account(ctx, s.account_id, "scheduled_transaction_id")
    tx = ctx.create(
        Transaction,
        budget_id=s.budget_id,
        account_id=acct.id,
        date=ctx.today(),
        amount=s.amount,
        payee_id=_payee(ctx, s.budget_id, s.payee_name).id,
        payee_name=s.payee_name,
        category_id=s.category_id,
        approved=True,
    )
    if s.frequency == "never":
        ctx.delete(s)
    else:
        step = STEP.get(s.frequency)
        ctx.update(
            s, date_next=s.date_next + dt.timedelta(days=step) if step else add_months(s.date_next, MONTHS[s.frequency])
        )
    return tx


# -- seed -------------------------------------------------------------------------------------

GROUPS: tuple[tuple[str, tuple[tuple[str, GoalType | None, int], ...]], ...] = (
    ("Bills", (("Rent", "NEED", 180000), ("Electric", "NEED", 9000), ("Internet", "MF", 6000))),
    ("Everyday", (("Groceries", "NEED", 60000), ("Dining out", None, 0), ("Transport", "MF", 12000))),
    ("Goals", (("Emergency fund", "TB", 1000000), ("Vacation", "TBD", 300000))),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff's personal budgets: accounts, three months of plan and spending at the world's merchants."""
    pop = s.population
    today = s.now.date()
    this = today.replace(day=1)
    merchants = [c.name for c in pop.companies[1:12]]
    for k, p in enumerate(pop.employees[:6]):
        first = add_months(this, -2)
        b = s.create(
            Budget,
            name=f"{p.first_name}'s budget",
            owner_email=p.email,
            first_month=first,
        )
        accts = []
        for name, typ, start in (
            ("Checking", "checking", 420000),
            ("Savings", "savings", 1500000),
            ("Visa", "creditCard", -35000),
            ("Car", "otherAsset", 900000),
            ("Wallet", "cash", 0),
            ("Old savings", "savings", 0),
        ):
            a = s.create(
                Account,
                budget_id=b.id,
                name=name,
                type=typ,
                on_budget=typ not in TRACKING,
                closed=name == "Old savings",
                created_at=s.ago(days=80),
            )
            accts.append(a)
            if start:
                s.create(
                    Transaction,
                    budget_id=b.id,
                    account_id=a.id,
                    date=first,
                    amount=start,
                    payee_name="Starting Balance",
                    cleared="reconciled",
                    approved=True,
                    created_at=s.ago(days=80),
                    updated_at=s.ago(days=80),
                )
        cats = []
        for gname, rows in GROUPS:
            g = s.create(CategoryGroup, budget_id=b.id, name=gname)
            for cname, goal, target in rows:
                cats.append(
                    s.create(
                        Category,
                        budget_id=b.id,
                        group_id=g.id,
                        name=cname,
                        goal_type=goal,
                        goal_target=target or None,
                        goal_target_month=add_months(this, 6) if goal == "TBD" else None,
                    )
                )
        for mi in range(3):
            month = add_months(first, mi)
            for c in cats[:7]:
                s.create(
                    Assignment, category_id=c.id, month=month, budgeted=(c.goal_target or 20000) // (1 if mi else 2)
                )
        payees: dict[str, Payee] = {}
        for j in range(12):
            day = min(today, first + dt.timedelta(days=5 + 6 * j))
            name = merchants[(k + j) % len(merchants)]
            if name not in payees:
                payees[name] = s.create(Payee, budget_id=b.id, name=name)
            pay = payees[name]
            recent = day >= today - dt.timedelta(days=10)
            s.create(
                Transaction,
                budget_id=b.id,
                account_id=accts[2 if j % 3 == 0 else 0].id,
                date=day,
                amount=-(1500 + 731 * j + 97 * k),
                payee_id=pay.id,
                payee_name=name,
                category_id=None if recent and j % 2 else cats[3 + j % 3].id,
                cleared="uncleared" if recent else ("reconciled" if j < 4 else "cleared"),
                approved=not (recent and j % 2),
                created_at=s.ago(days=1),
                updated_at=s.ago(days=1),
            )
        for nxt, freq, amount, payee, cat in (
            (add_months(today, 1), "monthly", -180000, merchants[k % len(merchants)], cats[0].id),
            (today + dt.timedelta(days=7), "everyOtherWeek", 310000, pop.home.name, None),
        ):
            s.create(
                ScheduledTransaction,
                budget_id=b.id,
                account_id=accts[0].id,
                date_next=nxt,
                frequency=freq,
                amount=amount,
                payee_name=payee,
                category_id=cat,
            )
