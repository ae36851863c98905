"""Addresscheck: US and international postal address validation, standardisation and geocoding, and address books.

Modeled on the Smarty APIs: US Street Address (``/street-address`` with
``street``, ``city``, ``state``, ``zipcode``, ``match`` strict / enhanced;
candidates with ``delivery_line_1``, ``last_line``, ``components``
(``primary_number``, ``street_name``, ``street_suffix``, ``zipcode``,
``plus4_code``, ``delivery_point``, ``delivery_point_check_digit``),
``metadata`` (``record_type``, ``county_fips``, ``carrier_route``, ``rdi``
Residential / Commercial, ``latitude``, ``longitude``, ``precision``) and
``analysis`` (``dpv_match_code`` Y / N, ``dpv_footnotes``, ``footnotes``)),
US ZIP Code (``/lookup`` city_states and zipcodes), US Autocomplete Pro and
International Street (``verification_status`` Verified / Partial / None,
``address_precision`` Premise / Thoroughfare / Locality).

An open-world service: the postal database is a deterministic model of the
world's cities: every address of the world's people and companies is on file
(companies commercial, people residential, with their own postal codes), and
each city's streets are the world's street names with house numbers 1 to 240;
ZIP+4 codes, delivery points, carrier routes and rooftop offsets follow from
the address itself. Stored state is the company's address books (as Smarty
customers keep validated lists): an address is saved only once it verifies, in
its standardised form, once per book; an archived book is frozen.
"""

from __future__ import annotations

import hashlib
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Place, Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Country, DateTime, Email, IdOf, Latitude, Longitude, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold
from compoworld.world.geo import haversine_m
from compoworld.world.population import STREETS

__all__ = ["service"]

service = Service(
    "addressval",
    title="Addresscheck",
    category="address_validation",
    modeled_on="Smarty US Street Address, US ZIP Code, US Autocomplete Pro and International Street APIs "
    "(DPV, ZIP+4, RDI, geocodes) with saved address books",
    description="Postal address validation: verify and standardise US addresses with ZIP+4, delivery point, "
    "residential flag and rooftop geocode, verify international addresses, look up ZIP codes, autocomplete and "
    "reverse-geocode, and keep address books of verified addresses.",
)

Street = Annotated[str, StringConstraints(min_length=3, max_length=120)]
State = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
Zip = Annotated[str, StringConstraints(pattern=r"^[0-9]{5}(-[0-9]{4})?$")]
BookId = Annotated[str, IdOf("addressval.address_book")]
AddressId = Annotated[str, IdOf("addressval.address")]
Dpv = Literal["Y", "N"]
Rdi = Literal["Residential", "Commercial"]
Verification = Literal["Verified", "Partial", "None"]
Precision = Literal["Premise", "Thoroughfare", "Locality", "None"]
MAX_BATCH = 100
MAX_HOUSE = 240

_STATES: dict[str, tuple[str, str, str]] = {
    "New York": ("NY", "New York", "36061"),
    "Chicago": ("IL", "Cook", "17031"),
    "Austin": ("TX", "Travis", "48453"),
    "San Francisco": ("CA", "San Francisco", "06075"),
    "Seattle": ("WA", "King", "53033"),
}
"""US city: state, county, county FIPS."""
_SUFFIX = {
    "street": "St",
    "avenue": "Ave",
    "road": "Rd",
    "lane": "Ln",
    "square": "Sq",
    "boulevard": "Blvd",
    "drive": "Dr",
    "court": "Ct",
    "place": "Pl",
    "way": "Way",
}
_ABBR = {v.lower(): k for k, v in _SUFFIX.items()} | {"st": "street", "av": "avenue", "rd": "road", "ln": "lane"}
_STREET_RE = re.compile(r"^\s*(\d{1,6})\s+(.+?)\s*$")


def _h(*parts: object) -> int:
    return int(hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:12], 16)


