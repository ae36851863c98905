"""Quillstack CMS: locales, content types, entries with draft and published versions, and assets.

Modeled on the Contentful Content Management and Content Delivery APIs
(Locales with fallbacks, Content types with typed and localized fields,
Entries and Assets with version-locked updates, publish / unpublish / archive,
links between entries and assets) and the WordPress REST API's post statuses:
a field change names the version it was made on and is refused when the entry
moved on; values must match the field's type and only localized fields take
values in other locales than the default; an entry is published only when its
required fields are filled in the default locale and everything it links to is
published; a published entry keeps serving its published snapshot while new
draft changes wait (status changed); an entry another published entry links to
cannot be unpublished; only unpublished entries are archived and only
unpublished or archived ones deleted; the default locale and a locale others
fall back to cannot be deleted; the delivery view resolves each field along the
locale's fallback chain.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, FileLink, IdOf, Language, Quantity, Sku, Text, Title, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "cms",
    title="Quillstack CMS",
    category="content_management",
    modeled_on="Contentful Content Management API and Content Delivery API (Locales, Content types, Entries, "
    "Assets, versions, publish/unpublish/archive) with WordPress REST API post statuses",
    description="A headless content management system: locales with fallbacks, content types with typed "
    "localized fields, entries edited as version-locked drafts and published as snapshots, media assets, "
    "and a delivery view that resolves each field along the locale fallback chain.",
)

LocaleId = Annotated[str, IdOf("cms.locale")]
ContentTypeId = Annotated[str, IdOf("cms.content_type")]
EntryId = Annotated[str, IdOf("cms.entry")]
AssetId = Annotated[str, IdOf("cms.asset")]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=80)]
ApiId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-zA-Z0-9_]{0,63}$")]
FieldName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
Mime = Literal["image/jpeg", "image/png", "image/webp", "image/svg+xml", "application/pdf", "video/mp4"]

FieldType = Literal["text", "rich_text", "number", "date", "boolean", "url", "email", "sku", "asset", "entry"]
EntryStatus = Literal["draft", "published", "changed", "archived"]
AssetStatus = Literal["draft", "published", "archived"]
VALUE_OF: dict[str, str] = {
    "text": "text",
    "rich_text": "text",
    "number": "number",
    "date": "date",
    "boolean": "boolean",
    "url": "url",
    "email": "email",
    "sku": "sku",
    "asset": "asset_id",
    "entry": "entry_id",
}
"""Which value slot holds a value of each field type."""
SLOTS: tuple[str, ...] = ("text", "number", "date", "boolean", "url", "email", "sku", "asset_id", "entry_id")


class Locale(Record):
    """A language content is written in; the default locale is the fallback of last resort."""

    id: LocaleId
    code: Language
    """ISO 639-1 code; unique."""
    name: Title
    """Display name."""
    default: bool = False
    """Whether it is the default locale (exactly one is)."""
    fallback_code: Language | None = None
    """Locale whose value is served when this one has none; null falls back to the default."""


class FieldDef(BaseModel):
    """One field of a content type."""

    name: FieldName = Field(description="Field id (lower case).")
    type: FieldType = Field(description="text, rich_text, number, date, boolean, url, email, sku, asset or entry.")
    required: bool = Field(default=False, description="Needed in the default locale to publish.")
    localized: bool = Field(default=False, description="Whether it takes a value per locale.")


class ContentType(Record):
    """The schema of a kind of entry."""

    id: ContentTypeId
    name: Title
    """Display name."""
    api_id: ApiId
    """Identifier used by the API; unique."""
    description: Text = ""
    """What entries of this type are."""
    fields: list[FieldDef] = Field(min_length=1, max_length=30)
    """Its fields."""
    display_field: FieldName
    """Text field used as an entry's title."""


class FieldValue(BaseModel):
    """The value of one field in one locale; exactly one value slot is set."""

    field: FieldName = Field(description="The field.")
    locale: Language = Field(description="The locale.")
    text: Text | None = Field(default=None, description="Value of a text or rich_text field.")
    number: float | None = Field(default=None, description="Value of a number field.")
    date: Date | None = Field(default=None, description="Value of a date field.")
    boolean: bool | None = Field(default=None, description="Value of a boolean field.")
    url: Url | None = Field(default=None, description="Value of a url field.")
    email: Email | None = Field(default=None, description="Value of an email field.")
    sku: Sku | None = Field(default=None, description="Value of a sku field.")
    asset_id: AssetId | None = Field(default=None, description="Linked asset of an asset field.")
    entry_id: EntryId | None = Field(default=None, description="Linked entry of an entry field.")


