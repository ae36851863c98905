"""Tessera Bases: bases of linked tables with typed fields, records, views, comments and collaborators.

Modeled on the Airtable Web API v0 (meta API bases, tables and fields; records
list, create, update, upsert with ``performUpsert.fieldsToMergeOn`` and delete
with ``typecast``, ``filterByFormula``, ``sort``, ``view`` and paging by
``offset``; record comments with @-mentions; base collaborators with their
permission levels) and the views of the Airtable app (grid, kanban, calendar,
gallery and form views with filter conditions joined by and/or, sorts, and
locked views). A record's cell values must fit their field's type: a single or
multiple select takes only the field's choices (``typecast`` adds a missing
choice instead), a linked record must exist in the linked table (with
``typecast`` a text is matched to the linked table's primary field), a
collaborator field takes a collaborator of the base, computed fields (auto
number, created time) take nothing, and unknown field names are refused. At
most 10 records go in one create, update, upsert or delete request. Linked
record fields are two-way: the linked table has an inverse field kept in step.
The field type cannot be changed through the API; the primary field is never
deleted, and neither is a field a view filters on or groups by. Writing
comments needs comment permission or more; only a comment's author edits it.
A locked view's filters and sorts cannot change; a table keeps one view.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, TypeAdapter, ValidationError

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person, Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value
from compoworld.world.finance import suppliers
from compoworld.world.org import OrgChart, department_of, org_chart

__all__ = ["service"]

service = Service(
    "tablebase",
    title="Tessera Bases",
    category="table_database",
    modeled_on="Airtable Web API v0 (meta bases/tables/fields, records list/create/update/upsert/delete with "
    "typecast, filterByFormula, sort, view and offset paging, record comments, base collaborators) with the "
    "Airtable app's views (grid, kanban, calendar, gallery, form; filters, sorts, locked views)",
    description="Relational bases the teams run their content calendar, lead tracker, inventory and applicant "
    "tracker in: tables of typed fields (text, e-mail, phone, number, currency, selects, dates, checkboxes, "
    "collaborators, links to other tables), records validated against them, views that filter and sort, "
    "formula filters, and comment threads on records.",
)

BaseId = Annotated[str, IdOf("tablebase.base")]
TableId = Annotated[str, IdOf("tablebase.table")]
FieldId = Annotated[str, IdOf("tablebase.field")]
RecordId = Annotated[str, IdOf("tablebase.record")]
ViewId = Annotated[str, IdOf("tablebase.view")]
CommentId = Annotated[str, IdOf("tablebase.comment")]
CollaboratorId = Annotated[str, IdOf("tablebase.collaborator")]

FieldType = Literal[
    "singleLineText",
    "multilineText",
    "email",
    "url",
    "phoneNumber",
    "number",
    "currency",
    "percent",
    "singleSelect",
    "multipleSelects",
    "date",
    "checkbox",
    "rating",
    "singleCollaborator",
    "multipleRecordLinks",
    "autoNumber",
    "createdTime",
]
ViewType = Literal["grid", "form", "calendar", "gallery", "kanban"]
Permission = Literal["owner", "create", "edit", "comment", "read"]
GrantedPermission = Literal["create", "edit", "comment", "read"]
Operator = Literal[
    "=",
    "!=",
    "contains",
    "doesNotContain",
    "<",
    ">",
    "<=",
    ">=",
    "isEmpty",
    "isNotEmpty",
    "isAnyOf",
    "isBefore",
    "isAfter",
]
Name = Annotated[str, StringConstraints(min_length=1, max_length=255, strip_whitespace=True)]
ChoiceName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
CellText = Annotated[str, StringConstraints(max_length=100_000)]
CellValue = CellText | int | float | bool | list[str] | None
"""A cell: text, a number, true/false, a list (record ids of a link, choices of a multiple select) or nothing."""
Formula = Annotated[str, StringConstraints(min_length=1, max_length=2000, strip_whitespace=True)]

MAX_BATCH = 10
"""Records one create, update, upsert or delete request takes, as the real API allows."""
MAX_PAGE = 100
COMPUTED: frozenset[str] = frozenset({"autoNumber", "createdTime"})
NUMERIC: frozenset[str] = frozenset({"number", "currency", "percent", "rating", "autoNumber"})
TEXTUAL: frozenset[str] = frozenset({"singleLineText", "multilineText", "email", "url", "phoneNumber"})
NOT_PRIMARY: frozenset[str] = frozenset({"multipleRecordLinks", "checkbox", "multipleSelects", "singleCollaborator"})
WRITERS: frozenset[str] = frozenset({"owner", "create", "edit"})
COMMENTERS: frozenset[str] = WRITERS | {"comment"}
MANAGERS: frozenset[str] = frozenset({"owner", "create"})
_RANK = {"read": 0, "comment": 1, "edit": 2, "create": 3, "owner": 4}

OPERATORS: dict[str, frozenset[str]] = {
    "=": TEXTUAL | NUMERIC | {"singleSelect", "date", "checkbox", "singleCollaborator"},
    "!=": TEXTUAL | NUMERIC | {"singleSelect", "date", "checkbox", "singleCollaborator"},
    "contains": TEXTUAL | {"multipleSelects", "multipleRecordLinks"},
    "doesNotContain": TEXTUAL | {"multipleSelects", "multipleRecordLinks"},
    "<": NUMERIC,
    ">": NUMERIC,
    "<=": NUMERIC,
    ">=": NUMERIC,
    "isBefore": frozenset({"date", "createdTime"}),
    "isAfter": frozenset({"date", "createdTime"}),
    "isAnyOf": frozenset({"singleSelect", "multipleSelects", "singleCollaborator"}),
}
"""The field types each view filter operator applies to (isEmpty and isNotEmpty apply to every type)."""


# -- records ----------------------------------------------------------------------------------


class Base(Created):
    """A base: a database of linked tables, in a workspace, owned by an employee."""

    id: BaseId
    name: Title
    """Name of the base."""
    workspace_name: Title
    """The workspace the base is in."""
    owner_email: Email
    """E-mail of the employee who owns the base."""
    description: Text = ""
    """What the base is for."""


class Collaborator(Created):
    """Someone the base is shared with, at a permission level."""

    id: CollaboratorId
    base_id: BaseId
    """The base."""
    email: Email
    """The collaborator's e-mail."""
    name: PersonName | None = None
    """The collaborator's name."""
    permission_level: Permission
    """owner, create (edit the schema), edit (records), comment or read."""


class Table(Created):
    """A table of a base."""

    id: TableId
    base_id: BaseId
    """The base it is in."""
    name: Name
    """Table name; unique in the base (case aside)."""
    description: Text = ""
    """What the table holds."""
    primary_field_id: FieldId | None = None
    """The primary field: the one naming each record (its first field)."""


class Choice(Value):
    """A choice of a single or multiple select field."""

    name: ChoiceName = Field(description="The choice's text.")
    color: str = Field(default="blueLight2", description="Its color.")


class TableField(Record):
    """A typed field (column) of a table."""

    id: FieldId
    table_id: TableId
    """The table."""
    name: Name
    """Field name; unique in the table (case aside). Records give their values by it."""
    type: FieldType
    """The field type; it cannot be changed through the API."""
    description: Text = ""
    """What the field holds."""
    choices: tuple[Choice, ...] = ()
    """Choices of a singleSelect or multipleSelects field."""
    precision: int | None = None
    """Decimal places of a number, currency or percent field."""
    symbol: str | None = None
    """Currency symbol of a currency field."""
    max_rating: int | None = None
    """Highest value of a rating field (1-10)."""
    linked_table_id: TableId | None = None
    """The table a multipleRecordLinks field links to."""
    inverse_link_field_id: FieldId | None = None
    """The field of the linked table that links back (none for a table linking to itself)."""
    next_auto_number: int = 1
    """The number an autoNumber field gives the next record."""


class TableRecord(Record):
    """A record (row) of a table: its cell values by field name; empty cells are left out."""

    id: RecordId
    table_id: TableId
    """The table."""
    fields: dict[str, CellValue] = Field(default_factory=dict)
    """Cell values by field name: text, numbers, true, choice names, ISO dates, e-mails of collaborators, and
    lists of record ids (links) or choice names (multiple selects)."""
    comment_count: int = 0
    """Number of comments on the record."""
    created_time: Annotated[DateTime, CREATED]
    """When the record was created."""


class ViewFilter(Value):
    """One filter condition of a view."""

    field_id: FieldId = Field(description="The field the condition tests.")
    operator: Operator = Field(description="How it tests it (=, !=, contains, <, isEmpty, isAnyOf, isBefore …).")
    value: CellValue = Field(default=None, description="The value compared with (none for isEmpty, isNotEmpty).")


class ViewSort(Value):
    """One sort of a view."""

    field_id: FieldId = Field(description="The field sorted by.")
    direction: Literal["asc", "desc"] = Field(default="asc", description="asc or desc.")


class View(Created):
    """A view of a table: which records it shows (filters) and in what order (sorts)."""

    id: ViewId
    table_id: TableId
    """The table."""
    name: Name
    """View name; unique in the table (case aside)."""
    type: ViewType
    """grid, form, calendar, gallery or kanban."""
    group_field_id: FieldId | None = None
    """The single select a kanban view stacks by, or the date a calendar view places records by."""
    filters: tuple[ViewFilter, ...] = ()
    """Filter conditions."""
    conjunction: Literal["and", "or"] = "and"
    """Whether a record must meet all conditions (and) or any (or)."""
    sorts: tuple[ViewSort, ...] = ()
    """Sorts, first one first."""
    locked: bool = False
    """A locked view's filters and sorts cannot be changed until it is unlocked."""


class Comment(Record):
    """A comment on a record."""

    id: CommentId
    record_id: RecordId
    """The record commented on."""
    table_id: TableId
    """The record's table."""
    author_email: Email
    """E-mail of the collaborator who wrote it."""
    author_name: PersonName | None = None
    """Name of the author."""
    text: Text
    """The comment; @[e-mail] mentions a collaborator."""
    mentioned_emails: tuple[Email, ...] = ()
    """E-mails of the collaborators it mentions."""
    created_time: Annotated[DateTime, CREATED]
    """When it was written."""
    last_updated_time: DateTime | None = None
    """When it was last edited."""


def _guard_table(ctx: Ctx, new: Any, old: Any) -> None:
    if new is not None:
        _unique_name(ctx.where(Table, base_id=new.base_id), new.name, new.id, "table", "name")


def _guard_view(ctx: Ctx, new: Any, old: Any) -> None:
    if new is not None:
        _unique_name(ctx.where(View, table_id=new.table_id), new.name, new.id, "view", "name")
        return
    if old.locked:
        raise RuleViolation(
            f"view {old.name!r} is locked", field="view_id", hint="unlock it with tablebase__unlock_view first"
        )
    if len(ctx.where(View, table_id=old.table_id)) == 1:
        raise RuleViolation(
            f"view {old.name!r} is the only view of its table",
            field="view_id",
            hint="a table keeps at least one view; create another first",
        )


bases = service.resource(
    Base,
    name="base",
    plural="bases",
    prefix="app",
    create=False,
    filters=("owner_email", "workspace_name"),
    search=("name", "description"),
    delete=False,
)
collaborators = service.resource(
    Collaborator,
    name="collaborator",
    plural="collaborators",
    prefix="usr",
    create=False,
    get=False,
    filters=("base_id", "email", "permission_level"),
    search=("name", "email"),
    delete=False,
)
tables = service.resource(
    Table,
    name="table",
    plural="tables",
    prefix="tbl",
    create=False,
    get=False,
    filters=("base_id", "name"),
    search=("name", "description"),
    update=("name", "description"),
    delete=False,
    guard_update=_guard_table,
)
fields = service.resource(
    TableField,
    name="field",
    plural="fields",
    prefix="fld",
    create=False,
    get=False,
    filters=("table_id", "type", "name", "linked_table_id"),
    search=("name",),
    delete=False,
)
records = service.resource(
    TableRecord, name="record", plural="records", prefix="rec", create=False, get=False, filters=None, delete=False
)
views = service.resource(
    View,
    name="view",
    plural="views",
    prefix="viw",
    create=False,
    filters=("table_id", "type", "locked"),
    search=("name",),
    update=("name",),
    transitions={
        "lock": Transition("locked", (False,), True, "lock the view"),
        "unlock": Transition("locked", (True,), False, "unlock the view"),
    },
    guard_update=_guard_view,
    guard_delete=_guard_view,
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="com",
    create=False,
    get=False,
    filters=("record_id", "table_id", "author_email"),
    search=("text",),
    delete=False,
)


