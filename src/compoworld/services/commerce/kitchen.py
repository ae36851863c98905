"""Hearthline Restaurant POS: the menu, dining tables, orders with checks, kitchen tickets and payments.

Modeled on the Toast API (orders API v2: orders, checks, selections with
modifiers, payments; menus API v2: menu items and modifier groups; kitchen
display tickets; labor API: restaurant employees and their jobs). An order is
dine-in at a table (one open order per table, no more guests than twice the
table's seats) or takeout/delivery for a named guest with a phone number; it
opens with one check. A selection adds a menu item with modifiers: the item
must not be 86'd, and each of its modifier groups must get between its minimum
and maximum number of options. Firing a check sends its unfired selections to
the kitchen as one ticket per station; a ticket goes fired → ready → served.
Voiding a selection needs an active manager and a reason, and cannot take a
check's total below what was already paid. Payments cannot exceed the balance
due, tips go on card payments only; a check closes only when fully paid and
nothing on it is left unfired, and the order closes (freeing its table) with
its last check.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    PersonName,
    Phone,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "kitchen",
    title="Hearthline Restaurant POS",
    category="restaurant_pos",
    modeled_on="Toast API (orders v2: orders, checks, selections, modifiers, payments; menus v2: items and "
    "modifier groups; kitchen display tickets; labor v1: employees and jobs)",
    description="Restaurant point of sale: the menu with modifier groups, dining tables, dine-in and takeout "
    "orders with their checks, kitchen tickets per station, manager-approved voids, payments with tips, and "
    "closing paid checks.",
)

MenuItemId = Annotated[str, IdOf("kitchen.menu_item")]
TableId = Annotated[str, IdOf("kitchen.dining_table")]
EmployeeId = Annotated[str, IdOf("kitchen.employee")]
OrderId = Annotated[str, IdOf("kitchen.order")]
CheckId = Annotated[str, IdOf("kitchen.check")]
TicketId = Annotated[str, IdOf("kitchen.ticket")]
SelectionId = Annotated[str, StringConstraints(pattern=r"^sel_[0-9]{3}$")]
"""A selection's id within its check (``sel_001``, in the order they were added)."""
OptionName = Annotated[str, StringConstraints(min_length=1, max_length=80)]
CardLast4 = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]

Station = Literal["grill", "fry", "saute", "cold", "bar"]
MenuGroup = Literal["starters", "mains", "sides", "desserts", "drinks"]
Job = Literal["server", "bartender", "cook", "host", "manager"]
DiningOption = Literal["dine_in", "takeout", "delivery"]
OrderStatus = Literal["open", "closed"]
CheckStatus = Literal["OPEN", "PAID", "CLOSED"]
TicketStatus = Literal["fired", "ready", "served"]
PaymentType = Literal["CREDIT", "CASH", "GIFT_CARD"]
VoidReason = Literal["customer_changed_mind", "kitchen_error", "server_error", "quality_issue", "comp"]

TAX_BASIS_POINTS = 875
"""Sales tax on food and drink: 8.75 %."""
MAX_QUANTITY = 50
MAX_SELECTIONS = 200
GUESTS_PER_SEAT = 2


def tax_on(subtotal: int) -> int:
    """The sales tax on a subtotal in cents, rounded half up."""
    return (subtotal * TAX_BASIS_POINTS + 5000) // 10000


class ModifierOption(Value):
    """One choice of a modifier group."""

    name: OptionName = Field(description="The option's name (e.g. 'medium rare').")
    price: Cents = Field(default=0, description="What the option adds to the item's price, in cents.")


class ModifierGroup(Value):
    """A set of options a guest picks from when ordering an item."""

    name: Title = Field(description="The group's name (e.g. 'Temperature').")
    min_selections: int = Field(ge=0, le=10, description="How many options must at least be chosen (0: optional).")
    max_selections: int = Field(ge=1, le=10, description="How many options may at most be chosen.")
    options: list[ModifierOption] = Field(description="The options to choose from.")


class MenuItem(Created):
    """A dish or drink on the menu."""

    id: MenuItemId
    name: Title
    """Name as printed on the menu and the ticket."""
    menu_group: MenuGroup
    """The menu section it is listed in."""
    price: Cents
    """Base price in cents, before modifiers."""
    station: Station
    """The kitchen station that prepares it."""
    modifier_groups: list[ModifierGroup] = Field(default_factory=list)
    """Modifier groups the guest chooses from."""
    out_of_stock: bool = False
    """Whether the item is 86'd: it cannot be ordered until back in stock."""


