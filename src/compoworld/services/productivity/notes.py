"""Cairn Notes: a workspace of nested pages, typed databases with rows, content blocks, archive and restore.

Modeled on the Notion API 2022-06-28 (users, pages with parents, databases with
a property schema, database query with filters and sorts, page properties,
block children, archiving): a database has exactly one title property and
unique property names; every row's values must match their property's type
(numbers, select options that exist, dates, e-mails, phone numbers, URLs,
workspace members for people); a query's conditions must fit the property's
type; blocks nest only under block types that take children and a page takes
at most 100 blocks per call; archiving a page archives everything below it, an
archived page is read-only, and a page is restored only under a live parent; a
page cannot move under itself or its descendants, nor rows out of their database.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text, Title, Url
from compoworld.services.kit.records import Value
from compoworld.world.org import department_of

__all__ = ["service"]

service = Service(
    "notes",
    title="Cairn Notes",
    category="documents",
    modeled_on="Notion API 2022-06-28 (users, pages, databases with property schemas, databases.query with "
    "filters and sorts, block children, archive)",
    description="An all-in-one workspace: nested pages of content blocks, and databases whose rows are "
    "pages with typed properties (select, number, date, people, e-mail, URL …), queried with filters and "
    "sorts; pages are archived with everything below them and restored.",
)

MemberId = Annotated[str, IdOf("notes.member")]
PageId = Annotated[str, IdOf("notes.page")]
DatabaseId = Annotated[str, IdOf("notes.database")]
BlockId = Annotated[str, IdOf("notes.block")]

PropType = Literal[
    "title",
    "rich_text",
    "number",
    "select",
    "multi_select",
    "date",
    "checkbox",
    "email",
    "phone_number",
    "url",
    "people",
]
PropName = Annotated[str, StringConstraints(min_length=1, max_length=50, strip_whitespace=True)]
PropValue = str | int | float | bool | list[str] | None
BlockType = Literal[
    "paragraph",
    "heading_1",
    "heading_2",
    "heading_3",
    "bulleted_list_item",
    "numbered_list_item",
    "to_do",
    "toggle",
    "quote",
    "code",
    "divider",
]
PARENTS: frozenset[str] = frozenset(
    {"paragraph", "bulleted_list_item", "numbered_list_item", "to_do", "toggle", "quote"}
)
MAX_BLOCKS = 100
_EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$")
_PHONE = re.compile(r"^\+[1-9][0-9]{6,14}$")
_URL = re.compile(r"^https?://\S+$")


class PropertySchema(Value):
    """One column of a database."""

    name: PropName = Field(description="Property name; unique in the database.")
    type: PropType = Field(description="Value type.")
    options: list[Annotated[str, StringConstraints(min_length=1, max_length=40)]] = Field(
        default_factory=list, max_length=30, description="Allowed values of a select or multi_select property."
    )


class Member(Record):
    """A person (or integration bot) in the workspace."""

    id: MemberId
    name: PersonName
    """Name."""
    email: Email | None = None
    """E-mail of a person; bots have none."""
    type: Literal["person", "bot"] = "person"
    """person or bot."""


class Page(Record):
    """A page: a document of blocks, or a row of a database."""

    id: PageId
    title: Title
    """Title (for a row, its title property)."""
    parent_type: Literal["workspace", "page", "database"]
    """What the page sits in."""
    parent_page_id: PageId | None = None
    """The parent page."""
    database_id: DatabaseId | None = None
    """The database, for a row."""
    properties: dict[str, PropValue] = Field(default_factory=dict)
    """A row's property values by name."""
    icon: Annotated[str, StringConstraints(max_length=8)] | None = None
    """Emoji icon."""
    url: Url = "https://cairn.example/page"
    """Link to the page (derived from its id)."""
    archived: bool = False
    """Archived pages are read-only."""
    created_by: Email
    """Who created it."""
    last_edited_by: Email
    """Who last changed it."""
    created_time: Annotated[DateTime, CREATED]
    """When it was created."""
    last_edited_time: Annotated[DateTime, UPDATED]
    """When it last changed."""

    @model_validator(mode="before")
    @classmethod
    def _derive_url(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            slug = re.sub(r"[^a-z0-9]+", "-", str(data.get("title", "")).lower()).strip("-")[:40]
            data = {**data, "url": f"https://cairn.example/{slug or 'page'}-{data['id'].replace('_', '')}"}
        return data


class Database(Record):
    """A database: a titled collection of rows with a property schema."""

    id: DatabaseId
    title: Title
    """Title."""
    parent_page_id: PageId
    """The page it lives on."""
    properties: list[PropertySchema] = Field(default_factory=list, max_length=40)
    """Its columns; exactly one is of type title."""
    archived: bool = False
    """Archived databases are read-only."""
    created_by: Email
    """Who created it."""
    created_time: Annotated[DateTime, CREATED]
    """When it was created."""


class Block(Record):
    """A piece of page content: a paragraph, a heading, a to-do, a list item and so on."""

    id: BlockId
    page_id: PageId
    """The page."""
    parent_block_id: BlockId | None = None
    """The block it is nested under."""
    position: int
    """Order among its siblings."""
    type: BlockType
    """Block type."""
    text: Text = ""
    """Text content."""
    checked: bool | None = None
    """Whether a to-do is done."""
    language: Annotated[str, StringConstraints(max_length=20)] | None = None
    """Language of a code block."""
    archived: bool = False
    """Deleted blocks are archived."""
    last_edited_by: Email
    """Who last changed it."""
    last_edited_time: Annotated[DateTime, UPDATED]
    """When it last changed."""


def _guard_page_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.archived:
        raise RuleViolation(
            f"page {old.title} is archived and read-only", field="page_id", hint="restore it with notes__restore_page"
        )
    if old.database_id is not None and new.title != old.title:
        raise RuleViolation(
            "a row's title is its title property", field="title", hint="change it with notes__update_row"
        )


members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="usr",
    create=False,
    get=False,
    filters=("email", "type"),
    search=("name", "email"),
    delete=False,
    title="workspace member",
)
pages = service.resource(
    Page,
    name="page",
    plural="pages",
    prefix="pg",
    create=False,
    filters=("parent_type", "parent_page_id", "database_id", "archived", "created_by", "url"),
    search=("title",),
    update=("title", "icon"),
    delete=False,
    guard_update=_guard_page_update,
)
databases = service.resource(
    Database,
    name="database",
    plural="databases",
    prefix="db",
    create=False,
    filters=("parent_page_id", "archived", "created_by"),
    search=("title",),
    delete=False,
)
blocks = service.resource(
    Block,
    name="block",
    plural="blocks",
    prefix="blk",
    create=False,
    get=False,
    filters=("page_id", "parent_block_id", "type", "archived", "checked"),
    search=("text",),
    delete=False,
)


