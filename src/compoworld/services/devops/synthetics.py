"""Probewise: synthetic monitoring with API and browser checks run from public locations.

Modeled on the Checkly public API (``/v1/checks`` of type API or BROWSER with
a request and assertions or a Playwright script, a frequency, run locations,
degraded and max response times, activated and muted flags; ``/v1/locations``;
``/v1/check-results``; ``/v1/alert-channels`` of type email, Slack, webhook,
SMS or PagerDuty with send-failure, send-degraded and send-recovery flags, and
their subscriptions to checks; ``/v1/maintenance-windows`` by tag;
``/v1/dashboards`` with a unique custom URL). A reported run is judged against
the check's assertions and response-time limits (failed, degraded or passed);
when that changes the check's state, every activated subscribed channel whose
flags ask for it gets a failure, degraded or recovery alert, unless the check
is muted or a maintenance window covering one of its tags is in force.
Frequencies are Checkly's allowed values, browser checks run at most every
5 minutes, a check needs at least one valid location, and the degraded limit
stays below the max.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Phone, Text, Title, Url
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "synthetics",
    title="Probewise",
    category="synthetic_monitoring",
    modeled_on="Checkly public API v1: checks (API, BROWSER), locations, check results, alert channels and "
    "subscriptions, maintenance windows, dashboards",
    description="Synthetic monitoring of the company's websites and APIs: API checks with assertions and "
    "browser checks with scripts, run on a schedule from public locations, their results, alert channels and "
    "which checks they follow, maintenance windows that silence alerts, and public status dashboards.",
)

CheckId = Annotated[str, IdOf("synthetics.check")]
LocationId = Annotated[str, IdOf("synthetics.location")]
ResultId = Annotated[str, IdOf("synthetics.check_result")]
ChannelId = Annotated[str, IdOf("synthetics.alert_channel")]
SubscriptionId = Annotated[str, IdOf("synthetics.subscription")]
WindowId = Annotated[str, IdOf("synthetics.maintenance_window")]
AlertId = Annotated[str, IdOf("synthetics.alert")]
DashboardId = Annotated[str, IdOf("synthetics.dashboard")]

Region = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}-[a-z]+-\d$")]
"""A location's region code (eu-central-1)."""
Tag = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9:_-]{0,49}$")]
"""A lower-case tag."""
Subdomain = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9-]{1,61}[a-z0-9])$")]
"""A dashboard's custom URL label (status gives status.checklyhq.com)."""
Millis = Annotated[int, Field(ge=0, le=300_000)]
"""Milliseconds."""

