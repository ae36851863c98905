"""Trailmark Analytics: product analytics with tracked events, user profiles, a lexicon, cohorts and funnels.

Modeled on the Mixpanel APIs (Ingestion ``/track`` with its five-day window,
Engage profile ``$set``, ``$merge`` of identities, Lexicon event definitions,
Cohorts, Funnels and Segmentation queries) with Amplitude's "block unplanned
events" schema setting: events may only be tracked for the last five days and
never in the future, names starting with '$' are reserved, projects that
enforce their schema accept only events defined in the lexicon and drop hidden
ones, a profile's e-mail is unique in its project, merging moves an anonymous
id's events to a known user, deleting a profile deletes its events, and
funnels count users who do the steps in order within the conversion window.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    Percent,
    PersonName,
    Sku,
    Text,
    Timezone,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.time import utc_at
from compoworld.world.commerce import first_order_numbers

__all__ = ["service"]

service = Service(
    "analytics",
    title="Trailmark Analytics",
    category="analytics",
    modeled_on="Mixpanel Ingestion /track, Engage $set/$merge, Lexicon, Cohorts, Funnels and Segmentation APIs, "
    "with Amplitude's block-unplanned-events schema setting",
    description="Product analytics for the home company's web shop and customer app: tracked events with "
    "order, product and revenue properties, user profiles, an event lexicon, cohorts, funnels with "
    "conversion windows and event segmentation by day.",
)

ProjectId = Annotated[str, IdOf("analytics.project")]
DefinitionId = Annotated[str, IdOf("analytics.event_definition")]
ProfileId = Annotated[str, IdOf("analytics.profile")]
EventId = Annotated[str, IdOf("analytics.event")]
CohortId = Annotated[str, IdOf("analytics.cohort")]
FunnelId = Annotated[str, IdOf("analytics.funnel")]
EventName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
DistinctId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:@-]{1,80}$")]
Plan = Literal["free", "starter", "pro", "enterprise"]
TRACK_WINDOW = dt.timedelta(days=5)


class Project(Created):
    """An analytics project: one product whose events and users are analysed together."""

    id: ProjectId
    name: Title
    """Project name."""
    timezone: Timezone = "UTC"
    """Time zone reports count days in."""
    owner_email: Email
    """E-mail of the project owner."""
    enforce_schema: bool = False
    """Whether only events defined in the lexicon are accepted."""


class EventDefinition(Record):
    """A lexicon entry: an event the project plans to track."""

    id: DefinitionId
    project_id: ProjectId
    """The project."""
    name: EventName
    """Event name; unique in the project."""
    description: Text = ""
    """What the event means."""
    hidden: bool = False
    """Hidden events are dropped when tracked."""
    verified: bool = False
    """Whether the data team has verified the event."""


class Profile(Record):
    """A user profile: who is behind a distinct id."""

    id: ProfileId
    project_id: ProjectId
    """The project."""
    distinct_id: DistinctId
    """The id events are tracked under; unique in the project."""
    email: Email | None = None
    """E-mail address ($email); unique in the project."""
    name: PersonName | None = None
    """Full name ($name)."""
    company: CompanyName | None = None
    """Company the user works for."""
    plan: Plan | None = None
    """Subscription plan."""
    country: Country | None = None
    """Country code."""
    city: City | None = None
    """City."""
    first_seen: DateTime | None = None
    """First event."""
    last_seen: DateTime | None = None
    """Latest event."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the profile last changed."""


class Event(Record):
    """A tracked event with its standard properties."""

    id: EventId
    project_id: ProjectId
    """The project."""
    name: EventName
    """Event name."""
    distinct_id: DistinctId
    """Who did it."""
    time: DateTime
    """When it happened."""
    page_url: Url | None = None
    """Page it happened on."""
    sku: Sku | None = None
    """Product involved."""
    order_number: OrderNumber | None = None
    """Order involved."""
    revenue: Cents | None = None
    """Revenue in cents."""
    currency: Currency | None = None
    """Currency of the revenue."""
    received_at: Annotated[DateTime, CREATED]
    """When it was ingested."""


class Cohort(Record):
    """A saved group of users: who did an event often enough lately, optionally with a plan or country."""

    id: CohortId
    project_id: ProjectId
    """The project."""
    name: Title
    """Cohort name."""
    event_name: EventName
    """The event members did."""
    min_count: Annotated[int, Field(ge=1, le=1000)] = 1
    """At least this many times."""
    within_days: Annotated[int, Field(ge=1, le=365)] = 30
    """In the last this many days."""
    plan: Plan | None = None
    """Only profiles on this plan."""
    country: Country | None = None
    """Only profiles in this country."""


