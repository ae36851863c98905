"""Quarry SQL: hosted PostgreSQL databases queried over HTTP with parameterised SQL.

Modeled on Neon's serverless SQL-over-HTTP endpoint (``POST /sql`` with a
query and its ``$1``, ``$2`` … parameters, or a batch of queries run as one
transaction, answered with ``command``, ``rowCount``, ``fields`` and ``rows``)
and the database management of the Neon and Supabase APIs (databases with an
owner whose compute is active, read-only or paused, schemas, tables and their
columns, SQL-editor snippets kept as saved queries, and the statement history).
Tables have typed columns (text, integer, numeric with precision and scale,
boolean, date, timestamptz), identity columns, defaults, primary keys, NOT
NULL, UNIQUE and foreign keys with ON DELETE restrict, cascade or set null,
checked on every write and reported with PostgreSQL's SQLSTATE codes.

Queries go through a small PostgreSQL dialect of its own, tokenised and parsed
here: one SELECT over one table (columns, ``count(*)``, WHERE with ``=``,
``<>``, ``<``, ``>``, ``<=``, ``>=``, AND, OR, NOT, IS [NOT] NULL, [NOT]
[I]LIKE and ``+``/``-``, ORDER BY with NULLS FIRST/LAST, LIMIT, OFFSET),
INSERT … VALUES … RETURNING, UPDATE … SET … WHERE … RETURNING and DELETE …
WHERE … RETURNING. Values travel only as parameters: a quoted string or a
number where a value belongs is refused, as are other dialects (backticks,
``LIMIT x, y``, ``TOP n``, ``?`` placeholders), DDL (tables change through
their own tools), several statements in one query, and UPDATE or DELETE
without WHERE (the pg-safeupdate guard hosted PostgREST stacks install). A
paused database takes no queries; a read-only one takes only SELECT.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation, ToolFailure
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.world.commerce import first_order_number, places_first_order

__all__ = ["service"]

service = Service(
    "sqldb",
    title="Quarry SQL",
    category="database",
    modeled_on="Neon serverless driver SQL-over-HTTP (POST /sql: query, params, batch transactions) and the "
    "Neon / Supabase database management APIs (databases, schemas, tables, SQL snippets, query history)",
    description="Hosted PostgreSQL: the company's databases, their schemas and typed tables with keys and "
    "constraints, parameterised SQL queries and transactions over HTTP in a PostgreSQL dialect subset, saved "
    "queries and the history of the statements that ran.",
)

DatabaseId = Annotated[str, IdOf("sqldb.database")]
SchemaId = Annotated[str, IdOf("sqldb.schema")]
TableId = Annotated[str, IdOf("sqldb.table")]
RowId = Annotated[str, IdOf("sqldb.row")]
SavedQueryId = Annotated[str, IdOf("sqldb.saved_query")]
QueryRunId = Annotated[str, IdOf("sqldb.query_run")]
Identifier = Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]{0,62}$")]
"""A PostgreSQL name as created here: lower case, at most 63 characters (NAMEDATALEN - 1)."""
SqlText = Annotated[str, StringConstraints(min_length=1, max_length=20000)]
ColumnType = Literal["text", "integer", "numeric", "boolean", "date", "timestamptz"]
DbStatus = Literal["active", "read_only", "paused"]
OnDelete = Literal["restrict", "cascade", "set_null"]
Command = Literal["SELECT", "INSERT", "UPDATE", "DELETE"]
ParamValue = str | int | float | bool | None
"""A query parameter as JSON gives it; it is read as the type of the column it meets."""
CellValue = str | int | bool | None
"""A stored or returned value: text, integer and boolean as themselves; numeric, date and timestamptz as text."""
Py: TypeAlias = "str | int | Decimal | bool | dt.date | dt.datetime | None"

MAX_PARAMS = 100
MAX_BATCH = 20
MAX_DEPTH = 64
"""How deeply an expression may nest (parentheses, NOT, chains of AND, OR, + and -)."""
INT4 = (-(2**31), 2**31 - 1)
RESERVED_DATABASES = ("postgres", "template0", "template1")

SQLSTATE: dict[str, str] = {
    "08P01": "protocol_violation",
    "0A000": "feature_not_supported",
    "21000": "cardinality_violation",
    "22003": "numeric_value_out_of_range",
    "22007": "invalid_datetime_format",
    "22008": "datetime_field_overflow",
    "22023": "invalid_parameter_value",
    "22025": "invalid_escape_sequence",
    "2201W": "invalid_row_count_in_limit_clause",
    "2201X": "invalid_row_count_in_result_offset_clause",
    "22P02": "invalid_text_representation",
    "23502": "not_null_violation",
    "23503": "foreign_key_violation",
    "23505": "unique_violation",
    "25006": "read_only_sql_transaction",
    "2BP01": "dependent_objects_still_exist",
    "3F000": "invalid_schema_name",
    "428C9": "generated_always",
    "42601": "syntax_error",
    "42611": "invalid_column_definition",
    "42701": "duplicate_column",
    "42703": "undefined_column",
    "42803": "grouping_error",
    "42804": "datatype_mismatch",
    "42830": "invalid_foreign_key",
    "42883": "undefined_function",
    "42939": "reserved_name",
    "42P01": "undefined_table",
    "42P02": "undefined_parameter",
    "42P06": "duplicate_schema",
    "42P07": "duplicate_table",
    "42P08": "ambiguous_parameter",
    "42P10": "invalid_column_reference",
    "42P16": "invalid_table_definition",
    "42P18": "indeterminate_datatype",
    "54001": "statement_too_complex",
    "57P03": "cannot_connect_now",
}
"""The PostgreSQL error codes this service reports, with their condition names."""

ACCEPTED = (
    "one statement of: SELECT cols | * | count(*) FROM table [WHERE …] [ORDER BY col [ASC|DESC] [NULLS FIRST|LAST]] "
    "[LIMIT n] [OFFSET n]; INSERT INTO table (cols) VALUES ($1, …) [RETURNING …]; UPDATE table SET col = $1 "
    "WHERE … [RETURNING …]; DELETE FROM table WHERE … [RETURNING …]. WHERE takes =, <>, <, >, <=, >=, AND, OR, "
    "NOT, IS [NOT] NULL, [NOT] LIKE/ILIKE and + / -; values are $1, $2 … parameters (NULL, TRUE, FALSE, DEFAULT, "
    "now() and current_date may be written)"
)
"""What the query dialect accepts, quoted in the hints of refused queries."""

RESERVED_WORDS = frozenset(
    """ALL ANALYSE ANALYZE AND ANY ARRAY AS ASC ASYMMETRIC BOTH CASE CAST CHECK COLLATE COLUMN CONSTRAINT CREATE
    CURRENT_CATALOG CURRENT_DATE CURRENT_ROLE CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER DEFAULT DEFERRABLE DESC
    DISTINCT DO ELSE END EXCEPT FALSE FETCH FOR FOREIGN FROM GRANT GROUP HAVING IN INITIALLY INTERSECT INTO LATERAL
    LEADING LIMIT LOCALTIME LOCALTIMESTAMP NOT NULL OFFSET ON ONLY OR ORDER PLACING PRIMARY REFERENCES RETURNING
    SELECT SESSION_USER SOME SYMMETRIC TABLE THEN TO TRAILING TRUE UNION UNIQUE USER USING VARIADIC WHEN WHERE WINDOW
    WITH AUTHORIZATION BINARY COLLATION CONCURRENTLY CROSS CURRENT_SCHEMA FREEZE FULL ILIKE INNER IS ISNULL JOIN LEFT
    LIKE NATURAL NOTNULL OUTER OVERLAPS RIGHT SIMILAR TABLESAMPLE VERBOSE""".split()  # noqa: SIM905
)
"""PostgreSQL's reserved key words: never a bare table, column or alias name."""

_DDL = frozenset({"CREATE", "ALTER", "DROP", "TRUNCATE", "GRANT", "REVOKE", "COMMENT", "REINDEX", "VACUUM", "CLUSTER"})
_TX = frozenset({"BEGIN", "COMMIT", "ROLLBACK", "START", "SAVEPOINT", "RELEASE", "ABORT", "END"})
_JOINS = frozenset({"JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "OUTER"})


# -- records ----------------------------------------------------------------------------------


class Database(Timestamped):
    """A PostgreSQL database of the project, owned by an employee."""

    id: DatabaseId
    name: Identifier
    """Database name: a lower-case identifier, unique in the project."""
    owner_email: Email
    """E-mail of the employee who owns the database."""
    description: Text = ""
    """What the database holds."""
    status: DbStatus = "active"
    """active (reads and writes), read_only (SELECT only, default_transaction_read_only on) or paused (its compute
    is suspended: no query or DDL until it is resumed)."""


class Schema(Created):
    """A schema (namespace) of a database; tables live in one. Every database has ``public``."""

    id: SchemaId
    database_id: DatabaseId
    """The database."""
    name: Identifier
    """Schema name, unique in its database; names starting with pg_ are reserved."""


class Column(Value):
    """A typed column of a table."""

    name: Identifier = Field(description="Column name, unique in the table.")
    type: ColumnType = Field(description="text, integer, numeric, boolean, date or timestamptz.")
    nullable: bool = Field(default=True, description="False: NOT NULL.")
    default: CellValue = Field(default=None, description="Constant default (stored form), if any.")
    default_now: bool = Field(default=False, description="DEFAULT now() (timestamptz) or current_date (date).")
    identity: bool = Field(default=False, description="GENERATED ALWAYS AS IDENTITY: numbered by the table.")
    precision: int | None = Field(default=None, description="numeric(precision, scale): total digits.")
    scale: int | None = Field(default=None, description="numeric(precision, scale): digits after the point.")


class UniqueConstraint(Value):
    """A UNIQUE constraint: no two rows share the same non-null values of its columns."""

    name: str = Field(description="Constraint name, e.g. customers_email_key.")
    columns: tuple[str, ...] = Field(description="Its columns.")


class ForeignKey(Value):
    """A foreign key: the values of its columns must be a key of the referenced table."""

    name: str = Field(description="Constraint name, e.g. orders_customer_id_fkey.")
    columns: tuple[str, ...] = Field(description="Referencing columns of this table.")
    references_table_id: TableId = Field(description="The referenced table.")
    references_columns: tuple[str, ...] = Field(description="Its primary key or unique columns.")
    on_delete: OnDelete = Field(
        default="restrict", description="What deleting a referenced row does: restrict, cascade or set_null."
    )


class Table(Created):
    """A table: typed columns, a primary key, unique constraints and foreign keys."""

    id: TableId
    database_id: DatabaseId
    """The database."""
    schema_id: SchemaId
    """The schema it is in."""
    schema_name: Identifier
    """Name of that schema (queries name the table schema.table, or table alone in public)."""
    name: Identifier
    """Table name, unique in its schema."""
    columns: tuple[Column, ...]
    """Columns in order."""
    primary_key: tuple[str, ...] = ()
    """Primary key columns (constraint <table>_pkey); empty for a table without one."""
    unique_constraints: tuple[UniqueConstraint, ...] = ()
    """UNIQUE constraints besides the primary key."""
    foreign_keys: tuple[ForeignKey, ...] = ()
    """Foreign keys to other tables."""
    sequences: dict[str, int] = Field(default_factory=dict)
    """Next value of each identity column's sequence."""
    description: Text = ""
    """What the table holds (COMMENT ON TABLE)."""


class Row(Record):
    """A row of a table: its values by column name, in stored form."""

    id: RowId
    table_id: TableId
    """The table."""
    values: dict[str, CellValue]
    """Values by column name; numeric, date and timestamptz values as PostgreSQL prints them."""


class SavedQuery(Timestamped):
    """A saved SQL snippet of a database, run again with new parameters."""

    id: SavedQueryId
    database_id: DatabaseId
    """The database it runs against."""
    name: Title
    """Name, unique among the database's saved queries."""
    sql: SqlText
    """The statement, with $1, $2 … for its parameters."""
    description: Text = ""
    """What it is for."""
    owner_email: Email
    """E-mail of the employee who saved it."""
    command: Command
    """SELECT, INSERT, UPDATE or DELETE."""
    param_count: int
    """How many parameters it takes."""
    status: Literal["active", "archived"] = "active"
    """active, or archived (kept, but not run)."""


class QueryRun(Record):
    """A statement that ran: the history of a database's queries."""

    id: QueryRunId
    database_id: DatabaseId
    """The database."""
    saved_query_id: SavedQueryId | None = None
    """The saved query it ran, if any."""
    sql: SqlText
    """The statement."""
    params: tuple[ParamValue, ...] = ()
    """Its parameters as given."""
    command: Command
    """SELECT, INSERT, UPDATE or DELETE."""
    row_count: int
    """Rows returned (SELECT) or affected (INSERT, UPDATE, DELETE)."""
    in_transaction: bool = False
    """Whether it ran as part of a batch transaction."""
    ran_at: Annotated[DateTime, CREATED]
    """When it ran."""


# -- errors -----------------------------------------------------------------------------------


def _sql_error(
    code: str,
    message: str,
    *,
    hint: str,
    field: str = "sql",
    pos: int | None = None,
    kind: type[ToolFailure] = RuleViolation,
) -> ToolFailure:
    """A refusal carrying a PostgreSQL error code, its condition name and where in the query it was found."""
    where = f" (at character {pos})" if pos else ""
    return kind(f"ERROR {code} {SQLSTATE[code]}: {message}{where}", field=field, hint=hint)


def _refuse(what: str, pos: int, hint: str = "") -> ToolFailure:
    """A query using syntax outside the dialect."""
    return _sql_error("0A000", f"not supported in this dialect: {what}", pos=pos, hint=hint or f"accepted: {ACCEPTED}")


_VALUES_HINT = 'pass values as parameters: write WHERE email = $1 and give params ["…"], one entry per $n'


# -- values -----------------------------------------------------------------------------------

_INT = re.compile(r"^\s*[+-]?\d+\s*$")
_NUM = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$")
_DATE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})\s*$")
_TS = re.compile(
    r"^\s*(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?\s*$"
)
_BOOL_WORDS = {
    "t": True,
    "true": True,
    "y": True,
    "yes": True,
    "on": True,
    "1": True,
    "f": False,
    "false": False,
    "n": False,
    "no": False,
    "off": False,
    "0": False,
}
TYPE_NAMES: dict[str, str] = {
    "text": "text",
    "integer": "integer",
    "numeric": "numeric",
    "boolean": "boolean",
    "date": "date",
    "timestamptz": "timestamp with time zone",
}


def ts_text(when: dt.datetime) -> str:
    """A time as PostgreSQL prints a timestamptz in UTC (``2026-03-02 09:00:00+00``)."""
    t = when.astimezone(dt.UTC)
    text = t.strftime("%Y-%m-%d %H:%M:%S")
    if t.microsecond:
        text += f".{t.microsecond:06d}".rstrip("0")
    return text + "+00"


def _parse_ts(text: str) -> dt.datetime | None:
    """A timestamptz input (ISO 8601 or PostgreSQL's form; no offset means UTC), or None when it does not parse."""
    m = _TS.match(text)
    if m is None:
        return None
    y, mo, d, h, mi, s, frac, off = m.groups()
    tz = dt.UTC
    if off and off not in "Zz":
        sign = -1 if off[0] == "-" else 1
        digits = off[1:].replace(":", "")
        tz = dt.timezone(sign * dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:] or 0)))
    micro = int((frac or ".0")[1:].ljust(6, "0"))
    try:
        return dt.datetime(
            int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0), micro, tzinfo=tz
        ).astimezone(dt.UTC)
    except ValueError as exc:
        raise _sql_error(
            "22008", f'date/time field value out of range: "{text}"', hint="give a real calendar date and time"
        ) from exc


def _bad_input(typ: str, raw: Any, field: str) -> ToolFailure:
    shown = raw if isinstance(raw, str) else json.dumps(raw)
    return _sql_error(
        "22P02",
        f'invalid input syntax for type {TYPE_NAMES[typ]}: "{shown}"',
        field=field,
        hint=_FORMATS[typ],
    )


_FORMATS = {
    "text": "give a string",
    "integer": "give a whole number (JSON number or digits as text) between -2147483648 and 2147483647",
    "numeric": 'give a number, or its digits as text such as "19.99"',
    "boolean": "give true or false",
    "date": "give a date as YYYY-MM-DD",
    "timestamptz": "give a time as 2026-03-02T09:00:00Z (ISO 8601 with an offset; none means UTC)",
}


def coerce(raw: Any, typ: ColumnType, field: str = "params") -> Py:
    """Read a JSON value (a parameter, a default) as a value of a column type, as PostgreSQL reads its text.

    Args:
        raw: The value as JSON gave it.
        typ: The type it is read as.
        field: The argument to blame when it does not fit.

    Returns:
        The value: str, int, Decimal, bool, date or datetime; None for null.
    """
    if raw is None:
        return None
    if typ == "text":
        if isinstance(raw, bool):
            return "true" if raw else "false"
        return raw if isinstance(raw, str) else str(raw)
    if typ == "integer":
        if isinstance(raw, bool | float) or (isinstance(raw, str) and not _INT.match(raw)):
            raise _bad_input(typ, raw, field)
        value = int(raw)
        if not INT4[0] <= value <= INT4[1]:
            raise _sql_error("22003", "integer out of range", field=field, hint=_FORMATS["integer"])
        return value
    if typ == "numeric":
        if isinstance(raw, bool) or (isinstance(raw, str) and not _NUM.match(raw)):
            raise _bad_input(typ, raw, field)
        try:
            return Decimal(str(raw).strip())
        except InvalidOperation as exc:  # pragma: no cover - the pattern admits only numbers
            raise _bad_input(typ, raw, field) from exc
    if typ == "boolean":
        if isinstance(raw, bool):
            return raw
        word = str(raw).strip().lower()
        if word not in _BOOL_WORDS or isinstance(raw, float):
            raise _bad_input(typ, raw, field)
        return _BOOL_WORDS[word]
    if not isinstance(raw, str):
        raise _bad_input(typ, raw, field)
    if typ == "date":
        m = _DATE.match(raw)
        if m is None:
            raise _sql_error(
                "22007", f'invalid input syntax for type date: "{raw}"', field=field, hint=_FORMATS["date"]
            )
        try:
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError as exc:
            raise _sql_error(
                "22008", f'date/time field value out of range: "{raw}"', field=field, hint=_FORMATS["date"]
            ) from exc
    when = _parse_ts(raw)
    if when is None:
        raise _sql_error(
            "22007",
            f'invalid input syntax for type timestamp with time zone: "{raw}"',
            field=field,
            hint=_FORMATS["timestamptz"],
        )
    return when