class Entry(Timestamped):
    """A piece of content: its draft fields and the snapshot last published."""

    id: EntryId
    content_type_id: ContentTypeId
    """Its content type."""
    title: Title | None = None
    """Value of the display field in the default locale."""
    slug: Slug
    """URL slug; unique within the content type."""
    author_email: Email
    """Who created it."""
    status: EntryStatus = "draft"
    """draft, published, changed (published with newer draft changes) or archived."""
    version: Annotated[int, Field(ge=1)] = 1
    """Current version; every change adds one. Changes must name it."""
    fields: list[FieldValue] = Field(default_factory=list)
    """Draft field values."""
    published_fields: list[FieldValue] = Field(default_factory=list)
    """Field values as last published."""
    published_version: int | None = None
    """Version that was published."""
    first_published_at: DateTime | None = None
    """When it was first published."""
    published_at: DateTime | None = None
    """When it was last published."""


class Asset(Record):
    """An uploaded media file."""

    id: AssetId
    title: Title
    """Title."""
    file_name: Annotated[str, StringConstraints(min_length=1, max_length=120, strip_whitespace=True)]
    """File name."""
    mime_type: Mime
    """Media type such as image/jpeg."""
    url: FileLink
    """Where the file is served."""
    size_bytes: Quantity
    """Size in bytes."""
    uploaded_by: Email
    """Who uploaded it."""
    status: AssetStatus = "draft"
    """draft, published or archived."""
    created_at: Annotated[DateTime, CREATED]
    """When it was uploaded."""


# -- guards --------------------------------------------------------------------------------------------


def _guard_locale(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Locale, code=new.code):
        if other.id != new.id:
            raise Conflict(f"locale {new.code} already exists", field="code", hint="use the existing locale")
    if new.fallback_code is not None:
        if new.fallback_code == new.code:
            raise RuleViolation("a locale cannot fall back to itself", field="fallback_code", hint="pick another")
        chain = new.fallback_code
        seen = {new.code}
        while chain is not None:
            target = ctx.first(Locale, code=chain)
            if target is None:
                raise RuleViolation(
                    f"no locale {chain}", field="fallback_code", hint="create that locale first or pick another"
                )
            if target.code in seen:
                raise RuleViolation(
                    "the fallbacks would form a loop", field="fallback_code", hint="point the chain at the default"
                )
            seen.add(target.code)
            chain = target.fallback_code


def _guard_locale_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.default:
        raise RuleViolation(
            "the default locale cannot be deleted", field="locale_id", hint="content falls back to it; keep it"
        )
    users = ctx.where(Locale, fallback_code=old.code)
    if users:
        raise RuleViolation(
            f"locale {users[0].code} falls back to {old.code}",
            field="locale_id",
            hint="change that locale's fallback first",
        )


def _guard_content_type(ctx: Ctx, new: Any, old: Any) -> None:
    names = [f.name for f in new.fields]
    if len(set(names)) != len(names):
        raise RuleViolation("two fields share a name", field="fields", hint="give every field its own name")
    shown = next((f for f in new.fields if f.name == new.display_field), None)
    if shown is None or shown.type != "text":
        raise RuleViolation(
            f"the display field {new.display_field!r} must be one of the type's text fields",
            field="display_field",
            hint="name a text field",
        )
    for other in ctx.where(ContentType, api_id=new.api_id):
        if other.id != new.id:
            raise Conflict(f"a content type {new.api_id!r} exists", field="api_id", hint="choose another api_id")


def _guard_content_type_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Entry, content_type_id=old.id) is not None:
        raise RuleViolation(
            f"content type {old.name!r} still has entries",
            field="content_type_id",
            hint="delete its entries first",
        )


def _guard_entry_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status in ("published", "changed"):
        raise RuleViolation(
            f"entry {old.id} is published", field="entry_id", hint="unpublish it with cms__unpublish_entry first"
        )


def _guard_asset_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "published":
        raise RuleViolation(
            f"asset {old.title!r} is published", field="asset_id", hint="published assets cannot be deleted"
        )
    for entry in ctx.scan(Entry):
        if any(v.asset_id == old.id for v in entry.fields):
            raise RuleViolation(
                f"entry {entry.id} links to the asset", field="asset_id", hint="remove the link from that entry first"
            )


