"""Gridbook Sheets: spreadsheets of sheets whose header row names typed columns, edited row by row or by range.

Modeled on the Google Sheets API v4 (spreadsheets.create and get with sheet
properties, batchUpdate addSheet, updateSheetProperties for a title or the
hidden flag and deleteSheet, spreadsheets.values get, update, append and
clear with A1 ranges such as ``'Key accounts'!A1:F20``) with Drive sharing
(writer and reader permissions), plus the row operations integration
platforms build on it (n8n's and Zapier's Google Sheets nodes: get rows with a
lookup column, append, append or update on a column to match, update, clear
and delete rows). A sheet's first row is its header: each header cell names a
typed column (text, number, currency, date, e-mail, person name, a select
whose options are a data-validation list, checkbox, URL, phone), and the rows
below hold one value per column name. A value must fit its column's type;
unknown column names are refused, naming the columns there are; writes need
the owner or a writer; sheet titles are unique in their spreadsheet (case
aside); the header row is neither cleared nor deleted by row tools; a hidden
sheet is still read; the last sheet, and the last visible one, is neither
deleted nor hidden; an A1 range must parse and lie within the sheet's grid.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, TypeAdapter, ValidationError

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Person, Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    DateTime,
    Email,
    FileLink,
    IdOf,
    PersonName,
    Phone,
    Timezone,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.world.finance import suppliers
from compoworld.world.org import OrgChart, department_of, is_lead, org_chart

__all__ = ["service"]

service = Service(
    "sheets",
    title="Gridbook Sheets",
    category="spreadsheets",
    modeled_on="Google Sheets API v4 (spreadsheets create/get, sheets, values get/update/append/clear, "
    "batchUpdate addSheet/updateSheetProperties/deleteSheet) with Drive permissions, and the row operations "
    "of n8n's and Zapier's Google Sheets nodes (lookup, append, append or update, update, clear, delete rows)",
    description="Shared spreadsheets the teams keep their routing tables, approval matrices, account lists and "
    "trackers in: tabs whose header row names typed columns, rows looked up, appended, upserted on a key "
    "column, updated, cleared and deleted, and ranges read and written in A1 notation.",
)

SpreadsheetId = Annotated[str, IdOf("sheets.spreadsheet")]
SheetId = Annotated[str, IdOf("sheets.sheet")]
ColumnId = Annotated[str, IdOf("sheets.column")]
RowId = Annotated[str, IdOf("sheets.row")]

ColumnType = Literal["text", "number", "currency", "date", "email", "person_name", "select", "checkbox", "url", "phone"]
ShareRole = Literal["writer", "reader"]
SheetTitle = Annotated[
    str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True, pattern=r"^[^'!\[\]*?:/\\]+$")
]
ColumnName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
OptionText = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
Locale = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}_[A-Z]{2}$")]
CellText = Annotated[str, StringConstraints(max_length=50_000)]
CellValue = CellText | int | float | bool | None
"""What a cell holds: text, a number, true or false, or nothing."""
A1Range = Annotated[str, StringConstraints(min_length=1, max_length=200, strip_whitespace=True)]
RowNumber = Annotated[int, Field(ge=1, le=100_000)]

GRID_ROWS = 1000
"""Rows of a new sheet's grid, as Sheets gives it."""
GRID_COLUMNS = 26
"""Columns of a new sheet's grid (A to Z)."""
MAX_ROWS_RETURNED = 500


# -- records ----------------------------------------------------------------------------------


class Spreadsheet(Timestamped):
    """A spreadsheet: a titled workbook of sheets, owned by an employee and shared with writers and readers."""

    id: SpreadsheetId
    title: Title
    """Title of the spreadsheet file."""
    owner_email: Email
    """E-mail of the employee who owns it."""
    editors: tuple[Email, ...] = ()
    """E-mails of the people it is shared with as writers (they edit values, sheets and sharing)."""
    viewers: tuple[Email, ...] = ()
    """E-mails of the people it is shared with as readers (they only read)."""
    locale: Locale = "en_US"
    """Locale that formats its numbers and dates (en_US, de_DE …)."""
    time_zone: Timezone | None = None
    """Time zone of the spreadsheet (IANA name)."""
    link: FileLink = "https://sheets.gridbook.example/d/new/edit"
    """Link that opens the spreadsheet."""


class Sheet(Record):
    """One sheet (tab) of a spreadsheet; its row 1 is the header whose cells name the sheet's typed columns."""

    id: SheetId
    spreadsheet_id: SpreadsheetId
    """The spreadsheet the sheet belongs to."""
    title: SheetTitle
    """Tab title, unique in its spreadsheet (case aside); ranges name the sheet by it."""
    index: Annotated[int, Field(ge=0)]
    """Position of the tab, from 0 (leftmost)."""
    frozen_header: bool = True
    """Whether the header row stays frozen at the top."""
    hidden: bool = False
    """Hidden tabs are not shown but are still read and written through the API."""
    row_count: Annotated[int, Field(ge=1)] = GRID_ROWS
    """Rows of the sheet's grid, the header included."""
    column_count: Annotated[int, Field(ge=1)] = GRID_COLUMNS
    """Columns of the sheet's grid."""


class Column(Record):
    """A typed column of a sheet, named by its header cell in row 1."""

    id: ColumnId
    sheet_id: SheetId
    """The sheet."""
    name: ColumnName
    """Header text; unique in the sheet (case aside). Rows give their values by it."""
    position: Annotated[int, Field(ge=1)]
    """Column number from 1 (column A)."""
    letter: Annotated[str, StringConstraints(pattern=r"^[A-Z]{1,3}$")]
    """Column letter(s) in A1 notation (A, B, …, AA)."""
    type: ColumnType = "text"
    """What its cells hold: text, number, currency, date, email, person_name, select, checkbox, url or phone."""
    options: tuple[OptionText, ...] = ()
    """Allowed values of a select column (its data-validation list); empty for other types."""


class Row(Record):
    """A data row of a sheet: its values by column name (row 1 is the header, so data rows start at 2)."""

    id: RowId
    sheet_id: SheetId
    """The sheet."""
    row_number: Annotated[int, Field(ge=2)]
    """Row number in the sheet (2 is the first row under the header); rows below a deleted one move up."""
    cells: dict[str, CellValue] = Field(default_factory=dict)
    """Non-empty values by column name; a column missing here is an empty cell."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the row last changed."""
    updated_by: Email
    """E-mail of who last changed the row."""


spreadsheets = service.resource(
    Spreadsheet,
    name="spreadsheet",
    plural="spreadsheets",
    prefix="ss",
    create=False,
    get=False,
    filters=("owner_email",),
    search=("title",),
    delete=False,
)
sheets = service.resource(
    Sheet,
    name="sheet",
    plural="sheets",
    prefix="sh",
    create=False,
    filters=("spreadsheet_id", "title", "hidden"),
    delete=False,
)
columns = service.resource(
    Column,
    name="column",
    plural="columns",
    prefix="col",
    create=False,
    get=False,
    filters=("sheet_id", "name", "type"),
    delete=False,
)
rows = service.resource(Row, name="row", plural="rows", prefix="row", create=False, filters=None, delete=False)


# -- results ----------------------------------------------------------------------------------


class SpreadsheetView(BaseModel):
    """A spreadsheet with its sheets, as spreadsheets.get returns it."""

    spreadsheet: Spreadsheet = Field(description="The spreadsheet.")
    sheets: list[Sheet] = Field(description="Its sheets, left to right (by index).")


class DeletedSheet(BaseModel):
    """What deleting a sheet removed."""

    sheet_id: SheetId = Field(description="The deleted sheet.")
    spreadsheet_id: SpreadsheetId = Field(description="Its spreadsheet.")
    title: SheetTitle = Field(description="Its title.")
    deleted_rows: int = Field(description="Data rows deleted with it.")


class UpsertedRow(BaseModel):
    """The row an append-or-update wrote and which of the two it did."""

    row: Row = Field(description="The row as written.")
    action: Literal["appended", "updated"] = Field(description="appended (no row had the key) or updated.")