def to_stored(value: Py, col: Column, table: str, field: str = "params") -> CellValue:
    """A value of the column's type in stored form, checked against its range, precision and scale."""
    if value is None:
        return None
    if col.type == "integer":
        assert isinstance(value, int)
        if not INT4[0] <= value <= INT4[1]:
            raise _sql_error(
                "22003", "integer out of range", field=field, hint=f"keep {table}.{col.name} in int4 range"
            )
        return value
    if col.type == "numeric":
        assert isinstance(value, Decimal)
        if col.scale is not None:
            value = value.quantize(Decimal(1).scaleb(-col.scale), rounding=ROUND_HALF_UP)
        if col.precision is not None:
            scale = col.scale or 0
            if value.adjusted() >= col.precision - scale:
                raise _sql_error(
                    "22003",
                    f"numeric field overflow: a field with precision {col.precision}, scale {scale} must round to an "
                    f"absolute value less than 10^{col.precision - scale}",
                    field=field,
                    hint=f"{table}.{col.name} holds smaller values",
                )
        return format(value, "f")
    if col.type == "date":
        assert isinstance(value, dt.date)
        return (value.date() if isinstance(value, dt.datetime) else value).isoformat()
    if col.type == "timestamptz":
        if not isinstance(value, dt.datetime):
            assert isinstance(value, dt.date)
            value = dt.datetime.combine(value, dt.time(), tzinfo=dt.UTC)
        return ts_text(value)
    assert isinstance(value, str | bool)
    return value


def from_stored(value: CellValue, typ: str) -> Py:
    """A stored value as the Python value comparisons and arithmetic work on."""
    if value is None:
        return None
    if typ == "numeric":
        return Decimal(str(value))
    if typ == "date":
        return dt.date.fromisoformat(str(value))
    if typ == "timestamptz":
        return _parse_ts(str(value))
    return value


# -- tokens -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    """A token of a query: a word, a quoted identifier, a $n parameter, a literal, an operator or punctuation."""

    kind: Literal["word", "qident", "param", "number", "string", "op", "punct", "eof"]
    text: str
    pos: int
    """1-based character position in the query, as PostgreSQL reports it."""

    @property
    def upper(self) -> str:
        """The word in upper case ("" for other tokens)."""
        return self.text.upper() if self.kind == "word" else ""


_WORD = re.compile(r"[A-Za-z_\u00c0-\uffff][A-Za-z0-9_$\u00c0-\uffff]*")
_NUMBER = re.compile(r"(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_DOLLAR_TAG = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$")


def tokenize(sql: str) -> list[Token]:
    """Split a query into tokens, skipping spaces and comments; refuse what the dialect cannot take.

    Args:
        sql: The query text.

    Returns:
        The tokens, ending with an ``eof`` token.
    """
    out: list[Token] = []
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        pos = i + 1
        if c.isspace():
            i += 1
        elif sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j + 1
        elif sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            if j < 0:
                raise _sql_error("42601", "unterminated /* comment", pos=pos, hint="close the comment with */")
            i = j + 2
        elif c == "'" or (c in "eEnN" and sql[i + 1 : i + 2] == "'"):
            j = i + (1 if c != "'" else 0) + 1
            while True:
                k = sql.find("'", j)
                if k < 0:
                    raise _sql_error("42601", "unterminated quoted string", pos=pos, hint=_VALUES_HINT)
                if sql[k + 1 : k + 2] == "'":
                    j = k + 2
                    continue
                break
            out.append(Token("string", sql[i : k + 1], pos))
            i = k + 1
        elif c == "$":
            m = re.match(r"\$(\d+)", sql[i:])
            if m is not None:
                out.append(Token("param", m[1], pos))
                i += len(m[0])
                continue
            tag = _DOLLAR_TAG.match(sql, i)
            if tag is None:
                raise _sql_error("42601", 'syntax error at or near "$"', pos=pos, hint="parameters are $1, $2 …")
            end = sql.find(tag[0], tag.end())
            if end < 0:
                raise _sql_error("42601", "unterminated dollar-quoted string", pos=pos, hint=_VALUES_HINT)
            out.append(Token("string", sql[i : end + len(tag[0])], pos))
            i = end + len(tag[0])
        elif c == '"':
            j, parts = i + 1, []
            while True:
                k = sql.find('"', j)
                if k < 0:
                    raise _sql_error("42601", "unterminated quoted identifier", pos=pos, hint='close it with "')
                parts.append(sql[j:k])
                if sql[k + 1 : k + 2] == '"':
                    parts.append('"')
                    j = k + 2
                    continue
                break
            name = "".join(parts)
            if not name:
                raise _sql_error("42601", "zero-length delimited identifier", pos=pos, hint="name a column or table")
            out.append(Token("qident", name, pos))
            i = k + 1
        elif c == "`":
            raise _sql_error(
                "42601",
                'syntax error at or near "`": backtick quoting is MySQL syntax',
                pos=pos,
                hint='PostgreSQL quotes identifiers with double quotes ("order"); plain lower-case names need none',
            )
        elif c == "[":
            raise _sql_error(
                "42601",
                'syntax error at or near "[": bracket quoting is SQL Server syntax',
                pos=pos,
                hint='PostgreSQL quotes identifiers with double quotes ("order")',
            )
        elif c == "?":
            raise _sql_error(
                "42601",
                'syntax error at or near "?": ? placeholders are not PostgreSQL parameters',
                pos=pos,
                field="sql",
                hint="number the parameters $1, $2 … in the order of params",
            )
        elif c in ":@" and _WORD.match(sql, i + 1):
            raise _sql_error(
                "42601",
                f'syntax error at or near "{c}": named parameters ({c}name) are not PostgreSQL parameters',
                pos=pos,
                hint="number the parameters $1, $2 … in the order of params",
            )
        elif c.isdigit() or (c == "." and sql[i + 1 : i + 2].isdigit()):
            m2 = _NUMBER.match(sql, i)
            assert m2 is not None
            out.append(Token("number", m2[0], pos))
            i = m2.end()
        elif _WORD.match(sql, i):
            m3 = _WORD.match(sql, i)
            assert m3 is not None
            out.append(Token("word", m3[0], pos))
            i = m3.end()
        elif sql.startswith(("<>", "!=", "<=", ">=", "::", "||"), i):
            out.append(Token("op", sql[i : i + 2], pos))
            i += 2
        elif c in "=<>+-*/%":
            out.append(Token("op", c, pos))
            i += 1
        elif c in "(),.;":
            out.append(Token("punct", c, pos))
            i += 1
        else:
            raise _sql_error("42601", f'syntax error at or near "{c}"', pos=pos, hint=f"accepted: {ACCEPTED}")
    out.append(Token("eof", "", n + 1))
    return out


# -- syntax tree ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ColRef:
    """A column, optionally qualified by its table or alias."""

    qualifier: str | None
    name: str
    pos: int


@dataclass(frozen=True, slots=True)
class Param:
    """A $n parameter."""

    index: int
    pos: int


@dataclass(frozen=True, slots=True)
class Const:
    """NULL, TRUE or FALSE."""

    value: bool | None
    pos: int


@dataclass(frozen=True, slots=True)
class Number:
    """A numeric literal: allowed only in LIMIT, OFFSET and ORDER BY positions."""

    text: str
    pos: int


@dataclass(frozen=True, slots=True)
class Now:
    """now(), current_timestamp (timestamptz) or current_date (date)."""

    type: Literal["timestamptz", "date"]
    pos: int


@dataclass(frozen=True, slots=True)
class Default:
    """DEFAULT in a VALUES list or a SET."""

    pos: int


@dataclass(frozen=True, slots=True)
class Arith:
    """``left + right`` or ``left - right``."""

    op: str
    left: Expr
    right: Expr
    pos: int


@dataclass(frozen=True, slots=True)
class Compare:
    """A comparison: =, <>, <, >, <=, >=."""

    op: str
    left: Expr
    right: Expr
    pos: int


@dataclass(frozen=True, slots=True)
class Like:
    """``operand [NOT] LIKE|ILIKE pattern``."""

    operand: Expr
    pattern: Expr
    negated: bool
    insensitive: bool
    pos: int


@dataclass(frozen=True, slots=True)
class Is:
    """``operand IS [NOT] NULL|TRUE|FALSE``."""

    operand: Expr
    what: bool | None
    negated: bool
    pos: int


@dataclass(frozen=True, slots=True)
class Not:
    """``NOT operand``."""

    operand: Expr
    pos: int


@dataclass(frozen=True, slots=True)
class Logic:
    """``left AND right`` or ``left OR right``."""

    op: Literal["AND", "OR"]
    left: Expr
    right: Expr
    pos: int


Expr: TypeAlias = "ColRef | Param | Const | Number | Now | Default | Arith | Compare | Like | Is | Not | Logic"


@dataclass(frozen=True, slots=True)
class TableRef:
    """The table a statement names: [schema.]name [[AS] alias]."""

    schema: str | None
    name: str
    alias: str | None
    pos: int


@dataclass(frozen=True, slots=True)
class Item:
    """An output column: a column (None with ``star`` for ``*``) or count(*), with its alias."""

    expr: ColRef | None
    alias: str | None
    count: bool
    pos: int


@dataclass(frozen=True, slots=True)
class OrderKey:
    """An ORDER BY key: a column, an output name or a position."""

    key: ColRef | Number
    desc: bool
    nulls_first: bool | None
    pos: int


@dataclass(frozen=True, slots=True)
class Select:
    """SELECT items FROM table [WHERE] [ORDER BY] [LIMIT] [OFFSET]."""

    table: TableRef
    items: tuple[Item, ...]
    where: Expr | None
    order: tuple[OrderKey, ...]
    limit: Number | Param | Const | None
    offset: Number | Param | Const | None


@dataclass(frozen=True, slots=True)
class Insert:
    """INSERT INTO table [(columns)] VALUES (…), … [RETURNING …]."""

    table: TableRef
    columns: tuple[tuple[str, int], ...] | None
    rows: tuple[tuple[Expr, ...], ...]
    returning: tuple[Item, ...] | None


@dataclass(frozen=True, slots=True)
class Update:
    """UPDATE table SET col = value, … WHERE … [RETURNING …]."""

    table: TableRef
    sets: tuple[tuple[str, Expr, int], ...]
    where: Expr | None
    returning: tuple[Item, ...] | None
    pos: int


@dataclass(frozen=True, slots=True)
class Delete:
    """DELETE FROM table WHERE … [RETURNING …]."""

    table: TableRef
    where: Expr | None
    returning: tuple[Item, ...] | None
    pos: int


Statement: TypeAlias = "Select | Insert | Update | Delete"


# -- parser -----------------------------------------------------------------------------------


