"""Latchkey Business: the company's password manager: members, groups, vaults, items, history and sharing.

Modeled on 1Password Business (Users and Groups in the SCIM bridge and CLI, the
Connect API for vaults and items, item history, share links, account recovery)
with Bitwarden's organization API as a second reference. Members are invited
(PENDING), confirmed by an admin (ACTIVE), suspended and reactivated; a
member who lost their secret key is put into recovery (RECOVERY_STARTED) by
another member of the built-in Recovery group and completes it themselves.
Built-in groups (Owners, Administrators, Recovery) cannot be deleted and
Owners never becomes empty. Each member has a personal (Private) vault that
cannot be shared or deleted; shared vaults are reached only through group
grants whose permissions depend on each other (everything needs view_items;
archive and delete need edit_items). Every item write names the acting member
and needs the permission on the item's vault; edits keep a version history
that can be restored; passwords are write-only (only their strength and age
are shown). Items are archived before they are deleted. Share links need
copy_and_share_items, expire after one of 1h, 1d, 7d, 14d or 30d and can be
limited to named e-mail addresses or one view.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal, get_args

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text, Title, Url

__all__ = ["service"]

service = Service(
    "passwords",
    title="Latchkey Business",
    category="password_management",
    modeled_on="1Password Business (SCIM users and groups, Connect API vaults and items, item history, share "
    "links, account recovery); Bitwarden organization API (collections, groups, members)",
    description="The company's business password manager: members and their account recovery, groups, personal "
    "and shared vaults with group permissions, login and secret items with write-only passwords and version "
    "history, and expiring share links.",
)

MemberId = Annotated[str, IdOf("passwords.member")]
GroupId = Annotated[str, IdOf("passwords.group")]
VaultId = Annotated[str, IdOf("passwords.vault")]
AccessId = Annotated[str, IdOf("passwords.vault_access")]
ItemId = Annotated[str, IdOf("passwords.item")]
VersionId = Annotated[str, IdOf("passwords.item_version")]
ShareId = Annotated[str, IdOf("passwords.share")]

Secret = Annotated[str, StringConstraints(min_length=1, max_length=1000)]
"""A password or secret value (write-only)."""

MemberState = Literal["PENDING", "ACTIVE", "SUSPENDED", "RECOVERY_STARTED"]
MemberRole = Literal["member", "admin", "owner"]
VaultType = Literal["PERSONAL", "USER_CREATED"]
Permission = Literal[
    "view_items",
    "create_items",
    "edit_items",
    "archive_items",
    "delete_items",
    "view_item_history",
    "copy_and_share_items",
    "manage_vault",
]
ItemCategory = Literal["LOGIN", "PASSWORD", "API_CREDENTIAL", "SERVER", "SECURE_NOTE", "CREDIT_CARD", "SSH_KEY"]
ItemState = Literal["active", "archived"]
Strength = Literal["terrible", "weak", "fair", "good", "fantastic"]
Expiry = Literal["1h", "1d", "7d", "14d", "30d"]
ShareStatus = Literal["active", "revoked"]
BUILT_IN = ("Owners", "Administrators", "Recovery")
EXPIRY: dict[str, dt.timedelta] = {
    "1h": dt.timedelta(hours=1),
    "1d": dt.timedelta(days=1),
    "7d": dt.timedelta(days=7),
    "14d": dt.timedelta(days=14),
    "30d": dt.timedelta(days=30),
}
NEEDS_EDIT = ("archive_items", "delete_items")
ALL_PERMISSIONS: tuple[str, ...] = get_args(Permission)


def strength_of(secret: str) -> Strength:
    """A password's strength from its length and character classes."""
    classes = sum(any(f(c) for c in secret) for f in (str.islower, str.isupper, str.isdigit))
    classes += any(not c.isalnum() for c in secret)
    score = min(len(secret) // 4, 5) + classes
    names: tuple[Strength, ...] = ("terrible", "terrible", "terrible", "weak", "weak", "fair", "good", "good")
    return names[score] if score < len(names) else "fantastic"


class Member(Record):
    """A person in the company's account."""

    id: MemberId
    email: Email
    """Their e-mail (unique)."""
    name: PersonName
    """Their name."""
    role: MemberRole = "member"
    """member, admin or owner."""
    state: MemberState = "PENDING"
    """PENDING (invited), ACTIVE, SUSPENDED or RECOVERY_STARTED."""
    recovery_by: Email | None = None
    """Who started the recovery."""
    created_at: Annotated[DateTime, CREATED]
    """When they were invited."""
    updated_at: Annotated[DateTime, UPDATED]
    """When they last changed."""


class Group(Record):
    """A group of members that vault grants are given to."""

    id: GroupId
    name: Title
    """Its name (unique)."""
    description: Text = ""
    """What it is for."""
    member_emails: tuple[Email, ...] = ()
    """Its members."""
    built_in: bool = False
    """Owners, Administrators and Recovery are built in."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Vault(Record):
    """A vault of items: a member's personal one, or a shared one."""

    id: VaultId
    name: Title
    """Its name."""
    type: VaultType = "USER_CREATED"
    """PERSONAL (a member's Private vault) or USER_CREATED (shared)."""
    owner_email: Email | None = None
    """The member a personal vault belongs to."""
    description: Text = ""
    """What it holds."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class VaultAccess(Record):
    """A group's permissions on a shared vault."""

    id: AccessId
    vault_id: VaultId
    """The vault."""
    group_id: GroupId
    """The group."""
    permissions: tuple[Permission, ...]
    """What the group's members may do in it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was granted."""


class Item(Record):
    """A login, credential, note or card in a vault."""

    id: ItemId
    vault_id: VaultId
    """Its vault."""
    title: Title
    """Its title."""
    category: ItemCategory = "LOGIN"
    """LOGIN, PASSWORD, API_CREDENTIAL, SERVER, SECURE_NOTE, CREDIT_CARD or SSH_KEY."""
    username: Annotated[str, StringConstraints(max_length=200)] = ""
    """The username or e-mail it signs in with."""
    website: Url | None = None
    """Where it is used."""
    tags: tuple[Annotated[str, StringConstraints(min_length=1, max_length=40)], ...] = ()
    """Tags."""
    has_password: bool = False
    """Whether it holds a password (write-only)."""
    password_strength: Strength | None = None
    """The password's strength."""
    password_changed_at: DateTime | None = None
    """When the password last changed."""
    state: ItemState = "active"
    """active or archived."""
    version: int = 1
    """Its current version."""
    last_edited_by: Email
    """Who last changed it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class ItemVersion(Record):
    """An earlier version of an item, kept in its history."""

    id: VersionId
    item_id: ItemId
    """The item."""
    version: int
    """The version number."""
    title: Title
    """Its title then."""
    username: str
    """Its username then."""
    website: Url | None = None
    """Its website then."""
    password_strength: Strength | None = None
    """Its password's strength then."""
    edited_by: Email
    """Who wrote that version."""
    created_at: Annotated[DateTime, CREATED]
    """When that version was written."""


class Share(Record):
    """A link that shares a copy of an item for a while."""

    id: ShareId
    item_id: ItemId
    """The item."""
    created_by: Email
    """The member who shared it."""
    recipients: tuple[Email, ...] = ()
    """Only these e-mail addresses may open it (empty: anyone with the link)."""
    view_once: bool = False
    """Whether it opens only once."""
    expires_at: DateTime
    """When the link stops working."""
    url: Url
    """The link."""
    status: ShareStatus = "active"
    """active or revoked."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


# -- rules ------------------------------------------------------------------------------------


def _active(ctx: Ctx, email: str, field: str) -> Member:
    m = ctx.first(Member, email=email)
    if m is None or m.state != "ACTIVE":
        raise RuleViolation(
            f"{email} is not an active member" + (f" ({m.state})" if m else ""),
            field=field,
            hint="use an active member's e-mail (passwords__list_members)",
        )
    return m


def permissions_of(ctx: Ctx, email: str, vault: Vault) -> set[str]:
    """What a member may do in a vault: everything in their own personal vault, else their groups' grants."""
    if vault.type == "PERSONAL":
        return set(ALL_PERMISSIONS) if vault.owner_email == email else set()
    out: set[str] = set()
    for grant in ctx.where(VaultAccess, vault_id=vault.id):
        if email in ctx.get(Group, grant.group_id).member_emails:
            out.update(grant.permissions)
    return out


def _may(ctx: Ctx, actor: str, vault_id: str, perm: str, field: str = "actor_email") -> Vault:
    _active(ctx, actor, field)
    vault = ctx.get(Vault, vault_id, field="vault_id")
    if perm not in permissions_of(ctx, actor, vault):
        raise RuleViolation(
            f"{actor} lacks {perm} on vault {vault.name!r}",
            field=field,
            hint="ask a vault manager to grant a group of yours that permission",
        )
    return vault


def _check_permissions(perms: tuple[str, ...]) -> None:
    if not perms:
        raise RuleViolation("a grant needs permissions", field="permissions", hint="include view_items")
    if "view_items" not in perms:
        raise RuleViolation("every permission needs view_items", field="permissions", hint="add view_items")
    if any(p in perms for p in NEEDS_EDIT) and "edit_items" not in perms:
        raise RuleViolation("archive and delete need edit_items", field="permissions", hint="add edit_items")


def _guard_group(ctx: Ctx, new: Any, old: Any) -> None:
    for email in new.member_emails:
        if ctx.first(Member, email=email) is None:
            raise RuleViolation(f"{email} is not a member", field="member_emails", hint="invite them first")
    if len(set(new.member_emails)) != len(new.member_emails):
        raise RuleViolation("a member is listed twice", field="member_emails", hint="list each once")
    if new.name == "Owners" and not new.member_emails:
        raise RuleViolation("Owners cannot be empty", field="member_emails", hint="keep at least one owner")
    if old is not None and old.built_in and new.name != old.name:
        raise RuleViolation(f"{old.name} is built in", field="name", hint="built-in groups keep their names")


def _guard_group_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.built_in:
        raise RuleViolation(f"{old.name} is a built-in group", field="group_id", hint="it cannot be deleted")
    for grant in ctx.where(VaultAccess, group_id=old.id):
        ctx.delete(grant)


def _guard_vault(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.type == "PERSONAL":
        raise RuleViolation("a Private vault cannot be changed", field="vault_id", hint="use a shared vault")


def _guard_vault_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.type == "PERSONAL":
        raise RuleViolation("a Private vault cannot be deleted", field="vault_id", hint="suspend the member instead")
    if ctx.first(Item, vault_id=old.id) is not None:
        raise RuleViolation(
            f"vault {old.name!r} still holds items", field="vault_id", hint="move or delete its items first"
        )
    for grant in ctx.where(VaultAccess, vault_id=old.id):
        ctx.delete(grant)


def _guard_member(ctx: Ctx, new: Any, old: Any) -> None:
    if new.state == "SUSPENDED" and new.role == "owner":
        others = [m for m in ctx.where(Member, role="owner", state="ACTIVE") if m.id != new.id]
        if not others:
            raise RuleViolation("the last active owner cannot be suspended", field="member_id", hint="add an owner")
    if new.state == "ACTIVE" and old.state == "RECOVERY_STARTED":
        ctx.update(new, recovery_by=None)


members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="usr",
    create=False,
    filters=("email", "state", "role"),
    search=("name", "email"),
    update=("name", "role"),
    delete=False,
    transitions={
        "confirm": Transition("state", ("PENDING",), "ACTIVE", "confirm the member"),
        "suspend": Transition("state", ("ACTIVE", "RECOVERY_STARTED"), "SUSPENDED", "suspend the member"),
        "reactivate": Transition("state", ("SUSPENDED",), "ACTIVE", "reactivate the member"),
        "complete_recovery": Transition(
            "state",
            ("RECOVERY_STARTED",),
            "ACTIVE",
            "complete the member's account recovery",
            description="The member sets a new account password and secret key: their account is ACTIVE again.",
        ),
    },
    guard_update=_guard_member,
)
groups = service.resource(
    Group,
    name="group",
    plural="groups",
    prefix="grp",
    create=("name", "description", "member_emails"),
    filters=("name", "built_in"),
    search=("name", "description"),
    update=("name", "description", "member_emails"),
    unique=("name",),
    guard_create=_guard_group,
    guard_update=_guard_group,
    guard_delete=_guard_group_delete,
)
vaults = service.resource(
    Vault,
    name="vault",
    plural="vaults",
    prefix="vlt",
    create=("name", "description"),
    filters=("type", "owner_email", "name"),
    search=("name", "description"),
    update=("name", "description"),
    guard_update=_guard_vault,
    guard_delete=_guard_vault_delete,
)
accesses = service.resource(
    VaultAccess,
    name="vault_access",
    plural="vault_accesses",
    prefix="acc",
    create=False,
    get=False,
    filters=("vault_id", "group_id"),
    title="vault grant",
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=False,
    filters=("vault_id", "category", "state", "password_strength", "username", "last_edited_by"),
    search=("title", "username", "website"),
    delete=False,
)
versions = service.resource(
    ItemVersion,
    name="item_version",
    plural="item_versions",
    prefix="ver",
    create=False,
    get=False,
    filters=("item_id", "edited_by"),
    delete=False,
    title="item version",
)
shares = service.resource(
    Share,
    name="share",
    plural="shares",
    prefix="shr",
    create=False,
    get=False,
    filters=("item_id", "created_by", "status"),
    delete=False,
    transitions={"revoke": Transition("status", ("active",), "revoked", "revoke the share link")},
    title="share link",
)


# -- members, vault access ------------------------------------------------------------------


def _example_invite(ctx: Ctx) -> dict[str, Any] | None:
    known = {m.email for m in ctx.scan(Member)}
    p = next((p for p in ctx.population.employees if p.email not in known), None)
    return None if p is None else {"email": p.email, "name": p.name}


@service.tool(intent="invite the member", write=True, example=_example_invite)
def invite_member(ctx: Ctx, email: Email, name: PersonName, role: MemberRole = "member") -> Member:
    """Invite a person; they are PENDING until an admin confirms them, and get a Private vault.

    Args:
        email: Their e-mail (unique in the account).
        name: Their name.
        role: member, admin or owner.
    """
    if ctx.first(Member, email=email) is not None:
        raise Conflict(f"{email} is already a member", field="email", hint="find them with passwords__list_members")
    member = ctx.create(Member, email=email, name=name, role=role)
    ctx.create(Vault, name="Private", type="PERSONAL", owner_email=email)
    return member


def _example_recovery(ctx: Ctx) -> dict[str, Any] | None:
    rec = ctx.first(Group, name="Recovery")
    target = ctx.first(Member, state="ACTIVE", role="member")
    if rec is None or target is None:
        return None
    by = next((e for e in rec.member_emails if e != target.email), None)
    return None if by is None else {"member_id": target.id, "recovered_by": by}


@service.tool(intent="begin account recovery for the member", write=True, example=_example_recovery)
def begin_recovery(ctx: Ctx, member_id: MemberId, recovered_by: Email) -> Member:
    """Start recovering a member who lost their account password or secret key (RECOVERY_STARTED).

    Args:
        member_id: The member to recover (ACTIVE).
        recovered_by: A member of the Recovery group other than them.
    """
    m = ctx.get(Member, member_id, field="member_id")
    if m.state != "ACTIVE":
        raise RuleViolation(f"{m.email} is {m.state}", field="member_id", hint="only active members are recovered")
    _active(ctx, recovered_by, "recovered_by")
    group = ctx.first(Group, name="Recovery")
    if group is None or recovered_by not in group.member_emails or recovered_by == m.email:
        raise RuleViolation(
            f"{recovered_by} cannot recover {m.email}",
            field="recovered_by",
            hint="another member of the Recovery group must start it",
        )
    return ctx.update(m, state="RECOVERY_STARTED", recovery_by=recovered_by)


def _example_grant(ctx: Ctx) -> dict[str, Any] | None:
    for vault in ctx.where(Vault, type="USER_CREATED"):
        for group in ctx.scan(Group):
            if ctx.first(VaultAccess, vault_id=vault.id, group_id=group.id) is None:
                return {"vault_id": vault.id, "group_id": group.id, "permissions": ["view_items"]}
    return None


@service.tool(intent="grant the group access to the vault", write=True, example=_example_grant)
def grant_vault_access(
    ctx: Ctx, vault_id: VaultId, group_id: GroupId, permissions: tuple[Permission, ...]
) -> VaultAccess:
    """Give a group permissions on a shared vault (one grant per group; update it to change).

    Args:
        vault_id: The shared vault.
        group_id: The group.
        permissions: view_items plus any of create_items, edit_items, archive_items, delete_items,
            view_item_history, copy_and_share_items, manage_vault (archive and delete need edit_items).
    """
    vault = ctx.get(Vault, vault_id, field="vault_id")
    ctx.get(Group, group_id, field="group_id")
    if vault.type == "PERSONAL":
        raise RuleViolation("a Private vault cannot be shared", field="vault_id", hint="use a shared vault")
    existing = ctx.first(VaultAccess, vault_id=vault_id, group_id=group_id)
    if existing is not None:
        raise Conflict(
            f"the group already has access ({existing.id})", field="group_id", hint="delete that grant and grant again"
        )
    _check_permissions(permissions)
    return ctx.create(VaultAccess, vault_id=vault_id, group_id=group_id, permissions=tuple(dict.fromkeys(permissions)))


# -- items ----------------------------------------------------------------------------------


def _example_item(ctx: Ctx) -> dict[str, Any] | None:
    for grant in ctx.scan(VaultAccess):
        if "create_items" in grant.permissions:
            group = ctx.get(Group, grant.group_id)
            for email in group.member_emails:
                m = ctx.first(Member, email=email)
                if m is not None and m.state == "ACTIVE":
                    return {
                        "vault_id": grant.vault_id,
                        "actor_email": email,
                        "title": "Staging DB",
                        "category": "SERVER",
                        "username": "app_rw",
                        "password": "Tr0ub4dor&3-horse",
                    }
    return None


@service.tool(intent="save the item in the vault", write=True, example=_example_item)
def create_item(
    ctx: Ctx,
    vault_id: VaultId,
    actor_email: Email,
    title: Title,
    category: ItemCategory = "LOGIN",
    username: Annotated[str, StringConstraints(max_length=200)] = "",
    website: Url | None = None,
    password: Secret | None = None,
    tags: tuple[Annotated[str, StringConstraints(min_length=1, max_length=40)], ...] = (),
) -> Item:
    """Save an item in a vault where the acting member may create items; the password is write-only.

    Args:
        vault_id: The vault.
        actor_email: The member saving it.
        title: Its title.
        category: LOGIN, PASSWORD, API_CREDENTIAL, SERVER, SECURE_NOTE, CREDIT_CARD or SSH_KEY.
        username: The username it signs in with.
        website: Where it is used.
        password: The password or secret (never shown again).
        tags: Tags.
    """
    _may(ctx, actor_email, vault_id, "create_items")
    if category == "LOGIN" and password is None:
        raise RuleViolation("a login needs a password", field="password", hint="give one, or use SECURE_NOTE")
    return ctx.create(
        Item,
        vault_id=vault_id,
        title=title,
        category=category,
        username=username,
        website=website,
        tags=tags,
        has_password=password is not None,
        password_strength=strength_of(password) if password else None,
        password_changed_at=ctx.now() if password else None,
        last_edited_by=actor_email,
    )


def _snapshot(ctx: Ctx, item: Item) -> None:
    ctx.create(
        ItemVersion,
        item_id=item.id,
        version=item.version,
        title=item.title,
        username=item.username,
        website=item.website,
        password_strength=item.password_strength,
        edited_by=item.last_edited_by,
    )


def _editable(ctx: Ctx, item_id: str, actor: str, perm: str = "edit_items") -> Item:
    item = ctx.get(Item, item_id, field="item_id")
    _may(ctx, actor, item.vault_id, perm)
    if item.state != "active" and perm == "edit_items":
        raise RuleViolation(f"item {item.title!r} is archived", field="item_id", hint="restore it first")
    return item


def _example_edit(ctx: Ctx) -> dict[str, Any] | None:
    for item in ctx.where(Item, state="active"):
        vault = ctx.get(Vault, item.vault_id)
        for m in ctx.where(Member, state="ACTIVE"):
            if "edit_items" in permissions_of(ctx, m.email, vault):
                return {"item_id": item.id, "actor_email": m.email}
    return None


def _with(extra: dict[str, Any]) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        base = _example_edit(ctx)
        return None if base is None else base | extra

    return example


@service.tool(intent="edit the item", write=True, example=_with({"title": "Renamed login"}))
def update_item(
    ctx: Ctx,
    item_id: ItemId,
    actor_email: Email,
    title: Title | None = None,
    username: Annotated[str, StringConstraints(max_length=200)] | None = None,
    website: Url | None = None,
    tags: tuple[Annotated[str, StringConstraints(min_length=1, max_length=40)], ...] | None = None,
) -> Item:
    """Edit an item's fields (edit_items); the previous version goes to its history.

    Args:
        item_id: The item.
        actor_email: The member editing.
        title: A new title.
        username: A new username.
        website: A new website.
        tags: New tags.
    """
    item = _editable(ctx, item_id, actor_email)
    changes = {
        k: v
        for k, v in (("title", title), ("username", username), ("website", website), ("tags", tags))
        if v is not None
    }
    if not changes:
        raise RuleViolation("nothing to change", field="title", hint="give a field to change")
    _snapshot(ctx, item)
    return ctx.update(item, version=item.version + 1, last_edited_by=actor_email, **changes)


@service.tool(intent="change the item's password", write=True, example=_with({"password": "n3w-Pa55phrase!x"}))
def change_password(ctx: Ctx, item_id: ItemId, actor_email: Email, password: Secret) -> Item:
    """Set a new password on an item (edit_items); the old version goes to its history.

    Args:
        item_id: The item.
        actor_email: The member changing it.
        password: The new password (never shown again).
    """
    item = _editable(ctx, item_id, actor_email)
    if item.category == "SECURE_NOTE":
        raise RuleViolation("a secure note has no password", field="item_id", hint="pick a login or credential")
    _snapshot(ctx, item)
    return ctx.update(
        item,
        version=item.version + 1,
        last_edited_by=actor_email,
        has_password=True,
        password_strength=strength_of(password),
        password_changed_at=ctx.now(),
    )


@service.tool(intent="archive the item", write=True, example=_with({}))
def archive_item(ctx: Ctx, item_id: ItemId, actor_email: Email) -> Item:
    """Move an item to the archive (archive_items); archived items can then be deleted.

    Args:
        item_id: The item.
        actor_email: The member archiving it.
    """
    item = _editable(ctx, item_id, actor_email, "archive_items")
    if item.state == "archived":
        raise Conflict(f"item {item.title!r} is already archived", field="item_id", hint="nothing to do")
    return ctx.update(item, state="archived", last_edited_by=actor_email)


def _example_archived(ctx: Ctx) -> dict[str, Any] | None:
    for item in ctx.where(Item, state="archived"):
        vault = ctx.get(Vault, item.vault_id)
        for m in ctx.where(Member, state="ACTIVE"):
            if "delete_items" in permissions_of(ctx, m.email, vault):
                return {"item_id": item.id, "actor_email": m.email}
    return None


@service.tool(intent="delete the item", write=True, destructive=True, example=_example_archived)
def delete_item(ctx: Ctx, item_id: ItemId, actor_email: Email) -> Item:
    """Delete an archived item for good (delete_items), with its history and share links.

    Args:
        item_id: The item.
        actor_email: The member deleting it.
    """
    item = _editable(ctx, item_id, actor_email, "delete_items")
    if item.state != "archived":
        raise RuleViolation(f"item {item.title!r} is not archived", field="item_id", hint="archive it first")
    for model in (ItemVersion, Share):
        for rec in ctx.where(model, item_id=item.id):
            ctx.delete(rec)
    ctx.delete(item)
    return item


def _example_restore_version(ctx: Ctx) -> dict[str, Any] | None:
    for ver in ctx.scan(ItemVersion):
        item = ctx.get(Item, ver.item_id)
        vault = ctx.get(Vault, item.vault_id)
        for m in ctx.where(Member, state="ACTIVE"):
            if {"edit_items", "view_item_history"} <= permissions_of(ctx, m.email, vault) and item.state == "active":
                return {"version_id": ver.id, "actor_email": m.email}
    return None


@service.tool(intent="restore an earlier version of the item", write=True, example=_example_restore_version)
def restore_item_version(ctx: Ctx, version_id: VersionId, actor_email: Email) -> Item:
    """Make an earlier version's fields current again, as a new version (view_item_history and edit_items).

    Args:
        version_id: The earlier version (from passwords__list_item_versions).
        actor_email: The member restoring it.
    """
    ver = ctx.get(ItemVersion, version_id, field="version_id")
    item = _editable(ctx, ver.item_id, actor_email)
    _may(ctx, actor_email, item.vault_id, "view_item_history")
    _snapshot(ctx, item)
    return ctx.update(
        item,
        title=ver.title,
        username=ver.username,
        website=ver.website,
        version=item.version + 1,
        last_edited_by=actor_email,
    )


@service.tool(intent="share the item", write=True, example=_with({"expires_in": "7d"}))
def share_item(
    ctx: Ctx,
    item_id: ItemId,
    actor_email: Email,
    expires_in: Expiry = "7d",
    recipients: tuple[Email, ...] = (),
    view_once: bool = False,
) -> Share:
    """Make a link sharing a copy of an active item (copy_and_share_items), for a limited time.

    Args:
        item_id: The item.
        actor_email: The member sharing it.
        expires_in: 1h, 1d, 7d, 14d or 30d.
        recipients: Only these e-mail addresses may open it (empty: anyone with the link).
        view_once: The link opens only once.
    """
    item = _editable(ctx, item_id, actor_email, "copy_and_share_items")
    if item.state != "active":
        raise RuleViolation(f"item {item.title!r} is archived", field="item_id", hint="restore it first")
    n = ctx.next_number(Share, "url")
    return ctx.create(
        Share,
        item_id=item.id,
        created_by=actor_email,
        recipients=tuple(dict.fromkeys(recipients)),
        view_once=view_once,
        expires_at=ctx.now() + EXPIRY[expires_in],
        url=f"https://share.latchkey.example/s/{n:06d}{item.id[-4:]}",
    )


# -- seed -----------------------------------------------------------------------------------

ADMIN_PERMS: tuple[Permission, ...] = get_args(Permission)
VAULTS: tuple[tuple[str, str, str, tuple[Permission, ...]], ...] = (
    ("Engineering", "Engineering", "Cloud consoles, CI tokens and databases", ADMIN_PERMS[:4] + ADMIN_PERMS[5:7]),
    ("Finance", "Finance", "Banking portals and payment dashboards", ("view_items", "create_items", "edit_items")),
    ("IT Admin", "Administrators", "Domain registrar, SSO and MDM admin accounts", ADMIN_PERMS),
    ("Social Media", "Marketing", "Brand accounts", ("view_items", "copy_and_share_items")),
)
ITEMS: tuple[tuple[int, str, ItemCategory, str, str | None, str], ...] = (
    (0, "AWS root account", "LOGIN", "aws-root@{d}", "https://console.aws.amazon.com", "k9$Lm!2qP#xv8Wz&"),
    (0, "GitHub org owner", "LOGIN", "gh-admin@{d}", "https://github.com/login", "hunter22"),
    (0, "Production Postgres", "SERVER", "app_rw", None, "pg-Prod-2024!"),
    (0, "CircleCI API token", "API_CREDENTIAL", "", "https://circleci.com", "cci_9f8e7d6c5b4a3f2e1d0c"),
    (1, "Bank portal", "LOGIN", "treasury@{d}", "https://online.bank.example", "Treasury#2025-secure"),
    (1, "Stripe dashboard", "LOGIN", "finance@{d}", "https://dashboard.stripe.com", "password1"),
    (1, "Corporate card", "CREDIT_CARD", "", None, "4111111111111111"),
    (2, "Domain registrar", "LOGIN", "it@{d}", "https://dcc.godaddy.com", "R3g!strar-Adm1n-Key"),
    (2, "Wi-Fi office network", "PASSWORD", "", None, "GuestNet2023"),
    (2, "Break-glass procedure", "SECURE_NOTE", "", None, ""),
    (3, "Company X account", "LOGIN", "social@{d}", "https://x.com/login", "Brand!Voice-77"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff members in every state, built-in and department groups, shared vaults with grants, items, history."""
    pop = s.population
    domain = pop.home.domain
    people = pop.employees[:18]
    states: dict[int, MemberState] = {15: "PENDING", 16: "SUSPENDED", 17: "RECOVERY_STARTED"}
    for k, p in enumerate(people):
        role: MemberRole = "owner" if k == 0 else "admin" if k in (1, 2) else "member"
        s.create(
            Member,
            email=p.email,
            name=p.name,
            role=role,
            state=states.get(k, "ACTIVE"),
            recovery_by=people[1].email if k == 17 else None,
            created_at=s.ago(days=400 - 10 * k),
            updated_at=s.ago(days=30 - k),
        )
        s.create(Vault, name="Private", type="PERSONAL", owner_email=p.email, created_at=s.ago(days=400 - 10 * k))
    emails = [p.email for p in people[:15]]
    by_dept: dict[str, list[str]] = {}
    for p in people[:15]:
        by_dept.setdefault(p.department or "General", []).append(p.email)
    made: dict[str, Group] = {}
    for name, desc, who, built in (
        ("Owners", "Account owners", emails[:1], True),
        ("Administrators", "Account administrators", emails[:3], True),
        ("Recovery", "Can recover members' accounts", emails[:2], True),
        ("Engineering", "Engineering team", by_dept.get("Engineering", emails[3:7]), False),
        ("Finance", "Finance team", by_dept.get("Finance", emails[7:10]), False),
        ("Marketing", "Marketing team", by_dept.get("Marketing", emails[10:13]), False),
    ):
        made[name] = s.create(
            Group, name=name, description=desc, member_emails=tuple(who), built_in=built, created_at=s.ago(days=390)
        )
    shared: list[Vault] = []
    for name, group, desc, perms in VAULTS:
        v = s.create(Vault, name=name, description=desc, created_at=s.ago(days=380))
        shared.append(v)
        s.create(VaultAccess, vault_id=v.id, group_id=made[group].id, permissions=perms, created_at=s.ago(days=380))
        if group != "Administrators":
            s.create(
                VaultAccess,
                vault_id=v.id,
                group_id=made["Administrators"].id,
                permissions=VAULTS[2][3],
                created_at=s.ago(days=380),
            )
    s.create(Vault, name="Old Projects", description="Retired; due for deletion", created_at=s.ago(days=700))
    for k, (vi, title, cat, user, site, secret) in enumerate(ITEMS):
        editor = made[VAULTS[vi][1]].member_emails[0] if made[VAULTS[vi][1]].member_emails else emails[0]
        item = s.create(
            Item,
            vault_id=shared[vi].id,
            title=title,
            category=cat,
            username=user.format(d=domain),
            website=site,
            has_password=bool(secret),
            password_strength=strength_of(secret) if secret else None,
            password_changed_at=s.ago(days=20 + 37 * k) if secret else None,
            state="archived" if k == 8 else "active",
            version=1 + k % 3,
            last_edited_by=editor,
            created_at=s.ago(days=300 - 9 * k),
            updated_at=s.ago(days=20 + k),
        )
        for ver in range(1, item.version):
            s.create(
                ItemVersion,
                item_id=item.id,
                version=ver,
                title=title if ver > 1 else f"{title} (old)",
                username=item.username,
                website=site,
                password_strength="weak",
                edited_by=editor,
                created_at=s.ago(days=200 - 9 * k + ver),
            )
        if k in (0, 7):
            s.create(
                Share,
                item_id=item.id,
                created_by=editor,
                recipients=(f"contractor@{pop.companies[1].domain}",),
                expires_at=s.now + dt.timedelta(days=5),
                url=f"https://share.latchkey.example/s/seed{k:02d}",
                created_at=s.ago(days=2),
            )