class DeletedRows(BaseModel):
    """What deleting rows removed."""

    sheet_id: SheetId = Field(description="The sheet.")
    start_row: int = Field(description="First deleted row number.")
    count: int = Field(description="Number of grid rows deleted.")
    deleted_row_ids: list[RowId] = Field(description="Data rows deleted (empty rows have none).")
    moved_up: int = Field(description="Data rows below that moved up by `count`.")


class ValueRange(BaseModel):
    """Values of a range, row by row, as values.get returns them."""

    range: str = Field(description="The range read, in A1 notation with its sheet ('Key accounts'!A1:F20).")
    major_dimension: Literal["ROWS"] = Field(default="ROWS", description="Always ROWS: one inner list per row.")
    values: list[list[CellValue]] = Field(
        description='One list per row from the range\'s top; row 1 holds the column names. Empty cells are ""; '
        "trailing empty cells and rows are left out, as Sheets does."
    )


class UpdatedValues(BaseModel):
    """What a values.update wrote."""

    spreadsheet_id: SpreadsheetId = Field(description="The spreadsheet.")
    updated_range: str = Field(description="The range the data covered, in A1 notation.")
    updated_rows: int = Field(description="Rows with at least one written cell.")
    updated_columns: int = Field(description="Columns with at least one written cell.")
    updated_cells: int = Field(description="Cells written (cleared ones included).")


# -- access -----------------------------------------------------------------------------------


def _internal(ctx: Ctx, email: str) -> bool:
    return email.endswith("@" + ctx.population.home.domain)


def _role(ss: Spreadsheet, email: str) -> str:
    if email == ss.owner_email:
        return "owner"
    if email in ss.editors:
        return "writer"
    return "reader" if email in ss.viewers else "none"


def _require_writer(ss: Spreadsheet, actor: str) -> None:
    role = _role(ss, actor)
    if role not in ("owner", "writer"):
        have = "no access" if role == "none" else "read-only access"
        raise RuleViolation(
            f"{actor} has {have} to spreadsheet {ss.title!r}; editing needs the owner or a writer",
            field="actor_email",
            hint=f"act as the owner ({ss.owner_email}) or a writer, or ask them to share it with "
            f"{actor} as writer (sheets__share_spreadsheet)",
        )


def _sheet_for_write(ctx: Ctx, sheet_id: str, actor: str) -> tuple[Sheet, Spreadsheet]:
    sheet = ctx.get(Sheet, sheet_id, field="sheet_id")
    ss = ctx.get(Spreadsheet, sheet.spreadsheet_id)
    _require_writer(ss, actor)
    return sheet, ss


def _tabs(ctx: Ctx, spreadsheet_id: str) -> list[Sheet]:
    return sorted(ctx.where(Sheet, spreadsheet_id=spreadsheet_id), key=lambda sh: (sh.index, sh.id))


def _check_title(ctx: Ctx, spreadsheet_id: str, title: str, sheet_id: str | None) -> None:
    for other in ctx.where(Sheet, spreadsheet_id=spreadsheet_id):
        if other.id != sheet_id and other.title.casefold() == title.casefold():
            raise Conflict(
                f"the spreadsheet already has a sheet named {other.title!r}",
                field="title",
                hint="sheet titles are unique in a spreadsheet (case aside); pick another title",
            )


def _reindex(ctx: Ctx, tabs: Sequence[Sheet]) -> None:
    for k, tab in enumerate(tabs):
        ctx.update(tab, index=k)


# -- columns and values -----------------------------------------------------------------------


def _letter(position: int) -> str:
    """Column letters of a column number: 1 → A, 26 → Z, 27 → AA."""
    out = ""
    while position:
        position, rest = divmod(position - 1, 26)
        out = chr(65 + rest) + out
    return out


def _number_of(letters: str) -> int:
    """Column number of column letters: A → 1, AA → 27."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def _columns(ctx: Ctx, sheet_id: str) -> list[Column]:
    return sorted(ctx.where(Column, sheet_id=sheet_id), key=lambda c: c.position)


def _names(cols: Sequence[Column]) -> str:
    return ", ".join(c.name for c in cols) or "none yet"


def _column(cols: Sequence[Column], name: str, sheet: Sheet, field: str) -> Column:
    """The column called ``name`` (exactly, else case aside), or a refusal naming the columns there are."""
    for col in cols:
        if col.name == name:
            return col
    for col in cols:
        if col.name.casefold() == name.strip().casefold():
            return col
    raise NotFound(
        f"sheet {sheet.title!r} has no column {name!r}",
        field=field,
        hint=f"its columns are: {_names(cols)}; add one with sheets__add_column",
    )


_ADAPTERS: dict[str, TypeAdapter[str]] = {
    "email": TypeAdapter(Email),
    "person_name": TypeAdapter(PersonName),
    "url": TypeAdapter(Url),
    "phone": TypeAdapter(Phone),
}
_AMOUNT = re.compile(r"^([+-]?)[$€£¥]?\s?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)$")
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_HINTS: dict[str, str] = {
    "text": "write it as text",
    "number": "write a number such as 1250 or 1250.5",
    "currency": "write an amount such as 1250 or 1250.50 (a leading $, €, £ or ¥ and thousands commas are read)",
    "date": "write the date as YYYY-MM-DD, e.g. 2026-03-02",
    "email": "write a full address such as name@example.com",
    "person_name": "write the person's full name",
    "checkbox": "write true or false",
    "url": "write a link starting with http:// or https://",
    "phone": "write the number in E.164 form, e.g. +14155550123",
}


def _plain(value: float) -> int | float:
    """A number as it is stored: whole numbers as integers."""
    return int(value) if float(value).is_integer() and abs(value) < 2**53 else value


def _amount(value: str | int | float) -> int | float | None:
    if isinstance(value, int | float):
        return _plain(value)
    m = _AMOUNT.match(value.strip())
    if m is None:
        return None
    number = float(m.group(2).replace(",", ""))
    return _plain(-number if m.group(1) == "-" else number)


def _cell(col: Column, value: CellValue, field: str) -> CellValue:
    """``value`` as column ``col`` stores it (None for an empty cell), or a refusal saying what the column takes."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None

    def bad() -> RuleViolation:
        what = f"takes only {', '.join(col.options)}" if col.type == "select" else f"is a {col.type} column"
        return RuleViolation(
            f"column {col.name!r} {what}; {value!r} does not fit",
            field=field,
            hint=f"one of: {', '.join(col.options)}" if col.type == "select" else _HINTS[col.type],
        )

    kind = col.type
    if kind == "checkbox" or isinstance(value, bool):
        if kind == "checkbox" and isinstance(value, bool):
            return value
        raise bad()
    if kind in ("number", "currency"):
        number = _amount(value)
        if number is None:
            raise bad()
        return _plain(round(number, 2)) if kind == "currency" else number
    if not isinstance(value, str):
        if kind == "text":
            return str(_plain(value))
        raise bad()
    if kind == "text":
        return value
    if kind == "select":
        found = next((o for o in col.options if o.casefold() == value.strip().casefold()), None)
        if found is None:
            raise bad()
        return found
    if kind == "date":
        try:
            if not _ISO_DAY.match(value.strip()):
                raise ValueError(value)
            return dt.date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            raise bad() from None
    try:
        return _ADAPTERS[kind].validate_python(value.strip())
    except ValidationError:
        raise bad() from None


def _text(value: CellValue) -> str:
    """A cell as text, the way lookups compare it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return str(value)


def _match_key(col: Column, value: CellValue) -> str:
    """What a lookup compares: the value as the column would store it, as text, case aside."""
    try:
        stored = _cell(col, value, "value")
    except RuleViolation:
        stored = value
    return _text(stored).strip().casefold()


def _converted(cols: Sequence[Column], sheet: Sheet, values: Mapping[str, CellValue]) -> dict[str, CellValue]:
    """Values by their columns' own names, each as its column stores it (None clears the cell)."""
    out: dict[str, CellValue] = {}
    for name, value in values.items():
        col = _column(cols, name, sheet, f"values.{name}")
        out[col.name] = _cell(col, value, f"values.{name}")
    return out


