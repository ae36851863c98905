"""Dockyard Registry: container image repositories, tags and digests, vulnerability scans and access tokens.

Modeled on the Docker Hub API v2 (Organizations with plans, Members and
roles, Repositories with visibility, immutable tags and retention policies,
Tags pointing at manifest digests, image vulnerability scans as in Docker
Scout, Personal access tokens with scopes and expiry) and the GitHub Packages
container registry: only editors and owners push; an immutable tag never
moves to another digest and is never deleted; each push applies the
repository's keep-last-N retention (``latest`` is always kept); private
repositories count against the organization plan's limit; private images are
pulled by members only; an image is deployable only with a recent scan whose
findings stay within the allowed severity; tokens are shown once, expire
within a year, and viewers get read-only tokens.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, DateTime, Email, IdOf, PersonName, Quantity, Text, Url
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "registry",
    title="Dockyard Registry",
    category="ci_cd",
    modeled_on="Docker Hub API v2 (Organization, Member, Repository, Tag, image vulnerability scan, Personal "
    "access token) / GitHub Packages container registry",
    description="Container image hosting: organizations and their members, image repositories with tags "
    "pointing at digests, retention policies and immutable tags, vulnerability scans that gate deployment, "
    "and personal access tokens for docker login.",
)

NamespaceId = Annotated[str, IdOf("registry.namespace")]
MemberId = Annotated[str, IdOf("registry.member")]
RepositoryId = Annotated[str, IdOf("registry.repository")]
TagId = Annotated[str, IdOf("registry.tag")]
ScanId = Annotated[str, IdOf("registry.scan")]
TokenId = Annotated[str, IdOf("registry.access_token")]

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:[._-][a-z0-9]+)*$", max_length=64)]
TagName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")]
Digest = Annotated[str, StringConstraints(pattern=r"^sha256:[0-9a-f]{64}$")]
Role = Literal["owner", "editor", "viewer"]
Plan = Literal["free", "pro", "team"]
Severity = Literal["critical", "high", "medium", "low"]
Scope = Literal["repo:read", "repo:write", "repo:delete"]
PLAN_PRIVATE_LIMIT: dict[str, int | None] = {"free": 1, "pro": 10, "team": None}
SEVERITIES: tuple[str, ...] = ("critical", "high", "medium", "low")
SCAN_MAX_AGE_DAYS = 30
RECENT_PULL_DAYS = 7
MAX_ACTIVE_TOKENS = 5


class Namespace(Record):
    """An organization that owns repositories; its plan limits private repositories."""

    id: NamespaceId
    name: Slug
    """Organization name, the first part of repository names (acme/web)."""
    company: CompanyName
    """The company the organization belongs to."""
    plan: Plan = "team"
    """free (1 private repository), pro (10) or team (unlimited)."""


class Member(Record):
    """A person's role in an organization."""

    id: MemberId
    namespace_id: NamespaceId
    """The organization."""
    name: PersonName
    """Full name."""
    email: Email
    """E-mail address."""
    role: Role = "viewer"
    """owner (administers), editor (pushes and deletes) or viewer (pulls only)."""


class Repository(Created):
    """An image repository."""

    id: RepositoryId
    namespace_id: NamespaceId
    """The organization."""
    name: Slug
    """Repository name; unique in the organization."""
    full_name: Annotated[str, StringConstraints(pattern=r"^[a-z0-9._-]+/[a-z0-9._-]+$")]
    """organization/name, as used by docker pull."""
    description: Text = ""
    """Short description."""
    visibility: Literal["public", "private"] = "private"
    """public (anyone pulls) or private (members only; counts against the plan)."""
    immutable_tags: bool = False
    """Whether tags, once pushed, can neither move to another digest nor be deleted."""
    retention_keep_last: Annotated[int, Field(ge=1, le=1000)] | None = None
    """Keep only this many most recently pushed tags ('latest' always kept); null keeps everything."""
    source_url: Url | None = None
    """The source repository the images are built from."""
    pull_count: Quantity = 0
    """Number of pulls."""
    last_pushed_at: DateTime | None = None
    """When a tag was last pushed."""


