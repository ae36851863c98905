"""Leasebook: lease accounting under ASC 842 for the company's real estate, vehicle and equipment leases.

Modeled on LeaseQuery (lease records, ASC 842 classification test, amortization
schedules, modifications and remeasurement, early terminations, journal entry
reports): a lease goes draft → active → terminated or expired; it is
classified as a finance lease when ownership transfers, a purchase option is
reasonably certain, the term is 75% or more of the asset's economic life or
the present value of its payments is 90% or more of the asset's fair value,
and otherwise as an operating lease; activation measures the lease liability
at the present value of the payments at the discount rate and books the
right-of-use asset; every month's journal is generated once per period; a
modification remeasures the liability over the remaining term and adjusts the
right-of-use asset; an early termination writes both off with a gain or loss.
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
from compoworld.engine.types import Cents, City, CompanyName, Date, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "leaseacct",
    title="Leasebook",
    category="lease_accounting",
    modeled_on="LeaseQuery: leases, ASC 842 classification, amortization schedules, modifications, terminations, "
    "journal entries",
    description="Lease accounting for the company's office, vehicle and equipment leases: lease terms and monthly "
    "payments, ASC 842 operating or finance classification, liability and right-of-use amortization schedules, "
    "modifications and early terminations, and the monthly journal entries they produce.",
)

LeaseId = Annotated[str, IdOf("leaseacct.lease")]
RowId = Annotated[str, IdOf("leaseacct.schedule_row")]
ModId = Annotated[str, IdOf("leaseacct.modification")]
JournalId = Annotated[str, IdOf("leaseacct.journal_entry")]

PeriodName = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$")]
"""A month as YYYY-MM."""
Months = Annotated[int, Field(ge=1, le=600)]
"""A number of months."""
Rate = Annotated[float, Field(ge=0.1, le=25)]
"""An annual discount rate in percent."""
AssetType = Literal["real_estate", "vehicle", "equipment", "it_hardware"]
Classification = Literal["unclassified", "operating", "finance"]
LeaseStatus = Literal["draft", "active", "terminated", "expired"]
JournalKind = Literal["initial_recognition", "monthly", "modification", "termination"]


class Lease(Timestamped):
    """A lease the company is the lessee of."""

    id: LeaseId
    number: Annotated[str, Generated("sequence", "LS-{n:05d}")]
    """Lease number."""
    name: Title
    """What is leased."""
    lessor_name: CompanyName
    """The lessor."""
    asset_type: AssetType
    """real_estate, vehicle, equipment or it_hardware."""
    city: City | None = None
    """Where the asset is."""
    owner_email: Email
    """The employee responsible for the lease."""
    commencement_date: Date
    """When the lease starts."""
    term_months: Months
    """Lease term in months."""
    monthly_payment: Cents
    """Fixed payment per month, paid in arrears, in cents."""
    discount_rate: Rate
    """Incremental borrowing rate, annual percent."""
    transfers_ownership: bool = False
    """Whether ownership transfers at the end."""
    purchase_option_certain: bool = False
    """Whether a purchase option is reasonably certain to be exercised."""
    asset_fair_value: Cents
    """Fair value of the asset in cents."""
    asset_life_months: Months
    """Remaining economic life of the asset in months."""
    classification: Classification = "unclassified"
    """unclassified, operating or finance."""
    status: LeaseStatus = "draft"
    """draft, active, terminated or expired."""
    liability_balance: Cents = 0
    """Lease liability in cents."""
    rou_asset_balance: Cents = 0
    """Right-of-use asset in cents."""
    terminated_on: Date | None = None
    """When it ended early."""


class ScheduleRow(Created):
    """One month of a lease's liability amortization schedule."""

    id: RowId
    lease_id: LeaseId
    """The lease."""
    period: PeriodName
    """The month."""
    payment: Cents
    """Payment in cents."""
    interest: Cents
    """Interest on the liability in cents."""
    principal: Cents
    """Reduction of the liability in cents."""
    liability_end: Cents
    """Liability after the payment in cents."""
    rou_amortization: Cents
    """Right-of-use asset amortization in cents."""
    journaled: bool = False
    """Whether its monthly journal was generated."""


class Modification(Created):
    """A change to an active lease's payment or term, remeasured over the remaining months."""

    id: ModId
    lease_id: LeaseId
    """The lease."""
    effective_period: PeriodName
    """First month with the new terms."""
    old_payment: Cents
    """Payment before in cents."""
    new_payment: Cents
    """Payment after in cents."""
    old_term_months: Months
    """Term before."""
    new_term_months: Months
    """Term after."""
    adjustment: int
    """Change of the liability (and of the right-of-use asset) in cents."""
    reason: Text
    """Why."""
    recorded_by: Email
    """The employee who recorded it."""


