"""Canopy Hosting: the company's static sites, their git deploys, custom domains, build variables and form entries.

Modeled on the Netlify API v1 (sites, deploys with their build states, the
publish (restore), lock and unlock endpoints for deploys, cancel, custom
domains and domain aliases with DNS verification and certificates,
environment variables with per-context values, and form submissions with
spam and ham). A site's name is its unique subdomain of the platform. A deploy
is built from a branch: the production branch makes production deploys, a pull
request a deploy preview, any other branch a branch deploy. Deploys move new →
building → ready or error; a site builds at most as many deploys at once as its
plan allows (one on Starter, three on Pro); a canceled build ends in error. A
ready production deploy is published at once unless auto publishing is locked;
any earlier ready production deploy can be published again (a rollback); only
the published deploy can be locked. A custom domain belongs to one site; it is
verified by its DNS record (an apex domain by an A or ALIAS record to the load
balancer, a subdomain by a CNAME to the site's own address) and then gets its
certificate. Variable keys are shell-safe and not reserved; a value for all
contexts excludes per-context values, and secret values are never given to the
local dev context.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Domain, Email, IdOf, PersonName, Text, Title, Url
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "webhost",
    title="Canopy Hosting",
    category="hosting",
    modeled_on="Netlify API v1 (sites, deploys and their states, restoreSiteDeploy, lockDeploy / unlockDeploy, "
    "cancelSiteDeploy, custom domains and domain aliases with DNS verification and certificates, environment "
    "variables with per-context values, form submissions with spam / ham)",
    description="Hosting for the company's websites: sites built from a git repository, deploys that build and "
    "publish, rollbacks and locked auto publishing, custom domains verified by DNS, build environment variables "
    "per deploy context, and the entries visitors send through the sites' forms.",
)

SiteId = Annotated[str, IdOf("webhost.site")]
DeployId = Annotated[str, IdOf("webhost.deploy")]
DomainId = Annotated[str, IdOf("webhost.domain")]
EnvId = Annotated[str, IdOf("webhost.env_var")]
SubmissionId = Annotated[str, IdOf("webhost.submission")]

SiteName = Annotated[str, StringConstraints(min_length=1, max_length=63)]
"""A site's name: its subdomain of the platform (lower-case letters, digits and hyphens)."""
Branch = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._/-]{1,255}$")]
"""A git branch name."""
CommitRef = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{7,40}$")]
"""A git commit SHA."""
EnvKey = Annotated[str, StringConstraints(min_length=1, max_length=255)]
"""A variable's key."""

Plan = Literal["starter", "pro"]
DeployState = Literal["new", "building", "ready", "error"]
DeployContext = Literal["production", "deploy-preview", "branch-deploy"]
EnvContext = Literal["all", "production", "deploy-preview", "branch-deploy", "dev"]
RecordType = Literal["A", "ALIAS", "CNAME"]

HOST = "canopy.app"
LOAD_BALANCER_IP = "203.0.113.10"
CONCURRENT_BUILDS = {"starter": 1, "pro": 3}
CERT_LIFETIME = dt.timedelta(days=90)
RESERVED_KEYS = frozenset(
    {
        "BRANCH",
        "BUILD_ID",
        "COMMIT_REF",
        "CONTEXT",
        "DEPLOY_ID",
        "DEPLOY_PRIME_URL",
        "DEPLOY_URL",
        "HEAD",
        "INCOMING_HOOK_BODY",
        "PULL_REQUEST",
        "REPOSITORY_URL",
        "REVIEW_ID",
        "SITE_ID",
        "SITE_NAME",
        "URL",
    }
)
"""Read-only variables the build sets itself."""
_SITE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Site(Timestamped):
    """A website hosted on the platform."""

    id: SiteId
    name: SiteName
    """Its unique subdomain: the site answers at https://NAME.canopy.app."""
    url: Url
    """Its main address (the custom domain once one is set)."""
    plan: Plan = "starter"
    """starter (one build at a time) or pro (three)."""
    repo_url: Url | None = None
    """The git repository it builds from."""
    production_branch: Branch = "main"
    """The branch whose deploys go to production."""
    custom_domain: Domain | None = None
    """Its primary custom domain."""
    published_deploy_id: DeployId | None = None
    """The deploy visitors see."""
    locked: bool = False
    """Whether auto publishing is stopped (the published deploy is locked)."""
    owner_email: Email
    """The staff member who owns it."""


