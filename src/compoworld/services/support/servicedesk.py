"""Tracewell Service Desk: IT incidents, service requests, change requests with CAB approval, SLAs.

Modeled on the ServiceNow ITSM Table API (``sys_user``, ``sys_user_group``,
``cmdb_ci``, ``incident``, ``change_request``, ``sysapproval_approver``,
``sc_cat_item``, ``sc_req_item``): an incident's priority is derived from its
impact and urgency (the ITIL matrix) and sets its resolution SLA; time on hold
does not count against the SLA; only a member of the assignment group can be
the assignee and only an assigned incident can be resolved. A normal change
needs the approval of its group's manager and the Change Advisory Board, an
emergency change the manager's alone, a standard (low-risk) change is
pre-approved; two changes to one configuration item may not overlap; closing a
change resumes the incidents waiting on it. Requests for catalog items above
the item's approval threshold wait for the fulfilment group's manager.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    Currency,
    DateTime,
    Email,
    IdOf,
    JobTitle,
    PersonName,
    Phone,
    Sku,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.world.org import LEAD_WORDS

__all__ = ["service"]

service = Service(
    "servicedesk",
    title="Tracewell Service Desk",
    category="helpdesk",
    modeled_on="ServiceNow ITSM Table API (sys_user, sys_user_group, cmdb_ci, incident, change_request, "
    "sysapproval_approver, sc_cat_item, sc_req_item)",
    description="Internal IT service management: employees' incidents with impact/urgency priority and "
    "resolution SLAs, assignment groups, configuration items, change requests approved by the Change "
    "Advisory Board, and catalog requests for hardware and software.",
)

UserId = Annotated[str, IdOf("servicedesk.user")]
GroupId = Annotated[str, IdOf("servicedesk.assignment_group")]
CiId = Annotated[str, IdOf("servicedesk.configuration_item")]
IncidentId = Annotated[str, IdOf("servicedesk.incident")]
ChangeId = Annotated[str, IdOf("servicedesk.change_request")]
ApprovalId = Annotated[str, IdOf("servicedesk.approval")]
CatalogItemId = Annotated[str, IdOf("servicedesk.catalog_item")]
RequestId = Annotated[str, IdOf("servicedesk.request")]

Level = Literal[1, 2, 3]
Priority = Literal[1, 2, 3, 4, 5]
IncidentState = Literal["new", "in_progress", "on_hold", "resolved", "closed", "canceled"]
IncidentCategory = Literal["hardware", "software", "network", "access", "inquiry"]
HoldReason = Literal["awaiting_caller", "awaiting_change", "awaiting_vendor"]
CloseCode = Literal["solved_permanently", "solved_workaround", "not_solved", "duplicate", "user_error"]
ChangeType = Literal["standard", "normal", "emergency"]
ChangeState = Literal["new", "authorize", "scheduled", "implement", "closed", "canceled"]
ChangeCloseCode = Literal["successful", "successful_with_issues", "unsuccessful"]
Risk = Literal["low", "moderate", "high"]
ApprovalState = Literal["requested", "approved", "rejected", "not_required"]
RequestState = Literal["awaiting_approval", "approved", "rejected", "fulfilled"]
GroupName = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]
CiName = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]

PRIORITY: dict[tuple[int, int], int] = {
    (1, 1): 1,
    (1, 2): 2,
    (2, 1): 2,
    (1, 3): 3,
    (2, 2): 3,
    (3, 1): 3,
    (2, 3): 4,
    (3, 2): 4,
    (3, 3): 5,
}
"""The ITIL priority matrix: (impact, urgency) -> priority, 1 critical to 5 planning."""

SLA_HOURS: dict[int, int] = {1: 4, 2: 8, 3: 24, 4: 72, 5: 120}
"""Resolution target of each priority, in hours."""

ACTIVE: tuple[str, ...] = ("new", "in_progress", "on_hold")
FINAL: tuple[str, ...] = ("closed", "canceled")
OPEN_CHANGE: tuple[str, ...] = ("new", "authorize", "scheduled", "implement")


class User(Record):
    """An employee as the service desk knows them (a caller, an agent or an approver)."""

    id: UserId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail address; unique."""
    department: Text = ""
    """Department."""
    title: JobTitle
    """Job title."""
    phone: Phone | None = None
    """Work phone number."""
    location: City
    """City the employee works in."""
    vip: bool = False
    """VIP callers' incidents are flagged for priority handling."""
    active: bool = True
    """Inactive users cannot raise incidents or requests nor be assigned work."""


class AssignmentGroup(Record):
    """A team that incidents, changes or requests are routed to."""

    id: GroupId
    name: GroupName
    """Group name; unique."""
    kind: Literal["incident", "change", "fulfilment", "cab"]
    """What the group works: incidents, changes, request fulfilment, or the Change Advisory Board."""
    manager_email: Email
    """The group's manager, who approves its changes and costly requests."""
    members: tuple[Email, ...] = ()
    """E-mails of the group's members; only members can be assigned its work."""
    description: Text = ""
    """What the group handles."""


class ConfigurationItem(Record):
    """A configuration item (server, application, network device) in the CMDB."""

    id: CiId
    name: CiName
    """CI name; unique."""
    ci_class: Literal["server", "application", "network", "database", "laptop"]
    """Class of the item."""
    support_group_id: GroupId
    """Group that supports it; incidents on it are routed there by default."""
    owned_by: Email
    """Business owner of the item."""
    location: City
    """Where the item runs."""
    operational_status: Literal["operational", "non_operational", "retired"] = "operational"
    """Whether it is operational; retired items take no new incidents or changes."""


