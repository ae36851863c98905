"""Launchpad Connect: app distribution with builds, versions in review, TestFlight, phased releases and reviews.

Modeled on the App Store Connect API (v1): Apps with a bundle ID, Builds with
``processingState`` (PROCESSING, VALID, INVALID), export compliance
(``usesNonExemptEncryption``) and a 90-day TestFlight expiry, App Store
Versions whose ``appStoreState`` goes PREPARE_FOR_SUBMISSION → WAITING_FOR_REVIEW
→ IN_REVIEW → PENDING_DEVELOPER_RELEASE (or REJECTED, or DEVELOPER_REJECTED when
the developer pulls it) → READY_FOR_SALE, with a release type (MANUAL,
AFTER_APPROVAL, SCHEDULED), Phased Releases over seven days (INACTIVE, ACTIVE,
PAUSED, COMPLETE; pauses add up to at most 30 days), TestFlight Beta Groups
(internal groups of team members, external groups whose builds need Beta App
Review approval) and Beta Testers, and Customer Reviews with one developer
response each. A new version must be higher than every earlier one, an app has
one editable version at a time, and a version is submitted only with a valid,
unexpired build whose export compliance is answered and, after the first
release, with release notes.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, DateTime, Email, FirstName, IdOf, LastName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "appstore",
    title="Launchpad Connect",
    category="app_distribution",
    modeled_on="App Store Connect API v1 (apps, builds, appStoreVersions and review submissions, "
    "appStoreVersionPhasedReleases, betaGroups, betaTesters, betaAppReviewSubmissions, customerReviews "
    "and customerReviewResponses)",
    description="Distribution of the home company's mobile apps: uploaded builds and their processing, App "
    "Store versions submitted to review and released (optionally phased over seven days), TestFlight beta "
    "groups and testers, and customer reviews with the developer's responses.",
)

AppId = Annotated[str, IdOf("appstore.app")]
BuildId = Annotated[str, IdOf("appstore.build")]
VersionId = Annotated[str, IdOf("appstore.version")]
PhasedId = Annotated[str, IdOf("appstore.phased_release")]
GroupId = Annotated[str, IdOf("appstore.beta_group")]
TesterId = Annotated[str, IdOf("appstore.beta_tester")]
ReviewId = Annotated[str, IdOf("appstore.customer_review")]

VersionString = Annotated[str, StringConstraints(pattern=r"^\d{1,3}(\.\d{1,3}){1,2}$")]
BundleId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$")]
AppState = Literal[
    "PREPARE_FOR_SUBMISSION",
    "WAITING_FOR_REVIEW",
    "IN_REVIEW",
    "PENDING_DEVELOPER_RELEASE",
    "READY_FOR_SALE",
    "REJECTED",
    "DEVELOPER_REJECTED",
    "REPLACED_WITH_NEW_VERSION",
]
EDITABLE = ("PREPARE_FOR_SUBMISSION", "REJECTED", "DEVELOPER_REJECTED")
IN_FLIGHT = ("WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_DEVELOPER_RELEASE")
BetaReview = Literal["NOT_SUBMITTED", "WAITING_FOR_REVIEW", "APPROVED", "REJECTED"]
TESTFLIGHT_DAYS = 90
MAX_PAUSE_DAYS = 30
PHASE_PERCENT = (1, 2, 5, 10, 20, 50, 100)


def _key(version: str) -> tuple[int, ...]:
    parts = [int(p) for p in version.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


class App(Created):
    """An app on the store."""

    id: AppId
    name: Title
    """Name on the store."""
    bundle_id: BundleId
    """Bundle identifier (unique)."""
    sku: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9_-]{2,40}$")]
    """The developer's SKU."""
    platform: Literal["IOS", "MAC_OS", "TV_OS"] = "IOS"
    """Platform."""
    primary_locale: Annotated[str, StringConstraints(pattern=r"^[a-z]{2}(-[A-Z]{2})?$")] = "en-US"
    """Primary language."""


class Build(Timestamped):
    """An uploaded binary."""

    id: BuildId
    app_id: AppId
    """The app."""
    version: VersionString
    """Marketing version it was built for (CFBundleShortVersionString)."""
    build_number: Annotated[int, Field(ge=1)]
    """CFBundleVersion; increases within a version."""
    processing_state: Literal["PROCESSING", "VALID", "INVALID"] = "VALID"
    """PROCESSING, VALID or INVALID."""
    uses_non_exempt_encryption: bool | None = None
    """Export compliance answer; none: not answered yet."""
    expired: bool = False
    """Expired for TestFlight (90 days after upload, or by hand)."""
    beta_review_state: BetaReview = "NOT_SUBMITTED"
    """Beta App Review for external testing."""
    uploaded_at: DateTime
    """When it was uploaded."""