def _merged(cells: Mapping[str, CellValue], changes: Mapping[str, CellValue], cols: Sequence[Column]) -> dict[str, Any]:
    """Cells with changes applied, empty ones dropped, in column order."""
    new = {**cells, **changes}
    return {c.name: new[c.name] for c in cols if new.get(c.name) is not None}


def _rows(ctx: Ctx, sheet_id: str) -> list[Row]:
    return sorted(ctx.where(Row, sheet_id=sheet_id), key=lambda r: r.row_number)


def _append(ctx: Ctx, sheet: Sheet, cells: dict[str, Any], actor: str) -> Row:
    number = max((r.row_number for r in ctx.where(Row, sheet_id=sheet.id)), default=1) + 1
    if number > sheet.row_count:
        ctx.update(sheet, row_count=number)  # appending grows the grid, as values.append does
    return ctx.create(Row, sheet_id=sheet.id, row_number=number, cells=cells, updated_by=actor)


def _matching(ctx: Ctx, sheet: Sheet, col: Column, value: CellValue) -> list[Row]:
    key = _match_key(col, value)
    return [r for r in _rows(ctx, sheet.id) if _text(r.cells.get(col.name)).strip().casefold() == key]


def _nothing(values: Mapping[str, CellValue], what: str) -> None:
    if not values:
        raise RuleViolation(f"no values to {what}", field="values", hint="give values by column name")


# -- A1 ranges --------------------------------------------------------------------------------

_A1_END = re.compile(r"^([A-Za-z]{0,3})(\d{0,6})$")


@dataclass(frozen=True, slots=True)
class _Range:
    """A rectangle of one sheet, rows and columns from 1, both ends included."""

    sheet: Sheet
    top: int
    left: int
    bottom: int
    right: int
    single: bool = False

    def a1(self) -> str:
        """The range in A1 notation with its (quoted where needed) sheet title."""
        return f"{_quoted(self.sheet.title)}!{_letter(self.left)}{self.top}:{_letter(self.right)}{self.bottom}"


def _quoted(title: str) -> str:
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", title) and not _looks_a1(title):
        return title
    return f"'{title}'"


def _ends(text: str) -> list[tuple[str, str]] | None:
    """The one or two ends of an A1 reference (``A1``, ``A1:C10``, ``A:C``, ``2:5``), or None if it is not one."""
    parts = text.split(":")
    if len(parts) > 2:
        return None
    ends = []
    for part in parts:
        m = _A1_END.match(part.strip())
        if m is None or not (m.group(1) or m.group(2)):
            return None
        ends.append((m.group(1).upper(), m.group(2)))
    if len(ends) == 1 and not (ends[0][0] and ends[0][1]):
        return None  # a lone "A" or "5" is no cell
    return ends


def _span(first: int, last: int) -> range:
    """Row or column numbers from ``first`` to ``last``, both included."""
    return range(first, last + 1)


def _looks_a1(text: str) -> bool:
    return _ends(text) is not None


def _bad_range(text: str, why: str, hint: str) -> RuleViolation:
    return RuleViolation(f"range {text!r} {why}", field="range", hint=hint)


_RANGE_HINT = "write a range such as 'Key accounts'!A1:D20, Sheet1!A:C, Sheet1!2:5, Sheet1!B3 or a sheet title alone"


def _range(ctx: Ctx, spreadsheet_id: str, text: str) -> _Range:
    """Parse an A1 range of a spreadsheet: ``[sheet!]cells``; without a sheet, the first visible one (as Sheets)."""
    tabs = _tabs(ctx, spreadsheet_id)
    sheet: Sheet | None
    if "!" in text:
        title, _, cells = text.rpartition("!")
        title = title.strip()
        if len(title) >= 2 and title[0] == title[-1] == "'":
            title = title[1:-1].replace("''", "'")
        sheet = next((t for t in tabs if t.title.casefold() == title.casefold()), None)
    elif _looks_a1(text):
        sheet = next((t for t in tabs if not t.hidden), tabs[0] if tabs else None)
        cells = text
    else:
        title, cells = text.strip("'"), ""
        sheet = next((t for t in tabs if t.title.casefold() == title.casefold()), None)
    if sheet is None:
        raise NotFound(
            f"range {text!r} names no sheet of the spreadsheet",
            field="range",
            hint=f"its sheets are: {', '.join(t.title for t in tabs)}; quote titles with spaces ('Key accounts'!A1)",
        )
    if not cells.strip():
        return _Range(sheet, 1, 1, sheet.row_count, sheet.column_count)
    ends = _ends(cells)
    if ends is None:
        raise _bad_range(text, "is not in A1 notation", _RANGE_HINT)
    (c1, r1), (c2, r2) = ends[0], ends[-1]
    if "0" in (r1[:1], r2[:1]):
        raise _bad_range(text, "names row 0; rows count from 1", _RANGE_HINT)
    top, left = int(r1 or 1), _number_of(c1) if c1 else 1
    bottom = int(r2) if r2 else sheet.row_count
    right = _number_of(c2) if c2 else sheet.column_count
    top, bottom = min(top, bottom), max(top, bottom)
    left, right = min(left, right), max(left, right)
    if bottom > sheet.row_count or right > sheet.column_count:
        raise _bad_range(
            text,
            f"exceeds the grid of sheet {sheet.title!r} ({sheet.row_count} rows, {sheet.column_count} columns)",
            f"stay within {_quoted(sheet.title)}!A1:{_letter(sheet.column_count)}{sheet.row_count}",
        )
    return _Range(sheet, top, left, bottom, right, single=len(ends) == 1)


# -- examples ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tab:
    """A visible seeded sheet with columns and rows, as the examples use it."""

    sheet: Sheet
    book: Spreadsheet
    cols: list[Column]
    rows: list[Row]

    def write(self, **arguments: Any) -> dict[str, Any]:
        """Arguments of a row write on this sheet by its owner."""
        return {"sheet_id": self.sheet.id, "actor_email": self.book.owner_email, **arguments}

    def samples(self) -> dict[str, CellValue]:
        """A valid value for each column by its name, in column order."""
        return {c.name: c.options[0] if c.type == "select" else _SAMPLES[c.type] for c in self.cols}


def _on_tab(build: Callable[[_Tab], dict[str, Any]]) -> Callable[[Ctx], dict[str, Any] | None]:
    """An example provider calling the tool on the first visible sheet that has columns and rows."""

    def example(ctx: Ctx) -> dict[str, Any] | None:
        for sheet in ctx.where(Sheet, hidden=False):
            cols, found = _columns(ctx, sheet.id), _rows(ctx, sheet.id)
            if cols and found:
                return build(_Tab(sheet, ctx.get(Spreadsheet, sheet.spreadsheet_id), cols, found))
        return None

    return example


_SAMPLES: dict[str, CellValue] = {
    "text": "Added by the conformance suite",
    "number": 7,
    "currency": 1250.5,
    "date": "2026-04-01",
    "email": "new.person@example.com",
    "person_name": "Alex Example",
    "checkbox": True,
    "url": "https://example.com/row",
    "phone": "+14155550123",
}
"""A valid value of each column type but select, for the examples."""


def _example_create(ctx: Ctx) -> dict[str, Any]:
    owner = ctx.population.employees[0]
    return {"title": "Q2 planning", "owner_email": owner.email, "sheet_title": "Plan"}


def _example_share(ctx: Ctx) -> dict[str, Any] | None:
    for ss in ctx.scan(Spreadsheet):
        for p in ctx.population.employees:
            if _role(ss, p.email) == "none":
                return {"spreadsheet_id": ss.id, "actor_email": ss.owner_email, "email": p.email, "role": "reader"}
    return None


def _example_unshare(ctx: Ctx) -> dict[str, Any] | None:
    for ss in ctx.scan(Spreadsheet):
        if ss.viewers:
            return {"spreadsheet_id": ss.id, "actor_email": ss.owner_email, "email": ss.viewers[0]}
    return None


def _example_add_sheet(ctx: Ctx) -> dict[str, Any]:
    ss = next(ctx.scan(Spreadsheet))
    return {"spreadsheet_id": ss.id, "actor_email": ss.owner_email, "title": "Notes"}