class Incident(Record):
    """An unplanned interruption or degradation reported by a caller."""

    id: IncidentId
    number: Annotated[str, Generated("sequence", "INC{n:07d}")]
    """Incident number (INC0000001)."""
    short_description: Title
    """One-line summary."""
    description: Text = ""
    """Details from the caller."""
    caller_email: Email
    """E-mail of the employee who reported it."""
    caller_name: PersonName
    """Name of the caller."""
    category: IncidentCategory = "inquiry"
    """hardware, software, network, access or inquiry."""
    cmdb_ci_id: CiId | None = None
    """Affected configuration item."""
    impact: Level = 3
    """1 (high: many people) to 3 (low: one person)."""
    urgency: Level = 3
    """1 (high: work stopped) to 3 (low: can wait)."""
    priority: Priority = 5
    """Derived from impact and urgency (1 critical .. 5 planning); sets the SLA."""
    state: IncidentState = "new"
    """new, in_progress, on_hold, resolved, closed (final) or canceled (final)."""
    assignment_group_id: GroupId
    """Group working the incident."""
    assigned_to: Email | None = None
    """E-mail of the assigned member of the group."""
    hold_reason: HoldReason | None = None
    """Why it is on hold."""
    change_request_id: ChangeId | None = None
    """The change the incident waits for (hold reason awaiting_change)."""
    close_code: CloseCode | None = None
    """How it was resolved."""
    close_notes: Text = ""
    """Resolution notes."""
    reopen_count: int = 0
    """How often it was reopened after being resolved."""
    on_hold_since: DateTime | None = None
    """When it was last put on hold (SLA paused since then)."""
    sla_paused_minutes: int = 0
    """Minutes spent on hold so far; they extend the SLA."""
    sla_due: DateTime | None = None
    """When it must be resolved: opened + the priority's target + time on hold."""
    resolved_at: DateTime | None = None
    """When it was resolved."""
    opened_at: Annotated[DateTime, CREATED]
    """When it was reported."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""

    @model_validator(mode="before")
    @classmethod
    def _derive_priority_and_sla(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        out = dict(data)
        prio = PRIORITY.get((int(out.get("impact", 3)), int(out.get("urgency", 3))), 5)
        out["priority"] = prio
        opened = out.get("opened_at")
        if isinstance(opened, dt.datetime):
            paused = int(out.get("sla_paused_minutes", 0))
            out["sla_due"] = opened + dt.timedelta(hours=SLA_HOURS[prio], minutes=paused)
        return out


class ChangeRequest(Record):
    """A planned change to a configuration item, approved before it is implemented."""

    id: ChangeId
    number: Annotated[str, Generated("sequence", "CHG{n:07d}")]
    """Change number (CHG0000001)."""
    short_description: Title
    """What will change."""
    description: Text = ""
    """Implementation and back-out plan."""
    type: ChangeType
    """standard (pre-approved, low risk), normal (CAB approval) or emergency (manager approval)."""
    risk: Risk
    """low, moderate or high."""
    requested_by: Email
    """Who asked for the change."""
    assignment_group_id: GroupId
    """Group implementing it; its manager approves it."""
    cmdb_ci_id: CiId
    """The configuration item changed."""
    planned_start: DateTime
    """Start of the change window."""
    planned_end: DateTime
    """End of the change window."""
    state: ChangeState = "new"
    """new, authorize (awaiting approval), scheduled, implement, closed or canceled."""
    close_code: ChangeCloseCode | None = None
    """Outcome once closed."""
    close_notes: Text = ""
    """Closure notes."""
    opened_at: Annotated[DateTime, CREATED]
    """When it was raised."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Approval(Record):
    """One approver's decision on a change request or a catalog request."""

    id: ApprovalId
    document: Literal["change_request", "request"]
    """What is approved."""
    change_request_id: ChangeId | None = None
    """The change request, for a change approval."""
    request_id: RequestId | None = None
    """The catalog request, for a request approval."""
    approver_email: Email
    """Who must decide."""
    state: ApprovalState = "requested"
    """requested, approved, rejected or not_required (the document was decided otherwise)."""
    comments: Text = ""
    """The approver's comments."""
    decided_at: DateTime | None = None
    """When the approver decided."""
    created_at: Annotated[DateTime, CREATED]
    """When the approval was requested."""


class CatalogItem(Record):
    """Something employees can order from the service catalog."""

    id: CatalogItemId
    sku: Sku
    """Stock keeping unit; unique."""
    name: Title
    """Item name."""
    category: Literal["hardware", "software", "access"]
    """hardware, software or access."""
    price: Cents
    """Unit price in cents."""
    currency: Currency
    """Currency of the price."""
    approval_over: Cents
    """Requests whose total is above this need the fulfilment group manager's approval."""
    max_quantity: int = 5
    """Most units one request may order."""
    fulfilment_group_id: GroupId
    """Group that fulfils requests for the item."""
    active: bool = True
    """Inactive items cannot be requested."""


