"""Keyhold Property Manager: rental buildings, units, tenants, leases, the rent ledger and maintenance.

Modeled on the AppFolio Property Manager and Buildium Open API v1 contracts
(Rentals/Properties, Units, Tenants, Leases, Lease transactions: charges and
payments, Lease move-outs with deposit settlement, Maintenance work orders with
vendors): a unit has at most one draft or active lease for any day; the deposit
is capped at two months' rent; a lease goes active only on a rent-ready unit and
posts its deposit and first month's rent when it does; monthly rent is posted
once per lease and month; a payment is applied to the oldest open charges first
and cannot exceed the balance; a move-out settles the deposit against the
deductions and the unpaid balance; a work order needs a vendor before it is
worked on and a cost when it is completed, which may be billed to the tenant.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    Percent,
    PersonName,
    Phone,
    PostalAddress,
    Quantity,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import add_months, utc_at

__all__ = ["service"]

service = Service(
    "propertymgmt",
    title="Keyhold Property Manager",
    category="real_estate",
    modeled_on="AppFolio Property Manager / Buildium Open API v1 (Rentals, Units, Tenants, Leases, "
    "Lease transactions, Move-outs, Work orders)",
    description="Residential rental management: buildings and their units, tenants and their leases, the "
    "rent ledger of charges and payments, move-outs with deposit settlement, and maintenance work orders "
    "handled by vendors.",
)

PropertyId = Annotated[str, IdOf("propertymgmt.property")]
UnitId = Annotated[str, IdOf("propertymgmt.unit")]
TenantId = Annotated[str, IdOf("propertymgmt.tenant")]
LeaseId = Annotated[str, IdOf("propertymgmt.lease")]
ChargeId = Annotated[str, IdOf("propertymgmt.charge")]
PaymentId = Annotated[str, IdOf("propertymgmt.payment")]
WorkOrderId = Annotated[str, IdOf("propertymgmt.work_order")]
UnitNumber = Annotated[str, StringConstraints(pattern=r"^[0-9A-Z]{1,6}$")]

LeaseStatus = Literal["draft", "active", "ended"]
ChargeKind = Literal["rent", "deposit", "late_fee", "utility", "repair"]
ChargeStatus = Literal["open", "paid", "void"]
PayMethod = Literal["ach", "card", "check", "cash"]
Receipt = Literal["ach", "card", "check", "cash", "deposit"]
Priority = Literal["low", "normal", "urgent", "emergency"]
WorkStatus = Literal["new", "assigned", "completed", "cancelled"]

HOLDING: tuple[str, ...] = ("draft", "active")
DEPOSIT_CAP_MONTHS = 2
OVER_ESTIMATE = 1.10
"""Completing above the estimate by more than this factor needs a note."""


class Property(Record):
    """A rental building managed for its owner."""

    id: PropertyId
    name: Title
    """Building name."""
    address: PostalAddress
    """Street address of the building."""
    owner: CompanyName
    """The owner the building is managed for."""
    manager_email: Email
    """E-mail of the property manager responsible for it."""
    currency: Currency
    """Currency of rents and charges."""
    year_built: Annotated[int, Field(ge=1700, le=2030)]
    """Year of construction."""


class Unit(Record):
    """One rentable unit of a building."""

    id: UnitId
    property_id: PropertyId
    """The building."""
    unit_number: UnitNumber
    """Number on the door (e.g. 2B); unique within the building."""
    bedrooms: Quantity
    """Bedrooms."""
    sqft: Annotated[int, Field(ge=100, le=20000)]
    """Floor area in square feet."""
    market_rent: Cents
    """Advertised monthly rent in minor units."""
    rent_ready: bool = True
    """Whether the unit is cleaned and repaired for a new tenant; leases go active only on rent-ready units."""


class Tenant(Record):
    """A person who rents (or applied to rent) a unit."""

    id: TenantId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique."""
    phone: Phone
    """Phone number."""
    created_at: Annotated[DateTime, CREATED]
    """When the tenant was added."""


class Lease(Record):
    """A rental agreement of one tenant for one unit."""

    id: LeaseId
    unit_id: UnitId
    """The rented unit."""
    tenant_id: TenantId
    """The tenant."""
    start_date: Date
    """First day of the lease."""
    end_date: Date
    """Last day of the lease term."""
    monthly_rent: Cents
    """Rent per month in minor units."""
    deposit: Cents
    """Security deposit, at most two months' rent."""
    currency: Currency
    """Currency of rent and deposit (the building's)."""
    status: LeaseStatus = "draft"
    """draft (not signed), active, or ended (moved out)."""
    move_out_date: Date | None = None
    """When the tenant moved out."""
    deposit_refund: Cents | None = None
    """Deposit returned at move-out."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the lease last changed."""