class Deploy(Record):
    """A build of a site from one commit."""

    id: DeployId
    site_id: SiteId
    """The site."""
    context: DeployContext
    """production, deploy-preview (a pull request) or branch-deploy."""
    branch: Branch
    """The branch built."""
    commit_ref: CommitRef
    """The commit built."""
    title: Title
    """The commit message or pull request title."""
    pull_request_number: int | None = None
    """The pull request a deploy preview builds."""
    state: DeployState = "new"
    """new (queued), building, ready or error."""
    deploy_url: Url
    """Its own permanent address."""
    error_message: str | None = None
    """Why it failed or that it was canceled."""
    published_at: DateTime | None = None
    """When it was last published."""
    created_at: Annotated[DateTime, CREATED]
    """When it was triggered."""
    started_at: DateTime | None = None
    """When its build started."""
    finished_at: DateTime | None = None
    """When its build ended."""


class SiteDomain(Created):
    """A custom domain of a site."""

    id: DomainId
    site_id: SiteId
    """The site."""
    hostname: Domain
    """The domain name."""
    primary: bool = False
    """Whether it is the site's primary domain (the others are aliases)."""
    verified: bool = False
    """Whether its DNS points at the site."""
    ssl_state: Literal["none", "provisioned"] = "none"
    """Whether it has a certificate."""
    certificate_expires_at: DateTime | None = None
    """When its certificate expires (it renews itself)."""


class EnvValue(Value):
    """A variable's value in one deploy context."""

    context: EnvContext = Field(description="all, production, deploy-preview, branch-deploy or dev.")
    value: Annotated[str, StringConstraints(max_length=5000)] = Field(description="The value.")


class EnvVar(Timestamped):
    """A build environment variable of a site."""

    id: EnvId
    site_id: SiteId
    """The site."""
    key: EnvKey
    """The key, unique in the site."""
    values: tuple[EnvValue, ...]
    """Its values by deploy context."""
    is_secret: bool = False
    """Whether the values are secret (never given to the dev context)."""


class Submission(Record):
    """An entry a visitor sent through a site's form."""

    id: SubmissionId
    site_id: SiteId
    """The site."""
    form_name: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """The form, e.g. contact."""
    name: PersonName | None = None
    """The sender's name."""
    email: Email | None = None
    """The sender's e-mail."""
    body: Text = ""
    """The message."""
    spam: bool = False
    """Whether it is marked as spam."""
    created_at: Annotated[DateTime, CREATED]
    """When it was received."""


def _guard_deploy(ctx: Ctx, new: Any, old: Any) -> None:
    if new.state == "building" and old.state == "new":
        site = ctx.get(Site, old.site_id)
        running = [d for d in ctx.where(Deploy, site_id=site.id, state="building") if d.id != old.id]
        limit = CONCURRENT_BUILDS[site.plan]
        if len(running) >= limit:
            raise RuleViolation(
                f"{site.name} already builds {len(running)} deploy(s); its {site.plan} plan builds {limit} at a time",
                field="deploy_id",
                hint="wait for the running build to finish, cancel it, or move the site to the pro plan",
            )
        ctx.update(new, started_at=ctx.now())
    elif new.state == "error" and old.state in ("new", "building"):
        ctx.update(new, error_message="Canceled build", finished_at=ctx.now())


