"""Vault Drive: the company's file storage with folders, sharing, shared links and revisions.

Modeled on the Dropbox API v2 (``files/upload``, ``files/create_folder_v2``,
``files/move_v2``, ``files/copy_v2``, ``files/list_folder``, ``files/get_metadata``,
``files/list_revisions``, ``files/restore``, ``files/delete_v2``,
``files/permanently_delete``, ``users/get_space_usage``, ``sharing/add_file_member``,
``sharing/create_shared_link_with_settings``, ``sharing/get_shared_link_metadata``,
``sharing/revoke_shared_link``) and on the Google Drive API v3 (``files.trashed``,
``files.emptyTrash``, ``permissions`` with viewer/commenter/editor roles).

Every employee of the home company has a drive with a storage quota. Names are
unique within a folder (case-insensitively, like Dropbox); only the owner or an
editor of an item (directly or through a parent folder) may change or share it;
only the owner may delete permanently; a folder cannot be moved into itself;
files in the trash still count against the owner's quota; external sharing is
limited to the company's and its business partners' domains.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Deleted, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, FileLink, IdOf, PersonName
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.time import utc_at
from compoworld.world.org import department_of

__all__ = ["service"]

service = Service(
    "storage",
    title="Vault Drive",
    category="file_storage",
    modeled_on="Dropbox API v2 (files/*, sharing/*, users/get_space_usage) and Google Drive API v3 "
    "(File.trashed, files.emptyTrash, Permission roles, Revision)",
    description="Company file storage: each employee's drive of folders and files, sharing with "
    "colleagues and partner contacts by role, shared links, trash and revision history, within "
    "a storage quota per owner.",
)

AccountId = Annotated[str, IdOf("storage.account")]
FolderId = Annotated[str, IdOf("storage.folder")]
FileId = Annotated[str, IdOf("storage.file")]
RevisionId = Annotated[str, IdOf("storage.revision")]
PermissionId = Annotated[str, IdOf("storage.permission")]
SharedLinkId = Annotated[str, IdOf("storage.shared_link")]


def _item_name(value: str) -> str:
    name = value.strip()
    if not name:
        raise ValueError("must not be blank")
    if name in (".", ".."):
        raise ValueError("'.' and '..' are not valid names")
    return name


ItemName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=255, pattern=r"^[^/\\\x00-\x1f]+$"),
    AfterValidator(_item_name),
]
"""A file or folder name: no slashes, at most 255 characters."""

MimeType = Annotated[str, StringConstraints(pattern=r"^[a-z]+/[a-z0-9][a-z0-9.+-]*$", max_length=127)]
"""A MIME type such as ``application/pdf``."""

Bytes = Annotated[int, Field(ge=0, le=10**13)]
"""A size in bytes."""

ContentHash = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
"""A 64-hex-digit content hash."""

Role = Literal["viewer", "commenter", "editor"]
Audience = Literal["public", "team_only"]

MAX_UPLOAD_BYTES = 50 * 10**9
_RANK: dict[str, int] = {"viewer": 1, "commenter": 2, "editor": 3, "owner": 4}


class Account(Record):
    """An employee's drive: whose it is and how much it may hold."""

    id: AccountId
    email: Email
    """E-mail of the employee who owns the drive."""
    display_name: PersonName
    """The owner's full name."""
    department: str | None = None
    """The owner's department."""
    quota_bytes: Bytes
    """Storage allocated to the drive in bytes; files in the trash count against it."""
    created_at: Annotated[DateTime, CREATED]
    """When the drive was set up."""


class Folder(Created):
    """A folder in an owner's drive."""

    id: FolderId
    name: ItemName
    """Folder name, unique (ignoring case) among the non-trashed items of its parent."""
    parent_id: FolderId | None = None
    """The folder it is in; null at the top level of the owner's drive."""
    owner_email: Email
    """E-mail of the employee whose drive holds the folder."""
    path: str
    """Display path from the top of the owner's drive, e.g. /Projects/Q3."""
    trashed: bool = False
    """Whether the folder is in the trash (itself or through a trashed parent)."""
    explicitly_trashed: bool = False
    """Whether the folder itself was trashed (rather than a folder above it)."""


class File(Record):
    """A file in an owner's drive; its content is described by its current revision."""

    id: FileId
    name: ItemName
    """File name, unique (ignoring case) among the non-trashed items of its folder."""
    folder_id: FolderId | None = None
    """The folder it is in; null at the top level of the owner's drive."""
    owner_email: Email
    """E-mail of the employee whose drive holds the file and whose quota it uses."""
    path: str
    """Display path from the top of the owner's drive, e.g. /Projects/Plan.docx."""
    mime_type: MimeType
    """MIME type of the content."""
    size_bytes: Bytes
    """Size of the current revision in bytes."""
    rev: Annotated[int, Field(ge=1)]
    """Number of the current revision (1 for a new file)."""
    content_hash: ContentHash
    """Hash of the current content."""
    last_modified_by: Email
    """E-mail of whoever wrote the current revision."""
    trashed: bool = False
    """Whether the file is in the trash (itself or through a trashed folder)."""
    explicitly_trashed: bool = False
    """Whether the file itself was trashed (rather than a folder above it)."""
    created_at: Annotated[DateTime, CREATED]
    """When the file was first uploaded."""
    modified_at: Annotated[DateTime, UPDATED]
    """When the file last changed."""


class Revision(Record):
    """One stored version of a file's content."""

    id: RevisionId
    file_id: FileId
    """The file the revision belongs to."""
    rev: Annotated[int, Field(ge=1)]
    """Revision number within the file, counting from 1."""
    size_bytes: Bytes
    """Size of this version in bytes."""
    content_hash: ContentHash
    """Hash of this version's content."""
    modified_by: Email
    """E-mail of whoever wrote this version."""
    created_at: Annotated[DateTime, CREATED]
    """When this version was written."""


class Permission(Record):
    """Access to one file or folder (and everything inside a folder) granted to an e-mail address."""

    id: PermissionId
    file_id: FileId | None = None
    """The shared file; null when a folder is shared."""
    folder_id: FolderId | None = None
    """The shared folder; null when a file is shared."""
    email: Email
    """E-mail of the person given access."""
    role: Role
    """What they may do: view, comment, or edit (editors may also share)."""
    granted_by: Email
    """E-mail of whoever shared the item."""
    created_at: Annotated[DateTime, CREATED]
    """When access was granted."""


class SharedLink(Created):
    """A URL that opens a file for anyone holding it (public) or for colleagues (team only)."""

    id: SharedLinkId
    file_id: FileId
    """The file the link opens."""
    url: FileLink
    """The shareable URL."""
    audience: Audience
    """Who may open it: anyone with the link, or only people of the home company."""
    allow_download: bool = True
    """Whether the link allows downloading the file."""
    created_by: Email
    """E-mail of whoever created the link."""
    expires_at: DateTime | None = None
    """When the link stops working; null for never."""
    status: Literal["active", "revoked"] = "active"
    """Whether the link still works; revocation is final."""


def _guard_account(ctx: Ctx, new: Any, old: Any) -> None:
    used = _usage(ctx, new.email).used_bytes
    if new.quota_bytes < used:
        raise RuleViolation(
            f"the quota of {new.email} cannot be set to {new.quota_bytes} bytes: the drive already holds {used}",
            field="quota_bytes",
            hint="set a quota at least equal to the space used, or have the owner delete files and empty the trash",
        )


accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acct",
    create=False,
    filters=("email", "department"),
    search=("display_name", "email"),
    update=("quota_bytes",),
    delete=False,
    unique=("email",),
    guard_update=_guard_account,
    title="drive account",
)
folders = service.resource(
    Folder,
    name="folder",
    plural="folders",
    prefix="fold",
    create=False,
    filters=("owner_email", "parent_id", "trashed"),
    search=("name", "path"),
    delete=False,
)
files = service.resource(
    File,
    name="file",
    plural="files",
    prefix="file",
    create=False,
    filters=("owner_email", "folder_id", "mime_type", "trashed", "last_modified_by"),
    search=("name", "path"),
    delete=False,
)
revisions = service.resource(
    Revision,
    name="revision",
    plural="revisions",
    prefix="rev",
    create=False,
    filters=("file_id", "modified_by"),
    delete=False,
    title="file revision",
)
permissions = service.resource(
    Permission,
    name="permission",
    plural="permissions",
    prefix="perm",
    create=False,
    filters=("file_id", "folder_id", "email", "role"),
    delete=False,
    title="sharing permission",
)
shared_links = service.resource(
    SharedLink,
    name="shared_link",
    plural="shared_links",
    prefix="link",
    create=False,
    filters=("file_id", "status", "audience", "created_by", "url"),
    delete=False,
    unique=("url",),
    transitions={
        "revoke": Transition(
            "status",
            ("active",),
            "revoked",
            "revoke the shared link",
            description="Revoke a shared link so that it stops opening the file; allowed when status is 'active'. "
            "Revocation is final: create a new link to share again.",
            destructive=True,
        )
    },
    title="shared link",
)