def _example_delete_sheet(ctx: Ctx) -> dict[str, Any] | None:
    for ss in ctx.scan(Spreadsheet):
        tabs = _tabs(ctx, ss.id)
        if len(tabs) > 1:
            return {"sheet_id": tabs[-1].id, "actor_email": ss.owner_email}
    return None


def _lookup_args(tab: _Tab) -> dict[str, Any]:
    cells = tab.rows[0].cells
    name = next(c.name for c in tab.cols if c.name in cells)
    return {"sheet_id": tab.sheet.id, "column": name, "value": _text(cells[name]).upper()}


def _range_args(tab: _Tab) -> dict[str, Any]:
    return {"spreadsheet_id": tab.book.id, "range": f"{_quoted(tab.sheet.title)}!A1:{tab.cols[-1].letter}5"}


def _write_range_args(tab: _Tab) -> dict[str, Any]:
    start = f"{_quoted(tab.sheet.title)}!A{tab.rows[-1].row_number + 1}"
    return {
        "spreadsheet_id": tab.book.id,
        "actor_email": tab.book.owner_email,
        "range": start,
        "values": [list(tab.samples().values())],
    }


# -- spreadsheets -----------------------------------------------------------------------------


def _view(ctx: Ctx, ss: Spreadsheet) -> SpreadsheetView:
    return SpreadsheetView(spreadsheet=ss, sheets=_tabs(ctx, ss.id))


def _link(spreadsheet_id: str) -> str:
    return f"https://sheets.gridbook.example/d/{spreadsheet_id}/edit"


@service.tool(intent="create a spreadsheet", write=True, example=_example_create)
def create_spreadsheet(
    ctx: Ctx,
    title: Title,
    owner_email: Email,
    sheet_title: SheetTitle = "Sheet1",
    locale: Locale = "en_US",
    time_zone: Timezone | None = None,
) -> SpreadsheetView:
    """Create a spreadsheet owned by an employee, with one empty sheet.

    Args:
        title: Title of the spreadsheet.
        owner_email: E-mail of the employee who owns it.
        sheet_title: Title of its first sheet.
        locale: Locale such as en_US.
        time_zone: IANA time zone (default: none set).
    """
    if all(p.email != owner_email for p in ctx.population.employees):
        raise RuleViolation(
            f"{owner_email} is not an employee",
            field="owner_email",
            hint="spreadsheets are owned by employees of the company",
        )
    ss = ctx.create(Spreadsheet, title=title, owner_email=owner_email, locale=locale, time_zone=time_zone)
    ss = ctx.update(ss, link=_link(ss.id))
    ctx.create(Sheet, spreadsheet_id=ss.id, title=sheet_title, index=0)
    return _view(ctx, ss)


@service.tool(intent="open the spreadsheet", example=first_example(Spreadsheet, "spreadsheet_id"))
def get_spreadsheet(ctx: Ctx, spreadsheet_id: SpreadsheetId) -> SpreadsheetView:
    """Get a spreadsheet with its sharing and its sheets, left to right (hidden ones included).

    Args:
        spreadsheet_id: The spreadsheet.
    """
    return _view(ctx, ctx.get(Spreadsheet, spreadsheet_id, field="spreadsheet_id"))


@service.tool(intent="share the spreadsheet with someone", write=True, example=_example_share)
def share_spreadsheet(
    ctx: Ctx, spreadsheet_id: SpreadsheetId, actor_email: Email, email: Email, role: ShareRole
) -> Spreadsheet:
    """Share a spreadsheet with a person as writer or reader, or change the role they have.

    The owner and writers share. People outside the company can only be readers.

    Args:
        spreadsheet_id: The spreadsheet.
        actor_email: E-mail of the owner or a writer doing the sharing.
        email: E-mail of the person getting access.
        role: writer (edits) or reader (reads only).
    """
    ss = ctx.get(Spreadsheet, spreadsheet_id, field="spreadsheet_id")
    _require_writer(ss, actor_email)
    have = _role(ss, email)
    if have == "owner":
        raise RuleViolation(f"{email} owns the spreadsheet", field="email", hint="share it with someone else")
    if role == "writer" and not _internal(ctx, email):
        raise RuleViolation(
            f"{email} is outside the company and cannot be a writer", field="role", hint="share it as reader"
        )
    if have == role:
        raise Conflict(f"{email} is already a {role} of {ss.title!r}", field="email", hint="nothing to change")
    editors = tuple(e for e in ss.editors if e != email) + ((email,) if role == "writer" else ())
    viewers = tuple(e for e in ss.viewers if e != email) + ((email,) if role == "reader" else ())
    return ctx.update(ss, editors=editors, viewers=viewers)


@service.tool(
    intent="stop sharing the spreadsheet with the person", write=True, destructive=True, example=_example_unshare
)
def unshare_spreadsheet(ctx: Ctx, spreadsheet_id: SpreadsheetId, actor_email: Email, email: Email) -> Spreadsheet:
    """Take a person's access to a spreadsheet away; the owner and writers may, and anyone may leave.

    Args:
        spreadsheet_id: The spreadsheet.
        actor_email: E-mail of the owner, a writer, or the person leaving.
        email: E-mail of the person losing access.
    """
    ss = ctx.get(Spreadsheet, spreadsheet_id, field="spreadsheet_id")
    if actor_email != email:
        _require_writer(ss, actor_email)
    have = _role(ss, email)
    if have == "owner":
        raise RuleViolation(
            f"{email} owns the spreadsheet and keeps access", field="email", hint="the owner cannot be removed"
        )
    if have == "none":
        raise NotFound(
            f"{ss.title!r} is not shared with {email}",
            field="email",
            hint="see who it is shared with in sheets__get_spreadsheet (editors, viewers)",
        )
    return ctx.update(
        ss, editors=tuple(e for e in ss.editors if e != email), viewers=tuple(e for e in ss.viewers if e != email)
    )


# -- sheets -----------------------------------------------------------------------------------


@service.tool(intent="add a sheet to the spreadsheet", write=True, example=_example_add_sheet)
def add_sheet(
    ctx: Ctx,
    spreadsheet_id: SpreadsheetId,
    actor_email: Email,
    title: SheetTitle,
    index: Annotated[int, Field(ge=0, le=200)] | None = None,
) -> Sheet:
    """Add an empty sheet (tab) to a spreadsheet, at a position or after the last one.

    Args:
        spreadsheet_id: The spreadsheet.
        actor_email: E-mail of the owner or a writer.
        title: Tab title; unique in the spreadsheet (case aside).
        index: Position from 0 (leftmost); omit to add it last.
    """
    ss = ctx.get(Spreadsheet, spreadsheet_id, field="spreadsheet_id")
    _require_writer(ss, actor_email)
    _check_title(ctx, ss.id, title, None)
    tabs = _tabs(ctx, ss.id)
    at = len(tabs) if index is None else index
    if at > len(tabs):
        raise RuleViolation(
            f"index {at} is past the end: the spreadsheet has {len(tabs)} sheet(s)",
            field="index",
            hint=f"give an index from 0 to {len(tabs)}, or omit it to add the sheet last",
        )
    sheet = ctx.create(Sheet, spreadsheet_id=ss.id, title=title, index=at)
    _reindex(ctx, [*tabs[:at], sheet, *tabs[at:]])
    return ctx.get(Sheet, sheet.id)


@service.tool(
    intent="rename the sheet", write=True, idempotent=True, example=_on_tab(lambda t: t.write(title="Reference table"))
)
def rename_sheet(ctx: Ctx, sheet_id: SheetId, actor_email: Email, title: SheetTitle) -> Sheet:
    """Give a sheet (tab) a new title; ranges name it by its new title from then on.

    Args:
        sheet_id: The sheet.
        actor_email: E-mail of the owner or a writer.
        title: New title; unique in the spreadsheet (case aside).
    """
    sheet, _ = _sheet_for_write(ctx, sheet_id, actor_email)
    _check_title(ctx, sheet.spreadsheet_id, title, sheet.id)
    return ctx.update(sheet, title=title)


def _visible_others(ctx: Ctx, sheet: Sheet) -> list[Sheet]:
    return [t for t in ctx.where(Sheet, spreadsheet_id=sheet.spreadsheet_id) if t.id != sheet.id and not t.hidden]


