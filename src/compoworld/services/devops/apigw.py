"""Portcullis Gateway: the company's API gateway: services, routes, consumers, keys, plugins and load balancing.

Modeled on the Kong Gateway Admin API: Services (protocol, host, port, path; a host naming an
Upstream is load-balanced over its Targets), Routes matching hosts, paths and methods (a route needs
at least one of them; two routes may not claim the same host, path and method), Consumers with
``key-auth`` credentials (unique keys, optional TTL) and ``acl`` group memberships, Plugins scoped
globally or to a service, route or consumer (one of a name per scope; ``rate-limiting`` limits must
grow from minute to day; ``acl`` takes an allow or a deny list, not both; ``key-auth`` and ``acl``
never on a consumer), and Upstreams whose targets are marked healthy or unhealthy. A dry-run of a
request applies the proxy's logic: route match, IP restriction, key-auth (401), ACL (403) and
balancer (503).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, DateTime, Email, IdOf
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "apigw",
    title="Portcullis Gateway",
    category="api_gateway",
    modeled_on="Kong Gateway Admin API: services, routes, consumers, key-auth credentials, acls, plugins "
    "(rate-limiting, acl, key-auth, ip-restriction, cors), upstreams and targets with health",
    description="The API gateway in front of the company's APIs: upstream services and the routes that "
    "expose them, API consumers (partners and apps) with their keys and access groups, plugins for "
    "authentication, ACLs, rate limits and IP restrictions, and load-balanced upstream targets with health.",
)

GwServiceId = Annotated[str, IdOf("apigw.service")]
RouteId = Annotated[str, IdOf("apigw.route")]
ConsumerId = Annotated[str, IdOf("apigw.consumer")]
KeyId = Annotated[str, IdOf("apigw.key")]
AclId = Annotated[str, IdOf("apigw.acl")]
PluginId = Annotated[str, IdOf("apigw.plugin")]
UpstreamId = Annotated[str, IdOf("apigw.upstream")]
TargetId = Annotated[str, IdOf("apigw.target")]

EntityName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._~-]{1,128}$")]
"""A Kong entity name: letters, digits and . _ ~ -."""
Host = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$")]
"""A host name."""
ApiPath = Annotated[str, StringConstraints(pattern=r"^/[A-Za-z0-9._~/-]{0,255}$")]
"""A path prefix starting with /."""
Group = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")]
"""An ACL group name."""
IpRule = Annotated[str, StringConstraints(pattern=r"^(\d{1,3}\.){3}\d{1,3}(/\d{1,2})?$")]
"""An IPv4 address or CIDR block."""
ApiKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{16,64}$")]
"""An API key."""
Port = Annotated[int, Field(ge=1, le=65535)]
Limit = Annotated[int, Field(ge=1, le=10**9)]

Method = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
PluginName = Literal["key-auth", "acl", "rate-limiting", "ip-restriction", "cors"]
Health = Literal["healthy", "unhealthy", "dns_error"]
Algorithm = Literal["round-robin", "consistent-hashing", "least-connections"]


class GwService(Created):
    """A Kong service: an upstream API the gateway proxies to."""

    id: GwServiceId
    name: EntityName
    """Its name (unique)."""
    protocol: Literal["http", "https", "grpc"] = "http"
    """http, https or grpc."""
    host: Host
    """The backend host, or the name of an upstream to balance over."""
    port: Port = 80
    """The backend port."""
    path: ApiPath | None = None
    """Path prefix added upstream."""
    enabled: bool = True
    """Whether its routes take traffic."""
    owner_email: Email
    """The employee whose team runs the API."""


class Route(Created):
    """A route: which requests go to a service."""

    id: RouteId
    service_id: GwServiceId
    """The service."""
    name: EntityName
    """Its name (unique)."""
    hosts: tuple[Host, ...] = ()
    """Host headers it matches (none: any)."""
    paths: tuple[ApiPath, ...] = ()
    """Path prefixes it matches (none: any)."""
    methods: tuple[Method, ...] = ()
    """HTTP methods it matches (none: any)."""
    strip_path: bool = True
    """Whether the matched prefix is removed upstream."""


class Consumer(Created):
    """An API consumer: a partner, customer or internal app."""

    id: ConsumerId
    username: EntityName
    """Its username (unique)."""
    custom_id: Annotated[str, StringConstraints(min_length=1, max_length=128)] | None = None
    """An id from another system (the CRM account)."""
    company: CompanyName | None = None
    """The company behind it."""
    contact_email: Email | None = None
    """The developer to contact."""


class ApiKeyCredential(Created):
    """A key-auth credential of a consumer."""

    id: KeyId
    consumer_id: ConsumerId
    """Its consumer."""
    key: ApiKey
    """The key (unique)."""
    expires_at: DateTime | None = None
    """When it stops working (ttl)."""


class Acl(Created):
    """A consumer's membership of an ACL group."""

    id: AclId
    consumer_id: ConsumerId
    """The consumer."""
    group: Group
    """The group."""