# -- results --------------------------------------------------------------------------------


class SpaceUsage(BaseModel):
    """How much of a drive's quota is used."""

    email: Email = Field(description="E-mail of the drive's owner.")
    used_bytes: Bytes = Field(description="Bytes used by the owner's files, trash included.")
    trash_bytes: Bytes = Field(description="Bytes used by files in the trash (freed by emptying it).")
    allocated_bytes: Bytes = Field(description="The drive's quota in bytes.")
    available_bytes: Bytes = Field(description="Bytes still free under the quota.")
    file_count: int = Field(description="Number of files in the drive, trash included.")


class FolderListing(BaseModel):
    """The contents of one folder or of the top level of a drive."""

    owner_email: Email = Field(description="E-mail of the drive's owner.")
    path: str = Field(description="Display path of the listed folder ('/' for the top level).")
    folders: list[Folder] = Field(description="Sub-folders, by name.")
    files: list[File] = Field(description="Files, by name.")


class ItemMetadata(BaseModel):
    """The file or folder found at a path."""

    kind: Literal["file", "folder"] = Field(description="Whether the path names a file or a folder.")
    file: File | None = Field(description="The file, when kind is file.")
    folder: Folder | None = Field(description="The folder, when kind is folder.")


class Deletion(BaseModel):
    """What a permanent deletion removed."""

    deleted_file_ids: list[FileId] = Field(description="Ids of the files deleted permanently.")
    deleted_folder_ids: list[FolderId] = Field(description="Ids of the folders deleted permanently.")
    freed_bytes: Bytes = Field(description="Quota freed, in bytes.")


# -- helpers --------------------------------------------------------------------------------


def _account(ctx: Ctx, email: str, field: str) -> Account:
    acc = ctx.first(Account, email=email)
    if acc is None:
        raise NotFound(
            f"{email} has no drive",
            field=field,
            hint="drives belong to employees of the company; find one with storage__list_accounts",
        )
    return acc


def _usage(ctx: Ctx, email: str) -> SpaceUsage:
    used = trash = count = 0
    for f in ctx.where(File, owner_email=email):
        used += f.size_bytes
        count += 1
        if f.trashed:
            trash += f.size_bytes
    acc = ctx.first(Account, email=email)
    quota = acc.quota_bytes if acc else 0
    return SpaceUsage(
        email=email,
        used_bytes=used,
        trash_bytes=trash,
        allocated_bytes=quota,
        available_bytes=max(0, quota - used),
        file_count=count,
    )


def _check_quota(ctx: Ctx, owner: str, extra: int, field: str) -> None:
    if extra <= 0:
        return
    usage = _usage(ctx, owner)
    if usage.used_bytes + extra > usage.allocated_bytes:
        raise RuleViolation(
            f"the drive of {owner} is out of space: {usage.used_bytes} of {usage.allocated_bytes} bytes used, "
            f"{extra} more needed",
            field=field,
            hint="empty the trash (storage__empty_trash), delete files, or raise the quota (storage__update_account)",
        )


def _chain(ctx: Ctx, folder_id: str | None) -> Iterator[Folder]:
    """The folder and its ancestors, innermost first."""
    seen: set[str] = set()
    while folder_id is not None and folder_id not in seen:
        seen.add(folder_id)
        folder = ctx.find(Folder, folder_id)
        if folder is None:
            return
        yield folder
        folder_id = folder.parent_id


def _role_of(ctx: Ctx, email: str, owner: str, folder_id: str | None, file_id: str | None) -> str | None:
    """The strongest role ``email`` has on an item, directly or through the folders above it."""
    if email == owner:
        return "owner"
    best: str | None = None
    grants: list[Permission] = []
    if file_id is not None:
        grants.extend(ctx.where(Permission, file_id=file_id, email=email))
    for folder in _chain(ctx, folder_id):
        grants.extend(ctx.where(Permission, folder_id=folder.id, email=email))
    for p in grants:
        if best is None or _RANK[p.role] > _RANK[best]:
            best = p.role
    return best


def _require_editor(ctx: Ctx, actor: str, owner: str, folder_id: str | None, file_id: str | None, action: str) -> None:
    role = _role_of(ctx, actor, owner, folder_id, file_id)
    if role not in ("owner", "editor"):
        raise RuleViolation(
            f"{actor} cannot {action}: that needs the owner or an editor, and {actor} has "
            f"{'no access' if role is None else role + ' access'}",
            field="actor_email",
            hint=f"ask the owner ({owner}) or an editor to do it, or to give {actor} editor access",
        )


def _require_owner(ctx: Ctx, actor: str, owner: str, action: str) -> None:
    if actor != owner:
        raise RuleViolation(
            f"only the owner ({owner}) can {action}",
            field="actor_email",
            hint="editors can move the item to the trash instead (storage__trash_file / storage__trash_folder)",
        )


def _file_role_ok(ctx: Ctx, actor: str, f: File, action: str) -> None:
    _require_editor(ctx, actor, f.owner_email, f.folder_id, f.id, action)


def _folder_role_ok(ctx: Ctx, actor: str, folder: Folder, action: str) -> None:
    _require_editor(ctx, actor, folder.owner_email, folder.id, None, action)


def _item_named(
    ctx: Ctx, owner: str, parent_id: str | None, name: str, exclude: str | None = None
) -> Folder | File | None:
    """The non-trashed file or folder of that name (ignoring case) in a folder, if any."""
    key = name.casefold()
    for folder in ctx.where(Folder, parent_id=parent_id, owner_email=owner):
        if not folder.trashed and folder.id != exclude and folder.name.casefold() == key:
            return folder
    for f in ctx.where(File, folder_id=parent_id, owner_email=owner):
        if not f.trashed and f.id != exclude and f.name.casefold() == key:
            return f
    return None


def _where_label(ctx: Ctx, parent_id: str | None) -> str:
    if parent_id is None:
        return "the top level of the drive"
    folder = ctx.find(Folder, parent_id)
    return f"folder {folder.path}" if folder else f"folder {parent_id}"


def _free_name(ctx: Ctx, owner: str, parent_id: str | None, name: str, exclude: str | None = None) -> str:
    """Dropbox-style autorename: ``Report.pdf`` becomes ``Report (1).pdf``, ``Report (2).pdf``."""
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        stem, ext = name, ""
    suffix = f".{ext}" if ext else ""
    n = 1
    while True:
        candidate = f"{stem} ({n}){suffix}"
        if _item_named(ctx, owner, parent_id, candidate, exclude) is None:
            return candidate
        n += 1


def _claim_name(
    ctx: Ctx, owner: str, parent_id: str | None, name: str, *, autorename: bool, field: str, exclude: str | None = None
) -> str:
    taken = _item_named(ctx, owner, parent_id, name, exclude)
    if taken is None:
        return name
    if autorename:
        return _free_name(ctx, owner, parent_id, name, exclude)
    kind = "folder" if isinstance(taken, Folder) else "file"
    raise Conflict(
        f"{_where_label(ctx, parent_id)} of {owner} already has a {kind} named {getattr(taken, 'name', name)!r} "
        f"({taken.id})",
        field=field,
        hint="choose another name, pass autorename=true to get a free one, or rename the existing item",
    )


def _path(parent: Folder | None, name: str) -> str:
    return f"{parent.path}/{name}" if parent is not None else f"/{name}"


def _subtree(ctx: Ctx, folder: Folder) -> tuple[list[Folder], list[File]]:
    """Every folder and file below ``folder`` (not the folder itself), parents before children."""
    sub_folders: list[Folder] = []
    sub_files: list[File] = []
    queue = [folder.id]
    while queue:
        fid = queue.pop(0)
        for child in ctx.where(Folder, parent_id=fid):
            sub_folders.append(child)
            queue.append(child.id)
        sub_files.extend(ctx.where(File, folder_id=fid))
    return sub_folders, sub_files