class Charge(Record):
    """A line of a tenant's ledger: what they owe."""

    id: ChargeId
    invoice_number: Annotated[InvoiceNumber, Generated("sequence", "RC-{n:06d}")]
    """Number of the charge on the tenant's statement."""
    lease_id: LeaseId
    """The lease charged."""
    tenant_id: TenantId
    """The tenant charged."""
    kind: ChargeKind
    """rent, deposit, late_fee, utility or repair."""
    period: Date | None = None
    """For rent: the first day of the month it covers."""
    description: Text = ""
    """What it is for."""
    amount: Cents
    """Amount charged in minor units."""
    paid: Cents = 0
    """Amount paid so far."""
    currency: Currency
    """Currency of the amounts."""
    due_date: Date
    """When it is due."""
    status: ChargeStatus = "open"
    """open, paid or void."""


class Allocation(BaseModel):
    """The part of a payment applied to one charge."""

    charge_id: ChargeId = Field(description="The charge.")
    invoice_number: InvoiceNumber = Field(description="Its statement number.")
    amount: Cents = Field(description="Amount applied.")


class Payment(Record):
    """Money received from a tenant, applied to their oldest open charges."""

    id: PaymentId
    lease_id: LeaseId
    """The lease paid for."""
    tenant_id: TenantId
    """The payer."""
    amount: Cents
    """Amount received in minor units."""
    currency: Currency
    """Currency of the amount."""
    method: Receipt
    """ach, card, check, cash, or deposit (the security deposit applied at move-out)."""
    received_on: Date
    """Day it was received."""
    allocations: list[Allocation] = Field(default_factory=list)
    """Charges it paid, oldest first."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


class WorkOrder(Record):
    """A maintenance request for a unit and the vendor's work on it."""

    id: WorkOrderId
    unit_id: UnitId
    """The unit."""
    tenant_id: TenantId | None = None
    """The tenant who reported it, if any."""
    title: Title
    """Short summary."""
    description: Text = ""
    """What is wrong."""
    priority: Priority = "normal"
    """low, normal, urgent or emergency."""
    entry_permitted: bool = True
    """Whether the vendor may enter without the tenant present."""
    status: WorkStatus = "new"
    """new, assigned, completed or cancelled."""
    vendor: CompanyName | None = None
    """The contractor doing the work."""
    vendor_email: Email | None = None
    """The contractor's contact e-mail."""
    estimate: Cents | None = None
    """The vendor's estimate in minor units."""
    cost: Cents | None = None
    """Final cost in minor units."""
    completion_note: Text | None = None
    """What was done (needed when the cost runs over the estimate)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was reported."""
    completed_at: DateTime | None = None
    """When the work was completed."""


# -- guards ------------------------------------------------------------------------------------------


def _overlap(a0: dt.date, a1: dt.date, b0: dt.date, b1: dt.date) -> bool:
    return a0 <= b1 and b0 <= a1


def _guard_lease(ctx: Ctx, new: Any, old: Any) -> None:
    unit = ctx.get(Unit, new.unit_id, field="unit_id")
    ctx.get(Tenant, new.tenant_id, field="tenant_id")
    if new.end_date <= new.start_date:
        raise RuleViolation(
            "a lease must end after it starts", field="end_date", hint=f"choose a date after {new.start_date}"
        )
    if new.monthly_rent <= 0:
        raise RuleViolation("the rent must be positive", field="monthly_rent", hint="give the monthly rent")
    if new.deposit > DEPOSIT_CAP_MONTHS * new.monthly_rent:
        raise RuleViolation(
            f"the deposit is capped at {DEPOSIT_CAP_MONTHS} months' rent ({DEPOSIT_CAP_MONTHS * new.monthly_rent})",
            field="deposit",
            hint="lower the deposit",
        )
    for other in ctx.where(Lease, unit_id=new.unit_id):
        if other.id == new.id or other.status not in HOLDING:
            continue
        if _overlap(new.start_date, new.end_date, other.start_date, other.end_date):
            raise Conflict(
                f"unit {unit.unit_number} is already leased {other.start_date} to {other.end_date} ({other.id})",
                field="start_date",
                hint=f"start the lease after {other.end_date} or end the other lease first",
            )


def _guard_lease_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(
            f"lease {old.id} is {old.status}; only draft leases can be deleted",
            field="lease_id",
            hint="end an active lease with propertymgmt__end_lease",
        )


def _guard_work_order(ctx: Ctx, new: Any, old: Any) -> None:
    if new.tenant_id is not None:
        tenant = ctx.get(Tenant, new.tenant_id, field="tenant_id")
        if _current_lease(ctx, new.unit_id, tenant.id) is None:
            raise RuleViolation(
                f"tenant {tenant.name} does not rent this unit",
                field="tenant_id",
                hint="report it without a tenant or for the unit the tenant rents",
            )


