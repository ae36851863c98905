"""Strata Object Storage: the company's buckets, object versions, lifecycle rules and presigned links.

Modeled on the Amazon S3 REST API (2006-03-01): CreateBucket with a region
and DNS-compatible, globally unique names (three to 63 characters of lower-case
letters, digits, dots and hyphens, starting and ending with a letter or digit,
no adjacent dots, not an IP address, not the reserved ``xn--`` prefix or
``-s3alias`` suffix) and at most 100 buckets per account; DeleteBucket refused
with BucketNotEmpty while any object version or delete marker is left;
PutBucketVersioning (a bucket once versioned can only be suspended, never
unversioned); PutObject (at most 5 GB in one PUT, keys at most 1,024 bytes)
that replaces the ``null`` version of an unversioned or suspended bucket and
adds a version to a versioned one; DeleteObject, which adds a delete marker in
a versioned bucket and removes a version for good when one is named (the next
newer version becomes current); HeadObject (404 when the current version is a
delete marker, 405 for a delete marker named by version); ListObjectsV2 with
prefix, delimiter and common prefixes; ListObjectVersions; PutObjectAcl and
Block Public Access, which refuses public ACLs; lifecycle rules (expiration,
transitions at least 30 days old for the infrequent-access classes and before
the expiration, noncurrent version expiration, at most 1,000 rules a bucket);
and SigV4 presigned URLs that expire after at most seven days and cannot read
an archived (GLACIER, DEEP_ARCHIVE) object.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import re
from typing import Annotated, Any, Literal
from urllib.parse import quote

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "objectstore",
    title="Strata Object Storage",
    category="object_storage",
    modeled_on="Amazon S3 REST API 2006-03-01 (CreateBucket, DeleteBucket, PutBucketVersioning, "
    "PutPublicAccessBlock, PutObject, HeadObject, DeleteObject, ListObjectsV2, ListObjectVersions, PutObjectAcl, "
    "PutBucketLifecycleConfiguration, SigV4 presigned URLs)",
    description="Object storage for the company's files: buckets in a region with versioning and public access "
    "blocking, objects with keys, sizes, content types and ETags, their versions and delete markers, lifecycle "
    "rules that archive and expire them, and presigned links that let someone outside read or upload one file.",
)

BucketId = Annotated[str, IdOf("objectstore.bucket")]
VersionRecordId = Annotated[str, IdOf("objectstore.object_version")]
RuleId = Annotated[str, IdOf("objectstore.lifecycle_rule")]
LinkId = Annotated[str, IdOf("objectstore.presigned_url")]

BucketName = Annotated[str, StringConstraints(min_length=1, max_length=255)]
"""A bucket name (checked against the DNS naming rules when a bucket is created)."""
ObjectKey = Annotated[str, StringConstraints(min_length=1, max_length=1024)]
"""An object's key: its full path in the bucket, e.g. invoices/2026/INV-0001.pdf."""
ContentType = Annotated[str, StringConstraints(pattern=r"^[a-z]+/[a-z0-9.+-]+$", max_length=127)]
"""A MIME type such as application/pdf."""
RuleName = Annotated[str, StringConstraints(min_length=1, max_length=255)]
"""A lifecycle rule's ID."""

Region = Literal[
    "us-east-1",
    "us-east-2",
    "us-west-2",
    "ca-central-1",
    "sa-east-1",
    "eu-west-1",
    "eu-west-2",
    "eu-central-1",
    "ap-southeast-2",
    "ap-northeast-1",
    "ap-south-1",
]
Versioning = Literal["Disabled", "Enabled", "Suspended"]
StorageClass = Literal["STANDARD", "STANDARD_IA", "ONEZONE_IA", "GLACIER_IR", "GLACIER", "DEEP_ARCHIVE"]
Acl = Literal["private", "public-read", "public-read-write", "authenticated-read", "bucket-owner-full-control"]
Method = Literal["GET", "PUT"]

MAX_BUCKETS = 100
MAX_PUT_BYTES = 5 * 1024**3
MAX_RULES = 1000
MAX_PRESIGN_SECONDS = 7 * 24 * 3600
PUBLIC_ACLS = ("public-read", "public-read-write")
ARCHIVED: tuple[str, ...] = ("GLACIER", "DEEP_ARCHIVE")
CLASS_ORDER: tuple[StorageClass, ...] = (
    "STANDARD",
    "STANDARD_IA",
    "ONEZONE_IA",
    "GLACIER_IR",
    "GLACIER",
    "DEEP_ARCHIVE",
)
"""Storage classes from the warmest to the coldest: lifecycle transitions only go down this list."""
MIN_TRANSITION_DAYS = {"STANDARD_IA": 30, "ONEZONE_IA": 30}
"""Infrequent-access classes take objects only after they are at least 30 days old."""
HOST = "strata-storage.net"
_NAME = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
_VERSION_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._"
REGION_BY_COUNTRY: dict[str, Region] = {
    "US": "us-east-1",
    "CA": "ca-central-1",
    "BR": "sa-east-1",
    "GB": "eu-west-2",
    "IE": "eu-west-1",
    "DE": "eu-central-1",
    "FR": "eu-west-1",
    "ES": "eu-west-1",
    "IT": "eu-central-1",
    "NL": "eu-central-1",
    "AU": "ap-southeast-2",
    "JP": "ap-northeast-1",
    "IN": "ap-south-1",
}


