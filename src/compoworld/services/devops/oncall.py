"""Pagewise On-Call: technical services, escalation policies, rotating schedules and incidents.

Modeled on the PagerDuty REST API v2 (Users, Services, Escalation Policies,
Schedules with layers, Overrides, Incidents and their Notes): an incident is
triggered on a service, assigned to whoever is on call for the first level of
the service's escalation policy, then acknowledged and resolved; who is on
call is derived from the schedule's rotation layers, its overrides and the
clock.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, JobTitle, PersonName, Text, Timezone, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "oncall",
    title="Pagewise On-Call",
    category="incident_management",
    modeled_on="PagerDuty REST API v2 (Users, Services, Escalation Policies, Schedules, Overrides, Incidents, Notes)",
    description="Incident response for the engineering and operations staff: technical services, who is on "
    "call when, how an unanswered page escalates, and the incidents triggered, acknowledged and resolved.",
)

UserId = Annotated[str, IdOf("oncall.user")]
TechServiceId = Annotated[str, IdOf("oncall.service")]
PolicyId = Annotated[str, IdOf("oncall.escalation_policy")]
ScheduleId = Annotated[str, IdOf("oncall.schedule")]
IncidentId = Annotated[str, IdOf("oncall.incident")]
Urgency = Literal["high", "low"]
Priority = Literal["P1", "P2", "P3", "P4", "P5"]
IncidentStatus = Literal["triggered", "acknowledged", "resolved"]
OPEN: tuple[str, ...] = ("triggered", "acknowledged")


class User(Record):
    """A person who can be paged: an engineering or operations employee."""

    id: UserId
    email: Email
    """Work e-mail address; the user's identity across services."""
    name: PersonName
    """Full name."""
    job_title: JobTitle
    """Job title."""
    role: Literal["admin", "manager", "responder", "observer"] = "responder"
    """Account role; observers cannot be paged."""
    time_zone: Timezone = "UTC"
    """The user's IANA time zone."""
    created_at: Annotated[DateTime, CREATED]
    """When the user was added."""


class ScheduleLayer(BaseModel):
    """One rotation of a schedule: users take turns of a fixed length from a start time."""

    name: Title = Field(description="Layer name, e.g. 'Weekly primary'.")
    start: DateTime = Field(description="When the rotation starts; the first user's first turn begins here.")
    end: DateTime | None = Field(default=None, description="When the layer stops applying; null for never.")
    rotation_turn_length_hours: int = Field(ge=1, le=24 * 28, description="Length of one user's turn in hours.")
    user_emails: list[Email] = Field(min_length=1, description="The users in rotation order.")


class Schedule(Record):
    """An on-call schedule; later layers take precedence over earlier ones."""

    id: ScheduleId
    name: Title
    """Schedule name."""
    description: Text = ""
    """What the schedule covers."""
    time_zone: Timezone = "UTC"
    """The schedule's IANA time zone."""
    layers: list[ScheduleLayer]
    """Rotation layers, lowest precedence first."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the schedule last changed."""


class Override(Created):
    """A temporary replacement of whoever is on call on a schedule."""

    id: Annotated[str, IdOf("oncall.override")]
    schedule_id: ScheduleId
    """The schedule overridden."""
    user_email: Email
    """Who is on call during the override."""
    start: DateTime
    """When the override starts."""
    end: DateTime
    """When it ends."""


class EscalationRule(BaseModel):
    """One level of an escalation policy."""

    escalation_delay_in_minutes: int = Field(
        default=30, ge=1, le=1440, description="Minutes before an unacknowledged page escalates past this level."
    )
    target_emails: list[Email] = Field(default_factory=list, description="Users paged directly at this level.")
    schedule_ids: list[ScheduleId] = Field(
        default_factory=list, description="Schedules whose current on-call is paged at this level."
    )


class EscalationPolicy(Record):
    """Who is paged, in which order, when an incident is not acknowledged."""

    id: PolicyId
    name: Title
    """Policy name."""
    description: Text = ""
    """What the policy is for."""
    rules: list[EscalationRule]
    """Escalation levels, level 1 first."""
    num_loops: int = Field(default=0, ge=0, le=9)
    """How many times the policy repeats after the last level."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the policy last changed."""