properties = service.resource(
    Property,
    name="property",
    plural="properties",
    prefix="bld",
    create=False,
    filters=("owner", "manager_email", "currency"),
    search=("name", "owner"),
    delete=False,
    title="rental property",
)
units = service.resource(
    Unit,
    name="unit",
    plural="units",
    prefix="unit",
    create=False,
    filters=("property_id", "bedrooms", "rent_ready", "unit_number"),
    update=("market_rent", "rent_ready"),
    delete=False,
)
tenants = service.resource(
    Tenant,
    name="tenant",
    plural="tenants",
    prefix="ten",
    create=("name", "email", "phone"),
    filters=("email",),
    search=("name", "email"),
    delete=False,
    unique=("email",),
)
leases = service.resource(
    Lease,
    name="lease",
    plural="leases",
    prefix="lse",
    create=False,
    filters=("unit_id", "tenant_id", "status"),
    guard_delete=_guard_lease_delete,
)
charges = service.resource(
    Charge,
    name="charge",
    plural="charges",
    prefix="chg",
    create=False,
    get=False,
    filters=("lease_id", "tenant_id", "kind", "status", "invoice_number", "period"),
    delete=False,
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    get=False,
    filters=("lease_id", "tenant_id", "method"),
    delete=False,
)
work_orders = service.resource(
    WorkOrder,
    name="work_order",
    plural="work_orders",
    prefix="wo",
    create=("unit_id", "tenant_id", "title", "description", "priority", "entry_permitted"),
    filters=("unit_id", "tenant_id", "status", "priority", "vendor"),
    search=("title", "description"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("new", "assigned"), "cancelled", "cancel the work order", destructive=True)
    },
    guard_create=_guard_work_order,
    title="maintenance work order",
)


# -- helpers ------------------------------------------------------------------------------------------


def _current_lease(ctx: Ctx, unit_id: str, tenant_id: str | None = None) -> Lease | None:
    for lease in ctx.where(Lease, unit_id=unit_id, status="active"):
        if tenant_id is None or lease.tenant_id == tenant_id:
            return lease
    return None


def _open_charges(ctx: Ctx, lease_id: str) -> list[Charge]:
    found = [c for c in ctx.where(Charge, lease_id=lease_id, status="open")]
    found.sort(key=lambda c: (c.due_date, c.id))
    return found


def _balance(ctx: Ctx, lease_id: str) -> int:
    return sum(c.amount - c.paid for c in _open_charges(ctx, lease_id))


def _month_start(day: dt.date) -> dt.date:
    return day.replace(day=1)


def _next_month(day: dt.date) -> dt.date:
    return add_months(_month_start(day), 1)


def _charge(ctx: Ctx, lease: Lease, kind: str, amount: int, due: dt.date, **extra: Any) -> Charge:
    return ctx.create(
        Charge,
        lease_id=lease.id,
        tenant_id=lease.tenant_id,
        kind=kind,
        amount=amount,
        currency=lease.currency,
        due_date=due,
        **extra,
    )


def _active_lease(ctx: Ctx, lease_id: str) -> Lease:
    lease = ctx.get(Lease, lease_id, field="lease_id")
    if lease.status != "active":
        raise RuleViolation(
            f"lease {lease.id} is {lease.status}, not active",
            field="lease_id",
            hint="list the unit's leases to find the active one",
        )
    return lease


def _apply(ctx: Ctx, lease: Lease, amount: int, method: str, day: dt.date) -> Payment:
    """Record a payment and apply it to the lease's open charges, oldest due first."""
    left = amount
    allocations: list[Allocation] = []
    for charge in _open_charges(ctx, lease.id):
        if left == 0:
            break
        part = min(left, charge.amount - charge.paid)
        paid = charge.paid + part
        ctx.update(charge, paid=paid, status="paid" if paid == charge.amount else "open")
        allocations.append(Allocation(charge_id=charge.id, invoice_number=charge.invoice_number, amount=part))
        left -= part
    return ctx.create(
        Payment,
        lease_id=lease.id,
        tenant_id=lease.tenant_id,
        amount=amount,
        currency=lease.currency,
        method=method,
        received_on=day,
        allocations=allocations,
    )


# -- examples --------------------------------------------------------------------------------------------


def _example_create_lease(ctx: Ctx) -> dict[str, Any] | None:
    tenant = ctx.first(Tenant)
    start = _next_month(_next_month(ctx.today()))
    for unit in ctx.scan(Unit):
        leases = [ls for ls in ctx.where(Lease, unit_id=unit.id) if ls.status in HOLDING]
        if tenant is not None and all(ls.end_date < start for ls in leases):
            return {
                "unit_id": unit.id,
                "tenant_id": tenant.id,
                "start_date": start.isoformat(),
                "end_date": (start + dt.timedelta(days=364)).isoformat(),
            }
    return None


_example_activate = first_example(
    Lease, "lease_id", where={"status": "draft"}, match=lambda ctx, lease: ctx.get(Unit, lease.unit_id).rent_ready
)


