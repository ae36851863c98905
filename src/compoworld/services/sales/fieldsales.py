"""Waypoint: field sales reps, accounts on a map, planned routes with stops, on-site check-ins and follow-ups.

Modeled on Badger Maps (accounts plotted by location, route planning with
optimized stop order, check-ins with notes and outcomes, follow-up
reminders) and Spotio (rep activity, nearby accounts, visit status): a route
belongs to one rep and one day, is planned → in_progress → completed, has its
stops ordered nearest-first from the first account, and completes only when
every stop was visited or skipped; a check-in is made on site (within 500 m
of the account) by the rep, marks the route's stop visited and updates the
account's last visit; follow-ups are due after today and are completed or
cancelled.
"""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, CompanyName, Date, DateTime, Email, IdOf, Latitude, Longitude, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.world.geo import haversine_km, haversine_m

__all__ = ["service"]

service = Service(
    "fieldsales",
    title="Waypoint",
    category="field_sales",
    modeled_on="Badger Maps / Spotio: accounts on a map, route planning with optimized stops, check-ins with "
    "outcomes and notes, follow-ups, nearby accounts",
    description="Field sales for reps on the road: customer and prospect accounts plotted on a map, daily routes "
    "with optimized stops, on-site check-ins with the visit's outcome and notes, follow-ups, and finding accounts "
    "near where a rep is.",
)

AccountId = Annotated[str, IdOf("fieldsales.account")]
RouteId = Annotated[str, IdOf("fieldsales.route")]
StopId = Annotated[str, IdOf("fieldsales.stop")]
CheckInId = Annotated[str, IdOf("fieldsales.check_in")]
FollowUpId = Annotated[str, IdOf("fieldsales.follow_up")]

Outcome = Literal["met_decision_maker", "left_materials", "order_taken", "no_answer", "demo_given"]
ON_SITE_M = 500


class Account(Timestamped):
    """A customer or prospect on the map."""

    id: AccountId
    name: CompanyName
    """The company."""
    city: City
    """City."""
    latitude: Latitude
    """Where it is."""
    longitude: Longitude
    """Where it is."""
    rep_email: Email
    """The rep who covers it."""
    stage: Literal["prospect", "customer", "churned"] = "prospect"
    """prospect, customer or churned."""
    priority: Literal["A", "B", "C"] = "B"
    """Visit priority."""
    last_visit_at: DateTime | None = None
    """Last check-in."""


class Route(Timestamped):
    """A rep's route for a day."""

    id: RouteId
    name: Title
    """Its name."""
    rep_email: Email
    """The rep."""
    route_date: Date
    """The day."""
    status: Literal["planned", "in_progress", "completed"] = "planned"
    """planned, in_progress or completed."""
    total_km: float = 0.0
    """Straight-line distance over its stops in order."""


class Stop(Created):
    """A stop of a route at an account."""

    id: StopId
    route_id: RouteId
    """The route."""
    account_id: AccountId
    """The account."""
    account_name: CompanyName
    """Its name."""
    position: Annotated[int, Field(ge=1, le=50)]
    """Order on the route."""
    status: Literal["pending", "visited", "skipped"] = "pending"
    """pending, visited or skipped."""


class CheckIn(Created):
    """A visit logged on site."""

    id: CheckInId
    account_id: AccountId
    """The account."""
    rep_email: Email
    """The rep."""
    outcome: Outcome
    """met_decision_maker, left_materials, order_taken, no_answer or demo_given."""
    notes: Text = ""
    """What happened."""
    distance_m: int
    """How far from the account's pin it was made."""
    stop_id: StopId | None = None
    """The route stop it fulfilled."""


class FollowUp(Timestamped):
    """A reminder to get back to an account."""

    id: FollowUpId
    account_id: AccountId
    """The account."""
    rep_email: Email
    """The rep."""
    kind: Literal["call", "visit", "email"]
    """call, visit or email."""
    due_date: Date
    """When."""
    notes: Text = ""
    """What to do."""
    status: Literal["open", "done", "cancelled"] = "open"
    """open, done or cancelled."""


