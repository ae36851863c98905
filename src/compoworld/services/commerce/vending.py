"""Coilpoint Vending: vending machines and micro-markets: planograms, coils, sales, service visits, alerts.

Modeled on Cantaloupe Seed (Seed Office / Seed Pro: locations, machines with
telemetry, planograms of coils each holding one product at a price with a
capacity and a par level, DEX/cashless sales per coil, pick lists, route
service visits that restock coils and collect cash, and out-of-stock and
offline alerts): a sale needs an online machine and a coil with stock; the
last unit sold raises an out-of-stock alert and a coil at or under its par
level a low-stock one (one open alert per coil and kind). The pick list says
how many of each product to bring to fill every coil to capacity. A visit is
scheduled for an employee driver, goes scheduled → completed once, fills every
coil to capacity, records the units added and resolves the machine's stock
alerts. A coil's product or price changes only while it is empty.
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
from compoworld.engine.types import Cents, City, CompanyName, Date, Email, IdOf, Sku, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "vending",
    title="Coilpoint Vending",
    category="vending",
    modeled_on="Cantaloupe Seed Office / Seed Pro (locations, machines and telemetry, planograms and coils, "
    "cashless and DEX sales, pick lists, service visits, out-of-stock alerts)",
    description="A vending operator's machines and micro-markets at customer locations: each machine's coils "
    "and their products and prices, sales as they happen, pick lists and route service visits that restock "
    "the coils, and alerts when a coil sells out or a machine goes offline.",
)

LocationId = Annotated[str, IdOf("vending.location")]
MachineId = Annotated[str, IdOf("vending.machine")]
CoilId = Annotated[str, IdOf("vending.coil")]
SaleId = Annotated[str, IdOf("vending.sale")]
VisitId = Annotated[str, IdOf("vending.visit")]
AlertId = Annotated[str, IdOf("vending.alert")]

CoilCode = Annotated[str, StringConstraints(pattern=r"^[A-H][0-9]{1,2}$")]
"""A coil's selection code, e.g. A1."""
Units = Annotated[int, Field(ge=0, le=200)]


class Location(Timestamped):
    """A customer site hosting machines."""

    id: LocationId
    name: CompanyName
    """The host business."""
    city: City
    """Its city."""
    contact_email: Email
    """The host's contact."""


class Machine(Timestamped):
    """A vending machine or micro-market kiosk."""

    id: MachineId
    asset_number: Annotated[str, Generated("sequence", "VM-{n:05d}")]
    """The operator's asset number."""
    location_id: LocationId
    """Where it stands."""
    kind: Literal["snack", "beverage", "combo", "micro_market"]
    """snack, beverage, combo or micro_market."""
    model_name: Title
    """The make and model."""
    status: Literal["online", "offline"] = "online"
    """online or offline (no telemetry)."""


class Coil(Timestamped):
    """A coil (selection) of a machine and what it holds."""

    id: CoilId
    machine_id: MachineId
    """The machine."""
    code: CoilCode
    """The selection code."""
    sku: Sku
    """The product in it."""
    product_name: Title
    """The product's name."""
    price_cents: Cents
    """The vend price."""
    capacity: Annotated[int, Field(ge=1, le=200)]
    """Units it holds when full."""
    par_level: Units = 2
    """Stock at or under which it is low."""
    on_hand: Units = 0
    """Units in it now."""


class Sale(Created):
    """A vend."""

    id: SaleId
    machine_id: MachineId
    """The machine."""
    coil_code: CoilCode
    """The coil."""
    sku: Sku
    """The product."""
    price_cents: Cents
    """What it sold for."""
    payment: Literal["cash", "card", "mobile"]
    """cash, card or mobile wallet."""


class Visit(Timestamped):
    """A route driver's service visit."""

    id: VisitId
    machine_id: MachineId
    """The machine."""
    driver_email: Email
    """The route driver."""
    scheduled_on: Date
    """The day planned."""
    status: Literal["scheduled", "completed", "cancelled"] = "scheduled"
    """scheduled, completed or cancelled."""
    units_added: int = 0
    """Units restocked."""
    cash_collected_cents: Cents = 0
    """Cash taken from the machine."""


class Alert(Timestamped):
    """A stock or telemetry alert."""

    id: AlertId
    machine_id: MachineId
    """The machine."""
    coil_code: CoilCode | None = None
    """The coil, for stock alerts."""
    kind: Literal["out_of_stock", "low_stock", "offline"]
    """out_of_stock, low_stock or offline."""
    status: Literal["open", "resolved"] = "open"
    """open or resolved."""