# -- results ----------------------------------------------------------------------------------


class TableSchema(BaseModel):
    """A table with its fields and views, as the meta API returns it."""

    table: Table = Field(description="The table.")
    fields: list[TableField] = Field(description="Its fields, the primary field first.")
    views: list[View] = Field(description="Its views.")


class BaseSchema(BaseModel):
    """A new base with its owner and first table."""

    base: Base = Field(description="The base.")
    owner: Collaborator = Field(description="The owner, its first collaborator.")
    table: TableSchema = Field(description="Its first table.")


class RecordPage(BaseModel):
    """One page of records."""

    records: list[TableRecord] = Field(description="The records on this page.")
    offset: str | None = Field(description="Pass as `offset` for the next page; null on the last page.")


class UpsertResult(BaseModel):
    """What an upsert created and updated."""

    records: list[TableRecord] = Field(description="Every record written, in request order.")
    created_records: list[RecordId] = Field(description="Ids of the records created (no record matched).")
    updated_records: list[RecordId] = Field(description="Ids of the records updated (one record matched).")


class DeletedRecord(BaseModel):
    """A deleted record."""

    id: RecordId = Field(description="The record's id.")
    deleted: bool = Field(default=True, description="Always true.")


class DeletedItem(BaseModel):
    """A deleted field or comment."""

    id: str = Field(description="The deleted item's id.")
    deleted: bool = Field(default=True, description="Always true.")


# -- inputs -----------------------------------------------------------------------------------


class FieldSpec(Value):
    """A field to create."""

    name: Name = Field(description="Field name; unique in the table (case aside).")
    type: FieldType = Field(description="The field type.")
    description: Text = Field(default="", description="What the field holds.")
    choices: list[ChoiceName] | None = Field(default=None, description="Choices of a single or multiple select.")
    precision: int | None = Field(default=None, ge=0, le=8, description="Decimal places of a number or currency.")
    symbol: str | None = Field(default=None, max_length=5, description="Currency symbol of a currency field.")
    max_rating: int | None = Field(default=None, ge=1, le=10, description="Highest value of a rating field.")
    linked_table_id: TableId | None = Field(default=None, description="The table a multipleRecordLinks field links to.")


class NewRecord(Value):
    """Cell values of a record to create."""

    fields: dict[Name, CellValue] = Field(description="Cell values by field name.")


class RecordChange(Value):
    """Cell values to write to a record."""

    id: RecordId = Field(description="The record.")
    fields: dict[Name, CellValue] = Field(description="Cell values by field name (null clears a cell).")


class SortSpec(Value):
    """A sort of a record list."""

    field: Name = Field(description="Field name.")
    direction: Literal["asc", "desc"] = Field(default="asc", description="asc or desc.")


class FilterSpec(Value):
    """A view filter condition to set."""

    field_id: FieldId = Field(description="The field the condition tests.")
    operator: Operator = Field(
        description="=, !=, contains, doesNotContain, <, >, <=, >=, isEmpty, isNotEmpty, "
        "isAnyOf (a list of choices), isBefore or isAfter (an ISO date)."
    )
    value: CellValue = Field(default=None, description="The value compared with; none for isEmpty and isNotEmpty.")


# -- helpers ----------------------------------------------------------------------------------


def _unique_name(others: Iterable[Any], name: str, own_id: str | None, what: str, field: str) -> None:
    for other in others:
        if other.id != own_id and other.name.casefold() == name.casefold():
            raise Conflict(
                f"a {what} named {other.name!r} already exists ({other.id})",
                field=field,
                hint=f"{what} names are unique (case aside); pick another name",
            )


def _fields(ctx: Ctx, table_id: str) -> list[TableField]:
    return ctx.where(TableField, table_id=table_id)


def _by_name(cols: Sequence[TableField], name: str, table: Table, field: str) -> TableField:
    for col in cols:
        if col.name == name:
            return col
    raise NotFound(
        f"table {table.name!r} has no field {name!r}",
        field=field,
        hint=f"its fields are: {', '.join(c.name for c in cols)} (names are case-sensitive)",
    )


def _collaborator(ctx: Ctx, base_id: str, email: str) -> Collaborator | None:
    return ctx.first(Collaborator, base_id=base_id, email=email)


def _base_of_table(ctx: Ctx, table_id: str) -> str:
    return ctx.get(Table, table_id).base_id


_EMAIL = TypeAdapter(Email)
_URL = TypeAdapter(Url)
_PHONE = re.compile(r"^\+?[0-9 ()./-]{7,25}$")
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_US_DAY = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_AMOUNT = re.compile(r"^([+-]?)[$€£¥]?\s?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)%?$")
_TRUE = frozenset({"true", "yes", "checked", "1", "x"})
_FALSE = frozenset({"false", "no", "unchecked", "0", ""})


def _plain(value: float) -> int | float:
    return int(value) if float(value).is_integer() and abs(value) < 2**53 else value


@dataclass
class _Writer:
    """Turns given cell values into stored ones for one table, noting select choices that typecast adds."""

    ctx: Ctx
    table: Table
    cols: list[TableField]
    typecast: bool
    added: dict[str, list[str]]

    def bad(self, col: TableField, value: Any, why: str, hint: str, where: str) -> RuleViolation:
        return RuleViolation(f"field {col.name!r} ({col.type}) cannot take {value!r}: {why}", field=where, hint=hint)

    def choices(self, col: TableField) -> list[str]:
        return [c.name for c in col.choices] + self.added.get(col.id, [])

    def choice(self, col: TableField, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.bad(col, value, "a choice is a text", "give the choice's name", where)
        name = value.strip()
        if name in self.choices(col):
            return name
        if self.typecast:
            self.added.setdefault(col.id, []).append(name)
            return name
        raise self.bad(
            col,
            value,
            "it is not one of the field's choices",
            f"one of: {', '.join(self.choices(col))}; or pass typecast=true to add it as a new choice",
            where,
        )

    def number(self, col: TableField, value: Any, where: str) -> int | float:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise self.bad(col, value, "it is not a number", "give a number such as 1250 or 12.5", where)
        if isinstance(value, str):
            m = _AMOUNT.match(value.strip()) if self.typecast else None
            if m is None:
                raise self.bad(
                    col, value, "a number field takes a number", "give a JSON number, or pass typecast=true", where
                )
            number = float(m.group(2).replace(",", ""))
            value = -number if m.group(1) == "-" else number
            if col.type == "percent" and "%" in str(m.string):
                value = value / 100
        if col.precision is not None:
            value = round(float(value), col.precision)
        return _plain(value)

    def link(self, col: TableField, value: Any, where: str) -> list[str]:
        items = [value] if isinstance(value, str) and self.typecast else value
        if not isinstance(items, list):
            raise self.bad(col, value, "a link field takes a list of record ids", 'give ["rec_000001", …]', where)
        linked = self.ctx.get(Table, col.linked_table_id or "")
        primary = linked.primary_field_id
        primary_name = self.ctx.get(TableField, primary).name if primary else ""
        out: list[str] = []
        for item in items:
            rec = self.ctx.find(TableRecord, item) if isinstance(item, str) else None
            if rec is None and self.typecast and isinstance(item, str):
                rec = next(
                    (
                        r
                        for r in self.ctx.where(TableRecord, table_id=linked.id)
                        if _text(r.fields.get(primary_name)).casefold() == item.strip().casefold()
                    ),
                    None,
                )
            if rec is None or rec.table_id != linked.id:
                raise NotFound(
                    f"field {col.name!r} links to table {linked.name!r}, which has no record {item!r}",
                    field=where,
                    hint=f"list the records of {linked.name!r} ({linked.id}) to find the record ids to link"
                    + ("" if self.typecast else ", or pass typecast=true to link by primary field value"),
                )
            if rec.id not in out:
                out.append(rec.id)
        return out

    def cell(self, col: TableField, value: Any, where: str) -> CellValue:
        """``value`` as field ``col`` stores it; None for an empty cell."""
        if col.type in COMPUTED:
            raise RuleViolation(
                f"field {col.name!r} cannot accept a value because the field is computed ({col.type})",
                field=where,
                hint="leave computed fields out of the record's fields",
            )
        if value is None or value == [] or (isinstance(value, str) and not value.strip()):
            return None
        kind = col.type
        if kind in ("singleLineText", "multilineText"):
            if isinstance(value, int | float) and not isinstance(value, bool) and self.typecast:
                value = str(_plain(value))
            if not isinstance(value, str):
                raise self.bad(col, value, "a text field takes text", "give a text, or pass typecast=true", where)
            if kind == "singleLineText" and "\n" in value.strip():
                raise self.bad(col, value, "it has a line break", "keep it on one line, or use a long text", where)
            return value.strip() if kind == "singleLineText" else value
        if kind == "email":
            try:
                return _EMAIL.validate_python(value.strip() if isinstance(value, str) else value)
            except ValidationError:
                raise self.bad(
                    col, value, "not an e-mail address", "give an address like name@example.com", where
                ) from None
        if kind == "url":
            try:
                return _URL.validate_python(value.strip() if isinstance(value, str) else value)
            except ValidationError:
                raise self.bad(col, value, "not a URL", "give a link starting with https://", where) from None
        if kind == "phoneNumber":
            if not isinstance(value, str) or not _PHONE.match(value.strip()):
                raise self.bad(col, value, "not a phone number", "give a number such as +14155550123", where)
            return value.strip()
        if kind in ("number", "currency", "percent"):
            return self.number(col, value, where)
        if kind == "rating":
            top = col.max_rating or 5
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                raise self.bad(col, value, f"a rating is a whole number from 1 to {top}", f"give 1 to {top}", where)
            return value
        if kind == "checkbox":
            if isinstance(value, str) and self.typecast and value.strip().casefold() in _TRUE | _FALSE:
                value = value.strip().casefold() in _TRUE
            if not isinstance(value, bool):
                raise self.bad(col, value, "a checkbox takes true or false", "give true or false", where)
            return value or None
        if kind == "date":
            return self.date(col, value, where)
        if kind == "singleSelect":
            return self.choice(col, value, where)
        if kind == "multipleSelects":
            items = [v.strip() for v in value.split(",")] if isinstance(value, str) and self.typecast else value
            if not isinstance(items, list):
                raise self.bad(col, value, "a multiple select takes a list of choices", 'give ["A", "B"]', where)
            return list(dict.fromkeys(self.choice(col, v, where) for v in items))
        if kind == "singleCollaborator":
            email = value.strip().lower() if isinstance(value, str) else ""
            if _collaborator(self.ctx, self.table.base_id, email) is None:
                raise self.bad(
                    col,
                    value,
                    "it is not a collaborator of the base",
                    "give the e-mail of someone the base is shared with (tablebase__list_collaborators)",
                    where,
                )
            return email
        return self.link(col, value, where)

    def date(self, col: TableField, value: Any, where: str) -> str:
        if isinstance(value, str):
            text = value.strip()
            m = _US_DAY.match(text) if self.typecast else None
            try:
                if m is not None:
                    return dt.date(int(m.group(3)), int(m.group(1)), int(m.group(2))).isoformat()
                if _ISO_DAY.match(text):
                    return dt.date.fromisoformat(text).isoformat()
            except ValueError:
                pass
        raise self.bad(col, value, "not a date", "give the date as YYYY-MM-DD, e.g. 2026-03-02", where)

    def values(self, given: Mapping[str, Any], where: str) -> dict[str, CellValue]:
        """Given values by field name as stored; None marks a cell to clear."""
        out: dict[str, CellValue] = {}
        for name, value in given.items():
            col = _by_name(self.cols, name, self.table, f"{where}.{name}")
            out[col.name] = self.cell(col, value, f"{where}.{name}")
        return out

    def commit(self) -> None:
        """Add the choices typecast created to their fields."""
        for field_id, names in self.added.items():
            col = self.ctx.get(TableField, field_id)
            new = tuple(
                Choice(name=n, color=_COLORS[(len(col.choices) + k) % len(_COLORS)]) for k, n in enumerate(names)
            )
            self.ctx.update(col, choices=col.choices + new)


_COLORS = ("blueLight2", "cyanLight2", "tealLight2", "greenLight2", "yellowLight2", "orangeLight2", "redLight2")


def _writer(ctx: Ctx, table_id: str, typecast: bool) -> _Writer:
    table = ctx.get(Table, table_id, field="table_id")
    return _Writer(ctx, table, _fields(ctx, table.id), typecast, {})


def _ordered(cols: Sequence[TableField], cells: Mapping[str, CellValue]) -> dict[str, CellValue]:
    return {c.name: cells[c.name] for c in cols if cells.get(c.name) is not None}


def _sync_links(ctx: Ctx, col: TableField, rec_id: str, old: Iterable[str], new: Iterable[str]) -> None:
    """Keep the inverse field of link ``col`` in step when ``rec_id``'s links go from ``old`` to ``new``."""
    if col.inverse_link_field_id is None:
        return
    inverse = ctx.get(TableField, col.inverse_link_field_id)
    before, after = set(old), set(new)
    for target_id in sorted(before ^ after):
        target = ctx.find(TableRecord, target_id)
        if target is None:
            continue
        have = [x for x in _ids(target.fields.get(inverse.name)) if x != rec_id]
        if target_id in after:
            have.append(rec_id)
        cells = dict(target.fields)
        cells[inverse.name] = have or None
        ctx.update(target, fields=_ordered(_fields(ctx, target.table_id), cells))


def _ids(value: CellValue) -> list[str]:
    return [str(x) for x in value] if isinstance(value, list) else []


def _write(
    ctx: Ctx, w: _Writer, rec: TableRecord | None, changes: Mapping[str, CellValue], replace: bool
) -> TableRecord:
    """Create a record (rec None) or write ``changes`` to it; link fields' inverse cells follow."""
    old = {} if rec is None else dict(rec.fields)
    kept = {c.name: old[c.name] for c in w.cols if c.name in old and (not replace or c.type in COMPUTED)}
    cells = _ordered(w.cols, {**kept, **changes})
    if rec is None:
        for col in w.cols:
            if col.type == "autoNumber":
                cells[col.name] = _next_auto(ctx, col)
        rec = ctx.create(TableRecord, table_id=w.table.id, fields=_ordered(w.cols, cells))
        if "createdTime" in {c.type for c in w.cols}:
            stamp = rec.created_time.isoformat().replace("+00:00", "Z")
            rec = ctx.update(rec, fields=_ordered(w.cols, {**rec.fields, **_created(w.cols, stamp)}))
    else:
        rec = ctx.update(rec, fields=cells)
    for col in w.cols:
        if col.type == "multipleRecordLinks":
            _sync_links(ctx, col, rec.id, _ids(old.get(col.name)), _ids(rec.fields.get(col.name)))
    return ctx.get(TableRecord, rec.id)


def _next_auto(ctx: Ctx, col: TableField) -> int:
    """The number an autoNumber field gives the next record (numbers are never reused)."""
    number = ctx.get(TableField, col.id).next_auto_number
    ctx.update(ctx.get(TableField, col.id), next_auto_number=number + 1)
    return number


def _created(cols: Sequence[TableField], stamp: str) -> dict[str, CellValue]:
    return {c.name: stamp for c in cols if c.type == "createdTime"}


def _batch(items: Sequence[Any], what: str, field: str = "records") -> None:
    if not items:
        raise RuleViolation(f"no records to {what}", field=field, hint="give at least one record")
    if len(items) > MAX_BATCH:
        raise RuleViolation(
            f"{len(items)} records in one request; at most {MAX_BATCH} are allowed",
            field=field,
            hint=f"split the records into requests of {MAX_BATCH} or fewer",
        )


def _record_in(ctx: Ctx, table: Table, record_id: str, field: str) -> TableRecord:
    rec = ctx.find(TableRecord, record_id)
    if rec is None or rec.table_id != table.id:
        raise NotFound(
            f"table {table.name!r} has no record {record_id!r}",
            field=field,
            hint="list the table's records with tablebase__list_records",
        )
    return rec


# -- cells as text, filters, sorts, formulas --------------------------------------------------


def _text(value: CellValue) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "checked" if value else ""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(_plain(value)) if isinstance(value, float) else str(value)


def _display(ctx: Ctx, col: TableField, value: CellValue) -> CellValue:
    """A cell as people read it: linked records by their primary field value."""
    if col.type != "multipleRecordLinks" or not isinstance(value, list):
        return value
    out = []
    for rid in value:
        rec = ctx.find(TableRecord, str(rid))
        table = ctx.find(Table, rec.table_id) if rec else None
        primary = ctx.find(TableField, table.primary_field_id or "") if table else None
        out.append(_text(rec.fields.get(primary.name)) if rec and primary else str(rid))
    return ", ".join(out)


def _matches(ctx: Ctx, col: TableField, f: ViewFilter, value: CellValue) -> bool:
    op = f.operator
    if op == "isEmpty":
        return value is None
    if op == "isNotEmpty":
        return value is not None
    if op in ("<", ">", "<=", ">="):
        if not isinstance(value, int | float) or not isinstance(f.value, int | float):
            return False
        a, b = float(value), float(f.value)
        return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
    if op in ("isBefore", "isAfter"):
        day = _text(value)[:10]
        if not day:
            return False
        return day < str(f.value) if op == "isBefore" else day > str(f.value)
    if op == "isAnyOf":
        wanted = {str(v).casefold() for v in _ids(f.value)}
        have = {str(v).casefold() for v in (value if isinstance(value, list) else [value])}
        return bool(wanted & have)
    shown = _text(_display(ctx, col, value)).casefold()
    if op in ("contains", "doesNotContain"):
        found = str(f.value).casefold() in shown
        return found if op == "contains" else not found
    if isinstance(f.value, int | float) and not isinstance(f.value, bool):
        same = isinstance(value, int | float) and float(value) == float(f.value)
    elif isinstance(f.value, bool):
        same = bool(value) == f.value
    else:
        same = shown == _text(f.value).casefold()
    return same if op == "=" else not same


def _in_view(ctx: Ctx, view: View, cols: Mapping[str, TableField], rec: TableRecord) -> bool:
    tests = []
    for f in view.filters:
        col = cols.get(f.field_id)
        if col is not None:
            tests.append(_matches(ctx, col, f, rec.fields.get(col.name)))
    if not tests:
        return True
    return all(tests) if view.conjunction == "and" else any(tests)


def _sort_key(value: CellValue) -> tuple[int, Any]:
    if value is None:
        return (2, "")
    if isinstance(value, bool | int | float):
        return (0, float(value))
    return (1, _text(value).casefold())


def _sorted(ctx: Ctx, recs: list[TableRecord], sorts: Sequence[tuple[TableField, str]]) -> list[TableRecord]:
    out = list(recs)
    for col, direction in reversed(list(sorts)):
        present = [r for r in out if r.fields.get(col.name) is not None]
        empty = [r for r in out if r.fields.get(col.name) is None]
        present.sort(key=lambda r: _sort_key(_display(ctx, col, r.fields.get(col.name))), reverse=direction == "desc")
        out = present + empty
    return out


class _FormulaError(Exception):
    pass


_TOKEN = re.compile(
    r"\s*(?:(\{[^}]*\})|('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")|(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z_0-9]*)"
    r"|(!=|<>|<=|>=|[=<>&+\-*/(),]))"
)
Scalar = str | float | bool | None


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise _FormulaError(f"unexpected character {text[pos : pos + 1]!r} at position {pos}")
        kinds = ("field", "string", "number", "name", "op")
        kind = next(k for k, g in zip(kinds, m.groups(), strict=True) if g is not None)
        out.append((kind, m.group(m.lastindex or 0)))
        pos = m.end()
    return out