@service.tool(intent="hide the sheet", write=True, idempotent=True, example=_on_tab(lambda t: t.write(hidden=True)))
def hide_sheet(ctx: Ctx, sheet_id: SheetId, actor_email: Email, hidden: bool = True) -> Sheet:
    """Hide a sheet (tab) from view, or show it again with hidden=false; hidden sheets are still read and written.

    A spreadsheet keeps at least one visible sheet.

    Args:
        sheet_id: The sheet.
        actor_email: E-mail of the owner or a writer.
        hidden: true to hide, false to show again.
    """
    sheet, _ = _sheet_for_write(ctx, sheet_id, actor_email)
    if hidden and not sheet.hidden and not _visible_others(ctx, sheet):
        raise RuleViolation(
            f"sheet {sheet.title!r} is the last visible sheet of the spreadsheet",
            field="sheet_id",
            hint="show or add another sheet first; a spreadsheet keeps one visible sheet",
        )
    return ctx.update(sheet, hidden=hidden)


@service.tool(intent="delete the sheet", write=True, destructive=True, example=_example_delete_sheet)
def delete_sheet(ctx: Ctx, sheet_id: SheetId, actor_email: Email) -> DeletedSheet:
    """Delete a sheet (tab) with its columns and rows; the sheets to its right move left.

    The last sheet of a spreadsheet, and its last visible one, cannot be deleted.

    Args:
        sheet_id: The sheet.
        actor_email: E-mail of the owner or a writer.
    """
    sheet, _ = _sheet_for_write(ctx, sheet_id, actor_email)
    tabs = _tabs(ctx, sheet.spreadsheet_id)
    if len(tabs) == 1:
        raise RuleViolation(
            f"sheet {sheet.title!r} is the only sheet of the spreadsheet",
            field="sheet_id",
            hint="a spreadsheet keeps at least one sheet; add another first, or clear this one's rows",
        )
    if not sheet.hidden and not _visible_others(ctx, sheet):
        raise RuleViolation(
            f"sheet {sheet.title!r} is the last visible sheet of the spreadsheet",
            field="sheet_id",
            hint="show a hidden sheet first (sheets__hide_sheet with hidden=false)",
        )
    doomed = ctx.where(Row, sheet_id=sheet.id)
    for rec in [*doomed, *ctx.where(Column, sheet_id=sheet.id)]:
        ctx.delete(rec)
    ctx.delete(sheet)
    _reindex(ctx, [t for t in tabs if t.id != sheet.id])
    return DeletedSheet(
        sheet_id=sheet.id, spreadsheet_id=sheet.spreadsheet_id, title=sheet.title, deleted_rows=len(doomed)
    )


# -- columns ----------------------------------------------------------------------------------


@service.tool(
    intent="add a column to the sheet",
    write=True,
    example=_on_tab(lambda t: t.write(name="Priority", type="select", options=["High", "Normal", "Low"])),
)
def add_column(
    ctx: Ctx,
    sheet_id: SheetId,
    actor_email: Email,
    name: ColumnName,
    type: ColumnType = "text",
    options: list[OptionText] | None = None,
) -> Column:
    """Add a typed column after the sheet's last one: its name goes in the header cell of row 1.

    A select column needs its allowed options (a data-validation list); other types take none.
    Existing rows have the new column empty.

    Args:
        sheet_id: The sheet.
        actor_email: E-mail of the owner or a writer.
        name: Header text; unique in the sheet (case aside).
        type: text, number, currency, date, email, person_name, select, checkbox, url or phone.
        options: The allowed values of a select column.
    """
    sheet, _ = _sheet_for_write(ctx, sheet_id, actor_email)
    cols = _columns(ctx, sheet.id)
    taken = next((c for c in cols if c.name.casefold() == name.casefold()), None)
    if taken is not None:
        raise Conflict(
            f"sheet {sheet.title!r} already has a column {taken.name!r} ({taken.letter})",
            field="name",
            hint="column names are unique in a sheet (case aside); pick another name",
        )
    opts = tuple(dict.fromkeys(options or ()))
    if type == "select":
        if not opts:
            raise RuleViolation(
                "a select column needs its options", field="options", hint="list the values the column allows"
            )
        if len({o.casefold() for o in opts}) < len(opts):
            raise RuleViolation("select options must differ (case aside)", field="options", hint="list each value once")
    elif opts:
        raise RuleViolation(
            f"only select columns take options, not a {type} column",
            field="options",
            hint="omit options, or make the column a select",
        )
    position = len(cols) + 1
    if position > sheet.column_count:
        ctx.update(sheet, column_count=position)  # the grid grows by a column, as appendDimension does
    return ctx.create(
        Column, sheet_id=sheet.id, name=name, position=position, letter=_letter(position), type=type, options=opts
    )


# -- rows -------------------------------------------------------------------------------------


@service.tool(intent="list the rows of the sheet", example=_on_tab(lambda t: {"sheet_id": t.sheet.id, "limit": 10}))
def list_rows(
    ctx: Ctx,
    sheet_id: SheetId,
    column: ColumnName | None = None,
    value: CellValue = None,
    limit: Annotated[int, Field(ge=1, le=MAX_ROWS_RETURNED)] = 100,
) -> list[Row]:
    """List a sheet's data rows top to bottom, optionally only those whose column equals a value.

    The filter compares values as the column stores them (a number column matches 5000 and
    "5,000" alike; text matches exactly). Hidden sheets are read like any other.

    Args:
        sheet_id: The sheet.
        column: Column to filter on; omit to list every row.
        value: The value that column must hold (empty or null: rows where it is empty).
        limit: At most this many rows.
    """
    sheet = ctx.get(Sheet, sheet_id, field="sheet_id")
    found = _rows(ctx, sheet.id)
    if column is not None:
        col = _column(_columns(ctx, sheet.id), column, sheet, "column")
        wanted = _cell(col, value, "value")
        found = [r for r in found if r.cells.get(col.name) == wanted]
    elif value is not None:
        raise RuleViolation("a value to filter on needs its column", field="column", hint="name the column too")
    return found[:limit]


@service.tool(intent="look up the rows where the column holds this value", example=_on_tab(_lookup_args))
def lookup_rows(
    ctx: Ctx,
    sheet_id: SheetId,
    column: ColumnName,
    value: CellText | int | float | bool,
    first_only: bool = False,
) -> list[Row]:
    """Find the rows whose lookup column matches a value: the whole cell, case aside (n8n's lookup).

    Args:
        sheet_id: The sheet.
        column: The lookup column.
        value: The value to find.
        first_only: Return only the first (topmost) matching row.
    """
    sheet = ctx.get(Sheet, sheet_id, field="sheet_id")
    col = _column(_columns(ctx, sheet.id), column, sheet, "column")
    found = _matching(ctx, sheet, col, value)
    return found[:1] if first_only else found


@service.tool(
    intent="add a row to the sheet",
    write=True,
    example=_on_tab(lambda t: t.write(values=t.samples())),
)
def append_row(ctx: Ctx, sheet_id: SheetId, actor_email: Email, values: dict[ColumnName, CellValue]) -> Row:
    """Append a row under the sheet's last row, its values given by column name.

    Each value must fit its column's type; columns left out stay empty.

    Args:
        sheet_id: The sheet.
        actor_email: E-mail of the owner or a writer.
        values: Values by column name (header text).
    """
    sheet, _ = _sheet_for_write(ctx, sheet_id, actor_email)
    _nothing(values, "append")
    cols = _columns(ctx, sheet.id)
    cells = _merged({}, _converted(cols, sheet, values), cols)
    if not cells:
        raise RuleViolation("every value given is empty", field="values", hint="give at least one non-empty value")
    return _append(ctx, sheet, cells, actor_email)


