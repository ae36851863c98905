"""Meshgate: zero-trust network access over the company's tailnet: devices, users, ACL policy and auth keys.

Modeled on the Tailscale API v2: devices (``/device/{id}`` with ``/authorized``,
``/routes``, ``/key``, ``/tags``), users with roles owner, admin, network-admin,
it-admin, auditor and member (suspend / restore), the policy file (``acls``,
``tagOwners``, ``tests``) and auth keys (reusable or one-off, ephemeral,
pre-authorized, tagged, expiring in 1-90 days).

Devices join with an auth key: a one-off key works once, a revoked or expired
one never; a tagged key makes tagged devices (no user, key expiry off), an
untagged one gives the device to the key's creator; a pre-authorized key skips
approval. Advertised subnet routes and exit nodes (0.0.0.0/0) work only once
approved, and only advertised routes can be. Device approvals are for owners,
admins and IT admins; routes and the policy for owners, admins and network
admins. Tags are applied only by their owners (tagOwners: e-mails, or
autogroup:admin). The policy's tests run on every change of its rules or tests
and a change that makes one fail is refused, as Tailscale refuses such a policy
file. The owner cannot be suspended nor have their role changed.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "ztna",
    title="Meshgate",
    category="network_access",
    modeled_on="Tailscale API v2: devices (authorize, routes, key expiry, tags), users (roles, suspend, restore), "
    "policy file (acls, tagOwners, tests), auth keys",
    description="Zero-trust network access for the company: the tailnet's devices with their authorization, "
    "node-key expiry, tags, subnet routes and exit nodes, its users and their roles, the access policy with "
    "its rules, tag owners and tests, and the auth keys servers and CI runners join with.",
)

DeviceId = Annotated[str, IdOf("ztna.device")]
UserId = Annotated[str, IdOf("ztna.user")]
RuleId = Annotated[str, IdOf("ztna.acl_rule")]
TestId = Annotated[str, IdOf("ztna.acl_test")]
TagOwnerId = Annotated[str, IdOf("ztna.tag_owner")]
KeyId = Annotated[str, IdOf("ztna.auth_key")]

Tag = Annotated[str, StringConstraints(pattern=r"^tag:[a-z][a-z0-9-]{0,49}$")]
"""A tag, tag:name."""
Hostname = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")]
"""A device's machine name."""
Cidr = Annotated[str, StringConstraints(pattern=r"^(\d{1,3}\.){3}\d{1,3}/\d{1,2}$")]
"""An IPv4 subnet route, e.g. 10.0.0.0/24."""
Source = Annotated[
    str, StringConstraints(pattern=r"^(\*|autogroup:(member|admin)|tag:[a-z][a-z0-9-]*|[^\s:]+@[^\s:]+)$")
]
"""Who a rule lets in: *, autogroup:member, autogroup:admin, a tag or a user's e-mail."""
Target = Annotated[
    str,
    StringConstraints(
        pattern=r"^(\*|tag:[a-z][a-z0-9-]*|[^\s:]+@[^\s:]+):(\*|\d{1,5}(-\d{1,5})?(,\d{1,5}(-\d{1,5})?)*)$"
    ),
]
"""Where to, with ports: tag:db:5432, *:*, alice@x.com:22,443 or tag:web:8000-8100."""
Probe = Annotated[str, StringConstraints(pattern=r"^(tag:[a-z][a-z0-9-]*|[^\s:]+@[^\s:]+):\d{1,5}$")]
"""A destination a test probes: a tag or user, and one port."""
Identity = Annotated[str, StringConstraints(pattern=r"^(tag:[a-z][a-z0-9-]*|[^\s:]+@[^\s:]+)$")]
"""A test's source: a tag or a user's e-mail."""

UserRole = Literal["owner", "admin", "network-admin", "it-admin", "auditor", "member"]
UserStatus = Literal["active", "suspended"]
DeviceOs = Literal["macOS", "windows", "linux", "iOS", "android"]

DEVICE_ADMINS: tuple[UserRole, ...] = ("owner", "admin", "it-admin")
NETWORK_ADMINS: tuple[UserRole, ...] = ("owner", "admin", "network-admin")
USER_ADMINS: tuple[UserRole, ...] = ("owner", "admin")
MAX_KEY_DAYS = 90
NODE_KEY_DAYS = 180
EXIT = "0.0.0.0/0"