def _repath(ctx: Ctx, folder: Folder) -> None:
    """Recompute the paths below ``folder`` after it was renamed or moved."""
    for child in ctx.where(Folder, parent_id=folder.id):
        _repath(ctx, ctx.update(child, path=_path(folder, child.name)))
    for f in ctx.where(File, folder_id=folder.id):
        ctx.update(f, path=_path(folder, f.name))


def _hash(ctx: Ctx) -> str:
    return f"{ctx.rng.getrandbits(256):064x}"


def _live_folder(ctx: Ctx, folder_id: str, field: str) -> Folder:
    folder = ctx.get(Folder, folder_id, field=field)
    if folder.trashed:
        raise RuleViolation(
            f"folder {folder.path} is in the trash",
            field=field,
            hint="restore it first with storage__restore_folder, or choose another folder",
        )
    return folder


def _live_file(ctx: Ctx, file_id: str, field: str = "file_id") -> File:
    f = ctx.get(File, file_id, field=field)
    if f.trashed:
        raise RuleViolation(
            f"file {f.path} is in the trash", field=field, hint="restore it first with storage__restore_file"
        )
    return f


def _trusted(ctx: Ctx, email: str) -> bool:
    domain = email.rpartition("@")[2]
    return any(c.domain == domain for c in ctx.population.companies)


def _purge_file(ctx: Ctx, f: File) -> None:
    for rev in ctx.where(Revision, file_id=f.id):
        ctx.delete(rev)
    for perm in ctx.where(Permission, file_id=f.id):
        ctx.delete(perm)
    for link in ctx.where(SharedLink, file_id=f.id):
        ctx.delete(link)
    ctx.delete(f)


def _purge_folder(ctx: Ctx, folder: Folder) -> None:
    for perm in ctx.where(Permission, folder_id=folder.id):
        ctx.delete(perm)
    ctx.delete(folder)


def _first_editable_folder(ctx: Ctx) -> Folder | None:
    for folder in ctx.scan(Folder):
        if not folder.trashed:
            return folder
    return None


def _first_file(ctx: Ctx, *, trashed: bool = False, explicit: bool | None = None) -> File | None:
    for f in ctx.scan(File):
        if f.trashed == trashed and (explicit is None or f.explicitly_trashed == explicit):
            return f
    return None


# -- files and folders -----------------------------------------------------------------------


@service.tool(
    intent="upload a file",
    write=True,
    example=first_example(
        Folder,
        "folder_id",
        where={"trashed": False},
        fields={"actor_email": "owner_email"},
        name="Meeting notes 2026-03-02.txt",
        size_bytes=2048,
        mime_type="text/plain",
        autorename=True,
    ),
)
def upload_file(
    ctx: Ctx,
    actor_email: Email,
    name: ItemName,
    size_bytes: Bytes,
    mime_type: MimeType,
    folder_id: FolderId | None = None,
    mode: Literal["add", "overwrite"] = "add",
    autorename: bool = False,
) -> File:
    """Upload a file into a folder, or into the top level of the uploader's own drive.

    The file belongs to the owner of the drive it lands in and counts against that
    owner's quota. Only the owner or an editor of the folder may upload. With mode
    "add", an existing item of the same name is a conflict unless autorename picks a
    free name ("Report (1).pdf"); with mode "overwrite", an existing file of that name
    gets a new revision instead.

    Args:
        actor_email: E-mail of the person uploading.
        name: File name, e.g. "Proposal.pdf".
        size_bytes: Size of the content in bytes (at most 50 GB).
        mime_type: MIME type of the content, e.g. "application/pdf".
        folder_id: Folder to upload into; omit for the top level of the uploader's drive.
        mode: "add" to refuse or rename on a name clash, "overwrite" to add a revision to the existing file.
        autorename: With mode "add", pick a free name instead of failing when the name is taken.
    """
    if size_bytes > MAX_UPLOAD_BYTES:
        raise RuleViolation(
            f"uploads are limited to {MAX_UPLOAD_BYTES} bytes", field="size_bytes", hint="split the file"
        )
    parent: Folder | None = None
    if folder_id is not None:
        parent = _live_folder(ctx, folder_id, "folder_id")
        owner = parent.owner_email
        _require_editor(ctx, actor_email, owner, parent.id, None, f"upload into {parent.path}")
    else:
        _account(ctx, actor_email, "actor_email")
        owner = actor_email
    existing = _item_named(ctx, owner, folder_id, name)
    if isinstance(existing, File) and mode == "overwrite":
        _require_editor(ctx, actor_email, owner, existing.folder_id, existing.id, f"overwrite {existing.path}")
        _check_quota(ctx, owner, size_bytes - existing.size_bytes, "size_bytes")
        return _add_revision(ctx, existing, size_bytes, _hash(ctx), actor_email, mime_type)
    name = _claim_name(ctx, owner, folder_id, name, autorename=autorename, field="name")
    _check_quota(ctx, owner, size_bytes, "size_bytes")
    return _new_file(ctx, owner, parent, name, size_bytes, mime_type, _hash(ctx), actor_email)


def _new_file(
    ctx: Ctx, owner: str, parent: Folder | None, name: str, size: int, mime: str, digest: str, author: str
) -> File:
    f = ctx.create(
        File,
        name=name,
        folder_id=parent.id if parent else None,
        owner_email=owner,
        path=_path(parent, name),
        mime_type=mime,
        size_bytes=size,
        rev=1,
        content_hash=digest,
        last_modified_by=author,
    )
    ctx.create(Revision, file_id=f.id, rev=1, size_bytes=size, content_hash=digest, modified_by=author)
    return f


def _add_revision(ctx: Ctx, f: File, size: int, digest: str, author: str, mime: str | None = None) -> File:
    rev = f.rev + 1
    ctx.create(Revision, file_id=f.id, rev=rev, size_bytes=size, content_hash=digest, modified_by=author)
    return ctx.update(
        f, rev=rev, size_bytes=size, content_hash=digest, last_modified_by=author, mime_type=mime or f.mime_type
    )


@service.tool(
    intent="create a folder",
    write=True,
    example=first_example(Account, None, fields={"actor_email": "email"}, name="Conformance reviews", autorename=True),
)
def create_folder(
    ctx: Ctx, actor_email: Email, name: ItemName, parent_id: FolderId | None = None, autorename: bool = False
) -> Folder:
    """Create a folder inside another folder, or at the top level of the creator's own drive.

    Only the owner or an editor of the parent folder may create folders in it; the
    new folder belongs to the parent's owner. The name must not be taken in the
    parent unless autorename picks a free one.

    Args:
        actor_email: E-mail of the person creating the folder.
        name: Folder name.
        parent_id: Folder to create it in; omit for the top level of the creator's drive.
        autorename: Pick a free name ("Name (1)") instead of failing when the name is taken.
    """
    parent: Folder | None = None
    if parent_id is not None:
        parent = _live_folder(ctx, parent_id, "parent_id")
        owner = parent.owner_email
        _require_editor(ctx, actor_email, owner, parent.id, None, f"create folders in {parent.path}")
    else:
        _account(ctx, actor_email, "actor_email")
        owner = actor_email
    name = _claim_name(ctx, owner, parent_id, name, autorename=autorename, field="name")
    return ctx.create(Folder, name=name, parent_id=parent_id, owner_email=owner, path=_path(parent, name))


@service.tool(intent="list what is in the folder", example=first_example(Folder, "folder_id", where={"trashed": False}))
def list_folder(
    ctx: Ctx, folder_id: FolderId | None = None, owner_email: Email | None = None, include_trashed: bool = False
) -> FolderListing:
    """List the sub-folders and files directly inside a folder or at the top level of a drive.

    Args:
        folder_id: The folder to list; omit to list the top level of owner_email's drive.
        owner_email: Whose drive's top level to list; needed when folder_id is omitted.
        include_trashed: Also list items that are in the trash.
    """
    if folder_id is not None:
        folder = ctx.get(Folder, folder_id, field="folder_id")
        if owner_email is not None and owner_email != folder.owner_email:
            raise RuleViolation(
                f"folder {folder.id} is in the drive of {folder.owner_email}, not {owner_email}",
                field="owner_email",
                hint="omit owner_email when listing a folder by id",
            )
        owner, path = folder.owner_email, folder.path
    elif owner_email is not None:
        _account(ctx, owner_email, "owner_email")
        owner, path = owner_email, "/"
    else:
        raise RuleViolation(
            "say which folder to list", field="folder_id", hint="pass folder_id, or owner_email for the top level"
        )
    subs = [f for f in ctx.where(Folder, parent_id=folder_id, owner_email=owner) if include_trashed or not f.trashed]
    fs = [f for f in ctx.where(File, folder_id=folder_id, owner_email=owner) if include_trashed or not f.trashed]
    return FolderListing(
        owner_email=owner,
        path=path,
        folders=sorted(subs, key=lambda f: (f.name.casefold(), f.id)),
        files=sorted(fs, key=lambda f: (f.name.casefold(), f.id)),
    )