class Bucket(Created):
    """A bucket: a named container of objects in one region."""

    id: BucketId
    name: BucketName
    """The bucket's globally unique, DNS-compatible name."""
    region: Region
    """Where its objects are stored."""
    versioning: Versioning = "Disabled"
    """Disabled (never versioned), Enabled (every write keeps the old version) or Suspended."""
    block_public_access: bool = True
    """Whether Block Public Access refuses public ACLs on the bucket's objects (on by default)."""
    owner_email: Email
    """The staff member who owns the bucket."""


class ObjectVersion(Record):
    """One version of an object, or a delete marker."""

    id: VersionRecordId
    bucket_id: BucketId
    """The bucket."""
    key: ObjectKey
    """The object's key."""
    version_id: str
    """The version's id (``null`` for a write to an unversioned or suspended bucket)."""
    is_latest: bool = True
    """Whether this is the current version of the key."""
    is_delete_marker: bool = False
    """Whether this version is a delete marker (the key then reads as deleted)."""
    size: int = Field(default=0, ge=0)
    """Size in bytes (0 for a delete marker)."""
    content_type: ContentType | None = None
    """The MIME type (None for a delete marker)."""
    etag: str = ""
    """The entity tag: the content's MD5 in hex, in quotes."""
    storage_class: StorageClass = "STANDARD"
    """STANDARD, STANDARD_IA, ONEZONE_IA, GLACIER_IR, GLACIER or DEEP_ARCHIVE."""
    acl: Acl = "private"
    """The canned ACL."""
    uploaded_by: Email | None = None
    """The staff member who wrote it."""
    noncurrent_since: DateTime | None = None
    """When a newer version replaced it."""
    last_modified: Annotated[DateTime, CREATED]
    """When it was written."""


class LifecycleRule(Created):
    """A lifecycle rule of a bucket: what happens to objects under a prefix as they age."""

    id: RuleId
    bucket_id: BucketId
    """The bucket."""
    rule_name: RuleName
    """The rule's ID, unique in its bucket."""
    prefix: str = ""
    """The key prefix it applies to ("" for every object)."""
    enabled: bool = True
    """Whether the rule is applied."""
    transition_days: int | None = None
    """Age in days at which current versions move to the transition storage class."""
    transition_storage_class: StorageClass | None = None
    """The colder class they move to."""
    expiration_days: int | None = None
    """Age in days at which current versions expire."""
    noncurrent_expiration_days: int | None = None
    """Days after becoming noncurrent at which old versions are removed for good."""


class PresignedUrl(Record):
    """A presigned link that lets its holder read (GET) or upload (PUT) one object until it expires."""

    id: LinkId
    bucket_id: BucketId
    """The bucket."""
    key: ObjectKey
    """The object's key."""
    method: Method
    """GET (download) or PUT (upload)."""
    url: Url
    """The signed link."""
    issued_to_email: Email | None = None
    """Who the link was made for."""
    expires_at: DateTime
    """When the signature stops working."""
    issued_at: Annotated[DateTime, CREATED]
    """When it was signed."""


def _guard_bucket_delete(ctx: Ctx, new: Any, old: Any) -> None:
    left = ctx.where(ObjectVersion, bucket_id=old.id)
    if left:
        markers = sum(v.is_delete_marker for v in left)
        raise RuleViolation(
            f"BucketNotEmpty: {old.name} still holds {len(left)} object versions ({markers} delete markers)",
            field="bucket_id",
            hint="delete every version and delete marker with objectstore__delete_object and its version_id first",
        )
    for rule in ctx.where(LifecycleRule, bucket_id=old.id):
        ctx.delete(rule)
    for link in ctx.where(PresignedUrl, bucket_id=old.id):
        ctx.delete(link)


buckets = service.resource(
    Bucket,
    name="bucket",
    plural="buckets",
    prefix="bkt",
    create=False,
    filters=("name", "region", "versioning", "block_public_access", "owner_email"),
    search=("name",),
    guard_delete=_guard_bucket_delete,
)
versions = service.resource(
    ObjectVersion,
    name="object_version",
    plural="object_versions",
    prefix="objv",
    create=False,
    get=False,
    filters=("bucket_id", "key", "version_id", "is_latest", "is_delete_marker", "storage_class", "acl"),
    search=("key",),
    delete=False,
    title="object version",
)
rules = service.resource(
    LifecycleRule,
    name="lifecycle_rule",
    plural="lifecycle_rules",
    prefix="lcr",
    create=False,
    get=False,
    filters=("bucket_id", "rule_name", "enabled"),
    title="lifecycle rule",
)
links = service.resource(
    PresignedUrl,
    name="presigned_url",
    plural="presigned_urls",
    prefix="psu",
    create=False,
    get=False,
    filters=("bucket_id", "key", "method", "issued_to_email"),
    delete=False,
    title="presigned URL",
)


# -- rules ------------------------------------------------------------------------------------


def check_bucket_name(name: str) -> None:
    """Refuse a name that breaks the bucket naming rules (InvalidBucketName)."""
    problem = ""
    if not 3 <= len(name) <= 63:
        problem = f"is {len(name)} characters long; a name has 3 to 63"
    elif not _NAME.match(name):
        problem = "may hold only lower-case letters, digits, dots and hyphens, and start and end with a letter or digit"
    elif ".." in name:
        problem = "has two adjacent dots"
    elif name.startswith(("xn--", "sthree-")) or name.endswith(("-s3alias", "--ol-s3")):
        problem = "uses a reserved prefix (xn--, sthree-) or suffix (-s3alias, --ol-s3)"
    else:
        try:
            ipaddress.IPv4Address(name)
            problem = "is formatted as an IP address"
        except ValueError:
            pass
    if problem:
        raise RuleViolation(
            f"InvalidBucketName: {name!r} {problem}",
            field="name",
            hint="use 3-63 lower-case letters, digits and hyphens, e.g. acme-invoices-2026",
        )