class User(Record):
    """A user of the tailnet."""

    id: UserId
    login_name: Email
    """Their login (unique)."""
    display_name: PersonName
    """Their name."""
    role: UserRole = "member"
    """owner, admin, network-admin, it-admin, auditor or member."""
    status: UserStatus = "active"
    """active or suspended."""
    created_at: Annotated[DateTime, CREATED]
    """When they joined."""


class Device(Record):
    """A device (node) of the tailnet."""

    id: DeviceId
    hostname: Hostname
    """Its machine name (unique)."""
    address: Annotated[str, StringConstraints(pattern=r"^100\.\d{1,3}\.\d{1,3}\.\d{1,3}$")]
    """Its tailnet IPv4 address."""
    os: DeviceOs
    """macOS, windows, linux, iOS or android."""
    user_email: Email | None = None
    """The user it belongs to (none: a tagged device)."""
    tags: tuple[Tag, ...] = ()
    """Its tags (tagged devices belong to no user)."""
    authorized: bool = False
    """Whether it is approved to join."""
    ephemeral: bool = False
    """Whether it is removed when it goes offline."""
    key_expiry_disabled: bool = False
    """Whether its node key never expires."""
    expires: DateTime | None = None
    """When its node key expires."""
    advertised_routes: tuple[Cidr, ...] = ()
    """Subnet routes it offers."""
    enabled_routes: tuple[Cidr, ...] = ()
    """Approved subnet routes."""
    advertises_exit_node: bool = False
    """Whether it offers to be an exit node."""
    exit_node_approved: bool = False
    """Whether it is approved as an exit node."""
    last_seen: DateTime | None = None
    """When it was last connected."""
    created_at: Annotated[DateTime, CREATED]
    """When it joined."""


class AclRule(Record):
    """An accept rule of the policy file."""

    id: RuleId
    sources: tuple[Source, ...]
    """Who it lets in."""
    destinations: tuple[Target, ...]
    """Where to, with ports."""
    note: Text = ""
    """Why it exists."""


class AclTest(Record):
    """A test of the policy file: what a source must and must not reach."""

    id: TestId
    source: Identity
    """The user or tag tested."""
    accept: tuple[Probe, ...] = ()
    """Destinations it must reach."""
    deny: tuple[Probe, ...] = ()
    """Destinations it must not reach."""


class TagOwner(Record):
    """Who may apply a tag (tagOwners)."""

    id: TagOwnerId
    tag: Tag
    """The tag (unique)."""
    owners: tuple[Annotated[str, StringConstraints(pattern=r"^(autogroup:admin|[^\s:]+@[^\s:]+)$")], ...]
    """E-mails, or autogroup:admin."""


class AuthKey(Record):
    """A pre-authentication key devices join with."""

    id: KeyId
    key_prefix: Annotated[str, StringConstraints(pattern=r"^tskey-auth-[A-Za-z0-9]{6}$")]
    """The first characters of the secret."""
    description: Text = ""
    """What it is for."""
    created_by: Email
    """The user who made it."""
    reusable: bool = False
    """Whether several devices may join with it."""
    ephemeral: bool = False
    """Whether its devices are ephemeral."""
    preauthorized: bool = False
    """Whether its devices skip approval."""
    tags: tuple[Tag, ...] = ()
    """Tags its devices get."""
    uses: int = 0
    """Devices that joined with it."""
    expires: DateTime
    """When it stops working."""
    revoked: bool = False
    """Whether it was revoked."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class TestResult(Value):
    """One failed expectation of a policy test."""

    test_id: TestId
    """The test."""
    source: str
    """Its source."""
    destination: str
    """The destination probed."""
    expected: Literal["accept", "deny"]
    """What the test expects."""


class PolicyCheck(Value):
    """The outcome of running the policy's tests."""

    tests: int
    """Tests run."""
    passed: bool
    """Whether every expectation holds."""
    failures: tuple[TestResult, ...]
    """The expectations that do not."""


# -- rules ------------------------------------------------------------------------------------


def _actor(ctx: Ctx, email: str, roles: tuple[UserRole, ...], field: str, what: str) -> User:
    user = ctx.first(User, login_name=email)
    if user is None or user.status != "active":
        raise RuleViolation(f"{email} is not an active user of the tailnet", field=field, hint="use an active user")
    if user.role not in roles:
        raise RuleViolation(
            f"{email} ({user.role}) may not {what}",
            field=field,
            hint="ask a user with role " + " or ".join(roles),
        )
    return user