# -- rules ------------------------------------------------------------------------------------


def _member(ctx: Ctx, email: str, field: str) -> Member:
    m = ctx.first(Member, email=email)
    if m is None:
        raise NotFound(
            f"{email} is not a member of the workspace", field=field, hint="list members with notes__list_members"
        )
    return m


def _live_page(ctx: Ctx, page_id: str, field: str) -> Page:
    page = ctx.get(Page, page_id, field=field)
    if page.archived:
        raise RuleViolation(
            f"page {page.title} is archived and read-only", field=field, hint="restore it with notes__restore_page"
        )
    return page


def _live_db(ctx: Ctx, database_id: str, field: str = "database_id") -> Database:
    db = ctx.get(Database, database_id, field=field)
    if db.archived:
        raise RuleViolation(f"database {db.title} is archived", field=field, hint="restore the page it lives on first")
    return db


def _check_schema(props: list[PropertySchema], field: str) -> None:
    names = [p.name.casefold() for p in props]
    if len(set(names)) != len(names):
        raise RuleViolation("property names must be unique", field=field, hint="rename the duplicate property")
    if sum(p.type == "title" for p in props) != 1:
        raise RuleViolation("a database needs exactly one title property", field=field, hint="mark one as title")
    for i, p in enumerate(props):
        if p.options and p.type not in ("select", "multi_select"):
            raise RuleViolation(
                f"property {p.name} is {p.type} and takes no options", field=f"{field}.{i}.options", hint="omit them"
            )
        if len(set(p.options)) != len(p.options):
            raise RuleViolation(f"property {p.name} repeats an option", field=f"{field}.{i}.options", hint="dedupe")


def _check_value(ctx: Ctx, prop: PropertySchema, value: Any, field: str) -> Any:
    def bad(why: str) -> RuleViolation:
        return RuleViolation(f"{prop.name} ({prop.type}): {why}", field=field, hint=f"give a valid {prop.type} value")

    if value is None:
        if prop.type == "title":
            raise bad("the title cannot be empty")
        return None
    t = prop.type
    if t in ("title", "rich_text"):
        if not isinstance(value, str) or (t == "title" and not value.strip()):
            raise bad("expected text")
        return value
    if t == "number":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad("expected a number")
        return value
    if t == "checkbox":
        if not isinstance(value, bool):
            raise bad("expected true or false")
        return value
    if t == "select":
        if not isinstance(value, str) or value not in prop.options:
            raise bad(f"expected one of {prop.options}")
        return value
    if t in ("multi_select", "people"):
        if not isinstance(value, list):
            raise bad("expected a list")
        if t == "multi_select":
            wrong = [v for v in value if v not in prop.options]
            if wrong:
                raise bad(f"{wrong[0]!r} is not one of {prop.options}")
        else:
            for v in value:
                if ctx.first(Member, email=v) is None:
                    raise bad(f"{v} is not a workspace member")
        return list(dict.fromkeys(value))
    if not isinstance(value, str):
        raise bad("expected text")
    if t == "date":
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            raise bad("expected a date YYYY-MM-DD") from None
        return value
    pattern = {"email": _EMAIL, "phone_number": _PHONE, "url": _URL}[t]
    if not pattern.match(value):
        raise bad("badly formed")
    return value.lower() if t == "email" else value


