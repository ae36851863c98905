"""Tollway: toll accounts with transponders and plates, posted tolls, violations with notices, replenishment.

Modeled on an E-ZPass customer service center back office (and agency APIs such
as the Bay Area FasTrak / Illinois Tollway account services): prepaid
accounts (personal or commercial) with a balance, a replenishment threshold
and amount and a payment method; vehicles by plate and state with a vehicle
class (axles); transponders (interior, exterior, switchable) issued to an
account and mounted on one of its vehicles, active or inactive, or reported
lost or stolen; toll transactions posted at a plaza by transponder read or by
plate image (pay-by-plate at a higher rate); violations for vehicles with no
valid account, with a notice, a due date and a fee, that go notice_sent →
paid, or disputed → dismissed or upheld, or are transferred to an account
(toll at the account rate, fee waived). A posted toll below the threshold
triggers an automatic replenishment; an account whose balance goes negative
without auto-replenishment is suspended and tolls become violations until it
is topped up; a plate is registered on one account only; a vehicle carries one
active transponder; a lost or stolen transponder never reads again.
Amounts are cents.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Phone, Title
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "tolls",
    title="Tollway",
    category="tolling",
    modeled_on="E-ZPass customer service center back office: prepaid accounts, vehicles and plates, "
    "transponders, toll transactions (transponder and pay-by-plate), violations and notices, replenishment",
    description="A toll agency's account back office: prepaid toll accounts with balances and automatic "
    "replenishment, the vehicles and plates on them, transponders issued and mounted, tolls posted at plazas "
    "by tag read or plate image, and violation notices that are paid, disputed or moved onto an account.",
)

AccountId = Annotated[str, IdOf("tolls.account")]
VehicleId = Annotated[str, IdOf("tolls.vehicle")]
TransponderId = Annotated[str, IdOf("tolls.transponder")]
TollId = Annotated[str, IdOf("tolls.toll")]
ViolationId = Annotated[str, IdOf("tolls.violation")]
ReplenishmentId = Annotated[str, IdOf("tolls.replenishment")]

Plate = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{2,8}$")]
"""A licence plate, upper case without spaces."""
UsState = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
"""The plate's issuing state or province."""
VehicleClass = Literal["motorcycle", "2_axle", "3_axle", "5_axle"]
CLASS_FACTOR: dict[str, float] = {"motorcycle": 0.5, "2_axle": 1.0, "3_axle": 2.0, "5_axle": 4.0}
PLAZAS: dict[str, int] = {
    "Harbor Bridge": 800,
    "Northern Parkway Exit 12": 275,
    "Airport Connector": 350,
    "Turnpike Mainline": 625,
}
"""Plazas and their 2-axle account toll."""
PLATE_SURCHARGE = 1.5
VIOLATION_FEE = 2500
NOTICE_DAYS = 30


class Account(Record):
    """A prepaid toll account."""

    id: AccountId
    holder_name: PersonName = Field(description="The account holder (or company contact).")
    email: Email = Field(description="The holder's e-mail (unique).")
    phone: Phone | None = Field(None, description="The holder's phone.")
    kind: Literal["personal", "commercial"] = Field("personal", description="personal or commercial.")
    balance: int = Field(0, description="Prepaid balance in cents (negative: owed).")
    auto_replenish: bool = Field(True, description="Whether the card on file tops it up.")
    replenish_threshold: Cents = Field(1000, description="Top up when the balance falls below this.")
    replenish_amount: Cents = Field(3500, description="How much a top-up adds.")
    status: Literal["active", "suspended", "closed"] = Field("active", description="active, suspended or closed.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was opened.")


class Vehicle(Record):
    """A vehicle registered on an account."""

    id: VehicleId
    account_id: AccountId = Field(description="The account.")
    plate: Plate = Field(description="Its plate.")
    plate_state: UsState = Field(description="Issuing state.")
    make_model: Title = Field(description="e.g. Toyota RAV4.")
    vehicle_class: VehicleClass = Field("2_axle", description="motorcycle, 2_axle, 3_axle or 5_axle.")


class Transponder(Record):
    """An E-ZPass tag."""

    id: TransponderId
    serial: Annotated[str, StringConstraints(pattern=r"^\d{3}-\d{8}$")] = Field(description="Tag serial (unique).")
    account_id: AccountId = Field(description="The account it is issued to.")
    vehicle_id: VehicleId | None = Field(None, description="The vehicle it is mounted on.")
    kind: Literal["interior", "exterior", "flex"] = Field("interior", description="interior, exterior or flex.")
    status: Literal["active", "inactive", "lost", "stolen"] = Field("active", description="Its state.")


