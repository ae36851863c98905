"""Strongroom Secrets: vaults of versioned secrets, path-based access policies, rotation, leases and an audit log.

Modeled on the HashiCorp Vault HTTP API (KV secrets engine v2: ``/data`` with
``options.cas``, ``/metadata`` with ``max_versions``, ``cas_required`` and
``custom_metadata``, ``/delete``, ``/undelete``, ``/destroy``; ACL policies of
path globs and capabilities; ``sys/capabilities-self``; ``sys/leases``
renew and revoke; the audit device) and 1Password vaults with login items
(username, website): every operation is checked against the caller's
policies (the most specific matching path wins) and audited; a check-and-set
write must name the current version; old versions beyond ``max_versions`` are
dropped; soft-deleted versions can be undeleted, destroyed ones never come
back; database credentials are leased with a TTL that renewals cannot push
past the secret's maximum; disabled identities can do nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, DateTime, Email, IdOf, PersonName, Quantity, Text, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "secrets",
    title="Strongroom Secrets",
    category="identity_access",
    modeled_on="HashiCorp Vault HTTP API (KV v2 data/metadata/delete/undelete/destroy, ACL policies, "
    "capabilities-self, leases, audit device) / 1Password vaults and login items",
    description="Secrets management for the company: vaults of versioned secrets (passwords, API keys, "
    "database credentials), path-based access policies for people and service accounts, rotation, leased "
    "dynamic database credentials and an audit trail of every access.",
)

VaultId = Annotated[str, IdOf("secrets.vault")]
IdentityId = Annotated[str, IdOf("secrets.identity")]
PolicyId = Annotated[str, IdOf("secrets.policy")]
SecretId = Annotated[str, IdOf("secrets.secret")]
VersionId = Annotated[str, IdOf("secrets.secret_version")]
LeaseId = Annotated[str, IdOf("secrets.lease")]
AuditId = Annotated[str, IdOf("secrets.audit_event")]

VaultName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]{0,39}$")]
SecretPath = Annotated[
    str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_.-]*(/[a-z0-9][a-z0-9_.-]*){0,7}$", max_length=200)
]
PathGlob = Annotated[
    str, StringConstraints(pattern=r"^(\*|[a-z0-9][a-z0-9_.-]*(/[a-z0-9_.-]+)*(/\*)?)$", max_length=200)
]
PolicyName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]{0,39}$")]
SecretValue = Annotated[str, StringConstraints(min_length=1, max_length=4096)]
Capability = Literal["read", "write", "delete", "destroy", "rotate", "lease", "list", "deny"]
SecretKind = Literal["login", "api_key", "database", "note"]
Action = Literal["read", "write", "delete", "undelete", "destroy", "rotate", "lease", "renew", "revoke"]


class Vault(Created):
    """A vault: a named group of secrets (the first part of every path)."""

    id: VaultId
    name: VaultName
    """Vault name; unique. Paths are vault/secret-path (production/db/orders)."""
    description: Text = ""
    """What it holds."""
    owner_email: Email
    """Employee responsible for it."""


class Identity(Record):
    """A person or service account that uses secrets."""

    id: IdentityId
    name: PersonName
    """Name (a person's, or the service account's)."""
    email: Email
    """E-mail; unique. Every operation names the caller by e-mail."""
    kind: Literal["user", "service"] = "user"
    """user (an employee) or service (an application or CI bot)."""
    policies: tuple[PolicyName, ...] = ()
    """Names of the policies granting its capabilities."""
    disabled: bool = False
    """Disabled identities can do nothing."""


class PolicyRule(Value):
    """Capabilities on the paths matching a glob."""

    path: PathGlob = Field(description="vault/path, optionally ending in /* (prefix), or * for everything.")
    capabilities: list[Capability] = Field(
        min_length=1, max_length=8, description="read, write, delete, destroy, rotate, lease, list, or deny."
    )


class Policy(Record):
    """An ACL policy: rules of path globs and capabilities."""

    id: PolicyId
    name: PolicyName
    """Policy name; unique."""
    rules: list[PolicyRule] = Field(min_length=1, max_length=30)
    """The rules; for a path, the most specific matching rule applies."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Secret(Created):
    """A secret's metadata (never its value)."""

    id: SecretId
    vault_id: VaultId
    """The vault."""
    path: SecretPath
    """Path within the vault (db/orders/password); unique in the vault."""
    full_path: Annotated[str, StringConstraints(max_length=250)]
    """vault/path, what policies match."""
    kind: SecretKind = "note"
    """login, api_key, database or note."""
    username: Email | None = None
    """For a login: the account's user name (an e-mail)."""
    website: Url | None = None
    """For a login or API key: where it is used."""
    vendor: CompanyName | None = None
    """The company whose service the credential is for."""
    owner_email: Email
    """Who is responsible for it."""
    current_version: Quantity = 0
    """Latest version number."""
    max_versions: Annotated[int, Field(ge=1, le=100)] = 10
    """Versions kept; older ones are dropped on write."""
    cas_required: bool = False
    """Whether every write must name the current version (check-and-set)."""
    rotation_period_days: Annotated[int, Field(ge=1, le=730)] | None = None
    """How often it must be rotated; null: no schedule."""
    last_rotated_at: DateTime | None = None
    """When its value last changed."""
    max_lease_ttl_hours: Annotated[int, Field(ge=1, le=720)] = 24
    """For a database secret: the longest a lease may live, renewals included."""