def _owns_tags(ctx: Ctx, user: User, tags: tuple[str, ...] | list[str], field: str) -> None:
    for tag in tags:
        owner = ctx.first(TagOwner, tag=tag)
        if owner is None:
            raise RuleViolation(
                f"{tag} is not defined in tagOwners", field=field, hint="define it with ztna__set_tag_owners"
            )
        if user.login_name not in owner.owners and not ("autogroup:admin" in owner.owners and user.role in USER_ADMINS):
            raise RuleViolation(
                f"{user.login_name} is not an owner of {tag}",
                field=field,
                hint="ask one of its owners: " + ", ".join(owner.owners),
            )


def _ports(spec: str) -> list[tuple[int, int]]:
    if spec == "*":
        return [(0, 65535)]
    pairs = [part.partition("-") for part in spec.split(",")]
    return [(int(lo), int(hi or lo)) for lo, _, hi in pairs]


def _src_matches(ctx: Ctx, selector: str, identity: str) -> bool:
    if selector in ("*", identity):
        return True
    if identity.startswith("tag:") or not selector.startswith("autogroup:"):
        return False
    user = ctx.first(User, login_name=identity)
    if user is None or user.status != "active":
        return False
    return selector == "autogroup:member" or user.role in USER_ADMINS


def _allowed(ctx: Ctx, rules: list[AclRule], identity: str, probe: str) -> bool:
    target, _, port_text = probe.rpartition(":")
    port = int(port_text)
    for rule in rules:
        if not any(_src_matches(ctx, s, identity) for s in rule.sources):
            continue
        for dest in rule.destinations:
            host, _, spec = dest.rpartition(":")
            if host in ("*", target) and any(lo <= port <= hi for lo, hi in _ports(spec)):
                return True
    return False


def _run_tests(ctx: Ctx) -> PolicyCheck:
    rules, tests, failures = list(ctx.scan(AclRule)), list(ctx.scan(AclTest)), []
    for t in tests:
        for expected, probes in (("accept", t.accept), ("deny", t.deny)):
            for probe in probes:
                if _allowed(ctx, rules, t.source, probe) != (expected == "accept"):
                    failures.append(TestResult(test_id=t.id, source=t.source, destination=probe, expected=expected))
    return PolicyCheck(tests=len(tests), passed=not failures, failures=tuple(failures))


def _enforce_tests(ctx: Ctx, field: str) -> None:
    check = _run_tests(ctx)
    if not check.passed:
        f = check.failures[0]
        raise RuleViolation(
            f"policy test {f.test_id} failed: {f.source} should {'reach' if f.expected == 'accept' else 'not reach'} "
            f"{f.destination} ({len(check.failures)} failure(s))",
            field=field,
            hint="change the rule, or update the test with it",
        )


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    filters=("role", "status", "login_name"),
    search=("display_name", "login_name"),
    delete=False,
)
devices = service.resource(
    Device,
    name="device",
    plural="devices",
    prefix="dev",
    create=False,
    filters=("user_email", "authorized", "os", "hostname", "advertises_exit_node", "ephemeral"),
    search=("hostname",),
)
rules_ = service.resource(
    AclRule,
    name="acl_rule",
    plural="acl_rules",
    prefix="acl",
    create=False,
    get=False,
    filters=(),
    delete=False,
    title="ACL rule",
)
tests_ = service.resource(
    AclTest,
    name="acl_test",
    plural="acl_tests",
    prefix="test",
    create=False,
    get=False,
    filters=("source",),
    title="ACL test",
)
tag_owners = service.resource(
    TagOwner,
    name="tag_owner",
    plural="tag_owners",
    prefix="tago",
    create=False,
    get=False,
    filters=("tag",),
    delete=False,
)
keys = service.resource(
    AuthKey,
    name="auth_key",
    plural="auth_keys",
    prefix="key",
    create=False,
    filters=("created_by", "reusable", "ephemeral", "revoked", "description"),
    search=("description",),
    delete=False,
    title="auth key",
)


# -- domain tools -----------------------------------------------------------------------------


