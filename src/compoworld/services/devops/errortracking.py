"""Tripwire: application error tracking with issues grouping events, releases, deploys and assignees.

Modeled on the Sentry Web API (Organizations, Organization members, Projects,
Issues with ``shortId``, ``status`` unresolved/resolved/ignored,
``statusDetails.inRelease`` / ``inNextRelease`` / ``ignoreCount``, ``assignedTo``,
issue merge, Events with ``release``, ``environment`` and ``user``, Releases
and Deploys): events with the same fingerprint (exception type and culprit)
group into one issue; an event of a resolved issue reopens it as a
regression, unless the issue was resolved in a release newer than the
event's; an issue ignored until N more events comes back when they arrive;
issues are assigned only to organization members; merged issues move their
events to the primary one; a release's health counts the issues first seen in it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, DateTime, Email, IdOf, PersonName, Quantity, Text, Title, Url
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "errortracking",
    title="Tripwire",
    category="monitoring",
    modeled_on="Sentry Web API 0 (Organization, Member, Project, Issue, Event, Release, Deploy, issue merge)",
    description="Error tracking for the company's applications: crash and exception events grouped into "
    "issues by fingerprint, which users they hit, releases and deploys, resolving in a release, ignoring "
    "until a threshold, regressions, assignees and merges.",
)

MemberId = Annotated[str, IdOf("errortracking.member")]
ProjectId = Annotated[str, IdOf("errortracking.project")]
ReleaseId = Annotated[str, IdOf("errortracking.release")]
DeployId = Annotated[str, IdOf("errortracking.deploy")]
IssueId = Annotated[str, IdOf("errortracking.issue")]
EventId = Annotated[str, IdOf("errortracking.event")]

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,49}$")]
Version = Annotated[str, StringConstraints(pattern=r"^\d{1,4}\.\d{1,4}\.\d{1,4}$")]
Environment = Literal["production", "staging", "development"]
Level = Literal["fatal", "error", "warning"]
IssueStatus = Literal["unresolved", "resolved", "ignored"]
Substatus = Literal["new", "ongoing", "regressed", "escalating", "archived_until_count", "archived_forever"] | None
Platform = Literal["python", "javascript", "react-native", "java", "go"]
ExceptionType = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_.]{0,99}$")]
Culprit = Annotated[str, StringConstraints(min_length=1, max_length=200)]


def _ver(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


class Organization(Record):
    """The company's error-tracking organization."""

    id: Annotated[str, IdOf("errortracking.organization")]
    slug: Slug
    """URL slug."""
    name: CompanyName
    """The company."""


class Member(Record):
    """A member of the organization; issues can be assigned to members only."""

    id: MemberId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique."""
    role: Literal["owner", "manager", "admin", "member"] = "member"
    """Organization role."""


class Project(Created):
    """An application that sends events."""

    id: ProjectId
    slug: Slug
    """Project slug; unique, prefixes the issues' short ids."""
    name: Title
    """Display name."""
    platform: Platform
    """SDK platform."""
    last_issue_number: Quantity = 0
    """Number of the last issue; short ids are never reused."""


class Release(Created):
    """A version of a project's code."""

    id: ReleaseId
    project_id: ProjectId
    """The project."""
    version: Version
    """Semantic version (1.4.2); unique in the project."""
    date_released: DateTime | None = None
    """When it was first deployed; null until then."""


class Deploy(Record):
    """A release deployed to an environment."""

    id: DeployId
    release_id: ReleaseId
    """The release."""
    project_id: ProjectId
    """Its project."""
    environment: Environment
    """production, staging or development."""
    deployed_by_email: Email
    """Who deployed it."""
    finished_at: Annotated[DateTime, CREATED]
    """When the deploy finished."""