def _ex_by_path(ctx: Ctx) -> dict[str, Any] | None:
    f = _first_file(ctx)
    return None if f is None else {"owner_email": f.owner_email, "path": f.path.upper()}


@service.tool(intent="find the file or folder at this path", example=_ex_by_path)
def get_item_by_path(
    ctx: Ctx, owner_email: Email, path: Annotated[str, StringConstraints(min_length=1, max_length=4096)]
) -> ItemMetadata:
    """Look up the file or folder at a path in someone's drive, ignoring case; trashed items are not found.

    Args:
        owner_email: E-mail of the drive's owner.
        path: Path from the top of the drive, e.g. "/Projects/Plan.docx".
    """
    _account(ctx, owner_email, "owner_email")
    parts = [p for p in path.strip().split("/") if p]
    if not path.strip().startswith("/") or not parts:
        raise RuleViolation(
            f"{path!r} is not a path to an item",
            field="path",
            hint="paths start with '/' and name an item, e.g. /Projects/Plan.docx; list the top level with "
            "storage__list_folder",
        )
    parent: str | None = None
    found: Folder | File | None = None
    for i, part in enumerate(parts):
        found = _item_named(ctx, owner_email, parent, part)
        if found is None or (i < len(parts) - 1 and not isinstance(found, Folder)):
            raise NotFound(
                f"nothing at {path!r} in the drive of {owner_email}",
                field="path",
                hint="browse the drive with storage__list_folder or search with storage__list_files",
            )
        parent = found.id
    if isinstance(found, Folder):
        return ItemMetadata(kind="folder", file=None, folder=found)
    assert isinstance(found, File)
    return ItemMetadata(kind="file", file=found, folder=None)


def _ex_rename_file(ctx: Ctx) -> dict[str, Any] | None:
    f = _first_file(ctx)
    return None if f is None else {"file_id": f.id, "new_name": f"Renamed {f.name}", "actor_email": f.owner_email}


@service.tool(intent="rename the file", write=True, example=_ex_rename_file)
def rename_file(ctx: Ctx, file_id: FileId, new_name: ItemName, actor_email: Email) -> File:
    """Rename a file in place; the new name must be free in its folder (a change of case alone is allowed).

    Args:
        file_id: The file.
        new_name: Its new name.
        actor_email: E-mail of the person renaming (owner or editor).
    """
    f = _live_file(ctx, file_id)
    _file_role_ok(ctx, actor_email, f, f"rename {f.path}")
    if new_name == f.name:
        raise RuleViolation(f"file {f.id} is already named {new_name!r}", field="new_name", hint="nothing to do")
    _claim_name(ctx, f.owner_email, f.folder_id, new_name, autorename=False, field="new_name", exclude=f.id)
    parent = ctx.find(Folder, f.folder_id) if f.folder_id else None
    return ctx.update(f, name=new_name, path=_path(parent, new_name))


def _ex_rename_folder(ctx: Ctx) -> dict[str, Any] | None:
    folder = _first_editable_folder(ctx)
    if folder is None:
        return None
    return {"folder_id": folder.id, "new_name": f"{folder.name} (old)", "actor_email": folder.owner_email}


@service.tool(intent="rename the folder", write=True, example=_ex_rename_folder)
def rename_folder(ctx: Ctx, folder_id: FolderId, new_name: ItemName, actor_email: Email) -> Folder:
    """Rename a folder in place; the paths of everything inside it change accordingly.

    Args:
        folder_id: The folder.
        new_name: Its new name, free in its parent folder.
        actor_email: E-mail of the person renaming (owner or editor).
    """
    folder = _live_folder(ctx, folder_id, "folder_id")
    _folder_role_ok(ctx, actor_email, folder, f"rename {folder.path}")
    if new_name == folder.name:
        raise RuleViolation(f"folder {folder.id} is already named {new_name!r}", field="new_name", hint="nothing to do")
    _claim_name(
        ctx, folder.owner_email, folder.parent_id, new_name, autorename=False, field="new_name", exclude=folder.id
    )
    parent = ctx.find(Folder, folder.parent_id) if folder.parent_id else None
    renamed = ctx.update(folder, name=new_name, path=_path(parent, new_name))
    _repath(ctx, renamed)
    return renamed


def _destination(ctx: Ctx, dest_id: str | None, owner: str, what: str) -> Folder | None:
    if dest_id is None:
        return None
    dest = _live_folder(ctx, dest_id, "destination_folder_id")
    if dest.owner_email != owner:
        raise RuleViolation(
            f"{what} is in the drive of {owner} and cannot move into the drive of {dest.owner_email}",
            field="destination_folder_id",
            hint="copy it there with storage__copy_file instead, or choose a folder of the same drive",
        )
    return dest


@service.tool(
    intent="move the file to another folder",
    write=True,
    example=first_example(
        File,
        "file_id",
        where={"trashed": False},
        match=lambda ctx, f: f.folder_id is not None,
        fields={"actor_email": "owner_email"},
        autorename=True,
    ),
)
def move_file(
    ctx: Ctx,
    file_id: FileId,
    actor_email: Email,
    destination_folder_id: FolderId | None = None,
    autorename: bool = False,
) -> File:
    """Move a file to another folder of the same drive, or to the drive's top level.

    The mover needs editor access to both the file and the destination. Moving
    between two people's drives is refused: copy instead.

    Args:
        file_id: The file.
        actor_email: E-mail of the person moving it.
        destination_folder_id: Target folder; omit for the top level of the owner's drive.
        autorename: Pick a free name instead of failing when the name is taken at the destination.
    """
    f = _live_file(ctx, file_id)
    dest = _destination(ctx, destination_folder_id, f.owner_email, f"file {f.path}")
    if destination_folder_id == f.folder_id:
        raise RuleViolation(
            f"file {f.path} is already in {_where_label(ctx, f.folder_id)}",
            field="destination_folder_id",
            hint="choose another destination, or use storage__rename_file to rename in place",
        )
    _file_role_ok(ctx, actor_email, f, f"move {f.path}")
    _require_editor(
        ctx,
        actor_email,
        f.owner_email,
        destination_folder_id,
        None,
        f"move items into {_where_label(ctx, destination_folder_id)}",
    )
    name = _claim_name(
        ctx,
        f.owner_email,
        destination_folder_id,
        f.name,
        autorename=autorename,
        field="destination_folder_id",
        exclude=f.id,
    )
    return ctx.update(f, folder_id=destination_folder_id, name=name, path=_path(dest, name))


@service.tool(
    intent="move the folder somewhere else",
    write=True,
    example=first_example(
        Folder,
        "folder_id",
        where={"trashed": False},
        match=lambda ctx, folder: folder.parent_id is not None,
        fields={"actor_email": "owner_email"},
        autorename=True,
    ),
)
def move_folder(
    ctx: Ctx,
    folder_id: FolderId,
    actor_email: Email,
    destination_folder_id: FolderId | None = None,
    autorename: bool = False,
) -> Folder:
    """Move a folder, with everything inside it, to another folder of the same drive or to its top level.

    A folder cannot be moved into itself or into one of its own sub-folders.

    Args:
        folder_id: The folder to move.
        actor_email: E-mail of the person moving it (owner or editor of both places).
        destination_folder_id: New parent folder; omit for the top level of the owner's drive.
        autorename: Pick a free name instead of failing when the name is taken at the destination.
    """
    folder = _live_folder(ctx, folder_id, "folder_id")
    dest = _destination(ctx, destination_folder_id, folder.owner_email, f"folder {folder.path}")
    if dest is not None and any(anc.id == folder.id for anc in _chain(ctx, dest.id)):
        raise RuleViolation(
            f"folder {folder.path} cannot move into {dest.path}, which is {'itself' if dest.id == folder.id else 'inside it'}",
            field="destination_folder_id",
            hint=f"choose a destination outside {folder.path}",
        )
    if destination_folder_id == folder.parent_id:
        raise RuleViolation(
            f"folder {folder.path} is already in {_where_label(ctx, folder.parent_id)}",
            field="destination_folder_id",
            hint="choose another destination, or use storage__rename_folder to rename in place",
        )
    _folder_role_ok(ctx, actor_email, folder, f"move {folder.path}")
    _require_editor(
        ctx,
        actor_email,
        folder.owner_email,
        destination_folder_id,
        None,
        f"move items into {_where_label(ctx, destination_folder_id)}",
    )
    name = _claim_name(
        ctx,
        folder.owner_email,
        destination_folder_id,
        folder.name,
        autorename=autorename,
        field="destination_folder_id",
        exclude=folder.id,
    )
    moved = ctx.update(folder, parent_id=destination_folder_id, name=name, path=_path(dest, name))
    _repath(ctx, moved)
    return moved