def _example_post(ctx: Ctx) -> dict[str, Any]:
    return {"month": _next_month(ctx.today()).isoformat()}


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for lease in ctx.where(Lease, status="active"):
        balance = _balance(ctx, lease.id)
        if balance > 0:
            return {"lease_id": lease.id, "amount": balance, "method": "ach"}
    return None


def _example_end(ctx: Ctx) -> dict[str, Any] | None:
    lease = ctx.first(Lease, status="active")
    if lease is None:
        return None
    return {"lease_id": lease.id, "move_out_date": ctx.today().isoformat(), "deductions": 0}


def _example_complete(ctx: Ctx) -> dict[str, Any] | None:
    order = ctx.first(WorkOrder, status="assigned")
    if order is None or order.estimate is None:
        return None
    return {"work_order_id": order.id, "cost": order.estimate}


# -- domain tools --------------------------------------------------------------------------------------------


@service.tool(intent="draw up a lease for the unit", write=True, example=_example_create_lease)
def create_lease(
    ctx: Ctx,
    unit_id: UnitId,
    tenant_id: TenantId,
    start_date: Date,
    end_date: Date,
    monthly_rent: Cents | None = None,
    deposit: Cents | None = None,
) -> Lease:
    """Draw up a draft lease of a unit for a tenant, in the building's currency.

    No other draft or active lease may hold the unit on any of its days, and the deposit
    is capped at two months' rent.

    Args:
        unit_id: The unit.
        tenant_id: The tenant.
        start_date: First day.
        end_date: Last day of the term, after the start.
        monthly_rent: Rent per month in minor units; omit for the unit's market rent.
        deposit: Security deposit in minor units; omit for one month's rent.
    """
    unit = ctx.get(Unit, unit_id, field="unit_id")
    prop = ctx.get(Property, unit.property_id)
    rent = unit.market_rent if monthly_rent is None else monthly_rent
    lease = ctx.create(
        Lease,
        unit_id=unit.id,
        tenant_id=tenant_id,
        start_date=start_date,
        end_date=end_date,
        monthly_rent=rent,
        deposit=rent if deposit is None else deposit,
        currency=prop.currency,
    )
    _guard_lease(ctx, lease, None)
    return lease


@service.tool(intent="sign the lease and move the tenant in", write=True, example=_example_activate)
def activate_lease(ctx: Ctx, lease_id: LeaseId) -> Lease:
    """Make a draft lease active; posts the deposit and the first month's rent, both due on the start date.

    The unit must be rent-ready and no other lease may hold it for those dates.

    Args:
        lease_id: The draft lease.
    """
    lease = ctx.get(Lease, lease_id, field="lease_id")
    if lease.status != "draft":
        raise RuleViolation(
            f"lease {lease.id} is {lease.status}; only a draft lease can be activated",
            field="lease_id",
            hint="create a new lease for a new term",
        )
    unit = ctx.get(Unit, lease.unit_id)
    if not unit.rent_ready:
        raise RuleViolation(
            f"unit {unit.unit_number} is not rent-ready",
            field="lease_id",
            hint="finish its work orders and mark it rent-ready with propertymgmt__update_unit",
        )
    active = ctx.update(lease, status="active")
    if lease.deposit:
        _charge(ctx, active, "deposit", lease.deposit, lease.start_date, description="Security deposit")
    period = _month_start(lease.start_date)
    _charge(
        ctx, active, "rent", lease.monthly_rent, lease.start_date, period=period, description=f"Rent {period:%B %Y}"
    )
    return active


class RentRun(BaseModel):
    """The result of posting a month's rent."""

    month: Date = Field(description="First day of the month posted.")
    posted: list[Charge] = Field(description="Rent charges created.")
    skipped: int = Field(description="Active leases that already had this month's rent.")
    total: Cents = Field(description="Sum of the posted charges.")


@service.tool(intent="post the month's rent charges", write=True, example=_example_post)
def post_monthly_rent(ctx: Ctx, month: Date, property_id: PropertyId | None = None) -> RentRun:
    """Post one rent charge, due on the 1st, for every lease active in a month; leases already charged are skipped.

    Rent can be posted at most one month ahead.

    Args:
        month: Any day of the month to post (normalised to its first day).
        property_id: Only this building; omit for all.
    """
    first = _month_start(month)
    ahead = _next_month(ctx.today())
    if first > ahead:
        raise RuleViolation(
            f"rent can be posted at most one month ahead (up to {ahead:%Y-%m})",
            field="month",
            hint=f"post {ahead:%Y-%m} or an earlier month",
        )
    last = _next_month(first) - dt.timedelta(days=1)
    unit_ids = None if property_id is None else {u.id for u in ctx.where(Unit, property_id=property_id)}
    posted: list[Charge] = []
    skipped = 0
    for lease in ctx.where(Lease, status="active"):
        if unit_ids is not None and lease.unit_id not in unit_ids:
            continue
        if not _overlap(lease.start_date, lease.end_date, first, last):
            continue
        if ctx.first(Charge, lease_id=lease.id, kind="rent", period=first) is not None:
            skipped += 1
            continue
        posted.append(
            _charge(ctx, lease, "rent", lease.monthly_rent, first, period=first, description=f"Rent {first:%B %Y}")
        )
    return RentRun(month=first, posted=posted, skipped=skipped, total=sum(c.amount for c in posted))