class Parser:
    """A recursive-descent parser of the dialect: one statement per query.

    Args:
        sql: The query text.
    """

    def __init__(self, sql: str) -> None:
        self.toks = tokenize(sql)
        self.i = 0
        self.nesting = 0

    def deeper(self, tok: Token) -> None:
        """Enter a nested expression; refuse nesting past :data:`MAX_DEPTH`."""
        self.nesting += 1
        if self.nesting > MAX_DEPTH:
            raise _too_deep(tok.pos)

    # -- token helpers

    def peek(self, k: int = 0) -> Token:
        """The token ``k`` ahead (eof past the end)."""
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def take(self) -> Token:
        """The next token, consumed."""
        tok = self.peek()
        self.i = min(self.i + 1, len(self.toks) - 1)
        return tok

    def at(self, *words: str) -> bool:
        """Whether the next token is one of these key words."""
        return self.peek().upper in words

    def accept(self, *words: str) -> bool:
        """Consume the next token if it is one of these key words."""
        if self.at(*words):
            self.take()
            return True
        return False

    def at_punct(self, p: str) -> bool:
        """Whether the next token is this punctuation."""
        tok = self.peek()
        return tok.kind == "punct" and tok.text == p

    def accept_punct(self, p: str) -> bool:
        """Consume the next token if it is this punctuation."""
        if self.at_punct(p):
            self.take()
            return True
        return False

    def at_op(self, *ops: str) -> bool:
        """Whether the next token is one of these operators."""
        tok = self.peek()
        return tok.kind == "op" and tok.text in ops

    def error(self, tok: Token | None = None, hint: str = "") -> ToolFailure:
        """A syntax error at a token."""
        tok = tok or self.peek()
        near = "end of input" if tok.kind == "eof" else f'"{tok.text}"'
        return _sql_error("42601", f"syntax error at or near {near}", pos=tok.pos, hint=hint or f"accepted: {ACCEPTED}")

    def expect(self, word: str) -> Token:
        """Consume a key word or fail."""
        if not self.at(word):
            raise self.error(hint=f"expected {word} here; accepted: {ACCEPTED}")
        return self.take()

    def expect_punct(self, p: str) -> None:
        """Consume punctuation or fail."""
        if not self.accept_punct(p):
            raise self.error(hint=f'expected "{p}" here')

    def ident(self, what: str) -> tuple[str, int]:
        """A name: an unreserved word folded to lower case, or a quoted identifier as written."""
        tok = self.peek()
        if tok.kind == "qident":
            self.take()
            return tok.text, tok.pos
        if tok.kind == "word" and tok.upper not in RESERVED_WORDS:
            self.take()
            return tok.text.lower(), tok.pos
        if tok.kind == "string":
            raise _sql_error(
                "42601",
                f"syntax error at or near {tok.text}: a quoted string is not a {what}",
                pos=tok.pos,
                hint='name it bare (customers) or in double quotes ("customers")',
            )
        raise self.error(tok, hint=f"expected a {what} here")

    # -- statements

    def statement(self) -> Statement:
        """Parse the one statement of the query."""
        tok = self.peek()
        word = tok.upper
        if tok.kind == "eof":
            raise _sql_error("42601", "the query is empty", hint=f"write one statement: {ACCEPTED}")
        stmt: Statement
        if word == "SELECT":
            stmt = self.select()
        elif word == "INSERT":
            stmt = self.insert()
        elif word == "UPDATE":
            stmt = self.update()
        elif word == "DELETE":
            stmt = self.delete()
        elif word in _DDL:
            raise _sql_error(
                "0A000",
                f"{word} is DDL, which the query endpoint does not run",
                pos=tok.pos,
                hint="change tables with sqldb__create_table, sqldb__add_column, sqldb__drop_column and "
                "sqldb__drop_table, schemas with sqldb__create_schema and sqldb__delete_schema",
            )
        elif word in _TX:
            raise _sql_error(
                "0A000",
                f"transaction control ({word}) is not run through a single query",
                pos=tok.pos,
                hint="send the statements together with sqldb__run_transaction: they commit or roll back as one",
            )
        elif word == "WITH":
            raise _refuse("WITH (common table expressions)", tok.pos)
        elif word in ("SHOW", "DESCRIBE", "DESC", "EXPLAIN"):
            raise _refuse(word, tok.pos, "list tables with sqldb__list_tables and read one with sqldb__describe_table")
        elif word in ("REPLACE", "UPSERT", "MERGE"):
            raise _refuse(word, tok.pos, "SELECT the row by its key first, then INSERT or UPDATE it")
        elif word == "USE":
            raise _refuse("USE", tok.pos, "pass the database's database_id instead")
        else:
            raise self.error(tok)
        self.accept_punct(";")
        rest = self.peek()
        if rest.kind != "eof":
            if self.toks[self.i - 1].text == ";":
                raise _sql_error(
                    "42601",
                    "cannot insert multiple commands into a prepared statement",
                    pos=rest.pos,
                    hint="send one statement per query; run several together with sqldb__run_transaction",
                )
            raise self.error(rest)
        return stmt

    def select(self) -> Select:
        """SELECT … FROM … ."""
        self.expect("SELECT")
        tok = self.peek()
        if tok.upper == "TOP":
            raise _sql_error(
                "42601",
                'syntax error at or near "TOP": SELECT TOP n is SQL Server syntax',
                pos=tok.pos,
                hint="put LIMIT n at the end of the query",
            )
        if self.at("DISTINCT", "ALL"):
            raise _refuse(f"SELECT {tok.upper}", tok.pos, "select the columns you need; DISTINCT is not accepted")
        items = self.items()
        if not self.at("FROM"):
            where = self.peek()
            if where.kind == "eof" or self.at("WHERE", "ORDER", "LIMIT"):
                raise _sql_error(
                    "0A000", "SELECT without FROM is not supported", pos=where.pos, hint="SELECT … FROM one table"
                )
            raise self.error(where, hint="separate output columns with commas, then FROM table")
        self.take()
        table = self.table_ref(alias=True)
        self.no_joins()
        where_expr = self.expr() if self.accept("WHERE") else None
        tok = self.peek()
        if tok.upper in ("GROUP", "HAVING", "WINDOW"):
            raise _refuse(f"{tok.upper} BY" if tok.upper == "GROUP" else tok.upper, tok.pos)
        order: list[OrderKey] = []
        if self.accept("ORDER"):
            self.expect("BY")
            order.append(self.order_key())
            while self.accept_punct(","):
                order.append(self.order_key())
        limit: Number | Param | Const | None = None
        offset: Number | Param | Const | None = None
        for _ in range(2):
            if limit is None and self.accept("LIMIT"):
                limit = self.limit_value()
            elif offset is None and self.accept("OFFSET"):
                offset = self.count_value("OFFSET")
                self.accept("ROW", "ROWS")
        tok = self.peek()
        if tok.upper in ("UNION", "INTERSECT", "EXCEPT"):
            raise _refuse(tok.upper, tok.pos, "run one query per table")
        if tok.upper == "FETCH":
            raise _refuse("FETCH FIRST", tok.pos, "put LIMIT n at the end of the query")
        if tok.upper == "FOR":
            raise _refuse("FOR UPDATE / FOR SHARE", tok.pos, "run the statements in sqldb__run_transaction instead")
        return Select(table, items, where_expr, tuple(order), limit, offset)

    def items(self) -> tuple[Item, ...]:
        """The output list: *, columns with aliases, or count(*)."""
        items: list[Item] = []
        while True:
            tok = self.peek()
            if self.at_op("*"):
                self.take()
                items.append(Item(None, None, False, tok.pos))
            elif tok.upper == "COUNT" and self.peek(1).text == "(":
                self.take()
                self.take()
                if not self.at_op("*"):
                    raise _refuse("count(expression)", self.peek().pos, "count rows with count(*) and a WHERE")
                self.take()
                self.expect_punct(")")
                items.append(Item(None, self.alias(), True, tok.pos))
            else:
                expr = self.primary()
                if not isinstance(expr, ColRef):
                    if isinstance(expr, Param | Number | Const | Now):
                        raise _refuse(
                            "an output column that is not a table column", tok.pos, "list the table's columns, or *"
                        )
                    raise _refuse("expressions in the SELECT list", tok.pos, "list the table's columns, or *")
                if self.at_op("+", "-", "||", "*", "/"):
                    raise _refuse("expressions in the SELECT list", self.peek().pos, "list the table's columns, or *")
                if self.at_punct(".") and self.peek(1).text == "*":
                    raise _refuse("table.* in the SELECT list", tok.pos, "write * alone")
                items.append(Item(expr, self.alias(), False, tok.pos))
            if not self.accept_punct(","):
                return tuple(items)

    def alias(self) -> str | None:
        """[AS] alias, if there is one."""
        if self.accept("AS"):
            return self.ident("column alias")[0]
        tok = self.peek()
        if tok.kind == "qident" or (tok.kind == "word" and tok.upper not in RESERVED_WORDS):
            return self.ident("column alias")[0]
        return None

    def table_ref(self, *, alias: bool) -> TableRef:
        """[schema.]table [[AS] alias]."""
        first, pos = self.ident("table name")
        schema, name = None, first
        if self.accept_punct("."):
            schema, name = first, self.ident("table name")[0]
            if self.at_punct("."):
                self.take()
                last = self.ident("table name")[0]
                raise _sql_error(
                    "0A000",
                    f'cross-database references are not implemented: "{first}.{name}.{last}"',
                    pos=pos,
                    hint="name the table as schema.table and pass the database's database_id",
                )
        if alias and self.peek().text == "(":
            raise _refuse("a function in FROM", self.peek().pos, "select from a table")
        as_name: str | None = None
        if alias:
            if self.accept("AS"):
                as_name = self.ident("alias")[0]
            else:
                tok = self.peek()
                if tok.kind == "qident" or (
                    tok.kind == "word" and tok.upper not in RESERVED_WORDS | {"SET", "VALUES", "GROUP", "FETCH"}
                ):
                    as_name = self.ident("alias")[0]
        return TableRef(schema, name, as_name, pos)

    def no_joins(self) -> None:
        """Refuse a second table: a JOIN or a comma join."""
        tok = self.peek()
        if tok.upper in _JOINS or self.at_punct(","):
            raise _refuse(
                "querying more than one table (JOIN)",
                tok.pos,
                "query one table at a time: read the keys from the first result and pass them as parameters",
            )
        if tok.upper == "WITH":
            raise _refuse("table hints (WITH …)", tok.pos)

    def order_key(self) -> OrderKey:
        """An ORDER BY key: col | position [ASC|DESC] [NULLS FIRST|LAST]."""
        tok = self.peek()
        key: ColRef | Number
        if tok.kind == "number":
            self.take()
            key = Number(tok.text, tok.pos)
        else:
            expr = self.add()
            if not isinstance(expr, ColRef):
                raise _refuse("ordering by an expression", tok.pos, "ORDER BY a column, an output name or a position")
            key = expr
        desc = False
        if self.accept("DESC"):
            desc = True
        else:
            self.accept("ASC")
        nulls: bool | None = None
        if self.accept("NULLS"):
            if self.accept("FIRST"):
                nulls = True
            elif self.accept("LAST"):
                nulls = False
            else:
                raise self.error(hint="NULLS FIRST or NULLS LAST")
        return OrderKey(key, desc, nulls, tok.pos)

    def limit_value(self) -> Number | Param | Const | None:
        """LIMIT n | $n | ALL | NULL; refuses MySQL's LIMIT offset, count."""
        tok = self.peek()
        if self.accept("ALL"):
            return None
        value = self.count_value("LIMIT")
        if self.at_punct(","):
            raise _sql_error(
                "42601",
                "LIMIT #,# syntax is not supported",
                pos=self.peek().pos,
                hint="use separate LIMIT and OFFSET clauses: LIMIT count OFFSET skip",
            )
        if isinstance(value, Const) and value.value is not None:
            raise self.error(tok)
        return value

    def count_value(self, clause: str) -> Number | Param | Const:
        """A LIMIT or OFFSET count: a whole number, a parameter or NULL."""
        tok = self.peek()
        if tok.kind == "number":
            self.take()
            return Number(tok.text, tok.pos)
        if tok.kind == "param":
            self.take()
            return Param(int(tok.text), tok.pos)
        if clause == "LIMIT" and self.accept("NULL"):
            return Const(None, tok.pos)
        raise self.error(tok, hint=f"{clause} takes a whole number or a $n parameter")

    def insert(self) -> Insert:
        """INSERT INTO … VALUES … ."""
        self.expect("INSERT")
        tok = self.peek()
        if tok.upper == "IGNORE":
            raise _refuse("INSERT IGNORE (MySQL)", tok.pos, "SELECT the row by its key first, then INSERT if missing")
        self.expect("INTO")
        table = self.table_ref(alias=False)
        if self.accept("AS"):
            self.ident("alias")
        columns: list[tuple[str, int]] | None = None
        if self.accept_punct("("):
            columns = [self.ident("column name")]
            while self.accept_punct(","):
                columns.append(self.ident("column name"))
            self.expect_punct(")")
        tok = self.peek()
        if tok.upper == "SELECT":
            raise _refuse("INSERT … SELECT", tok.pos, "give the values with VALUES ($1, …)")
        if tok.upper == "DEFAULT":
            raise _refuse("DEFAULT VALUES", tok.pos, "list the columns and give VALUES (DEFAULT, …)")
        if tok.upper == "SET":
            raise _refuse("INSERT … SET (MySQL)", tok.pos, "write INSERT INTO table (cols) VALUES ($1, …)")
        self.expect("VALUES")
        rows = [self.values_row()]
        while self.accept_punct(","):
            rows.append(self.values_row())
        tok = self.peek()
        if tok.upper == "ON":
            word = self.peek(1).upper
            if word == "DUPLICATE":
                raise _refuse("ON DUPLICATE KEY UPDATE (MySQL)", tok.pos, "SELECT the row by its key, then UPDATE it")
            raise _refuse("ON CONFLICT", tok.pos, "SELECT the row by its key first, then INSERT or UPDATE it")
        returning = self.returning()
        return Insert(table, None if columns is None else tuple(columns), tuple(rows), returning)

    def values_row(self) -> tuple[Expr, ...]:
        """(value, …) of VALUES."""
        self.expect_punct("(")
        row = [self.value_expr()]
        while self.accept_punct(","):
            row.append(self.value_expr())
        self.expect_punct(")")
        return tuple(row)

    def value_expr(self) -> Expr:
        """A value in VALUES or SET: DEFAULT or an expression."""
        tok = self.peek()
        if self.accept("DEFAULT"):
            return Default(tok.pos)
        return self.add()

    def returning(self) -> tuple[Item, ...] | None:
        """[RETURNING items]."""
        if not self.accept("RETURNING"):
            return None
        items = self.items()
        for item in items:
            if item.count:
                raise _sql_error(
                    "42803", "aggregate functions are not allowed in RETURNING", pos=item.pos, hint="return columns"
                )
        return items

    def update(self) -> Update:
        """UPDATE … SET … WHERE … ."""
        start = self.expect("UPDATE")
        table = self.table_ref(alias=True)
        self.expect("SET")
        sets: list[tuple[str, Expr, int]] = []
        while True:
            if self.at_punct("("):
                raise _refuse("SET (a, b) = (…)", self.peek().pos, "assign each column: SET a = $1, b = $2")
            name, pos = self.ident("column name")
            if self.at_punct("."):
                raise _sql_error(
                    "42703",
                    f'column "{name}" of relation "{table.name}" does not exist',
                    pos=pos,
                    hint="do not qualify the columns of SET: SET email = $1",
                    kind=NotFound,
                )
            if not self.at_op("="):
                raise self.error(hint="SET column = value")
            self.take()
            sets.append((name, self.value_expr(), pos))
            if not self.accept_punct(","):
                break
        tok = self.peek()
        if tok.upper == "FROM":
            raise _refuse("UPDATE … FROM", tok.pos, "update one table; pass the other table's keys as parameters")
        where = self.expr() if self.accept("WHERE") else None
        if self.at("ORDER", "LIMIT"):
            raise _refuse(f"{self.peek().upper} in UPDATE (MySQL)", self.peek().pos, "narrow the rows with WHERE")
        return Update(table, tuple(sets), where, self.returning(), start.pos)

    def delete(self) -> Delete:
        """DELETE FROM … WHERE … ."""
        start = self.expect("DELETE")
        if not self.at("FROM"):
            raise self.error(hint="write DELETE FROM table WHERE …")
        self.take()
        table = self.table_ref(alias=True)
        tok = self.peek()
        if tok.upper == "USING":
            raise _refuse("DELETE … USING", tok.pos, "delete from one table; pass the keys as parameters")
        where = self.expr() if self.accept("WHERE") else None
        if self.at("ORDER", "LIMIT"):
            raise _refuse(f"{self.peek().upper} in DELETE (MySQL)", self.peek().pos, "narrow the rows with WHERE")
        return Delete(table, where, self.returning(), start.pos)

    # -- expressions, loosest first: OR, AND, NOT, IS, comparison, LIKE, + and -

    def expr(self) -> Expr:
        """An expression (as WHERE takes it)."""
        left = self.conj()
        while self.at("OR"):
            tok = self.take()
            left = Logic("OR", left, self.conj(), tok.pos)
        return left

    def conj(self) -> Expr:
        """``a AND b``."""
        left = self.negation()
        while self.at("AND"):
            tok = self.take()
            left = Logic("AND", left, self.negation(), tok.pos)
        return left

    def negation(self) -> Expr:
        """``NOT a``."""
        if self.at("NOT"):
            tok = self.take()
            self.deeper(tok)
            inner = self.negation()
            self.nesting -= 1
            return Not(inner, tok.pos)
        return self.is_test()

    def is_test(self) -> Expr:
        """``a IS [NOT] NULL|TRUE|FALSE``."""
        left = self.comparison()
        while self.at("IS", "ISNULL", "NOTNULL"):
            tok = self.take()
            if tok.upper != "IS":
                left = Is(left, None, tok.upper == "NOTNULL", tok.pos)
                continue
            negated = self.accept("NOT")
            if self.accept("NULL"):
                left = Is(left, None, negated, tok.pos)
            elif self.accept("TRUE"):
                left = Is(left, True, negated, tok.pos)
            elif self.accept("FALSE"):
                left = Is(left, False, negated, tok.pos)
            elif self.at("DISTINCT"):
                raise _refuse("IS DISTINCT FROM", tok.pos, "compare with = and test NULL with IS NULL")
            else:
                raise self.error(hint="IS [NOT] NULL, IS [NOT] TRUE or IS [NOT] FALSE")
        return left

    def comparison(self) -> Expr:
        """``a op b`` with one of =, <>, !=, <, >, <=, >=."""
        left = self.like()
        if self.at_op("=", "<>", "!=", "<", ">", "<=", ">="):
            tok = self.take()
            op = "<>" if tok.text == "!=" else tok.text
            right = self.like()
            if self.at_op("=", "<>", "!=", "<", ">", "<=", ">="):
                raise self.error(hint="comparisons do not chain: join them with AND")
            return Compare(op, left, right, tok.pos)
        return left

    def like(self) -> Expr:
        """``a [NOT] LIKE|ILIKE b``; refuses IN, BETWEEN and SIMILAR TO."""
        left = self.add()
        tok = self.peek()
        negated = False
        if tok.upper == "NOT" and self.peek(1).upper in ("LIKE", "ILIKE", "IN", "BETWEEN", "SIMILAR"):
            self.take()
            negated = True
            tok = self.peek()
        if tok.upper in ("LIKE", "ILIKE"):
            self.take()
            pattern = self.add()
            if self.at("ESCAPE"):
                raise _refuse("LIKE … ESCAPE", self.peek().pos, "escape % and _ with a backslash in the pattern")
            return Like(left, pattern, negated, tok.upper == "ILIKE", tok.pos)
        if tok.upper == "IN":
            raise _refuse("IN (…)", tok.pos, "write col = $1 OR col = $2 …")
        if tok.upper == "BETWEEN":
            raise _refuse("BETWEEN", tok.pos, "write col >= $1 AND col <= $2")
        if tok.upper == "SIMILAR":
            raise _refuse("SIMILAR TO", tok.pos, "match patterns with LIKE or ILIKE")
        if self.at_op("~", "~*"):
            raise _refuse("regular expression matching", tok.pos, "match patterns with LIKE or ILIKE")
        return left

    def add(self) -> Expr:
        """``a + b``, ``a - b``."""
        left = self.primary()
        while self.at_op("+", "-", "*", "/", "%", "||"):
            tok = self.take()
            if tok.text not in "+-":
                raise _refuse(f'the operator "{tok.text}"', tok.pos, "arithmetic takes + and - only")
            left = Arith(tok.text, left, self.primary(), tok.pos)
        return left

    def primary(self) -> Expr:
        """A parameter, a column, NULL, TRUE, FALSE, now(), current_date or a parenthesised expression."""
        tok = self.peek()
        expr: Expr
        if tok.kind == "param":
            self.take()
            expr = Param(int(tok.text), tok.pos)
        elif tok.kind == "string":
            raise _sql_error(
                "0A000",
                f"a quoted string ({tok.text[:40]}) where a value belongs: values must be passed as parameters",
                pos=tok.pos,
                hint=_VALUES_HINT,
            )
        elif tok.kind == "number":
            self.take()
            expr = Number(tok.text, tok.pos)
        elif self.accept_punct("("):
            if self.at("SELECT"):
                raise _refuse("subqueries", tok.pos, "run the inner query first and pass its values as parameters")
            self.deeper(tok)
            expr = self.expr()
            self.nesting -= 1
            self.expect_punct(")")
        elif tok.upper in ("NULL", "TRUE", "FALSE"):
            self.take()
            expr = Const(None if tok.upper == "NULL" else tok.upper == "TRUE", tok.pos)
        elif tok.upper in ("CURRENT_DATE", "CURRENT_TIMESTAMP"):
            self.take()
            expr = Now("date" if tok.upper == "CURRENT_DATE" else "timestamptz", tok.pos)
        elif tok.upper == "NOW" and self.peek(1).text == "(":
            self.take()
            self.take()
            self.expect_punct(")")
            expr = Now("timestamptz", tok.pos)
        elif tok.upper in ("CASE", "EXISTS", "CAST", "ARRAY", "INTERVAL", "ROW"):
            raise _refuse(tok.upper, tok.pos)
        elif tok.kind == "op" and tok.text in "+-":
            raise _refuse("a signed value", tok.pos, "put the sign in the parameter's value")
        elif tok.kind == "word" and self.peek(1).text == "(":
            raise _sql_error(
                "42883",
                f"function {tok.text.lower()}() is not available",
                pos=tok.pos,
                hint="the functions accepted are now(), current_date and count(*)",
                kind=NotFound,
            )
        elif tok.kind in ("word", "qident"):
            name, pos = self.ident("column name")
            qualifier: str | None = None
            if self.accept_punct("."):
                if self.at_op("*"):
                    raise _refuse("table.* in the SELECT list", pos, "write * alone")
                qualifier, name = name, self.ident("column name")[0]
            expr = ColRef(qualifier, name, pos)
        else:
            raise self.error(tok)
        if self.at_op("::"):
            raise _refuse(
                "casts (::type)", self.peek().pos, "parameters take the type of the column they are compared with"
            )
        return expr


def _too_deep(pos: int) -> ToolFailure:
    return _sql_error(
        "54001",
        f"the expression nests or chains more than {MAX_DEPTH} levels",
        pos=pos,
        hint="split the work into several queries, or narrow it with fewer conditions",
    )


def _children(e: Expr) -> tuple[Expr, ...]:
    if isinstance(e, Arith | Compare | Logic):
        return (e.left, e.right)
    if isinstance(e, Like):
        return (e.operand, e.pattern)
    if isinstance(e, Is | Not):
        return (e.operand,)
    return ()


