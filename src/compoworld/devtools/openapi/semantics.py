"""Semantic types for the fields of an OpenAPI document, inferred from names, formats and examples.

A field that carries an e-mail address, a phone number, a date or an amount of
money is what connects a service to the others in scenarios; a bare string
connects nothing. Each rule names the engine type it gives and why; an example
in the document that the type would refuse (``"Germany"`` for a two-letter
country code) overrides the rule, and the field stays generic, with the reason.
Ids of other resources are not decided here: they need the plan's resources.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError

from compoworld.engine import types as engine_types

__all__ = ["Inference", "infer_semantic", "snake", "tokens"]


@dataclass(frozen=True, slots=True)
class Inference:
    """What was decided for one field.

    Attributes:
        type_name: The engine type (``Email``, ``Phone`` …), or None when the field stays generic.
        reason: Why: the rule that matched, or why none applied.
    """

    type_name: str | None
    reason: str


def snake(name: str) -> str:
    """``photoUrls`` → ``photo_urls``, ``DateCreated`` → ``date_created``, ``x-rate`` → ``x_rate``."""
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_").lower()
    if not s:
        return "field"
    return f"f_{s}" if s[0].isdigit() else s


def tokens(name: str) -> list[str]:
    """The words of a name, lower case."""
    return snake(name).split("_")


_STRING_RULES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    # (engine type, name tokens any of which match, rule description); first match wins.
    ("Email", ("email", "e_mail"), "name mentions e-mail"),
    ("Phone", ("phone", "mobile", "msisdn", "fax", "telephone"), "name mentions a phone number"),
    ("FirstName", ("first_name", "given_name", "firstname", "givenname"), "name is a first name"),
    ("LastName", ("last_name", "family_name", "surname", "lastname"), "name is a last name"),
    ("PersonName", ("full_name", "fullname", "contact_name", "customer_name"), "name is a person's name"),
    ("CompanyName", ("company", "company_name", "organization", "organisation", "org_name"), "name is a company"),
    ("Url", ("url", "uri", "website", "homepage", "webhook", "link"), "name is a URL"),
    ("Country", ("country", "country_code"), "name is a country"),
    ("Currency", ("currency", "currency_code"), "name is a currency"),
    ("Language", ("language", "lang", "locale"), "name is a language"),
    ("Timezone", ("timezone", "time_zone", "tz"), "name is a time zone"),
    ("City", ("city", "town"), "name is a city"),
    ("PostalCode", ("postal_code", "postcode", "zip", "zip_code", "zipcode"), "name is a postal code"),
    ("Sku", ("sku",), "name is a SKU"),
    ("TrackingNumber", ("tracking_number",), "name is a tracking number"),
    ("InvoiceNumber", ("invoice_number",), "name is an invoice number"),
    ("OrderNumber", ("order_number",), "name is an order number"),
    ("Title", ("title", "subject", "headline"), "name is a title"),
    ("Text", ("description", "body", "notes", "note", "comment", "message", "content", "summary"), "name is text"),
)
_FORMATS = {
    "email": "Email",
    "idn-email": "Email",
    "uri": "Url",
    "url": "Url",
    "date": "Date",
    "date-time": "DateTime",
    "phone-number": "Phone",
    "phone": "Phone",
}
_MONEY = ("amount", "price", "cost", "total", "subtotal", "balance", "fee", "tax")
_PERSON_HOLDERS = ("user", "person", "customer", "contact", "employee", "member", "owner", "author", "patient")


def infer_semantic(name: str, schema: dict[str, Any], holder: str = "") -> Inference:
    """Infer the engine semantic type of a field.

    Args:
        name: The field's name in the document.
        schema: Its resolved schema.
        holder: The snake-case name of the object that holds it (``user``), which
            decides whether a bare ``name`` is a person's.

    Returns:
        The engine type and the reason, or None and why the field stays generic.
    """
    kind = schema.get("type", "string")
    fmt = str(schema.get("format", "")).lower()
    words = [_singular_word(w) for w in tokens(name)]
    joined = "_".join(words)
    if "enum" in schema:
        return Inference(None, "an enumeration: kept as its values")
    if kind == "string":
        found = _string_rule(fmt, words, joined, holder)
        if found is None:
            return Inference(None, "no rule matched its name or format")
        type_name, reason = found
    elif kind == "integer":
        if any(w in _MONEY for w in words) and _says_minor_units(name, schema):
            type_name, reason = "Cents", "an integer amount of money in minor units"
        elif any(w in ("quantity", "qty") for w in words):
            type_name, reason = "Quantity", "name is a quantity"
        elif any(w in _MONEY for w in words):
            return Inference(None, "money, but the document does not say the unit (minor units?)")
        else:
            return Inference(None, "a plain integer")
    elif kind == "number":
        if words[-1] in ("latitude", "lat"):
            type_name, reason = "Latitude", "name is a latitude"
        elif words[-1] in ("longitude", "lng", "lon", "long"):
            type_name, reason = "Longitude", "name is a longitude"
        elif words[-1] in ("percent", "percentage", "pct"):
            type_name, reason = "Percent", "name is a percentage"
        elif any(w in _MONEY for w in words):
            return Inference(None, "money in decimal units; the engine counts money in cents")
        else:
            return Inference(None, "a plain number")
    else:
        return Inference(None, f"type {kind} has no semantic rule")
    bad = _refused_example(type_name, schema)
    if bad is not None:
        return Inference(None, f"{reason}, but the example {bad!r} does not fit {type_name}")
    return Inference(type_name, reason)


def _string_rule(fmt: str, words: list[str], joined: str, holder: str) -> tuple[str, str] | None:
    if fmt in _FORMATS:
        return _FORMATS[fmt], f"format {fmt}"
    # A project_user is a user: the holder's last word says what it is.
    if joined == "name" and holder.rsplit("_", 1)[-1] in _PERSON_HOLDERS:
        return "PersonName", f"the name of a {holder}"
    # The head of the name decides (phone_number_quality_score is a score, not a phone), after the
    # nouns that only say how a value is written (email_address, phone_number).
    head = words
    while len(head) > 1 and head[-1] in _FORM_NOUNS:
        head = head[:-1]
    name = "_".join(head)
    if name in _TELECOM_CODES:
        return None
    for type_name, keys, reason in _STRING_RULES:
        if joined in keys or name in keys or any(name.endswith(f"_{k}") for k in keys):
            return type_name, reason
    return None


_FORM_NOUNS = frozenset({"address", "number", "no", "value", "string"})
# Numeric network codes (MCC 310, MNC 260) that read like a country or a phone by their words.
_TELECOM_CODES = frozenset({"mobile_country_code", "mobile_network_code", "mcc", "mnc"})


def _says_minor_units(name: str, schema: dict[str, Any]) -> bool:
    text = f"{name} {schema.get('description', '')}".lower()
    return any(k in text for k in ("cents", "minor unit", "smallest currency unit", "in pence"))


def _refused_example(type_name: str, schema: dict[str, Any]) -> Any:
    samples = [schema["example"]] if "example" in schema else []
    samples += list(schema.get("examples") or []) if isinstance(schema.get("examples"), list) else []
    if "default" in schema and schema["default"] is not None:
        samples.append(schema["default"])
    adapter: TypeAdapter[Any] = TypeAdapter(getattr(engine_types, type_name))
    for sample in samples:
        try:
            adapter.validate_python(sample)
        except ValidationError:
            return sample
    return None


def _singular_word(word: str) -> str:
    # photo_urls is a list of URLs, emails a list of e-mail addresses: rules match the singular.
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word