@service.tool(intent="record the tenant's payment", write=True, example=_example_pay)
def record_payment(
    ctx: Ctx, lease_id: LeaseId, amount: Cents, method: PayMethod, received_on: Date | None = None
) -> Payment:
    """Record money received for a lease and apply it to its open charges, oldest due first.

    A payment cannot exceed the lease's open balance (no prepayments).

    Args:
        lease_id: The lease paid for (active or ended with a balance).
        amount: Amount received in minor units.
        method: ach, card, check or cash.
        received_on: Day received; omit for today.
    """
    lease = ctx.get(Lease, lease_id, field="lease_id")
    balance = _balance(ctx, lease.id)
    if balance == 0:
        raise RuleViolation(
            f"lease {lease.id} has no open balance", field="lease_id", hint="nothing is owed; no payment is needed"
        )
    if amount <= 0 or amount > balance:
        raise RuleViolation(
            f"the payment must be between 1 and the open balance of {balance}",
            field="amount",
            hint=f"pay at most {balance}",
        )
    day = received_on or ctx.today()
    if day > ctx.today():
        raise RuleViolation("a payment cannot be received in the future", field="received_on", hint="use today")
    return _apply(ctx, lease, amount, method, day)


class Ledger(BaseModel):
    """A lease's ledger: every charge and payment and what is still owed."""

    lease_id: LeaseId = Field(description="The lease.")
    tenant_name: PersonName = Field(description="The tenant.")
    tenant_email: Email = Field(description="The tenant's e-mail.")
    currency: Currency = Field(description="Currency of the amounts.")
    charges: list[Charge] = Field(description="Charges by due date.")
    payments: list[Payment] = Field(description="Payments by date received.")
    total_charged: Cents = Field(description="Sum of the non-void charges.")
    total_paid: Cents = Field(description="Sum of the payments.")
    balance: Cents = Field(description="Still owed.")
    past_due: Cents = Field(description="Owed on charges due before today.")


@service.tool(
    intent="look up the tenant's ledger and balance",
    example=first_example(Lease, "lease_id", where={"status": "active"}),
)
def tenant_ledger(ctx: Ctx, lease_id: LeaseId) -> Ledger:
    """Show a lease's charges, payments, balance and past-due amount.

    Args:
        lease_id: The lease.
    """
    lease = ctx.get(Lease, lease_id, field="lease_id")
    tenant = ctx.get(Tenant, lease.tenant_id)
    charges = sorted(ctx.where(Charge, lease_id=lease.id), key=lambda c: (c.due_date, c.id))
    pays = sorted(ctx.where(Payment, lease_id=lease.id), key=lambda p: (p.received_on, p.id))
    live = [c for c in charges if c.status != "void"]
    today = ctx.today()
    return Ledger(
        lease_id=lease.id,
        tenant_name=tenant.name,
        tenant_email=tenant.email,
        currency=lease.currency,
        charges=charges,
        payments=pays,
        total_charged=sum(c.amount for c in live),
        total_paid=sum(p.amount for p in pays),
        balance=sum(c.amount - c.paid for c in live),
        past_due=sum(c.amount - c.paid for c in live if c.due_date < today),
    )


@service.tool(intent="move the tenant out and settle the deposit", write=True, destructive=True, example=_example_end)
def end_lease(ctx: Ctx, lease_id: LeaseId, move_out_date: Date, deductions: Cents = 0) -> Lease:
    """Move a tenant out: the lease ends and the deposit is settled.

    Damage deductions (at most the deposit) and the unpaid balance are taken from the
    deposit; what remains is refunded. The unit is flagged not rent-ready for turnover.

    Args:
        lease_id: The active lease.
        move_out_date: The day the tenant left; on or after the start and not in the future.
        deductions: Damage and cleaning costs withheld, in minor units.
    """
    lease = _active_lease(ctx, lease_id)
    if move_out_date < lease.start_date or move_out_date > ctx.today():
        raise RuleViolation(
            f"the move-out date must be between {lease.start_date} and today",
            field="move_out_date",
            hint="give the day the keys were returned",
        )
    if deductions > lease.deposit:
        raise RuleViolation(
            f"deductions exceed the deposit of {lease.deposit}",
            field="deductions",
            hint="bill damage above the deposit as a separate charge",
        )
    owed = _balance(ctx, lease.id)
    refund = max(0, lease.deposit - deductions - owed)
    applied = min(owed, lease.deposit - deductions)
    if applied > 0:
        _apply(ctx, lease, applied, "deposit", move_out_date)
    ctx.update(ctx.get(Unit, lease.unit_id), rent_ready=False)
    return ctx.update(
        lease,
        status="ended",
        end_date=max(move_out_date, lease.start_date + dt.timedelta(days=1)),
        move_out_date=move_out_date,
        deposit_refund=refund,
    )