def _row_values(ctx: Ctx, db: Database, values: dict[str, Any], base: dict[str, Any]) -> tuple[dict[str, Any], str]:
    schema = {p.name: p for p in db.properties}
    out = dict(base)
    for name, value in values.items():
        prop = schema.get(name)
        if prop is None:
            raise RuleViolation(
                f"database {db.title} has no property {name!r}",
                field=f"properties.{name}",
                hint=f"properties are: {', '.join(schema)}",
            )
        out[name] = _check_value(ctx, prop, value, f"properties.{name}")
    title_prop = next(p for p in db.properties if p.type == "title")
    title = out.get(title_prop.name)
    if not isinstance(title, str) or not title.strip():
        raise RuleViolation(
            f"a row needs its title property {title_prop.name!r}",
            field=f"properties.{title_prop.name}",
            hint="give the row a title",
        )
    return out, title


def _descendant_pages(ctx: Ctx, page_id: str) -> list[Page]:
    out: list[Page] = []
    todo = [page_id]
    while todo:
        pid = todo.pop()
        for child in ctx.where(Page, parent_page_id=pid):
            out.append(child)
            todo.append(child.id)
        for db in ctx.where(Database, parent_page_id=pid):
            for row in ctx.where(Page, database_id=db.id):
                out.append(row)
                todo.append(row.id)
    return out


# -- examples ---------------------------------------------------------------------------------


def _editor(ctx: Ctx) -> str:
    m = next(m for m in ctx.where(Member, type="person"))
    return m.email or ""


def _top_page(ctx: Ctx) -> Page:
    return next(p for p in ctx.where(Page, parent_type="workspace", archived=False))


def _tasks_db(ctx: Ctx) -> Database | None:
    for db in ctx.where(Database, archived=False):
        if any(p.type == "select" for p in db.properties):
            return db
    return None


def _row_example(db: Database, ctx: Ctx) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for p in db.properties:
        if p.type == "title":
            values[p.name] = "Prepare the quarterly report"
        elif p.type == "select" and p.options:
            values[p.name] = p.options[0]
        elif p.type == "number":
            values[p.name] = 3
        elif p.type == "people":
            values[p.name] = [_editor(ctx)]
    return values


def _example_create_page(ctx: Ctx) -> dict[str, Any]:
    return {"title": "Meeting notes", "created_by": _editor(ctx), "parent_page_id": _top_page(ctx).id}


def _example_create_db(ctx: Ctx) -> dict[str, Any]:
    return {
        "title": "Bug tracker",
        "parent_page_id": _top_page(ctx).id,
        "created_by": _editor(ctx),
        "properties": [
            {"name": "Bug", "type": "title"},
            {"name": "Severity", "type": "select", "options": ["low", "high"]},
        ],
    }


def _example_add_prop(ctx: Ctx) -> dict[str, Any] | None:
    db = _tasks_db(ctx)
    if db is None:
        return None
    return {"database_id": db.id, "property": {"name": "Reviewed", "type": "checkbox"}, "editor_email": _editor(ctx)}


def _example_create_row(ctx: Ctx) -> dict[str, Any] | None:
    db = _tasks_db(ctx)
    if db is None:
        return None
    return {"database_id": db.id, "properties": _row_example(db, ctx), "created_by": _editor(ctx)}


def _example_update_row(ctx: Ctx) -> dict[str, Any] | None:
    db = _tasks_db(ctx)
    if db is None:
        return None
    row = ctx.first(Page, database_id=db.id, archived=False)
    title = next(p.name for p in db.properties if p.type == "title")
    return None if row is None else {"page_id": row.id, "properties": {title: "Renamed"}, "editor_email": _editor(ctx)}


def _example_query(ctx: Ctx) -> dict[str, Any] | None:
    db = _tasks_db(ctx)
    if db is None:
        return None
    sel = next(p for p in db.properties if p.type == "select")
    return {"database_id": db.id, "where": [{"property": sel.name, "operator": "equals", "value": sel.options[0]}]}


def _example_append(ctx: Ctx) -> dict[str, Any]:
    return {
        "page_id": _top_page(ctx).id,
        "editor_email": _editor(ctx),
        "blocks": [{"type": "heading_2", "text": "Decisions"}, {"type": "to_do", "text": "Send the summary"}],
    }


def _live_block(ctx: Ctx, kind: str | None = None) -> Block | None:
    for b in ctx.where(Block, archived=False):
        if (kind is None or b.type == kind) and not ctx.get(Page, b.page_id).archived:
            return b
    return None


def _example_update_block(ctx: Ctx) -> dict[str, Any] | None:
    b = _live_block(ctx, "to_do")
    return None if b is None else {"block_id": b.id, "editor_email": _editor(ctx), "checked": True}


def _example_delete_block(ctx: Ctx) -> dict[str, Any] | None:
    b = _live_block(ctx)
    return None if b is None else {"block_id": b.id, "editor_email": _editor(ctx)}


def _example_archive(ctx: Ctx) -> dict[str, Any]:
    return {"page_id": _top_page(ctx).id, "editor_email": _editor(ctx)}


def _example_restore(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Page, archived=True):
        parent = ctx.find(Page, p.parent_page_id) if p.parent_page_id else None
        db = ctx.find(Database, p.database_id) if p.database_id else None
        if (parent is None or not parent.archived) and (db is None or not db.archived):
            return {"page_id": p.id, "editor_email": _editor(ctx)}
    return None


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    tops = [p for p in ctx.where(Page, parent_type="workspace", archived=False)]
    for child in ctx.where(Page, parent_type="page", archived=False):
        for top in tops:
            if top.id not in (child.parent_page_id, child.id):
                return {"page_id": child.id, "new_parent_page_id": top.id, "editor_email": _editor(ctx)}
    return None