def _check_depth(e: Expr | None) -> None:
    """Refuse an expression deeper than :data:`MAX_DEPTH` (long AND / OR chains nest too), without recursing."""
    stack = [] if e is None else [(e, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _too_deep(node.pos)
        stack.extend((child, depth + 1) for child in _children(node))


def parse(sql: str) -> Statement:
    """Parse a query of the dialect into its statement."""
    stmt = Parser(sql).statement()
    if isinstance(stmt, Insert):
        for row in stmt.rows:
            for value in row:
                _check_depth(value)
    elif isinstance(stmt, Update):
        for _, value, _ in stmt.sets:
            _check_depth(value)
    if not isinstance(stmt, Insert):
        _check_depth(stmt.where)
    return stmt


# -- binding: names, types and parameters -------------------------------------------------------


TablesFn = Callable[[], Sequence[Table]]
RowsFn = Callable[[str], Sequence[Row]]


def _resolve_table(tables: Sequence[Table], ref: TableRef) -> Table:
    schema = ref.schema or "public"
    for t in tables:
        if t.name == ref.name and t.schema_name == schema:
            return t
    shown = ref.name if ref.schema is None else f"{ref.schema}.{ref.name}"
    names = sorted(t.name if t.schema_name == "public" else f"{t.schema_name}.{t.name}" for t in tables)
    elsewhere = [t for t in tables if t.name == ref.name.lower()]
    hint = f"tables here: {', '.join(names) or 'none'}"
    if elsewhere and ref.name != ref.name.lower():
        hint = f'quoted names keep their case; the table is {ref.name.lower()} (unquoted or "{ref.name.lower()}")'
    elif ref.schema is None and any(t.name == ref.name for t in tables):
        other = next(t for t in tables if t.name == ref.name)
        hint = f"it is in schema {other.schema_name}: write {other.schema_name}.{other.name}"
    raise _sql_error("42P01", f'relation "{shown}" does not exist', pos=ref.pos, hint=hint, kind=NotFound)


class Binder:
    """Resolves a statement's columns against its table and deduces each parameter's type from where it is used.

    Args:
        table: The statement's table.
        ref: How the statement names it.
    """

    def __init__(self, table: Table, ref: TableRef) -> None:
        self.table = table
        self.ref = ref
        self.cols = {c.name: c for c in self.table.columns}
        self.ptypes: dict[int, ColumnType] = {}
        self.ppos: dict[int, int] = {}

    def column(self, ref: ColRef) -> Column:
        """The table's column a reference names."""
        if ref.qualifier is not None:
            names = {self.ref.alias} if self.ref.alias else {self.table.name}
            if ref.qualifier not in names:
                hint = f"qualify columns with {self.ref.alias or self.table.name}, or not at all"
                if self.ref.alias and ref.qualifier == self.table.name:
                    msg = f'invalid reference to FROM-clause entry for table "{self.table.name}"'
                    hint = f"the table is called {self.ref.alias} in this query"
                else:
                    msg = f'missing FROM-clause entry for table "{ref.qualifier}"'
                raise _sql_error("42P01", msg, pos=ref.pos, hint=hint, kind=NotFound)
        col = self.cols.get(ref.name)
        if col is None:
            hint = f"columns of {self.table.name}: {', '.join(self.cols)}"
            if ref.name.lower() in self.cols:
                hint = f"quoted names keep their case; the column is {ref.name.lower()}"
            elif "@" in ref.name or " " in ref.name:
                hint = f"double quotes name columns in PostgreSQL; {_VALUES_HINT}"
            raise _sql_error("42703", f'column "{ref.name}" does not exist', pos=ref.pos, hint=hint, kind=NotFound)
        return col

    def param(self, p: Param, typ: ColumnType | None) -> ColumnType | None:
        """Deduce (or check) a parameter's type; None while nothing says it."""
        if p.index < 1:
            raise _sql_error("42P02", f"there is no parameter ${p.index}", pos=p.pos, hint="parameters start at $1")
        known = self.ptypes.get(p.index)
        if typ is None:
            return known
        if known is not None and known != typ:
            raise _sql_error(
                "42P08",
                f"inconsistent types deduced for parameter ${p.index}: {TYPE_NAMES[known]} versus {TYPE_NAMES[typ]}",
                pos=p.pos,
                hint="use a separate parameter for each column of another type",
            )
        self.ptypes[p.index] = typ
        self.ppos.setdefault(p.index, p.pos)
        return typ

    def typeof(self, e: Expr, want: ColumnType | None = None) -> ColumnType | None:
        """The type of an expression; a parameter takes ``want``. None for NULL and undeduced parameters."""
        if isinstance(e, ColRef):
            return self.column(e).type
        if isinstance(e, Param):
            return self.param(e, want)
        if isinstance(e, Const):
            return None if e.value is None else "boolean"
        if isinstance(e, Number):
            raise _sql_error(
                "0A000",
                f"a number ({e.text}) where a value belongs: values must be passed as parameters",
                pos=e.pos,
                hint=_VALUES_HINT,
            )
        if isinstance(e, Now):
            return e.type
        if isinstance(e, Default):
            raise _sql_error(
                "42601",
                "DEFAULT is not allowed in this context",
                pos=e.pos,
                hint="DEFAULT stands alone as a value of VALUES or SET",
            )
        if isinstance(e, Arith):
            return self.arith(e)
        if isinstance(e, Compare):
            self.pair(e.left, e.right, e.op, e.pos)
            return "boolean"
        if isinstance(e, Like):
            op = ("!" if e.negated else "") + ("~~*" if e.insensitive else "~~")
            left = self.typeof(e.operand, "text")
            right = self.typeof(e.pattern, "text")
            for side in (left, right):
                if side not in ("text", None):
                    raise _sql_error(
                        "42883",
                        f"operator does not exist: {TYPE_NAMES[side]} {op} text",
                        pos=e.pos,
                        hint="LIKE and ILIKE match text columns; compare other types with =, <, >",
                        kind=NotFound,
                    )
            return "boolean"
        if isinstance(e, Is):
            t = self.typeof(e.operand, "boolean" if e.what is not None else None)
            if isinstance(e.operand, Param) and t is None:
                raise self.indeterminate(e.operand.index, e.operand.pos)
            if e.what is not None and t not in ("boolean", None):
                raise _sql_error(
                    "42804",
                    f"argument of IS {'TRUE' if e.what else 'FALSE'} must be type boolean, not type {TYPE_NAMES[t]}",
                    pos=e.pos,
                    hint="IS TRUE and IS FALSE test boolean columns",
                )
            return "boolean"
        if isinstance(e, Not):
            self.boolean(e.operand, "NOT")
            return "boolean"
        self.boolean(e.left, e.op)
        self.boolean(e.right, e.op)
        return "boolean"

    def boolean(self, e: Expr, where: str) -> None:
        """Check that an expression is a condition."""
        t = self.typeof(e, "boolean")
        if t not in ("boolean", None):
            raise _sql_error(
                "42804",
                f"argument of {where} must be type boolean, not type {TYPE_NAMES[t]}",
                pos=getattr(e, "pos", None),
                hint="compare the column with a parameter: col = $1",
            )

    def pair(self, left: Expr, right: Expr, op: str, pos: int) -> ColumnType | None:
        """Types of the two sides of a comparison: a parameter takes the other side's type."""
        lt = self.typeof(left)
        rt = self.typeof(right, lt)
        if lt is None and rt is not None:
            lt = self.typeof(left, rt)
        if lt is None and rt is None:
            p = left if isinstance(left, Param) else right
            if isinstance(p, Param):
                raise self.indeterminate(p.index, p.pos)
            return None
        if lt is None or rt is None or lt == rt or {lt, rt} == {"integer", "numeric"}:
            return lt or rt
        if {lt, rt} == {"date", "timestamptz"}:
            return "timestamptz"
        raise _sql_error(
            "42883",
            f"operator does not exist: {TYPE_NAMES[lt]} {op} {TYPE_NAMES[rt]}",
            pos=pos,
            hint="compare a column with a parameter or a column of the same type",
            kind=NotFound,
        )

    def arith(self, e: Arith) -> ColumnType | None:
        """Type of ``a + b`` / ``a - b``: numbers, or a date moved by whole days."""
        lt = self.typeof(e.left)
        rt = self.typeof(e.right, "integer" if lt == "date" else lt)
        if lt is None and rt is not None:
            lt = self.typeof(e.left, "integer" if rt == "date" else rt)
        if lt is None or rt is None:
            for side in (e.left, e.right):
                if isinstance(side, Param) and self.ptypes.get(side.index) is None:
                    raise self.indeterminate(side.index, side.pos)
            return lt or rt
        if lt in ("integer", "numeric") and rt in ("integer", "numeric"):
            return "numeric" if "numeric" in (lt, rt) else "integer"
        if lt == "date" and rt == "integer":
            return "date"
        if lt == "integer" and rt == "date" and e.op == "+":
            return "date"
        raise _sql_error(
            "42883",
            f"operator does not exist: {TYPE_NAMES[lt]} {e.op} {TYPE_NAMES[rt]}",
            pos=e.pos,
            hint="+ and - work on integer and numeric columns, and move a date by whole days",
            kind=NotFound,
        )

    def indeterminate(self, index: int, pos: int) -> ToolFailure:
        """A parameter nothing gives a type to."""
        return _sql_error(
            "42P18",
            f"could not determine data type of parameter ${index}",
            pos=pos,
            hint="compare the parameter with a column (col = $1) so that it takes the column's type",
        )

    def finish(self, params: Sequence[ParamValue]) -> list[Py]:
        """Check the parameters against those the statement uses and read each as its deduced type."""
        top = max(self.ptypes, default=0)
        for k in range(1, top + 1):
            if k not in self.ptypes:
                raise _sql_error(
                    "42P18",
                    f"could not determine data type of parameter ${k}",
                    hint=f"the statement uses up to ${top}: use every number from $1 to ${top}",
                )
        if len(params) != top:
            raise _sql_error(
                "08P01",
                f'bind message supplies {len(params)} parameters, but prepared statement "" requires {top}',
                field="params",
                hint=f"give exactly {top} value(s) in params, one per $n, in order",
            )
        return [coerce(v, self.ptypes[k + 1], f"params.{k}") for k, v in enumerate(params)]


# -- evaluation -------------------------------------------------------------------------------


_ANY, _ONE = object(), object()


def like_tokens(pattern: str, insensitive: bool) -> list[object]:
    """A LIKE pattern as tokens: % (any run), _ (one character) and literal characters (backslash escapes)."""
    out: list[object] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= len(pattern):
                raise _sql_error(
                    "22025",
                    "LIKE pattern must not end with escape character",
                    field="params",
                    hint="escape a literal backslash as \\\\",
                )
            out.extend(pattern[i + 1].lower() if insensitive else pattern[i + 1])
            i += 2
            continue
        if ch == "%":
            if not out or out[-1] is not _ANY:
                out.append(_ANY)
        elif ch == "_":
            out.append(_ONE)
        else:
            out.extend(ch.lower() if insensitive else ch)
        i += 1
    return out


def like_match(text: str, pattern: str, insensitive: bool) -> bool:
    """Whether ``text`` matches a LIKE (or ILIKE) pattern as a whole.

    Greedy matching that backs up to the last %: at most len(text) x len(pattern) steps, whatever the pattern.
    """
    toks = like_tokens(pattern, insensitive)
    if insensitive:
        text = text.lower()
    t = p = 0
    star, mark = -1, 0
    while t < len(text):
        if p < len(toks) and (toks[p] is _ONE or toks[p] == text[t]):
            t += 1
            p += 1
        elif p < len(toks) and toks[p] is _ANY:
            star, mark = p, t
            p += 1
        elif star >= 0:
            p, mark = star + 1, mark + 1
            t = mark
        else:
            return False
    while p < len(toks) and toks[p] is _ANY:
        p += 1
    return p == len(toks)


@dataclass(frozen=True, slots=True)
class Env:
    """What evaluation needs besides the row: the parameters' values, the clock, column types."""

    params: Sequence[Py]
    now: dt.datetime
    types: dict[str, ColumnType]


def _num(v: Py) -> Decimal | int:
    assert isinstance(v, int | Decimal) and not isinstance(v, bool)
    return v


def evaluate(e: Expr, row: dict[str, Py], env: Env) -> Py:
    """The value of an expression on a row, with SQL's three-valued logic (None is unknown)."""
    if isinstance(e, ColRef):
        return row[e.name]
    if isinstance(e, Param):
        return env.params[e.index - 1]
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Now):
        return env.now if e.type == "timestamptz" else env.now.date()
    if isinstance(e, Arith):
        a, b = evaluate(e.left, row, env), evaluate(e.right, row, env)
        if a is None or b is None:
            return None
        if isinstance(a, dt.date) and not isinstance(a, dt.datetime):
            days = dt.timedelta(days=int(_num(b)))
            return a + days if e.op == "+" else a - days
        if isinstance(b, dt.date) and not isinstance(b, dt.datetime):
            return b + dt.timedelta(days=int(_num(a)))
        x, y = _num(a), _num(b)
        if isinstance(x, Decimal) or isinstance(y, Decimal):
            x, y = Decimal(x), Decimal(y)
        return x + y if e.op == "+" else x - y
    if isinstance(e, Compare):
        a, b = evaluate(e.left, row, env), evaluate(e.right, row, env)
        if a is None or b is None:
            return None
        if isinstance(a, dt.datetime) != isinstance(b, dt.datetime):
            a, b = (_as_ts(a), _as_ts(b))
        return _compare(a, b, e.op)
    if isinstance(e, Like):
        a, b = evaluate(e.operand, row, env), evaluate(e.pattern, row, env)
        if a is None or b is None:
            return None
        found = like_match(str(a), str(b), e.insensitive)
        return found != e.negated
    if isinstance(e, Is):
        v = evaluate(e.operand, row, env)
        hit = v is None if e.what is None else v is e.what
        return hit != e.negated
    if isinstance(e, Not):
        v = evaluate(e.operand, row, env)
        return None if v is None else not v
    if isinstance(e, Logic):
        a, b = evaluate(e.left, row, env), evaluate(e.right, row, env)
        if e.op == "AND":
            return False if a is False or b is False else None if a is None or b is None else True
        return True if a is True or b is True else None if a is None or b is None else False
    raise AssertionError(f"cannot evaluate {e!r}")


def _as_ts(v: Py) -> Py:
    if isinstance(v, dt.date) and not isinstance(v, dt.datetime):
        return dt.datetime.combine(v, dt.time(), tzinfo=dt.UTC)
    return v


def _compare(a: Any, b: Any, op: str) -> bool:
    if op == "=":
        return bool(a == b)
    if op == "<>":
        return bool(a != b)
    if op == "<":
        return bool(a < b)
    if op == ">":
        return bool(a > b)
    if op == "<=":
        return bool(a <= b)
    return bool(a >= b)


# -- results ----------------------------------------------------------------------------------


class ResultField(BaseModel):
    """An output column of a result."""

    name: str = Field(description="Column name (or alias).")
    data_type: ColumnType = Field(description="Its type.")


class QueryResult(BaseModel):
    """What a statement returned, as the SQL-over-HTTP endpoint answers."""

    command: Command = Field(description="SELECT, INSERT, UPDATE or DELETE.")
    row_count: int = Field(description="Rows returned (SELECT) or affected (INSERT, UPDATE, DELETE).")
    fields: list[ResultField] = Field(description="Output columns (empty for a write without RETURNING).")
    rows: list[dict[str, CellValue]] = Field(
        description="Rows by column name; numeric, date and timestamptz values as text."
    )
    query_run_id: QueryRunId | None = Field(description="The history entry of the run (null for a preview).")


@dataclass(slots=True)
class Outcome:
    """A statement executed: its command, row count, output and the table it touched."""

    command: Command
    row_count: int
    fields: list[ResultField]
    rows: list[dict[str, CellValue]]
    table: Table


# -- execution --------------------------------------------------------------------------------


def _key(values: dict[str, CellValue], columns: Sequence[str]) -> tuple[CellValue, ...] | None:
    """A row's key on some columns, or None when one is NULL (NULLs never clash nor reference)."""
    key = tuple(values.get(c) for c in columns)
    return None if any(v is None for v in key) else key


def _key_text(columns: Sequence[str], key: Sequence[CellValue]) -> str:
    return f"Key ({', '.join(columns)})=({', '.join('' if v is None else str(v) for v in key)})"


class Executor:
    """Runs bound statements against one database's tables and rows.

    Args:
        tables: The database's tables (read again after every DDL-free write: rows change, tables only their
            sequences).
        rows: The current rows of a table.
        now: The clock.
        ctx: The call's context for writes; None for a read-only run (a preview, or the seeder's history).
    """

    def __init__(self, tables: TablesFn, rows: RowsFn, now: dt.datetime, ctx: Ctx | None = None) -> None:
        self.tables = tables
        self.rows = rows
        self.now = now
        self.ctx = ctx

    # -- planning

    def bind(self, stmt: Statement) -> tuple[Table, Binder]:
        """Resolve the statement's table and columns and deduce its parameters' types."""
        table = _resolve_table(self.tables(), stmt.table)
        b = Binder(table, stmt.table)
        if isinstance(stmt, Select):
            for item in stmt.items:
                if item.expr is not None:
                    b.column(item.expr)
            if any(i.count for i in stmt.items) and (len(stmt.items) > 1 or stmt.order):
                other = next((i for i in stmt.items if not i.count), None)
                pos = other.pos if other else stmt.order[0].pos
                raise _sql_error(
                    "42803",
                    "columns must appear in the GROUP BY clause or be used in an aggregate function",
                    pos=pos,
                    hint="select count(*) alone (GROUP BY is not accepted)",
                )
            if stmt.where is not None:
                b.boolean(stmt.where, "WHERE")
            for key in stmt.order:
                if isinstance(key.key, ColRef) and not self._output_name(stmt, key.key):
                    b.column(key.key)
            for count in (stmt.limit, stmt.offset):
                if isinstance(count, Param):
                    b.param(count, "integer")
        elif isinstance(stmt, Insert):
            self._bind_insert(stmt, b)
        elif isinstance(stmt, Update):
            seen: set[str] = set()
            for name, value, pos in stmt.sets:
                col = b.column(ColRef(None, name, pos))
                if name in seen:
                    raise _sql_error(
                        "42601", f'multiple assignments to same column "{name}"', pos=pos, hint="assign it once"
                    )
                seen.add(name)
                if not isinstance(value, Default):
                    self._value_type(b, value, col)
            if stmt.where is not None:
                b.boolean(stmt.where, "WHERE")
        elif stmt.where is not None:
            b.boolean(stmt.where, "WHERE")
        if not isinstance(stmt, Select) and stmt.returning:
            for item in stmt.returning:
                if item.expr is not None:
                    b.column(item.expr)
        return table, b

    def _bind_insert(self, stmt: Insert, b: Binder) -> None:
        names = [n for n, _ in stmt.columns] if stmt.columns is not None else [c.name for c in b.table.columns]
        for k, name in enumerate(names):
            pos = stmt.columns[k][1] if stmt.columns is not None else stmt.table.pos
            b.column(ColRef(None, name, pos))
            if name in names[:k]:
                raise _sql_error("42701", f'column "{name}" specified more than once', pos=pos, hint="name it once")
        for row in stmt.rows:
            if len(row) != len(names):
                more = "expressions than target columns" if len(row) > len(names) else "target columns than expressions"
                raise _sql_error(
                    "42601",
                    f"INSERT has more {more}",
                    pos=_pos(row[min(len(row), len(names)) - 1]) if row else stmt.table.pos,
                    hint="give one value per listed column",
                )
            for name, value in zip(names, row, strict=True):
                if isinstance(value, Default):
                    continue
                if _mentions_column(value):
                    raise _sql_error(
                        "42P10",
                        "cannot use column references in VALUES",
                        pos=_pos(value),
                        hint="VALUES takes parameters, NULL, TRUE, FALSE, DEFAULT, now() and current_date",
                    )
                self._value_type(b, value, b.cols[name])

    @staticmethod
    def _value_type(b: Binder, value: Expr, col: Column) -> None:
        t = b.typeof(value, col.type)
        if isinstance(value, Param) or t is None:
            return
        if t == col.type or {t, col.type} == {"integer", "numeric"} or {t, col.type} == {"date", "timestamptz"}:
            return
        raise _sql_error(
            "42804",
            f'column "{col.name}" is of type {TYPE_NAMES[col.type]} but expression is of type {TYPE_NAMES[t]}',
            pos=_pos(value),
            hint=f"give {col.name} a parameter: it is read as {TYPE_NAMES[col.type]}",
        )

    @staticmethod
    def _output_name(stmt: Select, ref: ColRef) -> Item | None:
        if ref.qualifier is not None:
            return None
        return next((i for i in stmt.items if i.alias == ref.name), None)

    # -- running

    def run(self, sql: str, params: Sequence[ParamValue], *, read_only: bool = False) -> Outcome:
        """Parse, bind and execute one statement.

        Args:
            sql: The query.
            params: Its parameters.
            read_only: Refuse writes (the database or the transaction is read-only).
        """
        if len(params) > MAX_PARAMS:
            raise _sql_error(
                "08P01", f"too many parameters ({len(params)})", field="params", hint=f"at most {MAX_PARAMS}"
            )
        stmt = parse(sql)
        table, b = self.bind(stmt)
        values = b.finish(params)
        env = Env(values, self.now, {c.name: c.type for c in table.columns})
        if isinstance(stmt, Select):
            return self.select(stmt, table, env)
        command: Command = "INSERT" if isinstance(stmt, Insert) else "UPDATE" if isinstance(stmt, Update) else "DELETE"
        if read_only or self.ctx is None:
            raise _sql_error(
                "25006",
                f"cannot execute {command} in a read-only transaction",
                hint="only SELECT runs here: unlock the database (sqldb__unlock_database) or leave read_only off",
            )
        if isinstance(stmt, Insert):
            return self.insert(stmt, table, env)
        if stmt.where is None:
            raise _sql_error(
                "21000",
                f"{command} requires a WHERE clause",
                pos=stmt.pos,
                hint="narrow the rows with WHERE (pg-safeupdate); to touch every row on purpose write WHERE true",
            )
        if isinstance(stmt, Update):
            return self.update(stmt, table, env)
        return self.delete(stmt, table, env)

    def _py_rows(self, table: Table) -> list[tuple[Row, dict[str, Py]]]:
        types = {c.name: c.type for c in table.columns}
        return [(r, {k: from_stored(r.values.get(k), t) for k, t in types.items()}) for r in self.rows(table.id)]

    def _match(self, table: Table, where: Expr | None, env: Env) -> list[tuple[Row, dict[str, Py]]]:
        return [(r, py) for r, py in self._py_rows(table) if where is None or evaluate(where, py, env) is True]

    @staticmethod
    def _count(value: Number | Param | Const | None, env: Env, clause: str) -> int | None:
        if value is None or isinstance(value, Const):
            return None
        if isinstance(value, Param):
            n = env.params[value.index - 1]
            if n is None:
                return None
            assert isinstance(n, int)
        else:
            if not re.fullmatch(r"\d+", value.text):
                raise _sql_error(
                    "22P02",
                    f'invalid input syntax for type bigint: "{value.text}"',
                    pos=value.pos,
                    hint=f"{clause} takes a whole number",
                )
            n = int(value.text)
        if n < 0:
            code = "2201W" if clause == "LIMIT" else "2201X"
            raise _sql_error(code, f"{clause} must not be negative", field="params", hint=f"give {clause} 0 or more")
        return n

    def _project(
        self, items: Sequence[Item], table: Table, rows: Sequence[dict[str, CellValue]]
    ) -> tuple[list[ResultField], list[dict[str, CellValue]]]:
        cols = {c.name: c for c in table.columns}
        out: list[tuple[str, str]] = []
        for item in items:
            if item.expr is None:
                out.extend((c.name, c.name) for c in table.columns)
            else:
                out.append((item.alias or item.expr.name, item.expr.name))
        fields = [ResultField(name=name, data_type=cols[src].type) for name, src in out]
        return fields, [{name: r.get(src) for name, src in out} for r in rows]

    def select(self, stmt: Select, table: Table, env: Env) -> Outcome:
        """Run a SELECT."""
        matched = self._match(table, stmt.where, env)
        limit = self._count(stmt.limit, env, "LIMIT")
        offset = self._count(stmt.offset, env, "OFFSET") or 0
        if stmt.items and stmt.items[0].count:
            name = stmt.items[0].alias or "count"
            rows: list[dict[str, CellValue]] = [{name: len(matched)}]
            rows = rows[offset:][: limit if limit is not None else None]
            return Outcome("SELECT", len(rows), [ResultField(name=name, data_type="integer")], rows, table)
        ordered = self._order(stmt, table, matched)
        window = ordered[offset:][: limit if limit is not None else None]
        fields, out = self._project(stmt.items, table, [r.values for r, _ in window])
        return Outcome("SELECT", len(out), fields, out, table)

    def _order(
        self, stmt: Select, table: Table, rows: list[tuple[Row, dict[str, Py]]]
    ) -> list[tuple[Row, dict[str, Py]]]:
        positions: list[str] = []
        for item in stmt.items:
            positions.extend([c.name for c in table.columns] if item.expr is None else [item.expr.name])
        for key in reversed(stmt.order):
            if isinstance(key.key, Number):
                k = int(key.key.text) if key.key.text.isdigit() else 0
                if not 1 <= k <= len(positions):
                    raise _sql_error(
                        "42P10",
                        f"ORDER BY position {key.key.text} is not in select list",
                        pos=key.pos,
                        hint=f"positions run from 1 to {len(positions)}",
                    )
                name = positions[k - 1]
            else:
                aliased = self._output_name(stmt, key.key)
                name = aliased.expr.name if aliased is not None and aliased.expr is not None else key.key.name
            present = [r for r in rows if r[1][name] is not None]
            nulls = [r for r in rows if r[1][name] is None]
            present.sort(key=lambda r: r[1][name], reverse=key.desc)  # type: ignore[arg-type,return-value]
            first = key.desc if key.nulls_first is None else key.nulls_first
            rows = nulls + present if first else present + nulls
        return rows

    # -- writes

    def _unique_sets(self, table: Table) -> list[tuple[str, tuple[str, ...]]]:
        keys = [(f"{table.name}_pkey", table.primary_key)] if table.primary_key else []
        return keys + [(u.name, u.columns) for u in table.unique_constraints]

    def _check_unique(self, table: Table, final: Sequence[dict[str, CellValue]], changed: Sequence[int]) -> None:
        for name, cols in self._unique_sets(table):
            seen: dict[tuple[CellValue, ...], int] = {}
            for k, values in enumerate(final):
                key = _key(values, cols)
                if key is None:
                    continue
                if key in seen and (k in changed or seen[key] in changed):
                    raise _sql_error(
                        "23505",
                        f'duplicate key value violates unique constraint "{name}" — {_key_text(cols, key)} already '
                        "exists.",
                        field="params",
                        hint=f"{', '.join(cols)} must be unique in {table.name}: look the row up with SELECT and "
                        "UPDATE it, or use another value",
                        kind=Conflict,
                    )
                seen[key] = k

    def _check_not_null(self, table: Table, values: dict[str, CellValue]) -> None:
        for col in table.columns:
            if values.get(col.name) is None and (not col.nullable or col.name in table.primary_key):
                raise _sql_error(
                    "23502",
                    f'null value in column "{col.name}" of relation "{table.name}" violates not-null constraint',
                    field="params",
                    hint=f"give {col.name} a value",
                )

    def _check_references(
        self, table: Table, rows: Sequence[dict[str, CellValue]], batch: Sequence[dict[str, CellValue]]
    ) -> None:
        """Each row's foreign keys point at existing keys (``batch``: the table's rows after the statement)."""
        tables = {t.id: t for t in self.tables()}
        for fk in table.foreign_keys:
            target = tables.get(fk.references_table_id)
            if target is None:
                continue
            pool = batch if target.id == table.id else [r.values for r in self.rows(target.id)]
            keys = {_key(v, fk.references_columns) for v in pool}
            for values in rows:
                key = _key(values, fk.columns)
                if key is not None and key not in keys:
                    raise _sql_error(
                        "23503",
                        f'insert or update on table "{table.name}" violates foreign key constraint "{fk.name}" — '
                        f'{_key_text(fk.columns, key)} is not present in table "{target.name}".',
                        field="params",
                        hint=f"use a {', '.join(fk.references_columns)} of an existing {target.name} row (look it up "
                        "with SELECT), or insert that row first",
                    )

    def _returning(
        self, items: tuple[Item, ...] | None, table: Table, rows: list[dict[str, CellValue]]
    ) -> tuple[list[ResultField], list[dict[str, CellValue]]]:
        if items is None:
            return [], []
        return self._project(items, table, rows)

    def _stored(self, table: Table, col: Column, value: Py, field: str = "params") -> CellValue:
        return to_stored(coerce_py(value, col.type), col, table.name, field)

    def insert(self, stmt: Insert, table: Table, env: Env) -> Outcome:
        """Run an INSERT."""
        ctx = self.ctx
        assert ctx is not None
        names = [n for n, _ in stmt.columns] if stmt.columns is not None else [c.name for c in table.columns]
        sequences = dict(table.sequences)
        new_rows: list[dict[str, CellValue]] = []
        for exprs in stmt.rows:
            given = dict(zip(names, exprs, strict=True))
            values: dict[str, CellValue] = {}
            for col in table.columns:
                expr = given.get(col.name)
                if col.identity:
                    if expr is not None and not isinstance(expr, Default):
                        raise _sql_error(
                            "428C9",
                            f'cannot insert a non-DEFAULT value into column "{col.name}"',
                            pos=_pos(expr),
                            hint=f'column "{col.name}" is an identity column defined as GENERATED ALWAYS: leave it '
                            "out of the column list, or write DEFAULT",
                        )
                    nxt = sequences.get(col.name, 1)
                    sequences[col.name] = nxt + 1
                    values[col.name] = nxt
                elif expr is None or isinstance(expr, Default):
                    values[col.name] = self._default(col)
                else:
                    values[col.name] = self._stored(table, col, evaluate(expr, {}, env))
            self._check_not_null(table, values)
            new_rows.append(values)
        existing = [r.values for r in self.rows(table.id)]
        final = existing + new_rows
        self._check_unique(table, final, range(len(existing), len(final)))
        self._check_references(table, new_rows, final)
        if sequences != table.sequences:
            table = ctx.update(table, sequences=sequences)
        for values in new_rows:
            ctx.create(Row, table_id=table.id, values=values)
        fields, out = self._returning(stmt.returning, table, new_rows)
        return Outcome("INSERT", len(new_rows), fields, out, table)

    def _default(self, col: Column) -> CellValue:
        if col.default_now:
            value: Py = self.now if col.type == "timestamptz" else self.now.date()
            return to_stored(value, col, "")
        return col.default

    def update(self, stmt: Update, table: Table, env: Env) -> Outcome:
        """Run an UPDATE."""
        ctx = self.ctx
        assert ctx is not None
        cols = {c.name: c for c in table.columns}
        matched = self._match(table, stmt.where, env)
        ids = {r.id for r, _ in matched}
        changes: list[tuple[Row, dict[str, CellValue]]] = []
        for row, py in matched:
            values = dict(row.values)
            for name, expr, pos in stmt.sets:
                col = cols[name]
                if col.identity:
                    raise _sql_error(
                        "428C9",
                        f'column "{name}" can only be updated to DEFAULT',
                        pos=pos,
                        hint=f'"{name}" is an identity column: its values are numbered by the table',
                    )
                values[name] = (
                    self._default(col)
                    if isinstance(expr, Default)
                    else self._stored(table, col, evaluate(expr, py, env))
                )
            self._check_not_null(table, values)
            changes.append((row, values))
        others = [r.values for r in self.rows(table.id) if r.id not in ids]
        final = others + [v for _, v in changes]
        self._check_unique(table, final, range(len(others), len(final)))
        touched = {n for n, _, _ in stmt.sets}
        self._check_references(
            table, [v for _, v in changes if any(c in touched for fk in table.foreign_keys for c in fk.columns)], final
        )
        self._check_still_referenced(table, [(r.values, v) for r, v in changes], final)
        for row, values in changes:
            ctx.update(row, values=values)
        fields, out = self._returning(stmt.returning, table, [v for _, v in changes])
        return Outcome("UPDATE", len(changes), fields, out, table)

    def _incoming(self, table: Table) -> list[tuple[Table, ForeignKey]]:
        return [(t, fk) for t in self.tables() for fk in t.foreign_keys if fk.references_table_id == table.id]

    def _check_still_referenced(
        self,
        table: Table,
        changes: Sequence[tuple[dict[str, CellValue], dict[str, CellValue]]],
        final: Sequence[dict[str, CellValue]],
    ) -> None:
        """An UPDATE may not take away a key other rows still reference (NO ACTION on update)."""
        for child, fk in self._incoming(table):
            remaining = {_key(v, fk.references_columns) for v in final}
            for old, new in changes:
                key = _key(old, fk.references_columns)
                if key is None or key == _key(new, fk.references_columns) or key in remaining:
                    continue
                if any(_key(r.values, fk.columns) == key for r in self.rows(child.id)):
                    raise _sql_error(
                        "23503",
                        f'update or delete on table "{table.name}" violates foreign key constraint "{fk.name}" on '
                        f'table "{child.name}" — {_key_text(fk.references_columns, key)} is still referenced from '
                        f'table "{child.name}".',
                        field="params",
                        hint=f"change or delete the {child.name} rows that reference it first",
                    )

    def delete(self, stmt: Delete, table: Table, env: Env) -> Outcome:
        """Run a DELETE, applying each referencing foreign key's ON DELETE action."""
        ctx = self.ctx
        assert ctx is not None
        matched = [r for r, _ in self._match(table, stmt.where, env)]
        gone: dict[str, Row] = {}
        nulled: dict[str, tuple[Table, Row, dict[str, CellValue]]] = {}
        self._cascade(table, matched, gone, nulled)
        for _tbl, row, values in nulled.values():
            if row.id not in gone:
                ctx.update(row, values=values)
        for row in gone.values():
            ctx.delete(row)
        fields, out = self._returning(stmt.returning, table, [r.values for r in matched])
        return Outcome("DELETE", len(matched), fields, out, table)

    def _cascade(
        self,
        table: Table,
        rows: Sequence[Row],
        gone: dict[str, Row],
        nulled: dict[str, tuple[Table, Row, dict[str, CellValue]]],
    ) -> None:
        fresh = [r for r in rows if r.id not in gone]
        for r in fresh:
            gone[r.id] = r
        if not fresh:
            return
        for child, fk in self._incoming(table):
            keys = {k for r in fresh if (k := _key(r.values, fk.references_columns)) is not None}
            refs = [r for r in self.rows(child.id) if r.id not in gone and _key(r.values, fk.columns) in keys]
            if not refs:
                continue
            if fk.on_delete == "restrict":
                key = _key(refs[0].values, fk.columns) or ()
                raise _sql_error(
                    "23503",
                    f'update or delete on table "{table.name}" violates foreign key constraint "{fk.name}" on table '
                    f'"{child.name}" — {_key_text(fk.references_columns, key)} is still referenced from table '
                    f'"{child.name}".',
                    hint=f"delete or change the {len(refs)} {child.name} row(s) that reference it first",
                )
            if fk.on_delete == "cascade":
                self._cascade(child, refs, gone, nulled)
                continue
            for r in refs:
                base = nulled[r.id][2] if r.id in nulled else dict(r.values)
                values = {**base, **dict.fromkeys(fk.columns)}
                self._check_not_null(child, values)
                nulled[r.id] = (child, r, values)


def coerce_py(value: Py, typ: ColumnType) -> Py:
    """A computed value converted to a column's type (integer and numeric mix; a date fills a timestamptz)."""
    if value is None:
        return None
    if typ == "numeric" and isinstance(value, int) and not isinstance(value, bool):
        return Decimal(value)
    if typ == "integer" and isinstance(value, Decimal):
        return int(value.to_integral_value(rounding=ROUND_HALF_UP))
    if typ == "date" and isinstance(value, dt.datetime):
        return value.date()
    return value


def _pos(e: Expr) -> int:
    return e.pos


def _mentions_column(e: Expr) -> bool:
    if isinstance(e, ColRef):
        return True
    if isinstance(e, Arith | Compare | Logic):
        return _mentions_column(e.left) or _mentions_column(e.right)
    if isinstance(e, Like):
        return _mentions_column(e.operand) or _mentions_column(e.pattern)
    if isinstance(e, Is | Not):
        return _mentions_column(e.operand)
    return False


# -- the service's rules ----------------------------------------------------------------------


def _staff_emails(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _check_owner(ctx: Ctx, email: str, field: str = "owner_email") -> None:
    if email not in _staff_emails(ctx):
        raise RuleViolation(
            f"{email} is not a member of the project",
            field=field,
            hint="databases and saved queries are owned by employees of the company: give an employee's e-mail",
        )


def _connect(ctx: Ctx, database_id: str, field: str = "database_id") -> Database:
    """The database, which must take connections (not paused)."""
    db = ctx.get(Database, database_id, field=field)
    if db.status == "paused":
        raise _sql_error(
            "57P03",
            f"database {db.name} is paused: its compute is suspended",
            field=field,
            hint="resume it with sqldb__resume_database, then retry",
        )
    return db


def _ddl_allowed(ctx: Ctx, database_id: str, what: str, field: str = "database_id") -> Database:
    """The database, which must take DDL: neither paused nor read-only."""
    db = _connect(ctx, database_id, field)
    if db.status == "read_only":
        raise _sql_error(
            "25006",
            f"cannot execute {what} in a read-only transaction (database {db.name} is read-only)",
            field=field,
            hint="unlock it with sqldb__unlock_database first",
        )
    return db


def _executor(ctx: Ctx, db: Database) -> Executor:
    return Executor(
        lambda: ctx.where(Table, database_id=db.id),
        lambda table_id: ctx.where(Row, table_id=table_id),
        ctx.now(),
        ctx,
    )


def _analyse(ex: Executor, sql: str) -> tuple[Command, int]:
    """The command of a statement and how many parameters it takes, checked against the database's tables."""
    stmt = parse(sql)
    _, b = ex.bind(stmt)
    top = max(b.ptypes, default=0)
    for k in range(1, top + 1):
        if k not in b.ptypes:
            raise b.indeterminate(k, 0)
    command: Command = (
        "SELECT"
        if isinstance(stmt, Select)
        else "INSERT"
        if isinstance(stmt, Insert)
        else "UPDATE"
        if isinstance(stmt, Update)
        else "DELETE"
    )
    return command, top


def _guard_database_update(ctx: Ctx, new: Any, old: Any) -> None:
    if new.owner_email != old.owner_email:
        _check_owner(ctx, new.owner_email)


def _guard_database_delete(ctx: Ctx, new: Any, old: Any) -> None:
    """DROP DATABASE: everything in it goes, its saved queries and history too."""
    for table in ctx.where(Table, database_id=old.id):
        for row in ctx.where(Row, table_id=table.id):
            ctx.delete(row)
        ctx.delete(table)
    for model in (Schema, SavedQuery, QueryRun):
        for rec in ctx.where(model, database_id=old.id):
            ctx.delete(rec)


def _guard_schema_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _ddl_allowed(ctx, old.database_id, "DROP SCHEMA", field="schema_id")
    tables = ctx.where(Table, schema_id=old.id)
    if tables:
        raise _sql_error(
            "2BP01",
            f"cannot drop schema {old.name} because other objects depend on it: "
            + ", ".join(f"table {old.name}.{t.name}" for t in tables),
            field="schema_id",
            hint="drop its tables with sqldb__drop_table first",
        )


def _guard_table_update(ctx: Ctx, new: Any, old: Any) -> None:
    _ddl_allowed(ctx, old.database_id, "COMMENT", field="table_id")


def _guard_saved_update(ctx: Ctx, new: Any, old: Any) -> None:
    if new.name != old.name:
        for other in ctx.where(SavedQuery, database_id=new.database_id, name=new.name):
            if other.id != new.id:
                raise Conflict(
                    f'the database already has a saved query named "{new.name}" ({other.id})',
                    field="name",
                    hint="choose another name",
                )
    if new.owner_email != old.owner_email:
        _check_owner(ctx, new.owner_email)
    if new.sql != old.sql:
        db = ctx.get(Database, new.database_id)
        command, count = _analyse(_executor(ctx, db), new.sql)
        ctx.update(new, command=command, param_count=count)


databases = service.resource(
    Database,
    name="database",
    plural="databases",
    prefix="db",
    create=False,
    filters=("status", "owner_email", "name"),
    search=("name", "description"),
    update=("description", "owner_email"),
    unique=("name",),
    guard_update=_guard_database_update,
    guard_delete=_guard_database_delete,
    transitions={
        "pause": Transition(
            "status",
            ("active", "read_only"),
            "paused",
            "pause the database",
            "Suspend the database's compute: it takes no queries until resumed.",
        ),
        "resume": Transition(
            "status", ("paused",), "active", "resume the database", "Start a paused database's compute again."
        ),
        "lock": Transition(
            "status",
            ("active",),
            "read_only",
            "make the database read-only",
            "Make an active database read-only (default_transaction_read_only on): SELECT only, no writes or DDL.",
        ),
        "unlock": Transition(
            "status",
            ("read_only",),
            "active",
            "make the database writable again",
            "Make a read-only database take writes and DDL again.",
        ),
    },
)
schemas = service.resource(
    Schema,
    name="schema",
    plural="schemas",
    prefix="sch",
    create=False,
    get=False,
    filters=("database_id", "name"),
    search=("name",),
    guard_delete=_guard_schema_delete,
)
tables = service.resource(
    Table,
    name="table",
    plural="tables",
    prefix="tbl",
    create=False,
    filters=("database_id", "schema_id", "name"),
    search=("name", "description"),
    update=("description",),
    delete=False,
    guard_update=_guard_table_update,
)
rows = service.resource(
    Row, name="row", plural="rows", prefix="row", create=False, get=False, filters=None, delete=False
)
saved_queries = service.resource(
    SavedQuery,
    name="saved_query",
    plural="saved_queries",
    prefix="sq",
    create=False,
    filters=("database_id", "owner_email", "status", "command"),
    search=("name", "description", "sql"),
    update=("name", "description", "sql", "owner_email"),
    guard_update=_guard_saved_update,
    transitions={
        "archive": Transition("status", ("active",), "archived", "archive the saved query"),
        "unarchive": Transition("status", ("archived",), "active", "restore the archived saved query"),
    },
    title="saved query",
)
query_runs = service.resource(
    QueryRun,
    name="query_run",
    plural="query_runs",
    prefix="qr",
    create=False,
    filters=("database_id", "saved_query_id", "command", "in_transaction"),
    search=("sql",),
    delete=False,
    title="query run",
)


# -- examples ---------------------------------------------------------------------------------


def _commerce(ctx: Ctx) -> Database:
    db = ctx.first(Database, name="commerce")
    if db is None:
        raise LookupError("no commerce database")
    return db


def _table_named(ctx: Ctx, db: Database, name: str) -> Table:
    found = ctx.first(Table, database_id=db.id, name=name)
    if found is None:
        raise LookupError(f"no table {name}")
    return found


def _a_customer_email(ctx: Ctx, db: Database) -> str:
    table = _table_named(ctx, db, "customers")
    row = ctx.first(Row, table_id=table.id)
    assert row is not None
    return str(row.values["email"])


def _example_query(ctx: Ctx) -> dict[str, Any]:
    db = _commerce(ctx)
    return {
        "database_id": db.id,
        "sql": "SELECT id, email, first_name, last_name FROM customers WHERE email = $1",
        "params": [_a_customer_email(ctx, db)],
    }


def _example_transaction(ctx: Ctx) -> dict[str, Any]:
    db = _commerce(ctx)
    product = ctx.first(Row, table_id=_table_named(ctx, db, "products").id)
    assert product is not None
    return {
        "database_id": db.id,
        "queries": [
            {
                "sql": "UPDATE products SET price = price + $1 WHERE sku = $2 RETURNING sku, price",
                "params": ["1.00", product.values["sku"]],
            },
            {"sql": "SELECT count(*) FROM products WHERE active = $1", "params": [True]},
        ],
    }


def _example_prepare(ctx: Ctx) -> dict[str, Any]:
    return {
        "database_id": _commerce(ctx).id,
        "sql": "SELECT order_number, status, total FROM orders WHERE customer_id = $1 ORDER BY placed_at DESC",
    }


def _example_create_table(ctx: Ctx) -> dict[str, Any]:
    db = _commerce(ctx)
    return {
        "database_id": db.id,
        "name": "product_reviews",
        "columns": [
            {"name": "id", "type": "integer", "identity": True, "primary_key": True},
            {"name": "sku", "type": "text", "nullable": False},
            {"name": "rating", "type": "integer", "nullable": False},
            {"name": "body", "type": "text"},
            {"name": "created_at", "type": "timestamptz", "nullable": False, "default_now": True},
        ],
        "foreign_keys": [
            {"columns": ["sku"], "references_table_id": _table_named(ctx, db, "products").id, "on_delete": "cascade"}
        ],
    }


def _example_drop_table(ctx: Ctx) -> dict[str, Any]:
    return {"table_id": _table_named(ctx, _commerce(ctx), "order_items").id}


def _example_add_column(ctx: Ctx) -> dict[str, Any]:
    return {
        "table_id": _table_named(ctx, _commerce(ctx), "customers").id,
        "column": {"name": "loyalty_tier", "type": "text", "nullable": False, "default": "standard"},
    }


def _example_drop_column(ctx: Ctx) -> dict[str, Any]:
    return {"table_id": _table_named(ctx, _commerce(ctx), "customers").id, "column_name": "phone"}


def _example_saved(ctx: Ctx) -> dict[str, Any]:
    return {
        "database_id": _commerce(ctx).id,
        "name": "Orders placed since",
        "sql": "SELECT order_number, total FROM orders WHERE placed_at >= $1 ORDER BY placed_at",
        "owner_email": ctx.population.staff("Engineering")[0].email,
    }


def _example_run_saved(ctx: Ctx) -> dict[str, Any]:
    db = _commerce(ctx)
    saved = ctx.first(SavedQuery, database_id=db.id, name="Customer by e-mail")
    assert saved is not None
    return {"saved_query_id": saved.id, "params": [_a_customer_email(ctx, db)]}


# -- databases and schemas --------------------------------------------------------------------


def _example_database(ctx: Ctx) -> dict[str, Any]:
    return {
        "name": "marketing_events",
        "owner_email": ctx.population.staff("Engineering")[0].email,
        "description": "Event sign-ups exported from the webinar tool.",
    }


@service.tool(intent="create a database", write=True, example=_example_database)
def create_database(ctx: Ctx, name: Identifier, owner_email: Email, description: Text = "") -> Database:
    """Create a database (Neon: POST /projects/{id}/branches/{id}/databases) with its public schema.

    Names are unique in the project and postgres, template0 and template1
    are reserved; the owner is an employee of the company.

    Args:
        name: Database name: lower-case letters, digits and _.
        owner_email: E-mail of the employee who owns it.
        description: What it will hold.
    """
    if name in RESERVED_DATABASES:
        raise RuleViolation(
            f'database name "{name}" is reserved',
            field="name",
            hint=f"choose another name than {', '.join(RESERVED_DATABASES)}",
        )
    _check_owner(ctx, owner_email)
    taken = ctx.first(Database, name=name)
    if taken is not None:
        raise Conflict(f'database "{name}" already exists ({taken.id})', field="name", hint="choose another name")
    db = ctx.create(Database, name=name, owner_email=owner_email, description=description)
    ctx.create(Schema, database_id=db.id, name="public")
    return db


def _example_schema(ctx: Ctx) -> dict[str, Any]:
    return {"database_id": _commerce(ctx).id, "name": "reporting"}


@service.tool(intent="create a schema in the database", write=True, example=_example_schema)
def create_schema(ctx: Ctx, database_id: DatabaseId, name: Identifier) -> Schema:
    """Create a schema (CREATE SCHEMA) to group tables in a database.

    Names are unique in the database; the pg_ prefix and information_schema
    are reserved. Not on a paused or read-only database.

    Args:
        database_id: The database.
        name: Schema name: lower-case letters, digits and _.
    """
    db = _ddl_allowed(ctx, database_id, "CREATE SCHEMA")
    if name.startswith("pg_") or name == "information_schema":
        raise _sql_error(
            "42939",
            f'unacceptable schema name "{name}": the prefix "pg_" and information_schema are reserved for system '
            "schemas",
            field="name",
            hint="choose another name",
        )
    _reserved_name(name, "name")
    if ctx.first(Schema, database_id=db.id, name=name) is not None:
        raise _sql_error(
            "42P06",
            f'schema "{name}" already exists',
            field="name",
            hint="use it, or choose another name",
            kind=Conflict,
        )
    return ctx.create(Schema, database_id=db.id, name=name)


# -- queries ----------------------------------------------------------------------------------


def _record(
    ctx: Ctx,
    db: Database,
    sql: str,
    params: Sequence[ParamValue],
    out: Outcome,
    *,
    saved_query_id: str | None = None,
    in_transaction: bool = False,
) -> QueryResult:
    run = ctx.create(
        QueryRun,
        database_id=db.id,
        saved_query_id=saved_query_id,
        sql=sql,
        params=tuple(params),
        command=out.command,
        row_count=out.row_count,
        in_transaction=in_transaction,
    )
    return QueryResult(
        command=out.command, row_count=out.row_count, fields=out.fields, rows=out.rows, query_run_id=run.id
    )


@service.tool(intent="run a SQL query on the database", write=True, example=_example_query)
def run_query(ctx: Ctx, database_id: DatabaseId, sql: SqlText, params: list[ParamValue] | None = None) -> QueryResult:
    """Run one parameterised SQL statement (POST /sql) and record it in the query history.

    The dialect: SELECT cols | * | count(*) FROM [schema.]table [WHERE …]
    [ORDER BY col [ASC|DESC] [NULLS FIRST|LAST], …] [LIMIT n] [OFFSET n];
    INSERT INTO table (cols) VALUES ($1, …), … [RETURNING cols | *];
    UPDATE table SET col = $1, … WHERE … [RETURNING …]; DELETE FROM table
    WHERE … [RETURNING …]. WHERE takes =, <>, <, >, <=, >=, AND, OR, NOT,
    IS [NOT] NULL, [NOT] LIKE / ILIKE and + / -. Values are $1, $2 …
    parameters read as the type of the column they meet (NULL, TRUE, FALSE,
    DEFAULT, now() and current_date may be written); quoted strings and
    numbers where a value belongs are refused, as are joins, DDL, several
    statements, other dialects' syntax and UPDATE or DELETE without WHERE.
    Constraints (NOT NULL, primary keys, UNIQUE, foreign keys) are checked
    and failures carry PostgreSQL's SQLSTATE code. A paused database takes
    no query; a read-only one only SELECT.

    Args:
        database_id: The database.
        sql: One statement, with $1, $2 … for its values.
        params: The values of $1, $2 … in order.
    """
    db = _connect(ctx, database_id)
    values = params or []
    out = _executor(ctx, db).run(sql, values, read_only=db.status == "read_only")
    return _record(ctx, db, sql, values, out)


class Query(Value):
    """One statement of a batch."""

    sql: SqlText = Field(description="The statement, with $1, $2 … for its values.")
    params: list[ParamValue] = Field(default_factory=list, description="The values of $1, $2 … in order.")


class TransactionResult(BaseModel):
    """What a batch transaction returned, one result per statement."""

    database_id: DatabaseId = Field(description="The database.")
    read_only: bool = Field(description="Whether it ran read-only.")
    results: list[QueryResult] = Field(description="Each statement's result, in order.")


@service.tool(intent="run the SQL statements as one transaction", write=True, example=_example_transaction)
def run_transaction(
    ctx: Ctx,
    database_id: DatabaseId,
    queries: Annotated[list[Query], Field(min_length=1, max_length=MAX_BATCH)],
    read_only: bool = False,
) -> TransactionResult:
    """Run up to 20 statements in order as one transaction: all commit, or none does.

    Each statement sees the writes of those before it. If one fails, the
    whole batch rolls back and the error names which one. read_only makes
    the transaction refuse writes (as a read-only database does).

    Args:
        database_id: The database.
        queries: The statements with their parameters, in order.
        read_only: Refuse INSERT, UPDATE and DELETE.
    """
    db = _connect(ctx, database_id)
    ex = _executor(ctx, db)
    ro = read_only or db.status == "read_only"
    results: list[QueryResult] = []
    for k, q in enumerate(queries):
        try:
            out = ex.run(q.sql, q.params, read_only=ro)
        except ToolFailure as exc:
            raise type(exc)(
                f"statement {k + 1} of {len(queries)} failed, so the transaction rolled back: {exc.message}",
                field=f"queries.{k}.{exc.field or 'sql'}",
                hint=exc.hint,
            ) from exc
        results.append(_record(ctx, db, q.sql, q.params, out, in_transaction=True))
    return TransactionResult(database_id=db.id, read_only=ro, results=results)


class ParamInfo(BaseModel):
    """A parameter of a prepared statement."""

    position: int = Field(description="n of $n.")
    data_type: ColumnType = Field(description="The type its value is read as.")


class Prepared(BaseModel):
    """A statement parsed and checked against the database, not run."""

    command: Command = Field(description="SELECT, INSERT, UPDATE or DELETE.")
    table_id: TableId = Field(description="The table it reads or writes.")
    table_name: str = Field(description="That table as schema.name.")
    parameters: list[ParamInfo] = Field(description="Its parameters with their deduced types.")
    fields: list[ResultField] = Field(description="The columns it returns (empty for a write without RETURNING).")


@service.tool(intent="check the SQL query and the parameters it takes", example=_example_prepare)
def prepare_query(ctx: Ctx, database_id: DatabaseId, sql: SqlText) -> Prepared:
    """Parse a statement and check it against the database without running it (Parse/Describe).

    Says which table it touches, the type each $n is read as and the columns
    it returns, or refuses it as run_query would.

    Args:
        database_id: The database.
        sql: One statement, with $1, $2 … for its values.
    """
    db = _connect(ctx, database_id)
    ex = _executor(ctx, db)
    stmt = parse(sql)
    table, b = ex.bind(stmt)
    command, count = _analyse(ex, sql)
    items = stmt.items if isinstance(stmt, Select) else stmt.returning
    fields: list[ResultField] = []
    if items and items[0].count:
        fields = [ResultField(name=items[0].alias or "count", data_type="integer")]
    elif items:
        fields = ex._project(items, table, [])[0]
    return Prepared(
        command=command,
        table_id=table.id,
        table_name=f"{table.schema_name}.{table.name}",
        parameters=[ParamInfo(position=k, data_type=b.ptypes[k]) for k in range(1, count + 1)],
        fields=fields,
    )


# -- tables -----------------------------------------------------------------------------------


class ColumnSpec(Value):
    """A column to create."""

    name: Identifier = Field(description="Column name: lower-case letters, digits and _.")
    type: ColumnType = Field(description="text, integer, numeric, boolean, date or timestamptz.")
    nullable: bool = Field(default=True, description="False for NOT NULL.")
    primary_key: bool = Field(default=False, description="The table's primary key is this column alone.")
    unique: bool = Field(default=False, description="UNIQUE.")
    default: ParamValue = Field(default=None, description="A constant default, read as the column's type.")
    default_now: bool = Field(default=False, description="DEFAULT now() for timestamptz, current_date for date.")
    identity: bool = Field(default=False, description="GENERATED ALWAYS AS IDENTITY (integer only): numbered 1, 2 ….")
    precision: Annotated[int, Field(ge=1, le=1000)] | None = Field(default=None, description="numeric only: digits.")
    scale: Annotated[int, Field(ge=0, le=1000)] | None = Field(
        default=None, description="numeric only: digits after the point (needs precision)."
    )


class ForeignKeySpec(Value):
    """A foreign key to create."""

    columns: list[Identifier] = Field(min_length=1, max_length=8, description="Referencing columns of the new table.")
    references_table_id: TableId = Field(description="The referenced table (same database).")
    references_columns: list[Identifier] | None = Field(
        default=None, description="Its primary key or unique columns; default: its primary key."
    )
    on_delete: OnDelete = Field(default="restrict", description="restrict, cascade or set_null.")


def _reserved_name(name: str, field: str) -> None:
    if name.upper() in RESERVED_WORDS:
        raise _sql_error(
            "42601",
            f'"{name}" is a reserved word',
            field=field,
            hint="choose another name (for example add a prefix: order_status, user_name)",
        )


def _build_column(spec: ColumnSpec, field: str) -> Column:
    """A column from its spec, checked as CREATE TABLE checks a column definition."""
    _reserved_name(spec.name, f"{field}.name")
    if spec.identity:
        if spec.type != "integer":
            raise _sql_error(
                "42611",
                f'identity column "{spec.name}" must be of type integer, not {TYPE_NAMES[spec.type]}',
                field=f"{field}.identity",
                hint="make the identity column an integer",
            )
        if spec.default is not None or spec.default_now:
            raise _sql_error(
                "42601",
                f'both default and identity specified for column "{spec.name}"',
                field=f"{field}.default",
                hint="an identity column takes no default",
            )
    if spec.default_now:
        if spec.type not in ("date", "timestamptz"):
            raise _sql_error(
                "42804",
                f'column "{spec.name}" is of type {TYPE_NAMES[spec.type]} but default expression is of type '
                "timestamp with time zone",
                field=f"{field}.default_now",
                hint="default_now fits date and timestamptz columns",
            )
        if spec.default is not None:
            raise _sql_error(
                "42601",
                f'multiple default values specified for column "{spec.name}"',
                field=f"{field}.default",
                hint="give default or default_now, not both",
            )
    if (spec.precision is not None or spec.scale is not None) and spec.type != "numeric":
        raise _sql_error(
            "42601",
            f"type modifier is not allowed for type {TYPE_NAMES[spec.type]}",
            field=f"{field}.precision",
            hint="precision and scale are for numeric columns",
        )
    if spec.scale is not None and spec.precision is None:
        raise _sql_error(
            "42601", "numeric scale needs a precision", field=f"{field}.scale", hint="give precision too: numeric(p, s)"
        )
    if spec.precision is not None and spec.scale is not None and spec.scale > spec.precision:
        raise _sql_error(
            "22023",
            f"NUMERIC scale {spec.scale} must be between 0 and precision {spec.precision}",
            field=f"{field}.scale",
            hint="make scale at most precision",
        )
    col = Column(
        name=spec.name,
        type=spec.type,
        nullable=spec.nullable and not spec.primary_key and not spec.identity,
        default_now=spec.default_now,
        identity=spec.identity,
        precision=spec.precision,
        scale=0 if spec.precision is not None and spec.scale is None else spec.scale,
    )
    if spec.default is not None:
        stored = to_stored(coerce(spec.default, spec.type, f"{field}.default"), col, "", f"{field}.default")
        col = col.model_copy(update={"default": stored})
    return col


def _keys_of(table: Table) -> list[tuple[str, ...]]:
    return ([table.primary_key] if table.primary_key else []) + [u.columns for u in table.unique_constraints]


def _build_foreign_key(
    ctx: Ctx, db: Database, name: str, cols: dict[str, Column], spec: ForeignKeySpec, k: int
) -> ForeignKey:
    field = f"foreign_keys.{k}"
    target = ctx.get(Table, spec.references_table_id, field=f"{field}.references_table_id")
    if target.database_id != db.id:
        raise _sql_error(
            "0A000",
            "cross-database references are not implemented",
            field=f"{field}.references_table_id",
            hint="reference a table of the same database",
        )
    for c in spec.columns:
        if c not in cols:
            raise _sql_error(
                "42703",
                f'column "{c}" referenced in foreign key constraint does not exist',
                field=f"{field}.columns",
                hint=f"columns of {name}: {', '.join(cols)}",
                kind=NotFound,
            )
    if spec.references_columns is None:
        if not target.primary_key:
            raise _sql_error(
                "42830",
                f'there is no primary key for referenced table "{target.name}"',
                field=f"{field}.references_columns",
                hint="name the referenced unique columns",
            )
        ref_cols = target.primary_key
    else:
        ref_cols = tuple(spec.references_columns)
    if len(ref_cols) != len(spec.columns):
        raise _sql_error(
            "42830",
            "number of referencing and referenced columns for foreign key disagree",
            field=f"{field}.columns",
            hint=f"{target.name}'s key has {len(ref_cols)} column(s)",
        )
    if tuple(ref_cols) not in _keys_of(target) and set(ref_cols) not in [set(x) for x in _keys_of(target)]:
        raise _sql_error(
            "42830",
            f'there is no unique constraint matching given keys for referenced table "{target.name}"',
            field=f"{field}.references_columns",
            hint=f"reference {target.name}'s primary key or a unique column",
        )
    target_cols = {c.name: c for c in target.columns}
    for mine, theirs in zip(spec.columns, ref_cols, strict=True):
        a, b = cols[mine].type, target_cols[theirs].type
        if a != b:
            raise _sql_error(
                "42804",
                f'foreign key constraint cannot be implemented — key columns "{mine}" and "{theirs}" are of '
                f"incompatible types: {TYPE_NAMES[a]} and {TYPE_NAMES[b]}",
                field=f"{field}.columns",
                hint=f"make {mine} {TYPE_NAMES[b]}",
            )
    return ForeignKey(
        name=f"{name}_{'_'.join(spec.columns)}_fkey",
        columns=tuple(spec.columns),
        references_table_id=target.id,
        references_columns=tuple(ref_cols),
        on_delete=spec.on_delete,
    )


@service.tool(intent="create a database table", write=True, example=_example_create_table)
def create_table(
    ctx: Ctx,
    database_id: DatabaseId,
    name: Identifier,
    columns: Annotated[list[ColumnSpec], Field(min_length=1, max_length=100)],
    schema_name: Identifier = "public",
    primary_key: list[Identifier] | None = None,
    foreign_keys: list[ForeignKeySpec] | None = None,
    description: Text = "",
) -> Table:
    """Create a table (CREATE TABLE) with typed columns, a primary key, UNIQUE columns and foreign keys.

    The name must be new in its schema and not a reserved word; column names
    are unique; one primary key (a column's primary_key or the primary_key
    list for a composite one), whose columns become NOT NULL; identity
    columns are integer and take no default; defaults must fit their type;
    a foreign key references the primary key or a unique key of a table in
    the same database, with columns of the same types. Not on a paused or
    read-only database.

    Args:
        database_id: The database.
        name: Table name: lower-case letters, digits and _.
        columns: The columns, in order.
        schema_name: The schema (default public).
        primary_key: Columns of a composite primary key (instead of a column's primary_key).
        foreign_keys: Foreign keys to other tables.
        description: What the table holds.
    """
    db = _ddl_allowed(ctx, database_id, "CREATE TABLE")
    schema = ctx.first(Schema, database_id=db.id, name=schema_name)
    if schema is None:
        raise _sql_error(
            "3F000",
            f'schema "{schema_name}" does not exist',
            field="schema_name",
            hint="create it with sqldb__create_schema, or use public",
            kind=NotFound,
        )
    _reserved_name(name, "name")
    if ctx.first(Table, schema_id=schema.id, name=name) is not None:
        raise _sql_error(
            "42P07",
            f'relation "{name}" already exists',
            field="name",
            hint="choose another name, or change the existing table",
            kind=Conflict,
        )
    built: list[Column] = []
    for k, spec in enumerate(columns):
        if any(c.name == spec.name for c in built):
            raise _sql_error(
                "42701", f'column "{spec.name}" specified more than once', field=f"columns.{k}.name", hint="rename it"
            )
        built.append(_build_column(spec, f"columns.{k}"))
    cols = {c.name: c for c in built}
    flagged = [s.name for s in columns if s.primary_key]
    if len(flagged) > 1 or (flagged and primary_key):
        raise _sql_error(
            "42P16",
            f'multiple primary keys for table "{name}" are not allowed',
            field="primary_key",
            hint="mark one column primary_key, or list a composite key in primary_key",
        )
    pk = tuple(primary_key or flagged)
    for c in pk:
        if c not in cols:
            raise _sql_error(
                "42703",
                f'column "{c}" named in key does not exist',
                field="primary_key",
                hint=f"columns: {', '.join(cols)}",
                kind=NotFound,
            )
    if len(set(pk)) != len(pk):
        raise _sql_error("42701", "column appears twice in primary key constraint", field="primary_key", hint="once")
    built = [c.model_copy(update={"nullable": False}) if c.name in pk else c for c in built]
    cols = {c.name: c for c in built}
    uniques = tuple(
        UniqueConstraint(name=f"{name}_{s.name}_key", columns=(s.name,))
        for s in columns
        if s.unique and pk != (s.name,)
    )
    fks = tuple(_build_foreign_key(ctx, db, name, cols, spec, k) for k, spec in enumerate(foreign_keys or []))
    return ctx.create(
        Table,
        database_id=db.id,
        schema_id=schema.id,
        schema_name=schema.name,
        name=name,
        columns=tuple(built),
        primary_key=pk,
        unique_constraints=uniques,
        foreign_keys=fks,
        sequences={c.name: 1 for c in built if c.identity},
        description=description,
    )


class Reference(BaseModel):
    """A foreign key of another table that references this one."""

    table_id: TableId = Field(description="The referencing table.")
    table_name: str = Field(description="Its name.")
    constraint: str = Field(description="The foreign key's name.")
    columns: list[str] = Field(description="Its referencing columns.")
    on_delete: OnDelete = Field(description="What deleting a referenced row does.")


class TableDescription(BaseModel):
    """A table with its size, the foreign keys that reference it and its DDL."""

    table: Table = Field(description="The table.")
    row_count: int = Field(description="Rows in it.")
    referenced_by: list[Reference] = Field(description="Foreign keys of other tables that reference it.")
    ddl: str = Field(description="Its CREATE TABLE statement.")


def _literal(value: CellValue, typ: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if typ in ("integer", "numeric"):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def ddl_of(table: Table, names: dict[str, Table]) -> str:
    """The CREATE TABLE statement of a table, as pg_dump would print it."""
    lines = []
    for c in table.columns:
        typ = TYPE_NAMES[c.type]
        if c.type == "numeric" and c.precision is not None:
            typ = f"numeric({c.precision},{c.scale or 0})"
        line = f"    {c.name} {typ}"
        if c.identity:
            line += " GENERATED ALWAYS AS IDENTITY"
        if c.default_now:
            line += " DEFAULT now()" if c.type == "timestamptz" else " DEFAULT CURRENT_DATE"
        elif c.default is not None:
            line += f" DEFAULT {_literal(c.default, c.type)}"
        if not c.nullable:
            line += " NOT NULL"
        lines.append(line)
    if table.primary_key:
        lines.append(f"    CONSTRAINT {table.name}_pkey PRIMARY KEY ({', '.join(table.primary_key)})")
    lines.extend(f"    CONSTRAINT {u.name} UNIQUE ({', '.join(u.columns)})" for u in table.unique_constraints)
    for fk in table.foreign_keys:
        target = names.get(fk.references_table_id)
        where = f"{target.schema_name}.{target.name}" if target else fk.references_table_id
        lines.append(
            f"    CONSTRAINT {fk.name} FOREIGN KEY ({', '.join(fk.columns)}) REFERENCES {where} "
            f"({', '.join(fk.references_columns)}) ON DELETE {fk.on_delete.replace('_', ' ').upper()}"
        )
    return f"CREATE TABLE {table.schema_name}.{table.name} (\n" + ",\n".join(lines) + "\n);"


def _referencing(ctx: Ctx, table: Table) -> list[tuple[Table, ForeignKey]]:
    return [
        (t, fk)
        for t in ctx.where(Table, database_id=table.database_id)
        for fk in t.foreign_keys
        if fk.references_table_id == table.id and t.id != table.id
    ]


@service.tool(intent="describe the database table", example=first_example(Table, "table_id"))
def describe_table(ctx: Ctx, table_id: TableId) -> TableDescription:
    """Describe a table: its columns and constraints, its row count, what references it and its DDL.

    Args:
        table_id: The table.
    """
    table = ctx.get(Table, table_id, field="table_id")
    names = {t.id: t for t in ctx.where(Table, database_id=table.database_id)}
    return TableDescription(
        table=table,
        row_count=len(ctx.where(Row, table_id=table.id)),
        referenced_by=[
            Reference(
                table_id=t.id, table_name=t.name, constraint=fk.name, columns=list(fk.columns), on_delete=fk.on_delete
            )
            for t, fk in _referencing(ctx, table)
        ],
        ddl=ddl_of(table, names),
    )


class DroppedTable(BaseModel):
    """What dropping a table removed."""

    table_id: TableId = Field(description="The dropped table.")
    name: str = Field(description="Its name as schema.name.")
    rows_deleted: int = Field(description="Rows that went with it.")
    dropped_constraints: list[str] = Field(description="Foreign keys of other tables dropped with it (CASCADE).")


@service.tool(intent="drop the database table", write=True, destructive=True, example=_example_drop_table)
def drop_table(ctx: Ctx, table_id: TableId, cascade: bool = False) -> DroppedTable:
    """Drop a table and its rows (DROP TABLE).

    A table other tables' foreign keys reference is not dropped unless
    cascade is set, which drops those foreign keys (their rows stay). Not on
    a paused or read-only database.

    Args:
        table_id: The table.
        cascade: Also drop the foreign keys that reference it.
    """
    table = ctx.get(Table, table_id, field="table_id")
    _ddl_allowed(ctx, table.database_id, "DROP TABLE", field="table_id")
    refs = _referencing(ctx, table)
    if refs and not cascade:
        raise _sql_error(
            "2BP01",
            f"cannot drop table {table.name} because other objects depend on it: "
            + "; ".join(f"constraint {fk.name} on table {t.name}" for t, fk in refs),
            field="cascade",
            hint="drop the referencing tables first, or pass cascade=true to drop those foreign keys with it",
        )
    dropped: list[str] = []
    for t, fk in refs:
        current = ctx.get(Table, t.id)
        ctx.update(current, foreign_keys=tuple(f for f in current.foreign_keys if f.name != fk.name))
        dropped.append(fk.name)
    gone = ctx.where(Row, table_id=table.id)
    for row in gone:
        ctx.delete(row)
    ctx.delete(table)
    return DroppedTable(
        table_id=table.id, name=f"{table.schema_name}.{table.name}", rows_deleted=len(gone), dropped_constraints=dropped
    )


@service.tool(intent="add a column to the database table", write=True, example=_example_add_column)
def add_column(ctx: Ctx, table_id: TableId, column: ColumnSpec) -> Table:
    """Add a column to a table (ALTER TABLE … ADD COLUMN); existing rows get its default.

    A NOT NULL column needs a default when the table has rows; a UNIQUE
    column cannot give several rows the same default; an identity column
    numbers the existing rows. A primary key is not added this way.

    Args:
        table_id: The table.
        column: The new column.
    """
    table = ctx.get(Table, table_id, field="table_id")
    _ddl_allowed(ctx, table.database_id, "ALTER TABLE", field="table_id")
    if any(c.name == column.name for c in table.columns):
        raise _sql_error(
            "42701",
            f'column "{column.name}" of relation "{table.name}" already exists',
            field="column.name",
            hint="choose another name",
            kind=Conflict,
        )
    if column.primary_key:
        raise _sql_error(
            "0A000",
            "adding a primary key column is not supported",
            field="column.primary_key",
            hint="a table's primary key is set when it is created; add the column as UNIQUE NOT NULL instead",
        )
    col = _build_column(column, "column")
    existing = ctx.where(Row, table_id=table.id)
    fill: CellValue = col.default
    if col.default_now:
        fill = to_stored(ctx.now() if col.type == "timestamptz" else ctx.today(), col, table.name)
    if existing and fill is None and not col.nullable and not col.identity:
        raise _sql_error(
            "23502",
            f'column "{col.name}" of relation "{table.name}" contains null values',
            field="column.default",
            hint="give the column a default, or add it nullable and fill it with UPDATE first",
        )
    if column.unique and len(existing) > 1 and fill is not None and not col.identity:
        raise _sql_error(
            "23505",
            f'could not create unique index "{table.name}_{col.name}_key" — Key ({col.name})=({fill}) is duplicated.',
            field="column.unique",
            hint="add it without unique, give each row its own value, then make it unique",
            kind=Conflict,
        )
    sequences = dict(table.sequences)
    for k, row in enumerate(existing):
        value = k + 1 if col.identity else fill
        ctx.update(row, values={**row.values, col.name: value})
    if col.identity:
        sequences[col.name] = len(existing) + 1
    uniques = table.unique_constraints
    if column.unique:
        uniques = (*uniques, UniqueConstraint(name=f"{table.name}_{col.name}_key", columns=(col.name,)))
    return ctx.update(table, columns=(*table.columns, col), unique_constraints=uniques, sequences=sequences)


@service.tool(
    intent="drop the column from the database table", write=True, destructive=True, example=_example_drop_column
)
def drop_column(ctx: Ctx, table_id: TableId, column_name: Identifier) -> Table:
    """Drop a column and its values (ALTER TABLE … DROP COLUMN).

    Constraints on it (the primary key, UNIQUE, its own foreign keys) go with
    it; a column other tables' foreign keys reference is not dropped; a table
    keeps at least one column.

    Args:
        table_id: The table.
        column_name: The column.
    """
    table = ctx.get(Table, table_id, field="table_id")
    _ddl_allowed(ctx, table.database_id, "ALTER TABLE", field="table_id")
    if not any(c.name == column_name for c in table.columns):
        raise _sql_error(
            "42703",
            f'column "{column_name}" of relation "{table.name}" does not exist',
            field="column_name",
            hint=f"columns: {', '.join(c.name for c in table.columns)}",
            kind=NotFound,
        )
    for t, fk in _referencing(ctx, table):
        if column_name in fk.references_columns:
            raise _sql_error(
                "2BP01",
                f"cannot drop column {column_name} of table {table.name} because other objects depend on it: "
                f"constraint {fk.name} on table {t.name}",
                field="column_name",
                hint=f"drop table {t.name} first, or drop {table.name} with cascade",
            )
    if len(table.columns) == 1:
        raise RuleViolation(
            f"{column_name} is the only column of {table.name}",
            field="column_name",
            hint="a table keeps at least one column: drop the table with sqldb__drop_table instead",
        )
    for row in ctx.where(Row, table_id=table.id):
        ctx.update(row, values={k: v for k, v in row.values.items() if k != column_name})
    return ctx.update(
        table,
        columns=tuple(c for c in table.columns if c.name != column_name),
        primary_key=() if column_name in table.primary_key else table.primary_key,
        unique_constraints=tuple(u for u in table.unique_constraints if column_name not in u.columns),
        foreign_keys=tuple(f for f in table.foreign_keys if column_name not in f.columns),
        sequences={k: v for k, v in table.sequences.items() if k != column_name},
    )


# -- saved queries ----------------------------------------------------------------------------


@service.tool(intent="save the SQL query", write=True, example=_example_saved)
def create_saved_query(
    ctx: Ctx, database_id: DatabaseId, name: Title, sql: SqlText, owner_email: Email, description: Text = ""
) -> SavedQuery:
    """Save a statement as a named snippet of a database, to run again with new parameters.

    The statement must be one the query endpoint accepts and must check out
    against the database's tables now; names are unique per database; the
    owner is an employee.

    Args:
        database_id: The database it runs against.
        name: Its name.
        sql: The statement, with $1, $2 … for its values.
        owner_email: E-mail of the employee saving it.
        description: What it is for.
    """
    db = ctx.get(Database, database_id, field="database_id")
    _check_owner(ctx, owner_email)
    taken = ctx.first(SavedQuery, database_id=db.id, name=name)
    if taken is not None:
        raise Conflict(
            f'the database already has a saved query named "{name}" ({taken.id})',
            field="name",
            hint="choose another name, or change that query with sqldb__update_saved_query",
        )
    command, count = _analyse(_executor(ctx, db), sql)
    return ctx.create(
        SavedQuery,
        database_id=db.id,
        name=name,
        sql=sql,
        description=description,
        owner_email=owner_email,
        command=command,
        param_count=count,
    )


@service.tool(intent="run the saved SQL query", write=True, example=_example_run_saved)
def run_saved_query(ctx: Ctx, saved_query_id: SavedQueryId, params: list[ParamValue] | None = None) -> QueryResult:
    """Run a saved query with parameters, as run_query would, and record it under the saved query.

    Archived saved queries are not run.

    Args:
        saved_query_id: The saved query.
        params: The values of its $1, $2 … in order.
    """
    saved = ctx.get(SavedQuery, saved_query_id, field="saved_query_id")
    if saved.status == "archived":
        raise RuleViolation(
            f'saved query "{saved.name}" is archived',
            field="saved_query_id",
            hint="restore it with sqldb__unarchive_saved_query first",
        )
    db = _connect(ctx, saved.database_id, field="saved_query_id")
    values = params or []
    if len(values) != saved.param_count:
        raise _sql_error(
            "08P01",
            f'bind message supplies {len(values)} parameters, but saved query "{saved.name}" requires '
            f"{saved.param_count}",
            field="params",
            hint=f"give {saved.param_count} value(s) for: {saved.sql}",
        )
    out = _executor(ctx, db).run(saved.sql, values, read_only=db.status == "read_only")
    return _record(ctx, db, saved.sql, values, out, saved_query_id=saved.id)


# -- seed -------------------------------------------------------------------------------------


def _c(name: str, typ: ColumnType, **kw: Any) -> Column:
    return Column(name=name, type=typ, **kw)


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


@service.seeder
def seed(s: SeedContext) -> None:
    """The commerce database (customers, products, orders, items), a read-only analytics one, a paused legacy one."""
    pop = s.population
    engineers = pop.staff("Engineering")
    commerce = s.create(
        Database,
        name="commerce",
        owner_email=engineers[0].email,
        description=f"Production database of the {pop.home.name} online shop: customers, products, orders and items.",
        created_at=s.ago(days=720),
        updated_at=s.ago(days=30),
    )
    public = _seed_schemas(s, commerce, ("public", "staging", "archive"))[0]
    customers = _seed_customers(s, commerce, public)
    products = _seed_products(s, commerce, public)
    _seed_orders(s, commerce, public, customers, products)
    analytics = s.create(
        Database,
        name="analytics",
        owner_email=pop.staff("Sales", "Marketing", fallback=2)[0].email,
        description="Read-only reporting copy: the customer companies as accounts with their account managers.",
        status="read_only",
        created_at=s.ago(days=400),
        updated_at=s.ago(days=10),
    )
    _seed_accounts(s, analytics, _seed_schemas(s, analytics, ("public",))[0])
    legacy = s.create(
        Database,
        name="legacy_crm",
        owner_email=engineers[-1].email,
        description="The old CRM's contacts, kept paused since the move to the new CRM.",
        status="paused",
        created_at=s.ago(days=1500),
        updated_at=s.ago(days=90),
    )
    _seed_contacts(s, legacy, _seed_schemas(s, legacy, ("public",))[0])
    _seed_saved_queries(s, commerce, analytics)


def _seed_schemas(s: SeedContext, db: Database, names: Sequence[str]) -> list[Schema]:
    return [s.create(Schema, database_id=db.id, name=n, created_at=db.created_at) for n in names]


def _seed_table(
    s: SeedContext,
    db: Database,
    schema: Schema,
    name: str,
    columns: Sequence[Column],
    rows: Sequence[dict[str, CellValue]],
    *,
    pk: tuple[str, ...],
    unique: Sequence[str] = (),
    fks: Sequence[ForeignKey] = (),
    description: str = "",
) -> Table:
    """A table and its rows (given in stored form); identity sequences continue after the rows."""
    table = s.create(
        Table,
        database_id=db.id,
        schema_id=schema.id,
        schema_name=schema.name,
        name=name,
        columns=tuple(columns),
        primary_key=pk,
        unique_constraints=tuple(UniqueConstraint(name=f"{name}_{c}_key", columns=(c,)) for c in unique),
        foreign_keys=tuple(fks),
        sequences={c.name: len(rows) + 1 for c in columns if c.identity},
        description=description,
        created_at=db.created_at,
    )
    for values in rows:
        s.create(Row, table_id=table.id, values=values)
    return table


def _seed_customers(s: SeedContext, db: Database, schema: Schema) -> Table:
    """Every consumer of the population as a customer, numbered in population order."""
    rows: list[dict[str, CellValue]] = [
        {
            "id": i + 1,
            "email": p.email,
            "first_name": p.first_name,
            "last_name": p.last_name,
            "phone": p.phone,
            "city": p.address.city,
            "country": p.address.country,
            "marketing_opt_in": s.rng.random() < 0.4,
            "created_at": ts_text(s.ago(days=s.rng.randint(10, 900))),
        }
        for i, p in enumerate(s.population.consumers)
    ]
    columns = [
        _c("id", "integer", nullable=False, identity=True),
        _c("email", "text", nullable=False),
        _c("first_name", "text", nullable=False),
        _c("last_name", "text", nullable=False),
        _c("phone", "text"),
        _c("city", "text"),
        _c("country", "text", nullable=False),
        _c("marketing_opt_in", "boolean", nullable=False, default=False),
        _c("created_at", "timestamptz", nullable=False, default_now=True),
    ]
    return _seed_table(
        s, db, schema, "customers", columns, rows, pk=("id",), unique=("email",), description="Shop customers."
    )


def _seed_products(s: SeedContext, db: Database, schema: Schema) -> Table:
    """The population's products; those the shop keeps as drafts or archived are inactive."""
    rows: list[dict[str, CellValue]] = [
        {
            "sku": p.sku,
            "name": p.name,
            "category": p.category,
            "price": _money(p.price_cents),
            "cost": _money(p.cost_cents),
            "weight_grams": p.weight_grams,
            "active": not (j % 10 == 7 or j % 20 == 13),
        }
        for j, p in enumerate(s.population.products)
    ]
    columns = [
        _c("sku", "text", nullable=False),
        _c("name", "text", nullable=False),
        _c("category", "text", nullable=False),
        _c("price", "numeric", nullable=False, precision=10, scale=2),
        _c("cost", "numeric", precision=10, scale=2),
        _c("weight_grams", "integer"),
        _c("active", "boolean", nullable=False, default=True),
    ]
    return _seed_table(
        s, db, schema, "products", columns, rows, pk=("sku",), unique=("name",), description="The product catalog."
    )


ORDER_STATUS = {
    0: "pending",
    1: "paid",
    2: "shipped",
    3: "delivered",
    4: "cancelled",
    5: "delivered",
    6: "partially_shipped",
    7: "paid",
}
"""Status of consumer i's first order by ``i % 8``, following the shop's plans for the same orders."""


def _seed_orders(s: SeedContext, db: Database, schema: Schema, customers: Table, products: Table) -> None:
    """Each consumer's first shop order under its shop order number, with one to three items."""
    rng = s.rng
    catalog = [p for j, p in enumerate(s.population.products) if not (j % 10 == 7 or j % 20 == 13)]
    currency = s.population.home.place.currency
    orders: list[dict[str, CellValue]] = []
    items: list[dict[str, CellValue]] = []
    for i, _person in enumerate(s.population.consumers):
        if not places_first_order(i) or not catalog:
            continue
        plan = i % 8
        picked = rng.sample(catalog, min(len(catalog), rng.randint(1, 3)))
        lines = [(p, rng.randint(1, 3)) for p in picked]
        placed = s.ago(days=rng.randint(20, 60) if plan in (3, 5) else rng.randint(1, 15), minutes=i)
        order_id = len(orders) + 1
        orders.append(
            {
                "id": order_id,
                "order_number": first_order_number(i),
                "customer_id": i + 1,
                "status": ORDER_STATUS[plan],
                "currency": currency,
                "total": _money(sum(p.price_cents * q for p, q in lines)),
                "placed_at": ts_text(placed),
                "shipped_on": (placed + dt.timedelta(days=2)).date().isoformat() if plan in (2, 3, 5, 6) else None,
            }
        )
        items.extend(
            {"order_id": order_id, "sku": p.sku, "quantity": q, "unit_price": _money(p.price_cents)} for p, q in lines
        )
    order_columns = [
        _c("id", "integer", nullable=False, identity=True),
        _c("order_number", "text", nullable=False),
        _c("customer_id", "integer", nullable=False),
        _c("status", "text", nullable=False, default="pending"),
        _c("currency", "text", nullable=False),
        _c("total", "numeric", nullable=False, precision=12, scale=2),
        _c("placed_at", "timestamptz", nullable=False, default_now=True),
        _c("shipped_on", "date"),
    ]
    order_table = _seed_table(
        s,
        db,
        schema,
        "orders",
        order_columns,
        orders,
        pk=("id",),
        unique=("order_number",),
        fks=(
            ForeignKey(
                name="orders_customer_id_fkey",
                columns=("customer_id",),
                references_table_id=customers.id,
                references_columns=("id",),
            ),
        ),
        description="Orders, under the shop's order numbers.",
    )
    item_columns = [
        _c("order_id", "integer", nullable=False),
        _c("sku", "text", nullable=False),
        _c("quantity", "integer", nullable=False),
        _c("unit_price", "numeric", nullable=False, precision=10, scale=2),
    ]
    _seed_table(
        s,
        db,
        schema,
        "order_items",
        item_columns,
        items,
        pk=("order_id", "sku"),
        fks=(
            ForeignKey(
                name="order_items_order_id_fkey",
                columns=("order_id",),
                references_table_id=order_table.id,
                references_columns=("id",),
                on_delete="cascade",
            ),
            ForeignKey(
                name="order_items_sku_fkey",
                columns=("sku",),
                references_table_id=products.id,
                references_columns=("sku",),
            ),
        ),
        description="The lines of each order.",
    )


def _seed_accounts(s: SeedContext, db: Database, schema: Schema) -> None:
    """The customer companies as accounts, each with an account manager from Sales."""
    reps = s.population.staff("Sales", fallback=3)
    rows: list[dict[str, CellValue]] = [
        {
            "id": k + 1,
            "company": c.name,
            "domain": c.domain,
            "industry": c.industry,
            "city": c.address.city,
            "country": c.address.country,
            "employees": c.employees,
            "account_manager_email": s.rng.choice(reps).email,
        }
        for k, c in enumerate(s.population.customers)
    ]
    columns = [
        _c("id", "integer", nullable=False, identity=True),
        _c("company", "text", nullable=False),
        _c("domain", "text", nullable=False),
        _c("industry", "text"),
        _c("city", "text"),
        _c("country", "text"),
        _c("employees", "integer"),
        _c("account_manager_email", "text", nullable=False),
    ]
    _seed_table(
        s,
        db,
        schema,
        "accounts",
        columns,
        rows,
        pk=("id",),
        unique=("domain",),
        description="Customer companies with their account managers.",
    )


def _seed_contacts(s: SeedContext, db: Database, schema: Schema) -> None:
    """The old CRM's contacts: the first customer contacts of the population."""
    pop = s.population
    rows: list[dict[str, CellValue]] = []
    for k, p in enumerate(pop.contacts[:12]):
        company = pop.company_of(p)
        rows.append(
            {
                "id": k + 1,
                "email": p.email,
                "full_name": p.name,
                "company": company.name if company else None,
                "title": p.job_title,
                "last_contacted": (s.now - dt.timedelta(days=s.rng.randint(200, 900))).date().isoformat(),
            }
        )
    columns = [
        _c("id", "integer", nullable=False, identity=True),
        _c("email", "text", nullable=False),
        _c("full_name", "text", nullable=False),
        _c("company", "text"),
        _c("title", "text"),
        _c("last_contacted", "date"),
    ]
    _seed_table(s, db, schema, "contacts", columns, rows, pk=("id",), unique=("email",), description="Old contacts.")


SAVED_QUERIES: tuple[tuple[str, str, str, str, Sequence[str]], ...] = (
    (
        "commerce",
        "Customer by e-mail",
        "SELECT id, first_name, last_name, email, phone, country FROM customers WHERE email = $1",
        "Look a customer up by e-mail address.",
        ("email",),
    ),
    (
        "commerce",
        "Orders of a customer",
        "SELECT order_number, status, total, placed_at FROM orders WHERE customer_id = $1 ORDER BY placed_at DESC",
        "A customer's orders, newest first.",
        ("customer_id",),
    ),
    (
        "commerce",
        "Open orders",
        "SELECT order_number, status, total FROM orders WHERE status = $1 OR status = $2 ORDER BY placed_at LIMIT 50",
        "Orders still to ship: pass 'pending' and 'paid'.",
        ("pending", "paid"),
    ),
    (
        "commerce",
        "Active products in a category",
        "SELECT sku, name, price FROM products WHERE category = $1 AND active = TRUE ORDER BY price DESC",
        "The live catalog of one category, dearest first.",
        ("electronics",),
    ),
    (
        "commerce",
        "Mark an order shipped",
        "UPDATE orders SET status = $2, shipped_on = current_date WHERE order_number = $1 RETURNING order_number, status",
        "Used by the warehouse before the shop integration.",
        (),
    ),
    (
        "analytics",
        "Accounts by manager",
        "SELECT company, domain, industry FROM accounts WHERE account_manager_email = $1 ORDER BY company",
        "The accounts one account manager looks after.",
        ("manager",),
    ),
)
"""Saved queries: (database, name, SQL, description, the parameters of a seeded run: column names to take from the
first row, or literal values)."""


def _seed_saved_queries(s: SeedContext, *dbs: Database) -> None:
    """The teams' saved queries (the shipping one archived) and their recent runs in the history."""
    by_name = {db.name: db for db in dbs}
    staff = s.population.staff("Engineering", "Operations", "Finance", fallback=3)
    all_rows = s.records(Row)
    for k, (db_name, name, sql, description, sample) in enumerate(SAVED_QUERIES):
        db = by_name[db_name]
        ex = Executor(
            lambda db=db: [t for t in s.records(Table) if t.database_id == db.id],  # type: ignore[misc]
            lambda table_id: [r for r in all_rows if r.table_id == table_id],
            s.now,
        )
        command, count = _analyse(ex, sql)
        when = s.ago(days=200 - 20 * k)
        saved = s.create(
            SavedQuery,
            database_id=db.id,
            name=name,
            sql=sql,
            description=description,
            owner_email=staff[k % len(staff)].email,
            command=command,
            param_count=count,
            status="archived" if command != "SELECT" else "active",
            created_at=when,
            updated_at=when,
        )
        if command != "SELECT" or len(sample) != count:
            continue
        table = _resolve_table(ex.tables(), parse(sql).table)
        first = ex.rows(table.id)[s.rng.randrange(len(ex.rows(table.id)))].values
        params = [first[p] if p in first else _sample_value(s, p) for p in sample]
        out = ex.run(sql, params, read_only=True)
        s.create(
            QueryRun,
            database_id=db.id,
            saved_query_id=saved.id,
            sql=sql,
            params=tuple(params),
            command=out.command,
            row_count=out.row_count,
            ran_at=s.ago(days=k + 1, hours=3),
        )


def _sample_value(s: SeedContext, name: str) -> ParamValue:
    if name == "manager":
        return s.population.staff("Sales", fallback=3)[0].email
    return name