@service.tool(
    intent="assign the work order to a vendor",
    write=True,
    example=first_example(
        WorkOrder,
        "work_order_id",
        where={"status": "new"},
        vendor="Granite Supply",
        vendor_email="ops@granitesupply.com",
    ),
)
def assign_work_order(
    ctx: Ctx, work_order_id: WorkOrderId, vendor: CompanyName, vendor_email: Email, estimate: Cents | None = None
) -> WorkOrder:
    """Give a new work order to a vendor with their estimate.

    Args:
        work_order_id: The new work order.
        vendor: The contractor.
        vendor_email: The contractor's e-mail.
        estimate: Their estimate in minor units.
    """
    order = ctx.get(WorkOrder, work_order_id, field="work_order_id")
    if order.status != "new":
        raise RuleViolation(
            f"work order {order.id} is {order.status}; only new work orders are assigned",
            field="work_order_id",
            hint="a cancelled or completed work order cannot be reassigned; create a new one",
        )
    return ctx.update(order, status="assigned", vendor=vendor, vendor_email=vendor_email, estimate=estimate)


@service.tool(intent="complete the work order", write=True, example=_example_complete)
def complete_work_order(
    ctx: Ctx,
    work_order_id: WorkOrderId,
    cost: Cents,
    note: Text | None = None,
    bill_to_tenant: bool = False,
) -> WorkOrder:
    """Complete an assigned work order with its final cost.

    A cost more than 10% above the estimate needs a note. Billing the tenant posts a
    repair charge on the reporting tenant's active lease, due in 14 days.

    Args:
        work_order_id: The assigned work order.
        cost: Final cost in minor units.
        note: What was done.
        bill_to_tenant: Charge the cost to the tenant who reported it (tenant-caused damage).
    """
    order = ctx.get(WorkOrder, work_order_id, field="work_order_id")
    if order.status != "assigned":
        raise RuleViolation(
            f"work order {order.id} is {order.status}; only assigned work orders are completed",
            field="work_order_id",
            hint="assign a vendor with propertymgmt__assign_work_order first",
        )
    if order.estimate is not None and cost > order.estimate * OVER_ESTIMATE and not (note or "").strip():
        raise RuleViolation(
            f"the cost {cost} is more than 10% above the estimate of {order.estimate}",
            field="note",
            hint="explain the overrun in a note",
        )
    if bill_to_tenant:
        lease = _current_lease(ctx, order.unit_id, order.tenant_id) if order.tenant_id else None
        if lease is None:
            raise RuleViolation(
                "no tenant with an active lease reported this work order",
                field="bill_to_tenant",
                hint="only damage reported by a current tenant can be billed to them",
            )
        _charge(ctx, lease, "repair", cost, ctx.today() + dt.timedelta(days=14), description=order.title)
    return ctx.update(order, status="completed", cost=cost, completion_note=note, completed_at=ctx.now())


class RollLine(BaseModel):
    """One unit on the rent roll."""

    unit_id: UnitId = Field(description="The unit.")
    unit_number: UnitNumber = Field(description="Its number.")
    market_rent: Cents = Field(description="Advertised rent.")
    lease_id: LeaseId | None = Field(description="The active lease; null when vacant.")
    tenant_name: PersonName | None = Field(description="The tenant.")
    tenant_email: Email | None = Field(description="The tenant's e-mail.")
    rent: Cents | None = Field(description="Rent of the active lease.")
    lease_end: Date | None = Field(description="End of the lease term.")
    balance: Cents = Field(description="Open balance of the lease.")


class RentRoll(BaseModel):
    """A building's rent roll."""

    property_id: PropertyId = Field(description="The building.")
    name: Title = Field(description="Its name.")
    currency: Currency = Field(description="Currency of the amounts.")
    units: list[RollLine] = Field(description="Every unit.")
    occupied: int = Field(description="Units with an active lease.")
    vacant: int = Field(description="Units without one.")
    occupancy: Percent = Field(description="Occupied share of the units, in percent.")
    scheduled_rent: Cents = Field(description="Monthly rent of the active leases.")
    outstanding: Cents = Field(description="Open balances of the active leases.")