class Version(Timestamped):
    """An App Store version and its review state."""

    id: VersionId
    app_id: AppId
    """The app."""
    version_string: VersionString
    """The version, e.g. 2.4.0."""
    app_store_state: AppState = "PREPARE_FOR_SUBMISSION"
    """Where the version is in review and release."""
    build_id: BuildId | None = None
    """The build it ships."""
    whats_new: Text = ""
    """Release notes (required after the first release)."""
    release_type: Literal["MANUAL", "AFTER_APPROVAL", "SCHEDULED"] = "MANUAL"
    """How it goes live once approved."""
    earliest_release_date: DateTime | None = None
    """For SCHEDULED releases."""
    rejection_reason: Text = ""
    """App Review's message for a rejected version."""
    released_at: DateTime | None = None
    """When it went on sale."""


class PhasedRelease(Timestamped):
    """A seven-day phased rollout of a version's automatic update."""

    id: PhasedId
    version_id: VersionId
    """The version."""
    state: Literal["INACTIVE", "ACTIVE", "PAUSED", "COMPLETE"] = "INACTIVE"
    """INACTIVE until release, then ACTIVE, PAUSED or COMPLETE."""
    current_day_number: Annotated[int, Field(ge=0, le=7)] = 0
    """Day of the rollout (1-7: 1, 2, 5, 10, 20, 50, 100 percent)."""
    total_pause_days: Annotated[int, Field(ge=0, le=MAX_PAUSE_DAYS)] = 0
    """Days spent paused so far."""
    start_date: DateTime | None = None
    """When the rollout started."""


class BetaGroup(Timestamped):
    """A TestFlight group of testers and the builds they get."""

    id: GroupId
    app_id: AppId
    """The app."""
    name: Title
    """The group's name."""
    is_internal: bool = False
    """Internal groups hold team members and need no Beta App Review."""
    public_link_enabled: bool = False
    """Whether anyone with the link can join (external only)."""
    build_ids: tuple[BuildId, ...] = ()
    """Builds the group can test."""


class BetaTester(Timestamped):
    """A TestFlight tester."""

    id: TesterId
    email: Email
    """The tester's Apple ID e-mail (unique)."""
    first_name: FirstName | None = None
    """Given name."""
    last_name: LastName | None = None
    """Family name."""
    group_ids: tuple[GroupId, ...] = ()
    """Groups the tester is in."""
    state: Literal["INVITED", "ACCEPTED", "INSTALLED"] = "INVITED"
    """Invitation state."""


class CustomerReview(Created):
    """A rating and review on the store, with the developer's response."""

    id: ReviewId
    app_id: AppId
    """The app."""
    rating: Annotated[int, Field(ge=1, le=5)]
    """Stars."""
    title: Title
    """Review title."""
    body: Text
    """Review text."""
    reviewer_nickname: Annotated[str, StringConstraints(min_length=1, max_length=60)]
    """Public nickname."""
    territory: Country
    """Store country."""
    response_body: Text | None = None
    """The developer's response."""
    response_state: Literal["PENDING_PUBLISH", "PUBLISHED"] | None = None
    """Whether the response is live."""


# -- rules ------------------------------------------------------------------------------------