class _Formula:
    """A small evaluator of Airtable formulas: {Field} references, literals, operators and common functions."""

    FUNCTIONS = (
        "AND",
        "OR",
        "NOT",
        "IF",
        "FIND",
        "SEARCH",
        "LOWER",
        "UPPER",
        "LEN",
        "TRIM",
        "BLANK",
        "TRUE",
        "FALSE",
        "RECORD_ID",
        "TODAY",
        "IS_BEFORE",
        "IS_AFTER",
    )

    def __init__(self, text: str, names: set[str]) -> None:
        self.tokens = _tokens(text)
        self.pos = 0
        self.names = names
        self.tree = self.compare()
        if self.pos != len(self.tokens):
            raise _FormulaError(f"unexpected {self.tokens[self.pos][1]!r}")

    def peek(self) -> str | None:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        if self.pos >= len(self.tokens):
            raise _FormulaError("the formula ends too early")
        self.pos += 1
        return self.tokens[self.pos - 1]

    def compare(self) -> Any:
        left = self.concat()
        if self.peek() in ("=", "!=", "<>", "<", ">", "<=", ">="):
            op = self.take()[1]
            return ("cmp", "!=" if op == "<>" else op, left, self.concat())
        return left

    def concat(self) -> Any:
        node = self.additive()
        while self.peek() == "&":
            self.take()
            node = ("&", node, self.additive())
        return node

    def additive(self) -> Any:
        node = self.term()
        while self.peek() in ("+", "-"):
            node = (self.take()[1], node, self.term())
        return node

    def term(self) -> Any:
        node = self.unary()
        while self.peek() in ("*", "/"):
            node = (self.take()[1], node, self.unary())
        return node

    def unary(self) -> Any:
        if self.peek() == "-":
            self.take()
            return ("neg", self.unary())
        return self.primary()

    def primary(self) -> Any:
        kind, text = self.take()
        if kind == "field":
            name = text[1:-1]
            if name not in self.names:
                raise _FormulaError(f"unknown field name {name!r}")
            return ("field", name)
        if kind == "string":
            return ("lit", re.sub(r"\\(.)", r"\1", text[1:-1]))
        if kind == "number":
            return ("lit", float(text))
        if kind == "name":
            fn = text.upper()
            if fn not in self.FUNCTIONS:
                raise _FormulaError(f"unknown function {text}")
            if self.take()[1] != "(":
                raise _FormulaError(f"{fn} needs parentheses")
            args = []
            if self.peek() != ")":
                args.append(self.compare())
                while self.peek() == ",":
                    self.take()
                    args.append(self.compare())
            if self.take()[1] != ")":
                raise _FormulaError(f"{fn}( is not closed")
            return ("fn", fn, args)
        if text == "(":
            node = self.compare()
            if self.take()[1] != ")":
                raise _FormulaError("a parenthesis is not closed")
            return node
        raise _FormulaError(f"unexpected {text!r}")


def _num(v: Scalar) -> float:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, float):
        return v
    try:
        return float(v or 0)
    except ValueError:
        return 0.0


def _str(v: Scalar) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(_plain(v)) if isinstance(v, float) else v


def _truthy(v: Scalar) -> bool:
    return bool(v) and v != 0.0


def _eval(node: Any, row: Mapping[str, Scalar], rec_id: str, today: str) -> Scalar:
    tag = node[0]
    if tag == "lit":
        lit: Scalar = node[1]
        return lit
    if tag == "field":
        return row.get(node[1])
    if tag == "neg":
        return -_num(_eval(node[1], row, rec_id, today))
    if tag == "cmp":
        op, a, b = node[1], _eval(node[2], row, rec_id, today), _eval(node[3], row, rec_id, today)
        if isinstance(a, float | bool) or isinstance(b, float | bool):
            x: Any = _num(a)
            y: Any = _num(b)
            if (a is None or a == "") and isinstance(b, float | bool) and op in ("=", "!="):
                x = None if b else 0.0
        else:
            x, y = _str(a), _str(b)
        result: bool = {"=": x == y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]
        return result
    if tag == "&":
        return _str(_eval(node[1], row, rec_id, today)) + _str(_eval(node[2], row, rec_id, today))
    if tag in ("+", "-", "*", "/"):
        a, b = _num(_eval(node[1], row, rec_id, today)), _num(_eval(node[2], row, rec_id, today))
        if tag == "/":
            return a / b if b else None
        return {"+": a + b, "-": a - b, "*": a * b}[tag]
    fn: str = node[1]
    vals = [_eval(a, row, rec_id, today) for a in node[2]]

    def need(n: int) -> None:
        if len(vals) != n:
            raise _FormulaError(f"{fn} takes {n} argument(s), got {len(vals)}")

    if fn == "AND":
        return all(_truthy(v) for v in vals)
    if fn == "OR":
        return any(_truthy(v) for v in vals)
    if fn in ("TRUE", "FALSE"):
        return fn == "TRUE"
    if fn == "BLANK":
        return None
    if fn == "RECORD_ID":
        return rec_id
    if fn == "TODAY":
        return today
    if fn == "NOT":
        need(1)
        return not _truthy(vals[0])
    if fn == "IF":
        if len(vals) not in (2, 3):
            raise _FormulaError("IF takes 2 or 3 arguments")
        return vals[1] if _truthy(vals[0]) else (vals[2] if len(vals) == 3 else None)
    if fn in ("FIND", "SEARCH"):
        need(2)
        needle, hay = _str(vals[0]), _str(vals[1])
        if fn == "SEARCH":
            needle, hay = needle.casefold(), hay.casefold()
        return float(hay.find(needle) + 1) if needle else 0.0
    if fn in ("IS_BEFORE", "IS_AFTER"):
        need(2)
        a, b = _str(vals[0])[:10], _str(vals[1])[:10]
        return bool(a and b) and (a < b if fn == "IS_BEFORE" else a > b)
    need(1)
    s = _str(vals[0])
    if fn == "LEN":
        return float(len(s))
    return {"LOWER": s.lower(), "UPPER": s.upper(), "TRIM": s.strip()}[fn]


