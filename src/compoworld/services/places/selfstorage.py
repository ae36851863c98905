"""Keepsafe Storage: self-storage facilities, units, rentals, gate access, delinquency, liens and auctions.

Modeled on the SiteLink Web Edition / storEDGE management APIs: facilities with gate hours and a
delinquency schedule; units by size, floor and climate control that go available → reserved → rented,
overlocked while a tenant is locked out, or unavailable for maintenance; reservations that hold a unit
for one tenant; move-ins that require a tenant protection (insurance) plan or the tenant's own
insurance, charge an admin fee, a prorated first month and the premium, and issue a gate code unique
at the facility; monthly rent posting; the end-of-day delinquency run that moves past-due rentals
through late (late fee), locked out (gate code disabled, unit overlocked) and lien (pre-lien notice);
auctions scheduled at least 14 days after the lien notice and sold once their day comes; payments
that clear the balance lift the lockout and cancel the auction; move-outs only with a zero balance.
"""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
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
    PersonName,
    Phone,
    PostalAddress,
    Timezone,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months
from compoworld.services.places._shared import local_address, local_phone

__all__ = ["service"]

service = Service(
    "selfstorage",
    title="Keepsafe Storage",
    category="self_storage",
    modeled_on="SiteLink Web Edition / storEDGE APIs (units, reservations, move-in / move-out, tenant "
    "protection plans, gate access codes, delinquency schedule with lockout, pre-lien notices and lien auctions)",
    description="Self-storage management: facilities with gate hours, units by size and climate control, "
    "tenants, reservations, move-ins with protection plans and gate codes, monthly rent, payments, the "
    "delinquency run with late fees, lockouts and lien notices, auctions, gate access and move-outs.",
)

FacilityId = Annotated[str, IdOf("selfstorage.facility")]
UnitId = Annotated[str, IdOf("selfstorage.unit")]
TenantId = Annotated[str, IdOf("selfstorage.tenant")]
ReservationId = Annotated[str, IdOf("selfstorage.reservation")]
RentalId = Annotated[str, IdOf("selfstorage.rental")]
PlanId = Annotated[str, IdOf("selfstorage.protection_plan")]
ChargeId = Annotated[str, IdOf("selfstorage.charge")]
PaymentId = Annotated[str, IdOf("selfstorage.payment")]
AccessId = Annotated[str, IdOf("selfstorage.access_event")]

GateCode = Annotated[str, StringConstraints(pattern=r"^\d{6}$")]
UnitNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z]?\d{1,4}[A-Z]?$")]
Hour = Annotated[int, Field(ge=0, le=24)]
Days = Annotated[int, Field(ge=1, le=365)]
UnitStatus = Literal["available", "reserved", "rented", "overlocked", "unavailable"]
ReservationStatus = Literal["active", "converted", "cancelled"]
RentalStatus = Literal["active", "moved_out", "auctioned"]
Stage = Literal["current", "late", "locked_out", "lien", "auction_scheduled"]
ChargeKind = Literal["rent", "protection", "admin_fee", "late_fee"]
PayMethod = Literal["cash", "card", "ach", "auction"]

AUCTION_NOTICE = dt.timedelta(days=14)


class Facility(Record):
    """A self-storage facility."""

    id: FacilityId
    name: CompanyName
    """The facility's name."""
    address: PostalAddress
    """Its address."""
    phone: Phone
    """Its office phone."""
    timezone: Timezone
    """Its time zone; gate hours are local."""
    currency: Currency
    """Billing currency."""
    gate_opens: Hour = 6
    """Gate opening hour, local time."""
    gate_closes: Hour = 22
    """Gate closing hour, local time."""
    admin_fee_cents: Cents = 2500
    """One-time fee charged at move-in."""
    late_fee_cents: Cents = 2000
    """Fee charged when a rental turns late."""
    late_after_days: Days = 5
    """Days past due before the late fee."""
    lockout_after_days: Days = 10
    """Days past due before the lockout."""
    lien_after_days: Days = 30
    """Days past due before the pre-lien notice."""


