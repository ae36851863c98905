"""Signalpost Status: public status pages with components, incidents and their updates, maintenances, subscribers.

Modeled on the Atlassian Statuspage REST API v1 (Pages, Components with
``status``, Incidents with ``status``, ``impact``, ``incident_updates`` and
``components``, Scheduled maintenances with ``scheduled_for`` /
``scheduled_until``, Subscribers with per-component subscriptions) and its
public ``/api/v2/summary.json``: a component affected by open incidents shows
the worst status they give it and returns to operational when they resolve
(an in-progress maintenance shows under_maintenance); an incident's impact
defaults to what its worst component status implies; resolved incidents and
completed maintenances take no more updates; maintenances cannot overlap on
a component and must be scheduled in the future; every update notifies the
confirmed subscribers of the affected components.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, DateTime, Email, IdOf, Phone, Quantity, Text, Timezone, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "statuspage",
    title="Signalpost Status",
    category="incident_management",
    modeled_on="Atlassian Statuspage REST API v1 (Page, Component, Incident, Incident update, Scheduled "
    "maintenance, Subscriber) and the public summary.json",
    description="Public status communication: the company's status pages with their components, incidents "
    "posted and updated until resolved, scheduled maintenance windows, and the customers subscribed to them.",
)

PageId = Annotated[str, IdOf("statuspage.page")]
ComponentId = Annotated[str, IdOf("statuspage.component")]
IncidentId = Annotated[str, IdOf("statuspage.incident")]
UpdateId = Annotated[str, IdOf("statuspage.incident_update")]
SubscriberId = Annotated[str, IdOf("statuspage.subscriber")]

ComponentStatus = Literal["operational", "degraded_performance", "partial_outage", "major_outage", "under_maintenance"]
OutageStatus = Literal["operational", "degraded_performance", "partial_outage", "major_outage"]
IncidentStatus = Literal["investigating", "identified", "monitoring", "resolved"]
MaintenanceStatus = Literal["scheduled", "in_progress", "verifying", "completed"]
Impact = Literal["none", "minor", "major", "critical"]
Kind = Literal["incident", "maintenance"]
ComponentName = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]

SEVERITY: dict[str, int] = {
    "operational": 0,
    "under_maintenance": 1,
    "degraded_performance": 2,
    "partial_outage": 3,
    "major_outage": 4,
}
IMPACT_OF: dict[str, Impact] = {
    "operational": "none",
    "under_maintenance": "none",
    "degraded_performance": "minor",
    "partial_outage": "major",
    "major_outage": "critical",
}
OPEN_INCIDENT: tuple[str, ...] = ("investigating", "identified", "monitoring")
OPEN_MAINTENANCE: tuple[str, ...] = ("scheduled", "in_progress", "verifying")


class Page(Record):
    """A status page."""

    id: PageId
    name: Title
    """Page name."""
    company: CompanyName
    """The company whose services it reports on."""
    url: Url
    """Public address of the page."""
    support_email: Email
    """Where customers write to about the service."""
    time_zone: Timezone = "UTC"
    """Time zone the page shows times in."""


class Component(Record):
    """A part of the service customers see the status of."""

    id: ComponentId
    page_id: PageId
    """The page."""
    name: ComponentName
    """Component name; unique on the page."""
    description: Text = ""
    """What it covers."""
    group: ComponentName | None = None
    """Group it is shown under."""
    status: ComponentStatus = "operational"
    """operational, degraded_performance, partial_outage, major_outage or under_maintenance."""
    only_show_if_degraded: bool = False
    """Hide it on the page while operational."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the status last changed."""


class AffectedComponent(Value):
    """A component an incident affects and the status it gives it."""

    component_id: ComponentId = Field(description="The component.")
    status: OutageStatus = Field(description="Status the incident gives it.")