def _bucket(ctx: Ctx, bucket_id: str) -> Bucket:
    return ctx.get(Bucket, bucket_id, field="bucket_id")


def _current(ctx: Ctx, bucket: Bucket, key: str) -> ObjectVersion | None:
    return ctx.first(ObjectVersion, bucket_id=bucket.id, key=key, is_latest=True)


def _version_id(ctx: Ctx, bucket: Bucket) -> str:
    if bucket.versioning == "Enabled":
        return "".join(ctx.rng.choice(_VERSION_CHARS) for _ in range(32))
    return "null"


def _etag(bucket: Bucket, key: str, size: int, version: str) -> str:
    return '"' + hashlib.md5(f"{bucket.name}/{key}:{size}:{version}".encode()).hexdigest() + '"'


def _new_version(ctx: Ctx, bucket: Bucket, key: str, **fields: Any) -> ObjectVersion:
    """Write a new current version of ``key``: the old current one becomes noncurrent, a ``null`` one is replaced."""
    version = _version_id(ctx, bucket)
    for old in ctx.where(ObjectVersion, bucket_id=bucket.id, key=key):
        if bucket.versioning == "Disabled" or (old.version_id == "null" and version == "null"):
            ctx.delete(old)
        elif old.is_latest:
            ctx.update(old, is_latest=False, noncurrent_since=ctx.now())
    return ctx.create(ObjectVersion, bucket_id=bucket.id, key=key, version_id=version, is_latest=True, **fields)


def _no_public(bucket: Bucket, acl: str) -> None:
    if acl in PUBLIC_ACLS and bucket.block_public_access:
        raise RuleViolation(
            f"AccessDenied: Block Public Access is on for {bucket.name}; the {acl} ACL is refused",
            field="acl",
            hint="keep the object private and share it with objectstore__presign_url, "
            "or turn Block Public Access off with objectstore__put_public_access_block",
        )


def _version(ctx: Ctx, bucket: Bucket, key: str, version_id: str | None) -> ObjectVersion:
    """The named version of ``key`` (or its current one), refusing delete markers as S3 does."""
    if version_id is None:
        current = _current(ctx, bucket, key)
        if current is None or current.is_delete_marker:
            why = "its current version is a delete marker" if current else "there is no such key"
            raise NotFound(
                f"NoSuchKey: {key} in {bucket.name} ({why})",
                field="key",
                hint="list the key's versions with objectstore__list_object_versions to read or restore an older one",
            )
        return current
    found = ctx.first(ObjectVersion, bucket_id=bucket.id, key=key, version_id=version_id)
    if found is None:
        raise NotFound(
            f"NoSuchVersion: {key} in {bucket.name} has no version {version_id}",
            field="version_id",
            hint="list the key's versions with objectstore__list_object_versions",
        )
    if found.is_delete_marker:
        raise RuleViolation(
            f"MethodNotAllowed: version {version_id} of {key} is a delete marker and has no content",
            field="version_id",
            hint="name an earlier version, or delete the marker to restore the object",
        )
    return found


# -- examples ---------------------------------------------------------------------------------


def _example_create_bucket(ctx: Ctx) -> dict[str, Any] | None:
    base = ctx.population.home.domain.split(".")[0].lower()
    return {
        "name": f"{base}-quarterly-reports",
        "region": "eu-west-1",
        "owner_email": ctx.population.employees[0].email,
    }


def _example_object(ctx: Ctx, *, archived: bool | None = None) -> ObjectVersion | None:
    for obj in ctx.where(ObjectVersion, is_latest=True, is_delete_marker=False):
        if archived is None or (obj.storage_class in ARCHIVED) == archived:
            return obj
    return None


def _example_put(ctx: Ctx) -> dict[str, Any] | None:
    bucket = ctx.first(Bucket, versioning="Enabled")
    if bucket is None:
        return None
    return {
        "bucket_id": bucket.id,
        "key": "reports/2026/q1-summary.pdf",
        "size": 482_113,
        "content_type": "application/pdf",
        "uploaded_by": bucket.owner_email,
    }


def _example_head(ctx: Ctx) -> dict[str, Any] | None:
    obj = _example_object(ctx)
    return None if obj is None else {"bucket_id": obj.bucket_id, "key": obj.key}


def _example_acl(ctx: Ctx) -> dict[str, Any] | None:
    obj = _example_object(ctx)
    return None if obj is None else {"bucket_id": obj.bucket_id, "key": obj.key, "acl": "bucket-owner-full-control"}


def _example_presign(ctx: Ctx) -> dict[str, Any] | None:
    obj = _example_object(ctx, archived=False)
    if obj is None:
        return None
    return {"bucket_id": obj.bucket_id, "key": obj.key, "method": "GET", "expires_in_seconds": 3600}


def _example_rule(ctx: Ctx) -> dict[str, Any] | None:
    bucket = ctx.first(Bucket, versioning="Disabled")
    if bucket is None:
        return None
    return {
        "bucket_id": bucket.id,
        "rule_name": "archive-exports",
        "prefix": "exports/",
        "transition_days": 60,
        "transition_storage_class": "GLACIER",
        "expiration_days": 365,
    }