sites = service.resource(
    Site,
    name="site",
    plural="sites",
    prefix="site",
    create=False,
    filters=("name", "plan", "custom_domain", "owner_email", "locked"),
    search=("name", "custom_domain"),
    delete=False,
)
deploys = service.resource(
    Deploy,
    name="deploy",
    plural="deploys",
    prefix="dpl",
    create=False,
    get=False,
    filters=("site_id", "state", "context", "branch"),
    search=("title",),
    delete=False,
    transitions={
        "start_build": Transition(
            "state",
            ("new",),
            "building",
            "start building the deploy",
            description="Start the build of a queued deploy; a site builds at most one deploy at a time on the "
            "starter plan and three on pro.",
        ),
        "cancel": Transition(
            "state",
            ("new", "building"),
            "error",
            "cancel the deploy",
            description="Cancel a queued or building deploy: it ends in error as a canceled build.",
            destructive=True,
        ),
    },
    guard_update=_guard_deploy,
)
domains = service.resource(
    SiteDomain,
    name="domain",
    plural="domains",
    prefix="dom",
    create=False,
    get=False,
    filters=("site_id", "hostname", "verified", "primary"),
    delete=False,
    title="custom domain",
)
env_vars = service.resource(
    EnvVar,
    name="env_var",
    plural="env_vars",
    prefix="env",
    create=False,
    get=False,
    filters=("site_id", "key", "is_secret"),
    title="environment variable",
)
submissions = service.resource(
    Submission,
    name="submission",
    plural="submissions",
    prefix="sub",
    create=False,
    get=False,
    filters=("site_id", "form_name", "spam", "email"),
    search=("name", "body"),
    delete=False,
    title="form submission",
)


# -- rules ------------------------------------------------------------------------------------


def _deploy_url(site_name: str, commit: str, n: int) -> str:
    tag = hashlib.sha1(f"{site_name}:{commit}:{n}".encode()).hexdigest()[:24]
    return f"https://{tag}--{site_name}.{HOST}"


def _publish(ctx: Ctx, site: Site, deploy: Deploy, **site_changes: Any) -> Deploy:
    published = ctx.update(deploy, published_at=ctx.now())
    ctx.update(site, published_deploy_id=deploy.id, **site_changes)
    return published


def _apex(hostname: str) -> bool:
    return hostname.count(".") == 1


# -- examples ---------------------------------------------------------------------------------


def _example_create_site(ctx: Ctx) -> dict[str, Any] | None:
    handle = org_handle(ctx.population)
    return {
        "name": f"{handle}-careers",
        "owner_email": ctx.population.employees[0].email,
        "repo_url": f"https://github.com/{handle}/careers-site",
    }


def _example_deploy(ctx: Ctx) -> dict[str, Any] | None:
    for site in ctx.scan(Site):
        if site.repo_url is not None:
            return {
                "site_id": site.id,
                "branch": site.production_branch,
                "commit_ref": "4f2c9a1b7d3e5f60718293a4b5c6d7e8f9a0b1c2",
                "title": "Update pricing table",
            }
    return None


def _example_restore(ctx: Ctx) -> dict[str, Any] | None:
    for d in ctx.where(Deploy, state="ready", context="production"):
        site = ctx.get(Site, d.site_id)
        if site.published_deploy_id != d.id:
            return {"deploy_id": d.id}
    return None


def _example_lock(ctx: Ctx) -> dict[str, Any] | None:
    site = ctx.first(Site, locked=False)
    if site is None or site.published_deploy_id is None:
        return None
    return {"deploy_id": site.published_deploy_id, "locked": True}


def _example_add_domain(ctx: Ctx) -> dict[str, Any] | None:
    site = ctx.first(Site, custom_domain=None)
    return None if site is None else {"site_id": site.id, "hostname": f"careers.{ctx.population.home.domain}"}