class Unit(Record):
    """A storage unit."""

    id: UnitId
    facility_id: FacilityId
    """The facility."""
    unit_number: UnitNumber
    """Its number at the facility (unique there)."""
    width_ft: Annotated[int, Field(ge=3, le=50)]
    """Width in feet."""
    length_ft: Annotated[int, Field(ge=3, le=60)]
    """Length in feet."""
    climate_controlled: bool = False
    """Whether it is heated and cooled."""
    floor: Annotated[int, Field(ge=0, le=10)] = 1
    """Floor (1: drive-up level)."""
    monthly_rate_cents: Cents
    """Street rate per month."""
    status: UnitStatus = "available"
    """available, reserved, rented, overlocked or unavailable."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Tenant(Record):
    """A person or business renting storage."""

    id: TenantId
    full_name: PersonName
    """The tenant's name."""
    email: Email
    """E-mail (unique)."""
    phone: Phone
    """Phone."""
    company_name: CompanyName | None = None
    """The business, for a business tenant."""
    created_at: Annotated[DateTime, CREATED]
    """When they were added."""


class ProtectionPlan(Record):
    """A tenant protection (insurance) plan offered at move-in."""

    id: PlanId
    name: Title
    """Plan name."""
    coverage_cents: Cents
    """Coverage of the stored goods."""
    monthly_premium_cents: Cents
    """Monthly premium."""


class Reservation(Record):
    """A unit held for a tenant until move-in."""

    id: ReservationId
    unit_id: UnitId
    """The unit."""
    tenant_id: TenantId
    """The tenant."""
    expected_move_in: Date
    """The planned move-in day."""
    status: ReservationStatus = "active"
    """active, converted (moved in) or cancelled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Rental(Record):
    """A tenant's rental (lease) of a unit."""

    id: RentalId
    facility_id: FacilityId
    """The facility."""
    unit_id: UnitId
    """The unit."""
    tenant_id: TenantId
    """The tenant."""
    rent_cents: Cents
    """Monthly rent."""
    protection_plan_id: PlanId | None = None
    """The protection plan (none: the tenant's own insurance)."""
    premium_cents: Cents = 0
    """Monthly protection premium."""
    move_in_date: Date
    """Move-in day."""
    next_due_date: Date
    """The next day rent is posted."""
    balance_cents: int = 0
    """Amount owed (negative: credit)."""
    past_due_since: Date | None = None
    """The due day of the oldest unpaid charge."""
    stage: Stage = "current"
    """current, late, locked_out, lien or auction_scheduled."""
    gate_code: GateCode
    """The tenant's gate code."""
    gate_access: bool = True
    """Whether the gate code opens the gate."""
    lien_notice_on: Date | None = None
    """When the pre-lien notice was sent."""
    auction_on: Date | None = None
    """The scheduled auction day."""
    status: RentalStatus = "active"
    """active, moved_out or auctioned."""
    moved_out_on: Date | None = None
    """Move-out day."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Charge(Record):
    """A charge posted to a rental's ledger."""

    id: ChargeId
    rental_id: RentalId
    """The rental."""
    kind: ChargeKind
    """rent, protection, admin_fee or late_fee."""
    amount_cents: Cents
    """Amount."""
    posted_on: Date
    """Posting day."""


class Payment(Record):
    """A payment received on a rental."""

    id: PaymentId
    rental_id: RentalId
    """The rental."""
    amount_cents: Annotated[int, Field(ge=1, le=10**9)]
    """Amount."""
    method: PayMethod
    """cash, card, ach or auction (sale proceeds)."""
    received_at: Annotated[DateTime, CREATED]
    """When it was received."""


class AccessEvent(Record):
    """A gate keypad entry."""

    id: AccessId
    facility_id: FacilityId
    """The facility."""
    gate_code: GateCode
    """The code entered."""
    rental_id: RentalId | None = None
    """The rental the code belongs to."""
    granted: bool
    """Whether the gate opened."""
    reason: Title
    """Why it opened or not."""
    at: Annotated[DateTime, CREATED]
    """When."""


