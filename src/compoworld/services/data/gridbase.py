"""Gridwell Database: workspaces of databases whose tables hold typed fields and rows, with views, history and trash.

Modeled on the Baserow REST API 1.2x (workspaces with ADMIN and MEMBER users and
e-mail invitations; database applications; tables created with their default
Name, Notes and Active fields; fields whose type can be changed, converting the
values; rows listed with ``user_field_names``, ``search``, ``order_by``,
``filter_type`` AND/OR and filters, created one by one or in batches of up to
200, updated and moved; row change history; views with their filters
(``equal``, ``contains``, ``higher_than``, ``single_select_equal``,
``link_row_has``, ``empty`` …) and sortings; and the trash, where deleted
databases, tables, fields and rows wait to be restored until it is emptied or
72 hours have passed). Field names are unique in a table and ``id`` and
``order`` are reserved; the primary field is never deleted nor made a link; a
link row field links to a table of the same database and adds a related field
there; a select value must be one of the field's options (no new options on
write); a number keeps at most its field's decimal places and is negative only
where allowed; read-only fields (created on, last modified, autonumber) take no
value; a filter type must suit its field's type and a field is sorted on once
per view; a row of a trashed table, or a field of one, cannot be restored before
the table. Only workspace members write; only admins invite, change
permissions or remove users, and the last admin stays.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, TypeAdapter, ValidationError

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person, Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value
from compoworld.world.finance import suppliers
from compoworld.world.org import OrgChart, department_of, org_chart

__all__ = ["service"]

service = Service(
    "gridbase",
    title="Gridwell Database",
    category="table_database",
    modeled_on="Baserow REST API 1.2x (workspaces, workspace users and invitations, database applications, "
    "tables, fields with type conversion, rows with user_field_names/search/order_by/filters and batch create, "
    "row history, views with filters and sortings, trash and restore)",
    description="An open-source no-code database the operations, sales, marketing and people teams keep their "
    "inventory, lead tracker, content calendar and hiring pipeline in: workspaces of members, databases of "
    "tables with typed fields, rows filtered AND/OR and searched, views, a history of each row's changes and a "
    "trash to restore deleted rows, fields, tables and databases from.",
)

WorkspaceId = Annotated[str, IdOf("gridbase.workspace")]
WorkspaceUserId = Annotated[str, IdOf("gridbase.workspace_user")]
InvitationId = Annotated[str, IdOf("gridbase.workspace_invitation")]
DatabaseId = Annotated[str, IdOf("gridbase.database")]
TableId = Annotated[str, IdOf("gridbase.table")]
FieldId = Annotated[str, IdOf("gridbase.field")]
RowId = Annotated[str, IdOf("gridbase.row")]
ViewId = Annotated[str, IdOf("gridbase.view")]
ViewFilterId = Annotated[str, IdOf("gridbase.view_filter")]
ViewSortId = Annotated[str, IdOf("gridbase.view_sort")]

FieldType = Literal[
    "text",
    "long_text",
    "email",
    "url",
    "phone_number",
    "number",
    "boolean",
    "date",
    "single_select",
    "multiple_select",
    "link_row",
    "rating",
    "created_on",
    "last_modified",
    "autonumber",
]
FilterType = Literal[
    "equal",
    "not_equal",
    "contains",
    "contains_not",
    "higher_than",
    "higher_than_or_equal",
    "lower_than",
    "lower_than_or_equal",
    "date_equal",
    "date_before",
    "date_after",
    "single_select_equal",
    "single_select_not_equal",
    "boolean",
    "link_row_has",
    "link_row_has_not",
    "empty",
    "not_empty",
]
Permissions = Literal["ADMIN", "MEMBER"]
TrashType = Literal["database", "table", "field", "row"]
FieldName = Annotated[str, StringConstraints(min_length=1, max_length=255, strip_whitespace=True)]
CellIn = str | int | float | bool | list[int | str] | None
"""A value to write: text, a number, true/false, an option id or value, a list of option or row ids, or null."""
Stored = str | int | bool | list[int] | list[str] | None

TEXT: frozenset[str] = frozenset({"text", "long_text", "email", "url", "phone_number"})
NUMERIC: frozenset[str] = frozenset({"number", "rating", "autonumber"})
READ_ONLY: frozenset[str] = frozenset({"created_on", "last_modified", "autonumber"})
DATES: frozenset[str] = frozenset({"date", "created_on", "last_modified"})
RESERVED = frozenset({"id", "order"})
MAX_BATCH = 200
MAX_PAGE = 200
TRASH_HOURS = 72
"""Hours a trashed item can be restored before it is deleted for good."""
COMPATIBLE: dict[str, frozenset[str]] = {
    "equal": TEXT | NUMERIC,
    "not_equal": TEXT | NUMERIC,
    "contains": TEXT | {"single_select", "multiple_select", "link_row"},
    "contains_not": TEXT | {"single_select", "multiple_select", "link_row"},
    "higher_than": NUMERIC,
    "higher_than_or_equal": NUMERIC,
    "lower_than": NUMERIC,
    "lower_than_or_equal": NUMERIC,
    "date_equal": DATES,
    "date_before": DATES,
    "date_after": DATES,
    "single_select_equal": frozenset({"single_select"}),
    "single_select_not_equal": frozenset({"single_select"}),
    "boolean": frozenset({"boolean"}),
    "link_row_has": frozenset({"link_row"}),
    "link_row_has_not": frozenset({"link_row"}),
    "empty": frozenset(TEXT | NUMERIC | DATES | {"boolean", "single_select", "multiple_select", "link_row"}),
    "not_empty": frozenset(TEXT | NUMERIC | DATES | {"boolean", "single_select", "multiple_select", "link_row"}),
}
"""The field types each filter type applies to."""
COLORS = ("blue", "green", "yellow", "orange", "red", "brown", "purple", "pink", "gray", "light-blue")


# -- records ----------------------------------------------------------------------------------


class Workspace(Created):
    """A workspace: the members who share its databases."""

    id: WorkspaceId
    name: Title
    """Workspace name."""


class WorkspaceUser(Created):
    """A member of a workspace."""

    id: WorkspaceUserId
    workspace_id: WorkspaceId
    """The workspace."""
    email: Email
    """The member's e-mail."""
    name: PersonName
    """The member's name."""
    permissions: Permissions
    """ADMIN (manages members and invitations) or MEMBER."""


class WorkspaceInvitation(Created):
    """An e-mail invitation to join a workspace."""

    id: InvitationId
    workspace_id: WorkspaceId
    """The workspace."""
    email: Email
    """E-mail of the person invited."""
    permissions: Permissions
    """What they get on accepting."""
    message: Text = ""
    """A note sent with the invitation."""
    invited_by_email: Email
    """E-mail of the admin who invited them."""
    status: Literal["pending", "accepted", "rejected"] = "pending"
    """pending until the person accepts or rejects it."""


class Database(Created):
    """A database application of a workspace."""

    id: DatabaseId
    workspace_id: WorkspaceId
    """The workspace."""
    name: Title
    """Database name."""
    trashed: bool = False
    """Whether it is in the trash (with its tables)."""
    trashed_at: DateTime | None = None
    """When it was trashed."""


class GridTable(Created):
    """A table of a database."""

    id: TableId
    database_id: DatabaseId
    """The database."""
    name: FieldName
    """Table name."""
    trashed: bool = False
    """Whether it is in the trash (with its rows and fields)."""
    trashed_at: DateTime | None = None
    """When it was trashed."""


class SelectOption(Value):
    """An option of a single or multiple select field."""

    id: int = Field(description="Option id; rows store it.")
    value: str = Field(description="The option's text.")
    color: str = Field(default="blue", description="Its color.")


class GridField(Record):
    """A typed field of a table."""

    id: FieldId
    table_id: TableId
    """The table."""
    name: FieldName
    """Field name; unique in the table; id and order are reserved."""
    type: FieldType
    """The field type; changing it converts the values."""
    primary: bool = False
    """Whether it is the table's primary field (first column, names each row)."""
    number_decimal_places: int = 0
    """Decimal places a number field keeps (0-10)."""
    number_negative: bool = False
    """Whether a number field takes negative values."""
    date_include_time: bool = False
    """Whether a date field holds a time too."""
    select_options: tuple[SelectOption, ...] = ()
    """Options of a single or multiple select field."""
    link_row_table_id: TableId | None = None
    """The table a link_row field links to."""
    link_row_related_field_id: FieldId | None = None
    """The field of the linked table that links back."""
    max_value: int | None = None
    """Highest value of a rating field."""
    next_number: int = 1
    """The number an autonumber field gives the next row."""
    trashed: bool = False
    """Whether it is in the trash."""
    trashed_at: DateTime | None = None
    """When it was trashed."""


class Row(Record):
    """A row of a table; values are stored by field id."""

    id: RowId
    table_id: TableId
    """The table."""
    order: float
    """Position of the row in the table."""
    values: dict[str, Stored] = Field(default_factory=dict)
    """Stored values by field id: text, decimal text, true, option ids, row ids."""
    trashed: bool = False
    """Whether it is in the trash."""
    trashed_at: DateTime | None = None
    """When it was trashed."""
    created_on: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_on: Annotated[DateTime, UPDATED]
    """When it last changed."""


class RowHistory(Record):
    """One change of a row: the values before and after, by field name."""

    id: Annotated[str, IdOf("gridbase.row_history")]
    table_id: TableId
    """The table."""
    row_id: RowId
    """The row."""
    action_type: Literal["update_row"] = "update_row"
    """What was done."""
    user_email: Email
    """E-mail of the member who made the change."""
    user_name: PersonName
    """Their name."""
    before: dict[str, str | None] = Field(default_factory=dict)
    """Changed fields' values before, as text."""
    after: dict[str, str | None] = Field(default_factory=dict)
    """Their values after, as text."""
    timestamp: Annotated[DateTime, CREATED]
    """When it happened."""


class View(Created):
    """A view of a table: its filters and sortings decide which rows it shows, in what order."""

    id: ViewId
    table_id: TableId
    """The table."""
    name: FieldName
    """View name."""
    type: Literal["grid", "gallery", "form", "kanban"] = "grid"
    """grid, gallery, form or kanban."""
    filter_type: Literal["AND", "OR"] = "AND"
    """AND: a row must match every filter; OR: any."""
    filters_disabled: bool = False
    """Whether the filters are switched off (every row shows)."""
    single_select_field_id: FieldId | None = None
    """The single select a kanban view stacks by."""


class ViewFilter(Record):
    """A filter of a view."""

    id: ViewFilterId
    view_id: ViewId
    """The view."""
    field_id: FieldId
    """The field filtered on."""
    type: FilterType
    """The filter type."""
    value: str = ""
    """The value compared with, as text (an option id, a row id, a number, a date, 1/0); empty: not applied."""


class ViewSort(Record):
    """A sorting of a view."""

    id: ViewSortId
    view_id: ViewId
    """The view."""
    field_id: FieldId
    """The field sorted on."""
    order: Literal["ASC", "DESC"] = "ASC"
    """ASC or DESC."""


def _guard_view_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if len(ctx.where(View, table_id=old.table_id)) == 1:
        raise RuleViolation(
            f"view {old.name!r} is the table's last view", field="view_id", hint="create another view first"
        )
    for item in [*ctx.where(ViewFilter, view_id=old.id), *ctx.where(ViewSort, view_id=old.id)]:
        ctx.delete(item)