def _example_verify(ctx: Ctx) -> dict[str, Any] | None:
    dom = ctx.first(SiteDomain, verified=False)
    if dom is None:
        return None
    site = ctx.get(Site, dom.site_id)
    if _apex(dom.hostname):
        return {"domain_id": dom.id, "record_type": "A", "record_value": LOAD_BALANCER_IP}
    return {"domain_id": dom.id, "record_type": "CNAME", "record_value": f"{site.name}.{HOST}"}


def _example_env(ctx: Ctx) -> dict[str, Any] | None:
    site = next(iter(ctx.scan(Site)), None)
    if site is None:
        return None
    return {
        "site_id": site.id,
        "key": "ANALYTICS_ID",
        "values": [{"context": "production", "value": "G-4821"}, {"context": "deploy-preview", "value": "G-TEST"}],
    }


# -- sites and deploys ------------------------------------------------------------------------


@service.tool(intent="create a website", write=True, example=_example_create_site)
def create_site(
    ctx: Ctx,
    name: SiteName,
    owner_email: Email,
    repo_url: Url | None = None,
    production_branch: Branch = "main",
    plan: Plan = "starter",
) -> Site:
    """Create a site; its name is a subdomain of the platform, unique across all sites.

    Args:
        name: Lower-case letters, digits and hyphens (not at either end), at most 63.
        owner_email: The staff member who owns it.
        repo_url: The git repository to build from.
        production_branch: The branch that deploys to production.
        plan: starter or pro.
    """
    if not _SITE.match(name):
        raise RuleViolation(
            f"invalid site name {name!r}: lower-case letters, digits and hyphens, not at either end",
            field="name",
            hint="e.g. acme-docs",
        )
    if ctx.first(Site, name=name) is not None:
        raise Conflict(f"the name {name} is already taken", field="name", hint="choose another subdomain")
    return ctx.create(
        Site,
        name=name,
        url=f"https://{name}.{HOST}",
        owner_email=owner_email,
        repo_url=repo_url,
        production_branch=production_branch,
        plan=plan,
    )


@service.tool(intent="trigger a deploy of the site", write=True, example=_example_deploy)
def create_deploy(
    ctx: Ctx,
    site_id: SiteId,
    branch: Branch,
    commit_ref: CommitRef,
    title: Title,
    pull_request_number: Annotated[int, Field(ge=1)] | None = None,
) -> Deploy:
    """Trigger a build of a commit; the deploy is queued (new).

    The production branch makes a production deploy, a pull request a deploy
    preview (never from the production branch), any other branch a branch
    deploy. The site needs a linked repository.

    Args:
        site_id: The site.
        branch: The branch.
        commit_ref: The commit SHA.
        title: The commit message or pull request title.
        pull_request_number: The pull request, for a deploy preview.
    """
    site = ctx.get(Site, site_id, field="site_id")
    if site.repo_url is None:
        raise RuleViolation(
            f"{site.name} has no linked repository to build from",
            field="site_id",
            hint="link a repository when creating the site, or deploy another site",
        )
    context: DeployContext
    if pull_request_number is not None:
        if branch == site.production_branch:
            raise RuleViolation(
                "a deploy preview builds a pull request's branch, not the production branch",
                field="branch",
                hint="give the pull request's head branch",
            )
        context = "deploy-preview"
    else:
        context = "production" if branch == site.production_branch else "branch-deploy"
    n = ctx.next_number(Deploy, "build")
    return ctx.create(
        Deploy,
        site_id=site.id,
        context=context,
        branch=branch,
        commit_ref=commit_ref,
        title=title,
        pull_request_number=pull_request_number,
        deploy_url=_deploy_url(site.name, commit_ref, n),
    )