class JournalEntry(Created):
    """A journal entry produced by a lease event."""

    id: JournalId
    lease_id: LeaseId
    """The lease."""
    kind: JournalKind
    """initial_recognition, monthly, modification or termination."""
    period: PeriodName
    """The month it belongs to."""
    debit_account: Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]
    """Account debited."""
    credit_account: Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]
    """Account credited."""
    amount: int
    """Amount in cents (a negative modification reverses the accounts)."""
    memo: Text = ""
    """Description."""
    status: Literal["draft", "posted"] = "draft"
    """draft or posted (exported to the ledger)."""


class ClassificationResult(Value):
    """The ASC 842 classification test of a lease."""

    lease_id: LeaseId
    """The lease."""
    classification: Literal["operating", "finance"]
    """The result."""
    present_value: int
    """Present value of the payments in cents."""
    term_share: float
    """Term as a share of the economic life, percent."""
    value_share: float
    """Present value as a share of fair value, percent."""
    reasons: list[str]
    """The finance-lease criteria met (empty: operating)."""


ROU, LIABILITY, CASH, INTEREST, LEASE_COST, AMORT, GAIN_LOSS = "1700", "2600", "1000", "7100", "6200", "6300", "7900"


# -- rules ------------------------------------------------------------------------------------


def period_of(day: dt.date) -> str:
    """The YYYY-MM month a day falls in."""
    return f"{day.year:04d}-{day.month:02d}"


def present_value(payment: int, months: int, rate: float) -> int:
    """Present value in cents of ``months`` payments in arrears at an annual ``rate`` percent."""
    r = rate / 1200
    return round(payment * (1 - (1 + r) ** -months) / r)


def _rows(ctx_or_seed: Any, lease: Lease, start: dt.date, months: int, liability: int, rou: int) -> None:
    """Create the amortization rows from ``start`` for ``months`` months."""
    r = lease.discount_rate / 1200
    bal, left_rou = liability, rou
    for k in range(months):
        interest = round(bal * r)
        principal = bal if k == months - 1 else min(bal, lease.monthly_payment - interest)
        amort = left_rou if k == months - 1 else left_rou // (months - k)
        bal, left_rou = bal - principal, left_rou - amort
        ctx_or_seed.create(
            ScheduleRow,
            lease_id=lease.id,
            period=period_of(add_months(start, k)),
            payment=principal + interest if k == months - 1 else lease.monthly_payment,
            interest=interest,
            principal=principal,
            liability_end=bal,
            rou_amortization=amort,
        )


def classify(lease: Lease) -> ClassificationResult:
    """The ASC 842 lessee classification test."""
    pv = present_value(lease.monthly_payment, lease.term_months, lease.discount_rate)
    term_share = round(100 * lease.term_months / lease.asset_life_months, 1)
    value_share = round(100 * pv / lease.asset_fair_value, 1) if lease.asset_fair_value else 0.0
    reasons = [
        text
        for met, text in (
            (lease.transfers_ownership, "ownership transfers"),
            (lease.purchase_option_certain, "purchase option reasonably certain"),
            (term_share >= 75, "term is 75% or more of economic life"),
            (value_share >= 90, "present value is 90% or more of fair value"),
        )
        if met
    ]
    return ClassificationResult(
        lease_id=lease.id,
        classification="finance" if reasons else "operating",
        present_value=pv,
        term_share=term_share,
        value_share=value_share,
        reasons=reasons,
    )


def _guard_lease(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="leases are owned by staff")
    if old is not None and old.status != "draft":
        raise RuleViolation(
            f"lease {old.number} is {old.status}",
            field="lease_id",
            hint="change an active lease with leaseacct__modify_lease",
        )
    if old is not None and new.classification != "unclassified" and new != old:
        # Any change to a draft's terms invalidates its classification.
        ctx.update(new, classification="unclassified")


def _guard_lease_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(f"lease {old.number} is {old.status}", field="lease_id", hint="only drafts are deleted")