class Incident(Record):
    """A realtime incident or a scheduled maintenance."""

    id: IncidentId
    page_id: PageId
    """The page."""
    kind: Kind = "incident"
    """incident (realtime) or maintenance (scheduled)."""
    name: Title
    """Title shown on the page."""
    status: IncidentStatus | MaintenanceStatus
    """incident: investigating, identified, monitoring, resolved; maintenance: scheduled, in_progress,
    verifying, completed."""
    impact: Impact = "none"
    """none, minor, major or critical."""
    components: list[AffectedComponent] = Field(default_factory=list)
    """Components affected and the status each gets (for maintenances: under maintenance while in progress)."""
    scheduled_for: DateTime | None = None
    """Maintenance start."""
    scheduled_until: DateTime | None = None
    """Maintenance end."""
    shortlink: Annotated[Url, Generated("sequence", "https://stspg.example/i/{n:05d}")]
    """Short link to the incident."""
    resolved_at: DateTime | None = None
    """When it was resolved or completed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was posted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it was last updated."""


class IncidentUpdate(Record):
    """A message posted on an incident."""

    id: UpdateId
    incident_id: IncidentId
    """The incident."""
    status: IncidentStatus | MaintenanceStatus
    """The incident's status with this update."""
    body: Text
    """The message."""
    notified: Quantity = 0
    """Subscribers notified of it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was posted."""


class Subscriber(Record):
    """Someone notified of a page's incidents."""

    id: SubscriberId
    page_id: PageId
    """The page."""
    email: Email
    """E-mail address; unique per page."""
    mode: Literal["email", "sms"] = "email"
    """How they are notified."""
    phone: Phone | None = None
    """Phone number for sms subscribers."""
    component_ids: tuple[ComponentId, ...] = ()
    """Components they follow; empty means every component."""
    confirmed: bool = False
    """Only confirmed subscribers are notified."""
    created_at: Annotated[DateTime, CREATED]
    """When they subscribed."""


# -- rules ------------------------------------------------------------------------------------


def _check_components(ctx: Ctx, page_id: str, ids: Any, field: str) -> None:
    seen: set[str] = set()
    for cid in ids:
        comp = ctx.find(Component, cid)
        if comp is None or comp.page_id != page_id:
            raise RuleViolation(
                f"{cid} is not a component of the page",
                field=field,
                hint="list the page's components with statuspage__list_components",
            )
        if cid in seen:
            raise RuleViolation(f"component {cid} is listed twice", field=field, hint="list each component once")
        seen.add(cid)


def _recompute(ctx: Ctx, page_id: str, component_ids: set[str]) -> None:
    """Set each component to the worst status its open incidents or in-progress maintenances give it."""
    worst: dict[str, str] = {cid: "operational" for cid in component_ids}
    for inc in ctx.where(Incident, page_id=page_id):
        if inc.kind == "incident" and inc.status in OPEN_INCIDENT:
            for ac in inc.components:
                if ac.component_id in worst and SEVERITY[ac.status] > SEVERITY[worst[ac.component_id]]:
                    worst[ac.component_id] = ac.status
        elif inc.kind == "maintenance" and inc.status in ("in_progress", "verifying"):
            for ac in inc.components:
                if ac.component_id in worst and SEVERITY[worst[ac.component_id]] < SEVERITY["under_maintenance"]:
                    worst[ac.component_id] = "under_maintenance"
    for cid, status in worst.items():
        comp = ctx.find(Component, cid)
        if comp is not None:
            ctx.update(comp, status=status)


def _notify(ctx: Ctx, page_id: str, component_ids: set[str]) -> int:
    n = 0
    for sub in ctx.where(Subscriber, page_id=page_id, confirmed=True):
        if not sub.component_ids or component_ids & set(sub.component_ids):
            n += 1
    return n


def _guard_component(ctx: Ctx, new: Any, old: Any) -> None:
    if any(c.id != new.id and c.name == new.name for c in ctx.where(Component, page_id=new.page_id)):
        raise Conflict(
            f"the page already has a component named {new.name!r}",
            field="name",
            hint="use the existing component or pick another name",
        )
    if new.status == "under_maintenance" and (old is None or old.status != "under_maintenance"):
        raise RuleViolation(
            "components go under maintenance only through a maintenance in progress",
            field="status",
            hint="schedule one with statuspage__schedule_maintenance and start it",
        )