workspaces = service.resource(
    Workspace, name="workspace", plural="workspaces", prefix="ws", create=False, get=False, search=("name",),
    delete=False,
)  # fmt: skip
workspace_users = service.resource(
    WorkspaceUser, name="workspace_user", plural="workspace_users", prefix="wu", create=False, get=False,
    filters=("workspace_id", "email", "permissions"), search=("name", "email"), delete=False, title="workspace user",
)  # fmt: skip
invitations = service.resource(
    WorkspaceInvitation, name="workspace_invitation", plural="workspace_invitations", prefix="wsi", create=False,
    get=False, filters=("workspace_id", "email", "status"), delete=False, title="workspace invitation",
    transitions={"reject": Transition("status", ("pending",), "rejected", "reject the workspace invitation")},
)  # fmt: skip
databases = service.resource(
    Database, name="database", plural="databases", prefix="db", create=False, get=False,
    filters=("workspace_id", "trashed"), search=("name",), delete=False,
)  # fmt: skip
tables = service.resource(
    GridTable, name="table", plural="tables", prefix="tbl", create=False, get=False,
    filters=("database_id", "trashed"), search=("name",), delete=False,
)  # fmt: skip
fields = service.resource(
    GridField, name="field", plural="fields", prefix="fld", create=False, get=False,
    filters=("table_id", "type", "trashed", "primary"), search=("name",), delete=False,
)  # fmt: skip
rows = service.resource(Row, name="row", plural="rows", prefix="row", create=False, get=False, filters=None,
                        delete=False)  # fmt: skip
histories = service.resource(
    RowHistory, name="row_history", plural="row_histories", prefix="rh", create=False, get=False, filters=None,
    delete=False, title="row history entry",
)  # fmt: skip
views = service.resource(
    View, name="view", plural="views", prefix="view", create=False, get=False, filters=("table_id", "type"),
    search=("name",), update=("name", "filter_type", "filters_disabled"), guard_delete=_guard_view_delete,
)  # fmt: skip
view_filters = service.resource(
    ViewFilter, name="view_filter", plural="view_filters", prefix="vf", create=False, get=False, filters=None,
    title="view filter",
)  # fmt: skip
view_sorts = service.resource(
    ViewSort, name="view_sort", plural="view_sorts", prefix="vs", create=False, get=False, filters=None,
    delete=False, title="view sorting",
)  # fmt: skip


# -- results and inputs -----------------------------------------------------------------------


class SelectOut(Value):
    """A select option as a row shows it."""

    id: int = Field(description="Option id.")
    value: str = Field(description="Option text.")
    color: str = Field(description="Option color.")


class LinkOut(Value):
    """A linked row as a row shows it."""

    id: RowId = Field(description="The linked row.")
    value: str = Field(description="Its primary field's value.")


CellOut = str | int | bool | SelectOut | list[SelectOut] | list[LinkOut] | None
"""A value as rows show it: text (numbers as decimal text), true/false, an option, options or linked rows."""


class RowOut(BaseModel):
    """A row as the API returns it."""

    id: RowId = Field(description="The row.")
    order: str = Field(description="Its position as decimal text.")
    values: dict[str, CellOut] = Field(description="Values by field name (or by field id without user_field_names).")


class RowPage(BaseModel):
    """A page of rows."""

    count: int = Field(description="Rows matching in all.")
    next: int | None = Field(description="The next page number; null on the last page.")
    previous: int | None = Field(description="The previous page number; null on the first.")
    results: list[RowOut] = Field(description="The rows of this page.")


class TableOut(BaseModel):
    """A new table with its fields and rows."""

    table: GridTable = Field(description="The table.")
    fields: list[GridField] = Field(description="Its fields, primary first.")
    view: View = Field(description="Its first view.")


class ViewOut(BaseModel):
    """A view with its filters and sortings."""

    view: View = Field(description="The view.")
    filters: list[ViewFilter] = Field(description="Its filters.")
    sortings: list[ViewSort] = Field(description="Its sortings, first one first.")


class TrashItem(BaseModel):
    """Something in the trash."""

    trash_item_type: TrashType = Field(description="database, table, field or row.")
    trash_item_id: str = Field(description="Its id.")
    name: str = Field(description="Its name (a row: its primary value).")
    parent_id: str | None = Field(description="The table of a row or field, the database of a table.")
    trashed_at: DateTime = Field(description="When it was trashed.")
    permanently_deleted_at: DateTime = Field(description="When it goes for good.")


class Trash(BaseModel):
    """The trash of a workspace (or of one database)."""

    workspace_id: WorkspaceId = Field(description="The workspace.")
    database_id: DatabaseId | None = Field(description="Only this database's items, when given.")
    items: list[TrashItem] = Field(description="What is in it, latest first.")


class Emptied(BaseModel):
    """What emptying the trash deleted for good."""

    workspace_id: WorkspaceId = Field(description="The workspace.")
    deleted: dict[str, int] = Field(description="How many databases, tables, fields and rows went.")


class Removed(BaseModel):
    """A removed workspace user."""

    id: WorkspaceUserId = Field(description="The workspace user.")
    deleted: bool = Field(default=True, description="Always true.")


class OptionIn(Value):
    """A select option to set."""

    value: str = Field(min_length=1, max_length=255, description="Option text.")
    color: str = Field(default="blue", description="Option color.")
    id: int | None = Field(default=None, description="Id of an existing option to keep (omit for a new one).")


class FilterIn(Value):
    """A filter given with a list request."""

    field: str = Field(description="Field name (or id without user_field_names).")
    type: FilterType = Field(description="The filter type.")
    value: str = Field(default="", description="The value compared with, as text.")


# -- helpers ----------------------------------------------------------------------------------


