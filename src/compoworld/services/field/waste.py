"""Curbline Hauling: waste and recycling collection: accounts, service agreements, containers, routes, pickups.

Modeled on AMCS Platform and Routeware (customer accounts; service agreements
per site for a waste stream with a container size, a frequency and a pickup
day, priced monthly with extra-pickup and overage rates; containers delivered
to an agreement and removed when it is cancelled; routes per weekday driven by
a driver; scheduled stops that go scheduled → completed, missed or blocked;
customer service requests for missed pickups (a free redo stop, only for a stop
missed or not yet done in the last three days) and extra pickups (a charged
stop); charges for extra pickups, overfilled containers (overage) and
contamination that go pending → invoiced or waived). A suspended account gets
no new agreements or requests; a completed stop records its weight, and an
overfilled one charges the overage rate once.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "waste",
    title="Curbline Hauling",
    category="waste_management",
    modeled_on="AMCS Platform / Routeware (customer accounts, service agreements, containers, routes, "
    "scheduled stops, missed-pickup and extra-pickup requests, overage and extra charges)",
    description="A waste hauler's collection business: customer accounts and their service agreements, the "
    "containers on site, weekday routes and drivers, scheduled pickups completed or missed, customer requests "
    "for missed or extra pickups, and the extra, overage and contamination charges they bring.",
)

CustomerId = Annotated[str, IdOf("waste.customer")]
AgreementId = Annotated[str, IdOf("waste.agreement")]
ContainerId = Annotated[str, IdOf("waste.container")]
RouteId = Annotated[str, IdOf("waste.route")]
PickupId = Annotated[str, IdOf("waste.pickup")]
RequestId = Annotated[str, IdOf("waste.service_request")]
ChargeId = Annotated[str, IdOf("waste.charge")]

Stream = Literal["trash", "recycling", "organics", "roll_off"]
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday"]
Frequency = Literal["weekly", "biweekly", "twice_weekly"]
ContainerKind = Literal["cart_96gal", "front_load_4yd", "front_load_8yd", "roll_off_30yd"]
PickupStatus = Literal["scheduled", "completed", "missed", "blocked"]
ChargeKind = Literal["extra_pickup", "overage", "contamination"]
DAYS: tuple[Weekday, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday")
REDO_WINDOW = dt.timedelta(days=3)
PLANS: tuple[tuple[Stream, ContainerKind, int], ...] = (
    ("trash", "front_load_8yd", 28500),
    ("recycling", "front_load_4yd", 9500),
    ("trash", "cart_96gal", 3200),
    ("organics", "cart_96gal", 2200),
    ("roll_off", "roll_off_30yd", 52000),
)
"""Seeded agreements: stream, container and monthly rate."""


class Customer(Timestamped):
    """A customer account."""

    id: CustomerId
    account_number: Annotated[str, Generated("sequence", "W{n:06d}")]
    """The account number."""
    name: Title
    """The business or household."""
    contact_name: PersonName
    """Who to contact."""
    email: Email
    """Their e-mail."""
    city: City
    """The service city."""
    status: Literal["active", "suspended"] = "active"
    """active or suspended (unpaid)."""


class Agreement(Timestamped):
    """A service agreement for one waste stream at a customer's site."""

    id: AgreementId
    customer_id: CustomerId
    """The customer."""
    stream: Stream
    """trash, recycling, organics or roll_off."""
    container_kind: ContainerKind
    """cart_96gal, front_load_4yd, front_load_8yd or roll_off_30yd."""
    frequency: Frequency = "weekly"
    """weekly, biweekly or twice_weekly."""
    pickup_day: Weekday
    """The collection weekday."""
    monthly_rate_cents: Cents
    """The monthly price."""
    extra_pickup_cents: Cents
    """Price of an extra pickup."""
    overage_cents: Cents
    """Charge for an overfilled container."""
    start_date: Date
    """When service starts."""
    status: Literal["active", "cancelled"] = "active"
    """active or cancelled."""


class Container(Timestamped):
    """A container on a customer's site."""

    id: ContainerId
    serial: Annotated[str, Generated("sequence", "CN-{n:05d}")]
    """Its serial number."""
    kind: ContainerKind
    """Its size."""
    agreement_id: AgreementId | None = None
    """The agreement it serves."""
    status: Literal["in_yard", "delivered", "removed"] = "in_yard"
    """in_yard, delivered or removed."""