class Toll(Record):
    """A toll transaction posted to an account."""

    id: TollId
    account_id: AccountId = Field(description="The account charged.")
    plaza: Title = Field(description="Where.")
    plate: Plate = Field(description="The plate seen.")
    transponder_id: TransponderId | None = Field(None, description="The tag read (None: pay by plate).")
    vehicle_class: VehicleClass = Field(description="Class charged.")
    amount: Cents = Field(description="Toll charged.")
    occurred_at: DateTime = Field(description="When the vehicle passed.")
    status: Literal["posted", "reversed"] = Field("posted", description="posted or reversed.")


class Violation(Record):
    """A toll violation with its notice."""

    id: ViolationId
    plate: Plate = Field(description="The plate.")
    plate_state: UsState = Field(description="Its state.")
    plaza: Title = Field(description="Where.")
    occurred_at: DateTime = Field(description="When.")
    toll_amount: Cents = Field(description="The unpaid toll.")
    fee: Cents = Field(VIOLATION_FEE, description="Administrative fee.")
    due_date: Date = Field(description="Pay by.")
    status: Literal["notice_sent", "paid", "disputed", "dismissed", "transferred"] = Field(
        "notice_sent", description="notice_sent, paid, disputed, dismissed or transferred."
    )
    dispute_reason: str = Field("", description="Why it was disputed.")


class Replenishment(Record):
    """Money added to an account."""

    id: ReplenishmentId
    account_id: AccountId = Field(description="The account.")
    amount: Cents = Field(description="Amount added.")
    source: Literal["auto", "manual", "cash"] = Field(description="auto (card on file), manual or cash.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When.")


# -- rules ------------------------------------------------------------------------------------