locales = service.resource(
    Locale,
    name="locale",
    plural="locales",
    prefix="loc",
    create=False,
    get=False,
    filters=("default",),
    update=("name", "fallback_code"),
    guard_update=_guard_locale,
    guard_delete=_guard_locale_delete,
)
content_types = service.resource(
    ContentType,
    name="content_type",
    plural="content_types",
    prefix="ct",
    create=False,
    filters=("api_id",),
    search=("name", "description"),
    guard_delete=_guard_content_type_delete,
)
entries = service.resource(
    Entry,
    name="entry",
    plural="entries",
    prefix="ent",
    create=False,
    filters=("content_type_id", "status", "author_email", "slug"),
    search=("title", "slug"),
    guard_delete=_guard_entry_delete,
)
assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="ast",
    create=("title", "file_name", "mime_type", "url", "size_bytes", "uploaded_by"),
    filters=("status", "mime_type", "uploaded_by"),
    search=("title", "file_name"),
    transitions={
        "publish": Transition("status", ("draft",), "published", "publish the asset"),
    },
    guard_delete=_guard_asset_delete,
)


# -- helpers ----------------------------------------------------------------------------------------------


def _default_code(ctx: Ctx) -> str:
    loc = ctx.first(Locale, default=True)
    return loc.code if loc else "en"


def _chain(ctx: Ctx, code: str) -> list[str]:
    """The locale and its fallbacks, ending with the default locale."""
    out: list[str] = []
    current: str | None = code
    while current is not None and current not in out:
        out.append(current)
        loc = ctx.first(Locale, code=current)
        current = loc.fallback_code if loc else None
    default = _default_code(ctx)
    if default not in out:
        out.append(default)
    return out


def _filled(value: FieldValue) -> bool:
    return any(getattr(value, slot) is not None for slot in SLOTS)


def _links(values: list[FieldValue]) -> tuple[set[str], set[str]]:
    return {v.asset_id for v in values if v.asset_id}, {v.entry_id for v in values if v.entry_id}


def _check_version(entry: Entry, version: int) -> None:
    if version != entry.version:
        raise Conflict(
            f"entry {entry.id} is at version {entry.version}, not {version}",
            field="version",
            hint="get the entry again and retry with its current version",
        )


def _title_of(ctx: Ctx, ctype: ContentType, values: list[FieldValue]) -> str | None:
    default = _default_code(ctx)
    for v in values:
        if v.field == ctype.display_field and v.locale == default and v.text:
            return v.text[:200]
    return None


PARAM_OF_SLOT: dict[str, str] = {"entry_id": "linked_entry_id"}


def _validate(ctx: Ctx, ctype: ContentType, value: FieldValue, blame: str | None = None) -> None:
    """Check a value against its content type; errors name the argument at fault, or ``blame``."""

    def fld(name: str) -> str:
        return blame or PARAM_OF_SLOT.get(name, name)

    spec = next((f for f in ctype.fields if f.name == value.field), None)
    if spec is None:
        raise RuleViolation(
            f"content type {ctype.name!r} has no field {value.field!r}",
            field=fld("field"),
            hint=f"fields: {', '.join(f.name for f in ctype.fields)}",
        )
    if ctx.first(Locale, code=value.locale) is None:
        raise RuleViolation(f"no locale {value.locale}", field=fld("locale"), hint="list locales to see the codes")
    if value.locale != _default_code(ctx) and not spec.localized:
        raise RuleViolation(
            f"field {spec.name!r} is not localized",
            field=fld("locale"),
            hint=f"set it in {_default_code(ctx)} only",
        )
    slot = VALUE_OF[spec.type]
    wrong = [name for name in SLOTS if getattr(value, name) is not None and name != slot]
    if wrong:
        raise RuleViolation(
            f"field {spec.name!r} is a {spec.type} field and takes `{PARAM_OF_SLOT.get(slot, slot)}`",
            field=fld(wrong[0]),
            hint=f"pass the value as `{PARAM_OF_SLOT.get(slot, slot)}` only",
        )
    if value.asset_id is not None:
        ctx.get(Asset, value.asset_id, field=fld("asset_id"))
    if value.entry_id is not None:
        ctx.get(Entry, value.entry_id, field=fld("entry_id"))


# -- examples -------------------------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    ctype = ctx.first(ContentType, api_id="author")
    if ctype is None:
        return None
    return {
        "content_type_id": ctype.id,
        "slug": "new-author",
        "author_email": "editor@quillstack.io",
        "fields": [{"field": "name", "locale": _default_code(ctx), "text": "New Author"}],
    }