def _keyed(
    ctx: Ctx, sheet: Sheet, cols: Sequence[Column], key_column: str, values: Mapping[str, CellValue]
) -> tuple[Row | None, dict[str, CellValue]]:
    """The one row whose key column matches ``values[key_column]``, case aside (None if none does), and the values.

    The values come back as their columns store them. A key that is missing, or that several rows hold, is refused.
    """
    col = _column(cols, key_column, sheet, "key_column")
    changes = _converted(cols, sheet, values)
    key = changes.get(col.name)
    if key is None:
        raise RuleViolation(
            f"values has no {col.name!r} to match rows on",
            field="values",
            hint=f"include the key column {col.name!r} with a value in values",
        )
    found = _matching(ctx, sheet, col, key)
    if len(found) > 1:
        raise Conflict(
            f"{len(found)} rows hold {key!r} in {col.name!r} (rows {', '.join(str(r.row_number) for r in found)})",
            field="key_column",
            hint="update the right one by its row_id (sheets__lookup_rows finds them), or match on a unique column",
        )
    return (found[0] if found else None), changes


@service.tool(
    intent="add the row, or update it if one with the same key exists",
    write=True,
    example=_on_tab(lambda t: t.write(key_column=t.cols[0].name, values=t.samples())),
)
def append_or_update_row(
    ctx: Ctx, sheet_id: SheetId, actor_email: Email, key_column: ColumnName, values: dict[ColumnName, CellValue]
) -> UpsertedRow:
    """Update the row whose key column matches the given key (case aside), or append a new row if none does.

    The key is values[key_column]. Given values overwrite the row's cells; null or "" empties a
    cell; columns left out keep their values. When several rows hold the key nothing is written.

    Args:
        sheet_id: The sheet.
        actor_email: E-mail of the owner or a writer.
        key_column: The column to match rows on (an e-mail, an id, a company name …).
        values: Values by column name; must include the key column.
    """
    sheet, _ = _sheet_for_write(ctx, sheet_id, actor_email)
    cols = _columns(ctx, sheet.id)
    row, changes = _keyed(ctx, sheet, cols, key_column, values)
    if row is not None:
        new = ctx.update(row, cells=_merged(row.cells, changes, cols), updated_by=actor_email)
        return UpsertedRow(row=new, action="updated")
    return UpsertedRow(row=_append(ctx, sheet, _merged({}, changes, cols), actor_email), action="appended")


@service.tool(
    intent="update the row",
    write=True,
    idempotent=True,
    example=_on_tab(lambda t: t.write(row_id=t.rows[0].id, values={t.cols[-1].name: None})),
)
def update_row(
    ctx: Ctx,
    sheet_id: SheetId,
    actor_email: Email,
    values: dict[ColumnName, CellValue],
    row_id: RowId | None = None,
    key_column: ColumnName | None = None,
) -> Row:
    """Change cells of one row, found by its id or by a key column whose value is given in values.

    Given values overwrite the row's cells; null or "" empties a cell; columns left out keep their
    values. A key that matches no row, or several, is refused.

    Args:
        sheet_id: The sheet.
        actor_email: E-mail of the owner or a writer.
        values: New values by column name (with key_column: including the key to match on).
        row_id: The row; or give key_column instead.
        key_column: Column to find the row by (case aside), its value taken from values.
    """
    sheet, _ = _sheet_for_write(ctx, sheet_id, actor_email)
    _nothing(values, "update")
    cols = _columns(ctx, sheet.id)
    if (row_id is None) == (key_column is None):
        raise RuleViolation(
            "name the row by row_id or by key_column, one of the two",
            field="row_id",
            hint="give row_id (from sheets__lookup_rows) or key_column with its value in values",
        )
    if key_column is not None:
        found, changes = _keyed(ctx, sheet, cols, key_column, values)
        if found is None:
            raise NotFound(
                f"no row of {sheet.title!r} holds the given {key_column!r}",
                field="key_column",
                hint="append it with sheets__append_row, or use sheets__append_or_update_row",
            )
        row = found
    else:
        assert row_id is not None
        row = ctx.get(Row, row_id, field="row_id")
        if row.sheet_id != sheet.id:
            raise RuleViolation(
                f"row {row.id} is not a row of sheet {sheet.title!r}",
                field="row_id",
                hint="pass the sheet the row belongs to",
            )
        changes = _converted(cols, sheet, values)
    return ctx.update(row, cells=_merged(row.cells, changes, cols), updated_by=actor_email)


def _data_row_number(sheet: Sheet, number: int, field: str, what: str) -> None:
    if number == 1:
        raise RuleViolation(
            f"row 1 of {sheet.title!r} is its header and cannot be {what} with row tools",
            field=field,
            hint="data rows start at 2; header cells name columns (sheets__add_column, sheets__list_columns)",
        )
    if number > sheet.row_count:
        raise RuleViolation(
            f"row {number} is past the end of {sheet.title!r}'s grid ({sheet.row_count} rows)",
            field=field,
            hint=f"give a row number from 2 to {sheet.row_count}",
        )


@service.tool(
    intent="clear the row",
    write=True,
    idempotent=True,
    example=_on_tab(lambda t: t.write(row_number=t.rows[0].row_number)),
)
def clear_row(ctx: Ctx, sheet_id: SheetId, actor_email: Email, row_number: RowNumber) -> Row:
    """Empty every cell of a data row and keep the row in place, as values.clear on the row does.

    Args:
        sheet_id: The sheet.
        actor_email: E-mail of the owner or a writer.
        row_number: The row's number (2 or more; row 1 is the header).
    """
    sheet, _ = _sheet_for_write(ctx, sheet_id, actor_email)
    _data_row_number(sheet, row_number, "row_number", "cleared")
    row = ctx.first(Row, sheet_id=sheet.id, row_number=row_number)
    if row is None:
        raise NotFound(
            f"row {row_number} of {sheet.title!r} is already empty",
            field="row_number",
            hint="find the row's number with sheets__lookup_rows or sheets__list_rows",
        )
    return ctx.update(row, cells={}, updated_by=actor_email)


@service.tool(
    intent="delete the rows",
    write=True,
    destructive=True,
    example=_on_tab(lambda t: t.write(row_number=t.rows[0].row_number)),
)
def delete_rows(
    ctx: Ctx,
    sheet_id: SheetId,
    actor_email: Email,
    row_number: RowNumber,
    count: Annotated[int, Field(ge=1, le=1000)] = 1,
) -> DeletedRows:
    """Delete rows from a row number down; the rows below move up and the grid shrinks, as deleteDimension does.

    Args:
        sheet_id: The sheet.
        actor_email: E-mail of the owner or a writer.
        row_number: First row to delete (2 or more; row 1 is the header).
        count: How many rows to delete.
    """
    sheet, _ = _sheet_for_write(ctx, sheet_id, actor_email)
    _data_row_number(sheet, row_number, "row_number", "deleted")
    last = row_number + count - 1
    if last > sheet.row_count:
        raise RuleViolation(
            f"rows {row_number} to {last} run past the end of {sheet.title!r}'s grid ({sheet.row_count} rows)",
            field="count",
            hint=f"delete at most {sheet.row_count - row_number + 1} row(s) from row {row_number}",
        )
    deleted: list[str] = []
    moved = 0
    for row in _rows(ctx, sheet.id):
        if row_number <= row.row_number <= last:
            ctx.delete(row)
            deleted.append(row.id)
        elif row.row_number > last:
            ctx.update(row, row_number=row.row_number - count)
            moved += 1
    ctx.update(sheet, row_count=sheet.row_count - count)
    return DeletedRows(sheet_id=sheet.id, start_row=row_number, count=count, deleted_row_ids=deleted, moved_up=moved)


# -- ranges -----------------------------------------------------------------------------------


@service.tool(intent="read the range of cells", example=_on_tab(_range_args))
def get_values(ctx: Ctx, spreadsheet_id: SpreadsheetId, range: A1Range) -> ValueRange:
    """Read a range in A1 notation as rows of values (row 1 holds the column names), as values.get does.

    Ranges: 'Key accounts'!A1:D20, Sheet1!A:C (whole columns), Sheet1!2:5 (whole rows), Sheet1!B3,
    a sheet title alone (the whole sheet), or A1:C10 (the first visible sheet). Titles with spaces
    are quoted. A range must lie within the sheet's grid.

    Args:
        spreadsheet_id: The spreadsheet.
        range: The range in A1 notation.
    """
    ss = ctx.get(Spreadsheet, spreadsheet_id, field="spreadsheet_id")
    rng = _range(ctx, ss.id, range)
    by_position = {c.position: c.name for c in _columns(ctx, rng.sheet.id)}
    by_number = {r.row_number: r.cells for r in ctx.where(Row, sheet_id=rng.sheet.id)}
    last_row = max([1, *by_number])
    grid: list[list[CellValue]] = []
    for number in _span(rng.top, min(rng.bottom, last_row)):
        cells = by_number.get(number, {})
        line: list[CellValue] = []
        for position in _span(rng.left, min(rng.right, max(by_position, default=0))):
            name = by_position.get(position)
            if number == 1:
                line.append(name or "")
            else:
                line.append(cells.get(name, "") if name else "")
        while line and line[-1] == "":
            line.pop()
        grid.append(line)
    while grid and not grid[-1]:
        grid.pop()
    return ValueRange(range=rng.a1(), values=grid)


