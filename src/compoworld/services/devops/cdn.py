"""Edgewise CDN: content delivery services, their versioned configuration, purges and TLS subscriptions.

Modeled on the Fastly API: a service (``/service``) holds numbered versions
(``/service/{id}/version``); only a draft (unlocked, never activated) version
can be edited, activating one locks it and locks the previously active one,
and an older locked version can be activated again to roll back. A version's
configuration is its domains, backends (origins with address, port and TLS)
and cache settings (action cache/pass/restart with a TTL); activation needs at
least one domain and one backend, and a domain belongs to one service only.
Cloning a version copies its configuration into a new draft. Purges go by URL
(on one of the active domains), by surrogate key, or purge-all, and need an
active version; soft purges mark content stale instead of evicting it. TLS
subscriptions (``/tls/subscriptions``) ask a certificate authority for a
certificate on domains served by an active version, and move pending →
processing → issued (or failed, then retried).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Domain, Email, IdOf, Title, Url
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "cdn",
    title="Edgewise CDN",
    category="cdn",
    modeled_on="Fastly API: services, versions (clone/activate/deactivate/lock), domains, backends, "
    "cache settings, purge by URL/surrogate key/purge_all, TLS subscriptions",
    description="Content delivery for the company's websites and APIs: CDN services with numbered, lockable "
    "configuration versions (domains, origin backends, cache settings), activation and rollback, cache purges "
    "by URL or surrogate key, and managed TLS certificate subscriptions for the served domains.",
)

ServiceId = Annotated[str, IdOf("cdn.service")]
VersionId = Annotated[str, IdOf("cdn.version")]
DomainId = Annotated[str, IdOf("cdn.domain")]
BackendId = Annotated[str, IdOf("cdn.backend")]
CacheSettingId = Annotated[str, IdOf("cdn.cache_setting")]
PurgeId = Annotated[str, IdOf("cdn.purge")]
SubscriptionId = Annotated[str, IdOf("cdn.tls_subscription")]

ConfigName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,63}$")]
"""A configuration object's name, unique within its version."""
Address = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$")]
"""An origin host name or IPv4 address."""
SurrogateKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_:./-]{1,256}$")]
"""A surrogate key that tags cached objects."""
Ttl = Annotated[int, Field(ge=0, le=31_536_000)]
"""Seconds."""

VersionStatus = Literal["draft", "active", "locked"]
ServiceType = Literal["vcl", "wasm"]
CacheAction = Literal["cache", "pass", "restart"]
PurgeKind = Literal["url", "surrogate_key", "all"]
CertAuthority = Literal["lets-encrypt", "globalsign", "certainly"]
TlsStatus = Literal["pending", "processing", "issued", "renewing", "failed"]


class CdnService(Record):
    """A CDN service: the unit whose configuration is versioned and activated."""

    id: ServiceId
    name: Title
    """The service's name (unique)."""
    type: ServiceType = "vcl"
    """vcl (Fastly Deliver) or wasm (Compute)."""
    comment: str = ""
    """A free comment."""
    owner_email: Email | None = None
    """The engineer who owns it."""
    active_version: int | None = None
    """The number of the active version (none: not serving)."""
    latest_version: int = 1
    """The highest version number."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Version(Record):
    """One numbered configuration version of a service."""

    id: VersionId
    service_id: ServiceId
    """The service."""
    number: Annotated[int, Field(ge=1)]
    """Its number within the service."""
    status: VersionStatus = "draft"
    """draft (editable), active (serving; locked) or locked (read-only)."""
    comment: str = ""
    """What changed in it."""
    cloned_from: int | None = None
    """The version it was cloned from."""
    activated_at: DateTime | None = None
    """When it was last activated."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class ServedDomain(Record):
    """A domain a version serves."""

    id: DomainId
    service_id: ServiceId
    """The service."""
    version_id: VersionId
    """The version."""
    name: Domain
    """The fully qualified domain name."""
    comment: str = ""
    """A free comment."""