class PickLine(Value):
    """What to bring for one product."""

    sku: Sku
    """The product."""
    product_name: Title
    """Its name."""
    units: int
    """Units needed to fill every coil to capacity."""


# -- rules ------------------------------------------------------------------------------------


def _guard_coil(ctx: Ctx, new: Any, old: Any) -> None:
    if (new.sku, new.price_cents) != (old.sku, old.price_cents) and old.on_hand > 0:
        raise RuleViolation(f"coil {old.code} still holds {old.on_hand}", field="coil_id", hint="sell it out first")
    if new.par_level >= new.capacity:
        raise RuleViolation("par level must be under capacity", field="par_level", hint="lower the par level")


def _guard_visit(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.driver_email, field="driver_email", hint="drivers are staff")
    if old is None and new.scheduled_on < ctx.today():
        raise RuleViolation("the day is past", field="scheduled_on", hint="schedule today or later")


def _guard_machine(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "offline" and old.status == "online":
        _raise(ctx, new.id, None, "offline")
    if new.status == "online":
        for alert in ctx.where(Alert, machine_id=new.id, kind="offline", status="open"):
            ctx.update(alert, status="resolved")


locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    filters=("city", "contact_email", "name"),
    search=("name",),
    delete=False,
)
machines = service.resource(
    Machine,
    name="machine",
    plural="machines",
    prefix="vm",
    create=False,
    filters=("location_id", "kind", "status", "asset_number"),
    search=("model_name",),
    delete=False,
    transitions={
        "mark_offline": Transition("status", ("online",), "offline", "mark the machine offline"),
        "mark_online": Transition("status", ("offline",), "online", "mark the machine online"),
    },
    guard_update=_guard_machine,
)
coils = service.resource(
    Coil,
    name="coil",
    plural="coils",
    prefix="coil",
    create=False,
    filters=("machine_id", "code", "sku"),
    search=("product_name",),
    update=("sku", "product_name", "price_cents", "par_level"),
    delete=False,
    guard_update=_guard_coil,
)
sales = service.resource(
    Sale,
    name="sale",
    plural="sales",
    prefix="sale",
    create=False,
    get=False,
    filters=("machine_id", "coil_code", "sku", "payment"),
    delete=False,
)
visits = service.resource(
    Visit,
    name="visit",
    plural="visits",
    prefix="vis",
    create=("machine_id", "driver_email", "scheduled_on"),
    filters=("machine_id", "driver_email", "status", "scheduled_on"),
    delete=False,
    transitions={"cancel": Transition("status", ("scheduled",), "cancelled", "cancel the visit")},
    guard_create=_guard_visit,
    title="service visit",
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="alrt",
    create=False,
    filters=("machine_id", "kind", "status"),
    delete=False,
    transitions={"resolve": Transition("status", ("open",), "resolved", "resolve the alert")},
)


# -- domain tools -----------------------------------------------------------------------------


def _raise(ctx: Ctx, machine_id: str, code: str | None, kind: Any) -> None:
    if ctx.first(Alert, machine_id=machine_id, coil_code=code, kind=kind, status="open") is None:
        ctx.create(Alert, machine_id=machine_id, coil_code=code, kind=kind)


def _example_sale(ctx: Ctx) -> dict[str, Any] | None:
    for coil in ctx.scan(Coil):
        if coil.on_hand > 0 and ctx.get(Machine, coil.machine_id).status == "online":
            return {"machine_id": coil.machine_id, "coil_code": coil.code, "payment": "card"}
    return None


@service.tool(intent="record a sale", write=True, example=_example_sale)
def record_sale(
    ctx: Ctx, machine_id: MachineId, coil_code: CoilCode, payment: Literal["cash", "card", "mobile"]
) -> Sale:
    """Record a vend from an online machine's coil that has stock; low and sold-out coils raise alerts.

    Args:
        machine_id: The machine.
        coil_code: The selection, e.g. A1.
        payment: cash, card or mobile.
    """
    machine = ctx.get(Machine, machine_id, field="machine_id")
    if machine.status != "online":
        raise RuleViolation("the machine is offline", field="machine_id", hint="bring it back online")
    coil = ctx.first(Coil, machine_id=machine.id, code=coil_code)
    if coil is None:
        raise RuleViolation(f"no coil {coil_code}", field="coil_code", hint="list the machine's coils")
    if coil.on_hand == 0:
        raise RuleViolation(f"coil {coil_code} is sold out", field="coil_code", hint="restock it with a visit")
    left = coil.on_hand - 1
    ctx.update(coil, on_hand=left)
    if left == 0:
        _raise(ctx, machine.id, coil.code, "out_of_stock")
    elif left <= coil.par_level:
        _raise(ctx, machine.id, coil.code, "low_stock")
    return ctx.create(
        Sale, machine_id=machine.id, coil_code=coil.code, sku=coil.sku, price_cents=coil.price_cents, payment=payment
    )