@service.tool(intent="get the building's rent roll", example=first_example(Property, "property_id"))
def rent_roll(ctx: Ctx, property_id: PropertyId) -> RentRoll:
    """List a building's units with their tenants, rents and balances, and its occupancy.

    Args:
        property_id: The building.
    """
    prop = ctx.get(Property, property_id, field="property_id")
    lines: list[RollLine] = []
    for unit in sorted(ctx.where(Unit, property_id=prop.id), key=lambda u: u.unit_number):
        lease = _current_lease(ctx, unit.id)
        tenant = ctx.get(Tenant, lease.tenant_id) if lease else None
        lines.append(
            RollLine(
                unit_id=unit.id,
                unit_number=unit.unit_number,
                market_rent=unit.market_rent,
                lease_id=lease.id if lease else None,
                tenant_name=tenant.name if tenant else None,
                tenant_email=tenant.email if tenant else None,
                rent=lease.monthly_rent if lease else None,
                lease_end=lease.end_date if lease else None,
                balance=_balance(ctx, lease.id) if lease else 0,
            )
        )
    occupied = sum(1 for ln in lines if ln.lease_id)
    return RentRoll(
        property_id=prop.id,
        name=prop.name,
        currency=prop.currency,
        units=lines,
        occupied=occupied,
        vacant=len(lines) - occupied,
        occupancy=round(100 * occupied / len(lines), 1) if lines else 0.0,
        scheduled_rent=sum(ln.rent or 0 for ln in lines),
        outstanding=sum(ln.balance for ln in lines),
    )


# -- seed ------------------------------------------------------------------------------------------------

RENT_PER_SQFT: dict[str, float] = {
    "EUR": 2.1,
    "GBP": 2.6,
    "USD": 3.2,
    "CAD": 3.0,
    "SEK": 22.0,
    "JPY": 380.0,
    "SGD": 4.5,
    "AUD": 3.4,
    "BRL": 6.0,
}
ISSUES = (
    ("Leaking kitchen faucet", "low"),
    ("No hot water", "urgent"),
    ("Broken window latch", "normal"),
    ("Heating not working", "emergency"),
    ("Dishwasher will not drain", "normal"),
    ("Mould in the bathroom", "urgent"),
    ("Front door lock sticks", "normal"),
)
BUILDING_WORDS = ("Residences", "Lofts", "Court", "House")


@service.seeder
def seed(s: SeedContext) -> None:
    """Four buildings of customer owners, units, consumer tenants, leases with three months of ledger, work orders."""
    pop = s.population
    customers = list(pop.customers)
    managers = pop.staff("Operations")
    vendors = [c for c in customers if c.industry in ("manufacturing", "wholesale")][:3] or customers[:3]
    vendor_contacts = [(c, p) for c in vendors if (p := pop.first_contact(c)) is not None]
    tenants = iter([s.create(Tenant, name=p.name, email=p.email, phone=p.phone) for p in list(pop.consumers)[34:58]])
    orders = itertools.count()
    for b, owner in enumerate(customers[-4:]):
        _seed_building(s, b, owner, managers[b % len(managers)], tenants, vendor_contacts, orders)


def _seed_building(
    s: SeedContext,
    b: int,
    owner: Company,
    manager: Person,
    tenants: Iterator[Tenant],
    vendors: list[tuple[Company, Person]],
    orders: Iterator[int],
) -> None:
    """The ``b``-th building with five units: vacant ones (some with a draft lease), let ones with their ledger.

    Args:
        s: The seed context.
        b: The building's number.
        owner: The customer that owns it.
        manager: Its property manager.
        tenants: Tenants not yet housed; each let unit takes the next.
        vendors: Repair vendors and their contacts.
        orders: Numbers the work orders across buildings (their stage cycles with it).
    """
    place = owner.place
    street = owner.address.street.split(" ", 1)[1]
    prop = s.create(
        Property,
        name=f"{street} {BUILDING_WORDS[b % len(BUILDING_WORDS)]}",
        address=owner.address.model_copy(update={"street": f"{10 + b * 7} {street}"}),
        owner=owner.name,
        manager_email=manager.email,
        currency=place.currency,
        year_built=1920 + 17 * b,
    )
    minor = 1 if place.currency == "JPY" else 100
    per = RENT_PER_SQFT.get(place.currency, 3.0)
    today = s.now.date()
    for u in range(5):
        floor, letter = 1 + u // 2, "AB"[u % 2]
        beds = 1 + (u + b) % 3
        sqft = 420 + beds * 260 + 10 * s.rng.randint(0, 12)
        rent = int(sqft * per) // 10 * 10 * minor
        vacant = (u + b) % 5 == 4
        unit = s.create(
            Unit,
            property_id=prop.id,
            unit_number=f"{floor}{letter}",
            bedrooms=beds,
            sqft=sqft,
            market_rent=rent,
            rent_ready=not (vacant and b % 2 == 0),
        )
        if vacant:
            # A past tenant moved out; on the ready units a new tenant has a draft lease.
            tenant = next(tenants, None) if unit.rent_ready and b % 4 == 1 else None
            if tenant is not None:
                s.create(
                    Lease,
                    unit_id=unit.id,
                    tenant_id=tenant.id,
                    start_date=_next_month(today),
                    end_date=_next_month(today) + dt.timedelta(days=364),
                    monthly_rent=rent,
                    deposit=rent,
                    currency=place.currency,
                )
            continue
        tenant = next(tenants, None)
        if tenant is None:
            continue
        _seed_lease(s, b, u, unit, tenant, prop.currency, minor)
        if (u + b) % 3 != 2:
            _seed_work_order(s, b, u, unit, tenant, next(orders) % 4, vendors[(u + b) % len(vendors)], minor)