def _guard_account(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "closed":
        raise RuleViolation("the account is closed", field="account_id", hint="open a new account")
    if new.replenish_amount < new.replenish_threshold:
        raise RuleViolation(
            "the top-up must be at least the threshold", field="replenish_amount", hint="raise the replenish amount"
        )


accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acct",
    create=False,
    filters=("email", "status", "kind"),
    search=("holder_name", "email"),
    update=("phone", "auto_replenish", "replenish_threshold", "replenish_amount"),
    delete=False,
    guard_update=_guard_account,
)
vehicles = service.resource(
    Vehicle,
    name="vehicle",
    plural="vehicles",
    prefix="veh",
    create=False,
    filters=("account_id", "plate", "vehicle_class"),
    search=("make_model",),
    delete=False,
)
transponders = service.resource(
    Transponder,
    name="transponder",
    plural="transponders",
    prefix="tag",
    create=False,
    filters=("account_id", "vehicle_id", "status", "serial"),
    delete=False,
    transitions={
        "report_lost": Transition("status", ("active", "inactive"), "lost", "report the tag lost", destructive=True),
        "report_stolen": Transition(
            "status", ("active", "inactive"), "stolen", "report the tag stolen", destructive=True
        ),
    },
)
tolls = service.resource(
    Toll,
    name="toll",
    plural="tolls",
    prefix="trx",
    create=False,
    get=False,
    filters=("account_id", "plate", "plaza", "status"),
    delete=False,
)
violations = service.resource(
    Violation,
    name="violation",
    plural="violations",
    prefix="vio",
    create=False,
    filters=("plate", "status", "plaza"),
    delete=False,
)
replenishments = service.resource(
    Replenishment,
    name="replenishment",
    plural="replenishments",
    prefix="rpl",
    create=False,
    get=False,
    filters=("account_id", "source"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _account(ctx: Ctx, account_id: str, field: str = "account_id") -> Account:
    acct = ctx.get(Account, account_id, field=field)
    if acct.status == "closed":
        raise RuleViolation("the account is closed", field=field, hint="open a new account")
    return acct


def _credit(ctx: Ctx, acct: Account, amount: int, source: str) -> Account:
    ctx.create(Replenishment, account_id=acct.id, amount=amount, source=source)
    balance = acct.balance + amount
    return ctx.update(acct, balance=balance, status="active" if balance >= 0 else acct.status)


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.population.consumers[-1]
    return {"holder_name": p.name, "email": f"tolls.{p.email}", "opening_deposit": 3500}


@service.tool(intent="open the toll account", write=True, example=_example_open)
def open_account(
    ctx: Ctx,
    holder_name: PersonName,
    email: Email,
    opening_deposit: Cents,
    kind: Literal["personal", "commercial"] = "personal",
    phone: Phone | None = None,
) -> Account:
    """Open a prepaid account with an opening deposit ($25 minimum personal, $100 commercial).

    Args:
        holder_name: The holder.
        email: Their e-mail (one account per e-mail).
        opening_deposit: The first prepayment.
        kind: personal or commercial.
        phone: Their phone.
    """
    other = ctx.first(Account, email=email)
    if other is not None and other.status != "closed":
        raise Conflict(f"account {other.id} uses {email}", field="email", hint="add vehicles to that account")
    minimum = 10000 if kind == "commercial" else 2500
    if opening_deposit < minimum:
        raise RuleViolation(
            f"a {kind} account opens with at least {minimum}", field="opening_deposit", hint="raise the deposit"
        )
    acct = ctx.create(Account, holder_name=holder_name, email=email, phone=phone, kind=kind)
    return _credit(ctx, acct, opening_deposit, "manual")


@service.tool(
    intent="add the vehicle to the account",
    write=True,
    example=first_example(
        Account, "account_id", where={"status": "active"}, plate="ZX4821", plate_state="NY", make_model="Honda Civic"
    ),
)
def add_vehicle(
    ctx: Ctx,
    account_id: AccountId,
    plate: Plate,
    plate_state: UsState,
    make_model: Title,
    vehicle_class: VehicleClass = "2_axle",
) -> Vehicle:
    """Register a vehicle on an account; a plate and state belong to one account only.

    Args:
        account_id: The account.
        plate: Its plate.
        plate_state: Issuing state.
        make_model: Make and model.
        vehicle_class: motorcycle, 2_axle, 3_axle or 5_axle.
    """
    acct = _account(ctx, account_id)
    for v in ctx.where(Vehicle, plate=plate, plate_state=plate_state):
        if ctx.get(Account, v.account_id).status != "closed":
            raise Conflict(
                f"{plate_state} {plate} is on account {v.account_id}", field="plate", hint="remove it there first"
            )
    return ctx.create(
        Vehicle,
        account_id=acct.id,
        plate=plate,
        plate_state=plate_state,
        make_model=make_model,
        vehicle_class=vehicle_class,
    )


@service.tool(
    intent="remove the vehicle from the account",
    write=True,
    destructive=True,
    example=first_example(Vehicle, "vehicle_id", match=lambda c, v: not c.where(Transponder, vehicle_id=v.id)),
)
def remove_vehicle(ctx: Ctx, vehicle_id: VehicleId) -> Vehicle:
    """Remove a vehicle from its account; a tag mounted on it is unmounted and deactivated.

    Args:
        vehicle_id: The vehicle.
    """
    v = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    for tag in ctx.where(Transponder, vehicle_id=v.id):
        ctx.update(tag, vehicle_id=None, status="inactive" if tag.status == "active" else tag.status)
    ctx.delete(v)
    return v


def _example_issue(ctx: Ctx) -> dict[str, Any] | None:
    for v in ctx.scan(Vehicle):
        tagged = any(t.status == "active" for t in ctx.where(Transponder, vehicle_id=v.id))
        if not tagged and ctx.get(Account, v.account_id).status == "active":
            return {"vehicle_id": v.id, "kind": "interior"}
    return None


@service.tool(intent="issue a transponder for the vehicle", write=True, example=_example_issue)
def issue_transponder(ctx: Ctx, vehicle_id: VehicleId, kind: Literal["interior", "exterior", "flex"]) -> Transponder:
    """Issue a new tag to a vehicle's account, mounted on that vehicle; one active tag per vehicle.

    Args:
        vehicle_id: The vehicle (on an active account).
        kind: interior, exterior or flex.
    """
    v = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    acct = _account(ctx, v.account_id, "vehicle_id")
    if acct.status != "active":
        raise RuleViolation("the account is suspended", field="vehicle_id", hint="top up the account first")
    if any(t.status == "active" for t in ctx.where(Transponder, vehicle_id=v.id)):
        raise Conflict(f"{v.plate} already has an active tag", field="vehicle_id", hint="deactivate it first")
    serial = f"004-{ctx.next_number(Transponder, 'serial') + 31800000:08d}"
    return ctx.create(Transponder, serial=serial, account_id=acct.id, vehicle_id=v.id, kind=kind)


@service.tool(
    intent="deactivate the transponder",
    write=True,
    example=first_example(Transponder, "transponder_id", where={"status": "active"}),
)
def deactivate_transponder(ctx: Ctx, transponder_id: TransponderId) -> Transponder:
    """Deactivate an active tag (returned or replaced); it stops reading.

    Args:
        transponder_id: The tag.
    """
    tag = ctx.get(Transponder, transponder_id, field="transponder_id")
    if tag.status != "active":
        raise RuleViolation(f"the tag is {tag.status}", field="transponder_id", hint="only active tags")
    return ctx.update(tag, status="inactive", vehicle_id=None)


def _example_toll(ctx: Ctx) -> dict[str, Any] | None:
    tag = ctx.first(Transponder, status="active")
    if tag is None or tag.vehicle_id is None:
        return None
    v = ctx.get(Vehicle, tag.vehicle_id)
    return {
        "plaza": "Harbor Bridge",
        "plate": v.plate,
        "plate_state": v.plate_state,
        "occurred_at": ctx.now().isoformat(),
        "transponder_serial": tag.serial,
    }


@service.tool(intent="post the toll", write=True, example=_example_toll)
def post_toll(
    ctx: Ctx,
    plaza: Literal["Harbor Bridge", "Northern Parkway Exit 12", "Airport Connector", "Turnpike Mainline"],
    plate: Plate,
    plate_state: UsState,
    occurred_at: DateTime,
    transponder_serial: Annotated[str, StringConstraints(pattern=r"^\d{3}-\d{8}$")] | None = None,
) -> Toll | Violation:
    """Post a plaza passage: a tag pays the account rate, a registered plate 50% more, else a violation notice.

    A balance that falls below the threshold is topped up automatically; without auto-replenishment a
    negative balance suspends the account.

    Args:
        plaza: The plaza.
        plate: The plate seen.
        plate_state: Its state.
        occurred_at: When (not in the future).
        transponder_serial: The tag read, if any.
    """
    if occurred_at > ctx.now():
        raise RuleViolation("the passage is in the future", field="occurred_at", hint="give when it happened")
    vehicle = next(
        (
            v
            for v in ctx.where(Vehicle, plate=plate, plate_state=plate_state)
            if ctx.get(Account, v.account_id).status == "active"
        ),
        None,
    )
    tag = None if transponder_serial is None else ctx.first(Transponder, serial=transponder_serial)
    if tag is not None and tag.status == "active" and ctx.get(Account, tag.account_id).status == "active":
        acct = ctx.get(Account, tag.account_id)
        cls = ctx.get(Vehicle, tag.vehicle_id).vehicle_class if tag.vehicle_id else "2_axle"
        amount = round(PLAZAS[plaza] * CLASS_FACTOR[cls])
    elif vehicle is not None:
        tag, acct, cls = None, ctx.get(Account, vehicle.account_id), vehicle.vehicle_class
        amount = round(PLAZAS[plaza] * CLASS_FACTOR[cls] * PLATE_SURCHARGE)
    else:
        return ctx.create(
            Violation,
            plate=plate,
            plate_state=plate_state,
            plaza=plaza,
            occurred_at=occurred_at,
            toll_amount=round(PLAZAS[plaza] * PLATE_SURCHARGE),
            due_date=ctx.today() + dt.timedelta(days=NOTICE_DAYS),
        )
    toll = ctx.create(
        Toll,
        account_id=acct.id,
        plaza=plaza,
        plate=plate,
        transponder_id=None if tag is None else tag.id,
        vehicle_class=cls,
        amount=amount,
        occurred_at=occurred_at,
    )
    acct = ctx.update(acct, balance=acct.balance - amount)
    if acct.balance < acct.replenish_threshold and acct.auto_replenish:
        _credit(ctx, acct, max(acct.replenish_amount, acct.replenish_threshold - acct.balance), "auto")
    elif acct.balance < 0:
        ctx.update(acct, status="suspended")
    return toll


@service.tool(
    intent="reverse the toll",
    write=True,
    example=first_example(Toll, "toll_id", where={"status": "posted"}),
)
def reverse_toll(ctx: Ctx, toll_id: TollId) -> Toll:
    """Reverse a posted toll charged in error; the amount goes back to the account.

    Args:
        toll_id: The toll.
    """
    toll = ctx.get(Toll, toll_id, field="toll_id")
    if toll.status != "posted":
        raise RuleViolation("the toll is already reversed", field="toll_id", hint="nothing to do")
    acct = ctx.get(Account, toll.account_id)
    balance = acct.balance + toll.amount
    ctx.update(acct, balance=balance, status="active" if balance >= 0 and acct.status == "suspended" else acct.status)
    return ctx.update(toll, status="reversed")


@service.tool(
    intent="top up the toll account",
    write=True,
    example=first_example(Account, "account_id", where={"status": "suspended"}, amount=5000),
)
def replenish_account(
    ctx: Ctx, account_id: AccountId, amount: Cents, source: Literal["manual", "cash"] = "manual"
) -> Account:
    """Add money to an account; a suspended account whose balance is back at zero or more is reactivated.

    Args:
        account_id: The account.
        amount: Amount (at least $10).
        source: manual (card) or cash.
    """
    acct = _account(ctx, account_id)
    if amount < 1000:
        raise RuleViolation("top-ups are at least 1000", field="amount", hint="add $10 or more")
    return _credit(ctx, acct, amount, source)


@service.tool(
    intent="close the toll account",
    write=True,
    destructive=True,
    example=first_example(
        Account,
        "account_id",
        where={"status": "active"},
        match=lambda c, a: a.balance >= 0 and not c.where(Transponder, account_id=a.id, status="active"),
    ),
)
def close_account(ctx: Ctx, account_id: AccountId) -> Account:
    """Close an account with no balance owed and every tag returned (deactivated); the balance is refunded.

    Args:
        account_id: The account.
    """
    acct = _account(ctx, account_id)
    if acct.balance < 0:
        raise RuleViolation(f"{-acct.balance} is owed", field="account_id", hint="top up before closing")
    live = ctx.where(Transponder, account_id=acct.id, status="active")
    if live:
        raise RuleViolation(f"{len(live)} tags are still active", field="account_id", hint="deactivate them first")
    return ctx.update(acct, status="closed", balance=0)


def _notice(ctx: Ctx, violation_id: str, *states: str) -> Violation:
    vio = ctx.get(Violation, violation_id, field="violation_id")
    if vio.status not in states:
        raise RuleViolation(f"the violation is {vio.status}", field="violation_id", hint=f"only {' or '.join(states)}")
    return vio


@service.tool(
    intent="pay the violation notice",
    write=True,
    example=first_example(Violation, "violation_id", where={"status": "notice_sent"}),
)
def pay_violation(ctx: Ctx, violation_id: ViolationId) -> Violation:
    """Pay a violation notice (toll plus fee), or an upheld dispute.

    Args:
        violation_id: The violation.
    """
    return ctx.update(_notice(ctx, violation_id, "notice_sent"), status="paid")


@service.tool(
    intent="dispute the violation",
    write=True,
    example=first_example(Violation, "violation_id", where={"status": "notice_sent"}, reason="Vehicle was sold"),
)
def dispute_violation(
    ctx: Ctx, violation_id: ViolationId, reason: Annotated[str, StringConstraints(min_length=3, max_length=500)]
) -> Violation:
    """Dispute a violation notice before its due date.

    Args:
        violation_id: The violation.
        reason: Why (vehicle sold, plate misread, had a valid tag ...).
    """
    vio = _notice(ctx, violation_id, "notice_sent")
    if ctx.today() > vio.due_date:
        raise RuleViolation(f"the notice was due {vio.due_date}", field="violation_id", hint="pay it instead")
    return ctx.update(vio, status="disputed", dispute_reason=reason)


@service.tool(
    intent="decide the violation dispute",
    write=True,
    example=first_example(Violation, "violation_id", where={"status": "disputed"}, dismiss=True),
)
def resolve_dispute(ctx: Ctx, violation_id: ViolationId, dismiss: bool) -> Violation:
    """Dismiss a disputed violation, or uphold it: the notice stands again with a new due date.

    Args:
        violation_id: The violation.
        dismiss: True to dismiss, False to uphold.
    """
    vio = _notice(ctx, violation_id, "disputed")
    if dismiss:
        return ctx.update(vio, status="dismissed")
    return ctx.update(vio, status="notice_sent", due_date=ctx.today() + dt.timedelta(days=NOTICE_DAYS))


@service.tool(
    intent="move the violation onto the toll account",
    write=True,
    example=first_example(
        Violation,
        "violation_id",
        where={"status": "notice_sent"},
        match=lambda c, v: any(
            c.get(Account, x.account_id).status == "active"
            for x in c.where(Vehicle, plate=v.plate, plate_state=v.plate_state)
        ),
    ),
)
def transfer_violation(ctx: Ctx, violation_id: ViolationId) -> Toll:
    """Post a violation to the active account its plate is now registered on: the account toll, fee waived.

    Args:
        violation_id: The violation (notice sent).
    """
    vio = _notice(ctx, violation_id, "notice_sent")
    vehicle = next(
        (
            v
            for v in ctx.where(Vehicle, plate=vio.plate, plate_state=vio.plate_state)
            if ctx.get(Account, v.account_id).status == "active"
        ),
        None,
    )
    if vehicle is None:
        raise RuleViolation(
            f"{vio.plate_state} {vio.plate} is on no active account",
            field="violation_id",
            hint="add the vehicle to an account first",
        )
    acct = ctx.get(Account, vehicle.account_id)
    amount = round(PLAZAS[vio.plaza] * CLASS_FACTOR[vehicle.vehicle_class])
    ctx.update(vio, status="transferred", fee=0)
    ctx.update(acct, balance=acct.balance - amount)
    return ctx.create(
        Toll,
        account_id=acct.id,
        plaza=vio.plaza,
        plate=vio.plate,
        vehicle_class=vehicle.vehicle_class,
        amount=amount,
        occurred_at=vio.occurred_at,
    )


# -- seed -------------------------------------------------------------------------------------

CARS: tuple[tuple[str, VehicleClass], ...] = (
    ("Toyota RAV4", "2_axle"),
    ("Honda Accord", "2_axle"),
    ("Ford F-150", "2_axle"),
    ("Harley-Davidson Street", "motorcycle"),
    ("Subaru Outback", "2_axle"),
    ("Freightliner Cascadia", "5_axle"),
    ("Ford Transit 350", "3_axle"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Accounts of consumers and of customer companies, vehicles, tags in every state, tolls, violations."""
    pop = s.population
    made: list[Account] = []
    for k, p in enumerate(pop.consumers[:8]):
        made.append(
            s.create(
                Account,
                holder_name=p.name,
                email=p.email,
                phone=p.phone,
                balance=-300 if k == 5 else 4500 - 500 * k,
                auto_replenish=k % 3 != 2,
                status="suspended" if k == 5 else "active",
                created_at=s.ago(days=700 - 40 * k),
            )
        )
    firm = pop.contacts[0]
    made.append(
        s.create(
            Account,
            holder_name=firm.name,
            email=firm.email,
            phone=firm.phone,
            kind="commercial",
            balance=25000,
            replenish_threshold=10000,
            replenish_amount=20000,
            created_at=s.ago(days=900),
        )
    )
    for k, acct in enumerate(made):
        make, cls = CARS[k % len(CARS)] if acct.kind == "personal" else CARS[5]
        v = s.create(
            Vehicle,
            account_id=acct.id,
            plate=f"{'KLMNPR'[k % 6]}{'XYZ'[k % 3]}{4100 + 37 * k}",
            plate_state="NY" if k % 2 else "NJ",
            make_model=make,
            vehicle_class=cls,
        )
        tag_state: Any = ("active", "active", "active", "lost", "active", "inactive", "active", "active", "active")[k]
        s.create(
            Transponder,
            serial=f"004-{31700000 + 11 * k:08d}",
            account_id=acct.id,
            vehicle_id=v.id if tag_state == "active" else None,
            status=tag_state,
        )
        for j, plaza in enumerate(list(PLAZAS)[: 1 + k % 3]):
            s.create(
                Toll,
                account_id=acct.id,
                plaza=plaza,
                plate=v.plate,
                vehicle_class=cls,
                amount=round(PLAZAS[plaza] * CLASS_FACTOR[cls]),
                occurred_at=s.ago(days=j + 1, hours=k),
            )
        s.create(Replenishment, account_id=acct.id, amount=3500, source="auto", created_at=s.ago(days=20 + k))
    today = s.now.date()
    for k, (plate, state, status) in enumerate(
        (
            ("GHT2231", "PA", "notice_sent"),
            ("BXR7710", "CT", "disputed"),
            ("MQP5580", "NY", "paid"),
            ("KX4100", "NJ", "notice_sent"),
        )
    ):
        plaza = list(PLAZAS)[k % 4]
        s.create(
            Violation,
            plate=plate,
            plate_state=state,
            plaza=plaza,
            occurred_at=s.ago(days=10 + k),
            toll_amount=round(PLAZAS[plaza] * PLATE_SURCHARGE),
            due_date=today + dt.timedelta(days=20 - k),
            status=status,
            dispute_reason="Plate misread" if status == "disputed" else "",
        )