class SecretVersion(Record):
    """One version of a secret's value."""

    id: VersionId
    secret_id: SecretId
    """The secret."""
    version: Quantity
    """Version number (1, 2 …)."""
    value: SecretValue
    """The value."""
    created_by_email: Email
    """Who wrote it."""
    deleted: bool = False
    """Soft-deleted (can be undeleted)."""
    destroyed: bool = False
    """Permanently destroyed (the value is gone)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


class Lease(Record):
    """Dynamic database credentials issued for a limited time."""

    id: LeaseId
    secret_id: SecretId
    """The database secret."""
    lease_path: Annotated[str, StringConstraints(max_length=300)]
    """Lease id as Vault shows it (database/creds/orders/abc123)."""
    issued_to_email: Email
    """Who got the credentials."""
    username: Annotated[str, StringConstraints(pattern=r"^v-[a-z0-9-]{4,60}$")]
    """Generated database user."""
    issued_at: DateTime
    """When it was issued."""
    expires_at: DateTime
    """When it expires."""
    revoked: bool = False
    """Whether it was revoked."""


class AuditEvent(Record):
    """One successful operation on a secret."""

    id: AuditId
    actor_email: Email
    """Who did it."""
    action: Action
    """What they did."""
    full_path: Annotated[str, StringConstraints(max_length=250)]
    """The secret's vault/path."""
    version: Quantity | None = None
    """Version involved."""
    at: Annotated[DateTime, CREATED]
    """When."""


# -- policies ---------------------------------------------------------------------------------


def _matches(glob: str, path: str) -> int:
    """Specificity of ``glob`` for ``path`` (-1 when it does not match)."""
    if glob == "*":
        return 0
    if glob.endswith("/*"):
        prefix = glob[:-1]
        return len(prefix) if path.startswith(prefix) else -1
    return len(glob) + 1000 if glob == path else -1


def _capabilities(ctx: Ctx, identity: Identity, path: str) -> set[str]:
    best = -1
    caps: set[str] = set()
    for name in identity.policies:
        pol = ctx.first(Policy, name=name)
        if pol is None:
            continue
        for rule in pol.rules:
            score = _matches(rule.path, path)
            if score > best:
                best, caps = score, set(rule.capabilities)
            elif score == best and score >= 0:
                caps |= set(rule.capabilities)
    return set() if "deny" in caps else caps


def _identity(ctx: Ctx, email: str, field: str) -> Identity:
    ident = ctx.first(Identity, email=email)
    if ident is None:
        raise NotFound(
            f"{email} is not a known identity", field=field, hint="list identities with secrets__list_identities"
        )
    if ident.disabled:
        raise RuleViolation(f"identity {email} is disabled", field=field, hint="an administrator must enable it first")
    return ident


def _authorize(ctx: Ctx, email: str, path: str, cap: str, field: str = "actor_email") -> Identity:
    ident = _identity(ctx, email, field)
    if cap not in _capabilities(ctx, ident, path):
        raise RuleViolation(
            f"permission denied: {email} lacks '{cap}' on {path}",
            field=field,
            hint="ask an administrator to grant it in a policy (secrets__check_capabilities shows what you have)",
        )
    return ident


def _audit(ctx: Ctx, email: str, action: str, path: str, version: int | None = None) -> None:
    ctx.create(AuditEvent, actor_email=email, action=action, full_path=path, version=version)


def _secret(ctx: Ctx, vault: str, path: str) -> Secret:
    v = ctx.first(Vault, name=vault)
    if v is None:
        raise NotFound(f"no vault named {vault}", field="vault", hint="list vaults with secrets__list_vaults")
    sec = ctx.first(Secret, vault_id=v.id, path=path)
    if sec is None:
        raise NotFound(f"no secret at {vault}/{path}", field="path", hint="list secrets with secrets__list_secrets")
    return sec