CheckType = Literal["api", "browser"]
Method = Literal["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]
CheckState = Literal["passing", "degraded", "failing"]
Outcome = Literal["passed", "degraded", "failed"]
ChannelType = Literal["email", "slack", "webhook", "sms", "pagerduty"]
AlertKind = Literal["failure", "degraded", "recovery"]
FREQUENCIES = (1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440)
STATE_OF: dict[Outcome, CheckState] = {"passed": "passing", "degraded": "degraded", "failed": "failing"}
ALERT_OF: dict[CheckState, AlertKind] = {"failing": "failure", "degraded": "degraded", "passing": "recovery"}


class Assertion(Value):
    """One assertion on an API check's response."""

    source: Literal["status_code", "response_time", "text_body"]
    """What is checked."""
    comparison: Literal["equals", "less_than", "greater_than", "contains"]
    """How."""
    target: str
    """The expected value."""


class Location(Record):
    """A public data-center location checks run from."""

    id: LocationId
    region: Region
    """Its region code (unique)."""
    name: Title
    """Its city and provider."""


class Check(Record):
    """An API or browser check."""

    id: CheckId
    name: Title
    """Its name (unique)."""
    type: CheckType
    """api or browser."""
    url: Url
    """The URL requested or opened."""
    method: Method = "GET"
    """The HTTP method of an API check."""
    assertions: tuple[Assertion, ...] = ()
    """An API check's assertions."""
    script: str = ""
    """A browser check's Playwright script."""
    frequency: Annotated[int, Field(ge=1, le=1440)] = 10
    """Minutes between runs."""
    regions: tuple[Region, ...]
    """The locations it runs from."""
    degraded_response_time: Millis = 10_000
    """Slower than this is degraded."""
    max_response_time: Millis = 20_000
    """Slower than this fails."""
    tags: tuple[Tag, ...] = ()
    """Tags (maintenance windows and dashboards select by tag)."""
    activated: bool = True
    """Whether it runs."""
    muted: bool = False
    """Whether its alerts are silenced."""
    state: CheckState | None = None
    """Its state from the latest run (none before any)."""
    owner_email: Email | None = None
    """The engineer who owns it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class CheckResult(Record):
    """One run of a check from one location."""

    id: ResultId
    check_id: CheckId
    """The check."""
    region: Region
    """Where it ran."""
    outcome: Outcome
    """passed, degraded or failed."""
    response_time: Millis
    """How long the request or page took."""
    status_code: Annotated[int, Field(ge=100, le=599)]
    """The HTTP status returned."""
    error: str = ""
    """What failed."""
    started_at: DateTime
    """When it ran."""


class AlertChannel(Record):
    """Where alerts go."""

    id: ChannelId
    name: Title
    """Its name."""
    type: ChannelType
    """email, slack, webhook, sms or pagerduty."""
    email: Email | None = None
    """The address of an email channel."""
    url: Url | None = None
    """The URL of a slack or webhook channel."""
    phone: Phone | None = None
    """The number of an SMS channel."""
    service_key: str | None = None
    """The PagerDuty integration key."""
    send_failure: bool = True
    """Alert when a check fails."""
    send_degraded: bool = False
    """Alert when a check degrades."""
    send_recovery: bool = True
    """Alert when a check recovers."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Subscription(Record):
    """A channel following a check."""

    id: SubscriptionId
    check_id: CheckId
    """The check."""
    channel_id: ChannelId
    """The channel."""
    activated: bool = True
    """Whether it alerts."""


class MaintenanceWindow(Record):
    """A period in which alerts of checks with its tags are silenced."""

    id: WindowId
    name: Title
    """Its name."""
    tags: tuple[Tag, ...]
    """The check tags it covers."""
    starts_at: DateTime
    """When it starts."""
    ends_at: DateTime
    """When it ends."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Alert(Record):
    """An alert sent to a channel."""

    id: AlertId
    check_id: CheckId
    """The check."""
    channel_id: ChannelId
    """The channel."""
    kind: AlertKind
    """failure, degraded or recovery."""
    result_id: ResultId
    """The run that caused it."""
    sent_at: DateTime
    """When it was sent."""


class Dashboard(Record):
    """A public status dashboard of checks selected by tag."""

    id: DashboardId
    custom_url: Subdomain
    """Its subdomain (unique)."""
    header: Title
    """Its heading."""
    tags: tuple[Tag, ...] = ()
    """Checks with any of these tags are shown (none: all)."""
    is_private: bool = False
    """Whether it needs a login."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class RunReport(Value):
    """What recording a run did."""

    result: CheckResult
    """The stored result."""
    state: CheckState
    """The check's state after it."""
    changed: bool
    """Whether the state changed."""
    alerts: tuple[AlertId, ...]
    """Alerts sent."""
    silenced_by: Literal["muted", "maintenance"] | None = None
    """Why alerts were held back."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a member of the account", field=field, hint="use an employee's e-mail")


def _guard_check(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        for sub in ctx.where(Subscription, check_id=old.id):
            ctx.delete(sub)
        return
    for c in ctx.where(Check, name=new.name):
        if c.id != new.id:
            raise Conflict(f"a check named {new.name!r} exists", field="name", hint="pick another name")
    if new.frequency not in FREQUENCIES:
        raise RuleViolation(
            f"frequency {new.frequency} is not allowed", field="frequency", hint=f"one of {FREQUENCIES}"
        )
    if new.type == "browser" and new.frequency < 5:
        raise RuleViolation("browser checks run at most every 5 minutes", field="frequency", hint="use 5 or more")
    if not new.regions or len(set(new.regions)) != len(new.regions):
        raise RuleViolation("list one or more distinct locations", field="regions", hint="see list_locations")
    for r in new.regions:
        if ctx.first(Location, region=r) is None:
            raise RuleViolation(f"{r} is not a location", field="regions", hint="see synthetics__list_locations")
    if new.degraded_response_time >= new.max_response_time:
        raise RuleViolation(
            "the degraded limit must be below the max response time",
            field="degraded_response_time",
            hint=f"use less than {new.max_response_time}",
        )
    if new.type == "browser" and not new.script.strip():
        raise RuleViolation("a browser check needs a script", field="script", hint="give the Playwright script")
    _staff(ctx, new.owner_email, "owner_email")


def _guard_channel(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        for sub in ctx.where(Subscription, channel_id=old.id):
            ctx.delete(sub)
        return
    need = {"email": "email", "slack": "url", "webhook": "url", "sms": "phone", "pagerduty": "service_key"}[new.type]
    if not getattr(new, need):
        raise RuleViolation(f"a {new.type} channel needs {need}", field=need, hint=f"give the {need}")


def _guard_window(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.tags:
        raise RuleViolation("a maintenance window covers one or more tags", field="tags", hint="name check tags")
    if new.ends_at <= new.starts_at:
        raise RuleViolation("ends_at must be after starts_at", field="ends_at", hint="pick a later end")


checks = service.resource(
    Check,
    name="check",
    plural="checks",
    prefix="chk",
    create=False,
    filters=("type", "activated", "muted", "state", "owner_email"),
    search=("name", "url"),
    update=(
        "name",
        "frequency",
        "regions",
        "degraded_response_time",
        "max_response_time",
        "tags",
        "muted",
        "script",
        "assertions",
        "owner_email",
    ),
    transitions={
        "activate": Transition("activated", (False,), True, "activate the check"),
        "deactivate": Transition("activated", (True,), False, "deactivate the check"),
    },
    guard_update=_guard_check,
    guard_delete=_guard_check,
)
locations = service.resource(
    Location, name="location", plural="locations", prefix="loc", create=False, get=False, search=("name",), delete=False
)
results = service.resource(
    CheckResult,
    name="check_result",
    plural="check_results",
    prefix="res",
    create=False,
    filters=("check_id", "region", "outcome"),
    delete=False,
)
channels = service.resource(
    AlertChannel,
    name="alert_channel",
    plural="alert_channels",
    prefix="ac",
    create=("name", "type", "email", "url", "phone", "service_key", "send_failure", "send_degraded", "send_recovery"),
    filters=("type",),
    search=("name",),
    update=("name", "send_failure", "send_degraded", "send_recovery"),
    guard_create=_guard_channel,
    guard_update=_guard_channel,
    guard_delete=_guard_channel,
)
subscriptions = service.resource(
    Subscription,
    name="subscription",
    plural="subscriptions",
    prefix="sub",
    create=False,
    get=False,
    filters=("check_id", "channel_id", "activated"),
)
windows = service.resource(
    MaintenanceWindow,
    name="maintenance_window",
    plural="maintenance_windows",
    prefix="mw",
    create=False,
    get=False,
    filters=(),
    search=("name",),
    guard_update=_guard_window,
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="al",
    create=False,
    get=False,
    filters=("check_id", "channel_id", "kind"),
    delete=False,
)
dashboards = service.resource(
    Dashboard,
    name="dashboard",
    plural="dashboards",
    prefix="db",
    create=False,
    get=False,
    filters=("is_private",),
    search=("header", "custom_url"),
    update=("header", "tags", "is_private"),
)


# -- checks -----------------------------------------------------------------------------------


def _create(ctx: Ctx, **fields: Any) -> Check:
    if ctx.first(Check, name=fields["name"]) is not None:
        raise Conflict(f"a check named {fields['name']!r} exists", field="name", hint="pick another name")
    check = ctx.create(Check, **fields)
    _guard_check(ctx, check, None)
    return check


def _example_api(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "Partner API health",
        "url": f"https://partners.{ctx.population.home.domain}/health",
        "regions": ["eu-central-1"],
        "assertions": [{"source": "status_code", "comparison": "equals", "target": "200"}],
    }


@service.tool(intent="create the API check", write=True, example=_example_api)
def create_api_check(
    ctx: Ctx,
    name: Title,
    url: Url,
    regions: list[Region],
    method: Method = "GET",
    assertions: list[Assertion] | None = None,
    frequency: Annotated[int, Field(ge=1, le=1440)] = 10,
    degraded_response_time: Millis = 5_000,
    max_response_time: Millis = 20_000,
    tags: list[Tag] | None = None,
    owner_email: Email | None = None,
) -> Check:
    """Create an API check: a request with assertions, run from some locations.

    Args:
        name: Its name (unique).
        url: The URL requested.
        regions: Location region codes.
        method: The HTTP method.
        assertions: Checks on status code, response time or body (default: status code equals 200).
        frequency: Minutes between runs (1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720 or 1440).
        degraded_response_time: Milliseconds above which it is degraded.
        max_response_time: Milliseconds above which it fails.
        tags: Tags.
        owner_email: The engineer who owns it.
    """
    default = (Assertion(source="status_code", comparison="equals", target="200"),)
    return _create(
        ctx,
        name=name,
        type="api",
        url=url,
        method=method,
        assertions=tuple(assertions or default),
        frequency=frequency,
        regions=tuple(regions),
        degraded_response_time=degraded_response_time,
        max_response_time=max_response_time,
        tags=tuple(tags or ()),
        owner_email=owner_email,
    )


def _example_browser(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "Careers page loads",
        "url": f"https://careers.{ctx.population.home.domain}/",
        "regions": ["us-east-1", "eu-west-1"],
        "script": "await page.goto(url); await expect(page.locator('h1')).toBeVisible();",
    }


@service.tool(intent="create the browser check", write=True, example=_example_browser)
def create_browser_check(
    ctx: Ctx,
    name: Title,
    url: Url,
    regions: list[Region],
    script: Text,
    frequency: Annotated[int, Field(ge=5, le=1440)] = 10,
    tags: list[Tag] | None = None,
    owner_email: Email | None = None,
) -> Check:
    """Create a browser check: a Playwright script that opens a page, run from some locations.

    Args:
        name: Its name (unique).
        url: The page opened.
        regions: Location region codes.
        script: The Playwright script.
        frequency: Minutes between runs (5 or more, an allowed value).
        tags: Tags.
        owner_email: The engineer who owns it.
    """
    return _create(
        ctx,
        name=name,
        type="browser",
        url=url,
        script=script,
        frequency=frequency,
        regions=tuple(regions),
        tags=tuple(tags or ()),
        owner_email=owner_email,
    )


def _judge(check: Check, response_time: int, status_code: int, body: str) -> tuple[Outcome, str]:
    if response_time > check.max_response_time:
        return "failed", f"response took {response_time} ms (max {check.max_response_time})"
    for a in check.assertions:
        actual: Any = {"status_code": status_code, "response_time": response_time, "text_body": body}[a.source]
        if a.comparison == "contains":
            good = a.target in str(actual)
        elif a.comparison == "equals":
            good = str(actual) == a.target
        else:
            try:
                target = float(a.target)
            except ValueError:
                good = False
            else:
                good = float(actual) < target if a.comparison == "less_than" else float(actual) > target
        if not good:
            return "failed", f"{a.source} {a.comparison} {a.target} failed (got {actual})"
    if check.type == "browser" and status_code >= 400:
        return "failed", f"page returned {status_code}"
    if response_time > check.degraded_response_time:
        return "degraded", ""
    return "passed", ""


def _silenced(ctx: Ctx, check: Check) -> Literal["muted", "maintenance"] | None:
    if check.muted:
        return "muted"
    now = ctx.now()
    for w in ctx.scan(MaintenanceWindow):
        if w.starts_at <= now < w.ends_at and set(w.tags) & set(check.tags):
            return "maintenance"
    return None


def _example_run(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Check, activated=True, state="passing")
    return (
        None if c is None else {"check_id": c.id, "region": c.regions[0], "response_time": 30_000, "status_code": 503}
    )


@service.tool(intent="record the check's run", write=True, example=_example_run)
def record_run(
    ctx: Ctx,
    check_id: CheckId,
    region: Region,
    response_time: Millis,
    status_code: Annotated[int, Field(ge=100, le=599)],
    body: str = "",
) -> RunReport:
    """Record what a run of an activated check observed from one of its locations; alerts follow state changes.

    Args:
        check_id: The check.
        region: The location it ran from (one of the check's).
        response_time: Milliseconds the request or page took.
        status_code: The HTTP status returned.
        body: The response text (for text_body assertions).
    """
    c = ctx.get(Check, check_id, field="check_id")
    if not c.activated:
        raise Conflict(f"check {c.name!r} is deactivated", field="check_id", hint="activate it first")
    if region not in c.regions:
        raise RuleViolation(f"{c.name!r} does not run from {region}", field="region", hint=f"one of {c.regions}")
    outcome, error = _judge(c, response_time, status_code, body)
    res = ctx.create(
        CheckResult,
        check_id=c.id,
        region=region,
        outcome=outcome,
        response_time=response_time,
        status_code=status_code,
        error=error,
        started_at=ctx.now(),
    )
    state = STATE_OF[outcome]
    changed = state != c.state
    ctx.update(c, state=state)
    sent: list[str] = []
    quiet = _silenced(ctx, c) if changed else None
    if changed and quiet is None and c.state is not None:
        kind = ALERT_OF[state]
        for sub in ctx.where(Subscription, check_id=c.id, activated=True):
            ch = ctx.get(AlertChannel, sub.channel_id)
            if getattr(ch, f"send_{kind}"):
                sent.append(
                    ctx.create(
                        Alert, check_id=c.id, channel_id=ch.id, kind=kind, result_id=res.id, sent_at=ctx.now()
                    ).id
                )
    return RunReport(result=res, state=state, changed=changed, alerts=tuple(sent), silenced_by=quiet)


# -- alerting ---------------------------------------------------------------------------------


def _example_subscribe(ctx: Ctx) -> dict[str, Any] | None:
    for ch in ctx.scan(AlertChannel):
        for c in ctx.scan(Check):
            if not ctx.where(Subscription, check_id=c.id, channel_id=ch.id):
                return {"check_id": c.id, "channel_id": ch.id}
    return None


@service.tool(intent="subscribe the alert channel to the check", write=True, example=_example_subscribe)
def subscribe_channel(ctx: Ctx, check_id: CheckId, channel_id: ChannelId) -> Subscription:
    """Make a channel follow a check's alerts; once per pair.

    Args:
        check_id: The check.
        channel_id: The alert channel.
    """
    c = ctx.get(Check, check_id, field="check_id")
    ch = ctx.get(AlertChannel, channel_id, field="channel_id")
    if ctx.where(Subscription, check_id=c.id, channel_id=ch.id):
        raise Conflict(f"{ch.name!r} already follows {c.name!r}", field="channel_id", hint="nothing to do")
    return ctx.create(Subscription, check_id=c.id, channel_id=ch.id)


def _example_window(ctx: Ctx) -> dict[str, Any] | None:
    start = ctx.now() + dt.timedelta(days=2)
    return {
        "name": "Database upgrade",
        "tags": ["api"],
        "starts_at": start.isoformat(),
        "ends_at": (start + dt.timedelta(hours=2)).isoformat(),
    }


@service.tool(intent="schedule the maintenance window", write=True, example=_example_window)
def create_maintenance_window(
    ctx: Ctx, name: Title, tags: list[Tag], starts_at: DateTime, ends_at: DateTime
) -> MaintenanceWindow:
    """Silence alerts of checks with any of these tags between two times (at most 7 days).

    Args:
        name: Its name.
        tags: Check tags it covers.
        starts_at: When it starts.
        ends_at: When it ends.
    """
    w = ctx.create(MaintenanceWindow, name=name, tags=tuple(tags), starts_at=starts_at, ends_at=ends_at)
    _guard_window(ctx, w, None)
    if ends_at - starts_at > dt.timedelta(days=7):
        raise RuleViolation("a window lasts at most 7 days", field="ends_at", hint="split it into several")
    if ends_at <= ctx.now():
        raise RuleViolation("the window is already over", field="ends_at", hint="pick a future end")
    return w


def _example_dashboard(ctx: Ctx) -> dict[str, Any] | None:
    return {"custom_url": "partner-status", "header": "Partner status", "tags": ["api"]}


@service.tool(intent="create the dashboard", write=True, example=_example_dashboard)
def create_dashboard(
    ctx: Ctx, custom_url: Subdomain, header: Title, tags: list[Tag] | None = None, is_private: bool = False
) -> Dashboard:
    """Create a status dashboard at a unique custom URL.

    Args:
        custom_url: Its subdomain.
        header: Its heading.
        tags: Checks with any of these tags are shown (none: all).
        is_private: Whether it needs a login.
    """
    if ctx.first(Dashboard, custom_url=custom_url) is not None:
        raise Conflict(f"{custom_url} is taken", field="custom_url", hint="pick another custom URL")
    return ctx.create(Dashboard, custom_url=custom_url, header=header, tags=tuple(tags or ()), is_private=is_private)


# -- seed -------------------------------------------------------------------------------------

LOCATIONS = (
    ("us-east-1", "N. Virginia (AWS)"),
    ("us-west-1", "N. California (AWS)"),
    ("eu-west-1", "Ireland (AWS)"),
    ("eu-central-1", "Frankfurt (AWS)"),
    ("ap-southeast-1", "Singapore (AWS)"),
    ("sa-east-1", "São Paulo (AWS)"),
)
CHECKS: tuple[tuple[str, CheckType, str, int, tuple[str, ...], tuple[str, ...], CheckState, bool], ...] = (
    ("Homepage", "browser", "https://www.{d}/", 10, ("us-east-1", "eu-west-1"), ("web", "prod"), "passing", False),
    (
        "Checkout flow",
        "browser",
        "https://shop.{d}/checkout",
        15,
        ("eu-central-1",),
        ("web", "prod"),
        "degraded",
        False,
    ),
    (
        "Public API health",
        "api",
        "https://api.{d}/v1/health",
        1,
        ("us-east-1", "eu-central-1", "ap-southeast-1"),
        ("api", "prod"),
        "passing",
        False,
    ),
    ("Auth token endpoint", "api", "https://api.{d}/oauth/token", 5, ("us-east-1",), ("api", "prod"), "failing", False),
    ("Docs search", "api", "https://docs.{d}/search?q=test", 30, ("eu-west-1",), ("docs",), "passing", True),
    ("Spring campaign landing page", "api", "https://spring.{d}/", 60, ("us-west-1",), ("web",), "failing", False),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Locations, the company's web and API checks with results, channels, subscriptions, a window, dashboards."""
    pop = s.population
    domain = pop.home.domain
    eng = pop.staff("Engineering", fallback=3)
    for region, name in LOCATIONS:
        s.create(Location, region=region, name=name)
    ok200 = (Assertion(source="status_code", comparison="equals", target="200"),)
    made = []
    for k, (name, kind, url, freq, regions, tags, state, muted) in enumerate(CHECKS):
        made.append(
            s.create(
                Check,
                name=name,
                type=kind,
                url=url.format(d=domain),
                assertions=ok200 if kind == "api" else (),
                script="await page.goto(url); await expect(page).toHaveTitle(/./);" if kind == "browser" else "",
                frequency=freq,
                regions=regions,
                degraded_response_time=3000 if kind == "api" else 8000,
                max_response_time=10_000 if kind == "api" else 30_000,
                tags=tags,
                muted=muted,
                state=state,
                owner_email=eng[k % len(eng)].email,
                created_at=s.ago(days=200 - 10 * k),
                updated_at=s.ago(days=2),
            )
        )
    made[-1] = s.update(made[-1], activated=False)  # the campaign is over; kept for its history
    for c in made:
        for j in range(3):
            outcome: Outcome = (
                "passed" if j < 2 or c.state == "passing" else "degraded" if c.state == "degraded" else "failed"
            )
            rt = {"passed": 420 + 37 * j, "degraded": 9000, "failed": 11_000}[outcome]
            s.create(
                CheckResult,
                check_id=c.id,
                region=c.regions[j % len(c.regions)],
                outcome=outcome,
                response_time=rt,
                status_code=503 if outcome == "failed" else 200,
                error="response took 11000 ms (max 10000)" if outcome == "failed" else "",
                started_at=s.ago(minutes=c.frequency * (3 - j)),
            )
    oncall = s.create(
        AlertChannel,
        name="On-call email",
        type="email",
        email=eng[0].email,
        send_degraded=True,
        created_at=s.ago(days=300),
    )
    slack = s.create(
        AlertChannel,
        name="#web-alerts",
        type="slack",
        url="https://hooks.slack.com/services/T000/B000/XXXX",
        created_at=s.ago(days=250),
    )
    s.create(
        AlertChannel,
        name="PagerDuty: platform",
        type="pagerduty",
        service_key="pd-int-7f3a9c",
        send_recovery=False,
        created_at=s.ago(days=100),
    )
    for c in made:
        s.create(Subscription, check_id=c.id, channel_id=oncall.id)
        if "web" in c.tags:
            s.create(Subscription, check_id=c.id, channel_id=slack.id)
    auth = made[3]
    first_fail = [r for r in s.records(CheckResult) if r.check_id == auth.id][-1]
    s.create(
        Alert,
        check_id=auth.id,
        channel_id=oncall.id,
        kind="failure",
        result_id=first_fail.id,
        sent_at=first_fail.started_at,
    )
    s.create(
        MaintenanceWindow,
        name="Docs platform migration",
        tags=("docs",),
        starts_at=s.ago(hours=1),
        ends_at=s.now + dt.timedelta(hours=5),
        created_at=s.ago(days=1),
    )
    s.create(
        Dashboard,
        custom_url=f"status-{domain.split('.')[0]}",
        header=f"{pop.home.name} status",
        tags=("prod",),
        created_at=s.ago(days=120),
    )
    s.create(Dashboard, custom_url="internal-ops", header="Internal checks", is_private=True, created_at=s.ago(days=60))