@service.tool(
    intent="copy the file",
    write=True,
    example=first_example(
        File,
        "file_id",
        where={"trashed": False},
        fields={"actor_email": "owner_email", "destination_folder_id": "folder_id"},
        autorename=True,
    ),
)
def copy_file(
    ctx: Ctx,
    file_id: FileId,
    actor_email: Email,
    destination_folder_id: FolderId | None = None,
    new_name: ItemName | None = None,
    autorename: bool = False,
) -> File:
    """Copy a file's current content to a new file, possibly in another person's drive.

    The copier needs at least view access to the file and editor access to the
    destination; the copy belongs to the destination drive's owner and counts
    against that owner's quota.

    Args:
        file_id: The file to copy.
        actor_email: E-mail of the person copying.
        destination_folder_id: Folder to copy into; omit for the top level of the copier's own drive.
        new_name: Name of the copy; omit to keep the original name.
        autorename: Pick a free name instead of failing when the name is taken at the destination.
    """
    f = _live_file(ctx, file_id)
    if _role_of(ctx, actor_email, f.owner_email, f.folder_id, f.id) is None:
        raise RuleViolation(
            f"{actor_email} has no access to {f.path}",
            field="actor_email",
            hint=f"ask the owner ({f.owner_email}) to share the file first",
        )
    dest: Folder | None = None
    if destination_folder_id is not None:
        dest = _live_folder(ctx, destination_folder_id, "destination_folder_id")
        owner = dest.owner_email
        _require_editor(ctx, actor_email, owner, dest.id, None, f"copy into {dest.path}")
    else:
        _account(ctx, actor_email, "actor_email")
        owner = actor_email
    name = _claim_name(ctx, owner, destination_folder_id, new_name or f.name, autorename=autorename, field="new_name")
    _check_quota(ctx, owner, f.size_bytes, "destination_folder_id")
    return _new_file(ctx, owner, dest, name, f.size_bytes, f.mime_type, f.content_hash, actor_email)


# -- trash and deletion ---------------------------------------------------------------------


@service.tool(
    intent="move the file to the trash",
    write=True,
    example=first_example(File, "file_id", where={"trashed": False}, fields={"actor_email": "owner_email"}),
)
def trash_file(ctx: Ctx, file_id: FileId, actor_email: Email) -> File:
    """Move a file to the trash; it keeps using quota until the trash is emptied and can be restored.

    Args:
        file_id: The file.
        actor_email: E-mail of the person trashing it (owner or editor).
    """
    f = ctx.get(File, file_id, field="file_id")
    if f.trashed:
        raise RuleViolation(f"file {f.path} is already in the trash", field="file_id", hint="nothing to do")
    _file_role_ok(ctx, actor_email, f, f"trash {f.path}")
    return ctx.update(f, trashed=True, explicitly_trashed=True)


@service.tool(
    intent="move the folder to the trash",
    write=True,
    example=first_example(Folder, "folder_id", where={"trashed": False}, fields={"actor_email": "owner_email"}),
)
def trash_folder(ctx: Ctx, folder_id: FolderId, actor_email: Email) -> Folder:
    """Move a folder and everything inside it to the trash.

    Args:
        folder_id: The folder.
        actor_email: E-mail of the person trashing it (owner or editor).
    """
    folder = ctx.get(Folder, folder_id, field="folder_id")
    if folder.trashed:
        raise RuleViolation(f"folder {folder.path} is already in the trash", field="folder_id", hint="nothing to do")
    _folder_role_ok(ctx, actor_email, folder, f"trash {folder.path}")
    subs, fs = _subtree(ctx, folder)
    for sub in subs:
        if not sub.trashed:
            ctx.update(sub, trashed=True)
    for f in fs:
        if not f.trashed:
            ctx.update(f, trashed=True)
    return ctx.update(folder, trashed=True, explicitly_trashed=True)


def _restorable(ctx: Ctx, item: File | Folder, parent_id: str | None, field: str) -> None:
    if not item.trashed:
        raise RuleViolation(f"{item.path} is not in the trash", field=field, hint="nothing to restore")
    if not item.explicitly_trashed:
        top = next((a for a in _chain(ctx, parent_id) if a.explicitly_trashed), None)
        raise RuleViolation(
            f"{item.path} is in the trash because folder {top.path if top else parent_id} is",
            field=field,
            hint=f"restore folder {top.id if top else parent_id} with storage__restore_folder",
        )
    if parent_id is not None:
        parent = ctx.find(Folder, parent_id)
        if parent is not None and parent.trashed:
            raise RuleViolation(
                f"{item.path} cannot be restored while its folder {parent.path} is in the trash",
                field=field,
                hint=f"restore folder {parent.id} first, or move the item after restoring",
            )
    taken = _item_named(ctx, item.owner_email, parent_id, item.name, exclude=item.id)
    if taken is not None:
        raise Conflict(
            f"{_where_label(ctx, parent_id)} already has another item named {item.name!r} ({taken.id})",
            field=field,
            hint="rename or move that item first",
        )


def _ex_restore_file(ctx: Ctx) -> dict[str, Any] | None:
    for f in ctx.scan(File):
        if f.explicitly_trashed:
            parent = ctx.find(Folder, f.folder_id) if f.folder_id else None
            if (parent is None or not parent.trashed) and _item_named(
                ctx, f.owner_email, f.folder_id, f.name, f.id
            ) is None:
                return {"file_id": f.id, "actor_email": f.owner_email}
    return None


@service.tool(intent="restore the file from the trash", write=True, example=_ex_restore_file)
def restore_file(ctx: Ctx, file_id: FileId, actor_email: Email) -> File:
    """Take a file out of the trash, back into its folder.

    Only a file trashed by itself can be restored this way (restore a trashed
    folder to get its contents back); its name must still be free in its folder.

    Args:
        file_id: The trashed file.
        actor_email: E-mail of the person restoring it (owner or editor).
    """
    f = ctx.get(File, file_id, field="file_id")
    _restorable(ctx, f, f.folder_id, "file_id")
    _file_role_ok(ctx, actor_email, f, f"restore {f.path}")
    return ctx.update(f, trashed=False, explicitly_trashed=False)


@service.tool(
    intent="restore the folder from the trash",
    write=True,
    example=first_example(
        Folder, "folder_id", where={"explicitly_trashed": True}, fields={"actor_email": "owner_email"}
    ),
)
def restore_folder(ctx: Ctx, folder_id: FolderId, actor_email: Email) -> Folder:
    """Take a trashed folder out of the trash with everything that was trashed along with it.

    Items inside that had been trashed on their own before stay in the trash.

    Args:
        folder_id: The trashed folder.
        actor_email: E-mail of the person restoring it (owner or editor).
    """
    folder = ctx.get(Folder, folder_id, field="folder_id")
    _restorable(ctx, folder, folder.parent_id, "folder_id")
    _folder_role_ok(ctx, actor_email, folder, f"restore {folder.path}")
    restored = ctx.update(folder, trashed=False, explicitly_trashed=False)
    queue = [restored.id]
    while queue:
        fid = queue.pop(0)
        for child in ctx.where(Folder, parent_id=fid):
            if not child.explicitly_trashed:
                ctx.update(child, trashed=False)
                queue.append(child.id)
        for f in ctx.where(File, folder_id=fid):
            if not f.explicitly_trashed:
                ctx.update(f, trashed=False)
    return restored


def _ex_delete_file(ctx: Ctx) -> dict[str, Any] | None:
    f = _first_file(ctx, trashed=True) or _first_file(ctx)
    return None if f is None else {"file_id": f.id, "actor_email": f.owner_email}


@service.tool(
    intent="delete the file permanently", write=True, destructive=True, idempotent=False, example=_ex_delete_file
)
def delete_file(ctx: Ctx, file_id: FileId, actor_email: Email) -> Deletion:
    """Delete a file permanently, with its revisions, sharing permissions and shared links.

    Only the owner may delete permanently; this cannot be undone.

    Args:
        file_id: The file.
        actor_email: E-mail of the person deleting it; must be the owner.
    """
    f = ctx.get(File, file_id, field="file_id")
    _require_owner(ctx, actor_email, f.owner_email, f"permanently delete {f.path}")
    _purge_file(ctx, f)
    return Deletion(deleted_file_ids=[f.id], deleted_folder_ids=[], freed_bytes=f.size_bytes)