class TechService(Created):
    """A technical service incidents are raised against (an API, a pipeline, a site)."""

    id: TechServiceId
    name: Title
    """Service name."""
    description: Text = ""
    """What the service does."""
    escalation_policy_id: PolicyId
    """The policy that decides who is paged."""
    status: Literal["active", "maintenance", "disabled"] = "active"
    """Whether incidents can be triggered: only active services accept them."""
    acknowledgement_timeout_minutes: int | None = Field(default=None, ge=1, le=1440)
    """Minutes after which an acknowledged incident re-triggers; null for never."""


class Incident(Record):
    """A problem on a service that someone must acknowledge and resolve."""

    id: IncidentId
    incident_number: Annotated[str, Generated("sequence", "INC-{n:05d}")]
    """Human-facing incident number."""
    service_id: TechServiceId
    """The affected service."""
    title: Title
    """Short description of the problem."""
    urgency: Urgency = "high"
    """High urgency pages immediately; low urgency waits for working hours."""
    priority: Priority | None = None
    """Business priority, P1 highest."""
    status: IncidentStatus = "triggered"
    """triggered → acknowledged → resolved; resolved is final."""
    dedup_key: str | None = None
    """Incident key of the alert that raised it; one open incident per key and service."""
    assignee_email: Email | None = None
    """The responder currently assigned."""
    escalation_level: int = Field(default=1, ge=1)
    """The escalation-policy level currently paged."""
    acknowledged_by: Email | None = None
    """Who acknowledged it."""
    acknowledged_at: DateTime | None = None
    """When it was acknowledged."""
    resolved_by: Email | None = None
    """Who resolved it."""
    resolved_at: DateTime | None = None
    """When it was resolved."""
    created_at: Annotated[DateTime, CREATED]
    """When it was triggered."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Note(Record):
    """A timeline note on an incident."""

    id: Annotated[str, IdOf("oncall.note")]
    incident_id: IncidentId
    """The incident."""
    author_email: Email
    """Who wrote it."""
    content: Text
    """The note."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


# -- helpers ------------------------------------------------------------------------------------


def _user(ctx: Ctx, email: str, field: str) -> User:
    user = ctx.first(User, email=email)
    if user is None:
        raise NotFound(f"no on-call user with e-mail {email}", field=field, hint="list users to find a responder")
    return user


def _pageable(ctx: Ctx, email: str, field: str) -> User:
    user = _user(ctx, email, field)
    if user.role == "observer":
        raise RuleViolation(
            f"{email} is an observer and cannot be paged", field=field, hint="choose a responder, manager or admin"
        )
    return user