class Issue(Record):
    """Events grouped by fingerprint: one underlying problem."""

    id: IssueId
    project_id: ProjectId
    """The project."""
    short_id: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]+-\d+$")]
    """Human id: project slug upper-cased and a number (WEB-APP-12)."""
    title: Title
    """Exception type and message of the first event."""
    exception_type: ExceptionType
    """Exception type (part of the fingerprint)."""
    culprit: Culprit
    """Where it happens, e.g. the function or route (part of the fingerprint)."""
    level: Level = "error"
    """fatal, error or warning."""
    status: IssueStatus = "unresolved"
    """unresolved, resolved or ignored."""
    substatus: Substatus = "new"
    """new, ongoing, regressed, escalating, archived_until_count or archived_forever."""
    resolved_in_release: Version | None = None
    """For an issue resolved in a release: that version; events of older versions do not reopen it."""
    ignore_until_count: Quantity | None = None
    """For an ignored issue: how many more events bring it back."""
    events_since_ignored: Quantity = 0
    """Events counted since it was ignored."""
    assignee_email: Email | None = None
    """E-mail of the member working on it."""
    first_release: Version | None = None
    """Release of the first event."""
    event_count: Quantity = 0
    """Number of events."""
    user_count: Quantity = 0
    """Number of distinct users affected."""
    first_seen: DateTime
    """When the first event happened."""
    last_seen: DateTime
    """When the last event happened."""
    permalink: Url
    """Link to the issue page."""


class Event(Record):
    """One occurrence of an error."""

    id: EventId
    issue_id: IssueId
    """The issue it is grouped into."""
    project_id: ProjectId
    """The project."""
    event_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")]
    """The SDK's event id."""
    message: Text
    """The error message."""
    release: Version | None = None
    """Release the app ran."""
    environment: Environment = "production"
    """Environment."""
    user_email: Email | None = None
    """E-mail of the end user it happened to."""
    timestamp: Annotated[DateTime, CREATED]
    """When it happened."""


# -- rules ------------------------------------------------------------------------------------


def _member(ctx: Ctx, email: str, field: str) -> Member:
    m = ctx.first(Member, email=email)
    if m is None:
        raise NotFound(
            f"{email} is not a member of the organization",
            field=field,
            hint="list members with errortracking__list_members",
        )
    return m


def _release(ctx: Ctx, project_id: str, version: str, field: str) -> Release:
    rel = ctx.first(Release, project_id=project_id, version=version)
    if rel is None:
        raise NotFound(
            f"the project has no release {version}",
            field=field,
            hint="list releases with errortracking__list_releases or create one",
        )
    return rel


def _latest_release(ctx: Ctx, project_id: str) -> Release | None:
    rels = ctx.where(Release, project_id=project_id)
    return max(rels, key=lambda r: _ver(r.version)) if rels else None


members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mem",
    create=False,
    get=False,
    filters=("email", "role"),
    search=("name", "email"),
    delete=False,
    unique=("email",),
    title="organization member",
)
organizations = service.resource(
    Organization,
    name="organization",
    plural="organizations",
    prefix="org",
    create=False,
    get=False,
    filters=(),
    delete=False,
)
projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="prj",
    create=False,
    get=False,
    filters=("slug", "platform"),
    search=("name", "slug"),
    delete=False,
    unique=("slug",),
)
releases = service.resource(
    Release,
    name="release",
    plural="releases",
    prefix="rel",
    create=False,
    get=False,
    filters=("project_id", "version"),
    delete=False,
)
deploys = service.resource(
    Deploy,
    name="deploy",
    plural="deploys",
    prefix="dep",
    create=False,
    get=False,
    filters=("release_id", "project_id", "environment", "deployed_by_email"),
    delete=False,
)
issues = service.resource(
    Issue,
    name="issue",
    plural="issues",
    prefix="iss",
    create=False,
    filters=(
        "project_id",
        "status",
        "substatus",
        "level",
        "assignee_email",
        "short_id",
        "resolved_in_release",
        "first_release",
        "exception_type",
    ),
    search=("title", "culprit"),
    delete=False,
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    get=False,
    filters=("issue_id", "project_id", "release", "environment", "user_email"),
    search=("message",),
    delete=False,
)


# -- examples ---------------------------------------------------------------------------------


def _example_ingest(ctx: Ctx) -> dict[str, Any] | None:
    issue = ctx.first(Issue, status="resolved")
    if issue is None:
        return None
    rel = _latest_release(ctx, issue.project_id)
    return {
        "project_id": issue.project_id,
        "exception_type": issue.exception_type,
        "culprit": issue.culprit,
        "message": "It happened again",
        "release": rel.version if rel else None,
        "user_email": "test.user@example.com",
    }