class Nearby(Value):
    """An account near a point."""

    account_id: AccountId
    """The account."""
    name: CompanyName
    """Its name."""
    km: float
    """Distance in km."""
    stage: str
    """Its stage."""


# -- rules ------------------------------------------------------------------------------------


def _guard_account(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.rep_email, field="rep_email", hint="accounts are covered by reps")


def _guard_follow_up(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.rep_email, field="rep_email", hint="follow-ups belong to reps")
    ctx.get(Account, new.account_id, field="account_id")
    if new.due_date <= ctx.today() and (old is None or new.due_date != old.due_date):
        raise RuleViolation("due_date must be after today", field="due_date", hint="pick a later day")


def _guard_route_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "planned":
        raise RuleViolation(f"the route is {old.status}", field="route_id", hint="only planned routes are deleted")
    for stop in ctx.where(Stop, route_id=old.id):
        ctx.delete(stop)


accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acc",
    create=("name", "city", "latitude", "longitude", "rep_email", "stage", "priority"),
    filters=("rep_email", "stage", "priority", "city", "name"),
    search=("name",),
    update=("rep_email", "stage", "priority"),
    delete=False,
    guard_create=_guard_account,
    guard_update=_guard_account,
    title="map account",
)
routes = service.resource(
    Route,
    name="route",
    plural="routes",
    prefix="rte",
    create=False,
    filters=("rep_email", "route_date", "status"),
    search=("name",),
    guard_delete=_guard_route_delete,
)
stops = service.resource(
    Stop,
    name="stop",
    plural="stops",
    prefix="stp",
    create=False,
    get=False,
    filters=("route_id", "account_id", "status"),
    delete=False,
    transitions={"skip": Transition("status", ("pending",), "skipped", "skip the stop")},
)
check_ins = service.resource(
    CheckIn,
    name="check_in",
    plural="check_ins",
    prefix="chk",
    create=False,
    filters=("account_id", "rep_email", "outcome"),
    delete=False,
    title="check-in",
)
follow_ups = service.resource(
    FollowUp,
    name="follow_up",
    plural="follow_ups",
    prefix="fup",
    create=("account_id", "rep_email", "kind", "due_date", "notes"),
    filters=("account_id", "rep_email", "status", "kind"),
    update=("due_date", "notes", "kind"),
    delete=False,
    transitions={
        "complete": Transition("status", ("open",), "done", "mark the follow-up done"),
        "cancel": Transition("status", ("open",), "cancelled", "cancel the follow-up"),
    },
    guard_create=_guard_follow_up,
    guard_update=_guard_follow_up,
    title="follow-up",
)


# -- domain tools -----------------------------------------------------------------------------


def nearest_first(found: list[Account]) -> list[Account]:
    """The accounts ordered by nearest neighbour from the first one."""
    order, left = [found[0]], found[1:]
    while left:
        here = order[-1]
        nxt = min(left, key=lambda a: (haversine_km(here.latitude, here.longitude, a.latitude, a.longitude), a.id))
        order.append(nxt)
        left.remove(nxt)
    return order


def path_km(ordered: list[Account]) -> float:
    """Straight-line km from stop to stop in order."""
    legs = itertools.pairwise(ordered)
    return round(sum(haversine_km(a.latitude, a.longitude, b.latitude, b.longitude) for a, b in legs), 2)


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    rep = ctx.population.employees[0].email
    picked = [a.id for a in ctx.where(Account, rep_email=rep)][:3] or [a.id for a in ctx.scan(Account)][:3]
    day = (ctx.today() + dt.timedelta(days=3)).isoformat()
    return {"rep_email": rep, "route_date": day, "name": "Downtown loop", "account_ids": picked}