def _guard_component_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for inc in ctx.where(Incident, page_id=old.page_id):
        still_open = inc.status in OPEN_INCIDENT or inc.status in OPEN_MAINTENANCE
        if still_open and any(ac.component_id == old.id for ac in inc.components):
            raise RuleViolation(
                f"component {old.name!r} is part of the open {inc.kind} {inc.name!r}",
                field="component_id",
                hint="resolve or complete it first",
            )
    for sub in ctx.where(Subscriber, page_id=old.page_id):
        if old.id in sub.component_ids:
            ctx.update(sub, component_ids=tuple(c for c in sub.component_ids if c != old.id))


def _guard_subscriber(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Page, new.page_id, field="page_id")
    if any(s.id != new.id and s.email == new.email for s in ctx.where(Subscriber, page_id=new.page_id)):
        raise Conflict(
            f"{new.email} is already subscribed to the page",
            field="email",
            hint="find the subscription with statuspage__list_subscribers",
        )
    if new.mode == "sms" and new.phone is None:
        raise RuleViolation("sms subscribers need a phone number", field="phone", hint="pass phone in E.164 form")
    _check_components(ctx, new.page_id, new.component_ids, "component_ids")


pages = service.resource(
    Page,
    name="page",
    plural="pages",
    prefix="page",
    create=False,
    get=False,
    filters=("company",),
    search=("name",),
    delete=False,
    title="status page",
)
components = service.resource(
    Component,
    name="component",
    plural="components",
    prefix="cmp",
    create=("page_id", "name", "description", "group", "only_show_if_degraded"),
    get=False,
    filters=("page_id", "status", "group"),
    search=("name", "description"),
    update=("name", "description", "group", "status", "only_show_if_degraded"),
    guard_create=_guard_component,
    guard_update=_guard_component,
    guard_delete=_guard_component_delete,
)
incidents = service.resource(
    Incident,
    name="incident",
    plural="incidents",
    prefix="inc",
    create=False,
    filters=("page_id", "kind", "status", "impact"),
    search=("name",),
    delete=False,
)
updates = service.resource(
    IncidentUpdate,
    name="incident_update",
    plural="incident_updates",
    prefix="upd",
    create=False,
    get=False,
    filters=("incident_id", "status"),
    search=("body",),
    delete=False,
    title="incident update",
)
subscribers = service.resource(
    Subscriber,
    name="subscriber",
    plural="subscribers",
    prefix="sub",
    create=("page_id", "email", "mode", "phone", "component_ids"),
    get=False,
    filters=("page_id", "email", "mode", "confirmed"),
    transitions={"confirm": Transition("confirmed", (False,), True, "confirm the subscription")},
    guard_create=_guard_subscriber,
)


# -- examples ---------------------------------------------------------------------------------


def _example_create_incident(ctx: Ctx) -> dict[str, Any] | None:
    comp = ctx.first(Component)
    if comp is None:
        return None
    return {
        "page_id": comp.page_id,
        "name": "Elevated error rates",
        "body": "We are investigating elevated error rates.",
        "components": [{"component_id": comp.id, "status": "partial_outage"}],
    }


def _example_update(ctx: Ctx) -> dict[str, Any] | None:
    for status in OPEN_INCIDENT:
        inc = ctx.first(Incident, kind="incident", status=status)
        if inc is not None:
            return {"incident_id": inc.id, "status": "resolved", "body": "This incident has been resolved."}
    return None


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    comp = ctx.first(Component)
    if comp is None:
        return None
    start = ctx.now() + dt.timedelta(days=20)
    return {
        "page_id": comp.page_id,
        "name": "Database upgrade",
        "body": "We will upgrade the primary database.",
        "scheduled_for": start.isoformat(),
        "scheduled_until": (start + dt.timedelta(hours=2)).isoformat(),
        "component_ids": [comp.id],
    }


# -- domain tools -----------------------------------------------------------------------------


class Posted(BaseModel):
    """An incident after an update, the update and the component statuses that follow."""

    incident: Incident = Field(description="The incident.")
    update: IncidentUpdate = Field(description="The update posted.")
    components: list[Component] = Field(description="The affected components with their statuses now.")