def _example_content(ctx: Ctx) -> dict[str, Any]:
    return {"page_id": _top_page(ctx).id}


# -- pages and databases ----------------------------------------------------------------------


@service.tool(intent="create a page", write=True, example=_example_create_page)
def create_page(
    ctx: Ctx, title: Title, created_by: Email, parent_page_id: PageId | None = None, icon: str | None = None
) -> Page:
    """Create a page at the top of the workspace or under a live page.

    Args:
        title: Title.
        created_by: E-mail of the member creating it.
        parent_page_id: The parent page; omit for a top-level page.
        icon: An emoji icon.
    """
    _member(ctx, created_by, "created_by")
    if parent_page_id is not None:
        parent = _live_page(ctx, parent_page_id, "parent_page_id")
        if parent.database_id is not None:
            raise RuleViolation(
                "pages go under pages, not under database rows",
                field="parent_page_id",
                hint="create a row with notes__create_row instead",
            )
    if icon is not None and len(icon) > 8:
        raise RuleViolation("an icon is one emoji", field="icon", hint="pass a single emoji")
    return ctx.create(
        Page,
        title=title,
        parent_type="page" if parent_page_id else "workspace",
        parent_page_id=parent_page_id,
        icon=icon,
        created_by=created_by,
        last_edited_by=created_by,
    )


@service.tool(intent="create a database", write=True, example=_example_create_db)
def create_database(
    ctx: Ctx,
    title: Title,
    parent_page_id: PageId,
    created_by: Email,
    properties: Annotated[list[PropertySchema], Field(min_length=1, max_length=40)],
) -> Database:
    """Create a database on a page with its property schema (exactly one title property).

    Args:
        title: Title.
        parent_page_id: The page it lives on.
        created_by: E-mail of the member creating it.
        properties: Its properties: name, type and, for select types, options.
    """
    _member(ctx, created_by, "created_by")
    parent = _live_page(ctx, parent_page_id, "parent_page_id")
    if parent.database_id is not None:
        raise RuleViolation("databases live on pages, not rows", field="parent_page_id", hint="pick a regular page")
    _check_schema(properties, "properties")
    return ctx.create(Database, title=title, parent_page_id=parent.id, properties=properties, created_by=created_by)


@service.tool(intent="add a property to the database", write=True, example=_example_add_prop)
def add_database_property(ctx: Ctx, database_id: DatabaseId, property: PropertySchema, editor_email: Email) -> Database:
    """Add a column to a database; existing rows get no value for it.

    Args:
        database_id: The database.
        property: The new property (not a second title).
        editor_email: E-mail of the member editing.
    """
    _member(ctx, editor_email, "editor_email")
    db = _live_db(ctx, database_id)
    _check_schema([*db.properties, property], "property")
    return ctx.update(db, properties=[*db.properties, property])


@service.tool(intent="add a row to the database", write=True, example=_example_create_row)
def create_row(ctx: Ctx, database_id: DatabaseId, properties: dict[str, PropValue], created_by: Email) -> Page:
    """Add a row (a page) to a database; each value must match its property's type.

    Select values must be existing options, people must be workspace members,
    dates are YYYY-MM-DD; the title property is required.

    Args:
        database_id: The database.
        properties: Values by property name.
        created_by: E-mail of the member adding it.
    """
    _member(ctx, created_by, "created_by")
    db = _live_db(ctx, database_id)
    values, title = _row_values(ctx, db, properties, {})
    return ctx.create(
        Page,
        title=title,
        parent_type="database",
        database_id=db.id,
        properties=values,
        created_by=created_by,
        last_edited_by=created_by,
    )


@service.tool(intent="update the row's properties", write=True, idempotent=True, example=_example_update_row)
def update_row(ctx: Ctx, page_id: PageId, properties: dict[str, PropValue], editor_email: Email) -> Page:
    """Change some property values of a database row; null clears a value (not the title).

    Args:
        page_id: The row.
        properties: New values by property name.
        editor_email: E-mail of the member editing.
    """
    _member(ctx, editor_email, "editor_email")
    row = _live_page(ctx, page_id, "page_id")
    if row.database_id is None:
        raise RuleViolation("the page is not a database row", field="page_id", hint="rename pages with update_page")
    db = _live_db(ctx, row.database_id, "page_id")
    values, title = _row_values(ctx, db, properties, row.properties)
    return ctx.update(row, properties=values, title=title, last_edited_by=editor_email)


class Condition(Value):
    """A filter on one property."""

    property: PropName = Field(description="Property name.")
    operator: Literal["equals", "not_equals", "contains", "greater_than", "less_than", "is_empty", "is_not_empty"] = (
        Field(description="How to compare.")
    )
    value: PropValue = Field(default=None, description="Value to compare with (not for is_empty/is_not_empty).")


class Sort(Value):
    """A sort on one property."""

    property: PropName = Field(description="Property name.")
    direction: Literal["ascending", "descending"] = Field(default="ascending", description="Order.")


ORDERED: frozenset[str] = frozenset({"number", "date"})