class PluginConfig(Value):
    """A plugin's configuration (only the fields its plugin uses)."""

    minute: int | None = None
    """rate-limiting: requests per minute."""
    hour: int | None = None
    """rate-limiting: requests per hour."""
    day: int | None = None
    """rate-limiting: requests per day."""
    allow: tuple[str, ...] = ()
    """acl: allowed groups; ip-restriction: allowed addresses; cors: allowed origins."""
    deny: tuple[str, ...] = ()
    """acl: denied groups; ip-restriction: denied addresses."""


class Plugin(Created):
    """A plugin applied globally or to one service, route or consumer."""

    id: PluginId
    name: PluginName
    """key-auth, acl, rate-limiting, ip-restriction or cors."""
    service_id: GwServiceId | None = None
    """The service it applies to."""
    route_id: RouteId | None = None
    """The route it applies to."""
    consumer_id: ConsumerId | None = None
    """The consumer it applies to."""
    config: PluginConfig = PluginConfig()
    """Its configuration."""
    enabled: bool = True
    """Whether it runs."""


class Upstream(Created):
    """A virtual host load-balanced over targets."""

    id: UpstreamId
    name: Host
    """Its name, used as a service's host (unique)."""
    algorithm: Algorithm = "round-robin"
    """round-robin, consistent-hashing or least-connections."""


class Target(Created):
    """A backend instance of an upstream."""

    id: TargetId
    upstream_id: UpstreamId
    """The upstream."""
    target: Annotated[str, StringConstraints(pattern=r"^[a-z0-9.-]+:\d{1,5}$")]
    """host:port."""
    weight: Annotated[int, Field(ge=0, le=1000)] = 100
    """Share of traffic (0: none)."""
    health: Health = "healthy"
    """healthy, unhealthy or dns_error."""


class ProxyResult(Value):
    """What the gateway would do with a request."""

    status: int
    """HTTP status the client gets (200: proxied)."""
    message: str
    """Why."""
    route_id: RouteId | None = None
    """The route matched."""
    service_id: GwServiceId | None = None
    """Its service."""
    consumer_id: ConsumerId | None = None
    """The authenticated consumer."""
    upstream_target: str | None = None
    """The backend chosen."""
    rate_limit_minute: int | None = None
    """The per-minute limit that applies."""


# -- rules ------------------------------------------------------------------------------------


def _unique(ctx: Ctx, model: Any, field: str, value: str) -> None:
    other = ctx.first(model, **{field: value})
    if other is not None:
        raise Conflict(f"{other.id} already has {field} {value!r}", field=field, hint="pick another")


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_service(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_service_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Route, service_id=old.id) is not None:
        raise Conflict(f"service {old.name!r} still has routes", field="service_id", hint="delete its routes first")
    for p in ctx.where(Plugin, service_id=old.id):
        ctx.delete(p)