@service.tool(intent="build the machine's pick list", example=first_example(Machine, "machine_id"))
def pick_list(ctx: Ctx, machine_id: MachineId) -> list[PickLine]:
    """The products and units a driver must bring to fill every coil of a machine to capacity.

    Args:
        machine_id: The machine.
    """
    ctx.get(Machine, machine_id, field="machine_id")
    need: dict[str, PickLine] = {}
    for coil in ctx.where(Coil, machine_id=machine_id):
        gap = coil.capacity - coil.on_hand
        if gap:
            prior = need.get(coil.sku)
            units = gap + (prior.units if prior else 0)
            need[coil.sku] = PickLine(sku=coil.sku, product_name=coil.product_name, units=units)
    return sorted(need.values(), key=lambda line: line.sku)


@service.tool(
    intent="complete the service visit",
    write=True,
    example=first_example(Visit, "visit_id", where={"status": "scheduled"}, cash_collected_cents=4350),
)
def complete_visit(ctx: Ctx, visit_id: VisitId, cash_collected_cents: Cents = 0) -> Visit:
    """Complete a scheduled visit: every coil is filled to capacity and the machine's stock alerts resolve.

    Args:
        visit_id: The visit.
        cash_collected_cents: Cash taken from the machine.
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "scheduled":
        raise Conflict(f"the visit is {visit.status}", field="visit_id", hint="schedule a new visit")
    added = 0
    for coil in ctx.where(Coil, machine_id=visit.machine_id):
        added += coil.capacity - coil.on_hand
        ctx.update(coil, on_hand=coil.capacity)
    for alert in ctx.where(Alert, machine_id=visit.machine_id, status="open"):
        if alert.kind != "offline":
            ctx.update(alert, status="resolved")
    return ctx.update(visit, status="completed", units_added=added, cash_collected_cents=cash_collected_cents)


# -- seed -------------------------------------------------------------------------------------

SNACKS: tuple[tuple[str, str, int], ...] = (
    ("SNK-1001", "Sea salt crisps 40g", 150),
    ("SNK-1002", "Dark chocolate bar", 175),
    ("SNK-1003", "Trail mix 60g", 225),
    ("BEV-2001", "Sparkling water 500ml", 200),
    ("BEV-2002", "Cold brew coffee can", 325),
    ("BEV-2003", "Orange juice 330ml", 275),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Machines at customer companies' sites, coils at every stock level, recent sales, visits and alerts."""
    pop = s.population
    drivers = pop.staff("Operations", fallback=3)
    for k, company in enumerate(pop.customers[:4]):
        contact = pop.first_contact(company)
        loc = s.create(
            Location,
            name=company.name,
            city=company.address.city,
            contact_email=contact.email if contact else f"facilities@{company.domain}",
        )
        machine = s.create(
            Machine,
            location_id=loc.id,
            kind=("snack", "beverage", "combo", "micro_market")[k],
            model_name=("Crane BevMax 4", "AMS 39 Sensit", "Royal Vendors 650", "365 Retail kiosk")[k],
            status="offline" if k == 3 else "online",
        )
        if k == 3:
            s.create(Alert, machine_id=machine.id, kind="offline")
        for n, (sku, name, price) in enumerate(SNACKS):
            on_hand = (0, 2, 8, 10, 5, 1)[(n + k) % 6]
            coil = s.create(
                Coil,
                machine_id=machine.id,
                code=f"{'ABC'[n // 2]}{n % 2 + 1}",
                sku=sku,
                product_name=name,
                price_cents=price,
                capacity=10,
                par_level=2,
                on_hand=on_hand,
            )
            if on_hand == 0:
                s.create(Alert, machine_id=machine.id, coil_code=coil.code, kind="out_of_stock")
            for m in range(10 - on_hand if on_hand < 10 else 0):
                if m < 3:
                    s.create(
                        Sale,
                        machine_id=machine.id,
                        coil_code=coil.code,
                        sku=sku,
                        price_cents=price,
                        payment=("card", "cash", "mobile")[m % 3],
                        created_at=s.ago(hours=m + n + 1),
                    )
        s.create(
            Visit,
            machine_id=machine.id,
            driver_email=drivers[k % len(drivers)].email,
            scheduled_on=(s.now + dt.timedelta(days=k % 2)).date(),
            status="scheduled" if k < 3 else "completed",
            units_added=24 if k == 3 else 0,
        )