def _sort_key(value: Any) -> tuple[float, str]:
    if isinstance(value, bool):
        return (float(value), "")
    if isinstance(value, int | float):
        return (float(value), "")
    return (0.0, str(value).casefold())


CONTAINS: frozenset[str] = frozenset({"title", "rich_text", "multi_select", "people", "email", "url"})


def _matches(prop: PropertySchema, cond: Condition, value: Any) -> bool:
    empty = value is None or value == "" or value == []
    op = cond.operator
    if op == "is_empty":
        return empty
    if op == "is_not_empty":
        return not empty
    if empty:
        return op == "not_equals"
    if op == "equals":
        return bool(value == cond.value)
    if op == "not_equals":
        return bool(value != cond.value)
    if op == "contains":
        if isinstance(value, list):
            return cond.value in value
        return str(cond.value).casefold() in str(value).casefold()
    if op == "greater_than":
        return bool(value > cond.value)
    return bool(value < cond.value)


@service.tool(intent="query the database", example=_example_query)
def query_database(
    ctx: Ctx,
    database_id: DatabaseId,
    where: Annotated[list[Condition], Field(max_length=10)] | None = None,
    sorts: Annotated[list[Sort], Field(max_length=3)] | None = None,
    include_archived: bool = False,
) -> list[Page]:
    """Find the rows of a database matching every condition, sorted.

    greater_than/less_than apply to number and date properties, contains to
    text, lists, people, e-mails and URLs; other comparisons take a value of
    the property's type. Without sorts rows come by creation.

    Args:
        database_id: The database.
        where: Conditions that must all hold.
        sorts: Sort keys, most significant first.
        include_archived: Include archived rows.
    """
    db = ctx.get(Database, database_id, field="database_id")
    schema = {p.name: p for p in db.properties}
    conds = where or []
    for i, c in enumerate(conds):
        prop = schema.get(c.property)
        if prop is None:
            raise RuleViolation(
                f"database {db.title} has no property {c.property!r}",
                field=f"where.{i}.property",
                hint=f"properties are: {', '.join(schema)}",
            )
        if c.operator in ("greater_than", "less_than") and prop.type not in ORDERED:
            raise RuleViolation(
                f"{c.operator} needs a number or date property; {prop.name} is {prop.type}",
                field=f"where.{i}.operator",
                hint="use equals or contains",
            )
        if c.operator == "contains" and prop.type not in CONTAINS:
            raise RuleViolation(
                f"contains does not apply to {prop.type} property {prop.name}",
                field=f"where.{i}.operator",
                hint="use equals",
            )
        if c.operator in ("equals", "not_equals", "greater_than", "less_than"):
            _check_value(ctx, prop, c.value, f"where.{i}.value")
    for i, srt in enumerate(sorts or []):
        if srt.property not in schema:
            raise RuleViolation(f"no property {srt.property!r}", field=f"sorts.{i}.property", hint="sort by a property")
    rows = [r for r in ctx.where(Page, database_id=db.id) if include_archived or not r.archived]
    rows = [r for r in rows if all(_matches(schema[c.property], c, r.properties.get(c.property)) for c in conds)]
    rows.sort(key=lambda r: (r.created_time, r.id))
    for srt in reversed(sorts or []):
        present = [r for r in rows if r.properties.get(srt.property) not in (None, "", [])]
        missing = [r for r in rows if r.properties.get(srt.property) in (None, "", [])]
        present.sort(key=lambda r: _sort_key(r.properties[srt.property]), reverse=srt.direction == "descending")
        rows = present + missing
    return rows


# -- blocks -----------------------------------------------------------------------------------


class NewBlock(Value):
    """A block to append."""

    type: BlockType = Field(description="Block type.")
    text: Text = Field(default="", description="Text content (none for a divider).")
    checked: bool | None = Field(default=None, description="For a to-do: whether it is done.")
    language: Annotated[str, StringConstraints(max_length=20)] | None = Field(
        default=None, description="For a code block: its language."
    )


@service.tool(intent="add content to the page", write=True, example=_example_append)
def append_blocks(
    ctx: Ctx,
    page_id: PageId,
    editor_email: Email,
    blocks: Annotated[list[NewBlock], Field(min_length=1, max_length=MAX_BLOCKS)],
    parent_block_id: BlockId | None = None,
) -> list[Block]:
    """Append up to 100 blocks to a page, or as children of one of its blocks.

    Only paragraphs, list items, to-dos, toggles and quotes take children. A
    to-do may be checked; only code blocks have a language; dividers have no text.

    Args:
        page_id: The page.
        editor_email: E-mail of the member editing.
        blocks: The blocks, in order.
        parent_block_id: A block of the page to nest them under.
    """
    _member(ctx, editor_email, "editor_email")
    page = _live_page(ctx, page_id, "page_id")
    if parent_block_id is not None:
        parent = ctx.get(Block, parent_block_id, field="parent_block_id")
        if parent.page_id != page.id or parent.archived:
            raise RuleViolation(
                "the parent block is not a live block of this page", field="parent_block_id", hint="pick another"
            )
        if parent.type not in PARENTS:
            raise RuleViolation(
                f"{parent.type} blocks take no children", field="parent_block_id", hint="nest under a toggle or list"
            )
    for i, b in enumerate(blocks):
        if b.checked is not None and b.type != "to_do":
            raise RuleViolation("only to-dos are checked", field=f"blocks.{i}.checked", hint="omit checked")
        if b.language is not None and b.type != "code":
            raise RuleViolation("only code blocks have a language", field=f"blocks.{i}.language", hint="omit it")
        if b.type == "divider" and b.text:
            raise RuleViolation("dividers have no text", field=f"blocks.{i}.text", hint="omit the text")
    siblings = ctx.where(Block, page_id=page.id, parent_block_id=parent_block_id)
    start = max((s.position for s in siblings), default=0)
    made = [
        ctx.create(
            Block,
            page_id=page.id,
            parent_block_id=parent_block_id,
            position=start + k + 1,
            type=b.type,
            text=b.text,
            checked=(b.checked or False) if b.type == "to_do" else None,
            language=b.language,
            last_edited_by=editor_email,
        )
        for k, b in enumerate(blocks)
    ]
    ctx.update(page, last_edited_by=editor_email)
    return made