def _example_lifecycle(ctx: Ctx) -> dict[str, Any] | None:
    rule = ctx.first(LifecycleRule, enabled=True)
    return None if rule is None else {"bucket_id": rule.bucket_id}


def _example_bpa(ctx: Ctx) -> dict[str, Any] | None:
    bucket = ctx.first(Bucket, block_public_access=False)
    return None if bucket is None else {"bucket_id": bucket.id, "block": True}


# -- buckets ----------------------------------------------------------------------------------


@service.tool(intent="create a storage bucket", write=True, example=_example_create_bucket)
def create_bucket(
    ctx: Ctx,
    name: BucketName,
    region: Region,
    owner_email: Email,
    versioning: Literal["Disabled", "Enabled"] = "Disabled",
    block_public_access: bool = True,
) -> Bucket:
    """Create a bucket in a region.

    The name must follow the DNS naming rules (3-63 lower-case letters, digits,
    dots and hyphens; letter or digit first and last; no adjacent dots; not an
    IP address; no reserved prefix or suffix) and be unique across all
    accounts; an account has at most 100 buckets.

    Args:
        name: The bucket's name.
        region: Where it stores its objects.
        owner_email: The staff member who owns it.
        versioning: Enabled to keep every version from the start.
        block_public_access: Whether to refuse public ACLs (recommended, on by default).
    """
    check_bucket_name(name)
    taken = ctx.first(Bucket, name=name)
    if taken is not None:
        raise Conflict(
            f"BucketAlreadyExists: the name {name} is taken (bucket names are global)",
            field="name",
            hint="choose another name, e.g. add the team or year to it",
        )
    if sum(1 for _ in ctx.scan(Bucket)) >= MAX_BUCKETS:
        raise RuleViolation(
            f"TooManyBuckets: the account already has {MAX_BUCKETS} buckets",
            field="name",
            hint="delete an empty bucket you no longer need, or use a prefix in an existing bucket",
        )
    return ctx.create(
        Bucket,
        name=name,
        region=region,
        owner_email=owner_email,
        versioning=versioning,
        block_public_access=block_public_access,
    )


@service.tool(
    intent="turn the bucket's versioning on or suspend it",
    write=True,
    example=first_example(Bucket, "bucket_id", where={"versioning": "Disabled"}, status="Enabled"),
)
def set_bucket_versioning(ctx: Ctx, bucket_id: BucketId, status: Literal["Enabled", "Suspended"]) -> Bucket:
    """Enable or suspend a bucket's versioning.

    A bucket that was once versioned cannot go back to unversioned, only be
    suspended: existing versions stay, and new writes replace the ``null``
    version. Suspending a bucket that was never versioned is refused.

    Args:
        bucket_id: The bucket.
        status: Enabled or Suspended.
    """
    bucket = _bucket(ctx, bucket_id)
    if bucket.versioning == status:
        raise Conflict(f"versioning of {bucket.name} is already {status}", field="status", hint="nothing to do")
    if status == "Suspended" and bucket.versioning == "Disabled":
        raise RuleViolation(
            f"{bucket.name} was never versioned; there is nothing to suspend",
            field="status",
            hint="enable versioning first if you want to keep old versions",
        )
    return ctx.update(bucket, versioning=status)


@service.tool(intent="change the bucket's public access block", write=True, example=_example_bpa)
def put_public_access_block(ctx: Ctx, bucket_id: BucketId, block: bool) -> Bucket:
    """Turn Block Public Access on or off for a bucket.

    Turning it on makes every public ACL in the bucket private again.

    Args:
        bucket_id: The bucket.
        block: True to refuse public ACLs, False to allow them.
    """
    bucket = _bucket(ctx, bucket_id)
    if bucket.block_public_access == block:
        state = "on" if block else "off"
        raise Conflict(f"Block Public Access is already {state} for {bucket.name}", field="block", hint="no change")
    if block:
        for obj in ctx.where(ObjectVersion, bucket_id=bucket.id):
            if obj.acl in PUBLIC_ACLS:
                ctx.update(obj, acl="private")
    return ctx.update(bucket, block_public_access=block)


# -- objects ----------------------------------------------------------------------------------


@service.tool(intent="upload the object", write=True, example=_example_put)
def put_object(
    ctx: Ctx,
    bucket_id: BucketId,
    key: ObjectKey,
    size: Annotated[int, Field(ge=0)],
    content_type: ContentType,
    uploaded_by: Email,
    storage_class: StorageClass = "STANDARD",
    acl: Acl = "private",
) -> ObjectVersion:
    """Write an object (PutObject).

    In a versioned bucket the write becomes a new current version; in an
    unversioned or suspended one it replaces the ``null`` version. One PUT takes
    at most 5 GB; keys are at most 1,024 bytes in UTF-8; public ACLs are refused
    while Block Public Access is on.

    Args:
        bucket_id: The bucket.
        key: The object's key.
        size: Its size in bytes.
        content_type: Its MIME type.
        uploaded_by: The staff member writing it.
        storage_class: The storage class to write it in.
        acl: A canned ACL.
    """
    bucket = _bucket(ctx, bucket_id)
    if len(key.encode()) > 1024:
        raise RuleViolation("KeyTooLongError: a key is at most 1,024 bytes", field="key", hint="shorten the key")
    if size > MAX_PUT_BYTES:
        raise RuleViolation(
            f"EntityTooLarge: {size} bytes; one PUT takes at most 5 GB ({MAX_PUT_BYTES} bytes)",
            field="size",
            hint="split the file into parts of at most 5 GB and upload them as separate keys",
        )
    _no_public(bucket, acl)
    n = ctx.next_number(ObjectVersion, "write")
    return _new_version(
        ctx,
        bucket,
        key,
        size=size,
        content_type=content_type,
        etag=_etag(bucket, key, size, str(n)),
        storage_class=storage_class,
        acl=acl,
        uploaded_by=uploaded_by,
    )