def _example_resolve(ctx: Ctx) -> dict[str, Any] | None:
    issue = ctx.first(Issue, status="unresolved")
    if issue is None:
        return None
    rel = _latest_release(ctx, issue.project_id)
    return {"issue_id": issue.id, "in_release": rel.version if rel else None}


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    issue = ctx.first(Issue, status="unresolved")
    m = ctx.first(Member)
    return None if issue is None or m is None else {"issue_id": issue.id, "assignee_email": m.email}


def _example_merge(ctx: Ctx) -> dict[str, Any] | None:
    for project in ctx.scan(Project):
        found = ctx.where(Issue, project_id=project.id)
        if len(found) >= 2:
            return {"primary_issue_id": found[0].id, "other_issue_ids": [found[1].id]}
    return None


def _example_deploy(ctx: Ctx) -> dict[str, Any] | None:
    rel = ctx.first(Release)
    m = ctx.first(Member)
    if rel is None or m is None:
        return None
    return {"release_id": rel.id, "environment": "staging", "deployed_by_email": m.email}


# -- domain tools -----------------------------------------------------------------------------


class Ingested(BaseModel):
    """A stored event and what it did to its issue."""

    event: Event = Field(description="The stored event.")
    issue: Issue = Field(description="The issue it was grouped into, after the event.")
    new_issue: bool = Field(description="Whether the event opened a new issue.")
    regressed: bool = Field(description="Whether it reopened a resolved issue.")
    unignored: bool = Field(description="Whether it brought back an ignored issue.")


def _record_event(ctx: Ctx, issue: Issue, event: Event) -> Issue:
    users = {e.user_email for e in ctx.where(Event, issue_id=issue.id) if e.user_email}
    count = len(ctx.where(Event, issue_id=issue.id))
    first = min(issue.first_seen, event.timestamp)
    last = max(issue.last_seen, event.timestamp)
    return ctx.update(issue, event_count=count, user_count=len(users), first_seen=first, last_seen=last)


def _permalink(ctx: Ctx, project: Project, short_id: str) -> str:
    """The issue page, under the organization's slug (as seeded issues have it)."""
    org = ctx.first(Organization)
    return f"https://tripwire.example/organizations/{org.slug if org else project.slug}/issues/{short_id}/"