def _example_set(ctx: Ctx) -> dict[str, Any] | None:
    for entry in ctx.where(Entry, status="draft"):
        ctype = ctx.get(ContentType, entry.content_type_id)
        return {
            "entry_id": entry.id,
            "version": entry.version,
            "field": ctype.display_field,
            "locale": _default_code(ctx),
            "text": "Updated title",
        }
    return None


def _publishable(ctx: Ctx, entry: Entry) -> bool:
    try:
        _check_publishable(ctx, entry)
    except RuleViolation:
        return False
    return entry.status in ("draft", "changed")


# -- domain tools ---------------------------------------------------------------------------------------


def _example_locale(ctx: Ctx) -> dict[str, Any] | None:
    for code, name in (("it", "Italian"), ("nl", "Dutch"), ("pt", "Portuguese"), ("sv", "Swedish")):
        if ctx.first(Locale, code=code) is None:
            return {"code": code, "name": name, "fallback_code": _default_code(ctx)}
    return None


@service.tool(intent="add a locale", write=True, example=_example_locale)
def create_locale(ctx: Ctx, code: Language, name: Title, fallback_code: Language | None = None) -> Locale:
    """Add a locale content can be written in; its fallback (default: the default locale) must exist.

    Args:
        code: ISO 639-1 code, unique.
        name: Display name.
        fallback_code: Locale to fall back to when a value is missing.
    """
    loc = ctx.create(Locale, code=code, name=name, fallback_code=fallback_code)
    _guard_locale(ctx, loc, None)
    return loc


@service.tool(
    intent="define a content type",
    write=True,
    example=fixed_example(
        name="Press release",
        api_id="pressRelease",
        fields=[{"name": "headline", "type": "text", "required": True, "localized": True}],
        display_field="headline",
    ),
)
def create_content_type(
    ctx: Ctx,
    name: Title,
    api_id: ApiId,
    fields: Annotated[list[FieldDef], Field(min_length=1, max_length=30)],
    display_field: FieldName,
    description: Text = "",
) -> ContentType:
    """Define a content type: its typed fields and the text field entries are titled by.

    Args:
        name: Display name.
        api_id: Identifier used by the API (letters, digits, underscores), unique.
        fields: The fields, with unique names.
        display_field: A text field used as the entry title.
        description: What entries of this type are.
    """
    ctype = ctx.create(
        ContentType, name=name, api_id=api_id, fields=fields, display_field=display_field, description=description
    )
    _guard_content_type(ctx, ctype, None)
    return ctype


@service.tool(intent="create a content entry", write=True, example=_example_create)
def create_entry(
    ctx: Ctx,
    content_type_id: ContentTypeId,
    slug: Slug,
    author_email: Email,
    fields: Annotated[list[FieldValue], Field(max_length=60)] = [],  # noqa: B006 - pydantic copies defaults
) -> Entry:
    """Create a draft entry of a content type, optionally with field values (version 1).

    Args:
        content_type_id: The content type.
        slug: URL slug, unique within the content type.
        author_email: The author's e-mail.
        fields: Initial values; each must match its field's type and localization.
    """
    ctype = ctx.get(ContentType, content_type_id, field="content_type_id")
    if ctx.first(Entry, content_type_id=ctype.id, slug=slug) is not None:
        raise Conflict(f"a {ctype.name} with slug {slug!r} exists", field="slug", hint="choose another slug")
    seen: set[tuple[str, str]] = set()
    for value in fields:
        _validate(ctx, ctype, value, "fields")
        key = (value.field, value.locale)
        if key in seen:
            raise RuleViolation(
                f"{value.field} is given twice for {value.locale}", field="fields", hint="give each value once"
            )
        seen.add(key)
    values = [v for v in fields if _filled(v)]
    return ctx.create(
        Entry,
        content_type_id=ctype.id,
        slug=slug,
        author_email=author_email,
        fields=values,
        title=_title_of(ctx, ctype, values),
    )