@service.tool(intent="look up the object's metadata", example=_example_head)
def head_object(ctx: Ctx, bucket_id: BucketId, key: ObjectKey, version_id: str | None = None) -> ObjectVersion:
    """An object's metadata (HeadObject): size, content type, ETag, storage class, ACL.

    The current version unless one is named; a key whose current version is a
    delete marker reads as missing, and a delete marker named by version is
    refused (405).

    Args:
        bucket_id: The bucket.
        key: The object's key.
        version_id: A version to read instead of the current one.
    """
    return _version(ctx, _bucket(ctx, bucket_id), key, version_id)


class DeleteResult(BaseModel):
    """What a DeleteObject did."""

    key: ObjectKey = Field(description="The key.")
    version_id: str = Field(description="The version removed, or the new delete marker's version.")
    delete_marker: bool = Field(description="Whether a delete marker was written (or removed).")
    current: ObjectVersion | None = Field(description="The key's current version afterwards, if it has one.")


@service.tool(
    intent="delete the object",
    write=True,
    destructive=True,
    example=first_example(
        ObjectVersion, None, where={"is_latest": True}, fields={"bucket_id": "bucket_id", "key": "key"}
    ),
)
def delete_object(ctx: Ctx, bucket_id: BucketId, key: ObjectKey, version_id: str | None = None) -> DeleteResult:
    """Delete an object (DeleteObject).

    Without a version: an unversioned bucket removes the object; a versioned or
    suspended one writes a delete marker that hides it (older versions stay).
    With a version: that version (or delete marker) is removed for good and the
    next newer remaining version becomes current, so deleting the marker
    restores the object.

    Args:
        bucket_id: The bucket.
        key: The object's key.
        version_id: The version to remove for good.
    """
    bucket = _bucket(ctx, bucket_id)
    if version_id is None:
        current = _current(ctx, bucket, key)
        if current is None:
            raise NotFound(f"NoSuchKey: {key} in {bucket.name}", field="key", hint="list the bucket's objects")
        if bucket.versioning == "Disabled":
            ctx.delete(current)
            return DeleteResult(key=key, version_id=current.version_id, delete_marker=False, current=None)
        if current.is_delete_marker:
            raise Conflict(
                f"{key} is already deleted (its current version is a delete marker)",
                field="key",
                hint="name a version_id to remove a version for good, or the marker's to restore the object",
            )
        marker = _new_version(ctx, bucket, key, is_delete_marker=True)
        return DeleteResult(key=key, version_id=marker.version_id, delete_marker=True, current=None)
    target = ctx.first(ObjectVersion, bucket_id=bucket.id, key=key, version_id=version_id)
    if target is None:
        raise NotFound(
            f"NoSuchVersion: {key} in {bucket.name} has no version {version_id}",
            field="version_id",
            hint="list the key's versions with objectstore__list_object_versions",
        )
    ctx.delete(target)
    now_current: ObjectVersion | None = None
    if target.is_latest:
        rest = ctx.where(ObjectVersion, bucket_id=bucket.id, key=key)
        if rest:
            newest = max(rest, key=lambda v: (v.last_modified, v.id))
            now_current = ctx.update(newest, is_latest=True, noncurrent_since=None)
    else:
        now_current = _current(ctx, bucket, key)
    if now_current is not None and now_current.is_delete_marker:
        now_current = None
    return DeleteResult(key=key, version_id=version_id, delete_marker=target.is_delete_marker, current=now_current)


class ObjectListing(BaseModel):
    """A page of ListObjectsV2."""

    contents: list[ObjectVersion] = Field(description="The current objects, in key order.")
    common_prefixes: list[str] = Field(description="Keys rolled up at the delimiter, like folders.")
    key_count: int = Field(description="How many keys and prefixes the page holds.")
    is_truncated: bool = Field(description="Whether more keys follow.")
    next_start_after: ObjectKey | None = Field(description="Pass as start_after for the next page.")


@service.tool(
    intent="list the objects in the bucket",
    example=first_example(Bucket, "bucket_id", where={"versioning": "Disabled"}, delimiter="/"),
)
def list_objects(
    ctx: Ctx,
    bucket_id: BucketId,
    prefix: str = "",
    delimiter: Annotated[str, StringConstraints(max_length=1)] | None = None,
    start_after: ObjectKey | None = None,
    max_keys: Annotated[int, Field(ge=1, le=1000)] = 1000,
) -> ObjectListing:
    """List a bucket's current objects (ListObjectsV2), skipping deleted keys.

    With a delimiter, keys that hold it after the prefix roll up into common
    prefixes (folders).

    Args:
        bucket_id: The bucket.
        prefix: Only keys that start with it.
        delimiter: The character that groups keys, usually "/".
        start_after: Only keys after it (for the next page).
        max_keys: At most this many keys and prefixes (1-1000).
    """
    bucket = _bucket(ctx, bucket_id)
    live = sorted(
        (
            v
            for v in ctx.where(ObjectVersion, bucket_id=bucket.id, is_latest=True, is_delete_marker=False)
            if v.key.startswith(prefix) and (start_after is None or v.key > start_after)
        ),
        key=lambda v: v.key,
    )
    contents: list[ObjectVersion] = []
    prefixes: list[str] = []
    last: str | None = None
    truncated = False
    for obj in live:
        rest = obj.key[len(prefix) :]
        if delimiter and delimiter in rest:
            folder = prefix + rest.split(delimiter, 1)[0] + delimiter
            if folder in prefixes:
                continue
            if len(contents) + len(prefixes) >= max_keys:
                truncated = True
                break
            prefixes.append(folder)
        else:
            if len(contents) + len(prefixes) >= max_keys:
                truncated = True
                break
            contents.append(obj)
        last = obj.key
    return ObjectListing(
        contents=contents,
        common_prefixes=prefixes,
        key_count=len(contents) + len(prefixes),
        is_truncated=truncated,
        next_start_after=last if truncated else None,
    )


