"""Yardline: yard management at the company's distribution center: locations, gate check-in/out, moves, detention.

Modeled on the FourKites Dynamic Yard (YMS) and C3 Reservations / C3 Yard
APIs: yard locations (dock doors and parking spots) available, occupied or out
of service; trailer visits checked in at the gate into a free parking spot (a
trailer is in the yard once at a time), then checked out; yard moves requested
from the trailer's spot to a free location, started by a yard driver (an
employee) and completed, or cancelled before completion; a trailer moves once
at a time and leaves only without an open move. Each visit has free time
(default two hours); the time beyond it until check-out is detention, which a
yard manager may extend.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, DateTime, Email, IdOf
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "yard",
    title="Yardline",
    category="yard_management",
    modeled_on="FourKites Dynamic Yard / C3 Yard APIs: yard locations, gate check-in and check-out, yard moves "
    "and tasks, dock door assignment, detention clocks",
    description="The distribution center's yard: dock doors and parking spots, trailers checked in and out at "
    "the gate, moves by yard drivers between spots and doors, and the detention clock of each visit.",
)

LocationId = Annotated[str, IdOf("yard.location")]
VisitId = Annotated[str, IdOf("yard.visit")]
MoveId = Annotated[str, IdOf("yard.move")]
TrailerNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{4,12}$")]
"""A trailer's number."""
Code = Annotated[str, StringConstraints(pattern=r"^(D|P)\d{2}$")]
"""A location code: D01 (door) or P01 (parking)."""

LocationStatus = Literal["available", "occupied", "out_of_service"]
VisitStatus = Literal["in_yard", "at_door", "checked_out"]
MoveStatus = Literal["requested", "in_progress", "completed", "cancelled"]
OPEN_MOVES: tuple[MoveStatus, ...] = ("requested", "in_progress")


class Location(Timestamped):
    """A dock door or a parking spot."""

    id: LocationId
    code: Code
    """Its code (unique)."""
    kind: Literal["door", "parking"]
    """door or parking."""
    status: LocationStatus = "available"
    """available, occupied or out_of_service."""


class Visit(Timestamped):
    """A trailer's stay in the yard, from gate check-in to check-out."""

    id: VisitId
    trailer_number: TrailerNumber
    """The trailer."""
    carrier: CompanyName
    """The carrier."""
    load_status: Literal["loaded", "empty"]
    """loaded or empty."""
    location_id: LocationId | None = None
    """Where it is now (none once checked out)."""
    status: VisitStatus = "in_yard"
    """in_yard (parked), at_door or checked_out."""
    arrived_at: DateTime
    """Gate check-in."""
    departed_at: DateTime | None = None
    """Gate check-out."""
    free_minutes: Annotated[int, Field(ge=0, le=4320)] = 120
    """Free time before detention starts."""
    detention_minutes: int = 0
    """Minutes beyond free time, set at check-out."""


class Move(Timestamped):
    """A yard driver's task to move a trailer."""

    id: MoveId
    visit_id: VisitId
    """The trailer's visit."""
    from_location_id: LocationId
    """Where it is."""
    to_location_id: LocationId
    """Where it goes."""
    driver_email: Email | None = None
    """The yard driver (set when started)."""
    status: MoveStatus = "requested"
    """requested, in_progress, completed or cancelled."""