@service.tool(
    intent="delete the folder permanently",
    write=True,
    destructive=True,
    idempotent=False,
    example=first_example(Folder, "folder_id", fields={"actor_email": "owner_email"}, recursive=True),
)
def delete_folder(ctx: Ctx, folder_id: FolderId, actor_email: Email, recursive: bool = False) -> Deletion:
    """Delete a folder permanently; a folder that is not empty needs recursive=true.

    With recursive, every folder and file below it (trashed ones included) is
    deleted permanently too. Only the owner may delete permanently.

    Args:
        folder_id: The folder.
        actor_email: E-mail of the person deleting it; must be the owner.
        recursive: Also delete everything inside the folder.
    """
    folder = ctx.get(Folder, folder_id, field="folder_id")
    _require_owner(ctx, actor_email, folder.owner_email, f"permanently delete {folder.path}")
    subs, fs = _subtree(ctx, folder)
    if (subs or fs) and not recursive:
        raise RuleViolation(
            f"folder {folder.path} is not empty ({len(subs)} folder(s), {len(fs)} file(s) inside, trash included)",
            field="recursive",
            hint="pass recursive=true to delete everything inside too, or move the contents out first",
        )
    for f in fs:
        _purge_file(ctx, f)
    for sub in reversed(subs):
        _purge_folder(ctx, sub)
    _purge_folder(ctx, folder)
    return Deletion(
        deleted_file_ids=[f.id for f in fs],
        deleted_folder_ids=[folder.id, *(s.id for s in subs)],
        freed_bytes=sum(f.size_bytes for f in fs),
    )


@service.tool(
    intent="empty the trash",
    write=True,
    destructive=True,
    idempotent=True,
    example=first_example(File, None, where={"trashed": True}, fields={"owner_email": "owner_email"}),
)
def empty_trash(ctx: Ctx, owner_email: Email) -> Deletion:
    """Permanently delete everything in a drive's trash, freeing its quota.

    Args:
        owner_email: E-mail of the drive's owner.
    """
    _account(ctx, owner_email, "owner_email")
    fs = [f for f in ctx.where(File, owner_email=owner_email) if f.trashed]
    subs = [f for f in ctx.where(Folder, owner_email=owner_email) if f.trashed]
    for f in fs:
        _purge_file(ctx, f)
    for sub in subs:
        _purge_folder(ctx, sub)
    return Deletion(
        deleted_file_ids=[f.id for f in fs],
        deleted_folder_ids=[s.id for s in subs],
        freed_bytes=sum(f.size_bytes for f in fs),
    )


# -- revisions ------------------------------------------------------------------------------


def _ex_restore_revision(ctx: Ctx) -> dict[str, Any] | None:
    for f in ctx.scan(File):
        if f.trashed or f.rev < 2:
            continue
        old = ctx.first(Revision, file_id=f.id, rev=1)
        if old is not None:
            return {"file_id": f.id, "revision_id": old.id, "actor_email": f.owner_email}
    return None


@service.tool(intent="restore an earlier version of the file", write=True, example=_ex_restore_revision)
def restore_revision(ctx: Ctx, file_id: FileId, revision_id: RevisionId, actor_email: Email) -> File:
    """Make an earlier revision the file's current content again, as a new revision.

    The revision must belong to the file and not already be current; a larger old
    version must fit in the owner's quota.

    Args:
        file_id: The file.
        revision_id: The earlier revision to bring back (see storage__list_revisions).
        actor_email: E-mail of the person restoring it (owner or editor).
    """
    f = _live_file(ctx, file_id)
    rev = ctx.get(Revision, revision_id, field="revision_id")
    if rev.file_id != f.id:
        raise RuleViolation(
            f"revision {rev.id} belongs to file {rev.file_id}, not {f.id}",
            field="revision_id",
            hint=f"list the revisions of {f.id} with storage__list_revisions",
        )
    if rev.rev == f.rev:
        raise RuleViolation(
            f"revision {rev.id} is already the current content of {f.path}",
            field="revision_id",
            hint="choose an older revision",
        )
    _file_role_ok(ctx, actor_email, f, f"restore a revision of {f.path}")
    _check_quota(ctx, f.owner_email, rev.size_bytes - f.size_bytes, "revision_id")
    return _add_revision(ctx, f, rev.size_bytes, rev.content_hash, actor_email)


# -- sharing --------------------------------------------------------------------------------


def _check_grantee(ctx: Ctx, email: str, owner: str) -> None:
    if email == owner:
        raise RuleViolation(f"{email} owns the item already", field="email", hint="share with someone else")
    if not _trusted(ctx, email):
        raise RuleViolation(
            f"sharing with {email} is blocked: external sharing is limited to the company's and its business "
            "partners' domains",
            field="email",
            hint="share with a work address at the company or at a customer or partner company",
        )


def _ex_share_file(ctx: Ctx) -> dict[str, Any] | None:
    f = _first_file(ctx)
    if f is None:
        return None
    for p in ctx.population.employees:
        if p.email != f.owner_email and _role_of(ctx, p.email, f.owner_email, f.folder_id, f.id) is None:
            return {"file_id": f.id, "email": p.email, "role": "viewer", "actor_email": f.owner_email}
    return None


@service.tool(intent="share the file with someone", write=True, example=_ex_share_file)
def share_file(ctx: Ctx, file_id: FileId, email: Email, role: Role, actor_email: Email) -> Permission:
    """Give a person access to a file as viewer, commenter or editor.

    Only the owner or an editor may share. The person must not already have a
    permission on the file (change its role instead), and external addresses must
    belong to a customer or partner company.

    Args:
        file_id: The file.
        email: E-mail of the person to share with.
        role: The access to give.
        actor_email: E-mail of the person sharing (owner or editor).
    """
    f = _live_file(ctx, file_id)
    _file_role_ok(ctx, actor_email, f, f"share {f.path}")
    _check_grantee(ctx, email, f.owner_email)
    existing = ctx.first(Permission, file_id=f.id, email=email)
    if existing is not None:
        raise Conflict(
            f"{email} already has {existing.role} access to {f.path} ({existing.id})",
            field="email",
            hint=f"change the role with storage__change_member_role on {existing.id}",
        )
    return ctx.create(Permission, file_id=f.id, email=email, role=role, granted_by=actor_email)


def _ex_share_folder(ctx: Ctx) -> dict[str, Any] | None:
    folder = _first_editable_folder(ctx)
    if folder is None:
        return None
    for p in ctx.population.employees:
        if p.email != folder.owner_email and ctx.first(Permission, folder_id=folder.id, email=p.email) is None:
            return {"folder_id": folder.id, "email": p.email, "role": "editor", "actor_email": folder.owner_email}
    return None


@service.tool(intent="share the folder with someone", write=True, example=_ex_share_folder)
def share_folder(ctx: Ctx, folder_id: FolderId, email: Email, role: Role, actor_email: Email) -> Permission:
    """Give a person access to a folder and everything inside it as viewer, commenter or editor.

    Only the owner or an editor may share; the person must not already have a
    permission on this folder; external addresses must belong to a customer or
    partner company.

    Args:
        folder_id: The folder.
        email: E-mail of the person to share with.
        role: The access to give.
        actor_email: E-mail of the person sharing (owner or editor).
    """
    folder = _live_folder(ctx, folder_id, "folder_id")
    _folder_role_ok(ctx, actor_email, folder, f"share {folder.path}")
    _check_grantee(ctx, email, folder.owner_email)
    existing = ctx.first(Permission, folder_id=folder.id, email=email)
    if existing is not None:
        raise Conflict(
            f"{email} already has {existing.role} access to {folder.path} ({existing.id})",
            field="email",
            hint=f"change the role with storage__change_member_role on {existing.id}",
        )
    return ctx.create(Permission, folder_id=folder.id, email=email, role=role, granted_by=actor_email)


def _permission_item(ctx: Ctx, perm: Permission) -> tuple[str, str | None, str | None, str]:
    """``(owner, folder_id, file_id, path)`` of the item a permission is on."""
    if perm.file_id is not None:
        f = ctx.get(File, perm.file_id, field="permission_id")
        return f.owner_email, f.folder_id, f.id, f.path
    folder = ctx.get(Folder, perm.folder_id or "", field="permission_id")
    return folder.owner_email, folder.id, None, folder.path