def _formula_row(ctx: Ctx, cols: Sequence[TableField], rec: TableRecord) -> dict[str, Scalar]:
    row: dict[str, Scalar] = {}
    for col in cols:
        v = rec.fields.get(col.name)
        if isinstance(v, bool) or col.type == "checkbox":
            row[col.name] = bool(v)
        elif isinstance(v, int | float):
            row[col.name] = float(v)
        else:
            row[col.name] = _text(_display(ctx, col, v)) or None
    return row


# -- examples ---------------------------------------------------------------------------------


_SAMPLES: dict[str, CellValue] = {
    "singleLineText": "Added by the conformance suite",
    "multilineText": "A longer note.\nWith two lines.",
    "email": "new.person@example.com",
    "url": "https://example.com/item",
    "phoneNumber": "+14155550123",
    "number": 7,
    "currency": 1250.5,
    "percent": 0.25,
    "date": "2026-04-01",
    "checkbox": True,
    "rating": 3,
}


def _sample_fields(ctx: Ctx, table: Table) -> dict[str, CellValue]:
    out: dict[str, CellValue] = {}
    base = table.base_id
    for col in _fields(ctx, table.id):
        if col.type in _SAMPLES:
            out[col.name] = _SAMPLES[col.type]
        elif col.type == "singleSelect" and col.choices:
            out[col.name] = col.choices[0].name
        elif col.type == "multipleSelects" and col.choices:
            out[col.name] = [col.choices[0].name]
        elif col.type == "singleCollaborator":
            owner = ctx.first(Collaborator, base_id=base, permission_level="owner")
            if owner is not None:
                out[col.name] = owner.email
        elif col.type == "multipleRecordLinks" and col.linked_table_id:
            target = ctx.first(TableRecord, table_id=col.linked_table_id)
            if target is not None:
                out[col.name] = [target.id]
    return out


def _first_table(ctx: Ctx) -> Table:
    return next(t for t in ctx.scan(Table) if ctx.first(TableRecord, table_id=t.id) is not None)


def _example_create_base(ctx: Ctx) -> dict[str, Any]:
    return {
        "name": "Event planning",
        "workspace_name": "Marketing",
        "owner_email": ctx.population.employees[0].email,
        "table_name": "Events",
    }


def _example_create_table(ctx: Ctx) -> dict[str, Any]:
    base = next(ctx.scan(Base))
    other = next(t for t in ctx.where(Table, base_id=base.id))
    return {
        "base_id": base.id,
        "name": "Partners",
        "fields": [
            {"name": "Partner", "type": "singleLineText"},
            {"name": "Tier", "type": "singleSelect", "choices": ["Gold", "Silver"]},
            {"name": "Related", "type": "multipleRecordLinks", "linked_table_id": other.id},
        ],
    }


def _example_create_field(ctx: Ctx) -> dict[str, Any]:
    return {"table_id": _first_table(ctx).id, "name": "Priority", "type": "singleSelect", "choices": ["High", "Low"]}


def _example_update_field(ctx: Ctx) -> dict[str, Any]:
    col = next(c for c in ctx.scan(TableField) if c.type == "singleLineText")
    return {"field_id": col.id, "name": col.name + " (renamed)", "description": "Renamed by the conformance suite"}


def _example_delete_field(ctx: Ctx) -> dict[str, Any] | None:
    for col in ctx.scan(TableField):
        table = ctx.get(Table, col.table_id)
        if col.id != table.primary_field_id and not _view_uses(ctx, col):
            return {"field_id": col.id}
    return None


def _example_create_records(ctx: Ctx) -> dict[str, Any]:
    table = _first_table(ctx)
    return {"table_id": table.id, "records": [{"fields": _sample_fields(ctx, table)}]}


def _example_update_records(ctx: Ctx) -> dict[str, Any]:
    table = _first_table(ctx)
    rec = ctx.first(TableRecord, table_id=table.id)
    assert rec is not None
    col = next(c for c in _fields(ctx, table.id) if c.type == "singleLineText")
    return {"table_id": table.id, "records": [{"id": rec.id, "fields": {col.name: "Edited"}}]}


def _example_upsert(ctx: Ctx) -> dict[str, Any]:
    table = _first_table(ctx)
    primary = ctx.get(TableField, table.primary_field_id or "")
    rec = ctx.first(TableRecord, table_id=table.id)
    assert rec is not None
    return {
        "table_id": table.id,
        "records": [{"fields": {primary.name: rec.fields.get(primary.name)}}, {"fields": {primary.name: "Brand new"}}],
        "fields_to_merge_on": [primary.name],
    }


def _example_delete_records(ctx: Ctx) -> dict[str, Any]:
    table = _first_table(ctx)
    return {"table_id": table.id, "record_ids": [r.id for r in ctx.where(TableRecord, table_id=table.id)[:2]]}


def _example_list_records(ctx: Ctx) -> dict[str, Any]:
    view = next(v for v in ctx.scan(View) if v.filters)
    return {"table_id": view.table_id, "view_id": view.id, "page_size": 20}


def _example_create_view(ctx: Ctx) -> dict[str, Any]:
    col = next(c for c in ctx.scan(TableField) if c.type == "singleSelect")
    return {"table_id": col.table_id, "name": "By " + col.name.lower(), "type": "kanban", "group_field_id": col.id}


def _unlocked_view_with(kind: str) -> Callable[[Ctx], dict[str, Any] | None]:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        for view in ctx.where(View, locked=False):
            for col in _fields(ctx, view.table_id):
                if kind == "filter" and col.type == "singleSelect" and col.choices:
                    return {
                        "view_id": view.id,
                        "filters": [{"field_id": col.id, "operator": "=", "value": col.choices[0].name}],
                        "conjunction": "and",
                    }
                if kind == "sort" and col.type in NUMERIC | TEXTUAL:
                    return {"view_id": view.id, "sorts": [{"field_id": col.id, "direction": "desc"}]}
        return None

    return example


def _example_add_collaborator(ctx: Ctx) -> dict[str, Any] | None:
    for base in ctx.scan(Base):
        for p in ctx.population.employees:
            if _collaborator(ctx, base.id, p.email) is None:
                return {
                    "base_id": base.id,
                    "email": p.email,
                    "permission_level": "comment",
                    "invited_by_email": base.owner_email,
                }
    return None