class Backend(Record):
    """An origin server a version fetches content from."""

    id: BackendId
    service_id: ServiceId
    """The service."""
    version_id: VersionId
    """The version."""
    name: ConfigName
    """Its name within the version."""
    address: Address
    """The origin's host name or IP address."""
    port: Annotated[int, Field(ge=1, le=65535)] = 443
    """The origin's port."""
    use_ssl: bool = True
    """Whether to connect to the origin over TLS."""
    override_host: Address | None = None
    """The Host header sent to the origin."""
    weight: Annotated[int, Field(ge=1, le=100)] = 100
    """Load-balancing weight."""
    shield: str | None = None
    """The shield POP (e.g. iad-va-us)."""


class CacheSetting(Record):
    """A cache setting of a version: cache, pass or restart, with a TTL."""

    id: CacheSettingId
    service_id: ServiceId
    """The service."""
    version_id: VersionId
    """The version."""
    name: ConfigName
    """Its name within the version."""
    action: CacheAction = "cache"
    """cache, pass (bypass the cache) or restart."""
    ttl: Ttl = 3600
    """Seconds to keep objects."""
    stale_ttl: Ttl = 0
    """Seconds to serve stale content while revalidating."""


class Purge(Record):
    """A cache purge request."""

    id: PurgeId
    service_id: ServiceId
    """The service."""
    kind: PurgeKind
    """url, surrogate_key or all."""
    target: str
    """The URL or surrogate key purged (empty for purge-all)."""
    soft: bool = False
    """Mark content stale instead of evicting it."""
    requested_by: Email
    """The engineer who purged."""
    created_at: Annotated[DateTime, CREATED]
    """When it was purged."""