def _ex_change_role(ctx: Ctx) -> dict[str, Any] | None:
    perm = ctx.first(Permission)
    if perm is None:
        return None
    owner = _permission_item(ctx, perm)[0]
    role = "editor" if perm.role != "editor" else "viewer"
    return {"permission_id": perm.id, "role": role, "actor_email": owner}


@service.tool(intent="change what the person may do with the shared item", write=True, example=_ex_change_role)
def change_member_role(ctx: Ctx, permission_id: PermissionId, role: Role, actor_email: Email) -> Permission:
    """Change the role of an existing sharing permission.

    Args:
        permission_id: The permission (see storage__list_permissions).
        role: The new role.
        actor_email: E-mail of the person changing it (owner or editor of the item).
    """
    perm = ctx.get(Permission, permission_id, field="permission_id")
    owner, folder_id, file_id, path = _permission_item(ctx, perm)
    _require_editor(ctx, actor_email, owner, folder_id, file_id, f"change who can access {path}")
    if perm.role == role:
        raise RuleViolation(f"{perm.email} already has role {role} on {path}", field="role", hint="nothing to do")
    return ctx.update(perm, role=role)


@service.tool(
    intent="stop sharing the item with the person",
    write=True,
    destructive=True,
    example=first_example(Permission, "permission_id", fields={"actor_email": "email"}),
)
def remove_member(ctx: Ctx, permission_id: PermissionId, actor_email: Email) -> Deleted:
    """Remove a person's access to a shared file or folder.

    The owner or an editor may remove anyone; a member may also remove their own access.

    Args:
        permission_id: The permission to remove.
        actor_email: E-mail of the person removing it.
    """
    perm = ctx.get(Permission, permission_id, field="permission_id")
    owner, folder_id, file_id, path = _permission_item(ctx, perm)
    if actor_email != perm.email:
        _require_editor(ctx, actor_email, owner, folder_id, file_id, f"change who can access {path}")
    ctx.delete(perm)
    return Deleted(id=perm.id)


# -- shared links ---------------------------------------------------------------------------


@service.tool(
    intent="create a shareable link to the file",
    write=True,
    example=first_example(
        File,
        "file_id",
        where={"trashed": False},
        match=lambda ctx, f: ctx.first(SharedLink, file_id=f.id, status="active") is None,
        fields={"actor_email": "owner_email"},
        audience="public",
    ),
)
def create_shared_link(
    ctx: Ctx,
    file_id: FileId,
    actor_email: Email,
    audience: Audience = "team_only",
    allow_download: bool = True,
    expires_at: DateTime | None = None,
) -> SharedLink:
    """Create a shared link that opens a file for anyone (public) or for colleagues (team_only).

    Only the owner or an editor may create links. A file has at most one active
    link per audience (revoke it to make a new one); expiry must be in the future.

    Args:
        file_id: The file.
        actor_email: E-mail of the person creating the link (owner or editor).
        audience: Who may open it.
        allow_download: Whether the link allows downloading.
        expires_at: When the link stops working; omit for never.
    """
    f = _live_file(ctx, file_id)
    _file_role_ok(ctx, actor_email, f, f"create links to {f.path}")
    if expires_at is not None and expires_at <= ctx.now():
        raise RuleViolation(
            f"expires_at {expires_at.isoformat()} is not in the future",
            field="expires_at",
            hint=f"choose a time after {ctx.now().isoformat()}, or omit it",
        )
    existing = ctx.first(SharedLink, file_id=f.id, status="active", audience=audience)
    if existing is not None:
        raise Conflict(
            f"{f.path} already has an active {audience} link: {existing.url} ({existing.id})",
            field="audience",
            hint="share the existing link, or revoke it with storage__revoke_shared_link first",
        )
    domain = ctx.population.home.domain
    while True:
        url = f"https://share.{domain}/s/{ctx.rng.getrandbits(64):016x}"
        if ctx.first(SharedLink, url=url) is None:
            break
    return ctx.create(
        SharedLink,
        file_id=f.id,
        url=url,
        audience=audience,
        allow_download=allow_download,
        created_by=actor_email,
        expires_at=expires_at,
    )


def _ex_link_metadata(ctx: Ctx) -> dict[str, Any] | None:
    for link in ctx.scan(SharedLink):
        f = ctx.find(File, link.file_id)
        if link.status == "active" and link.audience == "public" and link.expires_at is None and f and not f.trashed:
            return {"url": link.url}
    return None


@service.tool(intent="find the file this shared link opens", example=_ex_link_metadata)
def get_shared_link_metadata(ctx: Ctx, url: FileLink, viewer_email: Email | None = None) -> File:
    """Resolve a shared link to the file it opens, as someone following the link would.

    Revoked and expired links do not open; team-only links open only for people
    of the home company; links to trashed files do not open.

    Args:
        url: The shared link.
        viewer_email: E-mail of the person following the link; omit for an anonymous visitor.
    """
    link = ctx.first(SharedLink, url=url)
    if link is None:
        raise NotFound(
            f"no shared link {url}", field="url", hint="check the URL, or list links with storage__list_shared_links"
        )
    if link.status == "revoked":
        raise RuleViolation(
            f"shared link {link.id} was revoked", field="url", hint="ask the file's owner for a new link"
        )
    if link.expires_at is not None and link.expires_at <= ctx.now():
        raise RuleViolation(
            f"shared link {link.id} expired at {link.expires_at.isoformat()}",
            field="url",
            hint="ask the file's owner for a new link",
        )
    home = ctx.population.home.domain
    if link.audience == "team_only" and (viewer_email is None or not viewer_email.endswith("@" + home)):
        raise RuleViolation(
            f"shared link {link.id} only opens for people of the company",
            field="viewer_email",
            hint=f"follow it signed in with an @{home} address",
        )
    f = ctx.get(File, link.file_id, field="url")
    if f.trashed:
        raise NotFound(f"the file behind {url} is in the trash", field="url", hint="ask the owner to restore it")
    return f


@service.tool(
    intent="check how much storage space is used", example=first_example(Account, None, fields={"email": "email"})
)
def get_space_usage(ctx: Ctx, email: Email) -> SpaceUsage:
    """Report how much of a person's drive quota is used, by all files and by the trash.

    Args:
        email: E-mail of the drive's owner.
    """
    _account(ctx, email, "email")
    return _usage(ctx, email)


# -- seed -----------------------------------------------------------------------------------

GB = 10**9
MB = 10**6
_MIME = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "md": "text/markdown",
    "txt": "text/plain",
    "csv": "text/csv",
    "png": "image/png",
    "jpg": "image/jpeg",
    "zip": "application/zip",
    "mp4": "video/mp4",
}
_SIZE = {
    "pdf": (80_000, 6 * MB),
    "docx": (20_000, 2 * MB),
    "xlsx": (15_000, 4 * MB),
    "pptx": (500_000, 40 * MB),
    "md": (2_000, 60_000),
    "txt": (500, 20_000),
    "csv": (5_000, 8 * MB),
    "png": (100_000, 5 * MB),
    "jpg": (200_000, 8 * MB),
    "zip": (5 * MB, 900 * MB),
    "mp4": (50 * MB, 2 * GB),
}
_DEPT_FOLDER = {
    "Engineering": "Design docs",
    "Sales": "Proposals",
    "Support": "Escalations",
    "Finance": "Reports",
    "People": "Hiring",
    "Operations": "Suppliers",
    "Marketing": "Campaigns",
}
_DEPT_FILES = {
    "Engineering": ("Architecture overview.md", "Runbook - {customer}.md", "API design review.docx", "Load test.csv"),
    "Sales": ("Proposal - {customer}.pdf", "Pricing - {customer}.xlsx", "Pipeline review {month}.xlsx"),
    "Support": ("Escalation notes - {customer}.docx", "Support macros.docx", "Ticket export {month}.csv"),
    "Finance": ("Budget 2026.xlsx", "Invoice register {month}.xlsx", "Expense report {month}.pdf"),
    "People": ("Onboarding checklist.docx", "Interview plan.docx", "Headcount plan 2026.xlsx"),
    "Operations": ("Supplier list.xlsx", "Shipping rates 2026.xlsx", "Stock count {month}.csv"),
    "Marketing": ("Brand guidelines.pdf", "Campaign plan {month}.pptx", "Product photos {sku}.zip", "Launch video.mp4"),
}
_COMMON_FILES = ("Notes.txt", "Team photo.jpg", "Screenshot.png", "To do.md")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October")