class Funnel(Record):
    """A saved funnel: events users should do in order."""

    id: FunnelId
    project_id: ProjectId
    """The project."""
    name: Title
    """Funnel name."""
    steps: Annotated[tuple[EventName, ...], Field(min_length=2, max_length=6)]
    """2 to 6 events in order."""
    conversion_window_days: Annotated[int, Field(ge=1, le=90)] = 7
    """Days a user has from the first step to finish."""


# -- rules ------------------------------------------------------------------------------------


def _defined(ctx: Ctx, project_id: str, name: str) -> EventDefinition | None:
    return ctx.first(EventDefinition, project_id=project_id, name=name)


def _check_event_name(ctx: Ctx, project: Project, name: str, field: str) -> None:
    if name.startswith("$"):
        raise RuleViolation(f"event names starting with '$' are reserved ({name})", field=field, hint="drop the '$'")
    if project.enforce_schema and _defined(ctx, project.id, name) is None:
        raise RuleViolation(
            f"project {project.name} only accepts events in its lexicon; {name} is not defined",
            field=field,
            hint="define it with analytics__create_event_definition, or use a defined event",
        )


def _guard_definition(ctx: Ctx, new: Any, old: Any) -> None:
    if new.name.startswith("$"):
        raise RuleViolation("names starting with '$' are reserved", field="name", hint="drop the '$'")
    for other in ctx.where(EventDefinition, project_id=new.project_id, name=new.name):
        if other.id != new.id:
            raise Conflict(f"the lexicon already defines {new.name}", field="name", hint="update that definition")


def _guard_funnel(ctx: Ctx, new: Any, old: Any) -> None:
    if not 2 <= len(new.steps) <= 6:
        raise RuleViolation("a funnel has 2 to 6 steps", field="steps", hint="give 2 to 6 event names")
    project = ctx.get(Project, new.project_id, field="project_id")
    for k, name in enumerate(new.steps):
        if k and name == new.steps[k - 1]:
            raise RuleViolation("a step repeats the one before it", field=f"steps.{k}", hint="merge the two steps")
        if project.enforce_schema and _defined(ctx, project.id, name) is None:
            raise RuleViolation(
                f"{name} is not in the project's lexicon", field=f"steps.{k}", hint="use defined events"
            )


def _guard_cohort(ctx: Ctx, new: Any, old: Any) -> None:
    project = ctx.get(Project, new.project_id, field="project_id")
    if project.enforce_schema and _defined(ctx, project.id, new.event_name) is None:
        raise RuleViolation(
            f"{new.event_name} is not in the project's lexicon", field="event_name", hint="use a defined event"
        )


def _guard_profile_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for e in ctx.where(Event, project_id=old.project_id, distinct_id=old.distinct_id):
        ctx.delete(e)


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="prj",
    create=False,
    filters=("owner_email",),
    search=("name",),
    update=("name", "timezone", "enforce_schema"),
    delete=False,
)
definitions = service.resource(
    EventDefinition,
    name="event_definition",
    plural="event_definitions",
    prefix="def",
    create=("project_id", "name", "description"),
    get=False,
    filters=("project_id", "name", "hidden", "verified"),
    search=("name", "description"),
    update=("description", "hidden", "verified"),
    delete=False,
    guard_create=_guard_definition,
    title="event definition",
)
profiles = service.resource(
    Profile,
    name="profile",
    plural="profiles",
    prefix="prf",
    create=False,
    filters=("project_id", "distinct_id", "email", "plan", "country", "company"),
    search=("name", "email", "company"),
    guard_delete=_guard_profile_delete,
    title="user profile",
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    get=False,
    filters=("project_id", "name", "distinct_id", "sku", "order_number"),
    delete=False,
)
cohorts = service.resource(
    Cohort,
    name="cohort",
    plural="cohorts",
    prefix="coh",
    create=("project_id", "name", "event_name", "min_count", "within_days", "plan", "country"),
    get=False,
    filters=("project_id", "event_name"),
    search=("name",),
    update=("name", "min_count", "within_days", "plan", "country"),
    guard_create=_guard_cohort,
    guard_update=_guard_cohort,
)
funnels = service.resource(
    Funnel,
    name="funnel",
    plural="funnels",
    prefix="fnl",
    create=("project_id", "name", "steps", "conversion_window_days"),
    get=False,
    filters=("project_id",),
    search=("name",),
    guard_create=_guard_funnel,
)