def _example_change_permission(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.scan(Collaborator):
        if c.permission_level in ("read", "comment"):
            owner = ctx.get(Base, c.base_id).owner_email
            return {"collaborator_id": c.id, "permission_level": "edit", "changed_by_email": owner}
    return None


def _example_remove_collaborator(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.scan(Collaborator):
        if c.permission_level == "read":
            return {"collaborator_id": c.id, "removed_by_email": ctx.get(Base, c.base_id).owner_email}
    return None


def _example_comment(ctx: Ctx) -> dict[str, Any]:
    table = _first_table(ctx)
    rec = ctx.first(TableRecord, table_id=table.id)
    assert rec is not None
    owner = ctx.get(Base, table.base_id).owner_email
    return {"record_id": rec.id, "author_email": owner, "text": "Looks good to me."}


def _example_edit_comment(ctx: Ctx) -> dict[str, Any]:
    c = next(ctx.scan(Comment))
    return {"comment_id": c.id, "author_email": c.author_email, "text": c.text + " (edited)"}


def _example_delete_comment(ctx: Ctx) -> dict[str, Any]:
    c = next(ctx.scan(Comment))
    return {"comment_id": c.id, "author_email": c.author_email}


# -- bases and collaborators ------------------------------------------------------------------


def _table_schema(ctx: Ctx, table: Table) -> TableSchema:
    cols = _fields(ctx, table.id)
    cols.sort(key=lambda c: c.id != table.primary_field_id)
    return TableSchema(table=table, fields=cols, views=ctx.where(View, table_id=table.id))


def _employee(ctx: Ctx, email: str) -> Person | None:
    return next((p for p in ctx.population.employees if p.email == email), None)


def _person(ctx: Ctx, email: str) -> Person | None:
    return next((p for p in ctx.population.people if p.email == email), None)


@service.tool(intent="create a base", write=True, example=_example_create_base)
def create_base(
    ctx: Ctx, name: Title, workspace_name: Title, owner_email: Email, table_name: Name, description: Text = ""
) -> BaseSchema:
    """Create a base owned by an employee, with its first table (a primary "Name" field and a grid view).

    Args:
        name: Name of the base.
        workspace_name: The workspace it goes in.
        owner_email: E-mail of the employee who owns it.
        table_name: Name of its first table.
        description: What the base is for.
    """
    owner = _employee(ctx, owner_email)
    if owner is None:
        raise RuleViolation(
            f"{owner_email} is not an employee", field="owner_email", hint="bases are owned by the company's employees"
        )
    base = ctx.create(Base, name=name, workspace_name=workspace_name, owner_email=owner.email, description=description)
    me = ctx.create(Collaborator, base_id=base.id, email=owner.email, name=owner.name, permission_level="owner")
    table = _make_table(ctx, base, table_name, "", [FieldSpec(name="Name", type="singleLineText")])
    return BaseSchema(base=base, owner=me, table=_table_schema(ctx, table))


def _actor(ctx: Ctx, base_id: str, email: str, field: str, allowed: frozenset[str], doing: str) -> Collaborator:
    who = _collaborator(ctx, base_id, email)
    if who is None or who.permission_level not in allowed:
        have = "no access" if who is None else f"{who.permission_level} permission"
        need = " or ".join(sorted(allowed, key=lambda p: -_RANK[p]))
        raise RuleViolation(
            f"{email} has {have} on the base; {doing} needs {need} permission",
            field=field,
            hint="act as the base owner or a collaborator with enough permission (tablebase__list_collaborators)",
        )
    return who


@service.tool(intent="share the base with someone", write=True, example=_example_add_collaborator)
def add_base_collaborator(
    ctx: Ctx, base_id: BaseId, email: Email, permission_level: GrantedPermission, invited_by_email: Email
) -> Collaborator:
    """Share a base with a person at a permission level.

    The owner and creators share; a creator cannot grant more than creator; a person is a
    collaborator once per base.

    Args:
        base_id: The base.
        email: E-mail of the person to share it with.
        permission_level: create (edit the schema), edit (records), comment or read.
        invited_by_email: E-mail of the owner or a creator sharing it.
    """
    base = ctx.get(Base, base_id, field="base_id")
    _actor(ctx, base.id, invited_by_email, "invited_by_email", MANAGERS, "sharing the base")
    taken = _collaborator(ctx, base.id, email)
    if taken is not None:
        raise Conflict(
            f"{email} is already a collaborator of {base.name!r} ({taken.permission_level})",
            field="email",
            hint="change their permission with tablebase__update_collaborator_permission",
        )
    person = _person(ctx, email)
    return ctx.create(
        Collaborator,
        base_id=base.id,
        email=email,
        name=person.name if person else None,
        permission_level=permission_level,
    )


@service.tool(
    intent="change the collaborator's permission on the base",
    write=True,
    idempotent=True,
    example=_example_change_permission,
)
def update_collaborator_permission(
    ctx: Ctx, collaborator_id: CollaboratorId, permission_level: GrantedPermission, changed_by_email: Email
) -> Collaborator:
    """Change the permission level of a collaborator of a base.

    The owner and creators change permissions; the owner's own level never changes.

    Args:
        collaborator_id: The collaborator.
        permission_level: create, edit, comment or read.
        changed_by_email: E-mail of the owner or a creator making the change.
    """
    who = ctx.get(Collaborator, collaborator_id, field="collaborator_id")
    _actor(ctx, who.base_id, changed_by_email, "changed_by_email", MANAGERS, "changing permissions")
    if who.permission_level == "owner":
        raise RuleViolation(
            f"{who.email} owns the base; the owner's permission does not change",
            field="collaborator_id",
            hint="pick another collaborator",
        )
    return ctx.update(who, permission_level=permission_level)


@service.tool(
    intent="remove the collaborator from the base",
    write=True,
    destructive=True,
    example=_example_remove_collaborator,
)
def remove_base_collaborator(ctx: Ctx, collaborator_id: CollaboratorId, removed_by_email: Email) -> DeletedItem:
    """Stop sharing a base with a collaborator; the owner and creators may, and anyone may leave.

    The owner cannot be removed. Collaborator cells naming them keep their e-mail.

    Args:
        collaborator_id: The collaborator.
        removed_by_email: E-mail of the owner, a creator, or the collaborator leaving.
    """
    who = ctx.get(Collaborator, collaborator_id, field="collaborator_id")
    if removed_by_email != who.email:
        _actor(ctx, who.base_id, removed_by_email, "removed_by_email", MANAGERS, "removing collaborators")
    if who.permission_level == "owner":
        raise RuleViolation(
            f"{who.email} owns the base and cannot be removed", field="collaborator_id", hint="remove someone else"
        )
    ctx.delete(who)
    return DeletedItem(id=who.id)


# -- tables and fields ------------------------------------------------------------------------


def _at(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _check_spec(ctx: Ctx, base_id: str, spec: FieldSpec, where: str) -> None:
    if spec.type in ("singleSelect", "multipleSelects"):
        if not spec.choices:
            raise RuleViolation(
                f"a {spec.type} field needs its choices", field=_at(where, "choices"), hint="list the choices"
            )
        if len({c.casefold() for c in spec.choices}) < len(spec.choices):
            raise RuleViolation("choices must differ (case aside)", field=_at(where, "choices"), hint="list each once")
    elif spec.choices:
        raise RuleViolation(
            f"only select fields take choices, not a {spec.type} field", field=_at(where, "choices"), hint="omit them"
        )
    if spec.type != "multipleRecordLinks":
        if spec.linked_table_id is not None:
            raise RuleViolation(
                "only multipleRecordLinks fields link to a table", field=_at(where, "linked_table_id"), hint="omit it"
            )
        return
    if spec.linked_table_id is None:
        raise RuleViolation(
            "a multipleRecordLinks field needs the table it links to",
            field=_at(where, "linked_table_id"),
            hint="give linked_table_id (tablebase__list_tables)",
        )
    linked = ctx.find(Table, spec.linked_table_id)
    if linked is None:
        raise NotFound(
            f"no table {spec.linked_table_id!r} to link to",
            field=_at(where, "linked_table_id"),
            hint="give the id of a table of the same base (tablebase__list_tables)",
        )
    if linked.base_id != base_id:
        raise RuleViolation(
            f"table {linked.name!r} is in another base; links stay within a base",
            field=_at(where, "linked_table_id"),
            hint="link to a table of the same base, or copy the records into this base",
        )


def _add_field(ctx: Ctx, table: Table, spec: FieldSpec) -> TableField:
    cols = _fields(ctx, table.id)
    _unique_name(cols, spec.name, None, "field", "name")
    precision = spec.precision
    if spec.type in ("number", "percent") and precision is None:
        precision = 0 if spec.type == "number" else 2
    if spec.type == "currency" and precision is None:
        precision = 2
    col = ctx.create(
        TableField,
        table_id=table.id,
        name=spec.name,
        type=spec.type,
        description=spec.description,
        choices=tuple(
            Choice(name=c, color=_COLORS[k % len(_COLORS)]) for k, c in enumerate(dict.fromkeys(spec.choices or ()))
        ),
        precision=precision if spec.type in ("number", "currency", "percent") else None,
        symbol=(spec.symbol or "$") if spec.type == "currency" else None,
        max_rating=(spec.max_rating or 5) if spec.type == "rating" else None,
        linked_table_id=spec.linked_table_id,
    )
    if spec.type == "multipleRecordLinks" and spec.linked_table_id != table.id:
        linked = ctx.get(Table, spec.linked_table_id or "")
        others = _fields(ctx, linked.id)
        name, k = table.name, 2
        while any(o.name.casefold() == name.casefold() for o in others):
            name, k = f"{table.name} {k}", k + 1
        inverse = ctx.create(
            TableField,
            table_id=linked.id,
            name=name,
            type="multipleRecordLinks",
            linked_table_id=table.id,
            inverse_link_field_id=col.id,
        )
        col = ctx.update(col, inverse_link_field_id=inverse.id)
    if spec.type in COMPUTED:
        for rec in ctx.where(TableRecord, table_id=table.id):
            value: CellValue = (
                _next_auto(ctx, col)
                if spec.type == "autoNumber"
                else rec.created_time.isoformat().replace("+00:00", "Z")
            )
            ctx.update(rec, fields={**rec.fields, col.name: value})
    return col


def _make_table(ctx: Ctx, base: Base, name: str, description: str, specs: Sequence[FieldSpec]) -> Table:
    _unique_name(ctx.where(Table, base_id=base.id), name, None, "table", "name")
    if not specs:
        raise RuleViolation("a table needs at least one field", field="fields", hint="give its primary field first")
    if specs[0].type in NOT_PRIMARY | {"createdTime"}:
        raise RuleViolation(
            f"a {specs[0].type} field cannot be the primary field",
            field="fields.0.type",
            hint="make the first field a text, number, date, select or e-mail field",
        )
    names = [s.name.casefold() for s in specs]
    if len(set(names)) < len(names):
        raise Conflict("two fields have the same name", field="fields", hint="field names are unique (case aside)")
    table = ctx.create(Table, base_id=base.id, name=name, description=description)
    for k, spec in enumerate(specs):
        _check_spec(ctx, base.id, spec, f"fields.{k}")
        col = _add_field(ctx, table, spec)
        if k == 0:
            table = ctx.update(table, primary_field_id=col.id)
    ctx.create(View, table_id=table.id, name="Grid view", type="grid")
    return table


@service.tool(intent="create a table in the base", write=True, example=_example_create_table)
def create_table(ctx: Ctx, base_id: BaseId, name: Name, fields: list[FieldSpec], description: Text = "") -> TableSchema:
    """Create a table with its fields; the first field is the primary field. A grid view comes with it.

    A link field links to a table of the same base and adds an inverse link field there.

    Args:
        base_id: The base.
        name: Table name; unique in the base (case aside).
        fields: Its fields, the primary field first.
        description: What the table holds.
    """
    base = ctx.get(Base, base_id, field="base_id")
    return _table_schema(ctx, _make_table(ctx, base, name, description, fields))


@service.tool(intent="read the table's fields and views", example=first_example(Table, "table_id"))
def get_table(ctx: Ctx, table_id: TableId) -> TableSchema:
    """Get a table with its fields (primary first) and views.

    Args:
        table_id: The table.
    """
    return _table_schema(ctx, ctx.get(Table, table_id, field="table_id"))


@service.tool(intent="add a field to the table", write=True, example=_example_create_field)
def create_field(
    ctx: Ctx,
    table_id: TableId,
    name: Name,
    type: FieldType,
    description: Text = "",
    choices: list[ChoiceName] | None = None,
    precision: Annotated[int, Field(ge=0, le=8)] | None = None,
    symbol: Annotated[str, StringConstraints(max_length=5)] | None = None,
    max_rating: Annotated[int, Field(ge=1, le=10)] | None = None,
    linked_table_id: TableId | None = None,
) -> TableField:
    """Add a typed field to a table; existing records have it empty (auto numbers and created times are filled).

    Args:
        table_id: The table.
        name: Field name; unique in the table (case aside).
        type: The field type.
        description: What it holds.
        choices: The choices of a single or multiple select (required for those).
        precision: Decimal places of a number, currency or percent field.
        symbol: Currency symbol of a currency field (default $).
        max_rating: Highest value of a rating field (default 5).
        linked_table_id: The table a multipleRecordLinks field links to (same base).
    """
    table = ctx.get(Table, table_id, field="table_id")
    spec = FieldSpec(
        name=name,
        type=type,
        description=description,
        choices=choices,
        precision=precision,
        symbol=symbol,
        max_rating=max_rating,
        linked_table_id=linked_table_id,
    )
    _check_spec(ctx, table.base_id, spec, "")
    return _add_field(ctx, table, spec)


@service.tool(intent="rename the field", write=True, idempotent=True, example=_example_update_field)
def update_field(ctx: Ctx, field_id: FieldId, name: Name | None = None, description: Text | None = None) -> TableField:
    """Change a field's name or description; records give the field's values by its new name from then on.

    The API cannot change a field's type: create a new field instead.

    Args:
        field_id: The field.
        name: New name; unique in the table (case aside).
        description: New description.
    """
    col = ctx.get(TableField, field_id, field="field_id")
    if name is None and description is None:
        raise RuleViolation("nothing to change", field="name", hint="give a new name or description")
    if name is not None and name != col.name:
        _unique_name(_fields(ctx, col.table_id), name, col.id, "field", "name")
        for rec in ctx.where(TableRecord, table_id=col.table_id):
            if col.name in rec.fields:
                ctx.update(rec, fields={(name if k == col.name else k): v for k, v in rec.fields.items()})
    return ctx.update(col, name=name or col.name, description=col.description if description is None else description)


def _view_uses(ctx: Ctx, col: TableField) -> View | None:
    for view in ctx.where(View, table_id=col.table_id):
        if view.group_field_id == col.id or any(f.field_id == col.id for f in view.filters):
            return view
    return None


@service.tool(intent="delete the field", write=True, destructive=True, example=_example_delete_field)
def delete_field(ctx: Ctx, field_id: FieldId) -> DeletedItem:
    """Delete a field and its values; sorts on it go too. A link field takes its inverse field with it.

    The primary field cannot be deleted, nor a field a view filters on or groups by.

    Args:
        field_id: The field.
    """
    col = ctx.get(TableField, field_id, field="field_id")
    doomed = [col]
    if col.inverse_link_field_id is not None:
        doomed.append(ctx.get(TableField, col.inverse_link_field_id))
    for c in doomed:
        table = ctx.get(Table, c.table_id)
        if c.id == table.primary_field_id:
            raise RuleViolation(
                f"{c.name!r} is the primary field of {table.name!r} and cannot be deleted",
                field="field_id",
                hint="rename it, or make another field's values the record names",
            )
        view = _view_uses(ctx, c)
        if view is not None:
            how = "groups by" if view.group_field_id == c.id else "filters on"
            raise RuleViolation(
                f"view {view.name!r} of {table.name!r} {how} field {c.name!r}",
                field="field_id",
                hint=f"remove that condition from view {view.id} (tablebase__set_view_filters) or delete the view first",
            )
    for c in doomed:
        for rec in ctx.where(TableRecord, table_id=c.table_id):
            if c.name in rec.fields:
                ctx.update(rec, fields={k: v for k, v in rec.fields.items() if k != c.name})
        for view in ctx.where(View, table_id=c.table_id):
            if any(s.field_id == c.id for s in view.sorts):
                ctx.update(view, sorts=tuple(s for s in view.sorts if s.field_id != c.id))
        ctx.delete(c)
    return DeletedItem(id=col.id)


# -- records ----------------------------------------------------------------------------------


@service.tool(intent="look up the record", example=first_example(TableRecord, "record_id"))
def get_record(ctx: Ctx, record_id: RecordId) -> TableRecord:
    """Get one record with its cell values (empty cells are left out).

    Args:
        record_id: The record.
    """
    return ctx.get(TableRecord, record_id, field="record_id")


@service.tool(intent="list the records of the table", example=_example_list_records)
def list_records(
    ctx: Ctx,
    table_id: TableId,
    view_id: ViewId | None = None,
    filter_by_formula: Formula | None = None,
    sort: list[SortSpec] | None = None,
    fields: list[Name] | None = None,
    max_records: Annotated[int, Field(ge=1, le=10_000)] | None = None,
    page_size: Annotated[int, Field(ge=1, le=MAX_PAGE)] = MAX_PAGE,
    offset: str | None = None,
) -> RecordPage:
    """List a table's records: those a view shows in its order, those a formula keeps, sorted as asked.

    filterByFormula keeps records for which the formula is true, e.g.
    ``AND({Stage} = 'Qualified', {Deal size} > 10000)`` or ``FIND('acme', LOWER({Company}))``
    ({Field} references; = != < > <= >= & + - * /; AND, OR, NOT, IF, FIND, SEARCH, LOWER, UPPER,
    LEN, TRIM, BLANK, TRUE, FALSE, RECORD_ID, TODAY, IS_BEFORE, IS_AFTER). A sort given here
    overrides the view's sorts.

    Args:
        table_id: The table.
        view_id: Only the records this view shows, in its order.
        filter_by_formula: A formula a record must make true.
        sort: Sorts by field name, first one first.
        fields: Only these fields in each record.
        max_records: At most this many records in all.
        page_size: Records per page (at most 100).
        offset: The offset a previous page returned.
    """
    table = ctx.get(Table, table_id, field="table_id")
    cols = _fields(ctx, table.id)
    by_id = {c.id: c for c in cols}
    found = ctx.where(TableRecord, table_id=table.id)
    sorts: list[tuple[TableField, str]] = []
    if view_id is not None:
        view = ctx.get(View, view_id, field="view_id")
        if view.table_id != table.id:
            raise RuleViolation(
                f"view {view.name!r} belongs to another table", field="view_id", hint="list the table's views"
            )
        found = [r for r in found if _in_view(ctx, view, by_id, r)]
        sorts = [(by_id[s.field_id], s.direction) for s in view.sorts if s.field_id in by_id]
    if filter_by_formula is not None:
        try:
            formula = _Formula(filter_by_formula, {c.name for c in cols})
            today = ctx.today().isoformat()
            found = [r for r in found if _truthy(_eval(formula.tree, _formula_row(ctx, cols, r), r.id, today))]
        except _FormulaError as exc:
            raise RuleViolation(
                f"invalid filterByFormula: {exc}",
                field="filter_by_formula",
                hint="write e.g. AND({Status} = 'Done', {Amount} > 100); field names go in {braces}",
            ) from None
    if sort:
        sorts = [(_by_name(cols, s.field, table, f"sort.{k}.field"), s.direction) for k, s in enumerate(sort)]
    found = _sorted(ctx, found, sorts)
    if max_records is not None:
        found = found[:max_records]
    if fields is not None:
        keep = {_by_name(cols, n, table, f"fields.{k}").name for k, n in enumerate(fields)}
        found = [r.model_copy(update={"fields": {k: v for k, v in r.fields.items() if k in keep}}) for r in found]
    start = 0
    if offset is not None:
        if not offset.isdigit() or int(offset) > len(found):
            raise RuleViolation(
                f"offset {offset!r} is not valid", field="offset", hint="pass the offset a page returned"
            )
        start = int(offset)
    end = start + page_size
    return RecordPage(records=found[start:end], offset=str(end) if end < len(found) else None)


@service.tool(intent="add records to the table", write=True, example=_example_create_records)
def create_records(ctx: Ctx, table_id: TableId, records: list[NewRecord], typecast: bool = False) -> list[TableRecord]:
    """Create up to 10 records, their cell values given by field name and checked against the field types.

    With typecast, texts are converted where they can be (numbers, dates, checkboxes), a select value
    that is not yet a choice is added as one, and a link may name a record by its primary field value.

    Args:
        table_id: The table.
        records: The records' cell values (at most 10).
        typecast: Convert values and add missing select choices instead of refusing them.
    """
    _batch(records, "create")
    w = _writer(ctx, table_id, typecast)
    prepared = [w.values(r.fields, f"records.{k}.fields") for k, r in enumerate(records)]
    w.commit()
    w.cols = _fields(ctx, w.table.id)
    return [_write(ctx, w, None, cells, False) for cells in prepared]


@service.tool(intent="update the records", write=True, idempotent=True, example=_example_update_records)
def update_records(
    ctx: Ctx, table_id: TableId, records: list[RecordChange], typecast: bool = False, destructive: bool = False
) -> list[TableRecord]:
    """Update up to 10 records: given cells change, others stay (or, destructive, are cleared).

    Args:
        table_id: The table.
        records: Each record's id and the cell values to write (null clears a cell).
        typecast: Convert values and add missing select choices instead of refusing them.
        destructive: Clear every cell not given (PUT) instead of keeping it (PATCH).
    """
    _batch(records, "update")
    w = _writer(ctx, table_id, typecast)
    ids = [r.id for r in records]
    if len(set(ids)) < len(ids):
        raise RuleViolation("a record appears twice in the request", field="records", hint="give each record once")
    targets = [_record_in(ctx, w.table, r.id, f"records.{k}.id") for k, r in enumerate(records)]
    prepared = [w.values(r.fields, f"records.{k}.fields") for k, r in enumerate(records)]
    w.commit()
    w.cols = _fields(ctx, w.table.id)
    return [
        _write(ctx, w, ctx.get(TableRecord, rec.id), cells, destructive)
        for rec, cells in zip(targets, prepared, strict=True)
    ]


@service.tool(intent="add or update the records matched on key fields", write=True, example=_example_upsert)
def upsert_records(
    ctx: Ctx,
    table_id: TableId,
    records: list[NewRecord],
    fields_to_merge_on: Annotated[list[Name], Field(min_length=1, max_length=3)],
    typecast: bool = False,
) -> UpsertResult:
    """Create or update up to 10 records, matching each to an existing one on 1-3 merge fields.

    A record whose merge fields equal exactly one existing record's updates it; none creates a new
    record; more than one match is refused. Every record must give every merge field.

    Args:
        table_id: The table.
        records: The records' cell values (at most 10).
        fields_to_merge_on: Names of the fields that identify a record (1 to 3).
        typecast: Convert values and add missing select choices instead of refusing them.
    """
    _batch(records, "upsert")
    w = _writer(ctx, table_id, typecast)
    keys = [_by_name(w.cols, n, w.table, f"fields_to_merge_on.{k}") for k, n in enumerate(fields_to_merge_on)]
    for key in keys:
        if key.type in COMPUTED | {"multipleRecordLinks", "multipleSelects"}:
            raise RuleViolation(
                f"field {key.name!r} ({key.type}) cannot be merged on",
                field="fields_to_merge_on",
                hint="merge on a text, number, e-mail, date or single select field",
            )
    prepared = [w.values(r.fields, f"records.{k}.fields") for k, r in enumerate(records)]
    seen: set[tuple[str, ...]] = set()
    plan: list[TableRecord | None] = []
    existing = ctx.where(TableRecord, table_id=w.table.id)
    for k, cells in enumerate(prepared):
        missing = [c.name for c in keys if cells.get(c.name) is None]
        if missing:
            raise RuleViolation(
                f"record {k} lacks merge field(s) {', '.join(missing)}",
                field=f"records.{k}.fields",
                hint="every record gives a value for each field to merge on",
            )
        sig = tuple(_text(cells[c.name]).casefold() for c in keys)
        if sig in seen:
            raise RuleViolation(
                f"records share the merge values {sig}", field=f"records.{k}", hint="give each key once per request"
            )
        seen.add(sig)
        hits = [r for r in existing if tuple(_text(r.fields.get(c.name)).casefold() for c in keys) == sig]
        if len(hits) > 1:
            raise Conflict(
                f"{len(hits)} records match record {k} on {', '.join(c.name for c in keys)}",
                field=f"records.{k}",
                hint="merge on fields whose values identify one record, or update by record id",
            )
        plan.append(hits[0] if hits else None)
    w.commit()
    w.cols = _fields(ctx, w.table.id)
    written: list[TableRecord] = []
    made: list[str] = []
    changed: list[str] = []
    for target, cells in zip(plan, prepared, strict=True):
        rec = _write(ctx, w, None if target is None else ctx.get(TableRecord, target.id), cells, False)
        written.append(rec)
        (made if target is None else changed).append(rec.id)
    return UpsertResult(records=written, created_records=made, updated_records=changed)


@service.tool(intent="delete the records", write=True, destructive=True, example=_example_delete_records)
def delete_records(ctx: Ctx, table_id: TableId, record_ids: list[RecordId]) -> list[DeletedRecord]:
    """Delete up to 10 records with their comments; links to them disappear from linked records.

    Args:
        table_id: The table.
        record_ids: The records (at most 10).
    """
    _batch(record_ids, "delete", "record_ids")
    table = ctx.get(Table, table_id, field="table_id")
    doomed = [_record_in(ctx, table, rid, f"record_ids.{k}") for k, rid in enumerate(dict.fromkeys(record_ids))]
    cols = _fields(ctx, table.id)
    for rec in doomed:
        rec = ctx.get(TableRecord, rec.id)
        for col in cols:
            if col.type == "multipleRecordLinks":
                _sync_links(ctx, col, rec.id, _ids(rec.fields.get(col.name)), [])
        if col_self := [c for c in cols if c.type == "multipleRecordLinks" and c.linked_table_id == table.id]:
            for other in ctx.where(TableRecord, table_id=table.id):
                for c in col_self:
                    if rec.id in _ids(other.fields.get(c.name)):
                        left = [x for x in _ids(other.fields.get(c.name)) if x != rec.id]
                        ctx.update(other, fields=_ordered(cols, {**other.fields, c.name: left or None}))
        for note in ctx.where(Comment, record_id=rec.id):
            ctx.delete(note)
        ctx.delete(rec)
    return [DeletedRecord(id=r.id) for r in doomed]


# -- views ------------------------------------------------------------------------------------


@service.tool(intent="create a view of the table", write=True, example=_example_create_view)
def create_view(
    ctx: Ctx, table_id: TableId, name: Name, type: ViewType = "grid", group_field_id: FieldId | None = None
) -> View:
    """Create a view of a table: a kanban view stacks by a single select, a calendar view places by a date.

    Args:
        table_id: The table.
        name: View name; unique in the table (case aside).
        type: grid, form, calendar, gallery or kanban.
        group_field_id: The single select field a kanban stacks by, or the date field of a calendar.
    """
    table = ctx.get(Table, table_id, field="table_id")
    _unique_name(ctx.where(View, table_id=table.id), name, None, "view", "name")
    need = {"kanban": ("singleSelect",), "calendar": ("date", "createdTime")}.get(type)
    if need is None:
        if group_field_id is not None:
            raise RuleViolation(
                f"a {type} view takes no group field", field="group_field_id", hint="omit it, or make a kanban view"
            )
    else:
        col = ctx.find(TableField, group_field_id or "")
        if col is None or col.table_id != table.id or col.type not in need:
            raise RuleViolation(
                f"a {type} view needs a {' or '.join(need)} field of table {table.name!r}",
                field="group_field_id",
                hint="give the id of such a field (tablebase__list_fields)",
            )
    return ctx.create(View, table_id=table.id, name=name, type=type, group_field_id=group_field_id)


def _unlocked(ctx: Ctx, view_id: str) -> View:
    view = ctx.get(View, view_id, field="view_id")
    if view.locked:
        raise RuleViolation(
            f"view {view.name!r} is locked; its filters and sorts cannot change",
            field="view_id",
            hint="unlock it with tablebase__unlock_view first, or use another view",
        )
    return view


def _filter_value(col: TableField, f: FilterSpec, where: str) -> CellValue:
    op = f.operator
    if op in ("isEmpty", "isNotEmpty"):
        if f.value is not None:
            raise RuleViolation(f"{op} takes no value", field=f"{where}.value", hint="omit the value")
        return None
    if col.type not in OPERATORS[op]:
        fitting = [o for o, kinds in OPERATORS.items() if col.type in kinds] + ["isEmpty", "isNotEmpty"]
        raise RuleViolation(
            f"operator {op!r} does not apply to {col.type} field {col.name!r}",
            field=f"{where}.operator",
            hint=f"use one of: {', '.join(fitting)}",
        )
    value = f.value
    choices = [c.name for c in col.choices]
    problem = None
    if op in ("<", ">", "<=", ">=") and (isinstance(value, bool) or not isinstance(value, int | float)):
        problem = "give a number"
    elif op in ("isBefore", "isAfter") and not (isinstance(value, str) and _ISO_DAY.match(value)):
        problem = "give a date as YYYY-MM-DD"
    elif op == "isAnyOf":
        items = value if isinstance(value, list) else None
        if not items or (choices and any(v not in choices for v in items)):
            problem = f"give a list of the field's choices: {', '.join(choices)}" if choices else "give a list"
    elif col.type == "singleSelect" and value not in choices:
        problem = f"give one of the field's choices: {', '.join(choices)}"
    elif col.type == "checkbox" and not isinstance(value, bool):
        problem = "give true or false"
    elif op in ("=", "!=", "contains", "doesNotContain") and value is None:
        problem = "give a value to compare with"
    if problem is not None:
        raise RuleViolation(
            f"{value!r} is not a value to test field {col.name!r} with {op}", field=f"{where}.value", hint=problem
        )
    return value


@service.tool(
    intent="set the view's filter conditions", write=True, idempotent=True, example=_unlocked_view_with("filter")
)
def set_view_filters(
    ctx: Ctx, view_id: ViewId, filters: list[FilterSpec], conjunction: Literal["and", "or"] = "and"
) -> View:
    """Replace a view's filter conditions (an empty list shows every record).

    Each operator must fit its field's type; a select's value must be one of its choices.
    A locked view's filters cannot change.

    Args:
        view_id: The view.
        filters: The conditions.
        conjunction: and (all must hold) or or (any).
    """
    view = _unlocked(ctx, view_id)
    out = []
    for k, f in enumerate(filters):
        col = ctx.find(TableField, f.field_id)
        if col is None or col.table_id != view.table_id:
            raise NotFound(
                f"the view's table has no field {f.field_id!r}",
                field=f"filters.{k}.field_id",
                hint="list the table's fields with tablebase__list_fields",
            )
        out.append(ViewFilter(field_id=col.id, operator=f.operator, value=_filter_value(col, f, f"filters.{k}")))
    return ctx.update(view, filters=tuple(out), conjunction=conjunction)


@service.tool(intent="set how the view sorts", write=True, idempotent=True, example=_unlocked_view_with("sort"))
def set_view_sorts(ctx: Ctx, view_id: ViewId, sorts: list[ViewSort]) -> View:
    """Replace a view's sorts (an empty list keeps creation order). A field is sorted on once.

    Args:
        view_id: The view.
        sorts: The sorts, first one first.
    """
    view = _unlocked(ctx, view_id)
    seen: set[str] = set()
    for k, s in enumerate(sorts):
        col = ctx.find(TableField, s.field_id)
        if col is None or col.table_id != view.table_id:
            raise NotFound(
                f"the view's table has no field {s.field_id!r}",
                field=f"sorts.{k}.field_id",
                hint="list the table's fields with tablebase__list_fields",
            )
        if col.id in seen:
            raise RuleViolation(f"field {col.name!r} is sorted on twice", field=f"sorts.{k}", hint="sort on it once")
        seen.add(col.id)
    return ctx.update(view, sorts=tuple(sorts))


# -- comments ---------------------------------------------------------------------------------

_MENTION = re.compile(r"@\[([^\]\s]+)\]")


def _mentions(ctx: Ctx, base_id: str, text: str) -> tuple[str, ...]:
    out: list[str] = []
    for raw in _MENTION.findall(text):
        email = raw.lower()
        if _collaborator(ctx, base_id, email) is None:
            raise RuleViolation(
                f"{raw} is mentioned but is not a collaborator of the base",
                field="text",
                hint="mention collaborators only, or share the base with them first (tablebase__add_base_collaborator)",
            )
        if email not in out:
            out.append(email)
    return tuple(out)


def _nonblank(text: str) -> None:
    if not text.strip():
        raise RuleViolation("the comment is empty", field="text", hint="write the comment's text")


@service.tool(intent="comment on the record", write=True, example=_example_comment)
def create_comment(ctx: Ctx, record_id: RecordId, author_email: Email, text: Text) -> Comment:
    """Write a comment on a record; ``@[e-mail]`` mentions a collaborator of the base.

    The author needs comment permission or more on the base.

    Args:
        record_id: The record.
        author_email: E-mail of the collaborator writing it.
        text: The comment.
    """
    rec = ctx.get(TableRecord, record_id, field="record_id")
    base_id = _base_of_table(ctx, rec.table_id)
    who = _actor(ctx, base_id, author_email, "author_email", COMMENTERS, "commenting")
    _nonblank(text)
    mentioned = _mentions(ctx, base_id, text)
    ctx.update(rec, comment_count=rec.comment_count + 1)
    return ctx.create(
        Comment,
        record_id=rec.id,
        table_id=rec.table_id,
        author_email=who.email,
        author_name=who.name,
        text=text,
        mentioned_emails=mentioned,
    )


def _own_comment(ctx: Ctx, comment_id: str, author_email: str, doing: str) -> Comment:
    c = ctx.get(Comment, comment_id, field="comment_id")
    if c.author_email != author_email:
        raise RuleViolation(
            f"only the comment's author ({c.author_email}) can {doing} it",
            field="author_email",
            hint="write a new comment instead",
        )
    return c


@service.tool(intent="edit the comment", write=True, idempotent=True, example=_example_edit_comment)
def update_comment(ctx: Ctx, comment_id: CommentId, author_email: Email, text: Text) -> Comment:
    """Change the text of a comment; only its author can.

    Args:
        comment_id: The comment.
        author_email: E-mail of its author.
        text: The new text.
    """
    c = _own_comment(ctx, comment_id, author_email, "edit")
    _nonblank(text)
    mentioned = _mentions(ctx, _base_of_table(ctx, c.table_id), text)
    return ctx.update(c, text=text, mentioned_emails=mentioned, last_updated_time=ctx.now())


@service.tool(intent="delete the comment", write=True, destructive=True, example=_example_delete_comment)
def delete_comment(ctx: Ctx, comment_id: CommentId, author_email: Email) -> DeletedItem:
    """Delete a comment; its author can, and so can the base owner.

    Args:
        comment_id: The comment.
        author_email: E-mail of its author or of the base owner.
    """
    c = ctx.get(Comment, comment_id, field="comment_id")
    base = ctx.get(Base, _base_of_table(ctx, c.table_id))
    if author_email not in (c.author_email, base.owner_email):
        raise RuleViolation(
            f"only the comment's author ({c.author_email}) or the base owner can delete it",
            field="author_email",
            hint="ask the author or the base owner",
        )
    rec = ctx.get(TableRecord, c.record_id)
    ctx.update(rec, comment_count=max(0, rec.comment_count - 1))
    ctx.delete(c)
    return DeletedItem(id=c.id)


# -- seed -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _F:
    """A field to seed: name, type and options (``link`` names a table seeded before)."""

    name: str
    type: FieldType = "singleLineText"
    choices: tuple[str, ...] = ()
    link: str | None = None
    symbol: str | None = None


class _Seeder:
    """Seeds one base: tables, fields, records (links both ways), views and comments."""

    def __init__(self, s: SeedContext, base: Base) -> None:
        self.s = s
        self.base = base
        self.tables: dict[str, Table] = {}
        self.cols: dict[str, dict[str, TableField]] = {}
        self.specs: dict[str, list[_F]] = {}
        self.recs: dict[str, list[TableRecord]] = {}

    def table(self, name: str, description: str, specs: Sequence[_F]) -> None:
        """A table with its fields (the first is primary), the inverse fields of its links and a grid view."""
        s = self.s
        table = s.create(
            Table, base_id=self.base.id, name=name, description=description, created_at=self.base.created_at
        )
        made: dict[str, TableField] = {}
        for spec in specs:
            linked = self.tables[spec.link] if spec.link else None
            col = s.create(
                TableField,
                table_id=table.id,
                name=spec.name,
                type=spec.type,
                choices=tuple(Choice(name=c, color=_COLORS[k % len(_COLORS)]) for k, c in enumerate(spec.choices)),
                precision={"currency": 2, "number": 0}.get(spec.type),
                symbol=spec.symbol,
                max_rating=5 if spec.type == "rating" else None,
                linked_table_id=linked.id if linked else None,
            )
            if linked is not None and spec.link:
                inverse = s.create(
                    TableField,
                    table_id=linked.id,
                    name=name,
                    type="multipleRecordLinks",
                    linked_table_id=table.id,
                    inverse_link_field_id=col.id,
                )
                col = s.update(col, inverse_link_field_id=inverse.id)
                self.cols[spec.link][name] = inverse
            made[spec.name] = col
        self.tables[name] = s.update(table, primary_field_id=made[specs[0].name].id)
        self.cols[name], self.specs[name], self.recs[name] = made, list(specs), []
        s.create(View, table_id=table.id, name="Grid view", type="grid", created_at=table.created_at)

    def rows(self, name: str, age: int, lines: Iterable[Sequence[Any]]) -> None:
        """Records of a table, each line's values in the order of its seeded fields (computed ones left out).

        A link's value lists indexes of records of the linked table.
        """
        writable = [f for f in self.specs[name] if f.type not in COMPUTED]
        auto = [f.name for f in self.specs[name] if f.type == "autoNumber"]
        stamps = [f.name for f in self.specs[name] if f.type == "createdTime"]
        for k, line in enumerate(lines):
            cells: dict[str, CellValue] = {}
            for spec, value in zip(writable, line, strict=True):
                if value is None or value is False:
                    continue
                cells[spec.name] = [self.recs[spec.link][i].id for i in value] if spec.link else value
            when = self.s.ago(days=max(1, age - 2 * k), hours=k % 7)
            cells |= {n: k + 1 for n in auto} | {n: when.isoformat().replace("+00:00", "Z") for n in stamps}
            rec = self.s.create(
                TableRecord,
                table_id=self.tables[name].id,
                fields=_seed_order(self.cols[name], cells),
                created_time=when,
            )
            self.recs[name].append(rec)
            for spec in writable:
                if spec.link and spec.name in cells:
                    self._back(spec.link, name, rec.id, _ids(cells[spec.name]))
        for n in auto:
            col = self.cols[name][n]
            self.cols[name][n] = self.s.update(col, next_auto_number=len(self.recs[name]) + 1)

    def _back(self, linked: str, name: str, rec_id: str, targets: list[str]) -> None:
        """Add ``rec_id`` to the inverse link cells (named after table ``name``) of its linked records."""
        recs = self.recs[linked]
        for k, r in enumerate(recs):
            if r.id in targets:
                cells = {**r.fields, name: [*_ids(r.fields.get(name)), rec_id]}
                recs[k] = self.s.update(r, fields=_seed_order(self.cols[linked], cells))

    def view(
        self,
        table: str,
        name: str,
        type: ViewType = "grid",
        group: str | None = None,
        filters: Sequence[tuple[str, Operator, CellValue]] = (),
        sorts: Sequence[tuple[str, Literal["asc", "desc"]]] = (),
        conjunction: Literal["and", "or"] = "and",
        locked: bool = False,
    ) -> None:
        cols = self.cols[table]
        self.s.create(
            View,
            table_id=self.tables[table].id,
            name=name,
            type=type,
            group_field_id=cols[group].id if group else None,
            filters=tuple(ViewFilter(field_id=cols[f].id, operator=op, value=v) for f, op, v in filters),
            conjunction=conjunction,
            sorts=tuple(ViewSort(field_id=cols[f].id, direction=d) for f, d in sorts),
            locked=locked,
            created_at=self.base.created_at,
        )

    def comment(self, table: str, index: int, author: Person, text: str, days: int) -> None:
        recs = self.recs[table]
        k = index % len(recs)
        self.s.create(
            Comment,
            record_id=recs[k].id,
            table_id=recs[k].table_id,
            author_email=author.email,
            author_name=author.name,
            text=text,
            mentioned_emails=tuple(dict.fromkeys(m.lower() for m in _MENTION.findall(text))),
            created_time=self.s.ago(days=days),
        )
        recs[k] = self.s.update(recs[k], comment_count=recs[k].comment_count + 1)


def _seed_order(cols: Mapping[str, TableField], cells: Mapping[str, CellValue]) -> dict[str, CellValue]:
    return {n: cells[n] for n in cols if cells.get(n) is not None}


def _seed_base(
    s: SeedContext, name: str, owner: Person, shares: Sequence[tuple[Person, str]], age: int, what: str
) -> _Seeder:
    """A base in the owner's department's workspace, shared with people at their levels (the owner once)."""
    base = s.create(
        Base,
        name=name,
        workspace_name=department_of(owner),
        owner_email=owner.email,
        description=what,
        created_at=s.ago(days=age),
    )
    s.create(
        Collaborator,
        base_id=base.id,
        email=owner.email,
        name=owner.name,
        permission_level="owner",
        created_at=base.created_at,
    )
    seen = {owner.email}
    for k, (p, level) in enumerate(shares):
        if p.email not in seen:
            seen.add(p.email)
            s.create(
                Collaborator,
                base_id=base.id,
                email=p.email,
                name=p.name,
                permission_level=level,  # a GrantedPermission, validated by the record
                created_at=s.ago(days=age - 1 - k),
            )
    return _Seeder(s, base)


def _team(pop: Population, chart: OrgChart, dept: str) -> tuple[Person, list[Person]]:
    head = chart.heads.get(dept, chart.top)
    return head, [p for p in pop.employees if department_of(p) == dept and p.key != head.key]


@service.seeder
def seed(s: SeedContext) -> None:
    """The teams' bases: a content calendar, a sales lead tracker, the inventory and the applicant tracker."""
    pop = s.population
    chart = org_chart(pop.employees)
    _seed_content(s, pop, chart)
    _seed_leads(s, pop, chart)
    _seed_inventory(s, pop, chart)
    _seed_applicants(s, pop, chart)


CHANNELS = ("Blog", "Newsletter", "LinkedIn", "Instagram", "YouTube")
POST_STATUS = ("Idea", "Drafting", "In review", "Scheduled", "Published")
LEAD_STAGES = ("New", "Contacted", "Qualified", "Proposal", "Won", "Lost")
SOURCES = ("Website", "Referral", "Trade show", "Outbound", "Webinar")
APPLICANT_STAGES = ("Applied", "Phone screen", "Interview", "Offer", "Hired", "Rejected")
TERMS = ("Net 30", "Net 45", "Net 15", "Net 60")
POSITIONS = (
    ("Senior Software Engineer", "Engineering"),
    ("Support Specialist", "Support"),
    ("Account Executive", "Sales"),
    ("Content Marketing Manager", "Marketing"),
    ("Warehouse Coordinator", "Operations"),
)


def _day(s: SeedContext, days: int) -> str:
    return (s.now.date() + dt.timedelta(days=days)).isoformat()


def _seed_content(s: SeedContext, pop: Population, chart: OrgChart) -> None:
    """Marketing's content calendar: campaigns and the posts planned for each channel, with review comments."""
    head, team = _team(pop, chart, "Marketing")
    crew = [head, *team]
    sales = chart.heads.get("Sales", chart.top)
    shares = [*((p, "create") for p in team[:2]), *((p, "edit") for p in team[2:]), (sales, "comment")]
    b = _seed_base(s, "Content calendar", head, shares, 240, "What marketing publishes where and when, by campaign.")
    cur = pop.home.place.currency
    b.table("Campaigns", "Marketing campaigns the posts belong to.", [
        _F("Campaign"), _F("Goal", "multilineText"), _F("Budget", "currency", symbol=cur), _F("Start date", "date"),
        _F("End date", "date"), _F("Campaign lead", "singleCollaborator"),
    ])  # fmt: skip
    b.table("Posts", "Posts planned and published on each channel.", [
        _F("Title"), _F("Channel", "singleSelect", CHANNELS), _F("Status", "singleSelect", POST_STATUS),
        _F("Author", "singleCollaborator"), _F("Publish date", "date"), _F("Campaign", "multipleRecordLinks",
        link="Campaigns"), _F("Featured product"), _F("Word count", "number"), _F("Post ID", "autoNumber"),
    ])  # fmt: skip
    camps = (
        ("Spring launch", "Launch the spring range to existing customers.", 12000, -40, 20),
        ("Customer stories", "Case studies with our best customers.", 4000, -90, 60),
        ("Back to office", "Office products for returning teams.", 8000, 10, 70),
    )
    b.rows("Campaigns", 200, [
        (n, goal, budget, _day(s, a), _day(s, z), crew[k % len(crew)].email)
        for k, (n, goal, budget, a, z) in enumerate(camps)
    ])  # fmt: skip
    posts = []
    for k, product in enumerate(pop.products[:14]):
        status, channel = POST_STATUS[k % 5], CHANNELS[k % 5 - (k // 5) % 2]
        when = None if status == "Idea" else _day(s, -3 * (14 - k) if status == "Published" else 2 * k - 6)
        opener = ("How teams use the", "Meet the", "Five tips for the", "Behind the")[k % 4]
        words = 400 + 150 * (k % 6) if channel in ("Blog", "Newsletter") else None
        posts.append((f"{opener} {product.name}", channel, status, crew[k % len(crew)].email, when,
                      [k % 3] if k % 5 else None, product.sku, words))  # fmt: skip
    b.rows("Posts", 120, posts)
    b.view("Posts", "Editorial board", "kanban", group="Status")
    b.view("Posts", "Publishing calendar", "calendar", group="Publish date")
    b.view("Posts", "Ready to publish", filters=[("Status", "=", "Scheduled")], sorts=[("Publish date", "asc")],
           locked=True)  # fmt: skip
    b.view("Posts", "Blog and newsletter", filters=[("Channel", "isAnyOf", ["Blog", "Newsletter"])],
           sorts=[("Publish date", "desc")])  # fmt: skip
    reviewer = crew[1 % len(crew)]
    b.comment("Posts", 2, head, f"Please tighten the intro before this goes out, @[{reviewer.email}].", 5)
    b.comment("Posts", 2, reviewer, "Done, shortened it to two sentences.", 4)
    b.comment("Posts", 7, sales, "Sales would love to reuse this in the next customer call.", 3)


def _seed_leads(s: SeedContext, pop: Population, chart: OrgChart) -> None:
    """Sales' lead tracker: customer companies and their people as leads moving through the stages."""
    head, reps = _team(pop, chart, "Sales")
    crew = reps or [head]
    marketing, finance = chart.heads.get("Marketing", chart.top), chart.heads.get("Finance", chart.top)
    shares = [*((p, "edit") for p in reps), (marketing, "comment"), (finance, "read")]
    b = _seed_base(s, "Sales lead tracker", head, shares, 300, "Inbound and outbound leads until they are won or lost.")
    cur = pop.home.place.currency
    b.table("Companies", "Companies the leads work at.", [
        _F("Company"), _F("Website", "url"), _F("Industry"), _F("Employees", "number"), _F("Country"),
        _F("Main phone", "phoneNumber"),
    ])  # fmt: skip
    b.table("Leads", "People the sales team is working, one per row.", [
        _F("Name"), _F("Email", "email"), _F("Phone", "phoneNumber"), _F("Job title"),
        _F("Company", "multipleRecordLinks", link="Companies"), _F("Stage", "singleSelect", LEAD_STAGES),
        _F("Lead source", "singleSelect", SOURCES), _F("Deal size", "currency", symbol=cur),
        _F("Owner", "singleCollaborator"), _F("Next follow-up", "date"), _F("Do not contact", "checkbox"),
        _F("Created", "createdTime"),
    ])  # fmt: skip
    companies = [c for c in pop.customers if pop.people_at(c)][:10]
    b.rows("Companies", 280, [
        (c.name, f"https://{c.domain}", c.industry, c.employees, c.address.country, c.phone) for c in companies
    ])  # fmt: skip
    people = [(ci, p) for ci, c in enumerate(companies) for p in pop.people_at(c)[:2]]
    leads = []
    for k, (ci, p) in enumerate(people):
        stage = LEAD_STAGES[k % len(LEAD_STAGES)]
        size = s.rng.randint(8, 160) * 500 if stage not in ("New", "Contacted") else None
        follow = _day(s, 1 + k % 12) if stage not in ("Won", "Lost") else None
        leads.append((p.name, p.email, p.phone, p.job_title, [ci], stage, SOURCES[k % len(SOURCES)], size,
                      crew[k % len(crew)].email, follow, k % 9 == 4))  # fmt: skip
    b.rows("Leads", 150, leads)
    b.view("Leads", "Pipeline", "kanban", group="Stage")
    b.view("Leads", "Qualified and up", filters=[("Stage", "isAnyOf", ["Qualified", "Proposal"])],
           sorts=[("Deal size", "desc")])  # fmt: skip
    b.view("Leads", "Follow-ups", "calendar", group="Next follow-up")
    b.view("Leads", "Big deals", filters=[("Deal size", ">=", 50000), ("Do not contact", "=", False)],
           sorts=[("Deal size", "desc")], locked=True)  # fmt: skip
    b.comment("Leads", 2, crew[0], f"Spoke to them today; sending the proposal Friday. @[{head.email}]", 6)
    b.comment("Leads", 3, head, "Loop in finance before we discount further.", 2)
    b.comment("Leads", 8, marketing, "They came from the webinar last month.", 9)


def _seed_inventory(s: SeedContext, pop: Population, chart: OrgChart) -> None:
    """Operations' inventory: the products with stock and reorder levels, and the suppliers they come from."""
    head, team = _team(pop, chart, "Operations")
    shares = [*((p, "edit") for p in team[:4]), (chart.heads.get("Finance", chart.top), "read")]
    b = _seed_base(s, "Inventory", head, shares, 400, "Stock on hand per product and who supplies it.")
    cur = pop.home.place.currency
    b.table("Suppliers", "Companies the products are bought from.", [
        _F("Supplier"), _F("Contact name"), _F("Contact email", "email"), _F("Phone", "phoneNumber"),
        _F("Payment terms", "singleSelect", TERMS), _F("Active", "checkbox"),
    ])  # fmt: skip
    vendors = suppliers(pop)[:6]
    b.rows("Suppliers", 380, [
        (v.company.name, v.contact.name, v.contact.email, v.contact.phone, TERMS[v.index % 4], v.active)
        for v in vendors
    ])  # fmt: skip
    categories = tuple(sorted({p.category.title() for p in pop.products}))
    b.table("Products", "Every product the company sells.", [
        _F("Product"), _F("SKU"), _F("Category", "singleSelect", categories), _F("Unit price", "currency", symbol=cur),
        _F("Unit cost", "currency", symbol=cur), _F("Weight (g)", "number"), _F("In stock", "number"),
        _F("Reorder level", "number"), _F("Supplier", "multipleRecordLinks", link="Suppliers"),
        _F("Discontinued", "checkbox"),
    ])  # fmt: skip
    b.rows("Products", 360, [
        (p.name, p.sku, p.category.title(), p.price_cents / 100, p.cost_cents / 100, p.weight_grams, (k * 37) % 180,
         20 + 5 * (k % 4), [k % len(vendors)] if vendors else None, k % 11 == 7)
        for k, p in enumerate(pop.products[:24])
    ])  # fmt: skip
    b.view("Products", "Low stock", filters=[("In stock", "<", 25), ("Discontinued", "=", False)],
           sorts=[("In stock", "asc")])  # fmt: skip
    b.view("Products", "By category", sorts=[("Category", "asc"), ("Product", "asc")])
    b.view("Suppliers", "Active suppliers", filters=[("Active", "=", True)])
    b.comment("Products", 3, team[0] if team else head, "Counted again on Monday, numbers are right.", 8)


def _seed_applicants(s: SeedContext, pop: Population, chart: OrgChart) -> None:
    """People's applicant tracker: open positions and the applicants (job seekers) in each stage."""
    head, team = _team(pop, chart, "People")
    managers = [chart.heads.get(d, chart.top) for _, d in POSITIONS]
    shares = [*((p, "edit") for p in team), *((m, "comment") for m in managers)]
    b = _seed_base(s, "Applicant tracker", head, shares, 180, "Open positions and everyone who applied.")
    b.table("Positions", "Positions the company is hiring for.", [
        _F("Position"), _F("Department", "singleSelect", tuple(sorted({d for _, d in POSITIONS}))),
        _F("Hiring manager", "singleCollaborator"), _F("Openings", "number"),
        _F("Status", "singleSelect", ("Open", "On hold", "Filled")),
    ])  # fmt: skip
    b.rows("Positions", 170, [
        (title, dept, managers[k].email, 1 + k % 3, ("Open", "Open", "On hold", "Open", "Filled")[k])
        for k, (title, dept) in enumerate(POSITIONS)
    ])  # fmt: skip
    b.table("Applicants", "Everyone who applied, one row per application.", [
        _F("Name"), _F("Email", "email"), _F("Phone", "phoneNumber"),
        _F("Position", "multipleRecordLinks", link="Positions"), _F("Stage", "singleSelect", APPLICANT_STAGES),
        _F("Rating", "rating"), _F("Recruiter", "singleCollaborator"), _F("Applied on", "date"),
        _F("Referral", "checkbox"), _F("Notes", "multilineText"),
    ])  # fmt: skip
    recruiters = [head, *team]
    b.rows("Applicants", 60, [
        (p.name, p.email, p.phone, [k % len(POSITIONS)], APPLICANT_STAGES[k % 6], 1 + (k * 3) % 5 if k % 6 else None,
         recruiters[k % len(recruiters)].email, _day(s, -2 - 3 * k), k % 4 == 1,
         "Strong portfolio." if k % 5 == 2 else None)
        for k, p in enumerate(pop.consumers[-16:])
    ])  # fmt: skip
    b.view("Applicants", "Hiring pipeline", "kanban", group="Stage")
    b.view("Applicants", "Needs a decision", filters=[("Stage", "=", "Offer"), ("Stage", "=", "Interview")],
           conjunction="or", sorts=[("Rating", "desc")])  # fmt: skip
    b.view("Applicants", "Referrals", "gallery", filters=[("Referral", "=", True)])
    b.comment("Applicants", 2, managers[0], f"Great interview, let's move fast. @[{head.email}]", 3)
    b.comment("Applicants", 4, recruiters[-1], "Candidate asked to reschedule to next week.", 1)