def _admin_email(ctx: Ctx, roles: tuple[UserRole, ...] = USER_ADMINS) -> str | None:
    for u in ctx.where(User, status="active"):
        if u.role in roles:
            return u.login_name
    return None


def _with_admin(model: Any, param: str, roles: tuple[UserRole, ...], where: dict[str, Any], **args: Any) -> Any:
    pick = first_example(model, param, where=where, **args)

    def example(ctx: Ctx) -> dict[str, Any] | None:
        args, admin = pick(ctx), _admin_email(ctx, roles)
        return None if args is None or admin is None else args | {"actor_email": admin}

    return example


def _net_admin(**args: Any) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        admin = _admin_email(ctx, NETWORK_ADMINS)
        return None if admin is None else args | {"actor_email": admin}

    return example


@service.tool(
    intent="authorize the device",
    write=True,
    example=_with_admin(Device, "device_id", DEVICE_ADMINS, {"authorized": False}),
)
def authorize_device(ctx: Ctx, device_id: DeviceId, actor_email: Email, authorized: bool = True) -> Device:
    """Approve a device to join the tailnet (or revoke its approval); owners, admins and IT admins only.

    Args:
        device_id: The device.
        actor_email: The admin approving it.
        authorized: True to authorize, False to deauthorize.
    """
    dev = ctx.get(Device, device_id, field="device_id")
    _actor(ctx, actor_email, DEVICE_ADMINS, "actor_email", "approve devices")
    if dev.authorized == authorized:
        raise Conflict(
            f"{dev.hostname} is already {'authorized' if authorized else 'unauthorized'}",
            field="device_id",
            hint="nothing to do",
        )
    return ctx.update(dev, authorized=authorized)


@service.tool(
    intent="approve the device's subnet routes",
    write=True,
    example=_with_admin(Device, "device_id", NETWORK_ADMINS, {"hostname": "office-router"}, routes=["10.20.0.0/24"]),
)
def approve_routes(ctx: Ctx, device_id: DeviceId, routes: list[Cidr], actor_email: Email) -> Device:
    """Set which advertised routes of a device are enabled (0.0.0.0/0: use it as an exit node); network admins and up.

    Args:
        device_id: The subnet router or exit node.
        routes: The routes to enable, each advertised by the device; 0.0.0.0/0 approves it as an exit node.
            Routes left out are disabled.
        actor_email: The admin approving them.
    """
    dev = ctx.get(Device, device_id, field="device_id")
    _actor(ctx, actor_email, NETWORK_ADMINS, "actor_email", "approve routes")
    exit_node = EXIT in routes
    if exit_node and not dev.advertises_exit_node:
        raise RuleViolation(
            f"{dev.hostname} does not advertise an exit node",
            field="routes",
            hint="run tailscale up --advertise-exit-node on it first",
        )
    subnets = [r for r in dict.fromkeys(routes) if r != EXIT]
    for r in subnets:
        try:
            ipaddress.ip_network(r)
        except ValueError:
            raise RuleViolation(f"{r} is not a valid subnet", field="routes", hint="use the network address") from None
        if r not in dev.advertised_routes:
            raise RuleViolation(
                f"{dev.hostname} does not advertise {r}",
                field="routes",
                hint="approve only " + (", ".join(dev.advertised_routes) or "nothing: it advertises no route"),
            )
    return ctx.update(dev, enabled_routes=tuple(subnets), exit_node_approved=exit_node)


@service.tool(
    intent="set the device's key expiry",
    write=True,
    example=_with_admin(Device, "device_id", DEVICE_ADMINS, {"key_expiry_disabled": False}, disabled=True),
)
def set_key_expiry(ctx: Ctx, device_id: DeviceId, disabled: bool, actor_email: Email) -> Device:
    """Disable or re-enable node-key expiry of a device (disabled: it never has to re-authenticate).

    Args:
        device_id: The device.
        disabled: True to disable expiry.
        actor_email: The admin changing it.
    """
    dev = ctx.get(Device, device_id, field="device_id")
    _actor(ctx, actor_email, DEVICE_ADMINS, "actor_email", "change key expiry")
    expires = dev.expires or ctx.now() + dt.timedelta(days=NODE_KEY_DAYS)
    return ctx.update(dev, key_expiry_disabled=disabled, expires=expires)