class DelinquencyRun(Value):
    """What an end-of-day delinquency run changed at a facility."""

    facility_id: FacilityId
    """The facility."""
    late: tuple[RentalId, ...]
    """Rentals that turned late (late fee charged)."""
    locked_out: tuple[RentalId, ...]
    """Rentals locked out (gate code disabled, unit overlocked)."""
    lien: tuple[RentalId, ...]
    """Rentals sent a pre-lien notice."""


# -- rules ------------------------------------------------------------------------------------


def _guard_unit(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != old.status and any(r.status == "active" for r in ctx.where(Reservation, unit_id=new.id)):
        raise RuleViolation(f"unit {new.unit_number} is reserved", field="unit_id", hint="cancel the reservation")


facilities = service.resource(
    Facility,
    name="facility",
    plural="facilities",
    prefix="fac",
    create=False,
    filters=("currency",),
    search=("name",),
    update=("gate_opens", "gate_closes", "late_fee_cents", "lockout_after_days", "lien_after_days"),
    delete=False,
)
units = service.resource(
    Unit,
    name="unit",
    plural="units",
    prefix="unit",
    create=False,
    filters=("facility_id", "status", "climate_controlled", "width_ft", "length_ft", "floor"),
    search=("unit_number",),
    update=("monthly_rate_cents",),
    delete=False,
    transitions={
        "take_offline": Transition("status", ("available",), "unavailable", "take the unit offline for repairs"),
        "bring_online": Transition("status", ("unavailable",), "available", "make the unit rentable again"),
    },
    guard_update=_guard_unit,
)
tenants = service.resource(
    Tenant,
    name="tenant",
    plural="tenants",
    prefix="ten",
    create=("full_name", "email", "phone", "company_name"),
    filters=("email", "company_name"),
    search=("full_name", "email"),
    update=("phone", "email"),
    delete=False,
    unique=("email",),
)
plans = service.resource(
    ProtectionPlan,
    name="protection_plan",
    plural="protection_plans",
    prefix="tpp",
    create=False,
    get=False,
    delete=False,
    title="protection plan",
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="rsv",
    create=False,
    get=False,
    filters=("unit_id", "tenant_id", "status"),
    delete=False,
)
rentals = service.resource(
    Rental,
    name="rental",
    plural="rentals",
    prefix="rnt",
    create=False,
    filters=("facility_id", "unit_id", "tenant_id", "stage", "status"),
    delete=False,
)
charges = service.resource(
    Charge,
    name="charge",
    plural="charges",
    prefix="chg",
    create=False,
    get=False,
    filters=("rental_id", "kind"),
    delete=False,
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    get=False,
    filters=("rental_id", "method"),
    delete=False,
)
access = service.resource(
    AccessEvent,
    name="access_event",
    plural="access_events",
    prefix="gate",
    create=False,
    get=False,
    filters=("facility_id", "rental_id", "granted"),
    delete=False,
    title="gate access event",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_reserve(ctx: Ctx) -> dict[str, Any] | None:
    unit, tenant = ctx.first(Unit, status="available"), ctx.first(Tenant)
    if unit is None or tenant is None:
        return None
    when = (ctx.today() + dt.timedelta(days=5)).isoformat()
    return {"unit_id": unit.id, "tenant_id": tenant.id, "expected_move_in": when}


@service.tool(intent="reserve the storage unit", write=True, example=_example_reserve)
def reserve_unit(ctx: Ctx, unit_id: UnitId, tenant_id: TenantId, expected_move_in: Date) -> Reservation:
    """Hold an available unit for a tenant until move-in (at most 30 days ahead).

    Args:
        unit_id: An available unit.
        tenant_id: The tenant.
        expected_move_in: The planned move-in day, today to 30 days ahead.
    """
    unit = ctx.get(Unit, unit_id, field="unit_id")
    tenant = ctx.get(Tenant, tenant_id, field="tenant_id")
    if unit.status != "available":
        raise Conflict(f"unit {unit.unit_number} is {unit.status}", field="unit_id", hint="pick an available unit")
    if not ctx.today() <= expected_move_in <= ctx.today() + dt.timedelta(days=30):
        raise RuleViolation("move-in must be within 30 days", field="expected_move_in", hint="pick a nearer day")
    ctx.update(unit, status="reserved")
    return ctx.create(Reservation, unit_id=unit.id, tenant_id=tenant.id, expected_move_in=expected_move_in)


@service.tool(
    intent="cancel the unit reservation",
    write=True,
    example=first_example(Reservation, "reservation_id", where={"status": "active"}),
)
def cancel_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Cancel an active reservation; the unit becomes available.

    Args:
        reservation_id: The reservation.
    """
    rsv = ctx.get(Reservation, reservation_id, field="reservation_id")
    if rsv.status != "active":
        raise Conflict(f"reservation {rsv.id} is {rsv.status}", field="reservation_id", hint="nothing to cancel")
    rsv = ctx.update(rsv, status="cancelled")
    ctx.update(ctx.get(Unit, rsv.unit_id), status="available")
    return rsv


def _charge(ctx: Ctx, rental: Rental, kind: ChargeKind, amount: int) -> Rental:
    ctx.create(Charge, rental_id=rental.id, kind=kind, amount_cents=amount, posted_on=ctx.today())
    return ctx.update(rental, balance_cents=rental.balance_cents + amount)


def _gate_code(ctx: Ctx, facility_id: str) -> str:
    used = {r.gate_code for r in ctx.where(Rental, facility_id=facility_id, status="active")}
    while True:
        code = f"{ctx.rng.randint(100000, 999999)}"
        if code not in used:
            return code


def _example_move_in(ctx: Ctx) -> dict[str, Any] | None:
    unit, tenant, plan = ctx.first(Unit, status="available"), ctx.first(Tenant), ctx.first(ProtectionPlan)
    if unit is None or tenant is None or plan is None:
        return None
    return {"unit_id": unit.id, "tenant_id": tenant.id, "protection_plan_id": plan.id, "method": "card"}


@service.tool(intent="move the tenant in", write=True, example=_example_move_in)
def move_in(
    ctx: Ctx,
    unit_id: UnitId,
    tenant_id: TenantId,
    method: Literal["cash", "card", "ach"],
    protection_plan_id: PlanId | None = None,
    own_insurance: bool = False,
) -> Rental:
    """Rent a unit to a tenant: admin fee, prorated first month and premium are charged and paid now.

    Args:
        unit_id: An available unit, or one reserved for this tenant.
        tenant_id: The tenant.
        method: How the move-in total is paid: cash, card or ach.
        protection_plan_id: The protection plan; required unless the tenant declares their own insurance.
        own_insurance: The tenant's goods are insured elsewhere (declaration on file).
    """
    unit = ctx.get(Unit, unit_id, field="unit_id")
    tenant = ctx.get(Tenant, tenant_id, field="tenant_id")
    rsv = ctx.first(Reservation, unit_id=unit.id, status="active")
    if unit.status == "reserved" and rsv is not None and rsv.tenant_id != tenant.id:
        raise Conflict(f"unit {unit.unit_number} is reserved for someone else", field="unit_id", hint="pick another")
    if unit.status not in ("available", "reserved"):
        raise Conflict(f"unit {unit.unit_number} is {unit.status}", field="unit_id", hint="pick an available unit")
    plan = (
        None if protection_plan_id is None else ctx.get(ProtectionPlan, protection_plan_id, field="protection_plan_id")
    )
    if plan is None and not own_insurance:
        raise RuleViolation(
            "goods must be protected", field="protection_plan_id", hint="pick a plan or declare own insurance"
        )
    fac = ctx.get(Facility, unit.facility_id)
    today = ctx.today()
    days = calendar.monthrange(today.year, today.month)[1]
    first_due = add_months(today.replace(day=1), 1)
    rental = ctx.create(
        Rental,
        facility_id=fac.id,
        unit_id=unit.id,
        tenant_id=tenant.id,
        rent_cents=unit.monthly_rate_cents,
        protection_plan_id=None if plan is None else plan.id,
        premium_cents=0 if plan is None else plan.monthly_premium_cents,
        move_in_date=today,
        next_due_date=first_due,
        gate_code=_gate_code(ctx, fac.id),
    )
    rental = _charge(ctx, rental, "admin_fee", fac.admin_fee_cents)
    rental = _charge(ctx, rental, "rent", unit.monthly_rate_cents * (first_due - today).days // days)
    if plan is not None:
        rental = _charge(ctx, rental, "protection", plan.monthly_premium_cents)
    ctx.create(Payment, rental_id=rental.id, amount_cents=rental.balance_cents, method=method)
    if rsv is not None:
        ctx.update(rsv, status="converted")
    ctx.update(unit, status="rented")
    return ctx.update(rental, balance_cents=0)


def _live(ctx: Ctx, rental_id: str) -> Rental:
    r = ctx.get(Rental, rental_id, field="rental_id")
    if r.status != "active":
        raise RuleViolation(f"rental {r.id} is {r.status}", field="rental_id", hint="pick an active rental")
    return r


@service.tool(
    intent="take the rent payment",
    write=True,
    example=first_example(
        Rental, "rental_id", where={"stage": "locked_out"}, fields={"amount_cents": "balance_cents"}, method="card"
    ),
)
def take_payment(
    ctx: Ctx,
    rental_id: RentalId,
    amount_cents: Annotated[int, Field(ge=1, le=10**9)],
    method: Literal["cash", "card", "ach"],
) -> Rental:
    """Take a payment; paying the whole balance lifts a lockout, the lien and any scheduled auction.

    Args:
        rental_id: An active rental.
        amount_cents: The amount, at most the balance plus one month's rent.
        method: cash, card or ach.
    """
    r = _live(ctx, rental_id)
    if amount_cents > max(r.balance_cents, 0) + r.rent_cents + r.premium_cents:
        raise RuleViolation("overpayment beyond a month ahead", field="amount_cents", hint="pay the balance")
    ctx.create(Payment, rental_id=r.id, amount_cents=amount_cents, method=method)
    r = ctx.update(r, balance_cents=r.balance_cents - amount_cents)
    if r.balance_cents > 0:
        return r
    if r.stage in ("locked_out", "lien", "auction_scheduled"):
        ctx.update(ctx.get(Unit, r.unit_id), status="rented")
    return ctx.update(r, stage="current", past_due_since=None, gate_access=True, lien_notice_on=None, auction_on=None)


@service.tool(
    intent="post the monthly rent",
    write=True,
    example=first_example(Facility, "facility_id"),
)
def post_rent(ctx: Ctx, facility_id: FacilityId) -> list[Rental]:
    """Post rent and premium to every active rental of the facility whose due day has come.

    Args:
        facility_id: The facility.
    """
    fac = ctx.get(Facility, facility_id, field="facility_id")
    out: list[Rental] = []
    for r in ctx.where(Rental, facility_id=fac.id, status="active"):
        while r.next_due_date <= ctx.today():
            due = r.next_due_date
            r = _charge(ctx, r, "rent", r.rent_cents)
            if r.premium_cents:
                r = _charge(ctx, r, "protection", r.premium_cents)
            since = r.past_due_since if r.past_due_since is not None or r.balance_cents <= 0 else due
            r = ctx.update(r, next_due_date=add_months(due, 1), past_due_since=since)
            out.append(r)
    if not out:
        raise RuleViolation(f"no rent is due at {fac.name}", field="facility_id", hint="rent posts on the due day")
    return out


@service.tool(intent="run the delinquency schedule", write=True, example=first_example(Facility, "facility_id"))
def run_delinquency(ctx: Ctx, facility_id: FacilityId) -> DelinquencyRun:
    """End-of-day run: past-due rentals turn late (fee), locked out (gate off, overlock) and lien (notice).

    Args:
        facility_id: The facility.
    """
    fac = ctx.get(Facility, facility_id, field="facility_id")
    late: list[str] = []
    locked: list[str] = []
    lien: list[str] = []
    for r in ctx.where(Rental, facility_id=fac.id, status="active"):
        if r.balance_cents <= 0 or r.past_due_since is None:
            continue
        days = (ctx.today() - r.past_due_since).days
        if r.stage == "current" and days >= fac.late_after_days:
            r = ctx.update(_charge(ctx, r, "late_fee", fac.late_fee_cents), stage="late")
            late.append(r.id)
        if r.stage == "late" and days >= fac.lockout_after_days:
            r = ctx.update(r, stage="locked_out", gate_access=False)
            ctx.update(ctx.get(Unit, r.unit_id), status="overlocked")
            locked.append(r.id)
        if r.stage == "locked_out" and days >= fac.lien_after_days:
            ctx.update(r, stage="lien", lien_notice_on=ctx.today())
            lien.append(r.id)
    return DelinquencyRun(facility_id=fac.id, late=tuple(late), locked_out=tuple(locked), lien=tuple(lien))


@service.tool(
    intent="schedule the lien auction",
    write=True,
    example=first_example(
        Rental,
        "rental_id",
        where={"stage": "lien"},
        match=lambda c, r: (
            r.lien_notice_on is not None and r.lien_notice_on + AUCTION_NOTICE <= c.today() + dt.timedelta(days=30)
        ),
    ),
)
def schedule_auction(ctx: Ctx, rental_id: RentalId, auction_on: Date | None = None) -> Rental:
    """Schedule the lien auction of a rental under lien, at least 14 days after its pre-lien notice.

    Args:
        rental_id: A rental in the lien stage.
        auction_on: The auction day (default: the earliest allowed, and never before tomorrow).
    """
    r = _live(ctx, rental_id)
    if r.stage != "lien" or r.lien_notice_on is None:
        raise RuleViolation(
            f"rental {r.id} is {r.stage}", field="rental_id", hint="only rentals under lien go to auction"
        )
    earliest = max(r.lien_notice_on + AUCTION_NOTICE, ctx.today() + dt.timedelta(days=1))
    day = auction_on or earliest
    if day < earliest:
        raise RuleViolation(
            f"the auction can be on {earliest} at the earliest", field="auction_on", hint="pick a later day"
        )
    return ctx.update(r, stage="auction_scheduled", auction_on=day)


@service.tool(
    intent="record the auction sale",
    write=True,
    destructive=True,
    example=first_example(
        Rental,
        "rental_id",
        where={"stage": "auction_scheduled"},
        match=lambda c, r: r.auction_on is not None and r.auction_on <= c.today(),
        winning_bid_cents=41000,
    ),
)
def sell_at_auction(ctx: Ctx, rental_id: RentalId, winning_bid_cents: Annotated[int, Field(ge=1, le=10**9)]) -> Rental:
    """Record the sale of a unit's contents on its auction day: proceeds pay the balance, the unit is freed.

    Args:
        rental_id: A rental with an auction scheduled for today or earlier.
        winning_bid_cents: The winning bid.
    """
    r = _live(ctx, rental_id)
    if r.stage != "auction_scheduled" or r.auction_on is None or r.auction_on > ctx.today():
        raise RuleViolation("no auction is due for this rental", field="rental_id", hint="wait for the auction day")
    ctx.create(Payment, rental_id=r.id, amount_cents=winning_bid_cents, method="auction")
    ctx.update(ctx.get(Unit, r.unit_id), status="available")
    return ctx.update(
        r,
        balance_cents=r.balance_cents - winning_bid_cents,
        status="auctioned",
        gate_access=False,
        moved_out_on=ctx.today(),
    )


@service.tool(
    intent="move the tenant out",
    write=True,
    destructive=True,
    example=first_example(
        Rental, "rental_id", where={"status": "active", "stage": "current"}, match=lambda c, r: r.balance_cents <= 0
    ),
)
def move_out(ctx: Ctx, rental_id: RentalId) -> Rental:
    """Move a tenant out: the balance must be paid; the gate code stops working and the unit is free again.

    Args:
        rental_id: An active rental with no balance owed.
    """
    r = _live(ctx, rental_id)
    if r.balance_cents > 0:
        raise RuleViolation(f"{r.balance_cents} cents are owed", field="rental_id", hint="take the payment first")
    ctx.update(ctx.get(Unit, r.unit_id), status="available")
    return ctx.update(r, status="moved_out", moved_out_on=ctx.today(), gate_access=False)


@service.tool(
    intent="reset the gate code",
    write=True,
    example=first_example(Rental, "rental_id", where={"status": "active", "stage": "current"}),
)
def reset_gate_code(ctx: Ctx, rental_id: RentalId) -> Rental:
    """Give an active rental a new gate code (the old one stops working).

    Args:
        rental_id: The rental.
    """
    r = _live(ctx, rental_id)
    return ctx.update(r, gate_code=_gate_code(ctx, r.facility_id))


@service.tool(
    intent="enter the gate code",
    write=True,
    example=first_example(
        Rental, None, where={"status": "active"}, fields={"facility_id": "facility_id", "gate_code": "gate_code"}
    ),
)
def enter_gate(ctx: Ctx, facility_id: FacilityId, gate_code: GateCode) -> AccessEvent:
    """Key a gate code at a facility's keypad: it opens for an active, not locked-out rental within gate hours.

    Args:
        facility_id: The facility.
        gate_code: The six-digit code.
    """
    fac = ctx.get(Facility, facility_id, field="facility_id")
    r = ctx.first(Rental, facility_id=fac.id, gate_code=gate_code, status="active")
    hour = ctx.now().astimezone(ZoneInfo(fac.timezone)).hour
    if r is None:
        reason = "unknown code"
    elif not r.gate_access:
        reason = "access suspended: balance past due"
    elif not fac.gate_opens <= hour < fac.gate_closes:
        reason = f"outside gate hours {fac.gate_opens}:00-{fac.gate_closes}:00"
    else:
        reason = "access granted"
    return ctx.create(
        AccessEvent,
        facility_id=fac.id,
        gate_code=gate_code,
        rental_id=None if r is None else r.id,
        granted=reason == "access granted",
        reason=reason,
    )


# -- seed -------------------------------------------------------------------------------------

SIZES: tuple[tuple[int, int, bool, int], ...] = (
    (5, 5, False, 4500),
    (5, 10, False, 7500),
    (5, 10, True, 9500),
    (10, 10, False, 12500),
    (10, 10, True, 15500),
    (10, 15, False, 16500),
    (10, 20, False, 21000),
    (10, 30, False, 29500),
)
PLANS: tuple[tuple[str, int, int], ...] = (
    ("Basic Protection $2,000", 200000, 1200),
    ("Standard Protection $5,000", 500000, 2200),
    ("Premium Protection $10,000", 1000000, 3900),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two facilities with units of every size, tenants from the population, rentals in every stage."""
    pop = s.population
    for name, cover, premium in PLANS:
        s.create(ProtectionPlan, name=name, coverage_cents=cover, monthly_premium_cents=premium)
    plan_ids = [p.id for p in s.records(ProtectionPlan)]
    places = [pop.home.place, *[p for p in pop.places if p.city != pop.home.place.city][:1]]
    made_units: list[Unit] = []
    facs: list[Facility] = []
    for k, place in enumerate(places):
        fac = s.create(
            Facility,
            name=f"Keepsafe Storage {place.city}",
            address=local_address(s.rng, place, "Industrial Way" if k == 0 else "Harbour Road", 900),
            phone=local_phone(s.rng, place),
            timezone=place.timezone,
            currency=place.currency,
        )
        facs.append(fac)
        for j in range(16 if k == 0 else 8):
            w, length, climate, rate = SIZES[j % len(SIZES)]
            made_units.append(
                s.create(
                    Unit,
                    facility_id=fac.id,
                    unit_number=f"{'AB'[k]}{101 + j}",
                    width_ft=w,
                    length_ft=length,
                    climate_controlled=climate,
                    floor=2 if climate else 1,
                    monthly_rate_cents=rate,
                    updated_at=s.ago(days=30),
                )
            )
    made_tenants: list[Tenant] = []
    for p in pop.consumers[:10]:
        made_tenants.append(
            s.create(Tenant, full_name=p.name, email=p.email, phone=p.phone, created_at=s.ago(days=400))
        )
    for co in pop.customers[:3]:
        c = pop.first_contact(co)
        if c is not None:
            made_tenants.append(
                s.create(
                    Tenant,
                    full_name=c.name,
                    email=c.email,
                    phone=c.phone,
                    company_name=co.name,
                    created_at=s.ago(days=500),
                )
            )
    _seed_rentals(s, facs, made_units, made_tenants, plan_ids)


def _seed_rentals(
    s: SeedContext, facs: list[Facility], units: list[Unit], tenants: list[Tenant], plans: list[str]
) -> None:
    """Rentals current, late, locked out, under lien and scheduled for auction; a reservation; a moved-out one."""
    today = s.now.date()
    due = add_months(today.replace(day=1), 1)
    # (days past due or None for current, stage)
    stages: tuple[tuple[int | None, Stage], ...] = (
        (None, "current"),
        (None, "current"),
        (None, "current"),
        (None, "current"),
        (7, "late"),
        (14, "locked_out"),
        (40, "lien"),
        (55, "auction_scheduled"),
        (None, "current"),
        (None, "current"),
    )
    fac_of = {f.id: f for f in facs}
    rented = [u for u in units if u.id != units[0].id][: len(stages)]
    for k, (unit, (late_days, stage)) in enumerate(zip(rented, stages, strict=True)):
        fac = fac_of[unit.facility_id]
        tenant = tenants[k % len(tenants)]
        plan = plans[k % len(plans)] if k % 4 else None
        premium = (1200, 2200, 3900)[k % 3] if plan else 0
        owed = 0 if late_days is None else (unit.monthly_rate_cents + premium) * (1 + late_days // 31)
        if stage != "current":
            owed += fac.late_fee_cents
        s.create(
            Rental,
            facility_id=fac.id,
            unit_id=unit.id,
            tenant_id=tenant.id,
            rent_cents=unit.monthly_rate_cents,
            protection_plan_id=plan,
            premium_cents=premium if plan else 0,
            move_in_date=today - dt.timedelta(days=120 + 30 * k),
            next_due_date=today if k == len(stages) - 1 else due,
            balance_cents=owed,
            past_due_since=None if late_days is None else today - dt.timedelta(days=late_days),
            stage=stage,
            gate_code=f"{482000 + 137 * k:06d}",
            gate_access=stage in ("current", "late"),
            lien_notice_on=today - dt.timedelta(days=late_days - 30) if late_days and late_days >= 30 else None,
            auction_on=today if stage == "auction_scheduled" else None,
            updated_at=s.ago(days=1),
        )
        s.update(unit, status="overlocked" if stage in ("locked_out", "lien", "auction_scheduled") else "rented")
    s.create(
        Reservation,
        unit_id=units[0].id,
        tenant_id=tenants[-1].id,
        expected_move_in=today + dt.timedelta(days=4),
        created_at=s.ago(days=2),
    )
    s.update(units[0], status="reserved")
    spare = [u for u in s.records(Unit) if u.status == "available"]
    s.update(spare[-1], status="unavailable")
    s.create(
        Rental,
        facility_id=spare[0].facility_id,
        unit_id=spare[0].id,
        tenant_id=tenants[0].id,
        rent_cents=spare[0].monthly_rate_cents,
        move_in_date=today - dt.timedelta(days=700),
        next_due_date=today - dt.timedelta(days=300),
        gate_code="700100",
        gate_access=False,
        status="moved_out",
        moved_out_on=today - dt.timedelta(days=300),
        updated_at=s.ago(days=300),
    )