def _version(ctx: Ctx, sec: Secret, version: int | None, field: str = "version") -> SecretVersion:
    n = version if version is not None else sec.current_version
    rec = ctx.first(SecretVersion, secret_id=sec.id, version=n)
    if rec is None:
        raise NotFound(
            f"{sec.full_path} has no version {n}", field=field, hint="versions beyond max_versions are dropped"
        )
    return rec


def _guard_identity(ctx: Ctx, new: Any, old: Any) -> None:
    for name in new.policies:
        if ctx.first(Policy, name=name) is None:
            raise RuleViolation(
                f"no policy named {name}", field="policies", hint="list policies with secrets__list_policies"
            )


def _guard_secret(ctx: Ctx, new: Any, old: Any) -> None:
    if new.max_versions < old.max_versions:
        for v in ctx.where(SecretVersion, secret_id=new.id):
            if v.version <= new.current_version - new.max_versions:
                ctx.delete(v)


vaults = service.resource(
    Vault,
    name="vault",
    plural="vaults",
    prefix="vlt",
    create=False,
    get=False,
    filters=("name", "owner_email"),
    search=("name", "description"),
    delete=False,
    unique=("name",),
)
identities = service.resource(
    Identity,
    name="identity",
    plural="identities",
    prefix="ent",
    create=False,
    get=False,
    filters=("email", "kind", "disabled"),
    search=("name", "email"),
    update=("policies", "disabled"),
    delete=False,
    unique=("email",),
    guard_update=_guard_identity,
)
policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=False,
    get=False,
    filters=("name",),
    delete=False,
    title="access policy",
)
secrets = service.resource(
    Secret,
    name="secret",
    plural="secrets",
    prefix="sec",
    create=False,
    filters=("vault_id", "kind", "owner_email", "username", "vendor", "full_path"),
    search=("full_path", "vendor"),
    update=("max_versions", "cas_required", "rotation_period_days", "max_lease_ttl_hours", "owner_email", "website"),
    delete=False,
    guard_update=_guard_secret,
    title="secret",
)
versions = service.resource(
    SecretVersion,
    name="secret_version",
    plural="secret_versions",
    prefix="ver",
    create=False,
    get=False,
    filters=None,
    delete=False,
    title="secret version",
)
leases = service.resource(
    Lease,
    name="lease",
    plural="leases",
    prefix="lse",
    create=False,
    get=False,
    filters=("secret_id", "issued_to_email", "revoked"),
    delete=False,
)
audit = service.resource(
    AuditEvent,
    name="audit_event",
    plural="audit_events",
    prefix="aud",
    create=False,
    get=False,
    filters=("actor_email", "action", "full_path"),
    delete=False,
    title="audit event",
)


# -- examples ---------------------------------------------------------------------------------


def _someone_with(ctx: Ctx, path: str, cap: str) -> str | None:
    for ident in ctx.where(Identity, disabled=False):
        if cap in _capabilities(ctx, ident, path):
            return ident.email
    return None


def _split(full_path: str) -> dict[str, str]:
    vault, path = full_path.split("/", 1)
    return {"vault": vault, "path": path}


def _example_for(cap: str, kind: str | None = None) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        for sec in ctx.scan(Secret):
            if kind is not None and sec.kind != kind:
                continue
            who = _someone_with(ctx, sec.full_path, cap)
            if who is not None:
                return {**_split(sec.full_path), "actor_email": who}
        return None

    return example


def _example_write(ctx: Ctx) -> dict[str, Any] | None:
    for sec in ctx.scan(Secret):
        who = _someone_with(ctx, sec.full_path, "write")
        if who is not None:
            return {**_split(sec.full_path), "actor_email": who, "value": "n3w-s3cr3t!", "cas": sec.current_version}
    return None


def _example_version(cap: str, deleted: bool) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        for v in ctx.where(SecretVersion, deleted=deleted, destroyed=False):
            sec = ctx.get(Secret, v.secret_id)
            who = _someone_with(ctx, sec.full_path, cap)
            if who is not None:
                return {**_split(sec.full_path), "actor_email": who, "version": v.version}
        return None

    return example