@service.tool(intent="plan a route for the rep", write=True, example=_example_plan)
def plan_route(ctx: Ctx, rep_email: Email, route_date: Date, name: Title, account_ids: list[AccountId]) -> Route:
    """Plan a rep's route for today or a later day, stops ordered nearest-first from the first account.

    Args:
        rep_email: The rep.
        route_date: The day (today or later; one route per rep and day).
        name: Its name.
        account_ids: The accounts to visit (2-25, each once), the first being the starting point.
    """
    require_employee(ctx, rep_email, field="rep_email", hint="routes are driven by reps")
    if route_date < ctx.today():
        raise RuleViolation("route_date is in the past", field="route_date", hint="plan today or later")
    if not 2 <= len(account_ids) <= 25 or len(set(account_ids)) != len(account_ids):
        raise RuleViolation("a route has 2-25 distinct accounts", field="account_ids", hint="list each account once")
    if ctx.first(Route, rep_email=rep_email, route_date=route_date):
        raise Conflict(f"{rep_email} already has a route on {route_date}", field="route_date", hint="edit that one")
    ordered = nearest_first([ctx.get(Account, a, field="account_ids") for a in account_ids])
    route = ctx.create(Route, name=name, rep_email=rep_email, route_date=route_date, total_km=path_km(ordered))
    for k, acct in enumerate(ordered, start=1):
        ctx.create(Stop, route_id=route.id, account_id=acct.id, account_name=acct.name, position=k)
    return route


@service.tool(
    intent="start the route",
    write=True,
    example=first_example(Route, "route_id", where={"status": "planned"}, match=lambda c, r: r.route_date <= c.today()),
)
def start_route(ctx: Ctx, route_id: RouteId) -> Route:
    """Start a planned route on its day.

    Args:
        route_id: The route.
    """
    route = ctx.get(Route, route_id, field="route_id")
    if route.status != "planned":
        raise Conflict(f"the route is {route.status}", field="route_id", hint="only planned routes start")
    if route.route_date != ctx.today():
        raise RuleViolation(f"the route is for {route.route_date}", field="route_id", hint="start it on its day")
    return ctx.update(route, status="in_progress")


@service.tool(
    intent="complete the route",
    write=True,
    example=first_example(
        Route,
        "route_id",
        where={"status": "in_progress"},
        match=lambda c, r: not c.where(Stop, route_id=r.id, status="pending"),
    ),
)
def complete_route(ctx: Ctx, route_id: RouteId) -> Route:
    """Complete a route in progress once every stop was visited or skipped.

    Args:
        route_id: The route.
    """
    route = ctx.get(Route, route_id, field="route_id")
    if route.status != "in_progress":
        raise RuleViolation(f"the route is {route.status}", field="route_id", hint="start it first")
    left = ctx.where(Stop, route_id=route.id, status="pending")
    if left:
        raise RuleViolation(f"{len(left)} stops are pending", field="route_id", hint="check in or skip them")
    return ctx.update(route, status="completed")


def _example_check_in(ctx: Ctx) -> dict[str, Any] | None:
    acct = ctx.first(Account)
    if acct is None:
        return None
    return {
        "account_id": acct.id,
        "rep_email": acct.rep_email,
        "outcome": "left_materials",
        "latitude": acct.latitude,
        "longitude": acct.longitude,
        "notes": "Dropped off the new catalogue.",
    }


@service.tool(intent="check in at the account", write=True, example=_example_check_in)
def check_in(
    ctx: Ctx,
    account_id: AccountId,
    rep_email: Email,
    outcome: Outcome,
    latitude: Latitude,
    longitude: Longitude,
    notes: Text = "",
) -> CheckIn:
    """Log a visit on site (within 500 m of the account); it fulfils the rep's pending stop there on a route in progress.

    Args:
        account_id: The account.
        rep_email: The rep.
        outcome: met_decision_maker, left_materials, order_taken, no_answer or demo_given.
        latitude: Where the rep is.
        longitude: Where the rep is.
        notes: What happened.
    """
    acct = ctx.get(Account, account_id, field="account_id")
    require_employee(ctx, rep_email, field="rep_email", hint="check-ins are made by reps")
    meters = round(haversine_m(latitude, longitude, acct.latitude, acct.longitude))
    if meters > ON_SITE_M:
        raise RuleViolation(
            f"the rep is {meters} m from {acct.name}", field="latitude", hint=f"check in on site (within {ON_SITE_M} m)"
        )
    stop_id = None
    for route in ctx.where(Route, rep_email=rep_email, status="in_progress"):
        for stop in ctx.where(Stop, route_id=route.id, account_id=acct.id, status="pending"):
            stop_id = ctx.update(stop, status="visited").id
    ctx.update(acct, last_visit_at=ctx.now())
    return ctx.create(
        CheckIn,
        account_id=acct.id,
        rep_email=rep_email,
        outcome=outcome,
        notes=notes,
        distance_m=meters,
        stop_id=stop_id,
    )