@service.tool(intent="edit a field of the entry", write=True, example=_example_set)
def set_entry_field(
    ctx: Ctx,
    entry_id: EntryId,
    version: Annotated[int, Field(ge=1)],
    field: FieldName,
    locale: Language,
    text: Text | None = None,
    number: float | None = None,
    date: Date | None = None,
    boolean: bool | None = None,
    url: Url | None = None,
    email: Email | None = None,
    sku: Sku | None = None,
    asset_id: AssetId | None = None,
    linked_entry_id: EntryId | None = None,
) -> Entry:
    """Set (or, with no value, clear) one field of an entry in one locale; the entry's version goes up by one.

    The version must be the entry's current one (optimistic locking). Give the value in the slot of
    the field's type; only localized fields take values outside the default locale. Changing a
    published entry makes it `changed`: the published snapshot is served until it is published again.

    Args:
        entry_id: The entry (not archived).
        version: The entry's current version.
        field: The field.
        locale: The locale code.
        text: Value of a text or rich_text field.
        number: Value of a number field.
        date: Value of a date field.
        boolean: Value of a boolean field.
        url: Value of a url field.
        email: Value of an email field.
        sku: Value of a sku field.
        asset_id: Asset of an asset field.
        linked_entry_id: Entry of an entry field.
    """
    entry = ctx.get(Entry, entry_id, field="entry_id")
    if entry.status == "archived":
        raise RuleViolation(
            f"entry {entry.id} is archived", field="entry_id", hint="unarchive it with cms__unarchive_entry first"
        )
    _check_version(entry, version)
    ctype = ctx.get(ContentType, entry.content_type_id)
    value = FieldValue(
        field=field,
        locale=locale,
        text=text,
        number=number,
        date=date,
        boolean=boolean,
        url=url,
        email=email,
        sku=sku,
        asset_id=asset_id,
        entry_id=linked_entry_id,
    )
    _validate(ctx, ctype, value)
    if linked_entry_id == entry.id:
        raise RuleViolation("an entry cannot link to itself", field="linked_entry_id", hint="link another entry")
    values = [v for v in entry.fields if (v.field, v.locale) != (field, locale)]
    if _filled(value):
        values.append(value)
    values.sort(key=lambda v: (v.field, v.locale))
    return ctx.update(
        entry,
        fields=values,
        version=entry.version + 1,
        status="changed" if entry.status in ("published", "changed") else "draft",
        title=_title_of(ctx, ctype, values),
    )


def _check_publishable(ctx: Ctx, entry: Entry) -> None:
    ctype = ctx.get(ContentType, entry.content_type_id)
    default = _default_code(ctx)
    have = {v.field for v in entry.fields if v.locale == default}
    missing = [f.name for f in ctype.fields if f.required and f.name not in have]
    if missing:
        raise RuleViolation(
            f"required field(s) {', '.join(missing)} have no value in {default}",
            field="entry_id",
            hint="fill them with cms__set_entry_field first",
        )
    asset_ids, entry_ids = _links(entry.fields)
    for aid in sorted(asset_ids):
        asset = ctx.get(Asset, aid)
        if asset.status != "published":
            raise RuleViolation(
                f"linked asset {asset.title!r} is not published",
                field="entry_id",
                hint=f"publish asset {asset.id} with cms__publish_asset first",
            )
    for eid in sorted(entry_ids):
        other = ctx.get(Entry, eid)
        if other.status not in ("published", "changed"):
            raise RuleViolation(
                f"linked entry {other.id} is {other.status}",
                field="entry_id",
                hint="publish the linked entry first",
            )


def _linked_from(ctx: Ctx, entry_id: str) -> list[Entry]:
    return [
        e
        for e in ctx.scan(Entry)
        if e.status in ("published", "changed") and any(v.entry_id == entry_id for v in e.published_fields)
    ]


@service.tool(
    intent="publish the entry",
    write=True,
    example=first_example(Entry, "entry_id", match=_publishable, fields={"version": "version"}),
)
def publish_entry(ctx: Ctx, entry_id: EntryId, version: Annotated[int, Field(ge=1)]) -> Entry:
    """Publish an entry's current draft: it becomes the snapshot the delivery view serves.

    Required fields must be filled in the default locale and every linked asset and entry
    must be published. The version must be the entry's current one.

    Args:
        entry_id: The draft or changed entry.
        version: The entry's current version.
    """
    entry = ctx.get(Entry, entry_id, field="entry_id")
    if entry.status == "archived":
        raise RuleViolation(f"entry {entry.id} is archived", field="entry_id", hint="unarchive it first")
    if entry.status == "published":
        raise RuleViolation(
            f"entry {entry.id} is already published with no newer changes",
            field="entry_id",
            hint="change a field before publishing again",
        )
    _check_version(entry, version)
    _check_publishable(ctx, entry)
    now = ctx.now()
    return ctx.update(
        entry,
        status="published",
        published_fields=entry.fields,
        published_version=entry.version,
        version=entry.version + 1,
        published_at=now,
        first_published_at=entry.first_published_at or now,
    )