def _guard_version(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.app_store_state not in EDITABLE:
        raise RuleViolation(
            f"version {old.version_string} is {old.app_store_state}",
            field="version_id",
            hint="only a version being prepared or rejected can be edited",
        )
    if new.release_type == "SCHEDULED" and new.earliest_release_date is None:
        raise RuleViolation(
            "a scheduled release needs earliest_release_date", field="earliest_release_date", hint="set the date"
        )


def _guard_phased(ctx: Ctx, new: Any, old: Any) -> None:
    if old.state == "PAUSED" and new.state == "ACTIVE":
        days = old.total_pause_days + max(0, (ctx.now() - old.updated_at).days)
        if days > MAX_PAUSE_DAYS:
            raise RuleViolation("paused for more than 30 days", field="phased_release_id", hint="complete it")
        ctx.update(new, total_pause_days=days)
    if new.state == "COMPLETE":
        ctx.update(new, current_day_number=7)


def _guard_group_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for t in ctx.scan(BetaTester):
        if old.id in t.group_ids:
            ctx.update(t, group_ids=tuple(g for g in t.group_ids if g != old.id))


apps = service.resource(
    App,
    name="app",
    plural="apps",
    prefix="app",
    create=False,
    filters=("platform", "bundle_id"),
    search=("name",),
    update=("name", "primary_locale"),
    delete=False,
    unique=("bundle_id",),
)
builds = service.resource(
    Build,
    name="build",
    plural="builds",
    prefix="bld",
    create=False,
    filters=("app_id", "version", "processing_state", "expired", "beta_review_state"),
    update=("uses_non_exempt_encryption",),
    delete=False,
    transitions={"expire": Transition("expired", (False,), True, "expire the build for testing", destructive=True)},
)
versions = service.resource(
    Version,
    name="version",
    plural="versions",
    prefix="ver",
    create=False,
    filters=("app_id", "app_store_state", "version_string"),
    update=("whats_new", "release_type", "earliest_release_date"),
    delete=False,
    guard_update=_guard_version,
    title="App Store version",
)
phased = service.resource(
    PhasedRelease,
    name="phased_release",
    plural="phased_releases",
    prefix="phr",
    create=False,
    filters=("version_id", "state"),
    delete=False,
    transitions={
        "pause": Transition("state", ("ACTIVE",), "PAUSED", "pause the phased release"),
        "resume": Transition("state", ("PAUSED",), "ACTIVE", "resume the phased release"),
        "complete": Transition(
            "state", ("ACTIVE", "PAUSED"), "COMPLETE", "release the update to all users", destructive=True
        ),
    },
    guard_update=_guard_phased,
    title="phased release",
)
groups = service.resource(
    BetaGroup,
    name="beta_group",
    plural="beta_groups",
    prefix="grp",
    create=("app_id", "name", "is_internal", "public_link_enabled"),
    filters=("app_id", "is_internal"),
    search=("name",),
    guard_delete=_guard_group_delete,
    title="beta group",
)
testers = service.resource(
    BetaTester,
    name="beta_tester",
    plural="beta_testers",
    prefix="tst",
    create=False,
    filters=("email", "state"),
    search=("email", "first_name", "last_name"),
    delete=False,
    unique=("email",),
    title="beta tester",
)
reviews = service.resource(
    CustomerReview,
    name="customer_review",
    plural="customer_reviews",
    prefix="rev",
    create=False,
    filters=("app_id", "rating", "territory", "response_state"),
    search=("title", "body"),
    delete=False,
    title="customer review",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_version(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.scan(App):
        if not any(v.app_store_state in EDITABLE + IN_FLIGHT for v in ctx.where(Version, app_id=app.id)):
            return {"app_id": app.id, "version_string": "9.0.0"}
    return None


@service.tool(intent="create a new App Store version", write=True, example=_example_version)
def create_version(ctx: Ctx, app_id: AppId, version_string: VersionString) -> Version:
    """Start a new version of an app; it must be higher than every earlier version, one in the works at a time.

    Args:
        app_id: The app.
        version_string: The new version, e.g. 2.5.0.
    """
    app = ctx.get(App, app_id, field="app_id")
    existing = ctx.where(Version, app_id=app.id)
    busy = next((v for v in existing if v.app_store_state in EDITABLE + IN_FLIGHT), None)
    if busy is not None:
        raise Conflict(
            f"version {busy.version_string} of {app.name} is {busy.app_store_state}",
            field="app_id",
            hint="release it or cancel its submission first",
        )
    top = max((v.version_string for v in existing), key=_key, default=None)
    if top is not None and _key(version_string) <= _key(top):
        raise RuleViolation(
            f"{version_string} is not higher than {top}", field="version_string", hint="increase the version"
        )
    return ctx.create(Version, app_id=app.id, version_string=version_string)


@service.tool(
    intent="attach the build to the version",
    write=True,
    example=lambda ctx: next(
        (
            {"version_id": v.id, "build_id": b.id}
            for v in ctx.where(Version, app_store_state="PREPARE_FOR_SUBMISSION")
            for b in ctx.where(Build, app_id=v.app_id, version=v.version_string, processing_state="VALID")
        ),
        None,
    ),
)
def attach_build(ctx: Ctx, version_id: VersionId, build_id: BuildId) -> Version:
    """Choose the build a version ships: a valid build of the same app and version string.

    Args:
        version_id: The version (being prepared or rejected).
        build_id: The build.
    """
    v = ctx.get(Version, version_id, field="version_id")
    b = ctx.get(Build, build_id, field="build_id")
    if b.app_id != v.app_id or b.version != v.version_string:
        raise RuleViolation(
            f"build {b.id} is {b.version} ({b.build_number}) of another app or version",
            field="build_id",
            hint=f"upload a build of version {v.version_string}",
        )
    if b.processing_state != "VALID":
        raise RuleViolation(f"build {b.id} is {b.processing_state}", field="build_id", hint="pick a VALID build")
    if v.app_store_state not in EDITABLE:
        raise RuleViolation(f"version is {v.app_store_state}", field="version_id", hint="cancel the submission first")
    return ctx.update(v, build_id=b.id)


@service.tool(
    intent="submit the version for review",
    write=True,
    example=first_example(Version, "version_id", where={"app_store_state": "REJECTED"}),
)
def submit_for_review(ctx: Ctx, version_id: VersionId) -> Version:
    """Submit a version to App Review: it needs a valid build with export compliance answered, and release notes.

    Args:
        version_id: The version.
    """
    v = ctx.get(Version, version_id, field="version_id")
    if v.app_store_state not in EDITABLE:
        raise RuleViolation(f"version is {v.app_store_state}", field="version_id", hint="nothing to submit")
    if v.build_id is None:
        raise RuleViolation("no build attached", field="version_id", hint="attach one with appstore__attach_build")
    b = ctx.get(Build, v.build_id)
    if b.uses_non_exempt_encryption is None:
        raise RuleViolation(
            f"export compliance of build {b.id} is not answered",
            field="version_id",
            hint="set uses_non_exempt_encryption with appstore__update_build",
        )
    released = any(x.released_at for x in ctx.where(Version, app_id=v.app_id))
    if released and not v.whats_new.strip():
        raise RuleViolation("an update needs release notes", field="version_id", hint="fill in whats_new")
    return ctx.update(v, app_store_state="WAITING_FOR_REVIEW", rejection_reason="")


@service.tool(
    intent="cancel the review submission",
    write=True,
    example=first_example(Version, "version_id", where={"app_store_state": "WAITING_FOR_REVIEW"}),
)
def cancel_submission(ctx: Ctx, version_id: VersionId) -> Version:
    """Pull a version out of review (or reject an approved one yourself): it becomes DEVELOPER_REJECTED and editable.

    Args:
        version_id: The version waiting for or in review, or pending release.
    """
    v = ctx.get(Version, version_id, field="version_id")
    if v.app_store_state not in IN_FLIGHT:
        raise RuleViolation(f"version is {v.app_store_state}", field="version_id", hint="it is not in review")
    return ctx.update(v, app_store_state="DEVELOPER_REJECTED")


@service.tool(
    intent="release the version",
    write=True,
    example=first_example(Version, "version_id", where={"app_store_state": "PENDING_DEVELOPER_RELEASE"}),
)
def release_version(ctx: Ctx, version_id: VersionId) -> Version:
    """Put an approved version on sale; the previous one is replaced and a phased release starts its day 1.

    Args:
        version_id: A version PENDING_DEVELOPER_RELEASE.
    """
    v = ctx.get(Version, version_id, field="version_id")
    if v.app_store_state != "PENDING_DEVELOPER_RELEASE":
        raise RuleViolation(f"version is {v.app_store_state}", field="version_id", hint="only approved versions")
    now = ctx.now()
    for old in ctx.where(Version, app_id=v.app_id, app_store_state="READY_FOR_SALE"):
        ctx.update(old, app_store_state="REPLACED_WITH_NEW_VERSION")
    for ph in ctx.where(PhasedRelease, version_id=v.id, state="INACTIVE"):
        ctx.update(ph, state="ACTIVE", current_day_number=1, start_date=now)
    return ctx.update(v, app_store_state="READY_FOR_SALE", released_at=now)


@service.tool(
    intent="roll out the version in phases",
    write=True,
    example=lambda ctx: next(
        (
            {"version_id": v.id}
            for v in ctx.scan(Version)
            if v.app_store_state in EDITABLE + IN_FLIGHT and not ctx.where(PhasedRelease, version_id=v.id)
        ),
        None,
    ),
)
def create_phased_release(ctx: Ctx, version_id: VersionId) -> PhasedRelease:
    """Release a not-yet-released version's automatic update over seven days (1% to 100%).

    Args:
        version_id: The version.
    """
    v = ctx.get(Version, version_id, field="version_id")
    if v.app_store_state not in EDITABLE + IN_FLIGHT:
        raise RuleViolation(f"version is {v.app_store_state}", field="version_id", hint="it is already out")
    if ctx.where(PhasedRelease, version_id=v.id):
        raise Conflict("the version already has a phased release", field="version_id", hint="manage that one")
    return ctx.create(PhasedRelease, version_id=v.id)


@service.tool(
    intent="add the build to the beta group",
    write=True,
    example=lambda ctx: next(
        (
            {"beta_group_id": g.id, "build_id": b.id}
            for g in ctx.where(BetaGroup, is_internal=True)
            for b in ctx.where(Build, app_id=g.app_id, processing_state="VALID", expired=False)
            if b.id not in g.build_ids and b.uses_non_exempt_encryption is not None
        ),
        None,
    ),
)
def add_build_to_group(ctx: Ctx, beta_group_id: GroupId, build_id: BuildId) -> BetaGroup:
    """Let a beta group test a build: valid, unexpired, compliance answered; external groups need Beta App Review.

    Args:
        beta_group_id: The group.
        build_id: The build of the group's app.
    """
    g = ctx.get(BetaGroup, beta_group_id, field="beta_group_id")
    b = ctx.get(Build, build_id, field="build_id")
    if b.app_id != g.app_id or b.processing_state != "VALID" or b.expired:
        raise RuleViolation(
            f"build {b.id} is not a valid, unexpired build of this app", field="build_id", hint="upload a new build"
        )
    if b.uses_non_exempt_encryption is None:
        raise RuleViolation("export compliance is not answered", field="build_id", hint="answer it on the build")
    if not g.is_internal and b.beta_review_state != "APPROVED":
        raise RuleViolation(
            f"build {b.id} is {b.beta_review_state} in Beta App Review",
            field="build_id",
            hint="submit it with appstore__submit_beta_review and wait for approval",
        )
    if b.id in g.build_ids:
        raise Conflict(f"{g.name} already tests build {b.id}", field="build_id", hint="nothing to do")
    return ctx.update(g, build_ids=(*g.build_ids, b.id))


@service.tool(
    intent="submit the build to Beta App Review",
    write=True,
    example=first_example(Build, "build_id", where={"beta_review_state": "NOT_SUBMITTED", "expired": False}),
)
def submit_beta_review(ctx: Ctx, build_id: BuildId) -> Build:
    """Send a valid build to Beta App Review so external groups can test it.

    Args:
        build_id: The build.
    """
    b = ctx.get(Build, build_id, field="build_id")
    if b.processing_state != "VALID" or b.expired:
        raise RuleViolation(f"build {b.id} cannot be tested", field="build_id", hint="use a valid, unexpired build")
    if b.beta_review_state in ("WAITING_FOR_REVIEW", "APPROVED"):
        raise Conflict(f"build {b.id} is {b.beta_review_state}", field="build_id", hint="nothing to submit")
    return ctx.update(b, beta_review_state="WAITING_FOR_REVIEW")


def _example_invite(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(BetaGroup, is_internal=False)
    return None if g is None else {"beta_group_id": g.id, "email": "new.tester@inbox.io", "first_name": "Noor"}


@service.tool(intent="invite the beta tester", write=True, example=_example_invite)
def invite_beta_tester(
    ctx: Ctx,
    beta_group_id: GroupId,
    email: Email,
    first_name: FirstName | None = None,
    last_name: LastName | None = None,
) -> BetaTester:
    """Invite someone to a beta group (creating the tester if new); internal groups take team members only.

    Args:
        beta_group_id: The group.
        email: The tester's e-mail.
        first_name: Given name.
        last_name: Family name.
    """
    g = ctx.get(BetaGroup, beta_group_id, field="beta_group_id")
    if g.is_internal and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(
            f"{email} is not on the team", field="email", hint="invite outside testers to an external group"
        )
    t = ctx.first(BetaTester, email=email)
    if t is None:
        return ctx.create(BetaTester, email=email, first_name=first_name, last_name=last_name, group_ids=(g.id,))
    if g.id in t.group_ids:
        raise Conflict(f"{email} is already in {g.name}", field="email", hint="nothing to do")
    return ctx.update(t, group_ids=(*t.group_ids, g.id))


@service.tool(
    intent="remove the tester from the beta group",
    write=True,
    example=lambda ctx: next(
        ({"beta_group_id": t.group_ids[0], "beta_tester_id": t.id} for t in ctx.scan(BetaTester) if t.group_ids), None
    ),
)
def remove_beta_tester(ctx: Ctx, beta_group_id: GroupId, beta_tester_id: TesterId) -> BetaTester:
    """Take a tester out of a group; they stop getting its builds.

    Args:
        beta_group_id: The group.
        beta_tester_id: The tester.
    """
    t = ctx.get(BetaTester, beta_tester_id, field="beta_tester_id")
    if beta_group_id not in t.group_ids:
        raise RuleViolation(f"{t.email} is not in {beta_group_id}", field="beta_group_id", hint="check the group")
    return ctx.update(t, group_ids=tuple(g for g in t.group_ids if g != beta_group_id))


@service.tool(
    intent="respond to the customer review",
    write=True,
    example=first_example(
        CustomerReview, "customer_review_id", where={"response_state": None}, response_body="Thanks!"
    ),
)
def respond_to_review(
    ctx: Ctx,
    customer_review_id: ReviewId,
    response_body: Annotated[str, StringConstraints(min_length=1, max_length=5970)],
) -> CustomerReview:
    """Publish (or replace) the developer's one response to a review; it shows after moderation.

    Args:
        customer_review_id: The review.
        response_body: The response, up to 5970 characters.
    """
    r = ctx.get(CustomerReview, customer_review_id, field="customer_review_id")
    if not response_body.strip():
        raise RuleViolation("the response is empty", field="response_body", hint="write something")
    return ctx.update(r, response_body=response_body.strip(), response_state="PENDING_PUBLISH")


@service.tool(
    intent="delete the response to the review",
    write=True,
    destructive=True,
    example=first_example(CustomerReview, "customer_review_id", where={"response_state": "PUBLISHED"}),
)
def delete_review_response(ctx: Ctx, customer_review_id: ReviewId) -> CustomerReview:
    """Remove the developer's response from a review.

    Args:
        customer_review_id: The review.
    """
    r = ctx.get(CustomerReview, customer_review_id, field="customer_review_id")
    if r.response_state is None:
        raise RuleViolation("the review has no response", field="customer_review_id", hint="nothing to delete")
    return ctx.update(r, response_body=None, response_state=None)


# -- seed -------------------------------------------------------------------------------------

# (name suffix, bundle suffix, platform, versions oldest first with their state)
APPS: tuple[tuple[str, str, Literal["IOS", "MAC_OS", "TV_OS"], tuple[tuple[str, AppState], ...]], ...] = (
    (
        "",
        "app",
        "IOS",
        (("1.0.0", "REPLACED_WITH_NEW_VERSION"), ("2.3.0", "READY_FOR_SALE"), ("2.4.0", "PENDING_DEVELOPER_RELEASE")),
    ),
    ("Field", "field", "IOS", (("1.0.0", "READY_FOR_SALE"), ("1.1.0", "REJECTED"))),
    ("Desktop", "desktop", "MAC_OS", (("2.9.0", "READY_FOR_SALE"), ("3.0.0", "WAITING_FOR_REVIEW"))),
    ("Kiosk", "kiosk", "IOS", (("1.0.0", "PREPARE_FOR_SUBMISSION"),)),
    ("Wallet", "wallet", "IOS", (("1.2", "READY_FOR_SALE"),)),
)
REVIEWS = (
    (5, "Does what it says", "Fast, clean and the sync finally works."),
    (2, "Crashes on launch", "Since the last update it crashes when I open a report."),
    (4, "Great, one wish", "Love it. Please add a dark mode."),
    (1, "Lost my data", "After logging in again everything was gone."),
    (3, "Okay", "Decent but slow on older phones."),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The home company's apps with versions in every review state, builds, phased releases, TestFlight, reviews."""
    pop = s.population
    home = pop.home
    domain = ".".join(reversed(home.domain.split(".")))
    fans = list(pop.consumers[:25])
    for a, (suffix, slug, platform, history) in enumerate(APPS):
        app = s.create(
            App,
            name=f"{home.name} {suffix}".strip(),
            bundle_id=f"{domain}.{slug}".lower(),
            sku=f"{slug.upper()}-{a + 1:02d}",
            platform=platform,
            created_at=s.ago(days=900 - 100 * a),
        )
        for k, (vs, state) in enumerate(history):
            uploaded = s.ago(days=200 - 60 * k - 5 * a) if k < len(history) - 1 else s.ago(days=6 + a)
            build = s.create(
                Build,
                app_id=app.id,
                version=vs,
                build_number=100 * (k + 1) + a,
                uses_non_exempt_encryption=None if state == "PREPARE_FOR_SUBMISSION" else False,
                expired=(s.now - uploaded).days > TESTFLIGHT_DAYS,
                beta_review_state="APPROVED" if k == len(history) - 1 and a < 2 else "NOT_SUBMITTED",
                uploaded_at=uploaded,
                created_at=uploaded,
                updated_at=uploaded,
            )
            out = state in ("READY_FOR_SALE", "REPLACED_WITH_NEW_VERSION")
            v = s.create(
                Version,
                app_id=app.id,
                version_string=vs,
                app_store_state=state,
                build_id=None if state == "PREPARE_FOR_SUBMISSION" else build.id,
                whats_new="" if k == 0 else f"Version {vs}: performance improvements and bug fixes.",
                rejection_reason="Guideline 2.1 - Performance: the app crashed on launch on iPad."
                if state == "REJECTED"
                else "",
                released_at=uploaded + dt.timedelta(days=3) if out else None,
                created_at=uploaded,
                updated_at=uploaded + dt.timedelta(days=3),
            )
            if (state == "READY_FOR_SALE" and a < 3) or (a, state) == (0, "PENDING_DEVELOPER_RELEASE"):
                live = state == "READY_FOR_SALE"
                s.create(
                    PhasedRelease,
                    version_id=v.id,
                    state=("COMPLETE", "ACTIVE", "PAUSED")[a] if live else "INACTIVE",
                    current_day_number=(7, 4, 3)[a] if live else 0,
                    total_pause_days=(0, 0, 2)[a],
                    start_date=v.released_at,
                    created_at=uploaded,
                    updated_at=s.ago(days=1),
                )
        if a > 1:
            continue
        latest = s.records(Build)[-1]
        internal, public = (
            s.create(
                BetaGroup,
                app_id=app.id,
                name=name,
                is_internal=inside,
                public_link_enabled=not inside,
                build_ids=(latest.id,),
                created_at=s.ago(days=300),
                updated_at=s.ago(days=6),
            )
            for name, inside in (("Team", True), ("Public beta", False))
        )
        if a == 0:
            s.create(
                Build,
                app_id=app.id,
                version=latest.version,
                build_number=latest.build_number + 1,
                uses_non_exempt_encryption=False,
                uploaded_at=s.ago(days=1),
                created_at=s.ago(days=1),
                updated_at=s.ago(days=1),
            )
        for k, p in enumerate(pop.employees[:4] if a == 0 else pop.employees[4:6]):
            _tester(s, p.email, p.first_name, p.last_name, internal.id, k)
        for k, p in enumerate(fans[6 * a : 6 * a + 6]):
            _tester(s, p.email, p.first_name, p.last_name, public.id, k)
        for k, (stars, title, body) in enumerate(REVIEWS):
            p = fans[(k + 5 * a) % len(fans)]
            answered = stars <= 2 and k % 2 == 1
            s.create(
                CustomerReview,
                app_id=app.id,
                rating=stars,
                title=title,
                body=body,
                reviewer_nickname=f"{p.first_name}{p.last_name[:1]}{k + 10 * a}",
                territory=p.address.country,
                response_body="Sorry about that! A fix is in the next update." if answered else None,
                response_state="PUBLISHED" if answered else None,
                created_at=s.ago(days=3 + 9 * k + a),
            )


def _tester(s: SeedContext, email: str, first: str, last: str, group: str, k: int) -> None:
    known = next((t for t in s.records(BetaTester) if t.email == email), None)
    if known is not None:
        s.update(known, group_ids=(*known.group_ids, group))
        return
    s.create(
        BetaTester,
        email=email,
        first_name=first,
        last_name=last,
        group_ids=(group,),
        state=("INSTALLED", "ACCEPTED", "INVITED")[k % 3],
        created_at=s.ago(days=100 - k),
        updated_at=s.ago(days=10),
    )