def _editable_block(ctx: Ctx, block_id: str) -> Block:
    b = ctx.get(Block, block_id, field="block_id")
    if b.archived:
        raise RuleViolation("the block is deleted", field="block_id", hint="append a new block instead")
    _live_page(ctx, b.page_id, "block_id")
    return b


@service.tool(intent="change the block", write=True, idempotent=True, example=_example_update_block)
def update_block(
    ctx: Ctx, block_id: BlockId, editor_email: Email, text: Text | None = None, checked: bool | None = None
) -> Block:
    """Change a block's text, or tick a to-do.

    Args:
        block_id: The block.
        editor_email: E-mail of the member editing.
        text: New text.
        checked: For a to-do: done or not.
    """
    _member(ctx, editor_email, "editor_email")
    b = _editable_block(ctx, block_id)
    if text is None and checked is None:
        raise RuleViolation("nothing to change", field="text", hint="pass text or checked")
    if checked is not None and b.type != "to_do":
        raise RuleViolation(f"a {b.type} block cannot be checked", field="checked", hint="only to-dos are checked")
    if text is not None and b.type == "divider":
        raise RuleViolation("dividers have no text", field="text", hint="nothing to change")
    return ctx.update(
        b,
        text=b.text if text is None else text,
        checked=b.checked if checked is None else checked,
        last_edited_by=editor_email,
    )


@service.tool(intent="delete the block", write=True, destructive=True, example=_example_delete_block)
def delete_block(ctx: Ctx, block_id: BlockId, editor_email: Email) -> list[BlockId]:
    """Delete (archive) a block and the blocks nested under it; returns their ids.

    Args:
        block_id: The block.
        editor_email: E-mail of the member editing.
    """
    _member(ctx, editor_email, "editor_email")
    b = _editable_block(ctx, block_id)
    gone = []
    todo = [b]
    while todo:
        cur = todo.pop()
        ctx.update(cur, archived=True, last_edited_by=editor_email)
        gone.append(cur.id)
        todo.extend(c for c in ctx.where(Block, parent_block_id=cur.id) if not c.archived)
    return gone


class ContentBlock(BaseModel):
    """A block with its children."""

    block: Block = Field(description="The block.")
    children: list[ContentBlock] = Field(description="Blocks nested under it, in order.")


class PageContent(BaseModel):
    """A page with its content tree."""

    page: Page = Field(description="The page.")
    blocks: list[ContentBlock] = Field(description="Top-level blocks, in order, with their children.")
    child_page_ids: list[PageId] = Field(description="Pages directly under it.")
    database_ids: list[DatabaseId] = Field(description="Databases on it.")


@service.tool(intent="read the page's content", example=_example_content)
def get_page_content(ctx: Ctx, page_id: PageId) -> PageContent:
    """Read a page with its live blocks as a tree, its child pages and its databases.

    Args:
        page_id: The page.
    """
    page = ctx.get(Page, page_id, field="page_id")

    def tree(parent: str | None, depth: int) -> list[ContentBlock]:
        kids = [b for b in ctx.where(Block, page_id=page.id, parent_block_id=parent) if not b.archived]
        kids.sort(key=lambda b: (b.position, b.id))
        return [ContentBlock(block=b, children=tree(b.id, depth + 1) if depth < 3 else []) for b in kids]

    return PageContent(
        page=page,
        blocks=tree(None, 0),
        child_page_ids=[p.id for p in ctx.where(Page, parent_page_id=page.id) if not p.archived],
        database_ids=[d.id for d in ctx.where(Database, parent_page_id=page.id) if not d.archived],
    )


# -- archive and move -------------------------------------------------------------------------


class Archived(BaseModel):
    """What archiving or restoring a page touched."""

    page: Page = Field(description="The page.")
    page_ids: list[PageId] = Field(description="Pages and rows below it that changed with it.")
    database_ids: list[DatabaseId] = Field(description="Databases below it that changed with it.")