def _post(ctx: Ctx, inc: Incident, status: str, body: str, deliver: bool, touched: set[str]) -> Posted:
    affected = {ac.component_id for ac in inc.components}
    _recompute(ctx, inc.page_id, touched | affected)
    notified = _notify(ctx, inc.page_id, affected) if deliver else 0
    upd = ctx.create(IncidentUpdate, incident_id=inc.id, status=status, body=body, notified=notified)
    comps = [ctx.get(Component, cid) for cid in sorted(touched | affected) if ctx.find(Component, cid)]
    return Posted(incident=ctx.get(Incident, inc.id), update=upd, components=comps)


def _impact(components: list[AffectedComponent]) -> Impact:
    worst = max((SEVERITY[ac.status] for ac in components), default=0)
    status = next(k for k, v in SEVERITY.items() if v == worst)
    return IMPACT_OF[status]


@service.tool(intent="post an incident on the status page", write=True, example=_example_create_incident)
def create_incident(
    ctx: Ctx,
    page_id: PageId,
    name: Title,
    body: Text,
    components: Annotated[list[AffectedComponent], Field(max_length=50)] | None = None,
    status: Literal["investigating", "identified", "monitoring"] = "investigating",
    impact: Impact | None = None,
    deliver_notifications: bool = True,
) -> Posted:
    """Post a realtime incident with its first update; the affected components take the given statuses.

    Without an impact, it follows from the worst component status (degraded:
    minor, partial outage: major, major outage: critical).

    Args:
        page_id: The page.
        name: Incident title.
        body: First update's message.
        components: Affected components of the page and the status each gets.
        status: investigating, identified or monitoring.
        impact: none, minor, major or critical; omit to derive it.
        deliver_notifications: Notify the subscribers of the affected components.
    """
    page = ctx.get(Page, page_id, field="page_id")
    comps = list(components or ())
    _check_components(ctx, page.id, [ac.component_id for ac in comps], "components")
    inc = ctx.create(
        Incident,
        page_id=page.id,
        kind="incident",
        name=name,
        status=status,
        impact=impact or _impact(comps),
        components=comps,
    )
    return _post(ctx, inc, status, body, deliver_notifications, set())