def _cascade(ctx: Ctx, field: str, value: str, *models: Any) -> None:
    for model in models:
        for r in ctx.where(model, **{field: value}):
            ctx.delete(r)


def _guard_route_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _cascade(ctx, "route_id", old.id, Plugin)


def _guard_consumer_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _cascade(ctx, "consumer_id", old.id, ApiKeyCredential, Acl, Plugin)


def _guard_upstream_delete(ctx: Ctx, new: Any, old: Any) -> None:
    user = ctx.first(GwService, host=old.name)
    if user is not None:
        raise Conflict(
            f"service {user.name!r} proxies to upstream {old.name}",
            field="upstream_id",
            hint="point the service at another host first",
        )
    _cascade(ctx, "upstream_id", old.id, Target)


services = service.resource(
    GwService,
    name="service",
    plural="services",
    prefix="svc",
    create=False,
    filters=("host", "protocol", "enabled", "owner_email", "name"),
    search=("name", "host"),
    update=("host", "port", "path", "protocol", "enabled", "owner_email"),
    guard_update=_guard_service,
    guard_delete=_guard_service_delete,
    title="gateway service",
)
routes = service.resource(
    Route,
    name="route",
    plural="routes",
    prefix="rt",
    create=False,
    filters=("service_id", "name"),
    search=("name",),
    guard_delete=_guard_route_delete,
)
consumers = service.resource(
    Consumer,
    name="consumer",
    plural="consumers",
    prefix="csm",
    create=False,
    filters=("username", "custom_id", "contact_email", "company"),
    search=("username", "company"),
    guard_delete=_guard_consumer_delete,
    title="API consumer",
)
keys = service.resource(
    ApiKeyCredential,
    name="key",
    plural="keys",
    prefix="key",
    create=False,
    get=False,
    filters=("consumer_id",),
    title="API key",
)
acls = service.resource(
    Acl, name="acl", plural="acls", prefix="acl", create=False, get=False, filters=("consumer_id", "group")
)
plugins = service.resource(
    Plugin,
    name="plugin",
    plural="plugins",
    prefix="plg",
    create=False,
    get=False,
    filters=("name", "service_id", "route_id", "consumer_id", "enabled"),
    transitions={
        "enable": Transition("enabled", (False,), True, "enable the plugin"),
        "disable": Transition("enabled", (True,), False, "disable the plugin"),
    },
)
upstreams = service.resource(
    Upstream,
    name="upstream",
    plural="upstreams",
    prefix="ups",
    create=False,
    get=False,
    filters=("name", "algorithm"),
    guard_delete=_guard_upstream_delete,
)
targets = service.resource(
    Target,
    name="target",
    plural="targets",
    prefix="tgt",
    create=False,
    get=False,
    filters=("upstream_id", "health"),
    transitions={
        "mark_healthy": Transition("health", ("unhealthy", "dns_error"), "healthy", "mark the target healthy"),
        "mark_unhealthy": Transition("health", ("healthy",), "unhealthy", "mark the target unhealthy"),
    },
)


# -- services and routes ----------------------------------------------------------------------


@service.tool(
    intent="create the gateway service",
    write=True,
    example=lambda ctx: {
        "name": "invoices-api",
        "host": "invoices.internal",
        "port": 8080,
        "owner_email": ctx.population.employees[0].email,
    },
)
def create_service(
    ctx: Ctx,
    name: EntityName,
    host: Host,
    owner_email: Email,
    port: Port = 80,
    protocol: Literal["http", "https", "grpc"] = "http",
    path: ApiPath | None = None,
) -> GwService:
    """Register a backend API; names are unique. A host naming an upstream is load-balanced.

    Args:
        name: Its name.
        host: The backend host, or an upstream's name.
        owner_email: The employee whose team runs it.
        port: The backend port.
        protocol: http, https or grpc.
        path: Path prefix added upstream.
    """
    _unique(ctx, GwService, "name", name)
    _staff(ctx, owner_email, "owner_email")
    return ctx.create(GwService, name=name, host=host, owner_email=owner_email, port=port, protocol=protocol, path=path)


