"""Lockbay: the company's parcel lockers: banks, compartments by size, deposits with pickup codes, expiry, returns.

Modeled on the Parcel Pending by Quadient (and Amazon Hub Locker+) carrier and
property APIs: locker banks at the company's sites, online or offline;
compartments sized small, medium, large or xl, available, occupied or out of
service; a carrier deposits a package for an employee into the smallest free
compartment it fits in a bank that is online (tracking numbers are unique
among live deliveries), which issues a six-digit pickup code and a hold
period; the recipient picks up with the code before expiry; a hold is extended
once; deliveries past their hold expire and are then returned to the sender,
which frees the compartment.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, DateTime, Email, IdOf, PersonName, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "lockers",
    title="Lockbay",
    category="parcel_lockers",
    modeled_on="Parcel Pending by Quadient / Amazon Hub Locker+ APIs: locker banks, compartments, carrier "
    "deposits with pickup codes, pickups, hold extensions, expiry and return to sender",
    description="Smart parcel lockers at the company's sites: locker banks and their compartments by size, "
    "packages deposited by carriers for employees with pickup codes, pickups, expired holds and returns.",
)

BankId = Annotated[str, IdOf("lockers.bank")]
CompartmentId = Annotated[str, IdOf("lockers.compartment")]
DeliveryId = Annotated[str, IdOf("lockers.delivery")]

Size = Literal["small", "medium", "large", "xl"]
SIZES: tuple[Size, ...] = ("small", "medium", "large", "xl")
Carrier = Literal["ups", "fedex", "dhl", "usps", "amazon", "dpd"]
Tracking = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{8,30}$")]
"""A carrier tracking number."""
PickupCode = Annotated[str, StringConstraints(pattern=r"^\d{6}$")]
"""A six-digit pickup code."""
DeliveryStatus = Literal["deposited", "picked_up", "expired", "returned"]


class Bank(Timestamped):
    """A locker bank at one of the company's sites."""

    id: BankId
    name: Title
    """Its name, e.g. HQ lobby."""
    city: City
    """The site's city."""
    hold_days: Annotated[int, Field(ge=1, le=14)] = 5
    """How many days a package is held."""
    status: Literal["online", "offline"] = "online"
    """online or offline (no deposits)."""


class Compartment(Timestamped):
    """One door of a bank."""

    id: CompartmentId
    bank_id: BankId
    """The bank."""
    label: Annotated[str, StringConstraints(pattern=r"^[A-Z]\d{2}$")]
    """Its door label, e.g. A01 (unique in the bank)."""
    size: Size
    """small, medium, large or xl."""
    status: Literal["available", "occupied", "out_of_service"] = "available"
    """available, occupied or out_of_service."""


class Delivery(Timestamped):
    """A package deposited into a compartment for a recipient."""

    id: DeliveryId
    bank_id: BankId
    """The bank."""
    compartment_id: CompartmentId
    """The compartment."""
    tracking_number: Tracking
    """The carrier's tracking number."""
    carrier: Carrier
    """The carrier."""
    recipient_name: PersonName
    """Who it is for."""
    recipient_email: Email
    """The recipient's e-mail (an employee)."""
    package_size: Size
    """The package's size class."""
    pickup_code: PickupCode
    """The code that opens the door."""
    status: DeliveryStatus = "deposited"
    """deposited, picked_up, expired or returned (to sender)."""
    deposited_at: DateTime
    """When the carrier deposited it."""
    expires_at: DateTime
    """When the hold ends."""
    extended: bool = False
    """Whether the hold was extended (once only)."""
    picked_up_at: DateTime | None = None
    """When it was picked up."""


class Occupancy(Value):
    """A bank's compartments by size and state."""

    bank_id: BankId
    """The bank."""
    free_by_size: dict[Size, int]
    """Available compartments per size."""
    occupied: int
    """Occupied compartments."""
    out_of_service: int
    """Compartments out of service."""
    awaiting_pickup: int
    """Deposited packages not yet picked up."""


