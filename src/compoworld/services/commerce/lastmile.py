"""Lastmile Dispatch: the company's own delivery drivers, their teams, and pickup and dropoff tasks.

Modeled on the Onfleet API v2 (Teams with hubs, Workers with ``onDuty``,
vehicle and capacity, Recipients unique by phone, Tasks with ``pickupTask``,
``dependencies``, ``completeAfter``/``completeBefore``, ``quantity``,
``serviceTime``, ``requirements`` (signature, photo, notes, minimum age),
``state`` 0 unassigned → 1 assigned → 2 active → 3 completed with
``completionDetails`` success or failure reason; ``/tasks/:id/complete``,
assignment to a worker or to a team's container, ``/workers/:id/tasks``
ordering and route optimisation).

A worker drives one task at a time and only on duty, and cannot go off duty
with a task under way. A task starts only when every task it depends on (its
pickup) was completed successfully, and linked pickups and dropoffs travel
with the same driver. Assigning a task to a team leaves it unassigned in the
team's container; assigning it to a worker needs room in the vehicle (the
quantities of the worker's open tasks within its capacity). A successful
completion carries the proof the task demands (the signer's name, a photo,
notes, an ID check for age-restricted goods); a failure carries its reason.
Active and completed tasks cannot be edited, reassigned or deleted. Route
optimisation orders a worker's assigned tasks from the worker's position,
nearest stop first, never a dropoff before its pickup, and reports the ETA of
each stop against its deadline.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    DateTime,
    FileLink,
    IdOf,
    Latitude,
    Longitude,
    OrderNumber,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value
from compoworld.world.commerce import first_order_numbers
from compoworld.world.geo import haversine_km

__all__ = ["service"]

service = Service(
    "lastmile",
    title="Lastmile Dispatch",
    category="delivery_dispatch",
    modeled_on="Onfleet API v2 (Teams, Workers, Recipients, Tasks with dependencies, requirements and "
    "completion details, assignment, route optimisation)",
    description="Dispatch for the company's own delivery fleet: teams of drivers around hubs, recipients, pickup "
    "and dropoff tasks with time windows and proof-of-delivery requirements, assignment to drivers, task "
    "start and completion, and route ordering.",
)

TeamId = Annotated[str, IdOf("lastmile.team")]
WorkerId = Annotated[str, IdOf("lastmile.worker")]
RecipientId = Annotated[str, IdOf("lastmile.recipient")]
TaskId = Annotated[str, IdOf("lastmile.task")]

Vehicle = Literal["CAR", "MOTORCYCLE", "BICYCLE", "TRUCK"]
TaskState = Literal["unassigned", "assigned", "active", "completed"]
FailureReason = Literal["NONE", "CLOSED", "NO_ANSWER", "WRONG_ADDRESS", "CANNOT_ACCESS", "REFUSED", "OTHER"]
Count = Annotated[int, Field(ge=0, le=10_000)]

SPEED_KMH: dict[str, float] = {"CAR": 30.0, "MOTORCYCLE": 35.0, "BICYCLE": 15.0, "TRUCK": 25.0}
"""Average city speed by vehicle, for route ETAs."""
ROAD_FACTOR = 1.3
"""Road distance over straight-line distance in a city."""


class Requirements(Value):
    """What a driver must collect to complete a task successfully."""

    signature: bool = False
    """The recipient signs (the signer's name is recorded)."""
    photo: bool = False
    """A photo of the delivered goods."""
    notes: bool = False
    """Completion notes."""
    minimum_age: Annotated[int, Field(ge=0, le=25)] = 0
    """The recipient's ID must show at least this age (0: no check)."""


class Completion(Value):
    """How a completed task ended."""

    success: bool
    """Whether it succeeded."""
    failure_reason: FailureReason = "NONE"
    """Why it failed."""
    signer_name: PersonName | None = None
    """Who signed for it."""
    photo_url: FileLink | None = None
    """The proof photo."""
    notes: Text = ""
    """The driver's notes."""
    age_verified: bool = False
    """Whether the driver checked the recipient's ID."""
    time: DateTime
    """When it was completed."""


class Team(Created):
    """A team of drivers working out of a hub."""

    id: TeamId
    name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """Team name."""
    hub_address: PostalAddress
    """The hub drivers start from."""
    hub_latitude: Latitude
    """Hub latitude."""
    hub_longitude: Longitude
    """Hub longitude."""


class Worker(Created):
    """A driver of the organisation."""

    id: WorkerId
    name: PersonName
    """Full name."""
    phone: Phone
    """Mobile number (unique: it logs in the driver app)."""
    team_ids: tuple[TeamId, ...]
    """Teams the driver belongs to (at least one)."""
    vehicle: Vehicle = "CAR"
    """CAR, MOTORCYCLE, BICYCLE or TRUCK."""
    capacity: Count = 20
    """How many units the vehicle carries."""
    on_duty: bool = False
    """Whether the driver is on duty."""
    latitude: Latitude | None = None
    """Last known latitude."""
    longitude: Longitude | None = None
    """Last known longitude."""
    active_task_id: TaskId | None = None
    """The task under way."""


class Recipient(Created):
    """Someone tasks are delivered to."""

    id: RecipientId
    name: PersonName
    """Full name."""
    phone: Phone
    """Phone number (unique)."""
    notes: Text = ""
    """Standing notes for drivers (gate codes …)."""
    skip_sms_notifications: bool = False
    """Whether the recipient gets no SMS updates."""


class Task(Record):
    """A pickup or a dropoff at one address, within a time window."""

    id: TaskId
    short_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{8}$")]
    """The 8-character id drivers and recipients see."""
    tracking_url: Url
    """The recipient's live tracking page."""
    pickup_task: bool = False
    """True for a pickup, false for a dropoff."""
    state: TaskState = "unassigned"
    """unassigned, assigned, active or completed."""
    worker_id: WorkerId | None = None
    """The driver it is assigned to."""
    team_id: TeamId | None = None
    """The team whose container holds it while unassigned."""
    recipient_id: RecipientId | None = None
    """Who receives it (dropoffs)."""
    order_number: OrderNumber | None = None
    """The shop order it carries."""
    destination: PostalAddress
    """Where the stop is."""
    latitude: Latitude
    """Stop latitude."""
    longitude: Longitude
    """Stop longitude."""
    complete_after: DateTime | None = None
    """Earliest time for the stop."""
    complete_before: DateTime | None = None
    """Latest time for the stop."""
    quantity: Count = 1
    """Units carried."""
    service_time: Annotated[int, Field(ge=0, le=240)] = 5
    """Minutes spent at the stop."""
    dependencies: tuple[TaskId, ...] = ()
    """Tasks that must be completed successfully first (a dropoff's pickup)."""
    requirements: Requirements = Requirements()
    """Proof a successful completion needs."""
    notes: Text = ""
    """Instructions for the driver."""
    route_position: int | None = None
    """Position in the driver's optimised route."""
    started_at: DateTime | None = None
    """When the driver started it."""
    completion: Completion | None = None
    """How it ended."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class RouteStop(BaseModel):
    """One stop of an optimised route."""

    position: int = Field(description="1 for the first stop.")
    task_id: TaskId = Field(description="The task.")
    pickup_task: bool = Field(description="Whether it is a pickup.")
    distance_km: float = Field(description="Road distance from the previous stop, km.")
    eta: DateTime = Field(description="Estimated arrival.")
    late: bool = Field(description="Whether the ETA is after the task's complete_before.")


class Route(BaseModel):
    """A driver's assigned tasks in driving order."""

    worker_id: WorkerId = Field(description="The driver.")
    stops: list[RouteStop] = Field(description="Stops in order.")
    total_km: float = Field(description="Road distance of the whole route, km.")
    late_stops: int = Field(description="How many stops would miss their deadline.")


# -- rules -------------------------------------------------------------------------------------


def _open(task: Task, field: str, action: str) -> None:
    if task.state in ("active", "completed"):
        raise RuleViolation(
            f"task {task.short_id} is {task.state} and cannot be {action}",
            field=field,
            hint="only unassigned or assigned tasks can be changed; create a new task instead",
        )


def _check_window(after: dt.datetime | None, before: dt.datetime | None, now: dt.datetime) -> None:
    if before is not None and before <= now:
        raise RuleViolation(
            "complete_before is in the past", field="complete_before", hint="give a deadline later than now"
        )
    if after is not None and before is not None and after >= before:
        raise RuleViolation(
            "complete_after must be before complete_before",
            field="complete_after",
            hint="give a window that starts before it ends",
        )


def _load(ctx: Ctx, worker_id: str, without: str = "") -> int:
    return sum(
        t.quantity
        for state in ("assigned", "active")
        for t in ctx.where(Task, worker_id=worker_id, state=state)
        if t.id != without and not t.pickup_task
    )


def _check_room(ctx: Ctx, worker: Worker, task: Task, quantity: int, field: str) -> None:
    if task.pickup_task:
        return
    load = _load(ctx, worker.id, without=task.id)
    if load + quantity > worker.capacity:
        raise RuleViolation(
            f"{worker.name}'s {worker.vehicle.lower()} carries {worker.capacity} units and already has {load}; "
            f"this task needs {quantity}",
            field=field,
            hint="assign it to a driver with room, or complete some of the driver's tasks first",
        )


def _linked(ctx: Ctx, task: Task) -> list[Task]:
    """Tasks linked to ``task`` by a dependency, either way."""
    out = [ctx.get(Task, d) for d in task.dependencies if ctx.find(Task, d) is not None]
    out += [t for t in ctx.scan(Task) if task.id in t.dependencies]
    return out


def _guard_task_update(ctx: Ctx, new: Any, old: Any) -> None:
    _open(old, "task_id", "edited")
    _check_window(new.complete_after, new.complete_before, ctx.now())
    if new.worker_id is not None:
        _check_room(ctx, ctx.get(Worker, new.worker_id), new, new.quantity, "quantity")


def _guard_task_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _open(old, "task_id", "deleted")
    for t in ctx.scan(Task):
        if old.id in t.dependencies and t.state != "completed":
            raise RuleViolation(
                f"task {t.short_id} depends on task {old.short_id}",
                field="task_id",
                hint="delete the dependent dropoff first",
            )


def _guard_worker_create(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.team_ids:
        raise RuleViolation("a worker needs at least one team", field="team_ids", hint="give one or more team ids")
    for k, team_id in enumerate(new.team_ids):
        if ctx.find(Team, team_id) is None:
            raise NotFound(f"no team with id {team_id!r}", field=f"team_ids.{k}", hint="list teams to find one")
    if len(set(new.team_ids)) != len(new.team_ids):
        raise RuleViolation("a team is listed twice", field="team_ids", hint="name each team once")


teams = service.resource(
    Team, name="team", plural="teams", prefix="team", create=False, get=False, search=("name",), delete=False
)
workers = service.resource(
    Worker,
    name="worker",
    plural="workers",
    prefix="wkr",
    create=("name", "phone", "team_ids", "vehicle", "capacity"),
    get=False,
    filters=("on_duty", "vehicle", "phone"),
    search=("name",),
    delete=False,
    unique=("phone",),
    guard_create=_guard_worker_create,
    title="driver",
)
recipients = service.resource(
    Recipient,
    name="recipient",
    plural="recipients",
    prefix="rcp",
    create=("name", "phone", "notes", "skip_sms_notifications"),
    get=False,
    filters=("phone",),
    search=("name",),
    delete=False,
    unique=("phone",),
)
tasks = service.resource(
    Task,
    name="task",
    plural="tasks",
    prefix="task",
    create=False,
    filters=("state", "worker_id", "team_id", "recipient_id", "pickup_task", "order_number", "short_id"),
    search=("notes",),
    update=("complete_after", "complete_before", "quantity", "notes", "service_time"),
    guard_update=_guard_task_update,
    guard_delete=_guard_task_delete,
)


# -- examples ----------------------------------------------------------------------------------


def _ex_create_task(ctx: Ctx) -> dict[str, Any] | None:
    rec = ctx.first(Recipient)
    team = ctx.first(Team)
    if rec is None or team is None:
        return None
    return {
        "destination": team.hub_address.model_dump(),
        "latitude": team.hub_latitude + 0.01,
        "longitude": team.hub_longitude - 0.01,
        "recipient_id": rec.id,
        "quantity": 2,
        "requirements": {"signature": True},
    }


def _ex_assign(ctx: Ctx) -> dict[str, Any] | None:
    for task in ctx.where(Task, state="unassigned"):
        if task.dependencies or any(task.id in t.dependencies for t in ctx.scan(Task)):
            continue
        for worker in ctx.scan(Worker):
            if task.pickup_task or _load(ctx, worker.id) + task.quantity <= worker.capacity:
                return {"task_id": task.id, "worker_id": worker.id}
    return None


def _startable(ctx: Ctx, task: Task) -> bool:
    worker = ctx.get(Worker, task.worker_id) if task.worker_id else None
    deps_done = all(
        (d := ctx.find(Task, dep)) is not None and d.completion is not None and d.completion.success
        for dep in task.dependencies
    )
    return worker is not None and worker.on_duty and worker.active_task_id is None and deps_done


def _ex_complete(ctx: Ctx) -> dict[str, Any] | None:
    task = ctx.first(Task, state="active")
    if task is None:
        return None
    req = task.requirements
    args: dict[str, Any] = {"task_id": task.id, "success": True, "notes": "Left with the recipient."}
    if req.signature:
        args["signer_name"] = "Alex Morgan"
    if req.photo:
        args["photo_url"] = "https://files.example.com/pod/photo-1.jpg"
    if req.minimum_age:
        args["age_verified"] = True
    return args


def _ex_optimize(ctx: Ctx) -> dict[str, Any] | None:
    for worker in ctx.scan(Worker):
        if ctx.first(Task, worker_id=worker.id, state="assigned") is not None:
            return {"worker_id": worker.id}
    return None


# -- tools -------------------------------------------------------------------------------------


@service.tool(intent="create a delivery task", write=True, example=_ex_create_task)
def create_task(
    ctx: Ctx,
    destination: PostalAddress,
    latitude: Latitude,
    longitude: Longitude,
    recipient_id: RecipientId | None = None,
    pickup_task: bool = False,
    dependencies: list[TaskId] | None = None,
    complete_after: DateTime | None = None,
    complete_before: DateTime | None = None,
    quantity: Count = 1,
    service_time: Annotated[int, Field(ge=0, le=240)] = 5,
    requirements: Requirements | None = None,
    order_number: OrderNumber | None = None,
    notes: Text = "",
) -> Task:
    """Create a pickup or dropoff task; it starts unassigned.

    Args:
        destination: The stop's address.
        latitude: The stop's latitude.
        longitude: The stop's longitude.
        recipient_id: Who receives it (a dropoff needs one).
        pickup_task: True for a pickup.
        dependencies: Tasks to be completed first (a dropoff's pickup); they must not be completed or failed.
        complete_after: Earliest time for the stop.
        complete_before: Latest time for the stop (in the future).
        quantity: Units carried.
        service_time: Minutes at the stop.
        requirements: Proof needed to complete it (signature, photo, notes, minimum age).
        order_number: The shop order it carries.
        notes: Instructions for the driver.
    """
    now = ctx.now()
    _check_window(complete_after, complete_before, now)
    if not pickup_task and recipient_id is None:
        raise RuleViolation(
            "a dropoff needs a recipient", field="recipient_id", hint="create the recipient first, then the task"
        )
    if recipient_id is not None:
        ctx.get(Recipient, recipient_id, field="recipient_id")
    deps = list(dict.fromkeys(dependencies or ()))
    for k, dep_id in enumerate(deps):
        dep = ctx.get(Task, dep_id, field=f"dependencies.{k}")
        if dep.state == "completed":
            raise RuleViolation(
                f"task {dep.short_id} is already completed",
                field=f"dependencies.{k}",
                hint="depend only on tasks that are still to be done",
            )
    short = f"{ctx.rng.getrandbits(32):08x}"
    return ctx.create(
        Task,
        short_id=short,
        tracking_url=f"https://track.lastmile.example/{short}",
        pickup_task=pickup_task,
        recipient_id=recipient_id,
        order_number=order_number,
        destination=destination,
        latitude=latitude,
        longitude=longitude,
        complete_after=complete_after,
        complete_before=complete_before,
        quantity=quantity,
        service_time=service_time,
        dependencies=tuple(deps),
        requirements=requirements or Requirements(),
        notes=notes,
    )


@service.tool(intent="assign the task to a driver or a team", write=True, example=_ex_assign)
def assign_task(ctx: Ctx, task_id: TaskId, worker_id: WorkerId | None = None, team_id: TeamId | None = None) -> Task:
    """Assign a task to a driver, or put it in a team's container (where it stays unassigned).

    Linked pickups and dropoffs go to the same driver; the driver needs room in the vehicle.

    Args:
        task_id: The task.
        worker_id: The driver (give this or team_id).
        team_id: The team whose container takes it.
    """
    task = ctx.get(Task, task_id, field="task_id")
    _open(task, "task_id", "reassigned")
    if (worker_id is None) == (team_id is None):
        raise RuleViolation(
            "give either a worker or a team", field="worker_id", hint="pass worker_id to assign, or team_id to queue"
        )
    if team_id is not None:
        ctx.get(Team, team_id, field="team_id")
        return ctx.update(task, team_id=team_id, worker_id=None, state="unassigned", route_position=None)
    assert worker_id is not None
    worker = ctx.get(Worker, worker_id, field="worker_id")
    for other in _linked(ctx, task):
        if other.state != "completed" and other.worker_id not in (None, worker.id):
            holder = ctx.get(Worker, other.worker_id) if other.worker_id else None
            raise RuleViolation(
                f"linked task {other.short_id} is with {holder.name if holder else 'another driver'}; a pickup and "
                "its dropoff travel with the same driver",
                field="worker_id",
                hint=f"assign it to {holder.name if holder else 'that driver'}, or reassign the linked task first",
            )
    _check_room(ctx, worker, task, task.quantity, "worker_id")
    return ctx.update(task, worker_id=worker.id, team_id=None, state="assigned", route_position=None)


@service.tool(
    intent="unassign the task",
    write=True,
    example=first_example(Task, "task_id", where={"state": "assigned"}),
)
def unassign_task(ctx: Ctx, task_id: TaskId) -> Task:
    """Take a task back from its driver; it returns to unassigned.

    Args:
        task_id: The task (assigned, not active).
    """
    task = ctx.get(Task, task_id, field="task_id")
    _open(task, "task_id", "unassigned")
    if task.state != "assigned":
        raise RuleViolation(
            f"task {task.short_id} is not assigned", field="task_id", hint="only assigned tasks can be unassigned"
        )
    return ctx.update(task, worker_id=None, state="unassigned", route_position=None)


@service.tool(
    intent="put the driver on or off duty",
    write=True,
    example=first_example(Worker, "worker_id", where={"on_duty": False}, on_duty=True),
)
def set_duty(ctx: Ctx, worker_id: WorkerId, on_duty: bool) -> Worker:
    """Put a driver on duty or take them off duty.

    Args:
        worker_id: The driver.
        on_duty: True to go on duty, false to go off.
    """
    worker = ctx.get(Worker, worker_id, field="worker_id")
    if not on_duty and worker.active_task_id is not None:
        active = ctx.get(Task, worker.active_task_id)
        raise RuleViolation(
            f"{worker.name} is driving task {active.short_id} and cannot go off duty",
            field="on_duty",
            hint="complete the active task first",
        )
    return ctx.update(worker, on_duty=on_duty)


def _ex_start(ctx: Ctx) -> dict[str, Any] | None:
    for task in ctx.where(Task, state="assigned"):
        if _startable(ctx, task):
            return {"task_id": task.id}
    return None


@service.tool(intent="start the task", write=True, example=_ex_start)
def start_task(ctx: Ctx, task_id: TaskId) -> Task:
    """The driver starts an assigned task (heads to the stop); it becomes active.

    Args:
        task_id: The task.
    """
    task = ctx.get(Task, task_id, field="task_id")
    if task.state != "assigned" or task.worker_id is None:
        raise RuleViolation(
            f"task {task.short_id} is {task.state}", field="task_id", hint="assign it to a driver first"
        )
    worker = ctx.get(Worker, task.worker_id)
    if not worker.on_duty:
        raise RuleViolation(
            f"{worker.name} is off duty", field="task_id", hint="put the driver on duty with lastmile__set_duty"
        )
    if worker.active_task_id is not None:
        active = ctx.get(Task, worker.active_task_id)
        raise RuleViolation(
            f"{worker.name} is already driving task {active.short_id}",
            field="task_id",
            hint="complete the active task first",
        )
    for dep_id in task.dependencies:
        dep = ctx.find(Task, dep_id)
        if dep is None or dep.completion is None or not dep.completion.success:
            state = "missing" if dep is None else ("failed" if dep.completion else dep.state)
            raise RuleViolation(
                f"task {task.short_id} depends on task {dep.short_id if dep else dep_id}, which is {state}",
                field="task_id",
                hint="complete the pickup successfully first",
            )
    ctx.update(worker, active_task_id=task.id)
    return ctx.update(task, state="active", started_at=ctx.now())


@service.tool(intent="complete the task", write=True, example=_ex_complete)
def complete_task(
    ctx: Ctx,
    task_id: TaskId,
    success: bool,
    failure_reason: FailureReason = "NONE",
    signer_name: PersonName | None = None,
    photo_url: FileLink | None = None,
    notes: Text = "",
    age_verified: bool = False,
) -> Task:
    """Complete an active task as delivered (with the proof it requires) or failed (with a reason).

    Args:
        task_id: The task.
        success: True when delivered or picked up, false when it failed.
        failure_reason: Why it failed (not NONE for a failure).
        signer_name: Who signed (tasks requiring a signature).
        photo_url: The proof photo (tasks requiring a photo).
        notes: Completion notes (tasks requiring notes).
        age_verified: The driver checked the recipient's ID (age-restricted tasks).
    """
    task = ctx.get(Task, task_id, field="task_id")
    if task.state != "active":
        raise RuleViolation(
            f"task {task.short_id} is {task.state}; only an active task can be completed",
            field="task_id",
            hint="start the task first",
        )
    req = task.requirements
    if success:
        if failure_reason != "NONE":
            raise RuleViolation("a successful task has no failure reason", field="failure_reason", hint="leave it NONE")
        missing = [
            (name, hint)
            for name, needed, given, hint in (
                ("signer_name", req.signature, signer_name is not None, "collect the recipient's signature"),
                ("photo_url", req.photo, photo_url is not None, "take a photo of the delivered goods"),
                ("notes", req.notes, bool(notes.strip()), "write completion notes"),
                ("age_verified", req.minimum_age > 0, age_verified, f"check ID: age {req.minimum_age}+"),
            )
            if needed and not given
        ]
        if missing:
            raise RuleViolation(
                f"task {task.short_id} requires proof of delivery: {', '.join(n for n, _ in missing)}",
                field=missing[0][0],
                hint=missing[0][1] + ", or complete it as failed",
            )
    elif failure_reason == "NONE":
        raise RuleViolation(
            "a failed task needs a reason", field="failure_reason", hint="say why: NO_ANSWER, CLOSED, REFUSED …"
        )
    now = ctx.now()
    if task.worker_id is not None:
        worker = ctx.get(Worker, task.worker_id)
        ctx.update(worker, active_task_id=None, latitude=task.latitude, longitude=task.longitude)
    completion = Completion(
        success=success,
        failure_reason=failure_reason,
        signer_name=signer_name,
        photo_url=photo_url,
        notes=notes,
        age_verified=age_verified,
        time=now,
    )
    return ctx.update(task, state="completed", completion=completion, route_position=None)


def _km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    return haversine_km(lat1, lon1, lat2, lon2) * ROAD_FACTOR


@service.tool(intent="optimise the driver's route", write=True, idempotent=True, example=_ex_optimize)
def optimize_route(ctx: Ctx, worker_id: WorkerId) -> Route:
    """Order a driver's assigned tasks into a route: nearest stop first, pickups before their dropoffs.

    Starts from the driver's last position (or the first team's hub) after any active task, and sets
    each task's ``route_position``.

    Args:
        worker_id: The driver.
    """
    worker = ctx.get(Worker, worker_id, field="worker_id")
    todo = ctx.where(Task, worker_id=worker.id, state="assigned")
    if not todo:
        raise RuleViolation(
            f"{worker.name} has no assigned tasks to route", field="worker_id", hint="assign tasks to the driver first"
        )
    team = ctx.get(Team, worker.team_ids[0])
    lat = worker.latitude if worker.latitude is not None else team.hub_latitude
    lon = worker.longitude if worker.longitude is not None else team.hub_longitude
    clock = ctx.now()
    speed = SPEED_KMH[worker.vehicle]
    if worker.active_task_id is not None:
        active = ctx.get(Task, worker.active_task_id)
        km = _km(lat, lon, active.latitude, active.longitude)
        clock += dt.timedelta(hours=km / speed, minutes=active.service_time)
        lat, lon = active.latitude, active.longitude
    pending = {t.id: t for t in todo}
    stops: list[RouteStop] = []
    total = 0.0
    while pending:
        ready = [t for t in pending.values() if not any(d in pending for d in t.dependencies)] or list(pending.values())
        nxt = min(ready, key=lambda t: (round(_km(lat, lon, t.latitude, t.longitude), 6), t.id))
        km = _km(lat, lon, nxt.latitude, nxt.longitude)
        arrive = clock + dt.timedelta(hours=km / speed)
        if nxt.complete_after is not None and arrive < nxt.complete_after:
            arrive = nxt.complete_after
        total += km
        stops.append(
            RouteStop(
                position=len(stops) + 1,
                task_id=nxt.id,
                pickup_task=nxt.pickup_task,
                distance_km=round(km, 2),
                eta=arrive.replace(microsecond=0),
                late=nxt.complete_before is not None and arrive > nxt.complete_before,
            )
        )
        ctx.update(nxt, route_position=len(stops))
        clock = arrive + dt.timedelta(minutes=nxt.service_time)
        lat, lon = nxt.latitude, nxt.longitude
        del pending[nxt.id]
    return Route(worker_id=worker.id, stops=stops, total_km=round(total, 2), late_stops=sum(1 for s in stops if s.late))


# -- seeding -----------------------------------------------------------------------------------

_NOTES = ("Ring the bell twice.", "Leave with the concierge.", "Gate code 4412.", "Call on arrival.", "")


def _jitter(s: SeedContext, value: float) -> float:
    return round(value + s.rng.uniform(-0.03, 0.03), 5)


@service.seeder
def seed(s: SeedContext) -> None:
    """Teams around hubs in the cities customers live in, drivers on and off duty, recipients and their tasks.

    Each recipient has a pickup at the hub and a dropoff at their door that depends on it, in every state:
    completed with proof, failed, under way, assigned, queued in a team's container, unassigned.
    """
    pop = s.population
    counts: dict[str, int] = {}
    for p in pop.consumers:
        counts[p.place.city] = counts.get(p.place.city, 0) + 1
    cities = sorted(counts, key=lambda c: (-counts[c], c))[:3]
    if not cities:
        return
    places = {p.place.city: p.place for p in pop.consumers}
    team_of: dict[str, Team] = {}
    for k, city in enumerate(cities):
        place = places[city]
        team_of[city] = s.create(
            Team,
            name=f"{city} Hub",
            hub_address=PostalAddress(
                street=f"{10 + 7 * k} Depot Lane",
                city=city,
                postal_code=f"{place.postal_prefix}{100 + k:03d}"[:8],
                country=place.country,
            ),
            hub_latitude=place.latitude,
            hub_longitude=place.longitude,
            created_at=s.ago(days=300 - 10 * k),
        )
    drivers = [p for p in pop.employees if p.department in ("Operations", "Support")][: 2 * len(cities)]
    vehicles: tuple[Vehicle, ...] = ("CAR", "BICYCLE", "TRUCK", "MOTORCYCLE", "CAR", "CAR")
    workers_of: dict[str, list[Worker]] = {c: [] for c in cities}
    for k, p in enumerate(drivers):
        city = cities[k % len(cities)]
        team = team_of[city]
        vehicle = vehicles[k % len(vehicles)]
        workers_of[city].append(
            s.create(
                Worker,
                name=p.name,
                phone=p.phone,
                team_ids=(team.id,),
                vehicle=vehicle,
                capacity={"BICYCLE": 6, "MOTORCYCLE": 8, "TRUCK": 60}.get(vehicle, 20),
                on_duty=k % 4 != 3,
                latitude=_jitter(s, team.hub_latitude),
                longitude=_jitter(s, team.hub_longitude),
                created_at=s.ago(days=200 - 5 * k),
            )
        )
    orders = first_order_numbers(pop)
    consumers = [p for p in pop.consumers if p.place.city in team_of]
    scenarios = ("delivered", "failed", "active", "assigned", "assigned", "queued", "unassigned", "picked")
    for k, p in enumerate(consumers[:24]):
        team = team_of[p.place.city]
        crew = workers_of[p.place.city]
        worker = crew[k % len(crew)] if crew else None
        scenario = scenarios[k % len(scenarios)] if worker is not None else "unassigned"
        if scenario == "active" and (not worker or not worker.on_duty or worker.active_task_id):
            scenario = "assigned"
        rec = s.create(
            Recipient,
            name=p.name,
            phone=p.phone,
            notes=_NOTES[k % len(_NOTES)],
            skip_sms_notifications=k % 7 == 6,
            created_at=s.ago(days=60 - k),
        )
        worker = _seed_pair(
            s, k, team, worker, rec, p.address, p.place.latitude, p.place.longitude, orders.get(p.email), scenario
        )
        if worker is not None:
            crew[k % len(crew)] = worker


def _seed_pair(
    s: SeedContext,
    k: int,
    team: Team,
    worker: Worker | None,
    rec: Recipient,
    address: PostalAddress,
    lat: float,
    lon: float,
    order: str | None,
    scenario: str,
) -> Worker | None:
    """A pickup at the hub and the dropoff at the recipient's door that depends on it."""
    created = s.ago(hours=30 - k)
    done = scenario in ("delivered", "failed", "picked", "active")
    held = scenario not in ("queued", "unassigned")
    when = s.ago(hours=3 + k % 5)
    common: dict[str, Any] = {
        "worker_id": worker.id if worker and held else None,
        "team_id": team.id if scenario == "queued" else None,
        "created_at": created,
        "updated_at": when if done else created,
        "complete_before": s.now + dt.timedelta(hours=2 + k % 6) if scenario not in ("delivered", "failed") else when,
    }
    short = f"{s.rng.getrandbits(32):08x}"
    pickup = s.create(
        Task,
        short_id=short,
        tracking_url=f"https://track.lastmile.example/{short}",
        pickup_task=True,
        order_number=order,
        destination=team.hub_address,
        latitude=team.hub_latitude,
        longitude=team.hub_longitude,
        quantity=1 + k % 3,
        state="completed" if done else ("assigned" if held else "unassigned"),
        started_at=when - dt.timedelta(minutes=20) if done else None,
        completion=Completion(success=True, time=when - dt.timedelta(minutes=15)) if done else None,
        **common,
    )
    short = f"{s.rng.getrandbits(32):08x}"
    needs = Requirements(signature=k % 3 == 0, photo=k % 2 == 0, minimum_age=18 if k % 11 == 5 else 0)
    states: dict[str, TaskState] = {
        "delivered": "completed",
        "failed": "completed",
        "active": "active",
        "picked": "assigned",
    }
    state: TaskState = states.get(scenario, "assigned" if held else "unassigned")
    completion = None
    if scenario == "delivered":
        completion = Completion(
            success=True,
            signer_name=rec.name if needs.signature else None,
            photo_url=f"https://files.lastmile.example/pod/{short}.jpg" if needs.photo else None,
            age_verified=needs.minimum_age > 0,
            time=when,
        )
    elif scenario == "failed":
        completion = Completion(
            success=False, failure_reason=("NO_ANSWER", "CLOSED", "WRONG_ADDRESS")[k % 3], time=when
        )
    s.create(
        Task,
        short_id=short,
        tracking_url=f"https://track.lastmile.example/{short}",
        recipient_id=rec.id,
        order_number=order,
        destination=address,
        latitude=_jitter(s, lat),
        longitude=_jitter(s, lon),
        quantity=pickup.quantity,
        dependencies=(pickup.id,),
        requirements=needs,
        notes=rec.notes,
        state=state,
        started_at=when - dt.timedelta(minutes=10) if scenario in ("delivered", "failed", "active") else None,
        completion=completion,
        **common,
    )
    if scenario == "active" and worker is not None:
        last = s.records(Task)[-1]
        return s.update(worker, active_task_id=last.id)
    return worker
