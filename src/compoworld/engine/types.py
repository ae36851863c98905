"""The shared semantic vocabulary that connects services.

A semantic type is attached to a field or parameter through ``typing.Annotated``
metadata. It shows up in the JSON Schema as ``x-semantic-type`` and is what the
dependency graph connects: a field typed as a bare ``str`` connects nothing.

Three kinds exist:

* ``value``: shared values such as an e-mail address or an amount of money;
* ``id``: the identifier of one resource of one service (``crm.contact``);
* ``ref``: cross-service reference numbers (tracking number, invoice number …).

A value type may be *generic* (a country, a plain quantity): an agent can simply
be told such a value, so it does not count as a dependency between tools.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    StringConstraints,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema as cs

__all__ = [
    "SEMANTIC_KEY",
    "AccountNumber",
    "Cents",
    "City",
    "CompanyName",
    "Country",
    "Currency",
    "Date",
    "DateTime",
    "Domain",
    "Email",
    "FileLink",
    "FirstName",
    "IdOf",
    "InvoiceNumber",
    "JobTitle",
    "Language",
    "LastName",
    "Latitude",
    "Longitude",
    "MeetingLink",
    "OrderNumber",
    "Percent",
    "PersonName",
    "Phone",
    "PostalAddress",
    "PostalCode",
    "Quantity",
    "SemanticType",
    "Sku",
    "Text",
    "Ticker",
    "Timezone",
    "Title",
    "TrackingNumber",
    "Url",
    "semantic_of",
]

SEMANTIC_KEY = "x-semantic-type"
"""JSON Schema key under which a field's semantic type is published."""


@dataclass(frozen=True, slots=True)
class SemanticType:
    """Annotated metadata naming the semantic type of a value.

    Attributes:
        name: Dotted name, e.g. ``email`` or ``crm.contact.id``.
        kind: ``value``, ``id`` or ``ref``.
        generic: True for values an agent can simply be told (a country, a
            plain number); such values do not make dependency edges.
    """

    name: str
    kind: Literal["value", "id", "ref"] = "value"
    generic: bool = False

    def __get_pydantic_json_schema__(
        self, core_schema: cs.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema = handler(core_schema)
        schema[SEMANTIC_KEY] = self.name
        if self.generic:
            schema["x-semantic-generic"] = True
        return schema


def IdOf(resource: str) -> SemanticType:  # noqa: N802 - reads as a type constructor
    """Semantic type of the id of ``resource`` (``service.resource``).

    Args:
        resource: The resource's qualified name, e.g. ``crm.contact``.

    Returns:
        The metadata to put in ``Annotated[str, IdOf("crm.contact")]``.
    """
    if resource.count(".") != 1:
        raise ValueError(f"resource name must be 'service.resource', got {resource!r}")
    return SemanticType(f"{resource}.id", kind="id")


def semantic_of(metadata: tuple[Any, ...] | list[Any]) -> SemanticType | None:
    """Return the semantic type found in Annotated metadata, if any.

    Args:
        metadata: The ``__metadata__`` of an Annotated type or a FieldInfo's metadata.

    Returns:
        The first :class:`SemanticType` in ``metadata`` or None.
    """
    for item in metadata:
        if isinstance(item, SemanticType):
            return item
    return None


def _strip(value: str) -> str:
    stripped = value.strip()
    if not stripped:
        raise ValueError("must not be blank")
    return stripped


class _NonBlankValidator(AfterValidator):
    """Strips a string and refuses a blank one; its JSON Schema says so (a non-space ``pattern``)."""

    def __get_pydantic_json_schema__(
        self, core_schema: cs.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema = handler(core_schema)
        schema.setdefault("pattern", r"\S")
        return schema


_NonBlank = _NonBlankValidator(_strip)

Email = Annotated[
    str,
    SemanticType("email"),
    StringConstraints(pattern=r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$", max_length=254, to_lower=True),
]
"""An e-mail address, normalised to lower case."""

Phone = Annotated[str, SemanticType("phone"), StringConstraints(pattern=r"^\+[1-9][0-9]{6,14}$")]
"""A phone number in E.164 form (``+14155550123``)."""

PersonName = Annotated[str, SemanticType("person.name"), StringConstraints(min_length=1, max_length=120), _NonBlank]
"""A person's full name."""

FirstName = Annotated[str, SemanticType("person.first_name"), StringConstraints(min_length=1, max_length=60), _NonBlank]
"""A person's given name."""

LastName = Annotated[str, SemanticType("person.last_name"), StringConstraints(min_length=1, max_length=60), _NonBlank]
"""A person's family name."""

JobTitle = Annotated[str, SemanticType("person.job_title"), StringConstraints(min_length=1, max_length=120), _NonBlank]
"""A job title."""

CompanyName = Annotated[str, SemanticType("company.name"), StringConstraints(min_length=1, max_length=160), _NonBlank]
"""A company's name."""

Domain = Annotated[
    str,
    SemanticType("company.domain"),
    StringConstraints(pattern=r"^[a-z0-9-]+(\.[a-z0-9-]+)+$", max_length=253, to_lower=True),
]
"""An internet domain name (``acme.example``)."""

Url = Annotated[str, SemanticType("url"), StringConstraints(pattern=r"^https?://\S+$", max_length=2048)]
"""An http(s) URL."""

Country = Annotated[str, SemanticType("country", generic=True), StringConstraints(pattern=r"^[A-Z]{2}$")]
"""An ISO 3166-1 alpha-2 country code."""

City = Annotated[str, SemanticType("city", generic=True), StringConstraints(min_length=1, max_length=80), _NonBlank]
"""A city name."""

PostalCode = Annotated[str, SemanticType("postal_code"), StringConstraints(pattern=r"^[A-Z0-9][A-Z0-9 -]{1,9}$")]
"""A postal code."""

Currency = Annotated[str, SemanticType("currency", generic=True), StringConstraints(pattern=r"^[A-Z]{3}$")]
"""An ISO 4217 currency code."""

Cents = Annotated[int, SemanticType("money.amount"), Field(ge=0, le=10**12)]
"""An amount of money in minor units (cents), never negative."""

Quantity = Annotated[int, SemanticType("quantity", generic=True), Field(ge=0, le=10**9)]
"""A count of items."""

Percent = Annotated[float, SemanticType("percent", generic=True), Field(ge=0, le=100)]
"""A percentage between 0 and 100."""

Language = Annotated[str, SemanticType("language", generic=True), StringConstraints(pattern=r"^[a-z]{2}$")]
"""An ISO 639-1 language code."""

_FULL_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DATE_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})"
)