def _seed_lease(s: SeedContext, b: int, u: int, unit: Unit, tenant: Tenant, currency: str, minor: int) -> None:
    """An active lease of unit ``u`` of building ``b``: its deposit, three months of rent, some unpaid or late."""
    today = s.now.date()
    this_month = _month_start(today)
    months = [add_months(this_month, -2), add_months(this_month, -1), this_month]
    rent = unit.market_rent
    start = _month_start(months[0] - dt.timedelta(days=(31 * (u + b)) % 300))
    end = start + dt.timedelta(days=364)
    if end < today + dt.timedelta(days=60):
        end = start + dt.timedelta(days=729)
    lease = s.create(
        Lease,
        unit_id=unit.id,
        tenant_id=tenant.id,
        start_date=start,
        end_date=end,
        monthly_rent=rent,
        deposit=rent * (1 + (u % 2)),
        currency=currency,
        status="active",
    )
    dep = s.create(
        Charge,
        lease_id=lease.id,
        tenant_id=tenant.id,
        kind="deposit",
        description="Security deposit",
        amount=lease.deposit,
        paid=lease.deposit,
        currency=lease.currency,
        due_date=start,
        status="paid",
    )
    s.create(
        Payment,
        lease_id=lease.id,
        tenant_id=tenant.id,
        amount=dep.amount,
        currency=lease.currency,
        method="check",
        received_on=start,
        allocations=[Allocation(charge_id=dep.id, invoice_number=dep.invoice_number, amount=dep.amount)],
        created_at=utc_at(start, 12),
    )
    late = (u * 3 + b) % 7 == 2
    for m, month in enumerate(months):
        current = m == len(months) - 1
        unpaid = late and m >= 1
        partial = (u + b) % 4 == 1 and current
        paid = 0 if unpaid else (rent // 2 if partial else rent)
        charge = s.create(
            Charge,
            lease_id=lease.id,
            tenant_id=tenant.id,
            kind="rent",
            period=month,
            description=f"Rent {month:%B %Y}",
            amount=rent,
            paid=paid,
            currency=lease.currency,
            due_date=month,
            status="paid" if paid == rent else "open",
        )
        if paid:
            s.create(
                Payment,
                lease_id=lease.id,
                tenant_id=tenant.id,
                amount=paid,
                currency=lease.currency,
                method=("ach", "card", "check")[(u + m) % 3],
                received_on=month + dt.timedelta(days=(u + m) % 4),
                allocations=[Allocation(charge_id=charge.id, invoice_number=charge.invoice_number, amount=paid)],
                created_at=utc_at(month, 12),
            )
    if late:
        s.create(
            Charge,
            lease_id=lease.id,
            tenant_id=tenant.id,
            kind="late_fee",
            description=f"Late fee {months[1]:%B %Y}",
            amount=50 * minor,
            currency=lease.currency,
            due_date=months[1] + dt.timedelta(days=6),
        )


def _seed_work_order(
    s: SeedContext, b: int, u: int, unit: Unit, tenant: Tenant, stage: int, vendor: tuple[Company, Person], minor: int
) -> None:
    """A repair the tenant reported, at ``stage`` 0-3: new, assigned, completed or cancelled."""
    issue, prio = ISSUES[(u + 2 * b) % len(ISSUES)]
    company, contact = vendor
    estimate = (120 + 40 * u) * minor
    s.create(
        WorkOrder,
        unit_id=unit.id,
        tenant_id=tenant.id,
        title=issue,
        description=f"Reported by {tenant.name} in unit {unit.unit_number}.",
        priority=prio,
        entry_permitted=u % 2 == 0,
        status=("new", "assigned", "completed", "cancelled")[stage],
        vendor=company.name if stage in (1, 2) else None,
        vendor_email=contact.email if stage in (1, 2) else None,
        estimate=estimate if stage in (1, 2) else None,
        cost=estimate if stage == 2 else None,
        completion_note="Replaced the faulty part." if stage == 2 else None,
        created_at=s.now - dt.timedelta(days=2 + u + b),
        completed_at=s.now - dt.timedelta(days=1) if stage == 2 else None,
    )