@service.tool(intent="post an update on the incident", write=True, example=_example_update)
def update_incident(
    ctx: Ctx,
    incident_id: IncidentId,
    status: IncidentStatus,
    body: Text,
    components: Annotated[list[AffectedComponent], Field(max_length=50)] | None = None,
    deliver_notifications: bool = True,
) -> Posted:
    """Post an update on an open realtime incident, possibly changing its components' statuses.

    Resolving it returns its components to operational unless another open
    incident still affects them. Resolved incidents take no more updates.

    Args:
        incident_id: The incident.
        status: investigating, identified, monitoring or resolved.
        body: The update's message.
        components: New list of affected components and statuses; omit to keep the current one.
        deliver_notifications: Notify the subscribers of the affected components.
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if inc.kind != "incident":
        raise RuleViolation(
            f"{inc.name!r} is a scheduled maintenance",
            field="incident_id",
            hint="use statuspage__update_maintenance for maintenances",
        )
    if inc.status == "resolved":
        raise RuleViolation(
            f"incident {inc.name!r} is resolved and takes no more updates",
            field="incident_id",
            hint="post a new incident with statuspage__create_incident if the problem is back",
        )
    if not body.strip():
        raise RuleViolation("the update needs a message", field="body", hint="tell customers what changed")
    before = {ac.component_id for ac in inc.components}
    changes: dict[str, Any] = {"status": status}
    if components is not None:
        _check_components(ctx, inc.page_id, [ac.component_id for ac in components], "components")
        changes["components"] = list(components)
    if status == "resolved":
        changes["resolved_at"] = ctx.now()
    inc = ctx.update(inc, **changes)
    return _post(ctx, inc, status, body.strip(), deliver_notifications, before)


@service.tool(intent="schedule a maintenance window", write=True, example=_example_schedule)
def schedule_maintenance(
    ctx: Ctx,
    page_id: PageId,
    name: Title,
    body: Text,
    scheduled_for: DateTime,
    scheduled_until: DateTime,
    component_ids: Annotated[list[ComponentId], Field(min_length=1, max_length=50)],
    deliver_notifications: bool = True,
) -> Posted:
    """Schedule a maintenance window for components of a page.

    It must start in the future, end after it starts, last at most 24 hours,
    and not overlap another open maintenance of the same components.

    Args:
        page_id: The page.
        name: Maintenance title.
        body: Announcement.
        scheduled_for: Start.
        scheduled_until: End.
        component_ids: Components under maintenance.
        deliver_notifications: Notify the subscribers of those components.
    """
    page = ctx.get(Page, page_id, field="page_id")
    _check_components(ctx, page.id, component_ids, "component_ids")
    if scheduled_for <= ctx.now():
        raise RuleViolation("a maintenance must start in the future", field="scheduled_for", hint="pick a later start")
    if scheduled_until <= scheduled_for:
        raise RuleViolation("the end is not after the start", field="scheduled_until", hint="end after the start")
    if scheduled_until - scheduled_for > dt.timedelta(hours=24):
        raise RuleViolation(
            "a maintenance window lasts at most 24 hours", field="scheduled_until", hint="split it into several"
        )
    wanted = set(component_ids)
    for other in ctx.where(Incident, page_id=page.id, kind="maintenance"):
        if other.status not in OPEN_MAINTENANCE or other.scheduled_for is None or other.scheduled_until is None:
            continue
        shared = wanted & {ac.component_id for ac in other.components}
        if shared and other.scheduled_for < scheduled_until and scheduled_for < other.scheduled_until:
            raise Conflict(
                f"maintenance {other.name!r} already covers {sorted(shared)} at that time",
                field="scheduled_for",
                hint="pick a window that does not overlap it, or extend that maintenance instead",
            )
    inc = ctx.create(
        Incident,
        page_id=page.id,
        kind="maintenance",
        name=name,
        status="scheduled",
        impact="none",
        components=[AffectedComponent(component_id=c, status="operational") for c in dict.fromkeys(component_ids)],
        scheduled_for=scheduled_for,
        scheduled_until=scheduled_until,
    )
    return _post(ctx, inc, "scheduled", body, deliver_notifications, set())


MAINTENANCE_NEXT: dict[str, tuple[str, ...]] = {
    "scheduled": ("in_progress", "completed"),
    "in_progress": ("verifying", "completed"),
    "verifying": ("in_progress", "completed"),
}


@service.tool(
    intent="update the maintenance",
    write=True,
    example=first_example(
        Incident,
        "incident_id",
        where={"kind": "maintenance", "status": "scheduled"},
        status="in_progress",
        body="Work has started.",
    ),
)
def update_maintenance(
    ctx: Ctx,
    incident_id: IncidentId,
    status: Literal["in_progress", "verifying", "completed"],
    body: Text,
    deliver_notifications: bool = True,
) -> Posted:
    """Move a maintenance forward: scheduled → in_progress → verifying → completed (completing early cancels it).

    While in progress or verifying its components show under_maintenance; completing returns them.

    Args:
        incident_id: The maintenance.
        status: in_progress, verifying or completed.
        body: The update's message.
        deliver_notifications: Notify the subscribers of its components.
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if inc.kind != "maintenance":
        raise RuleViolation(
            f"{inc.name!r} is a realtime incident", field="incident_id", hint="use statuspage__update_incident"
        )
    allowed = MAINTENANCE_NEXT.get(inc.status, ())
    if status not in allowed:
        raise RuleViolation(
            f"maintenance {inc.name!r} is {inc.status} and cannot become {status}",
            field="status",
            hint=f"allowed next: {', '.join(allowed) or 'nothing (it is completed)'}",
        )
    changes: dict[str, Any] = {"status": status}
    if status == "completed":
        changes["resolved_at"] = ctx.now()
    inc = ctx.update(inc, **changes)
    return _post(ctx, inc, status, body, deliver_notifications, set())


class ComponentLine(BaseModel):
    """A component as the public page shows it."""

    id: ComponentId = Field(description="The component.")
    name: str = Field(description="Its name.")
    status: ComponentStatus = Field(description="Its status.")