def _date_text(value: Any) -> Any:
    """A ``YYYY-MM-DD`` string as the date it names; anything else as it is, for the date validator to judge.

    Strict validation (the runtime's) takes only date objects; this keeps the JSON form, RFC 3339's
    ``full-date`` (the schema's ``format: date``), and nothing else: not ``0``, not ``"1700006400"``.
    """
    if type(value) is str and _FULL_DATE.fullmatch(value):
        return _dt.date.fromisoformat(value)
    return value


def _date_time_text(value: Any) -> Any:
    """An RFC 3339 ``date-time`` string (the schema's ``format: date-time``: seconds and offset given) as its datetime."""
    if type(value) is str and _DATE_TIME.fullmatch(value):
        return _dt.datetime.fromisoformat(value.upper())
    return value


Date = Annotated[_dt.date, SemanticType("date"), BeforeValidator(_date_text)]
"""A calendar date (``YYYY-MM-DD``)."""


def _utc(value: _dt.datetime) -> _dt.datetime:
    if value.tzinfo is None:
        return value.replace(tzinfo=_dt.UTC)
    return value.astimezone(_dt.UTC)


DateTime = Annotated[_dt.datetime, SemanticType("datetime"), BeforeValidator(_date_time_text), AfterValidator(_utc)]
"""A point in time in RFC 3339 form (``2026-03-02T09:00:00Z``); naive datetime objects are taken as UTC."""

Title = Annotated[str, SemanticType("text.title"), StringConstraints(min_length=1, max_length=200), _NonBlank]
"""A short human-written title or subject line."""

Text = Annotated[str, SemanticType("text.body", generic=True), StringConstraints(max_length=20000)]
"""Free text: a message body, a note, a description."""

Sku = Annotated[str, SemanticType("product.sku", kind="ref"), StringConstraints(pattern=r"^[A-Z0-9-]{3,32}$")]
"""A product's stock keeping unit."""

OrderNumber = Annotated[str, SemanticType("order_number", kind="ref"), StringConstraints(pattern=r"^[A-Z0-9#-]{3,32}$")]
"""A customer-facing order number."""

InvoiceNumber = Annotated[
    str, SemanticType("invoice_number", kind="ref"), StringConstraints(pattern=r"^[A-Z0-9-]{3,32}$")
]
"""A customer-facing invoice number."""

TrackingNumber = Annotated[
    str, SemanticType("tracking_number", kind="ref"), StringConstraints(pattern=r"^[A-Z0-9]{8,34}$")
]
"""A carrier's tracking number."""

AccountNumber = Annotated[
    str, SemanticType("account_number", kind="ref"), StringConstraints(pattern=r"^[A-Z0-9-]{4,34}$")
]
"""A customer or bank account number."""

FileLink = Annotated[str, SemanticType("file_link", kind="ref"), StringConstraints(pattern=r"^https://\S+$")]
"""A shareable link to a stored file."""

MeetingLink = Annotated[str, SemanticType("meeting_link", kind="ref"), StringConstraints(pattern=r"^https://\S+$")]
"""A link to join an online meeting."""


Ticker = Annotated[str, SemanticType("stock.ticker", kind="ref"), StringConstraints(pattern=r"^[A-Z]{1,5}$")]
"""A stock ticker symbol."""

Latitude = Annotated[float, SemanticType("geo.latitude", generic=True), Field(ge=-90, le=90)]
"""Latitude in decimal degrees."""

Longitude = Annotated[float, SemanticType("geo.longitude", generic=True), Field(ge=-180, le=180)]
"""Longitude in decimal degrees."""

Timezone = Annotated[
    str, SemanticType("timezone", generic=True), StringConstraints(pattern=r"^[A-Za-z_]+(/[A-Za-z_+-]+){0,2}$")
]
"""An IANA time zone name (``Europe/Berlin``)."""


class PostalAddress(BaseModel):
    """A postal address shared by every service that ships, bills or visits."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    street: Annotated[
        str, SemanticType("address.street"), StringConstraints(min_length=1, max_length=200), _NonBlank
    ] = Field(description="Street and number.")
    city: City = Field(description="City.")
    postal_code: PostalCode = Field(description="Postal code.")
    country: Country = Field(description="ISO 3166-1 alpha-2 country code.")

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: cs.CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        schema = handler(core_schema)
        target = handler.resolve_ref_schema(schema)
        target[SEMANTIC_KEY] = "postal_address"
        return schema