# -- examples ---------------------------------------------------------------------------------


def _example_track(ctx: Ctx) -> dict[str, Any] | None:
    for project in ctx.scan(Project):
        name = "page_viewed"
        if project.enforce_schema:
            d = next((d for d in ctx.where(EventDefinition, project_id=project.id) if not d.hidden), None)
            if d is None:
                continue
            name = d.name
        profile = ctx.first(Profile, project_id=project.id)
        if profile is not None:
            return {"project_id": project.id, "event": name, "distinct_id": profile.distinct_id}
    return None


def _example_merge(ctx: Ctx) -> dict[str, Any] | None:
    for anon in ctx.scan(Profile):
        if anon.email is None:
            known = next((p for p in ctx.where(Profile, project_id=anon.project_id) if p.email is not None), None)
            if known is not None:
                return {
                    "project_id": anon.project_id,
                    "anonymous_id": anon.distinct_id,
                    "distinct_id": known.distinct_id,
                }
    return None


def _example_funnel(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(Funnel)
    if f is None:
        return None
    return {"funnel_id": f.id, "from_date": str(ctx.today() - dt.timedelta(days=30)), "to_date": str(ctx.today())}


def _example_segment(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Event)
    if e is None:
        return None
    return {
        "project_id": e.project_id,
        "event": e.name,
        "from_date": str(ctx.today() - dt.timedelta(days=13)),
        "to_date": str(ctx.today()),
    }


# -- domain tools -----------------------------------------------------------------------------


def _touch(ctx: Ctx, project_id: str, distinct_id: str, when: dt.datetime) -> None:
    profile = ctx.first(Profile, project_id=project_id, distinct_id=distinct_id)
    if profile is None:
        return
    first = min(profile.first_seen or when, when)
    last = max(profile.last_seen or when, when)
    if (first, last) != (profile.first_seen, profile.last_seen):
        ctx.update(profile, first_seen=first, last_seen=last)


@service.tool(intent="track an analytics event", write=True, example=_example_track)
def track_event(
    ctx: Ctx,
    project_id: ProjectId,
    event: EventName,
    distinct_id: DistinctId,
    time: DateTime | None = None,
    page_url: Url | None = None,
    sku: Sku | None = None,
    order_number: OrderNumber | None = None,
    revenue: Cents | None = None,
    currency: Currency | None = None,
) -> Event:
    """Track one event for a user, at most five days back and never in the future.

    Projects that enforce their schema only take events defined in the
    lexicon; events defined as hidden are refused. Revenue needs a currency.

    Args:
        project_id: The project.
        event: The event name ('$' names are reserved).
        distinct_id: The user's distinct id.
        time: When it happened (default: now).
        page_url: Page it happened on.
        sku: Product involved.
        order_number: Order involved.
        revenue: Revenue in cents.
        currency: Currency of the revenue.
    """
    project = ctx.get(Project, project_id, field="project_id")
    _check_event_name(ctx, project, event, "event")
    definition = _defined(ctx, project.id, event)
    if definition is not None and definition.hidden:
        raise RuleViolation(
            f"{event} is hidden in the lexicon and its events are dropped",
            field="event",
            hint="unhide it with analytics__update_event_definition first",
        )
    now = ctx.now()
    when = time or now
    if when > now:
        raise RuleViolation("events cannot be tracked in the future", field="time", hint="use the time it happened")
    if now - when > TRACK_WINDOW:
        raise RuleViolation(
            "events older than five days cannot be tracked", field="time", hint="only the last five days are accepted"
        )
    if (revenue is None) != (currency is None):
        raise RuleViolation(
            "revenue and currency go together", field="currency", hint="give both revenue and currency, or neither"
        )
    made = ctx.create(
        Event,
        project_id=project.id,
        name=event,
        distinct_id=distinct_id,
        time=when,
        page_url=page_url,
        sku=sku,
        order_number=order_number,
        revenue=revenue,
        currency=currency,
    )
    _touch(ctx, project.id, distinct_id, when)
    return made


@service.tool(
    intent="set properties on the user's profile",
    write=True,
    idempotent=True,
    example=first_example(Project, "project_id", distinct_id="new-user-1", plan="free"),
)
def set_profile(
    ctx: Ctx,
    project_id: ProjectId,
    distinct_id: DistinctId,
    email: Email | None = None,
    name: PersonName | None = None,
    company: CompanyName | None = None,
    plan: Plan | None = None,
    country: Country | None = None,
    city: City | None = None,
) -> Profile:
    """Create a user's profile or set properties on it (omitted properties keep their values).

    An e-mail belongs to one profile of a project.

    Args:
        project_id: The project.
        distinct_id: The user's distinct id.
        email: E-mail address.
        name: Full name.
        company: Company name.
        plan: Subscription plan.
        country: Country code.
        city: City.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if email is not None:
        other = ctx.first(Profile, project_id=project.id, email=email)
        if other is not None and other.distinct_id != distinct_id:
            raise Conflict(
                f"{email} already belongs to profile {other.distinct_id}",
                field="email",
                hint="merge the identities with analytics__merge_identities instead",
            )
    changes = {
        k: v
        for k, v in (
            ("email", email),
            ("name", name),
            ("company", company),
            ("plan", plan),
            ("country", country),
            ("city", city),
        )
        if v is not None
    }
    profile = ctx.first(Profile, project_id=project.id, distinct_id=distinct_id)
    if profile is None:
        seen = [e.time for e in ctx.where(Event, project_id=project.id, distinct_id=distinct_id)]
        return ctx.create(
            Profile,
            project_id=project.id,
            distinct_id=distinct_id,
            first_seen=min(seen, default=None),
            last_seen=max(seen, default=None),
            **changes,
        )
    if not changes:
        raise RuleViolation("nothing to set", field=None, hint="give at least one property")
    return ctx.update(profile, **changes)


class Merge(BaseModel):
    """The result of merging two identities."""

    profile: Profile = Field(description="The surviving profile.")
    events_moved: int = Field(description="Events moved from the anonymous id.")


@service.tool(intent="merge the anonymous visitor into the known user", write=True, example=_example_merge)
def merge_identities(ctx: Ctx, project_id: ProjectId, anonymous_id: DistinctId, distinct_id: DistinctId) -> Merge:
    """Merge an anonymous id into a known user: its events move to the user and its profile is removed.

    An id with an e-mail on its profile is not anonymous and is not merged away.

    Args:
        project_id: The project.
        anonymous_id: The anonymous (device) id.
        distinct_id: The known user's distinct id.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if anonymous_id == distinct_id:
        raise RuleViolation("an id cannot be merged into itself", field="anonymous_id", hint="give two different ids")
    target = ctx.first(Profile, project_id=project.id, distinct_id=distinct_id)
    if target is None:
        raise RuleViolation(
            f"no profile with distinct id {distinct_id}",
            field="distinct_id",
            hint="create it with analytics__set_profile",
        )
    anon = ctx.first(Profile, project_id=project.id, distinct_id=anonymous_id)
    if anon is not None and anon.email is not None:
        raise RuleViolation(
            f"{anonymous_id} is an identified user ({anon.email})",
            field="anonymous_id",
            hint="only anonymous ids are merged into known users",
        )
    moved = ctx.where(Event, project_id=project.id, distinct_id=anonymous_id)
    if not moved and anon is None:
        raise RuleViolation(
            f"nothing is known about {anonymous_id}", field="anonymous_id", hint="check the anonymous id"
        )
    for e in moved:
        ctx.update(e, distinct_id=distinct_id)
        _touch(ctx, project.id, distinct_id, e.time)
    if anon is not None:
        ctx.delete(anon)
    profile = ctx.get(Profile, target.id)
    return Merge(profile=profile, events_moved=len(moved))


class CohortMembers(BaseModel):
    """The users in a cohort right now."""

    cohort_id: CohortId = Field(description="The cohort.")
    count: int = Field(description="Members.")
    distinct_ids: list[str] = Field(description="Their distinct ids, sorted.")
    emails: list[Email] = Field(description="E-mail addresses of members with one, sorted.")


@service.tool(intent="list the users in the cohort")
def cohort_members(ctx: Ctx, cohort_id: CohortId) -> CohortMembers:
    """Compute who is in a cohort now: users with at least min_count of the event in the last within_days.

    Args:
        cohort_id: The cohort.
    """
    cohort = ctx.get(Cohort, cohort_id, field="cohort_id")
    since = ctx.now() - dt.timedelta(days=cohort.within_days)
    counts: dict[str, int] = {}
    for e in ctx.where(Event, project_id=cohort.project_id, name=cohort.event_name):
        if e.time >= since:
            counts[e.distinct_id] = counts.get(e.distinct_id, 0) + 1
    members: list[str] = []
    emails: list[str] = []
    for did in sorted(counts):
        if counts[did] < cohort.min_count:
            continue
        profile = ctx.first(Profile, project_id=cohort.project_id, distinct_id=did)
        if cohort.plan is not None and (profile is None or profile.plan != cohort.plan):
            continue
        if cohort.country is not None and (profile is None or profile.country != cohort.country):
            continue
        members.append(did)
        if profile is not None and profile.email is not None:
            emails.append(profile.email)
    return CohortMembers(cohort_id=cohort.id, count=len(members), distinct_ids=members, emails=sorted(emails))


class FunnelStep(BaseModel):
    """Users reaching one step."""

    event: str = Field(description="The step's event.")
    users: int = Field(description="Users who reached it in order, within the window.")
    conversion_from_previous: Percent = Field(description="Share of the previous step's users, in percent.")


class FunnelResult(BaseModel):
    """A funnel computed over a period."""

    funnel_id: FunnelId = Field(description="The funnel.")
    from_date: Date = Field(description="First day a first step may happen.")
    to_date: Date = Field(description="Last day a first step may happen.")
    steps: list[FunnelStep] = Field(description="Per step, in order.")
    overall_conversion: Percent = Field(description="Users finishing per user starting, in percent.")


def _span(from_date: dt.date, to_date: dt.date) -> tuple[dt.datetime, dt.datetime]:
    if to_date < from_date:
        raise RuleViolation("the period ends before it starts", field="to_date", hint="swap the dates")
    if (to_date - from_date).days > 366:
        raise RuleViolation("a query covers at most 366 days", field="to_date", hint="ask for a shorter period")
    start = utc_at(from_date)
    return start, start + dt.timedelta(days=(to_date - from_date).days + 1)


@service.tool(intent="compute the funnel's conversion", example=_example_funnel)
def compute_funnel(ctx: Ctx, funnel_id: FunnelId, from_date: Date, to_date: Date) -> FunnelResult:
    """Count the users who did the funnel's steps in order, each within the conversion window of their first step.

    A user enters with their first first-step event in the period.

    Args:
        funnel_id: The funnel.
        from_date: First day of the period.
        to_date: Last day of the period.
    """
    funnel = ctx.get(Funnel, funnel_id, field="funnel_id")
    start, end = _span(from_date, to_date)
    window = dt.timedelta(days=funnel.conversion_window_days)
    by_user: dict[str, list[Event]] = {}
    for name in set(funnel.steps):
        for e in ctx.where(Event, project_id=funnel.project_id, name=name):
            by_user.setdefault(e.distinct_id, []).append(e)
    reached = [0] * len(funnel.steps)
    for did in sorted(by_user):
        evs = sorted(by_user[did], key=lambda e: (e.time, e.id))
        entry = next((e for e in evs if e.name == funnel.steps[0] and start <= e.time < end), None)
        if entry is None:
            continue
        reached[0] += 1
        at = entry.time
        for k in range(1, len(funnel.steps)):
            nxt = next((e for e in evs if e.name == funnel.steps[k] and at < e.time <= entry.time + window), None)
            if nxt is None:
                break
            reached[k] += 1
            at = nxt.time
    steps = [
        FunnelStep(
            event=name,
            users=reached[k],
            conversion_from_previous=100.0
            if k == 0
            else (round(100 * reached[k] / reached[k - 1], 1) if reached[k - 1] else 0.0),
        )
        for k, name in enumerate(funnel.steps)
    ]
    overall = round(100 * reached[-1] / reached[0], 1) if reached[0] else 0.0
    return FunnelResult(
        funnel_id=funnel.id, from_date=from_date, to_date=to_date, steps=steps, overall_conversion=overall
    )


class DayCount(BaseModel):
    """One day of an event."""

    date: Date = Field(description="The day (UTC).")
    events: int = Field(description="Events that day.")
    unique_users: int = Field(description="Distinct users that day.")


class Segmentation(BaseModel):
    """An event's volume over a period."""

    project_id: ProjectId = Field(description="The project.")
    event: str = Field(description="The event.")
    days: list[DayCount] = Field(description="Per day, in order.")
    total_events: int = Field(description="Events in the period.")
    unique_users: int = Field(description="Distinct users in the period.")
    revenue: list[RevenueTotal] = Field(description="Revenue of the events per currency.")


class RevenueTotal(BaseModel):
    """Revenue in one currency."""

    currency: Currency = Field(description="The currency.")
    amount: Cents = Field(description="Total in cents.")


Segmentation.model_rebuild()


@service.tool(intent="count the event by day", example=_example_segment)
def segmentation(ctx: Ctx, project_id: ProjectId, event: EventName, from_date: Date, to_date: Date) -> Segmentation:
    """Count an event per day over a period, with unique users and revenue.

    Args:
        project_id: The project.
        event: The event name.
        from_date: First day.
        to_date: Last day.
    """
    project = ctx.get(Project, project_id, field="project_id")
    start, end = _span(from_date, to_date)
    evs = [e for e in ctx.where(Event, project_id=project.id, name=event) if start <= e.time < end]
    days: list[DayCount] = []
    for k in range((to_date - from_date).days + 1):
        day = from_date + dt.timedelta(days=k)
        todays = [e for e in evs if e.time.date() == day]
        days.append(DayCount(date=day, events=len(todays), unique_users=len({e.distinct_id for e in todays})))
    revenue: dict[str, int] = {}
    for e in evs:
        if e.revenue is not None and e.currency is not None:
            revenue[e.currency] = revenue.get(e.currency, 0) + e.revenue
    return Segmentation(
        project_id=project.id,
        event=event,
        days=days,
        total_events=len(evs),
        unique_users=len({e.distinct_id for e in evs}),
        revenue=[RevenueTotal(currency=c, amount=revenue[c]) for c in sorted(revenue)],
    )


# -- seed -------------------------------------------------------------------------------------

SHOP_EVENTS = (
    ("page_viewed", "A page of the web shop was viewed."),
    ("product_viewed", "A product page was viewed."),
    ("added_to_cart", "A product was added to the cart."),
    ("checkout_started", "The checkout was opened."),
    ("order_completed", "An order was paid."),
    ("signed_up", "A visitor created an account."),
)
APP_EVENTS = (
    ("logged_in", "A user signed in to the customer app."),
    ("report_created", "A user created a report."),
    ("teammate_invited", "A user invited a colleague."),
    ("plan_upgraded", "The account moved to a higher plan."),
    ("legacy_export", "Old CSV export (retired)."),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """A web-shop project with consumers' browsing and orders, and a schema-enforced app project for contacts."""
    shop, app = _seed_projects(s)
    seen: dict[str, list[dt.datetime]] = {}
    _seed_shop_users(s, shop, seen)
    _seed_app_users(s, app, seen)
    _seed_cohorts_and_funnels(s, shop, app)


def _seed_projects(s: SeedContext) -> tuple[Project, Project]:
    """The web-shop and the customer-app project with their lexicons."""
    pop = s.population
    home = pop.home
    analysts = pop.staff("Marketing", "Engineering")
    shop = s.create(
        Project,
        name=f"{home.name} web shop",
        timezone=home.place.timezone,
        owner_email=analysts[0].email,
        created_at=s.now - dt.timedelta(days=400),
    )
    app = s.create(
        Project,
        name=f"{home.name} customer app",
        timezone=home.place.timezone,
        owner_email=analysts[-1].email,
        enforce_schema=True,
        created_at=s.now - dt.timedelta(days=300),
    )
    for name, desc in SHOP_EVENTS:
        s.create(EventDefinition, project_id=shop.id, name=name, description=desc, verified=name != "signed_up")
    for name, desc in APP_EVENTS:
        s.create(EventDefinition, project_id=app.id, name=name, description=desc, hidden=name == "legacy_export")
    return shop, app


def _seed_event(
    s: SeedContext,
    seen: dict[str, list[dt.datetime]],
    project: Project,
    name: str,
    did: str,
    when: dt.datetime,
    **props: Any,
) -> None:
    """Track one event and note its time under the user, whose profile's first and last seen come from ``seen``."""
    s.create(Event, project_id=project.id, name=name, distinct_id=did, time=when, received_at=when, **props)
    seen.setdefault(f"{project.id}/{did}", []).append(when)


def _seed_shop_users(s: SeedContext, shop: Project, seen: dict[str, list[dt.datetime]]) -> None:
    """Consumers' browsing, their first orders (as the commerce contract places them) and their profiles."""
    pop = s.population
    rng = s.rng
    products = pop.products
    page = f"https://www.{pop.home.domain}"
    orders = first_order_numbers(pop)
    for i, p in enumerate(pop.consumers):
        did = f"user-{i + 1:04d}"
        t = s.now - dt.timedelta(days=rng.randint(8, 28), hours=rng.randint(0, 20))
        for _ in range(1 + i % 4):
            product = products[rng.randrange(len(products))]
            _seed_event(s, seen, shop, "page_viewed", did, t, page_url=page + "/")
            t += dt.timedelta(minutes=2)
            url = f"{page}/products/{product.sku.lower()}"
            _seed_event(s, seen, shop, "product_viewed", did, t, page_url=url, sku=product.sku)
            if rng.random() < 0.55:
                t += dt.timedelta(minutes=3)
                _seed_event(s, seen, shop, "added_to_cart", did, t, sku=product.sku)
            t += dt.timedelta(hours=rng.randint(5, 40))
        order = orders.get(p.email)
        if order is not None and i % 3 != 1:
            product = products[i % len(products)]
            t += dt.timedelta(minutes=5)
            _seed_event(s, seen, shop, "added_to_cart", did, t, sku=product.sku)
            t += dt.timedelta(minutes=4)
            _seed_event(s, seen, shop, "checkout_started", did, t, page_url=f"{page}/checkout")
            t += dt.timedelta(minutes=6)
            _seed_event(
                s,
                seen,
                shop,
                "order_completed",
                did,
                t,
                order_number=order,
                sku=product.sku,
                revenue=product.price_cents,
                currency=pop.home.place.currency,
            )
        known = i % 5 != 4
        times = seen[f"{shop.id}/{did}"]
        s.create(
            Profile,
            project_id=shop.id,
            distinct_id=did,
            email=p.email if known else None,
            name=p.name if known else None,
            country=p.place.country,
            city=p.place.city,
            first_seen=min(times),
            last_seen=max(times),
        )


def _seed_app_users(s: SeedContext, app: Project, seen: dict[str, list[dt.datetime]]) -> None:
    """Business contacts' logins and reports in the customer app, and their profiles with a plan."""
    pop = s.population
    rng = s.rng
    now = s.now
    plans: tuple[Plan, ...] = ("free", "starter", "pro", "enterprise")
    for i, p in enumerate(pop.contacts):
        company = pop.company_of(p)
        did = p.email
        first = now - dt.timedelta(days=rng.randint(2, 60))
        for k in range(rng.randint(1, 12)):
            when = min(first + dt.timedelta(days=2 * k, hours=rng.randint(0, 9)), now - dt.timedelta(hours=2))
            _seed_event(s, seen, app, "logged_in", did, when)
            if k % 3 == 1:
                _seed_event(s, seen, app, "report_created", did, when + dt.timedelta(minutes=10))
        if i % 6 == 0:
            invited = max(seen[f"{app.id}/{did}"]) + dt.timedelta(minutes=20)
            _seed_event(s, seen, app, "teammate_invited", did, invited)
        times = seen[f"{app.id}/{did}"]
        s.create(
            Profile,
            project_id=app.id,
            distinct_id=did,
            email=p.email,
            name=p.name,
            company=company.name if company else None,
            plan=plans[i % 4],
            country=p.place.country,
            city=p.place.city,
            first_seen=min(times),
            last_seen=max(times),
        )


def _seed_cohorts_and_funnels(s: SeedContext, shop: Project, app: Project) -> None:
    s.create(
        Cohort, project_id=shop.id, name="Repeat browsers", event_name="product_viewed", min_count=3, within_days=30
    )
    s.create(
        Cohort, project_id=shop.id, name="Recent buyers", event_name="order_completed", min_count=1, within_days=14
    )
    s.create(
        Cohort,
        project_id=app.id,
        name="Engaged pro accounts",
        event_name="logged_in",
        min_count=4,
        within_days=30,
        plan="pro",
    )
    s.create(
        Funnel,
        project_id=shop.id,
        name="Browse to purchase",
        steps=("product_viewed", "added_to_cart", "checkout_started", "order_completed"),
        conversion_window_days=7,
    )
    s.create(
        Funnel, project_id=app.id, name="Activation", steps=("logged_in", "report_created"), conversion_window_days=3
    )