@service.tool(
    intent="unpublish the entry",
    write=True,
    example=first_example(
        Entry, "entry_id", where={"status": "published"}, match=lambda ctx, e: not _linked_from(ctx, e.id)
    ),
)
def unpublish_entry(ctx: Ctx, entry_id: EntryId) -> Entry:
    """Take an entry off the delivery view; it becomes a draft again (its draft values are kept).

    An entry that another published entry links to cannot be unpublished.

    Args:
        entry_id: The published or changed entry.
    """
    entry = ctx.get(Entry, entry_id, field="entry_id")
    if entry.status not in ("published", "changed"):
        raise RuleViolation(f"entry {entry.id} is not published", field="entry_id", hint="nothing to unpublish")
    users = _linked_from(ctx, entry.id)
    if users:
        raise RuleViolation(
            f"published entry {users[0].id} ({users[0].title}) links to it",
            field="entry_id",
            hint="unpublish or change the linking entry first",
        )
    return ctx.update(
        entry, status="draft", published_fields=[], published_version=None, published_at=None, version=entry.version + 1
    )


@service.tool(
    intent="archive the entry",
    write=True,
    example=first_example(Entry, "entry_id", where={"status": "draft"}),
)
def archive_entry(ctx: Ctx, entry_id: EntryId) -> Entry:
    """Archive an unpublished entry: it can no longer be edited or published until unarchived.

    Args:
        entry_id: The draft entry.
    """
    entry = ctx.get(Entry, entry_id, field="entry_id")
    if entry.status != "draft":
        raise RuleViolation(
            f"entry {entry.id} is {entry.status}; only draft entries can be archived",
            field="entry_id",
            hint="unpublish it first" if entry.status in ("published", "changed") else "it is already archived",
        )
    return ctx.update(entry, status="archived", version=entry.version + 1)


@service.tool(
    intent="restore the archived entry",
    write=True,
    example=first_example(Entry, "entry_id", where={"status": "archived"}),
)
def unarchive_entry(ctx: Ctx, entry_id: EntryId) -> Entry:
    """Bring an archived entry back as a draft.

    Args:
        entry_id: The archived entry.
    """
    entry = ctx.get(Entry, entry_id, field="entry_id")
    if entry.status != "archived":
        raise RuleViolation(f"entry {entry.id} is not archived", field="entry_id", hint="nothing to restore")
    return ctx.update(entry, status="draft", version=entry.version + 1)


class ResolvedField(FieldValue):
    """A field value as delivered, with the locale it came from."""

    requested_locale: Language = Field(description="The locale asked for.")


class Delivered(BaseModel):
    """An entry as the delivery (or preview) API serves it in one locale."""

    entry_id: EntryId = Field(description="The entry.")
    content_type: ApiId = Field(description="api_id of its content type.")
    slug: Slug = Field(description="Its slug.")
    locale: Language = Field(description="The locale asked for.")
    version: int = Field(description="Version served (published version, or current for a preview).")
    fields: list[ResolvedField] = Field(description="One value per field that has one along the fallback chain.")


@service.tool(
    intent="see the entry as readers get it in a language",
    example=first_example(Entry, "entry_id", where={"status": "published"}, locale="de"),
)
def render_entry(ctx: Ctx, entry_id: EntryId, locale: Language, preview: bool = False) -> Delivered:
    """Serve an entry in a locale: each field's value in that locale, else along its fallback chain.

    Without preview only published entries are served, with their published snapshot; a preview
    serves the current draft of any entry.

    Args:
        entry_id: The entry.
        locale: The locale code.
        preview: Serve the draft (Content Preview API) instead of the published snapshot.
    """
    entry = ctx.get(Entry, entry_id, field="entry_id")
    if ctx.first(Locale, code=locale) is None:
        raise NotFound(f"no locale {locale}", field="locale", hint="list locales to see the codes")
    if not preview and entry.status not in ("published", "changed"):
        raise NotFound(f"entry {entry.id} is not published", field="entry_id", hint="publish it, or pass preview=true")
    values = entry.fields if preview else entry.published_fields
    ctype = ctx.get(ContentType, entry.content_type_id)
    chain = _chain(ctx, locale)
    out: list[ResolvedField] = []
    for spec in ctype.fields:
        for code in chain if spec.localized else [_default_code(ctx)]:
            found = next((v for v in values if v.field == spec.name and v.locale == code), None)
            if found is not None:
                out.append(ResolvedField(**found.model_dump(), requested_locale=locale))
                break
    return Delivered(
        entry_id=entry.id,
        content_type=ctype.api_id,
        slug=entry.slug,
        locale=locale,
        version=entry.version if preview else (entry.published_version or entry.version),
        fields=out,
    )