def _overlap(ctx: Ctx, hosts: tuple[str, ...], paths: tuple[str, ...], methods: tuple[str, ...]) -> Route | None:
    for r in ctx.scan(Route):
        if (
            set(r.hosts) == set(hosts)
            and set(r.paths or ("",)) & set(paths or ("",))
            and (not r.methods or not methods or set(r.methods) & set(methods))
        ):
            return r
    return None


def _example_route(ctx: Ctx) -> dict[str, Any] | None:
    svc = ctx.first(GwService, enabled=True)
    return None if svc is None else {"service_id": svc.id, "name": "reports", "paths": ["/reports"], "methods": ["GET"]}


@service.tool(intent="add the route to the service", write=True, example=_example_route)
def create_route(
    ctx: Ctx,
    service_id: GwServiceId,
    name: EntityName,
    paths: list[ApiPath] | None = None,
    hosts: list[Host] | None = None,
    methods: list[Method] | None = None,
    strip_path: bool = True,
) -> Route:
    """Expose a service on paths, hosts and methods; a route needs at least one, and may not repeat another's.

    Args:
        service_id: The service.
        name: The route's name (unique).
        paths: Path prefixes.
        hosts: Host headers.
        methods: HTTP methods.
        strip_path: Remove the matched prefix upstream.
    """
    svc = ctx.get(GwService, service_id, field="service_id")
    _unique(ctx, Route, "name", name)
    p, h, m = tuple(dict.fromkeys(paths or ())), tuple(dict.fromkeys(hosts or ())), tuple(dict.fromkeys(methods or ()))
    if not (p or h or m):
        raise RuleViolation(
            "must set one of 'methods', 'hosts' or 'paths'", field="paths", hint="give at least a path prefix"
        )
    same = _overlap(ctx, h, p, m)
    if same is not None:
        raise Conflict(
            f"route {same.name!r} already matches these hosts, paths and methods",
            field="paths",
            hint="use another path or host, or change that route",
        )
    return ctx.create(Route, service_id=svc.id, name=name, paths=p, hosts=h, methods=m, strip_path=strip_path)


# -- consumers, keys and groups ---------------------------------------------------------------


@service.tool(
    intent="create the API consumer",
    write=True,
    example=lambda ctx: {"username": "acme-mobile", "contact_email": ctx.population.people[-1].email},
)
def create_consumer(
    ctx: Ctx,
    username: EntityName,
    custom_id: Annotated[str, StringConstraints(min_length=1, max_length=128)] | None = None,
    company: CompanyName | None = None,
    contact_email: Email | None = None,
) -> Consumer:
    """Create a consumer; usernames and custom ids are unique.

    Args:
        username: Its username.
        custom_id: An id from another system (a CRM account id).
        company: The company behind it.
        contact_email: The developer to contact.
    """
    _unique(ctx, Consumer, "username", username)
    if custom_id is not None:
        _unique(ctx, Consumer, "custom_id", custom_id)
    return ctx.create(Consumer, username=username, custom_id=custom_id, company=company, contact_email=contact_email)