def _oncall_at(ctx: Ctx, schedule: Schedule, at: dt.datetime) -> str | None:
    active = [o for o in ctx.where(Override, schedule_id=schedule.id) if o.start <= at < o.end]
    if active:
        return active[-1].user_email
    for layer in reversed(schedule.layers):
        if layer.start > at or (layer.end is not None and at >= layer.end):
            continue
        turn = int((at - layer.start).total_seconds() // (layer.rotation_turn_length_hours * 3600))
        return layer.user_emails[turn % len(layer.user_emails)]
    return None


def _level_targets(ctx: Ctx, rule: EscalationRule, at: dt.datetime) -> list[str]:
    out = list(rule.target_emails)
    for sid in rule.schedule_ids:
        sched = ctx.find(Schedule, sid)
        who = _oncall_at(ctx, sched, at) if sched is not None else None
        if who is not None and who not in out:
            out.append(who)
    return out


def _policy_members(ctx: Ctx, policy: EscalationPolicy) -> set[str]:
    members: set[str] = set()
    for rule in policy.rules:
        members.update(rule.target_emails)
        for sid in rule.schedule_ids:
            sched = ctx.find(Schedule, sid)
            if sched is None:
                continue
            for layer in sched.layers:
                members.update(layer.user_emails)
            members.update(o.user_email for o in ctx.where(Override, schedule_id=sid))
    return members


def _incident_policy(ctx: Ctx, incident: Incident) -> EscalationPolicy:
    svc = ctx.get(TechService, incident.service_id, field="incident_id")
    return ctx.get(EscalationPolicy, svc.escalation_policy_id, field="incident_id")


# -- guards ---------------------------------------------------------------------------------------


def _guard_schedule(ctx: Ctx, new: Any, old: Any) -> None:
    for i, layer in enumerate(new.layers):
        if layer.end is not None and layer.end <= layer.start:
            raise RuleViolation(
                f"layer {i} ends before it starts", field=f"layers.{i}.end", hint="give an end after the start"
            )
        for email in layer.user_emails:
            _pageable(ctx, email, f"layers.{i}.user_emails")


def _guard_schedule_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for policy in ctx.scan(EscalationPolicy):
        if any(old.id in rule.schedule_ids for rule in policy.rules):
            raise RuleViolation(
                f"schedule {old.id} is used by escalation policy {policy.id}",
                hint="remove the schedule from that policy's rules first",
            )


def _guard_override(ctx: Ctx, new: Any, old: Any) -> None:
    if new.end <= new.start:
        raise RuleViolation("an override must end after it starts", field="end", hint="give an end after the start")
    _pageable(ctx, new.user_email, "user_email")


def _guard_policy(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.rules:
        raise RuleViolation(
            "an escalation policy needs at least one rule", field="rules", hint="add a level with a target"
        )
    for i, rule in enumerate(new.rules):
        if not rule.target_emails and not rule.schedule_ids:
            raise RuleViolation(
                f"escalation level {i + 1} targets nobody",
                field=f"rules.{i}",
                hint="give target_emails or schedule_ids for every level",
            )
        for email in rule.target_emails:
            _pageable(ctx, email, f"rules.{i}.target_emails")
        for sid in rule.schedule_ids:
            ctx.get(Schedule, sid, field=f"rules.{i}.schedule_ids")


def _guard_policy_delete(ctx: Ctx, new: Any, old: Any) -> None:
    used = ctx.first(TechService, escalation_policy_id=old.id)
    if used is not None:
        raise RuleViolation(
            f"escalation policy {old.id} is used by service {used.id}",
            hint="point the service at another policy first",
        )


def _guard_service(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(EscalationPolicy, new.escalation_policy_id, field="escalation_policy_id")


def _guard_service_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for status in OPEN:
        inc = ctx.first(Incident, service_id=old.id, status=status)
        if inc is not None:
            raise RuleViolation(
                f"service {old.id} has open incidents ({inc.id} is {status})",
                hint="resolve its open incidents first, or disable the service instead",
            )


def _guard_user_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for status in OPEN:
        if ctx.first(Incident, assignee_email=old.email, status=status) is not None:
            raise RuleViolation(
                f"user {old.email} is assigned open incidents", hint="reassign their open incidents first"
            )
    for sched in ctx.scan(Schedule):
        if any(old.email in layer.user_emails for layer in sched.layers):
            raise RuleViolation(
                f"user {old.email} is in the rotation of schedule {sched.id}",
                hint="remove the user from the schedule's layers first",
            )


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    filters=("role", "email"),
    search=("name", "email", "job_title"),
    update=("name", "job_title", "role", "time_zone"),
    unique=("email",),
    guard_delete=_guard_user_delete,
)
schedules = service.resource(
    Schedule,
    name="schedule",
    plural="schedules",
    prefix="sch",
    filters=("time_zone",),
    search=("name", "description"),
    update=("name", "description", "time_zone", "layers"),
    unique=("name",),
    guard_create=_guard_schedule,
    guard_update=_guard_schedule,
    guard_delete=_guard_schedule_delete,
    title="on-call schedule",
)
overrides = service.resource(
    Override,
    name="override",
    plural="overrides",
    prefix="ovr",
    filters=("schedule_id", "user_email"),
    guard_create=_guard_override,
    title="schedule override",
)
policies = service.resource(
    EscalationPolicy,
    name="escalation_policy",
    plural="escalation_policies",
    prefix="pol",
    filters=(),
    search=("name", "description"),
    update=("name", "description", "rules", "num_loops"),
    unique=("name",),
    guard_create=_guard_policy,
    guard_update=_guard_policy,
    guard_delete=_guard_policy_delete,
    title="escalation policy",
)
tech_services = service.resource(
    TechService,
    name="service",
    plural="services",
    prefix="svc",
    filters=("status", "escalation_policy_id"),
    search=("name", "description"),
    update=("name", "description", "escalation_policy_id", "acknowledgement_timeout_minutes"),
    unique=("name",),
    transitions={
        "disable": Transition("status", ("active", "maintenance"), "disabled", "disable the service"),
        "enable": Transition("status", ("disabled", "maintenance"), "active", "enable the service"),
        "start_maintenance": Transition("status", ("active",), "maintenance", "put the service in maintenance"),
    },
    guard_create=_guard_service,
    guard_update=_guard_service,
    guard_delete=_guard_service_delete,
    title="technical service",
)
incidents = service.resource(
    Incident,
    name="incident",
    plural="incidents",
    prefix="inc",
    create=False,
    filters=("service_id", "status", "urgency", "priority", "assignee_email", "incident_number"),
    search=("title",),
    update=("title", "urgency", "priority"),
    delete=False,
)
notes = service.resource(
    Note,
    name="note",
    plural="notes",
    prefix="note",
    create=False,
    filters=("incident_id", "author_email"),
    search=("content",),
    delete=False,
    title="incident note",
)


# -- domain tools ---------------------------------------------------------------------------------


class OnCall(BaseModel):
    """Who is on call on a schedule at a moment."""

    schedule_id: ScheduleId = Field(description="The schedule.")
    at: DateTime = Field(description="The moment asked about.")
    user_email: Email | None = Field(description="Who is on call then; null when nobody is.")
    from_override: bool = Field(description="Whether an override decides it.")


@service.tool(intent="find out who is on call", example=first_example(Schedule, "schedule_id"))
def get_current_oncall(ctx: Ctx, schedule_id: ScheduleId, at: DateTime | None = None) -> OnCall:
    """Compute who is on call on a schedule now or at another moment.

    An override covering the moment wins; otherwise the last layer that covers
    it decides, by counting whole turns since the layer's start.

    Args:
        schedule_id: The schedule.
        at: The moment (default: now).
    """
    sched = ctx.get(Schedule, schedule_id, field="schedule_id")
    when = at or ctx.now()
    over = any(o.start <= when < o.end for o in ctx.where(Override, schedule_id=sched.id))
    return OnCall(schedule_id=sched.id, at=when, user_email=_oncall_at(ctx, sched, when), from_override=over)


@service.tool(
    intent="open an incident and page the on-call",
    write=True,
    example=first_example(
        TechService, "service_id", where={"status": "active"}, title="Error rate above 5% on checkout"
    ),
)
def trigger_incident(
    ctx: Ctx,
    service_id: TechServiceId,
    title: Title,
    urgency: Urgency = "high",
    priority: Priority | None = None,
    dedup_key: str | None = None,
    details: Text = "",
) -> Incident:
    """Trigger an incident on a service and assign it to level 1 of its escalation policy.

    Only active services accept incidents (maintenance and disabled ones do
    not). An open incident with the same dedup_key on the service is refused.

    Args:
        service_id: The affected service.
        title: Short description of the problem.
        urgency: high or low.
        priority: Business priority, P1 highest.
        dedup_key: Alert key; at most one open incident per key and service.
        details: Details recorded as the first note.
    """
    svc = ctx.get(TechService, service_id, field="service_id")
    if svc.status != "active":
        raise RuleViolation(
            f"service {svc.id} is {svc.status} and does not accept incidents",
            field="service_id",
            hint="enable the service first, or trigger on another service",
        )
    if dedup_key:
        for inc in ctx.where(Incident, service_id=svc.id, dedup_key=dedup_key):
            if inc.status in OPEN:
                raise Conflict(
                    f"incident {inc.id} with dedup_key {dedup_key!r} is already open",
                    field="dedup_key",
                    hint="add a note to the open incident instead of triggering a new one",
                )
    policy = ctx.get(EscalationPolicy, svc.escalation_policy_id, field="service_id")
    targets = _level_targets(ctx, policy.rules[0], ctx.now()) if policy.rules else []
    if not targets:
        raise RuleViolation(
            f"nobody is on call for level 1 of escalation policy {policy.id}",
            field="service_id",
            hint="add an override or a direct target to the policy's first level",
        )
    inc = ctx.create(
        Incident,
        service_id=svc.id,
        title=title,
        urgency=urgency,
        priority=priority,
        dedup_key=dedup_key,
        assignee_email=targets[0],
    )
    if details.strip():
        ctx.create(Note, incident_id=inc.id, author_email=targets[0], content=details)
    return inc


@service.tool(
    intent="acknowledge the incident",
    write=True,
    example=first_example(
        Incident, "incident_id", where={"status": "triggered"}, fields={"responder_email": "assignee_email"}
    ),
)
def acknowledge_incident(ctx: Ctx, incident_id: IncidentId, responder_email: Email) -> Incident:
    """Acknowledge a triggered incident, which stops it escalating.

    Only the assignee or a member of the service's escalation policy (a direct
    target or someone in one of its schedules) may acknowledge.

    Args:
        incident_id: The incident.
        responder_email: Who acknowledges.
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if inc.status != "triggered":
        raise RuleViolation(
            f"incident {inc.id} is {inc.status}; only triggered incidents can be acknowledged",
            field="incident_id",
            hint="resolved incidents are final; acknowledged ones need no second acknowledgement",
        )
    _user(ctx, responder_email, "responder_email")
    if responder_email != inc.assignee_email and responder_email not in _policy_members(
        ctx, _incident_policy(ctx, inc)
    ):
        raise RuleViolation(
            f"{responder_email} is neither the assignee nor on the service's escalation policy",
            field="responder_email",
            hint=f"ask the assignee {inc.assignee_email} or reassign the incident first",
        )
    return ctx.update(
        inc,
        status="acknowledged",
        acknowledged_by=responder_email,
        acknowledged_at=ctx.now(),
        assignee_email=responder_email,
    )


@service.tool(
    intent="resolve the incident",
    write=True,
    example=first_example(
        Incident, "incident_id", where={"status": "acknowledged"}, fields={"responder_email": "assignee_email"}
    ),
)
def resolve_incident(
    ctx: Ctx, incident_id: IncidentId, responder_email: Email, resolution: Text | None = None
) -> Incident:
    """Resolve an incident.

    An acknowledged incident can be resolved directly; a triggered one only
    with a resolution note saying what fixed it. Resolved incidents are final.

    Args:
        incident_id: The incident.
        responder_email: Who resolves it.
        resolution: What fixed it; required when the incident was never acknowledged.
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if inc.status == "resolved":
        raise RuleViolation(
            f"incident {inc.id} is already resolved", field="incident_id", hint="trigger a new incident if it recurs"
        )
    _pageable(ctx, responder_email, "responder_email")
    note = (resolution or "").strip()
    if inc.status == "triggered" and not note:
        raise RuleViolation(
            f"incident {inc.id} was never acknowledged; resolving it needs a resolution note",
            field="resolution",
            hint="acknowledge the incident first, or say what fixed it in resolution",
        )
    if note:
        ctx.create(Note, incident_id=inc.id, author_email=responder_email, content=f"Resolution: {note}")
    return ctx.update(inc, status="resolved", resolved_by=responder_email, resolved_at=ctx.now())


def _example_reassign(ctx: Ctx) -> dict[str, Any] | None:
    inc = ctx.first(Incident, status="triggered")
    if inc is None:
        return None
    for user in ctx.where(User, role="responder"):
        if user.email != inc.assignee_email:
            return {"incident_id": inc.id, "assignee_email": user.email}
    return None


@service.tool(intent="reassign the incident to another responder", write=True, example=_example_reassign)
def reassign_incident(ctx: Ctx, incident_id: IncidentId, assignee_email: Email) -> Incident:
    """Assign an open incident to another responder; it goes back to triggered and pages them.

    Args:
        incident_id: The incident.
        assignee_email: The new assignee (an on-call user who is not an observer).
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if inc.status == "resolved":
        raise RuleViolation(
            f"incident {inc.id} is resolved and cannot be reassigned", field="incident_id", hint="resolved is final"
        )
    _pageable(ctx, assignee_email, "assignee_email")
    if assignee_email == inc.assignee_email:
        raise RuleViolation(
            f"incident {inc.id} is already assigned to {assignee_email}",
            field="assignee_email",
            hint="choose a different responder",
        )
    return ctx.update(
        inc, assignee_email=assignee_email, status="triggered", acknowledged_by=None, acknowledged_at=None
    )


def _example_escalate(ctx: Ctx) -> dict[str, Any] | None:
    for inc in ctx.where(Incident, status="triggered"):
        policy = _incident_policy(ctx, inc)
        if len(policy.rules) > inc.escalation_level:
            return {"incident_id": inc.id, "escalation_level": inc.escalation_level + 1}
    return None


@service.tool(intent="escalate the incident to the next level", write=True, example=_example_escalate)
def escalate_incident(ctx: Ctx, incident_id: IncidentId, escalation_level: int) -> Incident:
    """Page another level of the service's escalation policy and assign the incident to its on-call.

    Args:
        incident_id: The open incident.
        escalation_level: The policy level to page (1 = first level).
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if inc.status == "resolved":
        raise RuleViolation(
            f"incident {inc.id} is resolved", field="incident_id", hint="only open incidents can be escalated"
        )
    policy = _incident_policy(ctx, inc)
    if not 1 <= escalation_level <= len(policy.rules):
        raise RuleViolation(
            f"escalation policy {policy.id} has {len(policy.rules)} level(s), not {escalation_level}",
            field="escalation_level",
            hint=f"choose a level from 1 to {len(policy.rules)}",
        )
    if escalation_level == inc.escalation_level:
        raise RuleViolation(
            f"incident {inc.id} is already at level {escalation_level}",
            field="escalation_level",
            hint="choose another level",
        )
    targets = _level_targets(ctx, policy.rules[escalation_level - 1], ctx.now())
    if not targets:
        raise RuleViolation(
            f"nobody is on call for level {escalation_level}",
            field="escalation_level",
            hint="add an override to that level's schedule",
        )
    return ctx.update(
        inc,
        escalation_level=escalation_level,
        assignee_email=targets[0],
        status="triggered",
        acknowledged_by=None,
        acknowledged_at=None,
    )


def _example_note(ctx: Ctx) -> dict[str, Any] | None:
    inc = ctx.first(Incident, status="acknowledged")
    if inc is None or inc.assignee_email is None:
        return None
    return {"incident_id": inc.id, "author_email": inc.assignee_email, "content": "Rolled back the last deploy."}


@service.tool(intent="add a note to the incident timeline", write=True, example=_example_note)
def add_incident_note(ctx: Ctx, incident_id: IncidentId, author_email: Email, content: Text) -> Note:
    """Add a note to an incident's timeline.

    Args:
        incident_id: The incident.
        author_email: Who writes it (an on-call user).
        content: The note; must not be empty.
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    _user(ctx, author_email, "author_email")
    if not content.strip():
        raise RuleViolation("a note cannot be empty", field="content", hint="write what happened")
    return ctx.create(Note, incident_id=inc.id, author_email=author_email, content=content)


class OnCallUser(BaseModel):
    """One responder's open workload."""

    email: Email = Field(description="The responder.")
    open_incidents: list[Incident] = Field(description="Triggered and acknowledged incidents assigned to them.")
    on_call_schedules: list[ScheduleId] = Field(description="Schedules they are on call for right now.")


def _example_workload(ctx: Ctx) -> dict[str, Any] | None:
    inc = ctx.first(Incident, status="acknowledged")
    return {"email": inc.assignee_email} if inc and inc.assignee_email else None


@service.tool(intent="see what the responder is on call for", example=_example_workload)
def get_user_oncall_status(ctx: Ctx, email: Email) -> OnCallUser:
    """List a user's open incidents and the schedules they are on call for right now.

    Args:
        email: The user's e-mail.
    """
    _user(ctx, email, "email")
    now = ctx.now()
    open_ = [i for s in OPEN for i in ctx.where(Incident, assignee_email=email, status=s)]
    scheds = [s.id for s in ctx.scan(Schedule) if _oncall_at(ctx, s, now) == email]
    return OnCallUser(email=email, open_incidents=sorted(open_, key=lambda i: i.id), on_call_schedules=scheds)


# -- seed -------------------------------------------------------------------------------------------

SERVICES = (
    ("Checkout API", "Takes orders and payments from the web shop."),
    ("Payments Gateway", "Talks to the card processors."),
    ("Search", "Product search and autocomplete."),
    ("Auth Service", "Sign-in, sessions and tokens."),
    ("Data Pipeline", "Nightly warehouse loads."),
    ("Warehouse Sync", "Stock levels between shop and warehouse."),
    ("Email Delivery", "Transactional e-mail sending."),
    ("Office Network", "VPN, Wi-Fi and office connectivity."),
    ("Mobile Backend", "API behind the mobile app."),
)
INCIDENT_TITLES = (
    "Error rate above 5%",
    "Latency p99 over 2s",
    "Disk usage at 95%",
    "Health check failing",
    "Queue backlog growing",
    "Certificate expires in 3 days",
    "Pod crash loop",
    "Replication lag over 60s",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Engineering and operations staff as responders, rotating schedules, policies, services, incidents."""
    pop = s.population
    eng = pop.staff("Engineering", fallback=0)
    ops = pop.staff("Operations", fallback=0)
    people = eng + ops
    for n, p in enumerate(people):
        manager = "Manager" in p.job_title
        role = "admin" if n == 0 else "manager" if manager else ("observer" if n == len(people) - 1 else "responder")
        s.create(User, email=p.email, name=p.name, job_title=p.job_title, role=role, time_zone=p.place.timezone)
    # The last person is the observer, who is never paged.
    responders = [p.email for p in people[:-1]]
    eng_r = [p.email for p in eng if p.email in responders] or responders
    ops_r = [p.email for p in ops if p.email in responders] or responders
    schedules = _seed_schedules(s, responders, eng_r, ops_r, ops[0].place.timezone if ops else "UTC")
    managers = [p.email for p in people if "Manager" in p.job_title] or responders[:1]
    platform, ops_policy = _seed_policies(s, schedules, managers)
    svcs = _seed_services(s, platform, ops_policy)
    _seed_incidents(s, svcs, ops_policy, eng_r, ops_r)


def _seed_schedules(
    s: SeedContext, responders: list[str], eng_r: list[str], ops_r: list[str], ops_zone: str
) -> dict[str, Schedule]:
    """The platform primary and secondary, the operations daily (with an override) and an unused holiday cover."""
    start = s.ago(days=28)
    primary = s.create(
        Schedule,
        name="Platform primary",
        description="Weekly primary rotation of the platform engineers.",
        layers=[ScheduleLayer(name="Weekly primary", start=start, rotation_turn_length_hours=168, user_emails=eng_r)],
    )
    secondary = s.create(
        Schedule,
        name="Platform secondary",
        description="Secondary rotation, offset by one engineer.",
        layers=[
            ScheduleLayer(
                name="Weekly secondary",
                start=start,
                rotation_turn_length_hours=168,
                user_emails=eng_r[1:] + eng_r[:1],
            ),
            ScheduleLayer(
                name="Weekend cover",
                start=start + dt.timedelta(days=5),
                end=start + dt.timedelta(days=7),
                rotation_turn_length_hours=48,
                user_emails=eng_r[-1:],
            ),
        ],
    )
    operations = s.create(
        Schedule,
        name="Operations daily",
        description="Daily rotation of the operations team.",
        time_zone=ops_zone,
        layers=[ScheduleLayer(name="Daily", start=start, rotation_turn_length_hours=24, user_emails=ops_r)],
    )
    s.create(
        Override,
        schedule_id=operations.id,
        user_email=ops_r[-1],
        start=s.now + dt.timedelta(days=2),
        end=s.now + dt.timedelta(days=3),
    )
    s.create(
        Schedule,
        name="Holiday cover",
        description="Volunteers covering public holidays; not yet used by a policy.",
        layers=[
            ScheduleLayer(
                name="Holidays",
                start=s.now + dt.timedelta(days=30),
                rotation_turn_length_hours=24,
                user_emails=responders[:3],
            )
        ],
    )
    return {"primary": primary, "secondary": secondary, "operations": operations}


def _seed_policies(
    s: SeedContext, schedules: dict[str, Schedule], managers: list[str]
) -> tuple[EscalationPolicy, EscalationPolicy]:
    """The platform and operations policies (returned) and an unused low-urgency one."""
    primary = schedules["primary"]
    platform = s.create(
        EscalationPolicy,
        name="Platform default",
        description="Primary, then secondary, then the engineering manager.",
        rules=[
            EscalationRule(escalation_delay_in_minutes=15, schedule_ids=[primary.id]),
            EscalationRule(escalation_delay_in_minutes=15, schedule_ids=[schedules["secondary"].id]),
            EscalationRule(escalation_delay_in_minutes=30, target_emails=managers[:1]),
        ],
        num_loops=1,
    )
    ops_policy = s.create(
        EscalationPolicy,
        name="Operations",
        description="The daily operations rotation, then the operations manager.",
        rules=[
            EscalationRule(escalation_delay_in_minutes=30, schedule_ids=[schedules["operations"].id]),
            EscalationRule(escalation_delay_in_minutes=60, target_emails=managers[-1:]),
        ],
    )
    s.create(
        EscalationPolicy,
        name="Low urgency",
        description="Business-hours only: the primary on-call.",
        rules=[EscalationRule(escalation_delay_in_minutes=120, schedule_ids=[primary.id])],
    )
    return platform, ops_policy


def _seed_services(s: SeedContext, platform: EscalationPolicy, ops_policy: EscalationPolicy) -> list[TechService]:
    """The SERVICES, all active but one in maintenance and the last, disabled."""
    svcs = []
    for n, (name, desc) in enumerate(SERVICES):
        policy = ops_policy if name in ("Warehouse Sync", "Office Network") else platform
        svc_status = "disabled" if n == len(SERVICES) - 1 else "maintenance" if n == 4 else "active"
        svcs.append(
            s.create(
                TechService,
                name=name,
                description=desc,
                escalation_policy_id=policy.id,
                status=svc_status,
                acknowledgement_timeout_minutes=s.rng.choice((None, 30, 240)),
                created_at=s.ago(days=200 - n),
            )
        )
    return svcs


def _seed_incidents(
    s: SeedContext, svcs: list[TechService], ops_policy: EscalationPolicy, eng_r: list[str], ops_r: list[str]
) -> None:
    """Incidents every three hours on the services but the disabled one; each handled one has a note."""
    for k in range(36):
        svc = svcs[k % (len(svcs) - 1)]
        status: IncidentStatus = ("resolved", "resolved", "acknowledged", "triggered")[(k + k // 8) % 4]
        created = s.ago(hours=3 * (36 - k) + s.rng.randint(0, 2))
        assignee = s.rng.choice(ops_r if svc.escalation_policy_id == ops_policy.id else eng_r)
        inc = s.create(
            Incident,
            service_id=svc.id,
            title=f"{svc.name}: {s.rng.choice(INCIDENT_TITLES)}",
            urgency="low" if k % 5 == 0 else "high",
            priority=s.rng.choice(("P1", "P2", "P3", "P4", "P5", None)),
            status=status,
            dedup_key=f"alert-{svc.id}-{k}",
            assignee_email=assignee,
            escalation_level=1,
            acknowledged_by=assignee if status != "triggered" else None,
            acknowledged_at=created + dt.timedelta(minutes=7) if status != "triggered" else None,
            resolved_by=assignee if status == "resolved" else None,
            resolved_at=created + dt.timedelta(minutes=95) if status == "resolved" else None,
            created_at=created,
            updated_at=created + dt.timedelta(minutes=95 if status == "resolved" else 7),
        )
        if status != "triggered":
            s.create(
                Note,
                incident_id=inc.id,
                author_email=assignee,
                content=s.rng.choice(
                    (
                        "Looking into it.",
                        "Rolled back the last deploy.",
                        "Scaled the service up.",
                        "Restarted the pods.",
                    )
                ),
                created_at=created + dt.timedelta(minutes=10),
            )