class Route(Timestamped):
    """A collection route on a weekday."""

    id: RouteId
    name: Title
    """The route's name."""
    day: Weekday
    """The weekday it runs."""
    stream: Stream
    """The waste stream it collects."""
    driver_email: Email
    """The driver."""


class Pickup(Timestamped):
    """A stop on a route."""

    id: PickupId
    agreement_id: AgreementId
    """The agreement served."""
    customer_id: CustomerId
    """The customer."""
    route_id: RouteId | None = None
    """The route."""
    service_date: Date
    """The day of the stop."""
    kind: Literal["scheduled", "extra", "redo"] = "scheduled"
    """scheduled, extra (charged) or redo (after a miss)."""
    status: PickupStatus = "scheduled"
    """scheduled, completed, missed or blocked."""
    weight_lbs: Annotated[int, Field(ge=0, le=40000)] | None = None
    """Weight collected."""
    overfilled: bool = False
    """Whether the container was overfilled."""
    driver_note: Text = ""
    """The driver's note (why missed or blocked)."""


class ServiceRequest(Timestamped):
    """A customer's request: a missed pickup or an extra one."""

    id: RequestId
    customer_id: CustomerId
    """The customer."""
    agreement_id: AgreementId
    """The agreement."""
    kind: Literal["missed_pickup", "extra_pickup"]
    """missed_pickup or extra_pickup."""
    pickup_id: PickupId
    """The stop it scheduled."""
    notes: Text = ""
    """What the customer said."""


class Charge(Timestamped):
    """A charge on a customer's next invoice."""

    id: ChargeId
    customer_id: CustomerId
    """The customer."""
    agreement_id: AgreementId
    """The agreement."""
    pickup_id: PickupId | None = None
    """The stop it is for."""
    kind: ChargeKind
    """extra_pickup, overage or contamination."""
    amount_cents: Cents
    """The amount."""
    status: Literal["pending", "invoiced", "waived"] = "pending"
    """pending, invoiced or waived."""


# -- rules ------------------------------------------------------------------------------------


def _guard_route(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.driver_email, field="driver_email", hint="drivers are staff")


customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cus",
    create=("name", "contact_name", "email", "city"),
    filters=("account_number", "email", "city", "status"),
    search=("name", "contact_name"),
    update=("name", "contact_name", "email"),
    delete=False,
    transitions={
        "suspend": Transition("status", ("active",), "suspended", "suspend the account"),
        "reactivate": Transition("status", ("suspended",), "active", "reactivate the account"),
    },
)
agreements = service.resource(
    Agreement,
    name="agreement",
    plural="agreements",
    prefix="agr",
    create=False,
    filters=("customer_id", "stream", "pickup_day", "status", "container_kind"),
    update=("pickup_day", "frequency", "monthly_rate_cents"),
    delete=False,
    title="service agreement",
)
containers = service.resource(
    Container,
    name="container",
    plural="containers",
    prefix="cnt",
    create=False,
    filters=("serial", "kind", "agreement_id", "status"),
    delete=False,
)
routes = service.resource(
    Route,
    name="route",
    plural="routes",
    prefix="rte",
    create=("name", "day", "stream", "driver_email"),
    filters=("day", "stream", "driver_email"),
    search=("name",),
    update=("name", "driver_email"),
    delete=False,
    guard_create=_guard_route,
    guard_update=_guard_route,
)
pickups = service.resource(
    Pickup,
    name="pickup",
    plural="pickups",
    prefix="pu",
    create=False,
    filters=("agreement_id", "customer_id", "route_id", "service_date", "status", "kind"),
    delete=False,
)
requests = service.resource(
    ServiceRequest,
    name="service_request",
    plural="service_requests",
    prefix="sr",
    create=False,
    filters=("customer_id", "agreement_id", "kind"),
    search=("notes",),
    delete=False,
    title="service request",
)
charges = service.resource(
    Charge,
    name="charge",
    plural="charges",
    prefix="chg",
    create=False,
    filters=("customer_id", "agreement_id", "kind", "status"),
    delete=False,
    transitions={
        "waive": Transition("status", ("pending",), "waived", "waive the charge"),
        "invoice": Transition("status", ("pending",), "invoiced", "put the charge on the invoice"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _active_customer(ctx: Ctx, customer_id: str) -> Customer:
    cust = ctx.get(Customer, customer_id, field="customer_id")
    if cust.status != "active":
        raise RuleViolation(f"account {cust.account_number} is suspended", field="customer_id", hint="reactivate it")
    return cust


def _example_agreement(ctx: Ctx) -> dict[str, Any] | None:
    cust = ctx.first(Customer, status="active")
    if cust is None or ctx.first(Container, status="in_yard", kind="cart_96gal") is None:
        return None
    return {
        "customer_id": cust.id,
        "stream": "organics",
        "container_kind": "cart_96gal",
        "pickup_day": "wednesday",
        "monthly_rate_cents": 2400,
        "start_date": (ctx.today() + dt.timedelta(days=7)).isoformat(),
    }


@service.tool(intent="start a service agreement", write=True, example=_example_agreement)
def start_agreement(
    ctx: Ctx,
    customer_id: CustomerId,
    stream: Stream,
    container_kind: ContainerKind,
    pickup_day: Weekday,
    monthly_rate_cents: Cents,
    start_date: Date,
    frequency: Frequency = "weekly",
) -> Agreement:
    """Start service for a waste stream (one active agreement per stream); a container from the yard is delivered.

    Args:
        customer_id: The customer (active).
        stream: trash, recycling, organics or roll_off.
        container_kind: cart_96gal, front_load_4yd, front_load_8yd or roll_off_30yd.
        pickup_day: The collection weekday.
        monthly_rate_cents: The monthly price.
        start_date: When service starts (today or later).
        frequency: weekly, biweekly or twice_weekly.
    """
    cust = _active_customer(ctx, customer_id)
    if start_date < ctx.today():
        raise RuleViolation("service cannot start in the past", field="start_date", hint="start today or later")
    if (stream == "roll_off") != (container_kind == "roll_off_30yd"):
        raise RuleViolation("roll-off service uses a roll-off container", field="container_kind", hint="match them")
    if any(a.stream == stream for a in ctx.where(Agreement, customer_id=cust.id, status="active")):
        raise Conflict(f"{cust.name} already has {stream} service", field="stream", hint="update that agreement")
    box = ctx.first(Container, status="in_yard", kind=container_kind)
    if box is None:
        raise RuleViolation(f"no {container_kind} in the yard", field="container_kind", hint="pick another size")
    agr = ctx.create(
        Agreement,
        customer_id=cust.id,
        stream=stream,
        container_kind=container_kind,
        frequency=frequency,
        pickup_day=pickup_day,
        monthly_rate_cents=monthly_rate_cents,
        extra_pickup_cents=max(1500, monthly_rate_cents // 2),
        overage_cents=max(1000, monthly_rate_cents // 4),
        start_date=start_date,
    )
    ctx.update(box, agreement_id=agr.id, status="delivered")
    return agr


@service.tool(
    intent="cancel the service agreement",
    write=True,
    destructive=True,
    example=first_example(Agreement, "agreement_id", where={"status": "active"}),
)
def cancel_agreement(ctx: Ctx, agreement_id: AgreementId) -> Agreement:
    """Cancel an active agreement: its containers are removed and its future stops dropped.

    Args:
        agreement_id: The agreement.
    """
    agr = ctx.get(Agreement, agreement_id, field="agreement_id")
    if agr.status != "active":
        raise Conflict("the agreement is already cancelled", field="agreement_id", hint="nothing to do")
    for box in ctx.where(Container, agreement_id=agr.id):
        ctx.update(box, status="removed")
    for stop in ctx.where(Pickup, agreement_id=agr.id, status="scheduled"):
        if stop.service_date >= ctx.today():
            ctx.delete(stop)
    return ctx.update(agr, status="cancelled")


def _stop(ctx: Ctx, pickup_id: str) -> Pickup:
    stop = ctx.get(Pickup, pickup_id, field="pickup_id")
    if stop.status != "scheduled":
        raise RuleViolation(f"the stop is {stop.status}", field="pickup_id", hint="only scheduled stops")
    return stop


@service.tool(
    intent="complete the pickup",
    write=True,
    example=first_example(Pickup, "pickup_id", where={"status": "scheduled"}, weight_lbs=180),
)
def complete_pickup(
    ctx: Ctx, pickup_id: PickupId, weight_lbs: Annotated[int, Field(ge=0, le=40000)], overfilled: bool = False
) -> Pickup:
    """Complete a scheduled stop with its weight; an overfilled container is charged the overage rate.

    Args:
        pickup_id: The stop.
        weight_lbs: Weight collected.
        overfilled: Whether the container was overfilled.
    """
    stop = _stop(ctx, pickup_id)
    if overfilled:
        agr = ctx.get(Agreement, stop.agreement_id)
        ctx.create(
            Charge,
            customer_id=stop.customer_id,
            agreement_id=agr.id,
            pickup_id=stop.id,
            kind="overage",
            amount_cents=agr.overage_cents,
        )
    return ctx.update(stop, status="completed", weight_lbs=weight_lbs, overfilled=overfilled)


@service.tool(
    intent="mark the pickup missed",
    write=True,
    example=first_example(Pickup, "pickup_id", where={"status": "scheduled"}, reason="blocked", note="Car parked"),
)
def skip_pickup(ctx: Ctx, pickup_id: PickupId, reason: Literal["missed", "blocked"], note: Text) -> Pickup:
    """The driver could not service a stop: missed (our fault) or blocked (the customer's); say why.

    Args:
        pickup_id: The stop.
        reason: missed or blocked.
        note: What happened (required).
    """
    stop = _stop(ctx, pickup_id)
    if not note.strip():
        raise RuleViolation("say why the stop was skipped", field="note", hint="describe what the driver saw")
    return ctx.update(stop, status=reason, driver_note=note.strip())


def _route_for(ctx: Ctx, agr: Agreement) -> str | None:
    route = ctx.first(Route, day=agr.pickup_day, stream=agr.stream)
    return None if route is None else route.id


def _example_missed(ctx: Ctx) -> dict[str, Any] | None:
    for stop in ctx.where(Pickup, status="missed"):
        agr = ctx.get(Agreement, stop.agreement_id)
        if agr.status == "active" and stop.service_date >= ctx.today() - REDO_WINDOW:
            return {"agreement_id": agr.id, "notes": "Bins were out by 6am."}
    return None


@service.tool(intent="report a missed pickup", write=True, example=_example_missed)
def report_missed_pickup(ctx: Ctx, agreement_id: AgreementId, notes: Text = "") -> ServiceRequest:
    """Report a missed pickup: a stop missed (or still not done) in the last three days gets a free redo tomorrow.

    Args:
        agreement_id: The agreement.
        notes: What the customer says.
    """
    agr = ctx.get(Agreement, agreement_id, field="agreement_id")
    _active_customer(ctx, agr.customer_id)
    since = ctx.today() - REDO_WINDOW
    recent = [
        p
        for p in ctx.where(Pickup, agreement_id=agr.id)
        if since <= p.service_date <= ctx.today() and p.status in ("missed", "scheduled")
    ]
    if not recent:
        raise RuleViolation(
            "no stop was missed in the last three days",
            field="agreement_id",
            hint="a completed or blocked stop gets no free redo; request an extra pickup",
        )
    if any(
        r.kind == "missed_pickup" and ctx.get(Pickup, r.pickup_id).status == "scheduled"
        for r in ctx.where(ServiceRequest, agreement_id=agr.id)
    ):
        raise Conflict("a redo is already scheduled", field="agreement_id", hint="wait for it")
    redo = ctx.create(
        Pickup,
        agreement_id=agr.id,
        customer_id=agr.customer_id,
        route_id=_route_for(ctx, agr),
        service_date=ctx.today() + dt.timedelta(days=1),
        kind="redo",
    )
    return ctx.create(
        ServiceRequest,
        customer_id=agr.customer_id,
        agreement_id=agr.id,
        kind="missed_pickup",
        pickup_id=redo.id,
        notes=notes,
    )


def _example_extra(ctx: Ctx) -> dict[str, Any] | None:
    agr = ctx.first(Agreement, status="active")
    return (
        None
        if agr is None
        else {"agreement_id": agr.id, "service_date": (ctx.today() + dt.timedelta(days=2)).isoformat()}
    )


@service.tool(intent="request an extra pickup", write=True, example=_example_extra)
def request_extra_pickup(ctx: Ctx, agreement_id: AgreementId, service_date: Date, notes: Text = "") -> ServiceRequest:
    """Book a charged extra pickup on a future day for an active agreement.

    Args:
        agreement_id: The agreement (active).
        service_date: The day (after today).
        notes: What to collect.
    """
    agr = ctx.get(Agreement, agreement_id, field="agreement_id")
    if agr.status != "active":
        raise RuleViolation("the agreement is cancelled", field="agreement_id", hint="start a new agreement")
    _active_customer(ctx, agr.customer_id)
    if service_date <= ctx.today():
        raise RuleViolation("extra pickups are booked ahead", field="service_date", hint="pick a later day")
    stop = ctx.create(
        Pickup,
        agreement_id=agr.id,
        customer_id=agr.customer_id,
        route_id=_route_for(ctx, agr),
        service_date=service_date,
        kind="extra",
    )
    ctx.create(
        Charge,
        customer_id=agr.customer_id,
        agreement_id=agr.id,
        pickup_id=stop.id,
        kind="extra_pickup",
        amount_cents=agr.extra_pickup_cents,
    )
    return ctx.create(
        ServiceRequest,
        customer_id=agr.customer_id,
        agreement_id=agr.id,
        kind="extra_pickup",
        pickup_id=stop.id,
        notes=notes,
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Business and household accounts, agreements with delivered containers, routes, a week of stops, charges."""
    pop = s.population
    drivers = pop.staff("Operations", fallback=4)
    today = s.now.date()
    accounts: list[Customer] = []
    for k, co in enumerate(pop.customers[:6]):
        contact = pop.first_contact(co)
        accounts.append(
            s.create(
                Customer,
                name=co.name,
                contact_name=contact.name if contact else co.name,
                email=contact.email if contact else f"ap@{co.domain}",
                city=co.address.city,
                status="suspended" if k == 5 else "active",
            )
        )
    for p in pop.consumers[:4]:
        accounts.append(
            s.create(Customer, name=f"{p.last_name} household", contact_name=p.name, email=p.email, city=p.address.city)
        )
    for k, (day, stream) in enumerate(zip(DAYS, ("trash", "recycling", "trash", "organics", "roll_off"), strict=True)):
        s.create(
            Route,
            name=f"{day.title()} {stream} route",
            day=day,
            stream=stream,
            driver_email=drivers[k % len(drivers)].email,
        )
    for _ in range(4):
        for kind in ("cart_96gal", "front_load_4yd", "front_load_8yd", "roll_off_30yd"):
            s.create(Container, kind=kind)
    for k, cust in enumerate(accounts):
        stream, kind, rate = PLANS[k % len(PLANS)] if k < 6 else PLANS[2 + k % 2]
        day = DAYS[(k * 2) % 5]
        agr = s.create(
            Agreement,
            customer_id=cust.id,
            stream=stream,
            container_kind=kind,
            pickup_day=day,
            monthly_rate_cents=rate,
            extra_pickup_cents=max(1500, rate // 2),
            overage_cents=max(1000, rate // 4),
            start_date=today - dt.timedelta(days=200 + k),
        )
        s.create(Container, kind=kind, agreement_id=agr.id, status="delivered")
        route = next((r for r in s.records(Route) if r.day == day and r.stream == stream), None)
        for back, status in ((2, ("completed", "missed", "blocked", "completed")[k % 4]), (-5, "scheduled")):
            stop = s.create(
                Pickup,
                agreement_id=agr.id,
                customer_id=cust.id,
                route_id=route.id if route else None,
                service_date=today - dt.timedelta(days=back),
                status=status,
                weight_lbs=300 + 40 * k if status == "completed" else None,
                overfilled=status == "completed" and k % 3 == 0,
                driver_note="Gate locked" if status == "blocked" else ("Truck breakdown" if status == "missed" else ""),
            )
            if stop.overfilled:
                s.create(
                    Charge,
                    customer_id=cust.id,
                    agreement_id=agr.id,
                    pickup_id=stop.id,
                    kind="overage",
                    amount_cents=agr.overage_cents,
                )
        if k == 7:
            redo = s.create(
                Pickup,
                agreement_id=agr.id,
                customer_id=cust.id,
                route_id=route.id if route else None,
                service_date=today,
                kind="redo",
                status="completed",
                weight_lbs=90,
            )
            s.create(
                ServiceRequest,
                customer_id=cust.id,
                agreement_id=agr.id,
                kind="missed_pickup",
                pickup_id=redo.id,
                notes="Cart was at the curb.",
            )
        if k == 2:
            s.create(
                Charge,
                customer_id=cust.id,
                agreement_id=agr.id,
                kind="contamination",
                amount_cents=4500,
                status="invoiced",
            )