def _new_key(ctx: Ctx) -> str:
    return "".join(ctx.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789") for _ in range(32))


@service.tool(intent="issue an API key to the consumer", write=True, example=first_example(Consumer, "consumer_id"))
def create_key(
    ctx: Ctx,
    consumer_id: ConsumerId,
    key: ApiKey | None = None,
    ttl_days: Annotated[int, Field(ge=1, le=3650)] | None = None,
) -> ApiKeyCredential:
    """Give a consumer a key-auth credential; keys are unique across consumers.

    Args:
        consumer_id: The consumer.
        key: The key (omit to generate one).
        ttl_days: Days until it expires (omit: never).
    """
    c = ctx.get(Consumer, consumer_id, field="consumer_id")
    if key is not None:
        _unique(ctx, ApiKeyCredential, "key", key)
    expires = ctx.now() + dt.timedelta(days=ttl_days) if ttl_days else None
    return ctx.create(ApiKeyCredential, consumer_id=c.id, key=key or _new_key(ctx), expires_at=expires)


@service.tool(
    intent="add the consumer to the ACL group",
    write=True,
    example=first_example(Consumer, "consumer_id", group="beta-testers"),
)
def add_to_group(ctx: Ctx, consumer_id: ConsumerId, group: Group) -> Acl:
    """Add a consumer to an ACL group.

    Args:
        consumer_id: The consumer.
        group: The group.
    """
    c = ctx.get(Consumer, consumer_id, field="consumer_id")
    if ctx.first(Acl, consumer_id=c.id, group=group) is not None:
        raise Conflict(f"{c.username} is already in {group}", field="group", hint="nothing to do")
    return ctx.create(Acl, consumer_id=c.id, group=group)


# -- plugins ----------------------------------------------------------------------------------


def _check_config(name: str, cfg: PluginConfig) -> None:
    if name == "rate-limiting":
        limits = [v for v in (cfg.minute, cfg.hour, cfg.day) if v is not None]
        if not limits:
            raise RuleViolation("rate-limiting needs a minute, hour or day limit", field="minute", hint="set one")
        if limits != sorted(limits):
            raise RuleViolation(
                "a longer period's limit cannot be lower than a shorter one's", field="hour", hint="raise it"
            )
    if name in ("acl", "ip-restriction") and bool(cfg.allow) == bool(cfg.deny):
        raise RuleViolation(f"{name} takes either allow or deny", field="allow", hint="give exactly one list")
    if name == "ip-restriction":
        for rule in cfg.allow + cfg.deny:
            try:
                ipaddress.ip_network(rule, strict=False)
            except ValueError:
                raise RuleViolation(f"{rule} is not an IP or CIDR", field="allow", hint="e.g. 10.0.0.0/8") from None


def _example_plugin(ctx: Ctx) -> dict[str, Any] | None:
    for svc in ctx.scan(GwService):
        if ctx.first(Plugin, service_id=svc.id, name="rate-limiting") is None:
            return {"name": "rate-limiting", "service_id": svc.id, "minute": 100, "hour": 2000}
    return None


@service.tool(intent="add the plugin", write=True, example=_example_plugin)
def add_plugin(
    ctx: Ctx,
    name: PluginName,
    service_id: GwServiceId | None = None,
    route_id: RouteId | None = None,
    consumer_id: ConsumerId | None = None,
    minute: Limit | None = None,
    hour: Limit | None = None,
    day: Limit | None = None,
    allow: list[Annotated[str, StringConstraints(min_length=1, max_length=255)]] | None = None,
    deny: list[Annotated[str, StringConstraints(min_length=1, max_length=255)]] | None = None,
) -> Plugin:
    """Apply a plugin globally (no scope) or to one service, route or consumer; one of each name per scope.

    Args:
        name: key-auth, acl, rate-limiting, ip-restriction or cors.
        service_id: Apply to this service.
        route_id: Apply to this route.
        consumer_id: Apply to this consumer (not key-auth or acl).
        minute: rate-limiting: requests per minute.
        hour: rate-limiting: requests per hour.
        day: rate-limiting: requests per day.
        allow: acl: groups; ip-restriction: IPs or CIDRs; cors: origins.
        deny: acl: groups; ip-restriction: IPs or CIDRs.
    """
    scope = {"service_id": service_id, "route_id": route_id, "consumer_id": consumer_id}
    given = {k: v for k, v in scope.items() if v is not None}
    if len(given) > 1:
        raise RuleViolation("a plugin has at most one scope", field=next(iter(given)), hint="pick one")
    for field, value in given.items():
        models: dict[str, type[Record]] = {"service_id": GwService, "route_id": Route, "consumer_id": Consumer}
        ctx.get(models[field], value, field=field)
    if consumer_id is not None and name in ("key-auth", "acl"):
        raise RuleViolation(f"{name} cannot be applied to a consumer", field="consumer_id", hint="scope a service")
    cfg = PluginConfig(minute=minute, hour=hour, day=day, allow=tuple(allow or ()), deny=tuple(deny or ()))
    _check_config(name, cfg)
    if ctx.first(Plugin, name=name, **scope) is not None:
        raise Conflict(f"{name} is already applied here", field="name", hint="change or delete that plugin")
    return ctx.create(Plugin, name=name, config=cfg, **scope)


# -- upstreams --------------------------------------------------------------------------------


@service.tool(
    intent="create the upstream",
    write=True,
    example=lambda ctx: {"name": "reports-upstream", "algorithm": "round-robin"},
)
def create_upstream(ctx: Ctx, name: Host, algorithm: Algorithm = "round-robin") -> Upstream:
    """Create an upstream (a load-balanced virtual host); names are unique.

    Args:
        name: Its name; services use it as their host.
        algorithm: round-robin, consistent-hashing or least-connections.
    """
    _unique(ctx, Upstream, "name", name)
    return ctx.create(Upstream, name=name, algorithm=algorithm)


@service.tool(
    intent="add the target to the upstream",
    write=True,
    example=first_example(Upstream, "upstream_id", target="10.0.9.9:8080", weight=50),
)
def add_target(
    ctx: Ctx,
    upstream_id: UpstreamId,
    target: Annotated[str, StringConstraints(pattern=r"^[a-z0-9.-]+:\d{1,5}$")],
    weight: Annotated[int, Field(ge=0, le=1000)] = 100,
) -> Target:
    """Add a backend (host:port) to an upstream; each target once per upstream.

    Args:
        upstream_id: The upstream.
        target: host:port.
        weight: Share of traffic, 0-1000.
    """
    ups = ctx.get(Upstream, upstream_id, field="upstream_id")
    if ctx.first(Target, upstream_id=ups.id, target=target) is not None:
        raise Conflict(f"{target} is already a target of {ups.name}", field="target", hint="change its weight")
    return ctx.create(Target, upstream_id=ups.id, target=target, weight=weight)


class UpstreamHealth(Value):
    """An upstream's balancer health."""

    upstream_id: UpstreamId
    """The upstream."""
    health: Literal["HEALTHY", "UNHEALTHY"]
    """HEALTHY when a healthy target with weight takes traffic."""
    healthy_targets: int
    """Healthy targets with weight above 0."""
    total_weight: int
    """Weight of the healthy targets."""


@service.tool(intent="show the upstream's health", example=first_example(Upstream, "upstream_id"))
def upstream_health(ctx: Ctx, upstream_id: UpstreamId) -> UpstreamHealth:
    """Whether an upstream can take traffic: its healthy targets and their weight.

    Args:
        upstream_id: The upstream.
    """
    ups = ctx.get(Upstream, upstream_id, field="upstream_id")
    up = [t for t in ctx.where(Target, upstream_id=ups.id) if t.health == "healthy" and t.weight > 0]
    weight = sum(t.weight for t in up)
    return UpstreamHealth(
        upstream_id=ups.id, health="HEALTHY" if up else "UNHEALTHY", healthy_targets=len(up), total_weight=weight
    )


# -- dry run ----------------------------------------------------------------------------------


def _match(ctx: Ctx, method: str, host: str, path: str) -> tuple[Route, GwService] | None:
    best: tuple[int, str, Route, GwService] | None = None
    for r in ctx.scan(Route):
        svc = ctx.get(GwService, r.service_id)
        if not svc.enabled or (r.hosts and host not in r.hosts) or (r.methods and method not in r.methods):
            continue
        hits = [p for p in r.paths if path == p or path.startswith(p.rstrip("/") + "/")] if r.paths else [""]
        if hits:
            score = (max(len(p) for p in hits), r.id)
            if best is None or score[0] > best[0]:
                best = (score[0], score[1], r, svc)
    return None if best is None else (best[2], best[3])


@service.tool(
    intent="test how the gateway handles the request",
    example=lambda ctx: {"method": "GET", "host": "api.example.com", "path": "/orders/42"},
)
def test_request(
    ctx: Ctx,
    method: Method,
    host: Host,
    path: ApiPath,
    apikey: str | None = None,
    client_ip: IpRule | None = None,
) -> ProxyResult:
    """Dry-run a request through the gateway: route match, IP restriction, key-auth, ACL and load balancing.

    Args:
        method: The HTTP method.
        host: The Host header.
        path: The request path.
        apikey: The apikey header, if any.
        client_ip: The client's IP address.
    """
    found = _match(ctx, method, host, path)
    if found is None:
        return ProxyResult(status=404, message="no Route matched with those values")
    route, svc = found
    base: dict[str, Any] = {"route_id": route.id, "service_id": svc.id}
    active = [
        p
        for p in ctx.scan(Plugin)
        if p.enabled and (p.service_id, p.route_id) in ((None, None), (svc.id, None), (None, route.id))
    ]
    named = {p.name: p for p in active if p.consumer_id is None}
    ipr = named.get("ip-restriction")
    if ipr is not None and client_ip is not None:
        ip = ipaddress.ip_address(client_ip.split("/")[0])
        inside = [ip in ipaddress.ip_network(n, strict=False) for n in ipr.config.allow or ipr.config.deny]
        if any(inside) != bool(ipr.config.allow):
            return ProxyResult(status=403, message="IP address not allowed", **base)
    consumer = None
    if "key-auth" in named:
        if not apikey:
            return ProxyResult(status=401, message="No API key found in request", **base)
        cred = ctx.first(ApiKeyCredential, key=apikey)
        if cred is None or (cred.expires_at is not None and cred.expires_at <= ctx.now()):
            return ProxyResult(status=401, message="Invalid authentication credentials", **base)
        consumer = cred.consumer_id
        base["consumer_id"] = consumer
    acl = named.get("acl")
    if acl is not None:
        groups = {a.group for a in ctx.where(Acl, consumer_id=consumer)} if consumer else set()
        allowed = bool(groups & set(acl.config.allow)) if acl.config.allow else not groups & set(acl.config.deny)
        if consumer is None or not allowed:
            return ProxyResult(status=403, message="You cannot consume this service", **base)
    # The most specific rate limit wins: consumer, then route, then service, then global.
    limits = [p for p in active if p.name == "rate-limiting" and p.consumer_id in (None, consumer)]
    limits.sort(key=lambda p: (p.consumer_id is None, p.route_id is None, p.service_id is None))
    base["rate_limit_minute"] = limits[0].config.minute if limits else None
    ups = ctx.first(Upstream, name=svc.host)
    if ups is None:
        return ProxyResult(status=200, message="proxied", upstream_target=f"{svc.host}:{svc.port}", **base)
    up = [t for t in ctx.where(Target, upstream_id=ups.id) if t.health == "healthy" and t.weight > 0]
    if not up:
        return ProxyResult(status=503, message="failure to get a peer from the ring-balancer", **base)
    pick = max(up, key=lambda t: (t.weight, t.id))
    return ProxyResult(status=200, message="proxied", upstream_target=pick.target, **base)


# -- seed -------------------------------------------------------------------------------------

APIS: tuple[tuple[str, str, int, bool, str], ...] = (
    ("orders-api", "orders-upstream", 8080, True, "/orders:GET,POST /carts:"),
    ("payments-api", "payments-upstream", 8443, True, "/payments:POST /refunds:POST"),
    ("catalog-api", "catalog.internal", 8080, True, "/catalog:GET /products:GET"),
    ("legacy-soap", "soap.internal", 8081, False, "/soap:"),
    ("inventory-api", "inventory.internal", 8080, True, ""),
)
UPSTREAMS: tuple[tuple[str, tuple[tuple[str, int, Health], ...]], ...] = (
    (
        "orders-upstream",
        (("10.0.1.11:8080", 100, "healthy"), ("10.0.1.12:8080", 100, "healthy"), ("10.0.1.13:8080", 50, "unhealthy")),
    ),
    ("payments-upstream", (("10.0.2.21:8443", 100, "healthy"), ("10.0.2.22:8443", 0, "dns_error"))),
    ("search-upstream", (("10.0.3.31:9200", 100, "unhealthy"),)),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Upstreams with targets in every health, services and routes, partner consumers with keys, groups and plugins."""
    pop = s.population
    eng = pop.staff("Engineering", "IT", fallback=4)
    for name, tgts in UPSTREAMS:
        ups = s.create(Upstream, name=name, created_at=s.ago(days=500))
        for addr, weight, health in tgts:
            s.create(Target, upstream_id=ups.id, target=addr, weight=weight, health=health, created_at=s.ago(days=400))
    svcs: dict[str, GwService] = {}
    for k, (name, host, port, enabled, spec) in enumerate(APIS):
        svc = s.create(
            GwService,
            name=name,
            host=host,
            port=port,
            protocol="https" if port == 8443 else "http",
            enabled=enabled,
            owner_email=eng[k % len(eng)].email,
            created_at=s.ago(days=450 - 30 * k),
        )
        svcs[name] = svc
        for part in spec.split():
            path, _, verbs = part.partition(":")
            s.create(
                Route,
                service_id=svc.id,
                name=f"{name.removesuffix('-api')}{path.replace('/', '-')}",
                hosts=(f"api.{pop.home.domain}",),
                paths=(path,),
                methods=tuple(v for v in verbs.split(",") if v),
                created_at=svc.created_at,
            )
    groups = ("partners", "premium", "internal")
    for k, company in enumerate(c for c in pop.companies if not c.home):
        if k == 6:
            break
        contact = pop.first_contact(company)
        slug = "".join(ch if ch.isalnum() else "-" for ch in company.name.lower()).strip("-")[:60]
        c = s.create(
            Consumer,
            username=slug,
            custom_id=company.key,
            company=company.name,
            contact_email=contact.email if contact else None,
            created_at=s.ago(days=300 - 20 * k),
        )
        s.create(
            ApiKeyCredential,
            consumer_id=c.id,
            key=f"{slug[:8].replace('-', '')}_{k:02d}{s.rng.getrandbits(64):016x}",
            expires_at=s.ago(days=3) if k == 5 else None,
            created_at=c.created_at,
        )
        for g in groups[: 1 + k % 2] if k != 4 else ():
            s.create(Acl, consumer_id=c.id, group=g, created_at=c.created_at)
        if k == 1:
            s.create(Plugin, name="rate-limiting", consumer_id=c.id, config=PluginConfig(minute=600, hour=20000))
    app = s.create(Consumer, username="mobile-app", custom_id="internal-mobile", created_at=s.ago(days=600))
    s.create(
        ApiKeyCredential, consumer_id=app.id, key=f"mobile_{s.rng.getrandbits(96):024x}", created_at=app.created_at
    )
    s.create(Acl, consumer_id=app.id, group="internal", created_at=app.created_at)
    orders, pay, legacy = svcs["orders-api"].id, svcs["payments-api"].id, svcs["legacy-soap"].id
    for name, scope, cfg in (
        ("cors", {}, PluginConfig(allow=(f"https://www.{pop.home.domain}",))),
        ("key-auth", {"service_id": orders}, PluginConfig()),
        ("rate-limiting", {"service_id": orders}, PluginConfig(minute=60, hour=1000)),
        ("key-auth", {"service_id": pay}, PluginConfig()),
        ("acl", {"service_id": pay}, PluginConfig(allow=("partners", "internal"))),
        ("ip-restriction", {"service_id": legacy}, PluginConfig(allow=("10.0.0.0/8",))),
    ):
        s.create(Plugin, name=name, config=cfg, enabled=name != "cors", created_at=s.ago(days=200), **scope)