def _example_caps(ctx: Ctx) -> dict[str, Any] | None:
    ident = ctx.first(Identity, disabled=False)
    sec = ctx.first(Secret)
    return None if ident is None or sec is None else {"actor_email": ident.email, "full_path": sec.full_path}


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="create a vault",
    write=True,
    example=first_example(
        Identity,
        None,
        where={"kind": "user", "disabled": False},
        fields={"owner_email": "email"},
        name="marketing",
        description="Social media logins",
    ),
)
def create_vault(ctx: Ctx, name: VaultName, owner_email: Email, description: Text = "") -> Vault:
    """Create a vault; its owner must be an enabled person.

    Args:
        name: Vault name (lower case); unique. It is the first part of its secrets' paths.
        owner_email: E-mail of the employee responsible for it.
        description: What it will hold.
    """
    owner = _identity(ctx, owner_email, "owner_email")
    if owner.kind != "user":
        raise RuleViolation(
            f"{owner_email} is a service account", field="owner_email", hint="a person must own a vault"
        )
    if ctx.first(Vault, name=name) is not None:
        raise Conflict(f"a vault named {name} exists", field="name", hint="pick another name")
    return ctx.create(Vault, name=name, description=description, owner_email=owner_email)


@service.tool(
    intent="write the access policy",
    write=True,
    idempotent=True,
    example=fixed_example(name="auditor", rules=[{"path": "production/*", "capabilities": ["list"]}]),
)
def write_policy(
    ctx: Ctx, name: PolicyName, rules: Annotated[list[PolicyRule], Field(min_length=1, max_length=30)]
) -> Policy:
    """Create a policy, or replace the rules of the policy of that name (identities holding it change at once).

    Each path glob may appear in one rule only; for a path, the most specific
    matching rule applies, and 'deny' takes everything away.

    Args:
        name: Policy name (lower case).
        rules: The rules.
    """
    globs = [r.path for r in rules]
    if len(set(globs)) != len(globs):
        raise RuleViolation("a path appears in two rules", field="rules", hint="merge their capabilities into one rule")
    existing = ctx.first(Policy, name=name)
    if existing is not None:
        return ctx.update(existing, rules=list(rules))
    return ctx.create(Policy, name=name, rules=list(rules))


def _example_create_secret(ctx: Ctx) -> dict[str, Any] | None:
    for vault in ctx.scan(Vault):
        who = _someone_with(ctx, f"{vault.name}/new-item", "write")
        if who is not None:
            return {"vault": vault.name, "path": "new-item", "value": "hunter22", "actor_email": who, "kind": "note"}
    return None


@service.tool(intent="store a new secret", write=True, example=_example_create_secret)
def create_secret(
    ctx: Ctx,
    vault: VaultName,
    path: SecretPath,
    value: SecretValue,
    actor_email: Email,
    kind: SecretKind = "note",
    username: Email | None = None,
    website: Url | None = None,
    vendor: CompanyName | None = None,
    rotation_period_days: Annotated[int, Field(ge=1, le=730)] | None = None,
) -> Secret:
    """Create a secret with its first version; the caller needs 'write' on vault/path and becomes its owner.

    Args:
        vault: Vault name.
        path: Path in the vault; must be free.
        value: The secret value.
        actor_email: E-mail of the caller.
        kind: login, api_key, database or note.
        username: For a login: the account's user name.
        website: For a login or API key: where it is used.
        vendor: The company whose service the credential is for.
        rotation_period_days: Rotate at least this often.
    """
    v = ctx.first(Vault, name=vault)
    if v is None:
        raise NotFound(f"no vault named {vault}", field="vault", hint="list vaults with secrets__list_vaults")
    full = f"{vault}/{path}"
    _authorize(ctx, actor_email, full, "write")
    if ctx.first(Secret, vault_id=v.id, path=path) is not None:
        raise Conflict(
            f"a secret exists at {full}", field="path", hint="write a new version with secrets__write_secret"
        )
    sec = ctx.create(
        Secret,
        vault_id=v.id,
        path=path,
        full_path=full,
        kind=kind,
        username=username,
        website=website,
        vendor=vendor,
        owner_email=actor_email,
        current_version=1,
        rotation_period_days=rotation_period_days,
        last_rotated_at=ctx.now(),
    )
    ctx.create(SecretVersion, secret_id=sec.id, version=1, value=value, created_by_email=actor_email)
    _audit(ctx, actor_email, "write", full, 1)
    return sec


def _new_version(ctx: Ctx, sec: Secret, value: str, actor: str, action: str) -> Secret:
    n = sec.current_version + 1
    ctx.create(SecretVersion, secret_id=sec.id, version=n, value=value, created_by_email=actor)
    for old in ctx.where(SecretVersion, secret_id=sec.id):
        if old.version <= n - sec.max_versions:
            ctx.delete(old)
    _audit(ctx, actor, action, sec.full_path, n)
    return ctx.update(sec, current_version=n, last_rotated_at=ctx.now())