class Detention(Value):
    """A visit's time in the yard against its free time."""

    visit_id: VisitId
    """The visit."""
    minutes_in_yard: int
    """Minutes since check-in (until check-out)."""
    free_minutes: int
    """Free time."""
    detention_minutes: int
    """Minutes beyond it."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use a yard driver's e-mail")


def _minutes(v: Visit, now: dt.datetime) -> int:
    return int(((v.departed_at or now) - v.arrived_at).total_seconds() // 60)


def _guard_move(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "cancelled" and old.status != "cancelled":
        ctx.update(ctx.get(Location, new.to_location_id), status="available")


locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    filters=("kind", "status", "code"),
    delete=False,
    transitions={
        "disable": Transition("status", ("available",), "out_of_service", "put the yard location out of service"),
        "enable": Transition("status", ("out_of_service",), "available", "put the yard location back in service"),
    },
    title="yard location",
)
visits = service.resource(
    Visit,
    name="visit",
    plural="visits",
    prefix="vis",
    create=False,
    filters=("status", "trailer_number", "carrier", "load_status", "location_id"),
    update=("load_status",),
    delete=False,
    title="trailer visit",
)
moves = service.resource(
    Move,
    name="move",
    plural="moves",
    prefix="mov",
    create=False,
    filters=("visit_id", "status", "driver_email", "to_location_id"),
    delete=False,
    transitions={"cancel": Transition("status", ("requested",), "cancelled", "cancel the yard move")},
    guard_update=_guard_move,
    title="yard move",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="add the yard location", write=True, example=lambda ctx: {"code": "P99", "kind": "parking"})
def add_location(ctx: Ctx, code: Code, kind: Literal["door", "parking"]) -> Location:
    """Add a dock door or parking spot; codes are unique, D for doors and P for parking.

    Args:
        code: Its code, D or P and two digits.
        kind: door or parking.
    """
    if code[0] != ("D" if kind == "door" else "P"):
        raise RuleViolation("door codes start with D, parking codes with P", field="code", hint="fix the prefix")
    if ctx.first(Location, code=code) is not None:
        raise Conflict(f"location {code} exists", field="code", hint="use another code")
    return ctx.create(Location, code=code, kind=kind)


def _example_checkin(ctx: Ctx) -> dict[str, Any] | None:
    return {"trailer_number": "TRL9001", "carrier": ctx.population.companies[0].name, "load_status": "loaded"}


@service.tool(intent="check the trailer in at the gate", write=True, example=_example_checkin)
def check_in_trailer(
    ctx: Ctx, trailer_number: TrailerNumber, carrier: CompanyName, load_status: Literal["loaded", "empty"]
) -> Visit:
    """Admit a trailer at the gate into the first free parking spot; a trailer is in the yard once at a time.

    Args:
        trailer_number: The trailer.
        carrier: The carrier.
        load_status: loaded or empty.
    """
    for v in ctx.where(Visit, trailer_number=trailer_number):
        if v.status != "checked_out":
            raise Conflict(f"trailer {trailer_number} is in the yard ({v.id})", field="trailer_number", hint="skip")
    spots = sorted(ctx.where(Location, kind="parking", status="available"), key=lambda loc: loc.code)
    if not spots:
        raise Conflict("the yard is full", field="trailer_number", hint="hold the trailer at the gate")
    ctx.update(spots[0], status="occupied")
    return ctx.create(
        Visit,
        trailer_number=trailer_number,
        carrier=carrier,
        load_status=load_status,
        location_id=spots[0].id,
        arrived_at=ctx.now(),
    )


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    door = ctx.first(Location, kind="door", status="available")
    for v in ctx.where(Visit, status="in_yard"):
        if door is not None and not [m for m in ctx.where(Move, visit_id=v.id) if m.status in OPEN_MOVES]:
            return {"visit_id": v.id, "to_location_id": door.id}
    return None


@service.tool(intent="request the yard move", write=True, example=_example_request)
def request_move(ctx: Ctx, visit_id: VisitId, to_location_id: LocationId) -> Move:
    """Ask for a trailer to be moved to a free location, which is reserved for it.

    Args:
        visit_id: The trailer's visit (in the yard).
        to_location_id: An available door or spot.
    """
    v = ctx.get(Visit, visit_id, field="visit_id")
    if v.status == "checked_out" or v.location_id is None:
        raise Conflict("the trailer has left", field="visit_id", hint="only trailers in the yard move")
    if [m for m in ctx.where(Move, visit_id=v.id) if m.status in OPEN_MOVES]:
        raise Conflict("the trailer already has an open move", field="visit_id", hint="finish or cancel it")
    to = ctx.get(Location, to_location_id, field="to_location_id")
    if to.status != "available":
        raise Conflict(f"location {to.code} is {to.status}", field="to_location_id", hint="pick a free one")
    ctx.update(to, status="occupied")
    return ctx.create(Move, visit_id=v.id, from_location_id=v.location_id, to_location_id=to.id)


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Move, status="requested")
    return None if m is None else {"move_id": m.id, "driver_email": ctx.population.employees[0].email}


@service.tool(intent="start the yard move", write=True, example=_example_start)
def start_move(ctx: Ctx, move_id: MoveId, driver_email: Email) -> Move:
    """A yard driver takes a requested move; a driver runs one move at a time.

    Args:
        move_id: The requested move.
        driver_email: The yard driver (an employee).
    """
    m = ctx.get(Move, move_id, field="move_id")
    if m.status != "requested":
        raise Conflict(f"the move is {m.status}", field="move_id", hint="only requested moves start")
    _staff(ctx, driver_email, "driver_email")
    if ctx.first(Move, driver_email=driver_email, status="in_progress") is not None:
        raise Conflict("the driver is on another move", field="driver_email", hint="finish it first")
    return ctx.update(m, status="in_progress", driver_email=driver_email)


@service.tool(
    intent="complete the yard move",
    write=True,
    example=first_example(Move, "move_id", where={"status": "in_progress"}),
)
def complete_move(ctx: Ctx, move_id: MoveId) -> Move:
    """Finish a move: the trailer is at the new location and the old one is free.

    Args:
        move_id: The move in progress.
    """
    m = ctx.get(Move, move_id, field="move_id")
    if m.status != "in_progress":
        raise Conflict(f"the move is {m.status}", field="move_id", hint="start it first")
    v = ctx.get(Visit, m.visit_id)
    ctx.update(ctx.get(Location, m.from_location_id), status="available")
    to = ctx.get(Location, m.to_location_id)
    ctx.update(v, location_id=to.id, status="at_door" if to.kind == "door" else "in_yard")
    return ctx.update(m, status="completed")


@service.tool(
    intent="check the trailer out at the gate",
    write=True,
    example=first_example(Visit, "visit_id", where={"status": "in_yard"}),
)
def check_out_trailer(ctx: Ctx, visit_id: VisitId) -> Visit:
    """Let a trailer leave: its location is freed and its detention is fixed.

    Args:
        visit_id: The visit (no open move).
    """
    v = ctx.get(Visit, visit_id, field="visit_id")
    if v.status == "checked_out" or v.location_id is None:
        raise Conflict("the trailer has left", field="visit_id", hint="nothing to do")
    if [m for m in ctx.where(Move, visit_id=v.id) if m.status in OPEN_MOVES]:
        raise Conflict("the trailer has an open move", field="visit_id", hint="finish or cancel it first")
    ctx.update(ctx.get(Location, v.location_id), status="available")
    now = ctx.now()
    spent = int((now - v.arrived_at).total_seconds() // 60)
    return ctx.update(
        v,
        status="checked_out",
        location_id=None,
        departed_at=now,
        detention_minutes=max(spent - v.free_minutes, 0),
    )


def _example_extend(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Visit, status="at_door")
    return None if v is None else {"visit_id": v.id, "extra_minutes": 60}


@service.tool(intent="extend the free time", write=True, example=_example_extend)
def extend_free_time(ctx: Ctx, visit_id: VisitId, extra_minutes: Annotated[int, Field(ge=15, le=1440)]) -> Visit:
    """Give a trailer still in the yard more free time (a yard manager's waiver).

    Args:
        visit_id: The visit.
        extra_minutes: Minutes to add, 15 to 1440.
    """
    v = ctx.get(Visit, visit_id, field="visit_id")
    if v.status == "checked_out":
        raise Conflict("the trailer has left", field="visit_id", hint="detention is final")
    if v.free_minutes + extra_minutes > 4320:
        raise RuleViolation("free time is at most three days", field="extra_minutes", hint="add less")
    return ctx.update(v, free_minutes=v.free_minutes + extra_minutes)


@service.tool(intent="show the trailer's detention", example=first_example(Visit, "visit_id"))
def detention_report(ctx: Ctx, visit_id: VisitId) -> Detention:
    """A visit's minutes in the yard, free time and detention (running until check-out).

    Args:
        visit_id: The visit.
    """
    v = ctx.get(Visit, visit_id, field="visit_id")
    spent = _minutes(v, ctx.now())
    return Detention(
        visit_id=v.id,
        minutes_in_yard=spent,
        free_minutes=v.free_minutes,
        detention_minutes=max(spent - v.free_minutes, 0),
    )


class YardStatus(Value):
    """The yard at a glance."""

    free_doors: int
    """Available dock doors."""
    free_spots: int
    """Available parking spots."""
    trailers_in_yard: int
    """Trailers checked in and not out."""
    open_moves: int
    """Moves requested or in progress."""
    in_detention: int
    """Trailers in the yard past their free time."""


@service.tool(intent="show the yard status", example=lambda ctx: {})
def yard_status(ctx: Ctx) -> YardStatus:
    """Free doors and spots, trailers in the yard, open moves and trailers in detention."""
    now = ctx.now()
    inside = [v for v in ctx.scan(Visit) if v.status != "checked_out"]
    return YardStatus(
        free_doors=len(ctx.where(Location, kind="door", status="available")),
        free_spots=len(ctx.where(Location, kind="parking", status="available")),
        trailers_in_yard=len(inside),
        open_moves=sum(m.status in OPEN_MOVES for m in ctx.scan(Move)),
        in_detention=sum(_minutes(v, now) > v.free_minutes for v in inside),
    )


def _example_reassign(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Move, status="in_progress")
    return None if m is None else {"move_id": m.id, "driver_email": ctx.population.employees[-1].email}


@service.tool(intent="reassign the yard move to another driver", write=True, example=_example_reassign)
def reassign_move(ctx: Ctx, move_id: MoveId, driver_email: Email) -> Move:
    """Hand a move in progress to another yard driver who is not on a move.

    Args:
        move_id: The move in progress.
        driver_email: The new driver (an employee).
    """
    m = ctx.get(Move, move_id, field="move_id")
    if m.status != "in_progress":
        raise Conflict(f"the move is {m.status}", field="move_id", hint="start it instead")
    _staff(ctx, driver_email, "driver_email")
    if driver_email == m.driver_email or ctx.first(Move, driver_email=driver_email, status="in_progress"):
        raise Conflict("the driver is on a move", field="driver_email", hint="pick a free driver")
    return ctx.update(m, driver_email=driver_email)


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Eight doors and twelve spots, trailers of the population's carriers parked, at doors and gone, moves."""
    carriers = [c.name for c in (s.population.companies or (s.population.home,))]
    doors = [s.create(Location, code=f"D{k + 1:02d}", kind="door") for k in range(8)]
    spots = [s.create(Location, code=f"P{k + 1:02d}", kind="parking") for k in range(12)]
    s.update(doors[7], status="out_of_service")
    drivers = s.population.staff("Operations", "Logistics", fallback=3)
    for k in range(8):
        at_door = k < 3
        gone = k == 7
        loc = doors[k] if at_door else spots[k]
        v = s.create(
            Visit,
            trailer_number=f"TR{48100 + 37 * k}",
            carrier=carriers[k % len(carriers)],
            load_status="loaded" if k % 2 == 0 else "empty",
            location_id=None if gone else loc.id,
            status="checked_out" if gone else ("at_door" if at_door else "in_yard"),
            arrived_at=s.ago(hours=1 + k),
            departed_at=s.ago(minutes=20) if gone else None,
            detention_minutes=max((7 * 60 - 20) - 120, 0) if gone else 0,
        )
        if not gone:
            s.update(loc, status="occupied")
        if k in (3, 4):
            to = doors[k]
            s.update(to, status="occupied")
            s.create(
                Move,
                visit_id=v.id,
                from_location_id=loc.id,
                to_location_id=to.id,
                status="requested" if k == 3 else "in_progress",
                driver_email=None if k == 3 else drivers[0].email,
            )