@service.tool(
    intent="expire the device's key",
    write=True,
    example=_with_admin(Device, "device_id", DEVICE_ADMINS, {"authorized": True}),
    destructive=True,
)
def expire_device_key(ctx: Ctx, device_id: DeviceId, actor_email: Email) -> Device:
    """Expire a device's node key now: it loses access until its user re-authenticates.

    Args:
        device_id: The device.
        actor_email: The admin expiring it.
    """
    dev = ctx.get(Device, device_id, field="device_id")
    _actor(ctx, actor_email, DEVICE_ADMINS, "actor_email", "expire keys")
    return ctx.update(dev, expires=ctx.now(), key_expiry_disabled=False)


@service.tool(
    intent="tag the device",
    write=True,
    example=_with_admin(Device, "device_id", USER_ADMINS, {"hostname": "build-runner"}, tags=["tag:ci"]),
)
def set_device_tags(ctx: Ctx, device_id: DeviceId, tags: list[Tag], actor_email: Email) -> Device:
    """Set a device's tags; a tagged device belongs to no user and its key expiry is disabled.

    Args:
        device_id: The device.
        tags: Its new tags (the actor must own each); empty is refused (a device cannot drop back to a user).
        actor_email: The user applying them.
    """
    dev = ctx.get(Device, device_id, field="device_id")
    actor = _actor(ctx, actor_email, (*DEVICE_ADMINS, "network-admin", "member"), "actor_email", "tag devices")
    if not tags:
        raise RuleViolation(
            "a device needs at least one tag", field="tags", hint="re-authenticate it as a user instead"
        )
    _owns_tags(ctx, actor, tags, "tags")
    return ctx.update(dev, tags=tuple(dict.fromkeys(tags)), user_email=None, key_expiry_disabled=True)


def _key_example(ctx: Ctx) -> dict[str, Any] | None:
    admin = _admin_email(ctx)
    return None if admin is None else {"created_by": admin, "tags": ["tag:ci"], "reusable": True, "expiry_days": 30}


@service.tool(intent="create an auth key", write=True, example=_key_example)
def create_auth_key(
    ctx: Ctx,
    created_by: Email,
    expiry_days: Annotated[int, Field(ge=1, le=MAX_KEY_DAYS)] = MAX_KEY_DAYS,
    reusable: bool = False,
    ephemeral: bool = False,
    preauthorized: bool = False,
    tags: list[Tag] | None = None,
    description: Text = "",
) -> AuthKey:
    """Create an auth key that devices join with; tagged keys need the creator to own the tags.

    Args:
        created_by: The user creating it.
        expiry_days: Days until it expires, 1-90.
        reusable: Whether several devices may join with it.
        ephemeral: Whether its devices are removed when they go offline.
        preauthorized: Whether its devices skip approval.
        tags: Tags its devices get.
        description: What it is for.
    """
    user = ctx.first(User, login_name=created_by)
    if user is None or user.status != "active":
        raise RuleViolation(f"{created_by} is not an active user", field="created_by", hint="use an active user")
    _owns_tags(ctx, user, tags or [], "tags")
    n = ctx.next_number(AuthKey, "key")
    prefix = "tskey-auth-" + f"k{n:05d}"[-6:].replace("-", "0")
    return ctx.create(
        AuthKey,
        key_prefix=prefix,
        description=description,
        created_by=created_by,
        reusable=reusable,
        ephemeral=ephemeral,
        preauthorized=preauthorized,
        tags=tuple(dict.fromkeys(tags or [])),
        expires=ctx.now() + dt.timedelta(days=expiry_days),
    )


@service.tool(
    intent="revoke the auth key",
    write=True,
    destructive=True,
    example=first_example(AuthKey, "auth_key_id", where={"revoked": False}),
)
def revoke_auth_key(ctx: Ctx, auth_key_id: KeyId) -> AuthKey:
    """Revoke an auth key: no device can join with it any more (devices already joined stay).

    Args:
        auth_key_id: The key.
    """
    key = ctx.get(AuthKey, auth_key_id, field="auth_key_id")
    if key.revoked:
        raise Conflict(f"key {key.key_prefix} is already revoked", field="auth_key_id", hint="nothing to do")
    return ctx.update(key, revoked=True)


def _join_example(ctx: Ctx) -> dict[str, Any] | None:
    for key in ctx.where(AuthKey, revoked=False, reusable=True):
        if key.expires > ctx.now():
            return {"auth_key_id": key.id, "hostname": "runner-new-01", "os": "linux"}
    return None