class RequestItem(Record):
    """An employee's request for a catalog item (a requested item, RITM)."""

    id: RequestId
    number: Annotated[str, Generated("sequence", "RITM{n:07d}")]
    """Request number (RITM0000001)."""
    catalog_item_id: CatalogItemId
    """The item requested."""
    sku: Sku
    """The item's SKU."""
    item_name: Title
    """The item's name."""
    requested_for: Email
    """Who receives the item."""
    quantity: int
    """Units requested."""
    unit_price: Cents
    """Price of one unit in cents."""
    total: Cents
    """quantity x unit price, in cents."""
    currency: Currency
    """Currency of the amounts."""
    justification: Text = ""
    """Why it is needed."""
    state: RequestState
    """awaiting_approval, approved, rejected or fulfilled."""
    fulfilled_by: Email | None = None
    """Group member who fulfilled it."""
    opened_at: Annotated[DateTime, CREATED]
    """When it was requested."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- rules ------------------------------------------------------------------------------------


def _guard_incident(ctx: Ctx, new: Any, old: Any) -> None:
    if old.state in FINAL:
        raise RuleViolation(
            f"incident {old.number} is {old.state} and cannot change",
            field="incident_id",
            hint="closed and canceled incidents are final; raise a new incident with servicedesk__create_incident",
        )
    if new.cmdb_ci_id is not None and new.cmdb_ci_id != old.cmdb_ci_id:
        ci = ctx.get(ConfigurationItem, new.cmdb_ci_id, field="cmdb_ci_id")
        if ci.operational_status == "retired":
            raise RuleViolation(
                f"configuration item {ci.name} is retired", field="cmdb_ci_id", hint="pick an item in service"
            )


def _guard_change(ctx: Ctx, new: Any, old: Any) -> None:
    if old.state in FINAL:
        raise RuleViolation(
            f"change {old.number} is {old.state} and cannot change",
            field="change_request_id",
            hint="raise a new change request with servicedesk__create_change_request",
        )
    if new.state == "canceled":
        for appr in ctx.where(Approval, change_request_id=new.id, state="requested"):
            ctx.update(appr, state="not_required")


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    get=False,
    filters=("email", "department", "location", "vip", "active"),
    search=("name", "email", "title"),
    delete=False,
    unique=("email",),
    title="service desk user",
)
groups = service.resource(
    AssignmentGroup,
    name="assignment_group",
    plural="assignment_groups",
    prefix="grp",
    create=False,
    get=False,
    filters=("kind", "manager_email"),
    search=("name", "description"),
    delete=False,
    unique=("name",),
    title="assignment group",
)
cis = service.resource(
    ConfigurationItem,
    name="configuration_item",
    plural="configuration_items",
    prefix="ci",
    create=False,
    get=False,
    filters=("ci_class", "support_group_id", "owned_by", "location", "operational_status"),
    search=("name",),
    delete=False,
    unique=("name",),
    title="configuration item",
)
incidents = service.resource(
    Incident,
    name="incident",
    plural="incidents",
    prefix="inc",
    create=False,
    filters=(
        "number",
        "state",
        "priority",
        "category",
        "caller_email",
        "assigned_to",
        "assignment_group_id",
        "cmdb_ci_id",
        "change_request_id",
    ),
    search=("short_description", "description", "number"),
    update=("short_description", "description", "category", "cmdb_ci_id", "impact", "urgency"),
    delete=False,
    transitions={
        "close": Transition(
            "state",
            ("resolved",),
            "closed",
            "close the resolved incident",
            description="Close a resolved incident: sets state to 'closed'. Closed incidents are final.",
            destructive=True,
        )
    },
    guard_update=_guard_incident,
)
changes = service.resource(
    ChangeRequest,
    name="change_request",
    plural="change_requests",
    prefix="chg",
    create=False,
    filters=("number", "state", "type", "risk", "requested_by", "assignment_group_id", "cmdb_ci_id"),
    search=("short_description", "description", "number"),
    delete=False,
    transitions={
        "implement": Transition(
            "state",
            ("scheduled",),
            "implement",
            "start implementing the change",
            description="Start implementing an approved, scheduled change: sets state to 'implement'.",
        ),
        "cancel": Transition(
            "state",
            ("new", "authorize", "scheduled"),
            "canceled",
            "cancel the change request",
            description="Cancel a change that is not being implemented yet: sets state to 'canceled' and "
            "withdraws its pending approvals. Canceled changes are final.",
            destructive=True,
        ),
    },
    guard_update=_guard_change,
    title="change request",
)
approvals = service.resource(
    Approval,
    name="approval",
    plural="approvals",
    prefix="apr",
    create=False,
    get=False,
    filters=("document", "change_request_id", "request_id", "approver_email", "state"),
    delete=False,
)
catalog = service.resource(
    CatalogItem,
    name="catalog_item",
    plural="catalog_items",
    prefix="cat",
    create=False,
    get=False,
    filters=("sku", "category", "fulfilment_group_id", "active"),
    search=("name", "sku"),
    delete=False,
    unique=("sku",),
    title="catalog item",
)
requests = service.resource(
    RequestItem,
    name="request",
    plural="requests",
    prefix="req",
    create=False,
    get=False,
    filters=("number", "state", "sku", "requested_for", "catalog_item_id", "fulfilled_by"),
    search=("item_name", "number", "justification"),
    delete=False,
    title="catalog request",
)


def _user(ctx: Ctx, email: str, field: str, *, role: str = "user") -> User:
    user = ctx.first(User, email=email)
    if user is None:
        raise NotFound(
            f"no service desk user with e-mail {email}",
            field=field,
            hint="find the employee with servicedesk__list_users",
        )
    if not user.active:
        raise RuleViolation(
            f"{role} {email} is inactive", field=field, hint="pick an active employee (list users with active=true)"
        )
    return user


def _member(ctx: Ctx, group: AssignmentGroup, email: str, field: str) -> None:
    _user(ctx, email, field, role="assignee")
    if email not in group.members:
        raise RuleViolation(
            f"{email} is not a member of assignment group {group.name}",
            field=field,
            hint=f"assign a member of {group.name} ({', '.join(group.members[:4])} …) or route to another group",
        )


def _paused(ctx: Ctx, inc: Incident) -> int:
    if inc.on_hold_since is None:
        return inc.sla_paused_minutes
    return inc.sla_paused_minutes + int((ctx.now() - inc.on_hold_since).total_seconds() // 60)


def _live(ctx: Ctx, incident_id: str, field: str = "incident_id") -> Incident:
    inc = ctx.get(Incident, incident_id, field=field)
    if inc.state not in ACTIVE:
        raise RuleViolation(
            f"incident {inc.number} is {inc.state}",
            field=field,
            hint="reactivate a resolved incident with servicedesk__reactivate_incident; closed ones are final",
        )
    return inc


def _overlapping(ctx: Ctx, change: ChangeRequest) -> ChangeRequest | None:
    for other in ctx.where(ChangeRequest, cmdb_ci_id=change.cmdb_ci_id):
        if other.id == change.id or other.state not in ("authorize", "scheduled", "implement"):
            continue
        if other.planned_start < change.planned_end and change.planned_start < other.planned_end:
            return other
    return None


# -- examples ---------------------------------------------------------------------------------


def _active_caller(ctx: Ctx) -> User:
    return next(u for u in ctx.where(User, active=True))


def _example_create_incident(ctx: Ctx) -> dict[str, Any]:
    ci = next(c for c in ctx.where(ConfigurationItem, operational_status="operational"))
    return {
        "caller_email": _active_caller(ctx).email,
        "short_description": "VPN drops every few minutes",
        "description": "Since this morning the VPN disconnects repeatedly.",
        "impact": 2,
        "urgency": 1,
        "category": "network",
        "cmdb_ci_id": ci.id,
    }


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for inc in ctx.where(Incident, state="new"):
        group = ctx.get(AssignmentGroup, inc.assignment_group_id)
        for email in group.members:
            user = ctx.first(User, email=email)
            if user is not None and user.active:
                return {"incident_id": inc.id, "assigned_to": email}
    return None


def _example_create_change(ctx: Ctx) -> dict[str, Any]:
    ci = next(c for c in ctx.where(ConfigurationItem, operational_status="operational"))
    start = ctx.now() + dt.timedelta(days=40)
    return {
        "short_description": f"Patch {ci.name}",
        "description": "Apply the monthly security patches; roll back from snapshot on failure.",
        "type": "normal",
        "risk": "moderate",
        "requested_by": _active_caller(ctx).email,
        "cmdb_ci_id": ci.id,
        "planned_start": start.isoformat(),
        "planned_end": (start + dt.timedelta(hours=2)).isoformat(),
    }


def _example_submit(ctx: Ctx) -> dict[str, Any]:
    item = next(c for c in ctx.where(CatalogItem, active=True))
    return {"sku": item.sku, "requested_for": _active_caller(ctx).email, "quantity": 1, "justification": "New hire"}


def _example_fulfill(ctx: Ctx) -> dict[str, Any] | None:
    for req in ctx.where(RequestItem, state="approved"):
        item = ctx.get(CatalogItem, req.catalog_item_id)
        group = ctx.get(AssignmentGroup, item.fulfilment_group_id)
        for email in group.members:
            user = ctx.first(User, email=email)
            if user is not None and user.active:
                return {"request_id": req.id, "fulfilled_by": email}
    return None


# -- incidents --------------------------------------------------------------------------------


@service.tool(intent="report an IT incident", write=True, example=_example_create_incident)
def create_incident(
    ctx: Ctx,
    caller_email: Email,
    short_description: Title,
    impact: Level,
    urgency: Level,
    description: Text = "",
    category: IncidentCategory = "inquiry",
    cmdb_ci_id: CiId | None = None,
    assignment_group_id: GroupId | None = None,
) -> Incident:
    """Raise an incident for an employee; its priority and SLA follow from impact and urgency.

    Priority: impact 1 + urgency 1 is priority 1 (resolve within 4 hours); 3 + 3
    is priority 5 (120 hours). The incident goes to the given group, else the
    affected item's support group, else the Service Desk.

    Args:
        caller_email: E-mail of the employee reporting it (must be an active user).
        short_description: One-line summary.
        impact: 1 (many people affected) to 3 (one person).
        urgency: 1 (work stopped) to 3 (can wait).
        description: Details.
        category: hardware, software, network, access or inquiry.
        cmdb_ci_id: The affected configuration item.
        assignment_group_id: Group to route to; must work incidents.
    """
    caller = _user(ctx, caller_email, "caller_email", role="caller")
    group_id = assignment_group_id
    if cmdb_ci_id is not None:
        ci = ctx.get(ConfigurationItem, cmdb_ci_id, field="cmdb_ci_id")
        if ci.operational_status == "retired":
            raise RuleViolation(
                f"configuration item {ci.name} is retired", field="cmdb_ci_id", hint="pick an item in service"
            )
        group_id = group_id or ci.support_group_id
    if group_id is None:
        default = ctx.first(AssignmentGroup, kind="incident")
        if default is None:
            raise NotFound("no group works incidents", field="assignment_group_id", hint="pass assignment_group_id")
        group_id = default.id
    group = ctx.get(AssignmentGroup, group_id, field="assignment_group_id")
    if group.kind != "incident":
        raise RuleViolation(
            f"group {group.name} works {group.kind} tasks, not incidents",
            field="assignment_group_id",
            hint="list assignment groups with kind='incident'",
        )
    return ctx.create(
        Incident,
        short_description=short_description,
        description=description,
        caller_email=caller.email,
        caller_name=caller.name,
        category=category,
        cmdb_ci_id=cmdb_ci_id,
        impact=impact,
        urgency=urgency,
        assignment_group_id=group.id,
    )


@service.tool(intent="assign the incident", write=True, example=_example_assign)
def assign_incident(
    ctx: Ctx, incident_id: IncidentId, assigned_to: Email, assignment_group_id: GroupId | None = None
) -> Incident:
    """Assign an incident to a member of its group (or move it to another group and assign it there).

    A new incident becomes in_progress. Resolved, closed and canceled incidents cannot be assigned.

    Args:
        incident_id: The incident.
        assigned_to: E-mail of the assignee; an active member of the group.
        assignment_group_id: Group to move the incident to; omit to keep its group.
    """
    inc = _live(ctx, incident_id)
    group = ctx.get(AssignmentGroup, assignment_group_id or inc.assignment_group_id, field="assignment_group_id")
    if group.kind != "incident":
        raise RuleViolation(
            f"group {group.name} does not work incidents",
            field="assignment_group_id",
            hint="list assignment groups with kind='incident'",
        )
    _member(ctx, group, assigned_to, "assigned_to")
    state = "in_progress" if inc.state == "new" else inc.state
    return ctx.update(inc, assigned_to=assigned_to, assignment_group_id=group.id, state=state)


@service.tool(
    intent="put the incident on hold",
    write=True,
    example=first_example(Incident, "incident_id", where={"state": "in_progress"}, hold_reason="awaiting_caller"),
)
def hold_incident(
    ctx: Ctx, incident_id: IncidentId, hold_reason: HoldReason, change_request_id: ChangeId | None = None
) -> Incident:
    """Put an in-progress incident on hold; its SLA clock pauses until it is reactivated.

    Waiting for a change needs the change request (one not yet closed or
    canceled); the other reasons take none.

    Args:
        incident_id: The incident.
        hold_reason: awaiting_caller, awaiting_change or awaiting_vendor.
        change_request_id: The change the incident waits for (only with awaiting_change).
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if inc.state != "in_progress":
        raise RuleViolation(
            f"incident {inc.number} is {inc.state}; only in-progress incidents go on hold",
            field="incident_id",
            hint="assign a new incident first; resolved incidents must be reactivated",
        )
    if hold_reason == "awaiting_change":
        if change_request_id is None:
            raise RuleViolation(
                "waiting for a change needs the change request",
                field="change_request_id",
                hint="pass the change_request_id the incident waits for",
            )
        chg = ctx.get(ChangeRequest, change_request_id, field="change_request_id")
        if chg.state in FINAL:
            raise RuleViolation(
                f"change {chg.number} is already {chg.state}",
                field="change_request_id",
                hint="an incident can only wait for an open change",
            )
    elif change_request_id is not None:
        raise RuleViolation(
            "a change request goes only with hold reason awaiting_change",
            field="change_request_id",
            hint="omit change_request_id or use awaiting_change",
        )
    return ctx.update(
        inc, state="on_hold", hold_reason=hold_reason, change_request_id=change_request_id, on_hold_since=ctx.now()
    )