# -- seed ------------------------------------------------------------------------------------------------

LOCALES = (("en", "English", None), ("de", "German", "en"), ("fr", "French", "en"), ("es", "Spanish", "fr"))


def _fv(name: str, locale: str, **value: Any) -> FieldValue:
    return FieldValue(field=name, locale=locale, **value)


@service.seeder
def seed(s: SeedContext) -> None:
    """Locales, three content types, marketing staff as authors, product pages of the catalog, blog posts, assets."""
    pop = s.population
    for code, name, fallback in LOCALES:
        s.create(Locale, code=code, name=name, default=code == "en", fallback_code=fallback)
    author_t, post_t, product_t = _seed_content_types(s)
    writers = pop.staff("Marketing", fallback=4)[:4]
    authors = _seed_authors(s, author_t, writers)
    images = _seed_product_pages(s, product_t, writers)
    s.create(
        ContentType,
        name="Landing page",
        api_id="landingPage",
        description="A campaign landing page (not used yet).",
        fields=[FieldDef(name="headline", type="text", required=True, localized=True)],
        display_field="headline",
    )
    for k, (title, mime) in enumerate((("Team offsite photo", "image/png"), ("Brand guidelines", "application/pdf"))):
        s.create(
            Asset,
            title=title,
            file_name=f"{title.lower().replace(' ', '-')}.{mime.split('/')[1]}",
            mime_type=mime,
            url=f"https://assets.quillstack.io/{pop.home.domain}/uploads/{k + 1}",
            size_bytes=420_000 + 1000 * k,
            uploaded_by=writers[0].email,
            created_at=s.now - dt.timedelta(days=2 + k),
        )
    _seed_posts(s, post_t, authors, images)


def _seed_content_types(s: SeedContext) -> tuple[ContentType, ContentType, ContentType]:
    """The author, blog post and product page content types."""
    author_t = s.create(
        ContentType,
        name="Author",
        api_id="author",
        description="A writer of the company blog.",
        fields=[
            FieldDef(name="name", type="text", required=True),
            FieldDef(name="email", type="email", required=True),
            FieldDef(name="bio", type="rich_text", localized=True),
        ],
        display_field="name",
    )
    post_t = s.create(
        ContentType,
        name="Blog post",
        api_id="blog_post",
        description="An article of the company blog.",
        fields=[
            FieldDef(name="title", type="text", required=True, localized=True),
            FieldDef(name="body", type="rich_text", required=True, localized=True),
            FieldDef(name="author", type="entry", required=True),
            FieldDef(name="hero_image", type="asset"),
            FieldDef(name="publish_date", type="date"),
        ],
        display_field="title",
    )
    product_t = s.create(
        ContentType,
        name="Product page",
        api_id="product_page",
        description="The shop page of one product.",
        fields=[
            FieldDef(name="name", type="text", required=True, localized=True),
            FieldDef(name="sku", type="sku", required=True),
            FieldDef(name="price", type="number", required=True),
            FieldDef(name="description", type="rich_text", localized=True),
            FieldDef(name="in_stock", type="boolean"),
            FieldDef(name="image", type="asset"),
            FieldDef(name="shop_url", type="url"),
        ],
        display_field="name",
    )
    return author_t, post_t, product_t


def _seed_publish(s: SeedContext, entry: Entry, *, when: dt.datetime, changed: list[FieldValue] | None = None) -> Entry:
    """Publish the entry's draft; with ``changed``, leave those values as newer draft changes."""
    fields = entry.fields
    entry = s.update(
        entry,
        status="published",
        published_fields=fields,
        published_version=entry.version,
        version=entry.version + 1,
        published_at=when,
        first_published_at=when,
    )
    if changed is not None:
        entry = s.update(entry, fields=changed, status="changed", version=entry.version + 1)
    return entry