def _parse(street: str) -> tuple[int, str] | None:
    """House number and canonical street name (Harbor Road) of a street line, if it names a known street."""
    m = _STREET_RE.match(street.replace(",", " ").replace(".", " "))
    if m is None:
        return None
    words = fold(m.group(2)).split()
    if words and words[-1] in _ABBR:
        words[-1] = _ABBR[words[-1]]
    name = " ".join(words)
    known = next((s for s in STREETS if fold(s) == name), None)
    return None if known is None else (int(m.group(1)), known)


def _std_line(number: int, street: str) -> str:
    words = street.split()
    suffix = _SUFFIX.get(words[-1].lower())
    return f"{number} {' '.join(words[:-1])} {suffix}" if suffix else f"{number} {street}"


_FILES: dict[tuple[int, int], dict[tuple[str, int, str], tuple[str, Rdi, str]]] = {}


def _on_file(pop: Population) -> dict[tuple[str, int, str], tuple[str, Rdi, str]]:
    """(city, number, street) → (postal code, RDI, who) for every world address."""
    key = (pop.seed, len(pop.people))
    if key not in _FILES:
        _FILES.clear()
        _FILES[key] = _draw_file(pop)
    return _FILES[key]


def _draw_file(pop: Population) -> dict[tuple[str, int, str], tuple[str, Rdi, str]]:
    out: dict[tuple[str, int, str], tuple[str, Rdi, str]] = {}
    for c in pop.companies:
        p = _parse(c.address.street)
        if p is not None:
            out[(c.address.city, *p)] = (c.address.postal_code, "Commercial", c.name)
    for person in pop.people:
        p = _parse(person.address.street)
        if p is not None:
            out.setdefault((person.address.city, *p), (person.address.postal_code, "Residential", person.name))
    return out


def _place(pop: Population, city: str | None, country: str) -> Place | None:
    if city is None:
        return None
    return next((pl for pl in pop.places if pl.country == country and fold(pl.city) == fold(city)), None)


# -- result models -----------------------------------------------------------------------------------------


class Components(BaseModel):
    """The parts of a standardised US address."""

    primary_number: str = Field(description="House number.")
    street_name: str = Field(description="Street name.")
    street_suffix: str = Field(description="USPS suffix abbreviation (St, Ave, Rd).")
    city_name: str = Field(description="USPS preferred city name.")
    state_abbreviation: str = Field(description="State.")
    zipcode: str = Field(description="5-digit ZIP code.")
    plus4_code: str = Field(description="ZIP+4 add-on.")
    delivery_point: str = Field(description="2-digit delivery point.")
    delivery_point_check_digit: str = Field(description="Check digit of the delivery point barcode.")


class Metadata(BaseModel):
    """Metadata of a US candidate."""

    record_type: Literal["S", "H"] = Field(description="S street, H high-rise.")
    zip_type: Literal["Standard"] = Field(description="ZIP type.")
    county_name: str = Field(description="County.")
    county_fips: str = Field(description="County FIPS code.")
    carrier_route: str = Field(description="USPS carrier route (C012).")
    rdi: Rdi = Field(description="Residential or Commercial.")
    latitude: Latitude = Field(description="Latitude.")
    longitude: Longitude = Field(description="Longitude.")
    precision: Literal["Rooftop", "Zip9"] = Field(description="Geocode precision.")
    time_zone: str = Field(description="IANA timezone.")


class Analysis(BaseModel):
    """Delivery point validation of a candidate."""

    dpv_match_code: Dpv = Field(description="Y deliverable, N not deliverable (number out of range).")
    dpv_footnotes: str = Field(description="AABB confirmed; AAM1 house number missing; AAM3 number invalid.")
    active: bool = Field(description="Whether mail is delivered there.")
    footnotes: str = Field(description="A# corrected ZIP, B# corrected city/state, N# standardised, empty if none.")