@service.tool(intent="join the device with the auth key", write=True, example=_join_example)
def register_device(ctx: Ctx, auth_key_id: KeyId, hostname: Hostname, os: DeviceOs) -> Device:
    """A device joins the tailnet with an auth key (tailscale up --authkey).

    Args:
        auth_key_id: The key it uses.
        hostname: Its machine name (unique).
        os: Its operating system.
    """
    key = ctx.get(AuthKey, auth_key_id, field="auth_key_id")
    now = ctx.now()
    if key.revoked or key.expires <= now:
        raise RuleViolation(
            f"key {key.key_prefix} is {'revoked' if key.revoked else 'expired'}",
            field="auth_key_id",
            hint="create a new key with ztna__create_auth_key",
        )
    if not key.reusable and key.uses:
        raise RuleViolation(
            f"one-off key {key.key_prefix} was already used", field="auth_key_id", hint="create a new key"
        )
    if ctx.first(Device, hostname=hostname) is not None:
        raise Conflict(f"a device named {hostname} exists", field="hostname", hint="pick another name")
    n = ctx.next_number(Device, "address")
    ctx.update(key, uses=key.uses + 1)
    return ctx.create(
        Device,
        hostname=hostname,
        address=f"100.{100 + n // 62500}.{n // 250 % 250}.{n % 250 + 1}",
        os=os,
        user_email=None if key.tags else key.created_by,
        tags=key.tags,
        authorized=key.preauthorized,
        ephemeral=key.ephemeral,
        key_expiry_disabled=bool(key.tags),
        expires=now + dt.timedelta(days=NODE_KEY_DAYS),
        last_seen=now,
    )


def _user_example(ctx: Ctx) -> dict[str, Any] | None:
    u, admin = ctx.first(User, role="member", status="active"), _admin_email(ctx)
    return None if u is None or admin is None else {"user_id": u.id, "role": "auditor", "actor_email": admin}


@service.tool(intent="change the user's role", write=True, example=_user_example)
def set_user_role(ctx: Ctx, user_id: UserId, role: UserRole, actor_email: Email) -> User:
    """Change a user's role; owners and admins only, the owner's role cannot change and nobody becomes owner.

    Args:
        user_id: The user.
        role: admin, network-admin, it-admin, auditor or member.
        actor_email: The admin changing it.
    """
    user = ctx.get(User, user_id, field="user_id")
    _actor(ctx, actor_email, USER_ADMINS, "actor_email", "change roles")
    if user.role == "owner" or role == "owner":
        raise RuleViolation(
            "the owner role cannot be given or taken here", field="role", hint="transfer ownership in the console"
        )
    return ctx.update(user, role=role)


@service.tool(
    intent="suspend the user",
    write=True,
    example=_with_admin(User, "user_id", DEVICE_ADMINS, {"role": "member", "status": "active"}),
)
def suspend_user(ctx: Ctx, user_id: UserId, actor_email: Email, suspended: bool = True) -> User:
    """Suspend a user (their devices lose access) or restore them; owners, admins and IT admins; never the owner.

    Args:
        user_id: The user.
        actor_email: The admin acting.
        suspended: True to suspend, False to restore.
    """
    user = ctx.get(User, user_id, field="user_id")
    _actor(ctx, actor_email, DEVICE_ADMINS, "actor_email", "suspend users")
    if user.role == "owner":
        raise RuleViolation("the tailnet owner cannot be suspended", field="user_id", hint="suspend another user")
    status: UserStatus = "suspended" if suspended else "active"
    if user.status == status:
        raise Conflict(f"{user.login_name} is already {status}", field="user_id", hint="nothing to do")
    return ctx.update(user, status=status)