@service.tool(intent="change the object's access control", write=True, example=_example_acl)
def put_object_acl(
    ctx: Ctx, bucket_id: BucketId, key: ObjectKey, acl: Acl, version_id: str | None = None
) -> ObjectVersion:
    """Set an object's canned ACL (PutObjectAcl); public ACLs are refused while Block Public Access is on.

    Args:
        bucket_id: The bucket.
        key: The object's key.
        acl: The canned ACL.
        version_id: A version to change instead of the current one.
    """
    bucket = _bucket(ctx, bucket_id)
    obj = _version(ctx, bucket, key, version_id)
    _no_public(bucket, acl)
    if obj.acl == acl:
        raise Conflict(f"{key} already has the {acl} ACL", field="acl", hint="no change")
    return ctx.update(obj, acl=acl)


@service.tool(intent="make a temporary download or upload link", write=True, example=_example_presign)
def presign_url(
    ctx: Ctx,
    bucket_id: BucketId,
    key: ObjectKey,
    method: Method,
    expires_in_seconds: Annotated[int, Field(ge=1)],
    issued_to_email: Email | None = None,
) -> PresignedUrl:
    """Sign a link that lets its holder GET (download) or PUT (upload) one object without credentials.

    A signature lives at most seven days (604,800 seconds). A download link
    needs a current, readable object: a deleted key or an object archived in
    GLACIER or DEEP_ARCHIVE (InvalidObjectState) cannot be read.

    Args:
        bucket_id: The bucket.
        key: The object's key.
        method: GET to download, PUT to upload.
        expires_in_seconds: How long the link works (1-604800 seconds).
        issued_to_email: Who the link is for.
    """
    bucket = _bucket(ctx, bucket_id)
    if expires_in_seconds > MAX_PRESIGN_SECONDS:
        raise RuleViolation(
            f"a presigned URL expires after at most 7 days ({MAX_PRESIGN_SECONDS} seconds), not {expires_in_seconds}",
            field="expires_in_seconds",
            hint="issue a link of at most 604800 seconds and sign a new one when it runs out",
        )
    if method == "GET":
        obj = _version(ctx, bucket, key, None)
        if obj.storage_class in ARCHIVED:
            raise RuleViolation(
                f"InvalidObjectState: {key} is archived in {obj.storage_class} and cannot be read",
                field="key",
                hint="restore it to a readable storage class by writing it again, then sign the link",
            )
    expires = ctx.now() + dt.timedelta(seconds=expires_in_seconds)
    signature = hashlib.sha256(f"{bucket.name}/{key}:{method}:{expires.isoformat()}".encode()).hexdigest()
    url = (
        f"https://{bucket.name}.{bucket.region}.{HOST}/{quote(key)}"
        f"?X-Strata-Expires={expires_in_seconds}&X-Strata-Signature={signature[:40]}"
    )
    return ctx.create(
        PresignedUrl,
        bucket_id=bucket.id,
        key=key,
        method=method,
        url=url,
        issued_to_email=issued_to_email,
        expires_at=expires,
    )


# -- lifecycle --------------------------------------------------------------------------------