class DiningTable(Record):
    """A table in the dining room."""

    id: TableId
    name: Annotated[str, StringConstraints(min_length=1, max_length=20)]
    """The table's name on the floor plan (e.g. 'T12')."""
    section: Literal["main", "patio", "bar"]
    """The floor section."""
    seats: int = Field(ge=1, le=20)
    """Number of seats."""


class Employee(Record):
    """A member of the restaurant staff."""

    id: EmployeeId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """Work e-mail address."""
    phone: Phone
    """Mobile number."""
    job: Job
    """The job the employee clocks in as; only managers approve voids."""
    active: bool = True
    """Whether the employee currently works at the restaurant."""


class Order(Created):
    """A guest's order: dine-in at a table, takeout or delivery."""

    id: OrderId
    dining_option: DiningOption
    """How the guest eats."""
    table_id: TableId | None = None
    """The table of a dine-in order."""
    server_id: EmployeeId
    """The employee who took the order."""
    guest_count: int = Field(ge=1, le=40)
    """Number of guests."""
    customer_name: PersonName | None = None
    """The guest's name (required for takeout and delivery)."""
    customer_phone: Phone | None = None
    """The guest's phone number (required for takeout and delivery)."""
    customer_email: Email | None = None
    """The guest's e-mail address, for the receipt."""
    business_date: Date
    """The restaurant's business day the order belongs to."""
    status: OrderStatus = "open"
    """open until its last check closes."""
    closed_at: DateTime | None = None
    """When its last check closed."""


class Selection(Value):
    """One menu item on a check, with its modifiers."""

    id: SelectionId = Field(description="The selection's id within the check.")
    menu_item_id: MenuItemId = Field(description="The menu item.")
    name: Title = Field(description="The item's name when ordered.")
    quantity: int = Field(ge=1, le=MAX_QUANTITY, description="How many.")
    modifiers: list[OptionName] = Field(default=[], description="The chosen modifier options.")
    unit_price: Cents = Field(description="Price of one, modifiers included, in cents.")
    price: Cents = Field(description="unit_price × quantity, in cents.")
    special_request: str = Field(default="", description="A note for the kitchen.")
    fired: bool = Field(default=False, description="Whether it was sent to the kitchen.")
    voided: bool = Field(default=False, description="Whether it was voided (no longer charged).")
    void_reason: VoidReason | None = Field(default=None, description="Why it was voided.")
    voided_by: EmployeeId | None = Field(default=None, description="The manager who approved the void.")


class Payment(Value):
    """A payment applied to a check."""

    type: PaymentType = Field(description="CREDIT, CASH or GIFT_CARD.")
    amount: Cents = Field(description="Amount applied to the check, in cents (tip not included).")
    tip_amount: Cents = Field(default=0, description="Tip on top of the amount, in cents.")
    card_last4: CardLast4 | None = Field(default=None, description="Last four digits of a card.")
    paid_at: DateTime = Field(description="When it was taken.")


class Check(Created):
    """A bill within an order: its selections, totals and payments."""

    id: CheckId
    order_id: OrderId
    """The order the check belongs to."""
    display_number: Annotated[str, Generated("sequence", "{n}")]
    """The number printed on the check."""
    selections: list[Selection] = Field(default_factory=list)
    """Items ordered on the check."""
    payments: list[Payment] = Field(default_factory=list)
    """Payments applied."""
    subtotal: Cents = 0
    """Sum of the prices of its selections that are not voided, in cents."""
    tax: Cents = 0
    """Sales tax, in cents."""
    total: Cents = 0
    """subtotal + tax, in cents."""
    paid: Cents = 0
    """Sum of payment amounts, tips excluded, in cents."""
    tips: Cents = 0
    """Sum of tips, in cents."""
    balance_due: Cents = 0
    """total − paid, in cents."""
    status: CheckStatus = "OPEN"
    """OPEN, PAID (nothing due) or CLOSED."""
    closed_at: DateTime | None = None
    """When it was closed."""


class TicketItem(Value):
    """A line of a kitchen ticket."""

    selection_id: SelectionId = Field(description="The selection on the check.")
    name: Title = Field(description="The item.")
    quantity: int = Field(ge=1, description="How many.")
    modifiers: list[OptionName] = Field(default=[], description="Modifiers to prepare.")
    special_request: str = Field(default="", description="The guest's note.")