@service.tool(
    intent="find accounts near a location",
    example=lambda ctx: next(
        ({"latitude": a.latitude, "longitude": a.longitude, "radius_km": 25} for a in ctx.scan(Account)), None
    ),
)
def nearby_accounts(
    ctx: Ctx,
    latitude: Latitude,
    longitude: Longitude,
    radius_km: Annotated[float, Field(gt=0, le=500)] = 10,
    stage: Literal["prospect", "customer", "churned"] | None = None,
) -> list[Nearby]:
    """Accounts within a radius of a point, nearest first.

    Args:
        latitude: The point.
        longitude: The point.
        radius_km: The radius in km.
        stage: Only prospects, customers or churned accounts.
    """
    found = []
    for acct in ctx.scan(Account):
        km = haversine_km(latitude, longitude, acct.latitude, acct.longitude)
        if km <= radius_km and (stage is None or acct.stage == stage):
            found.append(Nearby(account_id=acct.id, name=acct.name, km=round(km, 2), stage=acct.stage))
    return sorted(found, key=lambda n: (n.km, n.account_id))


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """The world's companies as map accounts near their cities, routes today and earlier, check-ins, follow-ups."""
    pop = s.population
    reps = pop.staff("Sales", fallback=4)
    made: list[Account] = []
    for k, company in enumerate(pop.customers):
        jitter = ((k * 37) % 21 - 10) / 400
        made.append(
            s.create(
                Account,
                name=company.name,
                city=company.place.city,
                latitude=round(company.place.latitude + jitter, 5),
                longitude=round(company.place.longitude - jitter, 5),
                rep_email=reps[k % len(reps)].email,
                stage=("customer", "prospect", "prospect", "churned")[k % 4],
                priority=("A", "B", "C")[k % 3],
                created_at=s.ago(days=400),
                updated_at=s.ago(days=30),
            )
        )
    today = s.now.date()
    for k, rep in enumerate(reps[:3]):
        mine = nearest_first([a for a in made if a.rep_email == rep.email][:4] or made[:3])
        for back, status in ((7, "completed"), (0, ("in_progress", "in_progress", "planned")[k])):
            route = s.create(
                Route,
                name=f"{mine[0].city} loop",
                rep_email=rep.email,
                route_date=today - dt.timedelta(days=back),
                status=status,
                total_km=path_km(mine),
                created_at=s.ago(days=back + 1),
                updated_at=s.ago(days=back),
            )
            for pos, acct in enumerate(mine, start=1):
                done = status == "completed" or (status == "in_progress" and (pos == 1 or k == 1))
                stop = s.create(
                    Stop,
                    route_id=route.id,
                    account_id=acct.id,
                    account_name=acct.name,
                    position=pos,
                    status="visited" if done else "pending",
                    created_at=s.ago(days=back + 1),
                )
                if done:
                    s.create(
                        CheckIn,
                        account_id=acct.id,
                        rep_email=rep.email,
                        outcome=("met_decision_maker", "left_materials", "order_taken", "no_answer")[pos % 4],
                        notes="Visited on the loop.",
                        distance_m=40 + pos * 15,
                        stop_id=stop.id,
                        created_at=s.ago(days=back, hours=-pos),
                    )
    for k, acct in enumerate(made[:6]):
        s.create(
            FollowUp,
            account_id=acct.id,
            rep_email=acct.rep_email,
            kind=("call", "visit", "email")[k % 3],
            due_date=today + dt.timedelta(days=2 + k),
            notes="Follow up on the visit.",
            status=("open", "open", "done", "open", "cancelled", "open")[k],
            created_at=s.ago(days=5),
            updated_at=s.ago(days=1),
        )