def _set_archived(ctx: Ctx, page: Page, flag: bool, editor: str) -> Archived:
    below = [p for p in _descendant_pages(ctx, page.id) if p.archived != flag]
    dbs: list[str] = []
    todo = [page.id] + [p.id for p in below]
    for pid in todo:
        for db in ctx.where(Database, parent_page_id=pid):
            if db.archived != flag:
                ctx.update(db, archived=flag)
                dbs.append(db.id)
    for p in below:
        ctx.update(p, archived=flag, last_edited_by=editor)
    page = ctx.update(page, archived=flag, last_edited_by=editor)
    return Archived(page=page, page_ids=[p.id for p in below], database_ids=dbs)


@service.tool(intent="archive the page", write=True, example=_example_archive)
def archive_page(ctx: Ctx, page_id: PageId, editor_email: Email) -> Archived:
    """Archive a page (or row) with every page, database and row below it.

    Args:
        page_id: The page.
        editor_email: E-mail of the member archiving.
    """
    _member(ctx, editor_email, "editor_email")
    page = _live_page(ctx, page_id, "page_id")
    return _set_archived(ctx, page, True, editor_email)


@service.tool(intent="restore the archived page", write=True, example=_example_restore)
def restore_page(ctx: Ctx, page_id: PageId, editor_email: Email) -> Archived:
    """Restore an archived page with what was archived below it; its parent must be live.

    Args:
        page_id: The page.
        editor_email: E-mail of the member restoring.
    """
    _member(ctx, editor_email, "editor_email")
    page = ctx.get(Page, page_id, field="page_id")
    if not page.archived:
        raise RuleViolation(f"page {page.title} is not archived", field="page_id", hint="nothing to restore")
    parent = ctx.find(Page, page.parent_page_id) if page.parent_page_id else None
    db = ctx.find(Database, page.database_id) if page.database_id else None
    if (parent is not None and parent.archived) or (db is not None and db.archived):
        raise RuleViolation(
            f"the parent of {page.title} is archived", field="page_id", hint="restore the parent page first"
        )
    return _set_archived(ctx, page, False, editor_email)


@service.tool(intent="move the page", write=True, example=_example_move)
def move_page(ctx: Ctx, page_id: PageId, editor_email: Email, new_parent_page_id: PageId | None = None) -> Page:
    """Move a page under another page, or to the top of the workspace.

    Rows stay in their database, and a page cannot go under itself or a page below it.

    Args:
        page_id: The page.
        editor_email: E-mail of the member moving it.
        new_parent_page_id: The new parent; omit for the top level.
    """
    _member(ctx, editor_email, "editor_email")
    page = _live_page(ctx, page_id, "page_id")
    if page.database_id is not None:
        raise RuleViolation("rows stay in their database", field="page_id", hint="create a page instead")
    if new_parent_page_id is not None:
        parent = _live_page(ctx, new_parent_page_id, "new_parent_page_id")
        below = {p.id for p in _descendant_pages(ctx, page.id)}
        if parent.id == page.id or parent.id in below:
            raise RuleViolation(
                "a page cannot move under itself or its own subpages",
                field="new_parent_page_id",
                hint="pick a page outside this one",
            )
        if parent.database_id is not None:
            raise RuleViolation("pages go under pages, not rows", field="new_parent_page_id", hint="pick a page")
    if new_parent_page_id == page.parent_page_id:
        raise RuleViolation("the page is already there", field="new_parent_page_id", hint="pick another parent")
    return ctx.update(
        page,
        parent_page_id=new_parent_page_id,
        parent_type="page" if new_parent_page_id else "workspace",
        last_edited_by=editor_email,
    )


# -- seed -------------------------------------------------------------------------------------