@service.tool(intent="add a lifecycle rule to the bucket", write=True, example=_example_rule)
def put_lifecycle_rule(
    ctx: Ctx,
    bucket_id: BucketId,
    rule_name: RuleName,
    prefix: str = "",
    transition_days: Annotated[int, Field(ge=0)] | None = None,
    transition_storage_class: StorageClass | None = None,
    expiration_days: Annotated[int, Field(ge=1)] | None = None,
    noncurrent_expiration_days: Annotated[int, Field(ge=1)] | None = None,
) -> LifecycleRule:
    """Add a lifecycle rule: move aging objects under a prefix to a colder class and/or expire them.

    A rule needs at least one action; its ID is unique in the bucket, which
    holds at most 1,000 rules. A transition names a class colder than STANDARD
    and its days; STANDARD_IA and ONEZONE_IA take objects at least 30 days old;
    the expiration comes after the transition.

    Args:
        bucket_id: The bucket.
        rule_name: The rule's ID.
        prefix: The key prefix it applies to.
        transition_days: Age in days at which objects move.
        transition_storage_class: The class they move to.
        expiration_days: Age in days at which objects expire.
        noncurrent_expiration_days: Days after which noncurrent versions are removed.
    """
    bucket = _bucket(ctx, bucket_id)
    existing = ctx.where(LifecycleRule, bucket_id=bucket.id)
    if any(r.rule_name == rule_name for r in existing):
        raise Conflict(
            f"{bucket.name} already has a lifecycle rule {rule_name}",
            field="rule_name",
            hint="choose another ID, or delete the old rule first",
        )
    if len(existing) >= MAX_RULES:
        raise RuleViolation(f"{bucket.name} has {MAX_RULES} rules", field="rule_name", hint="merge or delete rules")
    if transition_days is None and expiration_days is None and noncurrent_expiration_days is None:
        raise RuleViolation(
            "MalformedXML: a lifecycle rule needs at least one action",
            field="expiration_days",
            hint="give expiration_days, transition_days with a class, or noncurrent_expiration_days",
        )
    if (transition_days is None) != (transition_storage_class is None):
        raise RuleViolation(
            "a transition needs both its days and its storage class",
            field="transition_storage_class",
            hint="give transition_days and transition_storage_class together",
        )
    if transition_storage_class == "STANDARD":
        raise RuleViolation(
            "InvalidArgument: objects cannot transition to STANDARD",
            field="transition_storage_class",
            hint="pick a colder class such as STANDARD_IA or GLACIER",
        )
    if transition_storage_class is not None and transition_days is not None:
        least = MIN_TRANSITION_DAYS.get(transition_storage_class, 0)
        if transition_days < least:
            raise RuleViolation(
                f"InvalidArgument: {transition_storage_class} takes objects at least {least} days old",
                field="transition_days",
                hint=f"set transition_days to {least} or more",
            )
        if expiration_days is not None and expiration_days <= transition_days:
            raise RuleViolation(
                f"InvalidArgument: expiration ({expiration_days} days) must come after the transition "
                f"({transition_days} days)",
                field="expiration_days",
                hint="expire later than the transition, or drop the transition",
            )
    return ctx.create(
        LifecycleRule,
        bucket_id=bucket.id,
        rule_name=rule_name,
        prefix=prefix,
        transition_days=transition_days,
        transition_storage_class=transition_storage_class,
        expiration_days=expiration_days,
        noncurrent_expiration_days=noncurrent_expiration_days,
    )


class LifecycleRun(BaseModel):
    """What applying a bucket's lifecycle rules did."""

    bucket_id: BucketId = Field(description="The bucket.")
    expired: list[ObjectKey] = Field(description="Keys that expired (removed, or hidden by a delete marker).")
    transitioned: list[ObjectKey] = Field(description="Keys moved to a colder storage class.")
    noncurrent_removed: int = Field(description="How many noncurrent versions were removed for good.")


@service.tool(intent="apply the bucket's lifecycle rules now", write=True, example=_example_lifecycle)
def apply_lifecycle(ctx: Ctx, bucket_id: BucketId) -> LifecycleRun:
    """Run a bucket's enabled lifecycle rules against its objects as of today.

    Current objects older than a rule's expiration expire (an unversioned bucket
    removes them, a versioned one writes a delete marker); older than its
    transition they move to the colder class (never back to a warmer one);
    noncurrent versions older than the noncurrent expiration are removed.

    Args:
        bucket_id: The bucket.
    """
    bucket = _bucket(ctx, bucket_id)
    active = ctx.where(LifecycleRule, bucket_id=bucket.id, enabled=True)
    if not active:
        raise RuleViolation(
            f"{bucket.name} has no enabled lifecycle rule",
            field="bucket_id",
            hint="add one with objectstore__put_lifecycle_rule",
        )
    now = ctx.now()
    expired: list[str] = []
    moved: list[str] = []
    removed = 0
    for rule in active:
        for obj in ctx.where(ObjectVersion, bucket_id=bucket.id):
            live = ctx.find(ObjectVersion, obj.id)
            if live is None or not live.key.startswith(rule.prefix) or live.is_delete_marker:
                continue
            age = (now - live.last_modified).days
            if not live.is_latest:
                since = live.noncurrent_since or live.last_modified
                if (
                    rule.noncurrent_expiration_days is not None
                    and (now - since).days >= rule.noncurrent_expiration_days
                ):
                    ctx.delete(live)
                    removed += 1
                continue
            if rule.expiration_days is not None and age >= rule.expiration_days:
                if bucket.versioning == "Disabled":
                    ctx.delete(live)
                else:
                    _new_version(ctx, bucket, live.key, is_delete_marker=True)
                expired.append(live.key)
            elif rule.transition_storage_class is not None and rule.transition_days is not None:
                target = rule.transition_storage_class
                if age >= rule.transition_days and CLASS_ORDER.index(target) > CLASS_ORDER.index(live.storage_class):
                    ctx.update(live, storage_class=target)
                    moved.append(live.key)
    return LifecycleRun(bucket_id=bucket.id, expired=expired, transitioned=moved, noncurrent_removed=removed)


# -- seed -------------------------------------------------------------------------------------


def _ago(s: SeedContext, days: float) -> dt.datetime:
    return s.now - dt.timedelta(days=days)


def _seed_object(
    s: SeedContext,
    bucket: Bucket,
    key: str,
    size: int,
    content_type: str | None,
    when: dt.datetime,
    by: str | None,
    *,
    latest: bool = True,
    marker: bool = False,
    storage_class: str = "STANDARD",
    acl: str = "private",
    noncurrent_since: dt.datetime | None = None,
) -> ObjectVersion:
    version = "null" if bucket.versioning == "Disabled" else "".join(s.rng.choice(_VERSION_CHARS) for _ in range(32))
    return s.create(
        ObjectVersion,
        bucket_id=bucket.id,
        key=key,
        version_id=version,
        is_latest=latest,
        is_delete_marker=marker,
        size=0 if marker else size,
        content_type=None if marker else content_type,
        etag="" if marker else _etag(bucket, key, size, version),
        storage_class=storage_class,
        acl=acl,
        uploaded_by=by,
        noncurrent_since=noncurrent_since,
        last_modified=when,
    )