@service.tool(intent="write values into the range", write=True, idempotent=True, example=_on_tab(_write_range_args))
def update_values(
    ctx: Ctx,
    spreadsheet_id: SpreadsheetId,
    actor_email: Email,
    range: A1Range,
    values: list[list[CellValue]],
) -> UpdatedValues:
    """Write rows of values into a range in A1 notation, as values.update does.

    The data starts at the range's top-left cell and must fit inside it; a single cell (Sheet1!A7)
    takes data of any size from there. A null leaves a cell as it is; "" empties it. Row 1 is the
    header: its cells may only repeat the column names. Each value must fit its column's type, and
    columns without a header take no values.

    Args:
        spreadsheet_id: The spreadsheet.
        actor_email: E-mail of the owner or a writer.
        range: The range in A1 notation.
        values: The rows of values, top to bottom, each left to right.
    """
    ss = ctx.get(Spreadsheet, spreadsheet_id, field="spreadsheet_id")
    _require_writer(ss, actor_email)
    rng = _range(ctx, ss.id, range)
    sheet = rng.sheet
    height, width = len(values), max((len(v) for v in values), default=0)
    if not width:
        raise RuleViolation("no values to write", field="values", hint="give at least one row with one value")
    bottom, right = rng.top + height - 1, rng.left + width - 1
    limit_b, limit_r = (sheet.row_count, sheet.column_count) if rng.single else (rng.bottom, rng.right)
    if bottom > limit_b or right > limit_r:
        where = "the sheet's grid" if rng.single else f"the range {rng.a1()}"
        raise RuleViolation(
            f"{height} row(s) of up to {width} value(s) from {_letter(rng.left)}{rng.top} do not fit in {where}",
            field="values",
            hint="widen the range, or give it as its top-left cell only",
        )
    cols = {c.position: c for c in _columns(ctx, sheet.id)}
    changes: dict[int, dict[str, CellValue]] = {}
    written: set[tuple[int, int]] = set()
    for dr, line in enumerate(values):
        number = rng.top + dr
        for dc, value in enumerate(line):
            if value is None:
                continue
            position = rng.left + dc
            col = cols.get(position)
            cell = f"{_letter(position)}{number}"
            written.add((number, position))
            if number == 1:
                if (col.name if col else "") != (value.strip() if isinstance(value, str) else value):
                    raise RuleViolation(
                        f"cell {cell} is the header of {'column ' + repr(col.name) if col else 'no column'} "
                        f"and cannot be set to {value!r} here",
                        field="values",
                        hint="header cells name typed columns: add one with sheets__add_column; in row 1 repeat "
                        "the names or give null",
                    )
                continue
            if col is None:
                if isinstance(value, str) and not value.strip():
                    continue
                raise RuleViolation(
                    f"column {_letter(position)} of {sheet.title!r} has no header, so cell {cell} takes no value",
                    field="values",
                    hint=f"the sheet's columns are {_names(list(cols.values()))}; add one with sheets__add_column",
                )
            changes.setdefault(number, {})[col.name] = _cell(col, value, "values")
    ordered = list(cols.values())
    for number, change in sorted(changes.items()):
        row = ctx.first(Row, sheet_id=sheet.id, row_number=number)
        if row is not None:
            ctx.update(row, cells=_merged(row.cells, change, ordered), updated_by=actor_email)
        elif cells := _merged({}, change, ordered):
            ctx.create(Row, sheet_id=sheet.id, row_number=number, cells=cells, updated_by=actor_email)
    covered = _Range(sheet, rng.top, rng.left, bottom, right)
    return UpdatedValues(
        spreadsheet_id=ss.id,
        updated_range=covered.a1(),
        updated_rows=len({n for n, _ in written}),
        updated_columns=len({p for _, p in written}),
        updated_cells=len(written),
    )


# -- seed -------------------------------------------------------------------------------------

REGIONS: dict[str, str] = {
    "US": "North America",
    "CA": "North America",
    "BR": "LATAM",
    "JP": "APAC",
    "SG": "APAC",
    "AU": "APAC",
}
"""Sales region of a country; every other country of the world is in EMEA."""
REGION_NAMES = ("EMEA", "North America", "APAC", "LATAM")
TERMS = {"net_15": "Net 15", "net_30": "Net 30", "net_45": "Net 45", "net_60": "Net 60"}
"""Procurement's payment terms as the vendor list writes them."""
STAGES = ("Applied", "Phone screen", "Onsite", "Offer", "Hired", "Rejected")
ROLES_HIRING = (
    "Senior Software Engineer",
    "Support Specialist",
    "Account Executive",
    "Growth Analyst",
    "Logistics Coordinator",
)


def region_of(company: Company) -> str:
    """The sales region a company is in, by the country of its address."""
    return REGIONS.get(company.address.country, "EMEA")


@dataclass(frozen=True, slots=True)
class _Col:
    """A column to seed: header, type and select options."""

    name: str
    type: ColumnType = "text"
    options: tuple[str, ...] = ()


def _people(*groups: Sequence[Person], but: Sequence[Person] = ()) -> tuple[str, ...]:
    """E-mails of the people of ``groups`` in order, once each, leaving out ``but``."""
    skip = {p.email for p in but}
    out: dict[str, None] = {}
    for group in groups:
        for p in group:
            if p.email not in skip:
                out[p.email] = None
    return tuple(out)