TASK_SCHEMA = [
    PropertySchema(name="Task", type="title"),
    PropertySchema(name="Status", type="select", options=["Not started", "In progress", "Done"]),
    PropertySchema(name="Priority", type="select", options=["Low", "Medium", "High"]),
    PropertySchema(name="Assignee", type="people"),
    PropertySchema(name="Due", type="date"),
    PropertySchema(name="Points", type="number"),
    PropertySchema(name="Tags", type="multi_select", options=["bug", "feature", "docs", "ops"]),
]
ACCOUNT_SCHEMA = [
    PropertySchema(name="Company", type="title"),
    PropertySchema(name="Contact", type="rich_text"),
    PropertySchema(name="Contact email", type="email"),
    PropertySchema(name="Phone", type="phone_number"),
    PropertySchema(name="Website", type="url"),
    PropertySchema(name="Tier", type="select", options=["Bronze", "Silver", "Gold"]),
    PropertySchema(name="Seats", type="number"),
    PropertySchema(name="Active", type="checkbox"),
]
TASKS = (
    "Write the onboarding guide",
    "Fix the login timeout",
    "Plan the Q2 roadmap",
    "Migrate the build server",
    "Review the pricing page",
    "Update the API docs",
    "Rotate the TLS certificates",
    "Interview backend candidates",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff as members, department pages with content, a task database, a customer accounts database."""
    staff = list(s.population.employees)
    for p in staff:
        s.create(Member, name=p.name, email=p.email)
    s.create(Member, name="Sync Bot", type="bot")
    by_dept: dict[str, list[Person]] = {}
    for p in staff:
        by_dept.setdefault(department_of(p), []).append(p)
    homes = _seed_team_pages(s, by_dept)
    first_home = homes[sorted(homes)[0]]
    _seed_task_database(s, staff, by_dept.get("Engineering") or staff, first_home)
    _seed_account_database(s, by_dept.get("Sales") or staff, homes.get("Sales", first_home))


def _seed_page(s: SeedContext, title: str, author: Person, parent: Page | None = None, **kw: Any) -> Page:
    """A page written some time in the last 200 days and edited a day later."""
    when = s.ago(days=s.rng.randint(5, 200))
    return s.create(
        Page,
        title=title,
        parent_type="page" if parent else "workspace",
        parent_page_id=parent.id if parent else None,
        created_by=author.email,
        last_edited_by=author.email,
        created_time=when,
        last_edited_time=when + dt.timedelta(days=1),
        **kw,
    )


def _seed_blocks(s: SeedContext, pg: Page, author: Person, items: list[tuple[str, str, bool | None]]) -> None:
    """The blocks of a page, in order; a "child" item is a bullet nested under the last toggle."""
    parent_block: Block | None = None
    for k, (kind, text, checked) in enumerate(items):
        b = s.create(
            Block,
            page_id=pg.id,
            parent_block_id=parent_block.id if kind == "child" and parent_block else None,
            position=k + 1,
            type="bulleted_list_item" if kind == "child" else kind,
            text=text,
            checked=checked,
            last_edited_by=author.email,
            last_edited_time=pg.last_edited_time,
        )
        if kind == "toggle":
            parent_block = b


def _seed_team_pages(s: SeedContext, by_dept: dict[str, list[Person]]) -> dict[str, Page]:
    """Each department's home page with content and a meeting-notes subpage; returns the homes by department."""
    homes: dict[str, Page] = {}
    for dept in sorted(by_dept):
        author = by_dept[dept][0]
        home = _seed_page(s, f"{dept} home", author, icon="📁")
        homes[dept] = home
        _seed_blocks(
            s,
            home,
            author,
            [
                ("heading_1", f"Welcome to {dept}", None),
                ("paragraph", f"Everything the {dept} team needs in one place.", None),
                ("toggle", "Team rituals", None),
                ("child", "Weekly sync on Monday", None),
                ("child", "Retro every other Friday", None),
                ("to_do", "Update the team contact list", dept in ("Sales", "Finance")),
                ("divider", "", None),
            ],
        )
        sub = _seed_page(s, f"{dept} meeting notes", author, home)
        _seed_blocks(s, sub, author, [("heading_2", "Last meeting", None), ("to_do", "Share the summary", False)])
        if dept == "Operations":
            _seed_page(s, "Old vendor list", author, home, archived=True)
    return homes


def _seed_task_database(s: SeedContext, staff: list[Person], engineers: list[Person], home: Page) -> None:
    """The team task database: every task twice (the second time as a follow-up), the last one archived."""
    now = s.now
    tasks = s.create(
        Database,
        title="Team tasks",
        parent_page_id=home.id,
        properties=TASK_SCHEMA,
        created_by=engineers[0].email,
        created_time=s.ago(days=120),
    )
    statuses = ("Not started", "In progress", "Done")
    for k, task in enumerate(TASKS * 2):
        who = staff[(k * 5) % len(staff)]
        due = (now.date() + dt.timedelta(days=(k % 9) - 3)).isoformat()
        values: dict[str, Any] = {
            "Task": task if k < len(TASKS) else f"{task} (follow-up)",
            "Status": statuses[k % 3],
            "Priority": ("Low", "Medium", "High")[(k * 2) % 3],
            "Assignee": [who.email],
            "Due": due,
            "Points": (1, 2, 3, 5, 8)[k % 5],
            "Tags": [("bug", "feature", "docs", "ops")[k % 4]],
        }
        if k % 7 == 6:
            values["Assignee"] = []
            values["Points"] = None
        s.create(
            Page,
            title=values["Task"],
            parent_type="database",
            database_id=tasks.id,
            properties=values,
            archived=k == len(TASKS) * 2 - 1,
            created_by=engineers[k % len(engineers)].email,
            last_edited_by=who.email,
            created_time=s.ago(days=60 - k),
            last_edited_time=s.ago(days=30 - k),
        )


def _seed_account_database(s: SeedContext, sales: list[Person], home: Page) -> None:
    """The customer accounts database: a row per customer company (16 at most) kept by the sales team."""
    pop = s.population
    accounts = s.create(
        Database,
        title="Customer accounts",
        parent_page_id=home.id,
        properties=ACCOUNT_SCHEMA,
        created_by=sales[0].email,
        created_time=s.ago(days=150),
    )
    for k, company in enumerate(pop.customers[:16]):
        contact = pop.first_contact(company)
        s.create(
            Page,
            title=company.name,
            parent_type="database",
            database_id=accounts.id,
            properties={
                "Company": company.name,
                "Contact": contact.name if contact else None,
                "Contact email": contact.email if contact else None,
                "Phone": company.phone,
                "Website": f"https://{company.domain}",
                "Tier": ("Bronze", "Silver", "Gold")[k % 3],
                "Seats": company.employees // 10,
                "Active": k % 5 != 4,
            },
            created_by=sales[k % len(sales)].email,
            last_edited_by=sales[k % len(sales)].email,
            created_time=s.ago(days=140 - k),
            last_edited_time=s.ago(days=20 - k),
        )