@service.tool(
    intent="reactivate the incident",
    write=True,
    example=first_example(Incident, "incident_id", where={"state": "on_hold"}, reason="The caller sent the logs."),
)
def reactivate_incident(ctx: Ctx, incident_id: IncidentId, reason: Text) -> Incident:
    """Take an incident off hold, or reopen a resolved one; either way it is in_progress again.

    Time on hold extends the SLA; reopening counts in reopen_count. Closed and
    canceled incidents are final.

    Args:
        incident_id: The incident.
        reason: Why work resumes (e.g. the caller answered, the fix did not hold).
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if not reason.strip():
        raise RuleViolation("a reason is required", field="reason", hint="say why work resumes")
    if inc.state == "on_hold":
        return ctx.update(
            inc,
            state="in_progress",
            hold_reason=None,
            on_hold_since=None,
            sla_paused_minutes=_paused(ctx, inc),
        )
    if inc.state == "resolved":
        notes = f"{inc.close_notes}\nReopened: {reason.strip()}".strip()
        return ctx.update(
            inc,
            state="in_progress",
            close_code=None,
            resolved_at=None,
            close_notes=notes,
            reopen_count=inc.reopen_count + 1,
        )
    raise RuleViolation(
        f"incident {inc.number} is {inc.state}; only on-hold or resolved incidents are reactivated",
        field="incident_id",
        hint="closed incidents are final; open a new incident instead",
    )


@service.tool(
    intent="resolve the incident",
    write=True,
    example=first_example(
        Incident,
        "incident_id",
        where={"state": "in_progress"},
        close_code="solved_permanently",
        close_notes="Replaced the faulty cable.",
    ),
)
def resolve_incident(ctx: Ctx, incident_id: IncidentId, close_code: CloseCode, close_notes: Text) -> Incident:
    """Resolve an assigned incident with a close code and notes.

    Only incidents that are in progress or on hold and have an assignee can be resolved.

    Args:
        incident_id: The incident.
        close_code: solved_permanently, solved_workaround, not_solved, duplicate or user_error.
        close_notes: What was done.
    """
    inc = _live(ctx, incident_id)
    if inc.assigned_to is None:
        raise RuleViolation(
            f"incident {inc.number} has no assignee",
            field="incident_id",
            hint="assign it with servicedesk__assign_incident first",
        )
    if not close_notes.strip():
        raise RuleViolation("close notes are required", field="close_notes", hint="describe the resolution")
    return ctx.update(
        inc,
        state="resolved",
        close_code=close_code,
        close_notes=close_notes.strip(),
        resolved_at=ctx.now(),
        hold_reason=None,
        on_hold_since=None,
        sla_paused_minutes=_paused(ctx, inc),
    )


class SlaEntry(BaseModel):
    """One incident past its resolution target."""

    incident_id: IncidentId = Field(description="The incident.")
    number: str = Field(description="Its number.")
    priority: Priority = Field(description="Its priority.")
    caller_email: Email = Field(description="Who reported it.")
    assigned_to: Email | None = Field(description="Its assignee.")
    sla_due: DateTime = Field(description="When it was due (extended by time on hold).")
    overdue_minutes: int = Field(description="How late it is (or was, when resolved late).")


class SlaReport(BaseModel):
    """Incidents that breached their SLA."""

    as_of: DateTime = Field(description="The time the report was computed for.")
    open_breached: list[SlaEntry] = Field(description="Unresolved incidents past due, most overdue first.")
    resolved_late: list[SlaEntry] = Field(description="Resolved or closed incidents resolved after their due time.")
    active: int = Field(description="Unresolved incidents considered.")


@service.tool(intent="find incidents that breached their SLA")
def sla_breaches(ctx: Ctx, assignment_group_id: GroupId | None = None) -> SlaReport:
    """List the incidents past their resolution SLA, optionally for one group.

    Time on hold (including the current hold) extends an incident's due time.

    Args:
        assignment_group_id: Only this group's incidents.
    """
    now = ctx.now()
    found = (
        ctx.where(Incident, assignment_group_id=assignment_group_id)
        if assignment_group_id
        else list(ctx.scan(Incident))
    )
    open_: list[SlaEntry] = []
    late: list[SlaEntry] = []
    active = 0
    for inc in found:
        if inc.sla_due is None or inc.state == "canceled":
            continue
        due = inc.sla_due + dt.timedelta(minutes=_paused(ctx, inc) - inc.sla_paused_minutes)
        if inc.state in ACTIVE:
            active += 1
            when = now
        elif inc.resolved_at is not None:
            when = inc.resolved_at
        else:
            continue
        if when <= due:
            continue
        entry = SlaEntry(
            incident_id=inc.id,
            number=inc.number,
            priority=inc.priority,
            caller_email=inc.caller_email,
            assigned_to=inc.assigned_to,
            sla_due=due,
            overdue_minutes=int((when - due).total_seconds() // 60),
        )
        (open_ if inc.state in ACTIVE else late).append(entry)
    open_.sort(key=lambda e: (-e.overdue_minutes, e.incident_id))
    return SlaReport(as_of=now, open_breached=open_, resolved_late=late, active=active)


# -- changes ----------------------------------------------------------------------------------


@service.tool(intent="raise a change request", write=True, example=_example_create_change)
def create_change_request(
    ctx: Ctx,
    short_description: Title,
    type: ChangeType,
    risk: Risk,
    requested_by: Email,
    cmdb_ci_id: CiId,
    planned_start: DateTime,
    planned_end: DateTime,
    description: Text = "",
    assignment_group_id: GroupId | None = None,
) -> ChangeRequest:
    """Raise a change to a configuration item for a planned window.

    Standard changes are pre-approved and must be low risk. The window must
    end after it starts and may not start in the past. The item's support
    group implements the change unless another group is given.

    Args:
        short_description: What will change.
        type: standard, normal or emergency.
        risk: low, moderate or high.
        requested_by: E-mail of the employee asking for it.
        cmdb_ci_id: The configuration item to change.
        planned_start: Start of the window.
        planned_end: End of the window.
        description: Implementation and back-out plan.
        assignment_group_id: Group implementing it.
    """
    _user(ctx, requested_by, "requested_by", role="requester")
    ci = ctx.get(ConfigurationItem, cmdb_ci_id, field="cmdb_ci_id")
    if ci.operational_status == "retired":
        raise RuleViolation(f"configuration item {ci.name} is retired", field="cmdb_ci_id", hint="pick another item")
    if type == "standard" and risk != "low":
        raise RuleViolation(
            "standard changes are pre-approved and must be low risk",
            field="risk",
            hint="raise a normal change for moderate or high risk work",
        )
    if planned_end <= planned_start:
        raise RuleViolation("the window must end after it starts", field="planned_end", hint="pick a later end")
    if planned_start < ctx.now():
        raise RuleViolation("the window cannot start in the past", field="planned_start", hint="pick a future time")
    group = ctx.get(AssignmentGroup, assignment_group_id or ci.support_group_id, field="assignment_group_id")
    if group.kind == "cab":
        raise RuleViolation(
            "the Change Advisory Board approves changes but does not implement them",
            field="assignment_group_id",
            hint="pick the group that will do the work",
        )
    return ctx.create(
        ChangeRequest,
        short_description=short_description,
        description=description,
        type=type,
        risk=risk,
        requested_by=requested_by,
        assignment_group_id=group.id,
        cmdb_ci_id=ci.id,
        planned_start=planned_start,
        planned_end=planned_end,
    )


class ApprovalRound(BaseModel):
    """A change sent for approval."""

    change_request: ChangeRequest = Field(description="The change, now awaiting approval (or scheduled).")
    approvals: list[Approval] = Field(description="The approvals requested; none for a standard change.")


@service.tool(
    intent="send the change for approval",
    write=True,
    example=first_example(
        ChangeRequest,
        "change_request_id",
        where={"state": "new"},
        match=lambda ctx, chg: _overlapping(ctx, chg) is None,
    ),
)
def request_change_approval(ctx: Ctx, change_request_id: ChangeId) -> ApprovalRound:
    """Send a new change for approval; a standard change is scheduled at once.

    A normal change needs its group manager and every Change Advisory Board
    member; an emergency change its group manager alone. The requester never
    approves their own change. The window may not overlap another change to
    the same configuration item that is awaiting approval, scheduled or being
    implemented.

    Args:
        change_request_id: The change request.
    """
    chg = ctx.get(ChangeRequest, change_request_id, field="change_request_id")
    if chg.state != "new":
        raise RuleViolation(
            f"change {chg.number} is {chg.state}; only new changes are sent for approval",
            field="change_request_id",
            hint="a rejected change returns to new; list its approvals to see where it stands",
        )
    other = _overlapping(ctx, chg)
    if other is not None:
        raise Conflict(
            f"change {chg.number} overlaps {other.number} ({other.state}) on the same configuration item",
            field="change_request_id",
            hint=f"move the window outside {other.planned_start.isoformat()} - {other.planned_end.isoformat()}",
        )
    if chg.type == "standard":
        return ApprovalRound(change_request=ctx.update(chg, state="scheduled"), approvals=[])
    group = ctx.get(AssignmentGroup, chg.assignment_group_id)
    approvers = [group.manager_email]
    if chg.type == "normal":
        for cab in ctx.where(AssignmentGroup, kind="cab"):
            approvers.extend(cab.members)
    approvers = [a for a in dict.fromkeys(approvers) if a != chg.requested_by]
    if not approvers:
        raise RuleViolation(
            f"change {chg.number} has no approver other than its requester",
            field="change_request_id",
            hint="have someone else raise the change",
        )
    made = [
        ctx.create(Approval, document="change_request", change_request_id=chg.id, approver_email=a) for a in approvers
    ]
    return ApprovalRound(change_request=ctx.update(chg, state="authorize"), approvals=made)


class Decision(BaseModel):
    """An approval decided, and where its document stands."""

    approval: Approval = Field(description="The decided approval.")
    document_state: str = Field(description="The state of the change or request afterwards.")


@service.tool(
    intent="approve or reject",
    write=True,
    example=first_example(
        Approval,
        "approval_id",
        where={"state": "requested"},
        fields={"approver_email": "approver_email"},
        decision="approved",
    ),
)
def decide_approval(
    ctx: Ctx,
    approval_id: ApprovalId,
    approver_email: Email,
    decision: Literal["approved", "rejected"],
    comments: Text = "",
) -> Decision:
    """Record an approver's decision on a change or a catalog request.

    Only the named approver decides, once. A rejection needs a comment. For a
    change, one rejection sends it back to new (the other approvals lapse) and
    the last approval schedules it; a request is approved or rejected outright.

    Args:
        approval_id: The approval.
        approver_email: E-mail of the approver deciding.
        decision: approved or rejected.
        comments: The approver's comments; required to reject.
    """
    appr = ctx.get(Approval, approval_id, field="approval_id")
    if appr.state != "requested":
        raise RuleViolation(
            f"approval {appr.id} is already {appr.state}",
            field="approval_id",
            hint="list approvals with state='requested' to find open ones",
        )
    if approver_email != appr.approver_email:
        raise RuleViolation(
            f"{approver_email} is not the approver of {appr.id}",
            field="approver_email",
            hint=f"this approval is for {appr.approver_email}",
        )
    if decision == "rejected" and not comments.strip():
        raise RuleViolation("a rejection needs a comment", field="comments", hint="say why it is rejected")
    decided = ctx.update(appr, state=decision, comments=comments.strip(), decided_at=ctx.now())
    if appr.change_request_id is not None:
        chg = ctx.get(ChangeRequest, appr.change_request_id)
        if decision == "rejected":
            for other in ctx.where(Approval, change_request_id=chg.id, state="requested"):
                ctx.update(other, state="not_required")
            chg = ctx.update(chg, state="new")
        elif not ctx.where(Approval, change_request_id=chg.id, state="requested"):
            chg = ctx.update(chg, state="scheduled")
        return Decision(approval=decided, document_state=chg.state)
    req = ctx.get(RequestItem, appr.request_id or "")
    req = ctx.update(req, state="approved" if decision == "approved" else "rejected")
    return Decision(approval=decided, document_state=req.state)


class ChangeClosure(BaseModel):
    """A closed change and the incidents it released."""

    change_request: ChangeRequest = Field(description="The closed change.")
    resumed_incident_ids: list[IncidentId] = Field(description="Incidents that waited on it, now in progress again.")


@service.tool(
    intent="close the implemented change",
    write=True,
    example=first_example(
        ChangeRequest,
        "change_request_id",
        where={"state": "implement"},
        close_code="successful",
        close_notes="Completed in the window.",
    ),
)
def close_change_request(
    ctx: Ctx, change_request_id: ChangeId, close_code: ChangeCloseCode, close_notes: Text
) -> ChangeClosure:
    """Close a change that is being implemented, with its outcome.

    Incidents on hold awaiting this change go back to in_progress (their SLA
    resumes).

    Args:
        change_request_id: The change.
        close_code: successful, successful_with_issues or unsuccessful.
        close_notes: What happened.
    """
    chg = ctx.get(ChangeRequest, change_request_id, field="change_request_id")
    if chg.state != "implement":
        raise RuleViolation(
            f"change {chg.number} is {chg.state}; only changes being implemented are closed",
            field="change_request_id",
            hint="start it with servicedesk__implement_change_request, or cancel it",
        )
    if not close_notes.strip():
        raise RuleViolation("close notes are required", field="close_notes", hint="describe the outcome")
    closed = ctx.update(chg, state="closed", close_code=close_code, close_notes=close_notes.strip())
    resumed: list[str] = []
    for inc in ctx.where(Incident, change_request_id=chg.id, state="on_hold"):
        ctx.update(inc, state="in_progress", hold_reason=None, on_hold_since=None, sla_paused_minutes=_paused(ctx, inc))
        resumed.append(inc.id)
    return ChangeClosure(change_request=closed, resumed_incident_ids=resumed)


# -- requests ---------------------------------------------------------------------------------


@service.tool(intent="order an item from the IT catalog", write=True, example=_example_submit)
def submit_request(
    ctx: Ctx,
    sku: Sku,
    requested_for: Email,
    quantity: Annotated[int, Field(ge=1, le=100)] = 1,
    justification: Text = "",
) -> RequestItem:
    """Request a catalog item for an employee.

    The item must be active and the quantity within its per-request maximum.
    A total above the item's approval threshold waits for the fulfilment
    group manager's approval; otherwise the request is approved at once.

    Args:
        sku: SKU of the catalog item.
        requested_for: E-mail of the employee who gets it.
        quantity: Units (1 to the item's maximum).
        justification: Why it is needed.
    """
    item = ctx.first(CatalogItem, sku=sku)
    if item is None:
        raise NotFound(f"no catalog item with SKU {sku}", field="sku", hint="list catalog items to find its SKU")
    if not item.active:
        raise RuleViolation(f"{item.name} is no longer offered", field="sku", hint="pick an active catalog item")
    if quantity > item.max_quantity:
        raise RuleViolation(
            f"at most {item.max_quantity} of {item.name} per request",
            field="quantity",
            hint=f"request {item.max_quantity} or fewer",
        )
    _user(ctx, requested_for, "requested_for", role="employee")
    total = item.price * quantity
    needs = total > item.approval_over
    req = ctx.create(
        RequestItem,
        catalog_item_id=item.id,
        sku=item.sku,
        item_name=item.name,
        requested_for=requested_for,
        quantity=quantity,
        unit_price=item.price,
        total=total,
        currency=item.currency,
        justification=justification,
        state="awaiting_approval" if needs else "approved",
    )
    if needs:
        group = ctx.get(AssignmentGroup, item.fulfilment_group_id)
        ctx.create(Approval, document="request", request_id=req.id, approver_email=group.manager_email)
    return req


@service.tool(intent="fulfil the catalog request", write=True, example=_example_fulfill)
def fulfill_request(ctx: Ctx, request_id: RequestId, fulfilled_by: Email) -> RequestItem:
    """Mark an approved request as fulfilled (the item was handed over).

    Only approved requests are fulfilled, by an active member of the item's fulfilment group.

    Args:
        request_id: The request.
        fulfilled_by: E-mail of the group member who fulfilled it.
    """
    req = ctx.get(RequestItem, request_id, field="request_id")
    if req.state != "approved":
        hint = (
            "wait for the approval (list approvals with request_id)"
            if req.state == "awaiting_approval"
            else "it is already closed"
        )
        raise RuleViolation(
            f"request {req.number} is {req.state}; only approved requests are fulfilled",
            field="request_id",
            hint=hint,
        )
    item = ctx.get(CatalogItem, req.catalog_item_id)
    _member(ctx, ctx.get(AssignmentGroup, item.fulfilment_group_id), fulfilled_by, "fulfilled_by")
    return ctx.update(req, state="fulfilled", fulfilled_by=fulfilled_by)


# -- seed -------------------------------------------------------------------------------------

CIS: tuple[tuple[str, str, str, str], ...] = (
    ("mail-prod-01", "server", "infra", "operational"),
    ("vpn-gateway", "network", "infra", "operational"),
    ("core-switch-01", "network", "infra", "operational"),
    ("wifi-office", "network", "infra", "operational"),
    ("erp-db-01", "database", "infra", "operational"),
    ("Payroll application", "application", "apps", "operational"),
    ("CRM application", "application", "apps", "operational"),
    ("Expense portal", "application", "apps", "operational"),
    ("Intranet", "application", "apps", "operational"),
    ("build-server-02", "server", "infra", "non_operational"),
    ("fileserver-old", "server", "infra", "retired"),
    ("Laptop fleet", "laptop", "desk", "operational"),
)

INCIDENTS: tuple[tuple[str, str, str], ...] = (
    ("Cannot connect to VPN", "network", "vpn-gateway"),
    ("Laptop will not boot", "hardware", "Laptop fleet"),
    ("Payroll report shows wrong totals", "software", "Payroll application"),
    ("Password reset needed", "access", ""),
    ("E-mail not syncing on phone", "software", "mail-prod-01"),
    ("Wi-Fi keeps dropping in meeting rooms", "network", "wifi-office"),
    ("CRM is very slow", "software", "CRM application"),
    ("Need access to the expense portal", "access", "Expense portal"),
    ("Monitor flickers", "hardware", "Laptop fleet"),
    ("How do I book a meeting room?", "inquiry", "Intranet"),
)

STATES: tuple[IncidentState, ...] = (
    "new",
    "in_progress",
    "in_progress",
    "on_hold",
    "resolved",
    "closed",
    "in_progress",
    "new",
    "closed",
    "canceled",
)

CHANGES: tuple[tuple[ChangeType, Risk, ChangeState, str], ...] = (
    ("normal", "moderate", "authorize", "erp-db-01"),
    ("normal", "high", "scheduled", "core-switch-01"),
    ("emergency", "high", "implement", "vpn-gateway"),
    ("standard", "low", "scheduled", "Laptop fleet"),
    ("normal", "moderate", "new", "CRM application"),
    ("normal", "low", "closed", "mail-prod-01"),
    ("emergency", "moderate", "canceled", "Intranet"),
    ("normal", "moderate", "new", "Payroll application"),
    ("standard", "low", "new", "wifi-office"),
    ("normal", "high", "authorize", "mail-prod-01"),
)
"""The seeded changes: (type, risk, state, configuration item)."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Employees as users, IT groups, the CMDB, incidents in every state, changes with approvals, requests."""
    users = _seed_users(s)
    active = [u for u in users if u.active]
    managers = [u for u in active if any(w in u.title for w in LEAD_WORDS)][:5] or active[:3]
    grp = _seed_groups(s, active, managers)
    cis = _seed_configuration_items(s, grp, managers)
    # Changes first: incidents on hold may wait for them.
    changes_ = _seed_changes(s, grp, cis, active)
    waiting_on = next(c for c in changes_ if c.state == "scheduled")
    _seed_incidents(s, grp, cis, active, waiting_on)
    items = _seed_catalog(s, grp)
    _seed_requests(s, grp, items, active)


def _seed_users(s: SeedContext) -> list[User]:
    """Every employee; a few VIP managers and, every nineteenth, inactive."""
    users: list[User] = []
    for i, p in enumerate(s.population.employees):
        users.append(
            s.create(
                User,
                name=p.name,
                email=p.email,
                department=p.department or "",
                title=p.job_title,
                phone=p.phone,
                location=p.place.city,
                vip=any(w in p.job_title for w in ("Manager", "Controller")) and i % 3 == 0,
                active=i % 19 != 18,
            )
        )
    return users


def _team(active: list[User], *depts: str, n: int = 6) -> list[User]:
    """Up to n active users of the departments (of any department when none works there)."""
    found = [u for u in active if u.department in depts]
    return (found or active)[:n]


def _lead_of(members: list[User]) -> str:
    """The e-mail of the first member with a lead's title, else of the first member."""
    for u in members:
        if any(w in u.title for w in LEAD_WORDS):
            return u.email
    return members[0].email


def _seed_groups(s: SeedContext, active: list[User], managers: list[User]) -> dict[str, AssignmentGroup]:
    """The IT groups and the Change Advisory Board of the first managers, by name."""
    specs = (
        ("Service Desk", "incident", _team(active, "Support"), "First-line support for every employee."),
        ("Application Support", "incident", _team(active, "Engineering"), "Business applications and databases."),
        (
            "Network & Infrastructure",
            "incident",
            _team(active, "Engineering", "Operations")[::-1],
            "Servers and network.",
        ),
        (
            "Hardware Fulfilment",
            "fulfilment",
            _team(active, "Operations", "Finance"),
            "Laptops, monitors and accessories.",
        ),
    )
    grp: dict[str, AssignmentGroup] = {}
    for name, kind, members, desc in specs:
        grp[name] = s.create(
            AssignmentGroup,
            name=name,
            kind=kind,
            manager_email=_lead_of(members),
            members=tuple(u.email for u in members),
            description=desc,
        )
    cab = s.create(
        AssignmentGroup,
        name="Change Advisory Board",
        kind="cab",
        manager_email=managers[0].email,
        members=tuple(u.email for u in managers[:3]),
        description="Approves normal changes.",
    )
    grp[cab.name] = cab
    return grp


def _group_of(grp: dict[str, AssignmentGroup], group_id: str) -> AssignmentGroup:
    return next(g for g in grp.values() if g.id == group_id)


def _seed_configuration_items(
    s: SeedContext, grp: dict[str, AssignmentGroup], managers: list[User]
) -> dict[str, ConfigurationItem]:
    """The CMDB of CIS, by name, owned by the managers in turn."""
    support = {
        "infra": grp["Network & Infrastructure"],
        "apps": grp["Application Support"],
        "desk": grp["Service Desk"],
    }
    cis: dict[str, ConfigurationItem] = {}
    for k, (name, cls, team_key, status) in enumerate(CIS):
        cis[name] = s.create(
            ConfigurationItem,
            name=name,
            ci_class=cls,
            support_group_id=support[team_key].id,
            owned_by=managers[k % len(managers)].email,
            location=s.population.home.place.city,
            operational_status=status,
        )
    return cis


def _seed_changes(
    s: SeedContext, grp: dict[str, AssignmentGroup], cis: dict[str, ConfigurationItem], active: list[User]
) -> list[ChangeRequest]:
    """The CHANGES, each but the standard and new ones with the approvals its state implies."""
    now = s.now
    change_recs: list[ChangeRequest] = []
    for k, (ctype, risk, state, ci_name) in enumerate(CHANGES):
        ci = cis[ci_name]
        group = _group_of(grp, ci.support_group_id)
        requester = active[(k * 5 + 2) % len(active)]
        if state in ("closed", "canceled"):
            start = s.ago(days=10 + k)
        elif state == "implement":
            start = s.ago(hours=1)
        else:
            start = now + dt.timedelta(days=3 + 2 * k, hours=k % 5)
        opened = s.ago(days=14 - k)
        chg = s.create(
            ChangeRequest,
            short_description=f"{('Upgrade', 'Patch', 'Reconfigure', 'Replace')[k % 4]} {ci_name}",
            description="Implementation plan attached; back out by restoring the last snapshot.",
            type=ctype,
            risk=risk,
            requested_by=requester.email,
            assignment_group_id=group.id,
            cmdb_ci_id=ci.id,
            planned_start=start,
            planned_end=start + dt.timedelta(hours=2 + k % 3),
            state=state,
            close_code="successful" if state == "closed" else None,
            close_notes="Completed without issues." if state == "closed" else "",
            opened_at=opened,
            updated_at=opened + dt.timedelta(hours=4),
        )
        change_recs.append(chg)
        if ctype != "standard" and state != "new":
            _seed_change_approvals(s, chg, group, grp["Change Advisory Board"], opened)
    return change_recs


def _seed_change_approvals(
    s: SeedContext, chg: ChangeRequest, group: AssignmentGroup, cab: AssignmentGroup, opened: dt.datetime
) -> None:
    """The manager's (and for a normal change the board's) approvals; one awaiting change has the first given."""
    approvers = [group.manager_email] + (list(cab.members) if chg.type == "normal" else [])
    approvers = [a for a in dict.fromkeys(approvers) if a != chg.requested_by]
    for j, email in enumerate(approvers):
        if chg.state == "authorize":
            astate: ApprovalState = "approved" if j == 0 and len(approvers) > 1 else "requested"
        elif chg.state == "canceled":
            astate = "not_required"
        else:
            astate = "approved"
        s.create(
            Approval,
            document="change_request",
            change_request_id=chg.id,
            approver_email=email,
            state=astate,
            comments="Plan looks sound." if astate == "approved" else "",
            decided_at=opened + dt.timedelta(hours=6) if astate == "approved" else None,
            created_at=opened + dt.timedelta(hours=1),
        )


def _seed_incidents(
    s: SeedContext,
    grp: dict[str, AssignmentGroup],
    cis: dict[str, ConfigurationItem],
    active: list[User],
    waiting_on: ChangeRequest,
) -> None:
    """Incidents of INCIDENTS in the STATES, routed to their item's group; one on hold awaits a change."""
    rng, now = s.rng, s.now
    for k in range(44):
        title, cat, ci_name = INCIDENTS[k % len(INCIDENTS)]
        ist = STATES[(k * 3) % len(STATES)]
        caller = active[(k * 7 + 3) % len(active)]
        found_ci = cis.get(ci_name)
        inc_ci = found_ci if found_ci is not None and found_ci.operational_status != "retired" else None
        inc_group = grp["Service Desk"]
        if inc_ci is not None:
            inc_group = _group_of(grp, inc_ci.support_group_id)
        impact = 1 + (k * 5) % 3
        urgency = 1 + (k * 2 + 1) % 3
        opened = now - dt.timedelta(hours=rng.randint(1, 200))
        emails = [m for m in inc_group.members if any(u.email == m for u in active)]
        assignee = None if ist == "new" else emails[k % len(emails)]
        resolved = None
        if ist in ("resolved", "closed"):
            resolved = min(opened + dt.timedelta(hours=rng.randint(1, 60)), now - dt.timedelta(minutes=10))
        awaiting_change = ist == "on_hold" and k % 20 == 1
        hold: HoldReason | None = None
        if ist == "on_hold":
            hold = "awaiting_change" if awaiting_change else ("awaiting_caller", "awaiting_vendor")[(k // 20) % 2]
        s.create(
            Incident,
            short_description=title,
            description=f"Reported by {caller.name}: {title.lower()}.",
            caller_email=caller.email,
            caller_name=caller.name,
            category=cat,
            cmdb_ci_id=inc_ci.id if inc_ci else None,
            impact=impact,
            urgency=urgency,
            state=ist,
            assignment_group_id=inc_group.id,
            assigned_to=assignee,
            hold_reason=hold,
            change_request_id=waiting_on.id if awaiting_change else None,
            on_hold_since=now - dt.timedelta(hours=2) if ist == "on_hold" else None,
            close_code="solved_permanently" if resolved else None,
            close_notes="Fixed and confirmed with the caller." if resolved else "",
            resolved_at=resolved,
            opened_at=opened,
            updated_at=resolved or opened + dt.timedelta(minutes=30),
        )


def _seed_catalog(s: SeedContext, grp: dict[str, AssignmentGroup]) -> list[CatalogItem]:
    """Hardware from the shop's products (the last one retired), then software licences and access."""
    pop = s.population
    cur = pop.home.place.currency
    hardware = [p for p in pop.products if p.category in ("electronics", "office")][:10]
    items: list[CatalogItem] = []
    for k, prod in enumerate(hardware):
        items.append(
            s.create(
                CatalogItem,
                sku=prod.sku,
                name=prod.name,
                category="hardware",
                price=prod.price_cents,
                currency=cur,
                approval_over=500_00,
                max_quantity=3 if prod.category == "electronics" else 5,
                fulfilment_group_id=grp["Hardware Fulfilment"].id,
                active=k != len(hardware) - 1,
            )
        )
    for sku, name, price, cat in (
        ("SW-OFFICE-SUITE", "Office suite licence", 120_00, "software"),
        ("SW-DESIGN-PRO", "Design tool licence", 640_00, "software"),
        ("ACC-VPN", "VPN access", 0, "access"),
        ("ACC-ERP-READ", "ERP read access", 0, "access"),
    ):
        items.append(
            s.create(
                CatalogItem,
                sku=sku,
                name=name,
                category=cat,
                price=price,
                currency=cur,
                approval_over=500_00 if cat == "software" else 0,
                max_quantity=1 if cat == "access" else 10,
                fulfilment_group_id=grp["Service Desk"].id,
            )
        )
    return items


def _seed_requests(
    s: SeedContext, grp: dict[str, AssignmentGroup], items: list[CatalogItem], active: list[User]
) -> None:
    """Requests in every state; those above their item's threshold with the manager's approval."""
    now, cur = s.now, s.population.home.place.currency
    req_states: tuple[RequestState, ...] = ("approved", "awaiting_approval", "fulfilled", "approved", "rejected")
    for k in range(16):
        item = items[(k * 3) % len(items)]
        if not item.active:
            item = items[0]
        qty = 1 + k % min(3, item.max_quantity)
        total = item.price * qty
        rst = req_states[k % len(req_states)]
        needs = total > item.approval_over
        if not needs and rst in ("awaiting_approval", "rejected"):
            rst = "approved"
        fgroup = _group_of(grp, item.fulfilment_group_id)
        opened = now - dt.timedelta(days=1 + k % 9)
        req = s.create(
            RequestItem,
            catalog_item_id=item.id,
            sku=item.sku,
            item_name=item.name,
            requested_for=active[(k * 11 + 1) % len(active)].email,
            quantity=qty,
            unit_price=item.price,
            total=total,
            currency=cur,
            justification=("New starter", "Replacement for a broken unit", "Project work")[k % 3],
            state=rst,
            fulfilled_by=fgroup.members[k % len(fgroup.members)] if rst == "fulfilled" else None,
            opened_at=opened,
            updated_at=opened + dt.timedelta(hours=5),
        )
        if needs:
            decided = rst != "awaiting_approval"
            s.create(
                Approval,
                document="request",
                request_id=req.id,
                approver_email=fgroup.manager_email,
                state=("rejected" if rst == "rejected" else "approved") if decided else "requested",
                comments="Over budget this quarter." if rst == "rejected" else "",
                decided_at=opened + dt.timedelta(hours=3) if decided else None,
                created_at=opened,
            )