@service.seeder
def seed(s: SeedContext) -> None:
    """The company's buckets: invoices per customer, public web assets, versioned contracts, logs, an empty one."""
    pop = s.population
    home = pop.home
    base = re.sub(r"[^a-z0-9-]", "-", home.domain.split(".")[0].lower()).strip("-") or "company"
    region = REGION_BY_COUNTRY.get(home.place.country, "us-east-1")
    engineers = pop.staff("Engineering", fallback=3)
    finance = pop.staff("Finance", fallback=3)
    sales = pop.staff("Sales", fallback=3)

    def bucket(suffix: str, owner: str, days: int, **extra: Any) -> Bucket:
        return s.create(
            Bucket,
            name=f"{base}-{suffix}",
            region=extra.pop("region", region),
            owner_email=owner,
            created_at=_ago(s, days),
            **extra,
        )

    invoices = bucket("invoices", finance[0].email, 900)
    assets = bucket("web-assets", engineers[0].email, 700, block_public_access=False, region="us-east-1")
    contracts = bucket("contracts", sales[0].email, 500, versioning="Enabled")
    uploads = bucket("customer-uploads", engineers[-1].email, 400, versioning="Suspended")
    logs = bucket("app-logs", engineers[0].email, 300)
    bucket("scratch", engineers[-1].email, 20)

    customers = list(pop.customers)[:12]
    for k, company in enumerate(customers):
        for m in range(1 + k % 3):
            when = _ago(s, 20 + 45 * m + 3 * k)
            key = f"{when.year}/{company.domain}/INV-{when.year}-{1000 + 17 * k + m}.pdf"
            _seed_object(
                s,
                invoices,
                key,
                40_000 + 911 * k + 77 * m,
                "application/pdf",
                when,
                finance[k % len(finance)].email,
                storage_class="STANDARD_IA" if m == 2 else "STANDARD",
            )
    for k, (key, ctype, size) in enumerate(
        (
            ("index.html", "text/html", 18_422),
            ("css/site.css", "text/css", 9_310),
            ("img/logo.png", "image/png", 52_004),
            ("img/hero.jpg", "image/jpeg", 840_112),
            ("downloads/price-list-2026.pdf", "application/pdf", 310_220),
        )
    ):
        _seed_object(s, assets, key, size, ctype, _ago(s, 5 + 11 * k), engineers[0].email, acl="public-read")
    for k, company in enumerate(customers[:6]):
        key = f"msa/{company.domain}/master-services-agreement.pdf"
        first = _ago(s, 200 - 10 * k)
        second = _ago(s, 60 - 5 * k)
        owner = sales[k % len(sales)].email
        _seed_object(
            s, contracts, key, 120_500 + k, "application/pdf", first, owner, latest=False, noncurrent_since=second
        )
        current = _seed_object(s, contracts, key, 124_800 + k, "application/pdf", second, owner)
        if k == 4:  # an agreement deleted by mistake: its delete marker hides the signed version
            s.update(current, is_latest=False, noncurrent_since=_ago(s, 2))
            _seed_object(s, contracts, key, 0, None, _ago(s, 2), owner, marker=True)
    consumers = list(pop.consumers)[:8]
    for k, person in enumerate(consumers):
        local = re.sub(r"[^a-z0-9]", "-", person.email.split("@")[0].lower())
        _seed_object(
            s,
            uploads,
            f"returns/{local}/photo-{k + 1}.jpg",
            1_200_000 + 3_001 * k,
            "image/jpeg",
            _ago(s, 3 + 4 * k),
            engineers[-1].email,
        )
    for k in range(8):
        when = _ago(s, 10 * k + 1)
        _seed_object(
            s,
            logs,
            f"app/{when.date().isoformat()}.log.gz",
            3_000_000 + 12_345 * k,
            "application/gzip",
            when,
            engineers[0].email,
            storage_class="GLACIER" if k >= 6 else "STANDARD",
        )
    s.create(
        LifecycleRule,
        bucket_id=logs.id,
        rule_name="archive-then-expire",
        prefix="app/",
        transition_days=45,
        transition_storage_class="GLACIER",
        expiration_days=60,
        created_at=_ago(s, 300),
    )
    s.create(
        LifecycleRule,
        bucket_id=invoices.id,
        rule_name="infrequent-after-90",
        prefix="",
        transition_days=90,
        transition_storage_class="STANDARD_IA",
        created_at=_ago(s, 800),
    )
    s.create(
        LifecycleRule,
        bucket_id=contracts.id,
        rule_name="drop-old-drafts",
        noncurrent_expiration_days=90,
        enabled=False,
        created_at=_ago(s, 400),
    )
    for k, company in enumerate(customers[:4]):
        contact = pop.first_contact(company)
        objs = [o for o in s.records(ObjectVersion) if o.bucket_id == invoices.id and company.domain in o.key]
        if contact is None or not objs:
            continue
        issued = _ago(s, 1 + k)
        expires = issued + dt.timedelta(days=7 if k % 2 else 1)
        s.create(
            PresignedUrl,
            bucket_id=invoices.id,
            key=objs[0].key,
            method="GET",
            url=f"https://{invoices.name}.{invoices.region}.{HOST}/{quote(objs[0].key)}?X-Strata-Expires="
            f"{int((expires - issued).total_seconds())}&X-Strata-Signature={hashlib.sha256(objs[0].key.encode()).hexdigest()[:40]}",
            issued_to_email=contact.email,
            expires_at=expires,
            issued_at=issued,
        )