class TlsSubscription(Record):
    """A managed certificate subscription for served domains."""

    id: SubscriptionId
    domains: tuple[Domain, ...]
    """The domains the certificate covers (the first is the common name)."""
    certificate_authority: CertAuthority = "lets-encrypt"
    """lets-encrypt, globalsign or certainly."""
    status: TlsStatus = "pending"
    """pending, processing, issued, renewing or failed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the account", field=field, hint="use an employee's e-mail")


def _guard_service(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        if old.active_version is not None:
            raise Conflict(
                f"service {old.name!r} still serves version {old.active_version}",
                field="service_id",
                hint="deactivate it with cdn__deactivate_version first",
            )
        return
    _staff(ctx, new.owner_email, "owner_email")


def _editable(ctx: Ctx, version_id: str) -> Version:
    v = ctx.get(Version, version_id, field="version_id")
    if v.status != "draft":
        raise Conflict(
            f"version {v.number} is {v.status} and cannot be edited",
            field="version_id",
            hint="clone it with cdn__clone_version and edit the new draft",
        )
    return v


def _guard_child(ctx: Ctx, new: Any, old: Any) -> None:
    _editable(ctx, (new or old).version_id)


services = service.resource(
    CdnService,
    name="service",
    plural="services",
    prefix="svc",
    create=False,
    filters=("type", "owner_email", "active_version"),
    search=("name", "comment"),
    update=("comment", "owner_email"),
    guard_update=_guard_service,
    guard_delete=_guard_service,
    title="CDN service",
)
versions = service.resource(
    Version,
    name="version",
    plural="versions",
    prefix="ver",
    create=False,
    filters=("service_id", "status", "number"),
    search=("comment",),
    update=("comment",),
    delete=False,
    transitions={
        "lock": Transition(
            "status",
            ("draft",),
            "locked",
            "lock the version",
            description="Lock a draft version: it can no longer be edited, only cloned or activated.",
        ),
    },
)
domains = service.resource(
    ServedDomain,
    name="domain",
    plural="domains",
    prefix="dom",
    create=False,
    filters=("service_id", "version_id", "name"),
    search=("name", "comment"),
    guard_delete=_guard_child,
)
backends = service.resource(
    Backend,
    name="backend",
    plural="backends",
    prefix="be",
    create=False,
    filters=("service_id", "version_id", "address"),
    search=("name", "address"),
    update=("address", "port", "use_ssl", "override_host", "weight", "shield"),
    guard_update=_guard_child,
    guard_delete=_guard_child,
)
cache_settings = service.resource(
    CacheSetting,
    name="cache_setting",
    plural="cache_settings",
    prefix="cs",
    create=False,
    get=False,
    filters=("service_id", "version_id", "action"),
    search=("name",),
    update=("action", "ttl", "stale_ttl"),
    guard_update=_guard_child,
    guard_delete=_guard_child,
)
purges = service.resource(
    Purge,
    name="purge",
    plural="purges",
    prefix="pur",
    create=False,
    get=False,
    filters=("service_id", "kind", "requested_by"),
    search=("target",),
    delete=False,
)
subscriptions = service.resource(
    TlsSubscription,
    name="tls_subscription",
    plural="tls_subscriptions",
    prefix="tls",
    create=False,
    filters=("status", "certificate_authority"),
    delete=False,
    transitions={
        "retry": Transition("status", ("failed",), "pending", "retry the TLS subscription"),
    },
    title="TLS subscription",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_service(ctx: Ctx) -> dict[str, Any] | None:
    return {"name": "Partner portal", "type": "vcl", "owner_email": ctx.population.employees[0].email}


@service.tool(intent="create the CDN service", write=True, example=_example_service)
def create_service(
    ctx: Ctx, name: Title, type: ServiceType = "vcl", comment: str = "", owner_email: Email | None = None
) -> CdnService:
    """Create a CDN service; it starts with an empty draft version 1.

    Args:
        name: Its name (unique).
        type: vcl or wasm.
        comment: A free comment.
        owner_email: The engineer who owns it.
    """
    if ctx.first(CdnService, name=name) is not None:
        raise Conflict(f"a service named {name!r} exists", field="name", hint="pick another name")
    _staff(ctx, owner_email, "owner_email")
    svc = ctx.create(CdnService, name=name, type=type, comment=comment, owner_email=owner_email)
    ctx.create(Version, service_id=svc.id, number=1, comment="Initial version")
    return svc


def _version(ctx: Ctx, service_id: str, number: int) -> Version:
    v = ctx.first(Version, service_id=service_id, number=number)
    if v is None:
        raise RuleViolation(f"service {service_id} has no version {number}", field="version_id", hint="list versions")
    return v


def _children(ctx: Ctx, version_id: str) -> tuple[list[ServedDomain], list[Backend], list[CacheSetting]]:
    return (
        ctx.where(ServedDomain, version_id=version_id),
        ctx.where(Backend, version_id=version_id),
        ctx.where(CacheSetting, version_id=version_id),
    )


@service.tool(intent="clone the version", write=True, example=first_example(Version, "version_id"))
def clone_version(ctx: Ctx, version_id: VersionId) -> Version:
    """Copy a version's domains, backends and cache settings into a new draft version.

    Args:
        version_id: The version to copy.
    """
    src = ctx.get(Version, version_id, field="version_id")
    svc = ctx.get(CdnService, src.service_id)
    number = svc.latest_version + 1
    new = ctx.create(Version, service_id=svc.id, number=number, cloned_from=src.number, comment="")
    doms, bes, css = _children(ctx, src.id)
    for d in doms:
        ctx.create(ServedDomain, service_id=svc.id, version_id=new.id, name=d.name, comment=d.comment)
    for b in bes:
        ctx.create(Backend, **(b.model_dump(exclude={"id", "version_id"}) | {"version_id": new.id}))
    for c in css:
        ctx.create(CacheSetting, **(c.model_dump(exclude={"id", "version_id"}) | {"version_id": new.id}))
    ctx.update(svc, latest_version=number)
    return new


def _activate(ctx: Ctx, v: Version) -> Version:
    svc = ctx.get(CdnService, v.service_id)
    doms, bes, _ = _children(ctx, v.id)
    if not doms or not bes:
        raise RuleViolation(
            f"version {v.number} needs at least one domain and one backend to serve",
            field="version_id",
            hint="add them with cdn__add_domain and cdn__add_backend",
        )
    if svc.active_version is not None:
        ctx.update(_version(ctx, svc.id, svc.active_version), status="locked")
    ctx.update(svc, active_version=v.number)
    return ctx.update(v, status="active", activated_at=ctx.now())


@service.tool(
    intent="activate the version",
    write=True,
    example=first_example(Version, "version_id", where={"status": "draft"}),
)
def activate_version(ctx: Ctx, version_id: VersionId) -> Version:
    """Activate a draft or locked version: it serves traffic and the previously active one is locked.

    Args:
        version_id: The version.
    """
    v = ctx.get(Version, version_id, field="version_id")
    if v.status == "active":
        raise Conflict(f"version {v.number} is already active", field="version_id", hint="nothing to do")
    return _activate(ctx, v)


@service.tool(
    intent="deactivate the version",
    write=True,
    example=first_example(Version, "version_id", where={"status": "active"}),
)
def deactivate_version(ctx: Ctx, version_id: VersionId) -> Version:
    """Deactivate the active version: the service stops serving, the version stays locked.

    Args:
        version_id: The active version.
    """
    v = ctx.get(Version, version_id, field="version_id")
    if v.status != "active":
        raise Conflict(f"version {v.number} is not active", field="version_id", hint="pick the active version")
    ctx.update(ctx.get(CdnService, v.service_id), active_version=None)
    return ctx.update(v, status="locked")


@service.tool(
    intent="roll back the service",
    write=True,
    example=first_example(CdnService, "service_id", match=lambda c, s: (s.active_version or 0) > 1),
)
def rollback_service(ctx: Ctx, service_id: ServiceId) -> Version:
    """Activate the newest locked version older than the active one.

    Args:
        service_id: The service.
    """
    svc = ctx.get(CdnService, service_id, field="service_id")
    if svc.active_version is None:
        raise Conflict(f"service {svc.name!r} is not serving", field="service_id", hint="activate a version instead")
    older = [
        v
        for v in ctx.where(Version, service_id=svc.id, status="locked")
        if v.number < svc.active_version and _children(ctx, v.id)[1]
    ]
    if not older:
        raise RuleViolation(
            f"no locked version older than {svc.active_version} to roll back to",
            field="service_id",
            hint="activate a specific version with cdn__activate_version",
        )
    return _activate(ctx, max(older, key=lambda v: v.number))


def _example_domain(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Version, status="draft")
    return None if v is None else {"version_id": v.id, "name": f"promo.{ctx.population.home.domain}"}


@service.tool(intent="add the domain to the version", write=True, example=_example_domain)
def add_domain(ctx: Ctx, version_id: VersionId, name: Domain, comment: str = "") -> ServedDomain:
    """Add a domain to a draft version; a domain belongs to one service only.

    Args:
        version_id: The draft version.
        name: The fully qualified domain name.
        comment: A free comment.
    """
    v = _editable(ctx, version_id)
    for d in ctx.where(ServedDomain, name=name):
        if d.service_id != v.service_id:
            raise Conflict(
                f"domain {name} is served by service {d.service_id}",
                field="name",
                hint="remove it from that service first",
            )
        if d.version_id == v.id:
            raise Conflict(f"version {v.number} already has domain {name}", field="name", hint="nothing to do")
    return ctx.create(ServedDomain, service_id=v.service_id, version_id=v.id, name=name, comment=comment)


def _unique_name(ctx: Ctx, model: type[Backend] | type[CacheSetting], v: Version, name: str) -> None:
    if ctx.first(model, version_id=v.id, name=name) is not None:
        raise Conflict(f"version {v.number} already has {name!r}", field="name", hint="pick another name")


def _example_backend(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Version, status="draft")
    return None if v is None else {"version_id": v.id, "name": "origin_eu", "address": "eu-origin.example.net"}


@service.tool(intent="add the backend to the version", write=True, example=_example_backend)
def add_backend(
    ctx: Ctx,
    version_id: VersionId,
    name: ConfigName,
    address: Address,
    port: Annotated[int, Field(ge=1, le=65535)] = 443,
    use_ssl: bool = True,
    override_host: Address | None = None,
    weight: Annotated[int, Field(ge=1, le=100)] = 100,
) -> Backend:
    """Add an origin backend to a draft version; names are unique within the version.

    Args:
        version_id: The draft version.
        name: The backend's name.
        address: The origin's host name or IP address.
        port: The origin's port (443 with TLS).
        use_ssl: Connect over TLS.
        override_host: The Host header to send.
        weight: Load-balancing weight, 1-100.
    """
    v = _editable(ctx, version_id)
    _unique_name(ctx, Backend, v, name)
    if use_ssl and port == 80:
        raise RuleViolation("port 80 does not speak TLS", field="port", hint="use 443 or set use_ssl false")
    return ctx.create(
        Backend,
        service_id=v.service_id,
        version_id=v.id,
        name=name,
        address=address,
        port=port,
        use_ssl=use_ssl,
        override_host=override_host,
        weight=weight,
    )


def _example_cache(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Version, status="draft")
    return None if v is None else {"version_id": v.id, "name": "images_long", "action": "cache", "ttl": 86400}


@service.tool(intent="add the cache setting to the version", write=True, example=_example_cache)
def add_cache_setting(
    ctx: Ctx,
    version_id: VersionId,
    name: ConfigName,
    action: CacheAction = "cache",
    ttl: Ttl = 3600,
    stale_ttl: Ttl = 0,
) -> CacheSetting:
    """Add a cache setting to a draft version; a pass setting keeps no TTL.

    Args:
        version_id: The draft version.
        name: The setting's name.
        action: cache, pass or restart.
        ttl: Seconds to keep objects (0 for pass).
        stale_ttl: Seconds to serve stale content.
    """
    v = _editable(ctx, version_id)
    _unique_name(ctx, CacheSetting, v, name)
    if action == "pass" and (ttl or stale_ttl):
        raise RuleViolation("a pass setting bypasses the cache and takes no TTL", field="ttl", hint="set ttl 0")
    return ctx.create(
        CacheSetting, service_id=v.service_id, version_id=v.id, name=name, action=action, ttl=ttl, stale_ttl=stale_ttl
    )


def _serving(ctx: Ctx, service_id: str, by: str) -> CdnService:
    svc = ctx.get(CdnService, service_id, field="service_id")
    _staff(ctx, by, "requested_by")
    if svc.active_version is None:
        raise Conflict(f"service {svc.name!r} has no active version", field="service_id", hint="nothing is cached")
    return svc


def _example_purge_url(ctx: Ctx) -> dict[str, Any] | None:
    for svc in ctx.scan(CdnService):
        if svc.active_version is not None:
            d = ctx.first(ServedDomain, version_id=_version(ctx, svc.id, svc.active_version).id)
            if d is not None:
                return {
                    "service_id": svc.id,
                    "url": f"https://{d.name}/index.html",
                    "requested_by": ctx.population.employees[0].email,
                }
    return None


@service.tool(intent="purge the URL from the cache", write=True, example=_example_purge_url)
def purge_url(ctx: Ctx, service_id: ServiceId, url: Url, requested_by: Email, soft: bool = False) -> Purge:
    """Purge one URL; its host must be a domain of the service's active version.

    Args:
        service_id: The service.
        url: The full URL.
        requested_by: The engineer purging.
        soft: Mark stale instead of evicting.
    """
    svc = _serving(ctx, service_id, requested_by)
    host = url.split("://", 1)[1].split("/", 1)[0].split(":", 1)[0].lower()
    active = _version(ctx, svc.id, svc.active_version or 0)
    if ctx.first(ServedDomain, version_id=active.id, name=host) is None:
        raise RuleViolation(
            f"{host} is not a domain of service {svc.name!r}",
            field="url",
            hint="list the active version's domains with cdn__list_domains",
        )
    return ctx.create(Purge, service_id=svc.id, kind="url", target=url, soft=soft, requested_by=requested_by)


@service.tool(
    intent="purge the surrogate key",
    write=True,
    example=first_example(
        CdnService, "service_id", match=lambda c, s: s.active_version is not None, surrogate_key="product-123"
    ),
)
def purge_key(
    ctx: Ctx, service_id: ServiceId, surrogate_key: SurrogateKey, requested_by: Email | None = None, soft: bool = True
) -> Purge:
    """Purge every object tagged with a surrogate key.

    Args:
        service_id: The service.
        surrogate_key: The key.
        requested_by: The engineer purging (default: the service's owner).
        soft: Mark stale instead of evicting (default).
    """
    by = requested_by or ctx.get(CdnService, service_id, field="service_id").owner_email
    if by is None:
        raise RuleViolation("say who purges", field="requested_by", hint="pass an employee's e-mail")
    svc = _serving(ctx, service_id, by)
    return ctx.create(Purge, service_id=svc.id, kind="surrogate_key", target=surrogate_key, soft=soft, requested_by=by)


@service.tool(
    intent="purge everything from the service's cache",
    write=True,
    destructive=True,
    example=first_example(
        CdnService,
        "service_id",
        match=lambda c, s: s.active_version is not None and s.owner_email is not None,
        fields={"requested_by": "owner_email"},
    ),
)
def purge_all(ctx: Ctx, service_id: ServiceId, requested_by: Email) -> Purge:
    """Evict everything the service cached; only the service's owner may purge all.

    Args:
        service_id: The service.
        requested_by: The service's owner.
    """
    svc = _serving(ctx, service_id, requested_by)
    if svc.owner_email != requested_by:
        raise RuleViolation(
            f"only the owner {svc.owner_email} may purge all of {svc.name!r}",
            field="requested_by",
            hint="purge by URL or surrogate key instead, or ask the owner",
        )
    return ctx.create(Purge, service_id=svc.id, kind="all", target="", requested_by=requested_by)


def _example_tls(ctx: Ctx) -> dict[str, Any] | None:
    taken = {d for t in ctx.scan(TlsSubscription) for d in t.domains}
    for d in ctx.scan(ServedDomain):
        if d.name not in taken and _live(ctx, d.name):
            return {"domains": [d.name], "certificate_authority": "certainly"}
    return None


def _live(ctx: Ctx, name: str) -> bool:
    return any(ctx.get(Version, d.version_id).status == "active" for d in ctx.where(ServedDomain, name=name))


@service.tool(intent="subscribe the domains to a TLS certificate", write=True, example=_example_tls)
def create_tls_subscription(
    ctx: Ctx, domains: list[Domain], certificate_authority: CertAuthority = "lets-encrypt"
) -> TlsSubscription:
    """Request a managed certificate for domains an active version serves; a domain has one subscription.

    Args:
        domains: The domains (the first is the common name).
        certificate_authority: lets-encrypt, globalsign or certainly.
    """
    if not domains or len(set(domains)) != len(domains):
        raise RuleViolation("list one or more distinct domains", field="domains", hint="name each domain once")
    for name in domains:
        if not _live(ctx, name):
            raise RuleViolation(
                f"{name} is not served by any active version",
                field="domains",
                hint="add it to a service and activate that version first",
            )
        for t in ctx.scan(TlsSubscription):
            if name in t.domains:
                raise Conflict(f"{name} is already in subscription {t.id}", field="domains", hint="use that one")
    return ctx.create(TlsSubscription, domains=tuple(domains), certificate_authority=certificate_authority)


@service.tool(
    intent="delete the TLS subscription",
    write=True,
    destructive=True,
    example=first_example(TlsSubscription, "subscription_id", where={"status": "failed"}),
)
def delete_tls_subscription(ctx: Ctx, subscription_id: SubscriptionId, force: bool = False) -> TlsSubscription:
    """Delete a subscription; one with an issued certificate needs force (the certificate stops serving).

    Args:
        subscription_id: The subscription.
        force: Delete even though its certificate is issued and in use.
    """
    t = ctx.get(TlsSubscription, subscription_id, field="subscription_id")
    if t.status in ("issued", "renewing") and not force:
        raise Conflict(
            f"subscription {t.id} has a certificate in use",
            field="subscription_id",
            hint="pass force true to delete it anyway",
        )
    ctx.delete(t)
    return t


# -- seed -------------------------------------------------------------------------------------

SITES: tuple[tuple[str, str, tuple[str, ...], str, int], ...] = (
    ("Production website", "www", ("www", "shop"), "web", 3),
    ("Public API", "api", ("api",), "api", 2),
    ("Static assets", "static", ("static", "img"), "assets", 4),
    ("Documentation", "docs", ("docs",), "docs", 1),
    ("Spring campaign (retired)", "campaign", ("spring",), "campaign", 2),
)
SHIELDS = ("iad-va-us", "fra-de", "lhr-uk", None, None)


@service.seeder
def seed(s: SeedContext) -> None:
    """The company's web properties as services with version histories; purges; TLS subscriptions."""
    pop = s.population
    domain = pop.home.domain
    eng = pop.staff("Engineering", fallback=3)
    for k, (title, short, hosts, origin, count) in enumerate(SITES):
        owner = eng[k % len(eng)].email
        svc = s.create(
            CdnService,
            name=title,
            type="wasm" if short == "api" else "vcl",
            owner_email=owner,
            latest_version=count,
            active_version=None if short == "campaign" else count - 1 if count > 2 else count,
            created_at=s.ago(days=500 - 60 * k),
            updated_at=s.ago(days=3 + k),
        )
        active = 0 if short == "campaign" else count - 1 if count > 2 else count
        for n in range(1, count + 1):
            status: Any = "active" if n == active else "draft" if n == count and 0 < active < n else "locked"
            v = s.create(
                Version,
                service_id=svc.id,
                number=n,
                status=status,
                comment="Initial version" if n == 1 else f"Tune caching ({n})",
                cloned_from=None if n == 1 else n - 1,
                activated_at=s.ago(days=40 - 8 * n) if status != "draft" else None,
                created_at=s.ago(days=60 - 8 * n),
                updated_at=s.ago(days=40 - 8 * n),
            )
            for h in hosts:
                s.create(ServedDomain, service_id=svc.id, version_id=v.id, name=f"{h}.{domain}")
            s.create(
                Backend,
                service_id=svc.id,
                version_id=v.id,
                name=f"{origin}_origin",
                address=f"{origin}-origin.{domain}",
                override_host=f"{origin}-origin.{domain}",
                shield=SHIELDS[k],
            )
            s.create(
                CacheSetting,
                service_id=svc.id,
                version_id=v.id,
                name="default_ttl",
                ttl=300 * n if short != "api" else 0,
                action="pass" if short == "api" else "cache",
            )
        for j in range(2):
            s.create(
                Purge,
                service_id=svc.id,
                kind="surrogate_key" if j else "url",
                target=f"release-{k}{j}" if j else f"https://{hosts[0]}.{domain}/",
                soft=bool(j),
                requested_by=owner,
                created_at=s.ago(days=2 + j, hours=k),
            )
    for hosts, ca, status in (
        (("www", "shop"), "lets-encrypt", "issued"),
        (("api",), "globalsign", "renewing"),
        (("static",), "certainly", "failed"),
    ):
        s.create(
            TlsSubscription,
            domains=tuple(f"{h}.{domain}" for h in hosts),
            certificate_authority=ca,
            status=status,
            created_at=s.ago(days=200),
            updated_at=s.ago(days=5),
        )