@service.tool(
    intent="add a rule to the access policy",
    write=True,
    example=_net_admin(sources=["tag:ci"], destinations=["tag:server:9100"], note="metrics"),
)
def add_acl_rule(
    ctx: Ctx,
    sources: Annotated[list[Source], Field(min_length=1)],
    destinations: Annotated[list[Target], Field(min_length=1)],
    actor_email: Email,
    note: Text = "",
) -> AclRule:
    """Add an accept rule to the policy; refused if the policy's tests then fail. Network admins and up.

    Args:
        sources: Who it lets in: *, autogroup:member, autogroup:admin, tags or e-mails.
        destinations: Where to, with ports (tag:db:5432, *:*, alice@x.com:22).
        actor_email: The admin editing the policy.
        note: Why.
    """
    _actor(ctx, actor_email, NETWORK_ADMINS, "actor_email", "edit the policy")
    for d in destinations:
        if any(lo > hi or hi > 65535 for lo, hi in _ports(d.rpartition(":")[2])):
            raise RuleViolation(f"bad port range in {d}", field="destinations", hint="ports are 0-65535, low-high")
    rule = ctx.create(AclRule, sources=tuple(sources), destinations=tuple(destinations), note=note)
    _enforce_tests(ctx, "destinations")
    return rule


@service.tool(
    intent="remove the rule from the access policy",
    write=True,
    example=_with_admin(AclRule, "acl_rule_id", NETWORK_ADMINS, {}),
)
def delete_acl_rule(ctx: Ctx, acl_rule_id: RuleId, actor_email: Email) -> PolicyCheck:
    """Remove an accept rule; refused if the policy's tests then fail. Network admins and up.

    Args:
        acl_rule_id: The rule.
        actor_email: The admin editing the policy.
    """
    rule = ctx.get(AclRule, acl_rule_id, field="acl_rule_id")
    _actor(ctx, actor_email, NETWORK_ADMINS, "actor_email", "edit the policy")
    ctx.delete(rule)
    _enforce_tests(ctx, "acl_rule_id")
    return _run_tests(ctx)


@service.tool(
    intent="add a test to the access policy",
    write=True,
    example=_net_admin(source="tag:ci", accept=["tag:server:22"], deny=["tag:db:22"]),
)
def add_acl_test(
    ctx: Ctx, source: Identity, actor_email: Email, accept: list[Probe] | None = None, deny: list[Probe] | None = None
) -> AclTest:
    """Add a test to the policy; refused if it fails against the current rules. Network admins and up.

    Args:
        source: The user's e-mail or tag tested.
        actor_email: The admin editing the policy.
        accept: Destinations it must reach (tag:server:443).
        deny: Destinations it must not reach.
    """
    _actor(ctx, actor_email, NETWORK_ADMINS, "actor_email", "edit the policy")
    if not accept and not deny:
        raise RuleViolation("a test needs an accept or a deny list", field="accept", hint="list destinations to probe")
    test = ctx.create(AclTest, source=source, accept=tuple(accept or ()), deny=tuple(deny or ()))
    _enforce_tests(ctx, "accept")
    return test


@service.tool(intent="run the access policy's tests")
def run_acl_tests(ctx: Ctx) -> PolicyCheck:
    """Run every test of the policy against its rules."""
    return _run_tests(ctx)


@service.tool(
    intent="set the owners of the tag",
    write=True,
    example=_net_admin(tag="tag:monitoring", owners=["autogroup:admin"]),
)
def set_tag_owners(
    ctx: Ctx,
    tag: Tag,
    owners: Annotated[
        list[Annotated[str, StringConstraints(pattern=r"^(autogroup:admin|[^\s:]+@[^\s:]+)$")]], Field(min_length=1)
    ],
    actor_email: Email,
) -> TagOwner:
    """Define a tag or change who may apply it (e-mails of users, or autogroup:admin). Network admins and up.

    Args:
        tag: The tag.
        owners: Who may apply it.
        actor_email: The admin editing the policy.
    """
    _actor(ctx, actor_email, NETWORK_ADMINS, "actor_email", "edit the policy")
    for o in owners:
        if o != "autogroup:admin" and ctx.first(User, login_name=o) is None:
            raise RuleViolation(f"{o} is not a user of the tailnet", field="owners", hint="use users' logins")
    existing = ctx.first(TagOwner, tag=tag)
    if existing is not None:
        return ctx.update(existing, owners=tuple(dict.fromkeys(owners)))
    return ctx.create(TagOwner, tag=tag, owners=tuple(dict.fromkeys(owners)))


# -- seed -------------------------------------------------------------------------------------