class Tag(Record):
    """A tag of a repository pointing at an image manifest digest."""

    id: TagId
    repository_id: RepositoryId
    """The repository."""
    name: TagName
    """Tag name (1.4.2, latest); unique in the repository."""
    digest: Digest
    """Manifest digest the tag points at; several tags may share one."""
    size_bytes: Annotated[int, Field(ge=0, le=10**11)]
    """Compressed image size."""
    pushed_by_email: Email
    """Who pushed it."""
    pushed_at: DateTime
    """When it was pushed (or last re-pointed)."""
    last_pulled_at: DateTime | None = None
    """When it was last pulled."""


class Finding(Value):
    """One known vulnerability in an image."""

    cve: Annotated[str, StringConstraints(pattern=r"^CVE-\d{4}-\d{4,7}$")] = Field(description="CVE identifier.")
    package: str = Field(description="Affected package.")
    severity: Severity = Field(description="critical, high, medium or low.")
    fixed_in: str | None = Field(default=None, description="Package version that fixes it, if any.")


class Scan(Record):
    """A vulnerability scan of one image digest."""

    id: ScanId
    repository_id: RepositoryId
    """The repository."""
    digest: Digest
    """The image scanned."""
    critical: Quantity = 0
    """Critical findings."""
    high: Quantity = 0
    """High findings."""
    medium: Quantity = 0
    """Medium findings."""
    low: Quantity = 0
    """Low findings."""
    findings: list[Finding] = Field(default_factory=list)
    """The findings."""
    scanned_at: Annotated[DateTime, CREATED]
    """When the scan ran."""


class AccessToken(Timestamped):
    """A personal access token for docker login; the secret is shown only when it is created."""

    id: TokenId
    namespace_id: NamespaceId
    """The organization the token works in."""
    member_email: Email
    """Whose token it is."""
    description: Text
    """What it is used for."""
    scopes: tuple[Scope, ...]
    """repo:read, repo:write, repo:delete."""
    token_prefix: Annotated[str, StringConstraints(pattern=r"^dckr_pat_[A-Za-z0-9]{4}$")]
    """First characters of the secret, to recognise it."""
    expires_at: DateTime
    """When it stops working."""
    active: bool = True
    """Revoked tokens are inactive."""


# -- rules ------------------------------------------------------------------------------------


def _role(ctx: Ctx, namespace_id: str, email: str) -> str | None:
    m = ctx.first(Member, namespace_id=namespace_id, email=email)
    return m.role if m else None


def _require_writer(ctx: Ctx, namespace_id: str, email: str, field: str) -> None:
    role = _role(ctx, namespace_id, email)
    if role is None:
        raise NotFound(
            f"{email} is not a member of the organization",
            field=field,
            hint="list the organization's members with registry__list_members",
        )
    if role == "viewer":
        raise RuleViolation(
            f"{email} is a viewer and cannot push or delete",
            field=field,
            hint="an owner must make them an editor, or someone with the editor role does it",
        )


def _private_limit_ok(ctx: Ctx, namespace_id: str, field: str) -> None:
    ns = ctx.get(Namespace, namespace_id)
    limit = PLAN_PRIVATE_LIMIT[ns.plan]
    if limit is None:
        return
    count = len(ctx.where(Repository, namespace_id=ns.id, visibility="private"))
    if count > limit:
        raise RuleViolation(
            f"the {ns.plan} plan of {ns.name} allows {limit} private repositories",
            field=field,
            hint="make another repository public, or upgrade the plan with registry__update_namespace",
        )


def _guard_repository(ctx: Ctx, new: Any, old: Any) -> None:
    if new.visibility == "private" and (old is None or old.visibility != "private"):
        _private_limit_ok(ctx, new.namespace_id, "visibility")


def _guard_repository_delete(ctx: Ctx, new: Any, old: Any) -> None:
    tags = ctx.where(Tag, repository_id=old.id)
    if old.immutable_tags and tags:
        raise RuleViolation(
            f"{old.full_name} has immutable tags",
            field="repository_id",
            hint="turn immutable_tags off with registry__update_repository first",
        )
    for t in tags:
        ctx.delete(t)
    for sc in ctx.where(Scan, repository_id=old.id):
        ctx.delete(sc)


def _guard_namespace(ctx: Ctx, new: Any, old: Any) -> None:
    _private_limit_ok(ctx, new.id, "plan")