class Candidate(BaseModel):
    """A standardised US address."""

    input_index: int = Field(description="Index of the lookup it answers.")
    delivery_line_1: str = Field(description="Standardised street line.")
    last_line: str = Field(description="City, state and ZIP+4.")
    delivery_point_barcode: str = Field(description="ZIP+4, delivery point and check digit.")
    components: Components = Field(description="Its parts.")
    metadata: Metadata = Field(description="Metadata.")
    analysis: Analysis = Field(description="Validation.")


class Lookup(BaseModel):
    """One US address to verify."""

    street: Street = Field(description="Street line (48 Harbor Road).")
    city: City | None = Field(default=None, description="City.")
    state: State | None = Field(default=None, description="State.")
    zipcode: Zip | None = Field(default=None, description="ZIP code.")


def _us(pop: Population, lookup: Lookup, index: int, match: str) -> Candidate | None:
    parsed = _parse(lookup.street)
    city = lookup.city
    if city is None and lookup.zipcode is not None:
        city = next(
            (pl.city for pl in pop.places if pl.country == "US" and lookup.zipcode.startswith(pl.postal_prefix)), None
        )
    place = _place(pop, city, "US")
    if parsed is None or place is None:
        return None
    number, street = parsed
    state, county, fips = _STATES[place.city]
    deliverable = 1 <= number <= MAX_HOUSE
    if not deliverable and match == "strict":
        return None
    known = _on_file(pop).get((place.city, number, street))
    h = _h("addr", place.city, number, street)
    zipcode = known[0] if known else f"{place.postal_prefix}{100 + h % 900}"
    rdi: Rdi = known[1] if known else ("Commercial" if h % 5 == 0 else "Residential")
    plus4, dp = f"{h // 1000 % 10000:04d}", f"{number % 100:02d}"
    check = str((10 - sum(int(c) for c in zipcode + plus4 + dp) % 10) % 10)
    notes = "N#" + ("A#" if lookup.zipcode and lookup.zipcode[:5] != zipcode else "")
    notes += "B#" if (lookup.state and lookup.state != state) or lookup.city is None else ""
    words = street.split()
    lat = place.latitude + (h % 2001 - 1000) / 25000
    lon = place.longitude + (h // 2001 % 2001 - 1000) / 25000
    return Candidate(
        input_index=index,
        delivery_line_1=_std_line(number, street),
        last_line=f"{place.city} {state} {zipcode}-{plus4}",
        delivery_point_barcode=f"{zipcode}{plus4}{dp}{check}",
        components=Components(
            primary_number=str(number),
            street_name=" ".join(words[:-1]),
            street_suffix=_SUFFIX.get(words[-1].lower(), ""),
            city_name=place.city,
            state_abbreviation=state,
            zipcode=zipcode,
            plus4_code=plus4,
            delivery_point=dp,
            delivery_point_check_digit=check,
        ),
        metadata=Metadata(
            record_type="H" if rdi == "Commercial" and h % 3 == 0 else "S",
            zip_type="Standard",
            county_name=county,
            county_fips=fips,
            carrier_route=f"C{h % 90 + 1:03d}",
            rdi=rdi,
            latitude=round(lat, 5),
            longitude=round(lon, 5),
            precision="Rooftop" if known else "Zip9",
            time_zone=place.timezone,
        ),
        analysis=Analysis(
            dpv_match_code="Y" if deliverable else "N",
            dpv_footnotes="AABB" if deliverable else "AAM3",
            active=deliverable,
            footnotes=notes,
        ),
    )


# -- open-world tools --------------------------------------------------------------------------------------


def _example_us(ctx: Ctx) -> dict[str, Any]:
    a = next(p.address for p in ctx.population.people if p.address.country == "US")
    return {"street": a.street, "city": a.city, "zipcode": a.postal_code}


@service.tool(intent="verify a US street address", open_world=True, example=_example_us)
def verify_us_street(
    ctx: Ctx,
    street: Street,
    city: City | None = None,
    state: State | None = None,
    zipcode: Zip | None = None,
    match: Literal["strict", "enhanced"] = "strict",
) -> list[Candidate]:
    """Verify and standardise a US address (/street-address): ZIP+4, delivery point, RDI, county and geocode.

    An empty list means no deliverable match (strict); enhanced also returns a
    known street's undeliverable number with dpv_match_code N.

    Args:
        street: The street line with house number.
        city: City (or give the ZIP code).
        state: State abbreviation (corrected when wrong).
        zipcode: ZIP or ZIP+4 (corrected when wrong).
        match: strict (deliverable only) or enhanced.
    """
    if city is None and zipcode is None:
        raise RuleViolation("give a city or a ZIP code", field="city", hint="a street alone is ambiguous")
    found = _us(ctx.population, Lookup(street=street, city=city, state=state, zipcode=zipcode), 0, match)
    return [] if found is None else [found]


def _example_batch(ctx: Ctx) -> dict[str, Any]:
    people = [p.address for p in ctx.population.people if p.address.country == "US"][:3]
    return {"lookups": [{"street": a.street, "city": a.city} for a in people]}


@service.tool(intent="verify several US addresses at once", open_world=True, example=_example_batch)
def verify_us_batch(
    ctx: Ctx, lookups: Annotated[list[Lookup], Field(min_length=1, max_length=MAX_BATCH)]
) -> list[Candidate]:
    """Verify up to 100 US addresses in one call (strict); each candidate names its input_index.

    Args:
        lookups: The addresses.
    """
    out: list[Any] = []
    for i, lk in enumerate(lookups):
        if lk.city is None and lk.zipcode is None:
            raise RuleViolation("give a city or a ZIP code", field=f"lookups.{i}.city", hint="fix that lookup")
        c = _us(ctx.population, lk, i, "strict")
        if c is not None:
            out.append(c)
    return out


class IntlResult(BaseModel):
    """An international address verification."""

    verification_status: Verification = Field(description="Verified, Partial or None.")
    address_precision: Precision = Field(description="Premise, Thoroughfare, Locality or None.")
    address1: str = Field(description="Formatted first line.")
    address2: str = Field(description="Formatted locality line.")
    locality: str = Field(description="City.")
    postal_code: str = Field(description="Postal code.")
    country_iso_3: str = Field(description="Country.")
    latitude: Latitude | None = Field(description="Latitude.")
    longitude: Longitude | None = Field(description="Longitude.")
    changes: list[str] = Field(description="Fields corrected.")


def _example_intl(ctx: Ctx) -> dict[str, Any]:
    a = next(p.address for p in ctx.population.people if p.address.country != "US")
    return {"address1": a.street, "locality": a.city, "country": a.country, "postal_code": a.postal_code}


@service.tool(intent="verify an international address", open_world=True, example=_example_intl)
def verify_international(
    ctx: Ctx,
    address1: Street,
    locality: City,
    country: Country,
    postal_code: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9][A-Z0-9 -]{1,9}$")] | None = None,
) -> IntlResult:
    """Verify a non-US address (International Street API): status and precision, formatted lines and geocode.

    Args:
        address1: Street line with house number.
        locality: City.
        country: ISO 3166-1 alpha-2 country code (not US: use verify_us_street).
        postal_code: Postal code (corrected when wrong).
    """
    if country == "US":
        raise RuleViolation("US addresses go to verify_us_street", field="country", hint="call verify_us_street")
    place = _place(ctx.population, locality, country)
    if place is None:
        return IntlResult(
            verification_status="None",
            address_precision="None",
            address1=address1,
            address2=locality,
            locality=locality,
            postal_code=postal_code or "",
            country_iso_3=country,
            latitude=None,
            longitude=None,
            changes=[],
        )
    parsed = _parse(address1)
    ok = parsed is not None and 1 <= parsed[0] <= MAX_HOUSE
    known = _on_file(ctx.population).get((place.city, *parsed)) if parsed else None
    h = _h("intl", place.city, address1)
    code = (
        known[0]
        if known
        else (
            postal_code
            if postal_code and postal_code.startswith(place.postal_prefix)
            else f"{place.postal_prefix}{100 + h % 900}"
        )
    )
    changes = ["postal_code"] if postal_code and postal_code != code and ok else []
    line = f"{parsed[0]} {parsed[1]}" if parsed else address1
    return IntlResult(
        verification_status="Verified" if ok else "Partial",
        address_precision="Premise" if ok else "Thoroughfare" if parsed else "Locality",
        address1=line,
        address2=f"{code} {place.city}",
        locality=place.city,
        postal_code=code if ok else (postal_code or ""),
        country_iso_3=country,
        latitude=round(place.latitude + (h % 2001 - 1000) / 25000, 5),
        longitude=round(place.longitude + (h // 2001 % 2001 - 1000) / 25000, 5),
        changes=changes,
    )


class ZipInfo(BaseModel):
    """A US ZIP code with its city."""

    zipcode: str = Field(description="The ZIP code.")
    city: str = Field(description="Default city.")
    state_abbreviation: str = Field(description="State.")
    county_name: str = Field(description="County.")
    county_fips: str = Field(description="County FIPS.")
    latitude: Latitude = Field(description="Centroid latitude.")
    longitude: Longitude = Field(description="Centroid longitude.")


def _example_zip(ctx: Ctx) -> dict[str, Any]:
    return {"zipcode": next(p.address.postal_code for p in ctx.population.people if p.address.country == "US")}


@service.tool(intent="look up a US ZIP code", open_world=True, example=_example_zip)
def lookup_zipcode(ctx: Ctx, zipcode: Annotated[str, StringConstraints(pattern=r"^[0-9]{5}$")]) -> ZipInfo:
    """Look up a ZIP code's city, state, county and centroid (US ZIP Code API).

    Args:
        zipcode: The 5-digit ZIP code.
    """
    place = next(
        (pl for pl in ctx.population.places if pl.country == "US" and zipcode.startswith(pl.postal_prefix)), None
    )
    if place is None or int(zipcode[2:]) < 100:
        raise NotFound(
            f"ZIP code {zipcode} is not in use", field="zipcode", hint="check the code, or verify the street"
        )
    state, county, fips = _STATES[place.city]
    h = _h("zip", zipcode)
    return ZipInfo(
        zipcode=zipcode,
        city=place.city,
        state_abbreviation=state,
        county_name=county,
        county_fips=fips,
        latitude=round(place.latitude + (h % 201 - 100) / 2000, 4),
        longitude=round(place.longitude + (h // 201 % 201 - 100) / 2000, 4),
    )


class Suggestion(BaseModel):
    """An autocomplete suggestion."""

    street_line: str = Field(description="Street line.")
    city: str = Field(description="City.")
    state: str = Field(description="State.")
    zipcode: str = Field(description="ZIP code.")


def _example_auto(ctx: Ctx) -> dict[str, Any]:
    a = next(p.address for p in ctx.population.people if p.address.country == "US")
    return {"search": a.street[:6]}


@service.tool(intent="autocomplete a US address", open_world=True, example=_example_auto)
def autocomplete_us(
    ctx: Ctx, search: Annotated[str, StringConstraints(min_length=3, max_length=80)], city: City | None = None
) -> list[Suggestion]:
    """Suggest US addresses on file that start like the typed text (US Autocomplete Pro), at most ten.

    Args:
        search: What was typed so far (48 Harb).
        city: Prefer this city.
    """
    q = fold(search)
    out: list[Any] = []
    for (c, number, street), (code, _, _) in sorted(_on_file(ctx.population).items(), key=lambda kv: kv[0]):
        if c in _STATES and fold(f"{number} {street}").startswith(q) and (city is None or fold(city) == fold(c)):
            out.append(Suggestion(street_line=_std_line(number, street), city=c, state=_STATES[c][0], zipcode=code))
    return out[:10]


def _example_point(ctx: Ctx) -> dict[str, Any]:
    place = next(pl for pl in ctx.population.places if pl.country == "US")
    return {"latitude": place.latitude, "longitude": place.longitude}


@service.tool(intent="find US addresses near a point", open_world=True, example=_example_point)
def reverse_geocode(ctx: Ctx, latitude: Latitude, longitude: Longitude) -> list[Candidate]:
    """The nearest US addresses on file to a point (US Reverse Geo API), nearest first, within 5 km.

    Args:
        latitude: Latitude.
        longitude: Longitude.
    """
    pop = ctx.population
    found = []
    for (c, number, street), (code, _, _) in _on_file(pop).items():
        if c in _STATES:
            cand = _us(pop, Lookup(street=f"{number} {street}", city=c, zipcode=code), 0, "strict")
            if cand is not None:
                d = haversine_m(latitude, longitude, cand.metadata.latitude, cand.metadata.longitude)
                if d <= 5000:
                    found.append((d, cand))
    return [c for _, c in sorted(found, key=lambda x: (x[0], x[1].delivery_line_1))[:10]]


_EXTRACT = re.compile(r"\b(\d{1,6}\s+[A-Za-z]+(?:\s+[A-Za-z]+)?)[,\s]+([A-Z][A-Za-z]+(?:\s[A-Z][a-z]+)?)\b")


class Extracted(BaseModel):
    """An address found in text."""

    text: str = Field(description="The text found.")
    verified: bool = Field(description="Whether it verified as a deliverable US address.")
    candidate: Candidate | None = Field(description="Its standardised form, when verified.")


def _example_text(ctx: Ctx) -> dict[str, Any]:
    a = next(p.address for p in ctx.population.people if p.address.country == "US")
    return {"text": f"Please ship to {a.street}, {a.city} by Friday."}


@service.tool(intent="find addresses in a text", open_world=True, example=_example_text)
def extract_addresses(
    ctx: Ctx, text: Annotated[str, StringConstraints(min_length=10, max_length=20000)]
) -> list[Extracted]:
    """Find US street addresses in free text (US Extract API) and verify each one found.

    Args:
        text: Any text: an e-mail, a note, a signature.
    """
    out: list[Any] = []
    for m in _EXTRACT.finditer(text):
        if _parse(m.group(1)) is None or _place(ctx.population, m.group(2), "US") is None:
            continue
        c = _us(ctx.population, Lookup(street=m.group(1), city=m.group(2)), len(out), "strict")
        out.append(Extracted(text=m.group(0), verified=c is not None, candidate=c))
    return out


# -- address books -----------------------------------------------------------------------------------------


class AddressBook(Timestamped):
    """A list of verified addresses."""

    id: BookId
    name: Title
    """Its name (Customer shipping addresses)."""
    owner_email: Email
    """The employee who keeps it."""
    status: Literal["active", "archived"] = "active"
    """active, or archived (frozen)."""


class SavedAddress(Timestamped):
    """A verified address saved in a book."""

    id: AddressId
    address_book_id: BookId
    """The book."""
    label: Title
    """What it is (HQ, Warehouse, Jane's home)."""
    contact_email: Email | None = None
    """Who lives or works there, when known."""
    delivery_line_1: str
    """Standardised street line."""
    last_line: str
    """City, state and ZIP+4 (US) or postal code and city."""
    country: Country
    """Country."""
    zipcode: str
    """ZIP or postal code."""
    rdi: Rdi | None = None
    """Residential or Commercial (US)."""
    latitude: Latitude | None = None
    """Latitude."""
    longitude: Longitude | None = None
    """Longitude."""
    verified_at: DateTime
    """When it last verified."""


def _guard_book(ctx: Ctx, new: AddressBook, old: AddressBook | None) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"address book {old.id} is archived", field="address_book_id", hint="create a new one")
    if new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(
            f"{new.owner_email} is not an employee", field="owner_email", hint="books are kept by staff"
        )


def _open_book(ctx: Ctx, book_id: str, field: str = "address_book_id") -> AddressBook:
    b = ctx.get(AddressBook, book_id, field=field)
    if b.status == "archived":
        raise RuleViolation(f"address book {b.id} is archived", field=field, hint="archived books are frozen")
    return b


def _guard_saved(ctx: Ctx, new: SavedAddress | None, old: SavedAddress | None) -> None:
    _open_book(ctx, (new or old).address_book_id, "address_id")  # type: ignore[union-attr]


def _guard_book_delete(ctx: Ctx, new: None, old: AddressBook) -> None:
    for a in ctx.where(SavedAddress, address_book_id=old.id):
        ctx.delete(a)


books = service.resource(
    AddressBook,
    name="address_book",
    plural="address_books",
    prefix="abk",
    create=("name", "owner_email"),
    filters=("owner_email", "status"),
    search=("name",),
    update=("name", "owner_email"),
    transitions={
        "archive": Transition("status", ("active",), "archived", "archive the address book", destructive=True)
    },
    guard_create=_guard_book,
    guard_update=_guard_book,
    guard_delete=_guard_book_delete,
    title="address book",
)
addresses = service.resource(
    SavedAddress,
    name="address",
    plural="addresses",
    prefix="adr",
    create=False,
    title="saved address",
    filters=("address_book_id", "country", "zipcode", "rdi", "contact_email"),
    search=("label", "delivery_line_1"),
    update=("label", "contact_email"),
    guard_update=_guard_saved,
    guard_delete=_guard_saved,
)


def _verified(ctx: Ctx, street: str, city: str, postal_code: str | None, country: str) -> dict[str, Any]:
    """The standardised fields of an address that verifies, or a refusal."""
    if country == "US":
        found = verify_us_street(ctx, street, city=city, zipcode=postal_code)
        if not found:
            raise RuleViolation(
                f"{street}, {city} is not a deliverable US address",
                field="street",
                hint="check it with addressval__verify_us_street (match=enhanced)",
            )
        c = found[0]
        return {
            "delivery_line_1": c.delivery_line_1,
            "last_line": c.last_line,
            "zipcode": c.components.zipcode,
            "rdi": c.metadata.rdi,
            "latitude": c.metadata.latitude,
            "longitude": c.metadata.longitude,
        }
    r = verify_international(ctx, street, city, country, postal_code)
    if r.verification_status != "Verified":
        raise RuleViolation(
            f"{street}, {city} verifies only as {r.verification_status}",
            field="street",
            hint="check it with addressval__verify_international",
        )
    return {
        "delivery_line_1": r.address1,
        "last_line": r.address2,
        "zipcode": r.postal_code,
        "latitude": r.latitude,
        "longitude": r.longitude,
    }


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(AddressBook, status="active")
    if b is None:
        return None
    p = next(p for p in ctx.population.consumers if p.address.country != "US")
    a = p.address
    return {
        "address_book_id": b.id,
        "label": f"{p.name} home",
        "street": a.street,
        "city": a.city,
        "country": a.country,
        "postal_code": a.postal_code,
        "contact_email": p.email,
    }


@service.tool(intent="save a verified address in the address book", write=True, example=_example_add)
def add_address(
    ctx: Ctx,
    address_book_id: BookId,
    label: Title,
    street: Street,
    city: City,
    country: Country,
    postal_code: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9][A-Z0-9 -]{1,9}$")] | None = None,
    contact_email: Email | None = None,
) -> SavedAddress:
    """Verify an address and save its standardised form; undeliverable addresses and duplicates are refused.

    Args:
        address_book_id: The book (active).
        label: What it is.
        street: Street line with house number.
        city: City.
        country: ISO 3166-1 alpha-2 country code.
        postal_code: ZIP or postal code.
        contact_email: Who lives or works there.
    """
    b = _open_book(ctx, address_book_id)
    fields = _verified(ctx, street, city, postal_code, country)
    for other in ctx.where(SavedAddress, address_book_id=b.id, zipcode=fields["zipcode"]):
        if other.delivery_line_1 == fields["delivery_line_1"]:
            raise Conflict(
                f"the address is already saved as {other.id} ({other.label})",
                field="street",
                hint="update that entry's label instead",
            )
    return ctx.create(
        SavedAddress,
        address_book_id=b.id,
        label=label,
        contact_email=contact_email,
        country=country,
        verified_at=ctx.now(),
        **fields,
    )


@service.tool(intent="re-verify the saved address", write=True, example=first_example(SavedAddress, "address_id"))
def reverify_address(ctx: Ctx, address_id: AddressId) -> SavedAddress:
    """Verify a saved address again and refresh its standardised fields and verification time.

    Args:
        address_id: The saved address (in an active book).
    """
    a = ctx.get(SavedAddress, address_id, field="address_id")
    _open_book(ctx, a.address_book_id, "address_id")
    city = a.last_line.split(" ", 1)[1] if a.country != "US" else a.last_line.rsplit(" ", 2)[0]
    fields = _verified(ctx, a.delivery_line_1, city, None if a.country == "US" else a.zipcode, a.country)
    return ctx.update(a, verified_at=ctx.now(), **fields)


@service.tool(
    intent="re-verify every address in the book",
    write=True,
    example=first_example(AddressBook, "address_book_id", where={"status": "active"}),
)
def reverify_book(ctx: Ctx, address_book_id: BookId) -> list[SavedAddress]:
    """Verify every address of a book again; returns the addresses whose standardised form changed.

    Args:
        address_book_id: The book (active).
    """
    b = _open_book(ctx, address_book_id)
    changed = []
    for a in ctx.where(SavedAddress, address_book_id=b.id):
        again = reverify_address(ctx, a.id)
        if (again.delivery_line_1, again.last_line, again.zipcode) != (a.delivery_line_1, a.last_line, a.zipcode):
            changed.append(again)
    return changed


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Operations' books: customers' company addresses and consumers' homes, verified; last year's book archived."""
    pop = s.population
    ops = pop.staff("Operations", "Sales", fallback=3)
    plans = (
        ("Customer sites", "active", 200),
        ("Consumer shipping addresses", "active", 60),
        ("2025 trade show mailing", "archived", 400),
    )
    for k, (name, status, days) in enumerate(plans):
        b = s.create(
            AddressBook,
            name=name,
            owner_email=ops[k % len(ops)].email,
            status=status,
            created_at=s.ago(days=days),
            updated_at=s.ago(days=days // 3),
        )
        if k == 0:
            entries = [(c.name, c.address, pop.first_contact(c)) for c in pop.customers[:8]]
        else:
            entries = [(f"{p.name} home", p.address, p) for p in pop.consumers[(k - 1) * 8 : k * 8]]
        for label, a, who in entries:
            parsed = _parse(a.street)
            place = _place(pop, a.city, a.country)
            if parsed is None or place is None:
                continue
            if a.country == "US":
                c = _us(pop, Lookup(street=a.street, city=a.city, zipcode=a.postal_code), 0, "strict")
                if c is None:
                    continue
                fields: dict[str, Any] = {
                    "delivery_line_1": c.delivery_line_1,
                    "last_line": c.last_line,
                    "zipcode": c.components.zipcode,
                    "rdi": c.metadata.rdi,
                    "latitude": c.metadata.latitude,
                    "longitude": c.metadata.longitude,
                }
            else:
                h = _h("intl", place.city, a.street)
                fields = {
                    "delivery_line_1": f"{parsed[0]} {parsed[1]}",
                    "last_line": f"{a.postal_code} {place.city}",
                    "zipcode": a.postal_code,
                    "latitude": round(place.latitude + (h % 2001 - 1000) / 25000, 5),
                    "longitude": round(place.longitude + (h // 2001 % 2001 - 1000) / 25000, 5),
                }
            s.create(
                SavedAddress,
                address_book_id=b.id,
                label=label,
                contact_email=who.email if who else None,
                country=a.country,
                verified_at=s.ago(days=days - 1),
                created_at=s.ago(days=days - 1),
                updated_at=s.ago(days=days - 1),
                **fields,
            )