class Summary(BaseModel):
    """What the public page shows now."""

    page_id: PageId = Field(description="The page.")
    indicator: Impact = Field(description="Overall: none, minor, major or critical.")
    description: str = Field(description="All Systems Operational, Minor Service Outage, Partial System Outage …")
    components: list[ComponentLine] = Field(description="Components shown (hidden operational ones left out).")
    open_incidents: list[IncidentId] = Field(description="Unresolved realtime incidents.")
    upcoming_maintenances: list[IncidentId] = Field(description="Scheduled maintenances that have not started.")
    active_maintenances: list[IncidentId] = Field(description="Maintenances in progress or verifying.")


@service.tool(intent="see the status page summary", example=first_example(Page, "page_id"))
def page_summary(ctx: Ctx, page_id: PageId) -> Summary:
    """The public summary of a page: overall indicator, component statuses, open incidents and maintenances.

    Args:
        page_id: The page.
    """
    page = ctx.get(Page, page_id, field="page_id")
    comps = ctx.where(Component, page_id=page.id)
    incs = ctx.where(Incident, page_id=page.id)
    open_incs = [i for i in incs if i.kind == "incident" and i.status in OPEN_INCIDENT]
    worst = max((SEVERITY[c.status] for c in comps), default=0)
    indicator: Impact = max(
        [IMPACT_OF[next(k for k, v in SEVERITY.items() if v == worst)], *(i.impact for i in open_incs)],
        key=("none", "minor", "major", "critical").index,
    )
    if worst == SEVERITY["major_outage"]:
        text = "Major System Outage"
    elif worst == SEVERITY["partial_outage"]:
        text = "Partial System Outage"
    elif worst == SEVERITY["degraded_performance"] or open_incs:
        text = "Minor Service Outage"
    elif worst == SEVERITY["under_maintenance"]:
        text = "Service Under Maintenance"
    else:
        text = "All Systems Operational"
    return Summary(
        page_id=page.id,
        indicator=indicator,
        description=text,
        components=[
            ComponentLine(id=c.id, name=c.name, status=c.status)
            for c in comps
            if not (c.only_show_if_degraded and c.status == "operational")
        ],
        open_incidents=[i.id for i in open_incs],
        upcoming_maintenances=[i.id for i in incs if i.kind == "maintenance" and i.status == "scheduled"],
        active_maintenances=[
            i.id for i in incs if i.kind == "maintenance" and i.status in ("in_progress", "verifying")
        ],
    )


# -- seed -------------------------------------------------------------------------------------

COMPONENTS: tuple[tuple[str, str, str | None, bool], ...] = (
    ("Website", "Marketing site and sign-up", None, False),
    ("Web app", "The customer web application", "Application", False),
    ("Mobile app", "iOS and Android apps", "Application", False),
    ("API", "Public REST API and webhooks", "Platform", False),
    ("Payments", "Checkout and billing", "Platform", False),
    ("Email delivery", "Notification e-mails", "Platform", True),
)


INCIDENTS: tuple[tuple[str, str, list[tuple[str, str]], float, list[str]], ...] = (
    (
        "Checkout errors for some card payments",
        "resolved",
        [("Payments", "partial_outage")],
        24 * 6,
        [
            "We are investigating failed card payments.",
            "A faulty deploy was identified.",
            "Fix deployed; monitoring.",
            "This incident has been resolved.",
        ],
    ),
    (
        "API latency",
        "resolved",
        [("API", "degraded_performance")],
        24 * 2,
        ["API requests are slower than usual.", "Resolved: a database index was rebuilt."],
    ),
    (
        "Delayed notification e-mails",
        "identified",
        [("Email delivery", "degraded_performance")],
        3,
        ["Notification e-mails are delayed.", "Our e-mail provider has a backlog; we are working with them."],
    ),
)
"""Seeded incidents: (name, status, affected components and their status, hours ago, one update an hour)."""


@service.seeder
def seed(s: SeedContext) -> None:
    """The company's public status page, its components, past and open incidents, maintenances, subscribers."""
    page = _seed_pages(s)
    comps = _seed_components(s, page)
    for name, status, affected, hours_ago, story in INCIDENTS:
        _seed_incident(s, page, comps, name, status, affected, hours_ago, story)
    _seed_maintenances(s, page, comps)
    _seed_subscribers(s, page, [c.id for c in comps.values()])