namespaces = service.resource(
    Namespace,
    name="namespace",
    plural="namespaces",
    prefix="ns",
    create=False,
    get=False,
    filters=("name", "company", "plan"),
    update=("plan",),
    delete=False,
    unique=("name",),
    guard_update=_guard_namespace,
    title="organization",
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mem",
    create=False,
    get=False,
    filters=("namespace_id", "email", "role"),
    search=("name", "email"),
    delete=False,
    title="organization member",
)
repositories = service.resource(
    Repository,
    name="repository",
    plural="repositories",
    prefix="repo",
    create=False,
    filters=("namespace_id", "visibility", "full_name", "immutable_tags"),
    search=("name", "description"),
    update=("description", "visibility", "immutable_tags", "retention_keep_last", "source_url"),
    guard_update=_guard_repository,
    guard_delete=_guard_repository_delete,
    title="image repository",
)
tags = service.resource(
    Tag,
    name="tag",
    plural="tags",
    prefix="tag",
    create=False,
    get=False,
    filters=("repository_id", "name", "digest", "pushed_by_email"),
    delete=False,
    title="image tag",
)
scans = service.resource(
    Scan,
    name="scan",
    plural="scans",
    prefix="scan",
    create=False,
    get=False,
    filters=("repository_id", "digest"),
    delete=False,
    title="vulnerability scan",
)
tokens = service.resource(
    AccessToken,
    name="access_token",
    plural="access_tokens",
    prefix="pat",
    create=False,
    get=False,
    filters=("namespace_id", "member_email", "active"),
    search=("description",),
    delete=False,
    transitions={"revoke": Transition("active", (True,), False, "revoke the access token", destructive=True)},
    title="access token",
)


# -- helpers ----------------------------------------------------------------------------------


def _tag(ctx: Ctx, repo: Repository, name: str, field: str) -> Tag:
    found = ctx.first(Tag, repository_id=repo.id, name=name)
    if found is None:
        raise NotFound(
            f"{repo.full_name} has no tag {name}", field=field, hint="list its tags with registry__list_tags"
        )
    return found


def _retention_victims(ctx: Ctx, repo: Repository) -> list[Tag]:
    if repo.retention_keep_last is None:
        return []
    ordered = sorted(
        (t for t in ctx.where(Tag, repository_id=repo.id) if t.name != "latest"),
        key=lambda t: (t.pushed_at, t.id),
        reverse=True,
    )
    return sorted(ordered[repo.retention_keep_last :], key=lambda t: t.name)


CVES: tuple[tuple[str, str, Severity, str | None], ...] = (
    ("CVE-2024-3094", "xz-utils", "critical", "5.6.2"),
    ("CVE-2023-44487", "nghttp2", "high", "1.57.0"),
    ("CVE-2024-6387", "openssh", "high", "9.8p1"),
    ("CVE-2023-5363", "openssl", "high", "3.0.12"),
    ("CVE-2024-2511", "openssl", "medium", "3.0.14"),
    ("CVE-2023-4911", "glibc", "high", "2.38"),
    ("CVE-2024-28182", "nghttp2", "medium", "1.61.0"),
    ("CVE-2023-39615", "libxml2", "medium", None),
    ("CVE-2024-0727", "openssl", "low", "3.0.13"),
    ("CVE-2023-29383", "shadow", "low", None),
    ("CVE-2022-48174", "busybox", "critical", "1.36.1"),
    ("CVE-2024-24557", "moby", "medium", "25.0.2"),
)


def _findings(digest: str) -> list[Finding]:
    """The vulnerabilities of an image: a fixed function of its digest."""
    h = hashlib.sha256(f"dockyard-scan:{digest}".encode()).digest()
    n = h[0] % 6
    picked = sorted({h[1 + k] % len(CVES) for k in range(n)})
    return [Finding(cve=c, package=p, severity=sev, fixed_in=fix) for c, p, sev, fix in (CVES[i] for i in picked)]


def _scan_record(findings: list[Finding]) -> dict[str, Any]:
    counts = {sev: sum(1 for f in findings if f.severity == sev) for sev in SEVERITIES}
    return {"findings": findings, **counts}


# -- examples ---------------------------------------------------------------------------------