def _seed_authors(s: SeedContext, author_t: ContentType, writers: list[Person]) -> list[Entry]:
    """An author entry per writer; all but the fourth published."""
    published_at = s.now - dt.timedelta(days=20)
    authors: list[Entry] = []
    for i, w in enumerate(writers):
        values = [
            _fv("bio", "en", text=f"{w.first_name} writes about {w.job_title.lower()} topics."),
            _fv("email", "en", email=w.email),
            _fv("name", "en", text=w.name),
        ]
        if i % 2 == 0:
            values.append(_fv("bio", "de", text=f"{w.first_name} schreibt über Produkte und Kunden."))
        entry = s.create(
            Entry,
            content_type_id=author_t.id,
            title=w.name,
            slug=f"{w.first_name}-{w.last_name}".lower(),
            author_email=w.email,
            fields=sorted(values, key=lambda v: (v.field, v.locale)),
            created_at=published_at - dt.timedelta(days=30),
            updated_at=published_at,
        )
        authors.append(_seed_publish(s, entry, when=published_at) if i < 3 else entry)
    return authors


def _seed_product_pages(s: SeedContext, product_t: ContentType, writers: list[Person]) -> list[Asset]:
    """Photos (returned) and pages of the first twelve products; most published, some with draft changes."""
    pop = s.population
    domain = pop.home.domain
    now = s.now
    images: list[Asset] = []
    for k, product in enumerate(pop.products[:12]):
        images.append(
            s.create(
                Asset,
                title=f"{product.name} photo",
                file_name=f"{product.sku.lower()}.jpg",
                mime_type="image/jpeg",
                url=f"https://assets.quillstack.io/{domain}/{product.sku.lower()}.jpg",
                size_bytes=180_000 + 7_919 * k,
                uploaded_by=writers[k % len(writers)].email,
                status="published" if k % 4 != 3 else "draft",
                created_at=now - dt.timedelta(days=40 - k),
            )
        )
    for k, product in enumerate(pop.products[:12]):
        major = product.price_cents / 100
        values = [
            _fv("description", "en", text=f"The {product.name} for everyday {product.category} needs."),
            _fv("image", "en", asset_id=images[k].id),
            _fv("in_stock", "en", boolean=k % 5 != 2),
            _fv("name", "en", text=product.name),
            _fv("price", "en", number=major),
            _fv("shop_url", "en", url=f"https://shop.{domain}/products/{product.sku.lower()}"),
            _fv("sku", "en", sku=product.sku),
        ]
        if k % 3 == 0:
            values.append(_fv("name", "de", text=f"{product.name} (DE)"))
        if k % 4 == 1:
            values.append(_fv("name", "fr", text=f"{product.name} (FR)"))
        values.sort(key=lambda v: (v.field, v.locale))
        entry = s.create(
            Entry,
            content_type_id=product_t.id,
            title=product.name,
            slug=product.sku.lower(),
            author_email=writers[k % len(writers)].email,
            fields=values,
            version=2 + k % 3,
            created_at=now - dt.timedelta(days=35 - k),
            updated_at=now - dt.timedelta(days=10 - k % 5),
        )
        if images[k].status == "published" and k % 6 != 5:
            changed = None
            if k % 5 == 0:
                changed = [
                    v if v.field != "price" else _fv("price", "en", number=round(major * 0.9, 2)) for v in values
                ]
            _seed_publish(s, entry, when=now - dt.timedelta(days=9 - k % 5), changed=changed)
    return images


def _seed_posts(s: SeedContext, post_t: ContentType, authors: list[Entry], images: list[Asset]) -> None:
    """Five blog posts: two published (when their author is), two drafts, one archived."""
    now = s.now
    topics = ("Spring collection", "How we ship", "Meet the team", "Customer stories", "Sustainability report")
    for k, topic in enumerate(topics):
        author = authors[k % len(authors)]
        values = [
            _fv("author", "en", entry_id=author.id),
            _fv("body", "en", text=f"{topic}: what {s.population.home.name} has been working on."),
            _fv("title", "en", text=topic),
        ]
        if k % 2 == 0:
            values.append(_fv("title", "de", text=f"{topic} (DE)"))
            values.append(_fv("publish_date", "en", date=(now - dt.timedelta(days=5 * k)).date()))
        if k < 3:
            values.append(_fv("hero_image", "en", asset_id=images[k].id))
        entry = s.create(
            Entry,
            content_type_id=post_t.id,
            title=topic,
            slug=topic.lower().replace(" ", "-"),
            author_email=author.author_email,
            fields=sorted(values, key=lambda v: (v.field, v.locale)),
            status="archived" if k == 4 else "draft",
            created_at=now - dt.timedelta(days=15 - k),
            updated_at=now - dt.timedelta(days=3),
        )
        if k < 2 and author.status == "published":
            _seed_publish(s, entry, when=now - dt.timedelta(days=4 - k))