@service.tool(
    intent="record the end of the deploy's build",
    write=True,
    example=first_example(Deploy, "deploy_id", where={"state": "building"}, succeeded=True),
)
def complete_build(ctx: Ctx, deploy_id: DeployId, succeeded: bool, error_message: str | None = None) -> Deploy:
    """End a building deploy: ready, or error with the build's message.

    A ready production deploy is published at once unless the site's auto
    publishing is locked.

    Args:
        deploy_id: The deploy.
        succeeded: Whether the build succeeded.
        error_message: Why it failed (required when it did not succeed).
    """
    deploy = ctx.get(Deploy, deploy_id, field="deploy_id")
    if deploy.state != "building":
        raise RuleViolation(
            f"deploy {deploy.id} is {deploy.state}, not building",
            field="deploy_id",
            hint="start its build with webhost__start_build_deploy first" if deploy.state == "new" else "it is done",
        )
    now = ctx.now()
    if not succeeded:
        if not (error_message or "").strip():
            raise RuleViolation("a failed build needs its error message", field="error_message", hint="say why")
        return ctx.update(deploy, state="error", error_message=error_message, finished_at=now)
    done = ctx.update(deploy, state="ready", finished_at=now)
    site = ctx.get(Site, deploy.site_id)
    if deploy.context == "production" and not site.locked:
        return _publish(ctx, site, done)
    return done


@service.tool(intent="publish an earlier deploy (roll back)", write=True, example=_example_restore)
def restore_deploy(ctx: Ctx, deploy_id: DeployId) -> Deploy:
    """Publish a ready production deploy, e.g. to roll back to an earlier one.

    A locked site stays locked, on the deploy published now.

    Args:
        deploy_id: The deploy.
    """
    deploy = ctx.get(Deploy, deploy_id, field="deploy_id")
    site = ctx.get(Site, deploy.site_id)
    if deploy.state != "ready":
        raise RuleViolation(
            f"deploy {deploy.id} is {deploy.state}; only ready deploys can be published",
            field="deploy_id",
            hint="pick a ready production deploy from webhost__list_deploys",
        )
    if deploy.context != "production":
        raise RuleViolation(
            f"deploy {deploy.id} is a {deploy.context}; only production deploys can be published",
            field="deploy_id",
            hint="merge the branch into the production branch and deploy that",
        )
    if site.published_deploy_id == deploy.id:
        raise Conflict(f"deploy {deploy.id} is already published", field="deploy_id", hint="nothing to do")
    return _publish(ctx, site, deploy)


@service.tool(intent="lock or unlock auto publishing of the site", write=True, example=_example_lock)
def lock_deploy(ctx: Ctx, deploy_id: DeployId, locked: bool) -> Site:
    """Lock the published deploy (stop auto publishing) or unlock it (resume it).

    While locked, new production deploys build but are not published. Only the
    published deploy can be locked or unlocked.

    Args:
        deploy_id: The site's published deploy.
        locked: True to lock, False to unlock.
    """
    deploy = ctx.get(Deploy, deploy_id, field="deploy_id")
    site = ctx.get(Site, deploy.site_id)
    if site.published_deploy_id != deploy.id:
        raise RuleViolation(
            f"deploy {deploy.id} is not the published deploy of {site.name}",
            field="deploy_id",
            hint=f"lock the published deploy {site.published_deploy_id}",
        )
    if site.locked == locked:
        raise Conflict(
            f"auto publishing of {site.name} is already {'locked' if locked else 'unlocked'}",
            field="locked",
            hint="no change",
        )
    return ctx.update(site, locked=locked)


# -- domains ----------------------------------------------------------------------------------


@service.tool(intent="add a custom domain to the site", write=True, example=_example_add_domain)
def add_domain(ctx: Ctx, site_id: SiteId, hostname: Domain) -> SiteDomain:
    """Add a custom domain; the first becomes the primary domain, later ones aliases.

    A domain belongs to one site, and the platform's own subdomains cannot be
    added. It serves the site once its DNS is verified.

    Args:
        site_id: The site.
        hostname: The domain, e.g. www.example.com.
    """
    site = ctx.get(Site, site_id, field="site_id")
    host = hostname.lower()
    if host == HOST or host.endswith("." + HOST):
        raise RuleViolation(
            f"{host} is a platform address, not a custom domain", field="hostname", hint="add a domain you own"
        )
    taken = ctx.first(SiteDomain, hostname=host)
    if taken is not None:
        owner = ctx.get(Site, taken.site_id)
        raise Conflict(
            f"{host} is already in use by the site {owner.name}",
            field="hostname",
            hint="remove it from that site first, or add another domain",
        )
    primary = site.custom_domain is None
    made = ctx.create(SiteDomain, site_id=site.id, hostname=host, primary=primary)
    if primary:
        ctx.update(site, custom_domain=host)
    return made