def _writer_of(ctx: Ctx, namespace_id: str) -> str | None:
    for m in ctx.where(Member, namespace_id=namespace_id):
        if m.role != "viewer":
            return m.email
    return None


def _example_push(ctx: Ctx) -> dict[str, Any] | None:
    for repo in ctx.scan(Repository):
        who = _writer_of(ctx, repo.namespace_id)
        if who is not None:
            return {
                "repository_id": repo.id,
                "tag": "2.0.0-rc1",
                "digest": "sha256:" + "ab" * 32,
                "size_bytes": 52_000_000,
                "pushed_by_email": who,
            }
    return None


def _example_retag(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(Tag)
    if t is None:
        return None
    repo = ctx.get(Repository, t.repository_id)
    who = _writer_of(ctx, repo.namespace_id)
    return (
        None if who is None else {"repository_id": repo.id, "source_tag": t.name, "new_tag": "stable", "by_email": who}
    )


def _example_pull(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(Tag)
    if t is None:
        return None
    repo = ctx.get(Repository, t.repository_id)
    m = ctx.first(Member, namespace_id=repo.namespace_id)
    return None if m is None else {"repository_id": repo.id, "tag": t.name, "email": m.email}


def _example_delete(ctx: Ctx) -> dict[str, Any] | None:
    for repo in ctx.where(Repository, immutable_tags=False):
        who = _writer_of(ctx, repo.namespace_id)
        t = ctx.first(Tag, repository_id=repo.id)
        if who and t:
            return {"repository_id": repo.id, "tag": t.name, "by_email": who, "force": True}
    return None


# -- domain tools -----------------------------------------------------------------------------


def _example_create_repo(ctx: Ctx) -> dict[str, Any] | None:
    ns = ctx.first(Namespace, plan="team")
    who = _writer_of(ctx, ns.id) if ns else None
    if ns is None or who is None:
        return None
    return {"namespace_id": ns.id, "name": "search-service", "created_by_email": who, "visibility": "private"}


@service.tool(intent="create an image repository", write=True, example=_example_create_repo)
def create_repository(
    ctx: Ctx,
    namespace_id: NamespaceId,
    name: Slug,
    created_by_email: Email,
    description: Text = "",
    visibility: Literal["public", "private"] = "private",
    immutable_tags: bool = False,
    retention_keep_last: Annotated[int, Field(ge=1, le=1000)] | None = None,
    source_url: Url | None = None,
) -> Repository:
    """Create an image repository in an organization; only its editors and owners may.

    Private repositories count against the organization plan's limit.

    Args:
        namespace_id: The organization.
        name: Repository name (lower case), unique in the organization.
        created_by_email: E-mail of the editor or owner creating it.
        description: Short description.
        visibility: public or private.
        immutable_tags: Whether tags can never be overwritten or deleted.
        retention_keep_last: Keep only this many most recently pushed tags.
        source_url: The source repository the images are built from.
    """
    ns = ctx.get(Namespace, namespace_id, field="namespace_id")
    _require_writer(ctx, ns.id, created_by_email, "created_by_email")
    if ctx.first(Repository, namespace_id=ns.id, name=name) is not None:
        raise Conflict(
            f"{ns.name}/{name} already exists", field="name", hint="pick another name or use the existing repository"
        )
    repo = ctx.create(
        Repository,
        namespace_id=ns.id,
        name=name,
        full_name=f"{ns.name}/{name}",
        description=description,
        visibility=visibility,
        immutable_tags=immutable_tags,
        retention_keep_last=retention_keep_last,
        source_url=source_url,
    )
    if visibility == "private":
        _private_limit_ok(ctx, ns.id, "visibility")
    return repo


class PushResult(BaseModel):
    """A pushed tag and the tags the retention policy removed."""

    tag: Tag = Field(description="The tag as pushed.")
    pruned: list[str] = Field(description="Names of older tags deleted by the repository's retention policy.")


@service.tool(intent="push the image tag", write=True, example=_example_push)
def push_image(
    ctx: Ctx,
    repository_id: RepositoryId,
    tag: TagName,
    digest: Digest,
    size_bytes: Annotated[int, Field(ge=1, le=10**11)],
    pushed_by_email: Email,
) -> PushResult:
    """Push an image under a tag: create the tag or point it at the new digest.

    Only editors and owners push. In a repository with immutable tags an
    existing tag cannot move to another digest. The retention policy runs
    after the push, except in a repository with immutable tags (whose tags
    are never deleted).

    Args:
        repository_id: The repository.
        tag: Tag name.
        digest: Manifest digest (sha256:…).
        size_bytes: Compressed image size.
        pushed_by_email: E-mail of the member pushing.
    """
    repo = ctx.get(Repository, repository_id, field="repository_id")
    _require_writer(ctx, repo.namespace_id, pushed_by_email, "pushed_by_email")
    existing = ctx.first(Tag, repository_id=repo.id, name=tag)
    now = ctx.now()
    if existing is not None:
        if existing.digest != digest and repo.immutable_tags:
            raise Conflict(
                f"tag {tag} of {repo.full_name} is immutable and points at {existing.digest}",
                field="tag",
                hint="push under a new tag (tags cannot be overwritten in this repository)",
            )
        pushed = ctx.update(
            existing, digest=digest, size_bytes=size_bytes, pushed_by_email=pushed_by_email, pushed_at=now
        )
    else:
        pushed = ctx.create(
            Tag,
            repository_id=repo.id,
            name=tag,
            digest=digest,
            size_bytes=size_bytes,
            pushed_by_email=pushed_by_email,
            pushed_at=now,
        )
    repo = ctx.update(repo, last_pushed_at=now)
    victims = [] if repo.immutable_tags else _retention_victims(ctx, repo)
    for victim in victims:
        ctx.delete(victim)
    return PushResult(tag=pushed, pruned=[v.name for v in victims])


@service.tool(intent="add another tag to the image", write=True, example=_example_retag)
def retag_image(ctx: Ctx, repository_id: RepositoryId, source_tag: TagName, new_tag: TagName, by_email: Email) -> Tag:
    """Point another tag at the digest of an existing tag (promote 1.4.2 to stable), like docker tag + push.

    Args:
        repository_id: The repository.
        source_tag: The existing tag whose image to tag.
        new_tag: The tag to create or move.
        by_email: E-mail of the editor or owner doing it.
    """
    repo = ctx.get(Repository, repository_id, field="repository_id")
    src = _tag(ctx, repo, source_tag, "source_tag")
    result = push_image(ctx, repo.id, new_tag, src.digest, src.size_bytes, by_email)
    return result.tag


@service.tool(intent="pull the image", write=True, example=_example_pull)
def pull_image(ctx: Ctx, repository_id: RepositoryId, tag: TagName, email: Email | None = None) -> Tag:
    """Pull a tag (docker pull): returns its digest and counts the pull.

    Anyone pulls public images; private images need a member of the organization.

    Args:
        repository_id: The repository.
        tag: The tag.
        email: E-mail of the person pulling; required for private repositories.
    """
    repo = ctx.get(Repository, repository_id, field="repository_id")
    t = _tag(ctx, repo, tag, "tag")
    if repo.visibility == "private" and (email is None or _role(ctx, repo.namespace_id, email) is None):
        raise RuleViolation(
            f"{repo.full_name} is private; only members of the organization can pull it",
            field="email",
            hint="pull as a member (registry__list_members) or make the repository public",
        )
    ctx.update(repo, pull_count=repo.pull_count + 1)
    return ctx.update(t, last_pulled_at=ctx.now())


@service.tool(intent="delete the image tag", write=True, destructive=True, example=_example_delete)
def delete_tag(ctx: Ctx, repository_id: RepositoryId, tag: TagName, by_email: Email, force: bool = False) -> Tag:
    """Delete a tag; one pulled in the last 7 days only with force=true.

    Tags of immutable repositories are never deleted.

    Args:
        repository_id: The repository.
        tag: The tag.
        by_email: E-mail of the editor or owner deleting it.
        force: Delete even if it was pulled recently.
    """
    repo = ctx.get(Repository, repository_id, field="repository_id")
    t = _tag(ctx, repo, tag, "tag")
    _require_writer(ctx, repo.namespace_id, by_email, "by_email")
    if repo.immutable_tags:
        raise RuleViolation(
            f"tags of {repo.full_name} are immutable and cannot be deleted",
            field="tag",
            hint="turn immutable_tags off with registry__update_repository first",
        )
    recent = t.last_pulled_at is not None and t.last_pulled_at > ctx.now() - dt.timedelta(days=RECENT_PULL_DAYS)
    if recent and not force:
        raise RuleViolation(
            f"tag {tag} was pulled on {t.last_pulled_at:%Y-%m-%d} and may still be in use",
            field="force",
            hint="pass force=true to delete it anyway",
        )
    ctx.delete(t)
    return t


@service.tool(
    intent="scan the image for vulnerabilities",
    write=True,
    example=first_example(Tag, None, fields={"repository_id": "repository_id", "tag": "name"}),
)
def scan_image(ctx: Ctx, repository_id: RepositoryId, tag: TagName) -> Scan:
    """Scan the image a tag points at for known vulnerabilities and record the result.

    Args:
        repository_id: The repository.
        tag: The tag whose image to scan.
    """
    repo = ctx.get(Repository, repository_id, field="repository_id")
    t = _tag(ctx, repo, tag, "tag")
    return ctx.create(Scan, repository_id=repo.id, digest=t.digest, **_scan_record(_findings(t.digest)))


class Deployability(BaseModel):
    """Whether an image may be deployed under a severity policy."""

    repository_id: RepositoryId = Field(description="The repository.")
    tag: str = Field(description="The tag checked.")
    digest: Digest = Field(description="The digest it points at.")
    scan_id: ScanId | None = Field(description="The latest scan of that digest, if any.")
    counts: dict[str, int] = Field(description="Findings by severity in that scan.")
    deployable: bool = Field(description="Whether the image passes.")
    reasons: list[str] = Field(description="Why it does not pass (empty when it does).")


@service.tool(
    intent="check whether the image may be deployed",
    example=first_example(Tag, None, fields={"repository_id": "repository_id", "tag": "name"}),
)
def check_deployable(
    ctx: Ctx,
    repository_id: RepositoryId,
    tag: TagName,
    max_severity_allowed: Literal["none", "low", "medium", "high"] = "medium",
) -> Deployability:
    """Check an image against a vulnerability policy before deploying it.

    It passes with a scan of its digest from the last 30 days that has no
    finding above the allowed severity.

    Args:
        repository_id: The repository.
        tag: The tag to check.
        max_severity_allowed: The worst severity tolerated (none tolerates no finding at all).
    """
    repo = ctx.get(Repository, repository_id, field="repository_id")
    t = _tag(ctx, repo, tag, "tag")
    found = sorted(ctx.where(Scan, repository_id=repo.id, digest=t.digest), key=lambda sc: (sc.scanned_at, sc.id))
    latest = found[-1] if found else None
    reasons: list[str] = []
    counts: dict[str, int] = {}
    if latest is None:
        reasons.append("the image has never been scanned (registry__scan_image)")
    else:
        counts = {sev: getattr(latest, sev) for sev in SEVERITIES}
        if latest.scanned_at < ctx.now() - dt.timedelta(days=SCAN_MAX_AGE_DAYS):
            reasons.append(f"the latest scan is older than {SCAN_MAX_AGE_DAYS} days; scan again")
        cut = ("none", "low", "medium", "high").index(max_severity_allowed)
        blocked = SEVERITIES[: len(SEVERITIES) - cut]
        for sev in blocked:
            if counts[sev]:
                reasons.append(f"{counts[sev]} {sev} finding(s) exceed the allowed severity {max_severity_allowed}")
    return Deployability(
        repository_id=repo.id,
        tag=t.name,
        digest=t.digest,
        scan_id=latest.id if latest else None,
        counts=counts,
        deployable=not reasons,
        reasons=reasons,
    )


class RetentionRun(BaseModel):
    """Tags a retention policy removes."""

    repository_id: RepositoryId = Field(description="The repository.")
    keep_last: int | None = Field(description="The policy: tags kept.")
    removed: list[str] = Field(description="Tags removed (or that would be, in a dry run).")
    dry_run: bool = Field(description="Whether nothing was deleted.")


@service.tool(
    intent="apply the repository's retention policy", write=True, example=first_example(Repository, "repository_id")
)
def apply_retention(ctx: Ctx, repository_id: RepositoryId, dry_run: bool = True) -> RetentionRun:
    """Delete the tags beyond the repository's keep-last policy (never 'latest'); a dry run only lists them.

    Args:
        repository_id: The repository.
        dry_run: Only list what would be deleted.
    """
    repo = ctx.get(Repository, repository_id, field="repository_id")
    victims = _retention_victims(ctx, repo)
    if victims and not dry_run and repo.immutable_tags:
        raise RuleViolation(
            f"tags of {repo.full_name} are immutable and cannot be deleted",
            field="repository_id",
            hint="turn immutable_tags off first, or run with dry_run=true",
        )
    if not dry_run:
        for v in victims:
            ctx.delete(v)
    return RetentionRun(
        repository_id=repo.id, keep_last=repo.retention_keep_last, removed=[v.name for v in victims], dry_run=dry_run
    )


class NewToken(BaseModel):
    """A created token and its secret, shown only this once."""

    token: AccessToken = Field(description="The token's record.")
    secret: str = Field(description="The secret to use as the docker login password; it is never shown again.")


@service.tool(
    intent="create an access token for the person",
    write=True,
    example=first_example(
        Member,
        None,
        where={"role": "editor"},
        fields={"namespace_id": "namespace_id", "member_email": "email"},
        description="CI push token",
        scopes=["repo:read", "repo:write"],
        expires_in_days=90,
    ),
)
def create_access_token(
    ctx: Ctx,
    namespace_id: NamespaceId,
    member_email: Email,
    description: Text,
    scopes: Annotated[list[Scope], Field(min_length=1, max_length=3)],
    expires_in_days: Annotated[int, Field(ge=1, le=365)] = 90,
) -> NewToken:
    """Create a personal access token for a member of an organization.

    Viewers only get repo:read; a member has at most 5 active tokens; tokens expire within a year.

    Args:
        namespace_id: The organization.
        member_email: E-mail of the member the token is for.
        description: What it will be used for.
        scopes: repo:read, repo:write, repo:delete.
        expires_in_days: Days until it expires (1 to 365).
    """
    ns = ctx.get(Namespace, namespace_id, field="namespace_id")
    role = _role(ctx, ns.id, member_email)
    if role is None:
        raise NotFound(
            f"{member_email} is not a member of {ns.name}",
            field="member_email",
            hint="list the organization's members with registry__list_members",
        )
    if role == "viewer" and set(scopes) != {"repo:read"}:
        raise RuleViolation(
            f"{member_email} is a viewer and can only get read tokens",
            field="scopes",
            hint="ask for scopes ['repo:read']",
        )
    if len(ctx.where(AccessToken, namespace_id=ns.id, member_email=member_email, active=True)) >= MAX_ACTIVE_TOKENS:
        raise RuleViolation(
            f"{member_email} already has {MAX_ACTIVE_TOKENS} active tokens",
            field="member_email",
            hint="revoke an unused one with registry__revoke_access_token first",
        )
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    secret = "dckr_pat_" + "".join(ctx.rng.choice(alphabet) for _ in range(27))
    token = ctx.create(
        AccessToken,
        namespace_id=ns.id,
        member_email=member_email,
        description=description,
        scopes=tuple(dict.fromkeys(scopes)),
        token_prefix=secret[:13],
        expires_at=ctx.now() + dt.timedelta(days=expires_in_days),
    )
    return NewToken(token=token, secret=secret)


# -- seed -------------------------------------------------------------------------------------

REPOS: tuple[tuple[str, str, str, bool, int | None], ...] = (
    ("web-app", "Customer-facing web application", "private", True, None),
    ("api-server", "Public REST API", "private", True, 5),
    ("billing-service", "Invoicing and payments", "private", False, 4),
    ("docs", "Documentation site (nginx)", "public", False, None),
    ("data-pipeline", "Nightly ETL jobs", "private", False, 3),
    ("base-images", "Hardened base images for every service", "public", True, None),
)


def _digest(*parts: object) -> str:
    return "sha256:" + hashlib.sha256(":".join(str(p) for p in parts).encode()).hexdigest()


@service.seeder
def seed(s: SeedContext) -> None:
    """The company's organization with its engineers, a free sandbox organization, image repositories."""
    pop = s.population
    now = s.now
    org = org_handle(pop)
    main = s.create(Namespace, name=org, company=pop.home.name, plan="team")
    sandbox = s.create(Namespace, name=f"{org}-labs", company=pop.home.name, plan="free")
    writers = _seed_members(s, main, sandbox)
    for r, (name, desc, vis, immutable, keep) in enumerate(REPOS):
        repo = s.create(
            Repository,
            namespace_id=main.id,
            name=name,
            full_name=f"{org}/{name}",
            description=desc,
            visibility=vis,
            immutable_tags=immutable,
            retention_keep_last=keep,
            source_url=f"https://github.com/{org}/{name}",
            pull_count=s.rng.randint(40, 4000),
            created_at=s.ago(days=400 - 30 * r),
        )
        _seed_tags(s, repo, r, org, writers)
    s.create(
        Repository,
        namespace_id=sandbox.id,
        name="experiments",
        full_name=f"{org}-labs/experiments",
        description="Scratch images",
        visibility="private",
        created_at=s.ago(days=60),
    )
    for k, email in enumerate(writers[:4]):
        s.create(
            AccessToken,
            namespace_id=main.id,
            member_email=email,
            description=("CI push token", "Laptop docker login", "Deploy bot", "Old laptop")[k],
            scopes=("repo:read", "repo:write") if k != 2 else ("repo:read",),
            token_prefix=f"dckr_pat_{'AbCd'[k:] + 'WxYz'[:k]}",
            expires_at=now + dt.timedelta(days=30 + 60 * k) if k != 3 else s.ago(days=5),
            active=k != 3,
            created_at=s.ago(days=100 - 10 * k),
            updated_at=s.ago(days=100 - 10 * k),
        )


def _seed_members(s: SeedContext, main: Namespace, sandbox: Namespace) -> list[str]:
    """The organizations' members; returns the e-mails of those who may push.

    Engineers join the company's organization (every fourth as a viewer) with three other employees as
    viewers; three engineers join the sandbox.
    """
    pop = s.population
    engineers = pop.staff("Engineering", fallback=6)
    others = [p for p in pop.employees if p.department != "Engineering"][:3]
    writers: list[str] = []
    for k, p in enumerate(engineers):
        role: Role = "owner" if k == 0 else ("editor" if k % 4 != 3 else "viewer")
        s.create(Member, namespace_id=main.id, name=p.name, email=p.email, role=role)
        if role != "viewer":
            writers.append(p.email)
    for p in others:
        s.create(Member, namespace_id=main.id, name=p.name, email=p.email, role="viewer")
    for k, p in enumerate(engineers[:3]):
        s.create(Member, namespace_id=sandbox.id, name=p.name, email=p.email, role="owner" if k == 0 else "editor")
    return writers


def _seed_tags(s: SeedContext, repo: Repository, r: int, org: str, writers: list[str]) -> None:
    """Up to six versions within the retention and latest on the newest.

    The last three versions are scanned, the oldest of them too long ago to count.
    """
    rng, now, name = s.rng, s.now, repo.name
    n_versions = min(repo.retention_keep_last or 6, 6)
    last = None
    for v in range(n_versions):
        version = f"1.{r}.{v}"
        pushed = now - dt.timedelta(days=3 * (n_versions - v) + r)
        digest = _digest(org, name, version)
        pulled = pushed + dt.timedelta(days=1) if v >= n_versions - 2 else None
        s.create(
            Tag,
            repository_id=repo.id,
            name=version,
            digest=digest,
            size_bytes=rng.randint(20, 400) * 1_000_000,
            pushed_by_email=writers[(r + v) % len(writers)],
            pushed_at=pushed,
            last_pulled_at=pulled if pulled and pulled < now else None,
        )
        if v >= n_versions - 3:
            scanned = pushed + dt.timedelta(hours=1) if v != n_versions - 3 else now - dt.timedelta(days=45)
            s.create(Scan, repository_id=repo.id, digest=digest, scanned_at=scanned, **_scan_record(_findings(digest)))
        last = (digest, pushed, writers[(r + v) % len(writers)])
    if last is not None:
        s.create(
            Tag,
            repository_id=repo.id,
            name="latest",
            digest=last[0],
            size_bytes=rng.randint(20, 400) * 1_000_000,
            pushed_by_email=last[2],
            pushed_at=last[1],
            last_pulled_at=now - dt.timedelta(hours=3),
        )
    s.update(repo, last_pushed_at=last[1] if last else None)