def _guard_journal(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "posted":
        raise RuleViolation("the entry is already posted", field="journal_entry_id", hint="posted entries stay")


leases = service.resource(
    Lease,
    name="lease",
    plural="leases",
    prefix="lse",
    create=(
        "name",
        "lessor_name",
        "asset_type",
        "city",
        "owner_email",
        "commencement_date",
        "term_months",
        "monthly_payment",
        "discount_rate",
        "transfers_ownership",
        "purchase_option_certain",
        "asset_fair_value",
        "asset_life_months",
    ),
    filters=("status", "classification", "asset_type", "lessor_name", "owner_email", "number", "city"),
    search=("name", "lessor_name"),
    update=("name", "term_months", "monthly_payment", "discount_rate", "commencement_date", "purchase_option_certain"),
    guard_create=_guard_lease,
    guard_update=_guard_lease,
    guard_delete=_guard_lease_delete,
)
rows = service.resource(
    ScheduleRow,
    name="schedule_row",
    plural="schedule_rows",
    prefix="row",
    create=False,
    get=False,
    filters=("lease_id", "period", "journaled"),
    delete=False,
    title="amortization row",
)
modifications = service.resource(
    Modification,
    name="modification",
    plural="modifications",
    prefix="mod",
    create=False,
    filters=("lease_id", "recorded_by"),
    delete=False,
    title="lease modification",
)
journals = service.resource(
    JournalEntry,
    name="journal_entry",
    plural="journal_entries",
    prefix="lje",
    create=False,
    filters=("lease_id", "kind", "period", "status"),
    delete=False,
    transitions={"post": Transition("status", ("draft",), "posted", "post the journal entry to the ledger")},
    guard_update=_guard_journal,
    title="journal entry",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="classify the lease",
    write=True,
    example=first_example(Lease, "lease_id", where={"status": "draft"}),
)
def classify_lease(ctx: Ctx, lease_id: LeaseId) -> ClassificationResult:
    """Run the ASC 842 classification test on a draft lease and record operating or finance.

    Args:
        lease_id: The lease.
    """
    lease = ctx.get(Lease, lease_id, field="lease_id")
    if lease.status != "draft":
        raise RuleViolation(f"lease {lease.number} is {lease.status}", field="lease_id", hint="classified at start")
    result = classify(lease)
    ctx.update(lease, classification=result.classification)
    return result


def _journal(
    ctx: Ctx, lease: Lease, kind: JournalKind, period: str, debit: str, credit: str, amount: int, memo: str
) -> None:
    if amount:
        ctx.create(
            JournalEntry,
            lease_id=lease.id,
            kind=kind,
            period=period,
            debit_account=debit,
            credit_account=credit,
            amount=amount,
            memo=memo,
        )


@service.tool(
    intent="activate the lease",
    write=True,
    example=first_example(
        Lease, "lease_id", where={"status": "draft"}, match=lambda c, r: r.classification != "unclassified"
    ),
)
def activate_lease(ctx: Ctx, lease_id: LeaseId) -> Lease:
    """Commence a classified draft lease: book the liability and right-of-use asset and build its schedule.

    Args:
        lease_id: The lease.
    """
    lease = ctx.get(Lease, lease_id, field="lease_id")
    if lease.status != "draft":
        raise Conflict(f"lease {lease.number} is already {lease.status}", field="lease_id", hint="nothing to do")
    if lease.classification == "unclassified":
        raise RuleViolation(
            f"lease {lease.number} is not classified", field="lease_id", hint="run leaseacct__classify_lease first"
        )
    pv = present_value(lease.monthly_payment, lease.term_months, lease.discount_rate)
    lease = ctx.update(lease, status="active", liability_balance=pv, rou_asset_balance=pv)
    _rows(ctx, lease, lease.commencement_date, lease.term_months, pv, pv)
    _journal(
        ctx,
        lease,
        "initial_recognition",
        period_of(lease.commencement_date),
        ROU,
        LIABILITY,
        pv,
        f"Initial recognition of {lease.name}",
    )
    return lease


def _active(ctx: Ctx, lease_id: str) -> Lease:
    lease = ctx.get(Lease, lease_id, field="lease_id")
    if lease.status != "active":
        raise RuleViolation(f"lease {lease.number} is {lease.status}", field="lease_id", hint="only active leases")
    return lease


@service.tool(
    intent="generate the month's lease journal entries",
    write=True,
    example=lambda ctx: {"period": period_of(ctx.today())},
)
def generate_period_journals(ctx: Ctx, period: PeriodName) -> list[JournalEntry]:
    """Generate the monthly entries of every active lease for a month that has started, once per month.

    Finance leases book interest and right-of-use amortization; operating leases a single straight-line lease
    cost; both reduce the liability by the payment's principal.

    Args:
        period: The month, YYYY-MM.
    """
    if period > period_of(ctx.today()):
        raise RuleViolation(f"{period} has not started", field="period", hint="generate current or past months")
    due = [
        row
        for row in ctx.where(ScheduleRow, period=period, journaled=False)
        if ctx.get(Lease, row.lease_id).status == "active"
    ]
    if not due:
        raise RuleViolation(f"nothing to journal for {period}", field="period", hint="it was generated already")
    made: list[JournalEntry] = []
    for row in due:
        lease = ctx.get(Lease, row.lease_id)
        before = len(ctx.where(JournalEntry, lease_id=lease.id))
        if lease.classification == "finance":
            _journal(ctx, lease, "monthly", period, INTEREST, CASH, row.interest, "Interest on lease liability")
            _journal(ctx, lease, "monthly", period, AMORT, ROU, row.rou_amortization, "Right-of-use amortization")
        else:
            _journal(ctx, lease, "monthly", period, LEASE_COST, CASH, row.payment, "Straight-line lease cost")
        _journal(
            ctx,
            lease,
            "monthly",
            period,
            LIABILITY,
            CASH if lease.classification == "finance" else ROU,
            row.principal,
            "Principal reduction",
        )
        ctx.update(row, journaled=True)
        ctx.update(
            lease,
            liability_balance=row.liability_end,
            rou_asset_balance=max(0, lease.rou_asset_balance - row.rou_amortization),
            status="expired" if row.liability_end == 0 else "active",
        )
        made.extend(ctx.where(JournalEntry, lease_id=lease.id)[before:])
    return made


def _example_modify(ctx: Ctx) -> dict[str, Any] | None:
    lease = ctx.first(Lease, status="active")
    if lease is None:
        return None
    return {
        "lease_id": lease.id,
        "new_monthly_payment": lease.monthly_payment + 10_000,
        "new_term_months": lease.term_months + 12,
        "reason": "Renewal option exercised.",
        "recorded_by": lease.owner_email,
    }


@service.tool(intent="modify the lease", write=True, example=_example_modify)
def modify_lease(
    ctx: Ctx, lease_id: LeaseId, new_monthly_payment: Cents, new_term_months: Months, reason: Text, recorded_by: Email
) -> Modification:
    """Change an active lease's payment or term from next month: the liability is remeasured over what remains.

    Args:
        lease_id: The lease.
        new_monthly_payment: The payment from next month, in cents.
        new_term_months: The new total term in months; it must run past this month.
        reason: Why (required).
        recorded_by: The employee recording it.
    """
    lease = _active(ctx, lease_id)
    require_employee(ctx, recorded_by, field="recorded_by", hint="modifications are recorded by staff")
    if not reason.strip():
        raise RuleViolation("a modification needs a reason", field="reason", hint="say what changed")
    if (new_monthly_payment, new_term_months) == (lease.monthly_payment, lease.term_months):
        raise RuleViolation("nothing changes", field="new_monthly_payment", hint="give a new payment or term")
    effective = add_months(ctx.today().replace(day=1), 1)
    elapsed = (effective.year - lease.commencement_date.year) * 12 + effective.month - lease.commencement_date.month
    left = new_term_months - elapsed
    if left < 1:
        raise RuleViolation(
            f"{elapsed} months have run; the new term must be longer",
            field="new_term_months",
            hint=f"give more than {elapsed} months",
        )
    for row in ctx.where(ScheduleRow, lease_id=lease.id):
        if row.period >= period_of(effective):
            ctx.delete(row)
    past = ctx.where(ScheduleRow, lease_id=lease.id)
    carrying = past[-1].liability_end if past else lease.liability_balance
    rou_left = lease.rou_asset_balance - sum(r.rou_amortization for r in past if not r.journaled)
    new_pv = present_value(new_monthly_payment, left, lease.discount_rate)
    adjustment = new_pv - carrying
    old_payment, old_term = lease.monthly_payment, lease.term_months
    lease = ctx.update(lease, monthly_payment=new_monthly_payment, term_months=new_term_months)
    _rows(ctx, lease, effective, left, new_pv, max(0, rou_left + adjustment))
    ctx.update(
        lease,
        rou_asset_balance=max(0, lease.rou_asset_balance + adjustment),
        liability_balance=lease.liability_balance + adjustment,
    )
    _journal(ctx, lease, "modification", period_of(effective), ROU, LIABILITY, adjustment, reason.strip())
    return ctx.create(
        Modification,
        lease_id=lease.id,
        effective_period=period_of(effective),
        old_payment=old_payment,
        new_payment=new_monthly_payment,
        old_term_months=old_term,
        new_term_months=new_term_months,
        adjustment=adjustment,
        reason=reason.strip(),
        recorded_by=recorded_by,
    )


@service.tool(
    intent="terminate the lease early",
    write=True,
    destructive=True,
    example=first_example(Lease, "lease_id", where={"status": "active"}, termination_payment=0),
)
def terminate_lease(ctx: Ctx, lease_id: LeaseId, termination_payment: Cents = 0) -> Lease:
    """End an active lease today: the liability and right-of-use asset are written off with a gain or loss.

    Args:
        lease_id: The lease.
        termination_payment: Penalty paid to the lessor, in cents.
    """
    lease = _active(ctx, lease_id)
    for row in ctx.where(ScheduleRow, lease_id=lease.id, journaled=False):
        ctx.delete(row)
    gain = lease.liability_balance - lease.rou_asset_balance - termination_payment
    period = period_of(ctx.today())
    _journal(ctx, lease, "termination", period, LIABILITY, ROU, lease.liability_balance, "Derecognise liability")
    _journal(
        ctx,
        lease,
        "termination",
        period,
        GAIN_LOSS if gain < 0 else ROU,
        GAIN_LOSS if gain >= 0 else ROU,
        abs(gain),
        "Gain or loss on termination",
    )
    return ctx.update(lease, status="terminated", terminated_on=ctx.today(), liability_balance=0, rou_asset_balance=0)


class Maturity(Value):
    """Undiscounted lease payments by year, reconciled to the liability (the ASC 842 maturity disclosure)."""

    by_year: dict[str, int]
    """Payments still due per calendar year, in cents."""
    undiscounted_total: int
    """Their sum in cents."""
    imputed_interest: int
    """Interest still to accrue in cents."""
    liability: int
    """Lease liability in cents (undiscounted total less imputed interest)."""


@service.tool(intent="report the lease maturity analysis", example=lambda ctx: {"classification": "operating"})
def maturity_analysis(ctx: Ctx, classification: Literal["operating", "finance"] | None = None) -> Maturity:
    """Payments still due on active leases by year, with the interest that reconciles them to the liability.

    Args:
        classification: Only operating or only finance leases; omit for both.
    """
    by_year: dict[str, int] = {}
    interest = 0
    for lease in ctx.where(Lease, status="active"):
        if classification is not None and lease.classification != classification:
            continue
        for row in ctx.where(ScheduleRow, lease_id=lease.id, journaled=False):
            by_year[row.period[:4]] = by_year.get(row.period[:4], 0) + row.payment
            interest += row.interest
    total = sum(by_year.values())
    return Maturity(
        by_year=dict(sorted(by_year.items())),
        undiscounted_total=total,
        imputed_interest=interest,
        liability=total - interest,
    )


@service.tool(intent="list the leases ending soon", example=lambda ctx: {"within_days": 365})
def expiring_leases(ctx: Ctx, within_days: Annotated[int, Field(ge=1, le=1825)] = 180) -> list[Lease]:
    """Active leases whose term ends within the coming days, soonest first (renewal decisions).

    Args:
        within_days: How many days ahead to look.
    """
    horizon = ctx.today() + dt.timedelta(days=within_days)
    found = [
        (add_months(lease.commencement_date, lease.term_months), lease) for lease in ctx.where(Lease, status="active")
    ]
    return [lease for end, lease in sorted(found, key=lambda p: (p[0], p[1].id)) if end <= horizon]


@service.tool(
    intent="post the month's lease journal entries",
    write=True,
    example=lambda ctx: next(({"period": j.period} for j in ctx.where(JournalEntry, status="draft")), None),
)
def post_period(ctx: Ctx, period: PeriodName) -> list[JournalEntry]:
    """Post every draft lease journal entry of a month to the ledger.

    Args:
        period: The month, YYYY-MM.
    """
    drafts = ctx.where(JournalEntry, period=period, status="draft")
    if not drafts:
        raise RuleViolation(f"no draft entry in {period}", field="period", hint="generate the month's journals first")
    return [ctx.update(j, status="posted") for j in drafts]


class Balance(Value):
    """Where a lease stands."""

    lease_id: LeaseId
    """The lease."""
    liability: int
    """Lease liability in cents."""
    rou_asset: int
    """Right-of-use asset in cents."""
    payments_left: int
    """Monthly payments not yet journaled."""
    remaining_payments: int
    """Their undiscounted sum in cents."""
    ends_on: Date
    """The day after the last month of the term."""


@service.tool(intent="show the lease's balances", example=first_example(Lease, "lease_id", where={"status": "active"}))
def lease_balance(ctx: Ctx, lease_id: LeaseId) -> Balance:
    """A lease's liability, right-of-use asset, payments left and end date.

    Args:
        lease_id: The lease.
    """
    lease = ctx.get(Lease, lease_id, field="lease_id")
    left = ctx.where(ScheduleRow, lease_id=lease.id, journaled=False) if lease.status == "active" else []
    return Balance(
        lease_id=lease.id,
        liability=lease.liability_balance,
        rou_asset=lease.rou_asset_balance,
        payments_left=len(left),
        remaining_payments=sum(r.payment for r in left),
        ends_on=add_months(lease.commencement_date, lease.term_months),
    )


# -- seed -------------------------------------------------------------------------------------

LEASES: tuple[tuple[str, AssetType, int, int, float, int, int, bool], ...] = (
    ("Headquarters office, floors 3-4", "real_estate", 60, 2_400_000, 6.0, 250_000_000, 480, False),
    ("Regional office suite", "real_estate", 36, 850_000, 6.5, 120_000_000, 480, False),
    ("Delivery van fleet (6)", "vehicle", 48, 540_000, 7.0, 22_000_000, 60, False),
    ("Forklift, warehouse", "equipment", 36, 95_000, 7.5, 3_300_000, 84, True),
    ("Laptop refresh program", "it_hardware", 36, 310_000, 8.0, 10_500_000, 42, False),
    ("Copier and print fleet", "equipment", 48, 120_000, 7.0, 9_000_000, 120, False),
    ("Data center cage", "real_estate", 24, 420_000, 6.0, 60_000_000, 360, False),
    ("Executive vehicle", "vehicle", 36, 89_000, 7.0, 4_800_000, 72, False),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The company's leases from world lessors: active ones with schedules and journals, drafts, one terminated."""
    pop = s.population
    owners = pop.staff("Finance", "Operations", fallback=3)
    lessors = [c.name for c in pop.customers]
    today = s.now.date()
    this = today.replace(day=1)
    for k, (name, kind, term, pay, rate, fair, life, option) in enumerate(LEASES):
        draft = k in (5, 6)
        start = add_months(this, 1 if draft else -(2 + 3 * k))
        lease = s.create(
            Lease,
            name=name,
            lessor_name=lessors[k % len(lessors)],
            asset_type=kind,
            city=pop.home.place.city,
            owner_email=owners[k % len(owners)].email,
            commencement_date=start,
            term_months=term,
            monthly_payment=pay,
            discount_rate=rate,
            purchase_option_certain=option,
            asset_fair_value=fair,
            asset_life_months=life,
            created_at=s.ago(days=40 + 90 * k),
            updated_at=s.ago(days=30),
        )
        if draft:
            if k == 6:
                s.update(lease, classification=classify(lease).classification)
            continue
        pv = present_value(pay, term, rate)
        lease = s.update(
            lease,
            classification=classify(lease).classification,
            status="active",
            liability_balance=pv,
            rou_asset_balance=pv,
        )
        _rows(s, lease, start, term, pv, pv)
        s.create(
            JournalEntry,
            lease_id=lease.id,
            kind="initial_recognition",
            period=period_of(start),
            debit_account=ROU,
            credit_account=LIABILITY,
            amount=pv,
            memo=f"Initial recognition of {name}",
            status="draft" if k == 0 else "posted",
            created_at=s.ago(days=40 + 90 * k),
        )
        for row in s.records(ScheduleRow):
            if row.lease_id == lease.id and row.period < period_of(today):
                s.update(row, journaled=True)
                lease = s.update(
                    lease,
                    liability_balance=row.liability_end,
                    rou_asset_balance=lease.rou_asset_balance - row.rou_amortization,
                )
        if k == 7:
            s.update(
                lease,
                status="terminated",
                terminated_on=today - dt.timedelta(days=20),
                liability_balance=0,
                rou_asset_balance=0,
            )
        if k == 1:
            s.create(
                Modification,
                lease_id=lease.id,
                effective_period=period_of(add_months(this, -1)),
                old_payment=pay,
                new_payment=pay,
                old_term_months=term - 12,
                new_term_months=term,
                adjustment=0,
                reason="Renewal option for one more year exercised at the same rent.",
                recorded_by=owners[0].email,
                created_at=s.ago(days=40),
            )