def _seed_spreadsheet(
    s: SeedContext, title: str, owner: Person, editors: Sequence[Person], viewers: Sequence[Person], age: int
) -> Spreadsheet:
    home = s.population.home.place
    writers = _people(editors, but=[owner])
    ss = s.create(
        Spreadsheet,
        title=title,
        owner_email=owner.email,
        editors=writers,
        viewers=tuple(e for e in _people(viewers, but=[owner]) if e not in writers),
        locale=f"{home.language}_{home.country}",
        time_zone=home.timezone,
        created_at=s.ago(days=age),
        updated_at=s.ago(days=age // 3),
    )
    return s.update(ss, link=_link(ss.id))


def _seed_sheet(
    s: SeedContext,
    ss: Spreadsheet,
    title: str,
    cols: Sequence[_Col],
    lines: Sequence[Sequence[CellValue]],
    editor: str,
    hidden: bool = False,
) -> Sheet:
    """A sheet of ``ss`` with its header columns and one row per line (values in column order, checked by type)."""
    index = sum(1 for sh in s.records(Sheet) if sh.spreadsheet_id == ss.id)
    sheet = s.create(Sheet, spreadsheet_id=ss.id, title=title, index=index, hidden=hidden)
    made = [
        s.create(Column, sheet_id=sheet.id, name=c.name, position=k, letter=_letter(k), type=c.type, options=c.options)
        for k, c in enumerate(cols, start=1)
    ]
    for k, line in enumerate(lines):
        cells = {col.name: _cell(col, value, col.name) for col, value in zip(made, line, strict=True)}
        s.create(
            Row,
            sheet_id=sheet.id,
            row_number=k + 2,
            cells={n: v for n, v in cells.items() if v is not None},
            updated_by=editor,
            updated_at=s.ago(days=2 + 3 * k % 40, hours=k),
        )
    return sheet


@service.seeder
def seed(s: SeedContext) -> None:
    """Business spreadsheets of the home company's teams: routing, approvals, key accounts, vendors, hiring."""
    pop = s.population
    chart = org_chart(pop.employees)
    _seed_support(s, pop, chart)
    _seed_finance(s, pop, chart)
    _seed_accounts(s, pop, chart)
    _seed_hiring(s, pop, chart)


def _team(pop: Population, chart: OrgChart, dept: str) -> tuple[Person, list[Person]]:
    """A department's head and its other members (in staff order)."""
    head = chart.heads.get(dept, chart.top)
    return head, [p for p in pop.employees if department_of(p) == dept and p.key != head.key]


def _seed_support(s: SeedContext, pop: Population, chart: OrgChart) -> None:
    """Support operations: who takes each escalation tier, and which queue serves each region."""
    head, team = _team(pop, chart, "Support")
    crew = [head, *team]
    eng_head, engineers = _team(pop, chart, "Engineering")
    sre = next((p for p in engineers if "Reliability" in p.job_title), eng_head)
    ss = _seed_spreadsheet(s, "Support operations", head, team[:3], [eng_head, chart.heads.get("Sales", head)], 200)
    tiers = [
        ("Tier 1", "Frontline support", crew[1 % len(crew)], 8, False),
        ("Tier 2", "Product specialists", head, 4, False),
        ("Tier 3", "Engineering on-call", sre, 1, True),
    ]
    _seed_sheet(
        s,
        ss,
        "Escalation routing",
        [
            _Col("Tier", "select", ("Tier 1", "Tier 2", "Tier 3")),
            _Col("Team"),
            _Col("On-call", "person_name"),
            _Col("On-call email", "email"),
            _Col("Response target (hours)", "number"),
            _Col("Page on-call", "checkbox"),
        ],
        [(tier, team_, p.name, p.email, hours, page) for tier, team_, p, hours, page in tiers],
        head.email,
    )
    queues = [
        (region, f"Support {region}", crew[k % len(crew)].email, hours)
        for k, (region, hours) in enumerate(
            zip(REGION_NAMES, ("08:00-18:00 CET", "08:00-18:00 ET", "09:00-18:00 SGT", "08:00-17:00 BRT"), strict=True)
        )
    ]
    _seed_sheet(
        s,
        ss,
        "Regional queues",
        [_Col("Region", "select", REGION_NAMES), _Col("Queue"), _Col("Queue lead email", "email"), _Col("Hours")],
        queues,
        head.email,
    )


def _seed_finance(s: SeedContext, pop: Population, chart: OrgChart) -> None:
    """Finance policies: the spend approval matrix and the vendor list (procurement's suppliers and terms)."""
    head, team = _team(pop, chart, "Finance")
    clerk = next((p for p in team if not is_lead(p)), team[0] if team else head)
    ops = chart.heads.get("Operations", chart.top)
    ss = _seed_spreadsheet(s, "Finance policies", head, team, [chart.top, ops], 300)
    cur = pop.home.place.currency
    bands = [
        ("Up to 1,000", 0, 1000, clerk, None),
        ("Over 1,000 up to 10,000", 1000, 10000, head, None),
        ("Over 10,000 up to 50,000", 10000, 50000, chart.top, None),
        ("Over 50,000", 50000, None, chart.top, head),
    ]
    _seed_sheet(
        s,
        ss,
        "Spend approval matrix",
        [
            _Col("Band"),
            _Col(f"Above ({cur})", "currency"),
            _Col(f"Up to ({cur})", "currency"),
            _Col("Approver", "person_name"),
            _Col("Approver email", "email"),
            _Col("Second approver email", "email"),
        ],
        [(band, lo, hi, p.name, p.email, second.email if second else None) for band, lo, hi, p, second in bands],
        head.email,
    )
    vendors = [
        (
            link.company.name,
            link.contact.name,
            link.contact.email,
            link.company.phone,
            TERMS[link.terms],
            "Active" if link.active else "Inactive",
            f"https://{link.company.domain}",
        )
        for link in suppliers(pop)
    ]
    _seed_sheet(
        s,
        ss,
        "Vendor list",
        [
            _Col("Vendor"),
            _Col("Contact name", "person_name"),
            _Col("Contact email", "email"),
            _Col("Phone", "phone"),
            _Col("Payment terms", "select", tuple(TERMS.values())),
            _Col("Status", "select", ("Active", "On hold", "Inactive")),
            _Col("Website", "url"),
        ],
        vendors,
        (team[0] if team else head).email,
    )


def _seed_accounts(s: SeedContext, pop: Population, chart: OrgChart) -> None:
    """Key accounts: customers with their main contact, tier, region, manager and status; a hidden tier table."""
    head, reps = _team(pop, chart, "Sales")
    managers = reps or [head]
    ss = _seed_spreadsheet(
        s, "Key accounts", head, reps, [chart.heads.get("Support", head), chart.heads.get("Finance", head)], 150
    )
    vendor_keys = {link.company.key for link in suppliers(pop)}
    buyers = [c for c in pop.customers if pop.people_at(c)]
    pure = [c for c in buyers if c.key not in vendor_keys]
    # Customers the company does not also buy from, unless a small world has too few of them.
    chosen = (pure if len(pure) >= 6 else pure + [c for c in buyers if c.key in vendor_keys])[:12]
    cur = pop.home.place.currency
    lines = []
    for k, company in enumerate(chosen):
        contact = pop.people_at(company)[0]
        tier = "Strategic" if company.employees >= 1200 else "Enterprise" if company.employees >= 150 else "Growth"
        status = "On hold" if k % 6 == 3 else "Churned" if k % 6 == 5 else "Active"
        renewal = (s.now.date() + dt.timedelta(days=s.rng.randint(10, 330))).isoformat()
        lines.append(
            (
                company.name,
                contact.name,
                contact.email,
                tier,
                region_of(company),
                managers[k % len(managers)].email,
                status,
                renewal,
                s.rng.randint(12, 480) * 1000,
            )
        )
    _seed_sheet(
        s,
        ss,
        "Key accounts",
        [
            _Col("Company"),
            _Col("Contact name", "person_name"),
            _Col("Contact email", "email"),
            _Col("Tier", "select", ("Strategic", "Enterprise", "Growth")),
            _Col("Region", "select", REGION_NAMES),
            _Col("Account manager email", "email"),
            _Col("Status", "select", ("Active", "On hold", "Churned")),
            _Col("Renewal date", "date"),
            _Col(f"ARR ({cur})", "currency"),
        ],
        lines,
        head.email,
    )
    _seed_sheet(
        s,
        ss,
        "Tier rules",
        [
            _Col("Tier", "select", ("Strategic", "Enterprise", "Growth")),
            _Col("Discount (%)", "number"),
            _Col("Business review", "select", ("Monthly", "Quarterly", "Yearly")),
        ],
        [("Strategic", 15, "Monthly"), ("Enterprise", 10, "Quarterly"), ("Growth", 5, "Yearly")],
        head.email,
        hidden=True,
    )


def _seed_hiring(s: SeedContext, pop: Population, chart: OrgChart) -> None:
    """The recruiters' hiring tracker: candidates (the world's job seekers) by role and stage."""
    head, team = _team(pop, chart, "People")
    recruiters = [p for p in [head, *team] if "Recruiter" in p.job_title] or [head]
    owner = recruiters[0]
    ss = _seed_spreadsheet(s, "Hiring tracker", owner, [head, *team], [chart.heads.get("Engineering", head)], 90)
    consumers = pop.consumers
    candidates = consumers[: max(8, len(consumers) * 2 // 3)][:14]
    lines = [
        (
            p.name,
            p.email,
            p.phone,
            ROLES_HIRING[k % len(ROLES_HIRING)],
            STAGES[k % len(STAGES)],
            recruiters[k % len(recruiters)].email,
            (s.now.date() - dt.timedelta(days=3 + 4 * k)).isoformat(),
            k % 4 == 1,
        )
        for k, p in enumerate(candidates)
    ]
    _seed_sheet(
        s,
        ss,
        "Pipeline",
        [
            _Col("Candidate", "person_name"),
            _Col("Email", "email"),
            _Col("Phone", "phone"),
            _Col("Role"),
            _Col("Stage", "select", STAGES),
            _Col("Recruiter email", "email"),
            _Col("Applied on", "date"),
            _Col("Referral", "checkbox"),
        ],
        lines,
        owner.email,
    )