# -- rules ------------------------------------------------------------------------------------


def _guard_compartment(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "out_of_service" and old.status == "occupied":
        raise Conflict("the compartment holds a package", field="compartment_id", hint="wait until it is emptied")


def _free(ctx: Ctx, comp: Compartment) -> None:
    ctx.update(comp, status="available")


banks = service.resource(
    Bank,
    name="bank",
    plural="banks",
    prefix="bank",
    create=("name", "city", "hold_days"),
    filters=("city", "status"),
    search=("name",),
    update=("name", "hold_days"),
    delete=False,
    transitions={
        "take_offline": Transition("status", ("online",), "offline", "take the locker bank offline"),
        "bring_online": Transition("status", ("offline",), "online", "bring the locker bank online"),
    },
    title="locker bank",
)
compartments = service.resource(
    Compartment,
    name="compartment",
    plural="compartments",
    prefix="cmp",
    create=False,
    filters=("bank_id", "size", "status", "label"),
    delete=False,
    transitions={
        "disable": Transition("status", ("available",), "out_of_service", "put the compartment out of service"),
        "enable": Transition("status", ("out_of_service",), "available", "put the compartment back in service"),
    },
    guard_update=_guard_compartment,
)
deliveries = service.resource(
    Delivery,
    name="delivery",
    plural="deliveries",
    prefix="dlv",
    create=False,
    filters=("bank_id", "compartment_id", "status", "recipient_email", "tracking_number", "carrier"),
    search=("recipient_name",),
    delete=False,
    title="locker delivery",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Bank)
    return None if b is None else {"bank_id": b.id, "label": "Z01", "size": "xl"}


@service.tool(intent="add a compartment to the locker bank", write=True, example=_example_add)
def add_compartment(
    ctx: Ctx, bank_id: BankId, label: Annotated[str, StringConstraints(pattern=r"^[A-Z]\d{2}$")], size: Size
) -> Compartment:
    """Add a door to a bank; labels are unique in the bank.

    Args:
        bank_id: The bank.
        label: Its door label, a letter and two digits.
        size: small, medium, large or xl.
    """
    bank = ctx.get(Bank, bank_id, field="bank_id")
    if ctx.first(Compartment, bank_id=bank.id, label=label) is not None:
        raise Conflict(f"door {label} exists in the bank", field="label", hint="use another label")
    return ctx.create(Compartment, bank_id=bank.id, label=label, size=size)


def _example_deposit(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Bank, status="online")
    p = ctx.population.employees[-1]
    return (
        None
        if b is None
        else {
            "bank_id": b.id,
            "tracking_number": "1Z999AA10123456784",
            "carrier": "ups",
            "recipient_email": p.email,
            "package_size": "small",
        }
    )


@service.tool(intent="deposit the package in a locker", write=True, example=_example_deposit)
def deposit_package(
    ctx: Ctx, bank_id: BankId, tracking_number: Tracking, carrier: Carrier, recipient_email: Email, package_size: Size
) -> Delivery:
    """A carrier deposits a package for an employee into the smallest free compartment it fits.

    Args:
        bank_id: The online bank.
        tracking_number: The tracking number (not already awaiting pickup).
        carrier: The carrier.
        recipient_email: The employee it is for.
        package_size: small, medium, large or xl.
    """
    bank = ctx.get(Bank, bank_id, field="bank_id")
    if bank.status != "online":
        raise Conflict("the locker bank is offline", field="bank_id", hint="use another bank or bring it online")
    person = next((p for p in ctx.population.employees if p.email == recipient_email), None)
    if person is None:
        raise RuleViolation(f"{recipient_email} is not an employee", field="recipient_email", hint="check it")
    for d in ctx.where(Delivery, tracking_number=tracking_number):
        if d.status in ("deposited", "expired"):
            raise Conflict(f"package {tracking_number} is already in {d.id}", field="tracking_number", hint="skip")
    fits = SIZES[SIZES.index(package_size) :]
    free = [c for c in ctx.where(Compartment, bank_id=bank.id, status="available") if c.size in fits]
    if not free:
        raise Conflict(
            f"no free compartment of size {package_size} or larger", field="package_size", hint="use another bank"
        )
    comp = min(free, key=lambda c: (SIZES.index(c.size), c.label))
    ctx.update(comp, status="occupied")
    now = ctx.now()
    return ctx.create(
        Delivery,
        bank_id=bank.id,
        compartment_id=comp.id,
        tracking_number=tracking_number,
        carrier=carrier,
        recipient_name=f"{person.first_name} {person.last_name}",
        recipient_email=recipient_email,
        package_size=package_size,
        pickup_code=f"{ctx.rng.randint(0, 999999):06d}",
        deposited_at=now,
        expires_at=now + dt.timedelta(days=bank.hold_days),
    )


def _example_pickup(ctx: Ctx) -> dict[str, Any] | None:
    d = ctx.first(Delivery, status="deposited")
    return None if d is None else {"delivery_id": d.id, "pickup_code": d.pickup_code}


@service.tool(intent="pick up the package", write=True, example=_example_pickup)
def pick_up(ctx: Ctx, delivery_id: DeliveryId, pickup_code: PickupCode) -> Delivery:
    """Open the door with the pickup code and take the package; it must not have expired.

    Args:
        delivery_id: The deposited delivery.
        pickup_code: Its six-digit code.
    """
    d = ctx.get(Delivery, delivery_id, field="delivery_id")
    if d.status != "deposited":
        raise Conflict(f"the package is {d.status}", field="delivery_id", hint="only deposited packages")
    if ctx.now() > d.expires_at:
        raise Conflict("the hold has expired", field="delivery_id", hint="the package goes back to the sender")
    if pickup_code != d.pickup_code:
        raise RuleViolation("wrong pickup code", field="pickup_code", hint="use the code from the notification")
    _free(ctx, ctx.get(Compartment, d.compartment_id))
    return ctx.update(d, status="picked_up", picked_up_at=ctx.now())


@service.tool(
    intent="reset the package's pickup code",
    write=True,
    example=first_example(Delivery, "delivery_id", where={"status": "deposited"}),
)
def reset_pickup_code(ctx: Ctx, delivery_id: DeliveryId) -> Delivery:
    """Issue a new pickup code for a deposited package (the old one stops working) and notify again.

    Args:
        delivery_id: The deposited delivery.
    """
    d = ctx.get(Delivery, delivery_id, field="delivery_id")
    if d.status != "deposited":
        raise Conflict(f"the package is {d.status}", field="delivery_id", hint="only deposited packages")
    code = d.pickup_code
    while code == d.pickup_code:
        code = f"{ctx.rng.randint(0, 999999):06d}"
    return ctx.update(d, pickup_code=code)


@service.tool(
    intent="extend the package's hold",
    write=True,
    example=first_example(Delivery, "delivery_id", where={"status": "deposited", "extended": False}),
)
def extend_hold(ctx: Ctx, delivery_id: DeliveryId) -> Delivery:
    """Keep a deposited package three more days; a hold is extended once.

    Args:
        delivery_id: The deposited delivery.
    """
    d = ctx.get(Delivery, delivery_id, field="delivery_id")
    if d.status != "deposited":
        raise Conflict(f"the package is {d.status}", field="delivery_id", hint="only deposited packages")
    if d.extended:
        raise RuleViolation("the hold was already extended", field="delivery_id", hint="pick it up or let it expire")
    return ctx.update(d, extended=True, expires_at=d.expires_at + dt.timedelta(days=3))


@service.tool(intent="expire the overdue packages", write=True, example=lambda ctx: {})
def expire_overdue(ctx: Ctx) -> list[Delivery]:
    """Mark every deposited package past its hold expired (they stay in their compartments until returned)."""
    now = ctx.now()
    return [ctx.update(d, status="expired") for d in ctx.where(Delivery, status="deposited") if d.expires_at < now]


@service.tool(
    intent="return the package to the sender",
    write=True,
    example=first_example(Delivery, "delivery_id", where={"status": "expired"}),
)
def return_to_sender(ctx: Ctx, delivery_id: DeliveryId) -> Delivery:
    """The carrier collects an expired package for return; its compartment is free again.

    Args:
        delivery_id: The expired delivery.
    """
    d = ctx.get(Delivery, delivery_id, field="delivery_id")
    if d.status != "expired":
        raise Conflict(f"the package is {d.status}", field="delivery_id", hint="only expired packages go back")
    _free(ctx, ctx.get(Compartment, d.compartment_id))
    return ctx.update(d, status="returned")


@service.tool(intent="show the locker bank's occupancy", example=first_example(Bank, "bank_id"))
def bank_occupancy(ctx: Ctx, bank_id: BankId) -> Occupancy:
    """A bank's free compartments per size, occupied and out-of-service ones, and packages awaiting pickup.

    Args:
        bank_id: The bank.
    """
    bank = ctx.get(Bank, bank_id, field="bank_id")
    comps = ctx.where(Compartment, bank_id=bank.id)
    return Occupancy(
        bank_id=bank.id,
        free_by_size={s: sum(c.size == s and c.status == "available" for c in comps) for s in SIZES},
        occupied=sum(c.status == "occupied" for c in comps),
        out_of_service=sum(c.status == "out_of_service" for c in comps),
        awaiting_pickup=len(ctx.where(Delivery, bank_id=bank.id, status="deposited")),
    )


# -- seed -------------------------------------------------------------------------------------

_LAYOUT: tuple[Size, ...] = ("small",) * 4 + ("medium",) * 3 + ("large",) * 2 + ("xl",)
_CARRIERS: tuple[Carrier, ...] = ("ups", "fedex", "dhl", "amazon", "usps", "dpd")


@service.seeder
def seed(s: SeedContext) -> None:
    """Two banks at the home company's city, ten doors each, packages for employees in every state."""
    pop = s.population
    city = pop.home.place.city
    made = [
        s.create(Bank, name=name, city=city, hold_days=days) for name, days in (("HQ lobby", 5), ("Loading dock", 3))
    ]
    spare = s.create(Bank, name="Annex mailroom", city=city, hold_days=7, status="offline")
    for k, size in enumerate(_LAYOUT[:4]):
        s.create(Compartment, bank_id=spare.id, label=f"B{k + 1:02d}", size=size)
    for bank in made:
        comps = [
            s.create(Compartment, bank_id=bank.id, label=f"A{k + 1:02d}", size=size) for k, size in enumerate(_LAYOUT)
        ]
        s.update(comps[6], status="out_of_service")
        for k, p in enumerate(pop.employees[:5] if bank is made[0] else pop.employees[5:8]):
            status: DeliveryStatus = ("deposited", "deposited", "picked_up", "expired", "returned")[k % 5]
            comp = comps[k]
            age = (1, 2, 3, 8, 12)[k % 5]
            at = s.ago(days=age)
            s.create(
                Delivery,
                bank_id=bank.id,
                compartment_id=comp.id,
                tracking_number=f"TRK{s.rng.randint(10**9, 10**10 - 1)}",
                carrier=_CARRIERS[k % len(_CARRIERS)],
                recipient_name=f"{p.first_name} {p.last_name}",
                recipient_email=p.email,
                package_size=comp.size,
                pickup_code=f"{s.rng.randint(0, 999999):06d}",
                status=status,
                deposited_at=at,
                expires_at=at + dt.timedelta(days=bank.hold_days if age < 8 else 3),
                picked_up_at=at + dt.timedelta(hours=5) if status == "picked_up" else None,
            )
            if status in ("deposited", "expired"):
                s.update(comp, status="occupied")