@service.tool(intent="verify the domain's DNS", write=True, example=_example_verify)
def verify_domain(ctx: Ctx, domain_id: DomainId, record_type: RecordType, record_value: str) -> SiteDomain:
    """Check the DNS record found for a custom domain and, when it points at the site, verify it and issue its certificate.

    An apex domain (example.com) needs an A or ALIAS record to the load
    balancer (203.0.113.10): DNS allows no CNAME at the apex. A subdomain needs
    a CNAME to the site's address (NAME.canopy.app).

    Args:
        domain_id: The domain.
        record_type: The record found: A, ALIAS or CNAME.
        record_value: Its value (an IP address or a host name).
    """
    dom = ctx.get(SiteDomain, domain_id, field="domain_id")
    if dom.verified:
        raise Conflict(f"{dom.hostname} is already verified", field="domain_id", hint="nothing to do")
    site = ctx.get(Site, dom.site_id)
    target = f"{site.name}.{HOST}"
    value = record_value.strip().rstrip(".").lower()
    if _apex(dom.hostname):
        if record_type == "CNAME":
            raise RuleViolation(
                f"{dom.hostname} is an apex domain, which cannot have a CNAME record",
                field="record_type",
                hint=f"create an A record to {LOAD_BALANCER_IP} (or an ALIAS to {target})",
            )
        if value not in (LOAD_BALANCER_IP, target):
            raise RuleViolation(
                f"{dom.hostname} points at {value}, not at the load balancer",
                field="record_value",
                hint=f"set its A record to {LOAD_BALANCER_IP} (or an ALIAS to {target})",
            )
    elif record_type != "CNAME" or value != target:
        raise RuleViolation(
            f"{dom.hostname} has {record_type} {value}; it needs a CNAME to {target}",
            field="record_value",
            hint=f"create the DNS record CNAME {dom.hostname} → {target}",
        )
    done = ctx.update(dom, verified=True, ssl_state="provisioned", certificate_expires_at=ctx.now() + CERT_LIFETIME)
    if dom.primary:
        ctx.update(site, url=f"https://{dom.hostname}")
    return done


# -- variables and forms ----------------------------------------------------------------------


@service.tool(intent="set a build environment variable", write=True, example=_example_env)
def set_env_var(
    ctx: Ctx,
    site_id: SiteId,
    key: EnvKey,
    values: Annotated[list[EnvValue], Field(min_length=1)],
    is_secret: bool = False,
) -> EnvVar:
    """Create or replace a build variable with its values per deploy context.

    Keys are letters, digits and underscores, not starting with a digit, and
    not one of the read-only variables the build sets (URL, CONTEXT, BRANCH …).
    Each context once; a value for all contexts stands alone; secret values
    are never given to the dev context.

    Args:
        site_id: The site.
        key: The key, e.g. API_BASE_URL.
        values: Values by context.
        is_secret: Keep the values secret.
    """
    site = ctx.get(Site, site_id, field="site_id")
    if not _KEY.match(key):
        raise RuleViolation(
            f"invalid key {key!r}: letters, digits and underscores, not starting with a digit",
            field="key",
            hint="e.g. API_BASE_URL",
        )
    if key.upper() in RESERVED_KEYS:
        raise RuleViolation(
            f"{key} is a read-only variable the build sets itself", field="key", hint="choose another key"
        )
    contexts = [v.context for v in values]
    if len(set(contexts)) != len(contexts):
        raise RuleViolation("each context once", field="values", hint="give one value per context")
    if "all" in contexts and len(contexts) > 1:
        raise RuleViolation(
            "a value for all contexts cannot be combined with per-context values",
            field="values",
            hint="give either one value for all, or a value per context",
        )
    if is_secret and ("dev" in contexts or "all" in contexts):
        raise RuleViolation(
            "secret values are never given to the dev context (nor to all contexts, which includes it)",
            field="values",
            hint="set secret values for production, deploy-preview and branch-deploy only",
        )
    old = ctx.first(EnvVar, site_id=site.id, key=key)
    if old is not None:
        return ctx.update(old, values=tuple(values), is_secret=is_secret)
    return ctx.create(EnvVar, site_id=site.id, key=key, values=tuple(values), is_secret=is_secret)