@service.tool(intent="write a new version of the secret", write=True, example=_example_write)
def write_secret(
    ctx: Ctx, vault: VaultName, path: SecretPath, value: SecretValue, actor_email: Email, cas: Quantity | None = None
) -> Secret:
    """Write a new version of a secret (needs 'write').

    With check-and-set (required when the secret says cas_required), cas must
    equal the current version, so concurrent writers cannot overwrite each
    other. Versions beyond max_versions are dropped.

    Args:
        vault: Vault name.
        path: Path in the vault.
        value: The new value.
        actor_email: E-mail of the caller.
        cas: The version the caller last read; required when cas_required.
    """
    sec = _secret(ctx, vault, path)
    _authorize(ctx, actor_email, sec.full_path, "write")
    if sec.cas_required and cas is None:
        raise RuleViolation(
            f"{sec.full_path} requires check-and-set", field="cas", hint=f"pass cas={sec.current_version}"
        )
    if cas is not None and cas != sec.current_version:
        raise Conflict(
            f"check-and-set failed: current version is {sec.current_version}, not {cas}",
            field="cas",
            hint="read the secret again and retry with its current version",
        )
    return _new_version(ctx, sec, value, actor_email, "write")


class SecretData(BaseModel):
    """A secret's value at one version."""

    full_path: str = Field(description="vault/path.")
    version: int = Field(description="The version read.")
    value: str = Field(description="The secret value.")
    username: Email | None = Field(description="For a login: the user name.")
    website: Url | None = Field(description="Where it is used.")
    created_by_email: Email = Field(description="Who wrote this version.")
    created_at: DateTime = Field(description="When this version was written.")


@service.tool(intent="read the secret", write=True, example=_example_for("read"))
def read_secret(
    ctx: Ctx, vault: VaultName, path: SecretPath, actor_email: Email, version: Quantity | None = None
) -> SecretData:
    """Read a secret's value (needs 'read'); the read is audited. Deleted or destroyed versions cannot be read.

    Args:
        vault: Vault name.
        path: Path in the vault.
        actor_email: E-mail of the caller.
        version: Version to read; omit for the current one.
    """
    sec = _secret(ctx, vault, path)
    _authorize(ctx, actor_email, sec.full_path, "read")
    v = _version(ctx, sec, version)
    if v.destroyed:
        raise RuleViolation(f"version {v.version} was destroyed", field="version", hint="read another version")
    if v.deleted:
        raise RuleViolation(
            f"version {v.version} is deleted", field="version", hint="undelete it with secrets__undelete_secret_version"
        )
    _audit(ctx, actor_email, "read", sec.full_path, v.version)
    return SecretData(
        full_path=sec.full_path,
        version=v.version,
        value=v.value,
        username=sec.username,
        website=sec.website,
        created_by_email=v.created_by_email,
        created_at=v.created_at,
    )


def _set_flag(ctx: Ctx, vault: str, path: str, actor: str, version: int, action: str) -> SecretVersion:
    sec = _secret(ctx, vault, path)
    cap = {"delete": "delete", "undelete": "delete", "destroy": "destroy"}[action]
    _authorize(ctx, actor, sec.full_path, cap)
    v = _version(ctx, sec, version)
    if v.destroyed:
        raise RuleViolation(
            f"version {v.version} is destroyed for good", field="version", hint="write a new version instead"
        )
    if action == "delete" and v.deleted:
        raise Conflict(f"version {v.version} is already deleted", field="version", hint="nothing to do")
    if action == "undelete" and not v.deleted:
        raise Conflict(f"version {v.version} is not deleted", field="version", hint="nothing to do")
    _audit(ctx, actor, action, sec.full_path, v.version)
    if action == "destroy":
        return ctx.update(v, destroyed=True, deleted=True, value="<destroyed>")
    return ctx.update(v, deleted=action == "delete")


@service.tool(intent="delete the secret version", write=True, example=_example_version("delete", False))
def delete_secret_version(
    ctx: Ctx, vault: VaultName, path: SecretPath, actor_email: Email, version: Quantity
) -> SecretVersion:
    """Soft-delete a version (needs 'delete'); it can be undeleted later.

    Args:
        vault: Vault name.
        path: Path in the vault.
        actor_email: E-mail of the caller.
        version: The version.
    """
    return _set_flag(ctx, vault, path, actor_email, version, "delete")


@service.tool(intent="restore the deleted secret version", write=True, example=_example_version("delete", True))
def undelete_secret_version(
    ctx: Ctx, vault: VaultName, path: SecretPath, actor_email: Email, version: Quantity
) -> SecretVersion:
    """Restore a soft-deleted version (needs 'delete'). Destroyed versions cannot be restored.

    Args:
        vault: Vault name.
        path: Path in the vault.
        actor_email: E-mail of the caller.
        version: The version.
    """
    return _set_flag(ctx, vault, path, actor_email, version, "undelete")