ROLES: tuple[UserRole, ...] = ("owner", "admin", "network-admin", "it-admin", "auditor")
SERVERS: tuple[tuple[str, str, tuple[str, ...], bool], ...] = (
    ("web-1", "tag:server", (), False),
    ("web-2", "tag:server", (), False),
    ("db-1", "tag:db", (), False),
    ("build-runner", "tag:ci", (), False),
    ("office-router", "tag:router", ("10.20.0.0/24", "192.168.1.0/24"), False),
    ("exit-fra", "tag:router", (), True),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Users from the staff with every role, their laptops and phones, tagged servers, routes, policy and keys."""
    staff = s.population.staff("IT", "Engineering", fallback=6)
    others = [p for p in s.population.employees if p not in staff]
    people = (staff[:6] + others)[:14]
    made: list[User] = []
    for k, p in enumerate(people):
        made.append(
            s.create(
                User,
                login_name=p.email,
                display_name=f"{p.first_name} {p.last_name}",
                role=ROLES[k] if k < len(ROLES) else "member",
                status="suspended" if k == len(people) - 1 else "active",
                created_at=s.ago(days=700 - 30 * k),
            )
        )
    owner, admin = made[0].login_name, made[1].login_name
    n = 0
    for k, u in enumerate(made):
        for os_name in ("macOS" if k % 2 else "windows", "iOS") if k % 3 == 0 else ("macOS" if k % 2 else "windows",):
            n += 1
            expired = k == 4 and os_name != "iOS"
            s.create(
                Device,
                hostname=f"{fold(u.display_name).split(' ')[0] or 'user'}-{'phone' if os_name == 'iOS' else 'laptop'}-{k}",
                address=f"100.64.{n // 250}.{n % 250 + 1}",
                os=os_name,
                user_email=u.login_name,
                authorized=k != 7,
                expires=s.ago(days=3) if expired else s.ago(days=-(30 + 9 * k)),
                last_seen=s.ago(hours=k + 1),
                created_at=s.ago(days=200 - 10 * k),
            )
    for name, tag, routes, exit_node in SERVERS:
        n += 1
        s.create(
            Device,
            hostname=name,
            address=f"100.64.{n // 250}.{n % 250 + 1}",
            os="linux",
            tags=(tag,),
            authorized=True,
            key_expiry_disabled=True,
            expires=s.ago(days=-180),
            advertised_routes=routes,
            enabled_routes=routes[:1],
            advertises_exit_node=exit_node,
            last_seen=s.ago(minutes=5),
            created_at=s.ago(days=300),
        )
    for tag, owners in (
        ("tag:server", ("autogroup:admin",)),
        ("tag:db", (admin,)),
        ("tag:ci", ("autogroup:admin", made[2].login_name)),
        ("tag:router", (made[2].login_name,)),
    ):
        s.create(TagOwner, tag=tag, owners=owners)
    for sources, dests, note in (
        (("autogroup:admin",), ("*:*",), "Admins reach everything."),
        (("autogroup:member",), ("tag:server:80,443",), "Everyone reaches the web servers."),
        (("tag:ci",), ("tag:server:22", "tag:db:5432"), "CI deploys and migrates."),
        ((made[5].login_name,), ("tag:db:5432",), "Analyst access to the database."),
    ):
        s.create(AclRule, sources=sources, destinations=dests, note=note)
    member = made[6].login_name
    s.create(AclTest, source=member, accept=("tag:server:443",), deny=("tag:db:5432", "tag:server:22"))
    s.create(AclTest, source="tag:ci", accept=("tag:server:22", "tag:db:5432"), deny=("tag:router:22",))
    for k, (desc, reusable, eph, pre, tags, days, revoked, uses) in enumerate(
        (
            ("CI runners", True, True, True, ("tag:ci",), 60, False, 14),
            ("Web servers", False, False, True, ("tag:server",), 20, False, 1),
            ("Old office router", False, False, False, ("tag:router",), -10, False, 0),
            ("Leaked in a log", True, False, True, (), 40, True, 3),
            ("New laptop", False, False, False, (), 7, False, 0),
        )
    ):
        s.create(
            AuthKey,
            key_prefix=f"tskey-auth-k{k:05d}",
            description=desc,
            created_by=owner if k % 2 else admin,
            reusable=reusable,
            ephemeral=eph,
            preauthorized=pre,
            tags=tags,
            uses=uses,
            expires=s.ago(days=-days),
            revoked=revoked,
            created_at=s.ago(days=max(1, 60 - 10 * k)),
        )