@service.tool(
    intent="mark the form entry as spam or not spam",
    write=True,
    example=first_example(Submission, "submission_id", where={"spam": False}, spam=True),
)
def mark_submission_spam(ctx: Ctx, submission_id: SubmissionId, spam: bool) -> Submission:
    """Mark a form submission as spam, or as not spam (ham) to move it back to the verified entries.

    Args:
        submission_id: The submission.
        spam: True for spam, False for not spam.
    """
    sub = ctx.get(Submission, submission_id, field="submission_id")
    if sub.spam == spam:
        raise Conflict(
            f"submission {sub.id} is already marked as {'spam' if spam else 'verified'}", field="spam", hint="no change"
        )
    return ctx.update(sub, spam=spam)


# -- seed -------------------------------------------------------------------------------------

MESSAGES = (
    "Hi, I would like a quote for {n} seats for our team.",
    "Do you offer a discount for non-profits?",
    "Can someone call me back about my order?",
    "Your pricing page lists two different prices for the Pro plan.",
    "We are interested in a partnership, who should I talk to?",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """A marketing site on custom domains, a locked docs site, a busy staging app, an unlinked landing page."""
    pop = s.population
    now = s.now
    handle = org_handle(pop)
    engineers = pop.staff("Engineering", fallback=3)
    domain = pop.home.domain
    repo = f"https://github.com/{handle}"
    commits = iter(hashlib.sha1(f"{handle}:{k}".encode()).hexdigest() for k in range(1000))

    def site(name: str, owner: str, days: int, **extra: Any) -> Site:
        when = now - dt.timedelta(days=days)
        return s.create(
            Site,
            name=name,
            url=extra.pop("url", f"https://{name}.{HOST}"),
            owner_email=owner,
            created_at=when,
            updated_at=when,
            **extra,
        )

    def deploy(
        st: Site,
        hours: float,
        state: str,
        title: str,
        *,
        branch: str | None = None,
        pr: int | None = None,
        error: str | None = None,
    ) -> Deploy:
        when = now - dt.timedelta(hours=hours)
        branch = branch or st.production_branch
        context = "deploy-preview" if pr else ("production" if branch == st.production_branch else "branch-deploy")
        commit = next(commits)
        started = None if state == "new" else when + dt.timedelta(minutes=1)
        finished = when + dt.timedelta(minutes=4) if state in ("ready", "error") else None
        return s.create(
            Deploy,
            site_id=st.id,
            context=context,
            branch=branch,
            commit_ref=commit,
            title=title,
            pull_request_number=pr,
            state=state,
            deploy_url=_deploy_url(st.name, commit, int(hours * 10)),
            error_message=error,
            created_at=when,
            started_at=started,
            finished_at=finished,
        )

    www = site(
        f"{handle}-www",
        engineers[0].email,
        600,
        plan="pro",
        repo_url=f"{repo}/website",
        custom_domain=f"www.{domain}",
        url=f"https://www.{domain}",
    )
    docs = site(f"{handle}-docs", engineers[-1].email, 400, repo_url=f"{repo}/docs", locked=True)
    app = site(f"{handle}-app-staging", engineers[0].email, 200, repo_url=f"{repo}/app", production_branch="release")
    site(f"{handle}-spring-landing", engineers[-1].email, 30)

    www_deploys = [
        deploy(www, 24 * 20, "ready", "New homepage hero"),
        deploy(www, 24 * 6, "ready", "Add customer logos"),
        deploy(www, 24 * 2, "error", "Upgrade site generator", error="Build script returned non-zero exit code: 2"),
        deploy(www, 5, "ready", "Fix pricing typo"),
    ]
    deploy(www, 3, "ready", "Try new signup form", branch="signup-form", pr=42)
    deploy(www, 0.05, "new", "Add FAQ section", branch="faq", pr=43)
    www = s.update(www, published_deploy_id=www_deploys[-1].id)
    s.update(www_deploys[-1], published_at=www_deploys[-1].finished_at)
    older = deploy(docs, 24 * 9, "ready", "Document the v2 API")
    deploy(docs, 24, "ready", "Rewrite getting started (draft)")
    docs = s.update(docs, published_deploy_id=older.id)
    s.update(older, published_at=older.finished_at)
    live = deploy(app, 24 * 3, "ready", "Release 3.4")
    app = s.update(app, published_deploy_id=live.id)
    s.update(live, published_at=live.finished_at)
    deploy(app, 0.3, "building", "Release 3.5")
    deploy(app, 0.1, "new", "Hotfix login redirect")
    deploy(app, 2, "ready", "Experiment: dark mode", branch="dark-mode")

    for host, st, primary, verified in (
        (f"www.{domain}", www, True, True),
        (domain, www, False, True),
        (f"docs.{domain}", docs, True, False),
    ):
        s.create(
            SiteDomain,
            site_id=st.id,
            hostname=host,
            primary=primary,
            verified=verified,
            ssl_state="provisioned" if verified else "none",
            certificate_expires_at=now + dt.timedelta(days=40) if verified else None,
            created_at=now - dt.timedelta(days=100),
        )
    s.update(docs, custom_domain=f"docs.{domain}")

    def env(st: Site, key: str, secret: bool = False, **by_context: str) -> None:
        values = tuple(EnvValue(context=c.replace("_", "-"), value=v) for c, v in by_context.items())
        s.create(EnvVar, site_id=st.id, key=key, values=values, is_secret=secret)

    env(www, "NODE_VERSION", all="20")
    env(www, "ANALYTICS_ID", production="G-71833", deploy_preview="G-TEST")
    env(www, "CMS_TOKEN", secret=True, production="cms_live_3f9a", deploy_preview="cms_test_81bd")
    env(
        app,
        "API_BASE_URL",
        production=f"https://api.{domain}",
        branch_deploy=f"https://staging-api.{domain}",
        dev="http://localhost:8080",
    )

    for k, p in enumerate(list(pop.consumers)[:10]):
        s.create(
            Submission,
            site_id=www.id,
            form_name="contact",
            name=p.name,
            email=p.email,
            body=MESSAGES[k % len(MESSAGES)].format(n=5 + k),
            created_at=now - dt.timedelta(hours=6 + 13 * k),
        )
    for k, company in enumerate(list(pop.customers)[:4]):
        contact = pop.first_contact(company)
        if contact is not None:
            s.create(
                Submission,
                site_id=www.id,
                form_name="demo-request",
                name=contact.name,
                email=contact.email,
                body=f"Demo for {company.name}, about {20 + 10 * k} users.",
                created_at=now - dt.timedelta(days=1 + k),
            )
    s.create(
        Submission,
        site_id=www.id,
        form_name="contact",
        name="Best Offer",
        email="promo@cheap-seo-deals.biz",
        body="Get 10,000 backlinks today!!! Click here",
        spam=True,
        created_at=now - dt.timedelta(hours=30),
    )