@service.tool(intent="report an error event from the application", write=True, example=_example_ingest)
def ingest_event(
    ctx: Ctx,
    project_id: ProjectId,
    exception_type: ExceptionType,
    culprit: Culprit,
    message: Text,
    level: Level = "error",
    release: Version | None = None,
    environment: Environment = "production",
    user_email: Email | None = None,
) -> Ingested:
    """Store an error event (as an SDK sends it) and group it into an issue by exception type and culprit.

    A new fingerprint opens a new issue. An event of a resolved issue reopens it
    as regressed, unless the issue was resolved in a release newer than the
    event's release. An issue ignored until N events comes back when the N-th
    arrives. The release, when given, must exist in the project.

    Args:
        project_id: The project.
        exception_type: Exception class, e.g. KeyError or TypeError.
        culprit: Where it happened (function, route or file).
        message: The error message.
        level: fatal, error or warning.
        release: Version the app was running.
        environment: production, staging or development.
        user_email: E-mail of the end user affected.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if release is not None:
        _release(ctx, project.id, release, "release")
    issue = ctx.first(Issue, project_id=project.id, exception_type=exception_type, culprit=culprit)
    now = ctx.now()
    new_issue = issue is None
    if issue is None:
        number = project.last_issue_number + 1
        ctx.update(project, last_issue_number=number)
        short = f"{project.slug.upper()}-{number}"
        issue = ctx.create(
            Issue,
            project_id=project.id,
            short_id=short,
            title=f"{exception_type}: {message.strip()[:150] or exception_type}",
            exception_type=exception_type,
            culprit=culprit,
            level=level,
            first_release=release,
            first_seen=now,
            last_seen=now,
            permalink=_permalink(ctx, project, short),
        )
    event = ctx.create(
        Event,
        issue_id=issue.id,
        project_id=project.id,
        event_id=f"{ctx.rng.getrandbits(128):032x}",
        message=message,
        release=release,
        environment=environment,
        user_email=user_email,
    )
    regressed = unignored = False
    changes: dict[str, Any] = {}
    if issue.status == "resolved":
        older = (
            issue.resolved_in_release is not None
            and release is not None
            and _ver(release) < _ver(issue.resolved_in_release)
        )
        if not older:
            regressed = True
            changes = {"status": "unresolved", "substatus": "regressed", "resolved_in_release": None}
    elif issue.status == "ignored":
        seen = issue.events_since_ignored + 1
        changes = {"events_since_ignored": seen}
        if issue.ignore_until_count is not None and seen >= issue.ignore_until_count:
            unignored = True
            changes.update(status="unresolved", substatus="escalating", ignore_until_count=None, events_since_ignored=0)
    elif not new_issue and issue.substatus == "new":
        changes = {"substatus": "ongoing"}
    if level == "fatal" and issue.level != "fatal":
        changes["level"] = "fatal"
    issue = ctx.update(issue, **changes)
    issue = _record_event(ctx, issue, event)
    return Ingested(event=event, issue=issue, new_issue=new_issue, regressed=regressed, unignored=unignored)


@service.tool(intent="resolve the issue", write=True, example=_example_resolve)
def resolve_issue(
    ctx: Ctx, issue_id: IssueId, in_release: Version | None = None, in_next_release: bool = False
) -> Issue:
    """Mark an issue resolved, now, in a given release, or in the project's latest release.

    Resolved in a release, events from older versions no longer reopen it.

    Args:
        issue_id: The issue.
        in_release: The release that fixes it; must exist in the project.
        in_next_release: Resolve in the project's latest release (ignored when in_release is given).
    """
    issue = ctx.get(Issue, issue_id, field="issue_id")
    if issue.status == "resolved":
        raise Conflict(f"issue {issue.short_id} is already resolved", field="issue_id", hint="nothing to do")
    version: str | None = None
    if in_release is not None:
        version = _release(ctx, issue.project_id, in_release, "in_release").version
    elif in_next_release:
        latest = _latest_release(ctx, issue.project_id)
        if latest is None:
            raise RuleViolation(
                "the project has no release yet",
                field="in_next_release",
                hint="create a release with errortracking__create_release, or resolve without one",
            )
        version = latest.version
    return ctx.update(
        issue,
        status="resolved",
        substatus=None,
        resolved_in_release=version,
        ignore_until_count=None,
        events_since_ignored=0,
    )


@service.tool(
    intent="ignore the issue",
    write=True,
    example=first_example(Issue, "issue_id", where={"status": "unresolved"}, until_count=100),
)
def ignore_issue(
    ctx: Ctx, issue_id: IssueId, until_count: Annotated[int, Field(ge=1, le=1_000_000)] | None = None
) -> Issue:
    """Ignore (archive) an unresolved issue, forever or until it happens until_count more times.

    Args:
        issue_id: The issue.
        until_count: Bring it back after this many more events; omit to ignore forever.
    """
    issue = ctx.get(Issue, issue_id, field="issue_id")
    if issue.status != "unresolved":
        raise RuleViolation(
            f"issue {issue.short_id} is {issue.status}; only unresolved issues are ignored",
            field="issue_id",
            hint="unresolve it with errortracking__unresolve_issue first",
        )
    return ctx.update(
        issue,
        status="ignored",
        substatus="archived_until_count" if until_count else "archived_forever",
        ignore_until_count=until_count,
        events_since_ignored=0,
    )


@service.tool(
    intent="reopen the issue", write=True, example=first_example(Issue, "issue_id", where={"status": "resolved"})
)
def unresolve_issue(ctx: Ctx, issue_id: IssueId) -> Issue:
    """Reopen a resolved or ignored issue.

    Args:
        issue_id: The issue.
    """
    issue = ctx.get(Issue, issue_id, field="issue_id")
    if issue.status == "unresolved":
        raise Conflict(f"issue {issue.short_id} is already unresolved", field="issue_id", hint="nothing to do")
    return ctx.update(
        issue,
        status="unresolved",
        substatus="ongoing",
        resolved_in_release=None,
        ignore_until_count=None,
        events_since_ignored=0,
    )


@service.tool(intent="assign the issue to a person", write=True, idempotent=True, example=_example_assign)
def assign_issue(ctx: Ctx, issue_id: IssueId, assignee_email: Email | None) -> Issue:
    """Assign an issue to a member of the organization, or unassign it with null.

    Args:
        issue_id: The issue.
        assignee_email: E-mail of the member, or null.
    """
    issue = ctx.get(Issue, issue_id, field="issue_id")
    if assignee_email is not None:
        _member(ctx, assignee_email, "assignee_email")
    return ctx.update(issue, assignee_email=assignee_email)


@service.tool(intent="merge the issues", write=True, destructive=True, example=_example_merge)
def merge_issues(
    ctx: Ctx,
    primary_issue_id: IssueId,
    other_issue_ids: Annotated[list[IssueId], Field(min_length=1, max_length=20)],
) -> Issue:
    """Merge issues of one project into a primary issue: their events move to it and they are removed.

    Args:
        primary_issue_id: The issue that stays.
        other_issue_ids: Issues of the same project to merge into it.
    """
    primary = ctx.get(Issue, primary_issue_id, field="primary_issue_id")
    others: list[Issue] = []
    for oid in dict.fromkeys(other_issue_ids):
        other = ctx.find(Issue, oid)
        if other is None:
            raise NotFound(f"no issue with id {oid!r}", field="other_issue_ids", hint="list issues to find ids")
        if other.id == primary.id:
            raise RuleViolation(
                "an issue cannot be merged into itself", field="other_issue_ids", hint="list the other issues only"
            )
        if other.project_id != primary.project_id:
            raise RuleViolation(
                f"issue {other.short_id} is in another project",
                field="other_issue_ids",
                hint="only issues of one project can be merged",
            )
        others.append(other)
    for other in others:
        for e in ctx.where(Event, issue_id=other.id):
            ctx.update(e, issue_id=primary.id)
        ctx.delete(other)
    evts = ctx.where(Event, issue_id=primary.id)
    return ctx.update(
        primary,
        event_count=len(evts),
        user_count=len({e.user_email for e in evts if e.user_email}),
        first_seen=min([primary.first_seen, *(o.first_seen for o in others)]),
        last_seen=max([primary.last_seen, *(o.last_seen for o in others)]),
    )


@service.tool(
    intent="create a release of the project", write=True, example=first_example(Project, "project_id", version="9.0.0")
)
def create_release(ctx: Ctx, project_id: ProjectId, version: Version) -> Release:
    """Create a release (a version of the project's code) to report events against and deploy.

    Args:
        project_id: The project.
        version: Semantic version, e.g. 1.4.2; unique in the project.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if ctx.first(Release, project_id=project.id, version=version) is not None:
        raise Conflict(
            f"{project.slug} already has release {version}",
            field="version",
            hint="use the existing release (errortracking__list_releases)",
        )
    return ctx.create(Release, project_id=project.id, version=version)


@service.tool(intent="deploy the release to an environment", write=True, example=_example_deploy)
def deploy_release(ctx: Ctx, release_id: ReleaseId, environment: Environment, deployed_by_email: Email) -> Deploy:
    """Record a deploy of a release; the first deploy sets the release's date_released.

    A release goes to production only after it was deployed to staging.

    Args:
        release_id: The release.
        environment: production, staging or development.
        deployed_by_email: E-mail of the member deploying.
    """
    rel = ctx.get(Release, release_id, field="release_id")
    _member(ctx, deployed_by_email, "deployed_by_email")
    if environment == "production" and ctx.first(Deploy, release_id=rel.id, environment="staging") is None:
        raise RuleViolation(
            f"release {rel.version} was never deployed to staging",
            field="environment",
            hint="deploy it to staging first",
        )
    deploy = ctx.create(
        Deploy,
        release_id=rel.id,
        project_id=rel.project_id,
        environment=environment,
        deployed_by_email=deployed_by_email,
    )
    if rel.date_released is None:
        ctx.update(rel, date_released=deploy.finished_at)
    return deploy


class ReleaseHealth(BaseModel):
    """Errors of one release."""

    release_id: ReleaseId = Field(description="The release.")
    version: Version = Field(description="Its version.")
    events: int = Field(description="Events reported by this release.")
    affected_users: list[Email] = Field(description="Distinct users those events hit, sorted.")
    new_issues: list[IssueId] = Field(description="Issues first seen in this release.")
    unresolved_new_issues: int = Field(description="Of those, how many are still unresolved.")
    resolved_in_release: list[IssueId] = Field(description="Issues resolved in this release.")
    deployed_to: list[Environment] = Field(description="Environments it was deployed to.")


@service.tool(intent="check the release's health", example=first_example(Release, "release_id"))
def release_health(ctx: Ctx, release_id: ReleaseId) -> ReleaseHealth:
    """Summarise a release: its events, the users they hit, the issues it introduced and resolved.

    Args:
        release_id: The release.
    """
    rel = ctx.get(Release, release_id, field="release_id")
    evts = ctx.where(Event, project_id=rel.project_id, release=rel.version)
    new = ctx.where(Issue, project_id=rel.project_id, first_release=rel.version)
    return ReleaseHealth(
        release_id=rel.id,
        version=rel.version,
        events=len(evts),
        affected_users=sorted({e.user_email for e in evts if e.user_email}),
        new_issues=[i.id for i in new],
        unresolved_new_issues=sum(1 for i in new if i.status == "unresolved"),
        resolved_in_release=[
            i.id for i in ctx.where(Issue, project_id=rel.project_id, resolved_in_release=rel.version)
        ],
        deployed_to=sorted({d.environment for d in ctx.where(Deploy, release_id=rel.id)}),
    )


class AffectedUsers(BaseModel):
    """The end users an issue hit."""

    issue_id: IssueId = Field(description="The issue.")
    emails: list[Email] = Field(description="Distinct e-mails of the affected users, most events first.")
    events_without_user: int = Field(description="Events that carried no user.")


@service.tool(intent="list the users the issue affected", example=first_example(Issue, "issue_id"))
def affected_users(ctx: Ctx, issue_id: IssueId) -> AffectedUsers:
    """List the end users an issue's events hit, most affected first.

    Args:
        issue_id: The issue.
    """
    issue = ctx.get(Issue, issue_id, field="issue_id")
    counts: dict[str, int] = {}
    anonymous = 0
    for e in ctx.where(Event, issue_id=issue.id):
        if e.user_email:
            counts[e.user_email] = counts.get(e.user_email, 0) + 1
        else:
            anonymous += 1
    ordered = sorted(counts, key=lambda k: (-counts[k], k))
    return AffectedUsers(issue_id=issue.id, emails=ordered, events_without_user=anonymous)


# -- seed -------------------------------------------------------------------------------------

PROJECTS: tuple[tuple[str, str, Platform, int], ...] = (
    ("web-app", "Web app", "javascript", 0),
    ("api-server", "API server", "python", 1),
    ("billing-service", "Billing service", "python", 2),
    ("mobile-app", "Mobile app", "react-native", 3),
)
ERRORS: tuple[tuple[str, str, str, Level], ...] = (
    ("TypeError", "checkout/PaymentForm.submit", "Cannot read properties of undefined (reading 'card')", "error"),
    ("KeyError", "orders.views.order_detail", "'shipping_address'", "error"),
    ("TimeoutError", "payments.gateway.capture", "Payment gateway timed out after 30s", "fatal"),
    ("ValueError", "invoices.pdf.render", "invalid literal for int() with base 10: ''", "error"),
    ("ChunkLoadError", "app/routes/Reports", "Loading chunk 42 failed", "warning"),
    ("IntegrityError", "accounts.signup", "duplicate key value violates unique constraint", "error"),
    ("ZeroDivisionError", "reports.metrics.conversion_rate", "division by zero", "error"),
    ("NullPointerException", "CartScreen.render", "Attempt to invoke method on a null object", "fatal"),
)
PLAN: tuple[IssueStatus, ...] = ("unresolved", "resolved", "unresolved", "ignored", "resolved", "unresolved")


@service.seeder
def seed(s: SeedContext) -> None:
    """Engineers as members; the company's apps as projects with releases, deploys, issues and user events."""
    pop = s.population
    org = org_handle(pop)
    s.create(Organization, slug=org, name=pop.home.name)
    engineers = pop.staff("Engineering", fallback=6)
    for k, p in enumerate(engineers):
        s.create(Member, name=p.name, email=p.email, role="owner" if k == 0 else ("manager" if k == 1 else "member"))
    emails = [p.email for p in engineers]
    users = [p.email for p in pop.consumers] + [p.email for p in pop.contacts[:20]]
    for pi, (slug, name, platform, minor) in enumerate(PROJECTS):
        project = s.create(Project, slug=slug, name=name, platform=platform, created_at=s.ago(days=500 - 50 * pi))
        versions = _seed_releases(s, project, pi, minor, emails)
        n_issues = 6 if pi < 3 else 4
        for k in range(n_issues):
            _seed_issue(s, project, org, pi, k, versions, emails, users)
        s.update(project, last_issue_number=n_issues)


def _seed_releases(s: SeedContext, project: Project, pi: int, minor: int, engineers: list[str]) -> list[str]:
    """Five releases, each deployed to staging then production but the last, on staging only; their versions."""
    versions = [f"1.{minor}.{v}" for v in range(5)]
    for v, version in enumerate(versions):
        released = s.ago(days=3 * (len(versions) - v) + pi)
        rel = s.create(
            Release,
            project_id=project.id,
            version=version,
            date_released=released if v < len(versions) - 1 else None,
            created_at=released - dt.timedelta(hours=2),
        )
        if v < len(versions) - 1:
            for env in ("staging", "production"):
                s.create(
                    Deploy,
                    release_id=rel.id,
                    project_id=project.id,
                    environment=env,
                    deployed_by_email=engineers[(pi + v) % len(engineers)],
                    finished_at=released + dt.timedelta(hours=1 if env == "staging" else 3),
                )
        else:
            s.create(
                Deploy,
                release_id=rel.id,
                project_id=project.id,
                environment="staging",
                deployed_by_email=engineers[pi % len(engineers)],
                finished_at=s.ago(hours=5),
            )
    return versions


def _seed_issue(
    s: SeedContext,
    project: Project,
    org: str,
    pi: int,
    k: int,
    versions: list[str],
    engineers: list[str],
    users: list[str],
) -> None:
    """The k-th issue of the pi-th project, in the status PLAN gives it, with its events up to now."""
    now = s.now
    etype, culprit, msg, level = ERRORS[(pi * 3 + k) % len(ERRORS)]
    status = PLAN[k % len(PLAN)]
    first_v = min(k % 4, 3)
    first_seen = s.ago(days=3 * (len(versions) - first_v) + pi - 1)
    short = f"{project.slug.upper()}-{k + 1}"
    resolved_in = versions[min(first_v + 1, 3)] if status == "resolved" and k % 2 == 1 else None
    # (index, when, release, user) of each event; an issue resolved in a release has no events from it on.
    events: list[tuple[int, dt.datetime, str, str | None]] = []
    for j in range(2 + (k * 3 + pi) % 6):
        when = first_seen + dt.timedelta(hours=7 * j + 1)
        if when >= now:
            break
        rel_v = versions[min(first_v + j // 3, 3)]
        if resolved_in is not None and _ver(rel_v) >= _ver(resolved_in):
            rel_v = versions[first_v]
        events.append((j, when, rel_v, users[(pi * 17 + k * 5 + j) % len(users)] if j % 4 != 3 else None))
    issue = s.create(
        Issue,
        project_id=project.id,
        short_id=short,
        title=f"{etype}: {msg}",
        exception_type=etype,
        culprit=culprit,
        level=level,
        status=status,
        substatus={"unresolved": "ongoing", "resolved": None, "ignored": "archived_until_count"}[status],
        resolved_in_release=resolved_in,
        ignore_until_count=50 if status == "ignored" else None,
        assignee_email=engineers[(pi + k) % len(engineers)] if k % 3 != 2 else None,
        first_release=versions[first_v],
        first_seen=first_seen,
        last_seen=events[-1][1] if events else first_seen,
        permalink=f"https://tripwire.example/organizations/{org}/issues/{short}/",
    )
    for j, when, rel_v, user in events:
        s.create(
            Event,
            issue_id=issue.id,
            project_id=project.id,
            event_id=f"{s.rng.getrandbits(128):032x}",
            message=msg,
            release=rel_v,
            environment="production" if j % 5 != 4 else "staging",
            user_email=user,
            timestamp=when,
        )
    s.update(issue, event_count=len(events), user_count=len({user for *_, user in events if user}))