class Ticket(Record):
    """A kitchen ticket: what one station prepares for a check."""

    id: TicketId
    order_id: OrderId
    """The order."""
    check_id: CheckId
    """The check whose selections it carries."""
    station: Station
    """The station that prepares it."""
    items: list[TicketItem]
    """What to prepare."""
    status: TicketStatus = "fired"
    """fired → ready → served."""
    fired_at: Annotated[DateTime, CREATED]
    """When it was sent to the kitchen."""
    ready_at: DateTime | None = None
    """When the station bumped it as ready."""
    served_at: DateTime | None = None
    """When it was run to the guest."""


# -- guards -----------------------------------------------------------------------------------


def _guard_menu_item(ctx: Ctx, new: Any, old: Any) -> None:
    for group in new.modifier_groups:
        if group.min_selections > group.max_selections or group.max_selections > len(group.options):
            raise RuleViolation(
                f"modifier group {group.name!r} asks for {group.min_selections}–{group.max_selections} of "
                f"{len(group.options)} options",
                field="modifier_groups",
                hint="min_selections ≤ max_selections ≤ number of options",
            )


def _guard_ticket(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "ready" and old.status == "fired":
        ctx.update(new, ready_at=ctx.now())
    elif new.status == "served" and old.status == "ready":
        ctx.update(new, served_at=ctx.now())


menu_items = service.resource(
    MenuItem,
    name="menu_item",
    plural="menu_items",
    prefix="item",
    create=False,
    filters=("menu_group", "station", "out_of_stock"),
    search=("name",),
    update=("name", "price", "out_of_stock"),
    delete=False,
    unique=("name",),
    guard_update=_guard_menu_item,
    title="menu item",
)
tables = service.resource(
    DiningTable,
    name="dining_table",
    plural="dining_tables",
    prefix="tbl",
    create=False,
    get=False,
    filters=("section", "name"),
    delete=False,
    unique=("name",),
    title="dining table",
)
employees = service.resource(
    Employee,
    name="employee",
    plural="employees",
    prefix="emp",
    create=False,
    get=False,
    filters=("job", "active", "email"),
    search=("first_name", "last_name"),
    delete=False,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("status", "dining_option", "table_id", "server_id", "customer_phone", "business_date"),
    search=("customer_name",),
    delete=False,
)
checks = service.resource(
    Check,
    name="check",
    plural="checks",
    prefix="chk",
    create=False,
    filters=("order_id", "status"),
    delete=False,
)
tickets = service.resource(
    Ticket,
    name="ticket",
    plural="tickets",
    prefix="tkt",
    create=False,
    get=False,
    filters=("order_id", "check_id", "station", "status"),
    delete=False,
    transitions={
        "bump": Transition(
            "status",
            ("fired",),
            "ready",
            "mark the kitchen ticket ready",
            description="The station bumps a fired ticket on the kitchen display: its food is ready to run.",
        ),
        "serve": Transition(
            "status",
            ("ready",),
            "served",
            "mark the kitchen ticket served",
            description="Record that a ready ticket's food reached the guests.",
        ),
    },
    guard_update=_guard_ticket,
    title="kitchen ticket",
)


# -- rules ------------------------------------------------------------------------------------


def _totals(selections: list[Selection], payments: list[Payment]) -> dict[str, Any]:
    subtotal = sum(s.price for s in selections if not s.voided)
    tax = tax_on(subtotal)
    paid = sum(p.amount for p in payments)
    total = subtotal + tax
    return {
        "selections": selections,
        "payments": payments,
        "subtotal": subtotal,
        "tax": tax,
        "total": total,
        "paid": paid,
        "tips": sum(p.tip_amount for p in payments),
        "balance_due": max(0, total - paid),
        "status": "PAID" if payments and paid >= total else "OPEN",
    }


def _open_check(ctx: Ctx, check_id: str) -> Check:
    check = ctx.get(Check, check_id, field="check_id")
    if check.status != "OPEN":
        raise RuleViolation(
            f"check {check.display_number} ({check.id}) is {check.status} and takes no more changes",
            field="check_id",
            hint="open a new order for further items",
        )
    return check


def _staff(ctx: Ctx, employee_id: str, field: str, jobs: tuple[str, ...]) -> Employee:
    emp = ctx.get(Employee, employee_id, field=field)
    if not emp.active:
        raise RuleViolation(
            f"{emp.first_name} {emp.last_name} no longer works here", field=field, hint="pick an active employee"
        )
    if emp.job not in jobs:
        raise RuleViolation(
            f"{emp.first_name} {emp.last_name} works as {emp.job}, not as {' or '.join(jobs)}",
            field=field,
            hint=f"list employees with job={jobs[-1]}",
        )
    return emp


def _choose(item: MenuItem, modifiers: list[str]) -> int:
    """Check the chosen options against the item's groups; return what they add to the price."""
    remaining = list(modifiers)
    extra = 0
    for group in item.modifier_groups:
        names = {o.name: o.price for o in group.options}
        chosen = [m for m in remaining if m in names]
        if not group.min_selections <= len(chosen) <= group.max_selections:
            options = ", ".join(names)
            raise RuleViolation(
                f"{item.name}: {group.name!r} needs {group.min_selections} to {group.max_selections} options, "
                f"got {len(chosen)}",
                field="modifiers",
                hint=f"choose from: {options}",
            )
        extra += sum(names[m] for m in chosen)
        remaining = [m for m in remaining if m not in names]
    if remaining:
        raise RuleViolation(
            f"{item.name} has no modifier option {remaining[0]!r}",
            field="modifiers",
            hint="use the option names of the item's modifier_groups",
        )
    return extra


def _free_table(ctx: Ctx, table: DiningTable) -> Order | None:
    return next(iter(ctx.where(Order, table_id=table.id, status="open")), None)


# -- example providers ------------------------------------------------------------------------


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    server = ctx.first(Employee, job="server", active=True)
    if server is None:
        return None
    for table in ctx.scan(DiningTable):
        if _free_table(ctx, table) is None:
            return {"dining_option": "dine_in", "server_id": server.id, "guest_count": 2, "table_id": table.id}
    return None


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    check = ctx.first(Check, status="OPEN")
    if check is None:
        return None
    for item in ctx.where(MenuItem, out_of_stock=False):
        mods = [o.name for g in item.modifier_groups for o in g.options[: g.min_selections]]
        return {"check_id": check.id, "menu_item_id": item.id, "quantity": 1, "modifiers": mods}
    return None


def _example_void(ctx: Ctx) -> dict[str, Any] | None:
    manager = ctx.first(Employee, job="manager", active=True)
    if manager is None:
        return None
    for check in ctx.where(Check, status="OPEN"):
        for sel in check.selections:
            if not sel.voided:
                rest = [s for s in check.selections if s.id != sel.id]
                if _totals(rest, check.payments)["total"] >= check.paid:
                    return {
                        "check_id": check.id,
                        "selection_id": sel.id,
                        "manager_id": manager.id,
                        "reason": "customer_changed_mind",
                    }
    return None


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for check in ctx.where(Check, status="OPEN"):
        if check.balance_due > 0:
            return {
                "check_id": check.id,
                "payment_type": "CREDIT",
                "amount": check.balance_due,
                "tip_amount": 500,
                "card_last4": "4242",
            }
    return None


def _closable(ctx: Ctx, check: Check) -> bool:
    return all(s.fired or s.voided for s in check.selections)


# -- orders and checks ------------------------------------------------------------------------


@service.tool(intent="open a new restaurant order", write=True, example=_example_open)
def open_order(
    ctx: Ctx,
    dining_option: DiningOption,
    server_id: EmployeeId,
    guest_count: int = 1,
    table_id: TableId | None = None,
    customer_name: PersonName | None = None,
    customer_phone: Phone | None = None,
    customer_email: Email | None = None,
) -> Check:
    """Open an order with its first check.

    A dine-in order needs a table without another open order, and at most two
    guests per seat; takeout and delivery orders take no table but need the
    guest's name and phone. The server must be an active server, bartender or
    manager.

    Args:
        dining_option: dine_in, takeout or delivery.
        server_id: The employee taking the order.
        guest_count: Number of guests (1 to 40).
        table_id: The table (dine-in only).
        customer_name: The guest's name (takeout and delivery).
        customer_phone: The guest's phone number (takeout and delivery).
        customer_email: The guest's e-mail address for the receipt.

    Returns:
        The new order's first check.
    """
    _staff(ctx, server_id, "server_id", ("server", "bartender", "manager"))
    if not 1 <= guest_count <= 40:
        raise RuleViolation("guest_count must be between 1 and 40", field="guest_count", hint="count the guests")
    if dining_option == "dine_in":
        if table_id is None:
            raise RuleViolation("a dine-in order needs a table", field="table_id", hint="list dining tables")
        table = ctx.get(DiningTable, table_id, field="table_id")
        busy = _free_table(ctx, table)
        if busy is not None:
            raise Conflict(
                f"table {table.name} already has open order {busy.id}",
                field="table_id",
                hint="add to that order's check or seat the guests at another table",
            )
        if guest_count > table.seats * GUESTS_PER_SEAT:
            raise RuleViolation(
                f"table {table.name} seats {table.seats}; {guest_count} guests do not fit",
                field="guest_count",
                hint="choose a larger table",
            )
    else:
        if table_id is not None:
            raise RuleViolation(
                f"a {dining_option} order takes no table", field="table_id", hint="omit table_id or use dine_in"
            )
        if customer_name is None or customer_phone is None:
            field = "customer_name" if customer_name is None else "customer_phone"
            raise RuleViolation(
                f"a {dining_option} order needs the guest's name and phone",
                field=field,
                hint="ask the guest for their name and phone number",
            )
    order = ctx.create(
        Order,
        dining_option=dining_option,
        table_id=table_id,
        server_id=server_id,
        guest_count=guest_count,
        customer_name=customer_name,
        customer_phone=customer_phone,
        customer_email=customer_email,
        business_date=ctx.today(),
    )
    return ctx.create(Check, order_id=order.id)


@service.tool(intent="add a menu item to the check", write=True, example=_example_add)
def add_selection(
    ctx: Ctx,
    check_id: CheckId,
    menu_item_id: MenuItemId,
    quantity: int = 1,
    modifiers: list[OptionName] | None = None,
    special_request: Text = "",
) -> Check:
    """Add a menu item with its modifiers to an open check.

    The item must not be 86'd (out of stock), and every modifier group of the
    item must get between its minimum and maximum number of options.

    Args:
        check_id: The open check.
        menu_item_id: The menu item.
        quantity: How many (1 to 50).
        modifiers: Names of the chosen modifier options.
        special_request: A note for the kitchen ("no onions").
    """
    check = _open_check(ctx, check_id)
    item = ctx.get(MenuItem, menu_item_id, field="menu_item_id")
    if item.out_of_stock:
        raise RuleViolation(
            f"{item.name} is 86'd (out of stock)", field="menu_item_id", hint="offer the guest another item"
        )
    if len(check.selections) >= MAX_SELECTIONS:
        raise RuleViolation(
            f"check {check.id} already has {MAX_SELECTIONS} selections", field="check_id", hint="open another check"
        )
    if not 1 <= quantity <= MAX_QUANTITY:
        raise RuleViolation(f"quantity must be 1 to {MAX_QUANTITY}", field="quantity", hint="split large orders")
    chosen = list(modifiers or [])
    if len(set(chosen)) != len(chosen):
        raise RuleViolation("a modifier option is chosen twice", field="modifiers", hint="name each option once")
    unit = item.price + _choose(item, chosen)
    sel = Selection(
        id=f"sel_{len(check.selections) + 1:03d}",
        menu_item_id=item.id,
        name=item.name,
        quantity=quantity,
        modifiers=chosen,
        unit_price=unit,
        price=unit * quantity,
        special_request=special_request,
    )
    return ctx.update(check, **_totals([*check.selections, sel], check.payments))


class Fired(BaseModel):
    """What firing a check sent to the kitchen."""

    check: Check = Field(description="The check, its selections now fired.")
    tickets: list[Ticket] = Field(description="One new ticket per station.")


@service.tool(
    intent="send the check's items to the kitchen",
    write=True,
    example=first_example(Check, "check_id", where={"status": "OPEN"}, match=lambda c, r: not _closable(c, r)),
)
def fire_check(ctx: Ctx, check_id: CheckId) -> Fired:
    """Send a check's unfired selections to the kitchen, one ticket per station.

    Args:
        check_id: The check (OPEN or PAID).
    """
    check = ctx.get(Check, check_id, field="check_id")
    if check.status == "CLOSED":
        raise RuleViolation(f"check {check.id} is closed", field="check_id", hint="open a new order")
    pending = [s for s in check.selections if not s.fired and not s.voided]
    if not pending:
        raise RuleViolation(
            f"check {check.id} has nothing left to fire",
            field="check_id",
            hint="add selections with kitchen__add_selection first",
        )
    by_station: dict[str, list[TicketItem]] = {}
    for s in pending:
        station = ctx.get(MenuItem, s.menu_item_id).station
        by_station.setdefault(station, []).append(
            TicketItem(
                selection_id=s.id,
                name=s.name,
                quantity=s.quantity,
                modifiers=s.modifiers,
                special_request=s.special_request,
            )
        )
    made = [
        ctx.create(Ticket, order_id=check.order_id, check_id=check.id, station=station, items=items)
        for station, items in sorted(by_station.items())
    ]
    selections = [s.model_copy(update={"fired": True}) if s in pending else s for s in check.selections]
    return Fired(check=ctx.update(check, selections=selections), tickets=made)


@service.tool(intent="void an item from the check", write=True, destructive=True, example=_example_void)
def void_selection(
    ctx: Ctx, check_id: CheckId, selection_id: SelectionId, manager_id: EmployeeId, reason: VoidReason
) -> Check:
    """Void a selection so it is no longer charged; a manager must approve.

    Refused when the check is closed, the selection is already voided, or the
    new total would fall below what was already paid (refund first).

    Args:
        check_id: The check.
        selection_id: The selection to void.
        manager_id: The active manager approving the void.
        reason: Why it is voided.
    """
    check = ctx.get(Check, check_id, field="check_id")
    if check.status == "CLOSED":
        raise RuleViolation(
            f"check {check.id} is closed", field="check_id", hint="closed checks are final; refund instead"
        )
    _staff(ctx, manager_id, "manager_id", ("manager",))
    target = next((s for s in check.selections if s.id == selection_id), None)
    if target is None:
        raise RuleViolation(
            f"check {check.id} has no selection {selection_id}",
            field="selection_id",
            hint="read the check's selections with kitchen__get_check",
        )
    if target.voided:
        raise Conflict(f"selection {selection_id} is already voided", field="selection_id", hint="nothing to do")
    voided = target.model_copy(update={"voided": True, "void_reason": reason, "voided_by": manager_id})
    selections = [voided if s.id == selection_id else s for s in check.selections]
    totals = _totals(selections, check.payments)
    if totals["total"] < check.paid:
        raise RuleViolation(
            f"voiding {target.name} would bring the total below the {check.paid} cents already paid",
            field="selection_id",
            hint="refund part of a payment before voiding",
        )
    if not check.payments:
        totals["status"] = "OPEN"
    return ctx.update(check, **totals)


@service.tool(intent="take a payment on the check", write=True, example=_example_pay)
def add_payment(
    ctx: Ctx,
    check_id: CheckId,
    payment_type: PaymentType,
    amount: Cents,
    tip_amount: Cents = 0,
    card_last4: CardLast4 | None = None,
) -> Check:
    """Apply a payment to an open check; the check is PAID when nothing is due.

    The amount must be positive and at most the balance due; tips go on card
    payments only, and a card payment needs the card's last four digits.

    Args:
        check_id: The open check.
        payment_type: CREDIT, CASH or GIFT_CARD.
        amount: Amount applied to the check, in cents.
        tip_amount: Tip on a CREDIT payment, in cents.
        card_last4: Last four digits of the card (CREDIT and GIFT_CARD).
    """
    check = _open_check(ctx, check_id)
    if check.balance_due == 0:
        raise RuleViolation(
            f"check {check.id} has nothing due", field="check_id", hint="add selections before taking payment"
        )
    if amount == 0 or amount > check.balance_due:
        raise RuleViolation(
            f"amount must be between 1 and the balance due of {check.balance_due} cents",
            field="amount",
            hint="split the payment or give change for cash",
        )
    if tip_amount and payment_type != "CREDIT":
        raise RuleViolation(
            "tips can only be added to card (CREDIT) payments", field="tip_amount", hint="cash tips go in the jar"
        )
    if payment_type != "CASH" and card_last4 is None:
        raise RuleViolation(
            f"a {payment_type} payment needs the card's last four digits", field="card_last4", hint="read the card"
        )
    pay = Payment(
        type=payment_type,
        amount=amount,
        tip_amount=tip_amount,
        card_last4=card_last4 if payment_type != "CASH" else None,
        paid_at=ctx.now(),
    )
    return ctx.update(check, **_totals(check.selections, [*check.payments, pay]))


@service.tool(
    intent="close the paid check",
    write=True,
    example=first_example(Check, "check_id", where={"status": "PAID"}, match=_closable),
)
def close_check(ctx: Ctx, check_id: CheckId) -> Order:
    """Close a fully paid check; the order closes with its last check, freeing its table.

    Args:
        check_id: The check.

    Returns:
        The check's order.
    """
    check = ctx.get(Check, check_id, field="check_id")
    if check.status == "CLOSED":
        raise Conflict(f"check {check.id} is already closed", field="check_id", hint="nothing to do")
    if check.status != "PAID":
        raise RuleViolation(
            f"check {check.id} still has {check.balance_due} cents due",
            field="check_id",
            hint="take payment with kitchen__add_payment",
        )
    if not _closable(ctx, check):
        raise RuleViolation(
            f"check {check.id} has items not sent to the kitchen",
            field="check_id",
            hint="fire them with kitchen__fire_check or void them",
        )
    ctx.update(check, status="CLOSED", closed_at=ctx.now())
    order = ctx.get(Order, check.order_id)
    if all(c.status == "CLOSED" for c in ctx.where(Check, order_id=order.id)):
        order = ctx.update(order, status="closed", closed_at=ctx.now())
    return order


# -- seed -------------------------------------------------------------------------------------

_TEMPERATURE = ModifierGroup(
    name="Temperature",
    min_selections=1,
    max_selections=1,
    options=[ModifierOption(name=n) for n in ("rare", "medium rare", "medium", "well done")],
)
_SIDE = ModifierGroup(
    name="Side",
    min_selections=1,
    max_selections=1,
    options=[
        ModifierOption(name="fries"),
        ModifierOption(name="salad"),
        ModifierOption(name="truffle fries", price=300),
    ],
)
_ADD_ONS = ModifierGroup(
    name="Add-ons",
    min_selections=0,
    max_selections=3,
    options=[
        ModifierOption(name="bacon", price=250),
        ModifierOption(name="avocado", price=200),
        ModifierOption(name="extra cheese", price=150),
    ],
)
_DRESSING = ModifierGroup(
    name="Dressing",
    min_selections=0,
    max_selections=1,
    options=[ModifierOption(name=n) for n in ("caesar", "vinaigrette", "ranch")],
)
_SCOOPS = ModifierGroup(
    name="Ice cream flavours",
    min_selections=2,
    max_selections=2,
    options=[ModifierOption(name=n) for n in ("vanilla", "chocolate", "pistachio", "strawberry")],
)
_MENU: tuple[tuple[str, MenuGroup, int, Station, tuple[ModifierGroup, ...]], ...] = (
    ("Crispy Calamari", "starters", 1400, "fry", ()),
    ("Burrata Salad", "starters", 1600, "cold", (_DRESSING,)),
    ("House Burger", "mains", 1900, "grill", (_TEMPERATURE, _SIDE, _ADD_ONS)),
    ("Ribeye Steak", "mains", 4200, "grill", (_TEMPERATURE, _SIDE)),
    ("Seared Salmon", "mains", 2800, "saute", (_SIDE,)),
    ("Mushroom Risotto", "mains", 2200, "saute", ()),
    ("Chicken Caesar", "mains", 1800, "cold", (_ADD_ONS,)),
    ("Truffle Fries", "sides", 900, "fry", ()),
    ("Grilled Broccolini", "sides", 800, "grill", ()),
    ("Sundae Duo", "desserts", 1000, "cold", (_SCOOPS,)),
    ("Chocolate Torte", "desserts", 1100, "cold", ()),
    ("Draft IPA", "drinks", 800, "bar", ()),
    ("House Red (glass)", "drinks", 1200, "bar", ()),
    ("Sparkling Water", "drinks", 500, "bar", ()),
)
_FLOOR: tuple[tuple[Literal["main", "patio", "bar"], int], ...] = (
    ("main", 2),
    ("main", 2),
    ("main", 4),
    ("main", 4),
    ("main", 4),
    ("main", 6),
    ("main", 8),
    ("patio", 2),
    ("patio", 4),
    ("patio", 4),
    ("bar", 2),
    ("bar", 2),
)
_JOBS: tuple[Job, ...] = ("manager", "server", "server", "server", "bartender", "cook", "cook", "host", "manager")


@service.seeder
def seed(s: SeedContext) -> None:
    """The menu (Ribeye Steak 86'd), twelve tables, the staff, and a service in progress and finished."""
    items = [
        s.create(
            MenuItem,
            name=name,
            menu_group=group,
            price=price,
            station=station,
            modifier_groups=list(groups),
            out_of_stock=name == "Ribeye Steak",
        )
        for name, group, price, station, groups in _MENU
    ]
    tables = [
        s.create(DiningTable, name=f"T{n}", section=section, seats=seats)
        for n, (section, seats) in enumerate(_FLOOR, start=1)
    ]
    first = s.population.staff("Operations", "Support", fallback=0)
    staff = first + [p for p in s.population.employees if p.key not in {q.key for q in first}]
    team = []
    for k, person in enumerate(staff[: len(_JOBS)]):
        team.append(
            s.create(
                Employee,
                first_name=person.first_name,
                last_name=person.last_name,
                email=person.email,
                phone=person.phone,
                job=_JOBS[k],
                active=k != len(_JOBS) - 1 or len(staff) < len(_JOBS),
            )
        )
    servers = [e for e in team if e.job == "server"] or team
    guests = list(s.population.consumers)
    for k in range(10):
        closed = k >= 6
        takeout = k in (3, 8)
        guest = guests[k % len(guests)] if guests else None
        table = None if takeout else tables[k]
        when = s.now - dt.timedelta(days=1 if closed else 0, hours=s.rng.randint(0, 3))
        order = s.create(
            Order,
            dining_option="takeout" if takeout else "dine_in",
            table_id=table.id if table else None,
            server_id=servers[k % len(servers)].id,
            guest_count=1 if takeout else min(table.seats if table else 1, 2 + k % 3),
            customer_name=guest.name if (takeout and guest) else None,
            customer_phone=guest.phone if (takeout and guest) else None,
            customer_email=guest.email if (guest and (takeout or k % 2 == 0)) else None,
            business_date=when.date(),
            status="closed" if closed else "open",
            closed_at=when + dt.timedelta(hours=1) if closed else None,
        )
        _seed_check(s, order, items, stage=("empty", "ordered", "fired", "paid")[k % 4] if not closed else "closed")


def _seed_check(s: SeedContext, order: Order, items: list[MenuItem], stage: str) -> None:
    orderable = [i for i in items if not i.out_of_stock]
    selections: list[Selection] = []
    if stage != "empty":
        for _ in range(s.rng.randint(2, 4)):
            item = s.rng.choice(orderable)
            mods = [o.name for g in item.modifier_groups for o in g.options[: g.min_selections]]
            extra = sum(o.price for g in item.modifier_groups for o in g.options[: g.min_selections])
            qty = s.rng.randint(1, 2)
            selections.append(
                Selection(
                    id=f"sel_{len(selections) + 1:03d}",
                    menu_item_id=item.id,
                    name=item.name,
                    quantity=qty,
                    modifiers=mods,
                    unit_price=item.price + extra,
                    price=(item.price + extra) * qty,
                    fired=stage in ("fired", "paid", "closed"),
                )
            )
    totals = _totals(selections, [])
    payments: list[Payment] = []
    if stage in ("paid", "closed"):
        tip = totals["total"] // 5
        payments = [
            Payment(
                type="CREDIT",
                amount=totals["total"],
                tip_amount=tip,
                card_last4=f"{s.rng.randint(0, 9999):04d}",
                paid_at=s.now,
            )
        ]
        totals = _totals(selections, payments)
    check = s.create(
        Check,
        order_id=order.id,
        closed_at=order.closed_at if stage == "closed" else None,
        **{**totals, "status": "CLOSED" if stage == "closed" else totals["status"]},
    )
    if stage in ("fired", "paid", "closed"):
        by_station: dict[Station, list[TicketItem]] = {}
        for sel in selections:
            station = next(i.station for i in items if i.id == sel.menu_item_id)
            by_station.setdefault(station, []).append(
                TicketItem(selection_id=sel.id, name=sel.name, quantity=sel.quantity, modifiers=sel.modifiers)
            )
        status: TicketStatus = "fired" if stage == "fired" else "ready" if stage == "paid" else "served"
        for station, lines in sorted(by_station.items()):
            s.create(
                Ticket,
                order_id=order.id,
                check_id=check.id,
                station=station,
                items=lines,
                status=status,
                ready_at=s.now if status != "fired" else None,
                served_at=s.now if status == "served" else None,
            )