@service.tool(
    intent="destroy the secret version for good",
    write=True,
    destructive=True,
    example=_example_version("destroy", False),
)
def destroy_secret_version(
    ctx: Ctx, vault: VaultName, path: SecretPath, actor_email: Email, version: Quantity
) -> SecretVersion:
    """Permanently destroy a version's value (needs 'destroy'); it can never be read again.

    Args:
        vault: Vault name.
        path: Path in the vault.
        actor_email: E-mail of the caller.
        version: The version.
    """
    return _set_flag(ctx, vault, path, actor_email, version, "destroy")


@service.tool(intent="rotate the secret", write=True, example=_example_for("rotate"))
def rotate_secret(ctx: Ctx, vault: VaultName, path: SecretPath, actor_email: Email) -> Secret:
    """Replace a secret's value with a freshly generated one as a new version (needs 'rotate').

    Args:
        vault: Vault name.
        path: Path in the vault.
        actor_email: E-mail of the caller.
    """
    sec = _secret(ctx, vault, path)
    _authorize(ctx, actor_email, sec.full_path, "rotate")
    alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%+"
    value = "".join(ctx.rng.choice(alphabet) for _ in range(24))
    return _new_version(ctx, sec, value, actor_email, "rotate")


class RotationDue(BaseModel):
    """A secret overdue for rotation."""

    secret_id: SecretId = Field(description="The secret.")
    full_path: str = Field(description="vault/path.")
    owner_email: Email = Field(description="Its owner.")
    due_at: DateTime = Field(description="When it was due.")
    days_overdue: int = Field(description="Whole days past due.")


@service.tool(intent="list the secrets overdue for rotation")
def rotation_report(ctx: Ctx, vault: VaultName | None = None) -> list[RotationDue]:
    """List the secrets whose rotation period has passed since they last changed, most overdue first.

    Args:
        vault: Only this vault; omit for all.
    """
    vault_id = None
    if vault is not None:
        v = ctx.first(Vault, name=vault)
        if v is None:
            raise NotFound(f"no vault named {vault}", field="vault", hint="list vaults with secrets__list_vaults")
        vault_id = v.id
    now = ctx.now()
    out: list[RotationDue] = []
    for sec in ctx.scan(Secret):
        if vault_id is not None and sec.vault_id != vault_id:
            continue
        if sec.rotation_period_days is None or sec.last_rotated_at is None:
            continue
        due = sec.last_rotated_at + dt.timedelta(days=sec.rotation_period_days)
        if due <= now:
            out.append(
                RotationDue(
                    secret_id=sec.id,
                    full_path=sec.full_path,
                    owner_email=sec.owner_email,
                    due_at=due,
                    days_overdue=(now - due).days,
                )
            )
    out.sort(key=lambda r: (r.due_at, r.secret_id))
    return out


class IssuedLease(BaseModel):
    """Leased database credentials."""

    lease: Lease = Field(description="The lease.")
    password: str = Field(description="The generated password; shown only now.")


@service.tool(intent="get temporary database credentials", write=True, example=_example_for("lease", "database"))
def issue_lease(
    ctx: Ctx,
    vault: VaultName,
    path: SecretPath,
    actor_email: Email,
    ttl_hours: Annotated[int, Field(ge=1, le=720)] = 1,
) -> IssuedLease:
    """Issue temporary credentials for a database secret (needs 'lease').

    The TTL cannot exceed the secret's max_lease_ttl_hours.

    Args:
        vault: Vault name.
        path: Path of a database secret.
        actor_email: E-mail of the caller.
        ttl_hours: Lifetime of the credentials.
    """
    sec = _secret(ctx, vault, path)
    if sec.kind != "database":
        raise RuleViolation(
            f"{sec.full_path} is a {sec.kind} secret; only database secrets issue leases",
            field="path",
            hint="read it with secrets__read_secret instead",
        )
    _authorize(ctx, actor_email, sec.full_path, "lease")
    if ttl_hours > sec.max_lease_ttl_hours:
        raise RuleViolation(
            f"ttl {ttl_hours}h exceeds the maximum of {sec.max_lease_ttl_hours}h",
            field="ttl_hours",
            hint=f"ask for at most {sec.max_lease_ttl_hours} hours",
        )
    now = ctx.now()
    token = f"{ctx.rng.getrandbits(48):012x}"
    who = actor_email.split("@")[0].replace(".", "-").replace("_", "-").lower()[:30]
    lease = ctx.create(
        Lease,
        secret_id=sec.id,
        lease_path=f"database/creds/{sec.path}/{token}",
        issued_to_email=actor_email,
        username=f"v-{who}-{token[:8]}",
        issued_at=now,
        expires_at=now + dt.timedelta(hours=ttl_hours),
    )
    _audit(ctx, actor_email, "lease", sec.full_path)
    return IssuedLease(lease=lease, password=f"A1a-{ctx.rng.getrandbits(96):024x}")