def _seed_pages(s: SeedContext) -> Page:
    """The public status page (returned) and an internal one."""
    pop = s.population
    home = pop.home
    support = pop.staff("Support", fallback=1)[0]
    page = s.create(
        Page,
        name=f"{home.name} Status",
        company=home.name,
        url=f"https://status.{home.domain}",
        support_email=f"support@{home.domain}",
        time_zone=home.place.timezone,
    )
    s.create(
        Page,
        name=f"{home.name} Internal Tools",
        company=home.name,
        url=f"https://internal-status.{home.domain}",
        support_email=support.email,
        time_zone=home.place.timezone,
    )
    return page


def _seed_components(s: SeedContext, page: Page) -> dict[str, Component]:
    return {
        name: s.create(
            Component,
            page_id=page.id,
            name=name,
            description=desc,
            group=group,
            only_show_if_degraded=hidden,
            updated_at=s.ago(days=10),
        )
        for name, desc, group, hidden in COMPONENTS
    }


def _seed_incident(
    s: SeedContext,
    page: Page,
    comps: dict[str, Component],
    name: str,
    status: str,
    affected: list[tuple[str, str]],
    hours_ago: float,
    story: list[str],
) -> None:
    """An incident with an update an hour for each line of its story; an open one sets its components' status."""
    acs = [AffectedComponent(component_id=comps[c].id, status=st) for c, st in affected]
    created = s.ago(hours=hours_ago)
    inc = s.create(
        Incident,
        page_id=page.id,
        kind="incident",
        name=name,
        status=status,
        impact=_impact(acs),
        components=acs,
        resolved_at=created + dt.timedelta(hours=len(story)) if status == "resolved" else None,
        created_at=created,
        updated_at=created + dt.timedelta(hours=len(story) - 1),
    )
    statuses = ["investigating", "identified", "monitoring", "resolved"]
    for k, body in enumerate(story):
        st = statuses[k] if status == "resolved" and k < len(story) - 1 else statuses[min(k, 3)]
        if k == len(story) - 1:
            st = status
        s.create(
            IncidentUpdate,
            incident_id=inc.id,
            status=st,
            body=body,
            notified=3 + k,
            created_at=created + dt.timedelta(hours=k),
        )
    if status != "resolved":
        for c, st in affected:
            comps[c] = s.update(comps[c], status=st, updated_at=created)


def _seed_maintenances(s: SeedContext, page: Page, comps: dict[str, Component]) -> None:
    """Two upcoming maintenances and a completed one."""
    now = s.now
    for k, (name, days, hours, comp_names, status) in enumerate(
        (
            ("Database upgrade", 5, 2, ["Web app", "API"], "scheduled"),
            ("Mobile push service migration", 12, 4, ["Mobile app"], "scheduled"),
            ("Payment provider certificate rotation", -20, 1, ["Payments"], "completed"),
        )
    ):
        start = now + dt.timedelta(days=days)
        inc = s.create(
            Incident,
            page_id=page.id,
            kind="maintenance",
            name=name,
            status=status,
            impact="none",
            components=[AffectedComponent(component_id=comps[c].id, status="operational") for c in comp_names],
            scheduled_for=start,
            scheduled_until=start + dt.timedelta(hours=hours),
            resolved_at=start + dt.timedelta(hours=hours) if status == "completed" else None,
            created_at=s.ago(days=30 - k),
            updated_at=s.ago(days=30 - k),
        )
        s.create(
            IncidentUpdate,
            incident_id=inc.id,
            status=status,
            body=f"{name}: scheduled maintenance.",
            notified=5,
            created_at=s.ago(days=30 - k),
        )


def _seed_subscribers(s: SeedContext, page: Page, component_ids: list[str]) -> None:
    """Business contacts and consumers, following the whole page or one component; a few unconfirmed."""
    pop = s.population
    for k, person in enumerate(list(pop.contacts[:24]) + list(pop.consumers[:8])):
        sms = k % 7 == 3
        s.create(
            Subscriber,
            page_id=page.id,
            email=person.email,
            mode="sms" if sms else "email",
            phone=person.phone if sms else None,
            component_ids=() if k % 3 == 0 else (component_ids[k % len(component_ids)],),
            confirmed=k % 5 != 4,
            created_at=s.ago(days=60 + k),
        )