_EMAIL = TypeAdapter(Email)
_URL = TypeAdapter(Url)
_PHONE = re.compile(r"^[0-9NnXx,+._*()#=;/ -]{1,100}$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TRUE = frozenset({"t", "1", "y", "yes", "true", "on", "checked"})
_FALSE = frozenset({"f", "0", "n", "no", "false", "off", "unchecked", ""})


def _live_table(ctx: Ctx, table_id: str, field: str = "table_id") -> GridTable:
    table = ctx.get(GridTable, table_id, field=field)
    if table.trashed or ctx.get(Database, table.database_id).trashed:
        raise NotFound(
            f"table {table.name!r} is in the trash", field=field, hint="restore it with gridbase__restore_from_trash"
        )
    return table


def _workspace_of(ctx: Ctx, table: GridTable) -> str:
    return ctx.get(Database, table.database_id).workspace_id


def _member(ctx: Ctx, workspace_id: str, email: str, field: str = "user_email", admin: bool = False) -> WorkspaceUser:
    who = ctx.first(WorkspaceUser, workspace_id=workspace_id, email=email)
    if who is None or (admin and who.permissions != "ADMIN"):
        ws = ctx.get(Workspace, workspace_id)
        raise RuleViolation(
            f"{email} is {'not a member' if who is None else 'not an admin'} of workspace {ws.name!r}",
            field=field,
            hint="act as an admin of the workspace (gridbase__list_workspace_users)"
            if admin
            else "act as a member of the workspace, or invite them first",
        )
    return who


def _cols(ctx: Ctx, table_id: str) -> list[GridField]:
    """The table's live fields, primary first, in creation order."""
    return sorted((f for f in ctx.where(GridField, table_id=table_id) if not f.trashed), key=lambda f: not f.primary)


def _col(cols: Sequence[GridField], key: str, names: bool, table: GridTable, field: str) -> GridField:
    for c in cols:
        if (c.name if names else c.id) == key:
            return c
    how = "names" if names else "ids"
    raise NotFound(
        f"table {table.name!r} has no field {key!r}",
        field=field,
        hint=f"its field {how} are: {', '.join(c.name if names else c.id for c in cols)}"
        + ("" if names else "; or pass user_field_names=true to use names"),
    )


def _decimal(c: GridField, value: Any) -> Decimal | None:
    if isinstance(value, bool):
        return None
    try:
        return Decimal(str(value).strip().replace(",", "")) if isinstance(value, int | float | str) else None
    except InvalidOperation:
        return None


def _fmt(c: GridField, number: Decimal) -> str:
    return f"{number.quantize(Decimal(1).scaleb(-c.number_decimal_places)):f}"


def _bad(c: GridField, value: Any, why: str, hint: str, field: str) -> RuleViolation:
    return RuleViolation(f"field {c.name!r} ({c.type}) cannot take {value!r}: {why}", field=field, hint=hint)


def _option(c: GridField, value: Any, field: str) -> int:
    for o in c.select_options:
        if value == o.id or (isinstance(value, str) and value == o.value):
            return o.id
    listed = ", ".join(f"{o.id} ({o.value})" for o in c.select_options)
    raise _bad(c, value, "not one of the field's select options", f"give an option id or value: {listed}", field)


def _linked_row(ctx: Ctx, c: GridField, value: Any, field: str) -> str:
    target = ctx.get(GridTable, c.link_row_table_id or "")
    row = ctx.find(Row, value) if isinstance(value, str) else None
    if row is None and isinstance(value, str):
        primary = next((f for f in _cols(ctx, target.id) if f.primary), None)
        row = next(
            (
                r
                for r in ctx.where(Row, table_id=target.id, trashed=False)
                if primary is not None and _text(ctx, primary, r.values.get(primary.id), r) == value
            ),
            None,
        )
    if row is None or row.table_id != target.id or row.trashed:
        raise NotFound(
            f"table {target.name!r} has no row {value!r}",
            field=field,
            hint=f"give ids (or primary values) of rows of {target.name!r} ({target.id})",
        )
    return row.id


def _parse(ctx: Ctx, c: GridField, value: Any, field: str) -> Stored:
    """A written value as the field stores it (None: empty)."""
    if c.type in READ_ONLY:
        raise RuleViolation(
            f"field {c.name!r} is a read only {c.type} field", field=field, hint="leave read only fields out"
        )
    if value is None or (isinstance(value, str) and not value.strip() and c.type != "boolean"):
        return None
    kind = c.type
    if kind in ("text", "long_text"):
        if not isinstance(value, str):
            raise _bad(c, value, "a text field takes text", "give a string", field)
        return value
    if kind in ("email", "url"):
        try:
            return (_EMAIL if kind == "email" else _URL).validate_python(
                value.strip() if isinstance(value, str) else value
            )
        except ValidationError:
            raise _bad(c, value, f"not a valid {kind}", "give name@example.com or https://…", field) from None
    if kind == "phone_number":
        if not isinstance(value, str) or not _PHONE.match(value):
            raise _bad(c, value, "not a phone number", "give digits, spaces, +, -, ( and ) only", field)
        return value
    if kind == "number":
        number = _decimal(c, value)
        if number is None:
            raise _bad(c, value, "not a number", "give a number such as 12 or 12.50", field)
        if -number.as_tuple().exponent > c.number_decimal_places:  # type: ignore[operator]
            raise _bad(
                c, value, f"more than {c.number_decimal_places} decimal place(s)",
                "round it, or give the field more decimal places (gridbase__update_field)", field,
            )  # fmt: skip
        if number < 0 and not c.number_negative:
            raise _bad(c, value, "the field takes no negative numbers", "give 0 or more", field)
        return _fmt(c, number)
    if kind == "boolean":
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        if not isinstance(value, bool):
            raise _bad(c, value, "a boolean takes true or false", "give true or false", field)
        return value
    if kind == "rating":
        top = c.max_value or 5
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            raise _bad(c, value, f"a rating is 0 to {top}", f"give a whole number from 0 to {top}", field)
        return value
    if kind == "date":
        text = value.strip() if isinstance(value, str) else ""
        try:
            if c.date_include_time:
                return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(dt.UTC).isoformat()
            if _DAY.match(text):
                return dt.date.fromisoformat(text).isoformat()
        except ValueError:
            pass
        raise _bad(c, value, "not a date", "give YYYY-MM-DD (with a time: an ISO date-time)", field)
    if kind == "single_select":
        return _option(c, value, field)
    items = value if isinstance(value, list) else None
    if items is None:
        raise _bad(c, value, "the field takes a list", "give a list of ids", field)
    if kind == "multiple_select":
        return list(dict.fromkeys(_option(c, v, f"{field}.{k}") for k, v in enumerate(items)))
    return list(dict.fromkeys(_linked_row(ctx, c, v, f"{field}.{k}") for k, v in enumerate(items)))


def _stamp(when: dt.datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


def _out(ctx: Ctx, c: GridField, value: Stored, row: Row) -> CellOut:
    """A stored value as rows show it."""
    if c.type == "created_on":
        return _stamp(row.created_on)
    if c.type == "last_modified":
        return _stamp(row.updated_on)
    if c.type == "single_select":
        o = next((o for o in c.select_options if o.id == value), None)
        return None if o is None else SelectOut(id=o.id, value=o.value, color=o.color)
    if c.type == "multiple_select":
        ids = value if isinstance(value, list) else []
        return [SelectOut(id=o.id, value=o.value, color=o.color) for o in c.select_options if o.id in ids]
    if c.type == "link_row":
        out = []
        for rid in value if isinstance(value, list) else []:
            linked = ctx.find(Row, str(rid))
            if linked is not None and not linked.trashed:
                out.append(LinkOut(id=linked.id, value=_primary_text(ctx, linked)))
        return out
    if c.type == "boolean":
        return bool(value)
    if isinstance(value, list):
        return None
    return value


def _text(ctx: Ctx, c: GridField, value: Stored, row: Row) -> str:
    """A value as text: what search, contains filters, history and type conversion read."""
    shown = _out(ctx, c, value, row)
    if isinstance(shown, list):
        return ", ".join(x.value for x in shown)
    if isinstance(shown, SelectOut):
        return shown.value
    if isinstance(shown, bool):
        return "true" if shown else "false"
    return "" if shown is None else str(shown)


def _primary_text(ctx: Ctx, row: Row) -> str:
    primary = next((f for f in _cols(ctx, row.table_id) if f.primary), None)
    return "" if primary is None or primary.type == "link_row" else _text(ctx, primary, row.values.get(primary.id), row)


def _row_out(ctx: Ctx, row: Row, cols: Sequence[GridField], names: bool, include: set[str] | None = None) -> RowOut:
    return RowOut(
        id=row.id,
        order=f"{row.order:.20f}",
        values={
            (c.name if names else c.id): _out(ctx, c, row.values.get(c.id), row)
            for c in cols
            if include is None or c.name in include or c.id in include
        },
    )


def _row_in(ctx: Ctx, table: GridTable, row_id: str, field: str = "row_id") -> Row:
    row = ctx.find(Row, row_id)
    if row is None or row.table_id != table.id or row.trashed:
        raise NotFound(
            f"table {table.name!r} has no row {row_id!r}{' (it is in the trash)' if row and row.trashed else ''}",
            field=field,
            hint="list the table's rows with gridbase__list_rows, or restore it from the trash",
        )
    return row


def _values(ctx: Ctx, table: GridTable, given: Mapping[str, CellIn], names: bool, field: str) -> dict[str, Stored]:
    cols = _cols(ctx, table.id)
    out: dict[str, Stored] = {}
    for key, value in given.items():
        c = _col(cols, key, names, table, f"{field}.{key}")
        out[c.id] = _parse(ctx, c, value, f"{field}.{key}")
    return out


def _sync_links(ctx: Ctx, c: GridField, row_id: str, old: Iterable[str], new: Iterable[str]) -> None:
    """Keep the related field of link ``c`` in step when ``row_id``'s links go from ``old`` to ``new``."""
    if c.link_row_related_field_id is None:
        return
    related = c.link_row_related_field_id
    before, after = set(old), set(new)
    for target_id in sorted(before ^ after):
        target = ctx.find(Row, target_id)
        if target is None:
            continue
        have = [x for x in _ids(target.values.get(related)) if x != row_id] + ([row_id] if target_id in after else [])
        ctx.update(target, values={**target.values, related: have})


def _ids(value: Stored) -> list[str]:
    return [str(x) for x in value] if isinstance(value, list) else []


def _save(ctx: Ctx, table: GridTable, row: Row | None, values: Mapping[str, Stored], order: float | None = None) -> Row:
    """Create (row None) or change a row; autonumbers and link back-references follow."""
    cols = _cols(ctx, table.id)
    old = {} if row is None else dict(row.values)
    new = {k: v for k, v in {**old, **values}.items() if v is not None}
    if row is None:
        for c in cols:
            if c.type == "autonumber":
                new[c.id] = _next_auto(ctx, c)
        last = max((r.order for r in ctx.where(Row, table_id=table.id)), default=0.0)
        row = ctx.create(Row, table_id=table.id, order=order if order is not None else float(int(last) + 1), values=new)
    else:
        row = ctx.update(row, values=new)
    for c in cols:
        if c.type == "link_row":
            _sync_links(ctx, c, row.id, _ids(old.get(c.id)), _ids(new.get(c.id)))
    return ctx.get(Row, row.id)


def _next_auto(ctx: Ctx, c: GridField) -> int:
    """The number an autonumber field gives the next row (never reused)."""
    c = ctx.get(GridField, c.id)
    ctx.update(c, next_number=c.next_number + 1)
    return c.next_number


def _number_rows(ctx: Ctx, c: GridField) -> None:
    """Number a table's rows in their order in a new autonumber field."""
    for row in sorted(ctx.where(Row, table_id=c.table_id), key=lambda r: (r.order, r.id)):
        ctx.update(row, values={**row.values, c.id: _next_auto(ctx, c)})


def _matches(ctx: Ctx, c: GridField, f_type: str, value: str, row: Row) -> bool:
    stored = row.values.get(c.id)
    text = _text(ctx, c, stored, row)
    if f_type in ("empty", "not_empty"):
        empty = text == "" or (c.type == "boolean" and not stored) or (c.type == "rating" and not stored)
        return empty if f_type == "empty" else not empty
    if value == "":
        return True  # a filter with no value is not applied
    if f_type == "boolean":
        return bool(stored) == (value.strip().lower() in _TRUE)
    if f_type in ("contains", "contains_not"):
        found = value.casefold() in text.casefold()
        return found if f_type == "contains" else not found
    if f_type.startswith("date_"):
        day = text[:10]
        return bool(day) and {"date_equal": day == value, "date_before": day < value, "date_after": day > value}[f_type]
    if f_type.startswith("single_select"):
        same = str(stored) == value.strip()
        return same if f_type == "single_select_equal" else not same
    if f_type.startswith("link_row"):
        has = value.strip() in _ids(stored)
        return has if f_type == "link_row_has" else not has
    if c.type in NUMERIC:
        a, b = _decimal(c, text), _decimal(c, value)
        if b is None:
            return True
        if a is None:
            return f_type == "not_equal"
        return {
            "equal": a == b, "not_equal": a != b, "higher_than": a > b, "higher_than_or_equal": a >= b,
            "lower_than": a < b, "lower_than_or_equal": a <= b,
        }[f_type]  # fmt: skip
    same = text == value
    return same if f_type == "equal" else not same


def _keep(ctx: Ctx, cols: Mapping[str, GridField], tests: Sequence[tuple[str, str, str]], kind: str, row: Row) -> bool:
    """Whether a row passes filters ``(field id, type, value)`` joined by AND or OR (filters on no live field skip)."""
    results = [_matches(ctx, cols[f], t, v, row) for f, t, v in tests if f in cols]
    if not results:
        return True
    return all(results) if kind == "AND" else any(results)


def _sort(ctx: Ctx, found: list[Row], order: Sequence[tuple[GridField, bool]]) -> list[Row]:
    out = sorted(found, key=lambda r: (r.order, r.id))
    for c, desc in reversed(list(order)):

        def key(r: Row, c: GridField = c) -> tuple[int, Any]:
            text = _text(ctx, c, r.values.get(c.id), r)
            if c.type in NUMERIC and text:
                return (0, _decimal(c, text))
            return (0, text.casefold()) if text else (1, "")

        filled = [r for r in out if key(r)[0] == 0]
        filled.sort(key=key, reverse=desc)
        out = filled + [r for r in out if key(r)[0] == 1]
    return out


# -- examples ---------------------------------------------------------------------------------


def _admin_of(ctx: Ctx, workspace_id: str) -> str:
    return next(u.email for u in ctx.where(WorkspaceUser, workspace_id=workspace_id, permissions="ADMIN"))


def _a_table(ctx: Ctx) -> tuple[GridTable, str]:
    table = next(t for t in ctx.where(GridTable, trashed=False) if ctx.first(Row, table_id=t.id, trashed=False))
    return table, _admin_of(ctx, _workspace_of(ctx, table))


def _sample(ctx: Ctx, table: GridTable) -> dict[str, CellIn]:
    out: dict[str, CellIn] = {}
    samples: dict[str, CellIn] = {
        "text": "Added by the conformance suite", "long_text": "A note.", "email": "new.person@example.com",
        "url": "https://example.com", "phone_number": "+14155550123", "number": "3", "boolean": True,
        "date": "2026-04-01", "rating": 2,
    }  # fmt: skip
    for c in _cols(ctx, table.id):
        if c.type in samples:
            out[c.name] = samples[c.type]
        elif c.type == "single_select" and c.select_options:
            out[c.name] = c.select_options[0].id
        elif c.type == "link_row":
            target = ctx.first(Row, table_id=c.link_row_table_id, trashed=False)
            out[c.name] = [target.id] if target else []
    return out


def _example_row(ctx: Ctx) -> dict[str, Any]:
    table, admin = _a_table(ctx)
    return {"table_id": table.id, "values": _sample(ctx, table), "user_email": admin}


def _example_batch(ctx: Ctx) -> dict[str, Any]:
    table, admin = _a_table(ctx)
    return {"table_id": table.id, "items": [_sample(ctx, table), _sample(ctx, table)], "user_email": admin}


def _example_update_row(ctx: Ctx) -> dict[str, Any]:
    table, admin = _a_table(ctx)
    row = ctx.first(Row, table_id=table.id, trashed=False)
    primary = next(c for c in _cols(ctx, table.id) if c.primary)
    return {
        "table_id": table.id,
        "row_id": row.id if row else "",
        "values": {primary.name: "Edited"},
        "user_email": admin,
    }


def _example_on_row(ctx: Ctx) -> dict[str, Any]:
    table, admin = _a_table(ctx)
    row = ctx.first(Row, table_id=table.id, trashed=False)
    return {"table_id": table.id, "row_id": row.id if row else "", "user_email": admin}


def _example_field(ctx: Ctx) -> dict[str, Any]:
    table, _ = _a_table(ctx)
    return {"table_id": table.id, "name": "Priority", "type": "single_select",
            "select_options": [{"value": "High", "color": "red"}, {"value": "Low", "color": "green"}]}  # fmt: skip


def _example_update_field(ctx: Ctx) -> dict[str, Any]:
    c = next(f for f in ctx.where(GridField, trashed=False, type="text") if not f.primary)
    return {"field_id": c.id, "type": "single_select"}


def _example_delete_field(ctx: Ctx) -> dict[str, Any]:
    c = next(f for f in ctx.where(GridField, trashed=False, primary=False))
    table = ctx.get(GridTable, c.table_id)
    return {"field_id": c.id, "user_email": _admin_of(ctx, _workspace_of(ctx, table))}


def _example_filter(ctx: Ctx) -> dict[str, Any]:
    c = next(f for f in ctx.where(GridField, trashed=False, type="single_select"))
    view = next(v for v in ctx.where(View, table_id=c.table_id))
    return {"view_id": view.id, "field_id": c.id, "type": "single_select_equal", "value": str(c.select_options[0].id)}


def _example_sort(ctx: Ctx) -> dict[str, Any] | None:
    for view in ctx.scan(View):
        used = {s.field_id for s in ctx.where(ViewSort, view_id=view.id)}
        for c in _cols(ctx, view.table_id):
            if c.id not in used and c.type != "link_row":
                return {"view_id": view.id, "field_id": c.id, "order": "DESC"}
    return None


def _example_invite(ctx: Ctx) -> dict[str, Any] | None:
    for ws in ctx.scan(Workspace):
        for p in ctx.population.employees:
            if ctx.first(WorkspaceUser, workspace_id=ws.id, email=p.email) is None and not ctx.first(
                WorkspaceInvitation, workspace_id=ws.id, email=p.email, status="pending"
            ):
                return {"workspace_id": ws.id, "email": p.email, "permissions": "MEMBER",
                        "invited_by_email": _admin_of(ctx, ws.id), "message": "Join us here."}  # fmt: skip
    return None


def _example_member(change: bool) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        for u in ctx.where(WorkspaceUser, permissions="MEMBER"):
            out = {"workspace_user_id": u.id, "user_email": _admin_of(ctx, u.workspace_id)}
            return out | ({"permissions": "ADMIN"} if change else {})
        return None

    return example


def _example_trash(ctx: Ctx) -> dict[str, Any]:
    return {"workspace_id": next(ctx.scan(Workspace)).id}


def _example_restore(ctx: Ctx) -> dict[str, Any] | None:
    for row in ctx.where(Row, trashed=True):
        table = ctx.get(GridTable, row.table_id)
        if not table.trashed:
            return {"trash_item_type": "row", "trash_item_id": row.id,
                    "user_email": _admin_of(ctx, _workspace_of(ctx, table))}  # fmt: skip
    return None


def _example_empty(ctx: Ctx) -> dict[str, Any]:
    ws = next(ctx.scan(Workspace))
    return {"workspace_id": ws.id, "user_email": _admin_of(ctx, ws.id)}


# -- workspaces -------------------------------------------------------------------------------


def _last_admin(ctx: Ctx, who: WorkspaceUser) -> bool:
    return who.permissions == "ADMIN" and len(ctx.where(WorkspaceUser, workspace_id=who.workspace_id,
                                                        permissions="ADMIN")) == 1  # fmt: skip


@service.tool(
    intent="change the member's permissions in the workspace",
    write=True,
    idempotent=True,
    example=_example_member(True),
)
def update_workspace_user(
    ctx: Ctx, workspace_user_id: WorkspaceUserId, permissions: Permissions, user_email: Email
) -> WorkspaceUser:
    """Make a workspace member an ADMIN or a MEMBER; only admins can, and the last admin stays one.

    Args:
        workspace_user_id: The workspace user.
        permissions: ADMIN or MEMBER.
        user_email: E-mail of the admin making the change.
    """
    who = ctx.get(WorkspaceUser, workspace_user_id, field="workspace_user_id")
    _member(ctx, who.workspace_id, user_email, admin=True)
    if permissions == "MEMBER" and _last_admin(ctx, who):
        raise RuleViolation(
            f"{who.email} is the workspace's last admin", field="permissions", hint="make someone else an admin first"
        )
    return ctx.update(who, permissions=permissions)


@service.tool(
    intent="remove the member from the workspace", write=True, destructive=True, example=_example_member(False)
)
def delete_workspace_user(ctx: Ctx, workspace_user_id: WorkspaceUserId, user_email: Email) -> Removed:
    """Remove a member from a workspace; admins can, anyone can leave, and the last admin cannot go.

    Args:
        workspace_user_id: The workspace user.
        user_email: E-mail of an admin, or of the member leaving.
    """
    who = ctx.get(WorkspaceUser, workspace_user_id, field="workspace_user_id")
    if user_email != who.email:
        _member(ctx, who.workspace_id, user_email, admin=True)
    if _last_admin(ctx, who):
        raise RuleViolation(
            f"{who.email} is the workspace's last admin and cannot leave",
            field="workspace_user_id",
            hint="make someone else an admin first (gridbase__update_workspace_user)",
        )
    ctx.delete(who)
    return Removed(id=who.id)


@service.tool(intent="invite someone to the workspace", write=True, example=_example_invite)
def create_workspace_invitation(
    ctx: Ctx, workspace_id: WorkspaceId, email: Email, permissions: Permissions, invited_by_email: Email,
    message: Text = "",
) -> WorkspaceInvitation:  # fmt: skip
    """Invite a person by e-mail to join a workspace; only admins invite.

    Someone already a member, or already invited and not yet answered, is not invited again.

    Args:
        workspace_id: The workspace.
        email: E-mail of the person to invite.
        permissions: ADMIN or MEMBER once they accept.
        invited_by_email: E-mail of the admin inviting.
        message: A note for the invitation e-mail.
    """
    ws = ctx.get(Workspace, workspace_id, field="workspace_id")
    _member(ctx, ws.id, invited_by_email, "invited_by_email", admin=True)
    if ctx.first(WorkspaceUser, workspace_id=ws.id, email=email) is not None:
        raise Conflict(f"{email} is already a member of {ws.name!r}", field="email", hint="nothing to do")
    pending = ctx.first(WorkspaceInvitation, workspace_id=ws.id, email=email, status="pending")
    if pending is not None:
        raise Conflict(
            f"{email} already has a pending invitation ({pending.id})",
            field="email",
            hint="wait for them to accept it, or reject it and invite again",
        )
    return ctx.create(
        WorkspaceInvitation, workspace_id=ws.id, email=email, permissions=permissions, message=message,
        invited_by_email=invited_by_email,
    )  # fmt: skip


@service.tool(
    intent="accept the workspace invitation",
    write=True,
    example=first_example(WorkspaceInvitation, "invitation_id", where={"status": "pending"}),
)
def accept_workspace_invitation(ctx: Ctx, invitation_id: InvitationId) -> WorkspaceUser:
    """Accept a pending invitation: the invited person joins the workspace with its permissions.

    Args:
        invitation_id: The invitation.
    """
    inv = ctx.get(WorkspaceInvitation, invitation_id, field="invitation_id")
    if inv.status != "pending":
        raise RuleViolation(
            f"the invitation is {inv.status}", field="invitation_id", hint="only pending invitations can be accepted"
        )
    if ctx.first(WorkspaceUser, workspace_id=inv.workspace_id, email=inv.email) is not None:
        raise Conflict(f"{inv.email} is already a member", field="invitation_id", hint="nothing to do")
    person = next((p for p in ctx.population.people if p.email == inv.email), None)
    ctx.update(inv, status="accepted")
    return ctx.create(
        WorkspaceUser, workspace_id=inv.workspace_id, email=inv.email,
        name=person.name if person else inv.email.split("@")[0], permissions=inv.permissions,
    )  # fmt: skip


# -- databases, tables and fields -------------------------------------------------------------


@service.tool(
    intent="create a database in the workspace",
    write=True,
    example=lambda ctx: {"workspace_id": next(ctx.scan(Workspace)).id, "name": "Events",
                         "user_email": _admin_of(ctx, next(ctx.scan(Workspace)).id)},
)  # fmt: skip
def create_database(ctx: Ctx, workspace_id: WorkspaceId, name: Title, user_email: Email) -> Database:
    """Create an empty database application in a workspace.

    Args:
        workspace_id: The workspace.
        name: Database name.
        user_email: E-mail of the member creating it.
    """
    ws = ctx.get(Workspace, workspace_id, field="workspace_id")
    _member(ctx, ws.id, user_email)
    return ctx.create(Database, workspace_id=ws.id, name=name)


def _check_name(ctx: Ctx, table_id: str, name: str, own: str | None, field: str = "name") -> None:
    if name.strip().lower() in RESERVED:
        raise RuleViolation(f"{name!r} is a reserved field name", field=field, hint="id and order are reserved")
    for c in _cols(ctx, table_id):
        if c.id != own and c.name == name:
            raise Conflict(f"a field named {name!r} already exists ({c.id})", field=field, hint="pick another name")


@service.tool(
    intent="create a table in the database",
    write=True,
    example=lambda ctx: {"database_id": ctx.where(Database, trashed=False)[0].id, "name": "Contacts",
                         "user_email": _admin_of(ctx, ctx.where(Database, trashed=False)[0].workspace_id)},
)  # fmt: skip
def create_table(ctx: Ctx, database_id: DatabaseId, name: FieldName, user_email: Email) -> TableOut:
    """Create a table with the default fields Name (primary text), Notes and Active, two empty rows and a Grid view.

    Args:
        database_id: The database.
        name: Table name.
        user_email: E-mail of the member creating it.
    """
    db = ctx.get(Database, database_id, field="database_id")
    if db.trashed:
        raise NotFound(f"database {db.name!r} is in the trash", field="database_id", hint="restore it first")
    _member(ctx, db.workspace_id, user_email)
    table = ctx.create(GridTable, database_id=db.id, name=name)
    made = [
        ctx.create(GridField, table_id=table.id, name="Name", type="text", primary=True),
        ctx.create(GridField, table_id=table.id, name="Notes", type="long_text"),
        ctx.create(GridField, table_id=table.id, name="Active", type="boolean"),
    ]
    for _ in range(2):
        _save(ctx, table, None, {})
    view = ctx.create(View, table_id=table.id, name="Grid")
    return TableOut(table=table, fields=made, view=view)


def _link_to(ctx: Ctx, table: GridTable, link_row_table_id: str | None, field: str) -> GridTable:
    target = ctx.find(GridTable, link_row_table_id or "")
    if target is None or target.trashed:
        raise NotFound(
            "a link_row field needs the live table it links to",
            field=field,
            hint="give link_row_table_id of a table of the same database (gridbase__list_tables)",
        )
    if target.database_id != table.database_id:
        raise RuleViolation(
            f"table {target.name!r} is in another database", field=field, hint="link to a table of the same database"
        )
    return target


def _add_related(ctx: Ctx, c: GridField, table: GridTable, target: GridTable) -> GridField:
    if target.id == table.id:
        return c
    name, k = table.name, 2
    while any(o.name == name for o in _cols(ctx, target.id)):
        name, k = f"{table.name} - {c.name}" if k == 2 else f"{table.name} - {c.name} {k}", k + 1
    related = ctx.create(
        GridField, table_id=target.id, name=name, type="link_row", link_row_table_id=table.id,
        link_row_related_field_id=c.id,
    )  # fmt: skip
    return ctx.update(c, link_row_related_field_id=related.id)


def _options(given: Sequence[OptionIn], current: Sequence[SelectOption]) -> tuple[SelectOption, ...]:
    top = max((o.id for o in current), default=0)
    out = []
    for o in given:
        if o.id is not None and all(c.id != o.id for c in current):
            raise RuleViolation(
                f"no select option with id {o.id}", field="select_options", hint="omit id for a new one"
            )
        if o.id is None:
            top += 1
        out.append(SelectOption(id=o.id if o.id is not None else top, value=o.value, color=o.color))
    return tuple(out)


@service.tool(intent="add a field to the table", write=True, example=_example_field)
def create_field(
    ctx: Ctx,
    table_id: TableId,
    name: FieldName,
    type: FieldType,
    select_options: list[OptionIn] | None = None,
    number_decimal_places: Annotated[int, Field(ge=0, le=10)] = 0,
    number_negative: bool = False,
    date_include_time: bool = False,
    link_row_table_id: TableId | None = None,
    max_value: Annotated[int, Field(ge=1, le=10)] = 5,
) -> GridField:
    """Add a field to a table; a link_row field also adds a related field to the linked table.

    Args:
        table_id: The table.
        name: Field name; unique in the table; not id nor order.
        type: The field type.
        select_options: Options of a single or multiple select.
        number_decimal_places: Decimal places of a number field (0-10).
        number_negative: Whether a number field takes negative values.
        date_include_time: Whether a date field holds a time.
        link_row_table_id: The table a link_row field links to (same database).
        max_value: Highest value of a rating field (1-10).
    """
    table = _live_table(ctx, table_id)
    _check_name(ctx, table.id, name, None)
    target = _link_to(ctx, table, link_row_table_id, "link_row_table_id") if type == "link_row" else None
    c = ctx.create(
        GridField, table_id=table.id, name=name, type=type, number_decimal_places=number_decimal_places,
        number_negative=number_negative, date_include_time=date_include_time,
        select_options=_options(select_options or [], ()) if type in ("single_select", "multiple_select") else (),
        link_row_table_id=target.id if target else None, max_value=max_value if type == "rating" else None,
    )  # fmt: skip
    if target is not None:
        c = _add_related(ctx, c, table, target)
    if type == "autonumber":
        _number_rows(ctx, c)
    return c


def _convert(ctx: Ctx, old: GridField, new: GridField) -> None:
    """Convert every row's value of a field from its old type to its new one (what does not convert empties)."""
    for row in ctx.where(Row, table_id=old.table_id):
        reread = old.type != new.type or new.type in ("single_select", "multiple_select", "number")
        text = _text(ctx, old, row.values.get(old.id), row) if reread else None
        if new.type in READ_ONLY or new.type == "link_row":
            value: Stored = None
        elif text is None:
            value = row.values.get(old.id)
        elif new.type == "multiple_select":
            parts = [p.strip() for p in text.split(",") if p.strip()]
            value = [o.id for o in new.select_options if o.value in parts] or None
        elif new.type == "single_select":
            value = next((o.id for o in new.select_options if o.value == text), None)
        elif new.type == "number":
            number = _decimal(new, text)
            value = None if number is None or (number < 0 and not new.number_negative) else _fmt(new, number)
        else:
            try:
                value = _parse(ctx, new, text, "type")
            except (RuleViolation, NotFound):
                value = None
        ctx.update(row, values={k: v for k, v in {**row.values, new.id: value}.items() if v is not None})


@service.tool(intent="change the field", write=True, idempotent=True, example=_example_update_field)
def update_field(
    ctx: Ctx,
    field_id: FieldId,
    name: FieldName | None = None,
    type: FieldType | None = None,
    select_options: list[OptionIn] | None = None,
    number_decimal_places: Annotated[int, Field(ge=0, le=10)] | None = None,
    link_row_table_id: TableId | None = None,
) -> GridField:
    """Rename a field or change its type or options; existing values are converted.

    Converting to a select makes an option of each distinct value (when no options are given);
    values that do not fit the new type are emptied; the primary field cannot become a link.
    Options left out of select_options are removed from the rows that had them.

    Args:
        field_id: The field.
        name: New name.
        type: New type.
        select_options: The select options (existing ones by id).
        number_decimal_places: Decimal places of a number field.
        link_row_table_id: The table it links to, when it becomes a link_row field.
    """
    c = ctx.get(GridField, field_id, field="field_id")
    table = _live_table(ctx, c.table_id, "field_id")
    if c.trashed:
        raise NotFound(f"field {c.name!r} is in the trash", field="field_id", hint="restore it first")
    if name is not None:
        _check_name(ctx, table.id, name, c.id)
    kind = type or c.type
    if c.primary and kind == "link_row":
        raise RuleViolation("the primary field cannot be a link_row field", field="type", hint="pick another type")
    changes: dict[str, Any] = {"name": name or c.name, "type": kind}
    if number_decimal_places is not None:
        changes["number_decimal_places"] = number_decimal_places
    if kind in ("single_select", "multiple_select"):
        if select_options is not None:
            changes["select_options"] = _options(select_options, c.select_options)
        elif c.type not in ("single_select", "multiple_select"):
            seen: dict[str, None] = {}
            for row in ctx.where(Row, table_id=table.id):
                text = _text(ctx, c, row.values.get(c.id), row)
                for part in text.split(",") if kind == "multiple_select" else [text]:
                    if part.strip():
                        seen[part.strip()] = None
            changes["select_options"] = tuple(
                SelectOption(id=k, value=v, color=COLORS[(k - 1) % len(COLORS)]) for k, v in enumerate(seen, start=1)
            )
    elif select_options is not None:
        raise RuleViolation("only select fields take options", field="select_options", hint="omit them")
    if c.type == "link_row" and kind != "link_row" and c.link_row_related_field_id:
        related = ctx.find(GridField, c.link_row_related_field_id)
        if related is not None:
            _drop_field(ctx, related)
        changes["link_row_related_field_id"] = None
        changes["link_row_table_id"] = None
    new = c.model_copy(update=changes)
    if kind == "link_row" and c.type != "link_row":
        target = _link_to(ctx, table, link_row_table_id, "link_row_table_id")
        new = new.model_copy(update={"link_row_table_id": target.id})
    _convert(ctx, c, new)
    saved = ctx.update(c, **{k: getattr(new, k) for k in ("name", "type", "number_decimal_places", "select_options",
                                                           "link_row_table_id", "link_row_related_field_id")})  # fmt: skip
    if kind == "link_row" and c.type != "link_row":
        saved = _add_related(ctx, saved, table, ctx.get(GridTable, saved.link_row_table_id or ""))
    if kind == "autonumber" and c.type != "autonumber":
        _number_rows(ctx, saved)
    return saved


def _drop_field(ctx: Ctx, c: GridField) -> None:
    """Delete a field for good: its values, filters and sortings."""
    for row in ctx.where(Row, table_id=c.table_id):
        if c.id in row.values:
            ctx.update(row, values={k: v for k, v in row.values.items() if k != c.id})
    for item in [*ctx.where(ViewFilter, field_id=c.id), *ctx.where(ViewSort, field_id=c.id)]:
        ctx.delete(item)
    ctx.delete(c)


@service.tool(intent="delete the field", write=True, example=_example_delete_field)
def delete_field(ctx: Ctx, field_id: FieldId, user_email: Email) -> GridField:
    """Move a field to the trash (a link takes its related field along); the primary field stays.

    Its values, filters and sortings come back if it is restored.

    Args:
        field_id: The field.
        user_email: E-mail of the member deleting it.
    """
    c = ctx.get(GridField, field_id, field="field_id")
    table = _live_table(ctx, c.table_id, "field_id")
    _member(ctx, _workspace_of(ctx, table), user_email)
    if c.trashed:
        raise Conflict(f"field {c.name!r} is already in the trash", field="field_id", hint="nothing to do")
    if c.primary:
        raise RuleViolation(
            f"{c.name!r} is the primary field and cannot be deleted", field="field_id", hint="change it instead"
        )
    if (v := ctx.first(View, table_id=table.id, single_select_field_id=c.id)) is not None:
        raise RuleViolation(
            f"kanban view {v.name!r} stacks by {c.name!r}", field="field_id", hint="delete that view first"
        )
    if c.link_row_related_field_id and (related := ctx.find(GridField, c.link_row_related_field_id)):
        ctx.update(related, trashed=True, trashed_at=ctx.now())
    return ctx.update(c, trashed=True, trashed_at=ctx.now())


def _example_delete_table(ctx: Ctx) -> dict[str, Any]:
    table, admin = _a_table(ctx)
    return {"table_id": table.id, "user_email": admin}


@service.tool(intent="delete the table", write=True, example=_example_delete_table)
def delete_table(ctx: Ctx, table_id: TableId, user_email: Email) -> GridTable:
    """Move a table to the trash with its rows and fields; link fields of other tables to it go along.

    Args:
        table_id: The table.
        user_email: E-mail of the member deleting it.
    """
    table = _live_table(ctx, table_id)
    _member(ctx, _workspace_of(ctx, table), user_email)
    for c in ctx.where(GridField, link_row_table_id=table.id, trashed=False):
        if c.table_id != table.id:
            ctx.update(c, trashed=True, trashed_at=ctx.now())
    return ctx.update(table, trashed=True, trashed_at=ctx.now())


# -- rows -------------------------------------------------------------------------------------


def _check_filter(ctx: Ctx, c: GridField, f_type: str, value: str, where: str) -> None:
    """Refuse a filter whose type does not suit the field or whose value cannot be compared."""
    if c.type not in COMPATIBLE[f_type]:
        fits = [t for t, kinds in COMPATIBLE.items() if c.type in kinds]
        raise RuleViolation(
            f"filter type {f_type!r} is not compatible with {c.type} field {c.name!r}",
            field=_at(where, "type"),
            hint=f"use one of: {', '.join(fits)}",
        )
    v = value.strip()
    if not v or f_type in ("empty", "not_empty", "contains", "contains_not") or c.type in TEXT:
        return
    problem = None
    if c.type in NUMERIC and _decimal(c, v) is None:
        problem = "give a number"
    elif f_type.startswith("date_") and not _DAY.match(v):
        problem = "give a date as YYYY-MM-DD"
    elif f_type.startswith("single_select") and v not in {str(o.id) for o in c.select_options}:
        problem = "give an option id: " + ", ".join(f"{o.id} ({o.value})" for o in c.select_options)
    elif f_type == "boolean" and v.lower() not in _TRUE | _FALSE:
        problem = "give 1 or 0"
    elif f_type.startswith("link_row_has"):
        row = ctx.find(Row, v)
        if row is None or row.table_id != c.link_row_table_id:
            problem = f"give the id of a row of the linked table ({c.link_row_table_id})"
    if problem is not None:
        raise RuleViolation(
            f"{value!r} is not a value for a {f_type} filter on {c.name!r}", field=_at(where, "value"), hint=problem
        )


def _at(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _example_list(ctx: Ctx) -> dict[str, Any]:
    view = next(v for v in ctx.scan(View) if ctx.first(ViewFilter, view_id=v.id))
    return {"table_id": view.table_id, "view_id": view.id, "size": 20}


@service.tool(intent="list the rows of the table", example=_example_list)
def list_rows(
    ctx: Ctx,
    table_id: TableId,
    user_field_names: bool = True,
    search: Annotated[str, StringConstraints(max_length=200)] | None = None,
    order_by: Annotated[str, StringConstraints(max_length=500)] | None = None,
    filter_type: Literal["AND", "OR"] = "AND",
    filters: list[FilterIn] | None = None,
    view_id: ViewId | None = None,
    include: list[str] | None = None,
    page: Annotated[int, Field(ge=1)] = 1,
    size: Annotated[int, Field(ge=1, le=MAX_PAGE)] = 100,
) -> RowPage:
    """List a table's rows (trashed ones aside): searched, filtered, sorted and paged.

    A view's filters (unless disabled) and sortings apply, and the filters given here too;
    ``order_by`` (``-Value,Name``: a leading - sorts descending) overrides the view's sortings.
    A filter with an empty value is not applied.

    Args:
        table_id: The table.
        user_field_names: Name fields by their names (true) or by their ids.
        search: Only rows with this text in some field.
        order_by: Comma-separated fields to sort by.
        filter_type: AND (every filter) or OR (any) for the filters given here.
        filters: Filters: field, type and value.
        view_id: Only the rows this view shows, in its order.
        include: Only these fields in each row.
        page: Page number from 1.
        size: Rows per page (at most 200).
    """
    table = _live_table(ctx, table_id)
    cols = _cols(ctx, table.id)
    by_id = {c.id: c for c in cols}
    found = ctx.where(Row, table_id=table.id, trashed=False)
    order: list[tuple[GridField, bool]] = []
    if view_id is not None:
        view = ctx.get(View, view_id, field="view_id")
        if view.table_id != table.id:
            raise RuleViolation(
                f"view {view.name!r} is of another table", field="view_id", hint="list the table's views"
            )
        if not view.filters_disabled:
            tests = [(f.field_id, f.type, f.value) for f in ctx.where(ViewFilter, view_id=view.id)]
            found = [r for r in found if _keep(ctx, by_id, tests, view.filter_type, r)]
        order = [
            (by_id[s.field_id], s.order == "DESC") for s in ctx.where(ViewSort, view_id=view.id) if s.field_id in by_id
        ]
    if filters:
        tests = []
        for k, f in enumerate(filters):
            c = _col(cols, f.field, user_field_names, table, f"filters.{k}.field")
            _check_filter(ctx, c, f.type, f.value, f"filters.{k}")
            tests.append((c.id, f.type, f.value))
        found = [r for r in found if _keep(ctx, by_id, tests, filter_type, r)]
    if search:
        needle = search.casefold()
        found = [r for r in found if any(needle in _text(ctx, c, r.values.get(c.id), r).casefold() for c in cols)]
    if order_by:
        order = []
        for part in (p.strip() for p in order_by.split(",")):
            c = _col(cols, part.lstrip("-+"), user_field_names, table, "order_by")
            if c.type == "link_row":
                raise RuleViolation(f"rows cannot be sorted by link field {c.name!r}", field="order_by",
                                    hint="sort by another field")  # fmt: skip
            order.append((c, part.startswith("-")))
    found = _sort(ctx, found, order)
    keep = None if include is None else {_col(cols, n, user_field_names, table, "include").id for n in include}
    start = (page - 1) * size
    if start and start >= len(found):
        raise NotFound(f"page {page} is past the last page", field="page", hint="start again from page 1")
    return RowPage(
        count=len(found),
        next=page + 1 if start + size < len(found) else None,
        previous=page - 1 if page > 1 else None,
        results=[_row_out(ctx, r, cols, user_field_names, keep) for r in found[start : start + size]],
    )


@service.tool(
    intent="get the row", example=lambda ctx: {k: v for k, v in _example_on_row(ctx).items() if k != "user_email"}
)
def get_row(ctx: Ctx, table_id: TableId, row_id: RowId, user_field_names: bool = True) -> RowOut:
    """Get one row of a table with all its values.

    Args:
        table_id: The table.
        row_id: The row.
        user_field_names: Name fields by their names (true) or by their ids.
    """
    table = _live_table(ctx, table_id)
    return _row_out(ctx, _row_in(ctx, table, row_id), _cols(ctx, table.id), user_field_names)


@service.tool(intent="add a row to the table", write=True, example=_example_row)
def create_row(
    ctx: Ctx,
    table_id: TableId,
    values: dict[str, CellIn],
    user_email: Email,
    user_field_names: bool = True,
    before_id: RowId | None = None,
) -> RowOut:
    """Create a row, at the end or before another row; values must fit their fields.

    A select takes an option id or value of the field; a link takes row ids (or primary values) of
    the linked table; read only fields take nothing.

    Args:
        table_id: The table.
        values: Values by field name (or by field id without user_field_names).
        user_email: E-mail of the workspace member creating it.
        user_field_names: Values are keyed by field name (true) or by field id.
        before_id: Put the row before this row.
    """
    table = _live_table(ctx, table_id)
    _member(ctx, _workspace_of(ctx, table), user_email)
    parsed = _values(ctx, table, values, user_field_names, "values")
    order = None
    if before_id is not None:
        before = _row_in(ctx, table, before_id, "before_id")
        prior = max((r.order for r in ctx.where(Row, table_id=table.id) if r.order < before.order), default=0.0)
        order = (prior + before.order) / 2
    row = _save(ctx, table, None, parsed, order)
    return _row_out(ctx, row, _cols(ctx, table.id), user_field_names)


@service.tool(intent="add several rows to the table", write=True, example=_example_batch)
def batch_create_rows(
    ctx: Ctx, table_id: TableId, items: list[dict[str, CellIn]], user_email: Email, user_field_names: bool = True
) -> list[RowOut]:
    """Create up to 200 rows in one request, at the end of the table; each must be valid or none is made.

    Args:
        table_id: The table.
        items: Each row's values.
        user_email: E-mail of the workspace member creating them.
        user_field_names: Values are keyed by field name (true) or by field id.
    """
    table = _live_table(ctx, table_id)
    _member(ctx, _workspace_of(ctx, table), user_email)
    if not items or len(items) > MAX_BATCH:
        raise RuleViolation(
            f"{len(items)} rows given; a batch takes 1 to {MAX_BATCH}",
            field="items",
            hint=f"split the rows into batches of {MAX_BATCH} or fewer",
        )
    parsed = [_values(ctx, table, v, user_field_names, f"items.{k}") for k, v in enumerate(items)]
    cols = _cols(ctx, table.id)
    return [_row_out(ctx, _save(ctx, table, None, p), cols, user_field_names) for p in parsed]


@service.tool(intent="update the row", write=True, idempotent=True, example=_example_update_row)
def update_row(
    ctx: Ctx,
    table_id: TableId,
    row_id: RowId,
    values: dict[str, CellIn],
    user_email: Email,
    user_field_names: bool = True,
) -> RowOut:
    """Change some values of a row; the change goes into the row's history.

    Args:
        table_id: The table.
        row_id: The row.
        values: New values by field name (or field id); null empties a value.
        user_email: E-mail of the workspace member changing it.
        user_field_names: Values are keyed by field name (true) or by field id.
    """
    table = _live_table(ctx, table_id)
    who = _member(ctx, _workspace_of(ctx, table), user_email)
    row = _row_in(ctx, table, row_id)
    parsed = _values(ctx, table, values, user_field_names, "values")
    cols = {c.id: c for c in _cols(ctx, table.id)}
    before = {fid: _text(ctx, cols[fid], row.values.get(fid), row) for fid in parsed}
    saved = _save(ctx, table, row, parsed)
    after = {fid: _text(ctx, cols[fid], saved.values.get(fid), saved) for fid in parsed}
    changed = [fid for fid in parsed if before[fid] != after[fid]]
    if changed:
        ctx.create(
            RowHistory, table_id=table.id, row_id=row.id, user_email=who.email, user_name=who.name,
            before={cols[f].name: before[f] or None for f in changed},
            after={cols[f].name: after[f] or None for f in changed},
        )  # fmt: skip
    return _row_out(ctx, saved, list(cols.values()), user_field_names)


def _trash_item(ctx: Ctx, kind: TrashType, rec: Any) -> TrashItem:
    when = rec.trashed_at
    if kind == "row":
        name, parent = _primary_text(ctx, rec), rec.table_id
    elif kind == "field":
        name, parent = rec.name, rec.table_id
    elif kind == "table":
        name, parent = rec.name, rec.database_id
    else:
        name, parent = rec.name, None
    return TrashItem(
        trash_item_type=kind, trash_item_id=rec.id, name=name or rec.id, parent_id=parent, trashed_at=when,
        permanently_deleted_at=when + dt.timedelta(hours=TRASH_HOURS),
    )  # fmt: skip


@service.tool(intent="delete the row", write=True, example=_example_on_row)
def delete_row(ctx: Ctx, table_id: TableId, row_id: RowId, user_email: Email) -> TrashItem:
    """Move a row to the trash; it can be restored for 72 hours.

    Args:
        table_id: The table.
        row_id: The row.
        user_email: E-mail of the workspace member deleting it.
    """
    table = _live_table(ctx, table_id)
    _member(ctx, _workspace_of(ctx, table), user_email)
    row = _row_in(ctx, table, row_id)
    return _trash_item(ctx, "row", ctx.update(row, trashed=True, trashed_at=ctx.now()))


@service.tool(
    intent="read the row's change history",
    example=first_example(RowHistory, None, fields={"table_id": "table_id", "row_id": "row_id"}),
)
def list_row_history(ctx: Ctx, table_id: TableId, row_id: RowId) -> list[RowHistory]:
    """List a row's changes, latest first: who changed which fields, from what to what.

    Args:
        table_id: The table.
        row_id: The row (trashed rows keep their history).
    """
    table = ctx.get(GridTable, table_id, field="table_id")
    row = ctx.find(Row, row_id)
    if row is None or row.table_id != table.id:
        raise NotFound(f"table {table.name!r} has no row {row_id!r}", field="row_id", hint="list the table's rows")
    return sorted(ctx.where(RowHistory, row_id=row.id), key=lambda h: (h.timestamp, h.id), reverse=True)


# -- views ------------------------------------------------------------------------------------


def _example_view(ctx: Ctx) -> dict[str, Any]:
    c = next(f for f in ctx.where(GridField, trashed=False, type="single_select"))
    return {"table_id": c.table_id, "name": "Board", "type": "kanban", "single_select_field_id": c.id}


@service.tool(intent="create a view of the table", write=True, example=_example_view)
def create_view(
    ctx: Ctx,
    table_id: TableId,
    name: FieldName,
    type: Literal["grid", "gallery", "form", "kanban"] = "grid",
    filter_type: Literal["AND", "OR"] = "AND",
    single_select_field_id: FieldId | None = None,
) -> View:
    """Create a view of a table; a kanban view stacks rows by a single select field.

    Args:
        table_id: The table.
        name: View name.
        type: grid, gallery, form or kanban.
        filter_type: AND or OR for the filters it will get.
        single_select_field_id: The single select field a kanban view stacks by.
    """
    table = _live_table(ctx, table_id)
    if type == "kanban":
        c = ctx.find(GridField, single_select_field_id or "")
        if c is None or c.table_id != table.id or c.trashed or c.type != "single_select":
            raise RuleViolation(
                "a kanban view needs a single select field of the table",
                field="single_select_field_id",
                hint="give the id of such a field (gridbase__list_fields type=single_select)",
            )
    elif single_select_field_id is not None:
        raise RuleViolation(f"a {type} view stacks by nothing", field="single_select_field_id", hint="omit it")
    return ctx.create(
        View, table_id=table.id, name=name, type=type, filter_type=filter_type,
        single_select_field_id=single_select_field_id,
    )  # fmt: skip


@service.tool(intent="look at the view's filters and sortings", example=first_example(View, "view_id"))
def get_view(ctx: Ctx, view_id: ViewId) -> ViewOut:
    """Get a view with its filters and sortings.

    Args:
        view_id: The view.
    """
    view = ctx.get(View, view_id, field="view_id")
    return ViewOut(
        view=view, filters=ctx.where(ViewFilter, view_id=view.id), sortings=ctx.where(ViewSort, view_id=view.id)
    )


def _view_field(ctx: Ctx, view: View, field_id: str) -> GridField:
    c = ctx.find(GridField, field_id)
    if c is None or c.table_id != view.table_id or c.trashed:
        raise NotFound(
            f"the view's table has no live field {field_id!r}",
            field="field_id",
            hint="list the table's fields with gridbase__list_fields",
        )
    return c


@service.tool(intent="add a filter to the view", write=True, example=_example_filter)
def create_view_filter(ctx: Ctx, view_id: ViewId, field_id: FieldId, type: FilterType, value: str = "") -> ViewFilter:
    """Add a filter to a view; the type must suit the field (higher_than on numbers, single_select_equal on selects …).

    Args:
        view_id: The view.
        field_id: The field to filter on.
        type: The filter type.
        value: The value as text: a number, a date, an option id, a row id, 1 or 0; empty: not applied yet.
    """
    view = ctx.get(View, view_id, field="view_id")
    c = _view_field(ctx, view, field_id)
    _check_filter(ctx, c, type, value, "")
    return ctx.create(ViewFilter, view_id=view.id, field_id=c.id, type=type, value=value.strip())


@service.tool(intent="sort the view by the field", write=True, example=_example_sort)
def create_view_sort(ctx: Ctx, view_id: ViewId, field_id: FieldId, order: Literal["ASC", "DESC"] = "ASC") -> ViewSort:
    """Add a sorting to a view, after its others; a field is sorted on once per view and links are not sortable.

    Args:
        view_id: The view.
        field_id: The field to sort by.
        order: ASC or DESC.
    """
    view = ctx.get(View, view_id, field="view_id")
    c = _view_field(ctx, view, field_id)
    if c.type == "link_row":
        raise RuleViolation(f"link field {c.name!r} is not sortable", field="field_id", hint="sort by another field")
    if ctx.first(ViewSort, view_id=view.id, field_id=c.id) is not None:
        raise Conflict(f"the view already sorts by {c.name!r}", field="field_id", hint="a field is sorted on once")
    return ctx.create(ViewSort, view_id=view.id, field_id=c.id, order=order)


# -- trash ------------------------------------------------------------------------------------


def _gone(ctx: Ctx, when: dt.datetime | None) -> bool:
    return when is not None and when + dt.timedelta(hours=TRASH_HOURS) <= ctx.now()


def _trashed(ctx: Ctx, workspace_id: str, database_id: str | None, expired: bool) -> list[tuple[TrashType, Any]]:
    """What is in a workspace's (or database's) trash: restorable items, or with ``expired`` those gone too."""
    out: list[tuple[TrashType, Any]] = []
    for db in ctx.where(Database, workspace_id=workspace_id):
        if database_id is not None and db.id != database_id:
            continue
        if db.trashed:
            out.append(("database", db))
        for table in ctx.where(GridTable, database_id=db.id):
            if table.trashed:
                out.append(("table", table))
            out.extend(("field", c) for c in ctx.where(GridField, table_id=table.id, trashed=True))
            out.extend(("row", r) for r in ctx.where(Row, table_id=table.id, trashed=True))
    return [(k, r) for k, r in out if expired or not _gone(ctx, r.trashed_at)]


def _in_workspace(ctx: Ctx, workspace_id: str, database_id: str | None) -> None:
    ctx.get(Workspace, workspace_id, field="workspace_id")
    if database_id is not None and ctx.get(Database, database_id, field="database_id").workspace_id != workspace_id:
        raise RuleViolation("the database is in another workspace", field="database_id", hint="list its databases")


@service.tool(intent="look in the trash", example=_example_trash)
def list_trash(ctx: Ctx, workspace_id: WorkspaceId, database_id: DatabaseId | None = None) -> Trash:
    """List what can still be restored from a workspace's trash (or one database's), latest first.

    Args:
        workspace_id: The workspace.
        database_id: Only this database's trash.
    """
    _in_workspace(ctx, workspace_id, database_id)
    items = [_trash_item(ctx, k, r) for k, r in _trashed(ctx, workspace_id, database_id, False)]
    items.sort(key=lambda i: (i.trashed_at, i.trash_item_id), reverse=True)
    return Trash(workspace_id=workspace_id, database_id=database_id, items=items)


_TRASH_MODELS: dict[str, type[Record]] = {"database": Database, "table": GridTable, "field": GridField, "row": Row}


@service.tool(intent="restore the item from the trash", write=True, example=_example_restore)
def restore_from_trash(ctx: Ctx, trash_item_type: TrashType, trash_item_id: str, user_email: Email) -> TrashItem:
    """Bring a trashed database, table, field or row back (with what was trashed along with it).

    A row or field of a trashed table, or a table of a trashed database, waits for its parent
    to be restored first; a field whose name was taken meanwhile cannot come back; after 72
    hours an item is gone for good.

    Args:
        trash_item_type: database, table, field or row.
        trash_item_id: The item's id.
        user_email: E-mail of the workspace member restoring it.
    """
    rec: Any = ctx.find(_TRASH_MODELS[trash_item_type], trash_item_id)
    if rec is None or not rec.trashed or _gone(ctx, rec.trashed_at):
        raise NotFound(
            f"no {trash_item_type} {trash_item_id!r} in the trash"
            + (" (deleted for good)" if rec and rec.trashed else ""),
            field="trash_item_id",
            hint="list what can be restored with gridbase__list_trash",
        )
    table = rec if trash_item_type == "table" else ctx.find(GridTable, getattr(rec, "table_id", ""))
    db = rec if trash_item_type == "database" else ctx.get(Database, table.database_id if table else "")
    _member(ctx, db.workspace_id, user_email)
    parent = None
    if trash_item_type in ("row", "field") and table is not None and table.trashed:
        parent = f"table {table.name!r}"
    if trash_item_type in ("row", "field", "table") and db.trashed:
        parent = f"database {db.name!r}"
    if parent is not None:
        raise RuleViolation(
            f"the {trash_item_type}'s {parent} is in the trash",
            field="trash_item_id",
            hint=f"restore the {parent.split()[0]} first",
        )
    if trash_item_type == "field":
        _check_name(ctx, rec.table_id, rec.name, rec.id, "trash_item_id")
        related = ctx.find(GridField, rec.link_row_related_field_id or "")
        if related is not None and related.trashed and not ctx.get(GridTable, related.table_id).trashed:
            ctx.update(related, trashed=False, trashed_at=None)
    if trash_item_type == "table":
        for c in ctx.where(GridField, link_row_table_id=rec.id, trashed=True):
            if c.trashed_at == rec.trashed_at:
                ctx.update(c, trashed=False, trashed_at=None)
    item = _trash_item(ctx, trash_item_type, rec)
    ctx.update(rec, trashed=False, trashed_at=None)
    return item


def _purge_row(ctx: Ctx, row: Row) -> None:
    for c in ctx.where(GridField, link_row_table_id=row.table_id):
        for other in ctx.where(Row, table_id=c.table_id):
            if row.id in _ids(other.values.get(c.id)):
                left = [x for x in _ids(other.values.get(c.id)) if x != row.id]
                ctx.update(other, values={**other.values, c.id: left})
    for h in ctx.where(RowHistory, row_id=row.id):
        ctx.delete(h)
    ctx.delete(row)


def _purge_table(ctx: Ctx, table: GridTable) -> None:
    for row in ctx.where(Row, table_id=table.id):
        for h in ctx.where(RowHistory, row_id=row.id):
            ctx.delete(h)
        ctx.delete(row)
    for view in ctx.where(View, table_id=table.id):
        for item in [*ctx.where(ViewFilter, view_id=view.id), *ctx.where(ViewSort, view_id=view.id)]:
            ctx.delete(item)
        ctx.delete(view)
    for c in [*ctx.where(GridField, table_id=table.id), *ctx.where(GridField, link_row_table_id=table.id)]:
        if ctx.find(GridField, c.id) is not None:
            _drop_field(ctx, c)
    ctx.delete(table)


@service.tool(intent="empty the trash", write=True, destructive=True, example=_example_empty)
def empty_trash(
    ctx: Ctx, workspace_id: WorkspaceId, user_email: Email, database_id: DatabaseId | None = None
) -> Emptied:
    """Delete for good everything in a workspace's trash (or one database's); nothing of it can be restored after.

    Args:
        workspace_id: The workspace.
        user_email: E-mail of the workspace member emptying it.
        database_id: Only this database's trash.
    """
    _in_workspace(ctx, workspace_id, database_id)
    _member(ctx, workspace_id, user_email)
    counts = {"database": 0, "table": 0, "field": 0, "row": 0}
    for kind, rec in _trashed(ctx, workspace_id, database_id, True):
        if ctx.find(_TRASH_MODELS[kind], rec.id) is None:
            continue  # went with its parent
        counts[kind] += 1
        if kind == "row":
            _purge_row(ctx, rec)
        elif kind == "field":
            _drop_field(ctx, rec)
        elif kind == "table":
            _purge_table(ctx, rec)
        else:
            for table in ctx.where(GridTable, database_id=rec.id):
                _purge_table(ctx, table)
            ctx.delete(rec)
    return Emptied(workspace_id=workspace_id, deleted={f"{k}s": n for k, n in counts.items()})


# -- seed -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _F:
    """A field to seed: name, type, options (a select's values), the table a link goes to, decimal places."""

    name: str
    type: FieldType = "text"
    options: tuple[str, ...] = ()
    link: str | None = None
    places: int = 0


class _Seeder:
    """Seeds one database: tables with fields, rows (links both ways), views, history and trash."""

    def __init__(self, s: SeedContext, db: Database, members: Sequence[Person]) -> None:
        self.s, self.db, self.members = s, db, list(members)
        self.tables: dict[str, GridTable] = {}
        self.cols: dict[str, dict[str, GridField]] = {}
        self.specs: dict[str, list[_F]] = {}
        self.rows: dict[str, list[Row]] = {}

    def table(self, name: str, specs: Sequence[_F], trashed: dt.datetime | None = None) -> None:
        s = self.s
        table = s.create(GridTable, database_id=self.db.id, name=name, trashed=trashed is not None, trashed_at=trashed,
                         created_at=self.db.created_at)  # fmt: skip
        made: dict[str, GridField] = {}
        for k, spec in enumerate(specs):
            c = s.create(
                GridField, table_id=table.id, name=spec.name, type=spec.type, primary=k == 0,
                number_decimal_places=spec.places, max_value=5 if spec.type == "rating" else None,
                select_options=tuple(SelectOption(id=n, value=v, color=COLORS[(n - 1) % len(COLORS)])
                                     for n, v in enumerate(spec.options, start=1)),
                link_row_table_id=self.tables[spec.link].id if spec.link else None,
            )  # fmt: skip
            if spec.link:
                related = s.create(GridField, table_id=self.tables[spec.link].id, name=name, type="link_row",
                                   link_row_table_id=table.id, link_row_related_field_id=c.id)  # fmt: skip
                c = s.update(c, link_row_related_field_id=related.id)
                self.cols[spec.link][name] = related
            made[spec.name] = c
        self.tables[name], self.cols[name], self.specs[name], self.rows[name] = table, made, list(specs), []
        s.create(View, table_id=table.id, name="Grid", created_at=table.created_at)

    def add(self, name: str, age: int, lines: Iterable[Sequence[Any]]) -> None:
        """Rows in order, values in the order of the seeded fields (read only ones left out).

        Selects are given by value, links by index of the linked table's rows.
        """
        writable = [f for f in self.specs[name] if f.type not in READ_ONLY]
        auto = [f.name for f in self.specs[name] if f.type == "autonumber"]
        for k, line in enumerate(lines):
            values: dict[str, Stored] = {}
            for spec, value in zip(writable, line, strict=True):
                c = self.cols[name][spec.name]
                if value is None or (value is False and spec.type == "boolean"):
                    continue
                if spec.link:
                    value = [self.rows[spec.link][i].id for i in value]
                elif spec.type == "single_select":
                    value = next(o.id for o in c.select_options if o.value == value)
                elif spec.type == "multiple_select":
                    value = [o.id for o in c.select_options if o.value in value]
                elif spec.type == "number":
                    value = _fmt(c, Decimal(str(value)))
                values[c.id] = value
            values |= {self.cols[name][n].id: k + 1 for n in auto}
            when = self.s.ago(days=max(1, age - 2 * k), hours=k % 5)
            row = self.s.create(Row, table_id=self.tables[name].id, order=float(k + 1), values=values,
                                created_on=when, updated_on=when)  # fmt: skip
            self.rows[name].append(row)
            for spec in writable:
                c = self.cols[name][spec.name]
                if spec.link and c.id in values:
                    self._back(spec.link, c, row.id, _ids(values[c.id]))
        for n in auto:
            self.cols[name][n] = self.s.update(self.cols[name][n], next_number=len(self.rows[name]) + 1)

    def _back(self, linked: str, c: GridField, row_id: str, targets: list[str]) -> None:
        rows = self.rows[linked]
        for k, r in enumerate(rows):
            if r.id in targets:
                rows[k] = self.s.update(r, values={**r.values, c.link_row_related_field_id or "": [
                    *_ids(r.values.get(c.link_row_related_field_id or "")), row_id]})  # fmt: skip

    def view(self, table: str, name: str, kanban: str | None = None, filters: Sequence[tuple[str, FilterType, str]]
             = (), sorts: Sequence[tuple[str, Literal["ASC", "DESC"]]] = (), filter_type: Literal["AND", "OR"] = "AND",
             ) -> None:  # fmt: skip
        cols = self.cols[table]
        view = self.s.create(
            View, table_id=self.tables[table].id, name=name, type="kanban" if kanban else "grid",
            filter_type=filter_type, single_select_field_id=cols[kanban].id if kanban else None,
            created_at=self.db.created_at,
        )  # fmt: skip
        for f, kind, value in filters:
            c = cols[f]
            if kind.startswith("single_select"):
                value = str(next(o.id for o in c.select_options if o.value == value))
            self.s.create(ViewFilter, view_id=view.id, field_id=c.id, type=kind, value=value)
        for f, order in sorts:
            self.s.create(ViewSort, view_id=view.id, field_id=cols[f].id, order=order)

    def change(self, table: str, index: int, fname: str, who: Person, hours: float) -> None:
        """A past edit of a select: the row now holds the option after its old one, and its history says so."""
        rows, c = self.rows[table], self.cols[table][fname]
        row = rows[index % len(rows)]
        ids = [o.id for o in c.select_options]
        was = row.values.get(c.id)
        option = c.select_options[(ids.index(was) + 1) % len(ids) if was in ids else 0]
        old = next((o.value for o in c.select_options if o.id == was), None)
        when = self.s.ago(hours=hours)
        rows[index % len(rows)] = self.s.update(row, values={**row.values, c.id: option.id}, updated_on=when)
        self.s.create(
            RowHistory,
            table_id=row.table_id,
            row_id=row.id,
            user_email=who.email,
            user_name=who.name,
            before={fname: old},
            after={fname: option.value},
            timestamp=when,
        )

    def trash_row(self, table: str, index: int, hours: float) -> None:
        rows = self.rows[table]
        rows[index] = self.s.update(rows[index], trashed=True, trashed_at=self.s.ago(hours=hours))


def _workspace(
    s: SeedContext, name: str, admins: Sequence[Person], members: Sequence[Person], age: int
) -> tuple[Workspace, list[Person]]:
    ws = s.create(Workspace, name=name, created_at=s.ago(days=age))
    seen: dict[str, Person] = {}
    for k, p in enumerate([*admins, *members]):
        if p.email not in seen:
            seen[p.email] = p
            s.create(WorkspaceUser, workspace_id=ws.id, email=p.email, name=p.name,
                     permissions="ADMIN" if k < len(admins) else "MEMBER", created_at=s.ago(days=age - k))  # fmt: skip
    return ws, list(seen.values())


def _database(s: SeedContext, ws: Workspace, name: str, members: Sequence[Person], age: int) -> _Seeder:
    return _Seeder(s, s.create(Database, workspace_id=ws.id, name=name, created_at=s.ago(days=age)), members)


def _dept(pop: Population, chart: OrgChart, name: str) -> tuple[Person, list[Person]]:
    head = chart.heads.get(name, chart.top)
    return head, [p for p in pop.employees if department_of(p) == name and p.key != head.key]


@service.seeder
def seed(s: SeedContext) -> None:
    """Two workspaces: go-to-market (leads, content) and operations (inventory, hiring), with invitations."""
    pop = s.population
    chart = org_chart(pop.employees)
    sales, reps = _dept(pop, chart, "Sales")
    marketing, marketers = _dept(pop, chart, "Marketing")
    gtm, gtm_people = _workspace(s, "Go-to-market", [sales, marketing], [*reps, *marketers], 420)
    ops, ops_team = _dept(pop, chart, "Operations")
    people, recruiters = _dept(pop, chart, "People")
    back, back_people = _workspace(s, "Operations", [ops, people], [*ops_team, *recruiters], 500)
    support = chart.heads.get("Support", chart.top)
    s.create(WorkspaceInvitation, workspace_id=gtm.id, email=support.email, permissions="MEMBER",
             message="Join to see the lead tracker.", invited_by_email=sales.email, created_at=s.ago(days=2))  # fmt: skip
    finance = chart.heads.get("Finance", chart.top)
    s.create(WorkspaceInvitation, workspace_id=back.id, email=finance.email, permissions="MEMBER",
             message="Inventory valuation lives here.", invited_by_email=ops.email, created_at=s.ago(days=5))  # fmt: skip
    s.create(WorkspaceInvitation, workspace_id=back.id, email=chart.top.email, permissions="ADMIN",
             invited_by_email=people.email, status="rejected", created_at=s.ago(days=30))  # fmt: skip
    _seed_leads(s, pop, _database(s, gtm, "Lead tracker", gtm_people, 400), [sales, *reps])
    _seed_content(s, pop, _database(s, gtm, "Content calendar", gtm_people, 300), [marketing, *marketers])
    _seed_inventory(s, pop, _database(s, back, "Inventory", back_people, 480), [ops, *ops_team])
    _seed_hiring(s, pop, _database(s, back, "Hiring", back_people, 200), [people, *recruiters])


STATUSES = ("New", "Contacted", "Qualified", "Proposal", "Won", "Lost")
ARTICLE_STATUS = ("Idea", "Writing", "Editing", "Scheduled", "Published")
CHANNELS = ("Blog", "Newsletter", "Help center", "Press")
TAGS = ("Product", "Customers", "How-to", "Company news")
STAGES = ("Applied", "Screening", "Interview", "Offer", "Hired", "Declined")
TERMS = ("Net 15", "Net 30", "Net 45", "Net 60")


def _day(s: SeedContext, days: int) -> str:
    return (s.now.date() + dt.timedelta(days=days)).isoformat()


def _seed_leads(s: SeedContext, pop: Population, b: _Seeder, team: Sequence[Person]) -> None:
    """Sales' lead tracker: companies and their people as leads, a pipeline board, history and a trashed import."""
    companies = [c for c in pop.customers if pop.people_at(c)][10:18] or [c for c in pop.customers][:8]
    b.table("Companies", [_F("Name"), _F("Website", "url"), _F("Industry"), _F("Country")])
    b.add("Companies", 380, [(c.name, f"https://{c.domain}", c.industry, c.address.country) for c in companies])
    b.table("Leads", [
        _F("Name"), _F("Email", "email"), _F("Phone", "phone_number"), _F("Company", "link_row", link="Companies"),
        _F("Status", "single_select", STATUSES), _F("Value", "number", places=2), _F("Owner email", "email"),
        _F("Last contacted", "date"), _F("Notes", "long_text"), _F("Lead no.", "autonumber"), _F("Created", "created_on"),
    ])  # fmt: skip
    lines: list[tuple[Any, ...]] = []
    for ci, company in enumerate(companies):
        for p in pop.people_at(company)[:2]:
            k = len(lines)
            status = STATUSES[(k + 2) % len(STATUSES)]
            value = s.rng.randint(20, 240) * 250 if status not in ("New", "Contacted") else None
            touched = _day(s, -(k % 9) - 1) if status != "New" else None
            lines.append((p.name, p.email, p.phone, [ci], status, value, team[k % len(team)].email, touched,
                          "Asked for a demo." if k % 4 == 1 else None))  # fmt: skip
    b.add("Leads", 200, lines)
    b.view("Leads", "Pipeline", kanban="Status")
    b.view("Leads", "Hot leads", filters=[("Status", "single_select_equal", "Qualified"), ("Value", "higher_than",
           "40000")], filter_type="OR", sorts=[("Value", "DESC")])  # fmt: skip
    b.view("Leads", "Never contacted", filters=[("Last contacted", "empty", "")], sorts=[("Name", "ASC")])
    b.change("Leads", 0, "Status", team[0], 30)
    b.change("Leads", 3, "Status", team[-1], 6)
    b.trash_row("Leads", len(b.rows["Leads"]) - 1, 20)
    b.table("Old import", [_F("Name"), _F("Email", "email")], trashed=s.ago(hours=26))
    b.add("Old import", 60, [(p.name, p.email) for p in pop.contacts[-3:]])


def _seed_content(s: SeedContext, pop: Population, b: _Seeder, team: Sequence[Person]) -> None:
    """Marketing's content calendar: articles by channel and status, on a board."""
    b.table("Articles", [
        _F("Title"), _F("Channel", "single_select", CHANNELS), _F("Status", "single_select", ARTICLE_STATUS),
        _F("Author email", "email"), _F("Publish on", "date"), _F("Tags", "multiple_select", TAGS),
        _F("Words", "number"),
    ])  # fmt: skip
    lines = []
    for k, product in enumerate(pop.products[-12:]):
        status = ARTICLE_STATUS[k % len(ARTICLE_STATUS)]
        when = None if status == "Idea" else _day(s, -4 * (12 - k) if status == "Published" else 3 * k - 8)
        title = f"{('Inside the', 'Getting started with the', 'Why customers pick the')[k % 3]} {product.name}"
        lines.append((title, CHANNELS[k % len(CHANNELS)], status, team[k % len(team)].email, when,
                      [TAGS[k % 4], TAGS[(k + 1) % 4]] if k % 3 else [TAGS[0]], 600 + 100 * (k % 7)))  # fmt: skip
    b.add("Articles", 150, lines)
    b.view("Articles", "Board", kanban="Status")
    b.view("Articles", "Scheduled", filters=[("Status", "single_select_equal", "Scheduled")],
           sorts=[("Publish on", "ASC")])  # fmt: skip
    b.change("Articles", 2, "Status", team[0], 50)


def _seed_inventory(s: SeedContext, pop: Population, b: _Seeder, team: Sequence[Person]) -> None:
    """Operations' inventory: suppliers and products with stock and reorder levels; a retired field in the trash."""
    vendors = suppliers(pop)[:6]
    b.table("Suppliers", [
        _F("Name"), _F("Contact"), _F("Email", "email"), _F("Phone", "phone_number"),
        _F("Terms", "single_select", TERMS),
    ])  # fmt: skip
    b.add("Suppliers", 460, [(v.company.name, v.contact.name, v.contact.email, v.contact.phone,
                              TERMS[(v.index + 1) % 4]) for v in vendors])  # fmt: skip
    categories = tuple(sorted({p.category.title() for p in pop.products}))
    b.table("Products", [
        _F("Name"), _F("SKU"), _F("Category", "single_select", categories), _F("Price", "number", places=2),
        _F("Stock", "number"), _F("Reorder at", "number"), _F("Supplier", "link_row", link="Suppliers"),
        _F("Discontinued", "boolean"), _F("Legacy code"),
    ])  # fmt: skip
    b.add("Products", 440, [
        (p.name, p.sku, p.category.title(), p.price_cents / 100, (k * 29 + 7) % 150, 15 + 5 * (k % 3),
         [k % len(vendors)] if vendors else None, k % 10 == 6, f"OLD-{k:04d}")
        for k, p in enumerate(pop.products[:20])
    ])  # fmt: skip
    legacy = b.cols["Products"]["Legacy code"]
    b.cols["Products"]["Legacy code"] = s.update(legacy, trashed=True, trashed_at=s.ago(hours=10))
    b.view("Products", "Low stock", filters=[("Stock", "lower_than", "25"), ("Discontinued", "boolean", "0")],
           sorts=[("Stock", "ASC")])  # fmt: skip
    b.view("Products", "By category", sorts=[("Category", "ASC"), ("Name", "ASC")])
    b.change("Products", 4, "Category", team[0], 70)


def _seed_hiring(s: SeedContext, pop: Population, b: _Seeder, team: Sequence[Person]) -> None:
    """People's hiring pipeline: openings and the candidates (job seekers) for each, scored and staged."""
    openings = (("Backend Engineer", "Engineering", 2), ("Customer Success Manager", "Support", 1),
                ("Sales Development Rep", "Sales", 3), ("Buyer", "Operations", 1))  # fmt: skip
    b.table("Openings", [_F("Title"), _F("Department", "single_select", tuple(sorted({o[1] for o in openings}))),
                         _F("Seats", "number")])  # fmt: skip
    b.add("Openings", 190, openings)
    b.table("Candidates", [
        _F("Name"), _F("Email", "email"), _F("Phone", "phone_number"), _F("Opening", "link_row", link="Openings"),
        _F("Stage", "single_select", STAGES), _F("Score", "rating"), _F("Applied", "date"), _F("Referred", "boolean"),
    ])  # fmt: skip
    b.add("Candidates", 90, [
        (p.name, p.email, p.phone, [k % len(openings)], STAGES[k % len(STAGES)], (k * 2) % 6 or None,
         _day(s, -1 - 4 * k), k % 5 == 2)
        for k, p in enumerate(pop.consumers[:14])
    ])  # fmt: skip
    b.view("Candidates", "Pipeline", kanban="Stage")
    b.view("Candidates", "Top scores", filters=[("Score", "higher_than_or_equal", "4")], sorts=[("Score", "DESC")])
    b.change("Candidates", 1, "Stage", team[0], 12)
    b.trash_row("Candidates", 13, 40)