def _live_lease(ctx: Ctx, lease_id: str, actor: str) -> tuple[Lease, Secret]:
    lease = ctx.get(Lease, lease_id, field="lease_id")
    _identity(ctx, actor, "actor_email")
    if lease.revoked:
        raise RuleViolation("the lease is revoked", field="lease_id", hint="issue a new lease")
    if lease.expires_at <= ctx.now():
        raise RuleViolation("the lease has expired", field="lease_id", hint="issue a new lease")
    sec = ctx.get(Secret, lease.secret_id)
    if actor != lease.issued_to_email:
        _authorize(ctx, actor, sec.full_path, "lease")
    return lease, sec


@service.tool(
    intent="extend the lease",
    write=True,
    example=first_example(
        Lease,
        "lease_id",
        where={"revoked": False},
        match=lambda ctx, lease: lease.expires_at > ctx.now(),
        fields={"actor_email": "issued_to_email"},
        increment_hours=1,
    ),
)
def renew_lease(
    ctx: Ctx, lease_id: LeaseId, actor_email: Email, increment_hours: Annotated[int, Field(ge=1, le=720)]
) -> Lease:
    """Extend a live lease to now + increment, but never past its issue time + the secret's max TTL.

    Args:
        lease_id: The lease.
        actor_email: E-mail of its holder (or someone with 'lease' on the secret).
        increment_hours: Hours from now.
    """
    lease, sec = _live_lease(ctx, lease_id, actor_email)
    cap = lease.issued_at + dt.timedelta(hours=sec.max_lease_ttl_hours)
    wanted = ctx.now() + dt.timedelta(hours=increment_hours)
    if lease.expires_at >= cap:
        raise RuleViolation(
            f"the lease already runs until its maximum ({cap:%Y-%m-%d %H:%M})",
            field="increment_hours",
            hint="issue a new lease when it expires",
        )
    _audit(ctx, actor_email, "renew", sec.full_path)
    return ctx.update(lease, expires_at=min(wanted, cap))


@service.tool(
    intent="revoke the lease",
    write=True,
    destructive=True,
    example=first_example(
        Lease,
        "lease_id",
        where={"revoked": False},
        match=lambda ctx, lease: lease.expires_at > ctx.now(),
        fields={"actor_email": "issued_to_email"},
    ),
)
def revoke_lease(ctx: Ctx, lease_id: LeaseId, actor_email: Email) -> Lease:
    """Revoke a live lease at once: its database user stops working.

    Args:
        lease_id: The lease.
        actor_email: E-mail of its holder (or someone with 'lease' on the secret).
    """
    lease, sec = _live_lease(ctx, lease_id, actor_email)
    _audit(ctx, actor_email, "revoke", sec.full_path)
    return ctx.update(lease, revoked=True, expires_at=ctx.now())


class Capabilities(BaseModel):
    """What an identity may do on a path."""

    actor_email: Email = Field(description="The identity.")
    full_path: str = Field(description="The path checked.")
    capabilities: list[str] = Field(description="Capabilities granted (empty: none, or denied).")


@service.tool(intent="check what the person may do on the path", example=_example_caps)
def check_capabilities(
    ctx: Ctx, actor_email: Email, full_path: Annotated[str, StringConstraints(min_length=1, max_length=250)]
) -> Capabilities:
    """Show the capabilities an identity's policies give on a vault/path (the most specific rule wins).

    Args:
        actor_email: E-mail of the identity.
        full_path: vault/path to check.
    """
    ident = ctx.first(Identity, email=actor_email)
    if ident is None:
        raise NotFound(f"{actor_email} is not a known identity", field="actor_email", hint="list identities first")
    caps = set() if ident.disabled else _capabilities(ctx, ident, full_path)
    return Capabilities(actor_email=actor_email, full_path=full_path, capabilities=sorted(caps))


# -- seed -------------------------------------------------------------------------------------