@service.seeder
def seed(s: SeedContext) -> None:
    """A drive per employee with department folders and files, shares, links, trash and history."""
    employees = list(s.population.employees)
    uploads = _Uploads(s)
    dept_folders = _seed_drives(s, employees, uploads)
    _seed_folder_shares(s, employees, dept_folders)
    live_files = [f for f in s.records(File) if not f.trashed]
    _seed_customer_shares(s, live_files)
    _seed_shared_links(s, live_files)
    _seed_accounts(s, employees, uploads)


class _Uploads:
    """Seeds files with their revision history and counts the bytes each owner uses."""

    def __init__(self, s: SeedContext) -> None:
        self.s = s
        self.usage: dict[str, int] = {}
        self.count = 0

    def add(
        self, owner: str, parent: Folder | None, name: str, max_days: int, *, in_trash: bool = False, size: int = 0
    ) -> File:
        """A file uploaded in the last ``max_days`` days, with one to three revisions unless ``size`` fixes it.

        Args:
            owner: E-mail of the drive's owner.
            parent: The folder; None for the top level.
            name: File name; its extension picks the MIME type and the size range.
            max_days: How long ago it may have been uploaded, at most.
            in_trash: Whether it is in the trash along with its folder.
            size: A fixed size for a single revision; 0 draws the size and the revision count.
        """
        s, rng = self.s, self.s.rng
        ext = name.rpartition(".")[2]
        lo, hi = _SIZE[ext]
        created = s.ago(days=rng.randint(1, max_days), hours=rng.randint(0, 8))
        versions: list[tuple[int, str, dt.datetime]] = []
        when = created
        for _ in range(1 if size else rng.choice((1, 1, 1, 2, 3))):
            versions.append((size or rng.randint(lo, hi), f"{rng.getrandbits(256):064x}", when))
            when = min(when + dt.timedelta(days=rng.randint(1, 6)), s.now)
        self.count += 1
        explicit = not in_trash and not size and self.count % 13 == 6
        size, digest, modified = versions[-1]
        f = s.create(
            File,
            name=name,
            folder_id=parent.id if parent else None,
            owner_email=owner,
            path=_path(parent, name),
            mime_type=_MIME[ext],
            size_bytes=size,
            rev=len(versions),
            content_hash=digest,
            last_modified_by=owner,
            trashed=in_trash or explicit,
            explicitly_trashed=explicit,
            created_at=created,
            modified_at=modified,
        )
        for n, (vsize, vdigest, vwhen) in enumerate(versions, start=1):
            s.create(
                Revision,
                file_id=f.id,
                rev=n,
                size_bytes=vsize,
                content_hash=vdigest,
                modified_by=owner,
                created_at=vwhen,
            )
        self.usage[owner] = self.usage.get(owner, 0) + size
        return f


def _fill(s: SeedContext, name: str) -> str:
    """A file name template with a random customer, month and product SKU filled in."""
    pop = s.population
    customers = pop.customers
    return name.format(
        customer=s.rng.choice(customers).name if customers else "Partner",
        month=s.rng.choice(_MONTHS),
        sku=s.rng.choice(pop.products).sku if pop.products else "SKU-1",
    )


def _seed_drives(s: SeedContext, employees: list[Person], uploads: _Uploads) -> list[Folder]:
    """Folders and files in most employees' drives; returns the department folders."""
    rng = s.rng
    dept_folders: list[Folder] = []
    newest = max(employees, key=lambda p: (p.hire_date or s.now.date(), p.email), default=None)
    for i, person in enumerate(employees):
        if i % 11 == 10 or person is newest:
            continue  # a few people, the newest hire among them, have not used their drive yet
        dept = department_of(person)
        days = rng.randint(20, 400)
        made = s.ago(days=days)
        docs = s.create(Folder, name="Documents", owner_email=person.email, path="/Documents", created_at=made)
        work = s.create(
            Folder, name=_DEPT_FOLDER[dept], owner_email=person.email, path=f"/{_DEPT_FOLDER[dept]}", created_at=made
        )
        dept_folders.append(work)
        archive = s.create(
            Folder,
            name="Archive",
            parent_id=docs.id,
            owner_email=person.email,
            path="/Documents/Archive",
            created_at=made,
        )
        names = {_fill(s, t) for t in rng.sample(_DEPT_FILES[dept], k=min(3, len(_DEPT_FILES[dept])))}
        for name in sorted(names):
            uploads.add(person.email, work, name, days)
        uploads.add(person.email, docs, _fill(s, rng.choice(_COMMON_FILES)), days)
        uploads.add(person.email, archive, _fill(s, rng.choice(_DEPT_FILES[dept])), days)
        if rng.random() < 0.4:
            uploads.add(person.email, None, _fill(s, rng.choice(_COMMON_FILES)), days)
        if i % 9 == 4:
            old = s.create(
                Folder,
                name="Old drafts",
                parent_id=docs.id,
                owner_email=person.email,
                path="/Documents/Old drafts",
                trashed=True,
                explicitly_trashed=True,
                created_at=made,
            )
            for n in range(2):
                uploads.add(person.email, old, f"Draft {n + 1}.docx", days, in_trash=True)
    return dept_folders


def _seed_folder_shares(s: SeedContext, employees: list[Person], dept_folders: list[Folder]) -> None:
    """Each department folder shared with up to two colleagues of its owner's department."""
    rng = s.rng
    by_dept: dict[str, list[str]] = {}
    for p in employees:
        by_dept.setdefault(p.department or "", []).append(p.email)
    dept_of = {p.email: p.department or "" for p in employees}
    for folder in dept_folders:
        mates = [e for e in by_dept.get(dept_of[folder.owner_email], []) if e != folder.owner_email]
        for mate in rng.sample(mates, k=min(len(mates), rng.randint(0, 2))):
            s.create(
                Permission,
                folder_id=folder.id,
                email=mate,
                role=rng.choice(("viewer", "commenter", "editor")),
                granted_by=folder.owner_email,
                created_at=folder.created_at,
            )


def _seed_customer_shares(s: SeedContext, live_files: list[File]) -> None:
    """Files named after a customer shared with one of that customer's people."""
    pop = s.population
    rng = s.rng
    by_name = {c.name: c for c in pop.customers}
    for f in live_files:
        for marker in ("Proposal - ", "Pricing - ", "Escalation notes - ", "Runbook - "):
            if f.name.startswith(marker):
                company = by_name.get(f.name[len(marker) :].rpartition(".")[0])
                people = pop.people_at(company) if company else ()
                if people:
                    s.create(
                        Permission,
                        file_id=f.id,
                        email=rng.choice(people).email,
                        role=rng.choice(("viewer", "commenter")),
                        granted_by=f.owner_email,
                        created_at=f.created_at,
                    )


def _seed_shared_links(s: SeedContext, live_files: list[File]) -> None:
    """Shared links on a fifth of the files; some revoked, some expired, some expiring."""
    home = s.population.home.domain
    for k, f in enumerate(live_files[::5]):
        if k % 7 == 6:
            expires: dt.datetime | None = s.ago(days=3)
        elif k % 4 == 3:
            expires = s.now + dt.timedelta(days=30)
        else:
            expires = None
        s.create(
            SharedLink,
            file_id=f.id,
            url=f"https://share.{home}/s/{s.rng.getrandbits(64):016x}",
            audience="public" if k % 3 else "team_only",
            allow_download=k % 5 != 4,
            created_by=f.owner_email,
            expires_at=expires,
            status="revoked" if k % 6 == 5 else "active",
            created_at=f.created_at,
        )


def _seed_accounts(s: SeedContext, employees: list[Person], uploads: _Uploads) -> None:
    """Every employee's drive account, with a quota that holds what they already store."""
    # 30 GB by default, 100 GB for media-heavy marketing; two 2 GB drives are nearly full
    # (a few MB left) because of a large archive of call recordings.
    nearly_full = 0
    for person in employees:
        used = uploads.usage.get(person.email, 0)
        quota = 100 * GB if person.department == "Marketing" else 30 * GB
        if used > 0 and nearly_full < 2 and person.department in ("Sales", "Finance"):
            quota = 2 * GB
            uploads.add(person.email, None, "Call recordings.zip", 60, size=quota - used - 3 * MB)
            used = uploads.usage[person.email]
            nearly_full += 1
        joined = utc_at(person.hire_date or s.now.date(), 9)
        s.create(
            Account,
            email=person.email,
            display_name=person.name,
            department=person.department,
            quota_bytes=max(quota, used),
            created_at=joined,
        )