POLICIES: tuple[tuple[str, list[tuple[str, list[Capability]]]], ...] = (
    ("admin", [("*", ["read", "write", "delete", "destroy", "rotate", "lease", "list"])]),
    (
        "developer",
        [
            ("staging/*", ["read", "write", "delete", "rotate", "lease", "list"]),
            ("production/*", ["list"]),
            ("production/db/*", ["lease"]),
        ],
    ),
    ("deployer", [("production/*", ["read", "list"]), ("production/db/*", ["read", "lease"])]),
    (
        "finance",
        [("finance/*", ["read", "write", "delete", "rotate", "list"]), ("finance/bank/*", ["read", "list"])],
    ),
    ("no-finance", [("finance/*", ["deny"])]),
)
SECRETS: tuple[tuple[str, str, SecretKind, int | None], ...] = (
    ("production", "db/orders", "database", 90),
    ("production", "db/billing", "database", 90),
    ("production", "payments/gateway-key", "api_key", 180),
    ("production", "email/provider-key", "api_key", 365),
    ("staging", "db/orders", "database", None),
    ("staging", "feature-flags/sdk-key", "api_key", None),
    ("finance", "bank/portal", "login", 60),
    ("finance", "tax/portal", "login", 120),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Vaults per environment and finance, policies, staff and service identities, secrets with versions."""
    pop = s.population
    rng = s.rng
    now = s.now
    home = pop.home
    for name, rules in POLICIES:
        s.create(
            Policy,
            name=name,
            rules=[PolicyRule(path=p, capabilities=caps) for p, caps in rules],
            updated_at=s.ago(days=90),
        )
    engineers = pop.staff("Engineering", fallback=4)
    finance = [p for p in pop.employees if p.department == "Finance"] or list(pop.employees[4:6])
    owners = {"production": engineers[0], "staging": engineers[-1], "finance": finance[0]}
    for name, desc in (
        ("production", "Credentials of the production systems."),
        ("staging", "Credentials of the staging environment."),
        ("finance", "Bank and tax portal logins."),
    ):
        s.create(Vault, name=name, description=desc, owner_email=owners[name].email, created_at=s.ago(days=400))
    vaults = {v.name: v for v in s.records(Vault)}
    for k, p in enumerate(engineers):
        pols: tuple[str, ...] = (
            ("admin",) if k == 0 else (("developer", "no-finance") if k % 3 else ("developer", "deployer"))
        )
        s.create(
            Identity, name=p.name, email=p.email, kind="user", policies=pols, disabled=k == len(engineers) - 1 and k > 2
        )
    for p in finance:
        s.create(Identity, name=p.name, email=p.email, kind="user", policies=("finance",))
    s.create(Identity, name="CI deploy bot", email=f"ci-bot@{home.domain}", kind="service", policies=("deployer",))
    banks = [c for c in pop.customers if c.industry in ("consulting", "software")][:2] or list(pop.customers[:2])
    for k, (vault, path, kind, period) in enumerate(SECRETS):
        owner = owners[vault]
        n_versions = 1 + k % 3
        created = s.ago(days=200 + 10 * k)
        last = s.ago(days=(period or 60) + 5) if k % 2 == 0 else s.ago(days=10 + k)
        login = kind == "login"
        vendor = banks[k % len(banks)] if login else None
        sec = s.create(
            Secret,
            vault_id=vaults[vault].id,
            path=path,
            full_path=f"{vault}/{path}",
            kind=kind,
            username=finance[k % len(finance)].email if login else None,
            website=f"https://portal.{vendor.domain}" if vendor else None,
            vendor=vendor.name if vendor else None,
            owner_email=owner.email,
            current_version=n_versions,
            cas_required=vault == "production",
            rotation_period_days=period,
            last_rotated_at=last,
            max_lease_ttl_hours=24,
            created_at=created,
        )
        for v in range(1, n_versions + 1):
            s.create(
                SecretVersion,
                secret_id=sec.id,
                version=v,
                value=f"{path.split('/')[-1]}-{rng.getrandbits(64):016x}",
                created_by_email=owner.email,
                deleted=v == 1 and n_versions == 3,
                created_at=created + dt.timedelta(days=30 * v) if v < n_versions else last,
            )
        if kind == "database" and vault == "production":
            holder = engineers[1 % len(engineers)]
            s.create(
                Lease,
                secret_id=sec.id,
                lease_path=f"database/creds/{path}/{rng.getrandbits(48):012x}",
                issued_to_email=holder.email,
                username=f"v-{holder.email.split('@')[0].replace('.', '-')[:30]}-{k:08d}",
                issued_at=s.ago(hours=2),
                expires_at=now + dt.timedelta(hours=6),
            )
            s.create(
                AuditEvent,
                actor_email=holder.email,
                action="lease",
                full_path=sec.full_path,
                at=s.ago(hours=2),
            )
